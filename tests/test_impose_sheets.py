"""Sheet geometry: grids that fit the paper, butted cards with outer bleed, and mirrored backs."""

from __future__ import annotations

import pytest

from generator.face import apply
from generator.impose.sheets import PAPERS, centre, fit_grid, plan_pages


@pytest.mark.parametrize("paper, card, expected", [
    ("a4", (63.5, 88.9), (3, 3, False)), ("letter", (63.5, 88.9), (3, 3, False)),
    ("a4", (63, 88), (3, 3, False)), ("a4", (70, 120), (2, 2, False)),
    ("a4", (41, 63), (3, 7, True)), ("a4", (44, 68), (4, 4, False)), ("letter", (59, 92), (2, 4, True)),
])
def test_grids_fill_the_page(paper, card, expected):
    grid = fit_grid(paper, *card)
    assert (grid.cols, grid.rows, grid.rotated) == expected
    x0, y0, x1, y1 = grid.box
    W, H = PAPERS[paper]
    assert x0 >= 5 and y0 >= 5 and W - x1 >= 5 and H - y1 >= 5
    assert x0 == pytest.approx(W - x1) and y0 == pytest.approx(H - y1)  # centred: symmetric for the flip


def test_a_card_too_big_for_the_paper_is_an_error():
    with pytest.raises(ValueError, match="does not fit"):
        fit_grid("a4", 250, 300)


def test_pages_hold_the_grid_and_bleed_only_outer_edges():
    grid = fit_grid("a4", 63.5, 88.9)
    pages = plan_pages(list(range(11)), grid, 3.0)
    assert [len(p.placements) for p in pages] == [9, 2]
    middle = pages[0].placements[4]
    assert middle.clip == middle.trim  # neighbours on all sides: no bleed
    corner = pages[0].placements[0]
    assert corner.clip == pytest.approx((corner.trim[0] - 3, corner.trim[1] - 3, corner.trim[2], corner.trim[3]))
    lone = pages[1].placements[1]  # second card of the last page: nothing right of it or below
    assert lone.clip == pytest.approx((lone.trim[0], lone.trim[1] - 3, lone.trim[2] + 3, lone.trim[3] + 3))
    assert pages[0].cut_xs == pytest.approx((9.75, 73.25, 136.75, 200.25))


@pytest.mark.parametrize("card", [(63.5, 88.9), (41, 63)])
def test_backs_land_behind_fronts_upright(card):
    grid = fit_grid("a4", *card)
    w, h = card
    W = grid.paper_w
    for row in range(grid.rows):
        for col in range(grid.cols):
            front, back = grid.front_matrix(row, col), grid.back_matrix(row, col)
            fx, fy = centre(front, w, h)
            bx, by = centre(back, w, h)
            assert (W - bx, by) == pytest.approx((fx, fy))
            # the back's left edge lies behind the front's right edge: the card is turned, not mirrored
            assert apply(back, 0, 0) == pytest.approx((W - apply(front, w, 0)[0], apply(front, w, 0)[1]))
            a, b, c, d, _, _ = back
            assert a * d - b * c == pytest.approx(1)  # a proper placement, no mirror image


def test_empty_slots_stay_empty_on_back_pages():
    grid = fit_grid("a4", 63.5, 88.9)
    (page,) = plan_pages(["x", None, "y"], grid, 3.0, backs=True)
    assert [p.face for p in page.placements] == ["x", "y"]
    # the first card's back sits in the mirrored column
    assert page.placements[0].trim == pytest.approx(grid.cell(0, 2))
