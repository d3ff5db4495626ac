"""Cutting machines: each vendor's registration marks, the area its sheets are laid out in, the
cut files its software imports (`--cutter NAME` or a profile file).

    silhouette     Silhouette Studio, registration mark type 1 at its defaults: a 5 mm filled square
                   top left, L corners top right and bottom left, 10 mm in, 20 mm long, 0.5 mm thick
                   (Cameo 1–5, Portrait, Curio). Cut files: SVG and DXF (Studio Designer Edition
                   opens SVG; every edition opens DXF).
    silhouette-4   the four-mark layout Studio 4.4+ offers for the Cameo 4 and later: an L in every
                   corner, same inset, length and thickness. SVG and DXF.
    cricut         Cricut Design Space Print Then Cut: Design Space prints the sheet itself, with a
                   frame of its own marks round an image of at most 6.75 × 9.25 in (Letter and A4);
                   so deckpress prints no marks, lays the pieces inside that area, 4 mm apart (Design
                   Space cuts round each opaque island of an uploaded picture), and writes per sheet a
                   PNG of the pieces cut to their outlines (transparent between) at exactly the area's
                   size, and the SVG of its cut paths.
    scanncut       Brother ScanNCut: the machine scans the printed sheet and cuts the outlines it sees
                   (Direct Cut) or data aligned on the scan (CanvasWorkspace SVG, DXF): no marks, no
                   bleed (the printed edge is the cut), pieces 5 mm apart so each outline stands alone.

A profile file (YAML, `CUTTER_KEYS`) starts from one of these (`based_on`) and changes what it
says. All in millimetres, y down from the page's top-left corner.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from ..errors import DeckError, suggest
from ..model.keys import Key, Keys, check_keys
from ..yamlfile import Map, Seq, load_yaml
from .sheets import MIN_MARGIN, Box, Room

CORNERS = ("top-left", "top-right", "bottom-left", "bottom-right")
MARK_SHAPES = ("square", "L")
FORMATS = ("svg", "dxf", "png")

REG_CLEAR = 1.0  #: plain paper between the marks and any piece's bleed
SQUARE_CLEAR = 3.0  #: and round a square, where the sensor starts looking
BAND_CLEAR = 10.0  #: the scale bar keeps this far from the end of an L, so the sensor sees only the L
BAND_DEPTH = 4.0  #: the strip the scale bar and label take along the bottom of a sheet without marks or area
INCH = 25.4


@dataclass(frozen=True)
class Mark:
    """One registration mark: a filled square, or an L of two filled bars hugging the corner."""

    shape: str  # MARK_SHAPES
    corner: str  # CORNERS


@dataclass(frozen=True)
class CutterProfile:
    """What one cutting machine's software wants of a sheet."""

    name: str
    title: str  #: the vendor's software and machines, for labels and cut files
    marks: tuple[Mark, ...] = ()
    inset: float = 10.0  #: from the paper's edges to the marks' outer edges
    length: float = 20.0  #: of each arm of an L
    thickness: float = 0.5  #: of an L's arms
    square: float = 5.0  #: side of a square mark
    area: tuple[float, float] | None = None  #: the image area (w, h), centred on the paper; None: the marks bound it
    bleed: float = 1.0  #: the most bleed a piece prints (a cutter cuts within about 0.5 mm)
    gap: float = 0.0  #: between pieces, for software that finds each piece's outline itself
    formats: tuple[str, ...] = ("svg", "dxf")  #: the cut files written per sheet

    def registration_marks(self, paper_w: float, paper_h: float) -> list[Box]:
        """The filled rectangles of the marks on a `paper_w` × `paper_h` page."""
        i, n, t, s = self.inset, self.length, self.thickness, self.square
        right, bottom = paper_w - i, paper_h - i
        boxes: list[Box] = []
        for mark in self.marks:
            left, top = mark.corner.endswith("left"), mark.corner.startswith("top")
            if mark.shape == "square":
                x0, y0 = (i if left else right - s), (i if top else bottom - s)
                boxes.append((x0, y0, x0 + s, y0 + s))
                continue
            x0 = i if left else right - n  # the bar along the top or bottom edge
            y0 = i if top else bottom - t
            boxes.append((x0, y0, x0 + n, y0 + t))
            x0 = i if left else right - t  # the bar along the left or right edge
            y0 = i if top else bottom - n
            boxes.append((x0, y0, x0 + t, y0 + n))
        return boxes

    def image_area(self, paper_w: float, paper_h: float) -> Box:
        """Where the pieces go: the profile's area centred on the paper, or inside the marks."""
        if self.area is not None:
            w, h = min(self.area[0], paper_w), min(self.area[1], paper_h)
            x0, y0 = (paper_w - w) / 2, (paper_h - h) / 2
            return (x0, y0, x0 + w, y0 + h)
        inner = self.inset + self.thickness + REG_CLEAR if self.marks else MIN_MARGIN
        return (inner, inner, paper_w - inner, paper_h - inner)

    def room(self, paper: tuple[float, float]) -> Room:
        """The room pieces are laid out in on `paper`: inside the area, their bleed (at most
        `bleed`) clear of every mark, and of a square by SQUARE_CLEAR more."""
        W, H = paper
        x0, y0, x1, y1 = self.image_area(W, H)
        margin = min(x0, y0)
        keep_out: list[Box] = []
        if self.area is not None:  # the area's far edges, where its margin is wider than `margin`
            if y0 > margin:
                keep_out += [(0.0, 0.0, W, y0), (0.0, y1, W, H)]
            if x0 > margin:
                keep_out += [(0.0, 0.0, x0, H), (x1, 0.0, W, H)]
        bleed = self.bleed
        if not self.marks and self.area is None:  # the scale bar's strip along the bottom
            keep_out.append((0.0, self.band(W, H)[1] - REG_CLEAR, W, H))
        for box in self.registration_marks(W, H):
            if box[2] - box[0] > self.thickness and box[3] - box[1] > self.thickness:  # a square
                c = SQUARE_CLEAR
                keep_out.append((box[0] - c, box[1] - c, box[2] + c, box[3] + c))
        margin += bleed if self.marks or self.area is not None else 0.0
        return Room(margin=margin, tile_margin=max(21.0, margin + 8.5),  # a tile's name and marks inside the area
                    keep_out=tuple(keep_out), furniture=0.0, max_bleed=bleed, mark_reach=0.0, least_reach=0.0)

    def band(self, paper_w: float, paper_h: float) -> Box:
        """Where the scale bar and label go: the strip between the paper's printable edge and the
        area along the bottom, right of any bottom-left mark."""
        _, _, x1, y1 = self.image_area(paper_w, paper_h)
        left = self.image_area(paper_w, paper_h)[0]
        if any(m.corner == "bottom-left" for m in self.marks):
            left = self.inset + max(self.length, self.square) + BAND_CLEAR
        right = x1 if not self.marks else paper_w - self.inset - (
            max(self.length, self.square) + BAND_CLEAR if any(m.corner == "bottom-right" for m in self.marks) else 0.0)
        top = paper_h - self.inset + REG_CLEAR if self.marks else y1 + REG_CLEAR if self.area is not None \
            else paper_h - MIN_MARGIN - BAND_DEPTH
        return (left, top, right, paper_h - MIN_MARGIN)

    def describe(self) -> str:
        """The marks in words, for the cut files and labels: what to set in the vendor's software."""
        if not self.marks:
            return f"{self.title}: no registration marks printed"
        shapes = ", ".join(f"{m.shape} {m.corner}" for m in self.marks)
        return (f"{self.title}: {len(self.marks)} registration marks ({shapes}), inset {self.inset:g} mm, "
                f"length {self.length:g} mm, thickness {self.thickness:g} mm")


_TYPE1 = (Mark("square", "top-left"), Mark("L", "top-right"), Mark("L", "bottom-left"))
_FOUR = tuple(Mark("L", corner) for corner in CORNERS)

SILHOUETTE = CutterProfile("silhouette", "Silhouette Studio, registration mark type 1", _TYPE1)
CUTTERS: dict[str, CutterProfile] = {
    "silhouette": SILHOUETTE,
    "silhouette-4": CutterProfile("silhouette-4", "Silhouette Studio, 4-point registration (Cameo 4 and later)",
                                  _FOUR),
    "cricut": CutterProfile("cricut", "Cricut Design Space, Print Then Cut", (), area=(6.75 * INCH, 9.25 * INCH),
                            bleed=0.0, gap=4.0, formats=("svg", "png")),
    "scanncut": CutterProfile("scanncut", "Brother ScanNCut (scan to cut, CanvasWorkspace)", (), bleed=0.0, gap=5.0),
}

CUTTER_KEYS = Keys("cutter profile", "The keys of a cutter profile file (`--cutter my-cutter.yaml`).", (
    Key("based_on", "choice", "silhouette", "the built-in profile this one changes", choices=tuple(CUTTERS)),
    Key("title", "text", None, "what the profile is called on labels and in cut files"),
    Key("marks", "list", None, "the registration marks: a list of `SHAPE CORNER` like `square top-left`, "
        "`L bottom-right` (shapes: square, L), or `[]` for none"),
    Key("inset", "length", 10.0, "from the paper's edges to the marks' outer edges (mm, or `0.39in`)"),
    Key("length", "length", 20.0, "each arm of an L"),
    Key("thickness", "length", 0.5, "an L's arms"),
    Key("square", "length", 5.0, "the side of a square mark"),
    Key("area", "text", None, "the printable area the pieces go in, centred on the paper, like `6.75x9.25in` "
        "or `170x230mm` (by default the marks bound it)"),
    Key("bleed", "length", 1.0, "the most bleed a piece prints"),
    Key("gap", "length", 0.0, "space between pieces, for software that finds each outline itself"),
    Key("formats", "list", ["svg", "dxf"], "the cut files written for each sheet: svg, dxf, png"),
))

_LENGTH = re.compile(r"^\s*(\d+(?:\.\d+)?|\.\d+)\s*(mm|cm|in|pt)?\s*$")
_UNITS = {"mm": 1.0, "cm": 10.0, "in": INCH, "pt": INCH / 72, None: 1.0}


def _length(node: Map, key: str) -> float:
    value = node[key]
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0:
        return float(value)
    match = _LENGTH.match(value) if isinstance(value, str) else None
    if match is None:
        raise node.error(key, f"{key} must be a length like 10, 10mm or 0.39in, not {value!r}")
    return float(match[1]) * _UNITS[match[2]]


def _area(node: Map) -> tuple[float, float]:
    value = node["area"]
    match = re.match(r"^\s*([\d.]+)\s*[x×]\s*([\d.]+)\s*(mm|cm|in)?\s*$", str(value))
    if match is None:
        raise node.error("area", f"area must be WIDTHxHEIGHT like 6.75x9.25in or 170x230mm, not {value!r}")
    try:
        w, h = float(match[1]), float(match[2])
    except ValueError:
        raise node.error("area", f"area must be WIDTHxHEIGHT like 6.75x9.25in or 170x230mm, not {value!r}") from None
    return (w * _UNITS[match[3]], h * _UNITS[match[3]])


def _marks(node: Map) -> tuple[Mark, ...]:
    items = node["marks"]
    if not isinstance(items, list):
        raise node.error("marks", "marks must be a list like [square top-left, L top-right, L bottom-left]")
    marks = []
    for n, item in enumerate(items):
        line = items.line_of(n) if isinstance(items, Seq) else node.line_of("marks")
        words = str(item).split()
        if len(words) != 2 or words[0] not in MARK_SHAPES or words[1] not in CORNERS:
            close = words and (suggest(words[-1], CORNERS) if words[0] in MARK_SHAPES
                               else suggest(words[0], MARK_SHAPES))
            raise DeckError(f"a mark is SHAPE CORNER (shapes: {', '.join(MARK_SHAPES)}; corners: "
                            f"{', '.join(CORNERS)}), not {item!r}", node.file, line, close or None)
        marks.append(Mark(words[0], words[1]))
    return tuple(marks)


def load_cutter(path: str | Path) -> CutterProfile:
    """A cutter profile file, read safely, every key checked (one-line errors with file and line)."""
    node = load_yaml(path)
    if not isinstance(node, Map):
        raise DeckError("a cutter profile is a mapping of keys like `based_on: silhouette`", str(path), 1)
    check_keys(node, CUTTER_KEYS)
    base_name = node.get("based_on", CUTTER_KEYS["based_on"].default)
    if base_name not in CUTTERS:
        raise node.error("based_on", f"based_on must be one of {', '.join(CUTTERS)}, not {base_name!r}",
                         suggest(str(base_name), CUTTERS))
    base = CUTTERS[base_name]
    changes: dict[str, object] = {"name": Path(path).stem, "title": str(node.get("title") or f"{base.title} (custom)")}
    for key in ("inset", "length", "thickness", "square", "bleed", "gap"):
        if key in node:
            changes[key] = _length(node, key)
    if "marks" in node:
        changes["marks"] = _marks(node)
    if "area" in node:
        changes["area"] = _area(node)
    if "formats" in node:
        formats = node["formats"]
        bad = [f for f in formats if f not in FORMATS] if isinstance(formats, list) else [formats]
        if bad:
            raise node.error("formats", f"formats must be a list of {', '.join(FORMATS)}, not {bad[0]!r}",
                             suggest(str(bad[0]), FORMATS))
        changes["formats"] = tuple(formats)
    return replace(base, **changes)  # type: ignore[arg-type]


def cutter_named(name: str) -> CutterProfile:
    """A built-in profile by name, or a profile file by its path."""
    if name in CUTTERS:
        return CUTTERS[name]
    if name.endswith((".yaml", ".yml")) or Path(name).is_file():
        return load_cutter(name)
    raise DeckError(f"no cutter named {name!r}: one of {', '.join(CUTTERS)}, or a profile file (.yaml)",
                    suggestion=suggest(name, CUTTERS))
