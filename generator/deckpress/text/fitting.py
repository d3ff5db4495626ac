"""Shrinking text to fit its box: the largest size, to 0.01 pt, at which its lines fit, found by
bisection from a guess at the size; hyphenating only where that would not fit, or would shrink it
much; and the lines at that size broken where they read best (`lines.total_fit`).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ..units import PT
from .hyphenate import SHY
from .lines import HEAD_SLACK, boundary, total_fit, wrap
from .runs import HardLine, SetLine

ASCENT = 0.76  # cap height plus room for accents, in em: where the first baseline sits
DESCENT = 0.24
SIZE_STEP = 0.01 * PT  # shrink-to-fit finds the largest size that fits to this much
TITLE_LINES = 3  # hyphenate `auto`: a box that holds fewer lines than this at its largest size is a title


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
                   + sum(taller(above, below, line_height) for above, below in zip(lines, lines[1:])))
    return height


def taller(above: SetLine, below: SetLine, line_height: float) -> float:
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
            chosen = boundary(too_big, chosen, fits)
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
        chosen = boundary(too_big, chosen, fits) if fits(chosen) else steps  # steps: nothing fits, the smallest size
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


def _steps(size: float, min_size: float, shrink: bool) -> int:
    """How many SIZE_STEPs below `size` the smallest size fit_lines may choose is (0: `size` alone)."""
    if not shrink or min_size >= size:
        return 0
    return max(1, math.ceil((size - min_size) / SIZE_STEP - 1e-6))
