"""Pictures named by decks: their proportions, and SVGs read into vector drawings."""

from __future__ import annotations

import functools
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
    """An SVG as a reportlab Drawing (vector); ValueError if it cannot be read."""
    return _load_svg(path, stamp(path))


@functools.lru_cache(maxsize=None)
def _load_svg(path: str, _stamp: tuple[int, int]) -> Any:
    from svglib.svglib import svg2rlg  # imported late: it pulls in lxml

    logging.getLogger("svglib").setLevel(logging.ERROR)
    drawing = svg2rlg(path)
    if drawing is None or not drawing.width or not drawing.height:
        raise ValueError(f"cannot read SVG '{Path(path).name}'")
    return drawing


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
