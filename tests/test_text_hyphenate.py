"""Hyphenation: where words may break (text/hyphenate.py), and the line breaker and fitter of
the text engine using it: soft hyphens, the dictionary per language, `hyphenate:` and `lang:`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from deckpress.builder.deckbuild import build_deck
from deckpress.builder.faces import compose_faces
from deckpress.colors import BLACK, RGB
from deckpress.text import TextStyle, cache_clear, glyph_icon, is_title, set_text, shape_icon
from deckpress.text.fitting import fit_lines
from deckpress.text.hyphenate import SHY, breaks, hyphenated
from deckpress.text.markup import parse
from deckpress.errors import Warnings
from deckpress.face import Text
from deckpress.text.fonts import FontSet
from deckpress.model import load_deck
from deckpress.units import PT
from tests.faceread import text_items
from tests.pdfread import page_text

FONTS = FontSet()
SANS = FONTS.families["sans"]
REGULAR = SANS.file("regular")
ICONS = {"sharp": glyph_icon("sharp", FONTS.families["music"].file("regular"), "♯", 1.0, None),
         "red": shape_icon("red", "circle", RGB(1, 0, 0))}


def lines_of(text, w, size=10 * PT, hyphenate="de", h=80.0, shrink=False):
    fitted = set_text(text, (0, 0, w, h), TextStyle(SANS, "regular", size, 5 * PT, BLACK, shrink=shrink,
                                                    hyphenate=hyphenate), FONTS, ICONS)
    by_line: dict[float, list[Text]] = {}
    for item in fitted.items:
        if isinstance(item, Text):
            by_line.setdefault(round(item.y, 6), []).append(item)
    return [items for _, items in sorted(by_line.items())], fitted


def joined(line):
    return "".join(t.text for t in line)


def right_edge(line):
    last = line[-1]
    return last.x + FONTS.families["sans"].file("regular" if "Regular" in last.font else "bold").width(last.text) * last.size


# --- where a word may break --------------------------------------------------------------------

@pytest.mark.parametrize("word, lang, expected", [
    ("Hexachords", "de", "Hexa-chords"),  # three letters at least either side: not "He-xachords"
    ("Richtungswechsel", "de", "Rich-tungs-wech-sel"),
    ("hyphenation", "en", "hyphen-ation"),  # en is en_US, as LibreOffice has it
    ("Notenkarten-Stapelkarte", "de", "Noten-kar-ten-Sta-pel-karte"),  # after its own hyphen (no second
    # one added), and inside each part
    ("Kanon-Karte", "de", "Kanon-Karte"),  # parts under seven letters: only after its own hyphen
    ("Danach", "de", "Danach"), ("ihrem", "de", "ihrem"), ("into", "en", "into"),  # under seven letters
    ("Hexachords.", "de", "Hexa-chords."),  # punctuation is not a letter
    ("Tisch\u00admitte", "de", "Tisch-mitte"),  # the writer's soft hyphen, and no other break
    ("Richtungs\u00adwechsel", "de", "Richtungs-wechsel"),
    ("a\u00adbc", "de", "abc"),  # one letter would stay
    ("abc\u00add", "de", "abcd"),  # one letter would go
    ("Hexachords", None, "Hexachords"),  # no language, no dictionary
    ("Hexachords", "xx", "Hexachords"),  # a language pyphen has no dictionary for
    ("Level12345", "en", "Level12345"),  # digits
    ("www.hexachord.de", "de", "www.hexachord.de"), ("https://hexachord", "de", "https://hexachord"),
    ("name@hexachord", "de", "name@hexachord"),
])
def test_where_a_word_may_break(word, lang, expected):
    assert hyphenated(word, lang) == expected


@pytest.mark.parametrize("lang", ["de", "en", "fr", "nl"])
def test_at_least_two_letters_stay_and_go(lang):
    for word in ("Abend", "oben", "Ufer", "über", "avec", "idea", "eerie", "Aussetzen", "Pause", "ideally"):
        for cut, resume, _ in breaks(word, lang):
            assert sum(c.isalpha() for c in word[:cut]) >= 2 and sum(c.isalpha() for c in word[resume:]) >= 2


def test_regional_languages_find_their_dictionary():
    assert hyphenated("Hexachords", "de-CH") == "Hexa-chords" and hyphenated("hyphenation", "en_GB") != "hyphenation"


# --- the line breaker ----------------------------------------------------------------------------

def test_a_word_moves_down_whole_when_the_text_fits_so_and_breaks_when_it_is_wider_than_a_line():
    text = "Die Grenzen des Hexachords"
    lines, _ = lines_of(text, 40.0)
    plain, _ = lines_of(text, 40.0, hyphenate=None)
    # the box has room for the second line: no hyphen (issue 31: "in ih- / rem Zug" read as careless)
    assert [joined(line) for line in plain] == [joined(line) for line in lines] == ["Die Grenzen des", "Hexachords"]
    lines, _ = lines_of("Die Richtungswechselkarten", 40.0)  # the compound is wider than the line
    assert [joined(line) for line in lines] == ["Die Richtungswechsel-", "karten"]
    assert all(right_edge(line) <= 40.0 + 1e-9 for line in lines)  # the head and its hyphen fit

    # the latest break that fits (Rich-tungs-wech-sel): the box's width decides which
    def width(head):
        return REGULAR.width(head) * 10 * PT + 0.001

    for head, rest in (("Richtungswech-", "sel"), ("Richtungs-", "wechsel"), ("Rich-", "tungswechsel")):
        lines, _ = lines_of("Richtungswechsel", width(head))
        assert [joined(line) for line in lines] == [head, rest]
        lines, _ = lines_of("Richtungswechsel", width(head) - 0.002)  # a hair narrower: an earlier break
        assert joined(lines[0]) != head


def test_a_word_too_long_for_any_line_is_broken_over_several():
    lines, fitted = lines_of("Donaudampfschifffahrtsgesellschaftskapitän", 25.0)
    assert len(lines) >= 3 and all(joined(line).endswith("-") for line in lines[:-1])
    assert "".join(joined(line)[:-1] for line in lines[:-1]) + joined(lines[-1]) == \
        "Donaudampfschifffahrtsgesellschaftskapitän"
    assert fitted.fits and all(right_edge(line) <= 25.0 + 1e-9 for line in lines)


def test_a_line_ending_at_a_words_own_hyphen_keeps_it_in_the_text():
    """Broken after its own hyphen, a word adds none, and the hyphen is drawn as U+2010, which a
    PDF reader keeps when it joins the lines (a "-" there it drops, as a hyphenation)."""
    head = REGULAR.width("mit der Kanon-") * 10 * PT + 0.001
    lines, _ = lines_of("mit der Kanon-Karte", head)
    assert [joined(line) for line in lines] == ["mit der Kanon\u2010", "Karte"]
    assert right_edge(lines[0]) <= head


@pytest.mark.parametrize("text", ["Die Grenzen des **Hexa**chords", "Die Grenzen des Hexa:red:chords",
                                  "Die Grenzen des Hexachords123"])
def test_words_with_a_change_of_font_an_icon_or_digits_are_not_split(text):
    lines, _ = lines_of(text, 40.0)
    assert not any(joined(line).endswith("-") for line in lines)


def test_the_fitter_breaks_before_it_shrinks():
    text = "Richtungswechsel"
    lines = parse(text, SANS, "regular", FONTS, ICONS)
    # a word a little too wide for the box, which has room for two lines: it breaks, not shrinks
    w, h = REGULAR.width(text) * 12 * PT * 0.9, (0.76 + 0.24 + 1.2) * 12 * PT + 0.01
    _, with_hyphens, fits = fit_lines(lines, w, h, 12 * PT, 5 * PT, 1.2, True, True, "de")
    _, without, fits_too = fit_lines(lines, w, h, 12 * PT, 5 * PT, 1.2, True, True, None)
    assert fits and fits_too
    assert with_hyphens == 12 * PT and without < 12 * PT


# --- soft hyphens --------------------------------------------------------------------------------

@pytest.mark.parametrize("shy", [SHY, "&shy;"])
def test_a_soft_hyphen_is_invisible_and_of_no_width_unless_the_line_breaks_there(shy):
    whole, fitted = lines_of(f"Tisch{shy}mitte", 80.0, hyphenate=None)
    assert [joined(line) for line in whole] == ["Tischmitte"] and not fitted.missing
    assert right_edge(whole[0]) == pytest.approx(REGULAR.width("Tischmitte") * 10 * PT)
    # where the line has room for the whole word, it moves down whole; where it has not, it breaks there
    whole, _ = lines_of(f"auf der Tisch{shy}mitte", REGULAR.width("auf der Tisch-") * 10 * PT + 0.01,
                        hyphenate=None)
    assert [joined(line) for line in whole] == ["auf der", "Tischmitte"]
    broken, _ = lines_of(f"auf der Tisch{shy}mitte", REGULAR.width("Tischmi") * 10 * PT, hyphenate=None)
    assert [joined(line) for line in broken] == ["auf der", "Tisch-", "mitte"]


def test_soft_hyphens_and_hyphenation_in_the_pdf(make_deck, tmp_path):
    """Read back from the PDF: the broken words end their lines with "-", a soft hyphen where the
    line did not break prints nothing, and no U+00AD is in the extracted text."""
    layout = """
        templates:
          front:
            fields: {text: ~}
            elements:
              - text: {text: "{text}", x: 5mm, y: 5mm, w: 28mm, h: 60mm, size: 10pt, fit: none}
          back:
            elements:
              - rect: {x: 0mm, y: 0mm, w: 100%, h: 100%, fill: "#223344"}
        """
    deck = """
        id: shy
        title: Shy
        designer: Test
        license: CC0-1.0
        language: de
        layouts: [shy]
        components:
          - name: things
            front: front
            back: back
            cards:
              - {text: "Ablage&shy;stapel und Nachzieh&shy;stapel nebeneinander: Richtungswechsel"}
              - {text: "Notenkarten-Stapel"}
        """
    folder = make_deck(deck, {"shy": layout})
    build_deck(folder, tmp_path / "out", ["a4"], ["color"])
    text = page_text(tmp_path / "out" / "shy" / "shy-cards-a4.pdf", 0)
    assert SHY not in text
    assert "Ablagestapel" in text  # not broken: its soft hyphen prints nothing
    # a "-" ending a line is what pdfium reads as a hyphenated break (U+FFFE): at the soft hyphen,
    # and where the German dictionary breaks the words that have none
    assert "Nachzieh\ufffestapel" in text and "Rich\ufffetungswechsel" in text
    assert text.count("\ufffe") == 3 and "-" not in text.split("50 mm")[0]  # (the page label names the file)
    # a line ending at a word's own hyphen: the hyphen stays in the text
    assert "Notenkarten\u2010\r\nStapel" in text


# --- hyphenate: and lang: on a text element -------------------------------------------------------

def test_a_title_is_a_box_of_fewer_than_three_lines_or_one_that_does_not_wrap():
    assert is_title(9.0, 15 * PT, 1.2, True)  # a title band
    assert not is_title(60.0, 9 * PT, 1.2, True)  # a rule card's body
    assert is_title(60.0, 9 * PT, 1.2, False)  # no wrapping
    two_lines = (0.76 + 0.24 + 1.2) * 10 * PT  # exactly two lines at 10 pt
    three_lines = (0.76 + 0.24 + 2.4) * 10 * PT
    assert is_title(two_lines, 10 * PT, 1.2, True) and not is_title(three_lines, 10 * PT, 1.2, True)


LAYOUT = """
    templates:
      front:
        fields: {text: ~}
        elements:
          - text: {id: title, text: "{text}", x: 5mm, y: 3mm, w: 40mm, h: 9mm, size: 10pt, fit: none}
          - text: {id: body, text: "{text}", x: 5mm, y: 20mm, w: 40mm, h: 30mm, size: 10pt, fit: none}
          - text: {id: off, text: "{text}", x: 5mm, y: 52mm, w: 40mm, h: 30mm, size: 10pt, fit: none,
                   hyphenate: false}
      back:
        elements:
          - rect: {x: 0mm, y: 0mm, w: 100%, h: 100%, fill: "#223344"}
    """


def deck_yaml(language="de", extra="", text="Die Grenzen des Hexachords"):
    return f"""
        id: hy
        title: Hy
        designer: Test
        license: CC0-1.0
        language: {language}
        layouts: [hy]
        components:
          - name: things
            front: front
            back: back
            cards:
              - {{text: "{text}"}}
        """


def boxes(folder):
    faces = compose_faces(load_deck(folder), Warnings())
    items = list(text_items(faces.entries[0].front.items))
    return {name: [t.text for t in sorted(items, key=lambda t: t.y) if top <= t.y < bottom]
            for name, (top, bottom) in {"title": (3, 15), "body": (20, 50), "off": (52, 82)}.items()}


def test_hyphenate_auto_is_on_for_body_text_and_off_for_titles(make_deck):
    found = boxes(make_deck(deck_yaml(text="Die Richtungswechselkarten"), {"hy": LAYOUT}))
    assert found["title"] == ["Die", "Richtungswechselkarten"]  # too wide, and said so, but not hyphenated
    assert found["body"] == ["Die Richtungswechsel-", "karten"]
    assert found["off"] == ["Die", "Richtungswechselkarten"]
    # text that fits unbroken is not hyphenated even in the body; the title's lines are balanced
    found = boxes(make_deck(deck_yaml(), {"hy": LAYOUT}))
    assert found["title"] == ["Die Grenzen", "des Hexachords"]
    assert found["body"] == found["off"] == ["Die Grenzen des", "Hexachords"]


def test_hyphenate_true_asks_for_it_in_a_title(make_deck):
    layout = LAYOUT.replace("size: 10pt, fit: none}\n          - text: {id: body",
                            "size: 10pt, fit: none, hyphenate: true}\n          - text: {id: body")
    assert boxes(make_deck(deck_yaml(text="Die Richtungswechselkarten"), {"hy": layout}))["title"] == \
        ["Die Richtungswechsel-", "karten"]


def test_lang_picks_the_dictionary(make_deck):
    """English patterns break 'Hexachords' elsewhere than German ones (or not at all): the
    element's `lang` wins over the deck's language."""
    layout = LAYOUT.replace("h: 30mm, size: 10pt, fit: none}\n          - text: {id: off",
                            "h: 30mm, size: 10pt, fit: none, lang: xx}\n          - text: {id: off")
    assert boxes(make_deck(deck_yaml(), {"hy": layout}))["body"] == ["Die Grenzen des", "Hexachords"]


def test_a_bad_language_code_is_one_line_naming_the_key(make_deck):
    from deckpress.errors import DeckError
    layout = LAYOUT.replace("hyphenate: false}", "hyphenate: false, lang: \"de utsch\"}")
    with pytest.raises(DeckError) as exc:
        load_deck(make_deck(deck_yaml(), {"hy": layout}))
    assert "lang" in str(exc.value) and "hy.yaml" in str(exc.value)


def test_a_bad_hyphenate_value_is_refused(make_deck):
    from deckpress.errors import DeckError
    layout = LAYOUT.replace("hyphenate: false}", "hyphenate: sometimes}")
    with pytest.raises(DeckError) as exc:
        load_deck(make_deck(deck_yaml(), {"hy": layout}))
    assert "hyphenate" in str(exc.value) and "auto, true or false" in str(exc.value)


def test_the_patterns_break_where_pyphen_does():
    """text/hyphenate reads pyphen's dictionaries itself (lazily, for speed): every word of the
    bundled decks' texts breaks where pyphen's own reading of the same file says."""
    import re

    import pyphen

    from deckpress.bundled import DECKS_DIR
    from deckpress.text.hyphenate import dictionary

    words: dict[str, set[str]] = {"de": set(), "en": set()}
    for path in DECKS_DIR.rglob("*.yaml"):
        found = set(re.findall(r"[^\W\d_]{4,}", path.read_text(encoding="utf-8")))
        words["de" if "kanon" in str(path) else "en"] |= found
    for lang, main in (("de", "de_DE"), ("en", "en_US"), ("fr", "fr"), ("nl", "nl_NL")):
        ours, theirs = dictionary(lang), pyphen.Pyphen(lang=main, left=2, right=2)
        sample = sorted(words.get(lang, words["en"]))
        assert len(sample) > 300
        differ = {w: ours.positions(w) for w in sample if list(ours.positions(w)) != theirs.positions(w)}
        # German's pattern `5ab61la1ge` has two digits together: pyphen reads a value too many and
        # breaks "Abla-g-e-stapel"; here a gap between letters has one value, the last digit written
        assert differ == ({"Ablagestapel": (2, 4, 6, 9)} if lang == "de" else {}), lang
    assert hyphenated("Ablagestapel", "de") == "Abla-ge-sta-pel"  # (the patterns' "Ab-" leaves two letters)


@pytest.mark.parametrize("lang, main, words", [
    ("ru", "ru_RU", ["переносится", "автоматически", "электростанция", "Достопримечательность"]),  # UTF-8
    ("uk", "uk_UA", ["українська", "автоматичного"]),
    ("el", "el_GR", ["αυτοκίνητο", "παράδειγμα", "Ελληνικά"]),  # ISO 8859-7
    ("cs", "cs_CZ", ["nejneobhospodařovávatelnějšímu", "Příliš", "žluťoučký"]),  # ISO 8859-2
    ("hu", "hu_HU", ["megszentségteleníthetetlenségeskedéseitekért", "asszonnyal"]),  # nonstandard breaks
    ("de", "de_DE", ["Größenordnung", "Zuckerbäcker", "Süßwasserfische"]),  # ISO 8859-1, `ck` → `k-k`
])
def test_dictionaries_in_every_encoding_break_where_pyphen_does(lang, main, words):
    """The patterns are looked up as the dictionary's own bytes: letters beyond ASCII, in
    single-byte encodings and in UTF-8, are found as pyphen finds them."""
    import pyphen

    from deckpress.text.hyphenate import dictionary

    ours, theirs = dictionary(lang), pyphen.Pyphen(lang=main, left=2, right=2)
    assert [ours.positions(w) for w in words] == [tuple(theirs.positions(w)) for w in words]
    assert all(ours.positions(w) for w in words)


def test_a_line_of_zeros_hides_no_pattern(tmp_path):
    """A line whose digits are all zeros is no pattern to pyphen, which keeps the earlier pattern of
    the same letters; it is told apart only once read (a line with no digit at all, at once)."""
    import pyphen

    from deckpress.text.hyphenate import Patterns

    path = tmp_path / "hyph_xx_XX.dic"
    path.write_bytes(b"UTF-8\nb1c\nbc\nd1e\nd0e\nxbcx\n")  # `bc`: no digit; `d0e`: zeros only
    ours, theirs = Patterns(path), pyphen.Pyphen(filename=str(path), left=2, right=2)
    words = ["abcbc", "adede", "abcde", "xbcxa"]
    assert [ours.positions(w) for w in words] == [tuple(theirs.positions(w)) for w in words] == \
        [(2,), (2,), (2,), (2,)]  # "ad-ede": the pattern d1e, not the zeros of d0e


def test_a_language_alone_is_its_main_country():
    from deckpress.text.hyphenate import dictionary
    assert dictionary("de") is dictionary("de")  # opened once
    assert dictionary("xx") is None


# --- reading every dictionary, in time linear in its size -------------------------------------------

def _two_digit_letters(path) -> list[str]:
    """The letters of the patterns with two digits together (German's `5ab61la1ge`), which pyphen
    reads a value too many from: the one known difference (test_the_patterns_break_where_pyphen_does)."""
    import re

    from deckpress.text.hyphenate import Patterns

    encoding = Patterns(path).encoding
    text = path.read_bytes().decode(encoding)
    return [re.sub(r"\d", "", line.split("/")[0]).strip()
            for line in text.split("\n")[1:] if re.search(r"\d\d", line.split("/")[0])]


def test_every_dictionary_breaks_where_pyphen_does():
    """Each of pyphen's 50 dictionaries, on words made of its own patterns' letters (so that its
    patterns are what is looked up: 150 words a language, seeded, and a few of more than 40 bytes,
    which are looked up otherwise): the same breaks as pyphen's reading of the same file, but for
    words holding a pattern with two digits together."""
    import random

    import pyphen

    from deckpress.text.hyphenate import Patterns

    checked = 0
    for path in sorted(set(pyphen.LANGUAGES.values()), key=lambda p: p.name):
        ours, theirs = Patterns(path), pyphen.Pyphen(filename=str(path), left=2, right=2)
        parts = sorted({key.strip(".") for key in theirs.hd.patterns} - {""})
        rng = random.Random(path.name)
        words = ["".join(rng.choice(parts) for _ in range(rng.randrange(2, 6))) for _ in range(150)]
        words += ["".join(rng.choice(parts) for _ in range(30)) for _ in range(3)]
        for word in words:
            if list(ours.positions(word)) != theirs.positions(word):
                assert any(k.strip(".") in word.lower() for k in _two_digit_letters(path)), (path.name, word)
            else:
                checked += 1
    assert checked > 7500


def test_reading_a_dictionary_counts_its_lines_once():
    """The lines of a dictionary's special patterns (`^^e4`, `c1k/k=k`: Hungarian has 2,700) are
    numbered by counting on from the last one found: every byte is counted once a mark, where
    counting from the start each time read Hungarian in over 2 s (pyphen: 0.4 s)."""
    from deckpress.text.hyphenate import _special_lines

    class Counted(bytes):
        scanned = 0

        def count(self, sub, start=0, end=None):
            Counted.scanned += (len(self) if end is None else end) - start
            return super().count(sub, start, end)

    lines = [b"a1b/b=b,1,1" if i % 10 == 0 else b"a1b" for i in range(20_000)]
    text = Counted(b"\n".join(lines))
    assert _special_lines(text) == set(range(0, 20_000, 10))
    assert Counted.scanned <= 2 * len(text)


def test_a_long_word_is_looked_up_in_few_parts_and_breaks_as_pyphen_says():
    """A word of 2,000 letters is looked up a few parts a letter (only as long as some pattern
    begins so), not in each of its two million parts; and breaks where pyphen says."""
    import pyphen

    from deckpress.text.hyphenate import Patterns

    class Counted(dict):
        looked_up = 0

        def __contains__(self, key):
            Counted.looked_up += 1
            return super().__contains__(key)

    ours = Patterns(pyphen.LANGUAGES["de_DE"])
    ours._written = Counted(ours._written)
    word = "Donaudampfschifffahrtsgesellschaftskapitänsmützenabzeichen" * 35
    found = ours.positions(word)
    assert Counted.looked_up < 10 * len(word)
    assert list(found) == pyphen.Pyphen(lang="de_DE", left=2, right=2).positions(word)
    assert len(found) > 400


# --- breaking a long word: agreeing with trying every break ---------------------------------------

TEST_FONTS = Path(__file__).parent / "fonts"


def _reference(text, width, lang, font):
    """The parts a word alone on its lines is broken into, by the rule itself: for each line, every
    break from the last back, each head shaped, the first that fits; the rest shaped whole."""
    from deckpress.text.runs import shaped

    found, parts, start, nxt = breaks(text, lang), [], 0, 0
    limit = width + 1e-9
    while True:
        rest = text[start:]
        if shaped(font, rest).width <= limit:
            return [*parts, rest.replace(SHY, "")]
        for j in range(len(found) - 1, nxt - 1, -1):
            cut, resume, add = found[j]
            if sum(c.isalpha() for c in text[start:cut]) < 2:
                continue
            head = text[start:cut].replace(SHY, "") + ("-" if add else "")
            if not add and head.endswith("-") and font.has("\u2010"):
                head = head[:-1] + "\u2010"
            if shaped(font, head).width <= limit + 1e-9:
                parts.append(head)
                start, nxt = resume, j + 1
                break
        else:
            return [*parts, rest.replace(SHY, "")]


LATIN = ("ffi fl fj Tä AV To Wa ka non ton lei ter the ma stim me rich tungs wech sel grund "
         "bau stein dampf schiff fahrt ge sell schafts kapi tän Ly Yo ij fi").split()
HEBREW_SYLLABLES = "של ום עו לם ספ ר מי לה או ת כת ב קו ל שי ר".split()
ARABIC_SYLLABLES = "كتا ب مكت بة مر حبا عر بي لغ ة 12 345".split()  # and digits: two directions in a word


def _unmeasured(monkeypatch):
    """Words' pens not known, as for glyphs that do not add up to their characters: the breaker
    then shapes parts of doubling length."""
    from deckpress.text import lines

    cache_clear()
    monkeypatch.setattr(lines, "_pens", lambda *args: None)
    monkeypatch.setattr(lines, "_word_breaks", lines._word_breaks.__wrapped__)


@pytest.mark.parametrize("script", ["latin", "latin-de", "hebrew", "arabic", "latin unmeasured",
                                    "arabic unmeasured"])
def test_a_long_word_breaks_where_trying_every_break_would(script, monkeypatch):
    """The line breaker passes over heads the pen says are too wide and shapes a rest only when it
    may fit a line; what it gives is what trying every break from the last gives: words of up to
    250 characters, in a left-to-right script (ligatures, kerning: Noto Sans), right to left
    (Hebrew), Arabic (letters that join, and digits, which run left to right inside it), soft
    hyphens or the German dictionary, in boxes 4 to 30 em wide."""
    import random

    from deckpress.text.lines import wrap

    if script.endswith(" unmeasured"):
        _unmeasured(monkeypatch)
        script = script.split()[0]
    syllables, path = {"latin": (LATIN, None), "latin-de": (LATIN, None),
                       "hebrew": (HEBREW_SYLLABLES, TEST_FONTS / "NotoSansHebrew-Regular.ttf"),
                       "arabic": (ARABIC_SYLLABLES, TEST_FONTS / "NotoSansArabic-Regular.ttf")}[script]
    fonts = FontSet({"test": {"regular": str(path)}}) if path else FONTS
    family = fonts.families["test" if path else "sans"]
    lang = "de" if script == "latin-de" else None
    rng = random.Random(script)
    compared = 0
    for _ in range(30):
        parts = [rng.choice(syllables) for _ in range(rng.randrange(5, 80))]
        text = "".join(parts) if lang else SHY.join(parts)
        width = rng.uniform(4, 30)
        (hard,) = parse(text, family, "regular", fonts, {})
        assert len(hard.words) == 1 and hard.words[0].font is not None
        lines, _ = wrap([hard], width, True, lang)
        ours = [word.text.replace(SHY, "") for line in lines for word in line.words]
        assert ours == _reference(text, width, lang, family.file("regular")), (text, width)
        compared += len(ours)
    assert compared > 80


@pytest.mark.parametrize("script", ["soft hyphens", "dictionary", "hebrew", "soft hyphens unmeasured"])
def test_breaking_a_word_shapes_each_of_its_characters_a_few_times(script, monkeypatch):
    """A word of 20,000 characters broken over 300 lines and more: the characters shaped, heads and rests
    together, are a few times the word's (shaping each rest whole, as the breaker did, is 250
    times; trying each head from the last, thousands), whichever way its breaks were found."""
    import random

    from deckpress.text import lines as lines_module, runs

    if script.endswith(" unmeasured"):
        _unmeasured(monkeypatch)
    rng = random.Random(31)
    syllables = HEBREW_SYLLABLES if script == "hebrew" else LATIN
    parts = [rng.choice(syllables) for _ in range(8000)]
    word = ("".join(parts) if script == "dictionary" else SHY.join(parts))[:20_000]
    fonts = FontSet({"test": {"regular": str(TEST_FONTS / "NotoSansHebrew-Regular.ttf")}}) \
        if script == "hebrew" else FONTS
    family = fonts.families["test" if script == "hebrew" else "sans"]
    (hard,) = parse(word, family, "regular", fonts, {})
    shaped = 0
    original = runs.shaped

    def counted(font, text, shaping=runs.PLAIN):
        nonlocal shaped
        shaped += len(text)
        return original(font, text, shaping)

    monkeypatch.setattr(lines_module, "shaped", counted)
    lines, _ = lines_module.wrap([hard], 20.0, True, "de" if script == "dictionary" else None)
    assert len(lines) > 300
    assert "".join(w.text for line in lines[:-1] for w in line.words).replace("-", "") + \
        lines[-1].words[0].text.replace(SHY, "") == word.replace(SHY, "")
    assert shaped < (8 if "unmeasured" in script else 4) * len(word)


def test_a_german_compound_of_1500_letters_is_hyphenated_over_its_lines():
    """Every line of a 1,500-letter compound but the last ends at one of the word's breaks (by the
    German dictionary, for the whole word) with a hyphen, and fits the box."""
    import random

    rng = random.Random(15)
    word = "".join(rng.choice(LATIN[4:30]) for _ in range(600))[:1500].capitalize()
    lines, fitted = lines_of(word, 40.0, h=500.0)
    texts = [joined(line) for line in lines]
    assert len(texts) > 30 and all(text.endswith("-") for text in texts[:-1])
    assert all(right_edge(line) <= 40.0 + 1e-9 for line in lines) and fitted.fits
    ends = {cut for cut, _, _ in breaks(word, "de")}
    at = 0
    for text in texts[:-1]:
        at += len(text) - 1
        assert at in ends
    assert word[at:] == texts[-1]


# --- the fitter: sizes that cannot fit are not wrapped ---------------------------------------------

def _prose(rng, words):
    return " ".join(rng.choice(LATIN) + rng.choice(LATIN) + (SHY if rng.random() < 0.3 else "") + rng.choice(LATIN)
                    for _ in range(words))


def test_text_far_too_long_for_its_box_is_wrapped_once(monkeypatch):
    """At the smallest size, the words of 20,000 characters laid side by side fill more lines than
    a card's box holds: no size fits, and the fitter wraps them only there (it wrapped them at the
    largest size too, and with a span larger than the text at every 0.25 pt between)."""
    import random

    from deckpress.text import fitting

    wraps = []
    original = fitting.wrap

    def counted(lines, width_em, *args):
        wraps.append(width_em)
        return original(lines, width_em, *args)

    monkeypatch.setattr(fitting, "wrap", counted)
    text = _prose(random.Random(2), 2200)
    for span in ("", "[Achtung]{size=150%} "):
        wraps.clear()
        lines = parse(span + text, SANS, "regular", FONTS, ICONS, size=10 * PT)
        set_lines, size, fits = fit_lines(lines, 57.0, 80.0, 10 * PT, 5 * PT, 1.2, True, True, "de")
        assert (size, fits, len(wraps)) == (5 * PT, False, 1) and len(set_lines) > 300


@pytest.mark.parametrize("span", ["", "[Achtung]{size=150%} "])
def test_the_fitter_chooses_what_it_chose_trying_every_size(span, monkeypatch):
    """Texts from a few words to far too many for the box, with and without a span larger than
    the text: the lines, size and fit are those of the search that wraps at every size it tries,
    for fewer wraps."""
    import random

    from deckpress.text import fitting

    rng = random.Random(span)
    cases = [(_prose(rng, rng.choice([5, 40, 120, 250, 400, 900])), rng.uniform(20, 80), rng.uniform(15, 90))
             for _ in range(40)]
    wraps = []
    original = fitting.wrap
    monkeypatch.setattr(fitting, "wrap", lambda *args: wraps.append(1) or original(*args))
    pruned = [fit_lines(parse(span + text, SANS, "regular", FONTS, ICONS, size=10 * PT), w, h, 10 * PT, 5 * PT,
                        1.2, True, True, "de") for text, w, h in cases]
    wrapped, wraps[:] = len(wraps), []
    monkeypatch.setattr(fitting, "_too_tall", lambda *args: False)
    every = [fit_lines(parse(span + text, SANS, "regular", FONTS, ICONS, size=10 * PT), w, h, 10 * PT, 5 * PT,
                       1.2, True, True, "de") for text, w, h in cases]
    assert pruned == every and wrapped < len(wraps)
    assert {fits for _, _, fits in every} == {True, False}
    assert len({size for _, size, fits in every if fits and size < 10 * PT}) > 5


@pytest.mark.parametrize("kind", ["soft hyphens", "german", "cjk"])
def test_a_value_of_100000_characters_is_checked_with_one_warning(kind, make_deck):
    """The longest value a deck may hold (100,000 characters), as one soft-hyphenated word, as
    German prose to hyphenate, or as CJK text with no space, in a card's box: `check` sets it (at
    the smallest size, over the lines it takes) and says once that it does not fit, at the card's
    line. (benchmarks/hyphenation.py times these: well under 2 s each.)"""
    import json
    import random

    import deckpress

    rng = random.Random(kind)
    value = {"soft hyphens": SHY.join(rng.choice(LATIN) for _ in range(40_000)),
             "german": _prose(rng, 12_000),
             "cjk": "".join(chr(0x4E00 + rng.randrange(20_000)) for _ in range(100_000))}[kind][:100_000]
    layout = """
        templates:
          front:
            fields: {text: ~}
            elements:
              - text: {text: "{text}", x: 3mm, y: 3mm, w: 57mm, h: 80mm, size: 10pt, min-size: 5pt, fit: shrink}
        """
    deck = """
        id: long
        title: Long
        designer: Test
        license: CC0-1.0
        language: de
        layouts: [long]
        components:
          - name: cards
            front: front
            cards:
              - text: VALUE
        """.replace("VALUE", json.dumps(value))
    result = deckpress.check(make_deck(deck, {"long": layout}))
    overflow = [w for w in result.warnings.records if w.kind == "text-overflow"]
    card_line = next(i for i, line in enumerate(deck.split("\n"), 1) if "- text:" in line)
    assert len(overflow) == 1 and overflow[0].line == card_line and "even at 5pt" in overflow[0].message


def test_an_initial_stays_with_the_name_and_a_mark_with_the_word_before():
    """Of breaks giving as many lines, those a typesetter would tie are avoided: either side of an
    initial ("Guy T." / "Schafer", "Guy" / "T. Schafer"), before a word of punctuation alone
    ("· Aussetzen")."""
    from deckpress.text.lines import wrap

    def tied(text, w, bad):
        ours = [joined(line) for line in lines_of(text, float(w), hyphenate=None)[0]]
        greedy = [" ".join(word.text.strip() for word in line.words)
                  for line in wrap(parse(text, SANS, "regular", FONTS, ICONS), w / (10 * PT), True)[0]]
        return bad(ours), bad(greedy)

    def initial_at_end(lines):
        return any(line.endswith((" T.", " Guy")) for line in lines[:-1])

    def mark_at_start(lines):
        return any(line.startswith("·") for line in lines)

    for text, bad, widths in (("Designed and made by Guy T. Schafer on 15 November 2016", initial_at_end, range(30, 90)),
                              ("Richtungswechsel · Aussetzen · Kanon", mark_at_start, range(20, 60))):
        found = [tied(text, w, bad) for w in widths]
        assert (True, False) not in found  # never where filling in turn avoids it
        assert (False, True) in found  # and avoided where filling in turn has it


def test_a_script_with_marks_hyphenates_and_keeps_its_languages_own_least_letters():
    """Devanagari's vowel signs and viramas are marks, not letters to Python: a word is read as
    one run of letters with its marks (it was cut at each sign, and no Marathi word broke), and
    Marathi's dictionary asks for 4 characters after a break (RIGHTHYPHENMIN 4), stricter than
    deckpress's 3."""
    from deckpress.text.hyphenate import dictionary

    assert (dictionary("mr").left, dictionary("mr").right) == (3, 4)
    for word in ["महाराष्ट्रातील", "संगणकप्रणाली", "विद्यापीठाच्या", "पुस्तकालयातील"]:
        found = breaks(word, "mr")
        assert found, word
        assert all(cut >= 3 and len(word) - cut >= 4 for cut, _, _ in found), (word, found)
    assert hyphenated("संगणकप्रणाली", "mr") == "संग-ण-क-प्र-णाली"  # not "…प्रणा-ली" (2 after), nor "सं-गणक…"
