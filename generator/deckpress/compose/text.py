"""Setting text in a box: markup, font fallback, inline icons, wrapping and shrink-to-fit.

The result is plain face items (runs of text, glyphs and symbols at exact positions), so every
backend draws exactly what was measured here.

Markup: ``**bold**``, ``*italic*``, a blank line between paragraphs, ``- `` at the start of a
line for a bullet, ``:name:`` for an inline icon, and a backslash to write ``*`` or ``:`` as is.
A soft hyphen (U+00AD, or ``&shy;``) is where a word may break: invisible and of no width unless a
line ends there, where it is drawn as "-". With a language to hyphenate in, a word that does not
fit the line is broken where pyphen's dictionary allows (see `wrap`).

Setting is cached at three grains, each bounded and keyed by everything its result depends on
(frozen values: text, fonts, icons, box, sizes, colour…): a whole text box (identical boxes recur
on every card of a template), the parse of a text, and the measured runs of a word.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

from ..colors import Color
from ..face import Item, Paint, Text
from ..fonts import Family, FontFile, FontSet
from ..shapes import shape
from ..units import PT
from .hyphenate import SHY, breaks

ASCENT = 0.76  # cap height plus room for accents, in em: where the first baseline sits
DESCENT = 0.24
PARAGRAPH_GAP = 0.45  # extra space between paragraphs, in line heights
BULLET = "•"
SIZE_STEP = 0.01 * PT  # shrink-to-fit finds the largest size that fits to this much
HYPHEN = "-"  # what a broken word ends with
HARD_HYPHEN = "\u2010"  # a word's own hyphen, where a line ends after it
TITLE_LINES = 3  # hyphenate `auto`: a box that holds fewer lines than this at its largest size is a title

_INLINE = re.compile(r"\\([*:\\])|(\*\*)|(\*)|:([a-z][a-z0-9_-]*):")
# every name a `:name:` could refer to, overlapping or escaped: a superset of the icons a text uses
_ICON_NAMES = re.compile(r"(?=:([a-z][a-z0-9_-]*):)")

SET_CACHE = 4096  # text boxes kept set (a card's worth of items each)
PARSE_CACHE = 4096  # texts kept parsed
RUNS_CACHE = 65536  # words kept measured: more than a deck's vocabulary in each of its fonts


@dataclass(frozen=True)
class IconDraw:
    """How an inline icon is drawn, in em units of the surrounding text."""

    name: str
    width: float  # advance, em
    draw: Callable[[float, float, float, Color], list[Item]]  # (x, baseline, size, text colour)


@dataclass(frozen=True)
class Run:
    """Text in one font (after fallback); width in em."""

    font: FontFile
    text: str
    width: float


Piece = Run | IconDraw


# Words and lines are named tuples rather than frozen dataclasses: as immutable, and made ten
# thousand times faster, which counts with a hundred thousand words.

class Word(NamedTuple):
    """A word's pieces and the space that follows it (in its font), with their widths in em summed
    once, as wrapping asks for them at every size it tries; and, for drawing, its text with that
    space and the one font all of it is in (None if it mixes fonts or holds an icon)."""

    pieces: tuple[Piece, ...]
    space_after: Run | None
    width: float
    space: float  # the width of space_after, 0 without one
    text: str
    font: FontFile | None

    @classmethod
    def of(cls, pieces: tuple[Piece, ...], space_after: Run | None = None) -> Word:
        runs = pieces + (space_after,) if space_after else pieces
        fonts = {p.font if isinstance(p, Run) else None for p in runs}
        return cls(pieces, space_after, sum([p.width for p in pieces]), space_after.width if space_after else 0.0,
                   "".join(p.text for p in runs if isinstance(p, Run)), fonts.pop() if len(fonts) == 1 else None)


class HardLine(NamedTuple):
    """A line of source text: it starts a new line, and may be a bullet or start a paragraph."""

    words: tuple[Word, ...]
    bullet: Word | None
    paragraph_start: bool


class SetLine(NamedTuple):
    words: tuple[Word, ...]
    indent: float  # em
    bullet: Word | None
    gap_before: float  # in line heights


class MarkupError(ValueError):
    pass


def parse(text: str, family: Family, base_style: str, fonts: FontSet,
          icons: Mapping[str, IconDraw], missing: set[str] | None = None) -> list[HardLine]:
    """Markup -> lines of words, each word a list of measured runs and icons (in em).

    Characters that no font has are added to `missing`. Bold and italic carry on from one
    line to the next until they are closed."""
    reader = _MarkupReader(family, base_style, fonts, icons, set() if missing is None else missing)
    lines: list[HardLine] = []
    paragraph_start = True
    text = text.replace("&shy;", SHY)
    for raw_line in text.strip("\n").split("\n"):
        stripped = raw_line.strip()
        if not stripped:
            paragraph_start = True
            continue
        bullet = None
        if stripped.startswith("- "):
            stripped = stripped[2:].lstrip()
            bullet = Word.of(reader.runs(BULLET, "regular"))
        lines.append(HardLine(reader.words(stripped), bullet, paragraph_start))
        paragraph_start = False
    return lines


class _MarkupReader:
    """Reads one line of markup at a time into words, keeping the bold/italic state."""

    STYLES = {(False, False): "regular", (True, False): "bold", (False, True): "italic", (True, True): "bolditalic"}

    def __init__(self, family: Family, base_style: str, fonts: FontSet, icons: Mapping[str, IconDraw],
                 missing: set[str]) -> None:
        self.family, self.fonts, self.icons, self.missing = family, fonts, icons, missing
        self.bold = base_style in ("bold", "bolditalic")
        self.italic = base_style in ("italic", "bolditalic")

    def runs(self, text: str, style: str | None = None) -> tuple[Run, ...]:
        runs, missing = _runs(text, self.family, style or self.STYLES[self.bold, self.italic], self.fonts)
        self.missing |= missing
        return runs

    def spaced_word(self, text: str) -> Word:
        word, missing = _spaced_word(text, self.family, self.STYLES[self.bold, self.italic], self.fonts)
        self.missing |= missing
        return word

    def words(self, line: str) -> tuple[Word, ...]:
        self._words: list[Word] = []
        self._current: list[Piece] = []
        pos = 0
        for m in _INLINE.finditer(line):
            self._text(line[pos:m.start()])
            pos = m.end()
            if m.group(1):
                self._text(m.group(1))
            elif m.group(2):
                self.bold = not self.bold
            elif m.group(3):
                self.italic = not self.italic
            else:
                name = m.group(4)
                if name not in self.icons:
                    raise MarkupError(f"unknown icon ':{name}:'", name, sorted(self.icons))
                self._current.append(self.icons[name])
        self._text(line[pos:])
        if self._current:
            self._words.append(Word.of(tuple(self._current)))
        return tuple(self._words)

    def _text(self, chunk: str) -> None:
        first, *rest = chunk.split(" ")
        if first:  # goes on the word before the chunk, if any
            self._current.extend(self.runs(first))
        if not rest:
            return
        if self._current:  # each space ends the current word
            self._words.append(Word.of(tuple(self._current), self.runs(" ")[0]))
        *between, last = rest
        for part in between:  # the common case: a whole word and its space, measured once
            if part:
                self._words.append(self.spaced_word(part))
        self._current = list(self.runs(last)) if last else []


def plain(text: str, glyphs: Mapping[str, str]) -> str:
    """Markup as a player reads it, for names outside the card (file names, manifests, Tabletop
    Simulator): `**`/`*` dropped, escapes undone, a glyph icon replaced by its character
    (`glyphs`, by icon name: `E:flat-sign: Bass` → "E♭ Bass"), a picture or symbol left out, and
    runs of spaces made one."""
    def replace(m: re.Match[str]) -> str:
        if m.group(1):
            return m.group(1)
        if m.group(4):
            return glyphs.get(m.group(4), "")
        return ""
    return " ".join(_INLINE.sub(replace, text.replace("&shy;", "").replace(SHY, "")).split())


@functools.lru_cache(maxsize=RUNS_CACHE)
def _runs(text: str, family: Family, style: str, fonts: FontSet) -> tuple[tuple[Run, ...], frozenset[str]]:
    """Split text into runs by the font that has each character (primary font first); and the
    characters no font has. A run's width is its characters' advances summed left to right."""
    primary = family.file(style)
    has = primary.has
    # the primary font draws it all (most words); a soft hyphen, of no width, is for the loop below
    if SHY not in text and all([has(char) or char in " \u00a0" for char in text]):
        if not text:
            return (), frozenset()
        advance = primary.advance
        width = advance(text[0])
        for char in text[1:]:
            width += advance(char)
        return (Run(primary, text, width),), frozenset()
    missing: set[str] = set()
    runs: list[Run] = []
    current: FontFile | None = None
    chars: list[str] = []
    width = 0.0
    for char in text:
        if char == SHY:  # goes with the run it is in, of no width: drawn only where a line breaks
            if current is None:
                current = primary
            chars.append(char)
            continue
        font = fonts.font_for(char, primary, style)
        if not font.has(char) and char not in " \u00a0":
            missing.add(char)
        if font is current:
            chars.append(char)
            width += font.advance(char)
        else:
            if current is not None:
                runs.append(Run(current, "".join(chars), width))
            current, chars, width = font, [char], font.advance(char)
    if current is not None:
        runs.append(Run(current, "".join(chars), width))
    return tuple(runs), frozenset(missing)


@functools.lru_cache(maxsize=RUNS_CACHE)
def _spaced_word(text: str, family: Family, style: str, fonts: FontSet) -> tuple[Word, frozenset[str]]:
    """A word followed by a space, all in one style; and the characters no font has."""
    runs, missing = _runs(text, family, style, fonts)
    return Word.of(runs, _runs(" ", family, style, fonts)[0][0]), missing


def wrap(lines: tuple[HardLine, ...] | list[HardLine], width_em: float,
         wrap_lines: bool, hyphenate: str | None = None) -> tuple[list[SetLine], bool]:
    """Break hard lines into lines no wider than `width_em`; False if some word is too wide.

    A word that does not fit the rest of its line is broken there, if it can be (`split`: at a
    soft hyphen, or, with a language to `hyphenate` in, after a hyphen it has or where that
    language's dictionary allows), before it is moved to the next line; so is a word too wide
    for a line of its own."""
    out: list[SetLine] = []
    fits = True
    limit = width_em + 1e-9
    for hard in lines:
        indent = hard.bullet.width + hard.bullet.pieces[0].font.advance(" ") * 1.5 if hard.bullet else 0.0
        produced: list[list[Word]] = []
        current: list[Word] = []
        used, space = indent, 0.0  # space: after the line's last word
        for word in hard.words:
            # the width the line is judged by is the width it keeps: one sum, so that a word that
            # passed the test never overflows afterwards (fit_lines relies on it)
            after = used + space + word.width
            while wrap_lines and after > limit:
                parts = split(word, limit - used - space, hyphenate)
                if parts is not None:  # the head ends this line, the rest goes on to the next
                    head, word = parts
                    current.append(head)
                elif not current:
                    break  # alone on its line and not to be broken: it overflows
                produced.append(current)
                current, used, space = [], indent, 0.0
                after = used + space + word.width
            current.append(word)
            used, space = after, word.space
            if used > limit:
                fits = False
        produced.append(current)
        gap = PARAGRAPH_GAP if hard.paragraph_start and out else 0.0
        for i, words in enumerate(produced):
            out.append(SetLine(tuple(words), indent, hard.bullet if i == 0 else None, gap if i == 0 else 0.0))
    return out, fits


def split(word: Word, room: float, hyphenate: str | None) -> tuple[Word, Word] | None:
    """`word` broken in two: a head that fits `room` (em), ending in a hyphen unless it ends in
    one already, and the rest (with the word's space); or None if it cannot be broken so.

    A word breaks at its soft hyphens if it has any; else, with a language to `hyphenate` in,
    after a hyphen it has and where the language's dictionary allows (compose/hyphenate.py).
    Each side keeps at least two letters. A word of several fonts or with an icon, or (for the
    dictionary) with digits or looking like an address, is not broken. The latest break that
    fits is taken."""
    font = word.font
    if font is None:  # an icon, or a change of font (bold inside the word, a fallback font)
        return None
    text = "".join(piece.text for piece in word.pieces)  # all runs, in the one font
    found = breaks(text, hyphenate)
    for cut, resume, add in reversed(found):
        head_text = text[:cut].replace(SHY, "") + (HYPHEN if add else "")
        if not add and head_text.endswith("-") and font.has(HARD_HYPHEN):
            # the word's own hyphen ends the line: as U+2010, which a PDF reader keeps when it
            # joins the lines ("British-style"), where it drops a "-" there as a hyphenation
            head_text = head_text[:-1] + HARD_HYPHEN
        head_width = _measure(font, head_text)
        if head_width <= room + 1e-9:
            rest_text = text[resume:]
            head = Word((Run(font, head_text, head_width),), None, head_width, 0.0, head_text, font)
            return head, Word.of((Run(font, rest_text, _measure(font, rest_text)),), word.space_after)
    return None


def _measure(font: FontFile, text: str) -> float:
    """The width of text in one font in em, its advances summed left to right; soft hyphens have none."""
    width = 0.0
    for char in text:
        if char != SHY:
            width += font.advance(char)
    return width


def is_title(h: float, size: float, line_height: float, wrap_lines: bool) -> bool:
    """Whether a text box is a title, for hyphenate `auto`: one that does not wrap, or that holds
    fewer than TITLE_LINES lines at its largest size. Titles are not hyphenated unless asked."""
    if not wrap_lines:
        return True
    room = h / size - ASCENT - DESCENT  # em left for the line steps below the first line
    return room < (TITLE_LINES - 1) * line_height - 1e-9


def block_height(lines: list[SetLine], line_height: float) -> float:
    """Height of the set lines in em: top of the first line's caps to the last line's descenders."""
    if not lines:
        return 0.0
    gaps = sum(line.gap_before for line in lines)
    return (len(lines) - 1 + gaps) * line_height + ASCENT + DESCENT


def line_width(line: SetLine) -> float:
    width = line.indent
    for i, word in enumerate(line.words):
        width += word.width
        if i < len(line.words) - 1 and word.space_after:
            width += word.space_after.width
    return width


def fit_lines(lines: tuple[HardLine, ...] | list[HardLine], w: float, h: float, size: float, min_size: float,
              line_height: float, shrink: bool, wrap_lines: bool,
              hyphenate: str | None = None) -> tuple[list[SetLine], float, bool]:
    """The lines wrapped (and hyphenated in the language `hyphenate`, if given) at the largest
    size in [`min_size`, `size`] at which they fit w × h, found to SIZE_STEP (0.01 pt); else at
    `min_size`, and False. Without `shrink`, at `size` whether they fit or not.

    The sizes tried are `size - k·SIZE_STEP` (each computed afresh, never by repeated subtraction,
    so the same box gives the same float), the last of them `min_size` itself, and the largest
    that fits is found by bisection on k: the size chosen fits and the one a step larger does
    not. That it is the largest of all rests on fitting being monotone in the size: a smaller
    size is a wider measure in em, and greedy wrapping then ends each line at the same word or
    a later one, so there are no more lines and the block is no taller. Breaking inside words
    (always the latest break that fits) keeps to that in practice, though a word's breaks are
    not evenly spread, so it is not proven there. The top size is tried first (most text fits
    at once), then the smallest (text that fits nowhere is set there without a search)."""
    steps = _steps(size, min_size, shrink)
    tried: dict[int, tuple[list[SetLine], bool]] = {}

    def at(k: int) -> float:
        return min_size if k == steps > 0 else size - k * SIZE_STEP

    def fits(k: int) -> bool:
        if k not in tried:
            s = at(k)
            set_lines, width_ok = wrap(lines, w / s, wrap_lines, hyphenate)
            tried[k] = set_lines, width_ok and block_height(set_lines, line_height) * s <= h + 1e-9
        return tried[k][1]

    if fits(0) or steps == 0:
        chosen = 0
    elif not fits(steps):
        chosen = steps  # nothing fits: the smallest size it is
    else:
        too_big, chosen = 0, steps  # at(too_big) does not fit, at(chosen) does
        while chosen - too_big > 1:
            middle = (too_big + chosen) // 2
            if fits(middle):
                chosen = middle
            else:
                too_big = middle
    set_lines, fitted = tried[chosen]
    return set_lines, at(chosen), fitted


def _steps(size: float, min_size: float, shrink: bool) -> int:
    """How many SIZE_STEPs below `size` the smallest size fit_lines may choose is (0: `size` alone)."""
    if not shrink or min_size >= size:
        return 0
    return max(1, math.ceil((size - min_size) / SIZE_STEP - 1e-6))


@dataclass
class Fitted:
    items: list[Item]
    size: float
    fits: bool
    missing: set[str]  # characters no font has: they would print as empty boxes


def set_text(text: str, box: tuple[float, float, float, float], family: Family, style: str,
             fonts: FontSet, icons: Mapping[str, IconDraw], size: float, min_size: float, color: Color,
             align: str, valign: str, line_height: float, shrink: bool, wrap_lines: bool,
             ink: str = "auto", hyphenate: str | None = None) -> Fitted:
    """Set `text` in the box (x, y, w, h), shrinking from `size` towards `min_size` until it fits;
    with a language to `hyphenate` in (`de`, `en-GB`), breaking words by its dictionary first."""
    # the cache key holds only the icons the text may name, so texts without icons are shared
    # between decks, and a deck's other icons do not matter
    named = tuple((name, icons.get(name)) for name in sorted(set(_ICON_NAMES.findall(text))))
    family, fonts = _one_of(family), _one_of(fonts)
    try:
        items, chosen_size, fits, missing = _set_text(text, tuple(box), family, style, fonts, named, size,
                                                      min_size, color, align, valign, line_height, shrink,
                                                      wrap_lines, ink, hyphenate)
    except MarkupError as exc:  # suggest from every icon, not just the ones the text names
        message, name, _named = exc.args
        raise MarkupError(message, name, sorted(icons)) from None
    return Fitted(list(items), chosen_size, fits, set(missing))  # the caller's own copies


_FontsT = TypeVar("_FontsT", Family, FontSet)
_ONE_OF: dict[Family | FontSet, Family | FontSet] = {}  # one of each: a build has a handful


def _one_of(value: _FontsT) -> _FontsT:
    """The first of the equal families (or font sets) met: each deck loads its own, equal to the
    next deck's, and the caches below find a key made of the very same objects without comparing
    their fonts one by one (which every look-up of a word did)."""
    return _ONE_OF.setdefault(value, value)  # type: ignore[return-value]


def cache_clear() -> None:
    """Forget every box set, text parsed and word measured (to compare them with fresh ones)."""
    for cache in (_set_text, _parse, _spaced_word, _runs, breaks):
        cache.cache_clear()


@functools.lru_cache(maxsize=SET_CACHE)
def _set_text(text: str, box: tuple[float, ...], family: Family, style: str, fonts: FontSet,
              named: tuple[tuple[str, IconDraw | None], ...], size: float, min_size: float, color: Color,
              align: str, valign: str, line_height: float, shrink: bool, wrap_lines: bool,
              ink: str, hyphenate: str | None) -> tuple[tuple[Item, ...], float, bool, frozenset[str]]:
    x, y, w, h = box
    lines, missing = _parse(text, family, style, fonts, named)
    set_lines, chosen_size, fits = fit_lines(lines, w, h, size, min_size, line_height, shrink, wrap_lines,
                                             hyphenate)
    return (tuple(_draw(set_lines, x, y, w, h, chosen_size, color, align, valign, line_height, ink)),
            chosen_size, fits, missing)


@functools.lru_cache(maxsize=PARSE_CACHE)
def _parse(text: str, family: Family, style: str, fonts: FontSet,
           named: tuple[tuple[str, IconDraw | None], ...]) -> tuple[tuple[HardLine, ...], frozenset[str]]:
    missing: set[str] = set()
    lines = parse(text, family, style, fonts, {name: icon for name, icon in named if icon}, missing)
    return tuple(lines), frozenset(missing)


def _draw(lines: list[SetLine], x: float, y: float, w: float, h: float, size: float, color: Color,
          align: str, valign: str, line_height: float, ink: str) -> list[Item]:
    total = block_height(lines, line_height) * size
    top = y + {"top": 0.0, "middle": (h - total) / 2, "bottom": h - total}[valign]
    baseline = top + ASCENT * size
    items: list[Item] = []
    first = True
    for line in lines:
        if not first:
            baseline += (1 + line.gap_before) * line_height * size
        first = False
        width = line_width(line) * size
        left = x + {"left": 0.0, "center": (w - width) / 2, "right": w - width}[align]
        if line.bullet:
            _emit(items, line.bullet.pieces, left, baseline, size, color, ink)
        cursor = left + line.indent * size
        font = line.words[0].font if line.words else None
        if font is not None and all(word.font is font for word in line.words):
            # one font throughout (most lines): the one text item _emit would make, without its walk
            text = "".join(word.text for word in line.words)
            if SHY in text:  # soft hyphens where the line did not break: not drawn
                text = text.replace(SHY, "")
            if text.strip():
                items.append(Text(cursor, baseline, text.rstrip(" "), font.path, size, color, ink))
            continue
        pieces: list[Piece] = []
        for i, word in enumerate(line.words):
            pieces.extend(word.pieces)
            if i < len(line.words) - 1 and word.space_after:
                pieces.append(word.space_after)
        _emit(items, pieces, cursor, baseline, size, color, ink)
    return items


def _emit(items: list[Item], pieces: list[Piece], x: float, baseline: float, size: float,
          color: Color, ink: str) -> None:
    """Draw pieces left to right, merging neighbouring runs of one font into one text item."""
    pending: list[str] = []  # the texts of the runs being merged, all in pending_font
    pending_font: FontFile | None = None
    pending_x = cursor = x
    for piece in pieces:
        if isinstance(piece, Run):
            if piece.font is not pending_font:
                if pending:
                    items.append(Text(pending_x, baseline, "".join(pending).replace(SHY, ""), pending_font.path, size,
                                      color, ink))
                pending, pending_font, pending_x = [], piece.font, cursor
            pending.append(piece.text)
        else:
            if pending:
                items.append(Text(pending_x, baseline, "".join(pending).replace(SHY, ""), pending_font.path, size,
                                  color, ink))
            pending, pending_font = [], None
            items.extend(piece.draw(cursor, baseline, size, color))
        cursor += piece.width * size
    text = "".join(pending).replace(SHY, "")
    if text.strip():
        items.append(Text(pending_x, baseline, text.rstrip(" "), pending_font.path, size, color, ink))


# --- inline icons -----------------------------------------------------------------------------

ICON_MIDDLE = 0.36  # icons are centred this far above the baseline, in em (half the cap height)


def glyph_icon(name: str, font: FontFile, char: str, scale: float, color: Color | None,
               ink: str = "auto", bold: float = 0.0) -> IconDraw:
    """A character from a (music) font, scaled so its ink is about a cap height and a half tall;
    `bold` draws its outline as well, that share of the glyph's size wide."""
    x0, y0, x1, y1 = font.bounds(char)
    ink_h = max(y1 - y0, 1e-6)
    k = scale * min(1.0, 1.1 / ink_h)
    pad = 0.08 + bold * k / 2  # the outline's half width outside the ink

    def draw(x: float, baseline: float, size: float, text_color: Color) -> list[Item]:
        s = size * k
        gx = x + pad * size - x0 * s
        gy = baseline - ICON_MIDDLE * size + (y0 + y1) / 2 * s
        return [Text(gx, gy, char, font.path, s, color or text_color, ink, bold * s)]

    return IconDraw(name, (x1 - x0) * k + 2 * pad, draw)


OUTLINE = 0.05  # palette symbols' outline in text, as a share of the font size


def shape_icon(name: str, shape_name: str, fill: Color | None, scale: float = 1.0,
               ink: str = "keep", outline: bool = False) -> IconDraw:
    """A palette symbol or named shape, as wide as a capital letter. With `outline`, a hairline in
    the text's colour keeps a light symbol (a yellow star) visible on a light ground."""
    k = 0.85 * scale
    pad = 0.08

    def draw(x: float, baseline: float, size: float, text_color: Color) -> list[Item]:
        paint = Paint(fill=fill or text_color, stroke=text_color if outline else None,
                      stroke_width=OUTLINE * size if outline else 0.0, ink=ink)
        return [shape(shape_name, x + (pad + k / 2) * size, baseline - ICON_MIDDLE * size, k * size, paint)]

    return IconDraw(name, k + 2 * pad, draw)
