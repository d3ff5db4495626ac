"""Counts no real deck reaches are refused with one line naming the key, and every file a deck
reads stays inside its folder (or the bundled data), links followed (issue 17, classes 3 and 4)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from deckpress.errors import DeckError
from deckpress.model import load_deck
from deckpress.model.keys import MAX_CARDS, MAX_COPIES, MAX_COUNT
from tests.conftest import SIMPLE_DECK, SIMPLE_LAYOUT
from tests.test_model_translations import ENGLISH, GERMAN, LAYOUT


def cli(*args: str) -> subprocess.CompletedProcess:
    """The command as the shell runs it; a hang fails the test instead of stalling the run."""
    return subprocess.run([sys.executable, "-m", "deckpress.cli", *args], capture_output=True, text=True,
                          timeout=10)


def one_line(proc: subprocess.CompletedProcess, expected: str) -> None:
    assert (proc.returncode, proc.stdout, proc.stderr.splitlines()) == (2, "", [f"error: {expected}"])


def with_copies(copies: str) -> str:
    return SIMPLE_DECK.replace("back: back\n", f"back: back\n        copies: {copies}\n")


# -- counts and sizes ---------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["check", "build"])
def test_a_count_of_a_hundred_million_is_one_line_at_once(make_deck, tmp_path, command):
    folder = make_deck(SIMPLE_DECK.replace("count: 2", "count: 100000000"), {"simple": SIMPLE_LAYOUT})
    out = ["--out", str(tmp_path / "out")] if command == "build" else []
    one_line(cli(command, str(folder), *out),
             f"{folder / 'deck.yaml'}:15: count 100,000,000 is too many: one card is printed at most 1,000 times")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("deck, line, message", [
    (SIMPLE_DECK.replace("count: 2", f"count: {MAX_COUNT + 1}"), 15,
     "count 1,001 is too many: one card is printed at most 1,000 times"),
    (with_copies("100000000"), 14, "copies 100,000,000 is too many: a card list is printed at most 100 times"),
    (with_copies("players").replace("layouts:", "players: 2–1000\n    layouts:"), 15,
     "'copies: players' makes 1,000 copies, too many: a card list is printed at most 100 times"),
    (with_copies("10").replace("count: 2", "count: 1000"), 14,
     "the deck prints 10,010 pieces with component 'things': a deck prints at most 10,000"),
    (SIMPLE_DECK.replace("          - {title: Two, color: blue}\n",
                         "".join(f"          - {{title: T{i}}}\n" for i in range(MAX_CARDS))), 14,
     "10,001 cards in the list: a deck prints at most 10,000"),
    (SIMPLE_DECK.replace("back: back\n", "back: back\n        size: 100000x500\n"), 14,
     "size 100000 × 500 mm is too big: pieces are 10 to 1000 mm a side"),
], ids=["count", "copies", "copies-players", "pieces-per-deck", "card-list", "board-100-m"])
def test_each_limit_is_one_line_naming_the_key(make_deck, deck, line, message):
    folder = make_deck(deck, {"simple": SIMPLE_LAYOUT})
    with pytest.raises(DeckError) as err:
        load_deck(folder)
    assert str(err.value) == f"{folder / 'deck.yaml'}:{line}: {message}"


def test_a_deck_at_the_limits_checks_without_printing_each_copy(make_deck):
    """10,000 pieces from two entries: check composes the two (and the back), not every copy."""
    folder = make_deck(with_copies(str(MAX_COPIES // 10)).replace("count: 2", f"count: {MAX_COUNT - 1}"),
                       {"simple": SIMPLE_LAYOUT})
    proc = cli("check", str(folder))
    assert (proc.returncode, proc.stdout.strip()) == (0, "simple: ok — 10000 cards, 3 distinct faces")


def test_the_deck_total_counts_every_component(make_deck):
    """Each component within its own limits, the deck over its: said at the one that passes it."""
    deck = with_copies("10").replace("count: 2", "count: 900") + textwrap.indent(textwrap.dedent("""\
        - name: more
          front: front
          cards:
            - {title: Three, count: 1000}
        """), "      ")
    folder = make_deck(deck, {"simple": SIMPLE_LAYOUT})
    with pytest.raises(DeckError) as err:
        load_deck(folder)
    assert str(err.value) == (f"{folder / 'deck.yaml'}:20: the deck prints 10,010 pieces with component 'more': "
                              "a deck prints at most 10,000")


# -- files stay inside --------------------------------------------------------------------------

OUTSIDE_MESSAGE = "points outside the deck folder; files must stay inside it"


@pytest.fixture
def outside(tmp_path) -> Path:
    """A folder beside the deck's, holding what a link could lead to."""
    folder = tmp_path / "outside"
    (folder / "layouts").mkdir(parents=True)
    (folder / "layouts" / "simple.yaml").write_text(textwrap.dedent(SIMPLE_LAYOUT), encoding="utf-8")
    (folder / "translations").mkdir()
    (folder / "translations" / "en.yaml").write_text(ENGLISH, encoding="utf-8")
    (folder / "cards.csv").write_text("title,count\nOne,2\n", encoding="utf-8")
    return folder


def test_a_layout_file_linked_from_outside_is_refused(make_deck, outside):
    folder = make_deck(SIMPLE_DECK)
    (folder / "layouts" / "simple.yaml").symlink_to(outside / "layouts" / "simple.yaml")
    with pytest.raises(DeckError) as err:
        load_deck(folder)
    assert str(err.value) == f"{folder / 'deck.yaml'}:6: layout 'simple': 'layouts/simple.yaml' {OUTSIDE_MESSAGE}"
    one_line(cli("check", str(folder)), str(err.value))


def test_a_layouts_folder_linked_from_outside_is_refused(make_deck, outside):
    folder = make_deck(SIMPLE_DECK)
    (folder / "layouts").rmdir()
    (folder / "layouts").symlink_to(outside / "layouts")
    with pytest.raises(DeckError) as err:
        load_deck(folder)
    assert str(err.value) == f"{folder / 'deck.yaml'}:6: layout 'simple': 'layouts/simple.yaml' {OUTSIDE_MESSAGE}"


def test_a_link_that_stays_inside_the_deck_is_followed(make_deck):
    folder = make_deck(SIMPLE_DECK, files={"shared/simple.yaml": textwrap.dedent(SIMPLE_LAYOUT).encode()})
    (folder / "layouts" / "simple.yaml").symlink_to(Path("..") / "shared" / "simple.yaml")
    assert load_deck(folder).card_count() == 3


@pytest.mark.parametrize("linked", ["file", "folder"])
def test_a_translation_linked_from_outside_is_refused(make_deck, outside, linked):
    folder = make_deck(GERMAN, {"simple": LAYOUT})
    if linked == "file":
        (folder / "translations").mkdir()
        (folder / "translations" / "en.yaml").symlink_to(outside / "translations" / "en.yaml")
    else:
        (folder / "translations").symlink_to(outside / "translations")
    expected = f"{folder / 'translations' / 'en.yaml'}:1: translations/en.yaml {OUTSIDE_MESSAGE}"
    with pytest.raises(DeckError) as err:
        load_deck(folder, lang="en")
    assert str(err.value) == expected
    one_line(cli("check", str(folder)), expected)


def test_a_spreadsheet_linked_from_outside_is_refused(make_deck, outside):
    folder = make_deck(SIMPLE_DECK.replace("        cards:\n          - {title: One, count: 2}\n"
                                           "          - {title: Two, color: blue}\n", "        cards: cards.csv\n"),
                       {"simple": SIMPLE_LAYOUT})
    (folder / "cards.csv").symlink_to(outside / "cards.csv")
    with pytest.raises(DeckError) as err:
        load_deck(folder)
    assert str(err.value) == f"{folder / 'deck.yaml'}:14: cards: 'cards.csv' {OUTSIDE_MESSAGE}"


def test_a_bleed_wider_than_any_print_service_asks_is_refused(make_deck):
    from deckpress.errors import DeckError
    from deckpress.model import load_deck
    from tests.conftest import SIMPLE_DECK, SIMPLE_LAYOUT

    folder = make_deck(SIMPLE_DECK.replace("layouts: [simple]", "layouts: [simple]\n    bleed: 500mm"),
                       {"simple": SIMPLE_LAYOUT})
    with pytest.raises(DeckError) as caught:
        load_deck(folder)
    assert str(caught.value).endswith("deck.yaml:7: bleed 500mm is too wide: at most 10mm (print services ask for 3mm)")


def test_a_spreadsheet_cell_past_the_length_of_a_value_is_refused_at_its_row(make_deck):
    from deckpress.errors import DeckError
    from deckpress.model import load_deck
    from tests.conftest import SIMPLE_DECK, SIMPLE_LAYOUT

    deck = SIMPLE_DECK.split("    components:")[0] + "    components:\n      - {name: things, front: front, cards: cards.csv}\n"
    folder = make_deck(deck, {"simple": SIMPLE_LAYOUT},
                       {"cards.csv": b"title\nshort\n" + b"x" * 120_000 + b"\n"})
    with pytest.raises(DeckError) as caught:
        load_deck(folder)
    assert str(caught.value).endswith("cards.csv:3 column A: the cell of 'title' holds 120,000 characters: a value has at "
                                      "most 100,000, as in a YAML file")
