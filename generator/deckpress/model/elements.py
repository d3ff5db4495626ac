"""Every element kind a layout may use, declared once: its keys, their types, defaults and docs.

The layout loader validates against these declarations, the composer reads defaults from
them, and docs/LAYOUTS.md's element reference is generated from them (`reference`; a test keeps
the two in step). Each kind is drawn by the function of its name in compose/elements.py, which
checks at import that it draws exactly the kinds declared here, in this order.
"""

from __future__ import annotations

from dataclasses import dataclass

from .keys import Key, Keys


@dataclass(frozen=True)
class Kind(Keys):
    """An element kind: a table of keys (`Keys`), with an example for the docs."""

    example: str


def _x(name: str, default: object, doc: str) -> Key:
    return Key(name, "length", default, doc, axis="x")


def _y(name: str, default: object, doc: str) -> Key:
    return Key(name, "length", default, doc, axis="y")


def _w(name: str, default: object, doc: str) -> Key:
    """A horizontal extent (a width or radius): a length that may not be negative."""
    return Key(name, "extent", default, doc, axis="x")


def _h(name: str, default: object, doc: str) -> Key:
    """A vertical extent (a height or radius): a length that may not be negative."""
    return Key(name, "extent", default, doc, axis="y")


INK = ("auto", "keep", "light", "drop")

COMMON = (
    Key("id", "text", None, "Names the element, so a template that `extends` this one can replace it "
        "(the first own element with an inherited id replaces every inherited element with that id; "
        "own elements never replace each other) or remove it (`- remove: <id>`)."),
    Key("when", "condition", None, "Draw the element only for cards whose fields match, e.g. "
        "`{effect: wild}`. A list matches any of its values (`{value: [whole, half]}`), "
        "`{not: x}` anything else, `{set: true}` a field that is present and not empty or false, "
        "`{set: false}` one that is absent, empty or false. A list field matches if any of its items does."),
    Key("rotate", "angle", 0, "Degrees clockwise, about the element's centre (a group turns about the card's centre)."),
    Key("opacity", "opacity", 1, "How solid it is printed, from `0` (invisible) to `1` (solid), or as a percentage "
        "like `40%`: what is beneath shows through. The element is one layer, so where its own parts overlap "
        "(an outline over its fill, the elements of a group) they do not show through each other, as with "
        "`opacity` in SVG."),
    Key("ink", "choice", "auto", "What the low-ink build does with it: `auto` lets deckpress decide "
        "(large fills and pictures pale, backs pale, the rest kept), `keep` prints it at full strength "
        "in grey, `light` always pales it, `drop` leaves it out. On a group it applies to everything "
        "inside that has no hint of its own.", choices=INK),
)

_PAINT = (
    Key("fill", "color", "none", "Fill colour: `#rrggbb`, a colour word of the layout or palette, "
        "`{field}`, a tint like `red 20%`, or `none`."),
    Key("stroke", "color", "none", "Outline colour, as for `fill`."),
    Key("stroke-width", "width", "0.3mm", "Outline width."),
    Key("dash", "dash", "none", "Dash pattern for the outline, e.g. `[1mm, 0.6mm]`."),
)

KINDS: dict[str, Kind] = {k.name: k for k in (
    Kind("rect", "A rectangle, optionally with rounded corners.", (
        _x("x", "0mm", "Left edge."), _y("y", "0mm", "Top edge."),
        _w("w", "100%", "Width."), _h("h", "100%", "Height."),
        Key("radius", "width", "0mm", "Corner radius."),
        *_PAINT),
        "- rect: {x: 3mm, y: 3mm, w: 100% - 6mm, h: 12mm, radius: 2mm, fill: \"{color}\"}"),
    Kind("line", "A straight line.", (
        _x("x1", "0mm", "Start, from the left."), _y("y1", "0mm", "Start, from the top."),
        _x("x2", "100%", "End, from the left."), _y("y2", "0mm", "End, from the top."),
        Key("stroke", "color", "black", "Colour."), Key("stroke-width", "width", "0.3mm", "Width."),
        Key("dash", "dash", "none", "Dash pattern, e.g. `[1mm, 0.6mm]`."),
        Key("cap", "choice", "butt", "Line ends.", choices=("butt", "round", "square"))),
        "- line: {x1: 5mm, y1: 50%, x2: 100% - 5mm, y2: 50%, stroke: ink, stroke-width: 0.4mm}"),
    Kind("circle", "A circle around a centre point.", (
        _x("x", "50%", "Centre, from the left."), _y("y", "50%", "Centre, from the top."),
        _w("r", "5mm", "Radius (a % is of the card's width)."), *_PAINT),
        "- circle: {x: 50%, y: 40%, r: 12mm, fill: \"{color} 15%\", stroke: \"{color}\"}"),
    Kind("ellipse", "An ellipse around a centre point.", (
        _x("x", "50%", "Centre, from the left."), _y("y", "50%", "Centre, from the top."),
        _w("rx", "10mm", "Horizontal radius."), _h("ry", "5mm", "Vertical radius."), *_PAINT),
        "- ellipse: {x: 50%, y: 50%, rx: 20mm, ry: 8mm, stroke: ink}"),
    Kind("polygon", "A closed shape through a list of points.", (
        Key("points", "points", None, "Corners as `[x, y]` pairs, each a length.", required=True),
        *_PAINT),
        "- polygon: {points: [[50%, 10mm], [100% - 10mm, 30mm], [10mm, 30mm]], fill: ink}"),
    Kind("path", "An outline in SVG path syntax (M, L, H, V, C, S, Q, T, Z; upper case absolute, "
         "lower case relative), numbers in millimetres from the point (x, y), times `scale`.", (
        Key("d", "path", None, "Path data, e.g. `M 0 0 C 10 -6 30 -6 40 0`.", required=True),
        _x("x", "0mm", "Where the path's origin sits, from the left."),
        _y("y", "0mm", "Where the path's origin sits, from the top."),
        Key("scale", "number", 1, "Scale factor for the path's numbers."),
        *_PAINT),
        "- path: {d: \"M 0 0 C 8 -5 32 -5 40 0 C 32 -3 8 -3 0 0 Z\", x: 12mm, y: 40mm, fill: ink}"),
    Kind("text", "Text in a box: wrapped, aligned, and shrunk until it fits the box's width *and* height. "
         "Markup: `**bold**`, `*italic*`, a blank line starts a paragraph, a line starting `- ` is a bullet, "
         "`:name:` draws an icon (see `icons`) or a palette colour's symbol inside the line, "
         "`[words]{color=red size=140%}` sets a span in another colour, size, font or small caps (see Spans).", (
        Key("text", "text", None, "The text; `{field}` inserts a card field.", required=True),
        _x("x", "0mm", "Box left edge."), _y("y", "0mm", "Box top edge."),
        _w("w", "100%", "Box width."), _h("h", "10mm", "Box height."),
        Key("font", "font", "sans", "Font family, optionally with a style: `sans`, `sans-bold`, `condensed`, …"),
        Key("size", "size", "9pt", "Largest size."),
        Key("min-size", "size", "5pt", "Smallest size it may shrink to; if the text still does not fit, "
            "a warning names the card. Set below the deck's own `min-size` (6pt unless it says), a warning "
            "names this element's line."),
        Key("color", "color", "black", "Text colour."),
        Key("align", "choice", "left", "Horizontal alignment.", choices=("left", "center", "right")),
        Key("valign", "choice", "top", "Vertical alignment in the box.", choices=("top", "middle", "bottom")),
        Key("line-height", "number", 1.2, "Distance between baselines, in multiples of the size."),
        Key("fit", "choice", "shrink", "`shrink` to fit the box, or `none` to keep the size.",
            choices=("shrink", "none")),
        Key("wrap", "bool", True, "Break lines at spaces to fit the width (and at soft hyphens, "
            "`&shy;` or U+00AD, which print as \"-\" only where a line breaks)."),
        Key("hyphenate", "auto-bool", "auto", "Let words break where the language's dictionary allows "
            "(pyphen's, LibreOffice's patterns), as a last resort: only where the text would not fit its "
            "box otherwise, or would have to shrink by more than 8 %; only in words of 7 letters or "
            "more, leaving 3 either side, and never at the end of two lines in a row. Words with digits, "
            "addresses, icons or a change of font never break. `auto`: on for body text, off for "
            "titles, a title being a text that does not `wrap` or whose box holds fewer than 3 lines "
            "at its largest `size`. Lines break where they read best for the paragraph as a whole "
            "(fewest lines, then evenly filled; centred text and titles balanced).",
            choices=("auto", "true", "false")),
        Key("lang", "language", None, "The text's language (`de`, `en-GB`, `fr`), for shaping (a "
            "language's own letter forms: Serbian italics, Marathi, Urdu digits), hyphenation and "
            "smart punctuation; by default the language the deck is printed in."),
        Key("features", "features", None, "OpenType features to turn on besides the font's defaults "
            "(kerning, ligatures and what each script needs are on already): `[smcp]` small capitals, "
            "`[onum]` old-style figures, `[tnum]` figures of one width; `-liga` turns one off."),
        Key("direction", "choice", "auto", "Which way the text's lines run: `auto` (from its first "
            "letter: Hebrew or Arabic right to left), `ltr` or `rtl`. Words of the other direction "
            "(numbers, a Latin name in Arabic) are put in order by the Unicode bidirectional algorithm.",
            choices=("auto", "ltr", "rtl")),
        Key("smart", "bool", True, "Smart punctuation, after the fields are in: straight quotes to "
            "the language's curly ones (“…” ‘…’, „…“ ‚…‘, « … »), apostrophes (don’t, ’90s), `--` and "
            "`---` to – and —, `...` to …, a no-break space between a number and its unit (5 mm, "
            "10 %) and, in French, before `: ; ! ?`. Markup is left as it is. `false` prints the "
            "text as written."),
    ), "- text: {text: \"**{title}**\", x: 5mm, y: 6mm, w: 100% - 10mm, h: 9mm, font: condensed, "
       "size: 14pt, align: center, valign: middle}"),
    Kind("glyph", "One character from a font, centred on its ink (not its advance), so music symbols "
         "sit where they are put.", (
        Key("char", "char", None, "The character, or its code like `U+1D15F`.", required=True),
        Key("font", "font", "music", "Font family."),
        Key("size", "size", "24pt", "Font size."),
        _x("x", "50%", "Centre, from the left."), _y("y", "50%", "Centre, from the top."),
        Key("color", "color", "black", "Colour."),
        Key("anchor", "choice", "center", "Which point of the glyph's ink box sits at (x, y).",
            choices=("center", "top", "bottom", "left", "right", "baseline")),
        Key("bold", "number", 0, "Makes a thin glyph bolder: its outline is drawn as well, this share of "
            "the size wide (`0.03`: 3 % of the em, each stroke 0.03 em thicker).")),
        "- glyph: {char: U+1D15F, size: 60pt, x: 50%, y: 45%}"),
    Kind("image", "A picture: PNG, JPEG, WebP, TIFF, GIF (its first frame), BMP or PSD (its flattened "
         "composite, as Photoshop saves it with Maximize Compatibility), or SVG. SVG stays vector, JPEG is "
         "embedded untouched, the others are embedded losslessly. A path "
         "is relative to the deck folder; one written in a layout is looked for there first, then beside "
         "the layout file, so a deck can replace any picture of a layout it uses. Either must stay inside "
         "the deck folder or the bundled layouts.", (
        Key("src", "file", None, "Image file.", required=True),
        _x("x", "0mm", "Box left edge."), _y("y", "0mm", "Box top edge."),
        _w("w", "100%", "Box width."), _h("h", "100%", "Box height."),
        Key("fit", "choice", "contain", "`contain` shows all of it, `cover` fills the box and clips, "
            "`stretch` distorts to the box.", choices=("contain", "cover", "stretch")),
        Key("bleed", "choice", "none", "Makes the bleed for art that stops at the trim: where the picture (as "
            "`fit` places it) reaches an edge of the trim, `mirror` fills the bleed beyond that edge with the "
            "picture reflected about it, `extend` with its outermost pixels (of vector art, its outermost "
            "0.2 mm) stretched out; the corners likewise. A picture that covers the bleed already, or an edge "
            "it does not reach, is left as it is. `none`: the picture stops where it stops.",
            choices=("none", "mirror", "extend")),
        Key("page", "number", 1, "The page of a PDF to place (PDF art: vector, placed like an SVG)."),
        Key("tint", "color", "none", "Paints a one-colour picture (an icon, a silhouette) in this colour: a "
            "palette colour, `{field}` or `#hex`. An SVG's every paint becomes the colour; a raster's shape is "
            "its transparency (or, in a picture without any, its darkness: black on white prints the black)."),
        Key("fields", "bool", False, "SVG art as a template: `{field}` in its text is filled in with the "
            "card's field (the SVG's own font, size and place kept)."),
        Key("show", "ids", "", "Ids of SVG elements to show (Inkscape's layers are groups with ids), "
            "each may hold `{field}`: `[\"suit-{suit}\"]`."),
        Key("hide", "ids", "", "Ids of SVG elements to hide, each may hold `{field}`.")),
        "- image: {src: art/logo.svg, x: 10mm, y: 20mm, w: 100% - 20mm, h: 40mm, fit: contain}"),
    Kind("symbol", "The symbol of a palette colour, in that colour: the shape that keeps colour-coded "
         "facts readable in greyscale.", (
        Key("of", "palette", None, "A palette colour name, usually `{color}`.", required=True),
        _x("x", "50%", "Centre, from the left."), _y("y", "50%", "Centre, from the top."),
        Key("size", "size", "6mm", "Width of the symbol."),
        Key("color", "color", "none", "Fill colour; `none` means the palette colour itself."),
        Key("stroke", "color", "none", "Outline colour."),
        Key("stroke-width", "width", "0.3mm", "Outline width.")),
        "- symbol: {of: \"{color}\", x: 8mm, y: 8mm, size: 5mm, stroke: white}"),
    Kind("staff", "A music staff: five lines, a clef, and notes given by name in scientific pitch notation "
         "(`C4` is middle C; `F#4`, `Bb3`, `En4` with a sharp, flat or natural; ♯ ♭ ♮ work too). Notes are "
         "spread evenly after the clef, with ledger lines and accidentals; the clef and noteheads come from "
         "the music font, sized to the staff.", (
        _x("x", "0mm", "Left end of the lines."), _y("y", "0mm", "Height of the top line."),
        _w("w", "100%", "Length of the lines."),
        Key("space", "size", "2mm", "Distance between two lines; the staff is four spaces tall."),
        Key("clef", "choice", "treble", "The clef at the left; `none` draws none (notes then read as treble).",
            choices=("treble", "bass", "alto", "tenor", "none")),
        Key("notes", "pitches", "", "The notes, left to right, separated by spaces, e.g. `\"C4 E4 G4\"` or "
            "`\"{pitch}\"`; a list field works too. Empty: just the staff."),
        Key("note", "choice", "whole", "The notehead: a `whole` note, or a `black` or `void` head without stem.",
            choices=("whole", "black", "void")),
        Key("color", "color", "black", "Colour of lines, clef and notes."),
        Key("stroke-width", "width", "0.2mm", "Width of the staff and ledger lines.")),
        "- staff: {x: 6mm, y: 30mm, w: 100% - 12mm, space: 2.5mm, clef: treble, notes: \"G#4 Ab4\"}"),
    Kind("group", "Several elements under one condition, or repeated once per item of a list field "
         "(`each`): inside, `{item}` is the item (for a mapping field `{key}` and `{value}`) and "
         "`{index}` counts from 1; copy n is moved by n−1 times (`step-x`, `step-y`).", (
        Key("elements", "elements", None, "The elements of the group.", required=True),
        Key("each", "field", None, "A list or mapping field to repeat the elements for."),
        _x("step-x", "0mm", "Horizontal move from one repetition to the next."),
        _y("step-y", "0mm", "Vertical move from one repetition to the next."),
        Key("center", "bool", False, "Shift the repetitions so that, however many there are, "
            "they are centred where one would be.")),
        "- group:\n    each: next\n    step-x: 7mm\n    center: true\n    elements:\n"
        "      - symbol: {of: \"{item}\", x: 50%, y: 100% - 8mm, size: 5mm}"),
)}

for _kind in KINDS.values():
    object.__setattr__(_kind, "keys", _kind.keys + COMMON)
