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


# -- the faces' balance, the flat, the rule text's music symbols (issue 20) ---------------------

def _composed():
    from deckpress.builder.faces import compose_faces
    from deckpress.errors import Warnings
    return compose_faces(load_deck("metronome"), Warnings())


def _items(items, kind):
    """Every item of a type in a face, with groups' items; the templates checked here place their
    pictures in unturned groups, so item coordinates are face coordinates."""
    from deckpress.face import Group
    for item in items:
        if isinstance(item, Group):
            yield from _items(item.items, kind)
        elif isinstance(item, kind):
            yield item


def _ink(text):
    """A Text item's ink box in face mm (x0, top, x1, bottom), its outline (`stroke`) included."""
    from deckpress.text.fonts import open_font
    x0, y0, x1, y1 = open_font(text.font).bounds(text.text)
    half = text.stroke / 2
    return (text.x + x0 * text.size - half, text.y - y1 * text.size - half,
            text.x + x1 * text.size + half, text.y - y0 * text.size + half)


MUSIC = {"\U0001D15D", "\U0001D15E", "\U0001D15F", "\U0001D160", "\U0001D13B", "\U0001D13C", "\U0001D13D",
         "\U0001D13E"}


def test_note_and_rest_faces_use_the_card_from_under_the_index_to_above_the_bottom_corner():
    """The picture starts below the top corner's index and symbol (which end at 22 mm) instead of
    squeezing up beside them, and the 'then' panel sits low, ending within 4 mm of the bottom
    index (75 mm), left of the bottom corner's symbol; before, 10.5 mm stood empty there."""
    from deckpress.face import Rect, Text
    faces = _composed()
    seen = 0
    for e in faces.entries:
        if e.component not in ("notes", "rests"):
            continue
        glyphs = [t for t in _items(e.front.items, Text) if t.text in MUSIC]
        assert len(glyphs) == 1
        top = _ink(glyphs[0])[1]
        assert top >= 22.0, (e.component, e.number, top)
        panel = [r for r in _items(e.front.items, Rect) if r.h == 9.0 and r.radius == 4.5]
        assert len(panel) == 1, (e.component, e.number)
        assert 75.0 - (panel[0].y + panel[0].h) <= 4.0
        assert panel[0].x + panel[0].w < 63.5 - 10.0 - 3.5  # the bottom symbol's left edge
        seen += 1
    assert seen == 36


def test_time_signature_numerals_start_below_the_corner_index():
    from deckpress.face import Text
    faces = _composed()
    for e in faces.entries:
        if e.component != "time-signatures":
            continue
        numerals = [t for t in _items(e.front.items, Text) if t.text in "3456" and t.size > 15]
        assert len(numerals) == 2
        tops = sorted(_ink(t)[1] for t in numerals)
        assert tops[0] >= 14.0 + 3.0  # the index box ends at 14 mm, the frame at 3 mm
        bottom = max(_ink(t)[3] for t in numerals)
        title = next(t for t in _items(e.front.items, Text) if "beats" in t.text)
        assert bottom < title.y - title.size * 0.75  # above the title's capitals


def test_the_flat_is_as_bold_and_as_tall_as_the_sharp_and_upright_in_both_corners(metronome_build):
    from deckpress.face import Text
    from tests.pdfread import char_angles
    faces = _composed()
    big = {}
    for e in faces.entries:
        if e.component == "accidentals":
            for t in _items(e.front.items, Text):
                if t.text in "♯♭" and t.size > 15:
                    big[t.text] = t
    flat, sharp = _ink(big["♭"]), _ink(big["♯"])
    assert flat[3] - flat[1] >= 0.85 * (sharp[3] - sharp[1])
    # the music font's flat stem is 37 units of 1000 wide, its sharp's 47: bolder by the outline
    assert big["♭"].stroke / big["♭"].size >= 0.03
    assert (0.037 * big["♭"].size + big["♭"].stroke) >= 0.047 * big["♯"].size
    folder, _ = metronome_build
    path = pdf(folder, "cards", "a4")
    from pypdf import PdfReader
    angles = Counter(a for page in range(len(PdfReader(path).pages))
                     for c, a, *_ in char_angles(path, page) if c == "♭")
    # two flat cards, each with its picture and an upright flat in both corners: none reads as a "q"
    assert angles == Counter({0: 6})


def test_music_symbols_in_the_rule_texts_are_large_enough_to_read():
    """Ink heights in ems of the text around them: before, a whole rest was 0.13 em (a dash),
    a whole note 0.25 em and an eighth rest 0.46 em."""
    from deckpress.face import Text
    least = {"\U0001D13B": 0.3, "\U0001D13C": 0.3, "\U0001D15D": 0.4, "\U0001D13D": 0.75, "\U0001D13E": 0.75,
             "\U0001D15E": 1.0, "\U0001D15F": 1.0, "\U0001D160": 1.0}
    found = set()
    for e in _composed().entries:
        if e.component != "rules":
            continue
        texts = list(_items(e.front.items, Text))
        body = Counter(round(t.size, 3) for t in texts if t.text.strip() and t.text[0].isalpha()).most_common(1)[0][0]
        for t in texts:
            if t.text in least:
                x0, top, x1, bottom = _ink(t)
                assert bottom - top >= least[t.text] * body, (e.number, hex(ord(t.text)), (bottom - top) / body)
                found.add(t.text)
    assert found == set(least)


def test_the_cramming_card_says_a_dot_on_an_eighth_could_fill_the_quarter_beat(metronome_build):
    folder, _ = metronome_build
    text = " ".join(" ".join(page_text(pdf(folder, "rules-board", "a4"), i).split()) for i in range(2))
    assert "exactly ¼ beat short of full" in text and "a dot on an eighth (½ ➔ ¾) could have filled it" in text
    assert "nothing can fill" not in text
