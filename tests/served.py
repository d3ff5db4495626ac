"""`deckpress serve` run as a user runs it, in a process of its own, for the tests that talk to it."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

from deckpress.model.deck import find_deck

#: one card's edit in each bundled deck, and in a deck `deckpress new` wrote: (file, text before, after)
EDITS = {
    "metronome": ("deck.yaml", "value: whole", "value: half"),
    "steps": ("deck.yaml", "{number: 1, name: C, notes: C2}", "{number: 1, name: B, notes: C2}"),
    "test-piece": ("instruments.csv", "Soprano Cornet,", "Sopranino Cornet,"),
    "kanon": ("deck.yaml", "solm: ut, note: C4,", "solm: ut, note: C5,"),
    "circle-of-5": ("deck.yaml", "mood: Sad, cue: slow", "mood: Glum, cue: slow"),
    "new": ("cards.csv", "Sunrise,sun,1,", "Sunset,sun,1,"),
}

STARTED = 60.0  # seconds the first build may take on a slow machine (it takes about one)


class Served:
    """A running `deckpress serve REF --no-open --port 0`; `stop()` sends Ctrl-C and waits."""

    def __init__(self, ref: str | Path, cwd: Path, *args: str) -> None:
        self.tmp = cwd / ".tmp"  # its own temporary folder: the tests see what it leaves behind
        self.tmp.mkdir(exist_ok=True)
        env = {**os.environ, "TMPDIR": str(self.tmp), "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen([sys.executable, "-m", "deckpress", "serve", str(ref), "--no-open",
                                         "--port", "0", *args], cwd=cwd, env=env, text=True,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines: list[str] = []
        found = threading.Event()

        def read() -> None:
            for line in self.process.stdout:  # type: ignore[union-attr]
                self.lines.append(line)
                found.set()

        self.reader = threading.Thread(target=read, daemon=True)
        self.reader.start()
        if not found.wait(STARTED):
            self.process.kill()
            raise AssertionError(f"no first line from deckpress serve: {self.process.stderr.read()}")  # type: ignore[union-attr]
        match = re.search(r"http://127\.0\.0\.1:\d+/", self.lines[0])
        if not match:
            self.process.kill()  # never left running behind a failed test
            raise AssertionError(f"no address in deckpress serve's first line: {self.lines}")
        self.url = match[0]

    def state(self) -> dict:
        with urllib.request.urlopen(self.url + "api/state", timeout=10) as response:
            return json.load(response)

    def stop(self) -> tuple[int, str, str]:
        """Ctrl-C; the exit status, what it printed, and what it said on stderr."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise
        self.reader.join(5)  # the last lines
        return self.process.returncode, "".join(self.lines), self.process.stderr.read()  # type: ignore[union-attr]


def copy_bundled(deck_id: str, folder: Path) -> Path:
    """A copy of a bundled deck in `folder`, to edit."""
    copy = folder / deck_id
    shutil.copytree(find_deck(deck_id).parent, copy)
    return copy


def edit(path: Path, old: str, new: str) -> None:
    """Save `path` with `old` (which must be there) replaced by `new`, once."""
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


#: a deck whose second card's title cannot fit: one text-overflow warning, at that card's line
WORDY_DECK = """
    id: wordy
    title: Wordy
    designer: Test
    license: CC0-1.0
    layouts: [plain]
    components:
      - name: things
        front: front
        cards:
          - {title: Short}
          - {title: "far too many words to fit in a box this small, even in its smallest type, which is the point"}
"""
WORDY_LAYOUT = """
    templates:
      front:
        fields: {title: ~}
        elements:
          - text: {text: "{title}", x: 5mm, y: 5mm, w: 20mm, h: 6mm, size: 12pt, min-size: 10pt}
"""
