"""Card images for print services: sizes, presets, one file per distinct face, the manifest."""

from __future__ import annotations

import csv
import shutil

import pytest
import yaml
from PIL import Image

from deckpress.builder.deckbuild import build_deck
from deckpress.builder.faces import compose_faces
from deckpress.builder.plan import Options
from deckpress.colors import RGB
from deckpress.errors import DeckError, Warnings
from deckpress.face import Face, Paint, Rect, Text
from deckpress.text.fonts import FontSet
from deckpress.model import load_deck
from deckpress.outputs.cardimages import text_margin
from deckpress.outputs.presets import PRESETS, preset_bleed


def rows(folder):
    with (folder / "manifest.csv").open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def few_cards(deck_id, tmp_path, keep: dict[str, int | None]):
    """A copy of a bundled deck (art and all) with only some of its components, and of each only
    its first cards (None: all of them): its real faces at a fraction of the rendering time."""
    source = load_deck(deck_id).folder
    folder = tmp_path / deck_id
    shutil.copytree(source, folder)
    doc = yaml.safe_load((source / "deck.yaml").read_text(encoding="utf-8"))
    doc["components"] = [dict(c, cards=_first(folder, c, keep[c["name"]])) for c in doc["components"]
                         if c["name"] in keep]
    (folder / "deck.yaml").write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return folder


def _first(folder, component, count: int | None):
    """A component's first `count` cards: of its list, or of the rows of the CSV it names (in a
    file of its own, as other components may share that one)."""
    cards = component["cards"]
    if not isinstance(cards, str):
        return cards[:count]
    with (folder / cards).open(newline="", encoding="utf-8") as f:
        table = list(csv.reader(f))
    name = f"{component['name']}-first.csv"
    with (folder / name).open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(table[:None if count is None else count + 1])
    return name


@pytest.fixture(scope="module")
def steps_png(shared_build):
    """Shared: copy before changing."""
    out, result = shared_build("steps-png", "steps", ["a4"], ["color"], options=Options(formats=("png",), dpi=100))
    result.deck = load_deck("steps")
    return out / "steps" / "png", result


def test_one_file_per_distinct_face_and_a_manifest_of_every_card(steps_png):
    folder, result = steps_png
    deck = result.deck
    entries = compose_faces(deck, Warnings()).entries
    distinct = {(side, f) for e in entries for side, f in (("front", e.front), ("back", e.back)) if f is not None}
    pngs = sorted(p.name for p in folder.glob("*.png"))
    assert len(pngs) == len(distinct)
    listed = rows(folder)
    assert len(listed) == len(entries)
    assert sum(int(r["copies"]) for r in listed if r["component"] != "rules") == 54
    for r in listed:
        assert (folder / r["front"]).exists() and (not r["back"] or (folder / r["back"]).exists())
    named = {(r["component"], r["name"]): r for r in listed}
    assert named[("octave-2", "C")]["front"] == "octave-2-01-c-front.png"
    assert named[("octave-2", "C♯/D♭")]["front"] == "octave-2-02-c-sharp-d-flat-front.png"  # a black key: both names
    # every pitch card shows the deck's one back
    assert {r["back"] for r in listed if r["component"].startswith("octave")} == {"back.png"}


def test_pngs_have_bleed_at_the_asked_resolution(steps_png):
    folder, _ = steps_png
    first = rows(folder)[0]
    image = Image.open(folder / first["front"])
    assert image.size == (round(69.5 / 25.4 * 100), round(94.9 / 25.4 * 100))
    assert image.info["dpi"] == pytest.approx((100, 100), abs=0.01)


@pytest.mark.parametrize("preset, canvas", [("mpc", (822, 1122)), ("tgc", (825, 1125))])
def test_presets_give_the_exact_canvas_centred_on_the_trim(tmp_path, preset, canvas):
    deck = few_cards("metronome", tmp_path, {"notes": 5})
    build_deck(deck, tmp_path, ["a4"], ["color"], options=Options(formats=("png",), preset=preset))
    folder = tmp_path / "metronome" / "png"
    assert len(rows(folder)) == 5
    for r in rows(folder)[:5]:
        image = Image.open(folder / r["front"])
        assert image.size == canvas
        assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)
    # metronome's card frame is a dark rounded rectangle inset from the trim: its box must be
    # centred on the canvas (to a pixel)
    image = Image.open(folder / rows(folder)[0]["front"]).convert("L")
    dark = image.point(lambda v: 255 if v < 90 else 0).getbbox()
    assert abs(dark[0] - (canvas[0] - dark[2])) <= 2 and abs(dark[1] - (canvas[1] - dark[3])) <= 2


def test_a_preset_needs_a_canvas_for_the_cards():
    with pytest.raises(DeckError, match=r"^preset printerstudio has no canvas for 41×63 mm cards; PrinterStudio "
                                        r"takes poker 63\.5×88\.9 mm, bridge 57\.15×88\.9 mm, tarot .*mini 44\.45×63\.5 mm"):
        preset_bleed(PRESETS["printerstudio"], (41.0, 63.0))  # mini-american: neither sells it
    with pytest.raises(DeckError, match="MakePlayingCards takes poker"):
        preset_bleed(PRESETS["mpc"], (59.0, 92.0))  # standard-euro
    assert preset_bleed(PRESETS["tgc"], (63.5, 88.9)) == pytest.approx(25.4 / 8)
    assert preset_bleed(PRESETS["mpc"], (63.5, 88.9)) == pytest.approx(0.12 * 25.4)


#: the canvases the vendors' templates give, written out (not computed by the rule under test):
#: (trim mm, canvas px) for every product each sells (docs/DECKS.md, "Print services")
VENDOR_CANVASES = {
    "mpc": {(63.5, 88.9): (822, 1122), (57.15, 88.9): (747, 1122), (70.0, 120.0): (897, 1497),
            (44.45, 63.5): (597, 822), (31.75, 44.45): (447, 597), (44.45, 88.9): (597, 1122),
            (50.8, 88.9): (672, 1122), (63.5, 63.5): (822, 822), (88.9, 88.9): (1122, 1122),
            (88.9, 127.0): (1122, 1572)},
    "printerstudio": {(63.5, 88.9): (822, 1122), (57.15, 88.9): (747, 1122), (70.0, 120.0): (897, 1497),
                      (44.45, 63.5): (597, 822), (63.5, 63.5): (822, 822), (88.9, 88.9): (1122, 1122),
                      (88.9, 127.0): (1122, 1572)},
    "tgc": {(63.5, 88.9): (825, 1125), (57.15, 88.9): (750, 1125), (70.0, 120.0): (900, 1500),
            (44.45, 63.5): (600, 825), (88.9, 88.9): (1125, 1125), (88.9, 139.7): (1125, 1725)},
}


@pytest.mark.parametrize("name", sorted(VENDOR_CANVASES))
def test_each_vendor_product_has_its_published_canvas(name):
    preset = PRESETS[name]
    assert len(preset.canvases) == len(VENDOR_CANVASES[name])
    for trim, canvas in VENDOR_CANVASES[name].items():
        assert preset.canvas(trim) == canvas, trim
        assert preset.canvas(trim[::-1]) == canvas[::-1]  # a landscape card: the canvas turned
    assert preset.canvas((63.0, 88.0)) == preset.canvas((63.5, 88.9))  # sold as 63×88 mm


TAROT_DECK = """
    id: tarot
    title: Tarot
    designer: Test
    license: CC0-1.0
    card: tarot
    layouts: [simple]
    palette:
      red: {color: "#cc2233", symbol: circle}
    components:
      - name: major
        front: front
        back: back
        cards:
          - {title: The Fool}
          - {title: The Magician}
"""


@pytest.mark.parametrize("preset, canvas", [("mpc", (897, 1497)), ("printerstudio", (897, 1497)),
                                            ("tgc", (900, 1500))])
def test_a_tarot_deck_gets_each_vendors_tarot_canvas(make_deck, tmp_path, preset, canvas):
    """70×120 mm cards on MPC's and PrinterStudio's 2.75×4.75 in template: 897×1497 px, the trim
    centred, the back's dark ground reaching every edge of the canvas (the faces were composed with
    the bleed the canvas needs)."""
    from tests.conftest import SIMPLE_LAYOUT

    folder = make_deck(TAROT_DECK, {"simple": SIMPLE_LAYOUT})
    result = build_deck(folder, tmp_path, ["a4"], ["color"], options=Options(formats=("png",), preset=preset))
    out = tmp_path / "tarot" / "png"
    listed = rows(out)
    assert [r["name"] for r in listed] == ["The Fool", "The Magician"]
    assert {(r["width_mm"], r["height_mm"]) for r in listed} == {("70", "120")}
    for name in {r["front"] for r in listed} | {r["back"] for r in listed}:
        image = Image.open(out / name)
        assert image.size == canvas and image.info["dpi"] == pytest.approx((300, 300), abs=0.01)
    back = Image.open(out / listed[0]["back"]).convert("RGB")
    w, h = canvas
    for xy in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1), (w // 2, h // 2)):
        assert back.getpixel(xy) == pytest.approx((0x22, 0x33, 0x44), abs=3), xy
    assert not [m for m in result.warnings.messages if "no canvas" in m]


def test_text_near_the_trim_is_measured_from_its_ink():
    font = FontSet().families["sans"].files["regular"]
    black = RGB(0, 0, 0)
    safe = Face(63.5, 88.9, 3.0, (Text(25, 20, "Hello", font, 4.0, black),))
    assert text_margin(safe) == pytest.approx(20 - 4.0 * 0.72, abs=0.4)  # cap height ≈ 0.72 em
    near = Face(63.5, 88.9, 3.0, (Rect(0, 0, 63.5, 88.9, paint=Paint(fill=black)),
                                  Text(1.5, 40, "Edge", font, 4.0, black)))
    assert text_margin(near) == pytest.approx(1.5, abs=0.5)
    assert text_margin(Face(63.5, 88.9, 3.0, ())) == float("inf")


def test_a_preset_warns_about_pieces_it_has_no_canvas_for(tmp_path):
    deck = few_cards("test-piece", tmp_path / "in", {"silver": 1, "score-boards": None, "pawns": None})
    result = build_deck(deck, tmp_path, ["a4"], ["color"], options=Options(formats=("png",), preset="mpc"))
    assert any("pawns, score-boards" in w for w in result.warnings.messages)
    board = next(r for r in rows(tmp_path / "test-piece" / "png") if r["component"] == "score-boards")
    assert Image.open(tmp_path / "test-piece" / "png" / board["front"]).size == (
        round((262 + 2 * 3.05) / 25.4 * 300), round((150 + 2 * 3.05) / 25.4 * 300))  # mpc's bleed


def test_a_renamed_card_leaves_no_stale_file(tmp_path, steps_png):
    shutil.copytree(steps_png[0].parent.parent, tmp_path / "out")
    folder = tmp_path / "out" / "steps" / "png"
    stale = folder / "pitches-99-gone-front.png"
    with (folder / "manifest.csv").open("a", encoding="utf-8") as f:
        f.write("pitches,99,gone,1,pitches-99-gone-front.png,,63.5,88.9\n")
    stale.write_bytes(b"old")
    build_deck("steps", folder.parent.parent, ["a4"], ["color"], options=Options(formats=("png",), dpi=100))
    assert not stale.exists()
    assert len(rows(folder)) == len(compose_faces(load_deck("steps"), Warnings()).entries)


def test_svgs_are_the_same_set_of_faces_with_outlined_text(tmp_path):
    result = build_deck("kanon", tmp_path, ["a4"], ["color"], options=Options(formats=("svg",), outline_text=True))
    folder = tmp_path / "kanon" / "svg"
    svgs = sorted(folder.glob("*.svg"))
    entries = compose_faces(result.deck, Warnings()).entries
    assert len(svgs) == len({(s, f) for e in entries for s, f in (("front", e.front), ("back", e.back)) if f})
    assert {r["front"] for r in rows(folder)} <= {p.name for p in svgs}
    text = (folder / rows(folder)[0]["front"]).read_text(encoding="utf-8")
    assert "<text" not in text and 'aria-label="' in text and 'width="69.5mm"' in text


def test_a_translation_gets_its_own_folder_and_names(tmp_path):
    result = build_deck("kanon", tmp_path, ["a4"], ["color"], lang="en", options=Options(formats=("png",), dpi=40))
    folder = tmp_path / "kanon" / "png-en"
    assert [o.path.parent for o in result.outputs] == [folder] * len(result.outputs)
    names = {r["name"] for r in rows(folder)}
    assert "Richtungswechsel" not in names and not (tmp_path / "kanon" / "png").exists()
