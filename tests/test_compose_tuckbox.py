"""The tuck box net: sizes from the deck, the cut line's shape, the panels' art."""

from __future__ import annotations

import math

import pytest

from deckpress.colors import BLACK, WHITE, RGB
from deckpress.compose.tuckbox import (CARD_THICKNESS, CLEARANCE, GLUE_FLAP, TUCK_INSET, BoxArt, BoxSize, box_size,
                                       sleeve_for, tuck_box)
from deckpress.face import Face, Group, Line, Paint, Path, Rect, Text
from deckpress.text.fonts import FontSet

CARD = Face(63.5, 88.9, 3.0, (Rect(-3, -3, 69.5, 94.9, paint=Paint(fill=WHITE)),
                              Rect(-3, -3, 69.5, 94.9, paint=Paint(fill=RGB(0.1, 0.2, 0.3)))))


def art(back: Face | None = CARD) -> BoxArt:
    return BoxArt("Test Deck", "A. Designer", ("3–5 players", "54 cards"), CARD, back, FontSet())


def walk(items, kind):
    for item in items:
        if isinstance(item, Group):
            yield from walk(item.items, kind)
        elif isinstance(item, kind):
            yield item


def points(ops):
    return [(pts[i], pts[i + 1]) for _, pts in ops for i in range(0, len(pts), 2)]


def test_the_box_is_the_card_plus_clearance_and_as_deep_as_the_stack():
    size = box_size(63.5, 88.9, 54)
    assert (size.width, size.height) == (63.5 + CLEARANCE, 88.9 + CLEARANCE)
    assert size.depth == pytest.approx(54 * CARD_THICKNESS + CLEARANCE)
    assert box_size(63.5, 88.9, 54, thickness=0.5).depth == pytest.approx(54 * 0.5 + CLEARANCE)


def test_sleeves_are_the_smallest_that_hold_the_card():
    assert sleeve_for(63.5, 88.9) == (66.0, 91.0)
    assert sleeve_for(56.0, 87.0) == (59.0, 91.0)
    assert sleeve_for(70.0, 120.0) == (73.0, 122.0)
    with pytest.raises(ValueError, match="WxH"):
        sleeve_for(88.9, 139.7)


def test_one_piece_net_has_every_panel_and_flap_in_its_place():
    size = box_size(63.5, 88.9, 54)
    (net,) = tuck_box(size, art())
    W, H, D, T = size.width, size.height, size.depth, size.tuck
    assert net.face.width == pytest.approx(2 * W + 2 * D + GLUE_FLAP)
    assert net.face.height == pytest.approx(H + 2 * (D + T))  # lid and tuck flap above and below
    assert net.outline[0][0] == "M" and net.outline[-1] == ("Z", ())
    pts = points(net.outline)
    assert min(p[0] for p in pts) == pytest.approx(0) and max(p[0] for p in pts) == pytest.approx(net.face.width)
    assert min(p[1] for p in pts) == pytest.approx(0) and max(p[1] for p in pts) == pytest.approx(net.face.height)

    top = D + T  # the panels' top edge, in face coordinates
    folds = [line for line in walk(net.face.items, Line) if line.paint.dash]
    shift = next(g.transform for g in net.face.items if isinstance(g, Group))[4:]
    verticals = sorted(round(f.x1 + shift[0], 6) for f in folds if f.x1 == f.x2)
    assert verticals == pytest.approx([W, W + D, 2 * W + D, 2 * W + 2 * D])
    assert all(f.y1 + shift[1] == pytest.approx(top) and f.y2 + shift[1] == pytest.approx(top + H)
               for f in folds if f.x1 == f.x2)
    across = sorted({round(f.y1 + shift[1], 6) for f in folds if f.y1 == f.y2})
    assert across == pytest.approx([T, top, top + H, top + H + D])  # tuck hinge, lid, bottom lid, bottom tuck

    # the thumb notch: a half circle cut into the front's top edge, centred
    r = size.notch
    ends = [pts[-2:] for _, pts in net.outline if pts]  # where each segment ends (no control points)
    notch = [p for p in ends if top + 1e-6 < p[1] < top + r + 1 and p[0] < W]
    deepest = max(notch, key=lambda p: p[1])
    assert deepest == pytest.approx((W / 2, top + r))
    # the tuck flap is narrower than its lid, so it slides in
    lid_top = sorted(round(p[0], 6) for p in ends if p[1] == pytest.approx(T) and W + D - 1e-6 < p[0] < 2 * W + D + 1e-6)
    assert lid_top == pytest.approx([W + D, W + D + TUCK_INSET, 2 * W + D - TUCK_INSET, 2 * W + D])


def test_two_parts_join_with_a_glue_tab():
    size = box_size(70, 120, 150)
    first, second = tuck_box(size, art(), parts=2)
    W, D = size.width, size.depth
    assert first.face.width == pytest.approx(W + D + GLUE_FLAP)
    assert second.face.width == pytest.approx(W + D + GLUE_FLAP)
    assert first.name == "tuck box, part 1 of 2" and second.name == "tuck box, part 2 of 2"
    # part 1 (front): dust flap above, lid and tuck flap below; part 2 (back) the other way round
    lift = [next(g.transform[5] for g in net.face.items if isinstance(g, Group)) for net in (first, second)]
    assert lift == pytest.approx([size.dust, size.depth + size.tuck])
    assert first.face.height == pytest.approx(size.dust + size.height + size.depth + size.tuck)
    with pytest.raises(ValueError):
        tuck_box(size, art(), parts=3)


def test_text_is_upright_on_front_and_back_down_the_spines_and_turned_on_the_lid():
    size = box_size(63.5, 88.9, 54)
    (net,) = tuck_box(size, art())
    group = next(g for g in net.face.items if isinstance(g, Group))
    turns = {}
    for item in group.items:
        if isinstance(item, Group):
            a, b = item.transform[:2]
            texts = [t.text for t in walk(item.items, Text)]
            turns.setdefault(round(math.degrees(math.atan2(b, a))), []).extend(texts)
    assert "Test" in " ".join(turns[90])  # the spines and the glue flap read top to bottom
    assert "glue" in turns[90]
    assert "Test Deck" in " ".join(turns[180])  # the lid reads from the front
    upright = [t.text for t in group.items if isinstance(t, Text)]
    assert "Test Deck" in " ".join(upright) and "A. Designer" in " ".join(upright)


def test_the_outside_takes_the_card_backs_colour_and_text_contrasts_with_it():
    dark = art()
    assert dark.ground == RGB(0.1, 0.2, 0.3) and dark.color == WHITE
    plain = art(Face(63.5, 88.9, 3.0, ()))
    assert plain.ground is None and plain.color == BLACK
    def grounds(net):  # filled rectangles of the net itself, not inside the card pictures
        return [r for r in net.face.items[0].items if isinstance(r, Rect) and r.paint.fill is not None]

    assert not grounds(tuck_box(box_size(63.5, 88.9, 54), plain)[0])
    found = grounds(tuck_box(box_size(63.5, 88.9, 54), dark)[0])
    assert len(found) == 4 and {r.paint.fill for r in found} == {RGB(0.1, 0.2, 0.3)}  # front, back, sides


def test_the_cut_line_is_solid_and_the_folds_dashed():
    (net,) = tuck_box(box_size(63.5, 88.9, 54), art())
    cuts = list(walk(net.face.items, Path))
    assert len(cuts) == 1 and not cuts[0].paint.dash and cuts[0].paint.fill is None
    assert all(line.paint.dash for line in walk(net.face.items, Line))


def test_a_thin_deck_still_gets_a_box():
    size = box_size(63.5, 88.9, 10)
    (net,) = tuck_box(size, art())
    assert size.depth == pytest.approx(4.5)
    assert net.face.width == pytest.approx(2 * size.width + 2 * size.depth + GLUE_FLAP)
    assert size.dust == 10.0 and BoxSize(65, 90.4, 4.5).tuck == 12.0


# --- the deck's own look: `box: {font: …, credit: …}` --------------------------------------------

BOX_DECK_LAYOUT = """
    templates:
      face:
        fields: {name: ~}
        elements:
          - text: {text: "{name}", x: 5mm, y: 5mm, w: 100% - 10mm, h: 12mm}
      back:
        elements:
          - rect: {x: -bleed, y: -bleed, w: 100% + 2 * bleed, h: 100% + 2 * bleed, fill: "#335577"}
"""


def box_deck(make_deck, box: str, fonts: str = "", files: dict[str, bytes] | None = None):
    """A one-component deck titled Quokka whose `box:` is on line 7."""
    deck = f"""\
        id: quokka
        title: Quokka
        designer: Someone
        license: CC0-1.0
        layouts: [cards]
        {fonts}
        box: {box}
        components:
          - name: cards
            front: face
            back: back
            cards:
              - {{name: one, count: 40}}
        """
    return make_deck(deck, {"cards": BOX_DECK_LAYOUT}, files)


def char_fonts(path, page: int = 0) -> list[tuple[str, str]]:
    """Each character printed on the box (inside the page's TrimBox: the page's label is not)
    with the name of the font pdfium says it is shown in, its subset tag taken off."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw
    from pypdf import PdfReader

    x0, y0, x1, y1 = (float(v) for v in PdfReader(path).pages[page].trimbox)
    pdf = pdfium.PdfDocument(str(path))
    try:
        text = pdf[page].get_textpage()
        out = []
        for i in range(text.count_chars()):
            ch = text.get_text_range(i, 1)
            left, bottom, right, top = text.get_charbox(i)
            if ch.strip() and x0 <= (left + right) / 2 <= x1 and y0 <= (bottom + top) / 2 <= y1:
                buf = ctypes.create_string_buffer(256)
                raw.FPDFText_GetFontInfo(text.raw, i, buf, 256, ctypes.c_int())
                out.append((ch, buf.value.decode("latin-1").split("+")[-1]))
        return out
    finally:
        pdf.close()


def box_build(folder, tmp_path):
    from deckpress.builder.deckbuild import build_deck

    result = build_deck(str(folder), tmp_path, ["a4"], ["color"])
    assert not result.warnings
    return tmp_path / "quokka" / "quokka-box-a4.pdf"


def title_fonts(path) -> set[str]:
    """The fonts the title (Quokka: no other word on the box has a Q) is shown in."""
    return {font for ch, font in char_fonts(path) if ch == "Q"}


def test_the_box_is_set_in_the_decks_family_and_may_leave_out_the_credit(make_deck, tmp_path):
    from tests.pdfread import page_text

    default = box_build(box_deck(make_deck, "{cover: cards}"), tmp_path / "default")
    assert title_fonts(default) == {"NotoSans-Bold"}
    assert "made with deckpress" in page_text(default, 0)

    path = box_build(box_deck(make_deck, "{font: condensed, credit: false}"), tmp_path / "condensed")
    assert title_fonts(path) == {"NotoSans-CondensedBlack"}  # the condensed family's bold
    words = page_text(path, 0)
    assert "Quokka" in words and "Someone" in words and "deckpress" not in words
    box_words = {font for _, font in char_fonts(path)} - {"NotoSans-Regular"}  # the card picture's own "one"
    assert box_words == {"NotoSans-CondensedBlack", "NotoSans-CondensedBold"}
    designer = {font for ch, font in char_fonts(path) if ch in "Sm"}
    assert designer == {"NotoSans-CondensedBold"}  # the condensed family's regular


def test_the_box_takes_a_family_the_deck_declares(make_deck, tmp_path):
    from deckpress.bundled import FONTS_DIR

    font = (FONTS_DIR / "NotoSans-CondensedBlack.ttf").read_bytes()
    folder = box_deck(make_deck, "{font: display}", "fonts: {display: {regular: fonts/display.ttf}}",
                      {"fonts/display.ttf": font})
    path = box_build(folder, tmp_path)
    assert title_fonts(path) == {"NotoSans-CondensedBlack"}  # the one style serves bold too


@pytest.mark.parametrize("box, message", [
    ("{font: condenced}", r"deck.yaml:7: box font 'condenced' is no font family; the deck has sans, condensed.* did you mean 'condensed'"),
    ("{font: [sans]}", r"deck.yaml:7: box font must be the name of a font family"),
    ("{credit: maybe}", r"deck.yaml:7: box credit must be true or false"),
])
def test_a_box_font_or_credit_it_cannot_use_is_one_line_at_its_key(make_deck, box, message):
    from deckpress.errors import DeckError
    from deckpress.model import load_deck

    with pytest.raises(DeckError, match=message) as caught:
        load_deck(str(box_deck(make_deck, box)))
    assert "\n" not in str(caught.value)
