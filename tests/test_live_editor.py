"""Which editor the live page's file:line links open, and how each is told the line."""

from __future__ import annotations

import pytest

from deckpress.live.editor import arguments, editor_command, editor_name, open_in_editor


@pytest.mark.parametrize("visual, editor, expected", [
    ("code --wait", "vim", ["code", "--wait"]),  # $VISUAL first
    (None, "'/opt/My Editor/bin/subl' -n", ["/opt/My Editor/bin/subl", "-n"]),  # words as a shell splits them
    ("  ", "nano", ["nano"]),  # a blank $VISUAL is none
    (None, None, None),
    ("code 'unclosed", None, None),  # not words a shell could split: none, rather than a guess
])
def test_the_editor_is_visual_else_editor(monkeypatch, visual, editor, expected):
    for name, value in (("VISUAL", visual), ("EDITOR", editor)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    assert editor_command() == expected
    assert editor_name() == ("" if expected is None else expected[0].rsplit("/", 1)[-1])


@pytest.mark.parametrize("command, expected", [
    ("code", ["-g", "{file}:7"]), ("codium", ["-g", "{file}:7"]), ("subl", ["{file}:7"]), ("zed", ["{file}:7"]),
    ("/usr/bin/vim", ["+7", "{file}"]), ("nvim", ["+7", "{file}"]), ("emacsclient -n", ["+7", "{file}"]),
    ("nano", ["+7", "{file}"]), ("pycharm", ["--line", "7", "{file}"]), ("C:/Tools/Code.exe", ["-g", "{file}:7"]),
    ("kwrite", ["{file}"]),
])
def test_each_editor_is_told_the_line_its_own_way(command, expected):
    words = command.split()
    assert arguments(words, "/deck/deck.yaml", 7) == [*words, *(e.format(file="/deck/deck.yaml") for e in expected)]


def test_an_editor_that_cannot_be_started_is_one_line(monkeypatch, tmp_path):
    monkeypatch.setenv("VISUAL", str(tmp_path / "no-such-editor"))
    problem = open_in_editor(tmp_path / "deck.yaml", 3)
    assert problem is not None and problem.startswith(f"cannot start the editor {tmp_path / 'no-such-editor'}: ")
    monkeypatch.delenv("VISUAL")
    monkeypatch.delenv("EDITOR", raising=False)
    assert open_in_editor(tmp_path / "deck.yaml", 3) == ("no editor: set $VISUAL or $EDITOR (for example to code, "
                                                         "subl or gvim)")
