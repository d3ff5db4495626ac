"""deckpress.errors: one-line `file:line: message — did you mean 'x'?` errors and de-duplicated warnings."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckpress.errors import DeckError, DeckWarning, Warnings, display_path, suggest


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
    assert list(warn) == [] and warn.messages == []


def test_a_warning_is_a_record_printed_like_an_error(in_project):
    warn = Warnings()
    warn("text does not fit", in_project / "decks" / "x" / "deck.yaml", 12, kind="text-overflow")
    record, = warn
    assert record == DeckWarning(str(Path("decks/x/deck.yaml")), 12, "text-overflow", "text does not fit")
    assert warn.messages == [f"{Path('decks/x/deck.yaml')}:12: text does not fit"] == [str(record)]
    assert record.to_json() == {"file": str(Path("decks/x/deck.yaml")), "line": 12, "kind": "text-overflow",
                                "message": "text does not fit"}
    assert list(record.to_json()) == ["file", "line", "kind", "message"]  # the report's key order


def test_each_warning_is_said_once_in_order():
    warn = Warnings()
    warn("text does not fit", "deck.yaml", 12, kind="text-overflow")
    warn("image is small", "deck.yaml", 20, kind="low-resolution")
    warn("text does not fit", "deck.yaml", 12, kind="text-overflow")
    warn("text does not fit", "deck.yaml", 13, kind="text-overflow")     # another line: another warning
    warn("text does not fit", "other.yaml", 12, kind="text-overflow")    # another file: another warning
    warn("text does not fit", kind="text-overflow")
    warn("text does not fit", kind="text-overflow")
    assert len(warn) == 5
    assert warn.messages == [
        "deck.yaml:12: text does not fit",
        "deck.yaml:20: image is small",
        "deck.yaml:13: text does not fit",
        "other.yaml:12: text does not fit",
        "text does not fit",
    ]
    assert [w.kind for w in warn] == ["text-overflow", "low-resolution", "text-overflow", "text-overflow",
                                      "text-overflow"]
    assert [w.line for w in warn] == [12, 20, 13, 12, None]


def test_a_warning_said_once_per_key_keeps_its_first_place():
    warn = Warnings()
    warn("art/a.png is 60×80 px", "deck.yaml", 12, kind="low-resolution", once=("art/a.png", 38))
    warn("art/a.png is 60×80 px", "deck.yaml", 30, kind="low-resolution", once=("art/a.png", 38))  # another card
    warn("art/a.png is 60×80 px", "deck.yaml", 40, kind="low-resolution", once=("art/a.png", 76))  # smaller: again
    assert warn.messages == ["deck.yaml:12: art/a.png is 60×80 px", "deck.yaml:40: art/a.png is 60×80 px"]


def test_a_warning_of_an_undeclared_kind_is_refused():
    with pytest.raises(ValueError, match="unknown warning kind 'blurry'"):
        Warnings()("art is soft", kind="blurry")


# --- a spreadsheet's column, and a check that goes on past mistakes -------------------------------

def test_a_mistake_in_a_cell_names_its_row_and_column():
    error = DeckError("unknown column 'Colour'", "cards.xlsx[Goods]", 1, "color", column="C")
    assert str(error) == "cards.xlsx[Goods]:1 column C: unknown column 'Colour' — did you mean 'color'?"
    assert error.place() == ("cards.xlsx[Goods]", 1, 3)
    assert DeckError("x", "a.csv", 2, column="AB").place() == ("a.csv", 2, 28)


def test_a_build_raises_the_first_mistake_and_a_check_collects_them_all():
    from deckpress.errors import Stopped, carry_on, collecting, mistakes_said, report

    def load(rows: list[int]) -> list[int]:
        read = []
        for row in rows:
            with carry_on():
                if row % 2:
                    report(DeckError(f"odd {row}", "b.csv", row, column="B"))
                    report(DeckError(f"very odd {row}", "b.csv", row, column="A"))
                    raise Stopped
                if row % 3 == 0:
                    raise DeckError(f"three {row}", "a.csv", row)
                read.append(row)
        return read

    with pytest.raises(DeckError) as caught:
        load([2, 3, 6])
    assert str(caught.value) == "b.csv:3 column B: odd 3"
    assert mistakes_said() == 0
    with collecting() as mistakes:
        assert load([2, 3, 4, 6, 8]) == [2, 4, 8]
        assert mistakes_said() == 3
        report(DeckError("three 6", "a.csv", 6))  # said twice, kept once
    assert [str(e) for e in mistakes.sorted()] == ["a.csv:6: three 6", "b.csv:3 column A: very odd 3",
                                                   "b.csv:3 column B: odd 3"]
    assert mistakes_said() == 0  # the collecting ends with its block
