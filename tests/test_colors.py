"""deckpress.colors: hex and named colours, tints, and what a greyscale printer makes of them."""

from __future__ import annotations

import pytest

from deckpress.colors import (BLACK, CMYK, INK_LIMIT, NAMED, WHITE, RGB, Gray, parse_color, parse_hex, parse_opacity,
                              to_cmyk)

PALETTE = {"red": RGB(0.8, 0.2, 0.2), "ink": Gray(0.25), "cyan": CMYK(1.0, 0.0, 0.0, 0.0)}


def rgb_approx(color):
    assert isinstance(color, RGB)
    return pytest.approx((color.r, color.g, color.b))


# --- hex ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, rgb", [
    ("#000000", (0, 0, 0)),
    ("#ffffff", (255, 255, 255)),
    ("#d7263d", (0xd7, 0x26, 0x3d)),
    ("#D7263D", (0xd7, 0x26, 0x3d)),
    ("#abc", (0xaa, 0xbb, 0xcc)),
    ("#F00", (255, 0, 0)),
    ("  #102030 ", (0x10, 0x20, 0x30)),
])
def test_parse_hex(text, rgb):
    color = parse_hex(text)
    assert (color.r, color.g, color.b) == pytest.approx(tuple(v / 255 for v in rgb))


@pytest.mark.parametrize("text", ["#", "#ff", "#ff00", "#ff000", "#ff00000", "#ggg", "ff0000", "red"])
def test_parse_hex_rejects_other_text(text):
    assert parse_hex(text) is None


@pytest.mark.parametrize("text", ["#d7263d", "#000000", "#ffffff", "#0a0b0c"])
def test_hex_round_trips(text):
    assert parse_hex(text).hex == text


def test_parse_color_reads_hex():
    assert parse_color("#ff0000", {}) == RGB(1.0, 0.0, 0.0)


@pytest.mark.parametrize("text", ["#ff000", "#xyz", "#12345g"])
def test_bad_hex_names_the_expected_forms(text):
    with pytest.raises(ValueError, match=f"'{text}' is not a hex colour; expected #rgb or #rrggbb"):
        parse_color(text, {})


# --- names, none -------------------------------------------------------------------------------

@pytest.mark.parametrize("text, color", [
    ("black", BLACK),
    ("white", WHITE),
    ("Black", BLACK),
    ("WHITE", WHITE),
    ("gray", RGB(0.5, 0.5, 0.5)),
    ("grey", RGB(0.5, 0.5, 0.5)),
    (" black ", BLACK),
])
def test_built_in_names(text, color):
    assert parse_color(text, {}) == color


def test_names_from_the_deck_and_their_kinds():
    assert parse_color("red", PALETTE) == RGB(0.8, 0.2, 0.2)
    assert parse_color("ink", PALETTE) == Gray(0.25)
    assert parse_color("cyan", PALETTE) == CMYK(1.0, 0.0, 0.0, 0.0)


def test_deck_names_take_precedence_over_built_in_names():
    assert parse_color("black", {"black": Gray(0.1)}) == Gray(0.1)


def test_deck_names_are_case_sensitive():
    with pytest.raises(ValueError, match="unknown colour 'Red'"):
        parse_color("Red", PALETTE)


@pytest.mark.parametrize("text", ["none", "None", "NONE", "transparent", " Transparent "])
def test_no_paint(text):
    assert parse_color(text, PALETTE) is None


@pytest.mark.parametrize("text", ["purple", "", "red!", "light red"])
def test_unknown_colour(text):
    with pytest.raises(ValueError, match="unknown colour"):
        parse_color(text, PALETTE)


@pytest.mark.parametrize("value", [0xff0000, 1.0, ["red"]])
def test_non_text_is_refused_naming_what_was_expected(value):
    with pytest.raises(ValueError, match="expected a colour like '#d7263d', a colour name or 'none'"):
        parse_color(value, PALETTE)


def test_no_value_is_no_colour_given():
    """`color:` with nothing after it (or `#c8283c` unquoted, which YAML reads as a comment)."""
    with pytest.raises(ValueError) as err:
        parse_color(None, PALETTE)
    assert str(err.value) == "no colour given"


# --- tints -------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("red 20%", (0.96, 0.84, 0.84)),      # 1 - 0.2 * (1 - c)
    ("red 100%", (0.8, 0.2, 0.2)),
    ("red 0%", (1.0, 1.0, 1.0)),
    ("black 50%", (0.5, 0.5, 0.5)),
    ("#000 12.5%", (0.875, 0.875, 0.875)),
    ("red   50%", (0.9, 0.6, 0.6)),
    ("red 50% 50%", (0.95, 0.8, 0.8)),    # a tint of a tint
])
def test_rgb_tints(text, expected):
    assert rgb_approx(parse_color(text, PALETTE)) == expected


def test_tints_keep_the_kind_of_paint():
    gray = parse_color("ink 50%", PALETTE)
    assert isinstance(gray, Gray) and gray.level == pytest.approx(0.625)
    cmyk = parse_color("cyan 40%", PALETTE)
    assert isinstance(cmyk, CMYK)
    assert (cmyk.c, cmyk.m, cmyk.y, cmyk.k) == pytest.approx((0.4, 0.0, 0.0, 0.0))


@pytest.mark.parametrize("text", ["red 150%", "none 20%", "transparent 50%"])
def test_bad_tints_name_the_expected_form(text):
    with pytest.raises(ValueError, match="a tint is a colour and a percentage from 0% to 100%"):
        parse_color(text, PALETTE)


def test_tint_of_an_unknown_colour_names_the_colour():
    with pytest.raises(ValueError, match="unknown colour 'purple'"):
        parse_color("purple 20%", PALETTE)


# --- luma --------------------------------------------------------------------------------------

@pytest.mark.parametrize("color, luma", [
    (BLACK, 0.0),
    (WHITE, 1.0),
    (RGB(1, 0, 0), 0.299),
    (RGB(0, 1, 0), 0.587),
    (RGB(0, 0, 1), 0.114),
    (RGB(0.5, 0.5, 0.5), 0.5),
])
def test_rgb_luma_is_itu_601(color, luma):
    assert color.luma == pytest.approx(luma)


def test_pure_red_and_half_green_have_nearly_equal_luma():
    """The trap low-ink must handle: (255,0,0) and (0,128,0) look alike in grey."""
    red, green = parse_color("#ff0000", {}), parse_color("#008000", {})
    assert red.luma == pytest.approx(0.299)
    assert green.luma == pytest.approx(0.587 * 128 / 255)
    assert abs(red.luma - green.luma) < 0.005
    assert red != green


@pytest.mark.parametrize("level", [0.0, 0.3, 1.0])
def test_gray_luma_is_its_level(level):
    assert Gray(level).luma == level


@pytest.mark.parametrize("color, luma", [
    (CMYK(0, 0, 0, 0), 1.0),
    (CMYK(0, 0, 0, 1), 0.0),
    (CMYK(1, 1, 1, 0), 0.0),
    (CMYK(0, 0, 0, 0.5), 0.5),
    (CMYK(1, 0, 0, 0), 0.587 + 0.114),     # cyan = no red
    (CMYK(0, 1, 0, 0), 0.299 + 0.114),     # magenta = no green
    (CMYK(0, 0, 1, 0), 0.299 + 0.587),     # yellow = no blue
    (CMYK(0, 1, 1, 0.5), 0.299 * 0.5),     # a dark red
])
def test_cmyk_luma(color, luma):
    assert color.luma == pytest.approx(luma)


def test_tinting_lightens_every_kind_of_paint():
    for color in (RGB(0.2, 0.4, 0.1), Gray(0.2), CMYK(0.1, 0.6, 0.9, 0.3)):
        assert color.tint(0.5).luma > color.luma
        assert color.tint(0.0).luma == pytest.approx(1.0)
        assert color.tint(1.0).luma == pytest.approx(color.luma)
        assert type(color.tint(0.5)) is type(color)


@pytest.mark.parametrize("amount, level", [(0.0, 1.0), (0.25, 0.85), (1.0, 0.4)])
def test_gray_tint(amount, level):
    assert Gray(0.4).tint(amount).level == pytest.approx(level)


def test_cmyk_tint_scales_all_inks():
    tinted = CMYK(0.2, 0.4, 0.6, 0.8).tint(0.5)
    assert (tinted.c, tinted.m, tinted.y, tinted.k) == pytest.approx((0.1, 0.2, 0.3, 0.4))


@pytest.mark.parametrize("level, text", [(0.0, "#000000"), (1.0, "#ffffff"), (0.5, "#808080")])
def test_gray_hex(level, text):
    assert Gray(level).hex == text


def test_paints_are_hashable_values():
    assert len({RGB(1, 0, 0), RGB(1.0, 0.0, 0.0), Gray(0.5), Gray(0.5), CMYK(0, 0, 0, 1)}) == 3
    with pytest.raises(AttributeError):
        RGB(1, 0, 0).r = 0.5  # type: ignore[misc]


def test_named_words():
    assert set(NAMED) == {"black", "white", "gray", "grey"}


# --- process colours (CMYK) ---------------------------------------------------------------------

@pytest.mark.parametrize("color, cmyk", [
    (RGB(1, 0, 0), (0, 1, 1, 0)),
    (RGB(0, 1, 0), (1, 0, 1, 0)),
    (RGB(0, 0, 1), (1, 1, 0, 0)),
    (WHITE, (0, 0, 0, 0)),
    (BLACK, (0, 0, 0, 1)),  # black ink only, never rich black
    (RGB(0.5, 0.5, 0.5), (0, 0, 0, 0.5)),
    (RGB(1, 0.5, 0), (0, 0.5, 1, 0)),
    (RGB(0.4, 0.2, 0.2), (0, 0.5, 0.5, 0.6)),  # grey component replacement: the grey part is K
    (Gray(0.25), (0, 0, 0, 0.75)),
    (CMYK(0.1, 0.2, 0.3, 0.4), (0.1, 0.2, 0.3, 0.4)),  # process colours are kept as they are
])
def test_to_cmyk(color, cmyk):
    ink = to_cmyk(color)
    assert isinstance(ink, CMYK)
    assert (ink.c, ink.m, ink.y, ink.k) == pytest.approx(cmyk)


GRID = [RGB(r / 10, g / 10, b / 10) for r in range(11) for g in range(11) for b in range(11)]


def test_total_ink_stays_within_the_limit_and_greys_are_black_ink_only():
    assert INK_LIMIT <= 2.4  # OneBookShelf's cap
    for color in GRID:
        ink = to_cmyk(color)
        assert ink.c + ink.m + ink.y + ink.k <= INK_LIMIT + 4e-4, color
        assert all(0 <= v <= 1 for v in (ink.c, ink.m, ink.y, ink.k)), color
        if color.r == color.g == color.b:
            assert ink.c == ink.m == ink.y == 0 and ink.k == pytest.approx(1 - color.r), color


def test_colours_within_the_limit_look_the_same_to_a_naive_viewer():
    """(1 - c)(1 - k) gives the RGB channel back, so the hue is kept; only dark saturated colours
    over the ink limit come back lighter in the inks they lost."""
    kept = 0
    for color in GRID:
        ink = to_cmyk(color)
        back = [(1 - v) * (1 - ink.k) for v in (ink.c, ink.m, ink.y)]
        if ink.c + ink.m + ink.y + ink.k < INK_LIMIT - 1e-3:
            assert back == pytest.approx([color.r, color.g, color.b], abs=2e-4), color
            kept += 1
        else:  # the brightest channel (hence the hue's lightness) is kept, the others lighten
            assert max(back) == pytest.approx(max(color.r, color.g, color.b), abs=2e-4), color
            assert all(b >= v - 2e-4 for b, v in zip(back, (color.r, color.g, color.b))), color
    assert kept > 0.8 * len(GRID)


def test_dark_red_needs_the_ink_limit():
    ink = to_cmyk(RGB(0.5, 0, 0))  # plain GCR: K 50 %, M and Y 100 %: 250 % of ink
    assert ink.c + ink.m + ink.y + ink.k == pytest.approx(INK_LIMIT)
    assert ink.k == 0.5 and ink.m == ink.y and ink.c == 0


def test_process_colours_are_rounded_values():
    color = RGB(0.123456, 0.654321, 0.333333)
    ink = to_cmyk(color)
    assert all(v == round(v, 4) for v in (ink.c, ink.m, ink.y, ink.k))
    assert to_cmyk(color) == ink and hash(to_cmyk(color)) == hash(ink)


# --- opacity -----------------------------------------------------------------------------------

@pytest.mark.parametrize("value, opacity", [(0, 0.0), (1, 1.0), (0.4, 0.4), ("0.4", 0.4), ("40%", 0.4), (" 100% ", 1.0),
                                            ("0%", 0.0), ("12.5%", 0.125)])
def test_opacity_is_a_number_from_0_to_1_or_a_percentage(value, opacity):
    assert parse_opacity(value) == pytest.approx(opacity)


@pytest.mark.parametrize("value", [1.5, -0.1, "150%", "half", "", "nan", True, None, [0.5]])
def test_other_opacities_are_refused_saying_what_is_expected(value):
    with pytest.raises(ValueError, match="expected an opacity from 0 to 1 or a percentage like 40%"):
        parse_opacity(value)


@pytest.mark.parametrize("value, opacity", [(1.5, 1.0), ("-20%", 0.0), ("0.3", 0.3)])
def test_a_clamped_opacity_takes_the_nearest_end(value, opacity):
    assert parse_opacity(value, clamp=True) == pytest.approx(opacity)
