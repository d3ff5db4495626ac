"""The `deckpress` command: build, list and check decks, impose card images, calibrate a printer.

A thin layer over `deckpress.api`, the only part of the package it imports: options are parsed
and results reported here, the work is done there. A mistake in the input is one line,
`error: file:line: …`, and exit status 2.

Each command's options are made when the command is first used (`_Command`): they list papers,
card sizes, sleeves and presets, read from the modules that own them, while `deckpress --help`
shows only each command's first line and so stays quick.

How much is said is one setting for the whole run (`-q/--quiet`, `-v/--verbose`, before or after
the command's name), read by `_say` and `_show_warnings`: quiet says only errors, verbose adds each
file written, timings and each warning's kind. Shell completion is click's own
(`_DECKPRESS_COMPLETE=bash_source deckpress`); deck ids, papers, formats and sleeves are completed
by the `_complete_*` callbacks (README.md, "Shell completion").
"""

from __future__ import annotations

import dataclasses
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click
from click.shell_completion import CompletionItem

from . import __version__, api


class _Command(click.Command):
    """A command whose parameters are made when first needed (to parse its arguments or show its
    help), by `make_params`."""

    def __init__(self, *args: Any, make_params: Callable[[], list[click.Parameter]], **kwargs: Any) -> None:
        self._make_params: Callable[[], list[click.Parameter]] | None = make_params
        super().__init__(*args, **kwargs)

    @property  # type: ignore[override]
    def params(self) -> list[click.Parameter]:
        if self._make_params is not None:
            self._params += [*self._make_params(), *_loudness_options()]
            self._make_params = None
        return self._params

    @params.setter
    def params(self, value: list[click.Parameter]) -> None:
        self._params = value


QUIET, NORMAL, VERBOSE = -1, 0, 1
_LOUDNESS = "deckpress.loudness"  # in click's Context.meta, which every context of one run shares
_PLANNED = "deckpress.planned"  # when the work's last plan came (perf_counter): reading ends, writing begins


def _set_loudness(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if not value:
        return
    level = QUIET if param.name == "quiet" else VERBOSE
    if ctx.meta.get(_LOUDNESS, level) != level:
        raise _OptionError("-q/--quiet and -v/--verbose say opposite things: give one of them")
    ctx.meta[_LOUDNESS] = level


def _loudness_options() -> list[click.Parameter]:
    """-q and -v, on the group and on every command, so either place works."""
    return [click.Option(["-q", "--quiet"], is_flag=True, expose_value=False, callback=_set_loudness,
                         help="Say only errors: no progress bar, warnings or summary lines (--report and "
                              "--strict still count the warnings)."),
            click.Option(["-v", "--verbose"], is_flag=True, expose_value=False, callback=_set_loudness,
                         help="Say more: each file written, how long the work took, each warning's kind.")]


def _loudness() -> int:
    """QUIET, NORMAL or VERBOSE, as this run was asked (NORMAL outside a command: another thread)."""
    ctx = click.get_current_context(silent=True)
    return ctx.meta.get(_LOUDNESS, NORMAL) if ctx is not None else NORMAL


def _say(message: str, level: int = NORMAL, err: bool = False) -> None:
    """Print `message` when the run is at least as loud as `level` (errors use click.echo)."""
    if _loudness() >= level:
        click.echo(message, err=err)


def _formats(ctx: click.Context, param: click.Parameter, value: str) -> tuple[str, ...]:
    """`pdf,png` → ("pdf", "png"), each checked against the formats there are."""
    try:
        return api.choose(value.lower(), api.FORMATS, "format", allow_all=False) or ("pdf",)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


def _sleeves(ctx: click.Context, param: click.Parameter, value: str | None) -> str | tuple[float, float] | None:
    """`auto`, a sleeve's name, or its size like `66x91`."""
    if value is None or value == "auto":
        return value
    try:
        return api.parse_size(value, api.SLEEVES, "sleeve")
    except ValueError as exc:
        close = api.suggest(value, api.SLEEVES)
        raise _OptionError(f"--sleeves: {exc}{f' — did you mean {close!r}?' if close else ''}") from None


def _length(ctx: click.Context, param: click.Parameter, value: str) -> float:
    option = "--" + (param.name or "length").replace("_", "-")
    try:
        length = api.parse_mm(value, option)
    except ValueError as exc:
        raise _OptionError(f"{option}: {exc}") from None
    if length < 0:
        raise _OptionError(f"{option}: '{value}' cannot be negative")
    return length


def _fail(exc: api.DeckError) -> None:
    click.echo(f"error: {exc}", err=True)
    sys.exit(2)


class _OptionError(click.ClickException):
    """A bad option value, said like every other mistake in the input: one line
    `error: --option: what was expected`, exit status 2 (click's own errors add a usage block)."""

    exit_code = 2

    def show(self, file=None) -> None:
        click.echo(f"error: {api.said(self.format_message())}", err=True)


def _back_offset(ctx: click.Context, param: click.Parameter, value: str | None) -> api.Offset | None:
    """`0.5,-1.2` → (0.5, -1.2) mm; None when the option is not given (the saved offset is used)."""
    if value is None:
        return None
    try:
        return api.parse_back_offset(value)
    except ValueError as exc:
        raise _OptionError(f"--back-offset: {exc}") from None


def _back_offset_option(help: str) -> click.Option:
    return click.Option(["--back-offset"], callback=_back_offset, default=None, metavar="X,Y", help=help)


def _back_offset_help() -> str:
    return ("Shift every back page by X,Y mm (X right, Y down, as seen on the back), as `deckpress "
            "calibrate` measures it. Remembered for later runs; 0,0 takes it away. "
            f"Default: the deck folder's {api.DECK_SETTINGS}, else the last one given.")


MARKS_HELP = ("How to mark the sheets for cutting: `corners` (crop marks), `lines` (cut lines out to the paper's "
              "edge), `none` (bare pages for a print shop: no scale bar or label either), `cutter` (registration "
              "marks for a cutting machine, see --cutter, and its cut files of each page in cut/).")
CUTTER_HELP = ("Lay sheets out for a cutting machine, with its registration marks and cut files (implies "
               "--marks cutter): `silhouette` (type 1 marks; SVG and DXF), `silhouette-4` (four L marks, Cameo 4 "
               "and later), `cricut` (Print Then Cut: a PNG and SVG per sheet for Design Space), `scanncut` "
               "(Brother: no marks, SVG and DXF), or a profile file (.yaml). README \"Cutting\" says how.")
DIE_LINE_HELP = ("Stroke each piece's cut path in the PDFs in a spot colour (default CutContour), overprinting, "
                 "in a layer shown on screen but not printed: for a print-and-cut RIP or a die-cutting factory.")


def _marks_options() -> list[click.Parameter]:
    """--marks and --back-marks, alike on every command that lays out sheets."""
    return [click.Option(["--marks"], type=click.Choice(api.MARK_MODES), default="corners", show_default=True,
                         help=MARKS_HELP),
            click.Option(["--back-marks"], is_flag=True,
                         help="Mark back pages too (crop marks in cutter mode); by default backs are "
                              "cut from their fronts and carry none."),
            click.Option(["--cutter"], default=None, metavar="silhouette|silhouette-4|cricut|scanncut|FILE",
                         shell_complete=lambda *_: [CompletionItem(n) for n in api.CUTTERS], help=CUTTER_HELP),
            click.Option(["--die-line"], is_flag=False, flag_value="CutContour", default=None, metavar="[NAME]",
                         help=DIE_LINE_HELP)]


def _paper_option() -> click.Option:
    return click.Option(["--paper"], default="all", show_default=True, callback=_papers,
                        shell_complete=_complete_papers, metavar="|".join([*api.PAPERS, "WxH", "all"]),
                        help="Paper size of the sheets, or several, comma-separated: `universal` is 210 × 279.4 mm, "
                             "which prints unscaled on A4 and Letter alike; WxH a size of your own like 210x297mm or "
                             "8.5x11in; `all` is a4 and letter.")


def _papers(ctx: click.Context, param: click.Parameter, value: str) -> tuple[str, ...]:
    """`a4,8.5x11in` → ("a4", "215.9x279.4mm"): each paper by the name its files get."""
    try:
        return api.choose_papers(value)
    except ValueError as exc:
        raise _OptionError(f"--paper: {exc}") from None


def _complete_list(names: list[str], incomplete: str, several: bool = True) -> list[CompletionItem]:
    """Shell completion of a name, or of the last of a comma-separated list of them (`a4,let` →
    `a4,letter`), leaving out names already given."""
    done, _, last = incomplete.rpartition(",") if several else ("", "", incomplete)
    given = done.split(",") if done else []
    return [CompletionItem(f"{done},{name}" if done else name) for name in names
            if name.startswith(last.lower()) and name not in given]


def _complete_papers(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    return _complete_list([*api.PAPERS, *(["all"] if "," not in incomplete else [])], incomplete)


def _complete_paper(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    return _complete_list(list(api.PAPERS), incomplete, several=False)


def _complete_formats(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    return _complete_list(list(api.FORMATS), incomplete)


def _complete_sleeves(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    return _complete_list(["auto", *api.SLEEVES], incomplete, several=False)


def _complete_sizes(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    return _complete_list(list(api.CARD_SIZES), incomplete, several=False)


def _complete_decks(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Bundled deck ids and the deck folders here, as `deckpress list` shows them (`./decks/mygame`,
    or `decks/mygame` when that is how the word began); once nothing matches, the shell's own
    completion of folder names, for a deck anywhere else."""
    try:
        listed = api.list_decks(".")
    except Exception:  # completion runs in the shell at each Tab: never a traceback there
        listed = []
    items = []
    for deck in listed:
        ref = deck.ref if incomplete[:1] in ("", ".") or deck.bundled else deck.ref.removeprefix("./")
        if ref.startswith(incomplete):
            items.append(CompletionItem(ref, help="bundled deck" if deck.bundled else "deck folder"))
    return items or [CompletionItem(incomplete, type="dir")]


def _paper(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """One paper (the calibration sheet's), by the name its file gets."""
    try:
        return api.paper_name(value)
    except ValueError as exc:
        raise _OptionError(f"--paper: {exc}") from None


def _gap_option() -> click.Option:
    return click.Option(["--gap"], default=None, callback=_gap, metavar="LENGTH",
                        help="Space between cards on the card sheets, like 3mm: each card gets its own bleed (half the "
                             "gap at most) and its own cut lines, so a slightly off cut shows no neighbour's "
                             "colour. 0 butts them. Default: the deck's `gap:` (0 for images).")


def _gap(ctx: click.Context, param: click.Parameter, value: str | None) -> float | None:
    if value is None:
        return None
    gap = _length(ctx, param, value)
    try:
        return api.checked_gap(gap)
    except ValueError as exc:
        raise _OptionError(f"--gap: {exc}") from None


def _out_option(help: str) -> click.Option:
    return click.Option(["--out"], type=click.Path(file_okay=False, path_type=Path), default=Path("output"),
                        show_default=True, help=help)


T = TypeVar("T")


def _or_exit(work: Callable[[], T], cannot: str) -> T:
    """Run `work`. A mistake in the input is one line and exit status 2; a file that cannot be
    written is not the input's fault: one line, `error: <cannot>: <why>`, exit status 1."""
    try:
        return work()
    except api.DeckError as exc:
        _fail(exc)
        raise
    except OSError as exc:
        click.echo(f"error: {api.said(f'{cannot}: {exc.strerror or exc}')}", err=True)
        sys.exit(1)


def _remember(offset: api.Offset | None, printer: api.Printer | None = None) -> None:
    """Save a back offset given on the command line (in the profile of the printer in use, if
    one is), and say so in one line."""
    if offset is None:
        return
    if printer is not None:
        path = _or_exit(lambda: api.save_printer(dataclasses.replace(printer, back_offset=offset)),
                        "cannot save the back offset")
        _say(f"back offset {api.format_offset(offset)} mm saved to printer {printer.name} in "
             f"{api.display_path(path)}")
        return
    path = _or_exit(lambda: api.save_back_offset(offset), "cannot save the back offset")
    _say(f"back offset {api.format_offset(offset)} mm saved to {api.display_path(path)}")


def _offset_for(given: api.Offset | None, deck_ref: str | None = None, printer: api.Printer | None = None):
    """The back offset to use: the command line's, a printer's named here, the deck folder's, the
    default printer's, the user's, or none."""
    return _or_exit(lambda: api.back_offset_for(given, deck_ref, printer), "cannot read the settings")


def _printer_for(name: str | None) -> api.Printer | None:
    """The printer a run prints for (--printer NAME, else the default one, else none), said in one line."""
    printer = _or_exit(lambda: api.printer_named(name), "cannot read the settings")
    if printer is not None:
        how = "" if printer.named else " (the default printer)"
        _say(f"printer {printer.name}{how}: {printer.describe()}")
    return printer


def _complete_printers(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    try:
        names = api.read_printers().names()
    except (api.DeckError, OSError):
        return []
    return [CompletionItem(name) for name in names if name.startswith(incomplete)]


def _printer_option() -> click.Option:
    return click.Option(["--printer", "printer_name"], default=None, metavar="NAME", shell_complete=_complete_printers,
                        help="Print for this printer's profile (`deckpress printer add`): its scale, back offset, "
                             "margins and duplex flip edge. Default: the default printer, if one is set.")


def _shift_note(offset) -> str:
    """Which back offset this run uses, and where it comes from, so a saved one never surprises."""
    source = "given with --back-offset" if offset.source == "--back-offset" else f"back offset from {offset.source}"
    return f"back pages shifted by {api.format_offset(offset.value)} mm ({source})"


def _report_options() -> list[click.Parameter]:
    """--report and --strict, alike on build and check."""
    return [click.Option(["--report", "report_file"], type=click.Path(dir_okay=False, path_type=Path), default=None,
                         metavar="FILE.json",
                         help="Also write a report as JSON: per deck its counts, the files written and every "
                              "warning with its file, line, kind and message."),
            click.Option(["--strict"], is_flag=True,
                         help="Exit with status 1 if there was any warning (after writing everything).")]


def _finish(report: api.Report, report_file: Path | None, strict: bool) -> None:
    """Write the report if asked for; with --strict, a warning is exit status 1."""
    if report_file is not None:
        _or_exit(lambda: report.write(report_file), f"cannot write the report {report_file}")
    if strict and report.warnings:
        click.echo(f"--strict: {api.counted(report.warnings, 'warning')}, exit status 1", err=True)
        sys.exit(1)


def _show_warnings(warnings: api.Warnings, deck: str = "") -> None:
    """One line each (none when quiet; with its kind, as --report names it, when verbose); `deck`
    names the deck when several are built and a message names no file."""
    for warning in warnings:
        line = str(warning)
        named = f"{api.printable(deck)}: " if deck and api.DECK_FILE not in line else ""
        kind = f" [{warning.kind}]" if _loudness() >= VERBOSE else ""
        _say(f"warning: {named}{line}{kind}", err=True)


def _show_files(outputs: list[api.Output]) -> None:
    """Verbose: each file written, indented under its deck's line, with its pages."""
    for output in outputs:
        pages = f" ({api.counted(output.pages, 'page')})" if output.pages else ""
        _say(f"  {api.printable(str(output.path))}{pages}", VERBOSE)


def _say_timings(started: float, seconds: float) -> None:
    """Verbose: how the time went, reading, composing and laying out (to the last plan) then writing."""
    planned = click.get_current_context().meta.get(_PLANNED)
    if planned is not None:
        _say(f"timings: read, composed and laid out in {planned - started:.2f} s, "
             f"written in {started + seconds - planned:.2f} s", VERBOSE)


class _Bar:
    """A progress bar on stderr when it is a terminal; nothing when output is piped. Each `start`
    adds its total: decks built at once each say theirs when they begin."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.bar = None
        self.shown = sys.stderr.isatty() and _loudness() > QUIET  # read here: start may come from another thread
        self.planned: float | None = None  # when the last plan came (perf_counter)

    def start(self, total: int) -> None:
        self.planned = time.perf_counter()
        if self.bar is not None:
            self.bar.length += total
        elif self.shown:
            self.bar = click.progressbar(length=total, label=f"{self.label:<14}", file=sys.stderr)
            self.bar.__enter__()

    def advance(self, n: int) -> None:
        if self.bar is not None:
            self.bar.update(n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


def _write(label: str, out: Path, work: Callable[[_Bar], T]) -> T:
    """Run `work` with a progress bar; errors as `_or_exit` says."""
    bar = _Bar(label)
    try:
        return _or_exit(lambda: work(bar), f"cannot write to {out}")
    finally:
        bar.close()
        click.get_current_context().meta[_PLANNED] = bar.planned  # for _say_timings


@click.group(context_settings={"help_option_names": ["-h", "--help"]}, params=_loudness_options())
@click.version_option(__version__, prog_name="deckpress")
def main() -> None:
    """Print-and-play card decks from YAML: printable PDF sheets with crop marks and matching backs."""
    _quiet_libraries()


def _quiet_libraries() -> None:
    """What the libraries log (fontTools, Pillow, pikepdf, openpyxl, watchfiles) and the Python
    warnings they raise ("Corrupt EXIF data") never reach the terminal: with no handler set up,
    Python prints a library's warnings and its log records of level WARNING and up on stderr, so a
    bad picture gave two lines of Pillow before deckpress's one `error:` line. deckpress says what
    matters itself, as its errors and warnings. Warnings go to the logger `py.warnings`, and every
    record ends at a handler that drops it (`deckpress.build` called from a program leaves that
    program's logging as it is)."""
    import logging

    root = logging.getLogger()
    if not any(isinstance(handler, logging.NullHandler) for handler in root.handlers):
        root.addHandler(logging.NullHandler())
    logging.captureWarnings(True)


def _refresh_option() -> click.Option:
    return click.Option(["--refresh"], is_flag=True,
                        help="Fetch card lists kept at web addresses (cards: https://…) anew, and fail rather "
                             "than use the copy in .deckpress/cache when that cannot be done.")


def _build_params() -> list[click.Parameter]:
    presets = api.PRESETS
    return [
        click.Argument(["decks"], nargs=-1, shell_complete=_complete_decks),
        _paper_option(),
        click.Option(["--ink"], type=click.Choice([*api.INKS, "all"]), default=None,
                     help="Full colour, greyscale low-ink, or both (`all`). "
                          "Default: both for PDFs, colour for images."),
        click.Option(["--color"], type=click.Choice(api.COLORS), default="rgb", show_default=True,
                     help="Colour build in RGB (home printers) or CMYK (print shops: K-only black text, no RGB)."),
        click.Option(["--icc"], type=click.Path(path_type=Path, dir_okay=False), default=None, metavar="FILE",
                     help="Separate CMYK files (--color cmyk, --preset drivethru or factory) with this CMYK output ICC "
                          "profile, the print shop's press profile, instead of deckpress's formula."),
        _out_option("Folder to write into (one subfolder per deck)."),
        click.Option(["--players"], type=int, default=None,
                     help="Print per-player sets for this many players (default: the most the deck allows)."),
        click.Option(["--lang"], default=None, metavar="CODE",
                     help="Print in this language alone: the deck's own or one of its translations/ "
                          "(default, or `all`: every language it has)."),
        click.Option(["--format", "formats"], default="pdf", show_default=True, callback=_formats, metavar="LIST",
                     shell_complete=_complete_formats,
                     help=f"What to make, comma-separated: {', '.join(api.FORMATS)}."),
        click.Option(["--dpi"], type=click.IntRange(72, 1200), default=300, show_default=True,
                     help="Resolution of PNG card images."),
        click.Option(["--preset"], type=click.Choice([*sorted(presets), api.DRIVETHRU, api.DRIVETHRU_BOX, api.FACTORY]),
                     default=None,
                     help="Files for a print service, no marks: PNGs on its exact canvas for "
                          + ", ".join(f"{p.name} ({p.service})" for p in presets.values())
                          + f"; {api.DRIVETHRU}: a CMYK PDF/X-1a file, one page per card side with 1/8 in "
                          f"bleed; {api.DRIVETHRU_BOX}: its tuck box, the deck's, without bleed or lines; "
                          f"{api.FACTORY}: a CMYK PDF/X-4 file per component (the --icc profile "
                          "embedded), 3 mm bleed, each piece's die line in a spot colour (--die-line's name)."),
        click.Option(["--pdfx"], type=click.Choice(api.PDFX), default="4", show_default=True,
                     help="The PDF/X of --preset factory's files: 4 (transparency kept, needs --icc) or 1a "
                          "(flattened, names SWOP)."),
        click.Option(["--outline-text"], is_flag=True,
                     help="SVG text as outlines only, no text in the file (by default the words stay, over their glyphs)."),
        click.Option(["--tts-base-url"], default=None, metavar="URL",
                     help="Where the Tabletop Simulator images will be hosted (default: local file paths)."),
        click.Option(["--sleeves"], default=None, callback=_sleeves, metavar="auto|NAME|WxH",
                     shell_complete=_complete_sleeves,
                     help="Size the tuck box for sleeved cards: `auto` (the smallest sleeve the card fits), "
                          f"a sleeve ({', '.join(api.SLEEVES)}) or its outer size like 66x91 (mm)."),
        click.Option(["--sleeve-thickness"], default=f"{api.SLEEVE_THICKNESS:g}mm", show_default=True,
                     callback=_length, metavar="LENGTH",
                     help="What a sleeve adds to each card's thickness, for the box's depth."),
        _back_offset_option(_back_offset_help()),
        _printer_option(),
        *_marks_options(),
        _gap_option(),
        click.Option(["--only"], multiple=True, metavar="FIELD=VALUE[,VALUE…]",
                     help="A playtest build of some cards: those whose FIELD is one of the VALUEs "
                          "(component=NAME, name=…, number=…, or any field); repeat to narrow it further. "
                          "No box is made."),
        click.Option(["--shop-size"], default=None, metavar="WxH",
                     help=f"Size in pixels of the hand and showcase pictures (default {api.SHOP_SIZE})."),
        click.Option(["--shop-background"], default=None, metavar="#RRGGBB|transparent",
                     help=f"Their background (default {api.SHOP_BACKGROUND}); transparent for a PNG with alpha."),
        click.Option(["--shop-cards"], type=click.IntRange(1, 20), default=None, metavar="N",
                     help=f"How many cards they show: the first distinct fronts, of the cards --only chooses "
                          f"(default {api.SHOP_CARDS})."),
        click.Option(["--changed-since"], type=click.Path(path_type=Path, dir_okay=False), default=None,
                     metavar="REPORT.json",
                     help="Write only <deck>-update-<paper>.pdf: a page listing what was added, removed and "
                          "changed since the build that wrote REPORT.json (--report), then those cards."),
        _refresh_option(),
        *_report_options(),
    ]


@main.command(cls=_Command, make_params=_build_params)
def build(decks: tuple[str, ...], paper: tuple[str, ...], ink: str | None, color: str, icc: Path | None, out: Path,
          players: int | None, refresh: bool,
          lang: str | None, formats: tuple[str, ...], dpi: int, preset: str | None, pdfx: str, outline_text: bool,
          tts_base_url: str | None, sleeves: str | tuple[float, float] | None, sleeve_thickness: float,
          back_offset: api.Offset | None, printer_name: str | None, marks: str, back_marks: bool, cutter: str | None,
          die_line: str | None, gap: float | None, only: tuple[str, ...], changed_since: Path | None,
          shop_size: str | None, shop_background: str | None, shop_cards: int | None,
          report_file: Path | None, strict: bool) -> None:
    """Build DECKS (bundled ids or deck folders; none = every bundled deck), each in every language
    it has (--lang picks one): PDF sheets by default, card images, SVGs, Tabletop Simulator sheets
    and previews with --format. Ends with a line per deck and language built, and one for the
    whole build."""
    refs = list(decks) or [listed.ref for listed in api.list_decks(None)]
    printer = _printer_for(printer_name)
    _remember(back_offset, printer)
    started = time.perf_counter()
    offsets = {}
    for ref in refs:  # each deck has its own: its folder may have one
        offset = offsets[ref] = _offset_for(back_offset, ref, printer)
        if offset.used and "pdf" in formats:
            _say(f"{ref}: " * (len(refs) > 1) + _shift_note(offset))
    # one call for every deck, which builds them at once (one bar for them all, fed as each moves)
    results = _write(refs[0] if len(refs) == 1 else api.counted(len(refs), "deck"), out, lambda bar: api.build(
        refs, out, papers=paper, inks=ink, color=color, icc=icc, formats=formats, players=players, lang=lang,
        refresh=refresh,
        dpi=dpi, preset=preset, pdfx=pdfx, outline_text=outline_text, tts_base_url=tts_base_url, sleeves=sleeves,
        sleeve_thickness=sleeve_thickness, back_offset={ref: offset.value for ref, offset in offsets.items()},
        printer=printer,
        marks=marks, back_marks=back_marks, gap=gap, only=only, changed_since=changed_since,
        shop_size=shop_size, shop_background=shop_background, shop_cards=shop_cards,
        sides=report_file is not None,  # a report records what each card looks like, for --changed-since
        cutter=cutter, die_line=die_line or False, progress=bar.advance, on_plan=bar.start))
    for result in results:
        _show_warnings(result.warnings, result.deck.id if len(refs) > 1 else "")
    seconds = time.perf_counter() - started
    report = api.Report.of(results)
    written = Counter(Path(file).suffix.lstrip(".").upper() for deck in report.decks for file in deck.files or ())
    for result, deck in zip(results, report.decks):
        _say(deck.line())
        _show_files(result.outputs)
    _say_timings(started, seconds)
    files = ", ".join(api.counted(n, kind) for kind, n in written.items()) or "nothing"
    totals = report.totals()
    pages = api.counted(totals["pages"], "page") + ", " if totals["pages"] else ""
    warned = f", {api.counted(report.warnings, 'warning')}" if report.warnings else ""
    # a build in a translation says its languages: `from 5 decks in 2 languages`, `from 1 deck in en`
    spoken = list(dict.fromkeys(deck.language for deck in report.decks))
    also = "" if all(deck.language == deck.languages[0] for deck in report.decks) else \
        f" in {spoken[0] if len(spoken) == 1 else api.counted(len(spoken), 'language')}"
    _say(f"wrote {files} ({pages}{api.counted(totals['cards'], 'card')} from "
         f"{api.counted(len(refs), 'deck')}{also}) to {out}/ in {seconds:.1f} s{warned}")
    _finish(report, report_file, strict)


def _impose_params() -> list[click.Parameter]:
    return [
        click.Argument(["fronts"], nargs=-1, required=True, type=click.Path(path_type=Path)),
        click.Option(["--back"], type=click.Path(path_type=Path), default=None, metavar="IMAGE",
                     help="One back for every card."),
        click.Option(["--backs", "backs_dir"], type=click.Path(path_type=Path), default=None, metavar="DIR",
                     help="A back for each front, named like it (card7.png behind card7.jpg); "
                          "with --back too, fronts without one get that."),
        click.Option(["--size"], default="poker", show_default=True, metavar="NAME|WxH", shell_complete=_complete_sizes,
                     help=f"Card trim: {', '.join(api.CARD_SIZES)}, or WIDTHxHEIGHT like 63x88 (mm) or 2.5inx3.5in."),
        click.Option(["--bleed"], default=None, metavar="LENGTH",
                     help="How far each image reaches past the trim on every side (0 for none).  [default: 3mm]"),
        click.Option(["--make-bleed"], default=None, metavar="LENGTH",
                     help="The images stop at the trim: mirror each about its edges into this much bleed, "
                          "like 3mm."),
        _paper_option(),
        _out_option("Folder to write into (files go in a subfolder NAME)."),
        click.Option(["--name"], default="imposed", show_default=True,
                     help="Name of the files: NAME-cards-<paper>.pdf, NAME-backs-…, NAME-duplex-…."),
        _back_offset_option(_back_offset_help().replace(f"the deck folder's {api.DECK_SETTINGS}, else ", "")),
        _printer_option(),
        *_marks_options(),
        _gap_option(),
    ]


@main.command(cls=_Command, make_params=_impose_params)
def impose(fronts: tuple[Path, ...], back: Path | None, backs_dir: Path | None, size: str, bleed: str | None,
           make_bleed: str | None, paper: tuple[str, ...], out: Path, name: str, back_offset: api.Offset | None,
           printer_name: str | None, marks: str, back_marks: bool, cutter: str | None, die_line: str | None,
           gap: float | None) -> None:
    """Put ready-made card images (PNG, JPEG, WebP, TIFF, GIF, BMP, PSD, SVG, PDF pages) on marked, duplex-ready sheets.

    FRONTS are image files, in the order given, or folders, whose images are sorted by name
    (card2 before card10). Each image is the whole card including its bleed, and is stretched to
    the card size plus --bleed on every side; images that stop at the trim are stretched to the
    card size and, with --make-bleed, mirrored about their edges into the bleed. `name x3.png`
    makes three cards. JPEGs are embedded as they are, without re-encoding; a GIF prints its first
    frame, a PSD its flattened composite.
    """
    printer = _printer_for(printer_name)
    _remember(back_offset, printer)
    offset = _offset_for(back_offset, printer=printer)
    if offset.used and (back is not None or backs_dir is not None):
        _say(_shift_note(offset))
    started = time.perf_counter()
    result = _write(name, out, lambda bar: api.impose(
        list(fronts), out, name=name, back=back, backs=backs_dir, size=size, bleed=bleed, make_bleed=make_bleed,
        papers=paper, progress=bar.advance, on_plan=bar.start, back_offset=offset.value, marks=marks,
        back_marks=back_marks, gap=gap or 0.0, cutter=cutter, die_line=die_line or False, printer=printer))
    _show_warnings(result.warnings)
    _show_files(result.outputs)
    pages = sum(o.pages for o in result.outputs)
    pdfs = sum(o.path.suffix == ".pdf" for o in result.outputs)
    cuts = Counter(o.path.suffix.lstrip(".").upper() for o in result.outputs if o.path.suffix != ".pdf")
    cut_files = ", ".join(api.counted(n, f"cut {kind}") for kind, n in cuts.items())
    seconds = time.perf_counter() - started
    _say_timings(started, seconds)
    _say(f"wrote {api.counted(pdfs, 'PDF')} ({api.counted(pages, 'page')}, "
         f"{api.counted(result.cards, 'card')} from {api.counted(result.images, 'image')})"
         f"{' and ' + cut_files if cut_files else ''} to {out / name}/ in {seconds:.1f} s")


def _calibrate_params() -> list[click.Parameter]:
    return [
        click.Option(["--paper"], default="a4", show_default=True, callback=_paper, shell_complete=_complete_paper,
                     metavar="|".join([*api.PAPERS, "WxH"]),
                     help="Paper size of the sheet: the one you print cards on (a name, or WxH like 8.5x11in)."),
        _out_option("Folder to write calibrate-<paper>.pdf into."),
        _back_offset_option("Save this back offset (mm, as read on the sheet's back; in the printer's profile "
                            "when one is in use) and print the sheet with it, to check it; 0,0 takes it away. "
                            "Default: the one saved."),
        _printer_option(),
    ]


@main.command(cls=_Command, make_params=_calibrate_params)
def calibrate(paper: str, out: Path, back_offset: api.Offset | None, printer_name: str | None) -> None:
    """Write a two-page sheet that measures your printer's scale and how far it puts the backs off their fronts.

    Print it double-sided at 100 %, measure its two rulers and save what they read with
    `deckpress printer add NAME --scale X/LENGTH,Y/LENGTH`; push a pin through the crosses and read
    the back offset on the back; then save it with --back-offset X,Y. Every later build and impose
    prints at that scale and shifts its back pages by that offset. The sheet itself is never
    scaled: its rulers measure the printer as it is.
    """
    printer = _printer_for(printer_name)
    _remember(back_offset, printer)
    offset = _offset_for(back_offset, printer=printer)
    path = _or_exit(lambda: api.calibrate(out, paper=paper, back_offset=offset.value, printer=printer),
                    f"cannot write to {out}")
    shifted = f"; its back page is shifted by the back offset in use, {api.format_offset(offset.value)} mm" \
        if offset.used else ""
    flip = printer.flip if printer is not None else "long"
    _say(f"wrote {path} (2 pages): print it double-sided, flipping on the {flip} edge, at 100 %{shifted}")


# --- printer profiles ------------------------------------------------------------------------------

def _parsed(parse: Callable[[Any], T], option: str) -> Callable[[click.Context, click.Parameter, Any], T | None]:
    """A click callback reading an option with `parse`, its ValueError one line naming the option."""
    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> T | None:
        if value is None:
            return None
        try:
            return parse(value)
        except ValueError as exc:
            raise _OptionError(f"{option}: {exc}") from None
    return callback


@main.group(params=_loudness_options())
def printer() -> None:
    """Printer profiles: scale, back offset, unprintable margins and duplex flip edge, by name.

    Measure a printer with `deckpress calibrate`, save what it reads with `deckpress printer add
    NAME --scale X/LENGTH,Y/LENGTH --back-offset X,Y --margins 5mm`, then build with
    `--printer NAME` (or make it the default: `deckpress printer default NAME`). Profiles live in
    the user's settings file, beside the back offset.
    """


def _name(ctx: click.Context, param: click.Parameter, value: str) -> str:
    try:
        return api.check_printer_name(value)
    except ValueError as exc:
        raise _OptionError(str(exc)) from None


@printer.command("add", cls=_Command, make_params=lambda: [
    click.Argument(["name"], callback=_name, shell_complete=_complete_printers),
    click.Option(["--scale"], callback=_parsed(api.parse_scale, "--scale"), metavar="X,Y",
                 help="What the printer makes of 100 %, across and down the page: 99.2%,100.4%, one value for "
                      "both, or what the calibration sheet's rulers measured over their length, like "
                      "169.2/170,220.9/220. Default: 100%."),
    _back_offset_option("Shift back pages by X,Y mm (X right, Y down, as seen on the back), as "
                        "`deckpress calibrate` reads it. Default: 0,0."),
    click.Option(["--margins"], callback=_parsed(api.parse_margins, "--margins"), metavar="MM|T,R,B,L",
                 help="What the printer cannot print along each edge: 5mm for every edge, or top,right,bottom,left "
                      "like 5,4,12,4 (mm). Sheets keep every piece, its bleed and every mark inside. "
                      "Default: 4.2 mm."),
    click.Option(["--flip"], callback=_parsed(api.parse_flip, "--flip"), metavar="long|short",
                 help="The edge the printer turns a sheet over on to print its back. Default: long."),
    click.Option(["--default", "make_default"], is_flag=True, help="Use this printer when no --printer is given."),
])
def printer_add(name: str, scale: tuple[float, float] | None, back_offset: api.Offset | None,
                margins: tuple[float, float, float, float] | None, flip: str | None, make_default: bool) -> None:
    """Save the printer NAME's profile, or change what is given of an existing one."""
    book = _or_exit(api.read_printers, "cannot read the settings")
    found = book.get(name) or api.Printer(name)
    changed = {key: value for key, value in (("scale", scale), ("back_offset", back_offset), ("margins", margins),
                                             ("flip", flip)) if value is not None}
    saved = dataclasses.replace(found, **changed)
    path = _or_exit(lambda: api.save_printer(saved, make_default), "cannot save the printer")
    default = " (the default printer)" if make_default or book.default == name else ""
    _say(f"printer {name}{default} saved to {api.display_path(path)}: {saved.describe()}")
    if not default:
        _say(f"build with --printer {name}, or make it the default: deckpress printer default {name}")


@printer.command("list", cls=_Command, make_params=lambda: [])
def printer_list() -> None:
    """List the saved printers, the default one marked with *."""
    book = _or_exit(api.read_printers, "cannot read the settings")
    if not book.printers:
        _say("no printer saved: deckpress printer add NAME --scale X,Y --back-offset X,Y --margins MM")
    for saved in book.printers:
        click.echo(f"{'*' if saved.name == book.default else ' '} {saved.name}: {saved.describe()}")


@printer.command("remove", cls=_Command, make_params=lambda: [
    click.Argument(["name"], shell_complete=_complete_printers)])
def printer_remove(name: str) -> None:
    """Forget the printer NAME."""
    path = _or_exit(lambda: api.remove_printer(name), "cannot save the settings")
    _say(f"printer {name} removed from {api.display_path(path)}")


@printer.command("default", cls=_Command, make_params=lambda: [
    click.Argument(["name"], required=False, shell_complete=_complete_printers),
    click.Option(["--none", "no_default"], is_flag=True, help="Use no printer's profile when none is named.")])
def printer_default(name: str | None, no_default: bool) -> None:
    """Make the printer NAME the one every build, impose and calibrate uses when no --printer is
    given (--none: no default printer)."""
    if (name is None) == (not no_default):
        raise _OptionError("give a printer's name, or --none for no default printer")
    path = _or_exit(lambda: api.set_default_printer(name), "cannot save the settings")
    _say(f"default printer: {name or 'none'} (in {api.display_path(path)})")


@main.command("list", cls=_Command, make_params=lambda: [
    click.Argument(["folders"], nargs=-1, type=click.Path(path_type=Path))])
def list_decks(folders: tuple[Path, ...]) -> None:
    """List the bundled decks, then the deck folders in FOLDERS (default: here), with their card counts.

    A folder's decks are the folder itself if it holds a deck.yaml, its subfolders that do, and
    those in its decks/ folder, shown by their path (like ./decks/mygame): what to give
    `deckpress build`. Bundled decks are shown by id.
    """
    for folder in folders:
        if not folder.is_dir():
            raise _OptionError(f"no folder '{folder}' to list the decks of")
    sections = [("bundled decks:", api.list_decks(None))]
    for folder in folders or (Path("."),):
        where = "here" if folder == Path(".") else f"in {folder}"
        sections.append((f"deck folders {where}:", api.list_decks(folder, bundled=False)))
    for number, (heading, listed) in enumerate(sections):
        click.echo(("\n" if number else "") + heading)
        width = max([14, *(len(deck.ref) for deck in listed)])
        for deck in listed:
            click.echo(f"  {deck.ref:<{width}} {_listing(deck.ref)}")
        if not listed:
            click.echo("  none (a deck folder holds a deck.yaml: here, in a subfolder, or in decks/)")


def _listing(ref: str) -> str:
    """A deck's card counts, title and credits, or why it cannot be read."""
    try:
        deck = api.load_deck(ref)
    except api.DeckError as exc:
        return f"(broken: {exc})"
    extra = deck.card_count("rules-board")
    return (f"{deck.card_count('cards'):>4} cards" + (f" + {extra:>2} rules/board" if extra else "")
            + api.printable(f"   {deck.title} — {deck.designer}, {deck.license}"))


@main.command(cls=_Command, make_params=lambda: [click.Argument(["deck"], shell_complete=_complete_decks),
                                                 _refresh_option(), *_report_options()])
def check(deck: str, refresh: bool, report_file: Path | None, strict: bool) -> None:
    """Check DECK (its layouts, and every language it is translated into) without writing anything
    but the --report. Every mistake it can go on past is said, each on its own line, file by file."""
    try:
        result = api.check(deck, refresh=refresh)
    except api.DeckError as exc:
        _fail_all(exc)
        raise
    _show_warnings(result.warnings)
    report = api.Report.of([result])
    _say(report.decks[0].line())
    _finish(report, report_file, strict)


#: mistakes `check` prints before saying how many more there are
MAX_MISTAKES_SHOWN = 50


def _fail_all(exc: api.DeckError) -> None:
    """Each mistake of a check on its own line, `error: file:line: …` (at most MAX_MISTAKES_SHOWN,
    then how many more), and exit status 2."""
    errors = exc.errors if isinstance(exc, api.DeckErrors) else [exc]
    for error in errors[:MAX_MISTAKES_SHOWN]:
        click.echo(f"error: {error}", err=True)
    if len(errors) > MAX_MISTAKES_SHOWN:
        click.echo(f"… and {api.counted(len(errors) - MAX_MISTAKES_SHOWN, 'more mistake')}", err=True)
    if len(errors) > 1:
        files = len({error.file for error in errors})
        click.echo(f"{api.counted(len(errors), 'mistake')} in {api.counted(files, 'file')}", err=True)
    sys.exit(2)


def _new_params() -> list[click.Parameter]:
    return [click.Argument(["name"]),
            click.Option(["--from", "base"], default=None, metavar="DECK", shell_complete=_complete_decks,
                         help="Extend DECK (a bundled id or a deck folder) instead: the new deck.yaml holds "
                              "only what differs, with a commented example of each kind of change.")]


@main.command(cls=_Command, make_params=_new_params)
def new(name: str, base: str | None) -> None:
    """Start a deck in the folder NAME (its last part becomes the deck's id): a deck.yaml, a layout,
    cards in a CSV, an SVG picture, a rule card and a README saying what to edit. It checks clean
    and builds as it is. An existing folder is never written over."""
    folder = _or_exit(lambda: api.new_deck(name, base=base), f"cannot write {name}")
    ref = api.folder_ref(api.display_path(folder))
    made = f"a deck extending {base}" if base else "a new deck"
    _say(f"wrote {made} in {ref}/: read its README.md, then `deckpress build {ref}`")


@main.command(cls=_Command, make_params=lambda: [
        click.Argument(["which"], type=click.Choice(["deck", "layout"]), default="deck", required=False)])
def schema(which: str) -> None:
    """Print the JSON Schema of deck.yaml (`deck`, the default) or of a layout file (`layout`), for
    editors that complete keys. `deckpress new` writes both into the deck's .deckpress/ folder."""
    click.echo(api.schema(which), nl=False)


def _serve_params() -> list[click.Parameter]:
    return [click.Argument(["deck"], required=False, default=".", shell_complete=_complete_decks),
            click.Option(["--port"], type=click.IntRange(0, 65535), default=None,
                         help="Port to serve on (default: 8765; if taken, the next free one of 20; 0: any)."),
            click.Option(["--host"], default="127.0.0.1", show_default=True,
                         help="Address to listen on. Any other than 127.0.0.1 lets other machines see the deck."),
            click.Option(["--no-open"], is_flag=True, help="Do not open the page in the browser."),
            _refresh_option(),
            click.Option(["--players"], type=int, default=None,
                         help="Show per-player sets for this many players (default: the most the deck allows)."),
            click.Option(["--lang"], default=None, metavar="CODE",
                         help="Show the deck in one of its translations (default: its own language).")]


def _exposure(host: str) -> str | None:
    """The warning for listening on `host` beyond loopback (127.x.x.x, ::1, localhost): who can read the deck."""
    import ipaddress

    try:
        if host.lower() == "localhost" or ipaddress.ip_address(host.strip("[]")).is_loopback:
            return None
    except ValueError:
        pass
    every = host in ("0.0.0.0", "::", "")
    return (f"warning: listening on {host or '0.0.0.0'}{' (every address of this machine)' if every else ''}: anyone "
            f"on a network that reaches {'it' if every else host} can see the deck and download its files; "
            "--host 127.0.0.1 keeps it to this machine")


@main.command(cls=_Command, make_params=_serve_params)
def serve(deck: str, port: int | None, host: str, no_open: bool, refresh: bool, players: int | None,
          lang: str | None) -> None:
    """Show DECK (a bundled id or a deck folder; default: this folder) in the browser: every card
    face with its copies and the line it comes from, the print sheets, the files to download. The
    page follows every saved change to the deck, its layouts, card tables, art and fonts, and
    shows a mistake as one line over the last good cards. Ctrl-C stops."""
    if (warning := _exposure(host)) is not None:
        _say(warning, err=True)
    try:
        api.serve(deck, port=port, host=host, open_browser=not no_open, players=players, lang=lang, say=_say,
                   refresh=refresh)
    except api.DeckError as exc:
        _fail(exc)
    except ValueError as exc:
        raise _OptionError(str(exc)) from None
    except OSError as exc:
        raise _OptionError(f"cannot listen on {host}:{port or ''}: {exc.strerror or exc}") from None


if __name__ == "__main__":
    main()
