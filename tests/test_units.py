"""deckpress.units: lengths parsed to mm + % of the extent + k·bleed, resolved later."""

from __future__ import annotations

import pytest

from deckpress.units import EXAMPLES, MM_PER_UNIT, PT, Length, parse_absolute, parse_length


def approx_length(mm: float = 0.0, pct: float = 0.0, bleed: float = 0.0):
    """A Length compared field by field with floating-point tolerance."""
    return pytest.approx((mm, pct, bleed))


def fields(length: Length) -> tuple[float, float, float]:
    return (length.mm, length.pct, length.bleed)


# --- units -------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, mm", [
    ("12mm", 12.0),
    ("1.5cm", 15.0),
    ("1in", 25.4),
    ("0.125in", 3.175),
    ("72pt", 25.4),
    ("9pt", 9 * 25.4 / 72),
    (".5mm", 0.5),
    ("3.mm", 3.0),
    ("  4mm  ", 4.0),
])
def test_units_convert_to_millimetres(text, mm):
    assert fields(parse_length(text)) == approx_length(mm=mm)


def test_unit_table_and_point_constant():
    assert MM_PER_UNIT == {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": pytest.approx(25.4 / 72)}
    assert PT == pytest.approx(0.352777, abs=1e-6)


def test_percent_and_bleed_stay_symbolic():
    assert parse_length("50%") == Length(pct=50.0)
    assert parse_length("bleed") == Length(bleed=1.0)
    assert parse_length("-bleed") == Length(bleed=-1.0)


# --- sums, products, parentheses ---------------------------------------------------------------

@pytest.mark.parametrize("text, mm, pct, bleed", [
    ("100% - 8mm", -8.0, 100.0, 0.0),
    ("100%-8mm", -8.0, 100.0, 0.0),
    ("100% + 2*bleed", 0.0, 100.0, 2.0),
    ("1in + 1cm + 1mm", 36.4, 0.0, 0.0),
    ("10mm - 2mm - 3mm", 5.0, 0.0, 0.0),             # left-associative
    ("2 * 3mm + 1mm", 7.0, 0.0, 0.0),                # * binds tighter than +
    ("2 * (3mm + 1mm)", 8.0, 0.0, 0.0),
    ("(100% - 10mm) / 2", -5.0, 50.0, 0.0),
    ("12mm / 2 / 3", 2.0, 0.0, 0.0),                 # left-associative
    ("3mm * 2", 6.0, 0.0, 0.0),
    ("-(3mm + 2mm)", -5.0, 0.0, 0.0),
    ("--3mm", 3.0, 0.0, 0.0),
    ("2 * -3mm", -6.0, 0.0, 0.0),
    ("(2 + 1) * 4mm", 12.0, 0.0, 0.0),               # plain numbers may be combined first
    ("50% - bleed / 2", 0.0, 50.0, -0.5),
    ("((1mm))", 1.0, 0.0, 0.0),
])
def test_expressions(text, mm, pct, bleed):
    assert fields(parse_length(text)) == approx_length(mm, pct, bleed)


@pytest.mark.parametrize("value", [0, 0.0, "0", "0mm", " 0 ", "0 * 5", "3mm - 3mm"])
def test_zero_needs_no_unit(value):
    assert parse_length(value) == Length()


# --- resolve -----------------------------------------------------------------------------------

@pytest.mark.parametrize("text, extent, bleed, expected", [
    ("12mm", 63.0, 3.0, 12.0),
    ("50%", 63.0, 3.0, 31.5),
    ("100% - 8mm", 88.0, 3.0, 80.0),
    ("-bleed", 63.0, 3.0, -3.0),
    ("100% + 2*bleed", 63.0, 3.0, 69.0),
    ("100% + 2*bleed", 63.0, 0.0, 63.0),
])
def test_resolve(text, extent, bleed, expected):
    assert parse_length(text).resolve(extent, bleed) == pytest.approx(expected)


def test_resolve_defaults_to_no_extent_and_no_bleed():
    assert Length(mm=2.0, pct=50.0, bleed=1.0).resolve() == 2.0


def test_length_arithmetic_and_is_absolute():
    a, b = Length(1.0, 2.0, 3.0), Length(10.0, 20.0, 30.0)
    assert a + b == Length(11.0, 22.0, 33.0)
    assert -a == Length(-1.0, -2.0, -3.0)
    assert a.scaled(2) == Length(2.0, 4.0, 6.0)
    assert Length(mm=5.0).is_absolute
    assert not Length(pct=1.0).is_absolute
    assert not Length(bleed=1.0).is_absolute


# --- errors: each names what was expected ------------------------------------------------------

@pytest.mark.parametrize("value, problem, expectation", [
    ("12", "'12' has no unit", EXAMPLES),
    (12, "'12' has no unit", EXAMPLES),
    (2.5, "'2.5' has no unit", EXAMPLES),
    ("2 * 3", "has no unit", EXAMPLES),
    (True, "not True", EXAMPLES),
    (None, "", EXAMPLES),
    ([1], "", EXAMPLES),
    ("", "", EXAMPLES),
    ("   ", "", EXAMPLES),
    ("12px", "unknown unit 'px'", "units are mm, cm, in, pt and %"),
    ("3mmm", "unknown unit 'mmm'", "units are mm, cm, in, pt and %"),
    ("2 bleed", "write '2*bleed'", "to multiply the bleed"),
    ("3mm + margin", "unknown word 'margin'", "(or 'bleed')"),
    ("3mm # 2", "cannot read ' # 2'", EXAMPLES),
    ("3mm +", "ends too early", EXAMPLES),
    ("(3mm", "ends too early", EXAMPLES),
    ("+3mm", "unexpected '+'", EXAMPLES),
    ("3mm)", "unexpected ')'", EXAMPLES),
    ("3mm * * 2", "unexpected '*'", EXAMPLES),
    ("(3mm 2mm)", "'(3mm 2mm)'", "missing ')'"),
    ("3mm + 2", "adds a plain number to a length", "give every term a unit"),
    ("2 - 3mm", "adds a plain number to a length", "give every term a unit"),
    ("6mm / 2mm", "divides by a length", "divide by a plain number"),
])
def test_errors_say_what_was_expected(value, problem, expectation):
    with pytest.raises(ValueError) as info:
        parse_length(value)
    message = str(info.value)
    assert problem in message
    assert expectation in message


@pytest.mark.parametrize("value, problem", [
    ("3mm * 2mm", "multiplies two lengths"),
    ("3mm / 0", "divides by zero"),
    ("3mm / (1 - 1)", "divides by zero"),
])
def test_errors_without_a_hint_still_name_the_problem(value, problem):
    with pytest.raises(ValueError, match=problem):
        parse_length(value)


@pytest.mark.parametrize("value, hint", [
    ("3mm * 2mm", "plain number"),
    ("3mm / 0", "expected"),
])
def test_errors_without_a_hint_should_say_what_was_expected(value, hint):
    with pytest.raises(ValueError) as info:
        parse_length(value)
    assert hint in str(info.value)


def test_two_lengths_side_by_side_is_an_error():
    with pytest.raises(ValueError, match="expected a length like"):
        parse_length("3mm 2mm")


def test_leftover_length_is_quoted_as_written():
    with pytest.raises(ValueError) as info:
        parse_length("3mm 2mm")
    assert "Length(" not in str(info.value)


# --- parse_absolute ----------------------------------------------------------------------------

@pytest.mark.parametrize("text, mm", [
    ("9pt", 9 * 25.4 / 72),
    ("3mm", 3.0),
    ("1in - 0.4mm", 25.0),
    (0, 0.0),
])
def test_parse_absolute_returns_millimetres(text, mm):
    assert parse_absolute(text) == pytest.approx(mm)


@pytest.mark.parametrize("text", ["50%", "bleed", "3mm + bleed", "100% - 8mm"])
def test_parse_absolute_refuses_percent_and_bleed(text):
    with pytest.raises(ValueError) as info:
        parse_absolute(text, "font size")
    message = str(info.value)
    assert message.startswith("a font size cannot use % or bleed")
    assert "expected a length like 9pt or 3mm" in message


def test_parse_absolute_passes_on_syntax_errors():
    with pytest.raises(ValueError, match="has no unit"):
        parse_absolute("12")


@pytest.mark.parametrize("text, mm", [("3 mm", 3.0), ("50 %", 0.0), ("1 in", 25.4)])
def test_a_space_before_the_unit_is_fine(text, mm):
    assert parse_length(text).mm == pytest.approx(mm)


def test_a_length_read_again_is_equal_and_a_mistake_is_said_every_time():
    """Lengths written as text are remembered (layouts repeat them); mistakes are not."""
    assert parse_length("100% - 8mm") == parse_length("100% - 8mm") == Length(mm=-8.0, pct=100.0)
    for _ in range(2):
        with pytest.raises(ValueError, match="unknown unit 'mmm'"):
            parse_length("3mmm")
    with pytest.raises(ValueError, match="no unit"):
        parse_length(5)  # a number is not text: never confused with '5'


@pytest.mark.parametrize("spec, name, size", [
    ("a4", "a4", (210.0, 297.0)), ("A4", "a4", (210.0, 297.0)), (" Letter ", "letter", (215.9, 279.4)),
    ("universal", "universal", (210.0, 279.4)), ("ledger", "tabloid", (279.4, 431.8)), ("a5", "a5", (148.0, 210.0)),
    ("210x297mm", "210x297mm", (210.0, 297.0)), ("210x297", "210x297mm", (210.0, 297.0)),
    ("8.5x11in", "215.9x279.4mm", (215.9, 279.4)), ("21cm × 29.7cm", "210x297mm", (210.0, 297.0)),
    ("100x150.004", "100x150mm", (100.0, 150.0)),
])
def test_a_paper_is_named_once_whatever_way_it_is_written(spec, name, size):
    from deckpress.units import paper_name, paper_size

    assert paper_name(spec) == name and paper_size(name) == pytest.approx(size)
    assert paper_name(name) == name  # a name names itself


@pytest.mark.parametrize("spec, message", [
    ("letr", "unknown paper 'letr' — did you mean 'letter'? (papers are a4, letter, a3, a5, legal, tabloid, "
             "universal, or WIDTHxHEIGHT like 210x297mm or 8.5x11in)"),
    ("a6", "unknown paper 'a6' (papers are"),
    ("40x300mm", "paper '40x300mm' is 40 × 300 mm: papers are 100 to 1500 mm a side"),
    ("210x", "unknown paper '210x'"),
])
def test_an_unknown_paper_says_which_there_are(spec, message):
    from deckpress.units import paper_name

    with pytest.raises(ValueError) as caught:
        paper_name(spec)
    assert str(caught.value).startswith(message)
