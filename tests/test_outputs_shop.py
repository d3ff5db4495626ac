"""Shop pictures' common part: the request's words, which cards are shown, and the written PNG."""

from __future__ import annotations

import pytest

from deckpress.builder.deckbuild import build_deck
from deckpress.builder.faces import compose_faces
from deckpress.builder.plan import Options
from deckpress.errors import DeckError, Warnings
from deckpress.model import load_deck
from deckpress.model.selection import Only
from deckpress.outputs.shop import SHOP_BACKGROUND, SHOP_CARDS, SHOP_SIZE, shop_picture, shown_fronts


def test_the_request_reads_size_background_and_cards():
    default = shop_picture()
    assert f"{default.size[0]}x{default.size[1]}" == SHOP_SIZE and default.cards == SHOP_CARDS
    assert "#%02x%02x%02x" % default.background == SHOP_BACKGROUND
    asked = shop_picture("800 x 500", "#fff", 3)
    assert asked.size == (800, 500) and asked.background == (255, 255, 255) and asked.cards == 3
    assert shop_picture((640, 400), "Transparent").background is None


@pytest.mark.parametrize("size, background, cards, said", [
    ("800", None, None, "--shop-size: expected WIDTHxHEIGHT in pixels, like 1600x1000, not '800'"),
    ("80x50", None, None, "--shop-size: each side from 200 to 8000 px, not 80x50"),
    (None, "red", None, "--shop-background: expected a colour like #f3f1ec, or transparent, not 'red'"),
    (None, None, 0, "--shop-cards: from 1 to 20 cards, not 0"),
])
def test_a_bad_request_is_one_line_saying_what_was_expected(size, background, cards, said):
    with pytest.raises(DeckError) as caught:
        shop_picture(size, background, cards)
    assert str(caught.value) == said


def test_the_cards_shown_are_the_first_distinct_fronts_of_the_card_size():
    deck = load_deck("metronome")
    entries = compose_faces(deck, Warnings()).entries
    card = (deck.size.width, deck.size.height)
    fronts = shown_fronts(entries, card, 5)
    assert len(fronts) == 5 == len(set(fronts))
    assert fronts == [f for f in dict.fromkeys(e.front for e in entries)
                      if (f.width, f.height) == card][:5]
    assert all((f.width, f.height) == card for f in fronts)  # no rules card or board in a hand
    # no card of the deck's size: whatever pieces there are
    boards = [e for e in entries if e.size != card]
    if boards:
        assert shown_fronts(boards, card, 2) == list(dict.fromkeys(e.front for e in boards))[:2]


def test_only_chooses_the_cards_and_the_pictures_are_the_same_bytes_each_time(tmp_path):
    options = Options(formats=("hand", "showcase"), shop=shop_picture("400x300", cards=2),
                      only=(Only.parse("component=rests"),))
    first = build_deck("metronome", tmp_path / "a", options=options)
    second = build_deck("metronome", tmp_path / "b", options=options)
    names = [o.path.name for o in first.outputs]
    assert names == ["metronome-hand.png", "metronome-showcase.png"]
    for a, b in zip(first.outputs, second.outputs):
        assert a.path.read_bytes() == b.path.read_bytes()
    assert {e.component for e in compose_faces(first.deck, Warnings()).entries} == {"rests"}


def test_the_progress_bar_hears_of_each_picture_it_was_told_of(tmp_path):
    import deckpress

    planned, done = [], []
    deckpress.build("metronome", tmp_path, formats="hand,showcase", shop_size="300x200", shop_cards=2,
                    progress=done.append, on_plan=planned.append)
    assert sum(planned) == sum(done) == 2


def test_a_card_is_cut_to_its_rounded_corners_and_a_token_to_its_outline():
    from pathlib import Path

    from deckpress.outputs.shop import cut_out

    root = Path(__file__).resolve().parent.parent
    deck = load_deck(root / "docs" / "samples" / "harbour")
    coin = next(e.front for e in compose_faces(deck, Warnings()).entries if e.front.outline)
    card = next(e.front for e in compose_faces(load_deck("metronome"), Warnings()).entries)
    pad = 2
    for face, width in ((coin, 200), (card, 200)):
        picture = cut_out([face], [width], pad)[0].convert("RGBA")
        alpha = picture.getchannel("A")
        w, h = picture.width - 2 * pad, picture.height - 2 * pad
        assert alpha.getpixel((pad + w // 2, pad + h // 2)) == 255
        assert alpha.getpixel((0, 0)) == 0 and alpha.getpixel((pad, pad)) < 40  # round the trim's corner
        assert alpha.getpixel((pad + w // 2, pad + 1)) > 200  # the middle of the top edge is there
        # a coin's round edge reaches the middle of its square's sides, not the square's inner corners
        inset = (pad + round(w * 0.1), pad + round(h * 0.1))
        assert (alpha.getpixel(inset) == 0) == bool(face.outline)
