"""The PDF backend: forms drawn once, embedded fonts, ToUnicode for music symbols, K-only greys,
CMYK documents with nothing in RGB, transparency kept inside forms."""

from __future__ import annotations

import base64
import io
import pathlib

import pypdfium2 as pdfium
import pytest
from PIL import Image as PILImage
from pypdf import PdfReader

from reportlab.lib.colors import CMYKColor, Color as RLColor

from deckpress.backends.pdf import FaceForms, place
from deckpress.backends.pdfcanvas import Canvas, cmyk_only, k_only
from deckpress.backends.pdffonts import _glyph_to_unicode
from deckpress.backends.pdfpages import PageWriter
from deckpress.colors import RGB, Gray, to_cmyk
from deckpress.face import Face, Group, Image, Paint, Path, Rect, Text
from deckpress.text.fonts import FontSet
from deckpress.ink import cmyk
from tests.pdfread import colour_operators, content_streams, fonts, page_text, rgb_left, xobjects
from tests.translucency import HEIGHT, VARIANTS, art_face, assert_blended

FONTS = FontSet()
MUSIC = FONTS.families["music"].files["regular"]
SANS = FONTS.families["sans"].files["regular"]


def test_tounicode_uses_surrogate_pairs_above_the_bmp():
    cmap = _glyph_to_unicode("X", ((0x41, "A"), (0x2A5, "\U0001D15F")))
    assert "<0041> <0041>" in cmap and "<02A5> <D834DD5F>" in cmap


def write(tmp_path, faces_and_places, colors="rgb", forms=None, before: str = "", name: str = "t.pdf"):
    """One 100 mm square page placing each face at (dx, 10) mm, after a label drawn first
    (`before`); the faces' forms from `forms` (a build's), or drawn afresh."""
    forms = forms or FaceForms()
    path = tmp_path / name
    canvas = Canvas(forms.fonts, colors, SANS)
    if before:
        canvas.setFont(SANS, 8)
        canvas.drawText(10, 10, before)
    for face, dx in faces_and_places:
        place(canvas, forms.form(face, colors), (1, 0, 0, 1, dx, 10), 100)
    with open(path, "wb") as sink:
        writer = PageWriter(sink)
        writer.page(100, 100, canvas)
        writer.close({"Title": "t"})
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


def test_documents_of_a_build_write_a_face_as_the_same_bytes(tmp_path):
    """The codes of a font's characters and its name are the build's: a face is the same form
    bytes in every document, though each met other text first."""
    card = Face(40, 60, 0, (Text(2, 10, "Tempo é = 60", SANS, 4, Gray(0.0)),
                            Text(2, 20, "\U0001D15F", MUSIC, 6, Gray(0.0))))
    other = Face(40, 60, 0, (Text(2, 10, "zyxwvu Übung", SANS, 4, Gray(0.0)),))
    forms = FaceForms()
    first = write(tmp_path, [(other, 5), (card, 50)], forms=forms, name="a.pdf")
    second = write(tmp_path, [(card, 5)], forms=forms, before="QJK wrote this", name="b.pdf")
    third = write(tmp_path, [(card, 5), (other, 50)], forms=forms, before="XYZ", name="c.pdf")
    found = [{bytes(f.get_data()) for f in xobjects(PdfReader(p), "/Form")} for p in (first, second, third)]
    assert found[1] <= found[0] and found[1] <= found[2] and found[0] == found[2]
    for path, expected in ((first, ["zyxwvu Übung", "Tempo é = 60"]), (second, ["QJK wrote this", "Tempo é = 60"]),
                           (third, ["XYZ", "Tempo é = 60", "zyxwvu Übung"])):
        text = page_text(path, 0)
        assert all(t in text for t in expected) and "\U0001D15F" in text, (path.name, text)
        assert all(fonts(PdfReader(path)).values())
    # a document embeds only the fonts it draws in, though the build has met more
    fourth = write(tmp_path, [(other, 5)], forms=forms, name="d.pdf")
    assert len(fonts(PdfReader(fourth))) == 1 and len(fonts(PdfReader(first))) == 2
    assert page_text(fourth, 0) == "zyxwvu Übung"


def test_items_faces_share_are_drawn_once_and_write_what_drawing_them_writes(tmp_path):
    """A frame and a rules text two faces share are drawn once for both (remembered), and each
    face's form is the bytes drawing it afresh gives, translucent art before them or not."""
    frame = Rect(1, 1, 38, 58, 2, Paint(fill=RGB(0.9, 0.9, 1), stroke=Gray(0.2), stroke_width=0.4))
    rules = Text(3, 30, "Play a card of the same colour.", SANS, 3, Gray(0.1))
    faded = Group((Rect(0, 0, 10, 10, paint=Paint(fill=RGB(1, 0, 0))),), opacity=0.5)
    art = str(pathlib.Path(__file__).parent.parent / "decks" / "circle-of-5" / "art" / "snail.svg")
    faces = [Face(40, 60, 0, (frame, Text(3, 10, title, SANS, 5, RGB(0.5, 0, 0)), rules, Image(5, 35, w, w, art)))
             for title, w in (("Allegro", 20), ("Largo", 10))]
    faces.append(Face(40, 60, 0, (faded, frame, rules)))
    forms = FaceForms()
    together = [forms.form(face) for face in faces]
    assert len(forms._items) == 5  # the frame, the rules, the two titles and the faded square, each once
    for face, form in zip(faces, together):
        alone = FaceForms().form(face)
        assert (form.content, form.name) == (alone.content, alone.name)
        assert sorted(form.resources.fonts) == sorted(alone.resources.fonts)


def test_a_text_box_many_faces_share_is_one_form_they_place_and_prints_the_same(tmp_path):
    """A group of lines on many faces (a text box, as compose makes one) is drawn once, as a form
    of its own that each face's form places after the first: the file holds its words once, its
    text extracts on every face, and each face prints as it would with the lines drawn in it."""
    lines = Group(tuple(Text(3, 20 + 5 * i, f"Line {i}: play a card of the same colour.", SANS, 3, RGB(0.6, 0, 0))
                        for i in range(3)))
    faces = [Face(40, 60, 0, (Rect(0, 0, 40, 60, paint=Paint(fill=Gray(0.9))),
                              Text(3, 10, f"Card {n}", SANS, 5, Gray(0.0)), lines)) for n in range(4)]
    forms = FaceForms()
    path = write(tmp_path, [(face, 5 + 45 * (n % 2)) for n, face in enumerate(faces[:2])], forms=forms)
    path2 = write(tmp_path, [(face, 5 + 45 * (n % 2)) for n, face in enumerate(faces[2:])], forms=forms,
                  name="t2.pdf")
    reader = PdfReader(path2)
    names = [str(k) for form in xobjects(reader, "/Form") for k in (form["/Resources"].get("/XObject") or {})]
    assert len([n for n in names if n.startswith("/text")]) == 2 and len(set(names)) == 1  # both place one form
    shown = [form.get_data().count(b"] TJ") for form in xobjects(reader, "/Form")]
    assert sorted(shown) == [1, 1, 3]  # each face's title, and the three lines once
    assert page_text(path2, 0).split("\r\n") == [line for n in (2, 3) for line in
                                                 (f"Card {n}", *(f"Line {i}: play a card of the same colour."
                                                                 for i in range(3)))]
    inline = [Face(40, 60, 0, face.items[:2] + lines.items) for face in faces[2:]]  # the lines, not a group
    alone = write(tmp_path, [(face, 5 + 45 * n) for n, face in enumerate(inline)], name="alone.pdf")
    assert not [form for form in xobjects(PdfReader(alone), "/Form") if form["/Resources"].get("/XObject")]
    assert pdfium.PdfDocument(str(path2))[0].render(scale=2).to_pil().tobytes() == \
        pdfium.PdfDocument(str(alone))[0].render(scale=2).to_pil().tobytes()


def test_greys_are_written_as_black_ink_only(tmp_path):
    face = Face(30, 40, 0, (Rect(0, 0, 10, 10, paint=Paint(fill=Gray(0.25), stroke=Gray(0.5), stroke_width=0.3)),))
    path = write(tmp_path, [(face, 0)])
    data = b"".join(content_streams(PdfReader(path)))
    assert b"0 0 0 .75 k" in data and b"0 0 0 .5 K" in data
    assert b" rg" not in data and b" RG" not in data


def png(image: PILImage.Image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return buf.getvalue()


def half_red(mode: str) -> PILImage.Image:
    """Left half opaque red, right half transparent: as RGBA, or as a palette with a transparent entry."""
    im = PILImage.new("RGBA", (20, 20), (0, 0, 0, 0))
    im.paste((220, 30, 30, 255), (0, 0, 10, 20))
    if mode == "P":
        im = im.convert("RGB").quantize(2)
        im.info["transparency"] = im.getpixel((15, 5))
    return im


def pixel(path, x_mm: float, y_mm: float, dpi: int = 72) -> tuple[int, int, int]:
    pdf = pdfium.PdfDocument(str(path))
    image = pdf[0].render(scale=dpi / 72).to_pil().convert("RGB")
    pdf.close()
    return image.getpixel((round(x_mm / 25.4 * dpi), round(y_mm / 25.4 * dpi)))


@pytest.mark.parametrize("mode", ["RGBA", "P"])
def test_a_transparent_png_in_a_cmyk_document_is_cmyk_and_stays_transparent(tmp_path, mode):
    source = tmp_path / "half.png"
    source.write_bytes(png(half_red(mode)))
    blue = RGB(0.2, 0.4, 0.9)
    face = cmyk(Face(30, 40, 0, (Rect(0, 0, 30, 40, paint=Paint(fill=blue)), Image(0, 0, 30, 40, str(source)))))
    path = write(tmp_path, [(face, 0)], colors="cmyk")
    assert rgb_left(path) == []
    images = list(xobjects(PdfReader(path), "/Image"))
    assert [im["/ColorSpace"] for im in images] == ["/DeviceCMYK"]
    assert images[0]["/SMask"].get_object()["/ColorSpace"] == "/DeviceGray"
    r, g, b = pixel(path, 7, 30)  # the red half of the picture
    assert r > 150 and g < 100 and b < 100
    r, g, b = pixel(path, 22, 30)  # the transparent half: the card's blue shows through
    assert b > 150 and r < 120


SVG = b"""<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20" viewBox="0 0 20 20">
  <defs><linearGradient id="g"><stop offset="0" stop-color="#2060e0"/><stop offset="1" stop-color="#e0c020"/></linearGradient></defs>
  <rect x="0" y="0" width="20" height="8" fill="url(#g)"/>
  <circle cx="10" cy="14" r="5" fill="#d02030" stroke="#000000" stroke-width="1"/>
</svg>"""


@pytest.mark.parametrize("colors", ["cmyk", "k"])
def test_svg_art_in_a_cmyk_or_black_only_document_brings_no_rgb(tmp_path, colors):
    source = tmp_path / "art.svg"
    source.write_bytes(SVG)
    path = write(tmp_path, [(Face(30, 40, 0, (Image(0, 0, 30, 30, str(source)),)), 0)], colors=colors)
    assert rgb_left(path) == []
    data = b"".join(content_streams(PdfReader(path)))
    assert b"0 0 0 1 K" in data  # black art is black ink only
    red = to_cmyk(RGB(0xd0 / 255, 0x20 / 255, 0x30 / 255))
    if colors == "cmyk":
        assert (red.c, red.m, red.y, red.k) in colour_operators(PdfReader(path))[1]
        assert b"/DeviceCMYK" in path.read_bytes()  # the gradient, in process colours
    else:
        assert colour_operators(PdfReader(path))[1] == []
    r, g, b = pixel(path, 15, 34)  # the red circle, still red (or a grey in black ink only)
    assert (r > 150 and g < 100) if colors == "cmyk" else (max(r, g, b) - min(r, g, b) < 8 and r < 200)


def svg_with_raster(tmp_path, linked: bool):
    """20 × 20 units of SVG: a red picture (an RGBA PNG) in its left half, embedded or linked, over blue."""
    picture = png(PILImage.new("RGBA", (10, 20), (220, 30, 30, 255)))
    (tmp_path / "red.png").write_bytes(picture)
    href = "red.png" if linked else "data:image/png;base64," + base64.b64encode(picture).decode()
    source = tmp_path / f"raster-{linked}.svg"
    source.write_text('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
                      'width="20" height="20" viewBox="0 0 20 20"><rect width="20" height="20" fill="#2040d0"/>'
                      f'<image x="0" y="0" width="10" height="20" xlink:href="{href}"/></svg>', encoding="utf-8")
    return source


@pytest.mark.parametrize("linked", [False, True])
@pytest.mark.parametrize("colors", ["rgb", "cmyk", "k"])
def test_a_raster_picture_inside_svg_art_is_drawn_in_the_documents_colours(tmp_path, colors, linked):
    # reportlab draws it as an inline image, which a face's form cannot hold: it is an image XObject
    source = svg_with_raster(tmp_path, linked)
    path = write(tmp_path, [(Face(30, 40, 0, (Image(0, 0, 30, 30, str(source)),)), 0)], colors=colors)
    images = list(xobjects(PdfReader(path), "/Image"))
    assert [im["/ColorSpace"] for im in images] == [{"rgb": "/DeviceRGB", "cmyk": "/DeviceCMYK",
                                                     "k": "/DeviceGray"}[colors]]
    assert colors == "rgb" or rgb_left(path) == []
    r, g, b = pixel(path, 7, 25)  # the picture's red
    assert (r > 150 and g < 100 and b < 100) if colors != "k" else (max(r, g, b) - min(r, g, b) < 8 and r < 200)
    r, g, b = pixel(path, 22, 25)  # the SVG's own blue beside it
    assert (b > 120 and b > r + 50) if colors != "k" else max(r, g, b) - min(r, g, b) < 8, (r, g, b)


def test_even_odd_paths_fill_with_the_even_odd_rule_and_others_with_nonzero(tmp_path):
    """reportlab's FILL_EVEN_ODD is 0, FILL_NON_ZERO 1: a bare `1 if even_odd else 0` once swapped
    the rules, so a ring drawn as two same-way contours had a hole in PDF but not in SVG."""
    ring = (("M", (0, 0)), ("L", (9, 0)), ("L", (9, 9)), ("Z", ()), ("M", (2, 2)), ("L", (7, 2)), ("L", (7, 7)), ("Z", ()))
    face = Face(30, 40, 0, (Path(ring, Paint(fill=RGB(1, 0, 0))), Path(ring, Paint(fill=RGB(0, 0, 1)), even_odd=True)))
    data = b"".join(content_streams(PdfReader(write(tmp_path, [(face, 0)]))))
    painted = [line for line in data.split(b"\n") if line in (b"f", b"f*")]
    assert painted == [b"f", b"f*"]


def test_svg_gradients_inside_a_face_show(tmp_path):
    """A face is a form, and reportlab's forms listed no shadings: the gradient pointed at nothing
    and viewers filled its box black."""
    source = tmp_path / "art.svg"
    source.write_bytes(SVG)
    path = write(tmp_path, [(Face(30, 40, 0, (Image(0, 0, 30, 30, str(source)),)), 0)])
    r, g, b = pixel(path, 2, 12, dpi=144)  # the gradient's blue end
    assert b > 180 and r < 100


# ---- transparency ------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_translucent_svg_art_prints_as_a_browser_shows_it(tmp_path, variant):
    colors = VARIANTS[variant][2]
    path = write(tmp_path, [(art_face(tmp_path, variant), 0)], colors=colors)
    if colors != "rgb":
        assert rgb_left(path) == []
    assert_blended(lambda x: pixel(path, x, 10 + HEIGHT / 2, dpi=144))
    if variant == "colour":  # 50 % blue over red
        assert pixel(path, 15, 15, dpi=144) == pytest.approx((128, 0, 128), abs=2)


def test_translucency_is_in_the_forms_own_resources_and_groups_are_transparency_groups(tmp_path):
    """The art is a form of its own, listing the graphics states its content names (without
    them, viewers printed SVG art solid); each `opacity` is a transparency group inside it."""
    reader = PdfReader(write(tmp_path, [(art_face(tmp_path), 0)]))
    art, = (form for form in xobjects(reader, "/Form") if "/ExtGState" in form["/Resources"])
    states = [state.get_object() for state in art["/Resources"]["/ExtGState"].values()]
    assert any(s.get("/ca") == 0.5 and s.get("/CA", 1) == 1 for s in states)  # fill-opacity
    assert any(s.get("/CA") == 0.5 and s.get("/ca", 1) == 1 for s in states)  # stroke-opacity
    inner = [xobject.get_object() for xobject in art["/Resources"]["/XObject"].values()]
    assert len(inner) == 2 and all(g["/Group"]["/S"] == "/Transparency" for g in inner)  # the two `opacity`
    assert reader.pdf_header == "%PDF-1.4"  # the version with transparency


def test_a_translucent_group_is_one_layer_in_a_face(tmp_path):
    """Group opacity in a face (an element's `opacity`): where the group's own items overlap, the
    upper hides the lower, as in SVG, instead of each showing through the other."""
    blue = Paint(fill=RGB(0, 0, 1), stroke=RGB(0, 0, 1), stroke_width=2)
    face = Face(30, 20, 0, (Rect(0, 0, 30, 20, paint=Paint(fill=RGB(1, 1, 1))),
                            Group((Rect(2, 2, 12, 12, paint=blue), Rect(8, 8, 12, 12, paint=blue)), opacity=0.5),
                            Rect(22, 2, 6, 6, paint=Paint(fill=RGB(0, 0, 1)))))
    path = write(tmp_path, [(face, 0)])
    for x, y in ((4, 14), (5, 5), (3, 3), (11, 11), (17, 17)):  # one rect, stroke over fill, the overlap
        assert pixel(path, x, 10 + y, dpi=144) == pytest.approx((128, 128, 255), abs=2), (x, y)
    assert pixel(path, 25, 15, dpi=144) == (0, 0, 255)  # a solid item after the group is solid


@pytest.mark.parametrize("color", [RLColor(0.1, 0.2, 0.9, alpha=0.3), CMYKColor(0.5, 0.1, 0, 0, alpha=0.3)])
def test_the_colour_space_hooks_keep_a_colours_alpha(color):
    """SVG art's colours pass through these on their way into a low-ink or CMYK file."""
    assert k_only(color).alpha == cmyk_only(color).alpha == 0.3


def noise_jpegs(folder, count: int) -> list[str]:
    """`count` distinct JPEGs of noise (which JPEG cannot shrink much), ~100 kB each."""
    folder.mkdir()
    paths = []
    for i in range(count):
        path = folder / f"p{i}.jpg"
        PILImage.effect_noise((300, 400), 60 + i).convert("RGB").save(path, quality=90)
        paths.append(str(path))
    return paths


def picture_faces(paths: list[str]) -> list[Face]:
    return [Face(20, 30, 0, (Image(0, 0, 20, 30, p),)) for p in paths]


def test_a_document_of_many_jpegs_never_holds_them_all(tmp_path):
    """Written object by object, a JPEG's bytes read only while it is written: one picture at a
    time is held, never the document's pictures all at once."""
    import tracemalloc

    paths = noise_jpegs(tmp_path / "jpegs", 60)
    total = sum(len(open(p, "rb").read()) for p in paths)
    write(tmp_path, [(face, 0) for face in picture_faces(paths[:1])])  # fonts and caches loaded before measuring
    tracemalloc.start()
    try:
        path = write(tmp_path, [(face, 0) for face in picture_faces(paths)])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    embedded = {x._data for x in xobjects(PdfReader(path), "/Image")}
    assert embedded == {open(p, "rb").read() for p in paths}  # DCTDecode passthrough, every one
    assert peak < total / 4, (peak, total)


def test_pictures_are_embedded_once_jpegs_as_they_are_and_pngs_with_their_transparency(tmp_path):
    """A JPEG goes in as its own bytes (DCTDecode), once however often it is placed; a PNG named
    .jpg is read as the PNG it is, its transparency a soft mask."""
    paths = noise_jpegs(tmp_path / "jpegs", 3)
    PILImage.new("RGBA", (40, 60), (0, 128, 255, 100)).save(tmp_path / "png.jpg", format="PNG")
    faces = picture_faces([*paths, str(tmp_path / "png.jpg"), paths[0]])
    path = write(tmp_path, [(face, 20 * i) for i, face in enumerate(faces)])
    images = list(xobjects(PdfReader(path), "/Image"))
    jpegs = [x for x in images if x["/Filter"] == "/DCTDecode"]
    assert len(jpegs) == 3 and len(images) == 4  # the first JPEG once, though placed twice
    assert {x._data for x in jpegs} == {open(p, "rb").read() for p in paths}
    png, = (x for x in images if x not in jpegs)
    assert "/SMask" in png and png["/SMask"].get_object()["/ColorSpace"] == "/DeviceGray"


@pytest.mark.parametrize("art", ["plain", "translucent"])
def test_a_face_drawn_once_per_build_prints_alike_in_every_file(make_deck, tmp_path, art):
    """Faces are drawn once per build and written into each file (fronts, duplex), SVG art with
    opacity too. The fronts page of the duplex file is, pixel for pixel, page 1 of the fronts
    file, and the text on it extracts alike."""
    from tests.conftest import SIMPLE_DECK, SIMPLE_LAYOUT
    from tests.translucency import ART
    from deckpress import api

    layout = SIMPLE_LAYOUT
    files = {}
    if art == "translucent":
        layout = layout.replace("      - text: {text: \"{title}\"", "      - image: {src: art.svg, x: 5mm, y: 30mm, w: 50mm, "
                                "h: 10mm}\n          - text: {text: \"{title}\"")
        files["layouts/art.svg"] = ART.encode()
    folder = make_deck(SIMPLE_DECK, {"simple": layout}, files)
    result, = api.build(folder, tmp_path / "out", papers="a4", inks="color")
    cards = next(o.path for o in result.outputs if o.path.name == "simple-cards-a4.pdf")
    duplex = next(o.path for o in result.outputs if o.path.name == "simple-duplex-a4.pdf")

    def cards_area(path):  # the page with its label, which names the file, painted out
        from PIL import ImageDraw

        page = pdfium.PdfDocument(str(path))[0]
        image = page.render(scale=1).to_pil().convert("RGB")
        text = page.get_textpage()
        start = text.get_text_range().index("Simple ·")  # the label: title · file · page
        boxes = [text.get_charbox(i) for i in range(start, text.count_chars())]
        x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
        x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
        ImageDraw.Draw(image).rectangle((x0 - 2, image.height - y1 - 2, x1 + 2, image.height - y0 + 2), fill="white")
        return image

    fronts, in_duplex = cards_area(cards), cards_area(duplex)
    assert fronts.getextrema() != ((255, 255),) * 3  # the cards are there
    assert fronts.tobytes() == in_duplex.tobytes()
    title = lambda path: [w for w in page_text(path, 0).split() if w in ("One", "Two")]  # noqa: E731
    assert title(cards) == title(duplex) and title(cards)


# ---- rasters tinted, and made bleed's rows of pixels ---------------------------------------------

TINT_DECK = """
    id: tinted
    title: Tinted
    designer: Test
    license: CC0-1.0
    card: poker
    layouts: [tinted]
    palette:
      sun: {color: "#f4a261", symbol: circle}
      moss: {color: "#2a9d8f", symbol: square}
    components:
      - name: cards
        front: front
        cards:
          - {mark: sun}
          - {mark: moss}
"""

TINT_LAYOUT = """
    templates:
      front:
        fields: {mark: sun}
        elements:
          - rect: {x: -bleed, y: -bleed, w: 100% + 2*bleed, h: 100% + 2*bleed, fill: "#e0e0e0"}
          - image: {src: art/disc.png, x: 5mm, y: 5mm, w: 20mm, h: 20mm, tint: "{mark}"}
          - image: {src: art/square.jpg, x: 30mm, y: 5mm, w: 20mm, h: 20mm, tint: "{mark}"}
          - image: {src: art/disc.png, x: 5mm, y: 30mm, w: 20mm, h: 20mm}
"""


def icons() -> dict[str, bytes]:
    """A black disc on transparency (PNG) and a black square on white (JPEG), 300 dpi at 20 mm."""
    from PIL import ImageDraw

    disc = PILImage.new("RGBA", (240, 240), (0, 0, 0, 0))
    ImageDraw.Draw(disc).ellipse([20, 20, 219, 219], fill=(0, 0, 0, 255))
    square = PILImage.new("RGB", (240, 240), "white")
    ImageDraw.Draw(square).rectangle([60, 60, 179, 179], fill="black")
    jpeg = io.BytesIO()
    square.save(jpeg, format="JPEG", quality=95)
    return {"art/disc.png": png(disc), "art/square.jpg": jpeg.getvalue()}


@pytest.fixture
def tinted_build(make_deck, tmp_path):
    from deckpress.builder.deckbuild import build_deck
    from deckpress.builder.plan import Options

    folder = make_deck(TINT_DECK, {"tinted": TINT_LAYOUT}, icons())
    build_deck(folder, tmp_path / "out", ["a4"], inks=["color", "lowink"])
    build_deck(folder, tmp_path / "cmyk", ["a4"], inks=["color"], options=Options(color="cmyk"))
    return tmp_path / "out" / "tinted", tmp_path / "cmyk" / "tinted"


def card_colours(path, points: list[tuple[float, float]], dpi: int = 150) -> list[list[tuple[int, int, int]]]:
    """For each card on the first page, the colour at each point (mm from its trim's corner)."""
    from tests.test_compose_elements import colour_at, sheet_cards

    picture, trims = sheet_cards(path, dpi)
    return [[colour_at(picture, trim, x, y, dpi) for x, y in points] for trim in trims]


TINT_POINTS = [(15, 15), (40, 15), (31, 6), (15, 40), (6, 6)]  # disc, square, the JPEG's white, untinted disc, beside the disc
SUN, MOSS = (0xf4, 0xa2, 0x61), (0x2a, 0x9d, 0x8f)


def close_to(a, b, tolerance: int = 6) -> bool:
    return all(abs(p - q) <= tolerance for p, q in zip(a, b))


def test_a_one_colour_raster_prints_in_its_tint_its_shape_its_alpha_or_its_darkness(tinted_build):
    colour, _ = tinted_build
    sun_card, moss_card = card_colours(colour / "tinted-cards-a4.pdf", TINT_POINTS)
    for card, tint in ((sun_card, SUN), (moss_card, MOSS)):
        disc, square, white, untinted, beside = card
        assert close_to(disc, tint) and close_to(square, tint)
        assert close_to(white, (0xe0,) * 3) and close_to(beside, (0xe0,) * 3)  # the ground shows where it is not
        assert close_to(untinted, (0, 0, 0))  # no tint: the picture as it is
    # each tint of each picture is a picture of its own, named by it
    pictures = list(xobjects(PdfReader(str(colour / "tinted-cards-a4.pdf")), "/Image"))
    assert len([im for im in pictures if "/SMask" in im]) == 5  # two tints of two pictures, and the plain disc


def test_a_tinted_raster_is_grey_in_black_ink_in_low_ink_and_process_colours_in_cmyk(tinted_build):
    colour, cmyk_build = tinted_build
    low = colour / "tinted-cards-lowink-a4.pdf"
    assert rgb_left(low) == []
    sun_card, moss_card = card_colours(low, TINT_POINTS)
    for card, tint in ((sun_card, SUN), (moss_card, MOSS)):
        luma = round(0.299 * tint[0] + 0.587 * tint[1] + 0.114 * tint[2])  # the tint's grey, as SVG art's is
        assert close_to(card[0], (luma,) * 3, 3) and close_to(card[1], (luma,) * 3, 3)
        assert card[2][0] > 230 and close_to(card[3], (0, 0, 0), 40)
    assert close_to(sun_card[0], (179,) * 3, 3) and close_to(moss_card[0], (121,) * 3, 3)
    assert {im["/ColorSpace"] for im in xobjects(PdfReader(str(low)), "/Image")} == {"/DeviceGray"}
    separated = cmyk_build / "tinted-cards-cmyk-a4.pdf"
    assert rgb_left(separated) == []
    sun_card, moss_card = card_colours(separated, TINT_POINTS)
    assert sun_card[0][0] > sun_card[0][1] > sun_card[0][2] + 40  # orange, as pdfium shows process inks
    assert moss_card[0][1] > moss_card[0][0] + 60 and moss_card[0][2] > moss_card[0][0] + 40  # teal
    assert close_to(sun_card[0], sun_card[1], 6)  # the PNG's and the JPEG's tint alike


def test_extend_draws_a_rasters_outermost_pixels_as_pictures_of_their_own(tmp_path):
    """Stretching the whole picture a hundred times and clipping it to its edge would print the
    same, but a renderer scales the whole picture before it clips: poppler at 300 dpi refused to
    (\"Bogus memory allocation size\") and left the corners white. So the copies are the picture's
    outermost rows, columns and corner pixels, each a picture of its own."""
    import shutil
    import subprocess

    from deckpress.face import grown_into_bleed

    source = tmp_path / "art.png"
    art = PILImage.new("RGB", (750, 1050), (240, 220, 120))
    art.putpixel((0, 0), (30, 160, 60))
    art.save(source)
    items, _ = grown_into_bleed(Image(0, 0, 63.5, 88.9, str(source)), (0, 0, 63.5, 88.9), 3.0, "extend",
                                pixels=(750, 1050))
    path = write(tmp_path, [(Face(63.5, 88.9, 3.0, items), 5)])
    sizes = sorted((int(im["/Width"]), int(im["/Height"])) for im in xobjects(PdfReader(path), "/Image"))
    assert sizes == [(1, 1)] * 4 + [(1, 1050)] * 2 + [(750, 1)] * 2 + [(750, 1050)]
    assert pixel(path, 5 - 1.5, 10 - 1.5, dpi=150) == (30, 160, 60)  # the corner pixel, over the bleed's corner
    if shutil.which("pdftoppm"):
        run = subprocess.run(["pdftoppm", "-r", "300", "-png", str(path), str(tmp_path / "poppler")],
                             capture_output=True, text=True)
        assert run.returncode == 0 and "Bogus" not in run.stderr, run.stderr
        drawn = PILImage.open(next(tmp_path.glob("poppler*.png"))).convert("RGB")
        assert drawn.getpixel((round(3.5 / 25.4 * 300), round(8.5 / 25.4 * 300))) == (30, 160, 60)
