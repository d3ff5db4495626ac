"""Steps (Musicards™ by Joseph E. Reed): build the bundled deck once and read its promises back
from the PDFs: the inventory, every pitch name and number on its card, the sheets, and the suit
symbols that must survive the low-ink build. What every bundled deck promises (files, grids, backs,
duplex, page boxes, fonts, text sizes, low ink, rebuilds) is checked for Steps too, in test_decks.py."""

from __future__ import annotations

from collections import Counter

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
import pytest
from pypdf import PdfReader

from deckpress.model import load_deck
from tests.faceread import text_items
from tests.pdfread import MM, page_text, placements, trim_box_mm

CARD_W, CARD_H = 63.5, 88.9
PAPER = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}

# The chromatic scale as the cards number it, from C: (number, names)
SCALE = [(1, ["C"]), (2, ["C♯", "D♭"]), (3, ["D"]), (4, ["D♯", "E♭"]), (5, ["E"]), (6, ["F"]),
         (7, ["F♯", "G♭"]), (8, ["G"]), (9, ["G♯", "A♭"]), (10, ["A"]), (11, ["A♯", "B♭"]), (12, ["B"])]
SUITS = {2: ("blue", "square", "bass"), 3: ("red", "circle", "bass"),
         4: ("green", "triangle", "treble"), 5: ("gold", "star", "treble")}


@pytest.fixture(scope="module")
def steps_build(bundled_builds):
    return bundled_builds("steps")


def pdf(folder, kind, paper):
    return folder / f"steps-{kind}-{paper}.pdf"


def expected_faces():
    """What each of the 54 deck cards is, in the order the sheets print them."""
    faces = []
    for octave in SUITS:
        for number, names in SCALE:
            faces.append({"kind": "pitch", "octave": octave, "number": number, "names": names})
    for octave in SUITS:
        faces.append({"kind": "?", "octave": octave})
    faces += [{"kind": "chromatic"}] * 2
    return faces


def card_regions(path):
    """(page index, trim box in mm from the top-left) of every card face, in print order."""
    reader = PdfReader(path)
    regions = []
    for i, page in enumerate(reader.pages):
        H = float(page.mediabox[3])
        regions += [(i, trim_box_mm(p, CARD_W, CARD_H, H)) for p in placements(page)]
    return regions


def card_text_items(path):
    """The text inside each card's trim, in print order."""
    doc = pdfium.PdfDocument(str(path))
    texts = []
    for index, (x0, y0, x1, y1) in card_regions(path):
        page = doc[index]
        H = page.get_size()[1]
        tp = page.get_textpage()
        texts.append(tp.get_text_bounded(left=x0 * MM, bottom=H - y1 * MM, right=x1 * MM, top=H - y0 * MM))
    doc.close()
    return texts


def card_chars(path):
    """Every character inside each card's trim, as (char, x, y): the centre of its ink in mm from
    the card's top-left corner; in print order."""
    doc = pdfium.PdfDocument(str(path))
    regions = card_regions(path)
    out = [[] for _ in regions]
    for index in sorted({i for i, _ in regions}):
        page = doc[index]
        H = page.get_size()[1]
        tp = page.get_textpage()
        i, n = 0, tp.count_chars()
        while i < n:
            code = pdfium_raw.FPDFText_GetUnicode(tp.raw, i)
            box = tp.get_charbox(i)
            if 0xD800 <= code < 0xDC00:  # a character outside the BMP comes as a surrogate pair
                code = 0x10000 + ((code - 0xD800) << 10) + (pdfium_raw.FPDFText_GetUnicode(tp.raw, i + 1) - 0xDC00)
                i += 1
            i += 1
            cx, cy = (box[0] + box[2]) / 2 / MM, (H - (box[1] + box[3]) / 2) / MM
            for k, (j, (x0, y0, x1, y1)) in enumerate(regions):
                if j == index and x0 <= cx <= x1 and y0 <= cy <= y1:
                    out[k].append((chr(code), cx - x0, cy - y0))
    doc.close()
    return out


def lines(text):
    return [line.strip() for line in text.splitlines() if line.strip()]


# --- the inventory ------------------------------------------------------------------------------

def test_inventory_is_the_54_card_musicards_deck():
    deck = load_deck("steps")
    counts = {c.name: c.card_count for c in deck.components}
    assert deck.card_count("cards") == 54
    assert counts == {"octave-2": 12, "octave-3": 12, "octave-4": 12, "octave-5": 12,
                      "question-wilds": 4, "chromatic-wilds": 2, "rules": 9}
    assert deck.card_count("rules-board") == 9


def test_each_suit_holds_the_12_pitches_once_with_matching_notes():
    deck = load_deck("steps")
    letters = "C D E F G A B".split()
    for octave, (color, symbol, clef) in SUITS.items():
        component = next(c for c in deck.components if c.name == f"octave-{octave}")
        cards = sorted(component.cards, key=lambda c: c.fields["number"])
        assert [c.fields["number"] for c in cards] == list(range(1, 13))
        for card, (number, names) in zip(cards, SCALE):
            f = card.fields
            assert (f["color"], f["octave"], f["clef"]) == (color, octave, clef)
            assert card.count == 1
            if len(names) == 1:
                assert f["name"] == names[0] and not f["sharp"]
                assert f["notes"] == f"{names[0]}{octave}"
            else:
                sharp, flat = names
                assert (f["sharp"] + "♯", f["flat"] + "♭") == (sharp, flat)
                assert f["name"] == f"{sharp}/{flat}" and "name" in card.defaults  # made from the two
                # the flat's letter is the next letter up from the sharp's
                assert letters.index(f["flat"]) == (letters.index(f["sharp"]) + 1) % 7
                assert f["notes"] == f"{f['sharp']}#{octave} {f['flat']}b{octave}"
        assert deck.names.palette[color].symbol == symbol
    assert sorted(c.fields["color"] for c in next(c for c in deck.components if c.name == "question-wilds").cards) \
        == sorted(color for color, _, _ in SUITS.values())


def test_suit_colours_step_apart_in_grey_and_have_their_own_shapes():
    deck = load_deck("steps")
    lumas = [deck.names.palette[color].color.luma * 255 for color, _, _ in SUITS.values()]
    # darker for lower octaves, and at least 15 % of the grey range between neighbours
    assert all(b - a >= 0.15 * 255 for a, b in zip(lumas, lumas[1:])), lumas
    assert len({deck.names.palette[c].symbol for c, _, _ in SUITS.values()}) == 4


# --- what the cards say ---------------------------------------------------------------------------

@pytest.mark.parametrize("paper", PAPER)
def test_every_card_shows_its_pitch_names_number_and_octave(steps_build, paper):
    folder, _ = steps_build
    texts = card_text_items(pdf(folder, "cards", paper))
    faces = expected_faces()
    assert len(texts) == len(faces) == 54
    for text, face in zip(texts, faces):
        got = lines(text)
        # words outside the "octave N · … clef" line (whose digit is not the card's number)
        words = [w for line in got if not line.startswith("octave") for w in line.split()]
        if face["kind"] == "pitch":
            names, number, octave = face["names"], face["number"], face["octave"]
            # the number appears in both corners, and nowhere else
            assert words.count(str(number)) == 2, (face, got)
            # the name (both names of a black key) in the top corner, and large at the foot
            for name in names:
                assert name in words, (face, got)
            assert "/".join(names) in words, (face, got)
            assert f"octave {octave} · {SUITS[octave][2]} clef" in got, (face, got)
        elif face["kind"] == "?":
            assert got.count("?") >= 1 and "WILD" in got and f"octave {face['octave']}" in got, got
        else:
            joined = " ".join(got)
            assert "Chromatic Scale" in joined and "WILD" in got
            for number, names in SCALE:
                assert str(number) in got, (number, got)
                for name in names:
                    assert name in joined, (name, joined)


WHOLE_NOTE, CLEF = "\U0001D15D", {"bass": "\U0001D122", "treble": "\U0001D11E"}
HALF_SPACE = 2.7 / 2  # the staff's line spacing is 2.7 mm: one letter up is half of that


def test_each_pitch_card_shows_its_note_on_the_staff_of_its_clef(steps_build):
    """The noteheads read back from the PDF: one per white key, two (sharp and flat spelling) per
    black key; each sits where its letter belongs, and the notes climb a step per letter."""
    folder, _ = steps_build
    chars = card_chars(pdf(folder, "cards", "a4"))
    height = {}  # (octave, letter) -> notehead centre, mm below the clef
    black = []
    for found, face in zip(chars, expected_faces()):
        if face["kind"] != "pitch":
            assert WHOLE_NOTE not in [c for c, _, _ in found]
            continue
        octave, names = face["octave"], face["names"]
        clef = SUITS[octave][2]
        assert [c for c, _, _ in found].count(CLEF[clef]) == 1, face
        assert not set(CLEF.values()) - {CLEF[clef]} & {c for c, _, _ in found}
        # notes two ledger lines down keep clear of the big name at the foot (its letters start at 61 mm)
        assert max(y for c, x, y in found if c == WHOLE_NOTE) < 55.0, face
        clef_y = next(y for c, x, y in found if c == CLEF[clef])  # staves sit higher or lower per suit
        heads = sorted((x, y - clef_y) for c, x, y in found if c == WHOLE_NOTE)
        assert len(heads) == len(names), face
        accidentals = [c for c, x, y in found if c in "♯♭" and 30 < y < 62]  # on the staff, not in the names
        if len(names) == 1:
            assert accidentals == []
            height[(octave, names[0])] = heads[0][1]
        else:
            assert sorted(accidentals) == ["♭", "♯"]
            black.append((octave, names, heads))
    letters = "CDEFGAB"
    for octave in SUITS:
        ys = [height[(octave, letter)] for letter in letters]
        assert all(a - b == pytest.approx(HALF_SPACE, abs=0.1) for a, b in zip(ys, ys[1:])), (octave, ys)
    # an octave up in the same clef is seven letters higher
    for low, high in ((2, 3), (4, 5)):
        assert height[(low, "C")] - height[(high, "C")] == pytest.approx(7 * HALF_SPACE, abs=0.1)
    # a black key's sharp spelling sits on its letter, the flat spelling on the next one up
    for octave, (sharp, flat), ((_, y_sharp), (_, y_flat)) in black:
        assert y_sharp == pytest.approx(height[(octave, sharp[0])], abs=0.1)
        assert y_flat == pytest.approx(height[(octave, flat[0])], abs=0.1)


def test_black_keys_carry_both_names_written_with_real_sharps_and_flats(steps_build):
    folder, _ = steps_build
    text = "".join(page_text(pdf(folder, "cards", "a4"), i) for i in range(6))
    for _, names in SCALE:
        if len(names) == 2:
            assert f"{names[0]}/{names[1]}" in text
    assert "#" not in text and "b/" not in text  # no ASCII stand-ins for ♯ and ♭


# --- the rule cards -------------------------------------------------------------------------------

def test_rule_cards_credit_musicards_and_say_they_are_unofficial(steps_build):
    folder, _ = steps_build
    for paper in PAPER:  # the rule cards' titles and text sizes: test_decks.py
        text = " ".join(page_text(pdf(folder, "rules-board", paper), 0).split())
        assert "Joseph E. Reed" in text and "© 2018" in text and "CC0" in text
        assert "unofficial" in text and "our own words" in text
        assert "Musicards!" in text


# --- low ink --------------------------------------------------------------------------------------

def shape_of(grey, box_px):
    """Name the palette shape drawn in a region of a greyscale image, by how much of its own
    bounding box its ink fills: square ≈ 1, circle ≈ 0.79, triangle ≈ 0.5, star ≈ 0.34."""
    crop = grey.crop(box_px)
    w, h = crop.size
    px = crop.load()
    ink = [(x, y) for y in range(h) for x in range(w) if px[x, y] < 240]
    if len(ink) < 20:
        return None
    xs, ys = [p[0] for p in ink], [p[1] for p in ink]
    filled = len(ink) / ((max(xs) - min(xs) + 1) * (max(ys) - min(ys) + 1))
    for name, low in (("square", 0.9), ("circle", 0.68), ("triangle", 0.42), ("star", 0.2)):
        if filled >= low:
            return name
    return None


@pytest.mark.parametrize("paper", PAPER)
def test_low_ink_cards_still_show_their_suit_symbol(steps_build, paper):
    """In the greyscale build, the symbol in both corners of every pitch card and "?" wild is
    still there and still the shape of that card's suit (read from the card's own text)."""
    folder, _ = steps_build
    path = pdf(folder, "cards-lowink", paper)
    texts = card_text_items(path)
    regions = card_regions(path)
    dpi = 200
    doc = pdfium.PdfDocument(str(path))
    pages = {}
    seen = Counter()
    for text, (index, (x0, y0, x1, y1)) in zip(texts, regions):
        octave = next((int(line.split()[1]) for line in lines(text) if line.startswith("octave ")), None)
        if octave is None:
            assert "Chromatic Scale" in text  # the only cards without a suit
            continue
        if index not in pages:
            pages[index] = doc[index].render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
        grey = pages[index]
        k = dpi / 25.4
        dy = 30.3 if "WILD" not in text else 22.5
        for cx, cy in ((x0 + 10.5, y0 + dy), (x1 - 10.5, y1 - dy)):
            box = tuple(round(v * k) for v in (cx - 3.7, cy - 3.7, cx + 3.7, cy + 3.7))
            assert shape_of(grey, box) == SUITS[octave][1], (octave, text[:30], (cx, cy))
        seen[octave] += 1
    doc.close()
    assert seen == {2: 13, 3: 13, 4: 13, 5: 13}


def test_low_ink_rule_cards_show_each_suit_symbol_and_name(steps_build):
    folder, _ = steps_build
    text = " ".join(page_text(pdf(folder, "rules-board-lowink", "a4"), 0).split())
    for color, symbol, _ in SUITS.values():
        assert f"{color} {symbol}" in text


# -- the turned index and the small print (issue 20) ---------------------------------------------

def test_no_turned_flat_in_a_corner_and_the_turned_index_of_a_black_key_names_its_sharp(steps_build):
    """Turned, "D♭" read as "qD" beside "♯C": the bottom index of a black key shows its sharp
    spelling alone (a ♯ reads the same either way round); the top index keeps both names."""
    from tests.pdfread import char_angles
    folder, _ = steps_build
    path = pdf(folder, "cards", "a4")
    turned = Counter()
    upright = Counter()
    for page in range(len(PdfReader(path).pages)):
        for c, angle, *_ in char_angles(path, page):
            (turned if angle == 180 else upright)[c] += angle in (0, 180)
    assert turned["♭"] == 0
    assert turned["♯"] == 5 * 4  # five black keys in each of four suits, their sharp in the turned index
    assert upright["♭"] >= 5 * 4 * 2  # the top index and the name, at least


def test_octave_and_clef_line_is_at_least_7pt():
    from deckpress.builder.faces import compose_faces
    from deckpress.errors import Warnings
    from deckpress.units import PT

    sizes = [t.size / PT for e in compose_faces(load_deck("steps"), Warnings()).entries
             for t in text_items(e.front.items) if t.text.startswith("octave ")]
    assert len(sizes) >= 48 and min(sizes) >= 7.0


def test_low_ink_backs_show_each_suit_symbol_with_a_dark_outline(steps_build):
    """The back's row of suit symbols, pale on the pale low-ink back, is ringed in near-black
    (issue 36): the gold star, the palest suit, was a faint outline (darkest grey about 200)."""
    folder, _ = steps_build
    path = pdf(folder, "backs-lowink", "a4")
    index, (x0, y0, _, _) = card_regions(path)[0]
    dpi = 200
    doc = pdfium.PdfDocument(str(path))
    grey = doc[index].render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
    doc.close()
    k = dpi / 25.4
    for dx in (-13.5, -4.5, 4.5, 13.5):  # blue, red, green, gold: 50 % ± the layout's offsets, y 79 mm
        cx, cy = x0 + CARD_W / 2 + dx, y0 + 79.0
        crop = grey.crop(tuple(round(v * k) for v in (cx - 3.5, cy - 3.5, cx + 3.5, cy + 3.5)))
        darkest = crop.getextrema()[0]
        assert darkest < 90, (dx, darkest)


def test_black_keys_are_named_by_both_spellings_in_the_manifest_and_the_box_says_unofficial(tmp_path):
    """A black key's name is its two spellings ("C♯/D♭"), which the image manifest and virtual
    tables call it, not blank; and the box's front says "unofficial edition" under the title."""
    import csv

    from deckpress.builder.deckbuild import build_deck
    from deckpress.builder.plan import Options

    build_deck("steps", tmp_path, ["a4"], ["color"], options=Options(formats=("pdf", "png")))
    with open(tmp_path / "steps" / "png" / "manifest.csv", encoding="utf-8") as file:
        rows = [row for row in csv.DictReader(file) if row["component"] == "octave-2"]
    assert [row["name"] for row in rows] == ["/".join(names) for _, names in SCALE]  # C, C♯/D♭, D, …
    box = page_text(tmp_path / "steps" / "steps-box-a4.pdf", 0)
    assert "unofficial edition" in box
