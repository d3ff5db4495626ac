"""The one error type users see: a mistake in a file, named by file, line and key."""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable
from pathlib import Path


def display_path(path: str | os.PathLike[str]) -> str:
    """A path as the user would type it: relative to the working folder when inside it."""
    p = Path(path)
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(p)


def suggest(word: str, choices: Iterable[str]) -> str | None:
    """The closest of `choices` to a mistyped `word`, if one is close enough."""
    matches = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return matches[0] if matches else None


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
        where = ""
        if self.file is not None:
            where = f"{self.file}:{self.line}: " if self.line else f"{self.file}: "
        hint = f" — did you mean '{self.suggestion}'?" if self.suggestion else ""
        return f"{where}{self.message}{hint}"


class Warnings:
    """Collects warnings (text that does not fit, …) without stopping the build; each is said once."""

    def __init__(self) -> None:
        self.messages: list[str] = []

    def __call__(self, message: str, file: str | os.PathLike[str] | None = None,
                 line: int | None = None) -> None:
        text = str(DeckError(message, file, line))
        if text not in self.messages:
            self.messages.append(text)

    def __iter__(self):
        return iter(self.messages)

    def __len__(self) -> int:
        return len(self.messages)
