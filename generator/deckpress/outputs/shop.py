"""Pictures for a shop page (`--format hand`, `--format showcase`): what they are asked to be, and
what both are drawn with.

`ShopPicture` is the request: the picture's size in pixels, its background (a colour, or
transparent) and how many cards it shows. The cards are the first distinct fronts of the build's
card list, so `--only name=Mill,Stall` chooses them. Both pictures draw each card as it looks cut
out (its trim with its corner radius, or a shaped piece's outline, antialiased), rasterised by `backends.raster` at the size it
is shown, so nothing is scaled twice; and both are written with fixed PNG settings and no dates,
so the same deck gives the same bytes.

Squib's `hand` and `showcase` (squib.readthedocs.io, "dsl/hand" and "dsl/showcase") are the model:
a fan about a point below the cards, and cards in perspective with a fading reflection. The
defaults here are chosen to look right without options (see `hand` and `showcase`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..colors import parse_hex
from ..errors import DeckError

if TYPE_CHECKING:
    from PIL import Image as PILImage

    from ..face import Face
    from .sides import Entry

SHOP_SIZE = "1600x1000"  # px: a crowdfunding page's or BoardGameGeek's wide picture
SHOP_BACKGROUND = "#f3f1ec"  # a warm paper grey: white cards still stand out from it
SHOP_CARDS = 5
MAX_SIDE = 8000  # px: a shop page's largest picture is a few thousand pixels
MIN_SIDE = 200
MAX_CARDS = 20
SUPERSAMPLE = 4  # the corner mask is drawn this much bigger, then reduced: smooth corners


@dataclass(frozen=True)
class ShopPicture:
    """A shop picture as asked: size in px, background RGB (None: transparent), cards shown."""

    size: tuple[int, int]
    background: tuple[int, int, int] | None
    cards: int


def shop_picture(size: str | tuple[int, int] | None = None, background: str | None = None,
                 cards: int | None = None) -> ShopPicture:
    """The request from the command line's words: `size` "1600x1000" (px), `background` "#rrggbb",
    "#rgb" or "transparent", `cards` 1 … 20; None for each default (SHOP_SIZE, SHOP_BACKGROUND,
    SHOP_CARDS). A DeckError saying what was expected otherwise."""
    size = SHOP_SIZE if size is None else size
    background = SHOP_BACKGROUND if background is None else background
    cards = SHOP_CARDS if cards is None else cards
    if isinstance(size, str):
        m = re.fullmatch(r"\s*(\d+)\s*[x×]\s*(\d+)\s*(?:px)?\s*", size)
        if not m:
            raise DeckError(f"--shop-size: expected WIDTHxHEIGHT in pixels, like 1600x1000, not {size!r}")
        size = (int(m.group(1)), int(m.group(2)))
    if not all(MIN_SIDE <= side <= MAX_SIDE for side in size):
        raise DeckError(f"--shop-size: each side from {MIN_SIDE} to {MAX_SIDE} px, not {size[0]}x{size[1]}")
    if background.strip().lower() in ("transparent", "none"):
        ground = None
    else:
        rgb = parse_hex(background)
        if rgb is None:
            raise DeckError(f"--shop-background: expected a colour like #f3f1ec, or transparent, not {background!r}")
        ground = (round(rgb.r * 255), round(rgb.g * 255), round(rgb.b * 255))
    if not 1 <= cards <= MAX_CARDS:
        raise DeckError(f"--shop-cards: from 1 to {MAX_CARDS} cards, not {cards}")
    return ShopPicture((int(size[0]), int(size[1])), ground, cards)


def shown_fronts(entries: Sequence[Entry], card: tuple[float, float], count: int) -> list[Face]:
    """The fronts a shop picture shows: the first `count` distinct fronts of the deck's card size
    (boards and tokens would not sit in a hand), or of any size when the deck has no such card."""
    fronts = list(dict.fromkeys(e.front for e in entries))
    cards = [f for f in fronts if abs(f.width - card[0]) < 0.01 and abs(f.height - card[1]) < 0.01]
    return (cards or fronts)[:count]


def cut_out(faces: Sequence[Face], widths: Sequence[int], pad: int = 2) -> list[PILImage.Image]:
    """Each face as it looks cut out, a premultiplied RGBa picture `width` px wide: its trim with
    its corners rounded by the face's `radius` (the mask drawn SUPERSAMPLE times bigger and
    reduced, so the corners are smooth), or a shaped piece (a round token) along its outline
    (its outline filled black, rasterised as the face is); with `pad` transparent pixels round
    it so that a turned edge is interpolated like the inside, not cut stair-stepped."""
    from PIL import Image as PILImage
    from PIL import ImageChops, ImageDraw

    from ..backends.raster import RasterJob, render, trim_box
    from ..colors import RGB
    from ..face import Face as FaceType
    from ..face import Paint, Path as PathItem

    sizes = [(w, max(1, round(w * f.height / f.width))) for f, w in zip(faces, widths)]
    shaped = [i for i, f in enumerate(faces) if f.outline]
    silhouettes = [FaceType(faces[i].width, faces[i].height, 0.0,
                            (PathItem(faces[i].outline, Paint(fill=RGB(0, 0, 0))),)) for i in shaped]
    pictures = render([RasterJob(f, trim_box(f), s, dpi=72) for f, s in zip(faces, sizes)]
                      + [RasterJob(f, trim_box(f), sizes[i], dpi=72) for f, i in zip(silhouettes, shaped)])
    outlines = dict(zip(shaped, pictures[len(faces):]))
    out = []
    for i, (face, picture, (w, h)) in enumerate(zip(faces, pictures, sizes)):
        assert picture is not None
        if i in outlines:
            mask = ImageChops.invert(outlines[i].convert("L"))  # black inside the outline: opaque there
        else:
            k = SUPERSAMPLE
            mask = PILImage.new("L", (w * k, h * k), 0)
            radius = face.radius * w / face.width * k
            ImageDraw.Draw(mask).rounded_rectangle((0, 0, w * k - 1, h * k - 1), radius=radius, fill=255)
            mask = mask.resize((w, h), PILImage.Resampling.BOX)
        card = picture.convert("RGBA")
        card.putalpha(mask)
        padded = PILImage.new("RGBA", (w + 2 * pad, h + 2 * pad), (0, 0, 0, 0))
        padded.paste(card, (pad, pad))
        out.append(padded.convert("RGBa"))
    return out


def edged(card: PILImage.Image) -> PILImage.Image:
    """A hairline of darker paper along a card's edge (RGBa in, RGBa out): a white card on
    another white card is told apart by it, as a real card's edge catches the light."""
    from PIL import Image as PILImage
    from PIL import ImageChops, ImageFilter

    alpha = card.split()[3]
    rim = ImageChops.subtract(alpha, alpha.filter(ImageFilter.MinFilter(3))).point(lambda v: v * 45 // 255)
    rgba = card.convert("RGBA")
    rgba.alpha_composite(PILImage.merge("RGBA", (*PILImage.new("RGB", card.size, (40, 36, 30)).split(), rim)))
    rgba.putalpha(alpha)
    return rgba.convert("RGBa")


def ground(picture: ShopPicture) -> PILImage.Image:
    """The empty picture: the background colour, or transparent."""
    from PIL import Image as PILImage

    colour = (0, 0, 0, 0) if picture.background is None else (*picture.background, 255)
    return PILImage.new("RGBA", picture.size, colour)


def save_shop_png(image: PILImage.Image, path: Path, transparent: bool) -> Path:
    """Write the picture: RGB when it has a background (deckpress's own encoder), RGBA by Pillow
    when transparent; neither records a date, so the same pixels give the same bytes."""
    from ..backends.raster import save_png

    save_png(image if transparent else image.convert("RGB"), path, dpi=72)
    return path
