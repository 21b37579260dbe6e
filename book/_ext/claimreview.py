"""Sphinx extension: each article chapter's page carries its claims' verdicts as schema.org
ClaimReview JSON-LD in its head (lib.site.claimreview), computed when the site is built.

A review must give the absolute address of its card: with no public address for the site
(_config.yml, html.baseurl, empty) no page carries any, rather than a review that cannot say where it
is (the pages show every verdict all the same)."""

from __future__ import annotations

from sphinx.application import Sphinx

from lib.site import publisher
from lib.site.claimreview import CHAPTERS, json_ld, reviews


def page_reviews(pagename: str, lang: str, base: str, published=None) -> str:
    """The script element of an article chapter's page, or "" (another page, or no site address)."""
    article = next((n for n, name in CHAPTERS.items() if name == pagename), None)
    if article is None or not base:
        return ""
    return json_ld(reviews(article, lang, base, publisher.load(), published))


def on_page_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    if pagename not in CHAPTERS.values() or not app.config.book_site_url:
        return
    from bilingual import last_commit_date  # the pages' "last updated", the day of the built commit

    script = page_reviews(pagename, app.config.language, app.config.book_site_url, last_commit_date(app.srcdir))
    context["metatags"] = context.get("metatags", "") + "\n" + script


def setup(app: Sphinx) -> dict:
    app.connect("html-page-context", on_page_context)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
