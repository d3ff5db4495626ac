"""TrueType fonts: families, metrics and character coverage.

Compose measures text with these metrics and the backends embed the same files, so a line
that fits when composed fits when drawn. A file is read once, by reportlab's TrueType reader,
whose face the PDF backend then embeds from (fontTools would cost a second reading and a tenth of
a second of imports on every run); only TrueType (glyf) outlines are accepted because reportlab
cannot embed CFF fonts.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import threading
from functools import reduce
from operator import add
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import struct

from reportlab.pdfbase.ttfonts import TTFError, TTFontFace

from .bundled import FONTS_DIR

STYLES = ("regular", "bold", "italic", "bolditalic")

#: The bundled families, by the name layouts use for them.
BUNDLED_FAMILIES: dict[str, dict[str, str]] = {
    "sans": {"regular": "NotoSans-Regular.ttf", "bold": "NotoSans-Bold.ttf",
             "italic": "NotoSans-Italic.ttf", "bolditalic": "NotoSans-BoldItalic.ttf"},
    "condensed": {"regular": "NotoSans-CondensedBold.ttf", "bold": "NotoSans-CondensedBlack.ttf"},
    "music": {"regular": "NotoMusic-Regular.ttf"},
    "symbols": {"regular": "NotoSansSymbols2-Regular.ttf"},
    "math": {"regular": "NotoSansMath-Regular.ttf"},  # ↑ ↓ → ⇈ ⇊ ↻: arrows no other bundled font has
}

#: Where a character missing from the chosen font is looked for, in order.
FALLBACK_FAMILIES = ("sans", "music", "symbols", "math")


class FontError(ValueError):
    """A font file that cannot be used (missing, not TrueType)."""


_quiet_lock = threading.Lock()
_quiet_depth = 0  # how many `quiet_fonttools` blocks are running (threads may overlap)
_loud_level = logging.NOTSET  # the fontTools logger's own level, given back when the last block ends


@contextlib.contextmanager
def quiet_fonttools() -> Iterator[None]:
    """fontTools logs a warning for every table of a font it passes over ("FFTM NOT subset; don't
    know how to subset; dropped"), which with no logging set up lands on stderr on every run of
    a deck with its own fonts. Inside this block (also a decorator) only its errors get through;
    exceptions are untouched."""
    global _quiet_depth, _loud_level
    logger = logging.getLogger("fontTools")
    with _quiet_lock:
        if _quiet_depth == 0:
            _loud_level = logger.level
            logger.setLevel(max(_loud_level, logging.ERROR))
        _quiet_depth += 1
    try:
        yield
    finally:
        with _quiet_lock:
            _quiet_depth -= 1
            if _quiet_depth == 0:
                logger.setLevel(_loud_level)


@dataclass(frozen=True)
class FontFile:
    """One TrueType file and the metrics compose needs, in em units (1 em = font size)."""

    path: str
    units_per_em: int
    ascent: float
    descent: float
    cap_height: float
    _cmap: Mapping[int, int] = field(repr=False, compare=False)  # character -> glyph index
    _advance: Sequence[int] = field(repr=False, compare=False)  # by glyph index, in font units
    face: TTFontFace = field(repr=False, compare=False)  # reportlab's reading, for the PDF backend
    _notdef: int = field(default=0, repr=False, compare=False)  # advance of glyph 0, in font units
    # string_width's per-character widths (thousandths of an em), filled as characters are met:
    # page labels are measured on every page, and a font has only so many characters
    _widths: dict[str, float] = field(default_factory=dict, repr=False, compare=False)

    def has(self, char: str) -> bool:
        return ord(char) in self._cmap

    def advance(self, char: str) -> float:
        """Advance width of one character in em (0 when the font lacks it)."""
        glyph = self._cmap.get(ord(char))
        return self._advance[glyph] / self.units_per_em if glyph else 0.0

    def glyph_advance(self, gid: int) -> float:
        """Advance width of a glyph, by its index, in em (0 for an index the font has not)."""
        return self._advance[gid] / self.units_per_em if 0 <= gid < len(self._advance) else 0.0

    def width(self, text: str) -> float:
        """Width of `text` in em; multiply by the size to get a length."""
        return sum(self.advance(c) for c in text)

    def string_width(self, text: str, size: float) -> float:
        """Width of `text` set at `size`, in the size's unit, summed exactly as reportlab's
        stringWidth (with rl_accel, which the project requires) sums it: advances in thousandths of
        an em, a character the font lacks as wide as its .notdef glyph, a no-break space as wide as
        a space. What is laid out with it (page labels, the calibration sheet's text) lands where the
        PDF draws it, to the last bit."""
        widths = self._widths
        if not widths.keys() >= set(text):
            for char in set(text).difference(widths):
                widths[char] = self._thousandths(char)
        # a plain running sum, left to right (sum() of floats compensates on newer Pythons), in C
        return reduce(add, map(widths.__getitem__, text), 0) * 0.001 * size

    def _thousandths(self, char: str) -> float:
        """One character's advance in thousandths of an em, as reportlab's stringWidth takes it."""
        scale = 1 if self.units_per_em == 1000 else 1000 / self.units_per_em
        code = ord(char)
        if code in (0x20, 0xA0) and code not in self._cmap:
            code ^= 0x80  # one of the two spaces stands for the other
        glyph = self._cmap.get(code)
        return (self._advance[glyph] if glyph else self._notdef) * scale

    @functools.lru_cache(maxsize=None)
    def bounds(self, char: str) -> tuple[float, float, float, float]:
        """Ink box of a character in em, y up from the baseline: (xmin, ymin, xmax, ymax), as the
        glyph's header in the glyf table gives it (zeros for a glyph without outlines)."""
        glyph = self._cmap.get(ord(char))
        face = self.face
        if not glyph or face.glyphPos[glyph + 1] <= face.glyphPos[glyph]:
            return (0.0, 0.0, 0.0, 0.0)
        at = face.table["glyf"]["offset"] + face.glyphPos[glyph]
        _contours, x0, y0, x1, y1 = struct.unpack_from(">hhhhh", face._ttf_data, at)
        u = self.units_per_em
        return (x0 / u, y0 / u, x1 / u, y1 / u)


class Face(TTFontFace):
    """reportlab's reading of a TrueType file, the same values in every attribute, but its character
    map, widths and glyph locations read as arrays: reportlab reads them number by number, which
    was four-fifths of reading a font (a tenth of a second for the bundled ones)."""

    def extractInfo(self, charInfo: int = 1) -> None:  # reportlab's name
        TTFontFace.extractInfo(self, charInfo=0)  # the names and headers: a few numbers each
        if not charInfo:
            return
        data = self._ttf_data
        head, hhea = self.table["head"]["offset"], self.table["hhea"]["offset"]
        index_format, glyph_format = struct.unpack_from(">hh", data, head + 50)
        metrics, = struct.unpack_from(">H", data, hhea + 34)
        char_to_glyph = self._character_map(data)
        if char_to_glyph is None or glyph_format != 0 or "loca" not in self.table:
            TTFontFace.extractInfo(self, charInfo)  # what reportlab reads its own way, or refuses
            return
        glyphs, scale = self.numGlyphs, self._pdfScale
        glyph_to_char: dict[int, list[int]] = {}
        for char, glyph in char_to_glyph.items():
            glyph_to_char.setdefault(glyph, []).append(char)
        at = self.table["hmtx"]["offset"]
        pairs = struct.unpack_from(f">{2 * metrics}H", data, at)
        hmetrics: list[tuple[float, int]] = list(zip(pairs[0::2], pairs[1::2]))
        last = scale(pairs[-2])  # the last advance, as the rest of the glyphs have it (scaled, as reportlab keeps it)
        if glyphs > metrics:
            hmetrics += [(last, lsb) for lsb in struct.unpack_from(f">{glyphs - metrics}H", data, at + 4 * metrics)]
        advances = [scale(advance) for advance, _ in hmetrics[:metrics]] + [last] * max(0, glyphs - metrics)
        self.defaultWidth = advances[0]
        self.charWidths = {char: advances[glyph] for char, glyph in char_to_glyph.items() if glyph < glyphs}
        self.hmetrics = hmetrics
        at = self.table["loca"]["offset"]
        if index_format == 0:
            self.glyphPos = [offset << 1 for offset in struct.unpack_from(f">{glyphs + 1}H", data, at)]
        elif index_format == 1:
            self.glyphPos = list(struct.unpack_from(f">{glyphs + 1}L", data, at))
        else:
            raise TTFError(f"Unknown location table format ({index_format})")
        self.charToGlyph, self.glyphToChar = char_to_glyph, glyph_to_char
        for space, other in ((0x20, 0xA0), (0xA0, 0x20)):  # one space stands for the other, as reportlab has it
            if space in char_to_glyph:
                char_to_glyph[other] = char_to_glyph[space]
                self.charWidths[other] = self.charWidths[space]
                break

    def _character_map(self, data: bytes) -> dict[int, int] | None:
        """The Unicode character map reportlab would choose, if it is of format 4 or 12 (every font
        deckpress ships); None for the other formats, which reportlab then reads."""
        cmap = self.table["cmap"]["offset"]
        version, count = struct.unpack_from(">HH", data, cmap)
        if count == 0 and version != 0:
            count, version = version, count
        chosen, kind = None, 0
        for n in range(count):  # reportlab's choice, entry by entry
            platform, encoding, offset = struct.unpack_from(">HHL", data, cmap + 4 + 8 * n)
            if platform == 3 or (platform == 1 and encoding == 1) or (platform == 0 and encoding != 5):
                chosen, kind = offset, 1
            elif platform == 1 and encoding == 0 and kind != 1:
                chosen, kind = offset, 2
        if chosen is None:
            return None
        at = cmap + chosen
        fmt, = struct.unpack_from(">H", data, at)
        found: dict[int, int] = {}
        if fmt == 4:
            length, = struct.unpack_from(">H", data, at + 2)
            limit = at + length
            segments = struct.unpack_from(">H", data, at + 6)[0] // 2
            ends = struct.unpack_from(f">{segments}H", data, at + 14)
            starts = struct.unpack_from(f">{segments}H", data, at + 16 + 2 * segments)
            deltas = struct.unpack_from(f">{segments}h", data, at + 16 + 4 * segments)
            ranges_at = at + 16 + 6 * segments
            ranges = struct.unpack_from(f">{segments}H", data, ranges_at)
            free = 0  # segments come in order and do not overlap: one that does is read past what came before,
            for n in range(segments):  # so each character is read once (32,767 segments over all 65,536 hung)
                start, end, delta, offset = max(starts[n], free), ends[n], deltas[n], ranges[n]
                if start > end:
                    continue
                first = ranges_at + 2 * n + offset + 2 * (start - starts[n])  # where `start`'s glyph is
                free = end + 1
                chars = range(start, end + 1)
                if offset == 0:
                    found.update(zip(chars, [(c + delta) & 0xFFFF for c in chars]))
                    continue
                inside = max(0, min(len(chars), (limit - first + 1) // 2))  # past the table: glyph 0
                raw = struct.unpack_from(f">{inside}H", data, first) if inside else ()
                glyphs = [(g + delta) & 0xFFFF if g else 0 for g in raw] + [0] * (len(chars) - inside)
                found.update(zip(chars, glyphs))
            return found
        if fmt == 12:
            groups, = struct.unpack_from(">L", data, at + 12)
            numbers = struct.unpack_from(f">{3 * groups}L", data, at + 16)
            glyph_count = struct.unpack_from(">H", data, self.table["maxp"]["offset"] + 4)[0] if "maxp" in self.table \
                else 0xFFFF
            free = 0  # groups come in order within Unicode's code points: read past what came before, so
            for n in range(0, 3 * groups, 3):  # a group of 4 billion, or groups overlapping, read each once
                start, end, glyph = numbers[n:n + 3]
                # no further than Unicode's last code point, nor past the font's last glyph
                skipped, end = max(free - start, 0), min(end, 0x10FFFF, start + max(glyph_count - glyph, 0) - 1)
                start += skipped
                if start > end:
                    continue
                free = end + 1
                found.update(zip(range(start, end + 1), range(glyph + skipped, glyph + skipped + end - start + 1)))
            return found
        return None


_Cache = TypeVar("_Cache", bound=Callable)
_FROM_FONTS: list[Callable[[], None]] = []


def from_fonts(cache: _Cache) -> _Cache:
    """Mark `cache` (an lru_cache) as holding what font files gave, found by their paths (metrics,
    glyphs, shapes, text set in them): `reread_fonts` empties it.

    These caches are keyed by a font's path alone, not by the file's stamp as picture caches are
    (`imagefile.stamp`): words are shaped and measured by the hundred thousand, and a stat each
    would cost more than the caching saves. A process that outlives a font saved anew (`deckpress
    serve`) says so instead."""
    _FROM_FONTS.append(cache.cache_clear)
    return cache


def reread_fonts() -> None:
    """Forget everything read from font files, so each is read anew when next asked for: for a
    long-lived process once a font it has read is saved again (the deck's own, or a bundled one)."""
    for clear in _FROM_FONTS:
        clear()


@from_fonts
@functools.lru_cache(maxsize=None)
def open_font(path: str) -> FontFile:
    """Read a TrueType font once per process."""
    name = Path(path).name
    try:
        face = Face(path)
    except OSError as exc:
        raise FontError(f"cannot read font {name}: {exc.strerror or exc}") from None
    except (TTFError, ValueError, IndexError, KeyError, struct.error) as exc:
        tables = _tables(path)
        if "glyf" not in tables and ("CFF " in tables or "CFF2" in tables):
            raise FontError(f"{name} has PostScript (CFF) outlines; convert it to TrueType") from None
        if tables and "glyf" not in tables:
            raise FontError(f"{name} has no TrueType outlines to draw with") from None
        raise FontError(f"cannot read font {name}: {exc}") from None
    if "glyf" not in face.table:
        raise FontError(f"{name} has no TrueType outlines to draw with")
    upm = face.unitsPerEm
    ascender, descender, cap_height = _vertical_metrics(face)
    return FontFile(
        path=path, units_per_em=upm, ascent=ascender / upm, descent=-descender / upm,
        cap_height=(cap_height or 0.7 * upm) / upm,
        # reportlab's map also sends U+FFFF (a format 4 table's end) to glyph 0, "no glyph": left out
        _cmap={char: glyph for char, glyph in face.charToGlyph.items() if glyph},
        _advance=[advance for advance, _lsb in face.hmetrics], face=face, _notdef=face.hmetrics[0][0],
    )


def _vertical_metrics(face: TTFontFace) -> tuple[int, int, int]:
    """The OS/2 table's typographic ascender and descender and cap height (0 before version 2),
    in font units as written (reportlab keeps them scaled to thousandths)."""
    at = face.table["OS/2"]["offset"]
    data = face._ttf_data
    version, = struct.unpack_from(">H", data, at)
    ascender, descender = struct.unpack_from(">hh", data, at + 68)
    cap_height = struct.unpack_from(">h", data, at + 88)[0] if version >= 2 else 0
    return ascender, descender, cap_height


def _tables(path: str) -> set[str]:
    """The table tags of a font file (empty if it is not one), to say why it cannot be used."""
    try:
        with open(path, "rb") as file:
            head = file.read(12)
            count = struct.unpack(">H", head[4:6])[0] if len(head) == 12 else 0
            directory = file.read(16 * min(count, 256))
    except OSError:
        return set()
    return {directory[i:i + 4].decode("latin-1") for i in range(0, len(directory) - 15, 16)}


@dataclass(frozen=True)
class Family:
    """A font family: the file for each style it has. A value: equal families hash alike, so
    text measured in one can be cached (compose/text.py)."""

    name: str
    files: Mapping[str, str]  # style -> path
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # files is a dict (unhashable); the hash is taken once, as the family never changes
        object.__setattr__(self, "_hash", hash((self.name, frozenset(self.files.items()))))

    def __hash__(self) -> int:
        return self._hash

    def file(self, style: str) -> FontFile:
        """The file for a style, falling back to the nearest style the family has."""
        for candidate in _style_fallbacks(style):
            if candidate in self.files:
                return open_font(self.files[candidate])
        return open_font(next(iter(self.files.values())))


def _style_fallbacks(style: str) -> tuple[str, ...]:
    return _FALLBACKS[style]


_FALLBACKS = {"regular": ("regular",), "bold": ("bold", "regular"), "italic": ("italic", "regular"),
              "bolditalic": ("bolditalic", "bold", "italic", "regular")}  # made once, not at every word


@functools.cache
def _bundled_families() -> dict[str, Family]:
    """The bundled families, made once: a deck's loading makes a FontSet for every colour it reads."""
    return {name: Family(name, {s: str(FONTS_DIR / f) for s, f in files.items()})
            for name, files in BUNDLED_FAMILIES.items()}


class FontSet:
    """The families a deck may use: the bundled ones plus any the deck brings. Not changed once
    made, and compared by its families, so two decks with the same fonts share measured text."""

    def __init__(self, extra: Mapping[str, Mapping[str, str]] | None = None) -> None:
        self.families: dict[str, Family] = dict(_bundled_families())
        for name, files in (extra or {}).items():
            self.families[name] = Family(name, dict(files))
        self._hash = hash(frozenset(self.families.items()))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FontSet) and self.families == other.families

    def __hash__(self) -> int:
        return self._hash

    def __contains__(self, name: str) -> bool:
        return name in self.families

    def names(self) -> list[str]:
        """Every font reference a layout may write: ``sans``, ``sans-bold``, …"""
        refs = []
        for fam in self.families.values():
            refs.append(fam.name)
            refs += [f"{fam.name}-{s}" for s in fam.files if s != "regular"]
        return refs

    def split(self, ref: str) -> tuple[Family, str]:
        """``sans-bold`` -> (the sans family, 'bold'). Raises KeyError for unknown names."""
        if ref in self.families:
            return self.families[ref], "regular"
        base, _, style = ref.rpartition("-")
        if base in self.families and style in STYLES:
            return self.families[base], style
        raise KeyError(ref)

    def file(self, ref: str) -> FontFile:
        """The file a reference like ``sans`` or ``sans-bold`` names (KeyError for unknown names)."""
        family, style = self.split(ref)
        return family.file(style)

    def fallbacks(self, style: str) -> Iterator[FontFile]:
        """Where a character the text's own font lacks is looked for: the bundled sans serif, music,
        symbol and maths fonts, then the deck's own families in the order it names them (a Hebrew
        or Arabic font a deck brings sets those letters in any of its texts)."""
        for name in FALLBACK_FAMILIES:
            if name in self.families:
                yield self.families[name].file(style)
        for name, family in self.families.items():
            if name not in BUNDLED_FAMILIES:
                yield family.file(style)

    def font_for(self, char: str, primary: FontFile, style: str) -> FontFile:
        """The font that draws `char`: the primary if it has it, else the first fallback that does."""
        if primary.has(char) or char in " \u00a0":
            return primary
        for font in self.fallbacks(style):
            if font.has(char):
                return font
        return primary
