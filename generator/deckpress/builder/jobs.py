"""Pages laid out and PDF files written: the build layer's one door to `imposition/` and the page writers.

Every call into imposition (grids, gutterfold sheets, single pages, cut-out pieces, page furniture,
the calibration sheet) and into the backends that draw pages (`backends.pdfpages`, the cut files of
`backends.svg`) is in this module, so the rest of the build layer speaks of faces, pages and files.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple

from ..backends.pdf import FaceForms
from ..backends.pdfpages import PDF_X1A, PDF_X4, learn_glyphs, write_document
from ..face import Face, PathOp, transform_path, translation
from ..imposition.calibration import calibration_info, calibration_pages
from ..imposition.cutters import SILHOUETTE, CutterProfile
from ..imposition.document import NO_SHIFT, DocInfo, Marking, Sheet, furnish
from ..imposition.gutterfold import plan_gutterfold
from ..imposition.marks import room_for
from ..imposition.packing import plan_packed
from ..imposition.sheets import Edges, PagePlan, for_printer, plan_piece, plan_sheets, plan_single, text_boxes
from ..model import Deck
from ..separation import FORMULA, Separation
from ..units import paper_size
from .faces import Sides
from .plan import Output, Variant, deck_folder, pdf_name, printed_title


class Page(NamedTuple):
    """A page of a file before it is labelled: its plan, a note for its label, and whether it is
    the back of another page."""

    plan: PagePlan[Face]
    note: str = ""
    back: bool = False


Pages = list[Page]


@dataclass
class Job:
    """One PDF to write."""

    path: Path
    sheets: list[Sheet]
    info: DocInfo


def pdf_job(path: Path, pages: Pages, owner: str, kind: str, *, author: str = "", subject: str,
            duplex: bool = False, colors: str = "rgb", marking: Marking = Marking(), standard: str = "",
            version: str = "") -> Job:
    """The PDF at `path`: its title says whose (`owner`, a deck's title or a set of images) and
    what kind of file; each page is labelled with both, and with the deck's `version` when it has
    one. Files without back pages keep no shift, so their info says none."""
    if not any(page.back for page in pages):
        marking = replace(marking, back_offset=NO_SHIFT)
    info = DocInfo(title=f"{owner} — {kind.replace('-', ' ')}", author=author, subject=subject, duplex=duplex,
                   colors=colors, marking=marking, standard=standard)
    return Job(path, labelled(pages, f"{owner} · version {version}" if version else owner, path.name), info)


def deck_job(deck: Deck, out_dir: Path, paper: str | None, variant: Variant, kind: str, pages: Pages,
             duplex: bool = False, marking: Marking = Marking(), standard: str = "") -> Job:
    """One of a deck's PDFs (named as `plan.pdf_name` says), in the language it is printed in."""
    title = printed_title(deck)
    designer, licence = deck.name(deck.designer), deck.name(deck.license)
    version = f" (version {deck.version})" if deck.version else ""
    return pdf_job(deck_folder(out_dir, deck) / pdf_name(deck, kind, paper, variant), pages, title, kind,
                   author=designer, subject=f"{title}{version} by {designer}, {licence}. Made with deckpress.",
                   duplex=duplex, colors=variant.colors, marking=marking, standard=standard, version=deck.version)


def labelled(pages: Pages, title: str, file_name: str) -> list[Sheet]:
    """Each page with the label printed in its margin: what it belongs to, which file, which page."""
    n = len(pages)
    return [Sheet(page.plan, f"{title} · {file_name} · page {i}/{n}" + (f" · {page.note}" if page.note else ""),
                  page.back) for i, page in enumerate(pages, start=1)]


def sheet_files(sheet: str, sides: Sides, paper: str, bleed: float,
                marks: str = "corners", gap: float = 0.0,
                cutter: CutterProfile = SILHOUETTE, margins: Edges | None = None,
                flip: str = "long", designs: Sequence[Hashable] = ()) -> list[tuple[str, Pages, bool]]:
    """The files of one sheet kind: (kind, pages, duplex?), laid out for `marks`, cards `gap` mm apart
    (on a cutter sheet, inside `cutter`'s area, at least its gap apart); butted, each back design
    (`designs`, parallel to `sides`) on pages of its own.

    Cards give fronts, backs and an interleaved duplex file; rules and boards one file, interleaved
    with their backs if they have any, their pieces of several sizes sharing pages where they fit
    and a board too big for the paper tiled with its seams off its words. All inside the printer's
    `margins` (top, right, bottom, left; None: units.PRINTABLE), backs mirrored for its `flip`."""
    if not sides:
        return []
    room = for_printer(room_for(marks, cutter, paper_size(paper)), margins, flip)
    if marks == "cutter":
        gap = max(gap, cutter.gap)
    if sheet == "rules-board":  # pieces of several sizes: the last few of one share a page with others
        fronts, backs = plan_packed(sides, _size, paper, bleed, room, text_boxes)
        return [("rules-board", _interleave(fronts, backs) if backs else [Page(p) for p in fronts], bool(backs))]
    fronts, backs = plan_sheets(sides, _size, paper, bleed, room, text_boxes, gap, _outline, designs)
    files = [("cards", [Page(p) for p in fronts], False)]
    if backs:
        files.append(("backs", [Page(p, f"backs of page {i}", True) for i, p in enumerate(backs, start=1)], False))
        files.append(("duplex", _interleave(fronts, backs), True))
    return files


def fold_pages(sides: Sides, paper: str, bleed: float, margins: Edges | None = None) -> Pages:
    """Gutterfold sheets: each piece's front and back either side of a fold line, inside the
    printer's `margins`."""
    return [Page(p) for p in plan_gutterfold(sides, _size, paper, bleed, margins)]


def single_pages(faces: Sequence[Face], width: float, height: float, bleed: float) -> Pages:
    """One face a page, the page being the trim and the bleed (a print service's card file). A
    shaped piece (a face with an outline) is cut along its outline, which its page's die line draws."""
    pages = []
    for face in faces:
        plan = plan_single(face, width, height, bleed)
        if face.outline:
            plan = replace(plan, outlines=(transform_path(face.outline, translation(bleed, bleed)),))
        pages.append(Page(plan))
    return pages


def piece_page(face: Face, outline: tuple[PathOp, ...], paper: str, marks: str,
               cutter: CutterProfile = SILHOUETTE, margins: Edges | None = None) -> PagePlan[Face] | None:
    """A cut-out piece (a tuck box net) alone on a page, its outline the cut line, inside the
    printer's `margins`; None if it does not fit the paper."""
    room = for_printer(room_for(marks, cutter, paper_size(paper)), margins)
    return plan_piece(face, face.width, face.height, paper, outline, room)


def _size(face: Face) -> tuple[float, float]:
    return (face.width, face.height)


def _outline(face: Face) -> tuple[PathOp, ...]:
    """A shaped piece's cut line (face mm): packed tightly, cut along it."""
    return face.outline


def _interleave(fronts: list[PagePlan[Face]], backs: list[PagePlan[Face]]) -> Pages:
    pages: Pages = []
    for i, (front, back) in enumerate(zip(fronts, backs), start=1):
        pages += [Page(front, f"fronts {i}"), Page(back, f"backs {i}", True)]
    return pages


def write_jobs(jobs: Sequence[Job], bleed: float, progress: Callable[[int], None] | None = None,
               on_plan: Callable[[int], None] | None = None, separation: Separation = FORMULA) -> list[Output]:
    """Write the PDFs one by one, each face drawn once for all of them, CMYK pictures separated by
    `separation`; `on_plan` hears the number of pages to come, `progress` each page."""
    if on_plan:
        on_plan(sum(len(j.sheets) for j in jobs))
    outputs = []
    forms = FaceForms(separation=separation)
    learn_glyphs(forms, (sheet for job in jobs for sheet in job.sheets))
    for job in jobs:
        write_document(job.path, furnish(job.sheets, job.info, bleed), job.info, progress, forms)
        outputs.append(Output(job.path, len(job.sheets)))
        if job.info.marking.marks == "cutter":
            outputs += [Output(path, 0) for path in write_cut_files(job)]
    return outputs


def write_cut_files(job: Job) -> list[Path]:
    """The cut files of every front page of a cutter file, in `cut/` beside it, in each format
    its cutter's software imports (`CutterProfile.formats`): `<pdf name>-p<page>.svg`, `.dxf`,
    `.png`, the page being the PDF's (a duplex file's are odd). A cutter with an image area of its
    own (Cricut) gets files of that area, the rest files of the whole page."""
    # here: svgwrite and font subsetting cost a build without cut files time
    from ..backends.cutfiles import write_cut_image, write_dxf
    from ..backends.svg import write_cut_file

    cutter = job.info.marking.cutter
    folder = job.path.parent / "cut"
    written: list[Path] = []
    for n, sheet in enumerate(job.sheets, start=1):
        if sheet.back or not sheet.plan.placements:
            continue
        stem = folder / f"{job.path.stem}-p{n}"
        area = cutter.image_area(*sheet.plan.paper) if cutter.area is not None else None
        note = cutter.describe()
        if "svg" in cutter.formats:
            written.append(write_cut_file(stem.with_suffix(".svg"), sheet.plan, sheet.label, note, area))
        if "dxf" in cutter.formats:
            written.append(write_dxf(stem.with_suffix(".dxf"), sheet.plan, sheet.label, area))
        if "png" in cutter.formats:
            written.append(write_cut_image(stem.with_suffix(".png"), job.path, n, sheet.plan, area))
    return written


def write_calibration_sheet(path: Path, paper: str, back_offset: tuple[float, float] = NO_SHIFT,
                            flip: str = "long") -> Path:
    """The two-page sheet that measures a printer's scale and back offset (see imposition/calibration.py),
    its back mirrored for a `flip` on the long or the short edge."""
    write_document(path, calibration_pages(paper, back_offset, flip), calibration_info(paper, flip))
    return path
