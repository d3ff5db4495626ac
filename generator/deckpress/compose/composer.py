"""Card + template -> Face: fill in fields, apply conditions, place and fit every element.

Each kind's drawing is in `elements` (one drawer per kind declared in `model/elements`); this
module reads values for them and applies what every kind shares: `when`, `rotate` and `opacity`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..colors import Color
from ..errors import DeckError, Warnings, suggest
from ..face import IDENTITY, Face, Group, Image, Item, Paint, PathOp, Text, apply, bounds, multiply, rotation
from ..pieceshape import SAFE_INSET, PieceShape, mirrored, outline, within_safe_area
from ..text.fonts import open_font
from ..vectorart import picture_size
from ..model import Card, CardSize, Deck, Element, Template
from ..model.elements import KINDS
from ..model.keys import Key
from ..model.layout import Icon, parse_value
from ..model.values import Names, Pattern, known_names
from ..units import Length
from .elements import DRAWERS
from ..text import IconDraw, glyph_icon, shape_icon


class Composer:
    """Composes the faces of one deck; identical card sides are composed once."""

    def __init__(self, deck: Deck, warn: Warnings | None = None) -> None:
        self.deck = deck
        self.warn = warn if warn is not None else Warnings()
        self.names: Names = deck.names
        self.color_names = deck.names.color_names()  # what a text span's `color` may name
        self.icons = _icon_draws(deck.layouts.icons, deck.names)
        self._cache: dict[tuple[str, CardSize, str], Face] = {}
        self._components = {c.name: c for c in deck.components}
        # what cards share below the face: a filled-in value parsed, and per card size each
        # element's literal lengths and its drawings (see `_Reading`); all of it lives as long as
        # the composer, which composes one deck's faces
        self._parsed: dict[tuple[str, str, type, Any], Any] = {}
        self._readings: dict[tuple[float, float], dict[int, _Reading]] = {}
        self._uses: dict[str, list[str]] = {}  # each template's fields, in the order its cache key lists them
        self._written: dict[tuple[str, CardSize, str], tuple[str, ...]] = {}  # by the faces' cache key
        self._last_written: tuple[str, ...] = ()  # of the face composed or found last

    def face(self, card: Card, template: Template) -> Face:
        """The face of `card` drawn with `template`, at its component's size; cards that agree on
        every field the template reads share one face (the same object)."""
        component = self._components[card.component]
        size = component.size
        values = dict(self.deck.meta_fields)
        values.update({"card.number": card.number, "card.total": component.total,
                       "component": card.component})
        values.update(card.fields)
        uses = self._uses.get(template.name)
        if uses is None:
            uses = self._uses[template.name] = sorted(template.uses)
        shape = component.shape
        back = shape.outlined and template is component.back and template is not component.front
        key = (template.name, size, repr([(name, values.get(name)) for name in uses]), shape, back)
        face = self._cache.get(key)
        if face is None:
            context = Context(self, card, template, size.width, size.height)
            if shape.outlined:
                context.safe = outline(shape, size.width, size.height)
            items = context.elements(template.elements, values)
            face = self._cache[key] = self._shaped(Face(size.width, size.height, self.deck.bleed, tuple(items),
                                                        size.radius), shape, back)
            self._written[key] = tuple(context.written)
        self._last_written = self._written[key]
        return face

    def written(self, card: Card, template: Template) -> tuple[str, ...]:
        """What the text elements of `card`'s side drawn with `template` set, as markup (fields
        filled in, translated, smartened), in the order the template draws them: the words a player
        reads on that side, for outputs that list them (a virtual table's card text)."""
        self.face(card, template)
        return self._last_written

    def _shaped(self, face: Face, shape: PieceShape, back: bool) -> Face:
        """A face cut to its piece's `shape`: its items clipped to the outline grown by the bleed,
        so the bleed follows the shape, and the outline kept for imposition. A back is drawn in
        its own coordinates, which turning the piece over mirrors: its outline is mirrored too."""
        if not shape.outlined:
            return face
        cut = outline(shape, face.width, face.height)
        clip = outline(shape, face.width, face.height, grow=face.bleed)
        if back:
            cut, clip = mirrored(cut, face.width), mirrored(clip, face.width)
        return replace(face, items=(Group(face.items, clip_path=clip),) if face.items else (), outline=cut)


def _icon_draws(icons: Mapping[str, Icon], names: Names) -> dict[str, IconDraw]:
    draws: dict[str, IconDraw] = {}
    for p in names.palette.values():
        draws[p.name] = shape_icon(p.name, p.symbol, p.color, outline=True)
    for icon in icons.values():
        if icon.glyph is not None:
            family, style = icon.font  # the layout loader made sure the font has the glyph
            draws[icon.name] = glyph_icon(icon.name, family.file(style), icon.glyph, icon.scale, icon.color,
                                          bold=icon.bold)
        elif icon.symbol is not None:
            draws[icon.name] = shape_icon(icon.name, icon.symbol, icon.color, icon.scale)
        else:
            draws[icon.name] = _image_icon(icon)
    return draws


def _image_icon(icon: Icon) -> IconDraw:
    w, h = picture_size(str(icon.image))
    height = 0.9 * icon.scale
    width = height * w / h

    def draw(x: float, baseline: float, size: float, color: Color) -> list[Item]:
        return [Image(x + 0.08 * size, baseline - (0.36 + height / 2) * size, width * size, height * size,
                      str(icon.image))]

    return IconDraw(icon.name, width + 0.16, draw)


#: kinds whose items depend on nothing but the element, the card's size and what its `{field}`
#: patterns fill in (they neither warn nor translate): drawn once for each such combination
PURE_KINDS = frozenset({"rect", "line", "circle", "ellipse", "polygon", "path", "glyph", "symbol", "staff"})
#: field values a memo may be keyed by: hashable, and told apart by type as well as value (True == 1)
_SCALARS = frozenset({str, int, float, bool, type(None)})
_UNSET = object()


@functools.cache
def _spec(kind: str, key: str) -> Key:
    """The declaration of an element kind's key (KINDS[kind][key], a search through the table)."""
    return KINDS[kind][key]


class _Reading:
    """What one element gives on every card of one size: its literal lengths resolved, and its
    items by the values its patterns fill in (for PURE_KINDS)."""

    __slots__ = ("element", "patterns", "mm", "drawn")

    def __init__(self, element: Element) -> None:
        self.element = element  # held, so that its id names it as long as the reading is kept
        self.patterns = tuple((key, raw) for key, raw in element.values.items() if isinstance(raw, Pattern))
        self.mm: dict[str, float] = {}
        self.drawn: dict[tuple[Any, ...], Any] = {}  # items, or what a drawer keeps (a text's setting)

    def filled(self, values: Mapping[str, Any]) -> tuple[Any, ...] | None:
        """What the element's patterns fill in for these values, with their types, as a memo key;
        None when a value is not a plain scalar (or filling fails: drawing will say why)."""
        key: list[Any] = []
        for _, pattern in self.patterns:
            try:
                value = pattern.fill(values)
            except Exception:  # noqa: BLE001 - the drawer raises it again, in its own words
                return None
            kind = type(value)
            if kind not in _SCALARS:
                return None
            key += (kind, value)
        return tuple(key)


class Context:
    """Composing one card with one template: values, errors that point at the right line."""

    def __init__(self, composer: Composer, card: Card, template: Template, width: float, height: float) -> None:
        self.c = composer
        self.card = card
        self.template = template
        self.w = width
        self.h = height
        self.bleed = composer.deck.bleed
        self.safe: tuple[PathOp, ...] = ()  # a shaped piece's outline: what it sets must keep SAFE_INSET inside
        self.written: list[str] = []  # what each text element set, in drawing order (Composer.written)
        self._readings = composer._readings.setdefault((width, height), {})

    def _reading(self, element: Element) -> _Reading:
        reading = self._readings.get(id(element))
        if reading is None:
            reading = self._readings[id(element)] = _Reading(element)
        return reading

    def remembered(self, element: Element, values: Mapping[str, Any]) -> tuple[dict[tuple[Any, ...], Any],
                                                                             tuple[Any, ...]] | None:
        """Where a drawer may keep what `element` gives on cards of this size that fill its
        patterns in as these values do, and the key: (memo, key); None if they cannot be told apart."""
        reading = self._reading(element)
        key = reading.filled(values)
        return None if key is None else (reading.drawn, key)

    # -- where a value was written -------------------------------------------------------------

    def written_at(self, element: Element, key: str) -> tuple[str, int, str]:
        """Where `element`'s `key` got its value on this card, for a mistake in it: (file, line,
        what to add to the message). A literal is the layout's line; a value made of fields the
        card gives is the card's line; one made only of defaults is the line of the first
        default (a layout's or the component's `fields:`), where it can be mended for every card."""
        raw = element.values[key]
        if not isinstance(raw, Pattern):
            return element.file, element.line_of(key), ""
        read = [name for name in raw.fields if name in self.card.fields]
        if not read or any(name not in self.card.defaults for name in read):
            return self.card.file, self.card.line, ""
        file, line = self.card.defaults[read[0]]
        return file, line, f"the default of field '{read[0]}' "

    def error(self, element: Element, key: str, message: str, hint: str | None = None,
              literal_at_card: bool = False) -> DeckError:
        """A mistake in what `element`'s `key` gives on this card, said where it was written, with
        the card and the template's line. `literal_at_card`: a literal is said at the card too
        (a length that only goes wrong on this card's size)."""
        file, line, default = self.written_at(element, key)
        if literal_at_card and not isinstance(element.values[key], Pattern):
            file, line = self.card.file, self.card.line
        return DeckError(f"{default}{'on ' if default else ''}card {self.card.label}: {message} (template "
                         f"'{self.template.name}', {element.file}:{element.line_of(key)})", file, line, hint)

    # -- values --------------------------------------------------------------------------------

    def value(self, element: Element, key: str, values: Mapping[str, Any]) -> Any:
        raw = element.values[key]
        if not isinstance(raw, Pattern):
            return raw
        filled = raw.fill(values)
        # the same text parses to the same value on every card (colours, lengths, files …)
        memo = (element.kind, key, type(filled), filled) if type(filled) in _SCALARS else None
        if memo is not None:
            parsed = self.c._parsed.get(memo, _UNSET)
            if parsed is not _UNSET:
                return parsed
        kind = KINDS[element.kind]
        try:
            parsed = parse_value(kind, key, filled, self.c.names, self.c.deck.folder, None)
        except ValueError as exc:
            spec = kind.key(key)
            choices = known_names(spec.type, self.c.names, spec.choices) if spec else []
            hint = None
            if isinstance(filled, str) and filled.strip():  # 'bleu 20%' -> suggest for 'bleu'
                hint = suggest(filled, choices) or suggest(filled.split()[0], choices)
            raise self.error(element, key, f"{element.kind} {key} '{raw.text}' gives {exc}", hint) from None
        if memo is not None:
            self.c._parsed[memo] = parsed
        return parsed

    def length(self, element: Element, key: str, values: Mapping[str, Any]) -> float:
        reading = self._reading(element)
        mm = reading.mm.get(key)
        if mm is not None:  # a literal, resolved on this size before
            return mm
        length: Length = self.value(element, key, values)
        spec = _spec(element.kind, key)
        mm = length.resolve(self.w if spec.axis == "x" else self.h, self.bleed)
        if mm < 0 and spec.type == "extent":  # `50% - 40mm` on a card too small for it
            raise self.error(element, key, f"{element.kind} {key} comes to {mm:.1f}mm on its {self.w:g} × "
                                           f"{self.h:g} mm card and cannot be negative", literal_at_card=True)
        if not isinstance(element.values[key], Pattern):
            reading.mm[key] = mm
        return mm

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
            reading = memo = None
            if element.kind in PURE_KINDS:
                reading = self._reading(element)
                memo = reading.filled(values)
                if memo is not None:
                    drawn_before = reading.drawn.get(memo)
                    if drawn_before is not None:
                        items.extend(drawn_before)
                        continue
            drawer = DRAWERS[element.kind]
            drawn = drawer.draw(self, element, values)
            angle = self.value(element, "rotate", values)
            opacity = self.value(element, "opacity", values)
            if drawn and (angle or opacity < 1):
                turn = rotation(angle, *drawer.centre(self, element, values)) if angle else IDENTITY
                drawn = [Group(tuple(drawn), turn, opacity=opacity)]
            if reading is not None and memo is not None:
                reading.drawn[memo] = tuple(drawn)
            if self.safe and element.kind in SHAPE_CHECKED:
                self._check_shape(element, drawn)
            items.extend(drawn)
        return items

    def _check_shape(self, element: Element, drawn: Sequence[Item]) -> None:
        """Warn of what `element` sets outside its shaped piece's safe area: the piece's outline
        inset by SAFE_INSET. Text is measured by its glyphs (a wide box with a short word in its
        middle is not outside a round token); a picture that covers the whole piece is its ground,
        meant to be cut to the shape."""
        box = _ink_box(drawn) if element.kind in ("text", "glyph", "symbol") else _item_box(drawn)
        if box is None:
            return
        if element.kind == "image" and box[0] <= 0.01 and box[1] <= 0.01 and box[2] >= self.w - 0.01 \
                and box[3] >= self.h - 0.01:
            return
        if not within_safe_area(box, self.safe, SAFE_INSET):
            component = self.c._components[self.card.component]
            self.c.warn(f"{element.kind} of template '{self.template.name}' reaches outside the safe area of "
                        f"component '{component.name}''s {component.shape.kind} shape (its outline less "
                        f"{SAFE_INSET:g} mm) on card {self.card.label}: it may be cut off",
                        element.file, element.line, kind="outside-shape",
                        once=(element.file, element.line, component.name))


#: the kinds of element whose box `check` holds inside a shaped piece's safe area
SHAPE_CHECKED = ("text", "glyph", "symbol", "image", "staff")


def _item_box(items: Sequence[Item]) -> tuple[float, float, float, float] | None:
    """The box drawn items cover (face mm), or None for none."""
    boxes = [bounds(item) for item in items]
    if not boxes:
        return None
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _ink_box(items: Sequence[Item]) -> tuple[float, float, float, float] | None:
    """The box drawn text covers (face mm): each run from its start to its last glyph's advance,
    from its font's ascent to its descent, through any groups; other items by their bounds."""
    corners: list[tuple[float, float]] = []

    def walk(found: Sequence[Item], matrix: tuple[float, ...]) -> None:
        for item in found:
            if isinstance(item, Group):
                walk(item.items, multiply(matrix, item.transform))  # type: ignore[arg-type]
            elif isinstance(item, Text):
                if not item.text.strip():
                    continue
                font = open_font(item.font)
                runs = item.glyph_runs
                reach = max((start + x + font.glyph_advance(gid) for start, glyphs in runs for gid, x, _, _ in
                             glyphs[-1:]), default=len(item.text) * 0.6)
                corners.extend(apply(matrix, x, y)  # type: ignore[arg-type]
                               for x in (item.x, item.x + reach * item.size)
                               for y in (item.y - font.ascent * item.size, item.y + font.descent * item.size))
            else:
                x0, y0, x1, y1 = bounds(item)
                corners.extend(apply(matrix, x, y) for x in (x0, x1) for y in (y0, y1))  # type: ignore[arg-type]

    walk(items, IDENTITY)
    if not corners:
        return None
    return (min(c[0] for c in corners), min(c[1] for c in corners),
            max(c[0] for c in corners), max(c[1] for c in corners))
