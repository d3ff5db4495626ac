"""Imposition, geometry only: where faces go on sheets of paper (grids, tiles, gutterfold, duplex
backs, the back offset) and each page's furniture (marks, fold line, tile marks, scale bar, label),
all as values in millimetres. It imports no backend: backends/pdfpages.py draws these values and
backends/svg.py writes the cut files."""
