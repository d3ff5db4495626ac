"""deckpress: print-and-play card decks from YAML.

Layers, lowest first (a module imports only from layers below it):

    units, colors, errors, fonts, yamlfile    plain values and the error type
    model        deck and layout files -> validated Deck and Templates
    face         the drawing list of one card side, in millimetres
    compose      card + template -> Face (fields, conditions, text fitting)
    ink          colour -> low-ink greyscale, as a Face -> Face transform
    backends     draw a Face: PDF (reportlab), SVG (svgwrite), raster (pypdfium2)
    impose       sheets of faces on paper: grid, marks, boxes, duplex backs
    build        which files a deck produces
    cli          the `deckpress` command
"""

__version__ = "0.1.0"
