"""The keys of deck and layout files, declared once as tables: name, type, default, doc.

An element kind (`elements.Kind`) is such a table too. The loaders check every mapping against
its table (`check_keys`) and read required keys and defaults from it; the key references in
docs/DECKS.md and docs/LAYOUTS.md are generated from the tables (`reference`), and a test keeps
the docs and the tables in step.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ..errors import suggest
from ..text.fonts import STYLES
from ..shapes import SHAPES
from ..yamlfile import Map


@dataclass(frozen=True)
class Key:
    """One key a mapping may have: its type, default and doc."""

    name: str
    # what the value is: a parser name in values.PARSERS, "choice" (one of `choices`), or for a
    # value its loader reads itself, what it reads ("list", "mapping", "card size", …)
    type: str
    default: object  # None: no default (see `required`)
    doc: str
    choices: tuple[str, ...] = ()
    axis: str | None = None  # "x" or "y": what a % of this length is a percentage of
    required: bool = False  # must be given
    see: str = ""  # where the docs say more: a link for the key's name in the generated table


@dataclass(frozen=True)
class Keys:
    """The keys one kind of mapping may have, in the order the docs list them."""

    name: str  # what the mapping is called in messages: "deck", "component", "rect", …
    doc: str
    keys: tuple[Key, ...]

    def key(self, name: str) -> Key | None:
        return self._by_name.get(name)

    @cached_property
    def _by_name(self) -> dict[str, Key]:
        """Each key by its name (the first, were a name given twice): looked up for every value loaded."""
        by_name: dict[str, Key] = {}
        for key in self.keys:
            by_name.setdefault(key.name, key)
        return by_name

    def __getitem__(self, name: str) -> Key:
        key = self.key(name)
        if key is None:
            raise KeyError(f"{self.name} has no key '{name}'")
        return key

    @property
    def key_names(self) -> list[str]:
        return [k.name for k in self.keys]

    @cached_property
    def required(self) -> tuple[str, ...]:
        return tuple(k.name for k in self.keys if k.required)


def check_keys(node: Map, keys: Keys, context: str | None = None) -> None:
    """Unknown keys are errors, with the closest known key as a suggestion. `context` names the
    mapping in the message (by default the table's name)."""
    allowed = keys._by_name
    for key in node:
        if key not in allowed:
            raise node.error(key, f"unknown key '{key}' in {context or keys.name}", suggest(key, keys.key_names))


_PLAYERS = "#title-designer-license-players"

DECK = Keys("deck", "The keys of a deck file.", (
    Key("extends", "text", None, "a deck to build on: a bundled deck's id, or a path to a deck folder like "
        "`../base`; this file's keys override its", see="#extends-a-deck-of-ones-own-on-top-of-another"),
    Key("id", "text", None, "short name; names the output folder and files", required=True, see="#id"),
    Key("title", "text", None, "the game's name", required=True, see=_PLAYERS),
    Key("designer", "text", None, "who made it", required=True, see=_PLAYERS),
    Key("license", "text", None, "the licence it is published under", required=True, see=_PLAYERS),
    Key("players", "text", None, "player count, as text; a range like `3–7` sets how many "
        "[per-player sets](#copies-per-player-sets) to print", see=_PLAYERS),
    Key("version", "text", None, "the deck's version, like `3` or `\"0.4 playtest\"`: printed on every sheet's "
        "label and wherever a layout says `{deck.version}`, so printed cards of two versions can be told "
        "apart", see="#version"),
    Key("language", "text", "en", "the language the deck is written in, and so the one its texts "
        "are hyphenated and given quotes in (a text element's `lang` aside); see "
        "[translations](#language-and-translations)", see="#language-and-translations"),
    Key("card", "card size", "poker", "card size: a preset, `WIDTHxHEIGHT` like `63x88` (mm) or "
        "`2.5inx3.5in`, or a mapping", see="#card"),
    Key("bleed", "width", "3mm", "how far the artwork runs past the cut line", see="#bleed"),
    Key("gap", "width", "0mm", "space between neighbouring cards on the cards sheets, each card with its own "
        "bleed (half the gap at most) and its own cut lines; 0 butts them, sharing cut lines, and then cards with "
        "another back start a page of their own, so a cut a little off never shows one back's edge on another "
        "(`--gap` overrides it)",
        see="#gap"),
    Key("min-size", "size", "6pt", "the smallest size text may be fitted at: `check` and `build` warn "
        "(`small-text`) of a text element set below it, at the layout line that places it", see="#min-size"),
    Key("layouts", "list", None, "the layout files that hold the templates", required=True, see="#layouts"),
    Key("fonts", "mapping", None, "extra fonts inside the deck folder (TrueType, OpenType, collections, WOFF, "
        "variable)", see="#fonts"),
    Key("palette", "mapping", None, "colours that mean something in the game, each with its symbol",
        see="#palette"),
    Key("colors", "mapping", None, "new values for the layouts' colour words, by name, like "
        "`{navy: \"#1b2a4a\"}`", see="#colors"),
    Key("box", "mapping", None, "which card's front is on the tuck box, or `none` for no box", see="#box"),
    Key("components", "list", None, "the kinds of card, each with its list of cards", required=True,
        see="#components"),
))

SIZE = Keys("size", "A size of one's own, for the deck's `card` or a component's `size`.", (
    Key("width", "width", None, "the trim width", required=True),
    Key("height", "width", None, "the trim height", required=True),
    Key("radius", "width", "3mm", "the corner radius"),
))

FONT = Keys("font family", "The styles of a font family, each a font file or a mapping that chooses within one.", tuple(
    Key(style, "font file", None, f"the {style} style: a `.ttf`, `.otf`, `.ttc`, `.otc`, `.woff` or `.woff2` file "
        "relative to the deck folder, or a [mapping](#a-font-inside-a-file) choosing a collection's member or "
        "a variable font's instance") for style in STYLES))

FONT_FILE = Keys("font file", "One style of a family chosen inside its file.", (
    Key("file", "file", None, "the font file, relative to the deck folder", required=True),
    Key("index", "number", 0, "which font of a collection (`.ttc`, `.otc`), counting from 0"),
    Key("axes", "mapping", None, "a variable font's axis values, like `{wght: 650, wdth: 87.5}`; an axis not "
        "given keeps its default (or the `instance`'s value)"),
    Key("instance", "text", None, "a variable font's named instance, like `SemiBold`, as the font names it"),
))

PALETTE = Keys("palette colour", "A colour that carries meaning in the game.", (
    Key("color", "color", None, "the colour: `\"#rrggbb\"` (quote it: `#` starts a comment in YAML), "
        "`\"#rgb\"`, `black`, `white`, `grey`, or a tint such as `\"black 50%\"`", required=True),
    Key("symbol", "shape", None, "the shape that stands for the colour", choices=tuple(SHAPES), required=True),
))

BOX = Keys("box", "The deck's tuck box.", (
    Key("cover", "text", None, "the card whose front is on the box: a component and a card number, "
        "like `cue-cards 6` (the component's first card without a number); by default the first card "
        "of the first `cards` component"),
    Key("contents", "text", None, "what the box says it holds, like `63 cards · 6 staff cards · 12 rule "
        "cards` (each part between ` · ` on a line of its own; `{cards}` is the number of cards printed "
        "on the `cards` sheet, per-player sets included): say it when the rules count the pieces "
        "otherwise. By default those cards, like `54 cards`. The box is as deep as every card-sized "
        "piece needs either way"),
    Key("font", "font family", "sans", "the family the box's words are set in (title, designer, spine, back): "
        "one the deck's `fonts` declares or a bundled one, like `condensed`; its bold style for the title"),
    Key("credit", "bool", True, "print the line \"made with deckpress\" on the box's back; `false` leaves "
        "it out"),
    Key("subtitle", "text", None, "a line under the title on the box's front, like `unofficial edition` "
        "(translated with the deck's other words)"),
))

# Counts no real deck reaches (the bundled ones print fewer than 100 pieces) and a hostile one cannot
# pass: past them a build would run for hours and fill the disk, so they are refused at load time.
MAX_COUNT = 1000  #: `count` of one card-list entry
MAX_COPIES = 100  #: `copies` of a component's card list (`copies: players` included)
MAX_CARDS = 10000  #: pieces a deck prints in all, every count and copy multiplied out

COMPONENT = Keys("component", "A kind of card in the game.", (
    Key("name", "text", None, "the component's name; unique in the deck. Error messages say `notes #3`, "
        "and templates can print it as `{component}`", required=True),
    Key("front", "text", None, "the template that draws the front of its cards", required=True),
    Key("back", "text", None, "the template for the back; without one the back stays blank"),
    Key("sheet", "choice", "cards", "which PDFs the cards go into", choices=("cards", "rules-board")),
    Key("size", "card size", None, "the size of its pieces, if not card-sized (a board, a token, a pawn), "
        "written as the deck's `card` is; by default the deck's `card`"),
    Key("shape", "piece shape", "rectangle", "the shape its pieces are cut to: `rectangle` (with the size's "
        "corner radius), `{rounded: 5mm}`, `circle` (a round token: width = height; else an ellipse), `hex` "
        "(pointy-topped, height = width × 1.1547) or `hex-flat` (flat-topped, width = height × 1.1547), or "
        "`path(M … Z)` (an SVG path in the piece's mm). A shaped piece's face and bleed are clipped to the "
        "shape, it is cut along it (a dashed line on home sheets) and packed tightly", see="#shaped-pieces"),
    Key("standee", "width", None, "its pieces are fold-over standees: folded across the middle, each half a "
        "figure (the lower half its front, the upper, turned round, its back) over a foot tab this long at "
        "the piece's end (`standee: 11mm`); a virtual table shows each as a figure standing on a base, "
        "without its feet", see="#standees"),
    Key("copies", "copies", 1, "print the whole card list this many times, at most "
        f"{MAX_COPIES}; `players` prints one set per player"),
    Key("fields", "mapping", None, "field values shared by all its cards"),
    Key("cards", "list or file", None, "the list of cards, or a file or web address that holds it: "
        "`cards: fruit.csv`, `cards: {file: cards.xlsx, sheet: Fruit}`, `cards: cards.json`, or a Google "
        "Sheet published as CSV, `cards: https://…` (see [cards from a spreadsheet](#cards-from-a-spreadsheet), "
        "[from JSON or YAML](#cards-from-json-or-yaml) and [from a web address](#cards-from-a-web-address))",
        required=True),
))

CARD_TABLE = Keys("card table", "A component's card list kept in a spreadsheet file.", (
    Key("file", "file", None, "a `.csv`, `.tsv`, `.xlsx` or `.ods` file in the deck folder (or a `.json` or "
        "`.yaml` list, or a web address, which have no sheets)", required=True),
    Key("sheet", "text", None, "the sheet of an `.xlsx` or `.ods` workbook that holds the cards; "
        "by default its first"),
))

CARD = Keys("card", "One entry of a component's card list, besides the fields its templates declare.", (
    Key("count", "number", 1, f"copies of this card, a whole number from 0 to {MAX_COUNT:,} (0 leaves it out, "
        f"as for a playtest); a deck prints at most {MAX_CARDS:,} pieces in all"),
))

LAYOUT = Keys("layout file", "The sections of a layout file, all optional.", (
    Key("colors", "mapping", None, "colour words", see="#colors"),
    Key("icons", "mapping", None, "what `:name:` draws inside text", see="#icons"),
    Key("templates", "mapping", None, "the card templates", see="#templates"),
))

ICON = Keys("icon", "What `:name:` draws inside a line of text.", (
    Key("glyph", "char", None, "one character, or its code such as `U+1D15F`, from `font`; scaled so its "
        "ink is about a capital and a half tall"),
    Key("font", "font", "music", "the font of a `glyph`"),
    Key("symbol", "shape", None, "one of the palette [symbol shapes](DECKS.md#palette), about as wide as "
        "a capital letter"),
    Key("image", "file", None, "a picture (PNG, JPEG, WebP, TIFF, GIF, BMP, PSD or SVG: the "
        "[image element's](#image) kinds; looked for in the deck folder, then beside this layout file), about "
        "as tall as the text"),
    Key("scale", "number", 1, "a factor on the icon's size"),
    Key("bold", "number", 0, "makes a thin `glyph` bolder: its outline drawn as well, this share of the "
        "size wide (`0.03`: each stroke 3 % of the em thicker)"),
    Key("color", "color", None, "the colour of a glyph or symbol; by default the colour of the text around it"),
))

#: A span's keys: not a mapping of a file but the `key=value`s of markup, which text/markup.py checks.
SPAN = Keys("span", "What a span `[words]{key=value …}` in text may change, for its words.", (
    Key("color", "color", None, "their colour: a palette colour or colour word of the deck, `#rrggbb`, or "
        "a colour name; quoted with a tint (`color=\"red 40%\"`). A span that changes only the colour is "
        "underlined in the low-ink file"),
    Key("size", "text", None, "their size: a share of the text's (`140%`), or `pt` or `mm` (`8pt`); "
        "it shrinks with the text when the text is shrunk to fit"),
    Key("font", "text", None, "their font family (`condensed`, or one the deck brings)"),
    Key("weight", "choice", None, "their weight", choices=("regular", "bold")),
    Key("style", "choice", None, "their style", choices=("normal", "italic")),
    Key("caps", "choice", None, "their lower-case letters: as smaller capitals, or as they are",
        choices=("small", "normal")),
))

TEMPLATE = Keys("template", "A card template.", (
    Key("doc", "text", "", "a sentence or two about the template and its fields, for whoever writes the "
        "deck. Not printed."),
    Key("extends", "text", None, "the template this one builds on", see="#extends"),
    Key("fields", "mapping", None, "the card fields the template uses, with their defaults", see="#fields"),
    Key("elements", "elements", None, "what it draws, in order: later elements are drawn on top of earlier "
        "ones", see="#element-reference"),
))

#: Every table of keys (the element kinds' are in `elements.KINDS`): the files' and, checked by
#: text/markup.py rather than a loader, a text span's.
TABLES = (DECK, SIZE, FONT, FONT_FILE, PALETTE, BOX, COMPONENT, CARD, CARD_TABLE, LAYOUT, ICON, SPAN, TEMPLATE)
