"""The DriveThruCards preset: one CMYK page per card side, trim plus 1/8 in bleed, no marks."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

import deckpress
from deckpress.builder.plan import Options
from deckpress.model import load_deck
from tests.pdfread import MM, page_boxes_mm, page_text, placements, rgb_left, text_colours

EIGHTH = 25.4 / 8


@pytest.fixture(scope="module")
def metronome(shared_build):
    out, result = shared_build("drivethru", "metronome", options=Options(formats=(), preset="drivethru"))
    result.deck = load_deck("metronome")
    return out / "metronome" / "metronome-drivethru.pdf", result


def test_one_page_per_card_side_front_then_back(metronome):
    path, result = metronome
    assert [o.path for o in result.outputs] == [path]
    reader = PdfReader(path)
    assert len(reader.pages) == 2 * result.deck.card_count() == 2 * 81
    # each page shows exactly one face; every card's back is the page after its front
    forms = [[p.name for p in placements(page)] for page in reader.pages]
    assert all(len(f) == 1 for f in forms)
    backs = {f[0] for f in forms[1::2]}
    fronts = {f[0] for f in forms[0::2]}
    assert not backs & fronts and len(backs) <= 2 < len(fronts)


def test_pages_are_trim_plus_an_eighth_inch_with_boxes(metronome):
    path, _ = metronome
    for page in PdfReader(path).pages[:6]:
        boxes = page_boxes_mm(page)
        assert boxes["mediabox"] == pytest.approx((0, 0, 63.5 + 2 * EIGHTH, 88.9 + 2 * EIGHTH), abs=0.01)
        assert boxes["bleedbox"] == pytest.approx(boxes["mediabox"], abs=0.01)
        assert boxes["trimbox"] == pytest.approx((EIGHTH, EIGHTH, EIGHTH + 63.5, EIGHTH + 88.9), abs=0.01)
        placed, = placements(page)
        assert (placed.matrix[4] / MM, placed.matrix[5] / MM) == pytest.approx((EIGHTH, EIGHTH + 88.9), abs=0.01)


def test_no_marks_no_label_and_no_rgb(metronome):
    path, _ = metronome
    text = page_text(path, 0)
    assert "print at 100" not in text and "page 1/" not in text and "whole note" in text
    assert rgb_left(path) == []
    colours = text_colours(PdfReader(path))
    assert (0, 0, 0, 1) in colours or (0.0, 0.0, 0.0, 1.0) in colours
    assert all(c[:3] == (0, 0, 0) for c in colours if c[3] >= 0.8)  # dark text: black ink alone


def test_boards_and_pawns_are_left_out_with_a_word(tmp_path):
    result, = deckpress.build("test-piece", tmp_path, formats=(), preset="drivethru")
    reader = PdfReader(tmp_path / "test-piece" / "test-piece-drivethru.pdf")
    assert len(reader.pages) == 2 * (36 + 10)  # instrument cards and rule cards
    assert any("left out of the DriveThruCards file" in w for w in result.warnings.messages)
