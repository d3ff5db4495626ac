"""Smart punctuation (text/punctuation.py): quotes per language, apostrophes, dashes, ellipses,
no-break spaces, the markup left alone; and `smart:` on a text element, read back from the PDF."""

from __future__ import annotations

import re

import pytest

from deckpress.builder.deckbuild import build_deck
from deckpress.text.punctuation import QUOTES, smarten
from tests.pdfread import page_text

NB = "\u00a0"


@pytest.mark.parametrize("lang, text, expected", [
    ("en", '"Play," she said, "then draw."', "“Play,” she said, “then draw.”"),
    ("en", "Say 'pass' and don't draw", "Say ‘pass’ and don’t draw"),
    ("en", "songs of the '90s", "songs of the ’90s"),
    ("en", "the players' cards", "the players’ cards"),
    ("en", '("quoted")', "(“quoted”)"),
    ("de", '"Kanon" und \'Pause\'', "„Kanon“ und ‚Pause‘"),
    ("de", "Peter's Karte", "Peter’s Karte"),
    ("de-CH", '"Kanon"', "«Kanon»"),
    ("fr", '"bonjour"', f"«{NB}bonjour{NB}»"),
    ("fr", '" bonjour "', f"«{NB}bonjour{NB}»"),  # the writer's spaces become the quotes' own
    ("fr", "l'eau", "l’eau"),
    ("es", '"hola"', "«hola»"),
    ("xx", '"hello"', "“hello”"),  # a language not in the table: English
    ("en", "wait -- then go --- now...", "wait – then go — now…"),
    ("en", "c -- e -- g", "c – e – g"),
    ("en", "cards 5 mm apart, 10 % off, 3 pt lines, 2 kg", f"cards 5{NB}mm apart, 10{NB}% off, 3{NB}pt lines, 2{NB}kg"),
    ("en", "1 in 3 cards, 5 maps", "1 in 3 cards, 5 maps"),  # not units
    ("en", "Note: go! Why?", "Note: go! Why?"),  # English sets nothing off
    ("fr", "Note: go! Why? Oui ;", f"Note{NB}: go{NB}! Why{NB}? Oui{NB};"),
    ("fr", "à 10:30, http://exemple.fr", "à 10:30, http://exemple.fr"),  # times and addresses stay
    ("fr", f"Attention{NB}!", f"Attention{NB}!"),  # already set off: not twice
])
def test_smart_punctuation(lang, text, expected):
    assert smarten(text, lang) == expected


MARKUP = re.compile(r"\\[*:\\]|\*\*?|:[a-z][a-z0-9_-]*:")


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
@pytest.mark.parametrize("text", [
    '"**Richtungswechsel**" -- *dann* :sharp: "weiter"',
    "**Ziel:** wer zuerst... keine Karte hat: \\*gewinnt\\*",
    "- a bullet with 'quotes' and :red: icons: ok!",
    "2 \\* 3 mm \\: '**x**'",
])
def test_markup_comes_through_untouched(lang, text):
    out = smarten(text, lang)
    assert MARKUP.findall(out) == MARKUP.findall(text)
    assert smarten(out, lang) == out  # and a second pass changes nothing


def test_quotes_see_through_bold_and_italic():
    assert smarten('"**bold**" and *"italic"*', "en") == "“**bold**” and *“italic”*"
    assert smarten('**"x"**', "de") == "**„x“**"


def test_icons_and_escapes_are_not_quotes_or_punctuation():
    assert smarten(":flat-sign: \\: x", "fr") == ":flat-sign: \\: x"
    assert smarten("E:flat-sign:'s", "en") == "E:flat-sign:’s"


def test_every_language_has_four_marks():
    assert all(len(marks) == 4 and all(m.strip() for m in marks) for marks in QUOTES.values())


DECK = """
    id: smart
    title: Smart
    designer: Test
    license: CC0-1.0
    language: {language}
    layouts: [smart]
    components:
      - name: things
        front: front
        back: back
        cards:
          - {{quote: "\\"Go\\" -- don't wait...", unit: 5 mm}}
    """

LAYOUT = """
    templates:
      front:
        fields: {quote: ~, unit: ~}
        elements:
          - text: {text: "{quote} {unit}", x: 5mm, y: 5mm, w: 100% - 10mm, h: 10mm, size: 10pt}
          - text: {text: "{quote}", x: 5mm, y: 30mm, w: 100% - 10mm, h: 10mm, size: 10pt, smart: false}
          - text: {text: "'x'", x: 5mm, y: 50mm, w: 100% - 10mm, h: 10mm, size: 10pt, lang: fr}
      back:
        elements:
          - rect: {x: 0mm, y: 0mm, w: 100%, h: 100%, fill: "#223344"}
    """


@pytest.mark.parametrize("language, expected", [("en", "“Go” – don’t wait…"), ("de", "„Go“ – don’t wait…")])
def test_a_card_prints_smart_punctuation_unless_told_not_to(make_deck, tmp_path, language, expected):
    """Read back from the PDF: the fields' text is smartened once filled in, in the deck's
    language or the element's `lang`; `smart: false` prints the text as written."""
    folder = make_deck(DECK.format(language=language), {"smart": LAYOUT})
    build_deck(folder, tmp_path / "out", ["a4"], ["color"])
    text = page_text(tmp_path / "out" / "smart" / "smart-cards-a4.pdf", 0)
    assert f"{expected} 5{NB}mm" in text or f"{expected} 5 mm" in text.replace(NB, " ")
    assert "\"Go\" -- don't wait..." in text
    assert "‹\u00a0x\u00a0›" in text or "‹ x ›" in text.replace(NB, " ")  # lang: fr on one element
