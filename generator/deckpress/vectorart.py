"""Vector art, an SVG or a page of a PDF, as the objects of one PDF page: what a face places as a form.

SVG is drawn by Typst's svg2pdf (on usvg, resvg's reader), chosen by measurement over svglib
(docs/SVG.md: 39.5 % of the benchmark's corpus drawn as Chromium draws it, against 91.7 %), and
over resvg-py, which rasterises the whole picture: svg2pdf says in PDF all that PDF can say
(gradients, patterns, clip paths, soft masks, blend modes, text as embedded fonts) and draws
filters as pictures at the scale asked, so a blur prints at the output's resolution inside vector
art. svgfile.py makes the SVG ready first (checked, its pictures and fonts put in, what usvg reads
otherwise than a browser rewritten by svgnormal.py). A PDF page (Illustrator, Affinity and Figma
export them) is read by pikepdf (qpdf).

Either way the page becomes plain values (`Art`): its content stream, its resources, and the
objects they refer to, numbered within the art, which backends.pdfart writes into each document
that places it. For low-ink and CMYK files the art is recoloured first (`Treatment`): every colour of its
content, shadings and pictures becomes the grey (black ink only, lightened as the face asks) or
the process colour that deckpress prints everywhere else, with soft masks left alone (a mask's
greys are its opacity, not ink).
"""

from __future__ import annotations

import functools
import hashlib
import io
import math
import zlib
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from .colors import paled
from .errors import ArtError
from .imagefile import image_size, stamp
from .separation import FORMULA, Separation
from .face import NO_EDITS, ArtEdits, multiply
from .text.fonts import font_source, from_fonts

POINTS_PER_MM = 72 / 25.4
FILTER_DPI = 600  #: what svg2pdf draws a filter's picture at, at the art's printed size, in a PDF
MAX_FILTER_PIXELS = 40_000_000  #: but no picture of more pixels than this (a whole poker card at 600 dpi is 3 M)
#: nor more pixels visited by an feMorphology, which visits the square of its radius for every pixel
#: (radius 1 over a whole card's art at 600 dpi: 7 billion, 19 s; a hostile radius never finished)
MAX_MORPHOLOGY_VISITS = 300_000_000
MAX_PDF_BYTES = 128 << 20  #: a PDF bigger than this is no card art


class Local(int):
    """A reference to another object of the same art, by its place in `Art.objects`."""


@dataclass(frozen=True)
class Stream:
    """A stream object: its dictionary (without /Length) and its data, encoded as /Filter says."""

    entries: dict
    data: bytes


@dataclass(frozen=True, eq=False)
class Art:
    """One page of vector art: its box (x0, y0, x1, y1 in its own units, y up), the content stream
    (decoded), its resources and transparency group, and the objects those refer to by `Local`.
    `pictures` are the raster pictures it draws, each as (name, pixels, across, down): the file's
    name (None when it came in the file itself) and where its width and height point, in the
    art's units; `warnings` what does not print as it was drawn."""

    name: str
    box: tuple[float, float, float, float]
    content: bytes
    resources: Any
    group: Any
    objects: tuple[Any, ...]
    pictures: tuple[tuple[str | None, tuple[int, int], tuple[float, float], tuple[float, float]], ...]
    warnings: tuple[str, ...]
    see_through: bool

    @property
    def size(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box
        return (x1 - x0, y1 - y0)


@dataclass(frozen=True, eq=False)
class Treatment:
    """How art's colours print: `colors` "rgb" (as drawn), "k" (greys in black ink only, `lighten`
    of the way to white) or "cmyk" (process inks by `separation`)."""

    colors: str = "rgb"
    lighten: float = 0.0
    separation: Separation = FORMULA

    @property
    def key(self) -> tuple:
        """What tells treatments apart: a separation by its name, not by its profile's bytes."""
        return (self.colors, self.lighten, self.separation.name if self.colors == "cmyk" else None)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Treatment) and self.key == other.key

    def __hash__(self) -> int:  # caches are keyed on it: an ICC profile's megabytes are not hashed each time
        return hash(self.key)


AS_DRAWN = Treatment()


def is_pdf(path: str | Path) -> bool:
    return str(path).lower().endswith(".pdf")


def is_vector(path: str | Path) -> bool:
    """Whether a picture is vector art (SVG, or PDF) rather than a raster."""
    return str(path).lower().endswith((".svg", ".pdf"))


def picture_size(path: str, fonts: tuple[str, ...] = ()) -> tuple[float, float]:
    """The width and height of any picture in its own units (only the proportion matters): a
    raster's pixels, vector art's page (in CSS pixels for SVG, points for PDF)."""
    return load_art(path, fonts).size if is_vector(path) else image_size(path)


def import_art_readers() -> None:
    """Import what reading art takes (svg2pdf, pikepdf, lxml) ahead of reading any, e.g. before
    forking workers that would each import it."""
    import pikepdf  # noqa: F401 - imported for what importing does
    import svg2pdf_py  # noqa: F401
    from lxml import etree  # noqa: F401


def load_art(path: str, fonts: tuple[str, ...] = (), page: int = 1, printed: tuple[float, float] | None = None,
             treatment: Treatment = AS_DRAWN, edits: ArtEdits = NO_EDITS, dpi: float = FILTER_DPI) -> Art:
    """The art in `path` (an SVG, or page `page` of a PDF), its filters drawn at `dpi` (the
    output's resolution: FILTER_DPI in a PDF, a picture's own) for `printed` mm (None: at one
    pixel a unit, enough to measure it), its colours as `treatment` says; ArtError if it cannot
    be drawn."""
    scale = None
    if is_pdf(path):
        read: tuple = ((path, stamp(path)),)
    else:
        from .svgfile import prepare  # the SVG reader (and lxml) only for a deck with SVG art
        prepared = prepare(path, fonts, edits)
        read = prepared.read  # the SVG and every file it links, each with its stamp
        if prepared.filters and printed is not None:
            width, height = load_art(path, fonts, edits=edits).size
            scale = _filter_scale((width, height), printed, dpi, prepared.morphology)
    return _load_art(path, read, fonts, page, scale, treatment, edits)


def _filter_scale(size: tuple[float, float], printed: tuple[float, float], dpi: float, morphology: float = 0.0
                  ) -> float:
    """svg2pdf's raster scale (pixels a unit) that draws filters at `dpi` at the printed size:
    exactly, so that a picture drawn at the output's resolution lies on its pixels (a scale a
    little off is resampled, and every edge comes out soft)."""
    dots = dpi / 25.4
    scale = max(printed[0] * dots / max(size[0], 1e-9), printed[1] * dots / max(size[1], 1e-9))
    bound = math.sqrt(MAX_FILTER_PIXELS / max(size[0] * size[1], 1e-9))
    if morphology > 0:  # the scale s at which pixels × kernel, area·s² × (2·radius·s + 1)², is the bound
        k = math.sqrt(MAX_MORPHOLOGY_VISITS / max(size[0] * size[1], 1e-9))
        bound = min(bound, (math.sqrt(1 + 8 * morphology * k) - 1) / (4 * morphology))
    return round(min(scale, bound), 6)


@from_fonts  # its text was set in fonts read by their paths
@functools.lru_cache(maxsize=128)
def _load_art(path: str, _read: tuple, fonts: tuple[str, ...], page: int, scale: float | None,
              treatment: Treatment, edits: ArtEdits) -> Art:
    import pikepdf

    warnings: tuple[str, ...] = ()
    known: dict[tuple[int, int], str | None] | None = None  # a PDF's pictures all count
    if is_pdf(path):
        data = _pdf_bytes(path)
    else:
        from .svgfile import prepare
        from .svgnormal import snapped_filters
        prepared = prepare(path, fonts, edits)
        text = snapped_filters(prepared.text, scale) if scale else prepared.text
        data = _svg_pdf(path, text, fonts, scale or 1.0)
        warnings = prepared.warnings
        known = {}
        for name, pixels in prepared.pictures:
            known.setdefault(pixels, name)
    try:
        pdf = pikepdf.open(io.BytesIO(data))
    except pikepdf.PasswordError:
        raise ArtError(path, "is a PDF locked with a password: export it without one") from None
    except pikepdf.PdfError as exc:
        raise ArtError(path, f"is not a PDF that can be read: {_first_line(exc)}") from None
    with pdf:
        if not is_pdf(path) and not pdf.pages:  # usvg made nothing of it (it says why only in its log)
            raise ArtError(path, "cannot be drawn: usvg made no picture of it")
        if not 1 <= page <= len(pdf.pages):
            raise ArtError(path, f"has {len(pdf.pages)} page{'s' if len(pdf.pages) != 1 else ''}, no page {page}")
        try:
            return _read_page(path, pdf, pdf.pages[page - 1], treatment, warnings, known)
        except pikepdf.PdfError as exc:
            raise ArtError(path, f"is a PDF that cannot be read: {_first_line(exc)}") from None


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def _pdf_bytes(path: str) -> bytes:
    try:
        size = Path(path).stat().st_size
        if size > MAX_PDF_BYTES:
            raise ArtError(path, f"is {size >> 20} MB, more than the {MAX_PDF_BYTES >> 20} MB a PDF of art may be")
        return Path(path).read_bytes()
    except OSError as exc:
        raise ArtError(path, f"cannot be read: {exc.strerror or exc}") from None


@from_fonts
@functools.lru_cache(maxsize=8)
def _font_database(fonts: tuple[str, ...]) -> Any:
    import svg2pdf_py

    database = svg2pdf_py.FontDatabase()
    # usvg reads a file's every member, each variable font at its defaults, and no WOFF
    for path in dict.fromkeys(font_source(font).path for font in fonts):
        try:
            database.load_font_file(path)
        except (OSError, ValueError):  # a font usvg cannot read names nothing; the deck checks its fonts
            continue
    return database


def _svg_pdf(path: str, text: str, fonts: tuple[str, ...], scale: float) -> bytes:
    import svg2pdf_py

    options = svg2pdf_py.ConversionOptions(compress=True, raster_scale=scale, embed_text=True)
    try:
        return svg2pdf_py.svg_to_pdf(text, _font_database(fonts), options)
    except (KeyboardInterrupt, SystemExit, MemoryError):
        raise
    except BaseException as exc:  # noqa: BLE001 - usvg's refusals, and a Rust panic (a BaseException)
        raise ArtError(path, f"cannot be drawn: {_first_line(exc)}") from None


# --- a page as values ---------------------------------------------------------------------

_SKIPPED_KEYS = {"/Parent", "/P", "/Annots", "/StructParents", "/StructParent", "/Metadata", "/PieceInfo",
                 "/Thumb", "/B", "/Dest"}


class _Reader:
    """pikepdf objects to plain values, indirect objects numbered as they are first met."""

    def __init__(self) -> None:
        import pikepdf

        self.pikepdf = pikepdf
        self.numbers: dict[tuple[int, int], int] = {}
        self.objects: list[Any] = []

    def value(self, obj: Any) -> Any:
        pikepdf = self.pikepdf
        if isinstance(obj, pikepdf.Object) and obj.is_indirect:
            key = obj.objgen
            number = self.numbers.get(key)
            if number is None:
                number = self.numbers[key] = len(self.objects)
                self.objects.append(None)
                self.objects[number] = self.direct(obj)
            return Local(number)
        return self.direct(obj)

    def direct(self, obj: Any) -> Any:
        pikepdf = self.pikepdf
        if isinstance(obj, bool) or obj is None:
            return obj
        if isinstance(obj, int):
            return int(obj)
        if isinstance(obj, (float, Decimal)):
            return float(obj)
        if isinstance(obj, pikepdf.Stream):
            entries = {str(k)[1:]: self.value(v) for k, v in obj.items()
                       if k not in ("/Length", *_SKIPPED_KEYS)}
            return Stream(entries, obj.read_raw_bytes())
        if isinstance(obj, pikepdf.Dictionary):
            return {str(k)[1:]: self.value(v) for k, v in obj.items() if k not in _SKIPPED_KEYS}
        if isinstance(obj, pikepdf.Array):
            return [self.value(v) for v in obj]
        if isinstance(obj, pikepdf.Name):
            return str(obj)[1:]  # a name is a str in art's values, a PDF string bytes (backends.pdfart)
        if isinstance(obj, pikepdf.String):
            return bytes(obj)
        return obj.as_python() if isinstance(obj, pikepdf.Object) and hasattr(obj, "as_python") else obj


def _read_page(path: str, pdf: Any, page: Any, treatment: Treatment, warnings: tuple[str, ...],
               known_pictures: dict[tuple[int, int], str | None] | None) -> Art:
    import pikepdf

    box = [float(v) for v in (page.obj.get("/CropBox") or page.obj.get("/MediaBox") or [0, 0, 612, 792])]
    x0, y0, x1, y1 = min(box[0], box[2]), min(box[1], box[3]), max(box[0], box[2]), max(box[1], box[3])
    if x1 - x0 <= 0 or y1 - y0 <= 0:
        raise ArtError(path, "has a page of no size")
    rotate = int(page.obj.get("/Rotate", 0)) % 360
    reader = _Reader()
    content = page.obj.get("/Contents")
    data = b""
    if content is not None:
        data = b"\n".join(s.read_bytes() for s in (content if isinstance(content, pikepdf.Array) else [content]))
    resources = page.obj.get("/Resources", pikepdf.Dictionary())
    said = list(warnings)
    if treatment.colors != "rgb":
        data = _Recolorer(treatment, said).stream(data, resources)
    if rotate:  # the page shown turned, as a viewer shows it
        w, h = x1 - x0, y1 - y0
        turn = {90: (0, -1, 1, 0, -y0, x1), 180: (-1, 0, 0, -1, x1, y1), 270: (0, 1, -1, 0, y1, -x0)}[rotate]
        data = b"%s cm\n" % " ".join(_fmt(v) for v in turn).encode() + data
        x0, y0, x1, y1 = 0.0, 0.0, (h if rotate in (90, 270) else w), (w if rotate in (90, 270) else h)
    group = page.obj.get("/Group")
    values = reader.value(resources)
    group_value = reader.value(group) if group is not None else None
    if isinstance(group_value, dict) and treatment.colors != "rgb":
        group_value = {k: v for k, v in group_value.items() if k != "CS"}
    has_pictures = any(isinstance(o, Stream) and o.entries.get("Subtype") == "Image" for o in reader.objects)
    # walking the content costs what drawing it does: only where there is a picture to find
    pictures = _pictures(data, values, reader.objects, known_pictures) \
        if has_pictures and known_pictures != {} else ()
    name = hashlib.sha1(repr((data, values, group_value, reader.objects, (x0, y0, x1, y1))).encode(
        "utf-8", "surrogateescape"), usedforsecurity=False).hexdigest()[:16]
    return Art(name, (x0, y0, x1, y1), data, values, group_value, tuple(reader.objects), pictures,
               tuple(dict.fromkeys(said)), _see_through(data, values, reader.objects))


_SCRATCH: list[Any] = []  # one empty PDF a process, that content streams are parsed in


def _parse(data: bytes) -> list[Any]:
    """A content stream's instructions (pikepdf.PdfError if it is broken)."""
    import pikepdf

    if not _SCRATCH:
        _SCRATCH.append(pikepdf.new())
    return pikepdf.parse_content_stream(pikepdf.Stream(_SCRATCH[0], data))


def _fmt(value: float) -> str:
    return f"{value:.6f}".rstrip("0").rstrip(".") or "0"


# --- what the art draws: pictures and transparency ------------------------------------------

def _resolve(value: Any, objects: tuple[Any, ...] | list[Any]) -> Any:
    while isinstance(value, Local):
        value = objects[value]
    return value


def _pictures(content: bytes, resources: Any, objects: list[Any],
              known: dict[tuple[int, int], str | None] | None) -> tuple:
    """Every picture `content` paints (in forms too), with where its unit square's sides point:
    the pictures of a PDF all count (`known` None); of an SVG, those svgfile put in (`known`: their
    names by their pixel sizes), not the pictures svg2pdf made of filters, which are drawn at the
    output's resolution."""
    import pikepdf

    found: list = []

    def walk(data: bytes, res: Any, matrix: tuple[float, ...], depth: int) -> None:
        if depth > 16:
            return
        res = _resolve(res, objects) or {}
        xobjects = _resolve(res.get("XObject"), objects) if isinstance(res, dict) else None
        stack: list[tuple[float, ...]] = []
        ctm = matrix
        try:
            instructions = _parse(data)
        except pikepdf.PdfError:
            return
        for operands, operator in instructions:
            op = str(operator)
            if op == "q":
                stack.append(ctm)
            elif op == "Q" and stack:
                ctm = stack.pop()
            elif op == "cm" and len(operands) == 6:
                ctm = multiply(ctm, tuple(float(v) for v in operands))  # cm comes first, then what was
            elif op == "Do" and xobjects and operands:
                target = _resolve(xobjects.get(str(operands[0])[1:]), objects)
                if not isinstance(target, Stream):
                    continue
                kind = target.entries.get("Subtype")
                if kind == "Image":
                    pixels = (int(target.entries.get("Width", 0)), int(target.entries.get("Height", 0)))
                    if known is None or pixels in known:
                        found.append((known and known[pixels], pixels, (ctm[0], ctm[1]), (ctm[2], ctm[3])))
                elif kind == "Form":
                    form_matrix = tuple(float(v) for v in target.entries.get("Matrix", (1, 0, 0, 1, 0, 0)))
                    walk(_decoded(target), target.entries.get("Resources", res), multiply(ctm, form_matrix),
                         depth + 1)

    walk(content, resources, (1, 0, 0, 1, 0, 0), 0)
    return tuple(found)


def _decoded(stream: Stream) -> bytes:
    """A stream's data decoded (Flate only, what svg2pdf and most exporters write; otherwise as is)."""
    kind = stream.entries.get("Filter")
    if kind == "FlateDecode" or kind == ["FlateDecode"]:
        try:
            return zlib.decompressobj().decompress(stream.data, 64 << 20)
        except zlib.error:
            return b""
    return stream.data


def _see_through(content: bytes, resources: Any, objects: list[Any]) -> bool:
    """Whether the art lets what lies beneath show through anywhere: an alpha below 1, a soft
    mask, a blend mode, or a picture with a soft mask (what a PDF/X-1a file must flatten)."""
    for value in [resources, *objects]:
        value = value.entries if isinstance(value, Stream) else value
        if not isinstance(value, dict):
            continue
        if value.get("Type") == "ExtGState" or "ca" in value or "CA" in value or "SMask" in value:
            if any(isinstance(value.get(k), (int, float)) and value.get(k) < 1 for k in ("ca", "CA")):
                return True
            if value.get("SMask") not in (None, "None"):
                return True
            if value.get("BM") not in (None, "Normal", "Compatible"):
                return True
    return False


# --- recolouring ----------------------------------------------------------------------------

_LUMA = (0.299, 0.587, 0.114)  # ITU-R 601, what imagefile.greyed (Pillow's "L") makes of pictures


class _Recolorer:
    """Every colour of a page's content as `treatment` prints it: content streams (and the forms,
    patterns, shadings and pictures they paint) rewritten in place, in the page pikepdf opened
    for this treatment alone; soft masks keep their greys (in DeviceGray), as they are opacities."""

    def __init__(self, treatment: Treatment, warnings: list[str]) -> None:
        import pikepdf

        self.pikepdf = pikepdf
        self.treatment = treatment
        self.warnings = warnings
        self.done: set[tuple[int, int]] = set()
        self.original: dict[tuple[object, str], tuple[str, Any]] = {}  # colour spaces as they were

    # colours

    def from_rgb(self, r: float, g: float, b: float) -> list[float]:
        t = self.treatment
        if t.colors == "mask":  # a soft mask's greys are opacities: kept as they are, in DeviceGray
            return [round(_LUMA[0] * r + _LUMA[1] * g + _LUMA[2] * b, 6)]
        if t.colors == "k":
            luma = _LUMA[0] * r + _LUMA[1] * g + _LUMA[2] * b
            return [0.0, 0.0, 0.0, round(paled(1 - luma, t.lighten), 6)]
        from .colors import RGB

        ink = t.separation.color(RGB(min(max(r, 0), 1), min(max(g, 0), 1), min(max(b, 0), 1)))
        return [round(ink.c, 6), round(ink.m, 6), round(ink.y, 6), round(ink.k, 6)]

    def convert(self, family: str, values: list[float]) -> list[float]:
        """A colour of `family` ("gray", "rgb", "cmyk") in the treatment's inks."""
        if family == "gray":
            v = values[0] if values else 0.0
            return self.from_rgb(v, v, v)
        if family == "cmyk":
            c, m, y, k = (values + [0.0] * 4)[:4]
            if self.treatment.colors == "cmyk":
                return [c, m, y, k]
            return self.from_rgb((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))
        r, g, b = (values + [0.0] * 3)[:3]
        return self.from_rgb(r, g, b)

    @property
    def components(self) -> int:
        return 1 if self.treatment.colors == "mask" else 4

    def operator(self, fill: bool) -> Any:
        """What sets a converted colour: k or K (g or G in a soft mask)."""
        op = "g" if self.treatment.colors == "mask" else "k"
        return self.pikepdf.Operator(op if fill else op.upper())

    @staticmethod
    def initial(family: str) -> list[float]:
        """The colour `cs` sets: black, in each space."""
        return {"gray": [0.0], "rgb": [0.0, 0.0, 0.0], "cmyk": [0.0, 0.0, 0.0, 1.0]}[family]

    @property
    def space(self) -> Any:
        return self.pikepdf.Name("/DeviceGray" if self.treatment.colors == "mask" else "/DeviceCMYK")

    def family(self, space: Any, resources: Any) -> tuple[str, Any]:
        """What kind of colour space `space` is: ("gray"|"rgb"|"cmyk", None), ("pattern", base),
        ("indexed", space) or ("other", space)."""
        pikepdf = self.pikepdf
        if isinstance(space, pikepdf.Name) and space not in ("/DeviceGray", "/DeviceRGB", "/DeviceCMYK",
                                                                "/Pattern", "/G", "/RGB", "/CMYK"):
            before = self.original.get((self.identity(resources), str(space)))
            if before is not None:  # a space this recolouring replaced already
                return before
            spaces = resources.get("/ColorSpace") if resources is not None else None
            found = spaces.get(space) if spaces is not None else None
            if found is not None:
                space = found
        if isinstance(space, pikepdf.Name):
            return {"/DeviceGray": ("gray", None), "/G": ("gray", None), "/DeviceRGB": ("rgb", None),
                    "/RGB": ("rgb", None), "/DeviceCMYK": ("cmyk", None), "/CMYK": ("cmyk", None),
                    "/Pattern": ("pattern", None)}.get(str(space), ("other", space))
        if isinstance(space, pikepdf.Array) and len(space):
            kind = str(space[0])
            if kind == "/ICCBased":
                n = int(space[1].get("/N", 3))
                return ({1: "gray", 4: "cmyk"}.get(n, "rgb"), None)
            if kind in ("/CalRGB",):
                return ("rgb", None)
            if kind in ("/CalGray",):
                return ("gray", None)
            if kind == "/Pattern":
                return ("pattern", space[1] if len(space) > 1 else None)
            if kind == "/Indexed":
                return ("indexed", space)
            if kind in ("/Separation", "/DeviceN"):
                return ("spot", space)
            if kind == "/Lab":
                return ("lab", space)
        return ("other", space)

    # content streams

    def stream(self, data: bytes, resources: Any) -> bytes:
        pikepdf = self.pikepdf
        try:
            instructions = _parse(data)
        except pikepdf.PdfError:
            return data
        out = []
        fill, stroke = ("gray", None), ("gray", None)
        for item in instructions:
            if isinstance(item, pikepdf.ContentStreamInlineImage):
                self.warnings.append("has an inline picture, printed in its own colours")
                out.append(item)
                continue
            operands, operator = item
            op = str(operator)
            if op in ("g", "G", "rg", "RG", "k", "K"):
                family = {"g": "gray", "rg": "rgb", "k": "cmyk"}[op.lower()]
                values = self.convert(family, [float(v) for v in operands])
                out.append((values, self.operator(op.islower())))
                continue
            if op in ("cs", "CS") and operands:
                space = self.family(operands[0], resources)
                if space[0] in ("gray", "rgb", "cmyk"):  # its colours are set with k (or g) from here on
                    out.append((self.convert(space[0], self.initial(space[0])), self.operator(op == "cs")))
                else:
                    out.append(item)
                if op == "cs":
                    fill = space
                else:
                    stroke = space
                continue
            if op in ("sc", "scn", "SC", "SCN"):
                current = fill if op.islower() else stroke
                numbers = [float(v) for v in operands if isinstance(v, (int, float, Decimal))]
                names = [v for v in operands if isinstance(v, pikepdf.Name)]
                if current[0] in ("gray", "rgb", "cmyk") and not names:
                    out.append((self.convert(current[0], numbers), self.operator(op.islower())))
                    continue
                if current[0] == "pattern" and names:
                    self.pattern(names[0], resources, current[1])
                    if numbers and current[1] is not None:
                        base = self.family(current[1], resources)
                        if base[0] in ("gray", "rgb", "cmyk"):
                            out.append(([*self.convert(base[0], numbers), names[0]], operator))
                            continue
                out.append(item)
                continue
            if op == "sh" and operands:
                self.shading_named(operands[0], resources)
            out.append(item)
        self.resources(resources)
        return pikepdf.unparse_content_stream(out)

    def resources(self, resources: Any) -> None:
        """Recolour what `resources` names that is painted: pictures and forms, patterns, shadings,
        and colour spaces' palettes; soft masks (in ExtGState) are not."""
        pikepdf = self.pikepdf
        if resources is None:
            return
        for name, xobject in (resources.get("/XObject") or {}).items():
            if isinstance(xobject, pikepdf.Stream):
                self.xobject(xobject, resources)
        for name, shading in (resources.get("/Shading") or {}).items():
            self.shading(shading, resources)
        for name, pattern in (resources.get("/Pattern") or {}).items():
            self.pattern_object(pattern, resources)
        for name, state in (resources.get("/ExtGState") or {}).items():
            mask = state.get("/SMask")
            if isinstance(mask, pikepdf.Dictionary) and self.once(mask):
                self.soft_mask(mask)
        spaces = resources.get("/ColorSpace")
        if spaces is not None:
            for name in list(spaces.keys()):
                space = spaces[name]
                family, _ = self.family(space, None)
                self.original[(self.identity(resources), str(name))] = (family, None)
                if family in ("gray", "rgb", "cmyk"):
                    spaces[name] = self.space
                elif family == "indexed":
                    spaces[name] = self.indexed(space, resources)

    @staticmethod
    def identity(resources: Any) -> object:
        """What tells one resource dictionary from another, direct or not."""
        if resources is None:
            return None
        return resources.objgen if resources.is_indirect else id(resources)

    def once(self, obj: Any) -> bool:
        key = obj.objgen if obj.is_indirect else (id(obj), -1)
        if key in self.done:
            return False
        self.done.add(key)
        return True

    def xobject(self, xobject: Any, resources: Any) -> None:
        if not self.once(xobject):
            return
        kind = xobject.get("/Subtype")
        if kind == "/Image":
            self.image(xobject)
        elif kind == "/Form":
            inner = xobject.get("/Resources")
            data = self.stream(xobject.read_bytes(), inner if inner is not None else resources)
            xobject.write(data)
            group = xobject.get("/Group")
            if group is not None and "/CS" in group:
                del group["/CS"]

    def soft_mask(self, mask: Any) -> None:
        """A soft mask's group in DeviceGray, its greys kept: no RGB is left, and the mask is the same."""
        pikepdf = self.pikepdf
        masks = _Recolorer(Treatment("mask"), self.warnings)
        masks.done = self.done
        group = mask.get("/G")
        if isinstance(group, pikepdf.Stream) and self.once(group):
            inner = group.get("/Resources")
            group.write(masks.stream(group.read_bytes(), inner))
            if group.get("/Group") is not None:
                group.Group.CS = pikepdf.Name("/DeviceGray")
        if "/BC" in mask:
            family = "gray" if len(mask.BC) == 1 else "cmyk" if len(mask.BC) == 4 else "rgb"
            mask.BC = pikepdf.Array(masks.convert(family, [float(v) for v in mask.BC]))

    def image(self, image: Any) -> None:
        pikepdf = self.pikepdf
        if image.get("/ImageMask", False):
            return  # a stencil: painted in the fill colour, converted where it is set
        try:
            picture = pikepdf.PdfImage(image).as_pil_image()
        except Exception as exc:  # noqa: BLE001 - a picture qpdf and Pillow cannot decode together
            self.warnings.append(f"has a picture that cannot be recoloured ({_first_line(exc)}): "
                                 "printed in its own colours")
            return
        from .imagefile import greyed

        if picture.mode == "CMYK" and self.treatment.colors == "k":
            picture = picture.convert("RGB")
        if self.treatment.colors in ("k", "mask"):
            out = greyed(picture.convert("RGB") if picture.mode not in ("L", "RGB") else picture,
                         self.treatment.lighten if self.treatment.colors == "k" else 0.0)
            mode, space = "L", "/DeviceGray"
        else:
            out = picture if picture.mode == "CMYK" else self.treatment.separation.picture(picture.convert("RGB"))
            mode, space = "CMYK", "/DeviceCMYK"
        out = out.convert(mode)
        image.write(zlib.compress(out.tobytes()), filter=pikepdf.Name.FlateDecode)
        image.ColorSpace = pikepdf.Name(space)
        image.BitsPerComponent = 8
        for key in ("/Decode", "/DecodeParms", "/Intent"):
            if key in image:
                del image[key]

    def indexed(self, space: Any, resources: Any) -> Any:
        pikepdf = self.pikepdf
        family, _ = self.family(space[1], resources)
        table = space[3]
        data = table.read_bytes() if isinstance(table, pikepdf.Stream) else bytes(table)
        n = {"gray": 1, "rgb": 3, "cmyk": 4}.get(family)
        if n is None:
            return space
        out = bytearray()
        for i in range(0, len(data) - n + 1, n):
            values = self.convert(family, [b / 255 for b in data[i:i + n]])
            out += bytes(round(min(max(v, 0), 1) * 255) for v in values)
        return pikepdf.Array([pikepdf.Name("/Indexed"), self.space, space[2], pikepdf.String(bytes(out))])

    def pattern(self, name: Any, resources: Any, _base: Any) -> None:
        patterns = resources.get("/Pattern") if resources is not None else None
        if patterns is not None and name in patterns:
            self.pattern_object(patterns[name], resources)

    def pattern_object(self, pattern: Any, resources: Any) -> None:
        if not self.once(pattern):
            return
        if int(pattern.get("/PatternType", 1)) == 2:
            shading = pattern.get("/Shading")
            if shading is not None:
                self.shading(shading, resources)
            return
        inner = pattern.get("/Resources")
        pattern.write(self.stream(pattern.read_bytes(), inner if inner is not None else resources))

    def shading_named(self, name: Any, resources: Any) -> None:
        shadings = resources.get("/Shading") if resources is not None else None
        if shadings is not None and name in shadings:
            self.shading(shadings[name], resources)

    def shading(self, shading: Any, resources: Any) -> None:
        pikepdf = self.pikepdf
        if not self.once(shading):
            return
        family, _ = self.family(shading.get("/ColorSpace"), resources)
        if family not in ("gray", "rgb", "cmyk"):
            return
        kind = int(shading.get("/ShadingType", 0))
        function = shading.get("/Function")
        if kind not in (1, 2, 3) or function is None:
            self.warnings.append("has a mesh gradient, printed in its own colours")
            return
        try:
            shading.Function = self.function(function, family)
        except ValueError:
            self.warnings.append("has a gradient whose colours cannot be recoloured, printed in its own colours")
            return
        shading.ColorSpace = self.space
        if "/Background" in shading:
            shading.Background = pikepdf.Array(self.convert(family, [float(v) for v in shading.Background]))

    def function(self, function: Any, family: str) -> Any:
        """A colour function (types 2 and 3; sampled ones of one input) giving the treatment's inks."""
        pikepdf = self.pikepdf
        if isinstance(function, pikepdf.Array):
            if len(function) == 1:
                return self.function(function[0], family)
            # one function a component: sample their ends (exponential pieces are linear, N = 1)
            raise ValueError("a function a component")
        kind = int(function.get("/FunctionType", -1))
        if kind == 2:
            c0 = [float(v) for v in function.get("/C0", [0])]
            c1 = [float(v) for v in function.get("/C1", [1])]
            return pikepdf.Dictionary(FunctionType=2, Domain=function.get("/Domain", pikepdf.Array([0, 1])),
                                      C0=pikepdf.Array(self.convert(family, c0)),
                                      C1=pikepdf.Array(self.convert(family, c1)),
                                      N=function.get("/N", 1), Range=pikepdf.Array([0, 1] * self.components))
        if kind == 3:
            return pikepdf.Dictionary(
                FunctionType=3, Domain=function.get("/Domain"), Bounds=function.get("/Bounds"),
                Encode=function.get("/Encode"),
                Functions=pikepdf.Array([self.function(f, family) for f in function.get("/Functions")]))
        if kind == 0:
            return self.sampled(function, family)
        raise ValueError(f"function type {kind}")

    def sampled(self, function: Any, family: str) -> Any:
        """A sampled function of one input, its samples turned into the treatment's inks (taken at
        up to 256 points)."""
        pikepdf = self.pikepdf
        size = [int(v) for v in function.get("/Size")]
        bits = int(function.get("/BitsPerSample", 8))
        if len(size) != 1 or bits not in (8, 16):
            raise ValueError("a sampled function of several inputs")
        n = {"gray": 1, "rgb": 3, "cmyk": 4}[family]
        data = function.read_bytes()
        step = bits // 8
        top = (1 << bits) - 1
        rng = [float(v) for v in function.get("/Range")]
        samples = []
        for i in range(size[0]):
            values = []
            for j in range(n):
                at = (i * n + j) * step
                raw = int.from_bytes(data[at:at + step], "big") if at + step <= len(data) else 0
                lo, hi = rng[2 * j], rng[2 * j + 1]
                values.append(lo + raw / top * (hi - lo))
            samples.append(self.convert(family, values))
        out = bytes(round(min(max(v, 0), 1) * 255) for sample in samples for v in sample)
        made = pikepdf.Stream(function.owner, out)
        made.FunctionType = 0
        made.Domain = function.get("/Domain")
        made.Range = pikepdf.Array([0, 1] * self.components)
        made.Size = pikepdf.Array(size)
        made.BitsPerSample = 8
        return made
