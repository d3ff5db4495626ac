"""Confinement (issue 32, item 3): every file and folder a deck reads, `deck.yaml` and
`deckpress.yaml` included, is resolved through symbolic links and must stay inside the deck (or the
bundled data); a loop of links, a path too long for the file system and a template named by a
number are one line, never a traceback. And an output folder that is a link keeps being one:
the set is swapped in where it points, and the user's own links inside it stay."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import deckpress
from deckpress.errors import DeckError
from deckpress.model import load_deck
from deckpress.paths import confined, real
from deckpress.settings import DECK_SETTINGS, resolve_back_offset
from tests.conftest import SIMPLE_DECK, SIMPLE_LAYOUT
from tests.test_model_deck import IMAGE_LAYOUT, _png
from tests.test_model_translations import GERMAN, LAYOUT
from tests.test_robustness_limits import cli, one_line

LOOP = "is a loop of symbolic links"
OUTSIDE = "points outside the deck folder; files must stay inside it"


def loop(path: Path) -> None:
    """`path` made a link to a link that leads back to it."""
    other = path.with_name(path.name + "-other")
    path.symlink_to(other.name)
    other.symlink_to(path.name)


def error_of(folder: Path, **kwargs) -> str:
    with pytest.raises(DeckError) as err:
        load_deck(folder, **kwargs)
    return str(err.value)


# -- the helper ---------------------------------------------------------------------------------

def test_the_helper_says_loop_outside_and_too_long(tmp_path):
    root = tmp_path / "deck"
    root.mkdir()
    (tmp_path / "secret.txt").write_text("x")
    (root / "out.txt").symlink_to(tmp_path / "secret.txt")
    loop(root / "a.txt")
    (root / "in.txt").write_text("y")
    assert confined(root / "in.txt", [real(root)], "in.txt") == real(root) / "in.txt"
    for name, message in [("out.txt", f"'out.txt' {OUTSIDE}"), ("a.txt", f"'a.txt' {LOOP}"),
                          ("x" * 300, f"'{'x' * 40}…' is too long for a file's path (at most 255 characters a "
                                      "name, 1024 in all)")]:
        with pytest.raises(ValueError) as err:
            confined(root / name, [real(root)], name)
        assert str(err.value) == message
    # a missing file is resolved as far as it goes (the caller says "not found")
    assert confined(root / "missing.txt", [real(root)], "missing.txt") == real(root) / "missing.txt"


# -- loops ----------------------------------------------------------------------------------------

def test_a_loop_in_art_is_one_line(make_deck):
    folder = make_deck(SIMPLE_DECK.replace("{title: Two, color: blue}", "{title: Two, art: art/loop.png}"),
                       {"simple": IMAGE_LAYOUT}, {"art/one.png": _png()})
    loop(folder / "art" / "loop.png")
    one_line(cli("check", str(folder)), f"{folder / 'deck.yaml'}:16: card things #2 (Two): image src '{{art}}' gives "
                                        f"'art/loop.png' {LOOP} (template 'front', {folder / 'layouts' / 'simple.yaml'}:7)")


def test_a_loop_where_the_art_folder_is_is_one_line(make_deck):
    folder = make_deck(SIMPLE_DECK.replace("{title: Two, color: blue}", "{title: Two, art: art/one.png}"),
                       {"simple": IMAGE_LAYOUT})
    loop(folder / "art")
    proc = cli("check", str(folder))
    assert proc.returncode == 2 and LOOP in proc.stderr and len(proc.stderr.splitlines()) == 1, proc.stderr


def test_a_loop_in_a_card_tables_place_is_one_line(make_deck):
    folder = make_deck(SIMPLE_DECK.replace("        cards:\n          - {title: One, count: 2}\n"
                                           "          - {title: Two, color: blue}\n", "        cards: cards.csv\n"),
                       {"simple": SIMPLE_LAYOUT})
    loop(folder / "cards.csv")
    expected = f"{folder / 'deck.yaml'}:14: cards: 'cards.csv' {LOOP}"
    assert error_of(folder) == expected
    one_line(cli("check", str(folder)), expected)


def loop_in(folder: Path, name: str, where: str) -> None:
    """A loop where `folder`/`name` is (`where` is "file"), or where its folder is ("folder")."""
    path = folder / name
    if where == "folder":
        if path.parent.is_dir():
            path.parent.rmdir()
        path = path.parent
    path.parent.mkdir(exist_ok=True)
    loop(path)


@pytest.mark.parametrize("where", ["file", "folder"])
def test_a_loop_in_layouts_is_one_line(make_deck, where):
    folder = make_deck(SIMPLE_DECK)
    loop_in(folder, "layouts/simple.yaml", where)
    expected = f"{folder / 'deck.yaml'}:6: layout 'simple': 'layouts/simple.yaml' {LOOP}"
    assert error_of(folder) == expected
    one_line(cli("check", str(folder)), expected)


@pytest.mark.parametrize("where", ["file", "folder"])
def test_a_loop_in_translations_is_one_line_at_the_folder_it_is_in(make_deck, where):
    folder = make_deck(GERMAN, {"simple": LAYOUT})
    loop_in(folder, "translations/en.yaml", where)
    expected = (f"{folder / 'translations'}: 'translations/en.yaml' {LOOP}" if where == "file" else
                f"{folder}: 'translations' {LOOP}")
    assert error_of(folder, lang="en") == expected
    one_line(cli("check", str(folder)), expected)


def test_a_deck_file_that_is_a_loop_is_one_line(tmp_path):
    folder = tmp_path / "deck"
    folder.mkdir()
    loop(folder / "deck.yaml")
    proc = cli("check", str(folder))
    assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1 and LOOP in proc.stderr, proc.stderr


# -- there, but no file ---------------------------------------------------------------------------

@pytest.mark.parametrize("target, reason", [("missing.yaml", "is a link to nothing"), (".", "is not a file")])
def test_a_deck_file_that_is_no_file_is_said(make_deck, target, reason):
    """A deck.yaml that is a link to nothing or to a folder: said at it, not 'no deck …'."""
    folder = make_deck(SIMPLE_DECK, {"simple": SIMPLE_LAYOUT})
    (folder / "deck.yaml").unlink()
    (folder / "deck.yaml").symlink_to(target)
    expected = f"{folder / 'deck.yaml'}: 'deck.yaml' {reason}"
    assert error_of(folder) == expected
    one_line(cli("check", str(folder)), expected)


def test_a_layout_that_is_a_link_to_nothing_is_said_not_passed_over(make_deck):
    folder = make_deck(SIMPLE_DECK)
    (folder / "layouts" / "simple.yaml").symlink_to("gone.yaml")
    assert error_of(folder) == f"{folder / 'deck.yaml'}:6: layout 'simple': 'layouts/simple.yaml' is a link to nothing"


def test_a_translation_that_is_a_link_to_the_root_is_refused(make_deck):
    folder = make_deck(GERMAN, {"simple": LAYOUT})
    (folder / "translations").mkdir()
    (folder / "translations" / "en.yaml").symlink_to("/")
    expected = f"{folder / 'translations' / 'en.yaml'}:1: translations/en.yaml {OUTSIDE}"
    assert error_of(folder, lang="en") == expected
    one_line(cli("check", str(folder)), expected)


# -- outside --------------------------------------------------------------------------------------

def test_a_deck_file_linked_from_outside_is_refused(make_deck, tmp_path):
    folder = make_deck(SIMPLE_DECK, {"simple": SIMPLE_LAYOUT})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (folder / "deck.yaml").rename(elsewhere / "deck.yaml")
    (folder / "deck.yaml").symlink_to(elsewhere / "deck.yaml")
    expected = f"{folder / 'deck.yaml'}:1: deck.yaml {OUTSIDE}"
    assert error_of(folder) == expected
    one_line(cli("check", str(folder)), expected)


def test_a_deck_folder_that_is_a_link_is_read_where_it_points(make_deck, tmp_path):
    folder = make_deck(SIMPLE_DECK, {"simple": SIMPLE_LAYOUT})
    (tmp_path / "link").symlink_to(folder)
    assert load_deck(tmp_path / "link").card_count() == 3


def test_deck_settings_linked_from_outside_are_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("DECKPRESS_CONFIG", str(tmp_path / "user.yaml"))
    folder = tmp_path / "deck"
    folder.mkdir()
    (tmp_path / "secret.yaml").write_text('back_offset: "1,1"\n')
    (folder / DECK_SETTINGS).symlink_to(tmp_path / "secret.yaml")
    with pytest.raises(DeckError) as err:
        resolve_back_offset(None, folder)
    assert str(err.value) == f"{folder / DECK_SETTINGS}:1: {DECK_SETTINGS} {OUTSIDE}"
    (folder / DECK_SETTINGS).unlink()
    loop(folder / DECK_SETTINGS)
    with pytest.raises(DeckError, match=LOOP):
        resolve_back_offset(None, folder)
    (folder / DECK_SETTINGS).unlink()
    (folder / "mine.yaml").write_text('back_offset: "1,1"\n')
    (folder / DECK_SETTINGS).symlink_to("mine.yaml")  # a link inside the deck is followed
    assert resolve_back_offset(None, folder).value == (1.0, 1.0)


def test_deck_settings_linked_from_outside_are_refused_by_build(make_deck, tmp_path, monkeypatch):
    monkeypatch.setenv("DECKPRESS_CONFIG", str(tmp_path / "user.yaml"))  # (the command inherits it)
    folder = make_deck(SIMPLE_DECK, {"simple": SIMPLE_LAYOUT})
    (tmp_path / "secret.yaml").write_text('back_offset: "1,1"\n')
    (folder / DECK_SETTINGS).symlink_to(tmp_path / "secret.yaml")
    one_line(cli("build", str(folder), "--out", str(tmp_path / "out"), "--paper", "a4", "--ink", "color",
                 "--format", "pdf"), f"{folder / DECK_SETTINGS}:1: {DECK_SETTINGS} {OUTSIDE}")


# -- names too long, numbers for names ------------------------------------------------------------

def test_an_extends_path_too_long_for_the_file_system_is_one_line(make_deck):
    folder = make_deck(SIMPLE_DECK.replace("id: simple", f"id: simple\n    extends: {'x' * 300}"),
                       {"simple": SIMPLE_LAYOUT})
    proc = cli("check", str(folder))
    assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1, proc.stderr
    assert f"{folder / 'deck.yaml'}:3: " in proc.stderr and "too long for a file's path" in proc.stderr


def test_a_layout_name_too_long_for_the_file_system_is_one_line(make_deck):
    folder = make_deck(SIMPLE_DECK.replace("layouts: [simple]", f"layouts: [simple, {'x' * 300}]"),
                       {"simple": SIMPLE_LAYOUT})
    proc = cli("check", str(folder))
    assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1, proc.stderr
    assert f"{folder / 'deck.yaml'}:6: unknown layout 'xxxxx" in proc.stderr


def test_a_template_named_by_a_number_is_the_name_a_designer_wrote(make_deck):
    """`1:` under templates and `front: 1` in the deck are both the name "1"."""
    layout = SIMPLE_LAYOUT.replace("      front:\n", "      1:\n")
    folder = make_deck(SIMPLE_DECK.replace("front: front", "front: 1"), {"simple": layout})
    assert load_deck(folder).components[0].front.name == "1"
    proc = cli("check", str(folder))
    assert proc.returncode == 0, proc.stderr


# -- the output folder ----------------------------------------------------------------------------

def test_an_output_folder_that_is_a_link_stays_one_and_the_users_links_inside_stay(tmp_path):
    synced = tmp_path / "synced" / "metronome"
    synced.mkdir(parents=True)
    (synced / "notes.txt").write_text("mine\n")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "photo.txt").write_text("photo\n")
    (synced / "photos").symlink_to(tmp_path / "elsewhere")
    (synced / "note-link.txt").symlink_to("notes.txt")
    out = tmp_path / "out"
    out.mkdir()
    (out / "metronome").symlink_to(synced)
    for _ in range(2):
        deckpress.build("metronome", out, papers="a4", inks="color", formats="pdf")
        assert (out / "metronome").is_symlink() and os.readlink(out / "metronome") == str(synced)
        assert (synced / "photos").is_symlink() and (synced / "photos" / "photo.txt").read_text() == "photo\n"
        assert os.readlink(synced / "note-link.txt") == "notes.txt"
        assert (synced / "notes.txt").read_text() == "mine\n"
        assert any(p.suffix == ".pdf" for p in synced.iterdir())
        assert sorted(p.name for p in synced.parent.iterdir()) == ["metronome"]  # nothing hidden left
        assert sorted(p.name for p in out.iterdir()) == ["metronome"]
