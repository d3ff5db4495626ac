"""The hand: a fan of the deck's cards, each where the fan puts it, as big as the picture allows."""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image

from deckpress.builder.deckbuild import build_deck
from deckpress.builder.faces import compose_faces
from deckpress.builder.plan import Options
from deckpress.errors import Warnings
from deckpress.model.selection import Only
from deckpress.outputs.hand import PAD, SPREAD, STEP, fan_angles, fan_layout
from deckpress.outputs.shop import cut_out, shop_picture, shown_fronts


def test_the_fan_is_symmetric_and_never_wider_than_its_spread():
    assert fan_angles(1) == [0.0]
    assert fan_angles(5) == [-2 * STEP, -STEP, 0.0, STEP, 2 * STEP]
    wide = fan_angles(20)
    assert wide[0] == -wide[-1] == -SPREAD / 2
    assert all(b > a for a, b in zip(wide, wide[1:]))


def _distance(a, b) -> float:
    return math.dist(a[:3], b[:3])


def test_each_card_of_the_fan_is_the_decks_own_where_the_fan_puts_it(tmp_path):
    size = (1200, 800)
    options = Options(formats=("hand",), shop=shop_picture(f"{size[0]}x{size[1]}", "#ffffff"))
    result = build_deck("kanon", tmp_path, options=options)
    image = Image.open(result.outputs[0].path)
    assert image.size == size and image.mode == "RGB"
    deck = result.deck
    faces = shown_fronts(compose_faces(deck, Warnings()).entries, (deck.size.width, deck.size.height), 5)
    aspect = faces[0].width / faces[0].height
    height, centres = fan_layout(len(faces), aspect, size)
    width = round(height * aspect)
    cards = [card.convert("RGBA") for card in cut_out(faces, [width] * len(faces), PAD)]
    seen = []
    for card, centre, angle in zip(cards, centres, fan_angles(len(faces))):
        # the card's most colourful pixel in its left strip, halfway down, which the next card leaves bare
        y = card.height // 2
        x = max(range(PAD, PAD + width // 6), key=lambda x: max(card.getpixel((x, y))[:3]) - min(card.getpixel((x, y))[:3]))
        own = card.getpixel((x, y))
        dx, dy = x - card.width / 2, y - card.height / 2
        c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        at = (round(centre[0] + c * dx - s * dy), round(centre[1] + s * dx + c * dy))
        # turned, a thin frame's pixel lands between pixels: its most colourful neighbour is it
        shown = max((image.getpixel((at[0] + i, at[1] + j)) for i in range(-2, 3) for j in range(-2, 3)),
                    key=lambda p: max(p) - min(p))
        assert _distance(shown, own) < 40, (angle, shown, own)
        seen.append(shown)
    # kanon's notes are each their own colour: five cards, not one five times
    assert all(_distance(a, b) > 60 for i, a in enumerate(seen) for b in seen[i + 1:])
    # the fan fills the picture within its margin: background at the corners, cards reaching the middle
    assert image.getpixel((0, 0)) == image.getpixel((size[0] - 1, size[1] - 1)) == (255, 255, 255)
    top = next(y for y in range(size[1]) if image.getpixel((size[0] // 2, y)) != (255, 255, 255))
    assert 0.03 * size[1] < top < 0.2 * size[1]


def test_a_transparent_hand_is_clear_round_the_cards_and_opaque_on_them(tmp_path):
    options = Options(formats=("hand",), shop=shop_picture("500x400", "transparent", 2),
                      only=(Only.parse("component=rests"),))
    result = build_deck("metronome", tmp_path, options=options)
    image = Image.open(result.outputs[0].path)
    assert image.mode == "RGBA" and image.size == (500, 400)
    alpha = image.getchannel("A")
    assert [alpha.getpixel(p) for p in ((0, 0), (499, 0), (0, 399), (499, 399))] == [0, 0, 0, 0]
    height, centres = fan_layout(2, result.deck.size.width / result.deck.size.height, (500, 400))
    assert all(alpha.getpixel((round(x), round(y))) == 255 for x, y in centres)
    # the top card's soft shadow, just below the middle of its bottom edge: partly clear
    angle = math.radians(fan_angles(2)[1])
    below = (round(centres[1][0] - math.sin(angle) * 0.515 * height),
             round(centres[1][1] + math.cos(angle) * 0.515 * height))
    assert 10 < alpha.getpixel(below) < 160


def test_the_readme_hand_is_metronome_as_it_builds(tmp_path):
    """README's picture of a hand; a change to the deck, its layouts or the fan must bring a new
    one: `deckpress build metronome --format hand --shop-size 1200x750 --out /tmp/p`, then copy
    /tmp/p/metronome/metronome-hand.png into docs/images/."""
    root = Path(__file__).resolve().parent.parent
    assert "docs/images/metronome-hand.png" in (root / "README.md").read_text(encoding="utf-8")
    result = build_deck("metronome", tmp_path, options=Options(formats=("hand",), shop=shop_picture("1200x750")))
    assert result.outputs[0].path.read_bytes() == (root / "docs" / "images" / "metronome-hand.png").read_bytes()
