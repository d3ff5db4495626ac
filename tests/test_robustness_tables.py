"""Card spreadsheets from strangers (issue 32): every hostile table, written here byte by byte
(the XML of .xlsx and .ods files and their zips by hand), ends as a clean load or as one line
`error: <file>:<row>: …` with exit status 2, within 10 s of CPU and 1 GB of memory, in `check`
and `build`. Each case runs the command in a fresh interpreter, which measures its own CPU time
and peak memory (VmHWM, as tests/test_robustness_pictures.py does)."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from deckpress.errors import DeckError
from deckpress.model import cardtable
from deckpress.model.cardtable import read_card_table
from tests.test_model_cardtable import DECK, LAYOUT

CPU_SECONDS = 10
PEAK_BYTES = 1 << 30

Parts = dict[str, "bytes | Callable[[], Iterable[bytes]]"]


def write_zip(path: Path, parts: Parts) -> Path:
    """A zip of `parts`, each its bytes or a function giving them in pieces (written as a stream,
    so a part of 70 MB never sits in memory here)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            if isinstance(data, bytes):
                archive.writestr(name, data)
                continue
            with archive.open(name, "w", force_zip64=True) as member:
                for piece in data():
                    member.write(piece)
    return path


def corrupt(path: Path, part: str) -> Path:
    """`path` with the start of `part`'s deflate stream overwritten: its header and sizes stay."""
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo(part)
    data = bytearray(path.read_bytes())
    name_length, extra_length = (int.from_bytes(data[info.header_offset + at:info.header_offset + at + 2], "little")
                                 for at in (26, 28))
    start = info.header_offset + 30 + name_length + extra_length
    data[start:start + 16] = b"\xff" * 16  # a block of the type that does not exist
    path.write_bytes(bytes(data))
    return path


# -- xlsx, by hand ---------------------------------------------------------------------------------

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
OFFICE_RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
SHEET_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"


def xlsx_parts(sheets: dict[str, bytes | Callable[[], Iterable[bytes]]],
               strings: bytes | Callable[[], Iterable[bytes]] | None = None) -> Parts:
    """The parts of a workbook of `sheets` (name: its worksheet XML), and a shared-strings part."""
    overrides = "".join(f'<Override PartName="/xl/worksheets/sheet{n}.xml" ContentType="{SHEET_TYPE}"/>'
                        for n in range(1, len(sheets) + 1))
    if strings is not None:
        overrides += ('<Override PartName="/xl/sharedStrings.xml" ContentType="application/'
                      'vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>')
    parts: Parts = {
        "[Content_Types].xml": (
            '<?xml version="1.0" encoding="UTF-8"?>'
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            f'<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" ContentType="application/'
            f'vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>{overrides}</Types>').encode(),
        "_rels/.rels": (f'<Relationships xmlns="{RELS}"><Relationship Id="rId1" Type="{OFFICE_RELS}/officeDocument" '
                        'Target="xl/workbook.xml"/></Relationships>').encode(),
        "xl/workbook.xml": (f'<workbook xmlns="{MAIN}" xmlns:r="{OFFICE_RELS}"><sheets>'
                            + "".join(f'<sheet name="{name}" sheetId="{n}" r:id="rId{n}"/>'
                                      for n, name in enumerate(sheets, start=1))
                            + "</sheets></workbook>").encode(),
        "xl/_rels/workbook.xml.rels": (
            f'<Relationships xmlns="{RELS}">'
            + "".join(f'<Relationship Id="rId{n}" Type="{OFFICE_RELS}/worksheet" Target="worksheets/sheet{n}.xml"/>'
                      for n in range(1, len(sheets) + 1))
            + (f'<Relationship Id="rIdS" Type="{OFFICE_RELS}/sharedStrings" Target="sharedStrings.xml"/>'
               if strings is not None else "")
            + "</Relationships>").encode(),
    }
    for n, sheet in enumerate(sheets.values(), start=1):
        parts[f"xl/worksheets/sheet{n}.xml"] = sheet
    if strings is not None:
        parts["xl/sharedStrings.xml"] = strings
    return parts


def inline(ref: str, text: str) -> str:
    return f'<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>'


def worksheet(rows: str) -> bytes:
    return f'<worksheet xmlns="{MAIN}"><sheetData>{rows}</sheetData></worksheet>'.encode()


GOOD_ROWS = f'<row r="1">{inline("A1", "name")}</row><row r="2">{inline("A2", "Apple")}</row>'


def repeated(head: str, piece: str, times: int, tail: str, batch: int = 100_000) -> Callable[[], Iterable[bytes]]:
    """`head`, `piece` `times` times, `tail`: as pieces to stream into a zip."""
    def pieces() -> Iterable[bytes]:
        yield head.encode()
        chunk = (piece * batch).encode()
        for _ in range(times // batch):
            yield chunk
        yield (piece * (times % batch)).encode()
        yield tail.encode()
    return pieces


# -- ods, by hand ----------------------------------------------------------------------------------

ODS_HEAD = ('<?xml version="1.0" encoding="UTF-8"?><office:document-content '
            'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
            'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
            'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:spreadsheet>')
ODS_TAIL = "</office:spreadsheet></office:body></office:document-content>"


def ods_text(text: str) -> str:
    return f'<table:table-cell office:value-type="string"><text:p>{text}</text:p></table:table-cell>'


def ods_row(*cells: str, repeat: int = 1) -> str:
    times = f' table:number-rows-repeated="{repeat}"' if repeat > 1 else ""
    return f"<table:table-row{times}>{''.join(cells)}</table:table-row>"


def ods_parts(content: bytes | Callable[[], Iterable[bytes]]) -> Parts:
    return {"mimetype": b"application/vnd.oasis.opendocument.spreadsheet", "content.xml": content}


def ods_sheet(rows: str, name: str = "Fruit") -> str:
    return f'<table:table table:name="{name}">{rows}</table:table>'


GOOD_ODS_ROWS = ods_row(ods_text("name")) + ods_row(ods_text("Apple"))


# -- running a command in a fresh interpreter --------------------------------------------------------

PROBE = """
import json, re, resource, sys
resource.setrlimit(resource.RLIMIT_CPU, (60, 60))  # a hang ends the test, not the run
from deckpress import cli
try:
    cli.main({args!r}, prog_name="deckpress")
    code = 0
except SystemExit as exc:
    code = exc.code
usage = resource.getrusage(resource.RUSAGE_SELF)
children = resource.getrusage(resource.RUSAGE_CHILDREN)
own = int(re.search(r"VmHWM:\\s*(\\d+) kB", open("/proc/self/status").read()).group(1))
sys.stdout.flush()
print(json.dumps({{"code": code, "cpu": usage.ru_utime + usage.ru_stime + children.ru_utime + children.ru_stime,
                  "peak": max(own, children.ru_maxrss) * 1024}}))
"""


def command(*args: str) -> tuple[dict, str]:
    """(exit code, CPU seconds, peak bytes) of `deckpress <args>` in a fresh interpreter, and its stderr."""
    done = subprocess.run([sys.executable, "-c", PROBE.format(args=list(args))], capture_output=True, text=True,
                          timeout=120)
    assert done.stdout.strip(), done.stderr
    return json.loads(done.stdout.splitlines()[-1]), done.stderr


@pytest.fixture
def deck_with(make_deck, tmp_path):
    """deck_with(name, write) -> the orchard deck (tests/test_model_cardtable.py) taking its cards
    from `name` (sheet Fruit of a workbook), which `write(path)` makes."""
    def make(name: str, write: Callable[[Path], object]) -> Path:
        cards = f"{{file: {name}, sheet: Fruit}}" if name.endswith((".xlsx", ".ods")) else name
        folder = make_deck(DECK.format(cards=cards), {"orchard": LAYOUT})
        write(folder / name)
        return folder
    return make


def bounded(tmp_path: Path, folder: Path, name: str, says: str | None, commands=("check", "build")) -> None:
    """Each command on the deck ends within the bounds: cleanly when `says` is None, else with one
    line `error: <the table>…: <says…>` and exit status 2."""
    for which in commands:
        args = [which, str(folder)] + (["--out", str(tmp_path / "out"), "--paper", "a4", "--ink", "color",
                                        "--format", "pdf"] if which == "build" else [])
        measured, stderr = command(*args)
        print("\nMEASURED", which, f"{measured['cpu']:.2f} s", f"{measured['peak'] / 2**20:.0f} MiB", stderr.strip())  # with -s
        assert measured["cpu"] < CPU_SECONDS, (which, measured)
        assert measured["peak"] < PEAK_BYTES, (which, f"{measured['peak'] / 2**20:.0f} MiB")
        assert "Traceback" not in stderr, stderr
        if says is None:
            assert measured["code"] == 0, (which, stderr)
            continue
        assert measured["code"] == 2, (which, stderr)
        [line] = stderr.splitlines()
        assert line.startswith(f"error: {folder / name}"), line
        assert says in line, line


# -- hangs ------------------------------------------------------------------------------------------

def test_an_xlsx_with_15_million_shared_strings_is_refused_by_its_size(deck_with, tmp_path):
    strings = repeated(f'<sst xmlns="{MAIN}">', "<si/>", 15_000_000, "</sst>")
    folder = deck_with("cards.xlsx", lambda p: write_zip(p, xlsx_parts({"Fruit": worksheet(GOOD_ROWS)}, strings)))
    bounded(tmp_path, folder, "cards.xlsx",
            ": xl/sharedStrings.xml unpacks to 71.5 MB: too big for a card list (a part has at most 64.0 MB)")


def test_an_xlsx_with_more_shared_strings_than_the_limit_is_refused_while_they_are_counted(deck_with, tmp_path):
    strings = repeated(f'<sst xmlns="{MAIN}">', "<si><t>a</t></si>", cardtable.MAX_SHARED_STRINGS + 1, "</sst>")
    folder = deck_with("cards.xlsx", lambda p: write_zip(p, xlsx_parts({"Fruit": worksheet(GOOD_ROWS)}, strings)))
    bounded(tmp_path, folder, "cards.xlsx",
            ": xl/sharedStrings.xml holds more than 300,000 shared strings: a card list needs far fewer",
            commands=("check",))


def test_an_xlsx_row_of_10_million_cells_is_refused_at_the_widest_row_excel_has(deck_with, tmp_path):
    sheet = repeated(f'<worksheet xmlns="{MAIN}"><sheetData><row r="1">', "<c/>", 10_000_000,
                     "</row></sheetData></worksheet>")
    folder = deck_with("cards.xlsx", lambda p: write_zip(p, xlsx_parts({"Fruit": sheet})))
    bounded(tmp_path, folder, "cards.xlsx",
            ": row 1 of xl/worksheets/sheet1.xml has more than 16,384 cells: Excel's rows have 16,384")


def test_an_xlsx_of_too_many_cells_is_refused_at_the_row_that_passes_the_limit(tmp_path):
    row = "".join(f"<c><v>{n}</v></c>" for n in range(100))
    sheet = repeated(f'<worksheet xmlns="{MAIN}"><sheetData>', f"<row>{row}</row>", 3001,
                     "</sheetData></worksheet>", batch=1000)
    path = write_zip(tmp_path / "cards.xlsx", xlsx_parts({"Fruit": sheet}))
    with pytest.raises(DeckError) as caught:
        read_card_table(path, "Fruit")
    assert str(caught.value) == f"{path}:3001: more than 300,000 cells in xl/worksheets/sheet1.xml: a card list " \
                                "needs far fewer"


def test_an_ods_ending_in_12_million_empty_rows_loads(deck_with, tmp_path):
    """Spreadsheet apps end a sheet in an empty row repeated to the sheet's last: repeats of blank
    rows only move the row number, past the last row too."""
    rows = GOOD_ODS_ROWS + ods_row("<table:table-cell/>", repeat=12_000_000)
    folder = deck_with("cards.ods", lambda p: write_zip(p, ods_parts((ODS_HEAD + ods_sheet(rows) + ODS_TAIL).encode())))
    bounded(tmp_path, folder, "cards.ods", None)


def test_an_ods_of_millions_of_empty_row_elements_stops_at_the_element_limit(deck_with, tmp_path):
    content = repeated(ODS_HEAD + '<table:table table:name="Fruit">' + GOOD_ODS_ROWS, "<table:table-row/>",
                       3_000_000, "</table:table>" + ODS_TAIL)
    folder = deck_with("cards.ods", lambda p: write_zip(p, ods_parts(content)))
    bounded(tmp_path, folder, "cards.ods",
            ": content.xml holds more than 2,000,000 XML elements: far more than a card list needs")


def test_an_ods_of_12_million_empty_rows_is_refused_by_its_size(deck_with, tmp_path):
    content = repeated(ODS_HEAD + '<table:table table:name="Fruit">' + GOOD_ODS_ROWS, "<table:table-row/>",
                       12_000_000, "</table:table>" + ODS_TAIL)
    folder = deck_with("cards.ods", lambda p: write_zip(p, ods_parts(content)))
    bounded(tmp_path, folder, "cards.ods", ": content.xml unpacks to 206.0 MB: too big for a card list (a part has at most",
            commands=("check",))


@pytest.mark.parametrize("spaces", [10_000_000, 10**30])
def test_an_ods_text_s_of_10_million_spaces_is_a_cell_too_long(deck_with, tmp_path, spaces):
    cell = f'<table:table-cell><text:p>a<text:s text:c="{spaces}"/>b</text:p></table:table-cell>'
    rows = ods_row(ods_text("name"), ods_text("text")) + ods_row(ods_text("Apple"), cell)
    folder = deck_with("cards.ods", lambda p: write_zip(p, ods_parts((ODS_HEAD + ods_sheet(rows) + ODS_TAIL).encode())))
    bounded(tmp_path, folder, "cards.ods",
            "[Fruit]:2: the cell B2 holds more than 100,000 characters: a value has at most 100,000, as in a YAML file")


@pytest.mark.parametrize("count, says", [
    (10_000_000, ": content.xml unpacks to 85.8 MB: too big for a card list (a part has at most 64.0 MB)"),
    (1_000_000, "[Fruit]:2: the cell A2 holds more than 100,000 characters"),
])
def test_an_ods_of_10_million_text_s_is_refused_while_it_is_read(deck_with, tmp_path, count, says):
    content = repeated(ODS_HEAD + '<table:table table:name="Fruit">' + ods_row(ods_text("name"))
                       + "<table:table-row><table:table-cell><text:p>", "<text:s/>", count,
                       "</text:p></table:table-cell></table:table-row></table:table>" + ODS_TAIL)
    folder = deck_with("cards.ods", lambda p: write_zip(p, ods_parts(content)))
    bounded(tmp_path, folder, "cards.ods", says, commands=("check",) if count > 1_000_000 else ("check", "build"))


# -- memory -----------------------------------------------------------------------------------------

def test_an_ods_text_s_bomb_of_a_million_is_refused_in_little_memory(deck_with, tmp_path):
    """A million `text:s` of 1,000 spaces, 99 a cell (each cell within the limit of one value),
    took 2 GB: the characters of the whole sheet are counted as they are read."""
    cell = "<table:table-cell><text:p>" + '<text:s text:c="1000"/>' * 99 + "</text:p></table:table-cell>"
    content = repeated(ODS_HEAD + '<table:table table:name="Fruit">' + ods_row(ods_text("name")),
                       ods_row(cell), 10_102, "</table:table>" + ODS_TAIL, batch=1000)
    folder = deck_with("cards.ods", lambda p: write_zip(p, ods_parts(content)))
    bounded(tmp_path, folder, "cards.ods",
            "[Fruit]:163: the sheet holds more than 16,000,000 characters of text: a card list needs far fewer")


def test_a_zip_that_unpacks_to_too_much_is_refused_before_it_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(cardtable, "MAX_UNPACKED_BYTES", cardtable.MAX_UNPACKED_BYTES.at(10_000))
    big = b"<x/>" * 2000
    path = write_zip(tmp_path / "cards.ods", {**ods_parts(big), "styles.xml": big, "meta.xml": big})
    with pytest.raises(DeckError) as caught:
        read_card_table(path)
    assert str(caught.value) == f"{path}: unpacks to 0.0 MB: too big for a card list (at most 0.0 MB)"


# -- tracebacks -------------------------------------------------------------------------------------

def test_a_corrupt_deflate_stream_inside_an_ods_is_one_line(deck_with, tmp_path):
    content = (ODS_HEAD + ods_sheet(GOOD_ODS_ROWS + "".join(ods_row(ods_text(f"fruit {n}")) for n in range(2000)))
               + ODS_TAIL).encode()
    folder = deck_with("cards.ods", lambda p: corrupt(write_zip(p, ods_parts(content)), "content.xml"))
    bounded(tmp_path, folder, "cards.ods", ": content.xml cannot be unpacked (")


def test_a_corrupt_deflate_stream_inside_an_xlsx_is_one_line(deck_with, tmp_path):
    rows = GOOD_ROWS + "".join(f'<row r="{n}">{inline(f"A{n}", f"fruit {n}")}</row>' for n in range(3, 2000))
    folder = deck_with("cards.xlsx", lambda p: corrupt(write_zip(p, xlsx_parts({"Fruit": worksheet(rows)})),
                                                       "xl/worksheets/sheet1.xml"))
    bounded(tmp_path, folder, "cards.xlsx", ": xl/worksheets/sheet1.xml cannot be unpacked (")


# -- errors with a line, cut short ------------------------------------------------------------------

def test_an_empty_csv_is_refused_at_its_first_line(deck_with, tmp_path):
    folder = deck_with("orchard.csv", lambda p: p.write_bytes(b""))
    bounded(tmp_path, folder, "orchard.csv", ":1: the table is empty; its first row names the fields",
            commands=("check",))


@pytest.mark.parametrize("kind", ["ods", "xlsx"])
def test_a_missing_sheet_among_100_000_names_a_few_and_a_close_one(deck_with, tmp_path, kind):
    names = [f"Sheet {n}" for n in range(100_000)] + ["Fruits"]
    if kind == "ods":
        content = (ODS_HEAD + "".join(ods_sheet("", name) for name in names) + ODS_TAIL).encode()
        write = lambda p: write_zip(p, ods_parts(content))  # noqa: E731
    else:  # every sheet the one part (100,000 parts would pass the limit of parts first)
        parts = xlsx_parts({"Fruits": worksheet("")})
        parts["xl/workbook.xml"] = (f'<workbook xmlns="{MAIN}" xmlns:r="{OFFICE_RELS}"><sheets>'
                                    + "".join(f'<sheet name="{name}" sheetId="{n}" r:id="rId{n}"/>'
                                              for n, name in enumerate(names, start=1))
                                    + "</sheets></workbook>").encode()
        parts["xl/_rels/workbook.xml.rels"] = (
            f'<Relationships xmlns="{RELS}">'
            + "".join(f'<Relationship Id="rId{n}" Type="{OFFICE_RELS}/worksheet" Target="worksheets/sheet1.xml"/>'
                      for n in range(1, len(names) + 1))
            + "</Relationships>").encode()
        write = lambda p: write_zip(p, parts)  # noqa: E731
    folder = deck_with(f"cards.{kind}", write)
    measured, stderr = command("check", str(folder))
    assert measured["code"] == 2 and measured["cpu"] < CPU_SECONDS, measured
    [line] = stderr.splitlines()
    assert line == (f"error: {folder / f'cards.{kind}'}: no sheet 'Fruit'; the sheets are Sheet 0, Sheet 1, "
                    "Sheet 2, Sheet 3, Sheet 4 and 99,996 more — did you mean 'Fruits'?")


def test_a_value_with_line_breaks_is_echoed_on_one_line_and_cut(tmp_path):
    name = "name\n" + "x" * 5000
    path = tmp_path / "cards.csv"
    path.write_text(f'"{name}",suit\nApple,red\n', encoding="utf-8")
    with pytest.raises(DeckError) as caught:
        read_card_table(path)
    assert str(caught.value) == (f"{path}:1 column A: the column's name, 'name\\n{'x' * 73}…', holds a line break: "
                                 "a field's name is one line")
    path.write_text('"a\tb",a\tb\n1,2\n', encoding="utf-8")
    with pytest.raises(DeckError) as caught:
        read_card_table(path)
    assert str(caught.value) == f"{path}:1 column B: column 'a\\tb' appears twice (columns A and B)"
    odd = tmp_path / "odd.ods"
    write_zip(odd, ods_parts((ODS_HEAD + ods_sheet(GOOD_ODS_ROWS, "A&#10;B") + ODS_TAIL).encode()))
    with pytest.raises(DeckError) as caught:
        read_card_table(odd, "x\n" * 100)
    escaped = "x\\n" * 26
    assert str(caught.value) == f"{odd}: no sheet '{escaped}x…'; the sheets are A\\nB"


def test_too_many_parts_or_sheets_and_an_xlsx_doctype_are_refused_before_openpyxl(tmp_path, monkeypatch):
    path = write_zip(tmp_path / "cards.xlsx", xlsx_parts({"Fruit": worksheet(GOOD_ROWS), "Veg": worksheet(GOOD_ROWS)}))
    assert [dict(card) for card in read_card_table(path, "Veg")] == [{"name": "Apple"}]
    monkeypatch.setattr(cardtable, "MAX_SHEETS", cardtable.MAX_SHEETS.at(1))
    with pytest.raises(DeckError) as caught:
        read_card_table(path, "Veg")
    assert str(caught.value) == f"{path}: the workbook has more than 1 sheets: a card list needs one"
    monkeypatch.setattr(cardtable, "MAX_PARTS", cardtable.MAX_PARTS.at(3))
    with pytest.raises(DeckError) as caught:
        read_card_table(path, "Veg")
    assert str(caught.value) == f"{path}: the zip holds 6 parts: a spreadsheet has a few dozen (at most 3)"
    monkeypatch.undo()
    laughs = ('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>'
              f'<sst xmlns="{MAIN}"><si><t>&b;</t></si></sst>').encode()
    evil = write_zip(tmp_path / "evil.xlsx", xlsx_parts({"Fruit": worksheet(GOOD_ROWS)}, laughs))
    with pytest.raises(DeckError) as caught:
        read_card_table(evil)
    assert str(caught.value) == f"{evil}: xl/sharedStrings.xml declares a DOCTYPE, which no .xlsx file has; refused"


def test_a_value_below_the_last_row_or_a_part_smaller_than_its_header_says_is_refused(tmp_path):
    far = GOOD_ROWS + '<row r="1048577"><c r="A1048577"><v>1</v></c></row>'
    path = write_zip(tmp_path / "far.xlsx", xlsx_parts({"Fruit": worksheet(far)}))
    with pytest.raises(DeckError) as caught:
        read_card_table(path)
    assert str(caught.value) == f"{path}:1048577: a value below row 1,048,576: a sheet has at most 1,048,576 rows, " \
                                "as in Excel and LibreOffice"
    strings = repeated(f'<sst xmlns="{MAIN}">', "<si><t>a</t></si>", 400_000, "</sst>")
    path = write_zip(tmp_path / "lies.xlsx", xlsx_parts({"Fruit": worksheet(GOOD_ROWS)}, strings))
    data = bytearray(path.read_bytes())
    entry = data.index(b"PK\x01\x02")
    while not data[entry + 46:].startswith(b"xl/sharedStrings.xml"):  # its entry in the central directory
        entry = data.index(b"PK\x01\x02", entry + 4)
    data[entry + 24:entry + 28] = (1000).to_bytes(4, "little")  # says it unpacks to 1,000 bytes
    path.write_bytes(bytes(data))
    with pytest.raises(DeckError) as caught:
        read_card_table(path)
    assert str(caught.value).startswith(f"{path}: xl/sharedStrings.xml cannot be unpacked (Bad CRC-32")
