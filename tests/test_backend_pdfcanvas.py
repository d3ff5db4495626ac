"""The drawing surface: reportlab's calls written as reportlab writes them, resources named alike in
every document, colours held to the document's colour space, transparency groups."""

from __future__ import annotations

import io
import re

import pytest
from reportlab.lib.colors import CMYKColor, Color as RLColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas as ReportlabCanvas

from deckpress.backends.pdfcanvas import FILL_EVEN_ODD, FILL_NON_ZERO, Canvas, cmyk_only, k_only
from deckpress.backends.pdffonts import Fonts
from deckpress.colors import CMYK, RGB, Gray
from deckpress.text.fonts import FontSet

SANS = FontSet().families["sans"].files["regular"]


def drawing(canvas, font: str) -> None:
    """Every call deckpress's drawing and reportlab's SVG renderer make, in one stream."""
    canvas.saveState()
    canvas.translate(10.5, 20.25)
    canvas.scale(2, 0.5)  # merged into the translation's `cm`, from the numbers as written
    canvas.rotate(30)
    canvas.setLineWidth(0.85)
    canvas.setLineCap(1)
    canvas.setLineJoin(2)
    canvas.setMiterLimit(4)
    canvas.setDash([3, 1.5], 0.5)
    canvas.setDash(2, 1)
    canvas.setDash()
    for stroke, fill in ((1, 0), (0, 1), (1, 1), (0, 0)):
        canvas.rect(1, 2, 30.333333, 4, stroke=stroke, fill=fill)
        canvas.roundRect(1, 2, 30, 40, 3.5, stroke=stroke, fill=fill)
        canvas.ellipse(0, 0, 10, 6, stroke=stroke, fill=fill)
        canvas.circle(5, 5, 2.5, stroke=stroke, fill=fill)
    canvas.line(0, 0, 12.5, 7.125)
    path = canvas.beginPath()
    path.moveTo(0, 0)
    path.lineTo(10, 0)
    path.curveTo(10, 5, 5, 10, 0, 10)
    path.close()
    for mode in (FILL_EVEN_ODD, FILL_NON_ZERO):
        canvas.drawPath(path, stroke=1, fill=1, fillMode=mode)
        canvas.clipPath(path, stroke=0, fill=0, fillMode=mode)
    canvas._fillMode = FILL_NON_ZERO
    canvas.rect(0, 0, 1, 1, stroke=0, fill=1)
    for color in (RLColor(0.2, 0.4, 0.6), CMYKColor(0.1, 0.2, 0.3, 0.4), (0.5, 0.25, 0.125), (0, 0, 0, 0.75)):
        canvas.setFillColor(color)
        canvas.setStrokeColor(color)
    canvas.setFillColorRGB(1, 0, 0)
    canvas.setStrokeColorCMYK(0, 0, 0, 1)
    canvas.setFillAlpha(0.5)
    canvas.setFillAlpha(0.5)  # unchanged: no second operator
    canvas.setStrokeAlpha(0.25)
    canvas.restoreState()


def normalised(code: list[str]) -> list[str]:
    """Resource names aside (reportlab numbers a document's own; deckpress's are the build's)."""
    joined = "\n".join(code)
    joined = re.sub(r"/[A-Za-z0-9.+]+ (\d+(\.\d+)?|\.\d+) Tf", "/FONT \\1 Tf", joined)
    joined = re.sub(r"/[A-Za-z0-9.]+ gs", "/STATE gs", joined)
    return joined.split("\n")


def test_the_canvas_writes_reportlabs_operators():
    pdfmetrics.registerFont(TTFont("probe-sans", SANS))
    theirs = ReportlabCanvas(io.BytesIO(), invariant=1, initialFontName="probe-sans")
    drawing(theirs, "probe-sans")
    ours = Canvas(Fonts(), "rgb", SANS)
    drawing(ours, SANS)
    assert normalised(ours.code) == normalised(theirs._code)
    assert set(ours.resources.states) == {"ca.5", "CA.25"}
    assert ours.resources.states["ca.5"] == {"ca": 0.5}


def test_a_graphics_state_is_set_again_after_a_restore_only_if_it_changed():
    canvas = Canvas(Fonts())
    canvas.saveState()
    canvas.setFillAlpha(0.5)
    canvas.restoreState()
    canvas.setFillAlpha(0.5)  # the restore brought back alpha 1: this changes it again
    canvas.setFillAlpha(1)
    assert canvas.code == ["q", "/ca.5 gs", "Q", "/ca.5 gs", "/ca1 gs"]


@pytest.mark.parametrize("colors, fill, expected", [
    ("rgb", RGB(0.2, 0.4, 0.6), ".2 .4 .6 rg"),
    ("rgb", Gray(0.25), "0 0 0 .75 k"),  # a grey is black ink only, in every document
    ("rgb", CMYK(0.1, 0.2, 0.3, 0.4), ".1 .2 .3 .4 k"),
    ("k", RGB(1, 0, 0), "0 0 0 .701 k"),  # what a red prints as in black ink: 1 - its luma
    ("k", CMYK(0, 0, 0, 0.5), "0 0 0 .5 k"),
    ("cmyk", RGB(1, 1, 1), "0 0 0 0 k"),
    ("cmyk", RGB(0, 0, 0), "0 0 0 1 k"),  # black is black ink only
])
def test_deckpress_colours_are_written_in_the_documents_colour_space(colors, fill, expected):
    canvas = Canvas(Fonts(), colors)
    canvas.set_fill(fill)
    canvas.set_stroke(fill)
    operator = expected.rsplit(" ", 1)[1]
    assert canvas.code == [expected, expected[:-len(operator)] + operator.upper()]


@pytest.mark.parametrize("colors, hook", [("k", k_only), ("cmyk", cmyk_only)])
def test_svg_arts_colours_and_gradients_pass_through_the_colour_space(colors, hook):
    canvas = Canvas(Fonts(), colors)
    canvas.setFillColor(RLColor(0.9, 0.1, 0.1))
    canvas.linearGradient(0, 0, 10, 0, [RLColor(0, 0, 1), RLColor(1, 1, 0)], [0, 1])
    assert canvas.code[0].endswith(" k") and " rg" not in " ".join(canvas.code)
    shading, = canvas.resources.shadings.values()
    assert shading["ColorSpace"] == "DeviceCMYK"
    assert shading["Function"]["C0"] == list(hook(RLColor(0, 0, 1)).cmyk())


def test_a_gradient_of_many_stops_is_a_stitched_function():
    canvas = Canvas(Fonts())
    canvas.radialGradient(5, 5, 5, [(1, 0, 0), (0, 1, 0), (0, 0, 1)], [0.25, 0.5, 0.75])
    shading, = canvas.resources.shadings.values()
    function = shading["Function"]
    assert (shading["ShadingType"], shading["Coords"]) == (3, [5, 5, 0.0, 5, 5, 5])
    assert function["FunctionType"] == 3 and function["Bounds"] == [0.25, 0.5, 0.75]
    assert len(function["Functions"]) == 4  # the first and last colours held out to 0 and 1


def test_a_transparency_group_is_a_form_over_what_can_show():
    canvas = Canvas(Fonts(), box=(0, 0, 200, 100))
    canvas.translate(50, 10)
    canvas.scale(2, 2)

    def draw(inner: Canvas) -> None:
        inner.setFillColorRGB(0, 0, 1)
        inner.rect(0, 0, 10, 10, stroke=0, fill=1)

    canvas.transparency_group(0.4, draw)
    group, = canvas.resources.xobjects.values()
    assert group.group and group.bbox == pytest.approx((-25, -5, 75, 45))  # the page's box, seen from inside
    assert canvas.code[-4:] == ["q", "/ca.4 gs", f"/{group.name} Do", "Q"]
    assert b"0 0 10 10 re f" in group.content


def test_a_transform_that_flattens_everything_draws_no_group():
    canvas = Canvas(Fonts(), box=(0, 0, 10, 10))
    canvas.scale(0, 1)
    canvas.transparency_group(0.5, lambda inner: inner.rect(0, 0, 1, 1))
    assert not canvas.resources.xobjects


def test_the_reportlab_internals_deckpress_draws_with_behave_as_it_expects():
    """deckpress writes its PDFs itself and takes three things from reportlab (pyproject pins a
    tested range, >=4.2,<6): `fp_str`, the number formatting of every operator (six places, no
    trailing zeros, no "-0"), `PDFPathObject`'s path operators, and the colour classes' fields.
    If a release changes them, this fails here, loudly, not as odd bytes in every file."""
    from reportlab.lib.colors import CMYKColor, Color
    from reportlab.lib.rl_accel import fp_str
    from reportlab.pdfgen.pathobject import PDFPathObject

    assert fp_str(1.0, 0.5, 2.123456789, -0.0000001, 100) == "1 .5 2.123457 0 100"
    assert fp_str([1, 2]) == "1 2" and fp_str(-1.25) == "-1.25"
    path = PDFPathObject()
    path.moveTo(1, 2)
    path.lineTo(3.5, 4)
    path.curveTo(1, 2, 3, 4, 5, 6)
    path.close()
    assert path.getCode() == "n 1 2 m 3.5 4 l 1 2 3 4 5 6 c h"
    ink = CMYKColor(0.1, 0.2, 0.3, 0.4, alpha=0.5)
    assert (ink.cyan, ink.magenta, ink.yellow, ink.black, ink.alpha) == (0.1, 0.2, 0.3, 0.4, 0.5)
    assert (Color(0.1, 0.2, 0.3).red, Color(0.1, 0.2, 0.3).blue) == (0.1, 0.3)
