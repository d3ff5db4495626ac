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
import hashlib
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from reportlab.lib.rl_accel import escapePDF, fp_str

from ..fonts import FontSet, open_font
from .pdffile import Name, PdfFile, Ref, Slot, Template, stream_body

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

    def learn(self, characters: Mapping[str, Iterable[str]]) -> None:
        """Code the characters each font (by file) will show, before any document is written; the
        fonts met first are numbered in the order of what they are (their names and contents),
        never of where their files lie."""
        for path in sorted(characters, key=_identity):
            self[path].learn(characters[path])


@functools.lru_cache(maxsize=None)
def _identity(path: str) -> tuple[bytes, bytes]:
    """What tells fonts apart wherever their files lie: the name inside and a digest of the file."""
    face = open_font(path).face
    return face.name, hashlib.blake2b(face._ttf_data, digest_size=16).digest()


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
    flags = (face.flags & ~_FF_NONSYMBOLIC) | _FF_SYMBOLIC
    descriptor = Template({
        "Type": Name("FontDescriptor"), "Ascent": face.ascent, "CapHeight": face.capHeight,
        "Descent": face.descent, "Flags": flags, "FontBBox": face.bbox, "FontName": Name(base),
        "ItalicAngle": face.italicAngle, "StemV": face.stemV, "FontFile2": Slot(),
        "MissingWidth": face.defaultWidth})
    font = Template({"Type": Name("Font"), "Subtype": Name("TrueType"), "BaseFont": Name(base),
                     "FirstChar": 0, "LastChar": len(codes) - 1,
                     "Widths": [face.getCharWidth(c) for c in codes], "FontDescriptor": Slot(), "ToUnicode": Slot()})
    return _Embedded(stream_body({"Length1": len(program)}, program), descriptor,
                     stream_body({}, _to_unicode(base, codes).encode("ascii")), font)


def _tag(program: bytes) -> str:
    """Six capital letters naming a subset (PDF's subset prefix), from what it holds (never from
    where the font lies: the same deck prints the same bytes wherever it is built)."""
    digest = hashlib.blake2b(program, digest_size=6).digest()
    return "".join(chr(65 + b % 26) for b in digest)


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
