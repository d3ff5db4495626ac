"""backends/rltuning.py: each faster or remembering function gives the bytes of reportlab's own."""

from __future__ import annotations

import zlib

import pytest
from reportlab.pdfbase import pdfdoc, pdfmetrics

from deckpress.backends import rltuning
from deckpress.backends.pdf import font_name
from deckpress.fonts import FontSet


@pytest.fixture(autouse=True)
def installed():
    rltuning.install()
    yield
    rltuning.forget()


@pytest.mark.parametrize("text", [
    "/Type", "612 0 obj\n", "1 0 0 1 0 0 cm\nBT /F1+0 8 Tf (a\\(b) Tj ET", "", "Kanon — Übung",
    "tab\tand\rreturn", "\x7f", "œ€", "x" * 5000,
])
def test_pdfdoc_encoding_is_reportlabs(text: str) -> None:
    assert rltuning._pdfdoc_enc(text) == rltuning._pdfdoc_encode(text)


@pytest.mark.parametrize("text", ["\x18", "page\x1f", "→"])
def test_what_pdfdoc_encoding_cannot_hold_fails_as_in_reportlab(text: str) -> None:
    with pytest.raises(UnicodeEncodeError):
        rltuning._pdfdoc_encode(text)
    with pytest.raises(UnicodeEncodeError):
        rltuning._pdfdoc_enc(text)


@pytest.mark.parametrize("element", [
    "Name", 0, -3, 2.5, 1e-7, 123456.789, b"raw", True, None,
    pdfdoc.PDFArray([1, 2.25, "/N", pdfdoc.PDFString("é")]),
    pdfdoc.PDFDictionary({"Type": pdfdoc.PDFName("XObject"), "W": [1, 2]}),
])
def test_formatting_is_reportlabs(element: object) -> None:
    document = pdfdoc.PDFDocument(invariant=1)
    assert rltuning._format_fast(element, document) == rltuning._format(element, document)


def test_installed_in_reportlab() -> None:
    assert pdfdoc.format is rltuning._format_fast
    assert pdfdoc.pdfdocEnc is rltuning._pdfdoc_enc
    assert pdfdoc.PDFZCompress.encode.__func__ is rltuning._compress


def test_a_stream_met_again_is_not_compressed_again() -> None:
    data = bytes(range(256)) * 40
    first = pdfdoc.PDFZCompress.encode(data)
    assert first == zlib.compress(data)
    assert pdfdoc.PDFZCompress.encode(data) is first  # remembered, not made again
    assert pdfdoc.PDFZCompress.encode(data.decode("latin-1")) == zlib.compress(data.decode("latin-1").encode("utf8"))


def test_a_short_stream_is_compressed_each_time() -> None:
    data = b"0 0 m 10 10 l S\n" * 10
    assert pdfdoc.PDFZCompress.encode(data) == zlib.compress(data)
    assert not rltuning._COMPRESSED.items


def test_memory_is_bounded() -> None:
    kept = rltuning._Remembered(budget=100)
    for i in range(10):
        kept.put(i, bytes(30))
    assert kept.used <= 100 and list(kept.items) == [7, 8, 9]
    assert kept.get(7) is not None and kept.get(0) is None
    kept.put(10, bytes(30))  # 7 was used last: 8 goes first
    assert list(kept.items) == [9, 7, 10]


def test_a_font_subset_is_remembered_and_the_same() -> None:
    face = pdfmetrics.getFont(font_name(FontSet().file("sans").path)).face
    subset = [0, *map(ord, "Kanon")]
    made = rltuning._make_subset(face, subset)
    assert face.makeSubset(subset) == made
    assert face.makeSubset(subset) is face.makeSubset(subset)
    assert face.makeSubset([0, *map(ord, "nonaK")]) != made  # the order is the subset's codes


@pytest.mark.parametrize("sequence", [[1, 2.5, -3, 1e-5, 600], [0] * 12, [1, 2, 3], [1, 2, "/N", 4], [True, 1, 2, 3]])
def test_an_array_is_formatted_as_reportlab_does(sequence) -> None:
    document = pdfdoc.PDFDocument(invariant=1)
    array = pdfdoc.PDFArray(sequence)
    assert array.format(document) == rltuning._format_array(array, document)
    assert array.format(document) == rltuning._format_array(array, document)  # remembered, still the same
    compact = pdfdoc.PDFArrayCompact(sequence)
    assert compact.format(document) == rltuning._format_array(compact, document)


def test_arrays_of_numbers_are_remembered() -> None:
    document = pdfdoc.PDFDocument(invariant=1)
    widths = [500 + i for i in range(100)]
    first = pdfdoc.PDFArray(widths).format(document)
    assert pdfdoc.PDFArray(list(widths)).format(document) is first


@pytest.mark.parametrize("multiline", [True, False, "forced"])
@pytest.mark.parametrize("entries", [
    {"Type": pdfdoc.PDFName("Font"), "Widths": pdfdoc.PDFArray([1, 2, 3, 4, 5]), "N": 3},
    {f"K{i}": i for i in range(14)},  # line breaks every six entries when not multiline
    {},
])
def test_a_dictionary_is_formatted_as_reportlab_does(entries, multiline) -> None:
    from collections import OrderedDict

    document = pdfdoc.PDFDocument(invariant=1)
    for d in (pdfdoc.PDFDictionary(entries), pdfdoc.PDFDictionary(OrderedDict(reversed(list(entries.items()))))):
        d.multiline = multiline
        assert d.format(document) == rltuning._format_dictionary(d, document)
        assert d.format(document) == rltuning._format_dictionary(d, document)  # names remembered, the same


def test_short_strings_are_encoded_as_reportlab_does_each_time() -> None:
    for _ in range(2):
        assert rltuning._pdfdoc_enc("/Type") == b"/Type"
        with pytest.raises(UnicodeEncodeError):
            rltuning._pdfdoc_enc("\x18")
