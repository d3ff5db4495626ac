"""Words into lines no wider than a measure: filled in turn (`wrap`: the fewest lines, which the
fitter searches sizes with), and broken where they read best (`total_fit`: linebreak's choice of
breaks for each paragraph as a whole, as many lines). A word wider than its line breaks over
several (`Breaking`): at a soft hyphen, after its own hyphens, or where the language's dictionary
allows (`hyphenate`), the dictionary only when hyphenating (the fitter's last resort).
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
import unicodedata
from collections.abc import Callable
from typing import NamedTuple

from .fonts import FontFile, from_fonts
from .shaping import bidi_levels, right_to_left
from .hyphenate import MIN_LETTERS, SHY, breaks, letters_before
from .linebreak import MAX_BREAKS, Cut, best_breaks
from .runs import HardLine, Run, SetLine, Shaping, Word, shaped

PARAGRAPH_GAP = 0.45  # extra space between paragraphs, in line heights
HYPHEN = "-"  # what a broken word ends with
HARD_HYPHEN = "\u2010"  # a word's own hyphen, where a line ends after it
HEAD_SLACK = 0.5  # em: a part of a word is at least its characters' width in the word less this (`Breaking`)
TRIES = 4  # heads tried one by one back from the last the pen allows, before halving (`Breaking.head`)
REACH = 32  # characters: the first part of a word shaped where its pen is not known (`Breaking`)
BREAKING_CACHE = 4096  # words kept with what breaking them over lines needs


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
    hyphen = shaped(font, HYPHEN, shaping).width
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
    whole = shaped(font, visible, shaping) if runs == [(visible, 0)] else None
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
            run = shaped(font, part, shaping)
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
        return shaped(self.font, text, self.shaping)

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
        good = boundary(good, bad, lambda j: not fits(j)) - 1
        return good if good >= first else None

    def parts(self, j: int) -> tuple[Word, Word]:
        """The word broken at its break j alone, as `head` and `rest` would give it: the head with
        its hyphen, and the rest with the word's space (for `total_fit`, which breaks a word
        once)."""
        run = self._head_of(0, j)
        rest = shaped(self.font, self.text[self.known.found[j][1]:], self.shaping)
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
            if shaped(self.font, self.text[start:start + reach], self.shaping).width - HEAD_SLACK > room:
                return True
            reach *= 2
        return False

    def rest(self) -> Word:
        """What is left of the word, shaped, with its space."""
        if self._rest is None:
            self._rest = Word.of((shaped(self.font, self.text[self.start:], self.shaping),), self.word.space_after)
        return self._rest


def cache_clear() -> None:
    """Forget every word's breaks."""
    for cache in (_word_breaks, breaks):
        cache.cache_clear()


def boundary(low: int, high: int, past: Callable[[int], bool]) -> int:
    """The first of low + 1 … high that is `past` where low is not and high is, the two told
    apart once between them: found by halving (a word's last head that fits, the fitter's
    largest size that does)."""
    while high - low > 1:
        middle = (low + high) // 2
        if past(middle):
            high = middle
        else:
            low = middle
    return high
