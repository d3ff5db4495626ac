"""Tabletop Simulator: the grid arithmetic, the sheets and the saved object that points at them: decks
grouped by back design, a neutral back for cards printed without one, GUIDs."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image, ImageChops, ImageStat

import deckpress
from deckpress.builder.plan import Options
from deckpress.model import load_deck
from deckpress.outputs.tts import PAPER, PER_SHEET, cell_size, sheet_grid


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
    decks = {o["Nickname"]: o for o in saved["ObjectStates"] if o["Name"] == "DeckCustom"}
    tiles = [o for o in saved["ObjectStates"] if o["Name"] == "Custom_Tile"]
    counts = {c.name: c.card_count for c in deck.components}
    assert set(decks) == {"silver", "gold", "rules"}
    for name, obj in decks.items():
        assert len(obj["DeckIDs"]) == len(obj["ContainedObjects"]) == counts[name]
    # the two score boards, called by their names (they were both "Test Piece", their first words)
    assert [t["Nickname"] for t in tiles] == ["Score board A", "Score board B"]  # the pawns stand: next test
    assert Counter(o["Nickname"] for o in decks["silver"]["ContainedObjects"])["Front-Row Cornet"] == 2


def test_the_pawns_stand_as_figures_their_two_halves_without_feet(test_piece):
    """The pawns are fold-over standees (`standee: 11mm`): in TTS each is a custom figurine
    standing on a base, its front the strip's lower half and its back the upper half turned round,
    each 15 × 25 mm without the foot tab. They were flat tiles of the whole strip (issue 36)."""
    folder, saved = test_piece
    figures = [o for o in saved["ObjectStates"] if o["Name"] == "Figurine_Custom"]
    assert Counter(o["Nickname"] for o in figures) == {"SOPRANO": 2, "ALTO": 2, "TENOR": 2, "BASS": 2}
    voice = {"SOPRANO": (203, 2, 34), "ALTO": (254, 219, 76), "TENOR": (30, 123, 58), "BASS": (36, 86, 192)}
    for figure in figures:
        sides = [figure["CustomImage"][key] for key in ("ImageURL", "ImageSecondaryURL")]
        assert sides[0] != sides[1] and all(url.startswith("https://example.org/tp/") for url in sides)
        for url in sides:
            picture = Image.open(folder / url.rsplit("/", 1)[1]).convert("RGB")
            assert abs(picture.width / picture.height - 15 / 25) < 0.01
            # upright, in the voice's colour to its foot: the letter's disc near the top, no pale tab
            w, h = picture.size
            mm = w / 15
            assert picture.getpixel((round(3.2 * mm), round(8.5 * mm))) == (255, 255, 255)  # the white disc, 8.5 mm down
            bottom = picture.getpixel((2, h - 4))
            assert max(abs(a - b) for a, b in zip(bottom, voice[figure["Nickname"]])) < 12, bottom


def test_card_ids_point_at_real_cells_and_images(test_piece):
    folder, saved = test_piece
    for obj in saved["ObjectStates"]:
        if obj["Name"] != "DeckCustom":
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


@pytest.fixture(scope="module")
def metronome(shared_build):
    out, _ = shared_build("tts-metronome", "metronome",
                          options=Options(formats=("tts",), tts_base_url="https://example.org/m/"))
    folder = out / "metronome" / "tts"
    return folder, json.loads((folder / "metronome.json").read_text(encoding="utf-8"))


def _picture(folder, url):
    return Image.open(folder / unquote(url.rsplit("/", 1)[1])).convert("RGB")


def _differs(a, b) -> float:
    return max(ImageStat.Stat(ImageChops.difference(a, b)).mean)


def test_components_that_share_a_back_are_one_deck_and_backless_cards_another(metronome):
    _, saved = metronome
    deck = load_deck("metronome")
    decks = {o["Nickname"]: o for o in saved["ObjectStates"]}
    # not nine decks to merge by hand; the cards printed without a back get a neutral back per component,
    # so face down the staff cards and the rule cards are told apart
    assert list(decks) == ["metronome", "staff", "rules"]
    assert {o["Name"] for o in decks.values()} == {"DeckCustom"}
    backed = [c for c in deck.components if c.back is not None]
    backless = [c for c in deck.components if c.back is None]
    assert {c.name for c in backless} == {"staff", "rules"}
    assert len(decks["metronome"]["ContainedObjects"]) == sum(c.card_count for c in backed) == 63  # the rules' deck
    for component in backless:
        assert len(decks[component.name]["ContainedObjects"]) == component.card_count
    names = Counter(card["Nickname"] for card in decks["metronome"]["ContainedObjects"])
    assert sum(names.values()) == len(decks["metronome"]["DeckIDs"])
    # one back per deck, on every sheet of it; no two decks with the same back
    backs = [{sheet["BackURL"] for sheet in o["CustomDeck"].values()} for o in decks.values()]
    assert all(len(b) == 1 for b in backs) and len(set().union(*backs)) == len(decks)
    assert backs[1:] == [{"https://example.org/m/neutral-back-staff.png"}, {"https://example.org/m/neutral-back-rules.png"}]


@pytest.mark.parametrize("ref, lang, expected", [
    ("steps", None, {"Steps": 54, "rules": 9}),
    ("kanon", "de", {"Kanon": 56, "kanons": 7, "regeln": 12}),  # noten, spezial, pausen share a back; kanons not
    ("circle-of-5", None, {"cue-cards": 70, "rules": 10}),
])
def test_every_bundled_deck_gives_one_tts_deck_per_back(tmp_path, ref, lang, expected):
    deckpress.build(ref, tmp_path, formats="tts", lang=lang)
    saved = json.loads((tmp_path / ref / "tts" / f"{ref}.json").read_text(encoding="utf-8"))
    decks = {o["Nickname"]: len(o["ContainedObjects"]) for o in saved["ObjectStates"] if o["Name"] == "DeckCustom"}
    assert decks == expected
    backs = [next(iter(o["CustomDeck"].values()))["BackURL"] for o in saved["ObjectStates"] if "CustomDeck" in o]
    assert len(set(backs)) == len(backs)


def test_card_ids_show_their_own_front_and_the_hidden_cell_the_decks_back(metronome):
    folder, saved = metronome
    for obj in saved["ObjectStates"]:
        sheets = {sheet_id: _picture(folder, sheet["FaceURL"]) for sheet_id, sheet in obj["CustomDeck"].items()}
        back = _picture(folder, next(iter(obj["CustomDeck"].values()))["BackURL"])
        assert back.size == (409, 573)
        cells = {}
        for card in obj["ContainedObjects"]:
            sheet_id, index = str(card["CardID"] // 100), card["CardID"] % 100
            sheet = obj["CustomDeck"][sheet_id]
            cols, rows = sheet["NumWidth"], sheet["NumHeight"]
            assert index < cols * rows - 1 and card["CustomDeck"] == {sheet_id: sheet}
            x, y = index % cols * 409, index // cols * 573
            cells.setdefault(card["CardID"], (card["Nickname"], sheets[sheet_id].crop((x, y, x + 409, y + 573))))
            assert cells[card["CardID"]][0] == card["Nickname"]  # copies of a card share its cell
        pictures = [picture for _, picture in cells.values()]
        for i, picture in enumerate(pictures):
            assert _differs(picture, back) > 5, "a card's cell is its front, not the back"
            assert all(_differs(picture, other) > 0 for other in pictures[i + 1:]), "one cell per distinct front"
        for sheet_id, sheet in obj["CustomDeck"].items():  # the 70th slot: the back, for hidden cards
            cols, rows = sheet["NumWidth"], sheet["NumHeight"]
            last = sheets[sheet_id].crop(((cols - 1) * 409, (rows - 1) * 573, cols * 409, rows * 573))
            assert _differs(last, back) == 0


def test_the_neutral_back_is_plain_paper_with_the_title_and_no_playing_card_back(metronome):
    folder, _ = metronome
    neutral = Image.open(folder / "neutral-back-rules.png").convert("RGB")
    real = Image.open(folder / "back.png").convert("RGB")
    assert neutral.size == real.size == (409, 573)
    assert _differs(neutral, real) > 40
    paper = tuple(round(c * 255) for c in (PAPER.r, PAPER.g, PAPER.b))
    colours = {colour: n for n, colour in neutral.getcolors(409 * 573)}
    assert max(colours, key=colours.get) == paper and colours[paper] > 0.85 * 409 * 573  # mostly bare paper
    assert all(max(c) - min(c) < 20 for c in colours), "greys and paper only: no suit or instrument colour"
    middle = neutral.crop((60, 230, 349, 343)).convert("L")  # the title, between its two rules
    edge = neutral.crop((60, 60, 349, 150)).convert("L")  # inside the frame, above them: nothing
    assert middle.getextrema()[0] < 180 and edge.getextrema()[0] > 225


def test_every_object_has_a_guid_unique_in_the_save_and_the_same_on_every_build(tmp_path, metronome):
    folder, saved = metronome
    guids = [o["GUID"] for o in saved["ObjectStates"]] + \
        [card["GUID"] for o in saved["ObjectStates"] for card in o.get("ContainedObjects", ())]
    assert len(guids) == len(saved["ObjectStates"]) + 63 + 18
    assert all(re.fullmatch(r"[0-9a-f]{6}", g) for g in guids) and len(set(guids)) == len(guids)
    deckpress.build("metronome", tmp_path, formats="tts", tts_base_url="https://example.org/m/")
    for path in sorted(folder.iterdir()):
        assert (tmp_path / "metronome" / "tts" / path.name).read_bytes() == path.read_bytes(), path.name


def test_tiles_and_single_cards_have_guids_too(test_piece):
    _, saved = test_piece
    guids = [o["GUID"] for o in saved["ObjectStates"]]
    assert len(guids) == len(set(guids)) == 3 + 10
    assert all(re.fullmatch(r"[0-9a-f]{6}", g) for g in guids)


def test_a_deck_without_backs_gets_a_neutral_deck_per_component(tmp_path, make_deck):
    folder = make_deck("""
        id: plain
        title: Plain
        designer: Test
        license: CC0-1.0
        layouts: [plain]
        components:
          - name: facts
            front: front
            cards: [{title: One}, {title: Two}]
          - name: more-facts
            front: front
            cards: [{title: Three}]
    """, {"plain": """
        templates:
          front:
            fields: {title: ~}
            elements:
              - text: {text: "{title}", x: 5mm, y: 5mm, w: 100% - 10mm, h: 20mm, size: 12pt}
    """})
    deckpress.build(folder, tmp_path, formats="tts")
    saved = json.loads((tmp_path / "plain" / "tts" / "plain.json").read_text(encoding="utf-8"))
    objects = {o["Nickname"]: o for o in saved["ObjectStates"]}  # a neutral back, so a deck, per component
    assert {name: o["Name"] for name, o in objects.items()} == {"facts": "DeckCustom", "Three": "Card"}  # a lone card
    assert next(iter(objects["facts"]["CustomDeck"].values()))["BackURL"].endswith("/neutral-back-facts.png")
    assert next(iter(objects["Three"]["CustomDeck"].values()))["BackURL"].endswith("/neutral-back-more-facts.png")
    for name in ("facts", "more-facts"):
        assert (tmp_path / "plain" / "tts" / f"neutral-back-{name}.png").exists()


def _cards(saved):
    return [card for o in saved["ObjectStates"] for card in o.get("ContainedObjects", [o]) if card["Name"] == "Card"]


def test_every_card_carries_its_text_and_its_source_row(metronome):
    _, saved = metronome
    deck = load_deck("metronome")
    cards = {(Path(c.file).resolve(), c.line): c for component in deck.components for c in component.cards}
    seen = set()
    for card in _cards(saved):
        first, *fields = card["GMNotes"].split("\n")
        file, line = first.rsplit(":", 1)
        source = cards[((deck.folder / file).resolve(), int(line))]  # the row it came from, relative to the deck
        seen.add((Path(source.file).resolve(), source.line))
        for row in fields:  # the row as written: its own fields, none of the defaults
            key, value = row.split(": ", 1)
            assert key in source.fields and key not in source.defaults
        assert card["Description"] and "**" not in card["Description"]  # plain text, no markup
        if source.name:
            assert card["Nickname"] == source.name
    assert seen == set(cards)


def test_descriptions_read_what_the_card_says(metronome):
    _, saved = metronome
    rules = next(o for o in saved["ObjectStates"] if o["Nickname"] == "rules")["ContainedObjects"]
    deck = load_deck("metronome")
    first = next(c for c in deck.components if c.name == "rules").cards[0]
    described = next(c for c in rules if c["GMNotes"].startswith(f"deck.yaml:{first.line}\n"))
    lines = described["Description"].split("\n")
    assert lines[0] == first.fields["title"]  # the title first, as the layout draws it, then the body
    assert len(lines) == len(set(lines))  # each text once


def test_kanon_in_english_names_everything_in_english(tmp_path):
    deckpress.build("kanon", tmp_path, formats="tts", lang="en")
    saved = json.loads((tmp_path / "kanon" / "tts-en" / "kanon-en.json").read_text(encoding="utf-8"))
    assert [o["Nickname"] for o in saved["ObjectStates"]] == ["Canon", "canons", "rules"]
    nicknames = {card["Nickname"] for card in _cards(saved)}
    assert {"Rest", "Reverse", "Swap hands", "Canon at the unison", "About this game"} <= nicknames
    german = {"Pause", "Richtungswechsel", "Aussetzen", "Karten tauschen", "Über dieses Spiel", "Kanon im Einklang"}
    assert not nicknames & german
    descriptions = "\n".join(card["Description"] for card in _cards(saved))
    assert "Goes into the canon row" in descriptions and "Kommt in die Kanon-Reihe" not in descriptions
    rules_back = Image.open(tmp_path / "kanon" / "tts-en" / "neutral-back-regeln.png")  # files keep the deck's ids
    assert rules_back.size == (409, 573)


def test_nameless_cards_are_called_by_what_they_show(tmp_path):
    deckpress.build("circle-of-5", tmp_path, formats="tts")
    saved = json.loads((tmp_path / "circle-of-5" / "tts" / "circle-of-5.json").read_text(encoding="utf-8"))
    cues = next(o for o in saved["ObjectStates"] if o["Nickname"] == "cue-cards")["ContainedObjects"]
    deck = load_deck("circle-of-5")
    by_line = {c.line: c for c in deck.components[0].cards}
    for card in cues:  # not "cue-cards 1": the cue the card prints first
        source = by_line[int(card["GMNotes"].split("\n")[0].rsplit(":", 1)[1])]
        assert card["Nickname"] == source.fields["cue"]
        assert source.fields["mood"] in card["Description"].split("\n")
    board = next(o for o in saved["ObjectStates"] if o["Name"] == "Custom_Tile")
    assert board["Nickname"] == "board"  # a lone piece: its component
