"""JSON Schemas of deck.yaml and of layout files, for editors: generated from the key tables.

An editor that reads JSON Schema (VS Code's YAML extension, any editor with yaml-language-server)
completes keys, shows each key's doc and default, offers a choice's values and marks an unknown
key, from the same tables the loaders check (`keys`, `elements.KINDS`) and the key references in
DECKS.md and LAYOUTS.md are made from. They are made when asked for, never stored in the
package, so they cannot fall behind the tables: `deckpress schema deck` prints one, and
`deckpress new` writes both into the new deck's `.deckpress/` folder, which its deck.yaml and
layout name in their first line (`# yaml-language-server: $schema=…`).

A schema says what a value may be as far as JSON Schema can without the deck (a colour is a
string, a length a string or a number); the loaders say the rest. A key a deck may inherit
from one it `extends` is never required here.
"""

from __future__ import annotations

import json
from typing import Any

from ..shapes import SHAPES
from .elements import KINDS, Kind
from .keys import BOX, CARD, CARD_TABLE, COMPONENT, DECK, FONT, FONT_FILE, ICON, LAYOUT, PALETTE, SIZE, TEMPLATE, Key, Keys

DRAFT = "http://json-schema.org/draft-07/schema#"

_TEXT = ["string", "number", "boolean"]  # YAML reads `players: 4` as a number; it is text all the same
_LENGTH = ["string", "number"]

#: What a value of each scalar type (Key.type) may be, as a schema.
SCALARS: dict[str, dict[str, Any]] = {
    "text": {"type": _TEXT}, "field": {"type": "string"}, "char": {"type": ["string", "number"]},
    "length": {"type": _LENGTH}, "extent": {"type": _LENGTH}, "size": {"type": _LENGTH},
    "width": {"type": _LENGTH}, "number": {"type": "number"}, "angle": {"type": "number"},
    "opacity": {"type": _LENGTH}, "bool": {"type": "boolean"}, "color": {"type": "string"},
    "palette": {"type": "string"}, "font": {"type": "string"}, "font family": {"type": "string"},
    "file": {"type": "string"},
    "path": {"type": "string"}, "language": {"type": "string"},
    "dash": {"type": ["string", "array"], "items": {"type": _LENGTH}},
    "points": {"type": "array", "items": {"type": "array", "items": {"type": _LENGTH}}},
    "pitches": {"type": ["string", "array"], "items": {"type": "string"}},
    "features": {"type": ["string", "array"], "items": {"type": "string"}},
    "ids": {"type": ["string", "array"], "items": {"type": "string"}},
    "shape": {"enum": list(SHAPES)}, "copies": {"type": ["integer", "string"]},
    "piece shape": {"type": ["string", "object"]},
    "condition": {"type": "object"},
    "mapping": {"type": "object"}, "list": {"type": "array"},
}


def _table(keys: Keys, required: bool = True, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """An object with the table's keys and no others (`required`: with its required keys)."""
    schema: dict[str, Any] = {"type": "object", "description": keys.doc,
                              "properties": {key.name: _key(keys, key) for key in keys.keys},
                              "additionalProperties": False}
    if required and keys.required:
        schema["required"] = list(keys.required)
    schema.update(extra or {})
    return schema


def _key(keys: Keys, key: Key) -> dict[str, Any]:
    """The schema of one key's value, with its doc and default."""
    nested = _NESTED.get((keys.name, key.name))
    if nested is not None:
        schema = nested()
    elif key.choices:
        values: list[Any] = list(key.choices)
        if key.type == "auto-bool":  # `hyphenate: true` is read by YAML as a boolean
            values = [{"true": True, "false": False}.get(c, c) for c in values]
        schema = {"enum": values}
    else:
        schema = dict(SCALARS[key.type])
    schema["description"] = key.doc
    if key.default not in (None, ""):
        schema["default"] = key.default
    return schema


def _card_size() -> dict[str, Any]:
    return {**_table(SIZE), "type": ["string", "object"]}


def _cards() -> dict[str, Any]:
    return {**_table(CARD_TABLE), "type": ["array", "string", "object"],
            "items": {**_table(CARD), "additionalProperties": True}}  # a card's other keys are its fields


def _font_family() -> dict[str, Any]:
    return {"type": "object", "additionalProperties": _table(FONT)}


def _font_file() -> dict[str, Any]:
    return {**_table(FONT_FILE), "type": ["string", "object"]}


def _elements(remove: bool) -> dict[str, Any]:
    """A list of elements, each a mapping with one kind (in a template's list, or `remove: <id>`)."""
    kinds: dict[str, Any] = {name: {"$ref": f"#/definitions/{name}"} for name in KINDS}
    if remove:
        kinds["remove"] = {"type": "string", "description": "Drops the inherited element with this id."}
    return {"type": "array", "items": {"type": "object", "properties": kinds, "additionalProperties": False,
                                       "minProperties": 1, "maxProperties": 1}}


#: Keys whose value is a mapping or list of its own kind: (table name, key name) → its schema.
_NESTED = {
    (DECK.name, "card"): _card_size,
    (DECK.name, "layouts"): lambda: {"type": "array", "items": {"type": "string"}},
    (DECK.name, "fonts"): lambda: {"type": "object", "additionalProperties": _font_family()},
    (DECK.name, "palette"): lambda: {"type": "object", "additionalProperties": _table(PALETTE)},
    (DECK.name, "colors"): lambda: {"type": "object", "additionalProperties": SCALARS["color"]},
    (DECK.name, "box"): lambda: {**_table(BOX), "type": ["object", "string", "boolean"]},  # or `none`
    (DECK.name, "components"): lambda: {"type": "array", "items": _table(COMPONENT, required=False)},
    (FONT_FILE.name, "axes"): lambda: {"type": "object", "additionalProperties": {"type": "number"}},
    (COMPONENT.name, "size"): _card_size,
    (COMPONENT.name, "cards"): _cards,
    (LAYOUT.name, "colors"): lambda: {"type": "object", "additionalProperties": SCALARS["color"]},
    (LAYOUT.name, "icons"): lambda: {"type": "object", "additionalProperties": _table(ICON)},
    (LAYOUT.name, "templates"): lambda: {"type": "object", "additionalProperties": _table(TEMPLATE)},
    (TEMPLATE.name, "elements"): lambda: _elements(remove=True),
    ("group", "elements"): lambda: _elements(remove=False),
}
_NESTED.update({(FONT.name, key.name): _font_file for key in FONT.keys})


#: A value written with a card field, which the card fills in (`clef: "{clef}"`): any element key may be one.
FIELD_VALUE = {"type": "string", "pattern": r"\{[^{}]+\}"}


def _kind(kind: Kind) -> dict[str, Any]:
    """An element kind's table, each key whose values are not all strings also taking a `{field}`."""
    schema = _table(kind)
    for name, value in schema["properties"].items():
        types = value.get("type", [])
        if "string" not in ([types] if isinstance(types, str) else types) and "$ref" not in value:
            shown = {k: value.pop(k) for k in ("description", "default") if k in value}
            schema["properties"][name] = {"anyOf": [value, FIELD_VALUE], **shown}
    return schema


def deck_schema() -> dict[str, Any]:
    """The JSON Schema of a deck file (deck.yaml)."""
    return {"$schema": DRAFT, "title": "deckpress deck.yaml", **_table(DECK, required=False)}


def layout_schema() -> dict[str, Any]:
    """The JSON Schema of a layout file (layouts/*.yaml)."""
    return {"$schema": DRAFT, "title": "deckpress layout file", **_table(LAYOUT),
            "definitions": {name: _kind(kind) for name, kind in KINDS.items()}}


SCHEMAS = {"deck": deck_schema, "layout": layout_schema}


def schema_text(which: str) -> str:
    """A schema (`deck` or `layout`) as the JSON text a schema file holds."""
    if which not in SCHEMAS:
        raise ValueError(f"no schema '{which}': deck or layout")
    return json.dumps(SCHEMAS[which](), indent=2, ensure_ascii=False) + "\n"
