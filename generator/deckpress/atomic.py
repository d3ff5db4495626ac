"""Writing files so that nothing good on disk is ever half-overwritten.

A file is written to a temporary name beside it and renamed over it (`replacing`); a folder of
files is built as a whole in a hidden folder beside it and swapped in with two renames
(`replacing_folder`), so an interrupt leaves either the whole old set or the whole new set.
Temporary names carry the writer's process id, `.<name>.tmp<pid>`, so that what a killed run left
is known for stale and removed by the next run that replaces the same folder.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

#: a temporary name of ours: `.<name>.tmp<pid>`
_TEMPORARY = re.compile(r"\.(?P<name>.+)\.tmp(?P<pid>\d+)")
#: how old a temporary file or folder must be to be removed although its process id is in use (by
#: another program since, or where a process cannot be asked about, as on Windows)
STALE_AFTER = 24 * 3600.0
_in_use: set[Path] = set()  # the folders this process is replacing now


def temporary_name(name: str, pid: int | None = None) -> str:
    """The name a file or folder called `name` is written under by process `pid` (this one)."""
    return f".{name}.tmp{os.getpid() if pid is None else pid}"


@contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """A temporary path beside `path` to write to; it replaces `path` only when the block ends
    without an error, and is removed otherwise."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(temporary_name(path.name))
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def write_text(path: Path, text: str) -> None:
    with replacing(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


@contextmanager
def replacing_folder(path: Path) -> Iterator[Path]:
    """A folder named like `path`, inside a hidden one beside it, holding what `path` holds (as
    hard links, or copies where links cannot be made), to write the new files into; it replaces
    `path` as a whole when the block ends without an error, and is removed otherwise.

    Files of the old set that the block does not write are kept; a file it writes through
    `replacing` takes the link's place without touching the old file. What earlier runs that were
    killed left beside `path` is cleaned up first.

    A `path` that is a symbolic link (an output folder the user pointed at a synced folder) stays
    one: the folder it leads to is the one replaced, beside itself, and links the user put inside
    it are carried over as links."""
    linked = path.is_symlink()
    if linked:
        try:
            path = Path(os.path.realpath(path, strict=True))  # a loop of links raises ELOOP
        except FileNotFoundError:  # a link to a folder not made yet
            path = Path(os.path.realpath(path))
    _remove_stale(path)
    wrapper = path.parent / temporary_name(path.name)
    _in_use.add(wrapper)
    staged, old = wrapper / path.name, wrapper / f".{path.name}.old"
    try:
        wrapper.mkdir(parents=not linked)  # where a link leads must exist up to the folder itself
        if path.is_dir():
            _link_tree(path, staged)
        else:
            staged.mkdir()
        yield staged
        with interrupts_held():  # never a moment without `path`, unless the process is killed
            if path.exists():
                os.rename(path, old)
            os.rename(staged, path)
    finally:
        shutil.rmtree(wrapper, ignore_errors=True)
        _in_use.discard(wrapper)


def _remove_stale(path: Path) -> None:
    """Put right what runs that were killed left beside `path` while replacing it, from what is on
    disk alone. One killed in the middle of its swap left no `path` and the old folder in its
    hidden folder: that is put back, whatever became of its process (one never reaped still has
    its number). Then the hidden folders of runs that are gone are removed (the temporary files
    they left inside `path` are not linked into the next set)."""
    for leftover in _temporaries(path.parent, path.name):
        old = leftover / f".{path.name}.old"
        if not os.path.lexists(path) and old.is_dir() and leftover not in _in_use:
            os.rename(old, path)
        if _is_stale(leftover, int(_TEMPORARY.fullmatch(leftover.name)["pid"])):  # type: ignore[index]
            shutil.rmtree(leftover, ignore_errors=True)


def _temporaries(folder: Path, name: str) -> list[Path]:
    """The temporary folders for `name` in `folder`, whoever made them."""
    if not folder.is_dir():
        return []
    found = []
    for entry in sorted(folder.iterdir()):
        match = _TEMPORARY.fullmatch(entry.name)
        if match and match["name"] == name and entry.is_dir() and not entry.is_symlink():
            found.append(entry)
    return found


def _is_stale(path: Path, pid: int) -> bool:
    """Whether the process that made `path` has ended (or `path` is too old to be anyone's)."""
    try:
        if time.time() - path.lstat().st_mtime > STALE_AFTER:
            return True
    except FileNotFoundError:
        return False
    if pid == os.getpid():  # ours, or a killed run's that had our number (containers reuse them)
        return path not in _in_use
    if sys.platform == "win32":  # os.kill would end the process there, not ask about it
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # someone else's process
        return False
    return _zombie(pid)


def _zombie(pid: int) -> bool:
    """Whether process `pid` has ended and only waits to be reaped (Linux; False where unknown)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as file:
            return file.read().rpartition(b")")[2].split()[0] == b"Z"
    except (OSError, IndexError):
        return False


def _link_tree(source: Path, target: Path) -> None:
    """`target` made to hold what `source` holds, files as hard links (copies across file systems
    that cannot link), links as links (a link to a folder is not followed); temporary files are
    left behind."""
    for folder, subfolders, files in os.walk(source):
        here = target / Path(folder).relative_to(source)
        here.mkdir()
        subfolders[:] = [name for name in subfolders if not _TEMPORARY.fullmatch(name)]
        for name in [name for name in subfolders if os.path.islink(os.path.join(folder, name))]:
            os.symlink(os.readlink(os.path.join(folder, name)), here / name)  # the user's link, as it is
            subfolders.remove(name)
        for name in files:
            if _TEMPORARY.fullmatch(name):
                continue
            try:
                os.link(Path(folder) / name, here / name, follow_symlinks=False)
            except OSError:
                shutil.copy2(Path(folder) / name, here / name, follow_symlinks=False)


@contextmanager
def interrupts_held() -> Iterator[None]:
    """Ctrl-C during the block is acted on when it ends (two renames are never parted by it; a
    process forked in it starts with Ctrl-C ignored until it sets its own handler).
    (Python handles signals in the main thread only: elsewhere the block is as it is.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    heard: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: heard.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if heard:
            signal.raise_signal(signal.SIGINT)
