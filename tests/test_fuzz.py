"""Whatever a deck file says, `check` (and, for some cases, a build) passes or stops with one
clean line, in bounded time.

Each case (tests/fuzzing.py) is a bundled deck with one of its files mutated: lines deleted,
duplicated, swapped, re-indented or cut off; values replaced by others of every type and size;
keys renamed; raw bytes; alias bombs; cycles. `--fuzz-cases N` runs more (`--fuzz-seed S` others).
"""

from __future__ import annotations

import signal

import pytest

from deckpress import api
from deckpress.errors import DeckError
from tests.fuzzing import make_case

SECONDS = 10  #: no input may make check, or a build, take longer
BUILD_EVERY = 25  #: every so many cases that check passes are built too (a build takes ten times longer)


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang()


def test_a_mutated_deck_is_checked_or_refused_in_one_line(fuzz_case, tmp_path):
    seed, number = fuzz_case
    folder, what = make_case(number, seed, tmp_path)
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(SECONDS)
    try:
        api.check(folder)
        if number % BUILD_EVERY == 0:  # what check passes, the PDF backend and imposition must take too
            api.build(folder, tmp_path / "out", papers="a4", inks="color")
    except DeckError as exc:
        line = str(exc)
        assert "\n" not in line and exc.file, f"{what}: not one line naming a file: {line!r}"
    except Hang:
        pytest.fail(f"{what}: took more than {SECONDS} s")
    except RecursionError:
        pytest.fail(f"{what}: RecursionError")
    except Exception as exc:  # noqa: BLE001 — any other exception is the failure this test looks for
        pytest.fail(f"{what}: {type(exc).__name__}: {str(exc)[:300]}")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_the_fuzzer_finds_what_it_looks_for(tmp_path, monkeypatch):
    """A loader that crashes on some input is caught: the cases above can fail."""
    from tests import fuzzing

    folder, what = make_case(0, 16, tmp_path)
    monkeypatch.setattr(api, "check", lambda deck: (_ for _ in ()).throw(KeyError("boom")))
    with pytest.raises(pytest.fail.Exception, match="KeyError"):
        test_a_mutated_deck_is_checked_or_refused_in_one_line((16, 0), tmp_path / "again")
    assert what.startswith("case 0 (seed 16): ") and set(fuzzing.MUTATIONS) >= {"delete", "alias_bomb", "truncate"}
