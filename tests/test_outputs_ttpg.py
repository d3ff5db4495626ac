"""Tabletop Playground: the package read back as TTPG reads it (Plasticity Studios' published schema,
templates.ts `CardTemplate`): a manifest, card templates whose textures exist, cells that show the right
cards, every copy in `Indices`, names and metadata per index."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from PIL import Image, ImageChops, ImageStat

from deckpress.backends.raster import RasterJob, render, trim_box
from deckpress.builder.faces import compose_faces
from deckpress.builder.plan import Options
from deckpress.errors import Warnings
from deckpress.model import load_deck

#: what TTPG's schema requires of every template (object-template.ts) and of a card's (templates.ts)
REQUIRED = {"Type", "GUID", "Name", "Metadata", "CollisionType", "SurfaceType", "Models", "Tags",
            "FrontTexture", "BackIndex", "HiddenIndex", "Indices", "CardNames", "CardMetadata", "CardTags"}


def _package(shared_build, ref):
    out, _ = shared_build(f"ttpg-{ref}", ref, options=Options(formats=("ttpg",)))
    folder = out / ref / "ttpg" / ref
    templates = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted((folder / "Templates").iterdir())}
    return folder, templates


@pytest.fixture(scope="module")
def metronome(shared_build):
    return _package(shared_build, "metronome")


@pytest.fixture(scope="module")
def test_piece(shared_build):
    return _package(shared_build, "test-piece")


def _differs(a, b) -> float:
    return max(ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB"))).mean)


def test_the_manifest_names_the_package_with_a_stable_guid(metronome):
    folder, _ = metronome
    manifest = json.loads((folder / "Manifest.json").read_text(encoding="utf-8"))
    assert manifest["Name"] == "metronome" and manifest["Version"] == "1"
    assert re.fullmatch(r"[0-9A-F]{32}", manifest["GUID"])


def test_every_template_follows_the_card_schema(metronome, test_piece):
    guids = []
    for folder, templates in (metronome, test_piece):
        for template in templates.values():
            assert REQUIRED <= set(template), REQUIRED - set(template)
            assert template["Type"] == "Card" and template["CollisionType"] == "Regular"
            assert re.fullmatch(r"[0-9A-F]{32}", template["GUID"])
            guids.append(template["GUID"])
            assert 1 <= template["NumHorizontal"] <= 128 and 1 <= template["NumVertical"] <= 128
            assert template["BackIndex"] == -2 and template["HiddenIndex"] == -3  # a back file; hidden = back
            for key in ("FrontTexture", "BackTexture"):
                assert (folder / "Textures" / template[key]).is_file()
            cells = template["NumHorizontal"] * template["NumVertical"]
            assert template["Indices"] and all(0 <= i < cells for i in template["Indices"])
            assert set(template["CardNames"]) == set(template["CardMetadata"]) == {str(i) for i in template["Indices"]}
            assert all(name for name in template["CardNames"].values())
    assert len(set(guids)) == len(guids)


def test_stacks_are_grouped_by_back_with_every_copy(metronome):
    _, templates = metronome
    deck = load_deck("metronome")
    assert {t["Name"] for t in templates.values()} == {"metronome", "staff", "rules"}
    counts = {t["Name"]: len(t["Indices"]) for t in templates.values()}
    assert counts["metronome"] == sum(c.card_count for c in deck.components if c.back is not None) == 63
    assert counts["rules"] == next(c.card_count for c in deck.components if c.name == "rules")


def test_pieces_keep_their_size_in_centimetres(test_piece):
    _, templates = test_piece
    deck = load_deck("test-piece")
    for template in templates.values():
        meta = json.loads(next(iter(template["CardMetadata"].values())))
        component = next(c for c in deck.components if c.name == meta["component"])
        assert (template["Width"], template["Height"]) == (round(component.size.width / 10, 3),
                                                           round(component.size.height / 10, 3))
    pawns = next(t for t in templates.values() if t["Name"] == "pawns")
    assert len(pawns["Indices"]) == 8 and len(set(pawns["Indices"])) == 4  # eight pawns of four designs


def test_each_index_shows_its_own_card(metronome):
    """Crop every cell a template's indices name and compare it with the card's face drawn alone at the
    cell's size; the back texture is the group's back."""
    folder, templates = metronome
    deck = load_deck("metronome")
    faces = compose_faces(deck, Warnings())
    entries = {(e.component, e.number): e for e in faces.entries}
    for template in templates.values():
        sheet = Image.open(folder / "Textures" / template["FrontTexture"]).convert("RGB")
        cols, rows = template["NumHorizontal"], template["NumVertical"]
        w, h = sheet.width // cols, sheet.height // rows
        assert (sheet.width, sheet.height) == (cols * w, rows * h) and (w, h) == (409, 573)
        jobs, crops = [], []
        for key, raw in template["CardMetadata"].items():
            meta = json.loads(raw)
            entry = entries[(meta["component"], meta["number"])]
            assert template["CardNames"][key] == entry.nickname and meta["text"] == entry.text
            i = int(key)
            crops.append(sheet.crop((i % cols * w, i // cols * h, (i % cols + 1) * w, (i // cols + 1) * h)))
            jobs.append(RasterJob(entry.front, trim_box(entry.front), (w, h)))
        for crop, alone in zip(crops, render(jobs)):
            assert _differs(crop, alone) < 0.5
        back = Image.open(folder / "Textures" / template["BackTexture"])
        assert back.size == (w, h)
        assert all(_differs(back, crop) > 5 for crop in crops)


def test_copies_are_indices_and_the_same_build_gives_the_same_bytes(tmp_path, metronome):
    folder, templates = metronome
    backed = next(t for t in templates.values() if t["Name"] == "metronome")
    assert max(Counter(backed["Indices"]).values()) > 1  # a card printed twice is two indices of one cell
    import deckpress
    deckpress.build("metronome", tmp_path, formats="ttpg")
    again = tmp_path / "metronome" / "ttpg" / "metronome"
    mine = sorted(p.relative_to(folder) for p in folder.rglob("*") if p.is_file())
    assert mine == sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file())
    for path in mine:
        assert (again / path).read_bytes() == (folder / path).read_bytes(), path
