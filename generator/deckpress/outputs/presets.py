"""Print services' card files (`--preset`): each service's exact pixel canvas per card size.

Apart from `cardimages`, which draws on those canvases, so that the command line can list the
presets without loading a drawing backend.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import DeckError

INCH = 25.4


@dataclass(frozen=True)
class Preset:
    """A print service's card files: an exact pixel canvas per card size, at 300 dpi."""

    name: str
    service: str
    canvases: tuple[tuple[tuple[float, float], tuple[int, int]], ...]  # trim (mm) -> canvas (px)
    safe: float = INCH / 8  # keep text this far inside the trim: the cut may wander
    dpi: int = 300

    def canvas(self, trim: tuple[float, float]) -> tuple[int, int] | None:
        """The canvas for a card of this trim (either way up), or None if the service has none."""
        w, h = trim
        for (tw, th), (pw, ph) in self.canvases:
            if abs(w - tw) <= 1.0 and abs(h - th) <= 1.0:
                return (pw, ph)
            if abs(w - th) <= 1.0 and abs(h - tw) <= 1.0:
                return (ph, pw)
        return None

    def sizes(self) -> str:
        return ", ".join(f"{w:g}×{h:g} mm" for (w, h), _ in self.canvases)


# print-specs.md §2: MPC's 822×1122 px is its file for 63×88 mm cards (and 2.5×3.5 in);
# TGC asks for trim + 1/8 in on every side at 300 dpi.
PRESETS: dict[str, Preset] = {
    "mpc": Preset("mpc", "MakePlayingCards", (((63.5, 88.9), (822, 1122)),)),
    "tgc": Preset("tgc", "The Game Crafter", (
        ((63.5, 88.9), (825, 1125)),  # poker
        ((57.15, 88.9), (750, 1125)),  # bridge
        ((44.45, 63.5), (600, 825)),  # mini
        ((69.85, 120.65), (900, 1500)),  # tarot
        ((88.9, 88.9), (1125, 1125)),  # square 3.5 in
        ((88.9, 139.7), (1125, 1725)),  # jumbo
    )),
}


def preset_bleed(preset: Preset, card: tuple[float, float]) -> float:
    """The bleed faces need so that the preset's canvas is covered, centred on the trim."""
    canvas = preset.canvas(card)
    if canvas is None:
        raise DeckError(f"preset {preset.name} has no canvas for {card[0]:g}×{card[1]:g} mm cards; "
                        f"{preset.service} takes {preset.sizes()}")
    return max((canvas[0] / preset.dpi * INCH - card[0]) / 2, (canvas[1] / preset.dpi * INCH - card[1]) / 2)
