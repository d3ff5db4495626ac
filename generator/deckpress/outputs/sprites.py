"""Sprite sheets for browser tables: Screentop.gg and Board Game Arena Studio.

Both show a card as one cell of a larger picture. Screentop.gg makes a deck from one image of
equal cells in rows and columns (it is told the columns, the rows and how many cells hold cards);
BGA Studio games draw each card as a `<div>` whose CSS `background-position` picks its cell out
of a picture in the game's `img/` folder (whose file names may hold no spaces or parentheses:
https://en.doc.boardgamearena.com/Game_art:_img_directory). So each component gets sheets of its
distinct fronts, reading order, then its distinct backs, each sheet at most 10 cells wide and
4096 px each way (more cards: more sheets), and the deck one JSON file that says for every card
its sheet, cell and offset, copies, name and text, and one CSS file with a class per card that
shows it:

    <component>-<n>.png   the sheets
    <deck>.json           {"cell": …, "components": [{"sheets": …, "cards": …, "back": …}]}
    <deck>.css            .sprite-<component> { width, height, background-size }
                          .sprite-<component>-<number> { background-image; background-position }

Offsets are whole pixels from the sheet's top-left corner, written as negative
`background-position` values, which move the picture under the card's box. Every component is
drawn at the same pixels per millimetre (a poker card 409 px wide), so pieces keep their sizes
relative to each other.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from pathlib import Path

from PIL import Image as PILImage

from ..atomic import write_text
from ..backends.raster import RasterJob, render, save_png, trim_box
from ..face import Face
from .sides import Entry, slug, unique_name
from .tts import cell_size

MAX_SIDE = 4096  # px: a sheet each way; the largest texture every browser and phone draws
MAX_COLUMNS = 10
BLANK = (255, 255, 255)


def sheet_grid(cells: int, cell: tuple[int, int]) -> tuple[int, int, int]:
    """Columns, rows and cells per sheet for `cells` cells of `cell` pixels: at most 10 columns and
    4096 px each way, as few rows as hold them (the last sheet of several may have fewer)."""
    columns = max(1, min(MAX_COLUMNS, cells, MAX_SIDE // cell[0]))
    rows = max(1, min(math.ceil(cells / columns), MAX_SIDE // cell[1]))
    return columns, rows, columns * rows


def write_sprites(entries: Sequence[Entry], folder: Path, name: str, card: tuple[float, float],
                  progress: Callable[[int], None] | None = None, *, title: str | None = None) -> list[Path]:
    """Write each component's sheets, `<name>.json` and `<name>.css` into `folder`; `card` is the
    deck's card size, which sets the pixels per millimetre (409 px across a poker card)."""
    scale = cell_size(*card)[0] / card[0]
    components: dict[str, list[Entry]] = {}
    for e in entries:
        components.setdefault(e.component, []).append(e)
    plans = []
    wanted: dict[Face, tuple[int, int]] = {}
    taken: set[str] = set()
    for component, group in components.items():
        w, h = group[0].size
        shrink = min(1.0, MAX_SIDE / (w * scale), MAX_SIDE / (h * scale))  # a board larger than a sheet
        cell = cell_size(*card) if (w, h) == card else (max(1, math.floor(w * scale * shrink)),
                                                        max(1, math.floor(h * scale * shrink)))
        fronts = list(dict.fromkeys(e.front for e in group))
        backs = list(dict.fromkeys(e.back for e in group if e.back is not None))
        faces = fronts + [b for b in backs if b not in fronts]
        stem = unique_name(slug(component, 40) or "cards", taken)
        plans.append((component, group, stem, cell, faces))
        for face in faces:
            wanted.setdefault(face, cell)
    jobs = [RasterJob(face, trim_box(face), size) for face, size in wanted.items()]
    pictures = dict(zip(wanted, render(jobs, progress=progress)))

    written: list[Path] = []
    described = []
    css = [f"/* {title or name}: card sprites made by deckpress; each card is a .sprite-<component> box */"]
    for component, group, stem, cell, faces in plans:
        columns, rows, per_sheet = sheet_grid(len(faces), cell)
        where: dict[Face, dict] = {}
        sheets = []
        for start in range(0, len(faces), per_sheet):
            chunk = faces[start:start + per_sheet]
            file = f"{stem}-{start // per_sheet + 1}.png"
            used_rows = math.ceil(len(chunk) / columns)
            image = PILImage.new("RGB", (columns * cell[0], used_rows * cell[1]), BLANK)
            for i, face in enumerate(chunk):
                x, y = (i % columns) * cell[0], (i // columns) * cell[1]
                image.paste(pictures[face], (x, y))
                where[face] = {"sheet": file, "index": i, "column": i % columns, "row": i // columns, "x": x, "y": y}
            written.append(save_png(image, folder / file, dpi=72))
            sheets.append({"file": file, "width": image.width, "height": image.height, "columns": columns,
                           "rows": used_rows, "cells": len(chunk)})
        base = f"sprite-{stem}"
        css.append(f".{base} {{ width: {cell[0]}px; height: {cell[1]}px; background-repeat: no-repeat; }}")
        cards = []
        for e in group:
            spot = where[e.front]
            css_class = f"{base}-{e.number:0{e.width}d}"
            css.append(_rule(css_class, spot))
            back = where[e.back] if e.back is not None else None
            cards.append({"number": e.number, "name": e.nickname, "copies": e.copies, "class": css_class,
                          "front": spot, "back": back, "text": e.text, "source": e.source})
        shared_backs = {id(where[e.back]) for e in group if e.back is not None}
        back = where[group[0].back] if len(shared_backs) == 1 and all(e.back is not None for e in group) else None
        if back is not None:  # one back for the whole component: a class of its own too
            css.append(_rule(f"{base}-back", back))
        described.append({"name": group[0].part, "component": component, "class": base,
                          "size_mm": [round(group[0].size[0], 2), round(group[0].size[1], 2)],
                          "cell": list(cell), "sheets": sheets, "back": back, "cards": cards})
    path = folder / f"{_file_safe(name)}.json"
    write_text(path, json.dumps({"title": title or name, "made_by": "deckpress", "components": described},
                                indent=2, ensure_ascii=False) + "\n")
    style = folder / f"{_file_safe(name)}.css"
    write_text(style, "\n".join(css) + "\n")
    return [*written, path, style]


def _rule(css_class: str, spot: dict) -> str:
    # each card names its sheet: a component of many cards has several
    return (f".{css_class} {{ background-image: url(\"{spot['sheet']}\"); "
            f"background-position: {_px(-spot['x'])} {_px(-spot['y'])}; }}")


def _px(value: int) -> str:
    return f"{value}px" if value else "0"


def _file_safe(name: str) -> str:
    return slug(name, 60) or "deck"
