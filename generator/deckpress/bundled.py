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
    for root in (package / "data", package.parent.parent):  # a wheel; a checkout (generator/deckpress -> root)
        if (root / "decks").is_dir() and (root / "layouts").is_dir() and (root / "fonts").is_dir():
            return root
    raise ImportError(f"deckpress at {package} has no bundled decks, layouts and fonts: reinstall it "
                      "from a wheel or a full source checkout")


#: The folder that holds `decks/`, `layouts/` and `fonts/`.
DATA = _data_root()
DECKS_DIR = DATA / "decks"
LAYOUTS_DIR = DATA / "layouts"
FONTS_DIR = DATA / "fonts"
