"""Raster pictures named by decks: their formats, proportions and the resolution they print at.
(Vector art, SVG and PDF, is vectorart.py's.)

A raster picture is any of RASTER_FORMATS (PNG, JPEG, WebP, TIFF, GIF, BMP, PSD), told by its
content, not its name; nothing else Pillow reads is opened past its header (EPS would run
Ghostscript). Its first frame is what prints (a PSD's is its flattened composite), decoded into
one of the modes every backend takes (`printable`): 16-bit and float greys scaled to 8 bits,
Lab and the like made RGB."""

from __future__ import annotations

import functools
import io
import math
import os
import sys
import tempfile
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from PIL import Image as PILImage, ImageChops

from .colors import paled


MAX_PIXELS = 150_000_000  #: a picture's pixels, read from its header before anything is decoded
EMBED_DPI = 600  #: a raster is embedded at no more than this at its printed size: finer dots never print
EMBED_MAX_PIXELS = 25_000_000  #: nor with more pixels than this (600 dpi over 212 × 212 mm), whatever its size

#: the raster formats a picture may be, as Pillow names them (MPO: a JPEG with more pictures after
#: it, as some cameras write), with the names people know them by
RASTER_FORMATS = {"PNG": "PNG", "JPEG": "JPEG", "MPO": "JPEG", "WEBP": "WebP", "TIFF": "TIFF", "GIF": "GIF",
                  "BMP": "BMP", "PSD": "PSD"}
RASTER_KINDS = "PNG, JPEG, WebP, TIFF, GIF, BMP or PSD"  #: said where pictures are asked for
_READERS = ("PNG", "JPEG", "WEBP", "TIFF", "GIF", "BMP", "PSD")  # Pillow's JPEG reader opens MPO too

# What Pillow raises for a file that is no picture it can read, or a broken one: an unknown format,
# a truncated or corrupt file (OSError, SyntaxError from the plugins' checks), impossible header values
#: what Pillow raises for a file it cannot read as a picture (truncated, corrupt, a bomb)
UNREADABLE = (OSError, SyntaxError, ValueError, EOFError, PILImage.DecompressionBombError)


class PictureError(ValueError):
    """A raster picture that cannot be used: `reason` says why without naming it (for messages that
    name the file already), str() names it. `unreadable` when it is no picture Pillow knows at all."""

    def __init__(self, path: str, reason: str, unreadable: bool = False) -> None:
        super().__init__(f"picture '{Path(path).name}' {reason}")
        self.reason = reason
        self.unreadable = unreadable


def _too_big(path: str, pixels: tuple[int, int] | None) -> PictureError:
    size = f"is {pixels[0]}×{pixels[1]} px ({pixels[0] * pixels[1] / 1e6:.0f} megapixels)" if pixels else \
        f"has more than {MAX_PIXELS // 1_000_000} megapixels"
    return PictureError(path, f"{size}: pictures have at most {MAX_PIXELS // 1_000_000} megapixels "
                              f"(scale it down to {EMBED_DPI} dpi at its printed size)")


# Pillow's words for what its decoders met, where they say little to a designer
_PLAINER = {"could not create decoder object": "the WebP data is cut short or damaged",
            "decoder error -2": "the TIFF data is damaged"}


def _broken(path: str, exc: BaseException) -> PictureError:
    said = str(exc) or type(exc).__name__
    return PictureError(path, f"cannot be read: {_PLAINER.get(said, said)}")


@contextmanager
def _quiet() -> Iterator[None]:
    """Pillow's warnings about a file unsaid (a bomb's size, corrupt EXIF, a TIFF tag past the end
    of the file): a picture is judged by whether it decodes, and one that does not is an error."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        warnings.simplefilter("ignore", PILImage.DecompressionBombWarning)
        yield


@contextmanager
def open_raster(path: str) -> Iterator[PILImage.Image]:
    """A raster picture opened, its header read and its pixel count known to be at most MAX_PIXELS,
    nothing decoded yet. PictureError if it is bigger, unreadable, or of no format of
    RASTER_FORMATS; the same for what goes wrong while it is used inside the `with` (decoding a
    truncated file, say)."""
    try:
        with _quiet():  # Pillow warns from 89 megapixels up; our own bound is said below
            im = PILImage.open(path, formats=_READERS)
    except PILImage.DecompressionBombError:  # past twice Pillow's bound it gives no size, only this
        raise _too_big(path, None) from None
    except PILImage.UnidentifiedImageError:
        raise _unidentified(path) from None
    except Exception as exc:  # a plugin reading a malformed header raises whatever it meets (KeyError, …)
        raise _unopened(path, exc) from None
    with im:
        if im.width * im.height > MAX_PIXELS:
            raise _too_big(path, im.size)
        try:
            yield im
        except PictureError:
            raise
        except UNREADABLE as exc:
            raise _broken(path, exc) from None


def _unidentified(path: str) -> PictureError:
    """Why Pillow named no format for a file: a broken file of a format pictures may be (its
    reader's own reason), a file of another format, or no picture at all."""
    try:
        with open(path, "rb") as file:
            head = file.read(32)
    except OSError as exc:
        return _broken(path, exc)
    unread = _unread_psd(head)
    if unread:
        return PictureError(path, unread)
    PILImage.init()
    for fmt in _READERS:
        factory, accept = PILImage.OPEN[fmt]
        if accept is None or accept(head) is not True:
            continue
        try:
            with open(path, "rb") as file, _quiet():
                factory(file, path).close()
        except Exception as exc:  # what the format's own reader says
            return PictureError(path, f"cannot be read: its {RASTER_FORMATS[fmt]} header is broken "
                                      f"({str(exc) or type(exc).__name__})")
    try:
        with _quiet(), PILImage.open(path) as other:
            kind = other.format
    except Exception:
        return PictureError(path, "is not an image file", unreadable=True)
    return PictureError(path, f"is in {kind} format: pictures are {RASTER_KINDS} (convert it first)")


def _unopened(path: str, exc: Exception) -> PictureError:
    """A picture of a known format whose header its reader could not take."""
    try:
        with open(path, "rb") as file:
            unread = _unread_psd(file.read(26))
    except OSError:
        unread = None
    return PictureError(path, unread) if unread else _broken(path, exc)


def _unread_psd(head: bytes) -> str | None:
    """What Pillow's PSD reader does not read, said from the header: a large document (PSB), or
    16 or 32 bits a channel (Pillow reads 1 and 8)."""
    if not head.startswith(b"8BPS") or len(head) < 26:
        return None
    if head[4:6] == b"\0\2":
        return "is a large document (PSB): save it as a PSD, or export a PNG or TIFF"
    bits = int.from_bytes(head[22:24], "big")
    if bits not in (1, 8):
        return (f"is a {bits}-bit PSD: only 8 bits a channel can be read "
                "(save a copy in 8 Bits/Channel, or export a PNG or TIFF)")
    return None


@contextmanager
def _c_errors_caught() -> Iterator[list[str]]:
    """What C code writes to the process's standard error while inside (libtiff says why a TIFF
    does not decode there, beside Pillow's "decoder error"), caught as lines instead of shown, so
    a broken picture is the one line of its error. Other threads' writes to it in that moment are
    caught too."""
    said: list[str] = []
    try:
        saved = os.dup(2)
    except OSError:  # no standard error at all: nothing to keep clean
        yield said
        return
    try:
        with tempfile.TemporaryFile() as caught:
            sys.stderr.flush()
            os.dup2(caught.fileno(), 2)
            try:
                yield said
            finally:
                os.dup2(saved, 2)
                caught.seek(0)
                said += [line.strip() for line in caught.read(4096).decode("utf-8", "replace").splitlines()
                         if line.strip()]
    finally:
        os.close(saved)


def _load(im: PILImage.Image) -> None:
    """Decode an opened picture's pixels (its first frame), quietly: a failure is an exception,
    with libtiff's reason when it gave one."""
    with _quiet():
        if im.format != "TIFF":
            im.load()
            return
        with _c_errors_caught() as said:
            try:
                im.load()
            except UNREADABLE as exc:
                failed: BaseException | None = exc
            else:
                failed = None
        if failed is not None:
            if said:  # "tempfile.tif: Using code not yet in table." — Pillow hands libtiff no file name
                raise OSError(said[-1].split(": ", 1)[-1].rstrip(".")) from None
            raise failed


def embedded_pixels(pixels: tuple[int, int], printed: tuple[float, float]) -> tuple[int, int]:
    """The pixels a picture of `pixels` printed at `printed` mm is embedded with: as it is, or scaled
    down evenly to EMBED_DPI on its finer axis and to at most EMBED_MAX_PIXELS."""
    (px_w, px_h), (w, h) = pixels, printed
    needed = max(w / 25.4 * EMBED_DPI / px_w, h / 25.4 * EMBED_DPI / px_h)  # the scale that keeps both axes at 600 dpi
    scale = min(needed, math.sqrt(EMBED_MAX_PIXELS / (px_w * px_h)))
    if scale >= 1:
        return pixels
    return (max(1, math.ceil(px_w * scale)), max(1, math.ceil(px_h * scale)))


def decoded(im: PILImage.Image, pixels: tuple[int, int]) -> PILImage.Image:
    """An opened picture decoded at `pixels` (at most its own) and `printable`: a JPEG is decoded at
    a fraction of its size directly (`draft`), then anything still bigger is reduced, so a huge
    picture never has to be held twice at full size. A palette or 1-bit picture is reduced as
    colours or greys, averaged rather than picked (Pillow resizes those modes by nearest pixel)."""
    if pixels != im.size:
        im.draft(im.mode, pixels)  # JPEG only: DCT scaling while decoding; a no-op elsewhere
    _load(im)
    picture = printable(im)
    if pixels == picture.size:
        return picture
    if picture.mode in ("1", "P", "PA"):
        picture = picture.convert("L" if picture.mode == "1" else
                                  "RGBA" if picture.mode == "PA" or "transparency" in picture.info else "RGB")
    # reducing_gap 1: a box-average reduce to just above the size, then Lanczos, so the full-size
    # picture is the only big one held
    return picture.resize(pixels, PILImage.Resampling.LANCZOS, reducing_gap=1.0)


_PRINTABLE = frozenset({"1", "L", "LA", "P", "PA", "RGB", "RGBA", "CMYK"})  #: modes the backends take as they are


def printable(im: PILImage.Image) -> PILImage.Image:
    """A decoded picture in a mode every backend takes (1, L, LA, P, PA, RGB, RGBA, CMYK), those
    left as they are: 16-bit greys (a 16-bit PNG or TIFF) scaled to 8 bits, float greys read as 0
    to 1 (or 0 to 255 when they go past 1), premultiplied alpha made straight, Lab, YCbCr and the
    rest made RGB; a PSD's merged alpha taken back off the white Photoshop flattens it on."""
    mode = im.mode
    if im.format == "PSD" and mode == "RGBA":
        return _psd_composite(im)
    if mode in _PRINTABLE:
        return im
    if mode == "I" or mode.startswith("I;16"):
        return im.convert("I").point(lambda v: v / 257 + 0.5).convert("L")  # rounded: Pillow truncates
    if mode == "F":
        scale = 255 if im.getextrema()[1] <= 1 else 1
        return im.point(lambda v: v * scale + 0.5).convert("L")
    if mode == "La":
        grey, alpha = im.split()
        return PILImage.merge("RGBa", (grey, grey, grey, alpha)).convert("RGBA").convert("LA")
    try:
        return im.convert("RGBA" if mode == "RGBa" else "RGB")
    except ValueError:
        raise ValueError(f"has pixels of a kind that cannot be printed ({mode}): save it as RGB or CMYK") from None


# ---- PSD's composite ------------------------------------------------------------------------------
# Pillow reads a PSD's merged image, and takes an RGB one's fourth channel for its alpha. That channel
# is the picture's transparency only when Photoshop saved it so (psd-tools reads it the same way):
# else it is an alpha channel the user saved (a selection), and the picture is opaque. Where it is
# the transparency, Photoshop stored the colours flattened on white.

_ALPHA_IDENTIFIERS = 1053  #: the image resource that numbers the saved alpha channels
_MERGED_TRANSPARENCY = (b"Mtrn", b"Mt16", b"Mt32")  #: tagged blocks: "the merged image has transparency"


def _psd_composite(im: PILImage.Image) -> PILImage.Image:
    red, green, blue, alpha = im.split()
    if not _psd_merged_alpha(im):
        return PILImage.merge("RGB", (red, green, blue))
    # c = a·f + (255 − a) on white, so a·f = c + a − 255: the premultiplied colour, made straight
    return PILImage.merge("RGBa", [ImageChops.add(band, alpha, 1.0, -255) for band in (red, green, blue)]
                          + [alpha]).convert("RGBA")


def _psd_merged_alpha(im: PILImage.Image) -> bool:
    """Whether an RGBA PSD's fourth channel is its transparency: a negative layer count says so,
    as a merged-transparency block does; saved alpha channels (numbered in the image resources) or
    layers without either say it is not; a picture without layers is transparent by it."""
    alpha_ids = next((data for rid, _, data in getattr(im, "resources", ()) if rid == _ALPHA_IDENTIFIERS), None)
    count, tagged = _psd_layers(im.filename) if isinstance(im.filename, str) and im.filename else (0, b"")
    if count < 0 or any(b"8BIM" + key in tagged for key in _MERGED_TRANSPARENCY):
        return True
    if alpha_ids and all(int.from_bytes(alpha_ids[i:i + 4], "big") > 0 for i in range(0, len(alpha_ids), 4)):
        return False
    return count == 0


def _psd_layers(path: str) -> tuple[int, bytes]:
    """A PSD's layer count as written (negative: the merged alpha is transparency) and the start of
    its global tagged blocks (at most 64 kB: the merged-transparency block is among the first)."""
    with open(path, "rb") as file:
        read = lambda n: int.from_bytes(file.read(n), "big")  # noqa: E731
        file.seek(26)
        for _ in range(2):  # the colour mode data, the image resources
            file.seek(read(4), os.SEEK_CUR)
        size = read(4)
        if not size:
            return 0, b""
        end = file.tell() + size
        info = read(4)
        count = int.from_bytes(file.read(2), "big", signed=True) if info >= 2 else 0
        file.seek(end - size + 4 + info)
        file.seek(read(4), os.SEEK_CUR)  # the global layer mask
        return count, file.read(max(0, min(end - file.tell(), 1 << 16)))


def stamp(path: str) -> tuple[int, int]:
    """What a cache of a file's contents is keyed on besides its name: an edited file is read anew."""
    st = os.stat(path)
    return (st.st_mtime_ns, st.st_size)


Crop = tuple[int, int, int, int]
"""Pixels of a raster picture: left, top, right, bottom (as Pillow's `crop` takes them)."""


def grey_png(path: str, lighten: float = 0.0, tint: str | None = None, crop: Crop | None = None) -> bytes:
    """A raster picture in greys, `lighten` of the way to white, as PNG with its alpha kept (first
    `tinted` with `tint`, and cut to `crop`, when given).

    Every backend prints a grey or lightened picture from these bytes, so PDF and SVG show the same
    greys; ITU-R 601 luma (Pillow's "L") is also what low-ink makes of the colours of vector art.
    """
    return _grey_png(path, lighten, tint, crop, stamp(path))


@functools.lru_cache(maxsize=64)
def _grey_png(path: str, lighten: float, tint: str | None, crop: Crop | None, _stamp: tuple[int, int]) -> bytes:
    if crop is None:
        with open_raster(path) as im:
            picture = decoded(im, im.size)
            out = greyed(picture if tint is None else tinted(picture, tint), lighten)
    else:
        out = greyed(treated(path, tint, crop), lighten)
    buf = io.BytesIO()
    out.save(buf, format="PNG")
    return buf.getvalue()


def treated(path: str, tint: str | None = None, crop: Crop | None = None) -> PILImage.Image:
    """A raster picture decoded whole (`decoded`), cut to `crop` and `tinted` with `tint` when
    given. A part is cut from the whole picture decoded once for all its parts (made bleed asks
    for its four edges and corners one after another)."""
    if crop is not None:
        picture = _part(path, crop, stamp(path))
        return picture if tint is None else tinted(picture, tint)
    with open_raster(path) as im:
        picture = decoded(im, im.size)
        return (picture.copy() if picture is im else picture) if tint is None else tinted(picture, tint)


@functools.lru_cache(maxsize=256)  # parts are small: a row or a column of pixels
def _part(path: str, crop: Crop, _stamp: tuple[int, int]) -> PILImage.Image:
    whole = _whole(path, _stamp)
    part = whole.crop(crop)
    if "transparency" in whole.info:  # a palette's or a colour key's, which crop leaves behind
        part.info["transparency"] = whole.info["transparency"]
    return part


@functools.lru_cache(maxsize=1)  # the picture whose parts are being cut, and no other
def _whole(path: str, _stamp: tuple[int, int]) -> PILImage.Image:
    with open_raster(path) as im:
        picture = decoded(im, im.size)
        return picture.copy() if picture is im else picture  # outlives the file it was read from


def tinted(im: PILImage.Image, tint: str) -> PILImage.Image:
    """A decoded one-colour picture (an icon, a silhouette) in the colour `tint` (`#rrggbb`), as RGBA:
    its shape is its transparency where it has any, else its darkness (black on white prints the
    black, grey half as solid, white not at all)."""
    return PILImage.merge("RGBA", (*PILImage.new("RGB", im.size, tint).split(), shape(im)))


def shape(im: PILImage.Image) -> PILImage.Image:
    """How solid a one-colour picture is at each pixel (mode L): its alpha, when it lets anything
    show through; else its darkness."""
    if "transparency" in im.info or im.mode in ("PA", "RGBa", "La"):
        im = im.convert("RGBA")
    if "A" in im.getbands():
        alpha = im.getchannel("A")
        if alpha.getextrema()[0] < 255:
            return alpha
    grey = (im.convert("RGB") if im.mode == "CMYK" else im).convert("L")
    return ImageChops.invert(grey)


def greyed(im: PILImage.Image, lighten: float = 0.0) -> PILImage.Image:
    """A decoded picture in greys, lightened by `lighten` (`colors.paled`: light tones most, dark
    lines least), its alpha kept (mode L or LA)."""
    if "transparency" in im.info:  # a palette or colour key: as an alpha channel
        im = im.convert("RGBA")
    alpha = im.getchannel("A") if "A" in im.getbands() else None
    out = im.convert("L")
    if lighten:
        levels = [round(255 * (1 - paled((255 - v) / 255, lighten))) for v in range(256)]
        out = out.point(levels)
    if alpha is not None:
        out.putalpha(alpha)
        out = out.convert("LA")
    return out


def image_size(path: str) -> tuple[float, float]:
    """Width and height of a raster picture in pixels; only the proportion matters."""
    return _image_size(path, stamp(path))


@functools.lru_cache(maxsize=None)
def _image_size(path: str, _stamp: tuple[int, int]) -> tuple[float, float]:
    width, height = raster_pixels(path)
    return (float(width), float(height))


def see_through(path: str, tint: str | None = None) -> bool:
    """Whether a raster picture lets anything show through: an alpha channel that is not opaque
    everywhere, or a palette or colour key made transparent; `tinted`, whether its shape is less
    than solid anywhere."""
    return _see_through(path, tint is not None, stamp(path))


@functools.lru_cache(maxsize=4096)
def _see_through(path: str, tinted: bool, _stamp: tuple[int, int]) -> bool:
    if tinted:  # the colour is the tint's everywhere: what shows through is what its shape leaves
        return shape(treated(path)).getextrema()[0] < 255
    with open_raster(path) as im:
        if "transparency" in im.info:
            return True
        if not {"A", "a"} & set(im.getbands()):
            return False
        picture = decoded(im, im.size)
        return "A" in picture.getbands() and picture.getchannel("A").getextrema()[0] < 255


def raster_pixels(path: str) -> tuple[int, int]:
    """A raster picture's width and height in pixels, once it is known to be within MAX_PIXELS and
    whole, so a truncated or corrupt file is said by `check`, not found halfway through a build: a
    PNG's chunks are read and their checksums compared (nothing is decompressed); a JPEG's markers
    are read and its end looked for (decoding it, even at an eighth of its size, would double what
    `impose` of a thousand JPEGs takes, which embeds them as they are; damage inside its scans
    shows as libjpeg shows it); the others' first frame is decoded once and let go (a WebP, TIFF,
    GIF, BMP or PSD has no cheaper whole check; each is decoded to be printed anyway, and decoding
    one of MAX_PIXELS takes what a build of it takes)."""
    return _raster_pixels(path, stamp(path))


@functools.lru_cache(maxsize=None)
def _raster_pixels(path: str, _stamp: tuple[int, int]) -> tuple[int, int]:
    with open_raster(path) as im:
        size = im.size
        if im.format == "PNG":
            im.verify()
            return size
        if im.format in ("JPEG", "MPO"):
            if not _jpeg_ends(path, im.tile[0][2] if im.tile else 0):
                raise PictureError(path, "cannot be read: the JPEG data is cut short (its end marker is missing)")
            return size
        try:
            _load(im)
        except UNREADABLE:
            raise
        except Exception as exc:  # a decoder meeting a malformed file raises whatever it meets
            raise _broken(path, exc) from None
    return size


_EXIF_ORIENTATION = 0x0112


def exif_rotation(path: str) -> int:
    """The EXIF orientation (2 to 8: turned, mirrored) of a JPEG or WebP, which decoding leaves as
    stored and PDF knows nothing of; 1 for one stored upright, and for the other formats (Pillow
    turns a TIFF upright as it decodes it; a PNG's is not read, as it may follow the pixels)."""
    with open_raster(path) as im, _quiet():
        if im.format not in ("JPEG", "MPO", "WEBP"):
            return 1
        try:
            orientation = im.getexif().get(_EXIF_ORIENTATION, 1)
        except Exception:  # EXIF that cannot be read says nothing of the pixels, which are whole
            return 1
    return orientation if isinstance(orientation, int) and 1 <= orientation <= 8 else 1


def _jpeg_ends(path: str, scan: int) -> bool:
    """Whether a JPEG's end of image marker follows the start of its scan data, where no other byte
    pair FF D9 can be (the scans stuff every FF with a 00): a JPEG cut short has none. Read from
    the end back, a block at a time: what follows the picture (a phone's motion photo, padding)
    is passed over only when there is any."""
    block = 1 << 16
    with open(path, "rb") as file:
        end = file.seek(0, os.SEEK_END)
        while end > scan:
            start = max(scan, end - block)
            file.seek(start)
            if b"\xff\xd9" in file.read(end - start + 1):  # one byte more: a marker across two blocks
                return True
            end = start
    return False


def raster_format(path: str) -> str:
    """What a raster picture is, as RASTER_FORMATS names it ("PNG", "JPEG", "WEBP", …), from its header."""
    return _raster_format(path, stamp(path))


@functools.lru_cache(maxsize=4096)
def _raster_format(path: str, _stamp: tuple[int, int]) -> str:
    with open_raster(path) as im:
        return str(im.format)


def png_of(path: str, tint: str | None = None, crop: Crop | None = None) -> bytes:
    """A raster picture as PNG, its alpha kept: what the PDF prints of it (its first frame, a PSD's
    composite; `tinted` with `tint` and cut to `crop` when given), for where PNG and JPEG are all a
    reader is sure to show (SVG's <image>). CMYK becomes RGB by the naive formula, as everywhere SVG
    is written."""
    return _png_of(path, tint, crop, stamp(path))


@functools.lru_cache(maxsize=16)
def _png_of(path: str, tint: str | None, crop: Crop | None, _stamp: tuple[int, int]) -> bytes:
    picture = treated(path, tint, crop)
    if picture.mode in ("CMYK", "PA"):
        picture = picture.convert("RGB" if picture.mode == "CMYK" else "RGBA")
    buf = io.BytesIO()
    picture.save(buf, format="PNG")
    return buf.getvalue()


SHARP_DPI = 300  #: what a printed picture wants; below it, art starts to look soft
BLURRED_DPI = 150  #: below this, it looks blurred


@dataclass(frozen=True)
class Resolution:
    """A picture of `pixels` printed at `printed` (width, height in mm)."""

    pixels: tuple[int, int]
    printed: tuple[float, float]

    @property
    def dpi(self) -> int:
        """Pixels per inch as printed, on the worse axis (a picture stretched unevenly is as sharp as
        its worse direction), rounded as it is said."""
        (px_w, px_h), (w, h) = self.pixels, self.printed
        if w <= 0 or h <= 0:
            return SHARP_DPI  # nothing printed: nothing to blur
        return round(min(px_w / w, px_h / h) * 25.4)

    @property
    def sharp(self) -> bool:
        return self.dpi >= SHARP_DPI

    def __str__(self) -> str:
        """`60×80 px, printed 40×53.3 mm: 38 dpi — will look blurred (300 dpi wanted)`."""
        verdict = "will look blurred" if self.dpi < BLURRED_DPI else "may look soft"
        w, h = (f"{round(v, 1):g}" for v in self.printed)
        return (f"{self.pixels[0]}×{self.pixels[1]} px, printed {w}×{h} mm: {self.dpi} dpi — {verdict} "
                f"({SHARP_DPI} dpi wanted)")
