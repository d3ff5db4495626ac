"""The tuck box file of a deck, measured from the PDF: panels as wide as the card plus clearance,
sides as deep as the stack, text the right way up on every panel."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

import deckpress
from deckpress import cli
from deckpress.builder.box import box_contents
from deckpress.builder.deckbuild import build_deck
from deckpress.compose.tuckbox import CARD_THICKNESS, CLEARANCE, GLUE_FLAP, SLEEVE_THICKNESS
from deckpress.errors import DeckError
from deckpress.model import load_deck
from tests.conftest import SIMPLE_DECK, SIMPLE_LAYOUT
from tests.pdfread import char_angles, fonts, page_boxes_mm, path_boxes

CARD_W, CARD_H = 63.5, 88.9
PAPER = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


def folds(path, page: int = 0) -> tuple[list[float], list[float], list[tuple[float, float, float, float]]]:
    """The dashed fold lines of a page: x of the vertical ones, y of the horizontal ones (mm, centres
    of their strokes), and the boxes of the vertical ones."""
    lines = path_boxes(path, page, dashed=True)
    vertical = [b for b in lines if b[2] - b[0] < 1 < b[3] - b[1]]
    horizontal = [b for b in lines if b[3] - b[1] < 1 < b[2] - b[0]]
    return (sorted({round((b[0] + b[2]) / 2, 3) for b in vertical}),
            sorted({round((b[1] + b[3]) / 2, 3) for b in horizontal}), vertical)


def gaps(values: list[float]) -> list[float]:
    return [round(b - a, 3) for a, b in zip(values, values[1:])]


def outline(path, page: int = 0) -> tuple[float, float, float, float]:
    """Where the cut line reaches: the piece's TrimBox, checked against the cut line's own path
    (whose bounds pdfium widens by the stroke's width, 0.25 mm, on every side)."""
    boxes = page_boxes_mm(PdfReader(path).pages[page])
    x0, y0, x1, y1 = boxes["trimbox"]
    height = boxes["mediabox"][3]
    trim = (x0, height - y1, x1, height - y0)  # from the top-left, as path_boxes
    solid = path_boxes(path, page, dashed=False)
    cut = max(solid, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
    assert all(abs(abs(a - b) - 0.25) <= 0.01 for a, b in zip(cut, trim)), (cut, trim)
    return trim


@pytest.mark.parametrize("paper", PAPER)
def test_metronome_box_panels_are_the_card_plus_clearance_and_as_deep_as_its_81_cards(metronome_build, paper):
    folder, _ = metronome_build
    path = folder / f"metronome-box-{paper}.pdf"
    assert len(PdfReader(path).pages) == 1
    assert box_contents(load_deck("metronome")) == 81  # 63 cards, 6 staff cards, 12 rule cards
    W, H, D = CARD_W + CLEARANCE, CARD_H + CLEARANCE, 81 * CARD_THICKNESS + CLEARANCE
    xs, ys, vertical = folds(path)
    x0, y0, x1, y1 = outline(path)
    assert gaps([x0, *xs]) == pytest.approx([W, D, W, D], abs=0.01)  # front | side | back | side
    top, bottom = min(b[1] for b in vertical), max(b[3] for b in vertical)
    assert bottom - top - 2 * 0.25 == pytest.approx(H, abs=0.01)  # panel folds run the panels' height
    # the horizontal folds: tuck flap hinge, lid hinge, panel tops, panel bottoms, bottom lid's tuck hinge
    assert gaps(ys) == pytest.approx([D, H, D], abs=0.01)
    assert x1 - x0 == pytest.approx(2 * W + 2 * D + GLUE_FLAP, abs=0.01)
    assert xs[0] - x0 == pytest.approx(W, abs=0.01) and x1 - xs[-1] == pytest.approx(GLUE_FLAP, abs=0.01)
    assert ys[0] - y0 == pytest.approx(y1 - ys[-1], abs=0.01)  # tuck flaps equally long, top and bottom
    # the piece is inside the page with room for the label, and the boxes describe it
    w, h = PAPER[paper]
    assert 5 <= x0 and x1 <= w - 5 and 5 <= y0 and y1 <= h - 5


def test_text_is_the_right_way_up_on_every_panel(metronome_build):
    folder, _ = metronome_build
    path = folder / "metronome-box-a4.pdf"
    xs, ys, _ = folds(path)
    left = outline(path)[0]
    front, side1, back, side2 = (left, xs[0]), (xs[0], xs[1]), (xs[1], xs[2]), (xs[2], xs[3])
    panel_top, panel_bottom = ys[1], ys[2]
    chars = char_angles(path)

    def angles(span, y0, y1):
        return {a for _, a, x, y in chars if span[0] < x < span[1] and y0 < y < y1}

    # the title above the cover card and the designer under it (the card itself has upside-down corners)
    assert angles(front, panel_top, panel_top + 25) == angles(front, panel_bottom - 10, panel_bottom) == {0}
    assert angles(back, panel_top, panel_bottom) == {0}
    assert angles(side1, panel_top, panel_bottom) == angles(side2, panel_top, panel_bottom) == {90}  # top to bottom
    assert angles(back, ys[0], panel_top) == {180}  # the lid reads from the front when closed
    lid = "".join(c for c, a, x, y in chars if back[0] < x < back[1] and ys[0] < y < panel_top)
    assert lid[::-1] == "metronome" or lid == "metronome"
    words = "".join(c for c, *_ in chars)
    for text in ("metronome", "GuyT.Schafer", "63cards6staffcards12rulecards", "CC0-1.0", "2–11players", "wholenote"):
        assert text in words


def test_every_font_on_the_box_is_embedded(metronome_build):
    folder, _ = metronome_build
    found = fonts(PdfReader(folder / "metronome-box-a4.pdf"))
    assert found and all(found.values()), found


def big_deck(make_deck, cards: int, size: str = "tarot") -> str:
    deck = f"""\
        id: big
        title: Big Deck
        designer: Someone
        license: CC0-1.0
        card: {size}
        layouts: [cards]
        components:
          - name: cards
            front: face
            back: back
            cards:
              - {{name: one, count: {cards}}}
        """
    layouts = {"cards": """\
        templates:
          face:
            fields: {name: ~}
            elements:
              - text: {text: "{name}", x: 5mm, y: 5mm, w: 100% - 10mm, h: 12mm}
          back:
            elements:
              - rect: {x: -bleed, y: -bleed, w: 100% + 2 * bleed, h: 100% + 2 * bleed, fill: "#335577"}
        """}
    return str(make_deck(deck, layouts))


def test_a_box_too_big_for_one_sheet_comes_in_two_parts_with_glue_tabs(make_deck, tmp_path):
    deck = big_deck(make_deck, 120)
    result = build_deck(deck, tmp_path, ["a4"], ["color"])
    path = tmp_path / "big" / "big-box-a4.pdf"
    assert not result.warnings
    assert len(PdfReader(path).pages) == 2
    W, D = 70 + CLEARANCE, 120 * CARD_THICKNESS + CLEARANCE
    for page in (0, 1):
        xs, _, _ = folds(path, page)
        x0, _, x1, _ = outline(path, page)
        # front | side | tab and back | side | glue flap: each part two panels and a flap
        assert [xs[0] - x0, xs[1] - xs[0], x1 - xs[1]] == pytest.approx([W, D, GLUE_FLAP], abs=0.01)
    labels = [t for t in (PdfReader(path).pages[i].extract_text() for i in (0, 1))]
    assert "part 1 of 2" in labels[0] and "part 2 of 2" in labels[1]


def test_sleeves_make_the_box_wider_and_deeper(make_deck, tmp_path):
    deck = big_deck(make_deck, 40, "poker")
    deckpress.build(deck, tmp_path, papers="a4", inks="color", sleeves="auto")
    path = tmp_path / "big" / "big-box-a4.pdf"
    xs, _, _ = folds(path)
    xs = [outline(path)[0], *xs]
    W, D = 66 + CLEARANCE, 40 * (CARD_THICKNESS + SLEEVE_THICKNESS) + CLEARANCE  # standard sleeves, 66 × 91
    assert gaps(xs) == pytest.approx([W, D, W, D], abs=0.01)
    deckpress.build(deck, tmp_path, papers="a4", inks="color", sleeves=(70.0, 95.0), sleeve_thickness=0.1)
    xs, _, _ = folds(path)
    assert gaps([outline(path)[0], *xs]) == pytest.approx([70 + CLEARANCE, 40 * 0.4 + CLEARANCE] * 2, abs=0.01)


def test_a_box_that_fits_no_paper_is_a_warning_not_a_file(make_deck, tmp_path):
    deck = big_deck(make_deck, 400, "jumbo")
    result = build_deck(deck, tmp_path, ["a4"], ["color"])
    assert not (tmp_path / "big" / "big-box-a4.pdf").exists()
    assert any("does not fit on a4 paper, even in two parts" in w for w in result.warnings.messages)


def test_cli_sleeves(make_deck, tmp_path):
    deck = big_deck(make_deck, 20, "poker")
    run = lambda *a: CliRunner().invoke(cli.main, ["build", deck, "--paper", "a4", "--ink", "color",  # noqa: E731
                                                   "--out", str(tmp_path), *a])
    assert run("--sleeves", "auto").exit_code == 0
    assert run("--sleeves", "standard", "--sleeve-thickness", "0.1mm").exit_code == 0
    bad = run("--sleeves", "standrd")
    assert bad.exit_code == 2 and bad.output.count("\n") == 1
    assert bad.output.startswith("error: --sleeves: unknown sleeve 'standrd'") and "did you mean 'standard'" in bad.output
    small = run("--sleeves", "50x70")
    assert small.exit_code == 2 and "smaller than the deck's 63.5×88.9 mm cards" in small.output
    assert small.output.count("\n") == 1 and "Traceback" not in small.output
    thick = run("--sleeve-thickness", "-1mm")
    assert thick.exit_code == 2 and thick.output == "error: --sleeve-thickness: '-1mm' cannot be negative\n"


def test_the_deck_names_its_cover_card(tmp_path):
    """Circle of 5 puts its 6th cue card (Happy, fast) on the box instead of the first (Sad, slow)."""
    build_deck("circle-of-5", tmp_path, ["a4"], ["color"], players=3)
    words = "".join(c for c, *_ in char_angles(tmp_path / "circle-of-5" / "circle-of-5-box-a4.pdf"))
    assert "Happy" in words and "fast" in words and "Sad" not in words
    # as the rules list the components: three players' sets of 10, the board and the rule cards
    assert "30cards1colourboard10rulecards" in words


def with_box(make_deck, box: str) -> str:
    """A one-card deck whose deck file says `box: <box>` on line 7."""
    folder = big_deck(make_deck, 1, "poker")
    deck_file = Path(folder) / "deck.yaml"
    deck_file.write_text(deck_file.read_text().replace("components:", f"box: {box}\ncomponents:"))
    return folder


def test_box_none_prints_no_box(make_deck, tmp_path):
    result = build_deck(with_box(make_deck, "none"), tmp_path, ["a4"], ["color"])
    assert [o.path.name for o in result.outputs] == ["big-cards-a4.pdf", "big-backs-a4.pdf", "big-duplex-a4.pdf"]


@pytest.mark.parametrize("box, message", [
    ("{cover: card 2}", "deck.yaml:7: box cover 'card 2': no component 'card' — did you mean 'cards'?"),
    ("{cover: cards 4}", "deck.yaml:7: box cover 'cards 4': 'cards' has cards 1 to 1"),
    ("{cuver: cards}", "deck.yaml:7: unknown key 'cuver' in box — did you mean 'cover'?"),
    ("5", "deck.yaml:7: 'box' must be none or a mapping like {cover: cards 3}"),
])
def test_a_bad_box_is_one_line_naming_the_line(make_deck, box, message):
    result = CliRunner().invoke(cli.main, ["check", with_box(make_deck, box)])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and result.output.strip().endswith(message), result.output



def test_the_box_is_drawn_once_for_every_paper_and_as_drawn_afresh():
    """The nets depend on the box and its art, not on the paper: a build drawing the box for A4
    and then Letter draws it once; what it draws is what drawing it anew gives."""
    from deckpress.builder.box import _nets, box_art, box_job, sized_box
    from deckpress.builder.faces import compose_faces
    from deckpress.builder.plan import Options, Variant
    from deckpress.compose.tuckbox import tuck_box
    from deckpress.errors import Warnings

    faces = compose_faces(load_deck("metronome"), Warnings())
    inked = faces.inked(Variant.of("lowink"))
    _nets.cache_clear()
    a4, letter = (box_job(faces, Path("out"), paper, inked, Options(), Warnings()) for paper in ("a4", "letter"))
    on_a4, on_letter = ([s.plan.placements[0].face for s in job.sheets] for job in (a4, letter))
    assert all(x is y for x, y in zip(on_a4, on_letter, strict=True)) and _nets.cache_info().hits >= 1
    count = box_contents(faces.deck)
    front, back = faces.cover()
    art = box_art(faces.deck, inked(front), inked(back, back=True))
    fresh = tuck_box(sized_box(faces.deck, count, Options()), art, len(on_a4))
    assert [net.face for net in fresh] == on_a4


@pytest.mark.parametrize("deck_id, says", [
    ("metronome", "63cards6staffcards12rulecards"),  # the rules' 63-card deck, not 81 "cards"
    ("steps", "54cards9rulecards"),  # the rules' 54 cards, not 63
    ("circle-of-5", "70cards1colourboard10rulecards"),  # the board was left out
    ("test-piece", "36instrumentcards10rulecards"),  # its cards: the boards and pawns do not fit a card box
    ("kanon", "56Spielkarten7Kanon-Karten12Regelkarten"),
])
def test_the_box_says_what_the_rules_say_is_in_it(bundled_builds, deck_id, says):
    folder, _ = bundled_builds(deck_id)
    words = "".join(c for c, *_ in char_angles(folder / f"{deck_id}-box-a4.pdf"))
    assert says in words


SIMPLE_WITH_RULES = SIMPLE_DECK + """
      - name: rules
        front: front
        sheet: rules-board
        cards:
          - {title: How to play}
"""


def test_a_deck_without_contents_counts_its_cards_sheet_and_the_depth_every_card_sized_piece(make_deck):
    from deckpress.builder.box import box_label
    deck = load_deck(make_deck(SIMPLE_WITH_RULES, {"simple": SIMPLE_LAYOUT}))
    assert box_label(deck) == "3 cards"  # the rule card is not one of the deck's cards
    assert box_contents(deck) == 4  # but it goes in the box, which is made deep enough for it


def test_box_contents_must_be_a_line_of_text(make_deck):
    with pytest.raises(DeckError, match=r"deck.yaml:\d+: box contents must be a line of text"):
        load_deck(make_deck(SIMPLE_WITH_RULES.replace("components:", "box: {contents: [1, 2]}\n    components:"),
                            {"simple": SIMPLE_LAYOUT}))


# --- DriveThruCards' tuck box (--preset drivethru-box) ----------------------------------------------

def test_the_drivethru_box_is_the_net_alone_without_bleed_marks_or_lines(tmp_path):
    """DriveThruCards wants a tuck box's PDF without bleed (print-specs.md §1.2): one page exactly
    the net's size, every box the same, in PDF/X-1a:2003 like its card files, and neither the cut
    line nor the dashed folds its die makes, where the home sheet's box draws both."""
    from tests.test_build_drivethru import assert_pdf_x1a

    result, = deckpress.build("metronome", tmp_path, formats=(), preset="drivethru-box")
    path = tmp_path / "metronome" / "metronome-drivethru-box.pdf"
    assert [o.path for o in result.outputs] == [path]
    assert_pdf_x1a(path)
    page, = PdfReader(path).pages
    boxes = page_boxes_mm(page)
    deck = load_deck("metronome")
    count = box_contents(deck)
    depth = count * CARD_THICKNESS + CLEARANCE
    width = 2 * (CARD_W + CLEARANCE) + 2 * depth + GLUE_FLAP
    assert boxes["mediabox"][2] == pytest.approx(width, abs=0.01)
    assert boxes["trimbox"] == pytest.approx(boxes["mediabox"], abs=0.01)
    assert boxes["bleedbox"] == pytest.approx(boxes["mediabox"], abs=0.01)
    assert folds(path) == ([], [], [])
    home, = deckpress.build("metronome", tmp_path / "home", papers="a4", inks="color")
    sheet = tmp_path / "home" / "metronome" / "metronome-box-a4.pdf"
    assert len(folds(sheet)[0]) >= 4  # the control: the home sheet's box has its folds


def test_the_drivethru_box_is_for_poker_cards_only(make_deck, tmp_path):
    folder = make_deck(SIMPLE_DECK.replace("layouts: [simple]", "card: tarot\n    layouts: [simple]"),
                       {"simple": SIMPLE_LAYOUT})
    with pytest.raises(DeckError, match=r"preset drivethru-box has no tuck box for 70×120 mm cards; "
                                        r"DriveThruCards makes them for poker 63\.5×88\.9 mm cards"):
        deckpress.build(folder, tmp_path, formats=(), preset="drivethru-box")
