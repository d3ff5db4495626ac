"""Reading our PDFs back: where each face was placed, which colours were used, how dark pages are.

Faces are Form XObjects placed with `cm` + `Do`; replaying the content stream's graphics state
gives each placement's exact matrix, so tests can measure positions to hundredths of a millimetre.
"""

from __future__ import annotations

from dataclasses import dataclass

import pypdfium2 as pdfium
from pypdf import PdfReader
from pypdf.generic import ContentStream

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

    def point_mm(self, x_pt: float, y_pt: float, page_h_pt: float) -> tuple[float, float]:
        """A form-space point on the page, in mm from the top-left corner."""
        px, py = apply(self.matrix, x_pt, y_pt)
        return (px / MM, (page_h_pt - py) / MM)


def placements(page) -> list[Placed]:
    """Every card face drawn on a page (the Form XObjects named `face…`), with its full matrix."""
    xobjects = page["/Resources"].get("/XObject", {})
    content = ContentStream(page.get_contents(), page.pdf)
    ctm = (1, 0, 0, 1, 0, 0)
    stack = []
    out = []
    for operands, op in content.operations:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = mul(tuple(float(v) for v in operands), ctm)
        elif op == b"Do":
            name = operands[0]
            xobj = xobjects[name].get_object()
            if xobj.get("/Subtype") == "/Form" and ".face" in str(name):
                out.append(Placed(str(name), ctm, tuple(float(v) for v in xobj["/BBox"])))
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
            fd = f.get("/FontDescriptor")
            embedded = fd is not None and any(k in fd.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3"))
            found[str(f["/BaseFont"])] = embedded
    return found


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


def colour_operators(reader: PdfReader) -> tuple[dict[bytes, int], list[tuple[float, ...]]]:
    """How often each colour operator is used over pages and forms, and every CMYK colour that is
    not black ink only (C, M or Y above zero): a low-ink file must give ({k, K}, [])."""
    from collections import Counter

    from pypdf.generic import DecodedStreamObject

    counts: Counter[bytes] = Counter()
    coloured = []
    for data in content_streams(reader):
        stream = DecodedStreamObject()
        stream.set_data(data)
        for operands, op in ContentStream(stream, reader).operations:
            if op in COLOUR_OPS:
                counts[op] += 1
            if op in (b"k", b"K") and any(float(v) for v in operands[:3]):
                coloured.append(tuple(float(v) for v in operands))
    return dict(counts), coloured


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


def text_lines(path, index: int) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Each run of text pdfium finds on a page with its box in mm from the top-left corner
    (x0, top, x1, bottom): enough to tell whether two pieces of text overlap."""
    pdf = pdfium.PdfDocument(str(path))
    page = pdf[index]
    height = page.get_height()
    textpage = page.get_textpage()
    out = []
    for i in range(textpage.count_rects()):
        left, bottom, right, top = textpage.get_rect(i)
        text = textpage.get_text_bounded(left, bottom, right, top)
        out.append((text, (left / MM, (height - top) / MM, right / MM, (height - bottom) / MM)))
    pdf.close()
    return out
