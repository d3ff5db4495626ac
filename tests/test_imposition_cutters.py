"""Cutter profiles (imposition/cutters.py): each vendor's registration marks where its software
looks for them, the area its sheets are laid out in, and profile files.

The expected geometry is written out here from the vendors' own settings, not from the code:
Silhouette Studio's Print & Cut panel, registration mark type 1 at its defaults (inset 10 mm,
length 20 mm, thickness 0.5 mm; a 5 mm filled square top left, L corners top right and bottom
left), its four-point layout for the Cameo 4 and later (an L in each corner), Cricut Design Space's
Print Then Cut image area (6.75 × 9.25 in on Letter and A4, its marks printed by Design Space).
"""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from deckpress.builder.deckbuild import build_deck
from deckpress.builder.plan import Options
from deckpress.errors import DeckError
from deckpress.imposition.cutters import CUTTERS, cutter_named, load_cutter
from deckpress.imposition.document import Marking
from deckpress.units import PAPERS

from .pdfread import drawn_paths
from .test_imposition_marks import filled_boxes, trims

A4, LETTER = PAPERS["a4"], PAPERS["letter"]


def silhouette_type_1(W: float, H: float) -> set[tuple[float, ...]]:
    """Studio's type 1 at its defaults, as its Print & Cut panel draws them (mm, y down)."""
    return {(10, 10, 15, 15),  # the square, 5 mm
            (W - 30, 10, W - 10, 10.5), (W - 10.5, 10, W - 10, 30),  # top right ⌝
            (10, H - 10.5, 30, H - 10), (10, H - 30, 10.5, H - 10)}  # bottom left ⌞


def silhouette_four_point(W: float, H: float) -> set[tuple[float, ...]]:
    """Four L's, one a corner, same inset, length and thickness."""
    return {(10, 10, 30, 10.5), (10, 10, 10.5, 30),
            (W - 30, 10, W - 10, 10.5), (W - 10.5, 10, W - 10, 30),
            (10, H - 10.5, 30, H - 10), (10, H - 30, 10.5, H - 10),
            (W - 30, H - 10.5, W - 10, H - 10), (W - 10.5, H - 30, W - 10, H - 10)}


VENDOR_MARKS = {"silhouette": silhouette_type_1, "silhouette-4": silhouette_four_point,
                "cricut": lambda W, H: set(), "scanncut": lambda W, H: set()}


def rounded(boxes) -> set[tuple[float, ...]]:
    return {tuple(round(v, 2) for v in b) for b in boxes}


@pytest.mark.parametrize("name", sorted(CUTTERS))
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_each_profile_draws_its_vendors_marks(name, paper):
    W, H = PAPERS[paper]
    assert rounded(CUTTERS[name].registration_marks(W, H)) == rounded(VENDOR_MARKS[name](W, H))


@pytest.fixture(scope="module")
def cutter_builds(shared):
    """metronome's cards for each cutter: Silhouette's on A4, Cricut's on Letter and A4, ScanNCut's on A4."""
    CASES = [("silhouette", "a4"), ("silhouette-4", "a4"), ("cricut", "letter"), ("cricut", "a4"), ("scanncut", "a4")]

    def make(out):
        for name, paper in CASES:
            build_deck("metronome", out / f"{name}-{paper}", [paper], ["color"],
                       options=Options(marking=Marking("cutter", cutter=CUTTERS[name], die_line="CutContour")))

    out, _ = shared("cutters", make)
    return {(name, paper): out / f"{name}-{paper}" / "metronome" for name, paper in CASES}


@pytest.mark.parametrize("name, paper", [("silhouette", "a4"), ("silhouette-4", "a4"), ("cricut", "letter"),
                                         ("scanncut", "a4")])
def test_the_printed_marks_are_the_vendors_to_0_01_mm(cutter_builds, name, paper):
    path = cutter_builds[name, paper] / f"metronome-cards-{paper}.pdf"
    expected = rounded(VENDOR_MARKS[name](*PAPERS[paper]))
    for i in range(len(PdfReader(str(path)).pages)):
        found = set(filled_boxes(path, i))
        assert expected <= found, (name, i, expected - found)
        if not expected:  # no marks of its own: nothing filled outside the pieces but the scale bar
            assert all(b[1] > PAPERS[paper][1] - 25 for b in found), found


@pytest.mark.parametrize("name", ["silhouette", "silhouette-4"])
def test_every_piece_and_its_bleed_keeps_1_mm_off_every_mark(cutter_builds, name):
    path = cutter_builds[name, "a4"] / "metronome-cards-a4.pdf"
    marks = VENDOR_MARKS[name](*A4)
    for i in range(len(PdfReader(str(path)).pages)):
        for d in drawn_paths(path, i):
            if d.filled and tuple(round(v, 2) for v in d.box) in rounded(marks):
                continue
            for x0, y0, x1, y1 in trims(path, i):
                b = (x0 - 1.0, y0 - 1.0, x1 + 1.0, y1 + 1.0)  # the bleed, 1 mm
                for m in marks:
                    assert b[2] + 1.0 <= m[0] or m[2] + 1.0 <= b[0] or b[3] + 1.0 <= m[1] or m[3] + 1.0 <= b[1], (b, m)


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_cricut_sheets_keep_inside_6_75_by_9_25_inches_4_mm_apart(cutter_builds, paper):
    W, H = PAPERS[paper]
    x0, y0 = (W - 6.75 * 25.4) / 2, (H - 9.25 * 25.4) / 2
    area = (x0, y0, W - x0, H - y0)
    path = cutter_builds["cricut", paper] / f"metronome-cards-{paper}.pdf"
    first = trims(path, 0)
    assert len(first) == 4  # poker cards: 2 × 2 fit the area (upright; turned, 3)
    for i in range(len(PdfReader(str(path)).pages)):
        boxes = trims(path, i)
        for b in boxes:
            assert area[0] - 1e-6 <= b[0] and b[2] <= area[2] + 1e-6 and area[1] - 1e-6 <= b[1] and b[3] <= area[3] + 1e-6
        for a in boxes:
            for b in boxes:
                if a is not b:
                    assert max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3]) >= 4.0 - 1e-6


def test_scanncut_pieces_print_no_bleed_and_stand_5_mm_apart(cutter_builds):
    path = cutter_builds["scanncut", "a4"] / "metronome-cards-a4.pdf"
    reader = PdfReader(str(path))
    page = reader.pages[0]
    assert page.bleedbox == page.trimbox  # the printed edge is the cut: the scanner finds it
    boxes = trims(path, 0)
    assert len(boxes) >= 6
    for a in boxes:
        for b in boxes:
            if a is not b:
                assert max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3]) >= 5.0 - 1e-6


# --- profile files ------------------------------------------------------------------------------

def test_a_profile_file_changes_a_built_in_one(tmp_path):
    path = tmp_path / "cameo5.yaml"
    path.write_text("based_on: silhouette-4\ntitle: my Cameo 5\ninset: 0.5in\nlength: 15mm\n"
                    "marks: [square top-left, L top-right, L bottom-left, L bottom-right]\narea: 180x250mm\n"
                    "formats: [svg]\n")
    profile = cutter_named(str(path))
    assert (profile.name, profile.title, profile.inset, profile.length, profile.area, profile.formats) == \
        ("cameo5", "my Cameo 5", pytest.approx(12.7), 15.0, (180.0, 250.0), ("svg",))
    W, H = A4
    assert (12.7, 12.7, 17.7, 17.7) in rounded(profile.registration_marks(W, H))  # the square, 12.7 mm in
    assert (W - 12.7 - 15, H - 12.7 - 0.5, W - 12.7, H - 12.7) in \
        {tuple(round(v, 4) for v in b) for b in profile.registration_marks(W, H)}


@pytest.mark.parametrize("text, message", [
    ("based_on: silhouette\ninsett: 12\n", "cameo.yaml:2: unknown key 'insett' in cutter profile — did you mean 'inset'?"),
    ("based_on: cricutt\n", "cameo.yaml:1: based_on must be one of silhouette, silhouette-4, cricut, scanncut, not "
                            "'cricutt' — did you mean 'cricut'?"),
    ("marks:\n  - square top-left\n  - L top-rigth\n", "cameo.yaml:3: a mark is SHAPE CORNER"),
    ("inset: ten\n", "cameo.yaml:1: inset must be a length like 10, 10mm or 0.39in, not 'ten'"),
    ("area: 6.75 by 9.25in\n", "cameo.yaml:1: area must be WIDTHxHEIGHT"),
    ("formats: [svg, pdf]\n", "cameo.yaml:1: formats must be a list of svg, dxf, png, not 'pdf'"),
])
def test_a_mistake_in_a_profile_file_is_one_line_with_its_place(tmp_path, text, message):
    path = tmp_path / "cameo.yaml"
    path.write_text(text)
    with pytest.raises(DeckError) as caught:
        load_cutter(path)
    said = str(caught.value)
    assert "\n" not in said and message in said, said


def test_a_mark_misspelt_suggests_the_corner(tmp_path):
    path = tmp_path / "cameo.yaml"
    path.write_text("marks: [L top-rigth]\n")
    with pytest.raises(DeckError, match="did you mean 'top-right'"):
        load_cutter(path)


def test_an_unknown_cutter_name_suggests_one():
    with pytest.raises(DeckError, match="no cutter named 'silhouete'.*did you mean 'silhouette'"):
        cutter_named("silhouete")


def test_the_docs_example_profile_loads_and_names_every_key(tmp_path):
    import re
    from pathlib import Path

    from deckpress.imposition.cutters import CUTTER_KEYS

    text = (Path(__file__).parents[1] / "docs" / "CUTTING.md").read_text(encoding="utf-8")
    block = re.search(r"```yaml\n(.*?)```", text, re.S)[1]
    path = tmp_path / "my-cutter.yaml"
    path.write_text(block)
    profile = load_cutter(path)
    assert {line.split(":")[0] for line in block.splitlines()} == set(CUTTER_KEYS.key_names)
    assert (profile.inset, len(profile.marks), profile.area) == (15.0, 4, (6.75 * 25.4, 9.25 * 25.4))
