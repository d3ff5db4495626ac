"""`deckpress` and `python -m deckpress`: the command, with Ctrl-C answered by one line.

The console script points here rather than at `cli.main` so that the interrupt handler is in place
before click and the package are imported: Ctrl-C at any moment, start-up included, prints
`interrupted` and ends with exit status 130 (128 + SIGINT, what shells report), never a traceback.
This module imports nothing of the package until then.
"""

from __future__ import annotations

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
    try:
        from .cli import main

        main(prog_name="deckpress")
    except (Interrupted, KeyboardInterrupt):
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C while saying so changes nothing
        sys.stderr.write("interrupted\n")
        sys.stderr.flush()
        sys.exit(EXIT_INTERRUPTED)


if __name__ == "__main__":
    run()
