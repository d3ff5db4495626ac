"""Where a path a deck names really leads, and whether it may be read from there.

Every file and folder a deck reads (its deck files, `deckpress.yaml`, layouts, translations,
pictures, fonts, card tables, the files SVG art links) is resolved here, every symbolic link
followed, and refused when it leads outside the folders it may be read from. One place, so a link
loop, a name too long for the file system or a link out of the deck get the same words wherever
they are met, as a `PathError` (a ValueError) that the caller puts at its file and line:

    'art/loop.png' is a loop of symbolic links
    'cards.csv' points outside the deck folder; files must stay inside it
    'xxxx…' is too long for a file's path (at most 255 characters a name, 1024 in all)

A path that does not exist is resolved as far as it goes, so the caller says "not found" with a
suggestion, as before.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Sequence
from pathlib import Path, PurePosixPath

MAX_NAME, MAX_PATH = 255, 1024  #: what file systems allow: a longer name could not be a file
OUTSIDE = "points outside the deck folder; files must stay inside it"
LOOP = "is a loop of symbolic links"


class PathError(ValueError):
    """A path that cannot be read: `shown` (as the deck wrote it) and the `reason`."""

    def __init__(self, shown: str, reason: str) -> None:
        self.shown, self.reason = shown, reason
        super().__init__(f"'{shown}' {reason}")


def check_length(written: str) -> None:
    """A path no file system could hold is refused before it is looked for (the OS would raise)."""
    if len(written) > MAX_PATH or any(len(part) > MAX_NAME for part in PurePosixPath(written).parts):
        raise PathError(f"{written[:40]}…", f"is too long for a file's path (at most {MAX_NAME} characters a "
                                            f"name, {MAX_PATH} in all)")


def real(path: Path | str, shown: str | None = None) -> Path:
    """`path` with every symbolic link followed, absolute. A path whose end does not exist is
    resolved as far as it goes (the caller finds it is no file). Raises PathError for a loop of
    links, a name too long, or a folder on the way that cannot be read."""
    shown = str(path) if shown is None else shown
    try:
        return Path(os.path.realpath(path, strict=True))
    except (FileNotFoundError, NotADirectoryError):
        return Path(os.path.realpath(path))
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise PathError(shown, LOOP) from None
        if exc.errno == errno.ENAMETOOLONG:
            check_length(shown)  # says which name is too long, when the deck wrote it
            raise PathError(f"{shown[:40]}…", "is too long for a file's path") from None
        raise PathError(shown, f"cannot be read: {exc.strerror or exc}") from None


def where(path: Path) -> Path:
    """The place an error about `path` is put at: `path`, or, when it is a loop of links (which
    cannot be resolved, so not shown as a place), the nearest folder above it that can be."""
    place = Path(os.path.abspath(path))
    while place != place.parent:
        try:
            os.path.realpath(place, strict=True)
            return place
        except OSError as exc:
            if exc.errno not in (errno.ELOOP, errno.ENAMETOOLONG):
                return place
        place = place.parent
    return place


def is_inside(path: Path, roots: Sequence[Path]) -> bool:
    """Whether the resolved `path` is in one of the (resolved) `roots`."""
    return any(path.is_relative_to(root) for root in roots)


def confined(path: Path | str, roots: Sequence[Path], shown: str | None = None) -> Path:
    """`path` resolved (`real`), which must lie inside one of `roots` (resolved folders, `real` of
    them). Raises PathError: a loop, too long, or outside."""
    shown = str(path) if shown is None else shown
    found = real(path, shown)
    if not is_inside(found, roots):
        raise PathError(shown, OUTSIDE)
    return found


def existing_file(path: Path, roots: Sequence[Path], shown: str | None = None) -> Path | None:
    """`path` resolved and confined (`confined`) when anything is there, None when nothing is. What
    is there and is no file (a link to nothing, a folder, a device) is a PathError, rather than
    passed over as if nothing were."""
    shown = str(path) if shown is None else shown
    found = real(path, shown)  # a loop, here or in a folder above, is said as such
    if not os.path.lexists(path):
        return None
    confined(path, roots, shown)
    if not found.is_file():
        raise PathError(shown, "is not a file" if found.exists() else "is a link to nothing")
    return found


def readable(path: Path, roots: Sequence[Path]) -> bool:
    """Whether `path` resolves inside `roots` (False for a loop or a name too long as well): for
    listing what there is, where a bad entry is passed over rather than said."""
    try:
        return is_inside(real(path), roots)
    except PathError:
        return False
