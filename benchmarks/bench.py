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
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # common.py, when run as a script
from common import (BLEED, CARD_H, CARD_W, COLORS_YAML, BACK_TEMPLATE, INK, MM, PAPER, NAVY, ROOT,  # noqa: E402
                    WORDS, hex_color, naive_duplex, rss_mb, sentence, tint)

DECK_ID = "bench"
DISTINCT = 100

# name, colour, symbol (each colour its own shape, as deckpress requires)
PALETTE = [("red", "#cf2e3d", "circle"), ("gold", "#e3a600", "triangle"),
           ("blue", "#2456a6", "square"), ("green", "#2e8b57", "diamond")]
LAYOUT = "# Synthetic benchmark layout: a framed card with a header, body text and two symbols.\n" + COLORS_YAML + """
templates:
  bench-front:
    fields: {title: ~, number: ~, color: ~, text: ~}
    elements:
      - rect: {x: -bleed, y: -bleed, w: 100% + 2*bleed, h: 100% + 2*bleed, fill: paper}
      - rect: {x: 3mm, y: 3mm, w: 100% - 6mm, h: 100% - 6mm, radius: 3mm,
               fill: "{color} 10%", stroke: "{color}", stroke-width: 1mm}
      - rect: {x: 3mm, y: 3mm, w: 100% - 6mm, h: 12mm, radius: 3mm, fill: "{color}"}
      - text: {text: "{title}", x: 6mm, y: 4.5mm, w: 100% - 22mm, h: 9mm, font: condensed,
               size: 14pt, min-size: 9pt, color: paper, valign: middle}
      - text: {text: "{number}", x: 100% - 16mm, y: 4.5mm, w: 10mm, h: 9mm, font: condensed,
               size: 14pt, color: paper, align: right, valign: middle}
      - text: {text: "{text}", x: 6mm, y: 18mm, w: 100% - 12mm, h: 100% - 32mm,
               size: 8.5pt, min-size: 5pt, line-height: 1.2, color: ink}
      - symbol: {of: "{color}", x: 10mm, y: 100% - 9mm, size: 6mm, stroke: ink, stroke-width: 0.3mm}
      - symbol: {of: "{color}", x: 100% - 10mm, y: 100% - 9mm, size: 6mm, stroke: ink, stroke-width: 0.3mm}
""" + BACK_TEMPLATE


# --- the synthetic deck ---------------------------------------------------------------------------

def card_specs() -> list[dict]:
    """The 100 distinct fronts: title, number, colour and three short paragraphs."""
    rng = random.Random(20240601)
    cards = []
    for i in range(DISTINCT):
        paragraphs = [sentence(rng, rng.randint(22, 30)) for _ in range(3)]
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

def run_naive(deck: Path, out: Path, n: int) -> tuple[list[Path], int]:
    """The same cards drawn straight onto A4 pages by plain reportlab, text at a fixed size."""
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph

    spec = json.loads((deck / "cards.json").read_text(encoding="utf-8"))
    cards = [c for c in spec["cards"] for _ in range(spec["count"])]
    assert len(cards) == n
    colors = {name: (color, symbol) for name, color, symbol in PALETTE}
    body = ParagraphStyle("body", fontName="NotoSans", fontSize=7.5, leading=9, spaceAfter=3,
                          textColor=hex_color(INK))

    def symbol(c, name: str, cx: float, cy: float, size: float) -> None:
        color, shape = colors[name]
        c.setFillColor(hex_color(color))
        c.setStrokeColor(hex_color(INK))
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

    def front(c, card: dict) -> None:
        w, h = CARD_W * MM, CARD_H * MM
        color = colors[card["color"]][0]
        c.setFillColor(hex_color(PAPER))
        c.rect(-BLEED * MM, -BLEED * MM, w + 2 * BLEED * MM, h + 2 * BLEED * MM, stroke=0, fill=1)
        c.setFillColor(tint(color, 0.10))
        c.setStrokeColor(hex_color(color))
        c.setLineWidth(1 * MM)
        c.roundRect(3 * MM, 3 * MM, w - 6 * MM, h - 6 * MM, 3 * MM, stroke=1, fill=1)
        c.setFillColor(hex_color(color))
        c.roundRect(3 * MM, h - 15 * MM, w - 6 * MM, 12 * MM, 3 * MM, stroke=0, fill=1)
        c.setFillColor(hex_color(PAPER))
        c.setFont("NotoSansCondensedBold", 14)
        c.drawString(6 * MM, h - 11 * MM, card["title"])
        c.drawRightString(w - 6 * MM, h - 11 * MM, str(card["number"]))
        top = h - 18 * MM
        for text in card["paragraphs"]:
            para = Paragraph(text, body)
            _, ph = para.wrap(w - 12 * MM, top)
            para.drawOn(c, 6 * MM, top - ph)
            top -= ph + body.spaceAfter
        symbol(c, card["color"], 10 * MM, 9 * MM, 6 * MM)
        symbol(c, card["color"], w - 10 * MM, 9 * MM, 6 * MM)

    path = out / "naive-duplex-a4.pdf"
    return [path], naive_duplex(path, cards, front, "a4")


# --- measuring ------------------------------------------------------------------------------------

METHODS = {"deckpress": run_deckpress, "naive": run_naive, "png": run_png, "impose": run_impose}


def _rss_mb() -> float:
    """Peak resident set size of this process so far, MB."""
    return rss_mb(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


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
