"""The PDF backend's pages, read back: the furniture every sheet carries (a true 50 mm scale bar
and a page label that stay clear of each other on every page, whatever is on it: a card grid, a
few pawns, a board, one tile), back pages moved by the back offset, and furniture values drawn
where they say."""

from __future__ import annotations

import re

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from deckpress.builder.deckbuild import build_deck
from deckpress.builder.plan import Options
from deckpress.imposition.document import Marking

from .pdfread import MM, page_boxes_mm, path_boxes, placements, text_lines

# pages that stress the bar's placement: cards, boards on their own page, a part-filled grid of
# narrow pawns, tiles of a board bigger than the paper
SAMPLES = ("metronome", "test-piece", "circle-of-5")


@pytest.fixture(scope="module")
def sheets(bundled_builds):
    """Every colour file but the duplex ones (which repeat the fronts and backs) of each sample,
    on both papers, as `deckpress build` writes them."""
    files = []
    for deck in SAMPLES:
        for o in bundled_builds(deck)[1].outputs:
            if "duplex" not in o.path.name and "lowink" not in o.path.name:
                files.append(o.path)
    return files


def bar_blocks(path, index: int) -> list[tuple[float, float, float, float]]:
    """The scale bar's 10 mm blocks on a page, as (left, top, right, bottom) in mm, strokes included."""

    def block(w: float, h: float) -> bool:
        return abs(w - 10.3) < 0.1 and abs(h - 1.5) < 0.1

    return [b for b in path_boxes(path, index) if block(b[2] - b[0], b[3] - b[1]) or block(b[3] - b[1], b[2] - b[0])]


def overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def pages(files):
    for path in files:
        n = len(pdfium.PdfDocument(str(path)))
        for i in range(n):
            yield path, i


def test_every_page_has_one_scale_bar_exactly_50_mm_long(sheets):
    for path, i in pages(sheets):
        blocks = bar_blocks(path, i)
        assert len(blocks) == 5, (path.name, i, blocks)
        x0, y0 = min(b[0] for b in blocks), min(b[1] for b in blocks)
        x1, y1 = max(b[2] for b in blocks), max(b[3] for b in blocks)
        stroke = 2 * 0.15  # pdfium's bounds reach a full line width (0.15 mm) past each edge
        assert max(x1 - x0, y1 - y0) - stroke == pytest.approx(50.0, abs=0.01), (path.name, i)


def test_bar_caption_and_page_label_keep_clear_of_each_other(sheets):
    for path, i in pages(sheets):
        lines = text_lines(path, i)
        caption = [box for text, box in lines if "50 mm — print" in text]
        label = [box for text, box in lines if f"{path.name} · page {i + 1}/" in text]
        assert len(caption) == 1 and len(label) == 1, (path.name, i, lines[-3:])
        bar = bar_blocks(path, i)
        bar_box = (min(b[0] for b in bar), min(b[1] for b in bar), max(b[2] for b in bar), max(b[3] for b in bar))
        assert not overlap(caption[0], label[0]), (path.name, i)
        assert not overlap(bar_box, label[0]), (path.name, i)


# --- the back offset ----------------------------------------------------------------------------

OFFSET = (1.5, -0.75)  # mm: right and up, as seen looking at the back


@pytest.fixture(scope="module")
def shifted(shared):
    """metronome's A4 colour files, with crop marks on the backs too, built without and with a
    back offset: (plain folder, shifted folder)."""

    def make(out):
        for offset, name in (((0.0, 0.0), "plain"), (OFFSET, "shifted")):
            build_deck("metronome", out / name, ["a4"], ["color"], options=Options(marking=Marking(back_marks=True, back_offset=offset)))

    out, _ = shared("back-offset", make)
    return out / "plain" / "metronome", out / "shifted" / "metronome"


def drawn_forms(reader: PdfReader, page) -> dict[str, bytes]:
    """Every form a page's content draws, by name, with its content (forms inside forms too)."""
    found, todo = {}, [(page["/Resources"], page.get_contents().get_data())]
    while todo:
        resources, data = todo.pop()
        xobjects = resources.get_object().get("/XObject") or {}
        for name in re.findall(rb"(/[^\s/\[\]()<>]+) Do", data):
            form = xobjects[name.decode()].get_object()
            if name.decode() not in found and form.get("/Subtype") == "/Form":
                found[name.decode()] = form.get_data()
                if "/Resources" in form:
                    todo.append((form["/Resources"], form.get_data()))
    return found


def furniture_paths(path, index: int) -> list[tuple[float, float, float, float]]:
    """The paths a page draws outside card faces (crop marks, the scale bar), sorted, as (left, top,
    right, bottom) in mm: those on the page itself or in forms drawn as they are (faces are forms
    placed through a matrix)."""
    import pypdfium2.raw as raw

    pdf = pdfium.PdfDocument(str(path))
    page = pdf[index]
    height = page.get_height()
    boxes = []
    for obj in page.get_objects(max_depth=3):
        if obj.type != raw.FPDF_PAGEOBJ_PATH:
            continue
        form = obj.container
        while form is not None and form.get_matrix().get() == (1, 0, 0, 1, 0, 0):
            form = form.container
        if form is None:
            left, bottom, right, top = obj.get_bounds()
            boxes.append((left / MM, (height - top) / MM, right / MM, (height - bottom) / MM))
    pdf.close()
    return sorted(boxes)


def moved_backs(plain_path, shifted_path, offset, paper_h: float = 297.0) -> int:
    """Check that a file built with a back offset has each back page (its label says "backs")
    moved by `offset` (mm, right and down) and each other page the same, byte for byte; return
    how many back pages there are."""
    plain, moved = PdfReader(plain_path), PdfReader(shifted_path)
    H = paper_h * MM
    dx, dy = offset
    backs = 0
    for i, (a, b) in enumerate(zip(plain.pages, moved.pages, strict=True)):
        label = next(text for text, _ in text_lines(plain_path, i) if f"{plain_path.name} · page" in text)
        if "· backs" not in label:  # a front: the same content, byte for byte, forms and all
            assert a.get_contents().get_data() == b.get_contents().get_data(), (plain_path.name, i)
            assert drawn_forms(plain, a) == drawn_forms(moved, b), (plain_path.name, i)
            assert page_boxes_mm(a) == page_boxes_mm(b)
            continue
        backs += 1
        before, after = placements(a), placements(b)
        assert len(before) == len(after) > 0
        for p, q in zip(before, after):
            assert q.matrix[:4] == pytest.approx(p.matrix[:4])  # moved, not turned or scaled
            x, y = p.point_mm(0, 0, H)
            assert q.point_mm(0, 0, H) == pytest.approx((x + dx, y + dy), abs=0.001)
        for box in ("trimbox", "bleedbox"):  # PDF boxes: y up
            x0, y0, x1, y1 = page_boxes_mm(a)[box]
            assert page_boxes_mm(b)[box] == pytest.approx((x0 + dx, y0 - dy, x1 + dx, y1 - dy), abs=0.001)
        assert page_boxes_mm(b)["mediabox"] == page_boxes_mm(a)["mediabox"]
        # crop marks, scale bar and label go along: every path and run of text, moved alike
        paths_before, paths_after = furniture_paths(plain_path, i), furniture_paths(shifted_path, i)
        assert len(paths_before) == len(paths_after) >= 7  # the bar's 5 blocks, the marks white and black
        for p, q in zip(paths_before, paths_after):
            assert q == pytest.approx((p[0] + dx, p[1] + dy, p[2] + dx, p[3] + dy), abs=0.01)
        for (text, p), (moved_text, q) in zip(text_lines(plain_path, i), text_lines(shifted_path, i), strict=True):
            assert moved_text == text
            assert q == pytest.approx((p[0] + dx, p[1] + dy, p[2] + dx, p[3] + dy), abs=0.01)
    return backs


@pytest.mark.parametrize("kind, backs", [("duplex", 7), ("backs", 7), ("cards", 0), ("rules-board", 0)])
def test_a_back_offset_moves_every_back_page_and_nothing_else(shifted, kind, backs):
    name = f"metronome-{kind}-a4.pdf"
    assert moved_backs(shifted[0] / name, shifted[1] / name, OFFSET) == backs


def test_rule_and_board_backs_move_too(make_deck, tmp_path):
    from tests.conftest import SIMPLE_DECK, SIMPLE_LAYOUT
    folder = make_deck(SIMPLE_DECK.replace("front: front", "front: front\n        sheet: rules-board"),
                       {"simple": SIMPLE_LAYOUT})
    for offset, out in (((0.0, 0.0), "plain"), ((-2.0, 0.5), "moved")):
        build_deck(folder, tmp_path / out, ["letter"], ["lowink"], options=Options(marking=Marking(back_marks=True, back_offset=offset)))
    name = "simple-rules-board-lowink-letter.pdf"
    assert moved_backs(tmp_path / "plain" / "simple" / name, tmp_path / "moved" / "simple" / name, (-2.0, 0.5),
                       279.4) == 1


def test_only_files_with_back_pages_are_told_the_offset(simple_deck, tmp_path):
    from deckpress.builder.deckbuild import deck_jobs
    from deckpress.builder.plan import Options
    from deckpress.errors import Warnings
    from deckpress.builder.faces import compose_faces
    from deckpress.model import load_deck
    faces = compose_faces(load_deck(simple_deck), Warnings())
    jobs = deck_jobs(faces, tmp_path, ["a4"], ["color"], Warnings(),
                     Options(formats=("pdf", "gutterfold"), marking=Marking(back_offset=OFFSET)))
    told = {job.path.name: job.info.marking.back_offset for job in jobs}
    assert told == {"simple-cards-a4.pdf": (0.0, 0.0), "simple-backs-a4.pdf": OFFSET,
                    "simple-duplex-a4.pdf": OFFSET, "simple-box-a4.pdf": (0.0, 0.0),
                    "simple-gutterfold-a4.pdf": (0.0, 0.0)}


# --- values in, the same values out ---------------------------------------------------------------

def test_furniture_values_are_drawn_where_they_say_and_a_shift_moves_them(tmp_path):
    from deckpress.backends.pdfpages import write_document
    from deckpress.imposition.document import DocInfo
    from deckpress.imposition.furniture import Block, FurniturePage, Rule, Words

    items = (Block((10.0, 20.0, 60.0, 21.6)), Rule((30.0, 40.0, 30.0, 90.0), 0.5),
             Words("hello", 100.0, 150.0, 12.0, "sans-bold", "centre"))
    pages = [FurniturePage((210.0, 297.0), items), FurniturePage((210.0, 297.0), items, shift=(1.5, -2.0))]
    path = write_document(tmp_path / "values.pdf", pages, DocInfo("t", "a", "s", colors="k"))
    plain, moved = sorted(path_boxes(path, 0)), sorted(path_boxes(path, 1))
    assert plain[0] == pytest.approx((10.0, 20.0, 60.0, 21.6), abs=0.01)  # a fill has no stroke to widen it
    assert plain[1] == pytest.approx((30.0 - 0.5, 40.0 - 0.5, 30.0 + 0.5, 90.0 + 0.5), abs=0.01)
    for p, q in zip(plain, moved, strict=True):
        assert q == pytest.approx((p[0] + 1.5, p[1] - 2.0, p[2] + 1.5, p[3] - 2.0), abs=0.01)
    ((text, box),) = text_lines(path, 0)
    assert text == "hello" and (box[0] + box[2]) / 2 == pytest.approx(100.0, abs=0.3)
    reader = PdfReader(path)
    assert reader.metadata["/Title"] == "t" and "/Duplex" not in reader.trailer["/Root"]["/ViewerPreferences"]


def test_crop_marks_are_drawn_as_their_values_say(tmp_path):
    from deckpress.backends.pdfpages import write_document
    from deckpress.face import Face
    from deckpress.imposition.document import DocInfo, Sheet, furnish
    from deckpress.imposition.furniture import CutMarks
    from deckpress.imposition.sheets import fit_grid, plan_pages
    from tests.pdfread import drawn_paths

    face = Face(63.0, 88.0, 3.0, ())
    (plan,) = plan_pages([face] * 7, fit_grid("a4", 63.0, 88.0), 3.0)
    info = DocInfo("t", "a", "s")
    pages = furnish([Sheet(plan, "page 1/1")], info, 3.0)
    path = write_document(tmp_path / "marks.pdf", pages, info)
    (marks,) = [f for f in pages[0].furniture if isinstance(f, CutMarks)]
    drawn = [d for d in drawn_paths(path, 0) if d.stroked and len(d.subpaths) == len(marks.segments)]
    assert len(drawn) == 2  # white under black
    for d in drawn:
        for sub, (x1, y1, x2, y2) in zip(d.subpaths, marks.segments, strict=True):
            assert sub == [pytest.approx((x1, y1), abs=0.01), pytest.approx((x2, y2), abs=0.01)]
