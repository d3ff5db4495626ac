"""End to end: build the bundled metronome deck and read every promise back from the PDFs."""

from __future__ import annotations

from collections import Counter

import pytest
from pypdf import PdfReader

from deckpress.builder.deckbuild import build_deck
from deckpress.model import load_deck
from tests.pdfread import (MM, backs_behind_fronts, cards_on_grid, check_page_boxes, colour_operators, darkness, fonts, page_text,
                           placements, trim_box_mm)

CARD_W, CARD_H = 63.5, 88.9
PAPER = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
SHEET_KINDS = ["cards", "cards-lowink", "backs", "backs-lowink", "duplex", "duplex-lowink",
               "rules-board", "rules-board-lowink"]
KINDS = SHEET_KINDS + ["box", "box-lowink"]


def pdf(folder, kind, paper):
    return folder / f"metronome-{kind}-{paper}.pdf"


def test_every_output_file_is_written(metronome_build):
    folder, result = metronome_build
    expected = {pdf(folder, k, p).name for k in KINDS for p in PAPER}
    assert {p.name for p in folder.iterdir()} == expected
    assert not result.warnings.messages


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


@pytest.mark.parametrize("paper", PAPER)
def test_fronts_sit_on_a_3_by_3_grid(metronome_build, paper):
    folder, _ = metronome_build
    assert cards_on_grid(pdf(folder, "cards", paper), PAPER[paper], (CARD_W, CARD_H)) == [9] * 7  # 63 cards


@pytest.mark.parametrize("paper", PAPER)
def test_backs_land_behind_their_fronts_on_a_long_edge_flip(metronome_build, paper):
    folder, _ = metronome_build
    behind = backs_behind_fronts(pdf(folder, "cards", paper), pdf(folder, "backs", paper), PAPER[paper],
                                 (CARD_W, CARD_H))
    assert behind


@pytest.mark.parametrize("paper", PAPER)
def test_duplex_interleaves_fronts_and_backs(metronome_build, paper):
    folder, _ = metronome_build
    reader = PdfReader(pdf(folder, "duplex", paper))
    assert len(reader.pages) == 14
    prefs = reader.trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/Duplex"] == "/DuplexFlipLongEdge" and prefs["/PrintScaling"] == "/None"
    fronts = PdfReader(pdf(folder, "cards", paper))
    H = PAPER[paper][1] * MM
    for i, page in enumerate(fronts.pages):
        expected = [trim_box_mm(p, CARD_W, CARD_H, H) for p in placements(page)]
        assert [trim_box_mm(p, CARD_W, CARD_H, H) for p in placements(reader.pages[2 * i])] == expected


@pytest.mark.parametrize("kind", SHEET_KINDS)
def test_page_boxes_are_nested_and_trim_covers_the_cards(metronome_build, kind):
    folder, _ = metronome_build
    for paper in PAPER:
        check_page_boxes(pdf(folder, kind, paper), PAPER[paper], (CARD_W, CARD_H))


@pytest.mark.parametrize("kind", KINDS)
def test_every_font_is_embedded(metronome_build, kind):
    folder, _ = metronome_build
    found = fonts(PdfReader(pdf(folder, kind, "a4")))
    assert found and all(found.values()), found
    assert not any("Helvetica" in name for name in found)


def test_rules_and_music_symbols_extract_as_text(metronome_build):
    folder, _ = metronome_build
    rules = pdf(folder, "rules-board", "a4")
    text = page_text(rules, 0) + page_text(rules, 1)
    for title in ("How to play", "Filling the measure", "Notes", "Time signatures", "Ties", "Accidentals",
                  "Dots", "Cramming a measure", "Rests", "Advanced play", "About metronome"):
        assert title in text
    assert "Guy T. Schafer" in text and "CC0" in text
    cards = page_text(pdf(folder, "cards", "a4"), 0)
    for symbol in ("\U0001D15D", "\U0001D15E", "\U0001D15F", "\U0001D160"):  # whole, half, quarter, eighth
        assert symbol in cards
    assert "♯" in page_text(pdf(folder, "cards", "a4"), 5)
    assert "print at 100 %" in cards and "page 1/7" in cards


@pytest.mark.parametrize("kind", ["cards-lowink", "backs-lowink", "duplex-lowink", "rules-board-lowink"])
def test_low_ink_has_no_rgb_left(metronome_build, kind):
    folder, _ = metronome_build
    counts, coloured = colour_operators(PdfReader(pdf(folder, kind, "a4")))
    assert set(counts) <= {b"k", b"K"}, counts
    assert counts[b"k"] > 0 and not coloured, "low-ink uses black ink only"


@pytest.mark.parametrize("paper", PAPER)
def test_low_ink_uses_at_most_40_percent_of_the_colour_ink(metronome_build, paper):
    folder, _ = metronome_build
    for kind in ("cards", "backs"):
        colour = darkness(pdf(folder, kind, paper))
        low = darkness(pdf(folder, f"{kind}-lowink", paper))
        assert low <= 0.40 * colour, (kind, low, colour)


def test_each_distinct_face_is_stored_once(metronome_build):
    folder, _ = metronome_build
    reader = PdfReader(pdf(folder, "duplex", "a4"))
    forms = set()
    placed = 0
    for page in reader.pages:
        for p in placements(page):
            placed += 1
            forms.add(p.name)
    stored = {ref.idnum for page in reader.pages for name, ref in page["/Resources"]["/XObject"].items()
              if ".face" in name}
    assert placed == 126  # 63 fronts + 63 backs
    # 27 notes and 12 rests all differ; 1 dot, 1 tie, 3 accidentals, 3 time signatures; 1 back
    assert len(stored) == len(forms) == 27 + 12 + 1 + 1 + 3 + 3 + 1
    # the marks and scale bar are stored once per page layout too: all 14 pages are full 3 x 3 grids,
    # so the 7 fronts share one, and the 7 backs, which have no crop marks, another
    furniture = {ref.idnum for page in reader.pages for name, ref in page["/Resources"]["/XObject"].items()
                 if ".sheet" in name}
    assert len(furniture) == 2


def test_rebuilding_gives_byte_identical_files(metronome_build, tmp_path):
    folder, _ = metronome_build
    again = build_deck("metronome", tmp_path, papers=["letter"])
    for output in again.outputs:
        assert output.path.read_bytes() == (folder / output.path.name).read_bytes(), output.path.name
