"""Pages holding pieces of several sizes: the last few of one size share a page with the next,
each group marked on its own, backs behind fronts; a page of one group is plan_sheets' page."""

from __future__ import annotations

import pytest

from deckpress.imposition.furniture import MARK_GAP, MARK_LENGTH, cut_marks, mark_groups
from deckpress.imposition.marks import room_for
from deckpress.imposition.packing import BLOCK_GAP, plan_packed
from deckpress.imposition.sheets import PAPERS, centre, mirrored, moved, plan_sheets
from deckpress.units import HOME_PAPERS

CARD, BOARD, PAWN, TOKEN = (63.5, 88.9), (262.0, 150.0), (15.0, 72.0), (20.0, 20.0)
SIZES = {"rule": CARD, "board": BOARD, "pawn": PAWN, "token": TOKEN, "big": (284.0, 300.0)}


def flat(boxes):
    return [v for box in boxes for v in box]


def size_of(face):
    return SIZES[face.split("-")[0]]


def test_pieces_plan_sheets_would_leave_alone_share_a_page():
    pairs = [(f"rule-{i}", None) for i in range(10)] + [("board-a", None), ("board-b", None)] + \
        [(f"pawn-{i}", None) for i in range(8)]
    separate, _ = plan_sheets(pairs, size_of, "a4", 3.0)
    assert [len(p.placements) for p in separate] == [9, 1, 1, 1, 8]
    fronts, backs = plan_packed(pairs, size_of, "a4", 3.0)
    assert backs is None
    assert [[p.face for p in page.placements] for page in fronts] == \
        [[f"rule-{i}" for i in range(9)], ["rule-9", *(f"pawn-{i}" for i in range(8))], ["board-a"], ["board-b"]]
    # pages that share nothing are plan_sheets' own
    assert fronts[0] == separate[0] and fronts[2:] == separate[2:4]
    shared = fronts[1]
    card, *pawns = shared.placements
    assert len(shared.blocks) == 2
    assert shared.blocks[0] == pytest.approx(card.trim)
    row = (pawns[0].trim[0], pawns[0].trim[1], pawns[-1].trim[2], pawns[-1].trim[3])
    assert shared.blocks[1] == pytest.approx(row)
    assert row[2] - row[0] == pytest.approx(8 * 15.0) and row[1] - card.trim[3] == pytest.approx(BLOCK_GAP)
    W, H = PAPERS["a4"]
    # the group centred on the page, each block centred across it
    assert (card.trim[0] + card.trim[2]) / 2 == pytest.approx(W / 2) and (row[0] + row[2]) / 2 == pytest.approx(W / 2)
    assert card.trim[1] - 0 == pytest.approx(H - row[3])
    assert shared.area == pytest.approx((row[0], card.trim[1], row[2], row[3]))


def test_each_block_is_marked_on_its_own_and_its_marks_keep_off_the_other():
    pairs = [(f"rule-{i}", None) for i in range(10)] + [(f"pawn-{i}", None) for i in range(8)]
    fronts, _ = plan_packed(pairs, size_of, "a4", 3.0)
    shared = fronts[1]
    groups = mark_groups(shared)
    assert [g[0] for g in groups] == [pytest.approx(b) for b in shared.blocks]
    card, row = shared.blocks
    assert groups[0][1] == pytest.approx((card[0], card[2]))  # the card cut along its own edges only
    assert groups[1][1] == pytest.approx([row[0] + 15.0 * i for i in range(9)])
    for marks, other in zip(cut_marks(shared, "corners"), (row, card)):
        for x0, y0, x1, y1 in marks.segments:
            assert not (min(x0, x1) < other[2] + 3 and other[0] - 3 < max(x0, x1)
                        and min(y0, y1) < other[3] + 3 and other[1] - 3 < max(y0, y1))  # off its bleed
            assert max(abs(x1 - x0), abs(y1 - y0)) == pytest.approx(MARK_LENGTH)
    # cut lines to the paper's edge stop short of the other block
    for lines, other in zip(cut_marks(shared, "lines"), (row, card)):
        for x0, y0, x1, y1 in lines.segments:
            if x0 == x1 and other[0] <= x0 <= other[2]:
                assert max(y0, y1) <= other[1] - MARK_GAP + 1e-6 or min(y0, y1) >= other[3] + MARK_GAP - 1e-6


def test_backs_land_behind_their_fronts_and_pieces_without_backs_leave_theirs_empty():
    pairs = [(f"rule-{i}", f"back-{i}") for i in range(10)] + [(f"pawn-{i}", None) for i in range(8)]
    fronts, backs = plan_packed(pairs, size_of, "a4", 3.0)
    assert len(backs) == len(fronts) == 2
    W = PAPERS["a4"][0]
    (back,) = backs[1].placements
    front = fronts[1].placements[0]
    assert back.face == "back-9"
    bx, by = centre(back.matrix, *CARD)
    fx, fy = centre(front.matrix, *CARD)
    assert (W - bx, by) == pytest.approx((fx, fy))
    a, b, c, d, _, _ = back.matrix
    assert a * d - b * c == pytest.approx(1)  # turned over, not mirrored
    assert flat(backs[1].blocks) == pytest.approx(flat((W - x1, y0, W - x0, y1) for x0, y0, x1, y1 in fronts[1].blocks))
    assert [g[0] for g in mark_groups(backs[1])] == [pytest.approx(back.trim)]  # the pawns' block is bare
    # the back offset and a flip take the blocks along
    assert flat(moved(fronts[1], 1.0, -2.0).blocks) == pytest.approx(flat((x0 + 1, y0 - 2, x1 + 1, y1 - 2)
                                                                          for x0, y0, x1, y1 in fronts[1].blocks))
    assert flat(mirrored(fronts[1], 63.5).blocks) == pytest.approx(flat(backs[1].blocks))


@pytest.mark.parametrize("mode", ["corners", "cutter"])
@pytest.mark.parametrize("paper", HOME_PAPERS)
def test_shared_pages_keep_inside_the_room(paper, mode):
    room = room_for(mode)
    pairs = [(f"rule-{i}", None) for i in range(11)] + [(f"token-{i}", None) for i in range(5)] + \
        [("big", None)] + [(f"pawn-{i}", None) for i in range(3)]
    fronts, _ = plan_packed(pairs, size_of, paper, 3.0, room)
    W, H = PAPERS[paper]
    placed = [p.face for page in fronts for p in page.placements if p.face != "big"]
    assert sorted(placed) == sorted(f for f, _ in pairs if f != "big")  # every piece once, the board in tiles
    assert sum(page.tile is not None for page in fronts) == 4
    shared = [page for page in fronts if page.blocks]
    assert shared
    bleed = room.bleed(3.0)
    for page in shared:
        for p in page.placements:
            x0, y0, x1, y1 = p.trim
            assert x0 >= room.margin - 1e-6 and y0 >= room.margin - 1e-6
            assert W - x1 >= room.margin - 1e-6 and H - y1 >= room.margin - 1e-6
            assert room.allows((x0 - bleed, y0 - bleed, x1 + bleed, y1 + bleed))
        x0, y0, x1, y1 = page.area
        assert max(W - x1, H - y1) >= room.furniture - 1e-6  # the scale bar and label's band
        for i, a in enumerate(page.blocks):  # blocks BLOCK_GAP apart at least
            for b in page.blocks[i + 1:]:
                assert max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3]) >= BLOCK_GAP - 1e-6


def test_a_lone_card_goes_below_a_tile_with_room_for_it_each_marked_as_alone():
    from deckpress.face import Face
    from deckpress.imposition.cutpaths import cut_paths
    from deckpress.imposition.furniture import TileMarks, sheet_furniture
    from deckpress.imposition.sheets import TILE_MARGIN, plan_tiles

    board, card = Face(284.0, 300.0, 3.0), Face(*CARD, 3.0, radius=3.0)
    faces = {board: (284.0, 300.0), card: CARD}
    pairs = [(board, None)] + [(card, None)] * 10
    paper = "a4"
    fronts, backs = plan_packed(pairs, faces.get, paper, 3.0)
    assert backs is None and len(fronts) == 5
    alone = plan_tiles(board, 284.0, 300.0, paper, 3.0)
    shared = [page for page in fronts if page.tile is not None and len(page.placements) == 2]
    assert len(shared) == 1
    page = shared[0]
    before = next(t for t in alone if t.tile.name == page.tile.name)  # the tile as it is alone on its page
    tile, lone = page.placements
    W, H = PAPERS[paper]
    # the tile moved up (and the group centred), nothing else about it changed
    dx, dy = tile.trim[0] - before.placements[0].trim[0], tile.trim[1] - before.placements[0].trim[1]
    assert dx == pytest.approx(0.0, abs=1e-9) and dy < 0
    assert page.tile.area == pytest.approx([v + d for v, d in zip(before.area, (dx, dy, dx, dy))])
    assert [s.at for s in page.tile.seams] == pytest.approx([s.at + (dx if s.vertical else dy)
                                                            for s in before.tile.seams])
    x0, y0, x1, y1 = page.tile.area
    assert min(x0, y0, W - x1, H - y1) >= TILE_MARGIN - 1e-9
    # the card centred below it, BLOCK_GAP from the tile's bleed
    assert lone.trim[1] - y1 == pytest.approx(BLOCK_GAP)
    assert (lone.trim[0] + lone.trim[2]) / 2 == pytest.approx((x0 + x1) / 2)
    assert y0 == pytest.approx(H - lone.trim[3])
    # each marked on its own: the tile along its own cut lines, the card along its edges
    groups = mark_groups(page)
    assert [v - dx for v in groups[0][1]] == pytest.approx(before.cut_xs)
    assert [v - dy for v in groups[0][2]] == pytest.approx(before.cut_ys)
    assert flat(groups[1][:1]) + list(groups[1][1] + groups[1][2]) == \
        pytest.approx([*lone.trim, lone.trim[0], lone.trim[2], lone.trim[1], lone.trim[3]])
    # the tile's marks above the tile, not above the group; the tile cut straight, the card rounded
    (marks,) = [f for f in sheet_furniture(page, "corners", 3.0, 30.0) if isinstance(f, TileMarks)]
    assert (marks.name.x, marks.name.y) == pytest.approx((x0 + 4, y0 - 6.0))
    straight, rounded = cut_paths(page)
    assert [op for op, _ in straight] == ["M", "L", "L", "L", "Z"] and "C" in [op for op, _ in rounded]


def test_a_shared_tile_page_has_both_backs_behind_their_fronts():
    from deckpress.face import Face

    board, card = Face(284.0, 300.0, 3.0), Face(*CARD, 3.0, radius=3.0)
    board_back, card_back = Face(284.0, 300.0, 3.0, radius=1.0), Face(*CARD, 3.0, radius=2.0)
    sizes = {board: (284.0, 300.0), card: CARD, board_back: (284.0, 300.0), card_back: CARD}
    fronts, backs = plan_packed([(board, board_back)] + [(card, card_back)] * 10, sizes.get, "a4", 3.0)
    W = PAPERS["a4"][0]
    (i,) = [n for n, page in enumerate(fronts) if page.tile is not None and len(page.placements) == 2]
    front, back = fronts[i], backs[i]
    assert [p.face for p in back.placements] == [board_back, card_back] and back.tile is None
    for f, b, size in zip(front.placements, back.placements, ((284.0, 300.0), CARD)):
        assert b.trim == pytest.approx((W - f.trim[2], f.trim[1], W - f.trim[0], f.trim[3]))
        assert centre(b.matrix, *size)[0] == pytest.approx(W - centre(f.matrix, *size)[0])
        a, bb, c, d, _, _ = b.matrix
        assert a * d - bb * c == pytest.approx(1)
    assert flat(back.blocks) == pytest.approx(flat((W - x1, y0, W - x0, y1) for x0, y0, x1, y1 in front.blocks))
