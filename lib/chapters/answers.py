"""The book's answers: for each question a reader brings, one answer, computed once.

Each answer is one function of the sourced inputs. It gives a central figure, the range around it
and what spans that range, and the figures its sentence pastes; the sentence itself, the question
and the basis are in the words table ([answers.<id>]). Every page that states an answer glues the
same sentence (`ans.<id>`, lib.site.answers_page), and the claims about past runs are judged
against the same figures (lib.chapters.article1, article2), so the book has one figure per question.

The basis of the costs of past runs, chosen once (the method page says why): the hours the run's
sources give, at the on-demand price of its chip in the year it ran, from the providers the book
has for that chip. One footing for every run: the central figure is the fewest hours its sources
give for the final run (the hours of computation it needed: OPT's and LLaMA's in the LLaMA paper's
table, PaLM's model FLOPs at its model FLOPs utilisation) at the cheaper of those prices, so it is
the low end of the range; the top of the range is the most hours its sources give (every hour of
the run's calendar, downtime and repeated steps included) at the dearer price. GPT-3 has one count
of hours (Epoch AI's), so its range spans the prices alone. The same work on today's H100s at
today's prices is a sensitivity, beside it. How an article's cost is judged (against every basis
the book computes and every published estimate redone) is lib.core.span's policy, not this one figure.
"""

from __future__ import annotations

import dataclasses

from lib.chapters import budget, compute, costs, epoch, runs
from lib.core.figure import Figure
from lib.core.span import BOOK, Basis
from lib.core.inputs import Inputs, once_per_inputs
from lib.core.words import words
from lib.plan import speed
from lib.plan.gpus import load_gpus

# The runs the book prices on the one basis, and the chip each ran on.
PAST_RUNS = ("opt", "llama", "palm", "gpt3")
# The questions in the order the home page lists them.
ORDER = ("budget_buys", "full_ft_fits", "pretrain_gpt2", "pretrain_llama7b",
         "run_opt", "run_llama", "run_palm", "run_gpt3", "project_llama")
# The page files that state each answer (answers.csv's `pages`; tests/test_answers.py checks each).
PAGES = {
    "budget_buys": ("index", "budget", "article1"),
    "full_ft_fits": ("index", "budget"),
    "pretrain_gpt2": ("index", "budget"),
    "pretrain_llama7b": ("index", "budget"),
    "run_opt": ("index", "costs", "article1"),
    "run_llama": ("index", "costs", "article2"),
    "run_palm": ("index", "costs", "article2"),
    "run_gpt3": ("index", "costs"),
    "project_llama": ("index", "costs"),
}
# Where the home page's "Worked out" link for each answer lands: the label of the section that computes
# it, on the first page after the home page in PAGES (tests/test_reading.py checks the built links);
# None would be the page itself. The full fine-tuning's peak is the budget chapter's memory table; what
# the budget buys and the pretraining costs, its table of what the budget buys.
SECTIONS = {
    "budget_buys": "budget-buys",
    "full_ft_fits": "budget-scales",
    "pretrain_gpt2": "budget-buys",
    "pretrain_llama7b": "budget-buys",
    "run_opt": "costs-prices",
    "run_llama": "costs-prices",
    "run_palm": "costs-prices",
    "run_gpt3": "costs-prices",
    "project_llama": "costs-project",
}
GPT3 = "GPT-3 175B (davinci)"  # its row in Epoch AI's data
ON_DEMAND = "Price per chip-hour (on-demand)"
GPU_CLOUDS = ("Microsoft Azure", "Amazon Web Services")  # the providers of the 2022 A100 prices


@dataclasses.dataclass(frozen=True)
class Answer:
    """One answer: its central figure, its range (the same figure when nothing spans one) and the
    figures its sentence pastes, by the names the words table's template uses."""
    id: str
    figure: Figure
    span: Figure
    parts: dict[str, Figure | dict[str, str]]  # a figure, or a word in each language

    def _words(self, lang: str) -> dict:
        return words(lang)["answers"][self.id]

    def question(self, lang: str) -> str:
        return self._fill(self._words(lang)["question"], lang)

    def basis(self, lang: str) -> str:
        return self._words(lang)["basis"]

    def text(self, lang: str) -> str:
        """The answer as every page writes it."""
        return self._fill(self._words(lang)["text"], lang)

    def _fill(self, template: str, lang: str) -> str:
        shown = {k: v.format(lang) if isinstance(v, Figure) else v[lang] for k, v in self.parts.items()}
        return template.format(**shown)

    def as_figure(self) -> Figure:
        """The sentence as a text figure, for a card's context to paste (`{answer}`)."""
        return dataclasses.replace(Figure.says(self.text("en")), items_es=(self.text("es"),))


def _word(key: str) -> dict[str, str]:
    """A word of [answers.words] in both languages, for a sentence to paste."""
    return {lang: words(lang)["answers"]["words"][key] for lang in ("es", "en")}


# ---------------------------------------------------------------- what a budget buys

def _row(i: Inputs, job: str, model: str) -> dict:
    for row in budget.what_budget_buys(i):
        if (row["job"], row["model"]) == (job, model):
            return row
    raise ValueError(f"no {job!r} row for {model!r} in the budget chapter")


def _yes(fits: bool, first: bool = False) -> dict[str, str]:
    """The plain answer, yes or no, from a computed fit (never typed), in both languages; `first`: it opens
    the sentence."""
    word = _word("yes" if fits else "no")
    return {lang: w[:1].upper() + w[1:] for lang, w in word.items()} if first else word


def _peak_range(i: Inputs, peak_gb: float) -> tuple[Figure, dict[str, str]]:
    """A peak's range on one H100 SXM by the planner's measured error (lib.plan.speed.peak_range), and the
    clause that says where that range says otherwise than the peak whether it fits (speed.fit_margin; empty
    where the whole range agrees), in both languages."""
    low, high = speed.peak_range(peak_gb * 1e9)
    margin = speed.fit_margin(peak_gb * 1e9, load_gpus()["h100-sxm"], i)
    if not margin:
        return Figure.memory_range(low / 1e9, high / 1e9), {"es": "", "en": ""}
    end = Figure.memory(speed.margin_end(peak_gb * 1e9, margin) / 1e9)
    return Figure.memory_range(low / 1e9, high / 1e9), {
        lang: words(lang)["answers"]["words"][f"fit_{margin}"].format(peak=end.format(lang)) for lang in ("es", "en")}


def budget_buys(i: Inputs) -> Answer:
    """What the first article's budget buys: hours of one H100 SXM (the GPU the book's memory and
    throughput figures are for; the cheaper, slower PCIe gives the range's top), and what LoRA
    fine-tuning of LLaMA 7B trains on in them, by the planner (lib.chapters.budget.budget_lora, the job
    the budget chapter's planner starts at). It opens with the plain answer, each computed: yes with LoRA
    where it fits one H100 and trains on some tokens; a full fine-tuning in mixed precision, on one H100
    (whether its peak fits, the budget chapter's table) and on a rented node of 8 A100s as Alpaca's ran
    (whether the budget pays its published hours, lib.chapters.budget.rented_full_ft)."""
    usd = budget.budget_usd(i)
    sxm, pcie = compute.hours_bought(usd, i.lambda_h100_sxm_1x), compute.hours_bought(usd, i.lambda_h100_pcie_1x)
    lora = budget.budget_lora(i)
    full = _row(i, "full", "llama7b")
    node = budget.rented_full_ft(i)
    alpaca = budget.rented_full_ft_figures(i, node)
    full_range, full_margin = _peak_range(i, full["memory"])
    return Answer("budget_buys", Figure.of(sxm, "hour", decimals=1),
                  Figure.between(min(sxm, pcie), max(sxm, pcie), "hour", decimals=1), {
                      "lora_yes": _yes(lora["fits"] and lora["tokens"] > 0, first=True),
                      "eur": Figure.of(i.budget_eur, "EUR"),
                      "usd": Figure.of(usd, "USD", decimals=2),
                      "hours": Figure.of(sxm, "hour", decimals=1),
                      "price": Figure.of(i.lambda_h100_sxm_1x, "USD/GPU-hour"),
                      "seen": i.seen_on("lambda_h100_sxm_1x"),
                      "lora": _word("fits" if lora["fits"] else "no_fit"),
                      "tokens": Figure.of(lora["tokens"], "token", compact=True, decimals=1),
                      "tokens_range": Figure.between(lora["tokens_low"], lora["tokens_high"], "token", compact=True, decimals=1),
                      "pcie_hours": Figure.of(pcie, "hour", decimals=1),
                      "pcie_price": Figure.of(i.lambda_h100_pcie_1x, "USD/GPU-hour"),
                      "one_gpu": _yes(full["fits"]),
                      "gpu_memory": Figure.of(i.h100_sxm_memory, "GB"),
                      "full_memory": Figure.memory(full["memory"]),
                      "full_range": full_range,
                      "full_margin": full_margin,
                      "node": _yes(node["budget"] >= node["cost"]),
                      "node_gpus": alpaca["node_gpus"],
                      "alpaca_hours": alpaca["hours"],
                      "node_cost": alpaca["cost"],
                      "a100_price": alpaca["price"],
                      # The node's price and the H100's were seen the same day: its date is not written twice.
                      "a100_seen": {lang: words(lang)["answers"]["words"]["same_day"] for lang in ("es", "en")}
                      if i["lambda_a100_sxm_8x"].seen == i["lambda_h100_sxm_1x"].seen else
                      {lang: words(lang)["answers"]["words"]["seen_on"].format(date=alpaca["seen"].format(lang))
                       for lang in ("es", "en")},
                      "node_hours": alpaca["paid_hours"],
                  })


def full_ft_fits(i: Inputs) -> Answer:
    """Whether a full fine-tuning of LLaMA 7B fits one H100, in both precisions: its peak by the planner in
    mixed precision (the budget chapter's table, the central figure, its range by the planner's measured
    error) and with everything in bf16, each with that range."""
    row, bf16 = _row(i, "full", "llama7b"), budget.full_bf16(i, "llama7b")
    memory = Figure.memory(row["memory"])
    (memory_range, margin), (bf16_range, bf16_margin) = _peak_range(i, row["memory"]), _peak_range(i, bf16["memory"])
    return Answer("full_ft_fits", memory, memory_range, {
        "memory": memory,
        "memory_range": memory_range,
        "margin": margin,
        "gpu_memory": Figure.of(i.h100_sxm_memory, "GB"),
        "fits": _word("fits" if row["fits"] else "no_fit"),
        "bf16_memory": Figure.memory(bf16["memory"]),
        "bf16_fits": _word("fits" if bf16["fits"] else "no_fit"),
        "bf16_range": bf16_range,
        "bf16_margin": bf16_margin,
    })


def pretrain(i: Inputs, model: str) -> Answer:
    """Pretraining a model of the budget chapter (gpt2 or llama7b) on Chinchilla's optimum of tokens, on
    H100 SXM at today's price, by the speed model with its range (the budget chapter's row)."""
    if model not in ("gpt2", "llama7b"):
        raise ValueError(f"no pretraining answer for {model!r}: gpt2 or llama7b")
    row = _row(i, "pretrain", model)
    usd = budget.budget_usd(i)
    style = {"decimals": 2 if row["cost_high"] < 1e3 else 0}
    cost = Figure.of(row["cost"], "USD", **style)
    span = Figure.between(row["cost_low"], row["cost_high"], "USD", **style)
    times = {"decimals": 0 if row["cost_low"] >= 10 * usd else 2}
    return Answer(f"pretrain_{model}", cost, span, {
        "cost": cost,
        "span": span,
        "tokens": Figure.of(row["tokens"], "token", compact=True, decimals=1),
        "price": Figure.of(i.lambda_h100_sxm_1x, "USD/GPU-hour"),
        "seen": i.seen_on("lambda_h100_sxm_1x"),
        "times": Figure.between(row["cost_low"] / usd, row["cost_high"] / usd, "times", **times),
        "paper_tokens": Figure.of(i.llama7b_tokens, "token", compact=True, decimals=0),  # what Meta trained LLaMA 7B on
    })


# ---------------------------------------------------------------- what past runs cost

def gpt3_on_demand(i: Inputs) -> tuple[float, dict[str, tuple[str, float]]]:
    """GPT-3's V100-hours (Epoch AI's data: its paper gives none) and, for each GPU cloud, the
    on-demand price of Epoch's price row closest before the date Epoch looks prices up at."""
    data = epoch.load()
    run = data.models[GPT3]
    target = epoch.training_start(run.model, run.publication, run.training_hours) - epoch.CONSTANTS.cloud_price_before_training
    prices = {}
    for vendor in GPU_CLOUDS:
        row = epoch.closest_row(epoch._vendor_rows(run.hardware, vendor, data), target)
        if row is None or row.price(ON_DEMAND) is None:
            raise ValueError(f"Epoch AI's price file has no on-demand {run.hardware} price from {vendor}")
        prices[vendor] = (row.date.date(), row.price(ON_DEMAND))
    return run.training_hours * run.chips, prices


def _run_basis(i: Inputs, run: str) -> dict:
    """A run's hours (the central figure, the fewest its sources give, and the range), its on-demand prices and their
    years, and today's sensitivity (None where the chip's peak is not in the book's inputs)."""
    if run == "gpt3":
        hours, prices = gpt3_on_demand(i)
        values = [p for _, p in prices.values()]
        return {"hours": hours, "span": (hours, hours), "prices": (min(values), max(values)),
                "days": [d for d, _ in prices.values()], "today": None, "unit": "GPU-hour"}
    span = costs.hour_intervals(i)[run]
    price_names = {"palm": ("tpu_v4_price_on_demand",)}.get(run, ("azure_a100_2022_on_demand", "aws_a100_2022_on_demand"))
    return {"hours": span[0], "span": span, "prices": costs.price_intervals(i)[run]["on_demand"],
            "days": [i[n].seen for n in price_names], "today": costs.cost_intervals(i)[run]["today"],
            "unit": "chip-hour" if run == "palm" else "GPU-hour"}


def price_year(i: Inputs, run: str) -> int:
    """The year of the on-demand prices a past run is costed at (the later one, where two differ)."""
    if run not in PAST_RUNS:
        raise ValueError(f"no past run {run!r}: use one of {', '.join(PAST_RUNS)}")
    return max(d if isinstance(d, int) else d.year for d in _run_basis(i, run)["days"])


def _years(days) -> Figure:
    years = sorted({d if isinstance(d, int) else d.year for d in days})
    return Figure.says(*map(str, years))


def a100_on_demand(i: Inputs) -> tuple[float, float]:
    """The on-demand A100 prices of 2022 (Azure's and AWS's), cheaper first."""
    return costs.price_intervals(i)["llama"]["on_demand"]


def on_demand_span(hours: tuple[float, float], prices: tuple[float, float]) -> Figure:
    """The basis's range: the fewest hours at the cheaper price to the most at the dearer (the costs
    chapter's interval product, as its own on-demand column)."""
    return Figure.between(*costs.interval_product(hours, prices), "USD", decimals=1)


def central_basis(i: Inputs, run: str) -> tuple[float, float]:
    """The device-hours and the price per device-hour of a past run's central figure on the book's one
    basis: the fewest hours its sources give, at the cheaper on-demand price of the year it ran."""
    if run not in PAST_RUNS:
        raise ValueError(f"no past run {run!r}: use one of {', '.join(PAST_RUNS)}")
    b = _run_basis(i, run)
    return b["hours"], b["prices"][0]


def past_run(i: Inputs, run: str) -> Answer:
    """What a past run's final training cost to rent, on the book's one basis (the module's docstring)."""
    if run not in PAST_RUNS:
        raise ValueError(f"no past run {run!r}: use one of {', '.join(PAST_RUNS)}")
    b = _run_basis(i, run)
    p_low, p_high = b["prices"]
    # The central figure keeps the decimal of the range beside it ("$18.0 million ($18.0–27.1 million)").
    money = {"unit": "USD", "decimals": 1, "fixed": True}
    central = Figure.of(compute.rental_cost(*central_basis(i, run)), **money)
    span = on_demand_span(b["span"], b["prices"])
    parts = {
        "cost": central, "span": span, "hours": Figure.of(b["hours"], b["unit"], compact=b["hours"] >= 1e6, decimals=2 if b["hours"] >= 1e6 else 0),
        "price": Figure.between(p_low, p_high, f"USD/{b['unit']}") if p_low != p_high else Figure.of(p_low, f"USD/{b['unit']}"),
        "year": _years(b["days"]),
    }
    if b["today"] is not None:
        parts["today"] = Figure.between(*b["today"], **money)
    return Answer(f"run_{run}", central, span, parts)


# What each of the book's bases measures, and each published method redone by its publisher's own
# (Epoch AI's cloud method prices committed use; its amortised method, owning the hardware).
BOOK_BASES = (("one_year", "commitment"), ("three_year", "commitment"), ("today", "list"))
PUBLISHED_BASES = (("epoch", "cloud", "commitment"), ("epoch", "capex_energy", "owning"))


def evidence(i: Inputs, run: str) -> tuple[Basis, ...]:
    """Every figure the evidence gives for a run's cost (lib.core.span's policy): the book's answer
    (on-demand list prices of the run's year), its commitment and today's bases, and every estimate
    published for the run and redone by its publisher's method (lib.chapters.published), as the
    publisher states it. MosaicML's model: the book's A100-hours at the 2022 A100 tiers (no one
    publishes a method for it that the book can redo)."""
    money = {"unit": "USD", "decimals": 1}
    if run == "mosaic":
        hours = runs.mosaic_a100_hours(i)
        prices = costs.price_intervals(i)["llama"]
        return tuple(Basis(tier, Figure.between(*costs.interval_product((hours, hours), prices[tier]), **money),
                           "list" if tier == "on_demand" else "commitment", BOOK)
                     for tier in ("on_demand", "one_year", "three_year"))
    bases = [Basis("on_demand", past_run(i, run).span, "list", BOOK, headline=True)]
    tiers = costs.cost_intervals(i).get(run, {})
    bases += [Basis(tier, Figure.between(*tiers[tier], **money), measures, BOOK) for tier, measures in BOOK_BASES if tier in tiers]
    data = epoch.load()
    bases += [Basis(f"{who}_{method}", epoch.figure(epoch.published(run, method, data)), measures, who)
              for who, method, measures in PUBLISHED_BASES if data.published[epoch.MODEL_OF_RUN[run]].get(epoch.PUBLISHED_COLUMN[method])]
    if run == "palm":  # the AI Index's figure, Epoch AI's cloud method with the data of that edition
        bases.append(Basis("aiindex", i["aiindex_palm_cost"].figure(**money), "commitment", "aiindex"))
    return tuple(bases)


def project_llama(i: Inputs) -> Answer:
    """LLaMA's whole project (the paper's 2,048 GPUs for about five months, and the hours its energy
    stands for) on the same basis as a past run: the fewer hours at the cheaper price, across both counts of
    hours and both prices."""
    project = costs.whole_project(i)
    low, high = project["cost_on_demand"]
    money = {"unit": "USD", "decimals": 1, "fixed": True}  # one precision beside the range
    hours = costs.project_hours(project)
    central = Figure.of(project["cost_central"], **money)
    return Answer("project_llama", central, Figure.between(low, high, **money), {
        "cost": central,
        "span": Figure.between(low, high, **money),
        "gpus": Figure.of(i.llama_gpus, "GPU"),
        "months": Figure.of(i.llama_project_months, "count"),
        "hours": hours["gpu_hours"],
        "energy_hours": hours["energy_gpu_hours"],
        "mwh": Figure.of(i.llama_project_mwh, "MWh"),
        "ratio": Figure.of(project["hours_ratio"], "times", decimals=1),
    })


# ---------------------------------------------------------------- all of them

@once_per_inputs  # every page states the answers (answers_page), and the home page's findings again
def answer(i: Inputs, answer_id: str) -> Answer:
    """One answer by its id."""
    if answer_id == "budget_buys":
        return budget_buys(i)
    if answer_id == "full_ft_fits":
        return full_ft_fits(i)
    if answer_id.startswith("pretrain_"):
        return pretrain(i, answer_id.removeprefix("pretrain_"))
    if answer_id.startswith("run_"):
        return past_run(i, answer_id.removeprefix("run_"))
    if answer_id == "project_llama":
        return project_llama(i)
    raise ValueError(f"no answer {answer_id!r}: use one of {', '.join(ORDER)}")


def all_answers(i: Inputs) -> list[Answer]:
    return [answer(i, a) for a in ORDER]
