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

from ..units import paper_size
from .sheets import (Box, Grid, PagePlan, Placement, Room, Size, T, bounding_box, fit_grid, mirrored, moved, page_plan,
                     plan_pages, plan_tiles, runs, slot_layout, with_back)

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


@dataclass(frozen=True)
class TilePart(Generic[T]):
    """One tile of a piece too big for the paper: its page as `plan_tiles` lays it out, the piece's
    back (None: none) and its width (what a back page's mirror needs)."""

    plan: PagePlan[T]
    back: T | None
    width: float


@dataclass
class Page(Generic[T]):
    """A page being filled: its blocks, each with its shape and its top-left corner in the group
    (whose top-left is 0, 0), below a tile if it holds one (the tile's top-left at 0, 0 then)."""

    blocks: list[tuple[Block[T], Shape, float, float]] = field(default_factory=list)
    tile: TilePart[T] | None = None


def plan_packed(pairs: Sequence[tuple[T, T | None]], size_of: Callable[[T], Size], paper: str, bleed: float,
                room: Room = Room(), keep_clear: Callable[[T], Sequence[Box]] | None = None
                ) -> tuple[list[PagePlan[T]], list[PagePlan[T]] | None]:
    """Front pages and, if any piece has a back, the matching back pages, pieces of several sizes
    sharing pages where they fit (see the module's docstring); `plan_sheets`' pages otherwise.

    A block goes on the last page with room for it, so it moves as little ahead of its run as it
    can: the page a run's last pieces would start, or one just before it."""
    bleed = room.bleed(bleed)
    W, H = paper_size(paper)
    pages: list[Page[T]] = []
    for size, run in runs(pairs, size_of):
        try:
            grid = fit_grid(paper, *size, room, bleed)
        except ValueError:
            for front, back in run:
                for tile in plan_tiles(front, *size, paper, bleed, room, keep_clear(front) if keep_clear else ()):
                    pages.append(Page(tile=TilePart(tile, back, size[0])))
            continue
        for start in range(0, len(run), grid.per_page):
            chunk = run[start:start + grid.per_page]
            block = Block(chunk, size, grid, shapes(len(chunk), size, grid, (W, H), room))
            if not any(_add(page, block, (W, H), room, bleed) for page in reversed(pages)):
                pages.append(Page([(block, Shape(grid.cols, grid.rows, grid.rotated, *_extent(grid)), 0.0, 0.0)]))
    fronts: list[PagePlan[T]] = []
    backs: list[PagePlan[T]] = []
    for page in pages:
        front, back = _finished(page, (W, H), room, bleed)
        fronts.append(front)
        backs.append(back)
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
    page so far may take another shape too. A tile takes one block, below it, where neither its
    name above it nor its triangles left of it and above it are in the way."""
    if page.tile is not None:
        if page.blocks:
            return False
        x0, y0, x1, y1 = page.tile.plan.area
        tw, th = x1 - x0, y1 - y0
        best = None
        for shape in block.shapes:
            w, h = max(tw, shape.w), th + BLOCK_GAP + shape.h
            group = [(block, shape, (w - shape.w) / 2, th + BLOCK_GAP)]
            key = (round(max(w / paper[0], h / paper[1]), 9), round(w * h, 6))
            if _fits(group, w, h, paper, room, bleed, ((w - tw) / 2, 0.0, tw, th)) and (best is None or key < best[0]):
                best = (key, group)
        if best is None:
            return False
        page.blocks = best[1]
        return True
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
          bleed: float, tile: Box | None = None) -> bool:
    """Whether a group `w` × `h` fits the paper inside the room's margins (a tile in it, x, y, w, h
    in the group, inside the margins for tiles) with room for the scale bar and label on the
    bottom or right, its blocks' bleed off the keep-out boxes."""
    W, H = paper
    mx, my = (W - w) / 2, (H - h) / 2
    if min(mx, my) < room.margin - 1e-9 or max(mx, my) < room.furniture - 1e-9:
        return False
    if tile is not None:
        tx, ty, tw, th = tile
        if min(mx + tx, my + ty, W - (mx + tx + tw), H - (my + ty + th)) < room.tile_margin - 1e-9:
            return False
    return all(room.allows((mx + x - bleed, my + y - bleed, mx + x + s.w + bleed, my + y + s.h + bleed))
               for _, s, x, y in group)


def _finished(page: Page[T], paper: Size, room: Room, bleed: float) -> tuple[PagePlan[T], PagePlan[T]]:
    """A page's front and back plans."""
    tile = page.tile
    if tile is not None and not page.blocks:
        return tile.plan, with_back(mirrored(tile.plan, tile.width, room.page_mirror(paper)), tile.back)
    if tile is None and len(page.blocks) == 1:
        block = page.blocks[0][0]
        (front,) = plan_pages([f for f, _ in block.pairs], block.grid, bleed)
        (back,) = plan_pages([b for _, b in block.pairs], block.grid, bleed, backs=True)
        return front, back
    W, H = paper
    if tile is not None:
        x0, y0, x1, y1 = tile.plan.area
        parts = [((x1 - x0), (y1 - y0), 0.0, 0.0)]
    else:
        parts = []
    gw = max([x + s.w for _, s, x, _ in page.blocks] + [w for w, _, _, _ in parts])
    gh = max([y + s.h for _, s, _, y in page.blocks] + [h for _, h, _, _ in parts])
    ox, oy = (W - gw) / 2, (H - gh) / 2
    fronts: list[Placement[T]] = []
    backs: list[Placement[T]] = []
    front_cuts: tuple[list[float], list[float]] = ([], [])
    back_cuts: tuple[list[float], list[float]] = ([], [])
    boxes = []
    tile_plan = None
    if tile is not None:  # the tile's page moved to the tile's place in the group, centred across
        tw = parts[0][0]
        tile_plan = moved(tile.plan, ox + (gw - tw) / 2 - tile.plan.area[0], oy - tile.plan.area[1])
        tile_back = with_back(mirrored(tile_plan, tile.width, room.page_mirror(paper)), tile.back)
        fronts += tile_plan.placements
        backs += tile_back.placements
        boxes.append(tile_plan.placements[0].trim)
        for cuts, plan in ((front_cuts, tile_plan), (back_cuts, tile_back)):
            cuts[0].extend(plan.cut_xs)
            cuts[1].extend(plan.cut_ys)
    for block, shape, x, y in page.blocks:
        # a grid of the block's shape whose origin is the block's place on the page
        offset = (ox + x - (W - shape.w) / 2, oy + y - (H - shape.h) / 2)
        grid = Grid(W, H, *block.size, shape.cols, shape.rows, shape.rotated, offset, room)
        boxes.append(grid.box)
        for sides, layout, out, cuts in (
                ([f for f, _ in block.pairs], slot_layout([True] * len(block.pairs), grid, bleed), fronts, front_cuts),
                ([b for _, b in block.pairs], slot_layout([b is not None for _, b in block.pairs], grid, bleed,
                                                          backs=True), backs, back_cuts)):
            out += [Placement(sides[slot.face], slot.matrix, slot.trim, slot.clip) for slot in layout.placements]
            cuts[0].extend(layout.cut_xs)
            cuts[1].extend(layout.cut_ys)
    area = bounding_box(([tile_plan.area] if tile_plan else []) + boxes[1 if tile_plan else 0:])
    front = replace(page_plan(paper, area, fronts, cuts=front_cuts), blocks=tuple(boxes), margins=room.edges)
    if tile_plan is not None:
        front = replace(front, tile=replace(tile_plan.tile, area=tile_plan.area))
    flipped = mirrored(replace(front, placements=(), tile=None), 0.0, room.page_mirror(paper))  # as the backs are
    back = replace(page_plan(paper, flipped.area, backs, cuts=back_cuts), blocks=flipped.blocks, margins=room.edges)
    return front, back
