"""The one font every chart writes with, in the static first paint (vl-convert) and in the live chart
(the browser): DejaVu Sans Condensed, subset to the characters the charts print and renamed FAMILY
(the licence asks a modified font to take another name, and a name of its own is never confused with
a DejaVu font the machine may have, of another version).

vl-convert measures a chart's text with the fonts it finds: its bundled Liberation Sans lacks the
superscript digits of "10²⁴", so they came from whatever system font had them, and an SVG committed on
one machine differed by a few pixels on another. The book ships, vendored:

- lib/data/fonts/*.ttf, registered with vl-convert (`register`, called by lib.site.charts on import, so
  before any chart is rendered; vl-convert reads TrueType, not WOFF2);
- book/_static/fonts/*.woff2, the same glyphs and advances for the browser (book.css's @font-face);
- LICENSE beside each: DejaVu's (Bitstream Vera's and Arev's terms; DejaVu's changes public domain).

Why this font: of the freely licensed fonts the registries carry, DejaVu is the one with every
character the charts write, superscript digits and signs included (the Google Fonts subsets that
@fontsource packages hold lack ⁴–⁹ and U+202F; IBM Plex lacks ⁺ ⁻), and its Condensed width writes the
charts' text about as wide as Liberation Sans did (0.473 em a character against 0.466), so no chart
grows past a phone's column and no label is cut (DejaVu Sans, 13% wider, cut six).

Where it comes from: the npm package dejavu-fonts-ttf (SOURCE), DejaVu's 2.37 release in TrueType.
`make fonts` (python -m lib.site.fonts) makes the four files again from it with fontTools, for
`characters()`: every character of every chart of the committed notebooks and of the words tables,
the digits and signs the charts' number formats add, and the few letters and signs of either
language that a chart's words may bring. Run it when a chart needs a character the font lacks
(tests/test_chart_font.py says which), then `make notebooks`.
"""

from __future__ import annotations

import argparse
import functools
import html
import json
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FAMILY = "DejaVu Sans Condensed Charts"
# What every chart names (Vega's config.font): the shipped font, and where it is absent (a chart drawn
# in JupyterLab, which has not the book's CSS) the browser's sans-serif.
STACK = f"{FAMILY}, sans-serif"
FONTS = ROOT / "lib" / "data" / "fonts"
WEB_FONTS = ROOT / "book" / "_static" / "fonts"
# Vega writes titles in bold, the rest in the regular weight: (style name, source file, shipped file stem)
WEIGHTS = {400: ("Book", "DejaVuSansCondensed.ttf", "DejaVuSansCondensedCharts"),
           700: ("Bold", "DejaVuSansCondensed-Bold.ttf", "DejaVuSansCondensedCharts-Bold")}
SOURCE = "dejavu-fonts-ttf@2.37.3"
NOTEBOOKS = ("book/es", "book/en")
WORDS = "lib/data/words"

# Printable ASCII: any of it may appear in a chart's words or numbers.
ASCII = "".join(chr(c) for c in range(0x20, 0x7F))
# What Vega and d3-format write besides a chart's own strings: the digits, d3's minus sign (U+2212)
# for a negative number, the ellipsis of a label cut at its labelLimit.
NUMBER_SIGNS = "0123456789\u2212\u2026"
# Letters and signs of the two languages that a chart's words (lib/data/words) or Babel's formats may
# bring: Spanish letters, inverted marks, quotes, euro, dashes, no-break spaces (U+00A0, and U+202F,
# which CLDR puts in some English and Spanish formats), superscript digits and signs (fmt.scientific).
LANGUAGE_SIGNS = ("áéíóúüñÁÉÍÓÚÜÑ¿¡«»“”‘’€–—·×→\u00a0\u202f"
                  "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻")


# A JavaScript promise, settled once the browser has the font in both weights (document.fonts), for
# the live chart to measure its text with it as the first paint did.
LOADED_JS = (f"(document.fonts ? Promise.all([document.fonts.load('12px \"{FAMILY}\"'),"
             f" document.fonts.load('bold 12px \"{FAMILY}\"')]) : Promise.resolve())")


_registered: list[Path] = []


@functools.cache
def _advances(bold: bool) -> tuple[dict[int, int], int]:
    from fontTools.ttLib import TTFont

    font = TTFont(FONTS / f"{WEIGHTS[700 if bold else 400][2]}.ttf")
    glyphs, metrics = font.getBestCmap(), font["hmtx"].metrics
    return {code: metrics[name][0] for code, name in glyphs.items()}, font["head"].unitsPerEm


def text_width(text: str, size: float, bold: bool = False) -> float:
    """How wide the charts' font writes `text` at `size` px (its glyphs' advances, no kerning), so a
    chart can choose where a label has room before Vega draws it."""
    advances, per_em = _advances(bold)
    missing = [c for c in text if ord(c) not in advances]
    if missing:
        raise ValueError(f"the charts' font has no {''.join(missing)!r}: run make fonts")
    return sum(advances[ord(c)] for c in text) * size / per_em


def register() -> None:
    """Make the shipped font known to vl-convert (once a process; before any chart is rendered)."""
    if not _registered:
        import vl_convert as vlc

        vlc.register_font_directory(str(FONTS))
        _registered.append(FONTS)


# ---------------------------------------------------------------- the charts of the committed notebooks

CHART_OUTPUT = re.compile(
    r'<div id="(?P<id>chart-[0-9a-z-]+)" class="vega-chart" role="group" aria-label="(?P<label>[^"]*)">'
    r'(?P<svg><svg.*?</svg>)</div>\n<script>.*?window\.bookChart\(el, (?P<spec>\{.*\}), (?P<locale>\{"currency".*?\})\); \};', re.S)

# A static chart's picture (lib.site.charts.picture), and the mime type of its spec beside it.
PICTURE_SVG = re.compile(r'<figure id="chart-[0-9a-z-]+" class="chart-picture"><div [^>]*>(?P<svg><svg.*?</svg>)</div>', re.S)
PICTURE_MIME = "application/vnd.train-cost-book.chart+json"


def committed_charts(root: Path = ROOT) -> list[dict]:
    """Every chart in the committed outputs of the chapter notebooks of both languages:
    {"where" (notebook:cell), "spec" (as rendered: the live Vega spec and its description), "locale"
    (the number locale the chart is drawn with), "svg" (the committed first paint)}."""
    found = []
    for folder in NOTEBOOKS:
        for path in sorted((root / folder).glob("*.ipynb")):
            cells = json.loads(path.read_text(encoding="utf8"))["cells"]
            for n, cell in enumerate(cells):
                for output in cell.get("outputs", []):
                    text = output.get("data", {}).get("text/html")
                    text = "".join(text) if isinstance(text, list) else text
                    picture = output.get("data", {}).get(PICTURE_MIME)
                    if text and picture and 'class="chart-picture"' in text:
                        # A static chart (lib.site.charts.picture): its spec beside its SVG.
                        svg = PICTURE_SVG.search(text)
                        if svg is None:
                            raise ValueError(f"{path.relative_to(root)}, cell {n}: a chart picture in no known form")
                        found.append({"where": f"{path.relative_to(root)}:{n}",
                                      "spec": picture["spec"] | {"description": picture["description"]},
                                      "locale": picture["locale"], "svg": svg["svg"]})
                        continue
                    if not text or 'class="vega-chart"' not in text:
                        continue
                    match = CHART_OUTPUT.search(text)
                    if match is None:
                        raise ValueError(f"{path.relative_to(root)}, cell {n}: a chart output in no known form")
                    spec = json.loads(match["spec"])
                    if match["label"]:
                        spec["description"] = html.unescape(match["label"])
                    found.append({"where": f"{path.relative_to(root)}:{n}", "spec": spec,
                                  "locale": json.loads(match["locale"]), "svg": match["svg"]})
    return found


def spec_strings(spec) -> list[str]:
    """Every string of a chart's spec: its titles, labels, data and the literals of its expressions
    (a superset of the text it can write)."""
    if isinstance(spec, str):
        return [spec]
    if isinstance(spec, dict):
        return [s for key, value in spec.items() for s in spec_strings(key) + spec_strings(value)]
    if isinstance(spec, list):
        return [s for value in spec for s in spec_strings(value)]
    return []


def chart_characters(chart: dict) -> set[str]:
    """What a chart (of committed_charts) can write: the characters of its spec's strings, of its
    number locale (decimal and grouping signs, currency words) and the digits and signs that Vega's
    number formats add."""
    locale = chart["locale"]
    return set("".join(spec_strings(chart["spec"]) + spec_strings(locale))) | set(NUMBER_SIGNS)


def characters(root: Path = ROOT) -> set[str]:
    """The characters the shipped font holds: printable ASCII, the languages' signs, every character
    of the words tables (lib/data/words, where every word a chart writes comes from: a new chart of
    words already there needs no new font) and every character every committed chart can write."""
    needed = set(ASCII) | set(NUMBER_SIGNS) | set(LANGUAGE_SIGNS)
    for table in sorted((root / WORDS).glob("*.toml")):
        needed |= set(table.read_text(encoding="utf8"))
    for chart in committed_charts(root):
        needed |= chart_characters(chart)
    return {c for c in needed if c.isprintable() or c in "\u00a0\u202f"}


# ---------------------------------------------------------------- making the shipped files

def _source(folder: Path) -> Path:
    """SOURCE's package folder (npm pack, into `folder`): ttf/ and LICENSE."""
    subprocess.run(["npm", "pack", SOURCE, "--silent", "--pack-destination", str(folder)], check=True,
                   stdout=subprocess.DEVNULL)
    (tarball,) = folder.glob("*.tgz")
    with tarfile.open(tarball) as archive:
        archive.extractall(folder, filter="data")
    return folder / "package"


def _rename(font, style: str, postscript: str) -> None:
    """The family and the names a font is looked up by, as FAMILY (the licence's condition for a
    modified font, and no clash with an installed DejaVu Sans)."""
    name = font["name"]
    full = FAMILY if style == "Book" else f"{FAMILY} {style}"
    version = name.getDebugName(5)
    for record_id in (16, 17, 18, 21, 22, 25):
        name.removeNames(nameID=record_id)
    for record_id, value in {1: FAMILY, 2: style, 3: f"{full}; {version}; subset of DejaVu Sans Condensed",
                             4: full, 5: f"{version}; subset of DejaVu Sans Condensed ({SOURCE})",
                             6: postscript}.items():
        name.setName(value, record_id, 3, 1, 0x409)  # Windows' Unicode names only (the Mac ones are dropped)


def make(source: Path, text: str, fonts: Path = FONTS, web_fonts: Path = WEB_FONTS) -> list[Path]:
    """Subset each weight of `source` (a folder of DejaVu's TTF files) to the characters of `text`,
    without hinting (neither vl-convert nor a browser at these sizes needs it), renamed FAMILY: a TTF
    for vl-convert and a WOFF2 for the browser, with the same glyphs and advances. The same inputs
    give the same bytes."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    written = []
    for style, source_file, stem in WEIGHTS.values():
        options = subset.Options()
        options.hinting = False
        options.desubroutinize = True
        options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # copyright, names, version, licence and its URL
        options.drop_tables += ["MATH", "FFTM"]
        font = TTFont(source / source_file, recalcTimestamp=False)
        subsetter = subset.Subsetter(options)
        subsetter.populate(text=text)
        subsetter.subset(font)
        _rename(font, style, stem)
        for folder, flavor, suffix in ((fonts, None, ".ttf"), (web_fonts, "woff2", ".woff2")):
            folder.mkdir(parents=True, exist_ok=True)
            font.flavor = flavor
            target = folder / (stem + suffix)
            font.save(target, reorderTables=True)
            written.append(target)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Make the charts' font files again (lib/data/fonts, book/_static/fonts).")
    parser.add_argument("--source", type=Path, help=f"{SOURCE}'s package folder, unpacked (default: npm pack it)")
    args = parser.parse_args(argv)
    text = "".join(sorted(characters()))
    with tempfile.TemporaryDirectory() as folder:
        package = args.source or _source(Path(folder))
        license_text = (package / "LICENSE").read_text(encoding="utf8")
        written = make(package / "ttf", text)
    for folder in (FONTS, WEB_FONTS):
        (folder / "LICENSE").write_text(license_text, encoding="utf8")
    for path in written:
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size:,} bytes")
    print(f"{len(text)} characters: printable ASCII and {''.join(c for c in text if c not in ASCII)!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
