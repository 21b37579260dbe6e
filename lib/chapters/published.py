"""Published training costs as claims of their publishers.

Each published figure is recomputed by its publisher's own method from that publisher's own
inputs, where both are known (Epoch AI publishes its pipeline and its data: lib.chapters.epoch), and
judged by the book's one verdict policy (lib.core.claims.judge, kind "reproduction"). Where the
publisher's method or inputs are not known, the figure is "unverified" and the reason says what
is missing: no other method stands in for the publisher's.
"""

from __future__ import annotations

import dataclasses
import datetime as dt

from lib.chapters import epoch
from lib.core.claims import Checked, Claim, Recomputed, judge
from lib.core.distance import furthest_first
from lib.core.figure import Figure
from lib.core.inputs import Inputs, load_inputs

# Who publishes what, and the method each figure is recomputed by (None: not known).
OTHERS = (
    # (id, publisher, run, input holding the published figure, the reason it is not reproduced)
    ("heim-palm", "heim", "palm", "heim_palm_cost", "heim_prices"),
    ("heim-palm-earlier", "heim", "palm", "heim_palm_cost_earlier", "heim_prices"),
    ("mosaic", "mosaic", "mosaic", "mosaic_cost", "mosaic_table"),
)
SOURCES = {"epoch": ("epochai2025trainingcosttrends", "cottier2024rising"),
           "aiindex": ("aiindex2024", "epochai2025trainingcosttrends", "cottier2024rising"),
           "heim": ("heim2022palm", "chowdhery2022palm"), "mosaic": ("venigalla2022mosaic",)}


@dataclasses.dataclass(frozen=True)
class Publication:
    """One published cost: who, for which run, how it is recomputed (an Epoch method), or why not."""

    id: str
    publisher: str
    run: str
    method: str | None = None  # a key of epoch.METHODS
    input_name: str | None = None  # the sourced input holding a non-Epoch figure
    reason: str | None = None  # why it is not reproduced (a key of the words' [published.reason])


def publications(data: epoch.EpochData | None = None) -> list[Publication]:
    """Every published cost the costs chapter judges: Epoch AI's three methods for each run its
    file prices, then the others."""
    data = epoch.load() if data is None else data
    out = [Publication(f"epoch-{run}-{method}", "epoch", run, method=method)
           for run in epoch.RUNS for method in epoch.METHODS if epoch.published(run, method, data) is not None]
    # The AI Index 2024's figures are Epoch AI's cloud estimates of that edition (its repository at
    # commit 056951b): the same method, chip-hours as training time × chips, with the data of then
    # (PaLM's training time, aiindex_palm_training_hours) and in dollars of that edition's month.
    out.append(Publication("aiindex-palm", "aiindex", "palm", method="cloud_aiindex", input_name="aiindex_palm_cost"))
    out += [Publication(pid, who, run, input_name=name, reason=reason) for pid, who, run, name, reason in OTHERS]
    return out


def stated(p: Publication, i: Inputs, data: epoch.EpochData) -> Figure:
    """The figure as its publisher prints it."""
    if p.input_name is None:
        return epoch.figure(epoch.published(p.run, p.method, data))
    entry = i[p.input_name]
    return entry.figure(unit="USD", decimals=1)


def recompute(p: Publication, i: Inputs, data: epoch.EpochData) -> Recomputed:
    """The publisher's figure redone by the publisher's method, and the figures its card quotes."""
    if p.method is None:
        return Recomputed(None)
    if p.method == "cloud_aiindex":
        return _aiindex(p, i, data)
    est = epoch.estimate(p.run, p.method, data)
    return Recomputed(epoch.figure(est.usd), figures={"dollars_of": dollars_of(est)})


def _aiindex(p: Publication, i: Inputs, data: epoch.EpochData) -> Recomputed:
    """The AI Index's figure by Epoch AI's cloud method with that edition's data: the training time
    Epoch AI's data gave PaLM then, times its chips, in dollars of that edition's month; and why
    Epoch AI's file gives more today (the same method with today's training time and dollars)."""
    month = i.aiindex_dollars_of.strftime("%Y-%m")
    today_run = data.models[epoch.MODEL_OF_RUN[p.run]]
    then_run = dataclasses.replace(today_run, training_hours=i.aiindex_palm_training_hours)
    edition = epoch.cloud_cost(then_run, data, to_month=month)
    today = epoch.estimate(p.run, "cloud", data)
    return Recomputed(epoch.figure(edition.usd), figures={
        "dollars_of": dollars_of(edition),
        "hours_then": Figure.of(edition.steps["training_hours"], "hour"),
        "hours_today": Figure.of(today.steps["training_hours"], "hour"),
        "chip_hours": Figure.of(edition.steps["chip_hours"], "chip-hour"),
        "today_chip_hours": Figure.of(today.steps["chip_hours"], "chip-hour"),
        "epoch_today": epoch.figure(today.usd), "today_dollars_of": dollars_of(today),
        "ratio": Figure.of(today.usd / edition.usd, "", decimals=2)})


def dollars_of(est: epoch.Estimate) -> Figure:
    """The month whose dollars an Epoch AI figure is in."""
    return Figure.month_of(dt.date.fromisoformat(est.dollars_of + "-01"))


def claim(p: Publication, i: Inputs, data: epoch.EpochData) -> Claim:
    """The publication as a claim of the one registry's type, so the one policy judges it."""
    from lib.core.words import words

    key = {None: p.reason, "cloud_aiindex": "aiindex"}.get(p.method, "reproduced")
    return Claim(id=p.id, article=0, section="costs", quote="", quote_en="",
                 kind="reproduction" if p.method else "estimate", stated=stated(p, i, data),
                 sources=SOURCES[p.publisher],
                 context={lang: words(lang)["published"]["context"][key] for lang in ("es", "en")})


def check(p: Publication, i: Inputs | None = None, data: epoch.EpochData | None = None) -> Checked:
    i = load_inputs() if i is None else i
    data = epoch.load() if data is None else data
    c = claim(p, i, data)
    result = recompute(p, i, data)
    verdict, mismatches = judge(c, result)
    return Checked(c, result, verdict, mismatches)


def check_publications(i: Inputs | None = None, data: epoch.EpochData | None = None) -> list[Checked]:
    i = load_inputs() if i is None else i
    data = epoch.load() if data is None else data
    return [check(p, i, data) for p in publications(data)]


# ---------------------------------------------------------------- the chapter's table

# The articles' own cost figures, judged in the article chapters (the same verdict here).
# The first article shows its arithmetic (its hours × its price); the second states its figures alone.
ARTICLE_CLAIMS = (("A1-opt-cost", "opt"), ("A2-llama-cost", "llama"), ("A2-palm-cost", "palm"), ("A2-mosaic", "mosaic"))
SHOWS_ITS_SUM = {"A1-opt-cost"}


@dataclasses.dataclass(frozen=True)
class Row:
    """One line of the chapter's table: a published figure, who published it, by which method it
    is recomputed (the publisher's; None where unknown), what that gives, and the verdict."""

    key: str
    who: str  # a key of the words' [published.who], or "article1"/"article2"
    run: str
    checked: Checked
    method: str | None  # a key of the words' [published.method]
    recomputed: Figure | None

    def verdict_label(self, lang: str) -> str:
        """The verdict as the table says it. A figure left unverified because its publisher's method
        or prices are not known says what is missing ("Not redone: the prices he used are not in the text the
        book read", the words' [published.not_redone]): its publisher's post is a primary source, quoted; its verdict code
        stays "unverified"."""
        from lib.core.words import words

        reasons = words(lang)["published"]["not_redone"]
        if self.checked.verdict == "unverified" and self.method in reasons:
            return reasons[self.method]
        return self.checked.verdict_label(lang)

    @property
    def residual(self) -> float | None:
        stated = self.checked.claim.stated
        if self.recomputed is None or stated.low != stated.high or self.recomputed.low != self.recomputed.high:
            return None
        return (self.recomputed.low - stated.low) / stated.low


def table_rows(i: Inputs | None = None, data: epoch.EpochData | None = None) -> list[Row]:
    """The articles' cost figures (with their article verdicts), then every publication; those
    furthest from their sources first (lib.core.distance), the rest in that order."""
    from lib.chapters.verdicts import check_all

    i = load_inputs() if i is None else i
    data = epoch.load() if data is None else data
    articles = {c.claim.id: c for c in check_all(i)}
    rows = []
    for claim_id, run in ARTICLE_CLAIMS:
        c = articles[claim_id]
        # Where the article shows its arithmetic, its own sum is redone (the card's as_stated).
        own = c.result.as_stated if claim_id in SHOWS_ITS_SUM else None
        rows.append(Row(claim_id, f"article{c.claim.article}", run, c, "article_sum" if own else "article_unstated", own))
    for p, c in zip(publications(data), check_publications(i, data)):
        rows.append(Row(p.id, p.publisher, p.run, c, p.method or p.reason, c.result.sourced))
    rank = {c.claim.id: n for n, (c, _) in enumerate(furthest_first([r.checked for r in rows]))}
    return sorted(rows, key=lambda r: rank.get(r.checked.claim.id, len(rank)))


def epoch_rule_figures(data: epoch.EpochData | None = None) -> dict[str, Figure]:
    """Epoch AI's rules as its code sets them, and the steps the chapter's prose quotes."""
    data = epoch.load() if data is None else data
    rule = epoch.CONSTANTS
    cloud = {run: epoch.estimate(run, "cloud", data).steps for run in ("opt", "palm")}
    capex = epoch.estimate("opt", "capex_energy", data).steps
    vendor, date, _hardware, _price = cloud["opt"]["price_row"]
    return {
        "pub_after_days": Figure.of(rule.publication_after_training.days, "day"),
        "price_before_days": Figure.of(rule.cloud_price_before_training.days, "day"),
        "purchase_after_days": Figure.of(rule.first_purchase_after_release.days, "day"),
        "interconnect": Figure.of(rule.interconnect_share, "fraction", decimals=0),
        "ooms": Figure.of(rule.price_performance_ooms_per_year, "", decimals=2),
        "replacement": Figure.of(capex["replacement_per_year"], "fraction", decimals=1),
        "hours_per_year": Figure.of(capex["hours_per_year"], ""),
        "palm_chip_hours": Figure.of(cloud["palm"]["chip_hours"], "chip-hour"),
        "opt_price": Figure.of(cloud["opt"]["price_per_hour"], "USD/chip-hour"),
        "opt_price_vendor": Figure.says(vendor),
        "opt_price_date": Figure.on(date),
        "opt_price_lookup": Figure.on(cloud["opt"]["price_lookup_date"].date()),
        "a100_price": Figure.of(capex["price_per_chip"], "USD"),
        "dollars_of": dollars_of(epoch.estimate("opt", "cloud", data)),
    }


def palm_chip_hours_counted(i: Inputs, data: epoch.EpochData | None = None) -> dict[str, float]:
    """PaLM's chip-hours as Epoch AI's cloud method counts them (its data's training time × its
    chips: every chip for every hour) against those the PaLM paper says ran (its two phases,
    lib.chapters.costs.palm_reported_hours); `over` is how much more Epoch AI counts, as a share."""
    from lib.chapters.costs import palm_reported_hours

    steps = epoch.estimate("palm", "cloud", data).steps
    paper = palm_reported_hours(i)
    return {"training_hours": steps["training_hours"], "chips": steps["chips"], "counted": steps["chip_hours"],
            "paper": paper, "over": steps["chip_hours"] / paper - 1}
