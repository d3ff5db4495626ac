"""Card lists from spreadsheets: real CSV, TSV, XLSX (openpyxl) and ODS (odfpy) files read into
card mappings that name their file and row, every error one line with the file and row, and decks
that take their cards from each kind of file loading and building like YAML ones."""

from __future__ import annotations

import csv
import datetime
import os
import zipfile
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner
from odf.office import Annotation
from odf.opendocument import OpenDocumentSpreadsheet
from odf.table import Table, TableCell, TableRow
from odf.text import LineBreak, P, S, Span

from deckpress import cli
from deckpress.errors import DeckError
from deckpress.model import cardtable, load_deck
from deckpress.model.cardtable import read_card_table
from tests.pdfread import page_text

RULE = "Draw two cards.\nThen play one."  # a cell with a line break in it


def write_csv(path: Path, rows: list[list[object]], delimiter: str = ",", encoding: str = "utf-8") -> Path:
    with path.open("w", encoding=encoding, newline="") as f:
        csv.writer(f, delimiter=delimiter).writerows(rows)
    return path


def write_xlsx(path: Path, sheets: dict[str, list[list[object]]]) -> Path:
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in sheets.items():
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(row)
    book.save(path)
    return path


def ods_cell(value: object = None, shown: str | None = None, repeat: int = 1) -> TableCell:
    """A cell as LibreOffice writes it: numbers carry their value and, separately, how they are shown."""
    extra = {"numbercolumnsrepeated": repeat} if repeat > 1 else {}
    if value is None:
        return TableCell(**extra)
    if isinstance(value, bool):
        cell = TableCell(valuetype="boolean", booleanvalue=str(value).lower(), **extra)
    elif isinstance(value, (int, float)):
        cell = TableCell(valuetype="float", value=str(value), **extra)
    elif isinstance(value, datetime.date):
        cell = TableCell(valuetype="date", datevalue=value.isoformat(), **extra)
    else:
        cell = TableCell(valuetype="string", **extra)
        for line in str(value).split("\n"):
            cell.addElement(P(text=line))
        return cell
    cell.addElement(P(text=shown if shown is not None else str(value)))
    return cell


def write_ods(path: Path, sheets: dict[str, list[TableRow]]) -> Path:
    doc = OpenDocumentSpreadsheet()
    for name, rows in sheets.items():
        table = Table(name=name)
        for row in rows:
            table.addElement(row)
        doc.spreadsheet.addElement(table)
    doc.save(str(path))
    return path


def ods_row(*cells: TableCell, repeat: int = 1) -> TableRow:
    row = TableRow(**({"numberrowsrepeated": repeat} if repeat > 1 else {}))
    for cell in cells:
        row.addElement(cell)
    return row


def plain(cards) -> list[tuple[int, dict]]:
    return [(card.line, dict(card)) for card in cards]


def error_of(path: Path, sheet: str | None = None) -> str:
    with pytest.raises(DeckError) as caught:
        read_card_table(path, sheet)
    text = str(caught.value)
    assert "\n" not in text
    return text


# -- CSV and TSV ----------------------------------------------------------------------------------

def test_csv_rows_become_cards_with_their_row_numbers(tmp_path):
    path = write_csv(tmp_path / "fruit.csv", [
        [" name ", "count", "suit", "text"],
        ["Apple", "2", "red", RULE],
        [],  # a blank row (row 3, though Apple's text took two lines of the file): skipped
        ["", "", "", ""],  # and so is one of empty cells
        ["Pear", "", "", "  ripe  "],
    ])
    cards = read_card_table(path)
    assert plain(cards) == [(2, {"name": "Apple", "count": 2, "suit": "red", "text": RULE}),
                            (5, {"name": "Pear", "text": "ripe"})]  # an empty cell leaves the field out
    assert cards.item_lines == [2, 5] and all(c.file == cards.file == str(path) for c in cards)
    assert cards[1].line_of("text") == 5


def test_a_csv_with_a_byte_order_mark_and_semicolons_as_excel_writes_it_in_europe(tmp_path):
    path = write_csv(tmp_path / "fruit.csv", [["name", "cost"], ["Apple", "1,5"]], delimiter=";", encoding="utf-8-sig")
    assert path.read_bytes().startswith(b"\xef\xbb\xbfname;cost")
    assert plain(read_card_table(path)) == [(2, {"name": "Apple", "cost": "1,5"})]


def test_the_same_list_in_two_rows_keeps_each_row_as_its_line(tmp_path):
    """YAML read from a cell is shared by every cell that says the same (yamlfile keeps what it
    parsed): each row's list is its own, at its own row."""
    path = write_csv(tmp_path / "notes.csv", [["name", "next"], ["A", "[red, blue]"], ["B", "[red, blue]"]])
    first, second = (card["next"] for card in read_card_table(path))
    assert first == second == ["red", "blue"] and first is not second
    assert (first.line, first.item_lines, second.line, second.item_lines) == (2, [2, 2], 3, [3, 3])


def test_a_tsv_is_split_at_tabs_only(tmp_path):
    path = write_csv(tmp_path / "fruit.tsv", [["name", "text"], ["Apple, red", "sweet; crisp"]], delimiter="\t")
    assert plain(read_card_table(path)) == [(2, {"name": "Apple, red", "text": "sweet; crisp"})]


def test_a_cell_in_square_brackets_is_a_list_and_windows_line_breaks_are_plain_ones(tmp_path):
    path = write_csv(tmp_path / "notes.csv", [["next", "text", "beats"], ["[red, blue]", "one\r\ntwo", "[1, ½]"],
                                              ["[]", "[not a list", "1"]])
    cards = read_card_table(path)
    assert plain(cards) == [(2, {"next": ["red", "blue"], "text": "one\ntwo", "beats": [1, "½"]}),
                            (3, {"next": [], "text": "[not a list", "beats": "1"})]
    assert cards[0]["next"].line == 2


def test_a_list_cell_that_is_not_yaml_names_its_row_and_column(tmp_path):
    path = write_csv(tmp_path / "notes.csv", [["name", "next"], ["A", "[red]"], ["B", "[red, [blue]"]])
    assert error_of(path).startswith(f"{path}:3 column B: the list of 'next': YAML syntax")


def test_a_csv_that_is_not_utf8_says_how_to_save_it(tmp_path):
    path = write_csv(tmp_path / "fruit.csv", [["name"], ["Crème"]], encoding="latin-1")
    assert error_of(path) == f"{path}:2: not UTF-8 text (invalid continuation byte: 0xe8); save it as 'CSV UTF-8'"


@pytest.mark.parametrize("rows, message", [
    ([["name", "suit", "name"], ["A", "red", "B"]], "1 column C: column 'name' appears twice (columns A and C)"),
    ([["name", "", "suit"], ["A", "", "red"], ["B", "x", "red"]],
     "3 column B: a value in a column with no name (row 1 names the fields): name the column, or call it "
     "'# notes' to keep notes there"),
    ([["name"], ["A", "extra"]], "2 column B: a value in a column with no name (row 1 names the fields): name the column, or call it "
     "'# notes' to keep notes there"),
    ([["name", "suit"]], "1: no cards: only the row that names the fields"),
    ([], "1: the table is empty; its first row names the fields, every row below is a card"),
])
def test_a_table_that_cannot_be_a_card_list_is_one_line_with_file_and_row(tmp_path, rows, message):
    path = write_csv(tmp_path / "fruit.csv", rows)
    assert error_of(path) == f"{path}:{message}"


def test_absurd_tables_are_refused_before_they_fill_memory(tmp_path, monkeypatch):
    monkeypatch.setattr(cardtable, "MAX_CARDS", cardtable.MAX_CARDS.at(3))
    path = write_csv(tmp_path / "many.csv", [["name"]] + [[f"card {i}"] for i in range(5)])
    assert error_of(path) == f"{path}:5: more than 3 cards: too many for a card list"
    monkeypatch.setattr(cardtable, "MAX_COLUMNS", cardtable.MAX_COLUMNS.at(4))
    path = write_csv(tmp_path / "wide.csv", [["a", "b"], ["1", "2", "", "", "", "x"]])
    assert error_of(path) == f"{path}:2: a value in column F: a card list has at most 4 columns"
    monkeypatch.setattr(cardtable, "MAX_FILE_BYTES", cardtable.MAX_FILE_BYTES.at(10))
    assert error_of(path) == f"{path}: 0.0 MB is too big for a card list (at most 0.0 MB)"


# -- XLSX -----------------------------------------------------------------------------------------

def test_an_xlsx_sheet_gives_numbers_dates_and_truths_as_typed(tmp_path):
    path = write_xlsx(tmp_path / "cards.xlsx", {
        "Notes": [["only", "notes"], ["not", "cards"]],
        "Fruit": [["name", "count", "cost", "weight", "picked", "at", "ripe", "text"],
                  ["Apple", 2, 3, 1.5, datetime.date(2024, 3, 1), datetime.datetime(2024, 3, 1, 10, 30), True, RULE],
                  [None] * 8,
                  ["Pear", 1.0, 0.1 + 0.2, None, None, None, False, "[a, b]"]],
    })
    cards = read_card_table(path, "Fruit")
    assert cards.file == f"{path}[Fruit]" and [c.file for c in cards] == [f"{path}[Fruit]"] * 2
    assert plain(cards) == [
        (2, {"name": "Apple", "count": 2, "cost": "3", "weight": "1.5", "picked": "2024-03-01",
             "at": "2024-03-01T10:30:00", "ripe": "true", "text": RULE}),
        (4, {"name": "Pear", "count": 1, "cost": "0.3", "ripe": "false", "text": ["a", "b"]}),
    ]
    assert plain(read_card_table(path)) == [(2, {"only": "not", "notes": "cards"})]  # the first sheet


def test_an_xlsx_error_names_the_sheet_and_suggests_sheet_names(tmp_path):
    path = write_xlsx(tmp_path / "cards.xlsx", {"Fruit": [["name", "name"], ["A", "B"]], "Vegetables": [["x"]]})
    assert error_of(path, "Fruits") == f"{path}: no sheet 'Fruits'; the sheets are Fruit, Vegetables — did you mean 'Fruit'?"
    assert error_of(path, "Fruit") == f"{path}[Fruit]:1 column B: column 'name' appears twice (columns A and B)"


def test_an_xlsx_that_is_no_workbook_or_a_zip_bomb_is_refused(tmp_path, monkeypatch):
    fake = tmp_path / "fake.xlsx"
    fake.write_text("name,suit\n", encoding="utf-8")
    assert error_of(fake) == f"{fake}: not a .xlsx file: File is not a zip file"
    other = tmp_path / "other.xlsx"
    with zipfile.ZipFile(other, "w") as archive:
        archive.writestr("hello.txt", "no workbook here")
    assert error_of(other).startswith(f"{other}: not a readable .xlsx workbook (")
    path = write_xlsx(tmp_path / "cards.xlsx", {"Fruit": [["name"], ["Apple"]]})
    monkeypatch.setattr(cardtable, "MAX_UNPACKED_BYTES", cardtable.MAX_UNPACKED_BYTES.at(1000))
    assert error_of(path).startswith(f"{path}: unpacks to 0.0 MB: too big for a card list (at most 0.0 MB)")


# -- ODS ------------------------------------------------------------------------------------------

def test_an_ods_sheet_with_repeats_numbers_and_formatted_text(tmp_path):
    rich = TableCell(valuetype="string")
    first = P(text="two")
    first.addElement(S(c=2))
    first.addText("spaces")
    first.addElement(LineBreak())
    first.addElement(Span(text="and a break"))
    rich.addElement(first)
    rich.addElement(P(text="a second paragraph"))
    comment = Annotation()
    comment.addElement(P(text="a comment, not the cell's text"))
    rich.addElement(comment)
    path = write_ods(tmp_path / "cards.ods", {
        "Notes": [ods_row(ods_cell("only"))],
        "Fruit": [
            ods_row(ods_cell("name"), ods_cell("count"), ods_cell(repeat=3), ods_cell("cost"), ods_cell("ripe"),
                    ods_cell("text"), ods_cell("picked"), ods_cell(repeat=1017)),
            ods_row(ods_cell("Apple"), ods_cell(2, "2,00"), ods_cell(repeat=3), ods_cell(1.5, "1,50 €"),
                    ods_cell(True, "WAHR"), rich, ods_cell(datetime.date(2024, 3, 1), "1. März")),
            ods_row(ods_cell(repeat=1024), repeat=100),  # blank rows, as LibreOffice repeats them
            ods_row(ods_cell("Pear"), ods_cell(repeat=6), ods_cell("[a, b]")),
            ods_row(ods_cell("Plum", repeat=2)),  # a value repeated along the row: name and count
            ods_row(ods_cell(repeat=1024), repeat=1_048_000),  # the sheet's unused rest
        ],
    })
    cards = read_card_table(path, "Fruit")
    assert cards.file == f"{path}[Fruit]"
    assert plain(cards) == [
        (2, {"name": "Apple", "count": 2, "cost": "1.5", "ripe": "true",
             "text": "two  spaces\nand a break\na second paragraph", "picked": "2024-03-01"}),
        (103, {"name": "Pear", "text": ["a", "b"]}),
        (104, {"name": "Plum", "count": "Plum"}),
    ]


def test_an_ods_row_repeated_with_values_gives_each_copy_its_row(tmp_path):
    path = write_ods(tmp_path / "cards.ods", {"Sheet1": [ods_row(ods_cell("name")), ods_row(ods_cell("Same"), repeat=3)]})
    assert plain(read_card_table(path)) == [(2, {"name": "Same"}), (3, {"name": "Same"}), (4, {"name": "Same"})]


def test_ods_errors_name_the_sheet_and_row(tmp_path, monkeypatch):
    path = write_ods(tmp_path / "cards.ods", {
        "Fruit": [ods_row(ods_cell("name"), ods_cell(repeat=2), ods_cell("suit")),
                  ods_row(ods_cell(repeat=200), repeat=4),
                  ods_row(ods_cell("Apple"), ods_cell("x"))],
        "Veg": [ods_row(ods_cell("name"))]})
    assert error_of(path, "Fruit") == f"{path}[Fruit]:6 column B: a value in a column with no name (row 1 names the fields): name the column, or call it '# notes' to keep notes there"
    assert error_of(path, "fruit") == f"{path}: no sheet 'fruit'; the sheets are Fruit, Veg — did you mean 'Fruit'?"
    assert error_of(path, "Veg") == f"{path}[Veg]:1: no cards: only the row that names the fields"
    monkeypatch.setattr(cardtable, "MAX_COLUMNS", cardtable.MAX_COLUMNS.at(50))
    wide = write_ods(tmp_path / "wide.ods", {"S": [ods_row(ods_cell("name")), ods_row(ods_cell(repeat=49), ods_cell("x", repeat=2))]})
    assert error_of(wide) == f"{wide}[S]:2: a value beyond column AX: a card list has at most 50 columns"
    monkeypatch.setattr(cardtable, "MAX_CARDS", cardtable.MAX_CARDS.at(10))
    many = write_ods(tmp_path / "many.ods", {"S": [ods_row(ods_cell("name")), ods_row(ods_cell("x"), repeat=1_000_000)]})
    assert error_of(many) == f"{many}[S]:2: a row repeated 1,000,000 times: too many for a card list"


def test_an_ods_with_a_doctype_is_refused_before_any_entity_is_read(tmp_path):
    path = tmp_path / "evil.ods"
    content = ('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>'
               '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0">'
               '&b;</office:document-content>')
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        archive.writestr("content.xml", content)
    assert error_of(path) == f"{path}: the spreadsheet's content declares a DOCTYPE, which no .ods file has; refused"
    broken = tmp_path / "broken.ods"
    with zipfile.ZipFile(broken, "w") as archive:
        archive.writestr("content.xml", "<office:document-content")
    assert error_of(broken) == f"{broken}: not a readable .ods spreadsheet: content.xml line 1: unclosed token"


# -- decks ----------------------------------------------------------------------------------------

LAYOUT = """
    templates:
      fruit:
        doc: A fruit card.
        fields: {name: ~, suit: red, text: "", tags: [], corner: "{name}!", sweet: false}
        elements:
          - rect: {x: -bleed, y: -bleed, w: 100% + 2*bleed, h: 100% + 2*bleed, fill: "{suit} 20%"}
          - text: {text: "{name}", x: 5mm, y: 5mm, w: 100% - 10mm, h: 10mm, size: 12pt}
          - text: {text: "{corner}", x: 5mm, y: 16mm, w: 100% - 10mm, h: 8mm, size: 9pt}
          - text: {text: "{text}", x: 5mm, y: 30mm, w: 100% - 10mm, h: 30mm, size: 9pt}
          - text: {text: "SWEET", x: 5mm, y: 70mm, w: 100% - 10mm, h: 8mm, size: 9pt, when: {sweet: {set: true}}}
"""

DECK = """
    id: orchard
    title: Orchard
    designer: Test
    license: CC0-1.0
    layouts: [orchard]
    palette:
      red: {{color: "#cc2233", symbol: circle}}
      plum: {{color: "#663366", symbol: square}}
    components:
      - name: fruit
        front: fruit
        cards: {cards}
"""

ROWS = [["name", "suit", "count", "text", "tags", "sweet"],
        ["Apple", "", 3, RULE, "[round, crisp]", True],
        ["Damson", "plum", None, None, None, False]]


def ods_rows(rows: list[list[object]]) -> list[TableRow]:
    return [ods_row(*(ods_cell(v) for v in row)) for row in rows]


def orchard(make_deck, kind: str, rows: list[list[object]] = ROWS, cards: str | None = None) -> Path:
    """The orchard deck with its cards in a file of `kind` (a workbook's sheet is called Fruit)."""
    folder = make_deck(DECK.format(cards=cards or (f"orchard.{kind}" if kind in ("csv", "tsv")
                                                   else f"{{file: orchard.{kind}, sheet: Fruit}}")),
                       {"orchard": LAYOUT})
    path = folder / f"orchard.{kind}"
    if kind in ("csv", "tsv"):
        text_rows = [["" if v is None else str(v).lower() if isinstance(v, bool) else v for v in row] for row in rows]
        write_csv(path, text_rows, "\t" if kind == "tsv" else ",")
    elif kind == "xlsx":
        write_xlsx(path, {"Other": [["x"]], "Fruit": rows})
    else:
        write_ods(path, {"Other": [ods_row(ods_cell("x"))], "Fruit": ods_rows(rows)})
    return folder


KINDS = ("csv", "tsv", "xlsx", "ods")


@pytest.mark.parametrize("kind", KINDS)
def test_a_deck_takes_its_cards_from_each_kind_of_spreadsheet(make_deck, kind):
    deck = load_deck(orchard(make_deck, kind))
    cards = deck.components[0].cards
    shown = f"orchard.{kind}" + ("[Fruit]" if kind in ("xlsx", "ods") else "")
    assert [(Path(c.file).name, c.line, c.count) for c in cards] == [(shown, 2, 3), (shown, 3, 1)]
    apple, damson = (c.fields for c in cards)
    assert (apple["suit"], apple["text"], apple["tags"], apple["corner"]) == ("red", RULE, ["round", "crisp"], "Apple!")
    assert (damson["suit"], damson["text"], damson["tags"], damson["corner"]) == ("plum", "", [], "Damson!")
    assert deck.card_count() == 4


@pytest.mark.parametrize("kind", ["csv", "xlsx", "ods"])
def test_card_checks_name_the_spreadsheet_row(make_deck, kind):
    rows = [row[:] for row in ROWS]
    rows[0][3] = "txt"
    with pytest.raises(DeckError) as caught:
        load_deck(orchard(make_deck, kind, rows))
    shown = f"orchard.{kind}" + ("[Fruit]" if kind != "csv" else "")
    assert str(caught.value).endswith(f"{shown}:1 column D: unknown column 'txt' — did you mean 'text'?")
    rows = [row[:] for row in ROWS] + [["", "red", 2]]
    with pytest.raises(DeckError) as caught:
        load_deck(orchard(make_deck, kind, rows))
    assert str(caught.value).endswith(f"{shown}:4: card lacks field 'name', which template 'fruit' requires")
    rows = [row[:] for row in ROWS] + [["Fig", "red", 2.5]]
    with pytest.raises(DeckError) as caught:
        load_deck(orchard(make_deck, kind, rows))
    assert str(caught.value).endswith(f"{shown}:4 column C: count must be a whole number of 0 or more (0 leaves the "
                                      "card out), not '2.5'")


@pytest.mark.parametrize("cards, message", [
    ("../outside.csv", "deck.yaml:13: cards: '../outside.csv' points outside the deck folder; files must stay inside it"),
    ("link.csv", "deck.yaml:13: cards: 'link.csv' points outside the deck folder; files must stay inside it"),
    ("missing.csv", "deck.yaml:13: cards: file 'missing.csv' not found"),
    ("deck.yaml", "deck.yaml:2: a card list file is a list of cards, each a mapping of fields, like "
                  "'- {name: Apple, count: 2}'"),  # a YAML file is a card list, but not this one
    ("{file: orchard.csv, sheet: Fruit}", "deck.yaml:13: cards: a .csv file has no sheets; 'sheet' is for .xlsx "
                                          "and .ods workbooks"),
    ("{file: orchard.csv, sheets: Fruit}", "deck.yaml:13: unknown key 'sheets' in cards — did you mean 'sheet'?"),
    ("{sheet: Fruit}", "deck.yaml:13: 'cards' names its spreadsheet with 'file', like {file: cards.xlsx, sheet: Fruit}"),
    ("orchard", "deck.yaml:13: cards: file 'orchard' not found — did you mean 'orchard.csv'?"),
])
def test_the_card_file_stays_inside_the_deck_folder_and_is_a_spreadsheet(make_deck, tmp_path, cards, message):
    folder = orchard(make_deck, "csv", cards=cards)
    outside = write_csv(tmp_path / "outside.csv", ROWS)
    os.symlink(outside, folder / "link.csv")
    with pytest.raises(DeckError) as caught:
        load_deck(folder)
    assert str(caught.value).endswith(message)


def test_a_deck_from_a_spreadsheet_builds_through_the_cli(make_deck, tmp_path):
    folder = orchard(make_deck, "ods")
    result = CliRunner().invoke(cli.main, ["build", str(folder), "--paper", "a4", "--ink", "color",
                                           "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    text = page_text(tmp_path / "out" / "orchard" / "orchard-cards-a4.pdf", 0)
    assert text.count("Apple!") == 3 and text.count("Damson!") == 1
    assert "Then play one." in text and text.count("SWEET") == 3  # a truth cell FALSE leaves `when: set` off


def test_a_mistake_in_a_sheet_is_one_line_from_the_cli(make_deck, tmp_path):
    rows = [row[:] for row in ROWS]
    rows[2][1] = "plumb"
    folder = orchard(make_deck, "xlsx", rows)
    result = CliRunner().invoke(cli.main, ["build", str(folder), "--paper", "a4", "--ink", "color",
                                           "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {folder / 'orchard.xlsx'}[Fruit]:3: ")
    assert "'plumb'" in lines[0] and lines[0].endswith("— did you mean 'plum'?")
