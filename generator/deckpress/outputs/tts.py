"""Tabletop Simulator: card sheets, back images and a saved object that TTS can load.

TTS builds a deck from a "card sheet": one image of equal cells, at most 10 wide and 7 tall,
whose last cell is the picture shown for a hidden card (print-specs.md §3). Each sheet has one
back image, so the deck's cards are grouped by back design: the cards of every component that
shares a back (metronome's notes, rests, dots, …) become one TTS deck, on sheets of their own,
and cards of another back another deck. Cards printed without a back (rule cards, staff pieces)
get a neutral back of their own, the paper with the deck's title and their component's name, so
that face down they do not pass for playing cards; each component of them is a deck too. Pieces that are not card-shaped (boards, pawns)
become custom tiles, which keep their proportions.

Every card says what it is in the deck's language: its `Nickname` (`Entry.nickname`: the name, or
the first text a nameless card shows), its `Description` the text its front shows as plain text
(TTS shows it in the card's tooltip and searches it), and its `GMNotes`, which only the game master
sees and scripts read, the row it was made from (`deck.yaml:45` and the fields it gives).

Every object, and every card inside a deck, has a GUID: six hex digits made from the saved
object's name and the object's place in it, unique within the file and the same on every build.

The saved object names its images by URL: `--tts-base-url` where the images will be hosted
(TTS fetches them from there for every player), local file URLs otherwise (good for trying a
deck alone).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from PIL import Image as PILImage

from ..atomic import write_text
from ..backends.raster import RasterJob, render, save_png, trim_box
from ..colors import RGB
from ..face import Face, Group, Item, Line, Paint, Rect, Text, rotation, translation
from ..text.fonts import FontSet
from ..text import TextStyle, escape, set_text
from ..units import PT
from .sides import Entry, file_stems, shown_name, slug, unique_name

MAX_COLS, MAX_ROWS = 10, 7
MAX_WIDTH = 4096  # px: TTS asks for images no larger than 4096 × 4096
PER_SHEET = MAX_COLS * MAX_ROWS - 1  # the last cell is the hidden-card image
TILE_DPI = 200  # boards and tokens: sharp on screen, under the size limit
BLANK = (255, 255, 255)
NEUTRAL_BACK = "neutral-back"  # the back image of cards printed without a back

PAPER = RGB(0.961, 0.949, 0.922)  # the neutral back: card stock, a little warmer than the screen's white
NEUTRAL_INK = RGB(0.55, 0.54, 0.52)  # its frame and title: quiet, plainly not a suit or an instrument


def cell_size(card_w: float, card_h: float) -> tuple[int, int]:
    """Pixels of one cell, the same on every sheet of the deck: as large as a full 10 × 7 sheet
    allows within 4096 × 4096 (poker: 409 × 573)."""
    scale = min(MAX_WIDTH / (MAX_COLS * card_w), MAX_WIDTH / (MAX_ROWS * card_h))
    return (math.floor(card_w * scale), math.floor(card_h * scale))


def sheet_grid(faces: int) -> tuple[int, int]:
    """Columns and rows for a sheet of `faces` faces plus the hidden-card cell (at most 69 faces)."""
    if not 1 <= faces <= PER_SHEET:
        raise ValueError(f"a sheet holds 1 to {PER_SHEET} faces, not {faces}")
    cells = faces + 1
    cols = min(MAX_COLS, cells)
    return cols, math.ceil(cells / cols)


@dataclass(frozen=True)
class Sheet:
    name: str  # file stem
    faces: tuple[Face, ...]
    hidden: Face  # shown in the last cell: the back
    back: str  # file stem of the back image

    @property
    def grid(self) -> tuple[int, int]:
        return sheet_grid(len(self.faces))


def neutral_back(title: str, like: Face, fonts: FontSet | None = None, part: str = "") -> Face:
    """The back of cards printed without one, at the size of `like` (a front): plain paper inside
    a thin double frame, the deck's title in the middle between two short rules, and under them
    which `part` of the deck the cards are (a component: "rules", "staff"). Quiet on purpose: a
    face-down rule card should look like what it is, not like a playing card."""
    w, h, bleed = like.width, like.height, like.bleed
    fonts = fonts or FontSet()
    inset = max(3.0, min(w, h) * 0.07)
    frame = Paint(stroke=NEUTRAL_INK, stroke_width=0.35)
    hairline = Paint(stroke=NEUTRAL_INK, stroke_width=0.18)
    items: list[Item] = [
        Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, paint=Paint(fill=PAPER)),
        Rect(inset, inset, w - 2 * inset, h - 2 * inset, radius=max(0.0, like.radius - inset / 2), paint=frame),
        Rect(inset + 1.2, inset + 1.2, w - 2 * inset - 2.4, h - 2 * inset - 2.4,
             radius=max(0.0, like.radius - inset / 2 - 1.2), paint=hairline),
    ]
    box_w = w - 2 * inset - 6.0
    box_h = min(22.0, h * 0.25)
    # the title as it is, not markup
    fitted = set_text(escape(title), ((w - box_w) / 2, (h - box_h) / 2, box_w, box_h),
                      TextStyle(fonts.families["sans"], "bold", 15 * PT, 7 * PT, NEUTRAL_INK, "center", "middle", 1.15),
                      fonts)
    items += fitted.items
    lines = [item for item in fitted.items if isinstance(item, Text)]
    top = min((t.y - 0.76 * t.size for t in lines), default=h / 2)  # cap height and accents
    bottom = max((t.y + 0.24 * t.size for t in lines), default=h / 2)
    rule = min(w, h) * 0.16
    for y in (top - 3.0, bottom + 3.0):
        items.append(Line(w / 2 - rule, y, w / 2 + rule, y, paint=frame))
    if part:
        items += set_text(escape(part), ((w - box_w) / 2, bottom + 5.0, box_w, 6.0),
                          TextStyle(fonts.families["sans"], "regular", 9 * PT, 6 * PT, NEUTRAL_INK, "center", "top",
                                    1.15), fonts).items
    return Face(w, h, bleed, tuple(items), like.radius)


def write_tts(entries: Sequence[Entry], folder: Path, name: str, card: tuple[float, float],
              base_url: str | None = None, progress: Callable[[int], None] | None = None, *,
              title: str | None = None, fonts: FontSet | None = None) -> list[Path]:
    """Write the sheets, back images, tile images and `<name>.json` (a TTS saved object) into
    `folder`. `card` is the deck's card size: pieces of that size become cards, grouped into
    decks by their back, others tiles. `title` (the deck's, as printed; `name` if not given)
    names the save and the decks of several components, and is on the neutral back, drawn in
    `fonts`."""
    title = title or name
    stems = file_stems(entries)
    cards = [e for e in entries if _same(e.size, card)]
    tiles = [e for e in entries if not _same(e.size, card)]
    cell = cell_size(*card)
    # cards printed without a back: a neutral back for each component, so that rule cards and, say,
    # staff cards stay two decks, each saying what it is face down
    neutrals: dict[str, Face] = {}
    for e in cards:
        if e.back is None and e.component not in neutrals:
            neutrals[e.component] = neutral_back(title, e.front, fonts, e.part)
    sheets, states = _plan_decks(cards, stems, title, neutrals)
    url = _urls(folder, base_url)

    # every face once: in cells, as back images, as tiles
    wanted: dict[Face, tuple[int, int]] = {}
    for sheet in sheets:
        for face in sheet.faces:
            wanted[face] = cell
        if sheet.hidden not in neutrals.values():
            wanted[sheet.hidden] = cell  # the hidden card is the back: its cell picture is the back image too
    # a fold-over standee stands as a figure: its two halves, without their feet, are its two sides
    figures = {e.front: figure_sides(e.front, e.standee) for e in tiles if e.standee is not None}
    flat = [e for e in tiles if e.standee is None]
    tile_faces = {face: _tile_px(face) for e in flat for face in (e.front, e.back) if face is not None}
    tile_faces.update({face: _tile_px(face) for sides in figures.values() for face in sides})
    wanted.update(tile_faces)
    jobs = [RasterJob(face, trim_box(face), size) for face, size in wanted.items()]
    pictures = dict(zip(wanted, render(jobs, progress=progress)))
    if neutrals:  # not the deck's faces, so not counted in the build's plan
        backs = list(neutrals.values())
        pictures.update(zip(backs, render([RasterJob(face, trim_box(face), cell) for face in backs])))

    written = []
    for sheet in sheets:
        written.append(_write_sheet(folder, sheet, pictures, cell))
    backs = {sheet.back: sheet.hidden for sheet in sheets}
    for stem, face in backs.items():
        written.append(save_png(pictures[face], folder / f"{stem}.png", dpi=72))
    for e in flat:
        for side, face in (("front", e.front), ("back", e.back)):
            if face is not None and (folder / f"{stems[(side, face)]}.png") not in written:
                written.append(save_png(pictures[face], folder / f"{stems[(side, face)]}.png", dpi=72))
    figure_stems = {}
    for front, sides in figures.items():
        stem = stems[("front", front)].removesuffix("-front")
        figure_stems[front] = (f"{stem}-figure-front", f"{stem}-figure-back")
        for face, side_stem in zip(sides, figure_stems[front]):
            written.append(save_png(pictures[face], folder / f"{side_stem}.png", dpi=72))

    objects = [_deck_object(state, url, i) for i, state in enumerate(states)]
    copies = [e for e in tiles for _ in range(e.copies)]  # a tile is one piece: eight pawns are eight tiles
    objects += [_figure_object(e, figure_stems[e.front], url, card, len(objects) + i) if e.standee is not None
                else _tile_object(e, stems, url, card, len(objects) + i) for i, e in enumerate(copies)]
    _give_guids(objects, name)
    saved = {"SaveName": title, "GameMode": title, "Note": "Made with deckpress.", "ObjectStates": objects}
    path = folder / f"{_file_safe(name)}.json"
    write_text(path, json.dumps(saved, indent=2, ensure_ascii=False) + "\n")
    return [*written, path]


def _same(size: tuple[float, float], card: tuple[float, float]) -> bool:
    return abs(size[0] - card[0]) < 0.01 and abs(size[1] - card[1]) < 0.01


@dataclass
class _DeckState:
    """One TTS deck: the cards of one back design, their sheets (one CustomDeck each) and every copy."""

    nickname: str
    sheets: list[tuple[int, Sheet]]  # (CustomDeck id, sheet)
    cards: list[tuple[int, Entry]]  # (CardID, the card), one per copy
    sideways: bool


def _plan_decks(cards: Sequence[Entry], stems: dict[tuple[str, Face], str], title: str,
                neutrals: dict[str, Face]) -> tuple[list[Sheet], list[_DeckState]]:
    """Group the cards by back design (cards without a back: their component's neutral back),
    each group one deck in the order its first card comes; put its distinct fronts onto sheets of
    at most 69 faces; number the sheets (CustomDeck ids from 1) and the cards (CardID = sheet id
    × 100 + cell)."""
    groups: dict[Face, list[Entry]] = {}
    for e in cards:
        groups.setdefault(e.back if e.back is not None else neutrals[e.component], []).append(e)
    sheets: list[Sheet] = []
    states: list[_DeckState] = []
    nicknames = _nicknames(groups, title, set(neutrals.values()))
    taken: set[str] = set(stems.values())
    neutral_stems = {}
    for component, face in neutrals.items():
        neutral_stems[face] = unique_name(f"{NEUTRAL_BACK}-{slug(component) or 'cards'}", taken)
    for (back, group), nickname in zip(groups.items(), nicknames):
        hidden = back
        back_stem = neutral_stems[back] if back in neutral_stems else stems[("back", back)]
        state = _DeckState(nickname, [], [], group[0].size[0] > group[0].size[1])
        fronts = list(dict.fromkeys(e.front for e in group))
        stem = unique_name(slug(nickname) or "deck", taken)
        cell_of: dict[Face, tuple[int, int]] = {}
        for start in range(0, len(fronts), PER_SHEET):
            chunk = tuple(fronts[start:start + PER_SHEET])
            sheet_id = len(sheets) + 1
            sheet = Sheet(f"{stem}-sheet-{start // PER_SHEET + 1}", chunk, hidden, back_stem)
            sheets.append(sheet)
            state.sheets.append((sheet_id, sheet))
            cell_of.update({face: (sheet_id, i) for i, face in enumerate(chunk)})
        for e in group:
            sheet_id, cell = cell_of[e.front]
            state.cards += [(sheet_id * 100 + cell, e)] * e.copies
        states.append(state)
    return sheets, states


def _nicknames(groups: dict[Face, list[Entry]], title: str, neutral: set[Face]) -> list[str]:
    """What each deck is called on the table: its component's name (in the deck's language) when
    it holds one component; the deck's title for the first of several components behind a printed back (metronome's
    notes, rests, dots, … are "metronome"); otherwise its components' names ("a + b")."""
    names: list[str] = []
    for back, group in groups.items():
        components = list(dict.fromkeys(e.part for e in group))
        if len(components) == 1:
            names.append(components[0])
        elif back not in neutral and shown_name(title) not in names:
            names.append(shown_name(title))  # as a card's name: no controls
        else:
            names.append(" + ".join(components))
    return names


def _give_guids(objects: list[dict], seed: str) -> None:
    """A GUID for every object and every card in a deck: the first six hex digits of the SHA-256
    of the save's name and the object's place (`3`, or `3/12` for the thirteenth card of the
    fourth object), taken again with a counter in the rare case two collide. Same save, same
    GUIDs: a rebuild changes no byte, and TTS can tell the objects apart."""
    taken: set[str] = set()

    def guid(place: str) -> str:
        n = 0
        while True:
            digest = hashlib.sha256(f"{seed}\0{place}\0{n}".encode()).hexdigest()[:6]
            if digest not in taken:
                taken.add(digest)
                return digest
            n += 1

    def named(obj: dict, place: str) -> dict:  # the GUID after the Name, where TTS writes it
        return {"Name": obj["Name"], "GUID": guid(place), **{k: v for k, v in obj.items() if k != "Name"}}

    for i, obj in enumerate(objects):
        objects[i] = obj = named(obj, str(i))
        if "ContainedObjects" in obj:
            obj["ContainedObjects"] = [named(card, f"{i}/{j}") for j, card in enumerate(obj["ContainedObjects"])]


def _tile_px(face: Face) -> tuple[int, int]:
    scale = min(TILE_DPI / 25.4, MAX_WIDTH / face.width, MAX_WIDTH / face.height)
    return (round(face.width * scale), round(face.height * scale))


def _write_sheet(folder: Path, sheet: Sheet, pictures: dict[Face, PILImage.Image], cell: tuple[int, int]) -> Path:
    cols, rows = sheet.grid
    image = PILImage.new("RGB", (cols * cell[0], rows * cell[1]), BLANK)
    for i, face in enumerate(sheet.faces):
        image.paste(pictures[face], ((i % cols) * cell[0], (i // cols) * cell[1]))
    last = cols * rows - 1
    image.paste(pictures[sheet.hidden], ((last % cols) * cell[0], (last // cols) * cell[1]))
    return save_png(image, folder / f"{sheet.name}.png", dpi=72)


def _urls(folder: Path, base_url: str | None) -> Callable[[str], str]:
    if base_url:
        return lambda stem: f"{base_url.rstrip('/')}/{quote(stem)}.png"
    return lambda stem: (folder / f"{stem}.png").resolve().as_uri()


def _transform(index: int, scale: float = 1.0, face_down: bool = True) -> dict[str, float]:
    return {"posX": -6.0 + 3.5 * index, "posY": 1.0, "posZ": 0.0,
            "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0 if face_down else 0.0,
            "scaleX": scale, "scaleY": 1.0, "scaleZ": scale}


def _deck_object(state: _DeckState, url: Callable[[str], str], index: int) -> dict:
    custom = {str(sheet_id): {"FaceURL": url(sheet.name), "BackURL": url(sheet.back),
                              "NumWidth": sheet.grid[0], "NumHeight": sheet.grid[1],
                              "BackIsHidden": True, "UniqueBack": False, "Type": 0}
              for sheet_id, sheet in state.sheets}

    def card(card_id: int, e: Entry) -> dict:
        return {"Name": "Card", "Transform": _transform(index), "Nickname": e.nickname, "Description": e.text,
                "GMNotes": e.source, "CardID": card_id,
                "SidewaysCard": state.sideways, "CustomDeck": {str(card_id // 100): custom[str(card_id // 100)]}}

    if len(state.cards) == 1:
        return card(*state.cards[0])
    return {"Name": "DeckCustom", "Transform": _transform(index), "Nickname": state.nickname,
            "SidewaysCard": state.sideways, "DeckIDs": [card_id for card_id, _ in state.cards],
            "CustomDeck": custom, "ContainedObjects": [card(*c) for c in state.cards]}


def _tile_object(e: Entry, stems: dict[tuple[str, Face], str], url: Callable[[str], str],
                 card: tuple[float, float], index: int) -> dict:
    front = stems[("front", e.front)]
    back = stems[("back", e.back)] if e.back is not None else front
    return {"Name": "Custom_Tile", "Transform": _transform(index, e.size[0] / card[0], face_down=False),
            "Nickname": e.nickname, "Description": e.text, "GMNotes": e.source,
            "CustomImage": {"ImageURL": url(front), "ImageSecondaryURL": url(back), "ImageScalar": 1.0,
                            "WidthScale": 0.0,
                            "CustomTile": {"Type": 0, "Thickness": 0.1, "Stackable": False, "Stretch": True}}}


def figure_sides(face: Face, foot: float) -> tuple[Face, Face]:
    """The two sides of a fold-over standee as figures standing upright: its lower half (head at
    the fold, feet above the foot tab) and its upper half turned round, each without the `foot`
    tab at the piece's end. What a virtual table shows standing on a base."""
    w, half = face.width, face.height / 2
    tall = half - foot
    lower = translation(0.0, -half)  # the fold to the figure's top edge
    upper = rotation(180.0, w / 2, half / 2)  # (x, y) to (w - x, half - y): the fold at the top again
    return Face(w, tall, 0.0, (Group(face.items, lower),)), Face(w, tall, 0.0, (Group(face.items, upper),))


def _figure_object(e: Entry, stems: tuple[str, str], url: Callable[[str], str], card: tuple[float, float],
                   index: int) -> dict:
    """A standee as TTS's custom figurine: a cut-out picture standing on a round base, its front
    and back the two sides `figure_sides` makes, as wide (against a card) as the piece."""
    return {"Name": "Figurine_Custom", "Transform": _transform(index, e.size[0] / card[0], face_down=False),
            "Nickname": e.nickname, "Description": e.text, "GMNotes": e.source,
            "CustomImage": {"ImageURL": url(stems[0]), "ImageSecondaryURL": url(stems[1]), "ImageScalar": 1.0,
                            "WidthScale": 0.0}}


def _file_safe(title: str) -> str:
    return slug(title, 60) or "deck"
