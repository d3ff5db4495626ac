"""deckpress.errors: one-line `file:line: message — did you mean 'x'?` errors and de-duplicated warnings."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckpress.errors import DeckError, Warnings, display_path, suggest


@pytest.fixture
def in_project(tmp_path, monkeypatch):
    """Work inside tmp_path/project, with a deck file in it."""
    project = tmp_path / "project"
    (project / "decks" / "x").mkdir(parents=True)
    monkeypatch.chdir(project)
    return project


# --- display_path ------------------------------------------------------------------------------

def test_absolute_path_inside_cwd_becomes_relative(in_project):
    assert display_path(in_project / "decks" / "x" / "deck.yaml") == str(Path("decks/x/deck.yaml"))


def test_relative_path_inside_cwd_is_normalised(in_project):
    assert display_path("decks/../decks/x/./deck.yaml") == str(Path("decks/x/deck.yaml"))
    assert display_path(str(in_project / "decks" / "x")) == str(Path("decks/x"))


def test_path_outside_cwd_is_shown_as_given(in_project, tmp_path):
    outside = tmp_path / "elsewhere" / "deck.yaml"
    assert display_path(outside) == str(outside)
    assert display_path("../elsewhere/deck.yaml") == str(Path("../elsewhere/deck.yaml"))


def test_cwd_itself_is_dot(in_project):
    assert display_path(in_project) == "."


# --- suggest -----------------------------------------------------------------------------------

@pytest.mark.parametrize("word, choices, expected", [
    ("colour", ["color", "count", "title"], "color"),
    ("titel", ["color", "count", "title"], "title"),
    ("sans-blod", ["sans", "sans-bold", "sans-italic"], "sans-bold"),
    ("xyz", ["color", "count", "title"], None),
    ("color", [], None),
    (12, [11, 12, 13], "12"),          # non-strings are compared as text
])
def test_suggest(word, choices, expected):
    assert suggest(word, choices) == expected


def test_suggest_accepts_any_iterable():
    assert suggest("bleeed", (k for k in {"bleed": 1, "width": 2})) == "bleed"


# --- DeckError ---------------------------------------------------------------------------------

@pytest.mark.parametrize("file, line, suggestion, text", [
    ("decks/x/deck.yaml", 41, "color",
     "decks/x/deck.yaml:41: unknown key 'colour' in card — did you mean 'color'?"),
    ("decks/x/deck.yaml", 41, None, "decks/x/deck.yaml:41: unknown key 'colour' in card"),
    ("decks/x/deck.yaml", None, None, "decks/x/deck.yaml: unknown key 'colour' in card"),
    ("decks/x/deck.yaml", 0, None, "decks/x/deck.yaml: unknown key 'colour' in card"),
    (None, None, "color", "unknown key 'colour' in card — did you mean 'color'?"),
    (None, 7, None, "unknown key 'colour' in card"),   # a line without a file is not shown
    (None, None, None, "unknown key 'colour' in card"),
])
def test_deck_error_format(in_project, file, line, suggestion, text):
    error = DeckError("unknown key 'colour' in card", file, line, suggestion)
    assert str(error) == text.replace("decks/x/deck.yaml", str(Path("decks/x/deck.yaml")))


def test_deck_error_keeps_its_parts(in_project):
    error = DeckError("bad", in_project / "decks" / "x" / "deck.yaml", 3, "good")
    assert isinstance(error, Exception)
    assert (error.message, error.file, error.line, error.suggestion) == \
        ("bad", str(Path("decks/x/deck.yaml")), 3, "good")
    assert error.args == ("bad",)


def test_deck_error_shows_file_relative_to_cwd(in_project):
    error = DeckError("oops", in_project / "decks" / "x" / "layout.yaml", 2)
    assert str(error) == f"{Path('decks/x/layout.yaml')}:2: oops"


def test_deck_error_can_be_raised_and_caught():
    with pytest.raises(DeckError, match="did you mean 'color'"):
        raise DeckError("unknown key 'colour'", suggestion="color")


# --- Warnings ----------------------------------------------------------------------------------

def test_warnings_start_empty():
    warn = Warnings()
    assert len(warn) == 0
    assert list(warn) == []


def test_warnings_are_formatted_like_errors(in_project):
    warn = Warnings()
    warn("text does not fit", in_project / "decks" / "x" / "deck.yaml", 12)
    assert list(warn) == [f"{Path('decks/x/deck.yaml')}:12: text does not fit"]


def test_each_warning_is_said_once_in_order():
    warn = Warnings()
    warn("text does not fit", "deck.yaml", 12)
    warn("image is small", "deck.yaml", 20)
    warn("text does not fit", "deck.yaml", 12)
    warn("text does not fit", "deck.yaml", 13)     # another line: another warning
    warn("text does not fit", "other.yaml", 12)    # another file: another warning
    warn("text does not fit")
    warn("text does not fit")
    assert len(warn) == 5
    assert list(warn) == [
        "deck.yaml:12: text does not fit",
        "deck.yaml:20: image is small",
        "deck.yaml:13: text does not fit",
        "other.yaml:12: text does not fit",
        "text does not fit",
    ]
    assert warn.messages == list(warn)
