"""`--format showcase`: the cards standing in a row on a glossy surface, seen in perspective,
with a faint reflection below them and a soft shadow where they touch it, for a shop page.

A small scene, in card heights: the cards stand side by side, `GAP` card widths apart, on the
floor (y = 0), in a row turned `YAW` degrees away from the viewer, its right end farther off. The
eye is `EYE` card heights above the floor, `DISTANCE` rows' lengths from the row's middle, and
looks straight ahead, so upright edges stay upright (two-point perspective, as product pictures
are taken). Each card is its own picture mapped onto its four projected corners
(`Image.transform` with PERSPECTIVE coefficients, solved from the corners); its reflection is
the card mirrored in the floor, faded from `REFLECTION` opacity where it touches the card to
nothing at `REFLECTION_DEPTH` of its height. The scene is scaled to fill the picture inside its
margin; each card is rasterised as tall as its nearest edge is shown, so it is only ever shrunk.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import numpy
from PIL import Image as PILImage
from PIL import ImageDraw, ImageFilter

from ..face import Face
from .shop import ShopPicture, cut_out, edged, save_shop_png

YAW = 34.0  # degrees the row is turned, its right end away from the viewer
GAP = 0.08  # between neighbouring cards, in card widths
EYE = 0.62  # card heights above the floor
DISTANCE = 1.25  # the row's length (at least 2 card heights) from the eye to the row's middle
MARGIN = 0.07  # of the picture's shorter side, round the scene
REFLECTION = 0.2  # opacity of the reflection where it meets its card
REFLECTION_DEPTH = 0.42  # of the card's height, where the reflection has faded out
SEEN_DEPTH = 0.25  # of the card's height, the reflection's part the scene is fitted to: fainter, it may
# reach into the margin (at 0.25 it is at 3 % of the card's colour)
CONTACT = 0.45  # opacity of the contact shadow along each card's foot
CONTACT_REACH = 0.012  # its half thickness, of the card's height, before it is blurred
FLOOR_SHADE = 0.07  # how much darker the surface gets towards the viewer (opaque background)
PAD = 2

Point = tuple[float, float]


def row_corners(count: int, aspect: float) -> list[list[tuple[float, float, float]]]:
    """Each card's corners in the scene (x right, y up, z away from the eye), top-left, top-right,
    bottom-right, bottom-left as seen from the front; card height 1, `aspect` width/height."""
    gap = GAP * aspect
    length = count * aspect + (count - 1) * gap
    depth = DISTANCE * max(length, 2.0)
    c, s = math.cos(math.radians(YAW)), math.sin(math.radians(YAW))
    cards = []
    for i in range(count):
        u0 = -length / 2 + i * (aspect + gap)
        u1 = u0 + aspect
        cards.append([(u * c, y, depth + u * s) for u, y in ((u0, 1.0), (u1, 1.0), (u1, 0.0), (u0, 0.0))])
    return cards


def project(point: tuple[float, float, float]) -> Point:
    """The eye's picture of a scene point, in units of the focal length, y down."""
    x, y, z = point
    return (x / z, (EYE - y) / z)


def mirrored(corners: Sequence[tuple[float, float, float]], depth: float = 1.0) -> list[tuple[float, float, float]]:
    """A card's reflection in the floor, `depth` of its height of it: its corners with y negated,
    the reflection's top (at the floor) first."""
    tl, tr, br, bl = corners
    return [bl, br, (br[0], -depth, br[2]), (bl[0], -depth, bl[2])]


def perspective_coefficients(source: Sequence[Point], target: Sequence[Point]) -> tuple[float, ...]:
    """The eight numbers `Image.transform(…, PERSPECTIVE, …)` takes to map the quadrilateral
    `source` (in the card's pixels) onto `target` (in the picture's): Pillow asks, for each
    output pixel (x, y), where to read, ((a x + b y + c) / (g x + h y + 1), (d x + e y + f) / (…))."""
    rows, values = [], []
    for (x, y), (u, v) in zip(target, source):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        values += [u, v]
    return tuple(float(k) for k in numpy.linalg.solve(numpy.array(rows, float), numpy.array(values, float)))


def scene_layout(count: int, aspect: float, size: tuple[int, int]
                 ) -> tuple[list[list[Point]], list[list[Point]], list[float]]:
    """Where the scene falls in a picture of `size` px: each card's corners (TL, TR, BR, BL), its
    reflection's (its foot's two corners, then the two REFLECTION_DEPTH below them) and the
    height in px of its nearer (taller) upright edge."""
    scene = row_corners(count, aspect)
    flat = [[project(p) for p in card] for card in scene]
    shown = [[project(p) for p in mirrored(card, REFLECTION_DEPTH)] for card in scene]
    seen = [[project(p) for p in mirrored(card, SEEN_DEPTH)] for card in scene]
    points = [p for quad in flat + seen for p in quad]
    x0, x1 = min(p[0] for p in points), max(p[0] for p in points)
    y0, y1 = min(p[1] for p in points), max(p[1] for p in points)
    margin = MARGIN * min(size)
    scale = min((size[0] - 2 * margin) / (x1 - x0), (size[1] - 2 * margin) / (y1 - y0))
    ox = size[0] / 2 - scale * (x0 + x1) / 2
    oy = size[1] / 2 - scale * (y0 + y1) / 2

    def px(quads: list[list[Point]]) -> list[list[Point]]:
        return [[(ox + scale * x, oy + scale * y) for x, y in quad] for quad in quads]

    cards, reflections = px(flat), px(shown)
    heights = [max(q[3][1] - q[0][1], q[2][1] - q[1][1]) for q in cards]
    return cards, reflections, heights


def write_showcase(faces: Sequence[Face], path: Path, picture: ShopPicture) -> Path:
    """The row of `faces` (first nearest) as a PNG of `picture.size`."""
    aspect = faces[0].width / faces[0].height
    quads, reflections, heights = scene_layout(len(faces), aspect, picture.size)
    cards = [edged(card) for card in cut_out(faces, [max(1, round(h * aspect)) for h in heights], PAD)]
    image = _surface(picture, [p for q in quads for p in q[2:]])
    # far cards first, so a nearer one is drawn over a farther one's reflection and shadow
    order = range(len(faces) - 1, -1, -1)
    for i in order:
        image.alpha_composite(_reflection(cards[i], reflections[i], picture.size))
    for i in order:
        if not faces[i].outline:  # a round or hex piece touches the surface at a point, not along its foot
            image.alpha_composite(_contact_shadow(quads[i], heights[i], picture.size))
    for i in order:
        image.alpha_composite(_mapped(cards[i], quads[i], picture.size))
    return save_shop_png(image, path, picture.background is None)


def _inner(card: PILImage.Image) -> list[Point]:
    """The card's own corners in its padded picture: TL, TR, BR, BL."""
    w, h = card.width - PAD, card.height - PAD
    return [(PAD, PAD), (w, PAD), (w, h), (PAD, h)]


def _mapped(card: PILImage.Image, quad: Sequence[Point], size: tuple[int, int]) -> PILImage.Image:
    """The card (RGBa) drawn onto `quad` of a transparent picture of `size`: RGBA."""
    data = perspective_coefficients(_inner(card), quad)
    return card.transform(size, PILImage.Transform.PERSPECTIVE, data, PILImage.Resampling.BICUBIC).convert("RGBA")


def _reflection(card: PILImage.Image, quad: Sequence[Point], size: tuple[int, int]) -> PILImage.Image:
    """The card upside down, faded from REFLECTION at its foot to nothing REFLECTION_DEPTH down,
    mapped onto `quad` (the floor's mirror image of its top part)."""
    flipped = card.transpose(PILImage.Transpose.FLIP_TOP_BOTTOM)
    h = card.height - 2 * PAD
    reach = REFLECTION_DEPTH * h
    # opacity falls off as a smooth curve, not a line: no visible edge where it ends
    fade = [round(255 * REFLECTION * max(0.0, 1 - max(0, y - PAD) / reach) ** 2) for y in range(card.height)]
    ramp = PILImage.new("L", (1, card.height))
    ramp.putdata(fade)
    faded = flipped.convert("RGBA")
    alpha = numpy.asarray(faded.split()[3], numpy.uint16) * numpy.asarray(ramp.resize(faded.size), numpy.uint16)
    faded.putalpha(PILImage.fromarray((alpha // 255).astype(numpy.uint8)))
    part = faded.crop((0, 0, card.width, PAD + math.ceil(reach) + PAD)).convert("RGBa")
    source = [(PAD, PAD), (card.width - PAD, PAD), (card.width - PAD, PAD + reach), (PAD, PAD + reach)]
    data = perspective_coefficients(source, quad)
    return part.transform(size, PILImage.Transform.PERSPECTIVE, data, PILImage.Resampling.BICUBIC).convert("RGBA")


def _contact_shadow(quad: Sequence[Point], height: float, size: tuple[int, int]) -> PILImage.Image:
    """A soft dark line along the card's foot, blurred onto the floor: where a card stands on a
    surface, light does not reach."""
    _, _, br, bl = quad
    reach = CONTACT_REACH * height
    mask = PILImage.new("L", size, 0)
    ImageDraw.Draw(mask).polygon([(bl[0], bl[1] - reach), (br[0], br[1] - reach), (br[0], br[1] + reach),
                                  (bl[0], bl[1] + reach)], fill=round(255 * CONTACT))
    mask = mask.filter(ImageFilter.GaussianBlur(max(1.0, 2 * reach)))
    shadow = PILImage.new("RGBA", size, (0, 0, 0, 0))
    shadow.putalpha(mask)
    return shadow


def _surface(picture: ShopPicture, feet: Sequence[Point]) -> PILImage.Image:
    """The empty picture: the background colour, a little darker from the cards' feet towards
    the viewer (a surface lit from behind), or transparent."""
    if picture.background is None:
        return PILImage.new("RGBA", picture.size, (0, 0, 0, 0))
    w, h = picture.size
    top = min(p[1] for p in feet)
    shade = [max(0.0, min(1.0, (y - top) / max(1.0, h - top))) * FLOOR_SHADE for y in range(h)]
    column = PILImage.new("RGBA", (1, h))
    column.putdata([(*(round(c * (1 - s)) for c in picture.background), 255) for s in shade])
    return column.resize(picture.size)
