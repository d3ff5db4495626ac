"""How the pieces on a sheet are marked for cutting, and the room each way needs.

    corners  crop marks outside the trim, on every cut line (scissors, a craft knife)
    lines    the cut lines drawn right out to the paper's edge (a paper trimmer's guide)
    none     nothing at all, no scale bar or label either (print shops add their own)
    cutter   registration marks for a cutting machine, and an SVG of the exact cut paths
             (`cutpaths.py`, written by backends/svg.py); the machine finds the marks and cuts every piece out

The registration marks are Silhouette Studio's "type 1" at its defaults: a filled square in the
top-left corner and L-shaped corners top right and bottom left, 10 mm in from the edges (Studio's
least inset), 20 mm long and 0.5 mm thick. Studio must be set alike for the cut to land on the
print; the README says how. The machine's sensor reads the marks against plain paper, so nothing
of a piece is printed near them: pieces stay inside the marks, with 1 mm of bleed.

All in millimetres, y down from the page's top-left corner.
"""

from __future__ import annotations

from .sheets import MIN_MARGIN, TILE_MARGIN, Box, Room

MARK_MODES = ("corners", "lines", "none", "cutter")

REG_INSET = 10.0  #: from the paper's edges to the marks' outer edges
REG_LENGTH = 20.0  #: of each arm of an L
REG_THICKNESS = 0.5
REG_SQUARE = 5.0  #: side of the top-left square
REG_CLEAR = 1.0  #: plain paper between the marks and any piece's bleed
SQUARE_CLEAR = 3.0  #: and round the square, where the sensor starts looking
BAND_CLEAR = 10.0  #: the scale bar keeps this far from the end of the bottom-left L, so the sensor sees only the L
CUTTER_BLEED = 1.0  #: a cutting machine cuts within about 0.5 mm: this much bleed is plenty, and keeps
                    #: the pieces' ink further from the marks
CUTTER_TILE_MARGIN = 21.0  #: a tile's name and alignment marks then lie inside the marks too


def registration_marks(paper_w: float, paper_h: float) -> list[Box]:
    """The filled rectangles of the registration marks on a page."""
    i, n, t, s = REG_INSET, REG_LENGTH, REG_THICKNESS, REG_SQUARE
    right, bottom = paper_w - i, paper_h - i
    return [
        (i, i, i + s, i + s),  # top left: the square
        (right - n, i, right, i + t), (right - t, i, right, i + n),  # top right: ⌝
        (i, bottom - t, i + n, bottom), (i, bottom - n, i + t, bottom),  # bottom left: ⌞
    ]


def room_for(mode: str) -> Room:
    """Where pieces may go on a sheet marked `mode`. Cutter sheets keep every piece inside the
    registration marks, clear of them by REG_CLEAR (SQUARE_CLEAR round the square), printing
    CUTTER_BLEED of bleed."""
    if mode not in MARK_MODES:
        raise ValueError(f"marks must be one of {', '.join(MARK_MODES)}, not {mode!r}")
    if mode == "none":
        return Room(MIN_MARGIN, TILE_MARGIN, mark_reach=0.0, least_reach=0.0)
    if mode != "cutter":
        return Room(MIN_MARGIN, TILE_MARGIN)
    inner = REG_INSET + REG_THICKNESS + REG_CLEAR  # the bleed stops here
    square = REG_INSET + REG_SQUARE + SQUARE_CLEAR
    return Room(margin=inner + CUTTER_BLEED, tile_margin=CUTTER_TILE_MARGIN,
                keep_out=((0.0, 0.0, square, square),), furniture=0.0, max_bleed=CUTTER_BLEED,
                mark_reach=0.0, least_reach=0.0)  # the registration marks are further in than any crop mark


def cutter_band(paper_w: float, paper_h: float) -> Box:
    """Where a cutter sheet's scale bar and label go: the strip between the paper's printable edge
    and the marks along the bottom, right of the bottom-left L (no mark is bottom right)."""
    return (REG_INSET + REG_LENGTH + BAND_CLEAR, paper_h - REG_INSET + REG_CLEAR,
            paper_w - REG_INSET, paper_h - MIN_MARGIN)
