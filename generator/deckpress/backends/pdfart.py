"""Vector art (vectorart.Art: an SVG drawn by svg2pdf, or a page of a PDF) as a form XObject.

The art's objects (its fonts, pictures, shadings, patterns, soft masks) are written into each
document that places it, under that document's numbers; its page's content is the form's
content, its page box the form's box, its transparency group the form's. A form is named by the
art's content and treatment, so a face that places it is the same bytes in every document.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from ..vectorart import Art, Local, Stream
from .pdfcanvas import ResourceWriter
from .pdffile import Name, Raw, Ref, Slot, Template, stream_body

_DELIMITERS = set(b"()<>[]{}/%#")


def _name(text: str) -> Name:
    """A PDF name with what must be escaped as #xx (a name from a stranger's PDF may hold anything)."""
    raw = text.encode("utf-8", "surrogateescape")
    if all(0x21 <= c <= 0x7E and c not in _DELIMITERS for c in raw):
        return Name(text)
    return Name("".join(chr(c) if 0x21 <= c <= 0x7E and c not in _DELIMITERS else f"#{c:02X}" for c in raw))


def _value(value: object, order: list[int]) -> object:
    """An art value as a pdffile value, each `Local` reference a `Slot` (its object's number in
    `order`, filled in by each document)."""
    kind = type(value)
    if kind is Local:
        order.append(value)  # type: ignore[arg-type]
        return Slot()
    if kind is dict:
        return {_name(k): _value(v, order) for k, v in value.items()}  # type: ignore[union-attr]
    if kind is list:
        return [_value(v, order) for v in value]  # type: ignore[union-attr]
    if isinstance(value, bytes):  # a string
        return Raw(b"<" + value.hex().encode("ascii") + b">")
    if isinstance(value, str):  # a name
        return _name(value)
    if value is None:
        return Raw(b"null")
    return value


class _Object:
    """One of the art's objects (or the form itself) formatted once, for every document: its
    syntax with a slot for each object it refers to, in `order`."""

    def __init__(self, value: object, data: bytes | None = None, compress: bool = False) -> None:
        self.order: list[int] = []
        entries = _value(value, self.order)
        if data is not None:
            body = stream_body(entries, data, compress)  # type: ignore[arg-type]
            head, _, rest = body.partition(b"\nstream\n")
            self.template, self.tail = Template(Raw(head)), b"\nstream\n" + rest
        else:
            self.template, self.tail = Template(entries), b""

    def body(self, refs: list[Ref]) -> bytes:
        return self.template.fill(*(refs[i] for i in self.order)) + self.tail


@functools.lru_cache(maxsize=256)  # by the art's identity: the Art objects vectorart keeps
def _formatted(art: Art) -> tuple[tuple[_Object, ...], _Object]:
    """The art's objects and its form, formatted once."""
    objects = tuple(_Object(obj.entries, obj.data, "Filter" not in obj.entries) if isinstance(obj, Stream)
                    else _Object(obj) for obj in art.objects)
    entries: dict = {"Type": "XObject", "Subtype": "Form", "BBox": list(art.box), "Resources": art.resources or {}}
    if isinstance(art.group, (dict, Local)):
        entries["Group"] = art.group
    return objects, _Object(entries, art.content, compress=True)


@dataclass(eq=False)
class ArtForm:
    """An `Art` as a form XObject (pdfcanvas.XObject): its objects and itself written once a document."""

    art: Art
    name: str = field(init=False)

    def __post_init__(self) -> None:
        self.name = "Fa" + self.art.name

    def write(self, writer: ResourceWriter) -> Ref:
        pdf = writer.pdf
        objects, form = _formatted(self.art)
        refs = [pdf.reserve() for _ in objects]
        for ref, obj in zip(refs, objects):
            pdf.write_formatted(obj.body(refs), ref)
        return pdf.write_formatted(form.body(refs))
