"""A music staff with a clef and notes, drawn from pitch names like `C4`, `F#4` or `Bb3`.

Geometry comes from the music font, whose em is one staff height (four staff spaces) and whose
clefs stand on the staff's bottom line at the baseline. Notes sit on lines and in spaces by
their diatonic step; ledger lines are added above and below; accidentals stand to the left.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..colors import Color
from ..face import Item, Line, Paint, Text
from ..text.fonts import FontFile
from ..pitches import Pitch

#: The diatonic step (octave·7 + letter) on the bottom line, and how far the clef glyph's
#: baseline sits above the bottom line, in staff spaces.
CLEFS: dict[str, tuple[int, str | None, float]] = {
    "none": (4 * 7 + 2, None, 0.0),  # read as treble
    "treble": (4 * 7 + 2, "\U0001D11E", 0.0),  # E4 on the bottom line; G clef curls round G4
    "bass": (2 * 7 + 4, "\U0001D122", 0.0),  # G2; F clef's dots round F3
    "alto": (3 * 7 + 3, "\U0001D121", 0.0),  # F3; C clef centred on middle C (middle line)
    "tenor": (3 * 7 + 1, "\U0001D121", 1.0),  # D3; the same C clef a line higher
}
NOTEHEADS = {"whole": "\U0001D15D", "black": "\U0001D158", "void": "\U0001D157"}
LEDGER = 2.2  # ledger line length, in staff spaces (a notehead is about 1.3)


def staff_items(x: float, y: float, w: float, space: float, clef: str, pitches: Sequence[Pitch], note: str,
                color: Color, stroke_width: float, font: FontFile, ink: str = "auto") -> list[Item]:
    """Lines, clef, ledger lines, accidentals and noteheads; (x, y) is the left end of the top line."""
    size = 4 * space  # the music font's em is one staff height
    bottom = y + 4 * space
    line = Paint(stroke=color, stroke_width=stroke_width, ink=ink)
    items: list[Item] = [Line(x, y + i * space, x + w, y + i * space, line) for i in range(5)]
    reference, clef_char, clef_raise = CLEFS[clef]

    def glyph(char: str, cx: float, cy: float, anchor: str = "center") -> Text:
        x0, y0, x1, y1 = font.bounds(char)
        ax = x1 if anchor == "right" else (x0 + x1) / 2
        return Text(cx - ax * size, cy + (y0 + y1) / 2 * size, char, font.path, size, color, ink)

    start = x + space
    if clef_char:
        baseline = bottom - clef_raise * space
        items.append(Text(x + 0.5 * space - font.bounds(clef_char)[0] * size, baseline, clef_char, font.path,
                          size, color, ink))
        start = x + 0.5 * space + (font.bounds(clef_char)[2] - font.bounds(clef_char)[0]) * size + space
    if not pitches:
        return items
    slot = (x + w - space - start) / len(pitches)
    for i, pitch in enumerate(pitches):
        cx = start + (i + 0.5) * slot
        position = pitch.step - reference  # 0 = bottom line, 1 = first space, …
        cy = bottom - position * space / 2
        for ledger in [*range(-2, position - 1, -2), *range(10, position + 1, 2)]:
            ly = bottom - ledger * space / 2
            items.append(Line(cx - LEDGER / 2 * space, ly, cx + LEDGER / 2 * space, ly, line))
        head = glyph(NOTEHEADS[note], cx, cy)
        items.append(head)
        if pitch.accidental:
            left = cx - (font.bounds(NOTEHEADS[note])[2] - font.bounds(NOTEHEADS[note])[0]) * size / 2
            # a flat's bowl, not its whole ink, belongs on the note's line or space
            ay = cy - 0.5 * space if pitch.accidental == "♭" else cy
            items.append(glyph(pitch.accidental, left - 0.3 * space, ay, anchor="right"))
    return items
