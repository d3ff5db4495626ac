"""deckpress.svgpath: SVG path data to absolute M/L/C/Z operations."""

from __future__ import annotations

import subprocess
import sys

import pytest

from deckpress.svgpath import parse_path


def assert_ops_close(ops, expected):
    assert [op for op, _ in ops] == [op for op, _ in expected]
    for (_, pts), (_, want) in zip(ops, expected):
        assert pts == pytest.approx(want)


def cubic(p0, c1, c2, p1, t):
    s = 1 - t
    return tuple(s**3 * a + 3 * s * s * t * b + 3 * s * t * t * c + t**3 * d for a, b, c, d in zip(p0, c1, c2, p1))


def quadratic(p0, q, p1, t):
    s = 1 - t
    return tuple(s * s * a + 2 * s * t * b + t * t * c for a, b, c in zip(p0, q, p1))


# --- lines and moves ---------------------------------------------------------------------------

@pytest.mark.parametrize("data, ops", [
    ("M 0 0 L 10 0 Z", [("M", (0, 0)), ("L", (10, 0)), ("Z", ())]),
    ("M0,0L10,5", [("M", (0, 0)), ("L", (10, 5))]),
    ("M 1 2 l 3 4 l 1 1", [("M", (1, 2)), ("L", (4, 6)), ("L", (5, 7))]),
    ("m 1 2 l 3 4", [("M", (1, 2)), ("L", (4, 6))]),                     # first m is from (0, 0)
    ("M 0 0 10 0 10 10", [("M", (0, 0)), ("L", (10, 0)), ("L", (10, 10))]),   # extra pairs are lines
    ("m 1 1 2 0 0 2", [("M", (1, 1)), ("L", (3, 1)), ("L", (3, 3))]),      # ... relative after m
    ("M 0 0 L 1 1 2 2", [("M", (0, 0)), ("L", (1, 1)), ("L", (2, 2))]),
    ("M 5 5 m 1 1", [("M", (5, 5)), ("M", (6, 6))]),
    ("M-1-2L.5.5", [("M", (-1, -2)), ("L", (0.5, 0.5))]),                # signs and dots separate numbers
    ("M 1e1 2E-1", [("M", (10, 0.2))]),
    ("M +1 +2", [("M", (1, 2))]),
])
def test_moves_and_lines(data, ops):
    assert parse_path(data) == tuple(ops)


@pytest.mark.parametrize("data, ops", [
    ("M 1 2 H 5", [("M", (1, 2)), ("L", (5, 2))]),
    ("M 1 2 V 5", [("M", (1, 2)), ("L", (1, 5))]),
    ("M 1 2 h 5", [("M", (1, 2)), ("L", (6, 2))]),
    ("M 1 2 v 5", [("M", (1, 2)), ("L", (1, 7))]),
    ("M 0 0 H 1 2 3", [("M", (0, 0)), ("L", (1, 0)), ("L", (2, 0)), ("L", (3, 0))]),
    ("M 0 0 h 1 1 v -3", [("M", (0, 0)), ("L", (1, 0)), ("L", (2, 0)), ("L", (2, -3))]),
])
def test_horizontal_and_vertical_lines(data, ops):
    assert parse_path(data) == tuple(ops)


# --- closing -----------------------------------------------------------------------------------

def test_z_returns_to_the_start_of_the_subpath():
    ops = parse_path("M 1 1 l 5 0 l 0 5 z l 2 0")
    assert ops[-2:] == (("Z", ()), ("L", (3, 1)))


def test_z_returns_to_the_latest_move():
    ops = parse_path("M 0 0 L 5 0 Z M 10 10 l 5 0 Z m 1 1")
    assert ops[-1] == ("M", (11, 11))


def test_lowercase_z():
    assert parse_path("M 0 0 L 1 0 z") == (("M", (0, 0)), ("L", (1, 0)), ("Z", ()))


# --- curves ------------------------------------------------------------------------------------

def test_cubic_absolute_and_relative():
    assert parse_path("M 0 0 C 5 -3 10 -3 15 0") == (("M", (0, 0)), ("C", (5, -3, 10, -3, 15, 0)))
    assert parse_path("M 10 10 c 5 -3 10 -3 15 0") == (("M", (10, 10)), ("C", (15, 7, 20, 7, 25, 10)))


def test_repeated_cubic_arguments_are_more_curves():
    ops = parse_path("M 0 0 c 1 1 2 1 3 0 1 1 2 1 3 0")
    assert ops[1:] == (("C", (1, 1, 2, 1, 3, 0)), ("C", (4, 1, 5, 1, 6, 0)))


def test_s_reflects_the_previous_second_control_point():
    ops = parse_path("M 0 0 C 1 2 3 2 4 0 S 7 -2 8 0")
    assert ops[2] == ("C", (5, -2, 7, -2, 8, 0))


def test_relative_s_reflects_after_relative_c():
    ops = parse_path("M 0 0 c 1 2 3 2 4 0 s 3 -2 4 0")
    assert ops[2] == ("C", (5, -2, 7, -2, 8, 0))


def test_s_after_s_keeps_reflecting():
    ops = parse_path("M 0 0 C 0 1 1 1 1 0 S 2 -1 2 0 S 3 1 3 0")
    assert ops[3] == ("C", (2, 1, 3, 1, 3, 0))


@pytest.mark.parametrize("before", ["M 2 3", "M 0 0 L 2 3", "M 0 0 Q 1 1 2 3"])
def test_s_without_a_previous_cubic_starts_at_the_current_point(before):
    ops = parse_path(f"{before} S 5 5 6 3")
    assert ops[-1] == ("C", (2, 3, 5, 5, 6, 3))


def test_q_becomes_an_exact_cubic():
    p0, q, p1 = (0.0, 0.0), (3.0, 6.0), (6.0, 0.0)
    op, pts = parse_path("M 0 0 Q 3 6 6 0")[1]
    assert op == "C"
    c1, c2, end = pts[0:2], pts[2:4], pts[4:6]
    assert end == p1                                  # the endpoint is exact, not rounded
    assert c1 == pytest.approx((2, 4))                 # p0 + 2/3 (q - p0)
    assert c2 == pytest.approx((4, 4))                 # p1 + 2/3 (q - p1)
    for t in (0.0, 0.25, 0.5, 0.9, 1.0):
        assert cubic(p0, c1, c2, p1, t) == pytest.approx(quadratic(p0, q, p1, t))


def test_relative_q_and_exact_endpoints():
    op, pts = parse_path("M 1.1 2.2 q 1 1 3.3 0")[1]
    assert pts[4:] == (1.1 + 3.3, 2.2)
    # the curve leaves the start point towards the control point
    assert (pts[0] - 1.1, pts[1] - 2.2) == pytest.approx((2 / 3, 2 / 3))


def test_t_reflects_the_previous_quadratic_control_point():
    ops = parse_path("M 0 0 Q 3 6 6 0 T 12 0")
    # reflected control point is (9, -6): c1 = 6 + 2/3·3, 0 + 2/3·-6; c2 = 12 + 2/3·-3, 2/3·-6
    assert_ops_close(ops[2:], [("C", (8, -4, 10, -4, 12, 0))])


def test_relative_t_after_t():
    ops = parse_path("M 0 0 q 3 6 6 0 t 6 0 t 6 0")
    # the control points alternate (3, 6), (9, -6), (15, 6)
    assert_ops_close(ops[3:], [("C", (14, 4, 16, 4, 18, 0))])


def test_t_without_a_previous_quadratic_is_a_straight_curve():
    ops = parse_path("M 0 0 C 1 1 2 1 3 0 T 6 0")
    assert_ops_close(ops[2:], [("C", (3, 0, 4, 0, 6, 0))])


# --- errors ------------------------------------------------------------------------------------

@pytest.mark.parametrize("data, message", [
    ("M 0 0 A 5 5 0 0 1 10 0", "arcs (A) are not supported in paths; draw them with C curves"),
    ("M 0 0 a 5 5 0 0 1 10 0", "arcs (A) are not supported"),
    ("M 0 0 L 10", "command L in 'M 0 0 L 10' needs 2 numbers"),
    ("M 0 0 C 1 2 3 4 5", "command C in 'M 0 0 C 1 2 3 4 5' needs 6 numbers"),
    ("M 0 0 L 10 Z", "command L in 'M 0 0 L 10 Z' needs 2 numbers"),
    ("M 0", "command M in 'M 0' needs 2 numbers"),
    ("M 0 0 L 1 1 2", "command L in 'M 0 0 L 1 1 2' needs 2 numbers"),
    ("L 0 0 10 10", "path data 'L 0 0 10 10' must start with M"),
    ("Z", "must start with M"),
    ("0 0 L 10 10", "path data '0 0 L 10 10' must start with a command such as M"),
    ("", "cannot read path data ''; expected SVG path commands like 'M 0 0 L 10 0 Z'"),
    ("   ", "cannot read path data"),
    ("M 0 0 X 5 5", "cannot read path data 'M 0 0 X 5 5'"),
    ("M 0 0 L 1e 2", "cannot read path data"),
    ("M 0 0; L 1 1", "cannot read path data"),
])
def test_errors(data, message):
    with pytest.raises(ValueError) as info:
        parse_path(data)
    assert message in str(info.value)


def test_numbers_after_z_are_an_error():
    # run in a child process: the bug is an endless loop
    code = ("from deckpress.svgpath import parse_path\n"
            "try:\n    parse_path('M 0 0 L 1 1 Z 5 5')\nexcept ValueError:\n    raise SystemExit(0)\n"
            "raise SystemExit(1)\n")
    try:
        result = subprocess.run([sys.executable, "-c", code], timeout=3, capture_output=True)
    except subprocess.TimeoutExpired:
        pytest.fail("parse_path('M 0 0 L 1 1 Z 5 5') did not return")
    assert result.returncode == 0
