"""Read YAML safely and remember where every mapping key and list item came from.

Deck files may come from strangers: only plain YAML (mappings, lists, strings, numbers,
booleans) is accepted; Python object tags and any other custom tag are refused. Whatever a file
holds, reading it ends in data or in one DeckError naming the file and line: a value a tag cannot
make (`!!int 12x`, `2024-02-30`) as much as a file too big, too deep or too long once its aliases
are expanded (the limits below, listed in docs/ROBUSTNESS.md).
"""

from __future__ import annotations

import functools
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.resolver import Resolver

from .errors import DeckError, display_path

#: Limits no real deck comes near (the biggest bundled file is 20 kB, 8 levels deep) and that keep
#: a hostile file from taking the memory, the time or the stack.
MAX_FILE_BYTES = 2_000_000
MAX_DEPTH = 64  #: mappings and lists inside each other
MAX_NODES = 1_000_000  #: values a file builds, counting each use of an alias in full
MAX_TEXT = 100_000  #: characters in one value


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


# libyaml's parser when PyYAML has it (several times faster), the pure-Python one otherwise; both
# report line numbers. Nodes are composed in Python from the parser's events even with libyaml, as
# libyaml's own composer recurses in C and crashes the process on a file nested 100,000 deep.
try:
    from yaml._yaml import CParser
    _PARSER: tuple[type, ...] = (CParser,)
except ImportError:  # PyYAML without libyaml
    _PARSER = (yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser)


class _Loader(Composer, *_PARSER, SafeConstructor, Resolver):  # type: ignore[misc]
    """The safe loader, building Map/Seq with line numbers, refusing duplicate keys and holding
    every file to the limits above."""

    def __init__(self, text: str, file: str) -> None:
        _PARSER[0].__init__(self, text)  # libyaml's parser, or the reader, takes the text
        for base in _PARSER[1:]:
            base.__init__(self)
        Composer.__init__(self)
        SafeConstructor.__init__(self)
        Resolver.__init__(self)
        self.file = file
        self.lines = text.split("\n")  # the source, to see what a comment took away
        self.depth = 0  # of the node being composed
        self.nodes = 0  # values composed so far, aliases expanded
        self.sizes: dict[yaml.Node, int] = {}  # a composed node -> the values it builds, for its aliases

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node:
        """Compose a node, held to the depth limit, counting the values it builds: an alias
        (`*name`) counts as many as the node it repeats, so a file cannot fold a billion values into
        a few lines."""
        mark = self.peek_event().start_mark
        if self.depth == MAX_DEPTH:
            raise DeckError(f"mappings and lists are nested more than {MAX_DEPTH} deep", self.file, mark.line + 1)
        before = self.nodes
        self.depth += 1
        try:
            node = super().compose_node(parent, index)
        finally:
            self.depth -= 1
        if node in self.sizes:  # an alias of a node composed before
            self.nodes += self.sizes[node]
        else:
            self.nodes += 1
            self.sizes[node] = self.nodes - before
        if self.nodes > MAX_NODES:
            raise DeckError(f"the file builds more than {MAX_NODES:,} values (aliases count each time they "
                            "are used)", self.file, mark.line + 1)
        return node

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        if isinstance(node, yaml.ScalarNode) and len(node.value) > MAX_TEXT:
            raise DeckError(f"a value of {len(node.value):,} characters is too long (at most {MAX_TEXT:,})",
                            self.file, node.start_mark.line + 1)
        try:
            return super().construct_object(node, deep)
        except DeckError:
            raise
        except (ValueError, KeyError, TypeError, AttributeError, OverflowError):
            # PyYAML's constructors fail with plain exceptions on values their tag cannot make
            raise DeckError(_unmakeable(node), self.file, node.start_mark.line + 1) from None


_KINDS = {yaml.MappingNode: "a mapping", yaml.SequenceNode: "a list", yaml.ScalarNode: "a plain value"}


def _unmakeable(node: yaml.Node) -> str:
    """Why a node's tag cannot make its value."""
    tag = node.tag.replace("tag:yaml.org,2002:", "!!")
    if tag in ("!!map", "!!omap", "!!pairs", "!!set", "!!seq"):
        wanted = "a list" if tag == "!!seq" else "a mapping"
        return f"{tag} needs {wanted}, not {_KINDS.get(type(node), 'this')}"
    value = str(node.value)
    short = value if len(value) <= 40 else value[:37] + "…"
    digits = sum(c.isdigit() for c in value)
    if tag == "!!int" and digits > sys.get_int_max_str_digits():
        return f"a number of {digits:,} digits is too long (at most {sys.get_int_max_str_digits():,})"
    if tag == "!!timestamp" and re.fullmatch(r"\d{4}-\d\d?-\d\d?", value):
        return f"'{value}' is not a date that exists (put it in quotes to keep it as text)"
    return f"'{short}' cannot be read as {tag}"


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
        with path.open("rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)  # no more than that, whatever the file's size
    except FileNotFoundError:
        raise DeckError("file not found", shown) from None
    except OSError as exc:
        raise DeckError(f"cannot read the file ({exc.strerror or exc})", shown) from None
    if len(data) > MAX_FILE_BYTES:
        raise DeckError(f"the file is bigger than {MAX_FILE_BYTES // 1_000_000} MB", shown)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DeckError(f"not UTF-8 text ({exc.reason}: 0x{data[exc.start]:02x}); save the file as UTF-8", shown, data.count(b"\n", 0, exc.start) + 1) from None
    return parse_yaml(text, shown)


#: texts kept parsed, and the longest kept (characters): a build reads a deck's file again for
#: each language and a layout shared by decks once a deck; a file far longer is read each time
PARSED_KEPT, PARSED_LONGEST = 32, 256_000


def parse_yaml(text: str, shown: str) -> Any:
    """Parse YAML text that came from `shown` (a file name as the user sees it, for messages and
    for the nodes' `file`).

    The same text from the same file is parsed once a process (a third of what the bundled build
    read was read before) and what it gives is shared: no caller may change it."""
    if len(text) <= PARSED_LONGEST:
        return _parsed(text, shown)
    return _parse(text, shown)


def _parse(text: str, shown: str) -> Any:
    data = _read_plain(text, shown)
    if data is not _UNUSUAL:
        return data
    return _read_in_full(text, shown)


_parsed = functools.lru_cache(maxsize=PARSED_KEPT)(_parse)  # a DeckError is raised again, not kept


def _read_in_full(text: str, shown: str) -> Any:
    """The loader above, for any file: what it reads, or the DeckError of the first problem."""
    loader = None
    try:
        loader = _Loader(text, shown)
        return loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or exc.context or "invalid YAML"
        if "could not determine a constructor" in problem:
            problem = "tags such as " + problem.split("tag ")[-1] + " are not allowed (plain YAML only)"
        elif "maximum nesting depth" in problem:  # newer libyaml stops deep flows (1,000) before we count
            raise DeckError(f"mappings and lists are nested more than {MAX_DEPTH} deep", shown, line) from None
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


# --- the plain reader -------------------------------------------------------------------------------
# Composing yaml.Node objects and then constructing values from them costs four fifths of reading a
# file. Real deck and layout files use a small part of YAML: mappings, lists and untagged scalars,
# anchors and aliases, within every limit. `_read_plain` builds Map and Seq straight from the
# parser's events for those, in one loop with its own stack (so no depth can overflow Python's),
# and gives up on anything else: a tag, a merge key (`<<`), a key that is a mapping or list, a
# duplicate key, a scalar its tag cannot make, any limit reached, a syntax error. The loader above
# then reads the file again from the start, so every error, and every result of the rarer YAML,
# is what it always was.

class _Unusual(Exception):
    """Something `_read_plain` leaves to the full loader."""


_UNUSUAL: Any = object()  #: what `_read_plain` returns when it gives up

if len(_PARSER) == 1:  # libyaml's
    _EventParser: type = _PARSER[0]
else:
    class _EventParser(*_PARSER):  # type: ignore[no-redef,misc]
        def __init__(self, text: str) -> None:
            _PARSER[0].__init__(self, text)
            for base in _PARSER[1:]:
                base.__init__(self)

_STR_TAG = "tag:yaml.org,2002:str"
_NULL_TAG = "tag:yaml.org,2002:null"
#: first characters of the plain scalars an implicit resolver may read as something other than text
#: (every one, if a resolver is registered for any)
_MAYBE_NOT_TEXT = frozenset(Resolver.yaml_implicit_resolvers)
_ANY_MAY_NOT_BE_TEXT = None in _MAYBE_NOT_TEXT
_RESOLVER = Resolver()
_SCALARS = SafeConstructor()
#: plain scalar -> (value, whether it is an empty null); values are immutable, and short words
#: (numbers, `true`, `none`, `18mm`) repeat across a build's files
_PLAIN: dict[str, tuple[Any, bool]] = {}
_PLAIN_MAX = 4096  #: entries, after which the memo starts again
_PLAIN_LONGEST = 64  #: characters; longer scalars are read each time


def _plain_value(text: str) -> tuple[Any, bool]:
    """What an untagged plain scalar means (`12` an int, `~` None, `no` False, …), as the full
    loader's resolver and constructors make it, and whether it is the empty null of `key:`."""
    if text[:1] not in _MAYBE_NOT_TEXT and not _ANY_MAY_NOT_BE_TEXT:
        return text, False
    known = _PLAIN.get(text)
    if known is not None:
        return known
    tag = _RESOLVER.resolve(yaml.ScalarNode, text, (True, False))
    if tag == _STR_TAG:
        known = (text, False)
    else:
        make = _Loader.yaml_constructors.get(tag)
        if make is None:  # a merge key, `=`, …
            raise _Unusual
        try:
            known = (make(_SCALARS, yaml.ScalarNode(tag, text)), tag == _NULL_TAG and text == "")
        except Exception:  # noqa: BLE001 — whatever it is, the full loader says it
            raise _Unusual from None
    if len(text) <= _PLAIN_LONGEST:
        if len(_PLAIN) >= _PLAIN_MAX:
            _PLAIN.clear()
        _PLAIN[text] = known
    return known


_BUSY: Any = object()  #: an anchor whose node is still being read (an alias of it would be a cycle)
_NO_KEY: Any = object()


def _read_plain(text: str, file: str) -> Any:
    """The data of a file of plain YAML (see above), or _UNUSUAL."""
    try:
        parser = _EventParser(text)
    except yaml.YAMLError:
        return _UNUSUAL
    try:
        return _build(parser.get_event, text, file)
    except (_Unusual, yaml.YAMLError):
        return _UNUSUAL
    finally:
        parser.dispose()


def _build(next_event: Any, text: str, file: str) -> Any:
    """Map, Seq and scalars from the events of one document, held to the loader's limits: raises
    _Unusual for anything the full loader must read."""
    ScalarEvent, AliasEvent = yaml.ScalarEvent, yaml.AliasEvent
    SequenceStartEvent, MappingStartEvent = yaml.SequenceStartEvent, yaml.MappingStartEvent
    next_event()  # the stream's start
    event = next_event()
    if type(event) is yaml.StreamEndEvent:
        return None
    if type(event) is not yaml.DocumentStartEvent:
        raise _Unusual
    maybe_not_text = _MAYBE_NOT_TEXT
    any_not_text = _ANY_MAY_NOT_BE_TEXT
    lines: list[str] | None = None  # the source, split when a `key:` without value needs a look
    anchors: dict[str, Any] = {}  # name -> (value, values it builds, line, empty null, end mark)
    built = 0  # values built, an alias counting the values of its node (MAX_NODES)
    # the innermost open mapping or list, and for a mapping the key waiting for its value, that
    # key's line and end mark; the stack holds those of the ones around it, with the values built
    # before each and its anchor
    container: Any = None
    is_map = False
    key: Any = _NO_KEY
    key_line = 0
    key_end: Any = None
    stack: list[tuple[Any, ...]] = []
    while True:
        event = next_event()
        kind = type(event)
        end = None
        if kind is ScalarEvent:
            if len(stack) == MAX_DEPTH or event.tag is not None:
                raise _Unusual
            value = event.value
            if len(value) > MAX_TEXT:
                raise _Unusual
            empty_null = False
            if event.implicit[0] and (value[:1] in maybe_not_text or any_not_text):
                value, empty_null = _plain_value(value)
            built += 1
            start = event.start_mark.line
            anchor = event.anchor
            if anchor is not None:
                if anchor in anchors:
                    raise _Unusual
                end = event.end_mark
                anchors[anchor] = (value, 1, start, empty_null, end)
            elif is_map and key is _NO_KEY:
                end = event.end_mark
        elif kind is AliasEvent:
            if len(stack) == MAX_DEPTH:
                raise _Unusual
            entry = anchors.get(event.anchor, _BUSY)
            if entry is _BUSY:  # undefined, or an alias inside its own node
                raise _Unusual
            value, size, start, empty_null, end = entry
            built += size
            if built > MAX_NODES:
                raise _Unusual
        elif kind is MappingStartEvent or kind is SequenceStartEvent:
            if len(stack) == MAX_DEPTH or event.tag is not None:
                raise _Unusual
            anchor = event.anchor
            if anchor is not None:
                if anchor in anchors:
                    raise _Unusual
                anchors[anchor] = _BUSY
            stack.append((container, is_map, key, key_line, key_end, built, anchor))
            is_map = kind is MappingStartEvent
            container = Map() if is_map else Seq()
            container.file = file
            container.line = event.start_mark.line + 1
            key = _NO_KEY
            continue
        elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
            value = container
            container, is_map, key, key_line, key_end, before, anchor = stack.pop()
            built += 1
            start = value.line - 1
            empty_null = False
            if anchor is not None:
                anchors[anchor] = (value, built - before, start, False, None)
        else:
            raise _Unusual
        if container is None:  # the document's own value
            break
        if not is_map:
            container.append(value)
            container.item_lines.append(start + 1)
        elif key is _NO_KEY:
            if type(value) is Map or type(value) is Seq:  # unhashable: the full loader says so
                raise _Unusual
            key, key_line, key_end = value, start, end
        else:
            if key in container:
                raise _Unusual
            container[key] = value
            container.key_lines[key] = key_line + 1
            if empty_null:
                if lines is None:
                    lines = text.split("\n")
                commented = _COMMENTED_VALUE.match(lines[key_end.line], key_end.column) \
                    if key_end.line < len(lines) else None
                if commented:
                    container.commented[key] = commented.group(1)
            key = _NO_KEY
    if type(next_event()) is not yaml.DocumentEndEvent or type(next_event()) is not yaml.StreamEndEvent:
        raise _Unusual  # a second document
    if built > MAX_NODES:
        raise _Unusual
    return value


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
