"""The key tables: every key in a table is one the loaders accept, and the loaders check every
mapping of a deck or layout file against a table (so no key is accepted that no table declares)."""

from __future__ import annotations

import io

import openpyxl
import pytest
from PIL import Image

import deckpress.model.deck
import deckpress.model.layout
from deckpress.bundled import FONTS_DIR
from deckpress.errors import DeckError
from deckpress.model import load_deck
from deckpress.model.elements import KINDS
from deckpress.model.keys import CARD, SPAN, TABLES, Keys, check_keys

# a deck and a layout that use every key of every table
EVERY_KEY_DECK = """
    id: every-key
    title: Every Key
    designer: Test
    license: CC0-1.0
    players: 2–4
    language: en
    card: {width: 60mm, height: 90mm, radius: 2mm}
    bleed: 2mm
    gap: 2mm
    min-size: 5pt
    layouts: [every-key]
    fonts:
      hand: {regular: fonts/r.ttf, bold: fonts/b.ttf, italic: fonts/i.ttf, bolditalic: fonts/bi.ttf}
      wide: {regular: {file: fonts/v.ttf, index: 0, instance: SemiBold, axes: {wght: 600}}}
    palette:
      red: {color: "#cc2233", symbol: circle}
    box: {cover: things 2, contents: "{cards} things · 1 rule sheet", font: hand, credit: false, subtitle: a test}
    components:
      - name: things
        front: front
        back: back
        sheet: cards
        size: poker
        shape: {rounded: 4mm}
        standee: 5mm
        copies: players
        fields: {title: Thing}
        cards:
          - {count: 2}
          - {title: Two}
      - name: more-things
        front: front
        cards: {file: more.xlsx, sheet: Things}
    version: "0.4"
"""

EVERY_KEY_LAYOUT = """
    colors: {ink: "#222222"}
    icons:
      sharp: {glyph: "♯", font: music, scale: 1.2, color: ink, bold: 0.04}
      hit: {symbol: star}
      sun: {image: sun.png}
    templates:
      base:
        doc: The card everything else builds on.
        fields: {title: ~}
        elements:
          - rect: {x: 0mm, y: 0mm, w: 100%, h: 100%, fill: white}
      front:
        extends: base
        elements:
          - text: {text: "{title} :sharp: :hit: :sun:", font: hand-bold}
      back:
        elements: []
"""


def _xlsx() -> bytes:
    """A workbook whose second sheet, Things, lists two cards."""
    book = openpyxl.Workbook()
    book.active.append(["not", "this", "one"])
    things = book.create_sheet("Things")
    for row in (["title", "count"], ["Three", 3], ["Four", None]):
        things.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (4, 4), "orange").save(out, "PNG")
    return out.getvalue()


def _variable_font(folder) -> bytes:
    from tests import fontmaking

    return fontmaking.variable(folder / "v.ttf").read_bytes()


def test_the_loaders_accept_every_key_of_every_table_and_check_against_tables_only(make_deck, monkeypatch, tmp_path):
    seen: dict[str, set[str]] = {}
    tables = {t.name: t for t in (*TABLES, *KINDS.values())}

    def recording(node, keys, context=None):
        assert isinstance(keys, Keys) and tables.get(keys.name) is keys, keys
        seen.setdefault(keys.name, set()).update(node)
        check_keys(node, keys, context)

    for module in (deckpress.model.deck, deckpress.model.layout):
        monkeypatch.setattr(module, "check_keys", recording)
    fonts = {f"fonts/{short}.ttf": (FONTS_DIR / f"NotoSans-{style}.ttf").read_bytes()
             for short, style in (("r", "Regular"), ("b", "Bold"), ("i", "Italic"), ("bi", "BoldItalic"))}
    fonts["fonts/v.ttf"] = _variable_font(tmp_path)
    folder = make_deck(EVERY_KEY_DECK, {"every-key": EVERY_KEY_LAYOUT}, {**fonts, "sun.png": _png(), "more.xlsx": _xlsx()})
    deck = load_deck(folder)
    assert [(c.fields["title"], c.count) for c in deck.components[1].cards] == [("Three", 3), ("Four", 1)]
    assert deck.box_cover == ("things", 2) and deck.components[0].copies == 4
    assert deck.components[0].shape.kind == "rounded" and deck.components[0].size.radius == 4
    assert deck.components[0].standee == 5.0
    assert deck.box_contents == "{cards} things · 1 rule sheet"
    assert deck.box_font == "hand" and deck.box_credit is False and deck.box_subtitle == "a test"
    # a card's keys are its templates' fields and the CARD table's, checked together by the deck loader
    assert deck.components[0].cards[0].count == 2 and CARD.key_names == ["count"]
    # the keys only a deck that builds on another has
    child = folder.parent / "child"
    child.mkdir()
    (child / "deck.yaml").write_text("extends: ../deck\nid: child\ncolors: {ink: '#000000'}\n", encoding="utf-8")
    assert load_deck(child).layouts.colors["ink"] != deck.layouts.colors["ink"]
    for table in TABLES:
        if table not in (CARD, SPAN):  # a span's keys are markup, which the text engine reads (test_text_setting)
            assert seen.get(table.name) == set(table.key_names), table.name


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.name)
def test_required_keys_and_defaults_are_consistent(table):
    for key in table.keys:
        assert not (key.required and key.default is not None), (table.name, key.name)
        assert not key.choices or key.default is None or key.default in key.choices, (table.name, key.name)


def test_an_unknown_key_names_file_line_and_the_nearest_table_key(make_deck):
    folder = make_deck(EVERY_KEY_DECK.replace("    bleed: 2mm", "    bled: 2mm"),
                       {"every-key": EVERY_KEY_LAYOUT.replace("scale: 1.2", "scal: 1.2")})
    with pytest.raises(DeckError) as error:
        load_deck(folder)
    assert str(error.value).endswith("deck.yaml:9: unknown key 'bled' in deck — did you mean 'bleed'?")
    assert "\n" not in str(error.value)
