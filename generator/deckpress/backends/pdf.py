"""Drawing faces with reportlab: each distinct face becomes one Form XObject.

Coordinates: a face is in millimetres, y down, origin at the trim's top-left. Inside a form
we use points with the same origin and y up, so a form is placed by a single `cm`.
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO, NamedTuple
from weakref import WeakKeyDictionary

import reportlab.rl_config
from PIL import Image as PILImage, ImageChops, ImageMath
from reportlab.lib.colors import CMYKColor, CMYKColorSep, Color as RLColor
from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.lib.utils import ImageReader, _digester
from reportlab.pdfbase import pdfdoc, pdfmetrics, ttfonts
from reportlab.pdfbase.pdfdoc import (PDFDictionary, PDFDocument, PDFFile, PDFImageXObject, PDFName, PDFObject,
                                     PDFResourceDictionary, PDFStream)
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, FILL_NON_ZERO, Canvas

from ..colors import INK_LIMIT, RGB, Color, Gray, to_cmyk
from ..face import (Ellipse, Face, Group, Image, Item, Line, Matrix, Path as PathItem, Rect, Text, multiply)
from ..errors import DeckError
from ..fonts import open_font
from ..imagefile import decoded, embedded_pixels, greyed, is_svg, load_svg, open_raster, raster_pixels, stamp
from ..units import POINTS_PER_MM
from . import rltuning

MM = POINTS_PER_MM  #: points per millimetre

reportlab.rl_config.useA85 = 0  # plain Flate streams: ASCII85 only adds 25 %


def _to_unicode_cmap(fontname: str, subset: list[int]) -> str:
    """reportlab's ToUnicode CMap, but with UTF-16BE surrogate pairs above U+FFFF.

    reportlab writes `<01> <1D15F>` for music symbols, which text extractors read as U+1D15;
    the CMap format wants the UTF-16BE code units `<D834DD5F>`.
    """
    def utf16(cp: int) -> str:
        return chr(cp).encode("utf-16-be", "surrogatepass").hex().upper()

    lines = [
        "/CIDInit /ProcSet findresource begin", "12 dict begin", "begincmap", "/CIDSystemInfo",
        f"<< /Registry ({fontname})", f"/Ordering ({fontname})", "/Supplement 0", ">> def",
        f"/CMapName /{fontname} def", "/CMapType 2 def", "1 begincodespacerange",
        f"<00> <{len(subset) - 1:02X}>", "endcodespacerange", f"{len(subset)} beginbfchar",
    ]
    lines += [f"<{i:02X}> <{utf16(cp)}>" for i, cp in enumerate(subset)]
    lines += ["endbfchar", "endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end"]
    return "\n".join(lines)


@functools.lru_cache(maxsize=256)
def _cached_cmap(fontname: str, subset: tuple[int, ...]) -> str:
    return _to_unicode_cmap(fontname, list(subset))


# every document of a build embeds the same subsets: their CMaps are made once
ttfonts.makeToUnicodeCMap = lambda fontname, subset: _cached_cmap(fontname, tuple(subset))

rltuning.install()  # reportlab's repeated work remembered: the same bytes, sooner


@functools.lru_cache(maxsize=None)
def font_name(path: str) -> str:
    """Register a TrueType file with reportlab (once) and return the name to draw with.

    The file's stem, not its PostScript name: reportlab writes the file's own name into the PDF
    whatever we register. The font is the face `fonts.open_font` read for compose's metrics (and
    checked): the file is not read twice."""
    name = Path(path).stem
    if name in pdfmetrics.getRegisteredFontNames():
        registered = pdfmetrics.getFont(name)
        if getattr(registered.face, "filename", path) != path:
            name = f"{name}-{hashlib.sha1(path.encode()).hexdigest()[:6]}"
    if name not in pdfmetrics.getRegisteredFontNames():
        font = _on_face(name, open_font(path).face)
        font.state = _States(font)
        pdfmetrics.registerFont(font)
    return name


_reading = threading.Lock()


def _on_face(name: str, face: ttfonts.TTFontFace) -> TTFont:
    """A reportlab TTFont on a face read already: TTFont reads its file itself, so for the moment
    it is made, reading gives that face."""
    with _reading:
        reader = ttfonts.TTFontFace
        ttfonts.TTFontFace = lambda filename, validate=0, subfontIndex=0: face
        try:
            return TTFont(name, face.filename)
        finally:
            ttfonts.TTFontFace = reader


def _reportlab_color(color: RLColor | tuple[float, ...]) -> RLColor:
    if isinstance(color, tuple):
        return CMYKColor(*color) if len(color) == 4 else RLColor(*color[:3])
    return color


def k_only(color: RLColor | tuple[float, ...]) -> CMYKColor:
    """enforceColorSpace hook for low-ink files: any colour that slips through (SVG art) becomes
    the grey it would print as, in black ink only, as translucent as it was."""
    color = _reportlab_color(color)
    if isinstance(color, CMYKColor) and color.cyan == color.magenta == color.yellow == 0:
        return color
    r, g, b = color.rgb()
    return CMYKColor(0, 0, 0, round(1 - (0.299 * r + 0.587 * g + 0.114 * b), 4), alpha=color.alpha)


def cmyk_only(color: RLColor | tuple[float, ...]) -> CMYKColor:
    """enforceColorSpace hook for CMYK files: any RGB colour that slips through (SVG art) becomes
    the process colour `to_cmyk` makes of it, so black art is black ink only."""
    color = _reportlab_color(color)
    if isinstance(color, CMYKColor):
        return color
    ink = to_cmyk(RGB(color.red, color.green, color.blue))
    return CMYKColor(ink.c, ink.m, ink.y, ink.k, alpha=color.alpha)


#: A document's colour space: the hook that keeps other colours out of it.
COLOR_SPACES: dict[str, Callable[[RLColor], CMYKColor] | None] = {"rgb": None, "cmyk": cmyk_only, "k": k_only}


#: reportlab's record of the graphics state that a form painted here starts with, as PDF's does:
#: all but the transform (a form has its own space) and the transparency (reset in a group)
_INHERITED = tuple(a for a in Canvas.STATE_ATTRIBUTES if a not in ("_currentMatrix", "_extgstate"))


class _JPEGFile(PDFImageXObject):
    """A JPEG file embedded as it is (DCTDecode), its bytes read from the file only while the
    document is written, one picture at a time: a document placing a thousand JPEGs holds none of
    them while its pages are drawn (reportlab keeps every picture's bytes until it saves)."""

    def __init__(self, name: str, path: str) -> None:
        super().__init__(name, path)  # reads the header (size, colours) as reportlab does
        self.path = path
        self.is_jpeg = self._filters == ("DCTDecode",)  # else a file misnamed .jpg, for reportlab to read
        self.streamContent = None

    def format(self, document: PDFDocument) -> bytes:
        with open(self.path, "rb") as file:
            self.streamContent = file.read()
        try:
            return super().format(document)
        finally:
            self.streamContent = None


class _FormattedOnce(PDFObject):
    """A PDF object that many others of one document contain, written the same in each: formatted
    once (reportlab formats an object again wherever it is contained)."""

    def __init__(self, contained: PDFObject) -> None:
        self.contained = contained
        self._formatted: tuple[PDFDocument, bytes] | None = None

    def format(self, document: PDFDocument) -> bytes:
        if self._formatted is None or self._formatted[0] is not document:
            self._formatted = (document, pdfdoc.format(self.contained, document))
        return self._formatted[1]


class _StreamedDocument(PDFDocument):
    """A reportlab document that writes each object to its file as it is formatted. reportlab
    gathers the formatted objects in a list and joins them before writing, so a document was in
    memory two or three times over; the bytes written are the same, in the same order."""

    _sink: BinaryIO | None = None

    def SaveToFile(self, filename: str | BinaryIO, canvas: Canvas) -> None:  # reportlab's name
        if isinstance(filename, str):
            with open(filename, "wb") as sink:
                self.SaveToFile(sink, canvas)
            return
        self._sink = filename
        try:
            super().SaveToFile(filename, canvas)  # writes what `format` left unwritten: nothing
        finally:
            self._sink = None

    # `format` makes a PDFFile to collect the objects in and keeps it as `self.__accum__` while it
    # formats them: that is the moment to turn its collecting into writing.
    @property
    def __accum__(self) -> PDFFile:
        return self._file

    @__accum__.setter
    def __accum__(self, file: PDFFile) -> None:
        if self._sink is not None:
            for written in file.strings:  # the header, so far
                self._sink.write(written)
            file.strings = []
            file.write = self._sink.write
        self._file = file

    @__accum__.deleter
    def __accum__(self) -> None:
        del self._file


class _SubsetCodes:
    """The codes one document's subsets of one TrueType font give the characters met so far, as
    reportlab's TTFont.splitString assigns them. A code, once given, never changes within the
    document, so a string whose characters all have codes in one subset encodes to that subset
    and those bytes, as splitString would split it."""

    def __init__(self) -> None:
        self.table: dict[int, int] = {}  # character -> its byte in its subset, for str.translate
        self.subsets: list[set[str]] = []  # the characters coded in each subset
        #: (subset, size, leading) -> the operators selecting that subset at that size, as written
        self.selects: dict[tuple[int, float, float], str] = {}

    def encode(self, text: str) -> tuple[int, bytes] | None:
        """(subset, bytes) of a non-empty `text`; None if some character has no code yet or the
        characters lie in different subsets (reportlab then splits the string)."""
        chars = set(text)
        for subset, known in enumerate(self.subsets):
            if chars <= known:
                return subset, text.translate(self.table).encode("latin-1")
        return None

    def learn(self, text: str, assignments: dict[int, int]) -> None:
        """Take the codes of `text`'s characters from reportlab's `assignments` (code point ->
        subset * 256 + byte). A no-break space is drawn as the space, as splitString does;
        a character the font lacks (code 0, never assigned) stays unknown."""
        for char in set(text):
            code = assignments.get(32 if char == "\xa0" else ord(char))
            if code is None:
                continue
            subset, byte = divmod(code, 256)
            while len(self.subsets) <= subset:
                self.subsets.append(set())
            self.subsets[subset].add(char)
            self.table[ord(char)] = byte


class SharedCodes:
    """The character codes of the fonts deckpress registers, the same in every document that
    shares them (the documents of one build). reportlab numbers a font's characters per
    document in the order they are met, and names the font after how many fonts the document
    has, so the same face drew different bytes in each file. With shared codes a face's form is
    the same bytes in every document of its colour space: drawn once, compressed once. Each
    document embeds the characters met so far in the build, a few glyphs more than it uses."""

    def __init__(self) -> None:
        self.fonts: dict[str, _SharedFont] = {}
        #: what drawString knows of each font's codes, for every document (see _SubsetCodes)
        self.known: dict[str, _SubsetCodes] = {}

    def learn(self, characters: dict[str, set[str]]) -> None:
        """Give codes to the characters of each font (by file) that the build's documents will
        show, in code point order, before any document meets them: the codes then depend on the
        build's text alone, not on which of its files came first, so a build of one paper writes
        the same bytes as a build of both (text the documents meet that is not given here, such
        as SVG art's, gets its codes as it is met)."""
        scratch = PDFDocument(invariant=1)
        scratch.shared_codes = self
        for path in sorted(characters):
            font = pdfmetrics.getFont(font_name(path))
            if isinstance(font.state, _States):
                font.splitString("".join(sorted(characters[path])), scratch)

    def font(self, font: TTFont) -> _SharedFont:
        shared = self.fonts.get(font.fontName)
        if shared is None:  # named in order of first use: "T" apart from reportlab's own "F1", "F2", …
            shared = self.fonts[font.fontName] = _SharedFont(font, f"T{len(self.fonts) + 1}")
        return shared


class _SharedFont:
    """One font's codes in a build: reportlab's assignments, subsets and next code, and the name
    its subsets have in every document (`T3+0`, `T3+1`, …)."""

    def __init__(self, font: TTFont, name: str) -> None:
        seed = TTFont.State(font._asciiReadable, font)
        self.assignments, self.subsets, self.nextCode = seed.assignments, seed.subsets, seed.nextCode
        self.name = name


class _SharedState(TTFont.State):
    """A document's reportlab state of a font whose codes are shared: reportlab reads and assigns
    codes through it as through its own, and they land in the build's `_SharedFont`."""

    def __init__(self, shared: _SharedFont) -> None:  # not State's: the codes exist already
        self.shared = shared
        self.internalName = shared.name  # set, so reportlab does not number it after the document's fonts
        self.frozen = 0

    assignments = property(lambda self: self.shared.assignments)
    subsets = property(lambda self: self.shared.subsets)
    nextCode = property(lambda self: self.shared.nextCode,
                        lambda self, code: setattr(self.shared, "nextCode", code))


class _States(WeakKeyDictionary):
    """A registered font's reportlab states by document. A document with shared codes gets, on
    the font's first use in it, a state on the build's codes, and the font is listed among the
    document's fonts as reportlab lists a font it names itself."""

    def __init__(self, font: TTFont) -> None:
        super().__init__()
        self.font = font

    def __getitem__(self, doc: PDFDocument) -> TTFont.State:
        try:
            return super().__getitem__(doc)
        except KeyError:
            codes: SharedCodes | None = getattr(doc, "shared_codes", None)
            if codes is None:
                raise
        state = _SharedState(codes.font(self.font))
        self[doc] = state
        doc.fontMapping[self.font.fontName] = "/" + state.internalName
        doc.delayedFonts.append(self.font)
        return state


def _shares_codes(canvas: Canvas, fontname: str) -> bool:
    """Whether text in `fontname` on `canvas` is coded as in every document of its build."""
    return getattr(canvas._doc, "shared_codes", None) is not None \
        and isinstance(getattr(pdfmetrics.getFont(fontname), "state", None), _States)


class _Canvas(Canvas):
    """A reportlab canvas with what deckpress's forms need and reportlab leaves out.

    - Gradients go through enforceColorSpace too (reportlab passes only fills and strokes, and
      svglib draws SVG gradients as shadings), so no RGB shading reaches a CMYK file.
    - A form lists every resource its content uses (`endForm`).
    - Transparency groups (`transparency_group`), for translucent layers.
    - The document is written as it is formatted (`_StreamedDocument`), and a JPEG file's bytes
      are read only then (`_JPEGFile`), so a document of many pictures is never held whole.
    """

    def __init__(self, *args, codes: SharedCodes | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._doc.__class__ = _StreamedDocument  # the document reportlab made, saved by streaming
        self._doc.shared_codes = codes
        self._groups = 0  # transparency groups so far: they are named in drawing order
        self._items: _ItemCode | None = None  # a recorder's remembered items
        self._plain_resources: _FormattedOnce | None = None  # shared by every form that needs no more
        self._codes: dict[str, _SubsetCodes] = {}  # per TrueType font name, in this document
        self._sharing: dict[str, bool] = {}  # per font name: are its codes the build's?
        self._used: set[str] = set()  # fonts whose state this document has (so it lists them)

    def _known_codes(self) -> dict[str, _SubsetCodes]:
        """Where the current font's known codes are kept: with the build's, if it shares them."""
        sharing = self._sharing.get(self._fontname)
        if sharing is None:
            sharing = self._sharing[self._fontname] = _shares_codes(self, self._fontname)
        return self._doc.shared_codes.known if sharing else self._codes

    def use_font(self, fontname: str) -> None:
        """List `fontname` among the document's fonts, as drawing in it would."""
        if fontname not in self._used:
            pdfmetrics.getFont(fontname).state[self._doc]
            self._used.add(fontname)

    def drawString(self, x, y, text, mode=None, charSpace=0, direction=None, wordSpace=None, shaping=False):
        """reportlab's drawString, with the bytes it writes; a string in an embedded font whose
        characters all have codes in one of this document's subsets of that font is written
        straight from those codes (reportlab goes through a text object and re-encodes the string
        character by character in Python: a third of a build of many distinct cards)."""
        plain = (mode, charSpace, direction, wordSpace, shaping) == (None, 0, None, None, False) \
            and type(text) is str and self.bottomup
        known = self._known_codes()
        codes = known.get(self._fontname)
        encoded = codes.encode(text) if plain and text and codes is not None else None
        if encoded is not None:
            subset, chars = encoded
            key = (subset, self._fontsize, self._leading)
            select = codes.selects.get(key)
            if select is None:
                name = pdfmetrics.getFont(self._fontname).getSubsetInternalName(subset, self._doc)
                select = codes.selects[key] = f"{name} {fp_str(self._fontsize)} Tf {fp_str(self._leading)} TL"
            self.use_font(self._fontname)  # known from another document of the build: listed in this one
            self._code.append(f"BT 1 0 0 1 {fp_str(x, y)} Tm {select} ({escapePDF(chars)}) Tj T* ET")
            return
        super().drawString(x, y, text, mode, charSpace, direction, wordSpace, shaping)
        font = pdfmetrics.getFont(self._fontname)
        if plain and type(font) is TTFont:  # reportlab has given the string's characters their codes
            if codes is None:
                codes = known[self._fontname] = _SubsetCodes()
            codes.learn(text, font.state[self._doc].assignments)

    def drawImage(self, image, x, y, width=None, height=None, mask=None, **kwargs):
        """reportlab's drawImage; a JPEG file met the first time is registered as a `_JPEGFile`
        under the name reportlab would give it, so reportlab finds it and places it as its own."""
        if isinstance(image, str) and os.path.splitext(image)[1].lower() in (".jpg", ".jpeg"):
            name = _digester(f"{image}{mask}".encode("utf-8"))  # as reportlab names a file's image
            registered = self._doc.getXObjectName(name)
            picture = None if registered in self._doc.idToObject else _JPEGFile(name, image)
            if picture is not None and picture.is_jpeg:
                self._setXObjects(picture)  # what reportlab does with a new image, in its order
                self._doc.Reference(picture, registered)
                self._doc.addForm(name, picture)
        return super().drawImage(image, x, y, width, height, mask, **kwargs)

    def endForm(self, **extra_attributes) -> None:
        """End a form whose resources are all those its content uses. reportlab's forms list only
        their fonts and XObjects, so in a face's form the graphics states that carry transparency
        (ExtGState), gradients (Shading) and separation colours (ColorSpace) pointed at nothing,
        and viewers drew SVG art with opacity solid and its gradients black."""
        plain = not (self._formsinuse or self._extgstate._c or self._shadingUsed or self._colorsUsed)
        if plain and self._plain_resources is not None:  # most faces: fonts and procedures alone
            super().endForm(Resources=self._plain_resources, **extra_attributes)
            return
        resources = PDFResourceDictionary()  # as reportlab builds a page's, in the same order
        resources.basicFonts()
        resources.allProcs()
        if self._formsinuse:
            resources.XObject = self._doc.xobjDict(self._formsinuse)
        states = self._extgstate.getState()
        if states:
            resources.ExtGState = states
        resources.setShading(self._shadingUsed)
        resources.setColorSpace(self._colorsUsed)
        if plain:
            resources = self._plain_resources = _FormattedOnce(resources)
        super().endForm(Resources=resources, **extra_attributes)

    def transparency_group(self, opacity: float, draw: Callable[[], None]) -> None:
        """Paint what `draw` draws as one layer at `opacity` (SVG's group opacity): a form that is
        a transparency group (PDF 1.4), painted with that alpha. Inside the group the alpha starts
        at 1, so overlapping items hide each other; the group as a whole is then composited with
        what lies beneath. The form's box is all of the enclosing form (or page) that can show."""
        box = self._visible_box()
        if box is None:  # the current transform flattens everything: nothing would show
            return
        self._groups += 1
        name = f"group{self._groups}"
        inherited = {a: getattr(self, a) for a in _INHERITED}
        self.beginForm(name, *box)
        self.__dict__.update(inherited)  # beginForm forgot them; the PDF keeps them across `Do`
        draw()
        self.endForm()
        form = self._doc.idToObject[self._doc.getXObjectName(name)]
        group = PDFDictionary({"Type": PDFName("Group"), "S": PDFName("Transparency")})
        form.Contents = PDFStream(PDFDictionary({"Group": group}), form.stream)
        self.saveState()
        self.setFillAlpha(opacity)  # `ca` is the alpha of everything but strokes, groups included
        self.doForm(name)
        self.restoreState()

    def _visible_box(self) -> tuple[float, float, float, float] | None:
        """The box of the form being drawn (or of the page) in the current user space, as
        (x0, y0, x1, y1); None if the current transform has no inverse."""
        _name, x0, y0, x1, y1 = self._formData or (None, 0, 0, *self._pagesize)
        a, b, c, d, e, f = self._currentMatrix
        det = a * d - b * c
        if abs(det) < 1e-12:
            return None
        corners = [((d * (x - e) - c * (y - f)) / det, (a * (y - f) - b * (x - e)) / det)
                   for x in (x0, x1) for y in (y0, y1)]
        xs, ys = [p[0] for p in corners], [p[1] for p in corners]
        return (min(xs), min(ys), max(xs), max(ys))

    def draw_raster(self, image: Image) -> None:
        """Draw a face's raster picture (a method, so that a face's recording can keep it apart)."""
        _draw_raster(self, image)

    def linearGradient(self, x0, y0, x1, y1, colors, positions=None, extend=True):
        super().linearGradient(x0, y0, x1, y1, self._enforced(colors), positions, extend)

    def radialGradient(self, x, y, radius, colors, positions=None, extend=True):
        super().radialGradient(x, y, radius, self._enforced(colors), positions, extend)

    def _enforced(self, colors):
        return [self._enforceColorSpace(c) for c in colors] if self._enforceColorSpace else colors


def new_canvas(path: str | os.PathLike[str] | io.BytesIO, pagesize: tuple[float, float], body_font: str,
               colors: str = "rgb", codes: SharedCodes | None = None) -> Canvas:
    """A canvas whose preamble font is an embedded TrueType font (not Helvetica), whose output
    does not depend on the date, so rebuilds are byte-identical, and whose colours all are in
    `colors` (one of COLOR_SPACES: "k" is black ink only). With `codes`, its text is coded as in
    the other documents that share them (see SharedCodes)."""
    target = path if isinstance(path, io.BytesIO) else str(path)
    return _Canvas(target, pagesize=pagesize, invariant=1, pageCompression=1,
                   initialFontName=font_name(body_font), initialFontSize=8,
                   enforceColorSpace=COLOR_SPACES[colors], codes=codes)


def _set_color(color: Color, rgb: Callable[..., None], cmyk: Callable[..., None]) -> None:
    if isinstance(color, RGB):
        rgb(color.r, color.g, color.b)
    elif isinstance(color, Gray):
        cmyk(0, 0, 0, round(1 - color.level, 4))  # black ink only
    else:
        cmyk(color.c, color.m, color.y, color.k)


def set_fill(canvas: Canvas, color: Color) -> None:
    _set_color(color, canvas.setFillColorRGB, canvas.setFillColorCMYK)


def set_stroke(canvas: Canvas, color: Color) -> None:
    _set_color(color, canvas.setStrokeColorRGB, canvas.setStrokeColorCMYK)


def face_to_form(m: Matrix) -> Matrix:
    """A face-space (mm, y down) transform expressed in form space (pt, y up)."""
    return multiply((MM, 0, 0, -MM, 0, 0), multiply(m, (1 / MM, 0, 0, -1 / MM, 0, 0)))


class FaceForms:
    """Writes each distinct face into a document once, as a Form XObject, and places it.

    With `recordings` (one per build), a face's drawing is recorded once per colour space and
    replayed into every document that places it (see `FaceRecordings`)."""

    def __init__(self, canvas: Canvas, recordings: FaceRecordings | None = None) -> None:
        self.canvas = canvas
        self.recordings = recordings
        self.names: dict[Face, str] = {}
        # the same face objects are placed again and again: found by identity first, since a
        # face's hash walks all its items (the face is kept, so its id stays its own)
        self._placed: dict[int, tuple[Face, str]] = {}
        self._do: dict[str, str] = {}  # form name -> its `Do` operator

    def form(self, face: Face) -> str:
        known = self._placed.get(id(face))
        if known is not None and known[0] is face:
            return known[1]
        name = self.names.get(face)
        if name is None:
            name = f"face{len(self.names) + 1}"
            b = face.bleed * MM
            self.canvas.beginForm(name, lowerx=-b, lowery=-(face.height * MM + b),
                                  upperx=face.width * MM + b, uppery=b)
            recording = self.recordings.get(face, self.canvas) if self.recordings is not None else None
            if recording is None:
                draw_items(self.canvas, face.items)
            else:
                recording.replay(self.canvas)
            self.canvas.endForm()
            self.names[face] = name
        self._placed[id(face)] = (face, name)
        return name

    def place(self, face: Face, matrix: Matrix, page_height: float,
              clip: tuple[float, float, float, float] | None = None) -> None:
        """Draw `face` through `matrix` (face mm -> page mm, y down) on a page `page_height` mm tall,
        clipped to `clip` (x0, y0, x1, y1 in page mm) when given.

        Written as the operators reportlab's saveState, transform, doForm and restoreState write:
        the canvas's state is the same before and after, so its bookkeeping is skipped."""
        name = self.form(face)
        c = self.canvas
        c._code.append("q")
        if clip is not None:  # what beginPath (its "n"), rect and clipPath(stroke=0, fill=0) write
            x0, y0, x1, y1 = clip
            rect = fp_str((x0 * MM, (page_height - y1) * MM, (x1 - x0) * MM, (y1 - y0) * MM))
            c._code.append(f"n {rect} re {'W*' if c._fillMode == FILL_EVEN_ODD else 'W'} n")
        to_page = multiply((MM, 0, 0, -MM, 0, page_height * MM), matrix)
        c._code.append("%s cm" % fp_str(*multiply(to_page, (1 / MM, 0, 0, -1 / MM, 0, 0))))
        c._code.append(self._do.get(name) or self._do.setdefault(name, "/%s Do" % c._doc.getXObjectName(name)))
        c._formsinuse.append(name)  # as doForm does
        c._code.append("Q")


class _TextRun(NamedTuple):
    """A string drawn in a TrueType font whose codes are the document's own (not shared by the
    build): its bytes name the document's font subsets, so it is encoded again in each document."""

    font: str
    size: float
    leading: float
    x: float
    y: float
    text: str

    def replay(self, canvas: Canvas) -> None:
        canvas._fontname, canvas._fontsize, canvas._leading = self.font, self.size, self.leading
        canvas.drawString(self.x, self.y, self.text)


class _Picture(NamedTuple):
    """A raster picture: an image XObject of the document, made in each document."""

    image: Image

    def replay(self, canvas: Canvas) -> None:
        _draw_raster(canvas, self.image)


class _Recording(NamedTuple):
    """A face's form content in one colour space: operator text that is the same in every document
    (strings in fonts whose codes the build shares included), between the parts that are not
    (`_TextRun`, `_Picture`); the shared fonts it draws in, for the document to list; the graphics
    states it defines (ExtGState names are the form's own, so they too are the same in every
    document); and the PDF version it needs (1.4 for transparency)."""

    parts: tuple[str | _TextRun | _Picture, ...]
    fonts: tuple[str, ...]
    extgstates: tuple[tuple[tuple[str, str], str], ...]
    pdf_version: tuple[int, int]

    def replay(self, canvas: _Canvas) -> None:
        """Write the content into the form `canvas` has begun, as drawing the face would."""
        for font in self.fonts:
            canvas.use_font(font)
        code = canvas._code
        for part in self.parts:
            if isinstance(part, str):
                code.append(part)
            else:
                part.replay(canvas)
        canvas._extgstate._c.update(self.extgstates)
        canvas._doc._pdfVersion = max(canvas._doc._pdfVersion, self.pdf_version)


class _NotReplayable(Exception):
    """The face's drawing depends on the document beyond its text and pictures."""


class _Recorder(_Canvas):
    """A scratch canvas that records a face's drawing as a `_Recording`. What a document would
    name or number its own way is kept as a part to replay: strings in embedded fonts and raster
    pictures. Anything else of the kind (SVG art with gradients, translucent groups or pictures
    inside, a font reportlab does not embed, separation colours) stops the recording, and such a
    face is drawn into each document as before."""

    def __init__(self, like: _Canvas, items: _ItemCode | None = None) -> None:
        super().__init__(io.BytesIO(), initialFontName=like._initialFontName,
                         initialFontSize=like._initialFontSize, initialLeading=like._initialLeading,
                         enforceColorSpace=like._enforceColorSpace, codes=like._doc.shared_codes)
        self._items = items if like._doc.shared_codes is not None else None  # strings' bytes are the build's
        self._parts: list[str | _TextRun | _Picture] = []
        self._mark = 0  # self._code[:_mark] is in _parts already
        self._fonts: dict[str, None] = {}  # the shared fonts drawn in, in order

    def record(self, items: tuple[Item, ...]) -> _Recording:
        draw_items(self, items)
        self._flush()
        return _Recording(tuple(self._parts), tuple(self._fonts), tuple(self._extgstate._c.items()),
                          self._doc._pdfVersion)

    def _flush(self) -> None:
        if len(self._code) > self._mark:
            self._parts.append("\n".join(self._code[self._mark:]))  # as the form's stream joins them
        self._mark = len(self._code)

    def _replayed(self, part: _TextRun | _Picture) -> None:
        self._flush()
        self._parts.append(part)

    def drawString(self, x, y, text, mode=None, charSpace=0, direction=None, wordSpace=None, shaping=False):
        if (mode, charSpace, direction, wordSpace, shaping) != (None, 0, None, None, False):
            raise _NotReplayable
        if _shares_codes(self, self._fontname):  # the same bytes in every document of the build
            self._in_string = True  # reportlab writes the string through a text object
            try:
                super().drawString(x, y, text)
            finally:
                self._in_string = False
            self._fonts[self._fontname] = None
        else:
            self._replayed(_TextRun(self._fontname, self._fontsize, self._leading, x, y, text))

    def draw_raster(self, image: Image) -> None:
        self._replayed(_Picture(image))

    def setFont(self, psfontname, size, leading=None):
        if not pdfmetrics.getFont(psfontname)._dynamicFont:  # a standard font writes its document name
            raise _NotReplayable
        super().setFont(psfontname, size, leading)

    def _checkSeparation(self, cmyk):
        if isinstance(cmyk, CMYKColorSep):
            raise _NotReplayable
        return super()._checkSeparation(cmyk)

    _in_string = False

    def drawText(self, text) -> None:
        if not self._in_string:
            raise _NotReplayable
        super().drawText(text)

    def _refuse(self, *args, **kwargs) -> None:
        raise _NotReplayable

    drawImage = drawInlineImage = shade = doForm = beginForm = transparency_group = _refuse


#: the canvas state a plain item's drawing may change (reportlab's saved state but for the
#: transform, which items leave alone, and the graphics states, which a remembered item never sets)
_ITEM_STATE = tuple(a for a in Canvas.STATE_ATTRIBUTES if a not in ("_currentMatrix", "_extgstate"))


class _ItemCode:
    """The operators each plain item (a rectangle, an ellipse, a line, a path, a string in a font
    whose codes the build shares) and each SVG art draws, remembered across the faces of a build:
    faces differ in a title and share the rest (a frame, the rules text, a picture), and what an
    item writes depends only on the item and the colour space, never on what was drawn before it,
    as long as no translucency is in force. Hits put the same text and leave the canvas in the
    same state as drawing would. What draws anything a document names its own way (translucency,
    gradients, pictures, separation colours, strings in a font the build does not share) is not
    remembered."""

    KINDS = (Rect, Ellipse, Line, PathItem, Text)

    def __init__(self) -> None:
        #: key -> (operators, canvas attributes changed, shared fonts drawn in, PDF version needed)
        self.known: dict[tuple, tuple[list[str], tuple[tuple[str, object], ...], tuple[str, ...], tuple[int, int]]] = {}

    def draw(self, canvas: _Recorder, item: Item) -> None:
        self._remembered(canvas, (item, canvas._enforceColorSpace, canvas._fillMode),
                         lambda: _DRAW[type(item)](canvas, item))

    def art(self, canvas: _Recorder, source: str, drawing) -> None:
        """SVG art drawn in its own space (the caller has set the transform, and restores the
        canvas after): the same operators wherever it is placed, in a colour space (and, if it
        has text, from the same font, which the renderer takes as its default)."""
        key = (source, stamp(source), canvas._enforceColorSpace, canvas._fillMode,
               canvas._fontname if _has_text(drawing) else None)
        self._remembered(canvas, key, lambda: _render_svg(drawing, canvas))

    def _remembered(self, canvas: _Recorder, key: tuple, draw: Callable[[], None]) -> None:
        alpha = canvas._extgstate
        if alpha._d and any(v != alpha.defaults[a] for a, v in alpha._d.items()):  # drawing would reset it
            draw()
            return
        known = self.known.get(key)
        if known is not None:
            code, changes, fonts, version = known
            canvas._code += code
            for name, value in changes:
                setattr(canvas, name, value)
            for font in fonts:
                canvas._fonts[font] = None
            canvas._doc._pdfVersion = max(canvas._doc._pdfVersion, version)  # SVG art asks for 1.4
            return
        state = canvas.__dict__
        before = [state[a] for a in _ITEM_STATE]
        mark, parts, fonts, version = len(canvas._code), len(canvas._parts), len(canvas._fonts), canvas._doc._pdfVersion
        resources = (len(canvas._formsinuse), len(canvas._shadingUsed), len(canvas._colorsUsed))
        canvas._doc._pdfVersion = pdfdoc.PDF_VERSION_DEFAULT  # to see what this item asks for
        draw()
        needed = canvas._doc._pdfVersion
        canvas._doc._pdfVersion = max(version, needed)
        # graphics states are named by the face that defines them: not remembered
        if len(canvas._parts) == parts and not alpha._c and not alpha._d \
                and resources == (len(canvas._formsinuse), len(canvas._shadingUsed), len(canvas._colorsUsed)):
            changes = tuple((a, state[a]) for a, old in zip(_ITEM_STATE, before) if state[a] is not old)
            self.known[key] = (canvas._code[mark:], changes, tuple(canvas._fonts)[fonts:], needed)


class FaceRecordings:
    """Each face's drawing recorded once per colour space (and starting font), for every document
    of a build that places it, and the character codes those documents share (`codes`: pass them
    to `new_canvas`). The work of drawing a face, SVG art included, is done once, and each
    document only makes its own picture objects. Holds what the build's faces hold, so it lives
    as long as one build."""

    def __init__(self) -> None:
        self._recordings: dict[tuple, _Recording | None] = {}
        self.codes = SharedCodes()
        self._items = _ItemCode()

    def get(self, face: Face, canvas: _Canvas) -> _Recording | None:
        """The recording of `face` for forms of `canvas`; None if it must be drawn directly."""
        key = (face, canvas._enforceColorSpace, canvas._initialFontName, canvas._initialFontSize,
               canvas._initialLeading, canvas._doc.shared_codes)
        if key not in self._recordings:
            try:
                self._recordings[key] = _Recorder(canvas, self._items).record(face.items)
            except _NotReplayable:
                self._recordings[key] = None
        return self._recordings[key]


def face_characters(face: Face, found: dict[str, set[str]]) -> None:
    """Add the characters of `face`'s text, by font file, to `found`."""
    stack = [face.items]
    while stack:
        for item in stack.pop():
            if type(item) is Text:
                found.setdefault(item.font, set()).update(item.text)
            elif type(item) is Group:
                stack.append(item.items)


def draw_items(canvas: _Canvas, items: tuple[Item, ...]) -> None:
    remembered = canvas._items
    for item in items:
        if remembered is not None and type(item) in _ItemCode.KINDS:
            remembered.draw(canvas, item)
        else:
            _DRAW[type(item)](canvas, item)


def _paint(canvas: Canvas, paint) -> tuple[int, int]:
    fill = stroke = 0
    if paint.fill is not None:
        set_fill(canvas, paint.fill)
        fill = 1
    if paint.stroke is not None and paint.stroke_width > 0:
        set_stroke(canvas, paint.stroke)
        canvas.setLineWidth(paint.stroke_width * MM)
        canvas.setDash([d * MM for d in paint.dash] if paint.dash else [])
        stroke = 1
    return fill, stroke


def _rect(canvas: Canvas, r: Rect) -> None:
    fill, stroke = _paint(canvas, r.paint)
    if fill or stroke:
        x, y, w, h = r.x * MM, -(r.y + r.h) * MM, r.w * MM, r.h * MM
        if r.radius > 0:
            canvas.roundRect(x, y, w, h, r.radius * MM, stroke=stroke, fill=fill)
        else:
            canvas.rect(x, y, w, h, stroke=stroke, fill=fill)


def _ellipse(canvas: Canvas, e: Ellipse) -> None:
    fill, stroke = _paint(canvas, e.paint)
    if fill or stroke:
        canvas.ellipse((e.cx - e.rx) * MM, -(e.cy + e.ry) * MM, (e.cx + e.rx) * MM, -(e.cy - e.ry) * MM,
                       stroke=stroke, fill=fill)


_CAPS = {"butt": 0, "round": 1, "square": 2}


def _line(canvas: Canvas, line: Line) -> None:
    _fill, stroke = _paint(canvas, line.paint)
    if stroke:
        canvas.setLineCap(_CAPS[line.cap])
        canvas.line(line.x1 * MM, -line.y1 * MM, line.x2 * MM, -line.y2 * MM)
        canvas.setLineCap(0)


def _path(canvas: Canvas, item: PathItem) -> None:
    fill, stroke = _paint(canvas, item.paint)
    if not (fill or stroke):
        return
    p = canvas.beginPath()
    for op, v in item.ops:
        if op == "M":
            p.moveTo(v[0] * MM, -v[1] * MM)
        elif op == "L":
            p.lineTo(v[0] * MM, -v[1] * MM)
        elif op == "C":
            p.curveTo(v[0] * MM, -v[1] * MM, v[2] * MM, -v[3] * MM, v[4] * MM, -v[5] * MM)
        else:
            p.close()
    canvas.drawPath(p, stroke=stroke, fill=fill,
                    fillMode=FILL_EVEN_ODD if item.even_odd else FILL_NON_ZERO)


def _text(canvas: Canvas, t: Text) -> None:
    set_fill(canvas, t.color)
    canvas.setFont(font_name(t.font), t.size * MM)
    canvas.drawString(t.x * MM, -t.y * MM, t.text)


@functools.lru_cache(maxsize=8)  # each holds a decoded picture: a face drawn again finds it, a deck's art does not pile up
def _raster(source: str, grey: bool, lighten: float, cmyk: bool, printed: tuple[float, float],
            _stamp: tuple[int, int]) -> ImageReader | str:
    """A raster image ready for reportlab, printed at `printed` mm: untouched files pass through
    (JPEGs stay JPEG); a picture with more pixels than print (imagefile.embedded_pixels) is scaled
    down first, so a huge one is neither embedded nor held whole by reportlab."""
    try:
        size = raster_pixels(source)  # known since the deck was checked: an untouched file is not opened again
        pixels = embedded_pixels(size, printed)
        if not grey and not lighten and not cmyk and pixels == size:
            return source
        with open_raster(source) as im:
            if not grey and not lighten and not cmyk:
                return ImageReader(decoded(im, pixels))
            picture = decoded(im, pixels)
            if grey or lighten:
                return ImageReader(greyed(picture, lighten))
            if "transparency" in picture.info:  # a palette or colour key: as an alpha channel
                picture = picture.convert("RGBA")
            alpha = picture.getchannel("A") if "A" in picture.getbands() else None
            return _CMYKReader(picture.copy() if picture.mode == "CMYK" else _separate(picture.convert("RGB")),
                               alpha)
    except ValueError as exc:  # backends see no deck: the picture is named, the card that placed it was checked
        raise DeckError(str(exc), source) from None


def _separate(image: PILImage.Image) -> PILImage.Image:
    """`to_cmyk` on every pixel of an RGB picture, in Pillow's image arithmetic. (A 3-D lookup table
    would be shorter, but interpolating it gives greys a few per cent of C, M and Y.)"""
    r, g, b = image.split()
    top = ImageChops.lighter(ImageChops.lighter(r, g), b).convert("F")
    calc = ImageMath.lambda_eval
    # C = (1 - r - K) / (1 - K) = (max - r) / max; a black pixel divides by zero, which Pillow makes 0
    cmy = [calc(lambda a: (a["top"] - a["v"]) * 255 / a["top"], top=top, v=v.convert("F")) for v in (r, g, b)]
    k = calc(lambda a: 255 - a["top"], top=top)
    scale = calc(lambda a: a["min"]((INK_LIMIT * 255 - a["k"]) / (a["c"] + a["m"] + a["y"]), 1.0),
                 k=k, c=cmy[0], m=cmy[1], y=cmy[2])
    inks = [calc(lambda a: a["v"] * a["s"], v=v, s=scale) for v in cmy] + [k]
    return PILImage.merge("CMYK", [calc(lambda a: a["v"] + 0.5, v=v).convert("L") for v in inks])  # convert truncates


class _CMYKReader(ImageReader):
    """A CMYK picture and its transparency. Pillow has no CMYK-with-alpha mode and reportlab makes
    a soft mask only of LA and RGBA pictures' alpha, so the alpha channel is handed over here, as
    reportlab's own reader does, once the picture's data has been read."""

    def __init__(self, image: PILImage.Image, alpha: PILImage.Image | None) -> None:
        super().__init__(image)
        self._alpha = None if alpha is None else ImageReader(alpha)

    def getRGBData(self) -> bytes:  # reportlab's name: the data in the picture's own colour space
        data = super().getRGBData()
        self._dataA = self._alpha
        return data


def _image(canvas: Canvas, im: Image) -> None:
    x, y, w, h = im.x * MM, -(im.y + im.h) * MM, im.w * MM, im.h * MM
    if is_svg(im.source):
        drawing = load_svg(im.source)
        canvas.saveState()
        canvas.translate(x, y)
        canvas.scale(w / drawing.width, h / drawing.height)
        if canvas._items is not None:  # a recorder: the same art on other faces is drawn once
            canvas._items.art(canvas, im.source, drawing)
        else:
            _render_svg(drawing, canvas)
        canvas.restoreState()
        return
    canvas.draw_raster(im)


def _draw_raster(canvas: Canvas, im: Image) -> None:
    canvas.drawImage(_raster(im.source, im.grey, im.lighten, im.cmyk, (im.w, im.h), stamp(im.source)),
                     im.x * MM, -(im.y + im.h) * MM, im.w * MM, im.h * MM, mask="auto")


@functools.lru_cache(maxsize=64)
def _has_text(drawing) -> bool:
    """Whether SVG art has text, which the renderer sets in the canvas's font when it names none."""
    from reportlab.graphics.shapes import Group as ArtGroup, String

    stack = [drawing]
    while stack:
        node = stack.pop()
        if isinstance(node, String):
            return True
        if isinstance(node, ArtGroup):
            stack += node.contents
    return False


def _render_svg(drawing, canvas: _Canvas) -> None:
    """Draw an svglib drawing. reportlab's renderer opens every drawing by selecting its default
    font, Helvetica, which is never embedded; it is told to start from the canvas's own
    (embedded) font instead, so no picture brings an unembedded font into the file."""
    from reportlab.graphics.renderbase import STATE_DEFAULTS, renderScaledDrawing

    default = STATE_DEFAULTS["fontName"]
    STATE_DEFAULTS["fontName"] = canvas._fontname
    try:
        _art_renderer_type()().draw(renderScaledDrawing(drawing), canvas, 0, 0)
    finally:
        STATE_DEFAULTS["fontName"] = default


@functools.cache
def _art_renderer_type() -> type:
    """reportlab's PDF renderer for SVG art, made on first use (the renderer is imported late):
    the groups that SVG art gives an `opacity` below 1 (svgart.Translucent) are drawn as
    transparency groups, and a raster picture inside the art is an image XObject, since an inline
    image (bytes among the text of the content stream) breaks the Form XObject a face is."""
    from reportlab.graphics.renderPDF import _PDFRenderer

    class ArtRenderer(_PDFRenderer):
        def drawGroup(self, group) -> None:
            opacity = getattr(group, "opacity", 1.0)
            if opacity < 1:
                self._canvas.transparency_group(opacity, lambda: super(ArtRenderer, self).drawGroup(group))
            else:
                super().drawGroup(group)

        def drawImage(self, image) -> None:
            picture = image.path  # svglib gives a data: URI's picture decoded, a linked file by its path
            if isinstance(picture, str):
                if not os.path.exists(picture):
                    return
                with PILImage.open(picture) as opened:
                    picture = opened.copy()
            self._canvas.drawImage(_in_colour_space(picture, self._canvas._enforceColorSpace),
                                   image.x, image.y, image.width, image.height, mask="auto")

    return ArtRenderer


def _in_colour_space(picture: PILImage.Image, enforce: Callable | None) -> ImageReader:
    """A raster picture inside SVG art in the document's colour space, as the art's own colours
    are by the canvas's hook: in greys (black ink only) for `k_only`, separated for `cmyk_only`."""
    if "transparency" in picture.info:  # a palette or colour key: as an alpha channel
        picture = picture.convert("RGBA")
    alpha = picture.getchannel("A") if "A" in picture.getbands() else None
    if enforce is k_only:
        grey = picture.convert("L")
        if alpha is not None:
            grey.putalpha(alpha)
        return ImageReader(grey)
    if enforce is cmyk_only:
        return _CMYKReader(picture if picture.mode == "CMYK" else _separate(picture.convert("RGB")), alpha)
    return ImageReader(picture)


def _group(canvas: _Canvas, g: Group) -> None:
    canvas.saveState()
    if g.transform != (1.0, 0.0, 0.0, 1.0, 0.0, 0.0):
        canvas.transform(*face_to_form(g.transform))
    if g.clip is not None:
        x, y, w, h = g.clip
        p = canvas.beginPath()
        p.rect(x * MM, -(y + h) * MM, w * MM, h * MM)
        canvas.clipPath(p, stroke=0, fill=0)
    if g.opacity < 1:
        canvas.transparency_group(g.opacity, lambda: draw_items(canvas, g.items))
    else:
        draw_items(canvas, g.items)
    canvas.restoreState()


_DRAW: dict[type, Callable[[Canvas, Item], None]] = {
    Rect: _rect, Ellipse: _ellipse, Line: _line, PathItem: _path, Text: _text, Image: _image, Group: _group,
}
