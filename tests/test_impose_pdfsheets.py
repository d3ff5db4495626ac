"""The furniture every sheet carries: a true 50 mm scale bar and a page label that stay clear of
each other on every page, whatever is on it (a card grid, a few pawns, a board, one tile)."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from generator.build import build_deck

from .pdfread import path_boxes, text_lines

# pages that stress the bar's placement: cards, boards on their own page, a part-filled grid of
# narrow pawns, tiles of a board bigger than the paper
SAMPLES = ("metronome", "test-piece", "circle-of-5")


@pytest.fixture(scope="module")
def sheets(tmp_path_factory):
    out = tmp_path_factory.mktemp("furniture")
    files = []
    for deck in SAMPLES:
        for o in build_deck(deck, out, inks=("color",)).outputs:
            if "duplex" not in o.path.name:
                files.append(o.path)
    return files


def bar_blocks(path, index: int) -> list[tuple[float, float, float, float]]:
    """The scale bar's 10 mm blocks on a page, as (left, top, right, bottom) in mm, strokes included."""

    def block(w: float, h: float) -> bool:
        return abs(w - 10.3) < 0.1 and abs(h - 1.5) < 0.1

    return [b for b in path_boxes(path, index) if block(b[2] - b[0], b[3] - b[1]) or block(b[3] - b[1], b[2] - b[0])]


def overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def pages(files):
    for path in files:
        n = len(pdfium.PdfDocument(str(path)))
        for i in range(n):
            yield path, i


def test_every_page_has_one_scale_bar_exactly_50_mm_long(sheets):
    for path, i in pages(sheets):
        blocks = bar_blocks(path, i)
        assert len(blocks) == 5, (path.name, i, blocks)
        x0, y0 = min(b[0] for b in blocks), min(b[1] for b in blocks)
        x1, y1 = max(b[2] for b in blocks), max(b[3] for b in blocks)
        stroke = 2 * 0.15  # pdfium's bounds reach a full line width (0.15 mm) past each edge
        assert max(x1 - x0, y1 - y0) - stroke == pytest.approx(50.0, abs=0.01), (path.name, i)


def test_bar_caption_and_page_label_keep_clear_of_each_other(sheets):
    for path, i in pages(sheets):
        lines = text_lines(path, i)
        caption = [box for text, box in lines if "50 mm — print" in text]
        label = [box for text, box in lines if f"{path.name} · page {i + 1}/" in text]
        assert len(caption) == 1 and len(label) == 1, (path.name, i, lines[-3:])
        bar = bar_blocks(path, i)
        bar_box = (min(b[0] for b in bar), min(b[1] for b in bar), max(b[2] for b in bar), max(b[3] for b in bar))
        assert not overlap(caption[0], label[0]), (path.name, i)
        assert not overlap(bar_box, label[0]), (path.name, i)
