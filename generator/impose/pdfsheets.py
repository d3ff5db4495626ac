"""Sheets to PDF: faces placed through their forms, crop marks, page boxes, scale bar and label."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..backends.pdf import MM, FaceForms, k_only, new_canvas, font_name, set_fill, set_stroke
from ..colors import Gray
from ..face import Face
from ..fonts import FontSet
from .sheets import Grid, PagePlan

MARK_GAP = 1.0  # marks start this far outside the trim, so a slightly wide cut removes them
MARK_LENGTH = 4.0
MARK_WIDTH = 0.2
SCALE_BAR = 50.0
LABEL_SIZE = 6.5  # pt
BLACK = Gray(0.0)
WHITE = Gray(1.0)


@dataclass(frozen=True)
class Sheet:
    """One page to write: its plan, the grid it came from and its label."""

    plan: PagePlan[Face]
    grid: Grid
    label: str


@dataclass(frozen=True)
class DocInfo:
    title: str
    author: str
    subject: str
    duplex: bool = False  # ask viewers to print double-sided, flipping on the long edge
    k_only: bool = False  # refuse RGB: every colour becomes black ink only


def write_sheets(path: Path, sheets: Sequence[Sheet], info: DocInfo, bleed: float,
                 progress: Callable[[int], None] | None = None) -> None:
    """Write the pages to `path` via a temporary file, so a failed build leaves no half file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    try:
        _write(tmp, sheets, info, bleed, progress)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def _write(path: Path, sheets: Sequence[Sheet], info: DocInfo, bleed: float,
           progress: Callable[[int], None] | None) -> None:
    body_font = FontSet().families["sans"].files["regular"]
    first = sheets[0].grid
    canvas = new_canvas(path, (first.paper_w * MM, first.paper_h * MM), body_font,
                        enforce=k_only if info.k_only else None)
    canvas.setTitle(info.title)
    canvas.setAuthor(info.author)
    canvas.setSubject(info.subject)
    canvas.setCreator("deckpress")
    canvas.setViewerPreference("PrintScaling", "None")
    if info.duplex:
        canvas.setViewerPreference("Duplex", "DuplexFlipLongEdge")
    forms = FaceForms(canvas)
    furniture: dict[tuple, str] = {}  # marks and scale bar, the same on most pages: one form each
    for sheet in sheets:
        grid = sheet.grid
        W, H = grid.paper_w, grid.paper_h
        canvas.setPageSize((W * MM, H * MM))
        for p in sheet.plan.placements:
            forms.place(p.face, p.matrix, H, p.clip)
        key = (grid, sheet.plan.cut_xs, sheet.plan.cut_ys)
        if key not in furniture:
            furniture[key] = f"sheet{len(furniture) + 1}"
            canvas.beginForm(furniture[key])
            if sheet.plan.placements:
                _marks(canvas, sheet.plan, grid, H)
            _furniture(canvas, grid, None, bleed, body_font)
            canvas.endForm()
        canvas.doForm(furniture[key])
        _furniture(canvas, grid, sheet.label, bleed, body_font)
        if sheet.plan.placements:
            tx0, ty0, tx1, ty1 = sheet.plan.trim_box
            bx0, by0, bx1, by1 = sheet.plan.bleed_box
            bx0, by0, bx1, by1 = max(bx0, 0), max(by0, 0), min(bx1, W), min(by1, H)
            canvas.setTrimBox((tx0 * MM, (H - ty1) * MM, tx1 * MM, (H - ty0) * MM))
            canvas.setBleedBox((bx0 * MM, (H - by1) * MM, bx1 * MM, (H - by0) * MM))
        canvas.showPage()
        if progress:
            progress(1)
    canvas.save()


def _marks(canvas, plan: PagePlan[Face], grid: Grid, H: float) -> None:
    """Crop marks in the margins on every cut line, never across a card.

    Each mark is drawn twice, white and wide under black and thin, so it shows on white paper
    and on a dark bleed alike.
    """
    gx0, gy0, gx1, gy1 = plan.trim_box
    segments = []
    for x in plan.cut_xs:
        segments.append((x, gy0 - MARK_GAP, x, gy0 - MARK_GAP - MARK_LENGTH))
        segments.append((x, gy1 + MARK_GAP, x, gy1 + MARK_GAP + MARK_LENGTH))
    for y in plan.cut_ys:
        segments.append((gx0 - MARK_GAP, y, gx0 - MARK_GAP - MARK_LENGTH, y))
        segments.append((gx1 + MARK_GAP, y, gx1 + MARK_GAP + MARK_LENGTH, y))
    path = canvas.beginPath()
    for x1, y1, x2, y2 in segments:
        path.moveTo(x1 * MM, (H - y1) * MM)
        path.lineTo(x2 * MM, (H - y2) * MM)
    for color, width in ((WHITE, MARK_WIDTH * 4), (BLACK, MARK_WIDTH)):
        set_stroke(canvas, color)
        canvas.setLineWidth(width * MM)
        canvas.drawPath(path, stroke=1, fill=0)


def _furniture(canvas, grid: Grid, label: str | None, bleed: float, body_font: str) -> None:
    """The 50 mm scale bar (`label` None) or the page label, in the wider of the bottom and right margins.

    They start just outside the bleed. The bar lies along the first column (or bottom row), where
    no crop mark crosses it; its caption and the label run further out than the marks reach.
    """
    gx0, gy0, gx1, gy1 = grid.box
    W, H = grid.paper_w, grid.paper_h
    depth = bleed + 1.0
    canvas.saveState()
    # local frame: x runs along the margin (mm), y = 0 at the band's inner edge, outwards is -y
    if H - gy1 >= W - gx1:
        canvas.translate(0, (H - gy1 - depth) * MM)
        span_start, span_end, label_end = gx0, gx0 + grid.cell_w, gx1
    else:
        canvas.translate((gx1 + depth) * MM, 0)
        canvas.rotate(90)  # reads upwards along the right margin
        span_start, span_end, label_end = H - gy1, H - gy1 + grid.cell_h, H - gy0
    bar_h = 1.2
    baseline = -(bar_h + 0.6 + 1.8) * MM
    canvas.setFont(font_name(body_font), LABEL_SIZE)
    set_fill(canvas, BLACK)
    if label is not None:
        canvas.drawRightString(label_end * MM, baseline, label)
    else:
        x0 = span_start + (span_end - span_start - SCALE_BAR) / 2
        set_stroke(canvas, BLACK)
        canvas.setLineWidth(0.15 * MM)
        for i in range(int(SCALE_BAR // 10)):  # alternate filled and open 10 mm blocks, like a map scale
            canvas.rect((x0 + 10 * i) * MM, -bar_h * MM, 10 * MM, bar_h * MM, stroke=1, fill=1 - i % 2)
        canvas.drawString(x0 * MM, baseline, f"{SCALE_BAR:g} mm — print at 100 % (actual size)")
    canvas.restoreState()
