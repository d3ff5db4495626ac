"""The preview's HTTP server: what it serves, and everything it refuses."""

from __future__ import annotations

import http.client
import json
import socket
import threading

import pytest

from deckpress.live import DEFAULT_PORT, PORT_TRIES, PortInUse, open_server
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
    for method in ("PUT", "DELETE", "PATCH"):
        assert get(server, "/api/state", method=method)[0].status == 501
    assert get(server, "/api/state", method="POST")[0].status == 405  # only /api/open is posted to


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


def free_run(length: int) -> int:
    """The first of `length` ports in a row that nothing listens on, found by binding them."""
    for start in range(20000, 60000, 97):
        probes = []
        try:
            for port in range(start, start + length):
                probe = socket.socket()
                probes.append(probe)
                probe.bind(("127.0.0.1", port))
            return start
        except OSError:
            continue
        finally:
            for probe in probes:
                probe.close()
    pytest.skip("no free run of ports")


def test_a_taken_port_moves_on_to_the_next_free_one_as_documented():
    """The README says "the next free one": the port asked for (or 8765), else the next, up to
    PORT_TRIES; every one taken is one line naming them."""
    preview = Preview("kanon")  # not built: the server serves its state as it is
    start = free_run(PORT_TRIES + 1)
    holders = []
    try:
        for port in range(start, start + 2):  # the one asked for and the next: taken
            holder = socket.socket()
            holder.bind(("127.0.0.1", port))
            holder.listen()
            holders.append(holder)
        moved = open_server(preview, "127.0.0.1", start)
        assert moved.port == start + 2
        moved.server_close()
        for port in range(start + 2, start + PORT_TRIES):
            holder = socket.socket()
            holder.bind(("127.0.0.1", port))
            holder.listen()
            holders.append(holder)
        with pytest.raises(PortInUse, match=f"ports {start}–{start + PORT_TRIES - 1} are all in use: give "
                                            "another with --port"):
            open_server(preview, "127.0.0.1", start)
        anywhere = open_server(preview, "127.0.0.1", 0)
        anywhere.server_close()  # its pool's threads joined: else they keep the process alive
        assert anywhere.port not in range(start, start + PORT_TRIES)
    finally:
        for holder in holders:
            holder.close()
        preview.close()
    assert DEFAULT_PORT == 8765


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


def test_a_server_on_every_address_still_answers_only_to_its_own_names():
    """DNS rebinding against `--host 0.0.0.0`: a page of evil.example whose name now points at
    this machine sends `Host: evil.example`, and is refused; the names and addresses a user types
    are answered."""
    preview = Preview("kanon")  # not built: the Host check comes first
    every = PreviewServer(preview, "0.0.0.0", 0)
    threading.Thread(target=every.serve_forever, args=(0.05,), daemon=True).start()
    try:
        port = every.port
        for host in ("evil.example", f"evil.example:{port}", f"EVIL.example:{port}", f"localhost.evil.example:{port}",
                     f"127.0.0.1.nip.io:{port}", f"localhost:{port + 1}", "localhost", "", f"{port}"):
            assert get(every, "/api/state", host=host)[0].status == 403, host
        own = socket.gethostname()
        for host in (f"localhost:{port}", f"LocalHost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}",
                     f"{own}:{port}", f"{own}.local:{port}", f"192.168.1.20:{port}", f"[fe80::1]:{port}"):
            assert get(every, "/api/state", host=host)[0].status == 200, host
    finally:
        every.close()
        preview.close()


def test_only_an_address_beyond_loopback_is_warned_of():
    from deckpress.cli import _exposure as exposure

    for host in ("127.0.0.1", "127.0.0.2", "localhost", "LOCALHOST", "::1"):
        assert exposure(host) is None, host
    assert exposure("192.168.1.20") == ("warning: listening on 192.168.1.20: anyone on a network that reaches "
                                        "192.168.1.20 can see the deck and download its files; --host 127.0.0.1 "
                                        "keeps it to this machine")


def _ask_all(port: int, requests: list[bytes], deadline: float) -> list[bytes]:
    """Open one connection per request all at once (non-blocking), send each, read each answer
    to its end; what each got by `deadline` seconds."""
    import selectors
    import time

    chosen = selectors.DefaultSelector()
    answers: list[bytes] = [b""] * len(requests)
    for index in range(len(requests)):
        connection = socket.socket()
        connection.setblocking(False)
        connection.connect_ex(("127.0.0.1", port))
        chosen.register(connection, selectors.EVENT_WRITE, index)
    ends = time.monotonic() + deadline
    while chosen.get_map() and time.monotonic() < ends:
        for key, events in chosen.select(timeout=0.1):
            connection, index = key.fileobj, key.data
            if events & selectors.EVENT_WRITE:
                connection.sendall(requests[index])
                chosen.modify(connection, selectors.EVENT_READ, index)
                continue
            try:
                data = connection.recv(65536)
            except ConnectionError:
                data = b""
            answers[index] += data
            if not data:
                chosen.unregister(connection)
                connection.close()
    for key in list(chosen.get_map().values()):
        key.fileobj.close()
    return answers


def test_two_hundred_connections_at_once_are_all_answered(server):
    """A listen backlog of 128 and connections queued for a pool of threads: before, with
    http.server's backlog of 5, 14 of 200 got no answer within 60 s and 38 waited over 5 s."""
    import time

    request = f"GET /api/state HTTP/1.0\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode()
    started = time.monotonic()
    answers = _ask_all(server.port, [request] * 200, deadline=10)
    answered = sum(answer.startswith(b"HTTP/1.0 200 ") and answer.endswith(b"}") for answer in answers)
    assert answered == 200, f"{answered} of 200 answered in {time.monotonic() - started:.1f} s"


def test_event_streams_hold_no_thread_of_the_pool_and_are_bounded(server):
    """Every open page holds an event stream: more pages than the pool has threads still get
    their state and pictures; past STREAMS pages, the oldest stream is ended (its page, if still
    open, reconnects at once: `retry: 500`)."""
    from deckpress.live.server import POOL, STREAMS

    def listen() -> socket.socket:
        stream = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        stream.sendall(f"GET /api/events HTTP/1.0\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
        received = b""
        while b"data: " not in received:
            received += stream.recv(4096)
        return stream

    streams = [listen() for _ in range(POOL + 4)]
    try:
        assert get(server, "/api/state")[0].status == 200
        streams += [listen() for _ in range(STREAMS - len(streams) + 1)]
        assert streams[0].recv(4096) == b""  # the oldest was ended for the newest
        assert get(server, "/api/state")[0].status == 200
    finally:
        for stream in streams:
            stream.close()


# -- files rewritten while the page asks ----------------------------------------------------------


@pytest.fixture
def gallery(tmp_path):
    """A Preview of a deck whose faces read pictures (tests/served.py's gallery), built, and its
    server; faces are drawn when asked for."""
    import textwrap

    from .served import GALLERY_DECK, GALLERY_LAYOUT, gallery_files

    folder = tmp_path / "gallery"
    (folder / "layouts").mkdir(parents=True)
    (folder / "deck.yaml").write_text(textwrap.dedent(GALLERY_DECK), encoding="utf-8")
    (folder / "layouts" / "gallery.yaml").write_text(textwrap.dedent(GALLERY_LAYOUT), encoding="utf-8")
    for name, data in gallery_files().items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    preview = Preview(folder)
    preview.rebuild()
    assert preview.error is None
    running = PreviewServer(preview, "127.0.0.1", 0)
    threading.Thread(target=running.serve_forever, args=(0.05,), daemon=True).start()
    yield running, folder
    running.close()
    preview.close()


def stall_face(state: dict) -> dict:
    return next(face for face in state["faces"] if face["cards"][0]["fields"].get("art") == "art/stall.png")


def test_a_picture_gone_when_its_face_is_asked_for_is_404_and_nothing_on_the_terminal(gallery, capfd):
    """It was a FileNotFoundError's traceback, and the browser's connection closed unanswered."""
    server, folder = gallery
    state = json.loads(get(server, "/api/state")[1])
    (folder / "art" / "stall.png").unlink()
    response, _ = get(server, stall_face(state)["src"]["color"])
    assert response.status == 404
    sun = next(face for face in state["faces"] if face["cards"][0]["fields"].get("art") == "art/sun.png")
    assert get(server, sun["src"]["color"])[0].status == 200
    assert capfd.readouterr().err == ""


def test_a_picture_gone_in_the_middle_of_a_rebuild_is_one_line_over_the_last_good_cards(gallery, capfd,
                                                                                     monkeypatch):
    """The picture was there when the deck was read, and gone when the print files were written
    (an editor saving it: remove, then write): one line for the page, no traceback."""
    server, folder = gallery
    preview = server.preview
    picture = folder / "art" / "stall.png"
    saved = picture.read_bytes()
    writing = Preview._write_files

    def saving_meanwhile(self, *args):
        picture.unlink()
        return writing(self, *args)

    monkeypatch.setattr(Preview, "_write_files", saving_meanwhile)
    version = preview.version
    preview.rebuild()
    state = json.loads(get(server, "/api/state")[1])
    assert state["version"] > version and state["faces"] and state["downloads"]
    assert state["error"].endswith("art/stall.png: No such file or directory"), state["error"]
    assert capfd.readouterr().err == ""
    monkeypatch.undo()
    picture.write_bytes(saved)
    preview.rebuild()
    assert preview.error is None


def test_the_print_files_removed_under_the_page_are_404_and_the_state_still_answers(gallery, capfd):
    """A newer build removes the files the page was told of: asking for them is 404, never a
    traceback, and the state lists what it listed (sizes as written, nothing read again)."""
    import shutil

    server, _ = gallery
    state = json.loads(get(server, "/api/state")[1])
    for build in server.preview.folder.glob("build-*"):
        shutil.rmtree(build)
    assert json.loads(get(server, "/api/state")[1])["downloads"] == state["downloads"]
    assert get(server, state["sheets"][0]["pages"][0]["src"])[0].status == 404
    assert get(server, state["downloads"][0]["url"])[0].status == 404
    assert capfd.readouterr().err == ""


def test_no_request_is_dropped_while_the_deck_and_its_pictures_are_saved_again_and_again(gallery, capfd):
    """Four clients ask for the state, every face, a sheet and a download while the deck is saved
    and rebuilt, and its picture removed and written again, twelve times over: every request is
    answered (200, or 404 for a picture gone or a build replaced), and the terminal stays empty.
    Before, about 1 in 50 requests for the state had its connection closed unanswered, with a
    FileNotFoundError's traceback, and faces asked for while a picture was gone the same."""
    import http.client

    from .served import solid_png

    server, folder = gallery
    preview = server.preview
    done = threading.Event()
    answered: dict[int, int] = {}
    failed: list[str] = []

    def ask(path: str) -> tuple[int, bytes]:
        try:
            response, body = get(server, path)
        except (OSError, http.client.HTTPException) as exc:
            failed.append(f"{path}: {exc!r}")
            return 0, b""
        answered[response.status] = answered.get(response.status, 0) + 1
        return response.status, body

    def client() -> None:
        while not done.is_set():
            status, body = ask("/api/state")
            if status != 200:
                failed.append(f"/api/state: {status}")
                continue
            state = json.loads(body)
            for path in [*(face["src"]["color"] for face in state["faces"]), state["downloads"][0]["url"],
                         *(sheet["pages"][0]["src"] for sheet in state["sheets"][:1])]:
                if ask(path)[0] not in (200, 404):
                    failed.append(path)

    clients = [threading.Thread(target=client) for _ in range(4)]
    for thread in clients:
        thread.start()
    deck, picture = folder / "deck.yaml", folder / "art" / "stall.png"
    text = deck.read_text(encoding="utf-8")
    try:
        for n in range(12):
            deck.write_text(text.replace("Stall again", f"Stall {n}"), encoding="utf-8")
            picture.unlink()
            rebuilding = threading.Thread(target=preview.rebuild)
            rebuilding.start()
            png = solid_png((n * 20, 40, 30))
            picture.write_bytes(png[:len(png) // 2])  # half written, then whole
            picture.write_bytes(png)
            rebuilding.join()
    finally:
        done.set()
        for thread in clients:
            thread.join()
    assert failed == [] and answered.get(200, 0) > 100, (failed[:5], answered)
    assert capfd.readouterr().err == ""


def test_fifty_rebuilds_drop_no_state_request_and_print_no_traceback(gallery, capfd):
    """Issue 33: about 1 in 50 /api/state requests were dropped during a rebuild, and a picture
    gone mid-write printed a 40-line traceback. Six threads ask for the state without pause
    through 50 rebuilds, each with the deck saved and, in every other one, its picture removed
    while the print files are written and written again after: every answer is a 200 with the
    whole state, and stderr stays empty."""
    import http.client

    from .served import solid_png

    server, folder = gallery
    preview = server.preview
    done = threading.Event()
    answered: list[int] = []
    failed: list[str] = []

    def hammer() -> None:
        while not done.is_set():
            try:
                response, body = get(server, "/api/state")
                state = json.loads(body)
            except (OSError, http.client.HTTPException, ValueError) as exc:
                failed.append(repr(exc))
                continue
            if response.status != 200 or state["deck"] is None or not state["faces"]:
                failed.append(f"{response.status}: {body[:80]!r}")
            answered.append(state["version"])

    deck, picture = folder / "deck.yaml", folder / "art" / "stall.png"
    text = deck.read_text(encoding="utf-8")
    writing = Preview._write_files
    gone = threading.Event()

    def picture_gone_meanwhile(self, *args):
        if gone.is_set():
            picture.unlink(missing_ok=True)
        try:
            return writing(self, *args)
        finally:
            picture.write_bytes(solid_png((200, 40, len(answered) % 250)))

    threads = [threading.Thread(target=hammer) for _ in range(6)]
    for thread in threads:
        thread.start()
    try:
        Preview._write_files = picture_gone_meanwhile
        for n in range(50):
            deck.write_text(text.replace("Stall again", f"Stall {n}"), encoding="utf-8")
            gone.set() if n % 2 else gone.clear()
            preview.rebuild()
    finally:
        Preview._write_files = writing
        done.set()
        for thread in threads:
            thread.join()
    assert failed == [], failed[:5]
    assert len(answered) > 200 and len(set(answered)) > 50, len(answered)  # asked all along, many versions seen
    assert preview.error is None or "stall.png" in preview.error
    assert capfd.readouterr().err == ""


# -- opening a file of the deck in the editor ------------------------------------------------------

def post(server: PreviewServer, path: str, body: bytes, headers: dict[str, str] | None = None):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request("POST", path, body, {"Host": f"127.0.0.1:{server.port}", "Content-Type": "application/json",
                                            **(headers or {})})
    response = connection.getresponse()
    answer = response.read()
    connection.close()
    return response, answer


@pytest.fixture
def editor(tmp_path, monkeypatch):
    """A fake editor, `code`, on $VISUAL: it writes its arguments, one a line, to a file."""
    import os
    import stat
    import sys

    folder = tmp_path / "bin"
    folder.mkdir()
    said = tmp_path / "argv.txt"
    script = folder / "code"
    script.write_text(f"#!{sys.executable}\nimport sys\nopen({str(said)!r}, 'w').write('\\n'.join(sys.argv[1:]))\n",
                      encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("VISUAL", "code --reuse-window")
    monkeypatch.delenv("EDITOR", raising=False)
    return said


def said_by(path, timeout: float = 10.0) -> list[str]:
    import time

    deadline = time.monotonic() + timeout
    while not path.exists() or not path.read_text(encoding="utf-8"):
        assert time.monotonic() < deadline, "the editor was not started"
        time.sleep(0.02)
    return path.read_text(encoding="utf-8").split("\n")


def test_a_file_of_the_deck_is_opened_at_its_line_in_the_editor(gallery, editor):
    server, folder = gallery
    _, page = get(server, "/")
    token = server.token
    assert f'<meta name="deckpress-token" content="{token}">'.encode() in page and len(token) >= 32
    assert b'<meta name="deckpress-editor" content="code">' in page
    state = json.loads(get(server, "/api/state")[1])
    card = state["faces"][0]["cards"][0]
    assert card["at"] == {"file": str((folder / "deck.yaml").resolve()), "line": card["at"]["line"]}
    response, body = post(server, "/api/open", json.dumps({**card["at"], "token": token}).encode())
    assert response.status == 200, body
    assert said_by(editor) == ["--reuse-window", "-g", f"{folder.resolve() / 'deck.yaml'}:{card['at']['line']}"]
    editor.unlink()
    layout = card["template"]
    assert layout["file"] == str((folder / "layouts" / "gallery.yaml").resolve())
    assert post(server, "/api/open", json.dumps({**layout, "token": token}).encode())[0].status == 200
    assert said_by(editor)[-1] == f"{layout['file']}:{layout['line']}"


def test_opening_refuses_a_wrong_token_another_file_another_site_and_get(gallery, editor, tmp_path):
    server, folder = gallery
    deck = str((folder / "deck.yaml").resolve())
    outside = tmp_path / "secret.yaml"
    outside.write_text("x: 1\n", encoding="utf-8")
    (folder / "escape.yaml").symlink_to(outside)
    token = server.token
    refusals = [
        (json.dumps({"file": deck, "line": 1}).encode(), {}, 403),  # no token
        (json.dumps({"file": deck, "line": 1, "token": "x" * len(token)}).encode(), {}, 403),  # not this run's
        (json.dumps({"file": deck, "line": 1, "token": None}).encode(), {}, 403),
        (b"file=deck.yaml&token=" + token.encode(), {"Content-Type": "application/x-www-form-urlencoded"}, 403),
        (json.dumps({"file": deck, "line": 1, "token": token}).encode(), {"Origin": "http://evil.example"}, 403),
        (json.dumps({"file": "/etc/passwd", "line": 1, "token": token}).encode(), {}, 404),
        (json.dumps({"file": str(outside), "line": 1, "token": token}).encode(), {}, 404),
        (json.dumps({"file": str(folder / "escape.yaml"), "line": 1, "token": token}).encode(), {}, 404),  # a link out
        (json.dumps({"file": str(folder / ".." / "secret.yaml"), "line": 1, "token": token}).encode(), {}, 404),
        (json.dumps({"file": str(folder / "art"), "line": 1, "token": token}).encode(), {}, 404),  # a folder
        (json.dumps({"file": "deck.yaml", "line": 1, "token": token}).encode(), {}, 404),  # relative: not resolved here
    ]
    for body, headers, status in refusals:
        response, answer = post(server, "/api/open", body, headers)
        assert response.status == status, (body, headers, answer)
    assert get(server, "/api/open")[0].status == 405
    assert post(server, "/api/state", json.dumps({"file": deck, "token": token}).encode())[0].status == 405
    response, _ = post(server, "/api/open", json.dumps({"file": deck, "token": token}).encode(),
                       {"Host": "evil.example"})
    assert response.status == 403
    assert not editor.exists()  # nothing was opened


def test_without_an_editor_the_page_is_told_so_and_opening_says_how_to_set_one(gallery, monkeypatch):
    server, folder = gallery
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.delenv("EDITOR", raising=False)
    assert b'<meta name="deckpress-editor" content="">' in get(server, "/")[1]
    response, body = post(server, "/api/open", json.dumps({"file": str((folder / "deck.yaml").resolve()), "line": 2,
                                                           "token": server.token}).encode())
    assert response.status == 409 and body == b"no editor: set $VISUAL or $EDITOR (for example to code, subl or gvim)\n"


def test_a_page_on_another_machine_opens_nothing(gallery, editor):
    """Under `--host 0.0.0.0` another machine may read the page, token and all: opening a file
    in this machine's editor is for a page on this machine alone."""
    _, folder = gallery
    other = own_address()
    if other is None:
        pytest.skip("this machine has no network address besides loopback to ask from")
    preview = Preview(folder)
    preview.rebuild()
    every = PreviewServer(preview, "0.0.0.0", 0)
    threading.Thread(target=every.serve_forever, args=(0.05,), daemon=True).start()
    try:
        body = json.dumps({"file": str((folder / "deck.yaml").resolve()), "line": 1, "token": every.token}).encode()
        connection = http.client.HTTPConnection(other, every.port, timeout=10)
        connection.request("POST", "/api/open", body, {"Host": f"{other}:{every.port}",
                                                        "Content-Type": "application/json"})
        response = connection.getresponse()
        assert (response.status, response.read()) == (403, b"files are opened for a page on this machine only\n")
        connection.close()
        assert post(every, "/api/open", body)[0].status == 200  # from this machine: opened
        assert said_by(editor)[-1].endswith("deck.yaml:1")
    finally:
        every.close()
        preview.close()
