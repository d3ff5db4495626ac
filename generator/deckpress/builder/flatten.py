"""Faces without transparency, for files whose standard forbids it.

PDF/X-1a, which DriveThruCards asks for, allows no transparency: no translucent layer, no soft
mask, no picture with alpha. A face that has any (an element's `opacity`, vector art with opacity,
a soft mask or a blend mode, a picture that lets the card show through) is printed in such a file as one picture of
itself: drawn as the PDF draws it, at FLATTEN_DPI, over white, then separated into process inks
like every other picture. What is flattened is said as a warning; its text is pixels in that file.
Every other face stays as it is, vector and searchable.
"""

from __future__ import annotations

from pathlib import Path

from ..face import Face, Group, Image
from ..imagefile import see_through as picture_see_through
from ..vectorart import is_vector, load_art

FLATTEN_DPI = 600  #: twice what print shops ask for, so flattened text stays crisp


def see_through(face: Face) -> bool:
    """Whether anything on `face` lets what lies beneath it show through."""
    stack = [face.items]
    while stack:
        for item in stack.pop():
            if type(item) is Group:
                if item.opacity < 1:
                    return True
                stack.append(item.items)
            elif type(item) is Image:
                if is_vector(item.source):
                    if load_art(item.source, item.fonts, item.page, edits=item.edits).see_through:
                        return True
                elif picture_see_through(item.source, item.edits.tint):
                    return True
    return False


class Flattener:
    """Each face with transparency as one opaque picture of itself (written into `folder`, which
    must outlive the files that print them); faces without it as they are."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.done: dict[Face, Face] = {}

    def __call__(self, face: Face | None) -> Face | None:
        if face is None or not see_through(face):
            return face
        flat = self.done.get(face)
        if flat is None:
            # the raster backend (pdfium, worker processes) only for a build that flattens something
            from ..backends.raster import RasterJob, bleed_box, pixels, render

            box = bleed_box(face)
            path = self.folder / f"flattened-{len(self.done) + 1}.png"
            render([RasterJob(face, box, pixels(box, FLATTEN_DPI), path, FLATTEN_DPI)])
            b = face.bleed
            flat = self.done[face] = Face(face.width, face.height, b,
                                          (Image(-b, -b, face.width + 2 * b, face.height + 2 * b, str(path)),),
                                          face.radius)
        return flat
