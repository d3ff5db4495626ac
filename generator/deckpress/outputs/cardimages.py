"""One image file per distinct card side, with a manifest: for print services and screens.

PNGs are rasterised from the faces (trim and bleed, at `dpi`); a vendor preset instead gives
each card that vendor's exact pixel canvas, centred on the trim, with no marks. SVGs hold the
same faces as vector drawings. `manifest.csv` says which file is which card and how many copies
to order, so a 54-card deck with one shared back uploads as 55 files, not 108.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from pathlib import Path

from ..atomic import write_text
from ..backends.raster import RasterJob, bleed_box, pixels, render
from ..errors import Warnings
from ..face import IDENTITY, Face, Group, Item, Matrix, Text, apply, multiply
from ..text.fonts import open_font
from .presets import INCH, Preset
from .sides import SIDES, Entry, file_stems

MANIFEST = "manifest.csv"
#: what a spreadsheet (Excel, LibreOffice) reads as the start of a formula in a CSV cell, as OWASP's
#: CSV injection page lists it (https://owasp.org/www-community/attacks/CSV_Injection): =, +, -, @,
#: tab, carriage return (and line feed)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")


def canvas_box(face: Face, px: tuple[int, int], dpi: float) -> tuple[float, float, float, float]:
    """A canvas of `px` pixels centred on the face's trim, in face millimetres."""
    w, h = px[0] / dpi * INCH, px[1] / dpi * INCH
    x0, y0 = (face.width - w) / 2, (face.height - h) / 2
    return (x0, y0, x0 + w, y0 + h)


def write_card_images(entries: Sequence[Entry], folder: Path, kind: str, warn: Warnings, *, dpi: int = 300,
                      preset: Preset | None = None, outline_text: bool = False,
                      progress: Callable[[int], None] | None = None) -> list[Path]:
    """Write every distinct face of `entries` into `folder` as `kind` ("png" or "svg"), and the
    manifest. Returns the files written, manifest last."""
    stems = file_stems(entries)
    paths = {key: folder / f"{stem}.{kind}" for key, stem in stems.items()}
    if kind == "svg":
        from ..backends.svg import write_svg  # here: svgwrite and font subsetting cost a PNG build time

        for (_, face), path in paths.items():
            write_svg(path, face, outline_text)
            if progress:
                progress(1)
    else:
        jobs = [_png_job(face, path, dpi, preset) for (_, face), path in paths.items()]
        render(jobs, progress=progress)
        if preset is not None:
            _check_preset(entries, preset, stems, warn)
    manifest = folder / MANIFEST
    _remove_stale(manifest, set(paths.values()))
    _write_manifest(manifest, entries, stems, kind)
    return [*paths.values(), manifest]


def _png_job(face: Face, path: Path, dpi: int, preset: Preset | None) -> RasterJob:
    dpi = preset.dpi if preset else dpi
    canvas = preset.canvas((face.width, face.height)) if preset else None
    if canvas is None:  # no preset, or a piece the service has no canvas for (a board): trim and bleed
        box = bleed_box(face)
        return RasterJob(face, box, pixels(box, dpi), path, dpi)
    return RasterJob(face, canvas_box(face, canvas, dpi), canvas, path, dpi)


def _check_preset(entries: Sequence[Entry], preset: Preset, stems: dict[tuple[str, Face], str],
                  warn: Warnings) -> None:
    """Say which pieces the service has no canvas for, and which text sits outside its safe zone."""
    odd = sorted({e.component for e in entries if preset.canvas(e.size) is None})
    if odd:
        warn(f"{preset.service} ({preset.name}) has no canvas for {', '.join(odd)}: written at "
             f"{preset.dpi} dpi with their bleed instead", kind="no-canvas")
    close = [(gap, stem) for (side, face), stem in stems.items()
             if preset.canvas((face.width, face.height)) and (gap := text_margin(face)) < preset.safe - 0.05]
    if close:
        gap, stem = min(close)
        warn(f"text on {len(close)} card side{'s' if len(close) > 1 else ''} lies closer to the trim than "
             f"{preset.service}'s safe zone of {preset.safe:.1f} mm (closest {gap:.1f} mm, {stem}): "
             "a cut a little off may touch it", kind="safe-zone")


def text_margin(face: Face) -> float:
    """How close any text comes to the trim edge, in mm (ink boxes of the glyphs; infinity if the
    face has no text). Text in the bleed counts as negative."""
    gaps = [min(x0, y0, face.width - x1, face.height - y1) for x0, y0, x1, y1 in _text_boxes(face.items, IDENTITY)]
    return min(gaps, default=float("inf"))


def _text_boxes(items: Sequence[Item], matrix: Matrix):
    for item in items:
        if isinstance(item, Group):
            yield from _text_boxes(item.items, multiply(matrix, item.transform))
        elif isinstance(item, Text) and item.text.strip():
            font = open_font(item.font)
            inks = [font.bounds(c) for c in item.text if not c.isspace()]
            top = max(b[3] for b in inks) * item.size
            bottom = min(b[1] for b in inks) * item.size
            left = item.x + (0.0 if item.text[0].isspace() else inks[0][0] * item.size)
            right = item.x + font.width(item.text.rstrip()) * item.size
            corners = [apply(matrix, x, y) for x in (left, right) for y in (item.y - top, item.y - bottom)]
            yield (min(c[0] for c in corners), min(c[1] for c in corners),
                   max(c[0] for c in corners), max(c[1] for c in corners))


def _remove_stale(manifest: Path, keep: set[Path]) -> None:
    """Files an earlier build listed that this one does not write (a card renamed, removed)."""
    if not manifest.exists():
        return
    with manifest.open(newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            for column in SIDES:
                name = uncell(row.get(column) or "")
                old = manifest.parent / name
                if name and "/" not in name and old not in keep and old.exists():
                    old.unlink()


def _write_manifest(path: Path, entries: Sequence[Entry], stems: dict[tuple[str, Face], str], kind: str) -> None:
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    out.writerow(["component", "number", "name", "copies", "front", "back", "width_mm", "height_mm"])
    for e in entries:
        files = [f"{stems[(side, face)]}.{kind}" if (face := e.face(side)) is not None else "" for side in SIDES]
        out.writerow([cell(e.component), e.number, cell(e.name), e.copies, *map(cell, files),
                      f"{e.size[0]:g}", f"{e.size[1]:g}"])
    write_text(path, buf.getvalue())


def cell(text: str) -> str:
    """A text as a CSV cell a spreadsheet shows as text: one that would begin a formula ("=cmd|…",
    "@SUM(…)", but also Kanon's "+1" and "-2 cards") is written after an apostrophe, as OWASP
    advises (FORMULA_STARTS); Excel and LibreOffice take it as the mark of a text and do not show
    it, so a person reads "+1". Everything else is written as it is."""
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def uncell(text: str) -> str:
    """What `cell` wrote, read back."""
    return text[1:] if text.startswith("'") and text[1:].startswith(FORMULA_STARTS) else text
