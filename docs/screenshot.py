"""The README's picture of `deckpress serve`: `python docs/screenshot.py` (needs Chromium).

Serves metronome, opens the page in headless Chromium at 1400 × 900 and saves
`images/serve.png`: the cards at 75 %, a card's detail not open, the status line as it is. With
`--all FOLDER` it also saves the views a reviewer looks at (detail, low-ink, sheets, an error,
a narrow window, and guides, front and back, search and detail at 1400 and 400 px) into FOLDER.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402  (the tests' browser, found the same way)
from tests.served import Served, copy_bundled, edit  # noqa: E402


def settle(page) -> None:
    page.wait_for_function("() => [...document.querySelectorAll('img')].filter(i => {"
                           " const r = i.getBoundingClientRect(); return r.width > 0 && r.bottom > 0 && r.top < innerHeight; })"
                           ".every(i => i.complete && i.naturalWidth > 0)")
    page.wait_for_timeout(1500)  # the "changed" outlines fade


def main() -> None:
    if CHROMIUM is None:
        sys.exit("needs Chromium (Debian: apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    more = Path(sys.argv[2]) if sys.argv[1:2] == ["--all"] else None
    with tempfile.TemporaryDirectory() as scratch, sync_playwright() as playwright:
        folder = copy_bundled("metronome", Path(scratch))
        served = Served(folder, Path(scratch))
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(served.url)
        page.evaluate("localStorage.clear()")
        page.goto(served.url)
        page.wait_for_function("() => Number(document.body.dataset.version) > 0")
        page.fill("#zoom", "75")
        page.dispatch_event("#zoom", "input")
        page.evaluate("document.activeElement.blur()")  # no focus ring on the slider in the picture
        settle(page)
        page.screenshot(path=str(HERE / "images" / "serve.png"))
        if more is not None:
            more.mkdir(parents=True, exist_ok=True)
            page.click("#cards .tile")
            page.locator("#detail").wait_for(state="visible")
            settle(page)
            page.screenshot(path=str(more / "detail.png"))
            page.keyboard.press("Escape")
            page.click('button[data-ink="lowink"]')
            settle(page)
            page.screenshot(path=str(more / "lowink.png"))
            page.click('button[data-tab="sheets"]')
            settle(page)
            page.screenshot(path=str(more / "sheets.png"))
            page.click('button[data-ink="color"]')
            page.click('button[data-tab="cards"]')
            edit(folder / "deck.yaml", "value: whole", "valeu: whole")
            page.locator("#banner").wait_for(state="visible")
            settle(page)
            page.screenshot(path=str(more / "error.png"))
            page.set_viewport_size({"width": 700, "height": 900})
            settle(page)
            page.screenshot(path=str(more / "narrow.png"))
            edit(folder / "deck.yaml", "valeu: whole", "value: whole")
            page.locator("#banner").wait_for(state="hidden")
            for width, name in ((1400, "wide"), (400, "narrow")):  # each feature of the page on, at both widths
                page.set_viewport_size({"width": width, "height": 900})
                page.check("#guides")
                settle(page)
                page.screenshot(path=str(more / f"guides-{name}.png"))
                page.uncheck("#guides")
                page.click('button[data-view="pairs"]')
                settle(page)
                page.screenshot(path=str(more / f"pairs-{name}.png"))
                page.click('button[data-view="faces"]')
                page.fill("#search", "half")
                settle(page)
                page.screenshot(path=str(more / f"search-{name}.png"))
                page.fill("#search", "")
                page.click("#cards .tile")
                page.locator("#detail").wait_for(state="visible")
                settle(page)
                page.screenshot(path=str(more / f"detail-{name}.png"))
                page.keyboard.press("Escape")
                page.check("#guides")  # the detail shows the guides too
                page.click("#cards .tile")
                page.locator("#detail").wait_for(state="visible")
                settle(page)
                page.screenshot(path=str(more / f"detail-guides-{name}.png"))
                page.keyboard.press("Escape")
                page.uncheck("#guides")
        browser.close()
        served.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
