"""The text engine: everything between a deck's words and the glyphs a backend draws.

One job a module, lowest first:
- `fonts`, `shaping`: font files read and text shaped by HarfBuzz, with the bidirectional algorithm
  (the values layer: the model reads fonts, the backends measure with them);
- `hyphenate`: where a word may break (soft hyphens, its own hyphens, pyphen's dictionaries);
- `punctuation`: smart punctuation for a language;
- `linebreak`: the best breaks for a paragraph, as plain numbers (total fit);
- `runs`: shaped runs, icons, words and lines, the pieces text is set from;
- `markup`: markup into lines of words (spans, icons, escaping);
- `lines`: words into lines, filled in turn or at linebreak's best breaks, words broken over lines;
- `fitting`: the largest size that fits a box, hyphenating as a last resort;
- `setting`: a text in a box as face items, at a `TextStyle`.

Callers outside ask this package's public names, imported from here, never a module's insides.
"""

from __future__ import annotations

from .fitting import is_title
from .hyphenate import dictionary
from .markup import MarkupError, escape, glyph_icon, plain, shape_icon
from .punctuation import smarten
from .runs import IconDraw, Shaping
from .setting import Fitted, TextStyle, cache_clear, set_text

__all__ = ["Fitted", "IconDraw", "MarkupError", "Shaping", "cache_clear", "dictionary", "escape", "glyph_icon",
           "is_title", "plain", "set_text", "shape_icon", "smarten", "TextStyle"]
