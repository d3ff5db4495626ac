"""A web server on 127.0.0.1 standing in for a Google Sheet published to the web as CSV, for the
tests of card lists at web addresses: it answers what a test sets, with an ETag, 304 when asked
with the current one, redirects, pages, slow and oversized answers, and can go down."""

from __future__ import annotations

import hashlib
import http.server
import threading
import time
from dataclasses import dataclass, field


@dataclass
class Sheet:
    """What the server gives at /pub?output=csv (and every path not named below), and what it was asked."""

    body: bytes = b"title,color\nApple,red\nPlum,blue\n"
    content_type: str = "text/csv; charset=utf-8"
    etags: bool = True
    failing: int | None = None  # an HTTP status to answer with instead (503: the server has a bad day)
    requests: list[tuple[str, dict[str, str]]] = field(default_factory=list)  # (path, headers) of each GET

    @property
    def etag(self) -> str:
        return '"' + hashlib.sha256(self.body).hexdigest()[:16] + '"'


class _Quiet(http.server.ThreadingHTTPServer):
    """A server that says nothing of a client gone before its answer was written (the tests' timeouts)."""

    def handle_error(self, request: object, client_address: object) -> None:
        pass


class SheetServer:
    """`Sheet` served on a port of 127.0.0.1 in a thread. Paths: /pub?output=csv (the sheet),
    /moved (307 to it, as Google's published CSV redirects), /loop (redirects to itself),
    /to-file (redirects to file:///etc/passwd), /page (an HTML page), /big (a Content-Length of
    `big` bytes), /stream (more than `big` bytes with no Content-Length), /slow (answers after
    `slow` seconds), /drip (a byte every 50 ms for `slow` seconds)."""

    def __init__(self) -> None:
        self.sheet = Sheet()
        self.big, self.slow = 10_000, 2.0
        sheet, server = self.sheet, self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802  (http.server's name)
                sheet.requests.append((self.path, dict(self.headers.items())))
                path = self.path.split("?")[0]
                if path == "/moved":
                    return self.redirect("/pub?output=csv")
                if path == "/loop":
                    return self.redirect("/loop")
                if path == "/to-file":
                    return self.redirect("file:///etc/passwd")
                if path == "/page":
                    return self.answer(b"<!DOCTYPE html><html><body>Sign in</body></html>", "text/html")
                if path == "/big":
                    self.send_response(200)
                    self.send_header("Content-Length", str(server.big + 1))
                    self.end_headers()
                    self.wfile.write(b"x" * (server.big + 1))
                    return None
                if path == "/stream":
                    self.send_response(200)
                    self.send_header("Content-Type", "text/csv")
                    self.end_headers()
                    for _ in range(server.big // 1000 + 2):
                        self.wfile.write(b"a," * 500)
                    return None
                if path == "/slow":
                    time.sleep(server.slow)
                if sheet.failing is not None:
                    self.send_response(sheet.failing)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return None
                if path == "/drip":  # a byte at a time, each soon enough, the whole far too late
                    self.send_response(200)
                    self.send_header("Content-Type", "text/csv")
                    self.end_headers()
                    for _ in range(int(server.slow / 0.05)):
                        self.wfile.write(b"a")
                        self.wfile.flush()
                        time.sleep(0.05)
                    return None
                if sheet.etags and self.headers.get("If-None-Match") == sheet.etag:
                    self.send_response(304)
                    self.send_header("ETag", sheet.etag)
                    self.end_headers()
                    return None
                return self.answer(sheet.body, sheet.content_type)

            def redirect(self, to: str) -> None:
                self.send_response(307)
                self.send_header("Location", to)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def answer(self, body: bytes, content_type: str) -> None:
                self.send_response(200)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                if sheet.etags:
                    self.send_header("ETag", sheet.etag)
                self.end_headers()
                self.wfile.write(body)

        self.server = _Quiet(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()
        self.up = True

    def url(self, path: str = "/pub?output=csv") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def down(self) -> None:
        """Stop answering: the port is closed, as when the machine is offline."""
        if self.up:
            self.server.shutdown()
            self.server.server_close()
            self.up = False

    def gets(self, path: str = "/pub") -> list[dict[str, str]]:
        """The headers of each request for `path` so far."""
        return [headers for asked, headers in self.sheet.requests if asked.split("?")[0] == path]
