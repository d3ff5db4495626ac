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
    """Digests of faces for one build: each face's `repr` (its whole drawing list, fields in a
    fixed order, floats as Python writes them), with the path of every file it reads (a picture,
    a font) replaced by the digest of the file's bytes. Files and shared groups are read once."""

    def __init__(self) -> None:
        self._files: dict[str, str] = {}
        self._faces: dict[int, str] = {}
        self._groups: dict[int, frozenset[str]] = {}  # by id(): a group many faces share, walked once

    def __call__(self, face: Face) -> str:
        found = self._faces.get(id(face))
        if found is None:
            text = repr(face)
            for path in sorted(self._paths(face.items), key=len, reverse=True):  # longest first: no prefix clash
                text = text.replace(repr(path)[1:-1], self._file(path))
            found = self._faces[id(face)] = hashlib.sha256(text.encode()).hexdigest()[:32]
        return found

    def _paths(self, items: tuple[Any, ...]) -> frozenset[str]:
        """The files `items` read, as the paths their repr shows (a font reference's path part)."""
        found: set[str] = set()
        for item in items:
            kind = type(item)
            if kind is Text:
                found.add(font_source(item.font).path)
            elif kind is Image:
                found.add(item.source)
                found.update(font_source(font).path for font in item.fonts)
            elif kind is Group:
                inner = self._groups.get(id(item))
                if inner is None:
                    inner = self._groups[id(item)] = self._paths(item.items)
                found |= inner
        return frozenset(found)

    def _file(self, path: str) -> str:
        digest = self._files.get(path)
        if digest is None:
            try:
                digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
            except OSError:
                digest = "unreadable"
            self._files[path] = digest
        return digest
