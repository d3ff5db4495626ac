"""Fonts in PDF: composite fonts of glyph indexes, HarfBuzz's subsets, and what they embed."""

from __future__ import annotations

import io
import re

import pytest
from fontTools.ttLib import TTFont
from pypdf import PdfReader
from pypdf.generic import read_string_from_stream

from deckpress.backends.pdfcanvas import Canvas
from deckpress.backends.pdffonts import Fonts, _codes, subset_program
from deckpress.backends.pdfpages import PageWriter
from deckpress.colors import RGB
from deckpress.face import Text, placed_glyphs
from deckpress.text.fonts import FontSet, open_font
from deckpress.text.shaping import line_width

SANS = FontSet().families["sans"].files["regular"]
MANY = "".join(sorted(chr(c) for c in TTFont(SANS).getBestCmap() if 0xA0 < c < 0x2000))[:450]


def test_fonts_are_numbered_by_their_names_not_their_files_places():
    fonts = Fonts()
    music = FontSet().families["music"].files["regular"]
    fonts.learn({SANS: {(36, "A")}, music: {(3, "x")}})
    assert (fonts.glyph_font(music).name, fonts.glyph_font(SANS).name) == ("G1", "G2")  # NotoMusic… < NotoSans…


def test_text_drawn_by_its_characters_is_shaped_into_the_composite_font():
    """A page label, a staff's glyph: text without glyph runs is shaped where it is drawn, kerned,
    and embedded in the one composite font with what it stands for (no simple fonts)."""
    fonts = Fonts()
    canvas = Canvas(fonts, font=SANS)
    canvas.setFont(SANS, 10)
    canvas.drawText(10, 10, "AVATAR " + MANY[200])
    canvas.drawText(90, 30, "Right", "right")
    buffer = io.BytesIO()
    writer = PageWriter(buffer)
    writer.page(100, 100, canvas)
    writer.close({})
    reader = PdfReader(buffer)
    found = reader.pages[0]["/Resources"]["/Font"]
    assert sorted(found) == ["/G1"]
    font = found["/G1"].get_object()
    assert (font["/Subtype"], font["/Encoding"]) == ("/Type0", "/Identity-H")
    assert str(font["/BaseFont"]).endswith("+NotoSans-Regular") and len(str(font["/BaseFont"])) == 24
    text = reader.pages[0].extract_text()
    assert "AVATAR " + MANY[200] in text and "Right" in text
    content = reader.pages[0].get_contents().get_data()
    assert b"Tj" not in content and b"TJ" in content
    width = line_width("Right", SANS) * 10
    assert float(re.search(rb"1 0 0 1 (\S+) 30 Tm", content)[1]) == pytest.approx(90 - width, abs=1e-4)  # kerned


# --- shaped text: composite fonts, glyph indexes as codes ---------------------------------------

def shaped_page(text: str, size: float = 20.0, font: str = SANS) -> tuple[bytes, list]:
    """A 200 × 60 pt page with `text` shaped and drawn at (10, 30), a run a word and a run a
    space, as compose sets a line; and its glyphs as drawn, each placed in em from (10, 30)."""
    from deckpress.text.runs import shaped  # how the text engine shapes a run: glyphs placed from its start

    runs, start = [], 0.0
    for part in re.split("( )", text):
        if part:
            run = shaped(open_font(font), part)
            runs.append((start, run.glyphs))
            start += run.width
    fonts = Fonts()
    fonts.learn({font: {(gid, chars) for _, glyphs in runs for gid, _, _, chars in glyphs}})
    canvas = Canvas(fonts, font=font)
    canvas.setFont(font, size)
    canvas.drawGlyphs(10, 30, font, tuple(runs))
    buffer = io.BytesIO()
    writer = PageWriter(buffer)
    writer.page(200, 60, canvas)
    writer.close({})
    return buffer.getvalue(), placed_glyphs(Text(0, 0, text, font, size, RGB(0, 0, 0), glyph_runs=tuple(runs)))


def test_shaped_text_is_a_composite_font_whose_codes_are_glyph_indexes():
    pdf, glyphs = shaped_page("AVATAR office")
    reader = PdfReader(io.BytesIO(pdf))
    font = reader.pages[0]["/Resources"]["/Font"]["/G1"].get_object()
    assert (font["/Subtype"], font["/Encoding"]) == ("/Type0", "/Identity-H")
    cid = font["/DescendantFonts"][0].get_object()
    assert (cid["/Subtype"], cid["/CIDToGIDMap"]) == ("/CIDFontType2", "/Identity")
    assert reader.pages[0].extract_text().strip() == "AVATAR office"  # the ligature copies out as "ffi"
    program = TTFont(io.BytesIO(cid["/FontDescriptor"].get_object()["/FontFile2"].get_object().get_data()))
    drawn = {gid for gid, *_ in glyphs}
    order = program.getGlyphOrder()
    original = TTFont(SANS)
    for gid in drawn:  # each glyph drawn keeps its outline at its own index
        assert program["glyf"][order[gid]].getCoordinates(program["glyf"])[0] == \
            original["glyf"][original.getGlyphOrder()[gid]].getCoordinates(original["glyf"])[0]
    unused = next(gid for gid in range(40, 80) if gid not in drawn)
    assert program["glyf"][order[unused]].numberOfContours == 0  # every other glyph is empty


@pytest.mark.parametrize("gids", [[0x41, 0x2829], [0x5C28, 0x0D29, 0x41], [0x105C], [0x0D0A, 0x2020]])
def test_glyph_codes_read_back_as_written_whatever_bytes_they_hold(gids):
    """A glyph index whose bytes are a backslash, a parenthesis or a carriage return is escaped
    in the literal string, so that a reader gets the two bytes of each code back."""
    shown = _codes(gids).encode("latin-1")
    assert b"\r" not in shown  # a bare carriage return in a literal string reads as a line feed (PDF 7.3.4.2)
    read = read_string_from_stream(io.BytesIO(shown + b" "))
    assert bytes(read.original_bytes) == b"".join(gid.to_bytes(2, "big") for gid in gids)


@pytest.mark.parametrize("text", ["AVATAR", "To Wave, AVATAR fjord"])
def test_each_glyph_lands_where_shaping_put_it(text):
    """Kerned: the "V" of "AV" sits where HarfBuzz's advance of the "A" puts it, not its own width;
    and each word of a line where compose put it."""
    import pypdfium2 as pdfium

    pdf, glyphs = shaped_page(text)
    page = pdfium.PdfDocument(pdf)[0]
    textpage = page.get_textpage()
    origins = [ctypes_origin(textpage, i) for i in range(textpage.count_chars())]
    assert len(origins) == len(glyphs)
    # each glyph's origin: the pen position, to 0.01 mm (0.03 pt)
    assert [round(x - (10 + gx * 20), 2) for (x, _), (_, gx, _, _) in zip(origins, glyphs)] == [0.0] * len(glyphs)
    assert {round(y, 2) for _, y in origins} == {30.0}  # all on the baseline
    assert glyphs[1][1] < open_font(SANS).advance(text[0]) - 0.01  # the kerning is there to be drawn


@pytest.mark.parametrize("text", ["q\u0323\u0307 x", "x q\u0323"])
def test_a_mark_off_the_baseline_is_drawn_there_and_the_rise_put_back(text):
    """A dot below (and above) "q", placed by the font's mark positioning: drawn with a text rise
    (Ts), which is 0 again when the text object ends (the rise outlives it)."""
    import pypdfium2 as pdfium

    pdf, glyphs = shaped_page(text)
    assert min(gy for _, _, gy, _ in glyphs) < -0.1  # a mark the font moves below the baseline
    content = PdfReader(io.BytesIO(pdf)).pages[0].get_contents().get_data()
    rises = re.findall(rb"(-?[\d.]+) Ts", content)
    assert rises and rises[-1] == b"0"
    textpage = pdfium.PdfDocument(pdf)[0].get_textpage()
    # each glyph where shaping put it (pdfium reads a cluster's characters at its glyphs' origins,
    # and adds a space of its own where the pen jumps)
    drawn = {(round(x, 2), round(y, 2)) for x, y in (ctypes_origin(textpage, i) for i in range(textpage.count_chars()))}
    assert {(round(10 + gx * 20, 2), round(30 + gy * 20, 2)) for _, gx, gy, _ in glyphs} <= drawn


def ctypes_origin(textpage, index: int) -> tuple[float, float]:
    """A character's origin on the page (pt), as pdfium reads it."""
    import ctypes

    import pypdfium2.raw as raw

    x, y = ctypes.c_double(), ctypes.c_double()
    assert raw.FPDFText_GetCharOrigin(textpage, index, ctypes.byref(x), ctypes.byref(y))
    return x.value, y.value


def test_a_composite_glyph_brings_its_parts():
    original = TTFont(SANS)
    order = original.getGlyphOrder()
    composite = next(i for i, name in enumerate(order) if original["glyf"][name].isComposite())
    parts = {order.index(c.glyphName) for c in original["glyf"][order[composite]].components}
    program, cff = subset_program(SANS, (composite,))
    subset = TTFont(io.BytesIO(program))
    names = subset.getGlyphOrder()  # by index: each glyph kept at its own
    kept = {gid for gid, name in enumerate(names) if subset["glyf"][name].numberOfContours != 0}
    assert not cff and kept == parts | {composite}
