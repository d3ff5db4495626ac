"""Sheets to PDF: faces placed through their forms, crop marks, page boxes, scale bar and label."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..atomic import replacing
from ..backends.pdf import MM, FaceForms, new_canvas, font_name, set_fill, set_stroke
from ..colors import Gray
from ..face import Face
from ..fonts import FontSet
from .marks import cutter_band, registration_marks
from .sheets import Box, Fold, PagePlan, Seam, Tile, bounding_box, moved

MARK_GAP = 1.0  # marks start this far outside the trim, so a slightly wide cut removes them
MARK_LENGTH = 4.0
MARK_WIDTH = 0.2
SCALE_BAR = 50.0
BAR_INSET = 7.0
LABEL_SIZE = 6.5  # pt
BLACK = Gray(0.0)
WHITE = Gray(1.0)


@dataclass(frozen=True)
class Sheet:
    """One page to write: its plan, its label, and whether it is printed on the back of the
    page before it (a back page: duplex backs, the backs file)."""

    plan: PagePlan[Face]
    label: str
    back: bool = False


@dataclass(frozen=True)
class DocInfo:
    title: str
    author: str
    subject: str
    duplex: bool = False  # ask viewers to print double-sided, flipping on the long edge
    colors: str = "rgb"  # "cmyk" or "k" (black ink only): colours of any other kind are converted
    # how pieces are marked for cutting (marks.MARK_MODES); every mode but "none" adds a scale bar and
    # a page label. Back pages are cut from their fronts: they get the marks only with `back_marks`
    # (crop marks in "cutter" mode: the machine reads the registration marks on the front).
    marks: str = "corners"
    back_marks: bool = False
    # mm, (x right, y down) as seen looking at the back: every back page is shifted by it, to cancel
    # the printer's own misregistration (measured with `deckpress calibrate`, see settings.py)
    back_offset: tuple[float, float] = (0.0, 0.0)


def write_sheets(path: Path, sheets: Sequence[Sheet], info: DocInfo, bleed: float,
                 progress: Callable[[int], None] | None = None) -> None:
    """Write the pages to `path` via a temporary file, so a failed build leaves no half file."""
    with replacing(path) as tmp:
        _write(tmp, sheets, info, bleed, progress)


def _write(path: Path, sheets: Sequence[Sheet], info: DocInfo, bleed: float,
           progress: Callable[[int], None] | None) -> None:
    body_font = FontSet().families["sans"].files["regular"]
    first_w, first_h = sheets[0].plan.paper
    canvas = new_canvas(path, (first_w * MM, first_h * MM), body_font, info.colors)
    canvas.setTitle(info.title)
    canvas.setAuthor(info.author)
    canvas.setSubject(info.subject)
    canvas.setCreator("deckpress")
    canvas.setViewerPreference("PrintScaling", "None")
    if info.duplex:
        canvas.setViewerPreference("Duplex", "DuplexFlipLongEdge")
    forms = FaceForms(canvas)
    furniture: dict[tuple, str] = {}  # marks and scale bar, the same on most pages: one form each
    shifted = 0  # furniture forms of shifted back pages, counted apart so fronts name theirs as without
    # the scale bar keeps clear of the widest label, so one form serves every page of the file
    label_room = max(canvas.stringWidth(s.label, font_name(body_font), LABEL_SIZE) for s in sheets) / MM + 3.0
    for sheet in sheets:
        plan = moved(sheet.plan, *info.back_offset) if sheet.back else sheet.plan
        W, H = plan.paper
        canvas.setPageSize((W * MM, H * MM))
        for p in plan.placements:
            forms.place(p.face, p.matrix, H, p.clip)
        marks = page_marks(info, sheet.back)
        key = (marks, plan.paper, tuple(round(v, 6) for v in plan.area), plan.cut_xs, plan.cut_ys, plan.tile,
               plan.fold)
        if info.marks != "none" and key not in furniture:
            if plan is not sheet.plan:
                shifted += 1
                furniture[key] = f"backsheet{shifted}"
            else:
                furniture[key] = f"sheet{len(furniture) - shifted + 1}"
            canvas.beginForm(furniture[key])
            _cut_marks(canvas, plan, marks)
            if plan.fold is not None:
                _fold_line(canvas, plan.fold, plan.trim_box, H, body_font)
            if plan.tile is not None:
                _tile_marks(canvas, plan.tile, plan.area, H, body_font, CUT_WORDS[marks])
            if marks == "cutter":
                _cutter_furniture(canvas, W, H, None, body_font)
            else:
                _furniture(canvas, plan, None, bleed, body_font, label_room)
            canvas.endForm()
        if info.marks != "none":
            canvas.doForm(furniture[key])
            if marks == "cutter":
                _cutter_furniture(canvas, W, H, sheet.label, body_font)
            else:
                _furniture(canvas, plan, sheet.label, bleed, body_font, label_room)
        if plan.placements:
            # clamped to the paper, so the boxes stay nested even when a large back offset pushes a
            # piece past its edge
            tx0, ty0, tx1, ty1 = _on_paper(plan.trim_box, W, H)
            bx0, by0, bx1, by1 = _on_paper(plan.bleed_box, W, H)
            canvas.setTrimBox((tx0 * MM, (H - ty1) * MM, tx1 * MM, (H - ty0) * MM))
            canvas.setBleedBox((bx0 * MM, (H - by1) * MM, bx1 * MM, (H - by0) * MM))
        canvas.showPage()
        if progress:
            progress(1)
    canvas.save()


def page_marks(info: DocInfo, back: bool) -> str:
    """The marks a page carries: the file's, or on a back page none unless asked for."""
    if not back:
        return info.marks
    if not info.back_marks:
        return "none"
    return "corners" if info.marks == "cutter" else info.marks


def _on_paper(box: Box, W: float, H: float) -> Box:
    return (max(box[0], 0.0), max(box[1], 0.0), min(box[2], W), min(box[3], H))


def _mark_groups(plan: PagePlan[Face]) -> list[tuple[Box, tuple[float, ...], tuple[float, ...]]]:
    """The trim and cut lines each set of crop marks goes round: the whole page's, or on a
    gutterfold sheet each half's, so the fronts' marks also stand in the gutter and the folded
    card can be cut from marks on both of its edges."""
    if not plan.placements:
        return []
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


def _cut_marks(canvas, plan: PagePlan[Face], marks: str) -> None:
    """The page's marks for cutting (see marks.py): crop marks or cut lines round each group of
    pieces, or a cutting machine's registration marks."""
    W, H = plan.paper
    if marks == "cutter":
        set_fill(canvas, BLACK)
        for x0, y0, x1, y1 in registration_marks(W, H):
            canvas.rect(x0 * MM, (H - y1) * MM, (x1 - x0) * MM, (y1 - y0) * MM, stroke=0, fill=1)
        return
    if marks not in ("corners", "lines"):
        return
    groups = _mark_groups(plan)
    for trim, cut_xs, cut_ys in groups:
        if marks == "corners":
            segments = crop_marks(trim, cut_xs, cut_ys)
        else:
            segments = cut_lines(trim, cut_xs, cut_ys, plan.paper, [g[0] for g in groups if g[0] != trim])
        _stroke_marks(canvas, segments, H)


Segment = tuple[float, float, float, float]


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


def cut_lines(trim: Box, cut_xs: tuple[float, ...], cut_ys: tuple[float, ...], paper: tuple[float, float],
              others: list[Box]) -> list[Segment]:
    """Every cut line drawn on from outside `trim` to the paper's edge, or up to another group of
    pieces (the other half of a gutterfold sheet), so a trimmer's blade can be lined up on it
    across the whole sheet."""
    W, H = paper
    gx0, gy0, gx1, gy1 = trim
    segments = []
    for x in cut_xs:
        across = [o for o in others if o[0] <= x <= o[2]]
        top = max([o[3] + MARK_GAP for o in across if o[3] <= gy0] + [0.0])
        bottom = min([o[1] - MARK_GAP for o in across if o[1] >= gy1] + [H])
        segments += [(x, gy0 - MARK_GAP, x, top), (x, gy1 + MARK_GAP, x, bottom)]
    for y in cut_ys:
        across = [o for o in others if o[1] <= y <= o[3]]
        left = max([o[2] + MARK_GAP for o in across if o[2] <= gx0] + [0.0])
        right = min([o[0] - MARK_GAP for o in across if o[0] >= gx1] + [W])
        segments += [(gx0 - MARK_GAP, y, left, y), (gx1 + MARK_GAP, y, right, y)]
    return segments


def _stroke_marks(canvas, segments: list[Segment], H: float) -> None:
    """Each mark drawn twice, white and wide under black and thin, so it shows on white paper and on
    a dark bleed alike."""
    path = canvas.beginPath()
    for x1, y1, x2, y2 in segments:
        path.moveTo(x1 * MM, (H - y1) * MM)
        path.lineTo(x2 * MM, (H - y2) * MM)
    for color, width in ((WHITE, MARK_WIDTH * 4), (BLACK, MARK_WIDTH)):
        set_stroke(canvas, color)
        canvas.setLineWidth(width * MM)
        canvas.drawPath(path, stroke=1, fill=0)


FOLD_DASH = (2.0, 1.5)  # mm on, mm off: unlike the solid crop marks


def _fold_line(canvas, fold: Fold, trim: Box, H: float, body_font: str) -> None:
    """The line to fold along: dashed down the middle of the gutter and as far past the cards as
    the crop marks reach, with "fold" written along its first stretch past the cards, in the
    gutter's clear band (as near the paper's edge as the marks, so it prints wherever they do)."""
    x0, y0, x1, y1 = trim
    reach = MARK_GAP + MARK_LENGTH
    canvas.saveState()
    set_stroke(canvas, BLACK)
    canvas.setLineWidth(MARK_WIDTH * MM)
    canvas.setDash([FOLD_DASH[0] * MM, FOLD_DASH[1] * MM])
    if fold.vertical:
        canvas.line(fold.at * MM, (H - y0 + reach) * MM, fold.at * MM, (H - y1 - reach) * MM)
        canvas.translate((fold.at - 0.8) * MM, (H - y0 + MARK_GAP) * MM)
        canvas.rotate(90)  # reads upwards from the cards, beside the line
        draw = canvas.drawString
    else:
        canvas.line((x0 - reach) * MM, (H - fold.at) * MM, (x1 + reach) * MM, (H - fold.at) * MM)
        canvas.translate((x0 - MARK_GAP) * MM, (H - fold.at + 0.8) * MM)
        draw = canvas.drawRightString  # ends next to the cards, above the line
    set_fill(canvas, BLACK)
    canvas.setFont(font_name(body_font), LABEL_SIZE)
    draw(0, 0, "fold")
    canvas.restoreState()


def _furniture(canvas, plan: PagePlan[Face], label: str | None, bleed: float, body_font: str,
               label_room: float) -> None:
    """The 50 mm scale bar (`label` None) or the page label, in the wider of the bottom and right margins.

    They start just outside the bleed. The label ends 1 mm short of the area's end, clear of the last
    cut line; the bar lies before the last `label_room` mm, between two cut lines, where no crop mark
    crosses it; its caption and the label run further out than the marks reach.
    """
    gx0, gy0, gx1, gy1 = plan.area
    W, H = plan.paper
    depth = bleed + 1.0
    canvas.saveState()
    # local frame: x runs along the margin (mm), y = 0 at the band's inner edge, outwards is -y
    if H - gy1 >= W - gx1:
        canvas.translate(0, (H - gy1 - depth) * MM)
        label_end = gx1 - 1.0
        folds = (plan.fold.at,) if plan.fold is not None and plan.fold.vertical else ()
        span_start, span_end = _clear_span(plan.cut_xs + folds, gx0, label_end - label_room)
    else:
        canvas.translate((gx1 + depth) * MM, 0)
        canvas.rotate(90)  # reads upwards along the right margin
        label_end = H - gy0 - 1.0
        folds = (plan.fold.at,) if plan.fold is not None and not plan.fold.vertical else ()
        span_start, span_end = _clear_span(tuple(H - y for y in reversed(plan.cut_ys + folds)), H - gy1,
                                           label_end - label_room)
    bar_h = 1.2
    baseline = -(bar_h + 0.6 + 1.8) * MM
    canvas.setFont(font_name(body_font), LABEL_SIZE)
    set_fill(canvas, BLACK)
    if label is not None:
        _label(canvas, label_end * MM, baseline, label)
    else:
        # centred in a card-sized gap; near the start of a longer one, leaving the far end to the label
        room = span_end - span_start
        x0 = span_start + (max(0.0, room - SCALE_BAR) / 2 if room <= 2 * SCALE_BAR else BAR_INSET)
        set_stroke(canvas, BLACK)
        canvas.setLineWidth(0.15 * MM)
        for i in range(int(SCALE_BAR // 10)):  # alternate filled and open 10 mm blocks, like a map scale
            canvas.rect((x0 + 10 * i) * MM, -bar_h * MM, 10 * MM, bar_h * MM, stroke=1, fill=1 - i % 2)
        canvas.drawString(x0 * MM, baseline, f"{SCALE_BAR:g} mm — print at 100 % (actual size)")
    canvas.restoreState()


def _cutter_furniture(canvas, W: float, H: float, label: str | None, body_font: str) -> None:
    """A cutter sheet's scale bar (`label` None) or page label, in the strip below the marks
    (`marks.cutter_band`): the bar along its top, caption and label on one line under it."""
    x0, y0, x1, y1 = cutter_band(W, H)
    baseline = (H - y1 + 0.6) * MM
    canvas.saveState()
    canvas.setFont(font_name(body_font), LABEL_SIZE)
    set_fill(canvas, BLACK)
    if label is not None:
        _label(canvas, x1 * MM, baseline, label)
    else:
        bar_h = 1.2
        set_stroke(canvas, BLACK)
        canvas.setLineWidth(0.15 * MM)
        for i in range(int(SCALE_BAR // 10)):
            canvas.rect((x0 + 10 * i) * MM, (H - y0 - bar_h) * MM, 10 * MM, bar_h * MM, stroke=1, fill=1 - i % 2)
        canvas.drawString(x0 * MM, baseline, f"{SCALE_BAR:g} mm — print at 100 % (actual size)")
    canvas.restoreState()


def _label(canvas, end: float, baseline: float, label: str) -> None:
    """The page label, ending at `end` (pt), on a patch of white paper: cut lines drawn out to the
    paper's edge pass under it, not through it."""
    width = canvas.stringWidth(label, canvas._fontname, canvas._fontsize)
    pad = 0.6 * MM
    set_fill(canvas, WHITE)
    canvas.rect(end - width - pad, baseline - 0.8 * MM, width + 2 * pad, canvas._fontsize + 0.4 * MM, stroke=0, fill=1)
    set_fill(canvas, BLACK)
    canvas.drawRightString(end, baseline, label)


def _clear_span(cuts: tuple[float, ...], start: float, end: float) -> tuple[float, float]:
    """The first stretch of the margin, between the area's ends and its cut (or fold) lines, that holds
    the scale bar with no crop mark crossing it (the whole stretch if none is long enough)."""
    stops = sorted({start, end, *(c for c in cuts if start < c < end)})
    for a, b in zip(stops, stops[1:]):
        if b - a >= SCALE_BAR + 2:
            return a, b
    return start, end


TILE_MARK = 2.5  # size of the alignment triangles
GLUE = Gray(0.82)


#: how a tile's instructions say to cut it out, by its page's marks
CUT_WORDS = {"corners": "cut along the crop marks", "lines": "cut along the lines",
             "cutter": "cut out with the cutting machine", "none": "cut out"}


def _tile_marks(canvas, tile: Tile, area: Box, H: float, body_font: str, cut: str) -> None:
    """What puts a tiled piece back together: the tile's name above it; on each strip another
    tile is glued over, light hatching, the neighbour's name and a dashed line where its edge
    goes; and a triangle in the margin at every seam, matching the neighbour's."""
    x0, y0, x1, y1 = area
    canvas.saveState()
    canvas.setFont(font_name(body_font), 9)
    set_fill(canvas, BLACK)
    canvas.drawString((x0 + 4) * MM, (H - y0 + 6.0) * MM, f"tile {tile.name}")
    canvas.setFont(font_name(body_font), LABEL_SIZE)
    canvas.drawString((x0 + 18) * MM, (H - y0 + 6.0) * MM,
                      f"of {len(tile.names)} ({', '.join(tile.names)}): {cut}, glue the "
                      "tiles over the hatched strips, black triangles meeting")
    for seam in tile.seams:
        if seam.kind == "glue":
            _glue_strip(canvas, seam, H, body_font)
        _triangle(canvas, seam, area, H)
    canvas.restoreState()


def _glue_strip(canvas, seam: Seam, H: float, body_font: str) -> None:
    a, b = seam.span
    if seam.vertical:
        box = (seam.at, a, seam.at + seam.strip, b)
    else:
        box = (a, seam.at, b, seam.at + seam.strip)
    bx0, by0, bx1, by1 = box
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(bx0 * MM, (H - by1) * MM, (bx1 - bx0) * MM, (by1 - by0) * MM)
    canvas.clipPath(clip, stroke=0, fill=0)
    set_fill(canvas, WHITE)
    canvas.rect(bx0 * MM, (H - by1) * MM, (bx1 - bx0) * MM, (by1 - by0) * MM, stroke=0, fill=1)
    set_stroke(canvas, GLUE)
    canvas.setLineWidth(0.3 * MM)
    hatch = canvas.beginPath()
    reach = (bx1 - bx0) + (by1 - by0)
    step = 4.0
    for i in range(int(reach / step) + 1):
        start = bx0 - (by1 - by0) + i * step
        hatch.moveTo(start * MM, (H - by1) * MM)
        hatch.lineTo((start + (by1 - by0)) * MM, (H - by0) * MM)
    canvas.drawPath(hatch, stroke=1, fill=0)
    set_fill(canvas, BLACK)
    canvas.setFont(font_name(body_font), 7)
    text = f"glue — {seam.neighbour} goes over this strip"
    if seam.vertical:
        canvas.translate((seam.at + seam.strip / 2 + 1.2) * MM, (H - (a + b) / 2) * MM)
        canvas.rotate(90)
    else:
        canvas.translate(((a + b) / 2) * MM, (H - seam.at - seam.strip / 2 - 1.2) * MM)
    canvas.drawCentredString(0, 0, text)
    canvas.restoreState()
    set_stroke(canvas, BLACK)  # where the neighbour's cut edge goes
    canvas.setLineWidth(0.25 * MM)
    canvas.setDash([1.5 * MM, 1.0 * MM])
    if seam.vertical:
        canvas.line(seam.at * MM, (H - a) * MM, seam.at * MM, (H - b) * MM)
    else:
        canvas.line(a * MM, (H - seam.at) * MM, b * MM, (H - seam.at) * MM)
    canvas.setDash([])


def _triangle(canvas, seam: Seam, area: Box, H: float) -> None:
    """A small triangle in the margin, its tip on the seam line: vertical seams get one above the
    tile, horizontal seams one left of it (the label and scale bar use the other margins)."""
    x0, y0, _, _ = area
    out = 6.0  # beyond the crop marks
    k = TILE_MARK
    if seam.vertical:
        tip = (seam.at, y0 - out)
        pts = [tip, (seam.at - k / 2, y0 - out - k), (seam.at + k / 2, y0 - out - k)]
    else:
        tip = (x0 - out, seam.at)
        pts = [tip, (x0 - out - k, seam.at - k / 2), (x0 - out - k, seam.at + k / 2)]
    p = canvas.beginPath()
    p.moveTo(pts[0][0] * MM, (H - pts[0][1]) * MM)
    for x, y in pts[1:]:
        p.lineTo(x * MM, (H - y) * MM)
    p.close()
    set_fill(canvas, BLACK)
    canvas.drawPath(p, stroke=0, fill=1)
