"""The README's pictures of metronome as printed, made from a build: `python docs/pictures.py`.

`images/metronome-sheets.png`: the first page of the A4 card fronts, a page of the same cards in
low-ink, and the first page of backs, side by side as they come off the printer.
`images/metronome-box.png`: the tuck box's net, cropped to what is printed. tests/test_docs.py
checks that the committed pictures are what this makes from the deck as it builds today.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from PIL import Image, ImageChops

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from previews import render, side_by_side  # noqa: E402  (a script beside this one: one way to draw pages)

SHEETS_DPI, BOX_DPI = 48, 70
#: (file, page) of each sheet shown: colour fronts, a low-ink page with rests, backs
SHEET_PAGES = (("metronome-cards-a4.pdf", 0), ("metronome-cards-lowink-a4.pdf", 3), ("metronome-backs-a4.pdf", 0))


def sheets_picture(folder: Path) -> Image.Image:
    return side_by_side([render(folder / name, page, SHEETS_DPI) for name, page in SHEET_PAGES])


def box_picture(folder: Path) -> Image.Image:
    """The net, without the page label and scale bar printed in a line of their own under it."""
    page = render(folder / "metronome-box-a4.pdf", 0, BOX_DPI)
    ink = ImageChops.difference(page, Image.new("RGB", page.size, (255, 255, 255))).convert("L")
    ink = ink.point(lambda v: 255 if v > 8 else 0)
    rows = [ink.crop((0, y, page.width, y + 1)).getbbox() is not None for y in range(page.height)]
    y, white = max(i for i, inked in enumerate(rows) if inked), 0
    while white < round(3 / 25.4 * BOX_DPI):  # up through the label's line to 3 mm of white: the net's foot
        white = 0 if rows[y] else white + 1
        y -= 1
    x0, y0, x1, y1 = ink.crop((0, 0, page.width, y + 1)).getbbox()
    m = 4
    return page.crop((max(x0 - m, 0), max(y0 - m, 0), min(x1 + m, page.width), y1 + m))


def make(into: Path) -> list[Path]:
    """Build metronome on A4 and write both pictures into `into`."""
    import deckpress

    with tempfile.TemporaryDirectory() as out:
        deckpress.build("metronome", out, papers="a4")
        folder = Path(out) / "metronome"
        written = []
        for name, picture in (("metronome-sheets.png", sheets_picture(folder)),
                              ("metronome-box.png", box_picture(folder))):
            path = into / name
            picture.save(path, optimize=True)
            written.append(path)
    return written


if __name__ == "__main__":
    for path in make(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "images"):
        print(path)
