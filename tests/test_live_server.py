"""The preview's HTTP server: what it serves, and everything it refuses."""

from __future__ import annotations

import http.client
import json
import socket
import threading

import pytest

from deckpress.live import DEFAULT_PORT, PortInUse, open_server
from deckpress.live.preview import Preview
from deckpress.live.server import PreviewServer


@pytest.fixture(scope="module")
def server():
    preview = Preview("kanon")
    preview.rebuild()
    running = PreviewServer(preview, "127.0.0.1", 0)
    threading.Thread(target=running.serve_forever, daemon=True).start()
    yield running
    running.close()
    preview.close()


def get(server: PreviewServer, path: str, method: str = "GET", host: str | None = None):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    # `skip_host`: the Host header is the test's to set (or to leave out)
    connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    connection.putheader("Host", host if host is not None else f"127.0.0.1:{server.port}")
    connection.endheaders()
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response, body


def own_address() -> str | None:
    """This machine's address on its network (the one it would reach 10.x from), if it has one."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.254.254.254", 1))  # UDP: nothing is sent, a route is chosen
            address = probe.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("127.") else address


def test_it_listens_on_loopback_alone(server):
    assert server.server_address[0] == "127.0.0.1"
    other = own_address()
    if other is None:
        pytest.skip("this machine has no network address besides loopback to try the server from")
    with pytest.raises(ConnectionRefusedError):  # nothing answers on the machine's other addresses
        socket.create_connection((other, server.port), timeout=2)


def test_the_page_and_its_assets_are_served_with_a_content_security_policy(server):
    response, body = get(server, "/")
    assert response.status == 200 and response.headers["Content-Type"].startswith("text/html")
    assert b"/assets/app.js" in body
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    response, body = get(server, "/assets/app.js")
    assert response.status == 200 and response.headers["Content-Type"].startswith("text/javascript")
    assert "Access-Control-Allow-Origin" not in response.headers


def test_the_state_names_every_picture_and_file_by_a_url_that_answers(server):
    response, body = get(server, "/api/state")
    assert response.status == 200 and response.headers["Cache-Control"] == "no-store"
    state = json.loads(body)
    assert state["deck"]["id"] == "kanon" and state["error"] is None
    face = state["faces"][0]
    for src in face["src"].values():
        response, png = get(server, src)
        assert response.status == 200 and png.startswith(b"\x89PNG")
        assert "immutable" in response.headers["Cache-Control"]
    page = state["sheets"][0]["pages"][0]["src"]
    response, png = get(server, page)
    assert response.status == 200 and png.startswith(b"\x89PNG")
    for download in state["downloads"]:
        response, data = get(server, download["url"])
        assert response.status == 200 and len(data) == download["bytes"]
        assert response.headers["Content-Disposition"] == f'attachment; filename="{download["name"]}"'
    response, data = get(server, state["downloads"][0]["url"], method="HEAD")
    assert response.status == 200 and data == b"" and int(response.headers["Content-Length"]) > 0


@pytest.mark.parametrize("path", [
    "/files/../../../../etc/passwd", "/files/..%2f..%2f..%2fetc%2fpasswd", "/files/%2e%2e/deck.yaml",
    "/files/", "/files", "/assets/", "/assets/../preview.py", "/assets/..%2fpreview.py", "/face/",
    "/face/../../etc/passwd", "/sheet/", "/deck.yaml", "/decks/kanon/deck.yaml", "/etc/passwd",
    "//etc/passwd", "/api/", "/files/kanon-report.json/..", "/face/000000-1.png", "/sheet/0123456789abcdef/1.png",
])
def test_nothing_else_is_served_no_traversal_no_listing(server, path):
    response, body = get(server, path)
    assert response.status == 404, path
    assert body == b"not found\n"


def test_a_request_naming_another_host_is_refused(server):
    """What a page of another site would send after pointing its own name at 127.0.0.1 (DNS rebinding)."""
    for host in ("evil.example", f"evil.example:{server.port}", "127.0.0.1:1", ""):
        response, _ = get(server, "/api/state", host=host)
        assert response.status == 403, host
    for host in (f"localhost:{server.port}", f"127.0.0.1:{server.port}"):
        assert get(server, "/api/state", host=host)[0].status == 200


def test_only_reading_methods_are_answered(server):
    for method in ("POST", "PUT", "DELETE"):
        assert get(server, "/api/state", method=method)[0].status == 501


def test_the_event_stream_says_the_version_and_each_new_one(server):
    connection = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    connection.sendall(f"GET /api/events HTTP/1.0\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
    received = b""
    while b"data: " not in received:
        received += connection.recv(4096)
    assert b"Content-Type: text/event-stream" in received
    version = server.preview.version
    assert f"data: {version}\n\n".encode() in received
    threading.Thread(target=server.preview.rebuild).start()
    while f"data: {version + 1}".encode() not in received:
        received += connection.recv(4096)
    connection.close()


def test_a_taken_port_asked_for_is_an_error_the_default_moves_on():
    preview = Preview("kanon")  # not built: the server serves its state as it is
    first = PreviewServer(preview, "127.0.0.1", 0)
    try:
        with pytest.raises(PortInUse, match=f"port {first.port} is in use: give another with --port"):
            open_server(preview, "127.0.0.1", first.port)
        holder = None
        try:
            holder = socket.socket()
            holder.bind(("127.0.0.1", DEFAULT_PORT))
            holder.listen()
        except OSError:
            pass  # already taken by something else: the default moves on all the same
        second = open_server(preview, "127.0.0.1")
        assert second.port != DEFAULT_PORT
        second.server_close()
        if holder is not None:
            holder.close()
    finally:
        first.server_close()
        preview.close()


def test_a_page_that_goes_while_a_picture_is_on_its_way_is_no_error(server, capsys):
    """The browser drops a picture's connection when the page is closed, reloaded or scrolled on:
    the server says nothing of it; a bug in answering still has its traceback printed."""
    for gone in (ConnectionResetError(104, "Connection reset by peer"), BrokenPipeError(32, "Broken pipe")):
        try:
            raise gone
        except ConnectionError:
            server.handle_error(None, ("127.0.0.1", 1))
    assert capsys.readouterr().err == ""
    try:
        raise KeyError("a bug")
    except KeyError:
        server.handle_error(None, ("127.0.0.1", 1))
    assert "KeyError: 'a bug'" in capsys.readouterr().err
