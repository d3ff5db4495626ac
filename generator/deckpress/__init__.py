"""deckpress: print-and-play card decks from YAML.

The public Python API (see docs/API.md), read from `deckpress.api` when first used, so that
`import deckpress` stays cheap:

    deckpress.build(decks, out, ...)     build decks: PDFs, images, TTS, previews
    deckpress.check(deck)                load and compose a deck without writing anything
    deckpress.load_deck(deck)            the checked deck, its components and cards
    deckpress.list_decks(folder)         the bundled decks and the deck folders in a folder
    deckpress.new_deck(folder, base=…)   a deck to start from, or one that extends another
    deckpress.impose(images, out, ...)   ready-made card images on marked sheets
    deckpress.calibrate(out, ...)        the sheet that measures a printer's back offset
    deckpress.schema("deck"|"layout")    the JSON Schema of deck.yaml or a layout file, for editors
    deckpress.serve(deck, port=…)        the deck in the browser, kept up to date as its files are saved
    deckpress.Report.of(results)         what a build or check did, per deck, as lines or JSON
    deckpress.DeckError                  every mistake in the input; deckpress.Warnings of DeckWarning

Layers, lowest first (a module imports only from layers below it; docs/ARCHITECTURE.md):

    units, colors, errors, fonts, yamlfile, bundled    plain values, the error type, the bundled data
    face         the drawing list of one card side, in millimetres
    model        deck and layout files -> validated Deck and Templates
    compose      card + template -> Face (fields, conditions, text fitting)
    ink          colour -> low-ink greyscale, as a Face -> Face transform
    imposition   sheets of faces on paper as geometry: grids, marks, boxes, duplex backs, furniture
    backends     draw faces and pages: PDF (reportlab), SVG (svgwrite), raster (pypdfium2)
    outputs      per-card files: PNG/SVG sets, TTS, preview
    builder      which files a deck produces, and writing them
    api          the public functions; live: `deckpress serve` (a deck kept built, watched, served)
    cli          the `deckpress` command
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = ["build", "check", "impose", "calibrate", "load_deck", "list_decks", "new_deck", "serve", "schema",
           "DeckError", "Warnings", "DeckWarning", "Report", "__version__"]

if TYPE_CHECKING:
    from .api import Report, build, calibrate, check, impose, list_decks, load_deck, new_deck, schema, serve
    from .errors import DeckError, DeckWarning, Warnings


def __getattr__(name: str) -> Any:
    # PEP 562: the API is imported on first use. No submodule may share a name in __all__:
    # importing `deckpress.x` binds `deckpress.x` to that module, over the function. So the
    # build code is `deckpress.builder` and imposition `deckpress.imposition`.
    if name in __all__:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
