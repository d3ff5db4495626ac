#!/usr/bin/env python3
"""Benchmark: peak memory of `deckpress impose` against img2pdf, for 1,000 distinct JPEGs.

    python benchmarks/impose_memory.py               # 1,000 pictures
    python benchmarks/impose_memory.py --count 200

The pictures (750 × 1050 px, a poker card at 300 dpi without bleed, quality 85, seeded: the same
files every run) are written to a temporary folder. Each tool runs in its own subprocess, whose
peak RSS (`ru_maxrss`) and CPU (user + sys) are printed with deckpress's ratio to img2pdf; the
target is a ratio of at most 1.5. img2pdf is a benchmark-only tool (`pip install img2pdf`), not a
dependency of deckpress. deckpress writes its default files (A4 and Letter sheets, fronts only),
each embedding every JPEG byte for byte, as img2pdf does.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parent.parent
SIZE = (750, 1050)


def write_pictures(folder: Path, count: int) -> int:
    """`count` distinct JPEGs, coloured discs over a little noise; returns their bytes."""
    rng = random.Random(18)
    noise = Image.effect_noise(SIZE, 40).convert("RGB")
    folder.mkdir()
    for i in range(count):
        im = Image.new("RGB", SIZE, tuple(rng.randrange(256) for _ in range(3)))
        draw = ImageDraw.Draw(im)
        for _ in range(40):
            x, y, r = rng.randrange(SIZE[0]), rng.randrange(SIZE[1]), rng.randrange(20, 200)
            draw.ellipse((x - r, y - r, x + r, y + r), fill=tuple(rng.randrange(256) for _ in range(3)))
        Image.blend(im, noise.rotate(180 * (i % 2)), 0.15).save(folder / f"card{i:04d}.jpg", quality=85)
    return sum(p.stat().st_size for p in folder.iterdir())


def measure(command: list[str]) -> tuple[float, float]:
    """Peak RSS in MB and CPU seconds of `command`, run in a fresh process that measures only it."""
    probe = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL);"
             "r = resource.getrusage(resource.RUSAGE_CHILDREN); print(r.ru_maxrss, r.ru_utime + r.ru_stime)")
    out = subprocess.run([sys.executable, "-c", probe, *command], check=True, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT / "generator")}).stdout.split()
    return int(out[0]) / 1024, float(out[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=1000)
    args = parser.parse_args()
    if shutil.which("img2pdf") is None:
        sys.exit("img2pdf is not installed: pip install img2pdf (benchmark only)")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        total = write_pictures(work / "jpegs", args.count)
        pictures = sorted(str(p) for p in (work / "jpegs").iterdir())
        img2pdf = measure(["img2pdf", *pictures, "-o", str(work / "img2pdf.pdf")])
        deckpress = measure([sys.executable, "-m", "deckpress", "impose", str(work / "jpegs"), "--bleed", "0",
                             "--out", str(work / "out")])
    print(f"{args.count} JPEGs, {total / 2**20:.0f} MB")
    print(f"{'tool':<20}{'peak RSS':>12}{'CPU':>10}")
    for name, (peak, cpu) in (("img2pdf", img2pdf), ("deckpress impose", deckpress)):
        print(f"{name:<20}{peak:>9.0f} MB{cpu:>9.2f}s")
    ratio = deckpress[0] / img2pdf[0]
    print(f"peak ratio deckpress / img2pdf: {ratio:.2f} (target ≤ 1.5: {'met' if ratio <= 1.5 else 'NOT met'})")


if __name__ == "__main__":
    main()
