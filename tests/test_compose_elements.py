"""The drawers: one per element kind that model/elements.py declares, checked when compose loads."""

from __future__ import annotations

import pytest

from deckpress.compose.elements import DRAWERS, check_drawers, draws
from deckpress.model.elements import KINDS


def test_every_declared_kind_has_a_drawer_in_declaration_order():
    assert list(DRAWERS) == list(KINDS)
    check_drawers(DRAWERS, KINDS)


def test_a_kind_without_a_drawer_is_refused():
    missing = {k: v for k, v in DRAWERS.items() if k != "staff"}
    with pytest.raises(RuntimeError, match="element kinds without a drawer: staff"):
        check_drawers(missing, KINDS)


def test_a_drawer_without_a_declared_kind_is_refused():
    extra = {**DRAWERS, "hexagon": DRAWERS["polygon"]}
    with pytest.raises(RuntimeError, match="drawers for kinds model/elements.py does not declare: hexagon"):
        check_drawers(extra, KINDS)


def test_drawers_out_of_the_declarations_order_are_refused():
    shuffled = dict(reversed(DRAWERS.items()))
    with pytest.raises(RuntimeError, match="order"):
        check_drawers(shuffled, KINDS)


def test_a_second_drawer_for_a_kind_is_refused():
    with pytest.raises(RuntimeError, match="two drawers for element kind 'rect'"):
        draws("rect")(lambda ctx, e, values: [])
    assert DRAWERS["rect"].draw.__name__ == "rect"
