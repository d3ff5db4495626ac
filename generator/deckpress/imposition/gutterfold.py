"""Gutterfold sheets: each card's front and back side by side on the same side of one sheet.

Fronts go on one side of a fold line, backs on the other, each back where its front lands when
the sheet is folded along the line. Folded and glued, every back sits exactly behind its front,
whatever the printer's duplex registration; the gutter round the fold is cut away with the margins.

Folding about a line is the same reflection as turning the sheet over about its centre line, so
with the fold through the page's centre the backs' half is placed exactly as a duplex back page
is (`mirrored`, `behind`), only through the fold's mirror, which may also run across the page.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ..units import PRINTABLE, paper_size
from .sheets import (MARK_GAP, MIN_GUIDE, MIN_MARGIN, Edges, Fold, Grid, PagePlan, Room, Size, T, bounding_box, cells,
                     page_plan, plan_pages, runs)

FOLD_CLEAR = 5.0  #: the fold keeps this far from each side's bleed, so a fold a little off stays off the cards


@dataclass(frozen=True)
class FoldLayout:
    """The fronts' grid on one side of the fold; the backs' grid is its mirror image across it."""

    side: Grid
    fold: Fold

    @property
    def per_page(self) -> int:
        return self.side.per_page


def fit_fold(paper: str, card_w: float, card_h: float, bleed: float, margin: float = MIN_MARGIN,
             unprintable: float = PRINTABLE) -> FoldLayout:
    """As many cards a page as fit, fronts and backs inside the margins with a gutter of
    2 × (bleed + FOLD_CLEAR) between them: cards upright or turned, the fold down the page or
    across it. On a tie the fold runs down the page (each card's front and back on one row, and
    the same layout on A4 and Letter for poker cards) and cards stay upright. Nothing is printed
    within `unprintable` of the paper's edge (a printer's widest margin: the fold mirrors one side
    onto the other)."""
    W, H = paper_size(paper)
    margin = max(margin, unprintable)
    gutter = 2 * (bleed + FOLD_CLEAR)
    best = None
    for vertical in (True, False):
        for rotated in (False, True):
            cw, ch = (card_h, card_w) if rotated else (card_w, card_h)
            room_w, room_h = W - 2 * margin, H - 2 * margin
            # the margins along the fold hold the only marks of the cut lines across it: as far
            # in from the edge as lets them print MIN_GUIDE long (the others have the gutter's)
            marked = W - 2 * max(margin, unprintable + MARK_GAP + MIN_GUIDE), \
                H - 2 * max(margin, unprintable + MARK_GAP + MIN_GUIDE)
            if vertical:
                room_w, room_h = (room_w - gutter) / 2, marked[1]
            else:
                room_w, room_h = marked[0], (room_h - gutter) / 2
            cols, rows = cells(room_w, room_h, cw, ch)
            if cols * rows > 0 and (best is None or cols * rows > best.per_page):
                # the fronts' grid, moved off the centre line so its inner edge is half a gutter from the fold
                shift = -(cols * cw + gutter) / 2 if vertical else -(rows * ch + gutter) / 2
                offset = (shift, 0.0) if vertical else (0.0, shift)
                side = Grid(W, H, card_w, card_h, cols, rows, rotated, offset, Room(printable=unprintable))
                best = FoldLayout(side, Fold(W / 2 if vertical else H / 2, vertical))
    if best is None:
        raise ValueError(f"a {card_w:g}×{card_h:g} mm card does not fit half of {paper} paper")
    return best


def plan_gutterfold(pairs: Sequence[tuple[T, T | None]], size_of: Callable[[T], Size], paper: str,
                    bleed: float, margins: Edges | None = None) -> list[PagePlan[T]]:
    """Gutterfold pages for (front, back) pairs, in order; consecutive pieces of one size share a layout.

    A piece without a back leaves its slot across the fold empty (folded, it gets a blank back).
    Pieces bigger than half a page are left out: the normal sheets tile them, and a tiled piece
    cannot be folded onto its back. A printer's `margins` (top, right, bottom, left) keep the
    widest of them clear all round.
    """
    unprintable = max(margins) if margins is not None else PRINTABLE
    pages: list[PagePlan[T]] = []
    for size, run in runs(pairs, size_of):
        try:
            layout = fit_fold(paper, *size, bleed, unprintable=unprintable)
        except ValueError:
            continue
        fronts = plan_pages([f for f, _ in run], layout.side, bleed)
        backs = plan_pages([b for _, b in run], layout.side, bleed, backs=True, page_mirror=layout.fold.mirror)
        pages += [replace(_joined(f, b, layout.fold), margins=None if margins is None else (unprintable,) * 4)
                  for f, b in zip(fronts, backs)]
    return pages


def _joined(front: PagePlan[T], back: PagePlan[T], fold: Fold) -> PagePlan[T]:
    """One sheet: the fronts' half and the backs' half, the gutter between them inside its area."""
    page = page_plan(front.paper, bounding_box([front.area, back.area]), [*front.placements, *back.placements],
                 cuts=([*front.cut_xs, *back.cut_xs], [*front.cut_ys, *back.cut_ys]))
    return replace(page, fold=fold)
