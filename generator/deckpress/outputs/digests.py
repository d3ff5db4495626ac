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

from ..face import Face, Group, Image, Item, Text
from ..text.fonts import font_source
from ..vectorart import is_pdf, is_vector
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


class FaceFiles:
    """The files a face's drawing reads: its fonts, its pictures and, for SVG art, every file the
    art read (the pictures and art it links, as svgfile made it ready) and, if it sets text, every
    font it may be set in (`fonts` for art that names none of its own). Each group is walked once,
    by id(): the live preview keeps one of these while its groups live."""

    def __init__(self, fonts: tuple[str, ...] = ()) -> None:
        self.fonts = fonts
        self._groups: dict[int, frozenset[str]] = {}
        self._pictures: dict[tuple[str, tuple[str, ...]], frozenset[str]] = {}

    def of(self, items: tuple[Item, ...]) -> frozenset[str]:
        found: set[str] = set()
        for item in items:
            kind = type(item)
            if kind is Text:
                found.add(font_source(item.font).path)  # type: ignore[union-attr]
            elif kind is Image:
                found |= self._picture(item.source, item.fonts or self.fonts)  # type: ignore[union-attr]
            elif kind is Group:
                inner = self._groups.get(id(item))
                if inner is None:
                    inner = self._groups[id(item)] = self.of(item.items)  # type: ignore[union-attr]
                found |= inner
        return frozenset(found)

    def _picture(self, source: str, fonts: tuple[str, ...]) -> frozenset[str]:
        found = self._pictures.get((source, fonts))
        if found is None:
            paths = {source}
            if is_vector(source) and not is_pdf(source):
                from ..svgfile import prepare  # only for SVG art
                try:
                    prepared = prepare(source, fonts)  # made already, when the faces were composed
                except (ValueError, OSError):  # saved broken since: the rebuild that follows says so
                    prepared = None
                if prepared is not None:
                    paths.update(path for path, _ in prepared.read)
                    if prepared.sets_text:
                        paths.update(font_source(font).path for font in fonts)
            found = self._pictures[source, fonts] = frozenset(paths)
        return found


class _Digests:
    """Digests of faces for one build: each face's `repr` (its whole drawing list, fields in a
    fixed order, floats as Python writes them), with the path of every file it names replaced by
    the digest of the file's bytes, and the digests of the files it reads without naming them
    (what SVG art links) after it. Files and shared groups are read once."""

    def __init__(self) -> None:
        self._files: dict[str, str] = {}
        self._faces: dict[int, str] = {}
        self._reads = FaceFiles()

    def __call__(self, face: Face) -> str:
        found = self._faces.get(id(face))
        if found is None:
            text = repr(face)
            paths = self._reads.of(face.items)
            for path in sorted(paths, key=len, reverse=True):  # longest first: no prefix clash
                text = text.replace(repr(path)[1:-1], self._file(path))
            text += "".join(sorted(self._file(path) for path in paths))  # and what the art links
            found = self._faces[id(face)] = hashlib.sha256(text.encode()).hexdigest()[:32]
        return found

    def _file(self, path: str) -> str:
        digest = self._files.get(path)
        if digest is None:
            try:
                digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
            except OSError:
                digest = "unreadable"
            self._files[path] = digest
        return digest
