"""Page furniture as values: everything a page carries besides its pieces.

Crop marks or cut lines, a cutting machine's registration marks, a gutterfold sheet's fold line,
what puts a tile back together (its name, glue strips, alignment marks), the 50 mm scale bar and
the page label; and the plain lines, boxes, rings and words the calibration sheet is made of.

Lengths are millimetres, y down from the paper's top-left corner, as in faces, except inside a
`Band` (the strip the scale bar and label go in), whose values run along the strip and outwards
from its origin. Type sizes are in points, as type is measured; text widths come from the font
text shaped (`shaping.shape`) as the PDF draws it. The PDF backend
(backends/pdfpages.py) draws every value here; nothing here knows how.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from ..colors import Gray
from ..face import PathOp
from ..text.fonts import FontSet
from ..text.shaping import line_width
from ..units import POINTS_PER_MM, PRINTABLE
from .cutters import SILHOUETTE, CutterProfile
from .sheets import MARK_GAP, MARK_LENGTH, Box, Fold, PagePlan, Seam, Tile, bounding_box, printable_box
MARK_WIDTH = 0.2
SCALE_BAR = 50.0
BAR_STEP = 10.0  #: the bar's blocks, alternately filled and open, like a map scale
BAR_HEIGHT = 1.2
BAR_LINE = 0.15
BAR_INSET = 7.0
LABEL_SIZE = 6.5  #: pt, the label, the bar's caption and the fold's word
LABEL_FONT = "sans"
LABEL_PAD = 0.6  #: white paper either side of the label
FOLD_DASH = (2.0, 1.5)  #: mm on, mm off: unlike the solid crop marks
OUTLINE_DASH = (1.2, 0.8)  #: a shaped piece's cut line: shorter dashes than the fold's, to follow curves
TILE_MARK = 2.5  #: size of the alignment triangles
GLUE = Gray(0.82)
BLACK = Gray(0.0)
WHITE = Gray(1.0)
CAPTION = f"{SCALE_BAR:g} mm — print at 100 % (actual size)"

#: how a tile's instructions say to cut it out, by its page's marks
CUT_WORDS = {"corners": "cut along the crop marks", "lines": "cut along the lines",
             "cutter": "cut out with the cutting machine", "none": "cut out"}

Point = tuple[float, float]
Segment = tuple[float, float, float, float]  #: x1, y1, x2, y2


@dataclass(frozen=True)
class Words:
    """One line of text in one font (a reference like ``sans-bold``), `size` pt: its baseline
    starts at (x, y), or ends there (`align` "right"), or is centred on it ("centre"); `turned`
    text reads upwards."""

    text: str
    x: float
    y: float
    size: float
    font: str = LABEL_FONT
    align: str = "left"
    turned: bool = False


@dataclass(frozen=True)
class Band:
    """The strip along the bottom or the right margin that holds the scale bar and the label.
    Values in it are x along the strip and y outwards (away from the pieces) from `origin`, a
    point of the page; a `turned` band runs up the right margin."""

    origin: Point
    turned: bool = False

    def point(self, x: float, y: float) -> Point:
        """The page point `x` along the band and `y` out from it."""
        ox, oy = self.origin
        return (ox + y, oy - x) if self.turned else (ox + x, oy + y)


@dataclass(frozen=True)
class CutMarks:
    """Crop marks or cut lines round one group of pieces, each segment drawn `width` wide in black
    over white `halo` wide, so it shows on white paper and on a dark bleed alike."""

    segments: tuple[Segment, ...]
    width: float = MARK_WIDTH
    halo: float = MARK_WIDTH * 4


@dataclass(frozen=True)
class CutOutlines:
    """The cut lines of shaped pieces (round tokens, hex tiles: `PagePlan.outlines`), each a
    closed path (page mm) drawn dashed `width` wide in black over a white line `halo` wide, so it
    shows on white paper and on the piece's own dark bleed alike."""

    paths: tuple[tuple[PathOp, ...], ...]
    width: float = MARK_WIDTH
    halo: float = MARK_WIDTH * 2
    dash: tuple[float, float] = OUTLINE_DASH


@dataclass(frozen=True)
class RegistrationMarks:
    """A cutting machine's marks (marks.registration_marks): filled black boxes."""

    boxes: tuple[Box, ...]


@dataclass(frozen=True)
class FoldLine:
    """The dashed line to fold a gutterfold sheet along, and the word "fold" beside it."""

    start: Point
    end: Point
    word: Words
    width: float = MARK_WIDTH
    dash: tuple[float, float] = FOLD_DASH


@dataclass(frozen=True)
class GlueStrip:
    """The strip of a tile another tile is glued over: white, hatched, saying so, with a dashed
    line (`edge`) where the other tile's cut edge goes. The hatching is clipped to `box`."""

    box: Box
    hatch: tuple[Segment, ...]
    words: Words
    edge: Segment
    hatch_width: float = 0.3
    hatch_color: Gray = GLUE
    edge_width: float = 0.25
    edge_dash: tuple[float, float] = (1.5, 1.0)


@dataclass(frozen=True)
class AlignmentMark:
    """A filled triangle in the margin, its first point on a seam: the neighbour's matches it."""

    points: tuple[Point, Point, Point]


@dataclass(frozen=True)
class TileMarks:
    """What puts a tiled piece back together: the tile's name and instructions above it, then
    for each seam its glue strip (on the tile glued under) and its alignment mark, in order."""

    name: Words
    instructions: Words
    seams: tuple[GlueStrip | AlignmentMark, ...]


@dataclass(frozen=True)
class ScaleBar:
    """A bar `length` mm long from (x, y), in blocks `step` long and `height` deep, outlined
    `line` wide, alternately filled and open; its caption below it. In `band`, or on the page."""

    band: Band | None
    x: float
    y: float
    caption: Words
    length: float = SCALE_BAR
    step: float = BAR_STEP
    height: float = BAR_HEIGHT
    line: float = BAR_LINE


@dataclass(frozen=True)
class Label:
    """The page label, right-aligned, on a patch of white paper (so cut lines drawn out to the
    paper's edge pass under it, not through it). In `band`, or on the page."""

    band: Band | None
    words: Words
    patch: Box


@dataclass(frozen=True)
class Rule:
    """A straight line, `width` wide."""

    segment: Segment
    width: float
    color: Gray = BLACK


@dataclass(frozen=True)
class Block:
    """A filled box, unstroked: its edges are exactly where they are said to be."""

    box: Box
    color: Gray = BLACK


@dataclass(frozen=True)
class Ring:
    """A circle, stroked `width` wide."""

    centre: Point
    radius: float
    width: float


#: every kind of furniture value (glue strips and alignment marks come inside a tile's marks)
Furniture = (CutMarks | CutOutlines | RegistrationMarks | FoldLine | TileMarks | GlueStrip | AlignmentMark | ScaleBar
             | Label | Rule | Block | Ring | Words)


@dataclass(frozen=True)
class FurniturePage:
    """A page of furniture alone (the calibration sheet's), drawn in order; with `shift`, all of
    it moved by that much (mm, right and down), as a back page is by the back offset."""

    paper: tuple[float, float]
    items: tuple[Furniture, ...]
    shift: Point | None = None


def text_width(text: str, size: float, font: str = LABEL_FONT) -> float:
    """How long `text` is at `size` pt in `font` (a bundled family's reference), in mm: shaped, as
    the PDF draws it (`shaping.line_runs`)."""
    return line_width(text, _bundled().file(font).path) * size / POINTS_PER_MM


def text_widths(texts: Sequence[str], size: float, font: str = LABEL_FONT) -> list[float]:
    """`text_width` of each of `texts`."""
    return [text_width(text, size, font) for text in texts]


@functools.lru_cache(maxsize=1)
def _bundled() -> FontSet:
    return FontSet()


# --- a sheet's furniture -------------------------------------------------------------------------

def sheet_furniture(plan: PagePlan, marks: str, bleed: float, label_room: float,
                    shift: Point = (0.0, 0.0), cutter: CutterProfile = SILHOUETTE) -> tuple[Furniture, ...]:
    """What a page marked `marks` (marks.MARK_MODES) carries besides its label, in drawing order:
    its marks for cutting, any fold line, any tile's marks, and the scale bar, which keeps clear of
    the last `label_room` mm of its band, where the label goes. A page moved by a back offset
    (`shift`) is printed that much off by the printer, which the offset cancels: its marks are cut
    back to the printable part of the paper moved alike, so they print as an unmoved page's do.
    A cutter sheet's marks and band are `cutter`'s (cutters.py)."""
    printable = printable_box(plan.paper, shift, edges=plan.margins)
    items: list[Furniture] = list(cut_marks(plan, marks, printable, cutter))
    if marks in ("corners", "lines") and any(getattr(p.face, "outline", ()) for p in plan.placements):
        items.append(CutOutlines(plan.outlines))  # shaped pieces: their cut lines, not a tuck box's own
    if plan.fold is not None:
        items.append(fold_line(plan.fold, plan.trim_box, printable))
    if plan.tile is not None:
        items.append(tile_marks(plan.tile, plan.tile.area or plan.area, CUT_WORDS[marks], printable[2]))
    ground = band_ground(plan, bleed) if marks != "cutter" else None
    if ground is not None:  # under the marks, so they still show on it
        items.insert(0, ground)
    items.append(scale_bar(plan, marks, bleed, 0.0 if label_below(plan, marks, bleed, label_room) else label_room,
                           cutter))
    return tuple(items)


def cut_marks(plan: PagePlan, marks: str, printable: Box | None = None,
              cutter: CutterProfile = SILHOUETTE) -> list[CutMarks | RegistrationMarks]:
    """The page's marks for cutting (see marks.py): crop marks or cut lines round each group of
    pieces, or a cutting machine's registration marks, or none; cut back to `printable` (by
    default the paper's printable part)."""
    W, H = plan.paper
    printable = printable or printable_box(plan.paper, edges=plan.margins)
    if marks == "cutter":
        boxes = tuple(cutter.registration_marks(W, H))
        return [RegistrationMarks(boxes)] if boxes else []
    if marks not in ("corners", "lines"):
        return []
    groups = mark_groups(plan)
    found = []
    for trim, cut_xs, cut_ys in groups:
        if marks == "corners":
            segments = printed(crop_marks(trim, cut_xs, cut_ys), printable)
        else:
            segments = cut_lines(trim, cut_xs, cut_ys, printable, [g[0] for g in groups if g[0] != trim])
        found.append(CutMarks(tuple(segments)))
    return found


def mark_groups(plan: PagePlan) -> list[tuple[Box, tuple[float, ...], tuple[float, ...]]]:
    """The trim and cut lines each set of crop marks goes round: the whole page's, or on a
    gutterfold sheet each half's, so the fronts' marks also stand in the gutter and the folded
    card can be cut from marks on both of its edges, or on a page of pieces of several sizes
    each block's, cut along its own pieces' edges only."""
    if not plan.placements:
        return []
    if plan.blocks:
        groups = []
        for block in plan.blocks:
            trims = [p.trim for p in plan.placements if block[0] - 1e-6 <= p.trim[0] and p.trim[2] <= block[2] + 1e-6
                     and block[1] - 1e-6 <= p.trim[1] and p.trim[3] <= block[3] + 1e-6]
            if trims:  # cut along the page's cut lines that are edges of these pieces (a tile's glued edge is none)
                groups.append((bounding_box(trims),
                               tuple(sorted({round(v, 6) for t in trims for v in (t[0], t[2])} & set(plan.cut_xs))),
                               tuple(sorted({round(v, 6) for t in trims for v in (t[1], t[3])} & set(plan.cut_ys)))))
        return groups
    if plan.fold is None:
        return [(plan.trim_box, plan.cut_xs, plan.cut_ys)]
    at, axis = plan.fold.at, 0 if plan.fold.vertical else 1
    groups = []
    for side in (-1, 1):
        trims = [p.trim for p in plan.placements if side * (p.trim[axis] - at) > 0]
        if trims:
            box = bounding_box(trims)
            groups.append((box, tuple(x for x in plan.cut_xs if box[0] - 1e-6 <= x <= box[2] + 1e-6),
                           tuple(y for y in plan.cut_ys if box[1] - 1e-6 <= y <= box[3] + 1e-6)))
    return groups


def crop_marks(trim: Box, cut_xs: tuple[float, ...], cut_ys: tuple[float, ...]) -> list[Segment]:
    """Crop marks in the margins round `trim` on every cut line, never across a card."""
    gx0, gy0, gx1, gy1 = trim
    segments = []
    for x in cut_xs:
        segments.append((x, gy0 - MARK_GAP, x, gy0 - MARK_GAP - MARK_LENGTH))
        segments.append((x, gy1 + MARK_GAP, x, gy1 + MARK_GAP + MARK_LENGTH))
    for y in cut_ys:
        segments.append((gx0 - MARK_GAP, y, gx0 - MARK_GAP - MARK_LENGTH, y))
        segments.append((gx1 + MARK_GAP, y, gx1 + MARK_GAP + MARK_LENGTH, y))
    return segments


def printed(segments: list[Segment], printable: Box) -> list[Segment]:
    """The part of each mark (a segment across or down the page) inside `printable`, the part of
    the paper that prints (`printable_box`); a mark left shorter than MIN_PRINTED is dropped."""
    left, top, right, bottom = printable
    kept = []
    for x1, y1, x2, y2 in segments:
        if x1 == x2:
            if not left <= x1 <= right:
                continue
            lo, hi = max(min(y1, y2), top), min(max(y1, y2), bottom)
            seg = (x1, lo, x1, hi) if y1 <= y2 else (x1, hi, x1, lo)
        else:
            if not top <= y1 <= bottom:
                continue
            lo, hi = max(min(x1, x2), left), min(max(x1, x2), right)
            seg = (lo, y1, hi, y1) if x1 <= x2 else (hi, y1, lo, y1)
        if hi - lo >= MIN_PRINTED:
            kept.append(seg)
    return kept


MIN_PRINTED = 0.5  #: mm: a mark cut back to less than this would be a dot that guides nothing


def cut_lines(trim: Box, cut_xs: tuple[float, ...], cut_ys: tuple[float, ...], printable: Box,
              others: list[Box]) -> list[Segment]:
    """Every cut line drawn on from outside `trim` to the edge of the `printable` part of the
    paper, or up to another group of pieces (the other half of a gutterfold sheet), so a
    trimmer's blade can be lined up on it across the whole sheet."""
    p_left, p_top, p_right, p_bottom = printable
    gx0, gy0, gx1, gy1 = trim
    segments = []
    for x in cut_xs:
        across = [o for o in others if o[0] <= x <= o[2]]
        top = max([o[3] + MARK_GAP for o in across if o[3] <= gy0] + [p_top])
        bottom = min([o[1] - MARK_GAP for o in across if o[1] >= gy1] + [p_bottom])
        segments += [(x, gy0 - MARK_GAP, x, top), (x, gy1 + MARK_GAP, x, bottom)]
    for y in cut_ys:
        across = [o for o in others if o[1] <= y <= o[3]]
        left = max([o[2] + MARK_GAP for o in across if o[2] <= gx0] + [p_left])
        right = min([o[0] - MARK_GAP for o in across if o[0] >= gx1] + [p_right])
        segments += [(gx0 - MARK_GAP, y, left, y), (gx1 + MARK_GAP, y, right, y)]
    return printed(segments, printable)


def fold_line(fold: Fold, trim: Box, printable: Box | None = None) -> FoldLine:
    """The line to fold along: dashed down the middle of the gutter and as far past the cards as
    the crop marks reach, with "fold" written along its first stretch past the cards, in the
    gutter's clear band (as near the paper's edge as the marks, so it prints wherever they do).
    Both stop at the edge of the `printable` part of the paper; where the margin is too narrow
    for the word, it is written just inside the gutter, past the cards' edge."""
    x0, y0, x1, y1 = trim
    reach = MARK_GAP + MARK_LENGTH
    left, top, right, bottom = printable or (float("-inf"), float("-inf"), float("inf"), float("inf"))
    word = text_width("fold", LABEL_SIZE)
    if fold.vertical:  # reads upwards from the cards, beside the line
        start = y0 - MARK_GAP if y0 - MARK_GAP - word >= top else y0 + MARK_GAP + word
        return FoldLine((fold.at, max(y0 - reach, top)), (fold.at, min(y1 + reach, bottom)),
                        Words("fold", fold.at - 0.8, start, LABEL_SIZE, turned=True))
    # ends next to the cards, above the line
    if x0 - MARK_GAP - word >= left:
        words = Words("fold", x0 - MARK_GAP, fold.at - 0.8, LABEL_SIZE, align="right")
    else:
        words = Words("fold", x0 + MARK_GAP, fold.at - 0.8, LABEL_SIZE)
    return FoldLine((max(x0 - reach, left), fold.at), (min(x1 + reach, right), fold.at), words)


def tile_marks(tile: Tile, area: Box, cut: str, right: float | None = None) -> TileMarks:
    """What puts a tiled piece back together: the tile's name above it; on each strip another
    tile is glued over, light hatching, the neighbour's name and a dashed line where its edge
    goes; and a triangle in the margin at every seam, matching the neighbour's (once where two
    neighbours share a seam line). The instructions end before `right` (the printable edge)."""
    x0, y0, _, _ = area
    seams: list[GlueStrip | AlignmentMark] = []
    for seam in tile.seams:
        if seam.kind == "glue":
            seams.append(glue_strip(seam))
        mark = alignment_mark(seam, area)
        if mark not in seams:
            seams.append(mark)
    stops = [s.at for s in tile.seams if s.vertical]  # their triangles stand on the instructions' line
    return TileMarks(Words(f"tile {tile.name}", x0 + 4, y0 - 6.0, 9),
                     instructions(tile, x0 + 18, stops, cut, y0 - 6.0, right), tuple(seams))


def instructions(tile: Tile, x: float, stops: Sequence[float], cut: str, baseline: float,
                 right: float | None = None) -> Words:
    """How to put the tiles together, on the tile name's line from `x`, ending before the first
    alignment triangle (their tips at `stops`) that would stand on it and before `right` (the
    printable edge of the paper): the whole of it, or less of it where the tile is narrow."""
    n, names = len(tile.names), ", ".join(tile.names)
    texts = (f"of {n} ({names}): {cut}, glue the tiles over the hatched strips, black triangles meeting",
             f"of {n}: {cut}, glue the tiles over the hatched strips, black triangles meeting",
             f"of {n}: {cut}, glue over the hatched strips, triangles meeting",
             f"of {n}: {cut}")
    clear = TILE_MARK / 2 + 1.0
    end = min([s - clear for s in stops if s + clear > x] + [float("inf") if right is None else right])
    text = next((t for t in texts if x + text_width(t, LABEL_SIZE) <= end), texts[-1])
    return Words(text, x, baseline, LABEL_SIZE)


def glue_strip(seam: Seam) -> GlueStrip:
    """The strip a glue seam's neighbour is laid over, hatched every 4 mm at 45°, saying so (the
    neighbour's name alone where the words would overrun the strip)."""
    a, b = seam.span
    box = (seam.at, a, seam.at + seam.strip, b) if seam.vertical else (a, seam.at, b, seam.at + seam.strip)
    bx0, by0, bx1, by1 = box
    step = 4.0
    reach = (bx1 - bx0) + (by1 - by0)
    hatch = []
    for i in range(int(reach / step) + 1):
        start = bx0 - (by1 - by0) + i * step
        hatch.append((start, by1, start + (by1 - by0), by0))
    text = f"glue — {seam.neighbour} goes over this strip"
    if text_width(text, 7) > b - a - 4:  # a short stretch of a strip two neighbours share
        text = f"glue — {seam.neighbour}"
    if seam.vertical:
        words = Words(text, seam.at + seam.strip / 2 + 1.2, (a + b) / 2, 7, align="centre", turned=True)
        edge = (seam.at, a, seam.at, b)
    else:
        words = Words(text, (a + b) / 2, seam.at + seam.strip / 2 + 1.2, 7, align="centre")
        edge = (a, seam.at, b, seam.at)
    return GlueStrip(box, tuple(hatch), words, edge)


def alignment_mark(seam: Seam, area: Box) -> AlignmentMark:
    """A small triangle in the margin, its tip on the seam line: vertical seams get one above the
    tile, horizontal seams one left of it (the label and scale bar use the other margins)."""
    x0, y0, _, _ = area
    out = 6.0  # beyond the crop marks
    k = TILE_MARK
    if seam.vertical:
        return AlignmentMark(((seam.at, y0 - out), (seam.at - k / 2, y0 - out - k), (seam.at + k / 2, y0 - out - k)))
    return AlignmentMark(((x0 - out, seam.at), (x0 - out - k, seam.at - k / 2), (x0 - out - k, seam.at + k / 2)))


# --- scale bar and label ---------------------------------------------------------------------------

def scale_bar(plan: PagePlan, marks: str, bleed: float, label_room: float,
              cutter: CutterProfile = SILHOUETTE) -> ScaleBar:
    """The 50 mm scale bar, in the wider of the bottom and right margins (on a cutter sheet, in the
    strip below the marks or the cutter's area, `CutterProfile.band`, along its top).

    It starts just outside the bleed, between two cut lines, where no crop mark crosses it, and
    before the last `label_room` mm, where the label goes: centred in a card-sized gap, near the
    start of a longer one. Its caption runs further out than the marks reach."""
    caption_y = BAR_HEIGHT + 0.6 + 1.8
    if marks == "cutter":
        x0, y0, _, y1 = cutter.band(*plan.paper)
        return ScaleBar(None, x0, y0, Words(CAPTION, x0, y1 - 0.6, LABEL_SIZE))
    band, label_end, cuts, start = _band(plan, bleed)
    span_start, span_end = _clear_span(cuts, start, label_end - label_room)
    room = span_end - span_start
    x0 = span_start + (max(0.0, room - SCALE_BAR) / 2 if room <= 2 * SCALE_BAR else BAR_INSET)
    return ScaleBar(band, x0, 0.0, Words(CAPTION, x0, caption_y, LABEL_SIZE))


def page_label(plan: PagePlan, marks: str, text: str, width: float, bleed: float,
               label_room: float | None = None) -> Label:
    """The page label (`width` mm long, as text_width measures it), ending 1 mm short of the far end of the scale bar's band, clear of the last
    cut line, on the caption's line (on a cutter sheet, at the end of the strip below the marks);
    below it when the band cannot hold the bar and `label_room` mm (the file's longest label and
    its gap; by default this one's)."""
    return label_at(label_spot(plan, marks, bleed, width + 3.0 if label_room is None else label_room), text, width)


LabelSpot = tuple[Band | None, float, float]  #: a label's band (None: the page), where it ends, its baseline
LABEL_LINE = 2.8  #: mm from the caption's baseline to the label's, when the label goes below the bar


def label_spot(plan: PagePlan, marks: str, bleed: float, label_room: float,
               cutter: CutterProfile = SILHOUETTE) -> LabelSpot:
    """Where `page_label` puts a page's label `label_room` mm long (with its gap), whatever it
    says: pages laid out alike share it. On the scale bar's caption's line; on the line below it
    when the band is too short for both (a few cards centred on the page) and the margin deep enough."""
    if marks == "cutter":
        _, _, x1, y1 = cutter.band(*plan.paper)
        return None, x1, y1 - 0.6
    band, end, _, _ = _band(plan, bleed)
    below = LABEL_LINE if label_below(plan, marks, bleed, label_room) else 0.0
    return band, end, BAR_HEIGHT + 0.6 + 1.8 + below


def label_below(plan: PagePlan, marks: str, bleed: float, label_room: float) -> bool:
    """Whether the label goes on a line of its own below the scale bar: the band cannot hold the
    bar and `label_room` mm of label side by side, and the margin has room for one more line."""
    if marks == "cutter" or not plan.placements:
        return False
    _, end, _, _ = _band(plan, bleed)
    bar = scale_bar(plan, marks, bleed, label_room)  # where it goes, keeping clear of the label if it can
    if bar.x + SCALE_BAR + 1.0 <= end - label_room + 3.0 - LABEL_PAD:  # room enough: the label's patch starts after
        return False
    gx0, gy0, gx1, gy1 = plan.area
    W, H = plan.paper
    margin = max(H - gy1, W - gx1) - band_depth(plan, bleed) - band_edge(plan)
    return margin >= BAND_DEPTH + LABEL_LINE


def label_at(spot: LabelSpot, text: str, width: float) -> Label:
    """The label saying `text` (`width` mm long) at `spot`, on its patch of white paper."""
    band, end, baseline = spot
    patch = (end - width - LABEL_PAD, baseline + 0.8 - LABEL_SIZE / POINTS_PER_MM - 0.4, end + LABEL_PAD,
             baseline + 0.8)
    return Label(band, Words(text, end, baseline, LABEL_SIZE, align="right"), patch)


BAND_DEPTH = 4.5  #: how far the scale bar, its caption and the label reach out from the band's origin


def band_depth(plan: PagePlan, bleed: float) -> float:
    """How far out from the pieces' area the band starts: just outside the bleed, or, where the
    margin is too narrow for that (nine poker cards on `universal` paper leave 9.75 mm), as far
    out as keeps its words PRINTABLE (or the printer's margin) from the paper's edge, over the
    bleed (`band_ground`). On a page the pieces fill only in part (a rules page ending in two
    pieces), at the page's foot, with room for a label's line below the bar: where a footer
    belongs, and clear of the pieces' crop marks (it stood 56 mm up, on them)."""
    gx0, gy0, gx1, gy1 = plan.area
    W, H = plan.paper
    margin = max(H - gy1, W - gx1)
    near = max(0.5, min(bleed + 1.0, margin - band_edge(plan) - BAND_DEPTH))
    foot = margin - band_edge(plan) - BAND_DEPTH - LABEL_LINE
    return foot if foot - near > BAND_DEPTH else near


def band_edge(plan: PagePlan) -> float:
    """What the printer leaves unprinted along the edge the band runs by: the bottom edge, or the
    right one when that margin is the wider (PRINTABLE, or the printer's own `plan.margins`)."""
    top, right, bottom, left = plan.margins if plan.margins is not None else (PRINTABLE,) * 4
    gx0, gy0, gx1, gy1 = plan.area
    W, H = plan.paper
    return bottom if H - gy1 >= W - gx1 else right


def band_ground(plan: PagePlan, bleed: float) -> Block | None:
    """White paper under the band where it lies over the pieces' bleed (see `band_depth`): the
    bleed there is cut back to 0.5 mm short of the band, the length of the area, so the bar and
    its words stand on white. None where the band is clear of the bleed."""
    depth = band_depth(plan, bleed)
    if depth >= bleed + 1.0 or not plan.placements:
        return None
    gx0, gy0, gx1, gy1 = plan.area
    W, H = plan.paper
    reach = bleed + 0.5  # past the bleed, so no sliver of it shows round the ground
    if H - gy1 >= W - gx1:
        return Block((gx0 - reach, gy1 + depth - 0.5, gx1 + reach, min(gy1 + reach, H - band_edge(plan))), WHITE)
    return Block((gx1 + depth - 0.5, gy0 - reach, min(gx1 + reach, W - band_edge(plan)), gy1 + reach), WHITE)


def _band(plan: PagePlan, bleed: float) -> tuple[Band, float, tuple[float, ...], float]:
    """The scale bar's and label's band, in the wider of the bottom and right margins, starting
    just outside the bleed (`band_depth`); where the label ends in it, the cut (and fold) lines
    across it, and where the pieces' area starts, all along the band."""
    gx0, gy0, gx1, gy1 = plan.area
    W, H = plan.paper
    depth = band_depth(plan, bleed)
    if H - gy1 >= W - gx1:
        folds = (plan.fold.at,) if plan.fold is not None and plan.fold.vertical else ()
        return Band((0.0, gy1 + depth)), gx1 - 1.0, plan.cut_xs + folds, gx0
    folds = (plan.fold.at,) if plan.fold is not None and not plan.fold.vertical else ()
    return (Band((gx1 + depth, H), turned=True), H - gy0 - 1.0,  # reads upwards along the right margin
            tuple(H - y for y in reversed(plan.cut_ys + folds)), H - gy1)


def _clear_span(cuts: tuple[float, ...], start: float, end: float) -> tuple[float, float]:
    """The first stretch of the margin, between the area's ends and its cut (or fold) lines, that holds
    the scale bar with no crop mark crossing it (the whole stretch if none is long enough)."""
    stops = sorted({start, end, *(c for c in cuts if start < c < end)})
    for a, b in zip(stops, stops[1:]):
        if b - a >= SCALE_BAR + 2:
            return a, b
    return start, end
