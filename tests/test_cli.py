"""The command line: build, list, check; one-line errors with exit status 2; safe writes."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckpress import cli
from deckpress.backends import pdfpages


def run(*args):
    return CliRunner().invoke(cli.main, list(args))


def test_build_writes_what_was_asked_and_says_so(simple_deck, tmp_path):
    result = run("build", str(simple_deck), "--paper", "a4", "--ink", "lowink", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "simple").iterdir()) == [
        "simple-backs-lowink-a4.pdf", "simple-box-lowink-a4.pdf", "simple-cards-lowink-a4.pdf",
        "simple-duplex-lowink-a4.pdf"]
    summary, total = result.output.splitlines()  # a line per deck, then the whole build's
    assert summary == "simple: 3 cards, 3 distinct faces, 5 pages in 4 files"
    assert total.startswith("wrote 4 PDFs (5 pages, 3 cards from 1 deck) to ")
    assert "\r" not in result.output and "█" not in result.output  # no progress bar when not a terminal


def test_build_on_papers_named_or_measured_names_each_file_by_its_paper(simple_deck, tmp_path):
    from pypdf import PdfReader

    from tests.pdfread import MM
    result = run("build", str(simple_deck), "--paper", "A3,universal,8.5x11in", "--ink", "color",
                 "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in (tmp_path / "simple").iterdir())
    assert [n for n in names if n.startswith("simple-cards-")] == [
        "simple-cards-215.9x279.4mm.pdf", "simple-cards-a3.pdf", "simple-cards-universal.pdf"]
    for name, size in (("a3", (297, 420)), ("universal", (210, 279.4)), ("215.9x279.4mm", (215.9, 279.4))):
        box = PdfReader(tmp_path / "simple" / f"simple-cards-{name}.pdf").pages[0].mediabox
        assert (float(box[2]) / MM, float(box[3]) / MM) == pytest.approx(size, abs=0.01)


@pytest.mark.parametrize("paper, said", [
    ("letr", "error: --paper: unknown paper 'letr' — did you mean 'letter'?"),
    ("a4,tabliod", "error: --paper: unknown paper 'tabliod' — did you mean 'tabloid'?"),
    ("10x10mm", "error: --paper: paper '10x10mm' is 10 × 10 mm: papers are 100 to 1500 mm a side"),
])
def test_an_unknown_paper_is_one_line_and_exit_2(simple_deck, tmp_path, paper, said):
    result = run("build", str(simple_deck), "--paper", paper, "--out", str(tmp_path))
    assert result.exit_code == 2 and result.output.count("\n") == 1, result.output
    assert result.output.startswith(said)
    assert not (tmp_path / "simple").exists()


def test_gap_on_the_command_line_overrides_the_decks(simple_deck, tmp_path):
    from tests.test_imposition_marks import trims
    assert run("build", str(simple_deck), "--paper", "a4", "--ink", "color", "--gap", "3mm",
               "--out", str(tmp_path)).exit_code == 0
    cards = sorted(trims(tmp_path / "simple" / "simple-cards-a4.pdf", 0))
    assert cards[1][0] - cards[0][2] == pytest.approx(3.0, abs=0.01)  # 3 mm between neighbours
    bad = run("build", str(simple_deck), "--gap", "25mm", "--out", str(tmp_path))
    assert bad.exit_code == 2 and bad.output == "error: --gap: gap 25mm must be 0 to 20mm\n"


def test_build_in_cmyk_for_print_shops(simple_deck, tmp_path):
    result = run("build", str(simple_deck), "--paper", "a4", "--ink", "color", "--color", "cmyk", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "simple").iterdir()) == [
        "simple-backs-cmyk-a4.pdf", "simple-box-cmyk-a4.pdf", "simple-cards-cmyk-a4.pdf", "simple-duplex-cmyk-a4.pdf"]
    assert run("build", str(simple_deck), "--color", "rgba").exit_code == 2


def test_list_shows_bundled_decks_with_counts():
    result = run("list")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0] == "bundled decks:"
    line = next(l for l in lines if l.startswith("  metronome "))
    assert "63 cards" in line and "18 rules/board" in line and "Guy T. Schafer" in line


def test_list_shows_deck_folders_here_by_their_path_apart_from_the_bundled(make_deck, tmp_path, monkeypatch):
    from tests.conftest import SIMPLE_DECK, SIMPLE_LAYOUT
    make_deck(SIMPLE_DECK, {"simple": SIMPLE_LAYOUT})  # tmp_path/deck
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "deck.yaml").write_text("id: broken\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    lines = run("list").output.splitlines()
    assert lines[:2] == ["bundled decks:", lines[1]] and lines[1].startswith("  circle-of-5 ")  # by id
    local = lines[lines.index("deck folders here:") + 1:]
    assert lines[lines.index("deck folders here:") - 1] == ""  # a blank line between the two
    assert local[0].startswith("  ./broken ") and "(broken: broken/deck.yaml:1: the deck needs 'title')" in local[0]
    assert local[1].startswith("  ./deck ") and "3 cards" in local[1] and "Simple — Test, CC0-1.0" in local[1]
    assert len(local) == 2
    monkeypatch.chdir(tmp_path / "deck")
    assert run("list").output.splitlines()[-1].split() == [".", "3", "cards", "Simple", "—", "Test,", "CC0-1.0"]


def test_list_finds_a_projects_decks_folder_and_takes_folders(tmp_path, monkeypatch):
    """A designer's project keeps its decks in decks/; `deckpress list FOLDER…` looks elsewhere."""
    import shutil
    import textwrap

    from tests.conftest import SIMPLE_DECK, SIMPLE_LAYOUT
    for folder in (tmp_path / "project" / "decks" / "orchard", tmp_path / "elsewhere" / "pond"):
        (folder / "layouts").mkdir(parents=True)
        (folder / "deck.yaml").write_text(textwrap.dedent(SIMPLE_DECK), encoding="utf-8")
        (folder / "layouts" / "simple.yaml").write_text(textwrap.dedent(SIMPLE_LAYOUT), encoding="utf-8")
    shutil.copytree(tmp_path / "project" / "decks" / "orchard", tmp_path / "project" / "decks" / ".hidden")
    monkeypatch.chdir(tmp_path / "project")
    lines = run("list").output.splitlines()
    assert [l.split()[0] for l in lines[lines.index("deck folders here:") + 1:]] == ["./decks/orchard"]
    result = run("list", "decks", str(tmp_path / "elsewhere"), "../elsewhere/pond")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert "deck folders here:" not in lines
    sections = {lines[i]: lines[i + 1].split()[0] for i in range(len(lines) - 1) if lines[i].startswith("deck folders")}
    assert sections == {"deck folders in decks:": "./decks/orchard",
                        f"deck folders in {tmp_path / 'elsewhere'}:": str(tmp_path / "elsewhere" / "pond"),
                        "deck folders in ../elsewhere/pond:": "../elsewhere/pond"}
    assert run("build", "./decks/orchard", "--paper", "a4", "--ink", "color", "--out", str(tmp_path / "o")).exit_code == 0
    monkeypatch.chdir(tmp_path)
    assert run("list", "elsewhere/pond/layouts").output.splitlines()[-1].startswith("  none ")
    missing = run("list", "nowhere")
    assert missing.exit_code == 2 and missing.stderr == "error: no folder 'nowhere' to list the decks of\n"


def test_list_in_a_checkout_shows_its_decks_once_as_bundled(monkeypatch):
    from deckpress.bundled import DECKS_DIR
    monkeypatch.chdir(DECKS_DIR.parent)
    lines = run("list").output.splitlines()
    assert lines[lines.index("deck folders here:") + 1].startswith("  none ")


def test_check_validates_without_writing(simple_deck, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("check", str(simple_deck))
    assert result.exit_code == 0 and "simple: ok — 3 cards, 3 distinct faces" in result.output
    assert not (tmp_path / "output").exists()


def test_a_broken_deck_gives_one_line_and_exit_2(make_deck, tmp_path):
    """As the shell sees it: `python -m deckpress.cli` in a process of its own, its exit status, and
    nothing on stderr but the one line (no traceback); the build says the same in-process, as the
    other one-line errors are checked."""
    from tests.conftest import SIMPLE_DECK, SIMPLE_LAYOUT
    folder = make_deck(SIMPLE_DECK.replace("{title: Two, color: blue}", "{title: Two, colour: blue}"),
                       {"simple": SIMPLE_LAYOUT})
    proc = subprocess.run([sys.executable, "-m", "deckpress.cli", "check", str(folder)], capture_output=True, text=True)
    build = run("build", str(folder), "--out", str(tmp_path / "o"))
    for code, stdout, stderr in ((proc.returncode, proc.stdout, proc.stderr), (build.exit_code, build.stdout, build.stderr)):
        assert code == 2
        assert stdout == ""
        assert stderr.strip().splitlines() == [
            f"error: {folder / 'deck.yaml'}:16: unknown key 'colour' in card — did you mean 'color'?"]
        assert "Traceback" not in stderr
    assert not (tmp_path / "o").exists()


def test_the_console_script_ends_with_the_commands_status_all_its_output_and_its_exit_handlers():
    """`deckpress` leaves without finalising the interpreter (`__main__._end`), and still with the
    command's exit status, everything it printed (into a pipe: buffered until then) and what exit
    handlers do (a coverage tool saves its data in one)."""
    program = ("import atexit, sys; atexit.register(lambda: print('exit handler ran', file=sys.stderr)); "
               "from deckpress.__main__ import run; run()")

    def console(*args):
        return subprocess.run([sys.executable, "-c", program, *args], capture_output=True, text=True)

    listed = console("list")
    assert (listed.returncode, listed.stdout, listed.stderr) == (0, run("list").output, "exit handler ran\n")
    failed = console("check", "no-such-deck")
    assert failed.returncode == 2
    assert failed.stdout == ""
    assert failed.stderr.splitlines()[1:] == ["exit handler ran"] and failed.stderr.startswith("error: ")


def test_the_console_script_under_a_profiler_ends_the_usual_way(tmp_path):
    """cProfile writes its file after the program returns: `python -m cProfile -m deckpress` must
    return, not leave at once."""
    profile = tmp_path / "deckpress.prof"
    proc = subprocess.run([sys.executable, "-m", "cProfile", "-o", str(profile), "-m", "deckpress", "--version"],
                          capture_output=True, text=True)
    assert proc.returncode == 0 and "deckpress" in proc.stdout
    assert profile.stat().st_size > 0


def test_a_player_count_outside_the_decks_range_is_one_line_and_exit_2(make_deck, tmp_path):
    from tests.conftest import SIMPLE_DECK, SIMPLE_LAYOUT
    folder = make_deck(SIMPLE_DECK.replace("layouts:", "players: 2–4\n    layouts:"), {"simple": SIMPLE_LAYOUT})
    result = run("build", str(folder), "--players", "9", "--out", str(tmp_path / "o"))
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"error: {folder / 'deck.yaml'}:6: Simple is for 2–4 players, not 9 — did you mean '--players 4'?"]
    assert not (tmp_path / "o").exists()


def test_a_deck_with_a_font_of_its_own_builds_without_a_word_on_stderr(make_deck, tmp_path):
    """fontTools logs a warning for each table it cannot subset (here an FFTM table, which
    FontForge writes into its fonts); with no logging set up, that was printed on every build."""
    from fontTools.ttLib import TTFont, newTable

    from deckpress.bundled import FONTS_DIR
    from tests.conftest import SIMPLE_DECK, SIMPLE_LAYOUT
    font = TTFont(FONTS_DIR / "NotoSans-Regular.ttf")
    font["FFTM"] = newTable("FFTM")
    font["FFTM"].version, font["FFTM"].FFTimeStamp, font["FFTM"].sourceCreated, font["FFTM"].sourceModified = 1, 0, 0, 0
    font.save(tmp_path / "Odd.ttf")
    folder = make_deck(SIMPLE_DECK.replace("layouts:", "fonts: {odd: {regular: fonts/Odd.ttf}}\n    layouts:"),
                       {"simple": SIMPLE_LAYOUT.replace("size: 12pt}", "size: 12pt, font: odd}")},
                       {"fonts/Odd.ttf": (tmp_path / "Odd.ttf").read_bytes()})
    for out, extra in (("embedded", []), ("outlined", ["--outline-text"])):
        proc = subprocess.run([sys.executable, "-m", "deckpress.cli", "build", str(folder), "--paper", "a4",
                               "--format", "pdf,svg,png", "--ink", "color", "--out", str(tmp_path / out), *extra],
                              capture_output=True, text=True)
        assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    svg = next((tmp_path / "embedded" / "simple").rglob("*.svg")).read_text(encoding="utf-8")
    assert 'id="glyph1"' in svg and "<use " in svg and "<text " in svg  # used: its glyphs drawn, its words kept


def test_unknown_deck_is_an_error_not_a_crash():
    result = run("check", "metronom")
    assert result.exit_code == 2
    assert "no deck 'metronom'" in result.output and "did you mean 'metronome'" in result.output


def test_an_option_or_deck_named_with_controls_is_said_escaped_in_one_line(tmp_path):
    """A value that reaches a message is printed with its controls escaped: a terminal never
    obeys ESC [2J (clear the screen) or turns a line around for U+202E."""
    result = run("build", "x", "--paper", "a4\x1b[2J\nb\u202e")
    assert result.exit_code == 2 and result.output.count("\n") == 1, result.output
    assert result.output.startswith("error: --paper: ") and "a4\\x1b[2J\\nb\\u202e" in result.output
    result = run("check", "meto\x1b]0;x\x07")
    assert result.exit_code == 2 and result.output.count("\n") == 1, result.output
    assert "no deck 'meto\\x1b]0;x\\x07'" in result.output


def test_a_failed_write_leaves_the_good_file_alone(simple_deck, tmp_path, monkeypatch):
    assert run("build", str(simple_deck), "--paper", "a4", "--ink", "color", "--out", str(tmp_path)).exit_code == 0
    good = tmp_path / "simple" / "simple-cards-a4.pdf"
    before = good.read_bytes()

    def broken(sink, *args, **kwargs):
        sink.write(b"%PDF-1.4 half a file")
        raise OSError("disk full")

    monkeypatch.setattr(pdfpages, "write_pages", broken)
    with pytest.raises(OSError):
        from deckpress.builder.deckbuild import build_deck
        build_deck(simple_deck, tmp_path, ["a4"], ["color"])
    assert good.read_bytes() == before
    assert sorted(p.name for p in good.parent.iterdir()) == [
        "simple-backs-a4.pdf", "simple-box-a4.pdf", "simple-cards-a4.pdf", "simple-duplex-a4.pdf"]


def test_a_piece_too_big_for_the_paper_is_tiled(make_deck, tmp_path):
    from tests.conftest import SIMPLE_DECK, SIMPLE_LAYOUT
    from tests.pdfread import page_text
    folder = make_deck(SIMPLE_DECK.replace("        back: back\n", "        back: back\n        size: 250x300\n"),
                       {"simple": SIMPLE_LAYOUT})
    result = run("build", str(folder), "--out", str(tmp_path), "--paper", "a4", "--ink", "color")
    assert result.exit_code == 0, result.output
    cards = tmp_path / "simple" / "simple-cards-a4.pdf"
    # turned a quarter turn, each 300 × 250 mm card takes two A4 tiles: A1 and B1
    texts = [page_text(cards, i) for i in range(6)]
    assert ["tile A1" in t and "tile B1" not in t.split("·")[-1] for t in texts[::2]] == [True] * 3
    assert all("page" in t and "tile B1" in t for t in texts[1::2])


def test_an_unwritable_output_folder_is_one_line(simple_deck, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = run("build", str(simple_deck), "--out", str(blocker / "inside"))
    assert result.exit_code == 1 and result.output.startswith("error: cannot write to ")
    assert "Traceback" not in result.output


def test_formats_write_images_in_colour_unless_asked(simple_deck, tmp_path):
    result = run("build", str(simple_deck), "--format", "png,tts,preview", "--dpi", "72", "--out", str(tmp_path))
    both = run("build", str(simple_deck), "--format", "pdf,png", "--dpi", "72", "--out", str(tmp_path / "both"))
    assert both.exit_code == 0 and (tmp_path / "both" / "simple" / "simple-cards-lowink-a4.pdf").exists()
    assert not (tmp_path / "both" / "simple" / "png-lowink").exists()  # PDFs in both inks, images in colour
    assert result.exit_code == 0, result.output
    folder = tmp_path / "simple"
    assert not list(folder.glob("*.pdf"))
    assert (folder / "png" / "manifest.csv").exists() and not (folder / "png-lowink").exists()
    assert (folder / "simple-preview.png").exists() and (folder / "tts" / "simple.json").exists()
    assert result.output.splitlines()[-1].startswith("wrote ") and " PNGs, 1 CSV, 1 JSON (3 cards" in result.output
    lowink = run("build", str(simple_deck), "--format", "png", "--ink", "lowink", "--dpi", "72",
                 "--out", str(tmp_path))
    assert lowink.exit_code == 0 and (folder / "png-lowink" / "manifest.csv").exists()


def test_an_unknown_format_is_one_line_with_a_suggestion(simple_deck, tmp_path):
    result = run("build", str(simple_deck), "--format", "pdf,svgg", "--out", str(tmp_path))
    assert result.exit_code == 2
    errors = [l for l in result.output.splitlines() if l.startswith("Error")]
    assert errors == ["Error: Invalid value for '--format': unknown format 'svgg' — did you mean 'svg'? "
                      "(choose from pdf, gutterfold, png, svg, tts, ttpg, sprites, preview, hand, showcase)"]
    assert not (tmp_path / "simple").exists()


def test_a_preset_makes_pngs_and_a_mismatched_card_is_one_line(simple_deck, tmp_path):
    result = run("build", str(simple_deck), "--preset", "tgc", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "simple" / "png" / "manifest.csv").exists()
    assert list((tmp_path / "simple").glob("*.pdf"))  # pdf stays the default format
    deck_file = simple_deck / "deck.yaml"
    deck_file.write_text(deck_file.read_text(encoding="utf-8").replace("title: Simple",
                                                                       "title: Simple\ncard: standard-euro"),
                         encoding="utf-8")
    result = run("build", str(simple_deck), "--preset", "mpc", "--out", str(tmp_path / "again"))
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "error: preset mpc has no canvas for 59×92 mm cards; MakePlayingCards takes poker 63.5×88.9 mm, "
        "bridge 57.15×88.9 mm, tarot 69.85×120.65 mm, mini 44.45×63.5 mm, micro 31.75×44.45 mm, domino "
        "44.45×88.9 mm, business 50.8×88.9 mm, square 63.5×63.5 mm, large square 88.9×88.9 mm, jumbo 88.9×127 mm"]


def test_the_factory_preset_asks_for_the_press_profile_in_one_line(simple_deck, tmp_path):
    result = run("build", str(simple_deck), "--preset", "factory", "--format", "png", "--out", str(tmp_path))
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "error: --preset factory writes PDF/X-4, which embeds the press's output profile: give the factory's "
        "with --icc FILE, or write PDF/X-1a:2003 (SWOP named, no profile) with --pdfx 1a"]
    result = run("build", str(simple_deck), "--preset", "factory", "--pdfx", "1a", "--format", "png",
                 "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "simple" / "simple-factory-things.pdf").exists()


# --- calibrate and the back offset ----------------------------------------------------------------

def test_calibrate_writes_a_two_page_sheet(tmp_path, monkeypatch):
    from pypdf import PdfReader
    monkeypatch.chdir(tmp_path)
    result = run("calibrate")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "wrote output/calibrate-a4.pdf (2 pages): print it double-sided, flipping on the long edge, at 100 %"]
    assert len(PdfReader(tmp_path / "output" / "calibrate-a4.pdf").pages) == 2
    assert run("calibrate", "--paper", "letter", "--out", "sheets").exit_code == 0
    assert (tmp_path / "sheets" / "calibrate-letter.pdf").exists()
    assert run("calibrate", "--paper", "8.5x11in", "--out", "sheets").exit_code == 0
    assert (tmp_path / "sheets" / "calibrate-215.9x279.4mm.pdf").exists()
    bad = run("calibrate", "--paper", "a6")
    assert bad.exit_code == 2 and bad.output.count("\n") == 1 and "error: --paper: unknown paper 'a6'" in bad.output
    small = run("calibrate", "--paper", "105x148mm", "--out", "small")  # A6: targets and words would meet
    assert small.exit_code == 2 and small.output == ("error: the calibration sheet needs A5 paper or bigger, not "
                                                     "105x148mm: measure the printer's back offset on A5, A4 or "
                                                     "Letter\n")
    assert not (tmp_path / "small").exists()


def back_corners(path) -> list[tuple[float, float]]:
    """Where each card of the first back page of a backs file has its top-left corner (mm)."""
    from pypdf import PdfReader
    from tests.pdfread import MM, placements
    page = PdfReader(path).pages[0]
    height = float(page.mediabox[3])
    assert height == pytest.approx(297 * MM)
    return [p.point_mm(0, 0, height) for p in placements(page)]


def shifted_by(before, after, dx, dy) -> bool:
    return len(before) == len(after) > 0 and all(
        b == pytest.approx((a[0] + dx, a[1] + dy), abs=0.001) for a, b in zip(before, after))


def test_a_back_offset_is_remembered_and_the_deck_and_command_line_come_first(simple_deck, tmp_path, user_config):
    from tests.pdfread import page_text

    def build(out, *more):
        result = run("build", str(simple_deck), "--paper", "a4", "--ink", "color", "--out", str(tmp_path / out), *more)
        assert result.exit_code == 0, result.output
        return result.output.splitlines()[:-2], back_corners(tmp_path / out / "simple" / "simple-backs-a4.pdf")

    said, plain = build("plain", "--back-offset", "0,0")
    assert said == [f"back offset 0, 0 mm saved to {user_config}"]  # no offset: nothing shifted to say
    # measured and saved with the calibration sheet, which shows it …
    result = run("calibrate", "--out", str(tmp_path), "--back-offset", "0.5,-1.2")
    assert result.exit_code == 0 and result.output.splitlines()[0] == f"back offset 0.5, -1.2 mm saved to {user_config}"
    assert 'back_offset: "0.5,-1.2"' in user_config.read_text(encoding="utf-8")
    assert "X = 0.5 mm, Y = -1.2 mm" in " ".join(page_text(tmp_path / "calibrate-a4.pdf", 1).split())
    # … then every build uses it
    said, corners = build("saved")
    assert said == [f"back pages shifted by 0.5, -1.2 mm (back offset from {user_config})"]
    assert shifted_by(plain, corners, 0.5, -1.2)
    # a deck's own file wins over the user's
    (simple_deck / "deckpress.yaml").write_text("back_offset: [1, 1]\n", encoding="utf-8")
    said, corners = build("deck")
    assert said == [f"back pages shifted by 1, 1 mm (back offset from {simple_deck / 'deckpress.yaml'})"]
    assert shifted_by(plain, corners, 1.0, 1.0)
    # the command line wins over both, and is saved for next time
    said, corners = build("given", "--back-offset", "-2,0.25")
    assert said == [f"back offset -2, 0.25 mm saved to {user_config}",
                    "back pages shifted by -2, 0.25 mm (given with --back-offset)"]
    assert shifted_by(plain, corners, -2.0, 0.25)
    (simple_deck / "deckpress.yaml").unlink()
    assert build("later")[0] == [f"back pages shifted by -2, 0.25 mm (back offset from {user_config})"]
    # 0,0 takes it away
    run("calibrate", "--out", str(tmp_path), "--back-offset", "0,0")
    said, corners = build("reset")
    assert said == [] and corners == plain
    assert (tmp_path / "reset" / "simple" / "simple-backs-a4.pdf").read_bytes() == \
        (tmp_path / "plain" / "simple" / "simple-backs-a4.pdf").read_bytes()


def test_a_negative_offset_is_an_option_value_not_an_option(tmp_path, user_config):
    result = run("calibrate", "--out", str(tmp_path), "--back-offset", "-1.5,-0.5")
    assert result.exit_code == 0, result.output
    assert 'back_offset: "-1.5,-0.5"' in user_config.read_text(encoding="utf-8")


@pytest.mark.parametrize("value, says", [
    ("1,2,3", "expected two numbers X,Y in mm like 0.5,-1.2, not '1,2,3'"),
    ("abc", "expected two numbers X,Y in mm like 0.5,-1.2, not 'abc'"),
    ("25,0", "expected X and Y between -20 and 20 mm, not '25,0'"),
])
def test_a_bad_back_offset_is_one_line_and_saves_nothing(simple_deck, tmp_path, user_config, value, says):
    for command in (["build", str(simple_deck)], ["impose", str(tmp_path)], ["calibrate"]):
        result = run(*command, "--out", str(tmp_path / "o"), "--back-offset", value)
        assert result.exit_code == 2, result.output
        assert result.stdout == ""
        (line,) = result.stderr.splitlines()
        assert line.startswith(f"error: --back-offset: {says}")
    assert not user_config.exists() and not (tmp_path / "o").exists()


def test_a_bad_settings_file_is_one_line_naming_file_and_line(simple_deck, tmp_path, user_config):
    (simple_deck / "deckpress.yaml").write_text("# my printer\nback_offset: 1,2,3\n", encoding="utf-8")
    result = run("build", str(simple_deck), "--out", str(tmp_path / "o"))
    assert result.exit_code == 2
    assert result.output.splitlines() == [f"error: {simple_deck / 'deckpress.yaml'}:2: back_offset: expected two "
                                          "numbers X,Y in mm like 0.5,-1.2, not '1,2,3'"]
    user_config.write_text("back_offset: '0.5,-1.2'\nink: lowink\n", encoding="utf-8")
    result = run("calibrate", "--out", str(tmp_path / "o"))
    assert result.exit_code == 2
    assert result.output.splitlines() == [f"error: {user_config}:2: unknown setting 'ink' (settings are "
                                          "back_offset, default_printer, printers)"]
    assert not (tmp_path / "o").exists()


def test_impose_shifts_its_backs_by_the_saved_offset(tmp_path, user_config):
    from PIL import Image
    for name in ("front.png", "back.png"):
        Image.new("RGB", (825, 1125), (200, 40, 40)).save(tmp_path / name)
    result = run("impose", str(tmp_path / "front.png"), "--back", str(tmp_path / "back.png"), "--paper", "a4",
                 "--out", str(tmp_path / "plain"))
    assert result.exit_code == 0 and result.output.startswith("wrote 3 PDFs")  # nothing saved: no shift
    run("calibrate", "--out", str(tmp_path), "--back-offset", "0.75,0.5")
    result = run("impose", str(tmp_path / "front.png"), "--back", str(tmp_path / "back.png"), "--paper", "a4",
                 "--out", str(tmp_path / "moved"))
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == f"back pages shifted by 0.75, 0.5 mm (back offset from {user_config})"
    before, after = (back_corners(tmp_path / out / "imposed" / "imposed-backs-a4.pdf") for out in ("plain", "moved"))
    assert shifted_by(before, after, 0.75, 0.5)


def test_marks_for_a_cutting_machine_write_cut_files(simple_deck, tmp_path):
    result = run("build", str(simple_deck), "--paper", "a4", "--ink", "color", "--marks", "cutter", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "simple" / "cut").iterdir()) == [
        f"simple-{kind}-a4-p1.{ext}" for kind in ("box", "cards", "duplex") for ext in ("dxf", "svg")]  # fronts only
    assert result.output.splitlines()[-1].startswith("wrote 4 PDFs, 3 SVGs, 3 DXFs (5 pages, 3 cards from 1 deck) to ")
    result = run("build", str(simple_deck), "--marks", "crops", "--out", str(tmp_path))
    assert result.exit_code == 2 and "'crops' is not one of 'corners', 'lines', 'none', 'cutter'" in result.output


def test_impose_takes_the_same_marks(tmp_path):
    from PIL import Image
    for name in ("front.png", "back.png"):
        Image.new("RGB", (825, 1125), (200, 40, 40)).save(tmp_path / name)
    result = run("impose", str(tmp_path / "front.png"), "--back", str(tmp_path / "back.png"), "--paper", "letter",
                 "--marks", "cutter", "--back-marks", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert result.output.startswith("wrote 3 PDFs (4 pages, 1 card from 1 image) and 2 cut SVGs, 2 cut DXFs to ")
    assert sorted(p.name for p in (tmp_path / "imposed" / "cut").iterdir()) == [
        "imposed-cards-letter-p1.dxf", "imposed-cards-letter-p1.svg", "imposed-duplex-letter-p1.dxf",
        "imposed-duplex-letter-p1.svg"]


def test_new_writes_a_deck_and_says_what_to_do_next(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("new", "fruit")
    assert result.exit_code == 0, result.output
    assert result.output == "wrote a new deck in ./fruit/: read its README.md, then `deckpress build ./fruit`\n"
    assert (tmp_path / "fruit" / "deck.yaml").is_file()
    again = run("new", "fruit", "--from", "metronome")
    assert again.exit_code == 2
    assert again.output == ("error: 'fruit' already exists; deckpress new never writes over a folder: "
                            "choose another name\n")
    result = run("new", "night", "--from", "metronome")
    assert result.exit_code == 0
    assert "a deck extending metronome in ./night/" in result.output


# --- languages --------------------------------------------------------------------------------------

def test_a_plain_build_writes_every_language_the_deck_has(tmp_path):
    """`deckpress build kanon`: the German deck and its English translation, a line each, both in
    the report; the translation's files named after it, and each file in its own language."""
    import json

    from tests.pdfread import page_text

    result = run("build", "kanon", "--paper", "a4", "--ink", "color", "--out", str(tmp_path),
                 "--report", str(tmp_path / "build.json"))
    assert result.exit_code == 0, result.output
    german, english, total = result.output.splitlines()
    assert german.startswith("kanon (de): 75 cards, ") and english.startswith("kanon (en): 75 cards, ")
    assert total.startswith("wrote 10 PDFs (") and " cards from 1 deck in 2 languages) to " in total
    names = {p.name for p in (tmp_path / "kanon").iterdir()}
    kinds = ("cards", "backs", "duplex", "rules-board", "box")
    assert names == {f"kanon-{k}-a4.pdf" for k in kinds} | {f"kanon-en-{k}-a4.pdf" for k in kinds}
    rules_de = page_text(tmp_path / "kanon" / "kanon-rules-board-a4.pdf", 0)
    rules_en = page_text(tmp_path / "kanon" / "kanon-en-rules-board-a4.pdf", 0)
    assert "Ein Kartenspiel für 3–6 Personen." in rules_de and "card game" not in rules_de
    assert "A card game for 3–6 players." in rules_en and "Kartenspiel" not in rules_en
    cards_de = page_text(tmp_path / "kanon" / "kanon-cards-a4.pdf", 0).split()
    cards_en = page_text(tmp_path / "kanon" / "kanon-en-cards-a4.pdf", 0).split()
    assert cards_de[:2] == ["c", "c"] and cards_en[:2] == ["C", "C"]  # German note names are lower case
    report = json.loads((tmp_path / "build.json").read_text(encoding="utf-8"))
    assert [(d["id"], d["language"], len(d["files"])) for d in report["decks"]] == [("kanon", "de", 5),
                                                                                   ("kanon", "en", 5)]
    assert report["totals"]["decks"] == 2 and report["totals"]["files"] == 10


@pytest.mark.parametrize("lang, names", [("en", {"kanon-en-cards-a4.pdf"}), ("de", {"kanon-cards-a4.pdf"})])
def test_lang_picks_one_language(tmp_path, lang, names):
    result = run("build", "kanon", "--paper", "a4", "--ink", "color", "--lang", lang, "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert {p.name for p in (tmp_path / "kanon").iterdir() if "-cards-" in p.name} == names
    line, total = result.output.splitlines()
    assert line.startswith(f"kanon ({lang}): ")
    assert ("from 1 deck in en)" in total) == (lang == "en") and "languages" not in total


# --- the build report and --strict ----------------------------------------------------------------

def test_build_reports_each_deck_and_writes_the_report_as_json(lowres_deck, tmp_path, monkeypatch):
    import json

    from pypdf import PdfReader
    monkeypatch.chdir(tmp_path)
    result = run("build", "./deck", "--paper", "a4", "--ink", "color", "--out", "out", "--report", "build.json")
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "build.json").read_text(encoding="utf-8"))
    deck, = report["decks"]
    pages = sum(len(PdfReader(f).pages) for f in deck["files"])
    assert deck["pages"] == pages and len(deck["files"]) == 4 and all((tmp_path / f).is_file() for f in deck["files"])
    *summaries, total = result.stdout.splitlines()
    assert summaries == [f"lowres: 6 cards, 5 distinct faces, {pages} pages in 4 files, 4 warnings"]
    assert total.startswith(f"wrote 4 PDFs ({pages} pages, 6 cards from 1 deck) to out/ in ") and \
        total.endswith(" s, 4 warnings")
    warnings = result.stderr.splitlines()
    assert len(warnings) == 4 and warnings[0] == (f"warning: {Path('deck/deck.yaml')}:12: art/fruit.png is 60×80 px, "
                                                  "printed 40×53.3 mm: 38 dpi — will look blurred (300 dpi wanted)")
    assert [f"warning: {w['file']}:{w['line']}: {w['message']}" for w in deck["warnings"]] == warnings


def test_strict_fails_on_a_warning_after_writing_everything(lowres_deck, make_deck, tmp_path):
    import json

    from tests.conftest import SIMPLE_DECK, SIMPLE_LAYOUT
    out = tmp_path / "out"
    result = run("build", str(lowres_deck), "--paper", "a4", "--ink", "color", "--out", str(out), "--strict",
                 "--report", str(tmp_path / "build.json"))
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == "--strict: 4 warnings, exit status 1"
    assert len(list((out / "lowres").glob("*.pdf"))) == 4  # the files are written all the same
    assert json.loads((tmp_path / "build.json").read_text(encoding="utf-8"))["totals"]["warnings"] == 4
    checked = run("check", str(lowres_deck), "--strict", "--report", str(tmp_path / "check.json"))
    assert checked.exit_code == 1 and checked.stdout == "lowres: ok — 6 cards, 5 distinct faces, 4 warnings\n"
    report = json.loads((tmp_path / "check.json").read_text(encoding="utf-8"))
    assert report["command"] == "check" and report["totals"] == {"decks": 1, "cards": 6, "faces": 5, "warnings": 4}
    assert "files" not in report["decks"][0] and len(report["decks"][0]["warnings"]) == 4
    # without a warning, --strict changes nothing
    simple = make_deck(SIMPLE_DECK, {"simple": SIMPLE_LAYOUT})  # in place of the lowres deck
    assert run("check", str(simple), "--strict").exit_code == 0
    clean = run("build", str(simple), "--paper", "a4", "--ink", "color", "--out", str(out), "--strict")
    assert clean.exit_code == 0 and clean.stderr == ""


def test_a_mistake_is_still_exit_2_and_writes_no_report(make_deck, tmp_path):
    from tests.conftest import SIMPLE_DECK, SIMPLE_LAYOUT
    folder = make_deck(SIMPLE_DECK.replace("{title: Two, color: blue}", "{title: Two, colour: blue}"),
                       {"simple": SIMPLE_LAYOUT})
    for command in ("check", "build"):
        result = run(command, str(folder), "--strict", "--report", str(tmp_path / "report.json"))
        assert result.exit_code == 2 and result.stderr.startswith("error: ") and len(result.stderr.splitlines()) == 1
    assert not (tmp_path / "report.json").exists()


def test_a_report_that_cannot_be_written_is_one_line_and_exit_1(simple_deck, tmp_path):
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "x.json").write_text("a file, not a folder", encoding="utf-8")
    result = run("check", str(simple_deck), "--report", str(tmp_path / "taken" / "x.json" / "deeper.json"))
    assert result.exit_code == 1 and result.stderr.startswith("error: cannot write the report ")
    assert "Traceback" not in result.output


def test_a_broken_deck_among_good_ones_is_one_line_after_the_decks_before_it(make_deck, tmp_path, monkeypatch):
    monkeypatch.setenv("DECKPRESS_WORKERS", "2")
    broken = make_deck("id: broken\ntitle: [unclosed\n")
    result = run("build", "metronome", str(broken), "kanon", "--out", str(tmp_path / "out"), "--paper", "a4")
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert lines[-1].startswith("error: ") and "deck.yaml:" in lines[-1] and "Traceback" not in result.output
    assert (tmp_path / "out" / "metronome" / "metronome-cards-a4.pdf").is_file()  # before it: written
    assert not (tmp_path / "out" / "broken").exists()


# --- how much is said: -q/--quiet, -v/--verbose -------------------------------------------------------

@pytest.mark.parametrize("where", ["group", "command"])
def test_quiet_says_only_errors_and_still_writes_and_reports(lowres_deck, tmp_path, where):
    import json
    args = ["build", str(lowres_deck), "--paper", "a4", "--ink", "color", "--out", str(tmp_path / "out"),
            "--report", str(tmp_path / "build.json")]
    result = run(*(["-q", *args] if where == "group" else [*args, "--quiet"]))
    assert result.exit_code == 0 and result.stdout == "" and result.stderr == ""  # no summary, warnings or bar
    assert len(list((tmp_path / "out" / "lowres").glob("*.pdf"))) == 4
    assert json.loads((tmp_path / "build.json").read_text(encoding="utf-8"))["totals"]["warnings"] == 4
    strict = run("-q", "check", str(lowres_deck), "--strict")  # --strict still counts them, and says why it fails
    assert strict.exit_code == 1 and strict.stdout == "" and strict.stderr == "--strict: 4 warnings, exit status 1\n"
    broken = run("check", "-q", str(lowres_deck.parent / "nowhere"))  # an error is said all the same
    assert broken.exit_code == 2 and broken.stderr.startswith("error: ") and broken.stdout == ""


def test_quiet_calibrate_and_offset_say_nothing(tmp_path, user_config):
    result = run("calibrate", "-q", "--back-offset", "0.5,0", "--out", str(tmp_path))
    assert result.exit_code == 0 and result.output == ""
    assert (tmp_path / "calibrate-a4.pdf").is_file() and 'back_offset: "0.5,0"' in user_config.read_text()


def test_verbose_names_each_file_written_the_timings_and_each_warnings_kind(lowres_deck, tmp_path):
    import json
    result = run("-v", "build", str(lowres_deck), "--paper", "a4", "--ink", "color", "--out", str(tmp_path / "out"),
                 "--report", str(tmp_path / "build.json"))
    assert result.exit_code == 0, result.output
    deck, = json.loads((tmp_path / "build.json").read_text(encoding="utf-8"))["decks"]
    lines = result.stdout.splitlines()
    assert lines[0].startswith("lowres: 6 cards") and lines[-1].startswith("wrote 4 PDFs")
    files = [line.strip().split(" (")[0] for line in lines if line.startswith("  ")]
    assert sorted(map(Path, files)) == sorted(map(Path, deck["files"])) and all(Path(f).is_file() for f in files)
    assert all(re.fullmatch(r"  .+\.pdf \(\d+ pages?\)", line) for line in lines if line.startswith("  "))
    timings, = (line for line in lines if line.startswith("timings: "))
    assert re.fullmatch(r"timings: read, composed and laid out in \d+\.\d\d s, written in \d+\.\d\d s", timings)
    warned = result.stderr.splitlines()
    assert warned == [f"warning: {w['file']}:{w['line']}: {w['message']} [{w['kind']}]" for w in deck["warnings"]]


def test_verbose_impose_names_its_files(tmp_path):
    from PIL import Image
    Image.new("RGB", (750, 1050), (200, 40, 60)).save(tmp_path / "front.png")
    result = run("impose", str(tmp_path / "front.png"), "--paper", "a4", "--out", str(tmp_path / "out"), "-v")
    assert result.exit_code == 0, result.output
    assert f"  {tmp_path / 'out' / 'imposed' / 'imposed-cards-a4.pdf'} (1 page)" in result.stdout.splitlines()


def test_quiet_and_verbose_together_is_one_line_and_exit_2(simple_deck):
    result = run("-q", "check", str(simple_deck), "-v")
    assert result.exit_code == 2 and result.stderr == \
        "error: -q/--quiet and -v/--verbose say opposite things: give one of them\n"


# --- shell completion (click's own: _DECKPRESS_COMPLETE) --------------------------------------------

def complete(line: str, cwd: Path, shell: str = "bash") -> list[str]:
    """What the shell is offered for the last word of `line` (empty after a trailing space), asked of
    the command as the shell's completion script asks it: bash gets `type,value` lines."""
    import os
    words = line.split() + ([""] if line.endswith(" ") else [])
    env = {**os.environ, "_DECKPRESS_COMPLETE": f"{shell}_complete", "COMP_WORDS": " ".join(words),
           "COMP_CWORD": str(len(words) - 1)}
    proc = subprocess.run([sys.executable, "-m", "deckpress"], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return proc.stdout.splitlines()


def test_completion_offers_bundled_deck_ids_and_the_deck_folders_here(tmp_path):
    from deckpress.model.deck import bundled_deck_ids
    (tmp_path / "decks" / "mygame").mkdir(parents=True)
    (tmp_path / "decks" / "mygame" / "deck.yaml").write_text("id: mygame\n", encoding="utf-8")
    assert complete("deckpress build ", tmp_path) == [f"plain,{i}" for i in bundled_deck_ids()] + \
        ["plain,./decks/mygame"]
    assert complete("deckpress build met", tmp_path) == ["plain,metronome"]
    assert complete("deckpress check dec", tmp_path) == ["plain,decks/mygame"]
    assert complete("deckpress serve ./d", tmp_path) == ["plain,./decks/mygame"]
    assert complete("deckpress new x --from k", tmp_path) == ["plain,kanon"]
    assert complete("deckpress build ../elsewhere/", tmp_path) == ["dir,../elsewhere/"]  # the shell's folders
    zsh = complete("deckpress build ste", tmp_path, "zsh")
    assert zsh == ["plain", "steps", "bundled deck"]  # zsh shows what each is


def test_completion_offers_papers_presets_formats_and_sizes(tmp_path):
    from deckpress.units import PAPERS
    assert complete("deckpress build --paper ", tmp_path) == [f"plain,{p}" for p in [*PAPERS, "all"]]
    assert complete("deckpress build --paper a4,le", tmp_path) == ["plain,a4,letter", "plain,a4,legal"]
    assert complete("deckpress impose x.png --paper a4,a", tmp_path) == ["plain,a4,a3", "plain,a4,a5"]
    assert complete("deckpress calibrate --paper a", tmp_path) == ["plain,a4", "plain,a3", "plain,a5"]
    assert complete("deckpress build --preset ", tmp_path) == ["plain,mpc", "plain,printerstudio", "plain,tgc",
                                                                "plain,drivethru", "plain,drivethru-box",
                                                                "plain,factory"]
    assert complete("deckpress build --format pdf,p", tmp_path) == ["plain,pdf,png", "plain,pdf,preview"]
    assert complete("deckpress build --sleeves standard-", tmp_path) == ["plain,standard-american",
                                                                         "plain,standard-european"]
    assert complete("deckpress impose x.png --size bri", tmp_path) == ["plain,bridge"]
    assert "plain,--quiet" in complete("deckpress build --", tmp_path)
    assert complete("deckpress sch", tmp_path) == ["plain,schema"]


def test_the_completion_scripts_are_clicks_for_bash_zsh_and_fish(tmp_path):
    import os
    for shell, marker in (("bash", "complete -o nosort -F _deckpress_completion deckpress"),
                          ("zsh", "compdef _deckpress_completion deckpress"),
                          ("fish", "complete --no-files --command deckpress")):
        proc = subprocess.run([sys.executable, "-m", "deckpress"], cwd=tmp_path, capture_output=True, text=True,
                              env={**os.environ, "_DECKPRESS_COMPLETE": f"{shell}_source"}, timeout=60)
        assert proc.returncode == 0 and marker in proc.stdout, (shell, proc.stdout)


def test_quiet_shows_no_progress_bar_on_a_terminal(simple_deck, tmp_path):
    """On a terminal (a pseudo-terminal here) a build shows its bar on stderr; -q shows nothing."""
    import os
    import pty

    def on_terminal(*extra: str) -> str:
        leader, follower = pty.openpty()
        args = [sys.executable, "-m", "deckpress", "build", str(simple_deck), "--paper", "a4", "--ink", "color",
                "--out", str(tmp_path / "out"), *extra]
        with subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=follower) as proc:
            os.close(follower)
            seen = b""
            while True:
                try:
                    chunk = os.read(leader, 4096)
                except OSError:  # the terminal closed: the command is done
                    break
                if not chunk:
                    break
                seen += chunk
            assert proc.wait(timeout=120) == 0
        os.close(leader)
        return seen.decode("utf-8", "replace")

    shown = on_terminal()
    assert "[####" in shown and "100%" in shown
    assert on_terminal("-q") == ""


def test_a_cutter_and_a_die_line_from_the_command_line(simple_deck, tmp_path):
    result = run("build", str(simple_deck), "--paper", "letter", "--ink", "color", "--cutter", "cricut",
                 "--die-line", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "simple" / "cut").glob("simple-cards-*")) == [
        "simple-cards-letter-p1.png", "simple-cards-letter-p1.svg"]
    from pypdf import PdfReader
    root = PdfReader(str(tmp_path / "simple" / "simple-cards-letter.pdf")).trailer["/Root"]
    assert [g.get_object()["/Name"] for g in root["/OCProperties"]["/OCGs"]] == ["CutContour"]
    result = run("build", str(simple_deck), "--paper", "a4", "--die-line", "Die", "--out", str(tmp_path / "die"))
    assert result.exit_code == 0, result.output
    root = PdfReader(str(tmp_path / "die" / "simple" / "simple-cards-a4.pdf")).trailer["/Root"]
    assert [g.get_object()["/Name"] for g in root["/OCProperties"]["/OCGs"]] == ["Die"]


@pytest.mark.parametrize("args, said", [
    (["--cutter", "cricutt"], "error: no cutter named 'cricutt': one of silhouette, silhouette-4, cricut, scanncut, "
                              "or a profile file (.yaml) — did you mean 'cricut'?"),
    (["--cutter", "cricut", "--marks", "lines"], "error: --cutter lays sheets out for a cutting machine: leave out "
                                                 "--marks lines"),
    (["--die-line", "Cut Contour"], "error: a die line's name is a spot colour's"),
])
def test_a_wrong_cutter_or_die_line_is_one_line(simple_deck, tmp_path, args, said):
    result = run("build", str(simple_deck), "--paper", "a4", *args, "--out", str(tmp_path))
    assert result.exit_code == 2 and result.output.startswith(said) and result.output.count("\n") == 1, result.output


def test_shop_pictures_at_the_size_asked_and_a_bad_size_is_one_line(simple_deck, tmp_path):
    from PIL import Image

    result = run("build", str(simple_deck), "--format", "hand,showcase", "--shop-size", "480x300",
                 "--shop-background", "transparent", "--shop-cards", "2", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    for kind in ("hand", "showcase"):
        image = Image.open(tmp_path / "simple" / f"simple-{kind}.png")
        assert image.size == (480, 300) and image.mode == "RGBA"
    bad = run("build", str(simple_deck), "--format", "hand", "--shop-size", "480", "--out", str(tmp_path))
    assert bad.exit_code == 2 and bad.output == (
        "error: --shop-size: expected WIDTHxHEIGHT in pixels, like 1600x1000, not '480'\n")
