"""A document's pages as values: each sheet's plan where it is printed, with its furniture.

`furnish` turns the sheets of one file (plans with their labels) and the file's options into
`FurnishedPage`s: back pages moved by the back offset, each page's marks chosen (`page_marks`),
its furniture, label and page boxes worked out in millimetres. The PDF backend
(backends/pdfpages.py) draws them as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..face import Face
from .furniture import LABEL_FONT, LABEL_SIZE, Furniture, Label, page_label, sheet_furniture, text_width
from .sheets import Box, PagePlan, moved


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


@dataclass(frozen=True)
class DocInfo:
    title: str
    author: str
    subject: str
    duplex: bool = False  # ask viewers to print double-sided, flipping on the long edge
    colors: str = "rgb"  # "cmyk" or "k" (black ink only): colours of any other kind are converted
    marking: Marking = field(default_factory=Marking)


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
    The scale bar keeps clear of the widest label, so pages of one layout share one furniture."""
    widths = [text_width(s.label, LABEL_SIZE, LABEL_FONT) for s in sheets]  # measured once, used twice
    label_room = max(widths) + 3.0
    pages = []
    for sheet, width in zip(sheets, widths):
        plan = moved(sheet.plan, *info.marking.back_offset) if sheet.back else sheet.plan
        marks = page_marks(info, sheet.back)
        furniture: tuple[Furniture, ...] = ()
        label = None
        if info.marking.marks != "none":
            furniture = sheet_furniture(plan, marks, bleed, label_room)
            label = page_label(plan, marks, sheet.label, width, bleed)
        boxes = (on_paper(plan.trim_box, plan.paper), on_paper(plan.bleed_box, plan.paper)) \
            if plan.placements else (None, None)
        pages.append(FurnishedPage(plan, furniture, label, *boxes, shifted=plan is not sheet.plan))
    return pages


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
