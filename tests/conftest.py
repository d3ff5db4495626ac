"""Shared fixtures: builds made once per test run (the bundled decks, and any build a test file
reads but does not change), and tiny decks written on the fly."""

from __future__ import annotations

import base64
import io
import os
import pickle
import shutil
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
from filelock import FileLock
from PIL import Image as PILImage

from deckpress.builder.deckbuild import build_deck
from deckpress.builder.plan import DeckBuild

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


class Shared:
    """Outputs made once per test run and read by many tests, in every pytest-xdist worker:
    `shared(name, make)` calls `make(folder)` in an empty folder the first time any worker asks for
    `name` (the others wait for it), and returns (folder, what make returned, pickled).

    The folder is for reading only: a test that changes outputs copies them first. Each worker
    checks at the end that no shared file was changed, added or removed."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.made: dict[str, tuple[Path, object, dict]] = {}

    def __call__(self, name: str, make):
        if name not in self.made:
            folder = self.root / name
            folder.parent.mkdir(parents=True, exist_ok=True)
            done = folder.parent / f"{folder.name}.pickle"
            with FileLock(str(folder.parent / f"{folder.name}.lock")):
                if not done.exists():
                    shutil.rmtree(folder, ignore_errors=True)  # what a worker that failed left
                    folder.mkdir()
                    value = make(folder)
                    done.write_bytes(pickle.dumps(value))
            self.made[name] = (folder, pickle.loads(done.read_bytes()), _snapshot(folder))
        folder, value, _ = self.made[name]
        return folder, value

    def changed(self) -> list[str]:
        found = []
        for name, (folder, _, before) in self.made.items():
            after = _snapshot(folder)
            found += [f"{name}/{path}" for path in sorted(set(before) | set(after)) if before.get(path) != after.get(path)]
        return found


def _snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in folder.rglob("*") if p.is_file()}


@pytest.fixture(scope="session")
def shared(tmp_path_factory):
    # under xdist each worker has its own base temp folder inside the run's: share the run's
    base = tmp_path_factory.getbasetemp()
    root = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "shared"
    root.mkdir(exist_ok=True)
    made = Shared(root)
    yield made
    assert not made.changed(), f"tests changed shared outputs (copy them first): {made.changed()}"


@pytest.fixture(scope="session")
def shared_build(shared):
    """shared_build(name, ref, *args, **kwargs): `build_deck(ref, folder, *args, **kwargs)` once per
    test run. Gives (the folder it wrote into, the DeckBuild with its outputs and warnings; its deck
    is not kept: load_deck it if needed)."""

    def build(name: str, ref, *args, **kwargs) -> tuple[Path, DeckBuild]:
        return shared(name, lambda folder: _kept(build_deck(ref, folder, *args, **kwargs)))

    return build


def _kept(result: DeckBuild) -> DeckBuild:
    return replace(result, deck=None)  # a deck does not pickle


@pytest.fixture(scope="session")
def bundled_builds(shared):
    """Every bundled deck as `deckpress build` writes it (both papers, both inks, default players
    and language), built the first time a test asks for it: bundled_builds(deck_id) gives
    (the deck's output folder, its DeckBuild). All of them are in one folder, as in output/."""

    def build(deck_id: str) -> tuple[Path, DeckBuild]:
        return shared(f"bundled/{deck_id}", lambda folder: _kept(build_deck(deck_id, folder.parent)))

    return build


@pytest.fixture(scope="session")
def metronome_build(bundled_builds):
    """metronome built on both papers in both inks, as `deckpress build metronome` does."""
    return bundled_builds("metronome")


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


LOWRES_LAYOUT = """
    templates:
      front:
        fields: {art: ~}
        elements:
          - image: {src: "{art}", x: 5mm, y: 5mm, w: 40mm, h: 53.3mm, fit: stretch}
      back:
        elements:
          - image: {src: art/board.svg, x: 0mm, y: 0mm, w: 100%, h: 100%}
"""

LOWRES_DECK = """
    id: lowres
    title: Low resolution
    designer: Test
    license: CC0-1.0
    layouts: [lowres]
    components:
      - name: art
        front: front
        back: back
        cards:
          - {art: art/fruit.png}
          - {art: art/fruit.jpg}
          - {art: art/fruit.png, count: 2}
          - {art: art/soft.png}
          - {art: art/sharp.png}
"""


def picture(fmt: str, size: tuple[int, int]) -> bytes:
    buf = io.BytesIO()
    PILImage.new("RGB", size, (200, 60, 30)).save(buf, format=fmt)
    return buf.getvalue()


def board_svg() -> bytes:
    """100 × 100 units, the top-left quarter a 60 × 80 px picture embedded as a data: URI."""
    uri = "data:image/png;base64," + base64.b64encode(picture("PNG", (60, 80))).decode()
    return (b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" '
            b'height="100" viewBox="0 0 100 100"><rect width="100" height="100" fill="#ffcc00"/>'
            b'<image x="0" y="0" width="50" height="50" xlink:href="' + uri.encode() + b'"/></svg>')


def lowres_art() -> dict[str, bytes]:
    """The lowres deck's pictures: 60 × 80 px fruit in PNG and JPEG, a 400 × 500 px one, a 480 × 640 px
    one, and an SVG with a 60 × 80 px picture inside."""
    return {"art/fruit.png": picture("PNG", (60, 80)), "art/fruit.jpg": picture("JPEG", (60, 80)),
            "art/soft.png": picture("PNG", (400, 500)), "art/sharp.png": picture("PNG", (480, 640)),
            "art/board.svg": board_svg()}


@pytest.fixture
def lowres_deck(make_deck):
    """A deck whose pictures print at 38 dpi (PNG and JPEG, fronts), 48 dpi (inside the backs' SVG),
    238 dpi and 305 dpi: four low-resolution warnings."""
    return make_deck(LOWRES_DECK, {"lowres": LOWRES_LAYOUT}, lowres_art())


#: test files that take the most time (Chromium, builds in fresh processes, long texts, fuzzing,
#: hostile files): `python -m pytest -m quick` runs every other test, about half a minute on two
#: cores, for the loop between edits; the whole suite before a commit
SLOW = {"test_live_page.py", "test_live_preview.py", "test_live_server.py", "test_live_watch.py", "test_live.py",
        "test_text_hyphenate.py", "test_imposition_marks.py", "test_robustness_tables.py", "test_robustness_svg.py",
        "test_robustness_interrupts.py", "test_robustness_pictures.py", "test_fuzz.py", "test_install.py",
        "test_workers.py", "test_text_shaping_reference.py", "test_benchmarks.py",
        # metronome built for every cutter on both papers (a session fixture of 15 s on two cores)
        "test_imposition_cutters.py", "test_backends_cutfiles.py", "test_backend_pdfpages_die_line.py"}


def pytest_configure(config):
    config.addinivalue_line("markers", "quick: not in a slow file (tests/conftest.py SLOW): `-m quick` for the quick loop")
    config.addinivalue_line("markers", "slow: in a slow file (tests/conftest.py SLOW): `-m 'not slow'` is `-m quick`")


def pytest_collection_modifyitems(items):
    for item in items:
        item.add_marker(pytest.mark.slow if item.path.name in SLOW else pytest.mark.quick)


def pytest_addoption(parser):
    parser.addoption("--fuzz-cases", type=int, default=200,
                     help="how many mutated decks tests/test_fuzz.py checks (default 200; thousands for a long run)")
    parser.addoption("--fuzz-seed", type=int, default=16, help="the seed of tests/test_fuzz.py's mutations")


def pytest_generate_tests(metafunc):
    if "fuzz_case" in metafunc.fixturenames:
        cases = metafunc.config.getoption("--fuzz-cases")
        seed = metafunc.config.getoption("--fuzz-seed")
        metafunc.parametrize("fuzz_case", [(seed, n) for n in range(cases)], ids=lambda c: f"{c[0]}-{c[1]}")


#: Chromium for the `deckpress serve` page's tests (tests/test_live_page.py): Debian's, driven by
#: Playwright, whose own browser download this machine cannot make
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="session")
def browser():
    """A headless Chromium. Without one the page's tests are skipped, saying why; where
    DECKPRESS_BROWSER_TESTS=required (.ci/run sets it) they fail instead."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        why = "Playwright is not installed: pip install -e '.[test]'"
    else:
        why = None if CHROMIUM else "no Chromium to drive: install it (Debian: apt-get install chromium; .ci/run does)"
    if why:
        if os.environ.get("DECKPRESS_BROWSER_TESTS") == "required":
            pytest.fail(why)
        pytest.skip(why)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


#: librsvg's command line (Debian: librsvg2-bin), the SVG renderer of GNOME, ImageMagick and
#: libvips: tests/test_backends_svg.py holds the SVG backend's pages equal in it and in Chromium
RSVG_CONVERT = shutil.which("rsvg-convert")


@pytest.fixture(scope="session")
def rsvg_convert() -> str:
    """The path of rsvg-convert. Without it the tests that use it are skipped, saying why; where
    DECKPRESS_BROWSER_TESTS=required (.ci/run sets it, and installs librsvg2-bin) they fail instead."""
    if RSVG_CONVERT is None:
        why = "no rsvg-convert: install it (Debian: apt-get install librsvg2-bin; .ci/run does)"
        if os.environ.get("DECKPRESS_BROWSER_TESTS") == "required":
            pytest.fail(why)
        pytest.skip(why)
    return RSVG_CONVERT
