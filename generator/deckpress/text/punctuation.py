"""Smart punctuation: a text's typewriter marks as a typesetter would print them, per language.

`smarten(text, lang)` turns straight quotes into the language's curly ones ("…" → “…” in English,
„…“ in German, « … » in French), an apostrophe into ’ (don’t, ’90s), `--` into an en dash and
`---` into an em dash, `...` into …, the space between a number and its unit into a no-break
space (5 mm, 10 %), and, where the language wants one (French), puts a no-break space before
`: ; ! ?`. It runs on a text element's text once the fields are in, and leaves the markup of
text/markup.py as it is: `**`, `*`, `:icon:` and backslash escapes are never changed, only
looked through (a quote before `**bold**` still opens).

The languages are a table (`QUOTES`, `SPACE_BEFORE`): a language not in it gets English quotes,
a regional one (`de-CH`, `fr_CA`) its own entry if it has one, else its language's.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import TypeVar

NBSP = "\u00a0"
_T = TypeVar("_T")

# (double open, double close, single open, single close); the single close is the apostrophe too
QUOTES: dict[str, tuple[str, str, str, str]] = {
    "en": ("“", "”", "‘", "’"),
    "de": ("„", "“", "‚", "‘"),
    "de-ch": ("«", "»", "‹", "›"),
    "fr": ("«" + NBSP, NBSP + "»", "‹" + NBSP, NBSP + "›"),
    "es": ("«", "»", "“", "”"),
    "it": ("«", "»", "“", "”"),
    "nl": ("“", "”", "‘", "’"),
    "pl": ("„", "”", "‚", "’"),
    "cs": ("„", "“", "‚", "‘"),
    "da": ("»", "«", "›", "‹"),
    "sv": ("”", "”", "’", "’"),
    "fi": ("”", "”", "’", "’"),
    "ru": ("«", "»", "„", "“"),
    "pt": ("“", "”", "‘", "’"),
}
SPACE_BEFORE: dict[str, str] = {"fr": ":;!?"}  # marks the language sets off with a no-break space
APOSTROPHE = "’"

# units a number is kept on a line with: the symbols of SI and of print, and a few more
# ("in", "l" and "x" are left out: "1 in 3", "2 l" and "3 x" read as words more often than not)
UNITS = ("mm", "cm", "m", "km", "pt", "px", "g", "kg", "mg", "ml", "s", "ms", "min", "h", "%", "‰",
         "°", "°C", "°F", "€", "$", "£", "dpi", "Hz", "kHz", "×")

# the markup of text/markup.py that smarten must leave alone: an escape, `**` or `*`, an icon
_MARKUP = re.compile(r"\\[*:\\]|\*\*?|:[a-z][a-z0-9_-]*:")
# stand-ins for the markup while the text is worked on: Unicode noncharacters, never in a text
_SEEN_THROUGH = "\ufdd0"  # `*`, `**`: as if not there
_WORDLIKE = "\ufdd1"  # an icon, an escape: stands for a word's character
_STANDINS = _SEEN_THROUGH + _WORDLIKE

_OPENS_AFTER = " \t\n\u00a0([{<–—-/"  # a quote after these (or at the start) opens, unless a space follows
_QUOTE = re.compile("['\"]")
_WORTH_A_LOOK = re.compile(r"['\"]|--|\.\.\.|\d |[:;!?]")
_UNIT = re.compile(r"(?<=\d) (?=(?:" + "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True))
                   + r")(?![^\W_]))")


@functools.lru_cache(maxsize=4096)  # a template's texts recur on every card
def smarten(text: str, lang: str) -> str:
    """`text` (markup) with smart punctuation for the language `lang` (`en`, `de`, `fr-CA` …)."""
    if not _WORTH_A_LOOK.search(text):  # most texts: nothing to do
        return text
    kept: list[str] = []  # the markup, in order, to put back

    def stand_in(m: re.Match[str]) -> str:
        kept.append(m.group())
        return _SEEN_THROUGH if m.group().startswith("*") else _WORDLIKE

    work = _MARKUP.sub(stand_in, text)
    work = work.replace("---", "—").replace("--", "–").replace("...", "…")
    work = _quotes(work, _entry(QUOTES, lang) or QUOTES["en"])
    work = _UNIT.sub(NBSP, work)
    before = _entry(SPACE_BEFORE, lang) or ""
    if before:
        work = _space_before(work, before)
    pieces = iter(kept)
    return re.sub(f"[{_STANDINS}]", lambda m: next(pieces), work)


def _entry(table: Mapping[str, _T], lang: str) -> _T | None:
    """The table's entry for a language: its own (`de-ch`), its language's (`de`), English's."""
    code = lang.lower().replace("_", "-")
    return table.get(code, table.get(code.split("-")[0], table.get("en")))


def _quotes(text: str, quotes: tuple[str, str, str, str]) -> str:
    """Straight quotes to curly ones: one opens after a space, a bracket, a dash or at the start
    (markup looked through) if no space follows it, else it closes; a ' between letters, or before a number's digits
    (’90s), is an apostrophe."""
    double_open, double_close, single_open, single_close = quotes
    out: list[str] = []  # the text up to each quote, and the quote as it prints
    double_open_now = False  # whether the last double quote opened: a lone one between spaces does the other
    at = 0
    for found in _QUOTE.finditer(text):
        i, char = found.start(), found.group()
        chunk = text[at:i]
        # what was printed just before it: a character, or the quote printed last
        before = chunk[-1] if chunk else out[-1] if out else ""
        if chunk:
            out.append(chunk)
        at = i + 1
        j = i - 1
        while j >= 0 and text[j] == _SEEN_THROUGH:
            j -= 1
        prev = text[j] if j >= 0 else " "
        k = i + 1
        while k < len(text) and text[k] == _SEEN_THROUGH:
            k += 1
        following = text[k] if k < len(text) else " "
        after_space = prev in _OPENS_AFTER or before in (double_open, single_open)
        opens = after_space and not following.isspace()
        if char == '"':
            if after_space and following.isspace():  # " between spaces (French typists' « a »)
                opens = not double_open_now
            out.append(double_open if opens else double_close)
            double_open_now = opens
        elif opens and following.isdigit():
            out.append(APOSTROPHE)  # ’90s, ’n’
        elif opens:
            out.append(single_open)
        elif following.isalpha() and (prev.isalpha() or prev == _WORDLIKE):
            out.append(APOSTROPHE)  # don’t, l’eau
        else:
            out.append(single_close)
    out.append(text[at:])
    joined = "".join(out)
    if NBSP in double_open:  # « a » from « a »: the quotes' own no-break spaces, not two spaces
        for mark in (double_open, single_open):
            joined = joined.replace(mark + " ", mark)
        for mark in (double_close, single_close):
            joined = joined.replace(" " + mark, mark)
    return joined


def _space_before(text: str, marks: str) -> str:
    """A no-break space before each of `marks` that ends a word (`Attention !`, `Note :`), in
    place of a space there or where there was none; not inside `10:30` or `http://`."""
    pattern = re.compile(r"(?<=[^\s\u00a0" + re.escape(marks) + r"]) ?([" + re.escape(marks) + r"])(?=[\s"
                         + re.escape(marks) + r"»" + _STANDINS + r"]|$)")
    return pattern.sub(lambda m: NBSP + m.group(1), text)
