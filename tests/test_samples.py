"""The sample decks in docs/samples/: Shalom, counting in Hebrew and Arabic, prints right to left,
its Arabic joined, its digits and punctuation where a reader of those scripts expects them."""

from __future__ import annotations

import math
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

import deckpress
from deckpress.text.shaping import shape

from .pdfread import shown_codes

SHALOM = Path(__file__).resolve().parent.parent / "docs" / "samples" / "shalom"
ARABIC = str(SHALOM / "fonts" / "NotoSansArabic-Regular.ttf")
HEBREW = str(SHALOM / "fonts" / "NotoSansHebrew-Regular.ttf")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("shalom")
    (result,) = deckpress.build(SHALOM, out, papers="a4", inks="color")
    return result


def test_it_checks_clean_every_letter_in_a_font_it_names():
    result = deckpress.check(SHALOM)
    assert (result.cards, result.faces, list(result.warnings)) == (14, 9, [])


def page_text(path: Path, page: int = 0) -> str:
    document = pdfium.PdfDocument(str(path))
    try:
        return document[page].get_textpage().get_text_range()
    finally:
        document.close()


def test_the_rule_cards_copy_out_in_reading_order(built):
    text = page_text(next(o.path for o in built.outputs if o.path.name == "shalom-rules-board-a4.pdf"))
    assert "איך משחקים" in text and "طريقة اللعب" in text
    assert "מחלקים 5 קלפים לכל" in text


def test_arabic_is_joined_and_hebrew_runs_right_to_left(built):
    cards = next(o.path for o in built.outputs if o.path.name == "shalom-cards-a4.pdf")
    runs = shown_codes(PdfReader(cards))
    joined = [g.gid for g in shape("اثنان", ARABIC).glyphs]
    alone = [shape(letter, ARABIC).glyphs[0].gid for letter in "اثنان"]
    assert joined in runs  # the word as HarfBuzz joins it, drawn as one run
    assert joined != list(reversed(alone))  # its letters in their joined forms, not each alone
    hebrew = [g.gid for g in shape("שתיים", HEBREW).glyphs]
    assert hebrew in runs and hebrew == [shape(c, HEBREW).glyphs[0].gid for c in reversed("שתיים")]


def test_a_text_whose_script_no_font_has_says_which_script(tmp_path):
    deck = SHALOM / "deck.yaml"
    folder = tmp_path / "nofont"
    folder.mkdir()
    (folder / "layouts").mkdir()
    (folder / "layouts" / "shalom.yaml").write_text((SHALOM / "layouts" / "shalom.yaml").read_text(encoding="utf-8")
                                                     .replace("font: hebrew, ", "").replace("font: arabic, ", ""),
                                                     encoding="utf-8")
    text = deck.read_text(encoding="utf-8")
    text = text[:text.index("fonts:")] + text[text.index("components:"):]
    (folder / "deck.yaml").write_text(text, encoding="utf-8")
    warnings = [w.message for w in deckpress.check(folder).warnings if w.kind == "missing-glyph"]
    assert warnings and all("name a font for" in m for m in warnings)
    assert any("Hebrew" in m for m in warnings) and any("Arabic" in m for m in warnings)


# --- Harbour: round coins and hex tiles --------------------------------------------------------

HARBOUR = Path(__file__).resolve().parent.parent / "docs" / "samples" / "harbour"


@pytest.fixture(scope="module")
def harbour(tmp_path_factory):
    out = tmp_path_factory.mktemp("harbour")
    deckpress.build(HARBOUR, out, papers="a4", inks="color")
    deckpress.build(HARBOUR, out / "cutter", papers="a4", inks="color", marks="cutter")
    return out / "harbour", out / "cutter" / "harbour"


def _trims(path, page: int, size: tuple[float, float]) -> list[tuple[float, float, float, float]]:
    from .pdfread import placements, trim_box_mm

    reader = PdfReader(path)
    height = float(reader.pages[page].mediabox.height)
    return sorted(trim_box_mm(p, *size, height) for p in placements(reader.pages[page]))


def _rows(trims) -> list[list[float]]:
    rows: dict[float, list[float]] = {}
    for x0, y0, _, _ in trims:
        rows.setdefault(round(y0, 2), []).append(x0)
    return [sorted(xs) for _, xs in sorted(rows.items())]


def test_harbour_checks_clean():
    result = deckpress.check(HARBOUR)
    assert (result.cards, list(result.warnings)) == (42, [])


HEX = (50.0, 57.74)


def test_harbour_coins_in_offset_rows_and_tiles_interlocked_each_with_its_dashed_cut_line(harbour):
    from .pdfread import drawn_paths

    cards = harbour[0] / "harbour-cards-a4.pdf"
    for page, size in ((0, (30.0, 30.0)), (1, HEX)):
        trims = _trims(cards, page, size)
        rows = _rows(trims)
        across = rows[0][1] - rows[0][0]
        assert abs(rows[1][0] - rows[0][0]) == pytest.approx(across / 2, abs=0.05)  # every other row half along
        down = sorted({round(t[1], 2) for t in trims})
        if page == 0:  # 30 mm coins, 2 mm bleed: rows 34 × √3/2 apart, not 34
            assert (len(trims), across) == (30, pytest.approx(34, abs=0.05))
            assert down[1] - down[0] == pytest.approx(34 * math.sqrt(3) / 2, abs=0.05)
        else:  # hexes: a point in the hollow between two of the row above
            assert (len(trims), across) == (12, pytest.approx(54, abs=0.05))
            assert down[1] - down[0] == pytest.approx(54 * math.sqrt(3) / 2, abs=0.05)
        dashed = [d for d in drawn_paths(cards, page) if d.dashed and d.stroked]
        outlines = sorted(tuple(min(v) for v in zip(*sub)) + tuple(max(v) for v in zip(*sub))
                          for d in dashed for sub in d.subpaths)
        outlines = [(b[0], b[1], b[2], b[3]) for b in outlines]
        assert len(outlines) == len(trims)
        for outline, trim in zip(outlines, trims):
            assert outline == pytest.approx(trim, abs=0.05)


def test_harbour_faces_are_clipped_to_the_shape_grown_by_the_bleed(harbour):
    cards = harbour[0] / "harbour-cards-a4.pdf"
    dpi = 100
    document = pdfium.PdfDocument(str(cards))
    try:
        picture = document[0].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        document.close()
    px = dpi / 25.4
    gold = (0xE3, 0xB2, 0x3C)
    trims = _trims(cards, 0, (30.0, 30.0))
    top = max(t[3] for t in trims)  # (below the last row: the scale bar and the label)
    for x0, y0, x1, y1 in trims:
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        for angle in range(30, 360, 60):  # between the neighbours (which lie every 60°), past the bleed is paper
            dx, dy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
            inside = picture.getpixel((round((cx + 16 * dx) * px), round((cy + 16 * dy) * px)))  # in the bleed
            assert all(abs(a - b) < 40 for a, b in zip(inside, gold)), (angle, inside)
            if cy + 18.5 * dy < top:
                outside = picture.getpixel((round((cx + 18.5 * dx) * px), round((cy + 18.5 * dy) * px)))
                assert min(outside) > 235, (angle, outside)  # white paper past the bleed


def test_harbour_cut_files_cut_along_the_pieces(harbour):
    import re

    folder = harbour[1]
    pdf = folder / "harbour-cards-a4.pdf"
    for page, size in ((0, (30.0, 30.0)), (1, HEX)):
        cut = (folder / "cut" / f"harbour-cards-a4-p{page + 1}.svg").read_text()
        boxes = []
        for d in re.findall(r'<path d="([^"]+)"', cut):
            values = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", d)]
            xs, ys = values[0::2], values[1::2]
            boxes.append((min(xs), min(ys), max(xs), max(ys)))
        trims = _trims(pdf, page, size)
        assert len(boxes) == len(trims)
        for box, trim in zip(sorted(boxes), trims):
            assert box == pytest.approx(trim, abs=0.05)


def test_text_outside_a_shaped_piece_s_safe_area_is_warned_of_at_its_line(tmp_path):
    import shutil

    deck = tmp_path / "harbour"
    shutil.copytree(HARBOUR, deck)
    layout = deck / "layouts" / "harbour.yaml"
    text = layout.read_text(encoding="utf-8")
    layout.write_text(text.replace("text: {text: \"{value}\", x: 7mm, y: 8mm, w: 16mm",
                                   "text: {text: \"{value}0000\", x: 1mm, y: 8mm, w: 28mm"), encoding="utf-8")
    line = next(i for i, row in enumerate(layout.read_text(encoding="utf-8").splitlines(), start=1)
                if "{value}0000" in row)
    warnings = list(deckpress.check(deck).warnings)
    assert [(w.kind, w.line) for w in warnings] == [("outside-shape", line)]
    assert "coins" in warnings[0].message and "circle" in warnings[0].message
