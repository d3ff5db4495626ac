"""Choosing where a paragraph's lines break: the best set of breaks for the whole paragraph, as a
typesetter would choose them, in the manner of Knuth and Plass's total-fit method.

Plain numbers in, break positions out: `best_breaks` knows nothing of fonts or words, only each
word's width and the space after it, and, for a word that may break inside, each place it may: how
wide its head is (with its hyphen) and its rest, and what breaking there costs. compose/text.py
turns a paragraph into these numbers and the breaks chosen back into lines.

What is best, in order:
1. the fewest lines: greedy filling finds that many too, so the chosen breaks fit wherever
   greedy's would, and shrinking to fit keeps finding the largest size that fits;
2. of those, the least cost: each line's raggedness (its empty room, squared, as a share of the
   measure), the cost of each break inside a word (a hyphen a typesetter's last resort), a last
   line of one short word (a "runt") when another break avoids it, and, where the lines are
   `balance`d (centred card text, titles), the last line's room too, so the lines come out of
   even length, and what the caller says a break between two words costs (`glue`: a mark
   belongs with the word before it, an initial with the name after it). Two lines in a row never
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


class _Node(NamedTuple):
    lines: int
    cost: float
    back: int  # the node the line before ends at (-1: the paragraph's start)
    hyphened: bool  # whether this line ends in a hyphen


def best_breaks(widths: Sequence[float], spaces: Sequence[float], cuts: Sequence[Sequence[Cut]],
                measure: float, balance: bool = False, glue: Sequence[float] = ()) -> list[Break] | None:
    """The breaks ending each line of the paragraph whose words are `widths` wide, each followed by
    `spaces` (em; a line's last word's space is not on the line), word i breakable at `cuts[i]`,
    every line at most `measure` wide; `glue[i]`: what a break after word i costs (none if not
    given). The last break is always the paragraph's end. None when a
    word is wider than the measure with no cut that helps, or the paragraph is too long to search
    (see the module's doc): the caller fills such a paragraph greedily."""
    n = len(widths)
    if n == 0:
        return []
    # the nodes in reading order: each word's cuts, then its end
    nodes: list[Break] = []
    for i in range(n):
        nodes.extend(Break(i, j) for j in range(len(cuts[i])))
        nodes.append(Break(i))
    if len(nodes) > MAX_BREAKS:
        return None
    limit = measure + _EPSILON
    prefix = [0.0]  # the words before each, with their spaces
    for width, space in zip(widths, spaces):
        prefix.append(prefix[-1] + width + space)

    def width_of(start: int, end: Break) -> float | None:
        """The width of the line from after node `start` (-1: the paragraph's start) to `end`;
        None if no such line (it would break one word twice)."""
        if start < 0:
            first, lead = 0, 0.0
        else:
            begin = nodes[start]
            if begin.cut < 0:
                first, lead = begin.word + 1, 0.0
            else:
                if end.word == begin.word and end.cut >= 0:
                    return None
                first, lead = begin.word + 1, cuts[begin.word][begin.cut].rest + spaces[begin.word]
        if end.cut < 0:
            return lead + prefix[end.word + 1] - prefix[first] - spaces[end.word]
        if end.word < first:
            return None
        return lead + prefix[end.word] - prefix[first] + cuts[end.word][end.cut].head

    last = len(nodes) - 1
    # best[k][h]: the best way to end a line at node k, h whether that line ends in a hyphen
    best: list[list[_Node | None]] = [[None, None] for _ in nodes]
    for k, end in enumerate(nodes):
        cut = cuts[end.word][end.cut] if end.cut >= 0 else None
        hyphened = cut is not None and cut.hyphen
        if cut is not None and cut.head > limit:
            continue
        found: _Node | None = None
        for start in range(k - 1, -2, -1):
            if k - start > MAX_REACH:
                return None
            width = width_of(start, end)
            if width is None:
                continue
            if width > limit:
                if start < 0 or nodes[start].cut < 0:
                    break  # every earlier start makes the line wider still
                continue
            candidates = [_Node(0, 0.0, -1, False)] if start < 0 else \
                [b for b in best[start] if b is not None and not (hyphened and b.hyphened)]
            if not candidates:
                continue
            before = min(candidates, key=_order)
            cost = before.cost + _line_cost(width, measure, k == last, balance, start, end, nodes, cut)
            if start >= 0 and nodes[start].cut < 0 and nodes[start].word < len(glue):
                cost += glue[nodes[start].word]
            node = _Node(before.lines + 1, cost, start if start < 0 else _index(start, before, best), hyphened)
            if found is None or _order(node) < _order(found):
                found = node
        best[k][int(hyphened)] = found
    ends = [b for b in best[last] if b is not None]
    if not ends:
        return None
    chosen: list[Break] = []
    k, node = last, min(ends, key=_order)
    while True:
        chosen.append(nodes[k])
        if node.back < 0:
            break
        k = node.back // 2
        node = best[k][node.back % 2]  # type: ignore[assignment]
    return chosen[::-1]


def _order(node: _Node) -> tuple[int, float]:
    return node.lines, node.cost


def _index(start: int, before: _Node, best: list[list[_Node | None]]) -> int:
    """The node and hyphen state a line starts after, as one number (node · 2 + state)."""
    return start * 2 + (1 if best[start][1] is before else 0)


def _line_cost(width: float, measure: float, is_last: bool, balance: bool, start: int, end: Break,
               nodes: list[Break], cut: Cut | None) -> float:
    cost = cut.cost if cut is not None else 0.0
    room = max(measure - width, 0.0) / measure if measure > 0 else 0.0
    if not is_last or balance:
        cost += RAGGED * room * room
    if is_last and start >= 0:
        # one word alone on the last line (a whole word, or the rest of one broken): a runt if short
        alone = nodes[start].word == end.word if nodes[start].cut >= 0 else nodes[start].word + 1 == end.word
        if alone and width < RUNT_SHARE * measure:
            cost += RUNT
    return cost
