"""The docs stay true: generated element reference, worked examples that build, README == CI."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

import deckpress
from deckpress.model import bundled_deck_ids
from deckpress.model.elements import reference_markdown

ROOT = Path(__file__).resolve().parent.parent  # the repository: README, docs, .ci

DOCS = ROOT / "docs"


def test_layouts_md_holds_the_generated_element_reference():
    text = (DOCS / "LAYOUTS.md").read_text(encoding="utf-8")
    section = text.split("<!-- elements:begin -->\n", 1)[1].split("<!-- elements:end -->", 1)[0]
    assert section.strip() == reference_markdown().strip(), (
        "regenerate: python -c 'from deckpress.model.elements import reference_markdown; print(reference_markdown())'")


def worked_example(doc: str) -> tuple[str, str]:
    """The first two YAML blocks of a doc: a complete deck and its layout."""
    blocks = re.findall(r"```yaml\n(.*?)```", (DOCS / doc).read_text(encoding="utf-8"), re.S)
    return blocks[0], blocks[1]


def test_worked_examples_build_without_warnings(tmp_path):
    for doc in ("DECKS.md", "LAYOUTS.md"):
        deck_text, layout_text = worked_example(doc)
        deck = yaml.safe_load(deck_text)
        folder = tmp_path / deck["id"]
        (folder / "layouts").mkdir(parents=True)
        (folder / "deck.yaml").write_text(deck_text, encoding="utf-8")
        own = [name for name in deck["layouts"] if not (ROOT / "layouts" / f"{name}.yaml").exists()]
        assert len(own) == 1, doc
        (folder / "layouts" / f"{own[0]}.yaml").write_text(layout_text, encoding="utf-8")
        result, = deckpress.build(folder, tmp_path / "out", papers="a4", inks="color")
        assert result.outputs and not result.warnings.messages, (doc, result.warnings.messages)


def test_readme_commands_and_ci_agree():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"^    (python -m pip install .*)$", readme, re.M)
    assert commands == ['python -m pip install -e . && deckpress build',
                        'python -m pip install -e ".[test]" && python -m pytest']
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert commands[1] in ci.splitlines()
    assert (DOCS / "images" / "metronome-sheets.png").stat().st_size > 10_000
    assert "docs/images/metronome-sheets.png" in readme


@pytest.mark.parametrize("deck_id", bundled_deck_ids())
def test_the_readme_previews_are_the_decks_as_they_build(deck_id, tmp_path):
    """The project README shows each bundled deck's preview; a change to a deck or layout must
    bring a new picture. To refresh: `deckpress build --format preview --out /tmp/p` and copy
    /tmp/p/*/*-preview.png into docs/previews/."""
    committed = ROOT / "docs" / "previews" / f"{deck_id}-preview.png"
    assert f"docs/previews/{deck_id}-preview.png" in (ROOT / "README.md").read_text(encoding="utf-8")
    deckpress.build(deck_id, tmp_path, formats="preview")
    assert (tmp_path / deck_id / f"{deck_id}-preview.png").read_bytes() == committed.read_bytes()
