"""Spreadsheets as people keep them (issue 33 items 2 and 3): columns of notes, headers written
`Card Name`, cards taken out with `count: 0`, formulas never saved; and `check`, which says every
mistake of a deck in one run, while a build stops at the first. Real .xlsx, .ods and .csv files."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner
from odf.table import TableCell
from odf.text import P

import deckpress
from deckpress import cli
from deckpress.errors import DeckError, DeckErrors
from deckpress.model import load_deck
from tests.test_model_cardtable import ods_cell, ods_row, write_csv, write_ods, write_xlsx

LAYOUT = """
    templates:
      good:
        fields: {name: ~, card-kind: good, gold_cost: "0", suit: red, text: ""}
        elements:
          - rect: {x: -bleed, y: -bleed, w: 100% + 2*bleed, h: 100% + 2*bleed, fill: "{suit} 20%"}
          - text: {text: "{name} {gold_cost} {card-kind}", x: 5mm, y: 5mm, w: 100% - 10mm, h: 10mm, size: 12pt}
          - text: {text: "{text}", x: 5mm, y: 20mm, w: 100% - 10mm, h: 30mm, size: 9pt}
"""

DECK = """
    id: market
    title: Market
    designer: Test
    license: CC0-1.0
    layouts: [market]
    palette:
      red: {{color: "#cc2233", symbol: circle}}
      blue: {{color: "#2233cc", symbol: square}}
    components:
      - name: goods
        front: good
        cards: {cards}
"""


def market(make_deck, cards: str = "{file: cards.xlsx, sheet: Goods}", extra: str = "") -> Path:
    return make_deck(DECK.format(cards=cards) + extra, {"market": LAYOUT})


def goods(folder: Path, rows: list[list[object]]) -> Path:
    return write_xlsx(folder / "cards.xlsx", {"Notes": [["x"]], "Goods": rows})


def check_lines(folder: Path) -> tuple[int, list[str]]:
    result = CliRunner().invoke(cli.main, ["check", str(folder)])
    assert "Traceback" not in result.output
    return result.exit_code, result.stderr.splitlines()


# -- columns ------------------------------------------------------------------------------------

def test_headers_match_fields_ignoring_case_spaces_dashes_and_underscores(make_deck):
    folder = market(make_deck)
    goods(folder, [["Name", "GOLD-COST", "Suit", "# playtest notes", "Count", "_id", None, "TEXT", "Card Kind"],
                   ["Stall", 3, "blue", "too strong?", 2, "g1", None, "Sell two.", "tool"],
                   ["Mill", None, None, "", None, "g2", None, None, None]])
    card, mill = load_deck(folder).components[0].cards
    # as the templates spell them; the notes and _id columns are never read
    assert card.fields == {"name": "Stall", "card-kind": "tool", "gold_cost": "3", "suit": "blue", "text": "Sell two."}
    assert (card.count, mill.count, mill.fields["gold_cost"], mill.fields["card-kind"]) == (2, 1, "0", "good")


def test_a_column_of_notes_may_hold_anything_and_an_unnamed_empty_column_nothing(make_deck):
    folder = market(make_deck, "cards.csv")
    write_csv(folder / "cards.csv", [["name", "#notes", "", "_scratch"],
                                     ["Stall", "[not, a list", "", "=A2*2"]])
    assert [c.fields["name"] for c in load_deck(folder).components[0].cards] == ["Stall"]


def test_two_columns_for_one_field_name_both_at_the_header_row(make_deck):
    folder = market(make_deck)
    path = goods(folder, [["Card Kind", "name", "card_kind"], ["Stall", "Stall", "Mill"]])
    with pytest.raises(DeckError) as caught:
        load_deck(folder)
    assert str(caught.value) == (f"{path}[Goods]:1 column C: columns 'Card Kind' (A) and 'card_kind' (C) are both "
                                 "the field 'card-kind': keep one")


def test_an_unknown_column_is_said_once_at_row_1_with_its_letter(make_deck):
    folder = market(make_deck)
    path = goods(folder, [["Name", "suit", "Gold Cots", "Weight"], ["Stall", "red", 1, 2], ["Mill", "red", 1, 2]])
    with pytest.raises(DeckError) as caught:
        load_deck(folder)  # a build: the first mistake only
    assert not isinstance(caught.value, DeckErrors)
    assert str(caught.value) == f"{path}[Goods]:1 column C: unknown column 'Gold Cots' — did you mean 'gold_cost'?"
    with pytest.raises(DeckErrors) as caught:
        deckpress.check(folder)
    assert [str(e) for e in caught.value.errors] == [
        f"{path}[Goods]:1 column C: unknown column 'Gold Cots' — did you mean 'gold_cost'?",
        f"{path}[Goods]:1 column D: unknown column 'Weight': templates 'good' use name, card-kind, gold_cost, suit, text; "
        "a column of notes is named with a # first, like '# notes'",
    ]  # once each, not once a row


def test_a_bad_value_is_said_at_its_row_and_column(make_deck):
    folder = market(make_deck)
    path = goods(folder, [["Name", "suit", "count"], ["Stall", "red", 1], ["Mill", "red", -2]])
    with pytest.raises(DeckError) as caught:
        load_deck(folder)
    assert str(caught.value) == (f"{path}[Goods]:3 column C: count must be a whole number of 0 or more (0 leaves the "
                                 "card out), not '-2'")


# -- count 0 ------------------------------------------------------------------------------------

def test_count_0_leaves_a_card_out_and_the_summary_says_so(make_deck, tmp_path):
    folder = market(make_deck, extra="    box: {cover: goods 3}\n")
    goods(folder, [["name", "count"], ["Stall", 0], ["Well", 2], ["Mill", 1], ["Barn", 0]])
    deck = load_deck(folder)
    component = deck.components[0]
    assert [(c.number, c.fields["name"], c.count) for c in component.cards] == [(2, "Well", 2), (3, "Mill", 1)]
    assert [c.fields["name"] for c in component.left_out] == ["Stall", "Barn"]
    assert (component.total, deck.card_count(), deck.box_cover) == (4, 3, ("goods", 3))  # numbers kept: 2/4, 3/4
    report = deckpress.Report.of([deckpress.check(folder)])
    assert report.decks[0].line() == "market: ok — 3 cards, 2 distinct faces, 2 cards left out (count 0): Stall, Barn"
    assert report.to_json()["decks"][0]["left_out"] == ["Stall", "Barn"]
    result = CliRunner().invoke(cli.main, ["build", str(folder), "--paper", "a4", "--ink", "color",
                                           "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "market: 3 cards, 2 distinct faces, 2 pages in 2 files, 2 cards left out (count 0): Stall, Barn" in result.stdout
    from tests.pdfread import page_text
    text = page_text(tmp_path / "out" / "market" / "market-cards-a4.pdf", 0)
    assert text.count("Well 0") == 2 and text.count("Mill 0") == 1 and "Stall" not in text and "Barn" not in text


def test_a_left_out_card_cannot_be_the_box_cover_and_a_component_of_none_is_refused(make_deck):
    folder = market(make_deck, extra="    box: {cover: goods 1}\n")
    goods(folder, [["name", "count"], ["Stall", 0], ["Well", 2]])
    with pytest.raises(DeckError) as caught:
        load_deck(folder)
    assert str(caught.value).endswith("deck.yaml:14: box cover 'goods 1': card 1 has count 0, so it is left out")
    folder = market(make_deck)
    goods(folder, [["name", "count"], ["Stall", 0], ["Well", "0"]])
    with pytest.raises(DeckError) as caught:
        load_deck(folder)
    assert str(caught.value).endswith("deck.yaml:13: every card of component 'goods' has count 0, so it prints "
                                      "nothing: give one a count of 1 or more, or remove the component")


# -- formulas -----------------------------------------------------------------------------------

def test_a_formula_without_a_saved_value_says_so_and_what_to_do(make_deck):
    folder = market(make_deck)
    path = goods(folder, [["name", "gold cost"], ["Stall", 2], ["Mill", "=B2*2"]])  # openpyxl saves no value
    with pytest.raises(DeckError) as caught:
        load_deck(folder)
    assert str(caught.value) == (f"{path}[Goods]:3 column B: the formula of 'gold cost' ('=B2*2') has no saved "
                                 "value: open the file in a spreadsheet program (Excel, LibreOffice) and save it, so "
                                 "its values are stored")
    # as a spreadsheet program saves it: the formula and its value
    with zipfile.ZipFile(path) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    sheet = next(name for name, data in parts.items() if b"<f>B2*2</f>" in data)
    parts[sheet] = parts[sheet].replace(b"<f>B2*2</f><v></v>", b"<f>B2*2</f><v>4</v>").replace(
        b"<f>B2*2</f><v/>", b"<f>B2*2</f><v>4</v>")
    assert b"<v>4</v>" in parts[sheet]
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    assert openpyxl.load_workbook(path, data_only=True)["Goods"]["B3"].value == 4
    assert [c.fields["gold_cost"] for c in load_deck(folder).components[0].cards] == ["2", "4"]


def test_an_ods_formula_without_a_value_says_so(make_deck):
    folder = market(make_deck, "{file: cards.ods, sheet: Goods}")
    unsaved = TableCell(formula="of:=[.B2]*2")
    saved = TableCell(formula="of:=[.B2]*3", valuetype="float", value="6")
    saved.addElement(P(text="6"))
    path = write_ods(folder / "cards.ods", {"Goods": [ods_row(ods_cell("name"), ods_cell("gold cost")),
                                                     ods_row(ods_cell("Stall"), ods_cell(2)),
                                                     ods_row(ods_cell("Well"), saved),
                                                     ods_row(ods_cell("Mill"), unsaved)]})
    with pytest.raises(DeckError) as caught:
        load_deck(folder)
    assert str(caught.value).startswith(f"{path}[Goods]:4 column B: the formula of 'gold cost' ('of:=[.B2]*2') "
                                        "has no saved value: open the file")


# -- check says every mistake --------------------------------------------------------------------

def test_check_says_every_mistake_file_by_file_and_a_build_the_first(make_deck, tmp_path):
    folder = market(make_deck, extra="""
      - name: more
        front: good
        cards: more.csv
      - name: broken
        front: nowhere
        cards: [{name: A}]
""")
    path = goods(folder, [
        ["Name", "Suit", "Colour", "txt", "gold", "sweetness", "NAME", "cont", "Count", "weight"],
        ["Stall", "red", "x", "x", 1, "x", "x", "x", 1, "x"],
        ["Well", "blue", None, None, 2, None, None, None, "two", None],
        [None, "red", None, None, 3, None, None, None, 1, None],  # no name
        ["Mill", "=A2", None, None, 4, None, None, None, -1, None],  # a formula never saved, and a bad count
        ["Barn", "red", None, None, 5, None, None, None, 1, None],
    ])
    write_csv(folder / "more.csv", [["name", "suitt"], ["Cart", "red"]])
    sheet = f"{path}[Goods]"
    more = folder / "more.csv"
    deck_file = folder / "deck.yaml"
    expected = [
        f"{deck_file}:19: unknown template 'nowhere'",
        f"{sheet}:1 column C: unknown column 'Colour': templates 'good' use name, card-kind, gold_cost, suit, text; a "
        "column of notes is named with a # first, like '# notes'",
        f"{sheet}:1 column D: unknown column 'txt' — did you mean 'text'?",
        f"{sheet}:1 column E: unknown column 'gold' — did you mean 'gold_cost'?",
        f"{sheet}:1 column F: unknown column 'sweetness': templates 'good' use name, card-kind, gold_cost, suit, text; a "
        "column of notes is named with a # first, like '# notes'",
        f"{sheet}:1 column G: columns 'Name' (A) and 'NAME' (G) are both the field 'name': keep one",
        f"{sheet}:1 column H: unknown column 'cont' — did you mean 'count'?",
        f"{sheet}:1 column J: unknown column 'weight': templates 'good' use name, card-kind, gold_cost, suit, text; a "
        "column of notes is named with a # first, like '# notes'",
        f"{sheet}:3 column I: count must be a whole number of 0 or more (0 leaves the card out), not 'two'",
        f"{sheet}:4: card lacks field 'name', which template 'good' requires",
        f"{sheet}:5 column B: the formula of 'Suit' ('=A2') has no saved value: open the file in a spreadsheet "
        "program (Excel, LibreOffice) and save it, so its values are stored",
        f"{more}:1 column B: unknown column 'suitt' — did you mean 'suit'?",
    ]
    with pytest.raises(DeckErrors) as caught:
        deckpress.check(folder)
    got = [str(e) for e in caught.value.errors]
    order = sorted(expected, key=lambda line: (line.split(":")[0], int(re.split(r"[: ]", line.split(":", 1)[1])[0])))
    assert got == order  # file by file, in the order of their rows (the deck file's name sorts first here)
    assert str(caught.value) == got[0]
    code, lines = check_lines(folder)
    assert code == 2
    assert lines == [f"error: {line}" for line in got] + ["12 mistakes in 3 files"]
    with pytest.raises(DeckError) as caught:  # a build stops at the first it meets: the sheet's first header
        deckpress.build(folder, tmp_path / "out", papers="a4", inks="color")
    assert str(caught.value) == expected[1]


def test_check_shows_50_mistakes_then_how_many_more(make_deck):
    folder = market(make_deck, "cards.csv")
    write_csv(folder / "cards.csv", [["name", "count"]] + [[f"card {i}", "x"] for i in range(60)])
    with pytest.raises(DeckErrors) as caught:
        deckpress.check(folder)
    assert len(caught.value.errors) == 60
    assert [e.line for e in caught.value.errors] == list(range(2, 62))
    code, lines = check_lines(folder)
    assert code == 2 and len(lines) == 52
    assert lines[0] == (f"error: {folder / 'cards.csv'}:2 column B: count must be a whole number of 0 or more "
                        "(0 leaves the card out), not 'x'")
    assert all(line.startswith(f"error: {folder / 'cards.csv'}:") for line in lines[:50])
    assert lines[50:] == ["… and 10 more mistakes", "60 mistakes in 1 file"]


def test_a_check_without_mistakes_is_unchanged_and_one_mistake_is_one_line(make_deck):
    folder = market(make_deck, "cards.csv")
    write_csv(folder / "cards.csv", [["name"], ["Stall"]])
    assert deckpress.check(folder).cards == 1
    write_csv(folder / "cards.csv", [["name", "suit"], ["Stall", "red"], ["Well", "red", "x"]])
    code, lines = check_lines(folder)
    assert (code, len(lines)) == (2, 1) and lines[0].startswith(f"error: {folder / 'cards.csv'}:3 column C: a value")


def test_a_required_field_no_column_gives_is_said_once_not_on_every_row(make_deck):
    folder = market(make_deck)
    path = goods(folder, [["Nmae", "suit"], ["Stall", "red"], ["Well", "red"], ["Mill", "red"]])
    with pytest.raises(DeckErrors) as caught:
        deckpress.check(folder)
    assert [str(e) for e in caught.value.errors] == [
        f"{path}[Goods]:1 column A: unknown column 'Nmae' — did you mean 'name'?"]
    goods(folder, [["suit", "text"], ["red", "a"], ["blue", "b"]])
    with pytest.raises(DeckErrors) as caught:
        deckpress.check(folder)
    assert [str(e) for e in caught.value.errors] == [
        f"{path}[Goods]:1: no column is the field 'name', which template 'good' requires"]
    folder = market(make_deck, "{file: cards.xlsx, sheet: Goods}\n        fields: {name: Crate}")
    goods(folder, [["suit"], ["red"], ["blue"]])  # the component gives every card its name
    assert [c.fields["name"] for c in load_deck(folder).components[0].cards] == ["Crate", "Crate"]
