"""deckpress.imagefile: the resolution a picture prints at, the raster pictures inside an SVG, and
rasters of every format read as they print (first frame, printable modes, PSD's composite)."""

from __future__ import annotations

import base64
import io

import pytest
from PIL import Image as PILImage

from deckpress.imagefile import (BLURRED_DPI, SHARP_DPI, PictureError, Resolution, decoded, exif_rotation,
                                 image_size, open_raster, png_of, printable, raster_format,
                                 raster_pixels, see_through)
from tests.pictureformats import halves, psd, save


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


# --- rasters of every format -------------------------------------------------------------------------

def written(tmp_path, name: str, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def test_a_picture_is_known_by_its_content_not_its_name(tmp_path):
    path = written(tmp_path, "looks-like.png", save(PILImage.new("RGB", (30, 20), "red"), "WEBP"))
    assert (raster_format(path), raster_pixels(path), image_size(path)) == ("WEBP", (30, 20), (30.0, 20.0))


@pytest.mark.parametrize("name, data, says", [
    # Pillow reads EPS through Ghostscript: refused from its header, never decoded
    ("art.png", b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\nshowpage\n",
     "is in EPS format: pictures are PNG, JPEG, WebP, TIFF, GIF, BMP or PSD (convert it first)"),
    ("icon.png", save(PILImage.new("RGB", (16, 16)), "ICO"), "is in ICO format: pictures are"),
    ("big.psd", b"8BPS\0\2" + bytes(30), "is a large document (PSB): save it as a PSD, or export a PNG or TIFF"),
    ("deep.psd", b"8BPS\0\1" + bytes(6) + b"\0\3" + (10).to_bytes(4, "big") * 2 + b"\0\x10\0\3" + bytes(16),
     "is a 16-bit PSD: only 8 bits a channel can be read"),
    ("notes.png", b"just words", "is not an image file"),
])
def test_what_is_not_a_picture_deckpress_prints_is_said_plainly(tmp_path, name, data, says):
    with pytest.raises(PictureError) as error:
        raster_pixels(written(tmp_path, name, data))
    assert error.value.reason.startswith(says) and str(error.value).startswith(f"picture '{name}' ")


@pytest.mark.parametrize("picture, mode, pixel", [
    (PILImage.new("I;16", (4, 3), 40000), "L", 156),  # 16-bit grey (TIFF, PNG): 0 … 65535 as 0 … 255
    (PILImage.new("I", (4, 3), 65535), "L", 255),
    (PILImage.new("F", (4, 3), 0.25), "L", 64),  # float greys from 0 to 1 …
    (PILImage.new("F", (4, 3), 200.0), "L", 200),  # … or, going past 1, 0 to 255 as Pillow reads them
    (PILImage.new("LAB", (4, 3), (128, 128, 128)), "RGB", (119, 119, 119)),
    (PILImage.new("YCbCr", (4, 3), (76, 85, 255)), "RGB", (254, 0, 0)),
    (PILImage.new("RGBa", (4, 3), (100, 50, 0, 128)), "RGBA", (199, 99, 0, 128)),
    (PILImage.merge("La", (PILImage.new("L", (4, 3), 60), PILImage.new("L", (4, 3), 128))), "LA", (119, 128)),
])
def test_pixels_of_every_kind_become_a_mode_the_backends_print(picture, mode, pixel):
    out = printable(picture)
    assert (out.mode, out.getpixel((1, 1))) == (mode, pixel)


def test_modes_the_backends_print_are_left_as_they_are():
    for mode in ("1", "L", "LA", "P", "PA", "RGB", "RGBA", "CMYK"):
        picture = PILImage.new(mode, (4, 3))
        assert printable(picture) is picture


def test_a_16_bit_png_prints_its_greys_and_scales_down(tmp_path):
    """It printed white (clipped to 255), and could not be scaled down at all ("image has wrong mode")."""
    path = written(tmp_path, "deep.png", save(PILImage.new("I;16", (40, 30), 20000), "PNG"))
    with open_raster(path) as im:
        assert decoded(im, (40, 30)).getpixel((0, 0)) == 78
    with open_raster(path) as im:
        small = decoded(im, (20, 15))
    assert (small.mode, small.size, small.getpixel((5, 5))) == ("L", (20, 15), 78)


def test_a_palette_picture_is_scaled_down_by_averaging_not_by_picking(tmp_path):
    stripes = PILImage.new("P", (40, 30))
    stripes.putpalette([0, 0, 0, 255, 255, 255])
    stripes.putdata([x % 2 for y in range(30) for x in range(40)])  # one-pixel black and white stripes
    path = written(tmp_path, "stripes.gif", save(stripes, "GIF"))
    with open_raster(path) as im:
        small = decoded(im, (10, 8))
    assert small.mode == "RGB" and all(110 < v < 145 for v in small.getpixel((5, 4)))  # grey, not black or white


def test_the_first_frame_is_what_prints(tmp_path):
    frames = [PILImage.new("RGB", (20, 10), c) for c in ((200, 0, 0), (0, 200, 0), (0, 0, 200))]
    for name, fmt, options in (("a.gif", "GIF", {"duration": 50}), ("a.webp", "WEBP", {"lossless": True}),
                               ("a.tif", "TIFF", {})):
        path = written(tmp_path, name, save(frames[0], fmt, save_all=True, append_images=frames[1:], **options))
        with open_raster(path) as im:
            assert decoded(im, im.size).convert("RGB").getpixel((5, 5)) == (200, 0, 0), name
        assert PILImage.open(io.BytesIO(png_of(path))).convert("RGB").getpixel((5, 5)) == (200, 0, 0), name


@pytest.mark.parametrize("kind, composite, clear", [
    ("merged", (255, 0, 0, 128), True),  # Photoshop's transparency: the colour taken off the white
    ("saved", (255, 0, 0), False),  # an alpha channel the user saved: no transparency
    (None, (255, 0, 0, 128), True),  # four channels, no layers, nothing said: transparency
])
def test_a_psds_fourth_channel_is_transparency_only_where_photoshop_says_so(tmp_path, kind, composite, clear):
    picture = halves((20, 10), (255, 0, 0, 128), (0, 0, 0, 0), "RGBA")
    path = written(tmp_path, "a.psd", psd(picture, alpha=kind))
    with open_raster(path) as im:
        out = decoded(im, im.size)
    assert out.getpixel((2, 2)) == composite
    assert see_through(path) is clear


def test_a_psd_prints_its_composite_not_a_layer(tmp_path):
    path = written(tmp_path, "a.psd", psd(PILImage.new("RGB", (20, 10), (90, 30, 150)), layer=(0, 200, 0)))
    with open_raster(path) as im:
        assert decoded(im, im.size).getpixel((3, 3)) == (90, 30, 150)
    assert not see_through(path)


def test_a_gif_with_a_clear_colour_lets_the_card_show_through(tmp_path):
    sticker = halves((20, 10), 1, 0, "P")
    sticker.putpalette([0, 0, 0, 240, 200, 20])
    assert see_through(written(tmp_path, "a.gif", save(sticker, "GIF", transparency=0)))
    assert not see_through(written(tmp_path, "b.gif", save(sticker, "GIF")))


def test_svg_output_takes_other_formats_as_png_cmyk_made_rgb(tmp_path):
    path = written(tmp_path, "inks.tif", save(PILImage.new("CMYK", (20, 10), (0, 255, 255, 0)), "TIFF"))
    shown = PILImage.open(io.BytesIO(png_of(path)))
    assert (shown.format, shown.mode, shown.getpixel((3, 3))) == ("PNG", "RGB", (255, 0, 0))


def test_an_exif_rotation_is_read_where_decoding_ignores_it(tmp_path):
    exif = PILImage.Exif()
    exif[0x0112] = 6
    picture = PILImage.new("RGB", (30, 20), "red")
    assert exif_rotation(written(tmp_path, "a.jpg", save(picture, "JPEG", exif=exif))) == 6
    assert exif_rotation(written(tmp_path, "a.webp", save(picture, "WEBP", exif=exif))) == 6
    turned = written(tmp_path, "a.tif", save(picture, "TIFF", exif=exif))
    assert exif_rotation(turned) == 1 and raster_pixels(turned) == (20, 30)  # Pillow turns a TIFF upright
    assert exif_rotation(written(tmp_path, "b.jpg", save(picture, "JPEG"))) == 1


@pytest.mark.parametrize("picture, fmt, left, right", [
    (halves((20, 10), (0, 0, 0, 255), (0, 0, 0, 0), "RGBA"), "PNG", 255, 0),  # black on transparency: its alpha
    (halves((20, 10), (255, 255, 255, 200), (0, 0, 0, 0), "RGBA"), "PNG", 200, 0),  # a white one: its alpha too
    (halves((20, 10), (0, 0, 0), (255, 255, 255)), "PNG", 255, 0),  # black on white: its darkness
    (halves((20, 10), 64, 255, "L"), "PNG", 191, 0),  # a grey: as solid as it is dark
    (halves((20, 10), (0, 0, 0, 255), (255, 255, 255, 255), "RGBA"), "PNG", 255, 0),  # alpha opaque everywhere
    (halves((20, 10), 1, 0, "P"), "GIF", 255, 0),  # a palette's clear colour (entry 0) is its shape
    (halves((20, 10), (0, 0, 0, 0), (0, 0, 0, 0), "CMYK"), "TIFF", 0, 0),  # no ink at all: nothing
])
def test_a_tinted_picture_is_its_tint_in_the_shape_of_its_alpha_or_else_its_darkness(
        tmp_path, picture, fmt, left, right):
    from deckpress.imagefile import tinted, treated

    if fmt == "GIF":  # the left half entry 1, black; the right entry 0, white and clear
        picture.putpalette([255, 255, 255, 0, 0, 0])
        data = save(picture, "GIF", transparency=0)
    else:
        data = save(picture, fmt)
    path = written(tmp_path, f"a.{fmt.lower()}", data)
    out = treated(path, "#2a9d8f")
    assert out.mode == "RGBA" and out.size == (20, 10)
    assert out.getpixel((2, 5)) == (0x2a, 0x9d, 0x8f, left) and out.getpixel((17, 5)) == (0x2a, 0x9d, 0x8f, right)
    with open_raster(path) as im:
        assert tinted(decoded(im, im.size), "#ff0000").getchannel("A").getpixel((2, 5)) == left
    assert see_through(path, "#2a9d8f") is (min(left, right) < 255)


def test_a_part_of_a_picture_is_its_pixels_and_png_of_a_tinted_part_is_what_the_pdf_prints(tmp_path):
    from deckpress.imagefile import grey_png, treated

    path = written(tmp_path, "a.png", save(halves((20, 10), (0, 0, 0, 255), (0, 0, 0, 0), "RGBA"), "PNG"))
    assert treated(path, crop=(9, 0, 11, 10)).size == (2, 10)
    edge = treated(path, "#f4a261", (0, 0, 1, 10))
    assert edge.size == (1, 10) and edge.getcolors() == [(10, (0xf4, 0xa2, 0x61, 255))]
    shown = PILImage.open(io.BytesIO(png_of(path, "#f4a261", (10, 0, 20, 1))))
    assert shown.size == (10, 1) and shown.getcolors() == [(10, (0xf4, 0xa2, 0x61, 0))]
    grey = PILImage.open(io.BytesIO(grey_png(path, 0.0, "#f4a261")))
    assert grey.mode == "LA" and grey.getpixel((2, 2)) == (179, 255) and grey.getpixel((17, 2))[1] == 0
