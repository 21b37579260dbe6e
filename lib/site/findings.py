"""What each page says first: the home page's answer to the book's question and each chapter's key
findings ("Lo esencial" / "Key findings"), every number and every judgement computed.

One path per figure. The book's answers (what a budget buys, what a run cost) are stated on every
page with the same sentence (lib.chapters.answers, glued as `ans.<id>` by lib.site.answers_page). A
findings block in a chapter quotes that chapter's own glue keys (an article's chapter, its summary:
lib.site.page.summary); the few figures only a findings block says (whether a job fits, how many
measurements the formula meets) are computed here, once, from the chapters' functions, and glued
as `find.<name>`; a figure of another chapter is that chapter's own Figure, glued as
`find.<the chapter's key>` (find.B.budget.eur is the budget chapter's B.budget.eur); how far the
articles are is the ledger's summary, its sentence of counts and its first claim, the furthest
from the sources (lib.core.sentences, lib.core.distance).
tests/test_findings.py checks, on the committed notebooks, that each reads the same on every page
that glues it.
"""

from __future__ import annotations

import json

from lib.chapters import budget as budget_chapter
from lib.chapters.verdicts import check_all
from lib.core import sentences
from lib.core.claims import Checked
from lib.core.distance import furthest_first
from lib.core.figure import Figure
from lib.core.inputs import Inputs, load_inputs
from lib.core.words import words
from lib.site import budget_page, costs_page, page

# ---------------------------------------------------------------- each chapter's figures, as it glues them

def chapter_figures(chapter: str, i: Inputs) -> dict[str, Figure]:
    """Every figure a chapter glues, by its glue key there, from the function the chapter glues it from."""
    if chapter == "budget":
        return {f"B.{name}": figure for name, figure in budget_page.figures(i).items()}
    if chapter == "costs":
        return {f"costs.{name}": figure for name, figure in costs_page.chapter_figures(i).items()}
    raise ValueError(f"no chapter {chapter!r}: budget or costs")


# ---------------------------------------------------------------- what only the findings compute

def furthest(checked: list[Checked], lang: str, first: bool = False) -> dict[str, str]:
    """The claim furthest from its sources (the first of the ledger's summary, lib.core.distance's
    order): what it is about, its article, and the ledger's item for it (what the article says
    against what the sources give, and how far apart); and the words that lead to it (`lead`,
    capitalised where it opens the finding: `first`), which say, where no claim lies outside its
    sources (the furthest is at no distance: inside the span of the estimates, or within its
    tolerance), that none does, and name one that needs context (the first in the ledger's order)."""
    w = words(lang)["findings"]
    ranked = furthest_first(checked)
    outside = bool(ranked) and ranked[0][1].magnitude > 0
    lead = w["lead"]["outside" if outside or not ranked else "inside"]
    lead = lead[:1].upper() + lead[1:] if first else lead
    items = sentences.summary_items(checked, lang)
    if not items:
        return {"subject": w["no_distance"], "article": "—", "item": "—", "lead": lead}
    claim, item = items[0]
    return {"subject": sentences.subject(claim, lang), "article": w["article"][str(claim.claim.article)], "item": item,
            "lead": lead}


def budget_figures(i: Inputs, lang: str) -> dict[str, Figure | str]:
    """What only the findings say of the budget chapter (lib.chapters.budget): whether LoRA of LLaMA 7B
    fits one H100, and how many of the published memory figures the formula meets within their
    tolerance, and of the published bounds."""
    budget_words = words(lang)["budget"]
    rows = {(r["job"], r["model"]): r for r in budget_chapter.what_budget_buys(i)}
    # The rows the planner gives a figure for (it declines a measured configuration it has no coefficients for).
    measured = [r for r in budget_chapter.measurements(i) if r["within"] is not None]
    return {
        "budget.lora_fits": budget_words["fits" if rows["lora", "llama7b"]["fits"] else "no_fit"],
        # Figures (a measurement, a paper's arithmetic) and bounds ("less than 48 GB") apart.
        "budget.within": Figure.of(sum(r["within"] for r in measured if r["kind"] != "bound"), ""),
        "budget.measurements": Figure.of(sum(r["kind"] != "bound" for r in measured), ""),
        "budget.bounds_met": Figure.of(sum(r["within"] for r in measured if r["kind"] == "bound"), ""),
        "budget.bounds": Figure.of(sum(r["kind"] == "bound" for r in measured), ""),
    }


# ---------------------------------------------------------------- each page's findings

# The other chapters' figures and findings an article's chapter quotes: article 2 ends on what a
# household budget does reach (LoRA on LLaMA 7B: whether it fits one H100, what the budget trains).
ARTICLE_QUOTES = {2: ({"budget": ("B.budget.eur", "B.budget.lora7b_bought")}, ("budget.lora_fits",))}
# The articles whose finding of the furthest claim opens with its lead (article 2's follows "Against
# every estimate …,").
LEAD_OPENS = (1,)


def quoted(chapters: dict[str, tuple[str, ...]], i: Inputs) -> dict[str, Figure]:
    """Figures of other chapters, by their glue keys there (chapter -> keys), from the functions those
    chapters glue them from."""
    values: dict[str, Figure] = {}
    for chapter, keys in chapters.items():
        figures = chapter_figures(chapter, i)
        values |= {key: figures[key] for key in keys}
    return values


def article_values(number: int, checked: list[Checked], lang: str, i: Inputs | None = None) -> dict[str, Figure | str]:
    """An article's chapter's findings beyond its own glue keys: its claim furthest from the sources
    (what it is about, and the summary's item for it; the counts by verdict are in the summary), and
    what it quotes of the other chapters (ARTICLE_QUOTES)."""
    own = [c for c in checked if c.claim.article == number]
    found = furthest(own, lang, first=number in LEAD_OPENS)
    values = {f"A{number}.furthest.{name}": found[name] for name in ("lead", "subject", "item")}
    if number in ARTICLE_QUOTES:
        figures, found_keys = ARTICLE_QUOTES[number]
        i = load_inputs() if i is None else i
        budget_found = budget_figures(i, lang)
        values |= quoted(figures, i) | {key: budget_found[key] for key in found_keys}
    return values


def budget_values(lang: str, i: Inputs) -> dict[str, Figure | str]:
    """The budget chapter's findings: reach, fit and the measurements' count (the rest are its own B.* keys)."""
    return budget_figures(i, lang)


def home_values(lang: str, i: Inputs, checked: list[Checked]) -> dict[str, Figure | str]:
    """The home page's findings beyond the book's answers (lib.site.answers_page): how far the
    articles are (the ledger's summary: its sentence of counts, and its first claim, the furthest
    from the sources)."""
    values: dict[str, Figure | str] = {"all.counts": sentences.counts(checked, lang, "ledger")}
    return values | {f"furthest.{name}": text for name, text in furthest(checked, lang).items() if name != "lead"}


# ---------------------------------------------------------------- gluing

def glue_values(values: dict[str, Figure | str], lang: str) -> None:
    """Glue each value as find.<name> (a Figure written in the page's language, words as they are),
    and every figure unformatted as find.raw, for nbval to compare exactly."""
    for name, value in values.items():
        page.glue(f"find.{name}", value.format(lang) if isinstance(value, Figure) else value, display=False)
    raw = {name: value.raw() for name, value in values.items() if isinstance(value, Figure)}
    page.glue("find.raw", json.dumps(raw, sort_keys=True, ensure_ascii=False), display=False)


def article(number: int, lang: str, checked: list[Checked], i: Inputs | None = None) -> None:
    glue_values(article_values(number, checked, lang, i), lang)


def budget(lang: str, i: Inputs | None = None) -> None:
    glue_values(budget_values(lang, load_inputs() if i is None else i), lang)


def home(lang: str, i: Inputs | None = None, checked: list[Checked] | None = None) -> None:
    i = load_inputs() if i is None else i
    glue_values(home_values(lang, i, check_all(i) if checked is None else checked), lang)
