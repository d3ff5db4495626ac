"""Decks come from strangers: whatever is wrong in them, the answer is a DeckError, never a crash.

Deterministic mutations of the bundled metronome deck and its layouts: every mutated copy must
either build its faces or fail with a DeckError that names a file and line.
"""

from __future__ import annotations

import copy
import functools
import random
import shutil
from pathlib import Path

import pytest
import yaml

from deckpress.bundled import DECKS_DIR, LAYOUTS_DIR
from deckpress.compose import Composer
from deckpress.errors import DeckError
from deckpress.model import load_deck

# libyaml where it is installed: reading and writing the copies was most of this file's time
LOADER, DUMPER = getattr(yaml, "CSafeLoader", yaml.SafeLoader), getattr(yaml, "CSafeDumper", yaml.SafeDumper)

JUNK = [None, 0, -3, 1.5, True, "", "x", "{nope}", "100% - 3", "#12", [], ["a", 1], {}, {"a": {"b": 1}}]


def paths(node, prefix=()):
    """Every (path) to a value in a YAML tree."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield prefix + (k,)
            yield from paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield prefix + (i,)
            yield from paths(v, prefix + (i,))


def mutate(tree, rng):
    path = rng.choice(list(paths(tree)))
    parent = tree
    for step in path[:-1]:
        parent = parent[step]
    if rng.random() < 0.15 and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = rng.choice(JUNK)
    return path


def compose_all(folder):
    deck = load_deck(folder)
    composer = Composer(deck)
    for component in deck.components:
        for card in component.cards:
            composer.face(card, component.front)
            if component.back:
                composer.face(card, component.back)


@functools.cache
def pristine(name):
    """A file of the copy (deck.yaml, layouts/…) as the bundled original reads, read once: each
    test mutates a deep copy."""
    path = DECKS_DIR / "metronome" / name if name == "deck.yaml" else LAYOUTS_DIR / Path(name).name
    return yaml.load(path.read_text(encoding="utf-8"), Loader=LOADER)


def mutated_copy(tmp_path, seed):
    """metronome copied into `tmp_path` with one value of one of its files made junk (or its key
    deleted) by `seed`."""
    rng = random.Random(seed)
    folder = tmp_path / "metronome"
    shutil.copytree(DECKS_DIR / "metronome", folder)
    (folder / "layouts").mkdir(exist_ok=True)
    for name in ("common", "metronome"):
        shutil.copy(LAYOUTS_DIR / f"{name}.yaml", folder / "layouts" / f"{name}.yaml")
    name = rng.choice(["deck.yaml", "layouts/common.yaml", "layouts/metronome.yaml"])
    tree = copy.deepcopy(pristine(name))
    mutate(tree, rng)
    (folder / name).write_text(yaml.dump(tree, Dumper=DUMPER, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return folder


MUTATIONS = 60


@pytest.mark.parametrize("seed", range(MUTATIONS))
def test_mutated_decks_fail_cleanly(tmp_path, seed):
    """A junk value is either taken (it may be harmless: a text) or refused with a DeckError at its
    file and line; never a crash of another kind."""
    try:
        compose_all(mutated_copy(tmp_path, seed))
    except DeckError as exc:
        assert exc.file and exc.line, str(exc)


def test_most_mutations_are_refused_at_their_line(tmp_path):
    """The test above would pass for a deckpress that checked nothing if junk never crashed: here
    the share refused is held, 50 of the 60 (a list for a colour, a number for a template's
    name, a required key deleted), each naming its file and line."""
    refused = 0
    for seed in range(MUTATIONS):
        try:
            compose_all(mutated_copy(tmp_path / str(seed), seed))
        except DeckError as exc:
            assert exc.file and exc.line, str(exc)
            refused += 1
    assert refused >= 45, refused
