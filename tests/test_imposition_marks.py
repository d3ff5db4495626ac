"""Cut options, read back from the PDFs and SVGs they write: crop marks, cut lines to the paper's
edge, bare pages, and a cutting machine's registration marks with its cut paths."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from deckpress.builder.deckbuild import build_deck
from deckpress.builder.plan import Options
from deckpress.imposition.document import Marking
from deckpress.imposition.marks import (CUTTER_BLEED, MARK_MODES, REG_CLEAR, REG_INSET, REG_LENGTH, REG_SQUARE,
                                    REG_THICKNESS, SQUARE_CLEAR, registration_marks, room_for)
from deckpress.imposition.sheets import PAPERS, Room, fit_grid, plan_pages
from deckpress.model.deck import CARD_SIZES
from deckpress.units import PRINTABLE

from .pdfread import MM, drawn_paths, page_boxes_mm, page_text, placements, text_lines

CARD = (63.0, 88.0)  # metronome's cards, poker-metric


@pytest.fixture(scope="module")
def builds(shared):
    """metronome on A4 in colour, once per mark mode (and cutter again with back marks)."""

    def make(out):
        for mode, back in MODES:
            build_deck("metronome", out / name(mode, back), ["a4"], ["color"], options=Options(marking=Marking(mode, back)))

    MODES = [(m, False) for m in MARK_MODES] + [("lines", True), ("cutter", True)]
    name = lambda mode, back: mode + ("-back" if back else "")  # noqa: E731
    out, _ = shared("marks", make)
    return {name(mode, back): out / name(mode, back) / "metronome" for mode, back in MODES}


def trims(path, index: int) -> list[tuple[float, float, float, float]]:
    """Each card's trim on a page, from where its face was placed (mm, from the top-left)."""
    reader = PdfReader(str(path))
    page = reader.pages[index]
    H = float(page.mediabox.height)
    boxes = []
    for p in placements(page):
        bleed = -p.bbox[0]  # the form's box is the trim and its bleed, face y running down (negative)
        w, h = p.bbox[2] - bleed, -p.bbox[1] - bleed
        corners = [p.point_mm(x, y, H) for x in (0.0, w) for y in (0.0, -h)]
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        boxes.append((min(xs), min(ys), max(xs), max(ys)))
    return boxes


def union(boxes):
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def mark_segments(path, index: int) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The solid two-point strokes drawn outside every card: crop marks or cut lines (each drawn
    twice, white under black: only one of each pair is kept)."""
    cards = trims(path, index)
    segments = set()
    for d in drawn_paths(path, index):
        if d.stroked and not d.filled and not d.dashed:
            for sub in d.subpaths:
                if len(sub) == 2:
                    a, b = (tuple(round(v, 2) for v in p) for p in sub)
                    segments.add((a, b))
    return [s for s in segments if not any(_crosses(s, c) for c in cards)]


def _crosses(segment, box) -> bool:
    (x0, y0), (x1, y1) = segment
    return min(x0, x1) < box[2] - 0.01 and max(x0, x1) > box[0] + 0.01 and \
        min(y0, y1) < box[3] - 0.01 and max(y0, y1) > box[1] + 0.01


def page_count(path) -> int:
    return len(pdfium.PdfDocument(str(path)))


# --- corners ------------------------------------------------------------------------------------

def test_corner_marks_start_1_mm_outside_the_trim_and_stop_4_mm_later(builds):
    path = builds["corners"] / "metronome-cards-a4.pdf"
    x0, y0, x1, y1 = union(trims(path, 0))
    segments = mark_segments(path, 0)
    assert len(segments) == 2 * 4 + 2 * 4  # 4 vertical cut lines (3 columns), 4 horizontal (3 rows), both ends
    for segment in segments:
        (ax, ay), (bx, by) = segment
        vertical = ax == bx
        a, b, lo, hi = (ay, by, y0, y1) if vertical else (ax, bx, x0, x1)
        inner = max(a, b) if max(a, b) <= lo else min(a, b)  # the end nearer the cards
        assert abs(inner - lo) == pytest.approx(1.0, abs=0.01) or abs(inner - hi) == pytest.approx(1.0, abs=0.01)
        assert abs(a - b) == pytest.approx(4.0, abs=0.01), segment


def test_back_pages_are_unmarked_unless_asked(builds):
    duplex = builds["corners"] / "metronome-duplex-a4.pdf"
    assert mark_segments(duplex, 0) and not mark_segments(duplex, 1)
    assert "backs 1" in page_text(duplex, 1)  # the label stays: which page is this the back of?
    marked = builds["lines-back"] / "metronome-duplex-a4.pdf"
    front, back = mark_segments(marked, 0), mark_segments(marked, 1)
    W = PAPERS["a4"][0]
    mirrored = {tuple(sorted(((round(W - ax, 2), ay), (round(W - bx, 2), by)))) for (ax, ay), (bx, by) in front}
    assert {tuple(sorted(s)) for s in back} == mirrored  # the same lines, seen through the flip


# --- lines --------------------------------------------------------------------------------------

def test_cut_lines_run_from_1_mm_outside_the_trim_to_the_printable_edge(builds):
    path = builds["lines"] / "metronome-cards-a4.pdf"
    W, H = PAPERS["a4"]
    p = PRINTABLE  # no ink nearer the paper's edge: a laser printer would lose it
    cards = trims(path, 0)
    x0, y0, x1, y1 = union(cards)
    xs = sorted({round(v, 2) for c in cards for v in (c[0], c[2])})
    ys = sorted({round(v, 2) for c in cards for v in (c[1], c[3])})
    found = {tuple(sorted(s)) for s in mark_segments(path, 0)}
    expected = set()
    for x in xs:
        expected |= {((x, p), (x, round(y0 - 1, 2))), ((x, round(y1 + 1, 2)), (x, H - p))}
    for y in ys:
        expected |= {((p, y), (round(x0 - 1, 2), y)), ((round(x1 + 1, 2), y), (W - p, y))}
    assert found == {tuple(sorted(s)) for s in expected}


# --- none ---------------------------------------------------------------------------------------

def test_no_marks_leaves_bare_pages_with_their_page_boxes(builds):
    bare, marked = builds["none"] / "metronome-cards-a4.pdf", builds["corners"] / "metronome-cards-a4.pdf"
    assert page_count(bare) == page_count(marked)
    for i in range(page_count(bare)):
        assert trims(bare, i) == trims(marked, i)  # the same layout as with marks
        assert mark_segments(bare, i) == []
        grid = union(trims(bare, i))
        outside = [text for text, box in text_lines(bare, i) if not _inside(box, grid)]
        assert outside == [] and page_text(marked, i).count("metronome-cards-a4.pdf") == 1  # no label or bar
        assert page_boxes_mm(PdfReader(str(bare)).pages[i]) == page_boxes_mm(PdfReader(str(marked)).pages[i])


# --- cutter -------------------------------------------------------------------------------------

def test_registration_marks_are_silhouette_type_1():
    W, H = PAPERS["letter"]
    square, *corners = registration_marks(W, H)
    assert square == (REG_INSET, REG_INSET, REG_INSET + REG_SQUARE, REG_INSET + REG_SQUARE)
    top_right, bottom_left = union(corners[:2]), union(corners[2:])
    assert top_right == pytest.approx((W - REG_INSET - REG_LENGTH, REG_INSET, W - REG_INSET, REG_INSET + REG_LENGTH))
    assert bottom_left == pytest.approx((REG_INSET, H - REG_INSET - REG_LENGTH, REG_INSET + REG_LENGTH, H - REG_INSET))
    assert all(min(b[2] - b[0], b[3] - b[1]) == pytest.approx(REG_THICKNESS) for b in corners)


def filled_boxes(path, index):
    return sorted(tuple(round(v, 2) for v in d.box) for d in drawn_paths(path, index) if d.filled and not d.stroked
                  and not any(_inside(d.box, t) for t in trims(path, index)))


def _inside(box, trim, slack=3.01):
    return box[0] >= trim[0] - slack and box[1] >= trim[1] - slack and box[2] <= trim[2] + slack \
        and box[3] <= trim[3] + slack


@pytest.mark.parametrize("name", ["metronome-cards-a4.pdf", "metronome-rules-board-a4.pdf", "metronome-box-a4.pdf"])
def test_cutter_front_pages_carry_the_registration_marks_exactly(builds, name):
    path = builds["cutter"] / name
    expected = sorted(tuple(round(v, 2) for v in b) for b in registration_marks(*PAPERS["a4"]))
    for i in range(page_count(path)):
        marks = [b for b in filled_boxes(path, i) if b in expected]
        assert marks == expected, (name, i)
        assert mark_segments(path, i) == [] or name.endswith("box-a4.pdf")  # no crop marks


def test_cutter_back_pages_have_no_registration_marks(builds):
    expected = {tuple(round(v, 2) for v in b) for b in registration_marks(*PAPERS["a4"])}
    duplex = builds["cutter"] / "metronome-duplex-a4.pdf"
    assert not expected & set(filled_boxes(duplex, 1)) and mark_segments(duplex, 1) == []
    asked = builds["cutter-back"] / "metronome-duplex-a4.pdf"  # --back-marks: crop marks to cut by hand
    assert not expected & set(filled_boxes(asked, 1)) and len(mark_segments(asked, 1)) == 16


def clear_zones(W: float, H: float) -> list[tuple[float, float, float, float]]:
    """Each registration mark with the plain paper it needs round it."""
    zones = []
    for k, (x0, y0, x1, y1) in enumerate(registration_marks(W, H)):
        c = SQUARE_CLEAR if k == 0 else REG_CLEAR
        zones.append((x0 - c, y0 - c, x1 + c, y1 + c))
    return zones


def test_the_paper_round_the_registration_marks_is_blank(builds, tmp_path):
    """Rasterised, the sensor's view: round the marks only the marks are printed, and they are
    solid black. (Circle of 5's poker cards on Letter come closest: black bleed 1 mm from the
    square's clear zone.)"""
    build_deck("circle-of-5", tmp_path, ["letter"], ["color"], options=Options(marking=Marking("cutter")))
    dpi = 300
    px = dpi / 25.4
    for path in (builds["cutter"] / "metronome-cards-a4.pdf", builds["cutter"] / "metronome-box-a4.pdf",
                 tmp_path / "circle-of-5" / "circle-of-5-cards-letter.pdf"):
        marks = registration_marks(*PAPERS[path.stem.rsplit("-", 1)[1]])
        image = pdfium.PdfDocument(str(path))[0].render(scale=dpi / 72, grayscale=True).to_pil()
        pixels = image.load()
        for x0, y0, x1, y1 in clear_zones(*PAPERS[path.stem.rsplit("-", 1)[1]]):
            for x in range(int(x0 * px), int(x1 * px) + 1):
                for y in range(int(y0 * px), int(y1 * px) + 1):
                    mx, my = (x + 0.5) / px, (y + 0.5) / px  # the pixel's centre, mm
                    near = [m for m in marks if m[0] - 0.2 < mx < m[2] + 0.2 and m[1] - 0.2 < my < m[3] + 0.2]
                    inside = [m for m in marks if m[0] + 0.2 < mx < m[2] - 0.2 and m[1] + 0.2 < my < m[3] - 0.2]
                    if inside:  # black ink only, which pdfium shows as grey 32
                        assert pixels[x, y] < 40, (path.name, (mx, my))
                    elif not near:
                        assert pixels[x, y] > 250, (path.name, (mx, my))


def test_cutter_pieces_stay_inside_the_marks_with_1_mm_of_bleed(builds):
    path = builds["cutter"] / "metronome-cards-a4.pdf"
    W, H = PAPERS["a4"]
    reach = REG_INSET + REG_THICKNESS + REG_CLEAR
    reader = PdfReader(str(path))
    for page in reader.pages:
        boxes = page_boxes_mm(page)  # PDF's, y up
        bleed, trim = boxes["bleedbox"], boxes["trimbox"]
        assert min(bleed[0], bleed[1], W - bleed[2], H - bleed[3]) >= reach - 0.01
        assert [trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3]] == \
            pytest.approx([CUTTER_BLEED] * 4, abs=0.01)  # of the deck's 3 mm


@pytest.mark.parametrize("paper", list(PAPERS))
@pytest.mark.parametrize("size", list(CARD_SIZES))
def test_cutter_grids_keep_every_bleed_off_the_marks(paper, size):
    card = CARD_SIZES[size]
    room = room_for("cutter")
    W, H = PAPERS[paper]
    grid = fit_grid(paper, card.width, card.height, room, 3.0)
    (page,) = plan_pages(["card"] * grid.per_page, grid, 3.0)
    zones = clear_zones(W, H)
    for p in page.placements:
        assert Room(keep_out=tuple(zones)).allows(p.clip), (size, paper, p.clip)
        assert min(p.clip[0], p.clip[1], W - p.clip[2], H - p.clip[3]) >= REG_INSET + REG_THICKNESS + REG_CLEAR - 1e-9
    trim, clip = page.trim_box, page.bleed_box
    assert min(trim[0] - clip[0], trim[1] - clip[1], clip[2] - trim[2], clip[3] - trim[3]) >= CUTTER_BLEED - 1e-9


@pytest.mark.parametrize("paper, cards", [("a4", 8), ("letter", 8)])
def test_poker_cards_per_cutter_sheet(paper, cards):
    assert fit_grid(paper, *CARD, room_for("cutter"), 3.0).per_page == cards
    assert fit_grid(paper, *CARD, room_for("corners"), 3.0).per_page == 9


def svg_paths(path) -> list[list[tuple[float, float]]]:
    """The end points of every segment of every path in an SVG (curves by their end points)."""
    root = ET.parse(path).getroot()
    found = []
    for element in root.iter("{http://www.w3.org/2000/svg}path"):
        points = []
        for op, args in re.findall(r"([MLCZ])([^MLCZ]*)", element.get("d")):
            values = [float(v) for v in args.split()]
            if values:
                points.append((values[-2], values[-1]))
        found.append(points)
    return found


def test_each_cutter_front_page_has_an_svg_of_its_card_outlines(builds):
    folder = builds["cutter"]
    path = folder / "metronome-cards-a4.pdf"
    for i in range(page_count(path)):
        svg = folder / "cut" / f"metronome-cards-a4-p{i + 1}.svg"
        root = ET.parse(svg).getroot()
        assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("210mm", "297mm", "0 0 210 297")
        outlines = svg_paths(svg)
        cards = trims(path, i)
        assert len(outlines) == len(cards)
        for points, trim in zip(sorted(outlines, key=lambda p: (min(y for _, y in p), min(x for x, _ in p))),
                                sorted(cards, key=lambda b: (b[1], b[0]))):
            box = (min(x for x, _ in points), min(y for _, y in points), max(x for x, _ in points),
                   max(y for _, y in points))
            assert box == pytest.approx(trim, abs=0.01)
            assert (trim[0] + 3.0, trim[1]) in [pytest.approx(p, abs=0.01) for p in points]  # 3 mm round corners
    duplex = sorted(p.name for p in (folder / "cut").glob("metronome-duplex-a4-p*.svg"))
    assert duplex == [f"metronome-duplex-a4-p{n}.svg" for n in (1, 11, 13, 15, 3, 5, 7, 9)]  # fronts only


def test_the_box_cut_file_is_the_dieline(builds):
    folder = builds["cutter"]
    pdf = folder / "metronome-box-a4.pdf"
    (outline,) = svg_paths(folder / "cut" / "metronome-box-a4-p1.svg")
    cut = [d for d in drawn_paths(pdf, 0) if d.stroked and not d.dashed and not d.filled and len(d.subpaths) == 1
           and len(d.subpaths[0]) > 20]
    assert len(cut) == 1  # the printed cut line
    printed = cut[0].subpaths[0]
    if printed[-1] == pytest.approx(printed[0], abs=0.01):
        printed = printed[:-1]  # pdfium gives the closing line's end too
    assert len(printed) == len(outline) > 30
    for a, b in zip(printed, outline):
        assert a == pytest.approx(b, abs=0.01)
    trim = page_boxes_mm(PdfReader(str(pdf)).pages[0])["trimbox"]
    H = PAPERS["a4"][1]
    xs, ys = [x for x, _ in outline], [y for _, y in outline]
    assert (min(xs), H - max(ys), max(xs), H - min(ys)) == pytest.approx(trim, abs=0.01)


def test_the_same_build_gives_the_same_cut_files(builds, tmp_path):
    build_deck("metronome", tmp_path, ["a4"], ["color"], options=Options(marking=Marking("cutter")))
    for svg in (builds["cutter"] / "cut").glob("*.svg"):
        assert (tmp_path / "metronome" / "cut" / svg.name).read_bytes() == svg.read_bytes()


def test_unknown_marks_are_refused():
    with pytest.raises(ValueError, match="corners, lines, none, cutter"):
        room_for("crop")


def test_cut_lines_pass_under_the_page_label(tmp_path):
    """Lines run out to the paper's edge, and across the margin the label is in: on every page the
    label lies on white paper, no line showing through it (rendered, no pixel column of the
    label's box is dark from top to bottom)."""
    build_deck("metronome", tmp_path, ["a4"], ["lowink"], options=Options(marking=Marking("lines")))
    dpi = 200
    px = dpi / 25.4
    crossed = 0
    for path in sorted((tmp_path / "metronome").glob("*.pdf")):
        for i in range(page_count(path)):
            (label,) = [box for text, box in text_lines(path, i) if path.name in text]
            x0, y0, x1, y1 = label
            crossed += any(x0 < s[0][0] < x1 or y0 < s[0][1] < y1 for s in mark_segments(path, i)
                           if s[0][0] == s[1][0] and min(s[0][1], s[1][1]) < y0 and max(s[0][1], s[1][1]) > y1
                           or s[0][1] == s[1][1] and min(s[0][0], s[1][0]) < x0 and max(s[0][0], s[1][0]) > x1)
            image = pdfium.PdfDocument(str(path))[i].render(scale=dpi / 72, grayscale=True).to_pil()
            box = image.crop((int(x0 * px), int(y0 * px), int(x1 * px) + 1, int(y1 * px) + 1))
            pixels = box.load()
            for x in range(box.width):
                assert not all(pixels[x, y] < 128 for y in range(box.height)), (path.name, i, x)
            for y in range(box.height):
                assert not all(pixels[x, y] < 128 for x in range(box.width)), (path.name, i, y)
    assert crossed > 0  # some labels are long enough to lie across a line


# --- the printable part of the paper -------------------------------------------------------------

BUNDLED = ("circle-of-5", "kanon", "metronome", "steps", "test-piece")
EDGE_DPI = 200  #: a pixel is 0.127 mm
EDGE_BAND = PRINTABLE - 0.1  #: mm: the strips rendered, a whole pixel short of the printable part


@pytest.fixture(scope="module")
def every_paper(shared):
    """The five bundled decks' home sheets (cards, backs, rules and boards, box, gutterfold) on
    every paper there is, in colour (low-ink pages are laid out alike), each deck once per paper."""

    def make(out):
        for deck in BUNDLED:
            build_deck(deck, out, list(PAPERS), ["color"], options=Options(formats=("pdf", "gutterfold")))

    out, _ = shared("every-paper", make)
    return out


@pytest.mark.parametrize("deck", BUNDLED)
def test_no_ink_within_4_2_mm_of_the_papers_edge_and_every_cut_line_keeps_a_3_mm_guide(every_paper, deck):
    """Rasterised, no page of any paper has a pixel of ink in the PRINTABLE band along its edges,
    where a laser printer prints nothing (marks, bleed, labels alike). Read back, every cut line
    of a front page of cards has a crop mark at least MIN_GUIDE long that prints, at one end or both."""
    from deckpress.imposition.sheets import MIN_GUIDE

    band = EDGE_BAND / MM  # points
    files = sorted((every_paper / deck).glob("*.pdf"))
    assert {f.stem.rsplit("-", 1)[1] for f in files} == set(PAPERS)
    checked = guided = 0
    for path in files:
        if "-duplex-" in path.name:  # its pages are the cards' and backs' files' pages
            continue
        pdf = pdfium.PdfDocument(str(path))
        for i in range(len(pdf)):
            w, h = pdf[i].get_size()
            strips = {"left": (0, 0, w - band, 0), "right": (w - band, 0, 0, 0), "bottom": (0, 0, 0, h - band),
                      "top": (0, h - band, 0, 0)}  # crop: left, bottom, right, top, in points
            edges = {side: pdf[i].render(scale=EDGE_DPI / 72, grayscale=True, crop=crop).to_pil().convert("L")
                     .getextrema()[0] < 250 for side, crop in strips.items()}  # the darkest pixel: ink?
            assert not any(edges.values()), (path.name, i + 1, [k for k, v in edges.items() if v])
            checked += 1
            if "-box-" in path.name or "backs" in page_text(path, i):
                continue  # a box is cut along its outline; back pages are cut from their fronts
            if "-rules-board-" not in path.name and 0 < i < len(pdf) - 1:
                continue  # a file of cards has one layout: its first and last pages show it
            cards = trims(path, i)
            W, H = (float(v) / MM for v in PdfReader(str(path)).pages[i].mediabox[2:])
            if any(c[0] < 0 or c[1] < 0 or c[2] > W or c[3] > H for c in cards):
                continue  # a tile of a board: its own marks, far inside the paper
            segments = mark_segments(path, i)
            for x in {round(v, 2) for c in cards for v in (c[0], c[2])}:
                lengths = [abs(a[1] - b[1]) for a, b in segments if a[0] == b[0] and abs(a[0] - x) < 0.02]
                assert max(lengths, default=0) >= MIN_GUIDE - 0.02, (path.name, i + 1, "x", x, lengths)
            for y in {round(v, 2) for c in cards for v in (c[1], c[3])}:
                lengths = [abs(a[0] - b[0]) for a, b in segments if a[1] == b[1] and abs(a[1] - y) < 0.02]
                assert max(lengths, default=0) >= MIN_GUIDE - 0.02, (path.name, i + 1, "y", y, lengths)
            guided += 1
        pdf.close()
    assert checked > 20 * len(PAPERS) / 2 and guided > 0
