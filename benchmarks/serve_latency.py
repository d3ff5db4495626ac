"""How long a saved edit takes to show in the `deckpress serve` page, beside the loop a designer
has without it: `deckpress build DECK`, then open the PDF.

For each bundled deck, copied into a temporary folder: start `deckpress serve` on it, open the
page in headless Chromium (Debian's, driven by Playwright, as the tests do), change one card in
the deck's own file, and time from the save to the moment the page shows that card's new
picture, loaded. In the same run, time `deckpress build` of the same copy: what a designer
without the preview waits for before a PDF viewer can show the change. Each figure is the median
of --repeat edits (the edit and its undo, in turn); wall-clock seconds, since waiting is the point.

    python benchmarks/serve_latency.py [--repeat 5] [DECK ...]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402  (the tests' browser, found the same way)
from tests.served import EDITS, Served  # noqa: E402

def shown_after_save(page, path: Path, old: str, new: str) -> float:
    """Seconds from saving the edit until every face picture on the page is the new state's, loaded."""
    before = page.evaluate("Number(document.body.dataset.version)")
    ids = page.evaluate("[...document.querySelectorAll('#cards .tile')].map(t => t.dataset.id).join()")
    text = path.read_text(encoding="utf-8")
    started = time.perf_counter()
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    # a changed face's picture is fetched and decoded before it replaces the old one (the page's
    # swap), so a src naming the tile's new id is a picture shown; those in view must have loaded
    page.wait_for_function(f"() => Number(document.body.dataset.version) > {before} && "
                           f"[...document.querySelectorAll('#cards .tile')].map(t => t.dataset.id).join() !== {ids!r}"
                           " && [...document.querySelectorAll('#cards .tile')]"
                           ".every(t => (t.querySelector('img').getAttribute('src') || '').includes(t.dataset.id))"
                           " && [...document.querySelectorAll('#cards .tile img')].filter(i => {"
                           " const r = i.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; })"
                           ".every(i => i.complete && i.naturalWidth > 0)",
                           timeout=30_000, polling=10)
    return time.perf_counter() - started


def build_seconds(folder: Path, out: Path) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "deckpress", "build", str(folder), "--out", str(out)], check=True,
                   capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("decks", nargs="*", default=[deck for deck in EDITS if deck != "new"],
                        help="bundled decks (default: all five)")
    parser.add_argument("--repeat", type=int, default=5, help="edits per deck (default 5)")
    args = parser.parse_args()
    if CHROMIUM is None:
        sys.exit("needs Chromium (Debian: apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    from deckpress.model.deck import find_deck

    print(f"{'deck':<12} {'save → page shows it':>21} {'deckpress build':>16} {'faster':>7}")
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as scratch:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for deck in args.decks:
            folder = Path(scratch) / deck
            shutil.copytree(find_deck(deck).parent, folder)
            name, old, new = EDITS[deck]
            served = Served(folder, Path(scratch))
            try:
                page = browser.new_page(viewport={"width": 1400, "height": 900})
                page.goto(served.url)
                page.wait_for_function("() => Number(document.body.dataset.version) > 0")
                shown = []
                for n in range(args.repeat):
                    a, b = (old, new) if n % 2 == 0 else (new, old)
                    shown.append(shown_after_save(page, folder / name, a, b))
                page.close()
            finally:
                served.stop()
            built = [build_seconds(folder, Path(scratch) / "out") for _ in range(args.repeat)]
            live, build = statistics.median(shown), statistics.median(built)
            print(f"{deck:<12} {live:>19.2f} s {build:>14.2f} s {build / live:>6.1f}×", flush=True)
        browser.close()


if __name__ == "__main__":
    main()
