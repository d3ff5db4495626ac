#!/usr/bin/env python3
"""The SVG fidelity benchmark's corpus: small SVG files, each testing one feature, written by code.

    python benchmarks/svgcorpus.py [FOLDER]     # default output/svgcorpus/

Every file is our own, generated here (none is copied from another project's test suite), and the
same on every run: nothing is random but the noise of one seeded generator. Files are named
`feature-subfeature-NNN.svg` (`filters-feGaussianBlur-003.svg`); the feature is the first word,
what the fidelity report (svgfidelity.py) groups by. The features follow the static subset of
SVG 1.1 and SVG 2, roughly as resvg's test suite divides it: structure, shapes, painting, markers,
paint servers, masking, blending, filters, text, images, Inkscape-style files and a few icons
and illustrations.

Each file is square (so that a card's `fit: contain` and a browser's viewport agree): mostly
`width="200" height="200"`, some with a viewBox alone, some with units (mm, in, pt, cm, pc). None
assumes a white background: the renders are laid on white before they are compared. Text names
only the families of the fonts bundled in fonts/ (FAMILIES), so that every renderer can be given
the same font; the pictures inside are PNG and JPEG files drawn with Pillow, and SVG, as data: URIs.

Importing this module writes nothing: `write_corpus(folder)` does, and returns the files.
"""

from __future__ import annotations

import base64
import io
import math
import random
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_FOLDER = ROOT / "output" / "svgcorpus"

#: the font families text may name, each a family of fonts/ (name table, family or typographic family)
SANS = "Noto Sans"
CONDENSED = "Noto Sans Condensed"  # Bold (700) and Black (900)
MATH = "Noto Sans Math"
SYMBOLS = "Noto Sans Symbols2"
MUSIC = "Noto Music"
FAMILIES = (SANS, CONDENSED, MATH, SYMBOLS, MUSIC)

NS = ('xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"')
INKSCAPE_NS = ('xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" '
               'xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" '
               'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
               'xmlns:cc="http://creativecommons.org/ns#" xmlns:dc="http://purl.org/dc/elements/1.1/"')


def svg(body: str, *, w: str | None = "200", h: str | None = "200", vb: str | None = None,
        attrs: str = "", ns: str = "") -> str:
    """One SVG document: the root with its size (None leaves it out), viewBox and other attributes."""
    size = (f' width="{w}"' if w is not None else "") + (f' height="{h}"' if h is not None else "")
    box = f' viewBox="{vb}"' if vb else ""
    extra = f" {attrs}" if attrs else ""
    more = f" {ns}" if ns else ""
    return f'<svg {NS}{more}{size}{box}{extra}>\n{body.strip()}\n</svg>\n'


# ---------------------------------------------------------------------------------------------
# Pictures for <image>, drawn with Pillow, deterministic


def _png(mode: str = "RGB", size: tuple[int, int] = (48, 48), kind: str = "grid") -> bytes:
    from PIL import Image, ImageDraw

    w, h = size
    im = Image.new("RGBA", size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(im)
    if kind == "grid":
        for y in range(h):
            for x in range(w):
                im.putpixel((x, y), (int(255 * x / (w - 1)), int(255 * y / (h - 1)), 160, 255))
        for i in range(0, w, 12):
            draw.rectangle([i, 0, i + 5, 5], fill=(20, 20, 40, 255))
        draw.ellipse([w // 4, h // 4, 3 * w // 4, 3 * h // 4], fill=(250, 240, 40, 255))
    elif kind == "alpha":  # a disc fading out, on nothing
        cx, cy = (w - 1) / 2, (h - 1) / 2
        for y in range(h):
            for x in range(w):
                d = math.hypot(x - cx, y - cy) / (w / 2)
                a = max(0, min(255, int(255 * (1.1 - d))))
                im.putpixel((x, y), (200, 30, 90, a))
    elif kind == "pixels":  # a tiny pixel-art picture, for scaling
        colours = [(230, 57, 70, 255), (29, 53, 87, 255), (241, 250, 238, 255), (69, 123, 157, 255)]
        for y in range(h):
            for x in range(w):
                im.putpixel((x, y), colours[(x * 3 + y * 5 + (x * y) % 3) % 4])
    elif kind == "photo":  # something smooth with edges, like a photograph, for JPEG
        for y in range(h):
            for x in range(w):
                r = int(128 + 127 * math.sin(x / 9.0))
                g = int(128 + 127 * math.sin(y / 7.0 + 1))
                b = int(128 + 127 * math.cos((x + y) / 13.0))
                im.putpixel((x, y), (r, g, b, 255))
        draw.rectangle([w // 5, h // 5, w // 2, h // 2], fill=(250, 250, 250, 255))
        draw.ellipse([w // 2, h // 2, w - 4, h - 4], fill=(10, 60, 20, 255))
    if mode == "RGBA":
        out = im
    elif mode == "P":
        out = im.convert("RGB").quantize(colors=16, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    else:
        out = im.convert(mode) if mode != "RGB" else im.convert("RGB")
    buf = io.BytesIO()
    out.save(buf, "PNG")
    return buf.getvalue()


def _jpeg(size: tuple[int, int] = (64, 64), *, progressive: bool = False, grey: bool = False,
          orientation: int | None = None, cmyk: bool = False) -> bytes:
    from PIL import Image

    im = Image.open(io.BytesIO(_png("RGB", size, "photo"))).convert("RGB")
    if grey:
        im = im.convert("L")
    if cmyk:
        im = im.convert("CMYK")
    buf = io.BytesIO()
    extra = {}
    if orientation is not None:
        exif = Image.Exif()
        exif[0x0112] = orientation
        extra["exif"] = exif.tobytes()
    im.save(buf, "JPEG", quality=92, progressive=progressive, **extra)
    return buf.getvalue()


def data_uri(mime: str, data: bytes) -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


# ---------------------------------------------------------------------------------------------
# The corpus: each section a function of `add(feature, subfeature, text)`

Add = Callable[[str, str, str], None]

STAR = "M100,20 L123,80 L188,80 L135,118 L155,180 L100,142 L45,180 L65,118 L12,80 L77,80 Z"
BG = '<rect x="0" y="0" width="200" height="200" fill="#f4efe1"/>'


def structure(add: Add) -> None:
    f = "structure"
    # groups
    add(f, "g", svg('<g fill="seagreen"><rect x="20" y="20" width="70" height="70"/>'
                    '<g fill="tomato"><circle cx="140" cy="60" r="40"/></g>'
                    '<rect x="20" y="110" width="160" height="60" fill="navy"/></g>'))
    add(f, "g", svg('<g transform="translate(30,30)" stroke="black" stroke-width="4"><g transform="scale(1.5)">'
                    '<rect x="0" y="0" width="60" height="40" fill="gold"/></g>'
                    '<circle cx="100" cy="100" r="30" fill="orchid"/></g>'))
    add(f, "g", svg('<g><g><g><g fill="steelblue"><rect x="10" y="10" width="180" height="180"/></g></g></g></g>'
                    '<g/><g fill="white"><path d="M40 100 H160 V120 H40 Z"/></g>'))
    # use
    defs = ('<defs><g id="shape"><rect x="0" y="0" width="50" height="50"/>'
            '<circle cx="50" cy="50" r="20" fill="orange"/></g></defs>')
    add(f, "use", svg(defs + '<use xlink:href="#shape" x="20" y="20" fill="teal"/>'
                             '<use xlink:href="#shape" x="110" y="110" fill="crimson"/>'))
    add(f, "use", svg(defs + '<use href="#shape" x="30" y="100" fill="purple"/>'
                             '<use href="#shape" transform="rotate(20 100 100)" x="90" y="20"/>'))
    add(f, "use", svg('<circle id="c" cx="40" cy="40" r="25" fill="olive"/>'
                      '<use id="u1" xlink:href="#c" x="60" y="20"/><use xlink:href="#u1" x="0" y="90"/>'))
    add(f, "use", svg('<defs><rect id="r" width="60" height="60" style="fill:inherit;stroke:inherit"/></defs>'
                      '<use xlink:href="#r" x="20" y="20" fill="gold" stroke="black" stroke-width="6"/>'
                      '<use xlink:href="#r" x="110" y="110" fill="skyblue" stroke="navy" stroke-width="3"/>'))
    add(f, "use", svg('<defs><rect id="r" width="60" height="60" fill="green"/></defs>'
                      '<use xlink:href="#r" x="20" y="20" fill="red"/>'
                      '<use xlink:href="#r" x="100" y="100" style="fill:red" opacity="0.5"/>'))
    add(f, "use", svg('<use xlink:href="#later" x="10" y="10"/>'
                      '<defs><path id="later" d="M20 20 L100 20 L60 90 Z" fill="darkorange"/></defs>'
                      '<use xlink:href="#later" x="80" y="90" transform="scale(0.9)"/>'))
    add(f, "use", svg('<use xlink:href="#missing" x="10" y="10"/><rect x="50" y="50" width="100" height="100" fill="sienna"/>'))
    add(f, "use", svg('<g id="row"><rect x="10" y="10" width="30" height="30" fill="#345"/>'
                      '<rect x="50" y="10" width="30" height="30" fill="#567"/></g>'
                      '<use xlink:href="#row" y="50"/><use xlink:href="#row" y="100" x="80"/>'
                      '<use xlink:href="#row" transform="translate(100 150)"/>'))
    # symbol
    sym = ('<defs><symbol id="s" viewBox="0 0 10 10"{par}><circle cx="5" cy="5" r="4" fill="coral"/>'
           '<rect x="0" y="0" width="10" height="10" fill="none" stroke="black" stroke-width="0.5"/></symbol></defs>')
    add(f, "symbol", svg(sym.format(par="") + '<use xlink:href="#s" x="20" y="20" width="60" height="60"/>'
                                              '<use xlink:href="#s" x="100" y="40" width="80" height="120"/>'))
    add(f, "symbol", svg(sym.format(par=' preserveAspectRatio="xMinYMin meet"')
                         + '<use xlink:href="#s" x="20" y="20" width="160" height="60"/>'
                           '<use xlink:href="#s" x="20" y="100" width="60" height="90"/>'))
    add(f, "symbol", svg(sym.format(par=' preserveAspectRatio="xMaxYMax slice"')
                         + '<use xlink:href="#s" x="20" y="20" width="160" height="60"/>'
                           '<use xlink:href="#s" x="20" y="100" width="60" height="90"/>'))
    add(f, "symbol", svg(sym.format(par=' preserveAspectRatio="none"')
                         + '<use xlink:href="#s" x="20" y="20" width="160" height="60"/>'
                           '<use xlink:href="#s" x="20" y="100" width="60" height="90"/>'))
    add(f, "symbol", svg('<symbol id="s2"><rect width="50" height="50" fill="seagreen"/></symbol>'
                         '<use xlink:href="#s2" x="30" y="30"/><use xlink:href="#s2" x="120" y="120"/>'))
    # nested svg
    inner = ('<rect x="0" y="0" width="100" height="50" fill="#8ecae6"/><circle cx="50" cy="25" r="22" fill="#fb8500"/>'
             '<rect x="0" y="0" width="100" height="50" fill="none" stroke="#023047" stroke-width="3"/>')
    for par in ["none", "xMinYMin meet", "xMidYMid meet", "xMaxYMax meet", "xMinYMin slice", "xMidYMid slice",
                "xMaxYMax slice", "xMidYMin meet", "xMinYMax slice"]:
        add(f, "nestedSvg", svg('<rect x="20" y="20" width="160" height="160" fill="#eee"/>'
                                f'<svg x="20" y="20" width="160" height="160" viewBox="0 0 100 50" '
                                f'preserveAspectRatio="{par}">{inner}</svg>'))
    add(f, "nestedSvg", svg('<svg x="40" y="40" width="120" height="120" viewBox="0 0 100 100" overflow="visible">'
                            '<circle cx="50" cy="50" r="70" fill="plum"/></svg>'
                            '<svg x="40" y="40" width="60" height="60"><circle cx="30" cy="30" r="45" fill="indigo"/></svg>'))
    add(f, "nestedSvg", svg('<svg x="10%" y="10%" width="50%" height="50%"><rect width="100%" height="100%" fill="teal"/>'
                            '<svg x="50%" y="50%" width="50%" height="50%"><rect width="100%" height="100%" fill="gold"/>'
                            '</svg></svg>'))
    # the root's size and viewBox
    pic = ('<rect x="0" y="0" width="100" height="100" fill="#264653"/><circle cx="50" cy="50" r="35" fill="#e9c46a"/>'
           '<path d="M20 80 L50 20 L80 80 Z" fill="#e76f51"/>')
    add(f, "rootViewBox", svg(pic, w=None, h=None, vb="0 0 100 100"))
    add(f, "rootViewBox", svg('<g transform="translate(-50 -50)">' + pic + '</g>', w=None, h=None, vb="-50 -50 100 100"))
    add(f, "rootViewBox", svg(pic, w="50mm", h="50mm", vb="0 0 100 100"))
    add(f, "rootViewBox", svg(pic, w="2in", h="2in", vb="0 0 100 100"))
    add(f, "rootViewBox", svg(pic, w="144pt", h="144pt", vb="0 0 100 100"))
    add(f, "rootViewBox", svg(pic, w="5cm", h="5cm", vb="0 0 100 100"))
    add(f, "rootViewBox", svg(pic, w="12pc", h="12pc", vb="0 0 100 100"))
    add(f, "rootViewBox", svg(pic, w="100", h="100"))
    add(f, "rootViewBox", svg('<rect x="0" y="0" width="26.458" height="26.458" fill="#2a9d8f"/>'
                              '<circle cx="13.229" cy="13.229" r="8" fill="#f4a261"/>', w="26.458mm", h="26.458mm",
                              vb="0 0 26.458 26.458"))
    wide = ('<rect x="0" y="0" width="200" height="100" fill="#457b9d"/><circle cx="100" cy="50" r="45" fill="#f1faee"/>'
            '<rect x="0" y="0" width="30" height="30" fill="#e63946"/>')
    for par in ["xMidYMid meet", "xMinYMin meet", "xMaxYMax meet", "none", "xMidYMid slice", "xMinYMax slice"]:
        add(f, "rootAspect", svg(wide, vb="0 0 200 100", attrs=f'preserveAspectRatio="{par}"'))
    # switch
    add(f, "switch", svg('<switch><rect systemLanguage="xx" x="20" y="20" width="160" height="160" fill="red"/>'
                         '<rect x="20" y="20" width="160" height="160" fill="green"/>'
                         '<rect x="20" y="20" width="160" height="160" fill="blue"/></switch>'))
    add(f, "switch", svg('<switch><g requiredExtensions="http://example.org/nothing"><circle cx="100" cy="100" r="80" fill="red"/></g>'
                         '<g><circle cx="100" cy="100" r="80" fill="darkgreen"/></g></switch>'))
    add(f, "switch", svg('<switch><circle systemLanguage="en" cx="100" cy="100" r="80" fill="navy"/>'
                         '<circle cx="100" cy="100" r="80" fill="red"/></switch>'))
    add(f, "switch", svg('<switch><linearGradient id="lg"/><rect x="30" y="30" width="140" height="140" fill="olive"/>'
                         '<rect x="30" y="30" width="140" height="140" fill="red"/></switch>'))
    # defs
    add(f, "defs", svg('<defs><rect x="0" y="0" width="200" height="200" fill="red"/><circle id="dot" r="30" fill="purple"/>'
                       '</defs><use xlink:href="#dot" x="100" y="100"/>'))
    add(f, "defs", svg('<rect x="20" y="20" width="160" height="160" fill="url(#g)"/>'
                       '<defs><linearGradient id="g"><stop offset="0" stop-color="gold"/><stop offset="1" stop-color="teal"/>'
                       '</linearGradient></defs>'))
    add(f, "defs", svg('<defs><defs><g id="deep"><rect width="80" height="80" fill="maroon"/></g></defs></defs>'
                       '<use xlink:href="#deep" x="60" y="60"/>'))
    # style sheets
    def css(rules: str, body: str, cdata: bool = False) -> str:
        inside = f"<![CDATA[{rules}]]>" if cdata else rules
        return svg(f'<style>{inside}</style>{body}')

    body = ('<rect id="a" class="one" x="20" y="20" width="70" height="70"/>'
            '<rect id="b" class="two" x="110" y="20" width="70" height="70"/>'
            '<circle id="c" class="one two" cx="55" cy="145" r="35"/>'
            '<g class="grp"><circle id="d" cx="145" cy="145" r="35"/></g>')
    for rules in ["rect { fill: seagreen }",
                  ".one { fill: orange } .two { fill: navy }",
                  "#a { fill: red } #b { fill: blue } #c { fill: green } #d { fill: purple }",
                  "[class=two] { fill: crimson } [id] { stroke: black; stroke-width: 4 }",
                  ".grp circle { fill: gold } g > circle { stroke: brown; stroke-width: 6 }",
                  "* { fill: teal }",
                  "rect:first-child { fill: hotpink } circle { fill: slateblue }",
                  "#a { fill: green } .one { fill: red } rect { fill: red }",
                  ".one { fill: red } .one { fill: darkgreen }",
                  "rect, circle { fill: tomato; stroke: black; stroke-width: 2 }",
                  "/* a comment */ .one /* inside */ { fill: olive /* here too */ }",
                  ".one.two { fill: chocolate } .one { fill: khaki }",
                  "circle:not(.one) { fill: lime } rect:nth-child(2) { fill: magenta }",
                  "rect[class^=t] { fill: peru } rect[id$=a] { fill: navy }",
                  "@media screen { rect { fill: forestgreen } } circle { fill: black }",
                  ":root rect { fill: goldenrod }"]:
        add(f, "styleSheet", css(rules, body))
    add(f, "styleSheet", css("rect { fill: red !important } #x { fill: blue }",
                             '<rect id="x" x="20" y="20" width="160" height="70" style="fill: blue"/>'
                             '<rect x="20" y="110" width="160" height="70" fill="blue"/>'))
    add(f, "styleSheet", css("rect { fill: green }", '<rect x="20" y="20" width="160" height="70" fill="red"/>'
                                                     '<rect x="20" y="110" width="160" height="70" style="fill: navy"/>'))
    add(f, "styleSheet", css("circle { fill: purple; stroke: orange; stroke-width: 8 }",
                             '<circle cx="100" cy="100" r="70"/>', cdata=True))
    add(f, "styleSheet", svg('<style>rect { fill: teal }</style><style>rect { stroke: black; stroke-width: 10 }</style>'
                             '<rect x="30" y="30" width="140" height="140"/>'))
    add(f, "styleSheet", svg('<style type="text/css">.a { fill: #c1121f } .b { fill: #669bbc; opacity: 0.6 }</style>'
                             '<rect class="a" x="20" y="20" width="110" height="110"/>'
                             '<rect class="b" x="70" y="70" width="110" height="110"/>'))
    # style="" attributes
    for style in ["fill: seagreen; stroke: black; stroke-width: 6",
                  "fill:/* comment */seagreen;/* another */stroke:black;stroke-width:6",
                  "  fill :  seagreen ;  stroke : black ;stroke-width:6;;  ",
                  "fill: seagreen; nonsense-property: 12; stroke: black; stroke-width: 6",
                  "fill: seagreen; stroke: black; stroke-width: 6 !important",
                  "FILL: seagreen; Stroke: black; stroke-WIDTH: 6",
                  "fill: seagreen; stroke: black; stroke-width: 6; fill: red"]:
        add(f, "styleAttr", svg(f'<rect x="30" y="30" width="140" height="140" fill="red" style="{style}"/>'))
    # transforms
    shape = '<rect x="60" y="60" width="80" height="50" fill="#6a4c93"/><circle cx="60" cy="60" r="6" fill="#ffca3a"/>'
    for t in ["translate(30)", "translate(30,-20)", "translate(30 -20)", "scale(1.5)", "scale(1.5, 0.6)",
              "rotate(30)", "rotate(45 100 85)", "skewX(25)", "skewY(-20)", "matrix(0.8 0.3 -0.3 0.8 40 -10)",
              "translate(100 100) rotate(-30) scale(0.8 1.2) translate(-100 -100)",
              "rotate(10),translate(10,0)  ,scale(1.1)", "matrix(1,0,0,1,0,0)"]:
        add(f, "transform", svg(f'<rect x="60" y="60" width="80" height="50" fill="none" stroke="#bbb"/>'
                                f'<g transform="{t}">{shape}</g>'))
    for origin, extra in [("center", ' style="transform-box: fill-box"'), ("100px 85px", ""), ("0 0", ""),
                          ("50% 50%", ' style="transform-box: fill-box"'), ("right bottom", ' style="transform-box: fill-box"')]:
        add(f, "transformOrigin", svg(f'<rect x="60" y="60" width="80" height="50" fill="none" stroke="#bbb"/>'
                                      f'<rect x="60" y="60" width="80" height="50" fill="#1982c4" '
                                      f'transform="rotate(30)" transform-origin="{origin}"{extra}/>'))
    add(f, "transformCss", svg('<rect x="60" y="60" width="80" height="50" fill="#8ac926" '
                               'style="transform: rotate(20deg) translate(10px, 5px)"/>'))
    add(f, "transformCss", svg('<style>.t { transform: scale(0.5); }</style><g class="t">' + pic + '</g>'
                               '<g transform="translate(100 100)">' + pic + '</g>'))
    # lengths with units
    for unit, value in [("mm", "10mm"), ("cm", "1.2cm"), ("in", "0.5in"), ("pt", "36pt"), ("pc", "3pc"),
                        ("px", "40px"), ("em", "2em"), ("ex", "4ex"), ("percent", "25%")]:
        add(f, f"units{unit.capitalize()}", svg(f'<g font-size="20" font-family="{SANS}"><rect x="{value}" y="{value}" '
                                                f'width="{value}" height="{value}" fill="#ff595e"/>'
                                                f'<circle cx="150" cy="150" r="{value}" fill="none" stroke="#1982c4" '
                                                f'stroke-width="2mm"/></g>'))
    add(f, "unitsPercent", svg('<rect x="10%" y="20%" width="80%" height="30%" fill="#3a86ff"/>'
                               '<circle cx="50%" cy="75%" r="10%" fill="#ff006e"/>', vb="0 0 200 200"))
    # display and visibility
    add(f, "display", svg('<g display="none"><rect width="200" height="200" fill="red"/></g>'
                          '<rect x="40" y="40" width="120" height="120" fill="green"/>'
                          '<circle cx="100" cy="100" r="40" fill="red" style="display:none"/>'))
    add(f, "visibility", svg('<g visibility="hidden"><rect x="20" y="20" width="160" height="160" fill="red"/>'
                             '<circle cx="100" cy="100" r="50" fill="green" visibility="visible"/></g>'))
    add(f, "visibility", svg('<rect x="20" y="20" width="160" height="160" fill="red" visibility="collapse"/>'
                             '<rect x="60" y="60" width="80" height="80" fill="blue"/>'))
    add(f, "xmlSyntax", '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
                        '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n'
                        '<!-- a comment before the root -->\n' + svg('<rect x="20" y="20" width="160" height="160" fill="#0a9396"/>'))
    add(f, "xmlSyntax", '<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY c "#ae2012">]>\n'
                        + svg('<rect x="20" y="20" width="160" height="160" fill="&c;"/>'))
    add(f, "xmlSyntax", svg('<rect x="20" y="20" width="160" height="160" fill="#005f73"/><!-- a comment -->'
                            '<circle cx="100" cy="100" r="50" fill="#ee9b00"><title>A title</title><desc>d</desc></circle>'
                            '<unknown-element><rect width="200" height="200" fill="red"/></unknown-element>'))


def shapes(add: Add) -> None:
    f = "shapes"
    add(f, "rect", svg('<rect x="20" y="20" width="160" height="160" fill="#2a9d8f"/>'))
    add(f, "rect", svg('<rect x="20" y="20" width="160" height="120" rx="30" fill="#e76f51"/>'))
    add(f, "rect", svg('<rect x="20" y="20" width="160" height="120" ry="30" fill="#e76f51"/>'))
    add(f, "rect", svg('<rect x="20" y="20" width="160" height="120" rx="50" ry="20" fill="#264653"/>'))
    add(f, "rect", svg('<rect x="20" y="20" width="160" height="120" rx="200" ry="10" fill="#f4a261"/>'))
    add(f, "rect", svg('<rect x="20" y="20" width="160" height="160" rx="10%" fill="#e9c46a" stroke="#264653" stroke-width="8"/>'))
    add(f, "rect", svg('<rect x="20" y="20" width="0" height="160" fill="red" stroke="red"/>'
                       '<rect x="20" y="20" width="160" height="160" fill="none" stroke="green" stroke-width="4"/>'))
    add(f, "rect", svg('<rect x="-20" y="-20" width="100" height="100" fill="#8338ec"/>'
                       '<rect x="150" y="150" width="100" height="100" fill="#3a86ff"/>'))
    add(f, "circle", svg('<circle cx="100" cy="100" r="80" fill="#ffbe0b"/>'))
    add(f, "circle", svg('<circle cx="100" cy="100" r="70" fill="none" stroke="#fb5607" stroke-width="20"/>'))
    add(f, "circle", svg('<circle cx="100" cy="100" r="0" fill="red" stroke="red"/><circle cx="50%" cy="50%" r="25%" fill="#ff006e"/>'))
    add(f, "circle", svg('<circle r="60" fill="#3a0ca3"/><circle cx="200" cy="200" r="60" fill="#4361ee"/>'))
    add(f, "ellipse", svg('<ellipse cx="100" cy="100" rx="90" ry="40" fill="#4cc9f0"/>'))
    add(f, "ellipse", svg('<ellipse cx="100" cy="100" rx="30" ry="90" fill="none" stroke="#7209b7" stroke-width="10"/>'
                          '<ellipse cx="100" cy="100" rx="90" ry="30" fill="#f72585" fill-opacity="0.6"/>'))
    add(f, "ellipse", svg('<ellipse cx="100" cy="100" rx="0" ry="50" fill="red" stroke="red"/>'
                          '<ellipse cx="100" cy="100" rx="60" ry="60" fill="#06d6a0"/>'))
    add(f, "line", svg('<line x1="20" y1="20" x2="180" y2="180" stroke="#118ab2" stroke-width="12"/>'
                       '<line x1="20" y1="180" x2="180" y2="20" stroke="#ef476f" stroke-width="4"/>'))
    add(f, "line", svg('<line x1="20" y1="100" x2="180" y2="100" fill="red"/>'
                       '<line x1="100" y1="20" x2="100" y2="180" stroke="#073b4c" stroke-width="20" stroke-linecap="round"/>'))
    add(f, "line", svg('<line x2="200" y2="200" stroke="#ffd166" stroke-width="30"/>'))
    add(f, "polyline", svg('<polyline points="20,180 60,40 100,140 140,40 180,180" fill="none" stroke="#e63946" stroke-width="8"/>'))
    add(f, "polyline", svg('<polyline points="20 180 60 40 100 140 140 40 180 180 190" fill="#a8dadc" stroke="#1d3557" stroke-width="4"/>'))
    add(f, "polyline", svg('<polyline points="20,20,180,20,180,180,20,180" fill="#457b9d"/>'))
    add(f, "polyline", svg('<polyline points="  20 , 100\n 100,20 180 , 100 100-180.5" fill="none" stroke="black" stroke-width="5"/>'))
    add(f, "polygon", svg(f'<polygon points="{STAR[1:-2].replace(" L", " ")}" fill="#ffb703" stroke="#fb8500" stroke-width="4"/>'))
    add(f, "polygon", svg(f'<polygon points="{STAR[1:-2].replace(" L", " ")}" fill="#023047" fill-rule="evenodd"/>'))
    add(f, "polygon", svg('<polygon points="100,10 190,190 10,190" fill="#219ebc"/><polygon points="100,60" fill="red" stroke="red"/>'))
    paths = [
        "M20 20 L180 20 L100 180 Z",
        "M20 20 H180 V180 H20 Z M60 60 H140 V140 H60 Z",
        "m20 20 h160 v160 h-160 z m40 40 v80 h80 v-80 z",
        "M20 180 C20 20 180 20 180 180",
        "M20 100 C40 20 80 20 100 100 S160 180 180 100",
        "M20 100 c20 -80 60 -80 80 0 s60 80 80 0",
        "M20 100 S60 20 100 100",
        "M20 180 Q100 0 180 180",
        "M20 100 Q60 20 100 100 T180 100",
        "m20 100 q40 -80 80 0 t80 0",
        "M20 100 T100 30 T180 100",
        "M20 20 L180 20 180 180 20 180z",
        "M20 20 100 60 180 20 140 100 180 180 100 140 20 180 60 100z",
        "m20 20 160 0 0 160 -160 0z",
        "M20,20L180,20L180,180L20,180Z",
        "M20-20.5.5 100 180 180ZM20 180L180 20",
        "M2e1 2E1 L1.8e2 20 L 1e2 1.8e+2 z",
        "M10 100 A45 45 0 0 1 190 100",
        "M10 100 A90 45 0 1 0 190 100",
        "M40 100 A60 40 30 0 0 160 100 A60 40 30 1 1 40 100",
        "M50 150 a80 50 0 1 1 100 0",
        "M50 150 a80 50 0 0 0 100 0",
        "M20 100 a10 10 0 1020 20 a10 10 0 0120-20 a10,10,0,1,1,20,20",
        "M40 100 A5 5 0 0 1 160 100",
        "M40 100 A0 0 0 0 1 160 100 L100 180 Z",
        "M20 20 L100 100 Z m40 0 L180 20 L180 100 Z",
        "M20 20 L180 20 L180 180 Z M20 40 L20 180 L160 180 Z",
        "\n  M 20 20\n  L 180 20\n\t L 100 180\n  Z  ",
        "M20 20 L180 20 L180 180 L20 180 Z L100 100 Q 50 50 20 20",
        "M20 20 L180 180 L20 180 X L180 20",
        "M20 100 l40 -60 40 60 40 -60 40 60",
        "M100 20 V180 M20 100 H180 M20 20 L180 180",
        "M 100 100 m -75 0 a 75 75 0 1 0 150 0 a 75 75 0 1 0 -150 0",
    ]
    for i, d in enumerate(paths):
        closed = "Z" in d.upper() and i not in (25,)
        paint = ('fill="#8ecae6" stroke="#023047" stroke-width="4"' if closed or "A" in d.upper()
                 else 'fill="none" stroke="#023047" stroke-width="6"')
        add(f, "path", svg(f'<path d="{d}" {paint}/>'))


def painting(add: Add) -> None:
    f = "painting"
    nested = "M20 20 H180 V180 H20 Z M50 50 H150 V150 H50 Z M80 80 H120 V120 H80 Z"
    rev = "M20 20 H180 V180 H20 Z M50 50 V150 H150 V50 Z"
    for d in (STAR, nested, rev):
        for rule in ("nonzero", "evenodd"):
            add(f, "fillRule", svg(f'<path d="{d}" fill="#6d597a" fill-rule="{rule}"/>'))
    add(f, "fillRule", svg(f'<path d="{STAR}" fill="#b56576" style="fill-rule: evenodd"/>'
                           f'<g fill-rule="evenodd"><path d="{nested}" transform="scale(0.5)" fill="#355070"/></g>'))
    zig = "M30 160 L70 40 L110 160 L150 40"
    for join in ["miter", "round", "bevel", "miter-clip", "arcs"]:
        add(f, "linejoin", svg(f'<path d="{zig}" fill="none" stroke="#e56b6f" stroke-width="24" stroke-linejoin="{join}"/>'
                               f'<path d="{zig}" fill="none" stroke="black" stroke-width="1"/>'))
    for cap in ["butt", "round", "square"]:
        add(f, "linecap", svg(f'<path d="M40 50 H160 M40 100 L160 150" fill="none" stroke="#355070" stroke-width="30" '
                              f'stroke-linecap="{cap}"/><path d="M40 50 H160 M40 100 L160 150" stroke="white" stroke-width="1"/>'))
    for limit in ["1", "2", "4", "10"]:
        add(f, "miterlimit", svg(f'<path d="M20 160 L100 40 L110 160 M130 160 L150 60 L180 160" fill="none" stroke="#6d597a" '
                                 f'stroke-width="14" stroke-miterlimit="{limit}"/>'))
    for dash, offset, extra in [("20 10", "0", ""), ("20 10 5", "0", ""), ("20,10", "15", ""), ("30 10", "-12", ""),
                                ("5%, 2%", "0", ""), ("0 20", "0", 'stroke-linecap="round"'),
                                ("40 10 10 10", "0", 'stroke-linecap="square"'), ("none", "0", ""),
                                ("5mm 2mm", "1mm", ""), ("20 -5", "0", ""), ("0 0", "0", ""), ("10 5", "0", 'pathLength="20"')]:
        add(f, "dasharray", svg(f'<g fill="none" stroke="#2b2d42" stroke-width="8" stroke-dasharray="{dash}" '
                                f'stroke-dashoffset="{offset}" {extra}><path d="M20 30 H180"/>'
                                f'<circle cx="60" cy="120" r="40"/><rect x="120" y="80" width="60" height="80"/>'
                                f'<path d="M20 185 Q100 140 180 185"/></g>'))
    mk = ('<defs><marker id="m" markerWidth="10" markerHeight="10" refX="5" refY="5" markerUnits="userSpaceOnUse" '
          'overflow="visible"><circle cx="5" cy="5" r="14" fill="#ffb703"/></marker></defs>')
    for order in ["normal", "stroke", "stroke markers", "markers stroke fill", "fill markers"]:
        add(f, "paintOrder", svg(mk + f'<path d="M40 60 L160 60 L100 170 Z" fill="#8ecae6" stroke="#023047" stroke-width="20" '
                                      f'paint-order="{order}" marker-start="url(#m)" marker-mid="url(#m)"/>'
                                      f'<text x="100" y="40" font-family="{SANS}" font-size="30" text-anchor="middle" '
                                      f'fill="#fb8500" stroke="#023047" stroke-width="6" paint-order="{order}">Ab</text>'))
    add(f, "vectorEffect", svg('<g transform="scale(4 1)"><rect x="5" y="20" width="40" height="60" fill="none" stroke="#ef476f" '
                               'stroke-width="4" vector-effect="non-scaling-stroke"/></g>'
                               '<g transform="scale(4 1)"><rect x="5" y="110" width="40" height="60" fill="none" stroke="#118ab2" '
                               'stroke-width="4"/></g>'))
    add(f, "vectorEffect", svg('<g transform="skewX(30) scale(0.5)"><circle cx="150" cy="200" r="100" fill="none" stroke="black" '
                               'stroke-width="6" vector-effect="non-scaling-stroke"/></g>'))
    two = ('<rect x="20" y="20" width="110" height="110" fill="#e63946" stroke="#1d3557" stroke-width="16"{a}/>'
           '<circle cx="120" cy="120" r="60" fill="#457b9d" stroke="#1d3557" stroke-width="16"{b}/>')
    for a, b in [(' opacity="0.5"', ' opacity="0.5"'), (' fill-opacity="0.5"', ' stroke-opacity="0.3"'),
                 (' fill-opacity="0.5" stroke-opacity="0.5"', ' opacity="0.6" fill-opacity="0.5"'),
                 (' opacity="50%"', ' fill-opacity="25%"'), (' opacity="1.5"', ' opacity="-1"'),
                 (' style="opacity:.4"', ' style="fill-opacity:.4; stroke-opacity: .8"')]:
        add(f, "opacity", svg(two.format(a=a, b=b)))
    add(f, "opacity", svg('<g opacity="0.5">' + two.format(a="", b="") + '</g>'))
    add(f, "opacity", svg('<g opacity="0.7"><g opacity="0.7">' + two.format(a="", b=' opacity="0.7"') + '</g></g>'))
    colours = ["green", "GREEN", "GrEeN", "#0a0", "#00AA00", "#0a08", "#00aa0080", "rgb(0,170,0)", "rgb(0%, 66.7%, 0%)",
               "rgb(0.5, 170.4, 0.2)", "rgb(0 170 0)", "rgb(0 170 0 / 50%)", "rgba(0,170,0,0.5)", "rgba(0, 170, 0, 50%)",
               "hsl(120, 100%, 33%)", "hsl(120deg 100% 33%)", "hsla(120, 100%, 33%, 0.5)", "hsl(480, 100%, 33%)",
               "hsl(-240, 100%, 33%)", "rgb(300, -20, 0)", "rebeccapurple", "transparent", "  green  ", "RGB(0, 170, 0)",
               "#0A0", "none", "not-a-colour", "#12345", "url(#nothing) olive", "url(#nothing)"]
    for colour in colours:
        add(f, "color", svg(f'<rect x="20" y="20" width="160" height="160" fill="{colour}" stroke="#222" stroke-width="4"/>'))
    for colour in ["darkgreen", "#ab0", "rgba(0,0,255,.5)", "hsl(30,90%,50%)"]:
        add(f, "colorStyle", svg(f'<rect x="20" y="20" width="160" height="160" style="fill: {colour}; stroke: black"/>'))
    add(f, "currentColor", svg('<g color="teal"><rect x="20" y="20" width="160" height="70" fill="currentColor"/>'
                               '<circle cx="100" cy="140" r="40" fill="none" stroke="currentColor" stroke-width="10" color="orange"/></g>'))
    add(f, "currentColor", svg('<g style="color: crimson"><g><rect x="20" y="20" width="160" height="160" fill="currentcolor" '
                               'stroke="CurrentColor" stroke-width="20" style="stroke: currentColor; color: navy"/></g></g>'))
    add(f, "currentColor", svg('<rect x="20" y="20" width="160" height="160" fill="currentColor"/>'))
    add(f, "currentColor", svg('<defs><linearGradient id="g" color="purple"><stop offset="0" stop-color="currentColor"/>'
                               '<stop offset="1" stop-color="gold"/></linearGradient></defs>'
                               '<rect x="20" y="20" width="160" height="160" fill="url(#g)" color="green"/>'))
    add(f, "inherit", svg('<g fill="olive" stroke="maroon" stroke-width="8"><rect x="20" y="20" width="70" height="160" fill="inherit"/>'
                          '<rect x="110" y="20" width="70" height="160" style="fill: inherit; stroke: inherit"/></g>'))
    add(f, "inherit", svg('<g opacity="0.5"><rect x="20" y="20" width="160" height="160" fill="navy" opacity="inherit"/></g>'))
    add(f, "inherit", svg('<rect x="20" y="20" width="160" height="160" fill="inherit" stroke="inherit"/>'))
    for width in ["0", "1", "40", "5%", "3mm", "-5"]:
        add(f, "strokeWidth", svg(f'<rect x="40" y="40" width="120" height="120" fill="#cdb4db" stroke="#5e548e" stroke-width="{width}"/>'))
    add(f, "fillNone", svg('<rect x="20" y="20" width="160" height="160" fill="none" stroke="#5e548e" stroke-width="10"/>'
                           '<circle cx="100" cy="100" r="50" fill="#ffafcc" stroke="none"/>'))


def markers(add: Add) -> None:
    f = "markers"
    arrow = ('<marker id="a" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="6" markerHeight="6"{o}{u}>'
             '<path d="M0 0 L10 5 L0 10 z" fill="#d62828"/></marker>')
    dot = '<marker id="d" markerWidth="8" markerHeight="8" refX="4" refY="4"><circle cx="4" cy="4" r="3" fill="#003049"/></marker>'
    arrow_auto = arrow.format(o=' orient="auto"', u='')
    line = '<polyline points="30,170 70,50 120,140 170,40" fill="none" stroke="#f77f00" stroke-width="4" {m}/>'
    for o, u, m in [("", "", 'marker-end="url(#a)"'),
                    (' orient="auto"', "", 'marker-start="url(#a)" marker-mid="url(#a)" marker-end="url(#a)"'),
                    (' orient="auto-start-reverse"', "", 'marker-start="url(#a)" marker-end="url(#a)"'),
                    (' orient="45"', "", 'marker-mid="url(#a)"'),
                    (' orient="-90deg"', "", 'marker-end="url(#a)"'),
                    (' orient="auto"', ' markerUnits="userSpaceOnUse"', 'marker-start="url(#a)" marker-end="url(#a)"'),
                    (' orient="auto"', ' markerUnits="strokeWidth"', 'marker-mid="url(#a)" style="stroke-width: 8"'),
                    ("", "", 'marker-start="url(#d)" marker-mid="url(#d)" marker-end="url(#d)"'),
                    ("", "", 'style="marker: url(#d)"'),
                    (' orient="auto"', "", 'marker-end="url(#missing)" marker-start="url(#a)"')]:
        add(f, "marker", svg(f"<defs>{arrow.format(o=o, u=u)}{dot}</defs>" + line.format(m=m)))
    add(f, "marker", svg('<style>polyline { marker-start: url(#d); marker-end: url(#a) }</style>'
                         f"<defs>{arrow_auto}{dot}</defs>" + line.format(m="")))
    big = ('<marker id="b" markerWidth="20" markerHeight="20" refX="10" refY="10"{ov}>'
           '<rect x="0" y="0" width="30" height="30" fill="#fcbf49" stroke="#003049"/></marker>')
    for ov in ["", ' overflow="visible"']:
        add(f, "overflow", svg(f"<defs>{big.format(ov=ov)}</defs>"
                               '<path d="M40 40 L160 40 L160 160" fill="none" stroke="#264653" stroke-width="2" '
                               'marker-start="url(#b)" marker-mid="url(#b)" marker-end="url(#b)"/>'))
    vb = ('<marker id="v" viewBox="-10 -10 20 20" markerWidth="20" markerHeight="10" preserveAspectRatio="{p}" orient="auto">'
          '<circle r="9" fill="#2a9d8f"/><path d="M0 -10 V10" stroke="black"/></marker>')
    for p in ["xMidYMid meet", "none", "xMinYMin slice"]:
        add(f, "viewBox", svg(f"<defs>{vb.format(p=p)}</defs>"
                              '<path d="M30 100 H170" stroke="#264653" stroke-width="3" marker-start="url(#v)" marker-end="url(#v)"/>'))
    shapes_ = ['<path d="M40 40 C80 160 120 -20 160 120 S 40 180 40 100" fill="none" stroke="#6a040f" stroke-width="3" {m}/>',
               '<path d="M40 40 H160 V160 H40 Z" fill="#ffe8d6" stroke="#6a040f" stroke-width="3" {m}/>',
               '<polygon points="100,20 180,180 20,180" fill="none" stroke="#6a040f" stroke-width="3" {m}/>',
               '<line x1="30" y1="170" x2="170" y2="30" stroke="#6a040f" stroke-width="5" {m}/>',
               '<path d="M30 100 A50 50 0 0 1 130 100 A30 30 0 0 0 170 140 M40 170 L160 170" fill="none" stroke="#6a040f" stroke-width="3" {m}/>',
               '<path d="M40 100 L100 100 L100 100 L160 40" fill="none" stroke="#6a040f" stroke-width="3" {m}/>']
    for s in shapes_:
        add(f, "onShapes", svg(f"<defs>{arrow_auto}{dot}</defs>"
                               + s.format(m='marker-start="url(#d)" marker-mid="url(#a)" marker-end="url(#a)"')))
    add(f, "onShapes", svg(f"<defs>{dot}</defs>"
                           '<rect x="40" y="40" width="120" height="120" fill="none" stroke="black" marker-start="url(#d)"/>'
                           '<circle cx="100" cy="100" r="30" fill="none" stroke="black" marker-mid="url(#d)"/>'))


def paint_servers(add: Add) -> None:
    f = "paintServers"
    stops = '<stop offset="0" stop-color="#ff595e"/><stop offset="0.5" stop-color="#ffca3a"/><stop offset="1" stop-color="#1982c4"/>'

    def lin(attrs: str = "", body: str = stops, shape: str = "rect", more: str = "") -> str:
        target = {"rect": '<rect x="20" y="20" width="160" height="160" fill="url(#g)"/>',
                  "wide": '<rect x="10" y="60" width="180" height="80" fill="url(#g)"/>',
                  "stroke": '<circle cx="100" cy="100" r="65" fill="none" stroke="url(#g)" stroke-width="30"/>'}[shape]
        return svg(f'<defs><linearGradient id="g" {attrs}>{body}</linearGradient>{more}</defs>{target}')

    for attrs in ["", 'x1="0" y1="0" x2="0" y2="1"', 'x1="0" y1="0" x2="1" y2="1"', 'x1="100%" y1="0%" x2="0%" y2="0%"',
                  'x1="0.3" x2="0.6"', 'gradientUnits="userSpaceOnUse" x1="20" y1="0" x2="180" y2="0"',
                  'gradientUnits="userSpaceOnUse" x1="60" y1="60" x2="140" y2="140"',
                  'gradientTransform="rotate(45 0.5 0.5)"', 'gradientTransform="skewX(30)"',
                  'gradientUnits="userSpaceOnUse" x1="0" x2="200" gradientTransform="rotate(90 100 100)"']:
        add(f, "linearGradient", lin(attrs))
    add(f, "linearGradient", lin("", shape="wide"))
    add(f, "linearGradient", lin('x1="0" y1="0" x2="1" y2="1"', shape="wide"))
    add(f, "linearGradient", lin('gradientUnits="userSpaceOnUse" x1="30" x2="170"', shape="stroke"))
    for spread in ["pad", "reflect", "repeat"]:
        add(f, "spreadMethod", lin(f'x1="0.4" x2="0.6" spreadMethod="{spread}"'))
        add(f, "spreadMethod", svg('<defs><radialGradient id="g" r="0.2" spreadMethod="' + spread + '">' + stops
                                   + '</radialGradient></defs><rect x="20" y="20" width="160" height="160" fill="url(#g)"/>'))
    for body in ['<stop offset="0" stop-color="navy"/><stop offset="0.7" stop-color="gold"/><stop offset="0.3" stop-color="red"/>',
                 '<stop offset="20%" stop-color="navy"/><stop offset="80%" stop-color="gold"/>',
                 '<stop offset="0" stop-color="navy" stop-opacity="0"/><stop offset="1" stop-color="gold" stop-opacity="0.8"/>',
                 '<stop offset="0" style="stop-color: teal; stop-opacity: .5"/><stop offset="1" style="stop-color:coral"/>',
                 '<stop offset="0.5" stop-color="purple"/>',
                 '',
                 '<stop offset="0.5" stop-color="navy"/><stop offset="0.5" stop-color="gold"/>',
                 '<stop offset="-1" stop-color="navy"/><stop offset="2" stop-color="gold"/>',
                 ''.join(f'<stop offset="{i / 9:.3f}" stop-color="hsl({i * 40},80%,50%)"/>' for i in range(10)),
                 '<stop offset="0" stop-color="rgba(255,0,0,0.2)"/><stop offset="1" stop-color="#00f8"/>']:
        add(f, "stops", lin("", body=body))
    # href: stops and attributes from another gradient
    base = f'<linearGradient id="base" x1="0" y1="0" x2="0" y2="1">{stops}</linearGradient>'
    add(f, "href", lin('xlink:href="#base"', body="", more=base))
    add(f, "href", lin('href="#base" x2="1" y2="0"', body="", more=base))
    add(f, "href", lin('xlink:href="#base"', body='<stop offset="0" stop-color="black"/><stop offset="1" stop-color="white"/>', more=base))
    add(f, "href", lin('xlink:href="#mid"', body="", more=base + '<linearGradient id="mid" xlink:href="#base" spreadMethod="reflect" x2="0.3" y2="0.3"/>'))
    add(f, "href", svg(f'<defs>{base}<radialGradient id="g" xlink:href="#base" r="0.6"/></defs>'
                       '<rect x="20" y="20" width="160" height="160" fill="url(#g)"/>'))

    def rad(attrs: str = "", shape: str = '<rect x="20" y="20" width="160" height="160" fill="url(#g)"/>') -> str:
        return svg(f'<defs><radialGradient id="g" {attrs}>{stops}</radialGradient></defs>{shape}')

    for attrs in ["", 'r="0.3"', 'cx="0.3" cy="0.7"', 'fx="0.3" fy="0.3"', 'fx="0.5" fy="0"', 'fx="0.9" fy="0.5" r="0.4"',
                  'fr="0.2"', 'fr="0.3" fx="0.3" fy="0.3"', 'gradientUnits="userSpaceOnUse" cx="100" cy="100" r="60"',
                  'gradientUnits="userSpaceOnUse" cx="60" cy="60" r="100" fx="40" fy="40"',
                  'gradientTransform="scale(1 0.5)"', 'gradientTransform="rotate(30 0.5 0.5) scale(1.2 0.6)"']:
        add(f, "radialGradient", rad(attrs))
    add(f, "radialGradient", rad("", '<rect x="10" y="60" width="180" height="80" fill="url(#g)"/>'))
    add(f, "radialGradient", rad("", '<text x="100" y="130" font-family="Noto Sans" font-weight="bold" font-size="90" '
                                     'text-anchor="middle" fill="url(#g)">Qg</text>'))
    add(f, "radialGradient", rad('gradientUnits="userSpaceOnUse" cx="100" cy="100" r="80"',
                                 '<path d="M20 100 H180 M100 20 V180" stroke="url(#g)" stroke-width="24"/>'))
    # patterns
    tile = '<rect width="10" height="10" fill="#e9c46a"/><circle cx="10" cy="10" r="6" fill="#264653"/>'

    def pat(attrs: str, body: str = tile, shape: str = '<rect x="20" y="20" width="160" height="160" fill="url(#p)" stroke="black"/>',
            more: str = "") -> str:
        return svg(f'<defs><pattern id="p" {attrs}>{body}</pattern>{more}</defs>{shape}')

    for attrs, body in [('patternUnits="userSpaceOnUse" width="20" height="20"', tile),
                        ('patternUnits="userSpaceOnUse" x="7" y="3" width="20" height="20"', tile),
                        ('width="0.25" height="0.25"', tile),
                        ('width="0.25" height="0.25" patternContentUnits="objectBoundingBox"',
                         '<rect width="0.125" height="0.125" fill="#2a9d8f"/><circle cx=".2" cy=".2" r=".04" fill="#e76f51"/>'),
                        ('patternUnits="userSpaceOnUse" width="40" height="40" viewBox="0 0 10 10"', tile),
                        ('patternUnits="userSpaceOnUse" width="40" height="20" viewBox="0 0 10 10" preserveAspectRatio="xMinYMin meet"', tile),
                        ('patternUnits="userSpaceOnUse" width="40" height="20" viewBox="0 0 10 10" preserveAspectRatio="none"', tile),
                        ('patternUnits="userSpaceOnUse" width="20" height="20" patternTransform="rotate(30)"', tile),
                        ('patternUnits="userSpaceOnUse" width="20" height="20" patternTransform="skewX(20) scale(1.5)"', tile),
                        ('patternUnits="userSpaceOnUse" width="30" height="30" overflow="visible"', tile),
                        ('patternUnits="userSpaceOnUse" width="20" height="20"', '<rect width="20" height="20" fill="url(#lg)"/>')]:
        add(f, "pattern", pat(attrs, body, more='<linearGradient id="lg"><stop offset="0" stop-color="#f72585"/>'
                                                '<stop offset="1" stop-color="#4cc9f0"/></linearGradient>'))
    add(f, "pattern", pat('patternUnits="userSpaceOnUse" width="20" height="20"', tile,
                          '<circle cx="100" cy="100" r="60" fill="none" stroke="url(#p)" stroke-width="30"/>'))
    add(f, "pattern", pat('patternUnits="userSpaceOnUse" width="50" height="50"',
                          '<rect width="50" height="50" fill="url(#inner)"/><circle cx="25" cy="25" r="12" fill="#d00000"/>',
                          more='<pattern id="inner" patternUnits="userSpaceOnUse" width="10" height="10">'
                               '<rect width="5" height="5" fill="#03071e"/></pattern>'))
    add(f, "pattern", pat('xlink:href="#base"', "", more='<pattern id="base" patternUnits="userSpaceOnUse" width="25" height="25">'
                                                          + tile + '</pattern>'))
    add(f, "pattern", pat('xlink:href="#base" width="40" height="40"', "",
                          more='<pattern id="base" patternUnits="userSpaceOnUse" width="25" height="25">' + tile + '</pattern>'))
    add(f, "pattern", pat('patternUnits="userSpaceOnUse" width="20" height="20"', tile,
                          '<rect x="10" y="10" width="80" height="80" fill="url(#p)"/>'
                          '<rect x="110" y="110" width="80" height="80" fill="url(#p)" transform="rotate(10 150 150)"/>'))
    add(f, "pattern", pat('patternUnits="userSpaceOnUse" width="0" height="20"', tile,
                          '<rect x="20" y="20" width="160" height="160" fill="url(#p) green"/>'))
    add(f, "fallback", svg('<rect x="20" y="20" width="160" height="160" fill="url(#none) #588157" stroke="url(#none) #344e41" stroke-width="10"/>'))
    add(f, "fallback", svg('<defs><linearGradient id="g"><stop offset="0" stop-color="red"/><stop offset="1" stop-color="blue"/></linearGradient></defs>'
                           '<line x1="20" y1="100" x2="180" y2="100" stroke="url(#g) green" stroke-width="20"/>'
                           '<line x1="100" y1="20" x2="100" y2="180" stroke="url(#g)" stroke-width="20"/>'))


def masking(add: Add) -> None:
    f = "masking"
    scene = (f'<rect x="0" y="0" width="200" height="200" fill="#219ebc"/><path d="{STAR}" fill="#ffb703"/>'
             '<circle cx="40" cy="40" r="30" fill="#fb8500"/>')

    def clip(defs: str, attr: str = 'clip-path="url(#c)"', body: str = scene) -> str:
        return svg(f'<defs>{defs}</defs><g {attr}>{body}</g>')

    add(f, "clipPath", clip('<clipPath id="c"><circle cx="100" cy="100" r="70"/></clipPath>'))
    add(f, "clipPath", clip('<clipPath id="c" clipPathUnits="objectBoundingBox"><circle cx=".5" cy=".5" r=".35"/></clipPath>'))
    add(f, "clipPath", clip('<clipPath id="c" clipPathUnits="userSpaceOnUse"><rect x="30" y="30" width="60" height="140"/>'
                            '<rect x="110" y="30" width="60" height="140"/></clipPath>'))
    add(f, "clipPath", clip(f'<clipPath id="c"><path d="{STAR}" clip-rule="evenodd"/></clipPath>',
                            body='<rect width="200" height="200" fill="#023047"/>'))
    add(f, "clipPath", clip(f'<clipPath id="c"><path d="{STAR}" clip-rule="nonzero"/></clipPath>',
                            body='<rect width="200" height="200" fill="#023047"/>'))
    add(f, "clipPath", clip(f'<clipPath id="c" style="clip-rule: evenodd"><path d="{STAR}"/></clipPath>',
                            body='<rect width="200" height="200" fill="#023047"/>'))
    add(f, "clipPath", clip('<clipPath id="c" transform="rotate(30 100 100)"><rect x="50" y="50" width="100" height="100"/></clipPath>'))
    add(f, "clipPath", clip('<clipPath id="c2"><circle cx="100" cy="100" r="70"/></clipPath>'
                            '<clipPath id="c" clip-path="url(#c2)"><rect x="20" y="20" width="120" height="120"/></clipPath>'))
    add(f, "clipPath", clip('<clipPath id="c2"><rect x="0" y="90" width="200" height="110"/></clipPath>'
                            '<clipPath id="c"><circle cx="60" cy="100" r="50" clip-path="url(#c2)"/><circle cx="140" cy="100" r="50"/></clipPath>'))
    add(f, "clipPath", clip('<rect id="r" x="40" y="40" width="120" height="120"/><clipPath id="c"><use xlink:href="#r"/></clipPath>'))
    add(f, "clipPath", clip(f'<clipPath id="c"><text x="100" y="130" font-family="{SANS}" font-weight="bold" font-size="100" '
                            'text-anchor="middle">Ag</text></clipPath>'))
    add(f, "clipPath", clip('<clipPath id="c"><rect x="60" y="60" width="80" height="80" stroke="black" stroke-width="60"/></clipPath>'))
    add(f, "clipPath", svg(f'<defs><clipPath id="c"><circle cx="100" cy="100" r="60"/></clipPath></defs>'
                           f'<rect width="200" height="200" fill="#8ecae6"/>'
                           f'<path d="{STAR}" fill="#fb8500" clip-path="url(#c)" transform="rotate(20 100 100)"/>'))
    add(f, "clipPath", svg('<defs><clipPath id="c"><rect x="50" y="50" width="100" height="100"/></clipPath></defs>'
                           '<rect x="20" y="20" width="160" height="160" fill="#9b2226" clip-path="url(#missing)"/>'))
    add(f, "clipPath", clip('<clipPath id="c"><rect x="50" y="50" width="100" height="100" display="none"/>'
                            '<circle cx="100" cy="100" r="40"/><g><rect x="0" y="0" width="30" height="30"/></g></clipPath>'))
    add(f, "clipPath", clip("", attr='style="clip-path: circle(60px at 100px 100px)"'))
    add(f, "clipPath", clip("", attr='style="clip-path: inset(30px 20px 50px 40px round 15px)"'))
    add(f, "clipPath", clip("", attr='style="clip-path: polygon(50% 0, 100% 100%, 0 100%)"'))
    add(f, "clipPath", svg('<svg x="40" y="40" width="120" height="120" clip-path="url(#c)"><defs><clipPath id="c">'
                           '<circle cx="60" cy="60" r="50"/></clipPath></defs>' + scene + '</svg>'))

    def mask(defs: str, attr: str = 'mask="url(#m)"', body: str = scene) -> str:
        return svg(f'<defs>{defs}</defs><g {attr}>{body}</g>')

    grad = ('<linearGradient id="lg"><stop offset="0" stop-color="white"/><stop offset="1" stop-color="black"/></linearGradient>')
    add(f, "mask", mask('<mask id="m"><rect width="200" height="200" fill="white"/><circle cx="100" cy="100" r="50" fill="black"/></mask>'))
    add(f, "mask", mask(grad + '<mask id="m"><rect width="200" height="200" fill="url(#lg)"/></mask>'))
    add(f, "mask", mask('<mask id="m"><rect x="20" y="20" width="80" height="160" fill="#f00"/>'
                        '<rect x="100" y="20" width="80" height="160" fill="#0f0"/></mask>'))
    add(f, "mask", mask('<mask id="m" maskUnits="userSpaceOnUse" x="30" y="30" width="140" height="100">'
                        '<rect width="200" height="200" fill="white"/></mask>'))
    add(f, "mask", mask('<mask id="m" x="0.25" y="0.25" width="0.5" height="0.5"><rect width="200" height="200" fill="white"/></mask>'))
    add(f, "mask", mask('<mask id="m" maskContentUnits="objectBoundingBox"><circle cx=".5" cy=".5" r=".4" fill="white"/></mask>'))
    add(f, "mask", mask('<mask id="m" mask-type="alpha"><rect width="200" height="200" fill="black" fill-opacity="0.3"/>'
                        '<circle cx="100" cy="100" r="60" fill="#000"/></mask>'))
    add(f, "mask", mask('<mask id="m" style="mask-type: luminance"><rect width="200" height="200" fill="black" fill-opacity="0.3"/>'
                        '<circle cx="100" cy="100" r="60" fill="#fff"/></mask>'))
    add(f, "mask", mask('<mask id="m"><g opacity="0.5"><rect width="200" height="200" fill="white"/></g></mask>'))
    add(f, "mask", mask('<mask id="m2"><circle cx="100" cy="100" r="70" fill="white"/></mask>'
                        '<mask id="m"><rect width="200" height="100" fill="white" mask="url(#m2)"/></mask>'))
    add(f, "mask", mask('<mask id="m2"><rect x="0" y="0" width="120" height="200" fill="white"/></mask>'
                        '<mask id="m" mask="url(#m2)"><circle cx="100" cy="100" r="80" fill="white"/></mask>'))
    add(f, "mask", mask('<mask id="m" color-interpolation="linearRGB"><rect width="200" height="200" fill="#777"/></mask>'))
    add(f, "mask", mask('<mask id="m"><rect width="200" height="200" fill="#777"/></mask>'))
    add(f, "mask", mask('<clipPath id="c"><rect x="0" y="0" width="150" height="150"/></clipPath>'
                        '<mask id="m"><circle cx="100" cy="100" r="80" fill="white"/></mask>',
                        attr='mask="url(#m)" clip-path="url(#c)"'))
    add(f, "mask", mask(grad + '<mask id="m"><text x="100" y="140" font-family="' + SANS + '" font-weight="bold" font-size="110" '
                        'text-anchor="middle" fill="url(#lg)">M</text></mask>'))
    add(f, "mask", mask('<mask id="m"><image x="0" y="0" width="200" height="200" preserveAspectRatio="none" href="'
                        + data_uri("image/png", _png("RGB", (32, 32), "grid")) + '"/></mask>'))
    add(f, "mask", svg('<rect width="200" height="200" fill="#ccc"/><defs><mask id="m"><rect width="200" height="200" fill="white"/>'
                       '<circle cx="100" cy="100" r="60" fill="black"/></mask></defs>'
                       '<rect x="20" y="20" width="160" height="160" fill="#d00000" mask="url(#m)" transform="rotate(15 100 100)"/>'))


def blending(add: Add) -> None:
    f = "blending"
    modes = ["normal", "multiply", "screen", "overlay", "darken", "lighten", "color-dodge", "color-burn", "hard-light",
             "soft-light", "difference", "exclusion", "hue", "saturation", "color", "luminosity"]
    back = ('<defs><linearGradient id="bg" x2="0" y2="1"><stop offset="0" stop-color="#ffbe0b"/>'
            '<stop offset="0.5" stop-color="#3a86ff"/><stop offset="1" stop-color="#8338ec"/></linearGradient></defs>'
            '<rect x="10" y="10" width="180" height="180" fill="url(#bg)"/>')
    for mode in modes:
        add(f, "mixBlendMode", svg(back + f'<g style="mix-blend-mode: {mode}">'
                                          '<circle cx="75" cy="80" r="55" fill="#ff006e"/>'
                                          '<circle cx="125" cy="120" r="55" fill="rgb(40,200,120)" opacity="0.8"/></g>'))
    add(f, "isolation", svg(back + '<g style="isolation: isolate"><circle cx="75" cy="80" r="55" fill="#ff006e" style="mix-blend-mode: multiply"/>'
                                   '<circle cx="125" cy="120" r="55" fill="#06d6a0" style="mix-blend-mode: multiply"/></g>'))
    add(f, "isolation", svg(back + '<g><circle cx="75" cy="80" r="55" fill="#ff006e" style="mix-blend-mode: difference"/>'
                                   '<circle cx="125" cy="120" r="55" fill="#06d6a0" style="mix-blend-mode: difference"/></g>'))
    add(f, "isolation", svg(back + '<g opacity="0.99"><circle cx="100" cy="100" r="70" fill="#ff006e" style="mix-blend-mode: screen"/></g>'))


def filters(add: Add) -> None:
    f = "filters"
    scene = (f'<rect x="40" y="40" width="120" height="120" fill="#ef476f"/><circle cx="100" cy="100" r="40" fill="#ffd166"/>'
             f'<text x="100" y="112" font-family="{SANS}" font-weight="bold" font-size="36" text-anchor="middle" fill="#073b4c">Fx</text>')

    def flt(prims: str, attrs: str = "", body: str = scene, target: str = "g") -> str:
        return svg(f'<defs><filter id="f" {attrs}>{prims}</filter></defs>'
                   f'<{target} filter="url(#f)">{body}</{target}>')

    for sd in ["0", "2", "5", "10 0", "0 6", "20"]:
        add(f, "feGaussianBlur", flt(f'<feGaussianBlur stdDeviation="{sd}"/>'))
    add(f, "feGaussianBlur", flt('<feGaussianBlur stdDeviation="4" edgeMode="wrap"/>'))
    add(f, "feGaussianBlur", flt('<feGaussianBlur in="SourceAlpha" stdDeviation="3"/>'))
    for dx, dy in [("10", "10"), ("-15", "5"), ("0", "0")]:
        add(f, "feOffset", flt(f'<feOffset dx="{dx}" dy="{dy}"/>'))
    add(f, "feOffset", flt('<feOffset in="SourceAlpha" dx="6" dy="6" result="o"/><feGaussianBlur in="o" stdDeviation="3" result="b"/>'
                           '<feMerge><feMergeNode in="b"/><feMergeNode in="SourceGraphic"/></feMerge>'))
    add(f, "feFlood", flt('<feFlood flood-color="#118ab2"/>'))
    add(f, "feFlood", flt('<feFlood flood-color="#118ab2" flood-opacity="0.4"/><feComposite in2="SourceGraphic" operator="over"/>'))
    add(f, "feFlood", flt('<feFlood flood-color="seagreen" x="20" y="20" width="80" height="80"/>', 'filterUnits="userSpaceOnUse" x="0" y="0" width="200" height="200"'))
    flood2 = '<feFlood flood-color="#06d6a0" result="fl"/>'
    for mode in ["normal", "multiply", "screen", "darken", "lighten", "overlay", "color-dodge", "difference", "hue", "luminosity"]:
        add(f, "feBlend", flt(flood2 + f'<feBlend in="SourceGraphic" in2="fl" mode="{mode}"/>'))
    half = ('<feFlood flood-color="#118ab2" x="0" y="0" width="100" height="200" result="fl"/>')
    for op in ["over", "in", "out", "atop", "xor", "lighter"]:
        add(f, "feComposite", flt(half + f'<feComposite in="SourceGraphic" in2="fl" operator="{op}"/>',
                                  'filterUnits="userSpaceOnUse" x="0" y="0" width="200" height="200"'))
    for k in ["0 1 0 0", "0 0.5 0.5 0", "0.5 0.5 0.5 0", "0 1 -1 0.2", "1 0 0 0"]:
        k1, k2, k3, k4 = k.split()
        add(f, "feComposite", flt(half + f'<feComposite in="SourceGraphic" in2="fl" operator="arithmetic" k1="{k1}" k2="{k2}" k3="{k3}" k4="{k4}"/>',
                                  'filterUnits="userSpaceOnUse" x="0" y="0" width="200" height="200"'))
    add(f, "feMerge", flt('<feFlood flood-color="#ccc" result="a"/><feOffset dx="15" dy="15" result="b"/>'
                          '<feMerge><feMergeNode in="a"/><feMergeNode in="b"/><feMergeNode in="SourceGraphic"/></feMerge>'))
    add(f, "feMerge", flt('<feMerge><feMergeNode/><feMergeNode in="SourceGraphic"/></feMerge>'))
    for t, v in [("matrix", "0.2 0.7 0.1 0 0  0.2 0.7 0.1 0 0  0.2 0.7 0.1 0 0  0 0 0 1 0"),
                 ("matrix", "0 0 1 0 0  1 0 0 0 0  0 1 0 0 0  0 0 0 0.6 0"),
                 ("saturate", "0"), ("saturate", "0.4"), ("saturate", "3"), ("hueRotate", "90"), ("hueRotate", "200"),
                 ("luminanceToAlpha", None), ("matrix", None)]:
        values = f' values="{v}"' if v is not None else ""
        add(f, "feColorMatrix", flt(f'<feColorMatrix type="{t}"{values}/>'))
    add(f, "feColorMatrix", flt('<feColorMatrix type="saturate" values="0" color-interpolation-filters="sRGB"/>'))
    for funcs in ['<feFuncR type="identity"/><feFuncG type="identity"/><feFuncB type="identity"/>',
                  '<feFuncR type="table" tableValues="1 0"/><feFuncG type="table" tableValues="1 0"/><feFuncB type="table" tableValues="1 0"/>',
                  '<feFuncR type="discrete" tableValues="0 0.5 1"/><feFuncG type="discrete" tableValues="0 1"/>',
                  '<feFuncR type="linear" slope="0.5" intercept="0.25"/><feFuncB type="linear" slope="2"/>',
                  '<feFuncG type="gamma" amplitude="2" exponent="3" offset="0.1"/>',
                  '<feFuncA type="table" tableValues="0 0.5"/>',
                  '<feFuncR type="table" tableValues=""/><feFuncG type="discrete" tableValues="0.2"/>']:
        add(f, "feComponentTransfer", flt(f'<feComponentTransfer>{funcs}</feComponentTransfer>'))
    add(f, "feComponentTransfer", flt('<feComponentTransfer color-interpolation-filters="sRGB"><feFuncR type="gamma" exponent="0.5"/>'
                                      '<feFuncG type="gamma" exponent="0.5"/></feComponentTransfer>'))
    for attrs in ['order="3" kernelMatrix="-1 -1 -1 -1 8 -1 -1 -1 -1"',
                  'order="3" kernelMatrix="1 1 1 1 1 1 1 1 1"',
                  'order="3" kernelMatrix="-2 -1 0 -1 1 1 0 1 2"',
                  'order="3" kernelMatrix="1 2 1 2 4 2 1 2 1" divisor="20" bias="0.1"',
                  'order="3 1" kernelMatrix="1 0 -1" targetX="0"',
                  'order="3" kernelMatrix="0 -1 0 -1 5 -1 0 -1 0" preserveAlpha="true"',
                  'order="5" kernelMatrix="' + " ".join(["1"] * 25) + '" edgeMode="none"']:
        add(f, "feConvolveMatrix", flt(f'<feConvolveMatrix {attrs}/>'))
    for op, r in [("erode", "3"), ("dilate", "3"), ("dilate", "6 1"), ("erode", "0")]:
        add(f, "feMorphology", flt(f'<feMorphology operator="{op}" radius="{r}"/>'))
    add(f, "feTile", flt('<feFlood flood-color="#ffd166" x="40" y="40" width="30" height="30" result="t"/>'
                         '<feOffset in="SourceGraphic" dx="0" dy="0" x="40" y="40" width="40" height="40" result="c"/>'
                         '<feTile in="c"/>', 'filterUnits="userSpaceOnUse" x="0" y="0" width="200" height="200" primitiveUnits="userSpaceOnUse"'))
    add(f, "feTile", flt('<feImage xlink:href="#tileshape" x="0" y="0" width="25" height="25" result="i"/><feTile in="i"/>',
                         'filterUnits="userSpaceOnUse" x="0" y="0" width="200" height="200" primitiveUnits="userSpaceOnUse"',
                         body='<rect x="20" y="20" width="160" height="160" fill="red"/>')
        .replace("<defs>", '<defs><circle id="tileshape" cx="12" cy="12" r="9" fill="#118ab2"/>'))
    for attrs in ['type="turbulence" baseFrequency="0.05"', 'type="fractalNoise" baseFrequency="0.03"',
                  'type="fractalNoise" baseFrequency="0.05 0.01" numOctaves="3" seed="4"',
                  'type="turbulence" baseFrequency="0.1" numOctaves="1" seed="1.5" stitchTiles="stitch"',
                  'type="fractalNoise" baseFrequency="0.02" numOctaves="4"', 'type="turbulence" baseFrequency="0"']:
        add(f, "feTurbulence", flt(f'<feTurbulence {attrs}/>', 'filterUnits="userSpaceOnUse" x="0" y="0" width="200" height="200"'))
    for scale, ch in [("20", 'xChannelSelector="R" yChannelSelector="G"'), ("-30", 'xChannelSelector="B" yChannelSelector="A"')]:
        add(f, "feDisplacementMap", flt(f'<feTurbulence type="turbulence" baseFrequency="0.05" numOctaves="2" result="t"/>'
                                        f'<feDisplacementMap in="SourceGraphic" in2="t" scale="{scale}" {ch}/>'))
    add(f, "feDisplacementMap", flt('<feImage xlink:href="#grad" result="m"/><feDisplacementMap in="SourceGraphic" in2="m" scale="40" '
                                    'xChannelSelector="R" yChannelSelector="G"/>',
                                    'filterUnits="userSpaceOnUse" x="0" y="0" width="200" height="200"')
        .replace("<defs>", '<defs><linearGradient id="lg"><stop offset="0" stop-color="black"/><stop offset="1" stop-color="white"/>'
                           '</linearGradient><rect id="grad" width="200" height="200" fill="url(#lg)"/>'))
    bump = ('<feGaussianBlur in="SourceAlpha" stdDeviation="4" result="b"/>')
    lights = {"distant": '<feDistantLight azimuth="225" elevation="45"/>',
              "point": '<fePointLight x="60" y="60" z="80"/>',
              "spot": '<feSpotLight x="20" y="20" z="120" pointsAtX="100" pointsAtY="100" pointsAtZ="0" specularExponent="4" limitingConeAngle="30"/>'}
    for name, light in lights.items():
        add(f, "feDiffuseLighting", flt(bump + f'<feDiffuseLighting in="b" surfaceScale="5" diffuseConstant="1" lighting-color="#ffe5b4">'
                                               f'{light}</feDiffuseLighting><feComposite in2="SourceAlpha" operator="in"/>',
                                        'filterUnits="userSpaceOnUse" x="0" y="0" width="200" height="200" primitiveUnits="userSpaceOnUse"'))
    add(f, "feDiffuseLighting", flt(bump + '<feDiffuseLighting in="b" surfaceScale="10" diffuseConstant="0.7">'
                                           '<feDistantLight azimuth="45" elevation="20"/></feDiffuseLighting>'))
    for name, light in lights.items():
        add(f, "feSpecularLighting", flt(bump + f'<feSpecularLighting in="b" surfaceScale="5" specularConstant="1" specularExponent="20" '
                                                f'lighting-color="white" result="s">{light}</feSpecularLighting>'
                                                '<feComposite in="s" in2="SourceAlpha" operator="in" result="sp"/>'
                                                '<feComposite in="SourceGraphic" in2="sp" operator="arithmetic" k1="0" k2="1" k3="1" k4="0"/>',
                                         'filterUnits="userSpaceOnUse" x="0" y="0" width="200" height="200" primitiveUnits="userSpaceOnUse"'))
    add(f, "feSpecularLighting", flt(bump + '<feSpecularLighting in="b" specularExponent="5" lighting-color="#88f">'
                                            '<fePointLight x="150" y="50" z="40"/></feSpecularLighting>'))
    for attrs in ['dx="6" dy="6" stdDeviation="3"', 'dx="-8" dy="4" stdDeviation="0" flood-color="#118ab2"',
                  'dx="0" dy="10" stdDeviation="6" flood-color="black" flood-opacity="0.5"', 'stdDeviation="8 1"']:
        add(f, "feDropShadow", flt(f'<feDropShadow {attrs}/>'))
    add(f, "feImage", flt('<feImage xlink:href="#pic"/>', 'filterUnits="userSpaceOnUse" x="0" y="0" width="200" height="200"',
                          body='<rect x="20" y="20" width="160" height="160" fill="red"/>')
        .replace("<defs>", '<defs><circle id="pic" cx="100" cy="100" r="60" fill="#06d6a0"/>'))
    png = data_uri("image/png", _png("RGB", (32, 32), "grid"))
    add(f, "feImage", flt(f'<feImage href="{png}" x="20" y="20" width="160" height="160" preserveAspectRatio="none"/>',
                          'filterUnits="userSpaceOnUse" x="0" y="0" width="200" height="200" primitiveUnits="userSpaceOnUse"'))
    add(f, "feImage", flt(f'<feImage href="{png}" result="i"/><feBlend in="SourceGraphic" in2="i" mode="multiply"/>'))
    # regions and units
    add(f, "region", flt('<feFlood flood-color="#118ab2"/>', 'x="0" y="0" width="1" height="1"'))
    add(f, "region", flt('<feFlood flood-color="#118ab2"/>', 'x="-0.25" y="-0.25" width="1.5" height="0.5"'))
    add(f, "region", flt('<feFlood flood-color="#118ab2"/>', 'filterUnits="userSpaceOnUse" x="10" y="30" width="100" height="150"'))
    add(f, "region", flt('<feGaussianBlur stdDeviation="0.03"/>', 'primitiveUnits="objectBoundingBox"'))
    add(f, "region", flt('<feFlood flood-color="#118ab2" x="0.1" y="0.1" width="0.4" height="0.4"/>', 'primitiveUnits="objectBoundingBox"'))
    add(f, "region", flt('<feGaussianBlur stdDeviation="8" x="60" y="0" width="80" height="200"/>', 'filterUnits="userSpaceOnUse" x="0" y="0" width="200" height="200" primitiveUnits="userSpaceOnUse"'))
    add(f, "region", flt('<feFlood flood-color="#118ab2"/>', body='<rect x="60" y="60" width="0" height="0"/>'))
    add(f, "region", flt('<feOffset dx="30"/>', 'x="0" y="0" width="1" height="1"'))
    add(f, "region", svg('<defs><filter id="f"><feGaussianBlur stdDeviation="3"/></filter></defs>'
                         '<g filter="url(#missing)"><rect x="40" y="40" width="120" height="120" fill="#ef476f"/></g>'))
    add(f, "region", flt(''))
    add(f, "colorInterpolation", flt('<feGaussianBlur stdDeviation="6" color-interpolation-filters="sRGB"/>'))
    add(f, "colorInterpolation", flt('<feGaussianBlur stdDeviation="6"/>', 'color-interpolation-filters="linearRGB"'))
    add(f, "colorInterpolation", flt('<feFlood flood-color="#06d6a0" result="fl"/><feBlend in="SourceGraphic" in2="fl" mode="multiply"/>',
                                     'color-interpolation-filters="sRGB"'))
    add(f, "results", flt('<feGaussianBlur in="SourceAlpha" stdDeviation="4" result="blur"/><feOffset in="blur" dx="8" dy="8" result="off"/>'
                          '<feFlood flood-color="#7209b7" result="col"/><feComposite in="col" in2="off" operator="in" result="shadow"/>'
                          '<feMerge><feMergeNode in="shadow"/><feMergeNode in="SourceGraphic"/></feMerge>'))
    add(f, "results", flt('<feOffset dx="10" result="a"/><feOffset in="a" dy="10" result="a"/><feMerge><feMergeNode in="a"/>'
                          '<feMergeNode in="SourceGraphic"/></feMerge>'))
    add(f, "results", flt('<feOffset in="nothing" dx="10"/>'))
    add(f, "onElement", flt('<feGaussianBlur stdDeviation="3"/>', body="", target="g")
        .replace('<g filter="url(#f)"></g>', '<circle cx="100" cy="100" r="60" fill="#ef476f" filter="url(#f)"/>'
                                             '<rect x="10" y="10" width="60" height="40" fill="#118ab2" filter="url(#f)" transform="rotate(20)"/>'))
    add(f, "onElement", svg('<defs><filter id="f"><feOffset dx="20" dy="20"/></filter></defs>'
                            '<g transform="scale(0.5) rotate(10)"><rect x="40" y="40" width="200" height="200" fill="#ffd166" filter="url(#f)"/></g>'))
    # CSS filter functions
    for fn in ["blur(3px)", "drop-shadow(6px 6px 3px #333)", "grayscale(1)", "grayscale(50%)", "sepia(1)", "saturate(3)",
               "hue-rotate(90deg)", "invert(1)", "opacity(0.4)", "brightness(1.5)", "contrast(0.4)",
               "blur(2px) drop-shadow(4px 4px 0 navy) grayscale(1)", "url(#f2) sepia(1)", "drop-shadow(0 0 8px rgba(0,0,255,.8))"]:
        add(f, "cssFilter", svg('<defs><filter id="f2"><feOffset dx="10" dy="0"/></filter></defs>'
                                f'<g style="filter: {fn}">{scene}</g>'))
    add(f, "cssFilter", svg(f'<g filter="blur(4px)">{scene}</g>'))


def text(add: Add) -> None:
    f = "text"
    base = f'font-family="{SANS}" font-size="28"'
    guide = '<path d="M100 0 V200 M0 100 H200" stroke="#bbb"/>'
    add(f, "basic", svg(f'<text x="20" y="60" {base}>Hamburg</text><text x="20" y="120" {base} fill="#d62828">quick fox</text>'
                        f'<text x="20" y="180" font-family="{SANS}" font-size="18">ÀÉÎõü çñ ß æ ¿?</text>'))
    add(f, "basic", svg(f'<text {base}><tspan x="20" y="40">No x/y</tspan></text><text x="20" y="100" {base}>   spaced    out  </text>'))
    add(f, "basic", svg(f'<text x="20" y="100" style="font: 32px \'{SANS}\'; fill: #003049">Shorthand</text>'
                        f'<text x="20" y="160" style="font-family: {SANS}; font-size: 24px; font-style: italic">italic</text>'))
    for anchor in ["start", "middle", "end"]:
        add(f, "anchor", svg(guide + f'<text x="100" y="80" {base} text-anchor="{anchor}">Anchor</text>'
                                     f'<text x="100" y="150" {base} text-anchor="{anchor}">A<tspan fill="red">nch</tspan>or</text>'))
    add(f, "tspan", svg(f'<text x="20" y="50" {base}>one <tspan x="40" y="100">two</tspan><tspan x="60" y="150">three</tspan></text>'))
    add(f, "tspan", svg(f'<text x="20" y="60" {base}>a<tspan dx="10" dy="20">b</tspan><tspan dy="-20">c</tspan>d</text>'
                        f'<text x="20" y="160" {base} dx="0 10 20 30" dy="0 -5 -10 -5">ABCDE</text>'))
    add(f, "tspan", svg(f'<text x="20 50 80 110 140" y="100" {base}>ABCDEFG</text>'
                        f'<text x="20" y="160" {base} rotate="0 20 40 60 80">rotated</text>'))
    add(f, "tspan", svg(f'<text x="20" y="100" {base} rotate="30">all turned</text>'))
    add(f, "tspan", svg(f'<text x="20" y="100" {base} fill="navy">plain <tspan font-weight="bold" fill="crimson">bold</tspan> '
                        f'<tspan font-style="italic" font-size="36">big</tspan></text>'))
    add(f, "tspan", svg(f'<text x="20" y="100" {base}><tspan>nested <tspan fill="green">in<tspan fill="blue">side</tspan></tspan></tspan></text>'))
    for ls in ["5", "-2", "0.3em", "10px"]:
        add(f, "letterSpacing", svg(f'<text x="10" y="100" {base} letter-spacing="{ls}">Spacing</text>'))
    for ws in ["20", "-5", "1em"]:
        add(f, "wordSpacing", svg(f'<text x="10" y="100" {base} word-spacing="{ws}">a b c word</text>'))
    for size in ["20px", "24pt", "2em", "150%", "8mm", "0.4in", "large"]:
        add(f, "fontSize", svg(f'<g font-size="16"><text x="10" y="110" font-family="{SANS}" font-size="{size}">Size Hg</text></g>'))
    for fam, weight, style in [(SANS, "bold", "normal"), (SANS, "700", "normal"), (SANS, "normal", "italic"),
                               (SANS, "bold", "italic"), (CONDENSED, "bold", "normal"), (CONDENSED, "900", "normal"),
                               (SANS, "bolder", "normal"), (SANS, "600", "normal"), (f"'{SANS}', serif", "normal", "normal"),
                               (f'{SANS}', "normal", "oblique")]:
        add(f, "font", svg(f'<text x="10" y="110" font-family="{fam}" font-size="34" font-weight="{weight}" font-style="{style}">Weight</text>'
                           .replace('font-family="\'', "font-family=\"'")))
    add(f, "font", svg(f'<text x="20" y="80" font-family="{MATH}" font-size="34">∑∫√∞≠</text>'
                       f'<text x="20" y="160" font-family="{SYMBOLS}" font-size="34">♠♣♥♦★</text>'))
    add(f, "font", svg(f'<text x="20" y="120" font-family="{MUSIC}" font-size="48">\U0001D11E\U0001D15F\U0001D160</text>'))
    for deco in ["underline", "line-through", "overline", "underline overline"]:
        add(f, "decoration", svg(f'<text x="10" y="110" {base} text-decoration="{deco}" fill="#3a0ca3">Decorated</text>'))
    add(f, "decoration", svg(f'<text x="10" y="110" {base} style="text-decoration: underline; text-decoration-color: red">under '
                             f'<tspan fill="green">green</tspan></text>'))
    curve = '<path id="p" d="M20 150 Q100 20 180 150" fill="none" stroke="#ccc"/>'
    for attrs in ["", 'startOffset="30"', 'startOffset="50%" text-anchor="middle"', 'side="right"' ]:
        add(f, "textPath", svg(f'<defs>{curve}</defs><use xlink:href="#p"/><text {base}><textPath xlink:href="#p" {attrs}>'
                               'Along the curve</textPath></text>'))
    add(f, "textPath", svg(f'<path id="c" d="M100 100 m-70 0 a70 70 0 1 1 140 0 a70 70 0 1 1 -140 0" fill="none" stroke="#ccc"/>'
                           f'<text font-family="{SANS}" font-size="20"><textPath href="#c">round and round the circle we go</textPath></text>'))
    add(f, "textPath", svg(f'<defs>{curve}</defs><text {base} letter-spacing="4"><textPath xlink:href="#p">'
                           'Sp<tspan fill="red" dy="-10">ac</tspan>ed</textPath></text>'))
    for shift in ["super", "sub", "10", "-30%"]:
        add(f, "baselineShift", svg(guide + f'<text x="20" y="100" {base}>x<tspan baseline-shift="{shift}" font-size="18">2</tspan>'
                                            f'<tspan dx="5">y</tspan></text>'))
    for db in ["auto", "middle", "central", "hanging", "text-before-edge", "mathematical"]:
        add(f, "dominantBaseline", svg(guide + f'<text x="20" y="100" {base} dominant-baseline="{db}">Baseline</text>'))
    add(f, "whitespace", svg(f'<text x="10" y="80" {base} xml:space="preserve">  two   spaces</text>'
                             f'<text x="10" y="150" {base}>  two   spaces\n  and a line</text>'))
    add(f, "painting", svg(f'<text x="100" y="120" font-family="{SANS}" font-weight="bold" font-size="70" text-anchor="middle" '
                           'fill="#ffd166" stroke="#073b4c" stroke-width="4">Bold</text>'))
    add(f, "painting", svg(f'<text x="100" y="120" font-family="{SANS}" font-size="60" text-anchor="middle" fill="none" '
                           'stroke="#ef476f" stroke-width="2" stroke-dasharray="4 2">Dash</text>'))
    add(f, "painting", svg(f'<text x="100" y="120" font-family="{SANS}" font-size="60" text-anchor="middle" fill="#118ab2" '
                           'opacity="0.5">Half</text><text x="100" y="130" font-family="{SANS}" font-size="60" text-anchor="middle" '
                           'fill="#ef476f" fill-opacity="0.5">Half</text>'.replace("{SANS}", SANS)))
    add(f, "transform", svg(f'<text x="100" y="100" {base} transform="rotate(-30 100 100)" text-anchor="middle">Turned</text>'
                            f'<text x="20" y="180" {base} transform="scale(1.5 1) skewX(-15)">Skewed</text>'))
    add(f, "textLength", svg(f'<text x="10" y="80" {base} textLength="180">Short</text>'
                             f'<text x="10" y="150" {base} textLength="180" lengthAdjust="spacingAndGlyphs">Short</text>'))
    add(f, "writingMode", svg(f'<text x="100" y="20" {base} writing-mode="tb">Down</text>'
                              f'<text x="150" y="20" {base} style="writing-mode: vertical-rl">Vert</text>'))
    add(f, "direction", svg(f'<text x="180" y="100" {base} direction="rtl" text-anchor="start">right to left</text>'))
    add(f, "fontVariant", svg(f'<text x="10" y="100" {base} font-variant="small-caps">Small Caps</text>'))
    add(f, "fontVariant", svg(f'<text x="10" y="100" {base} style="font-feature-settings: \'liga\' 0">office fluff</text>'
                              f'<text x="10" y="160" {base}>office fluff</text>'))


def images(add: Add) -> None:
    f = "images"
    png = data_uri("image/png", _png("RGB", (48, 48), "grid"))
    alpha = data_uri("image/png", _png("RGBA", (48, 48), "alpha"))
    pixels = data_uri("image/png", _png("RGB", (8, 8), "pixels"))
    jpeg = data_uri("image/jpeg", _jpeg((64, 64)))
    add(f, "png", svg(f'<image x="20" y="20" width="160" height="160" xlink:href="{png}"/>'))
    add(f, "png", svg(f'<image x="20" y="20" width="160" height="160" href="{png}"/>'))
    add(f, "png", svg(f'<rect width="200" height="200" fill="#2a9d8f"/><image x="20" y="20" width="160" height="160" href="{alpha}"/>'))
    add(f, "png", svg(f'<image x="20" y="20" width="160" height="160" href="{data_uri("image/png", _png("L", (48, 48), "grid"))}"/>'))
    add(f, "png", svg(f'<image x="20" y="20" width="160" height="160" href="{data_uri("image/png", _png("P", (48, 48), "grid"))}"/>'))
    add(f, "png", svg(f'<image x="20" y="20" width="160" height="160" href="{data_uri("image/png", _png("LA", (48, 48), "alpha"))}"/>'))
    add(f, "png", svg(f'<image x="20" y="20" width="160" height="160" href="{pixels}"/>'))
    add(f, "png", svg(f'<image x="20" y="20" width="160" height="160" href="{pixels}" style="image-rendering: pixelated"/>'))
    add(f, "png", svg(f'<image x="20" y="20" href="{png}"/>'))
    for par in ["none", "xMidYMid meet", "xMinYMin meet", "xMaxYMax meet", "xMidYMid slice", "xMinYMax slice"]:
        add(f, "aspect", svg(f'<rect x="10" y="40" width="180" height="100" fill="#ddd"/>'
                             f'<image x="10" y="40" width="180" height="100" preserveAspectRatio="{par}" href="{png}"/>'))
    add(f, "jpeg", svg(f'<image x="20" y="20" width="160" height="160" href="{jpeg}"/>'))
    add(f, "jpeg", svg(f'<image x="20" y="20" width="160" height="160" href="{data_uri("image/jpeg", _jpeg((64, 64), progressive=True))}"/>'))
    add(f, "jpeg", svg(f'<image x="20" y="20" width="160" height="160" href="{data_uri("image/jpeg", _jpeg((64, 64), grey=True))}"/>'))
    add(f, "jpeg", svg(f'<image x="20" y="20" width="160" height="100" preserveAspectRatio="none" href="{data_uri("image/jpeg", _jpeg((64, 48), orientation=6))}"/>'))
    add(f, "jpeg", svg(f'<image x="20" y="20" width="160" height="160" href="{data_uri("image/jpeg", _jpeg((64, 64), cmyk=True))}"/>'))
    add(f, "transform", svg(f'<image x="40" y="40" width="120" height="120" href="{png}" transform="rotate(25 100 100)"/>'))
    add(f, "transform", svg(f'<image x="40" y="40" width="120" height="120" href="{jpeg}" transform="skewX(20) translate(-20 0)" opacity="0.6"/>'))
    add(f, "clipped", svg(f'<defs><clipPath id="c"><circle cx="100" cy="100" r="70"/></clipPath></defs>'
                          f'<image x="20" y="20" width="160" height="160" href="{jpeg}" clip-path="url(#c)"/>'))
    inner = svg('<circle cx="50" cy="50" r="40" fill="#e76f51"/><rect x="30" y="30" width="40" height="40" fill="#264653"/>',
                w="100", h="100", vb="0 0 100 100")
    add(f, "svg", svg(f'<image x="20" y="20" width="160" height="160" href="{data_uri("image/svg+xml", inner.encode())}"/>'))
    add(f, "svg", svg(f'<image x="20" y="60" width="160" height="80" href="data:image/svg+xml;utf8,{quote(inner)}"/>'))
    add(f, "svg", svg(f'<image x="20" y="60" width="160" height="80" preserveAspectRatio="none" href="{data_uri("image/svg+xml", inner.encode())}"/>'))


def inkscape(add: Add) -> None:
    f = "inkscape"
    head = ('<sodipodi:namedview id="namedview1" pagecolor="#ffffff" bordercolor="#666666" borderopacity="1.0" '
            'inkscape:pageshadow="2" inkscape:pageopacity="0.0" inkscape:pagecheckerboard="0" inkscape:document-units="mm" '
            'showgrid="false" inkscape:zoom="1.2" inkscape:cx="100" inkscape:cy="100" inkscape:window-width="1920" '
            'inkscape:window-height="1011" inkscape:current-layer="layer1"/>'
            '<metadata id="metadata1"><rdf:RDF><cc:Work rdf:about=""><dc:format>image/svg+xml</dc:format>'
            '<dc:type rdf:resource="http://purl.org/dc/dcmitype/StillImage"/><dc:title>card</dc:title></cc:Work></rdf:RDF></metadata>')

    def ink(body: str, defs: str = "", w: str = "52.916664mm", h: str = "52.916664mm", vb: str = "0 0 52.916664 52.916664") -> str:
        return svg(f'<defs id="defs1">{defs}</defs>{head}{body}', w=w, h=h, vb=vb, ns=INKSCAPE_NS,
                   attrs='version="1.1" id="svg1" inkscape:version="1.3.2 (091e20e, 2023-11-25)" sodipodi:docname="drawing.svg"')

    add(f, "layers", ink('<g inkscape:label="Layer 1" inkscape:groupmode="layer" id="layer1">'
                         '<rect style="fill:#3a86ff;fill-opacity:1;stroke:#000000;stroke-width:0.5;stroke-linecap:round;'
                         'stroke-linejoin:round;stroke-dasharray:none;stroke-opacity:1" id="rect1" width="40" height="30" x="6" y="6" ry="3"/>'
                         '<path sodipodi:type="star" style="fill:#ffbe0b;stroke:none" id="path2" inkscape:flatsided="false" '
                         'sodipodi:sides="5" sodipodi:cx="26" sodipodi:cy="40" sodipodi:r1="10" sodipodi:r2="4" '
                         'inkscape:rounded="0" inkscape:randomized="0" '
                         'd="m 26,30 2.35,6.76 7.16,0.15 -5.71,4.33 2.08,6.85 L 26,44 20.12,48.09 22.2,41.24 16.49,36.91 23.65,36.76 Z" '
                         'inkscape:transform-center-y="-0.9"/></g>'
                         '<g inkscape:groupmode="layer" id="layer2" inkscape:label="Hidden" style="display:none">'
                         '<rect style="fill:#ff0000" width="52" height="52" x="0" y="0" id="rect3"/></g>'))
    add(f, "layers", ink('<g inkscape:label="Background" inkscape:groupmode="layer" id="layer1" transform="translate(-20,-30)">'
                         '<ellipse style="fill:#8338ec;stroke:#3a0ca3;stroke-width:1.2" id="path1" cx="46" cy="56" rx="20" ry="14"/></g>'
                         '<g inkscape:label="Top" inkscape:groupmode="layer" id="layer3" style="opacity:0.6">'
                         '<circle style="fill:#ff006e" id="path4" cx="30" cy="30" r="12" sodipodi:nodetypes="ccccc"/></g>'))
    add(f, "arcs", ink('<g inkscape:groupmode="layer" id="layer1" inkscape:label="Arcs">'
                       '<path sodipodi:type="arc" style="fill:#fb5607;stroke:#000;stroke-width:0.8" id="path5" sodipodi:cx="26" '
                       'sodipodi:cy="26" sodipodi:rx="18" sodipodi:ry="18" sodipodi:start="0" sodipodi:end="4.712389" '
                       'sodipodi:arc-type="slice" d="M 44,26 A 18,18 0 0 1 26,44 18,18 0 0 1 8,26 18,18 0 0 1 26,8 v 18 z"/></g>'))
    shadow = ('<filter inkscape:collect="always" style="color-interpolation-filters:sRGB" id="filter1" x="-0.2" y="-0.2" '
              'width="1.4" height="1.4"><feGaussianBlur inkscape:collect="always" stdDeviation="1.2" id="feGaussianBlur1"/></filter>')
    add(f, "dropShadow", ink('<g inkscape:groupmode="layer" id="layer1" inkscape:label="Card">'
                             '<rect style="opacity:0.5;fill:#000000;filter:url(#filter1)" id="shadow" width="36" height="44" x="10" y="6" ry="3"/>'
                             '<rect style="fill:#fefae0;stroke:#283618;stroke-width:0.6" id="card" width="36" height="44" x="8" y="4" ry="3"/></g>',
                             defs=shadow))
    add(f, "dropShadow", ink('<g inkscape:groupmode="layer" id="layer1" inkscape:label="Text">'
                             f'<text xml:space="preserve" style="font-style:normal;font-weight:bold;font-size:11px;line-height:1.25;'
                             f'font-family:\'{SANS}\';-inkscape-font-specification:\'{SANS} Bold\';fill:#bc6c25;stroke:none;'
                             f'stroke-width:0.26;filter:url(#filter1)" x="6" y="30" id="text1"><tspan sodipodi:role="line" id="tspan1" '
                             f'x="6" y="30" style="stroke-width:0.26">Title</tspan></text>'
                             f'<text xml:space="preserve" style="font-weight:bold;font-size:11px;line-height:1.25;font-family:\'{SANS}\';'
                             f'fill:#283618" x="5" y="29" id="text2"><tspan sodipodi:role="line" x="5" y="29" id="tspan2">Title</tspan></text></g>',
                             defs=shadow))
    grad = ('<linearGradient inkscape:collect="always" id="linearGradient1"><stop style="stop-color:#dda15e;stop-opacity:1" offset="0" id="stop1"/>'
            '<stop style="stop-color:#606c38;stop-opacity:1" offset="1" id="stop2"/></linearGradient>'
            '<linearGradient inkscape:collect="always" xlink:href="#linearGradient1" id="linearGradient2" x1="4" y1="4" x2="48" y2="48" '
            'gradientUnits="userSpaceOnUse"/>')
    frame = ('<g inkscape:label="Frame" inkscape:groupmode="layer" id="layer1">'
             '<rect style="fill:url(#linearGradient2);stroke:#283618;stroke-width:1.5;stroke-linejoin:round" id="outer" width="46" height="46" x="3.5" y="3.5" rx="4"/>'
             '<rect style="fill:#fefae0;fill-opacity:0.9;stroke:#bc6c25;stroke-width:0.5;stroke-dasharray:1.5,0.75;stroke-dashoffset:0" '
             'id="inner" width="36" height="26" x="8.5" y="8.5" rx="2"/>'
             '<path style="fill:none;stroke:#283618;stroke-width:0.8px;stroke-linecap:butt;stroke-linejoin:miter;stroke-opacity:1" '
             'd="m 8.5,39 h 36" id="rule" sodipodi:nodetypes="cc"/>'
             f'<text xml:space="preserve" style="font-size:4.9px;line-height:1.25;font-family:\'{CONDENSED}\';font-weight:bold;'
             f'text-anchor:middle;text-align:center;fill:#283618" x="26.5" y="46" id="name"><tspan sodipodi:role="line" id="tspan3" '
             f'x="26.5" y="46">FOREST GUARD</tspan></text></g>')
    add(f, "cardFrame", ink(frame, defs=grad))
    add(f, "cardFrame", ink(frame.replace('rx="4"', 'rx="0"'), defs=grad, w="200", h="200"))
    add(f, "cardFrame", ink(frame, defs=grad, w=None, h=None))
    add(f, "icon", ink('<g inkscape:label="Icon" inkscape:groupmode="layer" id="layer1" transform="matrix(1.3229167,0,0,1.3229167,0,0)">'
                       '<circle style="fill:#023047;stroke-width:0.26" id="bg" cx="20" cy="20" r="18"/>'
                       '<path style="fill:#ffb703;stroke:#fb8500;stroke-width:1;stroke-linejoin:round" '
                       'd="M 20,8 23.5,16 32,16.5 25.5,22 27.5,30.5 20,26 12.5,30.5 14.5,22 8,16.5 16.5,16 Z" id="star" '
                       'inkscape:label="star" sodipodi:nodetypes="ccccccccccc"/></g>',
                       w="40", h="40", vb="0 0 52.916664 52.916664"))
    add(f, "icon", ink('<g id="layer1" inkscape:groupmode="layer"><g id="g1" inkscape:label="clone group">'
                       '<rect id="tile" style="fill:#8ecae6;stroke:#219ebc;stroke-width:0.5" width="10" height="10" x="4" y="4"/>'
                       '<use x="0" y="0" xlink:href="#tile" inkscape:tiled-clone-of="#tile" id="use1" transform="translate(12,0)" '
                       'style="fill:#ffb703"/><use xlink:href="#tile" id="use2" transform="translate(24,12)" width="100%" height="100%"/>'
                       '</g></g>'))
    add(f, "flowRoot", ink('<g inkscape:groupmode="layer" id="layer1"><rect style="fill:#ccd5ae" width="40" height="40" x="6" y="6"/>'
                           '<flowRoot xml:space="preserve" id="flowRoot1" style="font-size:5px;font-family:\'Noto Sans\';fill:#000">'
                           '<flowRegion id="flowRegion1"><rect id="rect9" width="30" height="30" x="10" y="10"/></flowRegion>'
                           '<flowPara id="flowPara1">Flowed text from old Inkscape</flowPara></flowRoot></g>'))
    add(f, "styles", ink('<g inkscape:groupmode="layer" id="layer1"><path style="color:#000000;fill:#e76f51;fill-rule:evenodd;stroke:#264653;'
                         'stroke-width:1.2;stroke-linecap:round;stroke-linejoin:round;stroke-miterlimit:4;stroke-dasharray:none;'
                         'stroke-opacity:1;paint-order:stroke fill markers;-inkscape-stroke:none;font-variation-settings:normal;'
                         'vector-effect:none;shape-rendering:auto;mix-blend-mode:normal;solid-color:#000000;solid-opacity:1;'
                         'marker:none;enable-background:accumulate;stop-color:#000000" '
                         'd="M 8,8 H 44 V 44 H 8 Z M 16,16 V 36 H 36 V 16 Z" id="frame2"/></g>'))
    add(f, "styles", ink('<g inkscape:groupmode="layer" id="layer1"><rect style="fill:#2a9d8f;stroke:none" width="20" height="20" x="6" y="6" '
                         'inkscape:export-filename="icon.png" inkscape:export-xdpi="96" inkscape:export-ydpi="96"/>'
                         '<rect style="fill:#e9c46a;mix-blend-mode:multiply" width="20" height="20" x="16" y="16"/>'
                         '<circle style="fill:none;stroke:#264653;stroke-width:2;stroke-dasharray:4, 2;stroke-dashoffset:1" cx="36" cy="36" r="10"/></g>'))
    add(f, "clipMask", ink('<g inkscape:groupmode="layer" id="layer1"><g clip-path="url(#clipPath1)" id="g2">'
                           '<rect style="fill:#bc4749" width="52" height="26" x="0" y="0"/><rect style="fill:#386641" width="52" height="26" x="0" y="26"/></g>'
                           '<g mask="url(#mask1)"><circle style="fill:#f2e8cf" cx="26" cy="26" r="8"/></g></g>',
                           defs='<clipPath clipPathUnits="userSpaceOnUse" id="clipPath1"><circle style="fill:#000" cx="26" cy="26" r="20" id="c1"/></clipPath>'
                                '<mask maskUnits="userSpaceOnUse" id="mask1"><rect style="fill:#ffffff" width="26" height="52" x="0" y="0"/></mask>'))
    add(f, "exported", svg('<g id="icon" transform="translate(20 20) scale(1.6)"><path fill="#606c38" d="M50 5 L95 50 L50 95 L5 50 Z"/>'
                           '<path fill="#fefae0" d="M50 25 a25 25 0 1 1 -0.1 0 Z"/></g>', ns=INKSCAPE_NS,
                           attrs='inkscape:version="1.2" sodipodi:docname="icon.svg" version="1.1"'))


def realworld(add: Add) -> None:
    f = "realworld"
    add(f, "icon", svg('<path d="M100 30 L170 90 H150 V170 H115 V120 H85 V170 H50 V90 H30 Z" fill="#3d405b" stroke="#3d405b" '
                       'stroke-width="6" stroke-linejoin="round"/>', vb="0 0 200 200"))
    add(f, "icon", svg('<path d="M100 170 C20 110 20 40 70 40 C90 40 100 60 100 60 C100 60 110 40 130 40 C180 40 180 110 100 170 Z" fill="#e63946"/>'))
    gear = " ".join(
        f"{'M' if i == 0 else 'L'}{100 + (80 if i % 4 in (0, 1) else 60) * math.cos(math.radians(i * 11.25 - 5)):.2f} "
        f"{100 + (80 if i % 4 in (0, 1) else 60) * math.sin(math.radians(i * 11.25 - 5)):.2f}" for i in range(32)) + " Z"
    add(f, "icon", svg(f'<path d="{gear} M100 70 A30 30 0 1 0 100.1 70 Z" fill="#6c757d" fill-rule="evenodd"/>'))
    add(f, "icon", svg('<circle cx="85" cy="85" r="50" fill="none" stroke="#212529" stroke-width="16"/>'
                       '<line x1="122" y1="122" x2="175" y2="175" stroke="#212529" stroke-width="22" stroke-linecap="round"/>'))
    add(f, "icon", svg('<path d="M100 20 L185 170 H15 Z" fill="#ffb703" stroke="#023047" stroke-width="10" stroke-linejoin="round"/>'
                       '<rect x="92" y="70" width="16" height="55" rx="6" fill="#023047"/><circle cx="100" cy="145" r="9" fill="#023047"/>'))
    add(f, "icon", svg('<circle cx="100" cy="100" r="85" fill="#2a9d8f"/><path d="M55 100 L88 133 L148 70" fill="none" stroke="white" '
                       'stroke-width="20" stroke-linecap="round" stroke-linejoin="round"/>'))
    add(f, "icon", svg('<path d="M100 15 C60 15 35 45 35 80 C35 130 100 185 100 185 C100 185 165 130 165 80 C165 45 140 15 100 15 Z" '
                       'fill="#d62828"/><circle cx="100" cy="80" r="25" fill="white"/>'))
    add(f, "suits", svg('<g fill="#111"><path d="M50 20 C50 20 15 50 15 65 C15 80 35 85 47 72 L40 95 H60 L53 72 C65 85 85 80 85 65 C85 50 50 20 50 20 Z"/>'
                        '<g transform="translate(100 0)"><circle cx="50" cy="35" r="15"/><circle cx="33" cy="60" r="15"/>'
                        '<circle cx="67" cy="60" r="15"/><path d="M46 55 L40 95 H60 L54 55 Z"/></g></g>'
                        '<g fill="#c1121f"><path d="M50 180 C15 150 15 115 35 110 C45 108 50 120 50 120 C50 120 55 108 65 110 C85 115 85 150 50 180 Z"/>'
                        '<path d="M150 105 L180 145 L150 185 L120 145 Z"/></g>'))
    add(f, "dice", svg('<rect x="25" y="25" width="150" height="150" rx="25" fill="#fdfcdc" stroke="#0081a7" stroke-width="6"/>'
                       + "".join(f'<circle cx="{x}" cy="{y}" r="13" fill="#0081a7"/>'
                                 for x, y in [(65, 65), (135, 65), (100, 100), (65, 135), (135, 135)])))
    add(f, "illustration", svg('<defs><linearGradient id="sky" x2="0" y2="1"><stop offset="0" stop-color="#8ecae6"/>'
                               '<stop offset="1" stop-color="#ffe8d6"/></linearGradient>'
                               '<radialGradient id="sun"><stop offset="0" stop-color="#fff3b0"/><stop offset="0.6" stop-color="#ffb703"/>'
                               '<stop offset="1" stop-color="#fb8500" stop-opacity="0"/></radialGradient></defs>'
                               '<rect width="200" height="200" fill="url(#sky)"/><circle cx="150" cy="60" r="40" fill="url(#sun)"/>'
                               '<path d="M0 150 Q50 100 100 140 T200 130 V200 H0 Z" fill="#588157"/>'
                               '<path d="M0 170 Q60 140 120 170 T200 165 V200 H0 Z" fill="#3a5a40"/>'
                               '<g transform="translate(50 110)"><rect x="-4" y="20" width="8" height="25" fill="#6f4518"/>'
                               '<path d="M0 -20 L22 25 H-22 Z" fill="#344e41"/></g>'))
    add(f, "illustration", svg('<defs><filter id="s" x="-20%" y="-20%" width="140%" height="140%"><feDropShadow dx="3" dy="4" stdDeviation="3" '
                               'flood-opacity="0.35"/></filter><linearGradient id="b" x2="0" y2="1"><stop offset="0" stop-color="#ffd60a"/>'
                               '<stop offset="1" stop-color="#ffc300"/></linearGradient></defs>'
                               '<g filter="url(#s)"><circle cx="100" cy="95" r="70" fill="url(#b)" stroke="#003566" stroke-width="6"/>'
                               f'<text x="100" y="110" font-family="{CONDENSED}" font-weight="bold" font-size="44" text-anchor="middle" '
                               'fill="#003566">WIN</text></g>'))
    bars = "".join(f'<rect x="{40 + i * 30}" y="{170 - h}" width="20" height="{h}" fill="#4361ee"/>'
                   for i, h in enumerate([60, 110, 80, 140, 40]))
    labels = "".join(f'<text x="{50 + i * 30}" y="188" font-family="{SANS}" font-size="12" text-anchor="middle">{c}</text>'
                     for i, c in enumerate("ABCDE"))
    add(f, "chart", svg(f'<path d="M30 20 V170 H190" fill="none" stroke="#222" stroke-width="2"/>{bars}{labels}'
                        f'<text x="110" y="20" font-family="{SANS}" font-weight="bold" font-size="14" text-anchor="middle">Sales</text>'))
    add(f, "badge", svg('<path d="M100 15 L170 45 V100 C170 140 140 170 100 185 C60 170 30 140 30 100 V45 Z" fill="#1d3557" '
                        'stroke="#e63946" stroke-width="8"/><path d="M100 60 L112 90 H144 L118 110 L128 142 L100 122 L72 142 L82 110 L56 90 H88 Z" '
                        'fill="#f1faee"/>'))
    add(f, "badge", svg(f'<circle cx="100" cy="100" r="90" fill="#ffb4a2"/><circle cx="100" cy="100" r="75" fill="none" stroke="#6d6875" '
                        f'stroke-width="3" stroke-dasharray="6 4"/><path id="arc" d="M40 100 A60 60 0 0 1 160 100" fill="none"/>'
                        f'<text font-family="{SANS}" font-weight="bold" font-size="18" fill="#6d6875"><textPath href="#arc" '
                        f'startOffset="50%" text-anchor="middle">DECKPRESS</textPath></text>'
                        f'<text x="100" y="135" font-family="{SANS}" font-size="30" text-anchor="middle" fill="#6d6875">2024</text>'))
    rng = random.Random(1729)  # the only randomness: a seeded scatter of confetti
    confetti = "".join(f'<rect x="{rng.uniform(0, 190):.1f}" y="{rng.uniform(0, 190):.1f}" width="{rng.uniform(4, 12):.1f}" '
                       f'height="{rng.uniform(3, 8):.1f}" fill="hsl({rng.randrange(360)},80%,60%)" '
                       f'transform="rotate({rng.randrange(-60, 60)} 100 100)"/>' for _ in range(60))
    add(f, "confetti", svg(confetti))
    add(f, "avatar", svg('<defs><clipPath id="c"><circle cx="100" cy="100" r="80"/></clipPath></defs>'
                         '<g clip-path="url(#c)"><rect width="200" height="200" fill="#cdb4db"/><circle cx="100" cy="85" r="35" fill="#ffc8dd"/>'
                         '<ellipse cx="100" cy="185" rx="65" ry="55" fill="#bde0fe"/></g>'
                         '<circle cx="100" cy="100" r="80" fill="none" stroke="#a2d2ff" stroke-width="6"/>'))


SECTIONS = (structure, shapes, painting, markers, paint_servers, masking, blending, filters, text, images, inkscape, realworld)


def corpus() -> Iterator[tuple[str, str]]:
    """Every file as (name, text), in a fixed order."""
    files: list[tuple[str, str]] = []
    counts: dict[tuple[str, str], int] = {}

    def add(feature: str, sub: str, text_: str) -> None:
        assert re.fullmatch(r"[a-zA-Z0-9]+", feature) and re.fullmatch(r"[a-zA-Z0-9]+", sub), (feature, sub)
        n = counts[feature, sub] = counts.get((feature, sub), 0) + 1
        files.append((f"{feature}-{sub}-{n:03d}.svg", text_))

    for section in SECTIONS:
        section(add)
    return iter(files)


def write_corpus(folder: str | Path = DEFAULT_FOLDER) -> list[Path]:
    """Write the corpus into `folder` (made if need be; SVG files there that are no longer part of
    it are removed), and return the files in order."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text_ in corpus():
        path = folder / name
        data = text_.encode("utf-8")
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
        written.append(path)
    keep = set(written)
    for old in folder.glob("*.svg"):
        if old not in keep:
            old.unlink()
    return written


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else DEFAULT_FOLDER
    files = write_corpus(folder)
    features: dict[str, int] = {}
    for path in files:
        features[path.name.split("-")[0]] = features.get(path.name.split("-")[0], 0) + 1
    print(f"{len(files)} SVG files in {folder}: " + ", ".join(f"{k} {v}" for k, v in features.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
