"""What the benchmark scripts share: the word list their seeded text is drawn from, the card back,
the naive reportlab loop's sheets (a fronts page, then its mirrored backs page, in one duplex file),
and running one measurement in a fresh process.

No deckpress import here: the scripts measure deckpress in child processes, and the naive loop must
not pay for (or profit from) anything deckpress loads.
"""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

ROOT = Path(__file__).resolve().parent.parent
FONTS = ROOT / "fonts"
GENERATOR = ROOT / "generator"

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

INK, PAPER, NAVY, BRASS = "#1f1f24", "#ffffff", "#22304a", "#d9a521"

# The one back every benchmark deck has, as a deckpress template (indented to sit under `templates:`)
# and as the naive loop draws it (`draw_back`).
BACK_TEMPLATE = """\
  bench-back:
    elements:
      - rect: {x: -bleed, y: -bleed, w: 100% + 2*bleed, h: 100% + 2*bleed, fill: navy}
      - rect: {x: 4mm, y: 4mm, w: 100% - 8mm, h: 100% - 8mm, radius: 3mm, stroke: brass, stroke-width: 0.6mm}
      - circle: {x: 50%, y: 40mm, r: 15mm, stroke: brass, stroke-width: 0.5mm}
      - text: {text: "BENCH", x: 6mm, y: 60mm, w: 100% - 12mm, h: 11mm, font: condensed, size: 22pt,
               align: center, valign: middle, color: paper}
"""
COLORS_YAML = f"""\
colors:
  ink: "{INK}"
  paper: "{PAPER}"
  navy: "{NAVY}"
  brass: "{BRASS}"
"""


def sentence(rng: Any, words: int) -> str:
    """`words` words drawn from WORDS by the seeded `rng`, as one sentence."""
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


# --- the naive reportlab loop's sheets ------------------------------------------------------------

MM = 72 / 25.4
CARD_W, CARD_H, BLEED = 63.5, 88.9, 3.0  # poker, mm
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
COLS, ROWS = 3, 3


def hex_color(value: str):
    from reportlab.lib.colors import HexColor
    return HexColor(value)


def tint(value: str, share: float):
    from reportlab.lib.colors import Color
    c = hex_color(value)
    return Color(1 - share * (1 - c.red), 1 - share * (1 - c.green), 1 - share * (1 - c.blue))


def naive_canvas(path: Path, paper: str):
    """A reportlab canvas set up as deckpress sets up its own, and the two fonts registered."""
    import reportlab.rl_config
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    # Same stream encoding as deckpress (deckpress/backends/pdf.py sets this when imported): reportlab's
    # default adds ASCII85 on top of Flate, about +19 % here.
    reportlab.rl_config.useA85 = 0
    pdfmetrics.registerFont(TTFont("NotoSans", str(FONTS / "NotoSans-Regular.ttf")))
    pdfmetrics.registerFont(TTFont("NotoSansCondensedBold", str(FONTS / "NotoSans-CondensedBold.ttf")))
    page_w, page_h = PAPERS[paper]
    path.parent.mkdir(parents=True, exist_ok=True)
    return Canvas(str(path), pagesize=(page_w * MM, page_h * MM), invariant=1, pageCompression=1,
                  initialFontName="NotoSans", initialFontSize=8)


def draw_back(c) -> None:
    """BACK_TEMPLATE, drawn with the card's bottom-left corner at the origin (pt, y up)."""
    w, h = CARD_W * MM, CARD_H * MM
    c.setFillColor(hex_color(NAVY))
    c.rect(-BLEED * MM, -BLEED * MM, w + 2 * BLEED * MM, h + 2 * BLEED * MM, stroke=0, fill=1)
    c.setStrokeColor(hex_color(BRASS))
    c.setLineWidth(0.6 * MM)
    c.roundRect(4 * MM, 4 * MM, w - 8 * MM, h - 8 * MM, 3 * MM, stroke=1, fill=0)
    c.setLineWidth(0.5 * MM)
    c.circle(w / 2, h - 40 * MM, 15 * MM, stroke=1, fill=0)
    c.setFillColor(hex_color(PAPER))
    c.setFont("NotoSansCondensedBold", 22)
    c.drawCentredString(w / 2, h - 68 * MM, "BENCH")


def naive_duplex(path: Path, cards: Sequence[Any], front: Callable[[Any, Any], None], paper: str) -> int:
    """Every card drawn straight onto the page, the way a first attempt would do it: 9 fronts a page
    with crop marks, each fronts page followed by its mirrored backs page, in one file. `front(c, card)`
    draws one front with the card's bottom-left corner at the origin. Returns the page count."""
    c = naive_canvas(path, paper)
    page_w, page_h = PAPERS[paper]
    x0 = (page_w - COLS * CARD_W) / 2
    y0 = (page_h - ROWS * CARD_H) / 2

    def cell(i: int, mirrored: bool) -> tuple[float, float]:
        """Bottom-left corner (pt) of slot i; backs go to the mirrored column."""
        row, col = divmod(i, COLS)
        if mirrored:
            col = COLS - 1 - col
        return (x0 + col * CARD_W) * MM, (page_h - y0 - (row + 1) * CARD_H) * MM

    def place(draw: Callable[[], None], x: float, y: float) -> None:
        c.saveState()
        c.translate(x, y)
        draw()
        c.restoreState()

    def crop_marks(count: int, mirrored: bool = False) -> None:
        rows = math.ceil(count / COLS)
        cols = min(count, COLS)
        c.setStrokeColor(hex_color("#000000"))
        c.setLineWidth(0.2 * MM)
        top, bottom = page_h - y0, page_h - y0 - rows * CARD_H
        for i in range(cols + 1):  # vertical cut lines, marks above and below the grid
            x = page_w - x0 - i * CARD_W if mirrored else x0 + i * CARD_W
            c.line(x * MM, (top + 1) * MM, x * MM, (top + 5) * MM)
            c.line(x * MM, (bottom - 1) * MM, x * MM, (bottom - 5) * MM)
        for j in range(rows + 1):  # horizontal cut lines, marks left and right
            y = top - j * CARD_H
            c.line((x0 - 1) * MM, y * MM, (x0 - 5) * MM, y * MM)
            c.line((x0 + COLS * CARD_W + 1) * MM, y * MM, (x0 + COLS * CARD_W + 5) * MM, y * MM)

    per_page = COLS * ROWS
    pages = 0
    for start in range(0, len(cards), per_page):
        chunk = cards[start:start + per_page]
        for i, card in enumerate(chunk):
            place(lambda: front(c, card), *cell(i, mirrored=False))
        crop_marks(len(chunk))
        c.showPage()
        for i, _ in enumerate(chunk):
            place(lambda: draw_back(c), *cell(i, mirrored=True))
        crop_marks(len(chunk), mirrored=True)
        c.showPage()
        pages += 2
    c.save()
    return pages


# --- measuring ------------------------------------------------------------------------------------

def rss_mb(peak_kib: int) -> float:
    """ru_maxrss in MB (it is KiB on Linux, bytes on macOS)."""
    return peak_kib / (1024 * 1024) if sys.platform == "darwin" else peak_kib / 1024


@dataclass(frozen=True)
class Run:
    """One child process: CPU seconds (user + sys, its own and its waited-for children's), wall
    seconds, peak resident set size (MB, of the largest process in it) and what it printed."""
    cpu: float
    wall: float
    peak_mb: float
    stdout: str


def run_child(argv: Sequence[str], cwd: Path | None = None, generator: Path = GENERATOR) -> Run:
    """Run argv in a fresh process with this checkout's deckpress (or the one in `generator`) first
    on the path; exit on failure with what it printed, since a benchmark of a failed build means
    nothing."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(generator),
                                                                      os.environ.get("PYTHONPATH")]))}
    start = time.perf_counter()
    proc = subprocess.Popen(list(argv), cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    # read the pipes to their end (the child closes them as it exits), then reap it with wait4, which
    # gives that one child's resource usage, not the sum over every child this process ever had
    out, err = _drain(proc)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        sys.exit(f"{' '.join(map(str, argv))} failed ({proc.returncode}):\n{err}")
    return Run(usage.ru_utime + usage.ru_stime, wall, rss_mb(usage.ru_maxrss), out)


def _drain(proc: subprocess.Popen) -> tuple[str, str]:
    """Read stdout and stderr to their end without reaping the process (communicate() would)."""
    import threading
    err: list[str] = []
    reader = threading.Thread(target=lambda: err.append(proc.stderr.read()))
    reader.start()
    out = proc.stdout.read()
    reader.join()
    proc.stdout.close()
    proc.stderr.close()
    return out, err[0]
