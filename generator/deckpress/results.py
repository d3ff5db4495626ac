"""What the API's functions return: `DeckListing` (`list_decks`), `CheckResult` (`check`), and the
`Report` of a build or a check, deck by deck (`DeckSummary`: the summary lines, the JSON of
`--report`).

Apart from `deckpress.api` so that importing the API, which `deckpress --help` does, makes no
dataclass: each costs about 0.7 ms to make (it compiles its generated methods), and these are
needed only once a command has run. `deckpress.api` re-exports them on first use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import DeckWarning, Warnings, display_path

if TYPE_CHECKING:
    from .builder.plan import DeckBuild
    from .model import Deck


@dataclass(frozen=True)
class DeckListing:
    """A deck `list_decks` found: `ref` is what to pass to `build`, `check` or `load_deck` (the id
    of a bundled deck, the path of a local one); `file` its deck.yaml."""

    ref: str
    file: Path
    bundled: bool


@dataclass
class CheckResult:
    """What `check` found: the deck as loaded (in its own language), how many cards it prints, how
    many distinct card faces they show, the languages it is in, and warnings (text that had to
    shrink, translations no card uses, …)."""

    deck: Deck
    cards: int
    faces: int
    languages: list[str]
    warnings: Warnings = field(default_factory=Warnings)


@dataclass(frozen=True)
class DeckSummary:
    """One deck, in one language, as a build or a check reports it: its id, title and language
    (the one printed), how many cards and distinct faces it prints, its warnings, and for a build
    the pages and files written (None for a check, which writes nothing). `languages`: every
    language the deck is in."""

    id: str
    title: str
    language: str
    languages: tuple[str, ...]
    cards: int
    faces: int
    warnings: tuple[DeckWarning, ...]
    pages: int | None = None
    files: tuple[str, ...] | None = None  # as displayed: relative to the working folder when inside it
    # a build's: each card-list entry with digests of its sides (what `--changed-since` compares),
    # and for an update build, what changed since the report it was given
    sides: tuple[dict[str, Any], ...] = ()
    changes: dict[str, Any] | None = None
    left_out: tuple[str, ...] = ()  # the cards with `count: 0`, by name: printed nowhere

    @classmethod
    def of(cls, result: DeckBuild | CheckResult) -> DeckSummary:
        deck, warnings = result.deck, tuple(result.warnings)
        left_out = tuple(card.name or card.label for component in deck.components for card in component.left_out)
        if isinstance(result, CheckResult):
            return cls(deck.id, deck.title, deck.lang, tuple(result.languages), result.cards, result.faces, warnings,
                       left_out=left_out)
        from .builder.plan import printed_title

        return cls(deck.id, printed_title(deck), deck.lang, tuple(deck.languages), deck.card_count(), result.faces,
                   warnings, sum(o.pages for o in result.outputs), tuple(display_path(o.path) for o in result.outputs),
                   tuple(side.to_json() for side in result.sides),
                   result.changes.to_json() if result.changes is not None else None, left_out=left_out)

    @property
    def checked(self) -> bool:
        """A check's summary (nothing written), not a build's."""
        return self.files is None

    def line(self) -> str:
        """One line: a build's `kanon (de): 54 cards, 20 distinct faces, 14 pages in 10 files,
        2 warnings` (the language named when the deck has several), a check's `kanon: ok — 54 cards,
        20 distinct faces in de, en`; then the cards left out (`count: 0`) by name, and how many warnings."""
        counts = f"{counted(self.cards, 'card')}, {counted(self.faces, 'distinct face')}"
        warnings = left_out_note(self.left_out) + (f", {counted(len(self.warnings), 'warning')}" if self.warnings
                                                   else "")
        several = len(self.languages) > 1
        if self.checked:
            return f"{self.id}: ok — {counts}{' in ' + ', '.join(self.languages) if several else ''}{warnings}"
        if self.changes is not None:  # an update build: what changed, then what was written
            counts = ", ".join(f"{len(self.changes[k])} {k}" for k in ("changed", "added", "removed")
                               if self.changes[k]) or "nothing changed"
            counts += f" since {Path(self.changes['since']).name}"
        return (f"{self.id}{f' ({self.language})' if several else ''}: {counts}, "
                f"{counted(self.pages or 0, 'page')} in {counted(len(self.files or ()), 'file')}{warnings}")

    def to_json(self) -> dict[str, Any]:
        """id, title, language, (a check's languages), cards, faces, (a build's pages and files), warnings,
        (left_out), and a build's (changes) and sides."""
        data: dict[str, Any] = {"id": self.id, "title": self.title, "language": self.language}
        if self.checked:
            data["languages"] = list(self.languages)
        data.update(cards=self.cards, faces=self.faces)
        if not self.checked:
            data.update(pages=self.pages, files=list(self.files or ()))
        data["warnings"] = [w.to_json() for w in self.warnings]
        if self.left_out:
            data["left_out"] = list(self.left_out)
        if not self.checked:
            if self.changes is not None:
                data["changes"] = self.changes
            if self.sides:  # recorded when asked for (`build(sides=True)`, `--report`)
                data["sides"] = list(self.sides)
        return data


@dataclass(frozen=True)
class Report:
    """What a build or a check did, deck by deck: `deckpress build/check --report FILE` writes it
    as JSON (`to_json`), and prints each deck's `line()`."""

    decks: tuple[DeckSummary, ...]
    checked: bool = False  # a check's report: no pages or files
    # for each deck (in the order of `decks`), the card lists it read from web addresses: each copy's
    # address, SHA-256 and when it was fetched (`RemoteList.to_json`), so that a build can be made again
    card_lists: tuple[tuple[dict[str, Any], ...], ...] = ()

    @classmethod
    def of(cls, results: Sequence[DeckBuild | CheckResult]) -> Report:
        """The report of `build`'s results or of `check`'s (one each, or several)."""
        return cls(tuple(DeckSummary.of(r) for r in results),
                   bool(results) and all(isinstance(r, CheckResult) for r in results),
                   tuple(tuple(source.to_json() for source in r.deck.card_sources) for r in results))

    @property
    def warnings(self) -> int:
        return sum(len(deck.warnings) for deck in self.decks)

    def totals(self) -> dict[str, int]:
        """Decks (one per language built), cards, distinct faces, for a build pages and files, warnings."""
        totals = {"decks": len(self.decks), "cards": sum(d.cards for d in self.decks),
                  "faces": sum(d.faces for d in self.decks)}
        if not self.checked:
            totals.update(pages=sum(d.pages or 0 for d in self.decks),
                          files=sum(len(d.files or ()) for d in self.decks))
        totals["warnings"] = self.warnings
        return totals

    def to_json(self) -> dict[str, Any]:
        decks = [d.to_json() for d in self.decks]
        for data, lists in zip(decks, self.card_lists):
            if lists:
                data["card_lists"] = list(lists)
        return {"command": "check" if self.checked else "build", "decks": decks, "totals": self.totals()}

    def write(self, path: str | Path) -> None:
        """The report as JSON (UTF-8, keys in a fixed order), written atomically."""
        import json

        from .atomic import write_text

        write_text(Path(path), json.dumps(self.to_json(), ensure_ascii=False, indent=2) + "\n")


def counted(n: int, noun: str) -> str:
    """`1 card`, `2 cards`: a count with its noun."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


#: cards a summary line names when it says which were left out, before saying how many more
LEFT_OUT_SHOWN = 5


def left_out_note(names: Sequence[str]) -> str:
    """`, 2 cards left out (count 0): Stall, Mill` (at most LEFT_OUT_SHOWN names), or "" for none."""
    if not names:
        return ""
    shown = ", ".join(names[:LEFT_OUT_SHOWN])
    more = f" and {len(names) - LEFT_OUT_SHOWN:,} more" if len(names) > LEFT_OUT_SHOWN else ""
    return f", {counted(len(names), 'card')} left out (count 0): {shown}{more}"
