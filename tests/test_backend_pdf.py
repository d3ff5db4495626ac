"""The PDF backend: forms drawn once, embedded fonts, ToUnicode for music symbols, K-only greys."""

from __future__ import annotations

from pypdf import PdfReader

from generator.backends.pdf import FaceForms, MM, _to_unicode_cmap, new_canvas
from generator.colors import RGB, Gray
from generator.face import Face, Paint, Path, Rect, Text
from generator.fonts import FontSet
from tests.pdfread import content_streams, fonts, page_text

FONTS = FontSet()
MUSIC = FONTS.families["music"].files["regular"]
SANS = FONTS.families["sans"].files["regular"]


def test_tounicode_uses_surrogate_pairs_above_the_bmp():
    cmap = _to_unicode_cmap("X", [0x41, 0x1D15F])
    assert "<00> <0041>" in cmap and "<01> <D834DD5F>" in cmap


def write(tmp_path, faces_and_places, grey=False):
    path = tmp_path / "t.pdf"
    canvas = new_canvas(path, (100 * MM, 100 * MM), SANS)
    forms = FaceForms(canvas)
    for face, dx in faces_and_places:
        forms.place(face, (1, 0, 0, 1, dx, 10), 100)
    canvas.showPage()
    canvas.save()
    return path


def test_a_face_placed_twice_is_stored_once_and_text_extracts(tmp_path):
    face = Face(30, 40, 2, (Rect(0, 0, 30, 40, paint=Paint(fill=RGB(1, 0, 0))),
                            Text(2, 10, "\U0001D15F quarter", MUSIC, 6, Gray(0.0)),
                            Text(2, 20, "Ä ß", SANS, 4, Gray(0.0))))
    path = write(tmp_path, [(face, 0), (face, 40)])
    reader = PdfReader(path)
    assert len(reader.pages[0]["/Resources"]["/XObject"]) == 1
    assert all(fonts(reader).values()) and not any("Helvetica" in f for f in fonts(reader))
    text = page_text(path, 0)
    assert "\U0001D15F" in text and "Ä ß" in text


def test_greys_are_written_as_black_ink_only(tmp_path):
    face = Face(30, 40, 0, (Rect(0, 0, 10, 10, paint=Paint(fill=Gray(0.25), stroke=Gray(0.5), stroke_width=0.3)),))
    path = write(tmp_path, [(face, 0)])
    data = b"".join(content_streams(PdfReader(path)))
    assert b"0 0 0 .75 k" in data and b"0 0 0 .5 K" in data
    assert b" rg" not in data and b" RG" not in data


def test_even_odd_paths_fill_with_the_even_odd_rule_and_others_with_nonzero(tmp_path):
    """reportlab's FILL_EVEN_ODD is 0, FILL_NON_ZERO 1: a bare `1 if even_odd else 0` once swapped
    the rules, so a ring drawn as two same-way contours had a hole in PDF but not in SVG."""
    ring = (("M", (0, 0)), ("L", (9, 0)), ("L", (9, 9)), ("Z", ()), ("M", (2, 2)), ("L", (7, 2)), ("L", (7, 7)), ("Z", ()))
    face = Face(30, 40, 0, (Path(ring, Paint(fill=RGB(1, 0, 0))), Path(ring, Paint(fill=RGB(0, 0, 1)), even_odd=True)))
    data = b"".join(content_streams(PdfReader(write(tmp_path, [(face, 0)]))))
    painted = [line for line in data.split(b"\n") if line in (b"f", b"f*")]
    assert painted == [b"f", b"f*"]
