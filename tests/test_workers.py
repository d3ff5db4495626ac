"""Worker processes (workers.py): results in order whatever order they finish in, progress from
every worker, the first failing item's error, no worker left behind, DECKPRESS_WORKERS."""

from __future__ import annotations

import multiprocessing
import os
import time
from pathlib import Path

import pytest

from deckpress.errors import DeckError
from deckpress.workers import ENV_WORKERS, fork_context, in_order, worker_count

forking = pytest.mark.skipif(fork_context() is None, reason="no safe fork here: one process")


def steps(item: int, progress, on_plan) -> tuple[int, int]:
    """Item n plans n steps and does them; the first items are the slowest, so they finish last."""
    if on_plan:
        on_plan(item)
    for _ in range(item):
        if progress:
            progress(1)
    time.sleep(0.05 * (5 - item) if item < 5 else 0)
    return item, os.getpid()


@forking
def test_results_come_in_order_from_several_workers_with_every_step_heard():
    planned, done = [], []
    results = in_order(steps, list(range(8)), done.append, planned.append, workers=2)
    assert [item for item, _ in results] == list(range(8))
    assert len({pid for _, pid in results}) == 2 and os.getpid() not in {pid for _, pid in results}
    assert sorted(planned) == list(range(8)) and sum(done) == sum(planned) == 28
    assert multiprocessing.active_children() == []


def test_one_worker_works_here(monkeypatch):
    monkeypatch.setenv(ENV_WORKERS, "1")
    assert worker_count() == 1
    assert {pid for _, pid in in_order(steps, [1, 2, 3])} == {os.getpid()}


@pytest.mark.parametrize("given", ["0", "two", "-1"])
def test_a_bad_worker_count_is_one_line(monkeypatch, given):
    monkeypatch.setenv(ENV_WORKERS, given)
    with pytest.raises(DeckError, match=f"{ENV_WORKERS}='{given}': give how many worker processes"):
        worker_count()


def fails_on_odd(item: tuple[int, Path], progress, on_plan) -> int:
    number, folder = item
    if number % 2:
        time.sleep(0.2 if number == 1 else 0)  # the later failure is heard first
        raise DeckError(f"item {number} is odd", "deck.yaml", number)
    time.sleep(0.3)
    (folder / f"{number}.done").write_text("")
    return number


@forking
@pytest.mark.parametrize("workers", [1, 2, 3])
def test_the_first_failing_item_in_the_order_is_raised_after_those_before_it(tmp_path, workers):
    with pytest.raises(DeckError) as failed:
        in_order(fails_on_odd, [(n, tmp_path) for n in range(6)], workers=workers)
    assert str(failed.value) == "deck.yaml:1: item 1 is odd"
    assert (tmp_path / "0.done").exists()  # begun before the failure, finished
    assert not (tmp_path / "4.done").exists()  # never begun
    assert multiprocessing.active_children() == []


def unpicklable(item: int, progress, on_plan) -> int:
    raise ValueError(lambda: item)  # a lambda does not pickle


@forking
def test_an_error_that_cannot_cross_is_said_in_a_runtime_error():
    with pytest.raises(RuntimeError, match="ValueError: <function"):
        in_order(unpicklable, [1, 2], workers=2)


def plans_until_stopped(item: tuple[int, Path], progress, on_plan) -> int:
    """Keeps saying its plan, deaf to Ctrl-C (as a worker is between the parent's closing its end
    and the parent's Ctrl-C arriving), and notes that it began and that its clean-up ran."""
    import signal

    number, folder = item
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    (folder / f"{number}.began").write_text("")
    try:
        for _ in range(2000):
            on_plan(1)
            time.sleep(0.005)
        return number
    finally:
        (folder / f"{number}.cleaned").write_text("")


@forking
def test_a_worker_whose_parent_has_gone_cleans_up_and_leaves_quietly(tmp_path, capfd):
    """The parent interrupted (here its plan callback) closes its pipes: a worker still sending
    meets a broken pipe, which is not the work's failure to report; it stops without a word. (A
    worker the parent's Ctrl-C reaches before its work begins does not begin it.)"""

    def interrupted(n: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        in_order(plans_until_stopped, [(n, tmp_path) for n in range(2)], on_plan=interrupted, workers=2)
    assert multiprocessing.active_children() == []
    began = sorted(p.stem for p in tmp_path.glob("*.began"))
    assert began and sorted(p.stem for p in tmp_path.glob("*.cleaned")) == began
    assert capfd.readouterr().err == ""
