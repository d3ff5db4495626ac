"""A game factory's files (`--preset factory`): one PDF/X file per component, each card side a
page (front, then back, every copy), the trim and 3 mm of bleed with TrimBox and BleedBox, CMYK,
and each piece's cut path as a die line in a spot colour of its own.

PDF/X-4 by default: transparency stays live (no flattening), the die line is an optional content
group, and the press's output profile (`--icc`, the factory's) is embedded as its output intent,
which X-4 requires. `pdfx="1a"` writes PDF/X-1a:2003 instead, as DriveThruCards' file is: faces
with transparency flattened into pictures, the die line the separation alone (PDF 1.4 has no
optional content), the output intent SWOP's registered name unless a profile was given. Total ink
is the separation's: the formula's 200 %, under every factory's 280–300 %, or the profile's own
limit. docs/DECKS.md, "Print services", says where the numbers come from.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import DeckError, Warnings
from ..face import Face
from ..imposition.document import Marking
from ..outputs.sides import slug
from ..separation import FORMULA, Separation
from .faces import DeckFaces
from .flatten import FLATTEN_DPI, Flattener
from .jobs import PDF_X1A, PDF_X4, Job, deck_job, single_pages
from .plan import FACTORY, PDFX, Variant

FACTORY_BLEED = 3.0  #: mm on every side: what factories ask for (3–5 mm), and no more than the art needs
DIE_LINE = "CutContour"  #: the die line's separation unless `--die-line NAME` gives another


def factory_jobs(faces: DeckFaces, out_dir: Path, warn: Warnings, scratch: Path, separation: Separation = FORMULA,
                 pdfx: str = "4", die_line: str = "") -> list[Job]:
    """The factory files of a deck whose faces were composed with FACTORY_BLEED: one a component,
    `<id>-factory-<component>.pdf`, in the order the deck lists them."""
    if pdfx not in PDFX:
        raise DeckError(f"--pdfx is one of {', '.join(PDFX)}, not {pdfx!r}")
    standard = PDF_X4 if pdfx == "4" else PDF_X1A
    if standard == PDF_X4 and separation.output_intent() is None:
        raise DeckError("--preset factory writes PDF/X-4, which embeds the press's output profile: give the "
                        "factory's with --icc FILE, or write PDF/X-1a:2003 (SWOP named, no profile) with --pdfx 1a")
    deck = faces.deck
    inked = faces.inked(Variant.CMYK, separation)
    flat = Flattener(scratch)
    by_component: dict[str, list[Face]] = {}
    for entry in faces.entries:
        front, back = entry.front, entry.back
        if standard == PDF_X1A:  # PDF/X-4 keeps transparency as it is
            front, back = flat(front), flat(back)  # type: ignore[assignment]
        blank = Face(front.width, front.height, front.bleed, (), front.radius, front.outline)
        pair = [inked(front), inked(back, back=True) or blank]
        by_component.setdefault(entry.component, []).extend(pair * entry.copies)  # type: ignore[arg-type]
    if flat.done:
        count = len(flat.done)
        warn(f"{count} card side{'s' if count != 1 else ''} with transparency printed as "
             f"{'pictures' if count != 1 else 'a picture'} at {FLATTEN_DPI} dpi in the PDF/X-1a factory files, "
             "as PDF/X-1a allows no transparency (PDF/X-4, the default, keeps it)", kind="flattened")
    marking = Marking(marks="none", die_line=die_line or DIE_LINE)
    jobs = []
    for component, sides in by_component.items():
        first = sides[0]
        pages = single_pages(sides, first.width, first.height, FACTORY_BLEED)
        kind = f"{FACTORY}-{slug(component) or 'pieces'}"
        jobs.append(deck_job(deck, out_dir, None, Variant.CMYK, kind, pages, marking=marking, standard=standard))
    return jobs
