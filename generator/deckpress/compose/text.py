"""Setting text in a box: markup, font fallback, inline icons, wrapping and shrink-to-fit.

The result is plain face items (runs of text, glyphs and symbols at exact positions), so every
backend draws exactly what was measured here.

Markup: ``**bold**``, ``*italic*``, a blank line between paragraphs, ``- `` at the start of a
line for a bullet, ``:name:`` for an inline icon, ``[words]{key=value …}`` for a span of another
colour, size, font, weight, style or small caps (Pandoc's bracketed spans, keys in `model.keys.SPAN`),
and a backslash to write ``*``, ``:``, ``[`` or ``]`` as is.
A soft hyphen (U+00AD, or ``&shy;``) is where a word may break: invisible and of no width unless a
line ends there, where it is drawn as "-". With a language to hyphenate in, a word that does not
fit the line is broken where pyphen's dictionary allows (see `wrap`).

Setting is cached at three grains, each bounded and keyed by everything its result depends on
(frozen values: text, fonts, icons, box, sizes, colour…): a whole text box (identical boxes recur
on every card of a template), the parse of a text, and the measured runs of a word.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import NamedTuple, TypeVar

from ..colors import NAMED, Color, parse_color
from ..face import Glyph, GlyphRun, Item, Paint, Text
from ..fonts import Family, FontFile, FontSet, from_fonts
from ..model.keys import SPAN
from ..shapes import shape as symbol
from ..shaping import base_level, bidi_levels, right_to_left, shape, substitutes, visual_order
from ..units import PT, parse_absolute
from .hyphenate import MIN_LETTERS, SHY, breaks, letters_before
from .linebreak import MAX_BREAKS, Cut, best_breaks

ASCENT = 0.76  # cap height plus room for accents, in em: where the first baseline sits
DESCENT = 0.24
PARAGRAPH_GAP = 0.45  # extra space between paragraphs, in line heights
BULLET = "•"
SIZE_STEP = 0.01 * PT  # shrink-to-fit finds the largest size that fits to this much
HYPHEN = "-"  # what a broken word ends with
HARD_HYPHEN = "\u2010"  # a word's own hyphen, where a line ends after it
TITLE_LINES = 3  # hyphenate `auto`: a box that holds fewer lines than this at its largest size is a title
HEAD_SLACK = 0.5  # em: a part of a word is at least its characters' width in the word less this (`Breaking`)
TRIES = 4  # heads tried one by one back from the last the pen allows, before halving (`Breaking.head`)
REACH = 32  # characters: the first part of a word shaped where its pen is not known (`Breaking`)

_INLINE = re.compile(r"\\([*:\\\[\]])|(\*\*)|(\*)|:([a-z][a-z0-9_-]*):|(\[)|(\])")
_ATTRS = re.compile(r"\{([^{}\n]*)\}")  # a span's attributes, right after its `]`
_ATTR = re.compile(r"""\s*([A-Za-z][\w-]*)=("[^"]*"|'[^']*'|[^\s"']+)\s*""")
SMALL_CAPS = 0.7  # synthesised small caps: capitals at this share of the size, for lower-case letters
MAX_SPAN_SIZE = 10.0  # a span's size, as a share of the element's, is at most this (1000 %)
# every name a `:name:` could refer to, overlapping or escaped: a superset of the icons a text uses
_ICON_NAMES = re.compile(r"(?=:([a-z][a-z0-9_-]*):)")

SET_CACHE = 4096  # text boxes kept set (a card's worth of items each)
PARSE_CACHE = 4096  # texts kept parsed
RUNS_CACHE = 65536  # words kept measured: more than a deck's vocabulary in each of its fonts
BREAKING_CACHE = 4096  # words kept with what breaking them over lines needs


class Shaping(NamedTuple):
    """How a text's runs are shaped: in a language (its own letter forms), with OpenType features
    besides the font's defaults (`smcp`; `-liga` turns one off)."""

    language: str | None = None
    features: tuple[str, ...] = ()


PLAIN = Shaping()


@dataclass(frozen=True)
class Look:
    """How a span's pieces print besides their font: at `scale` times the element's size (a ratio,
    so a shrunk box shrinks them alike), in `color` (None: the element's), and, with `cue`,
    underlined in low-ink, where their colour no longer tells them apart."""

    scale: float = 1.0
    color: Color | None = None
    cue: bool = False


@dataclass(frozen=True)
class IconDraw:
    """How an inline icon is drawn, in em units of the surrounding text."""

    name: str
    width: float  # advance, em (times the look's scale)
    draw: Callable[[float, float, float, Color], list[Item]]  # (x, baseline, size, text colour)
    look: Look | None = None  # in a span: drawn at its size, its colour for the text's


@dataclass(frozen=True)
class Run:
    """Text in one font (after fallback), shaped: its glyphs (index, x em from the run's start at
    its own size, y em up, the characters each stands for); its width in em of the element's size,
    the look's scale included."""

    font: FontFile
    text: str
    width: float
    look: Look | None = None  # None: plain text, the element's size and colour
    glyphs: tuple[Glyph, ...] = ()
    shaping: Shaping = PLAIN  # how it was shaped: a part of it broken off is shaped alike


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
    scale: float = 1.0  # its largest span's size, at least the element's: what its line's height follows

    @classmethod
    def of(cls, pieces: tuple[Piece, ...], space_after: Run | None = None) -> Word:
        runs = pieces + (space_after,) if space_after else pieces
        fonts = {p.font if isinstance(p, Run) and p.look is None else None for p in runs}
        scale = 1.0
        if None in fonts:  # an icon, a span or several fonts: the look of each piece, for the line's height
            scale = max([1.0] + [p.look.scale for p in pieces if p.look is not None])
        return cls(pieces, space_after, sum([p.width for p in pieces]), space_after.width if space_after else 0.0,
                   "".join(p.text for p in runs if isinstance(p, Run)), fonts.pop() if len(fonts) == 1 else None,
                   scale)


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
    scale: float = 1.0  # its largest span's size (at least the element's), which its height follows


class MarkupError(ValueError):
    """A mistake in markup: args are the message, the word at fault, and the words it may have meant."""


class _UnknownIcon(MarkupError):
    """An icon the text names that is not there: set_text suggests from every icon, not the text's."""


def parse(text: str, family: Family, base_style: str, fonts: FontSet,
          icons: Mapping[str, IconDraw], missing: set[str] | None = None,
          colors: Mapping[str, Color] | None = None, size: float = 0.0, shaping: Shaping = PLAIN) -> list[HardLine]:
    """Markup -> lines of words, each word a list of measured runs and icons (in em).

    Characters that no font has are added to `missing`. Bold and italic carry on from one
    line to the next until they are closed; a span `[…]{…}` closes on its own line. A span's
    `color` may name one of `colors` (the deck's palette and colour words); its size in pt or mm
    is taken as a share of `size`, the element's."""
    reader = _MarkupReader(family, base_style, fonts, icons, set() if missing is None else missing,
                           colors or {}, size, shaping)
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


@dataclass(frozen=True)
class _Span:
    """What the spans open at a point of the text do besides the font: the look of their capitals
    and other characters, the look of their lower-case letters (smaller with small caps)."""

    look: Look
    small: Look  # the look of lower-case letters: with small caps, capitals SMALL_CAPS smaller
    caps: bool = False


class _MarkupReader:
    """Reads one line of markup at a time into words, keeping the bold/italic state, and within a
    line the spans open (each keeps what it changed, to put it back when it closes)."""

    STYLES = {(False, False): "regular", (True, False): "bold", (False, True): "italic", (True, True): "bolditalic"}

    def __init__(self, family: Family, base_style: str, fonts: FontSet, icons: Mapping[str, IconDraw],
                 missing: set[str], colors: Mapping[str, Color] | None = None, size: float = 0.0,
                 shaping: Shaping = PLAIN) -> None:
        self.family, self.fonts, self.icons, self.missing = family, fonts, icons, missing
        self.shaping = shaping
        self.colors, self.size = colors or {}, size
        self.bold = base_style in ("bold", "bolditalic")
        self.italic = base_style in ("italic", "bolditalic")
        self.span: _Span | None = None  # None outside spans: the element's own look
        self._outer: list[tuple[Family, bool, bool, _Span | None]] = []  # what each open span changed

    def runs(self, text: str, style: str | None = None) -> tuple[Run, ...]:
        if self.span is not None and style is None:
            runs, missing = _span_runs(text, self.family, self.STYLES[self.bold, self.italic], self.fonts, self.span,
                                       self.shaping)
        else:
            runs, missing = _runs(text, self.family, style or self.STYLES[self.bold, self.italic], self.fonts,
                                  self.shaping)
        self.missing |= missing
        return runs

    def spaced_word(self, text: str) -> Word:
        if self.span is not None:
            return Word.of(self.runs(text), self.runs(" ")[0])
        word, missing = _spaced_word(text, self.family, self.STYLES[self.bold, self.italic], self.fonts, self.shaping)
        self.missing |= missing
        return word

    def words(self, line: str) -> tuple[Word, ...]:
        self._words: list[Word] = []
        self._current: list[Piece] = []
        spans, closes = _span_marks(line) if "]{" in line else ({}, {})
        pos = 0
        while (m := _INLINE.search(line, pos)) is not None:
            self._text(line[pos:m.start()])
            pos = m.end()
            if m.group(1):
                self._text(m.group(1))
            elif m.group(2):
                self.bold = not self.bold
            elif m.group(3):
                self.italic = not self.italic
            elif m.group(4):
                name = m.group(4)
                if name not in self.icons:
                    raise _UnknownIcon(f"unknown icon ':{name}:'", name, sorted(self.icons))
                icon = self.icons[name]
                if self.span is not None:  # drawn at the span's size, in its colour
                    look = self.span.look
                    icon = replace(icon, width=icon.width * look.scale, look=look)
                self._current.append(icon)
            elif m.group(5):
                if m.start() in spans:
                    self._open(*spans[m.start()])
                else:
                    self._text("[")
            elif m.start() in closes:
                self._close()
                pos = closes[m.start()]
            else:
                self._text("]")
        self._text(line[pos:])
        if self._current:
            self._words.append(Word.of(tuple(self._current)))
        return tuple(self._words)

    def _open(self, attrs: str, source: str) -> None:
        """Start a span: its keys change the family, weight, style and look of what follows."""
        self._outer.append((self.family, self.bold, self.italic, self.span))
        outer = self.span.look if self.span is not None else Look()
        scale, color, caps = outer.scale, outer.color, self.span.caps if self.span is not None else False
        values = _span_attrs(attrs, source)
        for key, value in values.items():
            if key == "color":
                try:
                    color = parse_color(value, self.colors)
                except ValueError:
                    raise MarkupError(f"unknown colour '{value}' in span '{source}'", value,
                                      sorted([*self.colors, *NAMED])) from None
            elif key == "size":
                scale = _span_size(value, self.size, source)
            elif key == "font":
                if value not in self.fonts:
                    raise MarkupError(f"unknown font family '{value}' in span '{source}'", value,
                                      sorted(self.fonts.families))
                self.family = self.fonts.families[value]
            elif key == "weight":
                self.bold = value == "bold"
            elif key == "style":
                self.italic = value == "italic"
            else:
                caps = value == "small"
        # a span that only changes the colour is told apart by its colour alone: low-ink, which
        # makes every colour a grey, underlines it (and what it holds) instead
        cue = values.keys() == {"color"} if "color" in values else outer.cue
        look = Look(scale, color, cue)
        self.span = _Span(look, Look(scale * SMALL_CAPS, color, cue) if caps else look, caps)

    def _close(self) -> None:
        self.family, self.bold, self.italic, self.span = self._outer.pop()

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


def _span_marks(line: str) -> tuple[dict[int, tuple[str, str]], dict[int, int]]:
    """The spans of one line of markup: where each `[` that opens one is, with the span's
    attributes and its whole source (for messages); and where each `]` that closes one is, with
    where its `{…}` ends. Brackets pair as they nest; a pair without `{…}` right after it, a
    bracket without a partner and an escaped one (`\\[`) are text."""
    spans: dict[int, tuple[str, str]] = {}
    closes: dict[int, int] = {}
    opened: list[int] = []
    pos = 0
    while (m := _INLINE.search(line, pos)) is not None:
        pos = m.end()
        if m.group(5):
            opened.append(m.start())
        elif m.group(6) and opened:
            start = opened.pop()
            attrs = _ATTRS.match(line, pos)
            if attrs is not None:
                spans[start] = (attrs.group(1), line[start:attrs.end()])
                closes[m.start()] = pos = attrs.end()
    return spans, closes


def _span_attrs(attrs: str, source: str) -> dict[str, str]:
    """A span's `key=value …`, each key one of SPAN's and each choice one it offers (quotes
    round a value with spaces, such as a tint: `color="red 40%"`)."""
    values: dict[str, str] = {}
    pos = 0
    while pos < len(attrs):
        m = _ATTR.match(attrs, pos)
        if m is None:
            if not attrs[pos:].strip():
                break
            word = attrs[pos:].split()[0]
            raise MarkupError(f"'{word}' in span '{source}' is not key=value (like color=red)",
                              word.split("=")[0], SPAN.key_names)
        key, value = m.group(1), m.group(2).strip("\"'")
        spec = SPAN.key(key)
        if spec is None:
            raise MarkupError(f"unknown key '{key}' in span '{source}'", key, SPAN.key_names)
        if spec.choices and value not in spec.choices:
            raise MarkupError(f"{key} '{value}' in span '{source}': expected "
                              f"{' or '.join(spec.choices)}", value, spec.choices)
        values[key] = value
        pos = m.end()
    return values


def _span_size(value: str, size: float, source: str) -> float:
    """A span's size as a share of the element's `size`: `140%`, or a length (`8pt`, `3mm`)."""
    try:
        if value.endswith("%"):
            scale = float(value[:-1]) / 100
        else:
            scale = parse_absolute(value, "size") / size if size > 0 else float("nan")
    except ValueError:
        scale = float("nan")
    if not 0 < scale <= MAX_SPAN_SIZE:  # nan too
        raise MarkupError(f"size '{value}' in span '{source}': expected a size like 8pt, 3mm or 140% "
                          f"(above zero, at most {MAX_SPAN_SIZE:.0%} of the text's)", value, [])
    return scale


def plain(text: str, glyphs: Mapping[str, str]) -> str:
    """Markup as a player reads it, for names outside the card (file names, manifests, Tabletop
    Simulator): `**`/`*` and spans' brackets and attributes dropped (their words kept), escapes
    undone, a glyph icon replaced by its character (`glyphs`, by icon name: `E:flat-sign: Bass` →
    "E♭ Bass"), a picture or symbol left out, and runs of spaces made one."""
    parts: list[str] = []
    for line in text.replace("&shy;", "").replace(SHY, "").split("\n"):
        spans, closes = _span_marks(line) if "]{" in line else ({}, {})
        pos = 0
        while (m := _INLINE.search(line, pos)) is not None:
            parts.append(line[pos:m.start()])
            pos = m.end()
            if m.group(1):
                parts.append(m.group(1))
            elif m.group(4):
                parts.append(glyphs.get(m.group(4), ""))
            elif m.group(5) and m.start() not in spans:
                parts.append("[")
            elif m.group(6):
                if m.start() in closes:
                    pos = closes[m.start()]
                else:
                    parts.append("]")
        parts.append(line[pos:] + "\n")
    return " ".join("".join(parts).split())


@from_fonts
@functools.lru_cache(maxsize=RUNS_CACHE)
def _runs(text: str, family: Family, style: str, fonts: FontSet,
          shaping: Shaping = PLAIN) -> tuple[tuple[Run, ...], frozenset[str]]:
    """Split text into runs by the font that has each character (primary font first), each run
    shaped (`_shaped`); and the characters no font has."""
    primary = family.file(style)
    has = primary.has
    # the primary font draws it all (most words); a soft hyphen, of no width, goes with it
    if all([has(char) or char in " \u00a0\u00ad" for char in text]):
        return ((_shaped(primary, text, shaping),) if text else ()), frozenset()
    missing: set[str] = set()
    runs: list[Run] = []
    current: FontFile | None = None
    chars: list[str] = []
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
        else:
            if current is not None:
                runs.append(_shaped(current, "".join(chars), shaping))
            current, chars = font, [char]
    if current is not None:
        runs.append(_shaped(current, "".join(chars), shaping))
    return tuple(runs), frozenset(missing)


@from_fonts
@functools.lru_cache(maxsize=RUNS_CACHE)  # a broken word's parts recur at every size the fitter tries
def _shaped(font: FontFile, text: str, shaping: Shaping = PLAIN) -> Run:
    """`text` in `font` shaped by HarfBuzz: kerned, with the font's ligatures and, for scripts
    that need it, joined and reordered; each glyph placed from the run's start."""
    visible = text.replace(SHY, "")  # a soft hyphen where the line does not break is nothing
    result = shape(visible, font.path, features=shaping.features, language=shaping.language)
    return Run(font, text, result.width, glyphs=result.glyphs, shaping=shaping)


def _placed(pieces: list[Run]) -> list[GlyphRun]:
    """The glyphs of runs set one after another: each run's, where it starts (em from the first's)."""
    placed: list[GlyphRun] = []
    start = 0.0
    for run in pieces:  # in em of the runs' own size: a span's width is in the element's
        placed.append((start, run.glyphs))
        start += run.width / run.look.scale if run.look else run.width
    return placed


@from_fonts
@functools.lru_cache(maxsize=RUNS_CACHE)
def _span_runs(text: str, family: Family, style: str, fonts: FontSet, span: _Span,
               shaping: Shaping = PLAIN) -> tuple[tuple[Run, ...], frozenset[str]]:
    """`_runs` in a span's look; with small caps, the font's own (OpenType `smcp`) if it has them,
    else lower-case letters as capitals in its smaller look."""
    if span.caps and substitutes(family.file(style).path, "smcp"):
        runs, missing = _runs(text, family, style, fonts, shaping._replace(features=(*shaping.features, "smcp")))
        return tuple(replace(r, width=r.width * span.look.scale, look=span.look) for r in runs), missing
    if not span.caps:
        runs, missing = _runs(text, family, style, fonts, shaping)
        return tuple(replace(r, width=r.width * span.look.scale, look=span.look) for r in runs), missing
    out: list[Run] = []
    missing_all: set[str] = set()
    for small, chars in itertools.groupby(text, str.islower):  # lower-case letters, and the rest
        chunk = "".join(chars)
        look = span.small if small else span.look
        runs, missing = _runs(chunk.upper() if small else chunk, family, style, fonts, shaping)
        out += [replace(r, width=r.width * look.scale, look=look) for r in runs]
        missing_all |= missing
    return tuple(out), frozenset(missing_all)


@from_fonts
@functools.lru_cache(maxsize=RUNS_CACHE)
def _spaced_word(text: str, family: Family, style: str, fonts: FontSet,
                 shaping: Shaping = PLAIN) -> tuple[Word, frozenset[str]]:
    """A word followed by a space, all in one style; and the characters no font has."""
    runs, missing = _runs(text, family, style, fonts, shaping)
    return Word.of(runs, _runs(" ", family, style, fonts, shaping)[0][0]), missing


def wrap(lines: tuple[HardLine, ...] | list[HardLine], width_em: float,
         wrap_lines: bool, hyphenate: str | None = None, scaled: bool = True,
         hyphenating: bool = True) -> tuple[list[SetLine], bool]:
    """Break hard lines into lines no wider than `width_em`, filling each in turn (greedy); False
    if some word is too wide. (`scaled`: whether some span is larger than the text, which each
    line's height then follows.) It gives the fewest lines; `total_fit` then chooses among the
    breaks that give as few.

    A word that does not fit the rest of its line is broken there, if it can be (`Breaking`: at a
    soft hyphen, or, with a language to `hyphenate` in, after a hyphen it has or where that
    language's dictionary allows; without `hyphenating`, only after its own hyphens), before it
    is moved to the next line; so is a word too wide for a line of its own, as often as it takes."""
    out: list[SetLine] = []
    fits = True
    limit = width_em + 1e-9
    for hard in lines:
        indent = _indent(hard)
        produced: list[list[Word]] = []
        current: list[Word] = []
        used, space = indent, 0.0  # space: after the line's last word
        for word in hard.words:
            # the width the line is judged by is the width it keeps: one sum, so that a word that
            # passed the test never overflows afterwards (fit_lines relies on it)
            after = used + space + word.width
            if wrap_lines and after > limit:
                broken = Breaking.of(word, hyphenate, hyphenating)
                while after > limit:
                    head = broken.head(limit - used - space) if broken is not None else None
                    if head is not None:  # the head ends this line, the rest goes on to the next
                        current.append(head)
                    elif not current:  # alone on its line and not to be broken (further): it overflows
                        if broken is not None:
                            word = broken.rest()
                            after = used + space + word.width
                        break
                    produced.append(current)
                    current, used, space = [], indent, 0.0
                    if broken is not None:
                        if broken.overflows(limit - used - space):
                            continue  # the rest is clearly wider than a line: broken again, unshaped
                        word = broken.rest()
                    after = used + space + word.width
            current.append(word)
            used, space = after, word.space
            if used > limit:
                fits = False
        produced.append(current)
        _add_lines(out, hard, produced, indent, scaled)
    return out, fits


def _indent(hard: HardLine) -> float:
    """How far a hard line's lines are indented (em): a bullet item's, past its bullet."""
    return hard.bullet.width + hard.bullet.pieces[0].font.advance(" ") * 1.5 if hard.bullet else 0.0


def _add_lines(out: list[SetLine], hard: HardLine, produced: list[list[Word]], indent: float, scaled: bool) -> None:
    """A hard line's lines, as words, put after `out`'s as set lines: its bullet on the first, and
    the gap before a paragraph."""
    gap = PARAGRAPH_GAP if hard.paragraph_start and out else 0.0
    for i, words in enumerate(produced):
        out.append(SetLine(tuple(words), indent, hard.bullet if i == 0 else None, gap if i == 0 else 0.0,
                           max([word.scale for word in words]) if scaled and words else 1.0))


def total_fit(lines: tuple[HardLine, ...] | list[HardLine], width_em: float, hyphenate: str | None = None,
              scaled: bool = True, hyphenating: bool = True, balance: bool = False) -> list[SetLine] | None:
    """The hard lines broken into lines no wider than `width_em` at the best breaks for each
    paragraph as a whole (`linebreak.best_breaks`: the fewest lines, then the least ragged, a
    hyphen the costliest break, `balance`d lines for centred text and titles); words break where
    `wrap` would break them. None where a paragraph is left to `wrap` (a word wider than a
    line, a paragraph too long to search)."""
    out: list[SetLine] = []
    for hard in lines:
        indent = _indent(hard)
        words = hard.words
        if sum([word.width + word.space for word in words]) - (words[-1].space if words else 0.0) <= \
                width_em - indent + 1e-9:
            _add_lines(out, hard, [list(words)], indent, scaled)  # one line: nothing to choose
            continue
        if any(word.width > width_em - indent + 1e-9 for word in words) or \
                len(words) + sum(len(_breaks_of(word, hyphenate, hyphenating)) for word in words) > MAX_BREAKS:
            return None  # a word broken over several lines, or a paragraph too long to search: greedy
        cuts = [_cuts(word, hyphenate, hyphenating) for word in words]
        chosen = best_breaks([word.width for word in words], [word.space for word in words],
                             [cut for cut, _ in cuts], width_em - indent, balance, _glue(words))
        if chosen is None:
            return None
        produced: list[list[Word]] = []
        first, rest = 0, None  # the next line's first whole word, and the rest of a broken word before it
        for end in chosen:
            line = [rest] if rest is not None else []
            line.extend(words[first:end.word + (1 if end.cut < 0 else 0)])
            rest = None
            if end.cut >= 0:
                head, rest = cuts[end.word][1](end.cut)
                line.append(head)
            first = end.word + 1
            produced.append(line)
        _add_lines(out, hard, produced or [[]], indent, scaled)
    return out


HYPHEN_COST = 60.0  # a break the dictionary allows: a costly last resort (linebreak's costs)
SOFT_HYPHEN_COST = 30.0  # where the writer put a soft hyphen
OWN_HYPHEN_COST = 10.0  # after the word's own hyphen: no hyphen added, the line still ends in one


def _cuts(word: Word, hyphenate: str | None,
          hyphenating: bool) -> tuple[tuple[Cut, ...], Callable[[int], tuple[Word, Word]]]:
    """Where `word` may break (as `Breaking` breaks it), as linebreak's `Cut`s, and how to get the
    head and the rest of each as words."""
    broken = Breaking.of(word, hyphenate, hyphenating) if _breaks_of(word, hyphenate, hyphenating) else None
    if broken is None:
        return (), _no_parts
    parts = [broken.parts(j) for j in range(len(broken.known.found))]
    soft = SHY in broken.text
    cuts = tuple(Cut(head.width, rest.width,
                     (SOFT_HYPHEN_COST if soft else HYPHEN_COST) if add else OWN_HYPHEN_COST)
                 for (head, rest), (_, _, add) in zip(parts, broken.known.found))
    return cuts, parts.__getitem__


LEADING_MARK = 40.0  # linebreak's cost of a line starting with a word that is all punctuation ("· Aussetzen")
INITIAL = 80.0  # of a line ending in or just before an initial ("Guy T." / "Schafer", "Guy" / "T. Schafer")
_INITIAL = re.compile(r"(?:\w\.){1,2}")  # "T.", "J.S."


def _glue(words: tuple[Word, ...]) -> list[float]:
    """What a break after each word costs besides its line's raggedness: before a word of
    punctuation alone (a "·" between two headings, a dash), which belongs with the word before
    it; either side of an initial, which belongs with the names it stands between."""
    glue = [0.0] * len(words)
    for i, word in enumerate(words):
        if _INITIAL.fullmatch(word.text.strip()):
            glue[i] += INITIAL
            if i:
                glue[i - 1] += INITIAL
        if i and _is_mark(word.text):
            glue[i - 1] += LEADING_MARK
    return glue


def _is_mark(text: str) -> bool:
    """Whether a word is punctuation alone, not a symbol (which may well start a line)."""
    text = text.strip()
    return bool(text) and not any(char.isalnum() or unicodedata.category(char) == "So" for char in text)


def _breaks_of(word: Word, hyphenate: str | None, hyphenating: bool) -> tuple[tuple[int, int, bool], ...]:
    """Where a word of one font may break (`breaks`); none for a word of several, or with an icon."""
    if word.font is None:
        return ()
    return breaks("".join([piece.text for piece in word.pieces]), hyphenate, hyphenating)  # type: ignore[union-attr]


def _no_parts(j: int) -> tuple[Word, Word]:
    raise IndexError(j)


class _WordBreaks(NamedTuple):
    """What breaking a word over lines needs, made once a word (`_word_breaks`): its breaks, where
    each ends and the letters before it, and, where its glyphs say, the pen's position at each
    character (em), which tells a part clearly too wide without shaping it."""

    found: tuple[tuple[int, int, bool], ...]  # (end of the head, start of the rest, hyphen added)
    cuts: list[int]  # each break's end of the head
    letters: list[int]  # the letters before each position of the word
    head_letters: list[int]  # the letters before each break's end of the head
    head_ends: list[float] | None  # the pen at the end of each break's head with its hyphen, at most
    high: list[float] | None  # the pen at each position of the word, at least (inside a ligature: its end)
    width: float  # the whole word's


@from_fonts
@functools.lru_cache(maxsize=BREAKING_CACHE)
def _word_breaks(text: str, font: FontFile, shaping: Shaping, hyphenate: str | None,
                 hyphenating: bool = True) -> _WordBreaks | None:
    """A word's `_WordBreaks`, or None if it has no break (`hyphenating`: as `breaks` says)."""
    found = breaks(text, hyphenate, hyphenating)
    if not found:
        return None
    letters = letters_before(text)
    cuts = [cut for cut, _, _ in found]
    pens = _pens(text, font, shaping)
    if pens is None:
        return _WordBreaks(found, cuts, letters, [letters[cut] for cut in cuts], None, None, 0.0)
    low, high, width = pens
    # a head's right end: the pen where it is cut, and its hyphen; each the least of its own
    # and those of the later breaks, so that they are in order, and none is more than it may be
    hyphen = _shaped(font, HYPHEN, shaping).width
    ends = [low[cut] + hyphen if add else low[cut] for cut, _, add in found]
    for j in range(len(ends) - 2, -1, -1):
        if ends[j] > ends[j + 1]:
            ends[j] = ends[j + 1]
    return _WordBreaks(found, cuts, letters, [letters[cut] for cut in cuts], ends, high, width)


def _pens(text: str, font: FontFile, shaping: Shaping) -> tuple[list[float], list[float], float] | None:
    """Where the pen is at each position of the word `text` (0 to its length, em from its start,
    in reading order), and its width: its runs of one direction (by the bidirectional algorithm;
    most words are one run) shaped one by one and put one after another in reading order, which
    is how wide each part of the word is, whatever order they are seen in. At a position inside
    a glyph cluster (a ligature), `low` is where the cluster starts and `high` where the next one
    does. A soft hyphen, not shaped, is where the character after it is. None where the glyphs
    do not add up to the characters."""
    visible = text.replace(SHY, "") if SHY in text else text
    runs = [(visible, 0)]  # each run and its level
    if right_to_left(visible):
        levels = bidi_levels(visible)
        runs, start = [], 0
        for level, same in itertools.groupby(levels):
            end = start + sum(1 for _ in same)
            runs.append((visible[start:end], level))
            start = end
    whole = _shaped(font, visible, shaping) if runs == [(visible, 0)] else None
    if whole is not None and len(whole.glyphs) == len(visible) and \
            all([len(glyph.chars) == 1 for glyph in whole.glyphs]):  # left to right, a glyph a character: most words
        low = [glyph.x for glyph in whole.glyphs]
        low.append(whole.width)
        high = low
    else:
        low, high, pen = [], [], 0.0
        for part, level in runs:
            if len(runs) > 1:  # shaped by itself, a run's direction is its own: one, else it is not measured
                levels = bidi_levels(part) if right_to_left(part) else (0,)
                if len(set(levels)) != 1:
                    return None
                level = levels[0]
            run = _shaped(font, part, shaping)
            clusters = _clusters(run, level % 2 == 1)
            if clusters is None or sum(chars for _, _, chars in clusters) != len(part):
                return None
            for start_x, end_x, chars in clusters:
                low += [pen + start_x] * chars
                high += [pen + start_x] + [pen + end_x] * (chars - 1)
            pen += run.width
        low.append(pen)
        high.append(pen)
    if visible is not text:  # the shaped characters' pens, at each position of the text
        at = [0, *itertools.accumulate(char != SHY for char in text)]
        low, high = [low[i] for i in at], [high[i] for i in at]
    return low, high, low[-1]


def _clusters(run: Run, rtl: bool) -> list[tuple[float, float, int]] | None:
    """The glyph clusters of `run`, set in one direction (`rtl`: right to left, its glyphs in the
    opposite order to its characters), in reading order: where each starts and ends (em from the
    run's reading start) and how many characters it stands for. None if its first glyph stands
    for none."""
    glyphs, width = run.glyphs, run.width
    firsts = [i for i, glyph in enumerate(glyphs) if glyph.chars]  # each cluster's first glyph, from the left
    if glyphs and firsts[:1] != [0]:
        return None
    clusters = []
    for k, i in enumerate(firsts):
        left, right = glyphs[i].x, glyphs[firsts[k + 1]].x if k + 1 < len(firsts) else width
        chars = len(glyphs[i].chars)
        clusters.append((width - right, width - left, chars) if rtl else (left, right, chars))
    return clusters[::-1] if rtl else clusters


class Breaking:
    """A word too wide for its line, broken over as many lines as it takes: each `head` the latest
    part that fits its room, taken off the front, the `rest` what is left, with the word's space.

    A word breaks where `breaks` says it may (its soft hyphens, else its own hyphens and the
    dictionary's breaks), found once for the whole word: a rest breaks at the word's breaks after
    it, each head keeping at least MIN_LETTERS letters. (A rest is not a new word: the dictionary
    hyphenates words, so no pattern for a word's start is applied to it, and a word whose soft
    hyphens are used up breaks no further.) A word of several fonts or with an icon, or (for the
    dictionary) with digits or looking like an address, is not broken.

    Only what may fit a line is shaped: the pen's position along the word (`_pens`, found once a
    word) tells a head or a rest wider than the room, with HEAD_SLACK em to spare for kerning
    and joining where it is cut, and the heads left are tried from the last; so a word costs time
    in proportion to its length, where trying every head and shaping every rest cost its cube (a
    German compound of 1,500 letters took 17 s). Where the pen is not known (glyphs that do not
    add up to the characters), parts of doubling length from the rest's start are shaped."""

    def __init__(self, word: Word, text: str, font: FontFile, shaping: Shaping, known: _WordBreaks) -> None:
        self.word, self.text, self.font, self.shaping, self.known = word, text, font, shaping, known
        self.start = 0  # where the rest begins in the text
        self.next = 0  # the first of `known.found` not yet taken
        self._rest: Word | None = word

    @classmethod
    def of(cls, word: Word, hyphenate: str | None, hyphenating: bool = True) -> Breaking | None:
        """The word to break, or None if it cannot be (several fonts, an icon, no break; without
        `hyphenating`, no hyphen of its own)."""
        font = word.font
        if font is None:  # an icon, or a change of font (bold inside the word, a fallback font)
            return None
        text = "".join(piece.text for piece in word.pieces)  # all runs, in the one font
        if not breaks(text, hyphenate, hyphenating):
            return None
        shaping = word.pieces[0].shaping  # type: ignore[union-attr]  (a word of one font: runs)
        known = _word_breaks(text, font, shaping, hyphenate, hyphenating)
        return cls(word, text, font, shaping, known) if known is not None else None

    def head(self, room: float) -> Word | None:
        """The longest head that fits `room` (em), taken off the word (ending in a hyphen unless it
        ends in one already); None if none does."""
        known, start = self.known, self.start
        # the breaks left that keep two letters in the head: first to last (not included)
        first = bisect.bisect_left(known.head_letters, known.letters[start] + MIN_LETTERS, self.next)
        last = len(known.found)
        if known.head_ends is not None and known.high is not None:
            # a head whose end, less what kerning at the break may take back, is past the room
            # does not fit, unshaped; of the others, the latest that fits (most often the last)
            last = bisect.bisect_right(known.head_ends, room + HEAD_SLACK + known.high[start], first, last)
            for j in range(last - 1, max(first, last - TRIES) - 1, -1):
                run = self._head(j)
                if run.width <= room + 1e-9:
                    return self._take(j, run)
            last = max(first, last - TRIES)
        if first >= last:
            return None
        tried: dict[int, Run | None] = {}

        def fits(j: int) -> bool:
            if j not in tried:
                run = self._head(j)
                tried[j] = run if run.width <= room + 1e-9 else None
            return tried[j] is not None

        chosen = self._latest(first, last, fits)
        return self._take(chosen, tried[chosen]) if chosen is not None else None  # type: ignore[arg-type]

    def _take(self, j: int, run: Run) -> Word:
        """The head of break j, shaped as `run`, taken off the word."""
        self.start, self.next, self._rest = self.known.found[j][1], j + 1, None
        return Word((run,), None, run.width, 0.0, run.text, self.font)

    def _head(self, j: int) -> Run:
        return self._head_of(self.start, j)

    def _head_of(self, start: int, j: int) -> Run:
        cut, _, add = self.known.found[j]
        text = self.text[start:cut].replace(SHY, "") + (HYPHEN if add else "")
        if not add and text.endswith("-") and self.font.has(HARD_HYPHEN):
            # the word's own hyphen ends the line: as U+2010, which a PDF reader keeps when it
            # joins the lines ("British-style"), where it drops a "-" there as a hyphenation
            text = text[:-1] + HARD_HYPHEN
        return _shaped(self.font, text, self.shaping)

    def _latest(self, first: int, last: int, fits: Callable[[int], bool]) -> int | None:
        """The latest of the breaks first to last (not included) whose head fits, taking heads to
        fit up to some break and not after: found by trying heads of doubling length from the
        rest's start (each shaped, and none much longer than the one that fits), then halving."""
        good, bad = first - 1, last
        reach = REACH
        while good + 1 < bad:
            j = max(bisect.bisect_right(self.known.cuts, self.start + reach, good + 1, bad) - 1, good + 1)
            if not fits(j):
                bad = j
                break
            good, reach = j, 2 * reach
        while bad - good > 1:
            middle = (good + bad) // 2
            if fits(middle):
                good = middle
            else:
                bad = middle
        return good if good >= first else None

    def parts(self, j: int) -> tuple[Word, Word]:
        """The word broken at its break j alone, as `head` and `rest` would give it: the head with
        its hyphen, and the rest with the word's space (for `total_fit`, which breaks a word
        once)."""
        run = self._head_of(0, j)
        rest = _shaped(self.font, self.text[self.known.found[j][1]:], self.shaping)
        return (Word((run,), None, run.width, 0.0, run.text, self.font),
                Word.of((rest,), self.word.space_after))

    def overflows(self, room: float) -> bool:
        """Whether the rest, not yet shaped, is clearly wider than `room` (em), by more than
        HEAD_SLACK, told without shaping it whole: False if it may fit, or is shaped."""
        known, start = self.known, self.start
        if self._rest is not None:
            return False
        if known.high is not None:
            return known.width - known.high[start] - HEAD_SLACK > room
        reach = REACH
        while start + reach < len(self.text):
            if _shaped(self.font, self.text[start:start + reach], self.shaping).width - HEAD_SLACK > room:
                return True
            reach *= 2
        return False

    def rest(self) -> Word:
        """What is left of the word, shaped, with its space."""
        if self._rest is None:
            self._rest = Word.of((_shaped(self.font, self.text[self.start:], self.shaping),), self.word.space_after)
        return self._rest


def is_title(h: float, size: float, line_height: float, wrap_lines: bool) -> bool:
    """Whether a text box is a title, for hyphenate `auto`: one that does not wrap, or that holds
    fewer than TITLE_LINES lines at its largest size. Titles are not hyphenated unless asked."""
    if not wrap_lines:
        return True
    room = h / size - ASCENT - DESCENT  # em left for the line steps below the first line
    return room < (TITLE_LINES - 1) * line_height - 1e-9


def block_height(lines: list[SetLine], line_height: float, scaled: bool = True) -> float:
    """Height of the set lines in em: top of the first line's caps to the last line's descenders
    (`scaled`: whether a line may be taller for a span larger than the text)."""
    if not lines:
        return 0.0
    gaps = sum([line.gap_before for line in lines])
    height = (len(lines) - 1 + gaps) * line_height + ASCENT + DESCENT
    if scaled and any(line.scale != 1.0 for line in lines):  # spans larger than the text make their lines taller
        height += (ASCENT * (lines[0].scale - 1) + DESCENT * (lines[-1].scale - 1)
                   + sum(_taller(above, below, line_height) for above, below in zip(lines, lines[1:])))
    return height


def _taller(above: SetLine, below: SetLine, line_height: float) -> float:
    """How much further apart two lines' baselines are (em) for their largest spans: the line
    above's descent and the line below's ascent grow with them, as a browser's line boxes do."""
    return line_height * (DESCENT * (above.scale - 1) + ASCENT * (below.scale - 1))


def line_width(line: SetLine) -> float:
    width = line.indent
    for i, word in enumerate(line.words):
        width += word.width
        if i < len(line.words) - 1 and word.space_after:
            width += word.space_after.width
    return width


def fit_lines(lines: tuple[HardLine, ...] | list[HardLine], w: float, h: float, size: float, min_size: float,
              line_height: float, shrink: bool, wrap_lines: bool, hyphenate: str | None = None,
              balance: bool = False) -> tuple[list[SetLine], float, bool]:
    """The lines set at the largest size in [`min_size`, `size`] at which they fit w × h, found to
    SIZE_STEP (0.01 pt); else at `min_size`, and False. Without `shrink`, at `size` whether they
    fit or not.

    Hyphenating (in the language `hyphenate`, or at soft hyphens) is the last resort: the size is
    found first with lines broken between words (and after a word's own hyphens); only if that
    does not fit, or has to shrink, is it found again with words hyphenated, and that is taken if
    it fits where the other does not or at a size HYPHENATED_GAIN times larger, or where neither
    fits and some word is wider than its line unhyphenated. The lines at the
    size taken are then broken at the best breaks for each paragraph (`total_fit`), as many as
    the fitting found, balanced where `balance` (centred text, titles)."""
    plain = _largest_fit(lines, w, h, size, min_size, line_height, shrink, wrap_lines, hyphenate, False)
    chosen, hyphenating = plain, False
    too_wide = max([line_width(line) for line in plain[0]], default=0.0) * plain[1] > w + 1e-9
    if wrap_lines and (not plain[2] or plain[1] * HYPHENATED_GAIN <= size) and _may_hyphenate(lines, hyphenate) and \
            (too_wide or not _too_tall(sum([word.width for hard in lines for word in hard.words]), w, h,
                                       min_size if shrink else size, line_height)):
        # (text too tall for the box at any size, whose words all fit its width, fits hyphenated no better)
        hyphenated = _largest_fit(lines, w, h, size, min_size, line_height, shrink, wrap_lines, hyphenate, True)
        if hyphenated[2] and (not plain[2] or hyphenated[1] >= plain[1] * HYPHENATED_GAIN) or \
                not hyphenated[2] and too_wide:
            chosen, hyphenating = hyphenated, True
    set_lines, chosen_size, fitted = chosen
    if wrap_lines and len(set_lines) > 1:
        scaled = any(line.scale != 1.0 for line in set_lines)
        better = total_fit(lines, w / chosen_size, hyphenate, scaled, hyphenating, balance)
        if better is not None and len(better) <= len(set_lines) and \
                (not fitted or block_height(better, line_height, scaled) * chosen_size <= h + 1e-9):
            set_lines = better
    return set_lines, chosen_size, fitted


HYPHENATED_GAIN = 1.08  # hyphenated text is taken over text broken between words only if this much larger


def _may_hyphenate(lines: tuple[HardLine, ...] | list[HardLine], hyphenate: str | None) -> bool:
    """Whether hyphenating could break a word the lines' breaks between words do not."""
    return hyphenate is not None or any(SHY in word.text for hard in lines for word in hard.words)


def _largest_fit(lines: tuple[HardLine, ...] | list[HardLine], w: float, h: float, size: float, min_size: float,
                 line_height: float, shrink: bool, wrap_lines: bool, hyphenate: str | None,
                 hyphenating: bool) -> tuple[list[SetLine], float, bool]:
    """The lines wrapped (`wrap`, greedily: the fewest lines) at the largest size in [`min_size`,
    `size`] at which they fit w × h, found to SIZE_STEP (0.01 pt); else at `min_size`, and False.
    Without `shrink`, at `size` whether they fit or not.

    The sizes tried are `size - k·SIZE_STEP` (each computed afresh, never by repeated subtraction,
    so the same box gives the same float), the last of them `min_size` itself, and the largest
    that fits is found by bisection on k: the size chosen fits and the one a step larger does
    not. The top size is tried first (most text fits at once); the bisection then runs between
    two steps found from a guess at the size, by the box's height and width (`_bracket`).

    That it is the largest of all rests on fitting being monotone in the size: a smaller size is
    a wider measure in em, and greedy wrapping then ends each line at the same word or a later
    one, so there are no more lines and the block is no taller. Breaking inside words (always the
    latest break that fits) keeps to that in practice, though a word's breaks are not evenly
    spread, so it is not proven there. Text with spans larger than itself is not monotone (a line
    is as tall as its largest span, and a wider measure can bring two large spans onto two lines
    where they shared one): there every 0.25 pt is tried from the top, then the step between the
    last that did not fit and the first that did is bisected.

    A size at which the words laid side by side would already fill more lines than the box holds
    (`_too_tall`) is not wrapped: it does not fit. So text far too long for its box is wrapped
    once, at `min_size`, and text with spans only near the size it fits at."""
    steps = _steps(size, min_size, shrink)
    tried: dict[int, tuple[list[SetLine], bool]] = {}
    scaled = any(word.scale != 1.0 for hard in lines for word in hard.words)  # spans larger than the text

    def at(k: int) -> float:
        return min_size if k == steps > 0 else size - k * SIZE_STEP

    words = sum([word.width for hard in lines for word in hard.words]) if wrap_lines else 0.0  # em, side by side

    def fits(k: int) -> bool:
        if k not in tried:
            s = at(k)
            if (0 < k or scaled) and k < steps and _too_tall(words, w, h, s, line_height):
                tried[k] = [], False  # not wrapped (it does not fit); the top size is, without spans, for its lines
            else:
                set_lines, width_ok = wrap(lines, w / s, wrap_lines, hyphenate, scaled, hyphenating)
                tried[k] = set_lines, width_ok and block_height(set_lines, line_height, scaled) * s <= h + 1e-9
        return tried[k][1]

    if steps and _too_tall(words, w, h, min_size, line_height) and not fits(steps):
        chosen = steps  # as the search would end: no size fits
    elif fits(0) or steps == 0:
        chosen = 0
    elif scaled:
        coarse = max(1, round(0.25 * PT / SIZE_STEP))
        chosen = next((k for k in (*range(coarse, steps, coarse), steps) if fits(k)), steps)
        too_big = max(0, chosen - coarse) if chosen < steps else (steps - 1) // coarse * coarse
        if fits(chosen):
            chosen = _bisect(fits, too_big, chosen)
    else:
        # Where to start looking: the size at which the text's height would be the box's, which
        # grows with the size for a line of its own, and with its square for text that wraps (as
        # its area does); and for a line too wide (a word that cannot break, a title that does
        # not wrap) at most the size that makes it as wide as the box
        height = block_height(tried[0][0], line_height) * size
        ratio = h / height if height > 0 and h > 0 else min_size / size
        one_line = len(tried[0][0]) == 1 or not wrap_lines  # then the guess is all but exact
        guess = size * (ratio if one_line else math.sqrt(ratio))
        widest = max([line_width(line) for line in tried[0][0]], default=0.0)
        if widest * size > w:
            guess = min(guess, w / widest)
        too_big, chosen = _bracket(fits, min(max(round((size - guess) / SIZE_STEP), 1), steps), steps,
                                   2 if one_line else max(1, steps // 16))
        chosen = _bisect(fits, too_big, chosen) if fits(chosen) else steps  # steps: nothing fits, the smallest size
    set_lines, fitted = tried[chosen]
    return set_lines, at(chosen), fitted


def _too_tall(words: float, w: float, h: float, size: float, line_height: float) -> bool:
    """Whether text whose words are `words` em wide (side by side, at the element's size) is
    taller than the box at `size` however it wraps, and so at any larger size: it has at least
    as many lines as its words' width over a line's (each line allowed HEAD_SLACK em more, for
    what breaking a word at its end may take back), each at least one line step below the last.
    The fitter wraps at no size this tells, whose wrap could not fit, so the size it chooses is
    the same: 100,000 characters in a card's box are wrapped once, at the smallest size (they
    were wrapped at the largest too, and with a span larger than the text at every 0.25 pt
    between); with a span, in a 400 mm box, 6 times instead of 25."""
    measure = w / size + HEAD_SLACK
    if words <= 0 or measure <= 0:
        return False
    return ((words / measure - 1) * line_height + ASCENT + DESCENT) * size > h * (1 + 1e-6) + 1e-9


def _bracket(fits: Callable[[int], bool], guess: int, steps: int, stride: int) -> tuple[int, int]:
    """Two steps, the first too big (step 0 is) and the second one that fits, or `steps`, from a
    guess: from it up or down in strides that double, starting at `stride`."""
    if fits(guess):
        while True:  # larger sizes, until one does not fit
            probe = guess - stride
            if probe <= 0:
                return 0, guess
            if not fits(probe):
                return probe, guess
            guess, stride = probe, 2 * stride
    while True:  # smaller sizes, until one fits (or the smallest is reached)
        probe = min(guess + stride, steps)
        if probe == steps or fits(probe):
            return guess, probe
        guess, stride = probe, 2 * stride


def _bisect(fits: Callable[[int], bool], too_big: int, chosen: int) -> int:
    """The step between `too_big` (which does not fit) and `chosen` (which does) that fits with
    the one before it not fitting."""
    while chosen - too_big > 1:
        middle = (too_big + chosen) // 2
        if fits(middle):
            chosen = middle
        else:
            too_big = middle
    return chosen


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
             ink: str = "auto", colors: Mapping[str, Color] | None = None, hyphenate: str | None = None,
             shaping: Shaping = PLAIN, direction: str = "auto") -> Fitted:
    """Set `text` in the box (x, y, w, h), shrinking from `size` towards `min_size` until it fits;
    with a language to `hyphenate` in (`de`, `en-GB`), breaking words by its dictionary first. A
    span's `color` may name one of `colors` (the deck's palette and colour words). Runs are shaped
    as `shaping` says; lines run in the paragraph's `direction` (`auto`: from its first letter)."""
    # the cache key holds only the icons the text may name, so texts without icons are shared
    # between decks, and a deck's other icons do not matter; likewise colour names and the size
    # (which a span's size in pt is a share of) only for a text with spans
    named = tuple((name, icons.get(name)) for name in sorted(set(_ICON_NAMES.findall(text))))
    spans = "]{" in text
    color_names = tuple(sorted((colors or {}).items(), key=_name)) if spans else ()
    family, fonts = _one_of(family), _one_of(fonts)
    try:
        items, chosen_size, fits, missing = _set_text(text, tuple(box), family, style, fonts, named, size,
                                                      min_size, color, align, valign, line_height, shrink,
                                                      wrap_lines, ink, color_names, hyphenate, shaping, direction)
    except _UnknownIcon as exc:  # suggest from every icon, not just the ones the text names
        message, name, _named = exc.args
        raise MarkupError(message, name, sorted(icons)) from None
    return Fitted(list(items), chosen_size, fits, set(missing))  # the caller's own copies


def _name(item: tuple[str, Color]) -> str:
    return item[0]


_FontsT = TypeVar("_FontsT", Family, FontSet)
_ONE_OF: dict[Family | FontSet, Family | FontSet] = {}  # one of each: a build has a handful


def _one_of(value: _FontsT) -> _FontsT:
    """The first of the equal families (or font sets) met: each deck loads its own, equal to the
    next deck's, and the caches below find a key made of the very same objects without comparing
    their fonts one by one (which every look-up of a word did)."""
    return _ONE_OF.setdefault(value, value)  # type: ignore[return-value]


def cache_clear() -> None:
    """Forget every box set, text parsed and word measured (to compare them with fresh ones)."""
    for cache in (_set_text, _parse, _spaced_word, _span_runs, _runs, _shaped, _word_breaks, breaks):
        cache.cache_clear()


@from_fonts
@functools.lru_cache(maxsize=SET_CACHE)
def _set_text(text: str, box: tuple[float, ...], family: Family, style: str, fonts: FontSet,
              named: tuple[tuple[str, IconDraw | None], ...], size: float, min_size: float, color: Color,
              align: str, valign: str, line_height: float, shrink: bool, wrap_lines: bool,
              ink: str, colors: tuple[tuple[str, Color], ...] = (), hyphenate: str | None = None,
              shaping: Shaping = PLAIN, direction: str = "auto") -> tuple[tuple[Item, ...], float, bool, frozenset[str]]:
    x, y, w, h = box
    lines, missing = _parse(text, family, style, fonts, named, colors, size if "]{" in text else 0.0, shaping)
    set_lines, chosen_size, fits = fit_lines(lines, w, h, size, min_size, line_height, shrink, wrap_lines,
                                             hyphenate, align == "center" or is_title(h, size, line_height, wrap_lines))
    # the paragraph's level (1: its lines run right to left); and its words are put in visual
    # order only where there is something to turn round (text without right-to-left letters,
    # nearly all, is left to right unless asked otherwise)
    rtl = right_to_left(text)
    paragraph = base_level(plain(text, {}) if rtl else "", direction)
    order = paragraph if paragraph or rtl else None
    return (tuple(_draw(set_lines, x, y, w, h, chosen_size, color, align, valign, line_height, ink, order)),
            chosen_size, fits, missing)


@from_fonts
@functools.lru_cache(maxsize=PARSE_CACHE)
def _parse(text: str, family: Family, style: str, fonts: FontSet,
           named: tuple[tuple[str, IconDraw | None], ...], colors: tuple[tuple[str, Color], ...] = (),
           size: float = 0.0, shaping: Shaping = PLAIN) -> tuple[tuple[HardLine, ...], frozenset[str]]:
    missing: set[str] = set()
    lines = parse(text, family, style, fonts, {name: icon for name, icon in named if icon}, missing,
                  dict(colors), size, shaping)
    return tuple(lines), frozenset(missing)


def _draw(lines: list[SetLine], x: float, y: float, w: float, h: float, size: float, color: Color,
          align: str, valign: str, line_height: float, ink: str, order: int | None = None) -> list[Item]:
    """The set lines as face items. With `order` (the paragraph's level: 0 left to right, 1 right
    to left), each line's words are put in visual order first (`visual_words`)."""
    total = block_height(lines, line_height) * size
    top = y + {"top": 0.0, "middle": (h - total) / 2, "bottom": h - total}[valign]
    baseline = top + ASCENT * size * (lines[0].scale if lines else 1.0)
    items: list[Item] = []
    above: SetLine | None = None
    for line in lines:
        if above is not None:
            baseline += (1 + line.gap_before) * line_height * size
            if above.scale != 1.0 or line.scale != 1.0:
                baseline += _taller(above, line, line_height) * size
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
        words = line.words if order is None else visual_words(line.words, order)
        # the space between two words seen side by side: the one after whichever comes first in reading
        spaces = [w.space_after for w in words[:-1]] if order is None else \
            [a.space_after or b.space_after for a, b in zip(words, words[1:])]
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


def visual_words(words: tuple[Word, ...], paragraph: int) -> tuple[Word, ...]:
    """A line's words as they are seen, left to right, each with its pieces so too: a word's (or
    a piece's) level is its first letter's by the bidirectional algorithm over the line (numbers
    in Hebrew, a Latin name in Arabic, a digit in a fallback font), and the stretches at a level
    or above are turned round (`shaping.visual_order`). Each run's own glyphs are in visual order
    already."""
    levels = bidi_levels("".join(word.text for word in words), "rtl" if paragraph else "ltr")
    items, at, seen = [], 0, []  # the levels of word, space, word, space, …: a space may part two runs
    for word in words:
        items.append(levels[at] if at < len(levels) else paragraph)
        pieces, piece_levels = word.pieces, []
        for piece in pieces:
            piece_levels.append(levels[at] if at < len(levels) else paragraph)
            at += len(piece.text) if isinstance(piece, Run) else 0
        items.append(levels[at] if at < len(levels) else paragraph)  # its space's
        at += len(word.space_after.text) if word.space_after else 0
        if len(pieces) > 1 and max(piece_levels) > 0:
            word = word._replace(pieces=tuple(pieces[i] for i in visual_order(piece_levels)))
        seen.append(word)
    return tuple(seen[i // 2] for i in visual_order(items) if i % 2 == 0)


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
