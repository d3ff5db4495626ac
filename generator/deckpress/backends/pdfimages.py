"""Raster pictures as PDF image XObjects.

A JPEG printed as it is goes in as its own bytes (DCTDecode), read from its file only while the
document is written, so a document placing a thousand photos holds none of them. Anything else (a
PNG, WebP, TIFF, GIF, BMP or PSD: imagefile.RASTER_FORMATS) is decoded (its first frame, in a mode
PDF takes: imagefile.printable), scaled down to what prints (imagefile.embedded_pixels), turned
grey, lightened or separated into CMYK as the face asks, and Flate-compressed; its transparency
becomes a soft mask.
A picture's encoded bytes are remembered for the build's other documents (within a budget).

A picture is named by what it is (its file's content and its treatment), so the name is the same
in every document of a build, and wherever the deck is built, and a face that shows it is the same
content-stream bytes everywhere.
"""

from __future__ import annotations

import functools
import hashlib
import zlib
from dataclasses import dataclass, field

from PIL import Image as PILImage

from ..errors import DeckError
from ..separation import FORMULA, Separation
from ..imagefile import Crop, decoded, embedded_pixels, greyed, open_raster, raster_pixels, tinted, treated
from .pdfcanvas import ResourceWriter
from .pdffile import Name, Ref, Remembered, digest

_SPACES = {"1": "DeviceGray", "L": "DeviceGray", "RGB": "DeviceRGB", "CMYK": "DeviceCMYK"}


@dataclass(frozen=True)
class Encoded:
    """A picture ready to write: its image dictionary's entries, its stream (compressed), and its
    soft mask's (a grey picture of its alpha) if it has one."""

    entries: dict
    data: bytes
    mask: Encoded | None = None

    @property
    def size(self) -> int:
        return len(self.data) + (self.mask.size if self.mask else 0)


def encode(image: PILImage.Image, alpha: PILImage.Image | None = None) -> Encoded:
    """A decoded picture as an image XObject's entries and Flate-compressed samples: in greys, RGB
    or CMYK as it is (1-bit as one bit a pixel, other modes as RGB), its alpha (or palette
    transparency, or `alpha` given apart, as a CMYK picture's must be) a soft mask where it is not
    opaque."""
    if "transparency" in image.info or image.mode in ("PA", "La", "RGBa"):
        image = image.convert("RGBA")
    if image.mode in ("LA", "RGBA"):
        alpha = image.getchannel("A")
        image = image.convert(image.mode[:-1])
    elif image.mode not in _SPACES:
        image = image.convert("RGB")
    # line art ("1") as Pillow packs it, which is how PDF does: rows of whole bytes, a set bit white
    entries = {"Type": Name("XObject"), "Subtype": Name("Image"), "Width": image.width, "Height": image.height,
               "BitsPerComponent": 1 if image.mode == "1" else 8, "ColorSpace": Name(_SPACES[image.mode])}
    return Encoded(entries, zlib.compress(image.tobytes()), _mask(alpha))


def _mask(alpha: PILImage.Image | None) -> Encoded | None:
    """An alpha channel as a soft mask, or None where it is opaque everywhere."""
    if alpha is None or alpha.getextrema() == (255, 255):
        return None
    return Encoded({"Type": Name("XObject"), "Subtype": Name("Image"), "Width": alpha.width,
                    "Height": alpha.height, "BitsPerComponent": 8, "ColorSpace": Name("DeviceGray")},
                   zlib.compress(alpha.tobytes()))


def write_encoded(writer: ResourceWriter, picture: Encoded) -> Ref:
    entries = dict(picture.entries)
    if picture.mask is not None:
        entries["SMask"] = write_encoded(writer, picture.mask)
    entries["Filter"] = Name("FlateDecode")
    return writer.pdf.write_stream(entries, picture.data, compress=False)


_ENCODED: Remembered[Encoded] = Remembered(64 * 1024 * 1024, lambda picture: picture.size)


def _digest(*parts: object) -> str:
    return digest(repr(parts).encode("utf-8", "surrogatepass"), 8).hex()


@functools.lru_cache(maxsize=4096)
def _content(path: str, _stamp: tuple[int, int]) -> str:
    """A digest of a file's bytes, read a block at a time."""
    found = hashlib.sha1(usedforsecurity=False)  # as pdffile.digest, a block at a time
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            found.update(block)
    return found.hexdigest()[:32]


@dataclass(frozen=True)
class RasterPicture:
    """A face's raster picture: the file (its pixels `crop`, when given), printed at `printed` mm,
    `tint`ed (imagefile.tinted), then greyed (and `lighten`ed toward white) or separated into CMYK
    (by `separation`) as the face asks, so a tint is greyed and separated as every colour is;
    `stamp` tells versions of the file apart."""

    source: str
    grey: bool
    lighten: float
    cmyk: bool
    printed: tuple[float, float]
    stamp: tuple[int, int]
    separation: Separation = FORMULA
    tint: str | None = None
    crop: Crop | None = None
    name: str = field(init=False, compare=False)

    def __post_init__(self) -> None:  # named by what it shows, never by where its file lies
        parts: tuple[object, ...] = (_content(self.source, self.stamp), self.grey, self.lighten, self.cmyk,
                                     self.printed)
        if self.cmyk and self.separation is not FORMULA:
            parts += (self.separation.name,)
        if self.tint is not None or self.crop is not None:  # (the names pictures had before stay theirs)
            parts += (self.tint, self.crop)
        object.__setattr__(self, "name", "Im" + _digest(*parts))

    def write(self, writer: ResourceWriter) -> Ref:
        try:
            size = raster_pixels(self.source)  # known since the deck was checked: not opened again
            if self.crop is not None:
                left, top, right, bottom = self.crop
                size = (right - left, bottom - top)
            pixels = embedded_pixels(size, self.printed)
            untouched = not (self.grey or self.lighten or self.cmyk or self.tint or self.crop) and pixels == size
            if untouched:
                jpeg = _jpeg(self.source, self.stamp)
                if jpeg is not None:
                    return writer.pdf.write_stream(jpeg[0], jpeg[1], compress=False)
            found = _ENCODED.get(self.name)
            if found is None:
                if self.crop is not None:  # a few pixels of the picture (made bleed's edges)
                    part = treated(self.source, self.tint, self.crop)
                    found = _ENCODED.put(self.name, self._encoded(part if pixels == size else
                                                                  part.resize(pixels, PILImage.Resampling.LANCZOS)))
                else:
                    with open_raster(self.source) as im:
                        picture = decoded(im, pixels)
                        found = _ENCODED.put(self.name, self._encoded(
                            picture if self.tint is None else tinted(picture, self.tint)))
        except ValueError as exc:  # backends see no deck: the picture is named, the card that placed it was checked
            raise DeckError(str(exc), self.source) from None
        return write_encoded(writer, found)

    def _encoded(self, picture: PILImage.Image) -> Encoded:
        if self.grey or self.lighten:
            return encode(greyed(picture, self.lighten))
        if self.cmyk:
            return encode(*separated(picture, self.separation))
        return encode(picture)


def _jpeg(path: str, stamp: tuple[int, int]) -> tuple[dict, bytes] | None:
    """A JPEG file's image entries and bytes, to embed as they are; None if it is no JPEG."""
    entries = _jpeg_entries(path, stamp)
    if entries is None:
        return None
    with open(path, "rb") as file:
        return entries, file.read()


@functools.lru_cache(maxsize=4096)  # read once for all the documents that embed it
def _jpeg_entries(path: str, _stamp: tuple[int, int]) -> dict | None:
    with PILImage.open(path) as im:  # reads the header only
        if im.format != "JPEG" or im.mode not in _SPACES:
            return None
        entries = {"Type": Name("XObject"), "Subtype": Name("Image"), "Width": im.width, "Height": im.height,
                   "BitsPerComponent": 8, "ColorSpace": Name(_SPACES[im.mode])}
        if im.mode == "CMYK":  # Adobe's CMYK JPEGs store their inks inverted
            entries["Decode"] = [1, 0, 1, 0, 1, 0, 1, 0]
    entries["Filter"] = Name("DCTDecode")
    return entries


@dataclass(frozen=True, eq=False)
class ArtPicture:
    """A raster picture inside SVG art, in the document's colour space as the art's own colours
    are: greys (black ink only) for "k", separated (by `separation`) for "cmyk"."""

    image: PILImage.Image
    colors: str
    separation: Separation = FORMULA
    name: str = field(init=False)

    def __post_init__(self) -> None:
        im = self.image
        parts: tuple[object, ...] = (digest(im.tobytes(), 8).hex(), im.mode, im.size, self.colors)
        if self.colors == "cmyk" and self.separation is not FORMULA:
            parts += (self.separation.name,)
        object.__setattr__(self, "name", "Im" + _digest(*parts))

    def write(self, writer: ResourceWriter) -> Ref:
        found = _ENCODED.get(self.name)
        if found is None:
            picture = self.image
            encoded = encode(greyed(picture)) if self.colors == "k" else \
                encode(*separated(picture, self.separation)) if self.colors == "cmyk" else encode(picture)
            found = _ENCODED.put(self.name, encoded)
        return write_encoded(writer, found)


def separated(picture: PILImage.Image, separation: Separation = FORMULA
              ) -> tuple[PILImage.Image, PILImage.Image | None]:
    """A picture in process inks (`separation`'s, on every pixel) and its alpha apart, since a
    CMYK picture cannot hold one."""
    if "transparency" in picture.info:  # a palette or colour key: as an alpha channel
        picture = picture.convert("RGBA")
    alpha = picture.getchannel("A") if "A" in picture.getbands() else None
    return (picture.copy() if picture.mode == "CMYK" else separation.picture(picture.convert("RGB"))), alpha
