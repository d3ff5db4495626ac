"""Watching a deck's files: every saved change to what the deck may read rebuilds its preview.

watchfiles (Rust's notify: inotify, FSEvents, ReadDirectoryChangesW, polling where none works)
hears the folders `Preview.watched` names: the deck's, those of the decks it extends, the bundled
layouts and fonts. A burst of changes (an editor's save: a temporary file, a rename) is one
rebuild, 50 ms after the last of them. When a rebuild changes what the deck reads from (an
`extends:` added), the watch starts again on the new folders.
"""

from __future__ import annotations

import threading
from pathlib import Path

import watchfiles

from ..model.cardtable import TABLE_TYPES
from ..model.deck import FONT_TYPES, IMAGE_TYPES
from .preview import Preview

#: the kinds of file a deck reads: deck, layout and translation files, card tables, art and fonts
READ_TYPES = frozenset((".yaml", ".yml", *TABLE_TYPES, *IMAGE_TYPES, *FONT_TYPES))
#: quiet time after a change before the rebuild starts, ms: an editor's save is over by then
SETTLE_MS = 50


class DeckFiles(watchfiles.DefaultFilter):
    """Changes to files a deck reads; not editors' swap and backup files, hidden files, version
    control, or a build's own output folder (`deckpress build` writes into `output/`)."""

    def __init__(self) -> None:
        super().__init__(ignore_dirs=(*watchfiles.DefaultFilter.ignore_dirs, "output"))

    def __call__(self, change: watchfiles.Change, path: str) -> bool:
        name = Path(path).name
        return (super().__call__(change, path) and not name.startswith(".")
                and Path(name).suffix.lower() in READ_TYPES)


class Watcher(threading.Thread):
    """Rebuilds `preview` after each change, until `stop()`."""

    def __init__(self, preview: Preview) -> None:
        super().__init__(name="deckpress-watch", daemon=True)
        self.preview = preview
        self.stopping = threading.Event()

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
        self.join(timeout=5)
