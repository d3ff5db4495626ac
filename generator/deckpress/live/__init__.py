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

#: the port tried first when none is given
DEFAULT_PORT = 8765
#: ports tried, from the one asked for (or DEFAULT_PORT) up, before giving up: another preview,
#: or anything else, may hold the first few
PORT_TRIES = 20


class PortInUse(ValueError):
    """Every port tried is taken."""


def open_server(preview: Preview, host: str = LOOPBACK, port: int | None = None) -> PreviewServer:
    """A server for `preview` on `port` (None: DEFAULT_PORT), or the first free one of the
    PORT_TRIES ports from it up, as the README says; 0: any free port."""
    first = DEFAULT_PORT if port is None else port
    if first == 0:
        return PreviewServer(preview, host, 0)
    last = min(65535, first + PORT_TRIES - 1)
    for tried in range(first, last + 1):
        try:
            return PreviewServer(preview, host, tried)
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE:
                raise
    raise PortInUse(f"ports {first}–{last} are all in use: give another with --port, or --port 0 for any free one")


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
            wanted = DEFAULT_PORT if port is None else port
            say(_first_line(preview, url, wanted if wanted not in (0, server.port) else None))
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


def _first_line(preview: Preview, url: str, asked: int | None = None) -> str:
    state = preview.state()
    if state["deck"] is None:
        what = f"cannot build yet ({state['error']})"
    else:
        what = f"{state['deck']['title']}: {state['stats']['faces']} faces"
        what += f", {state['error']}" if state["error"] else ""
    line = f"serving {what} at {url} — saved changes show at once; Ctrl-C stops"
    return line if asked is None else f"{line} (port {asked} was taken)"
