#!/usr/bin/env python3
"""Benchmark: deckpress vs. a naive reportlab loop, for decks of N cards with 100 distinct fronts.

    python benchmarks/bench.py                       # N = 1,000 and 10,000, median of 3 runs
    python benchmarks/bench.py --sizes 1000 --repeat 1

A synthetic deck (poker cards, 3 mm bleed, one back, 100 distinct fronts in 4 palette colours)
is written to a temporary folder. Every measurement runs in a fresh subprocess, so the peak
memory figure (`ru_maxrss` of that process) belongs to one build only; imports happen before the
clock starts and are not timed, but their memory is part of the peak.

- deckpress: `deckpress.build(folder, out, papers="a4", inks="color")`, which writes
  the fronts, the mirrored backs and the duplex PDF (three files, 2N fronts + 2N backs placed).
- naive: plain reportlab drawing every card on the canvas (no Form XObjects), 9 per A4 page,
  each fronts page followed by its mirrored backs page, in one duplex file (N fronts + N backs).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FONTS = ROOT / "fonts"
DECK_ID = "bench"
DISTINCT = 100

# name, colour, symbol (each colour its own shape, as deckpress requires)
PALETTE = [("red", "#cf2e3d", "circle"), ("gold", "#e3a600", "triangle"),
           ("blue", "#2456a6", "square"), ("green", "#2e8b57", "diamond")]
INK, PAPER, NAVY, BRASS = "#1f1f24", "#ffffff", "#22304a", "#d9a521"

# a few hundred words of rules prose, so the text compresses like real card text and not like a
# handful of repeated words
WORDS = sorted(set(re.findall(r"[a-z]+", """
At the start of your turn draw two cards from the pile and add them to your hand. You may then play
one card face up in front of you, paying its cost in tokens from your supply. When a player reveals a
matching colour, every other player must discard one card of their choice or lose three points instead.
Cards with the same symbol can be traded at the market for a single gold coin, unless the harbour is
closed. If the deck runs out, shuffle the discard pile to form a new deck and continue playing until
someone reaches twenty points. Whenever you build a tower next to a river, gain an extra action this
round; a bridge costs one stone less. Swap any two cards in the shared row, then move the marker
forward by the number shown. The weather changes at dawn: storms block every road north of the
mountains and fog hides the western villages from merchants travelling alone. Knights defend castles,
archers guard walls, and spies steal secrets during quiet nights while farmers harvest wheat, barley,
grapes and apples in autumn. Should nobody claim the crown before winter, the oldest player chooses a
successor among those holding the fewest banners. Return exhausted heroes to the tavern, heal wounded
allies with herbs gathered in the forest, and remember that dragons ignore shields but fear fire.
Reveal hidden objectives only after the final score is counted; ties are broken by remaining
treasure, then by reputation, and finally by whoever arrived last at the table.
""".lower())))

LAYOUT = f"""\
# Synthetic benchmark layout: a framed card with a header, body text and two symbols.
colors:
  ink: "{INK}"
  paper: "{PAPER}"
  navy: "{NAVY}"
  brass: "{BRASS}"

templates:
  bench-front:
    fields: {{title: ~, number: ~, color: ~, text: ~}}
    elements:
      - rect: {{x: -bleed, y: -bleed, w: 100% + 2*bleed, h: 100% + 2*bleed, fill: paper}}
      - rect: {{x: 3mm, y: 3mm, w: 100% - 6mm, h: 100% - 6mm, radius: 3mm,
               fill: "{{color}} 10%", stroke: "{{color}}", stroke-width: 1mm}}
      - rect: {{x: 3mm, y: 3mm, w: 100% - 6mm, h: 12mm, radius: 3mm, fill: "{{color}}"}}
      - text: {{text: "{{title}}", x: 6mm, y: 4.5mm, w: 100% - 22mm, h: 9mm, font: condensed,
               size: 14pt, min-size: 9pt, color: paper, valign: middle}}
      - text: {{text: "{{number}}", x: 100% - 16mm, y: 4.5mm, w: 10mm, h: 9mm, font: condensed,
               size: 14pt, color: paper, align: right, valign: middle}}
      - text: {{text: "{{text}}", x: 6mm, y: 18mm, w: 100% - 12mm, h: 100% - 32mm,
               size: 8.5pt, min-size: 5pt, line-height: 1.2, color: ink}}
      - symbol: {{of: "{{color}}", x: 10mm, y: 100% - 9mm, size: 6mm, stroke: ink, stroke-width: 0.3mm}}
      - symbol: {{of: "{{color}}", x: 100% - 10mm, y: 100% - 9mm, size: 6mm, stroke: ink, stroke-width: 0.3mm}}

  bench-back:
    elements:
      - rect: {{x: -bleed, y: -bleed, w: 100% + 2*bleed, h: 100% + 2*bleed, fill: navy}}
      - rect: {{x: 4mm, y: 4mm, w: 100% - 8mm, h: 100% - 8mm, radius: 3mm, stroke: brass, stroke-width: 0.6mm}}
      - circle: {{x: 50%, y: 40mm, r: 15mm, stroke: brass, stroke-width: 0.5mm}}
      - text: {{text: "BENCH", x: 6mm, y: 60mm, w: 100% - 12mm, h: 11mm, font: condensed, size: 22pt,
               align: center, valign: middle, color: paper}}
"""


# --- the synthetic deck ---------------------------------------------------------------------------

def card_specs() -> list[dict]:
    """The 100 distinct fronts: title, number, colour and three short paragraphs."""
    rng = random.Random(20240601)
    cards = []
    for i in range(DISTINCT):
        paragraphs = []
        for _ in range(3):
            words = [rng.choice(WORDS) for _ in range(rng.randint(22, 30))]
            paragraphs.append(" ".join(words).capitalize() + ".")
        cards.append({"title": f"Card {i + 1} {rng.choice(WORDS)}", "number": i + 1,
                      "color": PALETTE[i % len(PALETTE)][0], "paragraphs": paragraphs})
    return cards


def write_deck(folder: Path, n: int) -> None:
    """deck.yaml + layouts/bench.yaml for N cards (N / 100 copies of each front), and cards.json for
    the naive loop (the same cards, with their counts)."""
    if n % DISTINCT:
        raise SystemExit(f"N must be a multiple of {DISTINCT}, not {n}")
    count = n // DISTINCT
    (folder / "layouts").mkdir(parents=True, exist_ok=True)
    (folder / "layouts" / "bench.yaml").write_text(LAYOUT, encoding="utf-8")
    cards = card_specs()
    lines = [f"id: {DECK_ID}", "title: Benchmark deck", "designer: deckpress", "license: CC0-1.0",
             "card: poker", "bleed: 3mm", "layouts: [bench]", "palette:"]
    lines += [f'  {name}: {{color: "{color}", symbol: {symbol}}}' for name, color, symbol in PALETTE]
    lines += ["components:", "  - name: cards", "    front: bench-front", "    back: bench-back", "    cards:"]
    for c in cards:
        fields = {"title": c["title"], "number": c["number"], "color": c["color"],
                  "text": "\n\n".join(c["paragraphs"]), "count": count}
        lines.append("      - " + json.dumps(fields, ensure_ascii=False))  # JSON is YAML
    (folder / "deck.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "cards.json").write_text(json.dumps({"count": count, "cards": cards}), encoding="utf-8")
    write_images(folder / "images", cards, count)


def write_images(folder: Path, cards: list[dict], count: int) -> None:
    """For `impose`: the 100 fronts as ready-made 825 × 1125 px JPEGs (poker with 1/8 in bleed at
    300 dpi, as a print service's template gives them), `count` copies each through the file name
    (`card007 x10.jpg`), and one back."""
    from PIL import Image, ImageDraw
    folder.mkdir(parents=True, exist_ok=True)
    colours = {name: color for name, color, _ in PALETTE}
    for c in cards:
        image = Image.new("RGB", (825, 1125), PAPER)
        draw = ImageDraw.Draw(image)
        draw.rounded_rectangle((75, 75, 750, 1050), 35, fill=colours[c["color"]])
        draw.text((110, 110), f"{c['number']} {c['title']}", fill=PAPER)
        image.save(folder / f"card{int(c['number']):03d} x{count}.jpg", quality=90)
    Image.new("RGB", (825, 1125), NAVY).save(folder.parent / "back.jpg", quality=90)


# --- method 1: deckpress ------------------------------------------------------------------------

def run_deckpress(deck: Path, out: Path, n: int) -> tuple[list[Path], int]:
    import deckpress
    result, = deckpress.build(deck, out, papers="a4", inks="color")
    assert result.deck.card_count("cards") == n
    return [o.path for o in result.outputs], sum(o.pages for o in result.outputs)


def run_png(deck: Path, out: Path, n: int) -> tuple[list[Path], int]:
    """Card images at 300 dpi with bleed: one PNG per distinct face (101 here) and the manifest.
    The rate that matters is images per second; `cards/s` counts the cards those images cover."""
    import deckpress
    result, = deckpress.build(deck, out, papers="a4", inks="color", formats="png")
    assert result.deck.card_count("cards") == n
    return [o.path for o in result.outputs], 0


def run_impose(deck: Path, out: Path, n: int) -> tuple[list[Path], int]:
    """`deckpress impose` of the 100 JPEG fronts (N cards through their copy counts) and one back:
    fronts, backs and duplex on A4, JPEGs embedded as they are."""
    import deckpress
    result = deckpress.impose([deck / "images"], out, back=deck / "back.jpg", papers="a4")
    assert result.cards == n
    return [o.path for o in result.outputs], sum(o.pages for o in result.outputs)


# --- method 2: the naive reportlab loop -----------------------------------------------------------

MM = 72 / 25.4
CARD_W, CARD_H, BLEED = 63.5, 88.9, 3.0
PAGE_W, PAGE_H = 210.0, 297.0
COLS, ROWS = 3, 3


def _hex(value: str):
    from reportlab.lib.colors import HexColor
    return HexColor(value)


def _tint(value: str, share: float):
    from reportlab.lib.colors import Color
    c = _hex(value)
    return Color(1 - share * (1 - c.red), 1 - share * (1 - c.green), 1 - share * (1 - c.blue))


def run_naive(deck: Path, out: Path, n: int) -> tuple[list[Path], int]:
    """Every card drawn straight onto the page, the way a first attempt would do it."""
    import reportlab.rl_config
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import Paragraph

    # Same stream encoding as deckpress (deckpress/backends/pdf.py sets this when imported, and the worker
    # imports it for both methods): reportlab's default adds ASCII85 on top of Flate, about +19 % here.
    reportlab.rl_config.useA85 = 0
    pdfmetrics.registerFont(TTFont("NotoSans", str(FONTS / "NotoSans-Regular.ttf")))
    pdfmetrics.registerFont(TTFont("NotoSansCondensedBold", str(FONTS / "NotoSans-CondensedBold.ttf")))
    spec = json.loads((deck / "cards.json").read_text(encoding="utf-8"))
    cards = [c for c in spec["cards"] for _ in range(spec["count"])]
    assert len(cards) == n
    colors = {name: (color, symbol) for name, color, symbol in PALETTE}
    body = ParagraphStyle("body", fontName="NotoSans", fontSize=7.5, leading=9, spaceAfter=3,
                          textColor=_hex(INK))

    out.mkdir(parents=True, exist_ok=True)
    path = out / "naive-duplex-a4.pdf"
    c = Canvas(str(path), pagesize=(PAGE_W * MM, PAGE_H * MM), invariant=1, pageCompression=1,
               initialFontName="NotoSans", initialFontSize=8)
    x0 = (PAGE_W - COLS * CARD_W) / 2
    y0 = (PAGE_H - ROWS * CARD_H) / 2

    def cell(i: int, mirrored: bool) -> tuple[float, float]:
        """Bottom-left corner (pt) of slot i; backs go to the mirrored column."""
        row, col = divmod(i, COLS)
        if mirrored:
            col = COLS - 1 - col
        return (x0 + col * CARD_W) * MM, (PAGE_H - y0 - (row + 1) * CARD_H) * MM

    def symbol(name: str, cx: float, cy: float, size: float) -> None:
        color, shape = colors[name]
        c.setFillColor(_hex(color))
        c.setStrokeColor(_hex(INK))
        c.setLineWidth(0.3 * MM)
        r = size / 2
        if shape == "circle":
            c.circle(cx, cy, 0.84 * r, stroke=1, fill=1)
            return
        pts = {"triangle": [(0, 0.78), (0.9, -0.78), (-0.9, -0.78)],
               "square": [(-0.8, -0.8), (0.8, -0.8), (0.8, 0.8), (-0.8, 0.8)],
               "diamond": [(0, 1), (1, 0), (0, -1), (-1, 0)]}[shape]
        p = c.beginPath()
        p.moveTo(cx + pts[0][0] * r, cy + pts[0][1] * r)
        for px, py in pts[1:]:
            p.lineTo(cx + px * r, cy + py * r)
        p.close()
        c.drawPath(p, stroke=1, fill=1)

    def front(card: dict, x: float, y: float) -> None:
        w, h = CARD_W * MM, CARD_H * MM
        color = colors[card["color"]][0]
        c.saveState()
        c.translate(x, y)
        c.setFillColor(_hex(PAPER))
        c.rect(-BLEED * MM, -BLEED * MM, w + 2 * BLEED * MM, h + 2 * BLEED * MM, stroke=0, fill=1)
        c.setFillColor(_tint(color, 0.10))
        c.setStrokeColor(_hex(color))
        c.setLineWidth(1 * MM)
        c.roundRect(3 * MM, 3 * MM, w - 6 * MM, h - 6 * MM, 3 * MM, stroke=1, fill=1)
        c.setFillColor(_hex(color))
        c.roundRect(3 * MM, h - 15 * MM, w - 6 * MM, 12 * MM, 3 * MM, stroke=0, fill=1)
        c.setFillColor(_hex(PAPER))
        c.setFont("NotoSansCondensedBold", 14)
        c.drawString(6 * MM, h - 11 * MM, card["title"])
        c.drawRightString(w - 6 * MM, h - 11 * MM, str(card["number"]))
        top = h - 18 * MM
        for text in card["paragraphs"]:
            para = Paragraph(text, body)
            _, ph = para.wrap(w - 12 * MM, top)
            para.drawOn(c, 6 * MM, top - ph)
            top -= ph + body.spaceAfter
        symbol(card["color"], 10 * MM, 9 * MM, 6 * MM)
        symbol(card["color"], w - 10 * MM, 9 * MM, 6 * MM)
        c.restoreState()

    def back(x: float, y: float) -> None:
        w, h = CARD_W * MM, CARD_H * MM
        c.saveState()
        c.translate(x, y)
        c.setFillColor(_hex(NAVY))
        c.rect(-BLEED * MM, -BLEED * MM, w + 2 * BLEED * MM, h + 2 * BLEED * MM, stroke=0, fill=1)
        c.setStrokeColor(_hex(BRASS))
        c.setLineWidth(0.6 * MM)
        c.roundRect(4 * MM, 4 * MM, w - 8 * MM, h - 8 * MM, 3 * MM, stroke=1, fill=0)
        c.setLineWidth(0.5 * MM)
        c.circle(w / 2, h - 40 * MM, 15 * MM, stroke=1, fill=0)
        c.setFillColor(_hex(PAPER))
        c.setFont("NotoSansCondensedBold", 22)
        c.drawCentredString(w / 2, h - 68 * MM, "BENCH")
        c.restoreState()

    def crop_marks(count: int, mirrored: bool = False) -> None:
        rows = math.ceil(count / COLS)
        cols = min(count, COLS)
        c.setStrokeColor(_hex("#000000"))
        c.setLineWidth(0.2 * MM)
        top, bottom = PAGE_H - y0, PAGE_H - y0 - rows * CARD_H
        for i in range(cols + 1):  # vertical cut lines, marks above and below the grid
            x = PAGE_W - x0 - i * CARD_W if mirrored else x0 + i * CARD_W
            c.line(x * MM, (top + 1) * MM, x * MM, (top + 5) * MM)
            c.line(x * MM, (bottom - 1) * MM, x * MM, (bottom - 5) * MM)
        for j in range(rows + 1):  # horizontal cut lines, marks left and right
            y = top - j * CARD_H
            c.line((x0 - 1) * MM, y * MM, (x0 - 5) * MM, y * MM)
            c.line((x0 + COLS * CARD_W + 1) * MM, y * MM, (x0 + COLS * CARD_W + 5) * MM, y * MM)

    per_page = COLS * ROWS
    pages = 0
    for start in range(0, n, per_page):
        chunk = cards[start:start + per_page]
        for i, card in enumerate(chunk):
            front(card, *cell(i, mirrored=False))
        crop_marks(len(chunk))
        c.showPage()
        for i, _ in enumerate(chunk):
            back(*cell(i, mirrored=True))
        crop_marks(len(chunk), mirrored=True)
        c.showPage()
        pages += 2
    c.save()
    return [path], pages


# --- measuring ------------------------------------------------------------------------------------

METHODS = {"deckpress": run_deckpress, "naive": run_naive, "png": run_png, "impose": run_impose}


def _rss_mb() -> float:
    """Peak resident set size of this process so far, MB (ru_maxrss is KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def worker(method: str, deck: Path, out: Path, n: int) -> None:
    """One measurement, in this (fresh) process; prints a JSON line."""
    sys.path.insert(0, str(ROOT / "generator"))  # the checkout, even without an install
    import deckpress.builder.deckbuild, deckpress.builder.images  # noqa: F401, E401  loaded before the clock starts
    import reportlab.platypus  # noqa: F401
    before = _rss_mb()
    start = time.perf_counter()
    paths, pages = METHODS[method](deck, out, n)
    seconds = time.perf_counter() - start

    def size(suffix: str) -> int:
        return next((p.stat().st_size for p in paths if p.name.endswith(suffix)), 0)
    print(json.dumps({"method": method, "n": n, "seconds": seconds, "peak_mb": _rss_mb(), "import_mb": before,
                      "fronts_bytes": size("-cards-a4.pdf"), "duplex_bytes": size("-duplex-a4.pdf"),
                      "total_bytes": sum(p.stat().st_size for p in paths),
                      "pages": pages, "files": [p.name for p in paths],
                      "images": sum(p.suffix in (".png", ".jpg") for p in paths)}))


def measure(method: str, deck: Path, out: Path, n: int) -> dict:
    proc = subprocess.run([sys.executable, __file__, "--worker", method, str(deck), str(out), str(n)],
                          capture_output=True, text=True, check=False)
    if proc.returncode:
        sys.exit(f"{method} N={n} failed:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000", help="comma-separated card counts N (multiples of 100)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement; the median is reported")
    parser.add_argument("--methods", default="deckpress,naive", help="comma-separated: deckpress, naive, png, impose")
    parser.add_argument("--keep", type=Path, help="keep the deck and the last run's PDFs in this folder")
    parser.add_argument("--json", action="store_true", help="print the results as JSON too")
    parser.add_argument("--worker", nargs=4, metavar=("METHOD", "DECK", "OUT", "N"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        method, deck, out, n = args.worker
        worker(method, Path(deck), Path(out), int(n))
        return

    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    for m in methods:
        if m not in METHODS:
            parser.error(f"unknown method '{m}'; methods are {', '.join(METHODS)}")
    from reportlab import Version as reportlab_version
    from reportlab.lib import rl_accel
    accel = "with" if type(rl_accel.fp_str).__name__ == "builtin_function_or_method" else "without"
    print(f"python {platform.python_version()}, reportlab {reportlab_version} ({accel} the rl_accel C "
          f"extension), {os.cpu_count()} CPUs, {platform.machine()}; median of {args.repeat}; "
          f"peak MB = ru_maxrss of a fresh process per run", flush=True)

    rows = []
    with tempfile.TemporaryDirectory(prefix="deckpress-bench-") as tmp:
        root = args.keep or Path(tmp)
        for n in sizes:
            deck = root / f"deck-{n}"
            write_deck(deck, n)
            for method in methods:
                runs = []
                for r in range(args.repeat):
                    out = root / f"out-{method}-{n}-{r}"
                    runs.append(measure(method, deck, out, n))
                    if not args.keep or r < args.repeat - 1:
                        _remove(out)
                seconds = statistics.median(x["seconds"] for x in runs)
                row = {**runs[0], "seconds": seconds, "cards_per_s": n / seconds,
                       "peak_mb": statistics.median(x["peak_mb"] for x in runs),
                       "import_mb": statistics.median(x["import_mb"] for x in runs),
                       "all_seconds": [round(x["seconds"], 3) for x in runs]}
                rows.append(row)
                print(f"  {method:9} N={n:<6} {seconds:7.2f} s  runs {row['all_seconds']}, "
                      f"{row['pages']} pages, {row['import_mb']:.1f} MB after imports", flush=True)

    print()
    print("| method    | N      | seconds | cards/s | peak MB | pages "
          "| fronts PDF bytes | duplex PDF bytes | all files bytes |")
    print("|-----------|-------:|--------:|--------:|--------:|------:"
          "|-----------------:|-----------------:|----------------:|")
    for r in rows:
        fronts = f"{r['fronts_bytes']:,}" if r["fronts_bytes"] else "—"
        print(f"| {r['method']:9} | {r['n']:6,} | {r['seconds']:7.2f} | {r['cards_per_s']:7,.0f} | "
              f"{r['peak_mb']:7.1f} | {r['pages'] or r['images']:5} | {fronts:>16} | {r['duplex_bytes']:16,} | "
              f"{r['total_bytes']:15,} |")
    print()
    print("deckpress writes 3 files (fronts, mirrored backs, duplex: 'pages' counts all three); naive writes "
          "only a duplex file (no separate fronts file); png writes one image per distinct face ('pages' "
          "counts the images) and a manifest.")
    for r in rows:
        if r["images"]:
            print(f"png N={r['n']:,}: {r['images'] / r['seconds']:.1f} images/s at 300 dpi on {os.cpu_count()} cores")
    if args.json:
        print(json.dumps(rows, indent=1))


def _remove(folder: Path) -> None:
    for path in sorted(folder.rglob("*"), reverse=True):
        path.rmdir() if path.is_dir() else path.unlink()
    if folder.exists():
        folder.rmdir()


if __name__ == "__main__":
    main()
