"""SVG art from strangers (issue 32): every SVG either builds or is one line naming the file, exit
status 2, in check, build (PDF, low-ink, PNG) and impose, within the limits svgfile declares
(docs/ROBUSTNESS.md, "SVG art"): size, elements, nesting, path data, numbers, pictures inside."""

from __future__ import annotations

import base64
import time

import pytest
from deckpress.imagefile import EMBED_MAX_PIXELS
from deckpress.svgfile import (MAX_DEPTH, MAX_ELEMENTS, MAX_NUMBER, MAX_OCTAVES, MAX_ORDER, MAX_PATH_DATA,
                               MAX_SIZE, MAX_TEXT)
from tests.test_images import DECK as PICTURES_DECK, LAYOUT
from tests.test_robustness_pictures import one_line_error, peak_bytes, png, run

# the picture deck of test_images, with one card: its art is the SVG each test gives
DECK = PICTURES_DECK.split("        cards:")[0] + "        cards:\n          - {art: art/pic.svg}\n"
NS = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'


def svg(body: str, size: str = 'width="10" height="10"') -> bytes:
    return f"<svg {NS} {size}>{body}</svg>".encode()


def data_uri(data: bytes, kind: str = "image/png") -> str:
    return f"data:{kind};base64,{base64.b64encode(data).decode()}"


#: each way of making something of a deck's art, as the command line's arguments after the deck
COMMANDS = {
    "check": lambda deck, out: ["check", str(deck)],
    "pdf": lambda deck, out: ["build", str(deck), "--out", str(out), "--paper", "a4", "--ink", "color"],
    "lowink": lambda deck, out: ["build", str(deck), "--out", str(out), "--paper", "a4", "--ink", "lowink"],
    "png": lambda deck, out: ["build", str(deck), "--out", str(out), "--format", "png"],
    "impose": lambda deck, out: ["impose", str(deck / "art" / "pic.svg"), "--out", str(out), "--paper", "a4"],
}


@pytest.fixture
def deck_with(make_deck):
    return lambda data: make_deck(DECK, {"pics": LAYOUT}, {"art/pic.svg": data})


# --- what printed a traceback: each builds now, or is one line ----------------------------------

BUILDS = {  # the reproducers that are good enough to print, and the warning each gets, if any
    "image-without-size": (svg(f'<image xlink:href="{data_uri(png(4, 4))}"/>'), None),
    "currentcolor-stop": (svg('<linearGradient id="g"><stop offset="0" stop-color="currentColor"/>'
                              '<stop offset="1" stop-color="red"/></linearGradient>'
                              '<rect width="10" height="10" fill="url(#g)"/>'), None),
    "path-missing-a-coordinate": (svg('<path d="M 1 2 L 3" stroke="red"/>'), None),
    "path-holding-u202e": (svg('<path d="M 1 2 L 3\u202e 4" stroke="red"/>'), None),
    "width-1e30": (svg('<rect width="1e30" height="5" fill="red"/>'),
                   MAX_NUMBER.said(name="width", value="1e30")),
    "stroke-width-1e308": (svg('<rect width="5" height="5" stroke="black" stroke-width="1e308"/>'),
                           MAX_NUMBER.said(name="stroke-width", value="1e308")),
    "stroke-width-1e308-in-a-style-sheet": (svg('<style>rect{stroke:black;stroke-width:1e308}</style>'
                                                '<rect width="5" height="5"/>'),
                                            MAX_NUMBER.said(name="stroke-width", value="1e308")),
    "transform-1e30": (svg('<rect width="5" height="5" transform="scale(1e30)"/>'),
                       MAX_NUMBER.said(name="transform", value="scale(1e30)")),
    "negative-dash-array": (svg('<path d="M0 0 L10 10" stroke="black" stroke-dasharray="-1 -2"/>'),
                            "has a stroke-dasharray with a negative length: drawn solid"),
    "negative-dash-array-in-a-style": (svg('<path d="M0 0 L10 10" style="stroke:black;stroke-dasharray:-1 2"/>'),
                                       "has a stroke-dasharray with a negative length: drawn solid"),
    "a-billion-octaves-of-noise": (svg('<filter id="f"><feTurbulence baseFrequency="0.05" numOctaves="1000000000"/>'
                                       '</filter><rect width="5" height="5" filter="url(#f)"/>'),
                                   MAX_OCTAVES.said(value="1000000000")),  # it never finished
    "a-morphology-of-radius-1e6": (svg('<filter id="f"><feMorphology operator="dilate" radius="1000000"/></filter>'
                                       '<rect width="5" height="5" filter="url(#f)"/>'), None),  # it never finished
    "all-zero-transform": (svg('<rect width="5" height="5" transform="matrix(0 0 0 0 0 0)"/>'), None),
    "all-zero-css-transform": (svg('<rect width="5" height="5" style="transform: matrix(0,0,0,0,0,0); '
                                   'transform-origin: 50% 50%"/>'), None),
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("kind", sorted(BUILDS))
def test_art_that_printed_a_traceback_builds(deck_with, tmp_path, kind, command):
    data, warning = BUILDS[kind]
    folder = deck_with(data)
    result = run(*COMMANDS[command](folder, tmp_path / "out"))
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    if warning and command != "impose":  # (impose says nothing of art it places)
        assert warning in result.stderr, result.stderr


REFUSED = {  # the reproducers that cannot print, and what each is told
    "empty": (b"", "art 'pic.svg' is empty (0 bytes): is the file complete?"),
    "only-spaces": (b"  \n", "art 'pic.svg' is empty (3 bytes)"),
    "nested-1000-groups": (svg("<g>" * 1000 + '<rect width="5" height="5"/>' + "</g>" * 1000),
                           f"art 'pic.svg' {MAX_DEPTH.said()} (line 1)"),
    "nested-past-the-limit": (svg("<g>" * MAX_DEPTH.value + "</g>" * MAX_DEPTH.value),
                              f"art 'pic.svg' {MAX_DEPTH.said()} (line 1)"),
    "100000-rects": (svg('<rect width="1" height="1"/>' * 100_000), f"art 'pic.svg' {MAX_ELEMENTS.said()}"),
    "its-own-width-1e30": (svg('<rect width="5" height="5"/>', 'width="1e30" height="10"'),
                           f"art 'pic.svg' {MAX_SIZE.said(name='width', value='1e30')}"),
    "its-viewbox-1e30": (svg('<rect width="5" height="5"/>', 'viewBox="0 0 1e30 1e30"'),
                         f"art 'pic.svg' {MAX_SIZE.said(name='viewBox', value='0 0 1e30 1e30')}"),
    "a-marker-at-each-of-100000-vertices": (svg('<marker id="m"><rect width="1" height="1"/></marker>'
                                                '<path marker-mid="url(#m)" d="M0 0' + " L1 1" * 100_000 + '"/>'),
                                            f"art 'pic.svg' {MAX_ELEMENTS.said()}"),
    "100000-characters-of-text": (svg('<text y="5">' + "word " * 20_000 + "</text>"),
                                  f"art 'pic.svg' {MAX_TEXT.said()}"),  # it took minutes
    "a-300-by-300-convolution": (svg('<filter id="f"><feConvolveMatrix order="300" kernelMatrix="'
                                     + "1 " * 90_000 + '"/></filter><rect width="5" height="5" filter="url(#f)"/>'),
                                 f"art 'pic.svg' {MAX_ORDER.said(value='300')}"),  # it never finished
    "path-data-past-the-limit": (svg('<path d="M0 0' + " L1 1" * (MAX_PATH_DATA.value // 5 + 1) + '"/>'),
                                 f"art 'pic.svg' {MAX_PATH_DATA.said()}"),
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("kind", sorted(REFUSED))
def test_art_that_cannot_print_is_one_line_naming_it(deck_with, tmp_path, kind, command):
    data, says = REFUSED[kind]
    folder = deck_with(data)
    started = time.process_time()
    line = one_line_error(run(*COMMANDS[command](folder, tmp_path / "out")))
    assert time.process_time() - started < 10
    if command == "impose":
        assert line.startswith(f"error: {folder}/art/pic.svg: {says.removeprefix('art ' + repr('pic.svg') + ' ')}")
    else:
        assert line.startswith(f"error: {folder}/deck.yaml:11: card pics #1: {says}"), line
        assert line.endswith(f"(template 'front', {folder}/layouts/pics.yaml:6)")
    assert not (tmp_path / "out" / "pics").exists()


# --- icons ----------------------------------------------------------------------------------------

ICON_LAYOUT = "\n    icons:\n      star: {image: art/icon.svg}" + LAYOUT.replace(
    "          - image:", "          - text: {text: \":star:\", x: 5mm, y: 50mm, w: 40mm, h: 8mm}\n          - image:")


@pytest.mark.parametrize("command", ["check", "pdf", "png"])
@pytest.mark.parametrize("data, says", [
    (b"not an svg", "is not well-formed SVG (line 1): Start tag expected, '<' not found"),
    (png(4, 4), "is not well-formed SVG (line 1)"),
    (b"", "is empty (0 bytes)"),
    (svg("", 'width="1e30" height="10"'), MAX_SIZE.said(name="width", value="1e30")),
], ids=["not-svg", "a-png", "empty", "width-1e30"])
def test_an_svg_icon_that_cannot_print_is_one_line_at_the_icon(make_deck, tmp_path, command, data, says):
    folder = make_deck(DECK, {"pics": ICON_LAYOUT}, {"art/pic.svg": svg('<rect width="5" height="5"/>'),
                                                     "art/icon.svg": data})
    line = one_line_error(run(*COMMANDS[command](folder, tmp_path / "out")))
    assert line.startswith(f"error: {folder}/layouts/pics.yaml:3: icon 'star' image: art 'icon.svg' {says}"), line


@pytest.mark.parametrize("size", ['width="10pxjunk" height="10"', 'width="10 junk" height="10"'])
def test_an_svg_icon_with_junk_after_a_length_builds(make_deck, tmp_path, size):
    folder = make_deck(DECK, {"pics": ICON_LAYOUT}, {"art/pic.svg": svg('<rect width="5" height="5"/>'),
                                                     "art/icon.svg": svg('<rect width="5" height="5"/>', size)})
    result = run(*COMMANDS["pdf"](folder, tmp_path / "out"))
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output


# --- numbers --------------------------------------------------------------------------------------

def test_numbers_beyond_the_bound_are_drawn_at_it_and_said_once(tmp_path):
    from deckpress.svgfile import prepare

    path = tmp_path / "pic.svg"
    path.write_bytes(svg('<rect x="-1e30" width="1e30" height="5"/><path d="M0 0 L 99999999999 5e300" '
                         'style="stroke-width: 1e308; fill: #1e3040"/>'))
    prepared = prepare(str(path), ())
    assert 'x="-1000000000" width="1000000000"' in prepared.text
    assert 'd="M0 0 L 1000000000 1000000000"' in prepared.text
    assert "stroke-width: 1000000000; fill: #1e3040" in prepared.text  # a colour is no number
    assert prepared.warnings == (MAX_NUMBER.said(name="x", value="-1e30"),)


def test_art_within_the_bounds_is_left_as_it_is(tmp_path):
    from deckpress.svgfile import prepare

    path = tmp_path / "pic.svg"
    path.write_bytes(svg('<rect x="-999999999" width="1e9" height="5" transform="scale(1e-30)"/>'))
    prepared = prepare(str(path), ())
    assert not prepared.changed and not prepared.warnings


# --- Rust panics ----------------------------------------------------------------------------------

def test_a_panic_inside_svg2pdf_is_the_arts_error(deck_with, tmp_path, monkeypatch):
    """pyo3 raises a Rust panic as PanicException, a BaseException: one line, not a traceback."""
    import svg2pdf_py

    class PanicException(BaseException):
        pass

    def panics(*args, **kwargs):
        raise PanicException("called `Option::unwrap()` on a `None` value\nmore")

    monkeypatch.setattr(svg2pdf_py, "svg_to_pdf", panics)
    folder = deck_with(svg('<rect width="6" height="5"/>'))
    line = one_line_error(run("check", str(folder)))
    assert "art 'pic.svg' cannot be drawn: called `Option::unwrap()` on a `None` value (template" in line


# --- time and memory ------------------------------------------------------------------------------

def test_art_at_the_element_limit_builds_in_low_ink_within_ten_seconds(deck_with, tmp_path):
    """Low ink recolours every colour the art sets: the dearest build of many elements."""
    rects = "".join(f'<rect x="{i % 100}" y="{i // 100 % 100}" width="1" height="1" '
                    f'fill="#{i * 2654435761 % (1 << 24):06x}" stroke="#{i * 40503 % (1 << 24):06x}"/>'
                    for i in range(MAX_ELEMENTS.value - 1))
    folder = deck_with(svg(rects, 'width="100" height="100"'))
    started = time.process_time()
    result = run(*COMMANDS["lowink"](folder, tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert time.process_time() - started < 10


def test_a_morphology_over_a_whole_card_is_drawn_within_a_bound_of_work(tmp_path):
    """feMorphology visits the square of its radius for every pixel: radius 1 over a whole card's
    art at 600 dpi took 19 s; its filter is drawn at a scale that bounds the pixels visited."""
    from deckpress.vectorart import MAX_MORPHOLOGY_VISITS, _filter_scale, load_art

    path = tmp_path / "pic.svg"
    path.write_bytes(svg('<filter id="f"><feMorphology operator="dilate" radius="1"/></filter>'
                         '<rect width="63" height="88" fill="red" filter="url(#f)"/>', 'width="63" height="88"'))
    started = time.process_time()
    load_art(str(path), printed=(63, 88))
    assert time.process_time() - started < 10
    scale = _filter_scale((63, 88), (63, 88), 600, 1.0)
    assert 63 * 88 * scale ** 2 * (2 * scale + 1) ** 2 == pytest.approx(MAX_MORPHOLOGY_VISITS, rel=1e-3)
    assert _filter_scale((63, 88), (63, 88), 600) == round(600 / 25.4, 6)  # without one: 600 dpi


def test_a_12000_px_picture_inside_svg_builds_in_under_a_gigabyte(deck_with, tmp_path):
    """It took 1.3 GB, decoded whole by svgfile and again by usvg: now it goes in at most
    EMBED_MAX_PIXELS, as a picture placed by itself is embedded."""
    folder = deck_with(svg(f'<image width="10" height="10" xlink:href="{data_uri(png(12000, 12000))}"/>'))
    out = tmp_path / "out"
    peak = peak_bytes("build", f"[{str(folder)!r}], out={str(out)!r}, papers='a4', inks='lowink'")
    assert peak < 1 << 30, f"{peak / 2**20:.0f} MiB"
    from deckpress.svgfile import prepare

    [(name, pixels)] = prepare(str(folder / "art" / "pic.svg"), ()).pictures
    assert pixels[0] * pixels[1] <= EMBED_MAX_PIXELS and pixels[0] == pixels[1]
