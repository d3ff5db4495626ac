"""Where a word may break across lines: soft hyphens, its own hyphens, and a language's dictionary.

The dictionaries are pyphen's (LibreOffice's hyphenation patterns, about 70 languages, pure
Python). text/lines.py asks `breaks` where a word may break: its own hyphens always, the
dictionary's breaks only when hyphenating (a last resort: see `fit_lines` there), and chooses
among them with text/linebreak.py.
"""

from __future__ import annotations

import functools
import itertools
import operator
import re
import unicodedata
from importlib.resources.abc import Traversable
from collections.abc import Iterator, Sequence
from pathlib import Path

import pyphen

SHY = "\u00ad"  # soft hyphen: a break the writer allows, drawn (as "-") only where a line breaks
MIN_LETTERS = 2  # a break leaves at least this many letters on either side: "a-" never stays, "-y" never goes
# the dictionary breaks only words of at least this many letters, this many either side, as a
# typesetter would: "in-to", "emp-ty", "Da-nach" and "ih-rem" read as careless
DICTIONARY_WORD = 7
DICTIONARY_SIDE = 3
BREAKS_CACHE = 65536  # words kept with their breaks: more than a deck's vocabulary
SHORT_WORD = 40  # bytes: a word up to this long is looked up in every part of it (see `positions`)

_NOT_HYPHENATED = re.compile(r"[0-9/@\\_]|://|www\.")  # numbers, addresses, paths: not for the dictionary


@functools.lru_cache(maxsize=BREAKS_CACHE)
def breaks(text: str, lang: str | None, hyphenating: bool = True) -> tuple[tuple[int, int, bool], ...]:
    """Where the word `text` may break, in order, as (end of the head, start of the rest, whether
    a hyphen is added), each leaving at least MIN_LETTERS letters either side.

    A word with soft hyphens breaks there and nowhere else (the writer has said where). Else,
    with a language (`de`, `en-GB`; None for none), after a hyphen the word has (Kanon-Karte)
    and where the language's dictionary allows in a run of DICTIONARY_WORD letters or more,
    leaving DICTIONARY_SIDE either side (or the language's own least, where it is more), unless the word holds a digit or looks like an address
    or a path. Without `hyphenating`, only after the word's own hyphens: breaks that add none."""
    found: list[tuple[int, int, bool]] = []
    if SHY in text:
        if hyphenating:
            found = [(i, i + 1, True) for i, char in enumerate(text) if char == SHY]
    else:
        hyphens = dictionary(lang) if lang else None
        if hyphens is not None and not _NOT_HYPHENATED.search(text):
            found = [(i + 1, i + 1, False) for i, char in enumerate(text)
                     if char in "-\u2010" and 0 < i < len(text) - 1]
            if hyphenating:
                left, right = max(DICTIONARY_SIDE, hyphens.left), max(DICTIONARY_SIDE, hyphens.right)
                for start, run in _letter_runs(text):
                    if len(run) >= DICTIONARY_WORD:
                        found += [(start + k, start + k, True) for k in hyphens.positions(run)
                                  if left <= k <= len(run) - right]
                found.sort()
    if not found:
        return ()
    letters = letters_before(text)  # one pass, not one a break: a word may have thousands
    last = letters[-1] - MIN_LETTERS
    return tuple(b for b in found if letters[b[0]] >= MIN_LETTERS and letters[b[1]] <= last)


def _letter_runs(text: str) -> Iterator[tuple[int, str]]:
    """The runs of letters in a word, which the dictionary hyphenates, each with where it starts:
    a letter and the marks on it (Devanagari's vowel signs and viramas, Hebrew's points) and the
    letters after it, as pyphen reads a word."""
    start = None
    for i, char in enumerate(text):
        kind = unicodedata.category(char)[0]
        if kind == "L" or (kind == "M" and start is not None):
            if start is None:
                start = i
        elif start is not None:
            yield start, text[start:i]
            start = None
    if start is not None:
        yield start, text[start:]


def letters_before(text: str) -> list[int]:
    """How many letters `text` has before each of its positions, 0 to len(text) (at len(text):
    all of them)."""
    return [0, *itertools.accumulate(map(str.isalpha, text))]


@functools.lru_cache(maxsize=64)
def dictionary(lang: str) -> Patterns | None:
    """The hyphenation patterns for a language (`de`, `en-GB`, `pt_BR`), or None if pyphen has
    none. A language alone is its main country's (`de` is de_DE, `en` en_US, as LibreOffice
    has it), where pyphen would take the first by name (de_AT)."""
    code = lang.replace("-", "_")
    if "_" not in code:
        main = {"en": "en_US"}.get(code.lower(), f"{code.lower()}_{code.upper()}")
        if main in pyphen.LANGUAGES:
            code = main
    found = pyphen.language_fallback(code)
    return Patterns(pyphen.LANGUAGES[found]) if found else None


_HEX = re.compile(rb"\^{2}([0-9a-f]{2})")
_COMMENT = operator.methodcaller("startswith", (b"%", b"#"))


class Patterns:
    """Liang's hyphenation patterns from one of pyphen's `hyph_*.dic` files, giving the breaks
    pyphen's own `Pyphen(lang, left=2, right=2).positions` gives (a test compares them).

    pyphen parses every pattern when it opens a file, over a second for German's 78,000; here a
    pattern is filed under its letters as it is written and read only when a word contains it,
    which makes opening a dictionary about ten times quicker. Nonstandard breaks (`ck` → `k-k`, two
    in German) break where pyphen says, without the change of spelling."""

    def __init__(self, path: Path | Traversable) -> None:
        self._path = path
        data = path.read_bytes()
        first, _, rest = data.partition(b"\n")
        encoding = first.decode().strip()
        self.encoding = "cp1251" if encoding.lower() == "microsoft-cp1251" else encoding
        # the language's own least letters before and after a break (Marathi's and Sanskrit's
        # RIGHTHYPHENMIN is 4), which `breaks` keeps to where they are stricter than its own
        self.left, self.right = (int(m.group(1)) if (m := re.search(rb"^%sHYPHENMIN[ \t]+(\d+)" % side, rest, re.M))
                                 else 0 for side in (b"LEFT", b"RIGHT"))
        # The pattern lines and their letters with no Python a line (German has 78,000), and
        # left as bytes (a word is looked up encoded): blanks and digits deleted from all the bytes
        # in one call each (they are ASCII, which every dictionary's encoding keeps as itself),
        # the lines split, told apart and paired by C functions. A line without a digit is no
        # pattern (German has 11,000, words of its compound level): it is the same as its letters.
        # Comments and settings with a digit are kept, under "letters" with a "#", "%" or
        # capitals, which no lower-cased word's part has.
        self._written = _patterns(rest, exact=False)
        self._values: dict[bytes, tuple[int, ...]] = {}
        self._begun: set[bytes] | None = None

    def _read(self, letters: bytes) -> tuple[int, ...]:
        """A pattern's values: the digit before each of its letters, and after the last."""
        values = self._values.get(letters)
        if values is None:
            line = self._written.get(letters)
            if line is None:  # looked up in the patterns before they were read again (below): none now
                return ()
            found = [0]
            for char in line.decode(self.encoding):
                if char.isdigit():
                    found[-1] = int(char)
                else:
                    found.append(0)
            if not any(found):
                # Digits, but zeros only (two comments of Afrikaans): no pattern to pyphen, which
                # keeps an earlier line of the same letters that this one hides. Telling such lines
                # apart costs more than all the rest of reading a dictionary, so it is done only
                # now, once: every line is read again, and kept if deleting 1-9 changes it.
                self._written = _patterns(self._path.read_bytes().partition(b"\n")[2], exact=True)
                self._values.clear()
                return self._read(letters) if letters in self._written else tuple(found)
            self._values[letters] = values = tuple(found)
        return values

    def _beginnings(self) -> set[bytes]:
        """Every beginning of every pattern's letters (comments left out, which no word's part
        matches), made for the first long word (a tenth of a second for German's 66,000)."""
        if self._begun is None:
            self._begun = {key[:n] for key in itertools.filterfalse(_COMMENT, self._written)
                           for n in range(1, len(key) + 1)}
        return self._begun

    @functools.lru_cache(maxsize=BREAKS_CACHE)  # noqa: B019 (one per language, kept for the process)
    def positions(self, word: str) -> tuple[int, ...]:
        """Where `word` may be hyphenated: the number of characters before each break, at least
        MIN_LETTERS from either end."""
        dotted = f".{word.lower()}."
        raw = dotted.encode(self.encoding, "replace")  # a letter the dictionary cannot write matches nothing
        ends: Sequence[int] = range(len(raw) + 1)  # where each letter's bytes end
        if len(raw) != len(dotted):
            ends = [0, *itertools.accumulate(len(char.encode(self.encoding, "replace")) for char in dotted)]
        levels = [0] * (len(dotted) + 1)
        written = self._written
        # every part of a short word is looked up; a long word's parts from each letter only as
        # long as some pattern begins so (`_beginnings`): a few each, not the rest of the word,
        # so its cost grows with its length rather than its cube
        beginnings = self._beginnings() if len(raw) > SHORT_WORD else None
        for i in range(len(dotted) - 1):
            for j in range(i + 1, len(dotted) + 1):
                part = raw[ends[i]:ends[j]]
                if beginnings is not None and part not in beginnings:
                    break
                if part in written:
                    for k, value in enumerate(self._read(part)):
                        if value > levels[i + k]:
                            levels[i + k] = value
        right = len(word) - MIN_LETTERS
        return tuple(i - 1 for i, level in enumerate(levels) if level % 2 and MIN_LETTERS <= i - 1 <= right)


def _patterns(rest: bytes, exact: bool) -> dict[bytes, bytes]:
    """The pattern lines of a dictionary's text after its first line, by their letters (the last
    line of any letters kept): the lines with a digit, or if `exact`, as pyphen has them, with a
    digit 1-9 (found as the lines that deleting 1-9 changes)."""
    joined = rest.translate(None, b" \t\r\v\f")
    lines = joined.split(b"\n")
    letters = joined.translate(None, b"0123456789").split(b"\n")
    for i in _special_lines(joined):  # rare: characters by their code, nonstandard breaks
        line = _HEX.sub(lambda m: bytes([int(m.group(1), 16)]), lines[i])
        line = line.split(b"/", 1)[0] if b"/" in line and b"=" in line else line
        lines[i], letters[i] = line, line.translate(None, b"0123456789")
    told = b"\n".join(lines).translate(None, b"123456789").split(b"\n") if exact else letters
    return dict(itertools.compress(zip(letters, lines), map(operator.ne, lines, told)))


def _special_lines(joined: bytes) -> set[int]:
    """The numbers of the lines with a character by its code (`^^e4`) or a nonstandard break
    (`c1k/k=k`): German has two of its 78,000, Hungarian 2,700 of its 106,000, found by the C
    functions that find and count bytes. Each line's number is counted on from the last one
    found, never from the start: the whole text is counted once for each mark."""
    found = set()
    for mark in (b"/", b"^^"):
        line, counted = 0, 0  # the number of the line at byte `counted`
        at = joined.find(mark)
        while at != -1:
            line += joined.count(b"\n", counted, at)
            counted = at
            found.add(line)
            end = joined.find(b"\n", at)
            at = joined.find(mark, end) if end != -1 else -1
    return found


def hyphenated(word: str, lang: str) -> str:
    """The word with a "-" at each place it may break (for messages and tests): `Hexa-chords`."""
    out, last = [], 0
    for cut, resume, add in breaks(word, lang):
        out.append(word[last:cut].replace(SHY, "") + ("-" if add else ""))
        last = resume
    return "".join(out) + word[last:].replace(SHY, "")
