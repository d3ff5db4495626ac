"""Separations (separation.py): deckpress's formula and a CMYK output ICC profile, for colours and
pictures; profiles that are not CMYK output profiles refused in one line."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageCms

from deckpress.colors import CMYK, RGB, Gray, to_cmyk
from deckpress.errors import DeckError
from deckpress.separation import FORMULA, ProfileSeparation, load_profile
from tests.iccprofile import write_profile


@pytest.fixture(scope="module")
def profile(tmp_path_factory) -> ProfileSeparation:
    """The test profile: C, M, Y the complements of the sRGB colour, K never (no black generation),
    so what it separates is told apart from the formula, which puts every grey in black ink."""
    return load_profile(write_profile(tmp_path_factory.mktemp("icc") / "press.icc"))


def test_the_formula_is_to_cmyk_for_colours_and_pixels():
    dark_red = RGB(0.5, 0.1, 0.1)
    assert FORMULA.color(dark_red) == to_cmyk(dark_red) == CMYK(0.0, 0.75, 0.75, 0.5)  # 210 % held to 200
    pixels = FORMULA.picture(Image.new("RGB", (2, 1), (0, 0, 0)))
    assert pixels.mode == "CMYK" and pixels.getpixel((0, 0)) == (0, 0, 0, 255)
    assert FORMULA.output_intent() is None


def test_pictures_are_separated_by_the_same_formula_as_every_colour():
    pixels = [(r, g, b) for r in range(0, 256, 15) for g in range(0, 256, 15) for b in range(0, 256, 15)]
    pixels += [(v, v, v) for v in range(256)]
    image = Image.new("RGB", (len(pixels), 1))
    image.putdata(pixels)
    separated = FORMULA.picture(image).tobytes()
    for i, rgb in enumerate(pixels):
        ink = to_cmyk(RGB(*(v / 255 for v in rgb)))
        assert tuple(separated[4 * i:4 * i + 4]) == pytest.approx(
            tuple(round(v * 255) for v in (ink.c, ink.m, ink.y, ink.k)), abs=1), rgb
        if len(set(rgb)) == 1:
            assert separated[4 * i:4 * i + 3] == bytes(3), rgb  # greys in black ink only


def test_a_profile_separates_colours_and_pictures_as_that_press_does(profile):
    ink = profile.color(RGB(0.5, 0.1, 0.1))
    c, m, y, k = ink.c, ink.m, ink.y, ink.k
    assert k == 0.0 and m > 0.8 and y > 0.8 and c > 0.4  # dark by C, M and Y: no black generation
    assert profile.color(RGB(0.5, 0.1, 0.1)) != FORMULA.color(RGB(0.5, 0.1, 0.1))
    black = profile.picture(Image.new("RGB", (1, 1), (0, 0, 0))).getpixel((0, 0))
    assert black[3] == 0 and min(black[:3]) > 240  # a picture takes the profile's black: C, M and Y
    assert profile.output_intent() == ("deckpress test CMYK, no black generation", profile.profile)


@pytest.mark.parametrize("grey", [RGB(0.5, 0.5, 0.5), RGB(0.5, 0.5, 0.504), Gray(0.5), RGB(0, 0, 0)])
def test_a_profile_keeps_neutral_colours_in_black_ink_only(profile, grey):
    """Shapes and text in grey or black print in black ink alone, never as a four-ink grey that
    misregisters into a coloured fringe; 0.004 apart is still a grey (a rounding of a hex colour)."""
    ink = profile.color(grey)
    c, m, y, k = ink.c, ink.m, ink.y, ink.k
    assert (c, m, y) == (0.0, 0.0, 0.0) and k == pytest.approx(1 - grey.luma, abs=0.005)


def test_cmyk_is_kept_and_a_profile_is_named_by_its_bytes(profile, tmp_path):
    assert profile.color(CMYK(0.1, 0.2, 0.3, 0.4)) == CMYK(0.1, 0.2, 0.3, 0.4)
    again = load_profile(write_profile(tmp_path / "copy.icc"))
    assert again.name == profile.name and again.name.startswith("icc-") and again.name != FORMULA.name


@pytest.mark.parametrize("make, said", [
    (lambda path: path.write_bytes(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()),
     "an ICC profile for RGB"),
    (lambda path: path.write_bytes(b"not a profile at all" * 10), "not an ICC profile littleCMS can read"),
    (lambda path: None, "cannot read the ICC profile"),
])
def test_what_is_not_a_cmyk_output_profile_is_refused_in_one_line(tmp_path, make, said):
    path = tmp_path / "given.icc"
    make(path)
    with pytest.raises(DeckError) as refused:
        load_profile(path)
    message = str(refused.value)
    assert said in message and "given.icc" in message and "\n" not in message


def test_a_picture_with_alpha_keeps_it_apart(profile):
    from deckpress.backends.pdfimages import separated

    picture = Image.new("RGBA", (3, 3), (200, 30, 30, 128))
    inks, alpha = separated(picture, profile)
    assert inks.mode == "CMYK" and alpha is not None and alpha.getpixel((1, 1)) == 128
    assert inks.getpixel((1, 1)) == profile.picture(Image.new("RGB", (1, 1), (200, 30, 30))).getpixel((0, 0))
    buffer = io.BytesIO()
    inks.save(buffer, format="TIFF")  # a real CMYK picture
