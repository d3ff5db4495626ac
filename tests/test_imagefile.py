"""deckpress.imagefile: the resolution a picture prints at, and the raster pictures inside an SVG."""

from __future__ import annotations

import base64
import io

import pytest
from PIL import Image as PILImage

from deckpress.imagefile import BLURRED_DPI, SHARP_DPI, Resolution, image_size, raster_parts


def png(size: tuple[int, int], colour=(200, 30, 30)) -> bytes:
    buf = io.BytesIO()
    PILImage.new("RGB", size, colour).save(buf, format="PNG")
    return buf.getvalue()


def svg_with(images: str, size: str = 'width="100" height="50" viewBox="0 0 200 100"') -> bytes:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" {size}>'
            f'<rect width="200" height="100" fill="#eeeeee"/>{images}</svg>').encode()


def data_uri(data: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(data).decode()


# --- Resolution ------------------------------------------------------------------------------------

def test_dpi_is_pixels_over_inches_on_the_worse_axis():
    assert Resolution((600, 900), (50.8, 76.2)).dpi == 300  # 2 × 3 in
    assert Resolution((600, 450), (50.8, 76.2)).dpi == 150  # squeezed in height: the height counts
    assert Resolution((60, 80), (40, 53.3)).dpi == 38


def test_under_300_dpi_is_soft_and_under_150_blurred():
    assert Resolution((600, 900), (50.8, 76.2)).sharp
    assert not Resolution((598, 900), (50.8, 76.2)).sharp  # 299 dpi
    assert (SHARP_DPI, BLURRED_DPI) == (300, 150)
    assert str(Resolution((60, 80), (40, 53.3))) == \
        "60×80 px, printed 40×53.3 mm: 38 dpi — will look blurred (300 dpi wanted)"
    assert str(Resolution((400, 500), (40, 60))) == \
        "400×500 px, printed 40×60 mm: 212 dpi — may look soft (300 dpi wanted)"
    assert str(Resolution((300, 300), (50.8, 50.8))).endswith(": 150 dpi — may look soft (300 dpi wanted)")
    assert str(Resolution((298, 298), (50.8, 50.8))).endswith(": 149 dpi — will look blurred (300 dpi wanted)")


def test_a_picture_printed_at_no_size_is_not_blurred():
    assert Resolution((10, 10), (0, 20)).sharp


# --- rasters inside an SVG ---------------------------------------------------------------------------

def test_an_svg_without_pictures_has_no_raster_parts(tmp_path):
    path = tmp_path / "plain.svg"
    path.write_bytes(svg_with(""))
    assert raster_parts(str(path)) == ()


def test_embedded_and_linked_pictures_are_found_with_their_pixels_and_size(tmp_path):
    (tmp_path / "photo.png").write_bytes(png((120, 160)))
    path = tmp_path / "art.svg"
    path.write_bytes(svg_with(f'<image x="10" y="10" width="60" height="80" xlink:href="{data_uri(png((60, 80)))}"/>'
                              '<image x="100" y="0" width="40" height="20" href="photo.png"/>'))
    embedded, linked = raster_parts(str(path))
    assert (embedded.name, embedded.pixels, linked.name, linked.pixels) == (None, (60, 80), "photo.png", (120, 160))
    # the SVG is 100 × 50 units on its 200 × 100 view box; printed 50 × 25 mm, each unit of the view box is 0.25 mm
    width, height = image_size(str(path))
    scale = (50 / width, 25 / height)
    assert embedded.printed(scale) == pytest.approx((15, 20))
    assert linked.printed(scale) == pytest.approx((10, 5))


def test_transforms_in_the_svg_count_rotated_and_stretched_alike(tmp_path):
    path = tmp_path / "turned.svg"
    path.write_bytes(svg_with(f'<g transform="rotate(90) scale(2, 1)">'
                              f'<image x="0" y="0" width="30" height="40" xlink:href="{data_uri(png((60, 80)))}"/></g>'))
    part, = raster_parts(str(path))
    width, height = image_size(str(path))
    # 30 units across, doubled, then turned upright: still 60 units (15 mm) along its own width
    assert part.printed((50 / width, 25 / height)) == pytest.approx((15, 10))


def test_an_edited_svg_is_read_anew(tmp_path):
    path = tmp_path / "art.svg"
    path.write_bytes(svg_with(""))
    assert raster_parts(str(path)) == ()
    path.write_bytes(svg_with(f'<image width="60" height="80" xlink:href="{data_uri(png((60, 80)))}"/>'))
    assert len(raster_parts(str(path))) == 1
