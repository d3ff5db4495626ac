"""Puts the bundled decks, layouts and fonts into the wheel, as `deckpress/data/`.

They live at the top of the repository, where designers edit them, outside the package folder
`generator/deckpress/`, and setuptools' package data cannot reach outside a package. An editable
install skips the copy: `deckpress.bundled` reads them where they are.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

DATA_FOLDERS = ("decks", "layouts", "fonts")


class build_py_with_data(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib, "deckpress", "data")
        for name in DATA_FOLDERS:
            shutil.rmtree(target / name, ignore_errors=True)
            shutil.copytree(name, target / name, ignore=shutil.ignore_patterns("__pycache__", ".*"))


setup(cmdclass={"build_py": build_py_with_data})
