"""deckpress.face: affine matrices, immutable hashable faces, and the boxes items cover."""

from __future__ import annotations

import math

import pytest

from deckpress.colors import BLACK, RGB
from deckpress.face import (IDENTITY, Ellipse, Face, Group, Image, Line, Paint, Path, Rect, Text, apply,
                            bounds, multiply, rotation, translation)

RED = Paint(fill=RGB(1.0, 0.0, 0.0))


def close(a, b):
    return a == pytest.approx(b, abs=1e-9)


# --- matrices ----------------------------------------------------------------------------------

@pytest.mark.parametrize("m, point, expected", [
    (IDENTITY, (3.0, 4.0), (3.0, 4.0)),
    (translation(2.0, -1.0), (3.0, 4.0), (5.0, 3.0)),
    ((2.0, 0.0, 0.0, 3.0, 0.0, 0.0), (3.0, 4.0), (6.0, 12.0)),
    ((1.0, 0.5, 0.25, 1.0, 10.0, 20.0), (4.0, 8.0), (4.0 + 2.0 + 10.0, 2.0 + 8.0 + 20.0)),  # PDF order
])
def test_apply(m, point, expected):
    assert apply(m, *point) == expected


def test_multiply_applies_the_second_matrix_first():
    scale, move = (2.0, 0.0, 0.0, 2.0, 0.0, 0.0), translation(5.0, 0.0)
    assert apply(multiply(scale, move), 1.0, 1.0) == (12.0, 2.0)    # move, then scale
    assert apply(multiply(move, scale), 1.0, 1.0) == (7.0, 2.0)     # scale, then move


@pytest.mark.parametrize("m, n", [
    ((1.0, 2.0, 3.0, 4.0, 5.0, 6.0), (0.5, -1.0, 2.0, 0.25, -3.0, 7.0)),
    (rotation(30.0, 4.0, 5.0), (2.0, 0.0, 0.5, 3.0, 1.0, -1.0)),
])
def test_multiply_is_composition(m, n):
    for x, y in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (-2.5, 3.5)]:
        assert close(apply(multiply(m, n), x, y), apply(m, *apply(n, x, y)))


def test_multiply_identity_and_associativity():
    m, n, k = (1.0, 2.0, 3.0, 4.0, 5.0, 6.0), (0.5, -1.0, 2.0, 0.25, -3.0, 7.0), rotation(45.0)
    assert multiply(IDENTITY, m) == m
    assert multiply(m, IDENTITY) == m
    assert close(multiply(multiply(m, n), k), multiply(m, multiply(n, k)))


def test_translations_add():
    assert multiply(translation(1.0, 2.0), translation(3.0, 4.0)) == translation(4.0, 6.0)


@pytest.mark.parametrize("degrees, point, expected", [
    (90.0, (1.0, 0.0), (0.0, 1.0)),       # right -> down: clockwise on the page (y down)
    (90.0, (0.0, 1.0), (-1.0, 0.0)),
    (180.0, (1.0, 2.0), (-1.0, -2.0)),
    (270.0, (1.0, 0.0), (0.0, -1.0)),
    (-90.0, (1.0, 0.0), (0.0, -1.0)),
    (360.0, (1.0, 2.0), (1.0, 2.0)),
])
def test_rotation_about_the_origin(degrees, point, expected):
    assert apply(rotation(degrees), *point) == expected     # exact: quarter turns are rounded to 0/±1


def test_rotation_by_quarter_turns_is_exact():
    assert rotation(90.0) == (0.0, 1.0, -1.0, 0.0, 0.0, 0.0)
    assert rotation(180.0) == (-1.0, 0.0, -0.0, -1.0, 0.0, 0.0)


@pytest.mark.parametrize("degrees, point, expected", [
    (90.0, (6.0, 5.0), (5.0, 6.0)),
    (90.0, (5.0, 5.0), (5.0, 5.0)),       # the centre stays put
    (90.0, (0.0, 0.0), (10.0, 0.0)),
    (180.0, (6.0, 5.0), (4.0, 5.0)),
    (180.0, (0.0, 0.0), (10.0, 10.0)),
    (180.0, (7.0, 9.0), (3.0, 1.0)),
])
def test_rotation_about_a_point(degrees, point, expected):
    assert apply(rotation(degrees, 5.0, 5.0), *point) == expected


def test_rotation_by_other_angles():
    x, y = apply(rotation(30.0, 1.0, 1.0), 3.0, 1.0)
    assert close((x, y), (1.0 + 2 * math.cos(math.radians(30)), 1.0 + 2 * math.sin(math.radians(30))))
    assert close(multiply(rotation(30.0), rotation(60.0)), rotation(90.0))


# --- faces are values --------------------------------------------------------------------------

def build_face() -> Face:
    return Face(63.0, 88.0, 3.0, (
        Rect(-3.0, -3.0, 69.0, 94.0, paint=Paint(fill=RGB(0.8, 0.2, 0.2))),
        Ellipse(31.5, 44.0, 5.0, 5.0, RED),
        Line(0.0, 0.0, 10.0, 10.0, Paint(stroke=BLACK, stroke_width=0.3, dash=(1.0, 1.0))),
        Path((("M", (0.0, 0.0)), ("L", (5.0, 0.0)), ("Z", ())), RED),
        Text(5.0, 10.0, "Title", "/fonts/NotoSans-Regular.ttf", 4.0, BLACK),
        Image(5.0, 20.0, 53.0, 40.0, "art.png", grey=True),
        Group((Rect(0.0, 0.0, 1.0, 1.0),), rotation(90.0, 31.5, 44.0), clip=(0.0, 0.0, 63.0, 88.0)),
    ))


def test_faces_built_the_same_are_equal_and_hash_the_same():
    a, b = build_face(), build_face()
    assert a is not b
    assert a == b
    assert hash(a) == hash(b)
    assert len({a, b}) == 1


def test_faces_that_differ_are_not_equal():
    a = build_face()
    assert a != a.with_items(a.items[:-1])
    assert a != Face(63.0, 88.0, 0.0, a.items)
    other = a.with_items(a.items[:1] + (Ellipse(31.5, 44.0, 5.0, 5.0, Paint(fill=RGB(0.0, 0.0, 1.0))),) + a.items[2:])
    assert a != other
    assert len({a, other}) == 2


def test_with_items_leaves_the_original_alone():
    a = build_face()
    b = a.with_items(())
    assert (b.width, b.height, b.bleed, b.items) == (63.0, 88.0, 3.0, ())
    assert len(a.items) == 7


def test_faces_and_items_are_immutable():
    face = build_face()
    with pytest.raises(AttributeError):
        face.width = 10.0  # type: ignore[misc]
    with pytest.raises(AttributeError):
        face.items[0].x = 1.0  # type: ignore[misc]


def test_defaults():
    assert Face(1.0, 2.0, 0.0).items == ()
    assert Paint() == Paint(None, None, 0.0, (), "auto")
    assert Rect(0, 0, 1, 1).paint == Paint() and Rect(0, 0, 1, 1).radius == 0.0
    assert Line(0, 0, 1, 1).cap == "butt"
    assert Group(()).transform == IDENTITY and Group(()).clip is None


# --- bounds ------------------------------------------------------------------------------------

@pytest.mark.parametrize("item, box", [
    (Rect(1.0, 2.0, 10.0, 20.0, radius=3.0), (1.0, 2.0, 11.0, 22.0)),
    (Rect(-3.0, -3.0, 69.0, 94.0), (-3.0, -3.0, 66.0, 91.0)),
    (Ellipse(10.0, 20.0, 3.0, 4.0), (7.0, 16.0, 13.0, 24.0)),
    (Line(10.0, 0.0, 2.0, 5.0), (2.0, 0.0, 10.0, 5.0)),
    (Line(0.0, 8.0, 4.0, 1.0, Paint(stroke_width=5.0)), (0.0, 1.0, 4.0, 8.0)),   # stroke width ignored
    (Path((("M", (1.0, 5.0)), ("L", (4.0, -2.0)), ("C", (0.0, 9.0, 7.0, 3.0, 2.0, 2.0)), ("Z", ()))),
     (0.0, -2.0, 7.0, 9.0)),                                # control points count
    (Path(()), (0.0, 0.0, 0.0, 0.0)),
    (Path((("Z", ()),)), (0.0, 0.0, 0.0, 0.0)),
    (Text(5.0, 10.0, "abcd", "f.ttf", 4.0, BLACK), (5.0, 6.0, 5.0 + 4 * 4.0 * 0.6, 10.0)),  # above the baseline
    (Text(5.0, 10.0, "", "f.ttf", 4.0, BLACK), (5.0, 6.0, 5.0, 10.0)),
    (Image(1.0, 2.0, 30.0, 40.0, "a.png"), (1.0, 2.0, 31.0, 42.0)),
    (Group(()), (0.0, 0.0, 0.0, 0.0)),
])
def test_bounds(item, box):
    assert bounds(item) == pytest.approx(box)


def test_bounds_of_a_group_cover_all_children():
    group = Group((Rect(0.0, 0.0, 2.0, 2.0), Ellipse(10.0, 10.0, 1.0, 1.0), Line(-5.0, 3.0, 0.0, 3.0)))
    assert bounds(group) == (-5.0, 0.0, 11.0, 11.0)


@pytest.mark.parametrize("transform, box", [
    (translation(10.0, 20.0), (10.0, 20.0, 14.0, 22.0)),
    (rotation(90.0), (-2.0, 0.0, 0.0, 4.0)),                  # 4 wide, 2 tall becomes 2 wide, 4 tall
    (rotation(180.0, 2.0, 1.0), (0.0, 0.0, 4.0, 2.0)),        # half turn about its own centre
    (rotation(90.0, 2.0, 1.0), (1.0, -1.0, 3.0, 3.0)),
    ((2.0, 0.0, 0.0, -1.0, 0.0, 0.0), (0.0, -2.0, 8.0, 0.0)),  # scale and flip
])
def test_bounds_of_a_transformed_group(transform, box):
    group = Group((Rect(0.0, 0.0, 4.0, 2.0),), transform)
    assert bounds(group) == pytest.approx(box)


def test_bounds_of_a_rotated_group_use_all_four_corners():
    group = Group((Rect(-1.0, -1.0, 2.0, 2.0),), rotation(45.0))
    r = math.sqrt(2)
    assert bounds(group) == pytest.approx((-r, -r, r, r))


def test_bounds_of_nested_groups_compose_transforms():
    inner = Group((Rect(0.0, 0.0, 4.0, 2.0),), rotation(90.0))      # -> (-2, 0, 0, 4)
    outer = Group((inner,), translation(10.0, 100.0))
    assert bounds(outer) == pytest.approx((8.0, 100.0, 10.0, 104.0))


@pytest.mark.parametrize("item, changes", [
    (Rect(1, 2, 3, 4, 0.5, RED), {"paint": Paint(stroke=BLACK, stroke_width=0.2)}),
    (Ellipse(1, 2, 3, 4, RED), {"cx": 9.0}),
    (Line(0, 0, 5, 5, RED, "round"), {"paint": Paint(), "cap": "square"}),
    (Path((("M", (0.0, 0.0)), ("L", (1.0, 1.0))), RED, True), {"even_odd": False}),
    (Text(1, 2, "x", "f.ttf", 3, BLACK, "keep"), {"color": RGB(0.5, 0.5, 0.5)}),
    (Image(0, 0, 1, 1, "a.png"), {"grey": True, "lighten": 0.5}),
    (Group((Rect(0, 0, 1, 1),), translation(1, 2), (0, 0, 1, 1), 0.5), {"items": ()}),
    (RED, {"fill": None, "ink": "light"}),
])
def test_evolve_is_dataclasses_replace(item, changes):
    from dataclasses import replace

    from deckpress.face import evolve

    new, expected = evolve(item, **changes), replace(item, **changes)
    assert new == expected and hash(new) == hash(expected) and repr(new) == repr(expected)
    assert type(new) is type(item) and new is not item
    with pytest.raises(AssertionError):
        evolve(item, no_such_field=1)


# --- made bleed --------------------------------------------------------------------------------

from deckpress.face import cropped_box, grown_into_bleed  # noqa: E402

POKER = (0.0, 0.0, 63.5, 88.9)


def covered(items) -> list[tuple[float, ...]]:
    """The face box each copy covers (its clip taken through its transform), to 0.01 mm."""
    return sorted(tuple(round(v, 2) for v in bounds(copy)) for copy in items[1:])


STRIPS = [(-3.0, -3.0, 0.0, 0.0), (-3.0, 0.0, 0.0, 88.9), (-3.0, 88.9, 0.0, 91.9),  # left: corner, edge, corner
          (0.0, -3.0, 63.5, 0.0), (0.0, 88.9, 63.5, 91.9),  # top, bottom
          (63.5, -3.0, 66.5, 0.0), (63.5, 0.0, 66.5, 88.9), (63.5, 88.9, 66.5, 91.9)]  # right


def test_a_picture_at_the_trim_is_mirrored_into_every_strip_and_corner_of_the_bleed():
    picture = Image(0, 0, 63.5, 88.9, "art.png")
    items, reaches = grown_into_bleed(picture, POKER, 3.0, "mirror")
    assert reaches and items[0] is picture
    assert covered(items) == STRIPS
    # each copy is the picture itself, reflected about the edges it lies beyond
    assert all(copy.items == (picture,) and copy.items[0] is picture for copy in items[1:])
    left = next(c for c in items[1:] if round(bounds(c)[0], 2) == -3 and round(bounds(c)[1], 2) == 0)
    assert left.transform == (-1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    assert apply(left.transform, 1.0, 40.0) == (-1.0, 40.0)  # 1 mm inside shows 1 mm outside
    corner = next(c for c in items[1:] if tuple(round(v, 2) for v in bounds(c)) == (63.5, 88.9, 66.5, 91.9))
    assert apply(corner.transform, 62.5, 87.9) == pytest.approx((64.5, 89.9))


def test_extend_stretches_a_rasters_outermost_pixels_and_vector_arts_outermost_band():
    picture = Image(0, 0, 63.5, 88.9, "art.png")
    items, _ = grown_into_bleed(picture, POKER, 3.0, "extend", pixels=(750, 1050))
    assert covered(items) == STRIPS
    crops = {tuple(round(v, 2) for v in bounds(c)): c.items[0].crop for c in items[1:]}
    assert crops[(-3.0, 0.0, 0.0, 88.9)] == (0, 0, 1, 1050)  # the left column …
    assert crops[(0.0, 88.9, 63.5, 91.9)] == (0, 1049, 750, 1050)  # … the bottom row
    assert crops[(63.5, -3.0, 66.5, 0.0)] == (749, 0, 750, 1)  # the top right pixel in its corner
    assert all(c.items[0] == Image(0, 0, 63.5, 88.9, "art.png", crop=c.items[0].crop) for c in items[1:])
    left = next(c for c in items[1:] if c.items[0].crop == (0, 0, 1, 1050))
    assert left.transform[0] == pytest.approx(-3.0 / (63.5 / 750))  # one pixel stretched over 3 mm
    vector, _ = grown_into_bleed(Image(0, 0, 63.5, 88.9, "art.svg"), POKER, 3.0, "extend")
    assert covered(vector) == STRIPS
    assert {c.clip[2] for c in vector[1:] if c.transform[0] != 1} == {0.2}  # its outermost 0.2 mm …
    assert {c.transform[0] for c in vector[1:]} == {1.0, -15.0}  # … 15 times as wide


def test_only_the_edges_a_picture_reaches_grow_and_a_picture_reaching_none_is_left_alone():
    top_band = Image(0, 0, 63.5, 20, "band.png")
    items, reaches = grown_into_bleed(top_band, POKER, 3.0, "mirror")
    assert reaches and covered(items) == [(-3.0, -3.0, 0.0, 0.0), (-3.0, 0.0, 0.0, 20.0), (0.0, -3.0, 63.5, 0.0),
                                          (63.5, -3.0, 66.5, 0.0), (63.5, 0.0, 66.5, 20.0)]
    inside = Image(0.5, 10, 50, 20, "icon.png")  # 0.5 mm in from the trim: it stops where it stops
    assert grown_into_bleed(inside, POKER, 3.0, "mirror") == ((inside,), False)
    near = Image(0.04, 10, 63.42, 20, "icon.png")  # within REACH of both sides: reflected about its own edges
    assert covered(grown_into_bleed(near, POKER, 3.0, "mirror")[0]) == [(-3.0, 10.0, 0.04, 30.0),
                                                                       (63.46, 10.0, 66.5, 30.0)]
    full = Image(-3, -3, 69.5, 94.9, "full.png")  # covers the bleed already
    assert grown_into_bleed(full, POKER, 3.0, "mirror") == ((full,), True)
    assert grown_into_bleed(Image(0, 0, 63.5, 88.9, "a.png"), POKER, 0.0, "mirror")[0] == \
        (Image(0, 0, 63.5, 88.9, "a.png"),)  # a face without bleed


def test_a_covering_picture_shows_what_it_holds_past_its_box_before_anything_is_mirrored():
    wide = Image(-1.0, 0, 65.5, 88.9, "wide.png")  # 1 mm past the trim left and right, clipped to the trim
    items, _ = grown_into_bleed(wide, POKER, 3.0, "mirror", clip=(0, 0, 63.5, 88.9))
    assert items[0] == Group((wide,), clip=(-1.0, 0.0, 65.5, 88.9))  # the 1 mm it holds past either side
    assert covered(items) == [(-3.0, -3.0, -1.0, 0.0), (-3.0, 0.0, -1.0, 88.9), (-3.0, 88.9, -1.0, 91.9),
                              (-1.0, -3.0, 64.5, 0.0), (-1.0, 88.9, 64.5, 91.9),
                              (64.5, -3.0, 66.5, 0.0), (64.5, 0.0, 66.5, 88.9), (64.5, 88.9, 66.5, 91.9)]
    left = next(c for c in items[1:] if tuple(round(v, 2) for v in bounds(c)) == (-3.0, 0.0, -1.0, 88.9))
    assert apply(left.transform, 0.0, 10.0) == pytest.approx((-2.0, 10.0))  # about the picture's own edge
    tall, _ = grown_into_bleed(Image(0, -10, 63.5, 108.9, "tall.png"), POKER, 3.0, "mirror", clip=(0, 0, 63.5, 88.9))
    assert tall[0] == Group((Image(0, -10, 63.5, 108.9, "tall.png"),), clip=(0.0, -3.0, 63.5, 94.9))
    assert covered(tall) == [(-3.0, -3.0, 0.0, 91.9), (63.5, -3.0, 66.5, 91.9)]  # the sides only


def test_a_picture_turned_half_round_grows_where_the_trim_lies_before_it_is_turned():
    # a band at the card's top, to be turned 180° about its centre (31.75, 10): the trim as it sees it
    band = Image(0, 0, 63.5, 20, "band.png")
    items, _ = grown_into_bleed(band, (0.0, -68.9, 63.5, 20.0), 3.0, "mirror")
    assert covered(items) == [(-3.0, 0.0, 0.0, 20.0), (-3.0, 20.0, 0.0, 23.0), (0.0, 20.0, 63.5, 23.0),
                              (63.5, 0.0, 66.5, 20.0), (63.5, 20.0, 66.5, 23.0)]


def test_a_cropped_rasters_pixels_lie_where_they_lie_in_the_whole_picture():
    im = Image(10, 20, 30, 40, "a.png", crop=(0, 99, 150, 100))
    assert cropped_box(im, (150, 100)) == pytest.approx((10, 59.6, 40, 60))
    assert cropped_box(Image(10, 20, 30, 40, "a.png"), (150, 100)) == (10, 20, 40, 60)
