"""The sample decks in docs/samples/: Shalom, counting in Hebrew and Arabic, prints right to left,
its Arabic joined, its digits and punctuation where a reader of those scripts expects them."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

import deckpress
from deckpress.text.shaping import shape

from .pdfread import shown_codes

SHALOM = Path(__file__).resolve().parent.parent / "docs" / "samples" / "shalom"
ARABIC = str(SHALOM / "fonts" / "NotoSansArabic-Regular.ttf")
HEBREW = str(SHALOM / "fonts" / "NotoSansHebrew-Regular.ttf")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("shalom")
    (result,) = deckpress.build(SHALOM, out, papers="a4", inks="color")
    return result


def test_it_checks_clean_every_letter_in_a_font_it_names():
    result = deckpress.check(SHALOM)
    assert (result.cards, result.faces, list(result.warnings)) == (14, 9, [])


def page_text(path: Path, page: int = 0) -> str:
    document = pdfium.PdfDocument(str(path))
    try:
        return document[page].get_textpage().get_text_range()
    finally:
        document.close()


def test_the_rule_cards_copy_out_in_reading_order(built):
    text = page_text(next(o.path for o in built.outputs if o.path.name == "shalom-rules-board-a4.pdf"))
    assert "איך משחקים" in text and "طريقة اللعب" in text
    assert "מחלקים 5 קלפים לכל" in text


def test_arabic_is_joined_and_hebrew_runs_right_to_left(built):
    cards = next(o.path for o in built.outputs if o.path.name == "shalom-cards-a4.pdf")
    runs = shown_codes(PdfReader(cards))
    joined = [g.gid for g in shape("اثنان", ARABIC).glyphs]
    alone = [shape(letter, ARABIC).glyphs[0].gid for letter in "اثنان"]
    assert joined in runs  # the word as HarfBuzz joins it, drawn as one run
    assert joined != list(reversed(alone))  # its letters in their joined forms, not each alone
    hebrew = [g.gid for g in shape("שתיים", HEBREW).glyphs]
    assert hebrew in runs and hebrew == [shape(c, HEBREW).glyphs[0].gid for c in reversed("שתיים")]


def test_a_text_whose_script_no_font_has_says_which_script(tmp_path):
    deck = SHALOM / "deck.yaml"
    folder = tmp_path / "nofont"
    folder.mkdir()
    (folder / "layouts").mkdir()
    (folder / "layouts" / "shalom.yaml").write_text((SHALOM / "layouts" / "shalom.yaml").read_text(encoding="utf-8")
                                                     .replace("font: hebrew, ", "").replace("font: arabic, ", ""),
                                                     encoding="utf-8")
    text = deck.read_text(encoding="utf-8")
    text = text[:text.index("fonts:")] + text[text.index("components:"):]
    (folder / "deck.yaml").write_text(text, encoding="utf-8")
    warnings = [w.message for w in deckpress.check(folder).warnings if w.kind == "missing-glyph"]
    assert warnings and all("name a font for" in m for m in warnings)
    assert any("Hebrew" in m for m in warnings) and any("Arabic" in m for m in warnings)
