"""Page furniture as values, without a PDF: crop marks, cut lines, registration marks, fold line,
tile marks, scale bar and label where they belong, to 0.01 mm; the back offset moving all of it;
and the calibration sheet's pages. (tests/test_backend_pdfpages.py reads the drawn PDFs back.)"""

from __future__ import annotations

import pytest

from deckpress.face import Face
from deckpress.imposition.calibration import BARS, calibration_info, calibration_pages, targets
from deckpress.imposition.document import DocInfo, Marking, Sheet, furnish, page_marks
from deckpress.imposition.furniture import (LABEL_SIZE, MARK_GAP, MARK_LENGTH, SCALE_BAR, AlignmentMark, Block,
                                        CutMarks, FoldLine, FurniturePage, GlueStrip, Label, RegistrationMarks,
                                        Ring, ScaleBar, TileMarks, Words, sheet_furniture, text_width)
from deckpress.imposition.gutterfold import plan_gutterfold
from deckpress.imposition.marks import cutter_band, registration_marks, room_for
from deckpress.imposition.sheets import MIN_GUIDE, OVERLAP, PAPERS, fit_grid, plan_pages, plan_tiles
from deckpress.units import PRINTABLE

BLEED = 3.0
CARD = (63.0, 88.0)
ABS = 0.01  # mm
FACE = Face(*CARD, BLEED, ())


def grid_page(paper: str = "a4", cards: int = 9, mode: str = "corners"):
    grid = fit_grid(paper, *CARD, room_for(mode), BLEED)
    return plan_pages([FACE] * cards, grid, BLEED)[0]


def of(items, kind):
    return [i for i in items if isinstance(i, kind)]


def furnished(plan, label: str = "deck · cards · page 1/1", **marking):
    (page,) = furnish([Sheet(plan, label, marking.pop("back", False))], DocInfo("t", "a", "s", marking=Marking(**marking)),
                      BLEED)
    return page


# --- marks for cutting ------------------------------------------------------------------------------

@pytest.mark.parametrize("paper", list(PAPERS))
def test_crop_marks_stand_1_mm_outside_the_trim_4_mm_long_on_every_cut_line(paper):
    """As long as they print: a mark stops PRINTABLE short of the paper's edge, and every cut line
    keeps one at least MIN_GUIDE long (on Letter the top ones; the bottom margin holds none)."""
    plan = grid_page(paper)
    (marks,) = of(furnished(plan).furniture, CutMarks)
    W, H = plan.paper
    x0, y0, x1, y1 = plan.trim_box
    assert marks.width == pytest.approx(0.2) and marks.halo == pytest.approx(0.8)
    for sx, sy, ex, ey in marks.segments:
        assert all(PRINTABLE - ABS <= v for v in (sx, sy, ex, ey))
        assert max(sx, ex) <= W - PRINTABLE + ABS and max(sy, ey) <= H - PRINTABLE + ABS
        if sx == ex:  # a vertical mark, on a vertical cut line, above or below the cards
            assert sx in plan.cut_xs
            near, far = sy, ey  # each mark starts next to the cards
            room = (near - PRINTABLE) if near < y0 else (H - PRINTABLE - near)
            assert abs(sy - ey) == pytest.approx(min(MARK_LENGTH, room), abs=ABS)
            assert min(abs(near - y0), abs(near - y1)) == pytest.approx(MARK_GAP, abs=ABS)
            assert far < y0 - MARK_GAP or far > y1 + MARK_GAP  # pointing away from the cards
        else:
            assert sy == ey and sy in plan.cut_ys
            room = (sx - PRINTABLE) if sx < x0 else (W - PRINTABLE - sx)
            assert abs(sx - ex) == pytest.approx(min(MARK_LENGTH, room), abs=ABS)
            assert min(abs(sx - x0), abs(sx - x1)) == pytest.approx(MARK_GAP, abs=ABS)
    for x in plan.cut_xs:
        assert max(abs(s[1] - s[3]) for s in marks.segments if s[0] == s[2] == x) >= MIN_GUIDE - ABS
    for y in plan.cut_ys:
        assert max(abs(s[0] - s[2]) for s in marks.segments if s[1] == s[3] == y) >= MIN_GUIDE - ABS
    top = [s for s in marks.segments if s[0] == s[2] and s[1] < y0]
    assert sorted(s[0] for s in top) == list(plan.cut_xs)
    if paper == "a4":  # room for all of them
        assert len(marks.segments) == 2 * (len(plan.cut_xs) + len(plan.cut_ys))
        assert all(s[1] == pytest.approx(y0 - 1.0, abs=ABS) and s[3] == pytest.approx(y0 - 5.0, abs=ABS) for s in top)


def test_cut_lines_run_from_1_mm_outside_the_trim_to_the_printable_edge():
    plan = plan_pages([Face(63.5, 88.9, BLEED, ())] * 9, fit_grid("letter", 63.5, 88.9, bleed=BLEED), BLEED)[0]
    W, H = plan.paper
    x0, y0, x1, y1 = plan.trim_box
    (lines,) = of(furnished(plan, marks="lines").furniture, CutMarks)
    assert H - y1 - MARK_GAP < PRINTABLE  # nothing prints below the cards: the lines above guide the cuts
    for x in plan.cut_xs:
        assert (x, y0 - 1.0, x, PRINTABLE) in lines.segments
        assert y0 - 1.0 - PRINTABLE >= MIN_GUIDE - ABS
        assert not [s for s in lines.segments if s[0] == s[2] == x and s[1] > y1]
    for y in plan.cut_ys:
        assert (x0 - 1.0, y, PRINTABLE, y) in lines.segments and (x1 + 1.0, y, W - PRINTABLE, y) in lines.segments


def test_cutter_sheets_carry_the_registration_marks_and_no_crop_marks():
    plan = grid_page("a4", mode="cutter")
    page = furnished(plan, marks="cutter")
    (reg,) = of(page.furniture, RegistrationMarks)
    assert reg.boxes == tuple(registration_marks(*plan.paper))
    assert not of(page.furniture, CutMarks)
    (bar,) = of(page.furniture, ScaleBar)
    bx0, by0, bx1, by1 = cutter_band(*plan.paper)
    assert bar.band is None and (bar.x, bar.y) == (bx0, by0)  # along the top of the strip below the marks
    assert page.label.band is None and page.label.words.x == bx1 and page.label.words.align == "right"
    assert bar.x + bar.length < page.label.patch[0]


def test_back_pages_get_no_marks_unless_asked_and_crop_marks_on_a_cutter_file():
    plan = grid_page()
    assert not of(furnished(plan, back=True).furniture, CutMarks)
    assert of(furnished(plan, back=True, back_marks=True).furniture, CutMarks)
    info = DocInfo("t", "a", "s", marking=Marking("cutter", back_marks=True))
    assert page_marks(info, True) == "corners" and page_marks(info, False) == "cutter"


def test_no_marks_means_no_furniture_at_all():
    page = furnished(grid_page(), marks="none")
    assert page.furniture == () and page.label is None
    assert page.trim_box == pytest.approx(grid_page().trim_box)


# --- scale bar and label -------------------------------------------------------------------------------

@pytest.mark.parametrize("cards", [9, 4, 1])
def test_the_scale_bar_is_exactly_50_mm_just_outside_the_bleed_and_between_cut_lines(cards):
    plan = grid_page("a4", cards)
    page = furnished(plan)
    (bar,) = of(page.furniture, ScaleBar)
    assert bar.length == SCALE_BAR == 50.0
    assert bar.step * int(bar.length // bar.step) == pytest.approx(50.0, abs=ABS)
    band = bar.band
    (ax, ay), (bx, by) = band.point(bar.x, bar.y), band.point(bar.x + bar.length, bar.y)
    assert not band.turned  # portrait A4: the bottom margin is the wider
    assert ay == by == pytest.approx(plan.area[3] + BLEED + 1.0, abs=ABS)
    assert bx - ax == pytest.approx(50.0, abs=ABS)
    assert not any(ax < x < bx for x in plan.cut_xs)  # no crop mark crosses it
    assert bar.caption.text == "50 mm — print at 100 % (actual size)" and bar.caption.size == LABEL_SIZE


@pytest.mark.parametrize("paper", list(PAPERS))
def test_the_label_ends_1_mm_short_of_the_area_on_white_paper_clear_of_the_bar(paper):
    plan = grid_page(paper)
    label_text = "A deck · deck-cards-letter.pdf · page 1/3"
    page = furnished(plan, label_text)
    label, (bar,) = page.label, of(page.furniture, ScaleBar)
    assert isinstance(label, Label) and label.band == bar.band
    W, H = plan.paper
    end = H - plan.area[1] - 1.0 if bar.band.turned else plan.area[2] - 1.0  # along the band
    assert label.words == Words(label_text, end, bar.caption.y, LABEL_SIZE, align="right")
    assert bar.band.turned == (W - plan.area[2] > H - plan.area[3])  # Letter's right margin is the wider
    assert bar.band.turned == (paper in ("letter", "universal"))
    x0, y0, x1, y1 = label.patch
    assert x1 - x0 == pytest.approx(text_width(label_text, LABEL_SIZE) + 2 * 0.6, abs=ABS)
    assert y0 < label.words.y < y1  # the baseline inside the white patch
    assert bar.x + bar.length < x0 and bar.caption.x + text_width(bar.caption.text, LABEL_SIZE) < x0


def test_where_the_right_margin_is_wider_bar_and_label_run_up_it():
    plan = grid_page("letter")  # 3×3 cards on Letter turned: 13.45 mm left and right, 7.7 mm top and bottom
    W, H = plan.paper
    assert W - plan.area[2] > H - plan.area[3]
    (bar,) = of(furnished(plan).furniture, ScaleBar)
    assert bar.band.turned
    (ax, ay), (bx, by) = bar.band.point(bar.x, 0.0), bar.band.point(bar.x + bar.length, 0.0)
    assert ax == bx == pytest.approx(plan.area[2] + BLEED + 1.0, abs=ABS)
    assert ay - by == pytest.approx(50.0, abs=ABS)  # reading upwards
    assert not any(by < y < ay for y in plan.cut_ys)


def test_pages_of_one_layout_share_one_furniture_and_the_bar_keeps_clear_of_the_widest_label():
    plan = grid_page()
    sheets = [Sheet(plan, "short"), Sheet(plan, "a much, much longer label · page 2/2 · fronts 2")]
    first, second = furnish(sheets, DocInfo("t", "a", "s"), BLEED)
    assert first.furniture == second.furniture  # drawn once, as one form
    (bar,) = of(first.furniture, ScaleBar)
    assert bar.x + bar.length <= second.label.patch[0]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_label_too_long_for_a_short_band_goes_below_the_bar_clear_of_it(paper):
    """Two cards centred on the page leave a band of two card widths: a label with the deck's
    version in it does not fit beside the bar there, so it goes on the line below, still ending
    1 mm short of the area and inside the printable part of the paper; on a full page it stays
    on the bar's line."""
    label_text = "metronome · version 0.2 playtest · metronome-update-a4.pdf · page 3/4 · fronts 1"
    from deckpress.imposition.sheets import snug

    for cards, below in ((2, True), (9, False)):
        grid = snug(fit_grid(paper, *CARD, room_for("corners"), BLEED), cards, BLEED)  # as a short run is laid out
        plan = plan_pages([FACE] * cards, grid, BLEED)[0]
        page = furnished(plan, label_text)
        label, (bar,) = page.label, of(page.furniture, ScaleBar)
        assert label.words.y == pytest.approx(bar.caption.y + (2.8 if below else 0.0), abs=ABS)
        x0, y0, x1, y1 = label.patch
        caption_end = bar.caption.x + text_width(bar.caption.text, LABEL_SIZE)
        if below:  # the label's white patch wholly below the caption's baseline
            assert y0 > bar.caption.y + 0.2
        else:
            assert bar.x + bar.length < x0 and caption_end < x0
        W, H = plan.paper
        corners = [label.band.point(x, y) for x in (x0, x1) for y in (y0, y1)]
        assert all(PRINTABLE - ABS <= px <= W - PRINTABLE + ABS and PRINTABLE - ABS <= py <= H - PRINTABLE + ABS
                   for px, py in corners)


# --- the back offset -----------------------------------------------------------------------------------

def test_the_back_offset_moves_a_back_pages_furniture_and_leaves_fronts_alone():
    plan = grid_page()
    dx, dy = 1.5, -0.75
    info = dict(back_marks=True, back_offset=(dx, dy))
    front, still = furnished(plan, **info), furnished(plan, back_marks=True)
    assert front == still and not front.shifted
    plain, moved = furnished(plan, back=True, back_marks=True), furnished(plan, back=True, **info)
    assert moved.shifted and not plain.shifted
    (a,), (b,) = of(plain.furniture, CutMarks), of(moved.furniture, CutMarks)
    for p, q in zip(a.segments, b.segments, strict=True):
        assert q == pytest.approx((p[0] + dx, p[1] + dy, p[2] + dx, p[3] + dy), abs=1e-9)
    (p,), (q,) = of(plain.furniture, ScaleBar), of(moved.furniture, ScaleBar)
    assert q.band.point(q.x, q.y) == pytest.approx(tuple(v + d for v, d in zip(p.band.point(p.x, p.y), (dx, dy))))
    assert moved.trim_box == pytest.approx((plain.trim_box[0] + dx, plain.trim_box[1] + dy,
                                            plain.trim_box[2] + dx, plain.trim_box[3] + dy))


def test_page_boxes_stay_on_the_paper_when_the_offset_pushes_a_piece_off_it():
    page = furnished(grid_page(), back=True, back_offset=(-40.0, 0.0))
    assert page.trim_box[0] == 0.0 and page.bleed_box[0] == 0.0


# --- gutterfold and tiles ---------------------------------------------------------------------------------

def test_the_fold_line_runs_down_the_gutter_as_far_as_the_marks_reach():
    (plan,) = plan_gutterfold([(FACE, FACE)] * 4, lambda _: CARD, "a4", BLEED)
    page = furnished(plan)
    (fold,) = of(page.furniture, FoldLine)
    x0, y0, x1, y1 = plan.trim_box
    reach = MARK_GAP + MARK_LENGTH
    assert fold.start == pytest.approx((plan.fold.at, y0 - reach), abs=ABS)
    assert fold.end == pytest.approx((plan.fold.at, y1 + reach), abs=ABS)
    assert fold.dash == (2.0, 1.5)
    assert fold.word.text == "fold" and fold.word.turned
    assert len(of(page.furniture, CutMarks)) == 2  # each half its own crop marks


def test_tiles_carry_their_name_glue_strips_and_alignment_marks():
    tiles = plan_tiles(FACE, 400.0, 300.0, "a4", BLEED)
    assert len(tiles) > 1
    first = furnished(tiles[0])
    (marks,) = of(first.furniture, TileMarks)
    x0, y0, _, _ = tiles[0].area
    assert marks.name == Words("tile A1", x0 + 4, y0 - 6.0, 9)
    assert "cut along the crop marks" in marks.instructions.text
    strips = of(marks.seams, GlueStrip)
    assert strips and len(strips) == sum(s.kind == "glue" for s in tiles[0].tile.seams)
    for strip, seam in zip(strips, [s for s in tiles[0].tile.seams if s.kind == "glue"]):
        bx0, by0, bx1, by1 = strip.box
        assert (bx1 - bx0 if seam.vertical else by1 - by0) == pytest.approx(OVERLAP, abs=ABS)
        assert (strip.edge[0] if seam.vertical else strip.edge[1]) == pytest.approx(seam.at, abs=ABS)
    for mark, seam in zip(of(marks.seams, AlignmentMark), tiles[0].tile.seams):
        tip = mark.points[0]
        assert (tip[0] if seam.vertical else tip[1]) == pytest.approx(seam.at, abs=ABS)  # the tip on the seam
        assert (tip[1] == pytest.approx(y0 - 6.0, abs=ABS)) if seam.vertical else (tip[0] == pytest.approx(x0 - 6.0))


@pytest.mark.parametrize("size", [(284.0, 300.0), (280.0, 270.0), (600.0, 420.0), (150.0, 400.0)])
@pytest.mark.parametrize("paper", list(PAPERS))
def test_tile_instructions_stop_before_the_alignment_triangles(paper, size):
    """The instructions share the tile name's line with the triangles of the seams that run down
    the page: they end before the first one, shortened where the tile is narrow; each triangle is
    drawn once, however many neighbours share its seam line."""
    for tile in plan_tiles(FACE, *size, paper, BLEED):
        (marks,) = of(furnished(tile).furniture, TileMarks)
        words = marks.instructions
        assert words.text.startswith(f"of {len(tile.tile.names)}") and "cut along the crop marks" in words.text
        end = words.x + text_width(words.text, words.size)
        triangles = of(marks.seams, AlignmentMark)
        assert len(set(triangles)) == len(triangles)
        for mark in triangles:
            xs = [x for x, _ in mark.points]
            if mark.points[0][1] < tile.area[1]:  # above the tile: on the instructions' line
                assert max(xs) < words.x or min(xs) > end + 0.99, (tile.tile.name, words.text)


def test_sheet_furniture_draws_marks_first_and_the_bar_last():
    plan = grid_page()
    items = sheet_furniture(plan, "corners", BLEED, 30.0)
    assert isinstance(items[0], CutMarks) and isinstance(items[-1], ScaleBar)


# --- the calibration sheet ---------------------------------------------------------------------------------

@pytest.mark.parametrize("paper", list(PAPERS))
def test_the_calibration_sheet_is_two_pages_of_values(paper):
    front, back = calibration_pages(paper, (0.5, -1.2))
    assert isinstance(front, FurniturePage) and front.paper == back.paper == PAPERS[paper]
    assert front.shift is None and back.shift == (0.5, -1.2)
    rings = of(front.items, Ring)
    assert [c for r in rings for c in r.centre] == pytest.approx([c for t in targets(PAPERS[paper]) for c in t])
    # the two bars: solid, exactly 50 mm and 2 in long
    bars = [b.box for b in of(front.items, Block) if b.box[3] - b.box[1] == pytest.approx(1.6)]
    assert sorted(round(b[2] - b[0], 2) for b in bars) == sorted(length for _, length, _, _ in BARS) == [50.0, 50.8]
    info = calibration_info(paper)
    assert info.duplex and info.colors == "k"


def test_labels_measured_together_are_as_long_as_each_measured_alone():
    from deckpress.imposition.furniture import text_widths

    labels = [f"Deck · deck-duplex-letter.pdf · page {i}/120 · backs {i // 2}" for i in range(1, 121)]
    for texts in (labels, labels[:1], [*labels, "", "\u00a0", "a\u00a0b \ue000 ♯ 𝄞 ü"], ["x", "xy", "y"]):
        assert text_widths(texts, LABEL_SIZE) == [text_width(t, LABEL_SIZE) for t in texts]
    assert text_widths([], LABEL_SIZE) == []


@pytest.mark.parametrize("mode", ["corners", "lines", "cutter", "none"])
@pytest.mark.parametrize("offset", [(0.0, 0.0), (1.5, -0.75)])
def test_pages_laid_out_alike_are_furnished_as_each_alone(mode, offset):
    """furnish works out a layout's move, furniture, label spot and boxes once for all its pages:
    each page is what furnishing it on its own gives."""
    from deckpress.imposition.document import FurnishedPage, on_paper
    from deckpress.imposition.furniture import page_label
    from deckpress.imposition.sheets import moved

    grid = fit_grid("a4", *CARD, room_for(mode), BLEED)
    faces = [Face(*CARD, BLEED, (), radius=i) for i in range(4)]
    sides = [faces[i % 4] if i % 13 != 5 else None for i in range(40)]
    tiles = plan_tiles(faces[0], 300.0, 200.0, "a4", BLEED, room_for(mode))
    folded = plan_gutterfold([(f, faces[1]) for f in sides if f is not None], lambda f: CARD, "a4", BLEED)
    pages = [(p, False) for p in plan_pages(sides, grid, BLEED)] + \
        [(p, True) for p in plan_pages(sides, grid, BLEED, backs=True)] + \
        [(t, b) for t in tiles for b in (False, True)] + [(p, b) for p in folded for b in (False, True)]
    sheets = [Sheet(p, f"deck · file · page {i}/{len(pages)}", back) for i, (p, back) in enumerate(pages, start=1)]
    info = DocInfo("t", "a", "s", marking=Marking(marks=mode, back_marks=True, back_offset=offset))
    room = max(text_width(s.label, LABEL_SIZE) for s in sheets) + 3.0
    for sheet, page in zip(sheets, furnish(sheets, info, BLEED), strict=True):
        plan = moved(sheet.plan, *offset) if sheet.back else sheet.plan
        marks = page_marks(info, sheet.back)
        shift = offset if sheet.back else (0.0, 0.0)
        furniture = sheet_furniture(plan, marks, BLEED, room, shift) if mode != "none" else ()
        label = page_label(plan, marks, sheet.label, text_width(sheet.label, LABEL_SIZE), BLEED, room) \
            if mode != "none" else None
        boxes = (on_paper(plan.trim_box, plan.paper), on_paper(plan.bleed_box, plan.paper)) \
            if plan.placements else (None, None)
        assert page == FurnishedPage(plan, furniture, label, *boxes, shifted=plan is not sheet.plan)


def test_a_glue_strip_too_short_for_its_words_says_whose_it_is():
    from deckpress.imposition.furniture import glue_strip
    from deckpress.imposition.sheets import Seam

    long, short = (glue_strip(Seam(100.0, True, "glue", "B2", (20.0, span))) for span in (120.0, 50.0))
    assert long.words.text == "glue — B2 goes over this strip"
    assert short.words.text == "glue — B2" and text_width(short.words.text, 7) < 30.0


@pytest.mark.parametrize("size", [(284.0, 300.0), (200.0, 300.0), (600.0, 420.0), "circle-of-5"])
def test_alignment_marks_of_a_seam_meet_on_the_piece_turned_or_not(size):
    """Seen on the piece (through each tile's placement), the triangles two tiles carry for their
    seam have their tips on the same line, and lie off the same end of the two tiles' edges."""

    def on_piece(page, point):
        a, b, c, d, e, f = page.placements[0].matrix
        det = a * d - b * c
        x, y = point[0] - e, point[1] - f
        return ((d * x - c * y) / det, (a * y - b * x) / det)

    if size == "circle-of-5":  # its board on A4: upright, its seams in the board's clear lanes
        from deckpress.imposition.sheets import text_boxes
        from tests.test_imposition_sheets import circle_of_5_board

        face = circle_of_5_board()
        tiles = plan_tiles(face, face.width, face.height, "a4", BLEED, keep_clear=text_boxes(face))
        size, expected_turn = (face.width, face.height), False
    else:
        tiles = plan_tiles(FACE, *size, "a4", BLEED)
        expected_turn = size == (200.0, 300.0)
    assert (tiles[0].placements[0].matrix[0] == pytest.approx(0.0)) == expected_turn
    tips = {}
    for page in tiles:
        (marks,) = of(furnished(page).furniture, TileMarks)
        triangles = of(marks.seams, AlignmentMark)
        corners = [on_piece(page, (x, y)) for x in page.area[0::2] for y in page.area[1::2]]
        box = (min(x for x, _ in corners), min(y for _, y in corners), max(x for x, _ in corners),
               max(y for _, y in corners))
        for seam in page.tile.seams:
            tip = on_piece(page, next(m.points[0] for m in triangles
                                      if m.points[0][0 if seam.vertical else 1] == pytest.approx(seam.at)))
            side = (tip[0] < box[0], tip[0] > box[2], tip[1] < box[1], tip[1] > box[3])
            tips.setdefault(frozenset((page.tile.name, seam.neighbour)), []).append((tip, side))
    assert tips and all(len(found) == 2 for found in tips.values())
    for ((ax, ay), a_side), ((bx, by), b_side) in tips.values():
        assert ax == pytest.approx(bx, abs=0.01) or ay == pytest.approx(by, abs=0.01)  # the same seam line …
        assert a_side == b_side and sum(a_side) == 1  # … off the same end of both tiles' edges
