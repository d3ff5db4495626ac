"""End to end: build Test Piece and read its promises back from the PDFs.

The deck is 18 instrument cards printed twice, once on silver backs and once on gold ones; the
rules-board file also holds two score boards and eight fold-up pawns at their own sizes. Cards
are identified on the page by the text inside their own trim (title, voice letters), and each
back by the word printed inside the trim where it lands, so the tests follow every card from
the inventory to the paper. What every bundled deck promises (files, grids, backs, duplex, page
boxes, fonts, text sizes, low ink, rebuilds) is checked for Test Piece too, in test_decks.py.
"""

from __future__ import annotations

import csv
import re
import shutil
from collections import Counter
from itertools import combinations

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageFilter
from pypdf import PdfReader

from deckpress.model import load_deck
from deckpress.units import PRINTABLE
from tests.faceread import text_items
from tests.pdfread import MM, content_streams, page_text, placements, trim_box_mm

DECK = "test-piece"
CARD_W, CARD_H = 63.5, 88.9
BOARD_W, BOARD_H = 262.0, 150.0
PAWN_W, PAWN_H = 15.0, 72.0
PAPER = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
TALLY = {"S": 10, "A": 17, "T": 17, "B": 10}  # voice discs in each 18-card deck (games.md §3)
INSTRUMENTS = {  # name -> (copies per deck, voices), from the designer's card list
    "Soprano Cornet": (1, "SSS"), "Front-Row Cornet": (2, "SSA"), "Back-Row Cornet": (2, "SAA"),
    "Flugelhorn": (1, "AAA"), "Tenor Horn": (2, "AAT"), "Baritone": (2, "ATT"), "Euphonium": (1, "TTT"),
    "Trombone": (2, "TTB"), "E♭ Bass": (2, "TBB"), "B♭ Bass": (1, "BBB"), "Percussion": (1, "SAT"),
    "Timpani": (1, "ATB"),
}


@pytest.fixture(scope="module")
def built(bundled_builds):
    return bundled_builds(DECK)


def pdf(folder, kind, paper="a4", lowink=False):
    return folder / f"{DECK}-{kind}{'-lowink' if lowink else ''}-{paper}.pdf"


def plain(name: str) -> str:
    """A card name as it reads in the PDF: the flat sign icon is the character ♭ (spaces aside)."""
    return re.sub(r"\s+", "", name.replace(":flat-sign:", "♭"))


def text_in(textpage, box_mm, page_h_mm) -> str:
    """The text pdfium finds inside a box given in mm from the page's top-left corner."""
    x0, y0, x1, y1 = box_mm
    return textpage.get_text_bounded(left=x0 * MM, bottom=(page_h_mm - y1) * MM,
                                                right=x1 * MM, top=(page_h_mm - y0) * MM)


def cards_on_pages(path, paper):
    """Every card face on every page: (page index, trim box in mm, title text, voice letters)."""
    H = PAPER[paper][1]
    doc = pdfium.PdfDocument(str(path))
    found = []
    for index, page in enumerate(PdfReader(path).pages):
        textpage = doc[index].get_textpage()
        for placed in placements(page):
            x0, y0, x1, y1 = trim_box_mm(placed, CARD_W, CARD_H, H * MM)
            title = text_in(textpage, (x0 + 4, y0 + 5, x1 - 4, y0 + 15), H)
            # the disc band: the discs' letters, above the small voice names under them
            letters = text_in(textpage, (x0 + 4, y0 + 64.5, x1 - 4, y0 + 77.5), H)
            found.append((index, (x0, y0, x1, y1), re.sub(r"\s+", "", title), re.sub(r"\s+", "", letters)))
    doc.close()
    return found


# -- the inventory ------------------------------------------------------------------------------

def test_inventory_is_the_designers_card_list_twice():
    deck = load_deck(DECK)
    by_name = {c.name: c for c in deck.components}
    assert deck.card_count("cards") == 36
    assert by_name["silver"].card_count == by_name["gold"].card_count == 18
    assert by_name["silver"].back.name == "silver-back" and by_name["gold"].back.name == "gold-back"
    assert by_name["silver"].front.name == by_name["gold"].front.name == "instrument"
    for name in ("silver", "gold"):
        cards = {plain(c.fields["name"]): (c.count, "".join(c.fields["voices"])) for c in by_name[name].cards}
        assert cards == {plain(k): v for k, v in INSTRUMENTS.items()}
        tally = Counter(v for c in by_name[name].cards for _ in range(c.count) for v in c.fields["voices"])
        assert tally == TALLY
    # the YAML alias gives the gold deck the very same card list, written once
    front = ("name", "art", "voices")
    assert [[c.fields[k] for k in front] for c in by_name["silver"].cards] == \
        [[c.fields[k] for k in front] for c in by_name["gold"].cards]
    assert [(c.file, c.line) for c in by_name["silver"].cards] == [(c.file, c.line) for c in by_name["gold"].cards]
    assert by_name["silver"].cards[0].fields["word"] == "SILVER" and by_name["gold"].cards[0].fields["word"] == "GOLD"
    assert by_name["score-boards"].card_count == 2 and by_name["pawns"].card_count == 8
    assert by_name["rules"].card_count == 10
    assert Counter(c.fields["voice"] for c in by_name["pawns"].cards for _ in range(c.count)) == \
        {"S": 2, "A": 2, "T": 2, "B": 2}


def test_an_error_in_the_shared_card_list_points_at_its_row(tmp_path):
    """Both decks read their cards from instruments.csv; a mistake there is reported at the
    spreadsheet row of the card, with the nearest field as a suggestion."""
    from deckpress.errors import DeckError
    bundled_folder = load_deck(DECK).folder
    source = (bundled_folder / "instruments.csv").read_text(encoding="utf-8")
    rows = source.splitlines()
    row = next(i for i, text in enumerate(rows, 1) if text.startswith("Flugelhorn,"))
    folder = tmp_path / "copy"
    shutil.copytree(bundled_folder, folder)
    # the copy brings its own layouts, their pictures looked up in its own art/ folder
    (folder / "layouts").mkdir()
    for name in ("common", "test-piece"):
        text = (bundled_folder.parent.parent / "layouts" / f"{name}.yaml").read_text(encoding="utf-8")
        (folder / "layouts" / f"{name}.yaml").write_text(text.replace("../decks/test-piece/art/", "../art/"),
                                                          encoding="utf-8")
    load_deck(folder)  # the copy as it is is fine
    (folder / "instruments.csv").write_text(source.replace("name,art,voices,count", "name,art,voice,count"),
                                            encoding="utf-8")
    with pytest.raises(DeckError) as caught:
        load_deck(folder)
    assert str(caught.value).endswith("instruments.csv:1 column C: unknown column 'voice' — did you mean 'voices'?")
    (folder / "instruments.csv").write_text(source.replace('Flugelhorn,flugelhorn,"[A, A, A]",',
                                                           'Flugelhorn,flugelhorn,"[A, A, A]",two'), encoding="utf-8")
    with pytest.raises(DeckError) as caught:
        load_deck(folder)
    assert str(caught.value).endswith(f"instruments.csv:{row} column D: count must be a whole number of 0 or more "
                                      "(0 leaves the card out), not 'two'")


# -- fronts and backs ---------------------------------------------------------------------------

@pytest.mark.parametrize("lowink", [False, True], ids=["color", "lowink"])
@pytest.mark.parametrize("paper", PAPER)
def test_every_card_shows_its_voice_letters(built, paper, lowink):
    """Each front carries its instrument's three letters (so voices survive greyscale), and each
    deck of 18 adds up to S10 A17 T17 B10."""
    folder, _ = built
    faces = cards_on_pages(pdf(folder, "cards", paper, lowink), paper)
    assert len(faces) == 36 and {i for i, *_ in faces} == {0, 1, 2, 3}
    expected = {plain(k): v for k, v in INSTRUMENTS.items()}
    for _, _, title, letters in faces:
        assert title in expected, title
        assert letters == expected[title][1], (title, letters)
    for pages in ({0, 1}, {2, 3}):  # the silver deck's pages, then the gold deck's
        deck = [(title, letters) for i, _, title, letters in faces if i in pages]
        assert Counter(t for t, _ in deck) == {t: n for t, (n, _) in expected.items()}
        assert Counter("".join(letters for _, letters in deck)) == TALLY


@pytest.mark.parametrize("lowink", [False, True], ids=["color", "lowink"])
@pytest.mark.parametrize("paper", PAPER)
def test_18_cards_land_on_silver_backs_and_18_on_gold(built, paper, lowink):
    """Read the backs file back: on a long-edge flip, the back that lands behind each front
    says SILVER or GOLD; each back design sits behind one complete deck of 18."""
    folder, _ = built
    W, H = PAPER[paper]
    fronts = cards_on_pages(pdf(folder, "cards", paper, lowink), paper)
    backs_path = pdf(folder, "backs", paper, lowink)
    reader = PdfReader(backs_path)
    doc = pdfium.PdfDocument(str(backs_path))
    behind = {"SILVER": Counter(), "GOLD": Counter()}
    forms = {"SILVER": set(), "GOLD": set()}
    try:
        assert len(reader.pages) == 4
        for index, page in enumerate(reader.pages):
            textpage = doc[index].get_textpage()
            boxes = {}
            for placed in placements(page):
                x0, y0, x1, y1 = trim_box_mm(placed, CARD_W, CARD_H, H * MM)
                boxes[(round(W - x1, 2), round(y0, 2))] = (placed.name, (x0, y0, x1, y1))
            for i, (fx0, fy0, _, _), title, letters in fronts:
                if i != index:
                    continue
                name, box = boxes.pop((round(fx0, 2), round(fy0, 2)))  # the back at the mirrored spot
                words = re.sub(r"\s+", " ", text_in(textpage, box, H))
                word = "SILVER" if "SILVER" in words else "GOLD" if "GOLD" in words else None
                assert word and not ("SILVER" in words and "GOLD" in words), words
                behind[word][title] += 1
                forms[word].add(name)
            assert not boxes  # no back without a front
    finally:
        doc.close()
    expected = Counter({plain(k): n for k, (n, _) in INSTRUMENTS.items()})
    assert behind["SILVER"] == expected and behind["GOLD"] == expected
    assert sum(behind["SILVER"].values()) == sum(behind["GOLD"].values()) == 18
    assert len(forms["SILVER"]) == len(forms["GOLD"]) == 1  # one design each …
    assert forms["SILVER"] != forms["GOLD"]  # … and two different ones


def test_the_two_backs_differ_in_low_ink_too(built):
    """Players sort the decks by their backs at setup: the low-ink backs keep the word and the
    pattern (dots or stripes), and the pages differ clearly when rasterised."""
    folder, _ = built
    path = pdf(folder, "backs", "a4", lowink=True)
    assert "SILVER" in page_text(path, 0) and "GOLD" not in page_text(path, 0)
    assert "GOLD" in page_text(path, 2) and "SILVER" not in page_text(path, 2)
    doc = pdfium.PdfDocument(str(path))
    try:
        silver = doc[0].render(scale=40 / 72, grayscale=True).to_pil().convert("L")
        gold = doc[2].render(scale=40 / 72, grayscale=True).to_pil().convert("L")
    finally:
        doc.close()
    differing = sum(1 for a, b in zip(silver.tobytes(), gold.tobytes()) if abs(a - b) > 24)
    assert differing > 0.05 * silver.width * silver.height


# -- the drawings --------------------------------------------------------------------------------

PICTURE_DPI = 150


def pictures(path, paper="a4") -> dict[str, Image.Image]:
    """Each instrument's picture box (6 mm in from the trim's sides, 18 to 60.5 mm from its top),
    rendered in greys, by the card's title, from its first card in the file."""
    k = PICTURE_DPI / 25.4
    found: dict[str, Image.Image] = {}
    pages: dict[int, Image.Image] = {}
    doc = pdfium.PdfDocument(str(path))
    try:
        for index, (x0, y0, x1, _), title, _ in cards_on_pages(path, paper):
            if title in found:
                continue
            if index not in pages:
                pages[index] = doc[index].render(scale=PICTURE_DPI / 72, grayscale=True).to_pil().convert("L")
            found[title] = pages[index].crop((round((x0 + 6) * k), round((y0 + 18) * k),
                                              round((x1 - 6) * k), round((y0 + 60.5) * k)))
    finally:
        doc.close()
    assert len(found) == len(INSTRUMENTS)
    return found


def silhouette(picture: Image.Image) -> np.ndarray:
    """What a player sees at a glance: the drawn shape (all that is not paper), cut to its own
    bounds, brought to one size and blurred, so that the same drawing at another size (as the old
    tenor horn, baritone and E♭ bass were) or a pixel further along the page compares as equal."""
    drawn = picture.point(lambda v: 255 if v < 235 else 0)
    shape = drawn.crop(drawn.getbbox()).resize((121, 100), Image.BILINEAR).filter(ImageFilter.GaussianBlur(2))
    return np.asarray(shape, dtype=float) / 255


def test_every_instrument_has_a_drawing_of_its_own():
    """Issue 36: players told the cornets (and the upright horns) apart by their titles alone. Each
    of the twelve instruments now names its own file, and no two files are the same drawing."""
    folder = load_deck(DECK).folder
    with open(folder / "instruments.csv", encoding="utf-8", newline="") as handle:
        art = {row["name"]: row["art"] for row in csv.DictReader(handle)}
    assert len(art) == 12 and len(set(art.values())) == 12, art
    drawings = {name: (folder / "art" / f"{file}.svg").read_bytes() for name, file in art.items()}
    assert len(set(drawings.values())) == 12
    for name, svg in drawings.items():  # our own drawings, with the edition's licence line
        assert b"Drawn for this edition, CC BY-SA 4.0." in svg, name


def test_the_twelve_pictures_differ_at_a_glance(built):
    """Read the printed pictures back and compare their silhouettes pairwise (the mean difference
    of the normalised shapes, 0 the same, 1 opposite). The old drawings scored 0.003 for the two
    cornets (one file), 0.044 for the soprano cornet against them (the same drawing smaller), 0.058
    for tenor horn and baritone and 0.090 for euphonium and E♭ bass; each pair now scores 0.15 or
    more (the closest: euphonium and E♭ bass, E♭ and B♭ bass)."""
    folder, _ = built
    shapes = {title: silhouette(p) for title, p in pictures(pdf(folder, "cards")).items()}
    scores = {(a, b): float(np.abs(shapes[a] - shapes[b]).mean()) for a, b in combinations(shapes, 2)}
    closest = min(scores, key=scores.get)
    assert scores[closest] > 0.10, (closest, scores[closest])


def test_every_picture_keeps_dark_outlines_in_low_ink(built):
    """Every drawing is outlined in near-black under its fills, so it reads in greys: in colour the
    outlines print near-black; the low-ink build pales a picture this large (by
    deckpress.ink.LIGHT_IMAGE, along `colors.paled`: pale tones most, dark lines least), and the
    outlines stay dark (measured 112 here, read at 72 dpi, where they printed at 169 when a picture
    was paled evenly) and clearly darker than the fills they hold (by 66 levels or more)."""
    folder, _ = built
    colour = pictures(pdf(folder, "cards"))
    low = pictures(pdf(folder, "cards", lowink=True))
    for title, picture in low.items():
        assert colour[title].getextrema()[0] < 60, title
        grey = np.asarray(picture)
        paper = float(np.median(grey[:3, :]))
        darkest = int(grey.min())
        assert darkest <= 125, (title, darkest)
        fills = float(np.median(grey[grey < paper - 10]))
        assert fills - darkest >= 60 and fills >= 170, (title, darkest, fills)


# -- score boards and pawns ---------------------------------------------------------------------

@pytest.mark.parametrize("paper", PAPER)
def test_boards_and_pawns_print_at_their_size_the_pawns_beside_the_last_rule_card(built, paper):
    """Four pages, none holding one small piece alone: nine rule cards, then the tenth with the
    eight pawns below it (each group with its own crop marks, 12 mm apart), then a board a page."""
    folder, _ = built
    W, H = PAPER[paper]
    path = pdf(folder, "rules-board", paper)
    reader = PdfReader(path)
    kinds = []
    for index, page in enumerate(reader.pages):
        text = page_text(path, index)
        placed = placements(page)
        x0, y0, x1, y1 = (float(v) / MM for v in page.trimbox)
        # inside the printable area (nine poker cards on Letter sit 4.5 mm from its bottom edge)
        assert x0 >= PRINTABLE and y0 >= PRINTABLE and x1 <= W - PRINTABLE and y1 <= H - PRINTABLE
        size = sorted((round(x1 - x0, 2), round(y1 - y0, 2)))
        if "PLAYER" in text:
            # one board, whole (no tiles), turned or not
            assert len(placed) == 1 and size == sorted((BOARD_W, BOARD_H))
            kinds.append("board " + ("A" if "PLAYER A" in text else "B"))
            continue
        pawns = [p for p in placed if (p.bbox[2] - p.bbox[0]) / MM == pytest.approx(PAWN_W + 6, abs=0.01)]
        cards = [p for p in placed if p not in pawns]
        boxes = [trim_box_mm(p, CARD_W, CARD_H, H * MM) for p in cards]
        assert all((round(b[2] - b[0], 2), round(b[3] - b[1], 2)) == (CARD_W, CARD_H) for b in boxes)
        kinds.append(f"rules ×{len(cards)}" + (f" + pawns ×{len(pawns)}" if pawns else ""))
        if pawns:
            assert "SOPRANO" in text
            # the pawns stand side by side: their left edges 15 mm apart, 72 mm tall, in one row
            trims = sorted(trim_box_mm(p, PAWN_W, PAWN_H, H * MM) for p in pawns)
            assert [round(b[0] - a[0], 2) for a, b in zip(trims, trims[1:])] == [PAWN_W] * 7
            assert {(round(t[1], 2), round(t[3] - t[1], 2)) for t in trims} == {(round(trims[0][1], 2), PAWN_H)}
            row = (trims[0][0], trims[0][1], trims[-1][2], trims[0][3])
            for card in boxes:  # the card above the row, the gap room for both groups' crop marks
                assert row[1] - card[3] == pytest.approx(12.0, abs=0.01)
                # both centred across the page
                assert (card[0] + card[2]) / 2 == pytest.approx(W / 2, abs=0.01)
                assert (row[0] + row[2]) / 2 == pytest.approx(W / 2, abs=0.01)
    assert kinds == ["rules ×9", "rules ×1 + pawns ×8", "board A", "board B"]


def test_boards_have_four_voice_rows_of_positions_0_to_12(built):
    folder, _ = built
    path = pdf(folder, "rules-board", "a4", lowink=True)
    for index, player, first in ((2, "A", "1 and 4"), (3, "B", "2 and 3")):  # after the rules, and the pawns
        text = page_text(path, index)
        assert f"PLAYER {player}" in text and f"rounds {first}" in text
        for letter, name, clef in (("S", "Soprano", "\U0001D11E"), ("A", "Alto", "\U0001D121"),
                                   ("T", "Tenor", "\U0001D121"), ("B", "Bass", "\U0001D122")):
            assert re.search(rf"\b{letter}\s+{name}\s+{clef}", text), (letter, text)
        assert text.count(" ".join(str(n) for n in range(13))) == 4


def test_pawns_show_their_letter_on_both_halves(built):
    folder, _ = built
    path = pdf(folder, "rules-board", "a4", lowink=True)
    words = page_text(path, 1).split()  # beside the last rule card
    assert Counter(w for w in words if len(w) == 1 and w.isupper()) == {"S": 4, "A": 4, "T": 4, "B": 4}
    assert Counter(w for w in words if w in ("SOPRANO", "ALTO", "TENOR", "BASS")) == \
        {"SOPRANO": 4, "ALTO": 4, "TENOR": 4, "BASS": 4}
    # the fold lines are dashed: each pawn has three, and a dash pattern is set
    streams = b"".join(content_streams(PdfReader(path)))
    assert re.search(rb"\[[\d. ]+\] [\d.]+ d", streams)


# -- the rules (their titles, and every deck's fonts, text sizes and ink: test_decks.py) ---------

def test_rule_cards_cover_the_rules_and_credit_the_designer(built):
    folder, _ = built
    path = pdf(folder, "rules-board", "a4")
    text = page_text(path, 0) + page_text(path, 1)
    # a word hyphenated at a line's end reads as one again (pdfium marks the break U+FFFE)
    flat = re.sub(r"\s+", " ", re.sub(r"\ufffe\s*", "", text))
    for fact in ("2 players", "30 minutes", "Player A in rounds 1 and 4", "Player B in rounds 2 and 3",
                 "9 cards", "same column", "lowest empty position", "count − 3", "lower overall score wins",
                 "second-highest", "Michael Purcell", "CC BY-SA 4.0"):
        assert fact in flat, fact
    # the worked example: counts 2 2 3 5, errors −1 −1 0 +2, scores 1 1 0 2
    assert re.findall(r"count (\d) → error ([−+]?\d) → score (\d)", flat) == \
        [("2", "−1", "1"), ("2", "−1", "1"), ("3", "0", "0"), ("5", "+2", "2")]


# -- names outside the card, and the ♭ in them (issue 20) ----------------------------------------

def test_names_leave_the_card_as_plain_text(tmp_path):
    """manifest.csv and the Tabletop Simulator nicknames say "E♭ Bass", the file names "e-flat-bass":
    not the icon markup the card list writes (`E:flat-sign: Bass`)."""
    import csv
    import json
    import deckpress
    deckpress.build(DECK, tmp_path, papers="a4", formats=("png", "tts"), dpi=72)
    with open(tmp_path / DECK / "png" / "manifest.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    names = {row["name"] for row in rows}
    assert {"E♭ Bass", "B♭ Bass"} <= names and not any(":" in n or "*" in n for n in names)
    files = {row["front"] for row in rows}
    assert "silver-09-e-flat-bass-front.png" in files and "silver-10-b-flat-bass-front.png" in files
    assert not any("sign" in f for f in files)
    for f in files:
        assert (tmp_path / DECK / "png" / f).is_file()
    nicknames = set()
    for path in (tmp_path / DECK / "tts").glob("*.json"):
        def walk(node):
            if isinstance(node, dict):
                if "Nickname" in node:
                    nicknames.add(node["Nickname"])
                for v in node.values():
                    walk(v)
            elif isinstance(node, list):
                for v in node:
                    walk(v)
        walk(json.loads(path.read_text(encoding="utf-8")))
    assert {"E♭ Bass", "B♭ Bass"} <= nicknames and not any(":" in n for n in nicknames)


def test_the_flat_in_a_title_is_as_tall_as_the_capitals_and_bolder_than_the_music_fonts():
    from deckpress.builder.faces import compose_faces
    from deckpress.errors import Warnings
    from deckpress.text.fonts import open_font

    faces = compose_faces(load_deck(DECK), Warnings())
    entry = next(e for e in faces.entries if e.name == "E♭ Bass")
    title = [t for t in text_items(entry.front.items) if t.y < 15.5]  # above the divider
    flat = next(t for t in title if t.text == "♭")
    e = next(t for t in title if t.text.startswith("E"))
    fx0, fy0, fx1, fy1 = open_font(flat.font).bounds("♭")
    cap = open_font(e.font).bounds("E")[3] * e.size
    assert (fy1 - fy0) * flat.size + flat.stroke >= cap
    # the music font's flat stem is 37 units of 1000 wide: with the outline, about a bold capital's
    assert 0.037 * flat.size + flat.stroke >= 0.09 * e.size


def test_the_box_claims_only_what_it_holds(built):
    """A 15 mm deep card box does not hold two A4 score boards and eight folded pawns: its label
    said it did (issue 36). It names its cards; the rule card "Components" lists the rest."""
    text = " ".join(page_text(pdf(built[0], "box"), 0).split())
    assert "36 instrument cards" in text and "10 rule cards" in text
    assert "pawn" not in text.lower() and "board" not in text.lower()
