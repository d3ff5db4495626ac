"""`deckpress serve` from the command line: it starts, says where, stops cleanly on Ctrl-C, and
refuses what it cannot do in one line."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys

import pytest

from deckpress.model.deck import find_deck

from .served import Served


def test_it_serves_a_bundled_deck_and_stops_on_ctrl_c_leaving_nothing_behind(tmp_path):
    served = Served("kanon", tmp_path)
    assert served.lines[0].startswith("serving Kanon")
    assert "Ctrl-C stops" in served.lines[0]
    state = served.state()
    assert state["deck"]["id"] == "kanon" and state["faces"]
    assert list(served.tmp.iterdir())  # its built files
    status, out, err = served.stop()
    assert (status, err) == (0, "")
    assert out.splitlines()[-1] == "stopped"
    assert list(served.tmp.iterdir()) == []  # removed


def test_a_broken_deck_is_served_with_its_error_for_the_designer_to_fix(tmp_path):
    folder = tmp_path / "kanon"
    shutil.copytree(find_deck("kanon").parent, folder)
    (folder / "deck.yaml").write_text("id: kanon\ntitle: [\n", encoding="utf-8")
    served = Served(folder, tmp_path)
    assert "cannot build yet (" in served.lines[0] and "deck.yaml:" in served.lines[0]
    assert served.state()["error"]
    assert served.stop()[0] == 0


def serve(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "deckpress", "serve", *args, "--no-open"], capture_output=True,
                          text=True, timeout=60, cwd=cwd)


def test_a_deck_that_is_not_there_is_one_line_and_status_2(tmp_path):
    done = serve("metronom", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error: ") and len(done.stderr.splitlines()) == 1
    assert "metronome" in done.stderr  # the suggestion
    done = serve(cwd=tmp_path)  # no deck named, and none here
    assert done.returncode == 2
    assert done.stderr == ("error: no deck.yaml in this folder: name the deck to serve, a bundled id like "
                           "metronome or a deck folder like ./decks/mygame\n")


def test_a_taken_port_moves_on_to_the_next_free_one_and_says_which(tmp_path):
    """The README's "the next free one": a port taken is passed over, and the line says so."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        served = Served("kanon", tmp_path, "--port", str(port))  # the last --port is the one taken
        assert served.url != f"http://127.0.0.1:{port}/"
        assert served.lines[0].rstrip().endswith(f"Ctrl-C stops (port {port} was taken)"), served.lines[0]
        assert served.state()["deck"]["id"] == "kanon"
        assert served.stop()[0] == 0


def test_listening_beyond_this_machine_is_said_before_it_starts(tmp_path):
    """One line, saying who can read the deck; and still no page of another site (DNS rebinding)."""
    import urllib.error
    import urllib.request

    served = Served("kanon", tmp_path, "--host", "0.0.0.0")
    port = served.url.rsplit(":", 1)[1].strip("/")
    refused = urllib.request.Request(served.url + "api/state", headers={"Host": f"evil.example:{port}"})
    with pytest.raises(urllib.error.HTTPError, match="403"):
        urllib.request.urlopen(refused, timeout=10)
    assert served.state()["deck"]["id"] == "kanon"
    status, _, err = served.stop()
    assert status == 0
    assert err == ("warning: listening on 0.0.0.0 (every address of this machine): anyone on a network that "
                   "reaches it can see the deck and download its files; --host 127.0.0.1 keeps it to this machine\n")


def test_help_says_what_it_does():
    done = subprocess.run([sys.executable, "-m", "deckpress", "serve", "--help"], capture_output=True, text=True)
    assert done.returncode == 0
    for word in ("--port", "--host", "--no-open", "saved change", "Ctrl-C"):
        assert word in done.stdout


@pytest.mark.parametrize("signal_name", ["SIGTERM"])
def test_sigterm_stops_it_as_ctrl_c_does(tmp_path, signal_name):
    import signal

    served = Served("kanon", tmp_path)
    served.process.send_signal(getattr(signal, signal_name))
    status, out, err = served.stop()
    assert (status, err, out.splitlines()[-1]) == (0, "", "stopped")
    assert list(served.tmp.iterdir()) == []


def test_ctrl_c_stops_it_at_once_though_a_page_is_still_listening(tmp_path):
    """An open page holds an event stream: stopping ends it rather than waiting out its keep-alive
    (15 s), and every thread is joined before the process ends (it never dies in its shutdown)."""
    import time

    served = Served("kanon", tmp_path)
    port = int(served.url.rsplit(":", 1)[1].strip("/"))
    listening = socket.create_connection(("127.0.0.1", port), timeout=10)
    listening.sendall(f"GET /api/events HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    received = b""
    while b"data: " not in received:  # the headers, then the version the page is at
        received += listening.recv(4096)
    started = time.monotonic()
    status, _, err = served.stop()
    assert (status, err) == (0, "") and time.monotonic() - started < 5
    assert listening.recv(4096) == b""  # the stream was closed by the server
    listening.close()


def test_ctrl_c_stops_it_at_once_though_a_connection_sent_half_a_request(tmp_path):
    """A connection that sent half its request line holds a thread waiting for the rest: Ctrl-C
    cuts it rather than waiting (it hung for good before), and says its one line."""
    import time

    served = Served("kanon", tmp_path)
    port = int(served.url.rsplit(":", 1)[1].strip("/"))
    halves = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(3)]
    for half in halves:
        half.sendall(b"GET /api/sta")
    served.state()  # answered meanwhile, and the halves are being read by now
    started = time.monotonic()
    status, out, err = served.stop()
    took = time.monotonic() - started
    assert (status, err, out.splitlines()[-1]) == (0, "", "stopped")
    assert took < 2, f"{took:.1f} s"
    for half in halves:
        half.close()
