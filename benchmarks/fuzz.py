#!/usr/bin/env python3
"""The fuzzer's long run: thousands of hostile decks (tests/fuzzing.py, every kind of input in
turn), each checked (and every BUILD_EVERY-th that passes, built) in a worker process held to
SECONDS of CPU and MEMORY of address space beyond its start, and a table of what became of them.

    python benchmarks/fuzz.py --cases 10000 --seeds 40 41 42 43 44    # issue 32's 10,000 fresh cases
    python benchmarks/fuzz.py --cases 300 --show 5                    # a quick look, five of each failure

A case ends `ok` (checked, and built if its turn), `clean` (one DeckError line naming a file), or a
failure: `traceback` (any other exception), `line-less` (a DeckError naming no file, or of more
than one line), `slow` (over SECONDS of CPU) or `memory` (MemoryError past the limit); a worker that
dies (a crash in native code) is counted `died`, and a case the fuzzer itself failed to make `fuzzer`. Each failure is shown with the case that replays
it: `python -m pytest tests/test_fuzz.py --fuzz-cases N+1 --fuzz-seed S -k S-N`.
"""

from __future__ import annotations

import argparse
import collections
import functools
import multiprocessing
import os
import resource
import signal
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "generator"))
sys.path.insert(0, str(ROOT))

SECONDS = 10  # CPU seconds a case may take (tests/test_fuzz.py's bound)
MEMORY = 1 << 30  # address space a case may take beyond the worker's own (tests/test_fuzz.py's bound)
BUILD_EVERY = 25  # every so many cases that check passes are built too


class _Slow(Exception):
    pass


def _alarm(signum, frame):
    raise _Slow()


def run_case(seed_number: tuple[int, int], build_every: int = BUILD_EVERY) -> tuple[int, int, str, str, str]:
    """One case in this worker: (seed, number, kind, outcome, detail)."""
    from deckpress import api
    from deckpress.errors import DeckError
    from tests.fuzzing import make_case

    seed, number = seed_number
    with tempfile.TemporaryDirectory() as root:
        try:
            folder, what = make_case(number, seed, Path(root))
        except Exception as exc:  # noqa: BLE001 — the fuzzer's own mistake, counted apart from deckpress's
            return seed, number, "?", "fuzzer", f"making case {number}: {type(exc).__name__}: {exc}"
        kind = what.split(": ", 1)[1].split(",")[0]
        previous = signal.signal(signal.SIGXCPU, _alarm)
        start = resource.getrusage(resource.RUSAGE_SELF)
        used = start.ru_utime + start.ru_stime
        limits = resource.getrlimit(resource.RLIMIT_CPU), resource.getrlimit(resource.RLIMIT_AS)
        resource.setrlimit(resource.RLIMIT_CPU, (int(used) + SECONDS + 1, limits[0][1]))
        resource.setrlimit(resource.RLIMIT_AS, (_address_space() + MEMORY, limits[1][1]))
        try:
            api.check(folder)
            if number % build_every == 0:
                api.build(folder, Path(root) / "out", papers="a4", inks="color")
            return seed, number, kind, "ok", what
        except DeckError as exc:
            line = str(exc)
            if "\n" in line or not exc.file:
                return seed, number, kind, "line-less", f"{what}: {line[:200]!r}"
            return seed, number, kind, "clean", what
        except _Slow:
            return seed, number, kind, "slow", what
        except MemoryError:
            return seed, number, kind, "memory", what
        except RecursionError:
            return seed, number, kind, "traceback", f"{what}: RecursionError"
        except Exception as exc:  # noqa: BLE001 — what the run counts
            return seed, number, kind, "traceback", f"{what}: {type(exc).__name__}: {str(exc)[:200]}"
        finally:
            resource.setrlimit(resource.RLIMIT_CPU, limits[0])
            resource.setrlimit(resource.RLIMIT_AS, limits[1])
            signal.signal(signal.SIGXCPU, previous)


def _address_space() -> int:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmSize:"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=1000, help="cases in all, shared between the seeds")
    parser.add_argument("--seeds", type=int, nargs="+", default=[40], help="seeds (fresh ones: not the suite's 16)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--show", type=int, default=3, help="failures shown of each outcome and kind")
    parser.add_argument("--build-every", type=int, default=BUILD_EVERY,
                        help="build every so many cases that check passes (1: all of them)")
    args = parser.parse_args()
    per_seed = -(-args.cases // len(args.seeds))
    todo = [(seed, n) for seed in args.seeds for n in range(per_seed)][:args.cases]
    import deckpress.api  # noqa: F401 — loaded once, before the workers fork
    import tests.fuzzing  # noqa: F401
    counts: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    shown: dict[tuple[str, str], list[str]] = collections.defaultdict(list)
    began = time.monotonic()
    done = 0
    # a worker that dies (native code crashing) takes its case with it: the pool notices, and the
    # case is counted apart; a fresh worker every 200 cases keeps any leak from piling up
    with multiprocessing.get_context("fork").Pool(args.workers, maxtasksperchild=200) as pool:
        results = pool.imap_unordered(functools.partial(run_case, build_every=args.build_every), todo)  # one at a time: `next` can wait with a timeout
        while True:
            try:
                seed, number, kind, outcome, detail = results.next(timeout=SECONDS * 6)
            except StopIteration:
                break
            except multiprocessing.TimeoutError:  # a case lost with its worker: what is left is not waited for
                counts["?"]["died"] += len(todo) - done
                break
            counts[kind][outcome] += 1
            if outcome not in ("ok", "clean") and len(shown[kind, outcome]) < args.show:
                shown[kind, outcome].append(f"{detail}  [replay: --fuzz-seed {seed} -k {seed}-{number}]")
            done += 1
            if done % 500 == 0:
                print(f"  {done} cases, {time.monotonic() - began:.0f} s", file=sys.stderr)
    outcomes = ["ok", "clean", "traceback", "line-less", "slow", "memory", "died", "fuzzer"]
    print(f"{done} cases over seeds {', '.join(map(str, args.seeds))} in {time.monotonic() - began:.0f} s\n")
    print("| kind | cases | " + " | ".join(outcomes) + " |")
    print("|---|---:|" + "---:|" * len(outcomes))
    for kind in sorted(counts):
        row = counts[kind]
        print(f"| {kind} | {sum(row.values())} | " + " | ".join(str(row[o]) for o in outcomes) + " |")
    total = sum((c for c in counts.values()), collections.Counter())
    print(f"| all | {sum(total.values())} | " + " | ".join(str(total[o]) for o in outcomes) + " |")
    for (kind, outcome), details in sorted(shown.items()):
        print(f"\n{kind}, {outcome}:")
        for detail in details:
            print(f"  {detail}")


if __name__ == "__main__":
    main()
