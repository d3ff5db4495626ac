"""The docs stay true: generated key tables and element reference, worked examples that build, README == CI."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

import deckpress
from deckpress.backends.raster import RasterJob, pixels, render, trim_box
from deckpress.compose import Composer
from deckpress.face import Image
from deckpress.model import bundled_deck_ids, load_deck
from deckpress.model import reference
from deckpress.model.keys import TABLES
from tests.faceread import leaves

ROOT = Path(__file__).resolve().parent.parent  # the repository: README, docs, .ci

DOCS = ROOT / "docs"


@pytest.mark.parametrize("doc", sorted(reference.DOC_TABLES))
def test_docs_hold_the_generated_key_references(doc):
    """DECKS.md's and LAYOUTS.md's key tables and element reference are what the declarations give."""
    text = (DOCS / doc).read_text(encoding="utf-8")
    assert reference.regenerate(text, doc) == text, "regenerate: python -m deckpress.model.reference"


def test_every_warning_kind_is_in_the_api_docs_and_every_kind_there_is_declared():
    from deckpress.errors import WARNING_KINDS

    table = (DOCS / "API.md").read_text(encoding="utf-8").split("| kind | what |")[1].split("\n\n")[0]
    documented = re.findall(r"`([a-z-]+)`", "\n".join(line.split(" | ")[0] for line in table.splitlines()))
    assert sorted(documented) == sorted(WARNING_KINDS)


def test_every_key_table_is_in_the_docs():
    documented = [t.name for tables in reference.DOC_TABLES.values() for t in tables]
    assert sorted(documented) == sorted(t.name for t in TABLES)


def test_regenerating_writes_between_the_markers_only(tmp_path):
    for doc in reference.DOC_TABLES:
        text = (DOCS / doc).read_text(encoding="utf-8")
        stale = text.replace("| `front` |", "| `frnt` |").replace("### `rect`", "### `rectangle`")
        assert stale != text
        (tmp_path / doc).write_text(stale, encoding="utf-8")
    assert reference.main([str(tmp_path)]) == 0
    for doc in reference.DOC_TABLES:
        assert (tmp_path / doc).read_text(encoding="utf-8") == (DOCS / doc).read_text(encoding="utf-8")


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



def test_the_replaced_back_parts_of_layouts_md_print_as_it_says(tmp_path):
    """LAYOUTS.md's plum and plain backs, in a copy of metronome: the plum one is plum where
    metronome's is navy and shows the new picture, once, where the metronome was; the plain one
    shows nothing there."""
    block, = [b for b in re.findall(r"```yaml\n(.*?)```", (DOCS / "LAYOUTS.md").read_text(encoding="utf-8"), re.S)
              if "extends: metronome-back" in b]
    folder = tmp_path / "my-metronome"
    shutil.copytree(ROOT / "decks" / "metronome", folder)
    (folder / "layouts").mkdir()
    (folder / "layouts" / "my-backs.yaml").write_text(block, encoding="utf-8")
    (folder / "art").mkdir()
    (folder / "art" / "back.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
                                            '<circle cx="5" cy="5" r="5" fill="#00a000"/></svg>', encoding="utf-8")
    deck_file = folder / "deck.yaml"
    text = deck_file.read_text(encoding="utf-8")
    assert "layouts: [common, metronome]\n" in text and "back: metronome-back" in text
    deck_file.write_text(text.replace("layouts: [common, metronome]", "layouts: [common, metronome, my-backs]")
                         .replace("back: metronome-back", "back: plum-back"), encoding="utf-8")
    deck = load_deck(folder)
    assert {c.back.name for c in deck.components if c.back} == {"plum-back"}

    card = deck.components[0].cards[0]
    composer = Composer(deck)
    plum, plain = (composer.face(card, deck.layouts.templates[name]) for name in ("plum-back", "plain-back"))

    assert [Path(i.source).name for i in leaves(plum.items) if isinstance(i, Image)] == ["back.svg"]
    dpi = 100
    plum_png, plain_png = render([RasterJob(f, trim_box(f), pixels(trim_box(f), dpi)) for f in (plum, plain)])

    def at(png, x_mm, y_mm):
        return png.getpixel((round(x_mm / 25.4 * dpi), round(y_mm / 25.4 * dpi)))

    def near(rgb, hex_):
        return all(abs(a - int(hex_[i:i + 2], 16)) <= 3 for a, i in zip(rgb, (1, 3, 5)))

    middle = plum.width / 2
    assert near(at(plum_png, 2, 45), "#4a2545") and near(at(plain_png, 2, 45), "#22304a")  # plum, and navy
    assert near(at(plum_png, middle, 38), "#00a000")  # the picture where the metronome was
    emblem = [round(v / 25.4 * dpi) for v in (middle - 14, 17, middle + 14, 59)]  # the metronome's disc and base
    assert {rgb for _, rgb in plain_png.crop(emblem).getcolors()} == {at(plain_png, 2, 45)}  # nothing but navy

def test_readme_commands_and_ci_agree():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"^    (python -m pip install .*)$", readme, re.M)
    assert commands == ['python -m pip install -e . && deckpress build',
                        'python -m pip install -e ".[test]" && python -m pytest']
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert commands[1] in ci.splitlines()
    assert (DOCS / "images" / "metronome-sheets.png").stat().st_size > 10_000
    assert "docs/images/metronome-sheets.png" in readme


def test_the_readme_leads_users_to_pipx_and_the_repository_the_metadata_names():
    """Users read `pipx install deckpress` first, then the repository to install from until it is on
    PyPI: the Homepage pyproject.toml gives, so the two never disagree."""
    import tomllib
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    urls = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]
    install = readme.split("## Install\n", 1)[1].split("\n## ", 1)[0]
    assert install.startswith("\n    pipx install deckpress\n")
    assert f"`pipx install git+{urls['Homepage']}`" in install
    assert readme.index("## Install\n") < readme.index("python -m pip install -e . && deckpress build")


def test_the_changelog_has_the_packages_version():
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## \[{re.escape(deckpress.__version__)}\] — \d{{4}}-\d\d-\d\d", changelog, re.M)
    assert changelog.index("## [Unreleased]") < changelog.index(f"## [{deckpress.__version__}]")


def test_the_readme_pictures_of_metronome_are_the_deck_as_it_builds(tmp_path):
    """The README's sheets and box are rendered from a build by docs/pictures.py; a change to the
    deck, its layouts or the sheets must bring new pictures: `python docs/pictures.py`."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("pictures", DOCS / "pictures.py")
    pictures = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pictures)
    for made in pictures.make(tmp_path):
        assert made.read_bytes() == (DOCS / "images" / made.name).read_bytes(), made.name


@pytest.mark.parametrize("deck_id", bundled_deck_ids())
def test_the_regression_views_are_the_decks_as_they_build(deck_id, tmp_path):
    """docs/previews/ holds a page per bundled deck (its faces, backs, box and rules-board sheets;
    the faces are the README's preview too): a change to a deck, its layouts or the sheets must
    bring new pictures, seen in review. To refresh: `python docs/previews.py [DECK…]`."""
    import importlib.util

    committed = ROOT / "docs" / "previews"
    assert f"docs/previews/{deck_id}-preview.png" in (ROOT / "README.md").read_text(encoding="utf-8")
    spec = importlib.util.spec_from_file_location("previews", DOCS / "previews.py")
    previews = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(previews)
    made = previews.make(tmp_path, [deck_id])
    names = {path.relative_to(tmp_path).as_posix() for path in made}
    assert {f"{deck_id}.md", f"{deck_id}-preview.png", f"{deck_id}/box.png", f"{deck_id}/rules-board.png"} <= names
    for path in made:
        name = path.relative_to(tmp_path).as_posix()
        assert path.read_bytes() == (committed / name).read_bytes(), f"{name}: refresh with python docs/previews.py {deck_id}"
    page = (committed / f"{deck_id}.md").read_text(encoding="utf-8")
    assert all(f"]({name})" in page for name in names - {f"{deck_id}.md", "README.md"})
    assert f"]({deck_id}.md)" in (committed / "README.md").read_text(encoding="utf-8")


