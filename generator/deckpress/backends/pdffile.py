"""The PDF file format: objects written to a file as they are made, then the cross-reference
table and the trailer.

deckpress writes a small part of PDF (forms, pages, TrueType subsets, pictures) and writes it a
great deal: a build is a hundred files of hundreds of pages that share most of their objects. So
values are Python values (dicts, lists, numbers, `Name`s, `Ref`s, strings) formatted straight
to bytes, each object goes to the file the moment it is complete (a document is never held
whole), and a stream's Flate compression is remembered by its content for the whole process,
since the same face forms, font programs and pages recur in file after file.

Nothing here knows about cards; `pdfcanvas` draws content streams, `pdfpages` makes documents.
"""

from __future__ import annotations

import hashlib
import zlib
from collections import OrderedDict
from collections.abc import Callable
from typing import BinaryIO, Generic, TypeVar

from reportlab.lib.rl_accel import fp_str

__all__ = ["Name", "Ref", "Raw", "Slot", "Template", "PdfFile", "Remembered", "deflate", "stream_body", "number",
           "forget"]

V = TypeVar("V")

VERSION = "1.4"  #: transparency groups and soft masks need 1.4; PDF/X-1a:2003 allows no later


class Name(str):
    """A PDF name, written `/Name` (the characters deckpress uses need no escaping)."""


class Ref(int):
    """A reference to an indirect object, written `n 0 R`."""


class Raw(bytes):
    """Bytes already in PDF syntax (an array of numbers formatted once and written many times)."""


class Slot:
    """Where a `Template` takes a reference when it is filled in."""


_SLOT = b"\x00slot\x00"  # what a Slot is written as until it is filled in: no PDF value writes a NUL


class Template:
    """A value formatted once and written with other references each time: an object that every
    document of a build writes alike but for the numbers of the objects it points to."""

    def __init__(self, value: object) -> None:
        self.parts = dumps(value).split(_SLOT)

    def fill(self, *refs: int) -> bytes:
        parts = self.parts
        if len(refs) != len(parts) - 1:
            raise ValueError(f"{len(parts) - 1} references wanted, {len(refs)} given")
        out = [parts[0]]
        for ref, part in zip(refs, parts[1:]):
            out.append(b"%d 0 R" % ref)
            out.append(part)
        return b"".join(out)


def number(value: float) -> bytes:
    """A number as reportlab writes it (at most six decimals, no trailing zeros)."""
    return fp_str(value).encode("ascii")


_STRING_ESCAPES = {ord("("): "\\(", ord(")"): "\\)", ord("\\"): "\\\\", ord("\r"): "\\r", ord("\n"): "\\n"}


def _string(text: str) -> bytes:
    """A text string (document info): PDFDocEncoding where Latin-1 covers it, else UTF-16BE."""
    try:
        return b"(" + text.translate(_STRING_ESCAPES).encode("latin-1") + b")"
    except UnicodeEncodeError:
        return b"<FEFF" + text.encode("utf-16-be").hex().upper().encode("ascii") + b">"


_KEYS: dict[str, bytes] = {}  # dictionary keys as written, with their slash: a few dozen, again and again


def dumps(value: object) -> bytes:
    """A value in PDF syntax."""
    kind = type(value)
    if kind is dict:
        parts = [b"<<"]
        for key, item in value.items():
            name = _KEYS.get(key)
            if name is None:
                name = _KEYS[key] = b"/" + key.encode("ascii")
            parts.append(name)
            parts.append(_leaf(item))
        parts.append(b">>")
        return b" ".join(parts)
    if kind is list or kind is tuple:
        if all(type(v) is float or type(v) is int for v in value):
            return b"[" + fp_str(value).encode("ascii") + b"]" if value else b"[]"
        return b"[" + b" ".join([_leaf(v) for v in value]) + b"]"
    return _leaf(value)


def _leaf(value: object) -> bytes:
    kind = type(value)
    if kind is Ref:
        return b"%d 0 R" % value
    if kind is Name:
        return b"/" + value.encode("ascii")
    if kind is int:
        return b"%d" % value
    if kind is float:
        return fp_str(value).encode("ascii")
    if kind is Raw:
        return value
    if kind is Slot:
        return _SLOT
    if kind is bool:
        return b"true" if value else b"false"
    if kind is str:
        return _string(value)
    if kind is dict or kind is list or kind is tuple:
        return dumps(value)
    raise TypeError(f"no PDF form for {value!r}")


class Remembered(Generic[V]):
    """Values by key, the least recently used forgotten once their sizes (`size`) pass the budget:
    what a build's documents share (compressed streams, encoded pictures) without holding it all."""

    def __init__(self, budget: int, size: Callable[[V], int] = len) -> None:  # type: ignore[assignment]
        self.budget, self.used, self.size = budget, 0, size
        self.items: OrderedDict[object, V] = OrderedDict()

    def get(self, key: object) -> V | None:
        value = self.items.get(key)
        if value is not None:
            self.items.move_to_end(key)
        return value

    def put(self, key: object, value: V) -> V:
        size = self.size(value)
        if size <= self.budget:
            self.items[key] = value
            self.used += size
            while self.used > self.budget:
                self.used -= self.size(self.items.popitem(last=False)[1])
        return value

    def clear(self) -> None:
        self.items.clear()
        self.used = 0


_COMPRESSED: Remembered[bytes] = Remembered(32 * 1024 * 1024)


def digest(data: bytes, size: int) -> bytes:
    """The first `size` bytes of `data`'s SHA-1: what names a form, a subset or a picture by what
    it holds, and finds a stream deflated before. A name, not a seal: what is hashed is the
    build's own output, or a deck's own pictures and fonts (two that collide could only be made
    by the deck's author, and only swap that deck's own two). OpenSSL's SHA-1 runs at twice the
    speed of hashlib's own BLAKE2 (its reference C code), which a bundled build spent 2 % of its
    instructions in, over the 12 MB it hashes."""
    return hashlib.sha1(data, usedforsecurity=False).digest()[:size]


def deflate(data: bytes, key: bytes | None = None) -> bytes:
    """Flate-compressed `data`, remembered by its content (or by `key`, a digest of it that the
    caller has made already): the documents of a build share most of their streams. Short
    streams are compressed again (a digest costs what deflating them does)."""
    if len(data) < 512:
        return zlib.compress(data)
    key = key or digest(data, 20)
    return _COMPRESSED.get(key) or _COMPRESSED.put(key, zlib.compress(data))


def stream_body(entries: dict, data: bytes, compress: bool = True) -> bytes:
    """A stream object's dictionary and data, Flate-compressed unless `compress` is false, as
    `PdfFile.write_stream` writes them (to write again with `write_formatted`)."""
    if compress:
        data = deflate(data)
        if not entries:  # a page's content: written so often that its dictionary is spelled out here
            return b"<< /Filter /FlateDecode /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"
        entries = {**entries, "Filter": Name("FlateDecode")}
    return dumps({**entries, "Length": len(data)}) + b"\nstream\n" + data + b"\nendstream"


def forget() -> None:
    """Drop the remembered streams (for a long-lived process that wants the memory back)."""
    _COMPRESSED.clear()


COMPACT_VERSION = "1.5"  #: object streams and a cross-reference stream (`PdfFile(compact=True)`) need 1.5
PER_OBJECT_STREAM = 200  #: small objects gathered into one compressed object stream


class PdfFile:
    """A PDF being written to `sink`, object by object. Objects are numbered as they are reserved
    or written; `close` writes the cross-reference table and a trailer whose ID is made of
    everything before it, so the same objects give the same file, byte for byte.

    `compact` (PDF 1.5): objects that are not streams (pages, dictionaries of forms, fonts, the
    tree) are gathered, PER_OBJECT_STREAM at a time, into compressed object streams, and the
    cross-reference is a compressed stream too: a home sheet's file was a third uncompressed
    dictionaries and a table of 20 bytes an object. PDF/X-1a (PDF 1.4) cannot have them."""

    def __init__(self, sink: BinaryIO, version: str = VERSION, compact: bool = False) -> None:
        self.sink = sink
        self.offsets: dict[int, int] = {}
        self.count = 0
        self.position = 0
        self.checksum = 0  # CRC-32 of every byte so far: the file's identity (`close`), cheap to keep
        self.compact = compact
        self.pending: list[tuple[int, bytes]] = []  # small objects waiting for their object stream
        self.packed: dict[int, tuple[int, int]] = {}  # object -> (its object stream, its place there)
        self._put(b"%PDF-" + version.encode("ascii") + b"\n%\x93\x8c\x8b\x9e deckpress\n")

    def _put(self, data: bytes) -> None:
        self.sink.write(data)
        self.checksum = zlib.crc32(data, self.checksum)
        self.position += len(data)

    def reserve(self) -> Ref:
        """A number for an object to be written later (one that others refer to first)."""
        self.count += 1
        return Ref(self.count)

    def write(self, value: object, ref: Ref | None = None) -> Ref:
        """Write an object (under `ref` if it was reserved) and return its reference."""
        return self.write_formatted(dumps(value), ref)

    def write_formatted(self, body: bytes, ref: Ref | None = None) -> Ref:
        """Write an object already in PDF syntax (a stream's dictionary, `stream` and data
        included) and return its reference."""
        ref = ref or self.reserve()
        if self.compact and not body.endswith(b"endstream"):
            self.pending.append((ref, body))
            if len(self.pending) >= PER_OBJECT_STREAM:
                self._pack()
            return ref
        self.offsets[ref] = self.position
        self._put(b"%d 0 obj\n" % ref + body + b"\nendobj\n")
        return ref

    def _pack(self) -> None:
        """The pending small objects as one object stream: their numbers and offsets, then them."""
        if not self.pending:
            return
        objects, self.pending = self.pending, []
        heads, bodies, at = [], [], 0
        stream = self.reserve()
        for index, (ref, body) in enumerate(objects):
            heads.append(b"%d %d" % (ref, at))
            bodies.append(body)
            at += len(body) + 1
            self.packed[ref] = (stream, index)
        head = b" ".join(heads) + b"\n"
        data = head + b"\n".join(bodies)
        self.offsets[stream] = self.position
        self._put(b"%d 0 obj\n" % stream + stream_body({"Type": Name("ObjStm"), "N": len(objects),
                                                          "First": len(head)}, data) + b"\nendobj\n")

    def write_stream(self, entries: dict, data: bytes, ref: Ref | None = None, *, compress: bool = True) -> Ref:
        """Write a stream object: `entries` and the data, Flate-compressed unless `compress` is
        false (data already encoded, as a JPEG's)."""
        return self.write_formatted(stream_body(entries, data, compress), ref)

    def close(self, root: Ref, info: Ref) -> None:
        """Write the cross-reference table and the trailer. Every reserved object must be written."""
        self._pack()
        missing = [n for n in range(1, self.count + 1) if n not in self.offsets and n not in self.packed]
        if missing:
            raise ValueError(f"objects reserved but never written: {missing[:5]}")
        start = self.position
        # an ID made of the content (its checksum and length), so the same objects give the same file;
        # an MD5 of every byte cost a fifth of writing a thousand photos
        identity = hashlib.md5(b"%d %d" % (self.checksum, self.position), usedforsecurity=False).hexdigest().upper()
        if self.compact:
            self._close_compact(root, info, identity, start)
            return
        table = [b"xref\n0 %d\n0000000000 65535 f \n" % (self.count + 1)]
        table += [b"%010d 00000 n \n" % self.offsets[n] for n in range(1, self.count + 1)]
        trailer = dumps({"Size": self.count + 1, "Root": Ref(root), "Info": Ref(info),
                         "ID": [Raw(b"<" + identity.encode() + b">")] * 2})
        self._put(b"".join(table) + b"trailer\n" + trailer + b"\nstartxref\n%d\n%%%%EOF\n" % start)

    def _close_compact(self, root: Ref, info: Ref, identity: str, start: int) -> None:
        """The cross-reference as a compressed stream (the trailer's entries in its dictionary):
        for each object, 1 and its offset, or 2, its object stream and its place there."""
        xref = self.reserve()
        self.offsets[xref] = start
        width = max(1, (max(start, self.count).bit_length() + 7) // 8)
        rows = [b"\x00" + bytes(width) + b"\xff\xff"]  # object 0: the head of the free list
        for n in range(1, self.count + 1):
            if n in self.packed:
                stream, index = self.packed[n]
                rows.append(b"\x02" + stream.to_bytes(width, "big") + index.to_bytes(2, "big"))
            else:
                rows.append(b"\x01" + self.offsets[n].to_bytes(width, "big") + b"\x00\x00")
        entries = {"Type": Name("XRef"), "Size": self.count + 1, "W": [1, width, 2], "Root": Ref(root),
                   "Info": Ref(info), "ID": [Raw(b"<" + identity.encode() + b">")] * 2}
        self._put(b"%d 0 obj\n" % xref + stream_body(entries, b"".join(rows)) + b"\nendobj\n"
                  + b"startxref\n%d\n%%%%EOF\n" % start)
