"""`deckpress` and `python -m deckpress`: the command, with Ctrl-C answered by one line.

The console script points here rather than at `cli.main` so that the interrupt handler is in place
before click and the package are imported: Ctrl-C at any moment, start-up included, prints
`interrupted` and ends with exit status 130 (128 + SIGINT, what shells report), never a traceback.
This module imports nothing of the package until then.

When the command is done, the process ends without finalising the interpreter (`_end`): every
file it wrote is closed by then, and freeing each object of a build one by one only to exit
cost a twentieth of a one-deck build's CPU.
"""

from __future__ import annotations

import atexit
import gc
import os
import signal
import sys
from types import FrameType

EXIT_INTERRUPTED = 130


class Interrupted(BaseException):
    """Ctrl-C. Not a KeyboardInterrupt, which click turns into `Aborted!` and exit status 1; a
    BaseException, so that no `except Exception` takes it, while `finally` blocks and context
    managers still clean up (a half-built output folder among them)."""


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise Interrupted


def run() -> None:
    """Run the `deckpress` command line."""
    signal.signal(signal.SIGINT, _interrupt)
    gc.disable()  # importing the command line makes objects that live to the end, no garbage to look for
    try:
        from .cli import main

        gc.freeze()  # and no later collection need look at them again
        # a build makes hundreds of thousands of small immutable values (faces, their items, page
        # plans, shaped words), freed by reference counting: it leaves no cycles to find (its peak
        # memory is the same with the collector off). Each collection walks every value made since
        # the last that is still alive, most of them kept for the rest of the build (caches, shaped
        # words): 0.07 s of the bundled build in one process every 50,000 allocations (0.11 s every
        # 10,000, more every 700). Every 500,000, no benchmark build collects at all, and memory
        # stays bounded should some input make cycles.
        gc.set_threshold(500_000, 10, 10)
        gc.enable()
        try:
            main(prog_name="deckpress")
            status: object = 0
        except SystemExit as exc:  # how click ends every command, done or not
            status = exc.code
        _end(status)
    except (Interrupted, KeyboardInterrupt):
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C while saying so changes nothing
        sys.stderr.write("interrupted\n")
        sys.stderr.flush()
        sys.exit(EXIT_INTERRUPTED)


def _end(status: object) -> None:
    """End the process (this never returns) with exit status `status` as `sys.exit` would, but without finalising the
    interpreter: the output is flushed and the exit handlers run (those of the libraries, and a
    coverage tool's), then `os._exit`. What finalising does besides is freeing every object and
    module, which an exiting process need not do.

    The usual way out is taken where it does something more: a message for a status (Python
    prints it), output that cannot be flushed (Python reports it, and exits with 120), a thread
    still running (Python waits for it), or a profiler, debugger or tracer watching (cProfile
    writes its file once the program has returned)."""
    if status is None:
        status = 0
    threading = sys.modules.get("threading")
    if (isinstance(status, int) and (threading is None or threading.active_count() == 1)
            and sys.getprofile() is None and sys.gettrace() is None):
        try:
            _flush()
            atexit._run_exitfuncs()  # what Python runs on its way out, run here as os._exit will not
            _flush()
        except OSError:
            pass
        else:
            os._exit(status)
    sys.exit(status)


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()


if __name__ == "__main__":
    run()
