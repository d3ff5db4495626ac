"""Card + template -> Face: fill in fields, apply conditions, place and fit every element."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..colors import BLACK, Color
from ..errors import DeckError, Warnings, suggest
from ..face import (Ellipse, Face, Group, Image, Item, Line, Paint, Path as PathItem, Rect, Text,
                    rotation, translation)
from ..imagefile import image_size
from ..model import Card, CardSize, Deck, Element, Template
from ..model.deck import NAME_FIELDS
from ..model.elements import KINDS
from ..model.layout import Icon, parse_value
from ..model.values import Names, PaletteColor, Pattern, as_text, known_names, literal_text, pattern_of
from ..shapes import shape
from ..units import PT, Length
from .staff import staff_items
from .text import IconDraw, MarkupError, glyph_icon, set_text, shape_icon


class Composer:
    """Composes the faces of one deck; identical card sides are composed once."""

    def __init__(self, deck: Deck, warn: Warnings | None = None) -> None:
        self.deck = deck
        self.warn = warn if warn is not None else Warnings()
        self.names: Names = deck.names
        self.icons = _icon_draws(deck.layouts.icons, deck.names)
        self._cache: dict[tuple[str, CardSize, str], Face] = {}
        self._components = {c.name: c for c in deck.components}

    def face(self, card: Card, template: Template) -> Face:
        """The face of `card` drawn with `template`, at its component's size; cards that agree on
        every field the template reads share one face (the same object)."""
        component = self._components[card.component]
        size = component.size
        values = dict(self.deck.meta_fields)
        values.update({"card.number": card.number, "card.total": len(component.cards),
                       "component": card.component})
        values.update(card.fields)
        key = (template.name, size, repr([(name, values.get(name)) for name in sorted(template.uses)]))
        face = self._cache.get(key)
        if face is None:
            context = _Context(self, card, template, size.width, size.height)
            items = context.elements(template.elements, values)
            face = self._cache[key] = Face(size.width, size.height, self.deck.bleed, tuple(items), size.radius)
        return face


def _with_ink(item: Item, ink: str) -> Item:
    """A group's ink hint, passed to everything inside it that has none of its own."""
    if isinstance(item, Group):
        return replace(item, items=tuple(_with_ink(i, ink) for i in item.items))
    if isinstance(item, (Text, Image)):
        return replace(item, ink=ink) if item.ink == "auto" else item
    return replace(item, paint=replace(item.paint, ink=ink)) if item.paint.ink == "auto" else item


def _icon_draws(icons: Mapping[str, Icon], names: Names) -> dict[str, IconDraw]:
    draws: dict[str, IconDraw] = {}
    for p in names.palette.values():
        draws[p.name] = shape_icon(p.name, p.symbol, p.color, outline=True)
    for icon in icons.values():
        if icon.glyph is not None:
            family, style = icon.font
            font = family.file(style)
            if not font.has(icon.glyph):
                raise DeckError(f"icon '{icon.name}': font '{family.name}' has no character "
                                f"U+{ord(icon.glyph):04X}")
            draws[icon.name] = glyph_icon(icon.name, font, icon.glyph, icon.scale, icon.color)
        elif icon.symbol is not None:
            draws[icon.name] = shape_icon(icon.name, icon.symbol, icon.color, icon.scale)
        else:
            draws[icon.name] = _image_icon(icon)
    return draws


def _image_icon(icon: Icon) -> IconDraw:
    w, h = image_size(str(icon.image))
    height = 0.9 * icon.scale
    width = height * w / h

    def draw(x: float, baseline: float, size: float, color: Color) -> list[Item]:
        return [Image(x + 0.08 * size, baseline - (0.36 + height / 2) * size, width * size, height * size,
                      str(icon.image))]

    return IconDraw(icon.name, width + 0.16, draw)


class _Context:
    """Composing one card with one template: values, errors that point at the right line."""

    def __init__(self, composer: Composer, card: Card, template: Template, width: float, height: float) -> None:
        self.c = composer
        self.card = card
        self.template = template
        self.w = width
        self.h = height
        self.bleed = composer.deck.bleed

    # -- values --------------------------------------------------------------------------------

    def value(self, element: Element, key: str, values: Mapping[str, Any]) -> Any:
        raw = element.values[key]
        if not isinstance(raw, Pattern):
            return raw
        filled = raw.fill(values)
        kind = KINDS[element.kind]
        try:
            return parse_value(kind, key, filled, self.c.names, self.c.deck.folder, None)
        except ValueError as exc:
            spec = kind.key(key)
            choices = known_names(spec.type, self.c.names, spec.choices) if spec else []
            hint = None
            if isinstance(filled, str) and filled.strip():  # 'bleu 20%' -> suggest for 'bleu'
                hint = suggest(filled, choices) or suggest(filled.split()[0], choices)
            raise DeckError(f"card {self.card.label}: {element.kind} {key} '{raw.text}' gives {exc} "
                            f"(template '{self.template.name}', {element.file}:{element.line_of(key)})",
                            self.card.file, self.card.line, hint) from None

    def length(self, element: Element, key: str, values: Mapping[str, Any]) -> float:
        length: Length = self.value(element, key, values)
        axis = KINDS[element.kind].key(key).axis
        return length.resolve(self.w if axis == "x" else self.h, self.bleed)

    def paint(self, element: Element, values: Mapping[str, Any], fill_key: str = "fill") -> Paint:
        get = lambda k: self.value(element, k, values)  # noqa: E731
        return Paint(fill=get(fill_key) if fill_key in element.values else None,
                     stroke=get("stroke") if "stroke" in element.values else None,
                     stroke_width=get("stroke-width") if "stroke-width" in element.values else 0.0,
                     dash=get("dash") if "dash" in element.values else (),
                     ink=get("ink"))

    # -- elements ------------------------------------------------------------------------------

    def elements(self, elements: tuple[Element, ...], values: Mapping[str, Any]) -> list[Item]:
        items: list[Item] = []
        for element in elements:
            if element.when is not None and not element.when.matches(values):
                continue
            drawn = self.element(element, values)
            if element.kind == "group" and (ink := self.value(element, "ink", values)) != "auto":
                drawn = [_with_ink(item, ink) for item in drawn]
            angle = self.value(element, "rotate", values)
            if angle and drawn:
                cx, cy = self.centre(element, values)
                drawn = [Group(tuple(drawn), rotation(angle, cx, cy))]
            items.extend(drawn)
        return items

    def centre(self, element: Element, values: Mapping[str, Any]) -> tuple[float, float]:
        L = lambda k: self.length(element, k, values)  # noqa: E731
        if element.kind in ("rect", "text", "image"):
            return (L("x") + L("w") / 2, L("y") + L("h") / 2)
        if element.kind == "staff":
            return (L("x") + L("w") / 2, L("y") + 2 * self.value(element, "space", values))
        if element.kind == "line":
            return ((L("x1") + L("x2")) / 2, (L("y1") + L("y2")) / 2)
        if element.kind in ("circle", "ellipse", "glyph", "symbol"):
            return (L("x"), L("y"))
        if element.kind == "polygon":
            pts = self.points(element, values)
            return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))
        if element.kind == "path":
            return (L("x"), L("y"))
        return (self.w / 2, self.h / 2)

    def points(self, element: Element, values: Mapping[str, Any]) -> list[tuple[float, float]]:
        return [(x.resolve(self.w, self.bleed), y.resolve(self.h, self.bleed))
                for x, y in self.value(element, "points", values)]

    def element(self, e: Element, values: Mapping[str, Any]) -> list[Item]:
        draw: Callable[[Element, Mapping[str, Any]], list[Item]] = getattr(self, "draw_" + e.kind)
        return draw(e, values)

    def draw_rect(self, e: Element, values: Mapping[str, Any]) -> list[Item]:
        L = lambda k: self.length(e, k, values)  # noqa: E731
        return [Rect(L("x"), L("y"), L("w"), L("h"), self.value(e, "radius", values), self.paint(e, values))]

    def draw_line(self, e: Element, values: Mapping[str, Any]) -> list[Item]:
        L = lambda k: self.length(e, k, values)  # noqa: E731
        return [Line(L("x1"), L("y1"), L("x2"), L("y2"), self.paint(e, values), self.value(e, "cap", values))]

    def draw_circle(self, e: Element, values: Mapping[str, Any]) -> list[Item]:
        r = self.length(e, "r", values)
        return [Ellipse(self.length(e, "x", values), self.length(e, "y", values), r, r, self.paint(e, values))]

    def draw_ellipse(self, e: Element, values: Mapping[str, Any]) -> list[Item]:
        L = lambda k: self.length(e, k, values)  # noqa: E731
        return [Ellipse(L("x"), L("y"), L("rx"), L("ry"), self.paint(e, values))]

    def draw_polygon(self, e: Element, values: Mapping[str, Any]) -> list[Item]:
        pts = self.points(e, values)
        ops = (("M", pts[0]),) + tuple(("L", p) for p in pts[1:]) + (("Z", ()),)
        return [PathItem(ops, self.paint(e, values))]

    def draw_path(self, e: Element, values: Mapping[str, Any]) -> list[Item]:
        x, y = self.length(e, "x", values), self.length(e, "y", values)
        k = self.value(e, "scale", values)
        ops = tuple((op, tuple(v * k + (x if i % 2 == 0 else y) for i, v in enumerate(pts)))
                    for op, pts in self.value(e, "d", values))
        return [PathItem(ops, self.paint(e, values))]

    def draw_symbol(self, e: Element, values: Mapping[str, Any]) -> list[Item]:
        palette: PaletteColor = self.value(e, "of", values)
        paint = self.paint(e, values, fill_key="color")
        paint = Paint(fill=paint.fill or palette.color, stroke=paint.stroke, stroke_width=paint.stroke_width,
                      ink=paint.ink)
        return [shape(palette.symbol, self.length(e, "x", values), self.length(e, "y", values),
                      self.value(e, "size", values), paint)]

    def draw_glyph(self, e: Element, values: Mapping[str, Any]) -> list[Item]:
        char: str = self.value(e, "char", values)
        family, style = self.value(e, "font", values)
        font = family.file(style)
        if not font.has(char):
            raise DeckError(f"card {self.card.label}: font '{family.name}' has no character U+{ord(char):04X} "
                            f"(template '{self.template.name}', {e.file}:{e.line_of('char')})",
                            self.card.file, self.card.line)
        size = self.value(e, "size", values)
        x, y = self.length(e, "x", values), self.length(e, "y", values)
        x0, y0, x1, y1 = font.bounds(char)
        anchor = self.value(e, "anchor", values)
        ax = {"left": x0, "right": x1}.get(anchor, (x0 + x1) / 2)
        ay = {"top": y1, "bottom": y0, "baseline": 0.0}.get(anchor, (y0 + y1) / 2)
        color = self.value(e, "color", values) or BLACK
        return [Text(x - ax * size, y + ay * size, char, font.path, size, color, self.value(e, "ink", values))]

    def text(self, e: Element, values: Mapping[str, Any]) -> str:
        """A text element's text, in the language the deck is printed in: the layout's text is
        translated before the fields go in, and so is every text field that goes in."""
        translate = self.c.deck.translate
        if translate is None:
            return self.value(e, "text", values)
        raw = e.values["text"]
        if not isinstance(raw, Pattern):
            return translate(raw, (e.file, e.line_of("text")))
        here = (self.card.file, self.card.line)

        def field(value: Any) -> Any:
            if isinstance(value, str):
                return translate(value, here)
            if isinstance(value, (list, tuple)):
                return [field(v) for v in value]
            return value

        translated = translate(raw.text, (e.file, e.line_of("text")))
        pattern = pattern_of(translated)
        if pattern is None:
            return literal_text(translated)
        return as_text(pattern.fill({**values, **{f: field(values[f]) for f in pattern.fields
                                                  if f not in NAME_FIELDS}}))

    def draw_staff(self, e: Element, values: Mapping[str, Any]) -> list[Item]:
        get = lambda k: self.value(e, k, values)  # noqa: E731
        font = self.c.names.fonts.split("music")[0].file("regular")
        return staff_items(self.length(e, "x", values), self.length(e, "y", values), self.length(e, "w", values),
                           get("space"), get("clef"), get("notes"), get("note"), get("color") or BLACK,
                           get("stroke-width"), font, get("ink"))

    def draw_text(self, e: Element, values: Mapping[str, Any]) -> list[Item]:
        L = lambda k: self.length(e, k, values)  # noqa: E731
        get = lambda k: self.value(e, k, values)  # noqa: E731
        family, style = get("font")
        text = self.text(e, values)
        size, min_size = get("size"), get("min-size")
        try:
            fitted = set_text(str(text), (L("x"), L("y"), L("w"), L("h")), family, style, self.c.names.fonts,
                              self.c.icons, size, min(size, min_size), get("color") or BLACK, get("align"),
                              get("valign"), get("line-height"), get("fit") == "shrink", get("wrap"),
                              get("ink"))
        except MarkupError as exc:
            message, name, known = exc.args
            raise DeckError(f"card {self.card.label}: {message} in text (template '{self.template.name}', "
                            f"{e.file}:{e.line_of('text')})", self.card.file, self.card.line,
                            suggest(name, known)) from None
        if fitted.missing:
            chars = ", ".join(f"'{c}' (U+{ord(c):04X})" for c in sorted(fitted.missing))
            self.c.warn(f"card {self.card.label}: no font has {chars}; it would print as an empty box "
                        f"(template '{self.template.name}', {e.file}:{e.line_of('text')})",
                        self.card.file, self.card.line)
        if not fitted.fits:
            at = f"even at {min_size / PT:g}pt" if get("fit") == "shrink" else f"at {size / PT:g}pt"
            self.c.warn(f"card {self.card.label}: text of template '{self.template.name}' "
                        f"({e.file}:{e.line_of('text')}) does not fit its box {at}",
                        self.card.file, self.card.line)
        return fitted.items

    def draw_image(self, e: Element, values: Mapping[str, Any]) -> list[Item]:
        L = lambda k: self.length(e, k, values)  # noqa: E731
        src: Path = self.value(e, "src", values)
        x, y, w, h = L("x"), L("y"), L("w"), L("h")
        try:
            iw, ih = image_size(str(src))
        except ValueError as exc:
            raise DeckError(f"card {self.card.label}: {exc} (template '{self.template.name}', "
                            f"{e.file}:{e.line_of('src')})", self.card.file, self.card.line) from None
        fit = self.value(e, "fit", values)
        ink = self.value(e, "ink", values)
        if fit == "stretch":
            return [Image(x, y, w, h, str(src), ink=ink)]
        k = (min if fit == "contain" else max)(w / iw, h / ih)
        dw, dh = iw * k, ih * k
        image = Image(x + (w - dw) / 2, y + (h - dh) / 2, dw, dh, str(src), ink=ink)
        return [image] if fit == "contain" else [Group((image,), clip=(x, y, w, h))]

    def draw_group(self, e: Element, values: Mapping[str, Any]) -> list[Item]:
        each = e.values.get("each")
        if not each:
            return self.elements(e.children, values)
        items = values[each]
        if isinstance(items, Mapping):
            rounds = [{"key": k, "value": v, "item": k} for k, v in items.items()]
        elif isinstance(items, (list, tuple)):
            rounds = [{"item": v, "key": v, "value": v} for v in items]
        else:
            rounds = [{"item": items, "key": items, "value": items}]
        dx, dy = self.length(e, "step-x", values), self.length(e, "step-y", values)
        shift = (len(rounds) - 1) / 2 if self.value(e, "center", values) else 0.0
        drawn: list[Item] = []
        for index, extra in enumerate(rounds):
            inner = dict(values)
            inner.update(extra)
            inner["index"] = index + 1
            children = self.elements(e.children, inner)
            if children:
                drawn.append(Group(tuple(children), translation((index - shift) * dx, (index - shift) * dy)))
        return drawn
