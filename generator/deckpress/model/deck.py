"""Deck files: `decks/<id>/deck.yaml`, the inventory of a game.

Loading a deck reads its layouts too and checks everything that can be checked before a
build: keys, types, names of templates, colours and fonts, the fields each card gives
against the fields its templates declare, counts, and that every file stays inside the
deck's folder or the bundled layouts and fonts. The keys each part of a deck file may have,
which are needed and their defaults, are declared in `keys`.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from ..bundled import DECKS_DIR, FONTS_DIR, LAYOUTS_DIR
from ..errors import DeckError, Stopped, carry_on, mistakes_said, report, suggest
from ..paths import MAX_NAME, OUTSIDE, PathError, check_length, confined, existing_file, readable, real, where
from ..pieceshape import KINDS as PIECE_SHAPES, RECTANGLE, PieceShape, parse_shape
from ..text.fonts import (FONT_SUFFIXES, FontError, FontSet, axes_of, check_embeddable, font_ref, instances_of,
                          open_font)
from ..units import HOME_PAPERS, MAX_GAP, MIN_MARGIN, PAPERS, PT, parse_absolute, parse_size
from ..yamlfile import Map, Seq, load_yaml
from .translations import Translator, languages, load_translator
from .cardsource import (CARD_LIST_TYPES, CardFetcher, RemoteList, read_card_list, remote_cards, shared_fetcher,
                         web_address)
from .cardtable import TABLE_TYPES, WORKBOOK_TYPES, CardTable, header_key
from .keys import (BOX, CARD, CARD_TABLE, COMPONENT, DECK, FONT, FONT_FILE, MAX_CARDS, MAX_COPIES, MAX_COUNT, PALETTE,
                   SIZE, check_keys)
from .layout import REQUIRED, Layouts, Template, check_inline_name, load_layouts
from .values import Names, PaletteColor, parser_for, pattern_of

DECK_FILE = "deck.yaml"


@dataclass(frozen=True)
class CardSize:
    """A card's or piece's trim size and corner radius, in mm."""

    width: float
    height: float
    radius: float


#: Card size presets (trim, mm) and their usual corner radius.
CARD_SIZES: dict[str, CardSize] = {
    "poker": CardSize(63.5, 88.9, 3.0),
    "poker-metric": CardSize(63.0, 88.0, 3.0),
    "bridge": CardSize(57.15, 88.9, 3.0),
    "standard-american": CardSize(56.0, 87.0, 3.0),
    "standard-euro": CardSize(59.0, 92.0, 3.0),
    "tarot": CardSize(70.0, 120.0, 4.0),
    "jumbo": CardSize(88.9, 139.7, 4.0),
    "mini-euro": CardSize(44.0, 68.0, 2.5),
    "mini-american": CardSize(41.0, 63.0, 2.5),
    "square-70": CardSize(70.0, 70.0, 3.0),
}

CARD_MIN = 20.0  #: mm, a card's shortest side: anything smaller cannot be cut out or held
PIECE_MIN = 10.0  #: mm, a component's pieces (markers, tokens) may be smaller than a card, but not this
PIECE_MAX = 1000.0  #: mm, and bigger than the paper (they are tiled), but not past a metre a side

SHEETS = COMPONENT["sheet"].choices
NAME_FIELDS = ("deck.designer", "deck.license")  # filled in already translated by Deck.name

IMAGE_TYPES = (".png", ".jpg", ".jpeg", ".webp", ".tif", ".tiff", ".gif", ".bmp", ".psd", ".svg", ".pdf")
FONT_TYPES = FONT_SUFFIXES
KIND_NAMES = {IMAGE_TYPES: "a PNG, JPEG, WebP, TIFF, GIF, BMP, PSD, SVG or PDF image",
              FONT_TYPES: "a font file (.ttf, .otf, .ttc, .otc, .woff or .woff2)",
              TABLE_TYPES: "a .csv, .tsv, .xlsx or .ods spreadsheet",
              CARD_LIST_TYPES: "a card list: a .csv, .tsv, .xlsx or .ods spreadsheet, or a .json or .yaml list"}
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")


@dataclass(frozen=True)
class Card:
    """One entry of a component's card list; `count` copies of it are printed."""

    component: str
    number: int  # 1-based position in its component
    fields: dict[str, Any]
    count: int
    file: str
    line: int
    # the fields the card does not give itself, each where its default is written (a template's
    # `fields:` in a layout, or the component's in the deck file): a mistake in what a default
    # makes is said there, and the live page marks them as defaults
    defaults: dict[str, tuple[str, int]] = field(default_factory=dict)
    # the fields the card list names, in its order: a spreadsheet's columns (also those this row
    # leaves empty), a YAML card's keys; the live page lists the fields so
    order: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """What a player would call the card: its first name-like field that says something, or
        "" if it has none. An empty one is passed over: a template that declares `name: ""` for
        cards without a name would otherwise hide the `title` of every card."""
        for key in ("name", "title", "value", "pitch", "kind"):
            value = self.fields.get(key)
            if isinstance(value, (str, int, float)) and not isinstance(value, bool) and str(value).strip():
                return " ".join(str(value).split())
        return ""

    @property
    def label(self) -> str:
        value = self.name
        if not value:
            return f"{self.component} #{self.number}"
        return f"{self.component} #{self.number} ({value[:24] + '…' if len(value) > 25 else value})"


@dataclass
class Component:
    """A kind of card in the game: its templates, sheet, size and card list."""

    name: str
    front: Template
    back: Template | None
    sheet: str
    cards: list[Card]
    file: str
    line: int
    size: CardSize
    copies: int = 1  # the card list is printed this many times (once per player for `copies: players`)
    listed: int = 0  # its card list's length, when a playtest build prints some of it (`selection`)
    left_out: list[Card] = field(default_factory=list)  # its cards with `count: 0`, printed nowhere
    shape: PieceShape = RECTANGLE  # what its pieces are cut to (`shape:`); a rectangle by default
    standee: float | None = None  # mm of foot tab at each end of a fold-over standee (`standee:`); None: not one

    @property
    def total(self) -> int:
        """How many entries its card list has (`{card.number}/{card.total}`), all printed or not."""
        return self.listed or len(self.cards)

    @property
    def card_count(self) -> int:
        return self.copies * sum(c.count for c in self.cards)

    def printed(self) -> Iterator[Card]:
        """Every printed card, each copy separately: set after set, each in inventory order."""
        for _ in range(self.copies):
            for card in self.cards:
                for _ in range(card.count):
                    yield card


@dataclass
class Deck:
    """A loaded and checked deck: what a build composes and prints."""

    id: str
    title: str
    designer: str
    license: str
    players: str
    size: CardSize
    bleed: float
    folder: Path
    file: str
    names: Names
    layouts: Layouts
    components: list[Component] = field(default_factory=list)
    player_count: int | None = None  # players the build is for, when the deck states a range
    language: str = "en"  # the language the deck is written in
    languages: list[str] = field(default_factory=lambda: ["en"])  # … and those it has translations into
    translate: Translator | None = None  # set when printing in another language
    box: bool = True  # print a tuck box for it (`box: none` in the deck file says no)
    box_cover: tuple[str, int] | None = None  # component and card number whose front is on the box
    box_contents: str | None = None  # what the box says it holds (`box: {contents: …}`), if the deck says
    box_font: str = "sans"  # the family the box's words are set in (`box: {font: …}`)
    box_credit: bool = True  # the box's back says "made with deckpress" (`box: {credit: false}` says no)
    box_subtitle: str = ""  # a line under the title on the box's front (`box: {subtitle: …}`)
    folders: tuple[Path, ...] = ()  # its folder, then those of the decks it extends: where its files are found
    card_sources: list[RemoteList] = field(default_factory=list)  # card lists read from web addresses, as fetched
    gap: float = 0.0  # mm between neighbouring cards on home sheets (0: butted, sharing cut lines)
    min_size: float = 6 * PT  # mm: text fitted below this size is warned of (`small-text`)
    version: str = ""  # the deck's `version:`, printed on the sheets' labels and as {deck.version}

    def cover(self) -> tuple[Component, Card] | None:
        """The card whose front goes on the box: the one `box: {cover: …}` names, else the first
        card of the first component printed as cards (or of any, if none is)."""
        if self.box_cover is not None:
            name, number = self.box_cover
            component = next(c for c in self.components if c.name == name)
            return component, next(card for card in component.cards if card.number == number)
        for component in sorted(self.components, key=lambda c: c.sheet != "cards"):
            if component.cards:
                return component, component.cards[0]
        return None

    @property
    def lang(self) -> str:
        """The language this deck is being printed in."""
        return self.translate.target if self.translate else self.language

    def card_count(self, sheet: str | None = None) -> int:
        return sum(c.card_count for c in self.components if sheet in (None, c.sheet))

    def cards(self, sheet: str) -> Iterator[tuple[Component, Card]]:
        """Every printed card of a sheet kind, in inventory order, each copy separately."""
        for component in self.components:
            if component.sheet == sheet:
                for card in component.printed():
                    yield component, card

    @property
    def meta_fields(self) -> dict[str, Any]:
        return {"deck.id": self.id, "deck.title": self.title, "deck.designer": self.name(self.designer),
                "deck.license": self.name(self.license), "deck.players": self.players, "deck.version": self.version}

    def name(self, text: str) -> str:
        """A designer or licence in the language being printed: names need no translation, but
        a catalogue entry (say "unbekannt" → "unknown") is used when there is one."""
        return self.translate.optional(text) if self.translate else text


def find_deck(ref: str) -> Path:
    """A bundled deck id or a path to a deck folder (or its deck.yaml) -> the deck.yaml path."""
    path = Path(ref)
    for candidate in (path, path / DECK_FILE):  # a loop of links, a name too long: said as such
        try:
            real(candidate, ref)
        except PathError as exc:
            raise DeckError(f"'{candidate.name}' {exc.reason}", where(candidate)) from None
    if path.is_file():
        return path
    if path.is_dir():  # a deck.yaml that is there but is no file (a link to nothing, a folder) is said
        try:
            if existing_file(path / DECK_FILE, [real(path)], DECK_FILE):
                return path / DECK_FILE
        except PathError as exc:
            if exc.reason == OUTSIDE:  # said at its first line when it is read (`_deck_folder`)
                return path / DECK_FILE
            raise DeckError(str(exc), where(path / DECK_FILE)) from None
    if _NAME.fullmatch(ref) and (DECKS_DIR / ref / DECK_FILE).is_file():
        return DECKS_DIR / ref / DECK_FILE
    raise DeckError(f"no deck '{ref}': not a bundled deck id nor a folder with {DECK_FILE}",
                    suggestion=suggest(ref, bundled_deck_ids()))


def is_deck_id(text: str) -> bool:
    """Letters, digits, '-' and '_', starting with a letter or digit: an id names a folder."""
    return _NAME.fullmatch(text) is not None


def bundled_deck_ids() -> list[str]:
    return sorted(p.parent.name for p in DECKS_DIR.glob(f"*/{DECK_FILE}"))


def deck_languages(ref: str | Path) -> list[str]:
    """The languages a deck is in, its own first: `load_deck(ref).languages`, from its deck files
    and translation folders alone, without its layouts, fonts or cards (a build asks every deck
    before it starts, to build each in all of them)."""
    chain = _chain(find_deck(str(ref)))
    return languages(tuple(source.folder for source in chain), _language(_merge(chain)))


def _language(doc: Map) -> str:
    return _text(doc, "language") if "language" in doc else DECK["language"].default


def load_deck(ref: str | Path, players: int | None = None, lang: str | None = None,
              cards: CardFetcher | None = None) -> Deck:
    """Load and check a deck; every problem is a DeckError naming file, line and key.

    `players` sets how many copies components with `copies: players` get; by default, enough
    for the most players the deck's `players` range allows. `lang` prints the deck in one of
    its translations (by default, in the language it is written in). A deck that `extends`
    another is loaded as the other with its own keys put over it (see `_merge`). `cards` fetches
    card lists at web addresses: one fetcher shared by the loads of a build asks each address
    once (by default, the one of the `fetching` block it runs in, else its own)."""
    fetcher = shared_fetcher() if cards is None else cards
    chain = _chain(find_deck(str(ref)))
    doc = _merge(chain)
    folders = tuple(source.folder for source in chain)
    for key in DECK.required:
        if key not in doc:
            raise DeckError(f"the deck needs '{key}'", doc.file, 1)

    deck_id = _text(doc, "id")
    if not _NAME.fullmatch(deck_id):
        raise doc.error("id", f"deck id '{deck_id}' must be letters, digits, '-' or '_' (it names the output folder)")

    find = _FileFinder(folders)
    fonts = FontSet(_load_fonts(doc.get("fonts"), doc, find, chain))
    names = Names(fonts=fonts, resolve_file=find)
    names.palette = _load_palette(doc.get("palette"), doc)
    colors = doc.get("colors")
    if colors is not None and not isinstance(colors, Map):
        raise doc.error("colors", "'colors' maps the layouts' colour words to new colours, like {navy: \"#1b2a4a\"}")
    layouts = load_layouts(*zip(*_layout_files(chain)), names=names, colors=colors)

    deck = Deck(
        id=deck_id, title=_text(doc, "title"), designer=_text(doc, "designer"),
        license=_text(doc, "license"), players=_text(doc, "players") if "players" in doc else "",
        size=_card_size(doc.get("card", DECK["card"].default), doc), bleed=_bleed(doc),
        folder=folders[0], file=doc.file, names=names, layouts=layouts, folders=folders, gap=_gap(doc),
        min_size=_min_size(doc), version=_text(doc, "version") if "version" in doc else "",
    )
    deck.player_count = _player_count(doc, players)
    deck.language = _language(doc)
    deck.languages = languages(folders, deck.language)
    if lang is not None and lang != deck.language:
        deck.translate = load_translator(folders, deck.language, lang, deck.languages)
    components = doc["components"]
    if not isinstance(components, Seq) or not components:
        raise doc.error("components", "'components' must be a list of components, each with name, front and cards")
    seen: set[str] = set()
    for index, spec in enumerate(components):
        with carry_on():  # a check goes on to the next component, and the next card file
            component = _load_component(spec, components, index, layouts, deck, fetcher)
            if component.name in seen:
                raise spec.error("name", f"component name '{component.name}' is used twice")
            seen.add(component.name)
            deck.components.append(component)
            if deck.card_count() > MAX_CARDS:
                raise spec.error("copies" if component.copies > 1 else "cards",
                                 f"the deck prints {deck.card_count():,} pieces with component '{component.name}': "
                                 f"a deck prints at most {MAX_CARDS:,}")
    if mistakes_said():
        return deck  # a check that found mistakes: the box would be checked against cards left unread
    deck.box, deck.box_cover, deck.box_contents = _box(doc, deck.components)
    deck.box_font, deck.box_credit, deck.box_subtitle = _box_look(doc, deck.names.fonts)
    return deck


@dataclass(frozen=True)
class _Source:
    """One deck file of a deck and the decks it extends."""

    folder: Path
    doc: Map


#: how many decks deep `extends` may go: enough for a variant of a variant, short of a runaway chain
MAX_EXTENDS = 8


def _chain(path: Path) -> list[_Source]:
    """The deck file at `path` and every deck it extends, nearest first."""
    chain: list[_Source] = []
    while True:
        folder = _deck_folder(path)
        if any(source.folder == folder for source in chain):  # said at the `extends` that closes the circle
            cycle = " → ".join([s.folder.name for s in chain] + [folder.name])
            raise chain[-1].doc.error("extends", f"decks extend each other in a circle: {cycle}")
        doc = load_yaml(path)
        if not isinstance(doc, Map):
            raise DeckError("a deck file must be a mapping with id, title, components, …", path, 1)
        check_keys(doc, DECK)
        chain.append(_Source(folder, doc))
        if "extends" not in doc:
            return chain
        if len(chain) > MAX_EXTENDS:
            raise doc.error("extends", f"decks extend one another more than {MAX_EXTENDS} deep")
        path = _parent_deck(doc, folder)


def _deck_folder(path: Path) -> Path:
    """The folder of the deck file at `path`, resolved: the deck file (a link or not) must lie in
    it, since everything it names is found from there."""
    try:
        folder = real(path.parent)
        confined(path, [folder], DECK_FILE)
    except PathError as exc:
        raise DeckError(f"{DECK_FILE} {exc.reason}", path, 1) from None
    return folder


def _parent_deck(doc: Map, folder: Path) -> Path:
    """The deck.yaml that `extends:` names: a bundled deck's id, or a relative path to a deck folder.
    Only a folder holding a deck.yaml is read: extending points at a deck, never at any file."""
    written = doc["extends"]
    if not isinstance(written, str) or not written.strip():
        raise doc.error("extends", "'extends' names one deck: a bundled id like metronome, or a folder like ../base")
    try:
        check_length(written)
    except PathError as exc:
        raise doc.error("extends", f"extends: {exc}") from None
    if _NAME.fullmatch(written) and (DECKS_DIR / written / DECK_FILE).is_file():
        return DECKS_DIR / written / DECK_FILE
    if Path(written).is_absolute():
        raise doc.error("extends", f"'{written}' must be a bundled deck id or a path relative to this deck's folder")
    if (folder / written / DECK_FILE).is_file():
        return folder / written / DECK_FILE
    near = [p.parent.name for p in folder.parent.glob(f"*/{DECK_FILE}")]
    raise doc.error("extends", f"no deck '{written}' to extend: not a bundled deck id nor a folder with {DECK_FILE}",
                    suggest(written, bundled_deck_ids() + [f"../{name}" for name in near]))


def _merge(chain: list[_Source]) -> Map:
    """One deck file from a chain: the farthest deck, each nearer one's keys put over it.

    Keys replace the inherited ones, but for: `palette` and `colors`, which change entries by
    name (a palette entry may give just a new `color`); `fonts`, which replace families by name;
    and `components`, which replace components by name, drop them with `- remove: <name>`, or add
    new ones. `layouts` are read by `_layout_files`."""
    doc = chain[-1].doc
    for source in reversed(chain[:-1]):
        own = source.doc
        if "id" not in own:
            raise DeckError("a deck that extends another needs its own 'id' (it names the output folder)",
                            own.file, 1)
        if own["id"] == doc.get("id"):
            raise own.error("id", f"this deck extends '{own['extends']}', whose id is '{doc['id']}' too; give it "
                                  "its own (it names the output folder)")
        merged = doc.overlay(own)
        for key in ("palette", "colors", "fonts"):
            if isinstance(doc.get(key), Map) and isinstance(own.get(key), Map):
                merged[key] = doc[key].overlay(own[key])
                if key == "palette":  # an entry may change its colour and keep its symbol
                    for name, entry in own[key].items():
                        if isinstance(entry, Map) and isinstance(doc[key].get(name), Map):
                            merged[key][name] = doc[key][name].overlay(entry)
        if "components" in own and isinstance(doc.get("components"), Seq):
            merged["components"] = _merge_components(doc["components"], own)
        doc = merged
    return doc


def _merge_components(inherited: Seq, own: Map) -> Seq:
    """The inherited components with a deck's own put over them by name."""
    specs = own["components"]
    if not isinstance(specs, Seq):
        raise own.error("components", "'components' must be a list: components to add, to replace by their name, "
                                      "or to drop with '- remove: <name>'")
    merged = [spec for spec in inherited]
    for index, spec in enumerate(merged):
        if not isinstance(spec, Map):
            raise DeckError("a component must be a mapping with name, front and cards", inherited.file,
                            inherited.line_of(index))
    for index, spec in enumerate(specs):
        if not isinstance(spec, Map):
            raise DeckError("a component must be a mapping with name, front and cards", specs.file,
                            specs.line_of(index))
        names = [str(s.get("name")) for s in merged]
        if set(spec) == {"remove"}:
            target = str(spec["remove"])
            if target not in names:
                raise spec.error("remove", f"there is no component '{target}' to remove", suggest(target, names))
            del merged[names.index(target)]
        elif str(spec.get("name")) in names:
            merged[names.index(str(spec["name"]))] = spec
        else:
            merged.append(spec)
    result = Seq(merged)
    result.file, result.line = specs.file, specs.line
    result.item_lines = [spec.line for spec in merged]
    return result


@dataclass(frozen=True)
class _FileFinder:
    """How a file a deck or layout names is found: relative to where it was written (`base`), but a
    deck's folder shadows by path. A file the deck (or a nearer deck of a chain) has at the same
    path is taken instead, so a deck replaces any picture of a shared layout or of the deck it
    extends by putting its own at that path. (A class, not a closure, so that a loaded deck
    pickles: a deck built in a worker process comes back to the parent with its result.)"""

    folders: tuple[Path, ...]

    def __call__(self, written: str, base: Path, kinds: tuple[str, ...] = IMAGE_TYPES) -> Path:
        folders = self.folders
        check_length(written)
        for folder in folders:
            candidate = Path(os.path.normpath(folder / written))
            if candidate.is_relative_to(folder) and candidate.is_file():
                return resolve_inside(written, folder, folders, kinds)
        target = Path(os.path.normpath(base / written))
        for depth, folder in enumerate(folders):
            if target.is_relative_to(folder):
                shadow = str(target.relative_to(folder))
                for nearer in folders[:depth]:
                    if (nearer / shadow).is_file():
                        return resolve_inside(shadow, nearer, folders, kinds)
        return resolve_inside(written, base, folders, kinds)


def _box(doc: Map, components: list[Component]) -> tuple[bool, tuple[str, int] | None, str | None]:
    """`box: none` (no tuck box), or `box: {cover: <component> [<number>], contents: <text>}` (the
    card whose front goes on the box, the component's first card without a number; and what the
    box says it holds)."""
    spec = doc.get("box")
    if spec is None:
        return True, None, None
    if spec in ("none", False):
        return False, None, None
    if not isinstance(spec, Map):
        raise doc.error("box", "'box' must be none or a mapping like {cover: cards 3}")
    check_keys(spec, BOX)
    contents = None
    if "contents" in spec:
        contents = " ".join(str(spec["contents"]).split())
        if not contents or isinstance(spec["contents"], (Map, list)):
            raise spec.error("contents", "box contents must be a line of text, like '63 cards · 12 rule cards'")
    if "cover" not in spec:
        return True, None, contents
    written = str(spec["cover"]).strip()
    name, _, number = written.rpartition(" ")
    if not number.isdigit():
        name, number = written, ""
    by_name = {c.name: c for c in components}
    if name not in by_name:
        raise spec.error("cover", f"box cover '{written}': no component '{name}'", suggest(name, by_name))
    component = by_name[name]
    numbers = [card.number for card in component.cards]  # a card with count 0 prints nowhere, not on the box either
    if not number:
        return True, (name, numbers[0]), contents
    if int(number) not in numbers:
        left_out = any(card.number == int(number) for card in component.left_out)
        raise spec.error("cover", f"box cover '{written}': " + (f"card {number} has count 0, so it is left out"
                                                                 if left_out else f"'{name}' has cards 1 to "
                                                                 f"{component.total}"))
    return True, (name, int(number)), contents


def _box_look(doc: Map, fonts: FontSet) -> tuple[str, bool, str]:
    """`box: {font: <family>, credit: <true or false>, subtitle: <text>}`: the family the box's words
    are set in (one the deck declares or a bundled one), whether its back says "made with
    deckpress", and the line under the title on its front ("" for none)."""
    spec = doc.get("box")
    if not isinstance(spec, Map):
        return "sans", True, ""
    family = "sans"
    if "font" in spec:
        if isinstance(spec["font"], (Map, list)):
            raise spec.error("font", "box font must be the name of a font family, like condensed")
        family = str(spec["font"]).strip()
        if family not in fonts.families:
            raise spec.error("font", f"box font '{family}' is no font family; the deck has "
                             f"{', '.join(fonts.families)}", suggest(family, fonts.families))
    credit = True
    if "credit" in spec:
        credit = spec["credit"]
        if not isinstance(credit, bool):
            raise spec.error("credit", f"box credit must be true or false, not {str(credit)!r}")
    subtitle = spec.get("subtitle")
    if isinstance(subtitle, (Map, list)):
        raise spec.error("subtitle", "box subtitle must be a line of text, like unofficial edition")
    return family, credit, "" if subtitle is None else " ".join(str(subtitle).split())


def resolve_inside(written: str, base: Path, deck_folder: Path | Sequence[Path],
                   kinds: tuple[str, ...] = IMAGE_TYPES) -> Path:
    """A file named in a deck or layout: relative to `base`, inside the deck folder (or one of the
    folders of a deck and those it extends) or the bundled layouts and fonts, and of one of the
    `kinds` (file endings). Raises ValueError otherwise."""
    if not written or Path(written).is_absolute():
        raise ValueError(f"'{written}' must be a relative path inside the deck folder")
    check_length(written)
    decks = (deck_folder,) if isinstance(deck_folder, Path) else tuple(deck_folder)
    allowed = readable_roots(decks)
    path = confined(base / written, allowed, written)  # a loop, a link out: said as such
    if not path.is_file():
        # where it was looked for (a layout's pictures: in the deck folder first), inside what may be read
        looked = [(d / written).parent for d in decks] + [path.parent]
        folders = [f for f in looked if readable(f, allowed)]
        close = _closest_file(path.name, folders, kinds)
        hint = f" — did you mean '{PurePosixPath(written).parent / close}'?" if close else ""
        raise ValueError(f"file '{written}' not found{hint}")
    if path.suffix.lower() not in kinds:
        raise ValueError(f"'{written}' is not {KIND_NAMES.get(kinds, ' or '.join(kinds))}")
    return path


def readable_roots(folders: Sequence[Path]) -> tuple[Path, ...]:
    """Where a deck may read files from, resolved: its folders (its own and those of the decks it
    extends) and the bundled layouts and fonts."""
    return (*(real(folder) for folder in folders), *_bundled_roots())


@functools.cache
def _bundled_roots() -> tuple[Path, Path]:
    """The bundled layouts and fonts, resolved once: every file a deck names is checked against them."""
    return real(LAYOUTS_DIR), real(FONTS_DIR)


def _closest_file(name: str, folders: list[Path], kinds: tuple[str, ...]) -> str | None:
    """The name of the file of one of the `kinds` most like `name`, in the first of `folders` that
    has one. Case counts for nothing: `Cornet.svg` is found for `cornet.svg` (which Windows and
    macOS would open, and Linux not)."""
    for folder in folders:
        if not folder.is_dir():
            continue
        # names are compared without their endings, which would make any two PNGs look alike
        files = sorted(p.name for p in folder.iterdir() if p.is_file() and p.suffix.lower() in kinds)
        stem = suggest(Path(name).stem.casefold(), {Path(file).stem.casefold() for file in files})
        if stem:
            alike = {file.casefold(): file for file in files if Path(file).stem.casefold() == stem}
            return alike[suggest(name.casefold(), alike) or min(alike)]
    return None


def _text(doc: Map, key: str) -> str:
    value = doc[key]
    if isinstance(value, (Map, Seq)) or value is None:
        raise doc.error(key, f"'{key}' must be text")
    return str(value)


MAX_BLEED = 10.0  #: mm; print services ask for 3 mm (1/8 in), and a wider one only pushes cards off the page


def _bleed(doc: Map) -> float:
    bleed = _length(doc, "bleed", DECK["bleed"].default)
    if bleed > MAX_BLEED:
        raise doc.error("bleed", f"bleed {bleed:g}mm is too wide: at most {MAX_BLEED:g}mm (print services ask for 3mm)")
    return bleed


def _gap(doc: Map) -> float:
    gap = _length(doc, "gap", DECK["gap"].default)
    if gap > MAX_GAP:
        raise doc.error("gap", f"gap {gap:g}mm is too wide: at most {MAX_GAP:g}mm (3mm gives each card 1.5mm of "
                               "its own bleed)")
    return gap


def _min_size(doc: Map) -> float:
    try:
        size = parse_absolute(doc.get("min-size", DECK["min-size"].default), "min-size")
    except ValueError as exc:
        raise doc.error("min-size", f"min-size: {exc}") from None
    if size <= 0:
        raise doc.error("min-size", f"min-size must be greater than zero, like 6pt, not {doc['min-size']!r}")
    return size


def _length(doc: Map, key: str, default: str) -> float:
    try:
        value = parse_absolute(doc.get(key, default), key)
    except ValueError as exc:
        raise doc.error(key, f"{key}: {exc}") from None
    if value < 0:
        raise doc.error(key, f"{key} cannot be negative")
    return value


_PLAYERS = re.compile(r"\s*(\d+)\s*(?:[-–—]|to)?\s*(\d+)?\s*")


def player_range(text: str) -> tuple[int, int] | None:
    """`3–7` -> (3, 7), `2` -> (2, 2); None when the text is no range (or empty)."""
    m = _PLAYERS.fullmatch(text)
    if not m:
        return None
    low, high = int(m.group(1)), int(m.group(2) or m.group(1))
    return (low, high) if low <= high else None


def _player_count(doc: Map, players: int | None) -> int | None:
    """How many players to print per-player sets for: `players` if given (and, for a deck with a
    player range, within it), else the most the deck allows; None for a deck without a range."""
    allowed = player_range(str(doc.get("players", "")))
    if allowed is None:
        return players
    if players is None:
        return allowed[1]
    low, high = allowed
    if not low <= players <= high:
        # a count the game is not for is a mistake whatever the deck prints per player
        span = f"{low}" if low == high else f"{low}–{high}"
        raise DeckError(f"{doc['title']} is for {span} players, not {players}", doc.file,
                        doc.line_of("players"), f"--players {min(max(players, low), high)}")
    return players


class SizeError(ValueError):
    """A size out of bounds; `key` is the part of it at fault: width, height or radius."""

    def __init__(self, message: str, key: str) -> None:
        super().__init__(message)
        self.key = key


def checked_size(size: CardSize, piece: bool = False) -> CardSize:
    """`size` if it is one a card (or, with `piece`, a component's piece) can have: cards from
    CARD_MIN a side to what fits a page inside its margins, pieces from PIECE_MIN to PIECE_MAX;
    the corner radius at most half the short side. Raises SizeError otherwise."""
    short, long = sorted((size.width, size.height))
    low = PIECE_MIN if piece else CARD_MIN
    if piece:
        fits = long <= PIECE_MAX
        allowed = f"pieces are {PIECE_MIN:g} to {PIECE_MAX:g} mm a side"
    else:
        rooms = [sorted((w - 2 * MIN_MARGIN, h - 2 * MIN_MARGIN)) for w, h in (PAPERS[p] for p in HOME_PAPERS)]
        fits = any(short <= w and long <= h for w, h in rooms)
        allowed = (f"cards are {CARD_MIN:g} mm a side or more, and fit a page inside its {MIN_MARGIN:g} mm "
                   "margins: at most " + " or ".join(f"{w:g} × {h:g} mm on {name}"
                                                     for name, (w, h) in zip(HOME_PAPERS, rooms)))
    what = f"{'size' if piece else 'card size'} {size.width:g} × {size.height:g} mm"
    if short < low:
        raise SizeError(f"{what} is too small: {allowed}", "width" if size.width == short else "height")
    if not fits:
        raise SizeError(f"{what} is too big: {allowed}", "width" if size.width == long else "height")
    if size.radius > short / 2:
        raise SizeError(f"corner radius {size.radius:g} mm is more than half the short side: at most "
                        f"{short / 2:g} mm for {size.width:g} × {size.height:g} mm", "radius")
    return size


def parse_card_size(spec: str, piece: bool = False) -> CardSize:
    """A preset (`poker`, with its corner radius) or `WIDTHxHEIGHT` (`63x88` in mm, `2.5inx3.5in`,
    with the default radius), as sizes are written on card boxes: how a deck's `card`, a
    component's `size` (`piece`) and `deckpress impose --size` are read. Raises ValueError for the user."""
    width, height = parse_size(spec, {name: (s.width, s.height) for name, s in CARD_SIZES.items()}, "card size")
    return checked_size(CARD_SIZES.get(spec) or CardSize(width, height, parse_absolute(SIZE["radius"].default)), piece)


def _card_size(spec: Any, doc: Map, key: str = "card") -> CardSize:
    """The deck's `card` or (key "size") a component's pieces' size."""
    piece = key == "size"
    if isinstance(spec, str):
        try:
            return parse_card_size(spec, piece)
        except ValueError as exc:
            raise doc.error(key, str(exc), suggest(spec, CARD_SIZES)) from None
    if not isinstance(spec, Map):
        raise doc.error(key, f"'{key}' must be a size name like poker, WIDTHxHEIGHT like 63x88, "
                             "or {width: 63mm, height: 88mm}")
    check_keys(spec, SIZE, key)
    values = {}
    for side in SIZE.required:
        if side not in spec:
            raise DeckError(f"a size needs '{side}'", spec.file, spec.line)
        values[side] = _length(spec, side, "0mm")
    try:
        return checked_size(CardSize(values["width"], values["height"],
                                     _length(spec, "radius", SIZE["radius"].default)), piece)
    except SizeError as exc:
        raise spec.error(exc.key, str(exc)) from None


def _piece_shape(spec: Map, size: CardSize) -> PieceShape:
    """A component's `shape:` (pieceshape.parse_shape), said at its line when it is wrong."""
    value = spec["shape"]
    if isinstance(value, Map):
        if set(value) != {"rounded"}:
            raise spec.error("shape", "a shape given as a mapping is `{rounded: 5mm}`, a corner radius")
        value = {"rounded": _length(value, "rounded", "0mm")}
    try:
        shape = parse_shape(value, size.width, size.height)
    except ValueError as exc:
        raise spec.error("shape", str(exc), suggest(str(value), PIECE_SHAPES)) from None
    rooms = [sorted((w - 2 * MIN_MARGIN, h - 2 * MIN_MARGIN - SHAPED_FURNITURE)) for w, h in
             (PAPERS[p] for p in HOME_PAPERS)]
    short, long = sorted((size.width, size.height))
    if shape.outlined and not any(short <= w and long <= h for w, h in rooms):  # packed on a page, never tiled
        raise spec.error("shape", f"a {shape.kind} piece is packed on a page, not tiled: {size.width:g} × "
                                  f"{size.height:g} mm is too big, at most " +
                                  " or ".join(f"{w:g} × {h:g} mm on {name}" for name, (w, h) in zip(HOME_PAPERS, rooms)))
    return shape


def _standee(spec: Map, size: CardSize) -> float:
    """A component's `standee:` foot, said at its line when no figure is left above it."""
    foot = _length(spec, "standee", "0mm")
    if foot >= size.height / 2:
        raise spec.error("standee", f"a foot of {foot:g}mm leaves no figure on a {size.height:g}mm piece folded in "
                                    f"half: at most {size.height / 2:g}mm, less the figure's height")
    return foot


SHAPED_FURNITURE = 12.0  #: mm below a page of shaped pieces for its scale bar and label (imposition's Room.furniture)


def _load_fonts(spec: Any, doc: Map, find: Callable[..., Path], chain: list[_Source]
                ) -> dict[str, dict[str, str]]:
    if spec is None:
        return {}
    if not isinstance(spec, Map):
        raise doc.error("fonts", "'fonts' maps family names to {regular: file.ttf, bold: …}")
    folder_of_file = {source.doc.file: source.folder for source in chain}
    families = {}
    for name, styles in spec.items():
        if not isinstance(styles, Map):
            raise spec.error(name, f"font family '{name}' must map styles to files, like {{regular: fonts/x.ttf}}")
        check_keys(styles, FONT, f"font family '{name}'")
        folder = folder_of_file[styles.file]
        families[name] = {style: _font_style(f"font '{name}' {style}", styles, style, find, folder)
                          for style in styles}
    return families


def _font_style(what: str, styles: Map, style: str, find: Callable[..., Path], folder: Path) -> str:
    """One style of a deck's font family as a font reference (`fonts.font_ref`): a file, or a
    mapping choosing a collection's member (`index`) or a variable font's instance (`instance`,
    `axes`), each checked against the font; a mistake is said at the line of the key that made it."""
    written = styles[style]
    node, key = styles, style
    index, axes = 0, {}
    if isinstance(written, Map):
        check_keys(written, FONT_FILE, what)
        if "file" not in written:
            raise styles.error(style, f"{what} needs 'file', like {{file: fonts/x.ttc, index: 1}}")
        index = written.get("index", 0)
        if isinstance(index, bool) or not isinstance(index, int) or index < 0:
            raise written.error("index", f"{what}: 'index' is a whole number from 0, the font's place in its collection")
        node, key = written, "file"
    try:
        path = str(find(str(node[key]), folder, FONT_TYPES))
        if index:
            open_font(font_ref(path, index))
        else:
            open_font(path)
    except (ValueError, FontError) as exc:
        raise node.error("index" if index and isinstance(exc, FontError) and "index" in str(exc) else key,
                         f"{what}: {exc}") from None
    if isinstance(written, Map):
        axes = _font_axes(what, written, font_ref(path, index))
    ref = font_ref(path, index, axes)
    try:
        open_font(ref)
    except FontError as exc:
        raise written.error("axes", f"{what}: {exc}") from None
    try:  # a font that could not be embedded (a damaged map or table) said here, not midway through a build
        check_embeddable(ref)
    except FontError as exc:
        raise node.error(key, f"{what}: {exc}") from None
    return ref


def _font_axes(what: str, written: Map, member: str) -> dict[str, float]:
    """The axis values a style asks for: its named instance's, then each of `axes` over them."""
    known = axes_of(member)
    values: dict[str, float] = {}
    if "instance" in written:
        instances = instances_of(member)
        chosen = str(written["instance"])
        if not known:
            raise written.error("instance", f"{what}: {Path(written['file']).name} is not a variable font: "
                                            "it has no instances")
        if chosen not in instances:
            raise written.error("instance", f"{what}: no instance '{chosen}'; the font has "
                                            f"{', '.join(instances) or 'none'}", suggest(chosen, instances))
        values.update(instances[chosen])
    given = written.get("axes")
    if given is None:
        return values
    if not isinstance(given, Map):
        raise written.error("axes", f"{what}: 'axes' maps axis tags to values, like {{wght: 650}}")
    for tag, value in given.items():
        tag = str(tag)
        if tag not in known:
            has = f"its axes are {', '.join(known)}" if known else "it is not a variable font"
            raise given.error(tag, f"{what}: the font has no axis '{tag}': {has}", suggest(tag, known))
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise given.error(tag, f"{what}: axis '{tag}' takes a number, from {known[tag][0]:g} to {known[tag][2]:g}")
        low, _default, high = known[tag]
        if not low <= value <= high:
            raise given.error(tag, f"{what}: axis '{tag}' is {value:g}, outside the font's {low:g} to {high:g}")
        values[tag] = float(value)
    return values


def folder_of(node: Map) -> Path:
    return Path(node.file).parent


def _load_palette(spec: Any, doc: Map) -> dict[str, PaletteColor]:
    if spec is None:
        return {}
    if not isinstance(spec, Map):
        raise doc.error("palette", "'palette' maps colour names to {color: '#rrggbb', symbol: circle}")
    palette: dict[str, PaletteColor] = {}
    symbols: dict[str, str] = {}
    for name, entry in spec.items():
        check_inline_name(name, spec, "palette colour")
        if not isinstance(entry, Map):
            raise spec.error(name, f"palette colour '{name}' must be {{color: '#rrggbb', symbol: circle}}")
        check_keys(entry, PALETTE, f"palette colour '{name}'")
        for key in PALETTE.required:
            if key not in entry:
                raise spec.error(name, f"palette colour '{name}' needs a {key}"
                                 + (" (so it stays readable in greyscale)" if key == "symbol" else ""))
        try:
            color = parser_for("color")(entry["color"], Names(), folder_of(doc))
        except ValueError as exc:
            raise entry.error("color", f"palette colour '{name}': {exc}") from None
        if color is None:
            raise entry.error("color", f"palette colour '{name}' cannot be 'none'")
        symbol = entry["symbol"]
        shapes = PALETTE["symbol"].choices
        if symbol not in shapes:
            raise entry.error("symbol", f"unknown symbol '{symbol}'; symbols are {', '.join(shapes)}",
                              suggest(str(symbol), shapes))
        if symbol in symbols:
            raise entry.error("symbol", f"palette colours '{symbols[symbol]}' and '{name}' share the symbol "
                                        f"'{symbol}'; each colour needs its own so greyscale prints can tell "
                                        "them apart")
        symbols[symbol] = name
        palette[name] = PaletteColor(name, color, symbol)
    return palette


def _layout_files(chain: list[_Source]) -> list[tuple[Path, int]]:
    """The layout files of a deck, each with its generation: 0 for those the farthest deck of the
    chain lists, 1 for those the next one adds, …; a later generation may redefine the colours,
    icons and templates of an earlier one. A name is looked for in each deck's layouts/ folder,
    nearest first (so a deck's own file shadows one of the same name), then in the bundled ones."""
    folders = [source.folder / "layouts" for source in chain] + [LAYOUTS_DIR]
    roots = readable_roots([source.folder for source in chain])

    def available() -> list[str]:
        """The layouts there are, for a suggestion. Resolved, as pictures are: a layouts/ folder or
        file that is a link may not lead outside."""
        return sorted({p.stem for d in folders for p in d.glob("*.yaml") if readable(p, roots)})

    files: list[tuple[Path, int]] = []
    for generation, source in enumerate(reversed(chain)):
        doc = source.doc
        if "layouts" not in doc:
            continue
        spec = doc["layouts"]
        if isinstance(spec, str) and "," in spec:  # YAML reads `common, orchard` as one name
            names = ", ".join(name.strip() for name in spec.split(",") if name.strip())
            raise doc.error("layouts", f"'layouts' must be a list: write layouts: [{names}]")
        if isinstance(spec, str):
            spec = [spec]
        if not isinstance(spec, list) or not spec:
            raise doc.error("layouts", "'layouts' must list layout names, like [common, metronome]")
        for name in spec:
            name = str(name)
            try:
                found = _layout_file(name, folders, roots)
            except PathError as exc:
                raise doc.error("layouts", f"layout '{name[:40]}': {exc}") from None
            if found is None:
                raise doc.error("layouts", f"unknown layout '{name[:40]}' (looked in {source.folder.name}/layouts/ "
                                           "and the bundled layouts/)", suggest(name, available()))
            if all(found != path for path, _ in files):
                files.append((found, generation))
    return files


def _layout_file(name: str, folders: list[Path], roots: Sequence[Path]) -> Path | None:
    """The first of `folders` that has the layout `name` (None if none has): a loop of links where
    it is looked for, or a file that leads out of the deck, is a PathError."""
    if not _NAME.fullmatch(name) or len(name) > MAX_NAME - len(".yaml"):
        return None
    for folder in folders:
        path = folder / f"{name}.yaml"
        if existing_file(path, roots, f"{folder.name}/{path.name}"):
            return path
    return None


def _load_component(spec: Any, parent: Seq, index: int, layouts: Layouts, deck: Deck,
                    fetcher: CardFetcher) -> Component:
    if not isinstance(spec, Map):
        raise DeckError("a component must be a mapping with name, front and cards", parent.file,
                        parent.line_of(index))
    check_keys(spec, COMPONENT)
    for key in COMPONENT.required:
        if key not in spec:
            raise DeckError(f"component needs '{key}'", spec.file, spec.line)
    name = str(spec["name"])
    front = layouts.template(str(spec["front"]), spec, "front")
    back = layouts.template(str(spec["back"]), spec, "back") if spec.get("back") is not None else None
    sheet = str(spec.get("sheet", COMPONENT["sheet"].default))
    if sheet not in SHEETS:
        raise spec.error("sheet", f"unknown sheet '{sheet}'; expected one of {', '.join(SHEETS)}",
                         suggest(sheet, SHEETS))
    templates = [t for t in (front, back) if t is not None]
    declared: dict[str, Any] = {}
    places: dict[str, tuple[str, int]] = {}  # where each default is written
    for template in templates:
        declared.update(template.fields)
        places.update(template.field_places)
    defaults = spec.get("fields") or Map()
    if not isinstance(defaults, Map):
        raise spec.error("fields", "'fields' gives defaults for every card of the component, as a mapping")
    _check_card_keys(defaults, declared, templates, "component fields")
    places.update({key: (defaults.file_of(key), defaults.line_of(key)) for key in defaults})
    cards_spec = spec["cards"]
    if isinstance(cards_spec, (str, Map)):
        cards_spec = _card_table(spec, deck, fetcher)
    if not isinstance(cards_spec, Seq) or not cards_spec:
        raise spec.error("cards", "'cards' must be a list of cards, or a spreadsheet file like fruit.csv")
    if len(cards_spec) > MAX_CARDS:  # each entry prints at least once: refused before reading them all
        raise spec.error("cards", f"{len(cards_spec):,} cards in the list: a deck prints at most {MAX_CARDS:,}")
    if isinstance(cards_spec, CardTable):
        _match_columns(cards_spec, declared, templates, defaults)
    cards: list[Card] = []
    left_out: list[Card] = []  # `count: 0`: taken out (for a playtest), keeping its number
    failed = False  # a card stopped at a mistake (a check goes on to the next one)
    columns = tuple(str(name) for name in getattr(cards_spec, "columns", ()))  # a spreadsheet's, in order
    for number, card_spec in enumerate(cards_spec, start=1):
        with carry_on() as step:
            card = _load_card(card_spec, number, cards_spec, columns, (declared, defaults, templates, places), deck,
                              name)
            (cards if card.count else left_out).append(card)
        failed = failed or step.failed
    if not cards and not failed:
        raise spec.error("cards", f"every card of component '{name}' has count 0, so it prints nothing: give one "
                                  "a count of 1 or more, or remove the component")
    size = _card_size(spec["size"], spec, "size") if "size" in spec else deck.size
    shape = _piece_shape(spec, size) if "shape" in spec else RECTANGLE
    if shape.outlined and sheet == "rules-board":
        raise spec.error("shape", f"{shape.kind} pieces are packed on the cards sheets: leave out `sheet: rules-board`")
    if shape.kind == "rounded":  # a rectangle with a corner radius of its own: cut as cards are
        size = CardSize(size.width, size.height, shape.radius)
    component = Component(name, front, back, sheet, cards, spec.file, spec.line, size, _copies(spec, deck), shape=shape,
                          standee=_standee(spec, size) if "standee" in spec else None)
    component.left_out = left_out
    if left_out:  # `{card.total}` and the numbers stay those of the whole list
        component.listed = len(cards_spec)
    return component


def _load_card(card_spec: Any, number: int, cards_spec: Seq, columns: tuple[str, ...],
               fields: tuple[dict[str, Any], Map, list[Template], dict[str, tuple[str, int]]], deck: Deck,
               name: str) -> Card:
    """Entry `number` of component `name`'s card list, checked against its templates, with its
    fields filled in: `fields` is what the templates declare, the component's defaults, the
    templates, and where each default is written. A check says every mistake in the card's keys
    and goes on to the next card; a build stops at the first."""
    declared, defaults, templates, places = fields
    if not isinstance(card_spec, Map):
        raise DeckError("a card must be a mapping of fields, like {value: quarter, count: 3}",
                        cards_spec.file, cards_spec.line_of(number - 1))
    problems = getattr(card_spec, "problems", ())  # cells a spreadsheet could give no value (`CardRow`)
    for problem in problems:
        report(problem)
    if problems:
        raise Stopped  # what the cells would give is missing: the card goes no further
    _check_card_keys(card_spec, declared, templates, "card")
    count = card_spec.get("count", CARD["count"].default)
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise card_spec.error("count", f"count must be a whole number of 0 or more (0 leaves the card out), "
                                       f"not {count!r}")
    if count > MAX_COUNT:
        raise card_spec.error("count", f"count {count:,} is too many: one card is printed at most {MAX_COUNT:,} "
                                       "times")
    values = {k: v for k, v in declared.items() if v is not REQUIRED}
    values.update(defaults)
    values.update({k: v for k, v in card_spec.items() if k not in CARD.key_names})
    missing = [key for key, default in declared.items() if default is REQUIRED and key not in values]
    for key in missing:
        if key in getattr(cards_spec, "absent", ()):
            continue  # no column of the spreadsheet gives it: said once, at its row of names
        owner = next(t for t in templates if t.fields.get(key) is REQUIRED)
        report(DeckError(f"card lacks field '{key}', which template '{owner.name}' requires",
                         card_spec.file, card_spec.line))
    if missing:
        raise Stopped  # said above, each field; the card cannot be filled in without them
    own = {k for k in card_spec if k not in CARD.key_names}
    context = {**deck.meta_fields, "card.number": number, "card.total": len(cards_spec), "component": name}
    _derive(values, own, context, card_spec)
    return Card(name, number, values, count, card_spec.file, card_spec.line,
                {key: places[key] for key in values if key not in own and key in places},
                tuple(dict.fromkeys(key for key in (*columns, *card_spec) if key in values)))


def _card_table(spec: Map, deck: Deck, fetcher: CardFetcher) -> Seq:
    """The cards of `cards: fruit.csv` or `cards: {file: cards.xlsx, sheet: Fruit}`: the file's
    rows as card mappings, each naming its file and row. The file is found beside the deck file
    that names it, or at the same path in a deck that extends that one. A `.json` or `.yaml`
    list is read too, and a web address is fetched (`cardsource`) into the deck's folder, which
    the deck records in `card_sources`."""
    written = spec["cards"]
    node, key, sheet = spec, "cards", None  # where a mistake in what is written is reported
    if isinstance(written, Map):
        check_keys(written, CARD_TABLE, "cards")
        if "file" not in written:
            raise DeckError("'cards' names its spreadsheet with 'file', like {file: cards.xlsx, sheet: Fruit}",
                            written.file, written.line)
        node, key = written, "file"
        sheet = str(written["sheet"]) if written.get("sheet") is not None else None
        written = written["file"]
    if isinstance(written, str) and web_address(written):
        if sheet is not None:
            raise node.error("sheet", "cards: an address gives one sheet: publish the sheet that holds the cards "
                                      "(Google Sheets asks which in File → Share → Publish to web)")
        cards, source = remote_cards(written, deck.folder, fetcher, node.file_of(key), node.line_of(key))
        deck.card_sources.append(source)
        return cards
    try:
        path = deck.names.resolve_file(str(written), real(node.file).parent, CARD_LIST_TYPES)
    except ValueError as exc:
        raise node.error(key, f"cards: {exc}") from None
    if sheet is not None and path.suffix.lower() not in WORKBOOK_TYPES:
        raise node.error("sheet", f"cards: a {path.suffix.lower()} file has no sheets; 'sheet' is for "
                                  ".xlsx and .ods workbooks")
    return read_card_list(path, sheet)


def _copies(spec: Map, deck: Deck) -> int:
    """`copies: 3`, or `copies: players` for one set per player."""
    copies = spec.get("copies", COMPONENT["copies"].default)
    if copies == "players":
        if player_range(deck.players) is None:
            raise spec.error("copies", "'copies: players' needs the deck's player range, like players: 3–7")
        copies = deck.player_count
        if copies > MAX_COPIES:
            raise spec.error("copies", f"'copies: players' makes {copies:,} copies, too many: a card list is "
                                       f"printed at most {MAX_COPIES} times")
        return copies
    if isinstance(copies, bool) or not isinstance(copies, int) or copies < 1:
        raise spec.error("copies", f"copies must be a whole number of 1 or more, or 'players', not {copies!r}",
                         "players" if isinstance(copies, str) else None)
    if copies > MAX_COPIES:
        raise spec.error("copies", f"copies {copies:,} is too many: a card list is printed at most {MAX_COPIES} "
                                     "times")
    return copies


def _derive(values: dict[str, Any], own: set[str], context: dict[str, Any], where: Map) -> None:
    """Fill in defaults made of other fields (`corner: "{beats}"`), however deep the chain.

    Only defaults are filled in (the template's and the component's): a card's own values are
    taken as written, braces and all."""
    pending = {k for k, v in values.items() if k not in own and isinstance(v, str) and pattern_of(v)}
    while pending:
        ready = [k for k in sorted(pending) if not set(pattern_of(values[k]).fields) & pending]
        if not ready:
            raise DeckError(f"the defaults of fields {', '.join(sorted(pending))} refer to each other in a "
                            "circle", where.file, where.line)
        known = {**context, **values}
        for key in ready:
            pattern = pattern_of(values[key])
            missing = [f for f in pattern.fields if f not in known]
            if missing:
                raise DeckError(f"the default of field '{key}' uses '{missing[0]}', which is not a field of "
                                "this card", where.file, where.line, suggest(missing[0], known))
            values[key] = pattern.fill(known)
            pending.discard(key)


def _check_card_keys(node: Map, declared: dict[str, Any], templates: list[Template], context: str) -> None:
    """Every key of a card (or of a component's `fields`) is a field its templates declare: each
    one that is not is said (a check says them all, a build stops at the first)."""
    allowed = list(declared) + CARD.key_names
    unknown = [key for key in node if key not in declared and not (key in CARD.key_names and context == "card")]
    for key in unknown:
        names = " and ".join(f"'{t.name}'" for t in templates)
        hint = suggest(str(key), allowed)
        report(node.error(key, f"unknown key '{key}' in {context}" +
                          ("" if hint else f" (templates {names} use: {', '.join(declared) or 'no fields'})"),
                          hint))
    if unknown:
        raise Stopped


def _match_columns(table: CardTable, declared: dict[str, Any], templates: list[Template], defaults: Map) -> None:
    """A spreadsheet's column names as the templates spell the fields: case, spaces, `-` and `_`
    count for nothing (`Card Name` is `card-name`, or `card_name`, whichever is declared). A
    column no field matches, or a second column for a field, is said once, at its name (the row of
    names, its column), and left out of every row; so is a required field no column gives (and
    the component's `fields` do not), rather than on every row (`table.absent`). A check says them
    all, a build the first."""
    fields = list(declared) + [key for key in CARD.key_names if key not in declared]
    spelled: dict[str, str] = {}
    for field_name in fields:
        spelled.setdefault(header_key(field_name), field_name)
    taken: dict[str, str] = {}  # field -> the column name matched to it
    matched: dict[str, str] = {}  # column name -> field
    mistakes = []
    for column in table.columns:
        found = column if column in fields else spelled.get(header_key(column))
        if found is None:
            close = suggest(header_key(column), spelled)
            names = " and ".join(f"'{t.name}'" for t in templates)
            mistakes.append(table.header_error(
                column, f"unknown column '{column}'" + ("" if close else
                                                        f": templates {names} use {', '.join(declared) or 'no fields'}"
                                                        "; a column of notes is named with a # first, like '# notes'"),
                spelled[close] if close else None))
        elif found in taken:
            first = taken[found]
            mistakes.append(table.header_error(
                column, f"columns '{first}' ({table.columns[first]}) and '{column}' ({table.columns[column]}) are "
                        f"both the field '{found}': keep one"))
        else:
            taken[found] = column
            matched[column] = found
    for column in [c for c in table.columns if c not in matched]:
        table.drop(column)
    for column, found in matched.items():
        if column != found:
            table.rename(column, found)
    hinted = {mistake.suggestion for mistake in mistakes}  # `unknown column 'Nmae' — did you mean 'name'?`
    for key, default in declared.items():
        if default is REQUIRED and key not in taken and key not in defaults:
            table.absent.add(key)
            if key not in hinted:
                owner = next(t for t in templates if t.fields.get(key) is REQUIRED)
                mistakes.append(DeckError(f"no column is the field '{key}', which template '{owner.name}' requires",
                                          table.file, table.header_line))
    for mistake in mistakes:
        report(mistake)
