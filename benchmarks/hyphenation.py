#!/usr/bin/env python3
"""Hyphenation and long texts: the time to open each of pyphen's dictionaries, deckpress's reader
beside pyphen's own loader, and the time to set very long values.

    python benchmarks/hyphenation.py                      # both tables
    python benchmarks/hyphenation.py dictionaries --rounds 5
    python benchmarks/hyphenation.py long --timeout 60

`dictionaries`: every `hyph_*.dic` file pyphen ships, opened by `deckpress.text.hyphenate.Patterns`
and by pyphen's `HyphDict` (what `pyphen.Pyphen(lang=...)` builds, past its cache), one after the
other in this process, each the best of --rounds (CPU seconds); the ratio is deckpress's time over
pyphen's.

`long`: values of up to 100,000 characters (the most a YAML value may hold, docs/ROBUSTNESS.md),
each set in a fresh process with a --timeout: `set` is `text.set_text` alone in a 60 × 80 mm
box at 10 pt, hyphenated in German, shrinking to 5 pt; `check` is `deckpress.check` of a one-card
deck whose body text (57 × 80 mm, hyphenated, shrink to fit) is the value, from reading the deck to
the composed card. CPU seconds of that call (not the interpreter's start).

The code measured is the checkout this script is in (its generator/ first on the path): copy the
script into an older checkout (a git worktree) to measure that one.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GENERATOR = ROOT / "generator"

SHY = "\u00ad"
LONGEST = 100_000  # characters in one YAML value

# German syllables, for compounds and prose whose words are all different (no cache helps)
SYLLABLES = ("ka non ton lei ter the ma stim me rich tungs wech sel grund bau stein dampf schiff fahrt ge "
             "sell schafts kapi tän no ten kar ten sta pel ab la ge nach zieh spiel brett wür fel "
             "zeit schrift bahn hof uhr werk zeug haus tür schloss").split()
WORDS = ("Der Kanon beginnt mit einer Stimme, die anderen folgen im Abstand eines Taktes; "
         "wer am Zug ist, legt eine Karte offen auf den Tisch und nennt ihren Ton.").split()
HEBREW = "שלום עולם ספר מילה אות כתב קול שיר".split()


def _syllables(rng: random.Random, n: int) -> list[str]:
    out, length = [], 0
    while length < n:
        out.append(rng.choice(SYLLABLES))
        length += len(out[-1]) + 1
    return out


def value(case: str) -> str:
    """The text of a case: always the same (seeded)."""
    rng = random.Random(31)
    if case.startswith("compound"):  # one German word of that many letters
        n = int(case.split("-")[1])
        return "".join(_syllables(rng, n))[:n].capitalize()
    if case == "german":  # prose: real words and compounds made of syllables, every one different
        words, length = [], 0
        while length < LONGEST:
            word = rng.choice(WORDS) if rng.random() < 0.6 else "".join(_syllables(rng, rng.randrange(8, 30))).capitalize()
            words.append(word)
            length += len(word) + 1
        return " ".join(words)[:LONGEST].strip()
    if case == "cjk":  # no spaces: one word to the line breaker
        return "".join(chr(0x4E00 + rng.randrange(20000)) for _ in range(LONGEST))
    if case == "shy":  # one word of soft-hyphenated syllables
        return SHY.join(_syllables(rng, LONGEST))[:LONGEST].strip(SHY)
    if case == "hebrew-shy":  # right to left, soft-hyphenated
        parts, length = [], 0
        while length < LONGEST:
            parts.append(rng.choice(HEBREW))
            length += len(parts[-1]) + 1
        return SHY.join(parts)[:LONGEST].strip(SHY)
    if case == "mixed-shy":  # both directions in one word: Hebrew and German syllables, soft-hyphenated
        parts, length = [], 0
        while length < LONGEST:
            parts.append(rng.choice(HEBREW) if rng.random() < 0.5 else rng.choice(SYLLABLES))
            length += len(parts[-1]) + 1
        return SHY.join(parts)[:LONGEST].strip(SHY)
    raise ValueError(case)


CASES = {
    "compound-1500": "one German compound of 1,500 letters",
    "compound-3000": "one German compound of 3,000 letters",
    "compound-100000": "one word of 100,000 letters, hyphenated in German",
    "german": "100,000 characters of German prose",
    "cjk": "100,000 CJK characters, no spaces",
    "shy": "100,000 characters of soft-hyphenated syllables, one word",
    "hebrew-shy": "100,000 characters of Hebrew words joined by soft hyphens, one word",
    "mixed-shy": "100,000 characters of Hebrew and German syllables joined by soft hyphens, one word",
}

LAYOUT = """\
templates:
  front:
    fields: {text: ~}
    elements:
      - text: {text: "{text}", x: 3mm, y: 3mm, w: 57mm, h: 80mm, size: 10pt, min-size: 5pt, fit: shrink}
"""
DECK = """\
id: long
title: Long
designer: Bench
license: CC0-1.0
language: de
layouts: [long]
components:
  - name: cards
    front: front
    cards:
      - text: {text}
"""


def run_case(case: str, how: str) -> float:
    """CPU seconds of setting one case, in this process."""
    text = value(case)
    if how == "set":
        from deckpress.colors import BLACK
        from deckpress.text import Shaping, TextStyle, set_text
        from deckpress.text.fonts import FontSet
        from deckpress.units import PT
        fonts = FontSet()
        start = time.process_time()
        set_text(text, (0.0, 0.0, 60.0, 80.0), TextStyle(fonts.families["sans"], "regular", 10 * PT, 5 * PT, BLACK,
                                                         hyphenate="de", shaping=Shaping("de")), fonts)
        return time.process_time() - start
    import json

    import deckpress
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "layouts").mkdir()
        (folder / "layouts" / "long.yaml").write_text(LAYOUT, encoding="utf-8")
        (folder / "deck.yaml").write_text(DECK.format(text=json.dumps(text)), encoding="utf-8")
        start = time.process_time()
        try:
            deckpress.check(folder)
        except deckpress.DeckError as exc:
            print(f"refused: {exc}", file=sys.stderr)
        return time.process_time() - start


def long_table(timeout: float) -> None:
    print(f"{'case':<18} {'set':>8} {'check':>8}  what")
    for case, what in CASES.items():
        cells = []
        for how in ("set", "check"):
            env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(GENERATOR),
                                                                              os.environ.get("PYTHONPATH")]))}
            try:
                proc = subprocess.run([sys.executable, __file__, "--case", case, how], env=env,
                                      capture_output=True, text=True, timeout=timeout)
                cells.append(f"{float(proc.stdout):7.2f}s" if proc.returncode == 0 else "failed")
                if proc.returncode:
                    print(proc.stderr, file=sys.stderr)
                elif proc.stderr.strip():
                    print(f"  ({case}, {how}) {proc.stderr.strip()[:200]}")
            except subprocess.TimeoutExpired:
                cells.append(f">{timeout:6.0f}s")
        print(f"{case:<18} {cells[0]:>8} {cells[1]:>8}  {what}", flush=True)


def dictionaries_table(rounds: int) -> None:
    import pyphen

    from deckpress.text.hyphenate import Patterns

    paths = sorted({path for path in pyphen.LANGUAGES.values()}, key=lambda p: p.name)

    def best(make, path) -> float:
        times = []
        for _ in range(rounds):
            start = time.process_time()
            make(path)
            times.append(time.process_time() - start)
        return min(times)

    print(f"{'dictionary':<22} {'kB':>6} {'deckpress':>10} {'pyphen':>8} {'ratio':>6}")
    total = [0.0, 0.0]
    worst = ("", 0.0)
    for path in paths:
        ours, theirs = best(Patterns, path), best(pyphen.HyphDict, path)
        total[0] += ours
        total[1] += theirs
        ratio = ours / theirs if theirs else float("inf")
        worst = max(worst, (path.name, ratio), key=lambda w: w[1])
        print(f"{path.name[5:-4]:<22} {len(path.read_bytes()) / 1000:6.0f} {ours * 1000:8.1f}ms "
              f"{theirs * 1000:6.1f}ms {ratio:6.2f}", flush=True)
    print(f"{'all ' + str(len(paths)):<22} {'':>6} {total[0] * 1000:8.1f}ms {total[1] * 1000:6.1f}ms "
          f"{total[0] / total[1]:6.2f}")
    print(f"slowest against pyphen: {worst[0]} at {worst[1]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("table", nargs="?", choices=("dictionaries", "long"), help="one table only")
    parser.add_argument("--rounds", type=int, default=3, help="opens of each dictionary; the best is shown")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds a long value may take")
    parser.add_argument("--case", nargs=2, metavar=("CASE", "HOW"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case:
        print(run_case(*args.case))
        return
    sys.path.insert(0, str(GENERATOR))
    if args.table in (None, "dictionaries"):
        dictionaries_table(args.rounds)
    if args.table in (None, "long"):
        if args.table is None:
            print()
        long_table(args.timeout)


if __name__ == "__main__":
    main()
