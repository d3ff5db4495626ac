"""Pictures named by decks: their proportions, SVGs read into vector drawings, and the resolution a
picture prints at (rasters, and the raster pictures inside an SVG)."""

from __future__ import annotations

import functools
import io
import logging
import math
import os
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image as PILImage


MAX_PIXELS = 150_000_000  #: a picture's pixels, read from its header before anything is decoded
EMBED_DPI = 600  #: a raster is embedded at no more than this at its printed size: finer dots never print
EMBED_MAX_PIXELS = 25_000_000  #: nor with more pixels than this (600 dpi over 212 × 212 mm), whatever its size

# What Pillow raises for a file that is no picture it can read, or a broken one: an unknown format,
# a truncated or corrupt file (OSError, SyntaxError from the plugins' checks), impossible header values
#: what Pillow raises for a file it cannot read as a picture (truncated, corrupt, a bomb)
UNREADABLE = (OSError, SyntaxError, ValueError, EOFError, PILImage.DecompressionBombError)


class PictureError(ValueError):
    """A raster picture that cannot be used: `reason` says why without naming it (for messages that
    name the file already), str() names it. `unreadable` when it is no picture Pillow knows at all."""

    def __init__(self, path: str, reason: str, unreadable: bool = False) -> None:
        super().__init__(f"picture '{Path(path).name}' {reason}")
        self.reason = reason
        self.unreadable = unreadable


def _too_big(path: str, pixels: tuple[int, int] | None) -> PictureError:
    size = f"is {pixels[0]}×{pixels[1]} px ({pixels[0] * pixels[1] / 1e6:.0f} megapixels)" if pixels else \
        f"has more than {MAX_PIXELS // 1_000_000} megapixels"
    return PictureError(path, f"{size}: pictures have at most {MAX_PIXELS // 1_000_000} megapixels "
                              f"(scale it down to {EMBED_DPI} dpi at its printed size)")


def _broken(path: str, exc: BaseException) -> PictureError:
    return PictureError(path, f"cannot be read: {exc or type(exc).__name__}")


@contextmanager
def open_raster(path: str) -> Iterator[PILImage.Image]:
    """A raster picture opened, its header read and its pixel count known to be at most MAX_PIXELS,
    nothing decoded yet. PictureError if it is bigger, or unreadable; the same for what goes wrong
    while it is used inside the `with` (decoding a truncated file, say)."""
    try:
        with warnings.catch_warnings():  # Pillow warns from 89 megapixels up; our own bound is said below
            warnings.simplefilter("ignore", PILImage.DecompressionBombWarning)
            im = PILImage.open(path)
    except PILImage.DecompressionBombError:  # past twice Pillow's bound it gives no size, only this
        raise _too_big(path, None) from None
    except PILImage.UnidentifiedImageError:
        raise PictureError(path, "is not an image file", unreadable=True) from None
    except UNREADABLE as exc:
        raise _broken(path, exc) from None
    with im:
        if im.width * im.height > MAX_PIXELS:
            raise _too_big(path, im.size)
        try:
            yield im
        except UNREADABLE as exc:
            raise _broken(path, exc) from None


def embedded_pixels(pixels: tuple[int, int], printed: tuple[float, float]) -> tuple[int, int]:
    """The pixels a picture of `pixels` printed at `printed` mm is embedded with: as it is, or scaled
    down evenly to EMBED_DPI on its finer axis and to at most EMBED_MAX_PIXELS."""
    (px_w, px_h), (w, h) = pixels, printed
    needed = max(w / 25.4 * EMBED_DPI / px_w, h / 25.4 * EMBED_DPI / px_h)  # the scale that keeps both axes at 600 dpi
    scale = min(needed, math.sqrt(EMBED_MAX_PIXELS / (px_w * px_h)))
    if scale >= 1:
        return pixels
    return (max(1, math.ceil(px_w * scale)), max(1, math.ceil(px_h * scale)))


def decoded(im: PILImage.Image, pixels: tuple[int, int]) -> PILImage.Image:
    """An opened picture decoded at `pixels` (at most its own): a JPEG is decoded at a fraction of its
    size directly (`draft`), then anything still bigger is reduced, so a huge picture never has to be
    held twice at full size."""
    if pixels == im.size:
        im.load()
        return im
    im.draft(im.mode, pixels)  # JPEG only: DCT scaling while decoding; a no-op elsewhere
    # reducing_gap 1: a box-average reduce to just above the size, then Lanczos, so the full-size
    # picture is the only big one held
    return im.resize(pixels, PILImage.Resampling.LANCZOS, reducing_gap=1.0)


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


def import_svg_reader() -> None:
    """Import what reading SVG art takes (svglib and lxml: about a tenth of a second) ahead of
    reading any, e.g. before forking workers that would each import it."""
    from . import svgart  # noqa: F401


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
    with open_raster(path) as im:
        out = greyed(decoded(im, im.size), lighten)
    buf = io.BytesIO()
    out.save(buf, format="PNG")
    return buf.getvalue()


def greyed(im: PILImage.Image, lighten: float = 0.0) -> PILImage.Image:
    """A decoded picture in greys, `lighten` of the way to white, its alpha kept (mode L or LA)."""
    if "transparency" in im.info:  # a palette or colour key: as an alpha channel
        im = im.convert("RGBA")
    alpha = im.getchannel("A") if "A" in im.getbands() else None
    out = im.convert("L")
    if lighten:
        out = out.point(lambda v: round(255 - (255 - v) * (1 - lighten)))
    if alpha is not None:
        out.putalpha(alpha)
        out = out.convert("LA")
    return out


def image_size(path: str) -> tuple[float, float]:
    """Width and height of a picture in its own units; only the proportion matters."""
    return _image_size(path, stamp(path))


@functools.lru_cache(maxsize=None)
def _image_size(path: str, _stamp: tuple[int, int]) -> tuple[float, float]:
    if is_svg(path):
        drawing = load_svg(path)
        return (float(drawing.width), float(drawing.height))
    width, height = raster_pixels(path)
    return (float(width), float(height))


def see_through(path: str) -> bool:
    """Whether a raster picture lets anything show through: an alpha channel that is not opaque
    everywhere, or a palette or colour key made transparent."""
    return _see_through(path, stamp(path))


@functools.lru_cache(maxsize=4096)
def _see_through(path: str, _stamp: tuple[int, int]) -> bool:
    with open_raster(path) as im:
        if "transparency" in im.info:
            return True
        if not {"A", "a"} & set(im.getbands()):
            return False
        return im.getchannel("A" if "A" in im.getbands() else "a").getextrema()[0] < 255


def raster_pixels(path: str) -> tuple[int, int]:
    """A raster picture's width and height in pixels, once it is known to be within MAX_PIXELS and
    whole: a PNG's chunks are read and their checksums compared (cheap: nothing is decompressed),
    so a truncated or corrupt file is said by `check`, not found halfway through a build."""
    return _raster_pixels(path, stamp(path))


@functools.lru_cache(maxsize=None)
def _raster_pixels(path: str, _stamp: tuple[int, int]) -> tuple[int, int]:
    with open_raster(path) as im:
        size = im.size
        im.verify()
    return size


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
                pixels = raster_pixels(node.path)
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
