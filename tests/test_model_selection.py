"""Playtest builds of some cards (`--only FIELD=VALUE[,VALUE…]`), and a deck's `version:` on its
sheets and cards: read back from the PDFs written."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from deckpress import cli
from deckpress.errors import DeckError
from deckpress.model import load_deck
from deckpress.model.selection import Only, select
from tests.pdfread import page_text, placements

LAYOUT = """
    templates:
      front:
        fields: {title: ~, suit: ~, tags: []}
        elements:
          - text: {text: "{title} {card.number}/{card.total} v{deck.version}", x: 4mm, y: 4mm, w: 100% - 8mm, h: 12mm, size: 9pt}
      back:
        elements:
          - rect: {x: -bleed, y: -bleed, w: 100% + 2*bleed, h: 100% + 2*bleed, fill: "#223344"}
"""

DECK = """
    id: playtest
    title: Playtest
    designer: Test
    license: CC0-1.0
    version: "0.4 playtest"
    layouts: [play]
    components:
      - name: goods
        front: front
        back: back
        cards:
          - {title: Stall, suit: wood, tags: [market, cheap], count: 2}
          - {title: Mill, suit: stone}
          - {title: Barn, suit: wood}
      - name: events
        front: front
        cards:
          - {title: Storm, suit: sky, tags: [weather]}
"""


def run(*args: str):
    return CliRunner().invoke(cli.main, list(args))


@pytest.fixture
def deck(make_deck) -> Path:
    return make_deck(DECK, {"play": LAYOUT})


def printed(deck) -> list[tuple[str, str, int]]:
    return [(c.name, card.name, card.number) for c in deck.components for card in c.cards]


@pytest.mark.parametrize("conditions, cards", [
    (["component=events"], [("events", "Storm", 1)]),
    (["name=mill,BARN"], [("goods", "Mill", 2), ("goods", "Barn", 3)]),  # any of the values, any case
    (["suit=wood"], [("goods", "Stall", 1), ("goods", "Barn", 3)]),
    (["suit=wood", "tags=cheap"], [("goods", "Stall", 1)]),  # every condition; a list field holds if an item does
    (["number=1"], [("goods", "Stall", 1), ("events", "Storm", 1)]),
])
def test_only_keeps_the_cards_every_condition_holds_for(deck, conditions, cards):
    loaded = load_deck(deck)
    chosen = select(loaded, [Only.parse(c) for c in conditions])
    assert printed(chosen) == cards
    assert chosen.box is False and loaded.box is True
    goods = next((c for c in chosen.components if c.name == "goods"), None)
    if goods is not None:  # the list keeps its length: {card.total} prints as in the whole deck
        assert goods.total == 3


@pytest.mark.parametrize("condition, said, hint", [
    ("colour=wood", "--only colour=wood: no card of deck 'playtest' has a field 'colour'", None),
    ("sute=wood", "--only sute=wood: no card of deck 'playtest' has a field 'sute'", "suit"),
    ("suit=wod", "--only suit=wod: no card of deck 'playtest' matches", "wood"),
    ("suit=iron", "--only suit=iron: no card of deck 'playtest' matches (its suit values: sky, stone, wood)", None),
])
def test_only_names_a_field_or_value_no_card_has_with_the_closest(deck, condition, said, hint):
    with pytest.raises(DeckError) as caught:
        select(load_deck(deck), [Only.parse(condition)])
    assert caught.value.message.startswith(said), caught.value.message
    assert caught.value.suggestion == hint


@pytest.mark.parametrize("written", ["suit", "=wood", "suit=", "suit=,"])
def test_only_written_wrong_is_one_line_with_exit_status_2(deck, tmp_path, written):
    result = run("build", str(deck), "--only", written, "--out", str(tmp_path))
    assert result.exit_code == 2 and result.output.count("\n") == 1, result.output
    assert result.output.startswith(f"error: --only '{written}': expected FIELD=VALUE[,VALUE…]")
    assert not (tmp_path / "playtest").exists()


def test_a_playtest_build_prints_only_those_cards_numbered_as_in_the_deck_with_no_box(deck, tmp_path):
    result = run("build", str(deck), "--only", "suit=wood", "--paper", "a4", "--ink", "color", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    folder = tmp_path / "playtest"
    assert sorted(p.name for p in folder.iterdir()) == [
        "playtest-backs-a4.pdf", "playtest-cards-a4.pdf", "playtest-duplex-a4.pdf"]  # no box, no events
    reader = PdfReader(folder / "playtest-cards-a4.pdf")
    assert len(reader.pages) == 1 and len(placements(reader.pages[0])) == 3  # Stall twice, Barn
    text = page_text(folder / "playtest-cards-a4.pdf", 0)
    assert "Stall 1/3" in text and "Barn 3/3" in text and "Mill" not in text and "Storm" not in text
    assert result.output.startswith("playtest: 3 cards, 3 distinct faces, 4 pages in 3 files")


def test_the_version_is_on_every_sheets_label_in_the_subject_and_where_a_layout_prints_it(deck, tmp_path):
    result = run("build", str(deck), "--paper", "a4", "--ink", "lowink", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    folder = tmp_path / "playtest"
    for pdf in sorted(folder.glob("*.pdf")):
        reader = PdfReader(pdf)
        assert reader.metadata.subject.startswith("Playtest (version 0.4 playtest) by Test"), pdf.name
        for index in range(len(reader.pages)):
            assert f"Playtest · version 0.4 playtest · {pdf.name} · page {index + 1}/" in page_text(pdf, index), \
                (pdf.name, index)
    assert "Stall 1/3 v0.4 playtest" in page_text(folder / "playtest-cards-lowink-a4.pdf", 0)


def test_a_deck_without_a_version_prints_none(make_deck, tmp_path):
    folder = make_deck(DECK.replace('    version: "0.4 playtest"\n', ""), {"play": LAYOUT})
    assert load_deck(folder).version == "" and load_deck(folder).meta_fields["deck.version"] == ""
    result = run("build", str(folder), "--paper", "a4", "--ink", "color", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    text = page_text(tmp_path / "playtest" / "playtest-cards-a4.pdf", 0)
    assert "version" not in text and "Stall 1/3 v" in text
