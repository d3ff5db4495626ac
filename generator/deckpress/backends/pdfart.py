"""Vector art (vectorart.Art: an SVG drawn by svg2pdf, or a page of a PDF) as a form XObject.

The art's objects (its fonts, pictures, shadings, patterns, soft masks) are written into each
document that places it, under that document's numbers; its page's content is the form's
content, its page box the form's box, its transparency group the form's. A form is named by the
art's content and treatment, so a face that places it is the same bytes in every document.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..vectorart import Art, Local, Stream
from .pdfcanvas import ResourceWriter
from .pdffile import Name, Raw, Ref

_DELIMITERS = set(b"()<>[]{}/%#")


def _name(text: str) -> Name:
    """A PDF name with what must be escaped as #xx (a name from a stranger's PDF may hold anything)."""
    raw = text.encode("utf-8", "surrogateescape")
    if all(0x21 <= c <= 0x7E and c not in _DELIMITERS for c in raw):
        return Name(text)
    return Name("".join(chr(c) if 0x21 <= c <= 0x7E and c not in _DELIMITERS else f"#{c:02X}" for c in raw))


def _value(value: object, refs: list[Ref]) -> object:
    """An art value as a pdffile value, its `Local` references as this document's."""
    kind = type(value)
    if kind is Local:
        return refs[value]  # type: ignore[index]
    if kind is dict:
        return {_name(k): _value(v, refs) for k, v in value.items()}  # type: ignore[union-attr]
    if kind is list:
        return [_value(v, refs) for v in value]  # type: ignore[union-attr]
    if isinstance(value, bytes):  # a string
        return Raw(b"<" + value.hex().encode("ascii") + b">")
    if isinstance(value, str):  # a name
        return _name(value)
    if value is None:
        return Raw(b"null")
    return value


@dataclass(eq=False)
class ArtForm:
    """An `Art` as a form XObject (pdfcanvas.XObject): its objects and itself written once a document."""

    art: Art
    name: str = field(init=False)

    def __post_init__(self) -> None:
        self.name = "Fa" + self.art.name

    def write(self, writer: ResourceWriter) -> Ref:
        pdf, art = writer.pdf, self.art
        refs = [pdf.reserve() for _ in art.objects]
        for ref, obj in zip(refs, art.objects):
            if isinstance(obj, Stream):
                entries = _value(obj.entries, refs)
                compress = "Filter" not in obj.entries
                pdf.write_stream(entries, obj.data, ref, compress=compress)  # type: ignore[arg-type]
            else:
                pdf.write(_value(obj, refs), ref)
        entries: dict = {"Type": Name("XObject"), "Subtype": Name("Form"), "BBox": list(art.box),
                         "Resources": _value(art.resources, refs) or {}}
        if isinstance(art.group, dict) or isinstance(art.group, Local):
            entries["Group"] = _value(art.group, refs)
        return pdf.write_stream(entries, art.content, compress=True)

