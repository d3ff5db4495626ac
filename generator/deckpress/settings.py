"""Settings that outlive one run: the back offset a printer needs, remembered per user and per deck.

A home duplex printer seldom puts the back of a sheet exactly behind its front: it shifts it by
a millimetre or two, the same way every time. `deckpress calibrate` measures that shift; the
offset that cancels it is saved once and then applied to every back page built afterwards.

Where a setting comes from, the first that has it wins:

1. the command line (`--back-offset X,Y`), which also saves it in the user's file;
2. the deck folder's `deckpress.yaml` (a deck made for one printer, a shared folder);
3. the user's file: `$DECKPRESS_CONFIG` if set, else `config.yaml` in the OS's own folder for a
   program's settings, as platformdirs names it (`user_config_dir("deckpress")`):
   `$XDG_CONFIG_HOME/deckpress/` (`~/.config/deckpress/`) on Linux and the BSDs,
   `~/Library/Application Support/deckpress/` on macOS, `%LOCALAPPDATA%\\deckpress\\` on Windows;
4. no offset.

deckpress 0.1.0 kept the user's file in `$XDG_CONFIG_HOME/deckpress/` (else `~/.config/deckpress/`)
on every OS. On Linux that is the same place; on macOS and Windows a file there is still read while
the new place has none (`legacy_config_path`), and the next offset saved goes to the new place.

Both files are plain YAML, read with the safe loader (errors name file and line) and written
through a temporary file, so a crash never leaves half a settings file.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path

import platformdirs

from .atomic import write_text
from .errors import DeckError, display_path, suggest
from .paths import LOOP, PathError, confined, real, where
from .yamlfile import Map, Seq, load_yaml

ENV_CONFIG = "DECKPRESS_CONFIG"  #: names the user's settings file (tests point it into a temporary folder)
DECK_SETTINGS = "deckpress.yaml"  #: a deck folder's own settings, beside its deck.yaml
KEYS = ("back_offset",)  #: what a deck folder's deckpress.yaml may say
USER_KEYS = ("back_offset", "default_printer", "printers")  #: and the user's file, printers too
MAX_BACK_OFFSET = 20.0  #: mm; a printer that misses by more has a fault an offset cannot fix
EXAMPLE = "0.5,-1.2"

Offset = tuple[float, float]
NO_OFFSET: Offset = (0.0, 0.0)


CONFIG_FILE = "config.yaml"


def user_config_path() -> Path:
    """The user's settings file, where an offset is saved (it need not exist yet): the file
    `$DECKPRESS_CONFIG` names, else config.yaml in the OS's folder for deckpress's settings."""
    named = os.environ.get(ENV_CONFIG)
    if named:
        return Path(named).expanduser()
    # appauthor=False: no vendor folder above ours on Windows (%LOCALAPPDATA%\deckpress, not …\deckpress\deckpress)
    return Path(platformdirs.user_config_dir("deckpress", appauthor=False)) / CONFIG_FILE


def legacy_config_path() -> Path | None:
    """Where deckpress 0.1.0 kept the user's file, when that is not `user_config_path()` (macOS,
    Windows) and `$DECKPRESS_CONFIG` names no file: read while the new place has none."""
    if os.environ.get(ENV_CONFIG):
        return None
    old = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "deckpress" / CONFIG_FILE
    return None if old == user_config_path() else old


def user_config_in_use() -> Path:
    """The user's file that is read: the new place's, else a file left in the old place, else the
    new place (where nothing is yet)."""
    path = user_config_path()
    old = legacy_config_path()
    if not path.is_file() and old is not None and old.is_file():
        return old
    return path


def parse_back_offset(value: object) -> Offset:
    """`"0.5,-1.2"` (or `[0.5, -1.2]`, as YAML may give it) -> (0.5, -1.2) mm.

    Raises ValueError saying what was expected: two finite numbers, each at most
    MAX_BACK_OFFSET mm from zero."""
    if isinstance(value, (list, tuple)):
        parts: list[object] = list(value)
        shown = ",".join(str(v) for v in parts)
    elif isinstance(value, str):
        parts = [p.strip() for p in re.split(r"[,;]", value.strip().removesuffix("mm"))]
        shown = value
    else:
        raise ValueError(f"expected two numbers X,Y in mm like {EXAMPLE}, not {value!r}")
    numbers = []
    for part in parts:
        try:
            if isinstance(part, bool):
                raise ValueError
            number = float(part)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            number = math.nan
        numbers.append(number)
    if len(numbers) != 2 or not all(math.isfinite(n) for n in numbers):
        raise ValueError(f"expected two numbers X,Y in mm like {EXAMPLE}, not '{shown}'")
    if any(abs(n) > MAX_BACK_OFFSET for n in numbers):
        raise ValueError(f"expected X and Y between -{MAX_BACK_OFFSET:g} and {MAX_BACK_OFFSET:g} mm, not '{shown}' "
                         "(a printer that misses by more needs mending, not an offset; read the scales of "
                         "deckpress calibrate again)")
    # to the micrometre: what is saved (as %g) is then exactly what this run used; + 0.0 turns
    # -0.0 into 0.0, so "0,-0" is no offset and prints as 0
    x, y = (round(n, 3) + 0.0 for n in numbers)
    return (x, y)


def format_offset(offset: Offset) -> str:
    """(0.5, -1.2) -> "0.5, -1.2", as said to the user (mm)."""
    return f"{offset[0]:g}, {offset[1]:g}"


def _read(path: Path, keys: tuple[str, ...] = KEYS) -> Map:
    """A settings file's mapping (empty when the file is missing or holds only comments);
    unknown keys are an error naming their line."""
    if not path.is_file():
        return Map()
    doc = load_yaml(path)
    if doc is None:
        return Map()
    if not isinstance(doc, Map):
        raise DeckError(f"a settings file must be a mapping like back_offset: \"{EXAMPLE}\"", path, 1)
    for key in doc:
        if key not in keys:
            raise doc.error(key, f"unknown setting '{key}' (settings are {', '.join(keys)})",
                            suggest(str(key), keys))
    return doc


def back_offset_in(path: Path, keys: tuple[str, ...] = KEYS) -> Offset | None:
    """The back offset a settings file gives, or None if it gives none (`keys`: what the file may
    hold, USER_KEYS for the user's own)."""
    doc = _read(path, keys)
    if "back_offset" not in doc:
        return None
    value = doc["back_offset"]
    try:
        return parse_back_offset(value)
    except ValueError as exc:
        line = doc.line_of("back_offset")
        if isinstance(value, Seq):
            line = value.line
        raise DeckError(f"back_offset: {exc}", doc.file or display_path(path), line) from None


@dataclass(frozen=True)
class BackOffset:
    """The offset to use and where it came from (said to the user when it is not zero)."""

    value: Offset
    source: str  # "--back-offset", a file's path, "printer NAME", or "default"

    @property
    def used(self) -> bool:
        return self.value != NO_OFFSET


def resolve_back_offset(given: Offset | None, deck_folder: Path | None = None,
                        printer: Printer | None = None) -> BackOffset:
    """The back offset for one run (or one deck of it): the command line's, else a printer named
    on the command line (`printer.named`), else the deck folder's `deckpress.yaml`, else the
    default printer's, else the user's file's own, else none. What is said for this run wins,
    then what the deck's folder says, then the user's defaults."""
    if given is not None:
        return BackOffset(given, "--back-offset")
    if printer is not None and printer.named:
        return BackOffset(printer.back_offset, f"printer {printer.name}")
    if deck_folder is not None:
        _confined(deck_folder / DECK_SETTINGS)
        found = back_offset_in(deck_folder / DECK_SETTINGS)
        if found is not None:
            return BackOffset(found, display_path(deck_folder / DECK_SETTINGS))
    if printer is not None:
        return BackOffset(printer.back_offset, f"printer {printer.name}")
    path = user_config_in_use()
    found = back_offset_in(path, USER_KEYS)
    if found is not None:
        return BackOffset(found, display_path(path))
    return BackOffset(NO_OFFSET, "default")


def _confined(path: Path) -> None:
    """A deck folder's settings file is the deck's: a link may lead to another file of the deck,
    not out of it (the user's own file may be a link anywhere: it is theirs)."""
    try:
        confined(path, [real(path.parent)], DECK_SETTINGS)
    except PathError as exc:  # a loop is said at the folder it is in: it cannot be shown as a place
        raise (DeckError(f"'{DECK_SETTINGS}' {exc.reason}", where(path)) if exc.reason == LOOP else
               DeckError(f"{DECK_SETTINGS} {exc.reason}", path, 1)) from None


HEADER = ("# deckpress settings, written by deckpress: change them with\n"
          "#   deckpress calibrate --back-offset X,Y   (0,0 for none)\n"
          "#   deckpress printer add NAME --scale X%,Y% --back-offset X,Y --margins MM --flip long|short\n")


def save_back_offset(offset: Offset, path: Path | None = None) -> Path:
    """Remember `offset` in the user's settings file (written atomically); returns the file.
    0,0 is saved as such: it undoes an earlier offset. The file is written whole, its printers kept,
    always in the new place (`user_config_path`): a file in the old place is read first, so a broken
    one is said rather than hidden, and is left as it was."""
    book = read_printers(path)
    _write_user(path or user_config_path(), replace(book, back_offset=offset))
    return path or user_config_path()


# --- printer profiles ------------------------------------------------------------------------------
#
# A home printer prints a little large or small (99.2 % across, 100.4 % down is common), puts the
# back of a sheet a little off its front, cannot print near the paper's edges, and turns a sheet
# over on its long or its short edge. A profile says all four, under a name, in the user's file:
#
#   default_printer: office
#   printers:
#     office:
#       scale: "99.2%,100.4%"      # what the printer makes of 100 %: X across the page, Y down it
#       back_offset: "0.8,-0.5"    # as deckpress calibrate reads it
#       margins: "5,5,5,5"         # mm it cannot print: top, right, bottom, left
#       flip: long                 # duplex: long-edge or short-edge flip

Edges = tuple[float, float, float, float]  #: top, right, bottom, left (mm), as CSS says them
Scale = tuple[float, float]
FLIPS = ("long", "short")
SCALE_RANGE = (0.90, 1.10)  #: a printer further off is set to scale in its dialogue, not calibrated
MAX_MARGIN = 25.0  #: mm; more than that is not an unprintable margin
SCALE_EXAMPLE = "99.2%,100.4%"
MARGINS_EXAMPLE = "5mm"
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_RATIO = re.compile(rf"({_NUMBER})\s*(?:mm)?\s*/\s*({_NUMBER})\s*(?:mm)?")
_LENGTH = re.compile(rf"({_NUMBER})\s*(mm|cm|in|pt)?")
_MM_PER = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72}


@dataclass(frozen=True)
class Printer:
    """A printer's profile. `scale` is what the printer makes of 100 %: 0.992 prints 50 mm as
    49.6 mm (so deckpress draws its sheets at 1/0.992 to cancel it). `margins` None: deckpress's
    own 4.2 mm all round (units.PRINTABLE). `named`: given with --printer for this run, rather
    than being the default."""

    name: str
    scale: Scale = (1.0, 1.0)
    back_offset: Offset = NO_OFFSET
    margins: Edges | None = None
    flip: str = "long"
    named: bool = False

    def describe(self) -> str:
        """One line, as `printer list` shows it."""
        margins = "default" if self.margins is None else format_margins(self.margins)
        return (f"scale {format_scale(self.scale)}, back offset {format_offset(self.back_offset)} mm, "
                f"margins {margins}, {self.flip}-edge flip")


def _parts(value: object, example: str) -> list[object]:
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return [value]
    if isinstance(value, str) and value.strip():
        return [part.strip() for part in re.split(r"[,;]", value.strip())]
    raise ValueError(f"expected something like {example}, not {value!r}")


def _scale_of(part: object) -> float:
    """One axis's scale: `99.2%`, `0.992`, or a measured length over its nominal, `179.2/180`."""
    if isinstance(part, bool):
        raise ValueError
    if isinstance(part, (int, float)):
        number, percent = float(part), None
    else:
        text = str(part).strip().lower()
        ratio = _RATIO.fullmatch(text)
        if ratio:
            measured, nominal = float(ratio.group(1)), float(ratio.group(2))
            if nominal <= 0:
                raise ValueError
            return measured / nominal
        percent = text.endswith("%")
        number = float(text.removesuffix("%").strip())
    if percent or number > 2.0:  # a bare 99.2 is a percentage, 0.992 a factor
        return number / 100
    return number


def parse_scale(value: object) -> Scale:
    """`"99.2%,100.4%"` (X across the page, Y down it), one value for both, factors like 0.992, or
    what a ruler measured over what it should be, `179.2/180,250.9/250` -> (sx, sy), each rounded to
    a millionth. Raises ValueError saying what was expected."""
    shown = ",".join(str(v) for v in value) if isinstance(value, (list, tuple)) else str(value)
    parts = _parts(value, SCALE_EXAMPLE)
    try:
        scales = [_scale_of(part) for part in parts]
    except (TypeError, ValueError):
        scales = [math.nan]
    if len(scales) == 1:
        scales *= 2
    if len(scales) != 2 or not all(math.isfinite(s) for s in scales):
        raise ValueError(f"expected a scale X,Y like {SCALE_EXAMPLE} (or one for both, or the ruler's "
                         f"measured/nominal length like 179.2/180,250.9/250), not '{shown}'")
    low, high = SCALE_RANGE
    if not all(low - 1e-9 <= s <= high + 1e-9 for s in scales):
        raise ValueError(f"expected a scale between {low * 100:g} % and {high * 100:g} %, not '{shown}' (a printer "
                         "further off is printing with 'fit to page' or another scale: set 100 % in its dialogue)")
    return (round(scales[0], 6), round(scales[1], 6))


def format_scale(scale: Scale) -> str:
    """(0.992, 1.004) -> "99.2%,100.4%": what `parse_scale` reads back exactly."""
    return ",".join(f"{s * 100:.4f}".rstrip("0").rstrip(".") + "%" for s in scale)


def parse_margins(value: object) -> Edges:
    """`"5mm"` (every edge), `"5,4"` (top and bottom, left and right), `"5,4,6"` (top, sides,
    bottom) or `"5,4,6,4"` (top, right, bottom, left), as CSS reads them; mm unless a unit is
    given (mm, cm, in, pt). Raises ValueError saying what was expected."""
    shown = ",".join(str(v) for v in value) if isinstance(value, (list, tuple)) else str(value)
    numbers = []
    for part in _parts(value, MARGINS_EXAMPLE):
        if isinstance(part, bool):
            numbers.append(math.nan)
        elif isinstance(part, (int, float)):
            numbers.append(float(part))
        else:
            match = _LENGTH.fullmatch(str(part).strip().lower())
            numbers.append(float(match.group(1)) * _MM_PER[match.group(2) or "mm"] if match else math.nan)
    if not 1 <= len(numbers) <= 4 or not all(math.isfinite(n) for n in numbers):
        raise ValueError(f"expected margins like {MARGINS_EXAMPLE} (every edge) or T,R,B,L like 5,4,6,4 (mm), "
                         f"not '{shown}'")
    if not all(0.0 <= n <= MAX_MARGIN for n in numbers):
        raise ValueError(f"expected margins between 0 and {MAX_MARGIN:g} mm, not '{shown}'")
    t, r, b, l = {1: lambda n: n * 4, 2: lambda n: n * 2, 3: lambda n: [n[0], n[1], n[2], n[1]],
                  4: lambda n: n}[len(numbers)](numbers)
    return (round(t, 3) + 0.0, round(r, 3) + 0.0, round(b, 3) + 0.0, round(l, 3) + 0.0)


def format_margins(margins: Edges) -> str:
    """(5, 5, 5, 5) -> "5mm"; otherwise "T,R,B,L" in mm."""
    if len(set(margins)) == 1:
        return f"{margins[0]:g}mm"
    return ",".join(f"{m:g}" for m in margins)


def parse_flip(value: object) -> str:
    """`long` or `short` (`long-edge`, `short edge` too): which edge a duplex printer turns the sheet on."""
    text = str(value).strip().lower().replace("_", "-").replace(" ", "-").removesuffix("-edge")
    if text not in FLIPS:
        close = suggest(text, FLIPS)
        raise ValueError(f"expected a flip edge long or short, not '{value}'" + (f" — did you mean '{close}'?"
                                                                                 if close else ""))
    return text


def check_printer_name(name: str) -> str:
    """A printer's name: letters, digits, `-`, `_` and `.`, at most 40, starting with a letter or digit."""
    if not NAME_PATTERN.fullmatch(name):
        raise ValueError(f"a printer's name is letters, digits, '-', '_' or '.' (at most 40), like office, "
                         f"not '{name}'")
    return name


@dataclass(frozen=True)
class PrinterBook:
    """What the user's file holds: its own back offset, the printers by name, the default's name."""

    back_offset: Offset | None = None
    printers: tuple[Printer, ...] = ()
    default: str | None = None

    def get(self, name: str) -> Printer | None:
        return next((p for p in self.printers if p.name == name), None)

    def names(self) -> list[str]:
        return [p.name for p in self.printers]


_PRINTER_KEYS = ("scale", "back_offset", "margins", "flip")


def read_printers(path: Path | None = None) -> PrinterBook:
    """The user's file (`path`, else the one in use) read whole; each mistake named by file and line."""
    if path is None:
        path = user_config_in_use()
    doc = _read(path, USER_KEYS)
    shown = doc.file or display_path(path)
    offset = back_offset_in(path, USER_KEYS)
    printers = []
    found = doc.get("printers")
    if found is not None and not isinstance(found, Map):
        raise DeckError("printers: expected a mapping of printer names to their settings", shown,
                        doc.line_of("printers"))
    for name, entry in (found or {}).items():
        line = found.line_of(name)
        try:
            check_printer_name(str(name))
        except ValueError as exc:
            raise DeckError(f"printers: {exc}", shown, line) from None
        if not isinstance(entry, Map):
            raise DeckError(f"printers: {name}: expected a mapping like scale: \"{SCALE_EXAMPLE}\"", shown, line)
        values: dict[str, object] = {}
        for key, value in entry.items():
            if key not in _PRINTER_KEYS:
                raise entry.error(key, f"printers: {name}: unknown setting '{key}' (a printer has "
                                  f"{', '.join(_PRINTER_KEYS)})", suggest(str(key), _PRINTER_KEYS))
            parse = {"scale": parse_scale, "back_offset": parse_back_offset, "margins": parse_margins,
                     "flip": parse_flip}[key]
            try:
                values[key] = parse(value)
            except ValueError as exc:
                raise DeckError(f"printers: {name}: {key}: {exc}", shown, entry.line_of(key)) from None
        printers.append(Printer(str(name), **values))  # type: ignore[arg-type]
    default = doc.get("default_printer")
    if default is not None and str(default) not in [p.name for p in printers]:
        raise DeckError(f"default_printer: no printer '{default}' in printers", shown,
                        doc.line_of("default_printer"))
    return PrinterBook(offset, tuple(printers), None if default is None else str(default))


def _write_user(path: Path, book: PrinterBook) -> None:
    """The user's file written whole (atomically), in one order, so saving twice gives one text."""
    _read(path, USER_KEYS)  # a file we cannot read may hold something the user wants: say so rather than overwrite it
    lines = [HEADER.rstrip("\n")]
    if book.back_offset is not None:
        lines.append(f'back_offset: "{book.back_offset[0]:g},{book.back_offset[1]:g}"')
    if book.default is not None:
        lines.append(f"default_printer: {book.default}")
    if book.printers:
        lines.append("printers:")
    for printer in book.printers:
        lines += [f"  {printer.name}:", f'    scale: "{format_scale(printer.scale)}"',
                  f'    back_offset: "{printer.back_offset[0]:g},{printer.back_offset[1]:g}"']
        if printer.margins is not None:
            lines.append(f'    margins: "{",".join(f"{m:g}" for m in printer.margins)}"')
        lines.append(f"    flip: {printer.flip}")
    write_text(path, "\n".join(lines) + "\n")


def save_printer(printer: Printer, make_default: bool = False) -> Path:
    """Add `printer` to the user's file, or replace the one of its name; returns the file."""
    book = read_printers()
    printers = [printer if p.name == printer.name else p for p in book.printers]
    if book.get(printer.name) is None:
        printers.append(replace(printer, named=False))
    default = printer.name if make_default else book.default
    path = user_config_path()
    _write_user(path, PrinterBook(book.back_offset, tuple(replace(p, named=False) for p in printers), default))
    return path


def _known(book: PrinterBook, name: str) -> Printer:
    found = book.get(name)
    if found is None:
        close = suggest(name, book.names())
        listed = f"printers are {', '.join(book.names())}" if book.printers else \
            "no printer is saved yet: deckpress printer add NAME …"
        raise DeckError(f"no printer '{name}' ({listed})" + (f" — did you mean '{close}'?" if close else ""))
    return found


def remove_printer(name: str) -> Path:
    """Forget the printer `name` (no longer the default, if it was); returns the file."""
    book = read_printers()
    _known(book, name)
    path = user_config_path()
    _write_user(path, PrinterBook(book.back_offset, tuple(p for p in book.printers if p.name != name),
                                  None if book.default == name else book.default))
    return path


def set_default_printer(name: str | None) -> Path:
    """Make `name` the printer every build uses when none is named (None: no default)."""
    book = read_printers()
    if name is not None:
        _known(book, name)
    path = user_config_path()
    _write_user(path, replace(book, default=name))
    return path


def resolve_printer(name: str | None) -> Printer | None:
    """The printer for one run: the one named (`named` set), else the default printer, else None."""
    book = read_printers()
    if name is not None:
        return replace(_known(book, name), named=True)
    return book.get(book.default) if book.default is not None else None
