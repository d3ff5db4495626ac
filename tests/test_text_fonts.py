"""deckpress.text.fonts: bundled families, style fallbacks, coverage, metrics and unusable font files."""

from __future__ import annotations

from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from deckpress.bundled import FONTS_DIR
from deckpress.text.fonts import (BUNDLED_FAMILIES, FALLBACK_FAMILIES, STYLES, Family, FontError, FontSet,
                             open_font)

MUSIC_CHARS = ([chr(c) for c in range(0x1D15D, 0x1D161)]      # whole, half, quarter, eighth notes
               + [chr(c) for c in range(0x1D13B, 0x1D13F)]    # whole … eighth rests
               + ["♯", "♭", "♮"])


@pytest.fixture(scope="module")
def fonts() -> FontSet:
    return FontSet()


@pytest.fixture(scope="module")
def sans(fonts):
    return fonts.families["sans"].file("regular")


@pytest.fixture(scope="module")
def music(fonts):
    return fonts.families["music"].file("regular")


# --- bundled families --------------------------------------------------------------------------

@pytest.mark.parametrize("family, style", [(f, s) for f, files in BUNDLED_FAMILIES.items() for s in files])
def test_bundled_files_exist_and_open(fonts, family, style):
    path = Path(fonts.families[family].files[style])
    assert path.is_file()
    assert path.parent == FONTS_DIR
    font = open_font(str(path))
    assert font.units_per_em > 0
    assert TTFont(str(path))["name"].getDebugName(6) == path.stem  # the PostScript name matches the file name
    assert font.ascent > 0 and font.descent > 0 and 0 < font.cap_height < font.ascent


@pytest.mark.parametrize("family, style, file", [
    ("sans", "regular", "NotoSans-Regular.ttf"),
    ("sans", "bold", "NotoSans-Bold.ttf"),
    ("sans", "italic", "NotoSans-Italic.ttf"),
    ("sans", "bolditalic", "NotoSans-BoldItalic.ttf"),
    ("condensed", "regular", "NotoSans-CondensedBold.ttf"),
    ("condensed", "bold", "NotoSans-CondensedBlack.ttf"),
    ("condensed", "italic", "NotoSans-CondensedBold.ttf"),      # italic -> regular
    ("condensed", "bolditalic", "NotoSans-CondensedBlack.ttf"),  # bolditalic -> bold
    ("music", "bold", "NotoMusic-Regular.ttf"),
    ("music", "bolditalic", "NotoMusic-Regular.ttf"),
    ("symbols", "italic", "NotoSansSymbols2-Regular.ttf"),
])
def test_style_fallbacks(fonts, family, style, file):
    assert Path(fonts.families[family].file(style).path).name == file


def test_bolditalic_falls_back_to_bold_then_italic():
    both = Family("x", {"regular": str(FONTS_DIR / "NotoSans-Regular.ttf"),
                        "italic": str(FONTS_DIR / "NotoSans-Italic.ttf"),
                        "bold": str(FONTS_DIR / "NotoSans-Bold.ttf")})
    assert Path(both.file("bolditalic").path).name == "NotoSans-Bold.ttf"
    italic_only = Family("x", {"regular": str(FONTS_DIR / "NotoSans-Regular.ttf"),
                               "italic": str(FONTS_DIR / "NotoSans-Italic.ttf")})
    assert Path(italic_only.file("bolditalic").path).name == "NotoSans-Italic.ttf"
    assert Path(italic_only.file("bold").path).name == "NotoSans-Regular.ttf"


def test_family_without_regular_uses_its_first_file():
    family = Family("x", {"bold": str(FONTS_DIR / "NotoSans-Bold.ttf"),
                          "italic": str(FONTS_DIR / "NotoSans-Italic.ttf")})
    assert Path(family.file("regular").path).name == "NotoSans-Bold.ttf"
    assert Path(family.file("italic").path).name == "NotoSans-Italic.ttf"


def test_open_font_is_cached(sans):
    assert open_font(sans.path) is sans


def test_names(fonts):
    assert fonts.names() == ["sans", "sans-bold", "sans-italic", "sans-bolditalic",
                             "condensed", "condensed-bold", "music", "symbols", "math"]


@pytest.mark.parametrize("ref, family, style", [
    ("sans", "sans", "regular"),
    ("sans-bold", "sans", "bold"),
    ("sans-bolditalic", "sans", "bolditalic"),
    ("condensed-italic", "condensed", "italic"),   # a style the family lacks still splits; file() falls back
    ("music", "music", "regular"),
])
def test_split(fonts, ref, family, style):
    fam, st = fonts.split(ref)
    assert (fam.name, st) == (family, style)


@pytest.mark.parametrize("ref", ["serif", "sans-heavy", "sans-", "-bold", "Sans"])
def test_split_unknown(fonts, ref):
    with pytest.raises(KeyError):
        fonts.split(ref)


def test_extra_families():
    fonts = FontSet({"my-font": {"regular": "/x/My.ttf", "bold": "/x/My-Bold.ttf"},
                     "sans": {"regular": "/x/Other.ttf"}})
    assert "my-font" in fonts and "sans" in fonts and "serif" not in fonts
    fam, style = fonts.split("my-font-bold")
    assert (fam.name, style) == ("my-font", "bold")
    assert fonts.split("my-font")[0].name == "my-font"      # a hyphen in the family name itself
    assert fonts.families["sans"].files == {"regular": "/x/Other.ttf"}   # a deck may replace a family
    assert "my-font-bold" in fonts.names()


# --- coverage ----------------------------------------------------------------------------------

@pytest.mark.parametrize("char", MUSIC_CHARS, ids=[f"U+{ord(c):04X}" for c in MUSIC_CHARS])
def test_music_glyphs_are_in_notomusic_not_notosans(sans, music, char):
    assert music.has(char)
    assert not sans.has(char)
    assert music.advance(char) > 0


@pytest.mark.parametrize("char", MUSIC_CHARS, ids=[f"U+{ord(c):04X}" for c in MUSIC_CHARS])
def test_font_for_falls_back_to_music(fonts, sans, music, char):
    assert fonts.font_for(char, sans, "regular") is music
    bold = fonts.families["sans"].file("bold")
    assert fonts.font_for(char, bold, "bold") is music     # music has no bold: its regular


@pytest.mark.parametrize("char", ["★", "☐", "⚀"])
def test_font_for_falls_back_to_symbols(fonts, sans, char):
    font = fonts.font_for(char, sans, "regular")
    assert Path(font.path).name == "NotoSansSymbols2-Regular.ttf"
    assert font.has(char)


def test_font_for_prefers_the_primary(fonts, sans, music):
    assert fonts.font_for("A", sans, "regular") is sans
    assert fonts.font_for("A", music, "regular") is sans       # music lacks Latin letters
    condensed = fonts.families["condensed"].file("regular")
    assert fonts.font_for("A", condensed, "regular") is condensed


@pytest.mark.parametrize("char", [" ", "\u00a0"])
def test_spaces_stay_in_the_primary(fonts, music, char):
    assert fonts.font_for(char, music, "regular") is music


def test_font_for_a_character_no_font_has_is_the_primary(fonts, sans):
    assert fonts.font_for("\ue000", sans, "regular") is sans
    assert fonts.font_for("一", sans, "regular") is sans


def test_fallbacks_in_order(fonts):
    names = [Path(f.path).name for f in fonts.fallbacks("bold")]
    assert FALLBACK_FAMILIES == ("sans", "music", "symbols", "math")
    assert names == ["NotoSans-Bold.ttf", "NotoMusic-Regular.ttf", "NotoSansSymbols2-Regular.ttf",
                     "NotoSansMath-Regular.ttf"]


@pytest.mark.parametrize("char", ["↑", "↓", "→", "⇈", "⇊", "↻"])
def test_arrows_fall_back_to_the_math_font(fonts, sans, char):
    assert Path(fonts.font_for(char, sans, "regular").path).name == "NotoSansMath-Regular.ttf"


# --- metrics -----------------------------------------------------------------------------------

def test_widths_add_up(sans):
    assert sans.width("") == 0.0
    assert sans.width("AV") == pytest.approx(sans.advance("A") + sans.advance("V"))
    assert sans.width("iiii") == pytest.approx(4 * sans.advance("i"))
    assert sans.width("WWW") == pytest.approx(3 * sans.width("W"))


def test_widths_bounds_and_heights_are_the_files_in_em(sans):
    """What HarfBuzz gives compose, against fontTools' reading of the same file."""
    font = TTFont(sans.path, lazy=True)
    upm = font["head"].unitsPerEm
    cmap = font.getBestCmap()
    for char in "Mi♯é ":
        glyph = cmap[ord(char)] if ord(char) in cmap else None
        if glyph is None:
            assert not sans.has(char) and sans.advance(char) == 0.0
            continue
        assert sans.advance(char) == font["hmtx"][glyph][0] / upm
        outline = font["glyf"][glyph]
        assert sans.bounds(char) == ((outline.xMin / upm, outline.yMin / upm, outline.xMax / upm, outline.yMax / upm)
                                     if hasattr(outline, "xMin") else (0.0, 0.0, 0.0, 0.0))
    assert (sans.ascent, sans.descent) == (font["OS/2"].sTypoAscender / upm, -font["OS/2"].sTypoDescender / upm)
    assert sans.cap_height == font["OS/2"].sCapHeight / upm
    assert 0.3 < sans.advance("M") < 1.2
    assert sans.advance("i") < sans.advance("M")


def test_bold_and_condensed_widths(fonts, sans):
    text = "Metronome"
    bold = fonts.families["sans"].file("bold")
    condensed = fonts.families["condensed"].file("regular")
    assert bold.width(text) > sans.width(text)
    assert condensed.width(text) < bold.width(text)


def test_missing_character_has_no_width(sans):
    assert sans.advance("\ue000") == 0.0
    assert sans.width("A\ue000") == sans.width("A")


def test_bounds_of_a_glyph(sans):
    x0, y0, x1, y1 = sans.bounds("H")
    assert 0 < x0 < x1 < sans.advance("H")
    assert y0 == 0.0                                    # sits on the baseline
    assert y1 == pytest.approx(sans.cap_height)         # as tall as a capital
    _, py0, _, py1 = sans.bounds("p")
    assert py0 < 0 < py1                                # the descender goes below the baseline
    assert sans.bounds("x")[3] < y1                     # x-height is below cap height


def test_bounds_of_a_composite_glyph(sans):
    _, _, _, top = sans.bounds("é")
    assert top > sans.bounds("e")[3]                    # the accent is included


@pytest.mark.parametrize("char", [" ", "\ue000"])
def test_bounds_of_nothing(sans, char):
    assert sans.bounds(char) == (0.0, 0.0, 0.0, 0.0)


# --- unusable files ----------------------------------------------------------------------------

def _cff_font(path: Path) -> None:
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen

    fb = FontBuilder(1000, isTTF=False)
    fb.setupGlyphOrder([".notdef"])
    fb.setupCharacterMap({})
    fb.setupCFF("TestCFF", {"FullName": "TestCFF"}, {".notdef": T2CharStringPen(500, None).getCharString()}, {})
    fb.setupHorizontalMetrics({".notdef": (500, 0)})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "TestCFF", "styleName": "Regular"})
    fb.setupOS2()
    fb.setupPost()
    fb.save(str(path))


def test_a_cff_font_is_read(tmp_path):
    path = tmp_path / "TestCFF.otf"
    _cff_font(path)
    font = open_font(str(path))
    assert font.units_per_em == 1000 and font.glyph_advance(0) == 0.5


TRUETYPE = (FONTS_DIR / "NotoSans-Regular.ttf").read_bytes()


@pytest.mark.parametrize("content", [b"", b"this is not a font at all", TRUETYPE[:12], TRUETYPE[:1000]],
                         ids=["empty", "text", "truncated-directory", "truncated-tables"])
def test_non_font_file_is_refused(tmp_path, content):
    path = tmp_path / "Broken.ttf"
    path.write_bytes(content)
    with pytest.raises(FontError, match="cannot read font Broken.ttf: "):
        open_font(str(path))


def test_font_without_outlines_is_not_called_cff(tmp_path):
    path = tmp_path / "Empty.ttf"
    path.write_bytes(b"\x00\x01\x00\x00" + b"\x00" * 8)     # a TrueType header listing no tables
    with pytest.raises(FontError) as info:
        open_font(str(path))
    assert "CFF" not in str(info.value)


def test_missing_font_file_is_refused(tmp_path):
    with pytest.raises(FontError, match="cannot read font Nope.ttf"):
        open_font(str(tmp_path / "Nope.ttf"))


def test_font_error_is_a_value_error():
    assert issubclass(FontError, ValueError)


def test_styles():
    assert STYLES == ("regular", "bold", "italic", "bolditalic")


def test_a_reference_names_a_file(fonts):
    assert fonts.file("sans-bold").path.endswith("NotoSans-Bold.ttf")
    assert fonts.file("condensed").path.endswith("NotoSans-CondensedBold.ttf")
    with pytest.raises(KeyError):
        fonts.file("nosuch")


def test_fonttools_is_quiet_inside_but_lets_errors_through(caplog):
    import logging
    from deckpress.text.fonts import quiet_fonttools
    logger = logging.getLogger("fontTools.subset")
    caplog.set_level(logging.DEBUG, logger="fontTools")  # as a user's own logging set-up might
    with quiet_fonttools(), quiet_fonttools():  # nested, as a subset inside a build may be
        logger.warning("FFTM NOT subset; don't know how to subset; dropped")
        logger.error("a real problem")
    logger.warning("outside: heard")
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [("ERROR", "a real problem"),
                                                                       ("WARNING", "outside: heard")]
    assert logging.getLogger("fontTools").level == logging.DEBUG  # given back as it was
    with pytest.raises(ZeroDivisionError), quiet_fonttools():
        1 / 0
    assert logging.getLogger("fontTools").level == logging.DEBUG


@pytest.mark.parametrize("path", [p for fam in FontSet().families.values() for p in fam.files.values()],
                         ids=lambda p: Path(p).name)
def test_harfbuzzs_reading_is_the_files_value_for_value(path):
    """HarfBuzz reads every font: its character map and advances are fontTools' reading of the
    file, character for character (a no-break space as the space, as compose has always had it)."""
    font, theirs = open_font(path), TTFont(path, lazy=True)
    cmap = {c: theirs.getGlyphID(name) for c, name in theirs.getBestCmap().items()}
    cmap = {c: g for c, g in cmap.items() if g}
    cmap[0xA0] = cmap[0x20]
    assert dict(font._cmap) == cmap
    assert [round(font.glyph_advance(g) * font.units_per_em, 6) for g in range(len(theirs.getGlyphOrder()))] == \
        [theirs["hmtx"][name][0] for name in theirs.getGlyphOrder()]


# --- character maps a stranger's font may hold -------------------------------------------------------

def _with_cmap(tmp_path: Path, subtable: bytes, name: str) -> str:
    """Noto Sans with its character map replaced by one Windows Unicode subtable of these bytes."""
    import struct

    from fontTools.ttLib.tables.DefaultTable import DefaultTable

    font = TTFont(str(FONTS_DIR / "NotoSans-Regular.ttf"))
    table = DefaultTable("cmap")
    table.data = struct.pack(">HHHHL", 0, 1, 3, 10 if subtable[:2] == b"\x00\x0c" else 1, 12) + subtable
    font["cmap"] = table
    path = tmp_path / name
    font.save(str(path))
    return str(path)


def test_a_character_map_of_overlapping_segments_is_read_once_each_character(tmp_path):
    """32,767 segments each over the whole of the Basic Multilingual Plane read every character
    32,767 times: opening the font hung. The first segment covering a character gives its glyph,
    as HarfBuzz's search finds it."""
    import struct

    segments = 32767
    ends = [0xFFFE] * (segments - 1) + [0xFFFF]
    starts = [0] * (segments - 1) + [0xFFFF]
    deltas = [5] + [7] * (segments - 1)
    body = (struct.pack(f">{segments}H", *ends) + b"\0\0" + struct.pack(f">{segments}H", *starts)
            + struct.pack(f">{segments}h", *deltas) + struct.pack(f">{segments}H", *[0] * segments))
    path = _with_cmap(tmp_path, struct.pack(">HHHHHHH", 4, 0, 0, 2 * segments, 0, 0, 0) + body, "segments.ttf")
    font = open_font(path)
    assert len(font._cmap) <= 0xFFFF  # U+0000 to U+FFFE at most, each once
    assert font._cmap[ord("A")] in (ord("A") + 5, ord("A") + 7)  # HarfBuzz's choice of segment


def test_a_character_map_group_of_four_billion_characters_is_held_to_unicode_and_the_fonts_glyphs(tmp_path):
    """A format-12 group from U+0000 to 0xFFFFFFFF wanted 8 GB; it reads as far as the font has glyphs."""
    import struct

    glyphs = TTFont(str(FONTS_DIR / "NotoSans-Regular.ttf"))["maxp"].numGlyphs
    subtable = struct.pack(">HHLLL", 12, 0, 16 + 12 * 2, 0, 2) + struct.pack(">LLL", 0x20, 0xFFFFFFFF, 1) \
        + struct.pack(">LLL", 0x40, 0x50, 3)  # overlapping the first: read past it
    font = open_font(_with_cmap(tmp_path, subtable, "groups.ttf"))
    assert len(font._cmap) <= glyphs and font._cmap[0x20] == 1  # held to the font's glyphs


def test_a_damaged_character_map_is_read_but_refused_for_embedding(tmp_path):
    """The two maps above are read (in bounded time) but a deck may not print with them:
    subsetting the overlapping segments took 4.5 s a PDF, and a group past Unicode is no map a
    font tool writes. `check_embeddable` says so; Noto Sans passes it."""
    import struct

    from deckpress.text.fonts import FontError, check_embeddable

    segments = 32767
    body = (struct.pack(f">{segments}H", *[0xFFFE] * (segments - 1), 0xFFFF) + b"\0\0"
            + struct.pack(f">{segments}H", *[0] * (segments - 1), 0xFFFF)
            + struct.pack(f">{segments}h", *[5] * segments) + struct.pack(f">{segments}H", *[0] * segments))
    overlapping = _with_cmap(tmp_path, struct.pack(">HHHHHHH", 4, 0, 0, 2 * segments, 0, 0, 0) + body, "segments.ttf")
    groups = _with_cmap(tmp_path, struct.pack(">HHLLL", 12, 0, 28, 0, 1) + struct.pack(">LLL", 0x20, 0xFFFFFFFF, 1),
                        "groups.ttf")
    for path, said in ((overlapping, "format 4 segments out of order"), (groups, "format 12 groups")):
        with pytest.raises(FontError, match=said):  # told from the map's bytes, before any subsetting
            check_embeddable(path)
    check_embeddable(str(FONTS_DIR / "NotoSans-Regular.ttf"))


def test_a_reference_carries_a_member_and_axis_values_and_reads_back():
    from deckpress.text.fonts import Source, font_ref, font_source

    assert font_ref("/f/Sans.ttf") == "/f/Sans.ttf" and font_source("/f/Sans.ttf") == Source("/f/Sans.ttf")
    ref = font_ref("/f/Var[wdth,wght].ttf", 1, {"wght": 650.0, "wdth": 87.5, "slnt": -12.25})
    assert ref == "/f/Var[wdth,wght].ttf#1@slnt=-12.25,wdth=87.5,wght=650"  # by tag; no exponents
    assert font_source(ref) == Source("/f/Var[wdth,wght].ttf", 1, (("slnt", -12.25), ("wdth", 87.5), ("wght", 650.0)))
    assert font_source("/f/odd#name.ttf") == Source("/f/odd#name.ttf")  # a '#' in a file's name is its own


def test_a_deck_with_a_font_that_cannot_be_embedded_is_refused_at_its_line(make_deck, tmp_path):
    """The deck loader asks `check_embeddable` of a deck's own fonts: one line at the font's key,
    before any card is set (the fuzzer's damaged fonts crashed the build in the PDF backend)."""
    import struct

    from deckpress.errors import DeckError
    from deckpress.model import load_deck

    groups = _with_cmap(tmp_path, struct.pack(">HHLLL", 12, 0, 28, 0, 1) + struct.pack(">LLL", 0x20, 0xFFFFFFFF, 1),
                        "groups.ttf")
    deck = """
        id: damaged
        title: Damaged
        designer: Test
        license: CC0-1.0
        layouts: [plain]
        fonts:
          odd:
            regular: fonts/groups.ttf
        components:
          - name: things
            front: front
            cards: [{}]
        """
    layout = """
        templates:
          front:
            elements:
              - text: {text: "x", font: odd}
        """
    folder = make_deck(deck, {"plain": layout}, {"fonts/groups.ttf": Path(groups).read_bytes()})
    with pytest.raises(DeckError) as caught:
        load_deck(folder)
    line = str(caught.value)
    assert "\n" not in line and "deck.yaml:9:" in line and "groups.ttf has a damaged character map" in line
