"""The regression view: a page per bundled deck in docs/previews/, made from a build:
`python docs/previews.py` (all decks) or `python docs/previews.py metronome kanon`.

Each deck's page, `previews/<deck>.md`, shows what a reviewer needs to judge a change to that
deck at a glance: every distinct card face (`<deck>-preview.png`, the README's picture, made by
`deckpress build --format preview`), its backs as they print (the first page of backs, and the
last where its back differs: Kanon's canon cards, Test Piece's gold deck), the tuck box, and the
rules-board sheets (rule cards, boards, pawns, a board's tiles), all on A4 in colour.
tests/test_docs.py builds the decks and holds every picture equal to the committed one, so a
change to a deck, a layout or the sheets shows in review as changed pictures.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from PIL import Image, ImageChops

HERE = Path(__file__).resolve().parent
PREVIEWS = HERE / "previews"
BACKS_DPI, BOX_DPI, SHEETS_DPI = 30, 45, 30  #: enough to judge a layout, small enough to keep in git
GAP = 8  #: px of grey between pages


def render(path: Path, page: int, dpi: int) -> Image.Image:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        return pdf[page].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        pdf.close()


def pages_of(path: Path) -> int:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        return len(pdf)
    finally:
        pdf.close()


def side_by_side(pages: list[Image.Image]) -> Image.Image:
    """Pages in a row on grey, as they come off the printer."""
    width = sum(p.width for p in pages) + GAP * (len(pages) - 1)
    picture = Image.new("RGB", (width, max(p.height for p in pages)), (200, 200, 200))
    x = 0
    for page in pages:
        picture.paste(page, (x, 0))
        x += page.width + GAP
    return picture


def inked(page: Image.Image) -> Image.Image:
    """The page cropped to what is printed on it, with a few pixels of white round it."""
    ink = ImageChops.difference(page, Image.new("RGB", page.size, (255, 255, 255))).convert("L")
    box = ink.point(lambda v: 255 if v > 8 else 0).getbbox() or (0, 0, page.width, page.height)
    m = 4
    return page.crop((max(box[0] - m, 0), max(box[1] - m, 0), min(box[2] + m, page.width), min(box[3] + m, page.height)))


def backs_picture(folder: Path, deck_id: str) -> Image.Image:
    """The first page of backs, and the last where its back is another (a deck of two backs)."""
    path = folder / f"{deck_id}-backs-a4.pdf"
    first, last = render(path, 0, BACKS_DPI), render(path, pages_of(path) - 1, BACKS_DPI)
    return side_by_side([first, last]) if ImageChops.difference(first, last).getbbox() else first


def sheets_picture(path: Path) -> Image.Image:
    return side_by_side([render(path, i, SHEETS_DPI) for i in range(pages_of(path))])


def deck_page(deck_id: str, title: str, has_backs: bool) -> str:
    """The deck's page: its pictures under headings, and how they are made and checked."""
    parts = [f"# {title}: regression view", "",
             f"What `deckpress build {deck_id}` prints, on A4 in colour. Made by `python docs/previews.py {deck_id}`;",
             "tests/test_docs.py holds every picture here equal to the build, so a change to this deck, its",
             "layouts or the sheets shows in review as a changed picture.", "",
             "## Card faces", "", f"Every distinct face, once: ![{title}: card faces]({deck_id}-preview.png)", ""]
    if has_backs:
        parts += ["## Backs", "", f"![{title}: backs as printed]({deck_id}/backs.png)", ""]
    parts += ["## Box", "", f"![{title}: the tuck box]({deck_id}/box.png)", "",
              "## Rules and board sheets", "", f"![{title}: rules-board sheets]({deck_id}/rules-board.png)", ""]
    return "\n".join(parts)


def make(into: Path, deck_ids: list[str] | None = None) -> list[Path]:
    """Build each deck (all bundled ones by default) on A4 in colour and write its page and
    pictures into `into`: `<deck>.md`, `<deck>-preview.png`, `<deck>/{backs,box,rules-board}.png`."""
    import deckpress
    from deckpress.model.deck import bundled_deck_ids

    written = []
    for deck_id in deck_ids or bundled_deck_ids():
        with tempfile.TemporaryDirectory() as out:
            # the deck in its own language (the first built); a translation's files are the same layouts
            build = deckpress.build(deck_id, out, papers="a4", inks="color", formats=("pdf", "preview"))[0]
            folder = Path(out) / deck_id
            pictures = {f"{deck_id}-preview.png": Image.open(folder / f"{deck_id}-preview.png"),
                        f"{deck_id}/box.png": inked(render(folder / f"{deck_id}-box-a4.pdf", 0, BOX_DPI)),
                        f"{deck_id}/rules-board.png": sheets_picture(folder / f"{deck_id}-rules-board-a4.pdf")}
            has_backs = (folder / f"{deck_id}-backs-a4.pdf").exists()
            if has_backs:
                pictures[f"{deck_id}/backs.png"] = backs_picture(folder, deck_id)
            (into / deck_id).mkdir(parents=True, exist_ok=True)
            for name, picture in pictures.items():
                path = into / name
                if not name.endswith("-preview.png"):  # the README's own picture is kept as it is built
                    # 256 colours, undithered: half the bytes, and a layout reads as well
                    picture = picture.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
                picture.save(path, optimize=True)
                written.append(path)
            page = into / f"{deck_id}.md"
            page.write_text(deck_page(deck_id, build.deck.title, has_backs), encoding="utf-8")
            written.append(page)
    index = into / "README.md"
    index.write_text("\n".join(["# Regression views", "",
                                 "A page per bundled deck: its card faces, backs, box and rules-board sheets as they",
                                 "build today (`python docs/previews.py`; tests/test_docs.py holds them to the build).", "",
                                 *(f"- [{deck_id}]({deck_id}.md)" for deck_id in bundled_deck_ids()), ""]),
                     encoding="utf-8")
    return [*written, index]


if __name__ == "__main__":
    for path in make(PREVIEWS, sys.argv[1:] or None):
        print(path.relative_to(HERE.parent))
