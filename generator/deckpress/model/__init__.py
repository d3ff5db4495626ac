"""The model layer: deck and layout files read, checked and turned into plain objects."""

from .deck import CARD_SIZES, Card, CardSize, Component, Deck, bundled_deck_ids, deck_languages, find_deck, load_deck
from .layout import Condition, Element, Icon, Layouts, Template
from .values import Names, PaletteColor, Pattern

__all__ = ["CARD_SIZES", "Card", "CardSize", "Component", "Condition", "Deck", "Element", "Icon",
           "Layouts", "Names", "PaletteColor", "Pattern", "Template", "bundled_deck_ids",
           "deck_languages", "find_deck", "load_deck"]
