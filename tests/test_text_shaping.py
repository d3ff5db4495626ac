"""Shaping (`deckpress.text.shaping`): kerning, ligatures, features, Arabic joining, Indic reordering,
and the bidirectional algorithm's levels and visual order."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckpress.bundled import FONTS_DIR
from deckpress.text.fonts import open_font
from deckpress.text.shaping import bidi_levels, shape, visual_runs

LATIN = str(FONTS_DIR / "NotoSans-Regular.ttf")
TEST_FONTS = Path(__file__).parent / "fonts"
NOTO = Path("/usr/share/fonts/truetype/noto")


def font(name: str) -> str:
    """A test font: the tests' own copy, else Debian's (fonts-noto-core)."""
    for folder in (TEST_FONTS, NOTO):
        if (folder / name).is_file():
            return str(folder / name)
    pytest.skip(f"{name} is not in tests/fonts/ (nor in {NOTO})")


@pytest.mark.parametrize("text", ["AVATAR", "To", "Wave", "fjord"])
def test_kerning_pairs_sit_closer_than_the_advances_alone(text):
    advances = open_font(LATIN).width(text)
    shaped = shape(text, LATIN)
    assert len(shaped.glyphs) == len(text)
    assert shaped.width < advances - 0.01  # em: "AV", "To", "Wa", "fj" are kerned in Noto Sans


def test_ligatures_are_on_by_default_and_a_feature_turns_them_off():
    assert len(shape("office", LATIN).glyphs) == 4  # "ffi" is one glyph
    assert len(shape("office", LATIN, features=("-liga",)).glyphs) == 6
    assert [g.chars for g in shape("office", LATIN).glyphs] == ["o", "ffi", "c", "e"]  # the ligature stands for "ffi"


def test_a_feature_asked_for_is_applied():
    plain = [g.gid for g in shape("Rare", LATIN).glyphs]
    small_caps = [g.gid for g in shape("Rare", LATIN, features=("smcp",)).glyphs]
    assert small_caps[0] == plain[0] and small_caps[1:] != plain[1:]  # the capital stays, the rest become small caps


def test_arabic_letters_join_and_come_right_to_left():
    arabic = font("NotoSansArabic-Regular.ttf")
    alone = shape("ب", arabic).glyphs[0].gid
    word = shape("ببب", arabic).glyphs
    assert [g.chars for g in shape("بتث", arabic).glyphs] == ["ث", "ت", "ب"]  # visual order: the last letter leftmost
    assert len({g.gid for g in word}) == 3 and alone not in {g.gid for g in word}  # final, medial, initial forms


def test_devanagari_vowel_sign_i_is_drawn_before_its_consonant():
    devanagari = font("NotoSansDevanagari-Regular.ttf")
    ka_i = shape("कि", devanagari).glyphs
    ka = shape("क", devanagari).glyphs[0].gid
    assert len(ka_i) == 2 and ka_i[1].gid == ka and ka_i[0].gid != ka  # the matra is drawn first, on the left
    assert [g.chars for g in ka_i] == ["कि", ""]  # the cluster reads once, from its first glyph


def test_numbers_in_right_to_left_text_read_left_to_right():
    hebrew = font("NotoSansHebrew-Regular.ttf")
    glyphs = shape("מספר 2024", hebrew).glyphs
    assert "".join(g.chars for g in glyphs) == "2024 רפסמ"  # seen left to right
    assert [g.x for g in glyphs] == sorted(g.x for g in glyphs)


@pytest.mark.parametrize("text, direction, levels", [
    ("abc", "auto", "000"),
    ("אבג", "auto", "111"),
    ("ab אב cd", "auto", "00011000"),  # the spaces between L and R take the paragraph's direction
    ("אב 12 גד", "auto", "11122111"),  # numbers in R text are level 2
    ("אב 1.5 גד", "auto", "111222111"),  # a separator between numbers joins them (W4)
    ("ab 12% cd", "auto", "000000000"),  # a terminator beside a number is a number (W5), then L (W7)
    ("abc ", "rtl", "2221"),  # L in an RTL paragraph is level 2; trailing space the paragraph's (L1)
    ("!?", "auto", "00"),  # no strong character: left to right
    ("عدد 12", "auto", "111122"),  # European digits after Arabic letters are Arabic numbers (W2)
])
def test_bidi_levels(text, direction, levels):
    assert "".join(map(str, bidi_levels(text, direction))) == levels


def test_visual_runs_reverse_each_stretch_from_the_highest_level_down():
    levels = (0, 0, 1, 1, 2, 2, 1, 0)
    assert visual_runs(levels) == [(0, 2), (6, 7), (4, 6), (2, 4), (7, 8)]
    assert visual_runs(()) == []


def test_shaping_is_cached_and_the_same_every_time():
    from deckpress.text.shaping import shape_run

    assert shape("Richtungswechsel", LATIN) is shape("Richtungswechsel", LATIN)
    assert shape("Richtungswechsel", LATIN) == shape_run.__wrapped__("Richtungswechsel", LATIN)
    assert shape("שלום abc", LATIN).glyphs == shape("שלום abc", LATIN).glyphs  # the runs of mixed text too
