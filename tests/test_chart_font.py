"""The charts are drawn the same on any machine: every chart writes in the book's own font
(lib/site/fonts.py), which holds every character the charts can write, and vl-convert's render of every
committed chart with the machine's fonts hidden is the committed one.

Without its own font, a glyph missing from vl-convert's bundled Liberation Sans (the superscripts of
"10²⁴") came from a system font: the Spanish costs chart was 477 px wide where Debian's Chromium
fonts are installed and 479 px where they are not, and nbval failed though no number had changed.
"""

from __future__ import annotations

import json
import re
import unicodedata

import pytest
from fontTools.ttLib import TTFont

from lib.site import fonts
from lib.site.charts import first_paint

from .hidden_fonts import ROOT, finish, start

CHARTS = fonts.committed_charts()
SHIPPED = {weight: (fonts.FONTS / f"{stem}.ttf", fonts.WEB_FONTS / f"{stem}.woff2")
           for weight, (_, _, stem) in fonts.WEIGHTS.items()}


def _cmap(path) -> set[str]:
    return {chr(code) for code in TTFont(path).getBestCmap()}


CMAPS = {weight: _cmap(ttf) for weight, (ttf, _) in SHIPPED.items()}


def missing(chart: dict) -> list[str]:
    """The characters a chart can write that a weight of the shipped font lacks, named."""
    lacking = {c for cmap in CMAPS.values() for c in fonts.chart_characters(chart) - cmap}
    return [f"U+{ord(c):04X} {c!r} ({unicodedata.name(c, '?')})" for c in sorted(lacking)]


def test_there_are_charts_to_check():
    assert len(CHARTS) >= 20, [c["where"] for c in CHARTS]
    assert {c["spec"]["usermeta"]["lang"] for c in CHARTS} == {"es", "en"}


@pytest.mark.parametrize("weight", sorted(SHIPPED))
def test_the_browser_and_vl_convert_get_the_same_font(weight):
    """The WOFF2 the browser loads and the TTF vl-convert reads: one family, the same glyphs, the
    same advances and kerning, so text measures alike in both; the licence beside each."""
    ttf, woff2 = (TTFont(path) for path in SHIPPED[weight])
    assert woff2.flavor == "woff2" and ttf.flavor is None
    for font in (ttf, woff2):
        assert font["name"].getDebugName(1) == fonts.FAMILY
        assert font["OS/2"].usWeightClass == weight
    assert ttf.getBestCmap() == woff2.getBestCmap()
    assert ttf["hmtx"].metrics == woff2["hmtx"].metrics
    assert ttf["GPOS"].compile(ttf) == woff2["GPOS"].compile(woff2)
    for folder in (fonts.FONTS, fonts.WEB_FONTS):
        assert "Bitstream Vera" in (folder / "LICENSE").read_text(encoding="utf8")


def test_the_pages_serve_the_font_to_the_browser():
    css = (ROOT / "book" / "_static" / "book.css").read_text(encoding="utf8")
    faces = re.findall(r"@font-face\s*\{([^}]*)\}", css)
    served = {(re.search(r"font-weight:\s*(\d+)", f).group(1), re.search(r'url\("([^"]+)"\)', f).group(1))
              for f in faces if f'"{fonts.FAMILY}"' in f}
    assert served == {(str(weight), f"fonts/{woff2.name}") for weight, (_, woff2) in SHIPPED.items()}


@pytest.mark.parametrize("chart", CHARTS, ids=[c["where"] for c in CHARTS])
def test_every_character_a_chart_can_write_is_in_the_font(chart):
    """Its titles, labels, data, the literals of its expressions and its numbers' signs: a
    character the font lacks would come from whatever font the machine has."""
    assert missing(chart) == [], (f"{chart['where']}: not in {fonts.FAMILY}: {missing(chart)}; "
                                  "run `make fonts`, then `make notebooks`")


@pytest.mark.parametrize("chart", CHARTS, ids=[c["where"] for c in CHARTS])
def test_every_text_of_a_chart_is_in_the_book_font_and_none_is_cut(chart):
    """The chart's config names the font for every style of text (marks, axes, legends, titles: the
    Vega that Vega-Lite's config.font compiles to); its first paint names it once, for every text;
    no label lost its end to a label limit."""
    styles = chart["spec"]["config"]["style"]
    assert {"text", "guide-label", "guide-title", "group-title"} <= set(styles)
    assert {style.get("font") for style in styles.values()} == {fonts.STACK}
    svg = chart["svg"]
    assert re.match(r"<svg [^>]*font-family=\"([^\"]*)\"", svg).group(1) == fonts.STACK
    assert "<text" in svg and not re.search(r"<text[^>]*font-family", svg)
    strings = "".join(fonts.spec_strings(chart["spec"]))
    cut = [t for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg) if t.endswith("…") and t not in strings]
    assert cut == [], f"{chart['where']}: labels cut short: {cut}"


# A 390 px phone's column, less the theme's margins: a calculator's readout fits in it (readout_chart).
PHONE_COLUMN = 358
CALCULATORS = [c for c in CHARTS
               if c["spec"].get("width") == 320 and any("bind" in s for s in c["spec"].get("signals", []))]


def test_every_calculator_fits_a_phones_column():
    assert len(CALCULATORS) >= 8
    wide = {c["where"]: int(re.search(r'width="(\d+)"', c["svg"]).group(1)) for c in CALCULATORS}
    assert {where: width for where, width in wide.items() if width > PHONE_COLUMN} == {}


def test_a_planted_character_the_font_lacks_is_caught():
    """The check above fails when a chart's text brings a character the font does not hold."""
    chart = json.loads(json.dumps(CHARTS[0]))
    chart["spec"]["title"] = {"text": "Coût ₹ ✓"}
    assert missing(chart) == ["U+00FB 'û' (LATIN SMALL LETTER U WITH CIRCUMFLEX)",
                              "U+20B9 '₹' (INDIAN RUPEE SIGN)", "U+2713 '✓' (CHECK MARK)"]


def test_the_first_paint_names_the_font_once():
    svg = ('<svg width="10"><text x="1" font-family="F, sans-serif">a</text>'
           '<text x="2" font-family="F, sans-serif">b</text></svg>')
    assert first_paint(svg) == '<svg font-family="F, sans-serif" width="10"><text x="1">a</text><text x="2">b</text></svg>'
    mixed = svg.replace('b</text>', 'b</text><text font-family="G">c</text>')
    assert first_paint(mixed) == mixed


def test_the_charts_render_as_committed_with_the_machines_fonts_hidden():
    """vl-convert renders every committed chart again where only its bundled fonts and the book's
    own are left (an empty tmpfs over each system font folder, in a mount namespace of that one
    command), in a time zone fourteen hours from UTC and the C locale, and gets the committed first
    paints byte for byte (tests/hidden_fonts.py). Where a mount
    namespace is refused (not root), the same render with the machine's fonts: with every character
    in the shipped font (checked above), no system font can take part in it."""
    run = finish(start())
    if run["refused"] is not None:
        print(f"fonts not hidden ({run['refused']}): rendered with the machine's fonts")
    assert run["status"] == 0, f"{' '.join(run['command'])}:\n{run['stdout'][-3000:]}\n{run['stderr'][-3000:]}"
    result = json.loads(run["stdout"].strip().splitlines()[-1])
    assert result["charts"] == len(CHARTS)
    assert result["differences"] == [], (
        "rendered with the machine's fonts hidden, these charts differ from their committed outputs "
        f"(a glyph from a system font?): {result['differences']}")
