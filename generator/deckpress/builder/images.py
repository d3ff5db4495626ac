"""Ready-made card images on the deck build's sheets: `deckpress impose`.

Each image becomes a face of the card size whose one `Image` covers the trim and the bleed (the
image is taken to include the bleed), so the pictures go through the same imposition as a deck:
the same grids, crop marks, page boxes, mirrored backs and file kinds (see `jobs.sheet_files`).
Images that stop at the trim are given a bleed they lack (`make_bleed`): each covers the trim,
and is mirrored about its edges into the bleed (`face.grown_into_bleed`, as `bleed: mirror` on a
deck's picture), the copies placing the one picture again.
Pictures are PNG, JPEG, WebP, TIFF, GIF, BMP or PSD (imagefile.RASTER_FORMATS: a GIF's first frame,
a PSD's composite), SVG, or PDF, whose every page is a card (vector, placed as a deck's art is). The PDF backend embeds a JPEG's bytes as they are (a DCTDecode stream) and
decodes the others once: nothing is encoded twice, however often a picture is placed.

Files are named like a deck's: `<out>/<name>/<name>-cards-<paper>.pdf`, `-backs-`, `-duplex-`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from PIL import Image as PILImage

from ..atomic import replacing_folder
from ..errors import DeckError, Warnings, display_path, suggest
from ..face import Face, Image, grown_into_bleed
from ..imagefile import RASTER_KINDS, PictureError, Resolution, exif_rotation, raster_pixels
from ..errors import ArtError
from ..vectorart import is_pdf, is_vector, load_art
from ..imposition.cutters import SILHOUETTE, CutterProfile
from ..imposition.document import Marking
from ..model.deck import CARD_SIZES, parse_card_size
from ..model.keys import MAX_CARDS, MAX_COUNT
from ..units import HOME_PAPERS, parse_mm
from .faces import Sides
from .jobs import pdf_job, sheet_files, write_jobs
from .plan import Output

VECTOR = {".svg", ".pdf"}  #: vector art: an SVG, or a PDF whose every page is a card
KINDS = RASTER_KINDS.replace(" or ", ", ") + ", SVG or PDF"  #: what impose takes, as said in messages
MAX_BLEED = 10.0  #: mm: print services ask 3 mm (1/8 in), a few 5 mm; more is a mistake, not a bleed
COMMON_BLEEDS = (3.0, 3.175)  #: mm: the bleeds print services ask for, 3 mm and 1/8 in, told by proportions
ASPECT_TOLERANCE = 0.01  #: a picture stretched by less than 1 % looks right
_COPIES = re.compile(r"(.+?)[ _-]x(\d+)")  # "goblin x3", "goblin_x3", "goblin-x3": three copies


@dataclass
class Imposed:
    outputs: list[Output]
    cards: int
    images: int
    warnings: Warnings = field(default_factory=Warnings)


def card_size(spec: str) -> tuple[float, float]:
    """Trim width and height in mm of a preset (`poker`) or of `WIDTHxHEIGHT` (`63x88`, `2.5inx3.5in`),
    read as a deck's `card` is."""
    try:
        size = parse_card_size(spec)
    except ValueError as exc:
        raise DeckError(str(exc), suggestion=suggest(spec, CARD_SIZES)) from None
    return size.width, size.height


def parse_bleed(text: str) -> float:
    """The bleed in mm from a length like `3mm` or `0.125in`; `0` for none."""
    try:
        bleed = parse_mm(text, "bleed")
    except ValueError as exc:
        raise DeckError(f"bleed: {exc}") from None
    if bleed < 0:
        raise DeckError(f"bleed '{text}' cannot be negative")
    if bleed > MAX_BLEED:
        raise DeckError(f"bleed '{text}' is {bleed:g} mm: at most {MAX_BLEED:g} mm (print services ask 3 mm)")
    return bleed


def natural_key(path: Path) -> tuple:
    """Sort key that reads digit runs as numbers, so card2 comes before card10."""
    parts = re.split(r"(\d+)", path.name.casefold())
    return tuple(int(p) if p.isdigit() else p for p in parts), path.name


def image_files(paths: Sequence[Path]) -> list[Path]:
    """The pictures named: files as given, in order; a folder's pictures sorted naturally by name.

    A folder gives every file Pillow would open (an .ico among them is then an error rather than a
    card quietly left out); hidden files and anything else are passed over.
    """
    readable = {ext for ext, fmt in PILImage.registered_extensions().items() if fmt in PILImage.OPEN} | VECTOR
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            inside = sorted((p for p in path.iterdir() if p.is_file() and not p.name.startswith(".")
                             and p.suffix.lower() in readable), key=natural_key)
            if not inside:
                raise DeckError(f"no pictures in this folder ({KINDS})", path)
            found += inside
        elif path.is_file():
            found.append(path)
        else:
            raise DeckError("no such file or folder", path)
    return found


@dataclass(frozen=True)
class Card:
    """One card image: a picture file, or a page of a PDF of them (`page`)."""

    path: Path
    page: int = 1
    pages: int = 1  # how many pages its file has

    @property
    def name(self) -> str:
        """What it is known by, to match a back to it: a file's name, a PDF's name and page."""
        known_as = copies(self.path)[0]
        return f"{known_as}-{self.page}" if self.pages > 1 else known_as


def cards(paths: Sequence[Path]) -> list[Card]:
    """Each picture a card; each page of a PDF a card (a designer's whole deck exported as one PDF)."""
    found = []
    for path in paths:
        count = pdf_pages(path) if is_pdf(path) else 1
        found += [Card(path, page, count) for page in range(1, count + 1)]
    return found


def pdf_pages(path: Path) -> int:
    """A PDF's page count, or DeckError naming it."""
    import pikepdf

    try:
        with pikepdf.open(path) as pdf:
            return len(pdf.pages)
    except pikepdf.PasswordError:
        raise DeckError("is a PDF locked with a password: export it without one", path) from None
    except pikepdf.PdfError as exc:
        raise DeckError(f"is not a PDF that can be read: {str(exc).strip().splitlines()[0] if str(exc) else exc}",
                        path) from None


def copies(path: Path) -> tuple[str, int]:
    """The name a picture is known by and how many cards it makes: `goblin x3.png` -> ('goblin', 3).
    At most MAX_COUNT, as a deck's `count`: `x1000000000` would list a billion cards."""
    m = _COPIES.fullmatch(path.stem)
    if m and int(m.group(2)) > 0:
        n = int(m.group(2))
        if n > MAX_COUNT:
            raise DeckError(f"x{n} in the file name is {n:,} copies, too many: one card is printed at most "
                            f"{MAX_COUNT:,} times", path)
        return m.group(1), n
    return path.stem, 1


def _backs_by_name(folder: Path) -> dict[str, Card]:
    backs: dict[str, Card] = {}
    for card in cards(image_files([folder])):
        name = card.name  # a back named like its front, copy count and all, still matches
        if name in backs:
            raise DeckError(f"two backs are named '{name}': {backs[name].path.name} and {card.path.name}", folder)
        backs[name] = card
    return backs


def check_image(path: Path, trim: tuple[float, float], bleed: float, warn: Warnings,
                made: float | None = None, page: int = 1) -> None:
    """Refuse what cannot be imposed as it is; warn about what will print badly. The image is taken
    to include `bleed` mm on every side, or, when the bleed is `made` (that many mm), to stop at the
    trim; its proportions say when it looks otherwise (`no-bleed`, `has-bleed`)."""
    if not path.is_file():
        raise DeckError("no such file", path)
    try:
        if is_vector(path):  # drawn whole here: a broken SVG or PDF is said before anything is written
            art = load_art(str(path), page=page)
            px_w, px_h, orientation = art.size[0], art.size[1], 1
            unit = 25.4 / (72 if is_pdf(path) else 96)  # a PDF's page is in points, an SVG in CSS px
            shown = f"{f'page {page}' if is_pdf(path) else 'the picture'}, {px_w * unit:.1f}×{px_h * unit:.1f} mm,"
        else:
            px_w, px_h = raster_pixels(str(path))  # within the bound and whole, or said here, never mid-write
            orientation = exif_rotation(str(path))
            shown = f"{px_w}×{px_h} px"
    except ArtError as exc:
        raise DeckError(exc.reason, path) from None
    except PictureError as exc:
        why = f"cannot read this as an image; impose takes {KINDS}" if exc.unreadable else exc.reason
        raise DeckError(why, path) from None
    if orientation != 1:  # PDF draws the pixels as stored and knows nothing of EXIF
        warn(f"has an EXIF rotation (orientation {orientation}) that PDF ignores: it prints as stored; "
             "save it upright", path, kind="exif-rotation")
    has = 0.0 if made is not None else bleed  # the bleed the image is taken to include
    w, h = trim[0] + 2 * has, trim[1] + 2 * has
    off = (px_w / px_h) / (w / h) - 1
    if abs(off) > ASPECT_TOLERANCE:
        bled = _bleed_of((px_w, px_h), trim, made) if not has else None
        if has and abs((px_w / px_h) / (trim[0] / trim[1]) - 1) <= ASPECT_TOLERANCE:
            warn(f"{shown} has the proportions of the trim: looks like it has no bleed; "
                 f"use --make-bleed {_length(has)} to make it (or --bleed 0 to print it without)", path,
                 kind="no-bleed")
        elif bled is not None:
            said = "1/8 in" if _length(bled) == "0.125in" else f"{bled:g} mm"
            warn(f"{shown} has the proportions of the card with {said} of bleed: looks like "
                 f"it has bleed already; use --bleed {_length(bled)}"
                 f"{' instead of --make-bleed' if made is not None else ''}", path, kind="has-bleed")
        elif (px_w > px_h) != (w > h) and px_w != px_h and w != h:
            turned = "x".join(f"{v:g}" for v in reversed(trim))
            warn(f"{shown} is {'landscape' if px_w > px_h else 'portrait'} but the card is not: "
                 f"turn the picture, or use --size {turned}", path, kind="turned")
        else:
            warn(f"{shown} is {abs(off):.1%} {'wider' if off > 0 else 'narrower'} than a "
                 f"{w:g}×{h:g} mm card with bleed: it will be {'squeezed' if off > 0 else 'stretched'} to fit",
                 path, kind="proportions")
    resolution = Resolution((round(px_w), round(px_h)), (w, h))
    if not is_vector(path) and not resolution.sharp:  # (vector art's own pictures are the deck build's to say)
        warn(f"is {resolution}", path, kind="low-resolution")


def _bleed_of(pixels: tuple[int, int], trim: tuple[float, float], made: float | None) -> float | None:
    """The bleed whose card the proportions of a picture of `pixels` match: the one being made, else
    3 mm, else 1/8 in (the two are within a pixel's rounding of each other on most cards, so the
    first that matches is said, not the closest); None when none does."""
    ratio = pixels[0] / pixels[1]
    return next((b for b in dict.fromkeys([*([made] if made else []), *COMMON_BLEEDS])
                 if abs(ratio / ((trim[0] + 2 * b) / (trim[1] + 2 * b)) - 1) <= ASPECT_TOLERANCE), None)


def _length(mm: float) -> str:
    """A bleed as the command line takes it: 3mm, 0.125in."""
    return "0.125in" if abs(mm - 25.4 / 8) < 1e-6 else f"{mm:g}mm"


def impose_images(fronts: Sequence[Path], out_dir: Path, *, name: str = "imposed", back: Path | None = None,
                  backs_dir: Path | None = None, size: tuple[float, float] = (63.5, 88.9), bleed: float = 3.0,
                  papers: Sequence[str] = HOME_PAPERS, progress: Callable[[int], None] | None = None,
                  on_plan: Callable[[int], None] | None = None,
                  back_offset: tuple[float, float] = (0.0, 0.0), marks: str = "corners",
                  back_marks: bool = False, gap: float = 0.0, make_bleed: float | None = None,
                  cutter: CutterProfile = SILHOUETTE, die_line: str = "", scale: tuple[float, float] = (1.0, 1.0),
                  margins: tuple[float, float, float, float] | None = None, flip: str = "long") -> Imposed:
    """Put card images (files or folders of pictures, each including `bleed` mm on every side; with
    `make_bleed`, each stopping at the trim, and mirrored into that many mm of bleed) on sheets of
    `papers`, writing `<out_dir>/<name>/<name>-cards-<paper>.pdf` and, with backs,
    `-backs-` and `-duplex-`. `back` is one back for every card; `backs_dir` holds a back per front,
    named like it (falling back to `back`). Back pages are shifted by `back_offset` mm (x right,
    y down, as seen on the back: see settings.py). Sheets are marked for cutting as `marks` says
    (imposition.marks), back pages too with `back_marks`; cards stand `gap` mm apart; `scale`,
    `margins` and `flip` are the printer's (settings.Printer, imposition.document.Marking). Every picture is checked before anything is written:
    a problem raises DeckError, and what will print badly is in the result's warnings."""
    if not name or Path(name).name != name or name.startswith("."):
        raise DeckError(f"the name '{name}' must be a plain file name like mygame")
    if backs_dir is not None and not backs_dir.is_dir():
        raise DeckError("is not a folder: backs are matched to fronts by name from a folder", backs_dir)
    warn = Warnings()
    pictures = cards(image_files(fronts))
    backs = _backs_by_name(backs_dir) if backs_dir is not None else {}
    common = cards([back])[0] if back is not None else None
    pairs: list[tuple[Card, Card | None, int]] = []
    for front in pictures:
        known_as, n = front.name, copies(front.path)[1]
        behind = backs.get(known_as, common)
        if backs_dir is not None and behind is None:
            raise DeckError(f"no back named '{known_as}' in {display_path(backs_dir)}", front.path,
                            suggestion=suggest(known_as, backs))
        pairs.append((front, behind, n))
    printed = sum(n for _, _, n in pairs)
    if printed > MAX_CARDS:  # as a deck's pieces: a thousand pictures of x1000 each
        raise DeckError(f"the pictures make {printed:,} cards with their copies: at most {MAX_CARDS:,} are imposed "
                        "at once", pairs[-1][0].path)
    used = {b for _, b, _ in pairs}
    for unused in sorted(set(backs.values()) - used, key=lambda card: (natural_key(card.path), card.page)):
        warn("is the back of no front" if unused.pages == 1 else f"page {unused.page} is the back of no front",
             unused.path, kind="unused-back")
    for card in dict.fromkeys([*pictures, *(b for b in used if b is not None)]):
        check_image(card.path, size, bleed, warn, make_bleed, card.page)
    if make_bleed is not None:
        bleed = make_bleed  # the sheets' bleed: what is made

    def face(card: Card | None) -> Face | None:
        if card is None:
            return None
        if make_bleed is None:
            picture = Image(-bleed, -bleed, size[0] + 2 * bleed, size[1] + 2 * bleed, str(card.path), page=card.page)
            return Face(size[0], size[1], bleed, (picture,))
        items, _ = grown_into_bleed(Image(0.0, 0.0, size[0], size[1], str(card.path), page=card.page),
                                    (0.0, 0.0, *size), bleed)
        return Face(size[0], size[1], bleed, items)

    sides: Sides = [(face(f), face(b)) for f, b, n in pairs for _ in range(n)]
    marking = Marking(marks, back_marks, back_offset, cutter, die_line, scale=scale, margins=margins, flip=flip)
    folder = out_dir / name
    with replacing_folder(folder) as staged:  # an interrupt leaves the whole old set, never a mix
        jobs = [pdf_job(staged / f"{name}-{kind}-{paper}.pdf", pages, name, kind,
                        subject=f"{len(sides)} card images imposed by deckpress.", duplex=duplex, marking=marking)
                for paper in papers for kind, pages, duplex in sheet_files("cards", sides, paper, bleed, marks, gap, cutter,
                                                                          margins=margins, flip=flip)]
        outputs = write_jobs(jobs, bleed, progress, on_plan)
    return Imposed([replace(output, path=folder / output.path.relative_to(staged)) for output in outputs],
                   len(sides), len(pictures), warn)
