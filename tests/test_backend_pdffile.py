"""The PDF file format: values in PDF syntax, objects where the cross-reference table says, and
the same objects giving the same file."""

from __future__ import annotations

import io

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from deckpress.backends.pdffile import Name, PdfFile, Raw, Ref, deflate, dumps


@pytest.mark.parametrize("value, written", [
    ({"Type": Name("Page"), "Count": 3, "Box": [0, 0, 595.275591, 841.889764]},
     b"<< /Type /Page /Count 3 /Box [0 0 595.2756 841.8898] >>"),
    ([Ref(4), Name("X"), 0.5, True, False, [], {}], b"[4 0 R /X .5 true false [] << >>]"),
    ("Tom (the) \\ cat", b"(Tom \\(the\\) \\\\ cat)"),
    ("Kanon — Übung", b"<FEFF004B0061006E006F006E00202014002000DC00620075006E0067>"),  # beyond Latin-1: UTF-16
    ("Übung", b"(\xdcbung)"),
    (Raw(b"<ab12>"), b"<ab12>"),
    ({"Deep": {"Deeper": [1, {"Deepest": Name("Yes")}]}}, b"<< /Deep << /Deeper [1 << /Deepest /Yes >>] >> >>"),
])
def test_values_are_written_in_pdf_syntax(value, written):
    assert dumps(value) == written


def test_a_value_pdf_has_no_form_for_is_refused():
    with pytest.raises(TypeError):
        dumps({"Set": {1, 2}})


def small_file(title: str = "t", compact: bool = False, extra: int = 0) -> bytes:
    buffer = io.BytesIO()
    pdf = PdfFile(buffer, "1.5" if compact else "1.4", compact=compact)
    for i in range(extra):  # more small objects than one object stream holds
        pdf.write({"N": i, "Kind": Name("Filler")})
    tree = pdf.reserve()  # referred to before it is written
    content = pdf.write_stream({}, b"0 0 1 rg 10 10 50 50 re f")
    page = pdf.write({"Type": Name("Page"), "Parent": tree, "MediaBox": [0, 0, 100, 100], "Resources": {},
                      "Contents": content})
    pdf.write({"Type": Name("Pages"), "Kids": [page], "Count": 1}, tree)
    catalog = pdf.write({"Type": Name("Catalog"), "Pages": tree})
    pdf.close(catalog, pdf.write({"Title": title}))
    return buffer.getvalue()


def test_a_file_reads_back_strictly_and_every_offset_points_at_its_object():
    data = small_file()
    reader = PdfReader(io.BytesIO(data), strict=True)
    assert reader.metadata["/Title"] == "t" and len(reader.pages) == 1
    table = data[data.rindex(b"xref"):].split(b"\n")
    offsets = [int(line[:10]) for line in table[3:] if line.endswith(b" n ")]
    assert [data[at:].split(b" ", 1)[0] for at in offsets] == [str(n).encode() for n in range(1, len(offsets) + 1)]
    start = int(data.rsplit(b"startxref\n", 1)[1].split(b"\n")[0])
    assert data[start:start + 4] == b"xref"
    image = pdfium.PdfDocument(data)[0].render(scale=1).to_pil().convert("RGB")
    assert image.getpixel((30, 60)) == (0, 0, 255)  # the blue square, 10 pt up from the bottom


def test_the_same_objects_give_the_same_bytes_and_the_id_follows_the_content():
    assert small_file() == small_file()
    ids = {PdfReader(io.BytesIO(small_file(t))).trailer["/ID"][0] for t in ("a", "b")}
    assert len(ids) == 2


@pytest.mark.parametrize("extra", [0, 450])
def test_a_compact_file_packs_its_small_objects_and_its_cross_reference_into_streams(extra):
    """Home sheets (issue 37): every object but a stream goes into a compressed object stream, and
    the cross-reference is a compressed stream; qpdf (through pikepdf), pypdf strictly and pdfium
    read it all back, and it is smaller than the same objects written plainly."""
    import pikepdf

    data = small_file(compact=True, extra=extra)
    assert data.startswith(b"%PDF-1.5") and b"/Type /ObjStm" in data and b"/Type /XRef" in data
    assert b"/Type /Page" not in data and b"\nxref\n" not in data  # dictionaries compressed, no plain table
    with pikepdf.open(io.BytesIO(data)) as pdf:
        assert pdf.check_pdf_syntax() == [] and len(pdf.pages) == 1
        fillers = [o for o in pdf.objects if isinstance(o, pikepdf.Dictionary) and o.get("/Kind") == "/Filler"]
        assert sorted(int(o.N) for o in fillers) == list(range(extra))
    reader = PdfReader(io.BytesIO(data), strict=True)
    assert reader.metadata["/Title"] == "t" and len(reader.pages) == 1
    image = pdfium.PdfDocument(data)[0].render(scale=1).to_pil().convert("RGB")
    assert image.getpixel((30, 60)) == (0, 0, 255)
    assert small_file(compact=True, extra=extra) == data  # the same bytes every time
    if extra:
        assert len(data) < 0.5 * len(small_file(extra=extra))


def test_an_object_reserved_and_never_written_is_a_mistake_not_a_broken_file():
    pdf = PdfFile(io.BytesIO())
    pdf.reserve()
    with pytest.raises(ValueError, match="never written"):
        pdf.close(pdf.write({}), pdf.write({}))


def test_compression_is_remembered_and_undone_by_zlib():
    import zlib

    data = b"q 1 0 0 1 10 10 cm /face1 Do Q\n" * 100
    assert zlib.decompress(deflate(data)) == data
    assert deflate(data) is deflate(data)  # the second time, remembered
