"""Ink modes and print colours: Face -> Face transforms, so every output (PDF, PNG, SVG) gets them
for free.

Low-ink turns every colour into a grey printed with black ink only, and spends that ink where
it carries information: large fills and backgrounds become light tints (or vanish), backs
become pale, pictures turn grey and pale, while text, lines and the palette symbols that say
what a colour means stay strong. Text that would end up light on a light ground is made dark.

CMYK (for print shops) converts every colour to process colours (by deckpress's formula
`to_cmyk`, or a print shop's ICC profile: separation.py) and prints text that is grey or black in
black ink alone, so small letters are never built from four inks that can miss each other on the
press.
"""

from __future__ import annotations

import functools

from .colors import CMYK, Color, Gray, to_cmyk
from .face import (IDENTITY, Ellipse, Face, Group, Image, Item, Line, Matrix, Paint, Path, Rect, Text,
                   apply, bounds, evolve, multiply)
from .separation import FORMULA, Separation

INKS = ("color", "lowink")
COLORS = ("rgb", "cmyk")  # colour spaces of the colour build

LARGE = 0.12  # a fill covering this share of the card (or more) counts as large
LIGHT_FILL = 0.10  # large fills keep this share of their darkness
LIGHT_FRAME = 0.3  # outlines of large shapes (card frames) keep this share …
FRAME_WIDTH = 0.25  # … and become hairlines no wider than this (mm)
OUTLINED_FILL = 0.6  # small outlined shapes (symbols) keep this share of their fill
BACK_FILL = 0.08  # back fills keep this share of their darkness
BACK_LINE = 0.45  # back lines and text keep this share
LIGHT_IMAGE = 0.55  # large pictures are lightened by this much (along colors.paled: dark lines least) …
BACK_IMAGE = 0.9  # … and pictures on backs by this much: a dark back's ground pales as it did evenly by 0.55


SOLID = 0.85  # nothing is printed darker than this: a dark grey reads as black and saves ink


def grey(color: Color | None, keep: float = 1.0) -> Gray | None:
    """The grey a colour prints as, keeping `keep` of its darkness (and never more than SOLID)."""
    if color is None:
        return None
    return Gray(round(1 - keep * min(1 - color.luma, SOLID), 4))


def lowink(face: Face, back: bool = False) -> Face:
    """The low-ink version of a face (`back`: a card back, which is made paler still)."""
    card_area = face.width * face.height
    return face.with_items(_convert(face.items, card_area, back, IDENTITY, 1.0, [], {}))


Ground = tuple[tuple[float, float, float, float], float, float]  # box, luma before, grey after


def _convert(items: tuple[Item, ...], card_area: float, back: bool, matrix: Matrix, opacity: float,
             grounds: list[Ground], pictures: dict[Image, Image]) -> tuple[Item, ...]:
    """Convert items in drawing order; `grounds` collects filled boxes (in face space) seen so far,
    as light as they look on paper at the `opacity` of the groups they are in; `pictures` the
    pictures converted so far, each as it was placed (its `crop` aside): a picture placed again in
    the same box (the copies made bleed adds, reflected or stretched into the bleed) is printed as
    where it was first placed, so the bleed is as pale as the picture it grows."""
    out: list[Item] = []
    large_area = LARGE * card_area
    for item in items:
        if isinstance(item, Group):
            inner = _convert(item.items, card_area, back, multiply(matrix, item.transform),
                             opacity * item.opacity, grounds, pictures)
            if inner:
                out.append(evolve(item, items=inner))
            continue
        if isinstance(item, Text):
            if item.ink != "drop":
                text = _text(item, back, matrix, grounds)
                out.append(text)
                if item.cue > 0:
                    out.append(underline(text))
        elif isinstance(item, Image):
            ink = item.ink
            if ink == "drop":
                continue
            placed = item if item.crop is None else evolve(item, crop=None)
            first = pictures.get(placed)
            if first is None:
                large = _area(_box(item, matrix)) >= large_area
                lighten = (BACK_IMAGE if back else LIGHT_IMAGE) if ink == "light" or (ink == "auto" and (back or large)) \
                    else 0.0
                first = pictures[placed] = evolve(placed, grey=True, lighten=max(item.lighten, lighten))
            out.append(first if item.crop is None else evolve(first, crop=item.crop))
        else:
            ink = item.paint.ink
            if ink == "drop":
                continue
            converted, box = _shape_at(item, matrix, large_area, back)
            if ink == "auto" and not back and _area(box) < large_area:
                converted = _stand_out(item, converted, box, opacity, grounds)
            out.append(converted)
            if converted.paint.fill is not None:
                grounds.append((box, _on_paper(item.paint.fill, opacity), _on_paper(converted.paint.fill, opacity)))
    return tuple(out)


def _stand_out(item: Rect | Ellipse | Line | Path, converted: Rect | Ellipse | Line | Path,
               box: tuple[float, float, float, float], opacity: float,
               grounds: list[Ground]) -> Rect | Ellipse | Line | Path:
    """A small filled shape without an outline (an arrow, a mark) that stood out from its ground in
    colour but would not any more (cream on a wine band that low-ink made pale) is made dark, or
    white, as text is: otherwise it prints grey on grey and is lost."""
    paint = item.paint
    if paint.fill is None or (paint.stroke is not None and paint.stroke_width > 0):
        return converted
    x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    before, after = next(((b, a) for (x0, y0, x1, y1), b, a in reversed(grounds)
                          if x0 <= x <= x1 and y0 <= y <= y1), (1.0, 1.0))
    mine, now = _on_paper(paint.fill, opacity), _on_paper(converted.paint.fill, opacity)
    if abs(before - mine) < 0.4 or abs(after - now) >= 0.4:
        return converted
    fill = Gray(1.0 - SOLID) if after > 0.5 else Gray(1.0)
    return evolve(converted, paint=evolve(converted.paint, fill=fill))


def _on_paper(color: Color, opacity: float) -> float:
    """The luma a colour laid on white paper at `opacity` shows."""
    return 1 - opacity * (1 - color.luma)


SHAPES_KEPT = 4096  #: shapes remembered converted: faces share their frames, rules and backgrounds


@functools.lru_cache(maxsize=SHAPES_KEPT)
def _shape_at(item: Rect | Ellipse | Line | Path, matrix: Matrix, large_area: float,
              back: bool) -> tuple[Rect | Ellipse | Line | Path, tuple[float, float, float, float]]:
    """A shape converted where `matrix` puts it, and the box it covers there: the same for every
    face that has it (cards of a template share most of theirs)."""
    box = _box(item, matrix)
    return _shape(item, item.paint.ink, large_area, back, box), box


def _shape(item: Rect | Ellipse | Line | Path, ink: str, large_area: float, back: bool,
           box: tuple[float, float, float, float]) -> Rect | Ellipse | Line | Path:
    """The shape in greys; `box` is what it covers on the face, `large_area` what counts as large."""
    paint = item.paint
    area = _area(box)
    large = paint.fill is not None and area >= large_area
    stroke_width = paint.stroke_width
    if ink == "keep":
        fill_keep, line_keep = 1.0, 1.0
    elif back:
        fill_keep, line_keep = (BACK_FILL if large else BACK_LINE), BACK_LINE
    elif ink == "light" or large or area >= large_area:
        fill_keep, line_keep = LIGHT_FILL, LIGHT_FRAME
        stroke_width = min(stroke_width, FRAME_WIDTH)
    elif paint.stroke is not None and paint.stroke_width > 0:
        fill_keep, line_keep = OUTLINED_FILL, 1.0  # the outline keeps the shape; its fill can be paler
    else:
        fill_keep, line_keep = 1.0, 1.0
    return evolve(item, paint=Paint(grey(paint.fill, fill_keep), grey(paint.stroke, line_keep), stroke_width,
                                    paint.dash, paint.ink))


def _text(item: Text, back: bool, matrix: Matrix, grounds: list[Ground]) -> Text:
    """Text turns grey; text that stood out from its ground in colour but would not any more
    (white on a band that low-ink made pale) is made dark, or white."""
    keep = 1.0 if item.ink == "keep" else BACK_LINE if back or item.ink == "light" else 1.0
    color = grey(item.color, keep)
    if item.ink == "auto":
        x, y = apply(matrix, item.x + item.size * 0.3, item.y - item.size * 0.3)
        before, after = next(((b, a) for (x0, y0, x1, y1), b, a in reversed(grounds)
                              if x0 <= x <= x1 and y0 <= y <= y1), (1.0, 1.0))
        if abs(before - item.color.luma) >= 0.4 and abs(after - color.level) < 0.4 * keep:
            color = Gray(1.0 - keep * SOLID) if after > 0.5 else Gray(1.0)
    return evolve(item, color=color)


CUE_OFFSET = 0.12  # the low-ink underline of a coloured run: this far below the baseline, in em …
CUE_WIDTH = 0.06  # … and this thick: below the descent of most letters' bowls, and as bold as a stem


def underline(text: Text) -> Line:
    """The rule low-ink draws under a run whose colour set it apart (`Text.cue`): in the run's grey,
    as long as its letters, so it still stands out when every colour is a grey. A rule rather than
    a bolder font, since a transform cannot set the text again: bold letters are wider, and the
    lines would run into each other or out of the box."""
    y = text.y + CUE_OFFSET * text.size
    return Line(text.x, y, text.x + text.cue, y, Paint(stroke=text.color, stroke_width=CUE_WIDTH * text.size,
                                                      ink="keep"))


def _box(item: Item, matrix: Matrix) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = bounds(item)
    if matrix == IDENTITY:  # the corners as they are: only compared and multiplied, so -0.0 and 0.0 agree
        return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
    corners = [apply(matrix, x, y) for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
    return (min(c[0] for c in corners), min(c[1] for c in corners),
            max(c[0] for c in corners), max(c[1] for c in corners))


def _area(box: tuple[float, float, float, float]) -> float:
    x0, y0, x1, y1 = box
    return (x1 - x0) * (y1 - y0)


NEUTRAL = 0.06  # text whose channels differ by no more than this is grey, printed in black ink only
SOLID_TEXT = 0.8  # grey text at least this dark is printed solid black, not as a 90 % screen


def cmyk(face: Face, separation: Separation = FORMULA) -> Face:
    """The face in process colours: every colour through `separation` (deckpress's formula or an
    ICC profile), grey and black text in black ink only, pictures marked for separation by the
    backend (with the same `separation`, which it is given for the whole build)."""
    return face.with_items(_process(face.items, separation))


def _process(items: tuple[Item, ...], separation: Separation) -> tuple[Item, ...]:
    out: list[Item] = []
    for item in items:
        if isinstance(item, Group):
            out.append(evolve(item, items=_process(item.items, separation)))
        elif isinstance(item, Text):
            out.append(evolve(item, color=text_ink(item.color, separation)))
        elif isinstance(item, Image):
            out.append(evolve(item, cmyk=True))
        else:
            fill, stroke = (None if c is None else separation.color(c) for c in (item.paint.fill, item.paint.stroke))
            out.append(evolve(item, paint=evolve(item.paint, fill=fill, stroke=stroke)))
    return tuple(out)


def text_ink(color: Color, separation: Separation = FORMULA) -> CMYK:
    """The process colour of text: a (near) grey in black ink only, dark ones solid black; a
    colour as `separation` makes it."""
    ink = to_cmyk(color)
    if max(ink.c, ink.m, ink.y) * (1 - ink.k) > NEUTRAL:  # that product is max - min of r, g, b
        return separation.color(color)
    k = 1 - color.luma
    return CMYK(0.0, 0.0, 0.0, 1.0 if k >= SOLID_TEXT else round(k, 4))


def apply_ink(face: Face, ink: str, back: bool = False, color: str = "rgb",
              separation: Separation = FORMULA) -> Face:
    """The face as printed in an ink mode; the colour build in `color` ("rgb" or "cmyk", made by
    `separation`). Low-ink faces are black ink only already, so `color` does not change them."""
    if ink == "lowink":
        return lowink(face, back)
    return cmyk(face, separation) if color == "cmyk" else face
