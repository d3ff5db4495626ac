"""deckpress.yamlfile: safe YAML that remembers lines, and file-and-line errors for every problem."""

from __future__ import annotations

import textwrap

import pytest

from deckpress.errors import DeckError
from deckpress import yamlfile
from deckpress.yamlfile import Map, Seq, load_yaml, parse_yaml


@pytest.fixture
def write(tmp_path, monkeypatch):
    """Write a YAML file (text is dedented, bytes written as is) in a working folder; return its name."""
    monkeypatch.chdir(tmp_path)

    def write(content: str | bytes, name: str = "deck.yaml") -> str:
        data = content if isinstance(content, bytes) else textwrap.dedent(content).lstrip("\n").encode("utf-8")
        (tmp_path / name).write_bytes(data)
        return name

    return write


def load_error(path) -> DeckError:
    with pytest.raises(DeckError) as info:
        load_yaml(path)
    return info.value


# --- line numbers ------------------------------------------------------------------------------

DECK = """
    id: demo
    title: Demo
    palette:
      red: {color: "#cc2233", symbol: circle}

      blue:
        color: "#2233cc"
    components:
      - name: things
        cards:
          - {title: One}
          - title: Two
            count: 2
      - name: rules
"""


def test_mapping_keys_know_their_lines(write):
    data = load_yaml(write(DECK))
    assert isinstance(data, Map)
    assert data.line == 1
    assert [data.line_of(k) for k in ("id", "title", "palette", "components")] == [1, 2, 3, 8]
    palette = data["palette"]
    assert palette.line == 4
    assert palette.line_of("red") == 4
    assert palette.line_of("blue") == 6
    assert palette["blue"].line_of("color") == 7
    assert palette["red"].line_of("symbol") == 4  # flow mapping: every key on one line


def test_list_items_know_their_lines(write):
    data = load_yaml(write(DECK))
    components = data["components"]
    assert isinstance(components, Seq)
    assert components.line == 9
    assert components.item_lines == [9, 14]
    cards = components[0]["cards"]
    assert [cards.line_of(i) for i in range(2)] == [11, 12]
    assert cards[1].line_of("count") == 13


def test_line_of_unknown_key_or_index_is_the_containers_line(write):
    data = load_yaml(write(DECK))
    assert data["palette"]["blue"].line_of("symbol") == 7
    assert data["components"].line_of(5) == 9


def test_nodes_know_their_file_as_displayed(write):
    data = load_yaml(write(DECK))
    assert data.file == "deck.yaml"
    assert data["components"].file == "deck.yaml"
    assert data["components"][0]["cards"][1].file == "deck.yaml"


def test_map_error_points_at_the_key(write):
    data = load_yaml(write(DECK))
    error = data["palette"]["blue"].error("colour", "unknown key 'colour'", "color")
    assert isinstance(error, DeckError)
    assert str(error) == "deck.yaml:7: unknown key 'colour' — did you mean 'color'?"
    assert str(data.error("title", "bad title")) == "deck.yaml:2: bad title"


def test_scalars_load_as_plain_values(write):
    data = load_yaml(write("""
        n: 3
        x: 2.5
        flag: true
        text: hello
        empty: ~
        quoted: "12"
    """))
    assert data == {"n": 3, "x": 2.5, "flag": True, "text": "hello", "empty": None, "quoted": "12"}
    assert type(data["quoted"]) is str


def test_empty_file_is_none(write):
    assert load_yaml(write("")) is None


def test_utf8_bom_is_accepted(write):
    assert load_yaml(write(b"\xef\xbb\xbfa: 1\n")) == {"a": 1}


# --- refused input -----------------------------------------------------------------------------

def test_duplicate_key_names_both_lines(write):
    error = load_error(write("""
        id: demo
        title: A
        palette: {}
        title: B
    """))
    assert error.file == "deck.yaml"
    assert error.line == 4
    assert str(error) == "deck.yaml:4: key 'title' appears twice (first on line 2)"


def test_duplicate_key_in_a_nested_flow_mapping(write):
    error = load_error(write("""
        cards:
          - {title: One, title: Two}
    """))
    assert str(error) == "deck.yaml:2: key 'title' appears twice (first on line 2)"


def test_same_key_in_different_mappings_is_fine(write):
    assert load_yaml(write("a: {x: 1}\nb: {x: 2}\n")) == {"a": {"x": 1}, "b": {"x": 2}}


def test_unhashable_key_is_refused(write):
    error = load_error(write("""
        ok: 1
        ? [a, b]
        : 2
    """))
    assert (error.line, error.message) == (2, "a mapping key must be a plain value")


@pytest.mark.parametrize("value, tag", [
    ("!!python/object/apply:os.system ['echo hacked']", "python/object/apply:os.system"),
    ("!!python/name:os.system", "python/name:os.system"),
    ("!!python/tuple [1, 2]", "python/tuple"),
    ("!custom thing", "!custom"),
])
def test_object_and_custom_tags_are_refused(write, value, tag):
    error = load_error(write(f"id: demo\naction: {value}\n"))
    assert error.line == 2
    assert error.message.startswith("YAML syntax: tags such as ")
    assert tag in error.message
    assert error.message.endswith("are not allowed (plain YAML only)")


@pytest.mark.parametrize("text, line", [
    ("a: 1\nb: [1, 2\nc: 3\n", 2),  # where the bracket that is never closed was opened
    ("a: 1\n b: 2\n", 2),
    ("a: 1\nb: 'open\n", 3),
    ("a: 1\n- x\n", 2),
    ("a: *missing\n", 1),
])
def test_syntax_errors_carry_the_line(write, text, line):
    error = load_error(write(text))
    assert error.file == "deck.yaml"
    assert error.line == line
    assert error.message.startswith("YAML syntax: ")
    assert str(error).startswith(f"deck.yaml:{line}: YAML syntax: ")


@pytest.mark.parametrize("data, line, detail", [
    (b"id: x\n\ntitle: caf\xe9\n", 3, "invalid continuation byte: 0xe9"),  # Latin-1
    ("title: café\n".encode("utf-16"), 1, "invalid start byte: 0xff"),
])
def test_non_utf8_is_refused_at_the_line_of_the_bad_byte(write, data, line, detail):
    error = load_error(write(data))
    assert error.file == "deck.yaml"
    assert error.line == line
    assert error.message == f"not UTF-8 text ({detail}); save the file as UTF-8"


def test_missing_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    error = load_error("decks/nope/deck.yaml")
    assert str(error) == "decks/nope/deck.yaml: file not found"


@pytest.mark.parametrize("data, line", [
    (b"id: demo\ntitle: \x01\n", 2),
    (b"id: demo\nb: 2\nc: 3\ntitle: ok\x07\n", 4),
])
def test_control_characters_give_a_deck_error_with_the_line(write, data, line):
    error = load_error(write(data))
    assert (error.file, error.line) == ("deck.yaml", line)
    assert error.message.startswith("YAML syntax: ")
    assert "unacceptable character" in error.message


def test_a_folder_gives_a_deck_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "deck.yaml").mkdir()
    error = load_error("deck.yaml")
    assert (error.file, error.line) == ("deck.yaml", None)
    assert error.message.startswith("cannot read the file")


def test_merge_key_can_be_overridden(write):
    data = load_yaml(write("""
        base: &base {color: red, count: 1}
        card:
          <<: *base
          count: 2
    """))
    assert data["card"] == {"color": "red", "count": 2}
    assert data["card"].line_of("count") == 4


def test_duplicate_own_keys_are_refused_next_to_a_merge(write):
    error = load_error(write("""
        base: &base {color: red}
        card:
          <<: *base
          count: 2
          count: 3
    """))
    assert str(error) == "deck.yaml:5: key 'count' appears twice (first on line 4)"


def test_merge_key_without_override(write):
    data = load_yaml(write("""
        base: &base {color: red}
        card:
          <<: *base
          count: 2
    """))
    assert data["card"] == {"color": "red", "count": 2}


# --- the commonest mistakes, explained ---------------------------------------------------------------

HINT = ' (a # starts a comment in YAML: quote colours, like color: "#c8283c")'


@pytest.mark.parametrize("text, line", [
    # the comment takes the closing brace along, and the parser notices a line later
    ("palette:\n  red: {color: #c8283c, symbol: circle}\n  blue: {color: \"#2233cc\", symbol: square}\n", 2),
    ("cards:\n  - {title: One, color: #c8283c}\n  - {title: Two}\n", 2),
    ("next: [red, #c8283c]\nother: 1\n", 1),
    ("palette:\n  red: {color: #c8283c, symbol: circle}\n", 2),  # at the end of the file
    ("a: {b: [1,\n  2, #3]}\nc: 2\n", 2),  # nested, over several lines
])
def test_a_hash_inside_brackets_is_explained_on_its_own_line(write, text, line):
    error = load_error(write(text))
    assert error.line == line
    assert error.message.startswith("YAML syntax: ") and error.message.endswith(HINT)


@pytest.mark.parametrize("text, line, message", [
    ("palette:\n  red: {color: \"#c8283c\", symbol: circle\n  blue: {color: \"#2233cc\", symbol: square}\n", 2,
     "YAML syntax: this '{' is never closed (add '}' where the mapping ends)"),
    ("cards:\n  - [a, b\n  - {x: 1}\nother: 2\n", 2, "YAML syntax: this '[' is never closed (add ']' where the list ends)"),
    ("a: 1\nb: {c: [1, 2]\n", 2, "YAML syntax: this '{' is never closed (add '}' where the mapping ends)"),
    # brackets inside quotes, comments and block text are not brackets
    ("t: \"{[\"  # {\nu: |\n  {x\n  [y\nv: [1\nw: 2\n", 5,
     "YAML syntax: this '[' is never closed (add ']' where the list ends)"),
])
def test_an_unclosed_bracket_is_reported_where_it_was_opened(write, text, line, message):
    error = load_error(write(text))
    assert str(error) == f"deck.yaml:{line}: {message}"


def test_a_bracket_closed_later_keeps_the_parsers_line(write):
    """A mistake inside brackets that are closed is not blamed on them (and there is no #)."""
    error = load_error(write("a: {b: 1,\n    c: 2 d: 3}\ne: 4\n"))
    assert error.line == 2 and "never closed" not in error.message and not error.message.endswith(HINT)


def test_a_value_lost_to_a_comment_is_remembered_for_its_error(write):
    data = load_yaml(write("palette:\n  red:\n    color: #c8283c\n    symbol: circle\n  title:   # to do\n"))
    red = data["palette"]["red"]
    assert red == {"color": None, "symbol": "circle"}
    assert red.commented == {"color": "#c8283c"}
    assert str(red.error("color", "no colour given")) == (
        'deck.yaml:3: no colour given (a # starts a YAML comment: write color: "#c8283c")')
    assert data["palette"].commented == {}  # a real comment after `title:` is no lost value
    assert str(red.error("symbol", "bad")) == "deck.yaml:4: bad"


# --- the plain reader agrees with the full loader ------------------------------------------------------

def _picture(data, seen=None):
    """Loaded data as something to compare: types, values, every line, comments and which mappings
    and lists are one object (an alias)."""
    seen = {} if seen is None else seen
    if isinstance(data, (Map, Seq)):
        if id(data) in seen:
            return ("same as", seen[id(data)])
        seen[id(data)] = len(seen)
    if isinstance(data, Map):
        return ("map", data.file, data.line, [(_picture(k, seen), _picture(v, seen)) for k, v in data.items()],
                list(data.key_lines.items()), data.key_files, list(data.commented.items()))
    if isinstance(data, Seq):
        return ("seq", data.file, data.line, [_picture(v, seen) for v in data], data.item_lines)
    return (type(data).__name__, repr(data))


PLAIN = [
    "",
    "# only a comment\n",
    "---\na: 1\n...\n",
    "just text\n",
    "n: 3\nx: 2.5\nhex: 0x1f\nexp: 1e3\ninf: .inf\nflag: yes\noff: No\nnull: ~\nnothing:\nwhen: 2024-02-03\n"
    "at: 2024-02-03 12:30:00\nclock: 12:30\nneg: -1\nplus: +2.5\nq: '12'\nqq: \"a\\tb\"\nblock: |\n  two\n  lines\n",
    "palette:\n  red:\n    color: #c8283c\n    symbol: circle\n  title:   # to do\n",
    "a: {x: , y: }\nb: [a, ]\n",
    "a: &x [1, 2]\nb: *x\nc: {d: *x}\n",
    "a: &s hello\nb: *s\n? *s\n: 3\n",
    "a: &n\nb: *n\nc: # a comment\n",
    "1: one\n2.5: two\nfalse: three\n~: four\n2024-02-03: five\n",
    "cards:\n  - &one {title: One}\n  - *one\n  - title: Two\n    count: 2\n",
    "[" * 64 + "]" * 64 + "\n",  # as deep as allowed
]


@pytest.mark.parametrize("text", PLAIN)
def test_the_plain_reader_reads_as_the_full_loader(text):
    from deckpress.yamlfile import _UNUSUAL, _read_in_full, _read_plain

    data = _read_plain(text, "f.yaml")
    assert data is not _UNUSUAL
    assert _picture(data) == _picture(_read_in_full(text, "f.yaml"))


def test_the_plain_reader_reads_the_bundled_files_as_the_full_loader():
    from pathlib import Path

    from deckpress.bundled import DATA
    from deckpress.yamlfile import _UNUSUAL, _read_in_full, _read_plain

    files = sorted(Path(DATA).glob("layouts/*.yaml")) + sorted(Path(DATA).glob("decks/**/*.yaml"))
    assert len(files) >= 10
    for path in files:
        text = path.read_text(encoding="utf-8")
        data = _read_plain(text, path.name)
        assert data is not _UNUSUAL, path
        assert _picture(data) == _picture(_read_in_full(text, path.name)), path


@pytest.mark.parametrize("text", [
    "base: &b {color: red}\ncard:\n  <<: *b\n",  # merge keys
    "a: !!int 3\n", "a: !custom x\n", "!!map {a: 1}\n", "a: ! 12\n",  # tags
    "a: =\n",
    "{a: 1, a: 2}\n", "{1: a, true: b}\n",  # duplicate keys
    "? [a, b]\n: 1\n",  # a key that is a list
    "a: 2024-02-30\n", "a: " + "1" * 5000 + "\n",  # values the resolver's tag cannot make
    "a: " + "x" * 100_001 + "\n",
    "[" * 65 + "]" * 65 + "\n", "[" * 100_000 + "]" * 100_000 + "\n",
    "a: &a [x, x]\nb: &b [*a, *a]\n" + "".join(f"c{i}: [{', '.join(['*b'] * 1000)}]\n" for i in range(300)),
    "&r [*r]\n", "a: *nowhere\n", "a: &d 1\nb: &d 2\n",
    "a: 1\n---\nb: 2\n",
    "a: [1, 2\n", "a: 1\n b: 2\n", "a: \x01\n",
])
def test_the_plain_reader_leaves_the_rest_to_the_full_loader(text):
    from deckpress.yamlfile import _UNUSUAL, _read_plain

    assert _read_plain(text, "f.yaml") is _UNUSUAL


# --- each text parsed once -----------------------------------------------------------------------

def test_the_same_text_from_the_same_file_is_parsed_once_and_an_error_every_time():
    text = "a: [1, 2]\nb: {c: 3}\n"
    first = parse_yaml(text, "one.yaml")
    assert parse_yaml(text, "one.yaml") is first
    other = parse_yaml(text, "two.yaml")  # another file: its own nodes, naming it
    assert other == first and other is not first and other.file == "two.yaml"
    for _ in range(2):
        with pytest.raises(DeckError, match=r"bad\.yaml:2: YAML syntax"):
            parse_yaml("a: 1\nb: [\n", "bad.yaml")
    long = "".join(f"k{i}: {'x' * 90}\n" for i in range(yamlfile.PARSED_LONGEST // 90))  # too long to keep
    assert parse_yaml(long, "long.yaml") is not parse_yaml(long, "long.yaml")


def _same_nodes(a, b) -> bool:
    """Equal values, and equal files, lines and key lines all the way down."""
    if type(a) is not type(b):
        return False
    if isinstance(a, Map):
        return ((a.file, a.line, a.key_lines, a.commented) == (b.file, b.line, b.key_lines, b.commented)
                and list(a) == list(b) and all(_same_nodes(a[k], b[k]) for k in a))
    if isinstance(a, Seq):
        return ((a.file, a.line, a.item_lines) == (b.file, b.line, b.item_lines) and len(a) == len(b)
                and all(_same_nodes(x, y) for x, y in zip(a, b)))
    return a == b


def test_building_every_bundled_deck_changes_nothing_it_read(monkeypatch):
    """What parse_yaml keeps is shared by whoever reads the file next: loading and composing
    every bundled deck in every language leaves every text's nodes as a fresh parse makes them."""
    import deckpress.api as api
    from deckpress.builder.faces import compose_faces
    from deckpress.errors import Warnings

    given: dict[tuple[str, str], object] = {}  # each text's nodes, as parse_yaml first gave them
    keep = yamlfile._parsed

    def parsed(text: str, shown: str):
        return given.setdefault((text, shown), keep(text, shown))

    keep.cache_clear()
    monkeypatch.setattr(yamlfile, "_parsed", parsed)
    for listing in api.list_decks(None):
        for lang in api.languages(listing.ref):
            compose_faces(api.load_deck(listing.ref, lang=lang), Warnings())
    assert len(given) > 10  # the decks, their layouts, the layout they share, Kanon's translation
    for (text, shown), nodes in given.items():
        assert _same_nodes(nodes, yamlfile._parse(text, shown)), shown
