"""An SVG file made ready to draw, as a browser would see it: checked, its pictures and fonts in.

usvg (inside svg2pdf, which draws SVG art: vectorart.py) reads one SVG text and nothing else, so
what a browser would fetch goes in here, and what a browser would skip is said:

- the file must be well-formed XML with an `<svg>` root: a file cut off halfway (`<svg …><circle
  r='3'`), a mismatched tag or a stray `&` is an error naming the line, never a picture drawn from
  what happened to parse;
- pictures it links (`<image href="moon.png">`) are read from beside it or below, as every file a
  deck reads stays inside its folder (symlinks resolved), and put in as data: URIs; formats usvg
  does not read (TIFF, BMP, PSD) go in as PNG; an SVG picture is made ready the same way first;
  one that is missing, outside, broken or too big is left out, with a warning;
- fonts: every family it names is looked for among the deck's fonts, then the bundled ones (by
  the names inside the font files); a family neither has is set in the deck's first font, with
  a warning naming it (a browser would take a system font, which differs from machine to
  machine; a card prints the same everywhere), generic names (`sans-serif`) go to that font too;
  text that names no family is set in it;
- what no renderer draws statically is said: flowed text (`<flowRoot>`, Inkscape 0.92's), a
  `<foreignObject>` (HTML), scripts and animation (the first frame is drawn);
- a root with no size and no viewBox is 300 × 150, as a browser's replaced element is.

Only the standard library and lxml (with entities and the network off) read the text.
"""

from __future__ import annotations

import base64
import binascii
import functools
import io
import math
import os
import re
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import unquote

from lxml import etree
from PIL import Image as PILImage, ImageOps

from .errors import ArtError
from .face import NO_EDITS, ArtEdits
from .text.fonts import from_fonts, static_font
from .svgnormal import GEOMETRY, missing_filters, normalise
from .imagefile import MAX_PIXELS, UNREADABLE, PictureError, decoded, embedded_pixels, open_raster, stamp

SVG_NS = "http://www.w3.org/2000/svg"
XLINK = "{http://www.w3.org/1999/xlink}href"


@dataclass(frozen=True)
class Limit:
    """A bound an SVG is held to at the door (docs/ROBUSTNESS.md lists them), declared once with
    the words said when art passes it: `message`, formatted with `limit` and what was found."""

    value: float
    message: str

    def said(self, **found: object) -> str:
        return self.message.format(limit=self.value, **found)


# far beyond any card art (the bundled art: 45 elements, 3 deep, 8 kB) and near enough that a file
# made to exhaust time or memory is refused before usvg sees it: a low-ink build of 25,000 elements
# of their own colours takes 4 s and 420 MB, of 100,000 took 16 s and 1.6 GB
MAX_SVG_BYTES = Limit(32 << 20, "is {size} MB, more than the 32 MB an SVG may be")
MAX_ELEMENTS = Limit(25_000, "has more than {limit:,} elements: simplify it, or export it as a picture")
MAX_DEPTH = Limit(64, "nests elements more than {limit} deep: ungroup some, or export it as a picture")
MAX_TEXT = Limit(20_000, "has more than {limit:,} characters of text: set long texts in the layout's text elements")
MAX_PATH_DATA = Limit(4_000_000, "has more than {limit:,} characters of path data: simplify its paths, or export "
                                 "it as a picture")
#: a coordinate, length, stroke width or transform's number beyond this is drawn at it, as it looks
#: the same (a browser draws 1e30 px wide as past every edge too); usvg computes in 32-bit floats,
#: which such numbers multiplied together overflow
MAX_NUMBER = Limit(1e9, "has {name}=\"{value}\", a number beyond ±1,000,000,000: drawn at that bound, as it looks "
                        "the same")
#: but the art's own size cannot be drawn at a bound: its proportions are what prints
MAX_SIZE = Limit(MAX_NUMBER.value, "has {name}=\"{value}\": an SVG is at most 1,000,000,000 units a side")
#: lxml's own bound on one attribute or text (huge_tree off)
MAX_VALUE = Limit(10_000_000, "has a value (an attribute or a text) of more than {limit:,} characters: simplify it, "
                              "or export it as a picture")
#: filters whose cost grows with a number: octaves of noise (each adds half the last's detail, so
#: the 11th is below one level in 255) and a convolution's order (its cost per pixel is its square)
MAX_OCTAVES = Limit(10, "has feTurbulence numOctaves=\"{value}\": drawn with {limit}, which looks the same")
MAX_ORDER = Limit(16, "has feConvolveMatrix order=\"{value}\": a convolution is at most {limit} × {limit}")
MAX_NESTING = Limit(8, "SVG pictures nested more than {limit} deep")  #: SVG pictures inside SVG pictures
GENERIC = {"serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui", "ui-serif", "ui-sans-serif",
           "ui-monospace", "ui-rounded", "math", "emoji", "fangsong"}
QUIET_GENERIC = {"sans-serif", "system-ui", "ui-sans-serif"}  # set in a sans serif, as asked: nothing to say
NATIVE_PICTURES = {"PNG": "image/png", "JPEG": "image/jpeg", "GIF": "image/gif", "WEBP": "image/webp"}


PLACEHOLDER = re.compile(r"\{([^{}\s]+)\}")
_PAINTS = ("fill", "stroke", "stop-color", "flood-color", "lighting-color", "color")
_PAINT_DECL = re.compile(r"(?<![-\w])(fill|stroke|stop-color|flood-color|lighting-color|color)(\s*:\s*)([^;}!]+)",
                         re.IGNORECASE)


@dataclass(frozen=True)
class Prepared:
    """An SVG ready for usvg: its text, what it could not keep (warnings, each a sentence), whether
    it has filters (drawn as pictures at the output's resolution) and the pictures it put in, as
    (name, pixels) (name None for a data: URI)."""

    text: str
    warnings: tuple[str, ...]
    filters: bool
    pictures: tuple[tuple[str | None, tuple[int, int]], ...]
    read: tuple[tuple[str, tuple[int, int]], ...] = ()  # the files it read, each with its stamp
    sets_text: bool = False  # whether it has text (set in the fonts it was made ready with)
    characters: str = ""  # the characters of its text, each once, in order
    changed: bool = True  # whether what it draws differs from the file's own text (else the file is as good)
    morphology: float = 0.0  # the largest feMorphology radius, in its units (what a filter's cost grows with)

    def embedded_fonts(self, fonts: tuple[str, ...], subset: Callable[[str, str], str]) -> str:
        """A CSS style sheet of @font-face rules with the fonts its text is set in (those of
        `fonts` whose family it names), each `subset(path, characters)` (base64 TrueType): SVG art
        in an `<image>` sees no fonts but its own, so a browser would set it in a system font."""
        if not self.sets_text or not self.characters:
            return ""
        named = self.text.lower()
        rules = []
        for font in font_facts(fonts):
            if f"'{font.family.lower()}'" in named:
                rules.append(f"@font-face{{font-family:'{font.family}';font-weight:{font.weight};"
                             f"font-stretch:{_STRETCH.get(font.width, 100)}%;font-style:"
                             f"{'italic' if font.italic else 'normal'};src:url(data:font/ttf;base64,"
                             f"{subset(font.path, self.characters)}) format(\"truetype\")}}")
        return "\n".join(rules)

    def with_style(self, css: str) -> str:
        """The SVG text with `css` as a style sheet first inside its root."""
        if not css:
            return self.text
        at = self.text.index(">", self.text.index("<svg")) + 1
        return self.text[:at] + "<style>" + css + "</style>" + self.text[at:]

    def current(self) -> bool:
        """Whether every file it was made from is as it was (a picture it links saved anew is not)."""
        try:
            return all(stamp(path) == was for path, was in self.read)
        except OSError:
            return False


def _parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False,
                           remove_comments=False, remove_pis=True, recover=False)


@dataclass(frozen=True)
class FontFacts:
    """What SVG art needs of a font file: its family (the typographic family, name 16, where it has
    one: all usvg knows it by), the family its style-named name 1 gives ("Noto Sans Condensed
    Black"), its subfamily, weight, width class and whether it is italic."""

    path: str
    family: str
    legacy: str
    style: str
    weight: int
    width: int
    italic: bool

    @property
    def stretch(self) -> str:
        """Its width as a CSS font-stretch keyword."""
        return _STRETCH_WORDS.get(self.width, "normal")


@from_fonts
@functools.lru_cache(maxsize=16)
def font_facts(fonts: tuple[str, ...]) -> tuple[FontFacts, ...]:
    """Each readable font's FontFacts (fonts by reference: `fonts.font_ref`), in the order given."""
    from fontTools.ttLib import TTFont

    found = []
    for path in fonts:
        try:
            with TTFont(io.BytesIO(static_font(path)), lazy=True) as font:
                names = font["name"]
                legacy = names.getDebugName(1) or ""
                family = names.getDebugName(16) or legacy
                os2 = font["OS/2"] if "OS/2" in font else None
                found.append(FontFacts(path, family, legacy, (names.getDebugName(2) or "").lower(),
                                       os2.usWeightClass if os2 is not None else 400,
                                       os2.usWidthClass if os2 is not None else 5,
                                       bool(os2.fsSelection & 1) if os2 is not None else False))
        except Exception:  # noqa: BLE001 - a font that cannot be read names nothing; the deck checks its fonts
            continue
    return tuple(f for f in found if f.family)


def font_families(fonts: tuple[str, ...]) -> dict[str, tuple[str, str | None, int | None]]:
    """The family names inside `fonts` (lower case) -> what to ask usvg for: the family name it
    knows, and the width (a CSS font-stretch keyword) and weight a style-named family stands for.
    The first file to claim a name keeps it, so the deck's fonts (given first) win over the
    bundled ones."""
    found: dict[str, tuple[str, str | None, int | None]] = {}
    for facts in font_facts(fonts):
        found.setdefault(facts.family.lower(), (facts.family, None, None))
        if facts.legacy and facts.legacy.lower() != facts.family.lower():  # style-named: usvg knows `family`
            found.setdefault(facts.legacy.lower(), (facts.family, None if facts.stretch == "normal" else facts.stretch,
                                                     facts.weight if facts.style in ("regular", "italic") else None))
    return found


_STRETCH_WORDS = {1: "ultra-condensed", 2: "extra-condensed", 3: "condensed", 4: "semi-condensed", 5: "normal",
                  6: "semi-expanded", 7: "expanded", 8: "extra-expanded", 9: "ultra-expanded"}
_STRETCH = {1: 50, 2: 62.5, 3: 75, 4: 87.5, 5: 100, 6: 112.5, 7: 125, 8: 150, 9: 200}  # the same, in %
_TEXTS = {"text", "tspan", "textPath", "a", "flowPara", "flowSpan", "flowRoot", "title"}


_FAMILY_DECL = re.compile(r"(font-family\s*:\s*)([^;}!]+)", re.IGNORECASE)
_FONT_DECL = re.compile(r"(?<![-\w])(font\s*:\s*)([^;}!]+)", re.IGNORECASE)
_FILTER_DECL = re.compile(r"(?<![-\w])filter\s*:\s*(?!none)", re.IGNORECASE)
_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)


class _Preparer:
    def __init__(self, path: str, fonts: tuple[str, ...], depth: int, edits: ArtEdits = NO_EDITS) -> None:
        self.path = path
        self.edits = edits
        self.folder = os.path.realpath(os.path.dirname(os.path.abspath(path)))
        self.families = font_families(fonts)
        self.default = next(iter(self.families.values()), ("Noto Sans",))[0]
        self.implied: tuple[str | None, int | None] = (None, None)  # what the last family list's first name stands for
        self.fonts = fonts
        self.depth = depth
        self.warnings: list[str] = []
        self.pictures: list[tuple[str | None, tuple[int, int]]] = []
        self.read: list[tuple[str, tuple[int, int]]] = []  # the files linked, with their stamps
        self.sets_text = False
        self.changed = edits != NO_EDITS  # whether the text differs from the file in what it draws
        self.filters = False
        self.beyond = False  # whether a number beyond MAX_NUMBER was said
        self.morphology = 0.0

    def put(self, element: etree._Element, key: str, value: str) -> None:
        """Set an attribute, noting that the SVG is no longer the file as it was."""
        if element.get(key) != value:
            element.set(key, value)
            self.changed = True

    def warn(self, text: str) -> None:
        if text not in self.warnings:
            self.warnings.append(text)

    # --- fonts ----------------------------------------------------------------------------

    def family_list(self, value: str) -> str:
        """A font-family list with every family the deck lacks replaced (and said), each as usvg
        knows it; `implied` the width and weight its first family's name stands for."""
        out: list[str] = []
        self.implied = (None, None)
        for raw in value.split(","):
            name = raw.strip().strip("'\"").strip()
            if not name:
                continue
            low = name.lower()
            if low in ("inherit", "initial", "unset", "revert"):
                return value
            if low in self.families:
                family, stretch, weight = self.families[low]
                if not out:
                    self.implied = (stretch, weight)
                out.append(family)
            elif low in GENERIC:
                if low not in QUIET_GENERIC and not out:
                    self.warn(f"asks for a {low} font, which the deck does not have: its text is set in "
                              f"{self.default}")
            elif not out:
                self.warn(f"uses the font '{name}', which neither the deck nor deckpress has: its text is set in "
                          f"{self.default} (add the font file to the deck's fonts)")
        out.append(self.default)
        return ", ".join(f"'{name}'" for name in dict.fromkeys(out))

    def css(self, text: str) -> str:
        text = _COMMENT.sub("", text)  # a comment inside style="" is skipped, as browsers do
        if _FILTER_DECL.search(text):
            self.filters = True
        text = _FAMILY_DECL.sub(lambda m: m.group(1) + self.family_list(m.group(2)) + self._implied_css(), text)
        return _FONT_DECL.sub(lambda m: m.group(1) + self._font_shorthand(m.group(2)), text)

    def _implied_css(self) -> str:
        """Declarations for the width and weight a style-named family stands for."""
        stretch, weight = self.implied
        return (f"; font-stretch: {stretch}" if stretch else "") + (f"; font-weight: {weight}" if weight else "")

    def _font_shorthand(self, value: str) -> str:
        # `font: italic bold 12px/30px Georgia, serif`: the family list follows the size
        match = re.search(r"(\d[\w.%]*(?:\s*/\s*[\w.%]+)?\s+)(.+)$", value.strip())
        if not match:
            return value
        return value.strip()[:match.start(2)] + self.family_list(match.group(2))

    # --- the tree -------------------------------------------------------------------------

    def prepare(self, data: bytes) -> Prepared:
        if len(data) > MAX_SVG_BYTES.value:
            raise ArtError(self.path, MAX_SVG_BYTES.said(size=len(data) >> 20))
        if data[:2] == b"\x1f\x8b":
            raise ArtError(self.path, "is compressed (SVGZ): save it as plain SVG")
        if not data.strip():
            raise ArtError(self.path, f"is empty ({len(data)} bytes): is the file complete?")
        try:
            root = etree.fromstring(data, _parser())
        except etree.XMLSyntaxError as exc:
            line = getattr(exc, "lineno", None)
            message = re.sub(r",? line \d+, column \d+$", "", str(exc.msg if hasattr(exc, "msg") else exc))
            if "Excessive depth" in message:  # lxml's own bound (256), past ours
                raise ArtError(self.path, MAX_DEPTH.said() + (f" (line {line})" if line else "")) from None
            if "XML_PARSE_HUGE" in message or "huge text" in message:
                raise ArtError(self.path, MAX_VALUE.said() + (f" (line {line})" if line else "")) from None
            raise ArtError(self.path, f"is not well-formed SVG{f' (line {line})' if line else ''}: {message}; "
                                      "is the file complete?") from None
        except ValueError as exc:  # e.g. an encoding declaration lxml refuses
            raise ArtError(self.path, f"cannot be read as SVG: {exc}") from None
        if root is None or not isinstance(root.tag, str) or etree.QName(root).localname != "svg":
            name = etree.QName(root).localname if root is not None and isinstance(root.tag, str) else "nothing"
            raise ArtError(self.path, f"is not an SVG: its root element is <{name}>, not <svg>")
        self.bounded(root)
        if root.get("width") is None and root.get("height") is None and root.get("viewBox") is None:
            self.put(root, "width", "300")
            self.put(root, "height", "150")
        self.changed |= normalise(root, self.warn)  # what browsers read otherwise than usvg: svgnormal.py
        for name in missing_filters(root):
            self.changed = True
            self.warn(f"names a filter '#{name}' that it does not have: drawn without it, as a browser draws it")
        if self.edits != NO_EDITS:
            self.edit(root)
        for element in list(root.iter()):
            if isinstance(element.tag, str):
                self.element(element)
        if root.get("font-family") is None and self.sets_text:  # text naming no family: the deck's sans
            self.put(root, "font-family", self.family_list(""))
        text = etree.tostring(root, encoding="unicode") + ("\n" if data.rstrip(b" \t\r")[-1:] == b"\n" else "")
        characters = "".join(dict.fromkeys(
            "".join(t for e in root.iter() if isinstance(e.tag, str) and etree.QName(e).localname in _TEXTS
                    for t in (e.text, e.tail) if t)))
        return Prepared(text, tuple(self.warnings), self.filters, tuple(self.pictures), tuple(self.read),
                        self.sets_text, characters, self.changed, self.morphology)

    def bounded(self, root: etree._Element) -> None:
        """Hold the tree to the limits: its elements (markers too), their depth, path data and text
        counted (an ArtError past any), its size within MAX_SIZE, and every number of its geometry beyond
        MAX_NUMBER drawn at that bound (said once)."""
        count = depth = path_data = text = 0
        for event, element in etree.iterwalk(root, events=("start", "end")):
            if event == "end":
                depth -= 1
                continue
            depth += 1
            count += 1
            if count > MAX_ELEMENTS.value:
                raise ArtError(self.path, MAX_ELEMENTS.said())
            if depth > MAX_DEPTH.value:
                raise ArtError(self.path, MAX_DEPTH.said() + f" (line {element.sourceline})")
            if not isinstance(element.tag, str):
                continue
            shape = (element.get("d") or "") + (element.get("points") or "")
            path_data += len(shape)
            if path_data > MAX_PATH_DATA.value:
                raise ArtError(self.path, MAX_PATH_DATA.said())
            local = etree.QName(element).localname
            if local in _TEXTS:
                text += len(element.text or "") + (len(element.tail or "") if local != "text" else 0)
                if text > MAX_TEXT.value:
                    raise ArtError(self.path, MAX_TEXT.said())
            if local == "feTurbulence" and _number_over(element.get("numOctaves"), MAX_OCTAVES.value):
                self.warn(MAX_OCTAVES.said(value=element.get("numOctaves", "")[:40]))
                self.put(element, "numOctaves", str(MAX_OCTAVES.value))
            elif local == "feMorphology":
                self.morphology = max([self.morphology, *(abs(float(n)) for n in _NUMBER.findall(
                    element.get("radius") or ""))])
            elif local == "feConvolveMatrix" and any(_number_over(n, MAX_ORDER.value)
                                                     for n in re.split(r"[\s,]+", element.get("order") or "")):
                raise ArtError(self.path, MAX_ORDER.said(value=element.get("order", "")[:40]))
            if shape and "marker" in "".join(element.keys()) + (element.get("style") or ""):
                count += len(_NUMBER.findall(shape)) // 2  # a marker drawn at each vertex is an element each
                if count > MAX_ELEMENTS.value:
                    raise ArtError(self.path, MAX_ELEMENTS.said())
            for name, value in element.items():
                if not _BIG.search(value):  # (a cheap look first: most numbers are short)
                    continue
                if element is root and name in ("width", "height", "viewBox"):
                    if _numbers_beyond(value):
                        raise ArtError(self.path, MAX_SIZE.said(name=name, value=value[:40]))
                elif name in _NUMERIC or (name == "style" and _NUMERIC_DECLARATION.search(value)):
                    self.clamped(element, name, value)
            if local == "style" and element.text and _BIG.search(element.text):
                clamped = _NUMERIC_DECLARATION.sub(lambda m: m.group(1) + m.group(2) + self.numbers(
                    m.group(1), m.group(3)), element.text)
                self.changed |= clamped != element.text
                element.text = clamped

    def clamped(self, element: etree._Element, name: str, value: str) -> None:
        """An attribute (a style's declarations too) with its numbers within MAX_NUMBER."""
        if name == "style":
            self.put(element, name, _NUMERIC_DECLARATION.sub(
                lambda m: m.group(1) + m.group(2) + self.numbers(m.group(1), m.group(3)), value))
        else:
            self.put(element, name, self.numbers(name, value))

    def numbers(self, name: str, value: str) -> str:
        """`value` with every number beyond MAX_NUMBER at that bound, and said."""
        def bound(match: re.Match) -> str:
            number = float(match.group(0))
            if abs(number) <= MAX_NUMBER.value:  # (NaN is no number usvg reads: it skips it)
                return match.group(0)
            if not self.beyond:  # said once: the first such number names the rest
                self.beyond = True
                self.warn(MAX_NUMBER.said(name=name, value=value.strip()[:40]))
            return f"{'-' if number < 0 else ''}{MAX_NUMBER.value:.0f}"

        return _NUMBER.sub(bound, value)

    def edit(self, root: etree._Element) -> None:
        """A card's changes: fields into the text, elements shown or hidden, everything tinted."""
        edits = self.edits
        values = dict(edits.fields)
        if values:
            def fill(text: str | None) -> str | None:
                return text if not text else PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), text)

            for element in root.iter():
                if isinstance(element.tag, str):
                    element.text, element.tail = fill(element.text), fill(element.tail)
        by_id = {element.get("id"): element for element in root.iter() if isinstance(element.tag, str) and
                 element.get("id") is not None}
        for names, shown in ((edits.show, True), (edits.hide, False)):
            for name in names:
                element = by_id.get(name)
                if element is None:
                    self.warn(f"has no element with the id '{name}' to {'show' if shown else 'hide'}"
                              + (f" (ids: {', '.join(sorted(by_id)[:8])}{', …' if len(by_id) > 8 else ''})"
                                 if by_id else ""))
                    continue
                style = re.sub(r"(?<![-\w])display\s*:[^;]*;?", "", element.get("style", "")).strip()
                element.set("style", f"{style}{'' if not style or style.endswith(';') else ';'}"
                                     f"display:{'inline' if shown else 'none'}")
                if element.get("display") is not None:
                    del element.attrib["display"]
                if shown:  # an element inside a hidden layer shows only with its layer
                    parent = element.getparent()
                    while parent is not None and parent is not root:
                        if "display:none" in parent.get("style", "").replace(" ", "") or parent.get("display") == "none":
                            self.warn(f"shows '{name}', which lies inside a hidden element: show that too")
                            break
                        parent = parent.getparent()
        if edits.tint:
            tint = edits.tint
            for element in root.iter():
                if not isinstance(element.tag, str):
                    continue
                for paint in _PAINTS:
                    value = element.get(paint)
                    if value is not None and value.strip().lower() not in ("none", "transparent", "inherit"):
                        element.set(paint, tint)
                style = element.get("style")
                if style:
                    element.set("style", _PAINT_DECL.sub(
                        lambda m: m.group(0) if m.group(3).strip().lower() in ("none", "transparent", "inherit")
                        else f"{m.group(1)}{m.group(2)}{tint}", style))
                if etree.QName(element).localname == "style" and element.text:
                    element.text = _PAINT_DECL.sub(
                        lambda m: m.group(0) if m.group(3).strip().lower() in ("none", "transparent", "inherit")
                        else f"{m.group(1)}{m.group(2)}{tint}", element.text)
                if etree.QName(element).localname == "image":
                    self.warn("has a picture inside, which a tint does not recolour")
            root.set("fill", root.get("fill", tint) if root.get("fill") == "none" else tint)
            root.set("color", tint)

    def element(self, element: etree._Element) -> None:
        local = etree.QName(element).localname
        if local == "flowRoot":
            self.warn("has flowed text (<flowRoot>), which is not drawn: in Inkscape, select it and use "
                      "Text ▸ Convert to Text")
        elif local == "foreignObject":
            self.warn("has a <foreignObject> (HTML inside SVG), which is not drawn")
        elif local in ("animate", "animateTransform", "animateMotion", "set"):
            self.warn("is animated: the picture before any animation is drawn")
        elif local in ("filter", "feDropShadow"):
            self.filters = True
        elif local == "feColorMatrix" and (element.get("type") or "").strip() == "saturate" \
                and _number_over(element.get("values"), 1.0):
            self.warn("saturates a colour matrix beyond 1, which prints at 1, as SVG 1.1 says (browsers "
                      "saturate further)")
        elif (local == "feComposite" and (element.get("operator") or "").strip() == "lighter") or \
                (local == "feBlend" and (element.get("mode") or "").strip() == "color-dodge"):
            what = "feComposite's lighter" if local == "feComposite" else "feBlend's color-dodge"
            self.warn(f"uses {what}, which prints otherwise than in a browser (docs/SVG.md)")
        elif local in ("feDiffuseLighting", "feSpecularLighting", "feDisplacementMap"):
            self.warn(f"has a {local} filter, which prints as resvg draws it: close to a browser's picture, "
                      "not the same (docs/SVG.md)")
        elif local == "mask" and element.get("mask") is not None:
            self.warn("has a mask that is itself masked, which browsers draw differently (Chromium leaves the "
                      "second mask out; deckpress applies it): mask a group inside the mask instead")
        elif local == "svg" and element.getparent() is not None and element.get("clip-path") is not None:
            self.warn("clips a nested <svg> element, whose clip deckpress places in the nested viewport where "
                      "browsers place it outside: clip a group around it instead")
        elif local == "radialGradient" and element.get("fr") is not None:
            self.warn("has a gradient with a focal radius and a focal point of its own, which prints without "
                      "the focal radius")
        elif local in ("text", "flowRoot"):
            self.sets_text = True
        elif local == "style" and element.text:
            css = self.css(element.text)
            self.changed |= css != element.text
            element.text = css
        elif local == "image":
            self.image(element)
        family = element.get("font-family")
        if family is not None:
            self.put(element, "font-family", self.family_list(family))
            stretch, weight = self.implied
            if stretch and element.get("font-stretch") is None:
                self.put(element, "font-stretch", stretch)
            if weight and element.get("font-weight") is None:
                self.put(element, "font-weight", str(weight))
        style = element.get("style")
        if style is not None:
            self.put(element, "style", self.css(style))
        if element.get("filter") not in (None, "none"):
            self.filters = True
        if element.get("vector-effect") not in (None, "none") or "vector-effect" in (element.get("style") or ""):
            self.warn("has vector-effect (non-scaling stroke), which prints as if it had none: its strokes "
                      "scale with their shapes")

    # --- pictures -------------------------------------------------------------------------

    def image(self, element: etree._Element) -> None:
        key = XLINK if element.get(XLINK) is not None else "href"
        href = (element.get(key) or "").strip()
        if not href:
            return
        try:
            uri = self.picture_uri(href)
        except ArtError as exc:
            self.warn(f"has a picture that is left out: {exc.reason}")
            element.getparent().remove(element)
            self.changed = True
            return
        if uri is not None:
            self.put(element, key, uri)

    def picture_uri(self, href: str) -> str | None:
        """The data: URI that puts the picture `href` names in; None to keep `href` as it is."""
        if href.startswith("data:"):
            head, _, body = href.partition(",")
            try:
                data = base64.b64decode(body, validate=False) if head.endswith(";base64") else unquote(body).encode()
            except (binascii.Error, ValueError):
                raise ArtError(self.path, "a data: URI that is not base64") from None
            kind = head[5:].split(";")[0].strip().lower()
            if kind == "image/svg+xml":
                return self.svg_uri(data, None)
            return self.raster_uri(io.BytesIO(data), None)
        if re.match(r"^[a-z][a-z0-9+.-]*:", href, re.IGNORECASE) and not href.lower().startswith("file:"):
            raise ArtError(self.path, f"'{href[:60]}' is on the internet; deckpress reads only files beside the art")
        name = unquote(href[5:] if href.lower().startswith("file:") else href).split("#")[0]
        target = os.path.realpath(os.path.join(self.folder, name))
        if os.path.commonpath([target, self.folder]) != self.folder:
            raise ArtError(self.path, f"'{name}' lies outside the art's folder")
        if not os.path.isfile(target):
            raise ArtError(self.path, f"'{name}' is not found beside the art")
        self.read.append((target, stamp(target)))
        if target.lower().endswith(".svg"):
            return self.svg_uri(Path(target).read_bytes(), target)
        return self.raster_uri(target, os.path.relpath(target, self.folder))

    def svg_uri(self, data: bytes, path: str | None) -> str:
        if self.depth >= MAX_NESTING.value:
            raise ArtError(self.path, MAX_NESTING.said())
        inner = _Preparer(path or self.path, self.fonts, self.depth + 1).prepare(data)
        for warning in inner.warnings:
            self.warn(warning)
        self.filters |= inner.filters
        self.morphology = max(self.morphology, inner.morphology)
        self.pictures += inner.pictures
        self.read += inner.read
        self.changed = True
        self.sets_text |= inner.sets_text
        return "data:image/svg+xml;base64," + base64.b64encode(inner.text.encode()).decode("ascii")

    def raster_uri(self, source: str | io.BytesIO, name: str | None) -> str:
        """A picture as a data: URI, in a format usvg reads. One that is broken or too big is the
        art's error (PictureError naming the art), as the same picture placed by itself is."""
        try:
            with _opened(source) as im:
                # its printed size is not known here: only the bound on pixels embedded holds (a
                # 12000 px picture took 1.3 GB, decoded by usvg whole), reached by a whole factor,
                # which Pillow reduces by box averages without a second picture of the size between
                factor = math.ceil(im.width / embedded_pixels(im.size, (math.inf, math.inf))[0])
                pixels = (max(1, im.width // factor), max(1, im.height // factor))
                kind = NATIVE_PICTURES.get(im.format or "")
                turned = im.getexif().get(0x0112, 1) not in (1, None)  # EXIF orientation, which browsers apply
                fewer = pixels != im.size
                if kind is None or getattr(im, "n_frames", 1) > 1 or im.mode == "CMYK" or turned or fewer:
                    im.seek(0)  # (a CMYK JPEG: usvg would read its inks as RGB)
                    out = io.BytesIO()
                    picture = decoded(im, pixels) if fewer else im
                    picture = ImageOps.exif_transpose(picture) if turned else picture
                    pixels = picture.size
                    picture = picture.convert("RGBA" if "A" in im.getbands() or "transparency" in im.info else "RGB")
                    picture.save(out, "PNG")
                    data, kind = out.getvalue(), "image/png"
                else:
                    im.load()  # a broken picture is found here, not inside usvg
                    data = source.getvalue() if isinstance(source, io.BytesIO) else Path(source).read_bytes()
        except _Unusable as exc:
            raise PictureError(self.path, f"holds a picture {exc}") from None
        except PictureError as exc:
            raise PictureError(self.path, f"links a picture '{name}' that {exc.reason}") from None
        self.pictures.append((name, pixels))
        return f"data:{kind};base64," + base64.b64encode(data).decode("ascii")


class _Unusable(Exception):
    """Why the picture of a data: URI cannot be used, as words that follow "holds a picture"."""


@contextmanager
def _opened(source: str | io.BytesIO) -> Iterator[PILImage.Image]:
    """A picture file (imagefile.open_raster), or the bytes of a data: URI opened alike: its size
    known to be within MAX_PIXELS before anything is decoded."""
    if isinstance(source, str):
        with open_raster(source) as im:
            yield im
        return
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PILImage.DecompressionBombWarning)
            im = PILImage.open(source)
    except PILImage.DecompressionBombError:  # past twice Pillow's bound it gives no size, only this
        raise _Unusable(f"of more than {MAX_PIXELS // 1_000_000} megapixels, more than any picture may have") \
            from None
    except UNREADABLE as exc:
        raise _Unusable(f"that cannot be read: {exc or type(exc).__name__}") from None
    with im:
        if im.width * im.height > MAX_PIXELS:
            raise _Unusable(f"of {im.width}×{im.height} px, more than the {MAX_PIXELS // 1_000_000} megapixels "
                            "any picture may have")
        try:
            yield im
        except UNREADABLE as exc:
            raise _Unusable(f"that cannot be read: {exc or type(exc).__name__}") from None


_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_BIG = re.compile(r"\d{10}|\d[eE]\+?\d")  #: where a number beyond MAX_NUMBER may be: ten digits, or an exponent
#: attributes and properties whose numbers are coordinates, lengths, widths or factors of them
_NUMERIC = frozenset(GEOMETRY) | {
    "d", "points", "transform", "gradientTransform", "patternTransform", "viewBox", "stroke-dasharray",
    "stroke-dashoffset", "stroke-miterlimit", "stdDeviation", "letter-spacing", "word-spacing", "textLength",
    "startOffset", "pathLength", "radius", "scale", "surfaceScale", "kernelUnitLength", "z", "pointsAtX",
    "pointsAtY", "pointsAtZ", "specularConstant", "specularExponent", "diffuseConstant", "k1", "k2", "k3", "k4",
    "kernelMatrix", "divisor", "bias", "baseFrequency", "seed", "rotate"}
_NUMERIC_DECLARATION = re.compile(r"(?<![-\w])(" + "|".join(sorted((re.escape(n) for n in _NUMERIC if "-" in n or
                                  n in ("x", "y", "width", "height", "r", "rx", "ry", "cx", "cy", "d", "transform")),
                                  key=len, reverse=True)) + r")(\s*:\s*)([^;}!]+)", re.IGNORECASE)


def _numbers_beyond(value: str) -> bool:
    return any(not abs(float(n)) <= MAX_NUMBER.value for n in _NUMBER.findall(value))


def _number_over(text: str | None, bound: float) -> bool:
    try:
        return text is not None and float(text.strip()) > bound
    except ValueError:
        return False


def prepare(path: str, fonts: tuple[str, ...], edits: ArtEdits = NO_EDITS) -> Prepared:
    """The SVG at `path` made ready for usvg, with `fonts` (the deck's first) as its fonts and a
    card's `edits`; ArtError if it cannot be drawn at all. Made once while neither the SVG nor a
    file it links changes (`deckpress serve` redraws art whose linked picture was saved anew)."""
    key = (path, stamp(path), fonts, edits)
    known = _PREPARED.get(key)
    if known is None or not known.current():
        preparer = _Preparer(path, fonts, 0, edits)
        known = preparer.prepare(_read(path, key[1]))
        known = replace(known, read=((path, key[1]), *known.read))
        _PREPARED[key] = known
        if len(_PREPARED) > 256:  # the least recently made goes
            del _PREPARED[next(iter(_PREPARED))]
    return known


class _Made(dict):
    """Prepared SVGs by what they were made from; emptied by fonts.reread_fonts, since fonts were
    chosen by the family names inside their files."""

    def cache_clear(self) -> None:
        self.clear()


_PREPARED: _Made = from_fonts(_Made())


@functools.lru_cache(maxsize=8)
def _read(path: str, _stamp: tuple[int, int]) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise ArtError(path, f"cannot be read: {exc.strerror or exc}") from None


def placeholders(path: str) -> tuple[str, ...]:
    """The `{field}` names in an SVG's text, in order, each once (what `fields: true` fills in)."""
    return _placeholders(path, stamp(path))


@functools.lru_cache(maxsize=64)
def _placeholders(path: str, _stamp: tuple[int, int]) -> tuple[str, ...]:
    text = _read(path, _stamp).decode("utf-8", "replace")
    return tuple(dict.fromkeys(PLACEHOLDER.findall(text)))
