"""What every bundled deck must do, checked alike on all five, built as `deckpress build` writes
them (both papers, both inks) and read back from the PDFs.

A table says what each deck holds (cards, sheets, distinct faces, rule cards); the tests hold the
promises every deck makes: every file written without warnings, cards on a 3 × 3 grid, backs that
land behind their fronts, a duplex file that interleaves them, page boxes print shops accept,
fonts embedded, text that extracts and is never tiny (on the cards 7 pt at least, in every
language), black ink only in low-ink, each distinct face stored once, and byte-identical
rebuilds; and templates whose every part has an id that means the same in every deck, so a
template extending one can replace it. What is a deck's own game (its inventory, what its cards
say, its boards) is checked in its own file: test_build_metronome.py, test_deck_<id>.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from deckpress.builder.deckbuild import build_deck
from deckpress.builder.faces import compose_faces
from deckpress.errors import Warnings
from deckpress.face import Group, Text
from deckpress.model import bundled_deck_ids, load_deck
from deckpress.model.layout import Element
from deckpress.units import PT, Length
from tests.pdfread import (MM, backs_behind_fronts, cards_on_grid, check_page_boxes, colour_operators, darkness, fonts,
                           fonts_showing_text, page_text, placements, text_sizes, trim_box_mm, xobjects)

CARD_W, CARD_H = 63.5, 88.9  # every bundled deck's cards are poker size
PAPER = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
KINDS = ["cards", "backs", "duplex", "rules-board", "box"]
INKS = {"color": "", "lowink": "-lowink"}


@dataclass(frozen=True)
class Deck:
    id: str
    grid: tuple[int, ...]  # cards on each page of the cards file (and of the backs file)
    fronts: int  # distinct front faces among the cards
    backs: int  # distinct back designs among the cards
    rules: tuple[str, ...]  # the rule cards' titles, in order
    rules_grid: tuple[int, ...] | None  # cards on each rules-board page; None: boards, tiles or pawns there too
    rules_text: int  # characters the rules-board prints, at least: all of the rules is there to read
    low_ink: float  # the low-ink cards and backs use at most this share of the colour build's ink
    rebuild: tuple[str, str]  # the paper and ink rebuilt to compare byte for byte
    smallest_pt: float = 6.5  # the smallest type anywhere on its sheets (the page label; on the cards READABLE_PT)
    gap: float = 0.0  # between cards on the sheets (deck.yaml's `gap:`)
    # on Letter, when it differs from A4's 3 × 3: cards on each page of the cards file, and the grid
    letter_grid: tuple[int, ...] | None = None
    letter_layout: tuple[int, int, bool] = (3, 3, False)  # columns, rows, turned
    page_layouts: int = 2  # page layouts in the duplex file (each stores its marks once): fronts' and backs'

    @property
    def cards(self) -> int:
        return sum(self.grid)

    def grid_on(self, paper: str) -> tuple[int, ...]:
        """Cards on each page of the cards file on `paper`."""
        return self.letter_grid if paper == "letter" and self.letter_grid else self.grid

    def __str__(self) -> str:
        return self.id


DECKS = [
    Deck("metronome", grid=(9,) * 7, fronts=27 + 12 + 1 + 1 + 3 + 3, backs=1,  # notes, rests, dot, tie, accidentals, time signatures
         rules=("metronome", "How to play", "Filling the measure", "Notes", "Time signatures", "Ties", "Accidentals",
                "Dots", "Cramming a measure", "Rests", "Advanced play", "About metronome"),
         rules_grid=(9, 9), rules_text=4000, low_ink=0.40, rebuild=("letter", "all")),
    # notes, specials, the rest, canons; canon cards have their own back, and so a page of their
    # own: the play cards' last page holds 2, in a grid of its own (a third page layout)
    Deck("kanon", grid=(9,) * 6 + (2, 7), fronts=6 + 5 + 1 + 7, backs=2, page_layouts=3,
         rules=("Kanon", "Vorbereitung", "Ablauf", "Welche Note passt?", "Intervalle zählen",
                "Die Grenzen des Hexachords", "Pause", "+1 und +2", "Richtungswechsel · Aussetzen", "Karten tauschen",
                "Ziehen · Spielende", "Über dieses Spiel"),
         rules_grid=(9, 3), rules_text=4000, low_ink=0.45, rebuild=("a4", "color")),
    Deck("steps", grid=(9,) * 6, fronts=4 * 12 + 4 + 1, backs=1,  # four octaves of 12 pitches, four "?" wilds, the chromatic wild
         rules=("Steps", "Half steps and whole steps", "Setup", "Your turn", "Groups", "Wild cards", "Last card",
                "Passing", "About Steps"),
         rules_grid=(9,), rules_text=3000, low_ink=0.60, rebuild=("a4", "lowink")),
    Deck("test-piece", grid=(9,) * 4, fronts=12, backs=2,  # 12 instruments, twice: on silver backs and on gold
         rules=("Test Piece", "Components", "The instruments", "Setup", "A round", "Drafting", "Scoring", "Example",
                "End of the game", "About Test Piece"),
         rules_grid=None, rules_text=4500, low_ink=0.55, rebuild=("letter", "color")),
    Deck("circle-of-5", grid=(9,) * 7 + (7,), fronts=10, backs=1,  # 7 players' sets of the same 10 cards
         rules=("Circle of 5", "Colours and cues", "The circle and pairs", "Setting up", "Your turn",
                "Resolving a card", "Making music", "Game end and scoring", "Variants", "About Circle of 5"),
         rules_grid=None, rules_text=10000, low_ink=0.30, rebuild=("a4", "lowink"),
         # full-bleed colour cards of different colours side by side: each gets its own bleed in a
         # 1.5 mm gap, nine a page on A4, eight turned on Letter
         gap=1.5, letter_grid=(8,) * 8 + (6,), letter_layout=(2, 4, True)),
]

each_deck = pytest.mark.parametrize("deck", DECKS, ids=str)
each_paper = pytest.mark.parametrize("paper", PAPER)
each_ink = pytest.mark.parametrize("ink", INKS)


@pytest.fixture
def folder(deck, bundled_builds):
    return bundled_builds(deck.id)[0]


def pdf(folder, deck, kind, paper="a4", ink="color"):
    return folder / f"{deck.id}-{kind}{INKS[ink]}-{paper}.pdf"


def test_the_table_has_every_bundled_deck_and_its_inventory():
    assert sorted(deck.id for deck in DECKS) == bundled_deck_ids()
    for deck in DECKS:
        loaded = load_deck(deck.id)
        assert loaded.card_count("cards") == deck.cards, deck
        rules = next(c for c in loaded.components if c.name in ("rules", "regeln"))
        assert tuple(card.fields["title"] for card in rules.cards) == deck.rules, deck


@each_deck
def test_every_output_file_is_written_without_warnings(deck, bundled_builds):
    folder, result = bundled_builds(deck.id)
    expected = {pdf(folder, deck, kind, paper, ink).name for kind in KINDS for paper in PAPER for ink in INKS}
    assert {p.name for p in folder.iterdir()} == expected
    assert sorted(o.path.name for o in result.outputs) == sorted(expected)
    assert not result.warnings.messages



# --- the templates' parts ------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent
RECT, TEXT = frozenset({"rect"}), frozenset({"text", "rect"})  # text, perhaps on a plate
INDEX = frozenset({"text", "image", "rect", "line"})  # a corner index: words, a picture, a boxed number
#: The ids the decks share (LAYOUTS.md's table of them), each with the kinds of element it may
#: draw: one id names one kind of part in every deck, so replacing it replaces what its name says.
#: `emblem` (a back's picture) and `picture` (a front's) may be any drawing.
ROLES: dict[str, frozenset[str] | None] = {
    "background": RECT, "ground": RECT, "frame": RECT, "band": RECT, "stripe": RECT, "panel": RECT,
    "divider": frozenset({"line"}), "symbols": frozenset({"symbol", "circle"}),
    "corner-marks": frozenset({"circle", "path", "glyph"}),
    "corners": INDEX, "corner-top": INDEX, "corner-bottom": INDEX, "index": frozenset({"text"}),
    "title": TEXT, "subtitle": TEXT, "name": TEXT, "text": TEXT, "body": TEXT, "footer": TEXT,
    "emblem": None, "picture": None,
}


def walk(elements: Iterable[Element]) -> list[Element]:
    """Every element, groups' children included."""
    return [e for element in elements for e in (element, *walk(element.children))]


def kinds(element: Element) -> set[str]:
    """The kinds of element it draws: its own, or a group's children's."""
    return {e.kind for e in walk((element,)) if e.kind != "group"}


@each_deck
def test_every_part_of_every_template_is_named_and_named_once(deck):
    """Each element at the top of a template has an id, none shared: a template extending it can
    replace or remove any part, and a replacement stands in once for the whole part."""
    for template in load_deck(deck.id).layouts.templates.values():
        ids = [e.id for e in template.elements]
        assert None not in ids, (template.name, [e.line for e in template.elements if e.id is None])
        assert len(set(ids)) == len(ids), (template.name, ids)


@each_deck
def test_a_shared_id_names_the_same_kind_of_part_everywhere(deck):
    for template in load_deck(deck.id).layouts.templates.values():
        for element in walk(template.elements):
            if ROLES.get(element.id) is None:  # a deck's own part, or a picture of any kind
                continue
            drawn = kinds(element)
            assert drawn and drawn <= ROLES[element.id], (template.name, element.id, element.line, drawn)
            if ROLES[element.id] is TEXT:
                assert "text" in drawn, (template.name, element.id, element.line)
            if element.id in ("background", "ground"):  # the whole card, bleed and all
                assert element.kind == "rect", (template.name, element.line)
                v = element.values
                assert v["x"] == v["y"] == Length(bleed=-1), (template.name, element.line)
                assert v["w"] == v["h"] == Length(pct=100, bleed=2), (template.name, element.line)


@each_deck
def test_every_back_has_a_colour_frame_and_emblem_to_replace_and_no_front_has_an_emblem(deck):
    """What LAYOUTS.md promises: a back is re-coloured by replacing its `ground` (or, without one,
    its own `background`), and given a new picture by replacing its `emblem`."""
    loaded = load_deck(deck.id)
    white = loaded.layouts.templates["blank"].elements[0].values["fill"]
    fronts = {c.front.name: c.front for c in loaded.components}
    backs = {c.back.name: c.back for c in loaded.components if c.back is not None}
    assert backs
    for back in backs.values():
        parts = {e.id: e for e in back.elements}
        assert {"frame", "emblem", "title"} <= set(parts) and "picture" not in parts, (back.name, sorted(parts))
        colour = parts.get("ground", parts["background"])
        assert colour.values["fill"] != white, back.name
    for front in fronts.values():
        assert "emblem" not in {e.id for e in front.elements}, front.name


def test_layouts_md_lists_the_shared_ids():
    text = (ROOT / "docs" / "LAYOUTS.md").read_text(encoding="utf-8")
    table = text.split("#### The parts of the bundled templates", 1)[1].split("```yaml", 1)[0]
    first_cells = re.findall(r"^\| (`.+?) \|", table, re.M)
    documented = {name for cell in first_cells for name in re.findall(r"`([a-z-]+)`", cell)}
    assert documented == set(ROLES)
    used = {e.id for d in bundled_deck_ids() for t in load_deck(d).layouts.templates.values() for e in walk(t.elements)}
    assert set(ROLES) <= used


@each_deck
def test_the_readme_names_the_decks_own_parts(deck):
    """Each deck's README names the parts of its templates that LAYOUTS.md does not, by their
    real names: the ids, templates and fields its layouts have."""
    readme = (ROOT / "decks" / deck.id / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Template parts\n", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"`([a-z][a-z0-9-]*)`", section))
    templates = load_deck(deck.id).layouts.templates
    own = {e.id for t in templates.values() for e in t.elements} - set(ROLES)
    assert own <= named, sorted(own - named)
    real = {e.id for t in templates.values() for e in walk(t.elements)} | set(templates)
    real |= {name for t in templates.values() for name in t.fields}
    assert named <= real, sorted(named - real)


# --- the sheets ----------------------------------------------------------------------------------

@each_ink
@each_paper
@each_deck
def test_cards_sit_on_a_3_by_3_grid(deck, folder, paper, ink):
    cols, rows, turned = deck.letter_layout if paper == "letter" else (3, 3, False)
    grid = deck.grid_on(paper)
    assert cards_on_grid(pdf(folder, deck, "cards", paper, ink), PAPER[paper], (CARD_W, CARD_H), cols, rows, deck.gap,
                         turned) == list(grid)
    if deck.rules_grid:
        assert cards_on_grid(pdf(folder, deck, "rules-board", paper, ink), PAPER[paper], (CARD_W, CARD_H)) == \
            list(deck.rules_grid)


@each_ink
@each_paper
@each_deck
def test_backs_land_behind_their_fronts_on_a_long_edge_flip(deck, folder, paper, ink):
    backs = pdf(folder, deck, "backs", paper, ink)
    behind = backs_behind_fronts(pdf(folder, deck, "cards", paper, ink), backs, PAPER[paper], (CARD_W, CARD_H))
    assert len(set().union(*behind.values())) == deck.backs
    assert [len(placements(page)) for page in PdfReader(backs).pages] == list(deck.grid_on(paper))


@each_ink
@each_paper
@each_deck
def test_duplex_interleaves_fronts_and_backs(deck, folder, paper, ink):
    reader = PdfReader(pdf(folder, deck, "duplex", paper, ink))
    assert len(reader.pages) == 2 * len(deck.grid_on(paper))
    prefs = reader.trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/Duplex"] == "/DuplexFlipLongEdge" and prefs["/PrintScaling"] == "/None"
    fronts = PdfReader(pdf(folder, deck, "cards", paper, ink))
    backs = PdfReader(pdf(folder, deck, "backs", paper, ink))
    H = PAPER[paper][1] * MM
    for i in range(len(deck.grid_on(paper))):
        for duplex_page, single in ((reader.pages[2 * i], fronts.pages[i]), (reader.pages[2 * i + 1], backs.pages[i])):
            assert [trim_box_mm(p, CARD_W, CARD_H, H) for p in placements(duplex_page)] == \
                [trim_box_mm(p, CARD_W, CARD_H, H) for p in placements(single)]


def grid_kinds(deck):
    """The files whose every page is a grid of cards (the rules-board too, unless it holds boards)."""
    kinds = ["cards", "backs", "duplex"] + (["rules-board"] if deck.rules_grid else [])
    return [kind + suffix for kind in kinds for suffix in INKS.values()]


@pytest.mark.parametrize("deck, kind", [(deck, kind) for deck in DECKS for kind in grid_kinds(deck)],
                         ids=lambda v: str(v))
def test_page_boxes_are_nested_and_trim_covers_the_cards(deck, folder, kind):
    for paper in PAPER:
        check_page_boxes(folder / f"{deck.id}-{kind}-{paper}.pdf", PAPER[paper], (CARD_W, CARD_H))


@each_deck
def test_each_distinct_face_is_stored_once(deck, folder):
    reader = PdfReader(pdf(folder, deck, "duplex"))
    fronts, backs, placed = set(), set(), 0
    for i, page in enumerate(reader.pages):
        for p in placements(page):
            placed += 1
            (backs if i % 2 else fronts).add(p.name)
    stored = {ref.idnum for page in reader.pages for name, ref in page["/Resources"]["/XObject"].items()
              if name.startswith("/face")}
    assert placed == 2 * deck.cards
    assert (len(fronts), len(backs)) == (deck.fronts, deck.backs)
    assert len(stored) == len(fronts | backs) == deck.fronts + deck.backs
    # the marks and scale bar are stored once per page layout too: the fronts pages share one, and
    # the backs pages, which have no crop marks, another
    furniture = {ref.idnum for page in reader.pages for name, ref in page["/Resources"]["/XObject"].items()
                 if name.startswith("/sheet")}
    assert len(furniture) == deck.page_layouts


# --- fonts and text ------------------------------------------------------------------------------

@each_ink
@pytest.mark.parametrize("kind", KINDS)
@each_deck
def test_every_font_is_embedded(deck, folder, kind, ink):
    for paper in PAPER:
        reader = PdfReader(pdf(folder, deck, kind, paper, ink))
        found = fonts(reader)
        # a subset's name is a six-letter tag, "+", the font's own name
        assert {"NotoSans-CondensedBold", "NotoSans-Regular"} <= {name.split("+", 1)[1] for name in found}, found
        assert all(found.values()), found
        assert not any("Helvetica" in name for name in found)  # the SVG art brings no font of its own
        if paper == "a4" and kind in ("cards", "backs", "rules-board"):  # duplex and box show the same faces
            used = fonts_showing_text(reader)
            assert used and used <= set(found), (used, found)


@pytest.mark.parametrize("deck, kind", [(deck, kind) for deck in DECKS for kind in ("cards", "backs", "rules-board")],
                         ids=str)
def test_no_printed_text_is_smaller_than_the_decks_smallest_size(deck, folder, kind):
    sizes = text_sizes(pdf(folder, deck, kind))
    assert sizes and min(sizes) >= deck.smallest_pt, sorted(sizes.items())[:4]
    if kind == "rules-board":
        assert sum(sizes.values()) >= deck.rules_text  # the rule cards' text was all found


READABLE_PT = 7.0  # the least a word on a card is set at: rules, notes, names and footers alike (issue 31)


def lettered_runs(items, scale: float = 1.0):
    """Each run of text among `items` that holds a letter or a digit (an icon, a music glyph or a
    symbol is drawn to its own measure), with the scale the groups around it draw it at."""
    for item in items:
        if isinstance(item, Text) and any(c.isalnum() for c in item.text):
            yield item, scale
        elif isinstance(item, Group):
            a, b, c, d = item.transform[:4]
            yield from lettered_runs(item.items, scale * abs(a * d - b * c) ** 0.5)


@each_deck
def test_every_word_on_the_cards_is_7pt_or_larger_in_every_language(deck):
    """Composed as the build composes them (every card, board and pawn face, in each language the
    deck has), no run of words is smaller than READABLE_PT, and the deck asks `check` to warn of any
    text set smaller (its `min-size`), so a layout or text change that shrinks one is said at once."""
    loaded = load_deck(deck.id)
    assert loaded.min_size >= READABLE_PT * PT - 1e-9
    for language in loaded.languages:
        warn = Warnings()
        faces = compose_faces(load_deck(deck.id, lang=language), warn)
        small = sorted({(round(run.size * scale / PT, 2), run.text) for face in faces.distinct()
                        for run, scale in lettered_runs(face.items) if run.size * scale < READABLE_PT * PT - 1e-9})
        assert not small, (language, small[:6])
        assert not [w for w in warn if w.kind == "small-text"], language


@each_ink
@each_deck
def test_every_card_has_text_to_read(deck, folder, ink):
    """pdfium finds text inside every card's trim: names and numbers print as text, not paths."""
    path = pdf(folder, deck, "cards", "a4", ink)
    doc = pdfium.PdfDocument(str(path))
    try:
        texts = []
        for page, pdfium_page in zip(PdfReader(path).pages, doc):
            textpage = pdfium_page.get_textpage()
            H = pdfium_page.get_height()
            for p in placements(page):
                x0, y0, x1, y1 = trim_box_mm(p, CARD_W, CARD_H, H)
                texts.append(textpage.get_text_bounded(x0 * MM, H - y1 * MM, x1 * MM, H - y0 * MM).strip())
    finally:
        doc.close()
    assert len(texts) == deck.cards and all(texts)


@each_ink
@each_paper
@each_deck
def test_rule_card_titles_extract_as_text(deck, folder, paper, ink):
    """Every rule card's title can be found in the PDF: a title hyphenated over two lines too,
    since a "-" ending a line reads as a hyphenated break (pdfium's U+FFFE), the word whole."""
    path = pdf(folder, deck, "rules-board", paper, ink)
    text = " ".join(" ".join(page_text(path, i).replace("\ufffe\r\n", "").replace("\ufffe", "").split())
                    for i in range(len(PdfReader(path).pages)))
    for title in deck.rules:
        assert title in text, title


# --- low ink -------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
@each_deck
def test_low_ink_uses_black_ink_only(deck, folder, kind):
    reader = PdfReader(pdf(folder, deck, kind, ink="lowink"))
    counts, coloured = colour_operators(reader)
    assert set(counts) <= {b"k", b"K"} and counts.get(b"k"), counts
    assert not coloured, coloured[:3]
    for image in xobjects(reader, "/Image"):  # and no picture in colour
        assert image["/ColorSpace"] == "/DeviceGray", image["/ColorSpace"]


@each_paper
@each_deck
def test_low_ink_uses_a_fraction_of_the_colour_ink(deck, folder, paper):
    for kind in ("cards", "backs"):
        colour = darkness(pdf(folder, deck, kind, paper))
        low = darkness(pdf(folder, deck, kind, paper, "lowink"))
        assert low <= deck.low_ink * colour, (kind, low, colour)


# --- the same again ------------------------------------------------------------------------------

@each_deck
def test_rebuilding_gives_byte_identical_files(deck, folder, tmp_path):
    """A build of one paper (and ink) writes the same bytes as the full build: the documents of a
    build share their characters' codes, and those depend on the deck's text, not on which files
    the build makes or which came first."""
    paper, ink = deck.rebuild
    again = build_deck(deck.id, tmp_path, papers=[paper], inks=list(INKS) if ink == "all" else [ink])
    assert again.outputs
    for output in again.outputs:
        assert output.path.read_bytes() == (folder / output.path.name).read_bytes(), output.path.name


HYPHENATED_CARD_BREAKS = 5  # issue 31: at most this many on all bundled decks' card faces, both Kanon languages
HEADING_PT = 10.0  # the bundled decks set headings at this size or larger, text below it


def test_card_faces_are_seldom_hyphenated_and_headings_never(bundled_builds, shared_build):
    """Counted from the PDFs' text (a line ending in a hyphen inside a word, as pdfium reads it):
    the cards of all five decks, Kanon in German and in English, carry at most
    HYPHENATED_CARD_BREAKS hyphenated breaks, and no heading, on a card or a rules sheet, is
    hyphenated. (Before total-fit breaking there were 18 on the cards: "Da-nach", "ih-rem",
    "in-terval", "oth-er", "mea-sure"; and "Hexa-chords" in a title band.)"""
    from tests.pdfread import hyphenated_breaks

    builds = [bundled_builds(deck.id)[0] / f"{deck.id}-{{}}-a4.pdf" for deck in DECKS]
    english, _ = shared_build("kanon-en", "kanon", papers=["a4"], lang="en")
    builds.append(english / "kanon" / "kanon-en-{}-a4.pdf")
    on_cards = [found for pattern in builds for found in hyphenated_breaks(str(pattern).format("cards"))]
    assert len(on_cards) <= HYPHENATED_CARD_BREAKS, on_cards
    headings = [found for pattern in builds for kind in ("cards", "rules-board")
                for found in hyphenated_breaks(str(pattern).format(kind)) if found[2] >= HEADING_PT]
    assert headings == []


@pytest.mark.parametrize("paper", PAPER)
def test_a_page_the_pieces_fill_in_part_has_its_footer_at_its_foot_clear_of_their_marks(paper, bundled_builds):
    """Test Piece's second rules page holds one rule card and the pawn strip: its scale bar and
    label stood under them, 56 mm above the page foot, on the strip's crop marks (issue 36).
    The footer is at the page foot now, below every mark (which reach 5 mm past a trim)."""
    from tests.pdfread import text_lines
    folder = bundled_builds("test-piece")[0]
    path = folder / f"test-piece-rules-board-{paper}.pdf"
    W, H = PAPER[paper]
    page = PdfReader(path).pages[1]
    # each piece's form box (its trim and 3 mm bleed) on the page; marks reach 5 mm past the trim
    lowest = max(p.point_mm(x, y, H * MM)[1] for p in placements(page) for x in p.bbox[0::2] for y in p.bbox[1::2])
    (label,) = [box for text, box in text_lines(path, 1) if "page 2/" in text]
    assert H - label[3] <= 10.0, H - label[3]
    assert label[1] >= lowest - 3.0 + 5.0 + 1.0, (label, lowest)


@each_deck
def test_every_pdf_of_the_build_passes_qpdfs_check_and_home_sheets_are_compact(deck, folder):
    """libqpdf's check (what `qpdf --check` reports) over every PDF the bundled build writes, not
    only the print shop's files; the home sheets are PDF 1.5 with their small objects and their
    cross-reference in compressed streams (issue 37)."""
    import pikepdf

    paths = sorted(folder.glob("*.pdf"))
    assert len(paths) >= 16
    for path in paths:
        with pikepdf.Pdf.open(path) as pdf:
            assert pdf.check_pdf_syntax() == [], path.name
            assert pdf.pdf_version == "1.5", path.name
        head = path.read_bytes()[-64:]
        assert b"startxref" in head and b"/Type /ObjStm" in path.read_bytes(), path.name
