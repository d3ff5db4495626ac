"""The DriveThruCards preset: one CMYK page per card side, trim plus 1/8 in bleed, no marks."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

import deckpress
from deckpress.builder.plan import Options
from deckpress.model import load_deck
from tests.pdfread import MM, fonts, page_boxes_mm, page_text, placements, rgb_left, text_colours

EIGHTH = 25.4 / 8


@pytest.fixture(scope="module")
def metronome(shared_build):
    out, result = shared_build("drivethru", "metronome", options=Options(formats=(), preset="drivethru"))
    result.deck = load_deck("metronome")
    return out / "metronome" / "metronome-drivethru.pdf", result


def test_one_page_per_card_side_front_then_back(metronome):
    path, result = metronome
    assert [o.path for o in result.outputs] == [path]
    reader = PdfReader(path)
    assert len(reader.pages) == 2 * result.deck.card_count() == 2 * 81
    # each page shows exactly one face; every card's back is the page after its front
    forms = [[p.name for p in placements(page)] for page in reader.pages]
    assert all(len(f) == 1 for f in forms)
    backs = {f[0] for f in forms[1::2]}
    fronts = {f[0] for f in forms[0::2]}
    # the deck's back, and for the staff and rule cards, printed without one, a quiet back each
    # that says what they are (as in Tabletop Simulator); none is left white
    assert not backs & fronts and len(backs) == 3 < len(fronts)
    back_words = [" ".join(page_text(path, i).split()) for i in range(1, len(reader.pages), 2)]
    assert all(back_words), "every back has something on it"
    assert back_words.count("metronome staff") == 6 and back_words.count("metronome rules") == 12


def test_pages_are_trim_plus_an_eighth_inch_with_boxes(metronome):
    path, _ = metronome
    for page in PdfReader(path).pages[:6]:
        boxes = page_boxes_mm(page)
        assert boxes["mediabox"] == pytest.approx((0, 0, 63.5 + 2 * EIGHTH, 88.9 + 2 * EIGHTH), abs=0.01)
        assert boxes["bleedbox"] == pytest.approx(boxes["mediabox"], abs=0.01)
        assert boxes["trimbox"] == pytest.approx((EIGHTH, EIGHTH, EIGHTH + 63.5, EIGHTH + 88.9), abs=0.01)
        placed, = placements(page)
        assert (placed.matrix[4] / MM, placed.matrix[5] / MM) == pytest.approx((EIGHTH, EIGHTH + 88.9), abs=0.01)


def test_no_marks_no_label_and_no_rgb(metronome):
    path, _ = metronome
    text = page_text(path, 0)
    assert "print at 100" not in text and "page 1/" not in text and "whole note" in text
    assert rgb_left(path) == []
    colours = text_colours(PdfReader(path))
    assert (0, 0, 0, 1) in colours or (0.0, 0.0, 0.0, 1.0) in colours
    assert all(c[:3] == (0, 0, 0) for c in colours if c[3] >= 0.8)  # dark text: black ink alone


def test_boards_and_pawns_are_left_out_with_a_word(tmp_path):
    result, = deckpress.build("test-piece", tmp_path, formats=(), preset="drivethru")
    reader = PdfReader(tmp_path / "test-piece" / "test-piece-drivethru.pdf")
    assert len(reader.pages) == 2 * (36 + 10)  # instrument cards and rule cards
    # the rule cards' backs: the deck's title and "rules", not blank white (issue 36)
    assert [" ".join(page_text(tmp_path / "test-piece" / "test-piece-drivethru.pdf", i).split())
            for i in range(73, 92, 2)] == ["Test Piece rules"] * 10
    assert any("left out of the DriveThruCards file" in w for w in result.warnings.messages)


# --- PDF/X-1a:2003 ---------------------------------------------------------------------------------

def assert_pdf_x1a(path, profile: bytes | None = None) -> None:
    """What can be checked of PDF/X-1a:2003 without Acrobat's preflight (print-specs.md §5, §7): the
    markers, the output intent (SWOP's registered name, or the embedded `profile` the file was
    separated with), boxes on every page, nothing but CMYK and grey, every font embedded, no
    transparency of any kind, and a file libqpdf reads without a complaint."""
    import re

    import pikepdf

    reader = PdfReader(path)
    assert reader.pdf_header <= "%PDF-1.4"
    info = reader.metadata
    assert info["/GTS_PDFXVersion"] == "PDF/X-1a:2003" and info["/Trapped"] == "/False"
    assert info["/Title"] and info["/CreationDate"].startswith("D:") and info["/ModDate"].startswith("D:")
    intent, = reader.trailer["/Root"]["/OutputIntents"]
    assert intent["/S"] == "/GTS_PDFX"
    if profile is None:
        assert intent["/OutputConditionIdentifier"] == "CGATS TR 001" and "/DestOutputProfile" not in intent
        assert intent["/RegistryName"] == "http://www.color.org"  # a registered characterisation: no profile needed
    else:
        embedded = intent["/DestOutputProfile"].get_object()
        assert embedded["/N"] == 4 and embedded.get_data() == profile
        assert intent["/OutputConditionIdentifier"] == "Custom" and intent["/Info"]
    assert len(reader.trailer["/ID"]) == 2
    for page in reader.pages:
        boxes = page_boxes_mm(page)
        media, bleed, trim = boxes["mediabox"], boxes["bleedbox"], boxes["trimbox"]
        assert media[0] <= bleed[0] <= trim[0] < trim[2] <= bleed[2] <= media[2]
    assert rgb_left(path) == []
    assert all(fonts(reader).values())
    raw = path.read_bytes()
    assert not re.search(rb"/SMask|/S /Transparency|/BM /(?!Normal)", raw)
    for state in re.findall(rb"/(?:ca|CA) ([0-9.]+)", raw):
        assert float(state) == 1.0, state
    with pikepdf.Pdf.open(path) as pdf:  # libqpdf's check: what `qpdf --check` reports
        assert pdf.check_pdf_syntax() == []


def test_the_drivethrucards_file_is_pdf_x1a(metronome):
    path, _ = metronome
    assert_pdf_x1a(path)


def test_faces_with_transparency_are_flattened_into_pictures(make_deck, tmp_path):
    """PDF/X-1a allows no transparency: an element's opacity, translucent SVG art and a picture with
    alpha each make their card side one opaque picture in the DriveThruCards file, which looks as the
    card does on the sheet; the other sides stay vector, their text searchable."""
    import base64
    import io

    import pypdfium2 as pdfium
    from PIL import Image as PILImage

    from tests.conftest import SIMPLE_DECK, SIMPLE_LAYOUT
    from tests.translucency import ART

    buffer = io.BytesIO()
    PILImage.new("RGBA", (20, 20), (0, 80, 200, 120)).save(buffer, format="PNG")
    layout = SIMPLE_LAYOUT.replace(
        '          - text: {text: "{title}"',
        '          - image: {src: "{art}", x: 5mm, y: 30mm, w: 50mm, h: 10mm, when: {art: {set: true}}}\n'
        '          - rect: {x: 10mm, y: 50mm, w: 20mm, h: 20mm, fill: blue, opacity: "{fade}"}\n'
        '          - text: {text: "{title}"').replace("fields: {title: ~, color: red}",
                                                      "fields: {title: ~, color: red, art: '', fade: 1}")
    deck = SIMPLE_DECK.replace("""          - {title: One, count: 2}
          - {title: Two, color: blue}""", """          - {title: One, count: 2}
          - {title: Two, color: blue}
          - {title: Three, art: art.svg}
          - {title: Four, art: halo.png}
          - {title: Five, fade: 50%}""")
    folder = make_deck(deck, {"simple": layout}, {"art.svg": ART.encode(), "halo.png": buffer.getvalue()})
    result, = deckpress.build(folder, tmp_path, papers="a4", inks="color", preset="drivethru")
    path = tmp_path / "simple" / "simple-drivethru.pdf"
    assert_pdf_x1a(path)
    assert any("3 card sides with transparency" in w and "600 dpi" in w for w in result.warnings.messages)
    pdf = pdfium.PdfDocument(str(path))
    texts = [pdf[i].get_textpage().get_text_range() for i in range(0, len(pdf), 2)]
    assert texts[:3] == ["One", "One", "Two"] and texts[3:] == ["", "", ""]  # the flattened three are pictures
    # the faded square shows, half blue over the card's pale red: bluer and darker than the ground
    # beside it, lighter than solid blue (whose red is near 0)
    page = pdf[10].render(scale=4).to_pil().convert("RGB")  # Five's front
    at = lambda x, y: page.getpixel((round((EIGHTH + x) * 4 * 72 / 25.4), round((EIGHTH + y) * 4 * 72 / 25.4)))  # noqa: E731
    square, ground = at(20, 60), at(40, 60)
    assert square[2] - square[0] > ground[2] - ground[0] + 20 and sum(square) < sum(ground) - 60
    assert square[0] > 80, square
