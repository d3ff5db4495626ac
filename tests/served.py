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

        self.errors: list[str] = []

        def read_errors() -> None:  # read as it comes: a full pipe would stop the server mid-line
            for line in self.process.stderr:  # type: ignore[union-attr]
                self.errors.append(line)

        self.reader = threading.Thread(target=read, daemon=True)
        self.reader.start()
        self.error_reader = threading.Thread(target=read_errors, daemon=True)
        self.error_reader.start()
        if not found.wait(STARTED):
            self.process.kill()
            self.error_reader.join(5)
            raise AssertionError(f"no first line from deckpress serve: {''.join(self.errors)}")
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
        self.error_reader.join(5)
        return self.process.returncode, "".join(self.lines), "".join(self.errors)


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


#: a deck whose faces read files: two fronts show art/stall.png, one art/moon.svg (which links
#: art/moonlight.png), one art/sun.png; one word is set in the deck's own font (fonts/hand.ttf),
#: one in the bundled sans. The picture fills each picture card's top half.
GALLERY_DECK = """
    id: gallery
    title: Gallery
    designer: Test
    license: CC0-1.0
    layouts: [gallery]
    fonts:
      hand: {regular: fonts/hand.ttf}
    components:
      - name: pictures
        front: picture
        cards:
          - {title: Stall, art: art/stall.png}
          - {title: Stall again, art: art/stall.png}
          - {title: Moon, art: art/moon.svg}
          - {title: Sun, art: art/sun.png}
      - name: words
        front: words
        cards:
          - {word: Hand, font: hand}
          - {word: Sans, font: sans}
"""
GALLERY_LAYOUT = """
    templates:
      picture:
        fields: {title: ~, art: ~}
        elements:
          - image: {src: "{art}", x: 0mm, y: 0mm, w: 100%, h: 50%, fit: stretch}
          - text: {text: "{title}", x: 5mm, y: 60%, w: 100% - 10mm, h: 10mm, size: 12pt}
      words:
        fields: {word: ~, font: ~}
        elements:
          - text: {text: "{word}", x: 5mm, y: 10mm, w: 100% - 10mm, h: 30mm, size: 40pt, font: "{font}"}
"""


def solid_png(color: tuple[int, int, int], size: tuple[int, int] = (300, 200)) -> bytes:
    """A PNG of one colour: pictures saved again differ only in their pixels (the same size, and
    for a solid colour often the same number of bytes)."""
    import io

    from PIL import Image as PILImage

    buf = io.BytesIO()
    PILImage.new("RGB", size, color).save(buf, format="PNG")
    return buf.getvalue()


def moon_svg(fill: str) -> bytes:
    """SVG art: a square of `fill`, its middle third the picture art/moonlight.png, linked."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="90" '
            f'height="90" viewBox="0 0 90 90"><rect width="90" height="90" fill="{fill}"/>'
            f'<image x="30" y="30" width="30" height="30" preserveAspectRatio="none" '
            f'xlink:href="moonlight.png"/></svg>').encode()


def gallery_files() -> dict[str, bytes]:
    from deckpress.bundled import FONTS_DIR

    return {"art/stall.png": solid_png((200, 40, 30)), "art/sun.png": solid_png((240, 200, 20)),
            "art/moon.svg": moon_svg("#2030a0"), "art/moonlight.png": solid_png((250, 250, 210), (60, 60)),
            "fonts/hand.ttf": (FONTS_DIR / "NotoSans-Regular.ttf").read_bytes()}


def pdf_picture_colours(pdf: Path | bytes) -> set[tuple[int, int, int]]:
    """The colour at the middle of each raster picture a print file holds."""
    import io

    from pypdf import PdfReader

    from .pdfread import xobjects

    colours = set()
    for image in xobjects(PdfReader(io.BytesIO(pdf) if isinstance(pdf, bytes) else pdf), "/Image"):
        picture = image.decode_as_image().convert("RGB")
        colours.add(picture.getpixel((picture.width // 2, picture.height // 2)))
    return colours
