"""deckpress.settings: the back offset, remembered in the user's file and a deck's deckpress.yaml,
with the command line first, the deck second and the user third; bad values named by file and line."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from deckpress.errors import DeckError
from deckpress import settings
from deckpress.settings import (DECK_SETTINGS, ENV_CONFIG, NO_OFFSET, back_offset_in, format_offset,
                                legacy_config_path, parse_back_offset, resolve_back_offset, save_back_offset,
                                user_config_in_use, user_config_path)


@pytest.mark.parametrize("text, expected", [
    ("0.5,-1.2", (0.5, -1.2)), (" 0.5 , -1.2 ", (0.5, -1.2)), ("1;2", (1.0, 2.0)), ("-20,20", (-20.0, 20.0)),
    ("0,0", (0.0, 0.0)), ("-0,-0.0", (0.0, 0.0)), ("0.25,1e-1", (0.25, 0.1)), ("0.1234567,0", (0.123, 0.0)),
    ("1.5,-0.75mm", (1.5, -0.75)), ([0.5, -1.2], (0.5, -1.2)), ((1, 2), (1.0, 2.0)),
])
def test_offsets_are_two_numbers_in_mm(text, expected):
    assert parse_back_offset(text) == expected


def test_minus_zero_says_zero():
    assert format_offset(parse_back_offset("-0,-0")) == "0, 0"
    assert format_offset((0.5, -1.2)) == "0.5, -1.2"


@pytest.mark.parametrize("text, says", [
    ("1,2,3", "expected two numbers X,Y in mm like 0.5,-1.2, not '1,2,3'"),
    ("abc", "not 'abc'"), ("1", "not '1'"), ("", "not ''"), ("nan,1", "not 'nan,1'"), ("inf,0", "not 'inf,0'"),
    ("1,,2", "not '1,,2'"), ([1, "x"], "not '1,x'"), ([True, 1], "not 'True,1'"), (3, "not 3"),
    ("20.5,0", "expected X and Y between -20 and 20 mm, not '20.5,0'"), ("0,-25", "not '0,-25'"),
])
def test_bad_offsets_say_what_was_expected(text, says):
    with pytest.raises(ValueError) as info:
        parse_back_offset(text)
    assert says in str(info.value)
    assert "\n" not in str(info.value)


def test_the_user_file_is_named_by_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV_CONFIG, str(tmp_path / "mine.yaml"))
    assert user_config_path() == tmp_path / "mine.yaml"
    monkeypatch.delenv(ENV_CONFIG)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert user_config_path() == tmp_path / "xdg" / "deckpress" / "config.yaml"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert user_config_path() == tmp_path / "home" / ".config" / "deckpress" / "config.yaml"


def test_the_user_file_is_in_the_os_folder_platformdirs_names(tmp_path, monkeypatch):
    """On Linux platformdirs follows XDG: the place deckpress always used, so no old one to read."""
    import platformdirs

    monkeypatch.delenv(ENV_CONFIG)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert user_config_path() == Path(platformdirs.user_config_dir("deckpress", appauthor=False)) / "config.yaml"
    if sys.platform.startswith("linux"):
        assert legacy_config_path() is None


@pytest.fixture
def elsewhere(tmp_path, monkeypatch):
    """The user's folder as on macOS (not where deckpress 0.1.0 put the file): (new file, old file)."""
    monkeypatch.delenv(ENV_CONFIG)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    mac = tmp_path / "Library" / "Application Support" / "deckpress"
    monkeypatch.setattr(settings.platformdirs, "user_config_dir", lambda name, appauthor=None: str(mac))
    return mac / "config.yaml", tmp_path / "xdg" / "deckpress" / "config.yaml"


def test_an_offset_saved_in_the_old_place_is_read_until_one_is_saved_in_the_new(elsewhere):
    new, old = elsewhere
    assert legacy_config_path() == old and user_config_in_use() == new  # nothing anywhere: the new place
    old.parent.mkdir(parents=True)
    old.write_text('back_offset: "1,2"\n', encoding="utf-8")
    assert user_config_in_use() == old
    assert resolve_back_offset(None) == settings.BackOffset((1.0, 2.0), str(old))
    assert save_back_offset((0.5, 0.25)) == new  # saved in the new place, the old file left as it was
    assert old.read_text(encoding="utf-8") == 'back_offset: "1,2"\n'
    assert resolve_back_offset(None) == settings.BackOffset((0.5, 0.25), str(new))


def test_a_broken_file_in_the_old_place_is_said_not_saved_over(elsewhere):
    new, old = elsewhere
    old.parent.mkdir(parents=True)
    old.write_text("back_offset: [1, 2\n", encoding="utf-8")
    with pytest.raises(DeckError) as info:
        save_back_offset((0.5, 0.25))
    assert str(old) in str(info.value) and not new.exists()


def test_tests_never_see_the_real_user_file(user_config):
    assert user_config_path() == user_config and not user_config.exists()


def test_a_saved_offset_is_read_back(user_config):
    assert resolve_back_offset(None).value == NO_OFFSET and not resolve_back_offset(None).used
    assert save_back_offset((0.5, -1.2)) == user_config
    assert back_offset_in(user_config) == (0.5, -1.2)
    assert 'back_offset: "0.5,-1.2"' in user_config.read_text(encoding="utf-8")
    found = resolve_back_offset(None)
    assert found.value == (0.5, -1.2) and found.used and found.source == str(user_config)
    assert [p.name for p in user_config.parent.iterdir()] == ["config.yaml"]  # written through a temporary file


def test_saving_makes_the_folders_it_needs(tmp_path):
    path = tmp_path / "a" / "b" / "config.yaml"
    save_back_offset((1.0, 2.0), path)
    assert back_offset_in(path) == (1.0, 2.0)


def test_zero_resets(user_config):
    save_back_offset((0.5, -1.2))
    save_back_offset(parse_back_offset("0,0"))
    assert back_offset_in(user_config) == (0.0, 0.0)
    assert not resolve_back_offset(None).used


def test_command_line_beats_deck_beats_user(tmp_path, user_config):
    deck = tmp_path / "deck"
    deck.mkdir()
    assert resolve_back_offset(None, deck).source == "default"
    save_back_offset((1.0, 1.0))
    assert resolve_back_offset(None, deck).value == (1.0, 1.0)
    (deck / DECK_SETTINGS).write_text('# this printer\nback_offset: "0.5,-1.2"\n', encoding="utf-8")
    found = resolve_back_offset(None, deck)
    assert found.value == (0.5, -1.2) and found.source.endswith(DECK_SETTINGS)
    assert resolve_back_offset(None).value == (1.0, 1.0)  # other decks, impose and calibrate: the user's
    given = resolve_back_offset((0.0, 0.0), deck)
    assert given.value == (0.0, 0.0) and given.source == "--back-offset"


def test_a_deck_file_may_give_a_list_or_nothing(tmp_path):
    path = tmp_path / DECK_SETTINGS
    path.write_text("back_offset: [0.5, -1.2]\n", encoding="utf-8")
    assert back_offset_in(path) == (0.5, -1.2)
    path.write_text("# nothing yet\n", encoding="utf-8")
    assert back_offset_in(path) is None
    assert back_offset_in(tmp_path / "missing.yaml") is None


@pytest.mark.parametrize("text, message", [
    ('# mine\n\nback_offset: "1,2,3"\n', ":3: back_offset: expected two numbers X,Y in mm like 0.5,-1.2, not '1,2,3'"),
    ("back_offset: abc\n", ":1: back_offset: expected two numbers X,Y in mm like 0.5,-1.2, not 'abc'"),
    ("\nback_offset:\n  - 1\n  - 30\n", ":3: back_offset: expected X and Y between -20 and 20 mm, not '1,30'"),
    ("back_offset: 2\n", ":1: back_offset: expected two numbers X,Y in mm like 0.5,-1.2, not 2"),
    ("\nback_ofset: 1,2\n", ":2: unknown setting 'back_ofset' (settings are back_offset) — did you mean 'back_offset'?"),
    ("- 1\n- 2\n", ":1: a settings file must be a mapping like back_offset: \"0.5,-1.2\""),
    ("back_offset: [1, 2\n", "YAML syntax"),
])
def test_bad_files_are_named_by_file_and_line(tmp_path, text, message):
    path = tmp_path / DECK_SETTINGS
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DeckError) as info:
        back_offset_in(path)
    assert str(info.value).startswith(str(path)) and message in str(info.value)
    assert "\n" not in str(info.value)


def test_a_broken_user_file_is_not_overwritten(user_config):
    user_config.write_text("back_offset: [1, 2\n", encoding="utf-8")
    with pytest.raises(DeckError):
        save_back_offset((1.0, 1.0))
    assert user_config.read_text(encoding="utf-8") == "back_offset: [1, 2\n"


# --- printer profiles --------------------------------------------------------------------------------

from deckpress.settings import (Printer, format_margins, format_scale, parse_flip, parse_margins, parse_scale,
                                read_printers, remove_printer, resolve_printer, save_printer, set_default_printer)


@pytest.mark.parametrize("text, expected", [
    ("99.2%,100.4%", (0.992, 1.004)), ("99.2%", (0.992, 0.992)), ("0.992, 1.004", (0.992, 1.004)),
    ("99.2,100.4", (0.992, 1.004)), ("169.2/170,220.9/220", (169.2 / 170, 220.9 / 220)),
    ("169.2mm/170mm;220.9 / 220", (169.2 / 170, 220.9 / 220)), ([0.99, "101%"], (0.99, 1.01)), ("90%,110%", (0.9, 1.1)),
])
def test_a_scale_is_a_percentage_a_factor_or_measured_over_nominal(text, expected):
    found = parse_scale(text)
    assert found == pytest.approx(expected, abs=1e-6)
    assert parse_scale(format_scale(found)) == found  # what is saved reads back the same


@pytest.mark.parametrize("text, says", [
    ("80%", "expected a scale between 90 % and 110 %, not '80%'"), ("1.2", "between 90 % and 110 %"),
    ("abc", "expected a scale X,Y like 99.2%,100.4%"), ("1,2,3", "not '1,2,3'"), ("170/0", "not '170/0'"),
    ("", "expected something like 99.2%,100.4%"),
])
def test_a_bad_scale_says_what_was_expected(text, says):
    with pytest.raises(ValueError) as info:
        parse_scale(text)
    assert says in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize("text, expected", [
    ("5mm", (5.0, 5.0, 5.0, 5.0)), ("5", (5.0,) * 4), ("5,4", (5.0, 4.0, 5.0, 4.0)), ("5,4,12", (5.0, 4.0, 12.0, 4.0)),
    ("5,4,12,3", (5.0, 4.0, 12.0, 3.0)), ("0.25in", (6.35,) * 4), ("0", (0.0,) * 4), ([5, 4], (5.0, 4.0, 5.0, 4.0)),
])
def test_margins_read_like_css(text, expected):
    assert parse_margins(text) == pytest.approx(expected)
    assert parse_margins(format_margins(parse_margins(text))) == parse_margins(text)


@pytest.mark.parametrize("text, says", [("26mm", "between 0 and 25 mm"), ("-1", "between 0 and 25 mm"),
                                        ("1,2,3,4,5", "not '1,2,3,4,5'"), ("5 furlongs", "like 5mm")])
def test_bad_margins_say_what_was_expected(text, says):
    with pytest.raises(ValueError) as info:
        parse_margins(text)
    assert says in str(info.value)


def test_the_flip_edge_is_long_or_short():
    assert parse_flip("Long") == "long" and parse_flip("short-edge") == "short" and parse_flip("short edge") == "short"
    with pytest.raises(ValueError, match="did you mean 'short'"):
        parse_flip("shrt")


def test_printers_are_saved_read_back_and_keep_the_back_offset(user_config):
    save_back_offset((0.5, -1.2))
    office = Printer("office", (0.992, 1.004), (0.8, -0.5), (5.0, 5.0, 5.0, 5.0), "short")
    assert save_printer(office) == user_config
    book = read_printers()
    assert book.printers == (office,) and book.back_offset == (0.5, -1.2) and book.default is None
    assert resolve_printer(None) is None and resolve_printer("office").named
    set_default_printer("office")
    assert resolve_printer(None) == office and not resolve_printer(None).named
    save_back_offset((1.0, 1.0))  # the printers stay
    assert read_printers().printers == (office,)
    text = user_config.read_text(encoding="utf-8")
    save_printer(office)
    assert user_config.read_text(encoding="utf-8") == text  # saving again changes nothing
    remove_printer("office")
    assert read_printers() == read_printers().__class__((1.0, 1.0), (), None)


def test_a_printer_named_beats_the_deck_and_the_default_does_not(tmp_path, user_config):
    deck = tmp_path / "deck"
    deck.mkdir()
    (deck / DECK_SETTINGS).write_text('back_offset: "0.5,-1.2"\n', encoding="utf-8")
    save_printer(Printer("office", back_offset=(2.0, 2.0)), make_default=True)
    assert resolve_back_offset(None, deck, resolve_printer(None)).value == (0.5, -1.2)
    named = resolve_back_offset(None, deck, resolve_printer("office"))
    assert named.value == (2.0, 2.0) and named.source == "printer office"
    assert resolve_back_offset(None, None, resolve_printer(None)).value == (2.0, 2.0)
    assert resolve_back_offset((0.0, 0.0), deck, resolve_printer("office")).source == "--back-offset"


def test_an_unknown_printer_names_the_closest(user_config):
    save_printer(Printer("office"))
    with pytest.raises(DeckError, match="no printer 'ofice' \\(printers are office\\) — did you mean 'office'"):
        resolve_printer("ofice")


@pytest.mark.parametrize("text, message", [
    ("printers:\n  office:\n    scale: 80%\n", ":3: printers: office: scale: expected a scale between 90 % and 110 %"),
    ("printers:\n  office:\n    margin: 5\n", ":3: printers: office: unknown setting 'margin' (a printer has scale, "
                                              "back_offset, margins, flip) — did you mean 'margins'?"),
    ("printers:\n  office:\n    flip: sideways\n", ":3: printers: office: flip: expected a flip edge long or short"),
    ("default_printer: home\nprinters:\n  office: {}\n", ":1: default_printer: no printer 'home' in printers"),
    ("printers: [office]\n", ":1: printers: expected a mapping of printer names"),
])
def test_a_bad_printer_is_named_by_file_and_line(user_config, text, message):
    user_config.write_text(text, encoding="utf-8")
    with pytest.raises(DeckError) as info:
        read_printers()
    assert str(info.value).startswith(str(user_config)) and message in str(info.value), str(info.value)
