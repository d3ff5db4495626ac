"""text/linebreak.py: the best breaks for a whole paragraph, held to every set of breaks tried
one by one on small paragraphs, and to what a typesetter asks of them."""

from __future__ import annotations

import itertools
import random

import pytest

from deckpress.text.linebreak import MAX_BREAKS, RAGGED, RUNT, Break, Cut, best_breaks


def lines_of(breaks: list[Break], words: list[str], cuts) -> list[str]:
    """The lines as text, a broken word's head ending in "-" (for reading the tests)."""
    out, first, rest = [], 0, None
    for end in breaks:
        line = [rest] if rest else []
        line += words[first:end.word + (end.cut < 0)]
        rest = None
        if end.cut >= 0:
            head, rest = cuts[end.word][end.cut]
            line.append(head + "-")
        first = end.word + 1
        out.append(" ".join(line))
    return out


def paragraph(text: str, hyphens: dict[str, list[str]] | None = None):
    """Words a character each em wide, a space 1 em, and the breaks `hyphens` gives a word
    ("Hexa|chords"), each as a Cut costing 60, its head with a hyphen."""
    words = text.split()
    parts = [[(w[:k], w[k:]) for k in _cut_points(w, hyphens)] for w in words]
    cuts = [[Cut(len(head) + 1, len(rest), 60.0) for head, rest in p] for p in parts]
    return words, [float(len(w)) for w in words], [1.0] * len(words), cuts, parts


def _cut_points(word: str, hyphens: dict[str, list[str]] | None) -> list[int]:
    pieces = (hyphens or {}).get(word)
    if not pieces:
        return []
    return list(itertools.accumulate(len(p) for p in pieces[:-1]))


def test_as_few_lines_as_filling_them_in_turn_and_each_within_the_measure():
    rng = random.Random(31)
    for _ in range(300):
        widths = [float(rng.randint(1, 9)) for _ in range(rng.randint(1, 40))]
        spaces = [1.0] * len(widths)
        measure = float(rng.randint(9, 30))
        chosen = best_breaks(widths, spaces, [[] for _ in widths], measure)
        assert chosen is not None and chosen[-1] == Break(len(widths) - 1)
        assert len(chosen) == len(greedy_breaks(widths, spaces, measure))
        first = 0
        for end in chosen:
            assert sum(widths[first:end.word + 1]) + (end.word - first) <= measure
            first = end.word + 1


def cost_of(chosen, widths, spaces, cuts, measure, balance):
    """(lines, cost) of a set of breaks, reckoned as the module documents it; None if it is not
    allowed (a line too wide, a word broken twice, two hyphenated lines in a row)."""
    cost, before = 0.0, False
    for k, end in enumerate(chosen):
        start = chosen[k - 1] if k else None
        if start is not None and start.cut >= 0 and end.word == start.word:
            return None
        first = 0 if start is None else start.word + 1
        width = cuts[start.word][start.cut].rest + spaces[start.word] if start is not None and start.cut >= 0 else 0.0
        last_full = end.word if end.cut < 0 else end.word - 1
        if last_full >= first:
            width += sum(widths[first:last_full + 1]) + sum(spaces[first:last_full]) + \
                (0.0 if end.cut < 0 else spaces[last_full])
        hyphened = end.cut >= 0
        if hyphened:
            width += cuts[end.word][end.cut].head
            cost += cuts[end.word][end.cut].cost
        if width > measure + 1e-9 or (hyphened and before):
            return None
        before = hyphened
        room = (measure - width) / measure
        is_last = k == len(chosen) - 1
        if not is_last or balance:
            cost += RAGGED * room * room
        if is_last and start is not None:
            alone = start.word == end.word if start.cut >= 0 else start.word + 1 == end.word
            if alone and width < 0.3 * measure:
                cost += RUNT
    return len(chosen), cost


def brute_force(widths, spaces, cuts, measure, balance):
    """The least (lines, cost) of every set of breaks."""
    nodes = [Break(i, j) for i in range(len(widths)) for j in [*range(len(cuts[i])), -1]]
    found = [cost_of([*ends, nodes[-1]], widths, spaces, cuts, measure, balance)
             for r in range(len(nodes)) for ends in itertools.combinations(nodes[:-1], r)]
    return min(f for f in found if f is not None)


@pytest.mark.parametrize("balance", [False, True])
def test_the_breaks_are_the_best_of_every_set_of_breaks(balance):
    rng = random.Random(balance)
    syllables = ["ka", "non", "rei", "he", "wech", "sel", "to", "ne", "ab", "la", "ge"]
    hyphenated = 0
    for _ in range(150):
        text, hyphens = [], {}
        for _ in range(rng.randint(2, 6)):
            pieces = [rng.choice(syllables) for _ in range(rng.randint(1, 3))]
            text.append("".join(pieces))
            if len(pieces) > 1 and rng.random() < 0.6:
                hyphens[text[-1]] = pieces
        words, widths, spaces, cuts, parts = paragraph(" ".join(text), hyphens)
        measure = float(rng.randint(max(map(len, words)) + 1, 24))
        chosen = best_breaks(widths, spaces, cuts, measure, balance)
        got = cost_of(chosen, widths, spaces, cuts, measure, balance)
        best = brute_force(widths, spaces, cuts, measure, balance)
        assert got[0] == best[0] and got[1] == pytest.approx(best[1]), lines_of(chosen, words, parts)
        hyphenated += any(end.cut >= 0 for end in chosen)
    assert hyphenated > 5  # hyphens were chosen where they were best, not merely never


def test_never_two_hyphenated_lines_in_a_row():
    words, widths, spaces, cuts, parts = paragraph(
        "aaaabbbb ccccdddd eeeeffff gggghhhh", {w: [w[:4], w[4:]] for w in ["aaaabbbb", "ccccdddd", "eeeeffff", "gggghhhh"]})
    chosen = best_breaks(widths, spaces, cuts, 10.0)
    assert chosen is not None
    ends = [end.cut >= 0 for end in chosen]
    assert not any(a and b for a, b in zip(ends, ends[1:]))


def test_balanced_lines_are_even_and_a_runt_is_avoided():
    words, widths, spaces, cuts, parts = paragraph("The edges of the hexachord")
    # ragged: the first line as full as it goes; balanced: two lines of about one length
    assert lines_of(best_breaks(widths, spaces, cuts, 20.0), words, parts) == ["The edges of the", "hexachord"]
    assert lines_of(best_breaks(widths, spaces, cuts, 20.0, balance=True), words, parts) == \
        ["The edges of", "the hexachord"]
    words, widths, spaces, cuts, parts = paragraph("the cards go round the table until all of them are gone")
    runts = 0
    for measure in range(12, 40):
        greedy = greedy_breaks(widths, spaces, float(measure))
        if len(greedy[-1]) == 1 and widths[greedy[-1][0]] < 0.3 * measure and len(greedy) > 1:
            runts += 1  # filled in turn, the last line is one short word: the best breaks leave it company
            best = lines_of(best_breaks(widths, spaces, cuts, float(measure)), words, parts)
            assert len(best) == len(greedy) and " " in best[-1], (measure, best)
    assert runts >= 2


def greedy_breaks(widths, spaces, measure) -> list[list[int]]:
    lines, used = [[]], 0.0
    for i, width in enumerate(widths):
        if lines[-1] and used + spaces[i - 1] + width > measure:
            lines.append([])
            used = 0.0
        used += (spaces[i - 1] if lines[-1] else 0.0) + width
        lines[-1].append(i)
    return lines


def test_glue_keeps_words_together_where_the_caller_says():
    words, widths, spaces, cuts, parts = paragraph("Richtungswechsel · Aussetzen")
    assert lines_of(best_breaks(widths, spaces, cuts, 20.0, True), words, parts) == \
        ["Richtungswechsel", "· Aussetzen"]
    glue = [40.0 if words[i + 1:i + 2] == ["·"] else 0.0 for i in range(len(words))]  # the mark with the word before
    assert lines_of(best_breaks(widths, spaces, cuts, 20.0, True, glue), words, parts) == \
        ["Richtungswechsel ·", "Aussetzen"]


def test_a_hyphen_is_a_last_resort_among_breaks_that_give_as_many_lines():
    words, widths, spaces, cuts, parts = paragraph("in ihrem Zug keine Karte", {"ihrem": ["ih", "rem"]})
    assert lines_of(best_breaks(widths, spaces, cuts, 14.0), words, parts) == ["in ihrem Zug", "keine Karte"]


def test_what_it_cannot_or_should_not_search_is_left_to_greedy_filling():
    assert best_breaks([30.0, 2.0], [1.0, 0.0], [[], []], 10.0) is None  # a word wider than the measure
    n = MAX_BREAKS + 1
    assert best_breaks([1.0] * n, [1.0] * n, [[] for _ in range(n)], 50.0) is None
    assert best_breaks([], [], [], 10.0) == []
