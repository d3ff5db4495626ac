"""Colours: hex and named colours, tints, and their grey equivalents; opacities.

Three kinds of paint reach the backends:
``RGB`` for the colour build, ``Gray`` for low-ink (drawn as K-only CMYK, so no RGB is left),
and ``CMYK`` for print services. All are immutable and hashable, so faces that use them can
be compared and deduplicated. Colours are solid: transparency is a property of what is drawn
(`face.Group.opacity`, SVG art's own), not of a paint.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class RGB:
    """A colour for screens and the colour build, each channel 0 … 1."""

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
    """Process-colour inks for print services, each 0 … 1 (1 = 100 %)."""

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


PICTURE_SOLID = 0.85  #: a lightened picture prints nothing darker than this (as ink.SOLID for shapes)


def paled(darkness: float, lighten: float) -> float:
    """The darkness (0 white, 1 black) a picture's grey of `darkness` prints at when the picture
    is lightened by `lighten` (0 as is, 1 white): pale tones go most of that way to white, dark
    ones much less, so a drawing's dark outlines stay dark while its fills pale. Taken evenly,
    as before, Test Piece's instrument outlines printed at 34 % grey in low-ink, hardly darker
    than the pale brass they outline; now 71 %. With no `lighten`, the grey as it is."""
    if not lighten:
        return darkness
    return min(darkness, PICTURE_SOLID) * (1 - lighten * math.sqrt(max(0.0, 1 - darkness)))


INK_LIMIT = 2.0  #: most ink (C + M + Y + K, 1 = 100 %) `to_cmyk` puts down; OneBookShelf refuses over 2.4


def to_cmyk(color: Color) -> CMYK:
    """The process colour a print shop gets for `color`: greys in black ink only, other colours
    with full grey component replacement and at most INK_LIMIT of ink in all.

    GCR takes as much black as the colour holds (K = 1 - max(r, g, b)) and makes up the rest with
    C, M and Y, at most two of them: pure colours need 200 % at most, greys need K alone, and a
    naive viewer (r = (1 - c)(1 - k)) shows exactly the RGB colour back. Dark saturated colours
    still need up to 300 % (dark red: K 50 %, M and Y 100 %), so their C, M and Y are scaled down
    until the total is INK_LIMIT; that lightens them slightly where the eye hardly tells.

    Why not an ICC profile: Pillow bundles none for CMYK (ImageCms creates only sRGB, LAB and XYZ),
    so the result would depend on what the machine has installed, and the usual press profiles
    use rich black (C72 M67 Y67 K88 for RGB black with Ghostscript's defaults, 294 % of ink). This
    formula gives the same numbers everywhere; shops with a press profile re-separate anyway.
    """
    if isinstance(color, CMYK):
        return color
    if isinstance(color, Gray):
        return CMYK(0.0, 0.0, 0.0, round(1 - color.level, 4))
    top = max(color.r, color.g, color.b)
    if top <= 0:
        return CMYK(0.0, 0.0, 0.0, 1.0)
    k = 1 - top
    cmy = [(top - v) / top for v in (color.r, color.g, color.b)]  # = (1 - v - k) / (1 - k)
    if k + sum(cmy) > INK_LIMIT:
        cmy = [v * (INK_LIMIT - k) / sum(cmy) for v in cmy]
    return CMYK(*(round(float(v), 4) for v in (*cmy, k)))

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
    if text is None:  # `color:` with nothing after it, or with `#c8283c` unquoted (a YAML comment)
        raise ValueError("no colour given")
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


def parse_opacity(value: object, clamp: bool = False) -> float:
    """An opacity from 0 (invisible) to 1 (solid): a number, or a percentage like ``40%``.

    Out of range it is an error, or with `clamp` the nearest end, as browsers read SVG.
    Raises ValueError naming what was expected.
    """
    expected = f"expected an opacity from 0 to 1 or a percentage like 40%, not {value!r}"
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError(expected)
    text = str(value).strip()
    try:
        number = float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        raise ValueError(expected) from None
    if not math.isfinite(number) or not (clamp or 0 <= number <= 1):
        raise ValueError(expected)
    return min(max(number, 0.0), 1.0)
