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
