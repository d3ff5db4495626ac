"""SVG art with each kind of SVG transparency in a cell of its own, over a red ground, for the
tests of every output (PDF, PNG, SVG) and every variant (colour, low-ink, CMYK).

What a browser shows: each translucent cell is half way between the solid blue cell and the bare
ground, also where a translucent element's own parts overlap (a stroke over its fill, the shapes
of a group), since `opacity` makes an element one layer.
"""

from __future__ import annotations

from pathlib import Path

from deckpress.colors import RGB
from deckpress.face import Face, Image, Paint, Rect
from deckpress.ink import apply_ink

ART = """<svg xmlns="http://www.w3.org/2000/svg" width="70" height="10" viewBox="0 0 70 10">
  <style>.half { opacity: 50% }</style>
  <rect x="0" y="0" width="10" height="10" fill="#0000ff"/>
  <rect x="10" y="0" width="10" height="10" fill="#0000ff" fill-opacity="0.5"/>
  <line x1="25" y1="0" x2="25" y2="10" stroke="#0000ff" stroke-width="8" stroke-opacity="50%"/>
  <rect x="31" y="1" width="8" height="8" fill="#0000ff" stroke="#0000ff" stroke-width="2" style="opacity:.5"/>
  <g class="half"><rect x="40" y="0" width="10" height="10" fill="#0000ff"/>
                  <rect x="40" y="0" width="5" height="10" fill="#0000ff"/></g>
  <rect x="50" y="0" width="10" height="10" fill="#0000ff80"/>
</svg>
"""

#: where to look (mm from the left, half way down): the solid art, the bare ground, the translucent cells
SOLID, GROUND = 5.0, 65.0
TRANSLUCENT = {"fill-opacity": 15.0, "stroke-opacity": 25.0, "opacity": 35.0, "opacity, stroke over fill": 31.5,
               "group opacity": 47.5, "group opacity, shapes overlapping": 42.5, "#rrggbbaa": 55.0}
HEIGHT = 10.0
RED = RGB(1.0, 0.0, 0.0)

#: variant -> (ink, colour build, the document's colour space)
VARIANTS = {"colour": ("color", "rgb", "rgb"), "low-ink": ("lowink", "rgb", "k"), "cmyk": ("color", "cmyk", "cmyk")}


def art_face(folder: Path, variant: str = "colour") -> Face:
    """The art stretched over a 70 × 10 mm face with a red ground, as printed in `variant`."""
    path = folder / "translucent.svg"
    path.write_text(ART, encoding="utf-8")
    face = Face(70.0, HEIGHT, 0.0, (Rect(0, 0, 70, HEIGHT, paint=Paint(fill=RED)), Image(0, 0, 70, HEIGHT, str(path))))
    ink, color, _ = VARIANTS[variant]
    return apply_ink(face, ink, color=color)


def assert_blended(pixel) -> None:
    """`pixel(x_mm)` (an RGB triple) of every translucent cell is half way between the solid cell
    and the ground, within antialiasing and rounding."""
    solid, ground = pixel(SOLID), pixel(GROUND)
    # so blending shows (low-ink art is lightened as a large picture is, and its ground pale)
    assert max(abs(s - g) for s, g in zip(solid, ground)) > 60, (solid, ground)
    half = tuple((s + g) / 2 for s, g in zip(solid, ground))
    for name, x in TRANSLUCENT.items():
        got = pixel(x)
        assert all(abs(a - b) <= 3 for a, b in zip(got, half)), f"{name}: {got}, expected about {half}"
