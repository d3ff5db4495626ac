"""`deckpress new`: a deck folder to start from, which checks clean and builds as it is.

A new deck is the starter in `starter/` (deck.yaml, a layout, a card list in a CSV, an SVG
picture, a README) with its name filled in. A deck made `--from` another extends it instead:
its deck.yaml holds only the id and title, and a commented example of each kind of change,
written with the other deck's own colour words, palette, components and element ids, so that
removing the `#` signs of one shows it at work.

The folder is written beside its final place and renamed into it, so a failure leaves nothing
half-made, and an existing folder is never touched.
"""

from __future__ import annotations

import os
import shutil
import textwrap
from importlib.resources import as_file, files
from pathlib import Path

import yaml

from ..errors import DeckError, display_path, folder_ref, suggest
from ..model import Deck, load_deck
from ..model.deck import IMAGE_TYPES, bundled_deck_ids, is_deck_id
from ..model.schema import SCHEMAS, schema_text

STARTER = "starter"


def new_deck(folder: str | Path, base: str | None = None) -> Path:
    """Write a new deck folder at `folder` (its name is the deck's id) and return it: the starter
    deck, or with `base` (a bundled id or a deck folder) a deck that extends that one."""
    folder = Path(folder)
    deck_id = folder.name
    if not is_deck_id(deck_id):
        raise DeckError(f"'{deck_id}' cannot name a deck: use letters, digits, '-' or '_' (it becomes the deck's id "
                        "and its output folder)")
    if folder.exists() or folder.is_symlink():
        raise DeckError(f"'{display_path(folder)}' already exists; deckpress new never writes over a folder: "
                        "choose another name")
    if not folder.parent.is_dir():
        raise DeckError(f"no folder '{display_path(folder.parent)}' to make the deck in")
    names = {"__ID__": deck_id, "__TITLE__": _title(deck_id), "__REF__": folder_ref(display_path(folder))}
    parent = _base_deck(base, deck_id) if base is not None else None
    partial = folder.with_name(f".{deck_id}.new-{os.getpid()}")
    try:
        if parent is None:
            _copy_starter(partial, names)
        else:
            _write_extending(partial, names, base, parent)
        _write_schemas(partial)
        partial.rename(folder)
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return folder


#: Where a new deck keeps the JSON Schemas its deck.yaml and layouts name in their first line, for
#: editors (yaml-language-server reads a relative `$schema` from the file's own folder): a copy
#: in the deck, so it works offline and wherever deckpress is installed (`deckpress schema` prints
#: them afresh after an update).
SCHEMA_FOLDER = ".deckpress"
DECK_SCHEMA_LINE = f"# yaml-language-server: $schema={SCHEMA_FOLDER}/deck.schema.json\n"
LAYOUT_SCHEMA_LINE = f"# yaml-language-server: $schema=../{SCHEMA_FOLDER}/layout.schema.json\n"


def _write_schemas(target: Path) -> None:
    (target / SCHEMA_FOLDER).mkdir()
    for which in SCHEMAS:
        (target / SCHEMA_FOLDER / f"{which}.schema.json").write_text(schema_text(which), encoding="utf-8")


def _title(deck_id: str) -> str:
    """`fruit-salad` → `Fruit Salad`."""
    return " ".join(word[:1].upper() + word[1:] for word in deck_id.replace("_", "-").split("-") if word)


def _copy_starter(target: Path, names: dict[str, str]) -> None:
    with as_file(files(__package__) / STARTER) as starter:
        for source in sorted(starter.rglob("*")):
            if source.is_dir() or source.name.startswith(".") or "__pycache__" in source.parts:
                continue
            relative = Path(*(_fill(part, names) for part in source.relative_to(starter).parts))
            (target / relative).parent.mkdir(parents=True, exist_ok=True)
            (target / relative).write_text(_fill(source.read_text(encoding="utf-8"), names), encoding="utf-8")


def _fill(text: str, names: dict[str, str]) -> str:
    for placeholder, value in names.items():
        text = text.replace(placeholder, value)
    return text


def _base_deck(base: str, deck_id: str) -> Deck:
    try:
        parent = load_deck(base)
    except DeckError as exc:
        if exc.file is None:  # no such deck at all: say so with the ids there are
            raise DeckError(f"no deck '{base}' to start from: not a bundled deck id nor a folder with deck.yaml",
                            suggestion=suggest(base, bundled_deck_ids())) from None
        raise
    if parent.id == deck_id:
        raise DeckError(f"the new deck needs an id of its own, not '{deck_id}' like the deck it extends: "
                        "choose another name")
    return parent


def _extends_ref(base: str, target: Path) -> str:
    """How the new deck names its base: a bundled id as it is, a folder by its path from the new one."""
    if is_deck_id(base) and base in bundled_deck_ids():
        return base
    found = Path(base).resolve()
    found = found.parent if found.is_file() else found
    return Path(os.path.relpath(found, target.resolve())).as_posix()


def _write_extending(target: Path, names: dict[str, str], base: str, parent: Deck) -> None:
    (target / "layouts").mkdir(parents=True)
    ref = _extends_ref(base, target)
    (target / "deck.yaml").write_text(DECK_SCHEMA_LINE + _extending_deck(names, ref, parent), encoding="utf-8")
    (target / "layouts" / f"{names['__ID__']}.yaml").write_text(
        LAYOUT_SCHEMA_LINE + _extending_layout(names, parent), encoding="utf-8")
    (target / "README.md").write_text(_extending_readme(names, parent), encoding="utf-8")
    for language in parent.languages[1:]:  # the new title, in each language the deck is printed in
        entry = f"- {{{parent.language}: {_flow(names['__TITLE__'])}, {language}: {_flow(names['__TITLE__'])}}}\n"
        (target / "translations").mkdir(exist_ok=True)
        (target / "translations" / f"{language}.yaml").write_text(
            f"# Added to {parent.title}'s translations into '{language}' (and put over them).\n{entry}",
            encoding="utf-8")


def _commented(lines: list[str]) -> list[str]:
    return [f"# {line}" if line else "#" for line in lines]


def _flow(value: object) -> str:
    """A value as YAML on one line: `4`, `red`, `[gold, blue]`, `"½"`."""
    return yaml.safe_dump(_plain(value), default_flow_style=True, allow_unicode=True, width=10_000).strip().removesuffix(
        "\n...").strip()


def _plain(value: object) -> object:
    """Loaded lists and mappings (which remember their lines) as plain ones, for the YAML writer."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _extending_deck(names: dict[str, str], ref: str, parent: Deck) -> str:
    """deck.yaml for a deck that extends `parent`, with a commented example of each kind of change,
    written with the parent's own names and values so that each works once uncommented."""
    own_colors = [name for name in parent.layouts.colors if name not in ("ink", "paper", "muted", "faint")]
    color = (own_colors or list(parent.layouts.colors))[0]
    first = parent.components[0]
    card = first.cards[0]
    defaults = {k: v for t in (first.front, first.back) if t for k, v in t.fields.items()}
    own = {k: v for k, v in card.fields.items() if defaults.get(k) != v}
    pictures = _pictures(parent)
    named = parent.title if ref == parent.title else f"{parent.title} ({ref})"
    lines = [
        f"# {names['__TITLE__']}: {parent.title} with changes of its own, made with `deckpress new --from`.",
        f"# Everything not written here comes from {named}. Each commented block",
        "# below is one kind of change: remove the # before its YAML lines to try it. DECKS.md,",
        "# \"extends\", says more.",
        f"extends: {ref}",
        f"id: {names['__ID__']}",
        f"title: {names['__TITLE__']}",
        "",
    ]
    lines += _commented([
        f"New values for the layouts' colour words ({', '.join(parent.layouts.colors)}):",
        "colors:",
        f"  {color}: \"{parent.layouts.colors[color].hex}\"",
    ])
    if parent.names.palette:
        entry = next(iter(parent.names.palette.values()))
        lines += [""] + _commented([
            f"A palette colour changes its colour and keeps its symbol ({', '.join(parent.names.palette)}):",
            "palette:",
            f"  {entry.name}: {{color: \"{entry.color.hex}\"}}   # its symbol stays a {entry.symbol}",
        ])
    lines += [""] + _commented([
        "Components are replaced by name (cards and all), dropped, or added. Those there are:",
        *_wrapped(", ".join(c.name for c in parent.components) + "."),
        "components:",
        f"  - remove: {parent.components[-1].name}",
        f"  - name: more-{first.name}       # a new name adds a component",
        f"    front: {first.front.name}",
        *([f"    back: {first.back.name}"] if first.back else []),
        "    cards:",
        "      - {" + ", ".join(f"{k}: {_flow(v)}" for k, v in own.items()) + "}",
        "",
        f"Your own templates, in layouts/{names['__ID__']}.yaml (it has an example):",
        f"layouts: [{names['__ID__']}]",
    ])
    if pictures:
        lines += [""] + _commented([
            "A picture is replaced by your own file at the same path in this folder. Those there are:",
            *_wrapped(", ".join(pictures) + "."),
        ])
    return "\n".join(lines) + "\n"


def _wrapped(text: str, width: int = 92) -> list[str]:
    return textwrap.wrap(text, width, break_on_hyphens=False)


def _extending_layout(names: dict[str, str], parent: Deck) -> str:
    """A layout file, all comments until used: how to build on one of the parent's templates."""
    first = parent.components[0]
    back = first.back or first.front
    ids = list(dict.fromkeys(e.id for e in back.elements if e.id))
    return "\n".join([
        f"# Templates of {names['__TITLE__']}, read after those of {parent.title} once deck.yaml lists this",
        "# file in its `layouts`. A template with an inherited name replaces it; one that extends",
        "# its own name builds on it, and there an element with an inherited id replaces that element",
        "# and `- remove: <id>` drops it. LAYOUTS.md, \"extends\", lists the ids of the bundled templates.",
        "#",
        *_commented([
            "templates:",
            f"  {back.name}:",
            f"    extends: {back.name}       # ids: {', '.join(ids) or 'none'}",
            "    elements:",
            *([f"      - remove: {ids[-1]}"] if ids else []),
            "      - text: {text: \"{deck.title}\", x: 5mm, y: 5mm, w: 100% - 10mm, h: 8mm, color: ink}",
        ]),
    ]) + "\n"


def _pictures(deck: Deck) -> list[str]:
    """The picture files in a deck's folder, by the path that replaces them."""
    return sorted({p.relative_to(folder).as_posix() for folder in deck.folders for p in folder.rglob("*")
                   if p.suffix.lower() in IMAGE_TYPES and p.is_file()})


def _extending_readme(names: dict[str, str], parent: Deck) -> str:
    return f"""# {names['__TITLE__']}

{parent.title} by {parent.designer} ({parent.license}), with changes of its own: see deck.yaml, whose
commented blocks show each kind of change. Everything it does not change comes from {parent.title}.

    deckpress check {names['__REF__']}     # every mistake, with its file and line
    deckpress build {names['__REF__']}     # printable PDFs in output/{names['__ID__']}/

{parent.title} is by {parent.designer} and published under {parent.license}; keep that credit, and
the licence's terms, when you share this deck.
"""
