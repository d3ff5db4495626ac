"""The live preview's deck (`live.preview.Preview`): the faces it shows and where they come from,
only changed faces drawn again, the last good cards kept under an error, the print files."""

from __future__ import annotations

import io
import os
import threading
import time
from pathlib import Path

import pytest
from PIL import Image as PILImage
from pypdf import PdfReader

import deckpress
from deckpress.errors import display_path
from deckpress.live.preview import EAGER, FACE_DPI, Pictures, Preview
from deckpress.model.deck import find_deck

from .served import (GALLERY_DECK, GALLERY_LAYOUT, WORDY_DECK, WORDY_LAYOUT, copy_bundled, edit, gallery_files,
                     moon_svg, pdf_picture_colours, solid_png)


@pytest.fixture
def preview():
    made: list[Preview] = []

    def make(ref, **kwargs) -> Preview:
        made.append(Preview(ref, **kwargs))
        made[-1].rebuild()
        return made[-1]

    yield make
    for p in made:
        p.close()


@pytest.mark.parametrize("deck_id", ["metronome", "steps", "test-piece", "kanon", "circle-of-5"])
def test_every_distinct_face_is_shown_once_with_the_cards_and_lines_it_comes_from(preview, deck_id):
    p = preview(deck_id)
    state = p.state()
    checked = deckpress.check(deck_id)
    assert state["error"] is None and state["deck"]["id"] == deck_id
    assert state["stats"]["faces"] == len(state["faces"]) == checked.faces
    fronts = [face for face in state["faces"] if face["side"] == "front"]
    # each printed card is a copy of one front: the copies add up to the deck's card count
    assert sum(face["copies"] for face in fronts) == checked.cards == state["stats"]["cards"]
    assert len({face["id"] for face in state["faces"]}) == len(state["faces"])
    assert len({face["key"] for face in state["faces"]}) == len(state["faces"])
    for face in fronts:
        for card in face["cards"]:
            file, line = card["source"].rsplit(":", 1)
            text = (find_deck(deck_id).parent / Path(file).name).read_text(encoding="utf-8").splitlines()[int(line) - 1]
            if Path(file).name == "deck.yaml":
                assert text.lstrip().startswith("-")  # the card's own line of the list
            else:  # a card table's row (Test Piece keeps its instruments in a CSV)
                assert Path(file).suffix == ".csv" and card["name"].split()[-1] in text
    assert {c["name"] for c in state["components"]} == {c for face in state["faces"] for c in face["components"]}


def test_a_card_kept_in_a_spreadsheet_names_its_file_and_row(preview, tmp_path):
    folder = tmp_path / "orchard"
    deckpress.new_deck(folder)
    state = preview(folder).state()
    sources = [card["source"] for face in state["faces"] for card in face["cards"] if face["side"] == "front"]
    table = [s for s in sources if ".csv:" in s]
    assert table, sources
    rows = (folder / "cards.csv").read_text(encoding="utf-8").splitlines()
    for source in table:
        row = int(source.rsplit(":", 1)[1])
        face = next(f for f in state["faces"] for c in f["cards"] if c["source"] == source)
        name = next(c["name"] for c in face["cards"] if c["source"] == source)
        assert name in rows[row - 1]  # that row of the file is that card


def test_face_pictures_are_the_trim_at_200_dpi_in_colour_and_in_grey_for_low_ink(preview):
    p = preview("metronome")
    face = p.state()["faces"][0]
    color = PILImage.open(io.BytesIO(p.face_png(face["id"], "color")))
    lowink = PILImage.open(io.BytesIO(p.face_png(face["id"], "lowink")))
    size = (round(face["width"] / 25.4 * FACE_DPI), round(face["height"] / 25.4 * FACE_DPI))
    assert color.size == lowink.size == size
    assert any(abs(r - g) > 40 for r, g, _ in color.convert("RGB").get_flattened_data())  # the red card is red
    # and grey in low-ink: black ink only, which pdfium shows a hair cool (K 70 % as 75, 76, 77)
    assert max(max(pixel) - min(pixel) for pixel in lowink.convert("RGB").get_flattened_data()) <= 6
    assert p.face_png(face["id"], "cmyk") is None and p.face_png("000000-99", "color") is None


def test_an_edit_draws_only_the_faces_it_changed(preview, tmp_path):
    folder = copy_bundled("metronome", tmp_path)
    p = preview(folder)
    before = {f["key"]: f["id"] for f in p.state()["faces"]}
    assert p.state()["stats"]["faces_drawn"] == len(before)
    edit(folder / "deck.yaml", "value: whole", "value: half")  # the first note card, and nothing else
    p.rebuild()
    state = p.state()
    after = {f["key"]: f["id"] for f in state["faces"]}
    changed = {key for key in after if after[key] != before.get(key)}
    assert changed == {"front:notes:1"}
    assert state["stats"]["faces_drawn"] == 1
    card = next(f for f in state["faces"] if f["key"] == "front:notes:1")["cards"][0]
    assert card["fields"]["value"] == "half"


def test_a_mistake_keeps_the_last_good_cards_and_says_where_it_is(preview, tmp_path):
    folder = copy_bundled("metronome", tmp_path)
    p = preview(folder)
    good = p.state()
    edit(folder / "deck.yaml", "value: whole", "valeu: whole")
    p.rebuild()
    broken = p.state()
    assert broken["version"] > good["version"]
    line = next(n for n, text in enumerate((folder / "deck.yaml").read_text().splitlines(), 1) if "valeu" in text)
    assert broken["error"].startswith(f"{Path(broken['deck']['file'])}:{line}: ")
    assert "'valeu'" in broken["error"] and "did you mean 'value'" in broken["error"]
    assert [f["id"] for f in broken["faces"]] == [f["id"] for f in good["faces"]]  # the last good cards
    assert p.face_png(good["faces"][0]["id"], "color") is not None
    edit(folder / "deck.yaml", "valeu: whole", "value: whole")
    p.rebuild()
    fixed = p.state()
    assert fixed["error"] is None and fixed["stats"]["faces_drawn"] == 0


def test_a_deck_broken_from_the_start_is_served_with_its_error_and_no_cards(preview, tmp_path):
    folder = copy_bundled("kanon", tmp_path)
    (folder / "deck.yaml").write_text("id: [kanon\n", encoding="utf-8")
    state = preview(folder).state()
    assert state["deck"] is None and state["faces"] == []
    assert "deck.yaml:1" in state["error"] or "deck.yaml:2" in state["error"]


def test_a_bug_in_a_rebuild_is_a_message_not_a_dead_preview(preview, monkeypatch, capsys):
    p = preview("kanon")
    monkeypatch.setattr("deckpress.live.preview.compose_faces", lambda *a: 1 / 0)
    p.rebuild()
    assert p.state()["error"] == "deckpress failed: ZeroDivisionError: division by zero"
    assert p.state()["faces"]  # still the last good ones
    assert "ZeroDivisionError" in capsys.readouterr().err  # the traceback, for the bug report


def test_warnings_mark_the_faces_of_the_cards_they_are_about(preview, make_deck):
    folder = make_deck(WORDY_DECK, {"plain": WORDY_LAYOUT})
    state = preview(folder).state()
    assert [w["kind"] for w in state["warnings"]] == ["text-overflow"]
    marked = [f["key"] for f in state["faces"] if f["warnings"] == [0]]
    assert marked == ["front:things:2"]
    assert state["warnings"][0]["text"].startswith(state["faces"][1]["cards"][0]["source"] + ": ")


def test_the_print_files_are_both_papers_in_both_inks_with_their_pages_and_a_report(preview):
    p = preview("test-piece")
    state = p.state()
    sheets = state["sheets"]
    assert {(s["paper"], s["ink"]) for s in sheets} == {(paper, ink) for paper in ("a4", "letter")
                                                        for ink in ("color", "lowink")}
    assert {s["kind"] for s in sheets} >= {"cards", "backs", "rules-board", "box"}
    for sheet in sheets:
        path = p.file(sheet["name"])
        pages = PdfReader(path).pages
        assert len(pages) == len(sheet["pages"])
        for page, shown in zip(pages, sheet["pages"]):
            w, h = (float(v) / 72 * 25.4 for v in page.mediabox[2:])
            assert (round(w, 2), round(h, 2)) == (round(shown["width"], 2), round(shown["height"], 2))
    first = sheets[0]
    digest, number = first["pages"][0]["src"].split("/")[2:4]
    picture = PILImage.open(io.BytesIO(p.page_png(digest, int(number.removesuffix(".png")))))
    assert picture.size == (round(first["pages"][0]["width"] / 25.4 * 72), round(first["pages"][0]["height"] / 25.4 * 72))
    assert p.page_png(digest, len(first["pages"]) + 1) is None
    names = {d["name"] for d in state["downloads"]}
    assert names == {s["name"] for s in sheets} | {"test-piece-report.json"}
    import json
    report = json.loads(p.file("test-piece-report.json").read_text(encoding="utf-8"))
    assert report["decks"][0]["id"] == "test-piece" and report["command"] == "build"


def test_files_are_found_by_their_names_alone(preview):
    p = preview("kanon")
    name = p.state()["sheets"][0]["name"]
    assert p.file(name) is not None
    for bad in (f"../{name}", f"kanon/{name}", "", ".", "..", "/etc/passwd", name.upper()):
        assert p.file(bad) is None


def test_a_rebuild_replaces_the_files_and_removes_the_last_ones(preview, tmp_path):
    folder = copy_bundled("kanon", tmp_path)
    p = preview(folder)
    first = p.file(p.state()["sheets"][0]["name"])
    edit(folder / "deck.yaml", "title:", "title: Neu ·")
    p.rebuild()
    second = p.file(p.state()["sheets"][0]["name"])
    assert second != first and second.is_file() and not first.exists()
    p.close()
    assert not second.exists() and not p.folder.exists()


def test_memory_holds_the_faces_shown_not_every_face_ever_drawn(preview, tmp_path):
    folder = copy_bundled("kanon", tmp_path)
    p = preview(folder)
    for face in p.state()["faces"]:
        p.face_png(face["id"], "lowink")
    for n in range(4):
        edit(folder / "deck.yaml", "title:", f"title: {n} ·")
        p.rebuild()
    shown = {face["id"] for face in p.state()["faces"]}
    kept = {key[0] for key in p._pictures.items if key[1] in ("color", "lowink")}  # noqa: SLF001  (what this is about)
    assert kept <= shown
    assert set(p._ids.values()) <= shown  # noqa: SLF001  (nor an id for every face ever made)


def test_pictures_are_drawn_when_asked_for_and_an_edit_draws_its_faces_at_once(preview, tmp_path):
    """A first build draws nothing until the page asks (it asks for the faces in view); an edit
    draws the faces it changed straight away, for the page to swap in."""
    folder = copy_bundled("metronome", tmp_path)
    p = preview(folder)
    assert not p._pictures.items  # noqa: SLF001
    first = p.state()["faces"][0]
    p.face_png(first["id"], "color")
    edit(folder / "deck.yaml", "value: whole", "value: half")
    p.rebuild()
    changed = next(f for f in p.state()["faces"] if f["key"] == first["key"])
    assert list(p._pictures.items) == [(changed["id"], "color")]  # noqa: SLF001


def test_the_pictures_kept_are_bounded_and_the_least_used_go_first():
    pictures = Pictures(250)
    for n in range(5):
        pictures.put(("face", n), bytes(100))
        pictures.get(("face", 0))  # kept in use
    assert list(pictures.items) == [("face", 4), ("face", 0)] and pictures.size == 200


def test_a_picture_let_go_is_drawn_again_when_asked_for(preview, monkeypatch):
    monkeypatch.setattr("deckpress.live.preview.PICTURE_CACHE", 1)  # one picture at a time
    p = preview("kanon")
    faces = p.state()["faces"][:3]
    first = [p.face_png(face["id"], "color") for face in faces]
    assert [p.face_png(face["id"], "color") for face in faces] == first
    assert len(p._pictures.items) == 1  # noqa: SLF001


def test_the_watched_folders_are_the_decks_and_the_bundled_data(preview, tmp_path):
    folder = tmp_path / "mine"
    deckpress.new_deck(folder, base="metronome")
    watched = preview(folder).watched()
    assert watched[0] == folder.resolve()
    assert find_deck("metronome").parent.resolve() in watched  # the deck it extends
    assert any(path.name == "layouts" for path in watched) and any(path.name == "fonts" for path in watched)


def test_a_translation_and_a_player_count_are_shown_as_asked(preview):
    def names(state):
        return {card["name"] for face in state["faces"] for card in face["cards"]}

    english, german = preview("kanon", lang="en").state(), preview("kanon").state()
    assert (english["deck"]["language"], german["deck"]["language"]) == ("en", "de")
    assert "Aussetzen" in names(german) and "Aussetzen" not in names(english)
    few, most = preview("circle-of-5", players=3).state(), preview("circle-of-5").state()
    assert few["stats"]["cards"] < most["stats"]["cards"]


# -- live art: a file saved under the same name redraws the faces that read it ------------------


@pytest.fixture
def gallery(preview, make_deck):
    """The gallery deck (tests/served.py) kept built: (its folder, its preview)."""
    folder = make_deck(GALLERY_DECK, {"gallery": GALLERY_LAYOUT}, gallery_files())
    return folder, preview(folder)


def face_ids(p: Preview) -> dict[str, str]:
    return {face["key"]: face["id"] for face in p.state()["faces"]}


def drawn(p: Preview, key: str) -> PILImage.Image:
    return PILImage.open(io.BytesIO(p.face_png(face_ids(p)[key], "color"))).convert("RGB")


def colour_at(picture: PILImage.Image, x: float, y: float) -> tuple[int, int, int]:
    """The colour at (x, y), given as shares of the picture's width and height."""
    return picture.getpixel((int(x * picture.width), int(y * picture.height)))


def near(colour: tuple[int, ...], wanted: tuple[int, ...]) -> bool:
    return max(abs(a - b) for a, b in zip(colour, wanted)) <= 3


def test_a_picture_saved_under_its_name_gives_the_faces_that_show_it_new_ids_and_its_new_pixels(gallery):
    folder, p = gallery
    before = face_ids(p)
    for key in before:
        p.face_png(before[key], "color")  # every picture drawn and kept, as a page shows them
    assert near(colour_at(drawn(p, "front:pictures:1"), 0.5, 0.25), (200, 40, 30))
    cards = next(s["name"] for s in p.state()["sheets"] if (s["kind"], s["paper"], s["ink"]) == ("cards", "a4", "color"))
    assert (200, 40, 30) in pdf_picture_colours(p.file(cards))
    (folder / "art" / "stall.png").write_bytes(solid_png((30, 150, 60)))  # same name, same size: other pixels
    p.rebuild()
    after = face_ids(p)
    assert {key for key in after if after[key] != before[key]} == {"front:pictures:1", "front:pictures:2"}
    assert p.state()["stats"]["faces_drawn"] == 2
    for key in ("front:pictures:1", "front:pictures:2"):
        assert near(colour_at(drawn(p, key), 0.5, 0.25), (30, 150, 60))
        assert p.face_png(before[key], "color") is None  # the old picture is never served again
    assert near(colour_at(drawn(p, "front:pictures:4"), 0.5, 0.25), (240, 200, 20))  # the sun's, as it was
    # the Downloads agree: the print file shows the new picture, not the old
    colours = pdf_picture_colours(p.file(cards))
    assert (30, 150, 60) in colours and (200, 40, 30) not in colours


def test_svg_art_saved_under_its_name_gives_its_faces_new_ids_and_its_new_colours(gallery):
    folder, p = gallery
    before = face_ids(p)
    assert near(colour_at(drawn(p, "front:pictures:3"), 0.05, 0.05), (0x20, 0x30, 0xa0))
    (folder / "art" / "moon.svg").write_bytes(moon_svg("#e0a020"))
    p.rebuild()
    after = face_ids(p)
    assert {key for key in after if after[key] != before[key]} == {"front:pictures:3"}
    assert near(colour_at(drawn(p, "front:pictures:3"), 0.05, 0.05), (0xe0, 0xa0, 0x20))


def solid_pdf(color: tuple[int, int, int]) -> bytes:
    """PDF art: one page 90 pt square, all of it `color`."""
    from reportlab.pdfgen.canvas import Canvas

    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(90, 90), invariant=1)
    canvas.setFillColorRGB(*(v / 255 for v in color))
    canvas.rect(0, 0, 90, 90, stroke=0, fill=1)
    canvas.showPage()
    canvas.save()
    return out.getvalue()


def test_pdf_art_saved_under_its_name_gives_its_faces_new_ids_and_its_new_colours(gallery):
    folder, p = gallery
    (folder / "art" / "moon.pdf").write_bytes(solid_pdf((20, 100, 30)))
    deck = folder / "deck.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("art/moon.svg", "art/moon.pdf"), encoding="utf-8")
    p.rebuild()
    before = face_ids(p)
    assert near(colour_at(drawn(p, "front:pictures:3"), 0.5, 0.25), (20, 100, 30))
    (folder / "art" / "moon.pdf").write_bytes(solid_pdf((200, 100, 30)))
    p.rebuild()
    after = face_ids(p)
    assert {key for key in after if after[key] != before[key]} == {"front:pictures:3"}
    assert near(colour_at(drawn(p, "front:pictures:3"), 0.5, 0.25), (200, 100, 30))


def test_a_picture_that_svg_art_links_is_read_by_the_faces_that_show_the_art(gallery):
    folder, p = gallery
    before = face_ids(p)
    assert near(colour_at(drawn(p, "front:pictures:3"), 0.5, 0.25), (250, 250, 210))
    (folder / "art" / "moonlight.png").write_bytes(solid_png((120, 20, 160), (60, 60)))
    p.rebuild()
    after = face_ids(p)
    assert {key for key in after if after[key] != before[key]} == {"front:pictures:3"}
    assert near(colour_at(drawn(p, "front:pictures:3"), 0.5, 0.25), (120, 20, 160)), \
        "the art was drawn from its linked picture as it was: a cache of the art keyed by its own file alone?"


def squashed_font(path: Path) -> bytes:
    """The font at `path` with every letter's outline squashed to a third of its height: its
    widths, glyphs and everything text is measured and shaped by are as they were, so the faces
    set in it have the same drawing list; only what they look like changes."""
    from fontTools.ttLib import TTFont

    font = TTFont(path)
    glyphs = font["glyf"]
    for code, name in font.getBestCmap().items():
        glyph = glyphs[name]
        if chr(code).isalpha() and glyph.numberOfContours > 0:
            glyph.coordinates.scale((1, 1 / 3))
            glyph.recalcBounds(glyphs)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def ink(picture: PILImage.Image) -> int:
    """How many of a picture's pixels are dark."""
    return sum(1 for v in picture.convert("L").get_flattened_data() if v < 128)


def test_a_font_saved_under_its_name_redraws_the_faces_set_in_it(gallery):
    folder, p = gallery
    before = face_ids(p)
    ink_before = ink(drawn(p, "front:words:1"))
    (folder / "fonts" / "hand.ttf").write_bytes(squashed_font(folder / "fonts" / "hand.ttf"))
    p.rebuild()
    after = face_ids(p)
    # the word set in the deck's font, alone: the sans word and the pictures' titles are in the bundled sans
    assert {key for key in after if after[key] != before[key]} == {"front:words:1"}
    assert ink(drawn(p, "front:words:1")) < 0.6 * ink_before  # drawn in the new outlines
    assert p.state()["faces"][-1]["id"] == before["front:words:2"]


def test_a_file_saved_with_the_same_bytes_redraws_nothing(gallery):
    folder, p = gallery
    before = face_ids(p)
    for name in ("art/stall.png", "art/moon.svg", "art/moonlight.png", "fonts/hand.ttf"):
        path = folder / name
        path.write_bytes(path.read_bytes())
        os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))  # saved a second later
    p.rebuild()
    assert face_ids(p) == before and p.state()["stats"]["faces_drawn"] == 0


def test_svg_art_that_sets_text_is_redrawn_when_a_font_it_may_be_set_in_is_saved(gallery):
    folder, p = gallery
    (folder / "art" / "moon.svg").write_bytes(moon_svg("#2030a0").replace(
        b"</svg>", b'<text x="5" y="20" font-family="hand" font-size="12">Moon</text></svg>'))
    p.rebuild()
    before = face_ids(p)
    (folder / "fonts" / "hand.ttf").write_bytes(squashed_font(folder / "fonts" / "hand.ttf"))
    p.rebuild()
    after = face_ids(p)
    assert {key for key in after if after[key] != before[key]} == {"front:pictures:3", "front:words:1"}


def test_a_face_asked_for_while_its_picture_is_being_saved_is_not_there_until_the_save_is_done(gallery):
    """The page may ask for a face (scrolled into view) between an editor's first write and its
    last: nothing is drawn from half a file, nothing is kept, and the save's rebuild draws it."""
    folder, p = gallery
    sun = face_ids(p)["front:pictures:4"]
    whole = solid_png((90, 30, 140))
    (folder / "art" / "sun.png").write_bytes(whole[:100])  # the editor's first write
    assert p.face_png(sun, "color") is None
    (folder / "art" / "sun.png").write_bytes(whole)
    p.rebuild()
    assert face_ids(p)["front:pictures:4"] != sun
    assert near(colour_at(drawn(p, "front:pictures:4"), 0.5, 0.25), (90, 30, 140))


def test_the_faces_the_page_asks_for_are_drawn_before_the_rest_of_an_edits(preview, make_deck, monkeypatch):
    """Art every card shows, saved again, changes every face: the page is told at once and the
    faces it asks for (those in view) are drawn first, not after every face the edit changed."""
    cards = "\n".join(f"          - {{title: Stall {n}, art: art/stall.png}}" for n in range(1, 61))
    deck = GALLERY_DECK.split("        cards:\n")[0] + "        cards:\n" + cards + "\n"
    folder = make_deck(deck, {"gallery": GALLERY_LAYOUT}, gallery_files())
    p = preview(folder)
    assert p.error is None
    order: list[str] = []
    draw = Preview._draw

    def slow(self, item, ink):  # a face that takes a while to draw, as a big one does
        order.append(item.key)
        time.sleep(0.05)
        return draw(self, item, ink)

    monkeypatch.setattr(Preview, "_draw", slow)
    (folder / "art" / "stall.png").write_bytes(solid_png((30, 150, 60)))
    before = p.version
    rebuilding = threading.Thread(target=p.rebuild)
    rebuilding.start()
    p.wait(before, 30)  # the page is told
    last = next(face for face in p.state()["faces"] if face["key"] == "front:pictures:48")
    assert p.face_png(last["id"], "color") is not None
    rebuilding.join()
    assert len(order) == EAGER and "front:pictures:48" in order
    assert order.index("front:pictures:48") < EAGER // 2  # drawn when asked for, not last of all


FIELDS_LAYOUT = """
    templates:
      front:
        fields: {title: ~, color: "#cc3333", cost: 1, note: ""}
        elements:
          - rect: {x: 0mm, y: 0mm, w: 100%, h: 100%, fill: "{color}"}
          - text: {text: "{title} {cost} {note}", x: 5mm, y: 5mm, w: 100% - 10mm, h: 20mm, size: 12pt}
"""


def test_each_cards_fields_are_in_its_lists_order_with_the_defaults_and_where_they_are_written(preview, make_deck):
    """The page's dialog lists the fields as the card list writes them: a spreadsheet's columns
    (an empty cell's field in its column's place), a YAML card's keys; then the defaults; each
    default with the line that sets it, and the card and its template with their files and lines."""
    folder = make_deck("""
        id: fields
        title: Fields
        designer: Test
        license: CC0-1.0
        layouts: [fields]
        components:
          - name: sheet
            front: front
            fields: {note: from the component}
            cards: cards.csv
          - name: listed
            front: front
            cards:
              - {cost: 3, title: Late, color: "#3344cc"}
    """, {"fields": FIELDS_LAYOUT}, {"cards.csv": b"cost,title,color\n2,Early,\n5,Middle,#33aa55\n"})
    state = preview(folder).state()
    cards = {card["name"]: card for face in state["faces"] for card in face["cards"]}
    early, middle, late = cards["Early"], cards["Middle"], cards["Late"]
    assert early["order"] == ["cost", "title", "color", "note"]  # the columns, the empty one in its place
    assert middle["order"] == ["cost", "title", "color", "note"]
    assert late["order"] == ["cost", "title", "color", "note"]  # the keys as written, then the defaults
    layout = folder / "layouts" / "fields.yaml"
    assert early["defaults"]["color"] == {"source": f"{display_path(layout)}:4", "file": str(layout.resolve()),
                                          "line": 4}  # the template's fields: line
    assert early["defaults"]["note"]["file"] == str((folder / "deck.yaml").resolve())  # the component's
    assert set(early["defaults"]) == {"color", "note"} and set(middle["defaults"]) == {"note"}
    assert early["at"] == {"file": str((folder / "cards.csv").resolve()), "line": 2}
    assert late["at"]["file"] == str((folder / "deck.yaml").resolve())
    assert early["template"] == {"name": "front", "source": f"{display_path(layout)}:4",  # its mapping's first line
                                 "file": str(layout.resolve()), "line": 4}


def test_only_files_of_the_deck_may_be_opened(preview, make_deck, tmp_path):
    folder = make_deck("""
        id: opened
        title: Opened
        designer: Test
        license: CC0-1.0
        layouts: [fields]
        components:
          - {name: listed, front: front, cards: [{title: One}]}
    """, {"fields": FIELDS_LAYOUT})
    p = preview(folder)
    assert p.openable(str(folder / "deck.yaml")) == (folder / "deck.yaml").resolve()
    assert p.openable(str(folder / "layouts" / "fields.yaml")) == (folder / "layouts" / "fields.yaml").resolve()
    (tmp_path / "outside.yaml").write_text("x: 1\n", encoding="utf-8")
    (folder / "link.yaml").symlink_to(tmp_path / "outside.yaml")
    for refused in (tmp_path / "outside.yaml", folder / "link.yaml", folder / "layouts", folder / "gone.yaml",
                    folder / ".." / "outside.yaml", "/etc/passwd", "", "deck.yaml\0"):
        assert p.openable(str(refused)) is None, refused
