"""Which files a deck produces, and producing them.

For each paper and ink, a deck gives (`<id>` is the deck id, `-lowink` marks the low-ink build):

    <id>-cards[-lowink]-<paper>.pdf        card fronts
    <id>-backs[-lowink]-<paper>.pdf        their backs, mirrored for long-edge duplex
    <id>-duplex[-lowink]-<paper>.pdf       front page, back page, … for duplex printers
    <id>-rules-board[-lowink]-<paper>.pdf  rule cards and board pieces (with backs, if they have any)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .compose import Composer
from .errors import Warnings
from .face import Face
from .impose.pdfsheets import DocInfo, Sheet, write_sheets
from .impose.sheets import PAPERS, PagePlan, plan_sheets
from .ink import INKS, apply_ink
from .model import Deck, load_deck
from .model.deck import SHEETS

Sides = list[tuple[Face, Face | None]]


@dataclass
class Output:
    path: Path
    pages: int


@dataclass
class DeckBuild:
    deck: Deck
    outputs: list[Output] = field(default_factory=list)
    warnings: Warnings = field(default_factory=Warnings)


@dataclass
class Job:
    """One PDF to write."""

    path: Path
    sheets: list[Sheet]
    info: DocInfo


def compose_sides(deck: Deck, composer: Composer, sheet: str) -> Sides:
    """Front and back face of every printed card of a sheet kind, in inventory order
    (each card entry is composed once, however many copies it has)."""
    sides: Sides = []
    for component in deck.components:
        if component.sheet != sheet:
            continue
        for card in component.printed():
            sides.append((composer.face(card, component.front),
                          composer.face(card, component.back) if component.back else None))
    return sides


def compose_deck(deck: Deck, warn: Warnings) -> dict[str, Sides]:
    """Every card side of the deck, by sheet kind, in the language it is printed in; a text
    that has no translation is an error."""
    composer = Composer(deck, warn)
    sides = {sheet: compose_sides(deck, composer, sheet) for sheet in SHEETS}
    if deck.translate is not None:
        deck.translate.check()
    return sides


class _InkCache:
    """Each distinct face converted once per ink."""

    def __init__(self, ink: str) -> None:
        self.ink = ink
        self.cache: dict[tuple[Face, bool], Face] = {}

    def __call__(self, face: Face | None, back: bool = False) -> Face | None:
        if face is None or self.ink == "color":
            return face
        key = (face, back)
        if key not in self.cache:
            self.cache[key] = apply_ink(face, self.ink, back)
        return self.cache[key]


Pages = list[tuple[PagePlan[Face], str]]  # each page's plan and a note for its label


def plan_deck(deck: Deck, out_dir: Path, papers: Sequence[str], inks: Sequence[str],
              warn: Warnings) -> list[Job]:
    """Every PDF the deck gives, for each paper and ink, with its pages laid out."""
    sides = compose_deck(deck, warn)
    jobs: list[Job] = []
    for paper in papers:
        for ink in inks:
            convert = _InkCache(ink)
            for sheet, pairs in sides.items():
                inked = [(convert(front), convert(back, back=True)) for front, back in pairs]
                for kind, pages, duplex in sheet_files(sheet, inked, paper, deck.bleed):
                    jobs.append(_job(deck, out_dir, paper, ink, kind, pages, duplex))
    return jobs


def sheet_files(sheet: str, sides: Sides, paper: str, bleed: float) -> list[tuple[str, Pages, bool]]:
    """The files of one sheet kind: (kind, pages, duplex?).

    Cards give fronts, backs and an interleaved duplex file; rules and boards one file, interleaved
    with their backs if they have any."""
    if not sides:
        return []
    fronts, backs = plan_sheets(sides, _size, paper, bleed)
    if sheet == "rules-board":
        return [("rules-board", _interleave(fronts, backs) if backs else [(p, "") for p in fronts], bool(backs))]
    files = [("cards", [(p, "") for p in fronts], False)]
    if backs:
        files.append(("backs", [(p, f"backs of page {i}") for i, p in enumerate(backs, start=1)], False))
        files.append(("duplex", _interleave(fronts, backs), True))
    return files


def _size(face: Face) -> tuple[float, float]:
    return (face.width, face.height)


def _job(deck: Deck, out_dir: Path, paper: str, ink: str, kind: str, pages: Pages, duplex: bool) -> Job:
    lang = f"-{deck.lang}" if deck.translate else ""
    name = f"{deck.id}{lang}-{kind}{'' if ink == 'color' else '-' + ink}-{paper}.pdf"
    title = deck.translate(deck.title, (deck.file, 1)) if deck.translate else deck.title
    designer, licence = deck.name(deck.designer), deck.name(deck.license)
    info = DocInfo(title=f"{title} — {kind.replace('-', ' ')}", author=designer,
                   subject=f"{title} by {designer}, {licence}. Made with deckpress.",
                   duplex=duplex, k_only=ink == "lowink")
    return Job(out_dir / deck.id / name, labelled(pages, title, name), info)


def labelled(pages: Pages, title: str, file_name: str) -> list[Sheet]:
    """Each page with the label printed in its margin: what it belongs to, which file, which page."""
    n = len(pages)
    return [Sheet(plan, f"{title} · {file_name} · page {i}/{n}" + (f" · {note}" if note else ""))
            for i, (plan, note) in enumerate(pages, start=1)]


def _interleave(fronts: list[PagePlan[Face]], backs: list[PagePlan[Face]]) -> Pages:
    pages: Pages = []
    for i, (front, back) in enumerate(zip(fronts, backs), start=1):
        pages += [(front, f"fronts {i}"), (back, f"backs {i}")]
    return pages


def build_deck(ref: str | Path, out_dir: Path, papers: Sequence[str] = tuple(PAPERS),
               inks: Sequence[str] = INKS, progress: Callable[[int], None] | None = None,
               on_plan: Callable[[int], None] | None = None, players: int | None = None,
               lang: str | None = None) -> DeckBuild:
    """Build every file of one deck. `on_plan` hears the number of pages to come, `progress` each page.
    `players` is how many per-player sets to print (default: the most the deck allows); `lang` the
    language to print in (default: the deck's own)."""
    deck = load_deck(ref, players, lang)
    result = DeckBuild(deck)
    jobs = plan_deck(deck, out_dir, papers, inks, result.warnings)
    result.outputs = write_jobs(jobs, deck.bleed, progress, on_plan)
    return result


def write_jobs(jobs: Sequence[Job], bleed: float, progress: Callable[[int], None] | None = None,
               on_plan: Callable[[int], None] | None = None) -> list[Output]:
    """Write the PDFs one by one; `on_plan` hears the number of pages to come, `progress` each page."""
    if on_plan:
        on_plan(sum(len(j.sheets) for j in jobs))
    outputs = []
    for job in jobs:
        write_sheets(job.path, job.sheets, job.info, bleed, progress)
        outputs.append(Output(job.path, len(job.sheets)))
    return outputs
