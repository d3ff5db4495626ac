"""Vector art (SVG through svg2pdf, pages of PDFs) as decks print it: the art deck in tests/data/artdeck
(an Inkscape-style card template, a one-colour icon tinted per card, a frame exported as a PDF)
built for real and read back; broken art refused in one line; low-ink art greyed and lightened
as pictures are."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image as PILImage, ImageChops, ImageStat
from pypdf import PdfReader

from deckpress import build, check
from deckpress.face import Face, Image
from deckpress.ink import apply_ink
from deckpress.vectorart import load_art
from tests.pdfread import rgb_left

ARTDECK = Path(__file__).parent / "data" / "artdeck"
MM = 72 / 25.4


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("artdeck")
    build([str(ARTDECK)], out=out, papers=["a4"], inks=["color", "lowink"])
    return out / "artdeck"


def colour_spread(picture: PILImage.Image) -> int:
    """The most any pixel's channels differ from each other: 0 for a picture in greys."""
    r, g, b = picture.convert("RGB").split()
    return max(ImageChops.difference(a, b).getextrema()[1] for a, b in ((r, g), (g, b), (r, b)))


def page_pixels(path: Path, page: int = 0, dpi: int = 72) -> PILImage.Image:
    pdf = pdfium.PdfDocument(str(path))
    try:
        return pdf[page].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        pdf.close()


def test_an_svg_template_is_filled_from_the_card_its_layers_shown_and_hidden(built):
    text = PdfReader(str(built / "artdeck-cards-a4.pdf")).pages[0].extract_text()
    # the SVG's own text, its placeholders filled with each card's fields, set in its own font
    for words in ("Ember", "Cost 3", "Tide", "Cost 2", "two"):
        assert words in text, (words, text)
    assert "{name}" not in text and "{cost}" not in text
    backs = PdfReader(str(built / "artdeck-backs-a4.pdf")).pages[0].extract_text()
    assert "{name}" not in backs and "Ember" not in backs  # the back hides the text layer


def _find(picture: PILImage.Image, colour: tuple[int, int, int], tolerance: int = 30) -> list[tuple[int, int]]:
    pixels = picture.load()
    return [(x, y) for y in range(0, picture.height, 2) for x in range(0, picture.width, 2)
            if all(abs(a - b) <= tolerance for a, b in zip(pixels[x, y], colour))]


def test_each_card_shows_its_own_layer_and_its_icon_in_its_palette_colour(built):
    picture = page_pixels(built / "artdeck-cards-a4.pdf", dpi=50)
    fire, water = (0xe6, 0x39, 0x46), (0xa8, 0xda, 0xdc)
    sun, moss = (0xf4, 0xa2, 0x61), (0x2a, 0x9d, 0x8f)
    found = {name: _find(picture, colour, 12) for name, colour in
             (("fire", fire), ("water", water), ("sun", sun), ("moss", moss))}
    assert all(found.values()), {k: len(v) for k, v in found.items()}
    # the fire layer on the first card, the water layer on the second: each only where its card is
    assert max(x for x, _ in found["fire"]) < min(x for x, _ in found["water"])
    assert max(x for x, _ in found["sun"]) < min(x for x, _ in found["moss"])
    # the shown layer is drawn large (the layer's 32-unit circle), the icon small
    assert len(found["fire"]) > 10 * len(found["sun"])


def test_pdf_art_is_placed_vector_from_the_page_asked_for(built):
    reader = PdfReader(str(built / "artdeck-cards-a4.pdf"))
    text = reader.pages[0].extract_text()
    assert "two" in text and "one" not in text  # page 2 of art/frames.pdf
    orange = _find(page_pixels(built / "artdeck-cards-a4.pdf", dpi=50), (0xe7, 0x6f, 0x51), 15)
    assert len(orange) > 200


def test_low_ink_art_is_black_ink_only(built):
    assert rgb_left(built / "artdeck-cards-lowink-a4.pdf") == []
    picture = page_pixels(built / "artdeck-cards-lowink-a4.pdf", dpi=40)
    assert colour_spread(picture) <= 12  # greys only, as pdfium shows K


@pytest.mark.parametrize("content, said", [
    (b"<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><circle r='3'", "is not well-formed SVG"),
    (b"<svg xmlns='http://www.w3.org/2000/svg'><g></svg>", "is not well-formed SVG"),
    (b"<html><body/></html>", "is not an SVG"),
])
def test_broken_svg_is_one_line_with_exit_status_2(tmp_path, content, said):
    deck = tmp_path / "deck"
    shutil.copytree(ARTDECK, deck)
    (deck / "art" / "icon.svg").write_bytes(content)
    for command in (["check", str(deck)], ["build", str(deck), "--out", str(tmp_path / "out"), "--paper", "a4"]):
        run = subprocess.run([sys.executable, "-m", "deckpress", *command], capture_output=True, text=True)
        assert run.returncode == 2, run.stderr
        lines = run.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in run.stderr, run.stderr
        assert "icon.svg" in lines[0] and said in lines[0] and "artdeck.yaml:" in lines[0], lines[0]
    assert not (tmp_path / "out" / "deck").exists()


def test_what_does_not_print_as_drawn_is_warned_about_at_the_line_that_placed_it(tmp_path):
    deck = tmp_path / "deck"
    shutil.copytree(ARTDECK, deck)
    (deck / "art" / "icon.svg").write_text(
        "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'>"
        "<text font-family='Comic Neue' x='1' y='8'>A</text><flowRoot><flowPara>B</flowPara></flowRoot>"
        "<image href='../../outside.png' width='5' height='5'/></svg>")
    warnings = [w for w in check(deck).warnings if w.kind == "art"]
    messages = " | ".join(w.message for w in warnings)
    assert "'Comic Neue'" in messages and "Noto Sans" in messages
    assert "flowRoot" in messages and "outside the art's folder" in messages
    layout = deck / "layouts" / "artdeck.yaml"
    line = next(i for i, text in enumerate(layout.read_text().splitlines(), 1) if "icon.svg" in text)
    assert {(Path(w.file).name, w.line) for w in warnings} == {("artdeck.yaml", line)}


def test_a_picture_as_svg_and_as_png_prints_the_same_grey_in_low_ink(tmp_path):
    """One rule for art everywhere: a dark back as SVG and the same back as PNG, low-ink, put down
    the same black ink within 5 % (both greyed by luma and lightened as a large picture is)."""
    from tests.pdfread import content_streams, xobjects
    from tests.test_backend_pdf import write

    colour = (0x5a, 0x1e, 0x32)
    (tmp_path / "back.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg' width='20' height='20'>"
                                       f"<rect width='20' height='20' fill='#{bytes(colour).hex()}'/></svg>")
    PILImage.new("RGB", (200, 200), colour).save(tmp_path / "back.png")
    ink = {}
    for name in ("back.svg", "back.png"):
        face = apply_ink(Face(30, 40, 0, (Image(0, 0, 30, 40, str(tmp_path / name)),)), "lowink", back=True)
        reader = PdfReader(str(write(tmp_path, [(face, 0)], colors="k", name=f"{name}.pdf")))
        if name.endswith(".png"):
            picture, = xobjects(reader, "/Image")
            assert picture["/ColorSpace"] == "/DeviceGray"
            ink[name] = 1 - picture.get_data()[0] / 255
        else:
            blacks = [float(line.split()[3]) for data in content_streams(reader) for line in data.decode().splitlines()
                      if line.endswith(" k") and len(line.split()) == 5]
            ink[name] = blacks[-1]  # the colour the rect is filled in (`cs` set black before it)
    assert abs(ink["back.svg"] - ink["back.png"]) <= 0.05, ink
    assert 0.25 < ink["back.svg"] < 0.5, ink  # lightened, not the 80 % black the dark colour is


def test_art_is_read_once_and_the_same_bytes_every_time(tmp_path):
    width, height = load_art(str(ARTDECK / "art" / "card.svg")).size  # 63.5mm × 88.9mm, in CSS pixels
    assert (width, height) == pytest.approx((63.5 / 25.4 * 96, 88.9 / 25.4 * 96), rel=1e-4)
    out_a, out_b = tmp_path / "a", tmp_path / "b"
    for out in (out_a, out_b):
        build([str(ARTDECK)], out=out, papers=["a4"], inks=["color"])
    for path in sorted((out_a / "artdeck").glob("*.pdf")):
        assert path.read_bytes() == (out_b / "artdeck" / path.name).read_bytes(), path.name


def test_art_that_lets_the_card_show_through_is_known_for_pdf_x_files():
    assert load_art(str(ARTDECK / "art" / "card.svg")).see_through  # the shadow's opacity: flattened for PDF/X-1a
    assert not load_art(str(ARTDECK / "art" / "icon.svg")).see_through


# --- the raster pictures inside vector art (for the dpi warnings) ---------------------------------------

def _png(size: tuple[int, int]) -> bytes:
    import io

    buf = io.BytesIO()
    PILImage.new("RGB", size, (200, 30, 30)).save(buf, format="PNG")
    return buf.getvalue()


def _svg_with(images: str) -> str:
    return ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" '
            f'height="50" viewBox="0 0 200 100"><rect width="200" height="100" fill="#eeeeee"/>{images}</svg>')


def _data_uri(data: bytes) -> str:
    import base64

    return "data:image/png;base64," + base64.b64encode(data).decode()


def _printed(picture, art, printed: tuple[float, float]) -> tuple[float, float]:
    """A picture's printed width and height in mm when the art is printed `printed` mm."""
    import math

    _, _, across, down = picture
    sx, sy = printed[0] / art.size[0], printed[1] / art.size[1]
    return (math.hypot(across[0] * sx, across[1] * sy), math.hypot(down[0] * sx, down[1] * sy))


def test_an_svg_without_pictures_has_none(tmp_path):
    path = tmp_path / "plain.svg"
    path.write_text(_svg_with(""))
    assert load_art(str(path)).pictures == ()


def test_embedded_and_linked_pictures_are_found_with_their_names_pixels_and_size(tmp_path):
    (tmp_path / "photo.png").write_bytes(_png((120, 160)))
    path = tmp_path / "art.svg"
    path.write_text(_svg_with(f'<image x="10" y="10" width="60" height="80" xlink:href="{_data_uri(_png((60, 80)))}"/>'
                              '<image x="100" y="0" width="15" height="20" href="photo.png"/>'))
    art = load_art(str(path))
    embedded, linked = art.pictures
    assert (embedded[:2], linked[:2]) == ((None, (60, 80)), ("photo.png", (120, 160)))
    # 100 × 50 units on its 200 × 100 view box; printed 50 × 25 mm, each unit of the view box is 0.25 mm
    assert _printed(embedded, art, (50, 25)) == pytest.approx((15, 20))
    assert _printed(linked, art, (50, 25)) == pytest.approx((3.75, 5))


def test_transforms_in_the_svg_count_rotated_and_stretched_alike(tmp_path):
    path = tmp_path / "turned.svg"
    path.write_text(_svg_with('<g transform="rotate(90) scale(2, 1)">'
                              f'<image x="0" y="0" width="30" height="40" xlink:href="{_data_uri(_png((60, 80)))}"'
                              ' preserveAspectRatio="none"/></g>'))
    art = load_art(str(path))
    picture, = art.pictures
    # 30 units across, doubled, then turned upright: still 60 units (15 mm) along its own width
    assert _printed(picture, art, (50, 25)) == pytest.approx((15, 10))


def test_an_edited_svg_and_a_picture_it_links_saved_anew_are_read_anew(tmp_path):
    path = tmp_path / "art.svg"
    path.write_text(_svg_with(""))
    assert load_art(str(path)).pictures == ()
    (tmp_path / "photo.png").write_bytes(_png((60, 80)))
    path.write_text(_svg_with('<image width="60" height="80" href="photo.png"/>'))
    assert [p[1] for p in load_art(str(path)).pictures] == [(60, 80)]
    (tmp_path / "photo.png").write_bytes(_png((30, 40)))
    assert [p[1] for p in load_art(str(path)).pictures] == [(30, 40)]


def test_the_svg_output_carries_the_art_as_the_pdf_draws_it(tmp_path):
    """An `<image>` of SVG art sees no fonts and no files but its own: the card's SVG carries the
    art made ready (fields filled, the layer shown) with the fonts its text is set in; a page of
    PDF art goes in as a picture of it."""
    import base64
    import re

    build([str(ARTDECK)], out=tmp_path, papers=["a4"], formats=["svg"])
    card = (tmp_path / "artdeck" / "svg" / "cards-01-ember-front.svg").read_text()
    arts = [base64.b64decode(m) .decode() for m in re.findall(r"data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)", card)]
    template = next(art for art in arts if "Ember" in art)
    assert "{name}" not in template and "Cost 3" in template
    assert "@font-face{font-family:'Noto Sans';font-weight:700;font-stretch:100%" in template
    assert re.search(r'id="suit-fire"[^>]*style="[^"]*display:inline', template)
    frame = (tmp_path / "artdeck" / "svg" / "frames-01-front.svg").read_text()
    assert "data:image/png;base64," in frame and "application/pdf" not in frame


def test_a_pdf_page_it_lacks_and_an_svg_too_big_to_draw_are_errors(tmp_path):
    from deckpress.svgfile import MAX_ELEMENTS, ArtError

    with pytest.raises(ArtError, match=r"art 'frames.pdf' has 2 pages, no page 3"):
        load_art(str(ARTDECK / "art" / "frames.pdf"), page=3)
    path = tmp_path / "many.svg"
    path.write_text("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'>"
                    + "<rect width='1' height='1'/>" * (MAX_ELEMENTS.value + 1) + "</svg>")
    with pytest.raises(ArtError, match=f"has more than {MAX_ELEMENTS.value:,} elements"):
        load_art(str(path))


def test_a_style_named_family_is_asked_for_by_its_typographic_family_with_its_width_and_weight(tmp_path):
    """usvg knows "Noto Sans Condensed Black" as Noto Sans (its typographic family) at a width and
    weight: asked for by its own name, its text came out in Noto Sans Regular."""
    from deckpress.compose.elements import art_fonts
    from deckpress.text.fonts import FontSet
    from deckpress.svgfile import prepare

    path = tmp_path / "title.svg"
    path.write_text("<svg xmlns='http://www.w3.org/2000/svg' width='100' height='40'>"
                    "<text id='a' font-family='Noto Sans Condensed Black' y='30'>Title</text>"
                    "<text id='b' style='font-family: \"Noto Sans Condensed\"; font-weight: bold' y='30'>Title</text></svg>")
    text = prepare(str(path), art_fonts(FontSet())).text
    assert "font-family=\"'Noto Sans'\"" in text and 'font-stretch="condensed"' in text and 'font-weight="900"' in text
    assert "font-family: 'Noto Sans'; font-stretch: condensed; font-weight: bold" in text


@pytest.mark.parametrize("body, said", [
    ("<rect width='5' height='5' vector-effect='non-scaling-stroke' stroke='black'/>", "vector-effect"),
    ("<mask id='a'/><mask id='b' mask='url(#a)'/>", "a mask that is itself masked"),
    ("<svg clip-path='url(#c)'/>", "clips a nested <svg>"),
    ("<g filter='url(#gone)'/>", "names a filter '#gone' that it does not have"),
    ("<filter id='f'><feDiffuseLighting><feDistantLight/></feDiffuseLighting></filter>", "feDiffuseLighting filter"),
    ("<filter id='f'><feColorMatrix type='saturate' values='3'/></filter>", "saturates a colour matrix beyond 1"),
    ("<filter id='f'><feComposite operator='lighter'/></filter>", "feComposite's lighter"),
])
def test_what_deckpress_draws_otherwise_than_a_browser_is_said(tmp_path, body, said):
    path = tmp_path / "art.svg"
    path.write_text(f"<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'>{body}</svg>")
    assert any(said in warning for warning in load_art(str(path)).warnings)


def test_filters_are_drawn_at_the_outputs_resolution(tmp_path):
    """A blur is a picture inside the vector art: 600 dpi of its printed size in a PDF, the
    picture's own resolution in a PNG (raster.faces_pdf gives FaceForms the jobs' dpi)."""
    from deckpress.backends.pdf import FaceForms
    from tests.pdfread import xobjects
    from tests.test_backend_pdf import write

    art = tmp_path / "blur.svg"
    art.write_text("<svg xmlns='http://www.w3.org/2000/svg' width='100' height='100'><filter id='b' x='0' y='0' "
                   "width='1' height='1'><feGaussianBlur stdDeviation='3'/></filter>"
                   "<rect width='100' height='100' fill='#345' filter='url(#b)'/></svg>")
    face = Face(25.4, 25.4, 0, (Image(0, 0, 25.4, 25.4, str(art)),))
    widths = [max(int(x["/Width"]) for x in xobjects(PdfReader(str(write(tmp_path, [(face, 0)], forms=FaceForms(dpi=dpi),
                                                                          name=f"{dpi}.pdf"))), "/Image"))
              for dpi in (600, 100)]
    assert widths[0] == pytest.approx(600, abs=2) and widths[1] == pytest.approx(100, abs=2)  # the inch the art prints


def test_low_ink_pngs_of_svg_art_are_grey_and_lightened_as_the_pdf_is(tmp_path):
    """The raster path once drew SVG art in RGB in low-ink PNGs; it draws them as the PDF does."""
    build([str(ARTDECK)], out=tmp_path, papers=["a4"], inks=["lowink"], formats=["png"], dpi=60)
    pictures = sorted((tmp_path / "artdeck").glob("png*/cards-01-*front.png"))
    assert pictures, list((tmp_path / "artdeck").rglob("*"))
    picture = PILImage.open(pictures[0]).convert("RGB")
    assert colour_spread(picture) <= 12  # greys only
    assert sum(ImageStat.Stat(picture).mean) / 3 > 150  # a dark blue card template, lightened: no 77 % black


def test_a_cmyk_build_of_svg_and_pdf_art_is_process_inks_only(tmp_path):
    build([str(ARTDECK)], out=tmp_path, papers=["a4"], inks=["color"], color="cmyk")
    for path in sorted((tmp_path / "artdeck").glob("*-cmyk-a4.pdf")):
        assert rgb_left(path) == [], path.name  # ICC-based sRGB of svg2pdf's pages, pictures, gradients separated
