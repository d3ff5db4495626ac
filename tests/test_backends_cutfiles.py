"""Cut files per cutter (backends/cutfiles.py, backends/svg.py `write_cut_file`, builder/jobs.py
`write_cut_files`): each front page's files in the formats its cutter's software imports, in
millimetres, their paths on the pieces' trims as the PDF places them (to 0.05 mm)."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest
from PIL import Image
from pypdf import PdfReader

from deckpress.backends.cutfiles import FLATNESS, dxf_text, flattened
from deckpress.imposition.cutpaths import rounded
from deckpress.units import PAPERS

from .test_imposition_cutters import cutter_builds  # noqa: F401  (the fixture)
from .test_imposition_marks import trims


def fronts(folder, paper: str) -> int:
    return len(PdfReader(str(folder / f"metronome-cards-{paper}.pdf")).pages)


def dxf_pairs(text: str) -> list[tuple[int, str]]:
    """A DXF's (group code, value) pairs, read as the format is: two lines a pair."""
    lines = text.splitlines()
    assert len(lines) % 2 == 0
    return [(int(lines[i].strip()), lines[i + 1].strip()) for i in range(0, len(lines), 2)]


def dxf_polylines(text: str) -> tuple[dict[str, int], list[tuple[bool, list[tuple[float, float]]]]]:
    """The header's integer variables and each POLYLINE (closed?, its vertices)."""
    pairs = dxf_pairs(text)
    header, polylines = {}, []
    variable = None
    current = None
    for k, (code, value) in enumerate(pairs):
        if code == 9:
            variable = value
        elif code == 70 and variable and current is None:
            header[variable] = int(value)
            variable = None
        elif code == 0 and value == "POLYLINE":
            current = [False, []]
            polylines.append(current)
        elif code == 70 and current is not None and not current[1]:
            current[0] = bool(int(value) & 1)
        elif code == 0 and value == "VERTEX":
            current[1].append([None, None])
        elif code in (10, 20) and current is not None and current[1]:
            current[1][-1][code // 10 - 1] = float(value)
        elif code == 0 and value == "SEQEND":
            current = None
    return header, [(closed, [tuple(v) for v in vertices]) for closed, vertices in polylines]


def box_of(points) -> tuple[float, float, float, float]:
    return (min(x for x, _ in points), min(y for _, y in points), max(x for x, _ in points), max(y for _, y in points))


def matched(boxes, expected, tol=0.05) -> None:
    assert len(boxes) == len(expected)
    for a, b in zip(sorted(boxes, key=lambda b: (round(b[1]), b[0])), sorted(expected, key=lambda b: (round(b[1]), b[0]))):
        assert a == pytest.approx(b, abs=tol)


def test_a_flattened_corner_stays_on_its_circle():
    (ring,) = flattened(rounded((0.0, 0.0, 63.0, 88.0), 3.0))
    corner = [(x, y) for x, y in ring if x < 3.0 and y < 3.0]
    assert len(corner) > 5
    for x, y in corner:
        assert math.hypot(x - 3.0, y - 3.0) == pytest.approx(3.0, abs=FLATNESS)


def test_a_dxf_says_millimetres_and_closes_its_polylines():
    header, polylines = dxf_polylines(dxf_text([[(0, 0), (10, 0), (10, 5)]], 100.0, "t"))
    assert header == {"$INSUNITS": 4, "$MEASUREMENT": 1}
    assert polylines == [(True, [(0.0, 100.0), (10.0, 100.0), (10.0, 95.0)])]  # y up from the page's foot


@pytest.mark.parametrize("name, formats", [("silhouette", {".svg", ".dxf"}), ("silhouette-4", {".svg", ".dxf"}),
                                           ("scanncut", {".svg", ".dxf"}), ("cricut", {".svg", ".png"})])
def test_each_front_page_has_the_files_its_cutters_software_imports(cutter_builds, name, formats):
    paper = "letter" if name == "cricut" else "a4"
    folder = cutter_builds[name, paper]
    pages = fronts(folder, paper)
    made = {p.name for p in (folder / "cut").glob(f"metronome-cards-{paper}-p*")}
    assert made == {f"metronome-cards-{paper}-p{n}{suffix}" for n in range(1, pages + 1) for suffix in formats}


@pytest.mark.parametrize("name", ["silhouette", "silhouette-4", "scanncut"])
def test_dxf_and_svg_paths_lie_on_the_trims_of_the_whole_page(cutter_builds, name):
    folder = cutter_builds[name, "a4"]
    W, H = PAPERS["a4"]
    for n in range(1, fronts(folder, "a4") + 1):
        cards = trims(folder / "metronome-cards-a4.pdf", n - 1)
        header, polylines = dxf_polylines((folder / "cut" / f"metronome-cards-a4-p{n}.dxf").read_text())
        assert header["$INSUNITS"] == 4 and all(closed for closed, _ in polylines)
        matched([box_of([(x, H - y) for x, y in points]) for _, points in polylines], cards)
        svg = ET.parse(folder / "cut" / f"metronome-cards-a4-p{n}.svg").getroot()
        assert (svg.get("width"), svg.get("height"), svg.get("viewBox")) == ("210mm", "297mm", "0 0 210 297")
        matched([box_of(svg_points(e.get("d"))) for e in svg.iter("{http://www.w3.org/2000/svg}path")], cards)


def svg_points(d: str) -> list[tuple[float, float]]:
    points = []
    for _, args in re.findall(r"([MLCZ])([^MLCZ]*)", d):
        values = [float(v) for v in args.split()]
        points += list(zip(values[::2], values[1::2]))
    return points


def test_cricut_files_are_the_image_area_at_its_exact_size(cutter_builds):
    folder = cutter_builds["cricut", "letter"]
    W, H = PAPERS["letter"]
    w, h = 6.75 * 25.4, 9.25 * 25.4
    x0, y0 = (W - w) / 2, (H - h) / 2
    for n in range(1, fronts(folder, "letter") + 1):
        cards = trims(folder / "metronome-cards-letter.pdf", n - 1)
        svg = ET.parse(folder / "cut" / f"metronome-cards-letter-p{n}.svg").getroot()
        assert (svg.get("width"), svg.get("height")) == ("171.45mm", "234.95mm")
        outlines = [box_of(svg_points(e.get("d"))) for e in svg.iter("{http://www.w3.org/2000/svg}path")]
        matched([(a + x0, b + y0, c + x0, d + y0) for a, b, c, d in outlines], cards)
        image = Image.open(folder / "cut" / f"metronome-cards-letter-p{n}.png")
        assert image.size == (2025, 2775) and image.mode == "RGBA"  # 6.75 × 9.25 in at 300 dpi
        assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)
        px = 300 / 25.4
        alpha = image.getchannel("A")
        for a, b, c, d in cards:
            at = lambda x, y: alpha.getpixel((int((x - x0) * px), int((y - y0) * px)))  # noqa: E731
            assert at((a + c) / 2, (b + d) / 2) == 255 and at(a + 5, b + 0.5) == 255  # the piece, to its edge
            assert at(a + 0.2, b + 0.2) == 0  # its rounded corner is cut off
            assert at(a - 1.0, (b + d) / 2) == 0  # the gap between pieces: Design Space cuts round each island
        colours = image.convert("RGB").getcolors(1 << 20)
        assert len(colours) > 50  # the faces themselves, not a mask alone


def test_the_same_build_gives_the_same_cut_files(cutter_builds, tmp_path):
    from deckpress.builder.deckbuild import build_deck
    from deckpress.builder.plan import Options
    from deckpress.imposition.cutters import CUTTERS
    from deckpress.imposition.document import Marking

    build_deck("metronome", tmp_path, ["letter"], ["color"],
               options=Options(marking=Marking("cutter", cutter=CUTTERS["cricut"], die_line="CutContour")))
    again, first = tmp_path / "metronome" / "cut", cutter_builds["cricut", "letter"] / "cut"
    names = sorted(p.name for p in first.iterdir())
    assert names == sorted(p.name for p in again.iterdir())
    for name in names:
        assert (again / name).read_bytes() == (first / name).read_bytes(), name
