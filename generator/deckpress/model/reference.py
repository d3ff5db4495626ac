"""The key references in docs/DECKS.md and docs/LAYOUTS.md, generated from the declarations.

Each generated part of a doc sits between `<!-- NAME:begin -->` and `<!-- NAME:end -->`;
everything around it is written by hand. To bring the docs up to date after changing a table
in `keys` or a kind in `elements`:

    python -m deckpress.model.reference [DOCS_FOLDER]

(DOCS_FOLDER defaults to the docs/ of the source tree this module is in). tests/test_docs.py
fails while a doc differs from what this would write.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

from .elements import COMMON, KINDS
from .keys import BOX, CARD, CARD_TABLE, COMPONENT, DECK, FONT, FONT_FILE, ICON, LAYOUT, PALETTE, SIZE, SPAN, TEMPLATE, Key, Keys


def keys_table(keys: Keys) -> str:
    """A table of file keys: whether each is needed (or its default) and what it is."""
    rows = ["| key | needed | what it is |", "|---|---|---|"]
    for key in keys.keys:
        name = f"[`{key.name}`]({key.see})" if key.see else f"`{key.name}`"
        default = str(key.default).lower() if isinstance(key.default, bool) else key.default
        needed = "yes" if key.required else "no" if default in (None, "") else f"no, `{default}`"
        choices = f": {' or '.join(', '.join(f'`{c}`' for c in key.choices).rsplit(', ', 1))}" if key.choices else ""
        rows.append(f"| {name} | {needed} | {key.doc}{choices} |")
    return "\n".join(rows) + "\n"


def element_reference() -> str:
    """The element reference for docs/LAYOUTS.md: the keys every element has, then each kind."""
    out = ["### Keys every element has\n", _element_table(COMMON)]
    for kind in KINDS.values():
        out.append(f"### `{kind.name}`\n\n{kind.doc}\n\n```yaml\n{kind.example}\n```\n")
        out.append(_element_table(tuple(k for k in kind.keys if k not in COMMON)))
    return "\n".join(out)


def _element_table(keys: tuple[Key, ...]) -> str:
    rows = ["| key | default | meaning |", "|---|---|---|"]
    for key in keys:
        default = key.default
        shown = "—" if default is None else f"`{str(default).lower() if isinstance(default, bool) else default}`"
        choices = f" One of: {', '.join(f'`{c}`' for c in key.choices)}." if key.choices else ""
        rows.append(f"| `{key.name}` | {shown} | {key.doc}{choices} |")
    return "\n".join(rows) + "\n"


#: The key tables each doc shows, in the order they appear in it.
DOC_TABLES: dict[str, tuple[Keys, ...]] = {
    "DECKS.md": (DECK, SIZE, FONT, FONT_FILE, PALETTE, BOX, COMPONENT, CARD, CARD_TABLE),
    "LAYOUTS.md": (LAYOUT, ICON, TEMPLATE, SPAN),
}


def marker(keys: Keys) -> str:
    """The name of the markers round a table's generated part: `keys:palette-colour`."""
    return "keys:" + keys.name.replace(" ", "-")


def sections(doc: str) -> dict[str, Callable[[], str]]:
    """A doc's generated parts: marker name -> what goes between the markers."""
    parts: dict[str, Callable[[], str]] = {marker(t): partial(keys_table, t) for t in DOC_TABLES[doc]}
    if doc == "LAYOUTS.md":
        parts["elements"] = element_reference
    return parts


def regenerate(text: str, doc: str) -> str:
    """`text` (the doc called `doc`) with every generated part written afresh."""
    for name, generate in sections(doc).items():
        begin, end = f"<!-- {name}:begin -->\n", f"<!-- {name}:end -->"
        if text.count(begin) != 1 or text.count(end) != 1:
            raise ValueError(f"{doc} needs one '{begin.strip()}' and one '{end}'")
        head, rest = text.split(begin)
        _, tail = rest.split(end)
        text = f"{head}{begin}{generate().strip()}\n{end}{tail}"
    return text


def main(argv: list[str]) -> int:
    docs = Path(argv[0]) if argv else Path(__file__).resolve().parents[3] / "docs"
    for doc in DOC_TABLES:
        path = docs / doc
        if not path.is_file():
            print(f"no {path}; give the docs folder: python -m deckpress.model.reference DOCS_FOLDER",
                  file=sys.stderr)
            return 2
        old = path.read_text(encoding="utf-8")
        new = regenerate(old, doc)
        if new != old:
            path.write_text(new, encoding="utf-8")
        print(f"{path}: {'rewritten' if new != old else 'up to date'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
