"""Pictures from strangers (issue 17, class 2): too many pixels, broken files and absurd impose sizes
are one line naming the picture, exit status 2, in check, build and impose; a huge picture that is
allowed is scaled down to what prints, so it never takes a gigabyte."""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from deckpress import cli
from deckpress.imagefile import EMBED_DPI, MAX_PIXELS
from tests.pdfread import xobjects
from tests.pictureformats import broken
from tests.test_images import DECK as PICTURES_DECK, LAYOUT

# the picture deck of test_images, with one card: its picture is the one each test gives
DECK = PICTURES_DECK.split("        cards:")[0] + "        cards:\n          - {art: art/pic.png}\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(width: int, height: int, colour: tuple[int, int, int] = (200, 40, 40), rows: int | None = None) -> bytes:
    """An RGB PNG of one colour, written a row at a time (a 12000×12000 one takes no memory here);
    only the first `rows` rows when given: a header that promises more pixels than the file holds,
    as a decompression bomb's does, its chunks whole."""
    compressor = zlib.compressobj(9)
    row = b"\0" + bytes(colour) * width
    data = b"".join(compressor.compress(row) for _ in range(height if rows is None else rows)) + compressor.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", data) + _chunk(b"IEND", b"")


def truncated() -> bytes:
    whole = png(600, 800, rows=800)
    return whole[:len(whole) // 2]


BOMB = (30000, 30000)  # 900 megapixels: past Pillow's own bound, which raises before saying the size
OVER = (13000, 13000)  # 169 megapixels: past ours, within Pillow's (which only warns)


def run(*args: str):
    return CliRunner().invoke(cli.main, list(args))


@pytest.fixture
def deck_with(make_deck):
    return lambda data: make_deck(DECK, {"pics": LAYOUT}, {"art/pic.png": data})


def one_line_error(result) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith("error: ")
    return line


@pytest.mark.parametrize("command", ["check", "build"])
@pytest.mark.parametrize("data, says", [
    (png(*BOMB, rows=1), f"has more than {MAX_PIXELS // 1_000_000} megapixels"),
    (png(*OVER, rows=1), f"is 13000×13000 px (169 megapixels): pictures have at most {MAX_PIXELS // 1_000_000} "
                         "megapixels"),
    (truncated(), "cannot be read: "),
    (b"not a picture", "is not an image file"),
], ids=["bomb", "over-bound", "truncated", "not-a-picture"])
def test_a_picture_that_cannot_be_used_is_one_line_naming_it_and_the_lines_that_placed_it(
        deck_with, tmp_path, command, data, says):
    folder = deck_with(data)
    args = [command, str(folder)] + (["--out", str(tmp_path / "out")] if command == "build" else [])
    line = one_line_error(run(*args))
    assert f"{folder}/deck.yaml:11: card pics #1: picture 'pic.png' {says}" in line
    assert f"(template 'front', {folder}/layouts/pics.yaml:6)" in line
    assert not (tmp_path / "out" / "pics").exists()


BROKEN = broken()  # a truncated or malformed file of each format: (its name, its bytes)
SAYS = {  # what is wrong, as said after "cannot be read: "
    "webp-cut-in-half": "the WebP data is cut short or damaged",
    "tiff-bad-ifd": "its TIFF header is broken (Missing dimensions)",
    "tiff-ifd-cut-off": "its TIFF header is broken (",
    "tiff-garbled-strips": "Using code not yet in table",  # libtiff's own words, which it printed beside ours
    "psd-truncated-composite": "image file is truncated",
    "gif-garbage": "broken data stream when reading image file",
    "bmp-cut-short": "image file is truncated",
    "jpeg-cut-short": "the JPEG data is cut short (its end marker is missing)",  # it used to print half a picture
}


@pytest.mark.parametrize("command", ["check", "build"])
@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_a_broken_picture_of_any_format_is_one_line_naming_it_and_what_is_wrong(make_deck, tmp_path, command, kind):
    name, data = BROKEN[kind]
    folder = make_deck(DECK.replace("art/pic.png", f"art/{name}"), {"pics": LAYOUT}, {f"art/{name}": data})
    args = [command, str(folder)] + (["--out", str(tmp_path / "out")] if command == "build" else [])
    line = one_line_error(run(*args))
    assert f"{folder}/deck.yaml:11: card pics #1: picture '{name}' cannot be read: {SAYS[kind]}" in line, line
    assert f"(template 'front', {folder}/layouts/pics.yaml:6)" in line
    assert not (tmp_path / "out" / "pics").exists()


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_impose_names_a_broken_picture_of_any_format(tmp_path, kind):
    name, data = BROKEN[kind]
    picture = tmp_path / name
    picture.write_bytes(data)
    line = one_line_error(run("impose", str(picture), "--out", str(tmp_path / "out")))
    assert line.startswith(f"error: {picture}: cannot be read: {SAYS[kind]}"), line
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("command", ["check", "build"])
def test_a_broken_picture_drawn_as_an_icon_is_one_line_at_the_icon(make_deck, tmp_path, command):
    """An icon's picture is read when the layout is: it was a traceback."""
    name, data = BROKEN["gif-garbage"]
    star = "          - text: {text: \":star:\", x: 5mm, y: 50mm, w: 40mm, h: 8mm}\n"
    layout = "\n    icons:\n      star: {image: art/pic.gif}" + LAYOUT.replace("          - image:", star + "          - image:")
    folder = make_deck(DECK, {"pics": layout}, {"art/pic.png": png(40, 40), f"art/{name}": data})
    args = [command, str(folder)] + (["--out", str(tmp_path / "out")] if command == "build" else [])
    line = one_line_error(run(*args))
    assert line == (f"error: {folder}/layouts/pics.yaml:3: icon 'star' image: picture '{name}' cannot be read: "
                    f"{SAYS['gif-garbage']}")


def test_what_libtiff_prints_of_a_broken_tiff_is_not_a_second_line(make_deck, tmp_path):
    """libtiff writes its reason to the process's standard error itself, where no CliRunner sees
    it: the command run as a user runs it still says one line."""
    name, data = BROKEN["tiff-garbled-strips"]
    folder = make_deck(DECK.replace("art/pic.png", f"art/{name}"), {"pics": LAYOUT}, {f"art/{name}": data})
    done = subprocess.run([sys.executable, "-m", "deckpress", "check", str(folder)], capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [f"error: {folder}/deck.yaml:11: card pics #1: picture '{name}' cannot be "
                                        f"read: Using code not yet in table (template 'front', "
                                        f"{folder}/layouts/pics.yaml:6)"]


@pytest.mark.parametrize("data, says", [
    (png(*BOMB, rows=1), f"has more than {MAX_PIXELS // 1_000_000} megapixels"),
    (png(*OVER, rows=1), "is 13000×13000 px (169 megapixels)"),
    (truncated(), "cannot be read: "),  # it used to blame the output folder: "cannot write to …", exit 1
], ids=["bomb", "over-bound", "truncated"])
def test_impose_names_the_picture_not_the_output_folder(tmp_path, data, says):
    picture = tmp_path / "pic.png"
    picture.write_bytes(data)
    line = one_line_error(run("impose", str(picture), "--out", str(tmp_path / "out")))
    assert line.startswith(f"error: {picture}: {says}")
    assert not (tmp_path / "out").exists()


def test_a_picture_past_pillows_warning_but_within_the_bound_is_checked_quietly(deck_with):
    result = run("check", str(deck_with(png(10000, 10000, rows=1))))  # 100 megapixels: Pillow warns from 89
    assert result.exit_code == 0 and result.stderr == "", result.output


@pytest.mark.parametrize("args, says", [
    (["--size", "100000x100000"], "card size 100000 × 100000 mm is too big"),
    (["--bleed", "100000mm"], "bleed '100000mm' is 100000 mm: at most 10 mm"),
    (["--bleed", "1in"], "bleed '1in' is 25.4 mm: at most 10 mm"),
])
def test_absurd_impose_sizes_are_one_line(tmp_path, args, says):
    picture = tmp_path / "pic.png"
    picture.write_bytes(png(825, 1125))
    line = one_line_error(run("impose", str(picture), *args, "--out", str(tmp_path / "out")))
    assert line.startswith(f"error: {says}")
    assert not (tmp_path / "out").exists()


# The peak of this process is its memory's high-water mark (VmHWM), not getrusage's ru_maxrss:
# Linux carries ru_maxrss over an exec, so a child started from a large test process (a
# pytest-xdist worker that has built many decks, 1.1 GB) would report the parent's size. Its
# worker processes, forked from it, are its children's ru_maxrss.
PEAK = """
import json, re, resource, sys
from deckpress.api import {call}
{call}({args})
status = open("/proc/self/status").read()
own = int(re.search(r"VmHWM:\\s*(\\d+) kB", status).group(1))
peak = max(own, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
print(json.dumps(peak * 1024))  # kB on Linux
"""


def peak_bytes(call: str, args: str) -> int:
    """The most memory a fresh interpreter held while running `deckpress.api.<call>(<args>)`."""
    done = subprocess.run([sys.executable, "-c", PEAK.format(call=call, args=args)], capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def embedded_widths(pdf: Path) -> set[int]:
    return {int(image["/Width"]) for image in xobjects(PdfReader(pdf), "/Image")}


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss is in kB on Linux")
def test_a_12000_px_picture_builds_in_under_a_gigabyte_embedded_at_600_dpi(deck_with, tmp_path):
    folder = deck_with(png(12000, 12000))
    out = tmp_path / "out"
    peak = peak_bytes("build", f"[{str(folder)!r}], out={str(out)!r}, papers='a4'")
    assert peak < 1 << 30, f"{peak / 2**20:.0f} MiB"
    # the 40 mm box at 600 dpi: 944.9 px, rounded up; it took 1.6 GB when embedded whole
    assert embedded_widths(out / "pics" / "pics-cards-a4.pdf") == {round(40 / 25.4 * EMBED_DPI + 0.5)}


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss is in kB on Linux")
def test_a_12000_px_picture_imposes_in_under_a_gigabyte(tmp_path):
    picture = tmp_path / "pic.png"
    picture.write_bytes(png(12000, 12000))
    out = tmp_path / "out"
    peak = peak_bytes("impose", f"[{str(picture)!r}], out={str(out)!r}, papers='a4'")
    assert peak < 1 << 30, f"{peak / 2**20:.0f} MiB"
    # poker with 3 mm bleed is 69.5 × 94.9 mm: 600 dpi on the taller side
    assert embedded_widths(out / "imposed" / "imposed-cards-a4.pdf") == {round(94.9 / 25.4 * EMBED_DPI + 0.5)}


def test_pictures_that_print_at_600_dpi_or_less_are_embedded_as_they_are(deck_with, tmp_path):
    folder = deck_with(png(945, 945))  # 600 dpi over 40 mm
    assert run("build", str(folder), "--out", str(tmp_path / "out"), "--paper", "a4").exit_code == 0
    assert embedded_widths(tmp_path / "out" / "pics" / "pics-cards-a4.pdf") == {945}


@pytest.mark.parametrize("command", ["check", "build"])
@pytest.mark.parametrize("data, says", [
    (png(*BOMB, rows=1), f"holds a picture of more than {MAX_PIXELS // 1_000_000} megapixels"),
    (png(*OVER, rows=1), f"holds a picture of 13000×13000 px, more than the {MAX_PIXELS // 1_000_000} megapixels"),
    (truncated()[:40], "holds a picture that cannot be read: "),
], ids=["bomb", "over-bound", "broken"])
def test_a_picture_inside_svg_art_is_held_to_the_same_bound(make_deck, tmp_path, command, data, says):
    """svgfile opens a data: URI picture while it makes the art ready: a bomb there is one line too,
    at the card and the layout line that placed the art."""
    import base64

    svg = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" '
           f'height="10"><image width="10" height="10" xlink:href="data:image/png;base64,'
           f'{base64.b64encode(data).decode()}"/></svg>').encode()
    folder = make_deck(DECK.replace("art/pic.png", "art/pic.svg"), {"pics": LAYOUT}, {"art/pic.svg": svg})
    args = [command, str(folder)] + (["--out", str(tmp_path / "out")] if command == "build" else [])
    line = one_line_error(run(*args))
    assert f"{folder}/deck.yaml:11: card pics #1: picture 'pic.svg' {says}" in line
