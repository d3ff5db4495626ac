"""End to end: build the bundled metronome deck and read every promise back from the PDFs."""

from __future__ import annotations

from collections import Counter

import pytest
from pypdf import PdfReader

from generator.build import build_deck
from generator.model import load_deck
from tests.pdfread import MM, colour_operators, darkness, fonts, page_text, placements, trim_box_mm

CARD_W, CARD_H = 63.5, 88.9
PAPER = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
KINDS = ["cards", "cards-lowink", "backs", "backs-lowink", "duplex", "duplex-lowink",
         "rules-board", "rules-board-lowink"]


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
    reader = PdfReader(pdf(folder, "cards", paper))
    W, H = PAPER[paper]
    x0, y0 = (W - 3 * CARD_W) / 2, (H - 3 * CARD_H) / 2
    assert len(reader.pages) == 7
    total = 0
    for page in reader.pages:
        placed = placements(page)
        total += len(placed)
        for i, p in enumerate(placed):
            row, col = divmod(i, 3)
            box = trim_box_mm(p, CARD_W, CARD_H, H * MM)
            assert box == pytest.approx((x0 + col * CARD_W, y0 + row * CARD_H,
                                         x0 + (col + 1) * CARD_W, y0 + (row + 1) * CARD_H), abs=0.01)
    assert total == 63


@pytest.mark.parametrize("paper", PAPER)
def test_backs_land_behind_their_fronts_on_a_long_edge_flip(metronome_build, paper):
    folder, _ = metronome_build
    W, H = PAPER[paper]
    fronts = PdfReader(pdf(folder, "cards", paper))
    backs = PdfReader(pdf(folder, "backs", paper))
    assert len(backs.pages) == len(fronts.pages)
    for front_page, back_page in zip(fronts.pages, backs.pages):
        f, b = placements(front_page), placements(back_page)
        assert len(f) == len(b)
        for fp, bp in zip(f, b):
            fx0, fy0, fx1, fy1 = trim_box_mm(fp, CARD_W, CARD_H, H * MM)
            bx0, by0, bx1, by1 = trim_box_mm(bp, CARD_W, CARD_H, H * MM)
            # turning the sheet over about its vertical axis takes x to W - x
            assert (W - (bx0 + bx1) / 2, (by0 + by1) / 2) == pytest.approx(((fx0 + fx1) / 2, (fy0 + fy1) / 2), abs=0.01)
            # and the back is upright, not mirrored: its face's top-left lands at the trim's top-right
            # as seen from the front, i.e. at the top-left of the back trim
            assert bp.point_mm(0, 0, H * MM) == pytest.approx((bx0, by0), abs=0.01)


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


@pytest.mark.parametrize("kind", KINDS)
def test_page_boxes_are_nested_and_trim_covers_the_cards(metronome_build, kind):
    folder, _ = metronome_build
    for paper, (W, H) in PAPER.items():
        reader = PdfReader(pdf(folder, kind, paper))
        assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
        for page in reader.pages:
            media = [float(v) for v in page.mediabox]
            bleed = [float(v) for v in page.bleedbox]
            trim = [float(v) for v in page.trimbox]
            assert media == pytest.approx([0, 0, W * MM, H * MM], abs=0.01)
            assert media[0] <= bleed[0] <= trim[0] and media[1] <= bleed[1] <= trim[1]
            assert trim[2] <= bleed[2] <= media[2] and trim[3] <= bleed[3] <= media[3]
            boxes = [trim_box_mm(p, CARD_W, CARD_H, H * MM) for p in placements(page)]
            union = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
            assert (trim[0] / MM, H - trim[3] / MM, trim[2] / MM, H - trim[1] / MM) == pytest.approx(union, abs=0.01)
            assert bleed[0] < trim[0] and bleed[2] > trim[2]  # bleed at the outer edges


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
    # the marks and scale bar are stored once per page layout too: full pages share one
    furniture = {ref.idnum for page in reader.pages for name, ref in page["/Resources"]["/XObject"].items()
                 if ".sheet" in name}
    assert len(furniture) == 1  # all 14 pages are full 3 x 3 grids: fronts and mirrored backs share it


def test_rebuilding_gives_byte_identical_files(metronome_build, tmp_path):
    folder, _ = metronome_build
    again = build_deck("metronome", tmp_path, papers=["letter"])
    for output in again.outputs:
        assert output.path.read_bytes() == (folder / output.path.name).read_bytes(), output.path.name
