"""How a single layout value is read: its type, and `{field}` patterns filled in per card.

A value in a layout is either a literal, checked when the layout is loaded, or a pattern
with `{field}` placeholders, checked when a card fills it in. Both go through the same
parser for the key's type, so a mistake reads the same either way.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..colors import Color, parse_color, parse_opacity
from ..text.fonts import Family, FontSet
from ..pitches import Pitch, parse_pitches
from ..shapes import SHAPES
from ..svgpath import parse_path
from ..units import Length, parse_absolute, parse_length

PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_.-]*)\}")


@dataclass(frozen=True)
class PaletteColor:
    """A colour that carries meaning in the game, so it must also carry a symbol."""

    name: str
    color: Color
    symbol: str


@dataclass
class Names:
    """Everything a value may refer to by name while a deck is loaded."""

    palette: dict[str, PaletteColor] = field(default_factory=dict)
    colors: dict[str, Color] = field(default_factory=dict)  # the layouts' own colour words
    fonts: FontSet = field(default_factory=FontSet)
    resolve_file: Callable[[str, Path], Path] | None = None  # (written path, base folder) -> path

    def color_names(self) -> dict[str, Color]:
        names: dict[str, Color] = dict(self.colors)
        names.update({p.name: p.color for p in self.palette.values()})
        return names


@dataclass(frozen=True)
class Pattern:
    """A string with `{field}` placeholders, filled in per card."""

    text: str
    fields: tuple[str, ...]

    def fill(self, values: Mapping[str, Any]) -> Any:
        """Substitute; a pattern that is exactly one placeholder keeps the value's type (lists too)."""
        whole = PLACEHOLDER.fullmatch(self.text)
        if whole and whole.group(1):
            return values[whole.group(1)]
        return PLACEHOLDER.sub(lambda m: "{" if m.group(0) == "{{" else "}" if m.group(0) == "}}"
                               else as_text(values[m.group(1)]), self.text)


def as_text(value: Any) -> str:
    """How a field value reads inside text. YAML's null (`text:` with nothing after it, `~`) is
    nothing to print, not the word "None"."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (list, tuple)):
        return ", ".join(as_text(v) for v in value)
    return str(value)


def pattern_of(value: Any) -> Pattern | None:
    """A Pattern if `value` is a string with placeholders, else None."""
    if isinstance(value, str):
        names = tuple(m.group(1) for m in PLACEHOLDER.finditer(value) if m.group(1))
        if names:
            return Pattern(value, names)
    return None


def literal_text(value: str) -> str:
    """A string without placeholders, with `{{` and `}}` unescaped."""
    return value.replace("{{", "{").replace("}}", "}")


# --- parsers, one per value type: (value, names, base folder) -> parsed value ----------------

def _text(v: Any, names: Names, base: Path) -> str:
    if isinstance(v, (dict, list)):
        raise ValueError("expected text")
    return as_text(v)


def _length(v: Any, names: Names, base: Path) -> Length:
    return parse_length(v)


def _extent(v: Any, names: Names, base: Path) -> Length:
    """A width, height or radius: a length like any other (`100% - 8mm`, `2*bleed`), but one that
    is below zero whatever the card (no term can make it grow) is a mistake, not a mirror image."""
    value = parse_length(v)
    if value != Length() and max(value.mm, value.pct, value.bleed) <= 0:
        raise ValueError(f"expected a length of zero or more, like 40mm or 100% - 8mm, not {v!r}")
    return value


def _size(v: Any, names: Names, base: Path) -> float:
    value = parse_absolute(v, "size")
    if value <= 0:
        raise ValueError(f"expected a size greater than zero, like 9pt, not {v!r}")
    return value


def _nonneg(v: Any, names: Names, base: Path) -> float:
    value = parse_absolute(v, "width")
    if value < 0:
        raise ValueError(f"expected a length of zero or more, not {v!r}")
    return value


def _number(v: Any, names: Names, base: Path) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        try:
            return float(str(v))
        except ValueError:
            raise ValueError(f"expected a number, not {v!r}") from None
    return float(v)


def _bool(v: Any, names: Names, base: Path) -> bool:
    if isinstance(v, bool):
        return v
    if isinstance(v, str) and v.lower() in ("true", "yes", "false", "no"):
        return v.lower() in ("true", "yes")
    raise ValueError(f"expected true or false, not {v!r}")


def _color(v: Any, names: Names, base: Path) -> Color | None:
    return parse_color(v, names.color_names())


def _opacity(v: Any, names: Names, base: Path) -> float:
    return parse_opacity(v)


def _palette(v: Any, names: Names, base: Path) -> PaletteColor:
    if not isinstance(v, str) or v not in names.palette:
        raise ValueError(f"unknown palette colour {v!r}; the palette has {', '.join(names.palette) or 'no colours'}")
    return names.palette[v]


def _font(v: Any, names: Names, base: Path) -> tuple[Family, str]:
    try:
        return names.fonts.split(str(v))
    except KeyError:
        raise ValueError(f"unknown font '{v}'; fonts are {', '.join(names.fonts.names())}") from None


def _char(v: Any, names: Names, base: Path) -> str:
    text = str(v)
    m = re.fullmatch(r"U\+([0-9A-Fa-f]{4,6})", text)
    if m:
        return chr(int(m.group(1), 16))
    if len(text) != 1:
        raise ValueError(f"expected one character or a code like U+1D15F, not {text!r}")
    return text


def _angle(v: Any, names: Names, base: Path) -> float:
    return _number(v, names, base)


def _dash(v: Any, names: Names, base: Path) -> tuple[float, ...]:
    if v is None or v == "none":
        return ()
    items = v if isinstance(v, list) else str(v).replace(",", " ").split()
    dashes = tuple(parse_absolute(x, "dash") for x in items)
    if not dashes or any(d < 0 for d in dashes) or sum(dashes) == 0:
        raise ValueError("expected dash lengths like [1mm, 0.5mm] or 'none'")
    return dashes


def _points(v: Any, names: Names, base: Path) -> tuple[tuple[Length, Length], ...]:
    if not isinstance(v, list) or len(v) < 2:
        raise ValueError("expected a list of at least two points like [[0mm, 0mm], [10mm, 5mm]]")
    points = []
    for p in v:
        if not isinstance(p, list) or len(p) != 2:
            raise ValueError(f"expected a point [x, y], not {p!r}")
        points.append((parse_length(p[0]), parse_length(p[1])))
    return tuple(points)


def _path(v: Any, names: Names, base: Path):
    return parse_path(str(v))


def _file(v: Any, names: Names, base: Path) -> Path:
    if names.resolve_file is None:
        raise ValueError("files cannot be used here")
    return names.resolve_file(str(v), base)


def _shape(v: Any, names: Names, base: Path) -> str:
    if v not in SHAPES:
        raise ValueError(f"unknown shape {v!r}; shapes are {', '.join(SHAPES)}")
    return str(v)


def _pitches(v: Any, names: Names, base: Path) -> tuple[Pitch, ...]:
    if isinstance(v, list):
        v = " ".join(as_text(x) for x in v)
    return parse_pitches("" if v is None else str(v))


def _auto_bool(v: Any, names: Names, base: Path) -> str | bool:
    """`auto`, or true or false: deckpress decides, or the layout does."""
    if isinstance(v, str) and v.lower() == "auto":
        return "auto"
    try:
        return _bool(v, names, base)
    except ValueError:
        raise ValueError(f"expected auto, true or false, not {v!r}") from None


def _language(v: Any, names: Names, base: Path) -> str:
    """A language code like `de`, `en-GB` or `pt_BR`; nothing (null) for the deck's language."""
    if v is None or v == "":
        return ""
    if not isinstance(v, str) or not re.fullmatch(r"[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*", v):
        raise ValueError(f"expected a language code like de, en-GB or fr, not {v!r}")
    return v


def _features(v: Any, names: Names, base: Path) -> tuple[str, ...]:
    """OpenType features to turn on (`smcp`, `onum`) or off (`-liga`): a list, or one; none for null."""
    if v is None or v == "":
        return ()
    items = v if isinstance(v, list) else [v]
    for item in items:
        if not isinstance(item, str) or not re.fullmatch(r"-?[a-z][a-z0-9]{3}", item):
            raise ValueError(f"expected OpenType feature tags like smcp, onum or -liga (off), not {item!r}")
    return tuple(items)


def _ids(v: Any, names: Names, base: Path) -> tuple[str, ...]:
    """Element ids: a list, or one text of them apart by commas or spaces; none for null."""
    if v is None:
        return ()
    items = v if isinstance(v, list) else re.split(r"[,\s]+", as_text(v))
    out = []
    for item in items:
        text = as_text(item).strip()
        if text and not re.fullmatch(r"[^\s,]+", text):
            raise ValueError(f"expected element ids without spaces, not {text!r}")
        if text:
            out.append(text)
    return tuple(out)


def _choice(choices: tuple[str, ...]) -> Callable[[Any, Names, Path], str]:
    def parse(v: Any, names: Names, base: Path) -> str:
        if str(v) not in choices:
            raise ValueError(f"expected one of {', '.join(choices)}, not {v!r}")
        return str(v)
    return parse


PARSERS: dict[str, Callable[[Any, Names, Path], Any]] = {
    "text": _text, "length": _length, "extent": _extent, "size": _size, "width": _nonneg, "number": _number,
    "bool": _bool, "color": _color, "opacity": _opacity, "palette": _palette, "font": _font, "char": _char,
    "angle": _angle, "dash": _dash, "points": _points, "path": _path, "file": _file, "shape": _shape,
    "pitches": _pitches, "auto-bool": _auto_bool, "language": _language, "features": _features,
    "ids": _ids,
}


def parser_for(type_: str, choices: tuple[str, ...] = ()) -> Callable[[Any, Names, Path], Any]:
    return _choice(choices) if type_ == "choice" else PARSERS[type_]


def known_names(type_: str, names: Names, choices: tuple[str, ...] = ()) -> list[str]:
    """The words a value of this type may be, to suggest the closest when one is mistyped."""
    from ..colors import NAMED, NONE_WORDS
    if type_ == "color":
        return [*names.color_names(), *NAMED, *NONE_WORDS]
    if type_ == "palette":
        return list(names.palette)
    if type_ == "font":
        return names.fonts.names()
    if type_ == "shape":
        return list(SHAPES)
    return list(choices)
