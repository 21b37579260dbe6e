"""Makes book/_static/vega-bundle.js: Vega's runtime alone, and the one function that draws a chart.

The charts are compiled from Vega-Lite to Vega when the book is built (lib.site.charts.live_spec),
so a page needs neither Vega-Lite's compiler nor Vega-Embed (together about 0.35 MB of the bundle
they came in): only Vega's own minified build from the npm registry, of the version vl-convert
draws the first paints with (vega_version: the live chart is drawn by the same Vega), Vega-Tooltip
(the tooltips Vega-Embed showed, which a tap on a phone opens too; its module turned into a script
that takes Vega's own helpers, as_script), and DRAW below.

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

# The tooltips' library, and what of Vega's its module imports.
TOOLTIP = "vega-tooltip@1.1.0"
TOOLTIP_IMPORT = re.compile(r"^import \{ ([\w, ]+) \} from 'vega-util';$", re.M)
TOOLTIP_EXPORT = re.compile(r"^export \{[^}]*\};\s*$", re.M)
# What each chart's script calls (lib.site.charts.offline_renderer), on the site and in JupyterLab
# alike: the chart's box loses its first paint to the live chart, drawn as SVG with the page's
# number style (a d3-format locale), and the promise gives the view to the calculators
# (book/_static/calculator.js). A mark's tooltip is Vega-Tooltip's, on hover and on a tap. The box's class "drawn" says
# the live chart is there, fitted to its box (the tests wait for it).
# The live chart takes its box's width: drawn, it is scaled until it fills the box or its smallest
# text reaches the page's reading size (the box's font size: 16 px, where the charts write 12 px
# and more), never below its own size; the room left is given to the plot (Vega's width), so on a
# desktop's text column a chart is as wide as the text and reads at its size, and on a phone it is
# its first paint, scaled to the column's last pixels. Drawn again when its box's width changes.
DRAW = """
window.bookChart = function (box, spec, numberLocale) {
  var view = new vega.View(vega.parse(spec), {renderer: "svg", locale: {number: numberLocale}});
  var tips = new vegaTooltip.Handler();
  // Vega-Tooltip puts a tooltip wider than the room on either side of the pointer at its left, past
  // the screen's edge on a phone: it is moved back within the screen, 4 px from its edges (book.css
  // keeps it narrower than the screen).
  function tip(handler, event, item, value) {
    tips.call(handler, event, item, value);
    var el = tips.el;
    if (!el || value == null) return;
    var box = el.getBoundingClientRect(), edge = 4;
    el.style.left = Math.max(edge, Math.min(box.left, window.innerWidth - box.width - edge)) + "px";
    el.style.top = Math.max(edge, Math.min(box.top, window.innerHeight - box.height - edge)) + "px";
  }
  view.tooltip(tip);
  // A touch screen has no hover: a tap on a mark shows its tooltip, a tap elsewhere hides it.
  view.addEventListener("click", function (event, item) { tip(null, event, item, item && item.tooltip); });
  box.replaceChildren();
  var plot = view.width(), scale = 1, room = -1;
  function svg() { return box.querySelector(":scope > svg"); }
  function show(width, height) {
    var drawn = svg();
    if (!drawn) return;
    drawn.style.width = Math.floor(width * scale) + "px";
    drawn.style.height = Math.round(height * scale) + "px";
    box.classList.toggle("scrolls", box.scrollWidth > box.clientWidth);
  }
  view.addResizeListener(show);
  function fit() {
    // A box laid out as a grid (the planner's controls beside its readout, book.css) draws the chart in its
    // last column: that column's width is the chart's room.
    var style = getComputedStyle(box), columns = style.display === "grid" ? style.gridTemplateColumns.trim().split(/\\s+/) : [];
    var drawn = svg(), width = columns.length > 1 ? Math.floor(parseFloat(columns[columns.length - 1])) : box.clientWidth;
    if (!drawn || !width || width === room) return Promise.resolve();
    room = width;
    var sizes = Array.prototype.map.call(drawn.querySelectorAll("text"), function (t) {
      return parseFloat(getComputedStyle(t).fontSize); }).filter(function (size) { return size > 0; });
    var frame = drawn.viewBox.baseVal, extra = frame.width - view.width(), natural = plot + extra;
    var most = parseFloat(getComputedStyle(box).fontSize) / (sizes.length ? Math.min.apply(null, sizes) : 12);
    scale = Math.max(1, Math.min(most, width / natural));
    view.width(Math.max(plot, Math.floor(width / scale - extra)));
    return view.runAsync().then(function () { show(drawn.viewBox.baseVal.width, drawn.viewBox.baseVal.height); });
  }
  function follow() {
    box.classList.add("drawn");
    var later = 0;
    if (window.ResizeObserver) new ResizeObserver(function () {
      cancelAnimationFrame(later);
      later = requestAnimationFrame(fit);
    }).observe(box);
    return {view: view};
  }
  return view.initialize(box).runAsync().then(fit).then(follow);
};
"""
HEADER = """/* Vega {version} (github.com/vega/vega), its build/vega.min.js from the npm registry, then
   {tooltip} (github.com/vega/vega-tooltip, the same licence) as a script, then window.bookChart
   (lib/site/vega_bundle.py, DRAW). Made by `make vega`. Loaded only on pages with a chart
   (book/_ext/assets.py). Vega's licence:

{licence}*/
"""


def vega_version() -> str:
    import vl_convert as vlc

    return vlc.get_vega_version()


def shipped_version(text: str) -> str:
    """The Vega version a bundle's header names."""
    return re.match(r"/\* Vega (\S+) ", text).group(1)


def npm_files(package: str, names: tuple[str, ...]) -> dict[str, str]:
    """Files of an npm package (name@version), by their paths in it."""
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(["npm", "pack", package, "--silent", "--pack-destination", folder], check=True,
                       stdout=subprocess.DEVNULL)
        (tarball,) = Path(folder).glob("*.tgz")
        with tarfile.open(tarball) as packed:
            return {name: packed.extractfile(f"package/{name}").read().decode("utf8") for name in names}


def as_script(module: str) -> str:
    """Vega-Tooltip's ES module as a script: its one import taken from Vega (which re-exports
    vega-util), its exports as window.vegaTooltip."""
    if len(TOOLTIP_IMPORT.findall(module)) != 1 or len(TOOLTIP_EXPORT.findall(module)) != 1:
        raise ValueError(f"{TOOLTIP}: not the one import from vega-util and one export this expects")
    body = TOOLTIP_EXPORT.sub("", TOOLTIP_IMPORT.sub(r"const { \1 } = vega;", module))
    body = re.sub(r"^//# sourceMappingURL=.*$", "", body, flags=re.M)  # a map the site does not ship
    return "(function () {\n" + body + "window.vegaTooltip = { Handler: Handler };\n})();\n"


def bundle() -> str:
    version = vega_version()
    files = npm_files(f"vega@{version}", ("build/vega.min.js", "LICENSE"))
    tooltip = npm_files(TOOLTIP, ("build/index.js",))["build/index.js"]
    licence = files["LICENSE"].replace("*/", "* /")
    return (HEADER.format(version=version, tooltip=TOOLTIP, licence=licence) + files["build/vega.min.js"] + "\n"
            + as_script(tooltip) + DRAW.lstrip())


def main() -> int:
    text = bundle()
    BUNDLE.write_text(text, encoding="utf8")
    print(f"{BUNDLE}: {len(text.encode()):,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
