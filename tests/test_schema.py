"""The JSON Schemas for editors: every bundled deck and layout passes them, a mistaken key does not,
`deckpress schema` prints them and `deckpress new` writes them beside the files that name them.

jsonschema is no dependency: `valid` checks the keywords the schemas use, as JSON Schema means them.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

import deckpress
from deckpress import api
from deckpress.cli import main
from deckpress.model.schema import SCALARS, SCHEMAS, deck_schema, layout_schema, schema_text

ROOT = Path(__file__).resolve().parent.parent
DECKS = sorted((ROOT / "decks").glob("*/deck.yaml"))
LAYOUTS = sorted((ROOT / "layouts").glob("*.yaml")) + sorted((ROOT / "decks").glob("*/layouts/*.yaml"))

_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool}
_USED = {"$schema", "title", "description", "default", "definitions", "$ref", "type", "properties",
         "additionalProperties", "required", "enum", "items", "minProperties", "maxProperties",
         "anyOf", "pattern"}


def _is(value: object, type_: str) -> bool:
    if type_ == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if type_ == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, _TYPES[type_])


def errors(value: object, schema: dict, root: dict, where: str = "") -> list[str]:
    """What is wrong with `value` by `schema`: a message per mistake, with where it is."""
    assert set(schema) <= _USED, f"a keyword the test does not check: {set(schema) - _USED}"
    if "$ref" in schema:
        return errors(value, root["definitions"][schema["$ref"].rsplit("/", 1)[1]], root, where)
    if "anyOf" in schema:
        tried = [errors(value, option, root, where) for option in schema["anyOf"]]
        return [] if [] in tried else tried[0]
    if "pattern" in schema and isinstance(value, str) and not re.search(schema["pattern"], value):
        return [f"{where}: {value!r} does not match {schema['pattern']}"]
    types = schema.get("type")
    if types is not None:
        types = [types] if isinstance(types, str) else types
        if not any(_is(value, t) for t in types):
            return [f"{where}: {value!r} is not {' or '.join(types)}"]
    if "enum" in schema and value not in schema["enum"]:
        return [f"{where}: {value!r} is not one of {schema['enum']}"]
    found = []
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        found += [f"{where}: needs '{k}'" for k in schema.get("required", ()) if k not in value]
        if not schema.get("minProperties", 0) <= len(value) <= schema.get("maxProperties", len(value)):
            found.append(f"{where}: {len(value)} keys")
        for key, item in value.items():
            if key in properties:
                found += errors(item, properties[key], root, f"{where}.{key}")
            elif extra is False:
                found.append(f"{where}: unknown key '{key}'")
            elif isinstance(extra, dict):
                found += errors(item, extra, root, f"{where}.{key}")
    if isinstance(value, list) and "items" in schema:
        for index, item in enumerate(value):
            found += errors(item, schema["items"], root, f"{where}[{index}]")
    return found


def valid(value: object, schema: dict) -> list[str]:
    return errors(value, schema, schema)


@pytest.mark.parametrize("path", DECKS, ids=lambda p: p.parent.name)
def test_every_bundled_deck_passes_the_deck_schema(path):
    assert valid(yaml.safe_load(path.read_text(encoding="utf-8")), deck_schema()) == []


@pytest.mark.parametrize("path", LAYOUTS, ids=lambda p: p.stem)
def test_every_bundled_layout_passes_the_layout_schema(path):
    assert valid(yaml.safe_load(path.read_text(encoding="utf-8")), layout_schema()) == []


def test_the_starter_deck_and_layout_pass_their_schemas(tmp_path):
    folder = deckpress.new_deck(tmp_path / "my-game")
    assert valid(yaml.safe_load((folder / "deck.yaml").read_text(encoding="utf-8")), deck_schema()) == []
    for layout in (folder / "layouts").glob("*.yaml"):
        assert valid(yaml.safe_load(layout.read_text(encoding="utf-8")), layout_schema()) == []


def test_a_mistaken_key_or_value_fails():
    deck = yaml.safe_load((ROOT / "decks" / "metronome" / "deck.yaml").read_text(encoding="utf-8"))
    assert valid({**deck, "titel": "x"}, deck_schema()) == [": unknown key 'titel'"]
    deck["components"][0]["sheet"] = "poster"
    assert valid(deck, deck_schema())[0].startswith(".components[0].sheet: 'poster' is not one of")
    layout = {"templates": {"front": {"elements": [
        {"text": {"text": "hi", "sise": "9pt"}}, {"rect": {"fill": "red"}, "line": {}}, {"txet": {}},
        {"group": {"elements": [{"remove": "x"}]}}, {"glyph": {"size": "9pt"}},
        {"staff": {"clef": "{clef}", "note": "half", "center": True}}]}}}
    assert valid(layout, layout_schema()) == [
        ".templates.front.elements[0].text: unknown key 'sise'",
        ".templates.front.elements[1]: 2 keys",
        ".templates.front.elements[2]: unknown key 'txet'",
        ".templates.front.elements[3].group.elements[0]: unknown key 'remove'",  # only a template removes
        ".templates.front.elements[4].glyph: needs 'char'",
        ".templates.front.elements[5].staff.note: 'half' is not one of ['whole', 'black', 'void']",
        ".templates.front.elements[5].staff: unknown key 'center'"]


def test_every_key_has_its_doc_and_a_type_or_its_values():
    def walk(node):
        if isinstance(node, dict):
            yield node
            for value in node.values():
                yield from walk(value)
        elif isinstance(node, list):
            for value in node:
                yield from walk(value)

    for schema in (deck_schema(), layout_schema()):
        for node in walk(schema):
            for key in node.get("properties", {}).values() if isinstance(node.get("properties"), dict) else ():
                if "$ref" not in key:  # an element kind: its own definition has the doc
                    assert key.get("description"), key
                    assert {"type", "enum", "anyOf"} & set(key), key
    text = layout_schema()["definitions"]["text"]["properties"]
    assert text["align"]["anyOf"][0]["enum"] == ["left", "center", "right"] and text["size"]["default"] == "9pt"
    assert text["hyphenate"]["anyOf"][0]["enum"] == ["auto", True, False]
    assert text["wrap"]["anyOf"] == [{"type": "boolean"}, {"type": "string", "pattern": r"\{[^{}]+\}"}]
    assert SCALARS["color"] == {"type": "string"}


@pytest.mark.parametrize("which", sorted(SCHEMAS))
def test_deckpress_schema_prints_it(which):
    result = CliRunner().invoke(main, ["schema", which])
    assert result.exit_code == 0, result.output
    assert result.output == schema_text(which) == api.schema(which) == deckpress.schema(which)
    assert json.loads(result.output)["$schema"] == "http://json-schema.org/draft-07/schema#"


def test_deckpress_schema_defaults_to_the_deck_and_refuses_others():
    assert CliRunner().invoke(main, ["schema"]).output == schema_text("deck")
    assert CliRunner().invoke(main, ["schema", "card"]).exit_code == 2


@pytest.mark.parametrize("base", [None, "metronome"])
def test_new_writes_the_schemas_and_names_them_in_the_first_line(tmp_path, base):
    folder = deckpress.new_deck(tmp_path / "my-game", base=base)
    for which in SCHEMAS:
        assert (folder / ".deckpress" / f"{which}.schema.json").read_text(encoding="utf-8") == schema_text(which)
    first = (folder / "deck.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=.deckpress/deck.schema.json"
    layouts = list((folder / "layouts").glob("*.yaml"))
    assert layouts
    for layout in layouts:
        first = layout.read_text(encoding="utf-8").splitlines()[0]
        assert first == "# yaml-language-server: $schema=../.deckpress/layout.schema.json"
        target = os.path.normpath(layout.parent / first.split("$schema=")[1])
        assert Path(target).is_file()
    assert list(deckpress.check(folder).warnings) == []
