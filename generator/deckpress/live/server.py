"""The preview's HTTP server: the page, its state, the face and page pictures, the print files.

The standard library's HTTP server, bound to 127.0.0.1 unless asked otherwise. It serves a fixed
set of routes and nothing from the file system by path: the page's own assets (read from the
package once), pictures by the ids the state gives, and the last build's files by their names. A
request for anything else is 404, so there is no path to traverse and no folder to list. A
browser page from another site cannot read it either: the Host header must name this server
(`Hosts`: what defeats DNS rebinding, whatever address it listens on), and answers carry no CORS
headers.

What it holds is bounded: the kernel keeps BACKLOG connections not yet accepted, a pool of POOL
threads answers the accepted ones in turn (QUEUED of them waiting at most), a connection has
TIMEOUT seconds to send its request, and the event streams have threads of their own, STREAMS at
most. Closing cuts the connections still open, so Ctrl-C ends it at once, half-sent requests and
all, and every thread is joined before the process ends.

`POST /api/open` opens a file of the deck at a line in the user's editor (`editor`): its body is
JSON, `{"file", "line", "token"}`, and it is done only with the token this server made when it
started, which is written into the page it serves (a page of another site cannot read it: no
CORS headers), and only for a file the deck reads (`Preview.openable`). A missing or wrong token,
a body that is not JSON, an Origin header of another site, or a request from another machine
(under `--host` beyond loopback) is 403; any other file 404.

`/api/events` is a Server-Sent Events stream: each new version of the preview is one message,
and the page then fetches `/api/state`. It needs no library in the browser, reconnects by itself
when the server comes back, and works through the plain HTTP/1.0 this server speaks.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import queue
import re
import secrets
import socket
import sys
import threading
import traceback
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, HTTPServer
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from .editor import editor_name, open_in_editor
from .preview import Preview

LOOPBACK = "127.0.0.1"
#: the names this machine has for itself alone, as a Host header writes them
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
#: threads answering requests: a page asks for the pictures in view a few at a time, and a
#: picture not yet drawn waits for pdfium, which draws one at a time anyway
POOL = 16
#: connections accepted and waiting for a thread of the pool; past it, 503 at once
QUEUED = 1024
#: connections the kernel holds before they are accepted (`listen`'s backlog)
BACKLOG = 128
#: event streams at once (one per open page); past it the oldest is ended and its page reconnects
STREAMS = 32
#: seconds a connection may take to send its request, or to take each 64 kB of an answer: then it
#: is closed, and its thread answers the next one
TIMEOUT = 10.0
#: what an answer is written in, each part within TIMEOUT
CHUNK = 65536
#: seconds between keep-alive comments on an idle event stream (a proxy or a sleeping laptop may
#: close a silent connection; the comment also tells the server the page has gone)
KEEP_ALIVE = 15.0

ASSET_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
               ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; "
                               "base-uri 'none'; form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
}
FILE_TYPES = {".pdf": "application/pdf", ".json": "application/json"}
#: the largest body `POST /api/open` reads: a path and a line
OPEN_BODY = 8192
#: what the page's meta tags hold until the server fills them in (`page`)
TOKEN_MARK, EDITOR_MARK = b"{{token}}", b"{{editor}}"

_FACE = re.compile(r"/face/([0-9a-f]{6}-[0-9]+)(?:-(lowink))?(-bleed)?\.png")
_PAGE = re.compile(r"/sheet/([0-9a-f]{16})/([0-9]{1,4})\.png")
_FILE = re.compile(r"/files/([A-Za-z0-9._-]{1,200})")


def assets() -> dict[str, tuple[bytes, str]]:
    """The page's files, by the path they are served at: read from the package, once."""
    folder = resources.files(__package__) / "assets"
    found = {}
    for item in folder.iterdir():
        suffix = "." + item.name.rsplit(".", 1)[-1]
        if item.is_file() and suffix in ASSET_TYPES:
            found[f"/assets/{item.name}"] = (item.read_bytes(), ASSET_TYPES[suffix])
    found["/"] = found["/assets/index.html"]
    return found


class Hosts:
    """The Host headers a server answers to: what defeats DNS rebinding, in which a page of another
    site points its own name at this machine and reads what the server says. The browser sends
    the name the page was loaded from, so a request under any name not this machine's own is
    refused (403), whatever address the server listens on.

    Answered, each with the server's port (or none, on port 80): the loopback names
    (`localhost`, `127.0.0.1`, `[::1]`); the address it was started on (`--host`), as given; and,
    when it listens beyond loopback, this machine's own name (`socket.gethostname()`, and that
    name `.local`, as mDNS has it) and any address written as numbers. A numeric address cannot
    come from a rebinding page, which is always loaded by a name; it is how another machine on
    the network reaches this one, through whichever of its addresses, a container's port mapping
    or a router, so they are not listed (and a laptop that changes networks goes on answering)."""

    def __init__(self, host: str, port: int) -> None:
        self.port = port
        names = {*LOOPBACK_NAMES, _bracketed(host.lower())} if host else set(LOOPBACK_NAMES)
        self.numeric = not is_loopback(host)
        if self.numeric:
            own = socket.gethostname().lower()
            names |= {own, f"{own}.local"} if own and "." not in own else {own}
        self.names = frozenset(name for name in names if name)

    def allows(self, header: str) -> bool:
        name, colon, port = header.strip().lower().rpartition(":")
        if not colon or name.endswith(":") or (name.startswith("[") != name.endswith("]")):
            name, port = header.strip().lower(), ""  # no port: an IPv6 address alone, or port 80
        if port != str(self.port) and not (port == "" and self.port == 80):
            return False
        if name in self.names:
            return True
        return self.numeric and _is_address(name)


def is_loopback(host: str) -> bool:
    """Whether `host` (as --host takes it) is this machine alone: `localhost`, 127.x.x.x, ::1."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _bracketed(host: str) -> str:
    """An address as a Host header writes it: IPv6 ones in brackets."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def _is_address(name: str) -> bool:
    """Whether a Host header's name is an IP address (IPv6 in brackets), not a name."""
    try:
        if name.startswith("["):
            return name.endswith("]") and ipaddress.ip_address(name[1:-1]).version == 6
        return ipaddress.ip_address(name).version == 4
    except ValueError:
        return False


class PreviewServer(HTTPServer):
    """An HTTP server for one `Preview`: a pool of POOL threads answers the requests, in the order
    they came, and the event streams have threads of their own (at most STREAMS)."""

    #: the kernel's queue of connections not yet accepted (http.server's default is 5: a page that
    #: opens 200 at once lost some for a minute, their handshakes dropped and retried)
    request_queue_size = BACKLOG

    def __init__(self, preview: Preview, host: str, port: int) -> None:
        self.preview = preview
        self.pages = assets()
        #: what a request to open a file in the editor must carry: made anew each run, and written
        #: into the page, which a page of another site cannot read
        self.token = secrets.token_urlsafe(24)
        self.closing = threading.Event()
        self._waiting: queue.Queue[tuple[socket.socket, Any] | None] = queue.Queue(QUEUED)
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()  # the connections a pool thread is answering
        self._streams: dict[socket.socket, tuple[threading.Thread, threading.Event]] = {}  # oldest first
        self._pool: list[threading.Thread] = []
        if ":" in host:
            self.address_family = socket.AF_INET6
        super().__init__((host, port), Handler)  # a port taken: OSError, and `server_close` called
        self.port = self.server_address[1]
        self.hosts = Hosts(host, self.port)
        # not daemons: closing joins them, so the process ends with its main thread alone and
        # interpreter shutdown never meets a thread inside pdfium or HarfBuzz (a SIGSEGV)
        self._pool = [threading.Thread(target=self._work, name=f"deckpress-http-{n}") for n in range(POOL)]
        for thread in self._pool:
            thread.start()

    def process_request(self, request: Any, client_address: Any) -> None:
        """Queue an accepted connection for the pool; past QUEUED waiting, answer 503 at once."""
        try:
            self._waiting.put_nowait((request, client_address))
        except queue.Full:
            _refuse(request)
            self.shutdown_request(request)

    def _work(self) -> None:
        """A thread of the pool: answer the waiting connections, until told to end (None)."""
        while (waiting := self._waiting.get()) is not None:
            request, client_address = waiting
            with self._lock:  # once closing, `server_close` cuts every connection in `_open`
                answering = not self.closing.is_set()
                if answering:
                    self._open.add(request)
            try:
                if answering:
                    self.finish_request(request, client_address)
            except Exception:  # noqa: BLE001  as socketserver does: said, and the next one answered
                self.handle_error(request, client_address)
            finally:
                with self._lock:
                    self._open.discard(request)
                    streaming = request in self._streams
                if not streaming:
                    self.shutdown_request(request)

    def stream(self, connection: socket.socket, send: Callable[[socket.socket, threading.Event], None]) -> None:
        """Hand `connection` to a thread of its own running `send(connection, ending)`, which ends
        when `ending` is set; the pool thread that answered it is free again. Past STREAMS, the
        oldest stream is ended (a page reloaded leaves its old stream open until the next write
        finds it gone; a page still there reconnects by itself)."""
        ending = threading.Event()

        def run() -> None:
            try:
                send(connection, ending)
            except OSError:
                pass  # the page was closed or reloaded, or stopped reading
            finally:
                with self._lock:
                    self._streams.pop(connection, None)
                self.shutdown_request(connection)

        with self._lock:
            if self.closing.is_set():
                return
            if len(self._streams) >= STREAMS:
                next(iter(self._streams.values()))[1].set()
            self._streams[connection] = (threading.Thread(target=run, name="deckpress-events"), ending)
            self._streams[connection][0].start()
        self._wake()

    def _wake(self) -> None:
        with self.preview.changed:
            self.preview.changed.notify_all()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A page closed or reloaded while a picture was on its way is no error; anything else is a
        bug, whose traceback the standard library prints."""
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)

    def close(self) -> None:
        """Stop serving: no more connections, the event streams ended, the connections being
        answered cut (one that sent half a request would hold its thread until its timeout)."""
        self.shutdown()
        self.server_close()

    def server_close(self) -> None:
        self.closing.set()
        super().server_close()
        with self._lock:
            for connection in self._open:
                _cut(connection)
            streams = list(self._streams.values())
            for _, ending in streams:
                ending.set()
        self._wake()
        while True:  # connections accepted but not yet answered are closed unanswered
            try:
                waiting = self._waiting.get_nowait()
            except queue.Empty:
                break
            if waiting is not None:
                self.shutdown_request(waiting[0])
        for _ in self._pool:
            self._waiting.put(None)
        for thread in self._pool:
            thread.join()
        for thread, _ in streams:
            thread.join()


def _attribute(text: str) -> str:
    """`text` safe inside an HTML attribute in double quotes."""
    return (text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;"))


def _refuse(request: socket.socket) -> None:
    """Answer 503 without waiting for the request: the pool's queue is full."""
    try:
        request.setblocking(False)
        request.send(b"HTTP/1.0 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
                     b"Retry-After: 1\r\nContent-Length: 5\r\n\r\nbusy\n")
    except OSError:
        pass


def _cut(connection: socket.socket) -> None:
    """End a connection another thread is reading or writing: that thread sees it closed."""
    try:
        connection.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


class Handler(BaseHTTPRequestHandler):
    server: PreviewServer
    timeout = TIMEOUT  # a connection that sends half a request is closed, its thread freed

    def version_string(self) -> str:
        return "deckpress"

    def do_GET(self) -> None:  # noqa: N802  (the name http.server calls)
        self._answer(body=True)

    def do_HEAD(self) -> None:  # noqa: N802
        self._answer(body=False)

    def _answer(self, body: bool) -> None:
        """Answer, whatever happens: a bug is a 500 (its traceback printed, as a rebuild's is),
        not a connection closed without a word."""
        self._started = False
        try:
            self._route(body)
        except ConnectionError:
            raise  # the page went: nothing to answer
        except Exception:  # noqa: BLE001
            traceback.print_exc(file=sys.stderr)
            if not self._started:
                self._send(HTTPStatus.INTERNAL_SERVER_ERROR, b"deckpress failed: see its terminal\n",
                           "text/plain; charset=utf-8", body=body)

    def _route(self, body: bool) -> None:
        if not self.server.hosts.allows(self.headers.get("Host", "")):
            return self._send(HTTPStatus.FORBIDDEN, b"this server answers only to its own address\n",
                              "text/plain; charset=utf-8", body=body)
        path = urlsplit(self.path).path
        preview = self.server.preview
        if path in self.server.pages:
            content, kind = self.server.pages[path]
            if path in ("/", "/assets/index.html"):  # the page, with this run's token and the editor named
                content = content.replace(TOKEN_MARK, self.server.token.encode()).replace(
                    EDITOR_MARK, _attribute(editor_name()).encode())
                return self._send(HTTPStatus.OK, content, kind, body=body, cache="no-store")
            return self._send(HTTPStatus.OK, content, kind, body=body, cache="no-cache")
        if path == "/api/open":  # changes something: POST only
            return self._send(HTTPStatus.METHOD_NOT_ALLOWED, b"POST only\n", "text/plain; charset=utf-8", body=body,
                              extra={"Allow": "POST"})
        if path == "/api/state":
            return self._send(HTTPStatus.OK, preview.state_json(), "application/json", body=body, cache="no-store")
        if path == "/api/events" and body:
            return self._events()
        if match := _FACE.fullmatch(path):
            png = preview.face_png(match[1], (match[2] or "color") + (match[3] or ""))
            if png is not None:  # a face's picture never changes: a changed face has a new id
                return self._send(HTTPStatus.OK, png, "image/png", body=body, cache="max-age=86400, immutable")
        elif match := _PAGE.fullmatch(path):
            png = preview.page_png(match[1], int(match[2]))
            if png is not None:  # named by the file's digest: the same name is the same page
                return self._send(HTTPStatus.OK, png, "image/png", body=body, cache="max-age=86400, immutable")
        elif match := _FILE.fullmatch(path):
            found = preview.file(match[1])
            try:
                content = found.read_bytes() if found is not None else None
            except OSError:  # replaced by a newer build's since the page was told of it
                content = None
            if found is not None and content is not None:
                return self._send(HTTPStatus.OK, content, FILE_TYPES.get(found.suffix, "application/octet-stream"),
                                  body=body, cache="no-store",
                                  extra={"Content-Disposition": f'attachment; filename="{found.name}"'})
        self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8", body=body)

    def do_POST(self) -> None:  # noqa: N802
        self._started = False
        try:
            self._open()
        except ConnectionError:
            raise
        except Exception:  # noqa: BLE001  as `_answer`: a bug is a 500, its traceback printed
            traceback.print_exc(file=sys.stderr)
            if not self._started:
                self._text(HTTPStatus.INTERNAL_SERVER_ERROR, "deckpress failed: see its terminal")

    def _open(self) -> None:
        """`POST /api/open`: the file and line the page names opened in the user's editor."""
        if not self.server.hosts.allows(self.headers.get("Host", "")):
            return self._text(HTTPStatus.FORBIDDEN, "this server answers only to its own address")
        if urlsplit(self.path).path != "/api/open":
            return self._text(HTTPStatus.METHOD_NOT_ALLOWED, "only /api/open is posted to", {"Allow": "GET, HEAD"})
        if not is_loopback(str(self.client_address[0])):  # `--host` beyond loopback: another machine's page
            return self._text(HTTPStatus.FORBIDDEN, "files are opened for a page on this machine only")
        origin = self.headers.get("Origin")
        if origin is not None and not self.server.hosts.allows(urlsplit(origin).netloc):
            return self._text(HTTPStatus.FORBIDDEN, "not from this server's page")
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            return self._text(HTTPStatus.LENGTH_REQUIRED, "a body with its length is needed")
        if not 0 <= length <= OPEN_BODY:
            return self._text(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "too long")
        self.close_connection = True  # the body is read whole or not at all: no request follows it
        try:
            asked = json.loads(self.rfile.read(length))
        except ValueError:
            asked = None
        if not isinstance(asked, dict) or not isinstance(asked.get("token"), str) or not hmac.compare_digest(
                asked["token"].encode(), self.server.token.encode()):
            return self._text(HTTPStatus.FORBIDDEN, "no token, or not this server's")
        file, line = asked.get("file"), asked.get("line", 1)
        if not isinstance(line, int) or isinstance(line, bool):
            line = 1
        found = self.server.preview.openable(file) if isinstance(file, str) else None
        if found is None:
            return self._text(HTTPStatus.NOT_FOUND, "not a file of the deck")
        problem = open_in_editor(found, line)
        if problem is not None:
            return self._text(HTTPStatus.CONFLICT, problem)
        self._text(HTTPStatus.OK, f"opened {found.name}:{line}")

    def _text(self, status: HTTPStatus, message: str, extra: dict[str, str] | None = None) -> None:
        self._send(status, (message + "\n").encode(), "text/plain; charset=utf-8", body=True, extra=extra)

    def _send(self, status: HTTPStatus, content: bytes, kind: str, *, body: bool, cache: str = "no-store",
              extra: dict[str, str] | None = None) -> None:
        self._started = True
        self.send_response(status)
        for name, value in {**SECURITY_HEADERS, "Content-Type": kind, "Content-Length": str(len(content)),
                            "Cache-Control": cache, **(extra or {})}.items():
            self.send_header(name, value)
        self.end_headers()
        if body:
            view = memoryview(content)
            for start in range(0, len(view), CHUNK):  # each part within the connection's timeout
                self.wfile.write(view[start:start + CHUNK])

    def _events(self) -> None:
        """The event stream: its headers here, then handed to a thread of its own (`stream`),
        which says the current version at once, then each new one, until the page goes or the
        server closes."""
        self._started = True
        self.send_response(HTTPStatus.OK)
        for name, value in {**SECURITY_HEADERS, "Content-Type": "text/event-stream", "Cache-Control": "no-store"
                            }.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(b"retry: 500\n\n")  # come back quickly when the server restarts
        self.close_connection = True
        self.server.stream(self.connection, self._stream)

    def _stream(self, connection: socket.socket, ending: threading.Event) -> None:
        preview = self.server.preview
        sent = -1
        while not ending.is_set():
            version = preview.wait(sent, KEEP_ALIVE, ending)
            if ending.is_set():
                break
            connection.sendall(f"data: {version}\n\n".encode() if version != sent else b": still here\n\n")
            sent = version

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002  (http.server's name)
        pass  # a request log would bury the rebuild messages
