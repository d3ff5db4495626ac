"""Layout files: named card templates built from the element kinds in `elements`.

A layout file has three sections, all optional::

    colors:    {ink: "#222222"}                   colour words for the templates
    icons:     {sharp: {glyph: "♯", font: music}} what `:sharp:` draws inside text
    templates: {note: {extends: card, fields: {...}, elements: [...]}}

Templates inherit with `extends` (any depth); an element with the same `id` as an inherited
one replaces it (every one with that id), `- remove: <id>` drops it. Each template declares the card fields it uses
(`fields`, with defaults; `~` marks a field every card must give), so that a typo in a card
or a layout is caught when the deck is loaded, not half-way through a build. The keys a layout
file, an icon and a template may have are declared in `keys`; an element's, in `elements`.
"""

from __future__ import annotations

import re

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..colors import Color
from ..errors import DeckError, suggest
from ..imagefile import raster_pixels
from ..yamlfile import Map, Seq, load_yaml
from .elements import KINDS, Kind
from .keys import ICON, LAYOUT, TEMPLATE, Key, check_keys
from .values import Names, Pattern, known_names, literal_text, parser_for, pattern_of

REQUIRED = object()  #: marks a template field that every card must give
_REPLACED = "\x00"  #: in the name a redefined template is kept under (see `load_layouts`)

#: Fields every template may use without declaring them.
BUILTIN_FIELDS = ("deck.id", "deck.title", "deck.designer", "deck.license", "deck.players", "deck.version",
                  "card.number", "card.total", "component")
#: Fields a `group` with `each` adds for its elements.
LOOP_FIELDS = ("item", "key", "value", "index")


@dataclass(frozen=True)
class Condition:
    """``when:``: every listed field must match."""

    tests: tuple[tuple[str, str, tuple[str, ...]], ...]  # (field, "is" | "not" | "set" | "unset", values)

    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(t[0] for t in self.tests)

    def matches(self, values: Mapping[str, Any]) -> bool:
        """A list field matches when any of its items does (`{next: red}` for next: [red, blue])."""
        for name, op, wanted in self.tests:
            value = values.get(name)
            if op in ("set", "unset"):
                # `false` or `no` as text (a spreadsheet's truth value) is as unset as YAML's false
                present = value not in (None, "", [], {}) and normalise(value) != "false"
                if present != (op == "set"):
                    return False
                continue
            items = value if isinstance(value, (list, tuple)) else [value]
            if any(normalise(v) in wanted for v in items) != (op == "is"):
                return False
        return True


def normalise(value: Any) -> str:
    """Compare field values as text: `4`, `4.0` and `"4"` match; `true` and `yes` match."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, str) and value.lower() in ("yes", "no", "true", "false"):
        return "true" if value.lower() in ("yes", "true") else "false"
    return str(value)


@dataclass(frozen=True)
class Element:
    """One element of a template: its kind, its values (parsed, or patterns), where it was written."""

    kind: str
    values: Mapping[str, Any]  # key -> parsed literal, or Pattern to fill per card
    file: str
    line: int
    key_lines: Mapping[str, int]
    base: Path  # folder that relative file names in this element start from
    id: str | None = None
    when: Condition | None = None
    children: tuple[Element, ...] = ()

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)

    def with_children(self, children: tuple[Element, ...]) -> Element:
        return Element(self.kind, self.values, self.file, self.line, self.key_lines, self.base,
                       self.id, self.when, children)


@dataclass(frozen=True)
class Icon:
    """What `:name:` draws inside a line of text."""

    name: str
    glyph: str | None = None
    font: Any = None  # (Family, style) for glyphs
    image: Path | None = None
    symbol: str | None = None  # a shape name
    scale: float = 1.0
    color: Color | None = None  # None: the colour of the surrounding text
    bold: float = 0.0  # a glyph's outline width, in em


@dataclass
class Template:
    """A card template; after `load_layouts`, with what it extends flattened into it."""

    name: str
    file: str
    line: int
    extends: str | None
    fields: dict[str, Any]
    field_places: dict[str, tuple[str, int]]  # where each field (its default) is written: file, line
    elements: tuple[Element | tuple[str, str, int], ...]  # ("remove", id, line) entries until resolved
    doc: str = ""
    uses: frozenset[str] = frozenset()  # the fields its elements read: all that can make two faces differ


@dataclass
class Layouts:
    """The templates, icons and colour words of a deck's layout files."""

    templates: dict[str, Template] = field(default_factory=dict)
    icons: dict[str, Icon] = field(default_factory=dict)
    colors: dict[str, Color] = field(default_factory=dict)

    def template(self, name: str, where: Map, key: str) -> Template:
        """The template called `name`, or an error pointing at `where[key]`."""
        if name not in self.templates:
            raise where.error(key, f"unknown template '{name}'", suggest(name, self.templates))
        return self.templates[name]


def _expect(node: Any, kind: type, parent: Map | Seq, key: Any, what: str) -> Any:
    if not isinstance(node, kind):
        raise DeckError(f"'{key}' must be {what}", parent.file, parent.line_of(key))
    return node


INLINE_NAME = re.compile(r"[a-z][a-z0-9_-]*")


def check_inline_name(name: Any, node: Map, what: str) -> None:
    """Icons and palette colours are written `:name:` inside text, so their names must be lower case."""
    if not isinstance(name, str) or not INLINE_NAME.fullmatch(name):
        raise node.error(name, f"{what} name '{name}' must be lower case letters, digits, '-' or '_' "
                               f"(it is written :{name}: in text)")


#: Literal values parsed in one pass over a deck's layout files: (type, choices, the value's type, the
#: value, for a file the folder it is found from) -> what it parses to. A layout repeats a few hundred values
#: (every key an element leaves out is its default) thousands of times; what they parse to is immutable.
_Parsed = dict[tuple[Any, ...], Any]
_UNPARSED = object()


def load_layouts(paths: Sequence[Path], generations: Sequence[int] = (), names: Names | None = None,
                 colors: Map | None = None) -> Layouts:
    """Read layout files in order. Names (colours, icons, templates) must be unique among the files of
    one generation; a file of a later generation (a deck that extends another adds them) may
    redefine them, and a template it redefines may extend its own name to build on the one it
    replaces. `colors` (a deck's `colors:`) gives colour words new values where they are defined,
    so the colours made of them follow."""
    names = names if names is not None else Names()
    generations = list(generations) or [0] * len(paths)
    docs = [(path, generation, load_yaml(path)) for path, generation in zip(paths, generations)]
    layouts = Layouts()
    seen: dict[tuple[str, str], tuple[str, int]] = {}

    def claim(section: str, name: str, node: Map, generation: int) -> bool:
        """Note where a name is defined; True if it redefines one of an earlier generation."""
        if (section, name) in seen:
            where, earlier = seen[section, name]
            if earlier >= generation:
                raise node.error(name, f"{section[:-1]} '{name}' is already defined in {where}")
        redefines = (section, name) in seen
        seen[section, name] = (f"{node.file}:{node.line_of(name)}", generation)
        return redefines

    for path, generation, doc in docs:
        if doc is None:
            continue
        if not isinstance(doc, Map):
            raise DeckError("a layout file must be a mapping with 'templates'", path, 1)
        check_keys(doc, LAYOUT)
        section = doc.get("colors") or Map()
        _expect(section, Map, doc, "colors", "a mapping of colour names to colours")
        for name, value in section.items():
            claim("colors", name, section, generation)
            where = section
            if colors is not None and name in colors:
                value, where = colors[name], colors
            try:
                parsed = parser_for("color")(value, Names(colors=dict(layouts.colors)), path.parent)
            except ValueError as exc:
                raise where.error(name, f"colour '{name}': {exc}") from None
            if parsed is None:
                raise where.error(name, f"colour '{name}' cannot be 'none'")
            layouts.colors[name] = parsed
    for name in colors or ():
        if name not in layouts.colors:
            raise colors.error(name, f"no layout colour '{name}' to change; 'colors' gives new values to the "
                                     "layouts' colour words", suggest(str(name), layouts.colors))
    names.colors = layouts.colors

    parsed: _Parsed = {}  # names are settled from here on, so a literal always parses the same
    for path, generation, doc in docs:
        if doc is None:
            continue
        folder = path.parent
        icons = doc.get("icons") or Map()
        _expect(icons, Map, doc, "icons", "a mapping of icon names")
        icons = _named(icons, "icon")
        for name, spec in icons.items():
            claim("icons", name, icons, generation)
            check_inline_name(name, icons, "icon")
            if name in names.palette:
                raise icons.error(name, f"icon '{name}' has the name of a palette colour; "
                                        f"':{name}:' in text would be ambiguous")
            layouts.icons[name] = _load_icon(name, spec, icons, names, folder)
        templates = doc.get("templates") or Map()
        _expect(templates, Map, doc, "templates", "a mapping of template names")
        templates = _named(templates, "template")
        for name, spec in templates.items():
            redefines = claim("templates", name, templates, generation)
            template = _load_template(name, spec, templates, names, folder, parsed)
            if redefines and template.extends == name:
                # builds on the template it replaces, which stays reachable under a name no file can write
                replaced = f"{name}{_REPLACED}{generation}"
                layouts.templates[replaced] = layouts.templates[name]
                template.extends = replaced
            layouts.templates[name] = template

    resolved: dict[str, Template] = {}
    for name in layouts.templates:
        _resolve(name, layouts.templates, resolved, [])
    layouts.templates = {name: t for name, t in resolved.items() if _REPLACED not in name}
    for template in resolved.values():
        known = set(template.fields) | set(BUILTIN_FIELDS)
        template.uses = frozenset(_check_fields(template, template.elements, known))
        for name, default in template.fields.items():
            pattern = pattern_of(default) if isinstance(default, str) else None
            for used in pattern.fields if pattern else ():
                if used not in known:
                    file, line = template.field_places.get(name, (template.file, template.line))
                    raise DeckError(f"the default of field '{name}' in template '{template.name}' uses '{used}', "
                                    "which the template does not declare", file, line, suggest(used, known))
    return layouts


def _load_icon(name: str, spec: Any, parent: Map, names: Names, base: Path) -> Icon:
    spec = _expect(spec, Map, parent, name, "a mapping like {glyph: '♯', font: music}")
    check_keys(spec, ICON, f"icon '{name}'")
    kinds = [k for k in ("glyph", "image", "symbol") if k in spec]
    if len(kinds) != 1:
        raise parent.error(name, f"icon '{name}' needs exactly one of glyph, image or symbol")

    def parse(key: Key) -> Any:
        if key.name not in spec:
            return None if key.default is None else parser_for(key.type)(key.default, names, base)
        try:
            return parser_for(key.type)(spec[key.name], names, base)
        except ValueError as exc:
            raise spec.error(key.name, f"icon '{name}' {key.name}: {exc}") from None

    icon = Icon(name=name, **{key.name: parse(key) for key in ICON.keys})
    if icon.glyph is not None:
        family, style = icon.font
        if not family.file(style).has(icon.glyph):  # said here, where the icon is written
            where = "glyph" if "font" not in spec else "font"
            raise spec.error(where, f"icon '{name}': font '{family.name}' has no character U+{ord(icon.glyph):04X}")
    if icon.image is not None:
        try:  # a picture known whole (and within the bounds) here, where the icon is written
            if icon.image.suffix.lower() in (".svg", ".pdf"):
                # imported here: vectorart imports the text engine, which imports the model
                from ..vectorart import picture_size
                picture_size(str(icon.image))  # drawn as art: read, checked and cached
            else:
                raster_pixels(str(icon.image))
        except ValueError as exc:
            raise spec.error("image", f"icon '{name}' image: {exc}") from None
    return icon


def _named(node: Map, what: str) -> Map:
    """`node` with every key a name as written: `1:` (which YAML reads as a number) is the name
    "1", as `front: 1` in a deck is."""
    if all(isinstance(key, str) for key in node):
        return node
    named = Map()
    named.file, named.line, named.commented = node.file, node.line, dict(node.commented)
    for key, value in node.items():
        name = str(key).lower() if isinstance(key, bool) else "~" if key is None else str(key)
        if name in named:
            raise node.error(key, f"{what} '{name}' is defined twice (first on line {named.line_of(name)})")
        named[name] = value
        named.key_lines[name], named.key_files[name] = node.line_of(key), node.file_of(key)
    return named


def _load_template(name: str, spec: Any, parent: Map, names: Names, base: Path, parsed: _Parsed) -> Template:
    spec = _expect(spec, Map, parent, name, "a mapping with 'elements'")
    check_keys(spec, TEMPLATE, f"template '{name}'")
    fields = spec.get("fields") or Map()
    _expect(fields, Map, spec, "fields", "a mapping of field names to defaults (~ for required)")
    elements = spec.get("elements") or Seq()
    _expect(elements, Seq, spec, "elements", "a list of elements")
    extends = spec.get("extends")
    if isinstance(extends, (int, float)) and not isinstance(extends, bool):
        extends = str(extends)  # `extends: 1` names the template "1"
    if extends is not None and not isinstance(extends, str):
        raise spec.error("extends", "'extends' must name one template")
    return Template(
        name=name, file=spec.file, line=spec.line, extends=extends,
        fields={k: (REQUIRED if v is None else v) for k, v in fields.items()},
        field_places={k: (fields.file_of(k), fields.line_of(k)) for k in fields},
        elements=tuple(_load_elements(elements, names, base, parsed, allow_remove=True)),
        doc=str(spec.get("doc", TEMPLATE["doc"].default)),
    )


def _load_elements(items: Seq, names: Names, base: Path, parsed: _Parsed, allow_remove: bool = False
                   ) -> Iterator[Element | tuple[str, str, int]]:
    for index, item in enumerate(items):
        line = items.line_of(index)
        if not isinstance(item, Map) or len(item) != 1:
            raise DeckError("each element is a mapping with one kind, like '- rect: {...}'", items.file, line)
        (kind_name, params), = item.items()
        if kind_name == "remove" and allow_remove:
            yield ("remove", str(params), line)
            continue
        if kind_name not in KINDS:
            raise item.error(kind_name, f"unknown element kind '{kind_name}'",
                             suggest(kind_name, list(KINDS) + (["remove"] if allow_remove else [])))
        yield _load_element(KINDS[kind_name], params, item, names, base, parsed)


def _load_element(kind: Kind, params: Any, item: Map, names: Names, base: Path, parsed: _Parsed) -> Element:
    params = _expect(params, Map, item, kind.name, f"a mapping of {kind.name} keys")
    check_keys(params, kind)
    for key in kind.required:
        if key not in params:
            raise params.error(kind.name, f"{kind.name} needs '{key}'")
    values: dict[str, Any] = {}
    for key in kind.keys:
        if key.name in ("id", "when", "elements", "each"):
            continue
        raw = params.get(key.name, key.default)
        # with the value's type, as 1, 1.0 and True are equal keys; only a file depends on the folder
        known = (key.type, key.choices, type(raw), raw, base if key.type == "file" else None)
        try:
            value = parsed.get(known, _UNPARSED)
        except TypeError:  # a list: parsed every time
            known, value = None, _UNPARSED
        if value is _UNPARSED:
            value = parse_value(kind, key.name, raw, names, base, params)
            if known is not None:
                parsed[known] = value
        values[key.name] = value
    when = _load_condition(params["when"], params) if "when" in params else None
    children: tuple[Element, ...] = ()
    if kind.name == "group":
        elems = _expect(params["elements"], Seq, params, "elements", "a list of elements")
        children = tuple(_load_elements(elems, names, base, parsed))  # type: ignore[arg-type]
        if "each" in params:
            each = params["each"]
            if not isinstance(each, str) or pattern_of(each):
                raise params.error("each", "'each' names a list field, without braces: each: next")
            values["each"] = each
    return Element(kind.name, values, params.file, params.line, dict(params.key_lines), base,
                   id=str(params["id"]) if "id" in params else None, when=when, children=children)


def parse_value(kind: Kind, key_name: str, raw: Any, names: Names, base: Path, where: Map | None) -> Any:
    """Parse a literal now, or, when loading (`where` given), keep a `{field}` pattern for later.

    Once a card has filled a pattern in, the result is parsed as it stands: braces that came
    from a field's value are text, not placeholders."""
    key = kind.key(key_name)
    assert key is not None
    if isinstance(raw, list) and key.type == "ids":  # a list of ids, any of them `{field}`: one pattern
        raw = ", ".join(str(v) for v in raw)
    pattern = pattern_of(raw) if where is not None else None
    if pattern is not None:
        return pattern
    if where is not None and isinstance(raw, str):
        raw = literal_text(raw)  # '{{' in a layout is a literal brace
    try:
        return parser_for(key.type, key.choices)(raw, names, base)
    except ValueError as exc:
        if where is None:
            raise
        hint = suggest(raw, known_names(key.type, names, key.choices)) if isinstance(raw, str) else None
        raise where.error(key_name, f"{kind.name} {key_name}: {exc}", hint) from None


def _load_condition(spec: Any, parent: Map) -> Condition:
    if not isinstance(spec, Map) or not spec:
        raise parent.error("when", "'when' must map field names to values, like {effect: wild}")
    tests = []
    for name, wanted in spec.items():
        if isinstance(wanted, Map):
            if len(wanted) != 1 or next(iter(wanted)) not in ("not", "set"):
                raise spec.error(name, f"condition on '{name}' must be a value, a list, "
                                       "{not: value} or {set: true|false}")
            (op, arg), = wanted.items()
            if op == "set":
                tests.append((name, "set" if arg else "unset", ()))
                continue
            values = arg if isinstance(arg, list) else [arg]
            tests.append((name, "not", tuple(normalise(v) for v in values)))
        else:
            values = wanted if isinstance(wanted, list) else [wanted]
            tests.append((name, "is", tuple(normalise(v) for v in values)))
    return Condition(tuple(tests))


def _resolve(name: str, raw: dict[str, Template], done: dict[str, Template], stack: list[str]) -> Template:
    """Flatten `extends`: parent elements first, overridden by id, then the template's own."""
    if name in done:
        return done[name]
    template = raw[name]
    if name in stack:
        cycle = " → ".join(n.split(_REPLACED)[0] for n in stack[stack.index(name):] + [name])
        raise DeckError(f"cyclic extends: {cycle}", template.file, template.line)
    if template.extends is None:
        own = [e for e in template.elements if isinstance(e, Element)]
        removes = [e for e in template.elements if not isinstance(e, Element)]
        if removes:
            raise DeckError(f"template '{template.name}' removes '{removes[0][1]}' but extends nothing",
                            template.file, removes[0][2])
        done[name] = Template(template.name, template.file, template.line, None, dict(template.fields),
                              dict(template.field_places), tuple(own), template.doc)
        return done[name]
    if template.extends not in raw:
        raise DeckError(f"template '{template.name}' extends unknown template '{template.extends}'",
                        template.file, template.line, suggest(template.extends, raw))
    parent = _resolve(template.extends, raw, done, stack + [name])
    elements = list(parent.elements)
    inherited = _ids(parent.elements)
    for entry in template.elements:
        if isinstance(entry, Element):
            # the first own element with an inherited id replaces it; own elements never replace
            # each other (two with one id are simply both drawn)
            if entry.id in inherited:
                inherited.discard(entry.id)
                _replace(elements, entry)
                continue
            elements.append(entry)
        else:
            _, target, line = entry
            if not _remove(elements, target):
                raise DeckError(f"template '{template.name}' removes '{target}', which '{parent.name}' does not have",
                                template.file, line)
    fields = dict(parent.fields)
    fields.update(template.fields)
    places = dict(parent.field_places)
    places.update(template.field_places)
    done[name] = Template(template.name, template.file, template.line, template.extends, fields, places,
                          tuple(elements), template.doc)
    return done[name]


def _ids(elements: tuple[Element, ...]) -> set[str]:
    """Every id among `elements` and their groups' children."""
    return {e.id for e in elements if e.id is not None} | {i for e in elements for i in _ids(e.children)}


def _replace(elements: list[Element], new: Element) -> bool:
    """Replace every inherited element with `new`'s id (an id may name the same thing in several
    places, like a corner index and its upside-down twin). True if any was found."""
    return _edit(elements, new.id, new)


def _remove(elements: list[Element], target: str) -> bool:
    """Drop every inherited element with the id `target`; True if any was found."""
    return _edit(elements, target, None)


def _edit(elements: list[Element], target: str | None, new: Element | None) -> bool:
    """Replace (or, with `new` None, drop) every element with the id `target`, inside groups too."""
    found = False
    for i in reversed(range(len(elements))):
        old = elements[i]
        if old.id == target:
            if new is None:
                del elements[i]
            else:
                elements[i] = new
            found = True
        elif old.children:
            children = list(old.children)
            if _edit(children, target, new):
                elements[i] = old.with_children(tuple(children))
                found = True
    return found


def _check_fields(template: Template, elements: tuple[Element, ...], known: set[str]) -> set[str]:
    """Every `{field}` and `when:` field an element uses must be declared by the template.
    Returns the fields used (loop fields of `each` groups aside)."""
    uses: set[str] = set()
    for element in elements:
        used: list[tuple[str, str]] = []
        if element.when:
            used += [(f, "when") for f in element.when.fields]
        for key, value in element.values.items():
            if isinstance(value, Pattern):
                used += [(f, key) for f in value.fields]
        each = element.values.get("each")
        if each:
            used.append((each, "each"))
        for name, key in used:
            if name not in known:
                raise DeckError(
                    f"template '{template.name}' uses field '{name}', which it does not declare in 'fields'",
                    element.file, element.line_of(key), suggest(name, known))
            uses.add(name)
        if element.children:
            inner = known | (set(LOOP_FIELDS) if each else set())
            uses |= _check_fields(template, element.children, inner)
    return uses - (set(LOOP_FIELDS) - known)
