"""Pictures named by decks: their proportions, and SVGs read into vector drawings."""

from __future__ import annotations

import functools
import io
import logging
import os
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
