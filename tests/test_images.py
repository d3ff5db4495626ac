"""Pictures on cards: PNG and JPEG embedded (JPEG untouched), SVG drawn as vectors, grey in low-ink."""

from __future__ import annotations

import io
import textwrap

import pytest
from PIL import Image as PILImage
from pypdf import PdfReader

from deckpress.api import check
from deckpress.builder.deckbuild import build_deck
from deckpress.errors import display_path
from tests.conftest import lowres_art, LOWRES_DECK, LOWRES_LAYOUT
from tests.pdfread import fonts, xobjects

SVG = b"""<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50" viewBox="0 0 100 50">
<rect x="0" y="0" width="100" height="50" fill="#1a7f37"/><circle cx="50" cy="25" r="20" fill="#ffcc00"/></svg>"""

LAYOUT = """
    templates:
      front:
        fields: {art: ~}
        elements:
          - image: {src: "{art}", x: 5mm, y: 5mm, w: 40mm, h: 40mm, fit: contain}
"""

DECK = """
    id: pics
    title: Pictures
    designer: Test
    license: CC0-1.0
    layouts: [pics]
    components:
      - name: pics
        front: front
        cards:
          - {art: art/photo.jpg}
          - {art: art/logo.png}
          - {art: art/vector.svg}
"""


def encoded(fmt: str) -> bytes:
    buf = io.BytesIO()
    image = PILImage.new("RGB", (64, 48), (30, 120, 200) if fmt == "JPEG" else (200, 60, 30))
    image.save(buf, format=fmt, quality=90) if fmt == "JPEG" else image.save(buf, format=fmt)
    return buf.getvalue()


@pytest.fixture
def built(make_deck, tmp_path):
    folder = make_deck(DECK, {"pics": LAYOUT}, {"art/photo.jpg": encoded("JPEG"), "art/logo.png": encoded("PNG"),
                                                 "art/vector.svg": SVG})
    build_deck(folder, tmp_path / "out", ["a4"])
    return tmp_path / "out" / "pics", folder


def images(path):
    return list(xobjects(PdfReader(path), "/Image"))


def test_jpeg_passes_through_and_svg_stays_vector(built):
    out, folder = built
    found = images(out / "pics-cards-a4.pdf")
    assert len(found) == 2  # the SVG is drawn as paths, not embedded as a picture
    jpeg = next(i for i in found if i["/Filter"] == "/DCTDecode")
    assert jpeg._data == (folder / "art" / "photo.jpg").read_bytes()
    assert {i["/ColorSpace"] for i in found} == {"/DeviceRGB"}


def test_low_ink_turns_pictures_grey(built):
    out, _ = built
    found = images(out / "pics-cards-lowink-a4.pdf")
    assert len(found) == 2 and {i["/ColorSpace"] for i in found} == {"/DeviceGray"}


def test_svg_art_brings_no_unembedded_font(built):
    out, _ = built
    found = fonts(PdfReader(out / "pics-cards-a4.pdf"))
    assert found and all(found.values()) and not any("Helvetica" in name for name in found), found


# --- pictures printed below 300 dpi ----------------------------------------------------------------

def line_of(path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


def test_pictures_below_300_dpi_are_warned_about_once_at_the_line_that_placed_them(lowres_deck):
    result = check(lowres_deck)
    deck, layout = lowres_deck / "deck.yaml", lowres_deck / "layouts" / "lowres.yaml"
    assert [(w.file, w.line, w.kind, w.message) for w in result.warnings] == [
        # named by a card's field: that card's line; fruit.png again on a later card: not said again
        (display_path(deck), line_of(deck, "art/fruit.png}"), "low-resolution",
         "art/fruit.png is 60×80 px, printed 40×53.3 mm: 38 dpi — will look blurred (300 dpi wanted)"),
        # written in the layout: the layout's line; a poker back, the square SVG 63.5 mm wide, its quarter
        # 31.75 mm square, where the 60×80 px picture keeps its proportions (SVG's preserveAspectRatio)
        (display_path(layout), line_of(layout, "art/board.svg"), "low-resolution",
         "a picture inside art/board.svg is 60×80 px, printed 23.8×31.8 mm: 64 dpi — will look blurred "
         "(300 dpi wanted)"),
        (display_path(deck), line_of(deck, "art/fruit.jpg"), "low-resolution",
         "art/fruit.jpg is 60×80 px, printed 40×53.3 mm: 38 dpi — will look blurred (300 dpi wanted)"),
        (display_path(deck), line_of(deck, "art/soft.png"), "low-resolution",
         "art/soft.png is 400×500 px, printed 40×53.3 mm: 238 dpi — may look soft (300 dpi wanted)"),
    ]  # sharp.png, 480×640 px at 40×53.3 mm, is 305 dpi


def test_a_picture_printed_smaller_is_sharper_and_cover_counts_what_is_printed(make_deck):
    layout = LOWRES_LAYOUT.replace("w: 40mm, h: 53.3mm, fit: stretch", "w: 5mm, h: 6.7mm, fit: stretch")
    folder = make_deck(LOWRES_DECK, {"lowres": layout}, lowres_art())
    assert [w.message for w in check(folder).warnings if "fruit" in w.message] == []  # 60 px over 5 mm: 305 dpi
    # `cover` fills 40 × 20 mm with a 60 × 80 px picture: printed 40 × 53.3 mm, clipped
    (folder / "layouts" / "lowres.yaml").write_text(textwrap.dedent(layout.replace(
        "w: 5mm, h: 6.7mm, fit: stretch", "w: 40mm, h: 20mm, fit: cover")), encoding="utf-8")
    assert "art/fruit.png is 60×80 px, printed 40×53.3 mm: 38 dpi" in " ".join(check(folder).warnings.messages)


def test_a_build_warns_as_the_check_does_and_prints_the_picture_inside_the_svg(lowres_deck, tmp_path):
    checked = check(lowres_deck).warnings.messages
    result = build_deck(lowres_deck, tmp_path / "out", ["a4"], ["color"])
    assert result.warnings.messages == checked
    backs = tmp_path / "out" / "lowres" / "lowres-backs-a4.pdf"
    assert any(i["/Width"] == 60 and i["/Height"] == 80 for i in images(backs))  # the SVG's picture, drawn


def test_svg_art_holding_a_picture_builds_in_every_format(lowres_deck, tmp_path):
    """An SVG with a raster inside passed check and then crashed every PDF, PNG and TTS build: each
    now builds, and the PNG of the back shows the picture's red where the SVG puts it."""
    from deckpress import api

    result, = api.build(lowres_deck, tmp_path, papers="a4", inks="color", formats="pdf,png,tts")
    kinds = {o.path.suffix for o in result.outputs}
    assert {".pdf", ".png", ".json"} <= kinds
    back = next(o.path for o in result.outputs if o.path.suffix == ".png" and "back" in o.path.name)
    with PILImage.open(back) as image:
        at = lambda mm: round((3 + mm) / 25.4 * 300)  # noqa: E731 — the PNG holds the 3 mm bleed round the card
        # the SVG is square, so it sits 12.7 mm down on the card; its picture fills its top-left quarter
        red = image.convert("RGB").getpixel((at(10), at(25)))
    assert red[0] > 150 and red[1] < 100 and red[2] < 80, red


def test_the_same_deck_in_another_folder_prints_the_same_bytes(make_deck, tmp_path):
    """Pictures, the deck's own font and the font subsets are named by what they are, never by
    where their files lie or when they were touched: a copy of the deck elsewhere (another
    checkout, another user's machine) builds byte for byte the same files."""
    import os
    import shutil

    from deckpress.fonts import FontSet

    font = FontSet().families["sans"].files["italic"]
    deck = DECK.replace("layouts: [pics]", "layouts: [pics]\n    fonts:\n      hand: {regular: fonts/Hand.ttf}")
    layout = LAYOUT + "          - text: {text: Übung macht, x: 5mm, y: 50mm, w: 50mm, h: 8mm, font: hand}\n"
    folder = make_deck(deck, {"pics": layout}, {"art/photo.jpg": encoded("JPEG"), "art/logo.png": encoded("PNG"),
                                                "art/vector.svg": SVG, "fonts/Hand.ttf": open(font, "rb").read()})
    elsewhere = tmp_path / "somewhere" / "else" / "pics-copy"
    shutil.copytree(folder, elsewhere)
    for path in elsewhere.rglob("*"):
        os.utime(path, ns=(1, 1))  # touched at another time, as a fresh checkout is
    first, second = (build_deck(where, tmp_path / name, ["a4"], ["color"])
                     for where, name in ((folder, "one"), (elsewhere, "two")))
    names = sorted(o.path.name for o in first.outputs)
    assert names == sorted(o.path.name for o in second.outputs) and names
    for a, b in zip(sorted(o.path for o in first.outputs), sorted(o.path for o in second.outputs)):
        assert a.read_bytes() == b.read_bytes(), a.name
