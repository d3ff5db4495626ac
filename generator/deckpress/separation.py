"""How colours become process inks (C, M, Y, K) in a CMYK build: deckpress's own formula, or a
print shop's ICC output profile (`--icc FILE`).

A `Separation` turns a colour (`color`) and a picture (`picture`) into inks. The formula
(`FORMULA`, `colors.to_cmyk` on every colour and pixel) gives the same numbers on every machine.
A profile separates as that press prints: its black generation, its ink limit, its gamut. Both
keep what a press operator expects of a card: a neutral colour in shapes and text is black ink
alone (no four-colour grey that misregisters into a coloured fringe); only pictures take the
profile's rich blacks, as they would from any separation program.

Pillow's ImageCms (littleCMS) does the profile's arithmetic, from sRGB (what every colour in a
deck and every untagged picture means) with relative colorimetric intent and black point
compensation, Adobe's default for converting to a press profile.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .colors import CMYK, INK_LIMIT, RGB, Color, Gray, to_cmyk
from .errors import DeckError

if TYPE_CHECKING:  # Pillow is imported when a picture or a colour is separated, not with the module
    from PIL import Image as PILImage
    from PIL.ImageCms import ImageCmsTransform

GREY_SPREAD = 2 / 255  #: a colour whose channels differ by no more than this is a neutral grey
MAX_PROFILE_BYTES = 16 << 20  #: press profiles are 0.5–4 MB; a bigger file is not one


@dataclass(frozen=True)
class Separation:
    """deckpress's formula (`colors.to_cmyk`): greys in black ink only, full grey component
    replacement, at most INK_LIMIT of ink in all."""

    name: str = "formula"  #: tells pictures separated one way from the other in caches and names

    def color(self, color: Color) -> CMYK:
        """The inks of a colour in shapes and text."""
        return to_cmyk(color)

    def picture(self, image: PILImage.Image) -> PILImage.Image:
        """The inks of an RGB picture, as a CMYK picture."""
        return _formula(image)

    def output_intent(self) -> tuple[str, bytes] | None:
        """The profile a print-shop file names as its output intent (description, ICC data);
        None: the file names the registered condition it was separated for."""
        return None


FORMULA = Separation()


@dataclass(frozen=True)
class ProfileSeparation(Separation):
    """An ICC output profile's separation; neutral colours in shapes and text stay black ink only."""

    profile: bytes = field(default=b"", repr=False)
    description: str = ""

    def color(self, color: Color) -> CMYK:
        if isinstance(color, CMYK):
            return color
        if isinstance(color, Gray) or max(color.r, color.g, color.b) - min(color.r, color.g, color.b) <= GREY_SPREAD:
            return to_cmyk(Gray(round(color.luma, 4)) if isinstance(color, RGB) else color)
        found = _COLORS.get((self.name, color))
        if found is None:
            from PIL import Image as PILImage

            pixel = PILImage.new("RGB", (1, 1), tuple(round(v * 255) for v in (color.r, color.g, color.b)))
            inks = self._transform().apply(pixel).getpixel((0, 0))
            found = _COLORS[(self.name, color)] = CMYK(*(round(v / 255, 4) for v in inks))  # type: ignore[union-attr]
        return found

    def picture(self, image: PILImage.Image) -> PILImage.Image:
        return self._transform().apply(image.convert("RGB"))

    def output_intent(self) -> tuple[str, bytes] | None:
        return self.description, self.profile

    def _transform(self) -> ImageCmsTransform:
        """sRGB → the profile, made once a process (a transform does not cross to a worker)."""
        transform = _TRANSFORMS.get(self.name)
        if transform is None:
            from PIL import ImageCms

            transform = _TRANSFORMS[self.name] = ImageCms.buildTransform(
                ImageCms.createProfile("sRGB"), ImageCms.ImageCmsProfile(io.BytesIO(self.profile)), "RGB", "CMYK",
                renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC, flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
        return transform


_TRANSFORMS: dict[str, Any] = {}
_COLORS: dict[tuple[str, Color], CMYK] = {}


def load_profile(path: Path) -> ProfileSeparation:
    """The separation of the ICC profile at `path`, which must be a CMYK output (printer) profile."""
    from PIL import ImageCms

    try:
        if path.stat().st_size > MAX_PROFILE_BYTES:
            raise DeckError(f"{path.stat().st_size:,} bytes is no ICC profile (press profiles are under "
                            f"{MAX_PROFILE_BYTES >> 20} MB)", path)
        data = path.read_bytes()
    except OSError as exc:
        raise DeckError(f"cannot read the ICC profile: {exc.strerror or exc}", path) from None
    try:
        profile = ImageCms.ImageCmsProfile(io.BytesIO(data)).profile
    except (OSError, ImageCms.PyCMSError, ValueError):
        raise DeckError("not an ICC profile littleCMS can read: give the .icc or .icm file of the print "
                        "shop's press condition", path) from None
    space, kind = profile.xcolor_space.strip(), profile.device_class.strip()
    if space != "CMYK" or kind != "prtr":
        raise DeckError(f"an ICC profile for {space} {'output' if kind == 'prtr' else repr(kind)} devices: "
                        f"--icc needs a CMYK output (printer) profile, such as the print shop's press profile",
                        path)
    description = (profile.profile_description or path.stem).strip()
    return ProfileSeparation("icc-" + hashlib.blake2b(data, digest_size=8).hexdigest(), data, description)


def _formula(image: PILImage.Image) -> PILImage.Image:
    """`to_cmyk` on every pixel of an RGB picture, in Pillow's image arithmetic. (A 3-D lookup table
    would be shorter, but interpolating it gives greys a few per cent of C, M and Y.)"""
    from PIL import Image as PILImage, ImageChops, ImageMath

    r, g, b = image.convert("RGB").split()
    top = ImageChops.lighter(ImageChops.lighter(r, g), b).convert("F")
    calc = ImageMath.lambda_eval
    # C = (1 - r - K) / (1 - K) = (max - r) / max; a black pixel divides by zero, which Pillow makes 0
    cmy = [calc(lambda a: (a["top"] - a["v"]) * 255 / a["top"], top=top, v=v.convert("F")) for v in (r, g, b)]
    k = calc(lambda a: 255 - a["top"], top=top)
    scale = calc(lambda a: a["min"]((INK_LIMIT * 255 - a["k"]) / (a["c"] + a["m"] + a["y"]), 1.0),
                 k=k, c=cmy[0], m=cmy[1], y=cmy[2])
    inks = [calc(lambda a: a["v"] * a["s"], v=v, s=scale) for v in cmy] + [k]
    return PILImage.merge("CMYK", [calc(lambda a: a["v"] + 0.5, v=v).convert("L") for v in inks])  # convert truncates
