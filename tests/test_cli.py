"""The command line: build, list, check; one-line errors with exit status 2; safe writes."""

from __future__ import annotations

import subprocess
import sys

import pytest
from click.testing import CliRunner

from generator import cli
from generator.impose import pdfsheets


def run(*args):
    return CliRunner().invoke(cli.main, list(args))


def test_build_writes_what_was_asked_and_says_so(simple_deck, tmp_path):
    result = run("build", str(simple_deck), "--paper", "a4", "--ink", "lowink", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "simple").iterdir()) == [
        "simple-backs-lowink-a4.pdf", "simple-box-lowink-a4.pdf", "simple-cards-lowink-a4.pdf",
        "simple-duplex-lowink-a4.pdf"]
    assert result.output.strip().startswith("wrote 4 PDFs (5 pages, 3 cards from 1 deck) to ")
    assert "\r" not in result.output and "█" not in result.output  # no progress bar when not a terminal


def test_build_in_cmyk_for_print_shops(simple_deck, tmp_path):
    result = run("build", str(simple_deck), "--paper", "a4", "--ink", "color", "--color", "cmyk", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "simple").iterdir()) == [
        "simple-backs-cmyk-a4.pdf", "simple-box-cmyk-a4.pdf", "simple-cards-cmyk-a4.pdf", "simple-duplex-cmyk-a4.pdf"]
    assert run("build", str(simple_deck), "--color", "rgba").exit_code == 2


def test_list_shows_bundled_decks_with_counts():
    result = run("list")
    assert result.exit_code == 0
    line = next(l for l in result.output.splitlines() if l.startswith("metronome"))
    assert "63 cards" in line and "18 rules/board" in line and "Guy T. Schafer" in line


def test_check_validates_without_writing(simple_deck, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("check", str(simple_deck))
    assert result.exit_code == 0 and "simple: ok — 3 cards, 3 distinct faces" in result.output
    assert not (tmp_path / "output").exists()


def test_a_broken_deck_gives_one_line_and_exit_2(make_deck, tmp_path):
    from tests.conftest import SIMPLE_DECK, SIMPLE_LAYOUT
    folder = make_deck(SIMPLE_DECK.replace("{title: Two, color: blue}", "{title: Two, colour: blue}"),
                       {"simple": SIMPLE_LAYOUT})
    for command in (["check", str(folder)], ["build", str(folder), "--out", str(tmp_path / "o")]):
        proc = subprocess.run([sys.executable, "-m", "generator.cli", *command], capture_output=True, text=True)
        assert proc.returncode == 2
        assert proc.stdout == ""
        assert proc.stderr.strip().splitlines() == [
            f"error: {folder / 'deck.yaml'}:16: unknown key 'colour' in card — did you mean 'color'?"]
        assert "Traceback" not in proc.stderr
    assert not (tmp_path / "o").exists()


def test_unknown_deck_is_an_error_not_a_crash():
    result = run("check", "metronom")
    assert result.exit_code == 2
    assert "no deck 'metronom'" in result.output and "did you mean 'metronome'" in result.output


def test_a_failed_write_leaves_the_good_file_alone(simple_deck, tmp_path, monkeypatch):
    assert run("build", str(simple_deck), "--paper", "a4", "--ink", "color", "--out", str(tmp_path)).exit_code == 0
    good = tmp_path / "simple" / "simple-cards-a4.pdf"
    before = good.read_bytes()

    def broken(path, *args, **kwargs):
        path.write_bytes(b"%PDF-1.4 half a file")
        raise OSError("disk full")

    monkeypatch.setattr(pdfsheets, "_write", broken)
    with pytest.raises(OSError):
        from generator.build import build_deck
        build_deck(simple_deck, tmp_path, ["a4"], ["color"])
    assert good.read_bytes() == before
    assert sorted(p.name for p in good.parent.iterdir()) == [
        "simple-backs-a4.pdf", "simple-box-a4.pdf", "simple-cards-a4.pdf", "simple-duplex-a4.pdf"]


def test_a_card_too_big_for_the_paper_is_tiled(make_deck, tmp_path):
    from tests.conftest import SIMPLE_DECK, SIMPLE_LAYOUT
    from tests.pdfread import page_text
    folder = make_deck(SIMPLE_DECK.replace("layouts:", "card: {width: 250mm, height: 300mm}\n    layouts:"),
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
    assert result.output.startswith("wrote ") and " PNGs, 1 CSV, 1 JSON (3 cards" in result.output
    lowink = run("build", str(simple_deck), "--format", "png", "--ink", "lowink", "--dpi", "72",
                 "--out", str(tmp_path))
    assert lowink.exit_code == 0 and (folder / "png-lowink" / "manifest.csv").exists()


def test_an_unknown_format_is_one_line_with_a_suggestion(simple_deck, tmp_path):
    result = run("build", str(simple_deck), "--format", "pdf,svgg", "--out", str(tmp_path))
    assert result.exit_code == 2
    errors = [l for l in result.output.splitlines() if l.startswith("Error")]
    assert errors == ["Error: Invalid value for '--format': unknown format 'svgg' — did you mean 'svg'? "
                      "(choose from pdf, gutterfold, png, svg, tts, preview)"]
    assert not (tmp_path / "simple").exists()


def test_a_preset_makes_pngs_and_a_mismatched_card_is_one_line(simple_deck, tmp_path):
    result = run("build", str(simple_deck), "--preset", "tgc", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "simple" / "png" / "manifest.csv").exists()
    assert list((tmp_path / "simple").glob("*.pdf"))  # pdf stays the default format
    deck_file = simple_deck / "deck.yaml"
    deck_file.write_text(deck_file.read_text(encoding="utf-8").replace("title: Simple", "title: Simple\ncard: tarot"),
                         encoding="utf-8")
    result = run("build", str(simple_deck), "--preset", "mpc", "--out", str(tmp_path / "again"))
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "error: preset mpc has no canvas for 70×120 mm cards; MakePlayingCards takes 63.5×88.9 mm"]
