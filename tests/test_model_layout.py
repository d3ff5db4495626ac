"""Layout files: templates, extends, overrides, field declarations, and the errors for each mistake."""

from __future__ import annotations

import pytest

from deckpress.errors import DeckError
from deckpress.model import load_deck
from deckpress.model.layout import REQUIRED
from deckpress.model.values import Pattern
from deckpress.units import Length
from tests.conftest import SIMPLE_DECK

BASE = """
    colors:
      ink: "#222222"
    templates:
      base:
        fields: {title: ~, color: red}
        elements:
          - rect: {id: frame, x: 1mm, y: 1mm, w: 100% - 2mm, h: 100% - 2mm, stroke: ink}
          - group:
              id: corners
              elements:
                - text: {id: index, text: "{title}", x: 2mm, y: 2mm, w: 10mm, h: 5mm}
                - text: {id: index, text: "{title}", x: 50mm, y: 80mm, w: 10mm, h: 5mm}
      middle:
        extends: base
        fields: {note: ""}
        elements:
          - rect: {id: frame, x: 3mm, y: 3mm, w: 100% - 6mm, h: 100% - 6mm, fill: "{color}"}
      front:
        extends: middle
        elements:
          - text: {id: index, text: "**{title}**", x: 2mm, y: 2mm, w: 12mm, h: 6mm}
          - remove: corners
          - circle: {x: 50%, y: 50%, r: 5mm, fill: ink}
      back:
        elements:
          - rect: {fill: ink}
"""


def deck_with(make_deck, layout: str, deck: str = SIMPLE_DECK):
    return load_deck(make_deck(deck, {"simple": layout}))


def test_extends_flattens_parents_first_and_overrides_by_id(make_deck):
    layouts = deck_with(make_deck, BASE).layouts
    front = layouts.templates["front"]
    kinds = [(e.kind, e.id) for e in front.elements]
    # frame replaced in place by middle's, corners removed, the circle appended
    assert kinds == [("rect", "frame"), ("circle", None)]
    frame = front.elements[0]
    assert frame.values["x"] == Length(mm=3.0)
    assert isinstance(frame.values["fill"], Pattern)
    assert front.fields == {"title": REQUIRED, "color": "red", "note": ""}


def test_an_override_replaces_every_inherited_element_with_that_id(make_deck):
    layout = BASE.replace("          - remove: corners\n", "")
    front = deck_with(make_deck, layout).layouts.templates["front"]
    corners = next(e for e in front.elements if e.id == "corners")
    assert [c.values["w"] for c in corners.children] == [Length(mm=12.0), Length(mm=12.0)]


def test_a_templates_own_elements_never_replace_each_other(make_deck):
    """Two new elements sharing an id are both drawn; of two with an inherited id, the first
    replaces the inherited ones and the second is drawn as well."""
    layout = BASE.replace("          - remove: corners\n", "").replace(
        "          - circle: {x: 50%, y: 50%, r: 5mm, fill: ink}",
        "          - circle: {id: dot, x: 40%, y: 50%, r: 5mm, fill: ink}\n"
        "          - circle: {id: dot, x: 60%, y: 50%, r: 5mm, fill: ink}\n"
        '          - text: {id: index, text: "{title}!", x: 20mm, y: 40mm, w: 12mm, h: 6mm}')
    front = deck_with(make_deck, layout).layouts.templates["front"]
    dots = [e for e in front.elements if e.id == "dot"]
    assert [d.values["x"] for d in dots] == [Length(pct=40.0), Length(pct=60.0)]
    corners = next(e for e in front.elements if e.id == "corners")
    assert [c.values["w"] for c in corners.children] == [Length(mm=12.0), Length(mm=12.0)]
    extra = [e for e in front.elements if e.id == "index"]
    assert [e.values["y"] for e in extra] == [Length(mm=40.0)]


def test_literal_values_are_parsed_when_loading(make_deck):
    front = deck_with(make_deck, BASE).layouts.templates["front"]
    circle = front.elements[1]
    assert circle.values["r"] == Length(mm=5.0)
    assert circle.values["fill"].hex == "#222222"
    assert circle.values["ink"] == "auto"  # defaults come from the element declaration


@pytest.mark.parametrize("change, message", [
    (("extends: middle", "extends: front"), "cyclic extends: front → front"),
    (("extends: base", "extends: front"), "cyclic extends: middle → front → middle"),
    (("extends: middle", "extends: midle"), "extends unknown template 'midle' — did you mean 'middle'?"),
    (("- remove: corners", "- remove: cornrs"), "removes 'cornrs', which 'middle' does not have"),
    (("text: \"{title}\", x: 2mm", "text: \"{titel}\", x: 2mm"),
     "uses field 'titel', which it does not declare in 'fields' — did you mean 'title'?"),
    (("- circle:", "- circel:"), "unknown element kind 'circel' — did you mean 'circle'?"),
    (("x: 50%, y: 50%, r: 5mm", "xx: 50%, y: 50%, r: 5mm"), "unknown key 'xx' in circle — did you mean 'x'?"),
    (("r: 5mm", "r: 5"), "circle r: '5' has no unit"),
    (("fill: ink}", "fill: inc}"), "unknown colour 'inc' — did you mean 'ink'?"),
    (("fill: ink}", "fill: ink, opacity: 150%}"),
     "circle opacity: expected an opacity from 0 to 1 or a percentage like 40%, not '150%'"),
    (("x: 3mm, y: 3mm", "x: 3mm, y: 3mmm"), "rect y: unknown unit 'mmm' in '3mmm'"),
    (("ink: \"#222222\"", "ink: \"#22\""), "'#22' is not a hex colour"),
    (("      back:\n        elements:\n          - rect: {fill: ink}", "      back:\n        elements:\n          - rect: {fill: ink}\n          - text: {x: 1mm}"),
     "text needs 'text'"),
])
def test_layout_mistakes_name_file_line_and_key(make_deck, change, message):
    old, new = change
    assert old in BASE
    with pytest.raises(DeckError) as err:
        deck_with(make_deck, BASE.replace(old, new, 1))
    text = str(err.value)
    assert message in text
    assert text.startswith("deck/layouts/simple.yaml:") or "simple.yaml:" in text.split(": ")[0]
    assert err.value.line is not None and err.value.line > 1


def test_a_name_defined_in_two_layout_files_is_an_error(make_deck):
    deck = SIMPLE_DECK.replace("layouts: [simple]", "layouts: [simple, more]")
    folder = make_deck(deck, {"simple": BASE, "more": "templates:\n  back:\n    elements: []\n"})
    with pytest.raises(DeckError, match=r"template 'back' is already defined in .*simple.yaml:\d+"):
        load_deck(folder)


def test_conditions_match_values_lists_negations_and_presence(make_deck):
    circle = "- circle: {x: 50%, y: 50%, r: 5mm, fill: ink}"
    for condition, cases in [
        ("{color: [red, blue], note: {set: true}}", [({"color": "blue", "note": "x"}, True),
                                                     ({"color": "green", "note": "x"}, False),
                                                     ({"color": "red", "note": ""}, False)]),
        ("{color: {not: red}, note: {set: false}}", [({"color": "blue", "note": ""}, True),
                                                     ({"color": "red", "note": ""}, False),
                                                     ({"color": "blue", "note": "x"}, False),
                                                     # false as text (a spreadsheet's) is unset, 0 is set
                                                     ({"color": "blue", "note": "FALSE"}, True),
                                                     ({"color": "blue", "note": "no"}, True),
                                                     ({"color": "blue", "note": False}, True),
                                                     ({"color": "blue", "note": 0}, False)]),
        ("{count: 4}", [({"count": 4}, True), ({"count": 4.0}, True), ({"count": "4"}, True), ({"count": 2}, False)]),
    ]:
        layout = BASE.replace(circle, circle[:-1] + f", when: {condition}}}")
        layout = layout.replace("fields: {note: \"\"}", "fields: {note: \"\", count: 0}")
        when = deck_with(make_deck, layout).layouts.templates["front"].elements[-1].when
        for values, expected in cases:
            assert when.matches(values) is expected, (condition, values)


def test_yaml_tags_that_could_run_code_are_refused(make_deck):
    with pytest.raises(DeckError, match="not allowed"):
        deck_with(make_deck, BASE + "\n    evil: !!python/object/apply:os.system ['echo hi']\n")


def test_remove_drops_every_inherited_element_with_that_id(make_deck):
    layout = BASE.replace("          - remove: corners\n", "          - remove: index\n")
    front = deck_with(make_deck, layout).layouts.templates["front"]
    corners = next(e for e in front.elements if e.id == "corners")
    assert corners.children == ()


def test_list_fields_match_when_any_item_does(make_deck):
    layout = BASE.replace("- circle: {x: 50%, y: 50%, r: 5mm, fill: ink}",
                          "- circle: {x: 50%, y: 50%, r: 5mm, fill: ink, when: {note: red, color: {set: false}}}")
    when = deck_with(make_deck, layout).layouts.templates["front"].elements[-1].when
    assert when.matches({"note": ["blue", "red"], "color": False})
    assert not when.matches({"note": ["blue"], "color": False})
    assert not when.matches({"note": ["red"], "color": "red"})


SIZES = """
    templates:
      front:
        fields: {title: ~, color: red, height: 10mm}
        elements:
          - rect: {x: -bleed, y: -bleed, w: 100% + 2*bleed, h: 100% + 2*bleed}
          - image: {src: art/a.png, x: -5mm, y: 100% - 40mm, w: 20mm, h: 40mm}
          - text: {text: "{title}", x: 5mm, y: 5mm, w: 50%, h: "{height}"}
      back:
        elements: []
"""


@pytest.mark.parametrize("old, new, line, message", [
    ("w: 20mm, h: 40mm", "w: 20mm, h: -40mm", 7, "image h: expected a length of zero or more, like 40mm or 100% - 8mm, "
                                                  "not '-40mm'"),
    ("w: 20mm, h: 40mm", "w: -2*bleed, h: 40mm", 7, "image w: expected a length of zero or more, like 40mm or "
                                                     "100% - 8mm, not '-2*bleed'"),
    ("w: 100% + 2*bleed", "w: -50%", 6, "rect w: expected a length of zero or more, like 40mm or 100% - 8mm, "
                                        "not '-50%'"),
    ("w: 100% + 2*bleed", "w: -bleed - 1mm", 6, "rect w: expected a length of zero or more"),
    ("- rect: {x: -bleed", "- circle: {r: -3mm}\n          - rect: {x: -bleed", 6, "circle r: expected a length of zero or more"),
    ("- rect: {x: -bleed", "- ellipse: {ry: -3mm}\n          - rect: {x: -bleed", 6, "ellipse ry: expected a length of zero or more"),
    ("- rect: {x: -bleed", "- staff: {w: -1in}\n          - rect: {x: -bleed", 6, "staff w: expected a length of zero or more"),
    ("- rect: {x: -bleed", "- rect: {radius: -1mm}\n          - rect: {x: -bleed", 6, "rect radius: expected a length of zero or more"),
    ("- rect: {x: -bleed", "- rect: {stroke-width: -1mm}\n          - rect: {x: -bleed", 6,
     "rect stroke-width: expected a length of zero or more"),
    ("- rect: {x: -bleed", "- symbol: {of: red, size: -5mm}\n          - rect: {x: -bleed", 6,
     "symbol size: expected a size greater than zero"),
])
def test_widths_and_heights_below_zero_are_refused_at_load(make_deck, old, new, line, message):
    from tests.test_model_deck import _png
    assert old in SIZES
    with pytest.raises(DeckError) as err:
        load_deck(make_deck(SIMPLE_DECK, {"simple": SIZES.replace(old, new, 1)}, {"art/a.png": _png()}))
    assert str(err.value).startswith(f"{err.value.file}:{line}: {message}")
    assert err.value.file.endswith("simple.yaml")


def test_positions_may_be_negative_and_extents_may_grow_past_zero(make_deck):
    from tests.test_model_deck import _png
    deck = load_deck(make_deck(SIMPLE_DECK, {"simple": SIZES.replace("w: 20mm", "w: 50% - 40mm")}, {"art/a.png": _png()}))
    image = deck.layouts.templates["front"].elements[1]
    assert image.values["x"] == Length(mm=-5.0) and image.values["w"] == Length(mm=-40.0, pct=50.0)


def test_a_literal_parses_by_its_type_and_its_keys_type_however_often_it_repeats(make_deck):
    """Literals are parsed once per pass over the layout files: `1`, `1.0` and `true` are equal
    in Python but read differently as text, and one value may suit one key and not another."""
    layout = """
        templates:
          front:
            fields: {title: ~, color: red}
            elements:
              - text: {text: 1, x: 1mm, y: 1mm, w: 10mm, h: 5mm, opacity: 50%}
              - text: {text: true, x: 1mm, y: 1mm, w: 10mm, h: 5mm, opacity: 50%}
              - text: {text: 1.0, x: 1mm, y: 1mm, w: 10mm, h: 5mm}
              - text: {text: "1", x: 1mm, y: 1mm, w: 10mm, h: 5mm}
          back:
            elements:
              - rect: {fill: red}
    """
    front = deck_with(make_deck, layout).layouts.templates["front"]
    assert [e.values["text"] for e in front.elements] == ["1", "yes", "1", "1"]
    assert [e.values["opacity"] for e in front.elements] == [0.5, 0.5, 1.0, 1.0]
    assert front.elements[0].values["x"] is front.elements[1].values["x"]  # parsed once
    with pytest.raises(DeckError) as err:
        deck_with(make_deck, layout.replace("h: 5mm}\n              - text: {text: \"1\"",
                                            "h: 5mm, rotate: 50%}\n              - text: {text: \"1\""))
    assert "text rotate: expected a number, not '50%'" in str(err.value) and err.value.line == 8
