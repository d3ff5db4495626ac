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


@dataclass(frozen=True)
class Group:
    """Items drawn through a transform and, optionally, clipped to a rectangle (in item space).

    Below an `opacity` of 1 the items are one translucent layer, as SVG's group opacity: drawn
    solid among themselves (where they overlap, the upper hides the lower), then laid over what
    is beneath at that opacity."""

    items: tuple[Item, ...]
    transform: Matrix = IDENTITY
    clip: tuple[float, float, float, float] | None = None  # x, y, w, h
    opacity: float = 1.0  # 0 = invisible, 1 = solid


Item = Union[Rect, Ellipse, Line, Path, Text, Image, Group]


@dataclass(frozen=True)
class Face:
    """One card side. `width`×`height` is the trim; items may reach `bleed` beyond it. The piece
    is cut out with corners rounded by `radius` (a cutting machine follows it; scissors need not)."""

    width: float
    height: float
    bleed: float
    items: tuple[Item, ...] = field(default=())
    radius: float = 0.0
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # faces are dictionary keys all through a build: hash the drawing list once
        object.__setattr__(self, "_hash", hash((self.width, self.height, self.bleed, self.items, self.radius)))

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
    corners = [apply(item.transform, x, y) for x0, y0, x1, y1 in boxes for x, y in
               ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
    return (min(c[0] for c in corners), min(c[1] for c in corners),
            max(c[0] for c in corners), max(c[1] for c in corners))
