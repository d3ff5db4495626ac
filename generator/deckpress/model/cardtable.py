"""Card lists kept in a spreadsheet: `.csv`, `.tsv`, `.xlsx` or `.ods`, read into the same `Map`s
a YAML card list is made of, so the deck loader checks them like any other cards.

The first row that is not blank names the fields; every later row is a card. A column whose
name starts with `#` or `_` (`# playtest notes`) is the designer's own and is not read. Cells are
text, as the person typed them: `1`, not `1.0`; an empty cell leaves the field out; a `count` cell
becomes a whole number; a cell written in square brackets (`[red, blue]`) is a list, read
as YAML's flow syntax. Each row remembers its row number, and each of its fields its column, and
its file is shown as `fruit.csv` or, for a sheet of a workbook, `cards.xlsx[Fruit]`, so every error
reads `cards.xlsx[Fruit]:6 column C: …` (a mistake in a column's name: at the row of the names).
The column names are matched to the fields the deck's templates declare by the deck loader
(`header_key`: `Card Name` is `card-name` or `card_name`), which knows them.

A formula cell that was never calculated and saved (a workbook written by a program other than a
spreadsheet) has no value to read: the row keeps that as a problem (`CardRow.problems`), which the
deck loader says when it reads the card.

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

from ..errors import DeckError, display_path, printable, suggest
from ..errors import shown as quoted  # `shown` is the file as a message names it, everywhere here
from ..yamlfile import MAX_TEXT, Map, Seq, parse_yaml

TABLE_TYPES = (".csv", ".tsv", ".xlsx", ".ods")
WORKBOOK_TYPES = (".xlsx", ".ods")  # the kinds with sheets


class Limit(int):
    """A bound on what a stranger's table may hold, far beyond any card list and near enough to
    refuse a file made to exhaust memory or time, declared once with the words that refuse it:
    `message` is formatted with `limit` (the bound, as `{limit:,}`) and whatever else it names."""

    message: str

    def __new__(cls, value: int, message: str) -> Limit:
        made = super().__new__(cls, value)
        made.message = message
        return made

    def error(self, shown: str, line: int | None = None, **found: Any) -> DeckError:
        return DeckError(self.message.format(limit=int(self), limit_mb=_megabytes(self), **found), shown, line)

    def at(self, value: int) -> Limit:
        """The same limit at another value (tests lower them)."""
        return Limit(value, self.message)


MAX_FILE_BYTES = Limit(32 * 2**20, "{size} is too big for a card list (at most {limit_mb})")  # on disk
MAX_PART_BYTES = Limit(64 * 2**20, "{part} unpacks to {size}: too big for a card list (a part has at most "
                                   "{limit_mb})")  # one member of an .xlsx or .ods zip, unpacked
MAX_UNPACKED_BYTES = Limit(256 * 2**20, "unpacks to {size}: too big for a card list (at most {limit_mb})")  # all
MAX_PARTS = Limit(10_000, "the zip holds {parts:,} parts: a spreadsheet has a few dozen (at most {limit:,})")
MAX_ELEMENTS = Limit(2_000_000, "{part} holds more than {limit:,} XML elements: far more than a card list needs")
MAX_SHARED_STRINGS = Limit(300_000, "{part} holds more than {limit:,} shared strings: a card list needs far fewer")
MAX_CELLS = Limit(300_000, "more than {limit:,} cells{where}: a card list needs far fewer")  # in a sheet, and kept
MAX_ROW_CELLS = Limit(16_384, "row {row} of {part} has more than {limit:,} cells: Excel's rows have 16,384")
MAX_ROWS = Limit(1_048_576, "a value below row {limit:,}: a sheet has at most {limit:,} rows, as in Excel "
                            "and LibreOffice")
MAX_CARDS = Limit(10_000, "more than {limit:,} cards: too many for a card list")  # rows with data
MAX_COLUMNS = Limit(1_000, "a value in column {column}: a card list has at most {limit:,} columns")
MAX_SHEET_TEXT = Limit(16_000_000, "the sheet holds more than {limit:,} characters of text: a card list needs "
                                   "far fewer")  # .ods, whose text:s and repeats make much of little
MAX_CELL_TEXT = Limit(MAX_TEXT, "the cell {cell} holds more than {limit:,} characters: a value has at most "
                                "{limit:,}, as in a YAML file")  # .ods, counted as it is read (text:s, text:tab)
MAX_SHEETS = Limit(1_000, "the workbook has more than {limit:,} sheets: a card list needs one")  # .xlsx: openpyxl
# takes time in the square of the count to name them; an .ods file's names cost nothing and are not limited
MAX_SHEETS_SHOWN = 5  # sheet names an error lists before saying how many more

_WHOLE = re.compile(r"\d+")
_SEPARATORS = re.compile(r"[\s_-]+")
IGNORED_MARKS = ("#", "_")  # a column whose name starts with one is the designer's own, never read


class Unsaved(str):
    """A formula cell without a saved value: its formula (`=B5*2`), said as a problem of its row."""


Row = tuple[int, Sequence[str]]  # a row number (from 1, as the spreadsheet shows it) and its cells


def header_key(name: str) -> str:
    """A column's name or a field's as they are matched: case, spaces, `-` and `_` counting for
    nothing, so `Card Name`, `card_name` and `card-name` are one field."""
    return _SEPARATORS.sub("", name.casefold())


class CardRow(Map):
    """A card read from a spreadsheet's row: a Map that knows each field's column, so a mistake in a
    value is said at its cell (`cards.xlsx[Fruit]:6 column C: …`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.columns: dict[Any, str] = {}  # field -> its column's letter
        self.problems: list[DeckError] = []  # cells that give no value (a formula never saved)

    def error(self, key: Any, message: str, suggestion: str | None = None) -> DeckError:
        return DeckError(message, self.file_of(key), self.line_of(key), suggestion, self.columns.get(key))


class CardTable(Seq):
    """The cards of a spreadsheet: its rows (`CardRow`s), and its columns' names, each with its
    letter, as the header row (`header_line`) writes them."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.columns: dict[str, str] = {}  # name as written -> its column's letter
        self.header_line = 1
        self.absent: set[str] = set()  # required fields no column gives: said once, not on every row

    def header_error(self, name: str, message: str, suggestion: str | None = None) -> DeckError:
        """A mistake in a column's name, said where the name is written: the header row, its column."""
        return DeckError(message, self.file, self.header_line, suggestion, self.columns.get(name))

    def rename(self, name: str, to: str) -> None:
        """Call column `name` `to` in every row (the spelling the templates declare), keeping the order of fields."""
        self.columns = {to if key == name else key: letter for key, letter in self.columns.items()}
        for row in self:
            if name in row:
                kept = [(to if key == name else key, value) for key, value in row.items()]
                row.clear()
                row.update(kept)
                row.key_lines[to] = row.key_lines.pop(name)
                row.columns[to] = row.columns.pop(name)

    def drop(self, name: str) -> None:
        """Leave column `name` out of every row (a mistake said once, at its name, not in every row)."""
        self.columns.pop(name, None)
        for row in self:
            if name in row:
                del row[name]
                row.key_lines.pop(name, None)
                row.columns.pop(name, None)


def read_card_table(path: Path, sheet: str | None = None, shown: str | None = None) -> Seq:
    """The cards of a spreadsheet file (of `sheet`, for a workbook; by default its first), as a
    Seq of Maps like a YAML card list. Raises DeckError naming the file (as `shown`, by default
    its path: a fetched copy is shown as its web address) and row."""
    shown = display_path(path) if shown is None else shown
    kind = path.suffix.lower()
    if sheet is not None and kind not in WORKBOOK_TYPES:
        raise ValueError(f"a {kind} file has no sheets")  # the deck loader says so where `sheet` is written
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise DeckError(f"cannot read the file ({exc.strerror or exc})", shown) from None
    if size > MAX_FILE_BYTES:
        raise MAX_FILE_BYTES.error(shown, size=_megabytes(size))
    if kind == ".xlsx":
        shown, rows = _xlsx_rows(path, shown, sheet)
    elif kind == ".ods":
        shown, rows = _ods_rows(path, shown, sheet)
    else:
        rows = _csv_rows(path, shown, "\t" if kind == ".tsv" else None)
    return _cards(rows, shown)


def _cards(rows: list[Row], shown: str) -> CardTable:
    """Rows with data (the first names the fields) -> a CardTable of CardRows."""
    if not rows:
        raise DeckError("the table is empty; its first row names the fields, every row below is a card", shown, 1)
    header_line, header = rows[0]
    names: dict[int, str] = {}
    ignored: set[int] = set()  # the designer's own columns (`# notes`): their cells are never read
    for column, cell in enumerate(header):
        name = cell.strip()
        if not name:
            continue
        if name.startswith(IGNORED_MARKS):
            ignored.add(column)
            continue
        if "\n" in name or "\r" in name:
            raise DeckError(f"the column's name, {_echo(name)}, holds a line break: a field's "
                            "name is one line", shown, header_line, column=_letter(column))
        first = next((c for c, n in names.items() if n == name), None)
        if first is not None:
            raise DeckError(f"column {_echo(name)} appears twice (columns {_letter(first)} and {_letter(column)})",
                            shown, header_line, column=_letter(column))
        names[column] = name
    cards = CardTable()
    cards.file, cards.line, cards.header_line = shown, header_line, header_line
    cards.columns = {name: _letter(column) for column, name in names.items()}
    for line, cells in rows[1:]:
        card = CardRow()
        card.file, card.line = shown, line
        for column, cell in enumerate(cells):
            if column in ignored:
                continue
            text = _tidy(cell)
            if not text:
                continue  # an empty cell leaves the field out: the default applies
            if column not in names:
                raise DeckError(f"a value in a column with no name (row {header_line} names the fields): name the "
                                "column, or call it '# notes' to keep notes there", shown, line,
                                column=_letter(column))
            name = names[column]
            if isinstance(cell, Unsaved):
                card.problems.append(DeckError(
                    f"the formula of {_echo(name)} ({_echo(str(cell))}) has no saved value: open the file in a "
                    "spreadsheet program (Excel, LibreOffice) and save it, so its values are stored",
                    shown, line, column=_letter(column)))
                continue
            if len(text) > MAX_TEXT:
                raise DeckError(f"the cell of {_echo(name)} holds {len(text):,} characters: a value has at most "
                                f"{MAX_TEXT:,}, as in a YAML file", shown, line, column=_letter(column))
            card[name] = _value(name, text, shown, line, _letter(column))
            card.key_lines[name] = line
            card.columns[name] = _letter(column)
        cards.append(card)
        cards.item_lines.append(line)
    if not cards:
        raise DeckError("no cards: only the row that names the fields", shown, header_line)
    return cards


def _tidy(cell: str) -> str:
    """A cell's text with its line breaks as `\\n` (Windows writes `\\r\\n`) and no space round it."""
    return cell.replace("\r\n", "\n").replace("\r", "\n").strip()


def _echo(text: str) -> str:
    """A value quoted in a message, on one line, cut short (`errors.shown`)."""
    return f"'{quoted(text)}'"


def _value(name: str, text: str, shown: str, line: int, column: str) -> Any:
    """A field's value from its cell: a whole-number `count` as an int, `[a, b]` as a list, else the text."""
    if header_key(name) == "count" and _WHOLE.fullmatch(text):
        return int(text)  # anything else stays text, which the deck loader refuses with its usual message
    if text.startswith("[") and text.endswith("]"):
        try:
            items = parse_yaml(text, shown)
        except DeckError as exc:
            raise DeckError(f"the list of {_echo(name)}: {exc.message} (a cell in square brackets is a list, "
                            "like [red, blue])", shown, line, column=column) from None
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
    cells_kept = 0
    for line, cells in rows:
        width = len(cells)
        while width and not cells[width - 1].strip():
            width -= 1
        if not width:
            if line > MAX_ROWS:
                break  # blank rows past the last a spreadsheet has: the rest of the file is not read
            continue
        if line > MAX_ROWS:
            raise MAX_ROWS.error(shown, line)
        if width > MAX_COLUMNS:
            raise MAX_COLUMNS.error(shown, line, column=_letter(width - 1))
        if len(kept) > MAX_CARDS:
            raise MAX_CARDS.error(shown, line)
        cells_kept += width
        if cells_kept > MAX_CELLS:
            raise MAX_CELLS.error(shown, line, where=" up to this row")
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
        raise DeckError(f"not readable as CSV: {_reason(exc)}", shown, reader.line_num) from None


# -- XLSX -------------------------------------------------------------------------------------------

def _xlsx_rows(path: Path, shown: str, sheet: str | None) -> tuple[str, list[Row]]:
    """The rows of one sheet of an Excel workbook, with formulas as the values Excel last saved.

    openpyxl reads every shared string before the first row, and a whole row before its first
    cell, so each part of the file is first read here as a stream and counted (`_scan_xlsx`)."""
    import openpyxl  # only decks with a workbook need it

    unsaved: set[str] = set()  # cells (`B5`, of any sheet) holding a formula without a saved value
    with _open_zip(path, shown) as archive:
        names = _scan_xlsx(archive, shown, unsaved)
    if sheet is not None and names and sheet not in names:
        _pick_sheet(names, sheet, shown)  # said before openpyxl would name every sheet
    if len(names) > MAX_SHEETS:
        raise MAX_SHEETS.error(shown)
    books = []
    try:
        try:
            # the values Excel saved; and, only when some formula has none, the formulas, to say which
            books.append(openpyxl.load_workbook(path, read_only=True, data_only=True))
            if unsaved:
                books.append(openpyxl.load_workbook(path, read_only=True, data_only=False))
        except Exception as exc:  # a stranger's file: whatever openpyxl fails with, say so in one line
            raise DeckError(f"not a readable .xlsx workbook ({_reason(exc)})", shown) from None
        name = _pick_sheet(books[0].sheetnames, sheet, shown)
        tables = [book[name] for book in books]
        if not hasattr(tables[0], "iter_rows"):
            raise DeckError(f"sheet {_echo(name)} is a chart, not a table", shown)
        shown = f"{shown}[{name}]"
        for table in tables:  # the size the file claims is not trusted: rows are as long as their last cell
            table.reset_dimensions()
        values = tables[0].iter_rows(values_only=True)
        formulas = tables[1].iter_rows(values_only=True) if unsaved else itertools.repeat(())
        rows = ((line, [_xlsx_text(v) if v is not None or i >= len(written) else _unsaved(written[i], i, line, unsaved)
                        for i, v in enumerate(saved)])
                for line, saved, written in zip(range(1, MAX_ROWS + 2), values, formulas))
        try:
            return shown, _collect(rows, shown)
        except DeckError:
            raise
        except Exception as exc:
            raise DeckError(f"not a readable sheet ({_reason(exc)})", shown) from None
    finally:
        for book in books:
            book.close()


def _unsaved(written: Any, column: int, line: int, unsaved: set[str]) -> str:
    """A cell with no saved value: its formula, as `Unsaved`, when the scan found one there
    without a value (else it is an empty cell, or a formula that gave nothing)."""
    if isinstance(written, str) and written.startswith("=") and f"{_letter(column)}{line}" in unsaved:
        return Unsaved(written)
    return ""


def _scan_xlsx(archive: Any, shown: str, unsaved: set[str]) -> list[str]:
    """Read every part of a workbook's zip as XML in a stream, counting what openpyxl would build,
    and refuse it at the first limit passed: elements of a part, shared strings, a sheet's rows and
    cells, a row's cells. A DOCTYPE is refused too (no entity is ever expanded). A part that is no
    XML (a picture) is left as soon as that shows; a corrupt part is refused. Gives the names of
    the sheets (of the `sheet` elements of any part: the workbook's), and puts in `unsaved` the cells
    (`B5`) holding a formula without a saved value (`<f>` and an empty or no `<v>`), which
    openpyxl reads as empty: a file written by a program that does not calculate."""
    from xml.parsers import expat

    names: list[str] = []
    for info in archive.infolist():
        if info.is_dir():
            continue
        counter = _PartCounter(info.filename, shown, names, unsaved)
        parser = expat.ParserCreate()
        parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
        parser.StartDoctypeDeclHandler = counter.doctype
        parser.StartElementHandler = counter.start
        parser.EndElementHandler = counter.end
        parser.CharacterDataHandler = counter.text
        parser.buffer_text = False
        try:
            with archive.open(info) as part:
                while chunk := part.read(1 << 16):
                    parser.Parse(chunk, False)
                parser.Parse(b"", True)
        except expat.ExpatError:
            continue  # not XML: openpyxl reads no such part of a read-only workbook, or says it cannot
        except DeckError:
            raise
        except Exception as exc:  # zlib.error, BadZipFile (a bad CRC), OSError, …: a damaged file
            raise DeckError(f"{printable(info.filename[:200])} cannot be unpacked ({_reason(exc)}): the file is damaged",
                            shown) from None
    return names


class _PartCounter:
    """Counts one part's elements as expat reads them, by their names without prefix: `si` (a
    shared string), `row`, `c` (a cell); and keeps the name of each `sheet`, and the cells whose
    formula (`f`) has no saved value (`v`)."""

    def __init__(self, part: str, shown: str, names: list[str], unsaved: set[str]) -> None:
        self.part, self.shown, self.names, self.unsaved = printable(part[:200]), shown, names, unsaved
        self.elements = self.strings = self.cells = self.row_cells = self.rows = 0
        self.row = 0  # the current row's number
        self.cell = ""  # the current cell's reference, `B5`
        self.formula = self.valued = self.in_value = False  # the current cell has a formula, a value; in its `v`

    def end(self, tag: str) -> None:
        name = tag[tag.find(":") + 1:]
        if name == "v":
            self.in_value = False
        elif name == "c" and self.formula and not self.valued:
            self.unsaved.add(self.cell)
            self.formula = False

    def text(self, data: str) -> None:
        if self.in_value and data.strip():
            self.valued = True

    def doctype(self, *_: Any) -> None:
        raise DeckError(f"{self.part} declares a DOCTYPE, which no .xlsx file has; refused", self.shown)

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        self.elements += 1
        if self.elements > MAX_ELEMENTS:
            raise MAX_ELEMENTS.error(self.shown, part=self.part)
        name = tag[tag.find(":") + 1:]
        if name == "c":
            self.cells += 1
            self.row_cells += 1
            written = attrs.get("r", "")
            self.cell = written if written.isascii() and written.isalnum() else f"{_letter(self.row_cells - 1)}{self.row}"
            # a formula giving text may save an empty one (`t="str"`): only a number's `v` is never empty
            self.formula, self.valued = False, attrs.get("t") == "str"
            if self.row > MAX_ROWS:  # openpyxl would stop short of it, and say nothing
                raise MAX_ROWS.error(self.shown, self.row)
            if self.row_cells > MAX_ROW_CELLS:
                raise MAX_ROW_CELLS.error(self.shown, row=f"{self.row:,}", part=self.part)
            if self.cells > MAX_CELLS:
                raise MAX_CELLS.error(self.shown, self.row, where=f" in {self.part}")
        elif name == "row":
            self.rows += 1
            self.row_cells = 0
            written = attrs.get("r", "")
            self.row = int(written) if written.isascii() and written.isdigit() else self.row + 1
        elif name == "f":
            self.formula = True
        elif name == "v":
            self.in_value = True
        elif name == "sheet" and "name" in attrs:
            self.names.append(attrs["name"])
        elif name == "si":
            self.strings += 1
            if self.strings > MAX_SHARED_STRINGS:
                raise MAX_SHARED_STRINGS.error(self.shown, part=self.part)


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


class _SheetRead(Exception):
    """The wanted sheet has been read to its end: the rest of the file is not needed."""


def _ods_rows(path: Path, shown: str, sheet: str | None) -> tuple[str, list[Row]]:
    """The rows of one sheet of an OpenDocument spreadsheet, read from its content.xml as a stream."""
    import xml.etree.ElementTree as ET

    reader = _OdsReader(sheet, shown)
    parser = ET.XMLParser(target=reader)
    with _open_zip(path, shown) as archive:
        try:
            with archive.open("content.xml") as content:
                while chunk := content.read(1 << 16):
                    parser.feed(chunk)
            parser.close()
        except _SheetRead:
            pass  # the rest of the file is not needed
        except DeckError:
            raise
        except KeyError:
            raise DeckError("not a readable .ods spreadsheet: it has no content.xml", shown) from None
        except ET.ParseError as exc:
            raise DeckError(f"not a readable .ods spreadsheet: content.xml line {exc.position[0]}: "
                            f"{_reason(exc).split(':')[0]}", shown) from None
        except Exception as exc:  # zlib.error, BadZipFile (a bad checksum), OSError, …: a damaged part
            raise DeckError(f"content.xml cannot be unpacked ({_reason(exc)}): the file is damaged", shown) from None
    _pick_sheet(reader.names, sheet, shown)
    return reader.shown, _collect(reader.rows, reader.shown)


class _OdsReader:
    """A parser target (ElementTree's start/end/data interface) that keeps the wanted sheet's rows.

    Rows and cells may be repeated (`table:number-rows-repeated`, `…-columns-repeated`): a sheet
    can end in an empty row repeated a million times, so blank repeats only move the row number.
    Everything is counted as it is read (elements, cells, a cell's characters), and reading stops
    at the first limit passed, or at the end of the wanted sheet."""

    def __init__(self, sheet: str | None, shown: str) -> None:
        self.wanted, self.shown = sheet, shown  # `shown` gets the sheet's name once it is found
        self.names: list[str] = []  # every sheet, for the message when `wanted` is not among them
        self.rows: list[Row] = []
        self.elements = self.cell_count = 0
        self.line = 0  # the row number of the current row
        self.reading = False  # inside the wanted sheet
        self.cells: list[str] | None = None  # the current row's cells up to its last value
        self.blanks = 0  # empty cells seen after the last value
        self.row_repeat = self.cell_repeat = 1
        self.cell: list[str] | None = None  # the current cell's paragraphs
        self.value: str | None = None  # … or its value, when it is a number, date, time or truth
        self.formula: str | None = None  # … and its formula, if it has one
        self.parts: list[tuple[bool, str]] = []  # the current paragraph: (literal, text) pieces
        self.chars = self.sheet_chars = 0  # characters of the current cell and of the sheet so far
        self.paragraph = self.skipping = 0  # depth inside a paragraph, inside a skipped element

    def doctype(self, name: str, pubid: str | None, system: str | None) -> None:
        raise DeckError("the spreadsheet's content declares a DOCTYPE, which no .ods file has; refused", self.shown)

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        self.elements += 1
        if self.elements > MAX_ELEMENTS:
            raise MAX_ELEMENTS.error(self.shown, self.line + 1 if self.reading else None, part="content.xml")
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
            self.cell_count += 1
            if self.cell_count > MAX_CELLS:
                raise MAX_CELLS.error(self.shown, self.line + 1, where=" in the sheet")
            self.cell, self.value, self.chars = [], _typed_value(attrs), 0
            self.formula = attrs.get(f"{_TABLE}formula")
            self.cell_repeat = _count(attrs.get(f"{_TABLE}number-columns-repeated"))
        elif self.cell is None:
            return
        elif tag in _PARAGRAPHS:
            self.paragraph += 1
            if self.paragraph == 1:
                self.parts = []
        elif self.paragraph and tag == f"{_TEXT}s":
            spaces = _count(attrs.get(f"{_TEXT}c"))
            self._grow(spaces)
            self.parts.append((True, " " * spaces))
        elif self.paragraph and tag in _LITERALS:
            self._grow(1)
            self.parts.append((True, _LITERALS[tag]))

    def _grow(self, chars: int) -> None:
        """Count a cell's characters as they come: a cell of a million `text:s` is refused at once."""
        self.chars += chars
        self.sheet_chars += chars
        if self.sheet_chars > MAX_SHEET_TEXT:
            raise MAX_SHEET_TEXT.error(self.shown, self.line + 1)
        if self.chars > MAX_CELL_TEXT:
            assert self.cells is not None
            column = len(self.cells) + self.blanks  # where this cell is: a cell past the last column is in its row
            where = f"{_letter(column)}{self.line + 1}" if column < MAX_COLUMNS else f"in row {self.line + 1}"
            raise MAX_CELL_TEXT.error(self.shown, self.line + 1, cell=where)

    def data(self, text: str) -> None:
        if self.paragraph and not self.skipping:
            self._grow(len(text))
            self.parts.append((False, text))

    def end(self, tag: str) -> None:
        if self.skipping:
            self.skipping -= 1
        elif tag == f"{_TABLE}table":
            if self.reading:
                raise _SheetRead  # the sheets after it are not read
        elif not self.reading:
            return
        elif tag in _PARAGRAPHS and self.paragraph:
            self.paragraph -= 1
            if not self.paragraph and self.cell is not None:
                self.cell.append(_paragraph_text(self.parts))
                self._grow(1)  # the line break between paragraphs
        elif tag in _CELLS and self.cell is not None and self.cells is not None:
            self._end_cell("\n".join(self.cell) if self.value is None else self.value)
            self.cell = None
        elif tag == f"{_TABLE}table-row" and self.cells is not None:
            self._end_row()
            self.cells = None

    def _end_cell(self, text: str) -> None:
        if not text.strip() and self.formula and self.value is None:
            text = Unsaved(self.formula)  # a formula never calculated: a problem of its row, not an empty cell
        if not text.strip():
            self.blanks += self.cell_repeat  # only counted: a row may end in 16 000 empty cells
            return
        assert self.cells is not None
        if len(self.cells) + self.blanks + self.cell_repeat > MAX_COLUMNS:
            raise DeckError(f"a value beyond column {_letter(MAX_COLUMNS - 1)}: a card list has at most "
                            f"{MAX_COLUMNS:,} columns", self.shown, self.line + 1)
        self.cells += [""] * self.blanks + [text] * self.cell_repeat
        self.blanks = 0

    def _end_row(self) -> None:
        assert self.cells is not None
        if not self.cells:
            self.line += self.row_repeat  # blank rows, however many, only move the row number
            return
        if self.line + 1 > MAX_ROWS:
            raise MAX_ROWS.error(self.shown, self.line + 1)
        if self.row_repeat > MAX_CARDS:
            raise DeckError(f"a row repeated {self.row_repeat:,} times: too many for a card list",
                            self.shown, self.line + 1)
        for _ in range(self.row_repeat):
            self.rows.append((self.line + 1, self.cells))
            self.line += 1
            if len(self.rows) > MAX_CARDS + 1:
                raise MAX_CARDS.error(self.shown, self.line)

    def close(self) -> None:
        return None


def _count(written: str | None) -> int:
    """A repeat count or a number of spaces: 1 when absent or nonsense; a count of ten digits or
    more as one past a sheet's rows (a count past every limit is as good as any other)."""
    if written is None or not (written.isascii() and written.isdigit()):
        return 1
    return max(int(written), 1) if len(written) < 10 else MAX_ROWS + 1


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

def _open_zip(path: Path, shown: str) -> Any:
    """The zip of an .xlsx or .ods file, refused when a part, or all of them, would unpack to far
    more than a card list needs (a zip bomb). zipfile never gives more of a part than the size its
    header says, so the sizes checked are the most anything can read."""
    import zipfile

    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        raise DeckError(f"not a {path.suffix.lower()} file: {_reason(exc)}", shown) from None
    try:
        if len(archive.infolist()) > MAX_PARTS:
            raise MAX_PARTS.error(shown, parts=len(archive.infolist()))
        unpacked = 0
        for info in archive.infolist():
            if info.file_size > MAX_PART_BYTES:
                raise MAX_PART_BYTES.error(shown, part=printable(info.filename[:200]), size=_megabytes(info.file_size))
            unpacked += info.file_size
        if unpacked > MAX_UNPACKED_BYTES:
            raise MAX_UNPACKED_BYTES.error(shown, size=_megabytes(unpacked))
    except BaseException:
        archive.close()
        raise
    return archive


def _megabytes(size: int) -> str:
    return f"{size / 2**20:.1f} MB"


def _pick_sheet(names: Sequence[str], wanted: str | None, shown: str) -> str:
    if not names:
        raise DeckError("the workbook has no sheets", shown)
    if wanted is None:
        return names[0]
    if wanted not in names:
        listed = ", ".join(quoted(name, 40) for name in names[:MAX_SHEETS_SHOWN])
        more = f" and {len(names) - MAX_SHEETS_SHOWN:,} more" if len(names) > MAX_SHEETS_SHOWN else ""
        raise DeckError(f"no sheet {_echo(wanted)}; the sheets are {listed}{more}", shown, None,
                        suggest(wanted, names))
    return wanted


def _reason(exc: BaseException) -> str:
    """An exception's own words, on one line and not too long."""
    text = str(exc).splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text if len(text) <= 200 else text[:199] + "…"
