"""The staff element: pitch names, where notes sit, ledger lines, accidentals, and mistakes."""

from __future__ import annotations

import pytest

from deckpress.compose.staff import staff_items
from deckpress.errors import DeckError
from deckpress.face import Line, Text
from deckpress.text.fonts import FontSet
from deckpress.model import load_deck
from deckpress.pitches import parse_pitches
from tests.conftest import SIMPLE_DECK, SIMPLE_LAYOUT

MUSIC = FontSet().families["music"].file("regular")
HEAD = "\U0001D15D"
SPACE = 2.0
TOP = 10.0  # the top line; the bottom line is at TOP + 4 spaces = 18


def parts(clef, notes):
    items = staff_items(0.0, TOP, 80.0, SPACE, clef, parse_pitches(notes), "whole", (0, 0, 0), 0.2, MUSIC)
    heads = [t for t in items if isinstance(t, Text) and t.text == HEAD]
    ledgers = [i for i in items if isinstance(i, Line)][5:]
    return items, heads, ledgers


def centre_y(text: Text) -> float:
    _, y0, _, y1 = MUSIC.bounds(text.text)
    return text.y - (y0 + y1) / 2 * text.size


def test_pitch_names():
    (c, fs, bb, e) = parse_pitches("C4 F#4, Bb3 E♭5")
    assert (c.letter, c.accidental, c.octave, c.step) == ("C", None, 4, 28)
    assert (fs.accidental, bb.accidental, bb.step, e.accidental) == ("♯", "♭", 27, "♭")
    with pytest.raises(ValueError, match="'H4' is not a pitch like C4"):
        parse_pitches("C4 H4")


@pytest.mark.parametrize("clef, note, line", [
    ("treble", "E4", 0), ("treble", "G4", 1), ("treble", "F5", 4), ("bass", "G2", 0), ("bass", "A3", 4),
    ("alto", "C4", 2), ("tenor", "C4", 3), ("none", "B4", 2),
])
def test_notes_sit_on_their_lines(clef, note, line):
    _, (head,), ledgers = parts(clef, note)
    assert centre_y(head) == pytest.approx(TOP + (4 - line) * SPACE)
    assert not ledgers


@pytest.mark.parametrize("note, ys", [("C4", [20.0]), ("B3", [20.0]), ("A5", [8.0]), ("C6", [8.0, 6.0]),
                                      ("D4", [])])
def test_ledger_lines_above_and_below(note, ys):
    _, (head,), ledgers = parts("treble", note)
    assert sorted((l.y1 for l in ledgers), reverse=True) == pytest.approx(sorted(ys, reverse=True))
    for l in ledgers:  # each ledger line is centred on its note
        assert (l.x1 + l.x2) / 2 == pytest.approx(head.x + sum(MUSIC.bounds(HEAD)[::2]) / 2 * head.size)


def test_accidentals_stand_left_of_their_note_and_notes_go_left_to_right():
    items, heads, _ = parts("treble", "F#4 Gb4")
    sharp, flat = (t for t in items if isinstance(t, Text) and t.text in "♯♭")
    assert sharp.x + MUSIC.bounds("♯")[2] * sharp.size < heads[0].x + MUSIC.bounds(HEAD)[0] * heads[0].size
    assert heads[0].x < flat.x < heads[1].x
    assert items[5].text == "\U0001D11E"  # the clef comes first, after the lines


STAFF_LAYOUT = SIMPLE_LAYOUT.replace(
    "          - text: {text: \"{title}\"",
    "          - staff: {x: 5mm, y: 30mm, w: 50mm, notes: \"{title}\"}\n          - text: {text: \"{title}\"")


def test_a_wrong_pitch_in_a_card_points_at_the_card(make_deck):
    from deckpress.compose import Composer
    deck = load_deck(make_deck(SIMPLE_DECK.replace("title: One", "title: C4").replace("title: Two", "title: X9"),
                               {"simple": STAFF_LAYOUT}))
    component = deck.components[0]
    with pytest.raises(DeckError, match="'X9' is not a pitch like C4") as err:
        for card in component.cards:
            Composer(deck).face(card, component.front)
    assert err.value.line == 16


def test_a_wrong_pitch_in_a_layout_is_found_when_loading(make_deck):
    layout = STAFF_LAYOUT.replace('notes: "{title}"', 'notes: "C4 Q4"')
    with pytest.raises(DeckError, match="staff notes: 'Q4' is not a pitch") as err:
        load_deck(make_deck(SIMPLE_DECK, {"simple": layout}))
    assert err.value.file.endswith("simple.yaml") and err.value.line == 7
