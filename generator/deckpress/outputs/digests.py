"""What each card-list entry looks like, as digests: recorded in a build's report, compared by a
later build that reprints only what changed (`builder.update`).

A face's digest is of its drawing list, with each file it reads (a picture, SVG art, a font)
given as the digest of its bytes rather than its path: a deck moved to another folder or
machine gives the same digests, and a picture saved again with other pixels a new one.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..face import Face, Group, Image, Text
from ..text.fonts import font_source
from .sides import Entry


@dataclass(frozen=True)
class SideRecord:
    """One card-list entry as a report records it: which card, and what its sides look like."""

    component: str
    number: int
    name: str
    front: str
    back: str | None

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, item: Any) -> SideRecord:
        """A record as `to_json` wrote it; a ValueError if it is not one."""
        if not isinstance(item, dict) or not isinstance(item.get("front"), str):
            raise ValueError("not a card's record (component, number, name, front, back)")
        back = item.get("back")
        return cls(str(item.get("component", "")), int(item.get("number", 0)), str(item.get("name", "")),
                   item["front"], back if isinstance(back, str) else None)

    @property
    def label(self) -> str:
        """How the change list names it: `notes 4 · quarter`."""
        return f"{self.component} {self.number}" + (f" · {self.name}" if self.name else "")


def side_records(entries: Sequence[Entry]) -> tuple[SideRecord, ...]:
    """Each entry with the digests of its sides, in card-list order."""
    digest = _Digests()
    return tuple(SideRecord(e.component, e.number, e.name, digest(e.front),
                            digest(e.back) if e.back is not None else None) for e in entries)


class _Digests:
    """Digests of faces for one build: the drawing list with each file a face reads (a picture, a
    font) given as the digest of its bytes; files and shared groups read once."""

    def __init__(self) -> None:
        self._files: dict[str, str] = {}
        self._items: dict[int, bytes] = {}

    def __call__(self, face: Face) -> str:
        found = self._items.get(id(face))
        if found is None:
            found = self._items[id(face)] = hashlib.sha256(self._encode(face)).digest()
        return found.hex()[:32]

    def _file(self, path: str) -> str:
        digest = self._files.get(path)
        if digest is None:
            try:
                digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
            except OSError:
                digest = "unreadable"
            self._files[path] = digest
        return digest

    def _encode(self, value: Any) -> bytes:
        kind = type(value)
        if kind is Group or kind is Face:
            known = self._items.get(id(value))
            if known is not None:
                return known
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            parts = [kind.__name__.encode()]
            for spec in dataclasses.fields(value):
                if spec.name.startswith("_") or spec.name == "glyph_runs":  # derived from text, font and size
                    continue
                item = getattr(value, spec.name)
                if kind is Text and spec.name == "font":
                    item = ("font", self._file(font_source(item).path), item.partition("#")[2])
                elif kind is Image and spec.name == "source":
                    item = ("file", self._file(item))
                elif kind is Image and spec.name == "fonts":
                    item = tuple(self._file(font_source(f).path) for f in item)
                parts.append(spec.name.encode() + b"=" + self._encode(item))
            encoded = b"(" + b",".join(parts) + b")"
            if kind is Group:
                encoded = self._items[id(value)] = hashlib.sha256(encoded).digest()
            return encoded
        if isinstance(value, (tuple, list)):
            return b"[" + b",".join(self._encode(v) for v in value) + b"]"
        if isinstance(value, (frozenset, set)):
            return b"{" + b",".join(sorted(self._encode(v) for v in value)) + b"}"
        if isinstance(value, dict):
            return b"{" + b",".join(sorted(self._encode(k) + b":" + self._encode(v) for k, v in value.items())) + b"}"
        return repr(value).encode()
