"""Lengths as users write them: ``3mm``, ``0.125in``, ``12pt``, ``50%``, ``100% - 8mm``, ``-bleed``.

A length is parsed once into a linear combination ``mm + pct% of the extent + k·bleed`` and
resolved later, when the card size and bleed are known. Only numbers, units, ``+ - * /``,
parentheses and the word ``bleed`` are understood: there is nothing here that can run code.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass

MM_PER_UNIT = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72}
PT = 25.4 / 72  #: one PostScript point in millimetres
POINTS_PER_MM = 72 / 25.4  #: the other way: a length in mm times this is in points (divide to go back)

EXAMPLES = "a length like 12mm, 0.5in, 9pt, 50% or 100% - 8mm"

#: Paper sizes (portrait, mm): what imposition lays pages out on. `universal` is the part A4 and
#: Letter share, so one file prints on either unscaled. Any other size is `WxH` (`paper_size`).
PAPERS: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0), "letter": (215.9, 279.4), "a3": (297.0, 420.0), "a5": (148.0, 210.0),
    "legal": (215.9, 355.6), "tabloid": (279.4, 431.8), "universal": (210.0, 279.4)}
PAPER_ALIASES = {"ledger": "tabloid"}  #: ledger is tabloid turned; pages are laid out portrait
#: the papers a plain build prints on (`--paper all`), and what a deck's card must fit inside
HOME_PAPERS = ("a4", "letter")
MIN_MARGIN = 5.0  #: a card's trim stays this far inside the paper's edges
#: no ink this close to the paper's edge on a home sheet: most laser printers leave 4.2 mm (1/6 in)
#: blank, inkjets 3 mm; what is printed there is lost, crop marks with it
PRINTABLE = 4.2
MAX_GAP = 20.0  #: mm between cards on a sheet (a deck's `gap:`, `--gap`): more only costs cards a page
PAPER_MIN, PAPER_MAX = 100.0, 1500.0  #: mm a side of a paper given as WxH (A6 is the smallest in use, 105 mm)
PAPER_EXAMPLES = "WIDTHxHEIGHT like 210x297mm or 8.5x11in"


def paper_name(spec: str) -> str:
    """The name a paper goes by in file names: a known name (`a4`, case aside), or `WxH` as mm to
    a hundredth (`8.5x11in` → `215.9x279.4mm`, a unit after the second number counting for both),
    so one size always gives one name. Raises ValueError with a message meant for the user,
    naming the closest paper."""
    name = spec.strip().lower()
    name = PAPER_ALIASES.get(name, name)
    if name in PAPERS:
        return name
    m = _PAPER_SIZE.fullmatch(name)
    if not m:
        from .errors import suggest  # only on a mistake: every length parse would otherwise load it

        close = suggest(name, [*PAPERS, *PAPER_ALIASES])
        raise ValueError(f"unknown paper '{spec}'{f' — did you mean {close!r}?' if close else ''} "
                         f"(papers are {', '.join(PAPERS)}, or {PAPER_EXAMPLES})")
    w, w_unit, h, h_unit = m.groups()
    width, height = float(w) * MM_PER_UNIT[w_unit or h_unit or "mm"], float(h) * MM_PER_UNIT[h_unit or "mm"]
    if not (PAPER_MIN <= min(width, height) and max(width, height) <= PAPER_MAX):
        raise ValueError(f"paper '{spec}' is {width:g} × {height:g} mm: papers are {PAPER_MIN:g} to "
                         f"{PAPER_MAX:g} mm a side")
    return f"{_mm(width)}x{_mm(height)}mm"


_PAPER_SIZE = re.compile(r"\s*(\d+(?:\.\d*)?|\.\d+)\s*(mm|cm|in)?\s*[x×]\s*(\d+(?:\.\d*)?|\.\d+)\s*(mm|cm|in)?\s*")


def _mm(value: float) -> str:
    return f"{round(value, 2):g}"


def paper_size(name: str) -> tuple[float, float]:
    """Width and height (mm) of a paper named as `paper_name` names it."""
    size = PAPERS.get(name)
    if size is None:
        width, height = name.removesuffix("mm").split("x")
        size = (float(width), float(height))
    return size


def paper_title(name: str) -> str:
    """A paper's name as printed on a page: `A4`, `Letter`, `210x297mm`."""
    if name not in PAPERS:
        return name
    return name.upper() if re.fullmatch(r"a\d", name) else name.capitalize()


@dataclass(frozen=True)
class Length:
    """``mm + pct/100 · extent + bleed · bleed_mm``, in millimetres once resolved."""

    mm: float = 0.0
    pct: float = 0.0
    bleed: float = 0.0

    def resolve(self, extent: float = 0.0, bleed: float = 0.0) -> float:
        return self.mm + self.pct * extent / 100.0 + self.bleed * bleed

    @property
    def is_absolute(self) -> bool:
        return self.pct == 0.0 and self.bleed == 0.0

    def __add__(self, other: Length) -> Length:
        return Length(self.mm + other.mm, self.pct + other.pct, self.bleed + other.bleed)

    def __neg__(self) -> Length:
        return Length(-self.mm, -self.pct, -self.bleed)

    def scaled(self, k: float) -> Length:
        return Length(self.mm * k, self.pct * k, self.bleed * k)


_TOKEN = re.compile(r"\s*(?:(?P<num>\d+(?:\.\d*)?|\.\d+)(?:\s*(?P<unit>[A-Za-z_]+|%))?"
                    r"|(?P<word>[A-Za-z_]+)|(?P<op>[-+*/()]))")


class _Parser:
    """Recursive descent over: expr := term (('+'|'-') term)*; term := factor (('*'|'/') factor)*."""

    def __init__(self, text: str) -> None:
        self.tokens: list[tuple[str, object]] = []
        self.spans: list[str] = []  # each token as the user wrote it, for messages
        pos = 0
        text = text.strip()
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if not m or m.end() == pos:
                raise ValueError(f"cannot read '{text[pos:]}' in '{text}'; expected {EXAMPLES}")
            pos = m.end()
            if m.group("num") is not None:
                unit = m.group("unit")
                value = float(m.group("num"))
                if unit == "bleed":
                    raise ValueError(f"write '{m.group('num')}*bleed' in '{text}' to multiply the bleed")
                if unit and unit != "%" and unit not in MM_PER_UNIT:
                    raise ValueError(f"unknown unit '{unit}' in '{text}'; units are mm, cm, in, pt and %")
                if unit == "%":
                    self.tokens.append(("len", Length(pct=value)))
                elif unit:
                    self.tokens.append(("len", Length(mm=value * MM_PER_UNIT[unit])))
                else:
                    self.tokens.append(("num", value))
                self.spans.append(m.group(0).strip())
            elif m.group("word") is not None:
                word = m.group("word")
                if word != "bleed":
                    raise ValueError(f"unknown word '{word}' in '{text}'; expected {EXAMPLES} (or 'bleed')")
                self.tokens.append(("len", Length(bleed=1.0)))
                self.spans.append(word)
            else:
                self.tokens.append(("op", m.group("op")))
                self.spans.append(m.group("op"))
        self.text = text
        self.i = 0

    def peek(self) -> tuple[str, object] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def leftover(self) -> str:
        return " ".join(self.spans[self.i:])

    def take(self) -> tuple[str, object]:
        tok = self.peek()
        if tok is None:
            raise ValueError(f"'{self.text}' ends too early; expected {EXAMPLES}")
        self.i += 1
        return tok

    def expr(self) -> Length | float:
        value = self.term()
        while (tok := self.peek()) and tok in (("op", "+"), ("op", "-")):
            self.take()
            right = self.term()
            value = self.combine(value, right if tok[1] == "+" else self.negate(right), "+")
        return value

    def term(self) -> Length | float:
        value = self.factor()
        while (tok := self.peek()) and tok in (("op", "*"), ("op", "/")):
            self.take()
            right = self.factor()
            value = self.combine(value, right, tok[1])
        return value

    def factor(self) -> Length | float:
        kind, value = self.take()
        if kind == "op" and value == "-":
            return self.negate(self.factor())
        if kind == "op" and value == "(":
            inner = self.expr()
            if self.take() != ("op", ")"):
                raise ValueError(f"missing ')' in '{self.text}'")
            return inner
        if kind in ("len", "num"):
            return value  # type: ignore[return-value]
        raise ValueError(f"unexpected '{self.spans[self.i - 1]}' in '{self.text}'; expected {EXAMPLES}")

    @staticmethod
    def negate(v: Length | float) -> Length | float:
        return -v

    def combine(self, a: Length | float, b: Length | float, op: str) -> Length | float:
        if op == "+":
            if isinstance(a, Length) and isinstance(b, Length):
                return a + b
            if isinstance(a, float) and isinstance(b, float):
                return a + b
            raise ValueError(f"'{self.text}' adds a plain number to a length; give every term a unit")
        if op == "*":
            if isinstance(a, Length) and isinstance(b, Length):
                raise ValueError(f"'{self.text}' multiplies two lengths; multiply a length by a plain number")
            if isinstance(a, Length):
                return a.scaled(b)  # type: ignore[arg-type]
            if isinstance(b, Length):
                return b.scaled(a)
            return a * b
        # division: only by a plain number
        if isinstance(b, Length):
            raise ValueError(f"'{self.text}' divides by a length; divide by a plain number")
        if b == 0:
            raise ValueError(f"'{self.text}' divides by zero; expected a non-zero number after '/'")
        return a.scaled(1.0 / b) if isinstance(a, Length) else a / b


def parse_length(value: object) -> Length:
    """Parse a length; raises ValueError with a message meant for the user."""
    if isinstance(value, bool):
        raise ValueError(f"expected {EXAMPLES}, not {value!r}")
    if isinstance(value, (int, float)):
        if value == 0:
            return Length()
        raise ValueError(f"'{value}' has no unit; expected {EXAMPLES}")
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"expected {EXAMPLES}")
    return _parse_text(value)


@functools.lru_cache(maxsize=1024)
def _parse_text(value: str) -> Length:
    """A length written as text. Remembered: layouts write the same few lengths (`100%`, `3mm`) in
    every element and deck, and a Length is a value."""
    parser = _Parser(value)
    result = parser.expr()
    if parser.peek() is not None:
        raise ValueError(f"unexpected '{parser.leftover()}' in '{value}'; expected {EXAMPLES}")
    if isinstance(result, float):
        if result == 0:
            return Length()
        raise ValueError(f"'{value}' has no unit; expected {EXAMPLES}")
    return result


def parse_absolute(value: object, what: str = "length") -> float:
    """A length that cannot depend on the card (font sizes, page margins): millimetres."""
    length = parse_length(value)
    if not length.is_absolute:
        raise ValueError(f"a {what} cannot use % or bleed; expected a length like 9pt or 3mm")
    return length.mm


def parse_mm(text: str, what: str = "length") -> float:
    """A length typed on the command line: a plain number is millimetres (`3`), else as `parse_absolute`."""
    if re.fullmatch(r"\s*(\d+(\.\d*)?|\.\d+)\s*", text):
        return float(text)
    return parse_absolute(text, what)


def parse_size(spec: str, presets: Mapping[str, tuple[float, float]], what: str = "size") -> tuple[float, float]:
    """Width and height in mm of a preset name or of `WIDTHxHEIGHT`, each side a length or a plain
    number of millimetres (`63x88`, `2.5inx3.5in`), as sizes are written on card and sleeve boxes.
    Raises ValueError with a message meant for the user."""
    if spec in presets:
        return presets[spec]
    m = re.fullmatch(r"\s*([^x×]+?)\s*[x×]\s*([^x×]+?)\s*", spec)
    if not m:
        raise ValueError(f"unknown {what} '{spec}'; {what}s are {', '.join(presets)}, "
                         "or WIDTHxHEIGHT like 63x88 (mm) or 2.5inx3.5in")
    try:
        width, height = (parse_mm(side, what) for side in m.groups())
    except ValueError as exc:
        raise ValueError(f"{what} '{spec}': {exc}") from None
    if width <= 0 or height <= 0:
        raise ValueError(f"{what} '{spec}' must be greater than zero both ways")
    return width, height
