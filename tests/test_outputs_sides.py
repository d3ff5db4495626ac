"""Naming card sides: one file per distinct face, names a person can find a card by."""

from __future__ import annotations

from deckpress.builder.faces import compose_faces
from deckpress.errors import Warnings
from deckpress.model import load_deck
from deckpress.outputs.sides import file_stems, slug


def test_slugs_spell_out_music_and_drop_accents():
    assert slug("G♯/A♭") == "g-sharp-a-flat"
    assert slug("Richtungswechsel") == "richtungswechsel"
    assert slug("Größe +2") == "grosse-plus-2"
    assert slug("?") == ""


def test_a_shared_back_is_one_file_named_after_its_component():
    entries = compose_faces(load_deck("test-piece"), Warnings()).entries
    stems = file_stems(entries)
    backs = {stems[("back", e.back)] for e in entries if e.back is not None}
    assert {"silver-back", "gold-back"} <= backs
    # silver and gold share their fronts: one file each, named after the first card showing it
    fronts = {stems[("front", e.front)] for e in entries if e.component in ("silver", "gold")}
    assert len(fronts) == 12 and all(s.startswith("silver-") for s in fronts)
    assert "silver-01-soprano-cornet-front" in fronts


def test_every_stem_is_unique_and_every_face_named():
    for deck_id in ("steps", "kanon", "metronome"):
        entries = compose_faces(load_deck(deck_id), Warnings()).entries
        stems = file_stems(entries)
        assert len(set(stems.values())) == len(stems)
        for e in entries:
            assert ("front", e.front) in stems and (e.back is None or ("back", e.back) in stems)


def test_copies_add_up_to_the_deck():
    deck = load_deck("circle-of-5", players=4)
    entries = compose_faces(deck, Warnings()).entries
    assert sum(e.copies for e in entries) == deck.card_count()
    assert {e.copies for e in entries if e.component == "cue-cards"} == {4}


FRUIT_DECK = """
    id: fruit
    title: Fruit
    designer: Test
    license: CC0-1.0
    layouts: [fruit]
    components:
      - name: fruit
        front: front
        back: back
        cards:
          - {value: 1, title: Apple}
          - {value: 2, name: Pear}
          - {value: 3, title: Cherry}
          - {value: 4, title: "Plum & Damson", count: 2}
          - {value: 1, title: Plum}
          - {value: 6}
          - {value: 7, title: "   "}
"""

FRUIT_LAYOUT = """
    templates:
      front:
        fields: {value: ~, name: "", title: ""}  # most fruit have a title, a few a name
        elements:
          - text: {text: "{value} {name}{title}", x: 5mm, y: 5mm, w: 100% - 10mm, h: 20mm}
      back:
        elements:
          - rect: {fill: black}
"""


def test_files_are_named_by_the_cards_name_or_title_when_it_has_one(make_deck):
    """An empty `name` (the template's default) does not hide the card's title."""
    deck = load_deck(make_deck(FRUIT_DECK, {"fruit": FRUIT_LAYOUT}))
    entries = compose_faces(deck, Warnings()).entries
    stems = file_stems(entries)
    assert [stems[("front", e.front)] for e in entries] == [
        "fruit-01-apple-front", "fruit-02-pear-front", "fruit-03-cherry-front", "fruit-04-plum-and-damson-front",
        "fruit-05-plum-front", "fruit-06-6-front", "fruit-07-7-front"]  # without a name, the value
    assert [e.name for e in entries] == ["Apple", "Pear", "Cherry", "Plum & Damson", "Plum", "6", "7"]
    assert stems[("back", entries[0].back)] == "fruit-back"
