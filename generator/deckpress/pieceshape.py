"""The shape a piece is cut to (a component's `shape:`): its outline, its bleed, its safe area.

A piece is `width` × `height` mm (its trim's box, the origin at its top-left, y down, as in a
face). Its shape is one of:

- `rectangle`: today's card, a rectangle with the size's corner radius (no outline: the grid's
  crop marks and `Face.radius` say where it is cut);
- `rounded`: the same with a corner radius of its own (`shape: {rounded: 5mm}`);
- `circle`: the ellipse inscribed in the box, a circle when width = height (a round token);
- `hex`: a pointy-topped hexagon inscribed in the box (points at the top and bottom, flat sides
  left and right); regular when height = width × 2/√3. `hex-flat` is flat-topped (regular when
  width = height × 2/√3);
- `path`: an SVG path (`M … Z`, read by `svgpath`) in the piece's mm, inside the box.

Every outline is a closed list of path operations (`face.PathOp`): a face is clipped to it grown
by the bleed (`outline(..., grow=bleed)`), imposition packs and cuts along it. Growing is exact
for circles, hexes and rounded rectangles (the outline moved out by `grow` all round); a path is
scaled about its box's centre so that box grows by `grow` on every side, which is exact for the
convex shapes people draw as paths only when they are symmetric, and near enough for a bleed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .face import PathOp, transform_path
from .svgpath import parse_path

KAPPA = 0.5522847498  #: a quarter circle as one cubic Bézier: control points this far along the tangents
KINDS = ("rectangle", "rounded", "circle", "hex", "hex-flat", "path")
REGULAR = 2 / math.sqrt(3)  #: a regular hexagon's point-to-point size over its flat-to-flat size
SAFE_INSET = 3.0  #: mm: what a shaped piece sets keeps this far inside its outline (`check` warns)
HEX_TOLERANCE = 0.01  #: a hexagon this far (a share) from regular is said to be squashed

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class PieceShape:
    """A piece's shape: its `kind` (one of KINDS), a `rounded` piece's `radius` (mm), a `path`
    piece's outline (`path`, in the piece's mm)."""

    kind: str = "rectangle"
    radius: float = 0.0
    path: tuple[PathOp, ...] = ()

    @property
    def outlined(self) -> bool:
        """Whether the piece is cut along an outline of its own rather than a rectangle's edges."""
        return self.kind in ("circle", "hex", "hex-flat", "path")


RECTANGLE = PieceShape()


def parse_shape(value: object, width: float, height: float) -> PieceShape:
    """A `shape:` value for a `width` × `height` piece: a kind's name, `{rounded: LENGTH}` (the
    length already in mm), or `path(M … Z)`. Raises ValueError with a message for the user."""
    if isinstance(value, dict):  # {rounded: 5} (mm, read by the model)
        if set(value) != {"rounded"}:
            raise ValueError("a shape given as a mapping is `{rounded: 5mm}`, a corner radius")
        radius = float(value["rounded"])  # type: ignore[arg-type]
        if not 0 <= radius <= min(width, height) / 2:
            raise ValueError(f"a corner radius of {radius:g} mm does not fit a {width:g}×{height:g} mm piece "
                             f"(at most {min(width, height) / 2:g} mm)")
        return PieceShape("rounded", radius)
    text = str(value).strip()
    if text.startswith("path(") and text.endswith(")"):
        ops = parse_path(text[5:-1])
        if ops[-1][0] != "Z":
            raise ValueError("a piece's path must be closed: end it with Z")
        x0, y0, x1, y1 = path_box(ops)
        if x0 < -0.01 or y0 < -0.01 or x1 > width + 0.01 or y1 > height + 0.01:
            raise ValueError(f"the path reaches {x0:g}…{x1:g} × {y0:g}…{y1:g} mm, outside the "
                             f"{width:g}×{height:g} mm piece: draw it inside 0…{width:g} × 0…{height:g}")
        if x1 - x0 < width / 2 or y1 - y0 < height / 2:
            raise ValueError(f"the path covers {x1 - x0:g}×{y1 - y0:g} mm of a {width:g}×{height:g} mm piece: "
                             "make the piece's size the path's size")
        return PieceShape("path", path=ops)
    if text == "rounded":
        raise ValueError("say the corner radius: `shape: {rounded: 5mm}`")
    if text not in KINDS or text == "path":
        raise ValueError(f"unknown shape '{text}'; expected one of rectangle, circle, hex, hex-flat, "
                         "{rounded: 5mm} or path(M … Z)")
    if text in ("hex", "hex-flat"):
        across, points = (width, height) if text == "hex" else (height, width)
        if abs(points / across - REGULAR) > HEX_TOLERANCE * REGULAR:
            flat, tall = ("wide", "tall") if text == "hex" else ("tall", "wide")
            raise ValueError(f"a regular {text} {across:g} mm {flat} is {across * REGULAR:.2f} mm {tall} "
                             f"(point to point), not {points:g} mm: give the size as {_hex_size(text, across)}")
    return PieceShape(text)


def _hex_size(kind: str, across: float) -> str:
    points = round(across * REGULAR, 2)
    return f"{across:g}x{points:g}" if kind == "hex" else f"{points:g}x{across:g}"


def outline(shape: PieceShape, width: float, height: float, grow: float = 0.0) -> tuple[PathOp, ...]:
    """The closed outline of a `width` × `height` piece of `shape` (face mm), moved out by `grow`
    (its bleed) all round."""
    g = grow
    if shape.kind == "circle":
        return ellipse(width / 2, height / 2, width / 2 + g, height / 2 + g)
    if shape.kind in ("hex", "hex-flat"):
        return polygon(grown(hexagon(shape.kind, width, height), g))
    if shape.kind == "path":
        if not g:
            return shape.path
        x0, y0, x1, y1 = path_box(shape.path)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        sx, sy = (x1 - x0 + 2 * g) / (x1 - x0), (y1 - y0 + 2 * g) / (y1 - y0)
        return transform_path(shape.path, (sx, 0.0, 0.0, sy, cx - sx * cx, cy - sy * cy))
    radius = shape.radius + g if shape.kind == "rounded" or g else shape.radius
    return rounded_rect((-g, -g, width + g, height + g), radius if shape.kind == "rounded" else 0.0)


def mirrored(ops: tuple[PathOp, ...], width: float) -> tuple[PathOp, ...]:
    """An outline seen from the other side of its piece: reflected about x = width / 2 (a back face
    is drawn in its own coordinates, which turning the piece over mirrors)."""
    return transform_path(ops, (-1.0, 0.0, 0.0, 1.0, width, 0.0))


def hexagon(kind: str, width: float, height: float) -> list[tuple[float, float]]:
    """The corners of a hexagon inscribed in the box, clockwise from its top (pointy, `hex`) or top
    left (`hex-flat`)."""
    w, h = width, height
    if kind == "hex":
        return [(w / 2, 0.0), (w, h / 4), (w, 3 * h / 4), (w / 2, h), (0.0, 3 * h / 4), (0.0, h / 4)]
    return [(w / 4, 0.0), (3 * w / 4, 0.0), (w, h / 2), (3 * w / 4, h), (w / 4, h), (0.0, h / 2)]


def grown(points: list[tuple[float, float]], by: float) -> list[tuple[float, float]]:
    """A convex polygon (clockwise on the page, y down) with every side moved out by `by`: each
    corner where its two moved sides meet."""
    if not by:
        return points
    n = len(points)
    lines = []
    for i in range(n):
        (ax, ay), (bx, by_) = points[i], points[(i + 1) % n]
        dx, dy = bx - ax, by_ - ay
        length = math.hypot(dx, dy)
        nx, ny = dy / length, -dx / length  # outward for clockwise turning on a y-down page
        lines.append((ax + nx * by, ay + ny * by, dx, dy))
    corners = []
    for i in range(n):
        (px, py, ux, uy), (qx, qy, vx, vy) = lines[i - 1], lines[i]
        t = ((qx - px) * vy - (qy - py) * vx) / (ux * vy - uy * vx)
        corners.append((px + t * ux, py + t * uy))
    return corners


def polygon(points: list[tuple[float, float]]) -> tuple[PathOp, ...]:
    """A closed polygon through `points`, as path operations."""
    ops: list[PathOp] = [("M", (round(points[0][0], 6), round(points[0][1], 6)))]
    ops += [("L", (round(x, 6), round(y, 6))) for x, y in points[1:]]
    return (*ops, ("Z", ()))


def ellipse(cx: float, cy: float, rx: float, ry: float) -> tuple[PathOp, ...]:
    """An ellipse as four cubic Béziers, clockwise from its top."""
    kx, ky = rx * KAPPA, ry * KAPPA
    r = lambda *v: tuple(round(c, 6) for c in v)  # noqa: E731
    return (("M", r(cx, cy - ry)), ("C", r(cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy)),
            ("C", r(cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry)),
            ("C", r(cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy)),
            ("C", r(cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry)), ("Z", ()))


def rounded_rect(box: Box, radius: float) -> tuple[PathOp, ...]:
    """A rectangle with corners rounded by `radius`, clockwise from the top edge's left end."""
    x0, y0, x1, y1 = box
    r = max(0.0, min(radius, (x1 - x0) / 2, (y1 - y0) / 2))
    if r == 0:
        return (("M", (x0, y0)), ("L", (x1, y0)), ("L", (x1, y1)), ("L", (x0, y1)), ("Z", ()))
    k = r * KAPPA
    return (("M", (x0 + r, y0)), ("L", (x1 - r, y0)), ("C", (x1 - r + k, y0, x1, y0 + r - k, x1, y0 + r)),
            ("L", (x1, y1 - r)), ("C", (x1, y1 - r + k, x1 - r + k, y1, x1 - r, y1)),
            ("L", (x0 + r, y1)), ("C", (x0 + r - k, y1, x0, y1 - r + k, x0, y1 - r)),
            ("L", (x0, y0 + r)), ("C", (x0, y0 + r - k, x0 + r - k, y0, x0 + r, y0)), ("Z", ()))


def path_box(ops: tuple[PathOp, ...]) -> Box:
    """The box of a path's points (curves by their control points, which hold them)."""
    xs = [v for _, pts in ops for v in pts[0::2]]
    ys = [v for _, pts in ops for v in pts[1::2]]
    return (min(xs), min(ys), max(xs), max(ys))


def flattened(ops: tuple[PathOp, ...], steps: int = 32) -> list[list[tuple[float, float]]]:
    """A path's subpaths as polygons, each curve cut into `steps` straight pieces."""
    rings: list[list[tuple[float, float]]] = []
    at = (0.0, 0.0)
    for op, pts in ops:
        if op == "M":
            at = (pts[0], pts[1])
            rings.append([at])
        elif op == "L":
            at = (pts[0], pts[1])
            rings[-1].append(at)
        elif op == "C":
            (x0, y0), (x1, y1, x2, y2, x3, y3) = at, pts
            for i in range(1, steps + 1):
                t = i / steps
                u = 1 - t
                rings[-1].append((u ** 3 * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t ** 3 * x3,
                                  u ** 3 * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t ** 3 * y3))
            at = (x3, y3)
    return [ring[:-1] if len(ring) > 1 and ring[0] == ring[-1] else ring for ring in rings]


def inside(point: tuple[float, float], rings: list[list[tuple[float, float]]]) -> bool:
    """Whether `point` lies inside the polygons (even-odd)."""
    x, y = point
    hit = False
    for ring in rings:
        for (ax, ay), (bx, by) in zip(ring, ring[1:] + ring[:1]):
            if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
                hit = not hit
    return hit


def distance_to_edge(point: tuple[float, float], rings: list[list[tuple[float, float]]]) -> float:
    """How far `point` is from the nearest side of the polygons."""
    x, y = point
    best = math.inf
    for ring in rings:
        for (ax, ay), (bx, by) in zip(ring, ring[1:] + ring[:1]):
            dx, dy = bx - ax, by - ay
            length = dx * dx + dy * dy
            t = 0.0 if not length else max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / length))
            best = min(best, math.hypot(x - ax - t * dx, y - ay - t * dy))
    return best


def within_safe_area(box: Box, ops: tuple[PathOp, ...], inset: float) -> bool:
    """Whether `box` (x0, y0, x1, y1, face mm) lies inside the outline `ops` and at least `inset`
    from it: its corners and the middles of its sides inside and that far in, and no corner of the
    outline inside it (which a shape with a notch could put there)."""
    rings = flattened(ops)
    x0, y0, x1, y1 = box
    xm, ym = (x0 + x1) / 2, (y0 + y1) / 2
    for p in ((x0, y0), (xm, y0), (x1, y0), (x1, ym), (x1, y1), (xm, y1), (x0, y1), (x0, ym)):
        if not inside(p, rings) or distance_to_edge(p, rings) < inset - 1e-6:
            return False
    return not any(x0 < px < x1 and y0 < py < y1 for ring in rings for px, py in ring)
