"""Drawing faces as SVG: one standalone document per card side, bleed included.

SVG user space is the face's own space: 1 unit = 1 mm, y down, origin at the trim's top-left, so
geometry goes through unchanged and only paint, fonts and pictures need translating. Everything
is drawn as backends/pdf.py draws it (same fonts, same glyph advances, same greys), so a face
looks the same in PNG, PDF and SVG.

Text is drawn as its glyphs, so that every viewer shows the same pixels: each glyph's outline is
defined once in `<defs>` (in font units) and placed with `<use>` where shaping put it, and the
run's words follow as a `<text>` with no paint (fill-opacity 0), each character over its glyph, so
a browser selects and finds them and a reader copies them out. Fonts embedded by `@font-face` are
not enough: librsvg (GNOME, rsvg-convert, Inkscape's import of it aside) reads no `@font-face` and
showed boxes for the music symbols, and other words in whatever system font it found. With
`outline_text`, there is no text at all: each run is one path of its glyphs' outlines, its words
in `aria-label` only.

Output is deterministic: ids are numbered in order of first use and nothing depends on the date.

Also a sheet's cut file for a cutting machine (`write_cut_file`): imposition's cut paths
(imposition/cutpaths.py) as closed SVG paths, page mm as user units.
"""

from __future__ import annotations

import base64
import functools
import io
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import svgwrite
from fontTools import subset
from fontTools.pens.recordingPen import DecomposingRecordingPen, RecordingPen
from fontTools.pens.svgPathPen import SVGPathPen
from fontTools.pens.transformPen import TransformPen
from fontTools.ttLib import TTFont
from svgwrite.base import BaseElement

from ..colors import CMYK, Color, paled
from ..atomic import replacing, write_text
from ..face import (IDENTITY, Ellipse, Face, Glyph, Group, Image, Item, Line, Paint, Path as PathItem, PathOp, Rect,
                    Text, cropped_box, placed_glyphs)
from ..text.fonts import from_fonts, open_font, quiet_fonttools, static_font
from ..imagefile import grey_png, png_of, raster_format, raster_pixels, stamp
from ..imposition.cutpaths import cut_paths
from ..svgfile import prepare
from ..vectorart import is_pdf, is_vector
from ..imposition.sheets import Box, PagePlan
from ..text.shaping import line_runs

LUMA = (0.299, 0.587, 0.114)  #: ITU-R 601, as Pillow's grey and the PDF's K-only greys


def face_svg(face: Face, outline_text: bool = False) -> bytes:
    """One card side as a standalone SVG document (UTF-8), sized in mm with its bleed.

    The viewBox starts at (-bleed, -bleed), so face coordinates are user units; everything is
    clipped to the bleed box, as the PDF backend's form is.
    """
    return _Document(face, outline_text).svg()


def write_svg(path: Path, face: Face, outline_text: bool = False) -> None:
    """Write `face_svg` to `path` through a temporary file beside it, so a reader never sees
    half a file and an interrupted build leaves the old one."""
    with replacing(path) as tmp:
        tmp.write_bytes(face_svg(face, outline_text))


def num(value: float, places: int = 4) -> str:
    """A number as short as it can be written: 0.1 µm is finer than any printer."""
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def color(c: Color) -> str:
    """`#rrggbb`. CMYK has no SVG equivalent; it becomes RGB by the naive formula
    (1 - c)(1 - k), which ignores the press profile, as an on-screen PDF viewer does."""
    if isinstance(c, CMYK):
        return "#" + "".join(f"{round((1 - v) * (1 - c.k) * 255):02x}" for v in (c.c, c.m, c.y))
    return c.hex


class _Document:
    """One SVG document being written: the drawing and what its `<defs>` must hold."""

    def __init__(self, face: Face, outline_text: bool) -> None:
        self.outline_text = outline_text
        b = face.bleed
        w, h = face.width + 2 * b, face.height + 2 * b
        self.dwg = svgwrite.Drawing(size=(f"{num(w)}mm", f"{num(h)}mm"),
                                    viewBox=f"{num(-b)} {num(-b)} {num(w)} {num(h)}", debug=False)
        self.ids: dict[tuple, str] = {}  # clip box or filter -> id, in order of first use
        self.repeated = _repeated_pictures(face.items)
        bleed = self._clip((-b, -b, w, h))
        # PDF's miter limit is 10, SVG's 4: without this, sharp stroked corners would be bevelled
        root = self.dwg.g(clip_path=f"url(#{bleed})", stroke_miterlimit="10")
        self._add_items(root, face.items)
        self.dwg.add(root)

    def svg(self) -> bytes:
        out = io.StringIO()
        self.dwg.write(out)
        return out.getvalue().encode("utf-8")

    def _add_items(self, parent: BaseElement, items: tuple[Item, ...]) -> None:
        for item in items:
            element = _DRAW[type(item)](self, item)
            if element is not None:
                parent.add(element)

    def _define(self, key: tuple, make: Callable[[str], BaseElement]) -> str:
        """The id of a shared definition, made (and added to `<defs>`) the first time it is needed:
        `key[0]` (its kind) and a count, so ids follow the drawing order and nothing else."""
        if key not in self.ids:
            ident = f"{key[0]}{sum(1 for k in self.ids if k[0] == key[0]) + 1}"
            self.dwg.defs.add(make(ident))
            self.ids[key] = ident
        return self.ids[key]

    def _clip(self, box: tuple[float, float, float, float]) -> str:
        def make(ident: str) -> BaseElement:
            clip = self.dwg.clipPath(id=ident)
            clip.add(self.dwg.rect(**_box(*box)))
            return clip
        return self._define(("clip", *box), make)

    def _clip_path(self, ops: tuple[PathOp, ...]) -> str:
        """A clip to a closed path (a shaped piece's outline grown by its bleed)."""
        def make(ident: str) -> BaseElement:
            clip = self.dwg.clipPath(id=ident)
            clip.add(self.dwg.path(d=" ".join(op + "".join(f" {num(v)}" for v in values) for op, values in ops)))
            return clip
        return self._define(("clip", "path", ops), make)

    def _grey_filter(self, lighten: float) -> str:
        """A filter that does to vector art what `grey_png` does to rasters: luma, then lighten
        along `colors.paled` (a table of its 256 greys: no matrix bends dark and pale apart)."""
        def make(ident: str) -> BaseElement:
            # sRGB: filters default to linearRGB, which would make every grey too dark
            f = self.dwg.filter(id=ident, color_interpolation_filters="sRGB")
            row = " ".join(num(k, 6) for k in LUMA) + " 0 0"
            f.feColorMatrix(type_="matrix", values=f"{row} {row} {row} 0 0 0 1 0", result="grey")
            if lighten:
                table = " ".join(num(1 - paled(1 - i / 255, lighten), 4) for i in range(256))
                curve = f.feComponentTransfer(in_="grey")
                for channel in (curve.feFuncR, curve.feFuncG, curve.feFuncB):
                    channel("table", tableValues=table)
            return f
        return self._define(("grey", lighten), make)

    # ---- items -----------------------------------------------------------------------------

    def rect(self, r: Rect) -> BaseElement | None:
        paint = _paint(r.paint)
        if paint is None:
            return None
        x, w = (r.x, r.w) if r.w >= 0 else (r.x + r.w, -r.w)
        y, h = (r.y, r.h) if r.h >= 0 else (r.y + r.h, -r.h)
        if r.radius > 0:
            paint.update(rx=num(r.radius), ry=num(r.radius))
        return self.dwg.rect(**_box(x, y, w, h), **paint)

    def ellipse(self, e: Ellipse) -> BaseElement | None:
        paint = _paint(e.paint)
        if paint is None:
            return None
        return self.dwg.ellipse(center=(num(e.cx), num(e.cy)), r=(num(e.rx), num(e.ry)), **paint)

    def line(self, line: Line) -> BaseElement | None:
        paint = _paint(line.paint)
        if paint is None or "stroke" not in paint:  # the PDF backend only strokes lines
            return None
        del paint["fill"]
        return self.dwg.line((num(line.x1), num(line.y1)), (num(line.x2), num(line.y2)),
                             stroke_linecap=line.cap, **paint)

    def path(self, item: PathItem) -> BaseElement | None:
        paint = _paint(item.paint)
        if paint is None:
            return None
        d = " ".join(op + "".join(f" {num(v)}" for v in values) for op, values in item.ops)
        if item.even_odd:
            paint["fill_rule"] = "evenodd"
        return self.dwg.path(d=d, **paint)

    def text(self, t: Text) -> BaseElement | None:
        if not t.glyph_runs:  # drawn as the PDF draws it: shaped
            t = replace(t, glyph_runs=line_runs(t.text, t.font))
        glyphs = placed_glyphs(t)
        if self.outline_text:  # outlines only: the words in aria-label for screen readers, no text
            d = _glyph_outlines(t, glyphs) if glyphs else ""
            return self.dwg.path(d=d, fill=color(t.color), aria_label=t.text, **_text_stroke(t)) if d else None
        if not t.text:
            return None
        # the glyphs in font units, y down from the baseline, scaled to the size at (x, y): each
        # glyph's outline once in <defs>, however often it is placed
        upm = _glyph_by_index(t.font, 0)[1]
        scale = t.size / upm
        attrs: dict[str, str] = {"transform": f"matrix({scale:.9g} 0 0 {scale:.9g} {num(t.x)} {num(t.y)})",
                                 "fill": color(t.color)}
        if t.stroke:  # in the group's units: the stroke is scaled with the glyphs
            attrs.update(stroke=color(t.color), stroke_width=num(t.stroke / scale, 2), stroke_linejoin="round")
        run = self.dwg.g(**attrs)
        for gid, gx, gy, _chars in glyphs:
            ident = self._glyph(t.font, gid)
            if ident is not None:
                place = {"x": num(gx * upm, 2)} if gx else {}
                if gy:
                    place["y"] = num(-gy * upm, 2)
                run.add(self.dwg.use(f"#{ident}", **place))
        run.add(self._words(t, glyphs, upm))
        return run

    def _glyph(self, font: str, gid: int) -> str | None:
        """The id of a glyph's outline in `<defs>` (font units, y down), or None for a glyph that
        draws nothing (a space)."""
        key = ("glyph", font, gid)
        if key not in self.ids:
            outline, _upm = _glyph_by_index(font, gid)
            d = SVGPathPen(None, ntos=lambda v: num(v, 2))
            outline.replay(TransformPen(d, (1, 0, 0, -1, 0, 0)))
            commands = d.getCommands()
            if not commands:
                return None
            self._define(key, lambda ident: self.dwg.path(d=commands, id=ident))
        return self.ids[key]

    def _words(self, t: Text, glyphs: list[Glyph], upm: int) -> BaseElement:
        """The run's words, unpainted, over its glyphs (in the run's font units): each character
        at its glyph where the glyphs are the characters one by one; otherwise (a ligature, joined
        or reordered letters) the whole run stretched over the glyphs' width (`textLength`)."""
        words: dict[str, object] = {"y": ["0"], "font_size": str(upm), "fill_opacity": "0",
                                    "xml:space": "preserve"}
        if "".join(chars for *_, chars in glyphs) == t.text and all(len(chars) == 1 for *_, chars in glyphs):
            words["x"] = [" ".join(num(gx * upm, 2) for _, gx, _, _ in glyphs)]
        else:
            words["x"] = ["0"]
            font = open_font(t.font)
            width = max((gx + font.glyph_advance(gid) for gid, gx, _, _ in glyphs), default=0.0)
            if width > 0:
                words.update(textLength=num(width * upm, 2), lengthAdjust="spacingAndGlyphs")
        return self.dwg.text(t.text, stroke="none", **words)

    def image(self, im: Image) -> BaseElement:
        if im in self.repeated:  # a picture placed again (made bleed's mirrored copies): in once, then used
            return self.dwg.use(f"#{self._define(('picture', im), lambda ident: self._image(im, ident))}")
        return self._image(im)

    def _image(self, im: Image, ident: str | None = None) -> BaseElement:
        x0, y0, x1, y1 = (im.x, im.y, im.x + im.w, im.y + im.h) if im.crop is None else \
            cropped_box(im, raster_pixels(im.source))  # a cropped raster: its pixels where they lie
        attrs: dict[str, object] = dict(insert=(num(x0), num(y0)), size=(num(x1 - x0), num(y1 - y0)),
                                        preserveAspectRatio="none")  # faces stretch pictures over their box
        if ident is not None:
            attrs["id"] = ident
        tint = im.edits.tint
        if is_vector(im.source):
            # the art as the PDF draws it: made ready (its pictures and a card's edits in), with the
            # fonts its text is set in (an <image> sees no others); a PDF's page as a picture of it
            href = _vector_uri(im)
            if im.grey or im.lighten:
                attrs["filter"] = f"url(#{self._grey_filter(im.lighten)})"
        elif im.grey or im.lighten:
            href = _data_uri("image/png", grey_png(im.source, im.lighten, tint, im.crop))
        elif tint is not None or im.crop is not None:
            href = _data_uri("image/png", png_of(im.source, tint, im.crop))
        elif raster_format(im.source) in ("PNG", "JPEG", "MPO"):
            data = Path(im.source).read_bytes()  # JPEG and PNG go in as they are
            href = _data_uri("image/jpeg" if data[:2] == b"\xff\xd8" else "image/png", data)
        else:  # what every SVG reader shows is PNG and JPEG (SVG's own list): the others as PNG
            href = _data_uri("image/png", png_of(im.source))
        return self.dwg.image(href, **attrs)

    def group(self, g: Group) -> BaseElement:
        attrs = {}
        if g.transform != IDENTITY:
            attrs["transform"] = "matrix(" + " ".join(num(v, 6) for v in g.transform) + ")"
        if g.clip is not None:
            # the clip is in the group's own (transformed) space, as clip-path on the same element is
            attrs["clip_path"] = f"url(#{self._clip(g.clip)})"
        if g.opacity < 1:
            attrs["opacity"] = num(g.opacity)  # SVG's group opacity is what the PDF's transparency group does
        element = self.dwg.g(**attrs)
        parent = element
        if g.clip_path:  # inside the rectangle's clip, in the same space
            parent = self.dwg.g(clip_path=f"url(#{self._clip_path(g.clip_path)})")
            element.add(parent)
        self._add_items(parent, g.items)
        return element

_DRAW: dict[type, Callable[[_Document, Item], BaseElement | None]] = {
    Rect: _Document.rect, Ellipse: _Document.ellipse, Line: _Document.line, PathItem: _Document.path,
    Text: _Document.text, Image: _Document.image, Group: _Document.group,
}


def _repeated_pictures(items: tuple[Item, ...]) -> set[Image]:
    """The pictures a face places more than once (made bleed's mirrored copies are the picture itself)."""
    seen: set[Image] = set()
    again: set[Image] = set()
    stack = [items]
    while stack:
        for item in stack.pop():
            if type(item) is Group:
                stack.append(item.items)
            elif type(item) is Image:
                (again if item in seen else seen).add(item)
    return again


def _box(x: float, y: float, w: float, h: float) -> dict[str, object]:
    return dict(insert=(num(x), num(y)), size=(num(w), num(h)))


def _paint(paint: Paint) -> dict[str, str] | None:
    """Fill and stroke attributes, or None when nothing would be painted (as in the PDF backend:
    a stroke needs a colour and a width)."""
    attrs = {"fill": color(paint.fill) if paint.fill is not None else "none"}
    if paint.stroke is not None and paint.stroke_width > 0:
        attrs.update(stroke=color(paint.stroke), stroke_width=num(paint.stroke_width))
        if paint.dash:
            attrs["stroke_dasharray"] = " ".join(num(d) for d in paint.dash)
    elif paint.fill is None:
        return None
    return attrs


def _vector_uri(im: Image) -> str:
    """Vector art as a data: URI for an `<image>`: an SVG made ready with its fonts inside, or a
    page of a PDF drawn by pdfium at PDF_ART_DPI at its printed size (SVG has no PDF)."""
    if is_pdf(im.source):
        return _data_uri("image/png", _pdf_page_png(im.source, stamp(im.source), im.page, (im.w, im.h)))
    prepared = prepare(im.source, im.fonts, im.edits)
    css = prepared.embedded_fonts(im.fonts, lambda path, chars: _subset(path, chars, stamp(path)))
    if not css and not prepared.changed:  # the file draws as it is: in as its own bytes, comments and all
        return _data_uri("image/svg+xml", Path(im.source).read_bytes())
    return _data_uri("image/svg+xml", prepared.with_style(css).encode("utf-8"))


PDF_ART_DPI = 600  #: what a page of PDF art is drawn at in an SVG: the PDFs' own resolution for filters


@functools.lru_cache(maxsize=16)
def _pdf_page_png(path: str, _stamp: tuple[int, int], page: int, printed: tuple[float, float]) -> bytes:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(path)
    try:
        sheet = document[page - 1]
        width, height = sheet.get_size()
        scale = max(printed[0] / 25.4 * PDF_ART_DPI / width, printed[1] / 25.4 * PDF_ART_DPI / height)
        picture = sheet.render(scale=min(scale, 8000 / max(width, height)), fill_color=(0, 0, 0, 0)).to_pil()
    finally:
        document.close()
    out = io.BytesIO()
    picture.save(out, format="PNG")
    return out.getvalue()


def _data_uri(mime: str, data: bytes) -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def _css_name(font: str) -> str:
    """The font's file name as a CSS identifier, so a reader of the SVG sees which font it is."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", Path(font).stem)


# ---- embedded fonts ------------------------------------------------------------------------

@functools.lru_cache(maxsize=256)
@quiet_fonttools()
def _subset(path: str, chars: str, _stamp: tuple[int, int]) -> str:
    """Base64 of a subset of the font `path` (a font reference) holding only `chars`: a card uses
    a few dozen glyphs of fonts with thousands. Layout tables are dropped: each character is placed
    where shaping put it, and the browser must not move it again."""
    options = subset.Options()
    options.hinting = False  # glyphs are scaled to card sizes, not fitted to screen pixels
    options.notdef_outline = True
    font = subset.load_font(io.BytesIO(static_font(path)), options)  # recalc_timestamp is off: the same bytes every time
    for tag in ("GDEF", "GSUB", "GPOS", "kern"):  # removed before subsetting: reading them is slow
        if tag in font:
            del font[tag]
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(c) for c in chars])
    subsetter.subset(font)
    out = io.BytesIO()
    subset.save_font(font, out, options)
    return base64.b64encode(out.getvalue()).decode("ascii")


# ---- outlined text -------------------------------------------------------------------------

@from_fonts
@functools.lru_cache(maxsize=None)
def _ttfont(path: str) -> TTFont:
    return TTFont(io.BytesIO(static_font(path)), lazy=True)


@from_fonts
@functools.lru_cache(maxsize=4096)
@quiet_fonttools()
def _glyph_by_index(path: str, gid: int) -> tuple[RecordingPen, int]:
    """A glyph's outline, by its index, and the font's units per em."""
    font = _ttfont(path)
    glyphs = font.getGlyphSet()
    pen = DecomposingRecordingPen(glyphs)
    glyphs[font.getGlyphOrder()[gid]].draw(pen)
    return pen, font["head"].unitsPerEm


def _glyph_outlines(t: Text, glyphs: list[Glyph]) -> str:
    """Path data for shaped text: each glyph scaled size/unitsPerEm, flipped to y down, where shaping put it."""
    d = SVGPathPen(None, ntos=num)
    for gid, gx, gy, _ in glyphs:
        outline, upm = _glyph_by_index(t.font, gid)
        s = t.size / upm
        outline.replay(TransformPen(d, (s, 0, 0, -s, t.x + gx * t.size, t.y - gy * t.size)))
    return d.getCommands()


def _text_stroke(t: Text) -> dict[str, str]:
    """The outline a bold glyph is drawn with as well (`Text.stroke`), as the PDF backend draws it."""
    if not t.stroke:
        return {}
    return {"stroke": color(t.color), "stroke_width": num(t.stroke), "stroke_linejoin": "round"}


# --- cut files ------------------------------------------------------------------------------------

def path_data(ops: Sequence[PathOp]) -> str:
    """SVG path data, to 0.001 mm."""
    return " ".join(op + "".join(f" {v:.3f}".rstrip("0").rstrip(".") for v in pts) for op, pts in ops)


def write_cut_file(path: Path, plan: PagePlan[Face], title: str,
                   marks: str = "Silhouette Studio, registration mark type 1, inset 10 mm, length 20 mm, "
                                "thickness 0.5 mm", area: Box | None = None) -> Path:
    """The cut paths of a page (`imposition.cutpaths`) as an SVG for a cutting machine, written to
    `path` (via a temporary file): the page's size (or `area`'s, its top-left corner the origin),
    1 user unit = 1 mm, nothing but the closed paths to cut; `marks` says which registration marks
    the printed sheet carries (`CutterProfile.describe`). Open it in the cutter's software, set the
    same registration marks as the PDF's, and cut the printed sheet."""
    x0, y0, W, H = (0.0, 0.0, *plan.paper) if area is None else (area[0], area[1], area[2] - area[0],
                                                                  area[3] - area[1])
    drawing = svgwrite.Drawing(size=(f"{W:g}mm", f"{H:g}mm"), viewBox=f"0 0 {W:g} {H:g}", profile="full")
    drawing.set_desc(title=title, desc=f"Cut paths, 1 unit = 1 mm. {marks} (made with deckpress).")
    group = drawing.g(id="cut", fill="none", stroke="#ff0000", stroke_width=0.1)
    for ops in cut_paths(plan):
        if area is not None:
            ops = tuple((op, tuple(v - (x0 if k % 2 == 0 else y0) for k, v in enumerate(pts))) for op, pts in ops)
        group.add(drawing.path(d=path_data(ops)))
    drawing.add(group)
    write_text(path, drawing.tostring() + "\n")
    return path
