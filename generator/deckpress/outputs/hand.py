"""`--format hand`: the cards fanned out as a player holds them, for a shop page.

The cards turn about one point below them, as a hand holds a fan: each card's bottom centre is
`PIVOT` card heights below it, the first card turned left and the last right, `STEP` degrees apart
(at most `SPREAD` in all). Each card lies on the one before it, so every card shows its top-left
corner, where cards print their index; a soft shadow under each falls on the cards below it. The
whole fan is scaled to fill the picture inside its margin, and each card rasterised at the size
it is shown, so it is turned, never scaled.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from PIL import Image as PILImage
from PIL import ImageChops, ImageFilter

from ..face import Face
from .shop import ShopPicture, cut_out, edged, ground, save_shop_png

PIVOT = 0.55  # card heights from a card's bottom edge down to the point the fan turns about
STEP = 9.0  # degrees between neighbouring cards
SPREAD = 64.0  # degrees between the first card and the last, at most
MARGIN = 0.07  # of the picture's shorter side, round the fan
SHADOW_BLUR = 0.018  # shadow softness, in card heights
SHADOW_OFFSET = (0.008, 0.016)  # the light comes from the top left
SHADOW_OPACITY = 0.38
PAD = 2


def fan_angles(count: int) -> list[float]:
    """Each card's turn in degrees (clockwise positive), centred on upright."""
    if count == 1:
        return [0.0]
    step = min(STEP, SPREAD / (count - 1))
    return [(i - (count - 1) / 2) * step for i in range(count)]


def fan_centres(count: int) -> list[tuple[float, float]]:
    """Each card's centre in card heights, the pivot at (0, 0), y down."""
    return [(math.sin(math.radians(a)) * (PIVOT + 0.5), -math.cos(math.radians(a)) * (PIVOT + 0.5))
            for a in fan_angles(count)]


def _corners(centre: tuple[float, float], angle: float, w: float, h: float) -> list[tuple[float, float]]:
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    return [(centre[0] + c * x - s * y, centre[1] + s * x + c * y)
            for x, y in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2))]


def fan_layout(count: int, aspect: float, size: tuple[int, int]) -> tuple[float, list[tuple[float, float]]]:
    """The card height in px that fills `size` inside the margin (the shadow's reach included),
    and each card's centre in px."""
    angles, centres = fan_angles(count), fan_centres(count)
    points = [p for centre, a in zip(centres, angles) for p in _corners(centre, a, aspect, 1.0)]
    reach = SHADOW_BLUR * 2 + max(SHADOW_OFFSET)  # the shadow's room beyond the cards
    x0, x1 = min(p[0] for p in points) - reach, max(p[0] for p in points) + reach
    y0, y1 = min(p[1] for p in points) - reach, max(p[1] for p in points) + reach
    margin = MARGIN * min(size)
    scale = min((size[0] - 2 * margin) / (x1 - x0), (size[1] - 2 * margin) / (y1 - y0))
    ox = size[0] / 2 - scale * (x0 + x1) / 2
    oy = size[1] / 2 - scale * (y0 + y1) / 2
    return scale, [(ox + scale * x, oy + scale * y) for x, y in centres]


def write_hand(faces: Sequence[Face], path: Path, picture: ShopPicture) -> Path:
    """The fan of `faces` (first lowest, on the left) as a PNG of `picture.size`."""
    aspect = faces[0].width / faces[0].height
    height, centres = fan_layout(len(faces), aspect, picture.size)
    cards = [edged(card) for card in cut_out(faces, [round(height * f.width / f.height) for f in faces], PAD)]
    image = ground(picture)
    blur = SHADOW_BLUR * height
    shift = (round(SHADOW_OFFSET[0] * height), round(SHADOW_OFFSET[1] * height))
    for card, centre, angle in zip(cards, centres, fan_angles(len(faces))):
        layer = _turned(card, centre, angle, picture.size)
        alpha = layer.getchannel("A")
        shadow = ImageChops.offset(alpha, *shift).filter(ImageFilter.GaussianBlur(blur))
        shadow = shadow.point(lambda v: round(v * SHADOW_OPACITY))
        black = PILImage.new("RGBA", picture.size, (0, 0, 0, 0))
        black.putalpha(shadow)
        image.alpha_composite(black)
        image.alpha_composite(layer)
    return save_shop_png(image, path, picture.background is None)


def _turned(card: PILImage.Image, centre: tuple[float, float], angle: float,
            size: tuple[int, int]) -> PILImage.Image:
    """The card (RGBa, padded) turned `angle` degrees clockwise about its centre, put at `centre`
    on a transparent picture of `size`: RGBA."""
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    cx, cy = card.width / 2, card.height / 2
    # output pixel → card pixel (the inverse turn), as Image.transform wants it
    data = (c, s, cx - c * centre[0] - s * centre[1], -s, c, cy + s * centre[0] - c * centre[1])
    turned = card.transform(size, PILImage.Transform.AFFINE, data, PILImage.Resampling.BICUBIC)
    return turned.convert("RGBA")
