"""Every font format a deck may bring: .otf (CFF), .woff, .woff2, a .ttc's member, a variable
font's instance; each read, shaped, measured and embedded in the PDF as a subset of the one
composite font kind, its text extractable; and a clear line for each mistake.

The fonts are made at test time from the bundled Noto Sans (tests/fontmaking.py)."""

from __future__ import annotations

import io
import textwrap
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
from fontTools.cffLib import CFFFontSet
from fontTools.ttLib import TTFont

import deckpress
from deckpress.errors import DeckError
from deckpress.text.fonts import FontError, font_ref, open_font
from deckpress.model import load_deck
from deckpress.text.shaping import shape
from tests import fontmaking

TEXT = "AVATAR Tiny waves, say hi!"

LAYOUT = """
    templates:
      front:
        fields: {title: ~, face: ~}
        elements:
          - text: {text: "{title}", x: 4mm, y: 6mm, w: 100% - 8mm, h: 20mm, size: 14pt, font: "{face}", fit: none}
      back:
        elements:
          - rect: {x: -bleed, y: -bleed, w: 100% + 2*bleed, h: 100% + 2*bleed, fill: "#223344"}
"""


def deck_yaml(fonts: str, faces: list[str]) -> str:
    cards = "\n".join(f"          - {{title: \"{TEXT}\", face: {face}}}" for face in faces)
    return textwrap.dedent("""\
        id: formats
        title: Formats
        designer: Test
        license: CC0-1.0
        layouts: [formats]
        fonts:
        {fonts}
        components:
          - name: cards
            front: front
            back: back
            cards:
        {cards}
        """).format(fonts=textwrap.indent(textwrap.dedent(fonts).strip(), "  "), cards=cards)


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> Path:
    """A deck folder with a font of every kind."""
    folder = tmp_path_factory.mktemp("formats")
    fonts = folder / "fonts"
    fonts.mkdir()
    fontmaking.cff(fonts / "Cff.otf")
    fontmaking.woff(fonts / "Small.woff2")
    fontmaking.woff(fonts / "Small.woff", "woff")
    fontmaking.collection(fonts / "Pair.ttc")
    fontmaking.variable(fonts / "Var[wght].ttf")
    (folder / "layouts").mkdir()
    (folder / "layouts" / "formats.yaml").write_text(textwrap.dedent(LAYOUT), encoding="utf-8")
    return folder


FAMILIES = """
    cff: {regular: fonts/Cff.otf}
    woff2: {regular: fonts/Small.woff2}
    woff: {regular: fonts/Small.woff}
    pair: {regular: fonts/Pair.ttc, bold: {file: fonts/Pair.ttc, index: 1}}
    var: {regular: {file: "fonts/Var[wght].ttf", axes: {wght: 650}}, bold: {file: "fonts/Var[wght].ttf", instance: SemiBold}}
"""
FACES = ["cff", "woff2", "woff", "pair-bold", "var"]


def good(made: Path) -> Path:
    """The deck folder with its deck file naming every format (the mistakes' tests write others)."""
    (made / "deck.yaml").write_text(deck_yaml(FAMILIES, FACES), encoding="utf-8")
    return made


@pytest.fixture(scope="module")
def built(made, tmp_path_factory) -> Path:
    good(made)
    out = tmp_path_factory.mktemp("out")
    deckpress.build(str(made), out, papers="a4", inks="color")
    return out / "formats" / "formats-cards-a4.pdf"


def embedded_fonts(path: Path) -> dict[str, dict]:
    """Each composite font of the PDF by its BaseFont: its descendant's kind, its program's kind
    and bytes, its widths by glyph index."""
    found = {}
    with pikepdf.open(path) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Dictionary) and obj.get("/Subtype") == "/Type0":
                cid = obj.DescendantFonts[0]
                descriptor = cid.FontDescriptor
                key = next(k for k in ("/FontFile2", "/FontFile3") if k in descriptor)
                widths = {}
                w = list(cid.W)
                for i in range(0, len(w), 2):
                    widths[int(w[i])] = float(w[i + 1][0])
                found[str(obj.BaseFont).lstrip("/")] = {
                    "cid": str(cid.Subtype), "key": key, "encoding": str(obj.Encoding),
                    "subtype": str(descriptor[key].get("/Subtype", "")), "program": descriptor[key].read_bytes(),
                    "widths": widths, "unicode": "/ToUnicode" in obj}
    return found


def test_a_deck_with_every_font_format_builds_and_embeds_each_as_a_subset(made, built):
    fonts = embedded_fonts(built)
    by_name = {name.split("+", 1)[1]: (name, font) for name, font in fonts.items()}
    for name, font in fonts.items():
        tag, _, _ = name.partition("+")
        assert len(tag) == 6 and tag.isupper(), name  # a subset's tag
        assert font["encoding"] == "/Identity-H" and font["unicode"]
    # the CFF font embedded as CFF: FontFile3, the bare CFF table, a CIDFontType0
    _, cff = by_name["NotoSansCFF-Regular"]
    assert (cff["cid"], cff["key"], cff["subtype"]) == ("/CIDFontType0", "/FontFile3", "/CIDFontType0C")
    cff_set = CFFFontSet()
    cff_set.decompile(io.BytesIO(cff["program"]), None)
    charstrings = cff_set[cff_set.fontNames[0]].CharStrings
    outlined = [name for name in charstrings.keys() if charstrings[name].calcBounds(charstrings) is not None]
    assert 0 < len(outlined) < len(TTFont(made / "fonts" / "Cff.otf").getGlyphOrder())  # the glyphs drawn alone
    # the TrueType ones: FontFile2 with fewer glyphs outlined than the font has
    for name in ("NotoSans-Regular", "NotoSans-Bold", "NotoSans-Regular_wght650"):
        _, font = by_name[name]
        assert (font["cid"], font["key"]) == ("/CIDFontType2", "/FontFile2")
        program = TTFont(io.BytesIO(font["program"]))
        outlined = [g for g in program.getGlyphOrder() if program["glyf"][g].numberOfContours != 0]
        assert 0 < len(outlined) < len(TTFont(made / "fonts" / "Small.woff2").getGlyphOrder())


def test_the_text_of_every_format_copies_out(built):
    pdf = pdfium.PdfDocument(str(built))
    texts = [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    assert sum(" ".join(text.split()).count(TEXT) for text in texts) == len(FACES)


def test_every_format_prints_its_glyphs(built, tmp_path):
    """Each card's words are drawn (ink where the words are), none as empty boxes of .notdef."""
    pdf = pdfium.PdfDocument(str(built))
    page = pdf[0].render(scale=2).to_pil().convert("L")
    assert page.getextrema()[0] < 64  # black ink of the text


def test_the_variable_instance_is_embedded_as_shaped_and_measured(made, built):
    """The widths the PDF advances by are HarfBuzz's at wght 650, which compose measured with and
    shaping placed the glyphs by (each a quarter wider than the regular's at the axis' top)."""
    ref = font_ref(str((made / "fonts" / "Var[wght].ttf").resolve()), 0, {"wght": 650})
    font = open_font(ref)
    regular = open_font(str((made / "fonts" / "Var[wght].ttf").resolve()))
    fonts = embedded_fonts(built)
    _, embedded = next((n, f) for n, f in fonts.items() if n.endswith("+NotoSans-Regular_wght650"))
    shaped = shape(TEXT, ref)
    for glyph in shaped.glyphs:
        assert embedded["widths"][glyph.gid] == pytest.approx(font.glyph_advance(glyph.gid) * 1000, abs=0.001)
    assert font.advance("A") == pytest.approx(regular.advance("A") * (1 + fontmaking.WIDER * 250 / 300), abs=0.002)
    assert shaped.width > shape(TEXT, regular.path).width * 1.1
    # the embedded program's own advances are the instance's: its outlines are the instance's too
    program = TTFont(io.BytesIO(embedded["program"]))
    order = program.getGlyphOrder()
    for glyph in shaped.glyphs:
        assert program["hmtx"][order[glyph.gid]][0] == round(font.glyph_advance(glyph.gid) * font.units_per_em)


def test_the_named_instance_is_its_axis_values(made):
    deck = load_deck(good(made))
    family, _ = deck.names.fonts.split("var")
    assert family.files["bold"] == family.files["regular"]  # SemiBold is wght 650
    assert family.files["regular"].endswith("#0@wght=650")


def test_two_builds_are_the_same_bytes(made, built, tmp_path):
    again = tmp_path / "again"
    deckpress.build(str(good(made)), again, papers="a4", inks="color")
    assert (again / "formats" / "formats-cards-a4.pdf").read_bytes() == built.read_bytes()


def test_the_pdf_is_sound(built):
    with pikepdf.open(built) as pdf:
        assert pdf.check_pdf_syntax() == []  # libqpdf's check: what `qpdf --check` reports


# --- mistakes: one line, the file, the line and the key --------------------------------------

@pytest.mark.parametrize("style, line, message", [
    ("{file: fonts/Pair.ttc, index: 2}", 7,
     "font 'pair' regular: Pair.ttc has 2 fonts: index 2 is not one of 0 to 1"),
    ("{file: fonts/Cff.otf, index: 1}", 7,
     "font 'pair' regular: Cff.otf is a single font, not a collection: index 1 is not 0"),
    ('{file: "fonts/Var[wght].ttf", axes: {wdth: 80}}', 7,
     "font 'pair' regular: the font has no axis 'wdth': its axes are wght"),
    ('{file: "fonts/Var[wght].ttf", axes: {wght: 900}}', 7,
     "font 'pair' regular: axis 'wght' is 900, outside the font's 400 to 700"),
    ("{file: fonts/Cff.otf, axes: {wght: 500}}", 7,
     "font 'pair' regular: the font has no axis 'wght': it is not a variable font"),
    ('{file: "fonts/Var[wght].ttf", instance: Black}', 7,
     "font 'pair' regular: no instance 'Black'; the font has Regular, SemiBold"),
    ("{file: fonts/Broken.woff2}", 7, "font 'pair' regular: cannot read font Broken.woff2: "),
    ("fonts/Broken.ttf", 7, "font 'pair' regular: cannot read font Broken.ttf: "),
    ("{index: 1}", 7, "font 'pair' regular needs 'file'"),
    ("{file: fonts/Pair.ttc, idx: 1}", 7, "unknown key 'idx' in font 'pair' regular"),
    ("../outside.ttf", 7, "font 'pair' regular: '../outside.ttf' points outside the deck folder"),
    ("fonts/notes.txt", 7, "font 'pair' regular: 'fonts/notes.txt' is not a font file (.ttf, .otf, .ttc, .otc, "
                           ".woff or .woff2)"),
])
def test_a_bad_font_is_one_line_naming_file_line_and_key(made, style, line, message):
    (made / "fonts" / "Broken.woff2").write_bytes(b"wOF2" + b"\0" * 60)
    (made / "fonts" / "Broken.ttf").write_bytes(b"\0\1\0\0" + b"\0" * 60)
    (made / "fonts" / "notes.txt").write_text("not a font")
    (made.parent / "outside.ttf").write_bytes((fontmaking.REGULAR).read_bytes())
    (made / "deck.yaml").write_text(deck_yaml(f"pair: {{regular: {style}}}", ["pair"]), encoding="utf-8")
    with pytest.raises(DeckError) as error:
        load_deck(made)
    shown = str(error.value)
    assert "\n" not in shown
    assert shown.startswith(f"{made / 'deck.yaml'}:{line}: {message}"), shown


def test_the_cli_says_a_bad_font_in_one_line_with_status_2(made, tmp_path):
    import subprocess
    import sys

    (made / "deck.yaml").write_text(deck_yaml('pair: {regular: {file: "fonts/Var[wght].ttf", axes: {wght: 1}}}',
                                              ["pair"]), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "deckpress", "check", str(made)], capture_output=True, text=True)
    assert run.returncode == 2
    assert "Traceback" not in run.stderr + run.stdout
    lines = [line for line in (run.stderr + run.stdout).splitlines() if "wght" in line]
    assert len(lines) == 1 and "deck.yaml:7" in lines[0] and "outside the font's 400 to 700" in lines[0]


def test_reading_errors_name_the_file(tmp_path):
    with pytest.raises(FontError, match="cannot read font Nope.woff2"):
        open_font(str(tmp_path / "Nope.woff2"))
    path = fontmaking.collection(tmp_path / "Two.ttc")
    with pytest.raises(FontError, match="Two.ttc has 2 fonts: index 5"):
        open_font(font_ref(str(path), 5))
