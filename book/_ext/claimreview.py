"""Sphinx extension: each article chapter's page carries its claims' verdicts as schema.org
ClaimReview JSON-LD in its head (lib.site.claimreview), computed when the site is built."""

from __future__ import annotations

from sphinx.application import Sphinx

from lib.site.claimreview import CHAPTERS, json_ld, reviews


def article_titles(app: Sphinx) -> dict[int, str]:
    """The articles' titles, from the references (the article as `itemReviewed`)."""
    entries = app.env.get_domain("cite").bibdata.data.entries
    return {n: str(entries[key].fields["title"]) for n, key in CHAPTERS.items()}


def on_page_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    article = next((n for n, name in CHAPTERS.items() if name == pagename), None)
    if article is None:
        return
    from bilingual import last_commit_date  # the pages' "last updated", the day of the built commit

    items = reviews(article, app.config.language, article_titles(app)[article], last_commit_date(app.srcdir))
    context["metatags"] = context.get("metatags", "") + "\n" + json_ld(items)


def setup(app: Sphinx) -> dict:
    app.connect("html-page-context", on_page_context)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
