"""What the book says about a checked claim, in each language, from the templates of its words
table (lib/data/words/<lang>.toml: [card], [mismatch], [distance], [summary]): the card's
lines, each mismatch, the distance, and a summary of many claims, the furthest first."""

from __future__ import annotations

import dataclasses

from lib.core import fmt
from lib.core import span as evidence_span
from lib.core.claims import Checked, Mismatch, render
from lib.core.distance import Distance, distance, furthest_first
from lib.core.phrases import article_quote, capital, contract, fact, join, plural, shown
from lib.core.words import words

VERDICTS = ("holds", "context", "wrong", "unverified")


def _shows(quoted: str, figure: str) -> bool:
    """Whether the article's words already hold the figure as the page writes it."""
    return figure.replace("\u00a0", " ").casefold() in quoted.replace("\u00a0", " ").casefold()


def stated(checked: Checked, lang: str) -> str:
    """What the article says: its words, and the figure checked, unless the words hold it or are
    the claim (words, not a figure: saying them again says nothing, even where the book reads them:
    the reading is in the card's details); for vague words, the figure the book reads them as."""
    w, claim = words(lang)["card"], checked.claim
    words_ = article_quote(claim.quote, claim.quote_en, lang)
    figure = claim.stated.format(lang)
    if claim.stated.text is not None or _shows(claim.quote if lang == "es" else claim.quote_en, figure):
        return words_
    if claim.reading:
        return w["stated_reading"].format(quote=words_, figure=figure)
    return w["stated_figure"].format(quote=words_, figure=figure)


def stated_cell(checked: Checked, lang: str) -> str:
    """The figure checked, said to be the book's reading where the article's words are vague."""
    figure = checked.claim.stated.format(lang)
    return words(lang)["card"]["read_as"].format(figure=figure) if checked.claim.reading else figure


def sourced(checked: Checked, lang: str) -> tuple[str, str]:
    """The label and the value of the figure a claim is checked against: the primary sources'
    figure, the secondary ones' (for a claim they leave unverified), or none (no figure, or, for a
    claim of words, no such words); the book's calculation, where the figure is the book's own
    (`calculated`, or a claim that says what the sources give apart from it, `given`); the span of
    the estimates, for a cost judged against the evidence (lib.core.span)."""
    w, figure = words(lang)["card"], checked.result.sourced
    if figure is None:
        return w["primary"], w["none_text" if checked.claim.stated.text is not None else "none"]
    if checked.result.evidence:
        return words(lang)["span"]["label_calculated" if is_books_own(checked) else "label"], shown(figure, lang)
    if is_calculated(checked):
        return w["calculated"], shown(figure, lang)
    return (w["secondary_sourced"] if checked.secondary else w["sourced"]), shown(figure, lang)


def is_books_own(checked: Checked) -> bool:
    """Whether the figure a claim is checked against is all the book's: every basis of its span the
    book's own (lib.core.span.BOOK, no publisher's estimate in it), or the book's calculation."""
    if checked.result.evidence:
        return all(b.by == evidence_span.BOOK for b in checked.result.evidence)
    return is_calculated(checked)


def is_calculated(checked: Checked) -> bool:
    """Whether the figure checked is the book's own calculation, not one a source states."""
    return checked.result.calculated or checked.claim.given is not None


def _basis(b: evidence_span.Basis, lang: str) -> str:
    w = words(lang)
    what, figure = w["span"]["basis"][b.key], shown(b.figure, lang)
    return w["span"]["answer" if b.headline else "item"].format(figure=figure, what=what)


def _published(bases, lang: str) -> list[str]:
    """The published estimates of a span, one item per publisher (in the order they come) with its
    figures each named by its method: "Epoch AI, $1.5 million by its cloud method… and $733,635 by its
    amortised method…"."""
    w = words(lang)
    by: dict[str, list[str]] = {}
    for b in bases:
        if b.by != evidence_span.BOOK:
            by.setdefault(b.by, []).append(_basis(b, lang))
    return [w["span"]["by"].format(who=w["published"]["who"][who], figures=join(items, lang)) for who, items in by.items()]


def given(checked: Checked, lang: str) -> tuple[str, str] | None:
    """The label and the words of what the sources give, where the figure checked is the book's
    own calculation from them (None for the others, whose figure is the sources'); for a cost
    judged against the evidence, every published estimate of its span, each with who gives it."""
    if checked.result.evidence:
        published = _published(checked.result.evidence, lang)
        return (words(lang)["card"]["sourced"], capital("; ".join(published))) if published else None
    text = checked.given(lang)
    return None if text is None else (words(lang)["card"]["sourced"], text)


def calculation(checked: Checked, lang: str) -> tuple[str, str] | None:
    """For a cost judged against the evidence, the label and the words of the book's own
    recomputations of its span, the book's answer first (None for the others)."""
    ours = [_basis(b, lang) for b in checked.result.evidence if b.by == evidence_span.BOOK]
    return (words(lang)["card"]["calculated"], "; ".join(ours)) if ours else None


def _whose(checked: Checked) -> str:
    """Whose figure a claim is checked against, as a summary names it: the sources', the book's own
    calculation from them, or the span of the estimates (a cost)."""
    if checked.result.evidence:
        return "span"
    return "book" if checked.result.sourced is not None and is_calculated(checked) else "sources"


def _measures(bases, lang: str) -> str:
    """What the bases measure, each once, in the order of lib.core.span.MEASURES."""
    kinds = [m for m in evidence_span.MEASURES if any(b.measures == m for b in bases)]
    return join([words(lang)["span"]["measures"][m] for m in kinds], lang)


def _span_parts(checked: Checked, lang: str) -> dict[str, str]:
    bases = checked.result.evidence
    low = min(bases, key=lambda b: b.figure.low)
    high = max(bases, key=lambda b: b.figure.high)
    found = evidence_span.matched(checked.claim.stated, bases, checked.claim.tolerance)
    below, above = evidence_span.neighbours(checked.claim.stated, bases)
    return {"low": shown(dataclasses.replace(low.figure, high=low.figure.low), lang), "low_what": _measures([low], lang),
            "high": shown(dataclasses.replace(high.figure, low=high.figure.high), lang), "high_what": _measures([high], lang),
            "matched": _measures(found, lang), "found": bool(found),
            "below": _measures([below], lang) if below else "", "above": _measures([above], lang) if above else ""}


def distance_text(checked: Checked, lang: str, found: Distance | None = None) -> str:
    """How far apart the article and the sources are, for a claim that needs context or does not
    hold ("" for the others)."""
    found = distance(checked) if found is None else found
    if found is None:
        return ""
    if found.kind == "span":
        parts = _span_parts(checked, lang)
        return words(lang)["span"]["distance" if parts["found"] else "distance_between"].format(**parts)
    if found.kind == "claim":
        return render(checked.claim.distance[lang], checked.figures(), lang, checked.claim.id)
    template = words(lang)["distance_calculated" if is_calculated(checked) else "distance"][found.kind]
    return template.format(figure=found.figure.format(lang) if found.figure else "", what=_what(checked, lang))


def _what(checked: Checked, lang: str) -> str:
    """What kind of context a claim inside its tolerance needs ("another date", "other scope")."""
    return join([words(lang)["label"]["what"][m.dimension] for m in checked.mismatches], lang)


ABOVE, BELOW = ("times", "more", "more_count"), ("sources_times", "less", "less_count")


def label(checked: Checked, lang: str) -> str:
    """The verdict as a reader can read it alone (a card's title, the ledger, ClaimReview, the
    charts): where the article's figure is outside the sources', which way and how far ("Does not
    hold: too high, 1.5–2.5 times"); inside them, what kind of context ("Needs context: right figure,
    older price"); the verdict alone where it holds or no source was found."""
    verdict, found = checked.verdict_label(lang), distance(checked)
    if found is None:
        return verdict
    w = words(lang)["label"]
    if checked.result.evidence:
        return _span_label(checked, found, verdict, lang)
    if found.kind in ("within", "met"):
        return w["inside"].format(verdict=verdict, what=_what(checked, lang))
    if found.kind in ABOVE + BELOW:
        size = w["size"][found.kind].format(figure=found.figure.format(lang))
        return w["too_high" if found.kind in ABOVE else "too_low"].format(verdict=verdict, size=size)
    if found.kind == "claim":  # a claim in words: the sources' words, the article's, and the record's short distance
        claim = checked.claim
        size = render(claim.distance[f"label_{lang}"], checked.figures(), lang, claim.id)
        return w["claimed"].format(verdict=verdict, stated=claim.stated.format(lang),
                                   sourced=checked.result.sourced.format(lang), size=size)
    return w["apart_calculated" if is_calculated(checked) else "apart"].format(verdict=verdict)


def _span_label(checked: Checked, found, verdict: str, lang: str) -> str:
    """The label of a cost judged against the evidence: inside its span, what the article's figure
    matches (renting at list price, with a commitment, owning) and the context it needs; outside,
    which way and how far from the nearest end."""
    w = words(lang)["span"]
    if found.kind == "span":
        parts = _span_parts(checked, lang)
        if not parts["found"]:
            return w["between"].format(verdict=verdict, below=parts["below"], above=parts["above"])
        if checked.mismatches:
            return w["inside_what"].format(verdict=verdict, measures=parts["matched"], what=_what(checked, lang))
        return w["inside"].format(verdict=verdict, measures=parts["matched"])
    size = words(lang)["label"]["size"][found.kind].format(figure=found.figure.format(lang))
    return w["above" if found.kind in ABOVE else "below"].format(verdict=verdict, size=size)


def mismatch(m: Mismatch, checked: Checked, lang: str) -> str:
    """One mismatch as a sentence: its dimension, then both sides."""
    w = words(lang)
    said = w["mismatch"][m.dimension].format(article=fact(m.article, lang),
                                              quote=article_quote(m.words, m.words_en, lang),
                                              source=fact(checked.result.facts[m.fact], lang))
    return f"{capital(w['dimension'][m.dimension])}: {contract(said, lang)}."


def rule(checked: Checked, lang: str) -> str:
    """The verdict rule the claim was judged by: its kind's tolerance, or its exception and why."""
    w, claim = words(lang), checked.claim
    kind = w["kind"][claim.kind]
    tolerance = f"±{fmt.percent(claim.tolerance, lang, 0)}"
    if claim.exception is not None:
        return f"{kind}, {w['card']['exception']}: {tolerance} ({claim.exception[lang]})"
    return f"{kind}, {tolerance}" + (f" ({w['card']['approximate']})" if claim.approximate else "")


def counts(checked: list[Checked], lang: str, whose: str) -> str:
    """The verdicts of many claims in a sentence: "De las 32 afirmaciones del artículo, 24 se
    sostienen, 5 piden matices, 1 no se sostiene y 2 no tienen fuente primaria." (none left out)."""
    w = words(lang)["summary"]
    parts = []
    for verdict in VERDICTS:
        n = sum(c.verdict == verdict for c in checked)
        if n:
            parts.append(plural(w["count"][verdict], n).format(n=fmt.number(n, lang)))
    return plural(w[whose], len(checked)).format(n=fmt.number(len(checked), lang), counts=join(parts, lang))


def subject(checked: Checked, lang: str) -> str:
    """What a claim is about, as a list of claims names it ("OPT-175B's rental cost"), or its quote."""
    w, claim = words(lang)["findings"], checked.claim
    return w["subject"].get(claim.id) or w["quoted"].format(quote=claim.quote if lang == "es" else claim.quote_en)


def summary_items(checked: list[Checked], lang: str) -> list[tuple[Checked, str]]:
    """Each claim that needs context or does not hold, the furthest from the sources first, with
    what the article says against what the sources give and how far apart."""
    w = words(lang)["summary"]
    return [(c, w["item"].format(stated=c.claim.stated.format(lang), whose=w["whose"][_whose(c)],
                                 sourced=sourced(c, lang)[1], distance=distance_text(c, lang, d)))
            for c, d in furthest_first(checked)]
