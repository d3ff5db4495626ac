"""Setting text in a box: markup, font fallback, inline icons, wrapping and shrink-to-fit.

The result is plain face items (runs of text, glyphs and symbols at exact positions), so every
backend draws exactly what was measured here.

Markup: ``**bold**``, ``*italic*``, a blank line between paragraphs, ``- `` at the start of a
line for a bullet, ``:name:`` for an inline icon, and a backslash to write ``*`` or ``:`` as is.

Setting is cached at three grains, each bounded and keyed by everything its result depends on
(frozen values: text, fonts, icons, box, sizes, colour…): a whole text box (identical boxes recur
on every card of a template), the parse of a text, and the measured runs of a word.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_right
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

from ..colors import Color
from ..face import Item, Paint, Text
from ..fonts import Family, FontFile, FontSet
from ..shapes import shape as symbol
from ..shaping import shape
from ..units import PT

ASCENT = 0.76  # cap height plus room for accents, in em: where the first baseline sits
DESCENT = 0.24
PARAGRAPH_GAP = 0.45  # extra space between paragraphs, in line heights
BULLET = "•"
SIZE_STEP = 0.25 * PT  # shrink-to-fit tries sizes this far apart

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
    """Text in one font (after fallback), shaped: its glyphs (index, x em from the run's start,
    y em up, the characters each stands for) and its width in em."""

    font: FontFile
    text: str
    width: float
    glyphs: tuple[tuple[int, float, float, str], ...] = ()


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
    return " ".join(_INLINE.sub(replace, text).split())


@functools.lru_cache(maxsize=RUNS_CACHE)
def _runs(text: str, family: Family, style: str, fonts: FontSet) -> tuple[tuple[Run, ...], frozenset[str]]:
    """Split text into runs by the font that has each character (primary font first), each run
    shaped (`_shaped`); and the characters no font has."""
    primary = family.file(style)
    has = primary.has
    if all([has(char) or char in " \u00a0" for char in text]):  # the primary font draws it all (most words)
        return ((_shaped(primary, text),) if text else ()), frozenset()
    missing: set[str] = set()
    runs: list[Run] = []
    current: FontFile | None = None
    chars: list[str] = []
    for char in text:
        font = fonts.font_for(char, primary, style)
        if not font.has(char) and char not in " \u00a0":
            missing.add(char)
        if font is current:
            chars.append(char)
        else:
            if current is not None:
                runs.append(_shaped(current, "".join(chars)))
            current, chars = font, [char]
    if current is not None:
        runs.append(_shaped(current, "".join(chars)))
    return tuple(runs), frozenset(missing)


def _shaped(font: FontFile, text: str) -> Run:
    """`text` in `font` shaped by HarfBuzz: kerned, with the font's ligatures and, for scripts
    that need it, joined and reordered; each glyph placed from the run's start."""
    result = shape(text, font.path)
    ends = sorted({g.cluster for g in result.glyphs} | {len(text)})
    glyphs, pen = [], 0.0
    for g in result.glyphs:
        glyphs.append((g.gid, pen + g.dx, g.dy, text[g.cluster:ends[bisect_right(ends, g.cluster)]]))
        pen += g.advance
    return Run(font, text, result.width, tuple(glyphs))


def _placed(pieces: list[Run], start: float = 0.0) -> tuple[tuple[int, float, float, str], ...]:
    """The glyphs of runs set one after another, from `start` (em)."""
    placed: list[tuple[int, float, float, str]] = []
    for run in pieces:
        placed += [(gid, start + x, y, chars) for gid, x, y, chars in run.glyphs]
        start += run.width
    return tuple(placed)


@functools.lru_cache(maxsize=RUNS_CACHE)
def _spaced_word(text: str, family: Family, style: str, fonts: FontSet) -> tuple[Word, frozenset[str]]:
    """A word followed by a space, all in one style; and the characters no font has."""
    runs, missing = _runs(text, family, style, fonts)
    return Word.of(runs, _runs(" ", family, style, fonts)[0][0]), missing


def wrap(lines: tuple[HardLine, ...] | list[HardLine], width_em: float,
         wrap_lines: bool) -> tuple[list[SetLine], bool]:
    """Break hard lines into lines no wider than `width_em`; False if some word is too wide."""
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
            if current and wrap_lines and after > limit:
                produced.append(current)
                current, after = [], indent + word.width
            current.append(word)
            used, space = after, word.space
            if used > limit:
                fits = False
        produced.append(current)
        gap = PARAGRAPH_GAP if hard.paragraph_start and out else 0.0
        for i, words in enumerate(produced):
            out.append(SetLine(tuple(words), indent, hard.bullet if i == 0 else None, gap if i == 0 else 0.0))
    return out, fits


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
              line_height: float, shrink: bool, wrap_lines: bool) -> tuple[list[SetLine], float, bool]:
    """The lines wrapped at the largest size of the grid `size`, `size - SIZE_STEP`, … (down to
    `min_size`, or `size` alone without `shrink`) at which they fit w × h; else at the smallest,
    and False.

    Fitting is monotone in the size, so the grid is searched in strides that double from the top
    (text usually fits at the first size or a few steps below), then halved. A smaller size is a
    wider measure in em (w ≥ 0), and greedy wrapping then ends each line at the same word or a
    later one: a line that starts no earlier holds a tail of the narrower line's words, and
    running sums of the same non-negative widths, taken left to right, keep their order in
    floating point too. So there are no more lines, no word overflows that did not (wrap judges a
    line by the very sum it keeps), and the block, a sum over lines (line height ≥ 0), is no
    taller. Outside those conditions every size is tried in turn."""
    sizes = _sizes(size, min_size, shrink)
    tried: dict[int, tuple[list[SetLine], bool]] = {}

    def fits(i: int) -> bool:
        if i not in tried:
            set_lines, width_ok = wrap(lines, w / sizes[i], wrap_lines)
            tried[i] = set_lines, width_ok and block_height(set_lines, line_height) * sizes[i] <= h + 1e-9
        return tried[i][1]

    last = len(sizes) - 1
    if fits(0) or last == 0:
        chosen = 0
    elif w < 0 or line_height < 0:
        chosen = next((i for i in range(1, last + 1) if fits(i)), last)
    else:
        too_big, chosen, stride = 0, last, 1  # sizes[too_big] does not fit; sizes[chosen] does, or is the last
        while too_big + stride < last:
            if fits(too_big + stride):
                chosen = too_big + stride
                break
            too_big, stride = too_big + stride, stride * 2
        if chosen == last and not fits(last):
            too_big = last  # nothing fits: the smallest size it is
        while chosen - too_big > 1:
            middle = (too_big + chosen) // 2
            if fits(middle):
                chosen = middle
            else:
                too_big = middle
    set_lines, fitted = tried[chosen]
    return set_lines, sizes[chosen], fitted


@functools.lru_cache(maxsize=256)
def _sizes(size: float, min_size: float, shrink: bool) -> tuple[float, ...]:
    """The sizes fit_lines may choose from, largest first: a box's sizes are the same on every card."""
    sizes = [size]  # made by repeated subtraction, as the size loop always made them: the same floats
    while shrink and sizes[-1] - SIZE_STEP >= min_size - 1e-9:
        sizes.append(sizes[-1] - SIZE_STEP)
    return tuple(sizes)


@dataclass
class Fitted:
    items: list[Item]
    size: float
    fits: bool
    missing: set[str]  # characters no font has: they would print as empty boxes


def set_text(text: str, box: tuple[float, float, float, float], family: Family, style: str,
             fonts: FontSet, icons: Mapping[str, IconDraw], size: float, min_size: float, color: Color,
             align: str, valign: str, line_height: float, shrink: bool, wrap_lines: bool,
             ink: str = "auto") -> Fitted:
    """Set `text` in the box (x, y, w, h), shrinking from `size` towards `min_size` until it fits."""
    # the cache key holds only the icons the text may name, so texts without icons are shared
    # between decks, and a deck's other icons do not matter
    named = tuple((name, icons.get(name)) for name in sorted(set(_ICON_NAMES.findall(text))))
    family, fonts = _one_of(family), _one_of(fonts)
    try:
        items, chosen_size, fits, missing = _set_text(text, tuple(box), family, style, fonts, named, size,
                                                      min_size, color, align, valign, line_height, shrink,
                                                      wrap_lines, ink)
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
    for cache in (_set_text, _parse, _spaced_word, _runs, _sizes):
        cache.cache_clear()


@functools.lru_cache(maxsize=SET_CACHE)
def _set_text(text: str, box: tuple[float, ...], family: Family, style: str, fonts: FontSet,
              named: tuple[tuple[str, IconDraw | None], ...], size: float, min_size: float, color: Color,
              align: str, valign: str, line_height: float, shrink: bool, wrap_lines: bool,
              ink: str) -> tuple[tuple[Item, ...], float, bool, frozenset[str]]:
    x, y, w, h = box
    lines, missing = _parse(text, family, style, fonts, named)
    set_lines, chosen_size, fits = fit_lines(lines, w, h, size, min_size, line_height, shrink, wrap_lines)
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
            if text.strip():
                runs = [run for i, word in enumerate(line.words) for run in
                        (*word.pieces, *((word.space_after,) if word.space_after and i < len(line.words) - 1 else ()))]
                items.append(_text(cursor, baseline, text.rstrip(" "), font, runs, size, color, ink))
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
    pending: list[Run] = []  # the runs being merged, all in pending_font
    pending_font: FontFile | None = None
    pending_x = cursor = x
    for piece in pieces:
        if isinstance(piece, Run):
            if piece.font is not pending_font:
                if pending:
                    items.append(_text(pending_x, baseline, "".join(r.text for r in pending), pending_font, pending,
                                       size, color, ink))
                pending, pending_font, pending_x = [], piece.font, cursor
            pending.append(piece)
        else:
            if pending:
                items.append(_text(pending_x, baseline, "".join(r.text for r in pending), pending_font, pending,
                                   size, color, ink))
            pending, pending_font = [], None
            items.extend(piece.draw(cursor, baseline, size, color))
        cursor += piece.width * size
    text = "".join(r.text for r in pending)
    if text.strip():
        items.append(_text(pending_x, baseline, text.rstrip(" "), pending_font, pending, size, color, ink))


def _text(x: float, baseline: float, text: str, font: FontFile, runs: list[Run], size: float, color: Color,
          ink: str) -> Text:
    """One text item of runs in one font, their glyphs placed one after another (a trailing
    space, which `text` has lost, draws nothing)."""
    glyphs = _placed(runs)
    while glyphs and glyphs[-1][3].isspace():
        glyphs = glyphs[:-1]
    return Text(x, baseline, text, font.path, size, color, ink, glyphs=glyphs)


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
        return [symbol(shape_name, x + (pad + k / 2) * size, baseline - ICON_MIDDLE * size, k * size, paint)]

    return IconDraw(name, k + 2 * pad, draw)
