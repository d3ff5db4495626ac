"""Text as headless Chromium sets it: an outside reference for deckpress's shaping.

Chromium (Debian's, driven by Playwright: the `browser` fixture in tests/conftest.py) shapes with
HarfBuzz too, after its own bidi, script and font segmentation. `render` lays every sample out on one
page, each in its own line box, with its font loaded by `@font-face` from a data: URL, and returns
for each sample

- its advance width in em: the inline box of a `<span>` holding the text (`getBoundingClientRect`),
  at a large size (`SIZE` px) so that Blink's layout unit (1/64 px) is far below the tolerance;
- its glyph ids in visual order, left to right, and the font each came from: the page printed to
  PDF, where Skia embeds a TrueType font as a Type0 CID font with Identity-H and an identity
  CIDToGIDMap, so each 2-byte code in the content stream IS the font's glyph id (`render` checks the
  encoding; tests/test_text_shaping_reference.py checks the codes against fontTools for plain ASCII);
- where it placed each glyph (pen plus offset), in em from the span's left edge, and up from the
  first glyph: the same PDF's text positions, the codes after the first of a string advanced by the
  widths the PDF gives;
- the fonts Chromium says it used for it (DevTools `CSS.getPlatformFontsForNode`): a glyph from a
  font the sample did not name (a system font Chromium fell back to) is a measurement of something
  else, so the caller can refuse it.

What Chromium does on its own and HarfBuzz called plainly does not, and how the page rules it out
(measured on Debian's Chromium 150 against the 25 strings of tests/test_text_shaping_reference.py):
- letter-spacing: Blink adds it to every advance and turns ligatures off under it (0.01 em gave
  widths 2.4 % apart and other glyphs in "office") — `letter-spacing: 0`, `word-spacing: 0`;
- `text-rendering: optimizeSpeed` turns ligatures off — `geometricPrecision`, which also asks for
  unhinted, subpixel advances (this Chromium lays out unhinted even without it; kept as insurance);
- the layout unit: a box is measured in 1/64 px, 0.05 % of a width at 13 px — `SIZE` is 100 px;
- kerning left to the platform (`font-kerning: auto`; no difference here) — `normal`, and
  `font-variant-ligatures: normal`: Blink's defaults are then HarfBuzz's (kern, liga, clig, calt,
  and the script's own), the features a sample asks for added by `font-feature-settings`;
- white-space collapsing and wrapping — `white-space: pre` and a page wider than any sample;
- synthetic bold/italic and optical sizing — off;
- the paragraph direction — the `dir` attribute, `auto` (first strong character) unless a sample
  says; the language — the `lang` attribute, which reaches HarfBuzz (Marathi's locl forms show it);
- fonts: Chromium shapes each bidi run per script and per font, taking a character the font lacks
  from the next font in the list, then from the system's — only the fonts a sample names are in its
  font-family list, a glyph from any other font is refused, and `fonts`/`custom` report what
  DevTools says was used (a system copy of the same font has the same PostScript name, not the
  same `isCustomFont`). Chromium also passes a web font through its sanitiser (OTS): a font it
  rejected would not load, and would show here as a fallback.
What stays different: Chromium's HarfBuzz is its own copy, not uharfbuzz's (another version can
shape an edge case differently), and it gives a run of digits or punctuation the script of the
letters around it (the test does the same when it shapes text in several fonts run by run).
"""

from __future__ import annotations

import base64
import html
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from fontTools.ttLib import TTFont
from pypdf import PdfReader
from pypdf.generic import ContentStream, FloatObject, NumberObject

from .pdfread import string_bytes

SIZE = 100  # px: the font size every sample is set at; widths are read to 1/64 px, 0.016 % of an em here
LINE = 3 * SIZE  # px: each sample's own band on the page, tall enough for Devanagari's marks above and below
PAGE_WIDTH = 4000  # px: wider than the longest sample, so nothing wraps
MOST = 19200 // LINE  # samples on one page: PDF viewers take pages up to 200 in (19200 px) tall


@dataclass(frozen=True)
class Sample:
    """A string to set, in a font (and fallback fonts, tried in order), with optional language
    (BCP 47, the `lang` attribute), paragraph direction (`ltr`, `rtl` or `auto`) and OpenType
    features (`font-feature-settings`: `"smcp"` turns one on, `"-liga"` off)."""

    text: str
    font: str
    fallbacks: tuple[str, ...] = ()
    lang: str | None = None
    direction: str = "auto"
    features: tuple[str, ...] = ()


@dataclass(frozen=True)
class Glyph:
    gid: int
    font: str  # the path of the sample's font (or fallback) it was drawn from
    x: float  # em from the left edge of the sample's span: where Chromium placed it (pen plus offset)
    y: float  # em up from where the sample's first glyph sits (a mark is raised or lowered from its base)


@dataclass(frozen=True)
class Rendered:
    sample: Sample
    width: float  # em: the span's advance width
    glyphs: tuple[Glyph, ...]  # in visual order, left to right, as Chromium drew them
    fonts: tuple[str, ...]  # PostScript names of the fonts Chromium used, from DevTools
    custom: tuple[bool, ...]  # for each of `fonts`: loaded by @font-face (not the system's)

    @property
    def gids(self) -> tuple[int, ...]:
        return tuple(g.gid for g in self.glyphs)


def postscript_name(path: str) -> str:
    """The font's PostScript name (name ID 6), which Skia writes as the PDF font's BaseFont."""
    with TTFont(path, lazy=True) as font:
        return font["name"].getDebugName(6)


def _css_features(features: Sequence[str]) -> str:
    if not features:
        return "normal"
    return ", ".join(f'"{f[1:]}" 0' if f.startswith("-") else f'"{f}" 1' for f in features)


def page_html(samples: Sequence[Sample]) -> tuple[str, list[str]]:
    """The page: one @font-face per distinct font file, one line box per sample. Returns the HTML
    and the font files in the order of their family names (`f0`, `f1`, …)."""
    files: list[str] = []
    for s in samples:
        for path in (s.font, *s.fallbacks):
            if path not in files:
                files.append(path)
    faces = "\n".join(
        f"@font-face {{ font-family: f{i}; src: url(data:font/ttf;base64,"
        f"{base64.b64encode(Path(p).read_bytes()).decode()}) format('truetype'); }}"
        for i, p in enumerate(files))
    lines = []
    for i, s in enumerate(samples):
        family = ", ".join(f"f{files.index(p)}" for p in (s.font, *s.fallbacks))
        lang = f' lang="{html.escape(s.lang)}"' if s.lang else ""
        lines.append(f'<div id="s{i}" dir="{s.direction}"{lang} style="font-family: {family}; '
                     f"font-feature-settings: {html.escape(_css_features(s.features))}\">"
                     f"<span>{html.escape(s.text)}</span></div>")
    body = "\n".join(lines)
    page = f"""<!doctype html><html><head><meta charset="utf-8"><style>
{faces}
@page {{ size: {PAGE_WIDTH}px {LINE * len(samples)}px; margin: 0; }}
html, body {{ margin: 0; padding: 0; }}
div {{ height: {LINE}px; line-height: {LINE}px; width: {PAGE_WIDTH}px; font-size: {SIZE}px;
      white-space: pre; text-rendering: geometricPrecision; letter-spacing: 0; word-spacing: 0;
      font-kerning: normal; font-variant-ligatures: normal; font-synthesis: none;
      font-optical-sizing: none; text-transform: none; overflow: hidden; }}
</style></head><body>
{body}
</body></html>"""
    return page, files


def _mul(m, n):
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _widths(cid_font) -> tuple[dict[int, float], float]:
    """A CID font's glyph widths (/W), in thousandths of the font size, and its default (/DW)."""
    widths: dict[int, float] = {}
    w = cid_font.get("/W")
    items = list(w.get_object()) if w is not None else []
    i = 0
    while i < len(items):
        first, nxt = int(items[i]), items[i + 1].get_object()
        if isinstance(nxt, list):  # c [w1 w2 …]
            widths.update({first + k: float(v) for k, v in enumerate(nxt)})
            i += 2
        else:  # c_first c_last w
            widths.update({c: float(items[i + 2]) for c in range(first, int(nxt) + 1)})
            i += 3
    return widths, float(cid_font.get("/DW", 1000))


def drawn_glyphs(pdf: bytes) -> list[tuple[str, int, float, float]]:
    """Every glyph shown on the PDF's one page, in drawing order: (BaseFont without its subset tag,
    glyph id, x, y), x and y in CSS px from the page's top-left corner. Refuses a font whose codes
    are not glyph ids (not Identity-H with an identity CIDToGIDMap)."""
    reader = PdfReader(io.BytesIO(pdf))
    (page,) = reader.pages
    height_pt = float(page.mediabox.height)
    fonts = {}
    for name, ref in page["/Resources"]["/Font"].items():
        font = ref.get_object()
        base = str(font["/BaseFont"]).split("+", 1)[-1]
        if font["/Subtype"] != "/Type0" or font["/Encoding"] != "/Identity-H":
            raise ValueError(f"{base}: {font['/Subtype']} {font.get('/Encoding')}: its codes are not glyph ids")
        cid = font["/DescendantFonts"][0].get_object()
        if cid["/Subtype"] != "/CIDFontType2" or str(cid.get("/CIDToGIDMap", "/Identity")) != "/Identity":
            raise ValueError(f"{base}: {cid['/Subtype']} with a CIDToGIDMap: its codes are not glyph ids")
        fonts[name] = (base, *_widths(cid))
    out = []
    ctm = (1, 0, 0, 1, 0, 0)
    stack = []
    tm = line = (1, 0, 0, 1, 0, 0)
    font = size = None
    spacing, scale = 0.0, 1.0  # Tc, Tz: Skia sets neither, but a show must honour them if it did
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = _mul(tuple(float(v) for v in operands), ctm)
        elif op == b"BT":
            tm = line = (1, 0, 0, 1, 0, 0)
        elif op == b"Tm":
            tm = line = tuple(float(v) for v in operands)
        elif op == b"Td":
            tx, ty = (float(v) for v in operands)
            tm = line = _mul((1, 0, 0, 1, tx, ty), line)
        elif op == b"Tf":
            font, size = fonts[operands[0]], float(operands[1])
        elif op == b"Tc":
            spacing = float(operands[0])
        elif op == b"Tz":
            scale = float(operands[0]) / 100
        elif op in (b"'", b'"'):
            raise ValueError(f"{op.decode()}: a next-line show, which Skia does not write")
        elif op in (b"Tj", b"TJ"):
            # Skia places most glyphs by their own Td, but shows a glyph after a space in the
            # same string: later glyphs are placed by the widths the PDF gives (/W)
            base, widths, default = font
            for item in (operands[0] if op == b"TJ" else [operands[0]]):
                if isinstance(item, (NumberObject, FloatObject)):
                    tm = _mul((1, 0, 0, 1, -float(item) / 1000 * size * scale, 0), tm)
                    continue
                codes = string_bytes(item)
                for k in range(0, len(codes), 2):
                    gid = int.from_bytes(codes[k:k + 2], "big")
                    x_pt, y_pt = _mul(tm, ctm)[4:]
                    out.append((base, gid, x_pt * 96 / 72, (height_pt - y_pt) * 96 / 72))
                    advance = (widths.get(gid, default) / 1000 * size + spacing) * scale
                    tm = _mul((1, 0, 0, 1, advance, 0), tm)
    return out


def render(browser, samples: Sequence[Sample]) -> list[Rendered]:
    """Set every sample in Chromium on one page and read back widths, glyph ids and fonts."""
    if not 0 < len(samples) <= MOST:
        raise ValueError(f"{len(samples)} samples: one page holds 1 to {MOST}")
    source, files = page_html(samples)
    names = {postscript_name(p): p for p in files}
    context = browser.new_context(viewport={"width": PAGE_WIDTH, "height": 800})
    try:
        page = context.new_page()
        page.set_content(source)
        page.evaluate("document.fonts.ready.then(() => true)")
        boxes = page.evaluate("[...document.querySelectorAll('body > div > span')]"
                              ".map(s => { const r = s.getBoundingClientRect(); return [r.left, r.width]; })")
        used = _platform_fonts(context, page, len(samples))
        pdf = page.pdf(prefer_css_page_size=True, print_background=False)
    finally:
        context.close()
    bands: list[list[Glyph]] = [[] for _ in samples]
    baselines: dict[int, float] = {}
    for base, gid, x, y in drawn_glyphs(pdf):
        band = int(y // LINE)
        if base not in names:
            raise ValueError(f"Chromium drew {samples[band].text!r} partly in {base}, a font it was not given")
        baseline = baselines.setdefault(band, y)
        bands[band].append(Glyph(gid, names[base], (x - boxes[band][0]) / SIZE, (baseline - y) / SIZE))
    # Chromium draws a line's runs in visual order, left to right, and each run's glyphs in the
    # order HarfBuzz left them, visual too: drawing order is visual order (sorting by x would not
    # be: a mark can sit left of the glyph before it)
    return [Rendered(s, box[1] / SIZE, tuple(g), tuple(f["postScriptName"] for f in u),
                     tuple(f["isCustomFont"] for f in u))
            for s, box, g, u in zip(samples, boxes, bands, used)]


def _platform_fonts(context, page, count: int) -> list[list[dict]]:
    """For each sample's span, the fonts Chromium used to draw it (DevTools protocol)."""
    cdp = context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    used = []
    for i in range(count):
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": f"#s{i} > span"})["nodeId"]
        used.append(cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"])
    cdp.detach()
    return used
