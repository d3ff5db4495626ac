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


# --- --icc: a print shop's own profile ------------------------------------------------------------

@pytest.fixture(scope="module")
def press_profile(tmp_path_factory):
    from tests.iccprofile import write_profile

    return write_profile(tmp_path_factory.mktemp("icc") / "press.icc")


@pytest.fixture
def pictured_deck(make_deck):
    """The simple deck with a black picture on every front, its back a dark blue-grey."""
    import io

    from tests.conftest import SIMPLE_DECK, SIMPLE_LAYOUT

    buffer = io.BytesIO()
    Image.new("RGB", (40, 20), (0, 0, 0)).save(buffer, format="PNG")
    layout = SIMPLE_LAYOUT.replace('          - text: {text: "{title}"',
                                   '          - image: {src: black.png, x: 5mm, y: 30mm, w: 40mm, h: 20mm}\n'
                                   '          - text: {text: "{title}"')
    return make_deck(SIMPLE_DECK, {"simple": layout}, {"black.png": buffer.getvalue()})


def pictures(path) -> list[Image.Image]:
    import pikepdf
    from pikepdf import PdfImage

    with pikepdf.open(path) as pdf:
        return [PdfImage(o).as_pil_image() for o in pdf.objects
                if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]


def test_an_icc_profile_separates_colours_and_pictures_and_keeps_text_black_ink(pictured_deck, press_profile,
                                                                                  tmp_path):
    """The test profile has no black generation: its dark colours and black pictures are C, M and Y,
    where the formula puts black ink; text stays black ink only either way."""
    built = {}
    for how, icc in (("formula", None), ("icc", press_profile)):
        deckpress.build(pictured_deck, tmp_path / how, papers="a4", inks="color", color="cmyk", icc=icc)
        built[how] = tmp_path / how / "simple" / "simple-duplex-cmyk-a4.pdf"
    from deckpress.colors import parse_hex
    from deckpress.separation import FORMULA, load_profile

    back = parse_hex("#223344")
    for how, path in built.items():
        assert rgb_left(path) == []
        reader = PdfReader(path)
        separation = FORMULA if how == "formula" else load_profile(press_profile)
        ink = separation.color(back)
        # the back's ground, as that separation makes it
        assert (ink.c, ink.m, ink.y, ink.k) in colour_operators(reader)[1]
        picture, = pictures(path)
        assert picture.mode == "CMYK"
        black = picture.getpixel((0, 0))
        if how == "formula":
            assert ink.k > 0.7 and black == (0, 0, 0, 255)
        else:
            assert ink.k == 0 and min(ink.c, ink.m, ink.y) > 0.5
            assert black[3] == 0 and min(black[:3]) > 240
        assert (0.0, 0.0, 0.0, 1.0) in text_colours(reader)
    again = tmp_path / "again"
    deckpress.build(pictured_deck, again, papers="a4", inks="color", color="cmyk", icc=press_profile)
    assert (again / "simple" / "simple-duplex-cmyk-a4.pdf").read_bytes() == built["icc"].read_bytes()


def test_a_drivethru_file_separated_by_a_profile_embeds_it_as_its_output_intent(pictured_deck, press_profile,
                                                                                 tmp_path):
    from tests.test_build_drivethru import assert_pdf_x1a

    deckpress.build(pictured_deck, tmp_path, preset="drivethru", icc=press_profile)
    assert_pdf_x1a(tmp_path / "simple" / "simple-drivethru.pdf", press_profile.read_bytes())


@pytest.mark.parametrize("args, said", [
    (["--ink", "color"], "an ICC profile separates CMYK files: give it with --color cmyk or a print shop's "
                         "--preset (drivethru, drivethru-box or factory)"),
    (["--color", "cmyk", "--icc", "missing.icc"], "missing.icc: cannot read the ICC profile"),
])
def test_icc_mistakes_are_one_line_and_status_2(pictured_deck, press_profile, tmp_path, args, said):
    from click.testing import CliRunner

    from deckpress.cli import main

    args = [*args, "--icc", str(press_profile)] if "--icc" not in args else args
    result = CliRunner().invoke(main, ["build", str(pictured_deck), "--out", str(tmp_path / "out"), *args])
    assert result.exit_code == 2, result.output
    assert said in result.output and result.output.count("\n") == 1 and "Traceback" not in result.output
    assert not (tmp_path / "out").exists()
