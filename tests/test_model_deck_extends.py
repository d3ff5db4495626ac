"""A deck that extends another: keys put over the other's, files shadowed by path, templates
redefined, layout colours changed by name, and every mistake said with its own file and line."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from deckpress.bundled import DECKS_DIR
from deckpress.colors import RGB, parse_hex as parse_color
from deckpress.compose.composer import Composer
from deckpress.errors import DeckError
from deckpress.face import Face, Group, Image, Rect
from deckpress.model import deck_languages, load_deck

SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#f0f"/></svg>'


def write(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return folder


def items(face: Face) -> list:
    """Every item of a face, groups opened."""
    found, todo = [], list(face.items)
    while todo:
        item = todo.pop(0)
        found.append(item)
        if isinstance(item, Group):
            todo[:0] = item.items
    return found


def face_of(deck, component: str, side: str = "back", number: int = 1) -> Face:
    part = next(c for c in deck.components if c.name == component)
    return Composer(deck).face(part.cards[number - 1], part.back if side == "back" else part.front)


NIGHT = """
    extends: metronome
    id: metronome-night
    title: metronome (night)
    colors: {navy: "#3a1f4a"}
    palette:
      red: {color: "#e0115f"}
"""


def test_recolouring_a_bundled_deck_is_five_lines(tmp_path):
    deck = load_deck(write(tmp_path / "night", {"deck.yaml": NIGHT}))
    parent = load_deck("metronome")
    assert (deck.id, deck.title, deck.designer, deck.license) == (
        "metronome-night", "metronome (night)", parent.designer, parent.license)
    assert deck.layouts.colors["navy"] == parse_color("#3a1f4a") != parent.layouts.colors["navy"]
    assert deck.layouts.colors["brass"] == parent.layouts.colors["brass"]
    assert deck.names.palette["red"].color == parse_color("#e0115f")
    assert deck.names.palette["red"].symbol == parent.names.palette["red"].symbol == "circle"
    assert [c.name for c in deck.components] == [c.name for c in parent.components]
    assert deck.card_count() == parent.card_count()
    back = face_of(deck, "notes")
    fills = {i.paint.fill for i in items(back) if isinstance(i, Rect)}
    assert RGB(0x3a / 255, 0x1f / 255, 0x4a / 255) in {f for f in fills if isinstance(f, RGB)}
    assert parent.layouts.colors["navy"] not in fills


def test_a_colour_made_of_a_changed_colour_follows_it(make_deck):
    folder = make_deck("""
        id: plain
        title: Plain
        designer: Test
        license: CC0-1.0
        layouts: [plain]
        colors: {base: "#ff0000"}
        components:
          - {name: things, front: front, cards: [{}]}
    """, {"plain": """
        colors: {base: "#0000ff", light: "base 50%"}
        templates:
          front: {elements: [{rect: {x: 0, y: 0, w: 10mm, h: 10mm, fill: light}}]}
    """})
    deck = load_deck(folder)
    assert deck.layouts.colors["base"] == RGB(1, 0, 0)
    assert deck.layouts.colors["light"] == RGB(1, 0, 0).tint(0.5)


def test_changing_a_colour_the_layouts_do_not_have_is_an_error(tmp_path):
    folder = write(tmp_path / "night", {"deck.yaml": NIGHT.replace("navy:", "nayv:")})
    with pytest.raises(DeckError) as caught:
        load_deck(folder)
    assert str(caught.value).startswith("night/deck.yaml:5: no layout colour 'nayv' to change") or \
        "deck.yaml:5: no layout colour 'nayv'" in str(caught.value)
    assert caught.value.suggestion == "navy"


def test_a_file_at_the_same_path_replaces_the_parents_picture(tmp_path):
    """Kanon's back draws art/back.svg: a deck extending it replaces it with one file."""
    folder = write(tmp_path / "mine", {"deck.yaml": "extends: kanon\nid: my-kanon\n", "art/back.svg": SVG})
    deck = load_deck(folder)
    back = face_of(deck, next(c.name for c in deck.components if c.back and c.back.name == "kanon-back"))
    pictures = {Path(i.source) for i in items(back) if isinstance(i, Image)}
    assert pictures == {(folder / "art" / "back.svg").resolve()}
    canon = next(c.name for c in deck.components if c.back and c.back.name == "canon-back")
    assert {Path(i.source) for i in items(face_of(deck, canon)) if isinstance(i, Image)} == {
        DECKS_DIR.resolve() / "kanon" / "art" / "back-canon.svg"}


def test_a_deck_inherits_the_translations_of_the_one_it_extends(tmp_path):
    folder = write(tmp_path / "mine", {"deck.yaml": "extends: kanon\nid: my-kanon\n"})
    deck = load_deck(folder, lang="en")
    assert deck.languages == load_deck("kanon").languages
    assert deck.lang == "en"


def test_a_decks_languages_are_known_without_loading_it(tmp_path):
    """What a plain build asks of every deck first: the languages `load_deck` would give, its own
    first, the ones it inherits and its own translations included."""
    mine = write(tmp_path / "mine", {"deck.yaml": "extends: kanon\nid: my-kanon\n",
                                     "translations/fr.yaml": "[]\n"})
    english = write(tmp_path / "english", {"deck.yaml": "extends: kanon\nid: kanon-en\nlanguage: en\n"})
    for ref in ("kanon", "metronome", "steps", mine, english):
        assert deck_languages(ref) == load_deck(ref).languages
    assert deck_languages(mine) == ["de", "en", "fr"] and deck_languages(english) == ["en"]


LAYOUT_OVERRIDE = """
    colors: {navy: "#000000"}
    templates:
      metronome-back:
        extends: metronome-back
        elements:
          - rect: {x: 1mm, y: 1mm, w: 10mm, h: 10mm, fill: "#00ff00"}
      dot:
        fields: {title: "", text: ""}
        elements:
          - rect: {x: 0, y: 0, w: 5mm, h: 5mm, fill: "#0000ff"}
"""


def test_a_deck_layout_may_redefine_and_build_on_inherited_templates(tmp_path):
    folder = write(tmp_path / "mine", {"deck.yaml": "extends: metronome\nid: mine\nlayouts: [mine]\n",
                                       "layouts/mine.yaml": LAYOUT_OVERRIDE})
    deck = load_deck(folder)
    parent = load_deck("metronome")
    back, parent_back = deck.layouts.templates["metronome-back"], parent.layouts.templates["metronome-back"]
    assert back.name == "metronome-back"
    assert len(back.elements) == len(parent_back.elements) + 1  # the inherited back, a green square on top
    assert [e.values for e in back.elements[:-1]] != [e.values for e in parent_back.elements]  # navy changed
    assert [e.line for e in back.elements[:-1]] == [e.line for e in parent_back.elements]
    assert deck.layouts.colors["navy"] == RGB(0, 0, 0)
    assert [e.kind for e in deck.layouts.templates["dot"].elements] == ["rect"]  # redefined outright
    assert not [name for name in deck.layouts.templates if "\x00" in name]  # the replaced one is hidden


def test_an_inherited_element_is_replaced_by_its_id(tmp_path):
    parent = write(tmp_path / "base", {
        "deck.yaml": """
            id: base
            title: Base
            designer: Test
            license: CC0-1.0
            layouts: [base]
            components:
              - {name: things, front: front, back: back, cards: [{}, {}]}
              - {name: others, front: front, cards: [{}]}
        """,
        "layouts/base.yaml": """
            colors: {navy: "#101060"}
            templates:
              front: {elements: [{rect: {id: background, x: 0, y: 0, w: 100%, h: 100%, fill: navy}}]}
              back: {elements: [{rect: {id: background, x: 0, y: 0, w: 100%, h: 100%, fill: navy}}]}
        """})
    child = write(tmp_path / "child", {
        "deck.yaml": """
            extends: ../base
            id: child
            layouts: [child]
            components:
              - remove: others
              - {name: more, front: front, cards: [{count: 3}]}
        """,
        "layouts/child.yaml": """
            colors: {navy: "#606010"}
            templates:
              back:
                extends: back
                elements: [{rect: {id: background, x: 0, y: 0, w: 50%, h: 100%, fill: navy}}]
        """})
    deck = load_deck(child)
    assert [c.name for c in deck.components] == ["things", "more"]
    assert deck.card_count() == 5
    back = face_of(deck, "things")
    rect, = [i for i in items(back) if isinstance(i, Rect)]
    assert rect.w == pytest.approx(deck.size.width / 2)
    assert rect.paint.fill == parse_color("#606010")
    assert load_deck(parent).layouts.colors["navy"] == parse_color("#101060")


@pytest.mark.parametrize("deck, message, suggestion", [
    ("extends: metronom\nid: x\n", "mine/deck.yaml:1: no deck 'metronom' to extend", "metronome"),
    ("extends: metronome\ntitle: x\n", "a deck that extends another needs its own 'id'", None),
    ("extends: metronome\nid: metronome\n", "mine/deck.yaml:2: this deck extends 'metronome', whose id is", None),
    ("extends: /etc\nid: x\n", "'/etc' must be a bundled deck id or a path relative", None),
    ("extends: metronome\nid: x\ncomponents:\n  - remove: note\n", "mine/deck.yaml:4: there is no component 'note'",
     "notes"),
    ("extends: metronome\nid: x\ncolors: navy\n", "'colors' maps the layouts' colour words", None),
    ("extends: metronome\nid: x\npalette:\n  red: {symbol: square}\n",
     "palette colours 'red' and 'blue' share the symbol 'square'", None),
    ("extends: metronome\nid: x\npalette:\n  red: {color: '#zz0000'}\n", "mine/deck.yaml:4: palette colour 'red'",
     None),
])
def test_mistakes_in_a_deck_that_extends_another(tmp_path, deck, message, suggestion):
    folder = write(tmp_path / "mine", {"deck.yaml": deck})
    with pytest.raises(DeckError) as caught:
        load_deck(folder)
    assert message in str(caught.value)
    assert caught.value.suggestion == suggestion


def test_an_inherited_mistake_is_said_in_the_file_that_has_it(tmp_path):
    write(tmp_path / "base", {"deck.yaml": "id: base\ntitle: Base\ndesigner: T\nlicense: CC0-1.0\n"
                                           "layouts: [common]\ncard: pokr\ncomponents: []\n"})
    write(tmp_path / "child", {"deck.yaml": "extends: ../base\nid: child\n"})
    with pytest.raises(DeckError) as caught:
        load_deck(tmp_path / "child")
    assert str(caught.value).startswith(str(Path("base/deck.yaml"))) or "base/deck.yaml:6:" in str(caught.value)
    assert "unknown card size 'pokr'" in str(caught.value)


def test_decks_that_extend_each_other_in_a_circle(tmp_path):
    write(tmp_path / "a", {"deck.yaml": "extends: ../b\nid: a\n"})
    write(tmp_path / "b", {"deck.yaml": "extends: ../a\nid: b\n"})
    with pytest.raises(DeckError, match="decks extend each other in a circle: a → b → a"):
        load_deck(tmp_path / "a")


def test_layout_names_stay_unique_within_one_deck(tmp_path):
    folder = write(tmp_path / "mine", {
        "deck.yaml": "extends: metronome\nid: mine\nlayouts: [one, two]\n",
        "layouts/one.yaml": "colors: {navy: '#000000'}\n",
        "layouts/two.yaml": "colors: {navy: '#111111'}\n"})
    with pytest.raises(DeckError, match="color 'navy' is already defined in .*one.yaml:1"):
        load_deck(folder)
