"""Drawing PDF content streams: a canvas in points, y up, and the resources what it draws uses.

The drawing calls are reportlab's Canvas calls, written as the same operators, so that a content
stream reads as reportlab's would (they were shared with svglib's renderer, which drew SVG art
before vectorart did). Unlike reportlab's, a canvas here belongs to no
document: what it draws names its resources (font subsets, pictures, nested forms, graphics
states, shadings) by names that are the same in every document of a build, so a face drawn once
is the same bytes wherever it is placed (`Form`). A document writes the resources a content
stream names when it first writes that stream (`ResourceWriter`).

Colours pass through the document's colour space (`COLOR_SPACES`): in a black-ink-only or a
CMYK document every colour, SVG art's and gradients' included, becomes one of that space.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from math import cos, pi, sin
from typing import Protocol

from reportlab.lib.colors import CMYKColor, Color as RLColor
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.pathobject import PDFPathObject

from ..colors import CMYK, RGB, Color, Gray
from ..face import GlyphRun
from ..separation import FORMULA, Separation
from ..text.shaping import line_runs, line_width
from .pdffile import Name, PdfFile, Ref, deflate, digest, dumps
from .pdffonts import Fonts, GlyphFont

__all__ = ["Canvas", "Form", "Resources", "ResourceWriter", "XObject", "COLOR_SPACES", "FILL_EVEN_ODD",
           "FILL_NON_ZERO", "k_only", "cmyk_only"]

FILL_EVEN_ODD, FILL_NON_ZERO = 0, 1  # reportlab's values, which its renderer sets
PATH_OPS = {(0, 0, FILL_EVEN_ODD): "n", (0, 0, FILL_NON_ZERO): "n", (1, 0, FILL_EVEN_ODD): "S",
            (1, 0, FILL_NON_ZERO): "S", (0, 1, FILL_EVEN_ODD): "f*", (0, 1, FILL_NON_ZERO): "f",
            (1, 1, FILL_EVEN_ODD): "B*", (1, 1, FILL_NON_ZERO): "B"}

Matrix = tuple[float, float, float, float, float, float]
Box = tuple[float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _reportlab_color(color: RLColor | tuple[float, ...]) -> RLColor:
    if isinstance(color, tuple | list):
        return CMYKColor(*color) if len(color) == 4 else RLColor(*color[:3])
    return color


def k_only(color: RLColor | tuple[float, ...]) -> CMYKColor:
    """Black ink only (low-ink documents): any colour that slips through (SVG art) becomes the grey
    it would print as, as translucent as it was."""
    color = _reportlab_color(color)
    if isinstance(color, CMYKColor) and color.cyan == color.magenta == color.yellow == 0:
        return color
    r, g, b = color.rgb()
    return CMYKColor(0, 0, 0, round(1 - (0.299 * r + 0.587 * g + 0.114 * b), 4), alpha=color.alpha)


def cmyk_only(color: RLColor | tuple[float, ...], separation: Separation = FORMULA) -> CMYKColor:
    """CMYK documents: an RGB colour that slips through (SVG art) becomes the process colour
    `separation` makes of it, so black art is black ink only."""
    color = _reportlab_color(color)
    if isinstance(color, CMYKColor):
        return color
    ink = separation.color(RGB(color.red, color.green, color.blue))
    return CMYKColor(ink.c, ink.m, ink.y, ink.k, alpha=color.alpha)


#: A document's colour space: what keeps other colours out of it.
COLOR_SPACES: dict[str, Callable[[RLColor], CMYKColor] | None] = {"rgb": None, "cmyk": cmyk_only, "k": k_only}


class XObject(Protocol):
    """What a content stream paints with `Do`: a picture or a form. Its name is the same in every
    document; each document writes it once."""

    name: str

    def write(self, writer: ResourceWriter) -> Ref: ...


@dataclass
class Resources:
    """What a content stream names, by the names it uses."""

    fonts: dict[str, GlyphFont] = field(default_factory=dict)
    xobjects: dict[str, XObject] = field(default_factory=dict)
    states: dict[str, dict[str, object]] = field(default_factory=dict)  # ExtGState
    shadings: dict[str, dict[str, object]] = field(default_factory=dict)
    colorspaces: dict[str, list[object]] = field(default_factory=dict)  # a spot colour's Separation
    properties: dict[str, Ref] = field(default_factory=dict)  # marked content's: an optional content group

    def take(self, other: Resources) -> None:
        self.fonts.update(other.fonts)
        self.xobjects.update(other.xobjects)
        self.states.update(other.states)
        self.shadings.update(other.shadings)
        self.colorspaces.update(other.colorspaces)
        self.properties.update(other.properties)


@dataclass(eq=False)
class Form:
    """A form XObject: content drawn once, painted wherever `Do` names it. A transparency `group`
    is composited as one layer (what an opacity below 1 needs)."""

    name: str
    bbox: Box
    content: bytes
    resources: Resources
    group: bool = False
    _ends: tuple[bytes, bytes] | None = field(default=None, repr=False)  # formatted once, for every document

    def write(self, writer: ResourceWriter) -> Ref:
        if self._ends is None:
            data = deflate(self.content, self.name.encode())  # the name is a digest of the content
            # no /Type: a form XObject may leave it out, and there are thousands of forms
            head = dumps({"Subtype": _FORM, "BBox": self.bbox})[:-2] + b"/Resources "
            tail = (b" /Group << /S /Transparency >>" if self.group else b"") + \
                b" /Filter /FlateDecode /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"
            self._ends = (head, tail)
        head, tail = self._ends
        return writer.pdf.write_formatted(head + writer.shared_resources(self.resources) + tail)


_FORM = Name("Form")


class ResourceWriter:
    """A document's resources: each picture, form and font subset written once, under the
    reference every content stream of the document that names it gets. Font subsets are written
    last (`finish`), when the document's text is all known."""

    def __init__(self, pdf: PdfFile) -> None:
        self.pdf = pdf
        self.written: dict[str, Ref] = {}  # xobject name -> ref
        self.subsets: dict[str, tuple[GlyphFont, Ref]] = {}
        self.dictionaries: dict[bytes, Ref] = {}  # resource dictionaries written as objects of their own

    def xobject(self, xobject: XObject) -> Ref:
        ref = self.written.get(xobject.name)
        if ref is None:
            ref = self.written[xobject.name] = xobject.write(self)
        return ref

    def resources(self, resources: Resources) -> bytes:
        """The resource dictionary of a content stream (in PDF syntax), writing what it names that
        this document has not written yet."""
        parts = [b"<<"]
        if resources.fonts:
            parts.append(b"/Font <<")
            for name, font in resources.fonts.items():
                known = self.subsets.get(name)
                if known is None:
                    known = self.subsets[name] = (font, self.pdf.reserve())
                parts.append(b"/%s %d 0 R" % (name.encode("ascii"), known[1]))
            parts.append(b">>")
        if resources.xobjects:
            parts.append(b"/XObject <<")
            for name, xobject in resources.xobjects.items():
                parts.append(b"/%s %d 0 R" % (name.encode("ascii"), self.xobject(xobject)))
            parts.append(b">>")
        if resources.states:
            parts.append(b"/ExtGState " + dumps(resources.states))
        if resources.shadings:
            parts.append(b"/Shading " + dumps(resources.shadings))
        if resources.colorspaces:
            parts.append(b"/ColorSpace " + dumps(resources.colorspaces))
        if resources.properties:
            parts.append(b"/Properties " + dumps(resources.properties))
        parts.append(b">>")
        return b" ".join(parts)

    def shared_resources(self, resources: Resources) -> bytes:
        """The resource dictionary of a stream (a form's), in a compact file (`PdfFile.compact`) as
        a reference to one object per distinct dictionary, which goes into a compressed object
        stream: a stream's own dictionary cannot be compressed, and a thousand distinct faces'
        forms repeated the same `/Font << /G1 3 0 R >>` and their text forms' names."""
        body = self.resources(resources)
        if not self.pdf.compact:
            return body
        ref = self.dictionaries.get(body)
        if ref is None:
            ref = self.dictionaries[body] = self.pdf.write_formatted(body)
        return b"%d 0 R" % ref

    def finish(self) -> None:
        """Write the font subsets the document's content named."""
        for font, ref in self.subsets.values():
            font.write(self.pdf, ref)


class Path(PDFPathObject):
    """reportlab's path object (the same operators), for what draws paths by hand."""


_STATE_DEFAULTS: dict[str, object] = {"CA": 1, "ca": 1, "OP": False, "op": False, "OPM": 0, "BM": "Normal"}


def _state_name(key: str, value: object) -> str:
    """The name a graphics state setting one value has in every document: `/ca.5`, `/BMMultiply`."""
    shown = ("true" if value else "false") if isinstance(value, bool) else \
        value if isinstance(value, str) else fp_str(value)
    return f"{key}{shown}"


class Canvas:
    """A content stream being drawn: reportlab's Canvas calls (points, y up), written as reportlab
    writes them, with the resources they name in `resources`. `fonts` are the build's; `colors`
    the document's colour space (COLOR_SPACES), CMYK made by `separation`; `font` (a font
    reference) and `size` the font text starts in; `box` the visible area,
    for transparency groups."""

    def __init__(self, fonts: Fonts, colors: str = "rgb", font: str | None = None, size: float = 8,
                 box: Box = (0.0, 0.0, 0.0, 0.0), separation: Separation = FORMULA) -> None:
        self.fonts = fonts
        self.colors, self.separation = colors, separation
        self.enforce = COLOR_SPACES[colors]
        if self.enforce is cmyk_only and separation is not FORMULA:
            self.enforce = functools.partial(cmyk_only, separation=separation)
        self.code: list[str] = []
        self.resources = Resources()
        self.box = box
        # the graphics state, saved and restored with q and Q (attribute names as reportlab's, which
        # its renderer reads and sets)
        self._fontname = font
        self._fontsize = size
        self._leading = size * 1.2
        self._fillMode = FILL_EVEN_ODD
        self._matrix: Matrix = IDENTITY
        self._gstate: dict[str, object] = {}
        self._stack: list[tuple] = []
        self._fill_ops: dict[Color, str] = {}  # deckpress colours' operators in this colour space
        self._stroke_ops: dict[Color, str] = {}

    # --- the graphics state -----------------------------------------------------------------

    def saveState(self) -> None:
        self._stack.append((self._fontname, self._fontsize, self._leading, self._fillMode, self._matrix,
                            self._gstate))
        self.code.append("q")

    def restoreState(self) -> None:
        self.code.append("Q")
        (self._fontname, self._fontsize, self._leading, self._fillMode, self._matrix,
         self._gstate) = self._stack.pop()

    def transform(self, a: float, b: float, c: float, d: float, e: float, f: float) -> None:
        """Adjoin a transform; one following another is written as their product, as reportlab
        does (from the numbers as written)."""
        a0, b0, c0, d0, e0, f0 = self._matrix
        self._matrix = (a0 * a + c0 * b, b0 * a + d0 * b, a0 * c + c0 * d, b0 * c + d0 * d,
                        a0 * e + c0 * f + e0, b0 * e + d0 * f + f0)
        code = self.code
        if code and code[-1][-3:] == " cm":
            words = code[-1].split()
            a0, b0, c0, d0, e0, f0 = map(float, words[-7:-1])
            merged = fp_str(a0 * a + c0 * b, b0 * a + d0 * b, a0 * c + c0 * d, b0 * c + d0 * d,
                            a0 * e + c0 * f + e0, b0 * e + d0 * f + f0)
            code[-1] = (" ".join(words[:-7]) + " " if len(words) > 7 else "") + merged + " cm"
        else:
            code.append(f"{fp_str(a, b, c, d, e, f)} cm")

    def translate(self, dx: float, dy: float) -> None:
        self.transform(1, 0, 0, 1, dx, dy)

    def scale(self, x: float, y: float) -> None:
        self.transform(x, 0, 0, y, 0, 0)

    def rotate(self, degrees: float) -> None:
        c, s = cos(degrees * pi / 180), sin(degrees * pi / 180)
        self.transform(c, s, -s, c, 0, 0)

    def setLineWidth(self, width: float) -> None:
        self.code.append(f"{fp_str(width)} w")

    def setLineCap(self, mode: int) -> None:
        self.code.append("%d J" % mode)

    def setLineJoin(self, mode: int) -> None:
        self.code.append("%d j" % mode)

    def setMiterLimit(self, limit: float) -> None:
        self.code.append(f"{fp_str(limit)} M")

    def setDash(self, array: Iterable[float] | float = (), phase: float = 0) -> None:
        if isinstance(array, int | float):
            array, phase = (array, phase), 0
        array = list(array)
        if array and (min(array) < 0 or sum(array) <= 0) or phase < 0:  # what PDF cannot draw
            raise ValueError(f"setDash: array={array!r} phase={phase!r}")
        self.code.append(f"[{fp_str(array)}] {phase} d")

    def _set_state(self, key: str, value: object) -> None:
        """Set one graphics-state parameter (alpha, overprint) through an ExtGState, as reportlab
        does: written only when it changes."""
        default = _STATE_DEFAULTS[key]
        if isinstance(default, bool):
            value = bool(value)
        if value != self._gstate.get(key, default) or (key == "op" and self._gstate.get("OP", False)):
            self._gstate = {**self._gstate, key: value}
            name = _state_name(key, value)
            self.resources.states[name] = {key: Name(value) if key == "BM" else value}
            self.code.append(f"/{name} gs")

    def setFillAlpha(self, alpha: float) -> None:
        if not (isinstance(alpha, int | float) and 0 <= alpha <= 1):
            raise ValueError(f"setFillAlpha invalid value {alpha!r}")
        self._set_state("ca", alpha)

    def setStrokeAlpha(self, alpha: float) -> None:
        if not (isinstance(alpha, int | float) and 0 <= alpha <= 1):
            raise ValueError(f"setStrokeAlpha invalid value {alpha!r}")
        self._set_state("CA", alpha)

    def setFillOverprint(self, value: bool) -> None:
        self._set_state("op", value)

    def setStrokeOverprint(self, value: bool) -> None:
        self._set_state("OP", value)

    def setOverprintMask(self, value: int) -> None:
        self._set_state("OPM", value)

    # --- colours ----------------------------------------------------------------------------

    def set_stroke_separation(self, name: str, alternate: tuple[float, float, float, float],
                              tint: float = 1.0) -> None:
        """Stroke in the spot colour `name` (a Separation colour space, outside the document's own
        colour space: a RIP finds it by name) at `tint`; devices without that ink show the CMYK
        `alternate` scaled by the tint (a type 2 function from no ink to the alternate)."""
        key = "CS" + "".join(c if c.isalnum() else "_" for c in name)
        self.resources.colorspaces[key] = [Name("Separation"), Name(name), Name("DeviceCMYK"),
                                           {"FunctionType": 2, "Domain": [0, 1], "C0": [0, 0, 0, 0],
                                            "C1": list(alternate), "N": 1}]
        self.code.append(f"/{key} CS {fp_str(tint)} SCN")

    def begin_optional(self, tag: str, group: Ref) -> None:
        """What is drawn until `end_optional` belongs to the optional content group `group` (a
        reference in the document that writes this content), so viewers may hide or not print it."""
        self.resources.properties[tag] = group
        self.code.append(f"/OC /{tag} BDC")

    def end_optional(self) -> None:
        self.code.append("EMC")

    def set_fill(self, color: Color) -> None:
        """Fill with one of deckpress's colours (a grey in black ink only)."""
        op = self._fill_ops.get(color)
        if op is None:
            op = self._fill_ops[color] = self._color_op(color, "rg", "k")
        self.code.append(op)
        if self.enforce is not None:  # reportlab's hook makes a colour object, whose alpha is 1
            self._set_state("ca", 1)

    def set_stroke(self, color: Color) -> None:
        """Stroke with one of deckpress's colours."""
        op = self._stroke_ops.get(color)
        if op is None:
            op = self._stroke_ops[color] = self._color_op(color, "RG", "K")
        self.code.append(op)
        if self.enforce is not None:
            self._set_state("CA", 1)

    def _color_op(self, color: Color, rgb_op: str, cmyk_op: str) -> str:
        """The operator setting `color` in this canvas's colour space (greys in black ink only)."""
        if isinstance(color, Gray):
            value: tuple[float, ...] = (0, 0, 0, round(1 - color.level, 4))
        elif isinstance(color, RGB):
            value = (color.r, color.g, color.b)
        elif isinstance(color, CMYK):
            value = (color.c, color.m, color.y, color.k)
        else:
            raise TypeError(f"not a colour: {color!r}")
        if self.enforce is not None:
            ink = self.enforce(value)
            value = (ink.cyan, ink.magenta, ink.yellow, ink.black)
        return f"{fp_str(value)} {rgb_op if len(value) == 3 else cmyk_op}"

    def setFillColor(self, color, alpha: float | None = None) -> None:
        """A reportlab colour (or an RGB or CMYK tuple), as reportlab sets it."""
        self._set_color(color, alpha, "rg", "k", self.setFillAlpha)

    def setStrokeColor(self, color, alpha: float | None = None) -> None:
        self._set_color(color, alpha, "RG", "K", self.setStrokeAlpha)

    def setFillColorRGB(self, r: float, g: float, b: float, alpha: float | None = None) -> None:
        self.setFillColor((r, g, b), alpha)

    def setStrokeColorRGB(self, r: float, g: float, b: float, alpha: float | None = None) -> None:
        self.setStrokeColor((r, g, b), alpha)

    def setFillColorCMYK(self, c: float, m: float, y: float, k: float, alpha: float | None = None) -> None:
        self.setFillColor((c, m, y, k), alpha)

    def setStrokeColorCMYK(self, c: float, m: float, y: float, k: float, alpha: float | None = None) -> None:
        self.setStrokeColor((c, m, y, k), alpha)

    def _set_color(self, color, alpha, rgb_op: str, cmyk_op: str, set_alpha: Callable[[float], None]) -> None:
        if self.enforce is not None:
            color = self.enforce(color)
        if isinstance(color, CMYKColor):  # a separation (spot) colour is printed as its process colour
            d = color.density
            self.code.append(f"{fp_str(d * color.cyan, d * color.magenta, d * color.yellow, d * color.black)} {cmyk_op}")
        elif isinstance(color, RLColor):
            self.code.append(f"{fp_str(color.red, color.green, color.blue)} {rgb_op}")
        elif isinstance(color, tuple | list) and len(color) in (3, 4):
            self.code.append(f"{fp_str(color)} {rgb_op if len(color) == 3 else cmyk_op}")
        else:
            raise ValueError(f"Unknown color {color!r}")
        if alpha is not None:
            set_alpha(alpha)
        elif getattr(color, "alpha", None) is not None:
            set_alpha(color.alpha)

    # --- shapes -----------------------------------------------------------------------------

    def rect(self, x: float, y: float, width: float, height: float, stroke: int = 1, fill: int = 0) -> None:
        self.code.append(f"n {fp_str(x, y, width, height)} re {PATH_OPS[stroke, fill, self._fillMode]}")

    def roundRect(self, x: float, y: float, width: float, height: float, radius: float, stroke: int = 1,
                  fill: int = 0) -> None:
        Path(code=self.code).roundRect(x, y, width, height, radius)
        self.code.append(PATH_OPS[stroke, fill, self._fillMode])

    def ellipse(self, x1: float, y1: float, x2: float, y2: float, stroke: int = 1, fill: int = 0) -> None:
        Path(code=self.code).ellipse(x1, y1, x2 - x1, y2 - y1)
        self.code.append(PATH_OPS[stroke, fill, self._fillMode])

    def circle(self, x: float, y: float, r: float, stroke: int = 1, fill: int = 0) -> None:
        self.ellipse(x - r, y - r, x + r, y + r, stroke, fill)

    def line(self, x1: float, y1: float, x2: float, y2: float) -> None:
        self.code.append(f"n {fp_str(x1, y1)} m {fp_str(x2, y2)} l S")

    def beginPath(self) -> Path:
        return Path()

    def drawPath(self, path: PDFPathObject, stroke: int = 1, fill: int = 0, fillMode: int | None = None) -> None:
        if fillMode is None:
            fillMode = getattr(path, "_fillMode", self._fillMode)
        self.code.append(str(path.getCode()))
        self.code.append(PATH_OPS[stroke, fill, fillMode])

    def clipPath(self, path: PDFPathObject, stroke: int = 1, fill: int = 0, fillMode: int | None = None) -> None:
        if fillMode is None:
            fillMode = getattr(path, "_fillMode", self._fillMode)
        clip = " W* " if fillMode == FILL_EVEN_ODD else " W "
        self.code.append(f"{path.getCode()}{clip}{PATH_OPS[stroke, fill, fillMode]}")

    # --- text -------------------------------------------------------------------------------

    def setFont(self, font: str, size: float, leading: float | None = None) -> None:
        """Set the font (a font reference, `fonts.font_ref`) and size text is drawn in."""
        self._fontname = font
        self._fontsize = size
        self._leading = size * 1.2 if leading is None else leading

    def drawText(self, x: float, y: float, text: str, align: str = "left") -> None:
        """One line of text in the current font and size, shaped (`shaping.line_runs`), its baseline's
        left end, centre or right end (`align`: "left", "centre", "right") at (x, y): as a text
        without glyph runs on a face is drawn, measured as it is drawn (kerned)."""
        if align != "left":
            width = line_width(text, self._fontname) * self._fontsize
            x -= width if align == "right" else 0.5 * width
        self.drawGlyphs(x, y, self._fontname, line_runs(text, self._fontname))

    def drawGlyphs(self, x: float, y: float, font_ref: str, runs: tuple[GlyphRun, ...], mode: int = 0) -> None:
        """Shaped text: runs of glyphs (each where it starts, in em right of (x, y), and its glyphs:
        index, place in em from there, right and up) drawn at the current size in the font
        `font_ref` names, by their indexes (a composite font, `pdffonts.GlyphFont`, which makes the
        operators: `shown`)."""
        font = self.fonts.glyph_font(font_ref)
        if font.name not in self.resources.fonts:
            self.resources.fonts[font.name] = font
        size = self._fontsize
        if mode:
            self.code.append(f"BT 1 0 0 1 {fp_str(x, y)} Tm {font.select(size)} {mode} Tr {font.shown(runs, size)} 0 Tr ET")
        else:
            self.code.append(f"BT 1 0 0 1 {fp_str(x, y)} Tm {font.select(size)} {font.shown(runs, size)} ET")

    # --- pictures, forms, gradients ----------------------------------------------------------

    def doForm(self, xobject: XObject) -> None:
        """Paint a form (or a picture in its unit square) here."""
        self.resources.xobjects[xobject.name] = xobject
        self.code.append(f"/{xobject.name} Do")

    def drawImage(self, picture: XObject, x: float, y: float, width: float, height: float) -> None:
        """A picture stretched over the box, as reportlab draws one."""
        self.saveState()
        self.translate(x, y)
        self.scale(width, height)
        self.doForm(picture)
        self.restoreState()

    def linearGradient(self, x0: float, y0: float, x1: float, y1: float, colors, positions=None,
                       extend=True) -> None:
        self._shade(2, [x0, y0, x1, y1], colors, positions, extend)

    def radialGradient(self, x: float, y: float, radius: float, colors, positions=None, extend=True) -> None:
        self._shade(3, [x, y, 0.0, x, y, radius], colors, positions, extend)

    def _shade(self, kind: int, coords: list[float], colors, positions, extend) -> None:
        if self.enforce is not None:
            colors = [self.enforce(c) for c in colors]
        space, values = _gradient_colors(colors)
        ends = list(extend) if isinstance(extend, list | tuple) else [bool(extend)] * 2
        shading = {"ShadingType": kind, "ColorSpace": Name(space), "Coords": coords,
                   "Function": _color_function(values, positions), "Extend": ends}
        name = "Sh" + digest(repr(shading).encode(), 6).hex()
        self.resources.shadings[name] = shading
        self.code.append(f"/{name} sh")

    def transparency_group(self, opacity: float, draw: Callable[[Canvas], None]) -> None:
        """Paint what `draw` draws (on the canvas it is given) as one layer at `opacity`: a form
        that is a transparency group, painted with that alpha. Inside, the alpha starts at 1, so
        overlapping items hide each other; the group as a whole is laid over what is beneath.
        The form's box is all of this canvas's box that can show."""
        box = self._visible_box()
        if box is None:  # the current transform flattens everything: nothing would show
            return
        inner = Canvas(self.fonts, self.colors, self._fontname, self._fontsize, box, self.separation)
        inner._leading, inner._fillMode = self._leading, self._fillMode
        draw(inner)
        group = inner.form("", box, group=True)
        group.name = "G" + digest(group.content + repr(sorted(group.resources.xobjects)).encode()
                                      + repr(box).encode(), 8).hex()
        self.saveState()
        self.setFillAlpha(opacity)  # `ca` is the alpha of everything but strokes, groups included
        self.doForm(group)
        self.restoreState()

    def _visible_box(self) -> Box | None:
        """This canvas's box in the current user space, as (x0, y0, x1, y1); None if the current
        transform has no inverse."""
        x0, y0, x1, y1 = self.box
        a, b, c, d, e, f = self._matrix
        det = a * d - b * c
        if abs(det) < 1e-12:
            return None
        corners = [((d * (x - e) - c * (y - f)) / det, (a * (y - f) - b * (x - e)) / det)
                   for x in (x0, x1) for y in (y0, y1)]
        xs, ys = [p[0] for p in corners], [p[1] for p in corners]
        return (min(xs), min(ys), max(xs), max(ys))

    # --- the result -------------------------------------------------------------------------

    def content(self) -> bytes:
        """The content stream drawn so far."""
        return "\n".join(self.code).encode("latin-1")

    def form(self, name: str, bbox: Box, group: bool = False) -> Form:
        """What was drawn, as a form named `name` with the box `bbox`."""
        return Form(name, bbox, self.content(), self.resources, group)


def _gradient_colors(colors) -> tuple[str, list[tuple[float, ...]]]:
    """The colour space and the components of a gradient's colours (all of one space)."""
    space, values = None, []
    for color in colors:
        if isinstance(color, CMYKColor):
            d = color.density
            found, value = "DeviceCMYK", tuple(c * d for c in color.cmyk())
        elif isinstance(color, RLColor):
            found, value = "DeviceRGB", color.rgb()
        elif isinstance(color, tuple | list) and len(color) in (3, 4):
            found, value = ("DeviceRGB" if len(color) == 3 else "DeviceCMYK"), tuple(color)
        else:
            raise ValueError(f"Unknown color {color!r}")
        if space is not None and space != found:
            raise ValueError(f"Mismatch in color spaces: {space} and {found}")
        space = found
        values.append(value)
    return space or "DeviceRGB", values


def _color_function(colors: list[tuple[float, ...]], positions) -> dict[str, object]:
    """A PDF function from 0…1 to the gradient's colours: one interpolation, or several stitched."""
    def between(c0, c1) -> dict[str, object]:
        return {"FunctionType": 2, "Domain": [0.0, 1.0], "C0": list(c0), "C1": list(c1), "N": 1}

    if positions is not None and len(positions) != len(colors):
        raise ValueError("need to have the same number of colors and positions")
    if len(colors) == 1:
        return between(colors[0], colors[0])
    if len(colors) == 2 and (positions is None or (positions[0] == 0 and positions[1] == 1)):
        return between(colors[0], colors[1])
    if positions is None:
        positions = [i / (len(colors) - 1) for i in range(len(colors))]
    else:
        stops = sorted(zip(positions, colors), key=lambda stop: stop[0])
        if stops[0][0] != 0:
            stops.insert(0, (0.0, stops[0][1]))
        if stops[-1][0] != 1:
            stops.append((1.0, stops[-1][1]))
        positions, colors = [p for p, _ in stops], [c for _, c in stops]
    return {"FunctionType": 3, "Domain": [0.0, 1.0],
            "Functions": [between(c0, c1) for c0, c1 in zip(colors, colors[1:])],
            "Bounds": list(positions[1:-1]), "Encode": [0.0, 1.0] * (len(colors) - 1)}
