"""Font files of every kind a deck may bring, made at test time from the bundled Noto Sans (OFL:
what is made of it stays under the OFL, and is never kept in the repository).

Each maker writes a small font (the letters of `LETTERS`, kerning kept) and returns its path:
a CFF-flavoured `.otf`, a `.woff` and a `.woff2`, a `.ttc` of two members, and a variable font
with a weight axis made of the regular outlines and a wider master of the same points.
"""

from __future__ import annotations

from pathlib import Path

from fontTools import subset
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.t2CharStringPen import T2CharStringPen
from fontTools.ttLib import TTFont
from fontTools.ttLib.tables.TupleVariation import TupleVariation
from fontTools.ttLib.ttCollection import TTCollection

from deckpress.bundled import FONTS_DIR

LETTERS = "AVTWYRaeghilnorstvwy .,Aprt?!ÉéfiΩ"
REGULAR, BOLD = FONTS_DIR / "NotoSans-Regular.ttf", FONTS_DIR / "NotoSans-Bold.ttf"


def small(source: Path = REGULAR, text: str = LETTERS) -> TTFont:
    """`source` cut down to the glyphs of `text` (and what they need), its layout tables kept."""
    options = subset.Options()
    options.name_IDs = ["*"]
    options.layout_features = ["*"]
    options.notdef_outline = True
    font = subset.load_font(str(source), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(font)
    return font


def truetype(path: Path, source: Path = REGULAR) -> Path:
    small(source).save(str(path))
    return path


def woff(path: Path, flavor: str = "woff2", source: Path = REGULAR) -> Path:
    """A WOFF (`flavor` "woff") or WOFF2 file of the small font."""
    font = small(source)
    font.flavor = flavor
    font.save(str(path))
    return path


def collection(path: Path) -> Path:
    """A `.ttc` of the small regular (member 0) and the small bold (member 1)."""
    ttc = TTCollection()
    ttc.fonts = [small(REGULAR), small(BOLD)]
    ttc.save(str(path))
    return path


def cff(path: Path, name: str = "NotoSansCFF-Regular") -> Path:
    """The small font with its TrueType outlines drawn into Type 2 charstrings: a CFF `.otf`,
    its metrics, character map and kerning the TrueType font's."""
    source = small()
    order = source.getGlyphOrder()
    glyphs = source.getGlyphSet()
    charstrings = {}
    for glyph in order:
        pen = T2CharStringPen(source["hmtx"][glyph][0], glyphs)
        glyphs[glyph].draw(pen)
        charstrings[glyph] = pen.getCharString()
    builder = FontBuilder(source["head"].unitsPerEm, isTTF=False)
    builder.setupGlyphOrder(order)
    builder.setupCharacterMap(source.getBestCmap())
    builder.setupCFF(name, {"FullName": name}, charstrings, {})
    builder.setupHorizontalMetrics({glyph: source["hmtx"][glyph] for glyph in order})
    builder.setupHorizontalHeader(ascent=source["hhea"].ascent, descent=source["hhea"].descent)
    builder.setupNameTable({"familyName": "Noto Sans CFF", "styleName": "Regular", "psName": name})
    builder.setupOS2()
    builder.setupPost()
    font = builder.font
    font["OS/2"] = source["OS/2"]
    for tag in ("GDEF", "GPOS", "GSUB"):
        if tag in source:
            font[tag] = source[tag]
    font.save(str(path))
    return path


WIDER = 0.25  #: how much wider the variable font's heaviest master is than its regular


def variable(path: Path) -> Path:
    """A variable font with one axis, wght 400 (the small regular) to 700 (every point and
    advance WIDER wider), and two named instances, Regular and SemiBold (650). The deltas are in
    gvar (the phantom points carry the advances), as a TrueType variable font has them."""
    font = small()
    glyf, hmtx = font["glyf"], font["hmtx"]
    variations = {}
    for glyph in font.getGlyphOrder():
        # each point's (a composite glyph's: each component's offset), the phantom points' last
        coordinates, _controls = glyf._getCoordinatesAndControls(glyph, hmtx.metrics)
        deltas = [(round(x * WIDER), 0) for x, _y in coordinates]
        variations[glyph] = [TupleVariation({"wght": (0.0, 1.0, 1.0)}, deltas)]
    builder = FontBuilder(font=font)
    builder.setupFvar(axes=[("wght", 400, 400, 700, "Weight")],
                      instances=[{"location": {"wght": 400}, "stylename": "Regular"},
                                 {"location": {"wght": 650}, "stylename": "SemiBold"}])
    builder.setupGvar(variations)
    font.save(str(path))
    return path
