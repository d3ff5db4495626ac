"""Kanon (German rules, author unknown): build the deck once and read its promises back from the PDFs.

The canon cards are checked against the rule sheet's table, transcribed below; the note cards'
colours against their letters on the low-ink pages. What every bundled deck promises (files,
grids, backs, duplex, page boxes, fonts, text sizes, low ink, rebuilds) is checked for Kanon too,
in test_decks.py.
"""

from __future__ import annotations

import ctypes
import shutil
from collections import Counter
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from fontTools.ttLib import TTFont
from pypdf import PdfReader

from deckpress.bundled import FONTS_DIR
from deckpress.builder.deckbuild import build_deck
from deckpress.cli import main as cli
from deckpress.errors import DeckError
from deckpress.model import load_deck
from tests.faceread import text_items
from tests.pdfread import MM, backs_behind_fronts, page_text, placements, text_sizes, trim_box_mm

CARD_W, CARD_H = 63.5, 88.9
PAPER = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
KINDS = ["cards", "cards-lowink", "backs", "backs-lowink", "duplex", "duplex-lowink",
         "rules-board", "rules-board-lowink", "box", "box-lowink"]
PITCHES = ["c", "d", "e", "f", "g", "a"]

# The rule sheet's table, row by row: arrows, interval number, interval name.
SEED_CANONS = {
    "Kanon im Einklang": [("↑↑", 3, "Terz aufwärts"), ("↑", 5, "Quinte aufwärts"), ("↓↓", 3, "Terz abwärts"),
                          ("↓", 5, "Quinte abwärts"), ("→", 1, "Prime")],
    "Kanon in der Oberoktave": [("↑↑", 3, "Terz aufwärts"), ("↑", 4, "Quarte aufwärts"), ("↓↓", 3, "Terz abwärts"),
                                ("↓", 5, "Quinte abwärts"), ("→", 1, "Prime")],
    "Kanon in der Unteroktave": [("↑↑", 3, "Terz aufwärts"), ("↑", 5, "Quinte aufwärts"), ("↓↓", 3, "Terz abwärts"),
                                 ("↓", 4, "Quarte abwärts"), ("→", 1, "Prime")],
    "Kanon in der Oberquinte": [("↑↑", 3, "Terz aufwärts"), ("↑", 5, "Quinte aufwärts"),
                                ("↓↓", 2, "Sekunde abwärts"), ("↓", 4, "Quarte abwärts"), ("→", 1, "Prime")],
    "Kanon in der Unterquinte": [("↑↑", 2, "Sekunde aufwärts"), ("↑", 4, "Quarte aufwärts"),
                                 ("↓↓", 3, "Terz abwärts"), ("↓", 5, "Quinte abwärts"), ("→", 1, "Prime")],
    "Kanon in der Oberquarte": [("↑↑", 2, "Sekunde aufwärts"), ("↑", 4, "Quarte aufwärts"),
                                ("↓↓", 3, "Terz abwärts"), ("↓", 2, "Sekunde abwärts"), ("↓", 5, "Quinte abwärts")],
    "Kanon in der Unterquarte": [("↑↑", 3, "Terz aufwärts"), ("↑", 5, "Quinte aufwärts"),
                                 ("↑", 2, "Sekunde aufwärts"), ("↓↓", 2, "Sekunde abwärts"),
                                 ("↓", 4, "Quarte abwärts")],
}
SPECIALS_DE = ["Richtungswechsel", "Aussetzen", "Karten tauschen"]


@pytest.fixture(scope="module")
def kanon_de(bundled_builds):
    """The deck in German, both papers, both inks, as `deckpress build kanon` writes it."""
    return bundled_builds("kanon")


def pdf(folder, kind, paper="a4"):
    return folder / f"kanon-{kind}-{paper}.pdf"


def card_text_items(path, paper="a4"):
    """The text inside each card's trim on each page, page by page, in placement order."""
    reader = PdfReader(path)
    H = PAPER[paper][1]
    doc = pdfium.PdfDocument(str(path))
    pages = []
    for page, pdfium_page in zip(reader.pages, doc):
        textpage = pdfium_page.get_textpage()
        texts = []
        for placed in placements(page):
            x0, y0, x1, y1 = trim_box_mm(placed, CARD_W, CARD_H, H * MM)
            texts.append(textpage.get_text_bounded(x0 * MM, (H - y1) * MM, x1 * MM, (H - y0) * MM))
        pages.append(texts)
    doc.close()
    return pages


def normal(text):
    """Text as read back, with no-break spaces and line breaks as single spaces."""
    return " ".join(text.replace("\u00a0", " ").split())


def all_card_text_items(path, paper="a4"):
    return [text for page in card_text_items(path, paper) for text in page]


# --- the inventory -------------------------------------------------------------------------------

def test_inventory():
    deck = load_deck("kanon")
    count = {c.name: c.card_count for c in deck.components}
    assert count == {"noten": 36, "spezial": 14, "pausen": 6, "kanons": 7, "regeln": 12}
    assert deck.card_count("cards") == 36 + 20 + 7
    notes = next(c for c in deck.components if c.name == "noten")
    per_pitch = Counter({card.fields["pitch"]: card.count for card in notes.cards})
    assert per_pitch == {p: 6 for p in PITCHES}
    # the hexachord c'–a' in scientific pitch notation, one staff note per card
    assert [card.fields["note"] for card in notes.cards] == ["C4", "D4", "E4", "F4", "G4", "A4"]
    specials = next(c for c in deck.components if c.name == "spezial")
    assert {card.fields["title"]: card.count for card in specials.cards} == {
        "+1": 4, "+2": 2, "Richtungswechsel": 3, "Aussetzen": 3, "Karten tauschen": 2}


def test_canon_cards_are_the_rule_sheets_table():
    deck = load_deck("kanon")
    canons = next(c for c in deck.components if c.name == "kanons")
    rows = {card.fields["title"]: card.fields["rows"] for card in canons.cards}
    assert set(rows) == set(SEED_CANONS)
    for title, table in SEED_CANONS.items():
        assert rows[title] == [f"{arrows} {number}" for arrows, number, _ in table], title


# --- what the PDFs show --------------------------------------------------------------------------

def test_card_faces_show_their_counts(kanon_de):
    folder, _ = kanon_de
    texts = [normal(t) for t in all_card_text_items(pdf(folder, "cards"))]
    assert len(texts) == 63
    kinds = Counter()
    for text in texts:
        if "Kanon im" in text or "Kanon in der" in text:
            kinds["canon"] += 1
        elif "Pause" in text:
            kinds["Pause"] += 1
        elif any(name in text for name in SPECIALS_DE):
            kinds[next(name for name in SPECIALS_DE if name in text)] += 1
        elif "+1" in text or "+2" in text:
            kinds["+2" if "2 Karten" in text else "+1"] += 1
        else:
            kinds[text.split()[0]] += 1  # a note card starts with its corner letter
    assert kinds == {**{p: 6 for p in PITCHES}, "Pause": 6, "+1": 4, "+2": 2, "Richtungswechsel": 3,
                     "Aussetzen": 3, "Karten tauschen": 2, "canon": 7}


def test_each_printed_canon_card_lists_its_intervals_in_the_sheets_order(kanon_de):
    folder, _ = kanon_de
    found = {}
    for text in all_card_text_items(pdf(folder, "cards")):
        title = next((t for t in SEED_CANONS if " ".join(t.split()) in " ".join(text.split())), None)
        if title:
            found[title] = text
    assert set(found) == set(SEED_CANONS)
    for title, table in SEED_CANONS.items():
        text = found[title]
        positions = [text.find(name) for _, _, name in table]
        assert -1 not in positions and positions == sorted(positions), (title, positions)
        # the interval numbers, in the same order, each just before its name
        for (_, number, name), at in zip(table, positions):
            assert text[:at].rstrip().endswith(str(number)), (title, name)
        # a doubled arrow says it may repeat, a single one does not
        assert text.count("auch öfter nacheinander") == sum(1 for arrows, _, _ in table if len(arrows) == 2)


@pytest.mark.parametrize("paper", PAPER)
def test_backs_land_behind_their_fronts_and_canon_cards_have_their_own_page(kanon_de, paper):
    """Each back design on pages of its own (issue 36): butted cards share cut lines, and the
    cream canon backs beside wine deck backs (and, on the fronts, a wine header band beside a
    white Pause card) showed a cut a little off. The 56 play cards fill 7 pages, the last with
    2 Pauses alone; the 7 canon cards the 8th."""
    folder, _ = kanon_de
    fronts, backs = pdf(folder, "cards", paper), pdf(folder, "backs", paper)
    behind = backs_behind_fronts(fronts, backs, PAPER[paper], (CARD_W, CARD_H))
    assert all(len(names) == 1 for names in behind.values())  # every front has one back design
    back_pages = [placements(page) for page in PdfReader(backs).pages]
    assert len(back_pages) == len(PdfReader(fronts).pages) == 8
    designs = [{b.name for b in page} for page in back_pages]
    assert all(len(names) == 1 for names in designs), "one back design a page"
    assert designs[-1] != designs[0] and all(names == designs[0] for names in designs[:-1])
    assert [len(page) for page in back_pages] == [9] * 6 + [2, 7]
    texts = card_text_items(backs, paper)
    assert all("Kanon-Karte" in t for t in texts[-1]) and all("Hexachord" in t for t in texts[-2])
    assert ["Pause" in normal(t) for t in card_text_items(fronts, paper)[-2]] == [True, True]


def chars_by_font(path):
    """For each font a PDF sets text in, the characters it sets (as pdfium reads them back)."""
    doc = pdfium.PdfDocument(str(path))
    found: dict[str, set[str]] = {}
    buf, flags = ctypes.create_string_buffer(256), ctypes.c_int()
    for page in doc:
        textpage = page.get_textpage()
        for i in range(textpage.count_chars()):
            pdfium.raw.FPDFText_GetFontInfo(textpage, i, buf, 256, ctypes.byref(flags))
            found.setdefault(buf.value.decode().split("+")[-1], set()).add(chr(pdfium.raw.FPDFText_GetUnicode(textpage, i)))
    doc.close()
    return found


def test_german_names_umlauts_and_sharp_s_extract(kanon_de):
    folder, _ = kanon_de
    cards = " ".join(all_card_text_items(pdf(folder, "cards")))
    backs = " ".join(all_card_text_items(pdf(folder, "backs")))
    rules = " ".join(page_text(pdf(folder, "rules-board"), i) for i in range(2))
    for word in SPECIALS_DE + ["Pause", "aufwärts", "abwärts", "höher", "außer"]:
        assert word in cards, word
    assert "Kanon-Karte" in backs and "Ein Kartenspiel im Hexachord" in backs
    for word in ["Über dieses Spiel", "Intervalle zählen", "Töne", "außer", "Welche Note passt?",
                 "Richtungswechsel ·", "Karten tauschen", "Spielanleitung", "Lizenz"]:
        assert word in rules, word
    for ch in "äöüß":
        assert ch in cards and ch in rules, ch


@pytest.mark.parametrize("kind", ["cards", "cards-lowink", "backs", "rules-board"])
def test_every_font_that_sets_german_text_has_the_umlauts_and_sharp_s(kanon_de, kind):
    """Umlauts and ß come from the same font as the word around them (no fallback), and every
    font that sets letters has all of ÄÖÜäöüß, so any German text in it would print."""
    folder, _ = kanon_de
    used = chars_by_font(pdf(folder, kind))
    letter_fonts = {name for name, chars in used.items() if any(c.isascii() and c.isalpha() for c in chars)}
    assert letter_fonts, used
    for name in letter_fonts:
        assert name.startswith("NotoSans-"), name  # sans and condensed, never music/math/symbols
        cmap = TTFont(FONTS_DIR / f"{name}.ttf").getBestCmap()
        assert all(ord(c) in cmap for c in "ÄÖÜäöüß"), name
    umlaut_fonts = {name for name, chars in used.items() if chars & set("ÄÖÜäöüß")}
    assert umlaut_fonts <= letter_fonts, umlaut_fonts
    if kind != "backs":  # the backs have no umlauts to show
        assert umlaut_fonts


@pytest.mark.parametrize("kind", ["cards", "backs", "rules-board"])
def test_no_printed_text_is_smaller_than_6_5_pt(kanon_en, kind):
    """In English too (the German build is checked with every deck's, in test_decks.py)."""
    sizes = text_sizes(pdf_en(kanon_en[0], kind))
    assert sizes and min(sizes) >= 6.5, sorted(sizes.items())[:4]


# --- low ink -------------------------------------------------------------------------------------

def test_each_note_colour_keeps_its_letter_on_the_low_ink_pages(kanon_de):
    """A pitch's colour is never the only carrier: on the greyscale cards every note card still
    prints its letter in both corners and large in the middle, with its syllable."""
    folder, _ = kanon_de
    solm = dict(zip(PITCHES, ["ut", "re", "mi", "fa", "sol", "la"]))
    seen = Counter()
    for text in all_card_text_items(pdf(folder, "cards-lowink")):
        words = text.split()
        if words and words[0] in solm and solm[words[0]] in words:
            assert words.count(words[0]) == 3, text  # top corner, centre, bottom corner
            seen[words[0]] += 1
    assert seen == {p: 6 for p in PITCHES}


# --- English ---------------------------------------------------------------------------------------

SEED_CANONS_EN = {
    "Canon at the unison": "Kanon im Einklang",
    "Canon at the octave above": "Kanon in der Oberoktave",
    "Canon at the octave below": "Kanon in der Unteroktave",
    "Canon at the fifth above": "Kanon in der Oberquinte",
    "Canon at the fifth below": "Kanon in der Unterquinte",
    "Canon at the fourth above": "Kanon in der Oberquarte",
    "Canon at the fourth below": "Kanon in der Unterquarte",
}
INTERVALS_EN = {"Sekunde aufwärts": "Second up", "Terz aufwärts": "Third up", "Quarte aufwärts": "Fourth up",
                "Quinte aufwärts": "Fifth up", "Sekunde abwärts": "Second down", "Terz abwärts": "Third down",
                "Quarte abwärts": "Fourth down", "Quinte abwärts": "Fifth down", "Prime": "Unison"}
GERMAN_WORDS = SPECIALS_DE + ["Pause", "Kanon", "Karte", "Note", "Terz", "Quinte", "Quarte", "Sekunde", "Prime",
                              "Spiel", "Regeln", "nächste", "und", "der", "die"]


@pytest.fixture(scope="module")
def kanon_en(shared_build):
    """The deck in English on A4, both inks, as `deckpress build kanon --lang en --paper a4` writes it."""
    out, result = shared_build("kanon-en", "kanon", papers=["a4"], lang="en")
    return out / "kanon", result


def pdf_en(folder, kind):
    return folder / f"kanon-en-{kind}-a4.pdf"


def test_english_build_writes_every_file_without_warnings(kanon_en):
    folder, result = kanon_en
    assert {p.name for p in folder.iterdir()} == {pdf_en(folder, k).name for k in KINDS}
    assert not result.warnings.messages


def test_english_cards_have_the_same_counts_and_english_names(kanon_en):
    folder, _ = kanon_en
    texts = [normal(t) for t in all_card_text_items(pdf_en(folder, "cards"))]
    assert len(texts) == 63
    kinds = Counter()
    for text in texts:
        if text.startswith("1 Canon at") or "Canon at the" in text:
            kinds["canon"] += 1
        elif "Rest" in text:
            kinds["Rest"] += 1
        elif any(name in text for name in ("Reverse", "Skip", "Swap hands")):
            kinds[next(name for name in ("Reverse", "Skip", "Swap hands") if name in text)] += 1
        elif "+1" in text or "+2" in text:
            kinds["+2" if "2 cards" in text else "+1"] += 1
        else:
            kinds[text.split()[0]] += 1
    assert kinds == {**{p.upper(): 6 for p in PITCHES}, "Rest": 6, "+1": 4, "+2": 2, "Reverse": 3, "Skip": 3,
                     "Swap hands": 2, "canon": 7}


@pytest.mark.parametrize("kind", ["cards", "backs", "rules-board", "cards-lowink", "rules-board-lowink"])
def test_english_build_has_no_german_left(kanon_en, kind):
    folder, _ = kanon_en
    texts = " ".join(normal(t) for t in all_card_text_items(pdf_en(folder, kind)))
    assert texts
    words = set(texts.replace(":", " ").replace(".", " ").replace(",", " ").split())
    for german in GERMAN_WORDS:
        assert german not in words, german
    assert not set("äöüßÄÖÜ") & set(texts)
    meta = PdfReader(pdf_en(folder, kind)).metadata
    assert meta["/Author"] == "Anonymous" and "Canon by Anonymous" in meta["/Subject"]


def test_english_canon_cards_list_the_sheets_intervals_in_order(kanon_en):
    folder, _ = kanon_en
    found = {}
    for text in all_card_text_items(pdf_en(folder, "cards")):
        text = normal(text)
        title = next((t for t in SEED_CANONS_EN if t in text), None)
        if title:
            found[title] = text
    assert set(found) == set(SEED_CANONS_EN)
    for title, german in SEED_CANONS_EN.items():
        names = [INTERVALS_EN[name] for _, _, name in SEED_CANONS[german]]
        positions = [found[title].find(name) for name in names]
        assert -1 not in positions and positions == sorted(positions), (title, positions)
        assert found[title].count("also several times in a row") == 2


def test_english_rule_cards_cover_every_section(kanon_en):
    folder, _ = kanon_en
    rules = normal(" ".join(page_text(pdf_en(folder, "rules-board"), i) for i in range(2)))
    for title in ("Setting up", "Playing", "Which note may follow?", "Counting intervals",
                  "The edges of the hexa", "Rest", "+1 and +2", "Reverse · Skip", "Swap hands",
                  "Drawing · Game end", "About this game"):
        assert title in rules, title
    assert "C D E F G A" in rules and "CC BY 4.0" in rules and "Canon · rules 12/12" in rules


def copy_deck(tmp_path) -> Path:
    folder = tmp_path / "kanon"
    shutil.copytree(Path(load_deck("kanon").file).parent, folder)
    return folder


def test_a_missing_translation_fails_check_and_the_english_build(tmp_path):
    folder = copy_deck(tmp_path)
    runner = CliRunner()
    assert runner.invoke(cli, ["check", str(folder)]).exit_code == 0  # the copy is complete
    catalogue = folder / "translations" / "en.yaml"
    text = catalogue.read_text(encoding="utf-8")
    entry = "- de: Aussetzen\n  en: Skip\n"
    assert text.count(entry) == 1
    catalogue.write_text(text.replace(entry, ""), encoding="utf-8")

    checked = runner.invoke(cli, ["check", str(folder)])
    assert checked.exit_code != 0
    assert "en.yaml" in checked.output and "'Aussetzen'" in checked.output and "deck.yaml" in checked.output
    with pytest.raises(DeckError) as failed:
        build_deck(folder, tmp_path / "out", papers=["a4"], inks=["color"], lang="en")
    assert "Aussetzen" in str(failed.value) and "en.yaml" in str(failed.value)
    assert not (tmp_path / "out" / "kanon").exists() or not any((tmp_path / "out" / "kanon").iterdir())
    # the German build does not need the translation
    build_deck(folder, tmp_path / "de", papers=["a4"], inks=["color"])


# -- low ink, the credit, the headings (issue 20) ------------------------------------------------

def test_low_ink_canon_cards_keep_the_arrow_beside_the_interval_readable():
    """The arrow beside the second voice's interval (↑ above, ↓ below) is cream on the wine band;
    low-ink pales the band, and left the arrow grey 234 on 237. Measured on the rasterised card."""
    from deckpress.backends.raster import RasterJob, pixels, render, trim_box
    from deckpress.builder.faces import compose_faces
    from deckpress.builder.plan import Variant
    from deckpress.errors import Warnings

    faces = compose_faces(load_deck("kanon"), Warnings())
    inked = faces.inked(Variant.of("lowink"))
    canons = [e for e in faces.entries if e.component == "kanons" and e.number > 1]  # 1: unison, no arrow
    assert len(canons) == 6
    dpi = 300
    px = dpi / 25.4
    jobs = [RasterJob(inked(e.front), trim_box(e.front), pixels(trim_box(e.front), dpi)) for e in canons]
    for entry, image in zip(canons, render(jobs, workers=1)):
        grey = image.convert("L")

        def mean(x, y, r=0.3):  # the mean grey of a square 2r mm wide round (x, y) mm
            box = tuple(round(v * px) for v in (x - r, y - r, x + r, y + r))
            patch = grey.crop(box)
            return sum(patch.histogram()[v] * v for v in range(256)) / (patch.width * patch.height)

        arrow, band = mean(12.9, 11.3), mean(16.5, 4.5)  # the arrow's shaft; the band beside it
        assert band - arrow >= 128, (entry.name, band, arrow)


@pytest.mark.parametrize("lang, credit, unknown", [
    ("de", "Anonym", "AutorundLizenzdesSpielsunbekannt"), ("en", "Anonymous", "thegame’sauthorandlicenceunknown")])
def test_the_box_credits_what_is_known_and_says_what_is_not(lang, credit, unknown, tmp_path):
    """The credit is the one for unsigned work ("Anonym"), never "unknown"; under the title the
    front says the game's own author and licence are unknown (issue 36): "Anonym" and CC BY 4.0
    are this edition's."""
    from tests.pdfread import char_angles
    build_deck("kanon", tmp_path, ["a4"], ["color"], lang=lang)
    words = "".join(c for c, *_ in char_angles(tmp_path / "kanon" / f"kanon{'-en' if lang == 'en' else ''}-box-a4.pdf"))
    assert credit in words and words.count(unknown) == 1
    assert "unbekannt" not in words.replace(unknown, "") and "unknown" not in words.replace(unknown, "")


@pytest.mark.parametrize("lang, heading, lines", [
    ("de", "Die Grenzen des Hexachords", ["Die Grenzen", "des Hexachords"]),
    ("de", "Richtungswechsel · Aussetzen", ["Richtungswechsel ·", "Aussetzen"]),  # the "·" with the word before
    ("en", "The edges of the hexachord", ["The edges of", "the hexachord"])])
def test_long_headings_break_balanced_at_the_size_of_the_others(lang, heading, lines):
    """The rule cards' title band holds two lines: a long heading breaks into two balanced lines,
    unhyphenated, instead of shrinking (issue 31: "Hexa-chords" split inside a title band), and
    both lines sit in the band."""
    from deckpress.builder.faces import compose_faces
    from deckpress.errors import Warnings
    from deckpress.units import PT

    faces = compose_faces(load_deck("kanon", lang=None if lang == "de" else lang), Warnings())
    titles = []
    for e in faces.entries:
        if e.component == "regeln":
            band = sorted((t.y, t.text, t.size) for t in text_items(e.front.items) if t.y < 14.0)
            if " ".join(text for _, text, _ in band) == heading:
                titles.append(band)
    assert titles, heading
    band = titles[0]
    assert [text for _, text, _ in band] == lines
    assert {round(size / PT, 2) for _, _, size in band} == {15.0}
    assert band[1][0] - band[0][0] == pytest.approx(0.95 * 15 * PT)  # the layout's line-height
    # the caps 3 mm or more inside the trim (Noto Sans Condensed's are 0.714 em), the descenders above the stripe
    assert band[0][0] - 0.714 * 15 * PT >= 3.0 and band[1][0] + 0.24 * 15 * PT < 14.0


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_heading_has_one_size(lang):
    """The rule cards' titles, and the canon cards', each at the size their template gives: none
    shrinks to fit ("Die Grenzen des Hexachords" and "Richtungswechsel · Aussetzen" did)."""
    from deckpress.builder.faces import compose_faces
    from deckpress.errors import Warnings
    from deckpress.units import PT

    faces = compose_faces(load_deck("kanon", lang=None if lang == "de" else lang), Warnings())
    # the title boxes: a rule card's band ends at 14 mm; a canon card's title starts right of its mark
    band = {"regeln": lambda t: t.y < 14.0, "kanons": lambda t: t.y < 19.0 and t.x >= 19.0}
    sizes = {name: Counter() for name in band}
    for e in faces.entries:
        if e.component in band:
            sizes[e.component].update(round(t.size / PT, 2) for t in text_items(e.front.items) if band[e.component](t))
    assert set(sizes["regeln"]) == {15.0} and sum(sizes["regeln"].values()) >= 12
    assert set(sizes["kanons"]) == {15.0} and sum(sizes["kanons"].values()) >= 14  # two lines each


# --- this edition's readings, marked as such (issue 36) ------------------------------------------

#: Where the rule sheet is silent or terse, the rule cards say what this edition chose: each
#: reading follows its marker, in both languages. Before, only the empty-pile end was marked.
READINGS = {
    "de": ("Unsere Lesart:", ["einfacher Pfeil", "unterbrechen die Reihe nicht", "wie eine Note an die Kanon-Reihe",
                              "zieht niemand für deine Karte", "Zahlen werden nicht zusammengezählt",
                              "Damit ist dein Zug vorbei"]),
    "en": ("Our reading:", ["single arrow", "do not break the row", "like a note, it goes into the canon row",
                            "nobody draws for your card", "numbers are not added up", "that ends your turn"]),
}


@pytest.mark.parametrize("lang", READINGS)
def test_every_reading_of_the_sheet_is_marked_as_this_editions(lang, kanon_de, kanon_en):
    marker, readings = READINGS[lang]
    path = pdf(kanon_de[0], "rules-board") if lang == "de" else pdf_en(kanon_en[0], "rules-board")
    cards = [normal(t) for t in all_card_text_items(path)]
    for reading in readings:
        card = next((c for c in cards if reading.lower() in c.lower()), None)
        assert card is not None, reading
        before = card.lower()[:card.lower().index(reading.lower())]
        assert marker.lower() in before, (reading, card)  # the marker stands before the reading
    about = next(c for c in cards if "CC BY" in c)
    assert marker[:-1] in about  # the About card says what the marker means
    # the canon cards' short rule carries it too
    fronts = pdf(kanon_de[0], "cards") if lang == "de" else pdf_en(kanon_en[0], "cards")
    canon = [normal(t) for t in card_text_items(fronts)[-1]]
    assert len(canon) == 7 and all(marker in c for c in canon)
