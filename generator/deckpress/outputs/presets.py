"""Print services' card files (`--preset`): each service's exact pixel canvas per card size.

Apart from `cardimages`, which draws on those canvases, so that the command line can list the
presets without loading a drawing backend.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import DeckError

INCH = 25.4


@dataclass(frozen=True)
class Canvas:
    """One product of a service: its name, its trim (mm) and the pixel canvas its template asks for."""

    product: str
    trim: tuple[float, float]
    pixels: tuple[int, int]


@dataclass(frozen=True)
class Preset:
    """A print service's card files: an exact pixel canvas per card size, at 300 dpi."""

    name: str
    service: str
    canvases: tuple[Canvas, ...]
    safe: float = INCH / 8  # keep text this far inside the trim: the cut may wander
    dpi: int = 300

    def canvas(self, trim: tuple[float, float]) -> tuple[int, int] | None:
        """The canvas for a card of this trim (either way up), or None if the service has none.
        A millimetre either way is the same product: a service sells 2.5×3.5 in cards as 63×88 mm."""
        w, h = trim
        for c in self.canvases:
            (tw, th), (pw, ph) = c.trim, c.pixels
            if abs(w - tw) <= 1.0 and abs(h - th) <= 1.0:
                return (pw, ph)
            if abs(w - th) <= 1.0 and abs(h - tw) <= 1.0:
                return (ph, pw)
        return None

    def sizes(self) -> str:
        return ", ".join(f"{c.product} {c.trim[0]:g}×{c.trim[1]:g} mm" for c in self.canvases)


def _inches(product: str, w: float, h: float, bleed_px: float) -> Canvas:
    """A product sold in inches: its trim in mm and its canvas, the trim at 300 dpi and `bleed_px`
    on every side."""
    return Canvas(product, (round(w * INCH, 2), round(h * INCH, 2)),
                  (round(w * 300 + 2 * bleed_px), round(h * 300 + 2 * bleed_px)))


#: MakePlayingCards' templates (docs/DECKS.md, "Print services", gives the product pages): the
#: trim at 300 dpi and 36 px (3.05 mm) of bleed on every side, poker's 822×1122 px; its sister
#: site PrinterStudio's templates are the same canvases for the sizes it sells.
MPC_CARDS = (
    _inches("poker", 2.5, 3.5, 36),  # 822×1122
    _inches("bridge", 2.25, 3.5, 36),  # 747×1122
    _inches("tarot", 2.75, 4.75, 36),  # 897×1497
    _inches("mini", 1.75, 2.5, 36),  # 597×822
    _inches("micro", 1.25, 1.75, 36),  # 447×597
    _inches("domino", 1.75, 3.5, 36),  # 597×1122
    _inches("business", 2.0, 3.5, 36),  # 672×1122
    _inches("square", 2.5, 2.5, 36),  # 822×822
    _inches("large square", 3.5, 3.5, 36),  # 1122×1122
    _inches("jumbo", 3.5, 5.0, 36),  # 1122×1572
)
PRINTERSTUDIO_CARDS = tuple(c for c in MPC_CARDS if c.product in (
    "poker", "bridge", "tarot", "mini", "square", "large square", "jumbo"))

PRESETS: dict[str, Preset] = {
    "mpc": Preset("mpc", "MakePlayingCards", MPC_CARDS),
    "printerstudio": Preset("printerstudio", "PrinterStudio", PRINTERSTUDIO_CARDS),
    # TGC asks for trim + 1/8 in on every side at 300 dpi (print-specs.md §2)
    "tgc": Preset("tgc", "The Game Crafter", (
        _inches("poker", 2.5, 3.5, 37.5),  # 825×1125
        _inches("bridge", 2.25, 3.5, 37.5),  # 750×1125
        _inches("mini", 1.75, 2.5, 37.5),  # 600×825
        _inches("tarot", 2.75, 4.75, 37.5),  # 900×1500
        _inches("square", 3.5, 3.5, 37.5),  # 1125×1125
        _inches("jumbo", 3.5, 5.5, 37.5),  # 1125×1725
    )),
}


def preset_bleed(preset: Preset, card: tuple[float, float]) -> float:
    """The bleed faces need so that the preset's canvas is covered, centred on the trim."""
    canvas = preset.canvas(card)
    if canvas is None:
        raise DeckError(f"preset {preset.name} has no canvas for {card[0]:g}×{card[1]:g} mm cards; "
                        f"{preset.service} takes {preset.sizes()}")
    return max((canvas[0] / preset.dpi * INCH - card[0]) / 2, (canvas[1] / preset.dpi * INCH - card[1]) / 2)
