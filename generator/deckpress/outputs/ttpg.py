"""Tabletop Playground: a package folder with card sheets and the card templates that use them.

Tabletop Playground (TTPG) loads a *package*: a folder in its `PersistentDownloadDir` holding a
`Manifest.json` (name, version, a GUID), `Templates/` (one JSON file per object template) and
`Textures/` (the pictures templates name, relative to that folder). A stack of cards is one
template of `"Type": "Card"` whose `FrontTexture` is a sheet of `NumHorizontal` × `NumVertical`
cells and whose `Indices` list the cell of each card in the stack; `CardNames` and
`CardMetadata` give each index a name and a text scripts can read. The keys and their meaning
are Plasticity Studios' published schema (github.com/plasticity-studios/tabletop-playground-schemas,
src/templates.ts and src/object-template.ts); packages built by other tools (Templative, the
Tabletop-Playground-Deck-Pipeline) lay their folders out the same way.

As for Tabletop Simulator, cards are grouped by back design (a neutral back for cards printed
without one, per component), each group one stack, its distinct fronts on sheets of at most
10 × 7 cells within 4096 px (more fronts: one template a sheet). The back is a texture of its
own (`BackIndex` -2), and a hidden card shows it (`HiddenIndex` -3). Pieces of another size
(boards, pawns) are stacks of their own, at their own size in centimetres. GUIDs are 32 hex
digits made from the package's name and the template's place, the same on every build.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image as PILImage

from ..atomic import write_text
from ..backends.raster import RasterJob, render, save_png, trim_box
from ..face import Face
from ..text.fonts import FontSet
from .sides import Entry, shown_name, slug, unique_name
from .tts import MAX_COLS, MAX_ROWS, cell_size, neutral_back

BLANK = (255, 255, 255)
CARD_THICKNESS = 0.05  # cm, the schema's default for cards
PIECE_THICKNESS = 0.2  # cm: boards and tiles are card board, not card stock


@dataclass
class _Stack:
    """Cards that share a back and a size: one TTPG stack (a template a sheet)."""

    name: str
    back: Face
    entries: list[Entry] = field(default_factory=list)


def write_ttpg(entries: Sequence[Entry], folder: Path, name: str, card: tuple[float, float],
               progress: Callable[[int], None] | None = None, *, title: str | None = None,
               fonts: FontSet | None = None) -> list[Path]:
    """Write the package into `folder`: `Manifest.json`, `Templates/<stack>.json` and
    `Textures/<stack>-<n>.png` with the back images. `card` is the deck's card size (the cells of
    every stack keep its pixels per millimetre); `title` names the package and is on the neutral
    backs, drawn in `fonts`."""
    title = title or name
    stacks = _stacks(entries, title, fonts)
    scale = cell_size(*card)[0] / card[0]
    cells = {id(s): cell_size(*card) if _same(s.entries[0].size, card) else _cell(s.entries[0].size, scale)
             for s in stacks}
    wanted: dict[Face, tuple[int, int]] = {}
    for stack in stacks:
        for face in [*dict.fromkeys(e.front for e in stack.entries), stack.back]:
            wanted.setdefault(face, cells[id(stack)])
    pictures = dict(zip(wanted, render([RasterJob(f, trim_box(f), size) for f, size in wanted.items()],
                                       progress=progress)))

    written: list[Path] = []
    taken: set[str] = set()
    backs: dict[Face, str] = {}
    templates = []
    for stack in stacks:
        cell = cells[id(stack)]
        stem = unique_name(slug(stack.name, 40) or "cards", taken)
        if stack.back not in backs:
            backs[stack.back] = unique_name(f"{stem}-back", taken)
            written.append(save_png(pictures[stack.back], folder / "Textures" / f"{backs[stack.back]}.png", dpi=72))
        fronts = list(dict.fromkeys(e.front for e in stack.entries))
        per_sheet = MAX_COLS * MAX_ROWS
        sheets = [fronts[i:i + per_sheet] for i in range(0, len(fronts), per_sheet)]
        for n, chunk in enumerate(sheets, 1):
            sheet = f"{stem}-{n}" if len(sheets) > 1 else stem
            columns = min(MAX_COLS, len(chunk))
            rows = math.ceil(len(chunk) / columns)
            image = PILImage.new("RGB", (columns * cell[0], rows * cell[1]), BLANK)
            for i, face in enumerate(chunk):
                image.paste(pictures[face], ((i % columns) * cell[0], (i // columns) * cell[1]))
            written.append(save_png(image, folder / "Textures" / f"{sheet}.png", dpi=72))
            index = {face: i for i, face in enumerate(chunk)}
            cards = [e for e in stack.entries if e.front in index]
            label = stack.name if len(sheets) == 1 else f"{stack.name} {n}"
            first = stack.entries[0]
            templates.append((sheet, _template(label, f"{sheet}.png", f"{backs[stack.back]}.png", columns, rows,
                                               cards, index, first, _same(first.size, card))))
    for place, (sheet, template) in enumerate(templates):
        template["GUID"] = _guid(name, str(place))
        path = folder / "Templates" / f"{sheet}.json"
        write_text(path, json.dumps(template, indent="\t", ensure_ascii=False) + "\n")
        written.append(path)
    manifest = folder / "Manifest.json"
    write_text(manifest, json.dumps({"Name": title, "Version": "1", "GUID": _guid(name, "package")},
                                    indent="\t", ensure_ascii=False) + "\n")
    return [*written, manifest]


def _stacks(entries: Sequence[Entry], title: str, fonts: FontSet | None) -> list[_Stack]:
    """Group the entries by back (cards printed without one: a neutral back per component) and
    size, in the order their first cards come; name each stack as Tabletop Simulator names its
    decks: its component when it holds one, else the title, else the components joined."""
    neutrals: dict[str, Face] = {}
    stacks: dict[tuple[Face, tuple[float, float]], _Stack] = {}
    for e in entries:
        back = e.back
        if back is None:
            back = neutrals.get(e.component) or neutrals.setdefault(
                e.component, neutral_back(title, e.front, fonts, e.part))
        key = (back, (round(e.size[0], 2), round(e.size[1], 2)))
        stacks.setdefault(key, _Stack("", back)).entries.append(e)
    named: list[str] = []
    for stack in stacks.values():
        parts = list(dict.fromkeys(e.part for e in stack.entries))
        if len(parts) == 1:
            stack.name = parts[0]
        elif shown_name(title) not in named:
            stack.name = shown_name(title)
        else:
            stack.name = " + ".join(parts)
        named.append(stack.name)
    return list(stacks.values())


def _cell(size: tuple[float, float], scale: float) -> tuple[int, int]:
    """A cell's pixels at `scale` px/mm, shrunk so that a sheet of 10 × 7 stays within 4096 px."""
    w, h = size[0] * scale, size[1] * scale
    shrink = min(1.0, 4096 / (MAX_COLS * w), 4096 / (MAX_ROWS * h)) if w > 0 and h > 0 else 1.0
    return (max(1, math.floor(w * shrink)), max(1, math.floor(h * shrink)))


def _template(label: str, front: str, back: str, columns: int, rows: int, cards: list[Entry],
              index: dict[Face, int], first: Entry, is_card: bool) -> dict:
    """A card template (schema: templates.ts `CardTemplate`): every copy's cell in `Indices`, each
    cell's name and, for scripts, its text and source row as JSON in `CardMetadata`."""
    indices = [index[e.front] for e in cards for _ in range(e.copies)]
    names: dict[str, str] = {}
    metadata: dict[str, str] = {}
    for e in cards:
        key = str(index[e.front])
        names.setdefault(key, e.nickname)
        metadata.setdefault(key, json.dumps({"component": e.part, "number": e.number, "text": e.text,
                                             "source": e.source}, ensure_ascii=False))
    return {
        "Type": "Card", "GUID": "", "Name": label, "Metadata": "",
        "CollisionType": "Regular", "Friction": 0.7, "Restitution": 0, "Density": 0.5,
        "SurfaceType": "Cardboard", "Roughness": 1, "Metallic": 0,
        "PrimaryColor": {"R": 255, "G": 255, "B": 255}, "SecondaryColor": {"R": 0, "G": 0, "B": 0},
        "Flippable": True, "AutoStraighten": False, "ShouldSnap": True, "ScriptName": "", "Blueprint": "",
        "Models": [], "Collision": [], "Lights": [], "SnapPointsGlobal": False, "SnapPoints": [],
        "ZoomViewDirection": {"X": 0, "Y": 0, "Z": 0}, "Tags": [],
        "FrontTexture": front, "BackTexture": back, "HiddenTexture": "",
        "BackIndex": -2, "HiddenIndex": -3,
        "NumHorizontal": columns, "NumVertical": rows,
        "Width": round(first.size[0] / 10, 3), "Height": round(first.size[1] / 10, 3),
        "Thickness": CARD_THICKNESS if is_card else PIECE_THICKNESS,
        "HiddenInHand": True, "UsedWithCardHolders": is_card, "CanStack": True,
        "Model": "Rounded" if first.front.radius > 0 else "Square",
        "Indices": indices, "CardNames": names, "CardMetadata": metadata, "CardTags": {},
    }


def _same(size: tuple[float, float], card: tuple[float, float]) -> bool:
    return abs(size[0] - card[0]) < 0.01 and abs(size[1] - card[1]) < 0.01


def _guid(seed: str, place: str) -> str:
    """32 upper-case hex digits, as TTPG writes them, from the package's name and the place."""
    return hashlib.sha256(f"deckpress-ttpg\0{seed}\0{place}".encode()).hexdigest()[:32].upper()
