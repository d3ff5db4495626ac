"""Fonts in PDF: every font as a composite font of glyph indexes, subset by HarfBuzz, embedded.

Everything printed is shaped text (`shaping`): glyphs, which a ligature or an Arabic letter's
joined form makes no character code can name. So each font is PDF's composite (Type0) font with
the Identity-H encoding: each code two bytes, a glyph index (`GlyphFont`). Its program is the
font's subset made by HarfBuzz's own subsetter (what WeasyPrint uses), each glyph kept at its own
index (RETAIN_GIDS), a variable font pinned at the axis values the text was shaped at (so the
outlines and the widths are those shaping measured). TrueType outlines are embedded as
CIDFontType2 (FontFile2, CIDToGIDMap /Identity); CFF outlines as they are, not converted, as
CIDFontType0 with the bare CFF table (FontFile3 /CIDFontType0C, PDF 1.3: what PDF/X-1a allows,
where /OpenType would need PDF 1.6). A CFF program whose Top DICT has no CIDFont operators (most
`.otf` fonts) has its CIDs "used directly as GID values" (PDF Reference 1.7, 5.6.3 "Glyph Selection
in CIDFonts"; ISO 32000-1, 9.7.4.2); a CID-keyed one is given an identity charset by the
subsetter, so CID = GID there too. pdfium, poppler and Acrobat read both.

What each glyph stands for goes into the ToUnicode map, so text copies out and is found. The
glyphs and their readings are learned from all the text the build shows before any document is
written (`Fonts.learn`), so every document of a build embeds the same subset and names the font
alike: a card face is the same content-stream bytes in every file that places it.
"""

from __future__ import annotations

import functools
import itertools
import re
import struct
from collections import Counter
from collections.abc import Iterable, Mapping
from operator import itemgetter
from pathlib import Path
from typing import NamedTuple

import uharfbuzz as hb
from reportlab.lib.rl_accel import fp_str

from ..face import Glyph, GlyphRun
from ..text.fonts import font_bytes, font_source, from_fonts, hb_face, hb_font, open_font, program_subset, table
from .pdffile import Name, PdfFile, Ref, Slot, Template, digest, stream_body

_FF_FIXED, _FF_SYMBOLIC, _FF_ITALIC, _FF_FORCEBOLD = 1 << 0, 1 << 2, 1 << 6, 1 << 18


class Fonts:
    """The fonts of a build, by reference (`fonts.font_ref`); named `G1`, `G2`, … in the order
    they are learned (by name and content) or met."""

    def __init__(self) -> None:
        self.glyph_fonts: dict[str, GlyphFont] = {}

    def learn(self, glyphs: Mapping[str, Iterable[tuple[int, str]]]) -> None:
        """Learn the glyphs each font (by reference) will show, with what they stand for, before
        any document is written; the fonts met first are numbered in the order of what they are
        (their names and contents), never of where their files lie."""
        for ref in _by_identity(glyphs):
            self.glyph_font(ref).learn(glyphs[ref])

    def glyph_font(self, ref: str) -> GlyphFont:
        """The composite font text in the font `ref` names is drawn with."""
        found = self.glyph_fonts.get(ref)
        if found is None:
            found = self.glyph_fonts[ref] = GlyphFont(ref, f"G{len(self.glyph_fonts) + 1}")
        return found


def _by_identity(refs: Iterable[str]) -> list[str]:
    """Fonts in the order of what they are wherever they lie: by the PostScript name inside, and
    fonts that share a name by a digest of their bytes and the member and axis values named."""
    names = {ref: postscript_name(ref) for ref in refs}
    shared = {name for name, count in Counter(names.values()).items() if count > 1}
    return sorted(names, key=lambda ref: (names[ref], _content(ref) if names[ref] in shared else b""))


@from_fonts
@functools.lru_cache(maxsize=None)
def _content(ref: str) -> bytes:
    path, index, axes = font_source(ref)
    return digest(font_bytes(path) + repr((index, axes)).encode(), 16)


@from_fonts
@functools.lru_cache(maxsize=None)
def postscript_name(ref: str) -> str:
    """The font's PostScript name (a variable font's instance: its axis values after it), as PDF
    may show it: printable ASCII without PDF's delimiters."""
    face = hb_face(ref)
    name = face.get_name(hb.OTNameIdPredefined.POSTSCRIPT_NAME) or Path(font_source(ref).path).stem
    axes = font_source(ref).axes
    if axes:
        name += "_" + "_".join(f"{tag.strip()}{value:g}" for tag, value in axes)
    return re.sub(r"[^!-~]|[()<>\[\]{}/%#]", "-", name)[:100] or "Font"


def read_ahead(ref: str) -> None:
    """Read once what embedding the font at `ref` takes, in any document of the process: its
    bytes and HarfBuzz's face. (The build does so before its workers fork, so that each has them:
    every bundled deck embeds most of the bundled fonts.)"""
    hb_font(ref)
    postscript_name(ref)


# --- shaped text: glyph indexes as codes ----------------------------------------------------------

class GlyphFont:
    """A font as PDF's composite (Type0) font with the Identity-H encoding: each code is
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
            self._embedded = counts, _composite(self.path, tuple(sorted(self.used)),
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


@from_fonts
@functools.lru_cache(maxsize=64)
def _composite(ref: str, gids: tuple[int, ...], readings: tuple[tuple[int, str], ...]) -> _Composite:
    program, cff = subset_program(ref, gids)
    base = f"{_tag(program)}+{postscript_name(ref)}"
    metrics = open_font(ref)
    widths: list[object] = []
    for gid in gids:  # `gid [w]` for each glyph: short, and as the glyphs are few, quick to read
        widths += [gid, [_thousandths(metrics.glyph_advance(gid))]]
    if cff:
        descriptor = _descriptor(ref, base, "FontFile3")
        body = stream_body({"Subtype": Name("CIDFontType0C")}, program)
        kind: dict[str, object] = {"Subtype": Name("CIDFontType0")}
    else:
        descriptor = _descriptor(ref, base, "FontFile2")
        body = stream_body({"Length1": len(program)}, program)
        kind = {"Subtype": Name("CIDFontType2"), "CIDToGIDMap": Name("Identity")}
    cid_font = Template({"Type": Name("Font"), **kind, "BaseFont": Name(base),
                         "CIDSystemInfo": {"Registry": "Adobe", "Ordering": "Identity", "Supplement": 0},
                         "FontDescriptor": Slot(), "DW": 0, "W": widths})
    font = Template({"Type": Name("Font"), "Subtype": Name("Type0"), "BaseFont": Name(base),
                     "Encoding": Name("Identity-H"), "DescendantFonts": [Slot()], "ToUnicode": Slot()})
    return _Composite(body, descriptor, cid_font, stream_body({}, _glyph_to_unicode(base, readings).encode("ascii")),
                      font)


@from_fonts
@functools.lru_cache(maxsize=64)
def subset_program(ref: str, gids: tuple[int, ...]) -> tuple[bytes, bool]:
    """The font program PDF embeds for the glyphs `gids` of the font `ref` names (`fonts.program_subset`):
    TrueType outlines give the subset font (an sfnt, for FontFile2); CFF ones the bare CFF table
    (for FontFile3 /CIDFontType0C), and True for that."""
    subset = program_subset(ref, gids)
    if "glyf" in subset.table_tags:
        return subset.blob.data, False
    return subset.reference_table("CFF ").data, True


def _descriptor(ref: str, base: str, program_key: str) -> Template:
    """A font descriptor (ISO 32000-1, 9.8) from the font's own tables, in thousandths of an em,
    its program to be filled in."""
    font = open_font(ref)
    head, post, os2 = table(ref, "head"), table(ref, "post"), table(ref, "OS/2")
    scale = 1000 / font.units_per_em
    bbox = [round(v * scale) for v in struct.unpack_from(">4h", head, 36)] if len(head) >= 44 else [0, 0, 1000, 1000]
    italic = struct.unpack_from(">i", post, 4)[0] / 65536 if len(post) >= 16 else 0.0
    fixed = len(post) >= 16 and struct.unpack_from(">I", post, 12)[0] != 0
    weight = struct.unpack_from(">H", os2, 4)[0] if len(os2) >= 6 else 500
    flags = _FF_SYMBOLIC | (_FF_ITALIC if italic else 0) | (_FF_FORCEBOLD if weight >= 600 else 0) | \
        (_FF_FIXED if fixed else 0)
    return Template({"Type": Name("FontDescriptor"), "Ascent": round(font.ascent * 1000),
                     "CapHeight": round(font.cap_height * 1000), "Descent": -round(font.descent * 1000),
                     "Flags": flags, "FontBBox": bbox, "FontName": Name(base), "ItalicAngle": round(italic, 3),
                     "StemV": 50 + int((weight / 65) ** 2), program_key: Slot()})


def _tag(program: bytes) -> str:
    """Six capital letters naming a subset (PDF's subset prefix), from what it holds (never from
    where the font lies: the same deck prints the same bytes wherever it is built)."""
    return "".join(chr(65 + b % 26) for b in digest(program, 6))


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
