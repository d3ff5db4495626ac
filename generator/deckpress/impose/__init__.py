"""Imposition: faces placed on sheets of paper, with marks, boxes and duplex-ready backs."""
