"""Cut files other than SVG: DXF for Silhouette Studio and Brother CanvasWorkspace, and a PNG of
the pieces for Cricut Design Space's Print Then Cut.

Both take the page's cut paths (`imposition.cutpaths`: any outline as path operations, curves
included), so a shaped piece cuts as it is drawn.

DXF: a minimal AutoCAD R12 ASCII file written here (no library needed for closed polylines): a
HEADER saying millimetres ($INSUNITS 4, $MEASUREMENT 1), then each path as a closed POLYLINE of
VERTEXes, its curves flattened to within FLATNESS mm. DXF's y axis points up, so y is the
height less the page's y: the drawing sits on the page as the PDF's pieces do.

PNG: Design Space prints what is uploaded inside its own frame of marks and cuts round each
opaque island of the picture, so the picture is the page's image area (`CutterProfile.area`)
rasterised from the written PDF by pdfium, transparent outside the pieces' cut paths, at
IMAGE_DPI (recorded in the file).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw

from ..atomic import replacing, write_text
from ..face import Face, PathOp
from ..imposition.cutpaths import cut_paths
from ..imposition.sheets import Box, PagePlan

FLATNESS = 0.01  #: mm: how far a flattened curve may stray from the curve
IMAGE_DPI = 300

Point = tuple[float, float]


def flattened(ops: Sequence[PathOp], flatness: float = FLATNESS) -> list[list[Point]]:
    """A path's subpaths as lists of points, each cubic Bézier cut into enough straight pieces
    that none strays more than `flatness` from the curve."""
    rings: list[list[Point]] = []
    ring: list[Point] = []
    for op, pts in ops:
        if op == "M":
            if ring:
                rings.append(ring)
            ring = [(pts[0], pts[1])]
        elif op == "L":
            ring.append((pts[0], pts[1]))
        elif op == "C":
            (x0, y0), (x1, y1, x2, y2, x3, y3) = ring[-1], pts
            # the control polygon's deviation bounds the curve's: n pieces stray at most d/(8n²)·…
            d = max(abs(x0 - 2 * x1 + x2) + abs(y0 - 2 * y1 + y2), abs(x1 - 2 * x2 + x3) + abs(y1 - 2 * y2 + y3))
            n = max(1, int((0.75 * d / flatness) ** 0.5) + 1)
            for k in range(1, n + 1):
                t = k / n
                u = 1 - t
                ring.append((u ** 3 * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t ** 3 * x3,
                             u ** 3 * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t ** 3 * y3))
        elif op == "Z":
            if len(ring) > 1 and ring[-1] == ring[0]:
                ring.pop()
            rings.append(ring)
            ring = []
    if ring:
        rings.append(ring)
    return [r for r in rings if len(r) > 1]


def _group(code: int, value: object) -> str:
    text = f"{value:.4f}".rstrip("0").rstrip(".") if isinstance(value, float) else str(value)
    return f"{code:>3}\n{text}\n"


def dxf_text(rings: Sequence[Sequence[Point]], height: float, title: str = "") -> str:
    """An R12 ASCII DXF of closed polylines in millimetres, y flipped about `height`."""
    out = [_group(999, f"{title} (deckpress cut paths, mm)".strip()) if title else "",
           _group(0, "SECTION"), _group(2, "HEADER"),
           _group(9, "$ACADVER"), _group(1, "AC1009"),
           _group(9, "$INSUNITS"), _group(70, 4),  # 4: millimetres
           _group(9, "$MEASUREMENT"), _group(70, 1),  # 1: metric
           _group(0, "ENDSEC"), _group(0, "SECTION"), _group(2, "ENTITIES")]
    for ring in rings:
        out += [_group(0, "POLYLINE"), _group(8, "CUT"), _group(66, 1), _group(10, 0.0), _group(20, 0.0),
                _group(30, 0.0), _group(70, 1)]  # 70=1: closed
        for x, y in ring:
            out += [_group(0, "VERTEX"), _group(8, "CUT"), _group(10, float(x)), _group(20, float(height - y)),
                    _group(30, 0.0)]
        out.append(_group(0, "SEQEND"))
    out += [_group(0, "ENDSEC"), _group(0, "EOF")]
    return "".join(out)


def _in_area(rings: list[list[Point]], area: Box | None) -> list[list[Point]]:
    if area is None:
        return rings
    return [[(x - area[0], y - area[1]) for x, y in ring] for ring in rings]


def write_dxf(path: Path, plan: PagePlan[Face], title: str, area: Box | None = None) -> Path:
    """The page's cut paths as a DXF (millimetres), the page's size (or `area`'s, its corner the
    origin), written atomically."""
    rings = _in_area([r for ops in cut_paths(plan) for r in flattened(ops)], area)
    height = plan.paper[1] if area is None else area[3] - area[1]
    write_text(path, dxf_text(rings, height, title))
    return path


def write_cut_image(path: Path, pdf: Path, page: int, plan: PagePlan[Face], area: Box) -> Path:
    """Page `page` (from 1) of the written `pdf`, its `area` as a PNG at IMAGE_DPI, transparent
    outside the page's cut paths: what Design Space prints and cuts round."""
    import pypdfium2 as pdfium  # here: only cutter builds for Cricut need it

    scale = IMAGE_DPI / 72
    x0, y0, x1, y1 = area
    size = (round((x1 - x0) / 25.4 * IMAGE_DPI), round((y1 - y0) / 25.4 * IMAGE_DPI))
    document = pdfium.PdfDocument(str(pdf))
    try:
        W, H = plan.paper
        px = IMAGE_DPI / 25.4
        # crop: points left off each side of the page (left, bottom, right, top)
        crop = (x0 * 72 / 25.4, (H - y1) * 72 / 25.4, (W - x1) * 72 / 25.4, y0 * 72 / 25.4)
        bitmap = document[page - 1].render(scale=scale, crop=crop, may_draw_forms=False,
                                           extra_flags=pdfium.raw.FPDF_PRINTING)
        picture = bitmap.to_pil().convert("RGB").resize(size) if bitmap.width != size[0] or \
            bitmap.height != size[1] else bitmap.to_pil().convert("RGB")
    finally:
        document.close()
    mask = Image.new("L", size, 0)
    draw = ImageDraw.Draw(mask)
    for ops in cut_paths(plan):
        for ring in flattened(ops, 0.5 / px):
            draw.polygon([((x - x0) * px, (y - y0) * px) for x, y in ring], fill=255)
    picture.putalpha(mask)
    data = io.BytesIO()
    picture.save(data, "PNG", dpi=(IMAGE_DPI, IMAGE_DPI), optimize=False)
    with replacing(path) as tmp:
        tmp.write_bytes(data.getvalue())
    return path
