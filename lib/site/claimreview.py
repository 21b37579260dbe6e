"""Each claim's verdict as schema.org ClaimReview data (JSON-LD), as Google's fact-check documentation
and the fact-check explorers read it: the claim reviewed in the words and the language it was made in
(the articles' Spanish, on the pages of both languages), the article it appears in (its headline, its
language and the earliest date its words allow, nothing the copy does not state), the computed verdict
on one stated scale, the book's publisher as author with its address, and the absolute address of the
claim's card on its chapter page.

The address needs the site's public address (_config.yml, html.baseurl): without it a review cannot
say where it is, and no ClaimReview is published (book/_ext/claimreview.py); the pages still show
every verdict.
"""

from __future__ import annotations

import datetime as dt
import json
import re

from lib.chapters.verdicts import check_all
from lib.core import fmt
from lib.core import sentences
from lib.core.claims import Checked, verdict_label
from lib.core.inputs import Inputs, load_inputs
from lib.core.phrases import join
from lib.core.words import LANGS, words
from lib.site.publisher import Publisher, site_address
from lib.site.trust import Article, author_name, load_articles

# Each article's chapter page; its bib key is the same name (book/references.bib).
CHAPTERS = {1: "article1", 2: "article2"}
# The scale of reviewRating, one for every verdict: how far the primary sources support a claim, from
# contradicting it to giving its figure. A claim no primary source was found for is second: no source
# found contradicts it, and none supports it. The method page says it (`glue_scale`).
SCALE = {"wrong": 1, "unverified": 2, "context": 3, "holds": 4}
WORST, BEST = min(SCALE.values()), max(SCALE.values())


def anchor(claim_id: str) -> str:
    """The id of a claim's card on its chapter page (what docutils makes of the card's name)."""
    return re.sub(r"[^a-z0-9]+", "-", claim_id.lower()).strip("-")


def card_url(base: str, lang: str, claim_id: str, article: int) -> str:
    """The absolute address of a claim's card: the site's address, the language, the chapter page."""
    base = site_address(base)
    if not base:
        raise ValueError("a card's absolute address needs the site's public address (html.baseurl)")
    if lang not in LANGS:
        raise ValueError(f"unknown language '{lang}': use one of {', '.join(LANGS)}")
    if article not in CHAPTERS:
        raise ValueError(f"no chapter for article {article!r}")
    return f"{base}{lang}/{CHAPTERS[article]}.html#{anchor(claim_id)}"


def coverage(article: Article, inputs: Inputs) -> str:
    """When the article was written, as far as its words show: an open ISO 8601 interval from the
    earliest date they allow ("2025-08/.."), to the day or to the month."""
    after = article.date_after(inputs)
    return (after.isoformat() if article.precision == "day" else after.strftime("%Y-%m")) + "/.."


def appearance(article: Article, inputs: Inputs) -> dict:
    """The article a claim appears in: its headline and language as its copy shows them, and when it
    was written as far as its words show (no author, outlet, date or address: its copy states none)."""
    work = {"@type": "Article", "headline": article.title, "inLanguage": article.language,
            "temporalCoverage": coverage(article, inputs)}
    keys = {"author": "author", "outlet": "publisher", "date": "datePublished", "url": "url"}
    for field, value in article.stated.items():  # what the references record of it, should they record it
        work[keys[field]] = {"@type": "Organization", "name": value} if field in ("author", "outlet") else value
    return work


def author(lang: str, publisher: Publisher, base: str) -> dict:
    """Who signs the reviews: the publisher (_config.yml), with its address; where none is stated,
    the book's contributors, with the book's home page."""
    return {"@type": "Organization", "name": author_name(lang, publisher),
            "url": publisher.url or f"{site_address(base)}{lang}/index.html"}


def review(checked: Checked, lang: str, base: str, article: Article, inputs: Inputs, publisher: Publisher,
           published: dt.date | None = None) -> dict:
    """One claim's ClaimReview, for its chapter page in `lang`."""
    claim = checked.claim
    if checked.verdict not in SCALE:
        raise ValueError(f"{claim.id}: the verdict {checked.verdict!r} has no place on the rating scale")
    # The card (the review's url) gives the explanation: the page is not made heavier twice over.
    rating = {"@type": "Rating", "alternateName": sentences.label(checked, lang), "ratingValue": SCALE[checked.verdict],
              "worstRating": WORST, "bestRating": BEST}
    item = {"@type": "ClaimReview", "url": card_url(base, lang, claim.id, claim.article),
            "identifier": claim.id, "inLanguage": lang,
            "claimReviewed": claim.quote,  # as the article wrote it, in Spanish, on the pages of both languages
            "itemReviewed": {"@type": "Claim", "inLanguage": article.language,
                             "appearance": appearance(article, inputs)},
            "author": author(lang, publisher, base),
            "reviewRating": rating}
    if published is not None:
        item["datePublished"] = published.isoformat()
    return item


def reviews(article: int, lang: str, base: str, publisher: Publisher, published: dt.date | None = None,
            checked: list[Checked] | None = None, inputs: Inputs | None = None,
            articles: dict[str, Article] | None = None) -> list[dict]:
    """The ClaimReview of every claim of one article, for its chapter page in `lang`, whose site is
    at `base` (html.baseurl)."""
    if article not in CHAPTERS:
        raise ValueError(f"no chapter for article {article!r}")
    if not isinstance(publisher, Publisher):
        raise ValueError(f"a Publisher is needed, got {type(publisher).__name__}")
    inputs = load_inputs() if inputs is None else inputs
    checked = check_all(inputs, article=article) if checked is None else checked
    known = load_articles() if articles is None else articles
    return [review(c, lang, base, known[CHAPTERS[article]], inputs, publisher, published)
            for c in checked if c.claim.article == article]


def graph(items: list[dict]) -> dict:
    """The JSON-LD document a page carries."""
    return {"@context": "https://schema.org", "@graph": items}


def json_ld(items: list[dict]) -> str:
    """The script element a page carries them in."""
    data = json.dumps(graph(items), ensure_ascii=False, sort_keys=True)
    return '<script type="application/ld+json">' + data.replace("</", "<\\/") + "</script>"


def glue_scale(lang: str) -> dict[str, str]:
    """The rating scale as the method page says it: each verdict's value, worst first."""
    w = words(lang)["trust"]["scale"]
    items = [w["item"].format(value=fmt.number(value, lang), label=verdict_label(verdict, lang))
             for verdict, value in sorted(SCALE.items(), key=lambda kv: kv[1])]
    return {"rating_scale": join(items, lang), "rating_worst": fmt.number(WORST, lang),
            "rating_best": fmt.number(BEST, lang)}
