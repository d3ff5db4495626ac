"""Gutterfold sheets: fronts on one side of a fold line, backs on the other, so that folding the
sheet puts each back behind its front, the right way up, like a real card turned over left to right.

Checked on the plan, then measured back from the written PDF: form placements to 0.01 mm, the
dashed fold line, the page boxes, and pixels of a rendered page mirrored across the fold."""

from __future__ import annotations

import math

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from deckpress.builder.plan import Options
from deckpress.colors import Gray
from deckpress.face import Face, Paint, Rect, apply, multiply
from deckpress.imposition.gutterfold import FOLD_CLEAR, fit_fold, plan_gutterfold
from deckpress.backends.pdfpages import write_document
from deckpress.imposition.document import DocInfo, Sheet, furnish
from deckpress.imposition.sheets import MIN_MARGIN, PAPERS, centre
from deckpress.units import HOME_PAPERS, PRINTABLE

from .pdfread import MM, check_page_boxes, page_boxes_mm, path_boxes, placements, text_lines, trim_box_mm
from .test_backend_pdfpages import bar_blocks, overlap

POKER = (63.5, 88.9)
MINI = (41.0, 63.0)
BLEED = 3.0


# --- the layout -------------------------------------------------------------------------------

@pytest.mark.parametrize("paper", HOME_PAPERS)
def test_poker_cards_go_four_a_sheet_turned_either_side_of_a_fold_down_the_middle(paper):
    layout = fit_fold(paper, *POKER, BLEED)
    assert (layout.side.cols, layout.side.rows, layout.side.rotated) == (1, 4, True)
    assert layout.per_page == 4  # 4 fronts + 4 backs, on A4 and Letter alike
    assert layout.fold.vertical and layout.fold.at == pytest.approx(PAPERS[paper][0] / 2)


@pytest.mark.parametrize("paper, card, expected", [
    # every option (upright or turned, fold down or across the page) is compared; most cards win
    ("a4", MINI, (3, 3, True, False)),  # folded across: 9 a sheet, where a fold down the page holds 8
    # five across Letter left 5.45 mm beside them, where the marks of the cuts across the fold cannot
    # print 3 mm long inside the 4.2 mm a printer leaves blank: nine turned instead of ten
    ("letter", MINI, (3, 3, True, False)),
    ("a4", (70.0, 120.0), (1, 2, False, True)),
])
def test_the_layout_that_holds_most_cards_wins(paper, card, expected):
    layout = fit_fold(paper, *card, BLEED)
    assert (layout.side.cols, layout.side.rows, layout.side.rotated, layout.fold.vertical) == expected


def test_a_piece_bigger_than_half_the_paper_does_not_fit():
    with pytest.raises(ValueError, match="half of a4"):
        fit_fold("a4", 200.0, 150.0, BLEED)


# --- geometry from the plan -------------------------------------------------------------------

def pairs(n: int) -> list[tuple[str, str]]:
    return [(f"front {i}", f"back {i}") for i in range(n)]


def reflect(point, fold):
    x, y = point
    return (2 * fold.at - x, y) if fold.vertical else (x, 2 * fold.at - y)


def on_front_side(box, fold) -> bool:
    """Whether a box (or a point's top-left) lies on the fronts' side of the fold: left or above."""
    return (box[0] if fold.vertical else box[1]) < fold.at


def matched(page):
    """(front, back) placements of a page, paired by name."""
    by_face = {p.face: p for p in page.placements}
    return [(p, by_face[p.face.replace("front", "back")]) for p in page.placements if p.face.startswith("front")]


CASES = [(paper, card) for paper in HOME_PAPERS for card in (POKER, MINI)]
IDS = [f"{paper}-{card[0]:g}x{card[1]:g}" for paper, card in CASES]


@pytest.mark.parametrize("paper, card", CASES, ids=IDS)
def test_each_back_lands_behind_its_front_turned_not_mirrored(paper, card):
    w, h = card
    pages = plan_gutterfold(pairs(11), lambda _: card, paper, BLEED)
    assert sum(len(matched(p)) for p in pages) == 11
    for page in pages:
        fold = page.fold
        for front, back in matched(page):
            # folding takes the back's centre onto the front's centre
            assert reflect(centre(back.matrix, w, h), fold) == pytest.approx(centre(front.matrix, w, h), abs=0.01)
            # the back's matrix is the front's seen through the fold's mirror and the card's own
            fold_mirror = (-1, 0, 0, 1, 2 * fold.at, 0) if fold.vertical else (1, 0, 0, -1, 0, 2 * fold.at)
            card_mirror = (-1, 0, 0, 1, w, 0)
            assert back.matrix == pytest.approx(multiply(fold_mirror, multiply(front.matrix, card_mirror)))
            a, b, c, d, _, _ = back.matrix
            assert a * d - b * c == pytest.approx(1)  # a turn, not a mirror image
            # like a real card turned over left to right: the back's top-right corner is behind
            # the front's top-left, the back's bottom-left behind the front's bottom-right
            assert reflect(apply(back.matrix, w, 0), fold) == pytest.approx(apply(front.matrix, 0, 0), abs=0.01)
            assert reflect(apply(back.matrix, 0, h), fold) == pytest.approx(apply(front.matrix, w, h), abs=0.01)


@pytest.mark.parametrize("paper, card", CASES, ids=IDS)
def test_cards_keep_inside_the_margins_and_the_fold_clear_of_every_bleed(paper, card):
    W, H = PAPERS[paper]
    for page in plan_gutterfold(pairs(11), lambda _: card, paper, BLEED):
        axis = 0 if page.fold.vertical else 1
        for p in page.placements:
            x0, y0, x1, y1 = p.trim
            assert x0 >= MIN_MARGIN - 1e-9 and y0 >= MIN_MARGIN - 1e-9
            assert W - x1 >= MIN_MARGIN - 1e-9 and H - y1 >= MIN_MARGIN - 1e-9
            near, far = p.clip[axis], p.clip[axis + 2]
            gap = near - page.fold.at if near > page.fold.at else page.fold.at - far
            assert gap >= FOLD_CLEAR - 1e-9  # fronts on one side, backs on the other, 5 mm off


def test_bleed_stays_on_outer_edges_and_the_gutter_side():
    page = plan_gutterfold(pairs(4), lambda _: POKER, "a4", BLEED)[0]
    front, back = matched(page)[1]  # the second row: neighbours above and below
    assert front.clip == pytest.approx((front.trim[0] - 3, front.trim[1], front.trim[2] + 3, front.trim[3]))
    assert back.clip == pytest.approx((back.trim[0] - 3, back.trim[1], back.trim[2] + 3, back.trim[3]))
    # the fronts' right edge and the backs' left edge are 16 mm apart, the fold between them
    assert back.trim[0] - front.trim[2] == pytest.approx(2 * (BLEED + FOLD_CLEAR))
    assert page.cut_xs == pytest.approx((8.1, 97.0, 113.0, 201.9))
    assert page.cut_ys == pytest.approx((21.5, 85.0, 148.5, 212.0, 275.5))


def test_pieces_without_a_back_leave_the_slot_empty_and_boards_are_left_out():
    sizes = {"card": POKER, "blank": POKER, "board": (280.0, 270.0)}
    faces = [("card", "back")] * 5 + [("blank", None)] + [("board", "board back")]
    pages = plan_gutterfold(faces, lambda f: sizes.get(f, POKER), "a4", BLEED)
    assert [len(p.placements) for p in pages] == [8, 3]  # 6 fronts, 5 backs, no board
    assert [p.face for p in pages[1].placements] == ["card", "blank", "back"]


# --- the written PDF --------------------------------------------------------------------------

MARK = 8.0  # side of the black square that tells a card's corners apart


def marked(card, corner_x: float, shade: float) -> Face:
    """A light card, bleed included, with a black square in one top corner."""
    w, h = card
    return Face(w, h, BLEED, (Rect(-BLEED, -BLEED, w + 2 * BLEED, h + 2 * BLEED, paint=Paint(fill=Gray(shade))),
                              Rect(corner_x, 3.0, MARK, MARK, paint=Paint(fill=Gray(0.0)))))


@pytest.fixture(scope="module", params=CASES, ids=IDS)
def written(request, tmp_path_factory):
    """Six cards on gutterfold sheets: each front marked top-left, each back top-right."""
    paper, card = request.param
    w, _ = card
    front, back = marked(card, 3.0, 0.9), marked(card, w - 3.0 - MARK, 0.75)
    pages = plan_gutterfold([(front, back)] * 6, lambda _: card, paper, BLEED)
    path = tmp_path_factory.mktemp("gutterfold") / f"fold-{paper}.pdf"
    info = DocInfo("test", "test", "test")
    write_document(path, furnish([Sheet(p, f"test · page {i}") for i, p in enumerate(pages, 1)], info, BLEED), info)
    return path, paper, card, pages


def test_placements_read_back_fold_onto_each_other(written):
    path, paper, card, pages = written
    W, H = PAPERS[paper]
    w, h = card
    reader = PdfReader(path)
    assert len(reader.pages) == len(pages)
    for page, plan in zip(reader.pages, pages):
        assert [float(v) / MM for v in page.mediabox] == pytest.approx([0, 0, W, H], abs=0.01)
        placed = placements(page)
        corners = [(p.point_mm(0, 0, H * MM), p.point_mm(w * MM, 0, H * MM), p.point_mm(0, -h * MM, H * MM),
                    p.point_mm(w * MM, -h * MM, H * MM)) for p in placed]  # top-left, top-right, bottom-left, -right
        fronts = [c for c in corners if on_front_side(c[0], plan.fold)]
        backs = [c for c in corners if c not in fronts]
        assert len(fronts) == len(backs) == len(plan.placements) // 2
        for f in fronts:
            # the one back whose top-right corner folds onto this front's top-left corner …
            (b,) = [b for b in backs if reflect(b[1], plan.fold) == pytest.approx(f[0], abs=0.01)]
            # … also has its bottom-left behind the front's bottom-right: turned over, not upside down
            assert reflect(b[2], plan.fold) == pytest.approx(f[3], abs=0.01)
            fc = ((f[0][0] + f[3][0]) / 2, (f[0][1] + f[3][1]) / 2)
            bc = ((b[0][0] + b[3][0]) / 2, (b[0][1] + b[3][1]) / 2)
            assert reflect(bc, plan.fold) == pytest.approx(fc, abs=0.01)
    check_page_boxes(str(path), (W, H), card)


def test_trim_and_bleed_boxes_cover_both_halves(written):
    path, paper, card, pages = written
    W, H = PAPERS[paper]
    for page, plan in zip(PdfReader(path).pages, pages):
        boxes = page_boxes_mm(page)
        x0, y0, x1, y1 = plan.trim_box
        assert boxes["trimbox"] == pytest.approx((x0, H - y1, x1, H - y0), abs=0.01)
        # the bleed, as far as it prints: no ink within PRINTABLE of the paper's edge
        p = PRINTABLE
        assert boxes["bleedbox"] == pytest.approx((max(x0 - BLEED, p), max(H - y1 - BLEED, p), min(x1 + BLEED, W - p),
                                                   min(H - y0 + BLEED, H - p)), abs=0.01)
        assert x0 < plan.fold.at < x1 if plan.fold.vertical else y0 < plan.fold.at < y1


def test_the_fold_line_is_dashed_along_the_gutter_past_the_cards_and_says_fold(written):
    path, paper, _, pages = written
    for i, plan in enumerate(pages):
        x0, y0, x1, y1 = plan.trim_box
        (line,) = path_boxes(path, i, dashed=True)
        at = plan.fold.at
        if plan.fold.vertical:
            assert (line[0] + line[2]) / 2 == pytest.approx(at, abs=0.01) and line[2] - line[0] < 0.5
            assert line[1] < y0 - 4 and line[3] > y1 + 4  # through the margins, as far as the crop marks
        else:
            assert (line[1] + line[3]) / 2 == pytest.approx(at, abs=0.01) and line[3] - line[1] < 0.5
            assert line[0] < x0 - 4 and line[2] > x1 + 4
        (word,) = [box for text, box in text_lines(path, i) if text.strip() == "fold"]
        assert not any(overlap(word, p.clip) for p in plan.placements)
        assert not overlap(word, line)
        assert word[0] > 0 and word[1] > 0  # on the paper


def dark_box(image, box_mm, dpi):
    """The box (mm) round the black pixels of a region of a grey page image, or None."""
    s = dpi / 25.4
    x0, y0, x1, y1 = (round(v * s) for v in box_mm)
    found = image.crop((x0, y0, x1, y1)).point(lambda v: 255 if v < 60 else 0).getbbox()
    if found is None:
        return None
    return tuple(v / s + (x0 / s if k % 2 == 0 else y0 / s) for k, v in enumerate(found))


def test_folding_the_rendered_sheet_puts_each_backs_mark_behind_its_fronts(written):
    """Look at pixels, not matrices: each card's dark square, front top-left and back top-right,
    mirrored across the fold line, must cover the same spot. A back upside down or mirrored puts
    its square in another corner."""
    path, paper, card, pages = written
    dpi = 200
    pdf = pdfium.PdfDocument(str(path))
    for i, plan in enumerate(pages):
        image = pdf[i].render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
        fronts = [p for p in plan.placements if on_front_side(p.trim, plan.fold)]
        for front in fronts:
            f = dark_box(image, front.trim, dpi)
            x0, y0, x1, y1 = front.trim
            (ax, ay), (bx, by) = reflect((x0, y0), plan.fold), reflect((x1, y1), plan.fold)
            b = dark_box(image, (min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)), dpi)
            assert f is not None and b is not None
            assert f[2] - f[0] == pytest.approx(MARK, abs=0.3) and f[3] - f[1] == pytest.approx(MARK, abs=0.3)
            (cx, cy) = reflect(((b[0] + b[2]) / 2, (b[1] + b[3]) / 2), plan.fold)
            assert (cx, cy) == pytest.approx(((f[0] + f[2]) / 2, (f[1] + f[3]) / 2), abs=0.3)
    pdf.close()


# --- a real deck ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def metronome_fold(shared_build):
    out, result = shared_build("gutterfold", "metronome", inks=("color",),
                               options=Options(formats=("pdf", "gutterfold")))
    return out / "metronome", result


@pytest.mark.parametrize("paper", HOME_PAPERS)
def test_metronome_gutterfold_holds_every_card_with_its_back(metronome_fold, paper):
    folder, result = metronome_fold
    path = folder / f"metronome-gutterfold-{paper}.pdf"
    assert path in [o.path for o in result.outputs]
    W, H = PAPERS[paper]
    w, h = POKER
    reader = PdfReader(path)
    assert len(reader.pages) == math.ceil(63 / 4)  # 63 cards with backs; the rule sheets have none
    fronts = 0
    for i, page in enumerate(reader.pages):
        placed = placements(page)
        boxes = [trim_box_mm(p, w, h, H * MM) for p in placed]
        left = [p for p, b in zip(placed, boxes) if b[2] < W / 2]
        right = [p for p, b in zip(placed, boxes) if b[0] > W / 2]
        assert len(left) == len(right) and len(left) + len(right) == len(placed)
        fronts += len(left)
        for f in left:
            # the back whose centre folds onto this front's centre stands there turned over left to right
            fc = f.point_mm(w / 2 * MM, -h / 2 * MM, H * MM)
            (b,) = [b for b in right if b.point_mm(w / 2 * MM, -h / 2 * MM, H * MM)
                    == pytest.approx((W - fc[0], fc[1]), abs=0.01)]
            tr = b.point_mm(w * MM, 0, H * MM)
            assert (W - tr[0], tr[1]) == pytest.approx(f.point_mm(0, 0, H * MM), abs=0.01)
        # the scale bar and label keep clear of the fold line and each other
        (line,) = path_boxes(path, i, dashed=True)
        bar = bar_blocks(path, i)
        assert len(bar) == 5
        bar_box = (min(b[0] for b in bar), min(b[1] for b in bar), max(b[2] for b in bar), max(b[3] for b in bar))
        label = [box for text, box in text_lines(path, i) if f"{path.name} · page {i + 1}/" in text]
        assert len(label) == 1
        assert not overlap(bar_box, line) and not overlap(label[0], line) and not overlap(bar_box, label[0])
    assert fronts == 63
    check_page_boxes(str(path), (W, H), POKER)


def test_gutterfold_files_are_only_built_when_asked(metronome_build):
    folder, _ = metronome_build
    assert not list(folder.glob("*gutterfold*"))
