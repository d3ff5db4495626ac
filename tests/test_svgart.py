"""deckpress.svgart: SVG art read by svglib, with each element's `opacity` as a translucent layer."""

from __future__ import annotations

import pytest
from reportlab.graphics.shapes import Group

from deckpress.svgart import Translucent, read_svg, svg_opacity


def layers(node, depth: int = 0) -> list[tuple[int, float]]:
    """(depth, opacity) of every Translucent in a drawing, in drawing order."""
    found = []
    for child in getattr(node, "contents", []):
        if isinstance(child, Translucent):
            found.append((depth, child.opacity))
        found += layers(child, depth + 1) if isinstance(child, Group) else []
    return found


def read(tmp_path, body: str, root: str = ""):
    path = tmp_path / "art.svg"
    path.write_text(f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
                    f'width="10" height="10" {root}>{body}</svg>', encoding="utf-8")
    return read_svg(str(path))


def test_each_element_with_an_opacity_below_one_is_a_translucent_layer(tmp_path):
    drawing = read(tmp_path, """
        <rect width="5" height="5" opacity="0.5"/>
        <rect width="5" height="5" opacity="1"/>
        <g opacity="0.25"><rect width="5" height="5"/><circle r="2" opacity="0.5"/></g>
        <rect id="r" width="1" height="1"/><use xlink:href="#r" opacity="0.75"/>""")
    found = layers(drawing)
    assert [o for _, o in found] == [0.5, 0.25, 0.5, 0.75]
    group_depth, circle_depth = found[1][0], found[2][0]
    assert circle_depth > group_depth  # the circle's layer inside the group's: opacities multiply, as drawn


def test_opacity_is_not_inherited(tmp_path):
    """A translucent group's children are drawn solid inside its layer, not each translucent again."""
    drawing = read(tmp_path, '<g opacity="0.5"><rect width="5" height="5"/><rect width="3" height="3"/></g>')
    assert [o for _, o in layers(drawing)] == [0.5]


def test_opacity_from_style_css_and_the_root_element(tmp_path):
    drawing = read(tmp_path, """<style>.faint { opacity: 20% }</style>
        <rect class="faint" width="5" height="5"/><rect style="opacity: .4 !important" width="5" height="5"/>""",
                   root='opacity="0.5"')
    assert sorted(o for _, o in layers(drawing)) == [0.2, 0.4, 0.5]
    assert isinstance(drawing.contents[0], Translucent) and drawing.contents[0].opacity == 0.5


def test_fill_and_stroke_opacity_take_percentages_and_are_clamped(tmp_path):
    drawing = read(tmp_path, '<rect width="5" height="5" fill="#00f" fill-opacity="40%" stroke="#000" '
                             'stroke-opacity="150%"/>')
    rect, = [n for n in drawing.contents[0].contents]
    assert rect.fillOpacity == pytest.approx(0.4) and rect.fillColor.alpha == pytest.approx(0.4)
    assert rect.strokeOpacity == 1.0  # svglib would have passed 1.5 on, which reportlab refuses to draw


@pytest.mark.parametrize("text, value", [("0.5", 0.5), ("50%", 0.5), (" .25 ", 0.25), ("-1", 0.0), ("2", 1.0),
                                         ("120%", 1.0), ("1 !important", 1.0)])
def test_svg_opacity_reads_as_browsers_do(text, value):
    assert svg_opacity(text) == value


def test_an_unreadable_opacity_draws_the_element_solid(tmp_path):
    assert layers(read(tmp_path, '<rect width="5" height="5" opacity="inherit"/><rect width="5" height="5" opacity="half"/>')) == []


def test_art_links_only_files_beside_it_or_below(tmp_path):
    """A picture or shape an SVG links (<image>, <use>) is read only from the SVG's folder or
    below: art from a stranger cannot pull in any file the user can read."""
    from PIL import Image as PILImage
    from reportlab.graphics.shapes import Image as RLImage

    secret, inside = tmp_path / "secret.png", tmp_path / "deck" / "art" / "pics" / "ok.png"
    inside.parent.mkdir(parents=True)
    for path in (secret, inside):
        PILImage.new("RGB", (8, 8), "red").save(path)
    (tmp_path / "other.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"><rect id="r" width="5" '
                                        'height="5"/></svg>')
    svg = tmp_path / "deck" / "art" / "x.svg"
    svg.write_text('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
                   'width="20" height="20"><image xlink:href="{}" width="8" height="8"/>'
                   '<use xlink:href="../../other.svg#r"/></svg>')

    def drawn(href: str) -> list:
        svg.write_text(svg.read_text().replace('xlink:href="{}"', f'xlink:href="{href}"'))
        found, todo = [], list(read_svg(str(svg)).contents)
        while todo:
            node = todo.pop()
            found.append(node)
            todo += getattr(node, "contents", [])
        svg.write_text(svg.read_text().replace(f'xlink:href="{href}"', 'xlink:href="{}"'))
        return found

    assert [n for n in drawn("pics/ok.png") if isinstance(n, RLImage)]
    assert not [n for n in drawn("../../secret.png") if isinstance(n, RLImage)]
    assert not [n for n in drawn(str(secret)) if isinstance(n, RLImage)]
    assert all(type(n).__name__ != "Rect" for n in drawn("pics/ok.png"))  # the <use> of a file outside: nothing


def test_reading_svg_art_imports_no_more_of_platypus_than_a_drawing_needs():
    """reportlab's graphics import platypus's Flowable, and the platypus package imports all of
    platypus (a tenth of a second); deckpress defers the package's own code until something asks
    it for more, after which it is the whole package, its Flowable the one drawings subclass."""
    import subprocess
    import sys

    script = (
        "import sys, deckpress.svgart\n"
        "assert 'reportlab.platypus.paragraph' not in sys.modules\n"
        "import reportlab.platypus\n"
        "from reportlab.platypus import Paragraph, SimpleDocTemplate, Flowable\n"
        "from reportlab.graphics.shapes import Drawing\n"
        "assert issubclass(Drawing, Flowable) and reportlab.platypus.flowables.Flowable is Flowable\n"
        "import reportlab.platypus.tables\n"
        "print(reportlab.platypus.tables.Table.__name__)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == "Table", done.stderr
