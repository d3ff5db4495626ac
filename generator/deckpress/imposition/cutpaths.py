"""The cut paths of a sheet, for a cutting machine (`--marks cutter`).

The closed paths each front page is cut along, page mm: each card's trim with its corners
rounded by its face's radius, a tile's trim, or a cut-out piece's own outline (a tuck box's net).
The SVG backend writes them as a cut file (`backends.svg.write_cut_file`).
"""

from __future__ import annotations

from ..face import Face, PathOp
from .sheets import Box, PagePlan

KAPPA = 0.5522847498  # a quarter circle as one cubic Bézier: control points this far along the tangents


def cut_paths(plan: PagePlan[Face]) -> list[tuple[PathOp, ...]]:
    """The closed paths a page's pieces are cut along, page mm."""
    if plan.outlines:
        return list(plan.outlines)
    if plan.tile is not None:  # a part of a bigger piece: cut straight, its corners are not the piece's
        tile = plan.tile.area or plan.area  # (pieces below it on its page keep their own corners)
        return [rounded(p.trim, 0.0 if p.clip == tile else p.face.radius) for p in plan.placements]
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
