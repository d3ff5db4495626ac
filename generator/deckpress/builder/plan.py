"""What a build makes: its options, the variants a file is printed in, and the files' names.

For each paper and variant, a deck gives (`<id>` is the deck id, `-lowink` marks the low-ink
build, `-cmyk` the colour build in process colours for print shops):

    <id>-cards[-lowink|-cmyk]-<paper>.pdf        card fronts
    <id>-backs[-lowink|-cmyk]-<paper>.pdf        their backs, mirrored for long-edge duplex
    <id>-duplex[-lowink|-cmyk]-<paper>.pdf       front page, back page, … for duplex printers
    <id>-rules-board[-lowink|-cmyk]-<paper>.pdf  rule cards and board pieces (with backs, if they have any)
    <id>-box[-lowink|-cmyk]-<paper>.pdf          a tuck box sized to the deck, to cut out, fold and glue
    <id>-gutterfold[-lowink|-cmyk]-<paper>.pdf   every piece with a back, front and back side by side
                                                 on one sheet, to fold and glue   (--format gutterfold)
    <id>-drivethru.pdf                           one page per card side, CMYK     (--preset drivethru)
    <id>-drivethru-box.pdf                       the tuck box alone, no bleed, CMYK (--preset drivethru-box)
    <id>-factory-<component>.pdf                 the same with 3 mm bleed and a die line, PDF/X-4
                                                 (or X-1a), one file per component (--preset factory)
    cut/<pdf name>-p<page>.svg, .dxf, .png       the cut files of each front page  (--cutter: cutters.py)

Low-ink files are black ink only, without RGB, whatever the colour space: a CMYK build writes them
as they are, not a second copy named `-lowink-cmyk`.

Other formats write per-card files from the same faces (see `deckpress.outputs`):

    png[-<lang>][-lowink]/<component>-<number>-<name>-<side>.png, manifest.csv   (--format png)
    svg[-<lang>][-lowink]/… .svg, manifest.csv                                 (--format svg)
    tts[-<lang>]/<deck>-sheet-<n>.png, back images, <id>.json                  (--format tts)
    ttpg[-<lang>]/<id>[-<lang>]/Manifest.json, Templates/, Textures/   a Tabletop Playground package (--format ttpg)
    sprites[-<lang>]/<component>-<n>.png, <id>.json, <id>.css   sprite sheets (Screentop.gg, BGA) (--format sprites)
    <id>[-<lang>]-preview.png   every distinct face on one small contact sheet  (--format preview)
    <id>[-<lang>]-hand.png, -showcase.png   pictures for a shop page  (--format hand, showcase: outputs/shop.py)

`-<lang>` marks a build in one of the deck's translations; images are in colour unless
`Options.image_inks` asks for low-ink too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from ..compose.tuckbox import SLEEVE_THICKNESS
from ..errors import Warnings
from ..imposition.document import Marking
from ..separation import FORMULA, Separation

if TYPE_CHECKING:
    from ..model import Deck
    from ..model.selection import Only
    from ..outputs.digests import SideRecord
    from ..outputs.shop import ShopPicture
    from .update import Changes

FORMATS = ("pdf", "gutterfold", "png", "svg", "tts", "ttpg", "sprites", "preview", "hand", "showcase")
SHEET_FORMATS = ("pdf", "gutterfold")  # laid out on paper
IMAGE_FORMATS = ("png", "svg")  # one set per ink asked for; tts and preview are for screens: colour
SCREEN_FORMATS = ("tts", "ttpg", "sprites", "preview")
SHOP_FORMATS = ("hand", "showcase")  # one picture each, of a few cards (outputs/shop.py)
DRIVETHRU = "drivethru"  #: the preset that is a PDF, not a set of PNGs
FACTORY = "factory"  #: a game factory's files: a PDF/X file per component, with a die line
DRIVETHRU_BOX = "drivethru-box"  #: DriveThruCards' tuck box: the deck's box, PDF/X-1a, no bleed
PDFX = ("4", "1a")  #: the PDF/X a factory file is written in (`Options.pdfx`)


class Variant(Enum):
    """What a file's faces are printed in: the ink the faces are converted for (`ink.apply_ink`),
    the colour space of the colour build, the mark in the file's name and the colour space its
    PDF enforces (`DocInfo.colors`)."""

    COLOR = ("color", "rgb", "", "rgb")
    CMYK = ("color", "cmyk", "-cmyk", "cmyk")
    LOWINK = ("lowink", "rgb", "-lowink", "k")  # black ink only already: a CMYK build writes it as it is

    def __init__(self, ink: str, color: str, suffix: str, colors: str) -> None:
        self.ink, self.color, self.suffix, self.colors = ink, color, suffix, colors

    @classmethod
    def of(cls, ink: str, color: str = "rgb") -> Variant:
        """The variant of an ink ("color", "lowink") in a build whose colour is `color` ("rgb", "cmyk")."""
        if ink == "lowink":
            return cls.LOWINK
        return cls.CMYK if color == "cmyk" else cls.COLOR


@dataclass(frozen=True)
class Options:
    """What to make besides the paper and ink: formats and their settings."""

    formats: tuple[str, ...] = ("pdf",)
    dpi: int = 300  # PNG resolution (a preset sets its own)
    preset: str | None = None  # a print service's card files: mpc | tgc | drivethru
    outline_text: bool = False  # SVG text as paths
    tts_base_url: str | None = None  # where the TTS images will be hosted
    color: str = "rgb"  # the colour build's colour space: rgb, or cmyk for print shops
    separation: Separation = FORMULA  # how a cmyk build makes its inks: the formula or an ICC profile
    image_inks: tuple[str, ...] = ("color",)  # PNG/SVG sets: screens and print services want colour
    sleeves: str | tuple[float, float] | None = None  # the box holds sleeved cards: "auto" or the sleeve's size
    sleeve_thickness: float = SLEEVE_THICKNESS  # what a sleeve adds to a card's thickness
    marking: Marking = field(default_factory=Marking)  # how sheets are marked, and back pages shifted
    gap: float | None = None  # mm between cards on the sheets, for every deck (None: each deck's own `gap`)
    shop: ShopPicture | None = None  # the hand and showcase pictures' size, background and cards (None: defaults)
    only: tuple[Only, ...] = ()  # a playtest build: only the cards these conditions hold for (`--only`)
    sides: bool = False  # record what each card looks like (`DeckBuild.sides`), for a report to compare with later
    # an update build (`--changed-since`): the earlier report's name and the entries it recorded, by
    # deck id and language; only the update file is written, with what was added or changed since
    changed_since: tuple[str, Mapping[tuple[str, str], tuple[SideRecord, ...]]] | None = None
    pdfx: str = "4"  # a factory's files (`preset="factory"`) in PDF/X-4, or "1a": PDF/X-1a:2003

    def wants(self, formats: tuple[str, ...]) -> bool:
        """Whether any of `formats` is asked for."""
        return any(f in self.formats for f in formats)


@dataclass
class Output:
    """A file a build wrote."""

    path: Path
    pages: int  # pages of a PDF; 0 for other files


@dataclass
class DeckBuild:
    """What building one deck gave: the deck as loaded, the files written, what will print
    badly (text that does not fit, a box too big for the paper, …), and how many distinct card
    faces it printed."""

    deck: Deck
    outputs: list[Output] = field(default_factory=list)
    warnings: Warnings = field(default_factory=Warnings)
    faces: int = 0
    sides: tuple[SideRecord, ...] = ()  # each card-list entry with digests of its sides, for the report
    changes: Changes | None = None  # an update build's: what changed since the earlier report


def lang_suffix(deck: Deck) -> str:
    """What marks a file or folder of a build in one of the deck's translations: `-en`, or ""."""
    return f"-{deck.lang}" if deck.translate else ""


def deck_folder(out_dir: Path, deck: Deck) -> Path:
    """Where a deck's files go: one folder per deck id."""
    return out_dir / deck.id


def pdf_name(deck: Deck, kind: str, paper: str | None, variant: Variant) -> str:
    """`<id>[-<lang>]-<kind>[<variant>]-<paper>.pdf`; a print service's file (`paper` None, its
    variant fixed by the service) is named by its kind alone."""
    if paper is None:
        return f"{deck.id}{lang_suffix(deck)}-{kind}.pdf"
    return f"{deck.id}{lang_suffix(deck)}-{kind}{variant.suffix}-{paper}.pdf"


def image_folder(out_dir: Path, deck: Deck, kind: str, variant: Variant = Variant.COLOR) -> Path:
    """`<id>/<kind>[-<lang>][-lowink]`: a translation's images beside the original's."""
    return deck_folder(out_dir, deck) / f"{kind}{lang_suffix(deck)}{variant.suffix}"


def printed_title(deck: Deck) -> str:
    """The deck's title in the language it is printed in."""
    return deck.translate(deck.title, (deck.file, 1)) if deck.translate else deck.title
