"""The public Python API (docs/API.md): its example runs, and what it returns is what it wrote."""

from __future__ import annotations

import ast
import contextlib
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

import deckpress
from deckpress import api

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path(deckpress.__file__).parent


def python_blocks(path: Path) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", path.read_text(encoding="utf-8"), flags=re.M | re.S)


def test_the_documented_example_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # list_decks() looks in the current folder
    blocks = python_blocks(ROOT / "docs" / "API.md")
    assert blocks
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        for code in blocks:
            exec(compile(code, "docs/API.md", "exec"), {})
    text = printed.getvalue()
    assert "circle-of-5/circle-of-5-cards-a4.pdf" in text and "circle-of-5-preview.png" in text
    assert re.search(r"^circle-of-5: 81 cards, 22 distinct faces, 38 pages in 6 files$", text, flags=re.M)
    assert "kanon: 75 cards" in text and "in de, en" in text
    assert "error: no deck 'metronom'" in text and "did you mean 'metronome'" in text
    assert "2 cards on mine-cards-a4.pdf, mine-backs-a4.pdf, mine-duplex-a4.pdf" in text
    assert "metronome (bundled)" in text


def test_build_returns_each_file_it_wrote_with_its_pages(tmp_path):
    results = deckpress.build(["circle-of-5"], tmp_path, papers="letter", inks=["lowink"], formats="pdf,gutterfold")
    assert [r.deck.id for r in results] == ["circle-of-5"]
    outputs = results[0].outputs
    assert sorted(o.path.name for o in outputs) == sorted(p.name for p in (tmp_path / "circle-of-5").iterdir())
    assert {o.path.name for o in outputs} >= {"circle-of-5-cards-lowink-letter.pdf",
                                              "circle-of-5-gutterfold-lowink-letter.pdf"}
    for output in outputs:
        assert output.pages == len(PdfReader(output.path).pages)
    assert callable(deckpress.build)  # still the function once the build code is loaded


def test_build_makes_every_language_by_default_and_one_when_asked(tmp_path):
    results = deckpress.build("kanon", tmp_path, papers="a4", inks="color", formats=["preview"])
    assert [(r.deck.lang, [o.path.name for o in r.outputs]) for r in results] == [
        ("de", ["kanon-preview.png"]), ("en", ["kanon-en-preview.png"])]
    one, = deckpress.build("kanon", tmp_path / "en", papers="a4", inks="color", formats=["preview"], lang="en")
    assert one.deck.lang == "en"
    assert api.languages("kanon") == api.languages("kanon", "all") == ["de", "en"]
    assert api.languages("metronome") == ["en"] and api.languages("kanon", "en") == ["en"]


def test_build_in_every_language_gives_a_result_each(tmp_path):
    results = deckpress.build("kanon", tmp_path, papers="a4", inks="color", formats=["preview"], lang="all")
    assert [r.deck.lang for r in results] == ["de", "en"]
    assert [o.path.name for r in results for o in r.outputs] == ["kanon-preview.png", "kanon-en-preview.png"]


def test_build_names_the_choices_when_one_is_unknown(tmp_path):
    with pytest.raises(ValueError, match=r"unknown paper 'latter' — did you mean 'letter'\? \(papers are a4, letter, "
                                         r"a3, a5, legal, tabloid, universal, or WIDTHxHEIGHT"):
        deckpress.build("steps", tmp_path, papers="a4,latter")
    with pytest.raises(ValueError, match=r"unknown format 'pfd' — did you mean 'pdf'"):
        deckpress.build("steps", tmp_path, formats=["pfd"])
    with pytest.raises(ValueError, match=r"unknown preset 'mcp' — did you mean 'mpc'"):
        deckpress.build("steps", tmp_path, preset="mcp")
    assert not any(tmp_path.iterdir())


def test_check_counts_cards_faces_and_languages():
    report = deckpress.check("kanon")
    deck = deckpress.load_deck("kanon")
    assert report.deck.id == "kanon" and report.cards == deck.card_count() == 75
    assert report.languages == ["de", "en"]
    assert 0 < report.faces <= report.cards + sum(1 for c in deck.components if c.back)
    assert len(report.warnings) == 0


def test_a_builds_report_counts_what_it_wrote(lowres_deck, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # paths in the report as displayed: relative to here
    results = deckpress.build(lowres_deck, "out", papers="a4", inks="color", formats="pdf,png", sides=True)
    data = deckpress.Report.of(results).to_json()
    assert list(data) == ["command", "decks", "totals"] and data["command"] == "build"
    deck, = data["decks"]
    assert list(deck) == ["id", "title", "language", "cards", "faces", "pages", "files", "warnings", "sides"]
    assert [(s["component"], s["number"]) for s in deck["sides"]] == [("art", n) for n in range(1, 6)]
    unasked = deckpress.Report.of(deckpress.build(lowres_deck, "out", papers="a4", inks="color")).to_json()
    assert "sides" not in unasked["decks"][0]  # each face's digest is made only when asked for
    written = sorted(str(p.relative_to(tmp_path)) for p in (tmp_path / "out").rglob("*") if p.is_file())
    assert sorted(deck["files"]) == written and len(written) == 4 + 5 + 1  # PDFs, a PNG per face, the manifest
    pdf_pages = sum(len(PdfReader(f).pages) for f in deck["files"] if f.endswith(".pdf"))
    assert (deck["id"], deck["title"], deck["language"]) == ("lowres", "Low resolution", "en")
    assert (deck["cards"], deck["faces"], deck["pages"]) == (6, 5, pdf_pages)  # 4 fronts and the back
    assert [w["kind"] for w in deck["warnings"]] == ["low-resolution"] * 4
    assert deck["warnings"][0] == {"file": str(Path("deck") / "deck.yaml"), "line": 12, "kind": "low-resolution",
                                   "message": "art/fruit.png is 60×80 px, printed 40×53.3 mm: 38 dpi — will look "
                                              "blurred (300 dpi wanted)"}
    assert data["totals"] == {"decks": 1, "cards": 6, "faces": 5, "pages": pdf_pages, "files": len(written),
                              "warnings": 4}


def test_a_checks_report_has_no_files_and_every_language(tmp_path):
    report = deckpress.Report.of([deckpress.check("kanon")])
    data = report.to_json()
    deck, = data["decks"]
    assert data["command"] == "check" and report.warnings == 0
    assert list(deck) == ["id", "title", "language", "languages", "cards", "faces", "warnings"]
    assert (deck["language"], deck["languages"], deck["cards"]) == ("de", ["de", "en"], 75)
    assert data["totals"] == {"decks": 1, "cards": 75, "faces": deck["faces"], "warnings": 0}
    report.write(tmp_path / "sub" / "report.json")
    assert json.loads((tmp_path / "sub" / "report.json").read_text(encoding="utf-8")) == data
    assert [p.name for p in (tmp_path / "sub").iterdir()] == ["report.json"]  # written through a temporary file


def test_check_raises_deck_error_with_file_and_line(make_deck):
    from tests.conftest import SIMPLE_DECK, SIMPLE_LAYOUT
    folder = make_deck(SIMPLE_DECK.replace("{title: Two, color: blue}", "{title: Two, colour: blue}"),
                       {"simple": SIMPLE_LAYOUT})
    with pytest.raises(deckpress.DeckError) as caught:
        deckpress.check(folder)
    assert caught.value.line == 16 and "did you mean 'color'" in str(caught.value)


def test_load_deck_gives_components_and_cards(simple_deck):
    deck = deckpress.load_deck(simple_deck)
    component, = deck.components
    assert (component.name, component.sheet) == ("things", "cards")
    assert [(c.name, c.count) for c in component.cards] == [("One", 2), ("Two", 1)]
    assert deckpress.load_deck(simple_deck / "deck.yaml").id == "simple"


def test_impose_puts_each_copy_on_the_sheets(tmp_path):
    art = tmp_path / "art"
    art.mkdir()
    for name in ("a x2", "b"):
        Image.new("RGB", (821, 1121), "teal").save(art / f"{name}.png")
    result = deckpress.impose(art, tmp_path / "out", name="set", papers="a4")
    assert (result.cards, result.images, len(result.warnings)) == (3, 2, 0)
    assert [o.path.name for o in result.outputs] == ["set-cards-a4.pdf"]  # no back: no backs or duplex file
    assert len(PdfReader(result.outputs[0].path).pages) == result.outputs[0].pages == 1
    assert "deckpress.imposition.sheets" in sys.modules and callable(deckpress.impose)  # not the package


def test_impose_refuses_a_picture_it_cannot_read(tmp_path):
    bad = tmp_path / "card.png"
    bad.write_text("not a picture")
    with pytest.raises(deckpress.DeckError, match="cannot read this as an image"):
        deckpress.impose([bad], tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_calibrate_writes_two_pages_where_it_says(tmp_path):
    path = deckpress.calibrate(tmp_path, paper="letter")
    assert path == tmp_path / "calibrate-letter.pdf" and len(PdfReader(path).pages) == 2


def test_list_decks_finds_bundled_decks_then_deck_folders_here(make_deck, tmp_path, monkeypatch):
    from tests.conftest import SIMPLE_DECK, SIMPLE_LAYOUT
    make_deck(SIMPLE_DECK, {"simple": SIMPLE_LAYOUT})  # tmp_path/deck
    (tmp_path / "notes").mkdir()
    monkeypatch.chdir(tmp_path)
    listed = deckpress.list_decks()
    assert [(d.ref, d.bundled) for d in listed if not d.bundled] == [("./deck", False)]
    assert {d.ref for d in listed if d.bundled} >= {"metronome", "kanon"}
    monkeypatch.chdir(tmp_path / "deck")
    assert [d.ref for d in deckpress.list_decks() if not d.bundled] == ["."]
    assert deckpress.load_deck(".").id == "simple"
    assert [d.ref for d in deckpress.list_decks(tmp_path, bundled=False)] == [str(tmp_path / "deck")]
    (tmp_path / "decks").mkdir()
    (tmp_path / "deck").rename(tmp_path / "decks" / "orchard")  # where a designer's project keeps them
    monkeypatch.chdir(tmp_path)
    assert [d.ref for d in deckpress.list_decks() if not d.bundled] == ["./decks/orchard"]
    assert deckpress.load_deck("./decks/orchard").id == "simple"


def test_no_submodule_takes_the_name_of_an_api_function():
    """Importing `deckpress.x` binds `deckpress.x` to the module, over a function of that name."""
    modules = {p.stem for p in PACKAGE.glob("*.py")} | {p.name for p in PACKAGE.iterdir() if p.is_dir()}
    assert not modules & set(deckpress.__all__)


def test_the_cli_imports_only_the_api():
    found = set()
    for node in ast.walk(ast.parse((PACKAGE / "cli.py").read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "deckpress"}
        elif isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").split(".")[0] == "deckpress"):
            module = node.module if not node.level else ".".join(filter(None, ["deckpress", node.module]))
            # `from . import api` imports the module deckpress.api; `from .x import y` the module deckpress.x
            found |= {f"{module}.{a.name}" for a in node.names} if module == "deckpress" else {module}
    assert found == {"deckpress.api", "deckpress.__version__"}, found


def test_importing_the_cli_loads_no_backend():
    """Nor the result types (`deckpress --help` makes no dataclass it does not show) or difflib."""
    probe = ("import sys, deckpress, deckpress.cli\n"
             "print(sorted(m for m in ('reportlab', 'pypdfium2', 'svgwrite', 'PIL', 'fontTools', 'yaml',"
             " 'deckpress.results', 'difflib') if m in sys.modules))")
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "[]"


HEAVY = ("lxml", "openpyxl", "odf", "numpy", "pikepdf", "svg2pdf", "multiprocessing", "platformdirs")


@pytest.mark.parametrize("call", ["deckpress.check('metronome')",
                                  "deckpress.build('metronome', sys.argv[1], papers='a4', inks='color')"])
def test_a_deck_without_svg_art_or_a_spreadsheet_loads_no_reader_for_them(tmp_path, call):
    """Nothing imported that the command does not use (issue 37): metronome has no SVG or PDF art,
    no spreadsheet and no shaped pieces, so checking or building it loads no SVG reader (lxml,
    which compose, the art module and the report's digests imported for every deck), no
    spreadsheet reader, no numpy, no pikepdf."""
    probe = f"import sys, deckpress\n{call}\nprint(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    proc = subprocess.run([sys.executable, "-c", probe, str(tmp_path)], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "[]"
    # and the SVG reader is there when a deck has SVG art: the probe can see it
    probe = "import sys, deckpress\ndeckpress.check('kanon')\nprint('lxml' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.strip() == "True"


@pytest.mark.parametrize("fmt, loaded, unloaded", [("pdf", "reportlab", ["pypdfium2", "svgwrite", "fontTools.subset",
                                                                     "multiprocessing"]),  # one deck: no worker
                                                   ("png", "pypdfium2", ["svgwrite", "fontTools.subset"]),
                                                   ("svg", "svgwrite", ["pypdfium2"])])
def test_a_build_loads_only_what_its_formats_draw_with(tmp_path, fmt, loaded, unloaded):
    """Start-up is part of every build's time: a backend the asked formats do not use stays unloaded."""
    probe = (f"import sys, deckpress\n"
             f"deckpress.build('test-piece', {str(tmp_path)!r}, papers='a4', inks='color', formats={fmt!r})\n"
             f"print(sorted(m for m in {[loaded, *unloaded]!r} if m in sys.modules))")
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == str([loaded])
    assert list((tmp_path / "test-piece").rglob(f"*.{fmt}"))


def test_several_decks_are_built_at_once_as_one_after_another(tmp_path, monkeypatch):
    """The bundled build in worker processes and in one: the same results in the same order (each
    deck in each of its languages), the same bytes, and one plan per deck and language whose sum is
    every step the bar is told of."""
    built = {}
    for workers in ("1", "2"):
        monkeypatch.setenv("DECKPRESS_WORKERS", workers)
        planned, done = [], []
        results = deckpress.build(None, tmp_path / workers, papers="a4", progress=done.append,
                                  on_plan=planned.append)
        assert [(r.deck.id, r.deck.lang) for r in results] == [
            (d.ref, lang) for d in deckpress.list_decks(None) for lang in api.languages(d.ref)]  # kanon: de, en
        assert len(planned) == len(results) and sum(done) == sum(planned) > 0
        out = tmp_path / workers
        built[workers] = (deckpress.Report.of(results).to_json(), sum(planned),
                          {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()})
    (report1, plan1, files1), (report2, plan2, files2) = built["1"], built["2"]
    assert plan1 == plan2 and files1.keys() == files2.keys() and files1 == files2
    assert json.dumps(report1).replace("/1/", "/2/") == json.dumps(report2)


def test_the_languages_of_a_deck_are_built_together_without_losing_a_file(tmp_path, monkeypatch):
    monkeypatch.setenv("DECKPRESS_WORKERS", "2")  # they share out/kanon/: never swapped in at once
    results = deckpress.build(["kanon", "metronome"], tmp_path, papers="a4", inks="color", lang="all")
    assert [(r.deck.id, r.deck.lang) for r in results] == [("kanon", "de"), ("kanon", "en"), ("metronome", "en")]
    written = {p.name for p in (tmp_path / "kanon").iterdir()}
    assert {o.path.name for r in results[:2] for o in r.outputs} <= written
    assert results[0].outputs and results[1].outputs
    assert not {o.path.name for o in results[0].outputs} & {o.path.name for o in results[1].outputs}
