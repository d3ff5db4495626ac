"""Translations: a deck printed in another language from translations/<lang>.yaml, and every way it can be wrong."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from deckpress.builder.deckbuild import build_deck
from deckpress.cli import main
from deckpress.errors import DeckError
from deckpress.model import load_deck
from deckpress.model.translations import needs_translation, normalise
from tests.conftest import SIMPLE_LAYOUT
from tests.pdfread import page_text

GERMAN = """
    id: karten
    title: Karten
    designer: Test
    license: CC0-1.0
    language: de
    layouts: [simple]
    palette:
      red: {color: "#cc2233", symbol: circle}
    components:
      - name: things
        front: front
        back: back
        cards:
          - {title: Aussetzen, count: 2}
          - {title: "+2"}
          - {title: Richtungswechsel}
"""
LAYOUT = SIMPLE_LAYOUT.replace('text: "{title}"', 'text: "**{title}** · Karte {card.number}"')
ENGLISH = """\
- de: Aussetzen
  en: Skip
- de: Richtungswechsel
  en: Reverse
- de: "**{title}** · Karte {card.number}"
  en: "**{title}** · card {card.number}"
- de: Karten
  en: Cards
"""


@pytest.fixture
def german(make_deck):
    return lambda english=ENGLISH: make_deck(GERMAN, {"simple": LAYOUT}, {"translations/en.yaml": english.encode()})


def test_the_deck_prints_in_its_own_language_and_in_its_translations(german, tmp_path):
    folder = german()
    assert load_deck(folder).languages == ["de", "en"]
    de = build_deck(folder, tmp_path, papers=["a4"], inks=["color"])
    en = build_deck(folder, tmp_path, papers=["a4"], inks=["color"], lang="en")
    assert [o.path.name for o in de.outputs] == ["karten-cards-a4.pdf", "karten-backs-a4.pdf", "karten-duplex-a4.pdf",
                                                 "karten-box-a4.pdf"]
    assert [o.path.name for o in en.outputs] == ["karten-en-cards-a4.pdf", "karten-en-backs-a4.pdf",
                                                 "karten-en-duplex-a4.pdf", "karten-en-box-a4.pdf"]
    # the words, wherever the lines break
    german_text = " ".join(page_text(tmp_path / "karten" / "karten-cards-a4.pdf", 0).split())
    english_text = " ".join(page_text(tmp_path / "karten" / "karten-en-cards-a4.pdf", 0).split())
    assert "Aussetzen · Karte 1" in german_text and "Richtungswechsel · Karte" in german_text
    assert "Skip · card 1" in english_text and "+2 · card 2" in english_text and "Reverse · card 3" in english_text
    assert "Aussetzen" not in english_text and "Cards · karten-en-cards-a4.pdf" in english_text


def test_a_missing_translation_is_one_line_naming_the_file_and_the_card(german, tmp_path):
    folder = german(ENGLISH.replace("- de: Richtungswechsel\n  en: Reverse\n", ""))
    with pytest.raises(DeckError) as err:
        build_deck(folder, tmp_path, lang="en")
    message = str(err.value)
    assert err.value.file.endswith("deck.yaml") and err.value.line == 17  # the text that needs it
    assert message.startswith(f"{err.value.file}:17: no 'en' entry for 'Richtungswechsel' in ")
    assert message.endswith("translations/en.yaml; add one with de: and en:")
    assert not (tmp_path / "karten").exists()  # nothing written
    result = CliRunner().invoke(main, ["check", str(folder)])
    assert result.exit_code == 2 and result.output.count("\n") == 1 and "Richtungswechsel" in result.output


def test_check_reads_every_language_and_warns_of_unused_entries(german):
    result = CliRunner().invoke(main, ["check", str(german(ENGLISH + "- de: Pause\n  en: Rest\n"))])
    assert result.exit_code == 0
    assert "translations/en.yaml:9: 'Pause' is not on any card (translated to en)" in result.output
    assert "in de, en" in result.output


@pytest.mark.parametrize("english, message", [
    (ENGLISH.replace("card {card.number}", "card {number}"),
     "the en text has fields {number}, {title}, the de text {card.number}, {title}; they must be the same"),
    ("- de: Aussetzen\n  fr: Passe\n", "each entry needs exactly 'de' and 'en', not de, fr"),
    ("de: Aussetzen\n", "a translation file is a list of entries"),
    (ENGLISH + "- de: Aussetzen\n  en: Miss a turn\n", r"'Aussetzen' is translated twice \(first on line 1\)"),
])
def test_translation_file_mistakes(german, tmp_path, english, message):
    with pytest.raises(DeckError, match=message):
        build_deck(german(english), tmp_path, lang="en")


def test_an_unknown_language_suggests_the_ones_there_are(german, tmp_path):
    result = CliRunner().invoke(main, ["build", str(german()), "--lang", "eng", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert result.output == "error: no translation into 'eng': the deck is in de, en — did you mean 'en'?\n"


def test_build_all_languages(german, tmp_path):
    result = CliRunner().invoke(main, ["build", str(german()), "--lang", "all", "--paper", "a4", "--ink", "color",
                                       "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "karten").iterdir()) == [
        "karten-backs-a4.pdf", "karten-box-a4.pdf", "karten-cards-a4.pdf", "karten-duplex-a4.pdf",
        "karten-en-backs-a4.pdf", "karten-en-box-a4.pdf", "karten-en-cards-a4.pdf", "karten-en-duplex-a4.pdf"]
    summaries = [line.split(":")[0] for line in result.stdout.splitlines()[:-1]]  # a line per language built
    assert summaries == ["karten (de)", "karten (en)"]


@pytest.mark.parametrize("text, needed", [("Aussetzen", True), ("+2", False), ("{title}", False),
                                          ("{n} Karten", True), ("ß", True), ("12", False)])
def test_only_text_with_letters_is_translated(text, needed):
    assert needs_translation(text) is needed


def test_texts_match_whatever_their_trailing_space():
    assert normalise("Zeile eins  \nZeile zwei\n\n") == "Zeile eins\nZeile zwei"



@pytest.mark.parametrize("entries, author", [("", "Jo Brandt"), ("- de: Jo Brandt\n  en: J. Brandt\n", "J. Brandt")])
def test_designer_and_licence_are_names_translated_only_where_an_entry_says_so(make_deck, tmp_path, entries, author):
    """A designer's name on a card needs no entry; one that is there ("unbekannt" → "unknown") is used,
    on the cards and in the PDF's Author."""
    from pypdf import PdfReader

    layout = SIMPLE_LAYOUT.replace('text: "{title}"', 'text: "{title}: {deck.designer} · {deck.license}"')
    english = ENGLISH + '- de: "{title}: {deck.designer} · {deck.license}"\n  en: "{title}: {deck.designer} · {deck.license}"\n'
    folder = make_deck(GERMAN.replace("designer: Test", "designer: Jo Brandt"), {"simple": layout},
                       {"translations/en.yaml": (english + entries).encode()})
    build_deck(folder, tmp_path, papers=["a4"], inks=["color"], lang="en")
    pdf = tmp_path / "karten" / "karten-en-cards-a4.pdf"
    assert f"Skip: {author} · CC0-1.0" in page_text(pdf, 0)
    assert PdfReader(pdf).metadata["/Author"] == author
