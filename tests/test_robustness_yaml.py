"""Issue 17, deck and layout files: whatever a YAML file holds, `check` and `build` answer with one
line `error: file:line: …` and exit status 2: values a tag cannot make, nesting, alias bombs, huge
files and values, bytes that are not UTF-8, icons a font lacks, texts a translation lacks."""

from __future__ import annotations

import textwrap

import pytest
from click.testing import CliRunner

from deckpress.cli import main

LAYOUT = """\
templates:
  front:
    fields: {title: ~}
    elements:
      - text: {text: "{title}", x: 5mm, y: 5mm, w: 50mm, h: 20mm, size: 12pt}
"""

DECK = """\
id: bad
title: Bad
designer: Test
license: CC0-1.0
layouts: [plain]
components:
  - name: things
    front: front
    cards:
      - {title: One}
"""
LAST = DECK.count("\n") + 1  # the line a case appends to deck.yaml


@pytest.fixture
def deck(tmp_path, monkeypatch):
    """Write deck/ (deck.yaml with `extra` appended, layouts/plain.yaml with `layout_extra`) in a
    working folder, so that messages name deck/…"""
    monkeypatch.chdir(tmp_path)

    def write(extra: str | bytes = b"", layout_extra: str = "", deck_text: str = DECK) -> str:
        folder = tmp_path / "deck"
        (folder / "layouts").mkdir(parents=True, exist_ok=True)
        extra = extra if isinstance(extra, bytes) else extra.encode("utf-8")
        (folder / "deck.yaml").write_bytes(deck_text.encode("utf-8") + extra)
        (folder / "layouts" / "plain.yaml").write_text(LAYOUT + layout_extra, encoding="utf-8")
        return "deck"

    return write


def one_line_error(folder: str) -> str:
    """The one line `check` and `build` both print, having checked that it is all they print."""
    lines = set()
    for command in (["check", folder], ["build", folder, "--out", "out", "--paper", "a4"]):
        result = CliRunner().invoke(main, command)
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        assert result.exit_code == 2, result.output
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.output, result.output
        lines.add(result.stderr.rstrip("\n"))
    assert len(lines) == 1
    return lines.pop()


@pytest.mark.parametrize("value, message", [
    ("!!float x", "'x' cannot be read as !!float"),
    ("!!int 12x", "'12x' cannot be read as !!int"),
    ("!!bool maybe", "'maybe' cannot be read as !!bool"),
    ("!!timestamp nope", "'nope' cannot be read as !!timestamp"),
    ("!!map [a]", "!!map needs a mapping, not a list"),
    ("!!seq {a: 1}", "!!seq needs a list, not a mapping"),
    ("!!map x", "!!map needs a mapping, not a plain value"),
    ("1" * 5000, "a number of 5,000 digits is too long (at most 4,300)"),
    ("-" + "1" * 4301, "a number of 4,301 digits is too long (at most 4,300)"),
])
def test_a_value_its_tag_cannot_make_is_one_line(deck, value, message):
    assert one_line_error(deck(f"notes: {value}\n")) == f"error: deck/deck.yaml:{LAST}: {message}"


def test_a_date_that_does_not_exist_is_one_line(deck):
    folder = deck(deck_text=DECK.replace("id: bad", "id: 2024-02-30"))
    assert one_line_error(folder) == ("error: deck/deck.yaml:1: '2024-02-30' is not a date that exists "
                                      "(put it in quotes to keep it as text)")


@pytest.mark.parametrize("depth", [64, 200, 100_000])  # 100,000 deep crashed libyaml's own composer
def test_lists_nested_too_deep_are_one_line(deck, depth):
    folder = deck("notes:\n  " + "[" * depth + "]" * depth + "\n")
    assert one_line_error(folder) == f"error: deck/deck.yaml:{LAST + 1}: mappings and lists are nested more than 64 deep"


def test_lists_nested_as_deep_as_allowed_load(deck):
    # the root mapping and `notes` make 1, the list 63 more: at the limit, not over it
    result = CliRunner().invoke(main, ["check", deck("notes: " + "[" * 63 + "]" * 63 + "\n")])
    assert result.exit_code == 2 and "unknown key 'notes'" in result.stderr  # read, then refused as a key


def test_a_hundred_nested_groups_in_a_layout_are_one_line(deck):
    groups = "".join("    " * k + "- group:\n" + "    " * k + "    elements:\n" for k in range(100))
    layout_extra = "  nested:\n    elements:\n" + textwrap.indent(groups + "    " * 100 + "- rect: {w: 1mm, h: 1mm}\n", "      ")
    folder = deck(layout_extra=layout_extra)
    # root, templates, nested, its elements: 4 levels; each group adds 3 (list item, group, elements),
    # so the item of the 21st group is the 65th level
    line = LAYOUT.count("\n") + 2 + 2 * 20 + 1
    assert one_line_error(folder) == f"error: deck/layouts/plain.yaml:{line}: mappings and lists are nested more than 64 deep"


def test_aliases_that_expand_to_a_billion_values_are_one_line(deck):
    names = "abcdefghij"
    bomb = f"{names[0]}: &{names[0]} [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{name}: &{name} [{', '.join([f'*{names[i]}'] * 10)}]\n" for i, name in enumerate(names[1:]))
    folder = deck(deck_text=DECK.replace("layouts:", "notes:\n" + textwrap.indent(bomb, "  ") + "layouts:"))
    # the lists a … e build 124,455 values; f's eighth *e passes a million
    assert one_line_error(folder) == ("error: deck/deck.yaml:11: the file builds more than 1,000,000 values "
                                      "(aliases count each time they are used)")


def test_aliases_within_the_limit_are_read_in_full(deck):
    folder = deck(deck_text=DECK.replace("      - {title: One}\n", "      - &one {title: One}\n      - *one\n"))
    result = CliRunner().invoke(main, ["check", folder])
    assert result.exit_code == 0, result.output
    assert "2 cards" in result.output


def test_a_value_too_long_is_one_line(deck):
    folder = deck("notes: " + "x" * 100_001 + "\n")
    assert one_line_error(folder) == f"error: deck/deck.yaml:{LAST}: a value of 100,001 characters is too long (at most 100,000)"


def test_a_file_too_big_is_one_line(deck):
    folder = deck("# " + "x" * 2_000_000 + "\n")  # a comment: only the size is wrong
    assert one_line_error(folder) == "error: deck/deck.yaml: the file is bigger than 2 MB"


@pytest.mark.parametrize("data, detail", [
    (b"notes: caf\xe9\n", "invalid continuation byte: 0xe9"),  # Latin-1
    (b"notes: \xff\n", "invalid start byte: 0xff"),
])
def test_a_byte_that_is_not_utf8_is_reported_at_its_line(deck, data, detail):
    assert one_line_error(deck(data)) == f"error: deck/deck.yaml:{LAST}: not UTF-8 text ({detail}); save the file as UTF-8"


def test_an_icon_glyph_missing_from_its_font_names_the_icon_line(deck):
    folder = deck(layout_extra="icons:\n  seven:\n    glyph: '7'\n")
    line = LAYOUT.count("\n") + 3
    assert one_line_error(folder) == f"error: deck/layouts/plain.yaml:{line}: icon 'seven': font 'music' has no character U+0037"


def test_a_missing_translation_is_reported_at_the_text_that_needs_it(deck, tmp_path):
    folder = deck(deck_text=DECK.replace("layouts:", "language: de\nlayouts:"))
    (tmp_path / "deck" / "translations").mkdir()
    (tmp_path / "deck" / "translations" / "en.yaml").write_text("- {de: Zwei, en: Two}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", folder])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr == ("error: deck/deck.yaml:11: no 'en' entry for 'One' in deck/translations/en.yaml; "
                             "add one with de: and en:\n")


def test_robustness_doc_names_the_limits_the_loader_holds():
    from pathlib import Path

    from deckpress import yamlfile

    doc = (Path(__file__).parents[1] / "docs" / "ROBUSTNESS.md").read_text(encoding="utf-8")
    section = doc.split("## Deck and layout files")[1].split("\n## ")[0]
    assert f"| {yamlfile.MAX_FILE_BYTES:,} bytes" in section
    assert f"| {yamlfile.MAX_DEPTH} levels |" in section
    assert f"| {yamlfile.MAX_NODES:,} |" in section
    assert f"| {yamlfile.MAX_TEXT:,} |" in section
