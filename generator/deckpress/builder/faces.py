"""A deck's card faces, composed once per build, and converted once per variant.

Every output of a deck shows the same faces: the sheets want them in print order, copy after
copy, by sheet kind; the image sets, Tabletop Simulator and the preview want each card-list
entry once with its copy count; the tuck box wants its cover card. So each entry is composed
once (`compose_faces`) and the other views are read off that one pass. Only a different bleed
(a print service's preset) needs the faces composed again. The sheets' list, copy after copy, is
made only when a build asks for it: a check counts cards and faces without it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from functools import cached_property

from ..compose import Composer
from ..text import plain
from ..errors import Warnings
from ..face import Face
from ..ink import apply_ink
from ..model import Card, Component, Deck
from ..model.deck import SHEETS
from ..separation import FORMULA, Separation
from ..outputs.sides import Entry
from .plan import Variant

Sides = list[tuple[Face, Face | None]]  # front and back of each printed piece


@dataclass(frozen=True)
class DeckFaces:
    """Every card-list entry of a deck composed, in the language it is printed in."""

    deck: Deck
    entries: list[Entry]  # each line of each component's card list, with its copies

    @cached_property
    def pieces(self) -> dict[str, list[tuple[Component, Entry]]]:
        """Every printed piece by sheet kind, in print order (copies repeated), with its component."""
        by_card = {(e.component, e.number): e for e in self.entries}
        pieces: dict[str, list[tuple[Component, Entry]]] = {sheet: [] for sheet in SHEETS}
        for component in self.deck.components:
            for card in component.printed():
                pieces[component.sheet].append((component, by_card[component.name, card.number]))
        return pieces

    @cached_property
    def sides(self) -> dict[str, Sides]:
        """Every printed piece's front and back by sheet kind, in print order (copies repeated)."""
        return {sheet: [(e.front, e.back) for _, e in pieces] for sheet, pieces in self.pieces.items()}

    @cached_property
    def back_designs(self) -> dict[str, list[str | None]]:
        """Each printed piece's back design, its component's back template (None: no back),
        parallel to `sides`: where it changes, butted sheets start a new page (`plan_sheets`)."""
        return {sheet: [c.back.name if c.back else None for c, _ in pieces] for sheet, pieces in self.pieces.items()}

    def cover(self) -> tuple[Face, Face | None] | None:
        """The box's cover: its card's front, and that card's back or, failing that, the first
        back any piece has (`Deck.cover` says which card)."""
        cover = self.deck.cover()
        if cover is None:
            return None
        component, card = cover
        entry = next(e for e in self.entries if (e.component, e.number) == (component.name, card.number))
        back = entry.back if entry.back is not None else next(
            (b for pairs in self.sides.values() for _, b in pairs if b is not None), None)
        return entry.front, back

    def distinct(self) -> set[Face]:
        """Every face printed, once (every entry is printed: its count is at least 1)."""
        return {face for e in self.entries for face in (e.front, e.back) if face is not None}

    @cached_property
    def _inked(self) -> dict[tuple[Variant, Separation], Inked]:
        return {}

    def inked(self, variant: Variant, separation: Separation = FORMULA) -> Inked:
        """These faces as printed in `variant` (its CMYK made by `separation`), each converted once
        for every paper and file."""
        key = (variant, separation)
        return self._inked.get(key) or self._inked.setdefault(key, Inked(variant, separation))


def compose_faces(deck: Deck, warn: Warnings) -> DeckFaces:
    """Compose each card-list entry once; a text without a translation is an error."""
    for source in deck.card_sources:  # a card list used from its copy, offline: said with the build's warnings
        if source.note:
            warn(source.note, source.file, source.line, kind="cached-cards")
    composer = Composer(deck, warn)
    # names leave the card as plain text: markup in a name field (an icon for ♭) would show raw
    glyphs = {icon.name: icon.glyph for icon in deck.layouts.icons.values() if icon.glyph}
    entries: list[Entry] = []
    for component in deck.components:
        width = max(2, len(str(component.total)))  # digits every number of the component is padded to
        part = deck.translate.optional(component.name) if deck.translate else component.name
        for card in component.cards:
            name = plain(deck.translate.optional(card.name) if deck.translate else card.name, glyphs)
            front = composer.face(card, component.front)
            text = _card_text(composer.written(card, component.front), glyphs)
            entry = Entry(component.name, card.number, name, card.count * component.copies, front,
                          composer.face(card, component.back) if component.back else None, width,
                          text, _source(deck, card), part, _nickname(name, text, part, len(component.cards)),
                          component.standee)
            entries.append(entry)
    if deck.translate is not None:
        deck.translate.check()
    return DeckFaces(deck, entries)


def _card_text(written: tuple[str, ...], glyphs: dict[str, str]) -> str:
    """The words a side shows as plain text: each text element's a line, in drawing order, each
    once (a corner index is printed twice, a title sometimes in the footer too)."""
    lines = dict.fromkeys(line for markup in written if (line := plain(markup, glyphs)))
    return "\n".join(lines)


def _nickname(name: str, text: str, part: str, cards: int) -> str:
    """What a virtual table calls a card: its name (its first name-like field, translated); one
    without a name, the first text its front sets (circle-of-5's cue cards: their cue, steps'
    black keys: "C♯"), unless it is its component's only piece (a board: "board")."""
    if name:
        return name
    if cards == 1:
        return part
    return text.split("\n", 1)[0]


def _source(deck: Deck, card: Card) -> str:
    """Where `card` is written and what it says there: `deck.yaml:45` (its file relative to the deck's
    folder, so the same on every machine; a spreadsheet's `cards.xlsx[Fruit]:7` row), then a
    `key: value` line for each field it gives itself, in its list's order."""
    file = card.file
    if "://" not in file:
        try:
            file = os.path.relpath(file, deck.folder).replace(os.sep, "/")
        except ValueError:  # another drive (Windows): its name alone
            file = os.path.basename(file)
    keys = list(dict.fromkeys([*card.order, *card.fields]))
    fields = [f"{key}: {_shown_value(card.fields[key])}" for key in keys
              if key in card.fields and key not in card.defaults]  # the row as written, not its defaults
    return "\n".join([f"{file}:{card.line}", *fields])


def _shown_value(value: object) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(_shown_value(v) for v in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return " ".join(str(value).split()) if value is not None else ""


class Inked:
    """Faces as printed in one variant, each distinct face converted once."""

    def __init__(self, variant: Variant, separation: Separation = FORMULA) -> None:
        self.variant, self.separation = variant, separation
        self.cache: dict[tuple[Face, bool], Face] = {}

    def __call__(self, face: Face | None, back: bool = False) -> Face | None:
        if face is None or self.variant is Variant.COLOR:
            return face
        key = (face, back)
        if key not in self.cache:
            self.cache[key] = apply_ink(face, self.variant.ink, back, self.variant.color, self.separation)
        return self.cache[key]

    def sides(self, sides: Sides) -> Sides:
        if self.variant is Variant.COLOR:  # faces as composed
            return list(sides)
        pairs: dict[tuple[Face, Face | None], tuple[Face, Face | None]] = {}  # copies of a card: one look-up
        inked = []
        for pair in sides:
            done = pairs.get(pair)
            if done is None:
                front, back = pair
                done = pairs[pair] = (self(front), self(back, back=True))  # type: ignore[assignment]
            inked.append(done)
        return inked  # type: ignore[return-value]

    def entries(self, entries: list[Entry]) -> list[Entry]:
        return [replace(e, front=self(e.front), back=self(e.back, back=True)) for e in entries]
