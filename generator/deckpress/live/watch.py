"""Watching a deck's files: every saved change to what the deck may read rebuilds its preview.

watchfiles (Rust's notify: inotify, FSEvents, ReadDirectoryChangesW, polling where none works)
hears the folders `Preview.watched` names: the deck's, those of the decks it extends, the bundled
layouts and fonts. A burst of changes (an editor's save: a temporary file, a rename) is one
rebuild, 50 ms after the last of them. When a rebuild changes what the deck reads from (an
`extends:` added), the watch starts again on the new folders.

A card list at a web address (`cards: https://…`, a published Google Sheet) is no file to watch:
`CardPoller` asks for it every POLL_SECONDS with the ETag and Last-Modified of the copy kept
(`CardFetcher.poll`: a 304 costs next to nothing) and rebuilds when what it gives changed. The
copies it keeps in the deck's `.deckpress/cache/` are not watched, or each fetch would rebuild.
"""

from __future__ import annotations

import threading
from pathlib import Path

import watchfiles

from ..model.cardsource import CACHE_FOLDER, CARD_LIST_TYPES
from ..model.deck import FONT_TYPES, IMAGE_TYPES
from .preview import Preview

#: the kinds of file a deck reads: deck, layout and translation files, card lists, art and fonts
READ_TYPES = frozenset((".yaml", ".yml", *CARD_LIST_TYPES, *IMAGE_TYPES, *FONT_TYPES))
#: quiet time after a change before the rebuild starts, ms: an editor's save is over by then
SETTLE_MS = 50
#: how often a card list at a web address is asked whether it changed, seconds
POLL_SECONDS = 5.0


class DeckFiles(watchfiles.DefaultFilter):
    """Changes to files a deck reads; not editors' swap and backup files, hidden files, version
    control, or a build's own output folder (`deckpress build` writes into `output/`)."""

    def __init__(self) -> None:
        super().__init__(ignore_dirs=(*watchfiles.DefaultFilter.ignore_dirs, "output", Path(CACHE_FOLDER).parts[0]))

    def __call__(self, change: watchfiles.Change, path: str) -> bool:
        name = Path(path).name
        return (super().__call__(change, path) and not name.startswith(".")
                and Path(name).suffix.lower() in READ_TYPES)


class Watcher(threading.Thread):
    """Rebuilds `preview` after each change, until `stop()`; and, with its `CardPoller`, when a card
    list at a web address changes."""

    def __init__(self, preview: Preview, poll_seconds: float = POLL_SECONDS) -> None:
        super().__init__(name="deckpress-watch", daemon=True)
        self.preview = preview
        self.stopping = threading.Event()
        self.poller = CardPoller(preview, poll_seconds)

    def start(self) -> None:
        super().start()
        self.poller.start()

    def run(self) -> None:
        while not self.stopping.is_set():
            folders = [path for path in self.preview.watched() if path.is_dir()]
            for _changes in watchfiles.watch(*folders, watch_filter=DeckFiles(), step=SETTLE_MS,
                                             stop_event=self.stopping, raise_interrupt=False):
                self.preview.rebuild()
                if [path for path in self.preview.watched() if path.is_dir()] != folders:
                    break  # the deck reads from other folders now: watch those

    def stop(self) -> None:
        self.stopping.set()
        self.poller.stop()
        self.join(timeout=5)


class CardPoller(threading.Thread):
    """Asks each card list at a web address the preview's deck reads whether it changed, every
    `seconds`, and rebuilds the preview when one did; until `stop()`. Addresses that could not be
    fetched are asked too: the first answer builds the deck."""

    def __init__(self, preview: Preview, seconds: float = POLL_SECONDS) -> None:
        super().__init__(name="deckpress-poll", daemon=True)
        self.preview, self.seconds = preview, seconds
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.wait(self.seconds):
            cards = self.preview.cards
            changed = False
            for url, folder in cards.addresses():
                if self.stopping.is_set():
                    return
                changed = cards.poll(url, folder) or changed  # every address asked, changed or not
            if changed and not self.stopping.is_set():
                self.preview.rebuild()

    def stop(self) -> None:
        self.stopping.set()
        if self.is_alive():
            self.join(timeout=5)
