"""Reading our PDFs back: where each face was placed, which colours were used, how dark pages are.

Faces are Form XObjects placed with `cm` + `Do`; replaying the content stream's graphics state
gives each placement's exact matrix, so tests can measure positions to hundredths of a millimetre.
"""

from __future__ import annotations

from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass
import re

import pypdfium2 as pdfium
from pypdf import PdfReader
from pypdf.generic import ContentStream, DecodedStreamObject, TextStringObject

MM = 72 / 25.4


def mul(m, n):
    """PDF matrix product: apply m first, then n."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def apply(m, x, y):
    a, b, c, d, e, f = m
    return (a * x + c * y + e, b * x + d * y + f)


@dataclass
class Placed:
    name: str
    matrix: tuple  # form space -> page space, points
    bbox: tuple  # the form's BBox
    clip: tuple | None = None  # the rectangle it is clipped to (x0, y0, x1, y1, page points, y up), if any

    def point_mm(self, x_pt: float, y_pt: float, page_h_pt: float) -> tuple[float, float]:
        """A form-space point on the page, in mm from the top-left corner."""
        px, py = apply(self.matrix, x_pt, y_pt)
        return (px / MM, (page_h_pt - py) / MM)


_PARSED: dict[bytes, list] = {}


def operations(data: bytes, reader=None) -> list:
    """A content stream's (operands, operator) list, parsed once per test process: many tests read
    the same shared files, and parsing (pure Python) was a tenth of the suite's time. Read only."""
    ops = _PARSED.get(data)
    if ops is None:
        stream = DecodedStreamObject()
        stream.set_data(data)
        ops = _PARSED[data] = ContentStream(stream, reader).operations
    return ops


def placements(page) -> list[Placed]:
    """Every card face drawn on a page (the Form XObjects named `face…`), with its full matrix."""
    xobjects = page["/Resources"].get("/XObject", {})
    ctm = (1, 0, 0, 1, 0, 0)
    clip = rect = None
    stack = []
    out = []
    for operands, op in operations(page.get_contents().get_data(), page.pdf):
        if op == b"q":
            stack.append((ctm, clip))
        elif op == b"Q":
            ctm, clip = stack.pop()
        elif op == b"cm":
            ctm = mul(tuple(float(v) for v in operands), ctm)
        elif op == b"re":
            x, y, w, h = (float(v) for v in operands)
            corners = [apply(ctm, px, py) for px in (x, x + w) for py in (y, y + h)]
            rect = (min(c[0] for c in corners), min(c[1] for c in corners),
                    max(c[0] for c in corners), max(c[1] for c in corners))
        elif op in (b"W", b"W*") and rect is not None:
            clip = rect if clip is None else (max(clip[0], rect[0]), max(clip[1], rect[1]),
                                               min(clip[2], rect[2]), min(clip[3], rect[3]))
        elif op == b"Do":
            name = operands[0]
            xobj = xobjects[name].get_object()
            if xobj.get("/Subtype") == "/Form" and str(name).startswith("/face"):
                out.append(Placed(str(name), ctm, tuple(float(v) for v in xobj["/BBox"]), clip))
    return out


def trim_box_mm(placed: Placed, card_w: float, card_h: float, page_h_pt: float) -> tuple[float, float, float, float]:
    """The card's trim on the page (x0, y0, x1, y1 in mm from the top-left), from the form's corners."""
    corners = [placed.point_mm(x * MM, -y * MM, page_h_pt) for x, y in
               ((0, 0), (card_w, 0), (0, card_h), (card_w, card_h))]
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    return (min(xs), min(ys), max(xs), max(ys))


def xobjects(reader: PdfReader, subtype: str | None = None):
    """Every XObject used on the pages (of one subtype, /Image or /Form, if given), inside forms too,
    each once."""
    seen = set()
    for page in reader.pages:
        stack = [page["/Resources"]]
        while stack:
            res = stack.pop().get_object()
            for _, ref in (res.get("/XObject") or {}).items():
                if ref.idnum in seen:
                    continue
                seen.add(ref.idnum)
                obj = ref.get_object()
                if subtype is None or obj["/Subtype"] == subtype:
                    yield obj
                if "/Resources" in obj:
                    stack.append(obj["/Resources"])


def string_bytes(string) -> bytes:
    """A PDF string's bytes (pypdf gives a string it could decode as text, which a composite
    font's two-byte codes may happen to be)."""
    return string.original_bytes if isinstance(string, TextStringObject) else bytes(string)


def shown_codes(reader: PdfReader) -> list[list[int]]:
    """The two-byte codes (Identity-H: glyph indexes) each TJ of the file shows, in drawing order."""
    return [[int.from_bytes(codes[i:i + 2], "big") for i in range(0, len(codes), 2)]
            for data in content_streams(reader) for operands, op in operations(data, reader) if op == b"TJ"
            for codes in [b"".join(string_bytes(item) for item in operands[0] if isinstance(item, (bytes, str)))]]


def content_streams(reader: PdfReader):
    """Every page and form content stream in the file (bytes)."""
    for page in reader.pages:
        yield page.get_contents().get_data() if page.get_contents() else b""
    for form in xobjects(reader, "/Form"):
        yield form.get_data()


def fonts(reader: PdfReader) -> dict[str, bool]:
    """BaseFont -> embedded?, over pages and forms."""
    found: dict[str, bool] = {}
    resources = [page["/Resources"] for page in reader.pages]
    resources += [form["/Resources"] for form in xobjects(reader, "/Form") if "/Resources" in form]
    for res in resources:
        for _, f in (res.get_object().get("/Font") or {}).items():
            f = f.get_object()
            # a composite (Type0) font's descriptor is its descendant CID font's
            fd = (f["/DescendantFonts"][0].get_object() if f.get("/Subtype") == "/Type0" else f).get("/FontDescriptor")
            embedded = fd is not None and any(k in fd.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3"))
            found[str(f["/BaseFont"])] = embedded
    return found


def fonts_showing_text(reader: PdfReader) -> set[str]:
    """BaseFont of every font some text is shown in (Tj, TJ, ', "), over pages and forms."""
    streams = [(page["/Resources"], page.get_contents().get_data()) for page in reader.pages]
    streams += [(form.get("/Resources", {}), form.get_data()) for form in xobjects(reader, "/Form")]
    used = set()
    for resources, data in streams:
        names = {k: str(v.get_object()["/BaseFont"]) for k, v in (resources.get("/Font") or {}).items()}
        current = None
        for operands, op in operations(data, reader):
            if op == b"Tf":
                current = names.get(operands[0])
            elif op in (b"Tj", b"TJ", b"'", b'"'):
                used.add(current)
    return used


def darkness(path, dpi: int = 36) -> float:
    """Mean darkness (1 - mean grey level) of all pages rendered in grey: how much ink they use."""
    pdf = pdfium.PdfDocument(str(path))
    total = 0.0
    for page in pdf:
        image = page.render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
        hist = image.histogram()
        total += sum((255 - v) * n for v, n in enumerate(hist)) / (255 * sum(hist))
    n = len(pdf)
    pdf.close()
    return total / n


def page_text(path, index: int) -> str:
    pdf = pdfium.PdfDocument(str(path))
    text = pdf[index].get_textpage().get_text_range()
    pdf.close()
    return text


COLOUR_OPS = (b"rg", b"RG", b"g", b"G", b"sc", b"scn", b"SC", b"SCN", b"cs", b"CS", b"k", b"K")


def colour_operators(reader: PdfReader, patterns: bool = True) -> tuple[dict[bytes, int], list[tuple[float, ...]]]:
    """How often each colour operator is used over pages and forms, and every CMYK colour that is
    not black ink only (C, M or Y above zero): a low-ink file must give ({k, K}, []). Unless
    `patterns`, choosing the Pattern space and a pattern by its name is not counted."""
    from collections import Counter

    counts: Counter[bytes] = Counter()
    coloured = []
    for data in content_streams(reader):
        for operands, op in operations(data, reader):
            if op in COLOUR_OPS:
                if not patterns and (operands[-1:] == ["/Pattern"] if op in (b"cs", b"CS") else
                                     op in (b"scn", b"SCN") and str(operands[-1:][0]).startswith("/")):
                    continue
                counts[op] += 1
            if op in (b"k", b"K") and any(float(v) for v in operands[:3]):
                coloured.append(tuple(float(v) for v in operands))
    return dict(counts), coloured


def rgb_left(path) -> list[str]:
    """Everything in a file that paints in RGB (or in any space but DeviceCMYK and DeviceGray):
    colour operators other than k and K in page and form streams, RGB names anywhere in them
    (inline images, `cs`), pictures and their soft masks in other spaces, and RGB colour spaces
    named by any object (shadings, ICC profiles). A CMYK or low-ink file must give []."""
    import re
    from pathlib import Path

    reader = PdfReader(path)
    # k and K, g and G (DeviceGray: a soft mask's greys) and a pattern chosen by name (its own
    # colours are in its shading or content, checked below) paint in no RGB
    found = [f"{op.decode()} operator" for op in colour_operators(reader, patterns=False)[0]
             if op not in (b"k", b"K", b"g", b"G")]
    rgb = re.compile(rb"/(DeviceRGB|CalRGB|ICCBased|Indexed|Lab|RGB)\b")
    found += [f"{m.group().decode()} in a content stream" for data in content_streams(reader)
              for m in rgb.finditer(data)]
    for image in xobjects(reader, "/Image"):
        for im in (image, image["/SMask"].get_object() if "/SMask" in image else None):
            if im is not None and im["/ColorSpace"] not in ("/DeviceCMYK", "/DeviceGray"):
                found.append(f"picture in {im['/ColorSpace']}")
    # object dictionaries are not compressed: shadings, profiles and picture spaces show as bytes
    found += [f"{m.group().decode()} object" for m in rgb.finditer(Path(path).read_bytes())]
    return found


def text_colours(reader: PdfReader) -> set[tuple[float, ...]]:
    """The fill colour (`k` operands) every run of text is shown in, over pages and forms."""
    found = set()
    for data in content_streams(reader):
        fill, saved = None, []
        for operands, op in operations(data, reader):
            if op == b"q":
                saved.append(fill)
            elif op == b"Q":
                fill = saved.pop()
            elif op == b"k":
                fill = tuple(float(v) for v in operands)
            elif op in (b"Tj", b"TJ", b"'", b'"'):
                found.add(fill)
    return found


def page_boxes_mm(page) -> dict[str, tuple[float, float, float, float]]:
    """MediaBox, BleedBox and TrimBox of a page in mm (x0, y0, x1, y1, PDF's y up)."""
    return {name: tuple(float(v) / MM for v in getattr(page, name))
            for name in ("mediabox", "bleedbox", "trimbox")}


def boxes_nested(page) -> bool:
    """MediaBox ⊇ BleedBox ⊇ TrimBox, as print shops require."""
    b = page_boxes_mm(page)
    outer, middle, inner = b["mediabox"], b["bleedbox"], b["trimbox"]
    eps = 1e-6
    return (outer[0] - eps <= middle[0] <= inner[0] + eps and outer[1] - eps <= middle[1] <= inner[1] + eps
            and inner[2] - eps <= middle[2] <= outer[2] + eps and inner[3] - eps <= middle[3] <= outer[3] + eps)


def char_angles(path, page: int = 0) -> list[tuple[str, int, float, float]]:
    """Each character's text, angle (degrees, as pdfium gives it: 90 for text running down the page)
    and centre (mm from the top-left): enough to tell which way up a panel's text is."""
    import math

    import pypdfium2.raw as raw

    with _textpage(path, page) as (text, height):
        out = []
        for i in range(text.count_chars()):
            ch = text.get_text_range(i, 1)
            if ch.strip():
                left, bottom, right, top = text.get_charbox(i)
                angle = round(math.degrees(raw.FPDFText_GetCharAngle(text.raw, i))) % 360
                out.append((ch, angle, (left + right) / 2 / MM, (height - (top + bottom) / 2) / MM))
    return out


@contextmanager
def _textpage(path, index: int):
    """A page's text (pdfium) and the page's height in points, the document closed afterwards."""
    pdf = pdfium.PdfDocument(str(path))
    try:
        page = pdf[index]
        yield page.get_textpage(), page.get_height()
    finally:
        pdf.close()


def hyphenated_breaks(path) -> list[tuple[int, str, float]]:
    """Every line of a PDF that ends in a hyphen inside a word, as pdfium reads it: a "-" it
    takes for a hyphenation (U+FFFE, the lines joined) or a hyphen ending a line before a letter
    (a word's own, U+2010 or "-"). Each as (page, the word around the break with "-" there, the
    hyphen's size in pt)."""
    import pypdfium2.raw as raw

    found = []
    pdf = pdfium.PdfDocument(str(path))
    try:
        for index in range(len(pdf)):
            textpage = pdf[index].get_textpage()
            text = textpage.get_text_range()
            for m in re.finditer(r"(\w*)(\ufffe|[-\u2010](?=\r?\n\w))\r?\n?(\w*)", text):
                found.append((index, f"{m.group(1)}-{m.group(3)}",
                              round(raw.FPDFText_GetFontSize(textpage.raw, m.start(2)), 2)))
    finally:
        pdf.close()
    return found


def text_lines(path, index: int) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Each run of text pdfium finds on a page with its box in mm from the top-left corner
    (x0, top, x1, bottom): enough to tell whether two pieces of text overlap."""
    with _textpage(path, index) as (textpage, height):
        out = []
        for i in range(textpage.count_rects()):
            left, bottom, right, top = textpage.get_rect(i)
            text = textpage.get_text_bounded(left, bottom, right, top)
            out.append((text, (left / MM, (height - top) / MM, right / MM, (height - bottom) / MM)))
    return out


def path_boxes(path, index: int, dashed: bool | None = None) -> list[tuple[float, float, float, float]]:
    """Every path drawn on a page, inside forms too, as (left, top, right, bottom) in mm from the
    page's top-left corner, strokes included; only the dashed (or only the solid) ones if `dashed`
    is given."""
    import pypdfium2.raw as raw

    boxes = []
    for obj, to_page, height in _page_paths(path, index):
        if dashed is None or (raw.FPDFPageObj_GetDashCount(obj.raw) > 0) == dashed:
            left, bottom, right, top = obj.get_bounds()
            corners = [apply(to_page, x, y) for x in (left, right) for y in (bottom, top)]
            xs, ys = [c[0] for c in corners], [c[1] for c in corners]
            boxes.append((min(xs) / MM, (height - max(ys)) / MM, max(xs) / MM, (height - min(ys)) / MM))
    return boxes


def _page_paths(path, index: int):
    """Each path object of a page, inside forms too, with the matrix that takes the space it is
    drawn in to the page (points), and the page's height. (pdfium gives a form's contents in the
    form's own space: each form's matrix, and its parents', takes them to the page.)"""
    import pypdfium2.raw as raw

    pdf = pdfium.PdfDocument(str(path))
    try:
        page = pdf[index]
        height = page.get_height()
        stack = [(-1, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0))]  # (level, matrix to the page) of the enclosing forms
        for obj in page.get_objects(max_depth=4):
            while len(stack) > 1 and stack[-1][0] >= obj.level:
                stack.pop()
            to_page = stack[-1][1]
            if obj.type == raw.FPDF_PAGEOBJ_FORM:
                stack.append((obj.level, mul(tuple(obj.get_matrix().get()), to_page)))
            elif obj.type == raw.FPDF_PAGEOBJ_PATH:
                yield obj, to_page, height
    finally:
        pdf.close()


@dataclass
class Drawn:
    """One path object of a page: its subpaths as points in mm from the page's top-left corner
    (curves by their end points), and how it is painted."""

    subpaths: list[list[tuple[float, float]]]
    dashed: bool
    stroked: bool
    filled: bool

    @property
    def box(self) -> tuple[float, float, float, float]:
        xs = [x for sub in self.subpaths for x, _ in sub]
        ys = [y for sub in self.subpaths for _, y in sub]
        return (min(xs), min(ys), max(xs), max(ys))


def drawn_paths(path, index: int) -> list[Drawn]:
    """Every path a page draws, inside forms too, with its exact points (unlike `path_boxes`, which
    pdfium widens by the stroke)."""
    import ctypes

    import pypdfium2.raw as raw

    found = []
    for obj, to_page, height in _page_paths(path, index):
        m = mul(tuple(obj.get_matrix().get()), to_page)
        subpaths: list[list[tuple[float, float]]] = []
        x, y = ctypes.c_float(), ctypes.c_float()
        curve = 0  # a curve is three BEZIERTO segments, two control points and its end
        for i in range(raw.FPDFPath_CountSegments(obj.raw)):
            seg = raw.FPDFPath_GetPathSegment(obj.raw, i)
            kind = raw.FPDFPathSegment_GetType(seg)
            if kind == raw.FPDF_SEGMENT_BEZIERTO:
                curve = (curve + 1) % 3
                if curve:
                    continue
            raw.FPDFPathSegment_GetPoint(seg, ctypes.byref(x), ctypes.byref(y))
            px, py = apply(m, x.value, y.value)
            point = (px / MM, (height - py) / MM)
            if kind == raw.FPDF_SEGMENT_MOVETO or not subpaths:
                subpaths.append([point])
            else:
                subpaths[-1].append(point)
        mode, stroke = ctypes.c_int(), ctypes.c_int()
        raw.FPDFPath_GetDrawMode(obj.raw, ctypes.byref(mode), ctypes.byref(stroke))
        found.append(Drawn(subpaths, raw.FPDFPageObj_GetDashCount(obj.raw) > 0, bool(stroke.value),
                           mode.value != 0))
    return found


def check_page_boxes(path, paper_mm: tuple[float, float], card_mm: tuple[float, float]) -> None:
    """Every page of a card sheet as print shops want it: the paper's MediaBox, no print scaling,
    MediaBox ⊇ BleedBox ⊋ TrimBox (bleed past every outer edge), and TrimBox exactly around the
    cards placed (to 0.01 mm)."""
    import pytest

    W, H = paper_mm
    reader = PdfReader(path)
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
    for page in reader.pages:
        media, bleed, trim = ([float(v) for v in box] for box in (page.mediabox, page.bleedbox, page.trimbox))
        assert media == pytest.approx([0, 0, W * MM, H * MM], abs=0.01)
        assert boxes_nested(page)
        assert bleed[0] < trim[0] and bleed[1] < trim[1] and trim[2] < bleed[2] and trim[3] < bleed[3]
        boxes = [trim_box_mm(p, *card_mm, H * MM) for p in placements(page)]
        union = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
        assert (trim[0] / MM, H - trim[3] / MM, trim[2] / MM, H - trim[1] / MM) == pytest.approx(union, abs=0.01)


def backs_behind_fronts(fronts_path, backs_path, paper_mm: tuple[float, float],
                        card_mm: tuple[float, float]) -> dict[str, set[str]]:
    """Check that every back lands behind its front when the sheet is turned over its long
    (vertical) edge, upright and not mirrored, to 0.01 mm; return which back forms stand behind
    each front form."""
    import pytest

    W, H = paper_mm
    fronts, backs = PdfReader(fronts_path), PdfReader(backs_path)
    assert len(backs.pages) == len(fronts.pages)
    behind: dict[str, set[str]] = {}
    for front_page, back_page in zip(fronts.pages, backs.pages):
        f, b = placements(front_page), placements(back_page)
        assert len(f) == len(b)
        for fp, bp in zip(f, b):
            fx0, fy0, fx1, fy1 = trim_box_mm(fp, *card_mm, H * MM)
            bx0, by0, bx1, by1 = trim_box_mm(bp, *card_mm, H * MM)
            # turning the sheet over about its vertical axis takes x to W - x
            assert (W - (bx0 + bx1) / 2, (by0 + by1) / 2) == pytest.approx(((fx0 + fx1) / 2, (fy0 + fy1) / 2),
                                                                            abs=0.01)
            # not mirrored: the back face's top-left corner is behind the front face's top-right (upright
            # or turned alike), and upright cards' backs are upright
            bx, by = bp.point_mm(0, 0, H * MM)
            assert (W - bx, by) == pytest.approx(fp.point_mm(card_mm[0] * MM, 0, H * MM), abs=0.01)
            if fp.point_mm(0, 0, H * MM) == pytest.approx((fx0, fy0), abs=0.01):
                assert (bx, by) == pytest.approx((bx0, by0), abs=0.01)
            behind.setdefault(fp.name, set()).add(bp.name)
    return behind


#: the least margin that holds a crop mark 1 mm out from the cards and 3 mm long, inside the 4.2 mm
#: of the paper's edge a printer leaves blank
MARKED_MARGIN = 4.2 + 1.0 + 3.0


def cards_on_grid(path, paper_mm: tuple[float, float], card_mm: tuple[float, float], cols: int = 3,
                  rows: int = 3, gap: float = 0.0, turned: bool = False) -> list[int]:
    """Check that each page's cards fill a grid on the paper, row by row, butted edge to edge or
    `gap` mm apart, (`turned` a quarter turn), to 0.01 mm; return how many cards each page holds.
    The grid is centred each way unless that leaves less than MARKED_MARGIN: then that margin (the
    left or top one) is MARKED_MARGIN, the other what is left (nine poker cards on Letter)."""
    import pytest

    (W, H), (w, h) = paper_mm, card_mm
    if turned:
        w, h = h, w

    def start(paper: float, n: int, cell: float) -> float:
        centred = (paper - n * cell - (n - 1) * gap) / 2
        return centred if centred >= MARKED_MARGIN - 1e-9 else MARKED_MARGIN

    x0, y0 = start(W, cols, w), start(H, rows, h)
    counts = []
    for page in PdfReader(path).pages:
        placed = placements(page)
        for i, p in enumerate(placed):
            row, col = divmod(i, cols)
            x, y = x0 + col * (w + gap), y0 + row * (h + gap)
            assert trim_box_mm(p, *card_mm, H * MM) == pytest.approx((x, y, x + w, y + h), abs=0.01)
        counts.append(len(placed))
    return counts


def text_sizes(path):
    """How many characters a PDF prints at each font size (pt), as pdfium reads them back."""
    doc = pdfium.PdfDocument(str(path))
    sizes = Counter()
    for page in doc:
        textpage = page.get_textpage()
        for i in range(textpage.count_chars()):
            if textpage.get_text_range(i, 1).strip():
                sizes[round(pdfium.raw.FPDFText_GetFontSize(textpage, i), 2)] += 1
    doc.close()
    return sizes
