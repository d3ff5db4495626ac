"""Read YAML safely and remember where every mapping key and list item came from.

Deck files may come from strangers: only plain YAML (mappings, lists, strings, numbers,
booleans) is accepted; Python object tags and any other custom tag are refused.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
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
        self.commented: dict[Any, str] = {}  # key -> `#c8283c`, for `color: #c8283c`: a comment, so no value
        self.file = ""
        self.line = 0

    def line_of(self, key: Any) -> int:
        return self.key_lines.get(key, self.line)

    def file_of(self, key: Any) -> str:
        return self.key_files.get(key, self.file)

    def error(self, key: Any, message: str, suggestion: str | None = None) -> DeckError:
        """A mistake in the value of `key`; if that value was lost to a comment (`color: #c8283c`
        is `color:` with nothing), the message says so."""
        if key in self.commented and self.get(key) is None:
            message += f" (a # starts a YAML comment: write {key}: \"{self.commented[key]}\")"
        return DeckError(message, self.file_of(key), self.line_of(key), suggestion)

    def overlay(self, over: Map) -> Map:
        """This mapping with `over`'s keys put over it (a deck that extends another): every key
        still knows the file and line it was written on."""
        result = Map(self)
        result.file, result.line = over.file, over.line
        result.key_lines = dict(self.key_lines)
        result.key_files = {key: self.file_of(key) for key in self}
        result.commented = dict(self.commented)
        for key, value in over.items():
            result[key] = value
            result.key_lines[key] = over.line_of(key)
            result.key_files[key] = over.file_of(key)
            if key in over.commented:
                result.commented[key] = over.commented[key]
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
    lines: list[str] = []  # the source, to see what a comment took away


#: `key: #word` with nothing else: a value written without quotes that YAML read as a comment
_COMMENTED_VALUE = re.compile(r"\s*:[ \t]+(#\S+)")


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
        if value_node.tag == "tag:yaml.org,2002:null" and value_node.value == "":
            end = key_node.end_mark
            commented = _COMMENTED_VALUE.match(loader.lines[end.line], end.column) if end.line < len(loader.lines) else None
            if commented:
                result.commented[key] = commented.group(1)
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
        loader.lines = text.split("\n")
        return loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or exc.context or "invalid YAML"
        if "could not determine a constructor" in problem:
            problem = "tags such as " + problem.split("tag ")[-1] + " are not allowed (plain YAML only)"
        elif mark is not None:
            problem, line = _explain(text, mark.line, mark.column, problem)
        raise DeckError(f"YAML syntax: {problem}", shown, line) from None
    except yaml.YAMLError as exc:
        # errors of the reader (control characters, …) carry a position, not a line
        problem = str(exc).splitlines()[0]
        line = text.count("\n", 0, getattr(exc, "position", 0)) + 1 if hasattr(exc, "position") else None
        raise DeckError(f"YAML syntax: {problem}", shown, line) from None
    finally:
        if loader is not None:
            loader.dispose()


# --- explaining syntax errors ---------------------------------------------------------------------
# The parser reports where it gave up, which for the two commonest mistakes is a line late: a `#`
# inside `{…}` or `[…]` (an unquoted colour) starts a comment that takes the closing bracket with
# it, and an unclosed bracket is noticed only at the next line. Both are found in the source text.

COMMENT_HINT = ' (a # starts a comment in YAML: quote colours, like color: "#c8283c")'
_CLOSERS = {"{": "}", "[": "]"}
_BLOCK_SCALAR = re.compile(r"(?:^|[:-]\s)\s*[|>][0-9+-]*\s*(?:#.*)?$")


@dataclass
class _Flow:
    """A `{` or `[` in the source: where it opens and closes (offsets) and the first comment inside."""

    char: str
    line: int
    start: int
    end: int | None = None
    comment: int | None = None  # line of the first comment that starts inside it


def _flows(text: str) -> list[_Flow]:
    """Every flow collection in YAML source, found by brackets outside quotes, comments and
    block scalars: enough to explain a syntax error, not to parse."""
    flows: list[_Flow] = []
    stack: list[_Flow] = []
    quote = None
    block_indent: int | None = None  # inside a `|` or `>` block: lines indented more than this
    offset = 0
    for number, line in enumerate(text.split("\n"), start=1):
        indent = len(line) - len(line.lstrip(" "))
        if block_indent is not None and (not line.strip() or indent > block_indent):
            offset += len(line) + 1
            continue
        block_indent = None
        i = 0
        while i < len(line):
            char = line[i]
            before = line[:i].rstrip()
            if quote:
                if char == "\\" and quote == '"':
                    i += 1
                elif char == quote and line[i + 1:i + 2] == "'" == quote:
                    i += 1  # '' inside single quotes
                elif char == quote:
                    quote = None
            elif char == "#" and (i == 0 or line[i - 1] in " \t"):
                for flow in stack:
                    flow.comment = flow.comment or number
                break
            elif char in "'\"" and (not before or before[-1] in ":-[{,"):
                quote = char
            elif char in _CLOSERS and (not before or before[-1] in ":-[{,"):
                stack.append(_Flow(char, number, offset + i))
                flows.append(stack[-1])
            elif stack and char == _CLOSERS[stack[-1].char]:
                stack.pop().end = offset + i
            i += 1
        if not stack and not quote and _BLOCK_SCALAR.search(line):
            block_indent = indent
        offset += len(line) + 1
    return flows


def _explain(text: str, line: int, column: int, problem: str) -> tuple[str, int]:
    """The message and (1-based) line for a syntax error the parser found at `line`, `column`
    (0-based): at a comment that swallowed the rest of a flow, or at a flow that is never closed;
    otherwise as the parser said it."""
    at = sum(len(source) + 1 for source in text.split("\n")[:line]) + column
    open_here = sorted((f for f in _flows(text) if f.start < at and (f.end is None or f.end >= at)),
                       key=lambda f: f.start, reverse=True)
    for flow in open_here:
        if flow.comment is not None and flow.comment <= line + 1:
            return problem + COMMENT_HINT, flow.comment
    if open_here and open_here[0].end is None:
        flow = open_here[0]
        what = "mapping" if flow.char == "{" else "list"
        return f"this '{flow.char}' is never closed (add '{_CLOSERS[flow.char]}' where the {what} ends)", flow.line
    return problem, line + 1
