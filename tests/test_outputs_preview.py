"""The contact sheet: every distinct face, small enough for a README."""

from __future__ import annotations

from PIL import Image

from deckpress.builder.deckbuild import build_deck
from deckpress.builder.faces import compose_faces
from deckpress.builder.plan import Options
from deckpress.errors import Warnings
from deckpress.outputs.preview import CARD_PX, COLUMNS, GAP, GROUND, _shelves, _size


def test_rows_wrap_and_pieces_sit_on_the_row_baseline():
    sizes = [(96, 134)] * 12 + [(288, 165)]
    spots, height = _shelves(sizes, COLUMNS * CARD_PX + (COLUMNS + 1) * GAP)
    assert spots[0] == (GAP, GAP) and spots[9] == (GAP + 9 * (CARD_PX + GAP), GAP)
    # the 11th card starts the second row, bottom-aligned with the board that shares it
    assert spots[10] == (GAP, GAP + 134 + GAP + (165 - 134))
    assert spots[12] == (GAP + 2 * (CARD_PX + GAP), GAP + 134 + GAP)
    assert height == GAP + 134 + GAP + 165 + GAP


def test_a_preview_shows_each_distinct_face_once(tmp_path):
    result = build_deck("metronome", tmp_path, options=Options(formats=("preview",)))
    path = tmp_path / "metronome" / "metronome-preview.png"
    assert [o.path for o in result.outputs] == [path]
    image = Image.open(path)
    assert image.width == COLUMNS * CARD_PX + (COLUMNS + 1) * GAP
    assert path.stat().st_size < 400_000  # small enough for a README
    entries = compose_faces(result.deck, Warnings()).entries
    distinct = len({f for e in entries for f in (e.front, e.back) if f is not None})
    # every face's picture is where the layout puts it, with bare ground in the gap beside it
    faces = list(dict.fromkeys(f for side in ("front", "back") for e in entries if (f := e.face(side))))
    assert len(faces) == distinct
    sizes = [_size(face, CARD_PX / result.deck.size.width) for face in faces]
    spots, height = _shelves(sizes, image.width)
    assert image.height == height
    rgb = image.convert("RGB")
    for (x, y), (w, h) in zip(spots, sizes):
        inside = [rgb.getpixel((x + w * i // 4, y + h // 2)) for i in (1, 2, 3)]
        assert any(p != GROUND for p in inside)
        assert rgb.getpixel((x - GAP // 2, y + h // 2)) == GROUND
