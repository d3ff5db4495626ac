"""Pictures in every raster format deckpress prints, written with Pillow, and by hand where Pillow
writes none (PSD, 16-bit RGB TIFF), for the picture tests; and broken ones of each format."""

from __future__ import annotations

import io
import struct

from PIL import Image


def save(picture: Image.Image, fmt: str, **options) -> bytes:
    """`picture` encoded as `fmt` by Pillow (`save_all` with `append_images` for more frames)."""
    buf = io.BytesIO()
    picture.save(buf, format=fmt, **options)
    return buf.getvalue()


def halves(size: tuple[int, int], left, right, mode: str = "RGB") -> Image.Image:
    """A picture whose left half is `left` and right half `right` (colours of `mode`)."""
    picture = Image.new(mode, size, right)
    picture.paste(left, (0, 0, size[0] // 2, size[1]))
    return picture


def tiff16(size: tuple[int, int], colour: tuple[int, int, int]) -> bytes:
    """An uncompressed RGB TIFF of 16 bits a sample, of one colour (0 to 65535 a sample)."""
    w, h = size
    entries = [(256, 4, 1, w), (257, 4, 1, h), (258, 3, 3, None), (259, 3, 1, 1), (262, 3, 1, 2),
               (273, 4, 1, None), (277, 3, 1, 3), (278, 4, 1, h), (279, 4, 1, w * h * 6), (284, 3, 1, 1)]
    ifd_size = 2 + 12 * len(entries) + 4
    bits_at = 8 + ifd_size
    data_at = bits_at + 6
    out = [b"II*\0", struct.pack("<I", 8), struct.pack("<H", len(entries))]
    for tag, kind, count, value in entries:
        value = bits_at if tag == 258 else data_at if tag == 273 else value
        packed = struct.pack("<HH", value, 0) if kind == 3 and count == 1 else struct.pack("<I", value)
        out.append(struct.pack("<HHI", tag, kind, count) + packed)
    out += [struct.pack("<I", 0), struct.pack("<HHH", 16, 16, 16), struct.pack("<HHH", *colour) * (w * h)]
    return b"".join(out)


# ---- PSD -------------------------------------------------------------------------------------------

def _pascal(name: bytes, pad: int) -> bytes:
    data = bytes([len(name)]) + name
    return data + b"\0" * (-len(data) % pad)


def _packbits(row: bytes) -> bytes:
    """A row as PackBits literal runs (valid, if not small)."""
    return b"".join(bytes([len(row[i:i + 128]) - 1]) + row[i:i + 128] for i in range(0, len(row), 128))


def _image_data(planes: list[bytes], size: tuple[int, int], rle: bool) -> bytes:
    w, h = size
    if not rle:
        return struct.pack(">H", 0) + b"".join(planes)
    rows = [_packbits(plane[y * w:(y + 1) * w]) for plane in planes for y in range(h)]
    return struct.pack(">H", 1) + b"".join(struct.pack(">H", len(r)) for r in rows) + b"".join(rows)


def psd(picture: Image.Image, *, alpha: str | None = None, layer: tuple[int, int, int] | None = None,
        rle: bool = True) -> bytes:
    """A PSD whose merged image (the composite Photoshop saves with Maximize Compatibility) is
    `picture` (RGB, RGBA, CMYK or L), 8 bits a channel. For RGBA, `alpha` says what the fourth
    channel is, as Photoshop writes each: "merged", the picture's transparency (its colours stored
    flattened on white, the layer count negative); or "saved", an alpha channel the user saved
    (numbered in image resource 1053), the colours as they are. `layer`: one layer of that colour
    over the whole canvas, which is not what the composite shows."""
    w, h = picture.size
    mode = {"RGB": 3, "RGBA": 3, "CMYK": 4, "L": 1}[picture.mode]
    bands = [band.tobytes() for band in picture.split()]
    if picture.mode == "CMYK":  # Photoshop stores ink as 255 − ink
        bands = [bytes(255 - v for v in band) for band in bands]
    if picture.mode == "RGBA" and alpha == "merged":
        a = bands[3]
        bands = [bytes(round(c * t / 255 + 255 * (1 - t / 255)) for c, t in zip(band, a)) for band in bands[:3]] + [a]
    header = b"8BPS" + struct.pack(">H6xHIIHH", 1, len(bands), h, w, 8, mode)
    resources = b""
    if alpha == "saved":
        resources = b"8BIM" + struct.pack(">H", 1053) + _pascal(b"", 2) + struct.pack(">I", 4) + struct.pack(">I", 1)
    layers = b""
    if layer is not None or alpha == "merged":
        colour = layer or (128, 128, 128)
        ids = [0, 1, 2] + ([-1] if alpha == "merged" else [])
        planes = [bytes([colour[i]]) * (w * h) if i >= 0 else b"\xff" * (w * h) for i in ids]
        record = struct.pack(">iiiiH", 0, 0, h, w, len(ids))
        record += b"".join(struct.pack(">hI", i, 2 + w * h) for i in ids)
        extra = struct.pack(">II", 0, 0) + _pascal(b"L", 4)
        record += b"8BIMnorm" + bytes([255, 0, 0, 0]) + struct.pack(">I", len(extra)) + extra
        count = -1 if alpha == "merged" else 1
        info = struct.pack(">h", count) + record + b"".join(struct.pack(">H", 0) + p for p in planes)
        info += b"\0" * (len(info) % 2)
        layers = struct.pack(">I", len(info)) + info + struct.pack(">I", 0)
    return b"".join([header, struct.pack(">I", 0), struct.pack(">I", len(resources)), resources,
                     struct.pack(">I", len(layers)), layers, _image_data(bands, (w, h), rle)])


# ---- broken files ----------------------------------------------------------------------------------

def _noise(size: tuple[int, int]) -> Image.Image:
    return Image.merge("RGB", [Image.effect_noise(size, sigma) for sigma in (30, 60, 90)])


def broken() -> dict[str, tuple[str, bytes]]:
    """A broken file of each format, by what is wrong with it: (file name, bytes)."""
    noisy = _noise((120, 90))
    webp = save(noisy, "WEBP", quality=80)
    tiff = save(noisy, "TIFF", compression="tiff_lzw")
    ifd = struct.unpack("<I", tiff[4:8])[0]
    gif = save(noisy, "GIF")
    bmp = save(noisy, "BMP")
    composite = psd(noisy, rle=False)
    jpeg = save(noisy, "JPEG", quality=90)
    garbled = bytearray(gif)
    garbled[len(gif) // 3:len(gif) // 3 + 64] = bytes(range(64))
    lzw = bytearray(tiff)  # the strips' LZW codes garbled: libtiff says "Using code not yet in table"
    lzw[8:8 + 64] = bytes((i * 37 + 11) % 256 for i in range(64))
    return {
        "webp-cut-in-half": ("pic.webp", webp[:len(webp) // 2]),
        "tiff-bad-ifd": ("pic.tif", tiff[:4] + struct.pack("<I", len(tiff) + 4096) + tiff[8:]),
        "tiff-ifd-cut-off": ("pic.tif", tiff[:ifd + 30]),
        "tiff-garbled-strips": ("pic.tiff", bytes(lzw)),
        "psd-truncated-composite": ("pic.psd", composite[:len(composite) - 120 * 90]),
        "gif-garbage": ("pic.gif", bytes(garbled)),
        "bmp-cut-short": ("pic.bmp", bmp[:len(bmp) * 2 // 3]),
        "jpeg-cut-short": ("pic.jpg", jpeg[:len(jpeg) * 2 // 3]),
    }
