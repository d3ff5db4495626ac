"""Pictures on cards: PNG and JPEG embedded (JPEG untouched), SVG drawn as vectors, grey in low-ink;
WebP, TIFF, GIF, BMP and PSD embedded as they print."""

from __future__ import annotations

import io
import textwrap
from pathlib import Path

import pytest
from PIL import Image as PILImage
from pypdf import PdfReader

from deckpress.api import check
from deckpress.builder.deckbuild import build_deck
from deckpress.errors import display_path
from tests.conftest import lowres_art, LOWRES_DECK, LOWRES_LAYOUT
from tests.pdfread import fonts, xobjects

SVG = b"""<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50" viewBox="0 0 100 50">
<rect x="0" y="0" width="100" height="50" fill="#1a7f37"/><circle cx="50" cy="25" r="20" fill="#ffcc00"/></svg>"""

LAYOUT = """
    templates:
      front:
        fields: {art: ~}
        elements:
          - image: {src: "{art}", x: 5mm, y: 5mm, w: 40mm, h: 40mm, fit: contain}
"""

DECK = """
    id: pics
    title: Pictures
    designer: Test
    license: CC0-1.0
    layouts: [pics]
    components:
      - name: pics
        front: front
        cards:
          - {art: art/photo.jpg}
          - {art: art/logo.png}
          - {art: art/vector.svg}
"""


def encoded(fmt: str) -> bytes:
    buf = io.BytesIO()
    image = PILImage.new("RGB", (64, 48), (30, 120, 200) if fmt == "JPEG" else (200, 60, 30))
    image.save(buf, format=fmt, quality=90) if fmt == "JPEG" else image.save(buf, format=fmt)
    return buf.getvalue()


@pytest.fixture
def built(make_deck, tmp_path):
    folder = make_deck(DECK, {"pics": LAYOUT}, {"art/photo.jpg": encoded("JPEG"), "art/logo.png": encoded("PNG"),
                                                 "art/vector.svg": SVG})
    build_deck(folder, tmp_path / "out", ["a4"])
    return tmp_path / "out" / "pics", folder


def images(path):
    return list(xobjects(PdfReader(path), "/Image"))


def test_jpeg_passes_through_and_svg_stays_vector(built):
    out, folder = built
    found = images(out / "pics-cards-a4.pdf")
    assert len(found) == 2  # the SVG is drawn as paths, not embedded as a picture
    jpeg = next(i for i in found if i["/Filter"] == "/DCTDecode")
    assert jpeg._data == (folder / "art" / "photo.jpg").read_bytes()
    assert {i["/ColorSpace"] for i in found} == {"/DeviceRGB"}


def test_low_ink_turns_pictures_grey(built):
    out, _ = built
    found = images(out / "pics-cards-lowink-a4.pdf")
    assert len(found) == 2 and {i["/ColorSpace"] for i in found} == {"/DeviceGray"}


def test_svg_art_brings_no_unembedded_font(built):
    out, _ = built
    found = fonts(PdfReader(out / "pics-cards-a4.pdf"))
    assert found and all(found.values()) and not any("Helvetica" in name for name in found), found


# --- pictures printed below 300 dpi ----------------------------------------------------------------

def line_of(path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


def test_pictures_below_300_dpi_are_warned_about_once_at_the_line_that_placed_them(lowres_deck):
    result = check(lowres_deck)
    deck, layout = lowres_deck / "deck.yaml", lowres_deck / "layouts" / "lowres.yaml"
    assert [(w.file, w.line, w.kind, w.message) for w in result.warnings] == [
        # named by a card's field: that card's line; fruit.png again on a later card: not said again
        (display_path(deck), line_of(deck, "art/fruit.png}"), "low-resolution",
         "art/fruit.png is 60×80 px, printed 40×53.3 mm: 38 dpi — will look blurred (300 dpi wanted)"),
        # written in the layout: the layout's line; a poker back, the square SVG 63.5 mm wide, its quarter
        # 31.75 mm square, where the 60×80 px picture keeps its proportions (SVG's preserveAspectRatio)
        (display_path(layout), line_of(layout, "art/board.svg"), "low-resolution",
         "a picture inside art/board.svg is 60×80 px, printed 23.8×31.8 mm: 64 dpi — will look blurred "
         "(300 dpi wanted)"),
        (display_path(deck), line_of(deck, "art/fruit.jpg"), "low-resolution",
         "art/fruit.jpg is 60×80 px, printed 40×53.3 mm: 38 dpi — will look blurred (300 dpi wanted)"),
        (display_path(deck), line_of(deck, "art/soft.png"), "low-resolution",
         "art/soft.png is 400×500 px, printed 40×53.3 mm: 238 dpi — may look soft (300 dpi wanted)"),
    ]  # sharp.png, 480×640 px at 40×53.3 mm, is 305 dpi


@pytest.mark.parametrize("name, fmt", [("fruit.webp", "WEBP"), ("fruit.tif", "TIFF"), ("fruit.gif", "GIF"),
                                       ("fruit.bmp", "BMP"), ("fruit.psd", None)])
def test_a_low_resolution_picture_of_any_format_is_warned_about_at_its_card(make_deck, name, fmt):
    from tests.pictureformats import psd

    picture = PILImage.new("RGB", (60, 80), (200, 60, 30))
    data = psd(picture) if fmt is None else encoded_as(picture, fmt)
    folder = make_deck(DECK.split("        cards:")[0] + f"        cards:\n          - {{art: art/{name}}}\n",
                       {"pics": LAYOUT}, {f"art/{name}": data})
    deck = folder / "deck.yaml"
    assert [(w.line, w.kind, w.message) for w in check(folder).warnings] == [
        (line_of(deck, name), "low-resolution",
         f"art/{name} is 60×80 px, printed 30×40 mm: 51 dpi — will look blurred (300 dpi wanted)")]


def encoded_as(picture: PILImage.Image, fmt: str) -> bytes:
    buf = io.BytesIO()
    picture.save(buf, format=fmt)
    return buf.getvalue()


def test_a_picture_printed_smaller_is_sharper_and_cover_counts_what_is_printed(make_deck):
    layout = LOWRES_LAYOUT.replace("w: 40mm, h: 53.3mm, fit: stretch", "w: 5mm, h: 6.7mm, fit: stretch")
    folder = make_deck(LOWRES_DECK, {"lowres": layout}, lowres_art())
    assert [w.message for w in check(folder).warnings if "fruit" in w.message] == []  # 60 px over 5 mm: 305 dpi
    # `cover` fills 40 × 20 mm with a 60 × 80 px picture: printed 40 × 53.3 mm, clipped
    (folder / "layouts" / "lowres.yaml").write_text(textwrap.dedent(layout.replace(
        "w: 5mm, h: 6.7mm, fit: stretch", "w: 40mm, h: 20mm, fit: cover")), encoding="utf-8")
    assert "art/fruit.png is 60×80 px, printed 40×53.3 mm: 38 dpi" in " ".join(check(folder).warnings.messages)


def test_a_build_warns_as_the_check_does_and_prints_the_picture_inside_the_svg(lowres_deck, tmp_path):
    checked = check(lowres_deck).warnings.messages
    result = build_deck(lowres_deck, tmp_path / "out", ["a4"], ["color"])
    assert result.warnings.messages == checked
    backs = tmp_path / "out" / "lowres" / "lowres-backs-a4.pdf"
    assert any(i["/Width"] == 60 and i["/Height"] == 80 for i in images(backs))  # the SVG's picture, drawn


def test_svg_art_holding_a_picture_builds_in_every_format(lowres_deck, tmp_path):
    """An SVG with a raster inside passed check and then crashed every PDF, PNG and TTS build: each
    now builds, and the PNG of the back shows the picture's red where the SVG puts it."""
    from deckpress import api

    result, = api.build(lowres_deck, tmp_path, papers="a4", inks="color", formats="pdf,png,tts")
    kinds = {o.path.suffix for o in result.outputs}
    assert {".pdf", ".png", ".json"} <= kinds
    back = next(o.path for o in result.outputs if o.path.suffix == ".png" and "back" in o.path.name)
    with PILImage.open(back) as image:
        at = lambda mm: round((3 + mm) / 25.4 * 300)  # noqa: E731 — the PNG holds the 3 mm bleed round the card
        # the SVG is square, so it sits 12.7 mm down on the card; its picture fills its top-left quarter
        red = image.convert("RGB").getpixel((at(10), at(25)))
    assert red[0] > 150 and red[1] < 100 and red[2] < 80, red


def test_the_same_deck_in_another_folder_prints_the_same_bytes(make_deck, tmp_path):
    """Pictures, the deck's own font and the font subsets are named by what they are, never by
    where their files lie or when they were touched: a copy of the deck elsewhere (another
    checkout, another user's machine) builds byte for byte the same files."""
    import os
    import shutil

    from deckpress.text.fonts import FontSet

    font = FontSet().families["sans"].files["italic"]
    deck = DECK.replace("layouts: [pics]", "layouts: [pics]\n    fonts:\n      hand: {regular: fonts/Hand.ttf}")
    layout = LAYOUT + "          - text: {text: Übung macht, x: 5mm, y: 50mm, w: 50mm, h: 8mm, font: hand}\n"
    folder = make_deck(deck, {"pics": layout}, {"art/photo.jpg": encoded("JPEG"), "art/logo.png": encoded("PNG"),
                                                "art/vector.svg": SVG, "fonts/Hand.ttf": open(font, "rb").read()})
    elsewhere = tmp_path / "somewhere" / "else" / "pics-copy"
    shutil.copytree(folder, elsewhere)
    for path in elsewhere.rglob("*"):
        os.utime(path, ns=(1, 1))  # touched at another time, as a fresh checkout is
    first, second = (build_deck(where, tmp_path / name, ["a4"], ["color"])
                     for where, name in ((folder, "one"), (elsewhere, "two")))
    names = sorted(o.path.name for o in first.outputs)
    assert names == sorted(o.path.name for o in second.outputs) and names
    for a, b in zip(sorted(o.path for o in first.outputs), sorted(o.path for o in second.outputs)):
        assert a.read_bytes() == b.read_bytes(), a.name


# --- every raster format a designer exports ---------------------------------------------------------

FORMATS_LAYOUT = """
    templates:
      front:
        fields: {art: ~}
        elements:
          - rect: {x: -bleed, y: -bleed, w: 100% + 2*bleed, h: 100% + 2*bleed, fill: "#2040c0", ink: keep}
          - image: {src: "{art}", x: 5mm, y: 10mm, w: 100% - 10mm, h: 50mm, fit: stretch, ink: keep}
"""
BLUE = (32, 64, 192)  # the card under the pictures
LEFT, RIGHT, GROUND = (5 + 53.5 / 4, 35), (5 + 53.5 * 3 / 4, 35), (31.75, 75)  # mm on the poker card


def format_pictures() -> list[tuple[str, bytes, tuple, tuple, tuple | None]]:
    """(file, bytes, what the PDF holds: (width, height, colour space, bits, soft mask), the left
    half's colour, the right half's: None where the card shows through). Each picture is its own
    width, so its image XObject is told apart by it; colours as an RGB screen shows them."""
    from tests.pictureformats import halves, psd, save, tiff16

    red, green, orange, purple = (210, 40, 40), (30, 160, 60), (240, 140, 20), (120, 40, 160)
    clear = (0, 0, 0, 0)
    animated_gif = [PILImage.new("RGB", (70, 60), (20, 60, 200)), PILImage.new("RGB", (70, 60), red)]
    pages = [PILImage.new("RGB", (72, 60), orange), PILImage.new("RGB", (72, 60), purple)]
    # stored turned a quarter left, its EXIF orientation 6 saying to turn it right: red on the left as shown
    turned = halves((74, 60), red, green).transpose(PILImage.Transpose.ROTATE_90)
    sticker = halves((86, 60), 1, 0, "P")  # a palette picture, colour 0 its clear one
    sticker.putpalette([0, 0, 0, 240, 200, 20])
    exif = PILImage.Exif()
    exif[0x0112] = 6
    return [
        ("art/photo.webp", save(PILImage.new("RGB", (64, 60), red), "WEBP", quality=95),
         (64, 60, "/DeviceRGB", 8, False), red, red),
        ("art/cutout.webp", save(halves((66, 60), (*green, 255), clear, "RGBA"), "WEBP", lossless=True),
         (66, 60, "/DeviceRGB", 8, True), green, None),
        ("art/moving.webp", save(PILImage.new("RGB", (68, 60), orange), "WEBP", lossless=True, save_all=True,
                                 append_images=[PILImage.new("RGB", (68, 60), purple)], duration=100),
         (68, 60, "/DeviceRGB", 8, False), orange, orange),
        ("art/moving.gif", save(animated_gif[0], "GIF", save_all=True, append_images=animated_gif[1:], duration=100),
         (70, 60, "/DeviceRGB", 8, False), (20, 60, 200), (20, 60, 200)),
        ("art/pages.tif", save(pages[0], "TIFF", save_all=True, append_images=pages[1:]),
         (72, 60, "/DeviceRGB", 8, False), orange, orange),
        ("art/turned.tif", save(turned, "TIFF", exif=exif), (74, 60, "/DeviceRGB", 8, False), red, green),
        ("art/inks.tif", save(PILImage.new("CMYK", (76, 60), (0, 200, 200, 0)), "TIFF", compression="tiff_lzw"),
         (76, 60, "/DeviceCMYK", 8, False), (255, 55, 55), (255, 55, 55)),
        ("art/deep.tif", tiff16((78, 60), (60000, 30000, 1000)), (78, 60, "/DeviceRGB", 8, False),
         (233, 116, 4), (233, 116, 4)),
        ("art/grey16.tif", save(PILImage.new("I;16", (80, 60), 40000), "TIFF"), (80, 60, "/DeviceGray", 8, False),
         (156, 156, 156), (156, 156, 156)),
        ("art/float.tif", save(PILImage.new("F", (82, 60), 0.25), "TIFF"), (82, 60, "/DeviceGray", 8, False),
         (64, 64, 64), (64, 64, 64)),
        ("art/lines.tif", save(halves((84, 60), 0, 1, "1"), "TIFF", compression="group4"),
         (84, 60, "/DeviceGray", 1, False), (0, 0, 0), (255, 255, 255)),
        ("art/sticker.gif", save(sticker, "GIF", transparency=0),
         (86, 60, "/DeviceRGB", 8, True), (240, 200, 20), None),
        ("art/plain.bmp", save(PILImage.new("RGB", (88, 60), (120, 60, 20)), "BMP"), (88, 60, "/DeviceRGB", 8, False),
         (120, 60, 20), (120, 60, 20)),
        ("art/lines.bmp", save(halves((90, 60), 1, 0, "1"), "BMP"), (90, 60, "/DeviceGray", 1, False),
         (255, 255, 255), (0, 0, 0)),
        ("art/flat.psd", psd(PILImage.new("RGB", (92, 60), (90, 30, 150)), layer=(0, 200, 0)),
         (92, 60, "/DeviceRGB", 8, False), (90, 30, 150), (90, 30, 150)),
        ("art/see-through.psd", psd(halves((94, 60), (255, 0, 0, 128), clear, "RGBA"), alpha="merged"),
         (94, 60, "/DeviceRGB", 8, True), (143, 32, 96), None),  # half red over the blue card
        ("art/saved-channel.psd", psd(halves((96, 60), (30, 160, 60, 0), (30, 160, 60, 0), "RGBA"), alpha="saved"),
         (96, 60, "/DeviceRGB", 8, False), green, green),
        ("art/inks.psd", psd(PILImage.new("CMYK", (98, 60), (0, 0, 255, 0)), rle=False),
         (98, 60, "/DeviceCMYK", 8, False), (255, 255, 0), (255, 255, 0)),
    ]


def format_deck(make_deck) -> Path:
    pictures = format_pictures()
    cards = "".join(f"          - {{art: {name}}}\n" for name, *_ in pictures)
    return make_deck(DECK.split("        cards:")[0] + "        cards:\n" + cards, {"pics": FORMATS_LAYOUT},
                     {name: data for name, data, *_ in pictures})


def faces_on_pages(pdf: Path, dpi: int = 50) -> list[tuple[PILImage.Image, tuple[float, float]]]:
    """Each card face of a PDF in order: its page rendered by pdfium, and the card's top-left in mm."""
    import pypdfium2 as pdfium

    from tests.pdfread import placements, trim_box_mm

    found = []
    document = pdfium.PdfDocument(str(pdf))
    for index, page in enumerate(PdfReader(pdf).pages):
        rendered = document[index].render(scale=dpi / 72).to_pil().convert("RGB")
        height = float(page.mediabox.height)
        for placed in placements(page):
            x0, y0, _, _ = trim_box_mm(placed, 63.5, 88.9, height)
            found.append((rendered, (x0, y0)))
    document.close()
    return found


def colour_on(face: tuple[PILImage.Image, tuple[float, float]], at_mm: tuple[float, float], dpi: int = 50) -> tuple:
    page, (x0, y0) = face
    return page.getpixel((round((x0 + at_mm[0]) / 25.4 * dpi), round((y0 + at_mm[1]) / 25.4 * dpi)))


def close(found, wanted, tolerance: int = 10) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(found, wanted))


def luma(rgb) -> int:
    return PILImage.new("RGB", (1, 1), tuple(rgb)).convert("L").getpixel((0, 0))


@pytest.fixture
def formats_built(make_deck, tmp_path):
    folder = format_deck(make_deck)
    result = build_deck(folder, tmp_path / "out", ["a4"], ["color", "lowink"])
    return tmp_path / "out" / "pics", result


def test_every_raster_format_is_embedded_as_it_prints(formats_built):
    """WebP (lossy, lossless with alpha, animated), TIFF (several pages, turned by EXIF, CMYK,
    16-bit RGB and grey, float, 1-bit), GIF (animated, palette with a clear colour), BMP (24- and
    1-bit) and PSD (the composite, not its layer; its merged transparency; a saved alpha channel
    that is no transparency; CMYK): each is one image XObject of its pixels, in its colour space,
    with a soft mask where it lets the card show through, and prints its first frame's colours."""
    out, result = formats_built
    pdf = out / "pics-cards-a4.pdf"
    embedded = {int(x["/Width"]): x for x in images(pdf)}
    pictures = format_pictures()
    assert len(embedded) == len(pictures)
    for (name, _, (width, height, space, bits, masked), left, right), face in zip(pictures, faces_on_pages(pdf)):
        image = embedded[width]
        assert (image["/Height"], image["/ColorSpace"], image["/BitsPerComponent"], "/SMask" in image) == \
            (height, space, bits, masked), name
        if space == "/DeviceCMYK":  # the inks themselves; pdfium shows them as Adobe's conversion does
            assert image.get_data()[:4] == bytes(CMYK_INKS[name]), name
            left = right = CMYK_SHOWN[name]
        assert close(colour_on(face, LEFT), left), (name, colour_on(face, LEFT), left)
        assert close(colour_on(face, RIGHT), right or BLUE), (name, colour_on(face, RIGHT), right)
        assert close(colour_on(face, GROUND), BLUE)


CMYK_INKS = {"art/inks.tif": (0, 200, 200, 0), "art/inks.psd": (0, 0, 255, 0)}
HALF_CLEAR = {"art/see-through.psd": (255, 0, 0)}  # its left half: this colour, half transparent
CMYK_SHOWN = {"art/inks.tif": (241, 93, 65), "art/inks.psd": (255, 242, 0)}  # pdfium's RGB of those inks


def test_every_raster_format_prints_in_greys_in_low_ink(formats_built):
    out, _ = formats_built
    pdf = out / "pics-cards-lowink-a4.pdf"
    found = images(pdf)
    assert len(found) == len(format_pictures()) and {x["/ColorSpace"] for x in found} == {"/DeviceGray"}
    for (name, *_, left, right), face in zip(format_pictures(), faces_on_pages(pdf)):
        ground = colour_on(face, GROUND)  # the card, black ink only (pdfium shows K a little blue)
        assert close(ground, [ground[0]] * 3, 4) and ground[0] < 200, ground
        for at, colour in ((LEFT, left), (RIGHT, right)):
            seen = colour_on(face, at)
            if colour is None:  # the card shows through
                assert close(seen, ground, 3), (name, at, seen, ground)
            elif name in HALF_CLEAR and at == LEFT:  # its own grey over the card's, half and half
                assert close(seen, [(luma(HALF_CLEAR[name]) + g) / 2 for g in ground], 4), (name, seen)
            else:
                assert seen[0] == seen[1] == seen[2] and close(seen, [luma(colour)] * 3, 12), (name, at, seen, colour)


def test_every_raster_format_is_separated_in_a_cmyk_build(make_deck, tmp_path):
    """In a CMYK build every picture is in process inks, its soft mask (a GIF's clear colour, a
    PSD's or WebP's transparency) kept apart, as a CMYK picture cannot hold one."""
    import deckpress

    result, = deckpress.build(format_deck(make_deck), tmp_path, papers="a4", inks="color", color="cmyk")
    pdf, = (o.path for o in result.outputs if o.path.name == "pics-cards-cmyk-a4.pdf")
    found = images(pdf)
    assert len(found) == len(format_pictures()) and {x["/ColorSpace"] for x in found} == {"/DeviceCMYK"}
    assert sum("/SMask" in x for x in found) == sum(masked for _, _, (*_, masked), _, _ in format_pictures()) == 3
