"""Sheet geometry: where each piece sits on a page, and where its back must sit.

All in millimetres, y down from the page's top-left corner. Cards are butted by default (shared
cut lines) so that 3×3 poker cards fit both A4 and Letter; bleed is kept only on a card's outer
edges, where no neighbour is. With a `gap`, cards stand apart, each with its own bleed (half the
gap at most) and its own cut lines. Back pages are their front pages seen through the long-edge
flip, so they register wherever the grid is.

Nothing is printed within PRINTABLE of the paper's edge (a laser printer loses it): bleed is
cut back there. The grid is centred when its margins hold crop marks of at least MIN_GUIDE
inside that edge on both sides; when they cannot (3×3 poker cards on Letter leave 6.35 mm top
and bottom), it is moved to the top (or left), whose margin then holds them, and the far side
keeps what bleed is left before the unprintable edge: every cut line keeps a guide on one end.

Pieces of one size share a grid; a run of another size starts a new page with a grid of its
own (`packing` lets such runs share pages). A piece too big for any page is tiled: cut into
the fewest overlapping parts, one a page, which are glued back together along marked strips,
their seams kept CLEARANCE off the piece's words, pictures and marks where the paper leaves a
way round them, cut alike on A4 and Letter where both allow it.
"""

from __future__ import annotations

import bisect
import functools
import math
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, replace

from ..face import (IDENTITY, Ellipse, Face, Group, Image, Item, Matrix, Path, PathOp, Rect, Text, apply, bounds,
                    multiply, transform_path, translation)
from ..text.fonts import from_fonts, open_font
from ..text.shaping import line_runs
# kept with the lengths: the model checks card sizes against the papers too
from ..units import HOME_PAPERS, MIN_MARGIN, PAPERS, PRINTABLE, paper_size  # noqa: F401
# the pages' values, here as well for what imports them from the sheets (pages.py says why apart)
from .pages import (  # noqa: F401
                    FLIPS, MARK_GAP, MARK_LENGTH, MIN_GUIDE, OVERLAP, TILE_MARGIN, Box, Edges, Fold, PagePlan,
                    Placement, Room, Seam, T, Tile, back_matrix, behind, bounding_box, for_printer, mirrored, moved,
                    page_mirror, page_plan, printable_box, quarter_turn, reflection, within)


@dataclass(frozen=True)
class Grid:
    paper_w: float
    paper_h: float
    card_w: float  # trim, as designed (portrait)
    card_h: float
    cols: int
    rows: int
    rotated: bool  # cards turned a quarter turn to fit more
    offset: tuple[float, float] = (0.0, 0.0)  # off the page's centre (one side of a gutterfold sheet)
    room: Room = Room()  # how much of their bleed the cards print
    gap: float = 0.0  # between neighbouring cards' trims

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def cell_w(self) -> float:
        return self.card_h if self.rotated else self.card_w

    @property
    def cell_h(self) -> float:
        return self.card_w if self.rotated else self.card_h

    @property
    def width(self) -> float:
        return self.cols * self.cell_w + (self.cols - 1) * self.gap

    @property
    def height(self) -> float:
        return self.rows * self.cell_h + (self.rows - 1) * self.gap

    @property
    def origin(self) -> tuple[float, float]:
        dx, dy = self.offset
        return ((self.paper_w - self.width) / 2 + dx, (self.paper_h - self.height) / 2 + dy)

    @property
    def box(self) -> Box:
        x0, y0 = self.origin
        return (x0, y0, x0 + self.width, y0 + self.height)

    def cell(self, row: int, col: int) -> Box:
        x0, y0 = self.origin
        x, y = x0 + col * (self.cell_w + self.gap), y0 + row * (self.cell_h + self.gap)
        return (x, y, x + self.cell_w, y + self.cell_h)

    def front_matrix(self, row: int, col: int) -> Matrix:
        """Face space (mm, origin at the trim's top-left) -> page, for the card in (row, col)."""
        x, y, _, _ = self.cell(row, col)
        return translation(x, y) if not self.rotated else multiply(translation(x, y), quarter_turn(self.card_h))

    def back_matrix(self, row: int, col: int) -> Matrix:
        """Where the back of the card at (row, col) goes on the back page, for the room's flip."""
        return behind(self.front_matrix(row, col), self.room.page_mirror((self.paper_w, self.paper_h)), self.card_w)


def cells(room_w: float, room_h: float, cell_w: float, cell_h: float, gap: float = 0.0) -> tuple[int, int]:
    """How many cells, `gap` apart, fit in a room, across and down."""
    return int((room_w + gap + 1e-9) // (cell_w + gap)), int((room_h + gap + 1e-9) // (cell_h + gap))


def fit_grid(paper: str, card_w: float, card_h: float, room: Room = Room(), bleed: float = 0.0,
             gap: float = 0.0) -> Grid:
    """As many cards as fit inside the room's margins, `gap` apart, upright or turned, preferring
    upright on a tie, with their bleed (as much of `bleed` as the room prints) off its keep-out
    boxes, and placed where every cut line's marks print (`marks_offset`): a row or column fewer if
    they would not (21 mini cards on A4 left 5 mm for marks, 18 leave enough). Only a card too big
    for any grid with printed marks gets one without them."""
    paper_w, paper_h = paper_size(paper)
    bleed = room.bleed(bleed)
    top, right, bottom, left = (max(room.margin, e) for e in room.unprintable)
    best = None
    for marked in (True, False):
        for rotated in (False, True):
            cw, ch = (card_h, card_w) if rotated else (card_w, card_h)
            cols, rows = cells(paper_w - left - right, paper_h - top - bottom, cw, ch, gap)
            for cols, rows in sorted(((c, r) for c in range(cols, 0, -1) for r in range(rows, 0, -1)),
                                     key=lambda n: -n[0] * n[1]):
                if best is not None and cols * rows <= best.per_page:
                    break
                grid = Grid(paper_w, paper_h, card_w, card_h, cols, rows, rotated, room=room, gap=gap)
                offset = marks_offset(grid.width, grid.height, (paper_w, paper_h), room)
                if offset is None and marked:
                    continue
                grid = replace(grid, offset=offset or (0.0, 0.0))
                x0, y0, x1, y1 = grid.box
                if room.allows((x0 - bleed, y0 - bleed, x1 + bleed, y1 + bleed)):
                    best = grid
                    break
        if best is not None:
            break
    if best is None:
        raise ValueError(f"a {card_w:g}×{card_h:g} mm card does not fit on {paper} paper")
    return best


def snug(grid: Grid, count: int, bleed: float = 0.0) -> Grid:
    """`grid` cut down to hold `count` pieces, when they are fewer than a page holds: as many
    columns as there are pieces (at most the grid's) and the rows they fill, placed anew, so a
    short run (eight pawns on a grid of 39) sits in the middle of its page, not in a corner."""
    if count >= grid.per_page:
        return grid
    cols = min(grid.cols, count)
    smaller = replace(grid, cols=cols, rows=math.ceil(count / cols), offset=(0.0, 0.0))
    offset = marks_offset(smaller.width, smaller.height, (grid.paper_w, grid.paper_h), grid.room)
    if offset is None:
        return grid
    smaller = replace(smaller, offset=offset)
    x0, y0, x1, y1 = smaller.box
    b = grid.room.bleed(bleed)
    return smaller if grid.room.allows((x0 - b, y0 - b, x1 + b, y1 + b)) else grid


def marks_offset(width: float, height: float, paper: tuple[float, float],
                 room: Room) -> tuple[float, float] | None:
    """How far off the page's centre to put a `width` × `height` grid so that its marks print:
    nowhere if its centred margins hold marks of at least MIN_GUIDE inside the printable edge;
    else (across, down, each alone) to give the left or top margin that much, if the far side's
    trim still prints; else the right or bottom one (a printer with a wide margin at the top).
    The other side then prints what bleed it can, and no marks. None if the marks cannot print
    either way, or the trim would reach into what the printer cannot print (the room's edges)."""
    top, right, bottom, left = room.unprintable

    def shift(extent: float, paper_extent: float, near: float, far: float) -> float | None:
        slack = paper_extent - extent
        if slack / 2 < max(near, far) - 1e-9:  # even centred, the trim would not print
            return _skewed(slack, near, far)
        if room.least_reach <= 0 or slack / 2 >= max(near, far) + room.least_reach - 1e-9:
            return 0.0
        if slack - (near + room.least_reach) >= far - 1e-9:  # marks on the near side
            return near + room.least_reach - slack / 2
        if slack - (far + room.least_reach) >= near - 1e-9:  # on the far side
            return slack / 2 - (far + room.least_reach)
        return None

    def _skewed(slack: float, near: float, far: float) -> float | None:
        # no marks fit either way: unmarked grids (`fit_grid`'s last resort) take this only if
        # the printer's margins are met, centred between them
        return None if room.least_reach > 0 or slack < near + far - 1e-9 else (near - far) / 2

    dx, dy = shift(width, paper[0], left, right), shift(height, paper[1], top, bottom)
    return None if dx is None or dy is None else (dx, dy)


def plan_pages(sides: Sequence[T | None], grid: Grid, bleed: float, backs: bool = False,
               page_mirror: Matrix | None = None) -> list[PagePlan[T]]:
    """Lay card sides out page by page, in order, row by row. `None` leaves a slot empty.

    With `backs`, each side goes where the back of the front in the same slot lands: under a
    long-edge flip, or under `page_mirror` if given.

    Pages that fill the same slots (all of them, on every page but the last) have the same
    geometry: it is worked out once (`slot_layout`) and each page puts its sides in it.
    """
    pages: list[PagePlan[T]] = []
    layouts: dict[tuple[bool, ...], PagePlan[int]] = {}
    # a side placed in a slot of a layout before (copies of a card fill the same slot page after
    # page) is placed alike: by the slot's and the side's identities, which `sides` keeps alive
    placed: dict[tuple[int, int], Placement[T]] = {}
    for start in range(0, len(sides), grid.per_page):
        chunk = sides[start:start + grid.per_page]
        filled = tuple(side is not None for side in chunk)
        layout = layouts.get(filled)
        if layout is None:
            layout = layouts[filled] = slot_layout(filled, grid, bleed, backs, page_mirror)
        placements = []
        for slot in layout.placements:
            side = chunk[slot.face]
            placement = placed.get((id(slot), id(side)))
            if placement is None:
                placement = placed[id(slot), id(side)] = Placement(side, slot.matrix, slot.trim, slot.clip)
            placements.append(placement)
        placements = tuple(placements)
        pages.append(PagePlan(layout.paper, layout.area, placements, layout.cut_xs, layout.cut_ys,
                              margins=layout.margins))
    return pages


def slot_layout(filled: Sequence[bool], grid: Grid, bleed: float, backs: bool = False,
                page_mirror: Matrix | None = None) -> PagePlan[int]:
    """A page of `grid` whose slots hold a side where `filled` says, in row order, each placement's
    face being its slot's number: `plan_pages`' page, before the sides go in."""
    occupied = {divmod(i, grid.cols) for i, full in enumerate(filled) if full}
    printable = grid.room.printable_box((grid.paper_w, grid.paper_h))
    placements = []
    for i, full in enumerate(filled):
        if full:
            row, col = divmod(i, grid.cols)
            trim = grid.cell(row, col)
            clip = within(_clip(trim, row, col, occupied, grid.room.bleed(bleed), grid.gap), printable)
            placements.append(Placement(i, grid.front_matrix(row, col), trim, clip))
    page = replace(page_plan((grid.paper_w, grid.paper_h), grid.box, placements), margins=grid.room.edges)
    return mirrored(page, grid.card_w, page_mirror or grid.room.page_mirror(page.paper)) if backs else page


def _clip(trim: Box, row: int, col: int, occupied: set[tuple[int, int]], bleed: float, gap: float = 0.0) -> Box:
    """A card's trim widened by its bleed: all of it on edges without a neighbour, half the gap
    at most towards one (none when cards are butted), so neighbours' bleeds never overlap."""
    x0, y0, x1, y1 = trim
    shared = min(bleed, gap / 2)
    return (x0 - (shared if (row, col - 1) in occupied else bleed),
            y0 - (shared if (row - 1, col) in occupied else bleed),
            x1 + (shared if (row, col + 1) in occupied else bleed),
            y1 + (shared if (row + 1, col) in occupied else bleed))


def plan_tiles(face: T, card_w: float, card_h: float, paper: str, bleed: float,
               room: Room = Room(), keep_clear: Sequence[Box] = ()) -> list[PagePlan[T]]:
    """A piece too big for the paper, cut into overlapping tiles, one a page.

    Tiles are named like map squares (columns A, B, …; rows 1, 2, …). Each tile overlaps its
    right and lower neighbours by OVERLAP: that strip on the left/upper tile takes the glue,
    and the neighbour, cut along its marked edge, is laid over it up to a dashed line.
    `tile_layout` chooses how: the fewest tiles, the seams CLEARANCE off the `keep_clear` boxes
    (what a player reads, in face mm) where they can be, upright unless only turning keeps them so.
    The piece is cut as it would be on A4 and on Letter alike (tiles that fit both) where that
    costs no tile and no clearance, so a board printed on either is the same board in the same parts.
    """
    W, H = paper_size(paper)
    own = (W - 2 * room.tile_margin, H - 2 * room.tile_margin)
    layout = tile_layout(card_w, card_h, own, bleed, tuple(keep_clear))
    shared = (min([own[0]] + [PAPERS[p][0] - 2 * room.tile_margin for p in HOME_PAPERS]),
              min([own[1]] + [PAPERS[p][1] - 2 * room.tile_margin for p in HOME_PAPERS]))
    if shared != own:
        try:
            alike = tile_layout(card_w, card_h, shared, bleed, tuple(keep_clear))
        except ValueError:  # too big for the shared room's longest tile, where this paper's is not
            pass
        else:
            if alike.rank[:4] <= layout.rank[:4]:
                layout = alike
    pw, ph = (card_h, card_w) if layout.turned else (card_w, card_h)
    to_board = quarter_turn(card_h) if layout.turned else translation(0.0, 0.0)
    names = tuple(name for name, _ in layout.tiles)
    pages = []
    for name, (x0, y0, x1, y1) in layout.tiles:
        ox, oy = (W - (x1 - x0)) / 2 - x0, (H - (y1 - y0)) / 2 - y0  # board -> page: the tile centred
        seen = (x0 + ox, y0 + oy, x1 + ox, y1 + oy)
        trim = (max(ox, seen[0]), max(oy, seen[1]), min(ox + pw, seen[2]), min(oy + ph, seen[3]))
        seams = [replace(seam, at=seam.at + (ox if seam.vertical else oy),
                         span=tuple(v + (oy if seam.vertical else ox) for v in seam.span))
                 for seam in _tile_seams((x0, y0, x1, y1), layout.tiles, (pw, ph))]
        cut_xs = [v for v in (ox, ox + pw) if seen[0] - 1e-6 <= v <= seen[2] + 1e-6]
        cut_ys = [v for v in (oy, oy + ph) if seen[1] - 1e-6 <= v <= seen[3] + 1e-6]
        cut_xs += [s.at for s in seams if s.kind == "cut" and s.vertical]
        cut_ys += [s.at for s in seams if s.kind == "cut" and not s.vertical]
        placement = Placement(face, multiply(translation(ox, oy), to_board), trim, seen)
        pages.append(replace(page_plan((W, H), seen, [placement], Tile(name, names, tuple(seams)), (cut_xs, cut_ys)),
                             margins=room.edges))
    return pages


CLEARANCE = 5.0  #: mm a seam's glue strip and cut line keep from every word, picture and mark of the piece
MARK = 12.0  #: a drawn shape no longer than this either way is a mark a player reads (a colour's symbol,
#: an arrowhead, an icon in a line of text); bigger ones (a field's outline, a ring) may be crossed


@from_fonts
@functools.lru_cache(maxsize=16)
def text_boxes(face: Face) -> tuple[Box, ...]:
    """The box of everything on a face a player reads (face mm), as drawn through any groups: each
    run of text (its advance along the baseline, from its font's ascent to its descent), each
    picture, and each mark (a rectangle, ellipse or path no longer than MARK either way). Lines, and
    the shapes bigger than a mark, are left out: a seam may cross a field's outline, not a word or a
    symbol. What a tile's seams keep CLEARANCE off."""
    found: list[Box] = []

    def box_of(corners: list[tuple[float, float]]) -> Box:
        return (min(c[0] for c in corners), min(c[1] for c in corners),
                max(c[0] for c in corners), max(c[1] for c in corners))

    def walk(items: Sequence[Item], matrix: Matrix) -> None:
        for item in items:
            if isinstance(item, Group):
                walk(item.items, multiply(matrix, item.transform))
            elif isinstance(item, Text):
                if item.text.strip():
                    font = open_font(item.font)
                    found.append(box_of([apply(matrix, x, y) for x in (item.x, item.x + text_advance(item) * item.size)
                                         for y in (item.y - font.ascent * item.size,
                                                   item.y + font.descent * item.size)]))
            elif isinstance(item, (Image, Rect, Ellipse, Path)):
                x0, y0, x1, y1 = bounds(item)
                drawn = isinstance(item, Image) or item.paint.fill is not None or item.paint.stroke is not None
                if drawn and (isinstance(item, Image) or max(x1 - x0, y1 - y0) <= MARK):
                    found.append(box_of([apply(matrix, x, y) for x in (x0, x1) for y in (y0, y1)]))

    walk(face.items, IDENTITY)
    return tuple(found)


def text_advance(t: Text) -> float:
    """How far a text reaches along its baseline, in em: where its last glyph's advance ends, as
    shaped (its own glyph runs, or its text shaped as the backends draw it)."""
    runs = t.glyph_runs or line_runs(t.text, t.font)
    font = open_font(t.font)
    return max((start + x + font.glyph_advance(gid) for start, glyphs in runs for gid, x, _, _ in glyphs[-1:]),
               default=0.0)


@dataclass(frozen=True)
class TileLayout:
    """How a piece is cut into tiles, in the piece's own mm (trim from 0, bleed below 0 and past
    its size), turned a quarter turn clockwise first if `turned`."""

    turned: bool
    tiles: tuple[tuple[str, Box], ...]  #: each tile's name and the part of the piece it shows, in page order
    crossings: int  #: how many keep-clear boxes a seam's strip comes within CLEARANCE of (once a seam)
    staggered: bool  #: seams of neighbouring rows (or columns) not in line, like bricks
    rank: tuple[float, ...] = ()  #: how `tile_layout` ranked it, lowest best: tiles, not clear, turned, …


MIN_TILE = 3 * OVERLAP  #: the shortest tile: room for a glue strip at each end and some of the piece between
STAGGER = 4 * OVERLAP  #: seams of neighbouring rows are in line or this far apart: no sliver of a glue strip
_CANDIDATES = 40  #: seam positions tried for each seam, the best first


@functools.lru_cache(maxsize=64)
def tile_layout(width: float, height: float, room: tuple[float, float], bleed: float,
                keep_clear: tuple[Box, ...] = ()) -> TileLayout:
    """The fewest tiles, each at most `room` (w, h) with its bleed, that cover a `width`×`height`
    piece and its bleed, neighbours overlapping by OVERLAP; then the seams' strips CLEARANCE off as
    many of the `keep_clear` boxes (face mm) as can be.

    The piece is cut into rows, each cut into tiles, or into columns, each cut into tiles; a row's
    seams may leave the next row's behind (staggered, like bricks) where that keeps them off more
    boxes. It is turned a quarter turn only to need fewer tiles, or to keep every seam clear where
    no upright cut into as few tiles can: a tile printed upright reads as the piece does. Of the
    rest, ties go to the fewest boxes crossed, seams in line, then to tiles nearest equal lengths.
    Every tile is one page. Cuts other than rows or columns are not tried; for a piece longer both
    ways than the room's longer side none could do with fewer than four, since of three tiles one
    would hold two of its corners, a whole side.
    """
    grown = [(b[0] - CLEARANCE, b[1] - CLEARANCE, b[2] + CLEARANCE, b[3] + CLEARANCE) for b in keep_clear]
    best: TileLayout | None = None
    for turned in (False, True):
        pw, ph = (height, width) if turned else (width, height)
        boxes = [_turned_box(b, height) for b in grown] if turned else grown
        extent = (-bleed, -bleed, pw + bleed, ph + bleed)
        for rows in (True, False):
            found = _strips(extent, room, boxes) if rows else _swapped(_strips(_swap(extent), room[::-1],
                                                                               [_swap(b) for b in boxes]))
            if found is None:
                continue
            crossings, staggered, imbalance, grid = found
            tiles = sum(len(strip) for strip in grid)
            rank = (tiles, crossings > 0, turned, crossings, staggered, round(imbalance, 6), not rows)
            if best is None or rank < best.rank:
                best = TileLayout(turned, _named(grid, rows), crossings, staggered, rank)
    if best is None:
        raise ValueError(f"a {width:g}×{height:g} mm piece cannot be tiled on {room[0]:g}×{room[1]:g} mm")
    return best


Strips = list[list[Box]]  # tiles strip by strip, each strip's tiles in order


def _strips(extent: Box, room: tuple[float, float], boxes: list[Box]) -> tuple[int, bool, float, Strips] | None:
    """The best cut of `extent` into rows (stacked downwards), each cut into tiles across, every
    tile within `room`: (crossings, staggered, imbalance, tiles row by row), None if none fits.

    The seams between rows cross the whole piece; the seams in a row cross only that row, so where
    the rows are cut decides which boxes those may meet: with two rows, the best few places for the
    seam between them are each tried with the best seams in each row."""
    x0, y0, x1, y1 = extent
    rows, cols = _tile_count(y1 - y0, room[1]), _tile_count(x1 - x0, room[0])
    if min(rows, cols) < 1:
        return None
    aligned = _lines(x0, x1, cols, room[0], boxes, 0, (y0, y1))  # seams in line: each crosses every row
    options = []
    for cost, imbalance, between in _lines(y0, y1, rows, room[1], boxes, 1, (x0, x1), keep=12 if rows == 2 else 1):
        ys = _bounds(y0, y1, between)
        if aligned:
            options.append((cost + aligned[0][0], False, imbalance + aligned[0][1] * rows, [aligned[0][2]] * rows, ys))
        # each row its own seams, in line with its neighbour's or STAGGER away from them: rows
        # settled one after another, from the top down and from the bottom up
        for order in (ys, ys[::-1]):
            total, spread, seams = cost, imbalance, []
            for a, b in order:
                found = _lines(x0, x1, cols, room[0], boxes, 0, (a, b), seams[-1] if seams else ())
                if not found:
                    break
                total, spread = total + found[0][0], spread + found[0][1]
                seams.append(found[0][2])
            else:
                seams = seams if order is ys else seams[::-1]
                options.append((total, any(s != seams[0] for s in seams), spread, seams, ys))
    if not options:
        return None
    cost, staggered, imbalance, by_row, ys = min(options, key=lambda o: (o[0], o[1], o[2]))
    grid = [[(a, ya, b, yb) for a, b in _bounds(x0, x1, row)] for row, (ya, yb) in zip(by_row, ys)]
    return cost, staggered, imbalance, grid


def _bounds(lo: float, hi: float, seams: Sequence[float]) -> list[tuple[float, float]]:
    """The stretches between `lo` and `hi` that tiles starting at `lo` and at each seam cover:
    each reaches OVERLAP past the next one's start."""
    starts = [lo, *seams]
    return [(s, e + OVERLAP) for s, e in zip(starts, seams)] + [(starts[-1], hi)]


def _lines(lo: float, hi: float, n: int, longest: float, boxes: Sequence[Box], axis: int,
           span: tuple[float, float], in_line: Sequence[float] = (),
           keep: int = 1) -> list[tuple[int, float, list[float]]]:
    """Where `n` tiles at most `longest` long, overlapping by OVERLAP, cover lo…hi along `axis` (0:
    x, 1: y), each seam's strip (from a tile's start to OVERLAP past it) across `span` on the other
    axis: the `keep` best ways, best first, each as (crossings, imbalance, the n - 1 tile starts
    after the first); none if they cannot.

    Seams cross as few `boxes` as can be, then lie nearest an even split (the imbalance is the sum
    of their squared distances from it). With `in_line` (the seams of the row before), each seam
    is at one of them or at least STAGGER from all of them. A seam's crossings change only where its
    strip starts or stops touching a box, so those places, the ends of its range and the even
    split are the candidates; the best `_CANDIDATES` of each seam are tried together."""
    if n == 1:
        return [(0, 0.0, [])] if hi - lo <= longest + 1e-9 else []
    a, b = span
    near = [bx for bx in boxes if bx[1 - axis] < b and a < bx[3 - axis]]
    starts = sorted(bx[axis] - OVERLAP for bx in near)  # a strip at s crosses a box for start < s < end
    ends = sorted(bx[axis + 2] for bx in near)

    def crossings(s: float) -> int:
        return bisect.bisect_left(starts, s) - bisect.bisect_right(ends, s)

    size = (hi - lo + (n - 1) * OVERLAP) / n
    even = [lo + i * (size - OVERLAP) for i in range(1, n)]
    choices = []
    for i in range(1, n):
        low = max(lo + i * (MIN_TILE - OVERLAP), hi - longest - (n - 1 - i) * (longest - OVERLAP))
        high = min(lo + i * (longest - OVERLAP), hi - MIN_TILE - (n - 1 - i) * (MIN_TILE - OVERLAP))
        if low > high + 1e-9:
            return []
        places = {low, high, min(max(even[i - 1], low), high), *in_line,
                  *(v for v in (*starts, *ends) if low <= v <= high)}
        places = [p for p in places if low - 1e-9 <= p <= high + 1e-9
                  and all(abs(p - q) < 1e-9 or abs(p - q) >= STAGGER for q in in_line)]
        ranked = sorted(places, key=lambda p: (crossings(p), (p - even[i - 1]) ** 2, p))[:_CANDIDATES]
        if not ranked:
            return []
        choices.append([(crossings(p), (p - even[i - 1]) ** 2, p) for p in ranked])
    # the tiles' lengths tie each seam to the one before: the best path through the choices
    paths: dict[float, tuple[int, float, list[float]]] = {lo: (0, 0.0, [])}
    for options in choices:
        step: dict[float, tuple[int, float, list[float]]] = {}
        for cost, off, p in options:
            reach = [(c + cost, o + off, [*seams, p]) for prev, (c, o, seams) in paths.items()
                     if MIN_TILE - 1e-9 <= p + OVERLAP - prev <= longest + 1e-9]
            if reach:
                step[p] = min(reach, key=lambda r: (r[0], r[1]))
        paths = step
    ends_ok = [path for last, path in paths.items() if MIN_TILE - 1e-9 <= hi - last <= longest + 1e-9]
    return sorted(ends_ok, key=lambda r: (r[0], r[1], r[2]))[:keep]


def _swap(box: Box) -> Box:
    return (box[1], box[0], box[3], box[2])


def _swapped(found: tuple[int, bool, float, Strips] | None) -> tuple[int, bool, float, Strips] | None:
    """`_strips` of the mirrored piece (x and y swapped) read back: its rows are the piece's columns."""
    if found is None:
        return None
    crossings, staggered, imbalance, grid = found
    return crossings, staggered, imbalance, [[_swap(t) for t in strip] for strip in grid]


def _turned_box(box: Box, height: float) -> Box:
    """A box of a `height` tall piece, once the piece is turned a quarter turn clockwise."""
    (ax, ay), (bx, by) = apply(quarter_turn(height), box[0], box[1]), apply(quarter_turn(height), box[2], box[3])
    return (min(ax, bx), min(ay, by), max(ax, bx), max(ay, by))


def _named(grid: Strips, rows: bool) -> tuple[tuple[str, Box], ...]:
    """Tiles named like map squares, a letter for the column and a number for the row, in reading
    order: `grid` is rows of tiles, or (not `rows`) columns of them."""
    named = [((i, j) if rows else (j, i), tile) for i, strip in enumerate(grid) for j, tile in enumerate(strip)]
    return tuple((f"{chr(65 + col)}{row + 1}", tile) for (row, col), tile in sorted(named, key=lambda n: n[0]))


def _tile_seams(tile: Box, tiles: Sequence[tuple[str, Box]], size: tuple[float, float]) -> list[Seam]:
    """Where `tile` meets its neighbours (in the piece's mm; `size` is its trim): glue strips along
    its right and lower edges, which the tiles there are laid over, then cut edges along its left
    and upper edges. A neighbour overlaps it by OVERLAP across the seam and by more than 2 × OVERLAP
    along it (a tile that only shares a corner is no neighbour); where two neighbours share an edge,
    each has the stretch of it the one before does not."""
    x0, y0, x1, y1 = tile
    trim = (max(0.0, x0), max(0.0, y0), min(size[0], x1), min(size[1], y1))
    seams = []
    for vertical, kind, mine in ((True, "glue", x1 - OVERLAP), (False, "glue", y1 - OVERLAP),
                                 (True, "cut", x0 + OVERLAP), (False, "cut", y0 + OVERLAP)):
        across, along = (0, 1) if vertical else (1, 0)
        side = across if kind == "glue" else across + 2  # the neighbour's edge that lies on `mine`
        found = sorted((box[along], name, box) for name, box in tiles
                       if abs(box[side] - mine) < 1e-6 and min(box[along + 2], tile[along + 2])
                       - max(box[along], tile[along]) > 2 * OVERLAP)
        taken = -math.inf
        for _, name, box in found:
            span = (max(trim[along], box[along], taken), min(trim[along + 2], box[along + 2]))
            if span[1] - span[0] > 1e-6:
                at = box[across] if kind == "glue" else tile[across]
                seams.append(Seam(at, vertical, kind, name, span))
                taken = span[1]
    return seams


def _tile_count(extent: float, room: float) -> int:
    """How many tiles, overlapping by OVERLAP, it takes to cover `extent` with tiles at most `room` long."""
    if room <= OVERLAP:
        return 0
    return max(1, math.ceil((extent - OVERLAP) / (room - OVERLAP) - 1e-9))


Size = tuple[float, float]


def plan_sheets(pairs: Sequence[tuple[T, T | None]], size_of: Callable[[T], Size], paper: str,
                bleed: float, room: Room = Room(), keep_clear: Callable[[T], Sequence[Box]] | None = None,
                gap: float = 0.0, outline_of: Callable[[T], tuple[PathOp, ...]] | None = None,
                designs: Sequence[Hashable] = ()) -> tuple[list[PagePlan[T]], list[PagePlan[T]] | None]:
    """Front pages and, if any piece has a back, the matching back pages (one for each front page).

    Consecutive pieces of one size share a grid, `gap` mm between them. Butted (no gap), pieces
    of another back design (`designs`, parallel to `pairs`: Kanon's canon cards, cream-backed
    among wine-backed ones) start a page of their own: neighbours share a cut line, and a cut a
    little off would show one back's edge on the other, front and back. A piece that fits no page
    is tiled, its seams kept off what `keep_clear` says of its front (its words: `text_boxes`)
    where they can be. Pieces with an outline of their own (`outline_of`: round tokens, hex
    tiles) are packed tightly instead (`shapedpacking`), a run of each outline.
    """
    whole_bleed = bleed  # what a shaped piece's face draws, which its neighbours keep clear of
    bleed = room.bleed(bleed)
    fronts: list[PagePlan[T]] = []
    backs: list[PagePlan[T]] = []
    outline = outline_of or (lambda _: ())
    # a run is of one size and one outline
    apart = designs if gap <= 0 else ()
    for (size, shape), run in runs(pairs, lambda side: (size_of(side), outline(side)), apart):  # type: ignore
        if shape:
            # imported here: it lays its pages out with this module's values, and only a deck
            # with shaped pieces pays for numpy
            from .shapedpacking import plan_shaped
            try:
                shaped_fronts, shaped_backs = plan_shaped(run, size, shape, paper, whole_bleed, room, gap)
            except ValueError:  # too big for this paper (the model allows what fits A4 and Letter):
                pass  # laid out as rectangles, as cards are, their faces still cut to their shape
            else:
                fronts += shaped_fronts
                backs += shaped_backs
                continue
        try:
            grid = snug(fit_grid(paper, *size, room, bleed, gap), len(run), bleed)
        except ValueError:
            for front, back in run:
                pages = plan_tiles(front, *size, paper, bleed, room, keep_clear(front) if keep_clear else ())
                fronts += pages
                backs += [with_back(mirrored(p, size[0], room.page_mirror(p.paper)), back) for p in pages]
        else:
            fronts += plan_pages([f for f, _ in run], grid, bleed)
            backs += plan_pages([b for _, b in run], grid, bleed, backs=True)
    has_backs = any(b is not None for _, b in pairs)
    return fronts, (backs if has_backs else None)


def runs(pairs: Sequence[tuple[T, T | None]], size_of: Callable[[T], Size],
         designs: Sequence[Hashable] = ()) -> Iterator[tuple[Size, Sequence[tuple[T, T | None]]]]:
    """The pairs cut into runs of consecutive pieces of one size (and, given each piece's back
    design, parallel to `pairs`, of one design): each run gets a layout of its own."""
    def key(i: int) -> tuple[Size, Hashable]:
        return size_of(pairs[i][0]), (designs[i] if designs else None)

    start = 0
    while start < len(pairs):
        first = key(start)
        end = start
        while end < len(pairs) and key(end) == first:
            end += 1
        yield first[0], pairs[start:end]
        start = end


def with_back(page: PagePlan[T], face: T | None) -> PagePlan[T]:
    """A tile's back page, showing `face` (or nothing when the piece has no back)."""
    if face is None:
        return replace(page, placements=(), cut_xs=(), cut_ys=())
    return replace(page, placements=tuple(replace(p, face=face) for p in page.placements))


def centre(matrix: Matrix, card_w: float, card_h: float) -> tuple[float, float]:
    """Where a card's centre lands on the page."""
    return apply(matrix, card_w / 2, card_h / 2)


def plan_single(face: T, card_w: float, card_h: float, bleed: float) -> PagePlan[T]:
    """A page exactly the card and its bleed, the card on it: what print services take, one
    card side a page."""
    W, H = card_w + 2 * bleed, card_h + 2 * bleed
    trim = (bleed, bleed, bleed + card_w, bleed + card_h)
    return PagePlan((W, H), trim, (Placement(face, translation(bleed, bleed), trim, (0.0, 0.0, W, H)),), (), ())


PIECE_MARGIN = 5.0  #: least margin round a cut-out piece (a tuck box)


def plan_piece(face: T, width: float, height: float, paper: str, outline: tuple[PathOp, ...] = (),
               room: Room = Room()) -> PagePlan[T] | None:
    """A page with one cut-out piece (a tuck box's net, cut along `outline`, in face mm) centred on
    it, upright if it fits, else turned a quarter turn; None if it fits neither way. The piece has
    no crop marks: its own outline is the cut line."""
    W, H = paper_size(paper)
    margin = max(PIECE_MARGIN, room.margin)
    for rotated in (False, True):
        pw, ph = (height, width) if rotated else (width, height)
        mx, my = (W - pw) / 2, (H - ph) / 2
        box = (mx, my, mx + pw, my + ph)
        if min(mx, my) >= margin and max(mx, my) >= room.furniture and room.allows(box):
            place = translation(mx, my)
            matrix = multiply(place, quarter_turn(height)) if rotated else place
            outlines = (transform_path(outline, matrix),) if outline else ()
            return PagePlan((W, H), box, (Placement(face, matrix, box, box),), (), (), outlines=outlines,
                            margins=room.edges)
    return None
