"""The one error type users see, a mistake in a file named by file, line and key; and warnings,
what will print badly without being wrong, as records of the same place, a kind and a message."""

from __future__ import annotations

import bisect
import os
import re
from collections.abc import Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def display_path(path: str | os.PathLike[str]) -> str:
    """A path as the user would type it: relative to the working folder when inside it. A web
    address (a card list fetched from one) is shown as it is."""
    if "://" in str(path):
        return str(path)
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

    if len(str(word)) > MAX_SHOWN:  # no name is that long: a value put in the wrong place, not a typo
        return None
    matches = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return matches[0] if matches else None


#: characters never printed as they are, in a message or a file's name: C0 and C1 controls and
#: DEL (a terminal escape begins with ESC, a newline would make a second line), the bidirectional
#: controls (embeddings, overrides, isolates, marks: U+202E turns the rest of a line around), and
#: the line and paragraph separators
CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
#: characters of one value a message quotes; a longer one is cut, with "…"
MAX_SHOWN = 80
#: characters of a message (without its place): past them it is cut, with "…" (a list of 100,000 names)
MAX_MESSAGE = 400
# a value a message quotes, 'so' or "so": the quote opens after no letter and closes before none,
# so a possessive (the deck's, players') is no quote, and an apostrophe inside ('Don't') none either
_OPENING = re.compile(r"""(?<!\w)['"]""")
_CLOSING = {"'": re.compile(r"'(?!\w)"), '"': re.compile(r'"')}
_CUT_ESCAPE = re.compile(r"\\(?:x[0-9a-f]?|u[0-9a-f]{0,3})?\Z")


def printable(text: str) -> str:
    """`text` with every control shown as its escape, as Python writes it: a newline `\\n`, ESC
    `\\x1b`, U+202E `\\u202e`. Other text, right-to-left scripts included, is left as it is."""
    return CONTROLS.sub(lambda m: _NAMED.get(m[0]) or (f"\\x{ord(m[0]):02x}" if ord(m[0]) < 0x100
                                                       else f"\\u{ord(m[0]):04x}"), text)


def shown(value: object, limit: int = MAX_SHOWN) -> str:
    """A value as a message quotes it: `printable`, and at most `limit` characters, the last of
    them "…" when it is cut (never inside an escape)."""
    raw = str(value)
    text = printable(raw[:limit + 1])
    if len(raw) <= limit and len(text) <= limit:
        return text
    return _CUT_ESCAPE.sub("", text[:limit - 1]) + "…"


def said(message: str) -> str:
    """A message as it is printed, done here for every error and warning rather than where each
    is made: each value it quotes `shown` (escaped, cut), the rest `printable`, and the whole cut
    to MAX_MESSAGE characters. A message said twice is said the same."""
    parts, at = [], 0
    for start, end in _quoted(message):
        quote = message[start]
        parts += [printable(message[at:start]), quote, shown(message[start + 1:end - 1]), quote]
        at = end
    text = "".join([*parts, printable(message[at:])])
    return text if len(text) <= MAX_MESSAGE else _CUT_ESCAPE.sub("", text[:MAX_MESSAGE - 1]) + "…"


def _quoted(message: str) -> Iterator[tuple[int, int]]:
    """Where each quoted value of `message` starts and ends (its quotes included), in one pass over
    it: a regular expression that looked for each opening's closing quote anew took minutes over a
    value of 100,000 characters like "'a 'a 'a …", which opens many quotes and closes none."""
    closings = {quote: [found.start() for found in pattern.finditer(message)] for quote, pattern in _CLOSING.items()}
    at = 0
    while (opening := _OPENING.search(message, at)) is not None:
        start, quote = opening.start(), opening[0]
        ends = closings[quote]
        k = bisect.bisect_right(ends, start)
        end = ends[k] if k < len(ends) else None
        if end is not None and quote == '"' and re.match(r"\w", message[end + 1:end + 2]):
            end = None  # "so"x: the next double quote closes nothing, and none can open before it
        if end is None:
            at = start + 1
            continue
        yield start, end + 1
        at = end + 1


def located(text: str, file: str | None, line: int | None, column: str | None = None) -> str:
    """`text` after the place it is about, as every error and warning is printed: `file:line: text`
    (the file's name `printable`, the text `said`); in a spreadsheet, `file:row column C: text`."""
    text = said(text)
    if file is None:
        return text
    file = printable(file)
    if line and column:
        return f"{file}:{line} column {column}: {text}"
    return f"{file}:{line}: {text}" if line else f"{file}: {text}"


class DeckError(Exception):
    """A mistake in a deck or layout file.

    Printed as one line: ``decks/x/deck.yaml:41: unknown key 'colour' in card — did you mean 'color'?``
    """

    def __init__(self, message: str, file: str | os.PathLike[str] | None = None,
                 line: int | None = None, suggestion: str | None = None, column: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.file = display_path(file) if file is not None else None
        self.line = line
        self.suggestion = suggestion
        self.column = column  # a spreadsheet's column letter (`C`), when the mistake is in one cell or header

    def __str__(self) -> str:
        hint = f" — did you mean '{self.suggestion}'?" if self.suggestion else ""  # said with the message
        return located(f"{self.message}{hint}", self.file, self.line, self.column)

    def place(self) -> tuple[str, int, int]:
        """Where the mistake is, to sort mistakes by: file, line, column (A = 1); no file first."""
        return self.file or "", self.line or 0, column_number(self.column) if self.column else 0


def column_number(letters: str) -> int:
    """A spreadsheet column's number from its letters: A -> 1, Z -> 26, AA -> 27."""
    number = 0
    for letter in letters:
        number = number * 26 + ord(letter) - ord("A") + 1
    return number


class DeckErrors(DeckError):
    """Every mistake a check found, in `errors` (file by file, in the order of their lines); said
    as the first of them, so a caller that wants one mistake gets it (`deckpress.check` raises it,
    the `check` command prints them all)."""

    def __init__(self, errors: Sequence[DeckError]) -> None:
        first = errors[0]
        super().__init__(first.message, first.file, first.line, first.suggestion, first.column)
        self.file = first.file  # as displayed already
        self.errors = list(errors)


class Mistakes:
    """The mistakes `collecting` recorded, each once, in the order they were found."""

    def __init__(self) -> None:
        self.errors: list[DeckError] = []
        self._said: set[str] = set()

    def add(self, error: DeckError) -> None:
        if isinstance(error, DeckErrors):
            for each in error.errors:
                self.add(each)
            return
        if str(error) not in self._said:
            self._said.add(str(error))
            self.errors.append(error)

    def __len__(self) -> int:
        return len(self.errors)

    def sorted(self) -> list[DeckError]:
        """File by file (in the order of their names), then by line and column."""
        return sorted(self.errors, key=DeckError.place)


# the mistakes being collected, when a check is going on past them; None (a build) raises the first
_collected: ContextVar[Mistakes | None] = ContextVar("collected", default=None)


@contextmanager
def collecting() -> Iterator[Mistakes]:
    """Within this block, a mistake said with `report`, or raised inside `carry_on`, is recorded
    and the loader goes on past it, so one check finds every mistake it safely can."""
    mistakes = Mistakes()
    token = _collected.set(mistakes)
    try:
        yield mistakes
    finally:
        _collected.reset(token)


def report(error: DeckError) -> None:
    """Say a mistake the loader can go on past: raised (a build stops at the first), or recorded
    when `collecting`."""
    mistakes = _collected.get()
    if mistakes is None:
        raise error
    mistakes.add(error)


def mistakes_said() -> int:
    """How many mistakes `collecting` has recorded so far (0 when not collecting: a build)."""
    mistakes = _collected.get()
    return len(mistakes) if mistakes is not None else 0


class Step:
    """One step `carry_on` went through: `failed` when it stopped at a mistake that was recorded."""

    failed = False


class Stopped(Exception):
    """A step that cannot go on, its mistakes `report`ed already: `carry_on` ends it quietly. (Only
    a check gets here: otherwise `report` raised the first mistake.)"""


@contextmanager
def carry_on() -> Iterator[Step]:
    """A step (a card, a component) that a mistake stops but the loading goes on after: when
    `collecting`, the mistake is recorded and the code after the block runs (`step.failed` says
    so); otherwise the mistake is raised as it was."""
    step = Step()
    try:
        yield step
    except Stopped:
        step.failed = True
    except DeckError as error:
        mistakes = _collected.get()
        if mistakes is None:
            raise
        mistakes.add(error)
        step.failed = True


#: every kind of warning, a short stable word a script can test for, and what it means
WARNING_KINDS = {
    "text-overflow": "text that does not fit its box, even at its smallest size",
    "small-text": "text set below the deck's `min-size` (6 pt unless the deck says otherwise)",
    "missing-glyph": "a character no font has: it would print as an empty box",
    "markup": "markup that prints other than meant: a `**` or `*` never closed, a span's `{…}` without its `[…]`, "
              "an `:icon` without its closing colon",
    "low-resolution": "a picture printed below 300 dpi (below 150 dpi it will look blurred)",
    "art": "SVG or PDF art that does not print as it was drawn: a font the deck lacks, flowed text, a picture left out",
    "unused-translation": "a translated text no card uses",
    "cached-cards": "a card list at a web address that could not be fetched: the copy kept by an earlier build "
                    "is used, and the warning says how old it is",
    "box-too-big": "a tuck box that fits no paper, even in two parts: no box file is written",
    "left-out": "pieces a print service's file leaves out (boards and pawns in a DriveThruCards PDF)",
    "no-canvas": "pieces a print service's preset has no canvas for: written with their bleed instead",
    "flattened": "card sides with transparency printed as pictures in a PDF/X file, which allows none (DriveThruCards)",
    "safe-zone": "text closer to the trim than a print service's safe zone",
    "outside-shape": "text or a picture reaching outside a shaped piece's safe area (its outline less 3 mm), "
                     "where the cut may take it off",
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


class ArtError(ValueError):
    """Art that cannot be drawn: `reason` says why without naming the file (messages name it).
    Here, not in `svgfile`, so that what catches it need not import the SVG reader (and lxml)."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"art '{Path(path).name}' {reason}")
        self.reason = reason
