"""Watching a deck: a saved change to a file it reads rebuilds the preview; other files do not."""

from __future__ import annotations

import time

import pytest

import deckpress
from deckpress.live.preview import Preview
from deckpress.live.watch import DeckFiles, Watcher

SETTLED = 10.0  # seconds a rebuild may take here at worst (a slow CI machine); it takes well under 1 s


@pytest.fixture
def watched(tmp_path):
    """A new deck (`deckpress new`) built and watched: (its folder, its preview)."""
    folder = tmp_path / "orchard"
    deckpress.new_deck(folder)
    preview = Preview(folder)
    preview.rebuild()
    watcher = Watcher(preview)
    watcher.start()
    time.sleep(0.3)  # the watch is set up
    yield folder, preview
    watcher.stop()
    preview.close()
    assert not watcher.is_alive()


def rebuilt(preview: Preview, before: int) -> bool:
    """Whether a rebuild after version `before` has finished (its second publication)."""
    deadline = time.monotonic() + SETTLED
    while time.monotonic() < deadline:
        version = preview.wait(before, 0.1)
        if version > before and not preview.building:
            return True
    return False


def test_saving_the_deck_file_rebuilds_it(watched):
    folder, preview = watched
    before = preview.version
    deck = folder / "deck.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("title: ", "title: New ", 1), encoding="utf-8")
    assert rebuilt(preview, before)
    assert preview.state()["deck"]["title"].startswith("New ")


@pytest.mark.parametrize("name", ["cards.csv", "layouts/orchard.yaml", "art/emblem.svg"])
def test_saving_a_card_table_a_layout_or_art_rebuilds_it(watched, name):
    folder, preview = watched
    path = folder / name
    assert path.is_file(), sorted(p.name for p in folder.rglob("*"))
    before = preview.version
    path.write_bytes(path.read_bytes() + b"\n")
    assert rebuilt(preview, before)


def test_an_editors_atomic_save_is_heard(watched):
    """Many editors write a new file and rename it over the old one."""
    folder, preview = watched
    before = preview.version
    deck = folder / "deck.yaml"
    fresh = folder / ".deck.yaml.tmp"
    fresh.write_text(deck.read_text(encoding="utf-8").replace("title: ", "title: Renamed ", 1), encoding="utf-8")
    fresh.replace(deck)
    assert rebuilt(preview, before)
    assert preview.state()["deck"]["title"].startswith("Renamed ")


def test_swap_files_hidden_files_and_build_output_are_not_heard(watched):
    folder, preview = watched
    before = preview.version
    (folder / ".deck.yaml.swp").write_bytes(b"vim")
    (folder / "deck.yaml~").write_bytes(b"backup")
    (folder / "notes.txt").write_text("not a file a deck reads")
    (folder / "output" / "orchard").mkdir(parents=True)
    (folder / "output" / "orchard" / "orchard-cards-a4.pdf").write_bytes(b"%PDF")
    (folder / "output" / "orchard" / "front.png").write_bytes(b"png")
    time.sleep(1.0)  # twenty times the quiet time a change waits for
    assert preview.version == before


@pytest.mark.parametrize("path, heard", [
    ("/d/deck.yaml", True), ("/d/art/pear.PNG", True), ("/d/cards.xlsx", True), ("/d/fonts/x.ttf", True),
    ("/d/translations/de.yml", True), ("/d/.deck.yaml", False), ("/d/deck.yaml.swp", False),
    ("/d/README.md", False), ("/d/output/x/a.png", False), ("/d/.git/config.yaml", False),
    ("/d/__pycache__/x.yaml", False), ("/d/cards.json", True), ("/d/.deckpress/cache/0a1b.csv", False),
    ("/d/.deckpress/cache/0a1b.about.json", False),
])
def test_the_filter_hears_the_kinds_of_file_a_deck_reads(path, heard):
    import watchfiles

    assert DeckFiles()(watchfiles.Change.modified, path) is heard


def test_a_card_list_at_a_web_address_is_polled_and_its_changes_rebuild_the_deck(make_deck, monkeypatch):
    from tests.sheetserver import SheetServer
    from tests.test_model_cardsource import DECK, LAYOUT, PROXIES

    for name in PROXIES:  # the server is on this machine
        monkeypatch.delenv(name, raising=False)

    sheet = SheetServer()
    folder = make_deck(DECK.format(cards=sheet.url()), {"orchard": LAYOUT})
    preview = Preview(folder)
    preview.rebuild()
    watcher = Watcher(preview, poll_seconds=0.2)
    watcher.start()
    try:
        names = lambda: [card["name"] for face in preview.state()["faces"] for card in face["cards"]]  # noqa: E731
        assert preview.error is None and sorted(names()) == ["Apple", "Plum"]
        time.sleep(1.0)  # five polls, each answered 304; the copies they keep are not heard as saves
        before = preview.version
        time.sleep(1.0)
        assert preview.version == before
        assert all(headers.get("If-None-Match") for headers in sheet.gets()[1:]) and len(sheet.gets()) >= 5

        sheet.sheet.body = b"title,color\nApple,red\nPlum,blue\nQuince,red\n"
        assert rebuilt(preview, before)
        assert sorted(names()) == ["Apple", "Plum", "Quince"]

        sheet.down()  # offline: the page keeps the cards, and nothing is rebuilt
        before = preview.version
        time.sleep(0.6)
        assert preview.version == before and preview.error is None
    finally:
        watcher.stop()
        preview.close()
        sheet.down()
    assert not watcher.is_alive() and not watcher.poller.is_alive()


def test_serve_with_refresh_fetches_the_card_list_without_offering_the_copy(make_deck, monkeypatch):
    import threading

    from deckpress.model import load_deck
    from tests.sheetserver import SheetServer
    from tests.test_model_cardsource import DECK, LAYOUT, PROXIES

    for name in PROXIES:
        monkeypatch.delenv(name, raising=False)
    sheet = SheetServer()
    folder = make_deck(DECK.format(cards=sheet.url()), {"orchard": LAYOUT})
    load_deck(folder)  # a copy kept, with its ETag
    stop, started = threading.Event(), threading.Event()
    serving = threading.Thread(target=deckpress.serve, args=(folder,), kwargs=dict(
        port=0, open_browser=False, say=lambda line: None, started=lambda url: started.set(), stop=stop,
        refresh=True))
    serving.start()
    try:
        assert started.wait(SETTLED * 3)
    finally:
        stop.set()
        serving.join(SETTLED)
        sheet.down()
    kept, served = sheet.gets()[:2]  # the load that kept a copy, then serve's first build
    assert "If-None-Match" not in served  # asked anew, the copy not offered
