"""Translations: a deck written in one language, printed in another.

A deck's `translations/<lang>.yaml` is a list of entries, each pairing a text in the deck's
language with the same text in `<lang>`::

    - de: Richtungswechsel
      en: Reverse
    - de: "Der nächste Spieler zieht {draw} Karten."
      en: "The next player draws {draw} cards."

Text elements are translated before their `{fields}` are filled in, and so is every text field
value that goes into them; strings with no letters are left as they are. Every string a
build needs must be there: a missing one is an error, an unused one a warning.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DeckError, display_path, suggest
from ..paths import LOOP, PathError, existing_file, real, where
from ..yamlfile import Map, Seq, load_yaml
from .values import pattern_of

TRANSLATIONS_DIR = "translations"
_LANG = re.compile(r"[a-z]{2,3}(-[A-Za-z0-9]{2,8})?")
_LETTER = re.compile(r"[^\W\d_]")


def normalise(text: str) -> str:
    """Match texts whatever their trailing spaces and final newline (YAML block scalars add one)."""
    return "\n".join(line.rstrip() for line in text.strip().splitlines())


def needs_translation(text: str) -> bool:
    """Only text with letters outside its `{placeholders}` is translated ("+2", "{title}" are not)."""
    pattern = pattern_of(text)
    bare = re.sub(r"\{[^{}]*\}", "", text) if pattern else text
    return bool(_LETTER.search(bare))


@dataclass
class Translator:
    """Looks texts up in a catalogue and remembers what it could not find, and what it used. A deck
    that extends another adds to (and overrides) the other's catalogue, so `entries` say which file
    each comes from; `file` is the nearest, where a missing entry is to be added."""

    source: str  # the deck's language
    target: str
    file: str
    entries: dict[str, tuple[str, str, int]]  # normalised source text -> (translation, file, line)
    used: set[str] = field(default_factory=set)
    missing: dict[str, tuple[str, int]] = field(default_factory=dict)  # text -> first place it is needed

    def __call__(self, text: str, where: tuple[str, int]) -> str:
        if not needs_translation(text):
            return text
        key = normalise(text)
        found = self.entries.get(key)
        if found is None:
            self.missing.setdefault(key, where)
            return text
        self.used.add(key)
        translated, file, line = found
        if sorted(set(pattern_fields(key))) != sorted(set(pattern_fields(translated))):
            raise DeckError(f"the {self.target} text has fields {_fields(translated)}, the {self.source} text "
                            f"{_fields(key)}; they must be the same", file, line)
        return translated

    def optional(self, text: str) -> str:
        """A name (a designer, a licence): its translation where the catalogue has one, else itself."""
        key = normalise(text)
        if key not in self.entries:
            return text
        self.used.add(key)
        return self.entries[key][0]

    def check(self) -> None:
        """Raise for the first text that has no translation (after a whole deck was composed), at
        the line that needs it: the translation file is named in the message, as it has no line."""
        if self.missing:
            text, (file, line) = next(iter(self.missing.items()))
            more = f" (and {len(self.missing) - 1} more)" if len(self.missing) > 1 else ""
            short = text if len(text) <= 60 else text[:57] + "…"
            raise DeckError(f"no '{self.target}' entry for {short!r} in {display_path(self.file)}{more}; "
                            f"add one with {self.source}: and {self.target}:", file, line)

    def unused(self) -> list[tuple[str, str, int]]:
        """(text, file, line) of every entry no card used."""
        return [(text, file, line) for text, (_, file, line) in self.entries.items() if text not in self.used]


def pattern_fields(text: str) -> tuple[str, ...]:
    pattern = pattern_of(text)
    return pattern.fields if pattern else ()


def _fields(text: str) -> str:
    names = sorted(set(pattern_fields(text)))
    return ", ".join(f"{{{n}}}" for n in names) or "none"


def languages(folders: Sequence[Path], source: str) -> list[str]:
    """The deck's own language, then every language it has a translation file for (in its folder
    or in that of a deck it extends)."""
    for folder in folders:  # a translations/ folder that loops is said, not passed over
        try:
            real(folder / TRANSLATIONS_DIR, TRANSLATIONS_DIR)
        except PathError as exc:
            raise DeckError(f"'{TRANSLATIONS_DIR}' {exc.reason}", where(folder / TRANSLATIONS_DIR)) from None
    found = sorted({p.stem for folder in folders for p in (folder / TRANSLATIONS_DIR).glob("*.yaml")
                    if _LANG.fullmatch(p.stem)})
    return [source] + [lang for lang in found if lang != source]


def load_translator(folders: Sequence[Path], source: str, target: str, known: list[str]) -> Translator:
    """The catalogue for `target`: the entries of the deck's own translation file over those of the
    decks it extends (`folders`, nearest first). Every entry must pair exactly `source` and `target`."""
    roots = [real(folder) for folder in folders]
    paths = []
    for folder in folders:  # a translation file or folder that is a link may not lead outside the deck, nor loop
        path = folder / TRANSLATIONS_DIR / f"{target}.yaml"
        shown = f"{TRANSLATIONS_DIR}/{path.name}"
        try:
            if existing_file(path, roots, shown):
                paths.append(path)
        except PathError as exc:  # a loop is said at the folder it is in: it cannot be shown as a place
            raise (DeckError(f"'{shown}' {exc.reason}", where(path)) if exc.reason == LOOP else
                   DeckError(f"{shown} {exc.reason}", path, 1)) from None
    if not paths:
        raise DeckError(f"no translation into '{target}': the deck is in {', '.join(known)}", None, None,
                        suggest(target, known))
    entries: dict[str, tuple[str, str, int]] = {}
    for path in reversed(paths):
        entries.update(_catalogue(path, source, target))
    return Translator(source, target, str(paths[0]), entries)


def _catalogue(path: Path, source: str, target: str) -> dict[str, tuple[str, str, int]]:
    doc = load_yaml(path)
    entries: dict[str, tuple[str, str, int]] = {}
    if doc is None:
        doc = Seq()
    if not isinstance(doc, Seq):
        raise DeckError(f"a translation file is a list of entries like '- {{{source}: …, {target}: …}}'", path, 1)
    for index, entry in enumerate(doc):
        line = doc.line_of(index)
        if not isinstance(entry, Map) or set(entry) != {source, target}:
            keys = ", ".join(map(str, entry)) if isinstance(entry, Map) else type(entry).__name__
            raise DeckError(f"each entry needs exactly '{source}' and '{target}', not {keys}", path, line)
        if any(not isinstance(entry[k], (str, int, float)) for k in (source, target)):
            raise DeckError(f"'{source}' and '{target}' must be text", path, line)
        key = normalise(str(entry[source]))
        if key in entries:
            raise DeckError(f"'{key[:40]}' is translated twice (first on line {entries[key][2]})", path, line)
        entries[key] = (normalise(str(entry[target])), str(path), line)
    return entries
