"""Shaped pieces' outlines (pieceshape): what `shape:` accepts, the outline and its bleed, the safe area."""

from __future__ import annotations

import math

import pytest

from deckpress.pieceshape import (PieceShape, distance_to_edge, flattened, hexagon, mirrored, outline, parse_shape,
                                  path_box, within_safe_area)


def test_a_circle_is_the_box_s_circle_and_grows_by_the_bleed_all_round():
    ring = flattened(outline(parse_shape("circle", 30, 30), 30, 30, grow=2))[0]
    radii = [math.hypot(x - 15, y - 15) for x, y in ring]
    assert min(radii) == pytest.approx(17, abs=0.01) and max(radii) == pytest.approx(17, abs=0.01)


def test_a_pointy_hex_has_its_points_top_and_bottom_and_its_bleed_is_parallel():
    w, h = 50, 50 * 2 / math.sqrt(3)
    shape = parse_shape("hex", w, h)
    assert path_box(outline(shape, w, h)) == pytest.approx((0, 0, w, h))
    corners = hexagon("hex", w, h)
    assert corners[0] == (25, 0) and corners[3] == (25, h)
    rings = flattened(outline(shape, w, h))
    for x, y in flattened(outline(shape, w, h, grow=3))[0]:  # every grown corner 3 mm from the sides…
        assert distance_to_edge((x, y), rings) == pytest.approx(3 / math.cos(math.radians(30)), abs=1e-6)
    assert path_box(outline(shape, w, h, grow=3))[0] == pytest.approx(-3)  # …and the flats 3 mm out


def test_a_flat_hex_lies_on_its_side():
    w, h = 50 * 2 / math.sqrt(3), 50
    corners = hexagon("hex-flat", w, h)
    assert corners[0][1] == 0 and corners[1][1] == 0 and corners[2] == (w, h / 2)
    assert parse_shape("hex-flat", w, h).kind == "hex-flat"


def test_a_squashed_hex_is_refused_with_the_size_to_write():
    with pytest.raises(ValueError, match=r"not 50 mm: give the size as 50x57\.74"):
        parse_shape("hex", 50, 50)


@pytest.mark.parametrize("value, message", [
    ("star", "unknown shape 'star'"),
    ("rounded", "say the corner radius"),
    ("path(M 0 0 L 40 0 L 40 30)", "must be closed"),
    ("path(M 0 0 L 80 0 L 80 30 Z)", "outside the 40×30 mm piece"),
    ("path(M 0 0 L 5 0 L 5 5 Z)", "make the piece's size the path's size"),
    ("path(M 0 0 A 5 5 0 0 1 10 0 Z)", "arcs"),
])
def test_a_shape_it_cannot_cut_says_why(value, message):
    with pytest.raises(ValueError, match=message):
        parse_shape(value, 40, 30)


def test_rounded_takes_a_radius_that_fits():
    assert parse_shape({"rounded": 5.0}, 40, 30) == PieceShape("rounded", 5.0)
    with pytest.raises(ValueError, match="at most 15 mm"):
        parse_shape({"rounded": 16.0}, 40, 30)


def test_a_path_grows_about_its_middle_and_mirrors_for_its_back():
    shape = parse_shape("path(M 0 0 L 40 0 L 40 30 L 0 10 Z)", 40, 30)
    assert path_box(outline(shape, 40, 30, grow=2)) == pytest.approx((-2, -2, 42, 32))
    back = mirrored(outline(shape, 40, 30), 40)
    assert [pts for op, pts in back if op == "L"][-1] == (40.0, 10.0)  # the low corner on the other side


def test_the_safe_area_is_the_shape_less_the_inset():
    circle = outline(parse_shape("circle", 30, 30), 30, 30)
    assert within_safe_area((10, 10, 20, 20), circle, 3)  # the middle
    assert not within_safe_area((1, 1, 8, 8), circle, 3)  # a corner of the box: outside the circle
    assert not within_safe_area((2, 13, 28, 17), circle, 3)  # a wide line: 1.9 mm from the edge
    notch = parse_shape("path(M 0 0 L 40 0 L 40 30 L 20 10 L 0 30 Z)", 40, 30)  # a notch up the middle
    assert not within_safe_area((12, 14, 28, 20), outline(notch, 40, 30), 1)  # its point inside the box
