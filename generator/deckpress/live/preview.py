"""One deck kept built for the live preview: what the page shows, made again when the deck changes.

A `Preview` loads and composes the deck (the builder's one composition pass), gives each distinct
face an id that lasts as long as the face looks the same, and draws only the faces it has not
drawn before: an edit to one card redraws that card. Then it writes the print sheets (A4 and
Letter, colour and low-ink) and a report into a folder of its own. Each finished step is a new
`version` of `state()`, which the page is told of and fetches.

A face's id lasts while it *looks* the same, which is more than its drawing list: an `Image`
holds its picture's path, a `Text` its font's, not what the files hold. So the id is given to the
face together with the contents of every file its drawing reads (`FileVersions`): a picture saved
under the same name, or a font, gives every face that shows it a new id, which the page fetches
and the picture cache has never held. Fonts are also read anew then (`fonts.reread_fonts`), since
what text measures and shapes in them is cached by path.

A deck that fails to load or compose leaves the last good cards in place, with the error's one
line beside them; so does any other failure of a rebuild (a bug is a banner, not a dead server).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import secrets
import shutil
import sys
import tempfile
import threading
import time
import traceback
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from ..backends.raster import RasterJob, bleed_box, png_bytes, render, trim_box
from ..builder.deckbuild import deck_jobs
from ..builder.faces import DeckFaces, Inked, compose_faces
from ..builder.jobs import write_jobs
from ..builder.plan import DeckBuild, Options, Variant, lang_suffix, printed_title
from ..errors import DeckError, DeckWarning, Warnings, display_path
from ..face import Face
from ..text.fonts import font_source, reread_fonts
from ..imagefile import stamp
from ..model import Card, Deck, load_deck
from ..model.cardsource import CardFetcher
from ..model.deck import find_deck, readable_roots
from ..outputs.digests import FaceFiles
from ..outputs.presets import Preset
from ..paths import real
from ..results import Report
from ..units import paper_title

#: how sharp the faces are drawn: twice what a 96 dpi screen shows at 100 %, for sharp HiDPI screens
FACE_DPI = 200
#: the longest side of a face picture, in pixels: a 300 mm board at 200 dpi would be 2,400
MAX_FACE_PX = 1600
SHEET_DPI = 72  # the Sheets tab shows pages at well under their size
#: faces a rebuild draws at once when they replace faces the page shows (an edit's), once the page
#: is told of them (what it asks for meanwhile goes first): it swaps them in without waiting. Others,
#: and every face of a first build, are drawn when the browser asks for them, which it does for
#: those in view: a deck of 10,000 faces opens at once.
EAGER = 48
#: the pictures kept, in bytes; the least recently asked for go first, and are drawn again if asked for
PICTURE_CACHE = 256 * 2**20
PAPERS = ("a4", "letter")
INKS = ("color", "lowink")
INK_NAMES = {"color": "colour", "lowink": "low-ink"}
#: a face's picture with its bleed around the trim, for the page's trim, bleed and safe-area overlay
BLEED = "-bleed"
#: the pictures of a face: the trim in each ink, and trim and bleed in each ink
FACE_VIEWS = (*INKS, *(ink + BLEED for ink in INKS))
#: mm inside the trim the page's overlay marks as the safe area: the print services' safe zone,
#: which `cardimages` warns of text within (a deck has no safe margin of its own)
SAFE = Preset.safe
SIDES = ("front", "back")


@dataclass
class Shown:
    """One distinct face as the page shows it: each card-list entry that prints it, with its card."""

    id: str  # `<run>-<n>`: the same while the face looks the same; a face that changes gets a new one
    key: str  # the same across rebuilds: the side and the first card that shows it
    side: str
    face: Face
    cards: list[dict[str, Any]] = field(default_factory=list)
    copies: int = 0
    components: list[str] = field(default_factory=list)
    warnings: list[int] = field(default_factory=list)
    back: str | None = None  # a front's: the key of its first card's back, for the page's fronts beside backs


@dataclass
class SheetFile:
    """A print file written by the last build, and what it is."""

    path: Path
    paper: str
    ink: str
    kind: str
    pages: list[tuple[float, float]]  # each page's size, mm
    digest: str  # of its bytes: names its page pictures, so a changed file's pages are drawn anew


@dataclass
class Snapshot:
    """What one successful rebuild gave."""

    deck: Deck
    faces: list[Shown]
    warnings: list[DeckWarning]
    seconds: float
    drawn: int  # faces drawn for this rebuild (the others were drawn before)
    finished: str  # local time, hh:mm:ss
    sheets: list[SheetFile] = field(default_factory=list)
    files: dict[str, Path] = field(default_factory=dict)  # what may be downloaded, by name
    sizes: dict[str, int] = field(default_factory=dict)  # their sizes in bytes, as written


class Preview:
    """A deck (a bundled id or a folder) kept built: `rebuild()` after every change, `state()` for the page."""

    def __init__(self, ref: str | Path, players: int | None = None, lang: str | None = None) -> None:
        self.ref, self.players, self.lang = ref, players, lang
        self.cards = CardFetcher()  # card lists at web addresses: fetched once, then polled (`watch`)
        self.snapshot: Snapshot | None = None
        self.error: str | None = None
        self.building = False
        self.version = 0
        self.changed = threading.Condition()  # notified with each new version
        self._state_json: tuple[int, bytes] | None = None  # `state()` as JSON, and the version it is
        self._stating = threading.Lock()
        self.folder = Path(tempfile.mkdtemp(prefix="deckpress-serve-"))
        self._rebuilding = threading.Lock()  # one rebuild at a time
        self._drawing = threading.Lock()  # pdfium is not thread-safe: one drawing at a time, and the pictures'
        # a face's id by its side, the face and what the files it reads hold (`_reads`)
        self._ids: dict[tuple[str, Face, tuple[tuple[str, str], ...]], str] = {}
        self._versions = FileVersions()
        self._fonts: dict[str, tuple[int, int] | None] = {}  # every font file the deck may read, as it was read
        self._made = 0  # ids and build folders handed out
        # face ids are new in every run: a browser keeps face pictures as long as it likes
        self._run = secrets.token_hex(3)
        self._shown: dict[str, Shown] = {}  # the faces shown, by id
        self._asking: list[str] = []  # the faces the page is waiting for (append and remove: atomic)
        self._pictures = Pictures(PICTURE_CACHE)  # (face id, ink) and (sheet digest, page) → PNG

    # -- building ------------------------------------------------------------------------------

    def rebuild(self) -> None:
        """Load and compose the deck, draw the faces that changed, publish; then write the print
        files and publish again. A failure publishes its one line and keeps the last good state."""
        with self._rebuilding:
            start = time.perf_counter()
            try:
                warnings = Warnings()
                self._fonts_saved()
                deck = load_deck(self.ref, self.players, self.lang, self.cards)
                self._fonts_known(deck)
                faces = compose_faces(deck, warnings)
                shown = self._faces_shown(faces, warnings)
                old = self.snapshot
                new = [item for item in shown if item.id not in self._shown]
                self._show(shown)
                # each step a new Snapshot, swapped in whole: a request never sees half of one
                self.snapshot = Snapshot(deck, shown, list(warnings), time.perf_counter() - start, len(new),
                                         time.strftime("%H:%M:%S"), old.sheets if old else [],
                                         old.files if old else {}, old.sizes if old else {})
                self.error = None
                self._publish(building=True)
                self._draw_ahead([item for item in new if old and any(f.key == item.key for f in old.faces)])
                drawn = time.perf_counter() - start  # said with the next state: faces drawn too
                self.snapshot = dataclasses.replace(self._write_files(faces, warnings), seconds=drawn,
                                                    warnings=list(warnings))  # the box's warnings, too
            except DeckError as exc:
                self.error = str(exc)
            except OSError as exc:  # a file the deck reads gone or half written while it was read:
                self.error = _unreadable(exc)  # the save that follows brings the next rebuild
            except Exception as exc:  # noqa: BLE001  a bug must not stop the preview: say it, keep serving
                traceback.print_exc(file=sys.stderr)
                self.error = f"deckpress failed: {type(exc).__name__}: {exc}"
            self._publish(building=False)
            self._remove_old_builds()

    def _faces_shown(self, faces: DeckFaces, warnings: Warnings) -> list[Shown]:
        """The distinct faces, fronts in inventory order then backs (as the image sets name them),
        each with the cards that show it and the warnings said at those cards' lines."""
        cards = {(c.component, c.number): c for component in faces.deck.components for c in component.cards}
        components = {component.name: component for component in faces.deck.components}
        backs: dict[tuple[str, int], str] = {}  # each card's back, by the card
        by_place: dict[tuple[str | None, int | None], list[int]] = {}
        for index, warning in enumerate(warnings):
            by_place.setdefault((warning.file, warning.line), []).append(index)
        shown: dict[tuple[str, Face], Shown] = {}
        reads = _Reads(self._versions, FaceFiles(_font_files(faces.deck)))
        for side in SIDES:
            for entry in faces.entries:
                face = entry.face(side)
                if face is None:
                    continue
                item = shown.get((side, face))
                if item is None:
                    item = shown[side, face] = Shown(self._id(side, face, reads.of(face)),
                                                     f"{side}:{entry.component}:{entry.number}", side, face)
                card = cards[entry.component, entry.number]
                source = display_path(card.file)
                component = components[entry.component]
                template = component.front if side == "front" else component.back
                item.cards.append({"component": entry.component, "number": entry.number, "name": entry.name,
                                   "copies": entry.copies, "source": f"{source}:{card.line}",
                                   "fields": _plain(card.fields), "order": _field_order(card),
                                   "defaults": {key: {"source": f"{display_path(file)}:{line}", **_place(file, line)}
                                                for key, (file, line) in card.defaults.items()},
                                   "at": _place(card.file, card.line),
                                   "template": None if template is None else {
                                       "name": template.name,
                                       "source": f"{display_path(template.file)}:{template.line}",
                                       **_place(template.file, template.line)}})
                if side == "back":
                    backs.setdefault((entry.component, entry.number), item.key)
                item.copies += entry.copies
                if entry.component not in item.components:
                    item.components.append(entry.component)
                for index in by_place.get((source, card.line), []):
                    if index not in item.warnings:
                        item.warnings.append(index)
        for item in shown.values():
            if item.side == "front":
                first = item.cards[0]
                item.back = backs.get((first["component"], first["number"]))
        return list(shown.values())

    def _id(self, side: str, face: Face, reads: tuple[tuple[str, str], ...]) -> str:
        """The face's id: the one it had while it looked the same, its files holding what they
        hold now; else a new one."""
        key = (side, face, reads)
        if key not in self._ids:
            self._made += 1
            self._ids[key] = f"{self._run}-{self._made}"
        return self._ids[key]

    def _show(self, shown: list[Shown]) -> None:
        """Make `shown` the faces served, forgetting the pictures of those no card shows any more
        (so a long session's memory stays the deck's size)."""
        with self._drawing:
            self._shown = {item.id: item for item in shown}
            self._ids = {key: face_id for key, face_id in self._ids.items() if face_id in self._shown}
            self._versions.keep_only({path for side, face, reads in self._ids for path, _ in reads})
            self._pictures.keep_only(lambda key: key[0] in self._shown or key[1] not in FACE_VIEWS)

    def _draw_ahead(self, replacing: list[Shown]) -> None:
        """Draw, in colour, the first EAGER of `replacing`, the faces an edit changed on the page,
        which has been told of them: it asks for those in view at once, and each of its requests
        goes first (an edit to art every card shows changes them all; the ones in view show after
        the few drawn before them, not after all EAGER). A face that cannot be drawn now (a file
        it reads half saved) is left for the page to ask for."""
        for item in replacing[:EAGER]:
            while self._asking:
                time.sleep(0.002)
            with self._drawing:
                if item.id in self._shown and self._pictures.get((item.id, "color")) is None:
                    try:
                        self._pictures.put((item.id, "color"), self._draw(item, "color"))
                    except DeckError:
                        pass

    def _fonts_saved(self) -> None:
        """Read the fonts anew if any the deck may read has been saved since it was read: what
        text measures and shapes in a font is kept by the file's path (`fonts.from_fonts`)."""
        now = {path: _stamp(path) for path in self._fonts}
        if now != self._fonts:
            reread_fonts()
            self._fonts = now

    def _fonts_known(self, deck: Deck) -> None:
        """Take note of the font files a newly loaded deck may read (its own and the bundled
        ones), as they are now: loading it has read the new ones."""
        for path in _font_files(deck):
            if path not in self._fonts:
                self._fonts[path] = _stamp(path)

    def _draw(self, item: Shown, view: str) -> bytes:
        """One face as a PNG, in `view`'s ink, its trim or (`-bleed`) trim and bleed (the caller
        holds `_drawing`)."""
        face = Inked(Variant.of(view.removesuffix(BLEED)))(item.face, back=item.side == "back")
        assert face is not None
        box = bleed_box(face) if view.endswith(BLEED) else trim_box(face)
        picture = render([RasterJob(face, box, _face_pixels(face, box))], workers=1)[0]  # here: no fork
        assert picture is not None
        return png_bytes(picture.tobytes(), picture.size, 3 * picture.width, FACE_DPI)

    def _write_files(self, faces: DeckFaces, warnings: Warnings) -> Snapshot:
        """The print files for both papers and inks, and the report, in a new folder of their own:
        the snapshot that serves them. The previous build's folder goes once this one is
        published (`_remove_old_builds`)."""
        assert self.snapshot is not None
        deck = faces.deck
        self._made += 1
        out = self.folder / f"build-{self._made}"
        jobs, kinds = [], []
        for paper in PAPERS:
            for ink in INKS:
                for job in deck_jobs(faces, out, [paper], [ink], warnings, Options()):
                    jobs.append(job)
                    kinds.append((paper, ink, _kind(job.path.name, deck, paper, Variant.of(ink))))
        outputs = write_jobs(jobs, deck.bleed)
        result = DeckBuild(deck, outputs, warnings, len(faces.distinct()))
        report = out / deck.id / f"{deck.id}{lang_suffix(deck)}-report.json"
        report.write_text(json.dumps(Report.of([result]).to_json(), ensure_ascii=False, indent=2) + "\n",
                          encoding="utf-8")
        sheets = []
        for job, (paper, ink, kind) in zip(jobs, kinds):
            sizes = [sheet.plan.paper for sheet in job.sheets]
            sheets.append(SheetFile(job.path, paper, ink, kind, sizes,
                                    hashlib.sha256(job.path.read_bytes()).hexdigest()[:16]))
        files = {path.name: path for path in [*(s.path for s in sheets), report]}
        with self._drawing:
            digests = {sheet.digest for sheet in sheets}
            self._pictures.keep_only(lambda key: key[1] in FACE_VIEWS or key[0] in digests)
        return dataclasses.replace(self.snapshot, sheets=sheets, files=files,
                                   sizes={name: path.stat().st_size for name, path in files.items()})

    def _remove_old_builds(self) -> None:
        """Remove the build folders the published snapshot no longer serves. A request that read
        the one before may still ask for their files: it gets 404 (`page_png`, `/files/`)."""
        snapshot = self.snapshot
        kept = {path.parent.parent for path in snapshot.files.values()} if snapshot else set()  # build-N/<id>/file
        for path in self.folder.glob("build-*"):
            if path not in kept:
                shutil.rmtree(path, ignore_errors=True)

    def close(self) -> None:
        """Remove the built files."""
        shutil.rmtree(self.folder, ignore_errors=True)

    # -- what the page asks for -----------------------------------------------------------------

    def _publish(self, building: bool) -> None:
        with self.changed:
            self.building = building
            self.version += 1
            self.changed.notify_all()

    def state_json(self) -> bytes:
        """`state()` as JSON, made once a version (the page and every request between two versions
        get the same bytes, however many ask)."""
        made = self._state_json
        if made is None or made[0] != self.version:
            with self._stating:
                made = self._state_json
                if made is None or made[0] != self.version:
                    version = self.version
                    made = self._state_json = (version, json.dumps(self.state(), ensure_ascii=False).encode())
        return made[1]

    def wait(self, after: int, timeout: float, stop: threading.Event | None = None) -> int:
        """The version, once it is newer than `after`, `stop` is set (and `changed` notified), or
        `timeout` seconds have gone."""
        with self.changed:
            self.changed.wait_for(lambda: self.version > after or (stop is not None and stop.is_set()), timeout)
            return self.version

    def face_png(self, face_id: str, ink: str) -> bytes | None:
        """A shown face's picture in `ink` (one of FACE_VIEWS: `-bleed`, with its bleed), drawn
        when first asked for; None if it cannot be drawn now: a file it reads is being saved (the
        rebuild the save brings gives it a new id)."""
        if ink not in FACE_VIEWS:
            return None
        self._asking.append(face_id)  # the rebuild's drawing ahead waits for it
        try:
            return self._face_png(face_id, ink)
        finally:
            self._asking.remove(face_id)

    def _face_png(self, face_id: str, ink: str) -> bytes | None:
        with self._drawing:
            png = self._pictures.get((face_id, ink))
            item = self._shown.get(face_id)
            if png is None and item is not None:
                try:
                    png = self._pictures.put((face_id, ink), self._draw(item, ink))
                except (DeckError, OSError):  # a picture half written or gone: no traceback for the terminal
                    return None
            return png

    def page_png(self, digest: str, page: int) -> bytes | None:
        """Page `page` (from 1) of the print file whose bytes have `digest`, as a picture."""
        snapshot = self.snapshot
        sheet = next((s for s in snapshot.sheets if s.digest == digest), None) if snapshot else None
        if sheet is None or not 1 <= page <= len(sheet.pages):
            return None
        import pypdfium2 as pdfium

        with self._drawing:
            png = self._pictures.get((digest, page))
            if png is None:
                try:
                    document = pdfium.PdfDocument(sheet.path.read_bytes())
                except OSError:  # removed with its build: the page has been told of a newer one
                    return None
                try:
                    width = round(sheet.pages[page - 1][0] / 25.4 * SHEET_DPI)
                    drawn = document[page - 1]  # a hair under the exact scale: pdfium rounds the bitmap size up
                    bitmap = drawn.render(scale=width / drawn.get_width() * (1 - 1e-7), rev_byteorder=True)
                    picture = bitmap.to_pil().convert("RGB")
                finally:
                    document.close()
                png = self._pictures.put((digest, page), png_bytes(picture.tobytes(), picture.size, 3 * picture.width,
                                                                   SHEET_DPI))
            return png

    def file(self, name: str) -> Path | None:
        """A print file or the report of the last build, by its name alone: nothing else is served."""
        snapshot = self.snapshot
        return snapshot.files.get(name) if snapshot else None

    def openable(self, file: str) -> Path | None:
        """`file`, resolved, if the page may open it in the editor: a file in one of the deck's
        folders (its own and those of the decks it extends) or a layout file its templates come
        from; None for any other, or while the deck has never loaded."""
        snapshot = self.snapshot
        if snapshot is None or not file or "\0" in file:
            return None
        try:
            path = real(file)
        except (OSError, ValueError):  # paths.PathError is a ValueError
            return None
        if not path.is_file():
            return None
        deck = snapshot.deck
        if any(path.is_relative_to(real(folder)) for folder in deck.folders):
            return path
        layouts = {real(template.file) for template in deck.layouts.templates.values()}
        return path if path in layouts else None

    def watched(self) -> list[Path]:
        """The folders whose files the deck may read: its own and those of the decks it extends,
        and the bundled layouts and fonts; its own folder alone while it has never loaded."""
        if self.snapshot is not None:
            return list(readable_roots(self.snapshot.deck.folders))
        try:
            folder = find_deck(str(self.ref)).parent
        except DeckError:
            folder = Path(self.ref)
        return [folder.resolve(), *readable_roots(())] if folder.is_dir() else list(readable_roots(()))

    def state(self) -> dict[str, Any]:
        """What the page shows, as JSON-ready data (see the page's app.js)."""
        snapshot = self.snapshot
        state: dict[str, Any] = {"version": self.version, "error": self.error, "building": self.building}
        if snapshot is None:
            return {**state, "deck": None, "stats": None, "components": [], "faces": [], "warnings": [],
                    "sheets": [], "downloads": []}
        deck = snapshot.deck
        state["deck"] = {"id": deck.id, "title": printed_title(deck), "designer": deck.designer,
                         "license": deck.license, "players": deck.players, "language": deck.lang,
                         "file": display_path(deck.file)}
        state["stats"] = {"seconds": round(snapshot.seconds, 3), "faces_drawn": snapshot.drawn,
                          "cards": deck.card_count(), "faces": len(snapshot.faces), "finished": snapshot.finished}
        state["components"] = [{"name": c.name, "cards": c.card_count} for c in deck.components]
        state["faces"] = [{"id": item.id, "key": item.key, "side": item.side, "width": item.face.width,
                           "height": item.face.height, "radius": item.face.radius, "bleed": item.face.bleed,
                           "safe": SAFE, "back": item.back,
                           "src": {ink: f"/face/{item.id}{'' if ink == 'color' else '-' + ink}.png" for ink in INKS},
                           "bleed_src": {ink: f"/face/{item.id}{'' if ink == 'color' else '-' + ink}{BLEED}.png"
                                         for ink in INKS},
                           "copies": item.copies, "components": item.components, "cards": item.cards,
                           "warnings": item.warnings} for item in snapshot.faces]
        state["warnings"] = [{**w.to_json(), "text": str(w)} for w in snapshot.warnings]
        state["sheets"] = [{"name": s.path.name, "paper": s.paper, "ink": s.ink, "kind": s.kind,
                            "pages": [{"src": f"/sheet/{s.digest}/{n}.png", "width": w, "height": h}
                                      for n, (w, h) in enumerate(s.pages, start=1)]} for s in snapshot.sheets]
        labels = {s.path.name: f"{s.kind} · {paper_title(s.paper)} · {INK_NAMES[s.ink]}" for s in snapshot.sheets}
        state["downloads"] = [{"name": name, "url": f"/files/{name}", "bytes": snapshot.sizes[name],
                               "label": labels.get(name, "report")} for name in snapshot.files]
        return state


class Known(NamedTuple):
    """What a file held when it was last read: `digest` of its bytes ("" when it could not be read)."""

    stamp: tuple[int, int] | None
    digest: str


class FileVersions:
    """What each file a face reads holds, as a digest of its bytes, read again only when its stamp
    (`imagefile.stamp`: mtime in ns and size, what the backends' caches of a file's contents are
    keyed on) has changed: a face's id follows its files' contents, not their names.

    A digest rather than the stamp itself, so a file saved with the same bytes (touched, saved
    unchanged, checked out again) changes no id and redraws nothing: "nothing redrawn" is then
    true. The stamp decides when to read, so a file is read once per save, and what the id follows
    changes whenever the caches the drawing goes through read the file anew."""

    def __init__(self) -> None:
        self._known: dict[str, Known] = {}

    def read(self, path: str) -> Known:
        now = _stamp(path)
        known = self._known.get(path)
        if known is None or known.stamp != now:
            try:
                data = Path(path).read_bytes()
            except OSError:  # gone or unreadable since the deck was loaded: the next rebuild says so
                known = Known(None, "")
            else:
                known = Known(now, _digest(data))
            self._known[path] = known
        return known

    def keep_only(self, paths: set[str]) -> None:
        """Forget the files no face shown reads (read again if a face comes to read them)."""
        for path in [path for path in self._known if path not in paths]:
            del self._known[path]


class _Reads:
    """For one rebuild: the files each face's drawing reads (`FaceFiles`), with what each holds,
    as a sorted tuple of (path, digest). Each file is looked at once."""

    def __init__(self, versions: FileVersions, files: FaceFiles) -> None:
        self.versions, self.files = versions, files
        self._files: dict[str, Known] = {}
        self._keys: dict[frozenset[str], tuple[tuple[str, str], ...]] = {}

    def of(self, face: Face) -> tuple[tuple[str, str], ...]:
        paths = self.files.of(face.items)
        key = self._keys.get(paths)
        if key is None:
            key = self._keys[paths] = tuple((path, self._file(path).digest) for path in sorted(paths))
        return key

    def _file(self, path: str) -> Known:
        known = self._files.get(path)
        if known is None:
            known = self._files[path] = self.versions.read(path)
        return known


class Pictures:
    """PNGs by key, at most `limit` bytes of them: the least recently used go first."""

    def __init__(self, limit: int) -> None:
        self.limit, self.size = limit, 0
        self.items: OrderedDict[tuple[str, Any], bytes] = OrderedDict()

    def get(self, key: tuple[str, Any]) -> bytes | None:
        png = self.items.get(key)
        if png is not None:
            self.items.move_to_end(key)
        return png

    def put(self, key: tuple[str, Any], png: bytes) -> bytes:
        self.size += len(png) - len(self.items.pop(key, b""))
        self.items[key] = png
        while self.size > self.limit and len(self.items) > 1:
            self.size -= len(self.items.popitem(last=False)[1])
        return png

    def keep_only(self, wanted: Callable[[tuple[str, Any]], bool]) -> None:
        for key in [key for key in self.items if not wanted(key)]:
            self.size -= len(self.items.pop(key))


def _unreadable(exc: OSError) -> str:
    """The one line for a file that could not be read (or written) during a rebuild."""
    name = display_path(exc.filename) if exc.filename else "a file"
    return f"{name}: {exc.strerror or exc}"


def _stamp(path: str) -> tuple[int, int] | None:
    try:
        return stamp(path)
    except OSError:
        return None


def _digest(data: bytes) -> str:
    return hashlib.sha1(data, usedforsecurity=False).hexdigest()[:20]


def _font_files(deck: Deck) -> tuple[str, ...]:
    """Every font file a deck's text may be set in: its families' and the bundled ones."""
    return tuple(sorted({font_source(ref).path for family in deck.names.fonts.families.values()
                         for ref in family.files.values()}))


def _face_pixels(face: Face, box: tuple[float, float, float, float] | None = None) -> tuple[int, int]:
    """The size of a face's picture of `box` (by default its trim): FACE_DPI, the trim's longest
    side held to MAX_FACE_PX (so the picture with bleed is at the trim's scale)."""
    width, height = (face.width, face.height) if box is None else (box[2] - box[0], box[3] - box[1])
    dpi = min(FACE_DPI, MAX_FACE_PX / max(face.width, face.height) * 25.4)
    return (max(1, round(width / 25.4 * dpi)), max(1, round(height / 25.4 * dpi)))


def _kind(name: str, deck: Deck, paper: str, variant: Variant) -> str:
    """The kind of a print file from its name (`<id>[-<lang>]-<kind>[<variant>]-<paper>.pdf`)."""
    return name.removeprefix(f"{deck.id}{lang_suffix(deck)}-").removesuffix(f"{variant.suffix}-{paper}.pdf")


def _field_order(card: Card) -> list[str]:
    """The card's fields in the order its card list writes them (a spreadsheet's columns, a YAML
    mapping's keys), then those it leaves to defaults, in the order the templates declare them."""
    written = [key for key in card.order if key in card.fields]
    return [*written, *(key for key in card.fields if key not in written)]


def _place(file: str, line: int) -> dict[str, Any]:
    """Where a card or template is written, for the page's link to the editor: the file's
    absolute path (a spreadsheet's, for a card of one of its sheets: `cards.xlsx[Fruit]`) and line."""
    path = Path(file)
    if not path.is_file() and file.endswith("]") and "[" in file:
        path = Path(file[:file.rindex("[")])
    return {"file": str(path.resolve()), "line": line}


def _plain(value: Any) -> Any:
    """A card's fields as JSON: text, numbers, true/false, lists and maps; anything else as text."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)

