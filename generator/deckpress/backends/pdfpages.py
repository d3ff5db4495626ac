"""Documents to PDF: pages of placed faces and their furniture, written atomically.

Imposition (deckpress.imposition) says what goes where, in millimetres: `FurnishedPage`s (a sheet's
pieces, its furniture and label, its page boxes) and `FurniturePage`s (furniture alone, as on the
calibration sheet). This module only draws them: faces through their forms (backends/pdf.py),
each furniture value on the page's canvas (backends/pdfcanvas.py), page boxes, document info and
viewer preferences, written as it goes (backends/pdffile.py). Furniture that many pages share is
one form, drawn once a build and named by a digest of what it draws, like the faces.
"""

from __future__ import annotations

import functools
import hashlib
import os
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import BinaryIO

from ..atomic import replacing
from ..face import Text
from ..text.fonts import FontSet
from ..imposition.cutpaths import cut_paths
from ..imposition.document import DocInfo, FurnishedPage, Sheet
from ..imposition.furniture import (BLACK, LABEL_FONT, WHITE, AlignmentMark, Band, Block, CutMarks, CutOutlines,
                                    FoldLine,
                                    Furniture, FurniturePage, GlueStrip, Label, RegistrationMarks, Ring, Rule,
                                    ScaleBar, TileMarks, Words)
from ..separation import Separation
from .pdf import MM, FaceForms, face_glyphs, place
from .pdfcanvas import Canvas, Form, ResourceWriter
from .pdffile import COMPACT_VERSION, VERSION, Name, PdfFile, Raw, Ref, digest, dumps, stream_body
from .pdffonts import Fonts

_PAGE = Name("Page")

BODY_FONT = "sans"  #: what a page's text starts in: embedded, never Helvetica


def write_document(path: Path, pages: Sequence[FurnishedPage | FurniturePage], info: DocInfo,
                   progress: Callable[[int], None] | None = None, forms: FaceForms | None = None) -> Path:
    """Write the pages to `path` via a temporary file, so a failed build leaves no half file;
    `progress` hears of each page done. The documents of one build share `forms`, so each
    face is drawn once for all of them."""
    with replacing(path) as tmp, open(tmp, "wb") as sink:
        write_pages(sink, pages, info, forms or FaceForms(), progress)
    return path


_FONTS = FontSet()  # the bundled families: furniture names its fonts like layouts do


@functools.lru_cache(maxsize=None)
def _font(ref: str) -> str:
    """The font (its `fonts.font_ref`) a family reference like ``sans-bold`` names."""
    return _FONTS.file(ref).path


class PageWriter:
    """A PDF written page by page to `sink`: each page's content with the forms, pictures and font
    subsets it names (each written once), then the font subsets, the page tree, the catalogue and
    the document's info (`close`)."""

    def __init__(self, sink: BinaryIO, version: str = VERSION, compact: bool = False) -> None:
        self.pdf = PdfFile(sink, COMPACT_VERSION if compact and version < COMPACT_VERSION else version, compact)
        self.resources = ResourceWriter(self.pdf)
        self.tree = self.pdf.reserve()
        self.kids: list[Ref] = []
        self._heads: dict[tuple, bytes] = {}

    def page(self, width: float, height: float, canvas: Canvas, boxes: dict[str, Raw] | None = None) -> None:
        """A page `width` × `height` mm showing what `canvas` drew, with page `boxes` (`_box`)."""
        resources = self.resources.resources(canvas.resources)
        contents = self.pdf.write_formatted(stream_body({}, canvas.content()))
        self.kids.append(self.pdf.write_formatted(self._head(width, height, boxes) + resources +
                                                  b" /Contents %d 0 R >>" % contents))

    def _head(self, width: float, height: float, boxes: dict[str, Raw] | None) -> bytes:
        """A page dictionary up to its resources: the same for every page of a size and boxes."""
        key = (width, height, tuple(boxes.items()) if boxes else ())
        head = self._heads.get(key)
        if head is None:
            entries = {"Type": _PAGE, "Parent": self.tree, "MediaBox": _box((0.0, 0.0, width, height), height),
                       **(boxes or {})}
            head = self._heads[key] = dumps(entries)[:-2] + b"/Resources "
        return head

    def close(self, info: dict[str, object], preferences: dict[str, object] | None = None,
              catalog: dict[str, object] | None = None) -> None:
        """Write the font subsets, the page tree, the catalogue (with `preferences` for viewers and
        any further `catalog` entries) and the document's `info`, and end the file."""
        self.resources.finish()
        pdf = self.pdf
        pdf.write({"Type": Name("Pages"), "Kids": self.kids, "Count": len(self.kids)}, self.tree)
        entries: dict[str, object] = {"Type": Name("Catalog"), "Pages": self.tree}
        if preferences:
            entries["ViewerPreferences"] = preferences
        entries.update(catalog or {})
        pdf.close(pdf.write(entries), pdf.write({**info, "Creator": "deckpress", "Producer": "deckpress"}))


def write_pages(sink: BinaryIO, pages: Sequence[FurnishedPage | FurniturePage], info: DocInfo,
                forms: FaceForms, progress: Callable[[int], None] | None = None) -> None:
    """The document of `pages` written to `sink`."""
    if info.standard not in ("", PDF_X1A, PDF_X4):
        raise ValueError(f"no such PDF standard: {info.standard!r}")
    # home sheets compact (object streams, PDF 1.5); a print shop's PDF/X file as its standard has it
    writer = PageWriter(sink, X4_VERSION if info.standard == PDF_X4 else VERSION, compact=not info.standard)
    shared = _SharedFurniture(forms, info.colors)
    # PDF/X-1a (PDF 1.4) has no optional content: its die line is the separation alone, in no group
    drawn_die_line = bool(info.marking.die_line)
    die_line = writer.pdf.reserve() if drawn_die_line and info.standard != PDF_X1A else None
    for page in pages:
        W, H = page.paper
        canvas = Canvas(forms.fonts, info.colors, _font(BODY_FONT), 8, (0.0, 0.0, W * MM, H * MM), forms.separation)
        boxes = None
        if isinstance(page, FurniturePage):
            _furniture_page(canvas, page)
        else:
            scale = info.marking.scale
            if scale != (1.0, 1.0):
                canvas.saveState()
                canvas.transform(*scaled_about_centre(scale, W, H))
            _sheet_page(canvas, page, forms, shared, info.colors)
            if drawn_die_line and page.plan.placements:  # scaled as the pieces are
                draw_die_line(canvas, page, info.marking.die_line, die_line)
            if scale != (1.0, 1.0):
                canvas.restoreState()
            if page.trim_box is not None and page.bleed_box is not None:
                boxes = {"TrimBox": _box(_drawn(page.trim_box, scale, page.paper), H),
                         "BleedBox": _box(_drawn(page.bleed_box, scale, page.paper), H)}
        writer.page(W, H, canvas, boxes)
        if progress:
            progress(1)
    preferences: dict[str, object] = {"PrintScaling": Name("None")}
    if info.duplex:
        preferences["Duplex"] = Name("DuplexFlipShortEdge" if info.marking.flip == "short" else "DuplexFlipLongEdge")
    about: dict[str, object] = {"Title": info.title, "Author": info.author, "Subject": info.subject}
    catalog: dict[str, object] = {}
    if info.standard:
        about |= {"CreationDate": _date(), "ModDate": _date(), "Trapped": Name("False"),
                  "GTS_PDFXVersion": info.standard}
        catalog["OutputIntents"] = [_output_intent(writer, forms.separation, info.standard)]
    if info.standard == PDF_X4:  # PDF/X-4 names itself in XMP too (ISO 15930-7, 6.7.2)
        catalog["Metadata"] = _xmp(writer.pdf, about)
    if die_line is not None:
        catalog |= die_line_catalog(writer.pdf, die_line, info.marking.die_line, printed=info.standard == PDF_X4)
    if info.standard == PDF_X4:
        catalog["Version"] = Name(X4_VERSION)
    writer.close(about, preferences, catalog)


# --- the die line ------------------------------------------------------------------------------------
#
# What print-and-cut RIPs (Roland VersaWorks, Mimaki RasterLink, Summa, Onyx, Caldera) and die-cutting
# shops look for: each cut path stroked, never filled, in a spot colour named exactly `CutContour`
# (a Separation, not a process colour: the RIP routes that separation to the cutter and prints none
# of it), shown as 100 % magenta, set to overprint so it knocks nothing out of the artwork below,
# on its own layer. See docs/CUTTING.md for the sources and for why the layer is seen but not printed.

DIE_LINE_WIDTH = 0.25  #: points: a hairline, as RIPs expect
DIE_LINE_ALTERNATE = (0.0, 1.0, 0.0, 0.0)  #: how it shows without the spot ink: 100 % magenta
DIE_LINE_TAG = "DieLine"  #: the marked content's name for the group, in each page's /Properties


def draw_die_line(canvas: Canvas, page: FurnishedPage, name: str, group: Ref | None) -> None:
    """Every piece's cut path (`imposition.cutpaths`: a card's rounded trim, a box's outline, any
    shape's path) stroked in the separation `name`, overprinting, inside the optional content group
    `group` (None: in none, as PDF/X-1a, which has no optional content, needs it)."""
    H = page.paper[1]
    if group is not None:
        canvas.begin_optional(DIE_LINE_TAG, group)
    canvas.saveState()
    canvas.setStrokeOverprint(True)
    canvas.setFillOverprint(True)
    canvas.setOverprintMask(1)
    canvas.setLineWidth(DIE_LINE_WIDTH)
    canvas.setDash()
    canvas.set_stroke_separation(name, DIE_LINE_ALTERNATE)
    path = canvas.beginPath()
    for ops in cut_paths(page.plan):
        for op, pts in ops:
            xy = [v * MM if k % 2 == 0 else (H - v) * MM for k, v in enumerate(pts)]
            if op == "M":
                path.moveTo(*xy)
            elif op == "L":
                path.lineTo(*xy)
            elif op == "C":
                path.curveTo(*xy)
            elif op == "Z":
                path.close()
    canvas.drawPath(path, stroke=1, fill=0)
    canvas.restoreState()
    if group is not None:
        canvas.end_optional()


def die_line_catalog(pdf: PdfFile, group: Ref, name: str, printed: bool = False) -> dict[str, object]:
    """The optional content group `group` (written here) and the catalogue entries that declare it:
    shown on screen, not printed (its print usage OFF, applied to printing by the default
    configuration's /AS), PDF 1.5 for optional content. A `printed` one (a factory's PDF/X-4 file)
    is a plain group, on: PDF/X-4 forbids /AS (ISO 15930-7, 6.13), and the factory's RIP sends the
    separation to its die, not to a plate, so it prints nothing on the card either way."""
    if printed:
        pdf.write({"Type": Name("OCG"), "Name": name}, group)
        return {"OCProperties": {"OCGs": [group], "D": {"Name": "deckpress", "Order": [group], "ON": [group]}}}
    pdf.write({"Type": Name("OCG"), "Name": name,
               "Usage": {"Print": {"PrintState": Name("OFF")}, "View": {"ViewState": Name("ON")}}}, group)
    applied = [{"Event": Name("View"), "Category": [Name("View")], "OCGs": [group]},
               {"Event": Name("Print"), "Category": [Name("Print")], "OCGs": [group]}]
    return {"Version": Name("1.5"),
            "OCProperties": {"OCGs": [group], "D": {"Name": "deckpress", "Order": [group], "ON": [group],
                                                   "AS": applied}}}


PDF_X1A = "PDF/X-1a:2003"  #: CMYK only, fonts embedded, no transparency: what DriveThruCards asks for
#: The printing condition a PDF/X file is made for. DriveThruCards converts to "U.S. Web Coated
#: (SWOP) v2", whose characterisation is registered with the ICC as "CGATS TR 001": named so, a
#: PDF/X-1a file needs no profile embedded (ISO 15930-4), and none is shipped.
SWOP = {"Type": Name("OutputIntent"), "S": Name("GTS_PDFX"), "OutputConditionIdentifier": "CGATS TR 001",
        "RegistryName": "http://www.color.org", "OutputCondition": "SWOP (Publication) Grade 5 Paper",
        "Info": "U.S. Web Coated (SWOP) v2"}


PDF_X4 = "PDF/X-4"  #: CMYK, fonts embedded, transparency and layers allowed, the press profile embedded: factories
X4_VERSION = "1.6"  #: PDF/X-4 is PDF 1.6 (ISO 15930-7)


def _output_intent(writer: PageWriter, separation: Separation, standard: str = PDF_X1A) -> dict[str, object]:
    """The condition a PDF/X file was separated for: SWOP for deckpress's formula; the user's own
    profile (theirs to give the print shop) embedded, when the build separated with it. PDF/X-4
    embeds its profile always (a registered name alone is X-1a's and X-3's), so the build gives one."""
    given = separation.output_intent()
    if given is None:
        if standard == PDF_X4:
            raise ValueError("a PDF/X-4 file embeds the press's output profile: separate it with one")
        return SWOP
    description, profile = given
    stream = writer.pdf.write_stream({"N": 4}, profile)
    return {"Type": Name("OutputIntent"), "S": Name("GTS_PDFX"), "OutputConditionIdentifier": "Custom",
            "OutputCondition": description, "Info": description, "DestOutputProfile": stream}


def _xmp(pdf: PdfFile, about: dict[str, object]) -> Ref:
    """The document's XMP metadata, as PDF/X-4 asks (ISO 15930-7, 6.7.2): its title, author and
    dates as the info dictionary has them, `pdfxid:GTS_PDFXVersion` and `pdf:Trapped`, and document
    and instance ids made of its title and date, so a rebuild gives the same bytes. Uncompressed,
    so that a tool that does not read PDF finds it."""
    from xml.sax.saxutils import escape

    date = _xmp_date(str(about["CreationDate"]))
    ident = hashlib.sha1(f"{about['Title']}|{date}".encode()).hexdigest()
    uuid = f"uuid:{ident[:8]}-{ident[8:12]}-{ident[12:16]}-{ident[16:20]}-{ident[20:32]}"
    title, author = escape(str(about["Title"])), escape(str(about["Author"]))
    xml = f"""<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
    xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/"
    xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/">
   <dc:format>application/pdf</dc:format>
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">{title}</rdf:li></rdf:Alt></dc:title>
   <dc:creator><rdf:Seq><rdf:li>{author}</rdf:li></rdf:Seq></dc:creator>
   <xmp:CreateDate>{date}</xmp:CreateDate>
   <xmp:ModifyDate>{date}</xmp:ModifyDate>
   <xmp:MetadataDate>{date}</xmp:MetadataDate>
   <xmp:CreatorTool>deckpress</xmp:CreatorTool>
   <pdf:Producer>deckpress</pdf:Producer>
   <pdf:Trapped>False</pdf:Trapped>
   <pdfxid:GTS_PDFXVersion>{PDF_X4}</pdfxid:GTS_PDFXVersion>
   <xmpMM:DocumentID>{uuid}</xmpMM:DocumentID>
   <xmpMM:InstanceID>{uuid}</xmpMM:InstanceID>
   <xmpMM:VersionID>1</xmpMM:VersionID>
   <xmpMM:RenditionClass>default</xmpMM:RenditionClass>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>"""
    return pdf.write_stream({"Type": Name("Metadata"), "Subtype": Name("XML")}, xml.encode("utf-8"), compress=False)


def _xmp_date(pdf_date: str) -> str:
    """A PDF date (`D:20000101000000Z`) as XMP writes dates (`2000-01-01T00:00:00Z`)."""
    d = pdf_date[2:]
    return f"{d[0:4]}-{d[4:6]}-{d[6:8]}T{d[8:10]}:{d[10:12]}:{d[12:14]}Z"


def _date() -> str:
    """The document's date as PDF writes dates: SOURCE_DATE_EPOCH's (the reproducible-builds
    convention) when it is set, else the first moment of 2000, so that a rebuild gives the same
    bytes. PDF/X requires a creation and a modification date; nothing reads their value."""
    seconds = int(os.environ.get("SOURCE_DATE_EPOCH", "946684800") or 946684800)
    return time.strftime("D:%Y%m%d%H%M%SZ", time.gmtime(seconds))


@functools.lru_cache(maxsize=1024)  # the same few boxes, page after page
def _box(box: tuple[float, float, float, float], H: float) -> Raw:
    """A page box (x0, y0, x1, y1 in mm from the top-left) in PDF's points from the bottom-left."""
    x0, y0, x1, y1 = box
    return Raw(dumps([x0 * MM, (H - y1) * MM, x1 * MM, (H - y0) * MM]))


def scaled_about_centre(scale: tuple[float, float], W: float, H: float) -> tuple[float, ...]:
    """The `cm` (PDF points, y up) that draws a page `W` × `H` mm at 1/`scale` about its centre: a
    printer that prints at `scale` (0.992: 99.2 %) then puts every piece at its own size, and the
    centre, where the calibration sheet's middle target is, stays where it was (what the printer
    moves besides scaling is the back offset's to cancel, measured there)."""
    kx, ky = 1.0 / scale[0], 1.0 / scale[1]
    cx, cy = W * MM / 2, H * MM / 2
    return (kx, 0.0, 0.0, ky, cx * (1.0 - kx), cy * (1.0 - ky))


def _drawn(box: tuple[float, float, float, float], scale: tuple[float, float],
           paper: tuple[float, float]) -> tuple[float, float, float, float]:
    """Where a page box (mm from the top-left) is drawn on a page drawn at 1/`scale` about its
    centre, clamped to the paper."""
    if scale == (1.0, 1.0):
        return box
    W, H = paper
    x0, y0, x1, y1 = ((v - c) / k + c for v, c, k in zip(box, (W / 2, H / 2) * 2, scale * 2))
    return (max(x0, 0.0), max(y0, 0.0), min(x1, W), min(y1, H))


def learn_glyphs(forms: FaceForms, sheets: Iterable[Sheet]) -> None:
    """Learn the glyphs of the sheets' faces and labels, with what they stand for, for every
    document of the build before any is written (see pdffonts)."""
    glyphs: dict[str, set[tuple[int, str]]] = {}
    seen: set[int] = set()  # faces, and lines of shaped text, read already: the sheets keep them alive
    label_font = _font(LABEL_FONT)
    for sheet in sheets:
        for placed in sheet.plan.placements:
            if id(placed.face) not in seen:
                seen.add(id(placed.face))
                face_glyphs(placed.face.items, glyphs, seen)
        face_glyphs((Text(0.0, 0.0, sheet.label, label_font, 1.0, BLACK),), glyphs, seen)  # its words read once
    forms.fonts.learn(glyphs)


def _furniture_page(canvas: Canvas, page: FurniturePage) -> None:
    H = page.paper[1]
    if page.shift is not None:
        canvas.saveState()
        canvas.translate(page.shift[0] * MM, -page.shift[1] * MM)
    for item in page.items:
        draw_furniture(canvas, item, H)
    if page.shift is not None:
        canvas.restoreState()


class _SharedFurniture:
    """Each distinct furniture of a build drawn once, as a form, and placed on every page that has it
    (named by a digest of what it draws, so the same in every document)."""

    def __init__(self, forms: FaceForms, colors: str) -> None:
        self.forms, self.colors = forms, colors
        self.known: dict[tuple[tuple[Furniture, ...], float], Form] = forms.furniture.setdefault(colors, {})

    def form(self, furniture: tuple[Furniture, ...], page_height: float, box) -> Form:
        key = (furniture, page_height)
        form = self.known.get(key)
        if form is None:
            canvas = Canvas(self.forms.fonts, self.colors, _font(BODY_FONT), 8, box, self.forms.separation)
            for item in furniture:
                draw_furniture(canvas, item, page_height)
            content = canvas.content()
            name = "sheet" + digest(content, 8).hex()
            form = self.known[key] = Form(name, box, content, canvas.resources)
        return form


def _sheet_page(canvas: Canvas, page: FurnishedPage, forms: FaceForms, shared: _SharedFurniture,
                colors: str) -> None:
    H = page.paper[1]
    for p in page.plan.placements:
        place(canvas, forms.form(p.face, colors), p.matrix, H, p.clip)
    if page.furniture:
        canvas.doForm(shared.form(page.furniture, H, canvas.box))
    if page.label is not None:
        draw_furniture(canvas, page.label, H)


def draw_furniture(canvas: Canvas, item: Furniture, page_height: float) -> None:
    """Draw one furniture value on a page `page_height` mm tall (or in a form placed on it as it is)."""
    _DRAW[type(item)](canvas, item, page_height)


def _cut_marks(canvas: Canvas, marks: CutMarks, H: float) -> None:
    """Each mark drawn twice, white and wide under black and thin."""
    path = canvas.beginPath()
    for x1, y1, x2, y2 in marks.segments:
        path.moveTo(x1 * MM, (H - y1) * MM)
        path.lineTo(x2 * MM, (H - y2) * MM)
    for color, width in ((WHITE, marks.halo), (BLACK, marks.width)):
        canvas.set_stroke(color)
        canvas.setLineWidth(width * MM)
        canvas.drawPath(path, stroke=1, fill=0)


def _cut_outlines(canvas: Canvas, outlines: CutOutlines, H: float) -> None:
    """Shaped pieces' cut lines: a thin white line under black dashes."""
    path = canvas.beginPath()
    for ops in outlines.paths:
        for op, v in ops:
            if op == "M":
                path.moveTo(v[0] * MM, (H - v[1]) * MM)
            elif op == "L":
                path.lineTo(v[0] * MM, (H - v[1]) * MM)
            elif op == "C":
                path.curveTo(v[0] * MM, (H - v[1]) * MM, v[2] * MM, (H - v[3]) * MM, v[4] * MM, (H - v[5]) * MM)
            else:
                path.close()
    canvas.saveState()
    canvas.set_stroke(WHITE)
    canvas.setLineWidth(outlines.halo * MM)
    canvas.drawPath(path, stroke=1, fill=0)
    canvas.set_stroke(BLACK)
    canvas.setLineWidth(outlines.width * MM)
    canvas.setDash([outlines.dash[0] * MM, outlines.dash[1] * MM])
    canvas.drawPath(path, stroke=1, fill=0)
    canvas.restoreState()


def _registration_marks(canvas: Canvas, marks: RegistrationMarks, H: float) -> None:
    canvas.set_fill(BLACK)
    for x0, y0, x1, y1 in marks.boxes:
        canvas.rect(x0 * MM, (H - y1) * MM, (x1 - x0) * MM, (y1 - y0) * MM, stroke=0, fill=1)


def _fold_line(canvas: Canvas, fold: FoldLine, H: float) -> None:
    (x0, y0), (x1, y1) = fold.start, fold.end
    word = fold.word
    canvas.saveState()
    canvas.set_stroke(BLACK)
    canvas.setLineWidth(fold.width * MM)
    canvas.setDash([fold.dash[0] * MM, fold.dash[1] * MM])
    canvas.line(x0 * MM, (H - y0) * MM, x1 * MM, (H - y1) * MM)
    canvas.translate(word.x * MM, (H - word.y) * MM)
    if word.turned:
        canvas.rotate(90)
    canvas.set_fill(BLACK)
    canvas.setFont(_font(word.font), word.size)
    canvas.drawText(0, 0, word.text, word.align)
    canvas.restoreState()


def _tile_marks(canvas: Canvas, tile: TileMarks, H: float) -> None:
    name, instructions = tile.name, tile.instructions
    canvas.saveState()
    canvas.setFont(_font(name.font), name.size)
    canvas.set_fill(BLACK)
    canvas.drawText(name.x * MM, (H - name.y) * MM, name.text, name.align)
    canvas.setFont(_font(instructions.font), instructions.size)
    canvas.drawText(instructions.x * MM, (H - instructions.y) * MM, instructions.text, instructions.align)
    for mark in tile.seams:
        draw_furniture(canvas, mark, H)
    canvas.restoreState()


def _glue_strip(canvas: Canvas, strip: GlueStrip, H: float) -> None:
    bx0, by0, bx1, by1 = strip.box
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(bx0 * MM, (H - by1) * MM, (bx1 - bx0) * MM, (by1 - by0) * MM)
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.set_fill(WHITE)
    canvas.rect(bx0 * MM, (H - by1) * MM, (bx1 - bx0) * MM, (by1 - by0) * MM, stroke=0, fill=1)
    canvas.set_stroke(strip.hatch_color)
    canvas.setLineWidth(strip.hatch_width * MM)
    hatch = canvas.beginPath()
    for x1, y1, x2, y2 in strip.hatch:
        hatch.moveTo(x1 * MM, (H - y1) * MM)
        hatch.lineTo(x2 * MM, (H - y2) * MM)
    canvas.drawPath(hatch, stroke=1, fill=0)
    words = strip.words
    canvas.set_fill(BLACK)
    canvas.setFont(_font(words.font), words.size)
    canvas.translate(words.x * MM, (H - words.y) * MM)
    if words.turned:
        canvas.rotate(90)
    canvas.drawText(0, 0, words.text, words.align)
    canvas.restoreState()
    x1, y1, x2, y2 = strip.edge  # where the neighbour's cut edge goes
    canvas.set_stroke(BLACK)
    canvas.setLineWidth(strip.edge_width * MM)
    canvas.setDash([strip.edge_dash[0] * MM, strip.edge_dash[1] * MM])
    canvas.line(x1 * MM, (H - y1) * MM, x2 * MM, (H - y2) * MM)
    canvas.setDash([])


def _alignment_mark(canvas: Canvas, mark: AlignmentMark, H: float) -> None:
    p = canvas.beginPath()
    p.moveTo(mark.points[0][0] * MM, (H - mark.points[0][1]) * MM)
    for x, y in mark.points[1:]:
        p.lineTo(x * MM, (H - y) * MM)
    p.close()
    canvas.set_fill(BLACK)
    canvas.drawPath(p, stroke=0, fill=1)


def _in_band(canvas: Canvas, band: Band | None, H: float, words: Words) -> Callable[[float], float]:
    """Save the graphics state and enter `band` (or stay on the page), set for `words`' font in
    black; returns what turns a y down in the band (or page) into points up."""
    canvas.saveState()
    if band is not None:
        canvas.translate(band.origin[0] * MM, (H - band.origin[1]) * MM)
        if band.turned:
            canvas.rotate(90)
    canvas.setFont(_font(words.font), words.size)
    canvas.set_fill(BLACK)

    def up(y: float) -> float:
        return (H - y) * MM if band is None else -y * MM

    return up


def _scale_bar(canvas: Canvas, bar: ScaleBar, H: float) -> None:
    caption = bar.caption
    up = _in_band(canvas, bar.band, H, caption)
    canvas.set_stroke(BLACK)
    canvas.setLineWidth(bar.line * MM)
    for i in range(int(bar.length // bar.step)):
        canvas.rect((bar.x + bar.step * i) * MM, up(bar.y + bar.height), bar.step * MM, bar.height * MM,
                    stroke=1, fill=1 - i % 2)
    canvas.drawText(caption.x * MM, up(caption.y), caption.text, caption.align)
    canvas.restoreState()


def _label(canvas: Canvas, label: Label, H: float) -> None:
    """A page's label: everything but its words (the band, the white patch, the ink) is the same
    on page after page, so it is drawn once and written again (a label a page was a third of
    writing 10,000 cards)."""
    words = label.words
    setting, x, y = _label_setting(canvas.colors, label.band, label.patch, H, words.font, words.size, words.x,
                                   words.y)
    canvas.saveState()
    canvas.code += setting
    canvas.setFont(_font(words.font), words.size)
    canvas.drawText(x, y, words.text, words.align)
    canvas.restoreState()


@functools.lru_cache(maxsize=256)
def _label_setting(colors: str, band: Band | None, patch: tuple[float, float, float, float], H: float,
                   font: str, size: float, x: float, y: float) -> tuple[list[str], float, float]:
    """What a label draws before its words, in the state `_in_band` leaves after saving it, and
    where its words go (in points in the band)."""
    scratch = Canvas(Fonts(), colors)
    up = _in_band(scratch, band, H, Words("", x, y, size, font))
    x0, y0, x1, y1 = patch
    scratch.set_fill(WHITE)
    scratch.rect(x0 * MM, up(y1), (x1 - x0) * MM, (y1 - y0) * MM, stroke=0, fill=1)
    scratch.set_fill(BLACK)
    return scratch.code[1:], x * MM, up(y)  # after the "q" that saved the state


def _rule(canvas: Canvas, rule: Rule, H: float) -> None:
    x0, y0, x1, y1 = rule.segment
    canvas.set_stroke(rule.color)
    canvas.setLineWidth(rule.width * MM)
    canvas.line(x0 * MM, (H - y0) * MM, x1 * MM, (H - y1) * MM)


def _block(canvas: Canvas, block: Block, H: float) -> None:
    x0, y0, x1, y1 = block.box
    canvas.set_fill(block.color)
    canvas.rect(x0 * MM, (H - y1) * MM, (x1 - x0) * MM, (y1 - y0) * MM, stroke=0, fill=1)


def _ring(canvas: Canvas, ring: Ring, H: float) -> None:
    canvas.set_stroke(BLACK)
    canvas.setLineWidth(ring.width * MM)
    canvas.circle(ring.centre[0] * MM, (H - ring.centre[1]) * MM, ring.radius * MM, stroke=1, fill=0)


def _words(canvas: Canvas, words: Words, H: float) -> None:
    canvas.set_fill(BLACK)
    canvas.setFont(_font(words.font), words.size)
    if words.turned:
        canvas.saveState()
        canvas.translate(words.x * MM, (H - words.y) * MM)
        canvas.rotate(90)
        canvas.drawText(0, 0, words.text, words.align)
        canvas.restoreState()
    else:
        canvas.drawText(words.x * MM, (H - words.y) * MM, words.text, words.align)


_DRAW: dict[type, Callable[[Canvas, Furniture, float], None]] = {
    CutMarks: _cut_marks, CutOutlines: _cut_outlines, RegistrationMarks: _registration_marks, FoldLine: _fold_line,
    TileMarks: _tile_marks,
    GlueStrip: _glue_strip, AlignmentMark: _alignment_mark, ScaleBar: _scale_bar, Label: _label, Rule: _rule,
    Block: _block, Ring: _ring, Words: _words,
}
