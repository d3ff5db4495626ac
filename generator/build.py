"""Which files a deck produces, and producing them.

For each paper and ink, a deck gives (`<id>` is the deck id, `-lowink` marks the low-ink build,
`-cmyk` the colour build in process colours for print shops):

    <id>-cards[-lowink|-cmyk]-<paper>.pdf        card fronts
    <id>-backs[-lowink|-cmyk]-<paper>.pdf        their backs, mirrored for long-edge duplex
    <id>-duplex[-lowink|-cmyk]-<paper>.pdf       front page, back page, … for duplex printers
    <id>-rules-board[-lowink|-cmyk]-<paper>.pdf  rule cards and board pieces (with backs, if they have any)

Low-ink files are black ink only, without RGB, whatever the colour space: a CMYK build writes them
as they are, not a second copy named `-lowink-cmyk`.
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
from .ink import COLORS, INKS, apply_ink
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
class _Job:
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
    """Each distinct face converted once per ink and colour space."""

    def __init__(self, ink: str, color: str = "rgb") -> None:
        self.ink, self.color = ink, color
        self.cache: dict[tuple[Face, bool], Face] = {}

    def __call__(self, face: Face | None, back: bool = False) -> Face | None:
        if face is None or (self.ink, self.color) == ("color", "rgb"):
            return face
        key = (face, back)
        if key not in self.cache:
            self.cache[key] = apply_ink(face, self.ink, back, self.color)
        return self.cache[key]


Pages = list[tuple[PagePlan[Face], str]]  # each page's plan and a note for its label


def plan_deck(deck: Deck, out_dir: Path, papers: Sequence[str], inks: Sequence[str],
              warn: Warnings, color: str = "rgb") -> list[_Job]:
    """Every PDF the deck gives, for each paper and ink, with its pages laid out; the colour
    build in `color` ("rgb" or "cmyk")."""
    sides = compose_deck(deck, warn)
    jobs: list[_Job] = []
    for paper in papers:
        for ink in inks:
            convert = _InkCache(ink, color)
            variant = "cmyk" if (ink, color) == ("color", "cmyk") else ink
            for sheet, pairs in sides.items():
                inked = [(convert(front), convert(back, back=True)) for front, back in pairs]
                for kind, pages, duplex in _files(sheet, inked, paper, deck.bleed):
                    jobs.append(_job(deck, out_dir, paper, variant, kind, pages, duplex))
    return jobs


def _files(sheet: str, sides: Sides, paper: str, bleed: float) -> list[tuple[str, Pages, bool]]:
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


_COLOR_SPACE = {"color": "rgb", "cmyk": "cmyk", "lowink": "k"}  # of each variant's documents


def _job(deck: Deck, out_dir: Path, paper: str, variant: str, kind: str, pages: Pages, duplex: bool) -> _Job:
    """`variant`: "color", "lowink" or "cmyk" (the colour build in process colours)."""
    lang = f"-{deck.lang}" if deck.translate else ""
    name = f"{deck.id}{lang}-{kind}{'' if variant == 'color' else '-' + variant}-{paper}.pdf"
    title = deck.translate(deck.title, (deck.file, 1)) if deck.translate else deck.title
    n = len(pages)
    sheets = [Sheet(plan, f"{title} · {name} · page {i}/{n}" + (f" · {note}" if note else ""))
              for i, (plan, note) in enumerate(pages, start=1)]
    designer, licence = deck.name(deck.designer), deck.name(deck.license)
    info = DocInfo(title=f"{title} — {kind.replace('-', ' ')}", author=designer,
                   subject=f"{title} by {designer}, {licence}. Made with deckpress.",
                   duplex=duplex, colors=_COLOR_SPACE[variant])
    return _Job(out_dir / deck.id / name, sheets, info)


def _interleave(fronts: list[PagePlan[Face]], backs: list[PagePlan[Face]]) -> Pages:
    pages: Pages = []
    for i, (front, back) in enumerate(zip(fronts, backs), start=1):
        pages += [(front, f"fronts {i}"), (back, f"backs {i}")]
    return pages


def build_deck(ref: str | Path, out_dir: Path, papers: Sequence[str] = tuple(PAPERS),
               inks: Sequence[str] = INKS, progress: Callable[[int], None] | None = None,
               on_plan: Callable[[int], None] | None = None, players: int | None = None,
               lang: str | None = None, color: str = "rgb") -> DeckBuild:
    """Build every file of one deck. `on_plan` hears the number of pages to come, `progress` each page.
    `players` is how many per-player sets to print (default: the most the deck allows); `lang` the
    language to print in (default: the deck's own); `color` the colour build's colour space, one of
    COLORS ("cmyk": process colours for print shops)."""
    if color not in COLORS:
        raise ValueError(f"color must be one of {COLORS}, not {color!r}")
    deck = load_deck(ref, players, lang)
    result = DeckBuild(deck)
    jobs = plan_deck(deck, out_dir, papers, inks, result.warnings, color)
    if on_plan:
        on_plan(sum(len(j.sheets) for j in jobs))
    for job in jobs:
        write_sheets(job.path, job.sheets, job.info, deck.bleed, progress)
        result.outputs.append(Output(job.path, len(job.sheets)))
    return result
