"""The pieces text is set from: a run of text in one font, shaped (`shaped`, HarfBuzz through
`shaping`), an inline icon, the word they make with the space after it, and the lines of words.

Runs are cached (a word recurs on every card, and a broken word's parts at every size the fitter
tries), by path and content: `fonts.reread_fonts` forgets them when a font is saved again.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from ..colors import Color
from ..face import Glyph, Item
from .fonts import FontFile, from_fonts
from .shaping import shape, shape_run
from .hyphenate import SHY

RUNS_CACHE = 65536  # words kept measured: more than a deck's vocabulary in each of its fonts


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


@from_fonts
@functools.lru_cache(maxsize=RUNS_CACHE)  # a broken word's parts recur at every size the fitter tries
def shaped(font: FontFile, text: str, shaping: Shaping = PLAIN) -> Run:
    """`text` in `font` shaped by HarfBuzz: kerned, with the font's ligatures and, for scripts
    that need it, joined and reordered; each glyph placed from the run's start."""
    visible = text.replace(SHY, "")  # a soft hyphen where the line does not break is nothing
    result = shape(visible, font.path, features=shaping.features, language=shaping.language)
    return Run(font, text, result.width, glyphs=result.glyphs, shaping=shaping)


def shaped_part(run: Run, start: int, end: int, rtl: bool) -> Run:
    """The characters `start` to `end` of a shaped run, shaped on their own in one direction (right
    to left if `rtl`): a part of a line at one bidirectional level, in the run's look."""
    text = run.text[start:end]
    result = shape_run(text.replace(SHY, ""), run.font.path, rtl, run.shaping.features, run.shaping.language)
    return Run(run.font, text, result.width * (run.look.scale if run.look else 1.0), run.look, result.glyphs,
               run.shaping)


def cache_clear() -> None:
    """Forget every run shaped."""
    shaped.cache_clear()
