"""The drawers: one per element kind that model/elements.py declares, checked when compose loads."""

from __future__ import annotations

import pytest

from deckpress.compose.elements import DRAWERS, check_drawers, draws
from deckpress.model.elements import KINDS


def test_every_declared_kind_has_a_drawer_in_declaration_order():
    assert list(DRAWERS) == list(KINDS)
    check_drawers(DRAWERS, KINDS)


def test_a_kind_without_a_drawer_is_refused():
    missing = {k: v for k, v in DRAWERS.items() if k != "staff"}
    with pytest.raises(RuntimeError, match="element kinds without a drawer: staff"):
        check_drawers(missing, KINDS)


def test_a_drawer_without_a_declared_kind_is_refused():
    extra = {**DRAWERS, "hexagon": DRAWERS["polygon"]}
    with pytest.raises(RuntimeError, match="drawers for kinds model/elements.py does not declare: hexagon"):
        check_drawers(extra, KINDS)


def test_drawers_out_of_the_declarations_order_are_refused():
    shuffled = dict(reversed(DRAWERS.items()))
    with pytest.raises(RuntimeError, match="order"):
        check_drawers(shuffled, KINDS)


def test_a_second_drawer_for_a_kind_is_refused():
    with pytest.raises(RuntimeError, match="two drawers for element kind 'rect'"):
        draws("rect")(lambda ctx, e, values: [])
    assert DRAWERS["rect"].draw.__name__ == "rect"


# -- made bleed: `bleed: mirror | extend` on an image ------------------------------------------------

import io  # noqa: E402

import pypdfium2 as pdfium  # noqa: E402
from PIL import Image as PILImage, ImageDraw  # noqa: E402
from pypdf import PdfReader  # noqa: E402

from deckpress.builder.deckbuild import build_deck  # noqa: E402
from deckpress.compose import Composer  # noqa: E402
from deckpress.errors import Warnings  # noqa: E402
from deckpress.face import Group, Image, bounds  # noqa: E402
from deckpress.model import load_deck  # noqa: E402
from tests.pdfread import placements, trim_box_mm  # noqa: E402

YELLOW, BLUE, MAGENTA = (240, 220, 120), (40, 90, 200), (200, 40, 160)
RED, CYAN, GREEN = (220, 30, 30), (20, 200, 220), (30, 160, 60)


def edged_art() -> bytes:
    """Poker art at 300 dpi that stops at the trim, its edges told apart: a blue band down the left
    and a magenta one along the top (40 px, 3.4 mm), their outermost column red and row cyan, the
    corner pixel green; yellow elsewhere."""
    art = PILImage.new("RGB", (750, 1050), YELLOW)
    draw = ImageDraw.Draw(art)
    draw.rectangle([0, 0, 39, 1049], fill=BLUE)
    draw.rectangle([0, 0, 749, 39], fill=MAGENTA)
    draw.line([(0, 0), (0, 1049)], fill=RED)
    draw.line([(0, 0), (749, 0)], fill=CYAN)
    art.putpixel((0, 0), GREEN)
    buffer = io.BytesIO()
    art.save(buffer, format="PNG")
    return buffer.getvalue()


BLEED_DECK = """
    id: madebleed
    title: Made bleed
    designer: Test
    license: CC0-1.0
    card: poker
    gap: 8mm
    layouts: [madebleed]
    components:
      - name: cards
        front: front
        cards:
          - {made: mirror}
          - {made: extend}
          - {made: none}
          - {made: mirror, inset: true}
"""

BLEED_LAYOUT = """
    templates:
      front:
        fields: {made: none, inset: false}
        elements:
          - image: {src: art/edged.png, x: 0mm, y: 0mm, w: 100%, h: 100%, fit: stretch, bleed: "{made}",
                    when: {inset: false}}
          - image: {src: art/edged.png, x: 5mm, y: 5mm, w: 30mm, h: 40mm, bleed: mirror, when: {inset: true}}
"""


@pytest.fixture
def bleed_deck(make_deck):
    return make_deck(BLEED_DECK, {"madebleed": BLEED_LAYOUT}, {"art/edged.png": edged_art()})


def test_a_picture_at_the_trim_grows_into_the_bleed_on_the_face(bleed_deck):
    deck = load_deck(bleed_deck)
    warn = Warnings()
    composer = Composer(deck, warn)
    component = deck.components[0]
    mirror, extend, plain, inset = (composer.face(card, component.front) for card in component.cards)
    picture = plain.items[0]
    assert plain.items == (picture,) and (picture.x, picture.y, picture.w, picture.h) == (0, 0, 63.5, 88.9)
    for face in (mirror, extend):
        assert face.items[0] == picture and len(face.items) == 9
        assert sorted(tuple(round(v, 2) for v in bounds(c)) for c in face.items[1:]) == [
            (-3.0, -3.0, 0.0, 0.0), (-3.0, 0.0, 0.0, 88.9), (-3.0, 88.9, 0.0, 91.9),
            (0.0, -3.0, 63.5, 0.0), (0.0, 88.9, 63.5, 91.9),
            (63.5, -3.0, 66.5, 0.0), (63.5, 0.0, 66.5, 88.9), (63.5, 88.9, 66.5, 91.9)]
    assert all(c.items[0] is mirror.items[0] for c in mirror.items[1:])  # one picture, placed again
    assert {c.items[0].crop for c in extend.items[1:]} == {
        (0, 0, 1, 1050), (749, 0, 750, 1050), (0, 0, 750, 1), (0, 1049, 750, 1050),
        (0, 0, 1, 1), (749, 0, 750, 1), (0, 1049, 1, 1050), (749, 1049, 750, 1050)}
    assert len(inset.items) == 1 and isinstance(inset.items[0], Image)  # 5 mm in: it stops where it stops
    said, = [w for w in warn if w.kind == "made-bleed"]
    line = next(i for i, text in enumerate((bleed_deck / "layouts" / "madebleed.yaml").read_text().splitlines(), 1)
                if "x: 5mm" in text)
    assert "art/edged.png reaches no edge of the trim, so `bleed: mirror` makes no bleed" in said.message
    assert (said.file, said.line) == (str(bleed_deck / "layouts" / "madebleed.yaml"), line)


def sheet_cards(path, dpi: int = 150):
    """The first sheet rendered, and each card's trim on it (x0, y0, x1, y1 in mm from the top-left)."""
    reader = PdfReader(str(path))
    page = reader.pages[0]
    height = float(page.mediabox.height)
    trims = [trim_box_mm(p, 63.5, 88.9, height) for p in placements(page)]
    pdf = pdfium.PdfDocument(str(path))
    picture = pdf[0].render(scale=dpi / 72).to_pil().convert("RGB")
    pdf.close()
    return picture, trims


def colour_at(picture, trim, x: float, y: float, dpi: int = 150):
    """The colour at (x, y) mm from a card's trim corner, as the card is seen upright: the sheet may
    turn cards, so the point is found through the trim's shape."""
    x0, y0, x1, y1 = trim
    if x1 - x0 > y1 - y0:  # turned a quarter: the card's x runs down the sheet, its y leftwards
        raise AssertionError("cards are upright on this sheet")
    return picture.getpixel((round((x0 + x) / 25.4 * dpi), round((y0 + y) / 25.4 * dpi)))


def near(a, b, tolerance: int = 14) -> bool:
    return all(abs(p - q) <= tolerance for p, q in zip(a, b))


def test_the_bleed_made_prints_the_edge_mirrored_or_stretched_and_none_stays_white(bleed_deck, tmp_path):
    build_deck(bleed_deck, tmp_path / "out", ["a3"], inks=["color"])
    picture, trims = sheet_cards(tmp_path / "out" / "madebleed" / "madebleed-cards-a3.pdf")
    assert len(trims) == 4
    mirror, extend, plain, _ = trims
    # 1.5 mm into the bleed: the mirror shows what lies 1.5 mm in (the bands), extend the outermost pixels
    left, top, corner, inside = (-1.5, 44.45), (31.75, -1.5), (-1.5, -1.5), (20.0, 44.45)
    assert near(colour_at(picture, mirror, *left), BLUE) and near(colour_at(picture, mirror, *top), MAGENTA)
    assert near(colour_at(picture, mirror, *corner), MAGENTA)  # (1.5, 1.5) in, where the top band lies over the left
    assert near(colour_at(picture, extend, *left), RED) and near(colour_at(picture, extend, *top), CYAN)
    assert near(colour_at(picture, extend, *corner), GREEN)
    for side in (mirror, extend):  # the right and bottom edges, yellow: yellow out to the bleed's edge
        assert near(colour_at(picture, side, 65.0, 44.45), YELLOW) and near(colour_at(picture, side, 31.75, 90.4), YELLOW)
        assert near(colour_at(picture, side, 65.0, 90.4), YELLOW)
    for point in (left, top, corner, (65.0, 44.45), (31.75, 90.4)):
        assert near(colour_at(picture, plain, *point), (255, 255, 255), 2)  # no bleed asked for: the paper
    for trim in (mirror, extend, plain):
        assert near(colour_at(picture, trim, *inside), YELLOW)


TURNED_LAYOUT = """
    templates:
      front:
        fields: {turn: 0}
        elements:
          - image: {src: art/edged.png, x: 0mm, y: 0mm, w: 100%, h: 20mm, fit: stretch, bleed: mirror,
                    rotate: "{turn}"}
"""


def test_a_band_turned_half_round_grows_into_the_bleed_where_it_lies_and_a_quarter_turn_is_said(make_deck):
    deck_text = """
        id: turned
        title: Turned
        designer: Test
        license: CC0-1.0
        card: poker
        layouts: [turned]
        components:
          - name: cards
            front: front
            cards: [{turn: 180}, {turn: 90}]
    """
    deck = load_deck(make_deck(deck_text, {"turned": TURNED_LAYOUT}, {"art/edged.png": edged_art()}))
    warn = Warnings()
    composer = Composer(deck, warn)
    half, quarter = (composer.face(card, deck.components[0].front) for card in deck.components[0].cards)
    turned, = half.items
    assert turned.transform[:4] == (-1.0, 0.0, 0.0, -1.0)
    assert sorted(tuple(round(v, 2) for v in bounds(Group((copy,), turned.transform))) for copy in turned.items[1:]) == [
        (-3.0, -3.0, 0.0, 0.0), (-3.0, 0.0, 0.0, 20.0), (0.0, -3.0, 63.5, 0.0),
        (63.5, -3.0, 66.5, 0.0), (63.5, 0.0, 66.5, 20.0)]  # up, left and right of the band: not below it
    assert len(quarter.items) == 1 and len(quarter.items[0].items) == 1
    said, = [w.message for w in warn if w.kind == "made-bleed"]
    assert "is turned 90°, so `bleed: mirror` makes no bleed" in said


# -- small text: text set below the deck's `min-size` ---------------------------------------------

from deckpress.api import check  # noqa: E402
from deckpress.errors import DeckError, display_path  # noqa: E402
from deckpress.face import Text  # noqa: E402
from deckpress.units import PT  # noqa: E402

# a word that shrinks on one line in a narrow box: "Shrinking" and "Shrunken" to between 5 and 6 pt
SMALL_LAYOUT = """
templates:
  front:
    fields: {word: ~}
    elements:
      - rect: {x: 0mm, y: 0mm, w: 100%, h: 100%, fill: "#ffffff"}
      - text: {text: "{word}", x: 5mm, y: 5mm, w: 9mm, h: 10mm,
               size: 12pt, min-size: 4pt, wrap: false}
      - text: {text: "Fits", x: 5mm, y: 20mm, w: 30mm, h: 10mm, size: 9pt}
"""


def small_deck(make_deck, deck_min_size: str | None = None):
    return make_deck(f"""
        id: small
        title: Small
        designer: Test
        license: CC0-1.0
        {f"min-size: {deck_min_size}" if deck_min_size else ""}
        layouts: [small]
        components:
          - {{name: things, front: front, cards: [{{word: Shrinking}}, {{word: Shrunken}}, {{word: Big}}]}}
    """, {"small": SMALL_LAYOUT})


def word_sizes(folder) -> dict[str, float]:
    """Each card's word as composed, and the size (pt) it is set at."""
    deck = load_deck(folder)
    composer = Composer(deck, Warnings())
    sizes = {}
    for card in deck.components[0].cards:
        face = composer.face(card, deck.components[0].front)
        sizes.update({item.text: round(item.size / PT, 2) for item in face.items
                      if isinstance(item, Text) and item.text != "Fits"})
    return sizes


def test_text_shrunk_below_the_decks_min_size_is_said_once_at_the_layout_line_that_places_it(make_deck):
    folder = small_deck(make_deck)
    sizes = word_sizes(folder)
    assert 5 < sizes["Shrinking"] < 6 and 5 < sizes["Shrunken"] < 6 and sizes["Big"] == 12  # the default is 6pt
    result = check(folder)
    small = [w for w in result.warnings if w.kind == "small-text"]
    line = SMALL_LAYOUT.splitlines().index('      - text: {text: "{word}", x: 5mm, y: 5mm, w: 9mm, h: 10mm,') + 1
    assert [(w.file, w.line) for w in small] == [(display_path(folder / "layouts" / "small.yaml"), line)]
    message = small[0].message
    assert f"is set at {sizes['Shrinking']:g}pt" in message and "below the deck's min-size of 6pt" in message
    assert "template 'front'" in message and "(card things #1)" in message
    assert [w.kind for w in result.warnings] == ["small-text"]  # it fits: no text-overflow


def test_a_deck_whose_min_size_allows_the_size_gets_no_warning(make_deck):
    result = check(small_deck(make_deck, "5pt"))
    assert not result.warnings.records


def test_a_deck_min_size_above_a_texts_own_size_warns_of_it_unshrunk(make_deck):
    result = check(small_deck(make_deck, "10pt"))
    said = {w.line: w.message for w in result.warnings if w.kind == "small-text"}
    fits = SMALL_LAYOUT.splitlines().index('      - text: {text: "Fits", x: 5mm, y: 20mm, w: 30mm, h: 10mm, size: 9pt}') + 1
    assert len(said) == 2 and "is set at 9pt" in said[fits]  # "Fits" at its own 9pt, the word shrunk


@pytest.mark.parametrize("value, says", [("0pt", "greater than zero"), ("6", "no unit"), ("-1pt", "greater than zero")])
def test_a_deck_min_size_that_is_no_size_is_refused_at_its_line(make_deck, value, says):
    with pytest.raises(DeckError, match=says) as caught:
        load_deck(small_deck(make_deck, value))
    assert caught.value.line == 6  # the deck file begins with an empty line


# --- markup slips: warned once an element and slip, at the layout line of the text ----------------------------

SLIPS_LAYOUT = """
templates:
  front:
    fields: {rule: ~}
    elements:
      - text: {text: "[Hot!{{color=ember}} deal 2", x: 5mm, y: 5mm, w: 50mm, h: 8mm}
      - text: {text: "**Hot** deal **2 damage", x: 5mm, y: 15mm, w: 50mm, h: 8mm}
      - text: {text: "deal *2 damage", x: 5mm, y: 25mm, w: 50mm, h: 8mm}
      - text: {text: "pay :ember then", x: 5mm, y: 35mm, w: 50mm, h: 8mm}
      - text: {text: "{rule}", x: 5mm, y: 45mm, w: 50mm, h: 8mm}
"""
FIXED = ["[Hot!]{{color=ember}} deal 2", "**Hot** deal **2** damage", "deal *2* damage", "pay :ember: then"]


def slips_deck(make_deck, layout: str, rules: list[str]):
    cards = ", ".join(f"{{rule: '{rule}'}}" for rule in rules)
    return make_deck(f"""
        id: slips
        title: Slips
        designer: Test
        license: CC0-1.0
        palette:
          ember: {{color: "#c33", symbol: circle}}
        layouts: [slips]
        components:
          - {{name: rules, front: front, cards: [{cards}]}}
    """, {"slips": layout.replace("{{", "{").replace("}}", "}")})


def test_each_markup_slip_is_warned_once_at_the_layout_line_of_its_text(make_deck):
    folder = slips_deck(make_deck, SLIPS_LAYOUT, ["ok", "also ok"])
    result = check(folder)
    lines = SLIPS_LAYOUT.splitlines()
    at = [i + 1 for i, line in enumerate(lines) if line.startswith("      - text:")][:4]
    slips = [w for w in result.warnings if w.kind == "markup"]
    layout = display_path(folder / "layouts" / "slips.yaml")
    assert [(w.file, w.line) for w in slips] == [(layout, line) for line in at]  # once, though on two cards
    says = ["has span keys '{color=ember}' that follow no '[words]'",
            "has '**' that is never closed: the rest of the text is bold, from '2 damage'",
            "has '*' that is never closed: the rest of the text is italic, from '2 damage'",
            "has ':ember' without its closing colon: it prints as it is (write ':ember:')"]
    for warning, said, line in zip(slips, says, at):
        assert said in warning.message, warning.message
        assert "card rules #1: " in warning.message
        assert f"template 'front' ({layout}:{line})" in warning.message
    assert [w.kind for w in result.warnings] == ["markup"] * 4


def test_a_slip_in_a_cards_field_is_warned_at_the_card_once_a_place(make_deck):
    """A slip in a card's own text is said at the card's line, where it is mended; cards written
    on one line share one warning."""
    folder = slips_deck(make_deck, SLIPS_LAYOUT.split("      - text: {text: \"[Hot")[0]
                        + '      - text: {text: "{rule}", x: 5mm, y: 45mm, w: 50mm, h: 8mm}\n',
                        ["**a", "**a", "b*", "fine"])
    slips = [w for w in check(folder).warnings if w.kind == "markup"]
    assert len(slips) == 2 and "card rules #1:" in slips[0].message and "card rules #3:" in slips[1].message, slips
    assert {(w.file, w.line) for w in slips} == {(display_path(folder / "deck.yaml"), 10)}


def test_fixed_markup_is_not_warned(make_deck):
    layout = SLIPS_LAYOUT
    for slip, fixed in zip(["[Hot!{{color=ember}} deal 2", "**Hot** deal **2 damage", "deal *2 damage",
                            "pay :ember then"], FIXED):
        layout = layout.replace(slip, fixed)
    result = check(slips_deck(make_deck, layout, ["ok", r"5 \* 3 \[1\]"]))
    assert not result.warnings.records, result.warnings.messages
