"""Read YAML safely and remember where every mapping key and list item came from.

Deck files may come from strangers: only plain YAML (mappings, lists, strings, numbers,
booleans) is accepted; Python object tags and any other custom tag are refused.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml

from .errors import DeckError, display_path


class Node:
    """Mixin for loaded mappings and lists: the file and line they start at."""

    file: str
    line: int


class Map(dict, Node):
    """A YAML mapping that knows the line of each key."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.key_lines: dict[Any, int] = {}
        self.key_files: dict[Any, str] = {}  # keys that came from another file (see `overlay`)
        self.file = ""
        self.line = 0

    def line_of(self, key: Any) -> int:
        return self.key_lines.get(key, self.line)

    def file_of(self, key: Any) -> str:
        return self.key_files.get(key, self.file)

    def error(self, key: Any, message: str, suggestion: str | None = None) -> DeckError:
        return DeckError(message, self.file_of(key), self.line_of(key), suggestion)

    def overlay(self, over: Map) -> Map:
        """This mapping with `over`'s keys put over it (a deck that extends another): every key
        still knows the file and line it was written on."""
        result = Map(self)
        result.file, result.line = over.file, over.line
        result.key_lines = dict(self.key_lines)
        result.key_files = {key: self.file_of(key) for key in self}
        for key, value in over.items():
            result[key] = value
            result.key_lines[key] = over.line_of(key)
            result.key_files[key] = over.file_of(key)
        return result


class Seq(list, Node):
    """A YAML list that knows the line of each item."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.item_lines: list[int] = []
        self.file = ""
        self.line = 0

    def line_of(self, index: int) -> int:
        return self.item_lines[index] if index < len(self.item_lines) else self.line


# libyaml's parser when PyYAML has it (several times faster), the pure-Python one otherwise;
# both are the safe loader and both report line numbers.
_SafeBase = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_SafeBase):  # type: ignore[misc, valid-type]
    """SafeLoader that builds Map/Seq with line numbers and refuses duplicate keys."""

    file = ""


def _construct_map(loader: _Loader, node: yaml.MappingNode) -> Map:
    explicit = sum(1 for key, _ in node.value if key.tag != "tag:yaml.org,2002:merge")
    loader.flatten_mapping(node)  # merged (<<) pairs come first; the mapping's own keys may override them
    merged = len(node.value) - explicit
    result = Map()
    result.file = loader.file
    result.line = node.start_mark.line + 1
    own: set[Any] = set()
    for index, (key_node, value_node) in enumerate(node.value):
        key = loader.construct_object(key_node, deep=True)
        try:
            hash(key)
        except TypeError:
            raise DeckError("a mapping key must be a plain value", loader.file,
                            key_node.start_mark.line + 1) from None
        if index >= merged:
            if key in own:
                raise DeckError(f"key '{key}' appears twice (first on line {result.key_lines[key]})",
                                loader.file, key_node.start_mark.line + 1)
            own.add(key)
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines[key] = key_node.start_mark.line + 1
    return result


def _construct_seq(loader: _Loader, node: yaml.SequenceNode) -> Seq:
    result = Seq(loader.construct_object(child, deep=True) for child in node.value)
    result.file = loader.file
    result.line = node.start_mark.line + 1
    result.item_lines = [child.start_mark.line + 1 for child in node.value]
    return result


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_map)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_seq)


def load_yaml(path: str | os.PathLike[str]) -> Any:
    """Load one YAML file; any problem becomes a DeckError naming file and line."""
    path = Path(path)
    shown = display_path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DeckError("file not found", shown) from None
    except UnicodeDecodeError as exc:
        raise DeckError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", shown) from None
    except OSError as exc:
        raise DeckError(f"cannot read the file ({exc.strerror or exc})", shown) from None
    return parse_yaml(text, shown)


def parse_yaml(text: str, shown: str) -> Any:
    """Parse YAML text that came from `shown` (a file name as the user sees it, for messages and
    for the nodes' `file`)."""
    loader = None
    try:
        loader = _Loader(text)
        loader.file = shown
        return loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or exc.context or "invalid YAML"
        if "could not determine a constructor" in problem:
            problem = "tags such as " + problem.split("tag ")[-1] + " are not allowed (plain YAML only)"
        raise DeckError(f"YAML syntax: {problem}", shown, line) from None
    except yaml.YAMLError as exc:
        # errors of the reader (control characters, …) carry a position, not a line
        problem = str(exc).splitlines()[0]
        line = text.count("\n", 0, getattr(exc, "position", 0)) + 1 if hasattr(exc, "position") else None
        raise DeckError(f"YAML syntax: {problem}", shown, line) from None
    finally:
        if loader is not None:
            loader.dispose()
