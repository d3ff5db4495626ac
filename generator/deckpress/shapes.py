"""Named shapes for palette symbols: the second code that carries a colour's meaning.

Each shape is a closed path in a unit box centred on the origin (y down), drawn as large as
fits a circle of diameter 1 so that all shapes read as the same size.
"""

from __future__ import annotations

import math

from .face import Ellipse, Item, Paint, Path, PathOp

_K = 0.5522847498  # cubic Bézier handle length for a quarter circle


def _polygon(points: list[tuple[float, float]]) -> tuple[PathOp, ...]:
    """A closed path through the points, moved so that its box is centred on the origin: shapes
    then sit level with each other whatever their outline."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    dx, dy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    points = [(x - dx, y - dy) for x, y in points]
    ops: list[PathOp] = [("M", points[0])]
    ops += [("L", p) for p in points[1:]]
    ops.append(("Z", ()))
    return tuple(ops)


def _regular(n: int, start: float = -90.0, r: float = 0.5) -> list[tuple[float, float]]:
    return [(r * math.cos(math.radians(start + 360 * i / n)), r * math.sin(math.radians(start + 360 * i / n)))
            for i in range(n)]


def _star(points: int = 5, inner: float = 0.2) -> list[tuple[float, float]]:
    outer = _regular(points)
    inner_pts = _regular(points, -90 + 180 / points, inner)
    return [p for pair in zip(outer, inner_pts) for p in pair]


def _triangle() -> list[tuple[float, float]]:
    # equilateral, 0.9 wide, so that it looks as big as the circle and the square
    h = math.sqrt(3) / 2 * 0.9
    return [(0.0, -h / 2), (0.45, h / 2), (-0.45, h / 2)]


SHAPES: dict[str, tuple[PathOp, ...] | None] = {
    "circle": None,  # drawn as an ellipse
    "triangle": _polygon(_triangle()),
    "square": _polygon([(-0.4, -0.4), (0.4, -0.4), (0.4, 0.4), (-0.4, 0.4)]),
    "diamond": _polygon([(0.0, -0.5), (0.5, 0.0), (0.0, 0.5), (-0.5, 0.0)]),
    "pentagon": _polygon(_regular(5)),
    "hexagon": _polygon(_regular(6, 0.0)),
    "star": _polygon(_star()),
    "cross": _polygon([(-0.15, -0.5), (0.15, -0.5), (0.15, -0.15), (0.5, -0.15), (0.5, 0.15), (0.15, 0.15),
                       (0.15, 0.5), (-0.15, 0.5), (-0.15, 0.15), (-0.5, 0.15), (-0.5, -0.15), (-0.15, -0.15)]),
    "triangle-down": _polygon([(x, -y) for x, y in _triangle()]),
}


def shape(name: str, cx: float, cy: float, size: float, paint: Paint) -> Item:
    """The named shape, `size` across, centred on (cx, cy)."""
    if name == "circle":
        r = 0.42 * size
        return Ellipse(cx, cy, r, r, paint)
    ops = tuple((op, tuple(v * size + (cx if i % 2 == 0 else cy) for i, v in enumerate(pts)))
                for op, pts in SHAPES[name])
    return Path(ops, paint)
