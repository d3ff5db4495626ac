"""A document's pages as values: each sheet's plan where it is printed, with its furniture.

`furnish` turns the sheets of one file (plans with their labels) and the file's options into
`FurnishedPage`s: back pages moved by the back offset, each page's marks chosen (`page_marks`),
its furniture, label and page boxes worked out in millimetres. The PDF backend
(backends/pdfpages.py) draws them as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..face import Face
from .cutters import SILHOUETTE, CutterProfile
from .furniture import (LABEL_FONT, LABEL_SIZE, Furniture, Label, LabelSpot, label_at, label_spot, sheet_furniture,
                        text_widths)
from .sheets import Box, PagePlan, Placement, moved


@dataclass(frozen=True)
class Sheet:
    """One page to write: its plan, its label, and whether it is printed on the back of the
    page before it (a back page: duplex backs, the backs file)."""

    plan: PagePlan[Face]
    label: str
    back: bool = False


NO_SHIFT = (0.0, 0.0)


@dataclass(frozen=True)
class Marking:
    """How a file's sheets are marked for cutting and where its back pages go."""

    # marks.MARK_MODES; every mode but "none" adds a scale bar and a page label. Back pages are cut
    # from their fronts: they get the marks only with `back_marks` (crop marks in "cutter" mode: the
    # machine reads the registration marks on the front).
    marks: str = "corners"
    back_marks: bool = False
    # mm, (x right, y down) as seen looking at the back: every back page is shifted by it, to cancel
    # the printer's own misregistration (measured with `deckpress calibrate`, see settings.py)
    back_offset: tuple[float, float] = NO_SHIFT
    # the cutting machine a "cutter" file is marked and laid out for (cutters.CUTTERS, or a profile file)
    cutter: CutterProfile = SILHOUETTE
    # the separation each piece's cut path is stroked in, in an optional content group ("" none):
    # "CutContour", what print-and-cut RIPs look for (backends/pdfpages.py draws it)
    die_line: str = ""
    # the printer's profile (settings.Printer): what it makes of 100 % across and down the page (the
    # backend draws each page at 1/scale about its centre, so pieces print their own size); what it
    # cannot print, top, right, bottom, left (mm; None: units.PRINTABLE all round), which sheets are
    # laid out inside (`sheets.for_printer`); and the edge it turns a sheet over on for duplex
    scale: tuple[float, float] = (1.0, 1.0)
    margins: tuple[float, float, float, float] | None = None
    flip: str = "long"


@dataclass(frozen=True)
class DocInfo:
    title: str
    author: str
    subject: str
    duplex: bool = False  # ask viewers to print double-sided, flipping on the edge `marking.flip` says
    colors: str = "rgb"  # "cmyk" or "k" (black ink only): colours of any other kind are converted
    marking: Marking = field(default_factory=Marking)
    standard: str = ""  # a standard the file meets, for print shops that ask for one ("PDF/X-1a:2003")


@dataclass(frozen=True)
class FurnishedPage:
    """A sheet as it is printed. `furniture` is what many pages share (marks, fold line, tile
    marks, scale bar), `label` is this page's own; the page boxes are the pieces' trim and bleed
    clamped to the paper (None on a page without pieces). `shifted`: moved by the back offset."""

    plan: PagePlan[Face]
    furniture: tuple[Furniture, ...]
    label: Label | None
    trim_box: Box | None
    bleed_box: Box | None
    shifted: bool = False

    @property
    def paper(self) -> tuple[float, float]:
        return self.plan.paper


def furnish(sheets: Sequence[Sheet], info: DocInfo, bleed: float) -> list[FurnishedPage]:
    """The pages of one file, back pages moved by the back offset, each marked as `info` says.
    The scale bar keeps clear of the widest label, so pages of one layout share one furniture.

    Pages laid out alike (every full page of a grid) are alike in everything but their faces and
    their label's words: where they are moved to, their furniture, where their label goes and
    their page boxes are worked out once for all of them (`_Look`)."""
    widths = text_widths([s.label for s in sheets], LABEL_SIZE, LABEL_FONT)  # measured once, used twice
    label_room = max(widths) + 3.0
    looks: dict[tuple[object, ...], _Look] = {}
    pages = []
    for sheet, width in zip(sheets, widths):
        key = (sheet.back, layout_of(sheet.plan))
        look = looks.get(key)
        if look is None:
            look = looks[key] = _Look(sheet, info, bleed, label_room)
        plan = sheet.plan
        if look.moved is not None:  # the moved layout, with this page's faces
            faces = [p.face for p in plan.placements]
            plan = replace(look.moved, placements=tuple(Placement(faces[p.face], p.matrix, p.trim, p.clip)
                                                        for p in look.moved.placements))
        label = label_at(look.spot, sheet.label, width) if look.spot is not None else None
        pages.append(FurnishedPage(plan, look.furniture, label, look.trim_box, look.bleed_box,
                                   shifted=look.moved is not None))
    return pages


def layout_of(plan: PagePlan[Face]) -> tuple[object, ...]:
    """Everything about a page but the faces on it: pages with equal layouts are marked, moved and
    boxed alike."""
    return (plan.paper, plan.area, tuple([(p.matrix, p.trim, p.clip) for p in plan.placements]), plan.cut_xs,
            plan.cut_ys, plan.tile, plan.fold, plan.outlines, plan.blocks)


class _Look:
    """What a sheet's page is, faces and label words aside: the layout it is moved to (its faces
    replaced by their places in the sheet's placements; None when it stays), its furniture, where
    its label goes (None: no label), its page boxes."""

    def __init__(self, sheet: Sheet, info: DocInfo, bleed: float, label_room: float) -> None:
        plan = sheet.plan
        self.moved: PagePlan[int] | None = None
        if sheet.back:
            numbered = replace(plan, placements=tuple(Placement(i, p.matrix, p.trim, p.clip)
                                                      for i, p in enumerate(plan.placements)))
            shifted = moved(numbered, *info.marking.back_offset)
            if shifted is not numbered:
                self.moved = shifted
                plan = shifted  # type: ignore[assignment]  (only its geometry is read below)
        marks = page_marks(info, sheet.back)
        self.furniture: tuple[Furniture, ...] = ()
        self.spot: LabelSpot | None = None
        if info.marking.marks != "none":
            shift = info.marking.back_offset if self.moved is not None else NO_SHIFT
            self.furniture = sheet_furniture(plan, marks, bleed, label_room, shift, info.marking.cutter)
            self.spot = label_spot(plan, marks, bleed, label_room, info.marking.cutter)
        self.trim_box, self.bleed_box = (on_paper(plan.trim_box, plan.paper), on_paper(plan.bleed_box, plan.paper)) \
            if plan.placements else (None, None)


def page_marks(info: DocInfo, back: bool) -> str:
    """The marks a page carries: the file's, or on a back page none unless asked for."""
    marking = info.marking
    if not back:
        return marking.marks
    if not marking.back_marks:
        return "none"
    return "corners" if marking.marks == "cutter" else marking.marks


def on_paper(box: Box, paper: tuple[float, float]) -> Box:
    """`box` clamped to the paper, so page boxes stay nested even when a large back offset pushes
    a piece past its edge."""
    W, H = paper
    return (max(box[0], 0.0), max(box[1], 0.0), min(box[2], W), min(box[3], H))
