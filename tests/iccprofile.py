"""A small CMYK output ICC profile made for the tests (no CMYK profile may be shipped with the
project, and none comes with Debian's free profile packages).

The profile separates without black generation: C, M, Y are the complements of the sRGB colour
and K is always 0, so pure black is 300 % ink, unlike deckpress's own formula (black in black ink
alone). What a build gives with `--icc` is therefore told apart from the formula at a glance. It is
an ICC v2 output ("prtr") profile with Lab as its connection space and 16-bit lookup tables both
ways, which littleCMS (in Pillow's ImageCms) reads like any vendor's profile.
"""

from __future__ import annotations

import struct
from pathlib import Path

GRID_IN_LAB = 17
GRID_IN_CMYK = 9


def _srgb_to_lab(r: float, g: float, b: float) -> tuple[float, float, float]:
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = linear(r), linear(g), linear(b)
    x = (0.4360747 * r + 0.3850649 * g + 0.1430804 * b) / 0.9642  # D50, as the PCS is
    y = 0.2225045 * r + 0.7168786 * g + 0.0606169 * b
    z = (0.0139322 * r + 0.0971045 * g + 0.7141733 * b) / 0.8249

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116
    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def _lab_to_srgb(L: float, a: float, b: float) -> tuple[float, float, float]:
    fy = (L + 16) / 116
    fx, fz = fy + a / 500, fy - b / 200

    def finv(t: float) -> float:
        return t ** 3 if t ** 3 > 216 / 24389 else (116 * t - 16) * 27 / 24389
    x, y, z = finv(fx) * 0.9642, finv(fy), finv(fz) * 0.8249
    r = 3.1338561 * x - 1.6168667 * y - 0.4906146 * z
    g = -0.9787684 * x + 1.9161415 * y + 0.0334540 * z
    bl = 0.0719453 * x - 0.2289914 * y + 1.4052427 * z

    def gamma(c: float) -> float:
        c = min(max(c, 0.0), 1.0)
        return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055
    return gamma(r), gamma(g), gamma(bl)


def _u16(value: float) -> int:
    return max(0, min(65535, round(value * 65535)))


def _lab16(L: float, a: float, b: float) -> list[int]:
    """Lab in ICC v2's 16-bit encoding: L 0…100 over 0…0xFF00, a and b −128…128 over 0…0x10000."""
    return [max(0, min(65535, round(v))) for v in (L * 0xFF00 / 100, (a + 128) * 256, (b + 128) * 256)]


def _lut16(inputs: int, outputs: int, grid: int, table: list[int]) -> bytes:
    identity = [round(i * 65535 / 255) for i in range(256)]
    head = b"mft2" + bytes(4) + struct.pack(">BBBB", inputs, outputs, grid, 0)
    head += struct.pack(">9i", 65536, 0, 0, 0, 65536, 0, 0, 0, 65536)
    head += struct.pack(">HH", 256, 256)
    curves_in = struct.pack(f">{256 * inputs}H", *(identity * inputs))
    curves_out = struct.pack(f">{256 * outputs}H", *(identity * outputs))
    return head + curves_in + struct.pack(f">{len(table)}H", *table) + curves_out


def _to_cmyk_table() -> list[int]:
    """Lab grid -> C, M, Y (the complements of the sRGB colour), K 0."""
    table = []
    n = GRID_IN_LAB
    for i in range(n):
        for j in range(n):
            for k in range(n):
                L, a, b = i / (n - 1) * 100, j / (n - 1) * 255 - 128, k / (n - 1) * 255 - 128
                r, g, bl = _lab_to_srgb(L, a, b)
                table += [_u16(1 - r), _u16(1 - g), _u16(1 - bl), 0]
    return table


def _to_lab_table() -> list[int]:
    table = []
    n = GRID_IN_CMYK
    steps = [i / (n - 1) for i in range(n)]
    for c in steps:
        for m in steps:
            for y in steps:
                for k in steps:
                    table += _lab16(*_srgb_to_lab((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k)))
    return table


def _text(text: str) -> bytes:
    return b"text" + bytes(4) + text.encode("ascii") + b"\0"


def _desc(text: str) -> bytes:
    ascii_ = text.encode("ascii") + b"\0"
    return b"desc" + bytes(4) + struct.pack(">I", len(ascii_)) + ascii_ + bytes(4 + 4) + bytes(2 + 1 + 67)


def _xyz(x: float, y: float, z: float) -> bytes:
    return b"XYZ " + bytes(4) + struct.pack(">3i", *(round(v * 65536) for v in (x, y, z)))


def write_profile(path: Path) -> Path:
    """Write the test profile to `path` and return it."""
    tags = [(b"desc", _desc("deckpress test CMYK, no black generation")), (b"cprt", _text("No copyright: test data")),
            (b"wtpt", _xyz(0.9642, 1.0, 0.8249)),
            (b"A2B0", _lut16(4, 3, GRID_IN_CMYK, _to_lab_table())),
            (b"B2A0", _lut16(3, 4, GRID_IN_LAB, _to_cmyk_table()))]
    offset = 128 + 4 + 12 * len(tags)
    directory, data = b"", b""
    for signature, body in tags:
        while (offset + len(data)) % 4:
            data += b"\0"
        directory += signature + struct.pack(">II", offset + len(data), len(body))
        data += body
    body = struct.pack(">I", len(tags)) + directory + data
    size = 128 + len(body)
    header = struct.pack(">I", size) + b"lcms" + struct.pack(">I", 0x02100000) + b"prtr" + b"CMYK" + b"Lab "
    header += bytes(12) + b"acsp" + b"APPL" + bytes(4) + bytes(8) + bytes(8) + struct.pack(">I", 0)
    header += struct.pack(">3i", round(0.9642 * 65536), 65536, round(0.8249 * 65536)) + b"lcms"
    header += bytes(128 - len(header))
    path.write_bytes(header + body)
    return path
