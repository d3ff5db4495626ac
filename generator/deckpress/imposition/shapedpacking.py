"""Shaped pieces (round tokens, hex tiles, a path's shape) packed tightly on home sheets.

A run of pieces of one size and one outline (`Face.outline`, face mm) is laid out in rows: each
piece `across` from the one before it, the closest its bleed allows; every other row shifted by
half of that when it lets the rows come closer (circles in offset rows, hexes interlocking, each
row's points in the hollows of the next), or the rows (and, turned, the columns) kept in line
when that holds more. How close two pieces may come is measured on their outlines: two neighbours'
cut lines are at least twice the bleed apart (each keeps all of its bleed, and no bleed reaches a
neighbour's face), or the deck's `gap` if that is more; with neither, hexes share their edges.

There are no crop marks: each piece's outline, on the page, is in `PagePlan.outlines`, which
home sheets draw as a dashed line (`furniture.cut_outlines`) and cut files and die lines take as
they are (`cutpaths`). A page's back is its front seen through the printer's flip (the long
edge's unless its profile says otherwise: `sheets.mirrored`), its outlines mirrored alike, so
each back lands behind its front. Pieces and their bleed keep inside the printer's margins.

All in millimetres, y down from the page's top-left corner.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from ..face import PathOp, transform_path, translation
from ..pieceshape import flattened
from ..units import paper_size
from .pages import Box, PagePlan, Placement, Room, T, mirrored, within

PRECISION = 1e-4  #: mm: pitches are rounded up to this, so touching edges (hexes without bleed) stay apart
FLATNESS_STEPS = 32  #: straight pieces a curve of an outline is measured as (a 30 mm token: 0.005 mm off)


@dataclass(frozen=True)
class Packing:
    """Where pieces go on a page: each slot's top-left corner (of the piece's box), in order."""

    slots: tuple[tuple[float, float], ...]
    across: float  #: from a piece to the next in its row
    down: float  #: from a row to the next
    shifted: bool  #: every other row moved by half of `across`
    turned: bool  #: rows run down the page (columns), for a shape that packs better so

    @property
    def per_page(self) -> int:
        return len(self.slots)


def _polygon(ops: Sequence[PathOp]) -> np.ndarray:
    """The outline as one polygon's points (N × 2), curves flattened."""
    rings = flattened(tuple(ops), FLATNESS_STEPS)
    return np.array([p for ring in rings for p in ring], dtype=float)


def _segments(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return points, np.roll(points, -1, axis=0)


def _point_segment_distance(points: np.ndarray, seg: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """Each point's distance to the nearest segment (N)."""
    a, b = seg
    d = b - a  # M × 2
    length = np.maximum((d * d).sum(axis=1), 1e-18)
    rel = points[:, None, :] - a[None, :, :]  # N × M × 2
    t = np.clip((rel * d[None]).sum(axis=2) / length[None], 0.0, 1.0)
    nearest = a[None] + t[..., None] * d[None]
    return np.sqrt(((points[:, None, :] - nearest) ** 2).sum(axis=2)).min(axis=1)


def _inside(points: np.ndarray, polygon: np.ndarray) -> np.ndarray:
    """Whether each point is inside `polygon` (even-odd)."""
    a, b = _segments(polygon)
    x, y = points[:, 0:1], points[:, 1:2]
    ay, by, ax, bx = a[:, 1][None], b[:, 1][None], a[:, 0][None], b[:, 0][None]
    crosses = (ay > y) != (by > y)
    with np.errstate(divide="ignore", invalid="ignore"):
        at = ax + (y - ay) * (bx - ax) / (by - ay)
    return ((crosses & (x < at)).sum(axis=1) % 2) == 1


def apart(polygon: np.ndarray, offsets: Sequence[tuple[float, float]], distance: float) -> bool:
    """Whether `polygon` and each copy of it moved by an offset are `distance` apart at least
    (touching allowed when it is 0): none inside the other, no point of one nearer the other's
    sides."""
    seg = _segments(polygon)
    for dx, dy in offsets:
        moved = polygon + np.array([dx, dy])
        moved_seg = _segments(moved)
        near = min(_point_segment_distance(moved, seg).min(), _point_segment_distance(polygon, moved_seg).min())
        if near < distance - 1e-6:
            return False
        deep = 1e-6  # a point on the other's side is touching, not inside
        for points, other, other_seg in ((moved, polygon, seg), (polygon, moved, moved_seg)):
            inner = _inside(points, other)
            if inner.any() and (_point_segment_distance(points[inner], other_seg) > deep).any():
                return False
    return True


def least(ok: Callable[[float], bool], high: float) -> float:
    """The least value in 0…`high` for which `ok` holds (it holds from there up), to PRECISION."""
    lo, hi = 0.0, high
    while not ok(hi):
        hi *= 2
    for _ in range(50):
        mid = (lo + hi) / 2
        if ok(mid):
            hi = mid
        else:
            lo = mid
        if hi - lo < PRECISION / 4:
            break
    return math.ceil(hi / PRECISION - 1e-6) * PRECISION


def pitches(polygon: np.ndarray, width: float, height: float, gap: float) -> list[tuple[float, float, bool]]:
    """The ways rows of the piece may lie (x along a row), its neighbours' outlines `gap` apart:
    (across, down, shifted), in line and with every other row shifted by half."""
    across = least(lambda d: apart(polygon, [(d, 0.0)], gap), width + gap)
    straight = least(lambda d: apart(polygon, [(0.0, d), (across, d), (-across, d)], gap), height + gap)
    half = across / 2
    offset = least(lambda d: apart(polygon, [(half, d), (-half, d), (3 * half, d), (-3 * half, d), (0.0, 2 * d)],
                                   gap), height + gap)
    return [(across, straight, False), (across, offset, True)]


@functools.lru_cache(maxsize=32)
def layout(outline: tuple[PathOp, ...], width: float, height: float, bleed: float, room_box: Box,
           room: Room = Room(), gap: float = 0.0) -> Packing:
    """The packing that puts most pieces in `room_box` (where their trims may go), their outlines
    twice the bleed or `gap` apart, whichever is more, their bleed off the room's keep-out boxes:
    rows across or down the page, in line or shifted; the group centred in the box. Ties go to
    rows across, then in line."""
    polygon = _polygon(outline)
    x0, y0, x1, y1 = room_box
    shown = bleed
    best: Packing | None = None
    for turned in (False, True):
        poly = polygon[:, ::-1].copy() if turned else polygon
        w, h = (height, width) if turned else (width, height)
        room_w, room_h = (y1 - y0, x1 - x0) if turned else (x1 - x0, y1 - y0)
        for across, down, shifted in pitches(poly, w, h, max(2 * bleed, gap)):
            rows = int((room_h - h + 1e-9) // down) + 1 if room_h >= h else 0
            spots = []
            for r in range(rows):
                start = across / 2 if shifted and r % 2 else 0.0
                n = int((room_w - w - start + 1e-9) // across) + 1 if room_w - start >= w else 0
                spots += [(start + c * across, r * down) for c in range(n)]
            if not spots:
                continue
            extent_w = max(x for x, _ in spots) + w
            extent_h = max(y for _, y in spots) + h
            ox, oy = (room_w - extent_w) / 2, (room_h - extent_h) / 2
            slots = []
            for sx, sy in spots:
                px, py = (sy + oy, sx + ox) if turned else (sx + ox, sy + oy)
                px, py = round(px + x0, 6), round(py + y0, 6)
                if room.allows((px - shown, py - shown, px + width + shown, py + height + shown)):
                    slots.append((px, py))
            slots.sort(key=lambda s: (s[1], s[0]))  # reading order: row by row down the page
            found = Packing(tuple(slots), across, down, shifted, turned)
            if best is None or found.per_page > best.per_page:
                best = found
    if best is None or not best.slots:
        raise ValueError(f"a {width:g}×{height:g} mm shaped piece does not fit on the page")
    return best


def plan_shaped(pairs: Sequence[tuple[T, T | None]], size: tuple[float, float], outline: Sequence[PathOp],
                paper: str, bleed: float, room: Room = Room(), gap: float = 0.0
                ) -> tuple[list[PagePlan[T]], list[PagePlan[T]]]:
    """Front pages and matching back pages (None-backed pieces leave their place empty) for a run
    of shaped pieces of one `size` and `outline` (face mm), `gap` apart at least (see `layout`),
    packed as `layout` finds best."""
    W, H = paper_size(paper)
    # a shaped piece prints all its bleed, which follows its shape (a room that cuts bleed back,
    # a cutter's, keeps its trims the more inside): cut back to a box, it would have flat sides
    margin = room.margin + bleed - room.bleed(bleed)
    printable = room.printable_box((W, H))
    # trims inside the margin and where the printer prints (its bleed cut back there, as a grid's);
    # the scale bar and the label go below the pieces, in the strip a cut-out piece leaves them
    room_box = (max(margin, printable[0]), max(margin, printable[1]), min(W - margin, printable[2]),
                min(H - max(margin, room.furniture), printable[3]))
    packing = layout(tuple(outline), size[0], size[1], bleed, room_box, room, gap)
    shown = bleed
    fronts: list[PagePlan[T]] = []
    backs: list[PagePlan[T]] = []
    n = packing.per_page
    flip = room.page_mirror((W, H))  # how the printer turns the sheet over for its back
    for start in range(0, len(pairs), n):
        chunk = pairs[start:start + n]
        placements, outlines = [], []
        for (front, _), (x, y) in zip(chunk, packing.slots):
            trim = (x, y, x + size[0], y + size[1])
            clip = within((x - shown, y - shown, trim[2] + shown, trim[3] + shown), printable)
            placements.append(Placement(front, translation(x, y), trim, clip))
            outlines.append(transform_path(outline, translation(x, y)))
        trims = [p.trim for p in placements]
        area = (min(t[0] for t in trims), min(t[1] for t in trims), max(t[2] for t in trims), max(t[3] for t in trims))
        page = PagePlan((W, H), area, tuple(placements), (), (), outlines=tuple(outlines), margins=room.edges)
        fronts.append(page)
        backed = tuple(replace(p, face=back) for p, (_, back) in zip(placements, chunk) if back is not None)
        back_page = mirrored(replace(page, placements=backed), size[0], flip)
        backs.append(replace(back_page, outlines=tuple(transform_path(o, flip) for o in outlines)))
    return fronts, backs
