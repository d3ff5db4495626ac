"""A contact sheet: every distinct face of a deck on one small PNG, for a README or a shop page.

Faces keep their true proportions to each other (a board is as much bigger than a card as it
is on the table), laid out in rows like words on a page, fronts first in inventory order and
then the backs. The image is quantised to 256 colours, which card art survives and which keeps
the file small.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from PIL import Image as PILImage

from ..backends.raster import RasterJob, render, save_png, trim_box
from ..face import Face
from .sides import Entry, distinct_faces

CARD_PX = 96  # width of a card of the deck's size in the preview
GAP = 8
COLUMNS = 10  # cards of the deck's size per row
GROUND = (236, 236, 232)
MAX_PIECE = 3  # a piece wider than this many cards is shown at most this wide


def write_preview(entries: Sequence[Entry], path: Path, card_w: float,
                  progress: Callable[[int], None] | None = None) -> Path:
    faces = distinct_faces(entries)
    scale = CARD_PX / card_w  # px per mm
    sizes = [_size(face, scale) for face in faces]
    pictures = render([RasterJob(face, trim_box(face), size) for face, size in zip(faces, sizes)],
                      progress=progress)
    width = COLUMNS * CARD_PX + (COLUMNS + 1) * GAP
    spots, height = _shelves(sizes, width)
    sheet = PILImage.new("RGB", (width, height), GROUND)
    for picture, spot in zip(pictures, spots):
        sheet.paste(picture, spot)
    save_png(sheet.quantize(256, dither=PILImage.Dither.NONE), path, dpi=72)
    return path


def _size(face: Face, scale: float) -> tuple[int, int]:
    """Pixel size at `scale`, pieces much bigger than a card shrunk to MAX_PIECE card widths."""
    w, h = face.width * scale, face.height * scale
    shrink = min(1.0, MAX_PIECE * CARD_PX / max(w, h))
    return (max(1, round(w * shrink)), max(1, round(h * shrink)))


def _shelves(sizes: Sequence[tuple[int, int]], width: int) -> tuple[list[tuple[int, int]], int]:
    """Top-left corners for pictures laid left to right in rows, each row as tall as its
    tallest picture, pictures bottom-aligned on the row; and the height of the whole."""
    spots: list[tuple[int, int]] = []
    row: list[int] = []
    x, y = GAP, GAP

    def close(row: list[int], y: int) -> int:
        tallest = max(sizes[i][1] for i in row)
        for i in row:
            spots[i] = (spots[i][0], y + tallest - sizes[i][1])
        return y + tallest + GAP

    for i, (w, _) in enumerate(sizes):
        if row and x + w + GAP > width:
            y = close(row, y)
            row, x = [], GAP
        spots.append((x, y))
        row.append(i)
        x += w + GAP
    return spots, close(row, y) if row else y
