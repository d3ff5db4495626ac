"""Shaped pieces packed on home sheets (imposition/shapedpacking): circles in offset rows, hexes
interlocked, each piece's outline on the page where the piece is, backs behind their fronts."""

from __future__ import annotations

import math

import pytest

from deckpress.face import apply
from deckpress.imposition.cutpaths import cut_paths
from deckpress.imposition.sheets import plan_sheets
from deckpress.imposition.shapedpacking import layout
from deckpress.pieceshape import flattened, outline, parse_shape

A4_ROOM = (5.0, 5.0, 205.0, 280.0)


def shaped(kind: str, w: float, h: float):
    return outline(parse_shape(kind, w, h), w, h)


def rows_of(slots):
    rows: dict[float, list[float]] = {}
    for x, y in slots:
        rows.setdefault(round(y, 4), []).append(x)
    return [sorted(xs) for _, xs in sorted(rows.items())]


@pytest.mark.parametrize("bleed", [0.0, 2.0, 3.0])
def test_circles_go_in_offset_rows_and_beat_a_square_grid(bleed):
    packing = layout(shaped("circle", 30, 30), 30, 30, bleed, A4_ROOM)
    pitch = 30 + 2 * bleed
    square = int((200 + 2 * bleed) // pitch) * int((275 + 2 * bleed) // pitch)
    assert packing.per_page > square
    assert packing.shifted and packing.across == pytest.approx(pitch, abs=0.01)
    assert packing.down == pytest.approx(pitch * math.sqrt(3) / 2, abs=0.02)  # the hexagonal packing
    rows = rows_of(packing.slots) if not packing.turned else rows_of([(y, x) for x, y in packing.slots])
    assert rows[1][0] - rows[0][0] == pytest.approx(pitch / 2, abs=0.01) or \
        rows[0][0] - rows[1][0] == pytest.approx(pitch / 2, abs=0.01)
    centres = [(x + 15, y + 15) for x, y in packing.slots]  # no two closer than the bleeds allow
    assert min(math.dist(a, b) for i, a in enumerate(centres) for b in centres[i + 1:]) >= pitch - 0.01


def test_hexes_interlock_and_without_bleed_share_their_edges():
    w, h = 50.0, 50 * 2 / math.sqrt(3)
    packing = layout(shaped("hex", w, h), w, h, 0.0, A4_ROOM)
    rows = rows_of(packing.slots)
    assert not packing.turned and packing.shifted
    assert packing.across == pytest.approx(w, abs=0.001) and packing.down == pytest.approx(0.75 * h, abs=0.001)
    assert abs(rows[1][0] - rows[0][0]) == pytest.approx(w / 2, abs=0.001)
    with_bleed = layout(shaped("hex", w, h), w, h, 2.0, A4_ROOM)  # 4 mm between parallel sides
    assert with_bleed.across == pytest.approx(w + 4, abs=0.001)
    assert with_bleed.down == pytest.approx((w + 4) * math.sqrt(3) / 2, abs=0.001)  # 4 mm on the slants too


def test_flat_hexes_interlock_in_columns():
    w, h = 50 * 2 / math.sqrt(3), 50.0
    packing = layout(shaped("hex-flat", w, h), w, h, 0.0, A4_ROOM)
    assert packing.turned and packing.shifted and packing.down == pytest.approx(0.75 * w, abs=0.001)


def test_each_piece_has_its_outline_where_it_lies_and_its_back_behind_it():
    w, h = 30.0, 30.0
    ring = shaped("circle", w, h)
    pairs = [(f"front{i}", f"back{i}") for i in range(60)]
    fronts, backs = plan_sheets(pairs, lambda side: (w, h), "a4", 2.0, outline_of=lambda side: ring)
    assert len(fronts) == len(backs) == 2 and len(fronts[0].placements) == 50
    page = fronts[0]
    assert not page.cut_xs and not page.cut_ys  # no crop marks: the outlines are the cut lines
    assert cut_paths(page) == list(page.outlines)
    for placement, path in zip(page.placements, page.outlines):
        points = flattened(path)[0]
        centre = apply(placement.matrix, 15, 15)
        assert all(math.dist(p, centre) == pytest.approx(15, abs=0.01) for p in points)
        assert placement.trim == pytest.approx((centre[0] - 15, centre[1] - 15, centre[0] + 15, centre[1] + 15))
    for front, back in zip(page.placements, backs[0].placements):  # long-edge flip: x mirrored about the middle
        fx, fy = apply(front.matrix, 15, 15)
        bx, by = apply(back.matrix, 15, 15)
        assert (bx, by) == pytest.approx((210 - fx, fy)) and back.face == front.face.replace("front", "back")
    back_centres = sorted(apply(p.matrix, 15, 15) for p in backs[0].placements)
    outline_centres = sorted(((min(x for x, _ in pts) + max(x for x, _ in pts)) / 2,
                              (min(y for _, y in pts) + max(y for _, y in pts)) / 2)
                             for pts in (flattened(o)[0] for o in backs[0].outlines))
    assert [v for c in outline_centres for v in c] == pytest.approx([v for c in back_centres for v in c], abs=0.01)


def test_runs_of_other_shapes_and_rectangles_get_pages_of_their_own():
    ring, hexagon = shaped("circle", 30, 30), shaped("hex", 50, 50 * 2 / math.sqrt(3))
    sizes = {"c": (30.0, 30.0), "h": (50.0, 50 * 2 / math.sqrt(3)), "r": (30.0, 30.0)}
    outlines = {"c": ring, "h": hexagon, "r": ()}
    pairs = [(kind, None) for kind in "ccchhr"]
    fronts, backs = plan_sheets(pairs, lambda s: sizes[s], "a4", 2.0, outline_of=lambda s: outlines[s])
    assert backs is None
    assert [[p.face for p in page.placements] for page in fronts] == [["c"] * 3, ["h"] * 2, ["r"]]
    assert [len(page.outlines) for page in fronts] == [3, 2, 0] and fronts[2].cut_xs


def test_a_shaped_piece_too_big_for_the_paper_is_laid_out_as_a_rectangle():
    ring = shaped("circle", 190, 190)  # fits A4 (the model allows it), not A5
    fronts, _ = plan_sheets([("big", None)], lambda s: (190.0, 190.0), "a5", 2.0, outline_of=lambda s: ring)
    assert fronts and all(not page.outlines for page in fronts) and all(page.tile for page in fronts)
    a4, _ = plan_sheets([("big", None)], lambda s: (190.0, 190.0), "a4", 2.0, outline_of=lambda s: ring)
    assert len(a4) == 1 and len(a4[0].outlines) == 1


def test_a_printer_s_margins_and_short_edge_flip_hold_for_shaped_pieces():
    from deckpress.imposition.sheets import Room, for_printer

    ring = shaped("circle", 30, 30)
    room = for_printer(Room(), (12.0, 12.0, 12.0, 12.0), "short")
    fronts, backs = plan_sheets([(f"f{i}", f"b{i}") for i in range(40)], lambda s: (30.0, 30.0), "a4", 2.0, room,
                                outline_of=lambda s: ring)
    for page in (*fronts, *backs):
        assert page.margins == (12.0, 12.0, 12.0, 12.0)
        for p in page.placements:
            assert p.trim[0] >= 12 - 1e-6 and p.trim[2] <= 198 + 1e-6 and p.trim[1] >= 12 - 1e-6
            assert p.clip[0] >= 12 - 1e-6 and p.clip[2] <= 198 + 1e-6 and p.clip[3] <= 285 + 1e-6
    for front, back in zip(fronts[0].placements, backs[0].placements):  # turned over top to bottom
        fx, fy = apply(front.matrix, 15, 15)
        assert apply(back.matrix, 15, 15) == pytest.approx((fx, 297 - fy))
    tops = sorted(min(y for _, y in flattened(o)[0]) for o in backs[0].outlines)
    assert tops == pytest.approx(sorted(p.trim[1] for p in backs[0].placements), abs=0.01)


def test_a_gap_wider_than_the_bleeds_spaces_the_pieces_by_it():
    ring = shaped("circle", 30, 30)
    fronts, _ = plan_sheets([(i, None) for i in range(10)], lambda s: (30.0, 30.0), "a4", 1.0, gap=5.0,
                            outline_of=lambda s: ring)
    centres = [apply(p.matrix, 15, 15) for p in fronts[0].placements]
    assert min(math.dist(a, b) for i, a in enumerate(centres) for b in centres[i + 1:]) == pytest.approx(35, abs=0.01)
