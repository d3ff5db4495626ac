"""Deck files: sizes, palette, components and cards, files kept inside the deck, and every error."""

from __future__ import annotations

import pytest

from deckpress.errors import DeckError
from deckpress.model import CARD_SIZES, find_deck, load_deck
from tests.conftest import SIMPLE_DECK, SIMPLE_LAYOUT


def load(make_deck, deck=SIMPLE_DECK, layout=SIMPLE_LAYOUT, files=None):
    return load_deck(make_deck(deck, {"simple": layout}, files))


def test_a_deck_loads_with_defaults_and_counts(make_deck):
    deck = load(make_deck)
    assert (deck.id, deck.title, deck.license) == ("simple", "Simple", "CC0-1.0")
    assert (deck.size.width, deck.size.height, deck.bleed) == (63.5, 88.9, 3.0)  # poker, 3 mm
    assert deck.card_count() == 3 and deck.card_count("rules-board") == 0
    cards = [card for _, card in deck.cards("cards")]
    assert [c.fields["title"] for c in cards] == ["One", "One", "Two"]
    assert cards[0].fields["color"] == "red" and cards[2].fields["color"] == "blue"  # template default, then card
    assert deck.names.palette["blue"].symbol == "square"


@pytest.mark.parametrize("gap, expected", [(None, 0.0), ("1.5mm", 1.5), ("0.125in", 3.175), ("0", 0.0)])
def test_gap_between_cards_is_a_length_that_defaults_to_none(make_deck, gap, expected):
    deck = load(make_deck, SIMPLE_DECK.replace("layouts:", f"gap: {gap}\n    layouts:") if gap else SIMPLE_DECK)
    assert deck.gap == pytest.approx(expected)


@pytest.mark.parametrize("gap, message", [
    ("25mm", "deck.yaml:6: gap 25mm is too wide: at most 20mm"),
    ("-1mm", "deck.yaml:6: gap cannot be negative"),
    ("50%", "deck.yaml:6: gap: a gap cannot use % or bleed"),
])
def test_a_bad_gap_names_its_line(make_deck, gap, message):
    with pytest.raises(DeckError) as caught:
        load(make_deck, SIMPLE_DECK.replace("layouts:", f"gap: {gap}\n    layouts:"))
    assert message in str(caught.value)


@pytest.mark.parametrize("preset, size", [("poker", (63.5, 88.9)), ("poker-metric", (63, 88)),
                                          ("bridge", (57.15, 88.9)), ("standard-euro", (59, 92)),
                                          ("tarot", (70, 120)), ("mini-euro", (44, 68)),
                                          ("mini-american", (41, 63)), ("square-70", (70, 70))])
def test_card_size_presets(make_deck, preset, size):
    deck = load(make_deck, SIMPLE_DECK.replace("layouts:", f"card: {preset}\n    layouts:"))
    assert (deck.size.width, deck.size.height) == pytest.approx(size)
    assert preset in CARD_SIZES


def test_custom_card_size(make_deck):
    deck = load(make_deck, SIMPLE_DECK.replace("layouts:", "card: {width: 2.5in, height: 90mm, radius: 2mm}\n    layouts:"))
    assert (deck.size.width, deck.size.height, deck.size.radius) == pytest.approx((63.5, 90, 2))


@pytest.mark.parametrize("written, size", [("63x88", (63, 88, 3)), ("2.5inx3.5in", (63.5, 88.9, 3)),
                                           ("63 mm × 8.8cm", (63, 88, 3)), ("tarot", (70, 120, 4))])
def test_a_card_size_may_be_written_as_on_a_box(make_deck, written, size):
    """As `deckpress impose --size` takes it: one parser for both."""
    from deckpress.builder.images import card_size
    deck = load(make_deck, SIMPLE_DECK.replace("layouts:", f"card: {written}\n    layouts:").replace(
        "        back: back\n", f"        back: back\n        size: {written}\n"))
    assert (deck.size.width, deck.size.height, deck.size.radius) == pytest.approx(size)
    assert deck.components[0].size == deck.size
    assert card_size(written) == pytest.approx(size[:2])


@pytest.mark.parametrize("written, message", [
    ("63x0", "card size '63x0' must be greater than zero both ways"),
    ("63x88furlongs", "card size '63x88furlongs': unknown unit 'furlongs' in '88furlongs'; units are mm, cm, in, "
                      "pt and %"),
    ("pokr", "unknown card size 'pokr'; card sizes are poker, poker-metric, bridge, standard-american, "
             "standard-euro, tarot, jumbo, mini-euro, mini-american, square-70, or WIDTHxHEIGHT like 63x88 (mm) "
             "or 2.5inx3.5in — did you mean 'poker'?"),
])
def test_a_card_size_written_wrong(make_deck, written, message):
    with pytest.raises(DeckError) as err:
        load(make_deck, SIMPLE_DECK.replace("layouts:", f"card: {written}\n    layouts:"))
    assert str(err.value) == f"{err.value.file}:6: {message}"


CARDS_ARE = ("cards are 20 mm a side or more, and fit a page inside its 5 mm margins: at most 200 × 287 mm on a4 "
             "or 205.9 × 269.4 mm on letter")


@pytest.mark.parametrize("card, line, message", [
    ("5x88", 6, f"card size 5 × 88 mm is too small: {CARDS_ARE}"),
    ("{width: 5mm, height: 88mm}", 6, f"card size 5 × 88 mm is too small: {CARDS_ARE}"),
    ("\n      width: 63mm\n      height: 300mm", 8, f"card size 63 × 300 mm is too big: {CARDS_ARE}"),
    ("205.9x287", 6, f"card size 205.9 × 287 mm is too big: {CARDS_ARE}"),
    ("{width: 20mm, height: 30mm, radius: 10.5mm}", 6,
     "corner radius 10.5 mm is more than half the short side: at most 10 mm for 20 × 30 mm"),
])
def test_a_card_size_out_of_bounds_says_the_allowed_range(make_deck, card, line, message):
    with pytest.raises(DeckError) as err:
        load(make_deck, SIMPLE_DECK.replace("layouts:", f"card: {card}\n    layouts:"))
    assert str(err.value) == f"{err.value.file}:{line}: {message}"


@pytest.mark.parametrize("card", ["20x20", "200x287", "287x200", "205.9x269.4", "{width: 20mm, height: 30mm, radius: 10mm}"])
def test_a_card_size_at_the_bounds_is_taken(make_deck, card):
    assert load(make_deck, SIMPLE_DECK.replace("layouts:", f"card: {card}\n    layouts:")).card_count() == 3


@pytest.mark.parametrize("size, message", [
    ("9x72", "size 9 × 72 mm is too small: pieces are 10 to 1000 mm a side"),
    ("{width: 1001mm, height: 20mm}", "size 1001 × 20 mm is too big: pieces are 10 to 1000 mm a side"),
])
def test_a_pieces_size_has_bounds_of_its_own(make_deck, size, message):
    pieces = SIMPLE_DECK.replace("        back: back\n", "        back: back\n        size: SIZE\n")
    assert load(make_deck, pieces.replace("SIZE", "10x1000")).components[0].size.height == 1000  # bigger than a page
    with pytest.raises(DeckError) as err:
        load(make_deck, pieces.replace("SIZE", size))
    assert str(err.value) == f"{err.value.file}:14: {message}"


@pytest.mark.parametrize("new, line, message", [
    ("red:\n        color: #cc2233\n        symbol: circle", 9,
     "palette colour 'red': no colour given (a # starts a YAML comment: write color: \"#cc2233\")"),
    ("red:\n        color:\n        symbol: circle", 9, "palette colour 'red': no colour given"),
    # the parser's own words (libyaml's or PyYAML's) then the hint, on the line of the #, not the next
    ("red: {color: #cc2233, symbol: circle}", 8,
     "YAML syntax: … (a # starts a comment in YAML: quote colours, like color: \"#c8283c\")"),
])
def test_an_unquoted_colour_is_explained(make_deck, new, line, message):
    with pytest.raises(DeckError) as err:
        load(make_deck, SIMPLE_DECK.replace('red: {color: "#cc2233", symbol: circle}', new))
    head, _, tail = f"{err.value.file}:{line}: {message}".partition("…")
    assert str(err.value).startswith(head) and str(err.value).endswith(tail)
    assert str(err.value).count("(") == message.count("(")


def test_an_unquoted_colour_in_a_layout_is_explained(make_deck):
    layout = SIMPLE_LAYOUT.replace('- rect: {x: -bleed, y: -bleed, w: 100% + 2*bleed, h: 100% + 2*bleed, fill: "#223344"}',
                                   "- rect:\n              fill: #223344")
    with pytest.raises(DeckError) as err:
        load(make_deck, layout=layout)
    assert str(err.value) == (f"{err.value.file}:11: rect fill: no colour given (a # starts a YAML comment: "
                              'write fill: "#223344")')


@pytest.mark.parametrize("old, new, line, message", [
    ("{title: Two, color: blue}", "{title: Two, colour: blue}", 16, "unknown key 'colour' in card — did you mean 'color'?"),
    ("count: 2", "count: two", 15, "count must be a whole number of 0 or more (0 leaves the card out), not 'two'"),
    ("count: 2", "count: -1", 15, "count must be a whole number of 0 or more (0 leaves the card out), not -1"),
    ("count: 2", "count: 1.5", 15, "count must be a whole number of 0 or more (0 leaves the card out), not 1.5"),
    ("front: front", "front: frnt", 12, "unknown template 'frnt' — did you mean 'front'?"),
    ("layouts: [simple]", "layouts: [simpel]", 6, "unknown layout 'simpel'"),
    ("layouts: [simple]", "layouts: simple, common", 6, "'layouts' must be a list: write layouts: [simple, common]"),
    ("layouts: [simple]", "layouts: simple,common,", 6, "'layouts' must be a list: write layouts: [simple, common]"),
    ("symbol: square", "symbol: circle", 9, "share the symbol 'circle'"),
    ("symbol: square", "symbol: sqare", 9, "unknown symbol 'sqare'"),
    ("license: CC0-1.0", "licence: CC0-1.0", 5, "unknown key 'licence' in deck — did you mean 'license'?"),
    ("title: Simple", "title: [a, b]", 3, "'title' must be text"),
    ("    title: Simple\n", "", 1, "the deck needs 'title'"),
    ("id: simple", "id: ../escape", 2, "deck id '../escape' must be letters, digits"),
    ("      - name: things\n", "      - name: things\n        sheet: rule-board\n", 12,
     "unknown sheet 'rule-board'; expected one of cards, rules-board — did you mean 'rules-board'?"),
    ("{title: One, count: 2}", "{count: 2}", 15, "card lacks field 'title', which template 'front' requires"),
])
def test_deck_mistakes_name_file_line_and_key(make_deck, old, new, line, message):
    assert old in SIMPLE_DECK
    with pytest.raises(DeckError) as err:
        load(make_deck, SIMPLE_DECK.replace(old, new, 1))
    assert message in str(err.value)
    assert err.value.line == line
    assert str(err.value).startswith(f"{err.value.file}:{line}: ")


PER_PLAYER = SIMPLE_DECK.replace("layouts:", "players: 3–5\n    layouts:").replace(
    "        back: back\n", "        back: back\n        copies: players\n")


def test_per_player_copies_default_to_the_most_players(make_deck):
    folder = make_deck(PER_PLAYER, {"simple": SIMPLE_LAYOUT})
    assert load_deck(folder).card_count() == 5 * 3
    deck = load_deck(folder, players=3)
    assert deck.card_count() == 3 * 3 and deck.player_count == 3
    # set after set: One, One, Two, then again
    assert [c.fields["title"] for _, c in deck.cards("cards")][:6] == ["One", "One", "Two"] * 2


@pytest.mark.parametrize("players_line, players, message, hint", [
    ("players: 2", 9, "Simple is for 2 players, not 9", "--players 2"),
    ("players: 2–4", 9, "Simple is for 2–4 players, not 9", "--players 4"),
    ("players: 2–4", 1, "Simple is for 2–4 players, not 1", "--players 2"),
])
def test_every_deck_with_a_player_range_refuses_a_count_outside_it(make_deck, players_line, players, message, hint):
    # no per-player sets here: the docs say any count outside the range is an error
    folder = make_deck(SIMPLE_DECK.replace("layouts:", f"{players_line}\n    layouts:"), {"simple": SIMPLE_LAYOUT})
    with pytest.raises(DeckError) as err:
        load_deck(folder, players=players)
    assert str(err.value) == f"{err.value.file}:6: {message} — did you mean '{hint}'?"
    assert load_deck(folder, players=2).card_count() == 3  # a count inside it changes nothing here


def test_a_deck_without_a_player_range_takes_any_count(make_deck):
    for players_line in ("", "players: any\n    "):
        folder = make_deck(SIMPLE_DECK.replace("layouts:", f"{players_line}layouts:"), {"simple": SIMPLE_LAYOUT})
        assert load_deck(folder, players=9).card_count() == 3


@pytest.mark.parametrize("players", [0, 2, 6])
def test_players_outside_the_range_are_refused(make_deck, players):
    with pytest.raises(DeckError, match=f"Simple is for 3–5 players, not {players}") as err:
        load_deck(make_deck(PER_PLAYER, {"simple": SIMPLE_LAYOUT}), players=players)
    assert err.value.line == 6


@pytest.mark.parametrize("old, new, message", [
    ("copies: players", "copies: player", "copies must be a whole number of 1 or more, or 'players', not "
                                          "'player' — did you mean 'players'?"),
    ("players: 3–5\n    ", "", "'copies: players' needs the deck's player range, like players: 3–7"),
    ("copies: players", "size: huge", "unknown card size 'huge'"),
    ("copies: players", "size: {width: 20mm}", "a size needs 'height'"),
])
def test_copies_and_size_mistakes(make_deck, old, new, message):
    with pytest.raises(DeckError, match=message):
        load_deck(make_deck(PER_PLAYER.replace(old, new), {"simple": SIMPLE_LAYOUT}))


def test_a_component_of_its_own_size_composes_at_that_size(make_deck):
    from deckpress.compose import Composer
    deck = load(make_deck, SIMPLE_DECK.replace("        back: back\n", "        size: {width: 200mm, height: 100mm}\n"))
    component = deck.components[0]
    face = Composer(deck).face(component.cards[0], component.front)
    assert (face.width, face.height) == (200.0, 100.0)
    background = face.items[0]  # 100% + 2*bleed of the component, not of the deck's card
    assert (background.w, background.h) == pytest.approx((206.0, 106.0))


def test_a_colour_name_in_a_card_is_checked_when_composed(make_deck):
    from deckpress.compose import Composer
    deck = load(make_deck, SIMPLE_DECK.replace("color: blue", "color: bleu"))
    component = deck.components[0]
    with pytest.raises(DeckError, match=r"unknown colour 'bleu'.*did you mean 'blue'\?") as err:
        for card in component.cards:
            Composer(deck).face(card, component.front)
    assert err.value.line == 16


IMAGE_LAYOUT = SIMPLE_LAYOUT.replace(
    "          - text: {text: \"{title}\"",
    "          - image: {src: \"{art}\", x: 0mm, y: 0mm, w: 20mm, h: 20mm}\n          - text: {text: \"{title}\"").replace(
    "fields: {title: ~, color: red}", "fields: {title: ~, color: red, art: art/one.png}")


@pytest.mark.parametrize("art, message", [
    ("../../outside.png", "points outside the deck folder"),
    ("/etc/passwd", "must be a relative path inside the deck folder"),
    ("art/missing.png", "file 'art/missing.png' not found"),
    ("art/notes.txt", "is not a PNG, JPEG, WebP, TIFF, GIF, BMP, PSD, SVG or PDF image"),
])
def test_files_must_stay_inside_the_deck_and_exist(make_deck, art, message, tmp_path):
    from deckpress.compose import Composer
    (tmp_path / "outside.png").write_bytes(b"x")
    deck = load(make_deck, SIMPLE_DECK.replace("{title: Two, color: blue}", f"{{title: Two, art: \"{art}\"}}"),
                IMAGE_LAYOUT, files={"art/one.png": _png(), "art/notes.txt": b"hi"})
    component = deck.components[0]
    with pytest.raises(DeckError, match=message):
        for card in component.cards:
            Composer(deck).face(card, component.front)


@pytest.mark.parametrize("written, close", [
    ("art/cornet.png", "art/Cornet.png"),  # only the case differs: found on Windows and macOS, not on Linux
    ("art/cornett.png", "art/Cornet.png"),
    ("art/Cornet.jpg", "art/Cornet.png"),
    ("one.png", "one.PNG"),  # a file in the deck folder itself
])
def test_a_missing_picture_suggests_the_closest_file_in_its_folder(make_deck, written, close):
    from deckpress.compose import Composer
    layout = SIMPLE_LAYOUT.replace("          - text: {text:", f"          - image: {{src: {written}}}\n          - text: {{text:")
    with pytest.raises(DeckError) as err:
        load(make_deck, layout=layout, files={"art/Cornet.png": _png(), "art/notes.txt": b"hi", "one.PNG": _png()})
    assert str(err.value) == (f"{err.value.file}:7: image src: file '{written}' not found — did you mean '{close}'?")
    # a card's own value is checked when it is composed, with the same hint
    deck = load(make_deck, SIMPLE_DECK.replace("{title: Two, color: blue}", f"{{title: Two, art: {written}}}"),
                IMAGE_LAYOUT, files={"art/one.png": _png(), "art/Cornet.png": _png(), "one.PNG": _png()})
    component = deck.components[0]
    with pytest.raises(DeckError, match=f"file '{written}' not found — did you mean '{close}'\\?"):
        for card in component.cards:
            Composer(deck).face(card, component.front)


def test_a_missing_file_far_from_any_other_gets_no_suggestion(make_deck):
    layout = SIMPLE_LAYOUT.replace("          - text: {text:", "          - image: {src: art/trumpet.png}\n          - text: {text:")
    with pytest.raises(DeckError) as err:
        load(make_deck, layout=layout, files={"art/Cornet.png": _png()})
    assert str(err.value).endswith("image src: file 'art/trumpet.png' not found")


def test_a_missing_font_suggests_the_closest_font_file(make_deck):
    from deckpress.bundled import FONTS_DIR
    with pytest.raises(DeckError) as err:
        load(make_deck, SIMPLE_DECK.replace("layouts:", "fonts: {fancy: {regular: fonts/fancy.ttf}}\n    layouts:"),
             files={"fonts/Fancy.ttf": (FONTS_DIR / "NotoSans-Italic.ttf").read_bytes(), "fonts/fancy.otf": b"x"})
    assert str(err.value) == (f"{err.value.file}:6: font 'fancy' regular: file 'fonts/fancy.ttf' not found — "
                              "did you mean 'fonts/Fancy.ttf'?")


def test_a_symlink_out_of_the_deck_is_refused(make_deck, tmp_path):
    from deckpress.compose import Composer
    secret = tmp_path / "secret.png"
    secret.write_bytes(_png())
    folder = make_deck(SIMPLE_DECK.replace("{title: Two, color: blue}", "{title: Two, art: art/link.png}"),
                       {"simple": IMAGE_LAYOUT}, {"art/one.png": _png()})
    (folder / "art" / "link.png").symlink_to(secret)
    deck = load_deck(folder)
    with pytest.raises(DeckError, match="points outside the deck folder"):
        for card in deck.components[0].cards:
            Composer(deck).face(card, deck.components[0].front)


def test_find_deck_takes_an_id_a_folder_or_a_file(make_deck):
    folder = make_deck(SIMPLE_DECK, {"simple": SIMPLE_LAYOUT})
    assert find_deck(str(folder)) == folder / "deck.yaml"
    assert find_deck(str(folder / "deck.yaml")) == folder / "deck.yaml"
    assert find_deck("metronome").parent.name == "metronome"
    with pytest.raises(DeckError, match="no deck 'metronom'.*did you mean 'metronome'"):
        find_deck("metronom")


def test_a_deck_may_bring_its_own_font(make_deck):
    from deckpress.bundled import FONTS_DIR
    layout = SIMPLE_LAYOUT.replace("size: 12pt}", "size: 12pt, font: fancy}")
    deck = load(make_deck, SIMPLE_DECK.replace("layouts:", "fonts: {fancy: {regular: fonts/Fancy.ttf}}\n    layouts:"),
                layout, files={"fonts/Fancy.ttf": (FONTS_DIR / "NotoSans-Italic.ttf").read_bytes()})
    family, style = deck.names.fonts.split("fancy")
    assert family.file("bold").path.endswith("Fancy.ttf")  # the only style it has


def _png() -> bytes:
    import io
    from PIL import Image
    buf = io.BytesIO()
    Image.new("RGB", (4, 4), (200, 30, 30)).save(buf, format="PNG")
    return buf.getvalue()


def test_defaults_made_of_fields_chain_and_components_may_use_them(make_deck):
    layout = SIMPLE_LAYOUT.replace("fields: {title: ~, color: red}",
                                   'fields: {title: ~, color: red, tag: "{label}!", label: "{title}/{color}", note: ""}')
    deck = SIMPLE_DECK.replace("        back: back\n", '        back: back\n        fields: {note: "{title} #{card.number}"}\n')
    cards = load(make_deck, deck, layout).components[0].cards
    assert cards[0].fields["label"] == "One/red" and cards[0].fields["tag"] == "One/red!"
    assert cards[1].fields["note"] == "Two #2"


def test_a_card_value_is_taken_as_written(make_deck):
    deck = SIMPLE_DECK.replace("{title: Two, color: blue}", '{title: "{not a field}", color: blue}')
    assert load(make_deck, deck).components[0].cards[1].fields["title"] == "{not a field}"


def test_defaults_that_refer_to_each_other_in_a_circle(make_deck):
    layout = SIMPLE_LAYOUT.replace("fields: {title: ~, color: red}", 'fields: {title: ~, color: red, a: "{b}", b: "{a}"}')
    with pytest.raises(DeckError, match="defaults of fields a, b refer to each other in a circle"):
        load(make_deck, SIMPLE_DECK, layout)


def test_a_default_using_an_undeclared_field_is_caught_in_the_layout(make_deck):
    layout = SIMPLE_LAYOUT.replace("fields: {title: ~, color: red}", 'fields: {title: ~, color: red, a: "{titel}"}')
    with pytest.raises(DeckError, match="default of field 'a' in template 'front' uses 'titel'.*did you mean 'title'"):
        load(make_deck, SIMPLE_DECK, layout)


@pytest.mark.parametrize("old, new, message", [
    ("  red: {color", "  Red: {color", "palette colour name 'Red' must be lower case"),
])
def test_inline_names_are_checked(make_deck, old, new, message):
    with pytest.raises(DeckError, match=message):
        load(make_deck, SIMPLE_DECK.replace(old, new))


def test_an_icon_may_not_take_a_palette_colours_name(make_deck):
    layout = SIMPLE_LAYOUT.replace("    templates:", "    icons:\n      red: {glyph: U+266F, font: music}\n    templates:")
    with pytest.raises(DeckError, match="icon 'red' has the name of a palette colour"):
        load(make_deck, SIMPLE_DECK, layout)


def test_a_copied_deck_draws_its_own_pictures_in_a_bundled_layout(tmp_path):
    """Circle of 5's bundled layout names its icons and board pictures `art/…`: a copy of the deck
    elsewhere finds them in its own art/ folder, so replacing a picture there changes the cards."""
    import shutil

    from deckpress.builder.deckbuild import build_deck
    from deckpress.bundled import DECKS_DIR

    copy = tmp_path / "my-circle"
    shutil.copytree(DECKS_DIR / "circle-of-5", copy)
    deck = load_deck(copy)
    assert deck.layouts.icons["snail"].image == (copy / "art" / "snail.svg").resolve()

    def walk(elements):  # the board's pictures are inside its fields' and labels' groups
        for element in elements:
            yield element
            yield from walk(element.children)

    board = next(e for e in walk(deck.layouts.templates["colour-board"].elements)
                 if e.kind == "image" and not hasattr(e.values["src"], "fields"))
    assert board.values["src"].is_relative_to(copy.resolve())
    before = build_deck(copy, tmp_path / "a", papers=["a4"], inks=["color"]).outputs[0].path.read_bytes()
    (copy / "art" / "snail.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
                                            '<rect width="10" height="10" fill="#ff00ff"/></svg>')
    after = build_deck(copy, tmp_path / "b", papers=["a4"], inks=["color"]).outputs[0].path.read_bytes()
    assert before != after


def test_a_file_name_too_long_for_any_file_system_is_an_error_not_a_crash(make_deck):
    from deckpress.model.deck import resolve_inside

    folder = make_deck(SIMPLE_DECK, {"simple": SIMPLE_LAYOUT})
    with pytest.raises(ValueError, match=r"'art/x{36}…' is too long for a file's path \(at most 255 characters a name"):
        resolve_inside("art/" + "x" * 5000 + ".svg", folder, folder)
    with pytest.raises(ValueError, match="too long"):
        resolve_inside("/".join(["abc"] * 400), folder, folder)


def test_a_card_field_naming_a_picture_too_long_for_a_path_is_one_line(make_deck):
    """Found by the fuzzer: a field that fills `src: "art/{art}.svg"` with 50,000 characters."""
    from deckpress.compose.composer import Composer

    layout = SIMPLE_LAYOUT.replace("fields: {title: ~, color: red}", "fields: {title: ~, color: red, art: x}").replace(
        "      - text: {text: \"{title}\"", "      - image: {src: \"art/{art}.svg\", w: 10mm, h: 10mm}\n"
                                            "          - text: {text: \"{title}\"")
    deck = load(make_deck, SIMPLE_DECK.replace("{title: One, count: 2}", "{title: One, count: 2, art: " + "x" * 50_000 + "}"),
                layout)
    component = deck.components[0]
    with pytest.raises(DeckError, match="is too long for a file's path"):
        Composer(deck).face(component.cards[0], component.front)


@pytest.mark.parametrize("lines, said", [
    ("size: 50x50\n        shape: hex", "a regular hex 50 mm wide is 57.74 mm tall (point to point), not 50 mm: give the "
                                          "size as 50x57.74"),
    ("size: 30x30\n        shape: cirle", "unknown shape 'cirle'"),
    ("size: 30x30\n        shape: {rounded: 20mm}", "does not fit a 30×30 mm piece"),
    ("size: 30x30\n        sheet: rules-board\n        shape: circle", "circle pieces are packed on the cards sheets"),
    ("size: 300x300\n        shape: circle", "a circle piece is packed on a page, not tiled: 300 × 300 mm is too big"),
])
def test_a_shape_that_cannot_be_cut_is_said_at_its_line(make_deck, lines, said):
    folder = make_deck(SIMPLE_DECK.replace("back: back\n", f"back: back\n        {lines}\n"), {"simple": SIMPLE_LAYOUT})
    with pytest.raises(DeckError) as err:
        load_deck(folder)
    text = (folder / "deck.yaml").read_text(encoding="utf-8").splitlines()
    assert said in err.value.message and "shape" in text[err.value.line - 1]
    if "cirle" in lines:
        assert err.value.suggestion == "circle"


def test_a_shaped_component_keeps_its_shape(make_deck):
    folder = make_deck(SIMPLE_DECK.replace("back: back\n", "back: back\n        size: 15x15\n        shape: circle\n"),
                       {"simple": SIMPLE_LAYOUT})  # smaller than a card may be: a damage token
    assert load_deck(folder).components[0].shape.kind == "circle"


def test_a_standee_foot_that_leaves_no_figure_is_said_at_its_line(make_deck):
    """`standee:` is the foot tab at each end of a piece folded in half: 44.5 mm of a poker card's
    88.9 leaves nothing of the figure, and the error says the most it may be."""
    folder = make_deck(SIMPLE_DECK.replace("        back: back\n", "        back: back\n        standee: 44.5mm\n"),
                       {"simple": SIMPLE_LAYOUT})
    with pytest.raises(DeckError) as caught:
        load_deck(folder)
    assert caught.value.line == 14 and "at most 44.45mm" in str(caught.value)
