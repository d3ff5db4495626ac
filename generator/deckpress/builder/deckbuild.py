"""Building one deck: which files it gives for each format, paper and variant, in what order,
and writing them (`build_deck`); several at once (`build_decks`). The names are `plan`'s; the
faces are composed once (`faces`)."""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..atomic import replacing_folder
from ..backends.pdffonts import read_ahead
from ..text import dictionary
from ..errors import DeckError, Warnings
from ..text.fonts import FontSet, open_font
from ..face import Face
from ..vectorart import import_art_readers
from ..imposition.document import Marking
from ..imposition.marks import MARK_MODES
from ..ink import COLORS, INKS
from ..model import Deck, load_deck
from ..model.deck import SHEETS, deck_languages, find_deck
from ..model.selection import select
from ..outputs.digests import side_records
from ..outputs.presets import PRESETS, preset_bleed
from ..outputs.sides import Entry, distinct_faces
from ..separation import FORMULA, Separation
from ..text.shaping import shape
from ..units import HOME_PAPERS
from ..workers import in_order
from .box import box_job, drivethru_box_job
from .factory import FACTORY_BLEED, factory_jobs
from .faces import DeckFaces, Inked, compose_faces
from .flatten import FLATTEN_DPI, Flattener
from .jobs import PDF_X1A, Job, deck_job, fold_pages, sheet_files, single_pages, write_jobs
from .update import changes, update_jobs
from .plan import (DRIVETHRU, DRIVETHRU_BOX, FACTORY, IMAGE_FORMATS, SCREEN_FORMATS, SHEET_FORMATS, DeckBuild, Options, Output,
                   Variant,
                   deck_folder, image_folder, lang_suffix, printed_title)
from .plan import SHOP_FORMATS

DRIVETHRU_BLEED = 25.4 / 8  # 1/8 in on every side, built into the page (print-specs.md §2)


class Composed:
    """The deck's faces, composed when first asked for, once for each bleed: the deck's own, and
    the bigger one a print service's preset may need."""

    def __init__(self, deck: Deck, warn: Warnings) -> None:
        self.deck, self.warn = deck, warn
        self.by_bleed: dict[float, DeckFaces] = {}

    def __call__(self, bleed: float | None = None) -> DeckFaces:
        bleed = self.deck.bleed if bleed is None else bleed
        if bleed not in self.by_bleed:
            deck = self.deck if bleed == self.deck.bleed else replace(self.deck, bleed=bleed)
            self.by_bleed[bleed] = compose_faces(deck, self.warn)
        return self.by_bleed[bleed]

    def distinct(self) -> int:
        """How many distinct faces the deck prints: the same at every bleed, so counted in whichever
        pass was made (the deck's own bleed if none was)."""
        faces = next(iter(self.by_bleed.values()), None) or self()
        return len(faces.distinct())


def deck_jobs(faces: DeckFaces, out_dir: Path, papers: Sequence[str], inks: Sequence[str], warn: Warnings,
              options: Options = Options()) -> list[Job]:
    """Every PDF the deck gives (the sheets and the tuck box for "pdf", the fold-and-glue sheets
    for "gutterfold"), for each paper and ink, with its pages laid out; the colour build in
    `options.color`. Sheets are marked, laid out and their back pages shifted as `options.marking`
    says (a gutterfold sheet has no back pages)."""
    deck, marking = faces.deck, options.marking
    gap = deck.gap if options.gap is None else options.gap
    jobs: list[Job] = []
    for paper in papers:
        for ink in inks:
            inked = faces.inked(Variant.of(ink, options.color), options.separation)
            if "pdf" in options.formats:
                for sheet, sides in faces.sides.items():
                    for kind, pages, duplex in sheet_files(sheet, inked.sides(sides), paper, deck.bleed,
                                                           marking.marks, gap, marking.cutter,
                                                           margins=marking.margins, flip=marking.flip,
                                                           designs=faces.back_designs[sheet]):
                        jobs.append(deck_job(deck, out_dir, paper, inked.variant, kind, pages, duplex, marking))
                box = box_job(faces, out_dir, paper, inked, options, warn)
                jobs += [box] if box else []
            if "gutterfold" in options.formats:
                jobs += gutterfold_jobs(faces, out_dir, paper, inked, options)
    return jobs


def gutterfold_jobs(faces: DeckFaces, out_dir: Path, paper: str, inked: Inked,
                    options: Options = Options()) -> list[Job]:
    """The gutterfold file of one paper and variant, if any piece has a back: cards, then rule
    cards. A folded sheet is cut by hand: it has crop marks where others have a cutting machine's.

    Pieces without a back are left out (they gain nothing from a fold, and the cards and
    rules-board files have them), and so are boards bigger than half a page (tiled in rules-board)."""
    pairs = inked.sides([pair for sheet in SHEETS for pair in faces.sides[sheet] if pair[1] is not None])
    pages = fold_pages(pairs, paper, faces.deck.bleed, options.marking.margins)
    marking = options.marking
    if marking.marks == "cutter":
        marking = replace(marking, marks="corners")
    return [deck_job(faces.deck, out_dir, paper, inked.variant, "gutterfold", pages, False, marking)] if pages else []


def drivethru_job(faces: DeckFaces, out_dir: Path, warn: Warnings, scratch: Path,
                  separation: Separation = FORMULA) -> Job:
    """A DriveThruCards card PDF from faces composed with its 1/8 in bleed, in PDF/X-1a:2003 as
    the service asks: one page per card side, each card's front then its back, every copy; the
    page is the trim plus the bleed, with TrimBox and BleedBox and no marks, in CMYK with black
    text in black ink only. Pieces of another size than the deck's cards (boards, pawns) are left
    out, a card printed without a back (rule cards, metronome's staff cards) gets the quiet back
    a virtual table gives it (the deck's title and which part of it the card is: a printed card
    needs a back, and a white one looked unfinished), and a face with transparency, which PDF/X-1a
    forbids, is printed as a picture of itself (`flatten`, its pictures kept in `scratch`). CMYK
    is made by `separation`, which the file names as its output intent."""
    from ..outputs.tts import neutral_back  # the same back Tabletop Simulator shows such cards with
    deck = faces.deck
    inked, flat = faces.inked(Variant.CMYK, separation), Flattener(scratch)
    w, h = deck.size.width, deck.size.height
    neutrals: dict[str, Face] = {}
    sides: list[Face] = []
    skipped = 0
    for pieces in faces.pieces.values():
        for component, entry in pieces:
            front, back = entry.front, entry.back
            if (front.width, front.height) != (w, h):
                skipped += 1
                continue
            if back is None:
                back = neutrals.get(component.name) or neutrals.setdefault(
                    component.name, neutral_back(printed_title(deck), front, deck.names.fonts, entry.part))
            sides += [inked(flat(front)), inked(flat(back), back=True)]  # type: ignore[list-item]
    if skipped:
        warn(f"{skipped} piece{'s' if skipped != 1 else ''} not {w:g}×{h:g} mm (boards, pawns) "
             "left out of the DriveThruCards file: print them from the rules-board PDF", kind="left-out")
    if flat.done:
        count = len(flat.done)
        warn(f"{count} card side{'s' if count != 1 else ''} with transparency (opacity, translucent art or "
             f"pictures) printed as {'pictures' if count != 1 else 'a picture'} at {FLATTEN_DPI} dpi in the "
             "DriveThruCards file, as PDF/X-1a allows no transparency", kind="flattened")
    return deck_job(deck, out_dir, None, Variant.CMYK, DRIVETHRU, single_pages(sides, w, h, deck.bleed),
                    marking=Marking(marks="none"), standard=PDF_X1A)


def build_deck(ref: str | Path, out_dir: str | Path, papers: Sequence[str] = HOME_PAPERS,
               inks: Sequence[str] = INKS, progress: Callable[[int], None] | None = None,
               on_plan: Callable[[int], None] | None = None, players: int | None = None,
               lang: str | None = None, options: Options = Options()) -> DeckBuild:
    """Build every file of one deck. `on_plan` hears how many pages and images are to come,
    `progress` each one done. `players` is how many per-player sets to print (default: the most
    the deck allows); `lang` the language to print in (default: the deck's own).

    The files are written into a copy of `out_dir/<id>/` beside it, which replaces it when all are
    written (`atomic.replacing_folder`): files this build does not make are kept, and an interrupt
    leaves the folder as it was."""
    if options.color not in COLORS:
        raise ValueError(f"color must be one of {COLORS}, not {options.color!r}")
    if options.marking.marks not in MARK_MODES:
        raise ValueError(f"marks must be one of {MARK_MODES}, not {options.marking.marks!r}")
    deck = select(load_deck(ref, players, lang), options.only)
    out_dir = Path(out_dir)  # a str from a script works too
    final = deck_folder(out_dir, deck)
    with replacing_folder(final) as staged:  # an interrupt leaves the whole old set, never a mix
        result = _write_deck(deck, staged.parent, papers, inks, progress, on_plan, options,
                             options.tts_base_url or image_folder(out_dir, deck, "tts").resolve().as_uri())
    result.outputs = [replace(output, path=final / output.path.relative_to(staged)) for output in result.outputs]
    return result


def _write_deck(deck: Deck, out_dir: Path, papers: Sequence[str], inks: Sequence[str],
                progress: Callable[[int], None] | None, on_plan: Callable[[int], None] | None,
                options: Options, tts_base_url: str) -> DeckBuild:
    """Write the deck's files into `out_dir`/<id>; the TTS object finds its images at `tts_base_url`."""
    result = DeckBuild(deck)
    composed = Composed(deck, result.warnings)
    if options.sides or options.changed_since is not None:  # a digest of every face: asked for, not free
        result.sides = side_records(composed().entries)
    if options.changed_since is not None:  # an update build: the update file alone
        since, by_deck = options.changed_since
        earlier = by_deck.get((deck.id, deck.lang))
        if earlier is None:
            built = ", ".join(f"{i} ({lang})" for i, lang in by_deck) or "none"
            raise DeckError(f"--changed-since {since}: that build did not print deck '{deck.id}' in '{deck.lang}' "
                            f"(it printed: {built})")
        result.changes = changes(earlier, result.sides, since)
        jobs = update_jobs(composed(), result.changes, out_dir, papers, inks, options)
        if on_plan:
            on_plan(sum(len(j.sheets) for j in jobs))
        result.outputs = write_jobs(jobs, deck.bleed, progress, separation=options.separation)
        result.faces = composed.distinct()
        return result
    jobs = deck_jobs(composed(), out_dir, papers, inks, result.warnings, options) \
        if options.wants(SHEET_FORMATS) else []
    scratch = contextlib.ExitStack()  # pictures of flattened faces, until the files that show them are written
    if options.preset == DRIVETHRU:
        folder = Path(scratch.enter_context(tempfile.TemporaryDirectory(prefix="deckpress-flattened-")))
        jobs.append(drivethru_job(composed(DRIVETHRU_BLEED), out_dir, result.warnings, folder, options.separation))
    if options.preset == DRIVETHRU_BOX:
        folder = Path(scratch.enter_context(tempfile.TemporaryDirectory(prefix="deckpress-flattened-")))
        box = drivethru_box_job(composed(), out_dir, options, folder, result.warnings)
        jobs += [box] if box else []
    if options.preset == FACTORY:
        folder = Path(scratch.enter_context(tempfile.TemporaryDirectory(prefix="deckpress-flattened-")))
        jobs += factory_jobs(composed(FACTORY_BLEED), out_dir, result.warnings, folder, options.separation,
                             options.pdfx, options.marking.die_line)
    images = _image_sets(deck, composed, options)
    screen = composed().entries if options.wants(SCREEN_FORMATS + SHOP_FORMATS) else []
    distinct = len(distinct_faces(screen))
    if on_plan:
        on_plan(sum(len(j.sheets) for j in jobs) + sum(n for *_, n in images)
                + distinct * sum(k in options.formats for k in SCREEN_FORMATS)
                + sum(k in options.formats for k in SHOP_FORMATS))
    with scratch:
        result.outputs = write_jobs(jobs, deck.bleed, progress, separation=options.separation)
    if images:
        # the raster outputs pull in pdfium and a process pool: imported only by builds that make images
        from ..outputs.cardimages import write_card_images
    for kind, variant, entries, _ in images:
        for path in write_card_images(entries, image_folder(out_dir, deck, kind, variant), kind, result.warnings,
                                      dpi=options.dpi, preset=PRESETS.get(options.preset or ""),
                                      outline_text=options.outline_text, progress=progress):
            result.outputs.append(Output(path, 0))
    card = (deck.size.width, deck.size.height)
    lang_mark = lang_suffix(deck)
    if "tts" in options.formats:
        from ..outputs.tts import write_tts
        for path in write_tts(screen, image_folder(out_dir, deck, "tts"), deck.id + lang_mark, card,
                              tts_base_url, progress, title=printed_title(deck), fonts=deck.names.fonts):
            result.outputs.append(Output(path, 0))
    if "ttpg" in options.formats:
        from ..outputs.ttpg import write_ttpg
        package = image_folder(out_dir, deck, "ttpg") / (deck.id + lang_mark)  # the folder to copy into TTPG's
        for path in write_ttpg(screen, package, deck.id + lang_mark, card, progress, title=printed_title(deck),
                               fonts=deck.names.fonts):
            result.outputs.append(Output(path, 0))
    if "sprites" in options.formats:
        from ..outputs.sprites import write_sprites
        for path in write_sprites(screen, image_folder(out_dir, deck, "sprites"), deck.id + lang_mark, card, progress,
                                  title=printed_title(deck)):
            result.outputs.append(Output(path, 0))
    if "preview" in options.formats:
        from ..outputs.preview import write_preview
        path = write_preview(screen, deck_folder(out_dir, deck) / f"{deck.id}{lang_mark}-preview.png", card[0],
                             progress)
        result.outputs.append(Output(path, 0))
    if options.wants(SHOP_FORMATS):
        # pictures for a shop page of the first distinct fronts: `<id>-hand.png`, `<id>-showcase.png`
        from ..outputs.shop import shop_picture, shown_fronts
        picture = options.shop or shop_picture()
        faces = shown_fronts(screen, card, picture.cards)
        for kind in (k for k in SHOP_FORMATS if k in options.formats):
            if kind == "hand":
                from ..outputs.hand import write_hand as write
            else:
                from ..outputs.showcase import write_showcase as write
            path = write(faces, deck_folder(out_dir, deck) / f"{deck.id}{lang_mark}-{kind}.png", picture)
            result.outputs.append(Output(path, 0))
            if progress:
                progress(1)
    result.faces = composed.distinct()
    return result


def _image_sets(deck: Deck, composed: Composed, options: Options) -> list[tuple[str, Variant, list[Entry], int]]:
    """The per-card image sets to write: (format, variant, entries, distinct faces).

    A preset's canvas may reach further than the deck's bleed; faces are then composed again with
    the bleed it needs, which backgrounds drawn into the bleed follow."""
    kinds = [k for k in options.formats if k in IMAGE_FORMATS]
    if not kinds:
        return []
    bleed = deck.bleed
    if options.preset in PRESETS:
        needed = preset_bleed(PRESETS[options.preset], (deck.size.width, deck.size.height))
        bleed = max(deck.bleed, round(needed + 0.005, 2))
    entries = composed(bleed).entries
    sets = []
    for ink in options.image_inks:
        inked = composed(bleed).inked(Variant.of(ink))
        converted = inked.entries(entries)
        sets += [(kind, inked.variant, converted, len(distinct_faces(converted))) for kind in kinds]
    return sets


@dataclass(frozen=True)
class DeckTask:
    """One deck to build, in one language (None: its own), with its options: several decks built
    together may each have their own (their back offsets)."""

    ref: str | Path
    lang: str | None = None
    options: Options = Options()


def build_decks(tasks: Sequence[DeckTask], out_dir: str | Path, papers: Sequence[str] = HOME_PAPERS,
                inks: Sequence[str] = INKS, progress: Callable[[int], None] | None = None,
                on_plan: Callable[[int], None] | None = None, players: int | None = None) -> list[DeckBuild]:
    """`build_deck` for each task, the results in the order of `tasks`: decks are independent, so
    they are built in worker processes, one per core (`workers.in_order`: one after another with
    DECKPRESS_WORKERS=1, or where fork is unsafe). `on_plan` hears each deck's plan and `progress`
    each page or image done, whichever deck it is of. A DeckError is the first failing deck's in
    the order, once the decks before it are written, as one after another.

    The tasks of one deck (its languages, or the deck named twice) share its output folder, which
    each replaces as a whole: they are built one after another in the same worker, never at once."""
    by_deck: dict[object, list[int]] = {}
    for index, task in enumerate(tasks):
        by_deck.setdefault(_deck_key(task.ref), []).append(index)
    groups = list(by_deck.values())

    def build_group(indices: list[int], progress: Callable[[int], None] | None,
                    on_plan: Callable[[int], None] | None) -> list[DeckBuild]:
        return [build_deck(tasks[i].ref, out_dir, papers, inks, progress, on_plan, players, tasks[i].lang,
                           tasks[i].options) for i in indices]

    def warm_up() -> None:  # what every worker would otherwise import or read for itself
        if any(_has_svg(task.ref) for task in tasks):
            import_art_readers()
        for family in FontSet().families.values():  # every bundled deck reads nearly all of them
            for path in family.files.values():
                open_font(path)
                shape(" ", path)  # and HarfBuzz's reading of it
                read_ahead(path)  # and what embedding it takes
        for task in tasks:  # the hyphenation patterns of the languages printed: a tenth of a second each
            try:
                language = task.lang or deck_languages(task.ref)[0]
            except DeckError:
                continue  # its build will say why
            dictionary(language)

    results: list[DeckBuild] = [None] * len(tasks)  # type: ignore[list-item]  (each filled below)
    for indices, built in zip(groups, in_order(build_group, groups, progress, on_plan, before_fork=warm_up)):
        for index, result in zip(indices, built):
            results[index] = result
    return results


def _has_svg(ref: str | Path) -> bool:
    """Whether a deck's folder has SVG art (a guess, for warming up: art can come from elsewhere)."""
    try:
        folder = find_deck(str(ref)).parent
    except DeckError:
        return False
    return next(folder.rglob("*.svg"), None) is not None


def _deck_key(ref: str | Path) -> object:
    """What tells decks apart for `build_decks`: the deck file (a deck may be named by id or by
    folder); the ref itself if there is none (its build says why)."""
    try:
        return find_deck(str(ref)).resolve()
    except DeckError:
        return ref
