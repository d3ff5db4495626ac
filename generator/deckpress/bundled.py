"""Where the bundled decks, layouts and fonts live. The only module that knows.

An installed wheel carries them inside the package, as `deckpress/data/{decks,layouts,fonts}`
(setup.py copies them there when the wheel is built). A source checkout, installed editable or
not, has them at the top of the repository, beside `generator/`, where a designer edits them:
so an editable install sees every change to `decks/` at once.

Both are found through `importlib.resources`. Fonts and pictures are handed to reportlab and
Pillow by path, so the data must be on disk, as pip installs it (not inside a zip file).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["DATA", "DECKS_DIR", "FONTS_DIR", "LAYOUTS_DIR"]


def _data_root() -> Path:
    package = resources.files(__package__ or "deckpress")
    if not isinstance(package, Path):
        raise ImportError("deckpress must be installed unzipped: its fonts and art are read by path")
    installed = package / "data"
    if installed.is_dir():
        return installed
    return package.parent.parent  # generator/deckpress -> the repository's root


#: The folder that holds `decks/`, `layouts/` and `fonts/`.
DATA = _data_root()
DECKS_DIR = DATA / "decks"
LAYOUTS_DIR = DATA / "layouts"
FONTS_DIR = DATA / "fonts"
