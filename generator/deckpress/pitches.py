"""Pitch names in scientific pitch notation: `C4` is middle C, `F#4` or `F♯4` a sharp, `Bb3` a flat."""

from __future__ import annotations

import re
from dataclasses import dataclass

STEPS = "CDEFGAB"
_PITCH = re.compile(r"([A-Ga-g])(#|b|n|♯|♭|♮)?(-?\d)")
_ACCIDENTALS = {"#": "♯", "♯": "♯", "b": "♭", "♭": "♭", "n": "♮", "♮": "♮"}


@dataclass(frozen=True)
class Pitch:
    letter: str  # C … B
    accidental: str | None  # ♯ ♭ ♮, or None
    octave: int

    @property
    def step(self) -> int:
        """Diatonic steps from C0: what decides the line or space a note sits on."""
        return self.octave * 7 + STEPS.index(self.letter)


def parse_pitches(text: str) -> tuple[Pitch, ...]:
    """`"G#4 Ab4"` -> two pitches (spaces or commas between them). Raises ValueError naming the
    word that is not a pitch."""
    pitches = []
    for word in str(text).replace(",", " ").split():
        m = _PITCH.fullmatch(word)
        if not m:
            raise ValueError(f"'{word}' is not a pitch like C4, F#4 or Bb3")
        letter, accidental, octave = m.groups()
        pitches.append(Pitch(letter.upper(), _ACCIDENTALS[accidental] if accidental else None, int(octave)))
    return tuple(pitches)
