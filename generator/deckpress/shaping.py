"""Text shaping: which glyphs a line of text becomes in a font, and where each one goes.

HarfBuzz (uharfbuzz) does the shaping, as browsers and Pango do: kerning, ligatures, Arabic
joining, Indic reordering and mark positioning, with the font's default features on ("kern",
"liga", "calt", … as OpenType says for the script) and any others a text asks for ("smcp",
"onum"; "-liga" turns one off). The script and direction of each run come from its characters.

Before shaping, a line is cut into runs of one direction by the Unicode bidirectional algorithm
(UBA, UAX #9) — the implicit rules, which are what card text needs (no embedding or isolate
controls) — each run shaped in its own direction, and the runs put in visual order. python-bidi
only reorders characters, which would break Arabic joining, so the levels are worked out here.

Every result is in em (1 em = the font size) and cached: a deck sets the same words again and again.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from bisect import bisect_right
from collections.abc import Sequence
from typing import NamedTuple

import uharfbuzz as hb

from .fonts import from_fonts

SHAPE_CACHE = 65536  # lines and words kept shaped: more than a deck's vocabulary in each of its fonts


class Glyph(NamedTuple):
    """One glyph of shaped text, where shaping put it. (A named tuple: as immutable as a frozen
    dataclass, and made several times faster, which counts at a glyph a letter.)"""

    gid: int  # glyph index in the font
    x: float  # em: the glyph's origin, right of the text's start (the pen there plus its offset)
    y: float  # em: the glyph's offset up from the baseline (a mark's)
    chars: str  # the characters it stands for: "ffi" for a ligature, "" for a cluster's glyphs after its first


class Shaped(NamedTuple):
    """Glyphs in visual order, left to right, and the width of the text (its advances summed, em)."""

    glyphs: tuple[Glyph, ...]
    width: float


@from_fonts
@functools.lru_cache(maxsize=64)
def _font(path: str) -> tuple[hb.Font, float]:
    """HarfBuzz's font for a file, and the size of its design unit in em."""
    face = hb.Face(hb.Blob.from_file_path(path))
    return hb.Font(face), 1.0 / face.upem


@functools.lru_cache(maxsize=256)
def _features(features: tuple[str, ...]) -> dict[str, bool]:
    return {name.lstrip("-+"): not name.startswith("-") for name in features}


@from_fonts
@functools.lru_cache(maxsize=SHAPE_CACHE)
def shape_run(text: str, font_path: str, rtl: bool = False, features: tuple[str, ...] = (),
              language: str | None = None) -> Shaped:
    """`text` in one direction (right to left if `rtl`) shaped in the font, its glyphs in visual
    order, placed from the text's start."""
    font, unit = _font(font_path)
    buf = hb.Buffer()
    buf.add_str(text)
    buf.guess_segment_properties()  # the script, from the characters
    buf.direction = "rtl" if rtl else "ltr"
    if language:
        buf.language = language
    if features:
        hb.shape(font, buf, _features(features))
    else:
        hb.shape(font, buf)
    infos = buf.glyph_infos
    clusters = [info.cluster for info in infos]
    if clusters == list(range(len(text))):  # a glyph a character, in order (most words)
        chars: Sequence[str] = text
    else:  # ligatures, clusters of several glyphs, right to left: a cluster's characters on its first glyph
        ends = sorted({*clusters, len(text)})
        chars = [text[c:ends[bisect_right(ends, c)]] if i == 0 or c != clusters[i - 1] else ""
                 for i, c in enumerate(clusters)]
    # the pen summed in the font's units (integers: exact), each glyph built by tuple.__new__ (C)
    # rather than the named tuple's keyword-taking __new__ (Python): this is most of shaping's Python
    glyphs, pen = [], 0
    for info, char, (dx, dy, advance, _) in zip(infos, chars, [p.position for p in buf.glyph_positions]):
        glyphs.append(_new(Glyph, (info.codepoint, (pen + dx) * unit, dy * unit, char)))
        pen += advance
    return _new(Shaped, (tuple(glyphs), pen * unit))


_new = tuple.__new__


@from_fonts
@functools.lru_cache(maxsize=256)
def substitutes(font_path: str, feature: str, sample: str = "abcdefghijklmnopqrstuvwxyz") -> bool:
    """Whether the font's OpenType `feature` changes the glyphs of `sample` (`smcp`: whether it has
    small capitals for the lower-case letters)."""
    plain, featured = shape_run(sample, font_path), shape_run(sample, font_path, False, (feature,))
    return [g.gid for g in plain.glyphs] != [g.gid for g in featured.glyphs]


def shape(text: str, font_path: str, *, features: tuple[str, ...] = (), language: str | None = None,
          direction: str = "auto") -> Shaped:
    """One line of text shaped in the font: cut into runs of one direction (`direction` is the
    paragraph's: "ltr", "rtl", or "auto", from its first strong character), each shaped, then
    put in visual order, one after another. (Each run is cached: `shape_run`.)"""
    if direction != "rtl" and not right_to_left(text):  # most text: one run, left to right
        return shape_run(text, font_path, False, features, language)
    levels = bidi_levels(text, direction)
    glyphs: list[Glyph] = []
    pen = 0.0
    for start, end in visual_runs(levels):
        run = shape_run(text[start:end], font_path, levels[start] % 2 == 1, features, language)
        glyphs += [g._replace(x=g.x + pen) for g in run.glyphs]
        pen += run.width
    return Shaped(tuple(glyphs), pen)


# --- the bidirectional algorithm's implicit rules ------------------------------------------------

_STRONG = {"L": "L", "R": "R", "AL": "R"}
#: the blocks of right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko, …, their presentation
#: forms, and the historic ones above U+FFFF): text without any is one left-to-right run
RIGHT_TO_LEFT = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff\U00010800-\U00010fff\U0001e800-\U0001efff"
                            "\u200f\u202b\u202e\u2067]")


def right_to_left(text: str) -> bool:
    """Whether `text` holds a character of a right-to-left script (or a right-to-left mark).
    ASCII text, most of what cards say, is told at once without the pattern."""
    return not text.isascii() and RIGHT_TO_LEFT.search(text) is not None


_NEUTRAL = {"B", "S", "WS", "ON", "BN", "LRE", "LRO", "RLE", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"}


def base_level(text: str, direction: str = "auto") -> int:
    """0 for a left-to-right paragraph, 1 for right to left: as asked, or by the first strong
    character (rules P2, P3), left to right when there is none."""
    if direction != "auto":
        return 1 if direction == "rtl" else 0
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind in _STRONG:
            return 0 if kind == "L" else 1
    return 0


def bidi_levels(text: str, direction: str = "auto") -> tuple[int, ...]:
    """The embedding level of each character (even: left to right), by UAX #9's weak (W1–W7),
    neutral (N1, N2) and implicit (I1, I2) rules, and L1 for whitespace at the line's end."""
    base = base_level(text, direction)
    sos = "R" if base else "L"
    kinds = [unicodedata.bidirectional(c) or "L" for c in text]
    # W1: a non-spacing mark takes the type of what it follows
    for i, kind in enumerate(kinds):
        if kind == "NSM":
            kinds[i] = kinds[i - 1] if i and kinds[i - 1] not in _NEUTRAL else ("ON" if i else sos)
    # W2, W3: European numbers after Arabic letters are Arabic numbers; AL is R
    last = sos
    for i, kind in enumerate(kinds):
        if kind in ("L", "R", "AL"):
            last = kind
        elif kind == "EN" and last == "AL":
            kinds[i] = "AN"
    kinds = ["R" if k == "AL" else k for k in kinds]
    # W4: one separator between two numbers of a kind joins them
    for i in range(1, len(kinds) - 1):
        before, after = kinds[i - 1], kinds[i + 1]
        if kinds[i] == "ES" and before == after == "EN":
            kinds[i] = "EN"
        elif kinds[i] == "CS" and before == after and before in ("EN", "AN"):
            kinds[i] = before
    # W5: terminators (%, $, …) next to European numbers are numbers
    for i, kind in enumerate(kinds):
        if kind == "ET":
            j = i
            while j < len(kinds) and kinds[j] == "ET":
                j += 1
            if (i and kinds[i - 1] == "EN") or (j < len(kinds) and kinds[j] == "EN"):
                for k in range(i, j):
                    kinds[k] = "EN"
    # W6: the other separators and terminators are neutral
    kinds = ["ON" if k in ("ES", "ET", "CS") else k for k in kinds]
    # W7: European numbers in left-to-right text are left to right
    last = sos
    for i, kind in enumerate(kinds):
        if kind in ("L", "R"):
            last = kind
        elif kind == "EN" and last == "L":
            kinds[i] = "L"
    # N1, N2: neutrals between two of a direction take it; others the paragraph's
    def direction_of(kind: str) -> str | None:
        return "L" if kind == "L" else "R" if kind in ("R", "EN", "AN") else None

    i = 0
    while i < len(kinds):
        if direction_of(kinds[i]) is not None:
            i += 1
            continue
        j = i
        while j < len(kinds) and direction_of(kinds[j]) is None:
            j += 1
        before = direction_of(kinds[i - 1]) if i else sos
        after = direction_of(kinds[j]) if j < len(kinds) else sos
        resolved = before if before == after else sos
        for k in range(i, j):
            kinds[k] = resolved
        i = j
    # I1, I2
    levels = []
    for kind in kinds:
        if base % 2 == 0:
            levels.append(base + (1 if kind == "R" else 2 if kind in ("AN", "EN") else 0))
        else:
            levels.append(base + (1 if kind in ("L", "EN", "AN") else 0))
    # L1: whitespace at the end of the line goes back to the paragraph's level
    end = len(text)
    while end and unicodedata.bidirectional(text[end - 1]) in ("WS", "S", "B", "BN"):
        end -= 1
        levels[end] = base
    return tuple(levels)


def visual_runs(levels: tuple[int, ...]) -> list[tuple[int, int]]:
    """The runs of one level, as (start, end) indexes, in visual order (`visual_order`)."""
    runs: list[tuple[int, int, int]] = []
    for i, level in enumerate(levels):
        if runs and runs[-1][2] == level:
            runs[-1] = (runs[-1][0], i + 1, level)
        else:
            runs.append((i, i + 1, level))
    return [runs[i][:2] for i in visual_order([level for _, _, level in runs])]  # type: ignore[misc]


def visual_order(levels: Sequence[int]) -> list[int]:
    """Items at these levels (words, runs) in visual order, as indexes: every stretch at a level
    or above is turned round, from the highest level down to the lowest odd one (rule L2)."""
    order = list(range(len(levels)))
    if not levels or max(levels) == 0:
        return order
    for level in range(max(levels), (min(levels) | 1) - 1, -1):
        i = 0
        while i < len(order):
            if levels[order[i]] >= level:
                j = i
                while j < len(order) and levels[order[j]] >= level:
                    j += 1
                order[i:j] = reversed(order[i:j])
                i = j
            else:
                i += 1
    return order
