"""Interrupts (issue 17, class 6): Ctrl-C at any moment is one line and exit status 130; a build
killed mid-way leaves the deck's old files as they were, and nothing a user sees; the next build
cleans up what it left.

Real processes, stopped by real signals once the build has started writing (no timing: each test
waits for a file to appear, then signals)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import deckpress
from deckpress import atomic
from deckpress.atomic import replacing_folder, temporary_name
from deckpress.builder.deckbuild import build_deck

DECK = "metronome"
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def files(folder: Path) -> dict[str, tuple[int, int, bytes]]:
    """Every file under `folder` (hidden ones too): inode, modification time and contents."""
    return {str(p.relative_to(folder)): (p.stat().st_ino, p.stat().st_mtime_ns, p.read_bytes())
            for p in sorted(folder.rglob("*")) if p.is_file()}


def start(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.Popen:
    """`python -m deckpress ARGS` in a session of its own, as a terminal runs it (Ctrl-C reaches
    the whole process group: the command and its workers)."""
    env = {**os.environ, "PYTHONPATH": str(Path(deckpress.__file__).parents[1]), **(env or {})}
    return subprocess.Popen([sys.executable, "-m", "deckpress", *args], cwd=cwd, env=env, start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for(found, proc: subprocess.Popen, what: str):
    """Poll until `found()` gives something, while the process runs."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        value = found()
        if value:
            return value
        assert proc.poll() is None, f"ended before {what}: {proc.communicate()}"
        time.sleep(0.01)
    proc.kill()
    raise AssertionError(f"no {what} in two minutes")


def new_files(out: Path, old: dict[str, tuple[int, int, bytes]]) -> list[Path]:
    """Files under `out` that are not the old set's (by inode): what the running build has written."""
    inodes = {ino for ino, _, _ in old.values()}
    return [p for p in out.rglob("*") if p.is_file() and p.stat().st_ino not in inodes]


@pytest.fixture
def old_build(tmp_path) -> tuple[Path, dict[str, tuple[int, int, bytes]]]:
    """`out/metronome/` as an earlier build left it: its A4 colour PDFs and a file of the user's."""
    out = tmp_path / "out"
    build_deck(DECK, out, papers=["a4"], inks=["color"])
    (out / DECK / "notes.txt").write_text("mine\n")
    return out, files(out / DECK)


def build_args(out: Path) -> list[str]:
    # letter as well as A4, and PNGs: a build that rewrites the old files and adds others
    return ["build", DECK, "--out", str(out), "--ink", "color", "--format", "pdf,png"]


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGKILL])
def test_a_build_stopped_midway_leaves_the_old_files_as_they_were(old_build, signum):
    out, old = old_build
    proc = start(build_args(out), out.parent)
    wait_for(lambda: new_files(out, old), proc, "file written")
    os.killpg(proc.pid, signum)
    _, stderr = proc.communicate(timeout=60)
    assert files(out / DECK) == old
    if signum == signal.SIGINT:
        assert (proc.returncode, stderr) == (130, "interrupted\n")
        assert sorted(p.name for p in out.iterdir()) == [DECK]  # cleaned up on the way out
    else:
        leftovers = [p.name for p in out.iterdir() if p.name != DECK]
        assert leftovers == [temporary_name(DECK, proc.pid)]  # hidden from the user, and ...
        build_deck(DECK, out, papers=["letter"], inks=["color"])
        assert sorted(p.name for p in out.iterdir()) == [DECK]  # ... gone with the next build
        assert not [p for p in (out / DECK).rglob(".*")]


def test_ctrl_c_while_starting_up_is_one_line(tmp_path):
    """Ctrl-C while the command line's modules are being imported: a stand-in `click` says when it
    is being imported and then waits to be interrupted."""
    shim = tmp_path / "shim"
    shim.mkdir()
    (shim / "click.py").write_text("import sys, time\nprint('importing click', file=sys.stderr, flush=True)\n"
                                   "time.sleep(60)\n")
    env = {"PYTHONPATH": os.pathsep.join([str(shim), str(Path(deckpress.__file__).parents[1])])}
    proc = subprocess.Popen([sys.executable, "-m", "deckpress", "--help"], cwd=tmp_path, env={**os.environ, **env},
                            start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stderr.readline() == "importing click\n"
    os.killpg(proc.pid, signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert (proc.returncode, stdout, stderr) == (130, "", "interrupted\n")


def test_ctrl_c_while_card_images_are_drawn_on_every_core_is_one_line(tmp_path):
    """The drawing workers leave Ctrl-C to the command: no worker prints a traceback, and the
    command does not wait for the images still to come."""
    out = tmp_path / "out"
    proc = start(["build", DECK, "--out", str(out), "--format", "png", "--dpi", "600"], tmp_path)
    wait_for(lambda: list(out.glob(f".{DECK}.tmp*/{DECK}/png/*.png")), proc, "PNG written")
    os.killpg(proc.pid, signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert (proc.returncode, stderr) == (130, "interrupted\n")
    assert not out.exists() or list(out.iterdir()) == []


def test_a_build_keeps_the_files_it_does_not_make(old_build):
    """The swap replaces the deck's folder as a whole, but with what this build did not write
    carried over: a PNG build keeps the PDFs, and the user's own files."""
    out, old = old_build
    deckpress.build(DECK, out, formats="png")
    after = files(out / DECK)
    for name, (_, _, data) in old.items():
        assert after[name][2] == data
    assert any(name.startswith("png/") for name in after)


def test_a_build_killed_between_its_two_renames_is_undone_by_the_next(tmp_path, old_build):
    """Killed after moving the old folder away and before moving the new one in (a moment Ctrl-C
    cannot split, but SIGKILL can): the next build puts the old folder back before building."""
    out, old = old_build
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True).stdout.strip()
    wrapper = out / temporary_name(DECK, int(dead))
    wrapper.mkdir()
    (out / DECK).rename(wrapper / f".{DECK}.old")
    (wrapper / DECK).mkdir()  # the new set, complete or not
    deckpress.build(DECK, out, papers="letter", inks="color")
    after = files(out / DECK)
    assert after["notes.txt"][2] == b"mine\n"
    assert {name: data for name, (_, _, data) in after.items() if name in old} == \
        {name: data for name, (_, _, data) in old.items()}
    assert sorted(p.name for p in out.iterdir()) == [DECK]


def test_a_failed_build_leaves_the_folder_as_it_was(tmp_path):
    folder = tmp_path / "deck"
    folder.mkdir()
    (folder / "a.txt").write_text("old")
    with pytest.raises(RuntimeError):
        with replacing_folder(folder) as staged:
            (staged / "a.txt").unlink()
            (staged / "b.txt").write_text("new")
            raise RuntimeError
    assert [p.name for p in tmp_path.iterdir()] == ["deck"]
    assert [(p.name, p.read_text()) for p in folder.iterdir()] == [("a.txt", "old")]
    with replacing_folder(folder) as staged:
        (staged / "b.txt").write_text("new")
    assert sorted((p.name, p.read_text()) for p in folder.iterdir()) == [("a.txt", "old"), ("b.txt", "new")]


@pytest.mark.parametrize("to_group", [True, False], ids=["terminal", "parent-only"])
def test_ctrl_c_stops_every_deck_worker_and_leaves_no_folder_half_written(tmp_path, to_group):
    """Several decks built at once, interrupted once the first file is written: exit 130, no
    process of the build left, each deck folder the old one or none, nothing hidden left."""
    out = tmp_path / "out"
    build_deck(DECK, out, papers=["a4"], inks=["color"])
    old = files(out / DECK)
    proc = start(["build", DECK, "kanon", "steps", "--out", str(out), "--ink", "color"], tmp_path,
                 env={"DECKPRESS_WORKERS": "2"})
    wait_for(lambda: new_files(out, old), proc, "file written")
    (os.killpg if to_group else os.kill)(proc.pid, signal.SIGINT)
    _, stderr = proc.communicate(timeout=60)
    assert (proc.returncode, stderr) == (130, "interrupted\n")
    with pytest.raises(ProcessLookupError):  # the workers were waited for: none outlives the command
        os.killpg(proc.pid, 0)
    names = sorted(p.name for p in out.iterdir())
    assert not [n for n in names if n.startswith(".")] and DECK in names
    for name in names:  # a deck either finished before the interrupt or left as it was
        assert not [p for p in (out / name).rglob(".*")]
    if (out / DECK / f"{DECK}-cards-letter.pdf").exists():
        assert files(out / DECK) != old
    else:
        assert files(out / DECK) == old


PAUSED_AT_THE_SWAP = """
import os, runpy, sys, time
rename = os.rename
def paused(source, target, *args, **kwargs):  # the old folder moved away, the new one not yet in
    rename(source, target, *args, **kwargs)
    if os.path.basename(target) == ".{deck}.old":
        open({mark!r}, "w").close()
        time.sleep(600)
os.rename = paused
sys.argv = ["deckpress", *sys.argv[1:]]
runpy.run_module("deckpress", run_name="__main__")
"""


@pytest.mark.parametrize("zombies_known", [True, False], ids=["linux", "zombies-unknown"])
def test_a_build_killed_in_its_swap_and_never_reaped_is_recovered_by_the_next(tmp_path, old_build, monkeypatch,
                                                                              zombies_known):
    """SIGKILL between the two renames of the swap, and the process left a zombie (its parent never
    waits for it, so its number stays in use): the next build puts the old folder back from what
    is on disk, and the one after loses nothing either. Where a zombie cannot be told from a
    running process (not Linux), the old folder is put back all the same; only the emptied hidden
    folder waits (a day) to be removed."""
    out, old = old_build
    if not zombies_known:
        monkeypatch.setattr(atomic, "_zombie", lambda pid: False)
    mark = tmp_path / "swapping"
    env = {**os.environ, "PYTHONPATH": str(Path(deckpress.__file__).parents[1])}
    proc = subprocess.Popen([sys.executable, "-c", PAUSED_AT_THE_SWAP.format(deck=repr(DECK)[1:-1], mark=str(mark)),
                             "build", DECK, "--out", str(out), "--paper", "a4", "--ink", "color", "--format", "pdf"],
                            cwd=tmp_path, env=env, start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        wait_for(mark.exists, proc, "swap begun")
        os.killpg(proc.pid, signal.SIGKILL)
        time.sleep(0.2)
        os.kill(proc.pid, 0)  # not reaped: its number is still in use
        assert not (out / DECK).exists()
        for papers in ("letter", "a4"):
            deckpress.build(DECK, out, papers=papers, inks="color", formats="pdf")
            after = files(out / DECK)
            assert after["notes.txt"][2] == b"mine\n"
            assert set(old) <= set(after)
            if papers == "letter":  # the old A4 files as they were
                assert {name: after[name][2] for name in old} == {name: data for name, (_, _, data) in old.items()}
            hidden = [p for p in out.iterdir() if p.name != DECK]
            if zombies_known:  # the zombie's hidden folder is removed too
                assert hidden == []
            else:  # the killed run's hidden folder is left, without the old set
                assert [p.name for p in hidden] == [temporary_name(DECK, proc.pid)]
                assert not (hidden[0] / f".{DECK}.old").exists()
    finally:
        proc.kill()
        proc.wait()
