"""The `deckpress` command: build, list and check decks, impose card images. Thin: the work
happens in `build` and `imagesheets`."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

import click

from . import __version__
from .build import DRIVETHRU, FORMATS, DeckBuild, Options, build_deck
from .outputs.cardimages import PRESETS
from .compose.tuckbox import SLEEVE_THICKNESS, SLEEVES
from .errors import DeckError, Warnings, display_path, suggest
from .imagesheets import Imposed, card_size, impose_images, parse_bleed
from .backends.pdfpages import write_document
from .impose.calibration import calibration_info, calibration_pages
from .impose.marks import MARK_MODES
from .impose.sheets import PAPERS
from .ink import COLORS, INKS
from .model import bundled_deck_ids, load_deck
from .model.deck import CARD_SIZES, DECK_FILE, find_deck
from .settings import DECK_SETTINGS, BackOffset, Offset, format_offset, parse_back_offset, resolve_back_offset, \
    save_back_offset
from .units import parse_mm, parse_size


def _choices(value: str, allowed: tuple[str, ...]) -> list[str]:
    return list(allowed) if value == "all" else [value]


def _formats(ctx: click.Context, param: click.Parameter, value: str) -> tuple[str, ...]:
    """`pdf,png` → ("pdf", "png"), each checked against the formats there are."""
    import difflib

    asked = tuple(dict.fromkeys(v.strip().lower() for v in value.split(",") if v.strip()))
    for name in asked:
        if name not in FORMATS:
            close = difflib.get_close_matches(name, FORMATS, 1)
            hint = f" — did you mean '{close[0]}'?" if close else ""
            raise click.BadParameter(f"unknown format '{name}'{hint} (choose from {', '.join(FORMATS)})")
    return asked or ("pdf",)


def _sleeves(ctx: click.Context, param: click.Parameter, value: str | None) -> str | tuple[float, float] | None:
    """`auto`, a sleeve's name, or its size like `66x91`."""
    if value is None or value == "auto":
        return value
    try:
        return parse_size(value, SLEEVES, "sleeve")
    except ValueError as exc:
        close = suggest(value, SLEEVES)
        raise _OptionError(f"--sleeves: {exc}{f' — did you mean {close!r}?' if close else ''}") from None


def _length(ctx: click.Context, param: click.Parameter, value: str) -> float:
    option = "--" + (param.name or "length").replace("_", "-")
    try:
        length = parse_mm(value, option)
    except ValueError as exc:
        raise _OptionError(f"{option}: {exc}") from None
    if length < 0:
        raise _OptionError(f"{option}: '{value}' cannot be negative")
    return length


def _fail(exc: DeckError) -> None:
    click.echo(f"error: {exc}", err=True)
    sys.exit(2)


class _OptionError(click.ClickException):
    """A bad option value, said like every other mistake in the input: one line
    `error: --option: what was expected`, exit status 2 (click's own errors add a usage block)."""

    exit_code = 2

    def show(self, file=None) -> None:
        click.echo(f"error: {self.format_message()}", err=True)


def _back_offset(ctx: click.Context, param: click.Parameter, value: str | None) -> Offset | None:
    """`0.5,-1.2` → (0.5, -1.2) mm; None when the option is not given (the saved offset is used)."""
    if value is None:
        return None
    try:
        return parse_back_offset(value)
    except ValueError as exc:
        raise _OptionError(f"--back-offset: {exc}") from None


BACK_OFFSET_HELP = ("Shift every back page by X,Y mm (X right, Y down, as seen on the back), as `deckpress "
                    "calibrate` measures it. Remembered for later runs; 0,0 takes it away. "
                    f"Default: the deck folder's {DECK_SETTINGS}, else the last one given.")


MARKS_HELP = ("How to mark the sheets for cutting: `corners` (crop marks), `lines` (cut lines out to the paper's "
              "edge), `none` (bare pages for a print shop: no scale bar or label either), `cutter` (registration "
              "marks for a Silhouette-type cutting machine, and an SVG of the cut paths of each page in cut/).")


def _marks_options(command: Callable) -> Callable:
    """--marks and --back-marks, alike on every command that lays out sheets."""
    command = click.option("--back-marks", is_flag=True,
                           help="Mark back pages too (crop marks in cutter mode); by default backs are "
                                "cut from their fronts and carry none.")(command)
    return click.option("--marks", type=click.Choice(MARK_MODES), default="corners", show_default=True,
                        help=MARKS_HELP)(command)


T = TypeVar("T")


def _or_exit(work: Callable[[], T], cannot: str) -> T:
    """Run `work`. A mistake in the input is one line and exit status 2; a file that cannot be
    written is not the input's fault: one line, `error: <cannot>: <why>`, exit status 1."""
    try:
        return work()
    except DeckError as exc:
        _fail(exc)
        raise
    except OSError as exc:
        click.echo(f"error: {cannot}: {exc.strerror or exc}", err=True)
        sys.exit(1)


def _remember(offset: Offset | None) -> None:
    """Save a back offset given on the command line, and say so in one line."""
    if offset is None:
        return
    path = _or_exit(lambda: save_back_offset(offset), "cannot save the back offset")
    click.echo(f"back offset {format_offset(offset)} mm saved to {display_path(path)}")


def _offset_for(given: Offset | None, deck_ref: str | None = None) -> BackOffset:
    """The back offset to use: the command line's, the deck folder's, the user's, or none."""
    try:
        folder = find_deck(deck_ref).resolve().parent if deck_ref is not None and given is None else None
        return resolve_back_offset(given, folder)
    except DeckError as exc:
        _fail(exc)
        raise


def _shift_note(offset: BackOffset) -> str:
    """Which back offset this run uses, and where it comes from, so a saved one never surprises."""
    source = "given with --back-offset" if offset.source == "--back-offset" else f"back offset from {offset.source}"
    return f"back pages shifted by {format_offset(offset.value)} mm ({source})"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _show_warnings(warnings: Warnings, deck: str = "") -> None:
    """One line each; `deck` names the deck when several are built and a message names no file."""
    for message in warnings:
        click.echo(f"warning: {deck + ': ' if deck and DECK_FILE not in message else ''}{message}", err=True)


class _Bar:
    """A progress bar on stderr when it is a terminal; nothing when output is piped."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.bar = None

    def start(self, total: int) -> None:
        if sys.stderr.isatty():
            self.bar = click.progressbar(length=total, label=f"{self.label:<14}", file=sys.stderr)
            self.bar.__enter__()

    def advance(self, n: int) -> None:
        if self.bar is not None:
            self.bar.update(n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


R = TypeVar("R", DeckBuild, Imposed)


def _write(label: str, out: Path, work: Callable[[_Bar], R], result_deck: bool = False) -> R:
    """Run `work` with a progress bar, then show its warnings (naming the deck with
    `result_deck`, when several are built); errors as `_or_exit` says."""
    bar = _Bar(label)
    try:
        result = _or_exit(lambda: work(bar), f"cannot write to {out}")
    finally:
        bar.close()
    _show_warnings(result.warnings, result.deck.id if result_deck else "")
    return result


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="deckpress")
def main() -> None:
    """Print-and-play card decks from YAML: printable PDF sheets with crop marks and matching backs."""


@main.command()
@click.argument("decks", nargs=-1)
@click.option("--paper", type=click.Choice([*PAPERS, "all"]), default="all", show_default=True,
              help="Paper size of the sheets.")
@click.option("--ink", type=click.Choice([*INKS, "all"]), default=None,
              help="Full colour, greyscale low-ink, or both (`all`). Default: both for PDFs, colour for images.")
@click.option("--color", type=click.Choice(COLORS), default="rgb", show_default=True,
              help="Colour build in RGB (home printers) or CMYK (print shops: K-only black text, no RGB).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"),
              show_default=True, help="Folder to write into (one subfolder per deck).")
@click.option("--players", type=int, default=None,
              help="Print per-player sets for this many players (default: the most the deck allows).")
@click.option("--lang", default=None, metavar="CODE",
              help="Print in this language, from the deck's translations/ (`all`: every language it has; "
                   "default: the language it is written in).")
@click.option("--format", "formats", default="pdf", show_default=True, callback=_formats, metavar="LIST",
              help=f"What to make, comma-separated: {', '.join(FORMATS)}.")
@click.option("--dpi", type=click.IntRange(72, 1200), default=300, show_default=True,
              help="Resolution of PNG card images.")
@click.option("--preset", type=click.Choice([*sorted(PRESETS), DRIVETHRU]), default=None,
              help="Files for a print service, no marks: PNGs on its exact canvas for "
                   + ", ".join(f"{p.name} ({p.service})" for p in PRESETS.values())
                   + f"; {DRIVETHRU}: a CMYK PDF, one page per card side with 1/8 in bleed.")
@click.option("--outline-text", is_flag=True, help="SVG text as outlines: every viewer shows it alike.")
@click.option("--tts-base-url", default=None, metavar="URL",
              help="Where the Tabletop Simulator images will be hosted (default: local file paths).")
@click.option("--sleeves", default=None, callback=_sleeves, metavar="auto|NAME|WxH",
              help="Size the tuck box for sleeved cards: `auto` (the smallest sleeve the card fits), "
                   f"a sleeve ({', '.join(SLEEVES)}) or its outer size like 66x91 (mm).")
@click.option("--sleeve-thickness", default=f"{SLEEVE_THICKNESS:g}mm", show_default=True, callback=_length,
              metavar="LENGTH", help="What a sleeve adds to each card's thickness, for the box's depth.")
@click.option("--back-offset", callback=_back_offset, default=None, metavar="X,Y", help=BACK_OFFSET_HELP)
@_marks_options
def build(decks: tuple[str, ...], paper: str, ink: str | None, color: str, out: Path, players: int | None,
          lang: str | None, formats: tuple[str, ...], dpi: int, preset: str | None, outline_text: bool,
          tts_base_url: str | None, sleeves: str | tuple[float, float] | None, sleeve_thickness: float,
          back_offset: Offset | None, marks: str, back_marks: bool) -> None:
    """Build DECKS (bundled ids or deck folders; none = every bundled deck): PDF sheets by default,
    card images, SVGs, Tabletop Simulator sheets and previews with --format."""
    refs = list(decks) or bundled_deck_ids()
    if preset in PRESETS and "png" not in formats:
        formats = (*formats, "png")  # a preset is a kind of PNG set: asking for it asks for them
    papers = _choices(paper, tuple(PAPERS))
    inks = _choices(ink or "all", INKS)
    options = Options(formats, dpi, preset, outline_text, tts_base_url, color,
                      image_inks=tuple(inks) if ink else ("color",), sleeves=sleeves,
                      sleeve_thickness=sleeve_thickness, marks=marks, back_marks=back_marks)
    _remember(back_offset)
    started = time.perf_counter()
    written: dict[str, int] = {}
    pages = cards = 0
    for ref in refs:
        offset = _offset_for(back_offset, ref)
        deck_options = replace(options, back_offset=offset.value)
        if offset.used and "pdf" in formats:
            click.echo(f"{ref}: " * (len(refs) > 1) + _shift_note(offset))
        for language in _languages(ref, lang):
            result = _write(ref if language is None else f"{ref} ({language})", out, lambda bar: build_deck(
                ref, out, papers, inks, bar.advance, bar.start, players=players, lang=language,
                options=deck_options), result_deck=len(refs) > 1)
            for output in result.outputs:
                kind = output.path.suffix.lstrip(".").upper()
                written[kind] = written.get(kind, 0) + 1
            pages += sum(o.pages for o in result.outputs)
            cards += result.deck.card_count()
    seconds = time.perf_counter() - started
    files = ", ".join(_count(n, kind) for kind, n in written.items()) or "nothing"
    click.echo(f"wrote {files} ({_count(pages, 'page') + ', ' if pages else ''}{_count(cards, 'card')} from "
               f"{_count(len(refs), 'deck')}) to {out}/ in {seconds:.1f} s")


def _languages(ref: str, lang: str | None) -> list[str | None]:
    """The languages to build a deck in: the one asked for, or with `all` every one it has."""
    if lang != "all":
        return [lang]
    try:
        return list(load_deck(ref).languages)
    except DeckError as exc:
        _fail(exc)
        raise


@main.command()
@click.argument("fronts", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--back", type=click.Path(path_type=Path), default=None, metavar="IMAGE",
              help="One back for every card.")
@click.option("--backs", "backs_dir", type=click.Path(path_type=Path), default=None, metavar="DIR",
              help="A back for each front, named like it (card7.png behind card7.jpg); "
                   "with --back too, fronts without one get that.")
@click.option("--size", default="poker", show_default=True, metavar="NAME|WxH",
              help=f"Card trim: {', '.join(CARD_SIZES)}, or WIDTHxHEIGHT like 63x88 (mm) or 2.5inx3.5in.")
@click.option("--bleed", default="3mm", show_default=True, metavar="LENGTH",
              help="How far each image reaches past the trim on every side (0 for none).")
@click.option("--paper", type=click.Choice([*PAPERS, "all"]), default="all", show_default=True,
              help="Paper size of the sheets.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"),
              show_default=True, help="Folder to write into (files go in a subfolder NAME).")
@click.option("--name", default="imposed", show_default=True,
              help="Name of the files: NAME-cards-<paper>.pdf, NAME-backs-…, NAME-duplex-….")
@click.option("--back-offset", callback=_back_offset, default=None, metavar="X,Y",
              help=BACK_OFFSET_HELP.replace(f"the deck folder's {DECK_SETTINGS}, else ", ""))
@_marks_options
def impose(fronts: tuple[Path, ...], back: Path | None, backs_dir: Path | None, size: str, bleed: str,
           paper: str, out: Path, name: str, back_offset: Offset | None, marks: str, back_marks: bool) -> None:
    """Put ready-made card images (PNG, JPEG) on marked, duplex-ready sheets.

    FRONTS are image files, in the order given, or folders, whose images are sorted by name
    (card2 before card10). Each image is the whole card including its bleed, and is stretched to
    the card size plus --bleed on every side. `name x3.png` makes three cards. JPEGs are embedded
    as they are, without re-encoding.
    """
    _remember(back_offset)
    offset = _offset_for(back_offset)
    if offset.used and (back is not None or backs_dir is not None):
        click.echo(_shift_note(offset))
    started = time.perf_counter()
    result = _write(name, out, lambda bar: impose_images(
        list(fronts), out, name=name, back=back, backs_dir=backs_dir, size=card_size(size),
        bleed=parse_bleed(bleed), papers=_choices(paper, tuple(PAPERS)), progress=bar.advance, on_plan=bar.start,
        back_offset=offset.value, marks=marks, back_marks=back_marks))
    pages = sum(o.pages for o in result.outputs)
    pdfs = sum(o.path.suffix == ".pdf" for o in result.outputs)
    cuts = len(result.outputs) - pdfs
    seconds = time.perf_counter() - started
    click.echo(f"wrote {_count(pdfs, 'PDF')} ({_count(pages, 'page')}, "
               f"{_count(result.cards, 'card')} from {_count(result.images, 'image')})"
               f"{' and ' + _count(cuts, 'cut SVG') if cuts else ''} to {out / name}/ in {seconds:.1f} s")


@main.command()
@click.option("--paper", type=click.Choice(list(PAPERS)), default="a4", show_default=True,
              help="Paper size of the sheet: the one you print cards on.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"),
              show_default=True, help="Folder to write calibrate-<paper>.pdf into.")
@click.option("--back-offset", callback=_back_offset, default=None, metavar="X,Y",
              help="Save this back offset (mm, as read on the sheet's back) and print the sheet with it, "
                   "to check it; 0,0 takes it away. Default: the one saved.")
def calibrate(paper: str, out: Path, back_offset: Offset | None) -> None:
    """Write a two-page sheet that measures how far your printer puts the backs off their fronts.

    Print it double-sided (flip on the long edge) at 100 %, push a pin through the crosses and read
    the back offset on the back; then save it with --back-offset X,Y. Every later build and impose
    shifts its back pages by it.
    """
    _remember(back_offset)
    offset = _offset_for(back_offset)
    path = out / f"calibrate-{paper}.pdf"
    _or_exit(lambda: write_document(path, calibration_pages(paper, offset.value), calibration_info(paper)),
             f"cannot write to {out}")
    shifted = f"; its back page is shifted by the back offset in use, {format_offset(offset.value)} mm" \
        if offset.used else ""
    click.echo(f"wrote {path} (2 pages): print it double-sided, flipping on the long edge, at 100 %{shifted}")


@main.command("list")
def list_decks() -> None:
    """List the bundled decks with their card counts."""
    for deck_id in bundled_deck_ids():
        try:
            deck = load_deck(deck_id)
        except DeckError as exc:
            click.echo(f"{deck_id:<14} (broken: {exc})")
            continue
        extra = deck.card_count("rules-board")
        click.echo(f"{deck.id:<14} {deck.card_count('cards'):>4} cards"
                   + (f" + {extra:>2} rules/board" if extra else "")
                   + f"   {deck.title} — {deck.designer}, {deck.license}")


@main.command()
@click.argument("deck")
def check(deck: str) -> None:
    """Check DECK (its layouts, and every language it is translated into) without writing anything."""
    from .build import compose_deck

    warnings = Warnings()
    try:
        loaded = load_deck(deck)
        faces = {face for pairs in compose_deck(loaded, warnings).values() for pair in pairs for face in pair
                 if face is not None}
        for language in loaded.languages[1:]:
            translated = load_deck(deck, lang=language)
            compose_deck(translated, warnings)
            for text, line in translated.translate.unused():
                warnings(f"'{text[:40]}' is not on any card (translated to {language})",
                         translated.translate.file, line)
    except DeckError as exc:
        _fail(exc)
    _show_warnings(warnings)
    langs = f" in {', '.join(loaded.languages)}" if len(loaded.languages) > 1 else ""
    click.echo(f"{loaded.id}: ok — {loaded.card_count()} cards, {len(faces)} distinct faces{langs}"
               + (f", {len(warnings)} warning{'s' if len(warnings) != 1 else ''}" if warnings else ""))


if __name__ == "__main__":
    main()
