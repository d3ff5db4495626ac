"""Reprinting only what changed: `build --report` records each card's looks, `build --changed-since
REPORT.json` writes `<deck>-update-<paper>.pdf` with a page listing the changes, then the added
and changed cards; read back from the files written."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from deckpress import cli
from deckpress.builder.update import changes
from deckpress.outputs.digests import SideRecord
from tests.pdfread import page_text, placements

LAYOUT = """
    templates:
      front:
        fields: {title: ~, power: 1, art: art/sun.png}
        elements:
          - image: {src: "{art}", x: 4mm, y: 20mm, w: 20mm, h: 20mm}
          - text: {text: "{title} · {power}", x: 4mm, y: 4mm, w: 100% - 8mm, h: 12mm, size: 9pt}
      back:
        fields: {side: plain}
        elements:
          - text: {text: "{side}", x: 4mm, y: 4mm, w: 100% - 8mm, h: 12mm, size: 9pt}
"""

DECK = """
    id: upd
    title: Update
    designer: Test
    license: CC0-1.0
    layouts: [upd]
    components:
      - name: goods
        front: front
        back: back
        cards:
          - {title: Stall, count: 2}
          - {title: Mill}
          - {title: Mill, power: 2}
          - {title: Barn}
          - {title: Well}
"""


def png(colour: tuple[int, int, int]) -> bytes:
    import io

    from PIL import Image
    buffer = io.BytesIO()
    Image.new("RGB", (240, 240), colour).save(buffer, format="PNG")  # 300 dpi at 20 mm
    return buffer.getvalue()


def run(*args: str):
    return CliRunner().invoke(cli.main, list(args))


def build(folder: Path, out: Path, *more: str):
    return run("build", str(folder), "--paper", "a4", "--ink", "color", "--out", str(out), *more)


@pytest.fixture
def first(make_deck, tmp_path) -> tuple[Path, Path]:
    """The deck, built once with its report: (deck folder, report)."""
    folder = make_deck(DECK, {"upd": LAYOUT}, {"art/sun.png": png((230, 180, 20))})
    report = tmp_path / "first.json"
    result = build(folder, tmp_path / "out", "--report", str(report))
    assert result.exit_code == 0, result.output
    return folder, report


def edit(folder: Path, old: str, new: str) -> None:
    path = folder / "deck.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_report_records_each_cards_looks_the_same_from_another_folder(first, tmp_path):
    """The digests are of what the cards look like and what their files hold, not of paths: the
    deck copied elsewhere records the same; a picture saved with other pixels changes them."""
    folder, report = first
    recorded = json.loads(report.read_text())["decks"][0]["sides"]
    assert [(s["component"], s["number"], s["name"]) for s in recorded] == [
        ("goods", 1, "Stall"), ("goods", 2, "Mill"), ("goods", 3, "Mill"), ("goods", 4, "Barn"), ("goods", 5, "Well")]
    assert len({s["front"] for s in recorded}) == 5 and len({s["back"] for s in recorded}) == 1
    moved = shutil.copytree(folder, tmp_path / "elsewhere" / "deck")
    again = tmp_path / "again.json"
    assert build(moved, tmp_path / "out2", "--report", str(again)).exit_code == 0
    assert json.loads(again.read_text())["decks"][0]["sides"] == recorded
    (moved / "art" / "sun.png").write_bytes(png((20, 60, 200)))
    assert build(moved, tmp_path / "out3", "--report", str(again)).exit_code == 0
    changed = json.loads(again.read_text())["decks"][0]["sides"]
    assert all(a["front"] != b["front"] and a["back"] == b["back"] for a, b in zip(changed, recorded))


def test_the_update_file_lists_the_changes_then_prints_the_added_and_changed_cards_front_and_back(first, tmp_path):
    folder, report = first
    edit(folder, "- {title: Stall, count: 2}", "- {title: Stall, count: 2, power: 5}")  # changed: front
    edit(folder, "      - {title: Mill}\n", "")  # the first Mill taken out: the second is unchanged
    edit(folder, "- {title: Well}", "- {title: Well}\n      - {title: Gate}")  # added
    result = build(folder, tmp_path / "out", "--changed-since", str(report), "--report", str(tmp_path / "second.json"))
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "upd: 1 changed, 1 added, 1 removed since first.json, 4 pages in 1 file"
    pdf = tmp_path / "out" / "upd" / "upd-update-a4.pdf"
    listing = " ".join(page_text(pdf, 0).split())
    assert "Update — what changed since first.json" in listing
    assert "Changed (1), reprinted here: put them in place of the old ones: goods 1 · Stall (front)." in listing
    assert "Added (1), new cards, printed here: goods 5 · Gate." in listing
    assert "Removed (1), take these out of the deck: goods 2 · Mill." in listing
    reader = PdfReader(pdf)
    assert len(reader.pages) == 4  # the list, its blank back, the fronts, their backs (duplex)
    assert [len(placements(page)) for page in reader.pages] == [1, 1, 3, 3]  # Stall twice and Gate, each way
    fronts = page_text(pdf, 2)
    assert fronts.count("Stall · 5") == 2 and "Gate · 1" in fronts and "Mill" not in fronts and "Barn" not in fronts
    assert page_text(pdf, 3).count("plain") == 3
    recorded = json.loads((tmp_path / "second.json").read_text())["decks"][0]
    assert recorded["changes"] == {"since": str(report), "added": ["goods 5 · Gate"], "removed": ["goods 2 · Mill"],
                                   "changed": [{"card": "goods 1 · Stall", "sides": "front"}]}
    assert len(recorded["sides"]) == 5  # the whole deck as it is now, for the next update to compare with


def test_nothing_changed_writes_no_update_file_and_says_so(first, tmp_path):
    folder, report = first
    result = build(folder, tmp_path / "out", "--changed-since", str(report))
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "upd: nothing changed since first.json, 0 pages in 0 files"
    assert not (tmp_path / "out" / "upd" / "upd-update-a4.pdf").exists()


def test_a_back_that_changed_reprints_every_card_that_shows_it(first, tmp_path):
    folder, report = first
    (folder / "layouts" / "upd.yaml").write_text((folder / "layouts" / "upd.yaml").read_text().replace(
        "fields: {side: plain}", "fields: {side: fancy}"))
    result = build(folder, tmp_path / "out", "--changed-since", str(report))
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0].startswith("upd: 5 changed since first.json")
    listing = " ".join(page_text(tmp_path / "out" / "upd" / "upd-update-a4.pdf", 0).split())
    assert "goods 1 · Stall (back); goods 2 · Mill (back);" in listing


@pytest.mark.parametrize("content, said", [
    (None, "error: cannot read the report "),
    ("{not json", " is not JSON ("),
    ('{"command": "check", "decks": []}', " is not the report of a build: make one with `deckpress build --report FILE`"),
    ('{"command": "build", "decks": [{"id": "upd", "language": "en"}]}', " records no cards' looks"),
    ('{"command": "build", "decks": [{"id": "other", "language": "en", "sides": []}]}',
     "error: --changed-since "),
])
def test_a_report_that_is_not_one_is_one_line_and_exit_status_2(make_deck, tmp_path, content, said):
    folder = make_deck(DECK, {"upd": LAYOUT}, {"art/sun.png": png((230, 180, 20))})
    report = tmp_path / "given.json"
    if content is not None:
        report.write_text(content)
    result = build(folder, tmp_path / "out", "--changed-since", str(report))
    assert result.exit_code == 2 and result.output.count("\n") == 1, result.output
    assert said in result.output
    assert not (tmp_path / "out" / "upd").exists()


def test_changed_since_writes_the_update_pdf_alone():
    result = run("build", "metronome", "--changed-since", "r.json", "--format", "png")
    assert result.exit_code == 2
    assert result.output == "error: --changed-since writes the update PDF alone: leave out --format and --preset\n"


def record(number: int, name: str, front: str, back: str | None = "b") -> SideRecord:
    return SideRecord("c", number, name, front, back)


def test_cards_are_matched_by_name_first_by_their_looks_then_in_order():
    """Two cards of one name: taking out the first is one removal, not a change of the second;
    swapping them is no change; editing one is a change; cards without a name match by number."""
    old = [record(1, "half", "x"), record(2, "half", "y"), record(3, "", "z")]
    assert changes(old, [record(1, "half", "y"), record(2, "", "z")], "r").summary() == "1 removed"
    assert changes(old, [record(1, "half", "y"), record(2, "half", "x"), record(3, "", "z")], "r").summary() \
        == "nothing changed"
    found = changes(old, [record(1, "half", "x"), record(2, "half", "w", "b2"), record(3, "", "z"),
                          record(4, "half", "v")], "r")
    assert [(r.number, sides) for r, sides in found.changed] == [(2, "front and back")]
    assert [r.number for r in found.added] == [4] and found.removed == ()


def test_a_picture_that_svg_art_links_is_part_of_the_cards_look(make_deck, tmp_path):
    """SVG art that links a picture does not name it in the face's drawing: the digest follows
    it all the same (the files the art read, as the live preview follows them), so a linked
    picture saved with other pixels makes an update reprint the card."""
    import deckpress

    svg = (b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
           b'width="20mm" height="20mm" viewBox="0 0 20 20"><image xlink:href="sun.png" width="20" height="20"/></svg>')
    layout = LAYOUT.replace("art: art/sun.png", "art: art/sun.svg")
    folder = make_deck(DECK, {"upd": layout}, {"art/sun.svg": svg, "art/sun.png": png((230, 180, 20))})

    def fronts() -> list[str]:
        (result,) = deckpress.build(folder, tmp_path / "out", papers="a4", inks="color", sides=True)
        return [side.front for side in result.sides]

    before = fronts()
    (folder / "art" / "sun.png").write_bytes(png((20, 60, 200)))
    after = fronts()
    assert all(a != b for a, b in zip(before, after))
