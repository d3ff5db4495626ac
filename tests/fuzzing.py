"""A seeded mutation fuzzer over the bundled decks, as a stranger's deck could be: the promise it
checks is that whatever a deck's files hold, `check` (and a build) passes or stops with one
DeckError line naming a file, in bounded time and memory.

A case is a number: with the seed, it picks a kind of input (each in turn, `KINDS`), a deck and
what to do to it, so any failure is replayed from its number alone
(`python -m pytest tests/test_fuzz.py --fuzz-cases N --fuzz-seed S`):
- `yaml`: one of its YAML or CSV files (deck.yaml, its layouts, a card list, a translation) given
  one to three line mutations (`MUTATIONS`);
- `svg`: one of its SVG pictures given hostile attributes, nesting, floods of elements, pictures
  inside, references that loop, entities, controls (`SVG_MUTATIONS`), or line mutations;
- `table`: Test Piece's card list as a CSV, an .xlsx or an .ods, its bytes or XML made hostile
  (repeated rows and cells, space counts, shared strings, broken deflate, `TABLE_MUTATIONS`);
- `font`: a copy of a bundled font the deck's texts are set in, its tables damaged (`FONT_MUTATIONS`);
- `extends`: a deck that extends the bundled one, its chain broken (`EXTENDS_MUTATIONS`);
- `symlink`: one of its files or folders replaced by a symlink: a loop, a cycle, one leading
  outside the deck, one that leads nowhere.
"""

from __future__ import annotations

import io
import random
import re
import shutil
import struct
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path

from deckpress.bundled import DECKS_DIR, FONTS_DIR, LAYOUTS_DIR
from deckpress.model import bundled_deck_ids

#: values a hostile or careless file might hold, of every type and size
VALUES = (
    "", "~", "[]", "{}", "0", "-1", "1e309", "-40mm", "100000mm", "1e9", ".nan", "-.inf", "true",
    "9" * 5000, "ñ€𝄞 ☃", "'\u202e\u0000x'", "!!float x", "!!int 12x", "!!bool maybe", "!!timestamp nope",
    "!!map [a]", "!!seq {a: 1}", "!!python/object:os.system x", "2024-02-30", "[" * 200 + "]" * 200,
    "{a: " * 60 + "1" + "}" * 60, "../../../etc/passwd", "/etc/passwd", "art/../../outside.svg", "x" * 50_000,
    "\"{missing}\"", "\"{{\"", "\":sharp::nope:\"", "*undefined", "&a [*a]", "#c8283c", "\"#zzz\"",
    "[red, gold, blue, red, gold, blue]", "{count: 99999999}", "metronome", "../", ".",
)

def adds_to(table: dict[str, Callable]) -> Callable[[Callable], Callable]:
    """A decorator putting a mutation in `table` by its name (each kind of input has its table)."""
    def add(fn: Callable) -> Callable:
        table[fn.__name__] = fn
        return fn
    return add


MUTATIONS: dict[str, Callable[[list[str], random.Random], list[str]]] = {}
mutation = adds_to(MUTATIONS)


@mutation
def delete(lines: list[str], rng: random.Random) -> list[str]:
    del lines[rng.randrange(len(lines))]
    return lines


@mutation
def duplicate(lines: list[str], rng: random.Random) -> list[str]:
    i = rng.randrange(len(lines))
    lines.insert(i, lines[i])
    return lines


@mutation
def swap(lines: list[str], rng: random.Random) -> list[str]:
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return lines


@mutation
def reindent(lines: list[str], rng: random.Random) -> list[str]:
    i = rng.randrange(len(lines))
    lines[i] = ("  " + lines[i]) if rng.random() < 0.5 else lines[i][2:]
    return lines


@mutation
def replace_value(lines: list[str], rng: random.Random) -> list[str]:
    """The value after a key (`key: value`, in block or flow style) becomes another one."""
    candidates = [i for i, line in enumerate(lines) if ": " in line or "," in line]
    if not candidates:
        return lines
    i = rng.choice(candidates)
    line = lines[i]
    cut = line.find(": ") + 2 if ": " in line else line.find(",") + 1
    rest = line[cut:]
    end = min((rest.find(c) for c in ",}]" if c in rest), default=len(rest))
    lines[i] = line[:cut] + rng.choice(VALUES) + rest[end:]
    return lines


@mutation
def rename_key(lines: list[str], rng: random.Random) -> list[str]:
    candidates = [i for i, line in enumerate(lines) if ":" in line]
    if candidates:
        i = rng.choice(candidates)
        key_end = lines[i].index(":")
        at = rng.randrange(key_end + 1)
        lines[i] = lines[i][:at] + rng.choice("xq_-Z ") + lines[i][at:]
    return lines


@mutation
def random_bytes(lines: list[str], rng: random.Random) -> list[str]:
    i = rng.randrange(len(lines))
    # raw bytes, kept raw through the text (written back with surrogateescape): not always UTF-8
    noise = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 12))).decode("utf-8", "surrogateescape")
    lines[i] = lines[i][: len(lines[i]) // 2] + noise + lines[i][len(lines[i]) // 2:]
    return lines


@mutation
def truncate(lines: list[str], rng: random.Random) -> list[str]:
    text = "".join(lines)
    return [text[: rng.randrange(len(text) + 1)]]


@mutation
def alias_bomb(lines: list[str], rng: random.Random) -> list[str]:
    bomb = ["bomb0: &b0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"]
    bomb += [f"bomb{n}: &b{n} [{', '.join([f'*b{n - 1}'] * 10)}]\n" for n in range(1, 9)]
    return bomb + lines if rng.random() < 0.5 else lines + ["x: *b8\n"] + bomb


@mutation
def cycle(lines: list[str], rng: random.Random) -> list[str]:
    """A deck that extends itself, or a template that extends itself."""
    return [line.replace("extends: blank", "extends: note").replace("extends: rule-card", "extends: tie")
            for line in lines] + ["extends: .\n"] * (rng.random() < 0.3)


def files_of(folder: Path) -> list[Path]:
    """The files of a deck copy a case may change: its deck.yaml, layouts, card lists, translations."""
    return sorted(p for p in folder.rglob("*") if p.suffix in (".yaml", ".csv") and p.is_file())


def mutate_lines(target: Path, rng: random.Random) -> str:
    """One to three line mutations of a text file; what was done."""
    lines = target.read_text(encoding="utf-8", errors="surrogateescape").splitlines(keepends=True) or ["\n"]
    done = []
    for _ in range(rng.randint(1, 3)):
        name = rng.choice(sorted(MUTATIONS))
        lines = MUTATIONS[name](lines, rng) or ["\n"]
        done.append(name)
    target.write_bytes("".join(lines).encode("utf-8", "surrogateescape"))
    return ", ".join(done)


# --- SVG pictures --------------------------------------------------------------------------------

#: values an attribute of a stranger's SVG might hold
SVG_VALUES = ("", "1e30", "-1e30", "1e308", "-1e308", "NaN", "inf", "-5", "0", "1e-300", "currentColor",
              "url(#missing)", "url(#self)", "inherit", "none", "10px junk", "5e", "#", "rgb(300,-1,x)",
              "matrix(0 0 0 0 0 0)", "scale(0)", "rotate(1e308)", "-1 -2 -3", "0 0 1e30 1e30", "\u202e12",
              "\x1b[31m", "M 10", "M 1e308 1e308 L -1e308 -1e308 Z", "M0 0 L 10", "calc(100%/0)", "9" * 400)


SVG_MUTATIONS: dict[str, Callable[[str, random.Random], str]] = {}
svg_mutation = adds_to(SVG_MUTATIONS)
_ATTRIBUTE = re.compile(r'(\s[\w:-]+=)"[^"]*"')
_ELEMENT = re.compile(r"<(rect|circle|path|ellipse|line|polygon|polyline|use|text|g)\b[^>]*/>")


def _inside(svg: str, markup: str, rng: random.Random) -> str:
    """`markup` put in just after the root element's start tag (or at the end, if there is none)."""
    m = re.search(r"<svg\b[^>]*>", svg)
    at = m.end() if m else len(svg)
    return svg[:at] + markup + svg[at:]


@svg_mutation
def svg_attribute(svg: str, rng: random.Random) -> str:
    """An attribute's value replaced by a hostile one."""
    found = list(_ATTRIBUTE.finditer(svg))
    if not found:
        return svg
    m = rng.choice(found)
    return svg[:m.start()] + f'{m.group(1)}"{rng.choice(SVG_VALUES)}"' + svg[m.end():]


@svg_mutation
def svg_hostile_shape(svg: str, rng: random.Random) -> str:
    """A shape with a hostile value in a geometric attribute, transform, dash array or stroke."""
    key = rng.choice(["width", "height", "x", "stroke-width", "stroke-dasharray", "transform", "r", "d",
                      "stroke-dashoffset", "opacity", "font-size", "viewBox"])
    return _inside(svg, f'<rect width="10" height="10" {key}="{rng.choice(SVG_VALUES)}"/>'
                        f'<path d="M0 0 L10 10" {key}="{rng.choice(SVG_VALUES)}"/>', rng)


@svg_mutation
def svg_nest(svg: str, rng: random.Random) -> str:
    """Groups nested hundreds or thousands deep."""
    depth = rng.choice([200, 1000, 5000])
    return _inside(svg, "<g>" * depth + '<rect width="1" height="1"/>' + "</g>" * depth, rng)


@svg_mutation
def svg_flood(svg: str, rng: random.Random) -> str:
    """One element repeated tens of thousands of times."""
    count = rng.choice([20_000, 100_000, 300_000])
    m = _ELEMENT.search(svg)
    element = m.group(0) if m else '<rect width="1" height="1"/>'
    return _inside(svg, element * count, rng)


def _png_header(width: int, height: int) -> bytes:
    """A PNG whose header promises width × height pixels and whose data holds a row of them."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    row = b"\0" + b"\x80" * (width * 3)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(row)) + chunk(b"IEND", b""))


@svg_mutation
def svg_image(svg: str, rng: random.Random) -> str:
    """A picture inside: a PNG promising a huge size, a file outside the deck or none, this very
    SVG again, with or without a size."""
    import base64
    href = rng.choice([
        "data:image/png;base64," + base64.b64encode(_png_header(rng.choice([1, 12_000, 60_000]), 12_000)).decode(),
        "data:image/png;base64,AAAA", "data:image/svg+xml;base64," + base64.b64encode(svg.encode()[:2000]).decode(),
        "../../../etc/passwd", "/etc/hostname", "missing.png", "file:///etc/passwd", "http://127.0.0.1:9/x.png",
    ])
    size = rng.choice(["", ' width="10" height="10"', ' width="1e30" height="1e30"', ' width="-1"'])
    return _inside(svg, f'<image href="{href}"{size}/>', rng)


@svg_mutation
def svg_references(svg: str, rng: random.Random) -> str:
    """References that loop: a `use` of itself, two patterns filling with each other, a filter of
    a filter, a gradient that inherits from itself."""
    return _inside(svg, rng.choice([
        '<use id="self" href="#self"/>',
        '<defs><pattern id="p1" width="5" height="5"><rect width="5" height="5" fill="url(#p2)"/></pattern>'
        '<pattern id="p2" width="5" height="5"><rect width="5" height="5" fill="url(#p1)"/></pattern></defs>'
        '<rect width="10" height="10" fill="url(#p1)"/>',
        '<defs><linearGradient id="g1" href="#g2"/><linearGradient id="g2" href="#g1"/></defs>'
        '<rect width="10" height="10" fill="url(#g1)"/>',
        '<defs><g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g></defs><use href="#a"/>',
        '<defs><linearGradient id="c"><stop offset="0" stop-color="currentColor"/></linearGradient></defs>'
        '<rect width="10" height="10" fill="url(#c)" color="1e30"/>',
    ]), rng)


@svg_mutation
def svg_entities(svg: str, rng: random.Random) -> str:
    """A document type declaring entities: a billion laughs, an external file."""
    doctype = rng.choice([
        '<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
        '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">'
        '<!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">]>',
        '<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
    ])
    body = re.sub(r"<\?xml[^>]*\?>", "", svg, count=1)
    return doctype + _inside(body, "<text>&f;&x;</text>" if "&f;" not in body else "", rng)


@svg_mutation
def svg_bytes(svg: str, rng: random.Random) -> str:
    """Empty, cut off, not SVG, or another encoding's bytes."""
    return rng.choice(["", svg[: rng.randrange(len(svg) + 1)], "not an svg", "<html><body>x</body></html>",
                       "\ufeff" + svg, svg.replace("<svg", "<svg:svg", 1), "<svg/>" * 3])


# --- card tables ---------------------------------------------------------------------------------

def _xlsx(rows: list[list[str]]) -> dict[str, str]:
    """The members of a minimal .xlsx holding `rows` (shared strings)."""
    strings: list[str] = []
    cells = []
    for r, row in enumerate(rows, 1):
        out = []
        for c, value in enumerate(row):
            strings.append(value)
            out.append(f'<c r="{chr(65 + c)}{r}" t="s"><v>{len(strings) - 1}</v></c>')
        cells.append(f'<row r="{r}">{"".join(out)}</row>')
    esc = lambda v: v.replace("&", "&amp;").replace("<", "&lt;")  # noqa: E731
    return {
        "[Content_Types].xml": '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
        '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
        '</Types>',
        "_rels/.rels": '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>'
        '</Relationships>',
        "xl/workbook.xml": '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>'
        '<sheet name="Cards" sheetId="1" r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
        '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>'
        '</Relationships>',
        "xl/worksheets/sheet1.xml": '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        f'<sheetData>{"".join(cells)}</sheetData></worksheet>',
        "xl/sharedStrings.xml": '<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
        f'count="{len(strings)}" uniqueCount="{len(strings)}">' + "".join(f"<si><t>{esc(v)}</t></si>" for v in strings) + "</sst>",
    }


def _ods(rows: list[list[str]]) -> dict[str, str]:
    """The members of a minimal .ods holding `rows`."""
    esc = lambda v: v.replace("&", "&amp;").replace("<", "&lt;")  # noqa: E731
    body = "".join("<table:table-row>" + "".join(
        f'<table:table-cell office:value-type="string"><text:p>{esc(v)}</text:p></table:table-cell>' for v in row)
        + "</table:table-row>" for row in rows)
    return {
        "mimetype": "application/vnd.oasis.opendocument.spreadsheet",
        "META-INF/manifest.xml": '<?xml version="1.0"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">'
        '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>',
        "content.xml": '<?xml version="1.0"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0">'
        f'<office:body><office:spreadsheet><table:table table:name="Cards">{body}</table:table>'
        '</office:spreadsheet></office:body></office:document-content>',
    }


TABLE_MUTATIONS: dict[str, Callable[[dict[str, str], random.Random], dict[str, str]]] = {}
table_mutation = adds_to(TABLE_MUTATIONS)


def _sheet(members: dict[str, str]) -> str:
    return "content.xml" if "content.xml" in members else "xl/worksheets/sheet1.xml"


@table_mutation
def table_repeats(members: dict[str, str], rng: random.Random) -> dict[str, str]:
    """Rows and cells repeated millions of times, as a spreadsheet's empty tail is (and worse)."""
    n = rng.choice([1_048_576, 12_000_000, 2**31 - 1])
    key = _sheet(members)
    if key not in members:  # (an earlier mutation left it out)
        return members
    if key == "content.xml":
        extra = rng.choice([f'<table:table-row table:number-rows-repeated="{n}"><table:table-cell/></table:table-row>',
                            f'<table:table-row><table:table-cell table:number-columns-repeated="{n}" '
                            'office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row>'])
        members[key] = members[key].replace("</table:table>", extra + "</table:table>")
    else:
        cells = rng.choice([f'<row r="{n}"><c r="XFD{n}" t="s"><v>0</v></c></row>',
                            '<row r="3">' + '<c t="s"><v>0</v></c>' * 200_000 + "</row>"])
        members[key] = members[key].replace("</sheetData>", cells + "</sheetData>")
    return members


@table_mutation
def table_spaces(members: dict[str, str], rng: random.Random) -> dict[str, str]:
    """An .ods space count of millions (`text:s`), or shared strings by the million."""
    if "content.xml" in members:
        members["content.xml"] = members["content.xml"].replace(
            "<text:p>", f'<text:p><text:s text:c="{rng.choice([1_000_000, 10_000_000, -5])}"/>', 1)
    elif "xl/sharedStrings.xml" in members:  # (unless an earlier mutation left it out)
        many = rng.choice([200_000, 1_000_000])
        members["xl/sharedStrings.xml"] = members["xl/sharedStrings.xml"].replace(
            "</sst>", "<si><t>x</t></si>" * many + "</sst>")
    return members


@table_mutation
def table_xml(members: dict[str, str], rng: random.Random) -> dict[str, str]:
    """A member's XML cut off, or an index, reference or name out of range."""
    key = rng.choice(sorted(members))
    text = members[key]
    members[key] = rng.choice([text[: rng.randrange(len(text) + 1)], text.replace("<v>0</v>", "<v>99999999</v>"),
                               text.replace('r="A1"', 'r="ZZZZZ99999999"'), text.replace('name="Cards"', 'name=""'),
                               text.replace("office:value-type", "table:formula"), ""])
    return members


@table_mutation
def table_drop(members: dict[str, str], rng: random.Random) -> dict[str, str]:
    """A member left out."""
    members.pop(rng.choice(sorted(members)))
    return members


def _zip(members: dict[str, str], rng: random.Random, corrupt: bool) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in members.items():
            archive.writestr(name, text)
    data = bytearray(buffer.getvalue())
    if corrupt:  # a byte of the deflated data changed: a broken stream, the sizes as they were
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(40, max(41, len(data) // 2))
            data[at] ^= 0xFF
    return bytes(data)


def _table_case(folder: Path, rng: random.Random) -> str:
    """Test Piece's card list as a CSV (line mutations), an .xlsx or an .ods (its XML or bytes)."""
    csv = folder / "instruments.csv"
    kind = rng.choice(["csv", "xlsx", "ods"])
    if kind == "csv":
        return f"instruments.csv: {mutate_lines(csv, rng)}"
    import csv as csvmodule
    rows = list(csvmodule.reader(csv.read_text(encoding="utf-8").splitlines()))
    members = (_xlsx if kind == "xlsx" else _ods)(rows)
    done = []
    for _ in range(rng.randint(1, 2)):
        name = rng.choice(sorted(TABLE_MUTATIONS))
        members = TABLE_MUTATIONS[name](members, rng)
        done.append(name)
    corrupt = rng.random() < 0.2
    (folder / f"instruments.{kind}").write_bytes(_zip(members, rng, corrupt))
    deck = folder / "deck.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("instruments.csv", f"instruments.{kind}"), encoding="utf-8")
    return f"instruments.{kind}: {', '.join(done)}{', deflate broken' if corrupt else ''}"


# --- fonts ---------------------------------------------------------------------------------------

def _tables(font: bytes) -> dict[bytes, tuple[int, int, int]]:
    """A TrueType font's table directory: tag → (where its record is, offset, length)."""
    found: dict[bytes, tuple[int, int, int]] = {}
    if len(font) < 6:
        return found
    for i in range(struct.unpack(">H", font[4:6])[0]):
        record = 12 + 16 * i
        if record + 16 > len(font):  # (an earlier mutation cut the file off)
            break
        tag, _, offset, length = struct.unpack(">4sIII", font[record:record + 16])
        found[tag] = (record, offset, length)
    return found


FONT_MUTATIONS: dict[str, Callable[[bytearray, random.Random], bytearray]] = {}
font_mutation = adds_to(FONT_MUTATIONS)


def _a_table(font: bytearray, rng: random.Random) -> tuple[int, int, int] | None:
    """One of the font's tables (where its record is, its offset and length), or None if an
    earlier mutation cut the directory off."""
    tables = sorted(_tables(bytes(font)).values())
    return rng.choice(tables) if tables else None


@font_mutation
def font_flip(font: bytearray, rng: random.Random) -> bytearray:
    """Bytes of one table changed."""
    chosen = _a_table(font, rng)
    if chosen is None:
        return font
    _, offset, length = chosen
    for _ in range(rng.randint(1, 40)):
        at = offset + rng.randrange(max(1, length))
        if at < len(font):
            font[at] = rng.randrange(256)
    return font


@font_mutation
def font_directory(font: bytearray, rng: random.Random) -> bytearray:
    """A table's offset or length in the directory made huge, negative-looking or zero."""
    chosen = _a_table(font, rng)
    if chosen is None:
        return font
    record = chosen[0]
    field = record + rng.choice([8, 12])
    font[field:field + 4] = struct.pack(">I", rng.choice([0, 0xFFFFFFFF, 0x7FFFFFFF, len(font) - 4, 1]))
    return font


@font_mutation
def font_counts(font: bytearray, rng: random.Random) -> bytearray:
    """maxp's glyph count, hhea's metrics count or the table count made huge."""
    tables = _tables(bytes(font))
    if b"maxp" not in tables or b"hhea" not in tables:
        return font
    where = rng.choice([(tables[b"maxp"][1] + 4, ">H"), (tables[b"hhea"][1] + 34, ">H"), (4, ">H")])
    font[where[0]:where[0] + 2] = struct.pack(where[1], rng.choice([0, 1, 0xFFFF]))
    return font


@font_mutation
def font_cmap(font: bytearray, rng: random.Random) -> bytearray:
    """The cmap replaced: a format 4 of 32,767 segments, or a format 12 group of 4 billion code points."""
    if rng.random() < 0.5:
        segments = 32_767
        body = struct.pack(">HHHH", segments * 2, 0, 0, 0) + struct.pack(">H", 0xFFFF) * segments + b"\0\0" + \
            struct.pack(">H", 0) * segments + struct.pack(">h", 1) * segments + struct.pack(">H", 0) * segments
        sub = struct.pack(">HHH", 4, min(0xFFFF, 6 + len(body)), 0) + body
        platform = (3, 1)
    else:
        sub = struct.pack(">HHIII", 12, 0, 28, 0, 1) + struct.pack(">III", 0, 0xFFFFFFFF, 1)
        platform = (3, 10)
    cmap = struct.pack(">HH", 0, 1) + struct.pack(">HHI", *platform, 12) + sub
    if b"cmap" not in _tables(bytes(font)):
        return font
    record, _, _ = _tables(bytes(font))[b"cmap"]
    font[record + 8:record + 16] = struct.pack(">II", len(font), len(cmap))
    return font + bytearray(cmap)


@font_mutation
def font_truncate(font: bytearray, rng: random.Random) -> bytearray:
    """The file cut off."""
    return font[: rng.randrange(len(font))]


def _font_case(folder: Path, rng: random.Random) -> str:
    """A copy of Noto Sans, damaged, as the family the deck's sans-serif text is set in."""
    (folder / "fonts").mkdir(exist_ok=True)
    font = bytearray((FONTS_DIR / "NotoSans-Regular.ttf").read_bytes())
    done = []
    for _ in range(rng.randint(1, 2)):
        name = rng.choice(sorted(FONT_MUTATIONS))
        font = FONT_MUTATIONS[name](font, rng)
        done.append(name)
    suffix = rng.choice([".ttf", ".otf", ".woff"])
    (folder / "fonts" / f"fuzz{suffix}").write_bytes(bytes(font))
    deck = folder / "deck.yaml"
    deck.write_text(deck.read_text(encoding="utf-8") + f"\nfonts:\n  fuzz:\n    regular: fonts/fuzz{suffix}\n",
                    encoding="utf-8")
    for layout in (folder / "layouts").glob("*.yaml"):  # its texts in the damaged font
        layout.write_text(re.sub(r"font: sans\b", "font: fuzz", layout.read_text(encoding="utf-8")), encoding="utf-8")
    return f"fonts/fuzz{suffix}: {', '.join(done)}"


# --- extends chains and symlinks -----------------------------------------------------------------

def _extends_case(folder: Path, rng: random.Random) -> tuple[Path, str]:
    """A deck that extends the bundled one's copy, its chain made wrong: itself, a loop of two, a
    missing, outside or over-long path, a file, a chain of many."""
    child = folder.parent / "child"
    child.mkdir()
    target = rng.choice(["../" + folder.name, ".", "../child", "../missing", "/etc", "../" + folder.name + "/deck.yaml",
                         "x" * 300, "../" * 40 + "etc", "../link"])
    done = f"extends: {target[:40]}"
    if target == "../link":
        (folder.parent / "link").symlink_to(child)
    if rng.random() < 0.3:  # a loop of two: the bundled copy extends the child back
        deck = folder / "deck.yaml"
        deck.write_text(deck.read_text(encoding="utf-8") + "\nextends: ../child\n", encoding="utf-8")
        done += ", and back"
    if rng.random() < 0.3:  # a chain of many
        many = rng.choice([20, 200])
        for i in range(many):
            link = folder.parent / f"chain{i}"
            link.mkdir()
            (link / "deck.yaml").write_text(f"extends: ../{f'chain{i + 1}' if i < many - 1 else folder.name}\n"
                                            f"id: chain{i}\n", encoding="utf-8")
        target = "../chain0"
        done = "extends a chain of many"
    (child / "deck.yaml").write_text(f"extends: {target}\nid: child\ntitle: Child\n", encoding="utf-8")
    return child, done


def _symlink_case(folder: Path, rng: random.Random) -> str:
    """A file or folder of the deck replaced by a symlink: to itself, to a partner that points
    back, outside the deck, to nothing, to a folder."""
    candidates = [p for p in sorted(folder.rglob("*")) if p.name != "deck.yaml" or rng.random() < 0.2]
    victim = rng.choice(candidates)
    relative = victim.relative_to(folder)
    if victim.is_dir():
        shutil.rmtree(victim)
    else:
        victim.unlink()
    how = rng.choice(["itself", "cycle", "outside", "nowhere", "folder", "root"])
    if how == "itself":
        victim.symlink_to(victim.name)
    elif how == "cycle":
        partner = victim.with_name(victim.name + ".partner")
        partner.symlink_to(victim.name)
        victim.symlink_to(partner.name)
    elif how == "outside":
        victim.symlink_to(rng.choice(["/etc/hostname", "/etc", "/dev/zero", "/dev/urandom", "/proc/self/environ"]))
    elif how == "nowhere":
        victim.symlink_to("missing-" + victim.name)
    elif how == "folder":
        victim.symlink_to(folder)
    else:
        victim.symlink_to("/")
    return f"{relative} is a symlink: {how}"


KINDS = ("yaml", "svg", "table", "font", "extends", "symlink")


def make_case(number: int, seed: int, root: Path) -> tuple[Path, str]:
    """Copy a bundled deck (its layouts into its own layouts/, where they shadow the bundled ones)
    into `root`, do to it what case `number` of `seed` does (its kind, `KINDS`, in turn), and return
    the folder to check and what was done, for the failure message."""
    rng = random.Random(seed * 1_000_003 + number)
    kind = KINDS[number % len(KINDS)]
    decks = bundled_deck_ids()
    if kind == "svg":
        decks = [d for d in decks if any((DECKS_DIR / d).rglob("*.svg"))]
    elif kind == "table":
        decks = ["test-piece"]
    deck_id = rng.choice(decks)
    folder = root / deck_id
    shutil.copytree(DECKS_DIR / deck_id, folder)
    (folder / "layouts").mkdir(exist_ok=True)
    for name in ("common", deck_id):
        shutil.copyfile(LAYOUTS_DIR / f"{name}.yaml", folder / "layouts" / f"{name}.yaml")
    checked = folder
    if kind == "yaml":
        target = rng.choice(files_of(folder))
        done = f"{target.relative_to(folder)}: {mutate_lines(target, rng)}"
    elif kind == "svg":
        target = rng.choice(sorted(folder.rglob("*.svg")))
        if rng.random() < 0.25:
            done = f"{target.relative_to(folder)}: {mutate_lines(target, rng)}"
        else:
            svg = target.read_text(encoding="utf-8")
            names = [rng.choice(sorted(SVG_MUTATIONS)) for _ in range(rng.randint(1, 2))]
            for name in names:
                svg = SVG_MUTATIONS[name](svg, rng)
            target.write_bytes(svg.encode("utf-8", "surrogateescape"))
            done = f"{target.relative_to(folder)}: {', '.join(names)}"
    elif kind == "table":
        done = _table_case(folder, rng)
    elif kind == "font":
        done = _font_case(folder, rng)
    elif kind == "extends":
        checked, done = _extends_case(folder, rng)
    else:
        done = _symlink_case(folder, rng)
    return checked, f"case {number} (seed {seed}): {kind}, {deck_id}, {done}"
