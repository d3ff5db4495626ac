"""TrueType fonts in PDF: one byte a character, in subsets of 256, embedded.

A PDF simple font codes each character in one byte, so a TrueType font is split into subsets of
up to 256 characters, each embedded as a font program holding just those glyphs (reportlab's
subsetter makes them). The codes are the *build's*, not a document's: every document of a build
codes a character alike, so a card face is the same content-stream bytes in every file that
places it and is drawn once (`FontCodes`). They are given in code point order from all the text
the build will show (`Fonts.learn`), so they depend on that text alone, not on which file came
first; text met later (in SVG art) gets the next free codes.

Subset 0 keeps ASCII at its own codes, so content streams stay readable; code 0 of every subset
is the missing glyph, and code 32 the space.
"""

from __future__ import annotations

import functools
import itertools
import re
import struct
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from operator import itemgetter
from typing import NamedTuple

from reportlab.lib.rl_accel import escapePDF, fp_str

from ..face import Glyph, GlyphRun
from ..fonts import FontSet, from_fonts, open_font
from .pdffile import Name, PdfFile, Ref, Slot, Template, digest, stream_body

SUBSET_SIZE = 256
SPACES = " \xa0"  #: drawn as the space, code 32 of whichever subset the text is in
_FF_SYMBOLIC = 1 << 2  # a font descriptor's flags: characters outside the standard Latin set
_FF_NONSYMBOLIC = 1 << 5


class FontCodes:
    """The codes one TrueType font (a file) gives its characters in a build: for each character
    its subset and its byte; the subsets as lists of code points, the index being the code."""

    def __init__(self, path: str, name: str) -> None:
        self.path = path
        self.name = name  #: the PDF resource name before the subset number: `T3` gives `/T3+0`, `/T3+1`, …
        self.face = open_font(path).face  # reportlab's reading of the file: glyphs, widths, subsets
        self.subsets: list[list[int]] = [[0] * 32 + list(range(32, 127)) + [0]]
        self._free = iter([*range(1, 32), *range(128, SUBSET_SIZE)])  # subset 0's codes not ASCII's
        self.codes: dict[str, tuple[int, int]] = {chr(c): (0, c) for c in range(32, 127)
                                                  if c in self.face.charToGlyph}
        # subset 0's characters as a str.translate table: most text is all in subset 0
        self._first: dict[int, int] = {ord(char): code for char, (_, code) in self.codes.items()}
        self._first.update({ord(space): 32 for space in SPACES})
        self._runs: dict[str, tuple[tuple[int, str], ...]] = {}
        self._selects: dict[tuple[int, float, float], tuple[str, str]] = {}

    def learn(self, characters: Iterable[str]) -> None:
        """Give codes to the characters that have none yet, in code point order. A character the
        font lacks keeps none: it is drawn as the missing glyph."""
        glyphs = self.face.charToGlyph
        for char in sorted(set(characters).difference(self.codes)):
            if ord(char) in glyphs and char not in SPACES:
                self.codes[char] = self._take(ord(char))

    def _take(self, code_point: int) -> tuple[int, int]:
        code = next(self._free, None)
        if code is None:  # the subset is full: a new one, its code 32 the space as in every subset
            self.subsets.append([0] * 32 + [32])
            self._free = iter([*range(1, 32), *range(33, SUBSET_SIZE)])
            code = next(self._free)
        codes = self.subsets[-1]
        if code < len(codes):
            codes[code] = code_point
        else:  # the free codes above the list's end come in order, so this is its next
            codes.append(code_point)
        if len(self.subsets) == 1:
            self._first[code_point] = code
        return len(self.subsets) - 1, code

    def runs(self, text: str) -> tuple[tuple[int, str], ...]:
        """`text` as (subset, escaped string) runs, each run in one subset: what `Tj` shows."""
        known = self._runs.get(text)
        if known is not None:
            return known
        if self._first.keys() >= set(map(ord, text)):
            found: tuple[tuple[int, str], ...] = ((0, escapePDF(text.translate(self._first))),)
        else:
            found = self._split(text)
        if len(self._runs) > 100_000:  # a long-lived process (the preview server) meets endless text
            self._runs.clear()
        self._runs[text] = found
        return found

    def _split(self, text: str) -> tuple[tuple[int, str], ...]:
        codes = self.codes
        if not codes.keys() >= set(text):
            self.learn(text)
        runs: list[tuple[int, list[int]]] = []
        for char in text:
            here = runs[-1][0] if runs else 0
            subset, code = (here, 32) if char in SPACES else codes.get(char, (here, 0))
            if runs and runs[-1][0] == subset:
                runs[-1][1].append(code)
            else:
                runs.append((subset, [code]))
        return tuple((subset, escapePDF(bytes(chunk).decode("latin-1"))) for subset, chunk in runs)

    def resource(self, subset: int) -> str:
        """The resource name of a subset, as content streams select it."""
        return f"{self.name}+{subset}"

    def select(self, subset: int, size: float, leading: float) -> tuple[str, str]:
        """A subset's resource name, and the operators that select it at `size` with `leading`."""
        key = (subset, size, leading)
        found = self._selects.get(key)
        if found is None:
            name = self.resource(subset)
            found = self._selects[key] = (name, f"/{name} {fp_str(size)} Tf {fp_str(leading)} TL")
        return found


class Fonts:
    """The fonts of a build and their codes, by file; named `T1`, `T2`, … in the order they are
    learned (by name and content) or met."""

    def __init__(self) -> None:
        self.by_path: dict[str, FontCodes] = {}
        self.glyph_fonts: dict[str, GlyphFont] = {}
        self._references: dict[str, FontCodes] = {}

    def of(self, font: str) -> FontCodes:
        """The codes of the font a reference names: a file, or a name SVG art gives (`font_file`)."""
        found = self._references.get(font)
        if found is None:
            found = self._references[font] = self[font_file(font)]
        return found

    def __getitem__(self, path: str) -> FontCodes:
        codes = self.by_path.get(path)
        if codes is None:
            codes = self.by_path[path] = FontCodes(path, f"T{len(self.by_path) + 1}")
        return codes

    def learn(self, characters: Mapping[str, Iterable[str]],
              glyphs: Mapping[str, Iterable[tuple[int, str]]] | None = None) -> None:
        """Code the characters each font (by file) will show, and learn the glyphs shaped text
        will (with what they stand for), before any document is written; the fonts met first are
        numbered in the order of what they are (their names and contents), never of where their
        files lie."""
        for path in _by_identity(characters):
            self[path].learn(characters[path])
        for path in _by_identity(glyphs or {}):
            self.glyph_font(path).learn(glyphs[path])  # type: ignore[index]

    def glyph_font(self, path: str) -> GlyphFont:
        """The composite font shaped text in the font at `path` is drawn with."""
        found = self.glyph_fonts.get(path)
        if found is None:
            found = self.glyph_fonts[path] = GlyphFont(path, f"G{len(self.glyph_fonts) + 1}")
        return found


def _by_identity(paths: Iterable[str]) -> list[str]:
    """Font files in the order of what they are wherever they lie: by the name inside, and fonts
    that share a name by a digest of their bytes (read only then: it is a font file's every byte)."""
    names = {path: open_font(path).face.name for path in paths}
    shared = {name for name, count in Counter(names.values()).items() if count > 1}
    return sorted(names, key=lambda path: (names[path], _content(path) if names[path] in shared else b""))


@from_fonts
@functools.lru_cache(maxsize=None)
def _content(path: str) -> bytes:
    return digest(open_font(path).face._ttf_data, 16)


def read_ahead(path: str) -> None:
    """Read once what embedding the font file at `path` takes, in any document of the process: the
    tables a subset copies. (The build does so before its workers fork, so that each has them:
    every bundled deck embeds most of the bundled fonts.)"""
    _tables(open_font(path).face._ttf_data)


def font_file(font: str) -> str:
    """The TrueType file a font reference names: a file already, or (in SVG art) a font name that
    reportlab knows: a TrueType font registered with it, or one of PDF's standard fonts, which a
    printed file may not leave unembedded and which are set in the bundled sans serif instead."""
    if font.lower().endswith((".ttf", ".otf")):
        return font
    return _named_font(font)


def _named_font(name: str) -> str:
    from reportlab.pdfbase import pdfmetrics

    try:
        face = getattr(pdfmetrics.getFont(name), "face", None)
    except KeyError:
        face = None
    filename = getattr(face, "filename", None)
    if isinstance(filename, str) and filename.lower().endswith(".ttf"):
        return filename
    lowered = name.lower()
    style = ("bold-italic" if "bold" in lowered and ("italic" in lowered or "oblique" in lowered) else
             "bold" if "bold" in lowered else "italic" if "italic" in lowered or "oblique" in lowered else "regular")
    return FontSet().families["sans"].file(style.replace("-", "")).path


def write_subset(pdf: PdfFile, font: FontCodes, subset: int, ref: Ref) -> None:
    """Embed one subset of `font` as it stands (every code the document used is in it) as the
    simple TrueType font `ref`: its widths, descriptor, font program and ToUnicode map."""
    embedded = _embedded(font.face, tuple(font.subsets[subset]))
    program = pdf.write_formatted(embedded.program)
    descriptor = pdf.write_formatted(embedded.descriptor.fill(program))
    to_unicode = pdf.write_formatted(embedded.to_unicode)
    pdf.write_formatted(embedded.font.fill(descriptor, to_unicode), ref)


class _Embedded(NamedTuple):
    """A subset's objects as every document writes them, but for the numbers they refer by."""

    program: bytes
    descriptor: Template  # refers to the program
    to_unicode: bytes
    font: Template  # refers to the descriptor and the ToUnicode map


@functools.lru_cache(maxsize=64)  # each holds a font program of tens of KB; a build has a few dozen
def _embedded(face, codes: tuple[int, ...]) -> _Embedded:
    program = face.makeSubset(list(codes))
    base = f"{_tag(program)}+{face.name.decode('latin-1')}"
    descriptor = _descriptor(face, base, (face.flags & ~_FF_NONSYMBOLIC) | _FF_SYMBOLIC,
                             MissingWidth=face.defaultWidth)
    font = Template({"Type": Name("Font"), "Subtype": Name("TrueType"), "BaseFont": Name(base),
                     "FirstChar": 0, "LastChar": len(codes) - 1,
                     "Widths": [face.getCharWidth(c) for c in codes], "FontDescriptor": Slot(), "ToUnicode": Slot()})
    return _Embedded(stream_body({"Length1": len(program)}, program), descriptor,
                     stream_body({}, _to_unicode(base, codes).encode("ascii")), font)


def _descriptor(face, base: str, flags: int, **more: object) -> Template:
    """A font descriptor as both kinds of embedded font have it, its program to be filled in."""
    return Template({"Type": Name("FontDescriptor"), "Ascent": face.ascent, "CapHeight": face.capHeight,
                     "Descent": face.descent, "Flags": flags, "FontBBox": face.bbox, "FontName": Name(base),
                     "ItalicAngle": face.italicAngle, "StemV": face.stemV, "FontFile2": Slot(), **more})


def _tag(program: bytes) -> str:
    """Six capital letters naming a subset (PDF's subset prefix), from what it holds (never from
    where the font lies: the same deck prints the same bytes wherever it is built)."""
    return "".join(chr(65 + b % 26) for b in digest(program, 6))


@functools.lru_cache(maxsize=256)
def _to_unicode(name: str, codes: tuple[int, ...]) -> str:
    """The ToUnicode CMap of a subset, characters above U+FFFF as UTF-16BE surrogate pairs (which
    text extractors need: `<01> <1D15F>` reads as U+1D15)."""
    def utf16(code_point: int) -> str:
        return chr(code_point).encode("utf-16-be", "surrogatepass").hex().upper()

    lines = [
        "/CIDInit /ProcSet findresource begin", "12 dict begin", "begincmap", "/CIDSystemInfo",
        f"<< /Registry ({name})", f"/Ordering ({name})", "/Supplement 0", ">> def",
        f"/CMapName /{name} def", "/CMapType 2 def", "1 begincodespacerange",
        f"<00> <{len(codes) - 1:02X}>", "endcodespacerange", f"{len(codes)} beginbfchar",
    ]
    lines += [f"<{i:02X}> <{utf16(cp)}>" for i, cp in enumerate(codes)]
    lines += ["endbfchar", "endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end"]
    return "\n".join(lines)


# --- shaped text: glyph indexes as codes ----------------------------------------------------------

class GlyphFont:
    """A TrueType font as PDF's composite (Type0) font with the Identity-H encoding: each code is
    two bytes, a glyph index. Shaped text is drawn this way, since a ligature or an Arabic letter's
    joined form is a glyph no character names. What each glyph stands for (`learn`, the build's
    text before any document is written) goes into the ToUnicode map, so the text copies out; a
    glyph met with two readings keeps the first, in the order learned (sorted: the same every
    build). The embedded program holds the glyphs the build uses, at their own indexes."""

    def __init__(self, path: str, name: str) -> None:
        self.path, self.name = path, name  #: the PDF resource name, `G1`, `G2`, …
        self.font = open_font(path)
        self.used: set[int] = {0}  # the glyphs embedded: every one drawn
        self._widths: dict[int, float] = {}
        self._shown: dict[int, tuple[tuple[GlyphRun, ...], float, str]] = {}  # by the runs' id: runs, size, operators
        self._fragments: dict[int, tuple[tuple[Glyph, ...], tuple[str, float, float] | None]] = {}  # by the glyphs' id
        self._selected: dict[float, str] = {}  # `Tf` at each size
        self.readings: dict[int, str] = {}  # glyph index -> the characters it stands for
        self._embedded: tuple[tuple[int, int], _Composite] | None = None  # (counts, the subset) last written

    def learn(self, glyphs: Iterable[tuple[int, str]]) -> None:
        for gid, chars in sorted(set(glyphs)):
            self.used.add(gid)
            if chars and gid not in self.readings:
                self.readings[gid] = chars

    def select(self, size: float) -> str:
        found = self._selected.get(size)
        if found is None:
            found = self._selected[size] = f"/{self.name} {fp_str(size)} Tf"
        return found

    def shown(self, runs: tuple[GlyphRun, ...], size: float) -> str:
        """The operators that show the glyphs of `runs` (each run where it starts, in em, and its
        glyphs: index, place in em from there, right and up) at `size`. One `TJ`, a string of codes
        a run, where a number between two glyphs moves the pen from where the first glyph's width
        leaves it to where the next goes (kerning, a mark's offset); a glyph off the baseline is
        shown with a text rise (`Ts`). The same line recurs on many faces, and the same word in many
        lines (as one tuple, from compose's caches): each line and each run is made once, found by
        its id (the cache holds it, so no other object can take the id)."""
        found = self._shown.get(id(runs))
        if found is not None and found[0] is runs and found[1] == size:
            return found[2]
        shown_runs = [(start, glyphs) for start, glyphs in runs if glyphs]
        fragments = [self._fragment(glyphs) for _, glyphs in shown_runs]
        if None in fragments:  # a glyph off the baseline: the line glyph by glyph
            ops = self._risen([(gid, start + x, y, c) for start, glyphs in shown_runs for gid, x, y, c in glyphs], size)
        else:
            shown: list[str] = []  # TJ's elements: strings of codes, and moves between them
            pen = 0.0  # em: where the last glyph's width leaves the pen
            for (start, _), (codes, first, end) in zip(shown_runs, fragments):  # type: ignore[misc]
                move = (pen - start - first) * 1000  # TJ numbers are thousandths of an em, taken off x
                if move > 0.0005 or move < -0.0005:
                    shown += (fp_str(round(move, 3)), codes)
                elif shown and shown[-1][-1] == ")":  # straight on from the last string: one string
                    shown[-1] = shown[-1][:-1] + codes[1:]
                else:
                    shown.append(codes)
                pen = start + end
            ops = f"[{''.join(shown)}] TJ" if shown else ""
        self._shown[id(runs)] = (runs, size, ops)
        return ops

    def _fragment(self, glyphs: tuple[Glyph, ...]) -> tuple[str, float, float] | None:
        """A run's part of a TJ, if all its glyphs sit on the baseline (else None): its strings
        and moves from its first glyph on, where that glyph is and where the last one's width
        leaves the pen (em from the run's start). Made once a run."""
        found = self._fragments.get(id(glyphs))
        if found is not None and found[0] is glyphs:
            return found[1]
        if not self.used.issuperset(map(_GID, glyphs)):
            # not learned with the build's text (a picture of a face): embedded all the same
            self.learn(map(_READING, glyphs))
        fragment = None
        if not any(map(_Y, glyphs)):
            shown, end = self._tj(glyphs, glyphs[0][1])
            fragment = ("".join(shown), glyphs[0][1], end)
        self._fragments[id(glyphs)] = (glyphs, fragment)
        return fragment

    def _risen(self, glyphs: list[Glyph], size: float) -> str:
        """The operators for glyphs (placed in em from the text's start) some of which are off the
        baseline: a TJ for each stretch at one height, a text rise (`Ts`) before it."""
        ops: list[str] = []
        pen = 0.0
        for rise, stretch in itertools.groupby(glyphs, itemgetter(2)):
            shown, pen = self._tj(stretch, pen)
            ops += (f"{fp_str(rise * size)} Ts", f"[{''.join(shown)}] TJ")
        if ops[0] == "0 Ts":
            del ops[0]
        if rise:
            ops.append("0 Ts")
        return " ".join(ops)

    def _tj(self, glyphs: Iterable[Glyph], pen: float) -> tuple[list[str], float]:
        """TJ's elements for glyphs at one height, the pen at `pen` (em): strings of codes, and
        the moves between, each from where a glyph's width leaves the pen to where the next glyph
        goes (thousandths of an em, taken off x); and where the last glyph's width leaves it."""
        widths = self._widths
        shown: list[str] = []
        codes: list[int] = []  # the glyphs since the last move, shown as one string
        for gid, gx, _, _ in glyphs:
            move = (pen - gx) * 1000
            if move > 0.0005 or move < -0.0005:
                if codes:
                    shown.append(_codes(codes))
                    codes = []
                shown.append(fp_str(round(move, 3)))
            codes.append(gid)
            width = widths.get(gid)
            if width is None:
                width = widths[gid] = self.width(gid)
            pen = gx + width / 1000
        if codes:
            shown.append(_codes(codes))
        return shown, pen

    def width(self, gid: int) -> float:
        """A glyph's advance in thousandths of an em, as the W array gives it (what Tj moves by)."""
        return _thousandths(self.font.glyph_advance(gid))

    def write(self, pdf: PdfFile, ref: Ref) -> None:
        # the glyphs and readings only grow: while their counts stay, so does the subset (a deck's
        # documents write the same one, and sorting them for the cache's key each time cost more)
        counts = (len(self.used), len(self.readings))
        if self._embedded is None or self._embedded[0] != counts:
            self._embedded = counts, _composite(self.font.face, self.path, tuple(sorted(self.used)),
                                                tuple(sorted(self.readings.items())))
        embedded = self._embedded[1]
        program = pdf.write_formatted(embedded.program)
        descriptor = pdf.write_formatted(embedded.descriptor.fill(program))
        cid_font = pdf.write_formatted(embedded.cid_font.fill(descriptor))
        to_unicode = pdf.write_formatted(embedded.to_unicode)
        pdf.write_formatted(embedded.font.fill(cid_font, to_unicode), ref)


class _Composite(NamedTuple):
    program: bytes
    descriptor: Template  # refers to the program
    cid_font: Template  # refers to the descriptor
    to_unicode: bytes
    font: Template  # refers to the CID font and the ToUnicode map


@functools.lru_cache(maxsize=64)
def _composite(face, path: str, gids: tuple[int, ...], readings: tuple[tuple[int, str], ...]) -> _Composite:
    program = glyph_subset(face._ttf_data, gids)  # the file's bytes, as reportlab read them
    base = f"{_tag(program)}+{face.name.decode('latin-1')}"
    descriptor = _descriptor(face, base, _FF_SYMBOLIC)
    metrics = open_font(path)
    widths: list[object] = []
    for gid in gids:  # `gid [w]` for each glyph: short, and as the glyphs are few, quick to read
        widths += [gid, [_thousandths(metrics.glyph_advance(gid))]]
    cid_font = Template({"Type": Name("Font"), "Subtype": Name("CIDFontType2"), "BaseFont": Name(base),
                         "CIDSystemInfo": {"Registry": "Adobe", "Ordering": "Identity", "Supplement": 0},
                         "FontDescriptor": Slot(), "DW": 0, "W": widths, "CIDToGIDMap": Name("Identity")})
    font = Template({"Type": Name("Font"), "Subtype": Name("Type0"), "BaseFont": Name(base),
                     "Encoding": Name("Identity-H"), "DescendantFonts": [Slot()], "ToUnicode": Slot()})
    return _Composite(stream_body({"Length1": len(program)}, program), descriptor, cid_font,
                      stream_body({}, _glyph_to_unicode(base, readings).encode("ascii")), font)


_GID, _Y, _READING = itemgetter(0), itemgetter(2), itemgetter(0, 3)  # a glyph's index; its rise; index and characters


#: what a literal string cannot hold as it is. (Found by a pattern: `b"(" in codes` would first try
#: the bytes as an integer, and raise and drop an error each time, which costs more than the search.)
_UNSAFE_IN_STRING = re.compile(rb"[\\()\r]")


def _codes(gids: list[int]) -> str:
    """Glyph indexes as Identity-H shows them: a literal string of two-byte codes, the raw bytes
    (a third the length of the same codes in hex, and what the content stream is deflated from)
    but for those a literal string cannot hold as they are: a backslash, parentheses (which
    would have to balance), and a carriage return (which a reader takes for a line end)."""
    codes = struct.pack(f">{len(gids)}H", *gids)
    if _UNSAFE_IN_STRING.search(codes) is not None:
        codes = codes.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)").replace(b"\r", b"\\r")
    return f"({codes.decode('latin-1')})"


def _thousandths(em: float) -> float:
    """An advance in thousandths of an em, to three decimals: as the W array and TJ both say it."""
    return round(em * 1000, 3)


def _glyph_to_unicode(name: str, readings: tuple[tuple[int, str], ...]) -> str:
    """A composite font's ToUnicode CMap: each glyph index to the characters it stands for."""
    def utf16(text: str) -> str:
        return text.encode("utf-16-be", "surrogatepass").hex().upper()

    lines = ["/CIDInit /ProcSet findresource begin", "12 dict begin", "begincmap", "/CIDSystemInfo",
             "<< /Registry (Adobe)", "/Ordering (UCS)", "/Supplement 0", ">> def",
             f"/CMapName /{name}-UCS def", "/CMapType 2 def", "1 begincodespacerange", "<0000> <FFFF>",
             "endcodespacerange"]
    for start in range(0, len(readings), 100):  # at most 100 entries a block, as the CMap format says
        block = readings[start:start + 100]
        lines.append(f"{len(block)} beginbfchar")
        lines += [f"<{gid:04X}> <{utf16(chars)}>" for gid, chars in block]
        lines.append("endbfchar")
    lines += ["endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end"]
    return "\n".join(lines)


#: the tables a PDF's embedded TrueType program needs (ISO 32000-1, 9.9), those for hinting included
_KEPT_TABLES = (b"cvt ", b"fpgm", b"glyf", b"head", b"hhea", b"hmtx", b"loca", b"maxp", b"prep")
_KEPT_AS_THEY_ARE = (b"cvt ", b"fpgm", b"prep")  # the hinting program and its values
_ARGS_ARE_WORDS, _HAS_SCALE, _MORE, _XY_SCALE, _TWO_BY_TWO = 0x0001, 0x0008, 0x0020, 0x0040, 0x0080


class _Tables(NamedTuple):
    """What glyph_subset reads of a font, read once a font."""

    tables: dict[bytes, bytes]  # by tag
    offsets: Sequence[int]  # where each glyph's outline starts in `glyf`, and the last one ends
    metrics: int  # hhea's numberOfHMetrics: the glyphs with an advance of their own in `hmtx`
    sums: dict[bytes, int]  # the checksums of the tables every subset keeps as they are


@functools.lru_cache(maxsize=16)
def _tables(font: bytes) -> _Tables:
    tables = {}
    for i in range(struct.unpack(">H", font[4:6])[0]):
        tag, _, offset, length = struct.unpack(">4sIII", font[12 + 16 * i:28 + 16 * i])
        tables[tag] = font[offset:offset + length]
    glyph_count = struct.unpack(">H", tables[b"maxp"][4:6])[0]
    loca = tables[b"loca"]
    if struct.unpack(">h", tables[b"head"][50:52])[0] == 1:  # indexToLocFormat: long offsets
        offsets: Sequence[int] = struct.unpack(f">{glyph_count + 1}I", loca[:4 * (glyph_count + 1)])
    else:
        offsets = [2 * o for o in struct.unpack(f">{glyph_count + 1}H", loca[:2 * (glyph_count + 1)])]
    return _Tables(tables, offsets, struct.unpack(">H", tables[b"hhea"][34:36])[0],
                   {tag: _checksum(tables[tag]) for tag in _KEPT_AS_THEY_ARE if tag in tables})


def glyph_subset(font: bytes, gids: Iterable[int]) -> bytes:
    """A TrueType font program with only the outlines of `gids` (and of the glyphs their composite
    glyphs are made of), every other glyph empty, each glyph at its own index: what a composite
    font with CIDToGIDMap /Identity needs. Only the tables a PDF reader uses are kept, and the
    metrics of the glyphs kept (the rest are zeros, which cost nothing compressed). (fontTools'
    subsetter does more, and takes a third of a second a font; this is a copy of a few tables.)"""
    read = _tables(font)
    glyf, offsets = read.tables[b"glyf"], read.offsets
    glyph_count = len(offsets) - 1
    wanted, todo = set(), [g for g in gids if 0 <= g < glyph_count]
    while todo:  # the glyphs asked for, and the parts of composite glyphs
        gid = todo.pop()
        if gid in wanted:
            continue
        wanted.add(gid)
        data = glyf[offsets[gid]:offsets[gid + 1]]
        if len(data) >= 10 and struct.unpack(">h", data[:2])[0] < 0:
            at = 10
            while True:
                flags, part = struct.unpack(">HH", data[at:at + 4])
                todo.append(part)
                at += 4 + (4 if flags & _ARGS_ARE_WORDS else 2)
                at += 2 if flags & _HAS_SCALE else 4 if flags & _XY_SCALE else 8 if flags & _TWO_BY_TWO else 0
                if not flags & _MORE:
                    break
    # The glyphs up to the last one kept (the rest are never shown): the kept outlines in index
    # order, each padded to 4 bytes, every glyph's end where the last kept one before it ends (a
    # walk over the wanted glyphs and C's sums, not over a font's thousands); the kept glyphs'
    # advances and side bearings, past the last advance a bearing alone and that advance.
    count = max(wanted, default=0) + 1
    pieces, lengths = [], [0] * count
    hmtx, metrics = read.tables[b"hmtx"], min(read.metrics, count)
    kept_metrics = bytearray(4 * metrics + 2 * (count - metrics))
    for gid in sorted(wanted):
        data = glyf[offsets[gid]:offsets[gid + 1]]
        pieces.append(data + b"\0" * (-len(data) % 4))
        lengths[gid] = len(pieces[-1])
        at = 4 * gid if gid < metrics else 4 * metrics + 2 * (gid - metrics)
        kept_metrics[at:at + 4 if gid < metrics else at + 2] = hmtx[at:at + 4 if gid < metrics else at + 2]
        if gid >= metrics:
            kept_metrics[4 * metrics - 4:4 * metrics - 2] = hmtx[4 * metrics - 4:4 * metrics - 2]
    new_glyf = b"".join(pieces)
    ends = [0, *itertools.accumulate(lengths)]
    head = bytearray(read.tables[b"head"])
    head[8:12] = b"\0\0\0\0"  # checkSumAdjustment: left out, as readers ignore it
    if ends[-1] < 0x20000:  # short offsets (halved, as every outline is padded to an even length)
        head[50:52] = struct.pack(">h", 0)
        loca = struct.pack(f">{len(ends)}H", *[end // 2 for end in ends])
    else:
        head[50:52] = struct.pack(">h", 1)
        loca = struct.pack(f">{len(ends)}I", *ends)
    hhea, maxp = bytearray(read.tables[b"hhea"]), bytearray(read.tables[b"maxp"])
    hhea[34:36], maxp[4:6] = struct.pack(">H", metrics), struct.pack(">H", count)  # numberOfHMetrics, numGlyphs
    tables = {**read.tables, b"glyf": new_glyf, b"loca": loca, b"head": bytes(head), b"hmtx": bytes(kept_metrics),
              b"hhea": bytes(hhea), b"maxp": bytes(maxp)}
    kept = [tag for tag in _KEPT_TABLES if tag in tables]
    out = bytearray(struct.pack(">IHHHH", 0x00010000, len(kept), 0, 0, 0))  # search fields: unused by readers
    offset = 12 + 16 * len(kept)
    bodies = bytearray()
    for tag in kept:
        data = tables[tag]
        checksum = read.sums[tag] if tag in read.sums else _checksum(data)
        out += struct.pack(">4sIII", tag, checksum, offset + len(bodies), len(data))
        bodies += data + b"\0" * (-len(data) % 4)
    return bytes(out + bodies)


def _checksum(data: bytes) -> int:
    padded = data + b"\0" * (-len(data) % 4)
    return sum(struct.unpack(f">{len(padded) // 4}I", padded)) & 0xFFFFFFFF
