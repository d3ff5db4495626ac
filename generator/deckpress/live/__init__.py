"""`deckpress serve`: a deck kept built and shown in the browser, updated as its files are saved.

`preview` keeps the deck built (faces drawn only when they change, print files, report), `watch`
rebuilds it when a file it reads is saved, `server` serves the page (`assets/`), its state and
pictures over HTTP on 127.0.0.1. `run` puts the three together until Ctrl-C.
"""

from __future__ import annotations

import errno
import signal
import threading
import webbrowser
from collections.abc import Callable
from pathlib import Path
from types import FrameType

from .preview import Preview
from .server import LOOPBACK, PreviewServer
from .watch import Watcher

#: the port tried first when none is given; if it is taken, any free one
DEFAULT_PORT = 8765


class PortInUse(ValueError):
    """The port asked for is taken."""


def open_server(preview: Preview, host: str = LOOPBACK, port: int | None = None) -> PreviewServer:
    """A server for `preview` on `port`; with none given, DEFAULT_PORT, or any free port if that is taken."""
    try:
        return PreviewServer(preview, host, DEFAULT_PORT if port is None else port)
    except OSError as exc:
        if exc.errno != errno.EADDRINUSE:
            raise
        if port is not None:
            raise PortInUse(f"port {port} is in use: give another with --port, or --port 0 for any free one") from None
        return PreviewServer(preview, host, 0)


def run(ref: str | Path, *, host: str = LOOPBACK, port: int | None = None, open_browser: bool = True,
        players: int | None = None, lang: str | None = None, say: Callable[[str], None] = print,
        started: Callable[[str], None] | None = None, stop: threading.Event | None = None,
        refresh: bool = False) -> None:
    """Build the deck, serve it, rebuild it on every saved change; return on Ctrl-C (or SIGTERM),
    with the server closed and its files removed; or once `stop` is set. `say` hears each line for
    the user, `started` the page's address once it answers."""
    preview = Preview(ref, players, lang)
    preview.cards.refresh = refresh  # card lists at web addresses fetched anew the first time
    stop = stop or threading.Event()

    def stopping(signum: int, frame: FrameType | None) -> None:
        stop.set()

    try:
        preview.rebuild()
        server = open_server(preview, host, port)
        # every address (0.0.0.0, ::) is opened on this machine by its loopback one
        shown = LOOPBACK if host in ("0.0.0.0", "::", "") else f"[{host}]" if ":" in host else host
        url = f"http://{shown}:{server.port}/"
        serving = threading.Thread(target=server.serve_forever, args=(0.05,), name="deckpress-http")  # quick to stop
        serving.start()
        watcher = Watcher(preview)
        watcher.start()
        signals = (signal.SIGINT, signal.SIGTERM) if threading.current_thread() is threading.main_thread() else ()
        before = {sig: signal.signal(sig, stopping) for sig in signals}
        try:
            say(_first_line(preview, url))
            if started is not None:
                started(url)
            if open_browser:
                webbrowser.open(url)
            while not stop.wait(0.25):  # a wait with a timeout, so the signal handler gets to run
                pass
            say("stopped")
        finally:
            for sig, handler in before.items():
                signal.signal(sig, handler)
            watcher.stop()
            server.close()
            serving.join()
    finally:
        preview.close()


def _first_line(preview: Preview, url: str) -> str:
    state = preview.state()
    if state["deck"] is None:
        what = f"cannot build yet ({state['error']})"
    else:
        what = f"{state['deck']['title']}: {state['stats']['faces']} faces"
        what += f", {state['error']}" if state["error"] else ""
    return f"serving {what} at {url} — saved changes show at once; Ctrl-C stops"
