"""The walk-throughs (docs/TUTORIAL.md, docs/CUSTOMISING.md) followed word for word.

Each page is a list of steps a reader takes, in order, in an empty folder:

- a ```console block: every `$ deckpress …` line is run, and the lines under it are what it
  prints (a time such as `in 0.4 s` may differ); a first line `error: …` means exit status 2;
- a ```lang block after `<!-- write: path -->` is written to that file, after
  `<!-- append: path -->` added to its end;
- a ```diff block after `<!-- edit: path -->` changes that file: its `-` and context lines,
  found together, become its context and `+` lines;
- a picture `![…](images/NAME.png)` whose NAME ends in `-preview` is the preview the steps so far
  built, byte for byte.

`python tests/test_docs_walkthroughs.py` follows them and refreshes the pictures.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckpress import cli

DOCS = Path(__file__).resolve().parent.parent / "docs"
WALKTHROUGHS = ("TUTORIAL.md", "CUSTOMISING.md")

_BLOCK = re.compile(r"(?:<!-- (write|append|edit): (\S+) -->\n)?```(\w*)\n(.*?)```|!\[[^\]]*\]\(images/([\w-]+-preview)\.png\)",
                    re.S)
_TIME = re.compile(r"in \d+(?:\.\d+)? s\b")


def steps(doc: str) -> list[tuple[str, ...]]:
    """The page's steps in order: ("run", command, expected output), ("write" | "append" | "edit",
    path, text), ("picture", name)."""
    found: list[tuple[str, ...]] = []
    for match in _BLOCK.finditer((DOCS / doc).read_text(encoding="utf-8")):
        action, path, lang, body, picture = match.groups()
        if picture:
            found.append(("picture", picture))
        elif action:
            found.append((action, path, body))
        elif lang == "console":
            for command in re.split(r"(?m)^(?=\$ )", body):
                if command.startswith("$ "):
                    line, _, expected = command[2:].partition("\n")
                    found.append(("run", line, expected))
    return found


def follow(doc: str, folder: Path, pictures: dict[str, Path] | None = None) -> list[str]:
    """Take every step of `doc` in `folder`; returns the pictures it shows, and with `pictures`
    given records where each preview it names was built."""
    shown = []
    here = os.getcwd()
    os.chdir(folder)
    try:
        for step in steps(doc):
            kind = step[0]
            if kind == "run":
                _run(step[1], step[2])
            elif kind == "picture":
                shown.append(step[1])
                deck_id = step[1].split("-", 1)[1].removesuffix("-preview")
                built = folder / "output" / deck_id / f"{deck_id}-preview.png"
                assert built.is_file(), f"{doc}: the steps before {step[1]}.png build no {built.name}"
                if pictures is not None:
                    pictures[step[1]] = built
                else:
                    assert built.read_bytes() == (DOCS / "images" / f"{step[1]}.png").read_bytes(), (
                        f"{doc}: images/{step[1]}.png is not what the steps build; refresh it with "
                        "`python tests/test_docs_walkthroughs.py`")
            else:
                _change(*step)
    finally:
        os.chdir(here)
    return shown


def _run(command: str, expected: str) -> None:
    words = shlex.split(command)
    assert words[0] == "deckpress", command
    result = CliRunner().invoke(cli.main, words[1:])
    wanted = expected.strip().splitlines()
    status = 2 if wanted and wanted[0].startswith("error:") else 0
    assert result.exit_code == status, f"$ {command}\n{result.output}"
    said = [_TIME.sub("in … s", line) for line in result.output.strip().splitlines()]
    assert said == [_TIME.sub("in … s", line) for line in wanted], f"$ {command}"


def _change(action: str, path: str, body: str) -> None:
    file = Path(path)
    if action == "write":
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(body, encoding="utf-8")
    elif action == "append":
        file.write_text(file.read_text(encoding="utf-8") + body, encoding="utf-8")
    else:  # a diff: the `-` and ` ` lines become the ` ` and `+` lines
        lines = body.splitlines()
        old = "".join(f"{line[1:]}\n" for line in lines if line[:1] in "- ")
        new = "".join(f"{line[1:]}\n" for line in lines if line[:1] in "+ ")
        text = file.read_text(encoding="utf-8")
        assert old in text, f"{path} has no lines {old!r} to change"
        file.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize("doc", WALKTHROUGHS)
def test_the_walkthrough_works_word_for_word(doc, tmp_path):
    shown = follow(doc, tmp_path)
    assert shown, f"{doc} shows no picture of what it builds"
    assert any(step[0] == "run" and step[1].startswith("deckpress build") for step in steps(doc))


def test_a_walkthrough_that_goes_wrong_fails(tmp_path, monkeypatch):
    """The follower is strict: a wrong expected line, a missing line to edit, fail."""
    with pytest.raises(AssertionError):
        _run("deckpress list --help", "nothing like this")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "f.txt").write_text("a\nb\nc\n", encoding="utf-8")
    _change("edit", "f.txt", " a\n-b\n+B\n+B2\n")
    assert (tmp_path / "f.txt").read_text(encoding="utf-8") == "a\nB\nB2\nc\n"
    with pytest.raises(AssertionError, match=re.escape("has no lines 'x\\n' to change")):
        _change("edit", "f.txt", "-x\n+y\n")


if __name__ == "__main__":  # refresh the pictures
    import tempfile

    for page in WALKTHROUGHS:
        with tempfile.TemporaryDirectory() as tmp:
            built: dict[str, Path] = {}
            follow(page, Path(tmp), built)
            for name, path in built.items():
                shutil.copyfile(path, DOCS / "images" / f"{name}.png")
                print(f"docs/images/{name}.png", file=sys.stderr)
