"""What reportlab does again and again while writing documents, done once or done faster.

A build writes many documents that share most of their bytes: the same face forms on A4 and
Letter, in the fronts and the duplex file; the same font subsets in every file of a deck. reportlab
compresses, subsets and formats each of them afresh. This module, installed once on import,
changes how reportlab computes, never what it writes: each function returns the bytes the one it
replaces would (tests/backends/test_rltuning.py holds them side by side).

- Flate compression is remembered by the digest of its input (`zlib` is deterministic for
  the same input and level), so a stream met before costs a hash instead of a deflate.
- A font subset is remembered by its font file and its characters, in order, and an array of
  numbers (a subset's widths) by its numbers.
- Names, numbers and content streams are encoded without reportlab's Python-level codec where
  they are ASCII, which PDFDocEncoding leaves as it is; numbers, names, strings and bytes are
  formatted without the isinstance chain that PDF objects need.
"""

from __future__ import annotations

import functools
import hashlib
import re
import zlib
from collections import OrderedDict

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfdoc, ttfonts

#: bytes of compressed streams and font subsets kept between documents; the oldest go first
MEMORY_BUDGET = 48 * 1024 * 1024


class _Remembered:
    """Results kept by a key, the least recently used forgotten once their bytes pass the budget."""

    def __init__(self, budget: int) -> None:
        self.budget, self.used = budget, 0
        self.items: OrderedDict[object, bytes] = OrderedDict()

    def get(self, key: object) -> bytes | None:
        value = self.items.get(key)
        if value is not None:
            self.items.move_to_end(key)
        return value

    def put(self, key: object, value: bytes) -> bytes:
        self.items[key] = value
        self.used += len(value)
        while self.used > self.budget and self.items:
            self.used -= len(self.items.popitem(last=False)[1])
        return value

    def clear(self) -> None:
        self.items.clear()
        self.used = 0


_COMPRESSED = _Remembered(MEMORY_BUDGET // 2)
_SUBSETS = _Remembered(MEMORY_BUDGET // 2)
_ARRAYS = _Remembered(4 * 1024 * 1024)  # formatted arrays of numbers


def forget() -> None:
    """Drop everything remembered (for tests, and for a long-lived process that wants the memory)."""
    _COMPRESSED.clear()
    _SUBSETS.clear()
    _ARRAYS.clear()


def _compress(self: pdfdoc.PDFStreamFilterZCompress, text: str | bytes) -> bytes:
    """reportlab's Flate encode, remembered. Short streams are compressed again: hashing and
    keeping them costs about what deflating them does."""
    if isinstance(text, str):
        text = text.encode("utf8")
    if len(text) < 512:
        return zlib.compress(text)
    key = hashlib.blake2b(text, digest_size=20).digest()
    return _COMPRESSED.get(key) or _COMPRESSED.put(key, zlib.compress(text))


_make_subset = ttfonts.TTFontFace.makeSubset


def _subset(self: ttfonts.TTFontFace, subset: list[int]) -> bytes:
    """reportlab's font subset, remembered by the font and the characters in code order
    (the codes are the subset's, so the order is part of what is made)."""
    key = (self, tuple(subset))  # the face itself: a font file registered again is another face
    return _SUBSETS.get(key) or _SUBSETS.put(key, _make_subset(self, subset))


_pdfdoc_encode = pdfdoc.pdfdocEnc


#: the ASCII characters PDFDocEncoding has no code for (reportlab's codec refuses them)
_NOT_PDFDOC = re.compile("[\x18-\x1f]")


_SHORT: dict[str, bytes] = {}  # names and other short strings, encoded: the same few, again and again


def _pdfdoc_enc(x: str | bytes) -> bytes:
    """reportlab's pdfdocEnc. ASCII is the same bytes in PDFDocEncoding but for eight control
    characters: names, numbers and content streams are ASCII. Anything else goes through
    reportlab's codec, errors included."""
    if type(x) is str:
        known = _SHORT.get(x)
        if known is not None:
            return known
        if x.isascii() and (x.isprintable() or not _NOT_PDFDOC.search(x)):
            encoded = x.encode("ascii")
            if len(x) <= 32 and len(_SHORT) < 4096:
                _SHORT[x] = encoded
            return encoded
    return _pdfdoc_encode(x)


_format = pdfdoc.format


def _format_fast(element: object, document: pdfdoc.PDFDocument, toplevel: int = 0) -> bytes:
    """reportlab's pdfdoc.format, with the leaves (strings, numbers, bytes) first: they are most of
    its calls, and reportlab asks every one whether it is a PDF object before what it is."""
    kind = type(element)
    if kind is str:
        return _pdfdoc_enc(element)
    if kind is int or kind is float:
        return fp_str(element).encode("ascii")
    if kind is bytes:
        return element
    return _format(element, document, toplevel)


_format_dictionary = pdfdoc.PDFDictionary.format
_NAMES: dict[str, bytes] = {}  # a dictionary key -> its name as written, with the space after it


def _format_dict(self: pdfdoc.PDFDictionary, document: pdfdoc.PDFDocument, IND: bytes = b"\n ") -> bytes:
    """reportlab's dictionary formatting, each key's name written from a table of those met."""
    items = self.dict
    keys = list(items) if isinstance(items, OrderedDict) else sorted(items)
    names = _NAMES
    lines = []
    for key in keys:
        name = names.get(key)
        if name is None:
            name = names[key] = _format_fast(pdfdoc.PDFName(key), document) + b" "
        lines.append(name + _format_fast(items[key], document))
    if (self.multiline and pdfdoc.rl_config.pdfMultiLine) or self.multiline == "forced":
        return b"<<\n" + IND.join(lines) + b"\n>>"
    for i in reversed(range(6, len(lines), 6)):  # reportlab breaks the line every six entries
        lines.insert(i, b"\n ")
    return b"<<\n" + b" ".join(lines) + b"\n>>"


_format_array = pdfdoc.PDFArray.format
_NUMBERS = (int, float)


def _format_numbers(self: pdfdoc.PDFArray, document: pdfdoc.PDFDocument, IND: bytes = b"\n ") -> bytes:
    """reportlab's array formatting, remembered for arrays of numbers: a font subset's widths
    (a hundred numbers, the same in every document that embeds the subset), forms' boxes and
    matrices."""
    sequence = self.sequence
    if len(sequence) < 4 or not all(type(x) in _NUMBERS for x in sequence):
        return _format_array(self, document, IND)
    key = (self.multiline, pdfdoc.rl_config.pdfMultiLine, IND, tuple(sequence))
    return _ARRAYS.get(key) or _ARRAYS.put(key, _format_array(self, document, IND))


def install() -> None:
    """Put the remembering and faster versions in place of reportlab's (once; later calls do nothing)."""
    if pdfdoc.format is _format_fast:
        return
    pdfdoc.PDFStreamFilterZCompress.encode = _compress
    ttfonts.TTFontFace.makeSubset = _subset
    pdfdoc.pdfdocEnc = _pdfdoc_enc
    pdfdoc.format = _format_fast
    pdfdoc.PDFArray.format = _format_numbers
    pdfdoc.PDFDictionary.format = _format_dict
    # reportlab spells every key of every dictionary it writes (each page's, form's and resource
    # list's) with PDFName, which escapes the name character by character: tens of thousands of
    # calls for a few dozen distinct names. The same names, remembered.
    pdfdoc.PDFName = functools.lru_cache(maxsize=1024)(pdfdoc.PDFName)
