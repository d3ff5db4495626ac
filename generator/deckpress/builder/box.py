"""The deck's tuck box: what goes in it, how big it is, and its file on one paper."""

from __future__ import annotations

import functools
from pathlib import Path

from ..compose.tuckbox import CARD_THICKNESS, BoxArt, BoxSize, Net, box_size, sleeve_for, tuck_box
from ..errors import DeckError, Warnings
from ..face import Face
from ..imposition.document import Marking
from ..text.fonts import from_fonts
from ..model import Deck
from .faces import DeckFaces, Inked
from .flatten import Flattener
from .jobs import PDF_X1A, Job, Page, deck_job, piece_page, single_pages
from .plan import DRIVETHRU_BOX, Options, Variant, printed_title

#: the few words a box prints, in the languages decks are written in (others get English)
BOX_WORDS = {"en": ("players", "cards", "made with deckpress"),
             "de": ("Personen", "Karten", "erstellt mit deckpress")}


def box_contents(deck: Deck) -> int:
    """How many pieces go in the box, which its depth is made for: every one of the deck's card
    size (cards, rule cards, card-sized board pieces); boards and pawns of other sizes stay out."""
    card = (deck.size.width, deck.size.height)
    return sum(c.card_count for c in deck.components if (c.size.width, c.size.height) == card)


def box_subtitle(deck: Deck) -> str:
    """The line under the title on the box's front (`box: {subtitle: …}`), in the language printed."""
    return deck.name(deck.box_subtitle) if deck.box_subtitle else ""


def box_label(deck: Deck) -> str:
    """What the box says it holds: the deck's own words (`box: {contents: …}`, translated when the
    translation has them, `{cards}` the number of cards), else its cards, the pieces printed on the
    `cards` sheet: the rules count
    rule cards and board pieces apart from the deck, so the depth's count would disagree with them."""
    cards = deck.card_count("cards")  # per-player sets included, as many as the build prints
    if deck.box_contents:
        return deck.name(deck.box_contents).replace("{cards}", str(cards))
    return f"{cards} {BOX_WORDS.get(deck.lang, BOX_WORDS['en'])[1]}"


def box_job(faces: DeckFaces, out_dir: Path, paper: str, inked: Inked, options: Options,
            warn: Warnings) -> Job | None:
    """The deck's tuck box on one paper: one page, or two parts with glue tabs when the net does
    not fit; a warning, and no file, when even the parts do not. The cover card's front
    (`DeckFaces.cover`) is on its front and a back on its back."""
    deck = faces.deck
    count = box_contents(deck)
    cover = faces.cover()
    if not deck.box or cover is None or count == 0:
        return None
    size = sized_box(deck, count, options)
    art = box_art(deck, inked(cover[0]), inked(cover[1], back=True))
    for parts in (1, 2):
        nets = _nets(size, art, parts)
        plans = [piece_page(net.face, net.outline, paper, options.marking.marks, options.marking.cutter,
                            options.marking.margins) for net in nets]
        if all(plans):
            pages = [Page(plan, net.name if parts > 1 else "") for plan, net in zip(plans, nets)]
            return deck_job(deck, out_dir, paper, inked.variant, "box", pages, marking=options.marking)
    warn(f"the tuck box ({size.width:g} × {size.height:g} × {size.depth:g} mm) does not fit on {paper} paper, "
         "even in two parts: no box file", kind="box-too-big")
    return None


#: the cards DriveThruCards makes tuck boxes for: poker (2.5 × 3.5 in), as its tuck box products say
DRIVETHRU_BOX_CARDS = (63.5, 88.9)


def drivethru_box_job(faces: DeckFaces, out_dir: Path, options: Options, scratch: Path,
                      warn: Warnings) -> Job | None:
    """DriveThruCards' tuck box file (`--preset drivethru-box`): the deck's box in one piece, on a
    page exactly its size, without bleed (which DriveThruCards asks of a box, unlike its cards),
    marks, cut or fold lines (its die cuts and creases), in CMYK and PDF/X-1a:2003 like its card
    files, a side with transparency printed as a picture of itself. Poker cards only: a deck of
    another size is one line naming the size it takes."""
    deck = faces.deck
    (w, h), (dw, dh) = (deck.size.width, deck.size.height), DRIVETHRU_BOX_CARDS
    if not (abs(w - dw) <= 1.0 and abs(h - dh) <= 1.0):
        raise DeckError(f"preset {DRIVETHRU_BOX} has no tuck box for {w:g}×{h:g} mm cards; DriveThruCards makes "
                        f"them for poker {dw:g}×{dh:g} mm cards", deck.file)
    count, cover = box_contents(deck), faces.cover()
    if cover is None or count == 0:
        warn("no cards of the deck's size to box: no DriveThruCards tuck box file", kind="box-too-big")
        return None
    inked, flat = faces.inked(Variant.CMYK, options.separation), Flattener(scratch)
    art = box_art(deck, inked(flat(cover[0])), inked(flat(cover[1]), back=True))  # type: ignore[arg-type]
    net, = tuck_box(sized_box(deck, count, options), art, 1, lines=False)
    face = flat(net.face)
    if flat.done:
        warn("the tuck box's art has transparency: printed as a picture at 600 dpi in the DriveThruCards "
             "file, as PDF/X-1a allows none", kind="flattened")
    pages = single_pages([face], face.width, face.height, 0.0)  # type: ignore[list-item]
    return deck_job(deck, out_dir, None, Variant.CMYK, DRIVETHRU_BOX, pages, marking=Marking(marks="none"),
                    standard=PDF_X1A)


@from_fonts
@functools.lru_cache(maxsize=4)
def _nets(size: BoxSize, art: BoxArt, parts: int) -> tuple[Net, ...]:
    """The box's nets, drawn once for every paper it is printed on (a build asks for each paper
    in turn, with the same ink)."""
    return tuple(tuck_box(size, art, parts))


def box_art(deck: Deck, front: Face, back: Face | None) -> BoxArt:
    """What the box shows: the deck's title, designer, player count, contents (`box_label`) and
    licence in the language printed (and "made with deckpress" unless `box: {credit: false}`), in
    the deck's `box: {font: …}`, and the cover's faces as printed."""
    players, _, credit = BOX_WORDS.get(deck.lang, BOX_WORDS["en"])
    details = ((f"{deck.players} {players}",) if deck.players else ()) + (
        *box_label(deck).split(" · "), deck.name(deck.license))  # a line for each kind of piece
    if deck.box_credit:
        details += (credit,)
    return BoxArt(printed_title(deck), deck.name(deck.designer), details, front, back, deck.names.fonts,
                  deck.box_font, box_subtitle(deck))


def sized_box(deck: Deck, count: int, options: Options) -> BoxSize:
    """The box for `count` of the deck's cards, in the sleeves `options` asks for, if any."""
    card_w, card_h, thickness = deck.size.width, deck.size.height, CARD_THICKNESS
    if options.sleeves is not None:
        try:
            card_w, card_h = sleeve_for(card_w, card_h) if options.sleeves == "auto" else options.sleeves
        except ValueError as exc:
            raise DeckError(f"--sleeves auto: {exc}", deck.file) from None
        if card_w < deck.size.width or card_h < deck.size.height:
            raise DeckError(f"sleeves of {card_w:g}×{card_h:g} mm are smaller than the deck's "
                            f"{deck.size.width:g}×{deck.size.height:g} mm cards", deck.file,
                            suggestion="--sleeves auto")
        thickness += options.sleeve_thickness
    return box_size(card_w, card_h, count, thickness)
