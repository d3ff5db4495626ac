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
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from .atomic import write_text
from .errors import DeckError, display_path, suggest
from .paths import LOOP, PathError, confined, real, where
from .yamlfile import Map, Seq, load_yaml

ENV_CONFIG = "DECKPRESS_CONFIG"  #: names the user's settings file (tests point it into a temporary folder)
DECK_SETTINGS = "deckpress.yaml"  #: a deck folder's own settings, beside its deck.yaml
KEYS = ("back_offset",)
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


def _read(path: Path) -> Map:
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
        if key not in KEYS:
            raise doc.error(key, f"unknown setting '{key}' (settings are {', '.join(KEYS)})",
                            suggest(str(key), KEYS))
    return doc


def back_offset_in(path: Path) -> Offset | None:
    """The back offset a settings file gives, or None if it gives none."""
    doc = _read(path)
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
    source: str  # "--back-offset", a file's path, or "default"

    @property
    def used(self) -> bool:
        return self.value != NO_OFFSET


def resolve_back_offset(given: Offset | None, deck_folder: Path | None = None) -> BackOffset:
    """The back offset for one run (or one deck of it): the command line's, else the deck
    folder's `deckpress.yaml`, else the user's file, else none."""
    if given is not None:
        return BackOffset(given, "--back-offset")
    if deck_folder is not None:
        _confined(deck_folder / DECK_SETTINGS)
    candidates = ([deck_folder / DECK_SETTINGS] if deck_folder is not None else []) + [user_config_in_use()]
    for path in candidates:
        found = back_offset_in(path)
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
          "#   deckpress calibrate --back-offset X,Y   (0,0 for none)\n")


def save_back_offset(offset: Offset, path: Path | None = None) -> Path:
    """Remember `offset` in the user's settings file (written atomically); returns the file.
    0,0 is saved as such: it undoes an earlier offset. The back offset is the only setting there
    is, so the file is written whole, always in the new place (`user_config_path`): a file in the
    old place is read first, so a broken one is said rather than hidden, and is left as it was."""
    if path is None:
        path = user_config_path()
        _read(user_config_in_use())
    _read(path)  # a file we cannot read may hold something the user wants: say so rather than overwrite it
    write_text(path, HEADER + f'back_offset: "{offset[0]:g},{offset[1]:g}"\n')
    return path
