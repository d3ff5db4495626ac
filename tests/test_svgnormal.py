"""svgnormal: what browsers read in SVG and usvg reads otherwise, rewritten — each rewrite read back,
and drawn: the rewritten art prints what Chromium shows (the benchmark measures that over the corpus)."""

from __future__ import annotations

import pytest
from lxml import etree

from deckpress.svgnormal import colour, css_transform, declarations, normalise, origin

SVG = "http://www.w3.org/2000/svg"


def tree(body: str, size: str = 'width="200" height="200"') -> etree._Element:
    return etree.fromstring(f'<svg xmlns="{SVG}" xmlns:xlink="http://www.w3.org/1999/xlink" {size}>{body}</svg>')


def by_id(root: etree._Element, ident: str) -> etree._Element:
    return root.xpath(f"//*[@id='{ident}']")[0]


@pytest.mark.parametrize("written, read", [
    ("rgb(0 170 0 / 50%)", "rgba(0, 170, 0, 0.5)"),
    ("rgb(10%, 20.5%, 100%)", "#1a34ff"),
    ("rgba(255,0,0,1)", "#ff0000"),
    ("hsl(120deg 100% 25%)", "#008000"),
    ("hsla(0, 100%, 50%, 0.25)", "rgba(255, 0, 0, 0.25)"),
    ("GREEN", "#008000"),
    ("rebeccapurple", "#663399"),
    ("CurrentColor", "currentColor"),
    ("transparent", "rgba(0, 0, 0, 0)"),
    ("url(#g)", "url(#g)"),
    ("none", "none"),
    ("#abc", "#abc"),
])
def test_colours_of_css_color_4_are_written_as_usvg_reads_them(written, read):
    assert colour(written) == read


def test_declarations_lower_case_names_skip_comments_and_take_important_off():
    assert declarations("FILL: red; /* a comment */ Stroke-WIDTH: 2 !IMPORTANT; :bad; x") == [
        ("fill", "red", False), ("stroke-width", "2", True)]


def test_style_sheets_are_applied_with_every_selector_by_specificity_and_importance():
    root = tree("<style>circle:not(.one) { fill: lime } rect:nth-child(2) { fill: magenta }"
                "@media screen { #b { fill: blue !important } } @media print { rect { fill: black } }"
                "[id^=c] { stroke: red } :root { color: navy }</style>"
                '<rect id="a"/><rect id="b" style="fill: green"/><circle id="c" class="one"/><circle id="d"/>')
    assert normalise(root)
    assert not root.xpath("//*[local-name()='style']")  # the sheet is applied, then gone
    assert by_id(root, "a").get("style") == "fill: #ff00ff"  # the second child: the style element is the first
    assert by_id(root, "b").get("style") == "fill: #0000ff"  # !important in the sheet beats the style attribute
    assert by_id(root, "c").get("style") == "stroke: #ff0000"
    assert by_id(root, "d").get("style") == "fill: #00ff00"
    assert root.get("style") == "color: #000080"


def test_css_transforms_and_transform_origin_fold_into_the_transform_attribute():
    assert css_transform("rotate(0.25turn) translateX(10px) scale(2)") == "rotate(90) translate(10 0) scale(2)"
    assert css_transform("perspective(10px)") is None
    assert origin("right bottom", (0, 0, 200, 100)) == (200, 100)
    assert origin("25% 10px", (10, 20, 200, 100)) == (60, 30)
    root = tree('<rect id="r" x="60" y="60" width="80" height="50" transform="rotate(30)" transform-origin="center"'
                ' style="transform-box: fill-box"/><rect id="s" style="transform: rotate(45deg); transform-origin: 0 0"/>')
    normalise(root)
    assert by_id(root, "r").get("transform") == "translate(100 85) rotate(30) translate(-100 -85)"
    assert by_id(root, "s").get("transform") == "rotate(45)"


def test_a_repeating_gradient_is_unrolled_into_a_padded_one_over_what_it_paints():
    root = tree('<linearGradient id="g" x1="0.4" x2="0.6" spreadMethod="repeat">'
                '<stop offset="0" stop-color="red"/><stop offset="1" stop-color="blue"/></linearGradient>'
                '<linearGradient id="h" xlink:href="#g" spreadMethod="reflect"/>')
    normalise(root)
    g, h = by_id(root, "g"), by_id(root, "h")
    assert g.get("spreadMethod") == h.get("spreadMethod") == "pad"
    # the unit box runs from t = -2 to t = 3 of the 0.4 → 0.6 vector: five periods
    assert (float(g.get("x1")), float(g.get("x2"))) == pytest.approx((0.0, 1.0))
    offsets = [float(s.get("offset")) for s in g]
    assert offsets == pytest.approx([0, 0.2, 0.2, 0.4, 0.4, 0.6, 0.6, 0.8, 0.8, 1.0])
    colours = [s.get("stop-color") for s in h]  # reflect: every other period backwards
    red, blue = "#ff0000", "#0000ff"
    assert colours == [red, blue, blue, red, red, blue, blue, red, red, blue]


def test_a_css_clip_path_shape_becomes_a_clip_path_on_its_reference_box():
    root = tree('<g id="g" style="clip-path: inset(30px 20px 50px 40px round 15px)"><rect width="200" height="100"/>'
                '<circle cx="50" cy="150" r="50"/></g><rect id="r" x="10" y="10" width="100" height="50"'
                ' style="fill: red; clip-path: polygon(50% 0, 100% 100%, 0 100%)"/>'
                '<path id="p" d="M0 0 A 5 5 0 0 0 10 10" style="clip-path: circle(5px)"/>')
    assert normalise(root)
    group, rect, path = by_id(root, "g"), by_id(root, "r"), by_id(root, "p")
    inset = root.xpath(f"//*[@id='{group.get('clip-path')[5:-1]}']/*")[0]
    assert {k: inset.get(k) for k in ("x", "y", "width", "height", "rx")} == \
        {"x": "40", "y": "30", "width": "140", "height": "120", "rx": "15"}  # its box: 0 0 200 200
    polygon = root.xpath(f"//*[@id='{rect.get('clip-path')[5:-1]}']/*")[0]
    assert polygon.get("points") == "60,10 110,60 10,60" and rect.get("style") == "fill: #ff0000"
    assert path.get("clip-path") is None  # an arc: its box is not known, so the shape is left as written


def test_a_focal_radius_moves_the_stops_out_and_a_linear_rgb_mask_is_written_in_linear_light():
    root = tree('<radialGradient id="g" fr="0.2"><stop offset="0" stop-color="red"/><stop offset="1" stop-color="blue"/>'
                '</radialGradient><mask id="m" color-interpolation="linearRGB"><rect fill="#777"/></mask>')
    normalise(root)
    gradient = by_id(root, "g")
    assert gradient.get("fr") is None
    red, blue = "#ff0000", "#0000ff"
    assert [(s.get("offset"), s.get("stop-color")) for s in gradient] == [("0", red), ("0.4", red), ("1", blue)]
    assert by_id(root, "m")[0].get("fill") == "#2f2f2f"  # 0x77 in linear light: 18.4 %


def test_right_to_left_text_is_anchored_at_its_right_end_and_a_missing_filter_is_dropped():
    from deckpress.svgnormal import missing_filters

    root = tree('<text id="t" x="180" direction="rtl">abc</text><text id="u" style="direction: rtl; text-anchor: end">'
                'x</text><g id="g" filter="url(#nothere)"/><g id="h" filter="url(#f)"/><filter id="f"/>')
    normalise(root)
    assert by_id(root, "t").get("text-anchor") == "end" and by_id(root, "u").get("text-anchor") == "start"
    assert missing_filters(root) == ["nothere"]
    assert by_id(root, "g").get("filter") is None and by_id(root, "h").get("filter") == "url(#f)"


def test_lengths_in_units_usvg_lacks_are_px_and_what_is_no_length_is_left_out_and_said():
    said = []
    root = tree('<g font-size="20"><rect id="r" width="40Q" height="2cap" x="1lh"/><rect id="j" width="10px junk"/>'
                '<path id="p" stroke-dasharray="-1 2"/><text id="t" x="1 2 3">a</text></g>')
    normalise(root, said.append)
    rect, junk, path, text = (by_id(root, i) for i in ("r", "j", "p", "t"))
    assert float(rect.get("width")) == pytest.approx(40 * 96 / 25.4 / 4, abs=0.01)  # 40 quarter-millimetres
    assert float(rect.get("height")) == pytest.approx(2 * 0.714 * 20, abs=0.01)  # Noto Sans's cap height at 20 px
    assert float(rect.get("x")) == pytest.approx(1.362 * 20, abs=0.01)
    assert junk.get("width") is None and path.get("stroke-dasharray") == "none" and text.get("x") == "1 2 3"
    assert said == ["has width='10px junk', which is no length: left out, as a browser leaves it out",
                    "has a stroke-dasharray with a negative length: drawn solid, as a browser draws it"]


def test_named_colours_read_the_same_after_pillow_has_cached_them():
    """Pillow's colour map keeps what ImageColor.getrgb parsed as tuples in place of its hex
    strings: a colour name read by anything else first must still come out as #rrggbb."""
    from PIL import ImageColor

    ImageColor.getrgb("seagreen")
    assert colour("SeaGreen") == "#2e8b57"


def test_a_filter_region_is_widened_to_whole_pixels_of_the_picture_it_is_drawn_into():
    from deckpress.svgnormal import snapped_filters

    text = (f'<svg xmlns="{SVG}" width="200" height="200"><filter id="f"><feGaussianBlur stdDeviation="2"/></filter>'
            '<rect id="r" x="40" y="40" width="120" height="120" filter="url(#f)"/>'
            '<g id="t" filter="url(#f)"><text>box unknown</text></g></svg>')
    root = etree.fromstring(snapped_filters(text, 1.2).encode())
    rect, group = by_id(root, "r"), by_id(root, "t")
    made = by_id(root, rect.get("filter")[5:-1])
    # the region, 28 … 172 (the box less and more 10 %), is 33.6 … 206.4 px: widened to 33 … 207
    assert made.get("filterUnits") == "userSpaceOnUse"
    assert [float(made.get(k)) for k in ("x", "y", "width", "height")] == pytest.approx([27.5, 27.5, 145, 145])
    assert group.get("filter") == "url(#f)"  # a text's box is the drawing's to know: left as it was
