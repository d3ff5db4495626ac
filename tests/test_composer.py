"""Composing faces: substitution, conditions, repeats, derived fields, rotation, opacity, images, caching."""

from __future__ import annotations

import io

import pypdfium2 as pdfium
import pytest
from PIL import Image as PILImage

from deckpress.backends.raster import RasterJob, faces_pdf
from deckpress.compose import Composer
from deckpress.errors import Warnings
from deckpress.face import Ellipse, Group, Image, Path, Rect, Text, bounds
from deckpress.model import load_deck

DECK = """
    id: comp
    title: Compose
    designer: Test
    license: CC0-1.0
    card: {width: 60mm, height: 90mm}
    bleed: 2mm
    layouts: [comp]
    palette:
      red: {color: "#ff0000", symbol: circle}
      blue: {color: "#0000ff", symbol: square}
    components:
      - name: cards
        front: front
        cards:
          - {name: A, color: red, next: [red, blue], map: {red: blue}}
          - {name: B, color: blue, wild: true, count: 3}
"""

LAYOUT = """
    templates:
      front:
        fields: {name: ~, color: ~, next: [], map: {}, wild: false, label: "{name}-{color}", art: ""}
        elements:
          - rect: {x: -bleed, y: -bleed, w: 100% + 2*bleed, h: 100% + 2*bleed, fill: "{color} 10%"}
          - text: {text: "{label} {deck.title} {card.number}/{card.total}", x: 0mm, y: 0mm, w: 100%, h: 10mm}
          - rect: {x: 10%, y: 50% - 5mm, w: 50%, h: 10mm, fill: "{color}", when: {wild: true}}
          - group:
              each: next
              step-x: 10mm
              center: true
              elements:
                - symbol: {of: "{item}", x: 50%, y: 80mm, size: 6mm}
          - group:
              each: map
              elements:
                - text: {text: "{index}:{key}>{value}", x: 0mm, y: 20mm, w: 100%, h: 5mm}
          - rect: {x: 0mm, y: 0mm, w: 20mm, h: 10mm, fill: black, rotate: 90}
          - image: {src: art.png, x: 0mm, y: 30mm, w: 30mm, h: 30mm, fit: cover, when: {wild: true}}
          - image: {src: art.png, x: 0mm, y: 30mm, w: 30mm, h: 30mm, fit: contain, when: {wild: false}}
"""


def _png(w, h):
    buf = io.BytesIO()
    PILImage.new("RGB", (w, h), (0, 128, 0)).save(buf, format="PNG")
    return buf.getvalue()


@pytest.fixture
def faces(make_deck):
    deck = load_deck(make_deck(DECK, {"comp": LAYOUT}, {"layouts/art.png": _png(40, 20)}))
    warn = Warnings()
    composer = Composer(deck, warn)
    component = deck.components[0]
    return [composer.face(card, component.front) for card in component.cards], composer, warn


def all_items(items):
    for item in items:
        yield item
        if isinstance(item, Group):
            yield from all_items(item.items)


def test_face_geometry_and_bleed(faces):
    (a, b), _, _ = faces
    assert (a.width, a.height, a.bleed) == (60.0, 90.0, 2.0)
    background = a.items[0]
    assert (background.x, background.y, background.w, background.h) == (-2.0, -2.0, 64.0, 94.0)
    assert background.paint.fill.hex == "#ffe6e6"  # red at 10 % on white


def test_fields_builtins_and_derived_defaults_are_substituted(faces):
    (a, b), _, _ = faces
    text = "".join(t.text for t in all_items(a.items) if isinstance(t, Text))
    assert "A-red Compose 1/2" in text
    assert "B-blue Compose 2/2" in "".join(t.text for t in all_items(b.items) if isinstance(t, Text))


def test_when_draws_only_for_matching_cards(faces):
    (a, b), _, _ = faces
    def solid(face, hex_):
        return [i for i in all_items(face.items) if isinstance(i, Rect) and i.paint.fill and i.paint.fill.hex == hex_]
    assert len(solid(b, "#0000ff")) == 1 and len(solid(a, "#ff0000")) == 0


def test_each_repeats_for_lists_and_mappings_centred(faces):
    (a, b), _, _ = faces
    groups = [i for i in a.items if isinstance(i, Group) and i.transform[:4] == (1, 0, 0, 1)
              and i.transform[4] != 0 and not i.clip]
    symbols = [(g.transform[4], type(g.items[0]).__name__) for g in groups]
    assert symbols == [(-5.0, "Ellipse"), (5.0, "Path")]  # red circle and blue square, centred on 50 %
    assert "1:red>blue" in "".join(t.text for t in all_items(a.items) if isinstance(t, Text))
    assert not [i for i in b.items if isinstance(i, Group) and i.transform[4] in (-5.0, 5.0)]


def test_rotate_turns_about_the_element_centre(faces):
    (a, _), _, _ = faces
    rotated = next(i for i in a.items if isinstance(i, Group) and i.transform[:4] == (0.0, 1.0, -1.0, 0.0))
    from deckpress.face import apply
    assert apply(rotated.transform, 10, 5) == pytest.approx((10, 5))  # the centre stays put


def test_image_fit_contain_and_cover(faces):
    (a, b), _, _ = faces
    contain = next(i for i in all_items(a.items) if isinstance(i, Image))
    assert (contain.x, contain.y, contain.w, contain.h) == pytest.approx((0, 37.5, 30, 15))
    cover = next(i for i in b.items if isinstance(i, Group) and i.clip)
    image = cover.items[0]
    assert cover.clip == (0, 30, 30, 30)
    assert (image.x, image.y, image.w, image.h) == pytest.approx((-15, 30, 60, 30))


def test_identical_cards_share_one_face_and_compose_once(faces):
    (a, b), composer, _ = faces
    card = composer.deck.components[0].cards[1]
    assert composer.face(card, composer.deck.components[0].front) is b
    assert hash(a) != hash(b)


def test_symbols_use_the_palette_shape_and_colour(faces):
    (a, _), _, _ = faces
    shapes = [i for g in a.items if isinstance(g, Group) for i in g.items if isinstance(i, (Ellipse, Path))]
    assert {type(s).__name__ for s in shapes} == {"Ellipse", "Path"}
    assert {s.paint.fill.hex for s in shapes} == {"#ff0000", "#0000ff"}


def test_palette_symbols_in_text_are_outlined_in_the_text_colour(make_deck):
    """A light symbol (a yellow star) in a line of text must not vanish on a light card."""
    layout = LAYOUT.replace('text: "{label} {deck.title} {card.number}/{card.total}"',
                            'text: "pairs with :red: and :blue:", color: "#333333"')
    deck = load_deck(make_deck(DECK, {"comp": layout}, {"layouts/art.png": _png(40, 20)}))
    face = Composer(deck).face(deck.components[0].cards[0], deck.components[0].front)
    inline = [i for i in all_items(face.items) if isinstance(i, (Ellipse, Path)) and bounds(i)[3] < 10]  # in the text box
    assert {i.paint.fill.hex for i in inline} == {"#ff0000", "#0000ff"}
    assert all(i.paint.stroke.hex == "#333333" and i.paint.stroke_width > 0.05 for i in inline)


def test_an_ink_hint_on_a_group_reaches_its_children(make_deck):
    layout = LAYOUT.replace("""          - group:
              each: map""", """          - group:
              ink: drop
              each: map""")
    deck = load_deck(make_deck(DECK, {"comp": layout}, {"layouts/art.png": _png(40, 20)}))
    face = Composer(deck).face(deck.components[0].cards[0], deck.components[0].front)
    mapped = [t for t in all_items(face.items) if isinstance(t, Text) and ">" in t.text]
    assert mapped and all(t.ink == "drop" for t in mapped)
    from deckpress.ink import lowink
    assert not [t for t in all_items(lowink(face).items) if isinstance(t, Text) and ">" in t.text]


def test_opacity_makes_an_element_one_translucent_layer(make_deck, tmp_path):
    """`opacity: 50%` on a framed rect: its fill and its frame (which overlaps the fill) print at
    half strength over the ground, the frame no darker over the fill; rotate and opacity are one
    group; a field can set it; and opacity 1 adds nothing."""
    layout = LAYOUT.replace("""          - rect: {x: 10%, y: 50% - 5mm""", """          - rect: {x: 35mm, y: 60mm, w: 20mm, h: 10mm, fill: "#0000ff", stroke: "#0000ff",
                   stroke-width: 2mm, opacity: 50%}
          - rect: {x: 30mm, y: 10mm, w: 10mm, h: 10mm, fill: black, opacity: "{alpha}", rotate: 45}
          - rect: {x: 10%, y: 50% - 5mm""").replace("art: \"\"}", "art: \"\", alpha: 1}")
    deck = DECK.replace("{name: A, color: red,", "{name: A, color: red, alpha: 0.25,")
    deck = load_deck(make_deck(deck, {"comp": layout}, {"layouts/art.png": _png(40, 20)}))
    composer = Composer(deck)
    a, b = (composer.face(card, deck.components[0].front) for card in deck.components[0].cards)
    framed, turned = [i for i in a.items if isinstance(i, Group) and i.opacity < 1]
    assert framed.opacity == 0.5 and framed.transform == (1, 0, 0, 1, 0, 0) and len(framed.items) == 1
    assert turned.opacity == 0.25 and turned.transform[:4] == pytest.approx((0.7071, 0.7071, -0.7071, 0.7071), abs=1e-4)
    turned_b, = [i for i in b.items if isinstance(i, Group) and i.transform[1] == pytest.approx(0.7071, abs=1e-4)]
    assert turned_b.opacity == 1.0  # B's alpha is the default, 1: turned, and solid

    pdf = faces_pdf([RasterJob(a, (0, 0, 60, 90), (600, 900))])  # the trim, 10 px a millimetre
    image = pdfium.PdfDocument(pdf)[0].render(scale=2).to_pil().convert("RGB")
    at = lambda x, y: image.getpixel((round(x * 2 * 72 / 25.4), round(y * 2 * 72 / 25.4)))  # noqa: E731
    ground = at(50, 50)  # red at 10 % on white
    half_blue = tuple((g + b) / 2 for g, b in zip(ground, (0, 0, 255)))
    for x, y in ((45, 65), (35.5, 65), (34.5, 65)):  # the fill, the frame over the fill, the frame outside it
        assert at(x, y) == pytest.approx(half_blue, abs=2), (x, y)


def test_a_width_or_height_below_zero_on_a_card_is_an_error_naming_card_and_element(make_deck):
    """`h: "{height}"` with a negative field, or `50% - 40mm` on a card narrower than 80 mm, only
    show when a card is composed: the error names the card's line and the element's."""
    from deckpress.errors import DeckError
    layout = LAYOUT.replace("fields: {name: ~,", "fields: {height: 10mm, name: ~,").replace(
        "w: 100%, h: 10mm}", "w: 100%, h: \"{height}\"}")
    deck = DECK.replace("{name: B, color: blue, wild: true, count: 3}", "{name: B, color: blue, height: -4mm}")
    loaded = load_deck(make_deck(deck, {"comp": layout}, {"layouts/art.png": _png(40, 20)}))
    composer = Composer(loaded, Warnings())
    component = loaded.components[0]
    composer.face(component.cards[0], component.front)
    with pytest.raises(DeckError) as err:
        composer.face(component.cards[1], component.front)
    assert str(err.value) == (f"{err.value.file}:17: card cards #2 (B): text h '{{height}}' gives expected a length "
                              f"of zero or more, like 40mm or 100% - 8mm, not '-4mm' (template 'front', "
                              f"{err.value.file.replace('deck.yaml', 'layouts/comp.yaml')}:7)")

    narrow = LAYOUT.replace("x: 10%, y: 50% - 5mm, w: 50%,", "x: 10%, y: 50% - 5mm, w: 50% - 40mm,")
    loaded = load_deck(make_deck(DECK, {"comp": narrow}, {"layouts/art.png": _png(40, 20)}))
    component = loaded.components[0]
    composer = Composer(loaded, Warnings())
    composer.face(component.cards[0], component.front)  # not wild: the rect is not drawn
    with pytest.raises(DeckError) as err:
        composer.face(component.cards[1], component.front)
    assert str(err.value) == (f"{err.value.file}:17: card cards #2 (B): rect w comes to -10.0mm on its 60 × 90 mm "
                              f"card and cannot be negative (template 'front', "
                              f"{err.value.file.replace('deck.yaml', 'layouts/comp.yaml')}:8)")


def test_an_empty_text_prints_nothing_not_none(make_deck):
    """`text:` with nothing after it is YAML's null: the card shows no text, never the word None;
    a field a card leaves empty (`note: ~`) reads as nothing inside a longer text too."""
    from deckpress.face import Text

    layout = """
        templates:
          front:
            fields: {note: ""}
            elements:
              - text:
                  text:
                  x: 5mm
              - text: {text: "[{note}]", x: 5mm, y: 20mm, w: 40mm, h: 10mm}
    """
    deck = load_deck(make_deck("""
        id: empty
        title: Empty
        designer: Test
        license: CC0-1.0
        layouts: [empty]
        components:
          - {name: things, front: front, cards: [{note: ~}]}
    """, {"empty": layout}))
    face = Composer(deck).face(deck.components[0].cards[0], deck.components[0].front)
    texts = "".join(item.text for item in face.items if isinstance(item, Text))
    assert "None" not in texts and texts == "[]"


@pytest.mark.parametrize("deck_id", ["metronome", "steps", "test-piece", "kanon", "circle-of-5"])
def test_what_cards_share_gives_the_faces_each_card_composed_alone_gives(deck_id):
    """The composer remembers, per card size, each element's literal lengths, values parsed from
    what patterns fill in, and the items of elements (and settings of texts) whose patterns fill
    in alike: composing a whole deck with one composer gives the faces a fresh composer gives
    for each card alone, with nothing remembered from the others."""
    from deckpress import text

    deck = load_deck(deck_id)
    shared = Composer(deck, Warnings())
    for component in deck.components:
        for template in (component.front, component.back):
            if template is None:
                continue
            together = [shared.face(card, template) for card in component.cards]
            text.cache_clear()
            alone = [Composer(deck, Warnings()).face(card, template) for card in component.cards]
            assert together == alone


def test_a_text_set_once_for_many_cards_still_warns_for_each(make_deck):
    """Cards that share a text's setting each hear that it does not fit, under their own name."""
    layout = """
        templates:
          front:
            fields: {title: ~}
            elements:
              - text: {text: "far too long a text for so small a box", x: 0mm, y: 0mm, w: 8mm, h: 2mm,
                       size: 12pt, min-size: 10pt}
              - text: {text: "{title}", x: 0mm, y: 10mm, w: 30mm, h: 10mm}
    """
    deck = load_deck(make_deck("""
        id: warns
        title: Warns
        designer: Test
        license: CC0-1.0
        layouts: [warns]
        components:
          - {name: things, front: front, cards: [{title: a}, {title: b}, {title: c}]}
    """, {"warns": layout}))
    warn = Warnings()
    composer = Composer(deck, warn)
    for card in deck.components[0].cards:
        composer.face(card, deck.components[0].front)
    said = [w.message for w in warn if w.kind == "text-overflow"]
    assert [m.split(":")[0] for m in said] == ["card things #1 (a)", "card things #2 (b)", "card things #3 (c)"]


def test_a_mistake_in_a_span_names_the_cards_line_the_texts_line_the_span_and_the_closest_name(make_deck):
    from deckpress.errors import DeckError
    layout = """
    templates:
      front:
        fields: {text: ~}
        elements:
          - text: {text: "{text}", x: 5mm, y: 10mm, w: 50mm, h: 40mm, size: 12pt}
    """
    deck = """
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
          - {text: "Deal [harm]{color=rde} to one"}
    """
    loaded = load_deck(make_deck(deck, {"spans": layout}))
    composer = Composer(loaded, Warnings())
    component = loaded.components[0]
    first = composer.face(component.cards[0], component.front)
    assert [t.color.hex for t in all_items(first.items) if isinstance(t, Text) and t.text == "harm"] == ["#d01010"]
    with pytest.raises(DeckError) as err:
        composer.face(component.cards[1], component.front)
    layout_file = err.value.file.replace("deck.yaml", "layouts/spans.yaml")
    assert str(err.value) == (f"{err.value.file}:14: card things #2: unknown colour 'rde' in span "
                              f"'[harm]{{color=rde}}' in text (template 'front', {layout_file}:6) — did you mean 'red'?")


def test_a_text_of_several_lines_is_one_group_that_cards_setting_it_alike_share(make_deck):
    """A text element set in several lines (or runs) is one plain group of them, and cards whose
    text is set alike get the same group object: what lets a backend draw it once (backends/pdf).
    A text of one run stays one item."""
    layout = LAYOUT.replace('text: "{label} {deck.title} {card.number}/{card.total}", x: 0mm, y: 0mm, w: 100%, h: 10mm',
                            'text: "Play a card of the same colour, or one of the same number, then draw a card.", '
                            'x: 0mm, y: 0mm, w: 30mm, h: 20mm')
    deck = load_deck(make_deck(DECK, {"comp": layout}, {"layouts/art.png": _png(40, 20)}))
    composer = Composer(deck)
    component = deck.components[0]
    a, b = (composer.face(card, component.front) for card in component.cards[:2])
    boxes = [[g for g in face.items if isinstance(g, Group) and all(isinstance(i, Text) for i in g.items)
              and g.items[0].text.startswith("Play")] for face in (a, b)]
    assert len(boxes[0]) == len(boxes[1]) == 1 and boxes[0][0] is boxes[1][0]
    box = boxes[0][0]
    assert len(box.items) > 1 and (box.transform, box.clip, box.opacity) == ((1.0, 0.0, 0.0, 1.0, 0.0, 0.0), None, 1.0)
    assert " ".join(t.text for t in box.items).endswith("then draw a card.")
    mapped = [i for g in a.items if isinstance(g, Group) for i in g.items if getattr(i, "text", "").endswith(":red>blue")]
    assert len(mapped) == 1 and isinstance(mapped[0], Text)  # a text of one run: the item itself, no group


DEFAULTS_LAYOUT = """
    templates:
      front:
        fields:
          name: ~
          art: missing.png
          tone: "#aa0000"
        elements:
          - text: {text: "{name}", x: 0mm, y: 0mm, w: 100%, h: 10mm, color: "{tone}"}
          - image: {src: "{art}", x: 0mm, y: 30mm, w: 30mm, h: 30mm}
"""

DEFAULTS_DECK = """
    id: comp
    title: Compose
    designer: Test
    license: CC0-1.0
    layouts: [comp]
    components:
      - name: cards
        front: front
        fields:
          tone: "#bb0000"
        cards:
          - {name: A, art: art.png}
          - {name: B}
"""


def _first_error(folder):
    from deckpress.errors import DeckError
    deck = load_deck(folder)
    composer = Composer(deck, Warnings())
    with pytest.raises(DeckError) as err:
        for card in deck.components[0].cards:
            composer.face(card, deck.components[0].front)
    return err.value


@pytest.mark.parametrize("case", ["template", "component", "card"])
def test_a_mistake_a_default_makes_is_said_at_the_line_of_the_default(make_deck, case):
    """A picture path or colour that a default gives is mended where the default is written, for
    every card at once: the error names that line (a layout's `fields:`, or the component's), not
    the card's row; a value the card gives itself is still said at the card."""
    deck, layout = DEFAULTS_DECK, DEFAULTS_LAYOUT
    if case == "template":  # card B takes the layout's `art: missing.png`
        where, message = ("layouts/comp.yaml", 6), ("the default of field 'art' on card cards #2 (B): image src "
                                                    "'{art}' gives file 'missing.png' not found (template 'front', ")
        line = 10
    elif case == "component":  # every card takes the component's colour, here mistyped
        deck = deck.replace('tone: "#bb0000"', 'tone: "#zz0000"')
        where, message = ("deck.yaml", 11), ("the default of field 'tone' on card cards #1 (A): text color '{tone}' "
                                             "gives '#zz0000' is not a hex colour; expected #rgb or #rrggbb "
                                             "(template 'front', ")
        line = 9
    else:  # the card's own colour
        deck = deck.replace("{name: A, art: art.png}", '{name: A, art: art.png, tone: "#zz0000"}')
        where, message = ("deck.yaml", 13), ("card cards #1 (A): text color '{tone}' gives '#zz0000' is not a hex "
                                             "colour; expected #rgb or #rrggbb (template 'front', ")
        line = 9
    folder = make_deck(deck, {"comp": layout}, {"art.png": _png(40, 20)})
    error = _first_error(folder)
    assert (error.file, error.line) == (str(folder / where[0]), where[1])
    assert error.message == message + f"{folder / 'layouts/comp.yaml'}:{line})"
