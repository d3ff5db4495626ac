"""deckpress installs as a real package: a wheel built from a clean copy of the repository, installed
into a fresh virtual environment, works from an empty folder with the bundled decks, layouts and
fonts it carries, and with a user's own deck folder that uses the bundled `common` layouts.

The wheel is built without build isolation (the setuptools the tests run with builds it) and its
dependencies are the ones this test runs with, reached through a path file rather than downloaded,
so the test needs no network and takes seconds. The wheel itself is installed by pip, unpacked into
the new environment's site-packages, so nothing of the checkout can be seen from there: every file
the commands read comes out of the wheel.
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

REPO = Path(__file__).resolve().parent.parent
BUNDLED = ("circle-of-5", "kanon", "metronome", "steps", "test-piece")

OWN_DECK = """\
id: fruit
title: Fruit Salad
designer: A. Tester
license: CC0-1.0
card: poker
layouts: [common, fruit]
components:
  - name: fruit
    front: fruit
    back: blank
    cards:
      - {title: Apple, text: "Crisp and **red**.", count: 2}
      - {title: Pear, text: "Soft and green."}
"""

OWN_LAYOUT = """\
templates:
  fruit:
    extends: rule-card
    fields: {title: ~, text: ~}
"""


def _run(args: list[str], cwd: Path, env: dict[str, str], timeout: float = 120) -> subprocess.CompletedProcess:
    proc = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{args}: exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    assert "Traceback" not in proc.stderr
    return proc


def _clean_copy(target: Path) -> Path:
    """The repository's files as a fresh clone has them: tracked and new files, nothing ignored
    (no output/, build/, egg-info or caches)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = REPO / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(environment for subprocesses, the venv's bin folder, the wheel) after `pip install <wheel>`."""
    if shutil.which("git") is None:
        pytest.skip("git is needed to copy the repository as a clone has it")
    root = tmp_path_factory.mktemp("install")
    source = _clean_copy(root / "clone")
    wheels = root / "wheels"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-cache-dir",
          "-q", "-w", str(wheels), str(source)], root, dict(os.environ))
    wheel = next(wheels.glob("deckpress-*.whl"))
    venv = root / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], root, dict(os.environ))
    python = venv / "bin" / "python"
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "-q",
          str(wheel)], root, dict(os.environ))
    # the dependencies this test runs with, as plain path entries (their .pth files, the checkout's
    # editable install among them, are not read)
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                             capture_output=True, text=True, check=True).stdout.strip()
    Path(purelib, "dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["DECKPRESS_CONFIG"] = str(root / "config.yaml")
    return env, venv / "bin", wheel


@pytest.fixture
def empty(tmp_path) -> Path:
    folder = tmp_path / "empty"
    folder.mkdir()
    return folder


def test_the_wheel_carries_the_decks_layouts_and_fonts_with_their_licence(installed):
    _, _, wheel = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    for deck in BUNDLED:
        assert f"deckpress/data/decks/{deck}/deck.yaml" in names
        assert f"deckpress/data/decks/{deck}/README.md" in names
    assert "deckpress/data/decks/kanon/translations/en.yaml" in names
    assert any(n.startswith("deckpress/data/decks/test-piece/art/") for n in names)
    assert "deckpress/data/layouts/common.yaml" in names
    assert "deckpress/data/fonts/OFL.txt" in names
    assert "deckpress/data/fonts/NotoSans-Regular.ttf" in names
    assert not any(n.startswith(("generator/", "tests/", "output/")) for n in names)


def test_the_wheel_is_typed_and_its_metadata_names_the_one_version_urls_and_classifiers(installed):
    """py.typed (PEP 561) travels, and the metadata a package index shows is complete: the version
    is deckpress.__version__ (one source), with the project's links, classifiers and keywords."""
    import email

    import deckpress

    _, _, wheel = installed
    with zipfile.ZipFile(wheel) as archive:
        assert "deckpress/py.typed" in archive.namelist()
        info = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = email.message_from_bytes(archive.read(info))
    assert metadata["Version"] == deckpress.__version__
    assert wheel.name.startswith(f"deckpress-{deckpress.__version__}-")
    urls = dict(value.split(", ", 1) for value in metadata.get_all("Project-URL"))
    assert set(urls) == {"Homepage", "Documentation", "Changelog", "Issues"}
    assert all(url.startswith("https://") for url in urls.values())
    classifiers = metadata.get_all("Classifier")
    assert {"Typing :: Typed", "License :: OSI Approved :: MIT License", "Environment :: Console"} <= set(classifiers)
    assert "print-and-play" in metadata["Keywords"].split(",")
    assert any(dep.startswith("platformdirs") for dep in metadata.get_all("Requires-Dist"))


def test_the_installed_command_says_the_packages_version(installed, empty):
    import deckpress

    env, bin_dir, _ = installed
    assert _run(["deckpress", "--version"], empty, env).stdout == f"deckpress, version {deckpress.__version__}\n"
    code = "import importlib.metadata as m, deckpress; print(m.version('deckpress'), deckpress.__version__)"
    assert _run([str(bin_dir / "python"), "-c", code], empty, env).stdout.split() == [deckpress.__version__] * 2


def test_the_package_imports_as_deckpress_from_the_environment_not_the_checkout(installed, empty):
    env, bin_dir, _ = installed
    out = _run([str(bin_dir / "python"), "-c", "import deckpress, deckpress.bundled as b; "
                "print(deckpress.__file__); print(b.DECKS_DIR)"], empty, env).stdout.splitlines()
    venv = bin_dir.parent
    assert Path(out[0]).is_relative_to(venv), out
    assert Path(out[1]).is_relative_to(venv) and Path(out[1], "metronome", "deck.yaml").is_file(), out
    assert not Path(out[0]).is_relative_to(REPO)


def _own_deck(folder: Path) -> Path:
    deck = folder / "fruit"
    (deck / "layouts").mkdir(parents=True)
    (deck / "deck.yaml").write_text(OWN_DECK, encoding="utf-8")
    (deck / "layouts" / "fruit.yaml").write_text(OWN_LAYOUT, encoding="utf-8")
    return deck


def test_list_shows_the_bundled_decks_and_the_deck_folders_here(installed, empty):
    env, _, _ = installed
    _own_deck(empty)
    lines = _run(["deckpress", "list"], empty, env).stdout.splitlines()
    listed = {line.split()[0]: line for line in lines if line.startswith("  ")}
    assert set(listed) == {*BUNDLED, "./fruit"}
    assert lines.index("deck folders here:") > lines.index("bundled decks:")
    assert "3 cards" in listed["./fruit"] and "Fruit Salad" in listed["./fruit"]


def test_build_check_impose_and_calibrate_work_from_an_empty_folder(installed, empty):
    env, _, _ = installed
    _run(["deckpress", "build", "metronome", "--paper", "a4", "--ink", "color"], empty, env)
    cards = PdfReader(empty / "output" / "metronome" / "metronome-cards-a4.pdf")
    assert len(cards.pages) == 7  # 63 cards, nine a page
    assert "metronome" in cards.pages[0].extract_text()
    fonts = {f["/BaseFont"] for page in cards.pages for f in page["/Resources"]["/XObject"].values()
             for f in (f.get_object()["/Resources"].get("/Font", {}) or {}).values()}
    assert fonts, "the bundled fonts are embedded"

    assert "metronome: ok" in _run(["deckpress", "check", "metronome"], empty, env).stdout

    front = empty / "art" / "front.png"
    front.parent.mkdir()
    Image.new("RGB", (750, 1050), (200, 40, 60)).save(front)
    Image.new("RGB", (750, 1050), (20, 40, 160)).save(empty / "art" / "back.png")
    _run(["deckpress", "impose", "art/front.png", "--back", "art/back.png", "--paper", "a4"], empty, env)
    assert len(PdfReader(empty / "output" / "imposed" / "imposed-duplex-a4.pdf").pages) == 2

    _run(["deckpress", "calibrate"], empty, env)
    assert len(PdfReader(empty / "output" / "calibrate-a4.pdf").pages) == 2


def test_a_users_own_deck_uses_the_bundled_common_layouts_and_fonts(installed, empty):
    env, _, _ = installed
    _own_deck(empty)
    assert "fruit: ok — 3 cards" in _run(["deckpress", "check", "fruit"], empty, env).stdout
    _run(["deckpress", "build", "fruit", "--paper", "letter"], empty, env)
    pdf = PdfReader(empty / "output" / "fruit" / "fruit-cards-letter.pdf")
    text = pdf.pages[0].extract_text()
    assert text.count("Apple") == 2 and "Pear" in text
    assert (empty / "output" / "fruit" / "fruit-cards-lowink-letter.pdf").is_file()


def test_python_api_runs_from_the_installed_package(installed, empty):
    env, bin_dir, _ = installed
    code = textwrap.dedent("""
        import deckpress
        deck = deckpress.load_deck("kanon", lang="en")
        print(deck.id, deck.card_count())
        result, = deckpress.build("steps", "out", papers="a4", inks="lowink")
        print(sorted(o.path.name for o in result.outputs)[0])
    """)
    printed = _run([str(bin_dir / "python"), "-c", code], empty, env).stdout.split()
    assert printed == ["kanon", "75", "steps-backs-lowink-a4.pdf"]
    assert (empty / "out" / "steps" / "steps-cards-lowink-a4.pdf").is_file()


def test_new_writes_a_deck_that_builds_from_the_installed_package(installed, empty):
    """The starter deck travels in the wheel: `new` works, and so does a deck made --from a bundled one."""
    env, _, _ = installed
    _run(["deckpress", "new", "orchard"], empty, env)
    _run(["deckpress", "new", "night", "--from", "metronome"], empty, env)
    assert "orchard: ok — 10 cards" in _run(["deckpress", "check", "./orchard"], empty, env).stdout
    _run(["deckpress", "build", "./orchard", "./night", "--paper", "a4", "--ink", "color"], empty, env)
    assert "Sunrise" in PdfReader(empty / "output" / "orchard" / "orchard-cards-a4.pdf").pages[0].extract_text()
    assert len(PdfReader(empty / "output" / "night" / "night-cards-a4.pdf").pages) == 7


def test_serve_shows_its_page_from_the_installed_package(installed, empty):
    """The page's assets travel in the wheel: `deckpress serve` of the installed package answers
    with its page, its script and the deck's state."""
    env, _, _ = installed
    code = textwrap.dedent("""
        import threading, urllib.request, deckpress
        stop, seen = threading.Event(), []
        def started(url):
            for path in ("", "assets/app.js", "assets/app.css", "api/state"):
                with urllib.request.urlopen(url + path) as r:
                    seen.append((path, r.status, len(r.read()) > 100))
            stop.set()
        deckpress.serve("kanon", port=0, open_browser=False, say=lambda line: None, started=started, stop=stop)
        print(seen)
    """)
    printed = _run([str(env["PATH"].split(os.pathsep)[0] + "/python"), "-c", code], empty, env).stdout
    assert printed.strip() == str([(p, 200, True) for p in ("", "assets/app.js", "assets/app.css", "api/state")])


def test_shell_completion_works_from_the_installed_command(installed, empty):
    """The bash script click writes, sourced in a real bash, asks the installed `deckpress` and
    offers deck ids (bundled, and a deck folder here) and papers, as a Tab would."""
    if shutil.which("bash") is None:
        pytest.skip("bash is needed to run the completion script")
    env, _, _ = installed
    _own_deck(empty)
    script = _run(["deckpress"], empty, {**env, "_DECKPRESS_COMPLETE": "bash_source"}).stdout
    assert "complete -o nosort -F _deckpress_completion deckpress" in script

    def tab(*words: str) -> list[str]:
        asked = textwrap.dedent(f"""
            eval "$(_DECKPRESS_COMPLETE=bash_source deckpress)"
            COMP_WORDS=({' '.join(words)}); COMP_CWORD={len(words) - 1}; COMPREPLY=()
            _deckpress_completion deckpress
            printf '%s\\n' "${{COMPREPLY[@]}}"
        """)
        return _run(["bash", "-c", asked], empty, env).stdout.split()

    assert tab("deckpress", "build", "''") == [*BUNDLED, "./fruit"]
    assert tab("deckpress", "check", "ka") == ["kanon"]
    assert tab("deckpress", "build", "--paper", "a4,le") == ["a4,letter", "a4,legal"]
    assert tab("deckpress", "build", "--preset", "''") == ["mpc", "printerstudio", "tgc", "drivethru", "drivethru-box", "factory"]
