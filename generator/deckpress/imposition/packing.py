"""Pages that hold pieces of several sizes: a rules-board file's rule cards, boards and pawns.

`sheets.plan_sheets` gives each run of one size pages of its own, so the last rule card, or a
handful of pawn strips, could each take a page. Here each run comes in blocks: a page's worth (its
grid, as `fit_grid` lays it out) or the rest. A block goes on the first page that has room for it
beside or below the blocks there, BLOCK_GAP from them, so each block's crop marks stay clear of
the other's; only then does it start a page of its own.

A page with one block is laid out as `plan_sheets` lays it out. A page with several gives each
block the smallest grid that holds it (turned if that packs better), the group centred on the
page, and names each block's box (`PagePlan.blocks`), which is marked for cutting on its own.
Pieces too big for the paper are tiled, a tile a page, as there. Backs follow their fronts: each
block's back is its front block seen through the long-edge flip.

All in millimetres, y down from the page's top-left corner.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Generic

from .sheets import (PAPERS, Box, Grid, PagePlan, Placement, Room, Size, T, bounding_box, fit_grid, mirrored,
                     page_plan, plan_pages, plan_tiles, runs, slot_layout, with_back)

BLOCK_GAP = 12.0  #: between two blocks on a page: each one's crop marks (5 mm out) and some paper between


@dataclass(frozen=True)
class Shape:
    """A block's grid: `cols` × `rows` cells, the pieces turned a quarter turn if `rotated`;
    `w` × `h` is its trim."""

    cols: int
    rows: int
    rotated: bool
    w: float
    h: float


@dataclass
class Block(Generic[T]):
    """Consecutive pieces of one size that go on one page: front and back of each, in order."""

    pairs: Sequence[tuple[T, T | None]]
    size: Size
    grid: Grid  #: the run's grid: the block's layout on a page of its own
    shapes: list[Shape]  #: the grids that could hold it beside another block, smallest first


@dataclass
class Page(Generic[T]):
    """A page being filled: its blocks, each with its shape and its top-left corner in the group
    (whose top-left is 0, 0), or the finished pages of one tile."""

    blocks: list[tuple[Block[T], Shape, float, float]] = field(default_factory=list)
    tiles: tuple[list[PagePlan[T]], list[PagePlan[T]]] | None = None


def plan_packed(pairs: Sequence[tuple[T, T | None]], size_of: Callable[[T], Size], paper: str, bleed: float,
                room: Room = Room(), keep_clear: Callable[[T], Sequence[Box]] | None = None
                ) -> tuple[list[PagePlan[T]], list[PagePlan[T]] | None]:
    """Front pages and, if any piece has a back, the matching back pages, pieces of several sizes
    sharing pages where they fit (see the module's docstring); `plan_sheets`' pages otherwise."""
    bleed = room.bleed(bleed)
    W, H = PAPERS[paper]
    pages: list[Page[T]] = []
    for size, run in runs(pairs, size_of):
        try:
            grid = fit_grid(paper, *size, room, bleed)
        except ValueError:
            for front, back in run:
                tiles = plan_tiles(front, *size, paper, bleed, room, keep_clear(front) if keep_clear else ())
                pages.append(Page(tiles=(tiles, [with_back(mirrored(p, size[0]), back) for p in tiles])))
            continue
        for start in range(0, len(run), grid.per_page):
            chunk = run[start:start + grid.per_page]
            block = Block(chunk, size, grid, shapes(len(chunk), size, grid, (W, H), room))
            if not any(_add(page, block, (W, H), room, bleed) for page in pages if page.tiles is None):
                pages.append(Page([(block, Shape(grid.cols, grid.rows, grid.rotated, *_extent(grid)), 0.0, 0.0)]))
    fronts: list[PagePlan[T]] = []
    backs: list[PagePlan[T]] = []
    for page in pages:
        front, back = _finished(page, (W, H), room, bleed)
        fronts += front
        backs += back
    return fronts, (backs if any(b is not None for _, b in pairs) else None)


def shapes(count: int, size: Size, grid: Grid, paper: Size, room: Room) -> list[Shape]:
    """The grids that hold `count` pieces of `size` row by row without an empty row and fit inside
    the room's margins, the pieces turned as in the run's own grid where one fits: a page's worth
    only in that grid. Smallest first, then the fewest rows."""
    if count == grid.per_page:
        return [Shape(grid.cols, grid.rows, grid.rotated, *_extent(grid))]
    found = []
    for rotated in (grid.rotated, not grid.rotated):
        if found:  # turned as the run's pages turn them, unless no such grid fits
            break
        cw, ch = (size[1], size[0]) if rotated else size
        for cols in range(1, count + 1):
            rows = math.ceil(count / cols)
            if cols * (rows - 1) >= count or cols * cw > paper[0] - 2 * room.margin + 1e-9 \
                    or rows * ch > paper[1] - 2 * room.margin + 1e-9:
                continue
            found.append(Shape(cols, rows, rotated, cols * cw, rows * ch))
    return sorted(found, key=lambda s: (round(s.w * s.h, 6), s.rotated, s.rows))


def _extent(grid: Grid) -> tuple[float, float]:
    return grid.cols * grid.cell_w, grid.rows * grid.cell_h


def _add(page: Page[T], block: Block[T], paper: Size, room: Room, bleed: float) -> bool:
    """Put `block` on `page` if there is room: right of the group or below it, in the shape that
    keeps the group smallest for the page (its longest side for the page's). A block alone on its
    page so far may take another shape too."""
    if len(page.blocks) == 1:
        alone = page.blocks[0][0]
        starts = [[(alone, shape, 0.0, 0.0)] for shape in alone.shapes]
    else:
        starts = [page.blocks]
    best = None
    for placed in starts:
        gw = max(x + s.w for _, s, x, _ in placed)
        gh = max(y + s.h for _, s, _, y in placed)
        for shape in block.shapes:
            for x, y in ((gw + BLOCK_GAP, 0.0), (0.0, gh + BLOCK_GAP)):
                w, h = max(gw, x + shape.w), max(gh, y + shape.h)
                group = [*placed, (block, shape, x, y)]
                if len(group) == 2:  # one beside or below the other: both centred across that way
                    group = [(b, s, (w - s.w) / 2 if y else bx, by if y else (h - s.h) / 2) for b, s, bx, by in group]
                # the group that leaves the page the most room in both directions, then the smallest
                key = (round(max(w / paper[0], h / paper[1]), 9), round(w * h, 6))
                if _fits(group, w, h, paper, room, bleed) and (best is None or key < best[0]):
                    best = (key, group)
    if best is None:
        return False
    page.blocks = best[1]
    return True


def _fits(group: list[tuple[Block[T], Shape, float, float]], w: float, h: float, paper: Size, room: Room,
          bleed: float) -> bool:
    """Whether a group `w` × `h` fits the paper inside the room's margins with room for the scale
    bar and label on the bottom or right, its blocks' bleed off the keep-out boxes."""
    W, H = paper
    mx, my = (W - w) / 2, (H - h) / 2
    if min(mx, my) < room.margin - 1e-9 or max(mx, my) < room.furniture - 1e-9:
        return False
    return all(room.allows((mx + x - bleed, my + y - bleed, mx + x + s.w + bleed, my + y + s.h + bleed))
               for _, s, x, y in group)


def _finished(page: Page[T], paper: Size, room: Room, bleed: float) -> tuple[list[PagePlan[T]], list[PagePlan[T]]]:
    """A page's front and back plans (a tile's: one of each per tile)."""
    if page.tiles is not None:
        return page.tiles
    if len(page.blocks) == 1:
        block = page.blocks[0][0]
        return (plan_pages([f for f, _ in block.pairs], block.grid, bleed),
                plan_pages([b for _, b in block.pairs], block.grid, bleed, backs=True))
    W, H = paper
    gw = max(x + s.w for _, s, x, _ in page.blocks)
    gh = max(y + s.h for _, s, _, y in page.blocks)
    ox, oy = (W - gw) / 2, (H - gh) / 2
    fronts: list[Placement[T]] = []
    backs: list[Placement[T]] = []
    boxes = []
    for block, shape, x, y in page.blocks:
        # a grid of the block's shape whose origin is the block's place on the page
        offset = (ox + x - (W - shape.w) / 2, oy + y - (H - shape.h) / 2)
        grid = Grid(W, H, *block.size, shape.cols, shape.rows, shape.rotated, offset, room)
        boxes.append(grid.box)
        for sides, layout, out in (([f for f, _ in block.pairs], slot_layout([True] * len(block.pairs), grid, bleed),
                                    fronts),
                                   ([b for _, b in block.pairs],
                                    slot_layout([b is not None for _, b in block.pairs], grid, bleed, backs=True),
                                    backs)):
            out += [Placement(sides[slot.face], slot.matrix, slot.trim, slot.clip) for slot in layout.placements]
    front = replace(page_plan(paper, bounding_box(boxes), fronts), blocks=tuple(boxes))
    back = mirrored(replace(front, placements=()), 0.0)
    back = replace(page_plan(paper, back.area, backs), blocks=back.blocks) if backs else \
        replace(back, cut_xs=(), cut_ys=())
    return [front], [back]

