"""The fact-check ledger: every claim of both articles in one table, the furthest from its sources
first, and as CSV (in the registry's order)."""

from __future__ import annotations

import csv
import functools
import io
import math
import re
from pathlib import Path


from lib.core import sentences
from lib.core.claims import Checked
from lib.core.distance import distance, furthest_first
from lib.chapters.verdicts import check_all
from lib.core.figure import Figure
from lib.core.phrases import article_quote
from lib.core.span import BOOK
from lib.site.claimreview import CHAPTERS, anchor
from lib.site.markdown import table_cell
from lib.core.words import words

# What the sources give and the book's own calculation in columns of their own, as the cards keep them
# apart ("recomputed": the sources' figures, each publisher named where a span has several; "calculated":
# the book's, on every basis it computes); the CSV's recomputed_by says which of them a verdict rests on.
KEYS = ["id", "verdict", "where", "quote", "stated", "recomputed", "calculated", "distance", "sources", "context"]
# The page's table: the same columns but the id, which stays in the CSV (a reader finds a claim by its
# verdict's label, which links to its card).
TABLE_KEYS = KEYS[1:]


def columns(lang: str) -> dict:
    """The ledger's column names in `lang` (lib/data/words)."""
    return words(lang)["ledger_columns"]


ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def _bibliography() -> dict:
    """BibTeX key -> pybtex entry, from the book's .bib files."""
    from pybtex.database import parse_file

    entries: dict = {}
    for path in sorted((ROOT / "book").glob("*.bib")):
        entries.update(parse_file(path).entries)
    return entries


@functools.cache
def _and(lang: str) -> str:
    """The language's "and" between two authors, from the book's one table of words."""
    return words(lang)["site"]["references"]["and"].strip()


def citation(key: str, lang: str) -> str:
    """A source as a reader cites it: "Zhang et al. (2022)", "Venigalla y Li (2022)", "Meta AI (2022)"."""
    entry = _bibliography().get(key)
    if entry is None:
        return key
    persons = entry.persons.get("author", [])
    names = [" ".join(p.last_names).replace("{", "").replace("}", "") for p in persons if str(p) != "others"]
    if len(names) >= 3 or (names and len(persons) > len(names)):
        who = f"{names[0]} et al."
    elif len(names) == 2:
        who = f"{names[0]} {_and(lang)} {names[1]}"
    elif names:
        who = names[0]
    else:
        who = "«" + entry.fields.get("title", key).replace("{", "").replace("}", "") + "»"
    year = entry.fields.get("year")
    return f"{who} ({year})" if year else who


def _where(checked: Checked, lang: str) -> str:
    return f"{columns(lang)['article']} {checked.claim.article} · {words(lang)['section'][checked.claim.section]}"


def rows(lang: str, checked: list[Checked] | None = None) -> list[dict]:
    """One dict per claim, values formatted for `lang` (keys as in columns())."""
    checked = check_all() if checked is None else checked
    return [
        {
            "id": c.claim.id,
            "article": c.claim.article,
            "verdict": sentences.label(c, lang),
            "where": _where(c, lang),
            "quote": c.claim.quote,
            "stated": sentences.stated_cell(c, lang),
            "recomputed": _sources_cell(c, lang),
            "calculated": _calculated_cell(c, lang),
            "distance": sentences.distance_text(c, lang),
            "sources": list(c.claim.sources),
            "context": c.context(lang),
        }
        for c in checked
    ]


NONE = "—"


def _sources_cell(c: Checked, lang: str) -> str:
    """What the sources give, as the card's "The sources give" line: the figure a source states, or,
    where the figure checked is the book's, what the sources give apart from it (— where nothing)."""
    if c.result.evidence or sentences.is_calculated(c):
        given = sentences.given(c, lang)
        return NONE if given is None else given[1]
    return sentences.sourced(c, lang)[1]


def _calculated_cell(c: Checked, lang: str) -> str:
    """The book's calculation, as the card's line of it: the figure checked where it is the book's own,
    or the book's recomputations of a span's run, on every basis (— where the figure is a source's)."""
    if c.result.evidence:
        ours = sentences.calculation(c, lang)
        return NONE if ours is None else ours[1]
    return sentences.sourced(c, lang)[1] if sentences.is_calculated(c) else NONE


def furthest_order(checked: list[Checked]) -> list[Checked]:
    """The claims that need context or do not hold, the furthest from the sources first; then the rest."""
    first = [c for c, _ in furthest_first(checked)]
    return first + [c for c in checked if c not in first]


def table_markdown(lang: str, checked: list[Checked] | None = None) -> str:
    """The ledger as a MyST table (class `ledger`: book/_static/ledger.js makes it sortable and
    filterable), the claims furthest from their sources first."""
    head = columns(lang)
    checked = furthest_order(check_all() if checked is None else checked)
    lines = [
        "```{table}",
        ":class: ledger",
        ":name: ledger-table",
        "| " + " | ".join(head[k] for k in TABLE_KEYS) + " |",
        "|" + "---|" * len(TABLE_KEYS),
    ]
    for c, row in zip(checked, rows(lang, checked)):
        # Each verdict's label links to its claim's card on its chapter page.
        card = f"{CHAPTERS[row['article']]}.html#{anchor(row['id'])}"
        cells = dict(row, verdict=f'<a class="ledger-card" href="{card}">{row["verdict"]}</a>',
                     quote=article_quote(c.claim.quote, c.claim.quote_en, lang),
                     sources=f"{{cite:t}}`{','.join(row['sources'])}`" if row["sources"] else "—")
        lines.append("| " + " | ".join(table_cell(str(cells[k])) for k in TABLE_KEYS) + " |")
    lines.append("```")
    return "\n".join(lines)


def _bounds(figure: Figure | None) -> tuple[str, str, str]:
    if figure is None or not figure.is_number:
        return "", "", ""
    high = "" if math.isinf(figure.high) else repr(figure.high)
    return repr(figure.low), high, figure.unit


# A context may quote a source in its own language (<q lang="en">...</q> on the Spanish page): in the
# CSV, plain text, the quotation marks of the page's language.
QUOTE_MARKS = {"es": ("«", "»"), "en": ("“", "”")}
Q_TAG = re.compile(r"<q(?: [^>]*)?>(.*?)</q>", re.S)
TAG = re.compile(r"<[^>]+>")


def plain(text: str, lang: str) -> str:
    """A context as plain text: its <q> quotations in the language's quotation marks, no other tag."""
    opening, closing = QUOTE_MARKS[lang]
    return TAG.sub("", Q_TAG.sub(lambda m: f"{opening}{m.group(1)}{closing}", text))


def csv_text(lang: str, checked: list[Checked] | None = None) -> str:
    """The ledger as CSV: the formatted columns of the page, then the raw numbers for reuse."""
    checked = check_all() if checked is None else checked
    head = columns(lang)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([head[k] for k in KEYS] + ["verdict_code", "stated_low", "stated_high", "recomputed_low",
                                               "recomputed_high", "unit", "source_keys", "kind", "tolerance",
                                               "mismatch_dimensions", "secondary_inputs", "distance_magnitude",
                                               "recomputed_by"])
    for c, row in zip(checked, rows(lang, checked)):
        stated, recomputed = _bounds(c.claim.stated), _bounds(c.result.sourced)
        sources = "; ".join(citation(key, lang) for key in row["sources"])
        row = dict(row, context=plain(row["context"], lang), recomputed=plain(row["recomputed"], lang),
                   calculated=plain(row["calculated"], lang))
        apart = distance(c)
        writer.writerow([row[k] if k != "sources" else sources for k in KEYS]
                        + [c.verdict, stated[0], stated[1], recomputed[0], recomputed[1], recomputed[2] or stated[2],
                           " ".join(row["sources"]), c.claim.kind, repr(c.claim.tolerance),
                           " ".join(m.dimension for m in c.mismatches), " ".join(c.secondary),
                           "" if apart is None else repr(apart.magnitude), recomputed_by(c)])
    return out.getvalue()


def recomputed_by(c: Checked) -> str:
    """Who gives the figure the claim is checked against: "source" (a figure a source states),
    "book" (the book's own calculation) or "span" (a cost's span of the evidence, lib.core.span)."""
    if c.result.evidence:
        return "span"
    return "book" if sentences.is_calculated(c) else "source"


def sort_values(checked: list[Checked] | None = None) -> dict[str, dict[str, float | None]]:
    """Card anchor (the claim's id as its card's address has it) -> the number each figure column
    sorts by (its low end; None for a qualitative figure). The ledger page's script sorts those
    columns by value, not by their text."""
    checked = check_all() if checked is None else checked

    def value(figure: Figure | None) -> float | None:
        return float(figure.low) if figure is not None and figure.is_number else None

    def apart(c: Checked) -> float | None:
        found = distance(c)
        return None if found is None or math.isinf(found.magnitude) else found.magnitude

    def sources(c: Checked) -> float | None:
        published = [b.figure.low for b in c.result.evidence if b.by != BOOK]
        if c.result.evidence:
            return min(published) if published else None
        return None if sentences.is_calculated(c) else value(c.result.sourced)

    def ours(c: Checked) -> float | None:
        if c.result.evidence:
            return min((b.figure.low for b in c.result.evidence if b.by == BOOK), default=None)
        return value(c.result.sourced) if sentences.is_calculated(c) else None

    return {anchor(c.claim.id): {"stated": value(c.claim.stated), "recomputed": sources(c), "calculated": ours(c),
                                 "distance": apart(c)}
            for c in checked}
