"""Reading composed faces in tests: the drawing items inside groups, in drawing order."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from deckpress.face import Group, Item, Text


def leaves(items: Iterable[Item]) -> Iterator[Item]:
    """Every item that draws, groups opened (their transforms not applied)."""
    for item in items:
        if isinstance(item, Group):
            yield from leaves(item.items)
        else:
            yield item


def text_items(items: Iterable[Item]) -> Iterator[Text]:
    """Every run of text, groups opened."""
    return (item for item in leaves(items) if isinstance(item, Text))
