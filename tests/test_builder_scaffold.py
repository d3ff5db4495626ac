"""`deckpress new`: a deck that checks clean and builds as it is, one that extends a bundled deck
with a working example of each change, and a folder never written over."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from deckpress import api
from deckpress.bundled import DECKS_DIR
from deckpress.errors import DeckError
from deckpress.model import bundled_deck_ids, load_deck


def test_a_new_deck_checks_clean_and_builds(tmp_path):
    folder = api.new_deck(tmp_path / "fruit-salad")
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()) == [
        ".deckpress/deck.schema.json", ".deckpress/layout.schema.json",  # for editors: tests/test_schema.py
        "README.md", "art/emblem.svg", "cards.csv", "deck.yaml", "layouts/fruit-salad.yaml"]
    checked = api.check(folder)
    assert (checked.deck.id, checked.deck.title) == ("fruit-salad", "Fruit Salad")
    assert list(checked.warnings) == []
    rows = (folder / "cards.csv").read_text(encoding="utf-8").splitlines()
    assert checked.deck.card_count("cards") == sum(int(row.rsplit(",", 1)[1]) for row in rows[1:])
    result, = api.build(folder, tmp_path / "out", papers="a4", inks="color")
    assert list(result.warnings) == []
    cards = next(o.path for o in result.outputs if o.path.name == "fruit-salad-cards-a4.pdf")
    text = "".join(page.extract_text() for page in PdfReader(cards).pages)
    for name in ("Sunrise", "High Noon", "Low Tide", "Storm", "Sprout", "Old Oak"):
        assert name in text
    rules = next(o.path for o in result.outputs if "rules-board" in o.path.name)
    assert "How to play" in PdfReader(rules).pages[0].extract_text()


def test_the_readme_names_the_files_it_says_to_edit(tmp_path):
    folder = api.new_deck(tmp_path / "fruit")
    readme = (folder / "README.md").read_text(encoding="utf-8")
    for path in ("cards.csv", "deck.yaml", "art/emblem.svg", "layouts/fruit.yaml"):
        assert f"`{path}`" in readme and (folder / path).is_file()
    assert "__" not in readme + (folder / "deck.yaml").read_text(encoding="utf-8")


def uncomment(text: str) -> str:
    """What a designer does to try a commented example: take the # off its YAML lines."""
    return re.sub(r"(?m)^# (?!yaml-language-server:)(  |- |[a-z_-]+:)", r"\1", text)


@pytest.mark.parametrize("base", bundled_deck_ids())
def test_a_deck_from_a_bundled_one_checks_clean_and_so_does_each_example(tmp_path, base):
    folder = api.new_deck(tmp_path / "mine", base=base)
    parent = load_deck(base)
    checked = api.check(folder)
    assert list(checked.warnings) == []
    assert (checked.deck.id, checked.cards) == ("mine", api.check(base).cards)
    assert "extends: " + base in (folder / "deck.yaml").read_text(encoding="utf-8")

    for path in (folder / "deck.yaml", folder / "layouts" / "mine.yaml"):
        path.write_text(uncomment(path.read_text(encoding="utf-8")), encoding="utf-8")
    changed = api.check(folder)
    assert list(changed.warnings) == []
    deck = changed.deck
    assert [c.name for c in deck.components] == (
        [c.name for c in parent.components[:-1]] + [f"more-{parent.components[0].name}"])
    assert deck.layouts.templates.keys() == parent.layouts.templates.keys()
    back = (parent.components[0].back or parent.components[0].front).name
    assert deck.layouts.templates[back].elements != parent.layouts.templates[back].elements


def test_a_deck_from_a_folder_names_it_by_its_relative_path(tmp_path):
    base = api.new_deck(tmp_path / "base")
    (tmp_path / "variants").mkdir()
    folder = api.new_deck(tmp_path / "variants" / "night", base=str(base))
    assert "extends: ../../base\n" in (folder / "deck.yaml").read_text(encoding="utf-8")
    deck = load_deck(folder)
    assert deck.folders == (folder.resolve(), base.resolve())
    assert deck.card_count() == load_deck(base).card_count()


def test_an_existing_folder_is_never_written_over(tmp_path):
    folder = tmp_path / "taken"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    with pytest.raises(DeckError, match="'.*taken' already exists; deckpress new never writes over a folder"):
        api.new_deck(folder)
    assert [p.name for p in folder.iterdir()] == ["notes.txt"]


@pytest.mark.parametrize("name, base, message", [
    ("my deck", None, "'my deck' cannot name a deck: use letters, digits"),
    ("nowhere/deck", None, "no folder 'nowhere' to make the deck in"),
    ("mine", "metronom", "no deck 'metronom' to start from"),
    ("metronome", "metronome", "the new deck needs an id of its own, not 'metronome'"),
])
def test_mistakes(tmp_path, monkeypatch, name, base, message):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(DeckError, match=message):
        api.new_deck(name, base=base)
    assert list(tmp_path.iterdir()) == []  # nothing half-made left behind


def test_nothing_is_left_when_writing_fails(tmp_path, monkeypatch):
    from deckpress.builder import scaffold

    def fail(*args):
        raise OSError("disk full")

    monkeypatch.setattr(scaffold, "_write_extending", fail)
    with pytest.raises(OSError):
        api.new_deck(tmp_path / "mine", base="metronome")
    assert list(tmp_path.iterdir()) == []


def test_the_starter_is_not_a_bundled_deck():
    assert not (DECKS_DIR / "__ID__").exists()
    assert "__ID__" not in bundled_deck_ids()
    assert Path(api.__file__).parent.joinpath("builder", "starter", "deck.yaml").is_file()
