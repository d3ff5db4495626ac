"""deckpress as a library: build, check and load decks, impose card images, calibrate a printer.

    import deckpress
    results = deckpress.build("metronome", "out", papers="a4", inks="color")
    for output in results[0].outputs: print(output.path, output.pages)

Everything the `deckpress` command does goes through this module (the command line imports
nothing else), with plain keyword arguments and the command line's defaults. See docs/API.md.

Importing it is cheap: the work is imported by the functions that do it, and the option names
(PAPERS, INKS, FORMATS, …) and the result types (`Report`, `CheckResult`, … in `results`) are
read from the modules that own them when first asked for, so `deckpress --help` loads no drawing
backend and makes no dataclass.

Back offsets are values here: reading and saving the user's settings is the caller's choice
(`back_offset_for`, `save_back_offset`), as the command line does.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import DeckError, DeckErrors, DeckWarning, Warnings, display_path, folder_ref, printable, said, suggest

if TYPE_CHECKING:  # what `__getattr__` reads lazily, for type checkers and editors
    from .builder.images import Imposed
    from .builder.plan import DRIVETHRU, DRIVETHRU_BOX, FACTORY, FORMATS, PDFX, DeckBuild, Output
    from .compose.tuckbox import SLEEVE_THICKNESS, SLEEVES
    from .imposition.cutters import CUTTERS
    from .imposition.marks import MARK_MODES
    from .ink import COLORS, INKS
    from .model import Deck
    from .model.deck import CARD_SIZES, DECK_FILE
    from .outputs.presets import PRESETS
    from .results import CheckResult, DeckListing, DeckSummary, Report, counted
    from .settings import DECK_SETTINGS, BackOffset, format_offset, parse_back_offset, save_back_offset
    from .settings import (Printer, PrinterBook, format_margins, format_scale, parse_flip, parse_margins,
                           parse_scale, read_printers, remove_printer, save_printer, set_default_printer,
                           check_printer_name)
    from .units import HOME_PAPERS, PAPERS, paper_name, parse_mm, parse_size

Offset = tuple[float, float]  #: mm, x right and y down as seen looking at a back page
Progress = Callable[[int], None]

#: names read from the module that owns them on first use (PEP 562): see `__getattr__`
_LAZY = {
    "PAPERS": "deckpress.units", "HOME_PAPERS": "deckpress.units", "paper_name": "deckpress.units",
    "MARK_MODES": "deckpress.imposition.marks", "CUTTERS": "deckpress.imposition.cutters",
    "INKS": "deckpress.ink", "COLORS": "deckpress.ink",
    "FORMATS": "deckpress.builder.plan", "DRIVETHRU": "deckpress.builder.plan", "FACTORY": "deckpress.builder.plan",
    "PDFX": "deckpress.builder.plan", "DRIVETHRU_BOX": "deckpress.builder.plan",
    "PRESETS": "deckpress.outputs.presets",
    "SLEEVES": "deckpress.compose.tuckbox", "SLEEVE_THICKNESS": "deckpress.compose.tuckbox",
    "CARD_SIZES": "deckpress.model.deck", "DECK_FILE": "deckpress.model.deck",
    "DECK_SETTINGS": "deckpress.settings", "parse_back_offset": "deckpress.settings",
    "format_offset": "deckpress.settings", "save_back_offset": "deckpress.settings",
    "Printer": "deckpress.settings", "PrinterBook": "deckpress.settings", "parse_scale": "deckpress.settings",
    "parse_margins": "deckpress.settings", "parse_flip": "deckpress.settings", "format_scale": "deckpress.settings",
    "format_margins": "deckpress.settings", "read_printers": "deckpress.settings",
    "save_printer": "deckpress.settings", "remove_printer": "deckpress.settings",
    "set_default_printer": "deckpress.settings",
    "check_printer_name": "deckpress.settings",
    "parse_mm": "deckpress.units", "parse_size": "deckpress.units",
    "SHOP_SIZE": "deckpress.outputs.shop", "SHOP_BACKGROUND": "deckpress.outputs.shop",
    "SHOP_CARDS": "deckpress.outputs.shop",
    "DeckBuild": "deckpress.builder.plan", "Output": "deckpress.builder.plan", "Imposed": "deckpress.builder.images",
    "CheckResult": "deckpress.results", "DeckListing": "deckpress.results", "DeckSummary": "deckpress.results",
    "Report": "deckpress.results", "counted": "deckpress.results",
}

__all__ = ["build", "check", "impose", "calibrate", "load_deck", "list_decks", "new_deck", "serve", "languages",
           "schema",
           "choose",
           "back_offset_for", "printer_named", "DeckError", "DeckErrors", "DeckWarning", "Warnings", "display_path", "folder_ref",
           "suggest",
           "printable", "said",
           "Offset", "Progress", *sorted(_LAZY)]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value  # once read, an ordinary attribute
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def load_deck(deck: str | Path, *, players: int | None = None, lang: str | None = None) -> Deck:
    """Load and check a deck: a bundled deck id (`"metronome"`), a deck folder or its deck.yaml.

    `players` sets how many per-player sets components with `copies: players` get (default: the
    most the deck allows); `lang` picks one of its translations. A mistake in the deck or its
    layouts raises DeckError naming file and line."""
    from .model import load_deck as load

    return load(deck, players, lang)


def list_decks(folder: str | Path | None = ".", *, bundled: bool = True) -> list[DeckListing]:
    """The bundled decks (unless `bundled` is False), then the deck folders in `folder`: the folder
    itself if it holds a deck.yaml, each subfolder that does, and each one in its `decks/`, where a
    designer's project keeps them. `None` lists the bundled decks alone. The bundled decks' own
    folders (in a checkout of deckpress) are listed once, as bundled."""
    from .model.deck import DECK_FILE, bundled_deck_ids, find_deck
    from .results import DeckListing

    ids = bundled_deck_ids()
    found = [DeckListing(deck_id, find_deck(deck_id), True) for deck_id in ids] if bundled else []
    if folder is not None:
        shipped = {find_deck(deck_id).resolve().parent for deck_id in ids}
        here = Path(folder)
        candidates = [here, *_subfolders(here), *_subfolders(here / "decks")]
        found += [DeckListing(folder_ref(path), path / DECK_FILE, False) for path in candidates
                  if (path / DECK_FILE).is_file() and path.resolve() not in shipped]
    return found


def _subfolders(folder: Path) -> list[Path]:
    """The folders in `folder` (none if it is not one), hidden ones aside, by name."""
    if not folder.is_dir():
        return []
    return sorted((p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")), key=lambda p: p.name)


def check(deck: str | Path, *, players: int | None = None, refresh: bool = False) -> CheckResult:
    """Check a deck without writing anything: load it, compose every card in its own language and
    in each translation. A deck with mistakes raises DeckErrors: every mistake loading could go on
    past (each card's, each component's, each card file's) in its `errors`, file by file in the
    order of their lines, and said as the first of them (file and line in the message); a build
    stops at the first."""
    from .builder.box import box_label, box_subtitle
    from .builder.faces import compose_faces
    from .errors import collecting
    from .model.cardsource import CardFetcher
    from .model import load_deck as load
    from .results import CheckResult

    warnings = Warnings()
    # card lists at web addresses: each asked for once, for every language; `refresh`: anew, no kept copy
    fetcher = CardFetcher(refresh)
    with collecting() as mistakes:
        try:
            loaded = load(deck, players, cards=fetcher)
        except DeckError as exc:  # one it could not go on past
            mistakes.add(exc)
    if mistakes:
        raise DeckErrors(mistakes.sorted())
    faces = compose_faces(loaded, warnings).distinct()
    for language in loaded.languages[1:]:
        translated = load(deck, players, language, cards=fetcher)
        compose_faces(translated, warnings)
        box_label(translated)  # the box's words are the deck's to translate too
        box_subtitle(translated)
        for text, file, line in translated.translate.unused():
            if Path(file).resolve().is_relative_to(translated.folder):  # not what a deck it extends no longer uses
                warnings(f"'{text[:40]}' is not on any card (translated to {language})", file, line,
                         kind="unused-translation")
    return CheckResult(loaded, loaded.card_count(), len(faces), list(loaded.languages), warnings)


def build(decks: str | Path | Sequence[str | Path] | None = None, out: str | Path = "output", *,
          papers: str | Sequence[str] = "all", inks: str | Sequence[str] | None = None, color: str = "rgb",
          formats: str | Sequence[str] = ("pdf",), players: int | None = None, lang: str | None = None,
          dpi: int = 300, preset: str | None = None, outline_text: bool = False, tts_base_url: str | None = None,
          sleeves: str | tuple[float, float] | None = None, sleeve_thickness: float | None = None,
          back_offset: Offset | Mapping[str | Path, Offset] | None = None, marks: str = "corners",
          back_marks: bool = False, gap: float | None = None, icc: str | Path | None = None,
          only: str | Sequence[str] = (), changed_since: str | Path | None = None, sides: bool = False,
          shop_size: str | tuple[int, int] | None = None, shop_background: str | None = None,
          shop_cards: int | None = None,
          refresh: bool = False, cutter: str | Path | None = None, die_line: str | bool = False,
          printer: Printer | None = None, progress: Progress | None = None, on_plan: Progress | None = None,
          pdfx: str = "4") -> list[DeckBuild]:
    """Build decks into `out/<deck id>/`; one result per deck and language, with the files written
    (`outputs`) and the warnings.

    decks: a bundled id, a deck folder, or several; None builds every bundled deck.
    papers: a paper ("a4", "letter", "a3", "a5", "legal", "tabloid", "universal", or "WxH" like
    "210x297mm" or "8.5x11in"), a list of them, or "all" (A4 and Letter). formats: "pdf", "gutterfold", "png", "svg",
    "tts", "preview" (a list, or comma-separated). inks: "color", "lowink", a list, or "all";
    None makes PDFs in both and images in colour. color: "rgb", or "cmyk" for print shops.
    lang: one of the decks' languages, to build that one alone (default, or "all": every
    language each deck has, its own and each of its translations).
    preset: "mpc", "printerstudio" or "tgc" (PNGs on the service's canvas for the card size; implies
    "png"), "drivethru" (a CMYK PDF/X-1a:2003 file), "drivethru-box" (its tuck box: the deck's, in
    one piece, without bleed, marks or lines, PDF/X-1a:2003) or "factory" (a CMYK PDF/X file per component,
    3 mm bleed, each piece's die line in a spot colour: `die_line`'s name, else CutContour); pdfx:
    a factory's files in PDF/X-4 ("4", which embeds `icc`, so needs it) or PDF/X-1a:2003 ("1a").
    icc: a CMYK output ICC profile (a print shop's press profile) that
    separates the CMYK files (color "cmyk", presets "drivethru" and "factory") instead of deckpress's
    formula, and that a PDF/X file names as its output intent. sleeves: "auto", a sleeve's name (SLEEVES) or its size in mm, to size the tuck box.
    marks: "corners", "lines", "none" or "cutter"; cutter: the cutting machine cutter sheets are
    for, "silhouette" (the default), "silhouette-4", "cricut", "scanncut" or a profile file (.yaml),
    which implies marks "cutter"; die_line: True (or a separation's name, "CutContour" by default)
    strokes every piece's cut path in that spot colour, overprinting, in a layer seen on screen and
    not printed, for a print-and-cut RIP or a factory; gap: mm between cards on the sheets, for every
    deck (None: each deck's own `gap:`); back_offset shifts every back page (mm), or
    maps each deck (as given in `decks`) to its own (decks it does not name: none); None: the
    printer's, else none. printer: a printer's profile (`printer_named`, or a `Printer` made
    here): its scale (home sheets drawn at 1/scale about each page's centre, so the pieces print
    their own size), its unprintable margins (every piece, bleed and mark laid out inside them) and
    its duplex flip edge (backs mirrored to match).
    only: "FIELD=VALUE[,VALUE…]" conditions (one, or a list), a playtest build of the cards every
    one holds for ("component=notes", "name=Mill,Stall", any field); no box is made.
    shop_size, shop_background, shop_cards: the pictures of formats "hand" (a fan of cards) and
    "showcase" (cards standing in perspective on a glossy surface): their size in pixels ("1600x1000"
    or (1600, 1000)), background ("#rrggbb", or "transparent") and how many cards they show (the
    first distinct fronts of the cards built, so `only` chooses them); None: SHOP_SIZE,
    SHOP_BACKGROUND, SHOP_CARDS.
    changed_since: the JSON report (`report.write`) of an earlier build made with `sides=True`:
    only `<deck>-update-<paper>.pdf` is written, a page listing what was added, removed and
    changed since, then the added and changed cards, front and back. sides: record what each
    card looks like (digests of its sides) in the results and so in their report, which is what
    `changed_since` compares with; the command line does so when it writes a --report.
    refresh: fetch card lists at web addresses (`cards: https://…`) without asking whether they
    changed, and fail rather than use the copy kept in the deck folder (by default each address is
    asked once a build, and the copy is used, with a warning, when it cannot be reached).
    on_plan hears, for each deck, how many pages and images are to come; progress each one done.
    Several decks (or languages) are built at once, one per core, in worker processes: the results
    come in the order asked for, and a DeckError is the first failing deck's, as one after another.
    """
    from .builder.deckbuild import DeckTask, build_decks
    from .model.cardsource import CardFetcher, fetching
    from .builder.plan import DRIVETHRU, DRIVETHRU_BOX, FACTORY, FORMATS, PDFX, Options
    from .compose.tuckbox import SLEEVE_THICKNESS
    from .imposition.document import Marking
    from .ink import INKS
    from .model import bundled_deck_ids
    from .outputs.presets import PRESETS
    from .outputs.shop import shop_picture
    from .separation import FORMULA, load_profile

    asked_formats = choose(formats, FORMATS, "format", allow_all=False)
    if preset is not None:
        choose([preset], (*sorted(PRESETS), DRIVETHRU, DRIVETHRU_BOX, FACTORY), "preset")
    choose([pdfx], PDFX, "pdfx")
    if pdfx != "4" and preset != FACTORY:
        raise DeckError("--pdfx chooses the PDF/X of a factory's files: give it with --preset factory")
    if preset in PRESETS and "png" not in asked_formats:
        asked_formats = (*asked_formats, "png")  # a print service's preset is a kind of PNG set
    pdf_inks = choose(inks if inks is not None else "all", INKS, "ink")
    separation = FORMULA
    if icc is not None:
        if color != "cmyk" and preset not in (DRIVETHRU, DRIVETHRU_BOX, FACTORY):
            raise DeckError("an ICC profile separates CMYK files: give it with --color cmyk or a print shop's "
                            "--preset (drivethru, drivethru-box or factory)")
        separation = load_profile(Path(icc))
    options = Options(asked_formats, dpi, preset, outline_text, tts_base_url, color, separation=separation,
                      image_inks=pdf_inks if inks is not None else ("color",), sleeves=sleeves,
                      sleeve_thickness=SLEEVE_THICKNESS if sleeve_thickness is None else sleeve_thickness,
                      gap=None if gap is None else checked_gap(gap), only=_conditions(only), sides=sides,
                      pdfx=pdfx)
    if changed_since is not None:
        if asked_formats != ("pdf",) or preset is not None:
            raise DeckError("--changed-since writes the update PDF alone: leave out --format and --preset")
        options = replace(options, changed_since=(str(changed_since), earlier_sides(changed_since)))
    options = replace(options, shop=shop_picture(shop_size, shop_background, shop_cards))
    marking = printed_by(cutting(Marking(marks, back_marks), cutter, die_line), printer)
    if back_offset is None:
        back_offset = printer.back_offset if printer is not None else (0.0, 0.0)
    refs = bundled_deck_ids() if decks is None else [decks] if isinstance(decks, (str, Path)) else list(decks)
    paper_names = choose_papers(papers)
    tasks, unreadable = [], None
    for ref in refs:
        offset = back_offset.get(ref, (0.0, 0.0)) if isinstance(back_offset, Mapping) else back_offset
        deck_options = replace(options, marking=replace(marking, back_offset=offset))
        try:
            tasks += [DeckTask(ref, language, deck_options) for language in languages(ref, lang)]
        except DeckError as exc:  # the decks before it are built first, as one after another
            unreadable = exc
            break
    with fetching(CardFetcher(refresh)):  # every load of the build shares it (each worker its copy)
        results = build_decks(tasks, out, paper_names, pdf_inks, progress, on_plan, players)
    if unreadable is not None:
        raise unreadable
    return results


def printed_by(marking: Any, printer: Printer | None) -> Any:
    """`marking` (an imposition.document.Marking) for sheets printed by `printer` (None: as it is)."""
    if printer is None:
        return marking
    return replace(marking, scale=printer.scale, margins=printer.margins, flip=printer.flip)


def printer_named(name: str | None) -> Printer | None:
    """A printer saved in the user's settings file (`deckpress printer add`): the one named (a
    DeckError naming the closest when there is none), else the default printer, else None."""
    from .settings import resolve_printer

    return resolve_printer(name)


def cutting(marking: Any, cutter: str | Path | None, die_line: str | bool) -> Any:
    """`marking` (an imposition.document.Marking) for `cutter` (a name or a profile file, which
    means cutter marks) and with `die_line` (True: "CutContour"; a name; False: none)."""
    from .imposition.cutters import cutter_named

    if cutter is not None:
        if marking.marks not in ("corners", "cutter"):
            raise DeckError(f"--cutter lays sheets out for a cutting machine: leave out --marks {marking.marks}")
        marking = replace(marking, marks="cutter", cutter=cutter_named(str(cutter)))
    if die_line:
        name = "CutContour" if die_line is True else str(die_line)
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_.-]{0,62}", name):
            raise DeckError(f"a die line's name is a spot colour's, like CutContour or Die: letters, digits, "
                            f"'_', '.' and '-', not {name!r}")
        marking = replace(marking, die_line=name)
    return marking


def _conditions(only: str | Sequence[str]) -> tuple[Any, ...]:
    from .model.selection import Only

    try:
        return tuple(Only.parse(text) for text in ([only] if isinstance(only, str) else only))
    except ValueError as exc:
        raise DeckError(str(exc)) from None


MAX_REPORT = 64 * 1024 * 1024  #: bytes: a report of the largest deck is well under a megabyte


def earlier_sides(report: str | Path) -> dict[tuple[str, str], tuple[Any, ...]]:
    """What an earlier build's report (`--report`) recorded of each deck's cards, by deck id and
    language: the entries with the digests of their sides. A DeckError if it is not such a report."""
    import json

    from .outputs.digests import SideRecord

    path = Path(report)
    try:
        with path.open("rb") as file:
            data = file.read(MAX_REPORT + 1)
    except OSError as exc:
        raise DeckError(f"cannot read the report {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_REPORT:
        raise DeckError(f"{path} is over {MAX_REPORT // 2**20} MB: not a report deckpress wrote")
    try:
        parsed = json.loads(data)
    except (ValueError, RecursionError) as exc:
        line = getattr(exc, "lineno", None)
        raise DeckError(f"{path} is not JSON ({getattr(exc, 'msg', exc)}): give the file a build's --report wrote",
                        path, line) from None
    decks = parsed.get("decks") if isinstance(parsed, dict) and parsed.get("command") == "build" else None
    if not isinstance(decks, list):
        raise DeckError(f"{path} is not the report of a build: make one with `deckpress build --report FILE`", path)
    found: dict[tuple[str, str], tuple[Any, ...]] = {}
    try:
        for deck in decks:
            found[str(deck["id"]), str(deck["language"])] = tuple(SideRecord.from_json(s) for s in deck["sides"])
    except (KeyError, TypeError, ValueError):
        raise DeckError(f"{path} records no cards' looks: it was written by a check, an older deckpress or by "
                        "hand; build with --report to make one", path) from None
    return found


def languages(deck: str | Path, lang: str | None = None) -> list[str]:
    """The languages to build a deck in for `lang`: that one alone, or (None, or "all") every one
    the deck has, its own first."""
    if lang is not None and lang != "all":
        return [lang]
    from .model import deck_languages

    return deck_languages(deck)


def impose(images: str | Path | Sequence[str | Path], out: str | Path = "output", *,
           name: str = "imposed", back: str | Path | None = None, backs: str | Path | None = None,
           size: str | tuple[float, float] = "poker", bleed: str | float | None = None,
           make_bleed: str | float | None = None, papers: str | Sequence[str] = "all",
           back_offset: Offset | None = None, marks: str = "corners", back_marks: bool = False, gap: float = 0.0,
           cutter: str | Path | None = None, die_line: str | bool = False, printer: Printer | None = None,
           progress: Progress | None = None, on_plan: Progress | None = None) -> Imposed:
    """Put ready-made card images (PNG, JPEG, WebP, TIFF, GIF, BMP, PSD, SVG, every page of a PDF; files or folders, each
    picture including `bleed` on every side) on marked sheets: `out/<name>/<name>-cards-<paper>.pdf`,
    and with backs `-backs-` and `-duplex-`. `back` is one back for every card; `backs` a folder
    with a back per front, named like it. `size`: a card size name (CARD_SIZES) or "WxH" like "63x88" or "2.5inx3.5in",
    or (width, height) in mm; `bleed`: mm, or a length like "0.125in" (None: 3 mm); `make_bleed`:
    the images stop at the trim, and are mirrored about their edges into this much bleed (mm or a
    length; `bleed` then stays unsaid, or 0); `cutter`, `die_line`, `printer`, `back_offset`: as `build`'s; `gap`: mm between cards
    (each then keeps its own bleed, half the gap at most). Every picture is checked
    before anything is written: a problem raises DeckError; what will print badly is in the
    result's warnings."""
    from .builder.images import card_size, parse_bleed
    from .builder.images import impose_images as write_imposed
    from .imposition.document import Marking

    def length(value: str | float) -> float:
        return parse_bleed(value) if isinstance(value, str) else float(value)

    made = None if make_bleed is None else length(make_bleed)
    has = (0.0 if made is not None else 3.0) if bleed is None else length(bleed)
    if made is not None and has:
        raise DeckError("--bleed says how much bleed the images have, --make-bleed makes it for images "
                        "that have none: give one of them")
    marking = printed_by(cutting(Marking(marks, back_marks), cutter, die_line), printer)
    if back_offset is None:
        back_offset = printer.back_offset if printer is not None else (0.0, 0.0)
    fronts = [Path(images)] if isinstance(images, (str, Path)) else [Path(p) for p in images]
    return write_imposed(fronts, Path(out), name=name, back=None if back is None else Path(back),
                         backs_dir=None if backs is None else Path(backs),
                         size=card_size(size) if isinstance(size, str) else size, bleed=has,
                         papers=choose_papers(papers), progress=progress, on_plan=on_plan,
                         back_offset=back_offset, marks=marking.marks, back_marks=back_marks, gap=checked_gap(gap),
                         make_bleed=made, cutter=marking.cutter, die_line=marking.die_line,
                         scale=marking.scale, margins=marking.margins, flip=marking.flip)


def calibrate(out: str | Path = "output", *, paper: str = "a4", back_offset: Offset | None = None,
              printer: Printer | None = None) -> Path:
    """Write the two-page calibration sheet, `out/calibrate-<paper>.pdf`, and return its path
    (`paper` as `build` takes one, but not "all").
    Printed double-sided, it shows the printer's scale across and down the page (rulers to measure)
    and the back offset to give (see `deckpress calibrate --help`); with `back_offset` (None: the
    `printer`'s, else none) its back page is printed shifted by it, to check one. The sheet is
    never drawn at a printer's scale: its rulers measure the printer as it is. A `printer` that
    flips on the short edge gets its back page mirrored so."""
    from .builder.jobs import write_calibration_sheet
    from .imposition.calibration import fits
    from .units import paper_name, paper_title

    paper = paper_name(paper)
    if not fits(paper):
        raise DeckError(f"the calibration sheet needs A5 paper or bigger, not {paper_title(paper)}: measure "
                        "the printer's back offset on A5, A4 or Letter")
    if back_offset is None:
        back_offset = printer.back_offset if printer is not None else (0.0, 0.0)
    flip = printer.flip if printer is not None else "long"
    return write_calibration_sheet(Path(out) / f"calibrate-{paper}.pdf", paper, back_offset, flip)


def new_deck(folder: str | Path, *, base: str | Path | None = None) -> Path:
    """Write a new deck folder at `folder`, whose name becomes the deck's id, and return it. It
    checks clean and builds as it is: deck.yaml, a layout, cards in a CSV, an SVG picture, a rule
    card and a README. With `base` (a bundled id or a deck folder) the deck extends that one
    instead, with a commented example of each kind of change. An existing folder raises
    DeckError and is left untouched."""
    from .builder.scaffold import new_deck as write

    return write(folder, None if base is None else str(base))


def schema(which: str = "deck") -> str:
    """The JSON Schema of a deck file (`deck`) or of a layout file (`layout`), as JSON text, made
    from the key tables the loaders check: editors that read it complete keys and show their docs."""
    from .model.schema import schema_text

    return schema_text(which)


def serve(deck: str | Path = ".", *, port: int | None = None, host: str = "127.0.0.1", open_browser: bool = True,
          players: int | None = None, lang: str | None = None, say: Callable[[str], None] = print,
          started: Callable[[str], None] | None = None, stop: Any = None, refresh: bool = False) -> None:
    """Show a deck in the browser and keep it up to date: build it, serve the page on `host`
    (127.0.0.1: this machine alone) and `port` (None: 8765; if it is taken, the next free one of
    the 20 from it; 0: any), open it unless `open_browser` is False, and rebuild the deck whenever
    a file it reads is saved. Returns on Ctrl-C or SIGTERM (or when the `threading.Event` `stop`
    is set), with the built files removed. `say` hears the lines for the user; `started` the
    page's address.

    A deck that cannot be found raises DeckError at once; one with a mistake is served with its
    error shown, until it is fixed. 20 ports taken in a row raise ValueError. Card lists at
    web addresses are asked again every few seconds, and the deck rebuilt when they change
    (`refresh`: the first time without asking whether they changed)."""
    from .live import run
    from .model.deck import find_deck

    if str(deck) == "." and not Path("deck.yaml").is_file():
        raise DeckError("no deck.yaml in this folder: name the deck to serve, a bundled id like metronome "
                        "or a deck folder like ./decks/mygame")
    find_deck(str(deck))  # a deck that is not there is the caller's mistake, not a page to show
    run(deck, host=host, port=port, open_browser=open_browser, players=players, lang=lang, say=say,
        started=started, stop=stop, refresh=refresh)


def back_offset_for(given: Offset | None, deck: str | Path | None = None,
                    printer: Printer | None = None) -> BackOffset:
    """The back offset to use and where it comes from: `given`, else a printer named for this run,
    else the deck folder's deckpress.yaml (when a deck is named), else the default printer's, else
    the user's saved one, else none (settings.resolve_back_offset)."""
    from .model.deck import find_deck
    from .settings import resolve_back_offset

    folder = find_deck(str(deck)).resolve().parent if deck is not None and given is None else None
    return resolve_back_offset(given, folder, printer)


def choose_papers(value: str | Sequence[str]) -> tuple[str, ...]:
    """Papers as a build takes them: a name or `WxH`, a comma-separated list or a sequence of them,
    each as `units.paper_name` names it; "all" is A4 and Letter. An unknown paper is a ValueError
    that names the papers there are and the closest one."""
    from .units import HOME_PAPERS, paper_name

    if isinstance(value, str):
        if value.strip().lower() == "all":
            return HOME_PAPERS
        value = [v for v in value.split(",") if v.strip()]
    return tuple(dict.fromkeys(paper_name(v) for v in value))


def checked_gap(gap: float) -> float:
    """A gap between cards given to `build` or `impose`: 0 to MAX_GAP mm, else a ValueError."""
    from .units import MAX_GAP

    if not 0 <= gap <= MAX_GAP:
        raise ValueError(f"gap {gap:g}mm must be 0 to {MAX_GAP:g}mm")
    return float(gap)


def choose(value: str | Sequence[str], allowed: Sequence[str], what: str, allow_all: bool = True) -> tuple[str, ...]:
    """A name, a comma-separated list or a sequence of names, each one of `allowed`; "all" is all.
    An unknown name is a ValueError that names the choices and the closest one."""
    if isinstance(value, str):
        if allow_all and value == "all":
            return tuple(allowed)
        value = [v.strip() for v in value.split(",") if v.strip()]
    names = tuple(dict.fromkeys(value))
    for name in names:
        if name not in allowed:
            close = suggest(name, allowed)
            raise ValueError(f"unknown {what} '{name}'{f' — did you mean {close!r}?' if close else ''} "
                             f"(choose from {', '.join(allowed)})")
    return names
