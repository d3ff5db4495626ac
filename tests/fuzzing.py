"""A seeded mutation fuzzer over the bundled decks: the promise it checks is that whatever a deck
file says, `check` either passes or stops with one DeckError line naming a file, in bounded time.

A case is a number: with the seed, it picks a deck, one of its files (deck.yaml, its layout, a
card spreadsheet or a translation) and one to three mutations, so any failure is replayed from
its number alone (`python -m pytest tests/test_fuzz.py --fuzz-cases N --fuzz-seed S`).
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable
from pathlib import Path

from deckpress.bundled import DECKS_DIR, LAYOUTS_DIR
from deckpress.model import bundled_deck_ids

#: values a hostile or careless file might hold, of every type and size
VALUES = (
    "", "~", "[]", "{}", "0", "-1", "1e309", "-40mm", "100000mm", "1e9", ".nan", "-.inf", "true",
    "9" * 5000, "ñ€𝄞 ☃", "'\u202e\u0000x'", "!!float x", "!!int 12x", "!!bool maybe", "!!timestamp nope",
    "!!map [a]", "!!seq {a: 1}", "!!python/object:os.system x", "2024-02-30", "[" * 200 + "]" * 200,
    "{a: " * 60 + "1" + "}" * 60, "../../../etc/passwd", "/etc/passwd", "art/../../outside.svg", "x" * 50_000,
    "\"{missing}\"", "\"{{\"", "\":sharp::nope:\"", "*undefined", "&a [*a]", "#c8283c", "\"#zzz\"",
    "[red, gold, blue, red, gold, blue]", "{count: 99999999}", "metronome", "../", ".",
)

MUTATIONS: dict[str, Callable[[list[str], random.Random], list[str]]] = {}


def mutation(fn: Callable[[list[str], random.Random], list[str]]) -> Callable[[list[str], random.Random], list[str]]:
    MUTATIONS[fn.__name__] = fn
    return fn


@mutation
def delete(lines: list[str], rng: random.Random) -> list[str]:
    del lines[rng.randrange(len(lines))]
    return lines


@mutation
def duplicate(lines: list[str], rng: random.Random) -> list[str]:
    i = rng.randrange(len(lines))
    lines.insert(i, lines[i])
    return lines


@mutation
def swap(lines: list[str], rng: random.Random) -> list[str]:
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return lines


@mutation
def reindent(lines: list[str], rng: random.Random) -> list[str]:
    i = rng.randrange(len(lines))
    lines[i] = ("  " + lines[i]) if rng.random() < 0.5 else lines[i][2:]
    return lines


@mutation
def replace_value(lines: list[str], rng: random.Random) -> list[str]:
    """The value after a key (`key: value`, in block or flow style) becomes another one."""
    candidates = [i for i, line in enumerate(lines) if ": " in line or "," in line]
    if not candidates:
        return lines
    i = rng.choice(candidates)
    line = lines[i]
    cut = line.find(": ") + 2 if ": " in line else line.find(",") + 1
    rest = line[cut:]
    end = min((rest.find(c) for c in ",}]" if c in rest), default=len(rest))
    lines[i] = line[:cut] + rng.choice(VALUES) + rest[end:]
    return lines


@mutation
def rename_key(lines: list[str], rng: random.Random) -> list[str]:
    candidates = [i for i, line in enumerate(lines) if ":" in line]
    if candidates:
        i = rng.choice(candidates)
        key_end = lines[i].index(":")
        at = rng.randrange(key_end + 1)
        lines[i] = lines[i][:at] + rng.choice("xq_-Z ") + lines[i][at:]
    return lines


@mutation
def random_bytes(lines: list[str], rng: random.Random) -> list[str]:
    i = rng.randrange(len(lines))
    # raw bytes, kept raw through the text (written back with surrogateescape): not always UTF-8
    noise = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 12))).decode("utf-8", "surrogateescape")
    lines[i] = lines[i][: len(lines[i]) // 2] + noise + lines[i][len(lines[i]) // 2:]
    return lines


@mutation
def truncate(lines: list[str], rng: random.Random) -> list[str]:
    text = "".join(lines)
    return [text[: rng.randrange(len(text) + 1)]]


@mutation
def alias_bomb(lines: list[str], rng: random.Random) -> list[str]:
    bomb = ["bomb0: &b0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"]
    bomb += [f"bomb{n}: &b{n} [{', '.join([f'*b{n - 1}'] * 10)}]\n" for n in range(1, 9)]
    return bomb + lines if rng.random() < 0.5 else lines + ["x: *b8\n"] + bomb


@mutation
def cycle(lines: list[str], rng: random.Random) -> list[str]:
    """A deck that extends itself, or a template that extends itself."""
    return [line.replace("extends: blank", "extends: note").replace("extends: rule-card", "extends: tie")
            for line in lines] + ["extends: .\n"] * (rng.random() < 0.3)


def files_of(folder: Path) -> list[Path]:
    """The files of a deck copy a case may change: its deck.yaml, layouts, card lists, translations."""
    return sorted(p for p in folder.rglob("*") if p.suffix in (".yaml", ".csv") and p.is_file())


def make_case(number: int, seed: int, root: Path) -> tuple[Path, str]:
    """Copy a bundled deck (its layouts into its own layouts/, where they shadow the bundled ones)
    into `root`, mutate it, and return its folder and what was done, for the failure message."""
    rng = random.Random(seed * 1_000_003 + number)
    deck_id = rng.choice(bundled_deck_ids())
    folder = root / deck_id
    shutil.copytree(DECKS_DIR / deck_id, folder)
    (folder / "layouts").mkdir(exist_ok=True)
    for name in ("common", deck_id):
        shutil.copyfile(LAYOUTS_DIR / f"{name}.yaml", folder / "layouts" / f"{name}.yaml")
    target = rng.choice(files_of(folder))
    lines = target.read_text(encoding="utf-8").splitlines(keepends=True) or ["\n"]
    done = []
    for _ in range(rng.randint(1, 3)):
        name = rng.choice(sorted(MUTATIONS))
        lines = MUTATIONS[name](lines, rng) or ["\n"]
        done.append(name)
    target.write_bytes("".join(lines).encode("utf-8", "surrogateescape"))
    return folder, f"case {number} (seed {seed}): {deck_id}, {target.relative_to(folder)}: {', '.join(done)}"
