"""Choosing where a paragraph's lines break: the best set of breaks for the whole paragraph, as a
typesetter would choose them, in the manner of Knuth and Plass's total-fit method.

Plain numbers in, break positions out: `best_breaks` knows nothing of fonts or words, only each
word's width and the space after it, and, for a word that may break inside, each place it may: how
wide its head is (with its hyphen) and its rest, and what breaking there costs. text/lines.py
turns a paragraph into these numbers and the breaks chosen back into lines.

What is best, in order:
1. the fewest lines: greedy filling finds that many too, so the chosen breaks fit wherever
   greedy's would, and shrinking to fit keeps finding the largest size that fits;
2. of those, the least cost: each line's raggedness (its empty room, squared, as a share of the
   measure), the cost of each break inside a word (a hyphen a typesetter's last resort), a last
   line of one short word (a "runt") when another break avoids it, and, where the lines are
   `balance`d (centred card text, titles), the last line's room too, so the lines come out of
   even length, and what the caller says a break between two words costs (`glue`: a mark
   belongs with the word before it, an initial with the names around it). Two lines in a row never
   end in a hyphen.

The search is Knuth–Plass's dynamic programme over the breaks, each looking back only as far as a
line reaches, so its time is the number of breaks times the breaks a line holds. A paragraph of
more than MAX_BREAKS breaks, or whose lines hold more than MAX_REACH, is left to greedy filling
(None): bounded time on any text, for a difference nobody sees in text that long.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

RAGGED = 100.0  # a line's cost at its measure's full width empty (its room's share, squared, times this)
RUNT = 60.0  # a last line of one short word, when it could be avoided
RUNT_SHARE = 0.3  # a last line's one word narrower than this share of the measure is short
MAX_BREAKS = 4000  # a paragraph with more places to break is filled greedily
MAX_REACH = 600  # so is one whose lines hold more
_EPSILON = 1e-9


class Cut(NamedTuple):
    """A place a word may break: its head's width with the hyphen the line ends in, the width of
    the rest that starts the next line (with no space: the word's space follows the rest), what
    breaking here costs, and whether the line ends in a hyphen (added, or the word's own)."""

    head: float
    rest: float
    cost: float
    hyphen: bool = True


class Break(NamedTuple):
    """Where a line ends: after word `word` (`cut` -1: the whole word) or inside it at its cut."""

    word: int
    cut: int = -1


def best_breaks(widths: Sequence[float], spaces: Sequence[float], cuts: Sequence[Sequence[Cut]],
                measure: float, balance: bool = False, glue: Sequence[float] = ()) -> list[Break] | None:
    """The breaks ending each line of the paragraph whose words are `widths` wide, each followed by
    `spaces` (em; a line's last word's space is not on the line), word i breakable at `cuts[i]`,
    every line at most `measure` wide; `glue[i]`: what a break after word i costs (none if not
    given). The last break is always the paragraph's end. None when a word is wider than the
    measure with no cut that helps, or the paragraph is too long to search (see the module's
    doc): the caller fills such a paragraph greedily."""
    n = len(widths)
    if n == 0:
        return []
    # The nodes in reading order, after a start node (0, the paragraph's start): each word's cuts,
    # then its end; for each, its word and cut (-1: the end), and for a line starting after it,
    # its first whole word and the width before that (a broken word's rest and its space).
    words, cut_of, first, lead = [-1], [-1], [0], [0.0]
    for i in range(n):
        for j, cut in enumerate(cuts[i]):
            words.append(i), cut_of.append(j), first.append(i + 1), lead.append(cut.rest + spaces[i])
        words.append(i), cut_of.append(-1), first.append(i + 1), lead.append(0.0)
    last = len(words) - 1
    if last > MAX_BREAKS:
        return None
    limit = measure + _EPSILON
    scale = RAGGED / (measure * measure) if measure > 0 else 0.0
    prefix = [0.0]  # the words before each, with their spaces
    for width, space in zip(widths, spaces):
        prefix.append(prefix[-1] + width + space)
    # best[h][k]: the best way to end a line at node k, h whether that line ends in a hyphen: as
    # (lines, cost, back), back the node the line starts after, times 2, plus its own h
    best: tuple[list[tuple[int, float, int] | None], ...] = ([None] * (last + 1), [None] * (last + 1))
    best[0][0] = (0, 0.0, -1)
    for k in range(1, last + 1):
        word, j = words[k], cut_of[k]
        if j >= 0:
            cut = cuts[word][j]
            if cut.head > limit:
                continue
            hyphened, cost_here, end_width = cut.hyphen, cut.cost, prefix[word] + cut.head
        else:
            hyphened, cost_here, end_width = False, 0.0, prefix[word + 1] - spaces[word]
        found: tuple[int, float, int] | None = None
        for start in range(k - 1, -1, -1):
            if k - start > MAX_REACH:
                return None
            begins = first[start]
            if j >= 0 and begins > word:
                continue  # the line would start and end inside one word
            width = lead[start] + end_width - prefix[begins]
            if width > limit:
                if cut_of[start] < 0:
                    break  # every earlier start makes the line wider still
                continue
            before, state = best[0][start], 0
            if not hyphened and best[1][start] is not None and (before is None or best[1][start] < before):
                before, state = best[1][start], 1  # (two hyphenated lines in a row: never)
            if before is None:
                continue
            cost = before[1] + cost_here
            if k != last or balance:
                room = measure - width
                cost += scale * room * room
            if start:
                if cut_of[start] < 0:
                    cost += glue[words[start]] if words[start] < len(glue) else 0.0
                if k == last and width < RUNT_SHARE * measure and begins >= word:
                    cost += RUNT  # one short word alone on the last line (or the rest of one broken)
            node = (before[0] + 1, cost, start * 2 + state)
            if found is None or node < found:
                found = node
        best[int(hyphened)][k] = found
    ends = [b for b in (best[0][last], best[1][last]) if b is not None]
    if not ends:
        return None
    chosen: list[Break] = []
    k, node = last, min(ends)
    while k:
        chosen.append(Break(words[k], cut_of[k]))
        k, state = divmod(node[2], 2)
        node = best[state][k]  # type: ignore[assignment]
    return chosen[::-1]
