"""The factory preset: a PDF/X file per component, each card side a page with 3 mm bleed, CMYK
within the ink limit, and each piece's cut path as a die line in a spot colour."""

from __future__ import annotations

import re

import pikepdf
import pytest
from pypdf import PdfReader

import deckpress
from deckpress.errors import DeckError
from tests.conftest import SIMPLE_DECK, SIMPLE_LAYOUT
from tests.iccprofile import write_profile
from tests.pdfread import colour_operators, fonts, page_boxes_mm, placements, rgb_left
from tests.test_build_drivethru import assert_pdf_x1a

BLEED = 3.0
TAROT = SIMPLE_DECK.replace("layouts: [simple]", "card: tarot\n    layouts: [simple]") + """
      - name: tokens
        front: front
        back: back
        size: 30x30
        shape: circle
        cards:
          - {title: Tok, count: 3}
"""


@pytest.fixture(scope="module")
def profile(tmp_path_factory):
    return write_profile(tmp_path_factory.mktemp("icc") / "press.icc")


@pytest.fixture
def tarot(make_deck):
    return make_deck(TAROT, {"simple": SIMPLE_LAYOUT})


def cut_contour(path, index: int) -> tuple[list[tuple[float, float]], bool]:
    """The points the die line's path passes through on page `index` (pt: each segment's end), and whether it was
    drawn in the CutContour separation, overprinting: read with pikepdf from the content stream."""
    with pikepdf.open(path) as pdf:
        page = pdf.pages[index]
        spaces = page.Resources.get("/ColorSpace", {})
        separations = {name for name, cs in spaces.items()
                       if isinstance(cs, pikepdf.Array) and cs[0] == "/Separation" and cs[1] == "/CutContour"}
        states = page.Resources.get("/ExtGState", {})
        points: list[tuple[float, float]] = []
        inside, overprint = False, False
        for operands, op in pikepdf.parse_content_stream(page):
            op = str(op)
            if op == "Q":  # a state restored: what was set inside it no longer holds
                overprint = False
            elif op == "CS":
                inside = str(operands[0]) in separations
            elif op == "gs" and inside is False:
                state = states.get(str(operands[0]))
                overprint = overprint or bool(state is not None and state.get("/OP"))
            elif inside and op in ("m", "l", "c"):  # the points on the path, not a curve's handles
                nums = [float(v) for v in operands]
                points.append((nums[-2], nums[-1]))
            elif inside and op in ("S", "s"):
                return points, overprint
        return points, overprint


def assert_pdf_x4(path, profile: bytes) -> None:
    """What can be checked of PDF/X-4 without a preflight tool (ISO 15930-7): version 1.6, the
    markers in the info dictionary and in XMP alike, an output intent with the press profile
    embedded, TrimBox and BleedBox on every page, nothing but CMYK, every font embedded, optional
    content without /AS, no encryption, and a file libqpdf reads without a complaint."""
    reader = PdfReader(path)
    assert reader.pdf_header == "%PDF-1.6" and reader.trailer["/Root"]["/Version"] == "/1.6"
    assert not reader.is_encrypted
    info = reader.metadata
    assert info["/GTS_PDFXVersion"] == "PDF/X-4" and info["/Trapped"] == "/False"
    assert info["/Title"] and info["/CreationDate"].startswith("D:") and info["/ModDate"].startswith("D:")
    xmp = reader.trailer["/Root"]["/Metadata"].get_object()
    assert xmp["/Subtype"] == "/XML"
    text = xmp.get_data().decode("utf-8")
    assert "<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>" in text
    assert "<pdf:Trapped>False</pdf:Trapped>" in text and "<xmpMM:DocumentID>uuid:" in text
    assert "<xmp:CreateDate>2000-01-01T00:00:00Z</xmp:CreateDate>" in text  # the info dictionary's date
    intent, = reader.trailer["/Root"]["/OutputIntents"]
    assert intent["/S"] == "/GTS_PDFX" and intent["/OutputConditionIdentifier"] == "Custom" and intent["/Info"]
    embedded = intent["/DestOutputProfile"].get_object()
    assert embedded["/N"] == 4 and embedded.get_data() == profile
    ocp = reader.trailer["/Root"].get("/OCProperties")
    if ocp is not None:
        assert "/AS" not in ocp["/D"] and ocp["/D"]["/Name"]
        assert len(ocp["/D"]["/Order"]) == len(ocp["/OCGs"])
    for page in reader.pages:
        boxes = page_boxes_mm(page)
        media, bleed, trim = boxes["mediabox"], boxes["bleedbox"], boxes["trimbox"]
        assert media[0] <= bleed[0] <= trim[0] < trim[2] <= bleed[2] <= media[2]
    assert rgb_left(path) == []
    assert all(fonts(reader).values())
    with pikepdf.Pdf.open(path) as pdf:
        assert pdf.check_pdf_syntax() == []


def test_a_tarot_deck_gets_a_pdf_x4_file_per_component(tarot, tmp_path, profile):
    result, = deckpress.build(tarot, tmp_path, formats=(), preset="factory", icc=profile)
    folder = tmp_path / "simple"
    things, tokens = folder / "simple-factory-things.pdf", folder / "simple-factory-tokens.pdf"
    assert [o.path for o in result.outputs] == [things, tokens]
    for path in (things, tokens):
        assert_pdf_x4(path, profile.read_bytes())
    # each card side a page, front then back, every copy: One ×2, Two; Tok ×3
    reader = PdfReader(things)
    assert len(reader.pages) == 2 * 3
    forms = [[p.name for p in placements(page)] for page in reader.pages]
    assert all(len(f) == 1 for f in forms) and forms[0] == forms[2] != forms[4] and forms[1] == forms[3] == forms[5]
    for page in reader.pages:  # 70×120 mm and 3 mm all round, to a hundredth of a millimetre
        boxes = page_boxes_mm(page)
        assert boxes["mediabox"] == pytest.approx((0, 0, 70 + 2 * BLEED, 120 + 2 * BLEED), abs=0.01)
        assert boxes["bleedbox"] == pytest.approx(boxes["mediabox"], abs=0.01)
        assert boxes["trimbox"] == pytest.approx((BLEED, BLEED, BLEED + 70, BLEED + 120), abs=0.01)
    assert len(PdfReader(tokens).pages) == 2 * 3
    assert page_boxes_mm(PdfReader(tokens).pages[0])["trimbox"] == pytest.approx((3, 3, 33, 33), abs=0.01)


def test_every_page_has_its_die_line_in_the_cutcontour_separation(tarot, tmp_path, profile):
    """A card's die line is its rounded trim; a round token's is its circle (the outline, not the
    square trim): stroked in a Separation named CutContour, overprinting, on every page."""
    deckpress.build(tarot, tmp_path, formats=(), preset="factory", icc=profile)
    mm = 72 / 25.4
    things = tmp_path / "simple" / "simple-factory-things.pdf"
    for index in range(len(PdfReader(things).pages)):
        points, overprint = cut_contour(things, index)
        xs, ys = [x / mm for x, _ in points], [y / mm for _, y in points]
        assert overprint and (min(xs), max(xs)) == pytest.approx((BLEED, BLEED + 70), abs=0.01)
        assert (min(ys), max(ys)) == pytest.approx((BLEED, BLEED + 120), abs=0.01)
        corner = min(((x - BLEED) ** 2 + (y - BLEED) ** 2) ** 0.5 for x, y in zip(xs, ys))
        assert corner > 1.0  # the corner is rounded (tarot's 4 mm radius): no point at the trim's corner
    tokens = tmp_path / "simple" / "simple-factory-tokens.pdf"
    points, _ = cut_contour(tokens, 0)
    centre = (BLEED + 15) * mm
    radii = [((x - centre) ** 2 + (y - centre) ** 2) ** 0.5 / mm for x, y in points]
    assert len(radii) >= 4 and radii == pytest.approx([15] * len(radii), abs=0.01)  # on the circle, not its square
    raw = things.read_bytes()
    assert b"/Separation /CutContour /DeviceCMYK" in raw


def test_total_ink_stays_within_300_percent(tarot, tmp_path, profile):
    """Every colour the pages set is CMYK (or grey), none over the 300 % factories allow: the
    formula's 200 %, and the test profile (no black generation) at its own limit."""
    for given in (None, profile):
        out = tmp_path / ("icc" if given else "formula")
        deckpress.build(tarot, out, formats=(), preset="factory", icc=given, pdfx="4" if given else "1a")
        for path in (out / "simple").glob("simple-factory-*.pdf"):
            ops, colours = colour_operators(PdfReader(path))
            assert not set(ops) & {b"rg", b"RG"}
            cmyk = [c for c in colours if len(c) == 4]
            assert cmyk and max(sum(c) for c in cmyk) <= 3.0 + 1e-6
            if given is None:
                assert max(sum(c) for c in cmyk) <= 2.0 + 1e-6


def test_pdfx_1a_gives_the_drivethru_checks_and_a_die_line_without_layers(tarot, tmp_path):
    result, = deckpress.build(tarot, tmp_path, formats=(), preset="factory", pdfx="1a", die_line="Die")
    for output in result.outputs:
        assert_pdf_x1a(output.path)
        raw = output.path.read_bytes()
        assert b"/Separation /Die /DeviceCMYK" in raw and b"/OCProperties" not in raw and b"/OC " not in raw


def test_pdf_x4_keeps_transparency_that_x1a_flattens(make_deck, tmp_path, profile):
    layout = SIMPLE_LAYOUT.replace('          - text: {text: "{title}"',
                                   '          - rect: {x: 10mm, y: 50mm, w: 20mm, h: 20mm, fill: blue, opacity: 50%}\n'
                                   '          - text: {text: "{title}"')
    folder = make_deck(SIMPLE_DECK, {"simple": layout})
    result, = deckpress.build(folder, tmp_path / "x4", formats=(), preset="factory", icc=profile)
    raw = result.outputs[0].path.read_bytes()
    assert b"/S /Transparency" in raw and not [m for m in result.warnings.messages if "transparency" in m]
    result, = deckpress.build(folder, tmp_path / "x1a", formats=(), preset="factory", pdfx="1a")
    assert_pdf_x1a(result.outputs[0].path)
    assert any("printed as pictures" in m and "PDF/X-1a" in m for m in result.warnings.messages)


def test_pdf_x4_needs_the_press_profile_and_pdfx_needs_the_preset(tarot, tmp_path):
    with pytest.raises(DeckError, match=r"^--preset factory writes PDF/X-4, which embeds the press's output "
                                        r"profile: give the factory's with --icc FILE, or .* --pdfx 1a$"):
        deckpress.build(tarot, tmp_path, formats=(), preset="factory")
    with pytest.raises(DeckError, match="--pdfx chooses the PDF/X of a factory's files"):
        deckpress.build(tarot, tmp_path, formats=(), preset="drivethru", pdfx="1a")
    assert not (tmp_path / "simple").exists() or not list((tmp_path / "simple").glob("*factory*"))


def test_the_same_deck_gives_the_same_bytes(tarot, tmp_path, profile):
    a, = deckpress.build(tarot, tmp_path / "a", formats=(), preset="factory", icc=profile)
    b, = deckpress.build(tarot, tmp_path / "b", formats=(), preset="factory", icc=profile)
    assert [o.path.read_bytes() for o in a.outputs] == [o.path.read_bytes() for o in b.outputs]
    assert re.search(rb"/GTS_PDFXVersion \(PDF/X-4\)", a.outputs[0].path.read_bytes())
