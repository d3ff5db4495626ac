"""`deckpress impose`: ready-made card images on the deck build's sheets, read back from the PDFs."""

from __future__ import annotations

import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from PIL import Image
from pypdf import PdfReader

from deckpress import cli
from deckpress.errors import DeckError
from deckpress.builder.images import card_size, copies, impose_images, natural_key, parse_bleed
from tests.pdfread import backs_behind_fronts, cards_on_grid, check_page_boxes, page_boxes_mm, page_text, xobjects

POKER = (63.5, 88.9)
PAPER = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
PIXELS = (825, 1125)  # 69.5 × 94.9 mm (poker with 3 mm bleed) at 301 dpi
FRONT_COLOURS = [(220, 40, 40), (40, 170, 60), (40, 70, 210), (230, 200, 30), (200, 60, 200),
                 (30, 190, 200), (240, 130, 20), (120, 60, 20), (20, 20, 20), (150, 150, 150)]
BACK_COLOURS = [(255 - r, 255 - g, 255 - b) for r, g, b in FRONT_COLOURS]


def picture(path: Path, colour: tuple[int, int, int], size: tuple[int, int] = PIXELS) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, colour).save(path, quality=95)  # quality only matters to JPEG
    return path


@pytest.fixture(scope="session")
def art(tmp_path_factory):
    """card1 … card10 in fronts/ (JPEG for odd numbers, PNG for even), a back for each in backs/,
    and one common back. Shared: copy before changing."""
    tmp_path = tmp_path_factory.mktemp("art")
    fronts, backs = tmp_path / "fronts", tmp_path / "backs"
    for i, (front, back) in enumerate(zip(FRONT_COLOURS, BACK_COLOURS), start=1):
        picture(fronts / f"card{i}.{'jpg' if i % 2 else 'png'}", front)
        picture(backs / f"card{i}.png", back)
    return fronts, backs, picture(tmp_path / "back.jpg", (60, 40, 110))


DPI = 24


def rendered(path: Path) -> list[Image.Image]:
    pdf = pdfium.PdfDocument(str(path))
    pages = [page.render(scale=DPI / 72).to_pil().convert("RGB") for page in pdf]
    pdf.close()
    return pages


def colour_at(page: Image.Image, point_mm: tuple[float, float]) -> tuple[int, ...]:
    return page.getpixel((round(point_mm[0] / 25.4 * DPI), round(point_mm[1] / 25.4 * DPI)))


def grid_centre(i: int, paper: str, mirrored: bool = False) -> tuple[float, float]:
    """Where the i-th card (0-based) of a page sits on a centred 3 × 3 poker grid."""
    (W, H), (w, h) = PAPER[paper], POKER
    row, col = divmod(i % 9, 3)
    x = (W - 3 * w) / 2 + (col + 0.5) * w
    return (W - x if mirrored else x, (H - 3 * h) / 2 + (row + 0.5) * h)


def near(a, b, tolerance: int = 8) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


@pytest.mark.parametrize("paper", PAPER)
def test_fronts_backs_and_duplex_on_marked_grids(art, tmp_path, paper):
    fronts, _, back = art
    result = impose_images([fronts], tmp_path / "out", back=back, papers=[paper])
    folder = tmp_path / "out" / "imposed"
    names = [f"imposed-{kind}-{paper}.pdf" for kind in ("cards", "backs", "duplex")]
    assert [o.path.name for o in result.outputs] == names
    assert [o.pages for o in result.outputs] == [2, 2, 4]
    assert (result.cards, result.images, list(result.warnings)) == (10, 10, [])
    cards, backs, duplex = (folder / n for n in names)
    assert cards_on_grid(cards, PAPER[paper], POKER) == [9, 1]
    check_page_boxes(cards, PAPER[paper], POKER)
    check_page_boxes(backs, PAPER[paper], POKER)
    behind = backs_behind_fronts(cards, backs, PAPER[paper], POKER)
    assert len({name for names in behind.values() for name in names}) == 1  # one back behind all
    assert PdfReader(duplex).trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/DuplexFlipLongEdge"
    assert f"imposed-duplex-{paper}.pdf · page 2/4 · backs 1" in page_text(duplex, 1)


def test_each_card_shows_its_picture_in_natural_order_and_its_back_behind_it(art, tmp_path):
    fronts, backs, _ = art
    impose_images([fronts], tmp_path, backs_dir=backs, papers=["a4"])
    folder = tmp_path / "imposed"
    cards, backs_pages, duplex = (rendered(folder / f"imposed-{kind}-a4.pdf") for kind in ("cards", "backs", "duplex"))
    for i, (front, back) in enumerate(zip(FRONT_COLOURS, BACK_COLOURS)):  # card10 last, not after card1
        page, behind = i // 9, grid_centre(i, "a4", mirrored=True)
        assert near(colour_at(cards[page], grid_centre(i, "a4")), front), i
        assert near(colour_at(duplex[2 * page], grid_centre(i, "a4")), front), i
        assert near(colour_at(backs_pages[page], behind), back), i
        assert near(colour_at(duplex[2 * page + 1], behind), back), i
    backs_behind_fronts(folder / "imposed-cards-a4.pdf", folder / "imposed-backs-a4.pdf", PAPER["a4"], POKER)


def test_jpegs_are_embedded_byte_for_byte(art, tmp_path):
    fronts, _, back = art
    impose_images([fronts], tmp_path, back=back, papers=["a4"])
    jpegs = {p.read_bytes() for p in [*fronts.glob("*.jpg"), back]}
    for kind in ("cards", "backs", "duplex"):
        images = list(xobjects(PdfReader(tmp_path / "imposed" / f"imposed-{kind}-a4.pdf"), "/Image"))
        embedded = {x._data for x in images if x["/Filter"] in ("/DCTDecode", ["/DCTDecode"])}
        assert embedded <= jpegs
        expected = {"cards": 5, "backs": 1, "duplex": 6}[kind]  # the five odd-numbered fronts, the back
        assert len(embedded) == expected, kind
        assert len(images) == expected + (5 if kind != "backs" else 0)  # each picture once, however often placed


def test_no_back_gives_fronts_only(art, tmp_path):
    fronts, _, _ = art
    result = impose_images(sorted(fronts.glob("*.png")), tmp_path, name="evens", papers=["letter"])
    assert [(o.path.name, o.pages) for o in result.outputs] == [("evens-cards-letter.pdf", 1)]


def test_a_copy_count_in_the_name_makes_that_many_cards_with_the_matching_back(tmp_path):
    goblin = picture(tmp_path / "fronts" / "goblin x3.jpg", FRONT_COLOURS[0])
    picture(tmp_path / "backs" / "goblin.png", BACK_COLOURS[0])
    result = impose_images([goblin], tmp_path / "out", backs_dir=tmp_path / "backs", papers=["a4"])
    assert (result.cards, result.images) == (3, 1)
    # three cards are a page of their own: one row of three, centred
    assert cards_on_grid(result.outputs[0].path, PAPER["a4"], POKER, rows=1) == [3]
    assert copies(Path("a-x12.png")) == ("a", 12) and copies(Path("box2.png")) == ("box2", 1)


def test_a_front_without_its_back_is_an_error_naming_it_unless_there_is_a_common_back(art, tmp_path):
    fronts, backs, back = art
    backs = shutil.copytree(backs, tmp_path / "backs")
    (backs / "card7.png").rename(backs / "card-7.png")
    with pytest.raises(DeckError) as error:
        impose_images([fronts], tmp_path / "out", backs_dir=backs)
    assert str(error.value).endswith("card7.jpg: no back named 'card7' in " + str(backs)
                                     + " — did you mean 'card-7'?")
    assert not (tmp_path / "out").exists()
    result = impose_images([fronts], tmp_path / "out", backs_dir=backs, back=back, papers=["a4"])
    assert len(result.outputs) == 3
    assert [(w.kind, w.message) for w in result.warnings] == [("unused-back", "is the back of no front")]
    # card7 (index 6) falls back to the common back
    page = rendered(tmp_path / "out" / "imposed" / "imposed-backs-a4.pdf")[0]
    assert near(colour_at(page, grid_centre(6, "a4", mirrored=True)), (60, 40, 110))
    assert near(colour_at(page, grid_centre(5, "a4", mirrored=True)), BACK_COLOURS[5])


def test_pictures_that_will_print_badly_are_warned_about_file_first(tmp_path):
    images = [picture(tmp_path / "trim.png", (9, 9, 9), (750, 1050)),  # 2.5 × 3.5 in at 300 dpi, no bleed
              picture(tmp_path / "small.jpg", (9, 9, 9), (412, 562)),
              picture(tmp_path / "wide.png", (9, 9, 9), (1125, 825))]
    result = impose_images(images, tmp_path / "out", papers=["a4"])
    messages = result.warnings.messages
    assert all(m.startswith(str(tmp_path)) for m in messages)
    assert any("trim.png: 750×1050 px has the proportions of the trim" in m and "--make-bleed 3mm" in m
               and "--bleed 0" in m for m in messages)
    assert any("small.jpg: is 412×562 px, printed 69.5×94.9 mm: 150 dpi — may look soft (300 dpi wanted)" in m
               for m in messages)
    assert any("wide.png: 1125×825 px is landscape" in m and "--size 88.9x63.5" in m for m in messages)
    assert not any("trim.png" in m for m in list(impose_images(images[:1], tmp_path / "o2", bleed=0,
                                                                size=(63.5, 88.9), papers=["a4"]).warnings.messages))


def test_without_bleed_the_bleed_box_is_the_trim(tmp_path):
    image = picture(tmp_path / "a.png", FRONT_COLOURS[0], (750, 1050))
    result = impose_images([image] * 2, tmp_path, bleed=0, papers=["a4"])
    assert not result.warnings
    boxes = page_boxes_mm(PdfReader(result.outputs[0].path).pages[0])
    assert boxes["bleedbox"] == pytest.approx(boxes["trimbox"], abs=1e-3)


def test_imposing_twice_gives_byte_identical_files(art, tmp_path):
    fronts, backs, back = art
    first = impose_images([fronts], tmp_path / "one", backs_dir=backs, back=back, papers=["a4"])
    second = impose_images([fronts], tmp_path / "two", backs_dir=backs, back=back, papers=["a4"])
    assert len(first.outputs) == 3
    assert [o.path.read_bytes() for o in first.outputs] == [o.path.read_bytes() for o in second.outputs]


def test_sizes_bleeds_and_order():
    assert card_size("poker") == (63.5, 88.9)
    assert card_size("63x88") == (63.0, 88.0)
    assert card_size("2.5inx3.5in") == pytest.approx((63.5, 88.9))
    assert card_size("63 mm × 8.8cm") == pytest.approx((63.0, 88.0))
    assert parse_bleed("0") == 0 and parse_bleed("0.125in") == pytest.approx(3.175)
    for bad, message in (("pokr", "did you mean 'poker'"), ("63", "WIDTHxHEIGHT"), ("0x3", "greater than zero"),
                         ("10x88", "card size 10 × 88 mm is too small: cards are 20 mm a side or more"),
                         ("250x300", "card size 250 × 300 mm is too big"),
                         ("63x88furlongs", "unknown unit")):
        with pytest.raises(DeckError, match=message):
            card_size(bad)
    with pytest.raises(DeckError, match="cannot be negative"):
        parse_bleed("-1mm")
    names = ["card10.png", "card2.png", "Card1.png", "card2b.png"]
    assert sorted(names, key=lambda n: natural_key(Path(n))) == ["Card1.png", "card2.png", "card2b.png", "card10.png"]


def run(*args):
    return CliRunner().invoke(cli.main, list(args))


def test_cli_imposes_and_says_what_it_wrote(art, tmp_path):
    fronts, backs, _ = art
    result = run("impose", str(fronts), "--backs", str(backs), "--paper", "a4", "--out", str(tmp_path / "o"),
                 "--name", "mine")
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"wrote 3 PDFs (8 pages, 10 cards from 10 images) to {tmp_path / 'o' / 'mine'}/")
    assert sorted(p.name for p in (tmp_path / "o" / "mine").iterdir()) == [
        "mine-backs-a4.pdf", "mine-cards-a4.pdf", "mine-duplex-a4.pdf"]


@pytest.mark.parametrize("make, message", [
    (lambda d: Image.new("RGB", (80, 100)).save(d / "x.ico") or d / "x.ico",
     "x.ico: is in ICO format: pictures are PNG, JPEG, WebP, TIFF, GIF, BMP or PSD (convert it first)"),
    (lambda d: (d / "x.png").write_text("not a picture") and d / "x.png",
     "x.png: cannot read this as an image; impose takes PNG, JPEG, WebP, TIFF, GIF, BMP, PSD, SVG or PDF"),
    (lambda d: d / "missing.png", "missing.png: no such file or folder"),
])
def test_cli_refuses_what_it_cannot_impose_in_one_line_with_exit_2(art, tmp_path, make, message):
    fronts = art[0]
    bad = make(tmp_path)
    out = tmp_path / "o"
    result = run("impose", str(fronts / "card1.jpg"), str(bad), "--out", str(out))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [f"error: {tmp_path}/{message}"]
    assert not out.exists()


def test_a_back_offset_moves_the_back_pages(art, tmp_path):
    from tests.test_backend_pdfpages import moved_backs
    fronts, _, back = art
    for offset, out in (((0.0, 0.0), "plain"), ((0.5, -1.2), "moved")):
        impose_images([fronts], tmp_path / out, back=back, papers=["a4"], back_offset=offset, back_marks=True)
    for kind, backs in (("duplex", 2), ("backs", 2), ("cards", 0)):
        name = f"imposed-{kind}-a4.pdf"
        assert moved_backs(tmp_path / "plain" / "imposed" / name, tmp_path / "moved" / "imposed" / name,
                           (0.5, -1.2)) == backs


def test_a_gap_stands_the_cards_apart_each_with_its_own_bleed(art, tmp_path):
    """--gap: 3 mm between neighbours, and the pictures' bleed shows in the gap (1.5 mm of each), so
    the grid's cut lines are two a gap; nine poker cards still fit A4."""
    from tests.test_imposition_marks import mark_segments, trims

    fronts, _, back = art
    result = impose_images([fronts], tmp_path / "out", back=back, papers=["a4"], gap=3.0)
    cards = result.outputs[0].path
    assert cards_on_grid(cards, PAPER["a4"], POKER, gap=3.0) == [9, 1]
    xs = sorted({round(x, 2) for box in trims(cards, 0) for x in (box[0], box[2])})
    assert len(xs) == 6 and xs[2] - xs[1] == pytest.approx(3.0, abs=0.01)
    marked = {round(a[0], 2) for a, b in mark_segments(cards, 0) if a[0] == b[0]}
    assert set(xs) <= marked  # a crop mark on each card's own cut line
    import pypdfium2 as pdfium
    dpi = 200
    image = pdfium.PdfDocument(str(cards))[0].render(scale=dpi / 72).to_pil().convert("RGB")
    y = (trims(cards, 0)[0][1] + 40) * dpi / 25.4
    for x in (xs[1] + 0.5, xs[2] - 0.5):  # half a millimetre into the gap, either side: picture, not paper
        assert image.getpixel((round(x * dpi / 25.4), round(y))) != (255, 255, 255)


# --- every raster format ----------------------------------------------------------------------------

def format_fronts(folder: Path) -> list[tuple[Path, tuple[int, int, int]]]:
    """card1 … card7, one of each format besides PNG and JPEG (two TIFFs: LZW, and CMYK), each
    its own colour as it prints."""
    from tests.pictureformats import psd, save

    def solid(mode="RGB", colour=None, i=0):
        return Image.new(mode, PIXELS, colour or FRONT_COLOURS[i])

    made = [("card1.webp", save(solid(i=0), "WEBP", lossless=True), FRONT_COLOURS[0]),
            ("card2.tif", save(solid(i=1), "TIFF", compression="tiff_lzw"), FRONT_COLOURS[1]),
            ("card3.gif", save(solid(i=2), "GIF"), FRONT_COLOURS[2]),
            ("card4.bmp", save(solid(i=3), "BMP"), FRONT_COLOURS[3]),
            ("card5.psd", psd(solid(i=4)), FRONT_COLOURS[4]),
            ("card6.tiff", save(solid("CMYK", (0, 0, 255, 0)), "TIFF"), (255, 242, 0)),  # pdfium's yellow
            ("card7.webp", save(solid(i=6), "WEBP", quality=95), FRONT_COLOURS[6])]
    folder.mkdir(parents=True, exist_ok=True)
    for name, data, _ in made:
        (folder / name).write_bytes(data)
    return [(folder / name, colour) for name, _, colour in made]


def test_every_raster_format_imposes_as_its_colours(tmp_path):
    """WebP (lossless and lossy), TIFF (LZW; CMYK, kept in its inks), GIF, BMP and PSD fronts, and a
    PSD back: each card shows its picture, each picture is embedded once at its own pixels."""
    from tests.pictureformats import psd

    fronts = format_fronts(tmp_path / "fronts")
    back = tmp_path / "back.psd"
    back.write_bytes(psd(Image.new("RGB", PIXELS, (60, 40, 110))))
    result = impose_images([tmp_path / "fronts"], tmp_path / "out", back=back, papers=["a4"])
    assert (result.cards, result.images, list(result.warnings)) == (7, 7, [])
    folder = tmp_path / "out" / "imposed"
    cards, backs = rendered(folder / "imposed-cards-a4.pdf"), rendered(folder / "imposed-backs-a4.pdf")
    for i, (path, colour) in enumerate(fronts):
        seen = colour_at(cards[0], grid_centre(i, "a4"))
        assert near(seen, colour), (path.name, seen)
        assert near(colour_at(backs[0], grid_centre(i, "a4", mirrored=True)), (60, 40, 110)), path.name
    embedded = list(xobjects(PdfReader(folder / "imposed-duplex-a4.pdf"), "/Image"))
    assert len(embedded) == 8 and {(x["/Width"], x["/Height"]) for x in embedded} == {PIXELS}
    assert sorted(str(x["/ColorSpace"]) for x in embedded) == ["/DeviceCMYK"] + ["/DeviceRGB"] * 7
    assert not any(x.get("/Filter") in ("/DCTDecode", ["/DCTDecode"]) for x in embedded)  # JPEG only goes in as it is


def test_an_exif_rotation_is_warned_of_where_pdf_ignores_it(tmp_path):
    """A WebP (as a JPEG) turned by its EXIF prints as stored: warned. A TIFF's orientation is
    applied when it is decoded: it prints upright, measured upright, and is not warned of."""
    from tests.pictureformats import save

    exif = Image.Exif()
    exif[0x0112] = 6
    turned = Image.new("RGB", PIXELS[::-1], FRONT_COLOURS[0])  # landscape as stored, portrait as shown
    webp, tiff = tmp_path / "turned.webp", tmp_path / "turned.tif"
    webp.write_bytes(save(turned, "WEBP", exif=exif))
    tiff.write_bytes(save(turned, "TIFF", exif=exif))
    result = impose_images([webp, tiff], tmp_path / "out", papers=["a4"])
    said = [(w.kind, w.file) for w in result.warnings]
    assert ("exif-rotation", str(webp)) in said and not any(file == str(tiff) for _, file in said), said
    widths = {(int(x["/Width"]), int(x["/Height"])) for x in xobjects(PdfReader(result.outputs[0].path), "/Image")}
    assert widths == {PIXELS[::-1], PIXELS}  # the WebP as stored, the TIFF turned upright


def test_a_low_resolution_webp_is_warned_about(tmp_path):
    from tests.pictureformats import save

    small = tmp_path / "small.webp"
    small.write_bytes(save(Image.new("RGB", (412, 562), (9, 9, 9)), "WEBP"))
    messages = impose_images([small], tmp_path / "out", papers=["a4"]).warnings.messages
    assert messages == [f"{small}: is 412×562 px, printed 69.5×94.9 mm: 150 dpi — may look soft (300 dpi wanted)"]


# --- made bleed: --make-bleed ------------------------------------------------------------------------

def trim_art(path: Path, edge: tuple[int, int, int], inside: tuple[int, int, int] = (240, 220, 120)) -> Path:
    """A poker card at 300 dpi that stops at the trim: a band of `edge` (40 px, 3.4 mm) round it."""
    from PIL import ImageDraw

    card = Image.new("RGB", (750, 1050), edge)
    ImageDraw.Draw(card).rectangle([40, 40, 709, 1009], fill=inside)
    path.parent.mkdir(parents=True, exist_ok=True)
    card.save(path)
    return path


def test_make_bleed_mirrors_images_that_stop_at_the_trim_into_the_bleed(tmp_path):
    """Nine trim-sized cards, each with its own band round its edge; the command line's
    --make-bleed 3mm grows each into 3 mm of bleed where it has no neighbour (1.5 mm out: the band,
    mirrored), and says nothing of their proportions; without it, the bleed is paper."""
    from tests.pdfread import trim_box_mm, placements

    fronts = [trim_art(tmp_path / "fronts" / f"card{i}.png", colour) for i, colour in enumerate(FRONT_COLOURS[:9], 1)]
    made = run("impose", str(tmp_path / "fronts"), "--make-bleed", "3mm", "--paper", "a4", "--out", str(tmp_path / "o"))
    assert made.exit_code == 0, made.output
    assert "warning" not in made.output
    plain = impose_images(fronts, tmp_path / "plain", bleed=0, papers=["a4"])
    assert not plain.warnings
    dpi = 150
    for out, bled in ((tmp_path / "o" / "imposed" / "imposed-cards-a4.pdf", True), (plain.outputs[0].path, False)):
        reader = PdfReader(out)
        boxes = page_boxes_mm(reader.pages[0])
        assert (boxes["bleedbox"][0] == pytest.approx(boxes["trimbox"][0] - 3, abs=0.01)) is bled
        trims = [trim_box_mm(p, *POKER, float(reader.pages[0].mediabox.height)) for p in placements(reader.pages[0])]
        page = pdfium.PdfDocument(str(out))[0].render(scale=dpi / 72).to_pil().convert("RGB")
        at = lambda x, y: page.getpixel((round(x / 25.4 * dpi), round(y / 25.4 * dpi)))  # noqa: E731
        first, last = trims[0], trims[8]
        outside = [at(first[0] - 1.5, first[1] + 40), at(first[0] + 30, first[1] - 1.5), at(first[0] - 1.5, first[1] - 1.5),
                   at(last[2] + 1.5, last[1] + 40), at(last[0] + 30, last[3] + 1.5)]
        if bled:
            assert all(near(c, FRONT_COLOURS[0]) for c in outside[:3]), outside
            assert all(near(c, FRONT_COLOURS[8]) for c in outside[3:]), outside
        else:
            assert all(c == (255, 255, 255) for c in outside), outside
        assert near(at(first[0] + 30, first[1] + 40), (240, 220, 120))
        # the picture covers the trim, not the bleed: its 3.4 mm band reaches 3.2 mm in, not 3.6 mm
        assert near(at(first[0] + 3.2, first[1] + 40), FRONT_COLOURS[0])
        assert near(at(first[0] + 3.6, first[1] + 40), (240, 220, 120))
    embedded = list(xobjects(PdfReader(tmp_path / "o" / "imposed" / "imposed-cards-a4.pdf"), "/Image"))
    assert len(embedded) == 9  # each picture once, its mirrored copies placing it again


def test_proportions_say_when_an_image_has_bleed_or_has_none(tmp_path):
    trim = picture(tmp_path / "trim.png", (9, 9, 9), (750, 1050))  # poker at 300 dpi: no bleed
    bled = picture(tmp_path / "bled.png", (9, 9, 9), PIXELS)  # poker with 3 mm of bleed
    eighth = picture(tmp_path / "eighth.png", (9, 9, 9), (838, 1143))  # 1/8 in, within a pixel of 3 mm's proportions
    said = {w.file: (w.kind, w.message) for w in impose_images([trim], tmp_path / "a", papers=["a4"]).warnings
            if w.kind != "low-resolution"}
    assert said == {str(trim): ("no-bleed", "750×1050 px has the proportions of the trim: looks like it has no "
                                            "bleed; use --make-bleed 3mm to make it (or --bleed 0 to print it without)")}
    for made in (None, 3.0, 5.0):
        warned = {w.file: (w.kind, w.message) for w in impose_images([trim, bled, eighth], tmp_path / "b", bleed=0,
                                                                       make_bleed=made, papers=["a4"]).warnings}
        instead = " instead of --make-bleed" if made else ""
        assert warned == {str(path): ("has-bleed", f"{w}×{h} px has the proportions of the card with 3 mm of bleed: "
                                                   f"looks like it has bleed already; use --bleed 3mm{instead}")
                          for path, (w, h) in ((bled, PIXELS), (eighth, (838, 1143)))}
    five = picture(tmp_path / "five.png", (9, 9, 9), (868, 1168))  # 73.5 × 98.9 mm: the 5 mm being made
    warned = impose_images([five], tmp_path / "c", bleed=0, make_bleed=5.0, papers=["a4"]).warnings
    assert [w.message for w in warned if w.kind == "has-bleed"] == [
        "868×1168 px has the proportions of the card with 5 mm of bleed: looks like it has bleed already; "
        "use --bleed 5mm instead of --make-bleed"]


def test_bleed_and_make_bleed_are_one_or_the_other(tmp_path):
    image = trim_art(tmp_path / "a.png", (200, 30, 30))
    result = run("impose", str(image), "--bleed", "3mm", "--make-bleed", "3mm", "--out", str(tmp_path / "o"))
    assert result.exit_code == 2 and result.stderr.splitlines() == [
        "error: --bleed says how much bleed the images have, --make-bleed makes it for images that have none: "
        "give one of them"]
    assert not (tmp_path / "o").exists()
    assert run("impose", str(image), "--bleed", "0", "--make-bleed", "0.125in", "--paper", "a4",
               "--out", str(tmp_path / "o")).exit_code == 0


# --- vector card images: an SVG, every page of a PDF -------------------------------------------------

ARTDECK_ART = Path(__file__).parent / "data" / "artdeck" / "art"


def test_every_page_of_a_pdf_is_a_card_and_an_svg_is_one_matched_to_its_back_by_name(tmp_path):
    fronts, backs = tmp_path / "fronts", tmp_path / "backs"
    fronts.mkdir(), backs.mkdir()
    shutil.copy(ARTDECK_ART / "frames.pdf", fronts / "deck.pdf")  # two pages: "one", "two"
    shutil.copy(ARTDECK_ART / "icon.svg", fronts / "star.svg")
    for name, colour in (("deck-1", "#aa0000"), ("deck-2", "#00aa00"), ("star", "#0000aa")):
        (backs / f"{name}.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg' width='180' height='252'>"
                                           f"<rect width='180' height='252' fill='{colour}'/></svg>")
    result = impose_images([fronts], tmp_path / "out", backs_dir=backs, bleed=0.0, papers=["a4"])
    assert result.cards == 3 and result.images == 3
    cards_pdf = tmp_path / "out" / "imposed" / "imposed-cards-a4.pdf"
    text = PdfReader(str(cards_pdf)).pages[0].extract_text()
    assert "one" in text and "two" in text  # both pages, vector: their words extract
    page = pdfium.PdfDocument(str(tmp_path / "out" / "imposed" / "imposed-backs-a4.pdf"))[0]
    picture = page.render(scale=30 / 72).to_pil().convert("RGB")
    found = {colour for _, colour in picture.getcolors(1 << 20) if max(colour) > 150 and min(colour) < 30}
    assert {(170, 0, 0), (0, 170, 0), (0, 0, 170)} <= found  # each card's own back


def test_a_broken_pdf_or_svg_card_is_refused_before_anything_is_written(tmp_path):
    broken = tmp_path / "cards.pdf"
    broken.write_bytes(b"%PDF-1.4\n1 0 obj << /Type /Catalog")
    with pytest.raises(DeckError, match="cards.pdf.*(not a PDF that can be read|no page)"):
        impose_images([broken], tmp_path / "out", papers=["a4"])
    svg = tmp_path / "card.svg"
    svg.write_text("<svg xmlns='http://www.w3.org/2000/svg'><circle r='3'")
    with pytest.raises(DeckError, match="card.svg.*not well-formed SVG"):
        impose_images([svg], tmp_path / "out", papers=["a4"])
    assert not (tmp_path / "out").exists()
