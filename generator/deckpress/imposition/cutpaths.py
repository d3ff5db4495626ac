"""The cut paths of a sheet, for a cutting machine (`--marks cutter`).

The closed paths each front page is cut along, page mm: each card's trim with its corners
rounded by its face's radius, a tile's trim, or a cut-out piece's own outline (a tuck box's net).
The SVG backend writes them as a cut file (`backends.svg.write_cut_file`).
"""

from __future__ import annotations

from ..face import Face, PathOp
from ..pieceshape import rounded_rect as rounded  # a card's trim with its corners rounded
from .sheets import PagePlan


def cut_paths(plan: PagePlan[Face]) -> list[tuple[PathOp, ...]]:
    """The closed paths a page's pieces are cut along, page mm."""
    if plan.outlines:
        return list(plan.outlines)
    if plan.tile is not None:  # a part of a bigger piece: cut straight, its corners are not the piece's
        tile = plan.tile.area or plan.area  # (pieces below it on its page keep their own corners)
        return [rounded(p.trim, 0.0 if p.clip == tile else p.face.radius) for p in plan.placements]
    return [rounded(p.trim, p.face.radius) for p in plan.placements]
