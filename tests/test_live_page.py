"""The `deckpress serve` page in a real browser (headless Chromium, driven by Playwright): it shows
a deck's faces, follows saved edits without reloading, shows a mistake over the last good cards,
and switches ink, component, tab and card. Skipped, saying why, where there is no Chromium."""

from __future__ import annotations

import time

import pytest

import deckpress

from .served import (EDITS, GALLERY_DECK, GALLERY_LAYOUT, WORDY_DECK, WORDY_LAYOUT, Served, copy_bundled, edit,
                     gallery_files, pdf_picture_colours, solid_png)

BUNDLED = ["metronome", "steps", "test-piece", "kanon", "circle-of-5"]
UPDATE = 10_000  # ms a saved change may take to show here at worst; it takes well under a second


@pytest.fixture
def page(browser, serving):
    """A page 1400 × 900, whose script errors fail the test. (Closed before the servers stop,
    which the page would rightly complain of.)"""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda exc: errors.append(str(exc)))
    opened.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    yield opened
    context.close()
    assert errors == []


@pytest.fixture
def serving(tmp_path):
    """serving(ref) starts `deckpress serve ref`; every one started is stopped, and must stop cleanly."""
    started: list[Served] = []

    def start(ref) -> Served:
        started.append(Served(ref, tmp_path))
        return started[-1]

    yield start
    for served in started:
        status, _, err = served.stop()
        assert (status, err) == (0, "")


def shown(page, served: Served) -> dict:
    """Open the page and wait until it shows the server's state, every picture loaded."""
    state = served.state()
    page.goto(served.url)
    page.wait_for_function(f"() => Number(document.body.dataset.version) >= {state['version']}")
    pictures_loaded(page)
    return state


def pictures_loaded(page, selector: str = "#cards .tile:not([hidden]) img") -> None:
    """Wait until every picture in view has loaded (those further down load as they come into
    view: the page asks the browser to load them lazily)."""
    page.wait_for_function(f"() => [...document.querySelectorAll({selector!r})]"
                           ".filter(i => {{ const r = i.getBoundingClientRect();"
                           " return r.width > 0 && r.bottom > 0 && r.top < innerHeight; }})"
                           ".every(i => i.complete && i.naturalWidth > 0)", timeout=UPDATE)


def tile_ids(page) -> dict[str, str]:
    return page.evaluate("Object.fromEntries([...document.querySelectorAll('#cards .tile')]"
                         ".map(t => [t.dataset.key, t.dataset.id]))")


@pytest.mark.parametrize("deck", [*BUNDLED, "new"])
def test_the_page_shows_every_face_of_a_deck_at_true_relative_size(page, serving, tmp_path, deck):
    if deck == "new":
        deck = tmp_path / "mygame"
        deckpress.new_deck(deck)
    served = serving(deck)
    state = shown(page, served)
    assert page.locator("#title").inner_text() == state["deck"]["title"]
    assert list(tile_ids(page).items()) == [(face["key"], face["id"]) for face in state["faces"]]
    widths = page.evaluate("[...document.querySelectorAll('#cards .tile img')].map(i => i.getBoundingClientRect().width)")
    per_mm = [w / face["width"] for w, face in zip(widths, state["faces"])]
    assert max(per_mm) / min(per_mm) < 1.01, per_mm  # a board is as much bigger than a card as on the table
    for face in state["faces"][:3]:  # each tile says how many are printed and where the card is written
        tile = page.locator(f'#cards .tile[data-key="{face["key"]}"]')
        text = tile.inner_text()
        assert f"×{face['copies']}" in text
        assert face["cards"][0]["source"].rsplit("/", 1)[-1] in text


@pytest.mark.parametrize("deck", [*BUNDLED, "new"])
def test_an_edit_shows_without_a_reload_and_keeps_the_scroll(page, serving, tmp_path, deck):
    """For every bundled deck and a new one: one card changed in its file, that card's face alone
    is drawn again and replaced on the page, which neither reloads nor moves."""
    if deck == "new":
        folder = tmp_path / "mygame"
        deckpress.new_deck(folder)
    else:
        folder = copy_bundled(deck, tmp_path)
    name, old, new = EDITS[deck]
    line = next(n for n, text in enumerate((folder / name).read_text(encoding="utf-8").splitlines(), 1) if old in text)
    served = serving(folder)
    shown(page, served)
    page.evaluate("window.scrollTo(0, 300); window.notReloaded = true")
    scrolled = page.evaluate("window.scrollY")  # 300, or as far as a short page goes
    before = tile_ids(page)
    started = time.monotonic()
    edit(folder / name, old, new)
    page.wait_for_function(f"() => [...document.querySelectorAll('#cards .tile')].map(t => t.dataset.id).join() !== "
                           f"{','.join(before.values())!r}", timeout=UPDATE)
    after = tile_ids(page)
    changed = [key for key in after if after[key] != before[key]]
    assert len(changed) == 1, changed
    state = served.state()
    face = next(f for f in state["faces"] if f["key"] == changed[0])
    assert {c["source"].rsplit("/", 1)[-1] for c in face["cards"]} == {f"{name}:{line}"}
    assert state["stats"]["faces_drawn"] == 1
    page.wait_for_function(f"() => document.querySelector('#cards .tile[data-key=\"{changed[0]}\"] img').src"
                           f".includes('/face/{after[changed[0]]}.png')", timeout=UPDATE)
    seconds = time.monotonic() - started
    assert page.evaluate("window.notReloaded") is True
    assert page.evaluate("window.scrollY") == scrolled
    print(f"{deck}: saved → shown in {seconds:.2f} s")


def test_a_broken_file_shows_its_line_keeps_the_cards_and_the_fix_clears_it(page, serving, tmp_path):
    folder = copy_bundled("kanon", tmp_path)
    served = serving(folder)
    state = shown(page, served)
    banner = page.locator("#banner")
    assert banner.is_hidden()
    edit(folder / "deck.yaml", "title:", "titel:")
    line = next(n for n, text in enumerate((folder / "deck.yaml").read_text().splitlines(), 1) if "titel:" in text)
    banner.wait_for(state="visible", timeout=UPDATE)
    message = served.state()["error"]
    assert f"deck.yaml:{line}: " in message
    assert banner.inner_text().strip().endswith(message)
    assert list(tile_ids(page).values()) == [face["id"] for face in state["faces"]]  # the last good cards stay
    pictures_loaded(page)
    edit(folder / "deck.yaml", "titel:", "title:")
    banner.wait_for(state="hidden", timeout=UPDATE)
    assert served.state()["error"] is None


def test_low_ink_switches_every_face_to_its_grey_picture(page, serving):
    served = serving("circle-of-5")
    state = shown(page, served)
    page.click('button[data-ink="lowink"]')
    page.wait_for_function("() => [...document.querySelectorAll('#cards .tile img')].every(i => i.src.endsWith('-lowink.png'))")
    pictures_loaded(page)
    picture = page.locator("#cards .tile img").first.screenshot()
    from io import BytesIO

    from PIL import Image as PILImage
    pixels = PILImage.open(BytesIO(picture)).convert("RGB").get_flattened_data()
    assert max(max(p) - min(p) for p in pixels) <= 8  # grey: black ink only
    page.click('button[data-ink="color"]')
    first = state["faces"][0]["src"]["color"]
    page.wait_for_function(f"() => document.querySelector('#cards .tile img').src.endsWith({first!r})")


def test_a_click_shows_the_card_large_with_its_fields(page, serving):
    served = serving("metronome")
    state = shown(page, served)
    face = state["faces"][0]
    page.click(f'#cards .tile[data-key="{face["key"]}"]')
    detail = page.locator("#detail")
    detail.wait_for(state="visible")
    assert detail.locator("table.fields tr th").all_inner_texts() == face["cards"][0]["order"]
    large = detail.locator("img").first.bounding_box()
    small = page.locator(f'#cards .tile[data-key="{face["key"]}"] img').bounding_box()
    assert large["width"] > 1.5 * small["width"]
    page.keyboard.press("Escape")
    detail.wait_for(state="hidden")


def test_the_filter_shows_one_components_faces(page, serving):
    served = serving("metronome")
    state = shown(page, served)
    page.select_option("#filter", "rests")
    visible = page.evaluate("[...document.querySelectorAll('#cards .tile:not([hidden])')].map(t => t.dataset.key)")
    assert visible == [face["key"] for face in state["faces"] if "rests" in face["components"]]
    page.select_option("#filter", "")
    assert page.locator("#cards .tile:not([hidden])").count() == len(state["faces"])


def test_the_sheets_tab_shows_the_print_pages_of_each_paper(page, serving):
    served = serving("test-piece")
    state = shown(page, served)
    page.click('button[data-tab="sheets"]')
    page.locator("section#sheets").wait_for(state="visible")
    assert page.locator("section#cards").is_hidden()
    for paper in ("a4", "letter"):
        page.select_option("#paper", paper)
        expected = [p["src"] for s in state["sheets"] if (s["paper"], s["ink"]) == (paper, "color") for p in s["pages"]]
        page.wait_for_function(f"() => document.querySelectorAll('section#sheets img.page').length === {len(expected)}")
        sources = page.evaluate("[...document.querySelectorAll('section#sheets img.page')].map(i => new URL(i.src).pathname)")
        assert sorted(sources) == sorted(expected)
        pictures_loaded(page, "section#sheets img.page")


def test_the_print_files_and_the_report_are_offered_for_download(page, serving):
    served = serving("kanon")
    state = shown(page, served)
    links = page.evaluate("[...document.querySelectorAll('#downloads a[download]')].map(a => new URL(a.href).pathname)")
    assert sorted(links) == sorted(d["url"] for d in state["downloads"])
    assert any(link.endswith("-report.json") for link in links)
    with page.expect_download() as download:
        page.evaluate("document.querySelector('#downloads a[download]').click()")
    assert download.value.suggested_filename == state["downloads"][0]["name"]


def test_warnings_are_listed_and_mark_their_cards(page, serving, make_deck):
    folder = make_deck(WORDY_DECK, {"plain": WORDY_LAYOUT})
    served = serving(folder)
    state = shown(page, served)
    assert [t.strip() for t in page.locator("#warnings li.warning").all_text_contents()] == [w["text"] for w in state["warnings"]]
    marked = page.evaluate("[...document.querySelectorAll('#cards .tile.has-warning')].map(t => t.dataset.key)")
    assert marked == ["front:things:2"]


def test_a_cards_words_are_shown_as_words_never_run_as_markup(page, serving, make_deck):
    """Deck files come from strangers: a field that looks like HTML is text on the page."""
    attack = '<img src=x onerror="window.pwned=1">'
    folder = make_deck(f"""
        id: sly
        title: '{attack}'
        designer: Test
        license: CC0-1.0
        layouts: [plain]
        components:
          - name: things
            front: front
            cards:
              - {{title: '{attack}'}}
    """, {"plain": """
        templates:
          front:
            fields: {title: ~}
            elements:
              - text: {text: "x", x: 5mm, y: 5mm, w: 40mm, h: 10mm, size: 12pt}
    """})
    served = serving(folder)
    shown(page, served)
    assert page.locator("#title").inner_text() == attack
    page.click("#cards .tile")
    page.locator("#detail").wait_for(state="visible")
    assert attack in page.locator("#detail").inner_text()
    assert page.evaluate("window.pwned") is None
    assert page.locator("img[src='x']").count() == 0


def test_urls_outside_the_page_are_refused(page, serving):
    served = serving("kanon")
    for path in ("files/..%2f..%2fdeck.yaml", "assets/..%2f__init__.py", "decks/kanon/deck.yaml", "files/",
                 "face/..%2f..%2fdeck.yaml"):
        response = page.request.get(served.url + path)  # as the page's own script would ask
        assert response.status == 404, path


def test_the_page_asks_nothing_of_the_internet(page, serving):
    """Everything the page needs ships in the package: no font, script or style from a CDN."""
    served = serving("metronome")
    asked: list[str] = []

    def route(request_route) -> None:
        url = request_route.request.url
        asked.append(url)
        if url.startswith(served.url):
            request_route.continue_()
        else:
            request_route.abort()

    page.route("**/*", route)
    shown(page, served)
    page.click('button[data-tab="sheets"]')
    page.click('button[data-ink="lowink"]')
    page.click('button[data-tab="cards"]')
    pictures_loaded(page)
    assert asked and all(url.startswith(served.url) for url in asked), [u for u in asked if not u.startswith(served.url)]


#: the colour at the middle of a tile's picture's top half (where the gallery deck's art is), as
#: the page shows it: the picture drawn on a canvas and read back, "r,g,b"; null until it is loaded
TILE_COLOUR = """(key) => {
  const img = document.querySelector(`#cards .tile[data-key="${key}"] img`);
  if (!img || !img.complete || !img.naturalWidth) return null;
  const canvas = document.createElement('canvas');
  canvas.width = img.naturalWidth;
  canvas.height = img.naturalHeight;
  const context = canvas.getContext('2d');
  context.drawImage(img, 0, 0);
  return [...context.getImageData(canvas.width >> 1, canvas.height >> 2, 1, 1).data].slice(0, 3).join();
}"""


def tile_colour(page, key: str) -> tuple[int, ...]:
    page.wait_for_function(f"(key) => ({TILE_COLOUR})(key) !== null", arg=key, timeout=UPDATE)
    return tuple(int(v) for v in page.evaluate(TILE_COLOUR, key).split(","))


def shows_colour(page, key: str, rgb: tuple[int, int, int]) -> None:
    """Waits until the tile shows `rgb` (within 3 per channel); times out, failing, if it never does."""
    page.wait_for_function(f"([key, rgb]) => {{ const c = ({TILE_COLOUR})(key); return c !== null && "
                           "c.split(',').every((v, i) => Math.abs(v - rgb[i]) <= 3); }",
                           arg=[key, list(rgb)], timeout=UPDATE)


def test_a_picture_saved_under_its_name_shows_at_once_and_the_downloads_agree(page, serving, make_deck):
    """The issue's case: art/stall.png saved again under its name, with other pixels. The tiles
    that show it change on the page without a reload (and after one), the others keep their
    pictures, and the print file offered for download shows the new picture too."""
    folder = make_deck(GALLERY_DECK, {"gallery": GALLERY_LAYOUT}, gallery_files())
    served = serving(folder)
    shown(page, served)
    before = tile_ids(page)
    assert max(abs(a - b) for a, b in zip(tile_colour(page, "front:pictures:1"), (200, 40, 30))) <= 3
    page.evaluate("window.notReloaded = true")
    started = time.monotonic()
    (folder / "art" / "stall.png").write_bytes(solid_png((30, 150, 60)))
    shows_colour(page, "front:pictures:1", (30, 150, 60))
    seconds = time.monotonic() - started
    print(f"picture saved → shown in {seconds:.2f} s")
    assert page.evaluate("window.notReloaded") is True
    after = tile_ids(page)
    assert {key for key in after if after[key] != before[key]} == {"front:pictures:1", "front:pictures:2"}
    # the second tile may swap its picture a moment after the first: wait for it, then compare
    shows_colour(page, "front:pictures:2", (30, 150, 60))
    assert max(abs(a - b) for a, b in zip(tile_colour(page, "front:pictures:4"), (240, 200, 20))) <= 3
    # the Downloads agree, once the print files of this rebuild are written
    page.wait_for_function("() => document.querySelector('#status').dataset.mode === 'ok'", timeout=UPDATE)
    state = served.state()
    name = next(s["name"] for s in state["sheets"] if (s["kind"], s["paper"], s["ink"]) == ("cards", "a4", "color"))
    pdf = page.request.get(served.url + f"files/{name}").body()
    colours = pdf_picture_colours(pdf)
    assert (30, 150, 60) in colours and (200, 40, 30) not in colours
    page.reload()  # and a reload shows the new picture, not one the browser kept
    page.wait_for_function(f"() => Number(document.body.dataset.version) >= {state['version']}")
    assert max(abs(a - b) for a, b in zip(tile_colour(page, "front:pictures:1"), (30, 150, 60))) <= 3


# -- a page to work in: guides, fronts beside backs, search, the card's sources -------------------

MM = 96 / 25.4  # CSS pixels a millimetre at 100 %


def test_guides_show_each_face_with_its_bleed_the_trim_line_and_the_safe_area(page, serving):
    served = serving("metronome")
    state = shown(page, served)
    face = state["faces"][0]
    tile = page.locator(f'#cards .tile[data-key="{face["key"]}"]')
    trimmed = tile.locator(".face").bounding_box()
    assert tile.locator(".guide.trim").is_hidden()
    page.check("#guides")
    page.wait_for_function("() => [...document.querySelectorAll('#cards .tile img')].slice(0, 4)"
                           ".every(i => i.src.endsWith('-bleed.png') && i.complete && i.naturalWidth > 0)",
                           timeout=UPDATE)
    width, height, bleed, safe = face["width"], face["height"], face["bleed"], face["safe"]
    assert (bleed, safe) == (3.0, 3.175)  # metronome's bleed; the print services' safe zone
    frame = tile.locator(".face").bounding_box()
    assert abs(frame["width"] - (width + 2 * bleed) * MM) < 1.5
    assert abs(frame["height"] - (height + 2 * bleed) * MM) < 1.5
    assert frame["width"] > trimmed["width"] + 20
    trim = tile.locator(".guide.trim").bounding_box()
    assert abs(trim["x"] - frame["x"] - bleed * MM) < 1 and abs(trim["width"] - width * MM) < 1.5
    safe_box = tile.locator(".guide.safe").bounding_box()
    assert abs(safe_box["x"] - trim["x"] - safe * MM) < 1 and abs(safe_box["height"] - (height - 2 * safe) * MM) < 1.5
    natural = tile.locator("img").evaluate("i => [i.naturalWidth, i.naturalHeight]")
    assert abs(natural[0] / natural[1] - (width + 2 * bleed) / (height + 2 * bleed)) < 0.01  # the bleed is drawn
    assert page.locator(".guides-key").is_visible()
    tile.click()  # the detail shows them too, at its scale
    detail = page.locator("#detail .detail-frame")
    detail.wait_for(state="visible")
    big, big_trim = detail.bounding_box(), detail.locator(".guide.trim").bounding_box()
    assert abs(big_trim["width"] / big["width"] - width / (width + 2 * bleed)) < 0.01
    assert detail.locator("img").get_attribute("src") == face["bleed_src"]["color"]
    page.keyboard.press("Escape")
    page.click('button[data-ink="lowink"]')
    assert tile.locator("img").get_attribute("src") == face["bleed_src"]["lowink"]
    page.uncheck("#guides")
    assert tile.locator("img").get_attribute("src") == face["src"]["lowink"]
    page.reload()  # the choice is kept
    page.wait_for_function(f"() => Number(document.body.dataset.version) >= {state['version']}")
    assert not page.is_checked("#guides")


def test_front_and_back_pairs_each_cards_front_with_its_back_in_order(page, serving):
    served = serving("test-piece")
    state = shown(page, served)
    page.click('button[data-view="pairs"]')
    assert page.locator("#cards .grid").is_hidden() and page.locator("#cards .pairs").is_visible()
    pairs = page.evaluate("[...document.querySelectorAll('#cards .pair')].map(p => "
                          "[...p.querySelectorAll('.tile')].map(t => t.dataset.key))")
    fronts = [face for face in state["faces"] if face["side"] == "front"]
    assert pairs == [[face["key"], *([face["back"]] if face["back"] else [])] for face in fronts]
    assert page.locator("#cards .pair .no-back").count() == sum(not face["back"] for face in fronts)  # the rules
    backs = {face["key"]: face for face in state["faces"] if face["side"] == "back"}
    for face in (face for face in fronts if face["back"]):  # the back beside a front is its own card's back
        card = face["cards"][0]
        assert any((c["component"], c["number"]) == (card["component"], card["number"])
                   for c in backs[face["back"]]["cards"])
    first = page.locator("#cards .pair").first
    front, back = first.locator(".tile .face").nth(0).bounding_box(), first.locator(".tile .face").nth(1).bounding_box()
    assert abs(front["y"] - back["y"]) < 1 and back["x"] > front["x"] + front["width"]  # side by side
    pictures_loaded(page, "#cards .pair img")
    first.locator(".tile").nth(1).click()  # a back opens as a back
    page.locator("#detail").wait_for(state="visible")
    assert page.locator("#detail").get_attribute("data-key") == fronts[0]["back"]
    page.keyboard.press("Escape")
    page.fill("#search", "cornet")  # search and the filter hold in this view too
    shown_pairs = page.evaluate("[...document.querySelectorAll('#cards .pair:not([hidden])')].map(p => p.dataset.key)")
    assert shown_pairs == [f["key"] for f in fronts
                           if any("cornet" in str([c["name"], *c["fields"].values()]).lower() for c in f["cards"])]
    assert 0 < len(shown_pairs) < len(fronts)
    assert page.locator("#search-count").inner_text() == f"{len(shown_pairs)} of {len(fronts)} cards"


def test_search_shows_the_faces_whose_fields_hold_the_words_and_says_how_many(page, serving):
    served = serving("metronome")
    state = shown(page, served)

    def visible() -> list[str]:
        return page.evaluate("[...document.querySelectorAll('#cards .grid .tile:not([hidden])')]"
                             ".map(t => t.dataset.key)")

    def holding(words: str) -> list[str]:
        return [face["key"] for face in state["faces"]
                if any(words in str(value).lower() for card in face["cards"] for value in
                       [*(", ".join(map(str, v)) if isinstance(v, list) else v for v in card["fields"].values()),
                        card["name"]])]

    page.keyboard.press("/")  # the search's key
    assert page.evaluate("document.activeElement.id") == "search"
    page.fill("#search", "QUARTER")  # any case
    assert visible() == holding("quarter") and 0 < len(visible()) < len(state["faces"])
    assert page.locator("#search-count").inner_text() == f"{len(visible())} of {len(state['faces'])} faces"
    page.fill("#search", "gold")  # a field's value that is a list
    assert visible() == holding("gold")
    page.select_option("#filter", "rests")  # with the component filter: both hold
    assert visible() == [key for key in holding("gold") if "rests" in
                         next(f for f in state["faces"] if f["key"] == key)["components"]]
    page.select_option("#filter", "")
    page.fill("#search", "no card says this")
    assert visible() == [] and page.locator("#cards .no-match").is_visible()
    page.fill("#search", "")
    assert len(visible()) == len(state["faces"]) and page.locator("#search-count").inner_text() == ""


def fake_editor(folder) -> tuple[str, object]:
    """A fake `code` for $VISUAL: it writes its arguments, one a line, to a file."""
    import stat
    import sys

    (folder / "bin").mkdir()
    said = folder / "argv.txt"
    script = folder / "bin" / "code"
    script.write_text(f"#!{sys.executable}\nimport sys\nopen({str(said)!r}, 'w').write('\\n'.join(sys.argv[1:]))\n",
                      encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script), said


def test_the_dialog_lists_fields_in_the_sheets_order_marks_defaults_and_opens_their_lines(page, serving, tmp_path,
                                                                                           monkeypatch):
    """test-piece's cards are a CSV: name, art, voices, count; the rest are the layout's defaults.
    Each `file:line` opens in $VISUAL (a fake editor that writes what it was given)."""
    script, said = fake_editor(tmp_path)
    monkeypatch.setenv("VISUAL", script)
    folder = copy_bundled("test-piece", tmp_path)
    served = serving(folder)
    state = shown(page, served)
    face = next(f for f in state["faces"] if f["side"] == "front")
    card = face["cards"][0]
    page.click(f'#cards .tile[data-key="{face["key"]}"]')
    detail = page.locator("#detail")
    detail.wait_for(state="visible")
    header = (folder / "instruments.csv").read_text(encoding="utf-8").splitlines()[0].split(",")
    detail = detail.locator("section.card").first  # the face's first card
    rows = detail.locator("table.fields tr th").all_inner_texts()
    assert rows[:3] == [name for name in header if name != "count"]  # the sheet's columns, in its order
    assert set(rows[3:]) == set(card["defaults"])  # then the defaults, each marked with where it is written
    marked = detail.locator("table.fields tr.is-default th").all_inner_texts()
    assert marked == rows[3:]
    first_default = detail.locator("table.fields tr.is-default .default").first.inner_text()
    assert first_default.startswith("default · ") and "test-piece.yaml:" in first_default
    links = detail.locator(".card-meta .open-source")
    assert links.nth(0).inner_text() == "test-piece/instruments.csv:2"
    links.nth(0).click()
    deadline = time.monotonic() + 10
    while not (said.exists() and said.read_text()):
        assert time.monotonic() < deadline, "the editor was not started"
        time.sleep(0.05)
    assert said.read_text().split("\n") == ["-g", f"{(folder / 'instruments.csv').resolve()}:2"]
    assert page.locator("#detail .open-note").inner_text() == "opened instruments.csv:2 in code"
    said.unlink()
    links.nth(1).click()  # the front's template, at its line in the layout file
    while not (said.exists() and said.read_text()):
        assert time.monotonic() < deadline, "the editor was not started"
        time.sleep(0.05)
    assert said.read_text().split("\n") == ["-g", f"{card['template']['file']}:{card['template']['line']}"]


def test_without_an_editor_the_dialog_links_to_vscode(page, serving, monkeypatch):
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.delenv("EDITOR", raising=False)
    served = serving("metronome")
    state = shown(page, served)
    face = state["faces"][0]
    page.click(f'#cards .tile[data-key="{face["key"]}"]')
    link = page.locator("#detail .card-meta a.open-source").first
    at = face["cards"][0]["at"]
    assert link.get_attribute("href") == f"vscode://file{at['file']}:{at['line']}"
