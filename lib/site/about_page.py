"""What the page about the book ("Transparency and corrections", book/_text/<lang>/about.md) glues:
the articles as their copies show them (lib/site/trust.py). Who publishes the book and the corrections
log are written into the page when the site is built (book/_ext/trust.py), not glued: they follow
_config.yml and the repository's history, which no committed output may depend on."""

from __future__ import annotations

import json

from IPython.display import Markdown

from lib.core.inputs import Inputs, load_inputs
from lib.site import page, trust


def glue_about(lang: str, inputs: Inputs | None = None) -> None:
    """The page's glued values: the articles, and the dates their words allow, unformatted (what nbval
    compares exactly)."""
    inputs = load_inputs() if inputs is None else inputs
    articles = trust.load_articles()
    page.glue("about.articles", Markdown(trust.articles_markdown(lang, inputs, articles)), display=False)
    raw = {key: article.date_after(inputs).isoformat() for key, article in articles.items()}
    page.glue("about.raw", json.dumps(raw, sort_keys=True), display=False)
