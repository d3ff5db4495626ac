"""The showcase: cards standing in perspective on a surface, a faint reflection below each."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from PIL import Image

from deckpress.builder.deckbuild import build_deck
from deckpress.builder.plan import Options
from deckpress.outputs.showcase import (REFLECTION, REFLECTION_DEPTH, perspective_coefficients, project,
                                        row_corners, scene_layout)
from deckpress.outputs.shop import shop_picture


def test_perspective_coefficients_take_each_corner_where_it_belongs():
    source = [(0, 0), (100, 0), (100, 140), (0, 140)]
    target = [(10, 20), (90, 35), (88, 150), (12, 170)]
    a, b, c, d, e, f, g, h = perspective_coefficients(source, target)
    for (x, y), (u, v) in zip(target, source):
        w = g * x + h * y + 1
        assert (a * x + b * y + c) / w == pytest.approx(u) and (d * x + e * y + f) / w == pytest.approx(v)


def test_the_row_stands_on_the_floor_and_recedes_to_the_right():
    cards = row_corners(4, 0.7)
    assert all(p[1] in (0.0, 1.0) for card in cards for p in card)
    nearest, farthest = cards[0], cards[-1]
    assert farthest[0][2] > nearest[0][2]  # farther off …
    height = lambda card: project(card[3])[1] - project(card[0])[1]
    assert height(farthest) < height(nearest)  # … so smaller
    # upright edges stay upright
    assert all(project(c[0])[0] == pytest.approx(project(c[3])[0]) for c in cards)


def test_a_showcase_has_its_cards_and_their_fainter_reflection_below_them(tmp_path):
    size = (900, 600)
    result = build_deck("kanon", tmp_path, options=Options(formats=("showcase",),
                                                          shop=shop_picture("900x600", "transparent", 3)))
    image = Image.open(result.outputs[0].path)
    assert image.mode == "RGBA" and image.size == size
    alpha = image.getchannel("A")
    assert [alpha.getpixel(p) for p in ((0, 0), (899, 0), (0, 599), (899, 599))] == [0, 0, 0, 0]
    aspect = result.deck.size.width / result.deck.size.height
    quads, reflections, heights = scene_layout(3, aspect, size)
    for quad, height in zip(quads, heights):
        tl, tr, br, bl = quad
        middle = ((tl[0] + br[0]) / 2, (tl[1] + br[1]) / 2)
        assert alpha.getpixel(tuple(round(v) for v in middle)) == 255
        assert alpha.getpixel((round(middle[0]), round(tl[1] - 0.05 * height))) == 0  # above: clear
        foot = ((bl[0] + br[0]) / 2, (bl[1] + br[1]) / 2)
        for depth in (0.06, 0.15):  # the card's picture near its foot, and its mirror image as far below
            above = image.getpixel((round(foot[0]), round(foot[1] - depth * height)))
            below = image.getpixel((round(foot[0]), round(foot[1] + depth * height)))
            fade = REFLECTION * (1 - depth / REFLECTION_DEPTH) ** 2
            assert above[3] == 255 and 0 < below[3] <= 255 * fade + 40  # fainter (shadow's dark included)
        beyond = round(foot[1] + (REFLECTION_DEPTH + 0.05) * height)  # faded out (or past the picture's edge)
        assert beyond >= size[1] or alpha.getpixel((round(foot[0]), beyond)) == 0
    # the reflection is the card's, upside down: down a line through the red frame of the nearest card
    # (c), each pixel below the foot has the colour of the one as far above it, ever fainter
    tl, tr, br, bl = quads[0]
    x, foot = round(bl[0] + (br[0] - bl[0]) * 0.05), bl[1] + (br[1] - bl[1]) * 0.05
    fading = []
    for depth in (0.08, 0.11, 0.14, 0.17):
        card = image.getpixel((x, round(foot - depth * heights[0])))
        mirror = image.getpixel((x, round(foot + depth * heights[0])))
        assert card[3] == 255 and max(card[:3]) - min(card[:3]) > 100  # red
        assert math.dist(card[:3], mirror[:3]) < 45
        fading.append(mirror[3])
    assert fading == sorted(fading, reverse=True) and fading[0] < 255 * REFLECTION


def test_an_opaque_showcase_lies_on_its_background(tmp_path):
    result = build_deck("circle-of-5", tmp_path, options=Options(formats=("showcase",),
                                                                shop=shop_picture("600x400", "#204060", 2)))
    image = Image.open(result.outputs[0].path)
    assert image.mode == "RGB" and image.size == (600, 400)
    assert image.getpixel((0, 0)) == (32, 64, 96)  # the background above the surface, unshaded
    bottom = image.getpixel((0, 399))
    assert all(b <= t for b, t in zip(bottom, (32, 64, 96))) and bottom != (32, 64, 96)  # the surface nearer


def test_the_readme_showcase_is_circle_of_5_as_it_builds(tmp_path):
    """README's picture of a showcase; a change to the deck, its layouts or the scene must bring a
    new one: `deckpress build circle-of-5 --format showcase --shop-size 1200x750 --out /tmp/p`, then
    copy /tmp/p/circle-of-5/circle-of-5-showcase.png into docs/images/."""
    root = Path(__file__).resolve().parent.parent
    assert "docs/images/circle-of-5-showcase.png" in (root / "README.md").read_text(encoding="utf-8")
    result = build_deck("circle-of-5", tmp_path, options=Options(formats=("showcase",),
                                                                shop=shop_picture("1200x750")))
    assert result.outputs[0].path.read_bytes() == \
        (root / "docs" / "images" / "circle-of-5-showcase.png").read_bytes()
