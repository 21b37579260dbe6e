"""Makes book/_static/vega-bundle.js: Vega's runtime alone, and the one function that draws a chart.

The charts are compiled from Vega-Lite to Vega when the book is built (lib.site.charts.live_spec),
so a page needs neither Vega-Lite's compiler nor Vega-Embed (together about 0.35 MB of the bundle
they came in): only Vega's own minified build from the npm registry, of the version vl-convert
draws the first paints with (vega_version: the live chart is drawn by the same Vega), and DRAW below.

    python -m lib.site.vega_bundle      (make vega; needs npm)
"""

from __future__ import annotations

import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from lib.site.lab import BUNDLE

# What each chart's script calls (lib.site.charts.offline_renderer), on the site and in JupyterLab
# alike: the chart's box loses its first paint to the live chart, drawn as SVG with the page's
# number style (a d3-format locale), and the promise gives the view to the calculators
# (book/_static/calculator.js). Vega's own tooltip handler writes a mark's tooltip as its box's
# title. The box's class "drawn" says the live chart is there (the tests wait for it).
DRAW = """
window.bookChart = function (box, spec, numberLocale) {
  var view = new vega.View(vega.parse(spec), {renderer: "svg", locale: {number: numberLocale}});
  box.replaceChildren();
  box.classList.add("drawn");
  return view.initialize(box).runAsync().then(function () { return {view: view}; });
};
"""
HEADER = """/* Vega {version} (github.com/vega/vega), its build/vega.min.js from the npm registry, then
   window.bookChart (lib/site/vega_bundle.py, DRAW). Made by `make vega`. Loaded only on pages
   with a chart (book/_ext/assets.py). Vega's licence:

{licence}*/
"""


def vega_version() -> str:
    import vl_convert as vlc

    return vlc.get_vega_version()


def shipped_version(text: str) -> str:
    """The Vega version a bundle's header names."""
    return re.match(r"/\* Vega (\S+) ", text).group(1)


def vega_package(version: str) -> dict[str, str]:
    """build/vega.min.js and LICENSE of the npm package vega at `version`."""
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(["npm", "pack", f"vega@{version}", "--silent", "--pack-destination", folder], check=True,
                       stdout=subprocess.DEVNULL)
        (tarball,) = Path(folder).glob("*.tgz")
        with tarfile.open(tarball) as package:
            return {name: package.extractfile(f"package/{name}").read().decode("utf8")
                    for name in ("build/vega.min.js", "LICENSE")}


def bundle() -> str:
    version = vega_version()
    files = vega_package(version)
    licence = files["LICENSE"].replace("*/", "* /")
    return HEADER.format(version=version, licence=licence) + files["build/vega.min.js"] + "\n" + DRAW.lstrip()


def main() -> int:
    text = bundle()
    BUNDLE.write_text(text, encoding="utf8")
    print(f"{BUNDLE}: {len(text.encode()):,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
