"""Shared fixtures: the metronome deck built once per test session, and tiny decks written on the fly."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from deckpress.builder.deckbuild import build_deck

# the shared PDF checks in tests/pdfread.py assert too: have pytest explain their failures
pytest.register_assert_rewrite("tests.pdfread")


@pytest.fixture(autouse=True)
def user_config(tmp_path_factory, monkeypatch):
    """Each test has a user settings file of its own (not there until something saves it), so no
    test reads or writes the real ~/.config/deckpress, and a back offset one test saves never
    reaches another. Subprocesses inherit it through the environment."""
    path = tmp_path_factory.mktemp("config") / "config.yaml"
    monkeypatch.setenv("DECKPRESS_CONFIG", str(path))
    return path


@pytest.fixture(scope="session")
def metronome_build(tmp_path_factory):
    """metronome built on both papers in both inks, as `deckpress build metronome` does."""
    out = tmp_path_factory.mktemp("output")
    result = build_deck("metronome", out)
    return out / "metronome", result


@pytest.fixture
def make_deck(tmp_path):
    """Write a deck folder from YAML strings; returns the folder. Layouts go in its layouts/ folder."""

    def make(deck: str, layouts: dict[str, str] | None = None, files: dict[str, bytes] | None = None) -> Path:
        folder = tmp_path / "deck"
        (folder / "layouts").mkdir(parents=True, exist_ok=True)
        (folder / "deck.yaml").write_text(textwrap.dedent(deck), encoding="utf-8")
        for name, text in (layouts or {}).items():
            (folder / "layouts" / f"{name}.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
        for name, data in (files or {}).items():
            path = folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        return folder

    return make


SIMPLE_LAYOUT = """
    templates:
      front:
        fields: {title: ~, color: red}
        elements:
          - rect: {x: -bleed, y: -bleed, w: 100% + 2*bleed, h: 100% + 2*bleed, fill: "{color} 20%"}
          - text: {text: "{title}", x: 5mm, y: 5mm, w: 100% - 10mm, h: 20mm, size: 12pt}
      back:
        elements:
          - rect: {x: -bleed, y: -bleed, w: 100% + 2*bleed, h: 100% + 2*bleed, fill: "#223344"}
"""

SIMPLE_DECK = """
    id: simple
    title: Simple
    designer: Test
    license: CC0-1.0
    layouts: [simple]
    palette:
      red: {color: "#cc2233", symbol: circle}
      blue: {color: "#2233cc", symbol: square}
    components:
      - name: things
        front: front
        back: back
        cards:
          - {title: One, count: 2}
          - {title: Two, color: blue}
"""


@pytest.fixture
def simple_deck(make_deck):
    return make_deck(SIMPLE_DECK, {"simple": SIMPLE_LAYOUT})
