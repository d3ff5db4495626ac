"""The house rule: a module imports only from its own layer or the layers below it."""

from __future__ import annotations

import ast
from pathlib import Path

import deckpress

RANK = {  # lower number = lower layer (docs/ARCHITECTURE.md)
    "units": 0, "atomic": 0, "colors": 0, "errors": 0, "yamlfile": 0, "fonts": 0, "imagefile": 0, "pitches": 0,
    "settings": 0,
    "face": 1, "shapes": 1, "svgpath": 1,
    "model": 2, "compose": 3, "ink": 4, "backends": 5, "impose": 6, "outputs": 6, "builder": 7, "api": 8,
    "cli": 9, "bundled": 0,
}


def layer(module: str) -> str:
    return module.split(".")[0]


def test_modules_import_only_lower_layers():
    root = Path(deckpress.__file__).parent
    problems = []
    for path in root.rglob("*.py"):
        rel = path.relative_to(root).with_suffix("")
        if rel.name == "__init__" and len(rel.parts) == 1:
            continue
        here = layer(".".join(rel.parts))
        package = rel.parts[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = package[:len(package) - (node.level - 1)] if node.level > 1 else package
                target = ".".join([*base, node.module or ""]).strip(".")
                names = [target] if node.module else [f"{target}.{a.name}".strip(".") for a in node.names]
                for name in names:
                    if name and layer(name) in RANK and RANK[layer(name)] > RANK[here]:
                        problems.append(f"{rel}: imports {name}")
    assert not problems, problems
