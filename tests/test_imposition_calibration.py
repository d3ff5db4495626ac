"""The calibration sheet, read back from its PDF: true bars, targets every printer reaches, scales
behind the targets under the long-edge mirror, and a reading that is the back offset to give,
checked by printing the back page "wrong" on purpose and reading where the pin hole falls."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest
from pypdf import PdfReader, PdfWriter, Transformation

from deckpress.backends.pdfpages import write_document
from deckpress.imposition.calibration import (BAR_HEIGHT, NUMBER_SIZE, behind, calibration_info, calibration_pages,
                                          scale_position, scale_values, targets)
from deckpress.imposition.sheets import PAPERS

from .pdfread import MM, page_text

Box = tuple[float, float, float, float]  # left, top, right, bottom: mm from the page's top-left


@dataclass
class Drawn:
    paths: list[Box]
    texts: list[tuple[str, float, Box]]  # text, size in pt, box


def drawn(pdf_file, index: int) -> Drawn:
    """Every path and text object on a page, in mm from its top-left corner. Stroked paths' boxes
    reach a full line width past the line on each side: their centres are exact."""
    pdf = pdfium.PdfDocument(pdf_file)
    page = pdf[index]
    height = page.get_height()
    textpage = page.get_textpage()
    out = Drawn([], [])
    for obj in page.get_objects(max_depth=3, textpage=textpage):
        left, bottom, right, top = obj.get_bounds()
        box = (left / MM, (height - top) / MM, right / MM, (height - bottom) / MM)
        if obj.type == raw.FPDF_PAGEOBJ_PATH:
            out.paths.append(box)
        elif obj.type == raw.FPDF_PAGEOBJ_TEXT:
            a, b, _, _, _, _ = obj.get_matrix().get()
            out.texts.append((obj.extract().strip(), obj.get_font_size() * (a * a + b * b) ** 0.5, box))
    pdf.close()
    return out


def write_calibration(path: Path, paper: str, back_offset: tuple[float, float] = (0.0, 0.0)) -> Path:
    """What `deckpress calibrate` writes."""
    return write_document(path, calibration_pages(paper, back_offset), calibration_info(paper))


def mid(a: float, b: float) -> float:
    return (a + b) / 2


@pytest.fixture(scope="module", params=list(PAPERS))
def sheet(request, tmp_path_factory) -> tuple[str, Path]:
    paper = request.param
    return paper, write_calibration(tmp_path_factory.mktemp("cal") / f"calibrate-{paper}.pdf", paper)


def test_two_pages_at_actual_size_for_long_edge_duplex(sheet):
    paper, path = sheet
    reader = PdfReader(path)
    assert len(reader.pages) == 2
    W, H = PAPERS[paper]
    for page in reader.pages:
        assert [float(v) / MM for v in page.mediabox] == pytest.approx([0, 0, W, H], abs=0.001)
    prefs = reader.trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/PrintScaling"] == "/None" and prefs["/Duplex"] == "/DuplexFlipLongEdge"


def test_rebuilding_gives_the_same_bytes_and_leaves_no_temporary_file(sheet, tmp_path):
    paper, path = sheet
    again = write_calibration(tmp_path / "again.pdf", paper)
    assert again.read_bytes() == path.read_bytes()
    assert [p.name for p in tmp_path.iterdir()] == ["again.pdf"]


def test_the_bars_measure_50_mm_and_2_in(sheet):
    _, path = sheet
    paths = drawn(str(path), 0).paths
    bars = sorted((b for b in paths if abs(b[3] - b[1] - BAR_HEIGHT) < 0.01 and b[2] - b[0] > 40),
                  key=lambda b: b[1])
    assert [round(b[2] - b[0], 2) for b in bars] == [50.00, 50.80]
    for bar, step, count in zip(bars, (1.0, 25.4 / 8), (51, 17)):
        # the ticks hang from the bar, a step apart, the end ones inside its ends: the drawing is exactly as long
        ticks = sorted(b for b in paths if b[1] == pytest.approx(bar[3], abs=0.001) and b[2] - b[0] < 0.2)
        assert len(ticks) == count
        assert ticks[0][0] == pytest.approx(bar[0], abs=0.001) and ticks[-1][2] == pytest.approx(bar[2], abs=0.001)
        centres = [mid(t[0], t[2]) for t in ticks[1:-1]]
        assert [c - bar[0] for c in centres] == pytest.approx([step * i for i in range(1, count - 1)], abs=0.001)
    text = page_text(path, 0)
    assert "must measure exactly 50 mm" in text and "must measure exactly 2 in" in text


def crosses(paths: list[Box]) -> list[tuple[float, float]]:
    """The front targets' centres: where a horizontal arm (14 mm, plus its stroke) meets a vertical one."""
    arms = [b for b in paths if 14.0 < b[2] - b[0] < 14.6 and b[3] - b[1] < 0.5]
    upright = [b for b in paths if 14.0 < b[3] - b[1] < 14.6 and b[2] - b[0] < 0.5]
    found = []
    for h in arms:
        y = mid(h[1], h[3])
        (v,) = [v for v in upright if abs(mid(v[1], v[3]) - y) < 0.01 and abs(mid(v[0], v[2]) - mid(h[0], h[2])) < 0.01]
        found.append((mid(v[0], v[2]), y))
    return sorted(found)


def test_targets_sit_at_the_centre_and_near_each_corner(sheet):
    paper, path = sheet
    W, H = PAPERS[paper]
    found = crosses(drawn(str(path), 0).paths)
    assert len(found) == 5
    for point, expected in zip(found, sorted(targets((W, H)))):
        assert point == pytest.approx(expected, abs=0.01)
    assert targets((W, H))[0] == (W / 2, H / 2)


def test_everything_is_at_least_15_mm_inside_the_paper(sheet):
    paper, path = sheet
    W, H = PAPERS[paper]
    for index in (0, 1):
        page = drawn(str(path), index)
        for box in page.paths + [box for _, _, box in page.texts]:
            assert box[0] >= 15 and box[1] >= 15 and box[2] <= W - 15 and box[3] <= H - 15, (index, box)


def test_every_number_and_word_is_at_least_6_pt(sheet):
    _, path = sheet
    for index in (0, 1):
        sizes = {size for _, size, _ in drawn(str(path), index).texts}
        assert min(sizes) >= 6.0 and NUMBER_SIZE >= 6.0


def zero_lines(paths: list[Box]) -> tuple[list[Box], list[Box]]:
    """The black lines for 0 on the back: the square (10 mm) and 1.5 mm past it each way."""
    upright = [b for b in paths if 12.9 < b[3] - b[1] < 13.4 and b[2] - b[0] < 0.5]
    across = [b for b in paths if 12.9 < b[2] - b[0] < 13.4 and b[3] - b[1] < 0.5]
    return upright, across


@pytest.mark.parametrize("offset", [(0.0, 0.0), (1.3, -2.2)])
def test_each_scales_zero_is_behind_its_front_cross(offset, tmp_path):
    """Turned over on its long edge, the sheet takes the front's x to W - x: each back square's 0
    lines cross exactly there. A page printed with an offset keeps its 0s there too (the page moves
    by the offset and its numbers by minus the offset)."""
    for paper, (W, H) in PAPERS.items():
        path = write_calibration(tmp_path / f"{paper}.pdf", paper, offset)
        fronts = crosses(drawn(str(path), 0).paths)
        upright, across = zero_lines(drawn(str(path), 1).paths)
        assert len(upright) == len(across) == len(fronts) == 5
        for x, y in fronts:
            bx, by = behind((x, y), (W, H))
            assert bx == pytest.approx(W - x)
            # one line for X = 0 through the spot, one for Y = 0 (the others belong to other targets)
            assert len([v for v in upright if abs(mid(v[0], v[2]) - bx) < 0.01 and v[1] < by < v[3]]) == 1
            assert len([h for h in across if abs(mid(h[1], h[3]) - by) < 0.01 and h[0] < bx < h[2]]) == 1


# --- reading the scales ------------------------------------------------------------------------

def back_printed(path: Path, how: Transformation) -> bytes:
    """A one-page PDF of the sheet's back page drawn through `how` (PDF points, y up): what a
    printer that misplaces the back that way puts on the paper."""
    writer = PdfWriter()
    writer.add_page(PdfReader(path).pages[1])
    writer.pages[0].add_transformation(how)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def printed_with_error(path: Path, error: tuple[float, float]) -> bytes:
    """The back page as a printer that lands it `error` mm off (right, down as seen on the back)
    would print it: the whole page moved by that much."""
    return back_printed(path, Transformation().translate(error[0] * MM, -error[1] * MM))


def read_scales(pdf_bytes: bytes, hole: tuple[float, float]) -> tuple[float, float]:
    """What a person reads at a pin hole at `hole` (page mm): on the square round it, the two
    numbered lines either side of the hole each way and the hole's place between them.

    Lines are the grid's (10 mm long, or 13 mm for 0); each number belongs to the line it is
    centred on (numbers are 1 mm apart, so the nearest line is theirs)."""
    page = drawn(pdf_bytes, 0)
    hx, hy = hole
    near = [b for b in page.paths if abs(mid(b[0], b[2]) - hx) < 12 and abs(mid(b[1], b[3]) - hy) < 12]
    upright = [b for b in near if 9.9 < b[3] - b[1] < 13.4 and b[2] - b[0] < 0.5]
    across = [b for b in near if 9.9 < b[2] - b[0] < 13.4 and b[3] - b[1] < 0.5]
    top, bottom = min(b[1] for b in upright), max(b[3] for b in upright)
    left, right = min(b[0] for b in across), max(b[2] for b in across)
    numbers = [(float(text), box) for text, _, box in page.texts if re.fullmatch(r"-?\d+", text)
               and abs(mid(box[0], box[2]) - hx) < 14 and abs(mid(box[1], box[3]) - hy) < 14]
    xs = [mid(b[0], b[2]) for b in upright]
    ys = [mid(b[1], b[3]) for b in across]
    x_numbered = {min(xs, key=lambda x: abs(x - mid(box[0], box[2]))): value for value, box in numbers
                  if box[3] <= top + 1.6 or box[1] >= bottom - 1.6}  # above or below the square
    y_numbered = {min(ys, key=lambda y: abs(y - mid(box[1], box[3]))): value for value, box in numbers
                  if box[2] <= left + 1.6 or box[0] >= right - 1.6}  # left or right of it
    # every millimetre numbered, each once: 11 numbers, or 10 when the scale's middle is a half
    assert len(x_numbered) >= 10 and len(y_numbered) >= 10
    assert len(set(x_numbered.values())) == len(x_numbered) and len(set(y_numbered.values())) == len(y_numbered)
    return _between(x_numbered, hx), _between(y_numbered, hy)


def _between(numbered: dict[float, float], at: float) -> float:
    lines = sorted(numbered)
    below = max(p for p in lines if p <= at + 1e-9)
    above = min(p for p in lines if p > below)
    assert numbered[above] - numbered[below] == 1  # neighbouring numbers one millimetre apart
    return numbered[below] + (at - below) / (above - below)


@pytest.mark.parametrize("offset, error", [
    ((0.0, 0.0), (0.0, 0.0)), ((0.0, 0.0), (1.5, -0.75)), ((0.0, 0.0), (-2.3, 3.1)),
    ((1.5, -0.75), (-1.5, 0.75)), ((1.5, -0.75), (-1.2, 0.25)), ((-3.0, 4.5), (0.4, -2.6)),
])
def test_the_number_at_the_pin_hole_is_the_offset_to_give(tmp_path, offset, error):
    """Print the back `error` mm off (as seen on the back) with `offset` already in use: at every
    target, the scales read -error, the offset that puts the back right, whatever the offset was."""
    path = write_calibration(tmp_path / "calibrate-a4.pdf", "a4", offset)
    printed = printed_with_error(path, error)
    W, H = PAPERS["a4"]
    for target in targets(PAPERS["a4"]):
        hole = behind(target, (W, H))  # the pin goes straight through the paper
        assert read_scales(printed, hole) == pytest.approx((-error[0], -error[1]), abs=0.01), target
    # and that offset, used, gives a back that lands right: printed with it, the error is cancelled
    corrected = tuple(o + e for o, e in zip((-error[0], -error[1]), error))
    assert corrected == pytest.approx((0.0, 0.0))


def test_the_rule_in_numbers():
    """scale_position, for one axis: of all the lines, the one that lands on a true pin hole
    (drawn at its position in the page shifted by the offset, then printed `error` further on)
    is the line of -error."""
    for offset in (0.0, 1.5, -4.0):
        for off_by in (0.0, 0.5, -1.5, 3.0, -4.5, 5.0):  # what to give, against what is in use: at most 5 mm
            error = -(offset + off_by)
            landed = [value for value in scale_values(offset)
                      if abs(scale_position(value, offset) + offset + error) < 1e-9]
            assert landed == [-error]
    assert scale_values(0.0)[0] == -5 and scale_values(0.0)[-1] == 5 and len(scale_values(0.0)) == 21
    assert scale_values(1.3)[10] == 1.5  # the offset in use, to the half millimetre, in the middle


def test_a_turned_back_reads_differently_at_the_corners(tmp_path):
    """Skew shows: a back turned by 0.3° about the page's centre reads 0 at the middle target and
    up to 0.7 mm off at the corners."""
    path = write_calibration(tmp_path / "calibrate-a4.pdf", "a4")
    W, H = PAPERS["a4"]
    cx, cy = W / 2 * MM, H / 2 * MM
    printed = back_printed(path, Transformation().translate(-cx, -cy).rotate(0.3).translate(cx, cy))
    middle, *corners = (read_scales(printed, behind(t, (W, H))) for t in targets((W, H)))
    assert middle == pytest.approx((0.0, 0.0), abs=0.01)
    assert all(max(abs(x), abs(y)) > 0.3 for x, y in corners)


def test_the_back_says_the_offset_in_use_and_how_to_save_a_new_one(tmp_path):
    plain = write_calibration(tmp_path / "plain.pdf", "letter")
    shifted = write_calibration(tmp_path / "shifted.pdf", "letter", (1.3, -2.2))
    words = " ".join(page_text(plain, 1).split())
    assert "No back offset is in use" in words
    assert "deckpress calibrate --back-offset X,Y" in words and "--back-offset 0,0" in words
    words = " ".join(page_text(shifted, 1).split())
    assert "The back offset in use is X = 1.3 mm, Y = -2.2 mm" in words
    assert "deckpress calibrate --back-offset X,Y" in words
    front = " ".join(page_text(plain, 0).split())
    for needed in ("double-sided", "flipping on the long edge", "100 %", "actual size", "pin", "window"):
        assert needed in front
    assert page_text(plain, 0) == page_text(shifted, 0)  # the offset is the back's business


@pytest.mark.parametrize("paper", list(PAPERS))
def test_the_words_keep_off_the_targets_on_every_paper(paper):
    """Read back from the PDF: no line of the title or the instructions comes within 12 mm of a
    target's centre (its cross, or on the back its square of scales), on A5 as on Tabloid."""
    from deckpress.imposition.calibration import targets

    from .pdfread import text_lines

    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = write_calibration(Path(folder) / f"calibrate-{paper}.pdf", paper)
        W, H = PAPERS[paper]
        centres = targets((W, H))
        for index in (0, 1):
            for text, (x0, y0, x1, y1) in text_lines(path, index):
                if re.fullmatch(r"[-\d ,.]+|middle target|X: .*", text) or "this bar" in text or text in ("mm", "in"):
                    continue  # the scales' numbers, the bars and the labels that belong to a target
                for cx, cy in centres:
                    near = x0 < cx + 12 and cx - 12 < x1 and y0 < cy + 12 and cy - 12 < y1
                    assert not near, (paper, index + 1, text, (cx, cy))
