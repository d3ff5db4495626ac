#!/usr/bin/env python3
"""The issue's "Squib-shaped" deck: N poker cards, each front a header band in one of four colours, a
title, three paragraphs of rules text and two circles, and one back; Letter, colour.

    python benchmarks/squibdeck.py deck FOLDER --cards 1000 --faces 1000   # the deck folder
    python benchmarks/squibdeck.py naive FOLDER OUT                        # the naive reportlab loop

`deck` writes a deckpress deck folder (deck.yaml, layouts/squib.yaml) and cards.json, the same cards
for the naive loop and for benchmarks/squib/deck.rb (the deck as a Squib script). As in the issue's
profile, three of a front's four text boxes are the same on every card (the paragraphs) and the title
makes each of the FACES fronts distinct; every face has CARDS / FACES copies. Everything is seeded.

`naive` draws those cards straight onto Letter pages with plain reportlab, the text at the fixed size
deckpress shrinks it to (no fitting), into one duplex file; it prints its page count.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # common.py, when run as a script
from common import (BACK_TEMPLATE, BLEED, CARD_H, CARD_W, COLORS_YAML, INK, MM, PAPER,  # noqa: E402
                    hex_color, naive_duplex, sentence)

DECK_ID = "squib"
HEADER_COLORS = ["#cf2e3d", "#e3a600", "#2456a6", "#2e8b57"]
SEED = 20250118

# Geometry shared by the layout and the naive loop, mm from the trim's top-left.
HEADER_H = 16.0                        # the band, plus the bleed above it
TITLE_Y, TITLE_H = 3.0, 10.0
PARAGRAPH_TOPS = (19.0, 38.5, 58.0)    # three boxes of 18 mm, one under the other
PARAGRAPH_H = 18.0
MARGIN = 5.0
CIRCLE_X, CIRCLE_Y, CIRCLE_R = 12.0, CARD_H - 8.0, 4.5
TITLE_SIZE, BODY_SIZE, BODY_MIN, LINE_HEIGHT = 16, 11, 5, 1.2
NAIVE_BODY_SIZE = 7  # the size deckpress settles on for these paragraphs, set once by hand for the naive loop

LAYOUT = "# The Squib-shaped benchmark deck (benchmarks/squibdeck.py).\n" + COLORS_YAML + f"""
templates:
  squib-front:
    fields: {{title: ~, color: ~}}
    elements:
      - rect: {{x: -bleed, y: -bleed, w: 100% + 2*bleed, h: 100% + 2*bleed, fill: paper}}
      - rect: {{x: -bleed, y: -bleed, w: 100% + 2*bleed, h: {HEADER_H}mm + bleed, fill: "{{color}}"}}
      - text: {{text: "{{title}}", x: {MARGIN}mm, y: {TITLE_Y}mm, w: 100% - {2 * MARGIN}mm, h: {TITLE_H}mm,
               font: condensed, size: {TITLE_SIZE}pt, min-size: 9pt, color: paper, valign: middle}}
__PARAGRAPHS__
      - circle: {{x: {CIRCLE_X}mm, y: {CIRCLE_Y}mm, r: {CIRCLE_R}mm, fill: "{{color}}", stroke: ink,
                 stroke-width: 0.3mm}}
      - circle: {{x: 100% - {CIRCLE_X}mm, y: {CIRCLE_Y}mm, r: {CIRCLE_R}mm, fill: "{{color}}", stroke: ink,
                 stroke-width: 0.3mm}}
""" + BACK_TEMPLATE


def paragraphs() -> list[str]:
    """The three paragraphs every front carries."""
    rng = random.Random(SEED)
    return [" ".join(sentence(rng, rng.randint(11, 13)) for _ in range(3)) for _ in range(3)]


def cards(n: int, faces: int) -> list[dict]:
    """The N cards in deck order: face i's copies next to each other, as a card list gives them."""
    if faces < 1 or n % faces:
        raise SystemExit(f"--cards ({n}) must be a multiple of --faces ({faces})")
    rng = random.Random(SEED + 1)
    looks = [{"title": f"{i + 1}. {sentence(rng, 2)[:-1]}", "color": HEADER_COLORS[i % len(HEADER_COLORS)]}
             for i in range(faces)]
    return [look for look in looks for _ in range(n // faces)]


def write_deck(folder: Path, n: int, faces: int) -> None:
    """deck.yaml, layouts/squib.yaml and cards.json (the cards, one per copy, and the paragraphs)."""
    deck_cards = cards(n, faces)
    texts = paragraphs()
    boxes = "\n".join(
        f"      - text: {{text: {json.dumps(text)}, x: {MARGIN}mm, y: {top}mm, w: 100% - {2 * MARGIN}mm,\n"
        f"               h: {PARAGRAPH_H}mm, size: {BODY_SIZE}pt, min-size: {BODY_MIN}pt, "
        f"line-height: {LINE_HEIGHT}, color: ink}}"
        for text, top in zip(texts, PARAGRAPH_TOPS))
    (folder / "layouts").mkdir(parents=True, exist_ok=True)
    (folder / "layouts" / "squib.yaml").write_text(LAYOUT.replace("__PARAGRAPHS__", boxes), encoding="utf-8")
    lines = [f"id: {DECK_ID}", "title: Squib-shaped benchmark deck", "designer: deckpress", "license: CC0-1.0",
             "card: poker", "bleed: 3mm", "layouts: [squib]",
             "components:", "  - name: cards", "    front: squib-front", "    back: bench-back", "    cards:"]
    copies = n // faces
    for look in deck_cards[::copies]:
        lines.append("      - " + json.dumps({**look, "count": copies}))  # JSON is YAML
    (folder / "deck.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "cards.json").write_text(json.dumps({"paragraphs": texts, "cards": deck_cards}), encoding="utf-8")


def run_naive(deck: Path, out: Path) -> int:
    """The cards of cards.json on Letter, fronts then mirrored backs, one duplex file; the page count."""
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph

    spec = json.loads((deck / "cards.json").read_text(encoding="utf-8"))
    body = ParagraphStyle("body", fontName="NotoSans", fontSize=NAIVE_BODY_SIZE,
                          leading=NAIVE_BODY_SIZE * LINE_HEIGHT, textColor=hex_color(INK))
    w, h = CARD_W * MM, CARD_H * MM

    def front(c, card: dict) -> None:
        color = hex_color(card["color"])
        c.setFillColor(hex_color(PAPER))
        c.rect(-BLEED * MM, -BLEED * MM, w + 2 * BLEED * MM, h + 2 * BLEED * MM, stroke=0, fill=1)
        c.setFillColor(color)
        c.rect(-BLEED * MM, h - HEADER_H * MM, w + 2 * BLEED * MM, (HEADER_H + BLEED) * MM, stroke=0, fill=1)
        c.setFillColor(hex_color(PAPER))
        c.setFont("NotoSansCondensedBold", TITLE_SIZE)
        c.drawString(MARGIN * MM, h - (TITLE_Y + TITLE_H / 2) * MM - 0.35 * TITLE_SIZE, card["title"])
        for text, top in zip(spec["paragraphs"], PARAGRAPH_TOPS):
            para = Paragraph(text, body)
            _, ph = para.wrap(w - 2 * MARGIN * MM, PARAGRAPH_H * MM)
            para.drawOn(c, MARGIN * MM, h - top * MM - ph)
        c.setFillColor(color)
        c.setStrokeColor(hex_color(INK))
        c.setLineWidth(0.3 * MM)
        for x in (CIRCLE_X, CARD_W - CIRCLE_X):
            c.circle(x * MM, h - CIRCLE_Y * MM, CIRCLE_R * MM, stroke=1, fill=1)

    return naive_duplex(out / "naive-duplex-letter.pdf", spec["cards"], front, "letter")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    deck = commands.add_parser("deck", help="write the deck folder")
    deck.add_argument("folder", type=Path)
    deck.add_argument("--cards", type=int, default=1000)
    deck.add_argument("--faces", type=int, default=1000, help="distinct fronts (divides --cards)")
    naive = commands.add_parser("naive", help="draw the deck's cards with plain reportlab")
    naive.add_argument("folder", type=Path)
    naive.add_argument("out", type=Path)
    args = parser.parse_args()
    if args.command == "deck":
        write_deck(args.folder, args.cards, args.faces)
    else:
        print(run_naive(args.folder, args.out))


if __name__ == "__main__":
    main()
