"""deckpress.shapes: named palette symbols, `size` across, centred on (cx, cy)."""

from __future__ import annotations

import pytest

from deckpress.colors import RGB
from deckpress.face import Ellipse, Path, Paint, bounds
from deckpress.shapes import SHAPES, shape

PAINT = Paint(fill=RGB(0.8, 0.2, 0.2))
NAMES = sorted(SHAPES)
CX, CY, SIZE = 30.0, 40.0, 10.0



def test_the_shape_names():
    assert set(SHAPES) == {"circle", "triangle", "square", "diamond", "pentagon", "hexagon",
                           "star", "cross", "triangle-down"}


@pytest.mark.parametrize("name", NAMES)
def test_shape_fits_in_size_box(name):
    x0, y0, x1, y1 = bounds(shape(name, CX, CY, SIZE, PAINT))
    half = SIZE / 2 + 1e-9
    assert CX - half <= x0 < x1 <= CX + half
    assert CY - half <= y0 < y1 <= CY + half
    # and fills a good part of it: no shape is drawn tiny
    assert x1 - x0 >= 0.75 * SIZE
    assert y1 - y0 >= 0.75 * SIZE


@pytest.mark.parametrize("name", NAMES)
def test_shape_is_centred_horizontally(name):
    x0, _, x1, _ = bounds(shape(name, CX, CY, SIZE, PAINT))
    assert (x0 + x1) / 2 == pytest.approx(CX)


@pytest.mark.parametrize("name", NAMES)
def test_shape_is_centred_vertically(name):
    _, y0, _, y1 = bounds(shape(name, CX, CY, SIZE, PAINT))
    assert (y0 + y1) / 2 == pytest.approx(CY)


@pytest.mark.parametrize("name", NAMES)
def test_shape_scales_with_size_and_moves_with_centre(name):
    small = bounds(shape(name, 0.0, 0.0, 1.0, PAINT))
    big = bounds(shape(name, CX, CY, SIZE, PAINT))
    expected = (CX + small[0] * SIZE, CY + small[1] * SIZE, CX + small[2] * SIZE, CY + small[3] * SIZE)
    assert big == pytest.approx(expected)


@pytest.mark.parametrize("name", NAMES)
def test_shape_carries_the_paint(name):
    assert shape(name, CX, CY, SIZE, PAINT).paint == PAINT


def test_circle_is_an_ellipse():
    item = shape("circle", CX, CY, SIZE, PAINT)
    assert isinstance(item, Ellipse)
    assert (item.cx, item.cy) == (CX, CY)
    assert item.rx == item.ry == pytest.approx(0.42 * SIZE)


@pytest.mark.parametrize("name", [n for n in NAMES if n != "circle"])
def test_other_shapes_are_closed_paths(name):
    item = shape(name, CX, CY, SIZE, PAINT)
    assert isinstance(item, Path)
    kinds = [op for op, _ in item.ops]
    assert kinds[0] == "M" and kinds[-1] == "Z"
    assert set(kinds[1:-1]) == {"L"}


@pytest.mark.parametrize("name, corners", [
    ("triangle", 3), ("triangle-down", 3), ("square", 4), ("diamond", 4), ("pentagon", 5),
    ("hexagon", 6), ("star", 10), ("cross", 12),
])
def test_number_of_corners(name, corners):
    assert len(shape(name, CX, CY, SIZE, PAINT).ops) == corners + 1   # + Z


def test_triangles_point_up_and_down():
    up = shape("triangle", 0.0, 0.0, 1.0, PAINT).ops
    down = shape("triangle-down", 0.0, 0.0, 1.0, PAINT).ops
    assert up[0][1][1] < 0 < up[1][1][1]          # apex above (y down), base below
    assert down[0][1][1] > 0 > down[1][1][1]


def test_shapes_are_distinct():
    items = [shape(name, CX, CY, SIZE, PAINT) for name in NAMES]
    assert len(set(items)) == len(NAMES)
    outlines = {name: item.ops for name, item in zip(NAMES, items) if isinstance(item, Path)}
    assert len(set(outlines.values())) == len(outlines)
