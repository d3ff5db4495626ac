"""Worker processes: how many to use, how they are started, and running independent pieces of work
(decks) in them with the results in order (`in_order`).

Workers are forked: they start at once with everything the parent imported and loaded, and need
no importable `__main__` (spawn would re-run the caller's script). Where fork is missing (Windows)
or unsafe (macOS, whose system libraries may hold locks across it), `fork_context` is None and
callers work in one process, or spawn (backends/raster.py). They are forked with Ctrl-C held
(`atomic.interrupts_held`), so a Ctrl-C while forking is the parent's to answer, once.

DECKPRESS_WORKERS=n in the environment caps the workers at n; 1 works in one process, as on a
system without fork.
"""

from __future__ import annotations

import gc
import os
import pickle
import signal
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from types import FrameType
from typing import TYPE_CHECKING, Any, TypeVar

from .atomic import interrupts_held
from .errors import DeckError

if TYPE_CHECKING:  # multiprocessing is imported when workers are started: a one-deck build never needs it
    from multiprocessing.connection import Connection
    from multiprocessing.context import BaseContext

ENV_WORKERS = "DECKPRESS_WORKERS"  #: caps the worker processes (1: none, everything in one process)

Item = TypeVar("Item")
Result = TypeVar("Result")
Progress = Callable[[int], None]
#: a piece of work: an item, and where to say how much is to come (`on_plan`) and each step done
Work = Callable[[Item, Progress | None, Progress | None], Result]


def worker_count() -> int:
    """How many worker processes to use: DECKPRESS_WORKERS if set, else one per core this
    process may run on."""
    given = os.environ.get(ENV_WORKERS, "").strip()
    if given:
        if not given.isdigit() or int(given) < 1:
            raise DeckError(f"{ENV_WORKERS}={given!r}: give how many worker processes to use, 1 or more")
        return int(given)
    if hasattr(os, "sched_getaffinity"):  # the cores we may use, fewer than cpu_count in a container
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def fork_context() -> BaseContext | None:
    """The fork start method where it is there and safe; None elsewhere (Windows, macOS)."""
    from multiprocessing import get_all_start_methods, get_context

    if "fork" in get_all_start_methods() and sys.platform != "darwin":
        return get_context("fork")
    return None


def ignore_interrupts() -> None:
    """For a worker that leaves Ctrl-C (sent to the whole process group by a terminal) to its
    parent, which stops the work and says so once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def in_order(work: Work[Item, Result], items: Sequence[Item], progress: Progress | None = None,
             on_plan: Progress | None = None, workers: int | None = None,
             before_fork: Callable[[], None] | None = None) -> list[Result]:
    """`work` done on each item, the results in the order of `items`, in forked workers (one per
    core, each taking the next item when it is free) where there are several items and fork is
    safe, else one after another here.

    Each worker's `on_plan` and `progress` calls come to the parent's, as they happen. An item
    that raises stops the handing out: the items being worked on are finished, and the error of
    the first failing item in the order is raised, as working one after another would have.
    Ctrl-C interrupts every worker (each cleans up as an interrupt in one process would: `finally`
    blocks run) and waits for them before it is raised here. `before_fork` runs here just before
    the workers are forked (not when there are none): what it loads, every worker has without
    loading it again."""
    count = min(workers or worker_count(), len(items))
    context = fork_context() if count > 1 else None
    if context is None:
        return [work(item, progress, on_plan) for item in items]
    if before_fork is not None:
        before_fork()
    # Everything made so far is the workers' inheritance: frozen, no worker's garbage collector
    # walks it (which would write to every page of it, copying the pages the fork shares, and
    # look at the fonts, patterns and shapes just loaded for nothing). Unfrozen once they are done,
    # unless something was frozen before (the command line freezes its imports for good).
    frozen_before = gc.get_freeze_count()
    gc.freeze()
    try:
        return _Crew(context, work, items, progress is not None, on_plan is not None).run(count, progress, on_plan)
    finally:
        if not frozen_before:
            gc.unfreeze()


class _Crew:
    """Workers forked for `in_order`, each with a pipe to the parent: the parent sends an item's
    index; the worker sends ("plan", n) and ("progress", n) while working, then ("done", index,
    result) or ("failed", index, error)."""

    def __init__(self, context: BaseContext, work: Work[Any, Any], items: Sequence[Any], progress: bool,
                 plan: bool) -> None:
        self.context, self.work, self.items = context, work, items
        self.progress, self.plan = progress, plan
        self.busy: dict[Connection, int] = {}  # each working worker's pipe, and the index of its item

    def run(self, count: int, progress: Progress | None, on_plan: Progress | None) -> list[Any]:
        pipes: list[Connection] = []
        processes = {}
        try:
            with interrupts_held():
                for _ in range(count):
                    ours, theirs = self.context.Pipe()
                    pipes.append(ours)
                    process = self.context.Process(target=self._serve, args=(theirs, pipes), daemon=False)
                    process.start()
                    theirs.close()  # the worker's alone, so that its death reads as the end of the pipe
                    processes[ours] = process
            return self._hand_out(pipes, progress, on_plan)
        except BaseException:
            for pipe in self.busy:  # stop what is being done; idle workers leave when their pipe closes
                os.kill(processes[pipe].pid, signal.SIGINT)
            raise
        finally:
            for pipe in pipes:
                pipe.close()
            with interrupts_held():  # a second Ctrl-C does not leave a worker behind
                for process in processes.values():
                    process.join()

    def _hand_out(self, pipes: list[Connection], progress: Progress | None, on_plan: Progress | None) -> list[Any]:
        from multiprocessing.connection import wait

        results: list[Any] = [None] * len(self.items)
        failures: dict[int, BaseException] = {}
        upcoming = iter(range(len(self.items)))

        def give(pipe: Connection) -> None:
            index = None if failures else next(upcoming, None)  # after a failure, nothing more is begun
            if index is not None:
                pipe.send(index)
                self.busy[pipe] = index

        for pipe in pipes:
            give(pipe)
        while self.busy:
            for pipe in wait(list(self.busy)):
                try:
                    kind, *message = pipe.recv()
                except EOFError:
                    raise RuntimeError(f"a worker process ended while working on item {self.busy[pipe] + 1} "
                                       f"of {len(self.items)}") from None
                if kind == "plan":
                    on_plan(message[0])  # type: ignore[misc]  (sent only when there is one)
                elif kind == "progress":
                    progress(message[0])  # type: ignore[misc]
                else:
                    index, value = message
                    if kind == "done":
                        results[index] = value
                    else:
                        failures[index] = value
                    del self.busy[pipe]
                    give(pipe)
        if failures:
            raise failures[min(failures)]
        return results

    def _serve(self, pipe: Connection, parents: list[Connection]) -> None:
        """A worker: items from the pipe until it closes. A Ctrl-C from the parent may come at any
        moment, while the worker is still setting up too: everything is inside the `try`."""
        try:
            signal.signal(signal.SIGINT, _stop_once)
            for parent in parents:  # inherited copies of the parent's ends: closed, so the parent's exit is seen
                parent.close()
            send = _to_parent(pipe)
            progress = _Gathered(send) if self.progress else None
            on_plan = (lambda n: send(("plan", n))) if self.plan else None
            while True:
                try:
                    index = pipe.recv()
                except EOFError:
                    return
                try:
                    result = self.work(self.items[index], progress, on_plan)
                    if progress:
                        progress.flush()
                    send(("done", index, result))
                except Exception as exc:
                    if progress:
                        progress.flush()
                    send(("failed", index, _portable(exc)))
        except KeyboardInterrupt:  # the parent's or the terminal's Ctrl-C: cleaned up on the way out
            return
        except _ParentGone:  # it was interrupted and closed its end before our Ctrl-C arrived
            return


class _ParentGone(BaseException):
    """The parent closed its end of the pipe: the work stops and cleans up as for Ctrl-C. A
    BaseException, so that it is not taken for the work's own failure."""


def _to_parent(pipe: Connection) -> Callable[[tuple[Any, ...]], None]:
    """Sending to the parent, where a broken pipe raises `_ParentGone`."""

    def send(message: tuple[Any, ...]) -> None:
        try:
            pipe.send(message)
        except (BrokenPipeError, ConnectionResetError):
            # the parent was interrupted: its Ctrl-C, still on its way, must not interrupt the
            # clean-up this starts (nor reach the worker's last lines, where nothing catches it)
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            raise _ParentGone from None

    return send


class _Gathered:
    """A worker's progress, sent to the parent at most every PROGRESS_EVERY seconds: a message a
    page cost the parent as much time as the pages took to lay out (a bar moved that often shows
    nothing more)."""

    def __init__(self, send: Callable[[tuple[Any, ...]], None]) -> None:
        self.send, self.pending, self.sent = send, 0, 0.0

    def __call__(self, steps: int) -> None:
        self.pending += steps
        now = time.monotonic()
        if now - self.sent >= PROGRESS_EVERY:
            self.flush()
            self.sent = now

    def flush(self) -> None:
        if self.pending:
            self.send(("progress", self.pending))
            self.pending = 0


PROGRESS_EVERY = 0.05  #: seconds


def _stop_once(signum: int, frame: FrameType | None) -> None:
    """A worker's Ctrl-C: the terminal's and the parent's are one, so the clean-up it starts is
    not itself interrupted."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def _portable(exc: Exception) -> Exception:
    """`exc` as it can cross to the parent: with the worker's traceback as a note (a DeckError is
    printed as its one line regardless), or, if it cannot be pickled, a RuntimeError saying it."""
    where = "in a worker process:\n" + "".join(traceback.format_exception(exc))
    try:
        exc.add_note(where)
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:
        plain = RuntimeError(f"{type(exc).__name__}: {exc}")
        plain.add_note(where)
        return plain
