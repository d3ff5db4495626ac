"""Tabletop Simulator: card sheets, back images and a saved object that TTS can load.

TTS builds a deck from a "card sheet": one image of equal cells, at most 10 wide and 7 tall,
whose last cell is the picture shown for a hidden card (print-specs.md §3). Each sheet has one
back image, so cards are grouped by back design and each group gets sheets of its own. Pieces
that are not card-shaped (boards, pawns) become custom tiles, which keep their proportions.

The saved object names its images by URL: `--tts-base-url` where the images will be hosted
(TTS fetches them from there for every player), local file URLs otherwise (good for trying a
deck alone).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from PIL import Image as PILImage

from ..atomic import write_text
from ..backends.raster import RasterJob, render, save_png, trim_box
from ..face import Face
from .sides import Entry, file_stems, slug

MAX_COLS, MAX_ROWS = 10, 7
MAX_WIDTH = 4096  # px: TTS asks for images no larger than 4096 × 4096
PER_SHEET = MAX_COLS * MAX_ROWS - 1  # the last cell is the hidden-card image
TILE_DPI = 200  # boards and tokens: sharp on screen, under the size limit
BLANK = (255, 255, 255)
BLANK_BACK = "blank-back"  # the back image of a deck that prints no backs: plain white


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
    hidden: Face | None  # shown in the last cell
    back: str  # file stem of the back image

    @property
    def grid(self) -> tuple[int, int]:
        return sheet_grid(len(self.faces))


def write_tts(entries: Sequence[Entry], folder: Path, title: str, card: tuple[float, float],
              base_url: str | None = None, progress: Callable[[int], None] | None = None) -> list[Path]:
    """Write the sheets, back images, tile images and `<title>.json` (a TTS saved object) into
    `folder`. `card` is the deck's card size: components of that size become decks, others tiles."""
    stems = file_stems(entries)
    cards = [e for e in entries if _same(e.size, card)]
    tiles = [e for e in entries if not _same(e.size, card)]
    cell = cell_size(*card)
    sheets, states = _plan_decks(cards, stems)
    url = _urls(folder, base_url)

    # every face once: in cells, as back images, as tiles
    wanted: dict[Face, tuple[int, int]] = {}
    for sheet in sheets:
        for face in (*sheet.faces, *([sheet.hidden] if sheet.hidden else [])):
            wanted[face] = cell  # the hidden card is the back: its cell picture is the back image too
    backs = {sheet.back: sheet.hidden for sheet in sheets if sheet.hidden is not None}
    tile_faces = {face: _tile_px(face) for e in tiles for face in (e.front, e.back) if face is not None}
    wanted.update(tile_faces)
    jobs = [RasterJob(face, trim_box(face), size) for face, size in wanted.items()]
    pictures = dict(zip(wanted, render(jobs, progress=progress)))

    written = []
    for sheet in sheets:
        written.append(_write_sheet(folder, sheet, pictures, cell))
    for stem, face in backs.items():
        written.append(_save(folder / f"{stem}.png", pictures[face]))
    if any(sheet.back == BLANK_BACK for sheet in sheets):
        written.append(_save(folder / f"{BLANK_BACK}.png", PILImage.new("RGB", cell, BLANK)))
    for e in tiles:
        for side, face in (("front", e.front), ("back", e.back)):
            if face is not None and (folder / f"{stems[(side, face)]}.png") not in written:
                written.append(_save(folder / f"{stems[(side, face)]}.png", pictures[face]))

    objects = [_deck_object(state, url, i) for i, state in enumerate(states)]
    copies = [e for e in tiles for _ in range(e.copies)]  # a tile is one piece: eight pawns are eight tiles
    objects += [_tile_object(e, stems, url, card, len(objects) + i) for i, e in enumerate(copies)]
    saved = {"SaveName": title, "GameMode": title, "Note": "Made with deckpress.", "ObjectStates": objects}
    path = folder / f"{_file_safe(title)}.json"
    write_text(path, json.dumps(saved, indent=2, ensure_ascii=False) + "\n")
    return [*written, path]


def _same(size: tuple[float, float], card: tuple[float, float]) -> bool:
    return abs(size[0] - card[0]) < 0.01 and abs(size[1] - card[1]) < 0.01


@dataclass
class _DeckState:
    """One TTS deck: a component's cards, their sheets (one CustomDeck each) and every copy."""

    nickname: str
    sheets: list[tuple[int, Sheet]]  # (CustomDeck id, sheet)
    cards: list[tuple[int, str]]  # (CardID, nickname), one per copy
    sideways: bool


def _plan_decks(cards: Sequence[Entry], stems: dict[tuple[str, Face], str]) -> tuple[list[Sheet], list[_DeckState]]:
    """Group each component's cards by back design, and the distinct fronts of each group onto
    sheets of at most 69 faces; number the sheets (CustomDeck ids from 1) and the cards
    (CardID = sheet id × 100 + cell)."""
    sheets: list[Sheet] = []
    states: list[_DeckState] = []
    # cards printed without a back (rule cards, say) show the deck's first back in TTS
    common_back = next((e.back for e in cards if e.back is not None), None)
    components = list(dict.fromkeys(e.component for e in cards))
    for component in components:
        mine = [e for e in cards if e.component == component]
        state = _DeckState(component, [], [], mine[0].size[0] > mine[0].size[1])
        groups: dict[Face | None, list[Entry]] = {}
        for e in mine:
            groups.setdefault(e.back or common_back, []).append(e)
        for back, group in groups.items():
            fronts = list(dict.fromkeys(e.front for e in group))
            back_stem = stems[("back", back)] if back is not None else BLANK_BACK
            cell_of: dict[Face, tuple[int, int]] = {}
            for start in range(0, len(fronts), PER_SHEET):
                chunk = tuple(fronts[start:start + PER_SHEET])
                sheet_id = len(sheets) + 1
                n = start // PER_SHEET + 1
                sheet = Sheet(f"{component}-sheet-{n}" if len(groups) == 1 else f"{back_stem}-sheet-{n}",
                              chunk, back, back_stem)
                sheets.append(sheet)
                state.sheets.append((sheet_id, sheet))
                cell_of.update({face: (sheet_id, i) for i, face in enumerate(chunk)})
            for e in group:
                sheet_id, cell = cell_of[e.front]
                state.cards += [(sheet_id * 100 + cell, e.name or f"{component} {e.number}")] * e.copies
        states.append(state)
    return sheets, states


def _tile_px(face: Face) -> tuple[int, int]:
    scale = min(TILE_DPI / 25.4, MAX_WIDTH / face.width, MAX_WIDTH / face.height)
    return (round(face.width * scale), round(face.height * scale))


def _write_sheet(folder: Path, sheet: Sheet, pictures: dict[Face, PILImage.Image], cell: tuple[int, int]) -> Path:
    cols, rows = sheet.grid
    image = PILImage.new("RGB", (cols * cell[0], rows * cell[1]), BLANK)
    for i, face in enumerate(sheet.faces):
        image.paste(pictures[face], ((i % cols) * cell[0], (i // cols) * cell[1]))
    if sheet.hidden is not None:
        last = cols * rows - 1
        image.paste(pictures[sheet.hidden], ((last % cols) * cell[0], (last // cols) * cell[1]))
    return _save(folder / f"{sheet.name}.png", image)


def _save(path: Path, image: PILImage.Image) -> Path:
    save_png(image, path, dpi=72)
    return path


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

    def card(card_id: int, nickname: str) -> dict:
        return {"Name": "Card", "Transform": _transform(index), "Nickname": nickname, "CardID": card_id,
                "SidewaysCard": state.sideways, "CustomDeck": {str(card_id // 100): custom[str(card_id // 100)]}}

    if len(state.cards) == 1:
        return card(*state.cards[0])
    return {"Name": "Deck", "Transform": _transform(index), "Nickname": state.nickname,
            "SidewaysCard": state.sideways, "DeckIDs": [card_id for card_id, _ in state.cards],
            "CustomDeck": custom, "ContainedObjects": [card(*c) for c in state.cards]}


def _tile_object(e: Entry, stems: dict[tuple[str, Face], str], url: Callable[[str], str],
                 card: tuple[float, float], index: int) -> dict:
    front = stems[("front", e.front)]
    back = stems[("back", e.back)] if e.back is not None else front
    return {"Name": "Custom_Tile", "Transform": _transform(index, e.size[0] / card[0], face_down=False),
            "Nickname": e.name or f"{e.component} {e.number}",
            "CustomImage": {"ImageURL": url(front), "ImageSecondaryURL": url(back), "ImageScalar": 1.0,
                            "WidthScale": 0.0,
                            "CustomTile": {"Type": 0, "Thickness": 0.1, "Stackable": False, "Stretch": True}}}


def _file_safe(title: str) -> str:
    return slug(title, 60) or "deck"
