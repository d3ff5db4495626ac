"""Low-ink: black ink only, pale large fills and backs, strong small information, readable text."""

from __future__ import annotations

import pytest

from generator.colors import RGB, Gray
from generator.face import Face, Group, Image, Paint, Rect, Text, rotation
from generator.ink import SOLID, apply_ink, grey, lowink

RED = RGB(0.8, 0.1, 0.1)
NAVY = RGB(0.13, 0.19, 0.29)


def face(*items):
    return Face(60, 90, 3, tuple(items))


def test_colour_build_is_untouched():
    f = face(Rect(0, 0, 10, 10, paint=Paint(fill=RED)))
    assert apply_ink(f, "color") is f


def test_every_colour_becomes_a_grey_by_its_luma():
    out = lowink(face(Rect(0, 0, 5, 5, paint=Paint(fill=RED, stroke=NAVY, stroke_width=0.2)))).items[0]
    assert isinstance(out.paint.fill, Gray) and isinstance(out.paint.stroke, Gray)
    assert out.paint.stroke.level == pytest.approx(1 - min(1 - NAVY.luma, SOLID), abs=1e-4)
    # an outlined small shape keeps its outline; its fill is paler than a plain conversion
    assert out.paint.fill.level > grey(RED).level


def test_large_fills_become_light_and_frames_thin():
    big = Rect(-3, -3, 66, 96, 3, Paint(fill=NAVY, stroke=RED, stroke_width=1.4))
    out = lowink(face(big)).items[0]
    assert 1 - out.paint.fill.level == pytest.approx(0.1 * (1 - NAVY.luma), abs=1e-3)
    assert out.paint.stroke_width == pytest.approx(0.25)


def test_small_fills_and_text_stay_strong():
    small = Rect(10, 10, 5, 5, paint=Paint(fill=NAVY))
    text = Text(5, 20, "4", "x.ttf", 5, NAVY)
    out = lowink(face(small, text))
    assert out.items[0].paint.fill == grey(NAVY)
    assert out.items[1].color == grey(NAVY)


def test_ink_hints_drop_keep_and_lighten():
    items = (Rect(0, 0, 5, 5, paint=Paint(fill=RED, ink="drop")),
             Rect(0, 0, 60, 90, paint=Paint(fill=RED, ink="keep")),
             Rect(0, 0, 5, 5, paint=Paint(fill=RED, ink="light")))
    out = lowink(face(*items)).items
    assert len(out) == 2
    assert out[0].paint.fill == grey(RED)
    assert out[1].paint.fill.level > 0.9


def test_backs_are_pale_and_their_text_stays_visible():
    back = face(Rect(-3, -3, 66, 96, paint=Paint(fill=NAVY)), Text(5, 60, "title", "x.ttf", 8, RGB(1, 1, 1)))
    out = lowink(back, back=True).items
    assert out[0].paint.fill.level > 0.9
    # white text on a navy band that became pale: made darker so it can still be read
    assert out[1].color.level < out[0].paint.fill.level - 0.3


def test_white_text_on_a_pale_band_is_darkened_but_faint_decoration_is_not():
    band = Rect(-3, -3, 66, 20, paint=Paint(fill=NAVY))
    title = Text(5, 10, "Title", "x.ttf", 5, RGB(1, 1, 1))
    faint = Text(5, 60, "♩", "x.ttf", 20, RGB(0.8, 0.8, 0.82))
    out = lowink(face(band, title, faint)).items
    assert out[1].color.level < 0.3
    assert out[2].color.level > 0.7


def test_groups_are_converted_through_their_transform():
    g = Group((Rect(0, 0, 60, 90, paint=Paint(fill=RED)),), rotation(90, 30, 45))
    out = lowink(face(g)).items[0]
    assert out.items[0].paint.fill.level > 0.9


def test_pictures_turn_grey_and_large_ones_pale():
    small = Image(0, 0, 5, 5, "a.png")
    large = Image(0, 0, 60, 90, "a.png")
    out = lowink(face(small, large)).items
    assert out[0].grey and out[0].lighten == 0
    assert out[1].grey and out[1].lighten > 0


def test_hints_on_text_and_pictures():
    kept_text = Text(5, 20, "x", "x.ttf", 5, NAVY, ink="keep")
    out = lowink(face(Rect(-3, -3, 66, 96, paint=Paint(fill=NAVY)), kept_text), back=True).items
    assert out[1].color == grey(NAVY)  # kept at full strength even on a back
    light = lowink(face(Text(5, 20, "x", "x.ttf", 5, NAVY, ink="light"))).items[0]
    assert light.color.level > grey(NAVY).level + 0.2
    kept = lowink(face(Image(0, 0, 60, 90, "a.png", ink="keep")), back=True).items[0]
    assert kept.grey and kept.lighten == 0
