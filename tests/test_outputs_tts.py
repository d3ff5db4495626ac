"""Tabletop Simulator: the grid arithmetic, the sheets and the saved object that points at them."""

from __future__ import annotations

import json
from collections import Counter
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image, ImageChops, ImageStat

import deckpress
from deckpress.builder.plan import Options
from deckpress.model import load_deck
from deckpress.outputs.tts import PER_SHEET, cell_size, sheet_grid


def test_cells_fill_a_4096_wide_sheet_of_ten():
    assert cell_size(63.5, 88.9) == (409, 573)
    assert 10 * cell_size(63.5, 88.9)[0] <= 4096 and 7 * cell_size(63.5, 88.9)[1] <= 4096
    w, h = cell_size(70, 120)  # tarot: the 7 rows limit the height first
    assert 7 * h <= 4096 and 10 * w <= 4096 and abs(w / h - 70 / 120) < 0.01


@pytest.mark.parametrize("faces, grid", [(69, (10, 7)), (18, (10, 2)), (9, (10, 1)), (5, (6, 1)), (1, (2, 1)),
                                         (60, (10, 7)), (59, (10, 6))])
def test_a_sheet_keeps_its_last_cell_for_the_hidden_card(faces, grid):
    cols, rows = sheet_grid(faces)
    assert (cols, rows) == grid
    assert cols * rows - 1 >= faces  # the last cell is never a face


def test_no_sheet_holds_more_than_69():
    assert PER_SHEET == 69
    with pytest.raises(ValueError):
        sheet_grid(70)


@pytest.fixture(scope="module")
def test_piece(shared_build):
    out, _ = shared_build("tts", "test-piece",
                          options=Options(formats=("tts",), tts_base_url="https://example.org/tp/"))
    folder = out / "test-piece" / "tts"
    return folder, json.loads((folder / "test-piece.json").read_text(encoding="utf-8"))


def test_every_card_is_in_a_deck_and_every_piece_a_tile(test_piece):
    _, saved = test_piece
    deck = load_deck("test-piece")
    decks = {o["Nickname"]: o for o in saved["ObjectStates"] if o["Name"] == "Deck"}
    tiles = [o for o in saved["ObjectStates"] if o["Name"] == "Custom_Tile"]
    counts = {c.name: c.card_count for c in deck.components}
    assert set(decks) == {"silver", "gold", "rules"}
    for name, obj in decks.items():
        assert len(obj["DeckIDs"]) == len(obj["ContainedObjects"]) == counts[name]
    assert len(tiles) == 2 + 8  # two score boards, eight pawns
    assert len({t["CustomImage"]["ImageURL"] for t in tiles}) == 2 + 4  # four pawn designs
    assert Counter(o["Nickname"] for o in decks["silver"]["ContainedObjects"])["Front-Row Cornet"] == 2


def test_card_ids_point_at_real_cells_and_images(test_piece):
    folder, saved = test_piece
    for obj in saved["ObjectStates"]:
        if obj["Name"] != "Deck":
            continue
        for card in obj["ContainedObjects"]:
            sheet = obj["CustomDeck"][str(card["CardID"] // 100)]
            assert card["CardID"] % 100 < sheet["NumWidth"] * sheet["NumHeight"] - 1
            assert card["CustomDeck"] == {str(card["CardID"] // 100): sheet}
        for sheet in obj["CustomDeck"].values():
            for key in ("FaceURL", "BackURL"):
                assert sheet[key].startswith("https://example.org/tp/")
                image = Image.open(folder / unquote(urlparse(sheet[key]).path.rsplit("/", 1)[1]))
                assert image.mode == "RGB" and image.width <= 4096 and image.height <= 4096
            face = Image.open(folder / sheet["FaceURL"].rsplit("/", 1)[1])
            assert face.size == (sheet["NumWidth"] * 409, sheet["NumHeight"] * 573)


def test_the_hidden_cell_shows_the_back_and_silver_and_gold_differ(test_piece):
    folder, saved = test_piece
    backs = {}
    for obj in saved["ObjectStates"]:
        if obj["Nickname"] in ("silver", "gold"):
            sheet = next(iter(obj["CustomDeck"].values()))
            cols, rows = sheet["NumWidth"], sheet["NumHeight"]
            face = Image.open(folder / sheet["FaceURL"].rsplit("/", 1)[1])
            last = face.crop(((cols - 1) * 409, (rows - 1) * 573, cols * 409, rows * 573))
            back = Image.open(folder / sheet["BackURL"].rsplit("/", 1)[1]).convert("RGB")
            assert back.size == (409, 573)
            assert ImageStat.Stat(ImageChops.difference(last, back)).mean == [0.0, 0.0, 0.0]
            backs[obj["Nickname"]] = back
    assert max(ImageStat.Stat(ImageChops.difference(backs["silver"], backs["gold"])).mean) > 10


def test_local_paths_without_a_base_url(tmp_path):
    deckpress.build("kanon", tmp_path, formats="tts")
    saved = json.loads((tmp_path / "kanon" / "tts" / "kanon.json").read_text(encoding="utf-8"))
    urls = [s["FaceURL"] for o in saved["ObjectStates"] for s in o.get("CustomDeck", {}).values()]
    assert urls and all(u.startswith("file:///") for u in urls)
    for url in urls:
        assert (tmp_path / "kanon" / "tts" / unquote(url.rsplit("/", 1)[1])).exists()
