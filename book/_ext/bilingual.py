"""Sphinx extension: one book, built once per language from the same config and toc.

- `book_languages` (in _config.yml) holds what differs between languages; the
  build's `language` picks the entry, and the page title comes from it.
- Every page gets hreflang alternates for all languages, a visible link to the
  same page in the other language, and a link back to the bilingual landing page.
The site layout it assumes: _build/html/<lang>/<page>.html, landing at _build/html/index.html.
"""

from __future__ import annotations

import html

from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.errors import ConfigError


def _languages(config: Config) -> dict:
    languages = config.book_languages
    if config.language not in languages:
        raise ConfigError(f"language '{config.language}' is not in book_languages ({', '.join(languages)})")
    return languages


def on_config_inited(app: Sphinx, config: Config) -> None:
    title = _languages(config)[config.language]["title"]
    config.html_title = title
    config.project = title


def on_page_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    languages = _languages(app.config)
    here = app.config.language
    up = "../" * (pagename.count("/") + 1)  # from this page to the site root
    links = []
    for lang in languages:
        href = f"{up}{lang}/{pagename}.html"
        links.append(f'<link rel="alternate" hreflang="{lang}" href="{html.escape(href)}" />')
    links.append(f'<link rel="alternate" hreflang="x-default" href="{up}index.html" />')
    context["metatags"] = context.get("metatags", "") + "\n" + "\n".join(links)

    own = languages[here]
    others = " · ".join(
        f'<a href="{up}{lang}/{pagename}.html" hreflang="{lang}" lang="{lang}">{html.escape(own["switch"] if len(languages) == 2 else entry["name"])}</a>'
        for lang, entry in languages.items()
        if lang != here
    )
    bar = f'<p class="language-switch">{others} · <a href="{up}index.html">{html.escape(own["home"])}</a></p>\n'
    if "body" in context:
        context["body"] = bar + context["body"]


def setup(app: Sphinx) -> dict:
    app.add_config_value("book_languages", {}, "html", types=[dict])
    app.connect("config-inited", on_config_inited)
    app.connect("html-page-context", on_page_context)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
