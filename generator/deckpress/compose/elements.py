"""How each element kind is drawn: one drawer per kind declared in `model/elements.py`.

The model layer declares the kinds (keys, types, defaults, docs) and may not import compose, so
the drawing sits here, in a module of the same name, one drawer per kind in the order the kinds
are declared. `@draws("rect")` registers a drawer (and how the kind finds its centre, for
`rotate`); at import, `check_drawers` compares the registry with the declared kinds and refuses a
kind without a drawer, a drawer without a kind, or drawers out of the declarations' order.
"""

from __future__ import annotations

import functools
import math
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..colors import BLACK, CMYK, RGB
from ..errors import display_path, suggest
from ..face import (NO_EDITS, ArtEdits, Ellipse, Group, Image, Item, Line, Paint, Path as PathItem, Rect, Text,
                    grown_into_bleed, translation)
from ..text.fonts import BUNDLED_FAMILIES, FontSet
from ..imagefile import Resolution, image_size
from ..model import Element
from ..model.deck import NAME_FIELDS
from ..model.elements import KINDS
from ..model.values import PaletteColor, Pattern, as_text, literal_text, pattern_of
from ..shapes import shape
from ..units import PT
from ..vectorart import Art, is_pdf, is_vector, load_art
from ..text import MarkupError, Shaping, TextStyle, is_title, set_text, smarten
from .staff import staff_items

if TYPE_CHECKING:
    from .composer import Context

Values = Mapping[str, Any]
Draw = Callable[["Context", Element, Values], list[Item]]
Centre = Callable[["Context", Element, Values], tuple[float, float]]


@dataclass(frozen=True)
class Drawer:
    kind: str
    draw: Draw  # the element -> face items, before `rotate`
    centre: Centre  # the point `rotate` turns it about


DRAWERS: dict[str, Drawer] = {}


def check_drawers(drawers: Mapping[str, object], kinds: Iterable[str]) -> None:
    """Every declared kind has exactly one drawer, and drawers follow the declarations' order;
    raises RuntimeError naming what is amiss."""
    kinds = list(kinds)
    missing = [k for k in kinds if k not in drawers]
    extra = [k for k in drawers if k not in kinds]
    problems = []
    if missing:
        problems.append(f"element kinds without a drawer: {', '.join(missing)}")
    if extra:
        problems.append(f"drawers for kinds model/elements.py does not declare: {', '.join(extra)}")
    if not problems and list(drawers) != kinds:
        problems.append(f"drawers in the order {', '.join(drawers)}; declared: {', '.join(kinds)}")
    if problems:
        raise RuntimeError("compose/elements.py: " + "; ".join(problems))


def card_centre(ctx: Context, e: Element, values: Values) -> tuple[float, float]:
    return (ctx.w / 2, ctx.h / 2)


def box_centre(ctx: Context, e: Element, values: Values) -> tuple[float, float]:
    L = lambda k: ctx.length(e, k, values)  # noqa: E731
    return (L("x") + L("w") / 2, L("y") + L("h") / 2)


def point_centre(ctx: Context, e: Element, values: Values) -> tuple[float, float]:
    return (ctx.length(e, "x", values), ctx.length(e, "y", values))


def draws(kind: str, centre: Centre = card_centre) -> Callable[[Draw], Draw]:
    """Register the decorated function as the drawer of `kind`."""
    def register(draw: Draw) -> Draw:
        if kind in DRAWERS:
            raise RuntimeError(f"compose/elements.py: two drawers for element kind '{kind}'")
        DRAWERS[kind] = Drawer(kind, draw, centre)
        return draw
    return register


# -- the kinds, in the order model/elements.py declares them --------------------------------------

@draws("rect", centre=box_centre)
def rect(ctx: Context, e: Element, values: Values) -> list[Item]:
    L = lambda k: ctx.length(e, k, values)  # noqa: E731
    return [Rect(L("x"), L("y"), L("w"), L("h"), ctx.value(e, "radius", values), ctx.paint(e, values))]


def _line_centre(ctx: Context, e: Element, values: Values) -> tuple[float, float]:
    L = lambda k: ctx.length(e, k, values)  # noqa: E731
    return ((L("x1") + L("x2")) / 2, (L("y1") + L("y2")) / 2)


@draws("line", centre=_line_centre)
def line(ctx: Context, e: Element, values: Values) -> list[Item]:
    L = lambda k: ctx.length(e, k, values)  # noqa: E731
    return [Line(L("x1"), L("y1"), L("x2"), L("y2"), ctx.paint(e, values), ctx.value(e, "cap", values))]


@draws("circle", centre=point_centre)
def circle(ctx: Context, e: Element, values: Values) -> list[Item]:
    r = ctx.length(e, "r", values)
    return [Ellipse(ctx.length(e, "x", values), ctx.length(e, "y", values), r, r, ctx.paint(e, values))]


@draws("ellipse", centre=point_centre)
def ellipse(ctx: Context, e: Element, values: Values) -> list[Item]:
    L = lambda k: ctx.length(e, k, values)  # noqa: E731
    return [Ellipse(L("x"), L("y"), L("rx"), L("ry"), ctx.paint(e, values))]


def _points(ctx: Context, e: Element, values: Values) -> list[tuple[float, float]]:
    return [(x.resolve(ctx.w, ctx.bleed), y.resolve(ctx.h, ctx.bleed)) for x, y in ctx.value(e, "points", values)]


def _polygon_centre(ctx: Context, e: Element, values: Values) -> tuple[float, float]:
    pts = _points(ctx, e, values)
    return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))


@draws("polygon", centre=_polygon_centre)
def polygon(ctx: Context, e: Element, values: Values) -> list[Item]:
    pts = _points(ctx, e, values)
    ops = (("M", pts[0]),) + tuple(("L", p) for p in pts[1:]) + (("Z", ()),)
    return [PathItem(ops, ctx.paint(e, values))]


@draws("path", centre=point_centre)
def path(ctx: Context, e: Element, values: Values) -> list[Item]:
    x, y = ctx.length(e, "x", values), ctx.length(e, "y", values)
    k = ctx.value(e, "scale", values)
    ops = tuple((op, tuple(v * k + (x if i % 2 == 0 else y) for i, v in enumerate(pts)))
                for op, pts in ctx.value(e, "d", values))
    return [PathItem(ops, ctx.paint(e, values))]


def _translated(ctx: Context, e: Element, values: Values) -> str:
    """A text element's text, in the language the deck is printed in: the layout's text is
    translated before the fields go in, and so is every text field that goes in."""
    translate = ctx.c.deck.translate
    if translate is None:
        return ctx.value(e, "text", values)
    raw = e.values["text"]
    if not isinstance(raw, Pattern):
        return translate(raw, (e.file, e.line_of("text")))
    here = (ctx.card.file, ctx.card.line)

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


@dataclass(frozen=True)
class _Setting:
    """A text element as set for a card: its items, and what its warnings say."""

    items: tuple[Item, ...]
    fits: bool
    missing: frozenset[str]
    slips: tuple[str, ...]  # markup slips, as what the text has (`Fitted.slips`)
    size: float
    min_size: float
    shrink: bool
    fitted: float  # the size it is set at
    written: str = ""  # the markup it set, fields filled in, translated and smartened: what the card says


@draws("text", centre=box_centre)
def text(ctx: Context, e: Element, values: Values) -> list[Item]:
    # cards that fill the element's patterns in alike (most texts are the same on every card) get
    # the same setting; each still says its own warnings, and is translated (which records what is
    # missing where)
    memo = ctx.remembered(e, values)
    setting = memo[0].get(memo[1]) if memo is not None else None
    if setting is None or ctx.c.deck.translate is not None:
        written = _translated(ctx, e, values)
    if setting is None:
        setting = _set(ctx, e, values, str(written))
        if memo is not None:
            memo[0][memo[1]] = setting
    if setting.missing:
        chars = ", ".join(f"'{c}' (U+{ord(c):04X})" for c in sorted(setting.missing))
        scripts = sorted({script_of(c) for c in setting.missing} - {""})
        which = f" for {' and '.join(scripts)} text" if scripts else ""
        ctx.c.warn(f"card {ctx.card.label}: no font has {chars}; it would print as an empty box: name a "
                   f"font{which} in the deck's `fonts:` (template '{ctx.template.name}', "
                   f"{e.file}:{e.line_of('text')})", ctx.card.file, ctx.card.line, kind="missing-glyph")
    for slip in setting.slips:  # said once where the text was written (layout, card or default) and slip
        file, line, default = ctx.written_at(e, "text")
        ctx.c.warn(f"{default}{'on ' if default else ''}card {ctx.card.label}: text of template "
                   f"'{ctx.template.name}' ({e.file}:{e.line_of('text')}) has {slip}", file, line, kind="markup",
                   once=(file, line, slip))
    if not setting.fits:
        at = f"even at {setting.min_size / PT:g}pt" if setting.shrink else f"at {setting.size / PT:g}pt"
        ctx.c.warn(f"card {ctx.card.label}: text of template '{ctx.template.name}' "
                   f"({e.file}:{e.line_of('text')}) does not fit its box {at}",
                   ctx.card.file, ctx.card.line, kind="text-overflow")
    smallest = ctx.c.deck.min_size
    if setting.fitted < smallest - 1e-9:  # said once an element, at its line: there it is made larger
        ctx.c.warn(f"text of template '{ctx.template.name}' is set at {round(setting.fitted / PT, 2):g}pt "
                   f"(card {ctx.card.label}), below the deck's min-size of {smallest / PT:g}pt: give it a "
                   f"larger box or fewer words", e.file, e.line, kind="small-text", once=(e.file, e.line))
    if setting.items:
        ctx.written.append(setting.written)  # the card's words, for outputs that list them (Composer.written)
    return list(setting.items)


def script_of(char: str) -> str:
    """The script a character belongs to, as its Unicode name begins (`Hebrew`, `Arabic`,
    `Devanagari`, `Cjk`); "" for one without a name."""
    name = unicodedata.name(char, "")
    return name.split(" ", 1)[0].capitalize() if name else ""


def _set(ctx: Context, e: Element, values: Values, written: str) -> _Setting:
    L = lambda k: ctx.length(e, k, values)  # noqa: E731
    get = lambda k: ctx.value(e, k, values)  # noqa: E731
    family, style = get("font")
    size, min_size = get("size"), get("min-size")
    lang = get("lang") or ctx.c.deck.lang
    if get("smart"):
        written = smarten(written, lang)  # after the fields and the translation are in
    hyphenate = get("hyphenate")
    if hyphenate == "auto":
        hyphenate = not is_title(L("h"), size, get("line-height"), get("wrap"))
    try:
        look = TextStyle(family, style, size, min_size, get("color") or BLACK, get("align"), get("valign"),
                         get("line-height"), get("fit") == "shrink", get("wrap"), get("ink"),
                         lang if hyphenate else None, Shaping(lang, get("features") or ()), get("direction"))
        fitted = set_text(written, (L("x"), L("y"), L("w"), L("h")), look, ctx.c.names.fonts, ctx.c.icons,
                          ctx.c.color_names)
    except MarkupError as exc:
        message, name, known = exc.args
        raise ctx.error(e, "text", f"{message} in text", suggest(name, known)) from None
    # a text of several lines or runs is one group: the one object on every card that sets the
    # same text in the same box, which a backend can draw once and place wherever it recurs
    items = tuple(fitted.items)
    return _Setting((Group(items),) if len(items) > 1 else items, fitted.fits, frozenset(fitted.missing),
                    fitted.slips, size, min_size, get("fit") == "shrink", fitted.size, written)


@draws("glyph", centre=point_centre)
def glyph(ctx: Context, e: Element, values: Values) -> list[Item]:
    char: str = ctx.value(e, "char", values)
    family, style = ctx.value(e, "font", values)
    font = family.file(style)
    if not font.has(char):
        raise ctx.error(e, "char", f"font '{family.name}' has no character U+{ord(char):04X}")
    size = ctx.value(e, "size", values)
    x, y = ctx.length(e, "x", values), ctx.length(e, "y", values)
    x0, y0, x1, y1 = font.bounds(char)
    anchor = ctx.value(e, "anchor", values)
    ax = {"left": x0, "right": x1}.get(anchor, (x0 + x1) / 2)
    ay = {"top": y1, "bottom": y0, "baseline": 0.0}.get(anchor, (y0 + y1) / 2)
    color = ctx.value(e, "color", values) or BLACK
    return [Text(x - ax * size, y + ay * size, char, font.path, size, color, ctx.value(e, "ink", values),
                 ctx.value(e, "bold", values) * size)]


@draws("image", centre=box_centre)
def image(ctx: Context, e: Element, values: Values) -> list[Item]:
    L = lambda k: ctx.length(e, k, values)  # noqa: E731
    src: Path = ctx.value(e, "src", values)
    x, y, w, h = L("x"), L("y"), L("w"), L("h")
    vector = is_vector(src)
    fonts = art_fonts(ctx.c.names.fonts) if vector else ()
    page = int(ctx.value(e, "page", values))
    try:
        edits = _art_edits(ctx, e, values, src) if vector else _raster_edits(ctx, e, values)
        art = load_art(str(src), fonts, page, edits=edits) if vector else None
        iw, ih = art.size if art is not None else image_size(str(src))
    except ValueError as exc:
        raise ctx.error(e, "src", str(exc)) from None
    fit = ctx.value(e, "fit", values)
    ink = ctx.value(e, "ink", values)
    if fit == "stretch":
        box = (x, y, w, h)
    else:
        k = (min if fit == "contain" else max)(w / iw, h / ih)
        dw, dh = iw * k, ih * k
        box = (x + (w - dw) / 2, y + (h - dh) / 2, dw, dh)
    picture = Image(*box, str(src), ink=ink, fonts=fonts, page=page, edits=edits)
    _warn_if_soft(ctx, e, src, art, (iw, ih), (picture.w, picture.h))
    if art is not None:
        where = _placed_at(ctx, e)
        for warning in art.warnings:
            ctx.c.warn(f"{_shown(src, ctx.c.deck.folder)} {warning}", *where, kind="art", once=(str(src), warning))
    clip = (x, y, w, h) if fit == "cover" else None
    made = ctx.value(e, "bleed", values)
    if made == "none":
        return [picture] if clip is None else [Group((picture,), clip=clip)]
    return list(_made_bleed(ctx, e, values, picture, made, None if vector else (iw, ih), clip))


def _made_bleed(ctx: Context, e: Element, values: Values, picture: Image, mode: str,
                pixels: tuple[float, float] | None, clip: tuple[float, float, float, float] | None
                ) -> tuple[Item, ...]:
    """The picture (a raster of `pixels`, or vector art) grown into the bleed where it reaches the
    trim (`face.grown_into_bleed`); as it is, with a warning, where it reaches no edge of the trim
    or is turned other than half round (a half turn about its box's centre leaves its box where it
    was, and its copies where they fill the bleed)."""
    angle = ctx.value(e, "rotate", values)
    if angle % 180 == 0:
        trim = (0.0, 0.0, ctx.w, ctx.h)
        if angle % 360:  # where the trim lies as the picture sees it before it is turned
            cx, cy = box_centre(ctx, e, values)
            trim = (2 * cx - ctx.w, 2 * cy - ctx.h, 2 * cx, 2 * cy)
        items, reaches = grown_into_bleed(picture, trim, ctx.bleed, mode, clip,
                                          None if pixels is None else (round(pixels[0]), round(pixels[1])))
    else:
        items, reaches = ((picture,) if clip is None else (Group((picture,), clip=clip),)), False
    if not reaches:
        why = f"is turned {angle:g}°" if angle % 180 else "reaches no edge of the trim"
        where = ctx.written_at(e, "bleed")[:2]
        ctx.c.warn(f"card {ctx.card.label}: {_shown(Path(picture.source), ctx.c.deck.folder)} {why}, so "
                   f"`bleed: {mode}` makes no bleed (template '{ctx.template.name}')", *where,
                   kind="made-bleed", once=(e.file, e.line, why))
    return items


def _raster_edits(ctx: Context, e: Element, values: Values) -> ArtEdits:
    """What the card changes in a raster picture: its tint, if any."""
    tint = ctx.value(e, "tint", values)
    return NO_EDITS if tint is None else ArtEdits(tint=_hex(tint))


def _art_edits(ctx: Context, e: Element, values: Values, src: Path) -> ArtEdits:
    """What the card changes in vector art: its fields in an SVG's text, layers shown and hidden, a tint."""
    tint = ctx.value(e, "tint", values)
    show, hide = ctx.value(e, "show", values), ctx.value(e, "hide", values)
    fields: tuple[tuple[str, str], ...] = ()
    if ctx.value(e, "fields", values) and not is_pdf(src):
        from ..svgfile import placeholders  # the SVG reader only for a deck with SVG art
        names = placeholders(str(src))
        missing = [name for name in names if name not in values]
        if missing:
            ctx.c.warn(f"{_shown(src, ctx.c.deck.folder)} names {{{missing[0]}}}, which is no field of the card: "
                       "left as it is", *_placed_at(ctx, e), kind="art", once=(str(src), missing[0]))
        fields = tuple((name, as_text(values[name])) for name in names if name in values)
    if (tint is not None or show or hide) and is_pdf(src):
        ctx.c.warn(f"{_shown(src, ctx.c.deck.folder)} is a PDF: tint, show and hide change SVG art only",
                   *_placed_at(ctx, e), kind="art", once=(str(src), "pdf-edits"))
        return NO_EDITS
    return ArtEdits(fields, tuple(show), tuple(hide), None if tint is None else _hex(tint))


def _hex(color: Any) -> str:
    """A colour as SVG writes it (CMYK by the naive formula, as the SVG backend does)."""
    if isinstance(color, CMYK):
        return RGB(*((1 - v) * (1 - color.k) for v in (color.c, color.m, color.y))).hex
    return color.hex


def art_fonts(fonts: FontSet) -> tuple[str, ...]:
    """The font files SVG art's text is set in: the deck's own families first, then the bundled
    sans serif (what text naming no family, or a family nobody has, is set in), then the rest."""
    return _art_fonts(fonts)


@functools.lru_cache(maxsize=16)
def _art_fonts(fonts: FontSet) -> tuple[str, ...]:
    own = [name for name in fonts.families if name not in BUNDLED_FAMILIES]
    order = own + ["sans"] + [name for name in BUNDLED_FAMILIES if name != "sans"]
    files = [path for name in order for path in fonts.families[name].files.values()]
    return tuple(dict.fromkeys(files))


def _placed_at(ctx: Context, e: Element) -> tuple[Any, int]:
    """Where a picture was named: the layout's line, the card's, or that of the default that names it."""
    return ctx.written_at(e, "src")[:2]


def _warn_if_soft(ctx: Context, e: Element, src: Path, art: Art | None, size: tuple[float, float],
                  printed: tuple[float, float]) -> None:
    """Warn of a picture printed below SHARP_DPI at `printed` mm (a raster, or each raster inside
    vector art of `size` units), once per picture and resolution, at the line that placed it: the
    card's when a field names the picture, else the layout's."""
    if art is not None:
        scale = (printed[0] / size[0], printed[1] / size[1])
        found = [(name or "a picture", (str(src), index),
                  Resolution(pixels, (math.hypot(across[0] * scale[0], across[1] * scale[1]),
                                      math.hypot(down[0] * scale[0], down[1] * scale[1]))))
                 for index, (name, pixels, across, down) in enumerate(art.pictures)]
    else:
        found = [(None, str(src), Resolution((round(size[0]), round(size[1])), printed))]
    for part, picture, resolution in found:
        if resolution.sharp:
            continue
        shown = _shown(src, ctx.c.deck.folder)
        ctx.c.warn(f"{f'{part} inside ' if part else ''}{shown} is {resolution}", *_placed_at(ctx, e),
                   kind="low-resolution", once=(picture, resolution.dpi))


def _shown(path: Path, folder: Path) -> str:
    """A picture as the deck names it: relative to the deck folder (art/fruit.png), else as displayed."""
    try:
        return Path(path).resolve().relative_to(folder.resolve()).as_posix()
    except ValueError:
        return display_path(path)


@draws("symbol", centre=point_centre)
def symbol(ctx: Context, e: Element, values: Values) -> list[Item]:
    palette: PaletteColor = ctx.value(e, "of", values)
    paint = ctx.paint(e, values, fill_key="color")
    paint = Paint(fill=paint.fill or palette.color, stroke=paint.stroke, stroke_width=paint.stroke_width,
                  ink=paint.ink)
    return [shape(palette.symbol, ctx.length(e, "x", values), ctx.length(e, "y", values),
                  ctx.value(e, "size", values), paint)]


def _staff_centre(ctx: Context, e: Element, values: Values) -> tuple[float, float]:
    L = lambda k: ctx.length(e, k, values)  # noqa: E731
    return (L("x") + L("w") / 2, L("y") + 2 * ctx.value(e, "space", values))


@draws("staff", centre=_staff_centre)
def staff(ctx: Context, e: Element, values: Values) -> list[Item]:
    get = lambda k: ctx.value(e, k, values)  # noqa: E731
    font = ctx.c.names.fonts.split("music")[0].file("regular")
    return staff_items(ctx.length(e, "x", values), ctx.length(e, "y", values), ctx.length(e, "w", values),
                       get("space"), get("clef"), get("notes"), get("note"), get("color") or BLACK,
                       get("stroke-width"), font, get("ink"))


def _with_ink(item: Item, ink: str) -> Item:
    """A group's ink hint, passed to everything inside it that has none of its own."""
    if isinstance(item, Group):
        return replace(item, items=tuple(_with_ink(i, ink) for i in item.items))
    if isinstance(item, (Text, Image)):
        return replace(item, ink=ink) if item.ink == "auto" else item
    return replace(item, paint=replace(item.paint, ink=ink)) if item.paint.ink == "auto" else item


@draws("group")  # turns about the card's centre
def group(ctx: Context, e: Element, values: Values) -> list[Item]:
    drawn = _group_items(ctx, e, values)
    ink = ctx.value(e, "ink", values)
    return drawn if ink == "auto" else [_with_ink(item, ink) for item in drawn]


def _group_items(ctx: Context, e: Element, values: Values) -> list[Item]:
    each = e.values.get("each")
    if not each:
        return ctx.elements(e.children, values)
    items = values[each]
    if isinstance(items, Mapping):
        rounds = [{"key": k, "value": v, "item": k} for k, v in items.items()]
    elif isinstance(items, (list, tuple)):
        rounds = [{"item": v, "key": v, "value": v} for v in items]
    else:
        rounds = [{"item": items, "key": items, "value": items}]
    dx, dy = ctx.length(e, "step-x", values), ctx.length(e, "step-y", values)
    shift = (len(rounds) - 1) / 2 if ctx.value(e, "center", values) else 0.0
    drawn: list[Item] = []
    for index, extra in enumerate(rounds):
        inner = dict(values)
        inner.update(extra)
        inner["index"] = index + 1
        children = ctx.elements(e.children, inner)
        if children:
            drawn.append(Group(tuple(children), translation((index - shift) * dx, (index - shift) * dy)))
    return drawn


check_drawers(DRAWERS, KINDS)
