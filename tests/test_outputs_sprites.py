"""Sprite sheets for Screentop.gg and BGA Studio, read back: the JSON's sheets exist at the sizes it says,
its columns and rows are the sheet's grid (what Screentop is told), and each card's CSS class moves its
sheet so that the card's box shows its own front (cropped at the offset and compared with the face
drawn alone)."""

from __future__ import annotations

import json
import re

import pytest
from PIL import Image, ImageChops, ImageStat

from deckpress.backends.raster import RasterJob, render, trim_box
from deckpress.builder.faces import compose_faces
from deckpress.builder.plan import Options
from deckpress.errors import Warnings
from deckpress.model import load_deck
from deckpress.outputs.sprites import MAX_SIDE, sheet_grid

RULE = re.compile(r'^\.(?P<cls>[a-z0-9-]+) \{ background-image: url\("(?P<file>[^"]+)"\); '
                  r'background-position: (?P<x>0|-\d+px) (?P<y>0|-\d+px); \}$')
BOX = re.compile(r"^\.(?P<cls>[a-z0-9-]+) \{ width: (?P<w>\d+)px; height: (?P<h>\d+)px; background-repeat: no-repeat; \}$")


@pytest.fixture(scope="module")
def test_piece(shared_build):
    out, _ = shared_build("sprites-test-piece", "test-piece", options=Options(formats=("sprites",)))
    folder = out / "test-piece" / "sprites"
    return folder, json.loads((folder / "test-piece.json").read_text(encoding="utf-8")), \
        (folder / "test-piece.css").read_text(encoding="utf-8")


def _css(text):
    """Each class's rule as CSS gives it: the box's size, the sheet and the offset."""
    boxes, rules = {}, {}
    for line in text.splitlines()[1:]:
        if m := BOX.match(line):
            boxes[m["cls"]] = (int(m["w"]), int(m["h"]))
        else:
            m = RULE.match(line)
            assert m, line
            rules[m["cls"]] = (m["file"], -int(m["x"].removesuffix("px")), -int(m["y"].removesuffix("px")))
    return boxes, rules


def _differs(a, b) -> float:
    return max(ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB"))).mean)


@pytest.mark.parametrize("cells, cell, expected", [(28, (409, 573), (10, 3, 30)), (6, (409, 573), (6, 1, 6)),
                                                   (200, (409, 573), (10, 7, 70)), (1, (5000, 300), (1, 1, 1))])
def test_a_sheet_is_at_most_ten_wide_and_4096_px(cells, cell, expected):
    assert sheet_grid(cells, cell) == expected


def test_every_card_of_every_component_is_listed_once_with_its_copies(test_piece):
    _, described, _ = test_piece
    deck = load_deck("test-piece")
    assert [c["component"] for c in described["components"]] == [c.name for c in deck.components]
    for component, listed in zip(deck.components, described["components"]):
        assert [c["number"] for c in listed["cards"]] == [card.number for card in component.cards]
        assert sum(c["copies"] for c in listed["cards"]) == component.card_count * component.copies
        for sheet in listed["sheets"]:  # what Screentop is told: columns, rows, cells in reading order
            assert sheet["cells"] <= sheet["columns"] * sheet["rows"] and sheet["columns"] <= 10
            assert sheet["width"] <= MAX_SIDE and sheet["height"] <= MAX_SIDE


def test_each_css_class_shows_its_own_card(test_piece):
    """What a browser does with `.sprite-<component>.sprite-<component>-<nn>`: the box's size of the
    sheet, from the offset; compared with the card's face drawn alone at that size."""
    folder, described, css = test_piece
    boxes, rules = _css(css)
    entries = {(e.component, e.number): e for e in compose_faces(load_deck("test-piece"), Warnings()).entries}
    for listed in described["components"]:
        w, h = boxes[listed["class"]]
        assert [w, h] == listed["cell"]
        sheets = {s["file"]: Image.open(folder / s["file"]) for s in listed["sheets"]}
        for s in listed["sheets"]:
            assert sheets[s["file"]].size == (s["width"], s["height"]) == (s["columns"] * w, s["rows"] * h)
        crops, jobs = [], []
        for card in listed["cards"]:
            file, x, y = rules[card["class"]]
            assert (file, x, y) == (card["front"]["sheet"], card["front"]["x"], card["front"]["y"])
            crops.append(sheets[file].crop((x, y, x + w, y + h)))
            entry = entries[(listed["component"], card["number"])]
            assert card["name"] == entry.nickname and card["text"] == entry.text
            jobs.append(RasterJob(entry.front, trim_box(entry.front), (w, h)))
        for crop, alone in zip(crops, render(jobs)):
            assert _differs(crop, alone) < 0.5
        if listed["back"] is not None:  # a component's one back has its class, and is the back drawn alone
            file, x, y = rules[f"{listed['class']}-back"]
            back = entries[(listed["component"], 1)].back
            drawn = render([RasterJob(back, trim_box(back), (w, h))])[0]
            assert _differs(sheets[file].crop((x, y, x + w, y + h)), drawn) < 0.5


def test_a_poker_card_is_409_px_wide_and_other_pieces_keep_their_scale(test_piece):
    _, described, _ = test_piece
    deck = load_deck("test-piece")
    for component, listed in zip(deck.components, described["components"]):
        w, h = listed["cell"]
        assert abs(w / component.size.width - 409 / 63.5) < 0.05 or max(w, h) == MAX_SIDE
    silver = next(c for c in described["components"] if c["component"] == "silver")
    assert silver["cell"] == [409, 573]


def test_a_component_larger_than_a_sheet_is_split_into_sheets(tmp_path, make_deck):
    cards = ", ".join(f"{{title: Card {n}}}" for n in range(1, 76))
    folder = make_deck(f"""
        id: many
        title: Many
        designer: Test
        license: CC0-1.0
        layouts: [plain]
        components:
          - name: facts
            front: front
            cards: [{cards}]
    """, {"plain": """
        templates:
          front:
            fields: {title: ~}
            elements:
              - text: {text: "{title}", x: 5mm, y: 5mm, w: 100% - 10mm, h: 20mm, size: 12pt}
    """})
    import deckpress
    deckpress.build(folder, tmp_path, formats="sprites")
    described = json.loads((tmp_path / "many" / "sprites" / "many.json").read_text(encoding="utf-8"))
    sheets = described["components"][0]["sheets"]
    assert [s["cells"] for s in sheets] == [70, 5] and [s["file"] for s in sheets] == ["facts-1.png", "facts-2.png"]
    last = described["components"][0]["cards"][-1]
    assert last["front"]["sheet"] == "facts-2.png" and last["name"] == "Card 75"
    assert (last["front"]["x"], last["front"]["y"]) == (4 * 409, 0)
