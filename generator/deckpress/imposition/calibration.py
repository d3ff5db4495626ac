"""The calibration sheet: `deckpress calibrate` measures a printer's scale and how far its duplex misses.

Page 1 (the front) holds two bars to check the print dialogue is not scaling (50 mm and 2 in),
two rulers that measure what scale is left, the instructions, and five targets: a cross in a
small circle at the page's centre and near each corner. The rulers are plain lines of a round
length (`ruler_lengths`: 170 mm across A4, 220 mm down it), with end lines and a tick every
10 mm: the X ruler along the bottom edge, the Y ruler along the left. Measured end to end with
the user's own ruler, they are typed as they were read, over what they should be
(`--scale 169.2/170,220.9/220`): nothing to work out, and a 0.5 mm reading over 220 mm is 0.2 %.
(A vernier read against the user's ruler would be no finer than the ruler's own millimetres, and
harder to explain.) The sheet itself is never drawn at a printer's scale, so the rulers always
measure the printer as it is. Page 2 (the back) holds, behind each target (the front mirrored about
the page's vertical centre line, as a long-edge flip does, or its horizontal one for a short-edge
flip), a square of graph paper crossed by an X and a Y scale. A pin pushed through a cross, or the cross seen against a window, shows on the back at
a number on each scale: that pair is the back offset to give (`--back-offset X,Y`). The centre
target gives the offset; the corners show whether the printer also turns or scales the back
(readings that differ by target), which no offset can fix.

Geometry in mm, y down from the top-left corner of the page being drawn; page 2 is in its own
coordinates (as seen looking at the back). The sign rule is derived in `scale_position`. The
pages are values (`calibration_pages`: lines, boxes, rings and words); the PDF backend draws them.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from ..colors import Gray
from ..face import apply
from ..units import POINTS_PER_MM, paper_size, paper_title
from .document import DocInfo, Marking
from .furniture import BLACK, Block, Furniture, FurniturePage, Ring, Rule, Words, text_width
from .sheets import page_mirror

Point = tuple[float, float]
Offset = tuple[float, float]

TARGET_INSET = 25.0  #: corner targets' centres from the paper's edges: every mark stays ≥ 15 mm inside
SCALE_HALF = 5.0  #: each scale reads this far either side of its middle (mm)
SCALE_STEP = 0.5  #: a line every half millimetre, numbered every millimetre
CROSS_ARM = 7.0  #: the front cross reaches past the back square, so against a window it is found easily
CROSS_RING = 2.0  #: radius of the circle round the cross's centre
NUMBER_SIZE = 6.0  #: pt, the scales' numbers: condensed bold, legible, and two fit in 2 mm
TEXT_SIZE = 9.0  #: pt, the instructions
BAR_HEIGHT = 1.6
BARS = (("mm", 50.0, 1.0, "must measure exactly 50 mm"), ("in", 50.8, 25.4 / 8, "must measure exactly 2 in"))
GRID_MM = Gray(0.55)  # the millimetre lines of the back squares
GRID_HALF = Gray(0.8)  # the half-millimetre lines: fainter, so the numbered lines stand out
EXAMPLE = "0.5,-1.2"
RULER_INSET = 15.5  #: the rulers' lines from the bottom and left edges: their ticks point inwards
#: their ends this far from the paper's edges: the X ruler's run below the bottom corner targets,
#: the Y ruler's ends (whose end lines reach across to them) stop short of the left ones
RULER_CLEAR = (20.0, 34.0)
RULER_MAX = 250.0  #: what a 30 cm ruler measures in one go
RULER_WIDTH = 0.15
SMALLEST = (148.0, 210.0)  #: A5: the least paper whose targets, scales and instructions keep apart (mm, either way up)


def targets(paper: Point) -> tuple[Point, ...]:
    """The front targets' centres: the page's centre first, then the corners (top-left, top-right,
    bottom-left, bottom-right), TARGET_INSET from the edges."""
    W, H = paper
    return ((W / 2, H / 2), (TARGET_INSET, TARGET_INSET), (W - TARGET_INSET, TARGET_INSET),
            (TARGET_INSET, H - TARGET_INSET), (W - TARGET_INSET, H - TARGET_INSET))


def behind(point: Point, paper: Point, flip: str = "long") -> Point:
    """Where a point of the front is on the back, in the back page's coordinates, after the sheet
    is turned over on its long (or short) edge."""
    return apply(page_mirror(paper, flip), *point)


def ruler_lengths(paper: Point) -> tuple[float, float]:
    """How long the X ruler (across the page) and the Y ruler (down it) are: the most whole
    centimetres that keep their ends RULER_CLEAR from the paper's edges, at most RULER_MAX."""
    W, H = paper
    return tuple(min(RULER_MAX, math.floor((extent - 2 * clear) / 10) * 10.0)  # type: ignore[return-value]
                 for extent, clear in zip((W, H), RULER_CLEAR))


def rulers(paper: Point) -> tuple[tuple[Point, Point], tuple[Point, Point]]:
    """The two rulers' end points (front page mm): X along the bottom edge, Y along the left one,
    each centred on its edge."""
    W, H = paper
    lx, ly = ruler_lengths(paper)
    y, x = H - RULER_INSET, RULER_INSET
    return (((W - lx) / 2, y), ((W + lx) / 2, y)), ((x, (H - ly) / 2), (x, (H + ly) / 2))


def scale_middle(offset: float) -> float:
    """The value in the middle of a scale: the current offset to the nearest half millimetre, so a
    printer that the offset already corrects reads near the middle, with SCALE_HALF either way."""
    return round(offset / SCALE_STEP) * SCALE_STEP + 0.0


def scale_values(offset: float) -> list[float]:
    """Every value a scale has a line for, SCALE_STEP apart, SCALE_HALF either side of its middle."""
    middle, n = scale_middle(offset), round(SCALE_HALF / SCALE_STEP)
    return [middle + i * SCALE_STEP + 0.0 for i in range(-n, n + 1)]


def scale_position(value: float, offset: float) -> float:
    """Where the line for `value` goes on a back page printed shifted by `offset` (one axis, mm),
    measured in the shifted page from the spot behind the front target.

    The rule, for one axis (x right, y down, both as seen looking at the back): let m be the spot
    behind a front target, o the offset the back page is printed shifted by, and e the printer's
    own error, which lands everything it prints on the back e further along. A line drawn at
    m + p in the shifted page lands at m + p + o + e on the paper. The pin hole is at m, so it
    falls on the line with p + o + e = 0, that is p = -(o + e). The offset that would have put
    the back right is the one that cancels e: -e, whatever o was. So the line at p must say
    -e = p + o: value = p + o, p = value - o. With no offset in use, p = value: a plain scale,
    positive to the right and down, numbered from the spot behind the target. With one, the
    page is shifted by o and the numbers by -o, so each value stays over the same spot of the
    paper, and the number at the hole is the whole offset to give, not a correction to add."""
    return value - offset


def fits(paper: str) -> bool:
    """Whether the calibration sheet can be laid out on `paper`: A5 or bigger, either way up."""
    short, long = sorted(paper_size(paper))
    return short >= SMALLEST[0] - 0.5 and long >= SMALLEST[1] - 0.5


def calibration_pages(paper: str = "a4", back_offset: Offset = (0.0, 0.0),
                      flip: str = "long") -> tuple[FurniturePage, FurniturePage]:
    """The two pages of the calibration sheet for `paper`, its back page printed shifted by
    `back_offset` (mm, x right and y down as seen on the back), for a printer that turns the sheet
    over on its `flip` edge."""
    W, H = paper_size(paper)
    front, back = _Page((W, H)), _Page((W, H))
    _front(front, paper, flip)
    _back(back, paper, back_offset, flip)
    return (FurniturePage((W, H), tuple(front.items)),
            FurniturePage((W, H), tuple(back.items), shift=back_offset))  # as every back page gets it


def calibration_info(paper: str = "a4", flip: str = "long") -> DocInfo:
    """The calibration file's description: black ink only (any printer, toner or ink), duplex."""
    return DocInfo(title=f"deckpress calibration sheet ({paper})", author="deckpress",
                   subject=f"Print double-sided ({flip}-edge flip) at 100 %, measure the rulers, then read the "
                           "back offset on the back.",
                   duplex=True, colors="k", marking=Marking(flip=flip))


REGULAR, BOLD, NUMBERS = "sans", "sans-bold", "condensed"


class _Page:
    """One page's furniture, collected in drawing order: mm, y down."""

    def __init__(self, paper: Point) -> None:
        self.W, self.H = paper
        self.items: list[Furniture] = []

    def line(self, x0: float, y0: float, x1: float, y1: float, width: float, color: Gray = BLACK) -> None:
        self.items.append(Rule((x0, y0, x1, y1), width, color))

    def box(self, x0: float, y0: float, x1: float, y1: float, color: Gray = BLACK) -> None:
        """A filled rectangle, no stroke: its edges are exactly where they are said to be."""
        self.items.append(Block((x0, y0, x1, y1), color))

    def circle(self, x: float, y: float, r: float, width: float) -> None:
        self.items.append(Ring((x, y), r, width))

    def text(self, x: float, baseline: float, text: str, size: float, font: str = REGULAR,
             align: str = "left") -> None:
        self.items.append(Words(text, x, baseline, size, font, align))

    def width(self, text: str, size: float, font: str = REGULAR) -> float:
        return text_width(text, size, font)

    def paragraph(self, x: float, top: float, width: float, text: str, size: float = TEXT_SIZE,
                  font: str = REGULAR, indent: str = "") -> float:
        """`text` wrapped to `width` mm from `top`; returns where the next paragraph starts.
        `indent` (like "1.") hangs in front of the first line."""
        leading = size * 1.3 / POINTS_PER_MM
        hang = self.width(indent + " ", size, BOLD) if indent else 0.0
        y = top + size / POINTS_PER_MM
        if indent:
            self.text(x, y, indent, size, BOLD)
        for line in _wrap(text, lambda s: self.width(s, size, font), width - hang):
            self.text(x + hang, y, line, size, font)
            y += leading
        return y - size / POINTS_PER_MM + leading * 0.45


def _wrap(text: str, measure, width: float) -> Iterator[str]:
    """Greedy word wrap; a word longer than the line stands on a line of its own."""
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if line and measure(candidate) > width:
            yield line
            line = word
        else:
            line = candidate
    if line:
        yield line


def _front(page: _Page, paper: str, flip: str = "long") -> None:
    W, H = page.W, page.H
    centre = targets((W, H))[0]
    lx, ly = (f"{n:g}" for n in ruler_lengths((W, H)))
    _title(page, f"deckpress printer calibration — front ({paper_title(paper)})")
    left, width, size = _column(W)
    y = TARGET_INSET + 12
    steps = (
        f"Print this file double-sided, flipping on the {flip} edge, at 100 % (\"actual size\"; not \"fit to "
        "page\"), on the paper you print cards on.",
        "The bars below are 50 mm and 2 in: a millimetre or more off, and the print dialogue is scaling "
        "the pages; fix that first.",
        f"Measure the X ruler (bottom edge, {lx} mm end to end) and the Y ruler (left edge, {ly} mm) closely; "
        f"save what you read: deckpress printer add NAME --scale X/{lx},Y/{ly}, like "
        f"--scale {float(lx) - 0.8:g}/{lx},{float(ly) + 0.9:g}/{ly}. Build with --printer NAME.",
        "Push a pin through the centre of each cross (or hold the sheet against a window) and turn the "
        "sheet over: the hole, or the cross shining through, falls in the square of scales printed there.",
        "The numbers at the hole on the middle square's X and Y scales are your back offset (the back page "
        "says how to save it); corners reading 0.5 mm otherwise show a turned back.",
    )
    for i, step in enumerate(steps, start=1):
        y = page.paragraph(left, y, width, step, size, indent=f"{i}.")
    for point in targets((W, H)):
        _cross(page, point)
    _rulers(page)
    page.text(centre[0], centre[1] + CROSS_ARM + 4, "middle target", 7, align="centre")
    x0 = W / 2 - 25.0
    for i, bar in enumerate(BARS):
        _bar(page, x0, centre[1] + 26 + 22 * i, *bar)


NARROW_COLUMN = 120.0  #: mm: text set narrower runs down onto the middle target (A5)


def _column(W: float) -> tuple[float, float, float]:
    """Where the instructions go across the page (left, width) and their size: between the corner
    targets, or, on paper too narrow for that (A5), the width of the page below them, clear of the
    Y ruler on the left and 15 mm in on the right, a point smaller."""
    left = TARGET_INSET + 10
    if W - 2 * left >= NARROW_COLUMN:
        return left, W - 2 * left, TEXT_SIZE
    return RULER_INSET + 6.5, W - RULER_INSET - 6.5 - 15.0, TEXT_SIZE - 1


def _title(page: _Page, text: str) -> None:
    """The page's title, centred between the top corner targets: 12 pt, smaller if it would reach
    them (their crosses, and the back's squares of scales, reach 12 mm round their centres)."""
    room = page.W - 2 * (TARGET_INSET + 12)
    size = min(12.0, 12.0 * room / page.width(text, 12, BOLD))
    page.text(page.W / 2, TARGET_INSET + 2, text, size, BOLD, "centre")


def _cross(page: _Page, point: Point) -> None:
    """A front target: a cross to push the pin through, ringed so it is found at a glance."""
    x, y = point
    page.line(x - CROSS_ARM, y, x + CROSS_ARM, y, 0.2)
    page.line(x, y - CROSS_ARM, x, y + CROSS_ARM, 0.2)
    page.circle(x, y, CROSS_RING, 0.2)


def _rulers(page: _Page) -> None:
    """The X and Y rulers (`rulers`): a line with a long end line at each end and a tick every
    10 mm (longer every 50), all pointing inwards, and its name and length beside it."""
    (a, b), (c, d) = rulers((page.W, page.H))
    lx, ly = ruler_lengths((page.W, page.H))
    w = RULER_WIDTH
    x0, y = a
    page.line(x0, y, b[0], y, w)
    for i in range(round(lx / 10) + 1):
        reach = 5.0 if i in (0, round(lx / 10)) else 2.0 if i % 5 == 0 else 1.2
        page.line(x0 + 10 * i, y, x0 + 10 * i, y - reach, w)
    page.text(page.W / 2, y - 2.8, f"X ruler: {lx:g} mm from end line to end line", 7, align="centre")
    x, y0 = c
    page.line(x, y0, x, d[1], w)
    for i in range(round(ly / 10) + 1):
        reach = 5.0 if i in (0, round(ly / 10)) else 2.0 if i % 5 == 0 else 1.2
        page.line(x, y0 + 10 * i, x + reach, y0 + 10 * i, w)
    page.text(x + 3.0, page.H / 2 - 1.2, "Y ruler:", 7)
    page.text(x + 3.0, page.H / 2 + 2.2, f"{ly:g} mm", 7)


def _bar(page: _Page, x0: float, top: float, unit: str, length: float, step: float, caption: str) -> None:
    """A solid bar `length` mm long under its caption, with a tick every `step` mm below it,
    longer at every half (5 mm, 1/2 in) and whole (10 mm, 1 in) number, numbered there. The end
    ticks are set inside the bar's ends, so the whole drawing is exactly `length` long."""
    tick_w = 0.12
    page.text(x0, top - 1.5, f"this bar {caption}", 8)
    page.box(x0, top, x0 + length, top + BAR_HEIGHT)
    per_number = round((10.0 if unit == "mm" else 25.4) / step)  # ticks from one number to the next
    for i in range(round(length / step) + 1):
        x = x0 + i * step
        whole, half = i % per_number == 0, i % (per_number // 2) == 0
        depth = 3.0 if whole else 2.0 if half else 1.2
        a = min(max(x - tick_w / 2, x0), x0 + length - tick_w)
        page.box(a, top + BAR_HEIGHT, a + tick_w, top + BAR_HEIGHT + depth)
        if whole:
            value = i // per_number * (10 if unit == "mm" else 1)
            page.text(x, top + BAR_HEIGHT + depth + 2.6, f"{value}", 7, align="centre")
    last = f"{round(length / step) // per_number * (10 if unit == 'mm' else 1)}"
    page.text(x0 + length + page.width(last, 7) / 2 + 1.0, top + BAR_HEIGHT + 3.0 + 2.6, unit, 7, BOLD)


def _back(page: _Page, paper: str, offset: Offset, flip: str = "long") -> None:
    W, H = page.W, page.H
    ox, oy = offset
    _title(page, f"back of the calibration sheet ({paper_title(paper)})")
    if offset == (0.0, 0.0):
        current = "No back offset is in use: this page is printed where a perfect printer puts it."
    else:
        current = (f"The back offset in use is X = {ox:g} mm, Y = {oy:g} mm, and this page is printed "
                   f"shifted by it. The scales allow for that: what they read is the whole offset to give, "
                   f"not a change to it. The middle of each scale is the offset in use.")
    left, width, size = _column(W)
    y = TARGET_INSET + 12
    y = page.paragraph(left, y, width, current, size)
    y = page.paragraph(left, y, width,
                       "At the middle square, read where the pin hole (or the cross shining through) is: X on the "
                       "numbers above and below the square, Y on the numbers left and right of it; the lines are "
                       "half a millimetre apart. Positive X moves the backs to the right, positive Y moves them "
                       "down, both as seen on this side.", size)
    y = page.paragraph(left, y, width, "Save the two numbers, X first, with", size)
    y = page.paragraph(left + 6, y, width - 6, "deckpress calibrate --back-offset X,Y", size, font=BOLD)
    y = page.paragraph(left, y, width, f"(or in a printer's profile, with the front's scale: deckpress printer add "
                       f"NAME --back-offset X,Y), like --back-offset {EXAMPLE} for X = 0.5 and Y = -1.2. Later "
                       "builds then shift their back pages by them (a deck folder's deckpress.yaml, or "
                       "--back-offset on the command line, can say otherwise). Print this sheet again to check: "
                       "the hole then falls in the middle of each square. --back-offset 0,0 takes it away.", size)
    for point in targets((W, H)):
        _scales(page, behind(point, (W, H), flip), offset)
    mx, my = behind(targets((W, H))[0], (W, H), flip)
    page.text(mx, my + scale_position(scale_middle(offset[1]), offset[1]) + SCALE_HALF + 9,
              "X: numbers above and below · Y: numbers left and right", 7, align="centre")


def _scales(page: _Page, spot: Point, offset: Offset) -> None:
    """The square of scales behind one front target (`spot`, in the unshifted back page).

    Lines every SCALE_STEP mm both ways, the millimetre lines darker, the lines for 0 black and
    reaching past the square (the longer tick at 0); through the middle, the two crossed rulers
    with their ticks. Each millimetre is numbered at the square's edge: X odd above and even below,
    Y odd left and even right, so two numbers of one row are 2 mm apart and never touch."""
    mx, my = spot
    xs = [(v, mx + scale_position(v, offset[0])) for v in scale_values(offset[0])]
    ys = [(v, my + scale_position(v, offset[1])) for v in scale_values(offset[1])]
    x0, x1, y0, y1 = xs[0][1], xs[-1][1], ys[0][1], ys[-1][1]
    cx, cy = xs[len(xs) // 2][1], ys[len(ys) // 2][1]
    for draw_zero in (False, True):  # the 0 lines on top of the grid
        for v, x in xs:
            if (v == 0) == draw_zero:
                _grid_line(page, v, (x, y0, x, y1), (x, y0 - 1.5, x, y1 + 1.5))
        for v, y in ys:
            if (v == 0) == draw_zero:
                _grid_line(page, v, (x0, y, x1, y), (x0 - 1.5, y, x1 + 1.5, y))
    # the crossed rulers through the middle, ticked both sides: 0.5 mm short, 1 mm longer, 0 longest
    page.line(x0, cy, x1, cy, 0.15)
    page.line(cx, y0, cx, y1, 0.15)
    for v, x in xs:
        t = _tick(v)
        page.line(x, cy - t, x, cy + t, 0.12)
    for v, y in ys:
        t = _tick(v)
        page.line(cx - t, y, cx + t, y, 0.12)
    # numbers at the edges
    size = NUMBER_SIZE
    digit_h = 0.714 * size / POINTS_PER_MM  # cap height of Noto Sans: the digits' height
    for v, x in xs:
        if v != round(v):
            continue
        above = round(v) % 2 != 0
        reach = 2.0 if v == 0 else 0.8
        if above:
            page.line(x, y0, x, y0 - reach, 0.12)
            page.text(x, y0 - 1.2 - (0.0 if v != 0 else 1.2), _number(v), size, NUMBERS, "centre")
        else:
            page.line(x, y1, x, y1 + reach, 0.12)
            page.text(x, y1 + 1.2 + digit_h + (0.0 if v != 0 else 1.2), _number(v), size, NUMBERS, "centre")
    for v, y in ys:
        if v != round(v):
            continue
        left = round(v) % 2 != 0
        reach = 2.0 if v == 0 else 0.8
        baseline = y + digit_h / 2
        if left:
            page.line(x0, y, x0 - reach, y, 0.12)
            page.text(x0 - 1.2 - (0.0 if v != 0 else 1.2), baseline, _number(v), size, NUMBERS, "right")
        else:
            page.line(x1, y, x1 + reach, y, 0.12)
            page.text(x1 + 1.2 + (0.0 if v != 0 else 1.2), baseline, _number(v), size, NUMBERS, "left")


def _grid_line(page: _Page, value: float, inside: tuple[float, ...], zero: tuple[float, ...]) -> None:
    if value == 0:
        page.line(*zero, 0.15)
    elif value == round(value):
        page.line(*inside, 0.08, GRID_MM)
    else:
        page.line(*inside, 0.05, GRID_HALF)


def _tick(value: float) -> float:
    """Half the length of a ruler's tick: the longer the rounder the value."""
    return 1.5 if value == 0 else 0.7 if value == round(value) else 0.35


def _number(value: float) -> str:
    """A scale's number as it is typed after --back-offset: hyphen-minus, no "+"."""
    return f"{value:g}" if not math.isclose(value, 0.0) else "0"
