"""Reprinting only what changed since a printing: `deckpress build --changed-since REPORT.json`.

A build's report records each card-list entry with a digest of its front and of its back
(`outputs.digests.side_records`). A later build compares its own against them (`changes`): an entry is found
again by its component, its name and which of the entries of that name it is (so cards added or
taken out elsewhere in the list do not make the rest look changed), and it has changed when what
it looks like has: its drawing list, with the files it reads (pictures, art, fonts) by the
digest of their bytes, not their paths, so a deck moved to another folder or machine compares
alike. The update file (`update_jobs`) prints, after a page listing what was added, removed and
changed, every piece that was added or changed, front and back, in as many copies as the deck
has: a reprinted card replaces the old one whole, since a front printed alone would leave its
back blank.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..colors import BLACK
from ..face import Face, Group
from ..model import Deck
from ..model.deck import SHEETS
from ..outputs.digests import SideRecord
from ..text import TextStyle, escape, set_text
from ..units import PT, paper_size
from .faces import DeckFaces
from .jobs import Job, Page, deck_job, piece_page, sheet_files
from .plan import Options, Variant, printed_title

UPDATE = "update"  #: the kind of file, in its name: `<deck>-update-<paper>.pdf`
LIST_MARGIN = 15.0  #: mm round the page that lists the changes


@dataclass(frozen=True)
class Changes:
    """What changed between an earlier printing and this build, each by its record; `changed`
    with which sides did ("front", "back", "front and back")."""

    since: str  # the report compared with, as the user named it
    added: tuple[SideRecord, ...] = ()
    removed: tuple[SideRecord, ...] = ()
    changed: tuple[tuple[SideRecord, str], ...] = ()

    @property
    def reprinted(self) -> set[tuple[str, int]]:
        """The entries the update file prints: (component, number)."""
        return {(r.component, r.number) for r in self.added} | {(r.component, r.number) for r, _ in self.changed}

    def summary(self) -> str:
        """`2 changed, 1 added, 1 removed` (or `nothing changed`)."""
        parts = [f"{len(group)} {word}" for group, word in
                 ((self.changed, "changed"), (self.added, "added"), (self.removed, "removed")) if group]
        return ", ".join(parts) if parts else "nothing changed"

    def to_json(self) -> dict[str, Any]:
        return {"since": self.since, "added": [r.label for r in self.added],
                "removed": [r.label for r in self.removed],
                "changed": [{"card": r.label, "sides": sides} for r, sides in self.changed]}


def changes(old: Sequence[SideRecord], new: Sequence[SideRecord], since: str) -> Changes:
    """The entries of `new` that `old` (an earlier report's) lacks or shows otherwise, and those of
    `old` gone from `new`, each kind in card-list order.

    Entries are matched within their component and name (cards without a name as one group):
    first those that look the same (the
    two red halves that swapped places, or all but the one taken out, are not changes), then the
    rest in list order (a card edited); what is left over was added or removed."""
    groups: dict[tuple[str, str], tuple[list[SideRecord], list[SideRecord]]] = {}
    for index, records in enumerate((old, new)):
        for record in records:
            groups.setdefault(_key(record), ([], []))[index].append(record)
    added: list[SideRecord] = []
    removed: list[SideRecord] = []
    changed: list[tuple[SideRecord, str]] = []
    for before, after in groups.values():
        looks = [(r.front, r.back) for r in before]
        left = []
        for record in after:
            if (record.front, record.back) in looks:  # the same card, wherever it is now
                looks[looks.index((record.front, record.back))] = None  # type: ignore[call-overload]
            else:
                left.append(record)
        gone = [r for r, look in zip(before, looks) if look is not None]
        for was, record in zip(gone, left):
            changed.append((record, " and ".join(side for side in ("front", "back")
                                                 if getattr(was, side) != getattr(record, side))))
        added += left[len(gone):]
        removed += gone[len(left):]
    order = {(r.component, r.number): i for i, r in enumerate(new)}
    before_order = {(r.component, r.number): i for i, r in enumerate(old)}
    return Changes(since, tuple(sorted(added, key=lambda r: order[r.component, r.number])),
                   tuple(sorted(removed, key=lambda r: before_order[r.component, r.number])),
                   tuple(sorted(changed, key=lambda c: order[c[0].component, c[0].number])))


def update_jobs(faces: DeckFaces, found: Changes, out_dir: Path, papers: Sequence[str], inks: Sequence[str],
                options: Options) -> list[Job]:
    """The update file for each paper and ink: the change list, then each added or changed piece
    (front and back, every copy) on the sheets its component prints on. None when nothing is to
    be printed and nothing was removed."""
    deck, marking = faces.deck, options.marking
    if not (found.reprinted or found.removed):
        return []
    wanted = found.reprinted
    gap = deck.gap if options.gap is None else options.gap
    jobs = []
    for paper in papers:
        for ink in inks:
            inked = faces.inked(Variant.of(ink, options.color), options.separation)
            listing = piece_page(_list_face(deck, found, paper), (), paper, "none")
            pages = [Page(listing, "what changed")] if listing is not None else []
            duplex = False
            for sheet in SHEETS:
                kept = [(pair, design) for pair, design, (_, entry)
                        in zip(faces.sides[sheet], faces.back_designs[sheet], faces.pieces[sheet])
                        if (entry.component, entry.number) in wanted]
                sides = [pair for pair, _ in kept]
                files = {kind: (kind_pages, both) for kind, kind_pages, both in
                         sheet_files(sheet, inked.sides(sides), paper, deck.bleed, marking.marks, gap,
                                     marking.cutter, margins=marking.margins, flip=marking.flip,
                                     designs=[design for _, design in kept])}
                kind_pages, both = files.get("duplex") or files.get("cards") or files.get("rules-board") or ([], False)
                if both and listing is not None and not duplex:  # the list's back blank: fronts start a sheet
                    pages.append(Page(_blank(deck, paper), "back of the list: blank", True))
                duplex = duplex or both
                pages += kind_pages
            jobs.append(deck_job(deck, out_dir, paper, inked.variant, UPDATE, pages, duplex, marking))
    return jobs


def _blank(deck: Deck, paper: str) -> Any:
    """A page with nothing on it but its label."""
    W, H = paper_size(paper)
    return piece_page(Face(W - 2 * LIST_MARGIN, H - 2 * LIST_MARGIN, 0.0), (), paper, "none")


def _list_face(deck: Deck, found: Changes, paper: str) -> Face:
    """The page that says what changed: a face the size of the paper less its margins."""
    W, H = paper_size(paper)
    w, h = W - 2 * LIST_MARGIN, H - 2 * LIST_MARGIN
    fonts = deck.names.fonts
    family = fonts.families["sans"]
    title = f"**{escape(printed_title(deck))}** — what changed since {escape(Path(found.since).name)}"
    if deck.version:
        title += f" (now version {escape(deck.version)})"
    groups = [
        (found.changed, "Changed", "reprinted here: put them in place of the old ones",
         [f"{r.label} ({sides})" for r, sides in found.changed]),
        (found.added, "Added", "new cards, printed here", [r.label for r in found.added]),
        (found.removed, "Removed", "take these out of the deck", [r.label for r in found.removed]),
    ]
    paragraphs = [title, found.summary().capitalize() + "."]
    for group, heading, what, names in groups:
        if group:
            paragraphs.append(f"**{heading} ({len(group)})**, {what}:")
            paragraphs.append("; ".join(escape(name) for name in names) + ".")
    style = TextStyle(family, size=11 * PT, min_size=6 * PT, color=BLACK, line_height=1.35)
    fitted = set_text("\n".join(paragraphs), (0.0, 0.0, w, h), style, fonts)
    return Face(w, h, 0.0, (Group(tuple(fitted.items)),))


def _key(record: SideRecord) -> tuple[str, str]:
    """What an entry is matched by: its component and its name (the cards without one together)."""
    return (record.component, record.name)
