"""The die line (`--die-line`, backends/pdfpages.py `draw_die_line`), read back from the PDF: each
piece's cut path stroked in a `/Separation /CutContour` colour space (magenta its alternate),
overprinting, inside an optional content group that is on for viewing and off for printing."""

from __future__ import annotations

import numpy as np
import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from deckpress.builder.deckbuild import build_deck
from deckpress.builder.plan import Options
from deckpress.imposition.document import Marking

from .pdfread import MM, operations
from .test_imposition_cutters import cutter_builds  # noqa: F401  (the fixture)
from .test_imposition_marks import builds, trims  # noqa: F401  (the fixture)


def die_line_ops(page) -> tuple[list, list]:
    """The operators inside the page's `/OC … BDC … EMC`, and those outside it."""
    inside, outside, depth = [], [], 0
    for operands, op in operations(page.get_contents().get_data()):
        if op == b"BDC" and operands[0] == "/OC":
            depth += 1
            continue
        if op == b"EMC" and depth:
            depth -= 1
            continue
        (inside if depth else outside).append((operands, op))
    return inside, outside


def subpath_boxes(ops, page_h_pt: float) -> list[tuple[float, float, float, float]]:
    """Each subpath's box, mm from the page's top-left (the die line is drawn in page space)."""
    boxes, points = [], []
    for operands, op in ops:
        if op == b"m":
            if points:
                boxes.append(points)
            points = [(float(operands[0]), float(operands[1]))]
        elif op in (b"l", b"c"):
            values = [float(v) for v in operands]
            points += list(zip(values[::2], values[1::2]))
    if points:
        boxes.append(points)
    return [(min(x for x, _ in p) / MM, (page_h_pt - max(y for _, y in p)) / MM, max(x for x, _ in p) / MM,
             (page_h_pt - min(y for _, y in p)) / MM) for p in boxes]


@pytest.mark.parametrize("name, paper", [("silhouette", "a4"), ("cricut", "letter")])
def test_the_die_line_is_a_cutcontour_separation_stroked_with_overprint_in_its_own_layer(cutter_builds, name, paper):
    path = cutter_builds[name, paper] / f"metronome-cards-{paper}.pdf"
    reader = PdfReader(str(path))
    root = reader.trailer["/Root"]
    assert root["/Version"] == "/1.5"
    props = root["/OCProperties"]
    (group,) = [g.get_object() for g in props["/OCGs"]]
    assert group["/Name"] == "CutContour" and group["/Type"] == "/OCG"
    assert group["/Usage"]["/Print"]["/PrintState"] == "/OFF" and group["/Usage"]["/View"]["/ViewState"] == "/ON"
    default = props["/D"]
    assert [g.get_object() for g in default["/ON"]] == [group]
    events = {e["/Event"]: [g.get_object() for g in e["/OCGs"]] for e in default["/AS"]}
    assert events["/Print"] == [group] and events["/View"] == [group]
    for i, page in enumerate(reader.pages):
        resources = page["/Resources"]
        assert resources["/Properties"]["/DieLine"].get_object() == group
        spaces = {str(k): v for k, v in resources["/ColorSpace"].items()}
        (space,) = [v for v in spaces.values() if v[1] == "/CutContour"]
        assert space[0] == "/Separation" and space[2] == "/DeviceCMYK"
        function = space[3]
        assert function["/FunctionType"] == 2 and list(function["/C1"]) == [0, 1, 0, 0]  # 100 % magenta
        inside, outside = die_line_ops(page)
        names = [str(operands[0]) for operands, op in inside if op == b"CS"]
        assert [spaces[n] == space for n in names] == [True]
        assert [float(operands[0]) for operands, op in inside if op == b"SCN"] == [1.0]  # 100 % tint
        assert not any(op in (b"CS", b"SCN") and space in [spaces.get(str(o)) for o in operands] for operands, op in outside)
        states = {}
        for operands, op in inside:
            if op == b"gs":
                states.update({str(k): v for k, v in resources["/ExtGState"][operands[0]].items()})
        assert (bool(states["/OP"]), bool(states["/op"]), states["/OPM"]) == (True, True, 1)
        assert [float(operands[0]) for operands, op in inside if op == b"w"] == [0.25]
        painted = [op for _, op in inside if op in (b"S", b"s", b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*")]
        assert painted == [b"S"]  # stroked, never filled
        H = float(page.mediabox.height)
        boxes = sorted(subpath_boxes(inside, H), key=lambda b: (round(b[1]), b[0]))
        cards = sorted(trims(path, i), key=lambda b: (round(b[1]), b[0]))
        assert len(boxes) == len(cards)
        for a, b in zip(boxes, cards):
            assert a == pytest.approx(b, abs=0.05)  # the cut path on the trim


def render(path, index: int, printing: bool) -> np.ndarray:
    document = pdfium.PdfDocument(str(path))
    try:
        flags = pdfium.raw.FPDF_PRINTING if printing else 0
        return np.asarray(document[index].render(scale=100 / 72, extra_flags=flags).to_pil().convert("RGB")).copy()
    finally:
        document.close()


def test_the_layer_shows_on_screen_and_prints_no_ink(cutter_builds, builds):  # noqa: F811
    with_line = cutter_builds["silhouette", "a4"] / "metronome-cards-a4.pdf"
    without = builds["cutter"] / "metronome-cards-a4.pdf"  # the same sheets, built without a die line
    shown, printed, plain = render(with_line, 0, False), render(with_line, 0, True), render(without, 0, True)
    assert np.array_equal(printed, plain)  # printing: not a pixel of the die line
    differ = np.any(shown != plain, axis=2)
    assert differ.sum() > 1000  # on screen: the cut paths
    r, g, b = (shown[differ][:, k].astype(int) for k in range(3))
    assert np.mean((r > 150) & (g < 150) & (b > 100)) > 0.5  # mostly magenta


def test_a_die_line_may_be_named_and_is_left_out_by_default(tmp_path, builds):  # noqa: F811
    build_deck("metronome", tmp_path, ["a4"], ["color"],
               options=Options(formats=("pdf",), marking=Marking("corners", die_line="Die")))
    reader = PdfReader(str(tmp_path / "metronome" / "metronome-cards-a4.pdf"))
    (group,) = reader.trailer["/Root"]["/OCProperties"]["/OCGs"]
    assert group.get_object()["/Name"] == "Die"
    spaces = reader.pages[0]["/Resources"]["/ColorSpace"]
    assert [v[1] for v in spaces.values()] == ["/Die"]
    plain = PdfReader(str(builds["corners"] / "metronome-cards-a4.pdf"))
    assert "/OCProperties" not in plain.trailer["/Root"] and "/ColorSpace" not in plain.pages[0]["/Resources"]
