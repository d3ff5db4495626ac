"""Pictures named by decks: their proportions, SVGs read into vector drawings, and the resolution a
picture prints at (rasters, and the raster pictures inside an SVG)."""

from __future__ import annotations

import functools
import io
import logging
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image as PILImage


def is_svg(path: str | Path) -> bool:
    return str(path).lower().endswith(".svg")


def stamp(path: str) -> tuple[int, int]:
    """What a cache of a file's contents is keyed on besides its name: an edited file is read anew."""
    st = os.stat(path)
    return (st.st_mtime_ns, st.st_size)


def load_svg(path: str) -> Any:
    """An SVG as a reportlab Drawing (vector), its opacity kept (`svgart`); ValueError if it
    cannot be read."""
    return _load_svg(path, stamp(path))


@functools.lru_cache(maxsize=None)
def _load_svg(path: str, _stamp: tuple[int, int]) -> Any:
    from .svgart import read_svg  # imported late: svglib pulls in lxml

    logging.getLogger("svglib").setLevel(logging.ERROR)
    drawing = read_svg(path)
    if drawing is None or not drawing.width or not drawing.height:
        raise ValueError(f"cannot read SVG '{Path(path).name}'")
    return drawing


def grey_png(path: str, lighten: float = 0.0) -> bytes:
    """A raster picture in greys, `lighten` of the way to white, as PNG with its alpha kept.

    Every backend prints a grey or lightened picture from these bytes, so PDF and SVG show the same
    greys; ITU-R 601 luma (Pillow's "L") is also what low-ink makes of the colours of vector art.
    """
    return _grey_png(path, lighten, stamp(path))


@functools.lru_cache(maxsize=64)
def _grey_png(path: str, lighten: float, _stamp: tuple[int, int]) -> bytes:
    with PILImage.open(path) as im:
        im.load()
        if "transparency" in im.info:  # a palette or colour key: as an alpha channel
            im = im.convert("RGBA")
        alpha = im.getchannel("A") if "A" in im.getbands() else None
        out = im.convert("L")
        if lighten:
            out = out.point(lambda v: round(255 - (255 - v) * (1 - lighten)))
        if alpha is not None:
            out.putalpha(alpha)
            out = out.convert("LA")
    buf = io.BytesIO()
    out.save(buf, format="PNG")
    return buf.getvalue()


def image_size(path: str) -> tuple[float, float]:
    """Width and height of a picture in its own units; only the proportion matters."""
    return _image_size(path, stamp(path))


@functools.lru_cache(maxsize=None)
def _image_size(path: str, _stamp: tuple[int, int]) -> tuple[float, float]:
    if is_svg(path):
        drawing = load_svg(path)
        return (float(drawing.width), float(drawing.height))
    try:
        with PILImage.open(path) as im:
            return (float(im.width), float(im.height))
    except OSError as exc:
        raise ValueError(f"cannot read image '{Path(path).name}': {exc}") from None


SHARP_DPI = 300  #: what a printed picture wants; below it, art starts to look soft
BLURRED_DPI = 150  #: below this, it looks blurred


@dataclass(frozen=True)
class Resolution:
    """A picture of `pixels` printed at `printed` (width, height in mm)."""

    pixels: tuple[int, int]
    printed: tuple[float, float]

    @property
    def dpi(self) -> int:
        """Pixels per inch as printed, on the worse axis (a picture stretched unevenly is as sharp as
        its worse direction), rounded as it is said."""
        (px_w, px_h), (w, h) = self.pixels, self.printed
        if w <= 0 or h <= 0:
            return SHARP_DPI  # nothing printed: nothing to blur
        return round(min(px_w / w, px_h / h) * 25.4)

    @property
    def sharp(self) -> bool:
        return self.dpi >= SHARP_DPI

    def __str__(self) -> str:
        """`60×80 px, printed 40×53.3 mm: 38 dpi — will look blurred (300 dpi wanted)`."""
        verdict = "will look blurred" if self.dpi < BLURRED_DPI else "may look soft"
        w, h = (f"{round(v, 1):g}" for v in self.printed)
        return (f"{self.pixels[0]}×{self.pixels[1]} px, printed {w}×{h} mm: {self.dpi} dpi — {verdict} "
                f"({SHARP_DPI} dpi wanted)")


@dataclass(frozen=True)
class RasterPart:
    """A raster picture inside an SVG: the file it links to (relative to the SVG; None when it is
    embedded as a data: URI), its pixels, and where its width and height point in the drawing's
    units (vectors, so any rotation, skew and uneven scaling of the SVG's transforms is kept)."""

    name: str | None
    pixels: tuple[int, int]
    across: tuple[float, float]
    down: tuple[float, float]

    def printed(self, scale: tuple[float, float]) -> tuple[float, float]:
        """Its printed width and height in mm when the drawing is printed at `scale` (mm per unit,
        x and y)."""
        sx, sy = scale
        return (math.hypot(self.across[0] * sx, self.across[1] * sy),
                math.hypot(self.down[0] * sx, self.down[1] * sy))


def raster_parts(path: str) -> tuple[RasterPart, ...]:
    """Every raster picture an SVG draws, in drawing order; read once per file."""
    return _raster_parts(path, stamp(path))


@functools.lru_cache(maxsize=None)
def _raster_parts(path: str, _stamp: tuple[int, int]) -> tuple[RasterPart, ...]:
    # svglib has read the <image> elements already (data: URIs as PIL images, linked files as
    # paths it checked): walking its drawing with the transforms is cheaper and surer than
    # parsing the SVG a second time
    from reportlab.graphics.shapes import Group, Image, mmult

    parts: list[RasterPart] = []

    def walk(node: Any, matrix: tuple[float, ...]) -> None:
        if isinstance(node, Image):
            if isinstance(node.path, str):
                name: str | None = os.path.relpath(node.path, os.path.dirname(path))
                with PILImage.open(node.path) as im:
                    pixels = im.size
            else:
                name, pixels = None, node.path.size
            a, b, c, d = matrix[:4]
            parts.append(RasterPart(name, pixels, (a * node.width, b * node.width), (c * node.height, d * node.height)))
        elif isinstance(node, Group):  # a Drawing is a Group too
            inner = mmult(matrix, node.transform)
            for child in node.contents:
                walk(child, inner)

    walk(load_svg(path), (1, 0, 0, 1, 0, 0))
    return tuple(parts)
