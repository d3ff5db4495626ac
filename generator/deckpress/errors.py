"""The one error type users see, a mistake in a file named by file, line and key; and warnings,
what will print badly without being wrong, as records of the same place, a kind and a message."""

from __future__ import annotations

import os
from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def display_path(path: str | os.PathLike[str]) -> str:
    """A path as the user would type it: relative to the working folder when inside it."""
    p = Path(path)
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(p)


def folder_ref(path: str | os.PathLike[str]) -> str:
    """A deck folder as a user types it: a relative path is written ./name, so it reads as a
    folder, never as a bundled deck's id."""
    text = str(path)
    return text if Path(text).is_absolute() or text.startswith(".") else f"./{text}"


def suggest(word: str, choices: Iterable[str]) -> str | None:
    """The closest of `choices` to a mistyped `word`, if one is close enough."""
    import difflib  # only once there is a mistake: every command imports this module

    matches = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return matches[0] if matches else None


def located(text: str, file: str | None, line: int | None) -> str:
    """`text` after the place it is about, as every error and warning is printed: `file:line: text`."""
    if file is None:
        return text
    return f"{file}:{line}: {text}" if line else f"{file}: {text}"


class DeckError(Exception):
    """A mistake in a deck or layout file.

    Printed as one line: ``decks/x/deck.yaml:41: unknown key 'colour' in card — did you mean 'color'?``
    """

    def __init__(self, message: str, file: str | os.PathLike[str] | None = None,
                 line: int | None = None, suggestion: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.file = display_path(file) if file is not None else None
        self.line = line
        self.suggestion = suggestion

    def __str__(self) -> str:
        hint = f" — did you mean '{self.suggestion}'?" if self.suggestion else ""
        return located(f"{self.message}{hint}", self.file, self.line)


#: every kind of warning, a short stable word a script can test for, and what it means
WARNING_KINDS = {
    "text-overflow": "text that does not fit its box, even at its smallest size",
    "small-text": "text set below the deck's `min-size` (6 pt unless the deck says otherwise)",
    "missing-glyph": "a character no font has: it would print as an empty box",
    "low-resolution": "a picture printed below 300 dpi (below 150 dpi it will look blurred)",
    "art": "SVG or PDF art that does not print as it was drawn: a font the deck lacks, flowed text, a picture left out",
    "unused-translation": "a translated text no card uses",
    "box-too-big": "a tuck box that fits no paper, even in two parts: no box file is written",
    "left-out": "pieces a print service's file leaves out (boards and pawns in a DriveThruCards PDF)",
    "no-canvas": "pieces a print service's preset has no canvas for: written with their bleed instead",
    "flattened": "card sides with transparency printed as pictures in a PDF/X file, which allows none (DriveThruCards)",
    "safe-zone": "text closer to the trim than a print service's safe zone",
    "made-bleed": "`bleed: mirror` or `extend` on a picture that reaches no edge of the trim, so no bleed is made",
    "exif-rotation": "an image whose EXIF rotation PDF ignores (impose)",
    "no-bleed": "an image with the proportions of the trim, so likely without bleed (impose)",
    "has-bleed": "an image with the proportions of the trim and a bleed, where none is expected (impose)",
    "turned": "a landscape image for a portrait card, or the other way round (impose)",
    "proportions": "an image squeezed or stretched to the card (impose)",
    "unused-back": "a back image that no front has (impose)",
}


@dataclass(frozen=True)
class DeckWarning:
    """Something that will print badly without being wrong: where (file as displayed, line), what
    kind (one of WARNING_KINDS) and the message. Printed as ``file:line: message``."""

    file: str | None
    line: int | None
    kind: str
    message: str

    def __str__(self) -> str:
        return located(self.message, self.file, self.line)

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "kind": self.kind, "message": self.message}


class Warnings:
    """Collects warnings (text that does not fit, …) without stopping the build; each is said once."""

    def __init__(self) -> None:
        self.records: list[DeckWarning] = []
        self._said: set[Hashable] = set()

    def __call__(self, message: str, file: str | os.PathLike[str] | None = None,
                 line: int | None = None, *, kind: str, once: Hashable | None = None) -> None:
        """Warn, unless said before: the same text at the same place, or, when `once` is given, a
        warning of this kind with the same `once` (the first place is the one kept)."""
        if kind not in WARNING_KINDS:
            raise ValueError(f"unknown warning kind {kind!r}: declare it in WARNING_KINDS")
        record = DeckWarning(display_path(file) if file is not None else None, line, kind, message)
        key = (kind, once) if once is not None else str(record)
        if key not in self._said:
            self._said.add(key)
            self.records.append(record)

    @property
    def messages(self) -> list[str]:
        """Each warning as one line, `file:line: message`."""
        return [str(record) for record in self.records]

    def __iter__(self) -> Iterator[DeckWarning]:
        return iter(self.records)

    def __len__(self) -> int:
        return len(self.records)
