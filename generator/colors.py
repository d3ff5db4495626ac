"""Colours: hex and named colours, tints, and their grey equivalents.

Three kinds of paint reach the backends:
``RGB`` for the colour build, ``Gray`` for low-ink (drawn as K-only CMYK, so no RGB is left),
and ``CMYK`` for print services. All are immutable and hashable, so faces that use them can
be compared and deduplicated.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class RGB:
    r: float
    g: float
    b: float

    @property
    def luma(self) -> float:
        """ITU-R 601 luma, 0 (black) … 1 (white): what a greyscale printer makes of it."""
        return 0.299 * self.r + 0.587 * self.g + 0.114 * self.b

    def tint(self, amount: float) -> RGB:
        """``amount`` of this colour on white paper (1 = unchanged, 0 = white)."""
        return RGB(*(1 - amount * (1 - c) for c in (self.r, self.g, self.b)))

    @property
    def hex(self) -> str:
        return "#" + "".join(f"{round(c * 255):02x}" for c in (self.r, self.g, self.b))


@dataclass(frozen=True)
class Gray:
    """A grey level, 0 = black, 1 = white; printed with black ink only."""

    level: float

    @property
    def luma(self) -> float:
        return self.level

    def tint(self, amount: float) -> Gray:
        return Gray(1 - amount * (1 - self.level))

    @property
    def hex(self) -> str:
        v = round(self.level * 255)
        return f"#{v:02x}{v:02x}{v:02x}"


@dataclass(frozen=True)
class CMYK:
    c: float
    m: float
    y: float
    k: float

    @property
    def luma(self) -> float:
        r, g, b = ((1 - x) * (1 - self.k) for x in (self.c, self.m, self.y))
        return 0.299 * r + 0.587 * g + 0.114 * b

    def tint(self, amount: float) -> CMYK:
        return CMYK(self.c * amount, self.m * amount, self.y * amount, self.k * amount)


Color = RGB | Gray | CMYK

BLACK = RGB(0.0, 0.0, 0.0)
WHITE = RGB(1.0, 1.0, 1.0)

#: Colour words every layout understands, besides its own `colors:` and the deck's palette.
NAMED: dict[str, RGB] = {
    "black": BLACK,
    "white": WHITE,
    "gray": RGB(0.5, 0.5, 0.5),
    "grey": RGB(0.5, 0.5, 0.5),
}

#: Words that mean "no paint".
NONE_WORDS = ("none", "transparent")

_HEX = re.compile(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})")
_TINT = re.compile(r"(.+?)\s+(\d+(?:\.\d+)?)%")


def parse_hex(text: str) -> RGB | None:
    m = _HEX.fullmatch(text.strip())
    if not m:
        return None
    digits = m.group(1)
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    return RGB(*(int(digits[i:i + 2], 16) / 255 for i in (0, 2, 4)))


def parse_color(text: object, names: Mapping[str, Color]) -> Color | None:
    """``#rrggbb``, ``#rgb``, a name from `names` or NAMED, ``none``, or any of these
    followed by a tint percentage (``red 20%`` = 20 % of red on white).

    Raises ValueError naming what was expected.
    """
    if not isinstance(text, str):
        raise ValueError(f"expected a colour like '#d7263d', a colour name or 'none', not {text!r}")
    word = text.strip()
    if word.lower() in NONE_WORDS:
        return None
    tint = _TINT.fullmatch(word)
    if tint:
        base = parse_color(tint.group(1), names)
        amount = float(tint.group(2)) / 100
        if base is None or not 0 <= amount <= 1:
            raise ValueError(f"'{word}': a tint is a colour and a percentage from 0% to 100%")
        return base.tint(amount)
    if word.startswith("#"):
        rgb = parse_hex(word)
        if rgb is None:
            raise ValueError(f"'{word}' is not a hex colour; expected #rgb or #rrggbb")
        return rgb
    if word in names:
        return names[word]
    if word.lower() in NAMED:
        return NAMED[word.lower()]
    raise ValueError(f"unknown colour '{word}'")
