"""Card lists kept in a spreadsheet: `.csv`, `.tsv`, `.xlsx` or `.ods`, read into the same `Map`s
a YAML card list is made of, so the deck loader checks them like any other cards.

The first row that is not blank names the fields; every later row is a card. Cells are text,
as the person typed them: `1`, not `1.0`; an empty cell leaves the field out; a `count` cell
becomes a whole number; a cell written in square brackets (`[red, blue]`) is a list, read
as YAML's flow syntax. Each row remembers its row number, and its file is shown as `fruit.csv`
or, for a sheet of a workbook, `cards.xlsx[Fruit]`, so every error reads `cards.xlsx[Fruit]:6: …`.

Spreadsheet files come from strangers like deck files: sizes are bounded before anything is
unpacked, rows and columns while they are read, and the ODS reader refuses any DOCTYPE (so no
entities, external or nested). openpyxl guards its own XML parsing the same way.
"""

from __future__ import annotations

import datetime
import io
import itertools
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ..errors import DeckError, display_path, suggest
from ..yamlfile import MAX_TEXT, Map, Seq, parse_yaml

TABLE_TYPES = (".csv", ".tsv", ".xlsx", ".ods")
WORKBOOK_TYPES = (".xlsx", ".ods")  # the kinds with sheets

# Far beyond any card list, near enough to refuse a file made to exhaust memory or time.
MAX_FILE_BYTES = 32 * 2**20  # on disk
MAX_UNPACKED_BYTES = 256 * 2**20  # all parts of an .xlsx or .ods zip, unpacked
MAX_CARDS = 10_000  # rows with data
MAX_COLUMNS = 1_000  # a cell with data further right is refused
MAX_SHEET_ROWS = 1_048_576  # the most rows Excel and LibreOffice have

_WHOLE = re.compile(r"\d+")

Row = tuple[int, Sequence[str]]  # a row number (from 1, as the spreadsheet shows it) and its cells


def read_card_table(path: Path, sheet: str | None = None) -> Seq:
    """The cards of a spreadsheet file (of `sheet`, for a workbook; by default its first), as a
    Seq of Maps like a YAML card list. Raises DeckError naming the file and row."""
    shown = display_path(path)
    kind = path.suffix.lower()
    if sheet is not None and kind not in WORKBOOK_TYPES:
        raise ValueError(f"a {kind} file has no sheets")  # the deck loader says so where `sheet` is written
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise DeckError(f"cannot read the file ({exc.strerror or exc})", shown) from None
    if size > MAX_FILE_BYTES:
        raise DeckError(f"{_megabytes(size)} is too big for a card list (at most {_megabytes(MAX_FILE_BYTES)})",
                        shown)
    if kind == ".xlsx":
        shown, rows = _xlsx_rows(path, shown, sheet)
    elif kind == ".ods":
        shown, rows = _ods_rows(path, shown, sheet)
    else:
        rows = _csv_rows(path, shown, "\t" if kind == ".tsv" else None)
    return _cards(rows, shown)


def _cards(rows: list[Row], shown: str) -> Seq:
    """Rows with data (the first names the fields) -> a Seq of card Maps."""
    if not rows:
        raise DeckError("the table is empty; its first row names the fields, every row below is a card", shown)
    header_line, header = rows[0]
    names: dict[int, str] = {}
    for column, cell in enumerate(header):
        name = cell.strip()
        if not name:
            continue
        first = next((c for c, n in names.items() if n == name), None)
        if first is not None:
            raise DeckError(f"column '{name}' appears twice (columns {_letter(first)} and {_letter(column)})",
                            shown, header_line)
        names[column] = name
    cards = Seq()
    cards.file, cards.line = shown, header_line
    for line, cells in rows[1:]:
        card = Map()
        card.file, card.line = shown, line
        for column, cell in enumerate(cells):
            text = _tidy(cell)
            if not text:
                continue  # an empty cell leaves the field out: the default applies
            if column not in names:
                raise DeckError(f"column {_letter(column)} has a value but no name in the first row "
                                f"(row {header_line})", shown, line)
            name = names[column]
            if len(text) > MAX_TEXT:
                raise DeckError(f"the cell of '{name}' holds {len(text):,} characters: a value has at most "
                                f"{MAX_TEXT:,}, as in a YAML file", shown, line)
            card[name] = _value(name, text, shown, line)
            card.key_lines[name] = line
        cards.append(card)
        cards.item_lines.append(line)
    if not cards:
        raise DeckError(f"no cards: only the row that names the fields (row {header_line})", shown)
    return cards


def _tidy(cell: str) -> str:
    """A cell's text with its line breaks as `\\n` (Windows writes `\\r\\n`) and no space round it."""
    return cell.replace("\r\n", "\n").replace("\r", "\n").strip()


def _value(name: str, text: str, shown: str, line: int) -> Any:
    """A field's value from its cell: a whole-number `count` as an int, `[a, b]` as a list, else the text."""
    if name == "count" and _WHOLE.fullmatch(text):
        return int(text)  # anything else stays text, which the deck loader refuses with its usual message
    if text.startswith("[") and text.endswith("]"):
        try:
            items = parse_yaml(text, shown)
        except DeckError as exc:
            raise DeckError(f"column '{name}': {exc.message} (a cell in square brackets is a list, "
                            "like [red, blue])", shown, line) from None
        if isinstance(items, Seq):  # a list of its own, at the cell's row (what parse_yaml gives is shared)
            found = Seq(items)
            found.file, found.line, found.item_lines = items.file, line, [line] * len(items)
            return found
    return text


def _letter(column: int) -> str:
    """A column's letter as spreadsheets show it: 0 -> A, 26 -> AA."""
    letters = ""
    column += 1
    while column:
        column, rest = divmod(column - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def _collect(rows: Iterable[Row], shown: str) -> list[Row]:
    """The rows with data, bounded: blank rows are skipped, as are empty cells at a row's end."""
    kept: list[Row] = []
    for line, cells in rows:
        width = len(cells)
        while width and not cells[width - 1].strip():
            width -= 1
        if not width:
            continue
        if width > MAX_COLUMNS:
            raise DeckError(f"a value in column {_letter(width - 1)}: a card list has at most {MAX_COLUMNS} columns",
                            shown, line)
        if len(kept) > MAX_CARDS:
            raise DeckError(f"more than {MAX_CARDS} cards: too many for a card list", shown, line)
        kept.append((line, cells[:width]))
    return kept


# -- CSV and TSV ------------------------------------------------------------------------------------

def _csv_rows(path: Path, shown: str, delimiter: str | None) -> list[Row]:
    """Rows of a UTF-8 CSV (BOM or not; `,`, or `;` when the first line has `;` and no `,`, as Excel
    writes it where the comma is the decimal mark) or, with `delimiter` tab, of a TSV."""
    import csv  # here, like the other formats' readers: most decks keep their cards in YAML

    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DeckError(f"cannot read the file ({exc.strerror or exc})", shown) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DeckError(f"not UTF-8 text ({exc.reason}: 0x{data[exc.start]:02x}); save it as 'CSV UTF-8'",
                        shown, data.count(b"\n", 0, exc.start) + 1) from None
    if delimiter is None:
        first = text.split("\n", 1)[0]
        delimiter = ";" if ";" in first and "," not in first else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    numbered = enumerate(reader, start=1)  # records, not lines: a cell may hold line breaks
    try:
        return _collect(numbered, shown)
    except csv.Error as exc:
        raise DeckError(f"not readable as CSV: {exc}", shown, reader.line_num) from None


# -- XLSX -------------------------------------------------------------------------------------------

def _xlsx_rows(path: Path, shown: str, sheet: str | None) -> tuple[str, list[Row]]:
    """The rows of one sheet of an Excel workbook, with formulas as the values Excel last saved."""
    import openpyxl  # only decks with a workbook need it

    _check_unpacked(path, shown)
    try:
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # a stranger's file: whatever openpyxl fails with, say so in one line
        raise DeckError(f"not a readable .xlsx workbook ({_reason(exc)})", shown) from None
    try:
        name = _pick_sheet(book.sheetnames, sheet, shown)
        table = book[name]
        if not hasattr(table, "iter_rows"):
            raise DeckError(f"sheet '{name}' is a chart, not a table", shown)
        shown = f"{shown}[{name}]"
        # the size the file claims is not trusted: rows are as long as their last cell
        table.reset_dimensions()
        rows = ((line, [_xlsx_text(v) for v in values])
                for line, values in zip(range(1, MAX_SHEET_ROWS + 1), table.iter_rows(values_only=True)))
        try:
            return shown, _collect(rows, shown)
        except DeckError:
            raise
        except Exception as exc:
            raise DeckError(f"not a readable sheet ({_reason(exc)})", shown) from None
    finally:
        book.close()


def _xlsx_text(value: Any) -> str:
    """A cell as the text a person typed or sees: 1, 1.5, true, 2024-03-01."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return _number(value)
    if isinstance(value, datetime.datetime) and value.time() == datetime.time():
        return value.date().isoformat()
    if isinstance(value, (datetime.date, datetime.time)):  # datetime is a date
        return value.isoformat()
    return str(value)


def _number(value: float) -> str:
    """A number as a spreadsheet shows it: at most 15 digits, no `.0` on whole numbers."""
    return f"{value:.15g}"


# -- ODS --------------------------------------------------------------------------------------------

_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
_CELLS = (f"{_TABLE}table-cell", f"{_TABLE}covered-table-cell")
_PARAGRAPHS = (f"{_TEXT}p", f"{_TEXT}h")
_LITERALS = {f"{_TEXT}line-break": "\n", f"{_TEXT}tab": "\t"}  # text:s (spaces) has a count
_SKIPPED = (f"{_OFFICE}annotation", f"{_TABLE}table")  # a cell's comment, or a table inside a cell
_TIME = re.compile(r"PT(\d+)H(\d+)M(\d+(?:\.\d+)?)S")
_SPACES = re.compile(r"[ \t\r\n]+")
_MAX_SPACES = 1000  # one text:s may claim any number of spaces


def _ods_rows(path: Path, shown: str, sheet: str | None) -> tuple[str, list[Row]]:
    """The rows of one sheet of an OpenDocument spreadsheet, read from its content.xml as a stream."""
    import xml.etree.ElementTree as ET
    import zipfile

    _check_unpacked(path, shown)
    reader = _OdsReader(sheet, shown)
    parser = ET.XMLParser(target=reader)
    try:
        with zipfile.ZipFile(path) as archive, archive.open("content.xml") as content:
            while chunk := content.read(1 << 16):
                parser.feed(chunk)
        parser.close()
    except DeckError:
        raise
    except (KeyError, zipfile.BadZipFile, ET.ParseError, OSError, ValueError) as exc:
        raise DeckError(f"not a readable .ods spreadsheet ({_reason(exc)})", shown) from None
    _pick_sheet(reader.names, sheet, shown)
    return reader.shown, _collect(reader.rows, reader.shown)


class _OdsReader:
    """A parser target (ElementTree's start/end/data interface) that keeps the wanted sheet's rows.

    Rows and cells may be repeated (`table:number-rows-repeated`, `…-columns-repeated`): a sheet
    can end in an empty row repeated a million times, so blank repeats only move the row number."""

    def __init__(self, sheet: str | None, shown: str) -> None:
        self.wanted, self.shown = sheet, shown  # `shown` gets the sheet's name once it is found
        self.names: list[str] = []  # every sheet, for the message when `wanted` is not among them
        self.rows: list[Row] = []
        self.line = 0  # the row number of the current row
        self.reading = False  # inside the wanted sheet
        self.cells: list[str] | None = None  # the current row's cells up to its last value
        self.blanks = 0  # empty cells seen after the last value
        self.row_repeat = self.cell_repeat = 1
        self.cell: list[str] | None = None  # the current cell's paragraphs
        self.value: str | None = None  # … or its value, when it is a number, date, time or truth
        self.parts: list[tuple[bool, str]] = []  # the current paragraph: (literal, text) pieces
        self.paragraph = self.skipping = 0  # depth inside a paragraph, inside a skipped element

    def doctype(self, name: str, pubid: str | None, system: str | None) -> None:
        raise DeckError("the spreadsheet's content declares a DOCTYPE, which no .ods file has; refused",
                        self.shown)

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        if self.skipping or (self.cell is not None and tag in _SKIPPED):
            self.skipping += 1
        elif tag == f"{_TABLE}table":
            name = attrs.get(f"{_TABLE}name", f"Sheet{len(self.names) + 1}")
            self.reading = name == self.wanted or (self.wanted is None and not self.names)
            self.names.append(name)
            if self.reading:
                self.shown = f"{self.shown}[{name}]"  # what its rows' errors are reported in
        elif not self.reading:
            return
        elif tag == f"{_TABLE}table-row":
            self.cells, self.blanks = [], 0
            self.row_repeat = _count(attrs.get(f"{_TABLE}number-rows-repeated"))
        elif tag in _CELLS and self.cells is not None:
            self.cell, self.value = [], _typed_value(attrs)
            self.cell_repeat = _count(attrs.get(f"{_TABLE}number-columns-repeated"))
        elif self.cell is None:
            return
        elif tag in _PARAGRAPHS:
            self.paragraph += 1
            if self.paragraph == 1:
                self.parts = []
        elif self.paragraph and tag == f"{_TEXT}s":
            self.parts.append((True, " " * min(_count(attrs.get(f"{_TEXT}c")), _MAX_SPACES)))
        elif self.paragraph and tag in _LITERALS:
            self.parts.append((True, _LITERALS[tag]))

    def data(self, text: str) -> None:
        if self.paragraph and not self.skipping:
            self.parts.append((False, text))

    def end(self, tag: str) -> None:
        if self.skipping:
            self.skipping -= 1
        elif tag == f"{_TABLE}table":
            self.reading = False
        elif not self.reading:
            return
        elif tag in _PARAGRAPHS and self.paragraph:
            self.paragraph -= 1
            if not self.paragraph and self.cell is not None:
                self.cell.append(_paragraph_text(self.parts))
        elif tag in _CELLS and self.cell is not None and self.cells is not None:
            self._end_cell("\n".join(self.cell) if self.value is None else self.value)
            self.cell = None
        elif tag == f"{_TABLE}table-row" and self.cells is not None:
            self._end_row()
            self.cells = None

    def _end_cell(self, text: str) -> None:
        if not text.strip():
            self.blanks += self.cell_repeat  # only counted: a row may end in 16 000 empty cells
            return
        assert self.cells is not None
        if len(self.cells) + self.blanks + self.cell_repeat > MAX_COLUMNS:
            raise DeckError(f"a value beyond column {_letter(MAX_COLUMNS - 1)}: a card list has at most "
                            f"{MAX_COLUMNS} columns", self.shown, self.line + 1)
        self.cells += [""] * self.blanks + [text] * self.cell_repeat
        self.blanks = 0

    def _end_row(self) -> None:
        assert self.cells is not None
        if self.cells and self.row_repeat > MAX_CARDS:
            raise DeckError(f"a row repeated {self.row_repeat} times: too many for a card list",
                            self.shown, self.line + 1)
        for _ in range(self.row_repeat if self.cells else 0):
            self.rows.append((self.line + 1, self.cells))
            self.line += 1
            if len(self.rows) > MAX_CARDS + 1:
                raise DeckError(f"more than {MAX_CARDS} cards: too many for a card list", self.shown, self.line)
        if not self.cells:
            self.line += self.row_repeat

    def close(self) -> None:
        return None


def _count(written: str | None) -> int:
    """A repeat count or a number of spaces: 1 when absent or nonsense."""
    return int(written) if written is not None and written.isdigit() and int(written) > 0 else 1


def _typed_value(attrs: dict[str, str]) -> str | None:
    """A cell's value when its type says the text shown is only a rendering of it (a number shown
    as `1,5` or `$3.00`, a date as `1 March`): the number, ISO date or time, true or false."""
    kind = attrs.get(f"{_OFFICE}value-type")
    if kind in ("float", "percentage", "currency"):
        try:
            return _number(float(attrs[f"{_OFFICE}value"]))
        except (KeyError, ValueError):
            return None
    if kind == "date":
        return attrs.get(f"{_OFFICE}date-value", "").removesuffix("T00:00:00") or None
    if kind == "time":
        m = _TIME.fullmatch(attrs.get(f"{_OFFICE}time-value", ""))
        if m:
            return f"{int(m.group(1)):02d}:{int(m.group(2)):02d}:{m.group(3).zfill(2)}"
        return None
    if kind == "boolean":
        return attrs.get(f"{_OFFICE}boolean-value")
    return None


def _paragraph_text(parts: list[tuple[bool, str]]) -> str:
    """A paragraph's text. Runs of white space in the XML count as one space (the ODF rule);
    spaces, tabs and line breaks written as elements are kept."""
    return "".join("".join(t for _, t in group) if literal else _SPACES.sub(" ", "".join(t for _, t in group))
                   for literal, group in itertools.groupby(parts, key=lambda part: part[0]))


# -- shared -----------------------------------------------------------------------------------------

def _check_unpacked(path: Path, shown: str) -> None:
    """Refuse a zip that would unpack to far more than a card list needs (a zip bomb)."""
    import zipfile

    try:
        with zipfile.ZipFile(path) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, OSError) as exc:
        raise DeckError(f"not a {path.suffix.lower()} file: {_reason(exc)}", shown) from None
    if unpacked > MAX_UNPACKED_BYTES:
        raise DeckError(f"unpacks to {_megabytes(unpacked)}: too big for a card list "
                        f"(at most {_megabytes(MAX_UNPACKED_BYTES)})", shown)


def _megabytes(size: int) -> str:
    return f"{size / 2**20:.1f} MB"


def _pick_sheet(names: Sequence[str], wanted: str | None, shown: str) -> str:
    if not names:
        raise DeckError("the workbook has no sheets", shown)
    if wanted is None:
        return names[0]
    if wanted not in names:
        raise DeckError(f"no sheet '{wanted}'; the sheets are {', '.join(names)}", shown, None,
                        suggest(wanted, names))
    return wanted


def _reason(exc: Exception) -> str:
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__

