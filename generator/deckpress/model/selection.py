"""Which cards a playtest build prints: `--only FIELD=VALUE[,VALUE…]`.

A designer who changed three cards prints those three, not the deck. Each condition names a
field and the values it may have; a card is printed when every condition holds. Besides the
card's own fields, `component` is its component's name, `name` what a player calls it (its
`name`, else `title`, `value`, … as `Card.name` says) and `number` its place in its list.
Values are compared as printed text, ignoring case; a list field (`next: [gold, blue]`) holds
when any of its items does.

The cards keep their numbers and their list's length (`{card.number}/{card.total}` prints as in
the whole deck), and the box is left out: a few cards need no new box.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..errors import DeckError, suggest
from .deck import Card, Component, Deck
from .values import as_text

#: what every card has besides its fields
BUILT_IN = ("component", "name", "number")


@dataclass(frozen=True)
class Only:
    """One `--only FIELD=VALUE[,VALUE…]`: the field, and the values (casefolded) it may have."""

    field: str
    values: tuple[str, ...]
    written: str  # as given, for messages

    @classmethod
    def parse(cls, text: str) -> Only:
        """`color=red,blue` → Only("color", ("red", "blue")); a ValueError says what is wrong."""
        field, sep, values = text.partition("=")
        field = field.strip()
        wanted = tuple(v.strip().casefold() for v in values.split(",") if v.strip())
        if not sep or not field or not wanted:
            raise ValueError(f"--only {text!r}: expected FIELD=VALUE[,VALUE…], like component=notes or "
                             "name=Mill,Stall")
        return cls(field, wanted, text)

    def holds(self, component: Component, card: Card) -> bool:
        return any(text.casefold() in self.values for text in _texts(_value(self.field, component, card)))


def select(deck: Deck, only: Sequence[Only]) -> Deck:
    """The deck with only the cards every condition of `only` holds for, and no box; the deck as
    it is when `only` is empty. A field no card has, or conditions no card meets, is a DeckError
    naming the closest field or value."""
    if not only:
        return deck
    for condition in only:
        _check_field(deck, condition)
    components = []
    for component in deck.components:
        cards = [card for card in component.cards if all(c.holds(component, card) for c in only)]
        if cards:
            components.append(replace(component, cards=cards, listed=component.total))
    if not components:
        condition = only[0] if len(only) == 1 else None
        known = sorted({text for component in deck.components for card in component.cards
                        for text in _texts(_value(condition.field, component, card))}) if condition else []
        written = " ".join(f"--only {c.written}" for c in only)
        hint = suggest(condition.values[0], known) if condition else None
        raise DeckError(f"{written}: no card of deck '{deck.id}' matches" +
                        (f" (its {condition.field} values: {_listed(known)})" if condition and not hint else ""),
                        suggestion=hint)
    return replace(deck, components=components, box=False)


def _check_field(deck: Deck, condition: Only) -> None:
    fields = {name for component in deck.components for card in component.cards for name in card.fields}
    if condition.field not in fields and condition.field not in BUILT_IN:
        raise DeckError(f"--only {condition.written}: no card of deck '{deck.id}' has a field "
                        f"'{condition.field}' (fields: {_listed(sorted(fields | set(BUILT_IN)))})",
                        suggestion=suggest(condition.field, sorted(fields | set(BUILT_IN))))


def _value(field: str, component: Component, card: Card) -> Any:
    if field in card.fields and field != "name":
        return card.fields[field]
    if field == "component":
        return component.name
    if field == "name":
        return card.name
    if field == "number":
        return card.number
    return None


def _texts(value: Any) -> list[str]:
    """A value as the texts a condition compares: each item of a list, else the value as printed."""
    if isinstance(value, (list, tuple)):
        return [as_text(v) for v in value]
    return [] if value is None else [as_text(value)]


def _listed(names: Sequence[str], most: int = 12) -> str:
    shown = ", ".join(names[:most])
    return shown + (f", … ({len(names) - most} more)" if len(names) > most else "")
