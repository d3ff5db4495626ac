"""The house rules: a module imports only from its own layer or the layers below it, and never
another module's private (underscore) names."""

from __future__ import annotations

import ast
from pathlib import Path, PurePosixPath

import pytest

import deckpress

RANK = {  # lower number = lower layer (docs/ARCHITECTURE.md)
    "units": 0, "atomic": 0, "colors": 0, "errors": 0, "yamlfile": 0, "imagefile": 0,
    "pitches": 0, "settings": 0, "bundled": 0, "workers": 0, "separation": 0, "paths": 0,
    "face": 1, "shapes": 1, "pieceshape": 1, "svgpath": 1, "svgfile": 1, "svgnormal": 1, "vectorart": 1,
    # the text engine is one package over two layers: what the model and the backends need (fonts,
    # shaping, where words break, breaks chosen as numbers) among the values; the rest, which reads a
    # span's keys from the model, with compose
    "text.fonts": 0, "text.shaping": 0, "text.hyphenate": 0, "text.punctuation": 0, "text.linebreak": 0,
    "model": 2, "text": 3, "compose": 3, "ink": 4,
    "imposition": 5,  # geometry only: pages, placements and furniture as values, drawn by the backends
    "backends": 6, "outputs": 7, "builder": 8, "api": 9, "results": 9, "live": 9, "cli": 10,
    "__main__": 10,  # the console script: the cli, with Ctrl-C handled before anything is imported
}
PACKAGE = "deckpress"


def layer(module: str) -> str:
    """The layer a dotted module name is in: its package's, or its own where RANK names it."""
    parts = module.split(".")
    return ".".join(parts[:2]) if ".".join(parts[:2]) in RANK else parts[0]


def type_only(tree: ast.AST) -> set[int]:
    """The ids of the import statements inside `if TYPE_CHECKING:` blocks: for type checkers only,
    never run, so no part of an import circle."""
    return {id(inner) for node in ast.walk(tree) if isinstance(node, ast.If)
            and getattr(node.test, "id", getattr(node.test, "attr", None)) == "TYPE_CHECKING"
            for inner in ast.walk(node) if isinstance(inner, (ast.Import, ast.ImportFrom))}


def imported(rel: PurePosixPath, tree: ast.AST, run_only: bool = False) -> list[tuple[str, list[str]]]:
    """Every deckpress module that the module at `rel` (inside the package, like imposition/sheets.py)
    imports, relative or absolute, as a dotted name inside the package, with the names it takes;
    with `run_only`, not those imported for type checkers alone."""
    package = rel.parts[:-1]
    skipped = type_only(tree) if run_only else set()
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - (node.level - 1)] if node.level > 1 else package
                target = ".".join([*base, node.module or ""]).strip(".")
            elif node.module == PACKAGE or (node.module or "").startswith(PACKAGE + "."):
                target = node.module[len(PACKAGE) + 1:]
            else:
                continue
            names = [a.name for a in node.names]
            if node.module is None or target == "":  # `from . import x`, `from deckpress import x`: modules
                # (or the package's own __version__)
                found += [(f"{target}.{name}".strip("."), []) for name in names if not name.startswith("__")]
            else:
                found.append((target, names))
        elif isinstance(node, ast.Import):
            found += [(a.name[len(PACKAGE) + 1:], []) for a in node.names if a.name.startswith(PACKAGE + ".")]
    return found


def problems(rel: PurePosixPath, source: str) -> list[str]:
    """What breaks the house rules in the source of the module at `rel`."""
    here = layer(".".join(rel.with_suffix("").parts))
    found = [] if here in RANK else [f"{rel}: in no layer (add it to RANK)"]
    for target, names in imported(rel, ast.parse(source)):
        if target and layer(target) not in RANK:
            found.append(f"{rel}: imports {target}, which is in no layer (add it to RANK)")
        elif target and here in RANK and RANK[layer(target)] > RANK[here]:
            found.append(f"{rel}: imports {target} from a higher layer")
        for name in names:
            if name.startswith("_") and not name.startswith("__"):
                found.append(f"{rel}: imports the private name {name} from {target}")
    return found


def test_modules_import_only_lower_layers_and_no_private_names():
    root = Path(deckpress.__file__).parent
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = PurePosixPath(path.relative_to(root).as_posix())
        if rel.name == "__init__.py" and len(rel.parts) == 1:
            continue
        found += problems(rel, path.read_text(encoding="utf-8"))
    assert not found, found


@pytest.mark.parametrize("source, expected", [
    ("from ..backends.pdf import MM", "imposition/sheets.py: imports backends.pdf from a higher layer"),
    ("from ..backends import pdf", "imposition/sheets.py: imports backends from a higher layer"),
    ("from deckpress.backends.pdf import MM", "imposition/sheets.py: imports backends.pdf from a higher layer"),
    ("from deckpress import cli", "imposition/sheets.py: imports cli from a higher layer"),
    ("import deckpress.builder", "imposition/sheets.py: imports builder from a higher layer"),
    ("def f():\n    import deckpress.outputs.tts as tts", "imposition/sheets.py: imports outputs.tts from a higher layer"),
    ("from .gutterfold import _joined", "imposition/sheets.py: imports the private name _joined from imposition.gutterfold"),
    ("from deckpress.face import _DRAW", "imposition/sheets.py: imports the private name _DRAW from face"),
])
def test_the_checker_flags_a_bad_module(source, expected):
    assert problems(PurePosixPath("imposition/sheets.py"), source) == [expected]


@pytest.mark.parametrize("source", [
    "from ..face import Face", "from deckpress.units import PT", "import deckpress", "from .marks import room_for",
    "import os", "from __future__ import annotations", "from deckpress.imposition.sheets import PagePlan",
])
def test_the_checker_lets_a_good_module_be(source):
    assert problems(PurePosixPath("imposition/sheets.py"), source) == []


def test_a_module_in_no_layer_is_flagged():
    assert problems(PurePosixPath("newthing.py"), "") == ["newthing.py: in no layer (add it to RANK)"]


def test_backends_now_sit_above_imposition():
    assert not problems(PurePosixPath("backends/pdfpages.py"), "from ..imposition.furniture import Label")
    assert problems(PurePosixPath("imposition/furniture.py"), "from ..backends.pdf import MM")


# --- no import circle, within a layer too (issue 37) -----------------------------------------------

def import_graph(sources: dict[PurePosixPath, str]) -> dict[str, set[str]]:
    """Each module (a dotted name inside the package; a package by its own name) and the modules
    it imports when it runs, at its top or inside a function: `from .sheets import Room` imports
    sheets, `from . import pdf` the module pdf, `from ..model import Deck` the package model."""
    def name(rel: PurePosixPath) -> str:
        parts = rel.with_suffix("").parts
        return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)

    modules = {name(rel) for rel in sources}
    graph = {}
    for rel, source in sources.items():
        targets = {target for target, _ in imported(rel, ast.parse(source), run_only=True)}
        graph[name(rel)] = {t for t in targets if t in modules} - {name(rel)}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of `graph`: its strongly connected parts of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_module_imports_itself_round_a_circle():
    """A circle (a imports b, b imports a, at the top or in a function) hides an order the modules
    must be loaded in and makes neither layer the lower; within one layer too. Imports for type
    checkers only (`if TYPE_CHECKING:`) do not run and do not count."""
    root = Path(deckpress.__file__).parent
    sources = {PurePosixPath(p.relative_to(root).as_posix()): p.read_text(encoding="utf-8")
               for p in sorted(root.rglob("*.py"))}
    assert len(sources) > 80
    assert circles(import_graph(sources)) == []


def test_the_circle_finder_finds_a_circle_in_one_layer_and_through_a_function():
    sources = {PurePosixPath("imposition/sheets.py"): "def plan():\n    from .shapedpacking import plan_shaped\n",
               PurePosixPath("imposition/shapedpacking.py"): "from .sheets import Room\n",
               PurePosixPath("imposition/marks.py"): "from .sheets import Room\n",
               PurePosixPath("compose/elements.py"): "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                                      "    from .composer import Context\n",
               PurePosixPath("compose/composer.py"): "from .elements import DRAWERS\n"}
    assert circles(import_graph(sources)) == [["imposition.shapedpacking", "imposition.sheets"]]
