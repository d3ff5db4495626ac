"""Markup into words: the text a deck writes, read into lines of shaped runs and icons.

``**bold**``, ``*italic*``, a blank line between paragraphs, ``- `` at the start of a line for a
bullet, ``:name:`` for an inline icon, ``[words]{key=value …}`` for a span of another colour, size,
font, weight, style or small caps (Pandoc's bracketed spans, keys in `model.keys.SPAN`), and a
backslash to write ``*``, ``:``, ``[`` or ``]`` as is (`escape` writes any text so). A soft hyphen
(U+00AD, or ``&shy;``) is where a word may break: invisible and of no width unless a line ends there.
A letter the text's font lacks is set in a bundled fallback or any family the deck names.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..colors import NAMED, Color, parse_color
from ..face import Item, Paint, Text
from .fonts import Family, FontFile, FontSet, from_fonts
from ..model.keys import SPAN
from ..shapes import shape as symbol
from .shaping import substitutes
from ..units import parse_absolute
from .hyphenate import SHY
from .runs import PLAIN, RUNS_CACHE, HardLine, IconDraw, Look, Piece, Run, Shaping, Word, shaped

BULLET = "•"
_INLINE = re.compile(r"\\([*:\\\[\]])|(\*\*)|(\*)|:([a-z][a-z0-9_-]*):|(\[)|(\])")
_ATTRS = re.compile(r"\{([^{}\n]*)\}")  # a span's attributes, right after its `]`
_ATTR = re.compile(r"""\s*([A-Za-z][\w-]*)=("[^"]*"|'[^']*'|[^\s"']+)\s*""")
SMALL_CAPS = 0.7  # synthesised small caps: capitals at this share of the size, for lower-case letters
MAX_SPAN_SIZE = 10.0  # a span's size, as a share of the element's, is at most this (1000 %)
# every name a `:name:` could refer to, overlapping or escaped: a superset of the icons a text uses
_ICON_NAMES = re.compile(r"(?=:([a-z][a-z0-9_-]*):)")
_MARKUP = re.compile(r"([\\*:\[\]])")  # what `escape` puts a backslash before


class MarkupError(ValueError):
    """A mistake in markup: args are the message, the word at fault, and the words it may have meant."""


class UnknownIcon(MarkupError):
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
        for kind, _start, _end, *value in _tokens(line):
            if kind in ("text", "escape"):
                self._text(value[0])
            elif kind == "bold":
                self.bold = not self.bold
            elif kind == "italic":
                self.italic = not self.italic
            elif kind == "icon":
                name = value[0]
                if name not in self.icons:
                    raise UnknownIcon(f"unknown icon ':{name}:'", name, sorted(self.icons))
                icon = self.icons[name]
                if self.span is not None:  # drawn at the span's size, in its colour
                    look = self.span.look
                    icon = replace(icon, width=icon.width * look.scale, look=look)
                self._current.append(icon)
            elif kind == "open":
                self._open(*value)
            else:
                self._close()
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


def _tokens(line: str) -> Iterator[tuple[Any, ...]]:
    """One line of markup as it reads, in order, each token with where it is in the line (start,
    end): ("text", …, chunk) (a bracket that opens or closes no span kept), ("escape", …, char),
    ("bold", …), ("italic", …), ("icon", …, name), ("open", …, attributes, source) and
    ("close", …) for a span. The one reading of markup, which setting, `plain` and `slips` share."""
    spans, closes = _span_marks(line) if "]{" in line else ({}, {})
    pos = 0
    while (m := _INLINE.search(line, pos)) is not None:
        start = m.start()
        if start > pos:
            yield "text", pos, start, line[pos:start]
        pos = m.end()
        if m.group(1):
            yield "escape", start, pos, m.group(1)
        elif m.group(2):
            yield "bold", start, pos
        elif m.group(3):
            yield "italic", start, pos
        elif m.group(4):
            yield "icon", start, pos, m.group(4)
        elif m.group(5):
            yield ("open", start, pos, *spans[start]) if start in spans else ("text", start, pos, "[")
        elif start in closes:
            pos = closes[start]
            yield "close", start, pos
        else:
            yield "text", start, pos, "]"
    if pos < len(line):
        yield "text", pos, len(line), line[pos:]


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


_SPAN_KEYS = re.compile(r"\{\s*[A-Za-z][\w-]*=")  # what begins a span's attributes, `{color=`
_OPEN_ICON = re.compile(r"(?<![\w\\]):([a-z][a-z0-9_-]*)(?![a-z0-9_:-])")  # `:fire` without its closing colon
SNIPPET = 20  # characters of the text a slip is said before


def slips(text: str, icons: Collection[str] = ()) -> tuple[str, ...]:
    """The markup slips of `text` that print other than meant, each said as what the text "has":
    a `**` or `*` never closed (the rest of the text, or of its span, bold or italic; at the very
    end it prints nothing), a span's `{key=…}` belonging to no `[…]` (a bracket missing: it prints
    as it is) and `:name` of one of `icons` without its closing colon (printed as it is). Every
    unpaired `*` is one, a footnote's "5*" too: it never prints as a star (`\\*` does). Brackets,
    colons and braces that are plainly words (`[1]`, `10:30`, `{x}`) are none."""
    found = [slip for slip in _slips(text.replace("&shy;", SHY)) if not slip[1] or slip[1] in icons]
    return tuple(dict.fromkeys(message for message, _icon in found))


@functools.lru_cache(maxsize=RUNS_CACHE)
def _slips(text: str) -> tuple[tuple[str, str], ...]:
    """`slips` for every icon name: (message, the icon's name or "")."""
    if not any(mark in text for mark in "*{:"):
        return ()
    out: list[tuple[str, str]] = []
    outer = _Toggles("text")
    for line in text.strip("\n").split("\n"):
        stripped = line.strip()
        if stripped.startswith("- "):
            stripped = stripped[2:].lstrip()
        out += _line_slips(stripped, outer)
    out += outer.unclosed()
    return tuple(out)


class _Toggles:
    """Where the `**` and `*` left open are, in the text or in one span: (the line from there on)."""

    def __init__(self, within: str) -> None:
        self.within = within
        self.bold: str | None = None
        self.italic: str | None = None

    def toggle(self, kind: str, rest: str) -> None:
        if kind == "bold":
            self.bold = rest if self.bold is None else None
        else:
            self.italic = rest if self.italic is None else None

    def unclosed(self, cut: int = 0) -> list[tuple[str, str]]:
        """The marks left open, each said with the words after it (less the last `cut` characters
        of the line: where a span ends)."""
        out = []
        for mark, rest, look in (("**", self.bold, "bold"), ("*", self.italic, "italic")):
            if rest is None:
                continue
            rest = rest[:len(rest) - cut]
            if rest.strip():
                words = rest.strip()
                shown = words[:SNIPPET] + ("…" if len(words) > SNIPPET else "")
                out.append((f"'{mark}' that is never closed: the rest of the {self.within} is {look}, "
                            f"from '{shown}'", ""))
            else:
                escaped, stars = mark.replace("*", "\\*"), "stars" if len(mark) > 1 else "a star"
                out.append((f"'{mark}' at the end of the {self.within} that closes nothing: it prints nothing "
                            f"(write {escaped} for {stars})", ""))
        return out


def _line_slips(line: str, outer: _Toggles) -> list[tuple[str, str]]:
    """The slips of one line of markup (its `_tokens`), bold and italic kept in `outer` between
    lines and in a span's own toggles within it."""
    out: list[tuple[str, str]] = []
    toggles = [outer]
    after_bracket = False  # the token before was an escaped "]": `\]{…}` is written to print as it is
    for kind, start, end, *value in _tokens(line):
        if kind in ("bold", "italic"):
            toggles[-1].toggle(kind, line[end:])
        elif kind == "open":
            toggles.append(_Toggles("span"))
        elif kind == "close":
            out += toggles.pop().unclosed(len(line) - start)
        elif kind == "text":
            chunk = value[0]
            for attrs in _SPAN_KEYS.finditer(chunk):
                if attrs.start() == 0 and after_bracket:
                    continue
                braces = _ATTRS.match(chunk, attrs.start())
                source = braces.group(0) if braces is not None else chunk[attrs.start():].split()[0]
                out.append((f"span keys '{source}' that follow no '[words]': a '[', ']' or '}}' is missing, "
                            "so they print as they are", ""))
            for icon in _OPEN_ICON.finditer(chunk):
                name = icon.group(1)
                out.append((f"':{name}' without its closing colon: it prints as it is (write ':{name}:')", name))
        after_bracket = kind == "escape" and value == ["]"]
    return out


def plain(text: str, glyphs: Mapping[str, str]) -> str:
    """Markup as a player reads it, for names outside the card (file names, manifests, Tabletop
    Simulator): `**`/`*` and spans' brackets and attributes dropped (their words kept), escapes
    undone, a glyph icon replaced by its character (`glyphs`, by icon name: `E:flat-sign: Bass` →
    "E♭ Bass"), a picture or symbol left out, and runs of spaces made one."""
    parts: list[str] = []
    for line in text.replace("&shy;", "").replace(SHY, "").split("\n"):
        for kind, _start, _end, *value in _tokens(line):
            if kind in ("text", "escape"):
                parts.append(value[0])
            elif kind == "icon":
                parts.append(glyphs.get(value[0], ""))
        parts.append("\n")
    return " ".join("".join(parts).split())


@from_fonts
@functools.lru_cache(maxsize=RUNS_CACHE)
def _runs(text: str, family: Family, style: str, fonts: FontSet,
          shaping: Shaping = PLAIN) -> tuple[tuple[Run, ...], frozenset[str]]:
    """Split text into runs by the font that has each character (primary font first), each run
    shaped (`shaped`); and the characters no font has."""
    primary = family.file(style)
    has = primary.has
    # the primary font draws it all (most words); a soft hyphen, of no width, goes with it
    if all([has(char) or char in " \u00a0\u00ad" for char in text]):
        return ((shaped(primary, text, shaping),) if text else ()), frozenset()
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
                runs.append(shaped(current, "".join(chars), shaping))
            current, chars = font, [char]
    if current is not None:
        runs.append(shaped(current, "".join(chars), shaping))
    return tuple(runs), frozenset(missing)


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


def escape(text: str) -> str:
    """`text` as markup that prints it as it is (a title, a name): a backslash before every
    character markup would read (`\\`, `*`, `:`, `[`, `]`)."""
    return _MARKUP.sub(r"\\\1", text)


def icon_names(text: str) -> list[str]:
    """Every name a `:name:` in `text` could refer to, overlapping or escaped: a superset of the
    icons it uses (what a cache of set texts is keyed by)."""
    return _ICON_NAMES.findall(text)


def cache_clear() -> None:
    """Forget every word measured."""
    _slips.cache_clear()
    for cache in (_spaced_word, _span_runs, _runs):
        cache.cache_clear()
