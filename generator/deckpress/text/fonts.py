"""Fonts: families, the files their styles are, metrics and character coverage.

Compose measures text with these metrics, shaping shapes it with the same HarfBuzz font, and the
PDF backend embeds a subset of that font (HarfBuzz's subsetter), so a line that fits when composed
fits when drawn. HarfBuzz is the one font reader: TrueType (`.ttf`) and CFF (`.otf`) outlines,
collections (`.ttc`, `.otc`: a member by its index), WOFF and WOFF2 (decompressed by fontTools
first; WOFF2 needs brotli), and variable fonts at any axis values.

A font is named by a *reference*, a string (`Text.font`, a family's files): its file's path, and,
for a collection's member other than the first or a variable font's instance, `#index` and
`@tag=value,…` after it (`font_ref`, `font_source`). Everything keyed by fonts keys by it.
"""

from __future__ import annotations

import contextlib
import functools
import io
import logging
import re
import struct
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple, TypeVar

import uharfbuzz as hb

from ..bundled import FONTS_DIR

STYLES = ("regular", "bold", "italic", "bolditalic")
#: the font files a deck may name, by their endings
FONT_SUFFIXES = (".ttf", ".otf", ".ttc", ".otc", ".woff", ".woff2")
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
    """A font that cannot be used (missing, not a font, damaged, no such member or axis value)."""


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


_Cache = TypeVar("_Cache", bound=Callable)
_FROM_FONTS: list[Callable[[], None]] = []


def from_fonts(cache: _Cache) -> _Cache:
    """Mark `cache` (an lru_cache) as holding what font files gave, found by their references
    (metrics, glyphs, shapes, text set in them): `reread_fonts` empties it.

    These caches are keyed by a font's reference alone, not by the file's stamp as picture caches
    are (`imagefile.stamp`): words are shaped and measured by the hundred thousand, and a stat each
    would cost more than the caching saves. A process that outlives a font saved anew (`deckpress
    serve`) says so instead."""
    _FROM_FONTS.append(cache.cache_clear)
    return cache


def reread_fonts() -> None:
    """Forget everything read from font files, so each is read anew when next asked for: for a
    long-lived process once a font it has read is saved again (the deck's own, or a bundled one)."""
    for clear in _FROM_FONTS:
        clear()


# --- references: a file, a member of a collection, an instance of a variable font -------------

class Source(NamedTuple):
    """What a font reference names: a file, the member of a collection (0 for a single font), and
    the axis values of a variable font's instance (tag, value), by tag (none: its defaults)."""

    path: str
    index: int = 0
    axes: tuple[tuple[str, float], ...] = ()


_REFERENCE = re.compile(r"#(\d+)(?:@((?:[A-Za-z0-9 ]{4}=-?[0-9.]+,?)+))?\Z")


def font_ref(path: str, index: int = 0, axes: Mapping[str, float] | None = None) -> str:
    """The reference of a font: its path alone for a file's first (or only) font at its defaults,
    else `path#index@tag=value,…`."""
    if not index and not axes:
        return path
    # fixed-point numbers (never an exponent), which `font_source` reads back
    shown = ",".join(f"{tag}={value:.6f}".rstrip("0").rstrip(".") for tag, value in sorted((axes or {}).items()))
    return f"{path}#{index}" + (f"@{shown}" if shown else "")


@functools.lru_cache(maxsize=None)
def font_source(ref: str) -> Source:
    """The file, member and axis values a reference names (see `font_ref`)."""
    found = _REFERENCE.search(ref)
    if found is None:
        return Source(ref)
    axes = tuple((part[:4], float(part[5:])) for part in (found[2] or "").split(",") if part)
    return Source(ref[:found.start()], int(found[1]), axes)


@from_fonts
@functools.lru_cache(maxsize=16)
def font_bytes(path: str) -> bytes:
    """A font file's bytes as an OpenType font (or collection): WOFF and WOFF2 decompressed (by
    fontTools; WOFF2 needs the brotli package), other files as they are."""
    name = Path(path).name
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise FontError(f"cannot read font {name}: {exc.strerror or exc}") from None
    if data[:4] not in (b"wOFF", b"wOF2"):
        return data
    from fontTools.ttLib import TTFont

    out = io.BytesIO()
    try:
        with quiet_fonttools():
            font = TTFont(io.BytesIO(data), recalcBBoxes=False, recalcTimestamp=False)
            font.flavor = None
            font.save(out, reorderTables=False)
    except ImportError:  # fontTools reads WOFF2 with brotli, a dependency of deckpress
        raise FontError(f"cannot read font {name}: WOFF2 needs the brotli package (pip install brotli)") from None
    except Exception as exc:  # noqa: BLE001 - a damaged file raises whatever its decoder (zlib, brotli) raises
        raise FontError(f"cannot read font {name}: a damaged WOFF file ({exc})") from None
    return out.getvalue()


_NEEDED = {"head": 54, "hhea": 36, "hmtx": 4, "maxp": 6, "cmap": 4}  # tables a font must have, and their least sizes


@from_fonts
@functools.lru_cache(maxsize=64)
def hb_face(ref: str) -> hb.Face:
    """HarfBuzz's face for a reference (the collection's member it names), checked: a FontError
    names the file and what is wrong with it."""
    path, index, _axes = font_source(ref)
    name = Path(path).name
    blob = hb.Blob(font_bytes(path))
    face = hb.Face(blob, index)
    members = face.count
    if members == 0:
        raise FontError(f"cannot read font {name}: not a TrueType, OpenType or WOFF font")
    if index >= members == 1:
        raise FontError(f"{name} is a single font, not a collection: index {index} is not 0")
    if index >= members:
        raise FontError(f"{name} has {members} fonts: index {index} is not one of 0 to {members - 1}")
    tags = set(face.table_tags)
    sizes = {tag: len(face.reference_table(tag).data) for tag in _NEEDED}  # 0: missing, or past the file's end
    if any(sizes[tag] < size for tag, size in _NEEDED.items()) or face.glyph_count == 0:
        raise FontError(f"cannot read font {name}: its tables are missing or damaged")
    if not tags & {"glyf", "CFF ", "CFF2"}:
        raise FontError(f"{name} has no outlines to draw with (neither TrueType nor CFF)")
    return face


@from_fonts
@functools.lru_cache(maxsize=64)
def hb_font(ref: str) -> hb.Font:
    """HarfBuzz's font for a reference, at its axis values: what shapes, measures and is embedded."""
    font = hb.Font(hb_face(ref))
    axes = font_source(ref).axes
    if axes:
        font.set_variations(dict(axes))
    return font


def axes_of(ref: str) -> dict[str, tuple[float, float, float]]:
    """A variable font's axes: (minimum, default, maximum) by tag (none for a static font)."""
    return {axis.tag: (axis.min_value, axis.default_value, axis.max_value) for axis in hb_face(ref).axis_infos}


def instances_of(ref: str) -> dict[str, dict[str, float]]:
    """A variable font's named instances: the axis values of each, by its style name ("SemiBold")."""
    face = hb_face(ref)
    tags = [axis.tag for axis in face.axis_infos]
    found = {}
    for instance in face.named_instances:
        name = face.get_name(instance.subfamily_name_id)
        if name and name not in found:
            found[name] = dict(zip(tags, instance.design_coords))
    return found


@from_fonts
@functools.lru_cache(maxsize=16)
def static_font(ref: str) -> bytes:
    """The font a reference names as one plain OpenType font: the file's bytes for a single font
    at its defaults, else a collection's member alone, a variable font at its axis values (every
    glyph, character and table kept; HarfBuzz's instancer), for readers that take a file (fontTools,
    a browser's @font-face)."""
    path, index, axes = font_source(ref)
    face = hb_face(ref)
    if not index and not axes and face.count == 1:
        return font_bytes(path)
    wanted = hb.SubsetInput()
    wanted.keep_everything()
    wanted.flags |= hb.SubsetFlags.RETAIN_GIDS
    if face.axis_infos:
        wanted.pin_all_axes_to_default(face)
        for tag, value in axes:
            wanted.pin_axis_location(face, tag, value)
    instance = hb.subset(face, wanted)
    if instance is None:
        raise FontError(f"cannot read font {Path(path).name}: HarfBuzz could not make its instance")
    return instance.blob.data


#: what a PDF reader has no use for in an embedded program: layout (shaping is done), names,
#: variations (pinned), colour and bitmaps
_DROPPED = ("GSUB", "GPOS", "GDEF", "BASE", "JSTF", "MATH", "kern", "morx", "kerx", "DSIG", "STAT", "MVAR",
            "HVAR", "VVAR", "avar", "fvar", "gvar", "cvar", "name", "cmap", "post", "COLR", "CPAL", "SVG ",
            "CBDT", "CBLC", "sbix", "EBDT", "EBLC", "LTSH", "VDMX", "hdmx", "vhea", "vmtx", "VORG", "meta", "gasp")
_DROPPED_TAGS = [int.from_bytes(tag.encode("ascii"), "big") for tag in _DROPPED]


def program_subset(ref: str, gids: Iterable[int]) -> hb.Face:
    """The font a reference names cut down to the glyphs `gids` by HarfBuzz's subsetter, as PDF
    embeds it: each glyph at its own index (the rest empty), the parts of composite glyphs kept,
    a variable font pinned at the reference's axis values (its other axes at their defaults).
    FontError if HarfBuzz cannot (a damaged table it shapes past but cannot write)."""
    face = hb_face(ref)
    wanted = hb.SubsetInput()
    wanted.glyph_set.update(g for g in gids if 0 <= g < face.glyph_count)
    wanted.unicode_set.clear()
    wanted.drop_table_tag_set.update(_DROPPED_TAGS)
    # a CID-keyed CFF's charset made the identity, so its CIDs are its glyph indexes as a name-keyed
    # one's are (HarfBuzz 14.3); a CFF2 variable font's instance written as CFF (13.0)
    wanted.flags = hb.SubsetFlags.RETAIN_GIDS | hb.SubsetFlags.CFF_IDENTITY_CHARSET | hb.SubsetFlags.DOWNGRADE_CFF2
    if face.axis_infos:
        wanted.pin_all_axes_to_default(face)
        for tag, value in font_source(ref).axes:
            wanted.pin_axis_location(face, tag, value)
    try:
        subset = hb.subset(face, wanted)
    except RuntimeError:  # uharfbuzz's word for HarfBuzz's failure
        subset = None
    if subset is None:
        raise FontError(f"{Path(font_source(ref).path).name} is damaged: it cannot be embedded in a PDF "
                        "(HarfBuzz could not subset it)")
    return subset


@from_fonts
@functools.lru_cache(maxsize=64)
def check_embeddable(ref: str) -> None:
    """FontError if a deck's font could not be embedded, found when the deck is read rather than
    in the middle of a build: a character map out of order (which HarfBuzz reads, but whose
    subsetting takes seconds a PDF: 32,767 overlapping segments took 4.5 s), or a font HarfBuzz
    cannot subset (every glyph subset once)."""
    problem = _cmap_problem(table(ref, "cmap"), hb_face(ref).glyph_count)
    if problem:
        raise FontError(f"{Path(font_source(ref).path).name} has a damaged character map: {problem}")
    program_subset(ref, range(hb_face(ref).glyph_count))


def _cmap_problem(cmap: bytes, glyphs: int) -> str | None:
    """What is wrong with a font's character map, as the OpenType specification has them: a
    format 4's segments in increasing order, not overlapping; a format 12's or 13's groups too,
    within Unicode and the font's glyphs. None if nothing (or a subtable of another format)."""
    if len(cmap) < 4:
        return None
    count = struct.unpack_from(">H", cmap, 2)[0]
    for i in range(min(count, (len(cmap) - 4) // 8)):
        offset = struct.unpack_from(">I", cmap, 4 + 8 * i + 4)[0]
        if offset + 4 > len(cmap):
            return "a subtable past its end"
        kind = struct.unpack_from(">H", cmap, offset)[0]
        if kind == 4 and offset + 14 <= len(cmap):
            segments = struct.unpack_from(">H", cmap, offset + 6)[0] // 2
            if offset + 16 + 4 * segments > len(cmap):
                return "format 4 past its end"
            ends = struct.unpack_from(f">{segments}H", cmap, offset + 14)
            starts = struct.unpack_from(f">{segments}H", cmap, offset + 16 + 2 * segments)
            if any(b <= a for a, b in zip(ends, ends[1:])) or any(s > e for s, e in zip(starts, ends)) or \
                    any(s <= e for s, e in zip(starts[1:], ends)):
                return "format 4 segments out of order or overlapping"
        elif kind in (12, 13) and offset + 16 <= len(cmap):
            groups = struct.unpack_from(">I", cmap, offset + 12)[0]
            if offset + 16 + 12 * groups > len(cmap):
                return f"format {kind} past its end"
            last = -1
            for g in range(groups):
                start, end, glyph = struct.unpack_from(">III", cmap, offset + 16 + 12 * g)
                if start <= last or end < start or end > 0x10FFFF or \
                        (kind == 12 and glyph + end - start >= glyphs) or (kind == 13 and glyph >= glyphs):
                    return f"format {kind} groups out of order, past Unicode or past the font's glyphs"
                last = end
    return None


def table(ref: str, tag: str) -> bytes:
    """One table of the font a reference names, as its file holds it (b"" if it has none)."""
    return hb_face(ref).reference_table(tag).data


@dataclass(frozen=True)
class FontFile:
    """One font (a reference: a file, a collection's member, a variable font's instance) and the
    metrics compose needs, in em units (1 em = font size), as HarfBuzz reads them."""

    path: str  # the font's reference (`font_ref`): a file's path, with a member and axis values if any
    units_per_em: int
    ascent: float
    descent: float
    cap_height: float
    _cmap: Mapping[int, int] = field(repr=False, compare=False)  # character -> glyph index
    _font: hb.Font = field(repr=False, compare=False)
    glyph_count: int = field(default=0, repr=False, compare=False)
    _advances: dict[int, int] = field(default_factory=dict, repr=False, compare=False)  # by glyph, font units

    def has(self, char: str) -> bool:
        return ord(char) in self._cmap

    def advance(self, char: str) -> float:
        """Advance width of one character in em (0 when the font lacks it)."""
        glyph = self._cmap.get(ord(char))
        return self._units(glyph) / self.units_per_em if glyph else 0.0

    def glyph_advance(self, gid: int) -> float:
        """Advance width of a glyph, by its index, in em (0 for an index the font has not)."""
        return self._units(gid) / self.units_per_em if 0 <= gid < self.glyph_count else 0.0

    def _units(self, gid: int) -> int:
        found = self._advances.get(gid)
        if found is None:
            found = self._advances[gid] = self._font.get_glyph_h_advance(gid)
        return found

    def width(self, text: str) -> float:
        """Width of `text` in em, its characters' advances summed (no kerning: `shaping` kerns);
        multiply by the size to get a length."""
        return sum(self.advance(c) for c in text)

    @functools.lru_cache(maxsize=None)
    def bounds(self, char: str) -> tuple[float, float, float, float]:
        """Ink box of a character in em, y up from the baseline: (xmin, ymin, xmax, ymax), at the
        font's axis values (zeros for a glyph without outlines)."""
        glyph = self._cmap.get(ord(char))
        extents = self._font.get_glyph_extents(glyph) if glyph else None
        if extents is None or (extents.width == 0 and extents.height == 0):
            return (0.0, 0.0, 0.0, 0.0)
        u = self.units_per_em
        return (extents.x_bearing / u, (extents.y_bearing + extents.height) / u,
                (extents.x_bearing + extents.width) / u, extents.y_bearing / u)


@from_fonts
@functools.lru_cache(maxsize=None)
def open_font(ref: str) -> FontFile:
    """Read a font (a reference: see `font_ref`) once per process. A FontError says what is wrong:
    no such file, not a font, no such member, an axis the font has not or a value outside it."""
    face = hb_face(ref)
    _check_axes(ref)
    font = hb_font(ref)
    upm = face.upem
    ascender, descender, cap_height = _vertical_metrics(table(ref, "OS/2"), table(ref, "hhea"))
    nominal = font.get_nominal_glyph
    cmap = {char: glyph for char in face.unicodes if (glyph := nominal(char))}
    for space, other in ((0x20, 0xA0), (0xA0, 0x20)):  # one space stands for the other, the first for both
        if space in cmap:
            cmap[other] = cmap[space]
            break
    return FontFile(path=ref, units_per_em=upm, ascent=ascender / upm, descent=-descender / upm,
                    cap_height=(cap_height or 0.7 * upm) / upm, _cmap=cmap, _font=font,
                    glyph_count=face.glyph_count)


def _check_axes(ref: str) -> None:
    path, _index, axes = font_source(ref)
    if not axes:
        return
    name, known = Path(path).name, axes_of(ref)
    for tag, value in axes:
        if tag not in known:
            has = f"its axes are {', '.join(sorted(known))}" if known else "it is not a variable font"
            raise FontError(f"{name} has no axis '{tag}': {has}")
        low, _default, high = known[tag]
        if not low <= value <= high:
            raise FontError(f"{name}: {tag} {value:g} is outside the axis, {low:g} to {high:g}")


def _vertical_metrics(os2: bytes, hhea: bytes) -> tuple[int, int, int]:
    """The OS/2 table's typographic ascender and descender and cap height (0 before version 2),
    in font units; a font without an OS/2 table gives hhea's ascender and descender."""
    if len(os2) >= 72:
        version, = struct.unpack_from(">H", os2)
        ascender, descender = struct.unpack_from(">hh", os2, 68)
        cap_height = struct.unpack_from(">h", os2, 88)[0] if version >= 2 and len(os2) >= 90 else 0
        return ascender, descender, cap_height
    ascender, descender = struct.unpack_from(">hh", hhea, 4) if len(hhea) >= 8 else (800, -200)
    return ascender, descender, 0

@dataclass(frozen=True)
class Family:
    """A font family: the file for each style it has. A value: equal families hash alike, so
    text measured in one can be cached (the text engine)."""

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
