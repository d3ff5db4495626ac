"""The CMYK build end to end: bundled decks with SVG art built for print shops and read back."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops, ImageStat
from pypdf import PdfReader

import deckpress
from tests.pdfread import colour_operators, rgb_left, text_colours

DECKS = ("test-piece", "circle-of-5")
KINDS = ("cards", "backs", "duplex", "rules-board", "box")


@pytest.fixture(scope="module")
def builds(shared, bundled_builds):
    """Each deck on A4 in RGB (as `deckpress build` writes it) and in CMYK, both inks:
    {"rgb": folder, "cmyk": folder}, each holding a folder per deck."""

    def cmyk(folder):
        for deck in DECKS:
            deckpress.build(deck, folder, papers="a4", color="cmyk")

    rgb = {bundled_builds(deck)[0].parent for deck in DECKS}  # one folder, as in output/
    return {"rgb": rgb.pop(), "cmyk": shared("cmyk-a4", cmyk)[0]}


def test_cmyk_files_are_named_cmyk_and_low_ink_files_stay_as_they_are(builds):
    cmyk, rgb = builds["cmyk"] / "test-piece", builds["rgb"] / "test-piece"
    names = {p.name for p in cmyk.iterdir()}
    assert names == {f"test-piece-{kind}{ink}-a4.pdf" for kind in KINDS for ink in ("-cmyk", "-lowink")}
    for kind in KINDS:  # low-ink is black ink only already: the same file in either build
        name = f"test-piece-{kind}-lowink-a4.pdf"
        assert (cmyk / name).read_bytes() == (rgb / name).read_bytes()


@pytest.mark.parametrize("deck", DECKS)
@pytest.mark.parametrize("kind", KINDS)
def test_no_rgb_is_left_and_text_is_black_ink_only(builds, deck, kind):
    path = builds["cmyk"] / deck / f"{deck}-{kind}-cmyk-a4.pdf"
    assert rgb_left(path) == []
    reader = PdfReader(path)
    counts, coloured = colour_operators(reader)
    assert counts[b"k"] > 0
    if kind != "rules-board":
        assert coloured, "the colour build keeps its colours"
    assert all(sum(ink) <= 2.0 + 1e-3 for ink in coloured), max(coloured, key=sum)
    texts = text_colours(reader)
    assert (0.0, 0.0, 0.0, 1.0) in texts  # black text: 0 0 0 1 k
    # never rich black: dark text is black ink only, and coloured text is a colour
    assert not [c for c in texts if c[3] >= 0.5 and any(c[:3]) and max(c[:3]) * (1 - c[3]) < 0.06]
    assert rgb_left(builds["rgb"] / deck / f"{deck}-{kind}-a4.pdf"), "the RGB build is RGB: the check can fail"


def render(path, dpi: int = 60) -> Image.Image:
    pdf = pdfium.PdfDocument(str(path))
    image = pdf[0].render(scale=dpi / 72).to_pil().convert("RGB")
    pdf.close()
    return image


@pytest.mark.parametrize("deck", DECKS)
def test_a_cmyk_page_looks_like_the_rgb_page(builds, deck):
    """Mean colour difference over the page's coloured pixels, as pdfium shows CMYK: measured
    0.05 (test-piece) and 0.06 (circle-of-5); C and M swapped gives 0.16 and 0.26."""
    rgb = render(builds["rgb"] / deck / f"{deck}-cards-a4.pdf")
    cmyk = render(builds["cmyk"] / deck / f"{deck}-cards-cmyk-a4.pdf")
    r, g, b = rgb.split()
    chroma = ImageChops.subtract(ImageChops.lighter(ImageChops.lighter(r, g), b),
                                 ImageChops.darker(ImageChops.darker(r, g), b))
    coloured = chroma.point(lambda v: 255 if v > 60 else 0)
    assert ImageStat.Stat(coloured).mean[0] > 255 * 0.05  # a page with colour on it
    difference = ImageStat.Stat(ImageChops.difference(rgb, cmyk), coloured).mean
    assert sum(difference) / 3 / 255 <= 0.10, difference
