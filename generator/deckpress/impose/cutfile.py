"""The cut paths of a sheet as SVG, for a cutting machine (`--marks cutter`).

One file per front page, the page's size, 1 user unit = 1 mm, holding nothing but the closed
paths to cut: each card's trim with its corners rounded by its face's radius, a tile's trim, or a
cut-out piece's own outline (a tuck box's net). Open it in the cutter's software, set the same
registration marks as the PDF's (marks.py), and cut the printed sheet.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import svgwrite

from ..atomic import write_text
from ..face import Face, PathOp
from .sheets import Box, PagePlan

KAPPA = 0.5522847498  # a quarter circle as one cubic Bézier: control points this far along the tangents


def cut_paths(plan: PagePlan[Face]) -> list[tuple[PathOp, ...]]:
    """The closed paths a page's pieces are cut along, page mm."""
    if plan.outlines:
        return list(plan.outlines)
    if plan.tile is not None:  # a part of a bigger piece: cut straight, its corners are not the piece's
        return [rounded(p.trim, 0.0) for p in plan.placements]
    return [rounded(p.trim, p.face.radius) for p in plan.placements]


def rounded(box: Box, radius: float) -> tuple[PathOp, ...]:
    """A rectangle with corners rounded by `radius`, clockwise from the top edge's left end."""
    x0, y0, x1, y1 = box
    r = max(0.0, min(radius, (x1 - x0) / 2, (y1 - y0) / 2))
    if r == 0:
        return (("M", (x0, y0)), ("L", (x1, y0)), ("L", (x1, y1)), ("L", (x0, y1)), ("Z", ()))
    k = r * KAPPA
    return (("M", (x0 + r, y0)), ("L", (x1 - r, y0)), ("C", (x1 - r + k, y0, x1, y0 + r - k, x1, y0 + r)),
            ("L", (x1, y1 - r)), ("C", (x1, y1 - r + k, x1 - r + k, y1, x1 - r, y1)),
            ("L", (x0 + r, y1)), ("C", (x0 + r - k, y1, x0, y1 - r + k, x0, y1 - r)),
            ("L", (x0, y0 + r)), ("C", (x0, y0 + r - k, x0 + r - k, y0, x0 + r, y0)), ("Z", ()))


def path_data(ops: Sequence[PathOp]) -> str:
    """SVG path data, to 0.001 mm."""
    return " ".join(op + "".join(f" {v:.3f}".rstrip("0").rstrip(".") for v in pts) for op, pts in ops)


def write_cut_file(path: Path, plan: PagePlan[Face], title: str) -> Path:
    """Write the page's cut paths to `path` (via a temporary file)."""
    W, H = plan.paper
    drawing = svgwrite.Drawing(size=(f"{W:g}mm", f"{H:g}mm"), viewBox=f"0 0 {W:g} {H:g}", profile="full")
    drawing.set_desc(title=title, desc="Cut paths, 1 unit = 1 mm. Registration marks: Silhouette type 1, "
                                       "inset 10 mm, length 20 mm, thickness 0.5 mm (made with deckpress).")
    group = drawing.g(id="cut", fill="none", stroke="#ff0000", stroke_width=0.1)
    for ops in cut_paths(plan):
        group.add(drawing.path(d=path_data(ops)))
    drawing.add(group)
    write_text(path, drawing.tostring() + "\n")
    return path
