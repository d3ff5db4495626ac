"""Setting text in a box: markup read (`markup`), fitted (`fitting`) and drawn as face items,
runs of shaped glyphs at exact positions, so every backend draws exactly what was measured.

Setting is cached at three grains, each bounded and keyed by everything its result depends on
(frozen values: text, fonts, icons, box, style…): a whole text box (identical boxes recur on every
card of a template), the parse of a text, and the measured runs of a word (`runs`, `markup`).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TypeVar

from ..colors import BLACK, Color
from ..face import Glyph, GlyphRun, Item, Text
from .fonts import Family, FontFile, FontSet, from_fonts
from .shaping import base_level, bidi_levels, right_to_left, visual_order
from . import lines as lines_module, markup, runs as runs_module
from .fitting import ASCENT, block_height, fit_lines, is_title, line_width, taller
from .hyphenate import SHY
from .markup import MarkupError, UnknownIcon, icon_names, parse, plain
from ..units import PT
from .runs import PLAIN, HardLine, IconDraw, Look, Piece, Run, SetLine, Shaping, Word, shaped_part

SET_CACHE = 4096  # text boxes kept set (a card's worth of items each)
PARSE_CACHE = 4096  # texts kept parsed


@dataclass(frozen=True)
class TextStyle:
    """How a text is set, besides its words and box: one frozen value, the same for every card a
    template sets alike (so it keys the cache of set boxes)."""

    family: Family
    style: str = "regular"  # regular, bold, italic or bolditalic
    size: float = 9 * PT  # the largest size (mm)
    min_size: float = 5 * PT  # the smallest it may shrink to (mm)
    color: Color = BLACK
    align: str = "left"  # left, center or right
    valign: str = "top"  # top, middle or bottom
    line_height: float = 1.2  # baseline to baseline, in sizes
    shrink: bool = True  # shrink to fit the box; else set at `size`, fitting or not
    wrap: bool = True  # break lines to the box's width
    ink: str = "auto"  # the items' ink (low-ink's rule for text)
    hyphenate: str | None = None  # the language whose dictionary may break words (None: no dictionary)
    shaping: Shaping = PLAIN  # language and OpenType features runs are shaped with
    direction: str = "auto"  # the paragraph's direction: ltr, rtl or auto (from its first letter)


@dataclass
class Fitted:
    items: list[Item]
    size: float
    fits: bool
    missing: set[str]  # characters no font has: they would print as empty boxes
    slips: tuple[str, ...] = ()  # markup that prints other than meant (`markup.slips`), as what the text has


def set_text(text: str, box: tuple[float, float, float, float], style: TextStyle, fonts: FontSet,
             icons: Mapping[str, IconDraw] | None = None, colors: Mapping[str, Color] | None = None) -> Fitted:
    """Set `text` in the box (x, y, w, h) as `style` says, shrinking from its size towards its
    smallest until it fits, hyphenating as a last resort. `icons` are what `:name:` may name; a
    span's `color` may name one of `colors` (the deck's palette and colour words)."""
    # the cache key holds only the icons the text may name, so texts without icons are shared
    # between decks, and a deck's other icons do not matter; likewise colour names only for a
    # text with spans
    icons = icons or {}
    named = tuple((name, icons.get(name)) for name in sorted(set(icon_names(text))))
    color_names = tuple(sorted((colors or {}).items(), key=_name)) if "]{" in text else ()
    style, fonts = _one_of(style), _one_of(fonts)
    try:
        items, chosen_size, fits, missing = _set_text(text, tuple(box), style, fonts, named, color_names)
    except UnknownIcon as exc:  # suggest from every icon, not just the ones the text names
        message, name, _named = exc.args
        raise MarkupError(message, name, sorted(icons)) from None
    # the caller's own copies; and the slips in its markup, said by the caller
    return Fitted(list(items), chosen_size, fits, set(missing), markup.slips(text, icons))


def _name(item: tuple[str, Color]) -> str:
    return item[0]


_Shared = TypeVar("_Shared", TextStyle, Family, FontSet)
_ONE_OF: dict[object, object] = {}  # one of each: a build has a few hundred


def _one_of(value: _Shared) -> _Shared:
    """The first of the equal styles (or families, or font sets) met, a style's family the first
    of its kind too: each deck loads its own fonts, equal to the next deck's, and the caches below
    find a key made of the very same objects without comparing their fonts one by one (which
    every look-up of a word did)."""
    shared = _ONE_OF.get(value)
    if shared is None:
        if len(_ONE_OF) > ONE_OF_LIMIT:
            _ONE_OF.clear()
        shared = replace(value, family=_one_of(value.family)) if isinstance(value, TextStyle) else value
        _ONE_OF[value] = shared
    return shared  # type: ignore[return-value]


ONE_OF_LIMIT = 65536  # styles and font sets kept to be shared (a long-running preview meets new ones)


def cache_clear() -> None:
    """Forget every box set, text parsed and word measured (to compare them with fresh ones)."""
    _set_text.cache_clear()
    _parse.cache_clear()
    for module in (markup, lines_module, runs_module):
        module.cache_clear()


@from_fonts
@functools.lru_cache(maxsize=SET_CACHE)
def _set_text(text: str, box: tuple[float, ...], style: TextStyle, fonts: FontSet,
              named: tuple[tuple[str, IconDraw | None], ...],
              colors: tuple[tuple[str, Color], ...] = ()) -> tuple[tuple[Item, ...], float, bool, frozenset[str]]:
    x, y, w, h = box
    s = style
    lines, missing = _parse(text, s.family, s.style, fonts, named, colors, s.size if "]{" in text else 0.0, s.shaping)
    set_lines, chosen_size, fits = fit_lines(lines, w, h, s.size, min(s.size, s.min_size), s.line_height, s.shrink,
                                             s.wrap, s.hyphenate,
                                             s.align == "center" or is_title(h, s.size, s.line_height, s.wrap))
    # the paragraph's level (1: its lines run right to left); and its words are put in visual
    # order only where there is something to turn round (text without right-to-left letters,
    # nearly all, is left to right unless asked otherwise)
    rtl = right_to_left(text)
    paragraph = base_level(plain(text, {}) if rtl else "", s.direction)
    order = paragraph if paragraph or rtl else None
    return (tuple(_draw(set_lines, x, y, w, h, chosen_size, s.color, s.align, s.valign, s.line_height, s.ink,
                        order)), chosen_size, fits, missing)


@from_fonts
@functools.lru_cache(maxsize=PARSE_CACHE)
def _parse(text: str, family: Family, style: str, fonts: FontSet,
           named: tuple[tuple[str, IconDraw | None], ...], colors: tuple[tuple[str, Color], ...] = (),
           size: float = 0.0, shaping: Shaping = PLAIN) -> tuple[tuple[HardLine, ...], frozenset[str]]:
    missing: set[str] = set()
    lines = parse(text, family, style, fonts, {name: icon for name, icon in named if icon}, missing,
                  dict(colors), size, shaping)
    return tuple(lines), frozenset(missing)


def _placed(pieces: list[Run]) -> list[GlyphRun]:
    """The glyphs of runs set one after another: each run's, where it starts (em from the first's)."""
    placed: list[GlyphRun] = []
    start = 0.0
    for run in pieces:  # in em of the runs' own size: a span's width is in the element's
        placed.append((start, run.glyphs))
        start += run.width / run.look.scale if run.look else run.width
    return placed


def _draw(lines: list[SetLine], x: float, y: float, w: float, h: float, size: float, color: Color,
          align: str, valign: str, line_height: float, ink: str, order: int | None = None) -> list[Item]:
    """The set lines as face items. With `order` (the paragraph's level: 0 left to right, 1 right
    to left), each line's pieces are put in visual order first (`visual_pieces`)."""
    total = block_height(lines, line_height) * size
    top = y + {"top": 0.0, "middle": (h - total) / 2, "bottom": h - total}[valign]
    baseline = top + ASCENT * size * (lines[0].scale if lines else 1.0)
    items: list[Item] = []
    above: SetLine | None = None
    for line in lines:
        if above is not None:
            baseline += (1 + line.gap_before) * line_height * size
            if above.scale != 1.0 or line.scale != 1.0:
                baseline += taller(above, line, line_height) * size
        above = line
        width = line_width(line) * size
        left = x + {"left": 0.0, "center": (w - width) / 2, "right": w - width}[align]
        if order == 1:  # right to left: a bullet, and the indent of its item's lines, on the right
            if line.bullet:
                _emit(items, line.bullet.pieces, left + width - line.bullet.width * size, baseline, size, color, ink)
            cursor = left
        else:
            if line.bullet:
                _emit(items, line.bullet.pieces, left, baseline, size, color, ink)
            cursor = left + line.indent * size
        if order is not None:
            _emit(items, visual_pieces(line.words, order), cursor, baseline, size, color, ink)
            continue
        words = line.words
        spaces = [w.space_after for w in words[:-1]]
        font = words[0].font if words else None
        if font is not None and all(word.font is font for word in words):
            # one font throughout (most lines): the one text item _emit would make, without its
            # walk (and no space after the last word to leave out)
            runs = [run for i, word in enumerate(words) for run in
                    (*word.pieces, *((spaces[i],) if i < len(spaces) and spaces[i] else ()))]
            text = "".join([run.text for run in runs])
            if SHY in text:  # soft hyphens where the line did not break: not drawn
                text = text.replace(SHY, "")
            if text.strip():
                items.append(Text(cursor, baseline, text.rstrip(" "), font.path, size, color, ink,
                                  glyph_runs=tuple(_placed(runs))))
            continue
        pieces: list[Piece] = []
        for i, word in enumerate(words):
            pieces.extend(word.pieces)
            if i < len(spaces) and spaces[i]:
                pieces.append(spaces[i])  # type: ignore[arg-type]
        _emit(items, pieces, cursor, baseline, size, color, ink)
    return items


def visual_pieces(words: tuple[Word, ...], paragraph: int) -> list[Piece]:
    """A line's pieces (runs, icons, the spaces between words) as they are seen, left to right:
    the bidirectional algorithm run over the whole line (the paragraph's level given), each run
    cut where its characters' levels change and each part shaped in its own direction (so a
    bracket takes the direction of what it encloses and is mirrored where that is right to left),
    and the stretches at a level or above turned round (`shaping.visual_order`). An icon is an
    object, neutral, as U+FFFC is."""
    pieces: list[Piece] = []
    for i, word in enumerate(words):
        pieces.extend(word.pieces)
        if i < len(words) - 1 and word.space_after:
            pieces.append(word.space_after)
    text = "".join([piece.text if isinstance(piece, Run) else OBJECT for piece in pieces])
    levels = bidi_levels(text, "rtl" if paragraph else "ltr")
    seen: list[Piece] = []
    seen_levels: list[int] = []
    at = 0
    for piece in pieces:
        if not isinstance(piece, Run):
            seen.append(piece)
            seen_levels.append(levels[at])
            at += 1
            continue
        own = levels[at:at + len(piece.text)]
        at += len(piece.text)
        if not own:
            continue
        if own[0] % 2 == 0 and len(set(own)) == 1 and not right_to_left(piece.text):
            seen.append(piece)  # left to right as it was shaped (most runs)
            seen_levels.append(own[0])
            continue
        start = 0
        for level, same in itertools.groupby(own):
            end = start + sum(1 for _ in same)
            seen.append(shaped_part(piece, start, end, level % 2 == 1))
            seen_levels.append(level)
            start = end
    return [seen[i] for i in visual_order(seen_levels)]


OBJECT = "\ufffc"  # an icon, to the bidirectional algorithm


def _emit(items: list[Item], pieces: list[Piece], x: float, baseline: float, size: float,
          color: Color, ink: str) -> None:
    """Draw pieces left to right, merging neighbouring runs of one font and look into one text
    item; every piece on the one baseline, a span's at its size and in its colour."""
    pending: list[Run] = []  # the runs being merged, all in pending_font and pending_look
    pending_font: FontFile | None = None
    pending_look: Look | None = None
    pending_x = cursor = x
    for piece in pieces:
        if isinstance(piece, Run):
            if piece.font is not pending_font or piece.look != pending_look:
                if pending:
                    _run_text(items, pending_x, baseline, pending, pending_font, pending_look, size, color, ink)
                pending, pending_font, pending_look, pending_x = [], piece.font, piece.look, cursor
            pending.append(piece)
        else:
            if pending:
                _run_text(items, pending_x, baseline, pending, pending_font, pending_look, size, color, ink)
            pending, pending_font = [], None
            if piece.look is None:
                items.extend(piece.draw(cursor, baseline, size, color))
            else:
                items.extend(piece.draw(cursor, baseline, size * piece.look.scale, piece.look.color or color))
        cursor += piece.width * size
    if "".join(r.text for r in pending).strip():
        _run_text(items, pending_x, baseline, pending, pending_font, pending_look, size, color, ink, last=True)


def _run_text(items: list[Item], x: float, baseline: float, runs: list[Run], font: FontFile | None,
              look: Look | None, size: float, color: Color, ink: str, last: bool = False) -> None:
    """One text item of runs in one font and look, their glyphs placed one after another (the
    `last` on its line without its trailing space): in a span's look, with the length low-ink
    underlines when its colour is what set it apart from the text around it (and is not the
    element's own colour)."""
    assert font is not None
    text = "".join(run.text for run in runs).replace(SHY, "")  # soft hyphens where the line did not break
    glyph_runs = _placed(runs)
    if last:
        text = text.rstrip(" ")
        while glyph_runs and _spaces(glyph_runs[-1][1]):  # the space after the last word
            glyph_runs.pop()
    if look is None:
        items.append(Text(x, baseline, text, font.path, size, color, ink, glyph_runs=tuple(glyph_runs)))
        return
    run_size = size * look.scale
    run_color = look.color or color
    cue = 0.0
    if look.cue and run_color != color:  # to the end of the last glyph that is not a space
        inked = [(start, g) for start, glyphs in glyph_runs for g in glyphs if not g[3].isspace()]
        if inked:
            start, (gid, gx, _, _) = inked[-1]
            cue = (start + gx + font.glyph_advance(gid)) * run_size
    items.append(Text(x, baseline, text, font.path, run_size, run_color, ink, 0.0, cue, tuple(glyph_runs)))


def _spaces(glyphs: tuple[Glyph, ...]) -> bool:
    return all([g[3].isspace() for g in glyphs])
