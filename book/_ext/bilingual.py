"""Sphinx extension: one book, built once per language from the same config and toc.

- lib/data/words/<lang>.toml (through lib.core.words) holds what differs between languages; the
  build's `language` picks the entry, and the page title comes from it.
- Every page of a published build gets absolute hreflang alternates for all languages (a preview,
  whose address is unknown, none: alternate_links), a visible link to the
  same page in the other language, and a link back to the bilingual landing page.
- Every interface word comes from the language's entry: the author in the footer, the
  search box, myst-nb's code toggles, the references' notes (a pybtex style and a
  sphinxcontrib-bibtex reference style per language), and the theme's strings that its
  templates hard-code in English (`theme`: English -> this language, replaced in the
  rendered page only as a whole attribute value or a whole text node).
The site layout it assumes: _build/html/<lang>/<page>.html, landing at _build/html/index.html.
"""

from __future__ import annotations

import datetime as dt
import functools
import html
import re
import subprocess
import textwrap

from docutils import nodes

import pybtex.plugin
from pybtex.database import Entry
from pybtex.style.formatting import toplevel
from pybtex.style.formatting.plain import Style as PlainStyle
from pybtex.style.template import field as bib_field
from pybtex.style.template import href, names, optional, sentence, words
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.errors import ConfigError

from lib.core import fmt
from lib.site.binder import TAG as BINDER_TAG, available as binder_available, launch_url
from lib.core.words import LANGS, words as book_words
from lib.site.references import cited_as, localized_fields, reference_style


# pybtex looks its plugins up among the installed packages' entry points again at every citation
# (importlib.metadata reads every installed distribution's metadata each time: a quarter of a
# language's build). What is installed does not change during a build: each lookup is made once.
# The plugins registered at run time (this extension's styles) are still found first, as before.
_installed_entry_points = pybtex.plugin.entry_points


@functools.lru_cache(maxsize=None)
def _entry_points_once(group: str, name: str | None = None) -> tuple:
    return tuple(_installed_entry_points(group=group, **({} if name is None else {"name": name})))


pybtex.plugin.entry_points = _entry_points_once


def _languages(config: Config) -> dict:
    """Each language's site words, from the book's one table of words per language (lib/data/words)."""
    languages = {lang: book_words(lang)["site"] for lang in LANGS}
    if config.language not in languages:
        raise ConfigError(f"language '{config.language}' has no table of words in lib/data/words ({', '.join(languages)})")
    return languages


def bibliography_style(lang: str, w: dict) -> type:
    """pybtex's plain style with the words of `lang` (names joined, "others", URL notes, "In")."""

    class BookStyle(PlainStyle):
        def format_names(self, role, as_sentence=True):
            formatted = names(role, sep=", ", sep2=w["and"], last_sep=w["last_and"])
            return sentence[formatted] if as_sentence else formatted

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            plain = self.format_name  # BaseStyle sets the name formatter per instance

            # An author list ending in "and others" in the .bib names a person "others".
            self.format_name = lambda person, abbr=False: w["others"] if str(person) == "others" else plain(person, abbr)

        def format_entry(self, label, entry, bib_format=None):
            return super().format_entry(label, localized(entry, lang, w), bib_format)

        def format_title(self, e, which, as_sentence=True):
            # As written in the .bib: the plain style's sentence case writes "ia", "chatgpt", "nvidia".
            title = bib_field(which)
            return sentence[title] if as_sentence else title

        def format_url(self, e):
            url = bib_field("url", raw=True)
            return words[w["url"], href(url)[url]]

        def format_web_refs(self, e):
            return sentence[
                optional[self.format_url(e), optional[f" ({w['visited']} ", bib_field("urldate"), ")"]],
                optional[self.format_eprint(e)],
                optional[self.format_pubmed(e)],
                optional[self.format_doi(e)],
            ]

        def get_inproceedings_template(self, e):
            template = super().get_inproceedings_template(e)
            # The upstream template writes the literal "In" before the proceedings' title.
            return toplevel[*[_replace_word(part, "In", w["in"]) for part in template.children]]

    BookStyle.__name__ = f"BookStyle_{lang}"
    return BookStyle


def localized(entry, lang: str, w: dict):
    """The entry as the page's language reads it (`localized_fields`), and "arXiv preprint" in
    that language's words."""
    fields = localized_fields(entry.fields, lang)
    if "journal" in fields:
        fields["journal"] = fields["journal"].replace("arXiv preprint", w["preprint"])
    local = Entry(entry.type, fields=fields, persons=entry.persons)
    local.key = entry.key
    return local


def _replace_word(node, old: str, new: str):
    if getattr(node, "name", None) == "words" and node.children and node.children[0] == old:
        return words[new, *node.children[1:]]
    return node


def on_config_inited(app: Sphinx, config: Config) -> None:
    lang = config.language
    own = _languages(config)[lang]
    config.html_title = own["title"]
    config.project = own["title"]
    # html.baseurl names the site; each language's pages live under <site>/<lang>/.
    if config.html_baseurl:
        config.book_site_url = config.html_baseurl.rstrip("/") + "/"
        config.html_baseurl = f"{config.book_site_url}{lang}/"
    config.author = own["author"]
    # Jupyter Book 1 hard-codes "Search this book..." here.
    config.html_theme_options = {**config.html_theme_options, "search_bar_text": own["search"],
                                 "extra_footer": footer(lang, own, last_commit_date(app.srcdir))}
    # myst-nb's toggles of hidden code cells ("Show code cell source" by default).
    config.nb_code_prompt_show = own["code_show"]
    config.nb_code_prompt_hide = own["code_hide"]
    # The references' notes and in-text citations, through styles registered for this language.
    from sphinxcontrib.bibtex.plugin import register_plugin

    name = f"book_{lang}"
    pybtex.plugin.register_plugin("pybtex.style.formatting", name, bibliography_style(lang, own["references"]), force=True)
    register_plugin("sphinxcontrib.bibtex.style.referencing", name, reference_style(own["references"]), force=True)
    config.bibtex_default_style = name
    config.bibtex_reference_style = name


def last_commit_date(folder) -> dt.date | None:
    """The day of the commit being built (the pages' "last updated": the same for every build of one
    commit), or None outside a git checkout."""
    try:
        day = subprocess.run(["git", "log", "-1", "--format=%cs"], cwd=folder, capture_output=True, text=True,
                             check=True).stdout.strip()
        return dt.date.fromisoformat(day)
    except (OSError, subprocess.CalledProcessError, ValueError):
        return None


def footer(lang: str, own: dict, updated: dt.date | None) -> str:
    """How to cite the book, its licences and the day it was last updated, in the page's language."""
    w = own["footer"]
    year = updated.year if updated else ""
    title = html.escape(own["title"])
    parts = [w["cite"].format(title=title, year=year) if updated else w["cite_undated"].format(title=title), w["licence"]]
    if updated:
        parts.append(w["updated"].format(date=fmt.date(updated, lang)))
    return '<p class="book-footer">' + " ".join(parts) + "</p>"


def on_builder_inited(app: Sphinx) -> None:
    """Translate the theme's hard-coded English strings in every rendered page, and name its
    controls by what they show (named_by_what_they_show)."""
    table = _languages(app.config)[app.config.language].get("theme") or {}
    templates = getattr(app.builder, "templates", None)
    if templates is None:
        return
    pattern = re.compile(
        "|".join(rf'(?<=="){re.escape(html.escape(k))}(?=")|(?<=>)\s*{re.escape(html.escape(k, quote=False))}\s*(?=<)'
                 for k in sorted(table, key=len, reverse=True))
    ) if table else None
    escaped = {html.escape(k): html.escape(v) for k, v in table.items()} | {
        html.escape(k, quote=False): html.escape(v, quote=False) for k, v in table.items()}
    render = templates.render

    def translated(template: str, context: dict) -> str:
        page = render(template, context)
        if pattern is not None:
            page = pattern.sub(lambda m: m.group(0).replace(m.group(0).strip(), escaped[m.group(0).strip()]), page)
        return named_by_what_they_show(page)

    templates.render = translated


# Controls whose aria-label hides the words they show (axe-core's label-content-name-mismatch): the
# theme's search button (its label omits its shortcut) and myst-nb's hidden-code toggles (labelled
# "show or hide the content" while they read "Show the code"). Without the label, each is named by
# what it shows.
UNSHOWN_LABELS = (re.compile(r'(<summary)\s+aria-label="[^"]*"'),
                  re.compile(r'(<button class="btn search-button-field[^"]*"[^>]*?)\s+aria-label="[^"]*"'))


def named_by_what_they_show(page: str) -> str:
    for pattern in UNSHOWN_LABELS:
        page = pattern.sub(r"\1", page)
    return page


def on_bibdata_ready(app: Sphinx) -> None:
    """The entries as the citations of a page in this language name them (lib.site.references.cited_as:
    its words for "n.d.", its titles, 2025a and 2025b), as JupyterLab's view of the chapters does too."""
    cited_as(app.env.get_domain("cite").bibdata.data.entries.values(), app.config.language)


def description(doctree, fallback: str) -> str:
    """The page's first paragraph of prose (not a card, table or note), cut to ~160 characters."""
    skip = (nodes.Admonition, nodes.table, nodes.footnote, nodes.citation, nodes.container)
    for paragraph in doctree.findall(nodes.paragraph) if doctree is not None else []:
        parent, inside = paragraph.parent, False
        while parent is not None:
            if isinstance(parent, skip):
                inside = True
                break
            parent = parent.parent
        text = re.sub(r"\s*\[[^\]]*\]", "", " ".join(paragraph.astext().split()))  # no citations
        if not inside and len(text) >= 40:
            return textwrap.shorten(text, width=160, placeholder="…")
    return fallback


def binder_tag(app: Sphinx, config: Config) -> None:
    """The `binder` tag (`:::{only} binder` in a chapter) while the pages link to Binder: the sentences
    that send a reader to Binder show only where the link does."""
    options = config.html_theme_options or {}
    if binder_available(options.get("repository_url", ""), options.get("repository_branch", "main")):
        app.tags.add(BINDER_TAG)
    elif app.tags.has(BINDER_TAG):
        app.tags.remove(BINDER_TAG)


def binder_link(config: Config, lang: str, pagename: str, suffix: str | None) -> str:
    """The link that opens this chapter on Binder, in the page's language; "" for a page that is
    not a notebook or while the repository's URL is not set (_config.yml, repository.url)."""
    options = config.html_theme_options or {}
    url = launch_url(options.get("repository_url", ""), options.get("repository_branch", "main"),
                     f"book/{lang}/{pagename}.ipynb") if suffix == ".ipynb" else None
    if not url:
        return ""
    return f'<a class="binder-link" href="{html.escape(url)}">{html.escape(book_words(lang)["site"]["binder"])}</a>'


def preview_tags(config: Config, lang: str, pagename: str, context: dict, summary: str) -> list[str]:
    """OpenGraph and Twitter tags, so that a shared link shows the page's title and summary (no
    image: the site has none to offer, and asks no third party for one)."""
    title = re.sub(r"<[^>]+>", "", context.get("title") or "")
    tags = {"og:type": "article", "og:site_name": _languages(config)[lang]["title"], "og:title": title,
            "og:description": summary, "og:locale": fmt.locale(lang)}
    if config.book_site_url:
        tags["og:url"] = f"{config.book_site_url}{lang}/{pagename}.html"
    out = [f'<meta property="{k}" content="{html.escape(v)}" />' for k, v in tags.items()]
    return out + ['<meta name="twitter:card" content="summary" />']  # Twitter reads the og: tags


def alternate_links(site: str, pagename: str, langs: list[str]) -> list[str]:
    """The page's hreflang alternates, each language's and the landing page's (x-default), absolute:
    only where the site's address (`site`, ending in "/") is known. Search engines read absolute ones
    only (a relative one is an error to them, and to Lighthouse's SEO audit); an unpublished preview
    has none, and its visible language switch links the other language all the same."""
    if not site:
        return []
    links = [f'<link rel="alternate" hreflang="{lang}" href="{html.escape(f"{site}{lang}/{pagename}.html")}" />'
             for lang in langs]
    return links + [f'<link rel="alternate" hreflang="x-default" href="{html.escape(site)}index.html" />']


def on_page_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    languages = _languages(app.config)
    here = app.config.language
    up = "../" * (pagename.count("/") + 1)  # from this page to the site root
    site = app.config.book_site_url
    links = [f'<meta name="description" content="{html.escape(description(doctree, languages[here]["description"]))}" />']
    links += alternate_links(site, pagename, list(languages))
    links += preview_tags(app.config, here, pagename, context, description(doctree, languages[here]["description"]))
    context["metatags"] = context.get("metatags", "") + "\n" + "\n".join(links)

    own = languages[here]
    # Each link keeps the reader's place (the page's #anchor, SWITCH_JS).
    others = " · ".join(
        f'<a href="{up}{lang}/{pagename}.html" hreflang="{lang}" lang="{lang}" onclick="bookKeepPlace(this)">{html.escape(own["switch"] if len(languages) == 2 else entry["name"])}</a>'
        for lang, entry in languages.items()
        if lang != here
    )
    binder = binder_link(app.config, here, pagename, context.get("page_source_suffix"))
    bar = (f'<p class="language-switch">{others} · <a href="{up}index.html">{html.escape(own["home"])}</a>'
           + (f' · {binder}' if binder else "") + "</p>\n")
    if "body" in context:
        context["body"] = bar + context["body"]


# The language switch keeps the reader's place, and the calculators' state (the page's query). A
# card's anchor is its claim's id in both languages; a section's is its title's, in its language,
# so a section travels by its place among the page's sections (the two languages' pages have the
# same sections, in order: tests/test_parity.py), as #section-N, which the other page turns back
# into its own section's id.
SWITCH_JS = """function bookKeepPlace(link) {
  var target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
  var at = Array.prototype.indexOf.call(document.querySelectorAll("article section[id]"), target);
  link.hash = at >= 0 ? "section-" + at : location.hash;
  link.search = location.search;  // a calculator's state (book/_static/calculator.js)
}
document.addEventListener("DOMContentLoaded", function () {
  var place = /^#section-(\\d+)$/.exec(location.hash);
  var section = place && document.querySelectorAll("article section[id]")[Number(place[1])];
  if (section) { history.replaceState(null, "", "#" + section.id); section.scrollIntoView(); }
});"""


def setup(app: Sphinx) -> dict:
    app.add_config_value("book_site_url", "", "html", types=[str])
    app.add_js_file(None, body=SWITCH_JS)
    app.connect("config-inited", on_config_inited, priority=100)
    app.connect("config-inited", binder_tag, priority=101)
    app.connect("builder-inited", on_builder_inited)
    app.connect("builder-inited", on_bibdata_ready, priority=900)  # after sphinxcontrib-bibtex reads the .bib files
    app.connect("html-page-context", on_page_context)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
