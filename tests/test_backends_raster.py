"""Faces to pixels: exact sizes, the face where it belongs, and the same pixels as the PDF sheet."""

from __future__ import annotations

import io

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader
from PIL import Image, ImageChops, ImageStat

from deckpress.backends.raster import RasterJob, bleed_box, pixels, png_bytes, render, trim_box
from deckpress.builder.deckbuild import build_deck
from deckpress.builder.faces import compose_faces
from deckpress.colors import RGB
from deckpress.errors import Warnings
from deckpress.face import Face, Paint, Rect
from deckpress.model import load_deck
from tests.pdfread import placements, trim_box_mm
from tests.translucency import HEIGHT, VARIANTS, art_face, assert_blended

RED, BLUE = RGB(1, 0, 0), RGB(0, 0, 1)


def target_face() -> Face:
    """Blue bleed, a red trim: where the red ends is where the trim ends."""
    return Face(63.5, 88.9, 3.0, (Rect(-3, -3, 69.5, 94.9, paint=Paint(fill=BLUE)),
                                  Rect(0, 0, 63.5, 88.9, paint=Paint(fill=RED))))


def red_box(image: Image.Image) -> tuple[int, int, int, int]:
    r, g, b = image.split()
    mask = ImageChops.subtract(r, b).point(lambda v: 255 if v > 128 else 0)
    return mask.getbbox()


@pytest.mark.parametrize("dpi, size", [(300, (821, 1121)), (150, (410, 560)), (72, (197, 269))])
def test_trim_and_bleed_at_a_resolution(dpi, size):
    face = target_face()
    assert pixels(bleed_box(face), dpi) == size
    image, = render([RasterJob(face, bleed_box(face), size)])
    assert image.size == size
    x0, y0, x1, y1 = red_box(image)
    bleed_px = 3.0 / 25.4 * dpi
    assert abs(x0 - bleed_px) <= 1 and abs(y0 - bleed_px) <= 1
    assert abs((x1 - x0) - 63.5 / 25.4 * dpi) <= 1 and abs((y1 - y0) - 88.9 / 25.4 * dpi) <= 1


def test_an_odd_canvas_is_exact_and_keeps_the_scale():
    """A vendor canvas is not exactly the box's aspect; the pixels must still be exact, and the
    trim keep its true size at the canvas's resolution."""
    face = target_face()
    box = (-3.048, -3.048, 66.548, 91.948)  # 822 × 1122 px at 300 dpi
    image, = render([RasterJob(face, box, (822, 1122))])
    assert image.size == (822, 1122)
    x0, y0, x1, y1 = red_box(image)
    assert abs((x1 - x0) - 750) <= 1 and abs((y1 - y0) - 1050) <= 1
    assert abs(x0 - (822 - x1)) <= 1 and abs(y0 - (1122 - y1)) <= 1  # centred


def test_files_are_written_the_same_in_parallel_and_alone(tmp_path):
    deck = load_deck("metronome")
    faces = list(dict.fromkeys(f for pairs in compose_faces(deck, Warnings()).sides.values() for pair in pairs
                               for f in pair if f is not None))[:24]
    jobs = [RasterJob(f, trim_box(f), pixels(trim_box(f), 60), tmp_path / "a" / f"{i}.png", 60)
            for i, f in enumerate(faces)]
    render(jobs, workers=2)
    alone = [RasterJob(j.face, j.box, j.size, tmp_path / "b" / j.path.name, 60) for j in jobs]
    render(alone, workers=1)
    for job in jobs:
        assert job.path.read_bytes() == (tmp_path / "b" / job.path.name).read_bytes()
    assert Image.open(jobs[0].path).info["dpi"] == pytest.approx((60, 60), abs=0.01)


def test_a_png_shows_what_the_printed_sheet_shows(tmp_path):
    """The first card of the metronome sheet, cut out of the page rendered by pdfium, against
    the same face rasterised on its own: the same pixels up to antialiasing at the edges."""
    build_deck("metronome", tmp_path, ["a4"], ["color"])
    doc = pdfium.PdfDocument(str(tmp_path / "metronome" / "metronome-cards-a4.pdf"))
    dpi = 150
    page = doc[0]
    sheet = page.render(scale=dpi / 72).to_pil().convert("RGB")
    pdf_page = PdfReader(str(tmp_path / "metronome" / "metronome-cards-a4.pdf")).pages[0]
    first = placements(pdf_page)[0]
    x0, y0, _, _ = trim_box_mm(first, 63.5, 88.9, float(pdf_page.mediabox.height))
    deck = load_deck("metronome")
    face = compose_faces(deck, Warnings()).sides["cards"][0][0]
    # the card's own picture, on the same pixel grid as the page
    px0, py0 = round(x0 / 25.4 * dpi), round(y0 / 25.4 * dpi)
    shift = (px0 * 25.4 / dpi - x0, py0 * 25.4 / dpi - y0)
    w, h = pixels(trim_box(face), dpi)
    box = (shift[0], shift[1], shift[0] + w * 25.4 / dpi, shift[1] + h * 25.4 / dpi)
    own, = render([RasterJob(face, box, (w, h))])
    cut = sheet.crop((px0, py0, px0 + w, py0 + h))
    inner = (4, 4, w - 4, h - 4)  # the trim edge meets a neighbour's bleed on the sheet
    diff = ImageStat.Stat(ImageChops.difference(cut.crop(inner), own.crop(inner)).convert("L")).mean[0]
    assert diff < 1.0, diff
    # and a different card does not match: the comparison can tell cards apart
    other, = render([RasterJob(compose_faces(deck, Warnings()).sides["cards"][30][0], box, (w, h))])
    odd = ImageStat.Stat(ImageChops.difference(cut.crop(inner), other.crop(inner)).convert("L")).mean[0]
    assert odd > 5


@pytest.mark.parametrize("variant", VARIANTS)
def test_translucent_art_in_a_png_is_as_translucent_as_in_the_pdf(tmp_path, variant):
    face = art_face(tmp_path, variant)
    dpi = 150
    job = RasterJob(face, trim_box(face), pixels(trim_box(face), dpi), tmp_path / "card.png", dpi)
    render([job])
    image = Image.open(job.path).convert("RGB")
    assert_blended(lambda x: image.getpixel((round(x / 25.4 * dpi), round(HEIGHT / 2 / 25.4 * dpi))))


def test_png_bytes_hold_exactly_the_pixels_and_the_resolution():
    """Rows with padding after them (pdfium's bitmaps are 4-byte aligned): the padding is left out,
    every pixel is kept, and a strict reader accepts the file (chunk checksums)."""
    w, h, stride = 5, 3, 17  # 15 bytes of pixels and 2 of padding per row
    rows = bytes((x * 37 + y * 11) % 256 for y in range(h) for x in range(stride))
    data = png_bytes(rows, (w, h), stride, 300)
    Image.open(io.BytesIO(data)).verify()
    image = Image.open(io.BytesIO(data))
    assert image.mode == "RGB" and image.size == (w, h)
    assert image.tobytes() == b"".join(rows[y * stride:y * stride + 3 * w] for y in range(h))
    assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)


def test_a_written_png_has_the_pixels_of_the_image_handed_back(tmp_path):
    face = compose_faces(load_deck("metronome"), Warnings()).sides["cards"][0][0]
    size = pixels(bleed_box(face), 100)
    job = RasterJob(face, bleed_box(face), size, tmp_path / "card.png", 100)
    render([job])
    image, = render([RasterJob(face, bleed_box(face), size)])
    written = Image.open(job.path)
    assert written.mode == "RGB" and written.tobytes() == image.tobytes()
    assert len(image.getcolors(1 << 24)) > 100  # a real card: fills, text and antialiased edges


def test_a_shaped_piece_at_its_trim_is_its_shape_and_with_its_bleed_its_shape_grown():
    """A round token's picture at its trim (previews, Tabletop Simulator) is a disc on white paper,
    not its bleed cut square into flats; with its bleed, the disc grown by the bleed."""
    from deckpress.face import Group
    from deckpress.pieceshape import outline, parse_shape

    shape = parse_shape("circle", 30, 30)
    red = Rect(-3, -3, 36, 36, paint=Paint(fill=RGB(0.8, 0.1, 0.1)))
    face = Face(30, 30, 3, (Group((red,), clip_path=outline(shape, 30, 30, grow=3)),), outline=outline(shape, 30, 30))
    dpi = 254  # 10 pixels a mm
    trim, bleed = render([RasterJob(face, trim_box(face), pixels(trim_box(face), dpi), dpi=dpi),
                          RasterJob(face, bleed_box(face), pixels(bleed_box(face), dpi), dpi=dpi)])
    trim, bleed = trim.convert("RGB"), bleed.convert("RGB")
    assert min(trim.getpixel((30, 30))) > 240  # 17 mm from the middle: past the disc, in its bleed
    assert trim.getpixel((150, 2))[1] < 60 and trim.getpixel((2, 150))[1] < 60  # the disc's edge, inside
    assert min(bleed.getpixel((40, 40))) > 240  # past the bleed, at the box's corner
    assert bleed.getpixel((180, 5))[1] < 60  # the bleed's ring, 2.5 mm past the trim's top
