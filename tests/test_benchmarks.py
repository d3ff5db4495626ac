"""benchmarks/: the one command answers --help, and the Squib-shaped deck it measures is a deck
deckpress accepts as it is (every text fits, the faces are the ones asked for), and the naive loop
draws the same cards; benchmarks/against.py checks out a revision, runs both builds and reports their
ratio. The benchmarks themselves are not run at size here: they measure, they do not test."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from pypdf import PdfReader

import deckpress

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
import squibdeck  # noqa: E402


def test_compare_help_names_every_option():
    proc = subprocess.run([sys.executable, str(BENCHMARKS / "compare.py"), "--help"],
                          capture_output=True, text=True, check=True)
    for option in ("--quick", "--repeat", "--keep"):
        assert option in proc.stdout
    assert "Squib" in proc.stdout  # the epilog says where Squib's figures come from


def test_squib_deck_passes_check_with_the_faces_asked_for(tmp_path):
    squibdeck.write_deck(tmp_path, 30, 10)
    result = deckpress.check(tmp_path)
    assert (result.cards, result.faces) == (30, 11)  # 10 fronts and the one back
    assert not list(result.warnings)  # the paragraphs shrink, but every one fits its box
    spec = json.loads((tmp_path / "cards.json").read_text(encoding="utf-8"))
    assert len(spec["cards"]) == 30 and len({c["title"] for c in spec["cards"]}) == 10
    assert len(spec["paragraphs"]) == 3


def test_naive_loop_draws_every_card_front_and_back(tmp_path):
    squibdeck.write_deck(tmp_path / "deck", 12, 12)
    pages = squibdeck.run_naive(tmp_path / "deck", tmp_path / "out")
    reader = PdfReader(tmp_path / "out" / "naive-duplex-letter.pdf")
    assert pages == len(reader.pages) == 4  # 9 + 3 fronts, each page followed by its backs
    fronts = reader.pages[0].extract_text() + reader.pages[2].extract_text()
    titles = [c["title"] for c in json.loads((tmp_path / "deck" / "cards.json").read_text())["cards"]]
    assert all(title in fronts for title in titles)
    assert reader.pages[1].extract_text().count("BENCH") == 9
    assert round(float(reader.pages[0].mediabox.width)) == 612  # Letter


def test_against_an_earlier_revision_runs_both_builds_and_reports_their_ratio():
    """benchmarks/against.py: a round of each build, this checkout against HEAD (the same code, so
    a ratio near 1), and the temporary worktree removed afterwards."""
    import pytest

    root = BENCHMARKS.parent
    if not (root / ".git").exists():
        pytest.skip("not a git checkout: nothing to check an earlier revision out of")
    worktrees = subprocess.run(["git", "-C", str(root), "worktree", "list"], capture_output=True, text=True).stdout
    proc = subprocess.run([sys.executable, str(BENCHMARKS / "against.py"), "HEAD", "--build", "distinct",
                           "--cards", "10", "--rounds", "1"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "| HEAD |" in proc.stdout and "| this checkout |" in proc.stdout
    ratio = float(re.search(r"of each round, median (\d+\.\d+):", proc.stdout).group(1))
    assert 0.3 < ratio < 3  # the same code: anything else is a measurement gone wrong
    assert subprocess.run(["git", "-C", str(root), "worktree", "list"], capture_output=True,
                          text=True).stdout == worktrees  # no worktree left behind
    bad = subprocess.run([sys.executable, str(BENCHMARKS / "against.py"), "no-such-revision"],
                         capture_output=True, text=True)
    assert bad.returncode != 0 and "cannot check out no-such-revision" in bad.stderr
