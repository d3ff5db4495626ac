"""The build layer: from a deck (or ready-made card images) to the files a user prints.

    plan       the options, the variants a file is printed in (`Variant`), which files there are and their names
    faces      each card-list entry composed once; sheets, image sets and the box cover read off that pass
    jobs       pages laid out and PDFs and cut files written: the one module that calls `imposition/`
    box        the tuck box: what goes in it, its size (sleeves too), its file on one paper
    deckbuild  `build_deck`: every file of one deck, for each format, paper and variant, in order
    images     `impose_images`: ready-made card images checked and put on the same sheets

Above `imposition/` and `outputs/`; `deckpress.api` is above this, and the command line above that.
Nothing is imported here, so reading `plan` does not load the backends.
"""
