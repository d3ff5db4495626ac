"""Documents to PDF: pages of placed faces and their furniture, written atomically.

Imposition (deckpress.imposition) says what goes where, in millimetres: `FurnishedPage`s (a sheet's
pieces, its furniture and label, its page boxes) and `FurniturePage`s (furniture alone, as on the
calibration sheet). This module only draws them: faces through their forms (backends/pdf.py),
each furniture value with reportlab, page boxes, document info and viewer preferences. Furniture
that many pages share is one Form XObject, named in order of first use (`sheetN`, and
`backsheetN` for pages moved by the back offset), so a file's bytes depend on nothing else.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from ..atomic import replacing
from ..fonts import FontSet
from ..imposition.document import DocInfo, FurnishedPage, Sheet
from ..imposition.furniture import (BLACK, LABEL_FONT, WHITE, AlignmentMark, Band, Block, CutMarks, FoldLine,
                                    Furniture, FurniturePage, GlueStrip, Label, RegistrationMarks, Ring, Rule,
                                    ScaleBar, TileMarks, Words)
from .pdf import MM, FaceForms, FaceRecordings, face_characters, font_name, new_canvas, set_fill, set_stroke

BODY_FONT = "sans"  #: the canvas's first font: embedded, never Helvetica


def write_document(path: Path, pages: Sequence[FurnishedPage | FurniturePage], info: DocInfo,
                   progress: Callable[[int], None] | None = None, recordings: FaceRecordings | None = None) -> Path:
    """Write the pages to `path` via a temporary file, so a failed build leaves no half file;
    `progress` hears of each page done. The documents of one build share `recordings`, so each
    face is drawn once for all of them."""
    with replacing(path) as tmp:
        _draw(tmp, pages, info, progress, recordings)
    return path


_FONTS = FontSet()  # the bundled families: furniture names its fonts like layouts do


@functools.lru_cache(maxsize=None)
def _font(ref: str) -> str:
    """The reportlab name of a font reference like ``sans-bold``."""
    return font_name(_FONTS.file(ref).path)


def _draw(path: Path, pages: Sequence[FurnishedPage | FurniturePage], info: DocInfo,
          progress: Callable[[int], None] | None, recordings: FaceRecordings | None) -> None:
    first_w, first_h = pages[0].paper
    canvas = new_canvas(path, (first_w * MM, first_h * MM), _FONTS.file(BODY_FONT).path, info.colors,
                        recordings.codes if recordings is not None else None)
    canvas.setTitle(info.title)
    canvas.setAuthor(info.author)
    canvas.setSubject(info.subject)
    canvas.setCreator("deckpress")
    canvas.setViewerPreference("PrintScaling", "None")
    if info.duplex:
        canvas.setViewerPreference("Duplex", "DuplexFlipLongEdge")
    forms = FaceForms(canvas, recordings)
    shared = _SharedFurniture(canvas)
    for page in pages:
        if isinstance(page, FurniturePage):
            _furniture_page(canvas, page)
        else:
            _sheet_page(canvas, page, forms, shared)
        canvas.showPage()
        if progress:
            progress(1)
    canvas.save()


def learn_characters(recordings: FaceRecordings, sheets: Iterable[Sheet]) -> None:
    """Code the characters of the sheets' faces and labels for every document of the build
    before any is written (see SharedCodes.learn)."""
    found: dict[str, set[str]] = {}
    seen: set[int] = set()
    for sheet in sheets:
        for placement in sheet.plan.placements:
            if id(placement.face) not in seen:
                seen.add(id(placement.face))
                face_characters(placement.face, found)
        found.setdefault(_FONTS.file(LABEL_FONT).path, set()).update(sheet.label)
    recordings.codes.learn(found)


def _furniture_page(canvas: Canvas, page: FurniturePage) -> None:
    W, H = page.paper
    canvas.setPageSize((W * MM, H * MM))
    if page.shift is not None:
        canvas.saveState()
        canvas.translate(page.shift[0] * MM, -page.shift[1] * MM)
    for item in page.items:
        draw_furniture(canvas, item, H)
    if page.shift is not None:
        canvas.restoreState()


class _SharedFurniture:
    """Each distinct furniture of a document drawn once, as a form, and placed on every page that has it."""

    def __init__(self, canvas: Canvas) -> None:
        self.canvas = canvas
        self.names: dict[tuple[Furniture, ...], str] = {}
        self.shifted = 0  # forms of shifted back pages, counted apart so fronts name theirs as without

    def place(self, furniture: tuple[Furniture, ...], page_height: float, shifted: bool) -> None:
        name = self.names.get(furniture)
        if name is None:
            if shifted:
                self.shifted += 1
                name = f"backsheet{self.shifted}"
            else:
                name = f"sheet{len(self.names) - self.shifted + 1}"
            self.names[furniture] = name
            self.canvas.beginForm(name)
            for item in furniture:
                draw_furniture(self.canvas, item, page_height)
            self.canvas.endForm()
        self.canvas.doForm(name)


def _sheet_page(canvas: Canvas, page: FurnishedPage, forms: FaceForms, shared: _SharedFurniture) -> None:
    W, H = page.paper
    canvas.setPageSize((W * MM, H * MM))
    for p in page.plan.placements:
        forms.place(p.face, p.matrix, H, p.clip)
    if page.furniture:
        shared.place(page.furniture, H, page.shifted)
    if page.label is not None:
        draw_furniture(canvas, page.label, H)
    if page.trim_box is not None and page.bleed_box is not None:
        tx0, ty0, tx1, ty1 = page.trim_box
        bx0, by0, bx1, by1 = page.bleed_box
        canvas.setTrimBox((tx0 * MM, (H - ty1) * MM, tx1 * MM, (H - ty0) * MM))
        canvas.setBleedBox((bx0 * MM, (H - by1) * MM, bx1 * MM, (H - by0) * MM))


def draw_furniture(canvas: Canvas, item: Furniture, page_height: float) -> None:
    """Draw one furniture value on a page `page_height` mm tall (or in a form placed on it as it is)."""
    _DRAW[type(item)](canvas, item, page_height)


def _cut_marks(canvas: Canvas, marks: CutMarks, H: float) -> None:
    """Each mark drawn twice, white and wide under black and thin."""
    path = canvas.beginPath()
    for x1, y1, x2, y2 in marks.segments:
        path.moveTo(x1 * MM, (H - y1) * MM)
        path.lineTo(x2 * MM, (H - y2) * MM)
    for color, width in ((WHITE, marks.halo), (BLACK, marks.width)):
        set_stroke(canvas, color)
        canvas.setLineWidth(width * MM)
        canvas.drawPath(path, stroke=1, fill=0)


def _registration_marks(canvas: Canvas, marks: RegistrationMarks, H: float) -> None:
    set_fill(canvas, BLACK)
    for x0, y0, x1, y1 in marks.boxes:
        canvas.rect(x0 * MM, (H - y1) * MM, (x1 - x0) * MM, (y1 - y0) * MM, stroke=0, fill=1)


def _fold_line(canvas: Canvas, fold: FoldLine, H: float) -> None:
    (x0, y0), (x1, y1) = fold.start, fold.end
    word = fold.word
    canvas.saveState()
    set_stroke(canvas, BLACK)
    canvas.setLineWidth(fold.width * MM)
    canvas.setDash([fold.dash[0] * MM, fold.dash[1] * MM])
    canvas.line(x0 * MM, (H - y0) * MM, x1 * MM, (H - y1) * MM)
    canvas.translate(word.x * MM, (H - word.y) * MM)
    if word.turned:
        canvas.rotate(90)
    set_fill(canvas, BLACK)
    canvas.setFont(_font(word.font), word.size)
    _ALIGNED[word.align](canvas)(0, 0, word.text)
    canvas.restoreState()


def _tile_marks(canvas: Canvas, tile: TileMarks, H: float) -> None:
    name, instructions = tile.name, tile.instructions
    canvas.saveState()
    canvas.setFont(_font(name.font), name.size)
    set_fill(canvas, BLACK)
    _ALIGNED[name.align](canvas)(name.x * MM, (H - name.y) * MM, name.text)
    canvas.setFont(_font(instructions.font), instructions.size)
    _ALIGNED[instructions.align](canvas)(instructions.x * MM, (H - instructions.y) * MM, instructions.text)
    for mark in tile.seams:
        draw_furniture(canvas, mark, H)
    canvas.restoreState()


def _glue_strip(canvas: Canvas, strip: GlueStrip, H: float) -> None:
    bx0, by0, bx1, by1 = strip.box
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(bx0 * MM, (H - by1) * MM, (bx1 - bx0) * MM, (by1 - by0) * MM)
    canvas.clipPath(clip, stroke=0, fill=0)
    set_fill(canvas, WHITE)
    canvas.rect(bx0 * MM, (H - by1) * MM, (bx1 - bx0) * MM, (by1 - by0) * MM, stroke=0, fill=1)
    set_stroke(canvas, strip.hatch_color)
    canvas.setLineWidth(strip.hatch_width * MM)
    hatch = canvas.beginPath()
    for x1, y1, x2, y2 in strip.hatch:
        hatch.moveTo(x1 * MM, (H - y1) * MM)
        hatch.lineTo(x2 * MM, (H - y2) * MM)
    canvas.drawPath(hatch, stroke=1, fill=0)
    words = strip.words
    set_fill(canvas, BLACK)
    canvas.setFont(_font(words.font), words.size)
    canvas.translate(words.x * MM, (H - words.y) * MM)
    if words.turned:
        canvas.rotate(90)
    _ALIGNED[words.align](canvas)(0, 0, words.text)
    canvas.restoreState()
    x1, y1, x2, y2 = strip.edge  # where the neighbour's cut edge goes
    set_stroke(canvas, BLACK)
    canvas.setLineWidth(strip.edge_width * MM)
    canvas.setDash([strip.edge_dash[0] * MM, strip.edge_dash[1] * MM])
    canvas.line(x1 * MM, (H - y1) * MM, x2 * MM, (H - y2) * MM)
    canvas.setDash([])


def _alignment_mark(canvas: Canvas, mark: AlignmentMark, H: float) -> None:
    p = canvas.beginPath()
    p.moveTo(mark.points[0][0] * MM, (H - mark.points[0][1]) * MM)
    for x, y in mark.points[1:]:
        p.lineTo(x * MM, (H - y) * MM)
    p.close()
    set_fill(canvas, BLACK)
    canvas.drawPath(p, stroke=0, fill=1)


def _in_band(canvas: Canvas, band: Band | None, H: float, words: Words) -> Callable[[float], float]:
    """Save the graphics state and enter `band` (or stay on the page), set for `words`' font in
    black; returns what turns a y down in the band (or page) into points up."""
    canvas.saveState()
    if band is not None:
        canvas.translate(band.origin[0] * MM, (H - band.origin[1]) * MM)
        if band.turned:
            canvas.rotate(90)
    canvas.setFont(_font(words.font), words.size)
    set_fill(canvas, BLACK)

    def up(y: float) -> float:
        return (H - y) * MM if band is None else -y * MM

    return up


def _scale_bar(canvas: Canvas, bar: ScaleBar, H: float) -> None:
    caption = bar.caption
    up = _in_band(canvas, bar.band, H, caption)
    set_stroke(canvas, BLACK)
    canvas.setLineWidth(bar.line * MM)
    for i in range(int(bar.length // bar.step)):
        canvas.rect((bar.x + bar.step * i) * MM, up(bar.y + bar.height), bar.step * MM, bar.height * MM,
                    stroke=1, fill=1 - i % 2)
    _ALIGNED[caption.align](canvas)(caption.x * MM, up(caption.y), caption.text)
    canvas.restoreState()


def _label(canvas: Canvas, label: Label, H: float) -> None:
    words = label.words
    up = _in_band(canvas, label.band, H, words)
    x0, y0, x1, y1 = label.patch
    set_fill(canvas, WHITE)
    canvas.rect(x0 * MM, up(y1), (x1 - x0) * MM, (y1 - y0) * MM, stroke=0, fill=1)
    set_fill(canvas, BLACK)
    _ALIGNED[words.align](canvas)(words.x * MM, up(words.y), words.text)
    canvas.restoreState()


def _rule(canvas: Canvas, rule: Rule, H: float) -> None:
    x0, y0, x1, y1 = rule.segment
    set_stroke(canvas, rule.color)
    canvas.setLineWidth(rule.width * MM)
    canvas.line(x0 * MM, (H - y0) * MM, x1 * MM, (H - y1) * MM)


def _block(canvas: Canvas, block: Block, H: float) -> None:
    x0, y0, x1, y1 = block.box
    set_fill(canvas, block.color)
    canvas.rect(x0 * MM, (H - y1) * MM, (x1 - x0) * MM, (y1 - y0) * MM, stroke=0, fill=1)


def _ring(canvas: Canvas, ring: Ring, H: float) -> None:
    set_stroke(canvas, BLACK)
    canvas.setLineWidth(ring.width * MM)
    canvas.circle(ring.centre[0] * MM, (H - ring.centre[1]) * MM, ring.radius * MM, stroke=1, fill=0)


def _words(canvas: Canvas, words: Words, H: float) -> None:
    set_fill(canvas, BLACK)
    canvas.setFont(_font(words.font), words.size)
    if words.turned:
        canvas.saveState()
        canvas.translate(words.x * MM, (H - words.y) * MM)
        canvas.rotate(90)
        _ALIGNED[words.align](canvas)(0, 0, words.text)
        canvas.restoreState()
    else:
        _ALIGNED[words.align](canvas)(words.x * MM, (H - words.y) * MM, words.text)


_ALIGNED: dict[str, Callable[[Canvas], Callable[..., None]]] = {
    "left": lambda c: c.drawString, "right": lambda c: c.drawRightString, "centre": lambda c: c.drawCentredString,
}

_DRAW: dict[type, Callable[[Canvas, Furniture, float], None]] = {
    CutMarks: _cut_marks, RegistrationMarks: _registration_marks, FoldLine: _fold_line, TileMarks: _tile_marks,
    GlueStrip: _glue_strip, AlignmentMark: _alignment_mark, ScaleBar: _scale_bar, Label: _label, Rule: _rule,
    Block: _block, Ring: _ring, Words: _words,
}
