#!/usr/bin/env python3
"""deckpress against an earlier deckpress: the same build, alternating, in one run.

    python benchmarks/against.py dffdbc8~1                     # the bundled build, 11 rounds
    python benchmarks/against.py dffdbc8~1 --build distinct    # 1,000 cards, every face distinct
    python benchmarks/against.py dffdbc8~1 --instructions      # and instructions, by callgrind

The earlier revision is checked out into a temporary git worktree, and both checkouts' bytecode
is compiled first (as an install has it). Each round runs both builds one after the other, the
order alternating from round to round; CPU = user + sys of the process and the workers it waited
for, as benchmarks/compare.py measures it.

A shared machine's speed drifts from minute to minute, by as much as twice, so the figure to read
is the median of each round's ratio (this checkout / the earlier one): two runs close in time.
With --instructions, each build also runs once under valgrind's callgrind, in one process
(DECKPRESS_WORKERS=1) and with a fixed hash seed, where the count is the same run after run.
"""

from __future__ import annotations

import argparse
import compileall
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # common.py, when run as a script
from common import GENERATOR, ROOT, run_child  # noqa: E402
import squibdeck  # noqa: E402

BUILDS = {
    "bundled": "the bundled build: every deck, both papers, both inks",
    "distinct": "cards with every face distinct (benchmarks/squibdeck.py), Letter, colour",
}


def build_argv(build: str, deck: Path | None, out: Path) -> list[str]:
    """The command line of a build, writing into `out`."""
    if build == "bundled":
        return [sys.executable, "-m", "deckpress", "build", "--out", str(out)]
    return [sys.executable, "-m", "deckpress", "build", str(deck), "--paper", "letter", "--ink", "color",
            "--out", str(out)]


def instructions(argv: list[str], generator: Path) -> int:
    """The instructions a build runs, counted by callgrind: one process, a fixed hash seed."""
    env = {**os.environ, "PYTHONPATH": str(generator), "DECKPRESS_WORKERS": "1", "PYTHONHASHSEED": "0"}
    proc = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv],
                          env=env, capture_output=True, text=True, check=False)
    found = re.search(r"Collected\s*:\s*(\d+)", proc.stderr)
    if proc.returncode or not found:
        sys.exit(f"callgrind failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 2)[2],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("revision", help="the earlier deckpress: a commit, tag or branch of this repository")
    parser.add_argument("--build", choices=sorted(BUILDS), default="bundled",
                        help="; ".join(f"{name}: {what}" for name, what in BUILDS.items()))
    parser.add_argument("--cards", type=int, default=1000, help="cards of the distinct build (default 1000)")
    parser.add_argument("--rounds", type=int, default=11, help="rounds, each running both builds (default 11)")
    parser.add_argument("--instructions", action="store_true", help="count each build's instructions too (valgrind)")
    args = parser.parse_args()
    if args.rounds < 1 or args.cards < 1:
        parser.error("--rounds and --cards are at least 1")

    with tempfile.TemporaryDirectory(prefix="deckpress-against-") as tmp:
        earlier = Path(tmp) / "earlier"
        added = subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(earlier), args.revision],
                               capture_output=True, text=True, check=False)
        if added.returncode:
            sys.exit(f"cannot check out {args.revision}: {added.stderr.strip()}")
        try:
            print(measure(args, Path(tmp), {f"{args.revision}": earlier / "generator", "this checkout": GENERATOR}))
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(earlier)],
                           capture_output=True, check=False)


def measure(args: argparse.Namespace, tmp: Path, generators: dict[str, Path]) -> str:
    """Run the rounds (and the counts), and the table of what they found."""
    for generator in generators.values():
        compileall.compile_dir(str(generator / "deckpress"), quiet=1)
    deck = None
    if args.build == "distinct":
        deck = tmp / "deck"
        squibdeck.write_deck(deck, args.cards, args.cards)
    names = list(generators)
    cpu: dict[str, list[float]] = {name: [] for name in names}
    for i in range(args.rounds):
        for name in names if i % 2 == 0 else reversed(names):
            out = tmp / "out" / f"{i}-{len(cpu[name])}-{name.replace(' ', '-')}"
            cpu[name].append(run_child(build_argv(args.build, deck, out), cwd=tmp, generator=generators[name]).cpu)
        print(f"  round {i + 1}: " + ", ".join(f"{name} {cpu[name][-1]:.2f} s" for name in names), flush=True)
    before, after = names
    ratios = sorted(b / a for a, b in zip(cpu[before], cpu[after]))
    what = f"{BUILDS[args.build]}" + (f", {args.cards:,} cards" if args.build == "distinct" else "")
    lines = ["", f"{what}; {args.rounds} rounds", "",
             "| | CPU s, median | min | max |", "|---|---:|---:|---:|"]
    lines += [f"| {name} | {statistics.median(cpu[name]):.2f} | {min(cpu[name]):.2f} | {max(cpu[name]):.2f} |"
              for name in names]
    lines += ["", f"ratio ({after} / {before}) of each round, median {statistics.median(ratios):.3f}: "
              + ", ".join(f"{r:.2f}" for r in ratios)]
    if args.instructions:
        counts = {name: instructions(build_argv(args.build, deck, tmp / "out" / f"callgrind-{i}"), generators[name])
                  for i, name in enumerate(names)}
        lines += ["", "instructions, one process: " + ", ".join(f"{name} {counts[name] / 1e9:.2f} G" for name in names)
                  + f"; ratio {counts[after] / counts[before]:.3f}"]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
