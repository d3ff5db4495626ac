"""Text shaping: which glyphs a line of text becomes in a font, and where each one goes.

HarfBuzz (uharfbuzz) does the shaping, as browsers and Pango do: kerning, ligatures, Arabic
joining, Indic reordering and mark positioning, with the font's default features on ("kern",
"liga", "calt", … as OpenType says for the script) and any others a text asks for ("smcp",
"onum"; "-liga" turns one off). The script and direction of each run come from its characters.

Before shaping, a line is cut into runs of one direction by the Unicode bidirectional algorithm
(UBA, UAX #9) — the implicit rules, which are what card text needs (no embedding or isolate
controls), paired brackets (N0) among them — each run shaped in its own direction, and the runs
put in visual order. python-bidi only reorders characters, which would break Arabic joining, so
the levels are worked out here (tests/test_text_shaping_bidi.py holds them to python-bidi's).

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

from .fonts import from_fonts, hb_font

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
def _font(ref: str) -> tuple[hb.Font, float]:
    """HarfBuzz's font for a font reference (at its axis values), and the size of its design unit in em."""
    font = hb_font(ref)
    return font, 1.0 / font.face.upem


@functools.lru_cache(maxsize=256)
def _features(features: tuple[str, ...]) -> dict[str, bool]:
    return {name.lstrip("-+"): not name.startswith("-") for name in features}


@from_fonts
@functools.lru_cache(maxsize=SHAPE_CACHE)
def shape_run(text: str, font_path: str, rtl: bool = False, features: tuple[str, ...] = (),
              language: str | None = None) -> Shaped:
    """`text` in one direction (right to left if `rtl`) shaped in the font, its glyphs in visual
    order, placed from the text's start."""
    if not text:
        return _new(Shaped, ((), 0.0))
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


@from_fonts
@functools.lru_cache(maxsize=SHAPE_CACHE)
def line_runs(text: str, font_path: str) -> tuple[tuple[float, tuple[Glyph, ...]], ...]:
    """A line of text shaped in the font, as the glyph runs shaped text carries (`face.Text`): a
    run a word and a run a space, each where the ones before leave the pen, as compose sets a line
    (a right-to-left line: one run, in visual order). What draws a text made without them (a
    staff's glyphs, an icon, a page label), so every printed word is drawn by its shaped glyphs;
    a word met again is the same tuple, which the PDF backend turns into operators once."""
    if right_to_left(text):
        return ((0.0, shape(text, font_path).glyphs),)
    runs, pen = [], 0.0
    for part in _WORDS.findall(text):
        run = shape_run(part, font_path)
        runs.append((pen, run.glyphs))
        pen += run.width
    return tuple(runs)


@from_fonts
@functools.lru_cache(maxsize=4096)  # a page's label is measured, then placed by its width
def line_width(text: str, font_path: str) -> float:
    """How far `line_runs` of the text reach, in em: its words' and spaces' advances summed."""
    if right_to_left(text):
        return shape(text, font_path).width
    return sum(shape_run(part, font_path).width for part in _WORDS.findall(text))


_WORDS = re.compile(r" +|[^ ]+")


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

#: Unicode's paired brackets, each opening bracket followed by its closing one: the Bidi_Paired_Bracket
#: and Bidi_Paired_Bracket_Type properties of BidiBrackets.txt in the Unicode Character Database
#: 14.0, the Unicode of Python 3.11's `unicodedata`, which lacks these two properties (the same 64
#: pairs in 15.0 and 15.1, Python 3.12's and 3.13's); © Unicode, Inc., used under the Unicode
#: licence (https://www.unicode.org/license.txt). They are the characters of category Ps or Pe,
#: type ON and Bidi_Mirrored (tests/test_text_shaping_bidi.py checks that against the `unicodedata` in
#: use, so a Unicode with new brackets is noticed); which closes which is Bidi_Mirroring_Glyph's,
#: which `unicodedata` lacks too.
BRACKET_PAIRS = ("()[]{}\u0f3a\u0f3b\u0f3c\u0f3d\u169b\u169c\u2045\u2046\u207d\u207e\u208d\u208e"
                 "\u2308\u2309\u230a\u230b\u2329\u232a\u2768\u2769\u276a\u276b\u276c\u276d\u276e\u276f"
                 "\u2770\u2771\u2772\u2773\u2774\u2775\u27c5\u27c6\u27e6\u27e7\u27e8\u27e9\u27ea\u27eb"
                 "\u27ec\u27ed\u27ee\u27ef\u2983\u2984\u2985\u2986\u2987\u2988\u2989\u298a\u298b\u298c"
                 "\u298d\u2990\u298f\u298e\u2991\u2992\u2993\u2994\u2995\u2996\u2997\u2998\u29d8\u29d9"
                 "\u29da\u29db\u29fc\u29fd\u2e22\u2e23\u2e24\u2e25\u2e26\u2e27\u2e28\u2e29\u2e55\u2e56"
                 "\u2e57\u2e58\u2e59\u2e5a\u2e5b\u2e5c\u3008\u3009\u300a\u300b\u300c\u300d\u300e\u300f"
                 "\u3010\u3011\u3014\u3015\u3016\u3017\u3018\u3019\u301a\u301b\ufe59\ufe5a\ufe5b\ufe5c"
                 "\ufe5d\ufe5e\uff08\uff09\uff3b\uff3d\uff5b\uff5d\uff5f\uff60\uff62\uff63")
#: each opening and each closing bracket → what names its pair: the opening bracket, canonically
#: decomposed, so that U+2329 〈 and U+232A 〉 pair with their canonical equivalents U+3008 〈 and
#: U+3009 〉 as BD16 asks
_OPENING = {o: unicodedata.normalize("NFD", o) for o in BRACKET_PAIRS[::2]}
_CLOSING = {c: unicodedata.normalize("NFD", o) for o, c in zip(BRACKET_PAIRS[::2], BRACKET_PAIRS[1::2])}
BRACKET_STACK = 63  # BD16: the openings a line's brackets are matched through; past that, no more pairs


def bracket_pairs(text: str, kinds: Sequence[str] | None = None) -> list[tuple[int, int]]:
    """The bracket pairs of a line (UAX #9's BD16), as (opening, closing) indexes in the order of
    their openings: each closing bracket pairs with the nearest opening one of its kind still
    open, which closes the openings after it too; a closing bracket that finds none is no pair.
    `kinds`, each character's bidirectional type as resolved so far, counts only brackets still
    ON (BD14, BD15); past `BRACKET_STACK` openings at once, no further pair is looked for."""
    stack: list[tuple[str, int]] = []  # the openings not yet closed: their pair and index
    pairs = []
    for i, char in enumerate(text):
        if char in _OPENING:
            if kinds is not None and kinds[i] != "ON":
                continue
            if len(stack) == BRACKET_STACK:
                break
            stack.append((_OPENING[char], i))
        elif char in _CLOSING and (kinds is None or kinds[i] == "ON"):
            pair = _CLOSING[char]
            for depth in range(len(stack) - 1, -1, -1):
                if stack[depth][0] == pair:
                    pairs.append((stack[depth][1], i))
                    del stack[depth:]
                    break
    return sorted(pairs)


def _direction(kind: str) -> str | None:
    """The direction a resolved type counts as for the neutral rules (N0–N2): numbers as R."""
    return "L" if kind == "L" else "R" if kind in ("R", "EN", "AN") else None


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
    neutral (N0 for paired brackets, N1, N2) and implicit (I1, I2) rules, and L1 for whitespace at
    the line's end."""
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
    # N0: a pair of brackets takes the direction of what it holds, so both face the same way
    if any(char in _OPENING for char in text):
        _resolve_brackets(text, kinds, sos)
    # N1, N2: neutrals between two of a direction take it; others the paragraph's
    i = 0
    while i < len(kinds):
        if _direction(kinds[i]) is not None:
            i += 1
            continue
        j = i
        while j < len(kinds) and _direction(kinds[j]) is None:
            j += 1
        before = _direction(kinds[i - 1]) if i else sos
        after = _direction(kinds[j]) if j < len(kinds) else sos
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


def _resolve_brackets(text: str, kinds: list[str], embedding: str) -> None:
    """Rule N0 on `kinds` (resolved by W1–W7), in place, in a paragraph whose direction (and sos)
    is `embedding`. Each bracket pair in the order of its opening: holding a strong type of the
    embedding direction (numbers count as R), it takes that direction; holding only the other
    direction, it takes that one if the first strong type before it (or sos) is of that direction
    too, else the embedding direction; holding none, it is left to N1 and N2. Pairs are resolved
    one after another, so a pair sees the brackets resolved before it. Non-spacing marks right
    after a bracket that changed (ON since W1) change with it."""
    opposite = "L" if embedding == "R" else "R"
    for opening, closing in bracket_pairs(text, kinds):
        inside = {_direction(kind) for kind in kinds[opening + 1:closing]}
        if embedding in inside:  # N0 b
            resolved = embedding
        elif opposite in inside:  # N0 c: the context before the opening bracket decides
            before = embedding  # sos, unless a strong type comes first (walked back by index: no copy)
            for at in range(opening - 1, -1, -1):
                if found := _direction(kinds[at]):
                    before = found
                    break
            resolved = opposite if before == opposite else embedding
        else:  # N0 d: nothing strong inside
            continue
        for at in (opening, closing):
            kinds[at] = resolved
            at += 1
            while at < len(text) and unicodedata.bidirectional(text[at]) == "NSM":
                kinds[at] = resolved
                at += 1


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
