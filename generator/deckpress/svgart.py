"""SVG art read into reportlab drawings by svglib, with the opacity svglib leaves out.

svglib makes `fill-opacity` and `stroke-opacity` the alpha of each shape's paint, but ignores
`opacity`, which makes an element (a shape, a group, a `<use>`, a nested picture) one translucent
layer: its parts are drawn solid among themselves, then laid over what is beneath at that opacity.
Multiplying it into every paint's alpha would be wrong wherever parts overlap (a stroke over its
own fill, the shapes of a group), so each element with an opacity below 1 becomes a `Translucent`
group, which the PDF backend paints as a transparency group. Opacities may be percentages, and
out of range are clamped, as browsers read them (svglib would hand 1.5 on for reportlab to refuse).

Imported only when a picture is read: svglib brings lxml.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import types
import warnings
from typing import Any

from PIL import Image as PILImage


class _DeferredPackage(types.ModuleType):
    """A package whose own code runs when it is first asked for a name it does not hold yet."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        self.__class__ = types.ModuleType  # once: from now on an ordinary module
        self.__spec__.loader.exec_module(self)
        return getattr(self, name)


def _defer_platypus() -> None:
    """reportlab's graphics (a Drawing is a platypus Flowable, and svglib imports the PDF renderer,
    which makes drawings flowables too) import `Flowable` from the reportlab.platypus package, whose
    own code imports all of platypus: paragraphs, tables, page templates, a tenth of a second for
    one class. The package is put in place with that class, from its own module, and runs its own
    code only when something asks it for anything else."""
    if "reportlab.platypus" in sys.modules:
        return
    spec = importlib.util.find_spec("reportlab.platypus")
    if spec is None or spec.loader is None:
        return
    package = importlib.util.module_from_spec(spec)
    sys.modules["reportlab.platypus"] = package
    try:
        from reportlab.platypus.flowables import Flowable
    except ImportError:  # reportlab has moved it: the package is imported as usual
        del sys.modules["reportlab.platypus"]
        return
    package.Flowable = Flowable  # type: ignore[attr-defined]
    package.__class__ = _DeferredPackage
    import reportlab

    reportlab.platypus = package  # as importing it would have set it


_defer_platypus()

from reportlab.graphics.shapes import AttrMap, AttrMapValue, Drawing, Group, isNumber  # noqa: E402
from svglib.svglib import NodeTracker, SvgRenderer, load_svg_file  # noqa: E402

from .colors import parse_opacity  # noqa: E402
from .imagefile import UNREADABLE, MAX_PIXELS, PictureError, see_through as raster_see_through  # noqa: E402


class Translucent(Group):
    """Drawing items as one layer at `opacity` (0 = invisible, 1 = solid)."""

    _attrMap = AttrMap(BASE=Group, opacity=AttrMapValue(isNumber, desc="0 (invisible) to 1 (solid)"))

    def __init__(self, items: list[Any], opacity: float) -> None:
        super().__init__(*items)
        self.opacity = opacity


def svg_opacity(value: str) -> float:
    """An SVG opacity as browsers read it: a number or a percentage, clamped to 0…1."""
    return parse_opacity(value.replace("!important", ""), clamp=True)


class _Renderer(SvgRenderer):
    """svglib's renderer, wrapping each element whose own opacity is below 1 in a `Translucent`."""

    def __init__(self, path: str) -> None:
        # art may come from strangers: the files it links (<image>, <use>) must lie beside it or
        # below, as every file a deck reads stays inside its folder; svglib refuses the others
        super().__init__(path, external_reference_root=os.path.dirname(os.path.abspath(path)))
        self.attrConverter.convertOpacity = svg_opacity  # fill- and stroke-opacity too

    def render(self, svg_node: Any) -> Drawing:
        drawing = super().render(svg_node)
        opacity = self._opacity(NodeTracker.from_xml_root(svg_node))
        if opacity < 1:
            drawing.contents = [Translucent(drawing.contents, opacity)]
        return drawing

    def xlink_href_target(self, node: NodeTracker, group: Group | None = None) -> Any:
        """svglib decodes a picture inside the art (a data: URI) as it reads it: its size is held to
        the bound every picture has, and a broken one is the art's mistake, not a crash."""
        try:
            with warnings.catch_warnings():  # our own bound is said below
                warnings.simplefilter("ignore", PILImage.DecompressionBombWarning)
                target = super().xlink_href_target(node, group)
        except PILImage.DecompressionBombError:
            raise PictureError(self.source_path, f"holds a picture of more than {MAX_PIXELS // 1_000_000} "
                                                 "megapixels, more than any picture may have") from None
        except UNREADABLE as exc:
            raise PictureError(self.source_path, f"holds a picture that cannot be read: {exc}") from None
        if isinstance(target, PILImage.Image) and target.width * target.height > MAX_PIXELS:
            raise PictureError(self.source_path, f"holds a picture of {target.width}×{target.height} px, more "
                                                 f"than the {MAX_PIXELS // 1_000_000} megapixels any picture may have")
        return target

    def renderNode(self, node: NodeTracker, parent: Group | None = None) -> None:
        before = len(parent.contents) if parent is not None else 0
        super().renderNode(node, parent)
        if parent is not None and len(parent.contents) > before:
            opacity = self._opacity(node)
            if opacity < 1:
                parent.contents[before:] = [Translucent(parent.contents[before:], opacity)]

    def _opacity(self, node: NodeTracker) -> float:
        """The element's own opacity: from its attribute, its style or the document's CSS, but
        not from its ancestors (opacity is not inherited; theirs is a group around it)."""
        self.attrConverter.findAttr(node, "opacity")  # moves its style and CSS into its attributes
        value = node.etree_element.attrib.get("opacity", "").strip()
        try:
            return svg_opacity(value) if value else 1.0
        except ValueError:  # `inherit` or nonsense: as a browser, draw it solid
            return 1.0


def see_through(drawing: Drawing) -> bool:
    """Whether any part of SVG art lets what lies beneath show through: a translucent element, a
    fill or stroke opacity below 1, a colour with alpha, or a picture with transparency."""
    from reportlab.graphics.shapes import Image as PictureNode

    stack: list[Any] = [drawing]
    while stack:
        node = stack.pop()
        if getattr(node, "opacity", 1.0) < 1:
            return True
        for name in ("fillOpacity", "strokeOpacity"):
            value = getattr(node, name, None)
            if value is not None and value < 1:
                return True
        colours = [getattr(node, "fillColor", None), getattr(node, "strokeColor", None),
                   *getattr(node, "_rl_colors", ())]  # a gradient's stops
        if any(getattr(c, "alpha", 1) < 1 for c in colours if c is not None):
            return True
        if isinstance(node, PictureNode):
            picture = node.path  # a data: URI's picture decoded, or a linked file
            if isinstance(picture, PILImage.Image):
                if "transparency" in picture.info or ("A" in picture.getbands()
                                                      and picture.getchannel("A").getextrema()[0] < 255):
                    return True
            elif isinstance(picture, str) and os.path.exists(picture) and raster_see_through(picture):
                return True
        if isinstance(node, Group):
            stack += node.contents
    return False


def read_svg(path: str) -> Drawing | None:
    """An SVG file as a reportlab Drawing, None if it cannot be read (as svglib's svg2rlg)."""
    root = load_svg_file(path)
    return None if root is None else _Renderer(path).render(root)
