"""Circle of 5: one 10-card set per player, identical backs, the colour board tiled at real size,
and colours that still read in the greyscale low-ink build. What every bundled deck promises (files,
grids, backs, duplex, page boxes, fonts, text sizes, low ink, rebuilds) is checked for Circle of 5
too, in test_decks.py."""

from __future__ import annotations

import math
from collections import Counter

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from deckpress import cli
from deckpress.builder.deckbuild import build_deck
from deckpress.model import load_deck
from tests.pdfread import MM, page_text, placements, trim_box_mm

DECK = "circle-of-5"
CARD_W, CARD_H = 63.5, 88.9
BOARD_W, BOARD_H = 284.0, 300.0
A4_H = 297.0
MOODS = {"black": "Sad", "red": "Chaos", "yellow": "Happy", "green": "Calm", "blue": "Discipline"}
CUES = {"black": {"slow", "ostinato"}, "red": {"short sounds", "high pitch"},
        "yellow": {"short sounds", "fast"}, "green": {"quiet", "low pitch"},
        "blue": {"quiet", "ostinato"}}
PAIRS = {frozenset({("red", "short sounds"), ("yellow", "short sounds")}),
         frozenset({("green", "quiet"), ("blue", "quiet")}),
         frozenset({("blue", "ostinato"), ("black", "ostinato")}),
         frozenset({("yellow", "fast"), ("black", "slow")}),
         frozenset({("red", "high pitch"), ("green", "low pitch")})}


@pytest.fixture(scope="module")
def seven(bundled_builds):
    """The default build (7 sets), as `deckpress build circle-of-5` writes it."""
    return bundled_builds(DECK)


@pytest.fixture(scope="module")
def three(shared_build):
    """A build for 3 players on A4, colour only."""
    out, result = shared_build("circle-of-5-three", DECK, papers=["a4"], inks=["color"], players=3)
    return out / DECK, result


def pdf(folder, kind):
    return folder / f"{DECK}-{kind}-a4.pdf"


def component(deck, name):
    return next(c for c in deck.components if c.name == name)


# --- the inventory ---------------------------------------------------------------------------

def test_one_set_is_the_ten_cards_of_the_mood_table():
    deck = load_deck(DECK)
    cards = component(deck, "cue-cards").cards
    assert len(cards) == 10 and all(card.count == 1 for card in cards)
    by_colour: dict[str, set] = {}
    for card in cards:
        f = card.fields
        assert f["mood"] == MOODS[f["color"]]
        by_colour.setdefault(f["color"], set()).add(f["cue"])
    assert by_colour == CUES
    # every card names exactly the one card it pairs with, and the five pairs are the rules' five
    pairs = {frozenset({(c.fields["color"], c.fields["cue"]), (c.fields["partner"], c.fields["partner_cue"])})
             for c in cards}
    assert pairs == PAIRS
    assert set(deck.names.palette) == set(MOODS)
    assert len({p.symbol for p in deck.names.palette.values()}) == 5


@pytest.mark.parametrize("players", [3, 5, 7])
def test_one_set_per_player(players):
    deck = load_deck(DECK, players=players)
    assert component(deck, "cue-cards").card_count == 10 * players
    assert deck.card_count("cards") == 10 * players
    assert component(deck, "board").card_count == 1 and component(deck, "rules").card_count == 10


def test_default_is_the_most_players():
    assert load_deck(DECK).card_count("cards") == 70


@pytest.mark.parametrize("players", ["1", "2", "8", "12"])
def test_player_counts_outside_3_to_7_are_refused(players, tmp_path):
    result = CliRunner().invoke(cli.main, ["build", DECK, "--players", players, "--out", str(tmp_path)])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    assert "Traceback" not in result.output
    assert "3–7 players" in lines[0]
    assert not (tmp_path / DECK).exists()


# --- the printed cards -----------------------------------------------------------------------

def test_builds_without_warnings(three):
    """For 3 players too (the default build for 7: test_decks.py)."""
    assert not three[1].warnings.messages
    assert {p.name for p in three[0].iterdir()} == {
        f"{DECK}-{k}-a4.pdf" for k in ("cards", "backs", "duplex", "rules-board", "box")}


@pytest.mark.parametrize("build, players", [("three", 3), ("seven", 7)])
def test_ten_cards_per_player_on_the_sheets(build, players, request):
    folder, _ = request.getfixturevalue(build)
    fronts, backs = PdfReader(pdf(folder, "cards")), PdfReader(pdf(folder, "backs"))
    assert len(fronts.pages) == len(backs.pages) == math.ceil(10 * players / 9)
    placed = [p for page in fronts.pages for p in placements(page)]
    assert len(placed) == 10 * players
    assert sum(len(placements(page)) for page in backs.pages) == 10 * players
    # the sets are alike: however many players, the fronts are the same ten faces, each N times
    assert sorted(Counter(p.name for p in placed).values()) == [players] * 10
    for page in fronts.pages:
        for p in placements(page):
            x0, y0, x1, y1 = trim_box_mm(p, CARD_W, CARD_H, A4_H * MM)
            assert (x1 - x0, y1 - y0) == pytest.approx((CARD_W, CARD_H), abs=0.01)


def test_cards_show_cue_mood_and_colour_words(seven):
    folder, _ = seven
    text = "".join(page_text(pdf(folder, "cards"), i) for i in range(8))
    for colour, mood in MOODS.items():
        assert mood in text and colour in text
    for cues in CUES.values():
        for cue in cues:
            assert cue in text
    assert "pairs with" in text


# --- the board and the rules -----------------------------------------------------------------

SEAM_CLEAR = 5.0  #: mm every seam's glue strip and cut line keep from the board's words and symbols
CUE_SAFE = 4.0  #: mm every cue card's text keeps inside its trim (more than the 1/8 in safe zone)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_board_is_tiled_at_real_size_on_four_pages_with_seams_off_its_words(seven, paper):
    from deckpress.imposition.sheets import OVERLAP, plan_tiles, text_boxes

    folder, _ = seven
    windows = board_windows(folder, paper)
    face = board_face()
    # as the plan has them, to the hundredth of a millimetre
    planned = plan_tiles(face, BOARD_W, BOARD_H, paper, 3.0, keep_clear=text_boxes(face))
    read = [v for window in sorted(windows.values()) for v in window]
    assert read == pytest.approx([v for window in sorted(board_window(t) for t in planned) for v in window], abs=0.01)
    # together the whole board; where two meet, an OVERLAP-deep strip 5 mm clear of every word and
    # symbol (its words, icons, the colours' marks, the ring's arrowheads: what text_boxes reads)
    boxes = list(windows.values())
    for x in range(0, 285, 2):
        for y in range(0, 301, 2):
            assert any(b[0] - 0.01 <= x <= b[2] + 0.01 and b[1] - 0.01 <= y <= b[3] + 0.01 for b in boxes)
    seams = 0
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            strip = (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
            w, h = strip[2] - strip[0], strip[3] - strip[1]
            if min(w, h) > 0 and max(w, h) > 2 * OVERLAP:  # neighbours, not tiles sharing a corner
                seams += 1
                assert min(w, h) == pytest.approx(OVERLAP, abs=0.01)
                for word in text_boxes(face):
                    gap = max(word[0] - strip[2], strip[0] - word[2], word[1] - strip[3], strip[1] - word[3])
                    assert gap >= SEAM_CLEAR - 0.01, (paper, strip, word)
    assert seams >= 4


def test_board_tiles_are_upright_and_the_same_on_a4_and_letter(seven):
    """The four tiles print the board as it lies, and A4 and Letter cut it into the same parts:
    one set of instructions, and a board glued from either paper is the same board."""
    folder, _ = seven
    cut = {paper: board_windows(folder, paper) for paper in ("a4", "letter")}
    assert len(cut["a4"]) == len(cut["letter"]) == 4
    for a, b in zip(sorted(cut["a4"].values()), sorted(cut["letter"].values()), strict=True):
        assert a == pytest.approx(b, abs=0.01)
    for paper in cut:
        path = folder / f"{DECK}-rules-board-{paper}.pdf"
        assert [name for i in cut[paper] for name in ("tile A1", "tile B1", "tile A2", "tile B2")
                if name in page_text(path, i)] == ["tile A1", "tile B1", "tile A2", "tile B2"]


def board_windows(folder, paper):
    """The part of the board each tile page shows (mm on the board, cut at its trim), by page, read
    from the built PDF; each placement checked upright and unscaled."""
    path = folder / f"{DECK}-rules-board-{paper}.pdf"
    reader = PdfReader(path)
    windows, rule_cards = {}, 0
    for i, page in enumerate(reader.pages):
        page_h = float(page.mediabox.height)
        for p in placements(page):
            if p.bbox[2] - p.bbox[0] > 200 * MM:  # the board's form: placed whole, unscaled, clipped to a tile
                a, b, c, d = p.matrix[:4]
                assert (a, b, c, d) == pytest.approx((1, 0, 0, 1), abs=1e-9)  # upright, not mirrored, not scaled
                assert (p.bbox[2] - p.bbox[0]) / MM == pytest.approx(BOARD_W + 6, abs=0.01)  # + 3 mm bleed each side
                clip = p.clip  # the tile's part of the board and its bleed, on the page
                corners = [on_board(p, x, y, page_h) for x in (clip[0], clip[2]) for y in (clip[1], clip[3])]
                windows[i] = (max(0.0, min(x for x, _ in corners)), max(0.0, min(y for _, y in corners)),
                              min(BOARD_W, max(x for x, _ in corners)), min(BOARD_H, max(y for _, y in corners)))
            else:
                rule_cards += 1
    assert len(windows) == 4 and rule_cards == 10
    # five pages: the tenth rule card, alone after nine, goes below a tile with room for it
    assert len(reader.pages) == 5
    return windows


def board_face():
    from deckpress.compose import Composer
    from deckpress.errors import Warnings

    deck = load_deck(DECK)
    board = component(deck, "board")
    return Composer(deck, Warnings()).face(board.cards[0], board.front)


def on_board(placed, x_pt, y_pt, page_h_pt):
    """A page point (PDF points, y up) on the board (mm from its trim's top-left, y down)."""
    a, b, c, d, e, f = placed.matrix
    det = a * d - b * c
    u, v = x_pt - e, y_pt - f
    fx, fy = (d * u - c * v) / det, (a * v - b * u) / det  # form space: points, y up
    return fx / MM, -fy / MM


def board_window(page):
    """The part of the board a planned tile page shows, cut at its trim (mm on the board)."""
    from deckpress.face import apply

    (p,) = page.placements
    a, b, c, d, e, f = p.matrix
    det = a * d - b * c
    inv = (d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det)
    corners = [apply(inv, x, y) for x in (p.trim[0], p.trim[2]) for y in (p.trim[1], p.trim[3])]
    return (min(x for x, _ in corners), min(y for _, y in corners), max(x for x, _ in corners),
            max(y for _, y in corners))


def _texts(items, matrix=None):
    """Every run of text on a face, with the matrix it is drawn through."""
    from deckpress.face import IDENTITY, Group, Text, multiply

    matrix = matrix or IDENTITY
    for item in items:
        if isinstance(item, Group):
            yield from _texts(item.items, multiply(matrix, item.transform))
        elif isinstance(item, Text) and item.text.strip():
            yield item, matrix


def test_rule_cards_text_ends_above_the_footer_at_7_pt_or_more():
    """Each rule card's text (the first's component list too) ends a millimetre or more above the
    footer line, each line from its font's ascent to its descent, and nothing is set under 7 pt."""
    from deckpress.compose import Composer
    from deckpress.errors import Warnings
    from deckpress.text.fonts import open_font

    deck = load_deck(DECK)
    rules = component(deck, "rules")
    composer = Composer(deck, Warnings())
    for number, card in enumerate(rules.cards, 1):
        face = composer.face(card, rules.front)
        runs = [t for t, _ in _texts(face.items)]
        (footer,) = [t for t in runs if t.text.endswith(f"rules {number}/10")]
        body = [t for t in runs if t is not footer and t.y > 15.4]  # below the title band and its stripe
        assert body and min(t.size for t in runs) >= 7 * MM_PER_PT - 1e-9
        bottom = max(t.y + open_font(t.font).descent * t.size for t in body)
        top = footer.y - open_font(footer.font).ascent * footer.size
        assert bottom <= top - 1.0, (number, card.fields.get("title"), bottom, top)


MM_PER_PT = 25.4 / 72


def test_cue_card_text_keeps_4_mm_inside_the_trim_at_both_ends():
    """The mood band at each end (one turned round) and everything else on a cue card, front and
    back, keeps its ink CUE_SAFE inside the trim: more than the 1/8 in (3.175 mm) safe zone."""
    from deckpress.compose import Composer
    from deckpress.errors import Warnings
    from deckpress.outputs.cardimages import text_margin

    deck = load_deck(DECK)
    cues = component(deck, "cue-cards")
    composer = Composer(deck, Warnings())
    for card in cues.cards:
        front = composer.face(card, cues.front)
        turned = [t for t, m in _texts(front.items) if m[0] == pytest.approx(-1)]
        assert len(turned) == 2  # the foot's mood and colour words, upside down
        assert text_margin(front) >= CUE_SAFE, card.fields
    assert text_margin(composer.face(cues.cards[0], cues.back)) >= CUE_SAFE


def test_board_fields_hold_a_poker_card_each():
    from deckpress.compose import Composer
    from deckpress.errors import Warnings
    from deckpress.face import Rect

    deck = load_deck(DECK)
    board = component(deck, "board")
    face = Composer(deck, Warnings()).face(board.cards[0], board.front)
    assert (face.width, face.height) == (BOARD_W, BOARD_H)

    def rects(items):
        for item in items:
            if isinstance(item, Rect):
                yield item
            yield from rects(getattr(item, "items", ()))

    fields = [r for r in rects(face.items) if r.paint.stroke is not None and r.paint.fill is not None
              and r.w >= CARD_W + 3 and r.h >= CARD_H + 3 and r.w < 100]
    assert len(fields) == 5
    for a in fields:  # inside the board, and no two overlap
        assert 0 <= a.x and a.x + a.w <= BOARD_W and 0 <= a.y and a.y + a.h <= BOARD_H
        for b in fields:
            if a is not b:
                assert a.x + a.w <= b.x or b.x + b.w <= a.x or a.y + a.h <= b.y or b.y + b.h <= a.y


def test_board_labels_the_five_pairing_lines_and_the_music(seven):
    folder, _ = seven
    text = page_text(pdf(folder, "rules-board"), 0)
    for label in ("short sounds", "quiet", "ostinato", "fast ⟷ slow", "high ⟷ low", "Making music",
                  "Your turn", "Game end", "Playing a card"):
        assert label in text, label
    for colour, mood in MOODS.items():
        assert f"lay {colour} cards here" in text and mood in text


def test_rule_cards_cover_the_rules_and_credit_the_source(seven):
    folder, _ = seven
    path = pdf(folder, "rules-board")
    text = " ".join(" ".join(page_text(path, i).split()) for i in range(len(PdfReader(path).pages)))
    for fact in ("opaque sleeves", "Stop", "Draw", "Put back", "Join in", "A.", "B.", "C.", "Then D.",
                 "+3", "−1", "6 points or more", "Easy dealing", "Drafting",
                 "Games for Music", "musicgames.wikidot.com", "game:circle-of-5", "CC BY-SA 3.0"):
        assert fact in text, fact


# --- low ink (black ink only, as every deck: test_decks.py) ------------------------------------------

def test_colours_read_in_low_ink(seven):
    """Each card's colour (from the colour print's ground) is carried in the low-ink print by the mood
    word and colour name on that card, and by a symbol that is the same on every card of that colour
    and different from every other colour's."""
    folder, _ = seven
    deck = load_deck(DECK)
    palette = {name: p.color for name, p in deck.names.palette.items()}
    dpi = 150
    colour_doc = pdfium.PdfDocument(str(pdf(folder, "cards")))
    low_doc = pdfium.PdfDocument(str(pdf(folder, "cards-lowink")))
    low_reader = PdfReader(pdf(folder, "cards-lowink"))
    symbols: dict[str, list] = {}
    seen = Counter()
    for index, page in enumerate(PdfReader(pdf(folder, "cards")).pages):
        colour_img = colour_doc[index].render(scale=dpi / 72).to_pil().convert("RGB")
        low_img = low_doc[index].render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
        low_text = low_doc[index].get_textpage()
        low_boxes = [trim_box_mm(p, CARD_W, CARD_H, A4_H * MM) for p in placements(low_reader.pages[index])]
        for p in placements(page):
            box = trim_box_mm(p, CARD_W, CARD_H, A4_H * MM)
            assert box in low_boxes
            x0, y0, x1, y1 = box
            px = lambda mm: round(mm * dpi / 25.4)
            ground = colour_img.getpixel((px(x0 + 2), px(y0 + 44)))
            colour = min(palette, key=lambda n: sum((a - b * 255) ** 2 for a, b in zip(ground, _rgb(palette[n]))))
            seen[colour] += 1
            words = low_text.get_text_bounded(x0 * MM, (A4_H - y1) * MM, x1 * MM, (A4_H - y0) * MM)
            assert MOODS[colour] in words and colour in words, (colour, words)
            # the symbol on its white disc at the top left, as the low-ink print shows it
            disc = low_img.crop((px(x0 + 4), px(y0 + 3.5), px(x0 + 14), px(y0 + 13.5)))
            symbols.setdefault(colour, []).append(_dark(disc))
    assert seen == {c: 14 for c in MOODS}
    # the same symbol on every card of a colour, and five clearly different symbols
    for colour, shapes in symbols.items():
        assert len(shapes[0][1]) > 50, colour  # there is an outline to see
        assert all(_distance(shapes[0], other) < 0.7 for other in shapes), colour
    firsts = [shapes[0] for shapes in symbols.values()]
    for a in firsts:
        for b in firsts:
            if a is not b:
                assert _distance(a, b) > 1.0


def _dark(image):
    """The ink outlines of a grey image (darker than the paled fills): its size and the set of
    dark pixels."""
    w, h = image.size
    data = image.tobytes()  # one byte a pixel in mode "L"
    return (w, h), {(i % w, i // w) for i, v in enumerate(data) if v < 110}


def _distance(a, b):
    """Differing pixels between two outline images, relative to the first's outline, at the best
    shift of up to two pixels (cards sit at different sub-pixel offsets on the page). The same
    symbol scores under 0.5, two different ones over 1.2."""
    (wa, ha), dots_a = a
    (wb, hb), dots_b = b
    w, h = min(wa, wb) - 4, min(ha, hb) - 4
    core = {(x - 2, y - 2) for x, y in dots_a if 2 <= x < 2 + w and 2 <= y < 2 + h}

    def differing(dx: int, dy: int) -> int:
        other = {(x - dx, y - dy) for x, y in dots_b if dx <= x < dx + w and dy <= y < dy + h}
        return len(core ^ other)

    best = min(differing(dx, dy) for dy in range(5) for dx in range(5))
    return best / max(1, len(core))


def _rgb(color):
    return (color.r, color.g, color.b)


def test_board_fields_read_in_low_ink(seven):
    folder, _ = seven
    text = page_text(pdf(folder, "rules-board-lowink"), 0)
    for colour, mood in MOODS.items():
        assert mood in text and colour in text


def test_rebuilding_gives_identical_files(three, tmp_path):
    folder, _ = three
    again = build_deck(DECK, tmp_path, papers=["a4"], inks=["color"], players=3)
    for output in again.outputs:
        assert output.path.read_bytes() == (folder / output.path.name).read_bytes(), output.path.name
