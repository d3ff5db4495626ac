"""A face: everything printed on one side of one card, as a list of drawing instructions.

Geometry is in millimetres with the origin at the trim's top-left corner and y pointing
down; the bleed lies at negative coordinates and beyond the width and height. Faces are
immutable and hashable: two cards that look the same have equal faces, and each distinct
face is drawn once however many cards show it.

Every paintable item carries an ``ink`` hint for the low-ink transform:
``auto`` (decide by size), ``keep``, ``light`` (always lighten), ``drop`` (leave out).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar, Union

from .colors import Color

Matrix = tuple[float, float, float, float, float, float]
"""An affine map (a, b, c, d, e, f): x' = a·x + c·y + e, y' = b·x + d·y + f (PDF order)."""

IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def multiply(m: Matrix, n: Matrix) -> Matrix:
    """The map that applies `n` first, then `m`."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2,
            a * e2 + c * f2 + e, b * e2 + d * f2 + f)


def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return (a * x + c * y + e, b * x + d * y + f)


def transform_path(ops: Sequence[PathOp], m: Matrix) -> tuple[PathOp, ...]:
    """Path operations with every point taken through `m`, rounded to 1e-6 mm so that the same
    geometry always prints the same numbers."""
    return tuple((op, tuple(round(c, 6) for i in range(0, len(pts), 2) for c in apply(m, pts[i], pts[i + 1])))
                 for op, pts in ops)


def translation(dx: float, dy: float) -> Matrix:
    return (1.0, 0.0, 0.0, 1.0, dx, dy)


def rotation(degrees: float, cx: float = 0.0, cy: float = 0.0) -> Matrix:
    """Clockwise on the page (y points down), about (cx, cy)."""
    t = math.radians(degrees)
    cos, sin = round(math.cos(t), 12), round(math.sin(t), 12)
    return multiply(translation(cx, cy), multiply((cos, sin, -sin, cos, 0.0, 0.0), translation(-cx, -cy)))


@dataclass(frozen=True)
class Paint:
    fill: Color | None = None
    stroke: Color | None = None
    stroke_width: float = 0.0
    dash: tuple[float, ...] = ()
    ink: str = "auto"


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    radius: float = 0.0
    paint: Paint = Paint()


@dataclass(frozen=True)
class Ellipse:
    cx: float
    cy: float
    rx: float
    ry: float
    paint: Paint = Paint()


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    paint: Paint = Paint()
    cap: str = "butt"  # butt | round | square


PathOp = tuple[str, tuple[float, ...]]
"""('M', (x, y)) move, ('L', (x, y)) line, ('C', (x1, y1, x2, y2, x, y)) curve, ('Z', ()) close."""


@dataclass(frozen=True)
class Path:
    ops: tuple[PathOp, ...]
    paint: Paint = Paint()
    even_odd: bool = False


Glyph = tuple[int, float, float, str]
"""A shaped glyph: its index in the font, its place in em (right of where its run starts, up
from the baseline) and the characters it stands for ("ffi" for a ligature, "" for a cluster's
glyphs after its first)."""

GlyphRun = tuple[float, tuple[Glyph, ...]]
"""Glyphs shaped as one run (a word, a space): where the run starts, in em right of its text's
(x, y), and its glyphs. A word's run is one tuple wherever the word is set, so what a backend
makes of a run it can make once."""


@dataclass(frozen=True)
class Text:
    """One run of text in one font, left end of its baseline at (x, y).

    Shaped text (`shaping`) carries its `glyph_runs`: the glyphs each word and space became, and
    where they go. Backends draw those glyphs there; `text` is what a reader copies out of the
    page. Without glyphs, `text` is drawn a character a glyph, each as far on as its advance."""

    x: float
    y: float
    text: str
    font: str  # path of a TrueType file
    size: float  # em size in mm
    color: Color
    ink: str = "auto"
    stroke: float = 0.0  # mm: the outline drawn too, in the text's colour; makes a thin glyph bolder
    # mm: the length of a rule under the run that only low-ink draws (ink.lowink), for a run that its
    # colour alone set apart from the text around it, which it would no longer be in greys; 0: none
    cue: float = 0.0
    # left out of the hash, which the rest decides nearly always: hashing every glyph's place cost
    # more than any other part of hashing a face
    glyph_runs: tuple[GlyphRun, ...] = field(default=(), hash=False)


def placed_glyphs(t: Text) -> list[Glyph]:
    """A shaped text's glyphs one after another, each placed in em from the text's (x, y)."""
    return [(gid, start + x, y, chars) for start, glyphs in t.glyph_runs for gid, x, y, chars in glyphs]


@dataclass(frozen=True)
class ArtEdits:
    """What a card changes in SVG art used as a template: `fields` fill `{name}` placeholders in its
    text (name, text pairs), `show` and `hide` the elements of those ids (Inkscape's layers are
    groups with ids: hidden ones have `display:none`), `tint` paints everything drawn in one
    colour (`#rrggbb`), as a one-colour icon is recoloured."""

    fields: tuple[tuple[str, str], ...] = ()
    show: tuple[str, ...] = ()
    hide: tuple[str, ...] = ()
    tint: str | None = None


NO_EDITS = ArtEdits()


@dataclass(frozen=True)
class Image:
    """A raster picture, or vector art (an SVG, or page `page` of a PDF), stretched over the box
    (x, y, w, h). SVG art's text is set in `fonts` (the deck's first), whichever it names, and a
    card changes it by `edits` (`ArtEdits`)."""

    x: float
    y: float
    w: float
    h: float
    source: str  # file path
    grey: bool = False
    lighten: float = 0.0  # 0 = as is, 1 = white
    ink: str = "auto"
    cmyk: bool = False  # drawn in process colours (a raster is converted like every other colour)
    fonts: tuple[str, ...] = ()
    page: int = 1
    edits: ArtEdits = NO_EDITS  # a card's fields, shown and hidden layers and tint in SVG art
    # a raster's pixels shown (left, top, right, bottom), each where it lies in the box the whole
    # picture covers; None: all of it. Made bleed stretches a row of pixels so: a renderer then
    # scales that row, where a clip would have it scale the whole picture
    crop: tuple[int, int, int, int] | None = None


@dataclass(frozen=True)
class Group:
    """Items drawn through a transform and, optionally, clipped to a rectangle, or to a closed
    path (`clip_path`: a shaped piece's outline grown by its bleed), both in item space.

    Below an `opacity` of 1 the items are one translucent layer, as SVG's group opacity: drawn
    solid among themselves (where they overlap, the upper hides the lower), then laid over what
    is beneath at that opacity."""

    items: tuple[Item, ...]
    transform: Matrix = IDENTITY
    clip: tuple[float, float, float, float] | None = None  # x, y, w, h
    opacity: float = 1.0  # 0 = invisible, 1 = solid
    clip_path: tuple[PathOp, ...] = ()  # a closed path (nonzero winding); empty: none


Item = Union[Rect, Ellipse, Line, Path, Text, Image, Group]


@dataclass(frozen=True)
class Face:
    """One card side. `width`×`height` is the trim; items may reach `bleed` beyond it. The piece
    is cut out with corners rounded by `radius` (a cutting machine follows it; scissors need not),
    or, for a shaped piece (a round token, a hex tile: `pieceshape`), along its `outline` (face
    mm), which imposition packs and cuts by."""

    width: float
    height: float
    bleed: float
    items: tuple[Item, ...] = field(default=())
    radius: float = 0.0
    outline: tuple[PathOp, ...] = ()
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # faces are dictionary keys all through a build: hash the drawing list once
        object.__setattr__(self, "_hash", hash((self.width, self.height, self.bleed, self.items, self.radius,
                                                   self.outline)))

    def __hash__(self) -> int:
        return self._hash

    def with_items(self, items: tuple[Item, ...]) -> Face:
        return replace(self, items=items)


ItemT = TypeVar("ItemT", Rect, Ellipse, Line, Path, Text, Image, Group, Paint)


def evolve(value: ItemT, **changes: Any) -> ItemT:
    """`dataclasses.replace` for an item or a paint, without its look at every field on every call
    (a tenth of the time, which counts in transforms that rewrite every item of every face). The
    value is copied as it is: these classes compute nothing when made (a Face, which hashes its
    items, is not one of them)."""
    assert changes.keys() <= value.__dict__.keys(), f"{type(value).__name__} has no {set(changes) - value.__dict__.keys()}"
    new = object.__new__(value.__class__)
    fields = new.__dict__
    fields.update(value.__dict__)
    fields.update(changes)
    return new


def bounds(item: Item) -> tuple[float, float, float, float]:
    """Axis-aligned box (x0, y0, x1, y1) an item covers, ignoring stroke width."""
    if isinstance(item, Rect):
        return (item.x, item.y, item.x + item.w, item.y + item.h)
    if isinstance(item, Ellipse):
        return (item.cx - item.rx, item.cy - item.ry, item.cx + item.rx, item.cy + item.ry)
    if isinstance(item, Line):
        return (min(item.x1, item.x2), min(item.y1, item.y2), max(item.x1, item.x2), max(item.y1, item.y2))
    if isinstance(item, Path):
        xs = [v for _, pts in item.ops for v in pts[0::2]]
        ys = [v for _, pts in item.ops for v in pts[1::2]]
        return (min(xs), min(ys), max(xs), max(ys)) if xs else (0.0, 0.0, 0.0, 0.0)
    if isinstance(item, Text):
        return (item.x, item.y - item.size, item.x + item.size * len(item.text) * 0.6, item.y)
    if isinstance(item, Image):
        return (item.x, item.y, item.x + item.w, item.y + item.h)
    boxes = [bounds(child) for child in item.items]
    if not boxes:
        return (0.0, 0.0, 0.0, 0.0)
    if item.clip is not None:  # nothing shows outside the clip
        cx, cy, cw, ch = item.clip
        boxes = [(max(x0, cx), max(y0, cy), min(x1, cx + cw), min(y1, cy + ch)) for x0, y0, x1, y1 in boxes]
    if item.clip_path:
        px = [v for _, pts in item.clip_path for v in pts[0::2]]
        py = [v for _, pts in item.clip_path for v in pts[1::2]]
        boxes = [(max(x0, min(px)), max(y0, min(py)), min(x1, max(px)), min(y1, max(py))) for x0, y0, x1, y1 in boxes]
    corners = [apply(item.transform, x, y) for x0, y0, x1, y1 in boxes for x, y in
               ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
    return (min(c[0] for c in corners), min(c[1] for c in corners),
            max(c[0] for c in corners), max(c[1] for c in corners))


# -- made bleed ------------------------------------------------------------------------------------

REACH = 0.05  #: mm: a picture's edge this close to an edge of the trim (or past it) reaches that edge
VECTOR_BAND = 0.2  #: mm: the outermost band of vector art that `extend` stretches over the bleed

Box = tuple[float, float, float, float]


def grown_into_bleed(picture: Image, trim: Box, bleed: float, mode: str = "mirror", clip: Box | None = None,
                     pixels: tuple[int, int] | None = None) -> tuple[tuple[Item, ...], bool]:
    """A picture that stops at the `trim` (x0, y0, x1, y1: a face's is (0, 0, width, height)),
    grown into the `bleed` around it: the items to draw instead of it, and whether it reaches an
    edge of the trim at all.

    `clip` (x, y, w, h) is the box the picture shows in when it overflows it (fitted to cover
    it): what the picture holds past the clip goes into the bleed first, as it is. Then, on every
    edge of the trim the picture reaches (within REACH) and does not already cover `bleed` past,
    copies fill the strip between its edge and the bleed's, and the corners where two such strips
    meet: `mirror` reflects the picture about its edge; `extend` stretches its outermost band
    over the strip: of a raster of `pixels`, its outermost row or column of pixels (the copy's
    `crop`, so a renderer scales that row, never the whole picture a hundred times); of vector art,
    its outermost VECTOR_BAND. Each copy is a `Group` whose transform puts it in place and whose
    clip (in the picture's own space) is the part it shows; mirrored copies are the picture's own
    `Image`, drawn once and placed again. The picture comes first, then its copies. A picture
    reaching no edge, or a face without bleed, is left as it was."""
    px0, py0, px1, py1 = picture.x, picture.y, picture.x + picture.w, picture.y + picture.h
    if clip is None:
        shown = (px0, py0, px1, py1)
    else:
        cx, cy, cw, ch = clip
        shown = (max(px0, cx), max(py0, cy), min(px1, cx + cw), min(py1, cy + ch))
    reach = _reaches(shown[0], shown[2], trim[0], trim[2]) + _reaches(shown[1], shown[3], trim[1], trim[3])
    unchanged: tuple[Item, ...] = (picture,) if clip is None else (Group((picture,), clip=clip),)
    if not any(reach) or bleed <= 0 or mode == "none":
        return unchanged, any(reach)
    # what the picture holds past its clip, up to the bleed's edge, is shown as it is
    low, high = (trim[0] - bleed, trim[1] - bleed), (trim[2] + bleed, trim[3] + bleed)
    v = list(shown)
    for axis in (0, 1):
        if reach[2 * axis]:
            v[axis] = max((px0, py0)[axis], low[axis])
        if reach[2 * axis + 1]:
            v[axis + 2] = min((px1, py1)[axis], high[axis])
    main: Item = picture if clip is None else Group((picture,), clip=(v[0], v[1], v[2] - v[0], v[3] - v[1]))
    cropped = mode == "extend" and pixels is not None
    ways = [_ways(axis, v, (px0, py0)[axis], (picture.w, picture.h)[axis], reach, low[axis], high[axis], mode,
                  pixels[axis] if cropped and pixels else None) for axis in (0, 1)]
    copies: list[Item] = []
    for i, (sx, ox, x0, x1, cols) in enumerate(ways[0]):
        for j, (sy, oy, y0, y1, rows) in enumerate(ways[1]):
            if i == j == 0:
                continue  # the picture itself
            shows = evolve(picture, crop=(cols[0], rows[0], cols[1], rows[1])) if cropped else picture
            copies.append(Group((shows,), _tidy((sx, 0.0, 0.0, sy, ox, oy)), _tidy((x0, y0, x1 - x0, y1 - y0))))
    return (main, *copies), True


Way = tuple[float, float, float, float, tuple[int, int]]
"""How a copy lies along one axis: x' = scale·x + offset, the part of the picture it shows (from,
to, in the face's mm before the transform) and, for a cropped raster, those pixels (from, to)."""


def _ways(axis: int, shown: list[float], start: float, extent: float, reach: tuple[bool, ...], low: float,
          high: float, mode: str, pixels: int | None) -> list[Way]:
    """The ways copies lie along `axis`: as the picture shows (first), then past each edge it reaches
    and does not cover the bleed past: reflected about the edge, stretched k times for `extend`."""
    lo, hi = shown[axis], shown[axis + 2]
    size = extent / pixels if pixels else 0.0  # a pixel, in mm
    whole = (0, pixels or 0)
    if pixels:  # the pixels the shown part lies on
        whole = (max(0, math.floor((lo - start) / size + 1e-9)), min(pixels, math.ceil((hi - start) / size - 1e-9)))
    ways: list[Way] = [(1.0, 0.0, lo, hi, whole)]
    for edge, outward in ((lo, False), (hi, True)):
        if not reach[2 * axis + outward]:
            continue
        strip = high - edge if outward else edge - low
        if strip <= 1e-9:
            continue  # the picture covers the bleed here already
        cells = whole
        if mode == "mirror":
            band = min(strip, hi - lo)
            part = (edge - band, edge) if outward else (edge, edge + band)
        elif pixels:  # the pixel the edge lies on
            at = min(pixels - 1, max(0, math.ceil((edge - start) / size - 1e-9) - 1 if outward else
                                     math.floor((edge - start) / size + 1e-9)))
            cells = (at, at + 1)
            part = (start + at * size, start + (at + 1) * size)
        else:
            band = min(VECTOR_BAND, hi - lo)
            part = (edge - band, edge) if outward else (edge, edge + band)
        anchor = part[1] if outward else part[0]  # the end put at the edge, the other at the bleed's
        k = 1.0 if mode == "mirror" else strip / (part[1] - part[0])
        ways.append((-k, edge + k * anchor, *part, cells))  # x' = edge - k·(x - anchor)
    return ways


def cropped_box(im: Image, pixels: tuple[int, int]) -> Box:
    """Where a cropped raster's pixels lie (x0, y0, x1, y1), in the box the whole picture of `pixels`
    covers; the whole box for one without a crop."""
    if im.crop is None:
        return (im.x, im.y, im.x + im.w, im.y + im.h)
    left, top, right, bottom = im.crop
    kx, ky = im.w / pixels[0], im.h / pixels[1]
    return (im.x + left * kx, im.y + top * ky, im.x + right * kx, im.y + bottom * ky)


def _reaches(lo: float, hi: float, start: float, end: float) -> tuple[bool, bool]:
    """Whether a picture shown from `lo` to `hi` reaches the low and the high edge of a trim from
    `start` to `end`."""
    across = hi > lo
    return (across and lo <= start + REACH and hi > start, across and hi >= end - REACH and lo < end)


def _tidy(values: tuple[float, ...]) -> Any:
    """Numbers rounded to 1e-9 mm, so a copy's place prints as the same figures however it was reached."""
    return tuple(round(v, 9) + 0.0 for v in values)
