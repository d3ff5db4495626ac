"""Card sides with their names: what per-card outputs (PNG, SVG, Tabletop Simulator) are made of.

Sheets only need faces; files for print services and virtual tables also need to say which
card a picture is and how many copies to make. An `Entry` is one line of a component's card
list, composed once, with its copy count; `file_stems` names each distinct face once, after
the cards that show it, so identical faces become one file.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import CONTROLS
from ..face import Face

SIDES = ("front", "back")
COMPONENT_SLUG = 40  #: characters of a component's name in a file name (the bundled decks' longest has 17)


@dataclass(frozen=True)
class Entry:
    component: str
    number: int  # 1-based place in its component's card list
    name: str  # what a player calls the card ("" when it has no name field)
    copies: int  # printed copies of this entry, all players' sets included
    front: Face
    back: Face | None
    width: int = 2  # digits that numbers in this component are padded to
    # what a player reads on the front: each text it sets as plain text, a line each, in the
    # order the layout draws them, each text once (a corner index printed twice is said once)
    text: str = ""
    source: str = ""  # where the card is written: `deck.yaml:45`, then its fields as `key: value` lines
    part: str = ""  # the component's name in the language the deck is printed in ("": `component`)
    # what a virtual table calls the card ("": its name, else its component and number; the builder
    # gives a nameless card the first text its front sets, a lone piece its component's name)
    nickname: str = ""
    standee: float | None = None  # a fold-over standee's foot tab, mm (its component's `standee:`); None: not one

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", shown_name(self.name))
        object.__setattr__(self, "component", shown_name(self.component))
        object.__setattr__(self, "part", shown_name(self.part) or self.component)
        object.__setattr__(self, "nickname", shown_name(self.nickname) or self.name or f"{self.part} {self.number}")
        object.__setattr__(self, "text", shown_text(self.text))
        object.__setattr__(self, "source", shown_text(self.source))

    def face(self, side: str) -> Face | None:
        return self.front if side == "front" else self.back

    @property
    def size(self) -> tuple[float, float]:
        return (self.front.width, self.front.height)


def distinct_faces(entries: Sequence[Entry]) -> list[Face]:
    """Every face the entries show, once: the fronts in inventory order, then the backs."""
    return list(dict.fromkeys(face for side in SIDES for e in entries if (face := e.face(side)) is not None))


def shown_name(name: str) -> str:
    """A card's name as the files that list it say it (manifest.csv, Tabletop Simulator): without
    controls, which a terminal or a viewer would obey (ESC sequences, U+202E turning the rest of a
    line around: errors.CONTROLS). Right-to-left names keep their letters and are shown in the
    right order by the bidirectional algorithm alone."""
    return CONTROLS.sub("", name).strip() if CONTROLS.search(name) else name


def shown_text(text: str) -> str:
    """Lines of text as `shown_name` says a name: each line without controls, blank lines left out."""
    lines = (shown_name(line) for line in text.split("\n"))
    return "\n".join(line for line in lines if line)


_SPELLED = {"♯": " sharp ", "♭": " flat ", "#": " sharp ", "♮": " natural ", "+": " plus ", "&": " and "}


def unique_name(stem: str, taken: set[str]) -> str:
    """`stem`, or `stem-2`, `stem-3`, … if it is taken; the name returned is taken from then on."""
    unique, n = stem, 2
    while unique in taken:
        unique, n = f"{stem}-{n}", n + 1
    taken.add(unique)
    return unique


def slug(text: str, limit: int = 28) -> str:
    """A name that is safe in a file name everywhere: lower-case ASCII words joined by hyphens
    ("G♯/A♭" → "g-sharp-a-flat", "Richtungswechsel" stays readable, umlauts lose their dots).
    Nothing else gets through: no control, no bidirectional mark, no letter of another script (a
    Hebrew name leaves its file named by its component and number alone)."""
    for char, words in _SPELLED.items():
        text = text.replace(char, words)
    text = unicodedata.normalize("NFKD", text.replace("ß", "ss")).encode("ascii", "ignore").decode()
    words = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return words[:limit].rstrip("-")


def file_stems(entries: Sequence[Entry]) -> dict[tuple[str, Face], str]:
    """A file stem for every distinct (side, face): `<side>` for a face every card shares,
    `<component>-<side>` for one all of a component's cards share (a common back), otherwise `<component>-<number>-<name>-<side>` after
    the first card that shows it. The component is a slug too (`part`): a deck's component named
    "../../x" wrote its card images outside the output folder."""
    by_component: dict[str, list[Entry]] = {}
    for entry in entries:
        by_component.setdefault(entry.component, []).append(entry)
    stems: dict[tuple[str, Face], str] = {}
    taken: set[str] = set()
    for side in SIDES:
        for entry in entries:
            face = entry.face(side)
            if face is None or (side, face) in stems:
                continue
            siblings = by_component[entry.component]
            part = slug(entry.component, COMPONENT_SLUG) or "cards"
            if len(by_component) > 1 and all(e.face(side) in (face, None) for e in entries):
                stem = side  # the one back of every card that has one
            elif len(siblings) > 1 and all(e.face(side) == face for e in siblings):
                stem = f"{part}-{side}"
            else:
                stem = "-".join(p for p in (part, f"{entry.number:0{entry.width}d}", slug(entry.name), side) if p)
            unique, n = stem, 2
            while unique in taken:
                unique, n = f"{stem}-{n}", n + 1
            taken.add(unique)
            stems[(side, face)] = unique
    return stems
