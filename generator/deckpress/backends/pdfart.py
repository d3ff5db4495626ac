"""SVG art on a PDF canvas: svglib's drawing of an SVG file, drawn as reportlab's PDF renderer
draws it (the same calls, so the same operators), with three differences:

- a group SVG gives an `opacity` below 1 (svgart.Translucent) is one transparency group;
- a raster picture inside the art is an image XObject in the document's colour space (an inline
  image would break the form a face is);
- text is set in embedded TrueType fonts: where it names none, in the face's; where it names one
  of PDF's standard fonts (Helvetica, Times, Courier), in the bundled sans serif (pdffonts.font_file).

Imported only where a face has SVG art: svglib and reportlab's graphics come with it.
"""

from __future__ import annotations

import os

from PIL import Image as PILImage
from reportlab import rl_config
from reportlab.graphics.renderbase import STATE_DEFAULTS, Renderer, getStateDelta, renderScaledDrawing
from reportlab.graphics.shapes import Drawing, Group, Path, String, _renderPath

from .pdfcanvas import Canvas
from .pdfimages import ArtPicture


def draw_art(drawing: Drawing, canvas: Canvas) -> None:
    """Draw an svglib drawing on `canvas` at its origin; text that names no font is set in the
    canvas's font."""
    default = STATE_DEFAULTS["fontName"]
    STATE_DEFAULTS["fontName"] = canvas._fontname
    try:
        _ArtRenderer().draw(renderScaledDrawing(drawing), canvas, 0, 0)
    finally:
        STATE_DEFAULTS["fontName"] = default


def translucent(drawing: Drawing) -> bool:
    """Whether the art has a translucent group (whose form's box depends on where it is drawn)."""
    stack = [drawing]
    while stack:
        node = stack.pop()
        if getattr(node, "opacity", 1.0) < 1:
            return True
        if isinstance(node, Group):
            stack += node.contents
    return False


def has_text(drawing: Drawing) -> bool:
    """Whether the art has text (set in the canvas's font where it names none)."""
    stack = [drawing]
    while stack:
        node = stack.pop()
        if isinstance(node, String):
            return True
        if isinstance(node, Group):
            stack += node.contents
    return False


class _ArtRenderer(Renderer):
    """reportlab's `renderPDF._PDFRenderer`, on deckpress's canvas (module docstring)."""

    def __init__(self) -> None:
        self._stroke = 0
        self._fill = 0

    def drawNode(self, node) -> None:
        clip = isinstance(node, Path) and node.isClipPath
        if not clip:
            self._canvas.saveState()
        deltas = getStateDelta(node)
        self._tracker.push(deltas)
        self.applyStateChanges(deltas, {})
        self.drawNodeDispatcher(node)
        self._tracker.pop()
        if not clip:
            self._canvas.restoreState()

    def drawGroup(self, group) -> None:
        opacity = getattr(group, "opacity", 1.0)
        if opacity >= 1:
            super().drawGroup(group)
            return
        outer = self._canvas

        def draw(inner: Canvas) -> None:
            self._canvas = inner
            try:
                Renderer.drawGroup(self, group)
            finally:
                self._canvas = outer

        outer.transparency_group(opacity, draw)

    def drawRect(self, rect) -> None:
        if rect.rx == rect.ry == 0:
            self._canvas.rect(rect.x, rect.y, rect.width, rect.height, stroke=self._stroke, fill=self._fill)
        else:
            self._canvas.roundRect(rect.x, rect.y, rect.width, rect.height, rect.rx, fill=self._fill,
                                   stroke=self._stroke)

    def drawImage(self, image) -> None:
        picture = image.path  # svglib gives a data: URI's picture decoded, a linked file by its path
        if isinstance(picture, str):
            if not os.path.exists(picture):
                return
            with PILImage.open(picture) as opened:
                picture = opened.copy()
        canvas = self._canvas
        canvas.drawImage(ArtPicture(picture, canvas.colors, canvas.separation), image.x, image.y, image.width,
                         image.height)

    def drawLine(self, line) -> None:
        if self._stroke:
            self._canvas.line(line.x1, line.y1, line.x2, line.y2)

    def drawCircle(self, circle) -> None:
        self._canvas.circle(circle.cx, circle.cy, circle.r, fill=self._fill, stroke=self._stroke)

    def drawPolyLine(self, polyline) -> None:
        if self._stroke:
            points = polyline.points
            path = self._canvas.beginPath()
            path.moveTo(points[0], points[1])
            for i in range(2, len(points), 2):
                path.lineTo(points[i], points[i + 1])
            self._canvas.drawPath(path)

    def drawEllipse(self, ellipse) -> None:
        self._canvas.ellipse(ellipse.cx - ellipse.rx, ellipse.cy - ellipse.ry, ellipse.cx + ellipse.rx,
                             ellipse.cy + ellipse.ry, fill=self._fill, stroke=self._stroke)

    def drawPolygon(self, polygon) -> None:
        points = polygon.points
        path = self._canvas.beginPath()
        path.moveTo(points[0], points[1])
        for i in range(2, len(points), 2):
            path.lineTo(points[i], points[i + 1])
        path.close()
        self._canvas.drawPath(path, stroke=self._stroke, fill=self._fill)

    def drawString(self, string) -> None:
        mode = getattr(string, "textRenderMode", 0)
        if not ((self._fill and mode in (0, 2, 4, 6)) or (self._stroke and mode in (1, 2, 5, 6))):
            return
        state = self._tracker.getState()
        anchor, x, text = state["textAnchor"], string.x, string.text
        if anchor not in ("start", "inherited"):
            width = self._canvas.stringWidth(text, state["fontName"], state["fontSize"])
            if anchor == "end":
                x -= width
            elif anchor == "middle":
                x -= width * 0.5
            else:
                raise ValueError(f"bad value for textAnchor {anchor}")
        self._canvas.drawString(x, string.y, text, mode=mode or None)

    def drawPath(self, path) -> None:
        pdf_path = self._canvas.beginPath()
        autoclose = getattr(path, "autoclose", "")
        fill, stroke = self._fill, self._stroke
        closed = _renderPath(path, (pdf_path.moveTo, pdf_path.lineTo, pdf_path.curveTo, pdf_path.close),
                             forceClose=fill and autoclose == "pdf")
        draw = self._canvas.drawPath
        paint = self._canvas.clipPath if path.isClipPath else draw
        mode = getattr(path, "fillMode", None)
        if autoclose == "svg":
            if fill and stroke and not closed:
                paint(pdf_path, fill=fill, stroke=0)
                draw(pdf_path, stroke=stroke, fill=0, fillMode=mode)
            else:
                paint(pdf_path, fill=fill, stroke=stroke, fillMode=mode)
        elif autoclose == "pdf":
            paint(pdf_path, fill=fill, stroke=stroke, fillMode=mode)
        else:
            paint(pdf_path, fill=fill if closed else 0, stroke=stroke, fillMode=mode)

    def applyStateChanges(self, delta, newState) -> None:
        canvas = self._canvas
        for key, value in (sorted(delta.items()) if rl_config.invariant else delta.items()):
            if key in _SETTERS:
                getattr(canvas, _SETTERS[key])(value)
            elif key in _ALPHAS:
                if value is not None:
                    getattr(canvas, _ALPHAS[key])(value)
            elif key == "transform":
                canvas.transform(*value[:6])
            elif key == "strokeColor":
                self._stroke = 0 if value is None else 1
                if value is not None:
                    canvas.setStrokeColor(value)
            elif key == "fillColor":
                self._fill = 0 if value is None else 1
                if value is not None:
                    canvas.setFillColor(value)
            elif key == "strokeDashArray":
                if not value:
                    canvas.setDash()
                elif isinstance(value, list | tuple) and len(value) == 2 and isinstance(value[1], tuple | list):
                    canvas.setDash(value[1], value[0])  # (phase, array)
                else:
                    canvas.setDash(value, 0)
            elif key in ("fontSize", "fontName"):
                canvas.setFont(delta.get("fontName", canvas._fontname), delta.get("fontSize", canvas._fontsize))
            elif key == "fillMode":
                canvas._fillMode = value


#: drawing properties the canvas takes as they are, and the alphas it takes when they are given
_SETTERS = {"strokeWidth": "setLineWidth", "strokeLineCap": "setLineCap", "strokeLineJoin": "setLineJoin",
            "fillOverprint": "setFillOverprint", "strokeOverprint": "setStrokeOverprint",
            "overprintMask": "setOverprintMask"}
_ALPHAS = {"fillOpacity": "setFillAlpha", "strokeOpacity": "setStrokeAlpha"}
