"""Opening a deck's file at a line in the user's editor, for the live page's `file:line` links.

The editor is `$VISUAL`, else `$EDITOR` (a command, split as a shell would split words, never
run through one). How it is told the line depends on the editor; the common conventions:

| editors | arguments |
|---|---|
| VS Code and its kin (`code`, `codium`, `cursor`, `windsurf`) | `-g FILE:LINE` |
| Sublime Text, Zed, Atom (`subl`, `zed`, `atom`) | `FILE:LINE` |
| vi, Vim, Neovim, nano, Emacs, `emacsclient`, micro, kak, gedit, Helix | `+LINE FILE` |
| JetBrains IDEs (`idea`, `pycharm`, `webstorm`, …) | `--line LINE FILE` |
| any other | `FILE` |

It runs detached from the server (no terminal, its own session), so a windowed editor is what
works: a terminal editor would have no terminal to draw in. Without an editor set, the page
offers a `vscode://file/FILE:LINE` link instead.
"""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

GOTO_FLAG = frozenset({"code", "code-insiders", "codium", "vscodium", "cursor", "windsurf"})
COLON_LINE = frozenset({"subl", "sublime_text", "zed", "atom"})
PLUS_LINE = frozenset({"vi", "vim", "nvim", "gvim", "mvim", "nano", "emacs", "emacsclient", "micro", "kak",
                       "gedit", "helix", "hx", "ne", "joe", "jed", "mg"})
LINE_FLAG = frozenset({"idea", "pycharm", "webstorm", "phpstorm", "goland", "clion", "rubymine", "rider",
                       "charm", "studio"})


def editor_command() -> list[str] | None:
    """The user's editor as a command line (`$VISUAL`, else `$EDITOR`), or None if neither is set
    (or either is not words a shell could split)."""
    for name in ("VISUAL", "EDITOR"):
        written = os.environ.get(name, "").strip()
        if written:
            try:
                words = shlex.split(written)
            except ValueError:
                return None
            return words or None
    return None


def editor_name() -> str:
    """The editor's program name, as the page says it ("" when none is set)."""
    command = editor_command()
    return _program(command[0]) if command else ""


def _program(path: str) -> str:
    name = Path(path).name.lower()
    return name.removesuffix(".exe").removesuffix(".cmd").removesuffix(".bat")


def arguments(command: list[str], file: Path, line: int) -> list[str]:
    """The command line that opens `file` at `line` in the editor `command`."""
    program = _program(command[0])
    if program in GOTO_FLAG:
        return [*command, "-g", f"{file}:{line}"]
    if program in COLON_LINE:
        return [*command, f"{file}:{line}"]
    if program in PLUS_LINE:
        return [*command, f"+{line}", str(file)]
    if program in LINE_FLAG:
        return [*command, "--line", str(line), str(file)]
    return [*command, str(file)]


def open_in_editor(file: Path, line: int) -> str | None:
    """Start the user's editor on `file` at `line` without waiting for it; None once started, else
    the one line that says why not."""
    command = editor_command()
    if command is None:
        return "no editor: set $VISUAL or $EDITOR (for example to code, subl or gvim)"
    try:
        subprocess.Popen(arguments(command, file, max(1, line)), stdin=subprocess.DEVNULL,  # noqa: S603
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                         close_fds=True)
    except OSError as exc:
        return f"cannot start the editor {command[0]}: {exc.strerror or exc}"
    return None
