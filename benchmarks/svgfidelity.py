#!/usr/bin/env python3
"""How faithfully deckpress draws SVG art: each file of the corpus (svgcorpus.py) as headless
Chromium draws it, against the card deckpress builds with it.

    python benchmarks/svgfidelity.py [--corpus DIR] [--only PREFIX] [--jobs N] [--out DIR] [--size PX]

By default both pictures are 600 px a side: 300 dpi, the resolution deckpress writes pictures at
(`--format png`) and the least print shops ask for. At a screen's resolution (`--size 240`: 120
dpi) a pixel's width of antialiasing counts for more (docs/SVG.md says how much, and why).

The reference is Chromium (/usr/bin/chromium, driven by Playwright; no browser is downloaded),
one browser and one page for the whole run. Each SVG is opened as a document of its own, its
root given a size of SIZE × SIZE CSS px (its viewBox kept, or made from its width and height, so
that it is scaled into the square as a picture is scaled into a box) and a style sheet, by an
`<?xml-stylesheet?>` instruction before the root (so that no selector of the file sees it), whose
@font-face rules give every family of fonts/ its bundled file. The documents and the fonts are
served from memory to a made-up origin. The page's background is white.

deckpress's picture is what a user gets: a one-card deck, written to a temporary folder, whose
front is an `image` element covering the whole card (50.8 mm square, no bleed, square corners),
built with `deckpress.build(..., formats="png", dpi=SIZE / 2)`, which writes a SIZE × SIZE PNG on
white. The decks are built in worker processes (--jobs), one case at a time each, with a timeout:
a case that takes longer is a hang (its worker is killed and replaced), an exception is a crash
(so is a worker that dies), a `deckpress.DeckError` is a refusal (deckpress saying, in one line,
that it will not draw the file). The warnings the build returns are kept for each case.

A case passes when at most 1 % of its pixels differ by more than 40 levels in some channel (RGB,
both on white). Into --out (default output/svgfidelity/) go report.json, summary.md and, in
cases/, each failing case's two renders and a diff picture (pixels over the threshold in red,
below it in orange, on a faded copy of the reference).

Harness checks, each run: the bundled fonts must be the ones Chromium uses (a probe text is drawn
with them and must differ from the system's fallback), and every render must be SIZE × SIZE.
`--candidate chromium` compares Chromium with itself (each document drawn twice), through the whole
harness: everything should pass.

Importing this module starts nothing; the corpus is written (output/svgcorpus/) unless --corpus
names a folder.
"""

from __future__ import annotations

import argparse
import io
import json
import multiprocessing
import queue
import re
import shutil
import sys
import tempfile
import threading
import time
import traceback
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FONTS = ROOT / "fonts"
DEFAULT_OUT = ROOT / "output" / "svgfidelity"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ORIGIN = "http://svgfidelity.test"

SIZE = 600  # px a side, both renders: 300 dpi on the 2 in card, what `--format png` writes (--size 240: 120 dpi)
CARD_MM = 50.8  # the card's side: 2 in, so that SIZE px is SIZE / 2 dpi exactly
THRESHOLD = 40  # levels, in any channel
MAX_SHARE = 0.01  # of the pixels

#: (file in fonts/, family, weight, style): the @font-face rules Chromium is given. Both the family
#: name (name ID 1) and the typographic family (ID 16) are declared where they differ.
FONT_FACES = [
    ("NotoSans-Regular.ttf", "Noto Sans", 400, "normal"),
    ("NotoSans-Bold.ttf", "Noto Sans", 700, "normal"),
    ("NotoSans-Italic.ttf", "Noto Sans", 400, "italic"),
    ("NotoSans-BoldItalic.ttf", "Noto Sans", 700, "italic"),
    ("NotoSans-CondensedBold.ttf", "Noto Sans Condensed", 700, "normal"),
    ("NotoSans-CondensedBlack.ttf", "Noto Sans Condensed", 900, "normal"),
    ("NotoSans-CondensedBlack.ttf", "Noto Sans Condensed Black", 400, "normal"),
    ("NotoSansMath-Regular.ttf", "Noto Sans Math", 400, "normal"),
    ("NotoSansSymbols2-Regular.ttf", "Noto Sans Symbols2", 400, "normal"),
    ("NotoMusic-Regular.ttf", "Noto Music", 400, "normal"),
]

STATUSES = ("pass", "fail", "crash", "hang", "refused", "no-reference")


# ---------------------------------------------------------------------------------------------
# The reference document: the SVG with its root sized to SIZE px and the fonts' style sheet

_PROLOG = re.compile(r"(?:\s+|<\?.*?\?>|<!--.*?-->|<!DOCTYPE[^\[>]*(?:\[.*?\])?\s*>)*", re.S)
_ROOT = re.compile(r"<svg\b((?:\s+[\w:.-]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*)\s*(/?)>", re.S)
_ATTR = re.compile(r"([\w:.-]+)\s*=\s*(\"[^\"]*\"|'[^']*')", re.S)
_LENGTH = re.compile(r"\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*(px|mm|cm|in|pt|pc)?\s*$")
_UNITS = {None: 1.0, "px": 1.0, "mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96.0, "pt": 96 / 72, "pc": 16.0}


def _length(value: str | None) -> float | None:
    """An absolute length in CSS px, None for none, a percentage or a relative unit."""
    m = _LENGTH.match(value) if value is not None else None
    return float(m.group(1)) * _UNITS[m.group(2)] if m else None


def reference_document(text: str, size: int = SIZE) -> str:
    """The SVG `text` as Chromium is given it: the root `size` px square, with a viewBox (its own,
    or 0 0 width height), and the fonts' style sheet linked before the root."""
    start = _PROLOG.match(text).end()
    root = _ROOT.match(text, start)
    if root is None:
        raise ValueError("no <svg> root element found")
    attrs = {m.group(1): m.group(2)[1:-1] for m in _ATTR.finditer(root.group(1))}
    kept = [m.group(0) for m in _ATTR.finditer(root.group(1)) if m.group(1) not in ("width", "height")]
    if "viewBox" not in attrs:
        w, h = _length(attrs.get("width")), _length(attrs.get("height"))
        if w and h:
            kept.append(f'viewBox="0 0 {w:.10g} {h:.10g}"')
    new_root = f'<svg {" ".join(kept)} width="{size}" height="{size}"{root.group(2)}>'
    sheet = f'<?xml-stylesheet type="text/css" href="{ORIGIN}/fonts.css"?>\n'
    return text[:start] + sheet + new_root + text[root.end():]


def fonts_css() -> str:
    return "\n".join(f'@font-face {{ font-family: "{family}"; src: url("{ORIGIN}/fonts/{file}") format("truetype"); '
                     f'font-weight: {weight}; font-style: {style}; }}' for file, family, weight, style in FONT_FACES)


class Chromium:
    """One headless Chromium with one page, drawing SVG documents at SIZE px on white."""

    def __init__(self, size: int = SIZE, timeout: float = 20.0) -> None:
        from playwright.sync_api import sync_playwright

        self.size = size
        self.timeout_ms = timeout * 1000
        self._documents: dict[str, str] = {}
        self._fonts = {file: (FONTS / file).read_bytes() for file, *_ in FONT_FACES}
        self._css = fonts_css()
        self._playwright = sync_playwright().start()
        try:
            self.browser = self._playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            self.page = self.browser.new_page(viewport={"width": size, "height": size}, device_scale_factor=1)
            self.page.route(f"{ORIGIN}/**", self._serve)
        except BaseException:
            self._playwright.stop()
            raise
        self.version = self.browser.version

    def _serve(self, route: Any) -> None:
        path = route.request.url[len(ORIGIN):]
        if path == "/fonts.css":
            route.fulfill(status=200, body=self._css, content_type="text/css")
        elif path.startswith("/fonts/") and path[7:] in self._fonts:
            route.fulfill(status=200, body=self._fonts[path[7:]], content_type="font/ttf")
        elif path in self._documents:
            route.fulfill(status=200, body=self._documents[path], content_type="image/svg+xml")
        else:
            route.fulfill(status=404, body="")

    def render(self, name: str, svg_text: str) -> tuple[bytes, list[str]]:
        """The document as a PNG screenshot, and the bundled fonts it used ("family:status")."""
        path = f"/case/{name}"
        self._documents = {path: reference_document(svg_text, self.size)}
        self.page.goto(ORIGIN + path, wait_until="load", timeout=self.timeout_ms)
        fonts = self.page.evaluate("document.fonts.ready.then(() => [...document.fonts]"
                                   ".filter(f => f.status !== 'unloaded').map(f => f.family + ' ' + f.weight + ' ' + f.style + ': ' + f.status))")
        png = self.page.screenshot(type="png", timeout=self.timeout_ms)
        return png, fonts

    def close(self) -> None:
        try:
            self.browser.close()
        finally:
            self._playwright.stop()


def font_probe(chromium: Chromium) -> dict[str, Any]:
    """Checks that Chromium draws text in the bundled fonts: each family drawn with its own font
    file loaded, and differently from the system's fallback for a family that does not exist."""
    import numpy as np

    def draw(family: str, sample: str, weight: str = "normal") -> tuple[Any, list[str]]:
        text = (f'<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"><text x="10" y="110" '
                f'font-family="{family}" font-weight="{weight}" font-size="40">{sample}</text></svg>')
        png, fonts = chromium.render(f"probe-{family.replace(' ', '_')}-{weight}.svg", text)
        return np.asarray(to_rgb(png)), fonts

    fallback, _ = draw("No Such Family", "Hamgiv")
    found: dict[str, Any] = {}
    for family, sample, weight in [("Noto Sans", "Hamgiv", "normal"), ("Noto Sans", "Hamgiv", "bold"),
                                   ("Noto Sans Condensed", "Hamgiv", "bold"), ("Noto Sans Math", "∑∫√", "normal"),
                                   ("Noto Sans Symbols2", "♠★", "normal"), ("Noto Music", "\U0001D11E", "normal")]:
        pixels, fonts = draw(family, sample, weight)
        loaded = [f for f in fonts if f.startswith(family + " ") and f.endswith("loaded")]
        differs = bool((np.abs(pixels.astype(int) - fallback.astype(int)) > THRESHOLD).any()) if sample == "Hamgiv" else True
        found[f"{family} {weight}"] = {"loaded": loaded, "differs from fallback": differs}
        if not loaded or not differs:
            raise RuntimeError(f"harness: Chromium did not draw {family} ({weight}) in the bundled font: {fonts}")
    return found


# ---------------------------------------------------------------------------------------------
# deckpress's picture: a one-card deck built to PNG, in worker processes

DECK_YAML = f"""\
id: svgcase
title: SVG fidelity case
designer: svgfidelity benchmark
license: CC0-1.0
card: {{width: {CARD_MM}mm, height: {CARD_MM}mm, radius: 0mm}}
bleed: 0mm
layouts: [art]
components:
  - name: art
    front: art
    cards:
      - {{name: case}}
"""

LAYOUT_YAML = """\
templates:
  art:
    doc: The SVG under test, covering the whole card.
    fields: {name: ~}
    elements:
      - image: {src: art/case.svg, x: 0mm, y: 0mm, w: 100%, h: 100%, fit: contain}
"""


def build_case(svg_path: str, work: str, size: int = SIZE) -> dict[str, Any]:
    """Build the one-card deck of `svg_path` in the folder `work`; what became of it. Runs in a worker."""
    import logging
    import warnings as pywarnings

    import deckpress

    deck = Path(work) / "deck"
    (deck / "art").mkdir(parents=True)
    (deck / "layouts").mkdir()
    (deck / "deck.yaml").write_text(DECK_YAML, encoding="utf-8")
    (deck / "layouts" / "art.yaml").write_text(LAYOUT_YAML, encoding="utf-8")
    shutil.copyfile(svg_path, deck / "art" / "case.svg")

    notes: list[str] = []  # what the libraries below deckpress said (Python warnings, log records)

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if len(notes) < 20:
                notes.append(f"{record.name}: {record.getMessage()}"[:300])

    handler = Collect(logging.WARNING)
    logging.getLogger().addHandler(handler)
    started = time.perf_counter()
    try:
        with pywarnings.catch_warnings(record=True) as caught:
            pywarnings.simplefilter("always")
            try:
                result, = deckpress.build(str(deck), str(Path(work) / "out"), formats="png", dpi=size // 2,
                                          papers="a4", inks="color")
            except deckpress.DeckError as error:
                return {"status": "refused", "error": str(error).replace(str(deck) + "/", ""),
                        "seconds": time.perf_counter() - started, "notes": notes}
            except Exception:
                return {"status": "crash", "error": traceback.format_exc(limit=12),
                        "seconds": time.perf_counter() - started, "notes": notes}
        for w in caught[:20]:
            notes.append(f"{w.category.__name__}: {w.message}"[:300])
    finally:
        logging.getLogger().removeHandler(handler)
    seconds = time.perf_counter() - started
    pngs = [o.path for o in result.outputs if str(o.path).endswith(".png")]
    warnings = [{"kind": w.kind, "message": w.message} for w in result.warnings]
    if len(pngs) != 1:
        return {"status": "crash", "error": f"harness: the build wrote {len(pngs)} PNG files", "seconds": seconds,
                "warnings": warnings, "notes": notes}
    return {"status": "built", "png": Path(pngs[0]).read_bytes(), "seconds": seconds, "warnings": warnings,
            "notes": notes}


def _worker(conn: Any, size: int) -> None:
    """A worker process: builds the cases it is sent, one at a time, each in a folder of its own."""
    with tempfile.TemporaryDirectory(prefix="svgfidelity-") as tmp:
        # a first build before saying it is ready: what deckpress imports and reads once a process
        # is not counted in the first case's time
        warm = Path(tmp) / "warm-up.svg"
        warm.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="5" height="5"/>'
                        '<text font-family="Noto Sans" font-size="4">a</text></svg>', encoding="utf-8")
        build_case(str(warm), str(Path(tmp) / "warm-up"), size)
        conn.send("ready")
        for index in range(10**9):
            try:
                job = conn.recv()
            except EOFError:
                return
            if job is None:
                return
            name, svg_path = job
            work = Path(tmp) / f"{index:05d}"
            try:
                answer = build_case(svg_path, str(work), size)
            except BaseException:  # the harness's own failure, told as a crash with its traceback
                answer = {"status": "crash", "error": "harness: " + traceback.format_exc(limit=8), "seconds": 0.0}
            conn.send((name, answer))
            shutil.rmtree(work, ignore_errors=True)


class Builders:
    """`jobs` worker processes building the cases of a queue, each case with a timeout."""

    def __init__(self, cases: list[tuple[str, str]], jobs: int, timeout: float, size: int = SIZE) -> None:
        self.context = multiprocessing.get_context("spawn")  # no fork: the parent runs a browser's driver
        self.timeout = timeout
        self.size = size
        self.todo: queue.Queue[tuple[str, str]] = queue.Queue()
        for case in cases:
            self.todo.put(case)
        self.results: dict[str, dict[str, Any]] = {}
        self.failure: str | None = None  # the harness's own, which stops the run
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self._slot, daemon=True) for _ in range(jobs)]
        for thread in self.threads:
            thread.start()

    def _start(self) -> tuple[Any, Any]:
        parent, child = self.context.Pipe()
        process = self.context.Process(target=_worker, args=(child, self.size), daemon=True)
        process.start()
        child.close()
        try:
            ready = parent.poll(120) and parent.recv() == "ready"
        except (EOFError, OSError):
            ready = False
        if not ready:
            process.kill()
            process.join(5)
            raise RuntimeError(f"harness: a deckpress worker did not start (exit code {process.exitcode})")
        return process, parent

    def _slot(self) -> None:
        process = conn = None
        try:
            while self.failure is None:
                try:
                    name, path = self.todo.get_nowait()
                except queue.Empty:
                    return
                if process is None:
                    process, conn = self._start()
                started = time.perf_counter()
                conn.send((name, path))
                try:
                    ready = conn.poll(self.timeout)
                    answer = conn.recv()[1] if ready else None
                except (EOFError, OSError):
                    process.join(5)
                    answer = {"status": "crash", "error": f"the worker died (exit code {process.exitcode})",
                              "seconds": time.perf_counter() - started}
                    process = conn = None
                if answer is None:  # a hang: the worker is killed, a new one takes the next case
                    process.kill()
                    process.join(5)
                    process = conn = None
                    answer = {"status": "hang", "error": f"no picture after {self.timeout:g} s",
                              "seconds": time.perf_counter() - started}
                with self.lock:
                    self.results[name] = answer
        except Exception:
            self.failure = traceback.format_exc(limit=4)
        finally:
            if process is not None:
                try:
                    conn.send(None)
                except OSError:
                    pass
                process.join(5)
                if process.is_alive():
                    process.kill()

    def join(self) -> dict[str, dict[str, Any]]:
        for thread in self.threads:
            thread.join()
        if self.failure is not None:
            raise RuntimeError(f"harness: building the decks failed:\n{self.failure}")
        return self.results


# ---------------------------------------------------------------------------------------------
# Comparing


def to_rgb(png: bytes) -> Any:
    """A PNG as an RGB image on white."""
    from PIL import Image

    image = Image.open(io.BytesIO(png))
    image.load()
    if image.mode in ("RGBA", "LA", "P", "PA") or "transparency" in image.info:
        image = image.convert("RGBA")
        white = Image.new("RGBA", image.size, (255, 255, 255, 255))
        image = Image.alpha_composite(white, image)
    return image.convert("RGB")


def compare(reference: Any, candidate: Any) -> tuple[float, float, Any]:
    """The share of pixels over the threshold, the largest difference, and the over-threshold mask."""
    import numpy as np

    a = np.asarray(reference, dtype=np.int16)
    b = np.asarray(candidate, dtype=np.int16)
    if a.shape != b.shape:
        raise ValueError(f"harness: renders of different sizes, {a.shape} and {b.shape}")
    diff = np.abs(a - b).max(axis=2)
    over = diff > THRESHOLD
    return float(over.mean()), float(diff.max()), diff


def diff_picture(reference: Any, diff: Any) -> Any:
    """The reference faded to a light grey, pixels over the threshold red, the others that differ orange."""
    import numpy as np
    from PIL import Image

    grey = np.asarray(reference.convert("L"), dtype=np.float32)
    base = (255 - (255 - grey) * 0.25).astype(np.uint8)
    out = np.stack([base, base, base], axis=2)
    out[(diff > 8) & (diff <= THRESHOLD)] = (255, 170, 60)
    out[diff > THRESHOLD] = (220, 0, 0)
    return Image.fromarray(out, "RGB")


@dataclass
class Case:
    name: str
    feature: str
    subfeature: str
    status: str = "pending"
    share: float | None = None  # of pixels over the threshold
    max_diff: float | None = None
    warnings: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    error: str | None = None
    seconds_deckpress: float | None = None
    seconds_chromium: float | None = None
    chromium_fonts: list[str] = field(default_factory=list)


# ---------------------------------------------------------------------------------------------
# The report


def summarise(cases: list[Case]) -> dict[str, Any]:
    def counts(group: list[Case]) -> dict[str, Any]:
        judged = [c for c in group if c.status != "no-reference"]
        row: dict[str, Any] = {s: sum(c.status == s for c in group) for s in STATUSES}
        row["files"] = len(group)
        row["pass_rate"] = row["pass"] / len(judged) if judged else None
        failing = [c for c in group if c.status == "fail"]  # a crash, hang or refusal is never silent
        row["warned"] = sum(bool(c.warnings) for c in failing)
        row["silent"] = sum(not c.warnings for c in failing)
        return row

    features: dict[str, list[Case]] = {}
    subfeatures: dict[str, list[Case]] = {}
    for c in cases:
        features.setdefault(c.feature, []).append(c)
        subfeatures.setdefault(f"{c.feature}-{c.subfeature}", []).append(c)
    return {"overall": counts(cases),
            "features": {k: counts(v) for k, v in features.items()},
            "subfeatures": {k: counts(v) for k, v in subfeatures.items()}}


def markdown(cases: list[Case], summary: dict[str, Any], settings: dict[str, Any]) -> str:
    o = summary["overall"]
    pct = (lambda r: "—" if r is None else f"{100 * r:.1f} %")
    lines = ["# SVG fidelity: deckpress against headless Chromium", "",
             f"{settings['files']} SVG files ({settings['corpus']}), renders {settings['size']} × {settings['size']} px on white; "
             f"a case passes when at most {100 * MAX_SHARE:g} % of its pixels differ by more than {THRESHOLD} levels in a channel. "
             f"Reference: {settings['reference']}. Candidate: {settings['candidate']}. "
             f"{settings['seconds']:.0f} s with {settings['jobs']} deckpress workers.", "",
             f"**Passed {o['pass']} of {o['files'] - o['no-reference']} ({pct(o['pass_rate'])})**: "
             f"{o['fail']} failed ({o['warned']} with a deckpress warning, {o['silent']} silent), "
             f"{o['crash']} crashes, {o['hang']} hangs, {o['refused']} refusals"
             + (f", {o['no-reference']} without a reference." if o["no-reference"] else "."), "",
             "| feature | files | pass | fail | crash | hang | refused | pass rate | failing: warned | silent |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, r in summary["features"].items():
        lines.append(f"| {name} | {r['files']} | {r['pass']} | {r['fail']} | {r['crash']} | {r['hang']} | {r['refused']} | "
                     f"{pct(r['pass_rate'])} | {r['warned']} | {r['silent']} |")
    lines += ["", "## By subfeature", "", "| subfeature | files | pass | not passing |", "|---|---:|---:|---|"]
    by_sub: dict[str, list[Case]] = {}
    for c in cases:
        by_sub.setdefault(f"{c.feature}-{c.subfeature}", []).append(c)
    for name, r in summary["subfeatures"].items():
        bad = ", ".join(f"{c.name[len(name) + 1:-4]} ({c.status})" for c in by_sub[name] if c.status != "pass")
        lines.append(f"| {name} | {r['files']} | {r['pass']} | {bad} |")
    for status, title in [("crash", "Crashes"), ("hang", "Hangs"), ("refused", "Refusals"), ("no-reference", "No reference")]:
        group = [c for c in cases if c.status == status]
        lines += ["", f"## {title} ({len(group)})", ""]
        for c in group:
            error = (c.error or "").strip().splitlines()
            lines.append(f"- `{c.name}`: {error[-1] if error else ''}")
    failing = [c for c in cases if c.status == "fail"]
    lines += ["", f"## Failing ({len(failing)}): share of pixels over the threshold, and deckpress's warnings", ""]
    for c in sorted(failing, key=lambda c: c.name):
        warned = "; ".join(f"{w['kind']}: {w['message']}" for w in c.warnings) or "silent"
        lines.append(f"- `{c.name}`: {100 * (c.share or 0):.1f} % — {warned}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------


def run(corpus: Path, out: Path, only: str | None = None, jobs: int = 2, timeout: float = 20.0,
        candidate: str = "deckpress", save_all: bool = False, size: int = SIZE, say: Any = print) -> dict[str, Any]:
    import numpy as np

    started = time.perf_counter()
    files = sorted(p for p in corpus.glob("*.svg") if only is None or p.name.startswith(only))
    if not files:
        raise SystemExit(f"no SVG files in {corpus}" + (f" starting {only!r}" if only else ""))
    cases = {}
    for p in files:
        parts = p.stem.split("-")
        cases[p.name] = Case(p.name, parts[0], parts[1] if len(parts) > 2 else "")
    cases_dir = out / "cases"
    cases_dir.mkdir(parents=True, exist_ok=True)
    for old in cases_dir.glob("*.png"):
        old.unlink()

    if size % 2 or size < 80:
        raise ValueError("the size must be even (the card is 2 in a side, so SIZE / 2 dpi) and at least 80 px")
    builders = Builders([(p.name, str(p)) for p in files], jobs, timeout, size) if candidate == "deckpress" else None
    chromium = Chromium(size, timeout=timeout)
    references: dict[str, bytes] = {}
    candidates: dict[str, bytes] = {}
    try:
        probe = font_probe(chromium)
        say(f"Chromium {chromium.version}: bundled fonts in use ({', '.join(probe)})")
        for i, p in enumerate(files, 1):
            case = cases[p.name]
            text = p.read_text(encoding="utf-8")
            t0 = time.perf_counter()
            try:
                references[p.name], case.chromium_fonts = chromium.render(p.name, text)
                if candidate == "chromium":  # the harness against itself: the document drawn again
                    t1 = time.perf_counter()
                    candidates[p.name], _ = chromium.render(p.name, text)
                    case.seconds_deckpress = time.perf_counter() - t1
            except Exception as error:
                case.status, case.error = "no-reference", f"Chromium: {error}".splitlines()[0]
            case.seconds_chromium = time.perf_counter() - t0
            if i % 100 == 0:
                say(f"  Chromium: {i}/{len(files)} drawn, {time.perf_counter() - started:.0f} s")
    finally:
        chromium.close()
    built = builders.join() if builders is not None else {}
    say(f"  both renders done, {time.perf_counter() - started:.0f} s")

    for name, case in cases.items():
        answer = built.get(name)
        if answer is not None:
            case.seconds_deckpress = answer.get("seconds")
            case.warnings = answer.get("warnings", [])
            case.notes = answer.get("notes", [])
            if answer["status"] != "built":
                if case.status != "no-reference":
                    case.status = answer["status"]
                case.error = answer.get("error")
            else:
                candidates[name] = answer["png"]
        if case.status != "pending":
            if name in references:
                to_rgb(references[name]).save(cases_dir / f"{name[:-4]}.chromium.png")
            continue
        reference, picture = to_rgb(references[name]), to_rgb(candidates[name])
        if reference.size != (size, size) or picture.size != (size, size):
            raise RuntimeError(f"harness: {name}: renders of {reference.size} and {picture.size} px, not {size}")
        case.share, case.max_diff, diff = compare(reference, picture)
        case.status = "pass" if case.share <= MAX_SHARE else "fail"
        if case.status == "fail" or save_all:
            reference.save(cases_dir / f"{name[:-4]}.chromium.png")
            picture.save(cases_dir / f"{name[:-4]}.{candidate}.png")
            diff_picture(reference, np.asarray(diff)).save(cases_dir / f"{name[:-4]}.diff.png")

    seconds = time.perf_counter() - started
    ordered = [cases[p.name] for p in files]
    summary = summarise(ordered)
    settings = {"corpus": str(corpus), "files": len(files), "only": only, "size": size, "threshold": THRESHOLD,
                "max_share": MAX_SHARE, "reference": f"Chromium {chromium.version} (headless, {CHROMIUM})",
                "candidate": candidate if candidate == "chromium" else
                f"deckpress.build(formats='png', dpi={size // 2}) of a {CARD_MM} mm card",
                "jobs": jobs, "timeout": timeout, "seconds": seconds, "fonts": probe}
    report = {"settings": settings, "summary": summary, "cases": [asdict(c) for c in ordered]}
    (out / "report.json").write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    (out / "summary.md").write_text(markdown(ordered, summary, settings), encoding="utf-8")
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, help="folder of SVG files (default: the corpus, written to output/svgcorpus/)")
    parser.add_argument("--only", help="only the files whose name starts with this (e.g. filters- or text-tspan)")
    parser.add_argument("--jobs", type=int, default=2, help="deckpress worker processes (default 2)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where the report goes (default output/svgfidelity/)")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds a case may take (default 20)")
    parser.add_argument("--candidate", choices=["deckpress", "chromium"], default="deckpress",
                        help="what is compared with Chromium: deckpress, or Chromium itself (a check of the harness)")
    parser.add_argument("--size", type=int, default=SIZE, help=f"px a side of both renders, even (default {SIZE}: {SIZE // 2} dpi)")
    parser.add_argument("--save-all", action="store_true", help="keep the renders of passing cases too")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    corpus = args.corpus
    if corpus is None:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from svgcorpus import DEFAULT_FOLDER, write_corpus

        corpus = DEFAULT_FOLDER
        print(f"wrote {len(write_corpus(corpus))} SVG files to {corpus}")
    report = run(corpus, args.out, args.only, max(1, args.jobs), args.timeout, args.candidate, args.save_all, args.size)
    o = report["summary"]["overall"]
    rate = "—" if o["pass_rate"] is None else f"{100 * o['pass_rate']:.1f} %"
    print(f"passed {o['pass']} of {o['files'] - o['no-reference']} ({rate}); failed {o['fail']} "
          f"({o['warned']} warned, {o['silent']} silent); crashes {o['crash']}, hangs {o['hang']}, "
          f"refusals {o['refused']}, no reference {o['no-reference']}")
    for name, r in report["summary"]["features"].items():
        rate = "—" if r["pass_rate"] is None else f"{100 * r['pass_rate']:5.1f} %"
        print(f"  {name:14} {r['pass']:4}/{r['files']:<4} {rate}  fail {r['fail']}, crash {r['crash']}, "
              f"hang {r['hang']}, refused {r['refused']}")
    print(f"report: {args.out / 'summary.md'}, {args.out / 'report.json'}")
    print(f"total time: {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
