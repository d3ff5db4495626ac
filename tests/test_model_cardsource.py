"""Card lists from a web address (a Google Sheet published as CSV, stood in for by a server on
127.0.0.1), kept in the deck folder and used from there offline; and card lists in JSON and YAML
files, whose errors name the file and line."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import deckpress
from deckpress import cli
from deckpress.errors import DeckError
from deckpress.model import load_deck
from deckpress.model.cardsource import CACHE_FOLDER, CardFetcher, web_address
from tests.pdfread import page_text
from tests.sheetserver import SheetServer

LAYOUT = """
    templates:
      fruit:
        fields: {title: ~, color: red, tags: []}
        elements:
          - rect: {x: -bleed, y: -bleed, w: 100% + 2*bleed, h: 100% + 2*bleed, fill: "{color} 20%"}
          - text: {text: "{title}", x: 5mm, y: 5mm, w: 100% - 10mm, h: 10mm, size: 12pt}
"""

DECK = """
    id: orchard
    title: Orchard
    designer: Test
    license: CC0-1.0
    layouts: [orchard]
    palette:
      red: {{color: "#cc2233", symbol: circle}}
      blue: {{color: "#2233cc", symbol: square}}
    components:
      - name: fruit
        front: fruit
        cards: {cards}
"""
CARDS_LINE = 13  # the line of `cards:` in DECK


PROXIES = ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")


@pytest.fixture(autouse=True)
def no_proxies(monkeypatch):
    """The server is on this machine: a proxy set for the machine running the tests would not reach it."""
    for name in PROXIES:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def sheet():
    server = SheetServer()
    yield server
    server.down()


def orchard(make_deck, cards: str, files: dict[str, bytes] | None = None) -> Path:
    return make_deck(DECK.format(cards=cards), {"orchard": LAYOUT}, files)


def titles(deck) -> list[str]:
    return [card.fields["title"] for card in deck.components[0].cards]


def short(timeout: float = 0.5, **limits: int) -> CardFetcher:
    """A fetcher with a timeout short enough for tests."""
    return CardFetcher(timeout=timeout, **limits)


# -- a published sheet --------------------------------------------------------------------------------

def test_a_published_sheet_is_fetched_kept_asked_again_and_used_offline(make_deck, sheet):
    folder = orchard(make_deck, sheet.url())
    deck = load_deck(folder)
    assert titles(deck) == ["Apple", "Plum"]
    assert [c.fields["color"] for c in deck.components[0].cards] == ["red", "blue"]
    (source,) = deck.card_sources
    assert source.url == sheet.url() and source.note is None
    assert source.copy.parent == folder / CACHE_FOLDER and source.copy.suffix == ".csv"
    assert source.copy.read_bytes() == sheet.sheet.body
    assert source.sha256 == hashlib.sha256(sheet.sheet.body).hexdigest()
    assert (source.file, source.line) == (str(folder / "deck.yaml"), CARDS_LINE)
    sidecar = json.loads(source.copy.with_suffix(".about.json").read_text(encoding="utf-8"))
    assert sidecar["etag"] == sheet.sheet.etag and sidecar["url"] == sheet.url()
    assert "If-None-Match" not in sheet.gets()[0]

    # asked again, with the copy's ETag: 304 keeps the copy
    again = load_deck(folder)
    assert titles(again) == ["Apple", "Plum"] and again.card_sources[0].note is None
    assert sheet.gets()[-1]["If-None-Match"] == sheet.sheet.etag
    assert again.card_sources[0].fetched == source.fetched  # not downloaded again

    # the designer edits the sheet: the next load has the new rows
    sheet.sheet.body = b"title,color\nApple,red\nPlum,blue\nQuince,red\n"
    assert titles(load_deck(folder)) == ["Apple", "Plum", "Quince"]

    # offline: the copy, with a note saying how old it is and why
    sheet.down()
    offline = load_deck(folder)
    assert titles(offline) == ["Apple", "Plum", "Quince"]
    note = offline.card_sources[0].note
    assert re.fullmatch(rf"using the copy of {re.escape(sheet.url())} fetched \d+ s ago \(.+\)", note), note


def test_offline_builds_warn_and_report_the_copy_they_used(make_deck, sheet, tmp_path):
    folder = orchard(make_deck, sheet.url())
    load_deck(folder)  # fetched once, while online
    sheet.down()
    checked = deckpress.check(folder)
    (warning,) = [w for w in checked.warnings if w.kind == "cached-cards"]
    assert (Path(warning.file).name, warning.line) == ("deck.yaml", CARDS_LINE)
    assert warning.message.startswith(f"using the copy of {sheet.url()} fetched ")

    report = tmp_path / "report.json"
    result = CliRunner().invoke(cli.main, ["build", str(folder), "--paper", "a4", "--ink", "color", "--out",
                                           str(tmp_path / "out"), "--report", str(report)])
    assert result.exit_code == 0, result.output
    assert f"using the copy of {sheet.url()}" in result.output
    text = page_text(tmp_path / "out" / "orchard" / "orchard-cards-a4.pdf", 0)
    assert "Apple" in text and "Plum" in text
    (deck,) = json.loads(report.read_text(encoding="utf-8"))["decks"]
    (listed,) = deck["card_lists"]
    copy = next((folder / CACHE_FOLDER).glob("*.csv"))
    assert listed["url"] == sheet.url() and listed["offline"] is True
    assert listed["sha256"] == hashlib.sha256(copy.read_bytes()).hexdigest()
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", listed["fetched"])

    # --refresh insists on the address: offline, that is one line and exit status 2
    result = CliRunner().invoke(cli.main, ["build", str(folder), "--paper", "a4", "--ink", "color", "--out",
                                           str(tmp_path / "out"), "--refresh"])
    assert result.exit_code == 2
    (line,) = result.output.strip().splitlines()
    assert f"deck.yaml:{CARDS_LINE}: cards: cannot fetch {sheet.url()} (" in line


def test_a_build_asks_each_address_once_and_refresh_asks_without_the_etag(make_deck, sheet, tmp_path):
    folder = orchard(make_deck, sheet.url())
    fetcher = CardFetcher()
    for _ in range(3):
        load_deck(folder, cards=fetcher)
    assert len(sheet.gets()) == 1
    result = CliRunner().invoke(cli.main, ["check", str(folder)])
    assert result.exit_code == 0, result.output
    assert len(sheet.gets()) == 2 and sheet.gets()[-1]["If-None-Match"] == sheet.sheet.etag
    result = CliRunner().invoke(cli.main, ["check", str(folder), "--refresh"])
    assert result.exit_code == 0, result.output
    assert len(sheet.gets()) == 3 and "If-None-Match" not in sheet.gets()[-1]


def test_the_age_said_offline_is_from_when_the_address_last_said_the_copy_is_current(make_deck, sheet, tmp_path):
    folder = orchard(make_deck, sheet.url())
    copy = load_deck(folder).card_sources[0].copy
    sidecar = copy.with_suffix(".about.json")
    meta = json.loads(sidecar.read_text(encoding="utf-8"))
    meta["fetched"] -= 3 * 3600  # downloaded three hours ago
    sidecar.write_text(json.dumps(meta), encoding="utf-8")
    sheet.sheet.failing = 503
    note = load_deck(folder).card_sources[0].note
    assert re.fullmatch(rf"using the copy of {re.escape(sheet.url())} fetched 3 h ago \(HTTP 503 .*\)", note), note

    sheet.sheet.failing = None  # the address says the copy is current (304): it is as new as that
    current = load_deck(folder).card_sources[0]
    assert current.note is None and current.fetched == meta["fetched"] and current.checked > current.fetched
    sheet.sheet.failing = 503
    offline = load_deck(folder).card_sources[0]
    assert re.fullmatch(r"using the copy of \S+ fetched \d+ s ago \(HTTP 503 .*\)", offline.note), offline.note
    listed = offline.to_json()
    assert listed["fetched"] < listed["checked"] and listed["offline"] is True


def test_a_sheet_without_etags_is_downloaded_again_and_its_changes_seen(make_deck, sheet):
    sheet.sheet.etags = False
    folder = orchard(make_deck, sheet.url())
    assert titles(load_deck(folder)) == ["Apple", "Plum"]
    sheet.sheet.body = b"title\nFig\n"
    assert titles(load_deck(folder)) == ["Fig"]
    assert len(list((folder / CACHE_FOLDER).iterdir())) == 2  # one copy and its sidecar


def test_a_redirect_is_followed_as_google_s_is(make_deck, sheet):
    deck = load_deck(orchard(make_deck, sheet.url("/moved")))
    assert titles(deck) == ["Apple", "Plum"]
    assert deck.card_sources[0].url == sheet.url("/moved")


@pytest.mark.parametrize("body, content_type, path, kind", [
    (b"title\tcolor\nApple\tred\n", "text/tab-separated-values", "/pub", ".tsv"),
    (b"title\tcolor\nApple\tred\n", "text/plain", "/pub?output=tsv", ".tsv"),
    (b"title\tcolor\nApple\tred\n", "application/octet-stream", "/pub", ".tsv"),  # told from its first line
    (b"title,color\nApple,red\n", "application/octet-stream", "/export?format=csv", ".csv"),
    (b'[{"title": "Apple", "color": "red"}]', "application/json", "/cards", ".json"),
    ("title,color\nÄpfel,red\n".encode("latin-1"), "text/csv; charset=iso-8859-1", "/pub", ".csv"),
])
def test_the_kind_of_list_is_told_by_the_address_the_content_type_or_the_text(make_deck, sheet, body,
                                                                                 content_type, path, kind):
    sheet.sheet.body, sheet.sheet.content_type = body, content_type
    deck = load_deck(orchard(make_deck, sheet.url(path)))
    assert titles(deck)[0] in ("Apple", "Äpfel")
    assert deck.card_sources[0].copy.suffix == kind


def test_a_mistake_in_a_fetched_row_names_the_address_and_row(make_deck, sheet):
    sheet.sheet.body = b"title,color\nApple,red\nPlum,blue,sweet\n"
    with pytest.raises(DeckError) as caught:
        load_deck(orchard(make_deck, sheet.url()))
    assert str(caught.value).startswith(f"{sheet.url()}:3")
    assert "column C" in str(caught.value)


@pytest.mark.parametrize("path, expected", [
    ("/page", "gives a web page, not CSV: in Google Sheets choose File → Share → Publish to web"),
    ("/to-file", "redirects to a file: address, which is not fetched: only http and https are"),
    ("/big", "gives 0.0 MB: too big for a card list (at most 0.0 MB)"),
    ("/stream", "gives more than 0.0 MB: too big for a card list"),
    ("/slow", "(no answer within 0.3 s), and there is no copy of it from an earlier build"),
    ("/loop", "(it redirects in a loop or more than 5 times)"),
    ("/drip", "(it took more than 0.9 s)"),
])
def test_what_cannot_be_a_card_list_is_one_line_at_the_cards_key(make_deck, sheet, path, expected):
    sheet.big, sheet.slow = 2_000, 1.5
    folder = orchard(make_deck, sheet.url(path))
    started = time.monotonic()
    with pytest.raises(DeckError) as caught:
        load_deck(folder, cards=short(0.3, max_bytes=2_000))
    message = str(caught.value)
    assert message.startswith(f"{folder / 'deck.yaml'}:{CARDS_LINE}: cards: ") and "\n" not in message
    assert expected in message, message
    assert time.monotonic() - started < 1.4  # the timeout is kept, not the server's pace


def test_content_that_cannot_be_a_card_list_is_refused_though_a_copy_is_kept(make_deck, sheet):
    folder = orchard(make_deck, sheet.url())
    load_deck(folder)
    sheet.sheet.body, sheet.sheet.content_type = b"<html><body>Sign in</body></html>", "text/html"
    with pytest.raises(DeckError, match="gives a web page, not CSV"):
        load_deck(folder)


def test_offline_without_a_copy_is_one_line(make_deck, sheet):
    url = sheet.url()
    sheet.down()
    with pytest.raises(DeckError) as caught:
        load_deck(orchard(make_deck, url))
    assert re.fullmatch(rf".*deck\.yaml:{CARDS_LINE}: cards: cannot fetch {re.escape(url)} \(.+\), and there is no "
                        "copy of it from an earlier build", str(caught.value)), str(caught.value)


@pytest.mark.parametrize("written", ["ftp://example.com/cards.csv", "file:///etc/passwd", "data:text/csv,title"])
def test_only_http_and_https_are_fetched(make_deck, written):
    with pytest.raises(DeckError) as caught:
        load_deck(orchard(make_deck, written))
    assert re.fullmatch(rf".*deck\.yaml:{CARDS_LINE}: cards: only http:// and https:// addresses are fetched, not "
                        r"\w+: \(a file in the deck folder is named by its path, like cards.csv\)", str(caught.value))


def test_a_sheet_is_for_workbooks_not_addresses(make_deck, sheet):
    with pytest.raises(DeckError, match=f"deck.yaml:{CARDS_LINE}: cards: an address gives one sheet"):
        load_deck(orchard(make_deck, f"{{file: '{sheet.url()}', sheet: Fruit}}"))


def test_a_link_out_of_the_deck_folder_is_no_place_for_the_cache(make_deck, sheet, tmp_path):
    folder = orchard(make_deck, sheet.url())
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (folder / ".deckpress").symlink_to(elsewhere)
    with pytest.raises(DeckError, match="cannot keep card lists in .deckpress/cache"):
        load_deck(folder)
    assert not any(elsewhere.iterdir())


def test_web_addresses_are_told_from_file_names():
    assert web_address("https://docs.google.com/spreadsheets/d/e/X/pub?output=csv")
    assert web_address("FILE:///etc/passwd") and web_address("ftp://host/x.csv") and web_address("data:text/csv,a")
    assert not web_address("cards.csv") and not web_address("C:/cards.csv") and not web_address("sub/cards.json")


def test_poll_says_when_the_list_changed(make_deck, sheet):
    folder = orchard(make_deck, sheet.url())
    fetcher = CardFetcher()
    load_deck(folder, cards=fetcher)
    ((url, kept),) = fetcher.addresses()
    assert fetcher.poll(url, kept) is False  # 304
    sheet.sheet.body = b"title\nFig\n"
    assert fetcher.poll(url, kept) is True
    assert titles(load_deck(folder, cards=fetcher)) == ["Fig"]  # from the copy the poll made
    sheet.down()
    assert fetcher.poll(url, kept) is False  # offline: nothing new
    assert titles(load_deck(folder, cards=fetcher)) == ["Fig"]


# -- JSON and YAML lists ------------------------------------------------------------------------------

JSON_CARDS = b"""[
  {"title": "Apple", "count": 2, "tags": ["round", "crisp"]},
  {"title": "Plum",
   "color": "blue",
   "tags": null}
]
"""


def test_a_json_list_of_objects_is_a_card_list(make_deck):
    deck = load_deck(orchard(make_deck, "cards.json", {"cards.json": JSON_CARDS}))
    apple, plum = deck.components[0].cards
    assert (apple.fields["title"], apple.count, apple.fields["tags"], apple.line) == ("Apple", 2, ["round", "crisp"], 2)
    assert (plum.fields["color"], plum.fields["tags"], plum.line) == ("blue", [], 3)  # null: the default
    assert Path(plum.file).name == "cards.json"


def test_a_json_list_builds(make_deck, tmp_path):
    folder = orchard(make_deck, "cards.json", {"cards.json": JSON_CARDS})
    deckpress.build(folder, tmp_path / "out", papers="a4", inks="color")
    text = page_text(tmp_path / "out" / "orchard" / "orchard-cards-a4.pdf", 0)
    assert text.count("Apple") == 2 and text.count("Plum") == 1


@pytest.mark.parametrize("text, expected", [
    (b'[\n {"title": "Apple"},\n {"title": "Plum", "colour": "blue"}\n]', "cards.json:3: unknown key 'colour' in card"),
    (b'[\n {"title": "Apple"},\n "Plum"\n]', "cards.json:3: a card must be a mapping of fields"),
    (b'[\n {"title": "Apple"},\n {"title": "Plum",}\n]', "cards.json:3: not readable as JSON: expected a field's "
                                                          "name in double quotes, found '}'"),
    (b'[\n {"title": "Apple"}\n {"title": "Plum"}\n]', "cards.json:3: not readable as JSON: expected ',' or ']' "
                                                         "after a card"),
    (b'[\n {"title": "Apple",\n  "count": tw}\n]', "cards.json:3: not readable as JSON: Expecting value"),
    (b'{"cards": []}', "cards.json:1: the file holds one object: a card list is a list of objects"),
    (b'[]', "cards.json:1: the card list is empty"),
    (b'[\n {"title": "A",\n  "title": "B"}]', "cards.json:3: the field 'title' appears twice in the card (line 2"),
    (b'[{"title": "A"}] x', "cards.json:1: not readable as JSON: more after the list's closing ']'"),
    (b'[{"title": ' + b'[' * 100 + b']' * 100 + b'}]', "cards.json:1: the value of 'title' is nested more than"),
    (b'[{"title": ' + b'[' * 100_000 + b']' * 100_000 + b'}]', "cards.json:1: not readable as JSON: nested too deeply"),
    (b'\xff[]', "cards.json:1: not UTF-8 text"),
])
def test_a_mistake_in_a_json_list_names_its_line(make_deck, text, expected):
    with pytest.raises(DeckError) as caught:
        load_deck(orchard(make_deck, "cards.json", {"cards.json": text}))
    message = str(caught.value)
    assert expected in message and "\n" not in message, message


def test_a_yaml_list_of_mappings_is_a_card_list(make_deck):
    cards = b"- {title: Apple, count: 2}\n- title: Plum\n  colr: blue\n"
    folder = orchard(make_deck, "cards.yaml", {"cards.yaml": cards})
    with pytest.raises(DeckError, match=r"cards\.yaml:3: unknown key 'colr' in card — did you mean 'color'\?"):
        load_deck(folder)
    (folder / "cards.yaml").write_bytes(cards.replace(b"colr", b"color"))
    apple, plum = load_deck(folder).components[0].cards
    assert (apple.count, plum.fields["color"], plum.line) == (2, "blue", 2)


def test_a_build_in_two_languages_in_worker_processes_asks_each_address_once(make_deck, sheet, tmp_path,
                                                                             monkeypatch):
    monkeypatch.delenv("DECKPRESS_WORKERS", raising=False)  # forked workers where the system has them
    folder = orchard(make_deck, sheet.url(), {"translations/de.yaml": "- en: Apple\n  de: Apfel\n- en: Plum\n  "
                                                                        "de: Pflaume\n".encode()})
    second = tmp_path / "second"  # another deck, built at the same time, keeps its own copy
    shutil.copytree(folder, second)
    (second / "deck.yaml").write_text((folder / "deck.yaml").read_text(encoding="utf-8").replace("id: orchard",
                                                                                                 "id: second"))
    results = deckpress.build([folder, second], tmp_path / "out", papers="a4", inks="color")
    assert sorted((r.deck.id, r.deck.lang) for r in results) == [("orchard", "de"), ("orchard", "en"),
                                                                 ("second", "de"), ("second", "en")]
    assert len(sheet.gets()) == 2  # once a deck, for both its languages
    assert "Pflaume" in page_text(tmp_path / "out" / "second" / "second-de-cards-a4.pdf", 0)
