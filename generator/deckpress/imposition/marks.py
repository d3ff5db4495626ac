"""How the pieces on a sheet are marked for cutting, and the room each way needs.

    corners  crop marks outside the trim, on every cut line (scissors, a craft knife)
    lines    the cut lines drawn right out to the paper's edge (a paper trimmer's guide)
    none     nothing at all, no scale bar or label either (print shops add their own)
    cutter   registration marks for a cutting machine, and an SVG of the exact cut paths
             (`cutpaths.py`, written by backends/svg.py); the machine finds the marks and cuts every piece out

The registration marks, the area the pieces go in and the cut files are a cutting machine's own
(`cutters.py`: Silhouette type 1 by default, Silhouette's four-mark layout, Cricut, ScanNCut, or a
profile file). The machine's sensor reads the marks against plain paper, so nothing of a piece is
printed near them: pieces stay inside the marks, with at most the profile's bleed.

All in millimetres, y down from the page's top-left corner.
"""

from __future__ import annotations

from .cutters import REG_CLEAR, SILHOUETTE, SQUARE_CLEAR, CutterProfile
from .sheets import MIN_MARGIN, TILE_MARGIN, Box, Room

MARK_MODES = ("corners", "lines", "none", "cutter")

# Silhouette type 1 at Studio's defaults (the `silhouette` profile), by name for what measures it
REG_INSET = SILHOUETTE.inset  #: from the paper's edges to the marks' outer edges
REG_LENGTH = SILHOUETTE.length  #: of each arm of an L
REG_THICKNESS = SILHOUETTE.thickness
REG_SQUARE = SILHOUETTE.square  #: side of the top-left square
CUTTER_BLEED = SILHOUETTE.bleed  #: a cutting machine cuts within about 0.5 mm: this much bleed is plenty


def registration_marks(paper_w: float, paper_h: float, cutter: CutterProfile = SILHOUETTE) -> list[Box]:
    """The filled rectangles of the registration marks on a page."""
    return cutter.registration_marks(paper_w, paper_h)


def room_for(mode: str, cutter: CutterProfile = SILHOUETTE, paper: tuple[float, float] = (210.0, 297.0)) -> Room:
    """Where pieces may go on a sheet marked `mode`. Cutter sheets keep every piece inside the
    cutter's area (`CutterProfile.room`: inside its marks, its bleed clear of them)."""
    if mode not in MARK_MODES:
        raise ValueError(f"marks must be one of {', '.join(MARK_MODES)}, not {mode!r}")
    if mode == "none":
        return Room(MIN_MARGIN, TILE_MARGIN, mark_reach=0.0, least_reach=0.0)
    if mode != "cutter":
        return Room(MIN_MARGIN, TILE_MARGIN)
    return cutter.room(paper)


def cutter_band(paper_w: float, paper_h: float, cutter: CutterProfile = SILHOUETTE) -> Box:
    """Where a cutter sheet's scale bar and label go: the strip between the paper's printable edge
    and the marks (or the cutter's area) along the bottom, clear of the marks."""
    return cutter.band(paper_w, paper_h)
