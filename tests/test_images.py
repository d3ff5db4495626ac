"""Pictures on cards: PNG and JPEG embedded (JPEG untouched), SVG drawn as vectors, grey in low-ink."""

from __future__ import annotations

import io

import pytest
from PIL import Image as PILImage
from pypdf import PdfReader

from deckpress.builder.deckbuild import build_deck
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
    jpeg = next(i for i in found if list(i["/Filter"]) == ["/DCTDecode"])
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
