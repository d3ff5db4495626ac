"""Card lists that are not a spreadsheet in the deck folder: a list of objects in a `.json` file or
of mappings in a `.yaml` file, and a CSV or TSV at a web address (a Google Sheet published to the
web as CSV, or any host), fetched and kept in the deck folder.

A web address is fetched over http or https alone (no `file:`, `ftp:` or `data:`, and no redirect
to one), within a timeout, a size bound (the spreadsheets' `MAX_FILE_BYTES`) and a few redirects.
The copy is kept in `<deck folder>/.deckpress/cache/`, named by a digest of the address, with a
small JSON sidecar beside it (`<digest>.about.json`: the address, its ETag and Last-Modified, when
it was fetched and when last answered 304, the copy's SHA-256), both written atomically. A build
asks for each address once (`CardFetcher` remembers what it fetched), conditionally when it has a
copy: 304 Not Modified keeps the copy. When the address cannot be reached the copy is used, and
the deck records why (`RemoteList.note`: "using the copy of … fetched 3 h ago (…)", its age from
when it was last known current), which the build warns of;
without a copy that is one line naming the deck file, line and address. `refresh` fetches
without asking whether it changed and uses no copy when that fails. The copy's digest and time
go into the build's report, so a build made from it can be made again.

`deckpress serve` asks every few seconds (`CardFetcher.poll`, from `live/watch`) and rebuilds
when the list changed.

Errors name the file as the designer wrote it: a JSON list's line, a web list's address and row.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urljoin, urlsplit

from ..atomic import replacing, write_text
from ..errors import DeckError, display_path, printable
from ..errors import shown as quoted
from ..paths import PathError, confined, real
from ..yamlfile import MAX_DEPTH, MAX_TEXT, Map, Seq, load_yaml
from .cardtable import MAX_CARDS, MAX_FILE_BYTES, TABLE_TYPES, read_card_table

LIST_TYPES = (".json", ".yaml", ".yml")  # lists of cards written by a script, Airtable or by hand
CARD_LIST_TYPES = TABLE_TYPES + LIST_TYPES  # every kind of file `cards:` may name
WEB_TYPES = (".csv", ".tsv", ".json")  # what a web address may give
SCHEMES = ("http", "https")
CACHE_FOLDER = ".deckpress/cache"  # in the deck folder (`deckpress new` writes .deckpress/ too)
TIMEOUT = 10.0  #: seconds to connect, and between two parts of the answer
WHOLE_TIMEOUT = 3  #: … and the whole download may take this many times the timeout
MAX_REDIRECTS = 5  #: Google's published CSV redirects once, to googleusercontent.com
USER_AGENT = "deckpress (card list)"
_ADDRESS = re.compile(r"([A-Za-z][A-Za-z0-9+.-]+):")  # two letters or more: `C:` is a drive, not a scheme
_OTHER_SCHEMES = ("file", "ftp", "ftps", "sftp", "data", "mailto", "javascript", "about", "blob", "ws", "wss")
_HTML = (b"<!doctype html", b"<html", b"<head", b"<?xml")


def web_address(written: str) -> bool:
    """Whether `cards:` names a web address (`https://…`), or tries to with another scheme (`file:`),
    rather than a file in the deck folder."""
    found = _ADDRESS.match(written.strip())
    return found is not None and (written.strip()[found.end():].startswith("//")
                                  or found.group(1).lower() in (*SCHEMES, *_OTHER_SCHEMES))


@dataclass(frozen=True)
class RemoteList:
    """A card list fetched from a web address: its copy in the deck folder and what it is."""

    url: str
    copy: Path  # the kept copy, `.deckpress/cache/<digest>.csv` (or .tsv, .json)
    sha256: str  # of the copy's bytes, as the report records it
    fetched: float  # when the copy was downloaded, seconds since the epoch
    etag: str | None = None
    modified: str | None = None  # the Last-Modified the server gave
    note: str | None = None  # why the copy was used without the address saying it is current: a warning
    checked: float | None = None  # when the address last said the copy is current (304), if since `fetched`
    file: str | None = None  # the deck file and line that name it (set per deck)
    line: int | None = None

    def to_json(self) -> dict[str, Any]:
        """url, sha256, fetched and checked (ISO 8601, UTC: downloaded, and last known current), the
        copy's path as shown, and whether it was used offline."""
        return {"url": self.url, "sha256": self.sha256, "fetched": _utc(self.fetched), "checked": _utc(self.current),
                "copy": display_path(self.copy), "offline": self.note is not None}

    @property
    def current(self) -> float:
        """When the copy was last known to be what the address gives: downloaded, or answered 304."""
        return self.fetched if self.checked is None else max(self.fetched, self.checked)


class _Unreachable(Exception):
    """The address could not be fetched now (offline, a timeout, an HTTP error): a copy may stand in."""


class CardFetcher:
    """Card lists at web addresses, each fetched at most once by one fetcher: one a build, a check
    or a live preview (whose `poll` asks again). Safe to share between threads."""

    def __init__(self, refresh: bool = False, timeout: float = TIMEOUT, max_bytes: int = int(MAX_FILE_BYTES),
                 redirects: int = MAX_REDIRECTS) -> None:
        self.refresh, self.timeout, self.max_bytes, self.redirects = refresh, timeout, max_bytes, redirects
        self._lists: dict[tuple[str, Path], RemoteList] = {}
        self._asked: dict[tuple[str, Path], None] = {}  # every address asked for, fetched or not, in order
        self._lock = threading.RLock()

    def get(self, url: str, folder: Path) -> RemoteList:
        """The list at `url` for the deck in `folder`: fetched the first time it is asked for."""
        key = (url, folder)
        with self._lock:
            self._asked[key] = None
            if key not in self._lists:
                self._lists[key] = _fetch(url, folder, self, unconditional=self.refresh, fallback=not self.refresh)
            return self._lists[key]

    def addresses(self) -> list[tuple[str, Path]]:
        """Every address asked for, and the folder it is kept in."""
        with self._lock:
            return list(self._asked)

    def poll(self, url: str, folder: Path) -> bool:
        """Ask `url` again now (conditionally): True when what it gives changed, which the next
        `get` returns. A failure to fetch keeps what there was and says False."""
        try:
            fresh = _fetch(url, folder, self, unconditional=False, fallback=False)
        except DeckError:
            return False
        with self._lock:
            old = self._lists.get((url, folder))
            self._lists[url, folder] = fresh
        return old is None or old.sha256 != fresh.sha256 or old.note is not None


_SHARED: ContextVar[CardFetcher | None] = ContextVar("deckpress_card_fetcher", default=None)


@contextmanager
def fetching(fetcher: CardFetcher) -> Iterator[CardFetcher]:
    """Within the block, decks loaded without a fetcher of their own share `fetcher`: a build, its
    worker processes forked within it included, asks each address once (once a worker)."""
    token = _SHARED.set(fetcher)
    try:
        yield fetcher
    finally:
        _SHARED.reset(token)


def shared_fetcher() -> CardFetcher:
    """The fetcher of the `fetching` block this runs in, else a new one."""
    return _SHARED.get() or CardFetcher()


def remote_cards(url: str, folder: Path, fetcher: CardFetcher, file: str,
                 line: int | None) -> tuple[Seq, RemoteList]:
    """The cards at a web address, for `cards:` written at `file`:`line` of a deck kept in
    `folder`: its rows (each naming the address and row) and the copy they were read from."""
    scheme = urlsplit(url.strip()).scheme.lower()
    if scheme not in SCHEMES:
        raise DeckError(f"cards: only http:// and https:// addresses are fetched, not {printable(scheme)}: "
                        "(a file in the deck folder is named by its path, like cards.csv)", file, line)
    try:
        fetched = fetcher.get(url.strip(), folder)
    except DeckError as exc:
        raise DeckError(f"cards: {exc.message}", file, line) from None
    return read_card_list(fetched.copy, shown=printable(url.strip())), replace(fetched, file=file, line=line)


# -- fetching ---------------------------------------------------------------------------------------

def _fetch(url: str, folder: Path, how: CardFetcher, unconditional: bool, fallback: bool) -> RemoteList:
    """Fetch `url` into the deck folder's cache, or keep the copy there (see the module's doc)."""
    cache = _cache_folder(folder)
    stem = hashlib.sha256(url.encode("utf-8")).hexdigest()[:32]
    sidecar = cache / f"{stem}.about.json"  # never the name of a copy (`{stem}.json`)
    kept = _kept(sidecar, url, cache)
    headers = {"User-Agent": USER_AGENT,
               "Accept": "text/csv, text/tab-separated-values, application/json;q=0.9, text/plain;q=0.5, */*;q=0.1"}
    if kept is not None and not unconditional:
        if kept.etag:
            headers["If-None-Match"] = kept.etag
        if kept.modified:
            headers["If-Modified-Since"] = kept.modified
    try:
        answer = _download(url, headers, how)
    except _Unreachable as exc:
        if kept is None:
            raise DeckError(f"cannot fetch {url} ({exc}), and there is no copy of it from an earlier build") from None
        if not fallback:
            raise DeckError(f"cannot fetch {url} ({exc})") from None
        # its age from when it was last known current: a sheet unchanged for weeks was current yesterday
        return replace(kept, note=f"using the copy of {url} fetched {_age(time.time() - kept.current)} ({exc})")
    if answer is None:  # 304 Not Modified: the copy is current
        if kept is None:
            raise DeckError(f"{url} answered 'not modified' to a request that had no copy to compare")
        kept = replace(kept, checked=time.time())
        try:
            _write_sidecar(sidecar, kept)
        except OSError:
            pass  # the copy is as good; only when it was last known current is not kept
        return kept
    body, content_type, final, etag, modified = answer
    kind = _web_kind(url, final, content_type, body)
    body = _utf8(body, content_type)
    copy = cache / f"{stem}{kind}"
    try:
        with replacing(copy) as tmp:
            tmp.write_bytes(body)
        made = RemoteList(url, copy, hashlib.sha256(body).hexdigest(), time.time(), etag, modified)
        _write_sidecar(sidecar, made)
        for other in WEB_TYPES:  # a copy of another kind, from before the address gave this one
            if other != kind and (cache / f"{stem}{other}").is_file():
                (cache / f"{stem}{other}").unlink()
    except OSError as exc:
        raise DeckError(f"cannot keep the copy of {url} in {display_path(cache)} ({exc.strerror or exc})") from None
    return made


def _write_sidecar(sidecar: Path, made: RemoteList) -> None:
    write_text(sidecar, json.dumps({"url": made.url, "copy": made.copy.name, "sha256": made.sha256,
                                    "fetched": made.fetched, "checked": made.checked, "etag": made.etag,
                                    "modified": made.modified}, indent=1) + "\n")


def _utc(seconds: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


def _cache_folder(folder: Path) -> Path:
    """`<folder>/.deckpress/cache`, made if need be, and refused if a link takes it out of the folder."""
    cache = folder / CACHE_FOLDER
    try:
        roots = [real(folder)]
        for place in (cache.parent, cache):  # each checked before it is made: no folder made through a link
            confined(place, roots, CACHE_FOLDER)
            place.mkdir(exist_ok=True)
        confined(cache, roots, CACHE_FOLDER)
    except PathError as exc:
        raise DeckError(f"cannot keep card lists in {CACHE_FOLDER}: it {exc.reason}", display_path(folder)) from None
    except OSError as exc:
        raise DeckError(f"cannot make {CACHE_FOLDER} to keep card lists in ({exc.strerror or exc})",
                        display_path(folder)) from None
    return cache


def _kept(sidecar: Path, url: str, cache: Path) -> RemoteList | None:
    """The copy kept from an earlier fetch, if its sidecar is readable and the copy is whole."""
    try:
        meta = json.loads(sidecar.read_text(encoding="utf-8"))
        copy = cache / Path(str(meta["copy"])).name
        if meta["url"] != url or copy.suffix not in WEB_TYPES:
            return None
        digest = hashlib.sha256(copy.read_bytes()).hexdigest()
        if digest != meta["sha256"]:
            return None  # changed or damaged since: fetched again, without asking whether it changed
        checked = meta.get("checked")
        return RemoteList(url, copy, digest, float(meta["fetched"]), meta.get("etag"), meta.get("modified"),
                          checked=None if checked is None else float(checked))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _download(url: str, headers: dict[str, str], how: CardFetcher) -> tuple[bytes, str, str, str | None, str | None] | None:
    """GET `url`: (body, Content-Type, the address it came from after redirects, ETag, Last-Modified),
    or None for 304 Not Modified. Raises _Unreachable, or DeckError for what no copy should hide
    (too big, a redirect to another scheme)."""
    import socket
    import urllib.error
    import urllib.request

    opener = urllib.request.OpenerDirector()
    for handler in (urllib.request.ProxyHandler(), urllib.request.HTTPHandler(), urllib.request.HTTPSHandler(),
                    urllib.request.HTTPDefaultErrorHandler(), _redirects(how.redirects),
                    urllib.request.HTTPErrorProcessor()):
        opener.add_handler(handler)  # http and https alone: no file:, ftp: or data: handler at all
    request = urllib.request.Request(url, headers=headers)
    started = time.monotonic()
    try:
        with opener.open(request, timeout=how.timeout) as response:
            length = response.headers.get("Content-Length", "")
            if length.isdigit() and int(length) > how.max_bytes:
                raise _too_big(url, int(length), how.max_bytes)
            chunks, size = [], 0
            while chunk := response.read1(1 << 16):  # what one read of the socket gives: a slow
                # drip of bytes is stopped by the deadline, between reads
                size += len(chunk)
                if size > how.max_bytes:
                    raise _too_big(url, size, how.max_bytes, more=True)
                if time.monotonic() - started > how.timeout * WHOLE_TIMEOUT:
                    raise _Unreachable(f"it took more than {how.timeout * WHOLE_TIMEOUT:g} s")
                chunks.append(chunk)
            headers_got = response.headers
            return (b"".join(chunks), headers_got.get("Content-Type", ""), response.geturl(),
                    headers_got.get("ETag"), headers_got.get("Last-Modified"))
    except urllib.error.HTTPError as exc:
        if exc.code == 304:
            return None
        if 300 <= exc.code < 400:  # urllib gave up following: a loop, or too many
            raise _Unreachable(f"it redirects in a loop or more than {how.redirects} times") from None
        raise _Unreachable(printable(f"HTTP {exc.code} {exc.reason}".rstrip())[:200]) from None
    except urllib.error.URLError as exc:
        reason = exc.reason
        if isinstance(reason, (socket.timeout, TimeoutError)):
            raise _Unreachable(f"no answer within {how.timeout:g} s") from None
        if isinstance(reason, OSError):
            raise _Unreachable(_os_reason(reason)) from None
        raise _Unreachable(printable(str(reason))[:200]) from None
    except (socket.timeout, TimeoutError):
        raise _Unreachable(f"no answer within {how.timeout:g} s") from None
    except OSError as exc:  # a connection reset while reading, …
        raise _Unreachable(_os_reason(exc)) from None
    except ValueError as exc:  # an address urllib cannot take (no host, …): no copy makes it right
        raise DeckError(f"{printable(url)} is not an address that can be fetched ({exc})") from None
    except _RedirectRefused as exc:
        raise DeckError(str(exc)) from None
    except Exception as exc:  # http.client's own errors (a bad status line, …): a server that is not well
        if isinstance(exc, (DeckError, _Unreachable)):
            raise
        raise _Unreachable(f"{type(exc).__name__}: {printable(str(exc))[:120]}") from None


class _RedirectRefused(Exception):
    """A redirect out of http and https."""


def _redirects(most: int) -> Any:
    """A redirect handler that follows at most `most` redirects, to http and https alone."""
    import urllib.request

    class Redirects(urllib.request.HTTPRedirectHandler):
        max_redirections = most
        max_repeats = most

        def http_error_302(self, req: Any, fp: Any, code: int, msg: str, headers: Any) -> Any:
            # said here, before urllib's own refusal (an HTTPError that reads as if the server failed)
            target = headers.get("Location") or headers.get("URI") or ""
            scheme = urlsplit(urljoin(req.full_url, target)).scheme.lower()
            if scheme not in SCHEMES:
                raise _RedirectRefused(f"{req.full_url} redirects to a {printable(scheme)}: address, which is "
                                       "not fetched: only http and https are")
            return super().http_error_302(req, fp, code, msg, headers)

        http_error_301 = http_error_303 = http_error_307 = http_error_308 = http_error_302

    return Redirects()


def _too_big(url: str, size: int, limit: int, more: bool = False) -> DeckError:
    return DeckError(f"{url} gives {'more than ' if more else ''}{size / 2**20:.1f} MB: too big for a card list "
                     f"(at most {limit / 2**20:.1f} MB)")


def _os_reason(exc: OSError) -> str:
    """Why a connection failed, in the system's words: `Connection refused`, `Name or service not known`."""
    return printable(exc.strerror or str(exc) or type(exc).__name__)[:200]


def _web_kind(url: str, final: str, content_type: str, body: bytes) -> str:
    """.csv, .tsv or .json: from the address (`output=csv`, `format=tsv`, a name ending .csv), else the
    Content-Type, else the text itself. A web page or a workbook is refused, saying how to publish CSV."""
    media = content_type.split(";")[0].strip().lower()
    head = body[:512].lstrip().lower()
    if media in ("text/html", "application/xhtml+xml") or head.startswith(_HTML):
        raise DeckError(f"{url} gives a web page, not CSV: in Google Sheets choose File → Share → Publish to "
                        "web, pick the sheet and 'Comma-separated values (.csv)', and use the address it gives")
    if body.startswith(b"PK\x03\x04"):
        raise DeckError(f"{url} gives a workbook (a zip), not CSV: publish or export the sheet as "
                        "comma-separated values (.csv)")
    for address in (url, final):
        parts = urlsplit(address)
        query = parse_qs(parts.query)
        for key in ("output", "format", "out"):
            for value in query.get(key, []):
                if f".{value.lower()}" in WEB_TYPES:
                    return f".{value.lower()}"
        suffix = Path(parts.path).suffix.lower()
        if suffix in WEB_TYPES:
            return suffix
    if media in ("text/csv", "application/csv"):
        return ".csv"
    if media == "text/tab-separated-values":
        return ".tsv"
    if media == "application/json" or media.endswith("+json"):
        return ".json"
    first = body.split(b"\n", 1)[0]
    if head.startswith((b"[", b"{")):
        return ".json"
    return ".tsv" if b"\t" in first and b"," not in first else ".csv"


def _utf8(body: bytes, content_type: str) -> bytes:
    """The body as UTF-8, as the readers take it: text in another charset the server names is converted."""
    from email.message import Message  # only when an address is fetched: email is slow to import

    message = Message()
    message["Content-Type"] = content_type or "text/plain"
    charset = (message.get_param("charset") or "utf-8")
    if not isinstance(charset, str) or charset.lower().replace("_", "-") in ("utf-8", "utf8", "us-ascii", "ascii"):
        return body
    try:
        return body.decode(charset).encode("utf-8")
    except (LookupError, UnicodeDecodeError):
        return body  # the reader says what is wrong with the bytes, at their line


def _age(seconds: float) -> str:
    """`40 s ago`, `12 min ago`, `3 h ago`, `2 days ago`."""
    seconds = max(seconds, 0)
    if seconds < 90:
        return f"{seconds:.0f} s ago"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min ago"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.0f} h ago"
    return f"{seconds / 86400:.0f} days ago"


# -- lists in files ---------------------------------------------------------------------------------

def read_card_list(path: Path, sheet: str | None = None, shown: str | None = None) -> Seq:
    """The cards of any file `cards:` may name (`CARD_LIST_TYPES`), as a Seq of Maps that each
    name the file (as `shown`, by default the path) and line or row."""
    kind = path.suffix.lower()
    if kind == ".json":
        return _json_cards(path, display_path(path) if shown is None else shown)
    if kind in (".yaml", ".yml"):
        return _yaml_cards(path)
    return read_card_table(path, sheet, shown)


def _yaml_cards(path: Path) -> Seq:
    """A YAML file that is a list of cards, each a mapping of fields, read with its lines."""
    cards = load_yaml(path)
    if not isinstance(cards, Seq):
        raise DeckError("a card list file is a list of cards, each a mapping of fields, like "
                        "'- {name: Apple, count: 2}'", display_path(path), getattr(cards, "line", 1))
    if not cards:
        raise DeckError("the card list is empty", display_path(path), cards.line)
    if len(cards) > MAX_CARDS:
        raise MAX_CARDS.error(display_path(path), cards.line_of(MAX_CARDS))
    return cards


def _json_cards(path: Path, shown: str) -> Seq:
    """A JSON file that is a list of objects, one a card: each card and each of its fields remember
    their line. A null leaves the field out, as an empty cell does."""
    try:
        with path.open("rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise DeckError(f"cannot read the file ({exc.strerror or exc})", shown) from None
    if len(data) > MAX_FILE_BYTES:
        raise MAX_FILE_BYTES.error(shown, size=f"more than {MAX_FILE_BYTES / 2**20:.1f} MB")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DeckError(f"not UTF-8 text ({exc.reason}: 0x{data[exc.start]:02x}); save the file as UTF-8",
                        shown, data.count(b"\n", 0, exc.start) + 1) from None
    return _JsonList(text, shown).cards()


class _JsonList:
    """Reads a JSON list of objects item by item and member by member, with json's own decoder for
    each value, so that each card and field knows its line."""

    _SPACE = re.compile(r"[ \t\n\r]*")

    def __init__(self, text: str, shown: str) -> None:
        self.text, self.shown = text, shown
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.decoder = json.JSONDecoder()

    def line(self, pos: int) -> int:
        return bisect.bisect_right(self.starts, pos)

    def skip(self, pos: int) -> int:
        return self._SPACE.match(self.text, pos).end()  # type: ignore[union-attr]  (it matches "" at worst)

    def expect(self, pos: int, marks: str, what: str) -> tuple[str, int]:
        pos = self.skip(pos)
        if pos < len(self.text) and self.text[pos] in marks:
            return self.text[pos], pos + 1
        found = "the end of the file" if pos >= len(self.text) else f"'{quoted(self.text[pos:pos + 12].split()[0])}'"
        raise DeckError(f"not readable as JSON: expected {what}, found {found}", self.shown, self.line(pos))

    def value(self, pos: int) -> tuple[Any, int]:
        try:
            return self.decoder.raw_decode(self.text, pos)
        except json.JSONDecodeError as exc:
            raise DeckError(f"not readable as JSON: {exc.msg} (column {exc.colno})", self.shown, exc.lineno) from None
        except RecursionError:
            raise DeckError("not readable as JSON: nested too deeply", self.shown, self.line(pos)) from None

    def cards(self) -> Seq:
        start = self.skip(0)
        if self.text[start:start + 1] != "[":
            if self.text[start:start + 1] == "{":
                raise DeckError("the file holds one object: a card list is a list of objects, one a card, like "
                                '[{"name": "Apple", "count": 2}, …]', self.shown, self.line(start))
            self.expect(start, "[", "a list of cards, [{…}, …]")
        cards = Seq()
        cards.file, cards.line = self.shown, self.line(start)
        pos = self.skip(start + 1)
        if self.text[pos:pos + 1] == "]":
            raise DeckError("the card list is empty", self.shown, self.line(pos))
        while True:
            pos = self.skip(pos)
            if len(cards) >= MAX_CARDS:
                raise MAX_CARDS.error(self.shown, self.line(pos))
            line = self.line(pos)
            if self.text[pos:pos + 1] == "{":
                card, pos = self.card(pos)
            else:  # the deck loader says that a card is an object, at this line
                card, pos = self.value(pos)
            cards.append(card)
            cards.item_lines.append(line)
            mark, pos = self.expect(pos, ",]", "',' or ']' after a card")
            if mark == "]":
                break
        end = self.skip(pos)
        if end < len(self.text):
            raise DeckError("not readable as JSON: more after the list's closing ']'", self.shown, self.line(end))
        return cards

    def card(self, pos: int) -> tuple[Map, int]:
        card = Map()
        card.file, card.line = self.shown, self.line(pos)
        pos = self.skip(pos + 1)
        if self.text[pos:pos + 1] == "}":
            return card, pos + 1
        while True:
            pos = self.skip(pos)
            if self.text[pos:pos + 1] != '"':
                self.expect(pos, '"', "a field's name in double quotes")
            line = self.line(pos)
            key, pos = self.value(pos)
            _, pos = self.expect(pos, ":", f"':' after \"{quoted(key)}\"")
            value, pos = self.value(self.skip(pos))
            if key in card:
                raise DeckError(f"the field '{quoted(key)}' appears twice in the card (line {card.key_lines[key]} "
                                "and here)", self.shown, line)
            if value is not None:  # null: the field left out, its default applies
                card[key] = self.lined(value, line, key)
                card.key_lines[key] = line
            mark, pos = self.expect(pos, ",}", "',' or '}' after a field")
            if mark == "}":
                return card, pos

    def lined(self, value: Any, line: int, key: str, depth: int = 0) -> Any:
        """A field's value as the YAML reader gives it: lists and objects as Seq and Map at its line."""
        if depth > MAX_DEPTH:
            raise DeckError(f"the value of '{quoted(key)}' is nested more than {MAX_DEPTH} deep", self.shown, line)
        if isinstance(value, str) and len(value) > MAX_TEXT:
            raise DeckError(f"the value of '{quoted(key)}' holds {len(value):,} characters: a value has at most "
                            f"{MAX_TEXT:,}", self.shown, line)
        if isinstance(value, list):
            items = Seq(self.lined(item, line, key, depth + 1) for item in value)
            items.file, items.line, items.item_lines = self.shown, line, [line] * len(value)
            return items
        if isinstance(value, dict):
            mapping = Map((str(k), self.lined(v, line, key, depth + 1)) for k, v in value.items())
            mapping.file, mapping.line = self.shown, line
            mapping.key_lines.update(dict.fromkeys(mapping, line))
            return mapping
        return value
