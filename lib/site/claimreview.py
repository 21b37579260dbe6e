"""Each claim's verdict as schema.org ClaimReview data (JSON-LD), the convention fact-checkers use
so that search engines and fact-check tools can read verdicts: the claim reviewed (the article's
words), the article it appears in, the computed verdict on a stated scale, the book as author and
the address of the claim's card on its chapter page."""

from __future__ import annotations

import datetime as dt
import json
import re

from lib.chapters.verdicts import check_all
from lib.core import sentences
from lib.core.claims import Checked
from lib.core.words import words

# Each article's chapter page; its bib key is the same name (book/references.bib).
CHAPTERS = {1: "article1", 2: "article2"}
# The scale of reviewRating: a verdict's place on it (unverified has none: no primary source gave a figure).
SCALE = {"wrong": 1, "context": 2, "holds": 3}


def anchor(claim_id: str) -> str:
    """The id of a claim's card on its chapter page (what docutils makes of the card's name)."""
    return re.sub(r"[^a-z0-9]+", "-", claim_id.lower()).strip("-")


def review(checked: Checked, lang: str, article_title: str, published: dt.date | None) -> dict:
    claim = checked.claim
    # The card (the review's url) gives the explanation: the page is not made heavier twice over.
    rating = {"@type": "Rating", "alternateName": sentences.label(checked, lang), "worstRating": min(SCALE.values()),
              "bestRating": max(SCALE.values())}
    if checked.verdict in SCALE:
        rating["ratingValue"] = SCALE[checked.verdict]
    item = {"@type": "ClaimReview", "url": f"{CHAPTERS[claim.article]}.html#{anchor(claim.id)}",
            "identifier": claim.id, "inLanguage": lang,
            "claimReviewed": claim.quote if lang == "es" else claim.quote_en,
            "itemReviewed": {"@type": "Claim",
                             "appearance": {"@type": "CreativeWork", "headline": article_title, "inLanguage": "es"}},
            "author": {"@type": "Organization", "name": words(lang)["site"]["title"]},
            "reviewRating": rating}
    if published is not None:
        item["datePublished"] = published.isoformat()
    return item


def reviews(article: int, lang: str, article_title: str, published: dt.date | None = None,
            checked: list[Checked] | None = None) -> list[dict]:
    """The ClaimReview of every claim of one article, for its chapter page in `lang`."""
    checked = check_all(article=article) if checked is None else checked
    return [review(c, lang, article_title, published) for c in checked if c.claim.article == article]


def json_ld(items: list[dict]) -> str:
    """The script element a page carries them in."""
    data = json.dumps({"@context": "https://schema.org", "@graph": items}, ensure_ascii=False, sort_keys=True)
    return '<script type="application/ld+json">' + data.replace("</", "<\\/") + "</script>"
