"""benchmarks/: the one command answers --help, and the Squib-shaped deck it measures is a deck
deckpress accepts as it is (every text fits, the faces are the ones asked for), and the naive loop
draws the same cards. The benchmarks themselves are not run here: they measure, they do not test."""

from __future__ import annotations

import json
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
