"""Text setting: markup, fallback fonts, icons, wrapping, and shrinking to fit width and height."""

from __future__ import annotations

import math

import pytest

from deckpress.colors import BLACK, RGB
from deckpress.compose import text as text_module
from deckpress.compose.text import SIZE_STEP, block_height, fit_lines, glyph_icon, parse, set_text, shape_icon
from deckpress.compose.text import wrap as wrap_lines
from deckpress.face import Ellipse, Text
from deckpress.fonts import FontSet
from deckpress.units import PT

FONTS = FontSet()
SANS = FONTS.families["sans"]
MUSIC = FONTS.families["music"].file("regular")
ICONS = {"sharp": glyph_icon("sharp", MUSIC, "♯", 1.0, None), "red": shape_icon("red", "circle", RGB(1, 0, 0))}


def fit(text, box=(0, 0, 50, 20), size=10 * PT, min_size=5 * PT, align="left", valign="top", shrink=True, wrap=True):
    return set_text(text, box, SANS, "regular", FONTS, ICONS, size, min_size, BLACK, align, valign, 1.2, shrink, wrap)


def texts(items):
    return [i for i in items if isinstance(i, Text)]


def test_markup_switches_fonts_and_keeps_spaces_in_runs():
    items = texts(fit("plain **bold** *italic* plain").items)
    assert [(t.text, t.font.rsplit("/", 1)[-1]) for t in items] == [
        ("plain ", "NotoSans-Regular.ttf"), ("bold", "NotoSans-Bold.ttf"), (" ", "NotoSans-Regular.ttf"),
        ("italic", "NotoSans-Italic.ttf"), (" plain", "NotoSans-Regular.ttf")]
    # runs follow each other without gaps: each starts where the previous one ended
    for a, b in zip(items, items[1:]):
        assert b.x == pytest.approx(a.x + FONTS.families["sans"].file("regular" if "Regular" in a.font else
                                                                     "bold" if "Bold" in a.font else "italic").width(a.text) * a.size)


def test_characters_missing_from_the_font_fall_back_to_the_music_font():
    result = fit("C♯ minor")
    fonts = {t.text: t.font.rsplit("/", 1)[-1] for t in texts(result.items)}
    assert fonts["♯"] == "NotoMusic-Regular.ttf"
    assert not result.missing
    assert fit("a 一 b").missing == {"一"}  # no bundled font has CJK


def test_arrows_come_from_the_math_font():
    result = fit("↑↑ 3")
    fonts = {t.text: t.font.rsplit("/", 1)[-1] for t in texts(result.items)}
    assert fonts["↑↑"] == "NotoSansMath-Regular.ttf" and not result.missing


def test_icons_are_drawn_inside_the_line():
    items = fit("play :red: then :sharp:").items
    assert any(isinstance(i, Ellipse) and i.paint.fill == RGB(1, 0, 0) for i in items)
    sharp = [t for t in texts(items) if t.text == "♯"]
    assert sharp and sharp[0].font.endswith("NotoMusic-Regular.ttf")
    with pytest.raises(ValueError, match="unknown icon ':nope:'"):
        fit("a :nope: b")


def test_escapes_keep_stars_and_colons():
    assert "".join(t.text for t in texts(fit(r"5 \* 3 \:red\: ok").items)) == "5 * 3 :red: ok"


def test_long_text_wraps_inside_the_width():
    result = fit("word " * 40, box=(0, 0, 40, 100), shrink=False)
    lines = sorted({round(t.y, 4) for t in texts(result.items)})
    assert len(lines) > 3
    for t in texts(result.items):
        assert t.x >= -1e-9 and t.x + SANS.file("regular").width(t.text) * t.size <= 40 + 1e-6


def test_shrinks_until_it_fits_both_width_and_height():
    tall = fit("one\ntwo\nthree\nfour\nfive\nsix", box=(0, 0, 50, 15))
    assert tall.fits and tall.size < 10 * PT
    wide = fit("incomprehensibilities", box=(0, 0, 20, 50))
    assert wide.fits and wide.size < 10 * PT
    assert SANS.file("regular").width("incomprehensibilities") * wide.size <= 20
    short = fit("short", box=(0, 0, 50, 15))
    assert short.size == 10 * PT


def test_reports_text_that_cannot_fit_even_at_the_minimum():
    result = fit("word " * 400, box=(0, 0, 20, 10))
    assert not result.fits and result.size == pytest.approx(5 * PT)


@pytest.mark.parametrize("align", ["left", "center", "right"])
def test_alignment(align):
    (t,) = texts(fit("hello", box=(10, 0, 50, 20), align=align).items)
    width = SANS.file("regular").width("hello") * t.size
    expected = {"left": 10, "center": 10 + (50 - width) / 2, "right": 60 - width}[align]
    assert t.x == pytest.approx(expected)


def test_vertical_alignment_centres_the_block():
    top = texts(fit("x", box=(0, 0, 50, 30), valign="top").items)[0].y
    middle = texts(fit("x", box=(0, 0, 50, 30), valign="middle").items)[0].y
    bottom = texts(fit("x", box=(0, 0, 50, 30), valign="bottom").items)[0].y
    assert top < middle < bottom
    assert middle - top == pytest.approx(bottom - middle)


def test_paragraphs_and_bullets():
    lines = parse("first\n\nsecond\n- item", SANS, "regular", FONTS, ICONS)
    assert [l.paragraph_start for l in lines] == [True, True, False]
    assert lines[2].bullet is not None and lines[0].bullet is None
    items = texts(fit("- a bullet that is long enough to wrap onto a second line", box=(0, 0, 30, 40), shrink=False).items)
    bullet, first, second = items[0], items[1], items[2]
    assert bullet.text == "•" and second.x == pytest.approx(first.x)  # hanging indent


def test_no_wrap_keeps_one_line_and_shrinks_to_the_width():
    result = fit("a fairly long single line", box=(0, 0, 20, 20), wrap=False)
    assert len({t.y for t in texts(result.items)}) == 1 and result.fits


# --- the search for the size, and the caches ----------------------------------------------------

def grid(size, min_size, shrink):
    """The sizes fit_lines chooses from, largest first: `size - k·SIZE_STEP`, the last `min_size`."""
    if not shrink or min_size >= size:
        return [size]
    steps = max(1, math.ceil((size - min_size) / SIZE_STEP - 1e-6))
    return [size - k * SIZE_STEP for k in range(steps)] + [min_size]


def fits_at(lines, w, h, s, wrap, line_height=1.2, hyphenate=None):
    set_lines, width_ok = wrap_lines(lines, w / s, wrap, hyphenate)
    return set_lines, width_ok and block_height(set_lines, line_height) * s <= h + 1e-9


def linear_fit(text, w, h, size, min_size, line_height=1.2, shrink=True, wrap=True):
    """Every size of the grid from the top, in turn: what the bisection must find."""
    lines = parse(text, SANS, "regular", FONTS, ICONS)
    sizes = grid(size, min_size, shrink)
    for candidate in sizes:
        set_lines, ok = fits_at(lines, w, h, candidate, wrap, line_height)
        if ok:
            return set_lines, candidate, True
    return set_lines, sizes[-1], False


SAMPLE = ("word " * 60, "one\ntwo\nthree\nfour\nfive\nsix", "incomprehensibilities and more",
          "- a bullet that is long enough to wrap onto a second line\n\nthen **bold** text :red: *on*",
          "short", "x")


@pytest.mark.parametrize("text", SAMPLE)
def test_the_bisected_size_is_the_largest_of_the_grid_that_fits(text):
    """Against the size loop tried at every 0.01 pt, where that is quick enough; elsewhere the
    size found fits and the one a step above does not."""
    lines = parse(text, SANS, "regular", FONTS, ICONS)
    outcomes = set()
    for w in (0.0, 3, 8, 15, 22.5, 40, 63.5):
        for h in (2, 5, 9.3, 20, 55):
            for size, min_size in ((10 * PT, 5 * PT), (14 * PT, 4 * PT), (9 * PT, 9 * PT), (30 * PT, 2 * PT)):
                for shrink, wrap in ((True, True), (True, False), (False, True)):
                    got = fit_lines(lines, w, h, size, min_size, 1.2, shrink, wrap)
                    sizes = grid(size, min_size, shrink)
                    assert got[1] in sizes
                    k = sizes.index(got[1])
                    assert fits_at(lines, w, h, got[1], wrap) == (got[0], got[2])
                    if got[2]:
                        assert k == 0 or not fits_at(lines, w, h, sizes[k - 1], wrap)[1]  # the next size up does not
                    else:
                        assert k == len(sizes) - 1  # nothing fits: the smallest
                    if w in (8, 40) and h in (5, 20) and size == 10 * PT:
                        assert got == linear_fit(text, w, h, size, min_size, shrink=shrink, wrap=wrap)
                    outcomes.add((got[1] == size, got[2]))
    assert outcomes == {(True, True), (False, True), (True, False), (False, False)}  # every case was met


def test_the_size_is_found_to_a_hundredth_of_a_point_and_the_same_every_time():
    lines = parse("a text that has to shrink quite a bit to fit " * 4, SANS, "regular", FONTS, ICONS)
    first = fit_lines(lines, 40, 12, 10 * PT, 4 * PT, 1.2, True, True)
    assert first[2] and 4 * PT < first[1] < 10 * PT
    assert not fits_at(lines, 40, 12, first[1] + 0.01 * PT, True)[1]  # a hundredth of a point more does not fit
    # not on the old 0.25 pt grid: the size is any hundredth, not a quarter
    assert round((10 * PT - first[1]) / (0.01 * PT)) % 25 != 0
    text_module.cache_clear()
    again = fit_lines(lines, 40, 12, 10 * PT, 4 * PT, 1.2, True, True)
    assert again[1] == first[1]  # the same float, bit for bit


def test_a_cached_box_equals_a_freshly_set_one_and_is_the_callers_own():
    args = ("**Draw** two :red: cards\n\n- then :sharp: discard one", (3, 4, 40, 9), SANS, "regular", FONTS, ICONS,
            10 * PT, 5 * PT, BLACK, "center", "middle", 1.2, True, True)
    text_module.cache_clear()
    fresh = set_text(*args)
    cached = set_text(*args)
    assert cached == fresh and cached.items is not fresh.items and cached.fits and cached.size < 10 * PT
    cached.items.clear()
    cached.missing.add("x")
    assert set_text(*args) == fresh


def test_boxes_alike_in_all_but_one_setting_are_not_confused():
    base = dict(box=(0, 0, 40, 20), size=10 * PT, min_size=5 * PT, align="left", valign="top", shrink=True, wrap=True)
    text = "play :red: then a long sentence of words " * 3
    first = fit(text, **base)
    for change in ({"box": (1, 0, 40, 20)}, {"box": (0, 0, 30, 20)}, {"size": 9 * PT}, {"align": "right"},
                   {"valign": "bottom"}, {"shrink": False}, {"wrap": False}):
        assert fit(text, **{**base, **change}) != first, change
    other_icons = {**ICONS, "red": shape_icon("red", "circle", RGB(0, 0, 1))}
    blue = set_text(text, base["box"], SANS, "regular", FONTS, other_icons, 10 * PT, 5 * PT, BLACK, "left", "top", 1.2,
                    True, True)
    assert [i.paint.fill for i in blue.items if isinstance(i, Ellipse)][0] == RGB(0, 0, 1)
    mine = FontSet({"sans": {"regular": FONTS.families["sans"].files["bold"]}})
    assert mine != FONTS and FontSet() == FONTS and hash(FontSet()) == hash(FONTS)
    bold = set_text("plain", base["box"], mine.families["sans"], "regular", mine, {}, 10 * PT, 5 * PT, BLACK, "left",
                    "top", 1.2, True, True)
    assert texts(bold.items)[0].font.endswith("NotoSans-Bold.ttf")


def test_an_unknown_icon_is_suggested_from_all_icons_even_when_cached():
    for _ in range(2):
        with pytest.raises(ValueError) as exc:
            fit("a :shrap: b")
        assert exc.value.args[1:] == ("shrap", ["red", "sharp"])


def test_the_caches_are_bounded():
    text_module.cache_clear()
    for i in range(text_module.SET_CACHE + 50):
        fit(f"card {i} here", box=(0, 0, 50, 20))
    for cache in (text_module._set_text, text_module._parse, text_module._spaced_word, text_module._runs):
        info = cache.cache_info()
        assert info.maxsize is not None and 0 < info.currsize <= info.maxsize
    assert text_module._set_text.cache_info().currsize == text_module.SET_CACHE


def _runs_char_by_char(text, family, style, fonts):
    """How runs were made before words in one font were measured in one go: a run a character."""
    from deckpress.compose.text import Run

    primary = family.file(style)
    missing, runs = set(), []
    for char in text:
        font = fonts.font_for(char, primary, style)
        if not font.has(char) and char not in " \u00a0":
            missing.add(char)
        if runs and runs[-1].font is font:
            runs[-1] = Run(font, runs[-1].text + char, runs[-1].width + font.advance(char))
        else:
            runs.append(Run(font, char, font.advance(char)))
    return tuple(runs), frozenset(missing)


@pytest.mark.parametrize("text", ["", " ", "\u00a0", "word", "Wörter,", "a b", "C♯4", "♯♯x", "x♭", "\ue000",
                                  "a\ue000b", "→ ↻ ⇈", "Straße\u00a0", "🂡 card"])
@pytest.mark.parametrize("style", ["regular", "bold", "bolditalic"])
def test_runs_are_measured_as_character_by_character(text, style):
    """A word the primary font draws all of is one run measured in one go; others are split by
    the font of each character. Widths are summed left to right either way: the same floats."""
    text_module.cache_clear()
    assert text_module._runs(text, SANS, style, FONTS) == _runs_char_by_char(text, SANS, style, FONTS)


def test_plain_is_markup_as_a_player_reads_it():
    """Names leave the card as plain text (file names, manifest.csv, Tabletop Simulator)."""
    from deckpress.compose.text import plain
    glyphs = {"flat-sign": "♭", "sharp": "♯"}
    assert plain("E:flat-sign: Bass", glyphs) == "E♭ Bass"
    assert plain("**C**:sharp:/*D*:flat-sign:", glyphs) == "C♯/D♭"
    assert plain(r"3 \* 4 \: x", glyphs) == "3 * 4 : x"
    assert plain("Voices :s: :a:  here", glyphs) == "Voices here"  # pictures read as nothing
