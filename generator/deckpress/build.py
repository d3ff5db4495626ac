"""Which files a deck produces, and producing them.

For each paper and ink, a deck gives (`<id>` is the deck id, `-lowink` marks the low-ink build,
`-cmyk` the colour build in process colours for print shops):

    <id>-cards[-lowink|-cmyk]-<paper>.pdf        card fronts
    <id>-backs[-lowink|-cmyk]-<paper>.pdf        their backs, mirrored for long-edge duplex
    <id>-duplex[-lowink|-cmyk]-<paper>.pdf       front page, back page, … for duplex printers
    <id>-rules-board[-lowink|-cmyk]-<paper>.pdf  rule cards and board pieces (with backs, if they have any)
    <id>-box[-lowink|-cmyk]-<paper>.pdf          a tuck box sized to the deck, to cut out, fold and glue
    <id>-gutterfold[-lowink|-cmyk]-<paper>.pdf   every piece with a back, front and back side by side
                                                 on one sheet, to fold and glue   (--format gutterfold)
    cut/<pdf name>-p<page>.svg                   the cut paths of each front page  (--marks cutter)

Low-ink files are black ink only, without RGB, whatever the colour space: a CMYK build writes them
as they are, not a second copy named `-lowink-cmyk`.

Other formats write per-card files from the same faces (see `generator.outputs`):

    png[-<lang>][-lowink]/<component>-<number>-<name>-<side>.png, manifest.csv   (--format png)
    svg[-<lang>][-lowink]/… .svg, manifest.csv                                 (--format svg)
    tts[-<lang>]/<component>-sheet-<n>.png, back images, <id>.json             (--format tts)
    <id>[-<lang>]-preview.png   every distinct face on one small contact sheet  (--format preview)

`-<lang>` marks a build in one of the deck's translations; images are in colour unless
`Options.image_inks` asks for low-ink too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple
from pathlib import Path

from .compose import Composer
from .compose.tuckbox import CARD_THICKNESS, SLEEVE_THICKNESS, BoxArt, BoxSize, box_size, sleeve_for, tuck_box
from .errors import DeckError, Warnings
from .face import Face
from .backends.pdfpages import write_document
from .backends.svg import write_cut_file
from .impose.document import DocInfo, Sheet, furnish
from .impose.gutterfold import plan_gutterfold
from .impose.marks import MARK_MODES, room_for
from .impose.sheets import PAPERS, PagePlan, Room, plan_piece, plan_sheets, plan_single
from .ink import COLORS, INKS, apply_ink
from .model import Deck, load_deck
from .model.deck import SHEETS
from .outputs.cardimages import PRESETS, preset_bleed, write_card_images
from .outputs.preview import write_preview
from .outputs.sides import Entry, distinct_faces
from .outputs.tts import write_tts

FORMATS = ("pdf", "gutterfold", "png", "svg", "tts", "preview")
IMAGE_FORMATS = ("png", "svg")  # one set per ink asked for; tts and preview are for screens: colour


@dataclass(frozen=True)
class Options:
    """What to make besides the paper and ink: formats and their settings."""

    formats: tuple[str, ...] = ("pdf",)
    dpi: int = 300  # PNG resolution (a preset sets its own)
    preset: str | None = None  # a print service's card files: mpc | tgc
    outline_text: bool = False  # SVG text as paths
    tts_base_url: str | None = None  # where the TTS images will be hosted
    color: str = "rgb"  # the colour build's colour space: rgb, or cmyk for print shops
    image_inks: tuple[str, ...] = ("color",)  # PNG/SVG sets: screens and print services want colour
    sleeves: str | tuple[float, float] | None = None  # the box holds sleeved cards: "auto" or the sleeve's size
    sleeve_thickness: float = SLEEVE_THICKNESS  # what a sleeve adds to a card's thickness
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm every back page is shifted by (see settings.py)
    marks: str = "corners"  # how sheets are marked for cutting: impose.marks.MARK_MODES
    back_marks: bool = False  # back pages marked too (they are cut from their fronts, so not by default)

Sides = list[tuple[Face, Face | None]]


@dataclass
class Output:
    path: Path
    pages: int  # pages of a PDF; 0 for other files


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


def card_entries(deck: Deck, warn: Warnings) -> list[Entry]:
    """Every line of every component's card list, composed once, with its copy count."""
    composer = Composer(deck, warn)
    entries = []
    for component in deck.components:
        width = max(2, len(str(len(component.cards))))
        for card in component.cards:
            name = deck.translate.optional(card.name) if deck.translate else card.name
            entries.append(Entry(component.name, card.number, name, card.count * component.copies,
                                 composer.face(card, component.front),
                                 composer.face(card, component.back) if component.back else None, width))
    if deck.translate is not None:
        deck.translate.check()
    return entries


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


class Page(NamedTuple):
    """A page of a file before it is labelled: its plan, a note for its label, and whether it is
    the back of another page."""

    plan: PagePlan[Face]
    note: str = ""
    back: bool = False


Pages = list[Page]


def plan_deck(deck: Deck, out_dir: Path, papers: Sequence[str], inks: Sequence[str],
              warn: Warnings, formats: Sequence[str] = ("pdf",), color: str = "rgb",
              options: Options = Options()) -> list[Job]:
    """Every PDF the deck gives (the sheets and the tuck box for "pdf", the fold-and-glue sheets
    for "gutterfold"), for each paper and ink, with its pages laid out; the colour build in `color`
    ("rgb" or "cmyk"). Sheets are marked and laid out for `options.marks`; back pages are shifted by
    `options.back_offset` mm (a gutterfold sheet has none)."""
    if not {"pdf", "gutterfold"} & set(formats):
        return []
    sides = compose_deck(deck, warn)
    room = room_for(options.marks)
    jobs: list[Job] = []
    for paper in papers:
        for ink in inks:
            convert = _InkCache(ink, color)
            variant = "cmyk" if (ink, color) == ("color", "cmyk") else ink
            if "pdf" in formats:
                for sheet, pairs in sides.items():
                    inked = [(convert(front), convert(back, back=True)) for front, back in pairs]
                    for kind, pages, duplex in sheet_files(sheet, inked, paper, deck.bleed, room):
                        jobs.append(_job(deck, out_dir, paper, variant, kind, pages, duplex, options))
                jobs += box_jobs(deck, out_dir, paper, variant, sides, convert, options, warn)
            if "gutterfold" in formats:
                jobs += gutterfold_jobs(deck, out_dir, paper, variant, sides, convert, options)
    return jobs


def gutterfold_jobs(deck: Deck, out_dir: Path, paper: str, variant: str, sides: dict[str, Sides],
                    convert: _InkCache, options: Options = Options()) -> list[Job]:
    """The gutterfold file of one paper and variant (see `_job`), if any piece has a back: cards,
    then rule cards. A folded sheet is cut by hand: it has crop marks where others have a cutting
    machine's.

    Pieces without a back are left out (they gain nothing from a fold, and the cards and
    rules-board files have them), and so are boards bigger than half a page (tiled in rules-board)."""
    pairs = [(convert(front), convert(back, back=True)) for sheet in SHEETS for front, back in sides[sheet]
             if back is not None]
    pages = plan_gutterfold(pairs, _size, paper, deck.bleed)
    if options.marks == "cutter":
        options = replace(options, marks="corners")
    return [_job(deck, out_dir, paper, variant, "gutterfold", [Page(p) for p in pages], False, options)] \
        if pages else []


#: the few words a box prints, in the languages decks are written in (others get English)
BOX_WORDS = {"en": ("players", "cards", "made with deckpress"),
             "de": ("Personen", "Karten", "erstellt mit deckpress")}


def box_contents(deck: Deck) -> int:
    """How many pieces go in the box: every one of the deck's card size (cards, rule cards,
    card-sized board pieces); boards and pawns of other sizes stay out."""
    card = (deck.size.width, deck.size.height)
    return sum(c.card_count for c in deck.components if (c.size.width, c.size.height) == card)


def box_jobs(deck: Deck, out_dir: Path, paper: str, variant: str, sides: dict[str, Sides], convert: _InkCache,
             options: Options, warn: Warnings) -> list[Job]:
    """The deck's tuck box on one paper: one page, or two parts with glue tabs when the net does
    not fit; a warning, and no file, when even the parts do not. The deck's cover card's front
    (`Deck.cover`) is on its front and that card's back (or, failing that, the first back there is)
    on its back."""
    count = box_contents(deck)
    cover = deck.cover()
    if not deck.box or cover is None or count == 0:
        return []
    size = _box_size(deck, count, options)
    composer = Composer(deck, warn)
    component, card = cover
    front = composer.face(card, component.front)
    back = composer.face(card, component.back) if component.back else next(
        (b for pairs in sides.values() for _, b in pairs if b is not None), None)
    players, cards, credit = BOX_WORDS.get(deck.lang, BOX_WORDS["en"])
    title = deck.translate(deck.title, (deck.file, 1)) if deck.translate else deck.title
    details = ((f"{deck.players} {players}",) if deck.players else ()) + (
        f"{count} {cards}", deck.name(deck.license), credit)
    art = BoxArt(title, deck.name(deck.designer), details, convert(front), convert(back, back=True),
                 deck.names.fonts)
    room = room_for(options.marks)
    for parts in (1, 2):
        nets = tuck_box(size, art, parts)
        plans = [plan_piece(n.face, n.face.width, n.face.height, paper, n.outline, room) for n in nets]
        if all(plans):
            pages = [Page(p, n.name if parts > 1 else "") for p, n in zip(plans, nets)]
            return [_job(deck, out_dir, paper, variant, "box", pages, False, options)]
    warn(f"the tuck box ({size.width:g} × {size.height:g} × {size.depth:g} mm) does not fit on {paper} paper, "
         "even in two parts: no box file")
    return []


def _box_size(deck: Deck, count: int, options: Options) -> BoxSize:
    """The box for `count` of the deck's cards, in the sleeves `options` asks for, if any."""
    card_w, card_h, thickness = deck.size.width, deck.size.height, CARD_THICKNESS
    if options.sleeves is not None:
        try:
            card_w, card_h = sleeve_for(card_w, card_h) if options.sleeves == "auto" else options.sleeves
        except ValueError as exc:
            raise DeckError(f"--sleeves auto: {exc}", deck.file) from None
        if card_w < deck.size.width or card_h < deck.size.height:
            raise DeckError(f"sleeves of {card_w:g}×{card_h:g} mm are smaller than the deck's "
                            f"{deck.size.width:g}×{deck.size.height:g} mm cards", deck.file,
                            suggestion="--sleeves auto")
        thickness += options.sleeve_thickness
    return box_size(card_w, card_h, count, thickness)


DRIVETHRU = "drivethru"
DRIVETHRU_BLEED = 25.4 / 8  # 1/8 in on every side, built into the page (print-specs.md §2)


def drivethru_job(deck: Deck, out_dir: Path, warn: Warnings) -> Job:
    """A DriveThruCards-style card PDF: one page per card side, each card's front then its back,
    every copy; the page is the trim plus 1/8 in bleed, with TrimBox and BleedBox and no marks,
    in CMYK with black text in black ink only. Pieces of another size than the deck's cards
    (boards, pawns) are left out, and a card without a back gets a blank one."""
    deck = replace(deck, bleed=DRIVETHRU_BLEED)
    convert = _InkCache("color", "cmyk")
    w, h = deck.size.width, deck.size.height
    blank = Face(w, h, deck.bleed)
    sheets, skipped = [], []
    for pairs in compose_deck(deck, warn).values():
        for front, back in pairs:
            if (front.width, front.height) != (w, h):
                skipped.append(front)
                continue
            for side in (convert(front), convert(back, back=True) or blank):
                sheets.append(plan_single(side, w, h, deck.bleed))
    if skipped:
        warn(f"{len(skipped)} piece{'s' if len(skipped) != 1 else ''} not {w:g}×{h:g} mm (boards, pawns) "
             "left out of the DriveThruCards file: print them from the rules-board PDF")
    return _job(deck, out_dir, None, "cmyk", DRIVETHRU, [Page(p) for p in sheets], False, Options(marks="none"))


def sheet_files(sheet: str, sides: Sides, paper: str, bleed: float,
                room: Room = Room()) -> list[tuple[str, Pages, bool]]:
    """The files of one sheet kind: (kind, pages, duplex?), the pieces laid out in `room`.

    Cards give fronts, backs and an interleaved duplex file; rules and boards one file, interleaved
    with their backs if they have any."""
    if not sides:
        return []
    fronts, backs = plan_sheets(sides, _size, paper, bleed, room)
    if sheet == "rules-board":
        return [("rules-board", _interleave(fronts, backs) if backs else [Page(p) for p in fronts], bool(backs))]
    files = [("cards", [Page(p) for p in fronts], False)]
    if backs:
        files.append(("backs", [Page(p, f"backs of page {i}", True) for i, p in enumerate(backs, start=1)], False))
        files.append(("duplex", _interleave(fronts, backs), True))
    return files


def _size(face: Face) -> tuple[float, float]:
    return (face.width, face.height)


_COLOR_SPACE = {"color": "rgb", "cmyk": "cmyk", "lowink": "k"}  # of each variant's documents


def _job(deck: Deck, out_dir: Path, paper: str | None, variant: str, kind: str, pages: Pages, duplex: bool,
         options: Options = Options()) -> Job:
    """`variant`: "color", "lowink" or "cmyk" (the colour build in process colours). Files for
    a print service (`paper` None) are named by their kind alone. Pages are marked as `options`
    says, and back pages shifted by its back offset (files without any keep (0, 0), so their info
    says no shift)."""
    lang = _lang(deck)
    if paper is None:
        name = f"{deck.id}{lang}-{kind}.pdf"
    else:
        name = f"{deck.id}{lang}-{kind}{'' if variant == 'color' else '-' + variant}-{paper}.pdf"
    title = deck.translate(deck.title, (deck.file, 1)) if deck.translate else deck.title
    designer, licence = deck.name(deck.designer), deck.name(deck.license)
    info = DocInfo(title=f"{title} — {kind.replace('-', ' ')}", author=designer,
                   subject=f"{title} by {designer}, {licence}. Made with deckpress.",
                   duplex=duplex, colors=_COLOR_SPACE[variant], marks=options.marks, back_marks=options.back_marks,
                   back_offset=options.back_offset if any(page.back for page in pages) else (0.0, 0.0))
    return Job(out_dir / deck.id / name, labelled(pages, title, name), info)


def _lang(deck: Deck) -> str:
    """What marks a file or folder of a build in one of the deck's translations: `-en`, or ""."""
    return f"-{deck.lang}" if deck.translate else ""


def labelled(pages: Pages, title: str, file_name: str) -> list[Sheet]:
    """Each page with the label printed in its margin: what it belongs to, which file, which page."""
    n = len(pages)
    return [Sheet(page.plan, f"{title} · {file_name} · page {i}/{n}" + (f" · {page.note}" if page.note else ""),
                  page.back) for i, page in enumerate(pages, start=1)]


def _interleave(fronts: list[PagePlan[Face]], backs: list[PagePlan[Face]]) -> Pages:
    pages: Pages = []
    for i, (front, back) in enumerate(zip(fronts, backs), start=1):
        pages += [Page(front, f"fronts {i}"), Page(back, f"backs {i}", True)]
    return pages


def build_deck(ref: str | Path, out_dir: str | Path, papers: Sequence[str] = tuple(PAPERS),
               inks: Sequence[str] = INKS, progress: Callable[[int], None] | None = None,
               on_plan: Callable[[int], None] | None = None, players: int | None = None,
               lang: str | None = None, options: Options = Options()) -> DeckBuild:
    """Build every file of one deck. `on_plan` hears how many pages and images are to come,
    `progress` each one done. `players` is how many per-player sets to print (default: the most
    the deck allows); `lang` the language to print in (default: the deck's own)."""
    if options.color not in COLORS:
        raise ValueError(f"color must be one of {COLORS}, not {options.color!r}")
    if options.marks not in MARK_MODES:
        raise ValueError(f"marks must be one of {MARK_MODES}, not {options.marks!r}")
    deck = load_deck(ref, players, lang)
    out_dir = Path(out_dir)  # a str from a script works too
    result = DeckBuild(deck)
    jobs = plan_deck(deck, out_dir, papers, inks, result.warnings, options.formats, options.color, options)
    if options.preset == DRIVETHRU:
        jobs.append(drivethru_job(deck, out_dir, result.warnings))
    images = _image_sets(deck, options, result.warnings)
    screen = card_entries(deck, result.warnings) if {"tts", "preview"} & set(options.formats) else []
    distinct = len(distinct_faces(screen))
    if on_plan:
        on_plan(sum(len(j.sheets) for j in jobs) + sum(n for *_, n in images)
                + distinct * sum(k in options.formats for k in ("tts", "preview")))
    result.outputs = write_jobs(jobs, deck.bleed, progress)
    lang = _lang(deck)  # a translation's images beside the original's
    for kind, ink, entries, _ in images:
        folder = out_dir / deck.id / f"{kind}{lang}{'' if ink == 'color' else '-' + ink}"
        for path in write_card_images(entries, folder, kind, result.warnings, dpi=options.dpi,
                                      preset=PRESETS.get(options.preset or ""),
                                      outline_text=options.outline_text, progress=progress):
            result.outputs.append(Output(path, 0))
    card = (deck.size.width, deck.size.height)
    if "tts" in options.formats:
        for path in write_tts(screen, out_dir / deck.id / f"tts{lang}", deck.id + lang, card, options.tts_base_url,
                              progress):
            result.outputs.append(Output(path, 0))
    if "preview" in options.formats:
        path = write_preview(screen, out_dir / deck.id / f"{deck.id}{lang}-preview.png", card[0], progress)
        result.outputs.append(Output(path, 0))
    return result


def _image_sets(deck: Deck, options: Options, warn: Warnings) -> list[tuple[str, str, list[Entry], int]]:
    """The per-card image sets to write: (format, ink, entries, distinct faces).

    A preset's canvas may reach further than the deck's bleed; faces are then composed again with
    the bleed it needs, which backgrounds drawn into the bleed follow."""
    kinds = [k for k in options.formats if k in IMAGE_FORMATS]
    if not kinds:
        return []
    if options.preset in PRESETS:
        needed = preset_bleed(PRESETS[options.preset], (deck.size.width, deck.size.height))
        deck = replace(deck, bleed=max(deck.bleed, round(needed + 0.005, 2)))
    composed = card_entries(deck, warn)
    sets = []
    for ink in options.image_inks:
        convert = _InkCache(ink)
        entries = [replace(e, front=convert(e.front), back=convert(e.back, back=True)) for e in composed]
        sets += [(kind, ink, entries, len(distinct_faces(entries))) for kind in kinds]
    return sets


def write_jobs(jobs: Sequence[Job], bleed: float, progress: Callable[[int], None] | None = None,
               on_plan: Callable[[int], None] | None = None) -> list[Output]:
    """Write the PDFs one by one; `on_plan` hears the number of pages to come, `progress` each page."""
    if on_plan:
        on_plan(sum(len(j.sheets) for j in jobs))
    outputs = []
    for job in jobs:
        write_document(job.path, furnish(job.sheets, job.info, bleed), job.info, progress)
        outputs.append(Output(job.path, len(job.sheets)))
        if job.info.marks == "cutter":
            outputs += [Output(path, 0) for path in write_cut_files(job)]
    return outputs


def write_cut_files(job: Job) -> list[Path]:
    """The cut paths of every front page of a cutter file, one SVG each, in `cut/` beside it:
    `<pdf name>-p<page>.svg`, the page being the PDF's (a duplex file's are odd)."""
    folder = job.path.parent / "cut"
    return [write_cut_file(folder / f"{job.path.stem}-p{n}.svg", sheet.plan, sheet.label)
            for n, sheet in enumerate(job.sheets, start=1) if not sheet.back and sheet.plan.placements]
