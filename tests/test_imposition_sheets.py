"""Sheet geometry: grids that fit the paper, butted cards with outer bleed, and mirrored backs."""

from __future__ import annotations

from dataclasses import replace

import pytest

from deckpress.face import apply
from deckpress.imposition.sheets import (MARK, MARK_GAP, MIN_GUIDE, MIN_TILE, OVERLAP, PAPERS, STAGGER,
                                         TILE_MARGIN, Fold,
                                         centre, fit_grid, moved, plan_pages, plan_sheets, plan_tiles, text_boxes,
                                         tile_layout)
from deckpress.units import HOME_PAPERS, PRINTABLE


@pytest.mark.parametrize("paper, card, expected", [
    ("a4", (63.5, 88.9), (3, 3, False)), ("a4", (63, 88), (3, 3, False)), ("a4", (70, 120), (2, 2, False)),
    ("a4", (41, 63), (3, 6, True)), ("a4", (44, 68), (4, 4, False)), ("letter", (59, 92), (2, 4, True)),
    ("universal", (41, 63), (3, 6, True)), ("a3", (63.5, 88.9), (3, 6, True)), ("a5", (63.5, 88.9), (2, 2, False)),
    ("legal", (63.5, 88.9), (2, 5, True)), ("tabloid", (59, 92), (4, 4, False)),
])
def test_grids_fill_the_page(paper, card, expected):
    grid = fit_grid(paper, *card)
    assert (grid.cols, grid.rows, grid.rotated) == expected
    x0, y0, x1, y1 = grid.box
    W, H = PAPERS[paper]
    assert x0 >= 5 and y0 >= 5 and W - x1 >= 5 and H - y1 >= 5
    assert x0 == pytest.approx(W - x1) and y0 == pytest.approx(H - y1)  # centred: symmetric for the flip
    # and the margins hold crop marks at least MIN_GUIDE long inside the printable part of the paper
    assert min(x0, y0) >= PRINTABLE + MARK_GAP + MIN_GUIDE - 1e-9


def test_a_row_is_dropped_when_the_margins_it_leaves_hold_no_marks():
    """Seven rows of mini cards turned on A4 leave 5 mm top and bottom: a crop mark 1 mm out would
    be cut off by the 4.2 mm the printer cannot print, on both sides. Six rows leave room."""
    grid = fit_grid("a4", 41, 63)
    assert (grid.cols, grid.rows) == (3, 6)
    from deckpress.imposition.marks import room_for

    assert fit_grid("a4", 41, 63, room_for("none")).rows == 7  # no marks to print: all 21


def test_nine_poker_cards_on_letter_move_up_so_their_column_cuts_keep_a_3_mm_guide():
    """3 × 88.9 mm leaves 6.35 mm top and bottom on Letter: centred, a crop mark 1 mm out would
    have 1.15 mm left inside the 4.2 mm a printer cannot print. The grid moves up until the top
    margin holds a 3 mm guide; the bottom keeps the rest, 4.5 mm, its bleed cut back to 0.3 mm."""
    grid = fit_grid("letter", 63.5, 88.9, bleed=3.0)
    assert (grid.cols, grid.rows) == (3, 3)
    x0, y0, x1, y1 = grid.box
    assert x0 == pytest.approx(215.9 - x1)  # still centred across: backs mirror it
    assert y0 == pytest.approx(PRINTABLE + MARK_GAP + MIN_GUIDE) == pytest.approx(8.2)
    assert 279.4 - y1 == pytest.approx(4.5)
    (page,) = plan_pages(list(range(9)), grid, 3.0)
    assert min(p.clip[1] for p in page.placements) == pytest.approx(y0 - 3.0)  # all the bleed at the top
    assert max(p.clip[3] for p in page.placements) == pytest.approx(279.4 - PRINTABLE)  # cut back at the bottom
    assert all(min(p.clip[0], p.clip[1], 215.9 - p.clip[2], 279.4 - p.clip[3]) >= PRINTABLE - 1e-9
               for p in page.placements)


@pytest.mark.parametrize("paper", ["a4", "letter", "a5", "universal"])
def test_a_gap_puts_space_between_cards_each_with_its_own_bleed(paper):
    grid = fit_grid(paper, 63.5, 88.9, bleed=3.0, gap=1.5)
    (page, *_) = plan_pages(list(range(grid.per_page)), grid, 3.0)
    trims = sorted({p.trim[0] for p in page.placements})
    widths = {round(b - a, 6) for a, b in zip(trims, trims[1:])}
    assert widths <= {round(grid.cell_w + 1.5, 6)}  # neighbours 1.5 mm apart
    for p in page.placements:  # every edge of every card has bleed: 0.75 mm towards a neighbour, else 3 mm
        out = [p.trim[0] - p.clip[0], p.trim[1] - p.clip[1], p.clip[2] - p.trim[2], p.clip[3] - p.trim[3]]
        assert all(v == pytest.approx(0.75) or v == pytest.approx(3.0) or v > 0 for v in out)
        assert min(out) == pytest.approx(0.75) if grid.per_page > 1 else True
    clips = [p.clip for p in page.placements]
    assert not any(a[0] < b[2] - 1e-9 and b[0] < a[2] - 1e-9 and a[1] < b[3] - 1e-9 and b[1] < a[3] - 1e-9
                   for i, a in enumerate(clips) for b in clips[i + 1:])  # no bleed over a neighbour's
    # each card's own cut lines: two a gap
    assert len(page.cut_xs) == 2 * grid.cols and len(page.cut_ys) == 2 * grid.rows


def test_a_gap_costs_cards_on_letter_but_not_on_a4():
    assert fit_grid("a4", 63.5, 88.9, gap=1.5).per_page == 9
    letter = fit_grid("letter", 63.5, 88.9, gap=1.5)
    assert (letter.cols, letter.rows, letter.rotated) == (2, 4, True)
    x0, y0, x1, y1 = letter.box
    assert min(x0, y0) >= PRINTABLE + MARK_GAP + MIN_GUIDE  # and the marks all print


def test_a_short_run_is_centred_on_a_grid_of_its_own():
    """Eight pawns on a grid that holds 39 stood in its top-left corner, their marks 2.5 mm from
    the paper's edge; a run that fills less than a page gets a grid just big enough."""
    fronts, _ = plan_sheets([("pawn", None)] * 8, lambda _: (15.0, 72.0), "a4", 3.0)
    (page,) = fronts
    x0, y0, x1, y1 = page.area
    assert (x1 - x0, y1 - y0) == pytest.approx((8 * 15.0, 72.0))
    assert (x0, y0) == pytest.approx((210 - x1, 297 - y1))


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


# --- pieces of several sizes, and pieces too big for the paper -------------------------------

def _invert(m):
    a, b, c, d, e, f = m
    det = a * d - b * c
    return (d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det)


def _board_box(page):
    """The part of the piece (face mm) a tile page shows."""
    (p,) = page.placements
    inv = _invert(p.matrix)
    x0, y0, x1, y1 = p.clip
    corners = [apply(inv, x, y) for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
    return (min(c[0] for c in corners), min(c[1] for c in corners),
            max(c[0] for c in corners), max(c[1] for c in corners))


@pytest.mark.parametrize("paper", HOME_PAPERS)
def test_a_piece_too_big_for_the_paper_is_tiled_with_overlapping_strips(paper):
    W, H = PAPERS[paper]
    pages = plan_tiles("board", 280.0, 270.0, paper, 3.0)
    assert [p.tile.name for p in pages] == ["A1", "B1", "A2", "B2"]
    boxes = [_board_box(p) for p in pages]
    for page, box in zip(pages, boxes):
        x0, y0, x1, y1 = page.area
        assert x0 >= TILE_MARGIN - 1e-6 and y0 >= TILE_MARGIN - 1e-6
        assert W - x1 >= TILE_MARGIN - 1e-6 and H - y1 >= TILE_MARGIN - 1e-6
    a1, b1, a2, b2 = boxes
    # together they show the whole piece and its bleed, neighbours sharing an OVERLAP-wide strip
    assert (a1[0], a1[1], b2[2], b2[3]) == pytest.approx((-3, -3, 283, 273))
    assert a1[2] - b1[0] == pytest.approx(OVERLAP) and a1[3] - a2[1] == pytest.approx(OVERLAP)
    # A1's glue strip starts where B1 is cut, and B1 is cut along its left edge
    glue = next(s for s in pages[0].tile.seams if s.kind == "glue" and s.vertical)
    inv = _invert(pages[0].placements[0].matrix)
    assert apply(inv, glue.at, 100)[0] == pytest.approx(b1[0])
    cut = next(s for s in pages[1].tile.seams if s.kind == "cut")
    assert cut.neighbour == "A1" and cut.at in pages[1].cut_xs


def test_a_long_piece_turns_to_need_fewer_tiles():
    pages = plan_tiles("board", 200.0, 300.0, "a4", 3.0)
    assert len(pages) == 2  # upright it would take 2 × 2 tiles, turned 2 × 1 …
    (p,) = pages[0].placements
    a, b, c, d, _, _ = p.matrix
    assert (a, b, c, d) == pytest.approx((0, 1, -1, 0))  # … a quarter turn clockwise


def test_a_turned_tile_is_placed_to_the_hundredth_of_a_millimetre():
    # 200 × 300 turned is 306 × 206 mm with its bleed: two tiles 158 mm long overlapping by 10,
    # each centred on its page, the piece turned clockwise (its top edge down the right side)
    a1, b1 = plan_tiles("board", 200.0, 300.0, "a4", 3.0)
    W, H = PAPERS["a4"]
    ox, oy = (W - 158.0) / 2 + 3.0, (H - 206.0) / 2 + 3.0  # piece frame -> page, for A1
    assert a1.placements[0].matrix == pytest.approx((0, 1, -1, 0, 300.0 + ox, oy), abs=0.005)
    assert b1.placements[0].matrix == pytest.approx((0, 1, -1, 0, 300.0 + ox - 148.0, oy), abs=0.005)
    assert a1.area == pytest.approx((ox - 3.0, oy - 3.0, ox + 155.0, oy + 203.0), abs=0.005)
    assert a1.placements[0].trim == pytest.approx((ox, oy, ox + 155.0, oy + 200.0), abs=0.005)
    # face point (x, y) lands at (300 - y, x) in the turned piece: the piece's bottom-left corner
    # (0, 300) is A1's top-left, its top-right corner (200, 0) B1's bottom-right
    assert apply(a1.placements[0].matrix, 0, 300) == pytest.approx((ox, oy), abs=0.005)
    bx, by = ox - 148.0, oy  # B1's frame -> page
    assert apply(b1.placements[0].matrix, 200, 0) == pytest.approx((300.0 + bx, 200.0 + by), abs=0.005)
    glue, cut = a1.tile.seams[0], b1.tile.seams[0]
    assert (glue.kind, glue.vertical, glue.neighbour, glue.at) == ("glue", True, "B1", pytest.approx(145.0 + ox))
    assert (cut.kind, cut.vertical, cut.neighbour, cut.at) == ("cut", True, "A1", pytest.approx(145.0 + bx))


def _face_box(page, box):
    """A page box seen on the piece (face mm), through the inverse of the page's one placement."""
    inv = _invert(page.placements[0].matrix)
    corners = [apply(inv, x, y) for x in (box[0], box[2]) for y in (box[1], box[3])]
    return (min(c[0] for c in corners), min(c[1] for c in corners), max(c[0] for c in corners),
            max(c[1] for c in corners))


def _seam_strips(page):
    """Each seam of a tile page as the strip it takes on the piece (face mm): from the line where the
    neighbour's edge goes to OVERLAP past it, along the seam's span."""
    strips = []
    for seam in page.tile.seams:
        a, b = seam.span
        if seam.vertical:  # glued under: from the neighbour's edge to this tile's; cut: from this edge on
            box = (seam.at, a, seam.at + OVERLAP, b)
        else:
            box = (a, seam.at, b, seam.at + OVERLAP)
        strips.append((seam, _face_box(page, box)))
    return strips


def _crosses(a, b):
    return a[0] < b[0 + 2] - 1e-6 and b[0] < a[2] - 1e-6 and a[1] < b[3] - 1e-6 and b[1] < a[3] - 1e-6


CLEAR = 5.0  #: mm a tile's seam keeps from every word and symbol of its piece (its strip and cut line)


def _gap(a, b):
    """How far apart two boxes are (mm, the larger of the gaps across and down; negative: they overlap)."""
    return max(a[0] - b[2], b[0] - a[2], a[1] - b[3], b[1] - a[3])


def _check_tiles(pages, w, h, bleed, paper, keep_clear=()):
    """What every tiling must be: each tile inside the paper's room for tiles, the tiles together
    covering the piece and its bleed, every seam shared by two tiles overlapping by OVERLAP,
    alignment marks of a seam on the same line of the piece in both tiles."""
    W, H = PAPERS[paper]
    boxes = {p.tile.name: _face_box(p, p.area) for p in pages}
    for page in pages:
        x0, y0, x1, y1 = page.area
        assert x0 >= TILE_MARGIN - 1e-6 and y0 >= TILE_MARGIN - 1e-6
        assert W - x1 >= TILE_MARGIN - 1e-6 and H - y1 >= TILE_MARGIN - 1e-6
        assert min(x1 - x0, y1 - y0) >= MIN_TILE - 1e-6
    # covered: every point of a fine grid over the piece and its bleed lies in a tile
    for i in range(0, 101):
        for j in range(0, 101):
            x, y = -bleed + i * (w + 2 * bleed) / 100, -bleed + j * (h + 2 * bleed) / 100
            assert any(b[0] - 1e-6 <= x <= b[2] + 1e-6 and b[1] - 1e-6 <= y <= b[3] + 1e-6 for b in boxes.values())
    seams = {}
    for page in pages:
        for seam, strip in _seam_strips(page):
            # the strip is the overlap of the two tiles, OVERLAP deep
            other = boxes[seam.neighbour]
            mine = boxes[page.tile.name]
            across = (min(mine[2], other[2]) - max(mine[0], other[0]), min(mine[3], other[3]) - max(mine[1], other[1]))
            assert min(across) == pytest.approx(OVERLAP)
            seams.setdefault(frozenset((page.tile.name, seam.neighbour)), []).append((seam.kind, strip))
            # a glue strip and the cut line at its edge keep CLEAR from every box to keep clear
            assert all(_gap(strip, k) >= CLEAR - 1e-6 for k in keep_clear), (page.tile.name, seam)
    for pair, found in seams.items():  # each seam seen from both sides: glued under on one, cut on the other
        assert sorted(kind for kind, _ in found) == ["cut", "glue"], pair
    return boxes


CIRCLE = None


def circle_of_5_board():
    """The bundled Circle of 5 colour board, composed."""
    global CIRCLE
    if CIRCLE is None:
        from deckpress.compose import Composer
        from deckpress.errors import Warnings
        from deckpress.model import load_deck

        deck = load_deck("circle-of-5")
        board = next(c for c in deck.components if c.name == "board")
        CIRCLE = Composer(deck, Warnings()).face(board.cards[0], board.front)
    return CIRCLE


@pytest.mark.parametrize("paper", HOME_PAPERS)
def test_circle_of_5_board_is_four_upright_tiles_with_every_seam_5_mm_off_what_a_player_reads(paper):
    face = circle_of_5_board()
    read = text_boxes(face)
    assert len(read) > 140  # its words, and its pictures and symbols: the icons, the colours' marks, arrowheads
    assert sum(_gap(b, (0.0, 0.0, 0.0, 0.0)) > -1 and b[2] - b[0] == pytest.approx(14.0) for b in read) == 10
    pages = plan_tiles(face, 284.0, 300.0, paper, 3.0, keep_clear=read)
    # four is the fewest: three tiles would put two of the board's corners in one tile, which
    # would then be as long as one of its sides, longer than the room on the paper
    W, H = PAPERS[paper]
    assert max(W, H) - 2 * TILE_MARGIN < 284.0 and len(pages) == 4
    assert [p.tile.name for p in pages] == ["A1", "B1", "A2", "B2"]
    for page in pages:  # printed as the board lies: not turned, not mirrored
        assert page.placements[0].matrix[:4] == pytest.approx((1, 0, 0, 1))
    _check_tiles(pages, 284.0, 300.0, 3.0, paper, read)
    # the even split of the board cuts through its words: the seams moved off them, 5 mm clear
    assert any(_crosses((137.0, -3.0, 147.0, 303.0), k) for k in read)


def test_circle_of_5_board_is_cut_alike_on_a4_and_letter():
    """Both papers allow the same four tiles, so both print the same parts of the board (each
    centred on its own page), seams in the same places."""
    face = circle_of_5_board()
    cuts = {paper: [(p.tile.name, _face_box(p, p.area)) for p in
                    plan_tiles(face, 284.0, 300.0, paper, 3.0, keep_clear=text_boxes(face))]
            for paper in HOME_PAPERS}
    (name_a, a), (name_b, b) = cuts.items()
    assert [n for n, _ in a] == [n for n, _ in b]
    for (_, box_a), (_, box_b) in zip(a, b):
        assert box_a == pytest.approx(box_b, abs=1e-6), (name_a, name_b)


def test_a_piece_is_cut_alike_on_a4_and_letter_where_both_allow_it():
    # three words on a 450 × 400 board: on its own room each paper keeps clear its own way (Letter's
    # wider tiles put the column seams in line, A4's staggered); cut for tiles that fit both, A4's
    # way is as clear, so Letter prints the same six parts
    words = ((281.0, 59.0, 321.0, 111.0), (230.0, 289.0, 272.0, 298.0), (334.0, 231.0, 355.0, 237.0))
    alone = {paper: tile_layout(450.0, 400.0, (PAPERS[paper][0] - 2 * TILE_MARGIN, PAPERS[paper][1] - 2 * TILE_MARGIN),
                                3.0, words).tiles for paper in HOME_PAPERS}
    assert alone["a4"] != alone["letter"] and len(alone["a4"]) == len(alone["letter"]) == 6
    cut = {paper: [(p.tile.name, _face_box(p, p.area)) for p in plan_tiles("board", 450.0, 400.0, paper, 3.0,
                                                                             keep_clear=words)]
           for paper in HOME_PAPERS}
    for (name_a, box_a), (name_b, box_b) in zip(cut["a4"], cut["letter"], strict=True):
        assert name_a == name_b and box_a == pytest.approx(box_b, abs=1e-6)
    _check_tiles([p for p in plan_tiles("board", 450.0, 400.0, "letter", 3.0, keep_clear=words)], 450.0, 400.0,
                 3.0, "letter", words)


def test_a_seam_keeps_its_clearance_from_a_word_beside_it():
    # on A4 the even split puts 280 × 270's column seam at x = 135: a word 3 mm right of its strip
    even = [s for s in plan_tiles("board", 280.0, 270.0, "a4", 3.0)[0].tile.seams if s.vertical][0]
    page = plan_tiles("board", 280.0, 270.0, "a4", 3.0)[0]
    x = _face_box(page, (even.at, 100, even.at, 100))[0]
    word = (x + OVERLAP + 3.0, 100.0, x + OVERLAP + 20.0, 105.0)
    assert _gap(word, (x, -3.0, x + OVERLAP, 273.0)) == pytest.approx(3.0)
    pages = plan_tiles("board", 280.0, 270.0, "a4", 3.0, keep_clear=(word,))
    _check_tiles(pages, 280.0, 270.0, 3.0, "a4", (word,))  # moved: CLEAR off it


def test_marks_and_pictures_are_kept_clear_and_big_shapes_are_not():
    from deckpress.face import Ellipse, Face, Image, Line, Paint, Rect
    from deckpress.colors import RGB

    ink = Paint(fill=RGB(0.0, 0.0, 0.0))
    face = Face(300.0, 300.0, 3.0, (
        Rect(10.0, 10.0, MARK, MARK, paint=ink),  # a symbol
        Ellipse(100.0, 100.0, 3.0, 3.0, paint=ink),  # a dot
        Image(50.0, 60.0, 20.0, 30.0, "art.svg"),  # a picture, any size
        Rect(0.0, 0.0, 200.0, 100.0, paint=ink),  # a field: may be crossed
        Rect(5.0, 5.0, 5.0, 5.0),  # drawn with nothing: nothing to read
        Line(0.0, 0.0, 10.0, 10.0, ink),
    ))
    assert text_boxes(face) == ((10.0, 10.0, 10.0 + MARK, 10.0 + MARK), (97.0, 97.0, 103.0, 103.0),
                                (50.0, 60.0, 70.0, 90.0))


def test_a_piece_stays_upright_unless_turning_keeps_every_seam_clear():
    room = (210.0 - 2 * TILE_MARGIN, 297.0 - 2 * TILE_MARGIN)
    # two boxes no four tiles miss either way: turned, the seams would cross one; upright, they
    # cross two, and the tiles stay upright, reading as the piece does
    boxes = ((85.0, 218.0, 193.0, 225.0), (52.0, 82.0, 171.0, 177.0))
    layout = tile_layout(280.0, 270.0, room, 3.0, boxes)
    assert (len(layout.tiles), layout.turned, layout.crossings) == (4, False, 2)
    turned = tile_layout(270.0, 280.0, room, 3.0, tuple(_turned(b, 270.0) for b in boxes))
    assert len(turned.tiles) == 4 and turned.crossings < layout.crossings
    # a long piece still turns to need fewer tiles (test_a_long_piece_turns_to_need_fewer_tiles)


def _turned(box, height):
    """A box of a `height` tall piece, seen on the piece turned a quarter turn clockwise."""
    from deckpress.imposition.sheets import quarter_turn

    corners = [apply(quarter_turn(height), x, y) for x in (box[0], box[2]) for y in (box[1], box[3])]
    return (min(c[0] for c in corners), min(c[1] for c in corners), max(c[0] for c in corners),
            max(c[1] for c in corners))


def test_staggered_rows_split_the_glue_strip_between_the_neighbours_below():
    # a box in each row that leaves its column seam one place: 40 mm apart, so the rows are staggered
    top, bottom = (130.0, 0.0, 170.0, 100.0), (100.0, 150.0, 150.0, 270.0)
    pages = plan_tiles("board", 280.0, 270.0, "a4", 3.0, keep_clear=(top, bottom))
    _check_tiles(pages, 280.0, 270.0, 3.0, "a4", (top, bottom))
    b1 = pages[1]
    below = [s for s in b1.tile.seams if s.kind == "glue" and not s.vertical]
    assert [s.neighbour for s in below] == ["A2", "B2"]  # the rows' seams are not in line …
    assert below[0].span[1] == pytest.approx(below[1].span[0])  # … so B1's lower strip is shared, end to end
    assert below[0].span[0] == pytest.approx(b1.placements[0].trim[0])
    assert below[1].span[1] == pytest.approx(b1.placements[0].trim[2])
    top_cut = [s.at for s in pages[1].tile.seams if s.kind == "cut" and s.vertical]
    bottom_cut = [s.at for s in pages[3].tile.seams if s.kind == "cut" and s.vertical]
    top_x = _face_box(pages[1], (top_cut[0], 0, top_cut[0], 0))[0]
    bottom_x = _face_box(pages[3], (bottom_cut[0], 0, bottom_cut[0], 0))[0]
    assert abs(top_x - bottom_x) >= STAGGER - 1e-6


def test_seams_keep_off_boxes_where_they_can_and_cross_the_fewest_where_they_cannot():
    # a word right where the even split would cut a 280 × 270 board on A4
    clear = plan_tiles("board", 280.0, 270.0, "a4", 3.0)
    even = [s for s in clear[0].tile.seams if s.vertical][0]
    x = _face_box(clear[0], (even.at, 100, even.at, 100))[0]
    word = (x - 5.0, 100.0, x + 20.0, 105.0)
    pages = plan_tiles("board", 280.0, 270.0, "a4", 3.0, keep_clear=(word,))
    _check_tiles(pages, 280.0, 270.0, 3.0, "a4", (word,))
    # a box no seam can miss: each of the two seam lines crosses it once, in line (staggered rows
    # would cross it once a row); the word stays clear
    block = (20.0, 20.0, 260.0, 250.0)
    layout = tile_layout(280.0, 270.0, (210.0 - 2 * TILE_MARGIN, 297.0 - 2 * TILE_MARGIN), 3.0, (block, word))
    assert (len(layout.tiles), layout.crossings, layout.staggered) == (4, 2, False)
    pages = plan_tiles("board", 280.0, 270.0, "a4", 3.0, keep_clear=(block, word))
    assert all(_gap(strip, word) >= CLEAR - 1e-6 for p in pages for _, strip in _seam_strips(p))


@pytest.mark.parametrize("paper", HOME_PAPERS)
@pytest.mark.parametrize("size", [(280.0, 270.0), (200.0, 300.0), (400.0, 300.0), (600.0, 420.0), (284.0, 300.0)])
def test_every_tiling_covers_the_piece_with_tiles_that_fit(paper, size):
    pages = plan_tiles("board", *size, paper, 3.0)
    _check_tiles(pages, *size, 3.0, paper)
    W, H = PAPERS[paper]
    room = sorted((W - 2 * TILE_MARGIN, H - 2 * TILE_MARGIN))
    # no fewer pages could do: tiles of a grid, upright or turned, are at least this many
    fewest = min(-(-(size[0] + 6 - OVERLAP) // (a - OVERLAP)) * -(-(size[1] + 6 - OVERLAP) // (b - OVERLAP))
                 for a, b in (room, room[::-1]))
    assert len(pages) == fewest


def test_runs_of_sizes_get_their_own_grids_and_backs_follow():
    sizes = {"card": (63.5, 88.9), "token": (20.0, 20.0), "board": (280.0, 270.0)}
    pairs = [("card", "back")] * 10 + [("token", None)] * 3 + [("board", None)]
    fronts, backs = plan_sheets(pairs, sizes.get, "a4", 3.0)
    assert [len(p.placements) for p in fronts] == [9, 1, 3, 1, 1, 1, 1]
    assert len(backs) == len(fronts)
    assert [len(p.placements) for p in backs] == [9, 1, 0, 0, 0, 0, 0]
    assert fronts[2].placements[0].trim[2] - fronts[2].placements[0].trim[0] == pytest.approx(20.0)
    assert [p.tile.name for p in fronts[3:]] == ["A1", "B1", "A2", "B2"]
    # the lone card of page 2 is backed behind itself
    (f,), (b,) = fronts[1].placements, backs[1].placements
    assert centre(b.matrix, 63.5, 88.9)[0] == pytest.approx(210.0 - centre(f.matrix, 63.5, 88.9)[0])


# --- the back offset ----------------------------------------------------------------------------

def test_a_moved_page_has_everything_on_it_shifted():
    grid = fit_grid("a4", 63.5, 88.9)
    (page,) = plan_pages(["x", None, "y", "z"], grid, 3.0, backs=True)
    shifted = moved(page, 1.5, -0.75)
    assert shifted.paper == page.paper
    for before, after in zip(page.placements, shifted.placements, strict=True):
        assert after.face == before.face
        x, y = apply(before.matrix, 0, 0)
        assert apply(after.matrix, 0, 0) == pytest.approx((x + 1.5, y - 0.75))
        assert after.matrix[:4] == before.matrix[:4]  # moved, not turned or scaled
        assert after.trim == pytest.approx(_shift(before.trim, 1.5, -0.75))
        assert after.clip == pytest.approx(_shift(before.clip, 1.5, -0.75))
    assert shifted.area == pytest.approx(_shift(page.area, 1.5, -0.75))
    assert shifted.cut_xs == pytest.approx([x + 1.5 for x in page.cut_xs])
    assert shifted.cut_ys == pytest.approx([y - 0.75 for y in page.cut_ys])
    assert shifted.trim_box == pytest.approx(_shift(page.trim_box, 1.5, -0.75))
    assert moved(page, 0.0, 0.0) is page  # no offset: the very same plan, so nothing changes


def test_moving_takes_tile_seams_and_folds_along():
    tile = plan_tiles("board", 280.0, 270.0, "a4", 3.0)[0]
    shifted = moved(tile, -2.0, 1.0)
    for before, after in zip(tile.tile.seams, shifted.tile.seams, strict=True):
        across, along = (-2.0, 1.0) if before.vertical else (1.0, -2.0)
        assert after.at == pytest.approx(before.at + across)
        assert after.span == pytest.approx((before.span[0] + along, before.span[1] + along))
        assert (after.kind, after.neighbour) == (before.kind, before.neighbour)
    folded = moved(replace(tile, fold=Fold(148.5, False)), -2.0, 1.0)
    assert folded.fold == Fold(149.5, False)


def _shift(box, dx, dy):
    return (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)


def _pages_one_by_one(sides, grid, bleed, backs=False, page_mirror=None):
    """plan_pages as it was before pages shared their layouts: every placement worked out anew."""
    from deckpress.imposition.sheets import Placement, _clip, mirrored, page_plan, within

    pages = []
    for start in range(0, len(sides), grid.per_page):
        chunk = sides[start:start + grid.per_page]
        occupied = {divmod(i, grid.cols) for i, s in enumerate(chunk) if s is not None}
        placements = []
        for i, side in enumerate(chunk):
            if side is not None:
                row, col = divmod(i, grid.cols)
                trim = grid.cell(row, col)
                clip = _clip(trim, row, col, occupied, grid.room.bleed(bleed), grid.gap)
                printable = grid.room.printable_box((grid.paper_w, grid.paper_h))
                placements.append(Placement(side, grid.front_matrix(row, col), trim, within(clip, printable)))
        page = page_plan((grid.paper_w, grid.paper_h), grid.box, placements)
        pages.append(mirrored(page, grid.card_w, page_mirror) if backs else page)
    return pages


@pytest.mark.parametrize("card", [(63.5, 88.9), (41, 63), (59, 92)])
@pytest.mark.parametrize("backs, mirror", [(False, None), (True, None), (True, Fold(100.0, False).mirror)])
def test_pages_that_fill_the_same_slots_share_a_layout_and_equal_pages_placed_one_by_one(card, backs, mirror):
    grid = fit_grid("letter", *card, bleed=3.0)
    sides = [f"card {i}" if i % 11 not in (3, 7) else None for i in range(5 * grid.per_page + 2)]
    assert plan_pages(sides, grid, 3.0, backs, mirror) == _pages_one_by_one(sides, grid, 3.0, backs, mirror)


def test_copies_placed_in_the_same_slot_share_one_placement_and_equal_ones_stay_apart():
    grid = fit_grid("letter", 63.5, 88.9, bleed=3.0)
    from deckpress.face import Face

    a, b = Face(63.5, 88.9, 3.0), Face(63.5, 88.9, 3.0)  # equal sides, different objects
    assert a == b and a is not b
    pages = plan_pages([a] * grid.per_page * 2 + [b] * grid.per_page, grid, 3.0)
    assert pages[0].placements[0] is pages[1].placements[0]
    assert pages[2].placements[0] == pages[0].placements[0] and pages[2].placements[0].face is b


# --- a printer's profile: its flip edge and its margins ------------------------------------------------

@pytest.mark.parametrize("flip", ["long", "short"])
@pytest.mark.parametrize("packed", [False, True])
def test_backs_are_behind_their_fronts_for_either_flip(flip, packed):
    """Five cards (a short last row), a card of another size and a board too big for A4 (tiled): on
    every back page each piece is where its front is once the sheet is turned over on that edge,
    and turned so that the card's own left-right flip shows its back upright: back(w - u, v) is
    the mirror of front(u, v). The same for the rules-board packing."""
    from deckpress.imposition.packing import plan_packed
    from deckpress.imposition.sheets import Room, for_printer, page_mirror, plan_sheets

    sizes = {**{f"card{i}": (63.5, 88.9) for i in range(5)}, "mini": (41.0, 63.0), "board": (400.0, 300.0)}
    pairs = [(name, name + "-back") for name in sizes]
    size_of = lambda side: sizes[side.removesuffix("-back")]  # noqa: E731
    room = for_printer(Room(), (5.0, 5.0, 12.0, 5.0), flip)
    plan = plan_packed if packed else plan_sheets
    fronts, backs = plan(pairs, size_of, "a4", 3.0, room)
    mirror = page_mirror(PAPERS["a4"], flip)
    seen = set()
    for front, back in zip(fronts, backs):
        assert front.margins == back.margins == room.edges
        by_face = {p.face: p for p in back.placements}
        for placed in front.placements:
            behind_it = by_face[placed.face + "-back"]
            w, h = size_of(placed.face)
            for u, v in ((0.0, 0.0), (w, 0.0), (0.0, h), (w * 0.3, h * 0.8)):
                assert apply(behind_it.matrix, w - u, v) == pytest.approx(apply(mirror, *apply(placed.matrix, u, v)))
            seen.add(placed.face)
    assert seen == set(sizes)


def test_a_printers_margins_keep_every_trim_and_bleed_inside_on_both_sides():
    """Margins 5 mm but 12 mm at the foot: nine poker cards on A4 keep their trim and bleed out of
    both on fronts and backs (a long-edge flip keeps top and bottom where they are), and a 13 mm
    margin all round makes them fewer."""
    from deckpress.imposition.sheets import Room, for_printer, plan_sheets

    W, H = PAPERS["a4"]
    pairs = [(f"c{i}", f"c{i}-back") for i in range(9)]
    for margins, per_page in (((5.0, 5.0, 12.0, 5.0), 9), ((13.0,) * 4, 8)):
        room = for_printer(Room(), margins)
        fronts, backs = plan_sheets(pairs, lambda _: (63.5, 88.9), "a4", 3.0, room)
        assert len(fronts[0].placements) == per_page
        top, right, bottom, left = margins
        for page in (fronts[0], backs[0]):
            for p in page.placements:
                assert p.clip[0] >= left - 1e-9 and p.clip[1] >= top - 1e-9
                assert p.clip[2] <= W - right + 1e-9 and p.clip[3] <= H - bottom + 1e-9


@pytest.mark.parametrize("marks", ["corners", "lines"])
def test_marks_scale_bar_and_label_keep_inside_a_printers_margins(marks):
    """The page carries its printer's margins to its furniture: cut lines run out only to them
    (the default 4.2 mm would print into a 9 mm margin), and the band of scale bar and label is
    set in from the margin at its edge."""
    from deckpress.imposition.furniture import CutMarks, band_depth, sheet_furniture
    from deckpress.imposition.sheets import Room, for_printer, plan_sheets

    W, H = PAPERS["a4"]
    margins = (9.0, 9.0, 9.0, 9.0)
    pairs = [(f"c{i}", None) for i in range(4)]
    fronts, _ = plan_sheets(pairs, lambda _: (63.5, 88.9), "a4", 3.0, for_printer(Room(), margins))
    page = fronts[0]
    items = sheet_furniture(page, marks, 3.0, 40.0)
    segments = [s for item in items if isinstance(item, CutMarks) for s in item.segments]
    assert segments
    for x1, y1, x2, y2 in segments:
        assert min(x1, x2) >= 9.0 - 1e-9 and max(x1, x2) <= W - 9.0 + 1e-9
        assert min(y1, y2) >= 9.0 - 1e-9 and max(y1, y2) <= H - 9.0 + 1e-9
    plain, _ = plan_sheets(pairs, lambda _: (63.5, 88.9), "a4", 3.0, Room())
    if marks == "lines":  # the test can fail: without the profile the lines reach 4.2 mm from the edge
        reach = [s for item in sheet_furniture(plain[0], marks, 3.0, 40.0) if isinstance(item, CutMarks)
                 for s in item.segments]
        assert min(min(s[1], s[3]) for s in reach) == pytest.approx(PRINTABLE)
    gy1 = page.area[3]
    assert gy1 + band_depth(page, 3.0) + 4.5 <= H - 9.0 + 1e-9  # BAND_DEPTH: the bar and its words


def test_butted_cards_of_another_back_design_start_a_page_and_spaced_ones_share():
    """Butted cards share cut lines, so a cut a little off shows a neighbour's edge: a change of
    back design (Kanon's cream canon backs after its wine deck backs) starts a new page, front
    and back. Spaced apart (`gap`), each card has its own cut lines and bleed, and they share."""
    pairs = [(f"card{i}", "wine") for i in range(11)] + [(f"canon{i}", "cream") for i in range(7)]
    designs = ["deck"] * 11 + ["canon"] * 7
    size = lambda _: (63.5, 88.9)  # noqa: E731
    fronts, backs = plan_sheets(pairs, size, "a4", 3.0, designs=designs)
    assert [[p.face for p in page.placements] for page in fronts] == [
        [f"card{i}" for i in range(9)], ["card9", "card10"], [f"canon{i}" for i in range(7)]]
    assert [{p.face for p in page.placements} for page in backs] == [{"wine"}, {"wine"}, {"cream"}]
    # without designs (or with one design), as before: 18 cards on two full pages
    assert [len(page.placements) for page in plan_sheets(pairs, size, "a4", 3.0)[0]] == [9, 9]
    spaced, _ = plan_sheets(pairs, size, "a4", 3.0, gap=2.0, designs=designs)
    assert len(spaced) < 3 and sum(len(page.placements) for page in spaced) == 18
