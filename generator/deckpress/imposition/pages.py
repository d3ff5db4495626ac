"""Pages as geometry: the values every kind of sheet is made of, and what moves them.

A `PagePlan` is a page of `Placement`s (each piece's face, its matrix onto the page, its trim and
how far its bleed may reach), the cut lines, and what a tiled piece (`Tile`, its `Seam`s) or a
gutterfold sheet (`Fold`) adds; `Room` is what a page leaves for pieces, marks and furniture on
a printer; `mirrored` and `moved` make back pages and shifted ones. `sheets` lays cards out on
grids with these, `tiling`-like parts of it cut big pieces, `shapedpacking` packs shaped ones, and
none of them imports another to get them (issue 37: no import circle).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

from ..face import Matrix, PathOp, apply, multiply, rotation, transform_path, translation
from ..units import MIN_MARGIN, PRINTABLE

MARK_GAP = 1.0  #: crop marks start this far outside the trim, so a slightly wide cut removes them


MARK_LENGTH = 4.0


MIN_GUIDE = 3.0  #: the least of a crop mark (or cut line) that must print for a cut to be lined up on it


TILE_MARGIN = 12.0  #: around a tile: its crop marks, alignment marks, name and page label


OVERLAP = 10.0  #: the strip two neighbouring tiles share; one is glued over the other there


Box = tuple[float, float, float, float]  # x0, y0, x1, y1


Edges = tuple[float, float, float, float]  # top, right, bottom, left: what a printer cannot print (mm)


T = TypeVar("T")


FLIPS = ("long", "short")  #: the edge a duplex printer turns the sheet over on


def printable_box(paper: tuple[float, float], shift: tuple[float, float] = (0.0, 0.0),
                  inset: float = PRINTABLE, edges: Edges | None = None) -> Box:
    """Where ink prints on `paper`: `inset` in from its edges (or `edges`, a printer's own, top,
    right, bottom, left), moved by `shift` (a back page the printer puts that much off, which the
    back offset cancels)."""
    (W, H), (dx, dy) = paper, shift
    top, right, bottom, left = edges if edges is not None else (inset,) * 4
    return (left + dx, top + dy, W - right + dx, H - bottom + dy)


def page_mirror(paper: tuple[float, float], flip: str = "long") -> Matrix:
    """What turning a (portrait) sheet over does to it: about its vertical centre line for a
    long-edge flip, about its horizontal one for a short-edge flip."""
    if flip not in FLIPS:
        raise ValueError(f"flip must be one of {', '.join(FLIPS)}, not {flip!r}")
    return reflection(paper[0] / 2) if flip == "long" else reflection(paper[1] / 2, vertical=False)


@dataclass(frozen=True)
class Room:
    """Where pieces may go on a page. The defaults suit a home printer and a paper trimmer; a
    cutting machine's registration marks ask for more (see `marks.room_for`)."""

    margin: float = MIN_MARGIN  #: a piece's trim stays this far inside the paper's edges
    tile_margin: float = TILE_MARGIN  #: the same for a tile, whose own marks go round it
    keep_out: tuple[Box, ...] = ()  #: nothing of a piece, bleed included, is printed in these
    furniture: float = 12.0  #: room a cut-out piece leaves on the bottom or right for scale bar and label
    max_bleed: float | None = None  #: the most bleed a piece keeps (None: all its face has)
    printable: float = PRINTABLE  #: nothing is printed nearer the paper's edge than this
    #: what the marks want outside a grid's trim, and the least they make do with (0: no marks there)
    mark_reach: float = MARK_GAP + MARK_LENGTH
    least_reach: float = MARK_GAP + MIN_GUIDE
    #: a printer's own unprintable margins (top, right, bottom, left), in place of `printable`
    #: all round (`for_printer`), and the edge it turns a sheet over on for its back
    edges: Edges | None = None
    flip: str = "long"

    @property
    def unprintable(self) -> Edges:
        """What is not printed along each edge: top, right, bottom, left."""
        return self.edges if self.edges is not None else (self.printable,) * 4

    def printable_box(self, paper: tuple[float, float]) -> Box:
        """Where ink may go on `paper`."""
        return printable_box(paper, edges=self.unprintable)

    def page_mirror(self, paper: tuple[float, float]) -> Matrix:
        """How a sheet is turned over to print its back (`page_mirror`)."""
        return page_mirror(paper, self.flip)

    def bleed(self, bleed: float) -> float:
        """How much of a piece's `bleed` is printed in this room."""
        return bleed if self.max_bleed is None else min(bleed, self.max_bleed)

    def allows(self, box: Box) -> bool:
        """Whether printing over `box` (trim and bleed of a piece) keeps off the keep-out boxes."""
        return not any(box[0] < k[2] and k[0] < box[2] and box[1] < k[3] and k[1] < box[3] for k in self.keep_out)


def for_printer(room: Room, margins: Edges | None = None, flip: str = "long") -> Room:
    """`room` for a printer that cannot print `margins` (top, right, bottom, left; None: PRINTABLE
    all round) and turns sheets over on its `flip` edge. A back page is its front mirrored, the
    long-edge flip left for right and the short-edge top for bottom, yet printed by the same
    printer with the same margins: so the mirrored pair of edges takes the larger of the two,
    and whatever a front keeps clear of, its back does too."""
    if margins is None and flip == "long":
        return room
    top, right, bottom, left = margins if margins is not None else (room.printable,) * 4
    if flip == "long":
        left = right = max(left, right)
    else:
        top = bottom = max(top, bottom)
    return replace(room, edges=(top, right, bottom, left), flip=flip)


def quarter_turn(card_h: float) -> Matrix:
    """A card turned a quarter turn clockwise, its box's top-left kept at the origin: the card's
    top edge then runs down the box's right side."""
    return multiply(translation(card_h, 0.0), rotation(90))


def reflection(at: float, vertical: bool = True) -> Matrix:
    """The mirror about the line x = `at` (`vertical`) or y = `at`: what folding the sheet along
    that line does to it, and, about the page's centre line, what turning it over does."""
    return (-1.0, 0.0, 0.0, 1.0, 2 * at, 0.0) if vertical else (1.0, 0.0, 0.0, -1.0, 0.0, 2 * at)


def back_matrix(front: Matrix, paper_w: float, card_w: float) -> Matrix:
    """Where a back goes, given where its front went, for a long-edge flip: turning the sheet over
    about its vertical axis takes page x to paper_w - x."""
    return behind(front, reflection(paper_w / 2), card_w)


def behind(front: Matrix, page_mirror: Matrix, card_w: float) -> Matrix:
    """Where a back goes, given where its front went, when the sheet is turned over (or folded)
    through `page_mirror`.

    Turning the card over about its own vertical axis takes face x to card_w - x. The back is the
    front's placement seen through both mirrors, which together are a proper (unmirrored) placement.
    """
    return multiply(page_mirror, multiply(front, reflection(card_w / 2)))


@dataclass(frozen=True)
class Placement(Generic[T]):
    """One card side on a page: what to draw, how, and where its bleed may reach."""

    face: T
    matrix: Matrix
    trim: Box
    clip: Box  # trim, widened by the bleed on edges that have no neighbour


@dataclass(frozen=True)
class Seam:
    """Where two tiles of a piece meet, as seen on one of them (page mm).

    On the tile that is glued under (`glue`), the neighbour's cut edge goes on the line at
    `at`, and the strip from there to the tile's edge takes the glue. On the tile glued over
    (`cut`), `at` is the edge to cut along. `vertical` seams run down the page at x = `at`,
    the others across it at y = `at`; `span` is how far along the seam the piece reaches.
    """

    at: float
    vertical: bool
    kind: str  # "glue" | "cut"
    neighbour: str  # the other tile's name
    span: tuple[float, float]
    strip: float = OVERLAP


@dataclass(frozen=True)
class Tile:
    name: str  # column letter and row number, like a map: A1, B1, A2 …
    names: tuple[str, ...]  # every tile of the piece, in order
    seams: tuple[Seam, ...]
    area: Box | None = None  # the tile's part of the page, when it shares the page (packing); else the page's area


@dataclass(frozen=True)
class Fold:
    """Where a gutterfold sheet is folded (page mm): down the page at x = `at` if `vertical`,
    across it at y = `at` otherwise."""

    at: float
    vertical: bool

    @property
    def mirror(self) -> Matrix:
        return reflection(self.at, self.vertical)


@dataclass(frozen=True)
class PagePlan(Generic[T]):
    paper: tuple[float, float]
    area: Box  # the region the pieces are laid out in: marks, scale bar and label go outside it
    placements: tuple[Placement[T], ...]
    cut_xs: tuple[float, ...]  # every vertical cut line
    cut_ys: tuple[float, ...]
    tile: Tile | None = None  # set when the page holds one part of a tiled piece
    fold: Fold | None = None  # set on gutterfold sheets: fronts on one side, backs on the other
    # the cut paths of pieces that are not rectangles (a tuck box's net), page mm; pieces whose
    # trim is their cut (cards, with their face's corner radius) need none
    outlines: tuple[tuple[PathOp, ...], ...] = ()
    # on a page holding pieces of several sizes (packing.plan_packed), the trim box of each group of
    # one size: each is marked for cutting on its own. Empty: the page is one group (or a fold
    # sheet's two halves)
    blocks: tuple[Box, ...] = ()
    # the printer's unprintable margins the page was laid out in (top, right, bottom, left; None:
    # PRINTABLE all round), which its furniture keeps inside too. A back page has its front's: the
    # printer's margins are where the paper goes through it, whichever side is up
    margins: Edges | None = None

    @property
    def trim_box(self) -> Box:
        return bounding_box([p.trim for p in self.placements])

    @property
    def bleed_box(self) -> Box:
        return bounding_box([p.clip for p in self.placements])


def bounding_box(boxes: Sequence[Box]) -> Box:
    """The smallest box holding every one of `boxes`."""
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def page_plan(paper: tuple[float, float], area: Box, placements: list[Placement[T]],
              tile: Tile | None = None, cuts: tuple[list[float], list[float]] | None = None) -> PagePlan[T]:
    """A page of `placements` laid out in `area`, cut along every edge of their trims, or along
    `cuts` (x and y) when given; cut lines are sorted, each once (to 1 nm)."""
    if cuts is None:
        cuts = ([v for p in placements for v in (p.trim[0], p.trim[2])],
                [v for p in placements for v in (p.trim[1], p.trim[3])])
    xs, ys = (tuple(sorted({round(v, 6) for v in values})) for values in cuts)
    return PagePlan(paper, area, tuple(placements), xs, ys, tile)


def within(box: Box, bounds: Box) -> Box:
    """`box` cut back to `bounds` (a piece's bleed to the printable part of the paper)."""
    return (max(box[0], bounds[0]), max(box[1], bounds[1]), min(box[2], bounds[2]), min(box[3], bounds[3]))


def mirrored(page: PagePlan[T], card_w: float, page_mirror: Matrix | None = None) -> PagePlan[T]:
    """The back page of `page`: every piece where its back lands under a long-edge flip, or under
    `page_mirror` (a fold). (Tiles keep their crop marks; glue strips and alignment marks belong on
    the front only.)"""
    if page_mirror is None:
        page_mirror = reflection(page.paper[0] / 2)

    def flip(box: Box) -> Box:
        (x0, y0), (x1, y1) = apply(page_mirror, box[0], box[1]), apply(page_mirror, box[2], box[3])
        return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))

    placements = tuple(Placement(p.face, behind(p.matrix, page_mirror, card_w), flip(p.trim), flip(p.clip))
                       for p in page.placements)
    xs = tuple(sorted(round(apply(page_mirror, x, 0.0)[0], 6) for x in page.cut_xs))
    ys = tuple(sorted(round(apply(page_mirror, 0.0, y)[1], 6) for y in page.cut_ys))
    return PagePlan(page.paper, flip(page.area), placements, xs, ys, blocks=tuple(flip(b) for b in page.blocks),
                    margins=page.margins)


def moved(page: PagePlan[T], dx: float, dy: float) -> PagePlan[T]:
    """`page` with everything on it shifted by (dx, dy) mm on the paper: pieces, their trim and
    bleed, cut lines, the area (so marks, scale bar and label follow), any fold, tile seams or blocks.

    This is the back offset: a duplex printer that lands the back of a sheet (ex, ey) off the
    spot behind its front is corrected by shifting back pages by (-ex, -ey), in the back page's
    own coordinates (x right and y down as seen looking at the back), which are its PDF's."""
    if (dx, dy) == (0.0, 0.0):
        return page
    shift = translation(dx, dy)

    def box(b: Box) -> Box:
        return (b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy)

    def seam(s: Seam) -> Seam:
        along, across = (dy, dx) if s.vertical else (dx, dy)
        return replace(s, at=s.at + across, span=(s.span[0] + along, s.span[1] + along))

    placements = tuple(Placement(p.face, multiply(shift, p.matrix), box(p.trim), box(p.clip)) for p in page.placements)
    tile = replace(page.tile, seams=tuple(seam(s) for s in page.tile.seams),
                   area=box(page.tile.area) if page.tile.area else None) if page.tile else None
    fold = replace(page.fold, at=page.fold.at + (dx if page.fold.vertical else dy)) if page.fold else None
    return PagePlan(page.paper, box(page.area), placements, tuple(round(x + dx, 6) for x in page.cut_xs),
                    tuple(round(y + dy, 6) for y in page.cut_ys), tile, fold,
                    tuple(transform_path(o, shift) for o in page.outlines), tuple(box(b) for b in page.blocks),
                    margins=page.margins)
