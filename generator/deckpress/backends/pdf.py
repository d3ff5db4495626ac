"""Card faces as PDF forms: each distinct face drawn once per colour space, for every document.

Coordinates: a face is in millimetres, y down, origin at the trim's top-left. Inside a form we use
points with the same origin and y up, so a form is placed by a single `cm`.

Everything a face's content stream names (font subsets, pictures, translucent layers) is named
the same in every document of a build (see pdfcanvas), so a face is drawn once per build and
colour space (`FaceForms`) and its form is the same bytes in each file that places it: the
fronts, the duplex, both papers. The form's own name is a digest of what it draws.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from reportlab.lib.rl_accel import fp_str

from ..face import (IDENTITY, Ellipse, Face, Group, Image, Item, Line, Matrix, Path as PathItem, PathOp,
                    Rect, Text, cropped_box, multiply)
from ..text.fonts import FontSet
from ..errors import DeckError
from ..imagefile import raster_pixels, stamp
from ..separation import FORMULA, Separation
from ..text.shaping import line_runs
from ..units import POINTS_PER_MM
from ..vectorart import FILTER_DPI, Treatment, is_vector, load_art
from .pdfart import ArtForm
from .pdfcanvas import FILL_EVEN_ODD, FILL_NON_ZERO, Box, Canvas, Form
from .pdffile import digest
from .pdffonts import Fonts
from .pdfimages import RasterPicture

MM = POINTS_PER_MM  #: points per millimetre
BODY_FONT = FontSet().families["sans"].files["regular"]  #: the font a face's canvas starts in


class FaceForms:
    """The forms of a build's faces, each drawn once per colour space, and the fonts every
    document of the build shares (`fonts`: learn the build's glyphs before writing, see
    pdffonts). Holds what the build's faces hold, so it lives as long as one build. CMYK is made
    by the build's `separation` (the formula, or a print shop's ICC profile); vector art's filters
    are drawn at `dpi`, the output's resolution."""

    def __init__(self, fonts: Fonts | None = None, separation: Separation = FORMULA, dpi: float = FILTER_DPI) -> None:
        self.fonts = fonts or Fonts()
        self.separation = separation
        self.dpi = dpi  # the output's resolution, what vector art's filters are drawn at
        self._forms: dict[tuple[Face, str], Form] = {}
        self._items: dict[tuple[Item, str], tuple[list[str], list]] = {}
        self._seen: dict[tuple[int, str], tuple[Item, tuple[list[str], list]]] = {}  # the same, by identity
        self._groups: dict[tuple[int, str], Group] = {}  # text boxes met, by identity: see _text_box
        self._text_forms: dict[tuple, Form] = {}  # those met again, as forms
        #: page furniture drawn once a build as forms (pdfpages), by colour space
        self.furniture: dict[str, dict] = {}

    def form(self, face: Face, colors: str = "rgb") -> Form:
        """`face` as a form in the colour space `colors` (pdfcanvas.COLOR_SPACES)."""
        key = (face, colors)
        form = self._forms.get(key)
        if form is None:
            b = face.bleed * MM
            box = (-b, -(face.height * MM + b), face.width * MM + b, b)
            form = self._forms[key] = self._new_form("face", face.items, colors, box)
        return form

    def _new_form(self, kind: str, items: tuple[Item, ...], colors: str, box: Box) -> Form:
        """`items` drawn as a form over `box` (points), named `kind` and a digest of what it draws."""
        canvas = Canvas(self.fonts, colors, BODY_FONT, 8, box, self.separation)
        self.draw_items(canvas, items)
        content = canvas.content()
        name = kind + digest(content + repr((box, sorted(canvas.resources.xobjects))).encode(), 8).hex()
        return Form(name, box, content, canvas.resources)

    def draw_items(self, canvas: Canvas, items: tuple[Item, ...]) -> None:
        for item in items:
            kind = type(item)
            if kind is Group:
                self._group(canvas, item)
            elif kind is Image:
                self._image(canvas, item)
            else:
                self._plain(canvas, item)

    def _plain(self, canvas: Canvas, item: Item) -> None:
        """Draw a shape or a line of text: what it writes depends on it and the colour space alone
        (an item sets every colour, width and font it draws with), and faces share most of theirs
        (a frame, the rules, the index), so each is drawn once a build and its operators written
        again wherever it recurs."""
        by_identity = self._seen.get((id(item), canvas.colors))  # faces share item objects: no hashing
        known = by_identity[1] if by_identity is not None and by_identity[0] is item else \
            self._items.get((item, canvas.colors))
        if known is None:
            mark, fonts = len(canvas.code), canvas.resources.fonts
            canvas.resources.fonts = {}  # to see every font the item names, though the face named it before
            try:
                _DRAW[type(item)](canvas, item)
                known = (canvas.code[mark:], list(canvas.resources.fonts.items()))
            finally:
                canvas.resources.fonts = {**fonts, **canvas.resources.fonts}
            self._items[(item, canvas.colors)] = known
            self._seen[(id(item), canvas.colors)] = (item, known)
        else:
            if by_identity is None:
                self._seen[(id(item), canvas.colors)] = (item, known)
            canvas.code += known[0]
            canvas.resources.fonts.update(known[1])
            if type(item) is Text:  # the font it leaves set, which SVG art's text may start in
                canvas.setFont(item.font, item.size * MM)

    def _group(self, canvas: Canvas, g: Group) -> None:
        if g.transform == IDENTITY and g.clip is None and not g.clip_path and g.opacity == 1 \
                and all(type(i) is Text for i in g.items):
            self._text_box(canvas, g)
            return
        canvas.saveState()
        if g.transform != IDENTITY:
            canvas.transform(*face_to_form(g.transform))
        if g.clip is not None:
            x, y, w, h = g.clip
            p = canvas.beginPath()
            p.rect(x * MM, -(y + h) * MM, w * MM, h * MM)
            canvas.clipPath(p, stroke=0, fill=0)
        if g.clip_path:  # a shaped piece's outline and bleed: `W n`
            canvas.clipPath(_path_object(canvas, g.clip_path), stroke=0, fill=0)
        if g.opacity < 1:
            canvas.transparency_group(g.opacity, lambda inner: self.draw_items(inner, g.items))
        else:
            self.draw_items(canvas, g.items)
        canvas.restoreState()

    def _text_box(self, canvas: Canvas, g: Group) -> None:
        """A text box (compose's plain group of a text's lines or runs). The first time it is met
        in a colour space, its lines are drawn here as if they were the face's own, as most text
        is met once; from the second on, it is a form of its own that this face's form places: the
        same paragraph on a thousand faces is drawn and deflated once, not once a face. (Each line
        sets the colour and font it draws with, and `Do` keeps the state around it, so the form
        draws what the lines would.)"""
        first = self._groups.get((id(g), canvas.colors))
        if first is not g:  # (the dictionary keeps the group, so no other object has its id)
            self._groups[(id(g), canvas.colors)] = g
            self.draw_items(canvas, g.items)
            return
        box = canvas._visible_box()  # what can show of it, in the space it is drawn in
        if box is None:  # the transform flattens it: nothing would show
            return
        form = self._text_forms.get((id(g), canvas.colors, box))
        if form is None:
            form = self._text_forms[(id(g), canvas.colors, box)] = self._new_form("text", g.items, canvas.colors, box)
        canvas.doForm(form)
        last = g.items[-1]
        canvas.setFont(last.font, last.size * MM)  # the font its lines leave set, as drawing them here would

    def _image(self, canvas: Canvas, im: Image) -> None:
        x, y, w, h = im.x * MM, -(im.y + im.h) * MM, im.w * MM, im.h * MM
        if not is_vector(im.source):
            if im.crop is not None:  # those pixels, where they lie in the picture's box
                x0, y0, x1, y1 = cropped_box(im, raster_pixels(im.source))
                x, y, w, h = x0 * MM, -y1 * MM, (x1 - x0) * MM, (y1 - y0) * MM
            canvas.drawImage(RasterPicture(im.source, im.grey, im.lighten, im.cmyk, (w / MM, h / MM),
                                           stamp(im.source), self.separation, im.edits.tint, im.crop),
                             x, y, w, h)
            return
        colors = "k" if im.grey or canvas.colors == "k" else "cmyk" if im.cmyk or canvas.colors == "cmyk" else "rgb"
        treatment = Treatment(colors, im.lighten if colors == "k" else 0.0,
                              self.separation if colors == "cmyk" else FORMULA)
        try:
            art = load_art(im.source, im.fonts, im.page, (im.w, im.h), treatment, im.edits, self.dpi)
        except ValueError as exc:  # backends see no deck: the art is named, the card that placed it was checked
            raise DeckError(str(exc), im.source) from None
        x0, y0, x1, y1 = art.box
        canvas.saveState()
        canvas.translate(x, y)
        canvas.scale(w / (x1 - x0), h / (y1 - y0))
        if x0 or y0:
            canvas.translate(-x0, -y0)
        canvas.doForm(ArtForm(art))
        canvas.restoreState()


_READING = itemgetter(0, 3)  # a shaped glyph's index and the characters it stands for, picked in C


def face_glyphs(items: Sequence[Item], glyphs: dict[str, set[tuple[int, str]]], seen: set[int] | None = None) -> None:
    """Add the glyphs of the text among a face's `items` (its shaped glyphs, or its text shaped as it will be drawn),
    each with what it stands for, by font, to `glyphs`. A line, or a run of glyphs, whose id is in
    `seen` is skipped, and the ids of the rest are added: a line or a word that many faces share
    is one tuple, read once (the caller keeps the faces, and so the ids, alive while `seen` is used)."""
    seen = set() if seen is None else seen
    stack = [items]
    while stack:
        for item in stack.pop():
            if type(item) is Text:
                runs = item.glyph_runs or line_runs(item.text, item.font)
                if id(runs) in seen:
                    continue
                seen.add(id(runs))
                into = glyphs.setdefault(item.font, set())
                for _, run in runs:
                    if id(run) not in seen:
                        seen.add(id(run))
                        into.update(map(_READING, run))
            elif type(item) is Group:
                stack.append(item.items)


def face_to_form(m: Matrix) -> Matrix:
    """A face-space (mm, y down) transform expressed in form space (pt, y up)."""
    return multiply((MM, 0, 0, -MM, 0, 0), multiply(m, (1 / MM, 0, 0, -1 / MM, 0, 0)))


def place(canvas: Canvas, form: Form, matrix: Matrix, page_height: float,
          clip: tuple[float, float, float, float] | None = None) -> None:
    """Draw a face's `form` on the page `canvas` through `matrix` (face mm -> page mm, y down), the
    page `page_height` mm tall, clipped to `clip` (x0, y0, x1, y1 in page mm) when given."""
    canvas.resources.xobjects[form.name] = form
    canvas.code.append(f"{_placed(matrix, page_height, clip)}/{form.name} Do\nQ")


@functools.lru_cache(maxsize=4096)  # a sheet's few places, page after page
def _placed(matrix: Matrix, page_height: float, clip: tuple[float, float, float, float] | None) -> str:
    """What puts a form at a place on the page: the clip and the transform, after saving the state."""
    code = ["q"]
    if clip is not None:
        x0, y0, x1, y1 = clip
        rect = fp_str((x0 * MM, (page_height - y1) * MM, (x1 - x0) * MM, (y1 - y0) * MM))
        code.append(f"n {rect} re W* n")
    to_page = multiply((MM, 0, 0, -MM, 0, page_height * MM), matrix)
    code.append("%s cm" % fp_str(*multiply(to_page, (1 / MM, 0, 0, -1 / MM, 0, 0))))
    return "\n".join(code) + "\n"


def _paint(canvas: Canvas, paint) -> tuple[int, int]:
    fill = stroke = 0
    if paint.fill is not None:
        canvas.set_fill(paint.fill)
        fill = 1
    if paint.stroke is not None and paint.stroke_width > 0:
        canvas.set_stroke(paint.stroke)
        canvas.setLineWidth(paint.stroke_width * MM)
        canvas.setDash([d * MM for d in paint.dash] if paint.dash else [])
        stroke = 1
    return fill, stroke


def _rect(canvas: Canvas, r: Rect) -> None:
    fill, stroke = _paint(canvas, r.paint)
    if fill or stroke:
        x, y, w, h = r.x * MM, -(r.y + r.h) * MM, r.w * MM, r.h * MM
        if r.radius > 0:
            canvas.roundRect(x, y, w, h, r.radius * MM, stroke=stroke, fill=fill)
        else:
            canvas.rect(x, y, w, h, stroke=stroke, fill=fill)


def _ellipse(canvas: Canvas, e: Ellipse) -> None:
    fill, stroke = _paint(canvas, e.paint)
    if fill or stroke:
        canvas.ellipse((e.cx - e.rx) * MM, -(e.cy + e.ry) * MM, (e.cx + e.rx) * MM, -(e.cy - e.ry) * MM,
                       stroke=stroke, fill=fill)


_CAPS = {"butt": 0, "round": 1, "square": 2}


def _line(canvas: Canvas, line: Line) -> None:
    _fill, stroke = _paint(canvas, line.paint)
    if stroke:
        canvas.setLineCap(_CAPS[line.cap])
        canvas.line(line.x1 * MM, -line.y1 * MM, line.x2 * MM, -line.y2 * MM)
        canvas.setLineCap(0)


def _path(canvas: Canvas, item: PathItem) -> None:
    fill, stroke = _paint(canvas, item.paint)
    if not (fill or stroke):
        return
    p = _path_object(canvas, item.ops)
    canvas.drawPath(p, stroke=stroke, fill=fill, fillMode=FILL_EVEN_ODD if item.even_odd else FILL_NON_ZERO)


def _path_object(canvas: Canvas, ops: Sequence[PathOp]) -> Any:
    """Path operations (face mm, y down) as the canvas's path (points, y up)."""
    p = canvas.beginPath()
    for op, v in ops:
        if op == "M":
            p.moveTo(v[0] * MM, -v[1] * MM)
        elif op == "L":
            p.lineTo(v[0] * MM, -v[1] * MM)
        elif op == "C":
            p.curveTo(v[0] * MM, -v[1] * MM, v[2] * MM, -v[3] * MM, v[4] * MM, -v[5] * MM)
        else:
            p.close()
    return p


def _text(canvas: Canvas, t: Text) -> None:
    canvas.set_fill(t.color)
    canvas.setFont(t.font, t.size * MM)
    if not t.stroke:
        _show(canvas, t)
        return
    # filled and stroked (render mode 2) with round joins: the glyph grows by half the width all
    # round, as the SVG backend's stroke does
    canvas.saveState()
    canvas.set_stroke(t.color)
    canvas.setLineWidth(t.stroke * MM)
    canvas.setLineJoin(1)
    _show(canvas, t, mode=2)
    canvas.restoreState()


def _show(canvas: Canvas, t: Text, mode: int = 0) -> None:
    """Text by its shaped glyphs: its own, or, for text made without them, its text shaped now."""
    canvas.drawGlyphs(t.x * MM, -t.y * MM, t.font, t.glyph_runs or line_runs(t.text, t.font), mode)


_DRAW: dict[type, Callable[[Canvas, Item], None]] = {
    Rect: _rect, Ellipse: _ellipse, Line: _line, PathItem: _path, Text: _text,
}
