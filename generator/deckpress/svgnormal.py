"""What browsers read in an SVG and usvg reads otherwise, rewritten into what both read alike.

Found by the SVG fidelity benchmark (benchmarks/svgfidelity.py), each against headless Chromium:

- **the cascade**: style sheets are applied here, as CSS applies them (selectors of every kind, by
  cssselect; specificity, then order; `!important`; `@media` for all and screen; `:root`), into each
  element's `style` attribute, and the sheets dropped; usvg's own reader knows few selectors and
  no `@media`;
- **property names** in any case (`FILL:`), as CSS reads them;
- **colours** of CSS Color 4 (`rgb(0 170 0 / 50%)`, `hsl(…)` with spaces, decimals and
  percentages, every named colour such as `rebeccapurple`, `currentcolor` in any case) as
  `#rrggbb` or `rgba(…)`;
- **CSS transforms**: the `transform` property (with `deg`, `turn`, `rad`, `px`) and
  `transform-origin` (numbers, `%` of the viewport and keywords, SVG's `view-box` reference box)
  folded into the `transform` attribute;
- **a gradient's `spreadMethod`** `reflect` or `repeat` unrolled into a `pad` gradient whose stops
  repeat over the area it paints (svg2pdf writes PDF shadings, which only pad): over the box of
  an `objectBoundingBox` gradient, over the viewport for `userSpaceOnUse`.

Each rewrite keeps what the file says where it cannot be sure (a selector cssselect cannot read, a
percentage origin on a transformed element, a radial gradient with a focal point of its own).
"""

from __future__ import annotations

import copy
import math
import re
from typing import Any

from lxml import etree

from .face import multiply, rotation

SVG_NS = "http://www.w3.org/2000/svg"
XLINK = "{http://www.w3.org/1999/xlink}href"
COLOUR_PROPERTIES = {"fill", "stroke", "stop-color", "flood-color", "lighting-color", "color"}
MAX_PERIODS = 64  #: a gradient repeated more often than this over what it paints is left as it is


# --- declarations ---------------------------------------------------------------------------

Declaration = tuple[str, str, bool]  # name (lower case), value, important


def declarations(text: str) -> list[Declaration]:
    """A declaration block's declarations, in order: names lower-cased, `!important` taken off."""
    found = []
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)  # a comment inside style="" is skipped, as browsers do
    for part in _split(text, ";"):
        name, colon, value = part.partition(":")
        name = name.strip().lower()
        if not colon or not name or not re.fullmatch(r"-?[a-z][a-z0-9-]*", name):
            continue
        value = value.strip()
        important = bool(re.search(r"!\s*important\s*$", value, re.IGNORECASE))
        if important:
            value = re.sub(r"!\s*important\s*$", "", value, flags=re.IGNORECASE).strip()
        if value:
            found.append((name, value, important))
    return found


def _split(text: str, separator: str) -> list[str]:
    """`text` split at `separator` outside brackets and quotes."""
    parts, depth, quote, start = [], 0, "", 0
    for i, char in enumerate(text):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "([":
            depth += 1
        elif char in ")]":
            depth = max(0, depth - 1)
        elif char == separator and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def style_text(found: list[Declaration]) -> str:
    return "; ".join(f"{name}: {value}" for name, value, _ in found)


# --- colours ---------------------------------------------------------------------------------

_FUNCTION = re.compile(r"^(rgba?|hsla?)\(\s*(.*?)\s*\)$", re.IGNORECASE | re.DOTALL)


def colour(value: str) -> str:
    """A CSS colour as usvg reads it alike: `#rrggbb`, or `rgba(r, g, b, a)` with an alpha;
    anything else (a paint server `url(#…)`, `none`, a colour usvg reads already) as it was."""
    text = value.strip()
    low = text.lower()
    if low == "currentcolor":
        return "currentColor"
    if re.fullmatch(r"[a-z]+", low):
        from PIL import ImageColor

        if low == "transparent":
            return "rgba(0, 0, 0, 0)"
        if low not in ImageColor.colormap:  # (its values: hex strings, or tuples once getrgb has read them)
            return text
        return "#{:02x}{:02x}{:02x}".format(*ImageColor.getrgb(low)[:3])
    match = _FUNCTION.match(text)
    if not match:
        return text
    kind = match.group(1).lower()
    args = [a for a in re.split(r"[\s,/]+", match.group(2)) if a]
    if len(args) not in (3, 4):
        return text
    try:
        if kind.startswith("rgb"):
            channels = [_channel(a) for a in args[:3]]
        else:
            channels = _hsl(_angle(args[0]), _percent(args[1]), _percent(args[2]))
        alpha = _alpha(args[3]) if len(args) == 4 else 1.0
    except ValueError:
        return text
    r, g, b = (round(min(max(c, 0.0), 255.0)) for c in channels)
    if alpha >= 1:
        return f"#{r:02x}{g:02x}{b:02x}"
    return f"rgba({r}, {g}, {b}, {round(max(alpha, 0.0), 4)})"


def _channel(text: str) -> float:
    return float(text[:-1]) * 2.55 if text.endswith("%") else float(text)


def _percent(text: str) -> float:
    return float(text.rstrip("%")) / 100


def _alpha(text: str) -> float:
    return min(float(text[:-1]) / 100 if text.endswith("%") else float(text), 1.0)


def _angle(text: str) -> float:
    """An angle in degrees."""
    low = text.lower()
    for unit, scale in (("deg", 1.0), ("grad", 0.9), ("rad", 180 / math.pi), ("turn", 360.0)):
        if low.endswith(unit):
            return float(low[:-len(unit)]) * scale
    return float(low)


def _hsl(hue: float, saturation: float, lightness: float) -> list[float]:
    import colorsys

    r, g, b = colorsys.hls_to_rgb((hue % 360) / 360, min(max(lightness, 0), 1), min(max(saturation, 0), 1))
    return [r * 255, g * 255, b * 255]


# --- the cascade -----------------------------------------------------------------------------

def _sheet_rules(text: str) -> list[tuple[str, str]]:
    """A style sheet's rules as (selectors, declarations), those in `@media all`/`screen` blocks
    included, other at-rules left out."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)
    rules: list[tuple[str, str]] = []
    i = 0
    while i < len(text):
        open_at = text.find("{", i)
        if open_at < 0:
            break
        head = text[i:open_at].strip()
        depth, j = 1, open_at + 1
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        body = text[open_at + 1:j - 1]
        if head.startswith("@"):
            skipped = head.split(";")[-1].strip()  # an @import … ; before it
            if skipped.lower().startswith("@media") and _media_applies(skipped[6:]):
                rules += _sheet_rules(body)
        else:
            rules.append((head.split(";")[-1].strip(), body))
        i = j
    return rules


def _media_applies(query: str) -> bool:
    kinds = [q.strip().lower() for q in query.split(",")]
    return any(k in ("", "all", "screen") or k.startswith(("all and", "screen and", "only screen")) and "print" not in k
               for k in kinds)


class _Translator:
    """cssselect's translator, matching element names by local name (SVG elements are namespaced)."""

    _instance: Any = None

    @classmethod
    def get(cls) -> Any:
        if cls._instance is None:
            from cssselect import GenericTranslator

            class Translator(GenericTranslator):
                def xpath_element(self, selector: Any) -> Any:
                    xpath = super().xpath_element(selector)
                    element = selector.element
                    if element and element != "*":
                        xpath.element = "*"
                        xpath.add_condition(f"local-name() = {self.xpath_literal(element)}")
                    return xpath

            cls._instance = Translator()
        return cls._instance


def cascade(root: etree._Element) -> bool:
    """Apply the SVG's style sheets to its elements' `style` attributes, as CSS does, and drop the
    sheets; whether there were any. A rule whose selector cannot be read is left out."""
    sheets = [e for e in root.iter() if isinstance(e.tag, str) and etree.QName(e).localname == "style"
              and (e.get("type") or "text/css").lower() == "text/css"]
    if not sheets:
        return False
    from cssselect import SelectorError, parse

    translator = _Translator.get()
    matched: dict[Any, list[tuple[bool, tuple[int, int, int], int, str, str]]] = {}
    order = 0
    for sheet in sheets:
        for selectors, body in _sheet_rules("".join(sheet.itertext())):
            found = declarations(body)
            if not found:
                continue
            try:
                parsed = parse(selectors)
            except SelectorError:
                continue
            for selector in parsed:
                if selector.pseudo_element:
                    continue
                try:
                    path = translator.selector_to_xpath(selector, prefix="descendant-or-self::")
                    elements = root.xpath(path)
                except Exception:  # noqa: BLE001 - a pseudo-class cssselect cannot match (:hover, …)
                    continue
                specificity = selector.specificity()
                for element in elements:
                    for name, value, important in found:
                        order += 1
                        matched.setdefault(element, []).append((important, specificity, order, name, value))
    for sheet in sheets:
        sheet.getparent().remove(sheet)
    for element, rules in matched.items():
        inline = declarations(element.get("style", ""))
        final: dict[str, str] = {}
        for important, _, _, name, value in sorted(r for r in rules if not r[0]):
            final[name] = value
        for name, value, important in inline:
            if not important:
                final[name] = value
        for _, _, _, name, value in sorted(r for r in rules if r[0]):
            final[name] = value
        for name, value, important in inline:
            if important:
                final[name] = value
        element.set("style", "; ".join(f"{name}: {value}" for name, value in final.items()))
    return True


# --- transforms ------------------------------------------------------------------------------

_CSS_FUNCTION = re.compile(r"([a-zA-Z]+)\(([^)]*)\)")


def css_transform(value: str) -> str | None:
    """A CSS `transform` value as an SVG transform list; None if it holds what SVG cannot say (3D)."""
    if value.strip().lower() == "none":
        return ""
    out = []
    for name, args in _CSS_FUNCTION.findall(value):
        low = name.lower()
        parts = [a for a in re.split(r"[\s,]+", args.strip()) if a]
        try:
            if low in ("rotate", "skewx", "skewy"):
                numbers = [_angle(parts[0])]
            elif low == "skew":
                numbers = [_angle(p) for p in parts]
            else:
                numbers = [_length(p) for p in parts]
        except (ValueError, IndexError):
            return None
        text = " ".join(f"{n:g}" for n in numbers)
        if low == "translatex":
            out.append(f"translate({text} 0)")
        elif low == "translatey":
            out.append(f"translate(0 {text})")
        elif low == "scalex":
            out.append(f"scale({text} 1)")
        elif low == "scaley":
            out.append(f"scale(1 {text})")
        elif low == "skew":
            out.append(f"skewX({numbers[0]:g})" + (f" skewY({numbers[1]:g})" if len(numbers) > 1 else ""))
        elif low in ("translate", "scale", "rotate", "matrix"):
            out.append(f"{low}({text})")
        elif low in ("skewx", "skewy"):
            out.append(f"skew{low[-1].upper()}({text})")
        else:
            return None
    return " ".join(out)


def _length(text: str) -> float:
    low = text.lower()
    return float(low[:-2]) if low.endswith("px") else float(low)


def origin(value: str, viewport: tuple[float, float, float, float]) -> tuple[float, float] | None:
    """A `transform-origin` as a point in user space (its reference box SVG's `view-box`): numbers
    or px, `%` of the viewport and the keywords; None if it cannot be placed."""
    x0, y0, w, h = viewport
    words = value.lower().split()[:2]
    if not words:
        return None
    if len(words) == 1:
        words.append("center")
    if words[0] in ("top", "bottom") or words[1] in ("left", "right"):
        words.reverse()
    axes = []
    for word, start, size in ((words[0], x0, w), (words[1], y0, h)):
        keyword = {"left": 0.0, "top": 0.0, "center": 0.5, "right": 1.0, "bottom": 1.0}.get(word)
        try:
            axes.append(start + size * (keyword if keyword is not None else
                                         float(word[:-1]) / 100 if word.endswith("%") else 0.0)
                        + (0.0 if keyword is not None or word.endswith("%") else _length(word)))
        except ValueError:
            return None
    return (axes[0], axes[1])


def _declared(found: list[Declaration], element: etree._Element, name: str) -> str | None:
    """A property's value from the style's declarations, else its attribute."""
    for key, value, _ in reversed(found):
        if key == name:
            return value.strip().lower()
    value = element.get(name)
    return value.strip().lower() if value is not None else None


def _reference_box(element: etree._Element, kind: str, box: tuple[float, float, float, float]
                   ) -> tuple[float, float, float, float] | None:
    """The box a `transform-origin` is in: the viewport (`view-box`), or a basic shape's own box
    (`fill-box`; `stroke-box` with half its stroke around); None for a shape whose box is not
    known without drawing it (a path, text, a group)."""
    if kind == "view-box":
        return box
    local = etree.QName(element).localname
    try:
        get = lambda name, default=0.0: float(re.sub(r"px$", "", (element.get(name) or str(default)).strip()))  # noqa: E731
        if local in ("rect", "image", "use", "svg"):
            found = (get("x"), get("y"), get("width"), get("height"))
        elif local == "circle":
            r = get("r")
            found = (get("cx") - r, get("cy") - r, 2 * r, 2 * r)
        elif local == "ellipse":
            rx, ry = get("rx"), get("ry")
            found = (get("cx") - rx, get("cy") - ry, 2 * rx, 2 * ry)
        elif local == "line":
            x1, y1, x2, y2 = get("x1"), get("y1"), get("x2"), get("y2")
            found = (min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1))
        elif local in ("path", "polygon", "polyline"):
            found = _points_box(element)
        elif local in ("g", "a"):
            found = _union([None if child.get("transform") else _reference_box(child, "fill-box", box)
                            for child in element if isinstance(child.tag, str)
                            and etree.QName(child).localname not in ("title", "desc", "defs", "metadata")])
        else:
            return None
        if found is None:
            return None
    except ValueError:
        return None
    if kind in ("stroke-box", "border-box"):
        try:
            half = float(re.sub(r"px$", "", element.get("stroke-width") or "1")) / 2 if element.get("stroke") not in \
                (None, "none") else 0.0
        except ValueError:
            half = 0.0
        found = (found[0] - half, found[1] - half, found[2] + 2 * half, found[3] + 2 * half)
    return found


def _points_box(element: etree._Element) -> tuple[float, float, float, float] | None:
    """The box of a path's points (its curves' control points too: a little large where a curve
    bulges less), or a polygon's; None for what cannot be read (arcs)."""
    from .svgpath import parse_path

    try:
        if etree.QName(element).localname == "path":
            points = [p for _, args in parse_path(element.get("d") or "") for p in zip(args[::2], args[1::2])]
        else:
            numbers = [float(v) for v in re.split(r"[\s,]+", (element.get("points") or "").strip()) if v]
            points = list(zip(numbers[::2], numbers[1::2]))
    except ValueError:
        return None
    if not points:
        return None
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def _union(boxes: list[tuple[float, float, float, float] | None]) -> tuple[float, float, float, float] | None:
    if not boxes or any(b is None for b in boxes):
        return None
    x0 = min(b[0] for b in boxes)  # type: ignore[index]
    y0 = min(b[1] for b in boxes)  # type: ignore[index]
    x1 = max(b[0] + b[2] for b in boxes)  # type: ignore[index]
    y1 = max(b[1] + b[3] for b in boxes)  # type: ignore[index]
    return (x0, y0, x1 - x0, y1 - y0)


_SHAPE = re.compile(r"^\s*(circle|ellipse|inset|polygon)\((.*)\)\s*([a-z-]*)\s*$", re.IGNORECASE | re.DOTALL)


def clip_shapes(root: etree._Element) -> bool:
    """`clip-path: circle(…)`, `ellipse(…)`, `inset(…)` or `polygon(…)` (CSS's basic shapes, which
    usvg does not read) as a `<clipPath>` of that shape in user space, laid on its reference box
    (the element's stroke box unless it names another; known for basic shapes, paths and groups of
    them)."""
    changed, count = False, 0
    for element in list(root.iter()):
        if not isinstance(element.tag, str):
            continue
        found = declarations(element.get("style", ""))
        value = _declared(found, element, "clip-path")
        match = _SHAPE.match(value) if value else None
        if not match:
            continue
        kind, args, box_name = match.group(1).lower(), match.group(2), match.group(3).lower() or "stroke-box"
        box = _reference_box(element, box_name, viewport(root))
        shape = _shape(kind, args, box) if box is not None else None
        if shape is None:
            continue
        count += 1
        ident = f"deckpress-clip-{count}"
        clip = etree.SubElement(root, f"{{{SVG_NS}}}clipPath", {"id": ident, "clipPathUnits": "userSpaceOnUse"})
        clip.append(shape)
        root.insert(0, clip)
        element.set("clip-path", f"url(#{ident})")
        kept = [d for d in found if d[0] != "clip-path"]
        if element.get("style") is not None:
            element.set("style", style_text(kept))
        changed = True
    return changed


def _shape(kind: str, args: str, box: tuple[float, float, float, float]) -> etree._Element | None:
    """A basic shape as an SVG element in user space, on `box` (x, y, width, height)."""
    x0, y0, w, h = box

    def length(text: str, extent: float) -> float:
        return extent * float(text[:-1]) / 100 if text.endswith("%") else _length(text)

    def position(words: list[str]) -> tuple[float, float]:
        point = origin(" ".join(words), (0.0, 0.0, w, h)) if words else (w / 2, h / 2)
        if point is None:
            raise ValueError(words)
        return point

    try:
        if kind in ("circle", "ellipse"):
            radii, _, at = args.partition(" at ")
            cx, cy = position(at.split())
            words = radii.split()
            sides = {"closest-side": (min(cx, w - cx), min(cy, h - cy)),
                     "farthest-side": (max(cx, w - cx), max(cy, h - cy))}
            if kind == "circle":
                word = words[0] if words else "closest-side"
                r = min(sides[word]) if word == "closest-side" else max(sides[word]) if word in sides else \
                    length(word, math.hypot(w, h) / math.sqrt(2))
                return etree.Element(f"{{{SVG_NS}}}circle", cx=f"{x0 + cx:g}", cy=f"{y0 + cy:g}", r=f"{r:g}")
            rx, ry = [(sides[word][i] if word in sides else length(word, (w, h)[i]))
                      for i, word in enumerate((words + ["closest-side"] * 2)[:2])]
            return etree.Element(f"{{{SVG_NS}}}ellipse", cx=f"{x0 + cx:g}", cy=f"{y0 + cy:g}", rx=f"{rx:g}",
                                 ry=f"{ry:g}")
        if kind == "inset":
            sides_text, _, round_text = args.partition(" round ")
            values = sides_text.split()
            top, right, bottom, left = (values * 4)[:1] * 4 if len(values) == 1 else \
                (values[0], values[1], values[0], values[1]) if len(values) == 2 else \
                (values[0], values[1], values[2], values[1]) if len(values) == 3 else values[:4]
            t, b = length(top, h), length(bottom, h)
            l, r = length(left, w), length(right, w)
            rect = etree.Element(f"{{{SVG_NS}}}rect", x=f"{x0 + l:g}", y=f"{y0 + t:g}", width=f"{max(w - l - r, 0):g}",
                                 height=f"{max(h - t - b, 0):g}")
            if round_text.strip():
                rect.set("rx", f"{length(round_text.split()[0], w):g}")
            return rect
        points = []
        rule = "nonzero"
        for pair in _split(args, ","):
            words = pair.split()
            if len(words) == 1 and words[0].lower() in ("nonzero", "evenodd"):
                rule = words[0].lower()
                continue
            points.append(f"{x0 + length(words[0], w):g},{y0 + length(words[1], h):g}")
        return etree.Element(f"{{{SVG_NS}}}polygon", points=" ".join(points), **{"clip-rule": rule})
    except (ValueError, IndexError, KeyError):
        return None


def viewport(root: etree._Element) -> tuple[float, float, float, float]:
    """The root's user space as (x, y, width, height): its viewBox, or its width and height."""
    box = [float(v) for v in re.split(r"[\s,]+", (root.get("viewBox") or "").strip()) if _number(v)]
    if len(box) == 4 and box[2] > 0 and box[3] > 0:
        return (box[0], box[1], box[2], box[3])
    sizes = []
    for key, fallback in (("width", 300.0), ("height", 150.0)):
        match = re.match(r"\s*([0-9.]+)\s*(px)?\s*$", root.get(key) or "")
        sizes.append(float(match.group(1)) if match else fallback)
    return (0.0, 0.0, sizes[0], sizes[1])


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


# --- spreadMethod ---------------------------------------------------------------------------

def _inherited(gradient: etree._Element, name: str, by_id: dict[str, etree._Element]) -> str | None:
    """An attribute of a gradient, or of the gradient it links to (`href`), as SVG inherits it."""
    seen = set()
    while gradient is not None and id(gradient) not in seen:
        seen.add(id(gradient))
        if gradient.get(name) is not None:
            return gradient.get(name)
        href = gradient.get(XLINK) or gradient.get("href") or ""
        gradient = by_id.get(href[1:]) if href.startswith("#") else None
    return None


def _stops(gradient: etree._Element, by_id: dict[str, etree._Element]) -> list[etree._Element]:
    seen = set()
    while gradient is not None and id(gradient) not in seen:
        seen.add(id(gradient))
        own = [e for e in gradient if isinstance(e.tag, str) and etree.QName(e).localname == "stop"]
        if own:
            return own
        href = gradient.get(XLINK) or gradient.get("href") or ""
        gradient = by_id.get(href[1:]) if href.startswith("#") else None
    return []


def _coordinate(text: str | None, default: float) -> float:
    if text is None:
        return default
    text = text.strip()
    return float(text[:-1]) / 100 if text.endswith("%") else float(text.removesuffix("px"))


def _matrix(text: str | None) -> tuple[float, ...] | None:
    """An SVG transform list as a matrix (a, b, c, d, e, f); None if it cannot be read."""
    m = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    for name, args in _CSS_FUNCTION.findall(text or ""):
        try:
            n = [float(v) for v in re.split(r"[\s,]+", args.strip()) if v]
        except ValueError:
            return None
        name = name.lower()
        if name == "matrix" and len(n) == 6:
            t = tuple(n)
        elif name == "translate" and n:
            t = (1, 0, 0, 1, n[0], n[1] if len(n) > 1 else 0)
        elif name == "scale" and n:
            t = (n[0], 0, 0, n[1] if len(n) > 1 else n[0], 0, 0)
        elif name == "rotate" and n:
            t = rotation(n[0], *(n[1:3] if len(n) == 3 else ()))
        elif name == "skewx" and n:
            t = (1, 0, math.tan(math.radians(n[0])), 1, 0, 0)
        elif name == "skewy" and n:
            t = (1, math.tan(math.radians(n[0])), 0, 1, 0, 0)
        else:
            return None
        m = multiply(m, t)  # the list applies right to left: the later function is the inner one
    return m


def _inverse(m: tuple[float, ...]) -> tuple[float, ...] | None:
    a, b, c, d, e, f = m
    det = a * d - b * c
    if abs(det) < 1e-12:
        return None
    return (d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det)


def spread(root: etree._Element) -> bool:
    """Unroll `reflect` and `repeat` gradients into `pad` ones; whether any was."""
    kinds = ("linearGradient", "radialGradient")
    gradients = [e for e in root.iter() if isinstance(e.tag, str) and etree.QName(e).localname in kinds]
    if not gradients:
        return False
    # each is read as the file has it, though one it links to may be unrolled first
    original = copy.deepcopy(root)
    by_id = {e.get("id"): e for e in original.iter() if isinstance(e.tag, str) and e.get("id")}
    was = [e for e in original.iter() if isinstance(e.tag, str) and etree.QName(e).localname in kinds]
    changed = False
    for gradient, before in zip(gradients, was):
        kind = etree.QName(gradient).localname
        method = (_inherited(before, "spreadMethod", by_id) or "pad").strip()
        if method not in ("reflect", "repeat"):
            continue
        try:
            changed |= _unroll(root, gradient, before, kind, method, by_id)
        except (ValueError, ZeroDivisionError):
            continue
    return changed


def _unroll(root: etree._Element, gradient: etree._Element, before: etree._Element, kind: str, method: str,
            by_id: dict[str, etree._Element]) -> bool:
    """Unroll `gradient`, read as it was (`before`, in the untouched copy that `by_id` indexes)."""
    get = lambda name: _inherited(before, name, by_id)  # noqa: E731
    user_space = (get("gradientUnits") or "").strip() == "userSpaceOnUse"
    matrix = _matrix(get("gradientTransform"))
    inverse = _inverse(matrix) if matrix is not None else None
    if inverse is None:
        return False
    x, y, w, h = viewport(root) if user_space else (0.0, 0.0, 1.0, 1.0)
    corners = [(px * inverse[0] + py * inverse[2] + inverse[4], px * inverse[1] + py * inverse[3] + inverse[5])
               for px in (x, x + w) for py in (y, y + h)]
    if kind == "linearGradient":
        x1, y1 = _coordinate(get("x1"), 0.0), _coordinate(get("y1"), 0.0)
        x2, y2 = _coordinate(get("x2"), 1.0), _coordinate(get("y2"), 0.0)
        dx, dy = x2 - x1, y2 - y1
        length = dx * dx + dy * dy
        if length <= 0:
            return False
        ts = [((cx - x1) * dx + (cy - y1) * dy) / length for cx, cy in corners]
        low, high = math.floor(min(ts) + 1e-9), math.ceil(max(ts) - 1e-9)  # a corner on a period's end
    else:
        cx, cy = _coordinate(get("cx"), 0.5), _coordinate(get("cy"), 0.5)
        r = _coordinate(get("r"), 0.5)
        fx, fy = get("fx"), get("fy")
        if r <= 0 or (fx is not None and _coordinate(fx, cx) != cx) or (fy is not None and _coordinate(fy, cy) != cy) \
                or get("fr") not in (None, "0"):
            return False
        low, high = 0, math.ceil(max(math.hypot(px - cx, py - cy) for px, py in corners) / r - 1e-9)
    if high - low > MAX_PERIODS or high <= low:
        return False
    stops = [(_coordinate(s.get("offset"), 0.0), s) for s in _stops(before, by_id)]
    if not stops:
        return False
    stops = [(min(max(o, 0.0), 1.0), s) for o, s in stops]
    span = high - low
    made = []
    for period in range(low, high):
        reflected = method == "reflect" and period % 2 != 0
        for offset, stop in (reversed(stops) if reflected else stops):
            at = (period + (1 - offset if reflected else offset) - low) / span
            copy = etree.Element(f"{{{SVG_NS}}}stop", {k: v for k, v in stop.attrib.items() if k != "offset"})
            copy.set("offset", f"{at:.6g}")
            made.append(copy)
    for child in [c for c in gradient if isinstance(c.tag, str) and etree.QName(c).localname == "stop"]:
        gradient.remove(child)
    for stop in made:
        gradient.append(stop)
    if kind == "linearGradient":
        for name, value in (("x1", x1 + low * dx), ("y1", y1 + low * dy), ("x2", x1 + high * dx),
                            ("y2", y1 + high * dy)):
            gradient.set(name, f"{value:.6g}")
    else:
        gradient.set("r", f"{r * high:.6g}")
        for name, value in (("cx", cx), ("cy", cy)):
            gradient.set(name, f"{value:.6g}")
    gradient.set("spreadMethod", "pad")
    gradient.attrib.pop(XLINK, None)
    gradient.attrib.pop("href", None)
    for name in ("gradientUnits", "gradientTransform"):  # no longer inherited: written here
        value = get(name) if name not in gradient.attrib else gradient.get(name)
        if value is not None:
            gradient.set(name, value)
    return True


# --- focal radius, linearRGB masks -------------------------------------------------------------

def focal_radius(root: etree._Element) -> bool:
    """A radial gradient's `fr` (SVG 2's focal radius, which svg2pdf leaves out) folded into its
    stops, where its focus is its centre: the colour at a distance d from the centre is the same,
    stops moved out by `fr`, the first colour held inside it (as `pad` holds it)."""
    changed = False
    for gradient in root.iter():
        if not isinstance(gradient.tag, str) or etree.QName(gradient).localname != "radialGradient":
            continue
        fr = gradient.get("fr")
        if fr is None or gradient.get("fx") is not None or gradient.get("fy") is not None:
            continue
        try:
            focal, radius = _coordinate(fr, 0.0), _coordinate(gradient.get("r"), 0.5)
        except ValueError:
            continue
        stops = [e for e in gradient if isinstance(e.tag, str) and etree.QName(e).localname == "stop"]
        del gradient.attrib["fr"]
        changed = True
        if not stops or radius <= 0 or focal <= 0:
            continue
        share = min(focal / radius, 1.0)
        for stop in stops:
            try:
                offset = min(max(_coordinate(stop.get("offset"), 0.0), 0.0), 1.0)
            except ValueError:
                offset = 0.0
            stop.set("offset", f"{share + offset * (1 - share):.6g}")
        first = copy.deepcopy(stops[0])
        first.set("offset", "0")
        stops[0].addprevious(first)
    return changed


def linear_masks(root: etree._Element) -> bool:
    """A mask with `color-interpolation="linearRGB"` takes its luminance from linear-light
    colours, as browsers do (usvg reads sRGB): each plain colour inside it written as its linear
    value, so the same luminance comes out."""
    changed = False
    for mask in root.iter():
        if not isinstance(mask.tag, str) or etree.QName(mask).localname != "mask" \
                or (mask.get("color-interpolation") or "").strip() != "linearRGB":
            continue
        for element in mask.iter():
            if not isinstance(element.tag, str):
                continue
            for name in ("fill", "stroke", "stop-color"):
                value = element.get(name)
                linear = _linear(value) if value else None
                if linear is not None:
                    element.set(name, linear)
                    changed = True
    return changed


def _linear(value: str) -> str | None:
    text = colour(value).lower()
    if re.fullmatch(r"#[0-9a-f]{3}", text):
        text = "#" + "".join(c * 2 for c in text[1:])
    if not re.fullmatch(r"#[0-9a-f]{6}", text):
        return None

    def channel(v: int) -> int:
        c = v / 255
        return round(255 * (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4))
    return "#" + "".join(f"{channel(int(text[i:i + 2], 16)):02x}" for i in (1, 3, 5))


# --- references and direction -----------------------------------------------------------------

def missing_filters(root: etree._Element) -> list[str]:
    """A `filter` naming an element that is not there is dropped, as browsers draw the element
    without it (usvg leaves the element out); the ids it named."""
    ids = {e.get("id") for e in root.iter() if isinstance(e.tag, str) and e.get("id")}
    missing = []
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        value = (element.get("filter") or "").strip()
        match = re.fullmatch(r"url\(\s*['\"]?#([^)'\"]+)['\"]?\s*\)", value)
        if match and match.group(1) not in ids:
            del element.attrib["filter"]
            missing.append(match.group(1))
    return missing


def right_to_left(root: etree._Element) -> bool:
    """`direction="rtl"` on text: its `text-anchor` start is the right end, as browsers lay it out
    (usvg anchors as left to right); the letters' order is the bidirectional algorithm's either way."""
    changed = False
    for element in root.iter():
        if not isinstance(element.tag, str) or etree.QName(element).localname != "text":
            continue
        found = declarations(element.get("style", ""))
        if _declared(found, element, "direction") != "rtl":
            continue
        anchor = _declared(found, element, "text-anchor") or "start"
        flipped = {"start": "end", "end": "start"}.get(anchor)
        if flipped:
            element.set("text-anchor", flipped)
            if element.get("style") is not None:
                element.set("style", style_text([d for d in found if d[0] not in ("text-anchor", "direction")]))
            changed = True
    return changed


# --- lengths --------------------------------------------------------------------------------

GEOMETRY = ("x", "y", "width", "height", "r", "rx", "ry", "cx", "cy", "x1", "y1", "x2", "y2", "stroke-width",
            "font-size", "dx", "dy", "fr", "fx", "fy", "markerWidth", "markerHeight", "refX", "refY")
_LENGTH = re.compile(r"^\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*"
                     r"(px|pt|pc|mm|cm|in|q|em|ex|ch|rem|cap|lh|rlh|ic|vw|vh|vmin|vmax|%)?\s*$", re.IGNORECASE)
#: units usvg does not read, in em of the font (Noto Sans's: cap height, x-height, the advance of
#: "0", of "水", and the normal line height), or in px
_FONT_UNITS = {"cap": 0.714, "ex": 0.536, "ch": 0.572, "ic": 1.0, "lh": 1.362, "rlh": 1.362}
_ABSOLUTE_UNITS = {"q": 96 / 25.4 / 4}
DEFAULT_FONT_SIZE = 16.0  #: px, a browser's


def lengths(root: etree._Element, warn: Any) -> bool:
    """Lengths in units browsers read and usvg does not (`cap`, `lh`, `Q`, …) in px; a length that
    is none (`10px junk`) left out, as browsers skip it, and said; a dash array with a negative
    length drawn solid, as browsers draw it, and said."""
    changed = False
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        for name in GEOMETRY:
            value = element.get(name)
            if value is None or (name in ("x", "y", "dx", "dy") and etree.QName(element).localname in
                                 ("text", "tspan") and re.search(r"[\s,]", value.strip())):
                continue  # a text's list of positions is usvg's own to read
            match = _LENGTH.match(value)
            if match is None:
                warn(f"has {name}='{value[:40]}', which is no length: left out, as a browser leaves it out")
                del element.attrib[name]
                changed = True
                continue
            unit = (match.group(2) or "").lower()
            if unit in _FONT_UNITS or unit in _ABSOLUTE_UNITS:
                number = float(match.group(1))
                px = number * _ABSOLUTE_UNITS[unit] if unit in _ABSOLUTE_UNITS else \
                    number * _FONT_UNITS[unit] * (_font_size(element.getparent()) if name == "font-size"
                                                  else _font_size(element))
                element.set(name, f"{px:.4g}")
                changed = True
        dashes = element.get("stroke-dasharray")
        if dashes is not None and _negative(dashes):
            warn(_NEGATIVE_DASHES)
            element.set("stroke-dasharray", "none")
            changed = True
        style = element.get("style")
        if style and "dasharray" in style.lower():  # (the cascade put style sheets' declarations here)
            found = declarations(style)
            if any(name == "stroke-dasharray" and _negative(value) for name, value, _ in found):
                warn(_NEGATIVE_DASHES)
                element.set("style", style_text([(name, "none" if name == "stroke-dasharray" and _negative(value)
                                                  else value, important) for name, value, important in found]))
                changed = True
    return changed


_NEGATIVE_DASHES = "has a stroke-dasharray with a negative length: drawn solid, as a browser draws it"


def _negative(dashes: str) -> bool:
    return any(v.startswith("-") for v in re.split(r"[\s,]+", dashes.strip()))


def _font_size(element: etree._Element | None) -> float:
    """The font size in px an element's text is set at: its own or its nearest ancestor's, in px,
    pt or em of its parent's; a browser's 16 px where none is given."""
    if element is None or not isinstance(element.tag, str):
        return DEFAULT_FONT_SIZE
    value = element.get("font-size")
    for name, text, _ in declarations(element.get("style", "")):
        if name == "font-size":
            value = text
    match = _LENGTH.match(value) if value else None
    if match is None:
        return _font_size(element.getparent())
    number, unit = float(match.group(1)), (match.group(2) or "px").lower()
    if unit in ("em", "%"):
        return number * (0.01 if unit == "%" else 1) * _font_size(element.getparent())
    return number * {"px": 1, "pt": 4 / 3, "pc": 16, "mm": 96 / 25.4, "cm": 960 / 25.4, "in": 96}.get(unit, 1)


# --- the whole -----------------------------------------------------------------------------

def normalise(root: etree._Element, warn: Any = lambda text: None) -> bool:
    """Rewrite `root` (an SVG's tree) into what usvg reads as a browser does, saying (`warn`) what
    a browser would skip; whether anything changed."""
    changed = cascade(root)
    changed |= lengths(root, warn)
    box = viewport(root)
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        for name in COLOUR_PROPERTIES & set(element.attrib):
            value = colour(element.get(name))
            if value != element.get(name):
                element.set(name, value)
                changed = True
        style = element.get("style")
        found = declarations(style) if style else []
        kept = []
        transform = element.get("transform")
        origin_value = element.get("transform-origin")
        for name, value, important in found:
            if name in COLOUR_PROPERTIES:
                value = colour(value)
            if name == "transform":
                converted = css_transform(value)
                if converted is not None:
                    transform = converted
                    continue
            if name == "transform-origin":
                origin_value = value
                continue
            kept.append((name, value, important))
        if origin_value is not None and transform:
            reference = _reference_box(element, _declared(found, element, "transform-box") or "view-box", box)
            point = origin(origin_value, reference) if reference is not None else None
            if point is not None and any(point):
                transform = f"translate({point[0]:g} {point[1]:g}) {transform} translate({-point[0]:g} {-point[1]:g})"
        if origin_value is not None:
            element.attrib.pop("transform-origin", None)
            changed = True
        if transform != element.get("transform"):
            if transform:
                element.set("transform", transform)
            else:
                element.attrib.pop("transform", None)
            changed = True
        if style is not None:
            text = style_text(kept)
            if text != style:
                element.set("style", text)
                changed = True
    changed |= clip_shapes(root)
    changed |= right_to_left(root)
    changed |= focal_radius(root)
    changed |= linear_masks(root)
    return spread(root) or changed


# --- filter regions on the pixel grid -------------------------------------------------------------

def snapped_filters(text: str, scale: float) -> str:
    """The SVG `text` with each filter region widened to whole pixels of the picture svg2pdf draws
    it into, at `scale` pixels a unit of the art's page: a browser snaps a filter's region to its
    pixels, and a region starting mid-pixel came out half a pixel soft at every edge. Done where
    the filtered element's box is known and nothing transforms it (a copy of the filter each);
    elsewhere the filter is left as it is."""
    root = etree.fromstring(text.encode("utf-8"), etree.XMLParser(resolve_entities=False, no_network=True,
                                                                   huge_tree=False))
    x0, y0, width, height = viewport(root)
    try:
        page_width = float(re.sub(r"px$", "", (root.get("width") or "").strip()) or width)
    except ValueError:
        page_width = width
    per_unit = scale * page_width / width  # pixels a user unit
    by_id = {e.get("id"): e for e in root.iter() if isinstance(e.tag, str) and e.get("id")}
    count = 0
    for element in list(root.iter()):
        if not isinstance(element.tag, str) or element is root:
            continue
        match = re.fullmatch(r"url\(\s*['\"]?#([^)'\"]+)['\"]?\s*\)", (element.get("filter") or "").strip())
        filter_ = by_id.get(match.group(1)) if match else None
        if filter_ is None or any(e.get("transform") for e in [element, *element.iterancestors()]):
            continue
        box = _reference_box(element, "fill-box", (x0, y0, width, height))
        region = _filter_region(filter_, box) if box is not None else None
        if region is None:
            continue
        rx0, ry0, rx1, ry1 = region
        sx0 = math.floor((rx0 - x0) * per_unit + 1e-6) / per_unit + x0
        sy0 = math.floor((ry0 - y0) * per_unit + 1e-6) / per_unit + y0
        sx1 = math.ceil((rx1 - x0) * per_unit - 1e-6) / per_unit + x0
        sy1 = math.ceil((ry1 - y0) * per_unit - 1e-6) / per_unit + y0
        count += 1
        copy_ = copy.deepcopy(filter_)
        copy_.set("id", f"deckpress-filter-{count}")
        copy_.set("filterUnits", "userSpaceOnUse")
        for name, value in (("x", sx0), ("y", sy0), ("width", sx1 - sx0), ("height", sy1 - sy0)):
            copy_.set(name, f"{value:.6g}")
        filter_.addnext(copy_)
        element.set("filter", f"url(#deckpress-filter-{count})")
    return etree.tostring(root, encoding="unicode") if count else text


def _filter_region(filter_: etree._Element, box: tuple[float, float, float, float]
                   ) -> tuple[float, float, float, float] | None:
    """A filter's region on an element of `box`, as (x0, y0, x1, y1) in user space; None for what
    cannot be read here (a region inherited through `href`)."""
    if filter_.get(XLINK) or filter_.get("href"):
        return None
    bx, by, bw, bh = box
    user = (filter_.get("filterUnits") or "").strip() == "userSpaceOnUse"
    try:
        if user:
            if None in (filter_.get("width"), filter_.get("height")) or any(
                    (filter_.get(k) or "").strip().endswith("%") for k in ("x", "y", "width", "height")):
                return None
            x, y = _coordinate(filter_.get("x"), 0.0), _coordinate(filter_.get("y"), 0.0)
            w, h = _coordinate(filter_.get("width"), 0.0), _coordinate(filter_.get("height"), 0.0)
        else:
            x = bx + _coordinate(filter_.get("x"), -0.1) * bw
            y = by + _coordinate(filter_.get("y"), -0.1) * bh
            w, h = _coordinate(filter_.get("width"), 1.2) * bw, _coordinate(filter_.get("height"), 1.2) * bh
    except ValueError:
        return None
    return (x, y, x + w, y + h) if w > 0 and h > 0 else None
