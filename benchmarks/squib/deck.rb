# The Squib-shaped benchmark deck as a Squib script, for whoever has Squib (https://squib.rocks):
#
#   python benchmarks/squibdeck.py deck /tmp/squib-deck --cards 1000 --faces 1000
#   /usr/bin/time -v ruby benchmarks/squib/deck.rb /tmp/squib-deck /tmp/squib-out
#
# It reads the cards squibdeck.py wrote (cards.json: one entry per card, and the three paragraphs)
# and draws what benchmarks/squibdeck.py's layout draws: poker cards with 3 mm bleed, a header band
# in the card's colour, the title, three paragraphs shrunk to fit their boxes (ellipsize: :autoscale,
# as deckpress fits text), two circles; one back for every card; Letter sheets, 9 cards a sheet, with
# crop marks, fronts and mirrored backs in two files (Squib writes no duplex file).
# Needs the Noto Sans fonts of fonts/ installed for Pango. Not run here: rubygems is not reachable
# from the machine the figures in docs/PERFORMANCE.md come from.
require 'json'
require 'squib'

deck_dir, out_dir = ARGV.fetch(0), ARGV.fetch(1, '_output')
spec = JSON.parse(File.read(File.join(deck_dir, 'cards.json')))
cards = spec.fetch('cards')
paragraphs = spec.fetch('paragraphs')
bleed = 3.0 # mm; Squib's card includes it, so deckpress's x, y (from the trim) move by it
mm = ->(v) { "#{v + bleed}mm" }
sheet = { width: '8.5in', height: '11in', margin: '6mm', trim: "#{bleed}mm", gap: 0, crop_marks: true }

Squib::Deck.new(cards: cards.size, width: '69.5mm', height: '94.9mm', dpi: 300) do
  background color: '#ffffff'
  rect x: 0, y: 0, width: '69.5mm', height: mm.(16.0), fill_color: cards.map { |c| c['color'] }, stroke_width: 0
  text str: cards.map { |c| c['title'] }, x: mm.(5.0), y: mm.(3.0), width: '53.5mm', height: '10mm',
       font: 'Noto Sans Condensed Bold 16', color: '#ffffff', valign: :middle, ellipsize: :autoscale
  paragraphs.zip([19.0, 38.5, 58.0]).each do |paragraph, top|
    text str: paragraph, x: mm.(5.0), y: mm.(top), width: '53.5mm', height: '18mm',
         font: 'Noto Sans 11', spacing: 0, color: '#1f1f24', ellipsize: :autoscale
  end
  [12.0, 63.5 - 12.0].each do |x|
    circle x: mm.(x), y: mm.(80.9), radius: '4.5mm', fill_color: cards.map { |c| c['color'] },
           stroke_color: '#1f1f24', stroke_width: '0.3mm'
  end
  save_pdf sheet.merge(file: 'squib-cards-letter.pdf', dir: out_dir)
end

Squib::Deck.new(cards: cards.size, width: '69.5mm', height: '94.9mm', dpi: 300) do
  background color: '#22304a'
  rect x: mm.(4.0), y: mm.(4.0), width: '55.5mm', height: '80.9mm', radius: '3mm',
       stroke_color: '#d9a521', stroke_width: '0.6mm', fill_color: '#0000'
  circle x: '34.75mm', y: mm.(40.0), radius: '15mm', stroke_color: '#d9a521', stroke_width: '0.5mm',
         fill_color: '#0000'
  text str: 'BENCH', x: mm.(6.0), y: mm.(60.0), width: '51.5mm', height: '11mm',
       font: 'Noto Sans Condensed Bold 22', color: '#ffffff', align: :center, valign: :middle
  save_pdf sheet.merge(file: 'squib-backs-letter.pdf', dir: out_dir, rtl: true)
end
