"""Sphinx extension: what each page downloads, and no more.

- The vendored Vega bundle (vega-bundle.js, ~0.53 MB: Vega's runtime and Vega-Tooltip, which make
  the charts live: the price slider, tooltips; lib/site/vega_bundle.py) and calculator.js (a
  calculator's state in the address) load only on pages that hold a live chart (a calculator, a
  slider: class "vega-chart"; the other charts are pictures that need no script,
  lib/site/charts.py), and there only once a live chart comes near the screen or the reader reaches
  for it (LOADER): until then the chart is its first paint, an SVG drawn when the book was built.
  ledger.js (the ledger's filter and sorting) loads only on the ledger page.
- pydata-sphinx-theme draws its icons with Font Awesome: a 1.49 MB script (left out by
  book/_templates/static/webpack-macros.html) or a 156 KB web font and ~86 KB of CSS rules for
  ~2,000 icons. The pages show about fifteen; this extension draws those with CSS masks, from the
  solid icons' SVG paths in the theme's own fontawesome.js, and leaves the rest out of the site.

- myst-nb's CSS loses its 34 KB of colours for ANSI escape codes in printed output, which no page
  has (kept if one ever does).

- The theme's CSS (pydata-sphinx-theme.css, ~0.3 MB, most of it Bootstrap's) and sphinx-book-theme's
  keep only the rules whose selectors can match the built pages, as PurgeCSS (npm) decides from every
  page and every script of the site (the classes the theme's scripts add, such as the sidebars' on
  a phone, are words in those scripts). The source maps of the theme's files go: they map the
  files as the theme ships them, no longer as the site serves them.

- A page's six style sheets are served as one file (one_stylesheet): one request before the first
  paint instead of six.

The largest asset that remains on every page: bootstrap.js (~80 KB: dropdowns, tooltips, the
sidebars on a phone).
"""

from __future__ import annotations

import html
import json
import os
import re
import zlib
import shutil
from pathlib import Path
from urllib.parse import quote

import subprocess

from sphinx.application import Sphinx

from lib.core.words import words

PURGECSS = Path(__file__).resolve().parents[2] / "node_modules" / ".bin" / "purgecss"
# The theme's style sheets that PurgeCSS trims, in the site's _static/styles.
PURGED = ("pydata-sphinx-theme.css", "sphinx-book-theme.css")
SOURCE_MAP = re.compile(r"\n?/[*/]# sourceMappingURL=\S+(?: \*/)?\s*$")

CHART = 'class="vega-chart"'
LEDGER = "ledger"
# Font Awesome class names that are not icons.
NOT_ICONS = {"solid", "regular", "brands", "lg", "xs", "sm", "xl", "2x", "3x", "fw", "spin", "pulse", "border",
             "inverse", "flip", "rotate", "beat", "fade", "bounce", "shake", "stack", "ul", "li", "pull-left",
             "pull-right", "sharp", "duotone", "light", "thin", "kit"}


# Each live chart's script (lib/site/charts.py, offline_renderer) calls window.bookChart(box, spec,
# locale) once the page is parsed, for the promise of its drawn view. Until the Vega bundle is here,
# window.bookChart is this page's stand-in: it keeps the chart's first paint (its SVG, drawn when the
# book was built) until the chart comes within a screen of the window (IntersectionObserver), or
# the reader reaches for it (focus, a tap), then loads the bundle and calculator.js once (in parallel,
# run in order) and has the bundle's bookChart draw it. So a page whose live charts are further down
# paints and settles with no script of Vega's (Lighthouse, tests/lighthouse.py), and a reader who
# scrolls there finds the chart drawn. Inline: a request of its own would come before the first paint.
LOADER = """(function () {
  var scripts = SCRIPTS, loaded = null, draw = null, waiting = new Map();
  function load() {
    if (!loaded) loaded = Promise.all(scripts.map(function (url) {
      return new Promise(function (done, failed) {
        var script = document.createElement("script");
        script.src = url; script.async = false; script.onload = done;
        script.onerror = function () { failed(new Error("could not load " + url)); };
        document.head.appendChild(script);
      });
    })).then(function () { draw = window.bookChart; window.bookChart = later; });
    return loaded;
  }
  var near = window.IntersectionObserver ? new IntersectionObserver(function (entries) {
    entries.forEach(function (entry) { if (entry.isIntersecting && waiting.has(entry.target)) waiting.get(entry.target)(); });
  }, {rootMargin: "100% 0px"}) : null;
  function later(box, spec, locale) {
    return new Promise(function (drawn, failed) {
      function go() {
        if (!waiting.delete(box)) return;
        if (near) near.unobserve(box);
        load().then(function () { return draw(box, spec, locale); }).then(drawn, failed);
      }
      waiting.set(box, go);
      box.addEventListener("focusin", go, {once: true});
      box.addEventListener("pointerdown", go, {once: true});
      if (near) near.observe(box); else go();
    });
  }
  window.bookChart = later;
})();"""


def own_static(app: Sphinx, name: str | Path) -> Path | None:
    """The book's own file `name` of _static (book/_static), as lib.site.build copies it to the site
    after Sphinx (whose copy may be an earlier build's: Sphinx 7.4 does not copy a static file again)."""
    found = [Path(app.confdir, folder, name).resolve() for folder in app.config.html_static_path]
    return next((path for path in found if path.is_file()), None)


def static_url(app: Sphinx, context: dict, name: str) -> str:
    """The address of a file of _static from the page, with the checksum Sphinx gives its own tags
    (of the file the site serves)."""
    content = (own_static(app, name) or Path(app.outdir) / "_static" / name).read_bytes().translate(None, b"\r")
    return f"{context['pathto']('_static/' + name, resource=True)}?v={zlib.crc32(content):08x}"


def on_page_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    body = context.get("body", "")
    # docutils writes the bibliography as <div role="list"> of role="doc-biblioentry" items, a
    # DPUB-ARIA role deprecated since 1.1 that axe-core does not accept as a list's child
    # (aria-required-children, critical). Plain list items keep the list readable.
    body = context["body"] = body.replace('role="doc-biblioentry"', 'role="listitem"')
    if CHART in body:
        # No script tag: the page's LOADER fetches them when a live chart is about to be seen.
        scripts = ["vega-bundle.js"] + (["calculator.js"] if "window.bookCalculator" in body else [])
        urls = [static_url(app, context, name) for name in scripts]
        app.add_js_file(None, body=LOADER.replace("SCRIPTS", json.dumps(urls)))
        # A chart wider than a phone scrolls inside its own box (book.css), which keyboard users
        # reach (tabindex) and which says so on a narrow screen (the language's words). The box
        # carries the chart's text alternative (its description) as aria-label (lib/site/charts.py).
        hint = html.escape(words(app.config.language)["site"]["chart_scroll_hint"])
        body = context["body"] = body.replace(CHART, f'{CHART} tabindex="0" data-scroll-hint="{hint}"')
    if re.search(r'<table[^>]*class="[^"]*\bledger\b', body):
        app.add_js_file("ledger.js")
    # The live widgets run in Jupyter and on Binder only (their cells are left out of the pages): the
    # state myst-nb writes for them (14-16 KB of random model ids a page when the notebooks are
    # executed by the build) would make two builds of one commit differ and serve nothing.
    scripts = context.get("script_files", [])
    scripts[:] = [a for a in scripts if getattr(a, "attributes", {}).get("type") != "application/vnd.jupyter.widget-state+json"]
    # docutils' HTML5 writer adds a viewport tag of its own to the page's meta tags, beside the one
    # Sphinx's layout writes: one is enough.
    context["metatags"] = re.sub(r'<meta name="viewport"[^>]*>\n?', "", context.get("metatags", ""))
    if pagename != "search":
        # Sphinx's search-term highlighter (5 KB) serves only a page opened from the search results,
        # and so do the Spanish strings of its scripts (translations.js, 4 KB: "Hide Search Matches"
        # and the search page's messages; doctools.js writes its own strings untranslated).
        assets = context.get("script_files", [])
        assets[:] = [a for a in assets if not re.search(r"sphinx_highlight|translations\.js",
                                                        str(getattr(a, "filename", a)))]
    if 'class="sd-' not in body:
        # sphinx-design's CSS and tab script (62 KB) serve only its components (cards, tabs, grids).
        # The lists are this page's own copies: Sphinx restores them after each page.
        for key in ("css_files", "script_files"):
            assets = context.get(key, [])
            assets[:] = [a for a in assets if not re.search(r"sphinx-design|design-tabs", str(getattr(a, "filename", a)))]


def solid_icons(fontawesome_js: str) -> dict[str, tuple[int, int, str, str]]:
    """name -> (width, height, SVG path, code point in the web font) of the solid ("fas") icons defined in
    fontawesome.js."""
    end = fontawesome_js.index('d("fas",p)')
    start = fontawesome_js.rindex('"fas"===c&&d("fa",l)}var p=', 0, end)
    pack = fontawesome_js[start:end]
    icons = {}
    for m in re.finditer(r'(?:"([a-z0-9-]+)"|([a-z0-9]+)):\[(\d+),(\d+),\[[^\]]*\],"([0-9a-f]+)","([^"]+)"\]', pack):
        icons[m.group(1) or m.group(2)] = (int(m.group(3)), int(m.group(4)), m.group(6), m.group(5))
    return icons


def icon_mask(width: int, height: int, path: str) -> str:
    """The CSS that draws an icon as a mask of its SVG path, in the text's colour, as tall as a letter."""
    svg = f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {width} {height}'><path d='{path}'/></svg>"
    # Drawn in the content box: a rule may give the icon padding (the theme's chevron after "Contents").
    mask = 'url("data:image/svg+xml,' + quote(svg, safe=" =:/'.,-") + '") no-repeat center / contain content-box'
    return (f'content:"";display:inline-block;width:{width / height:.4g}em;height:1em;'
            f"vertical-align:-0.125em;background-color:currentColor;mask:{mask}")


def icon_css(used: set[str], icons: dict) -> str:
    rules = ["/* Font Awesome Free 6 solid icons (CC BY 4.0, fontawesome.com/license/free), drawn as CSS"
             " masks by book/_ext/assets.py */"]
    for name in sorted(used):
        if name not in icons:
            continue
        width, height, path, _ = icons[name]
        rules.append(f".fa-{name}::before{{{icon_mask(width, height, path)}}}")
    return "\n".join(rules) + "\n"


# A rule of the theme's that writes an icon as a character of Font Awesome's web font, which the site
# leaves out (sphinx-book-theme's chevron after the page's "Contents" once its sidebar folds away).
FONT_GLYPH = re.compile(r'content:"\\(f[0-9a-f]{3})";font-family:Font Awesome\\ 6 Free;font-weight:900')


def glyphs_as_masks(css: str, icons: dict) -> str:
    """`css` with each icon written as a character of the web font drawn as a mask instead, as every
    other icon is; a character no solid icon has stays, and tests/test_site.py names it."""
    by_code = {code: (width, height, path) for width, height, path, code in icons.values()}
    return FONT_GLYPH.sub(lambda m: icon_mask(*by_code[m.group(1)]) if m.group(1) in by_code else m.group(0), css)


def without_ansi_colours(css: str) -> str:
    """myst-nb's CSS without its rules for ANSI-coloured output (`div.highlight .-Color…`) and the
    comments that head them."""
    comment = r"/\*[^*]*\*+(?:[^/*][^*]*\*+)*/\s*"
    return re.sub(rf"(?:{comment})*div\.highlight \.-Color[^{{]*\{{[^}}]*\}}\s*", "", css)


def theme_static() -> Path:
    import pydata_sphinx_theme

    return Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme" / "static"


def on_build_finished(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir)
    static = out / "_static"
    source = theme_static()
    used = set()
    ansi = False
    for page in out.rglob("*.html"):
        text = page.read_text(encoding="utf8")
        for classes in re.findall(r'class="([^"]*\bfa[srb]?\b[^"]*|[^"]*\bfa-solid\b[^"]*)"', text):
            used |= {c[3:] for c in classes.split() if c.startswith("fa-")} - NOT_ICONS
        ansi = ansi or re.search(r'class="[^"]*-Color\b', text) is not None
    if not ansi:
        # myst-nb's CSS is 43 KB, 34 KB of it the colours of ANSI escape codes in a cell's printed
        # output (the "-Color" spans of its ANSI lexer, 16 and 256 colours): no page prints one.
        # From myst-nb's own file again (the site's copy may be an earlier build's, already trimmed).
        import myst_nb

        css = (Path(myst_nb.__file__).parent / "static" / "mystnb.css").read_text(encoding="utf8")
        for copy in static.glob("mystnb.*.css"):
            copy.write_text(without_ansi_colours(css), encoding="utf8")
    # From the theme's own CSS (not the copy in the site, which an earlier build already trimmed):
    # the web fonts and one `content` rule per icon go; the icons the pages use come back as masks.
    text = (source / "styles" / "pydata-sphinx-theme.css").read_text(encoding="utf8")
    text = re.sub(r"@font-face\{[^}]*Font Awesome[^}]*\}", "", text)
    text = re.sub(r'(?:\.fa-[a-z0-9-]+:(?:before|after),?)+\{content:"[^"]*"\}', "", text)
    icons = solid_icons((source / "scripts" / "fontawesome.js").read_text(encoding="utf8"))
    (static / "styles" / "pydata-sphinx-theme.css").write_text(text + "\n" + icon_css(used, icons), encoding="utf8")
    book_theme = static / "styles" / "sphinx-book-theme.css"
    book_theme.write_text(glyphs_as_masks(book_theme.read_text(encoding="utf8"), icons), encoding="utf8")
    for leftover in static.glob("scripts/fontawesome.js*"):
        leftover.unlink()
    shutil.rmtree(static / "vendor" / "fontawesome", ignore_errors=True)
    purge_theme_css(out)
    lighter_head(out)


# Scripts of Sphinx's and the theme's that each page's head loads before its first paint, and that
# wait for the page to be parsed anyway (doctools.js, sphinx-book-theme.js: their handlers run on
# DOMContentLoaded or on a click): deferred, they block no paint.
DEFERRABLE = re.compile(r'<script src="([^"]*_static/(?:doctools\.js|scripts/sphinx-book-theme\.js)[^"]*)"></script>')
OPTIONS = re.compile(r'<script src="[^"]*_static/documentation_options\.js[^"]*"></script>')
IMPORT = re.compile(r'@import "\.\./basic\.css";')


def lighter_head(out: Path) -> None:
    """What a page needs before its first paint, in fewer requests, none of them in a chain: the
    theme's theme.css with Sphinx's basic.css in it (it imported it: one request after another); the
    few lines of documentation_options.js in the page (the page's next script sets a field of it);
    doctools.js and sphinx-book-theme.js deferred. Lighthouse (tests/lighthouse.py) counts each."""
    for static in {p.parent for p in out.rglob("_static/basic.css")}:
        theme = static / "styles" / "theme.css"
        if theme.exists() and IMPORT.search(theme.read_text(encoding="utf8")):
            basic = (static / "basic.css").read_text(encoding="utf8")
            basic = re.sub(r"url\((?![\"']?(?:data:|/|https?:))[\"']?([^)\"']+)[\"']?\)", r"url(../\1)", basic)
            theme.write_text(IMPORT.sub(lambda _: basic, theme.read_text(encoding="utf8")), encoding="utf8")
    options = {}
    for page in out.rglob("*.html"):
        text = page.read_text(encoding="utf8")
        found = OPTIONS.search(text)
        if found is None:
            continue
        source = (page.parent / re.search(r'src="([^"?]+)', found.group(0)).group(1)).resolve()
        if source not in options:
            options[source] = source.read_text(encoding="utf8").strip()
        lighter = OPTIONS.sub(lambda _: f"<script>{options[source]}</script>", text, count=1)
        if "searchtools.js" not in text:  # the search page's script needs doctools.js as it runs
            lighter = DEFERRABLE.sub(r'<script defer src="\1"></script>', lighter)
        if lighter != text:
            page.write_text(lighter, encoding="utf8")


def purge_theme_css(out: Path) -> None:
    """The theme's style sheets (PURGED) with only the rules that can match a page of `out`, by
    PurgeCSS over every page and script of the site; without the theme's source maps."""
    if not PURGECSS.exists():
        raise RuntimeError(f"{PURGECSS} is missing: run `npm ci` (make book and make test do)")
    static = out / "_static"
    styles = [static / "styles" / name for name in PURGED]
    subprocess.run([str(PURGECSS), "--css", *map(str, styles), "--content", str(out / "**" / "*.html"),
                    str(static / "**" / "*.js"), "--output", str(static / "styles")], check=True,
                   capture_output=True)
    for mapped in [*static.glob("styles/*.css"), *static.glob("scripts/*.js")]:
        text = mapped.read_text(encoding="utf8")
        if SOURCE_MAP.search(text):
            mapped.write_text(SOURCE_MAP.sub("\n", text), encoding="utf8")
    for source_map in [*static.glob("styles/*.map"), *static.glob("scripts/*.map")]:
        source_map.unlink()



# Pygments writes every token of a code cell in a <span> with its token's class, and the theme's
# pygments.css colours ~70 classes in each colour mode. The tokens whose colour is the code block's
# own, in every mode (names, punctuation and spaces in the book's styles), look the same without
# their <span>: they are written as plain text (a third of a chapter's code markup), and the
# stylesheet keeps the rules of the classes the pages use.
TOKEN_RULE = re.compile(r'html\[data-theme="(\w+)"\] \.highlight \.([\w-]+) \{([^}]*)\}[^\n]*\n?')
BASE_RULE = re.compile(r'html\[data-theme="(\w+)"\] \.highlight \{[^}]*?color: (#[0-9A-Fa-f]+)')
HIGHLIGHT = re.compile(r'(<div class="highlight"><pre>)(.*?)(</pre>)', re.S)


def plain_token_classes(css: str) -> set[str]:
    """The token classes whose only style is the code block's own colour, in every colour mode."""
    base = dict(BASE_RULE.findall(css))
    styles: dict[str, dict[str, str]] = {}
    for mode, name, body in TOKEN_RULE.findall(css):
        styles.setdefault(name, {})[mode] = body.strip().rstrip(";").strip()
    return {name for name, by_mode in styles.items()
            if base and set(by_mode) == set(base) and all(by_mode[m] == f"color: {base[m]}" for m in base)}


def unwrap_plain_tokens(page: str, plain: set[str]) -> tuple[str, set[str]]:
    """The page with the plain tokens' spans removed from its code blocks, and the token classes left."""
    if not plain:
        return page, set()
    span = re.compile(r'<span class="(' + "|".join(map(re.escape, sorted(plain))) + r')">([^<]*)</span>')
    used: set[str] = set()

    def block(match: re.Match) -> str:
        code = span.sub(r"\2", match.group(2))
        used.update(re.findall(r'<span class="([\w-]+)">', code))
        return match.group(1) + code + match.group(3)

    return HIGHLIGHT.sub(block, page), used


def keep_token_rules(css: str, used: set[str]) -> str:
    """pygments.css with the rules of token classes no page uses left out (the others kept whole)."""
    return TOKEN_RULE.sub(lambda m: m.group(0) if m.group(2) in used else "", css)


def lighten_code(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir)
    pygments = out / "_static" / "pygments.css"
    if not pygments.exists():
        return
    css = pygments.read_text(encoding="utf8")
    plain, used = plain_token_classes(css), set()
    for page in out.rglob("*.html"):
        text = page.read_text(encoding="utf8")
        lighter, classes = unwrap_plain_tokens(text, plain)
        used |= classes
        if lighter != text:
            page.write_text(lighter, encoding="utf8")
    pygments.write_text(keep_token_rules(css, used), encoding="utf8")


# A page's style sheets (the theme's two, pygments.css, sphinx-book-theme's, myst-nb's, book.css) all
# block its first paint, each a request of its own on a phone's connection: they are served as one
# file, their rules in the same order. Sphinx writes again only the pages that changed, so the
# joined file keeps its name from build to build (from the sheets it joins, which a list beside it
# names: every build joins them afresh, for the pages written earlier too), and each page's link
# to it carries its content's checksum, as Sphinx's own links do.
STYLESHEET = re.compile(r'<link [^>]*\brel="stylesheet"[^>]*>\n?')
JOINED = re.compile(r'(<link rel="stylesheet" href="[^"]*styles/(book-[0-9a-f]{8})\.css)(?:\?v=[0-9a-f]+)?(" />)')
CHARSET = re.compile(r'@charset "[^"]*";\s*')
RELATIVE_URL = re.compile(r"""url\((?!\s*['"]?(?:data:|/|#|[a-z]+:))\s*(['"]?)([^)'"]+)\1\s*\)""")


def joined_css(app: Sphinx, static: Path, sheets: list[str]) -> str:
    """The sheets (paths in `static`) as one, for _static/styles: the book's own (book.css) as
    lib.site.build serves them (from the book, minified), relative addresses rewritten."""
    from lib.site.build import minified_css

    parts = []
    for name in sheets:
        source = own_static(app, name)
        css = minified_css(source.read_text(encoding="utf8")) if source else (static / name).read_text(encoding="utf8")
        folder = (static / name).parent
        parts.append(RELATIVE_URL.sub(lambda m: "url({0}{1}{0})".format(m.group(1), Path(os.path.relpath(
            folder / m.group(2), static / "styles")).as_posix()), CHARSET.sub("", css)))
    return '@charset "UTF-8";\n' + "\n".join(parts)


def one_stylesheet(app: Sphinx, exception: Exception | None) -> None:
    """Each page's style sheets as one, _static/styles/book-<checksum of their names>.css, beside
    the list of the sheets it joins (.txt); the sheets themselves stay (the tests read some)."""
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir).resolve()
    static = out / "_static"
    pages = [page for page in out.rglob("*.html") if "_static" not in page.relative_to(out).parts]  # not templates
    groups = {listed.stem: listed.read_text(encoding="utf8").split() for listed in static.glob("styles/book-*.txt")}
    for page in pages:
        text = page.read_text(encoding="utf8")
        links = STYLESHEET.findall(text[:text.find("</head>")])
        hrefs = [re.search(r'href="([^"?#]+)', link).group(1) for link in links]
        if len(links) < 2 or not all((page.parent / href).resolve().is_relative_to(static) for href in hrefs):
            continue
        sheets = [(page.parent / href).resolve().relative_to(static).as_posix() for href in hrefs]
        name = f"book-{zlib.crc32(' '.join(sheets).encode()):08x}"
        groups[name] = sheets
        href = Path(os.path.relpath(static / "styles" / f"{name}.css", page.parent)).as_posix()
        first = text.index(links[0])
        text = text[:first] + f'<link rel="stylesheet" href="{href}" />\n' + STYLESHEET.sub("", text[first:], count=len(links))
        page.write_text(text, encoding="utf8")
    checksums = {}
    for name, sheets in groups.items():
        css = joined_css(app, static, sheets)
        (static / "styles" / f"{name}.css").write_text(css, encoding="utf8")
        (static / "styles" / f"{name}.txt").write_text("\n".join(sheets) + "\n", encoding="utf8")
        checksums[name] = f"{zlib.crc32(css.encode()):08x}"
    for page in pages:
        text = page.read_text(encoding="utf8")
        linked = JOINED.sub(lambda m: f"{m.group(1)}?v={checksums[m.group(2)]}{m.group(3)}"
                            if m.group(2) in checksums else m.group(0), text)
        if linked != text:
            page.write_text(linked, encoding="utf8")


def keep_the_themes_observer_quiet(app, pagename, templatename, context, doctree) -> None:
    """sphinx-book-theme 1.3.0 hides the secondary sidebar while a full-width block is in view, and
    throws ("Cannot read properties of null (reading 'classList')") on a page without one, which
    pydata-sphinx-theme leaves out where a page has no contents to list (the ledger). Such a page
    gets an empty, hidden one in its HTML, there before any script runs."""
    meta = context.get("meta") or {}
    if "html_theme.sidebar_secondary.remove" in meta or not context.get("secondary_sidebar_items"):
        context["body"] = context.get("body", "") + '<div class="bd-sidebar-secondary" hidden></div>'


def setup(app: Sphinx) -> dict:
    app.connect("html-page-context", on_page_context)
    # After pydata-sphinx-theme's own handler, which decides whether the page has a secondary sidebar.
    app.connect("html-page-context", keep_the_themes_observer_quiet, priority=900)
    app.connect("build-finished", on_build_finished)
    # After pydata-sphinx-theme writes its light and dark pygments.css (at build-finished too).
    app.connect("build-finished", lighten_code, priority=900)
    app.connect("build-finished", one_stylesheet, priority=950)  # the trimmed sheets, joined
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
