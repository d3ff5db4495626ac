"""Sheet geometry: where each card sits on a page, and where its back must sit.

All in millimetres, y down from the page's top-left corner. Cards are butted (shared cut
lines) so that 3×3 poker cards fit both A4 and Letter; bleed is kept only on a card's outer
edges, where no neighbour is. The grid is centred, so it is symmetric about the page's
vertical axis and a back page mirrors its front page exactly under a long-edge flip.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from ..face import Matrix, apply, multiply, rotation, translation

PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MIN_MARGIN = 5.0  #: most home printers cannot print closer to the edge

Box = tuple[float, float, float, float]  # x0, y0, x1, y1
T = TypeVar("T")


@dataclass(frozen=True)
class Grid:
    paper_w: float
    paper_h: float
    card_w: float  # trim, as designed (portrait)
    card_h: float
    cols: int
    rows: int
    rotated: bool  # cards turned a quarter turn to fit more

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
    def origin(self) -> tuple[float, float]:
        return ((self.paper_w - self.cols * self.cell_w) / 2, (self.paper_h - self.rows * self.cell_h) / 2)

    @property
    def box(self) -> Box:
        x0, y0 = self.origin
        return (x0, y0, x0 + self.cols * self.cell_w, y0 + self.rows * self.cell_h)

    def cell(self, row: int, col: int) -> Box:
        x0, y0 = self.origin
        x, y = x0 + col * self.cell_w, y0 + row * self.cell_h
        return (x, y, x + self.cell_w, y + self.cell_h)

    def front_matrix(self, row: int, col: int) -> Matrix:
        """Face space (mm, origin at the trim's top-left) -> page, for the card in (row, col)."""
        x, y, _, _ = self.cell(row, col)
        if not self.rotated:
            return translation(x, y)
        # a quarter turn clockwise: the card's top edge runs down the cell's right side
        return multiply(translation(x + self.cell_w, y), rotation(90))

    def back_matrix(self, row: int, col: int) -> Matrix:
        """Where the back of the card at (row, col) goes on the back page, for a long-edge flip.

        Turning the sheet over about its vertical axis takes page x to paper_w - x; turning the card
        over about its own vertical axis takes face x to card_w - x. The back is the front's
        placement seen through both mirrors, which together are a proper (unmirrored) placement.
        """
        mirror_page = (-1.0, 0.0, 0.0, 1.0, self.paper_w, 0.0)
        mirror_card = (-1.0, 0.0, 0.0, 1.0, self.card_w, 0.0)
        return multiply(mirror_page, multiply(self.front_matrix(row, col), mirror_card))


def fit_grid(paper: str, card_w: float, card_h: float, margin: float = MIN_MARGIN) -> Grid:
    """As many cards as fit inside the margins, upright or turned, preferring upright on a tie."""
    paper_w, paper_h = PAPERS[paper]
    best = None
    for rotated in (False, True):
        cw, ch = (card_h, card_w) if rotated else (card_w, card_h)
        cols = int((paper_w - 2 * margin + 1e-9) // cw)
        rows = int((paper_h - 2 * margin + 1e-9) // ch)
        if cols * rows > 0 and (best is None or cols * rows > best.per_page):
            best = Grid(paper_w, paper_h, card_w, card_h, cols, rows, rotated)
    if best is None:
        raise ValueError(f"a {card_w:g}×{card_h:g} mm card does not fit on {paper} paper")
    return best


@dataclass(frozen=True)
class Placement(Generic[T]):
    """One card side on a page: what to draw, how, and where its bleed may reach."""

    face: T
    matrix: Matrix
    trim: Box
    clip: Box  # trim, widened by the bleed on edges that have no neighbour


@dataclass(frozen=True)
class PagePlan(Generic[T]):
    placements: tuple[Placement[T], ...]
    cut_xs: tuple[float, ...]  # every vertical cut line
    cut_ys: tuple[float, ...]

    @property
    def trim_box(self) -> Box:
        return _union([p.trim for p in self.placements])

    @property
    def bleed_box(self) -> Box:
        return _union([p.clip for p in self.placements])


def _union(boxes: list[Box]) -> Box:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def plan_pages(sides: list[T | None], grid: Grid, bleed: float, backs: bool = False) -> list[PagePlan[T]]:
    """Lay card sides out page by page, in order, row by row. `None` leaves a slot empty.

    With `backs`, each side goes where the back of the front in the same slot lands.
    """
    pages: list[PagePlan[T]] = []
    per_page = grid.per_page
    for start in range(0, len(sides), per_page):
        chunk = sides[start:start + per_page]
        occupied = {divmod(i, grid.cols) for i, s in enumerate(chunk) if s is not None}
        if not occupied:
            pages.append(PagePlan((), (), ()))
            continue
        placements = []
        for i, side in enumerate(chunk):
            if side is None:
                continue
            row, col = divmod(i, grid.cols)
            if backs:
                matrix = grid.back_matrix(row, col)
                mirror_col = grid.cols - 1 - col
                trim = grid.cell(row, mirror_col)
                neighbours = {(r, grid.cols - 1 - c) for r, c in occupied}
                clip = _clip(trim, row, mirror_col, neighbours, bleed)
            else:
                matrix = grid.front_matrix(row, col)
                trim = grid.cell(row, col)
                clip = _clip(trim, row, col, occupied, bleed)
            placements.append(Placement(side, matrix, trim, clip))
        xs = sorted({round(v, 6) for p in placements for v in (p.trim[0], p.trim[2])})
        ys = sorted({round(v, 6) for p in placements for v in (p.trim[1], p.trim[3])})
        pages.append(PagePlan(tuple(placements), tuple(xs), tuple(ys)))
    return pages


def _clip(trim: Box, row: int, col: int, occupied: set[tuple[int, int]], bleed: float) -> Box:
    x0, y0, x1, y1 = trim
    return (x0 - (0 if (row, col - 1) in occupied else bleed),
            y0 - (0 if (row - 1, col) in occupied else bleed),
            x1 + (0 if (row, col + 1) in occupied else bleed),
            y1 + (0 if (row + 1, col) in occupied else bleed))


def centre(matrix: Matrix, card_w: float, card_h: float) -> tuple[float, float]:
    """Where a card's centre lands on the page."""
    return apply(matrix, card_w / 2, card_h / 2)
