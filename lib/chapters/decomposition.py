"""Why published costs of one run disagree, step by step.

From the article's figure to Epoch AI's cloud figure, one step per factor, each a multiplier
computed from sourced inputs: the hours counted, the hardware, the price tier and its date, the
dollars of which month. Then from Epoch AI's cloud figure to its two ownership methods. The
product of the steps is the published figure: a test checks it to the cent.

A range (PaLM's 9–23 million) is carried as a band: both ends take the same hours, and meet at
the price step, where each end's implied price is replaced by Epoch AI's one price.
"""

from __future__ import annotations

import dataclasses

from lib.chapters import epoch
from lib.core.inputs import Inputs, load_inputs

LADDER_RUNS = ("opt", "llama", "palm")


@dataclasses.dataclass(frozen=True)
class Step:
    """The cost after one step (`low`..`high`, dollars) and its multiplier over the step before."""

    key: str  # a key of the words' [ladder.step]
    low: float
    high: float
    factor_low: float = 1.0
    factor_high: float = 1.0


def _band(prev: Step, key: str, low: float, high: float) -> Step:
    return Step(key, low, high, low / prev.low, high / prev.high)


def article_start(run: str, i: Inputs) -> tuple[float, float, float]:
    """(low, high, hours): the article's figure and the hours it is read over. The first article
    shows its sum (its GPUs × 24 h × its days), so OPT starts from its own hours; the second gives
    no hours, so its figures are read over the hours the papers report."""
    from lib.core.claims import load_claims
    from lib.chapters.costs import palm_reported_hours
    from lib.chapters.article1 import article_opt_gpu_hours

    claims = load_claims()
    if run == "opt":
        hours = article_opt_gpu_hours(claims)
        stated = claims["A1-opt-cost"].stated
        return stated.low, stated.high, hours
    if run == "llama":
        stated = claims["A2-llama-cost"].stated
        return stated.low, stated.high, i.llama_65b_gpu_hours
    if run == "palm":
        stated = claims["A2-palm-cost"].stated
        return stated.low, stated.high, palm_reported_hours(i)
    raise ValueError(f"no article figure for run {run!r}: one of {', '.join(LADDER_RUNS)}")


def ladder(run: str, i: Inputs | None = None, data: epoch.EpochData | None = None) -> list[Step]:
    """The steps from the article's figure to Epoch AI's cloud figure for `run`."""
    i = load_inputs() if i is None else i
    data = epoch.load() if data is None else data
    low, high, hours = article_start(run, i)
    cloud = epoch.estimate(run, "cloud", data).steps
    start = Step("article", low, high)
    # 1. the hours: the article's (or the paper's) against Epoch AI's (training time × chips).
    counted = _band(start, "hours", low * cloud["chip_hours"] / hours, high * cloud["chip_hours"] / hours)
    steps = [start, counted]
    price = cloud["price_per_hour"]
    if run == "opt":
        # 2. the hardware: the article's H100 price against the A100 at the same provider, the same day.
        from lib.core.claims import load_claims

        h100 = load_claims()["A1-lambda-h100-8x"].stated.value
        a100 = counted.low * i.lambda_a100_sxm_8x / h100
        steps.append(_band(counted, "hardware", a100, a100))
        # 3. the price tier and date: that on-demand price of today against Epoch AI's 3-year one of its date.
        steps.append(_band(steps[-1], "tier_date", cloud["chip_hours"] * price, cloud["chip_hours"] * price))
    else:
        # 2. the price: the one each end implies over the paper's hours against Epoch AI's 3-year one.
        steps.append(_band(counted, "implied_price", cloud["chip_hours"] * price, cloud["chip_hours"] * price))
    # 4. the dollars: of the month of publication to December 2024, by Epoch AI's producer price index.
    nominal = steps[-1].low
    steps.append(_band(steps[-1], "dollars", nominal * cloud["ppi_factor"], nominal * cloud["ppi_factor"]))
    return steps


def methods(run: str, data: epoch.EpochData | None = None) -> dict[str, float]:
    """Epoch AI's two ownership methods over its cloud figure for the same run."""
    data = epoch.load() if data is None else data
    cloud = epoch.estimate(run, "cloud", data).usd
    return {m: epoch.estimate(run, m, data).usd / cloud for m in ("capex_energy", "acquisition")}


def chart_rows(lang: str, i: Inputs | None = None, data: epoch.EpochData | None = None) -> list[dict]:
    """One row a step, for lib.site.charts.cost_ladder: run, step, order, low, high, where its link
    starts (`from`), the multiplier as text. (Epoch AI's two ownership methods, `methods`, are
    said in the prose: the chart stays light.)"""
    from lib.core import fmt
    from lib.core.figure import Figure
    from lib.chapters.published import dollars_of
    from lib.core.words import words

    i = load_inputs() if i is None else i
    data = epoch.load() if data is None else data
    w = words(lang)

    def factor(low: float, high: float) -> str:
        # A band's two ends can move apart or together: each end's multiplier, low end first.
        ends = [fmt.number(end, lang, 2) for end in (low, high)]
        return "×" + ends[0] + ("" if ends[0] == ends[1] else f" {w['and']} ×{ends[1]}")

    rows = []
    for run in LADDER_RUNS:
        steps = ladder(run, i, data)
        month = dollars_of(epoch.estimate(run, "cloud", data)).format(lang)
        names = {key: text.format(month=month) for key, text in w["ladder"]["step"].items()}
        mids = [(s.low * s.high) ** 0.5 for s in steps]
        for n, step in enumerate(steps):
            rows.append({"run": w["costs"]["runs"][run], "step": names[step.key], "order": n, "low": float(step.low),
                         "high": float(step.high), "from": float(mids[max(n - 1, 0)]),
                         "factor": "" if n == 0 else factor(step.factor_low, step.factor_high),
                         "amount": fmt.money_short(step.low, "USD", lang, step.high),
                         "label": Figure.between(step.low, step.high, "USD", decimals=1).format(lang)})
    return rows
