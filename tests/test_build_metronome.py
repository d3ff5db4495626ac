"""End to end: build the bundled metronome deck and read its own promises back from the PDFs.

What every bundled deck promises (files, grids, backs, duplex, page boxes, fonts, low ink, faces
stored once, rebuilds) is checked for metronome too, in test_decks.py."""

from __future__ import annotations

from collections import Counter

from deckpress.model import load_deck
from tests.pdfread import page_text


def pdf(folder, kind, paper):
    return folder / f"metronome-{kind}-{paper}.pdf"


def test_inventory_matches_the_rules():
    deck = load_deck("metronome")
    per_component = {c.name: c.card_count for c in deck.components}
    assert deck.card_count("cards") == 63
    assert per_component["notes"] == 27
    assert per_component["wild-rests"] + per_component["rests"] == 12
    assert per_component["dots"] == 7 and per_component["ties"] == 6
    assert per_component["accidentals"] == 6 and per_component["time-signatures"] == 5
    assert per_component["staff"] == 6 and per_component["rules"] == 12

    def tally(component, field):
        c = next(c for c in deck.components if c.name == component)
        return Counter({k: v for k, v in Counter(
            str(card.fields[field]) for card in c.cards for _ in range(card.count)).items()})

    assert tally("notes", "value") == {"whole": 3, "half": 6, "quarter": 9, "eighth": 9}
    assert tally("rests", "value") == {"quarter": 6, "eighth": 3}
    assert tally("accidentals", "kind") == {"sharp": 2, "natural": 2, "flat": 2}
    assert tally("time-signatures", "top") == {"3": 2, "5": 1, "6": 2}
    # every coloured note allows exactly two following colours, and each colour has 9 notes
    notes = next(c for c in deck.components if c.name == "notes").cards
    assert all(len(card.fields["next"]) == 2 for card in notes)
    assert Counter(card.fields["color"] for card in notes) == {"red": 9, "gold": 9, "blue": 9}
    assert next(c for c in deck.components if c.name == "staff").cards[0].fields["clef"] is True


def test_rules_and_music_symbols_extract_as_text(metronome_build):
    folder, _ = metronome_build
    rules = pdf(folder, "rules-board", "a4")
    text = page_text(rules, 0) + page_text(rules, 1)  # the rule cards' titles: test_decks.py
    assert "Guy T. Schafer" in text and "CC0" in text
    cards = page_text(pdf(folder, "cards", "a4"), 0)
    for symbol in ("\U0001D15D", "\U0001D15E", "\U0001D15F", "\U0001D160"):  # whole, half, quarter, eighth
        assert symbol in cards
    assert "♯" in page_text(pdf(folder, "cards", "a4"), 5)
    assert "print at 100 %" in cards and "page 1/7" in cards
