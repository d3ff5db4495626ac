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


def _world(items, matrix=None):
    """Every item of a face with the matrix it is drawn through (groups' transforms applied)."""
    from deckpress.face import IDENTITY, Group, multiply
    matrix = IDENTITY if matrix is None else matrix
    for item in items:
        if isinstance(item, Group):
            yield from _world(item.items, multiply(matrix, item.transform))
        else:
            yield item, matrix


def _box(item, matrix):
    """An item's box on the card, in face mm: a Text's ink, anything else its outline."""
    from deckpress.face import Text, apply, bounds
    x0, y0, x1, y1 = _ink(item) if isinstance(item, Text) else bounds(item)
    corners = [apply(matrix, x, y) for x in (x0, x1) for y in (y0, y1)]
    return (min(c[0] for c in corners), min(c[1] for c in corners),
            max(c[0] for c in corners), max(c[1] for c in corners))


STEMMED = {"\U0001D15E", "\U0001D15F", "\U0001D160"}


def test_note_and_rest_pictures_are_large_centred_and_clear_of_their_words():
    """Composed around the note (issue 36): the glyph alone, no staff lines behind it (a rhythm
    card has no pitch), centred across the card, a stemmed note at least 30 mm tall and a whole
    note's head 15 mm wide, readable at arm's length; at least 5 mm of air between it and the
    name's capitals (before: the note sat 2 mm above its title, under five empty staff lines)."""
    from deckpress.face import Line, Text
    seen = 0
    for e in _composed().entries:
        if e.component not in ("notes", "rests"):
            continue
        placed = list(_world(e.front.items))
        glyphs = [(t, m) for t, m in placed if isinstance(t, Text) and t.text in MUSIC]
        assert len(glyphs) == 1
        x0, top, x1, bottom = _box(*glyphs[0])
        char = glyphs[0][0].text
        assert abs((x0 + x1) / 2 - 63.5 / 2) <= 2.0, (e.component, e.number)
        if char in STEMMED:
            assert bottom - top >= 30.0, (e.number, bottom - top)
        elif char == "\U0001D15D":
            assert x1 - x0 >= 15.0
        else:  # rests
            assert bottom - top >= 17.0, (e.number, bottom - top)
        name = next(t for t, _ in placed if isinstance(t, Text) and (" note" in t.text or " rest" in t.text))
        assert name.y - 0.72 * name.size - bottom >= 5.0, (e.number, name.y - 0.72 * name.size - bottom)
        assert top >= 5.0 + 6.0  # below the frame, with room
        assert not [i for i, _ in placed if isinstance(i, Line)], "no staff lines on a note or rest card"
        seen += 1
    assert seen == 36


def test_every_frame_stands_at_least_4_mm_inside_the_trim():
    """On butted sheets a frame 3 mm in shows a 1 mm miscut as borders of 2 and 4 mm: the
    metronome frames now stand 5 mm in, their lines' outer edges 4.3 mm or more."""
    from deckpress.face import Rect
    checked, entries = 0, _composed().entries
    for e in entries:
        for item, _ in _world(e.front.items):
            if isinstance(item, Rect) and item.paint.stroke is not None and item.w > 40 and item.h > 60:
                half = item.paint.stroke_width / 2
                assert item.x - half >= 4.0 and item.y - half >= 4.0, (e.component, item.x - half)
                assert 63.5 - (item.x + item.w + half) >= 4.0 and 88.9 - (item.y + item.h + half) >= 4.0
                checked += 1
    # one frame on each of the deck's cards; the rule cards and the board's staff cards have none
    assert checked == sum(e.component not in ("rules", "staff") for e in entries) > 40


def test_the_tie_arcs_over_its_notes_and_its_index_is_upright_in_both_corners():
    """The rule places a tie above two notes: the arc is drawn above their heads (their stems
    turned down, as engraving puts a tie over stems-down notes). Each corner shows the tie over
    two note heads, upright at both ends: turned, arc under two dots, it read as a smile."""
    from deckpress.face import Ellipse, Path, Text
    tie = next(e for e in _composed().entries if e.component == "ties")
    placed = list(_world(tie.front.items))
    heads = [_box(t, m) for t, m in placed if isinstance(t, Text) and t.text == "\U0001D15F"]
    assert len(heads) == 2
    arcs = [_box(p, m) for p, m in placed if isinstance(p, Path)]
    big = max(arcs, key=lambda b: b[2] - b[0])
    # the arc reaches from over one head to over the other, and ends above both heads' ink
    assert big[0] <= min(h[0] for h in heads) + 6 and big[2] >= max(h[2] for h in heads) - 6
    head_tops = [h[1] for h in heads]  # stems down: a head's ink is the top of its glyph
    assert big[3] <= min(head_tops) + 0.5, (big, head_tops)
    stems_down = all(h[3] - h[1] > 20 for h in heads)
    assert stems_down
    # the corners: in each, an arc above two dots
    small = [b for b in arcs if b is not big]
    dots = [_box(c, m) for c, m in placed if isinstance(c, Ellipse)]
    assert len(small) == 2 and len(dots) == 4
    for arc in small:
        under = [d for d in dots if d[0] >= arc[0] - 1 and d[2] <= arc[2] + 1 and d[1] > arc[1]]
        assert len(under) == 2, "two note heads under each corner's arc"
        assert all(d[1] >= arc[3] - 0.5 for d in under), "the arc above the heads, not below them (a smile)"
    assert min(b[1] for b in small) < 20 and max(b[3] for b in small) > 88.9 - 20


def test_time_signature_numerals_start_below_the_corner_index():
    from deckpress.face import Text
    faces = _composed()
    for e in faces.entries:
        if e.component != "time-signatures":
            continue
        numerals = [t for t in _items(e.front.items, Text) if t.text in "3456" and t.size > 15]
        assert len(numerals) == 2
        tops = sorted(_ink(t)[1] for t in numerals)
        assert tops[0] >= 15.5 + 3.0  # the index box ends at 15.5 mm
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
