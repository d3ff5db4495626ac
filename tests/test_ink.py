"""Low-ink: black ink only, pale large fills and backs, strong small information, readable text."""

from __future__ import annotations

import pytest

from deckpress.builder.faces import compose_faces
from deckpress.colors import CMYK, RGB, Gray, to_cmyk
from deckpress.errors import Warnings
from deckpress.face import Face, Group, Image, Paint, Rect, Text, rotation
from deckpress.ink import SOLID, apply_ink, cmyk, grey, lowink, text_ink
from deckpress.model import load_deck

RED = RGB(0.8, 0.1, 0.1)
NAVY = RGB(0.13, 0.19, 0.29)


def face(*items):
    return Face(60, 90, 3, tuple(items))


def test_colour_build_is_untouched():
    f = face(Rect(0, 0, 10, 10, paint=Paint(fill=RED)))
    assert apply_ink(f, "color") is f


def test_every_colour_becomes_a_grey_by_its_luma():
    out = lowink(face(Rect(0, 0, 5, 5, paint=Paint(fill=RED, stroke=NAVY, stroke_width=0.2)))).items[0]
    assert isinstance(out.paint.fill, Gray) and isinstance(out.paint.stroke, Gray)
    assert out.paint.stroke.level == pytest.approx(1 - min(1 - NAVY.luma, SOLID), abs=1e-4)
    # an outlined small shape keeps its outline; its fill is paler than a plain conversion
    assert out.paint.fill.level > grey(RED).level


def test_large_fills_become_light_and_frames_thin():
    big = Rect(-3, -3, 66, 96, 3, Paint(fill=NAVY, stroke=RED, stroke_width=1.4))
    out = lowink(face(big)).items[0]
    assert 1 - out.paint.fill.level == pytest.approx(0.1 * (1 - NAVY.luma), abs=1e-3)
    assert out.paint.stroke_width == pytest.approx(0.25)


def test_small_fills_and_text_stay_strong():
    small = Rect(10, 10, 5, 5, paint=Paint(fill=NAVY))
    text = Text(5, 20, "4", "x.ttf", 5, NAVY)
    out = lowink(face(small, text))
    assert out.items[0].paint.fill == grey(NAVY)
    assert out.items[1].color == grey(NAVY)


def test_ink_hints_drop_keep_and_lighten():
    items = (Rect(0, 0, 5, 5, paint=Paint(fill=RED, ink="drop")),
             Rect(0, 0, 60, 90, paint=Paint(fill=RED, ink="keep")),
             Rect(0, 0, 5, 5, paint=Paint(fill=RED, ink="light")))
    out = lowink(face(*items)).items
    assert len(out) == 2
    assert out[0].paint.fill == grey(RED)
    assert out[1].paint.fill.level > 0.9


def test_backs_are_pale_and_their_text_stays_visible():
    back = face(Rect(-3, -3, 66, 96, paint=Paint(fill=NAVY)), Text(5, 60, "title", "x.ttf", 8, RGB(1, 1, 1)))
    out = lowink(back, back=True).items
    assert out[0].paint.fill.level > 0.9
    # white text on a navy band that became pale: made darker so it can still be read
    assert out[1].color.level < out[0].paint.fill.level - 0.3


def test_white_text_on_a_pale_band_is_darkened_but_faint_decoration_is_not():
    band = Rect(-3, -3, 66, 20, paint=Paint(fill=NAVY))
    title = Text(5, 10, "Title", "x.ttf", 5, RGB(1, 1, 1))
    faint = Text(5, 60, "♩", "x.ttf", 20, RGB(0.8, 0.8, 0.82))
    out = lowink(face(band, title, faint)).items
    assert out[1].color.level < 0.3
    assert out[2].color.level > 0.7


@pytest.mark.parametrize("opacity, darkened", [(1.0, True), (0.3, False)])
def test_a_translucent_band_counts_as_light_as_it_looks(opacity, darkened):
    """White text stood out from a solid navy band, so it is darkened when the band turns pale;
    on navy at 30 % (light on paper) it never stood out, and is left as it was."""
    band = Group((Rect(-3, -3, 66, 20, paint=Paint(fill=NAVY)),), opacity=opacity)
    out = lowink(face(band, Text(5, 10, "Title", "x.ttf", 5, RGB(1, 1, 1)))).items
    assert (out[1].color.level < 0.3) is darkened


@pytest.mark.parametrize("convert", [lowink, cmyk])
def test_low_ink_and_cmyk_keep_group_opacity(convert):
    g = Group((Rect(0, 0, 5, 5, paint=Paint(fill=RED)), Group((Image(0, 0, 5, 5, "a.png"),), opacity=0.25)),
              rotation(90), opacity=0.5)
    out = convert(face(g)).items[0]
    assert out.opacity == 0.5 and out.items[1].opacity == 0.25 and out.transform == g.transform


def test_groups_are_converted_through_their_transform():
    g = Group((Rect(0, 0, 60, 90, paint=Paint(fill=RED)),), rotation(90, 30, 45))
    out = lowink(face(g)).items[0]
    assert out.items[0].paint.fill.level > 0.9


def test_pictures_turn_grey_and_large_ones_pale():
    small = Image(0, 0, 5, 5, "a.png")
    large = Image(0, 0, 60, 90, "a.png")
    out = lowink(face(small, large)).items
    assert out[0].grey and out[0].lighten == 0
    assert out[1].grey and out[1].lighten > 0


def test_hints_on_text_and_pictures():
    kept_text = Text(5, 20, "x", "x.ttf", 5, NAVY, ink="keep")
    out = lowink(face(Rect(-3, -3, 66, 96, paint=Paint(fill=NAVY)), kept_text), back=True).items
    assert out[1].color == grey(NAVY)  # kept at full strength even on a back
    light = lowink(face(Text(5, 20, "x", "x.ttf", 5, NAVY, ink="light"))).items[0]
    assert light.color.level > grey(NAVY).level + 0.2
    kept = lowink(face(Image(0, 0, 60, 90, "a.png", ink="keep")), back=True).items[0]
    assert kept.grey and kept.lighten == 0


# --- CMYK ----------------------------------------------------------------------------------------

def test_cmyk_converts_every_paint_and_marks_pictures():
    g = Group((Rect(0, 0, 5, 5, paint=Paint(fill=RED, stroke=Gray(0.5), stroke_width=0.2)),), rotation(90))
    out = cmyk(face(g, Rect(0, 0, 60, 90, paint=Paint(stroke=NAVY, stroke_width=1)), Image(0, 0, 5, 5, "a.png")))
    inner = out.items[0].items[0]
    assert inner.paint.fill == to_cmyk(RED) and inner.paint.stroke == CMYK(0, 0, 0, 0.5)
    assert out.items[1].paint.fill is None and out.items[1].paint.stroke == to_cmyk(NAVY)
    assert out.items[2].cmyk and not out.items[2].grey
    assert out.items[0].transform == g.transform


@pytest.mark.parametrize("color, ink", [
    (RGB(0, 0, 0), CMYK(0, 0, 0, 1)),
    (Gray(0.0), CMYK(0, 0, 0, 1)),
    (RGB(0.12, 0.12, 0.14), CMYK(0, 0, 0, 1)),  # near-black ink colour: solid black, not a 4-ink mix
    (RGB(0.37, 0.37, 0.41), CMYK(0, 0, 0, round(1 - RGB(0.37, 0.37, 0.41).luma, 4))),  # dark grey: its grey in K
    (RGB(1, 1, 1), CMYK(0, 0, 0, 0)),
    (RGB(0.8, 0.1, 0.1), to_cmyk(RGB(0.8, 0.1, 0.1))),  # coloured text keeps its colour
    (RGB(0.11, 0.13, 0.2), to_cmyk(RGB(0.11, 0.13, 0.2))),  # so does navy
])
def test_text_that_is_grey_or_black_is_black_ink_only(color, ink):
    assert text_ink(color) == ink


def test_low_ink_is_black_ink_only_whatever_the_colour_space():
    f = face(Rect(0, 0, 5, 5, paint=Paint(fill=RED)), Text(5, 20, "4", "x.ttf", 5, NAVY))
    assert apply_ink(f, "lowink", color="cmyk") == lowink(f)
    assert apply_ink(f, "color", color="cmyk") == cmyk(f)
    assert apply_ink(f, "color", color="rgb") is f


def colours(items, texts, paints, pictures):
    for item in items:
        if isinstance(item, Group):
            colours(item.items, texts, paints, pictures)
        elif isinstance(item, Text):
            texts.append(item.color)
        elif isinstance(item, Image):
            pictures.append(item)
        else:
            paints += [c for c in (item.paint.fill, item.paint.stroke) if c is not None]


@pytest.mark.parametrize("deck", ["metronome", "test-piece"])
def test_bundled_faces_in_cmyk_have_only_process_colours_and_black_text_is_k_only(deck):
    sides = compose_faces(load_deck(deck), Warnings()).sides
    faces = {f for pairs in sides.values() for pair in pairs for f in pair if f is not None}
    texts, paints, pictures = [], [], []
    for f in faces:
        colours(cmyk(f).items, texts, paints, pictures)
    assert texts and paints
    assert all(isinstance(c, CMYK) for c in texts + paints)
    assert all(p.cmyk for p in pictures) and (deck != "test-piece" or pictures)
    assert CMYK(0, 0, 0, 1) in texts
    rich = [c for c in texts if c.k >= SOLID and (c.c or c.m or c.y) and max(c.c, c.m, c.y) * (1 - c.k) < 0.06]
    assert not rich, rich


def test_shapes_remembered_across_faces_convert_as_they_do_afresh():
    """Low-ink remembers each shape converted where it is drawn (faces share frames, rules and
    backgrounds): faces converted with everything remembered are those converted afresh."""
    from deckpress.ink import _shape_at

    faces = [f for deck in ("metronome", "steps", "test-piece", "kanon", "circle-of-5")
             for f in sorted(compose_faces(load_deck(deck), Warnings()).distinct(), key=repr)]
    _shape_at.cache_clear()
    warm = [lowink(f, back) for back in (False, True) for f in faces]
    fresh = []
    for back in (False, True):
        for f in faces:
            _shape_at.cache_clear()
            fresh.append(lowink(f, back))
    assert warm == fresh


@pytest.mark.parametrize("matrix", [(1.0, 0.0, 0.0, 1.0, 0.0, 0.0), (1.0, 0.0, 0.0, 1.0, 0.0, 1e-9)])
def test_a_box_on_the_face_is_the_same_with_or_without_a_move(matrix):
    """Items drawn straight on the face skip the corners' transform: the box they cover compares
    and measures as the transformed corners' box does (a negative width or height included)."""
    from deckpress.face import Ellipse, Line, apply, bounds
    from deckpress.ink import _box

    for item in (Rect(-3, 4, -5, 2), Rect(0.0, -0.0, 3, 4), Line(5, 5, -1, 2), Ellipse(1, 2, 3, 4),
                 Text(1, 2, "ab", "f.ttf", 3, RED)):
        x0, y0, x1, y1 = bounds(item)
        corners = [apply(matrix, x, y) for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
        expected = (min(c[0] for c in corners), min(c[1] for c in corners),
                    max(c[0] for c in corners), max(c[1] for c in corners))
        assert _box(item, matrix) == pytest.approx(expected, abs=2e-9)
        if matrix == (1.0, 0.0, 0.0, 1.0, 0.0, 0.0):
            assert _box(item, matrix) == expected


def test_a_small_mark_that_stood_out_from_a_band_low_ink_pales_is_made_dark():
    """Kanon's canon cards: a cream arrow on the wine band; low-ink pales the band to a tint and
    kept the arrow cream (grey 234 on 237). Like text, it is made dark; one off the band, and one
    with an outline of its own, are left as they were."""
    from deckpress.face import Path as PathItem
    wine, cream = RGB(0.478, 0.122, 0.208), RGB(0.957, 0.914, 0.816)
    arrow = (("M", (10.0, 8.0)), ("L", (12.0, 8.0)), ("L", (11.0, 5.0)), ("Z", ()))
    below = tuple((op, tuple(v + 40 * (i % 2) for i, v in enumerate(p))) for op, p in arrow)
    face = Face(63.5, 88.9, 3, (
        Rect(-3, -3, 69.5, 25, paint=Paint(fill=wine)),
        PathItem(arrow, Paint(fill=cream)),
        PathItem(below, Paint(fill=cream)),
        PathItem(arrow, Paint(fill=cream, stroke=RGB(0, 0, 0), stroke_width=0.3)),
    ))
    band, on_band, off_band, outlined = lowink(face).items
    assert band.paint.fill.level > 0.9  # pale
    assert on_band.paint.fill.level == pytest.approx(1 - SOLID)
    assert off_band.paint.fill == grey(cream) and outlined.paint.fill == grey(cream, 0.6)


# ---- the low-ink cue of a span told apart by its colour ---------------------------------------

def test_low_ink_underlines_a_run_its_colour_set_apart_and_nothing_else_does():
    from deckpress.face import Line
    from deckpress.ink import CUE_OFFSET, CUE_WIDTH

    red = Text(10, 20, "harm", "f.ttf", 4.0, RGB(0.8, 0.1, 0.1), cue=8.5)
    plain_text = Text(30, 20, "plain", "f.ttf", 4.0, RGB(0.8, 0.1, 0.1))
    converted = lowink(face(red, plain_text)).items
    assert [type(i).__name__ for i in converted] == ["Text", "Line", "Text"]
    text, rule = converted[0], converted[1]
    assert (rule.x1, rule.x2) == (10, 18.5)  # as long as the run
    assert rule.y1 == rule.y2 == pytest.approx(20 + CUE_OFFSET * 4.0)  # below its baseline
    assert rule.paint.stroke == text.color and rule.paint.stroke_width == pytest.approx(CUE_WIDTH * 4.0)
    # the colour file and the CMYK file have their colours to tell the run apart: no rule
    assert apply_ink(face(red), "color").items == (red,)
    assert [type(i).__name__ for i in cmyk(face(red)).items] == ["Text"]
    # a back's text pales, and its rule with it; dropped text takes its rule along
    back = lowink(face(red), back=True).items
    assert back[1].paint.stroke == back[0].color
    assert lowink(face(Text(10, 20, "x", "f.ttf", 4.0, RGB(1, 0, 0), ink="drop", cue=2.0))).items == ()


SPAN_LAYOUT = """
    templates:
      front:
        fields: {text: ~}
        elements:
          - text: {text: "{text}", x: 5mm, y: 10mm, w: 100% - 10mm, h: 40mm, size: 14pt, color: "#000000"}
"""

SPAN_DECK = """
    id: spans
    title: Spans
    designer: Test
    license: CC0-1.0
    layouts: [spans]
    palette:
      red: {color: "#d01010", symbol: circle}
    components:
      - name: things
        front: front
        cards:
          - {text: "Deal [harm]{color=red} to one"}
"""


def _word_box(pdf_path, word):
    """The box of `word` on the first page, in pixels at 200 dpi (left, top, right, bottom)."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(pdf_path))
    try:
        page = pdf[0]
        textpage = page.get_textpage()
        found = textpage.search(word).get_next()
        assert found, word
        boxes = [textpage.get_charbox(i) for i in range(found[0], found[0] + found[1])]
        height = page.get_height()
        image = page.render(scale=200 / 72).to_pil().convert("RGB")
    finally:
        pdf.close()
    k = 200 / 72
    left, right = min(b[0] for b in boxes) * k, max(b[2] for b in boxes) * k
    top, bottom = (height - max(b[3] for b in boxes)) * k, (height - min(b[1] for b in boxes)) * k
    return image, (left, top, right, bottom)


def test_a_coloured_keyword_prints_in_colour_and_underlined_in_low_ink(make_deck, tmp_path):
    import deckpress
    from deckpress.ink import CUE_OFFSET
    from deckpress.units import PT

    folder = make_deck(SPAN_DECK, {"spans": SPAN_LAYOUT})
    deckpress.build(folder, tmp_path / "out", papers="a4", inks="all")
    files = {p.name: p for p in (tmp_path / "out").rglob("*.pdf")}
    size_px = 14 * PT * 200 / 25.4
    for name, lowink_file in (("spans-cards-a4.pdf", False), ("spans-cards-lowink-a4.pdf", True)):
        image, (left, top, right, bottom) = _word_box(files[name], "harm")
        word = [image.getpixel((x, y)) for x in range(int(left), int(right)) for y in range(int(top), int(bottom))]
        inked = [p for p in word if sum(p) < 600]
        reddish = [p for p in inked if p[0] - p[2] > 80]
        # the underline's band: under the word (no descenders), round CUE_OFFSET below the baseline
        rule_y = bottom + CUE_OFFSET * size_px
        band = [image.getpixel((x, y)) for x in range(int(left + 3), int(right - 3))
                for y in range(int(rule_y - 1), int(rule_y + 2))]
        dark = sum(1 for p in band if sum(p) < 450) / len(band)
        if lowink_file:
            assert not reddish and all(max(p) - min(p) <= 20 for p in word)  # greys (pdfium shows K through its profile)
            assert dark > 0.3  # a rule runs under the word
        else:
            assert len(reddish) > 0.8 * len(inked) > 0  # the word prints red
            assert dark == 0.0  # and is not underlined
    # the plain words next to it are not underlined in low-ink
    image, (left, top, right, bottom) = _word_box(files["spans-cards-lowink-a4.pdf"], "Deal")
    rule_y = bottom + CUE_OFFSET * size_px
    band = [image.getpixel((x, y)) for x in range(int(left + 3), int(right - 3))
            for y in range(int(rule_y - 1), int(rule_y + 2))]
    assert all(sum(p) > 600 for p in band)


def test_a_coloured_span_prints_in_process_colours_beside_black_only_text_in_cmyk(make_deck, tmp_path):
    from pypdf import PdfReader

    import deckpress
    from tests.pdfread import text_colours

    folder = make_deck(SPAN_DECK, {"spans": SPAN_LAYOUT})
    deckpress.build(folder, tmp_path / "out", papers="a4", inks="color", color="cmyk")
    cards = next((tmp_path / "out").rglob("spans-cards-cmyk-a4.pdf"))
    colours = text_colours(PdfReader(cards))
    red = to_cmyk(RGB(0xd0 / 255, 0x10 / 255, 0x10 / 255))
    assert (0.0, 0.0, 0.0, 1.0) in colours  # the words round it: black ink only
    assert any(c[:3] == pytest.approx((red.c, red.m, red.y), abs=0.01) and c[1] > 0.5 for c in colours if c)


@pytest.mark.parametrize("mode", ["mirror", "extend"])
def test_the_bleed_made_for_a_picture_is_as_pale_as_the_picture(mode):
    """A band of art along the top, too small to be paled: the copies that grow it into the bleed
    (stretched a hundred times by `extend`, which alone would make them large) stay as dark as it;
    a picture large enough to be paled has its bleed paled alike."""
    from deckpress.face import grown_into_bleed

    def pictures(items):
        for item in items:
            yield from pictures(item.items) if isinstance(item, Group) else [item] if isinstance(item, Image) else []

    for box, lighten in (((0, 0, 60, 8), 0.0), ((0, 0, 60, 90), 0.55)):
        items, _ = grown_into_bleed(Image(*box, "band.png"), (0, 0, 60, 90), 3.0, mode, pixels=(600, 80))
        converted = list(pictures(lowink(face(*items)).items))
        assert len(converted) == len(list(pictures(items))) > 1
        assert {(im.grey, im.lighten) for im in converted} == {(True, lighten)}
        if mode == "mirror":  # still the one picture, placed again
            assert all(im is converted[0] for im in converted)
