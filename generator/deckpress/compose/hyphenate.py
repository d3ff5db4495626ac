"""Where a word may break across lines: soft hyphens, its own hyphens, and a language's dictionary.

The dictionaries are pyphen's (LibreOffice's hyphenation patterns, about 70 languages, pure
Python). compose/text.py's line breaker asks `breaks` for a word that does not fit its line and
takes the latest break whose head, with its hyphen, does.
"""

from __future__ import annotations

import functools
import re

import pyphen

SHY = "\u00ad"  # soft hyphen: a break the writer allows, drawn (as "-") only where a line breaks
MIN_LETTERS = 2  # a break leaves at least this many letters on either side: "a-" never stays, "-y" never goes
BREAKS_CACHE = 65536  # words kept with their breaks: more than a deck's vocabulary

_NOT_HYPHENATED = re.compile(r"[0-9/@\\_]|://|www\.")  # numbers, addresses, paths: not for the dictionary
_LETTERS = re.compile(r"[^\W\d_]+")  # a run of letters, which the dictionary hyphenates


@functools.lru_cache(maxsize=BREAKS_CACHE)
def breaks(text: str, lang: str | None) -> tuple[tuple[int, int, bool], ...]:
    """Where the word `text` may break, in order, as (end of the head, start of the rest, whether
    a hyphen is added), each leaving at least MIN_LETTERS letters either side.

    A word with soft hyphens breaks there and nowhere else (the writer has said where). Else,
    with a language (`de`, `en-GB`; None for none), after a hyphen the word has (Kanon-Karte)
    and where the language's dictionary allows, unless the word holds a digit or looks like an
    address or a path."""
    found: list[tuple[int, int, bool]] = []
    if SHY in text:
        found = [(i, i + 1, True) for i, char in enumerate(text) if char == SHY]
    else:
        hyphens = dictionary(lang) if lang else None
        if hyphens is not None and not _NOT_HYPHENATED.search(text):
            found = [(i + 1, i + 1, False) for i, char in enumerate(text)
                     if char in "-\u2010" and 0 < i < len(text) - 1]
            for m in _LETTERS.finditer(text):
                found += [(m.start() + k, m.start() + k, True) for k in hyphens.positions(m.group())]
            found.sort()
    return tuple(b for b in found if _letters(text[:b[0]]) >= MIN_LETTERS and _letters(text[b[1]:]) >= MIN_LETTERS)


def _letters(part: str) -> int:
    return sum(1 for char in part if char.isalpha())


@functools.lru_cache(maxsize=64)
def dictionary(lang: str) -> pyphen.Pyphen | None:
    """pyphen's dictionary for a language (`de`, `en-GB`, `pt_BR`), or None if it has none."""
    found = pyphen.language_fallback(lang.replace("-", "_"))
    return pyphen.Pyphen(lang=found, left=MIN_LETTERS, right=MIN_LETTERS) if found else None


def hyphenated(word: str, lang: str) -> str:
    """The word with a "-" at each place it may break (for messages and tests): `Hexa-chords`."""
    out, last = [], 0
    for cut, resume, add in breaks(word, lang):
        out.append(word[last:cut].replace(SHY, "") + ("-" if add else ""))
        last = resume
    return "".join(out) + word[last:].replace(SHY, "")
