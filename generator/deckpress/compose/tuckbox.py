"""A tuck box for a deck: a net to print, cut out, fold and glue, with the deck's title, designer
and art on its panels.

The box is a reverse tuck end carton, the usual card box: the lid hangs from the back panel and
its tuck flap slides down inside the front, where a thumb notch lets you pull it out; the bottom
lid hangs from the front and tucks inside the back; dust flaps on the sides close the corners.
In net coordinates (mm, y down, the front panel's top-left corner at the origin, the printed side
towards you) the columns run, left to right::

               thumb notch   dust flap   lid + tuck flap   dust flap
    row 0..H:  front       | side      | back            | side      | glue flap
               lid + tuck    dust flap   –                 dust flap

Folding every panel away from you, the first side becomes the box's right side (seen from the
front), the second its left, and the glue flap goes inside the front's left edge. When the net is
too big for the paper it is cut in two: front | side | glue tab, and back | side | glue flap; the
tab goes inside the back's left edge.

Every panel is upright on the net, so its text is upright on the box; the spines read top to
bottom, like a book's; the lid's title is turned round so it reads from the front.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..colors import BLACK, WHITE, Color, Gray
from ..face import Face, Group, Item, Line, Matrix, Paint, Path, PathOp, Rect, multiply, transform_path, translation
from ..text.fonts import FontSet
from ..text import TextStyle, escape, set_text
from ..units import PT

CARD_THICKNESS = 0.30  #: mm a card; 54 cards ≈ 16.2 mm (print-specs.md §1.2)
SLEEVE_THICKNESS = 0.20  #: what a sleeve adds to a card's thickness (both layers of film)
CLEARANCE = 1.5  #: added to the card's width and height and to the stack's depth, so the deck slides out
GLUE_FLAP = 10.0  #: width of the glue flap and tab
TUCK_INSET = 1.0  #: the tuck flap is this much narrower on each side, so it slides in
CUT = Paint(stroke=BLACK, stroke_width=0.25, ink="keep")
FOLD = Paint(stroke=BLACK, stroke_width=0.25, dash=(2.0, 1.5), ink="keep")
FRAME = Paint(stroke=Gray(0.6), stroke_width=0.2, ink="keep")  # round the card pictures
MARGIN = 3.5  #: text and pictures keep this far inside their panel's folds

#: Outer sizes of common card sleeves, mm (print-specs.md §1.2, after bszonye/game-box cards.scad).
SLEEVES: dict[str, tuple[float, float]] = {
    "standard": (66.0, 91.0),
    "standard-american": (59.0, 91.0),
    "mini-american": (44.0, 67.0),
    "mini-european": (46.0, 71.0),
    "standard-european": (62.0, 94.0),
    "tarot": (73.0, 122.0),
    "square": (73.0, 73.0),
}


def sleeve_for(card_w: float, card_h: float) -> tuple[float, float]:
    """The smallest listed sleeve a card goes into (at least 1 mm wider and taller)."""
    fitting = [s for s in SLEEVES.values() if s[0] >= card_w + 1 and s[1] >= card_h + 1]
    if not fitting:
        raise ValueError(f"no listed sleeve holds a {card_w:g}×{card_h:g} mm card; give its size as WxH")
    return min(fitting, key=lambda s: (s[0] * s[1], s))


@dataclass(frozen=True)
class BoxSize:
    """The inside of the box: front and back panels `width` × `height`, sides `depth` wide."""

    width: float
    height: float
    depth: float

    @property
    def tuck(self) -> float:
        """How far the tuck flap reaches into the box: deeper boxes get longer flaps."""
        return round(min(20.0, max(12.0, 0.7 * self.depth), self.height / 3), 3)

    @property
    def dust(self) -> float:
        """Height of the dust flaps: about the depth, but no more than half the panel's width."""
        return round(min(max(self.depth, 10.0), self.width / 2 - 1), 3)

    @property
    def notch(self) -> float:
        """Radius of the thumb notch in the front's top edge."""
        return round(min(8.0, self.width / 6), 3)


def box_size(card_w: float, card_h: float, count: int, thickness: float = CARD_THICKNESS,
             clearance: float = CLEARANCE) -> BoxSize:
    """The box for `count` cards of `card_w` × `card_h` mm, each `thickness` thick."""
    return BoxSize(round(card_w + clearance, 3), round(card_h + clearance, 3),
                   round(count * thickness + clearance, 3))


@dataclass(frozen=True)
class BoxArt:
    """What the box shows. `cover` goes on the front and `back` on the back (card faces, already
    in the ink they are printed in); `details` are the back's lines under the title."""

    title: str
    designer: str
    details: tuple[str, ...]
    cover: Face
    back: Face | None
    fonts: FontSet
    family: str = "sans"  #: the family its words are set in, one of `fonts`
    subtitle: str = ""  #: a line under the title on the front ("unofficial edition"), if any

    @property
    def ground(self) -> Color | None:
        """The outside's colour: the deck's card back's background (the topmost filled rectangle
        over nearly all of it), so the box looks like the deck; None (the paper) if it has none."""
        face = self.back or self.cover
        ground = None
        for item in face.items:
            if isinstance(item, Rect) and item.paint.fill is not None:
                x0, y0 = max(item.x, 0.0), max(item.y, 0.0)
                x1, y1 = min(item.x + item.w, face.width), min(item.y + item.h, face.height)
                if (x1 - x0) * (y1 - y0) >= 0.9 * face.width * face.height:
                    ground = item.paint.fill
        return ground

    @property
    def color(self) -> Color:
        """Text colour: black, or white on a dark ground."""
        ground = self.ground
        return WHITE if ground is not None and ground.luma < 0.5 else BLACK


@dataclass(frozen=True)
class Net:
    """One piece to cut out: its face (art, cut and fold lines) and its cut path in face mm."""

    face: Face
    outline: tuple[PathOp, ...]
    name: str  # "tuck box", or "tuck box, part 1 of 2"


def tuck_box(size: BoxSize, art: BoxArt, parts: int = 1, lines: bool = True) -> list[Net]:
    """The box as one piece (`parts` 1) or two (2), each a face with its outline; without its cut
    and fold lines when not `lines` (a print service's box, which its own die cuts and creases)."""
    W, D, G = size.width, size.depth, GLUE_FLAP
    if parts == 1:
        pieces = [(("front", W), ("side", D), ("back", W), ("side", D), ("glue", G))]
    elif parts == 2:
        pieces = [(("front", W), ("side", D), ("glue", G)), (("back", W), ("side", D), ("glue", G))]
    else:
        raise ValueError("a tuck box is printed in one piece or two")
    nets = []
    for i, columns in enumerate(pieces, start=1):
        name = "tuck box" if parts == 1 else f"tuck box, part {i} of {parts}"
        nets.append(_piece(size, art, columns, name, lines))
    return nets


# --- one piece ----------------------------------------------------------------------------------

_TOP = {"front": "notch", "side": "dust", "back": "tuck", "glue": None}
_BOTTOM = {"front": "tuck", "side": "dust", "back": "plain", "glue": None}


def _piece(size: BoxSize, art: BoxArt, columns: tuple[tuple[str, float], ...], name: str, lines: bool = True) -> Net:
    H = size.height
    starts = [sum(w for _, w in columns[:i]) for i in range(len(columns))]
    cols = [(kind, x0, x0 + w) for (kind, w), x0 in zip(columns, starts)]
    outline = _outline(size, cols)
    xs = [v for _, pts in outline for v in pts[0::2]]
    ys = [v for _, pts in outline for v in pts[1::2]]
    x0, y0 = min(xs), min(ys)
    shift = translation(-x0, -y0)

    folds: list[tuple[float, float, float, float]] = []
    for (_, _, a), (kind, _, _) in zip(cols, cols[1:]):
        folds.append((a, 0.0, a, H))
    for kind, a, b in cols:
        folds += _hinges(size, _TOP[kind], a, b, top=True) + _hinges(size, _BOTTOM[kind], a, b, top=False)

    items: list[Item] = _grounds(size, art, cols)
    for kind, a, b in cols:
        items += _panel_art(size, art, kind, a, b)
    if lines:
        fold = FOLD if art.ground is None else replace(FOLD, stroke=art.color)  # folds lie on the ground
        items += [Line(*f, paint=fold) for f in folds]
        items.append(Path(outline, CUT))
    face = Face(round(max(xs) - x0, 6), round(max(ys) - y0, 6), 0.0, (Group(tuple(items), shift),))
    return Net(face, transform_path(outline, shift), name)


# --- the cut line -------------------------------------------------------------------------------

Local = list[PathOp]  # a profile in (u, v): u along the edge from 0 to its width, v outwards


def _outline(size: BoxSize, cols: list[tuple[str, float, float]]) -> tuple[PathOp, ...]:
    """The closed cut path: along the top edges left to right, down the glue flap, back along the
    bottom edges right to left, and up the first panel's outer edge."""
    H = size.height
    ops: list[PathOp] = [("M", (cols[0][1], 0.0))]
    for kind, a, b in cols:
        if kind == "glue":
            taper = GLUE_FLAP / 2
            ops += [("L", (b, taper)), ("L", (b, H - taper)), ("L", (a, H))]
        else:
            ops += transform_path(_profile(size, _TOP[kind], b - a), (1.0, 0.0, 0.0, -1.0, a, 0.0))
    for kind, a, b in reversed(cols):
        if kind != "glue":  # the glue flap's own bottom edge is drawn already
            ops += transform_path(_profile(size, _BOTTOM[kind], b - a), (-1.0, 0.0, 0.0, 1.0, b, H))
    ops.append(("Z", ()))
    return tuple((op, tuple(round(v, 6) for v in pts)) for op, pts in ops)


def _profile(size: BoxSize, kind: str, w: float) -> Local:
    """One column's top (or bottom) edge, from (0, 0) to (w, 0), outwards being +v."""
    if kind == "plain":
        return [("L", (w, 0.0))]
    if kind == "notch":  # a half circle cut into the panel (v < 0)
        r, c = size.notch, w / 2
        return [("L", (c - r, 0.0)), *_arc(c, 0.0, r, math.pi, 1.5 * math.pi),
                *_arc(c, 0.0, r, 1.5 * math.pi, 2 * math.pi), ("L", (w, 0.0))]
    if kind == "dust":
        i = min(3.0, w / 4)
        return [("L", (i, size.dust)), ("L", (w - i, size.dust)), ("L", (w, 0.0))]
    if kind == "tuck":  # the lid (depth deep), then the tuck flap with round corners
        D, T, k = size.depth, size.tuck, TUCK_INSET
        r = min(0.6 * T, 8.0, (w - 2 * k) / 2)
        top = D + T
        return [("L", (0.0, D)), ("L", (k, D)), ("L", (k, top - r)),
                *_arc(k + r, top - r, r, math.pi, math.pi / 2),
                ("L", (w - k - r, top)), *_arc(w - k - r, top - r, r, math.pi / 2, 0.0),
                ("L", (w - k, D)), ("L", (w, D)), ("L", (w, 0.0))]
    raise ValueError(kind)


def _arc(cx: float, cy: float, r: float, a0: float, a1: float) -> Local:
    """A circular arc of at most a quarter turn, from angle a0 to a1, as one cubic Bézier (in a
    frame where angle π/2 points along +v)."""
    k = 4 / 3 * math.tan((a1 - a0) / 4) * r
    p0 = (cx + r * math.cos(a0), cy + r * math.sin(a0))
    p1 = (cx + r * math.cos(a1), cy + r * math.sin(a1))
    c1 = (p0[0] - k * math.sin(a0), p0[1] + k * math.cos(a0))
    c2 = (p1[0] + k * math.sin(a1), p1[1] - k * math.cos(a1))
    return [("C", (*c1, *c2, *p1))]


def _hinges(size: BoxSize, kind: str | None, a: float, b: float, top: bool) -> list[tuple[float, float, float, float]]:
    """Fold lines where a column's flaps meet it (and the lid meets its tuck flap)."""
    H, D = size.height, size.depth
    edge, out = (0.0, -1.0) if top else (H, 1.0)
    if kind == "dust":
        return [(a, edge, b, edge)]
    if kind == "tuck":
        return [(a, edge, b, edge), (a + TUCK_INSET, edge + out * D, b - TUCK_INSET, edge + out * D)]
    return []


# --- what is printed on the panels ---

GROUND_BLEED = 1.0  #: the ground reaches this far over a fold into a flap, so a fold a little off shows no paper


def _grounds(size: BoxSize, art: BoxArt, cols: list[tuple[str, float, float]]) -> list[Item]:
    """The ground colour under every panel seen from outside: front, back, sides, lid and bottom.
    It reaches a little over the folds to the flaps that go inside, but stops at the cut line,
    where its edge is the edge to cut along."""
    ground = art.ground
    if ground is None:
        return []
    H, D, e = size.height, size.depth, GROUND_BLEED
    boxes = []
    for i, (kind, a, b) in enumerate(cols):
        glue_next = i + 1 < len(cols) and cols[i + 1][0] == "glue"
        if kind == "front":
            boxes.append((a, 0.0, b, H + D + e))  # with the bottom lid, up to its tuck flap
        elif kind == "back":
            boxes.append((a, -D - e, b, H))  # with the lid, up to its tuck flap
        elif kind == "side":
            boxes.append((a, -e, b + (e if glue_next else 0.0), H + e))  # over the dust flaps' folds
    paint = Paint(fill=ground)
    return [Rect(x0, y0, x1 - x0, y1 - y0, paint=paint) for x0, y0, x1, y1 in boxes]


def _panel_art(size: BoxSize, art: BoxArt, kind: str, a: float, b: float) -> list[Item]:
    """What is printed on the column from x = a to b, the right way up for where it ends up."""
    H = size.height
    if kind == "front":
        return _front(size, art, a)
    if kind == "back":
        return _back(size, art, a) + _lid(size, art, a, b)
    if kind == "side":
        return _spine(art, a, b, H)
    if kind == "glue":
        return _rotated(lambda w, h: _text(art, "glue", (0, 0, w, h), 7, "regular", Gray(0.55)),
                        (0.0, 1.0, -1.0, 0.0, b - 1.5, 0.0), H, b - a - 3)
    raise ValueError(kind)


def _front(size: BoxSize, art: BoxArt, x: float) -> list[Item]:
    """The title under the thumb notch, the cover card, the designer."""
    W, H = size.width, size.height
    top = size.notch + 2.0
    title_h = min(18.0, H * 0.2)
    items = _text(art, art.title, (x + MARGIN, top, W - 2 * MARGIN, title_h), 20, "bold", art.color)
    if art.subtitle:  # under the title, taking its height from the cover card
        sub_h = 5.0
        items += _text(art, art.subtitle, (x + MARGIN, top + title_h, W - 2 * MARGIN, sub_h), 9, "regular",
                       art.color)
        title_h += sub_h
    credit_h = 6.0
    items += _text(art, art.designer, (x + MARGIN, H - MARGIN - credit_h, W - 2 * MARGIN, credit_h), 9,
                   "regular", art.color)
    items += _card(art.cover, (x + MARGIN, top + title_h + 1.5, W - 2 * MARGIN, H - top - title_h - credit_h - 6.5))
    return items


def _back(size: BoxSize, art: BoxArt, x: float) -> list[Item]:
    """The card back (the deck's own art), then the title and the details under it."""
    W, H = size.width, size.height
    text_h = min(30.0, H * 0.34)
    items: list[Item] = []
    if art.back is not None:
        items += _card(art.back, (x + MARGIN, MARGIN + 1.0, W - 2 * MARGIN, H - text_h - 2 * MARGIN - 3.0))
    lines = "\n".join([f"**{escape(art.title)}**", *(escape(d) for d in art.details)])
    items += _text(art, lines, (x + MARGIN, H - MARGIN - text_h, W - 2 * MARGIN, text_h), 8.5, "regular",
                   art.color, escaped=True)
    return items


def _lid(size: BoxSize, art: BoxArt, a: float, b: float) -> list[Item]:
    """The title on the lid, turned round: the lid folds over towards the front, so the text's
    top goes next to the hinge."""
    W, D = size.width, size.depth
    if D < 6:
        return []
    return _rotated(lambda w, h: _text(art, art.title, (0, 0, w, h), 12, "bold", art.color),
                    (-1.0, 0.0, 0.0, -1.0, b - MARGIN, -1.5), W - 2 * MARGIN, D - 3.0)


def _spine(art: BoxArt, a: float, b: float, H: float) -> list[Item]:
    """Title and designer along the spine, reading top to bottom (the text's top towards +x)."""
    D = b - a
    if D < 5:
        return []
    inset = min(2.0, D / 5)
    text = f"**{escape(art.title)}**" + (f"  ·  {escape(art.designer)}" if D >= 9 else "")
    return _rotated(lambda w, h: _text(art, text, (0, 0, w, h), 14, "regular", art.color, escaped=True, wrap=False),
                    (0.0, 1.0, -1.0, 0.0, b - inset, MARGIN), H - 2 * MARGIN, D - 2 * inset)


def _rotated(draw: Callable[[float, float], list[Item]], m: Matrix, w: float, h: float) -> list[Item]:
    """Items drawn in a w × h box of their own, placed on the net by `m`."""
    return [Group(tuple(draw(w, h)), m)]


def _card(face: Face, box: tuple[float, float, float, float]) -> list[Item]:
    """A card face as large as fits in the box, centred, clipped to its trim, with a thin frame."""
    x, y, w, h = box
    if w <= 0 or h <= 0:
        return []
    s = min(w / face.width, h / face.height)
    cw, ch = face.width * s, face.height * s
    cx, cy = x + (w - cw) / 2, y + (h - ch) / 2
    picture = Group(face.items, multiply(translation(cx, cy), (s, 0.0, 0.0, s, 0.0, 0.0)),
                    (0.0, 0.0, face.width, face.height))
    return [picture, Rect(cx, cy, cw, ch, paint=FRAME)]


def _text(art: BoxArt, text: str, box: tuple[float, float, float, float], size_pt: float, style: str,
          color: Color, escaped: bool = False, wrap: bool = True) -> list[Item]:
    family = art.fonts.families[art.family]
    look = TextStyle(family, style, size_pt * PT, min(5.0, size_pt) * PT, color, "center", "middle", 1.15,
                     wrap=wrap)
    fitted = set_text(text if escaped else escape(text), box, look, art.fonts)
    return fitted.items
