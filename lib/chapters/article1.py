"""How each claim is recomputed from sourced inputs (`i`) and, where the article
shows its own arithmetic, from the article's stated figures (`c`)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
from functools import lru_cache

from lib.chapters import answers
from lib.chapters.runs import llama_utilisation, opt_wall_clock_days, opt_wall_clock_gpu_hours
from lib.chapters import budget, epoch
from lib.chapters import compute
from lib.core.claims import Recomputed, recomputes
from lib.core.figure import Figure
from lib.core.words import words



def source_place(i, name: str) -> Figure:
    """Where in its source an input is (a section, a table), in the page's language."""
    return Figure.place(i[name].locator)


# ---------------------------------------------------------------- article 1

@recomputes("A1-dolma-tokens")
def dolma_tokens(i, c):
    return Recomputed(Figure.of(i.dolma_tokens, "token", compact=True, decimals=0),
                      figures={"disk": Figure.of(i.dolma_v15_disk, "TB", decimals=1)})


@recomputes("A1-dolma-license")
def dolma_license(i, c):
    return Recomputed(Figure.says(i.dolma_license), figures={"since": Figure.on(i.dolma_license_since)})


def lora_params(i) -> float:
    return compute.lora_trainable_params(i.gpt3_d_model, i.gpt3_layers, i.lora_adapted_matrix_types, i.lora_rank)


def lora_reduction(i) -> float:
    """How many times fewer parameters LoRA trains than full fine-tuning of GPT-3 175B."""
    return i.gpt3_full_ft_trainable / lora_params(i)


@recomputes("A1-lora-params")
def lora_params_reduction(i, c):
    lora = lora_params(i)
    return Recomputed(
        Figure.of(i.lora_abstract_param_reduction, "times"),
        figures={
            "rebuilt": Figure.of(lora_reduction(i), "times"),
            "where": source_place(i, "lora_abstract_param_reduction"),
            "lora_params": Figure.of(lora, "parameter"),
            "full_params": Figure.of(i.gpt3_full_ft_trainable, "parameter", compact=True, decimals=1),
            "layers": Figure.of(i.gpt3_layers, "layer"),
            "d_model": Figure.of(i.gpt3_d_model, ""),
            "rank": Figure.of(i.lora_rank, ""),
            "matrices": Figure.of(i.lora_adapted_matrix_types, "matrix"),
            "checkpoint_mb": Figure.of(lora * i.bytes_fp16_weight / 1e6, "MB", decimals=1),
            "paper_checkpoint": Figure.of(i.lora_checkpoint, "MB"),
        },
    )


@recomputes("A1-lora-memory")
def lora_memory(i, c):
    frozen = compute.training_memory_gb(i.gpt3_full_ft_trainable, i.bytes_fp16_weight)
    return Recomputed(
        Figure.of(i.lora_abstract_memory_reduction, "times"),
        figures={"rebuilt": Figure.of(i.lora_vram_full / i.lora_vram_lora, "times", decimals=1),
                 "where": source_place(i, "lora_abstract_memory_reduction"),
                 "full": Figure.of(i.lora_vram_full, "GB"), "lora": Figure.of(i.lora_vram_lora, "GB"),
                 "frozen": Figure.of(frozen, "GB", decimals=1)},
    )


def cheapest_single_h100(i) -> tuple[str, float]:
    """The H100 that Lambda rents alone at the lowest price ("from $X"): its variant and price."""
    return min((("H100 SXM", i.lambda_h100_sxm_1x), ("H100 PCIe", i.lambda_h100_pcie_1x)), key=lambda vp: vp[1])


def article_price_date(i, name: str, stated: float) -> str:
    """The date side of a price the article quotes: while the source's price is the article's, it is
    the price of the article's day; once it differs and was seen after the earliest day the article
    can have been written, it is a later price (the claim then needs context, date), not a wrong one."""
    if i[name].value == stated or i[name].seen <= i.article1_written_after:
        return "the price of the article's day"
    return "a price seen after the article was written"


def _price_claim(i, c, claim_id: str, name: str, figures: dict) -> Recomputed:
    """A price the article quotes: today's sourced price (with the day it was seen), the article's
    own as its side, and the date mismatch that holds while the two differ."""
    stated = c[claim_id].stated
    return Recomputed(
        Figure.of(i[name].value, "USD/GPU-hour"),
        as_stated=stated,
        figures={"seen": i.seen_on(name), "written_after": Figure.on(i.article1_written_after), **figures},
        facts={"price_date": article_price_date(i, name, stated.value)},
    )


@recomputes("A1-lambda-h100-1x")
def lambda_h100_1x(i, c):
    variant, price = cheapest_single_h100(i)
    name = "lambda_h100_pcie_1x" if variant == "H100 PCIe" else "lambda_h100_sxm_1x"
    return _price_claim(
        i, c, "A1-lambda-h100-1x", name,
        figures={"variant": Figure.says(variant), "pcie": Figure.of(i.lambda_h100_pcie_1x, "USD/GPU-hour"),
                 "sxm": Figure.of(i.lambda_h100_sxm_1x, "USD/GPU-hour"),
                 "sxm_2025": Figure.of(i.lambda_h100_sxm_1x_2025, "USD/GPU-hour"),
                 "sxm_2025_seen": i.seen_on("lambda_h100_sxm_1x_2025"),
                 "node_2024": Figure.of(i.lambda_h100_sxm_8x_2024, "USD/GPU-hour"),
                 "node_2024_seen": i.seen_on("lambda_h100_sxm_8x_2024"),
                 # Beside the PCIe price, its own day, whichever variant is the cheaper.
                 "seen": i.seen_on("lambda_h100_pcie_1x"),
                 "sxm_seen": i.seen_on("lambda_h100_sxm_1x")},
    )


@recomputes("A1-lambda-h100-8x")
def lambda_h100_8x(i, c):
    return _price_claim(i, c, "A1-lambda-h100-8x", "lambda_h100_sxm_8x", figures={})


@recomputes("A1-opt-gpus")
def opt_gpus(i, c):
    return Recomputed(Figure.of(i.opt_gpus, "GPU"), figures={"where": source_place(i, "opt_gpus")})


def opt_effective_gpu_hours(i) -> tuple[float, float, float]:
    """OPT-175B's compute in GPU-hours, three ways: LLaMA's Table 15, the logbook's
    ideal run, and the logbook's FLOPs at OPT's own throughput per GPU."""
    return (
        i.opt_llama_table_gpu_hours,
        compute.gpu_hours(i.opt_ideal_gpus, compute.days_to_hours(i.opt_ideal_days)),
        compute.flops_to_device_hours(i.opt_total_flops, i.opt_tflops_per_gpu),
    )


@recomputes("A1-opt-duration", calculated=True)
def opt_duration(i, c):
    effective_days = i.opt_llama_table_gpu_hours / i.opt_gpus / compute.HOURS_PER_DAY
    return Recomputed(
        Figure.of(opt_wall_clock_days(i) / compute.DAYS_PER_MONTH, "month", decimals=1),
        figures={
            "days": Figure.of(opt_wall_clock_days(i), "day"),
            "start": Figure.on(i.opt_run_start),
            "end": Figure.on(i.opt_run_end),
            "effective_days": Figure.of(effective_days, "day"),
            "gpus": Figure.of(i.opt_gpus, "GPU"),
        },
    )


@recomputes("A1-opt-year", calculated=True)
def opt_year(i, c):
    return Recomputed(
        Figure.between(i.opt_run_start.year, i.opt_run_end.year, "calendar-year"),
        figures={
            "start": Figure.on(i.opt_run_start),
            "end": Figure.on(i.opt_run_end),
            "start_year": Figure.of(i.opt_run_start.year, "calendar-year"),
            "end_year": Figure.of(i.opt_run_end.year, "calendar-year"),
        },
        facts={"end_year": str(i.opt_run_end.year)},
    )


def article_opt_gpu_hours(c) -> float:
    """The article's own sum: its GPUs × 24 h × its days."""
    a = c["A1-opt-gpu-hours"].arithmetic
    return compute.gpu_hours(a["gpus"], a["hours_per_day"] * a["days"])


@recomputes("A1-opt-gpu-hours", calculated=True)
def opt_gpu_hours(i, c):
    effective = opt_effective_gpu_hours(i)
    article = article_opt_gpu_hours(c)
    wall_clock = opt_wall_clock_gpu_hours(i)
    return Recomputed(
        Figure.between(min(effective), max(effective), "GPU-hour"),
        as_stated=Figure.of(article, "GPU-hour"),
        figures={
            "llama_table": Figure.of(effective[0], "GPU-hour"),
            "llama_where": source_place(i, "opt_llama_table_gpu_hours"),
            "logbook_ideal": Figure.of(effective[1], "GPU-hour"),
            "ideal_days": Figure.of(i.opt_ideal_days, "day"),
            "ideal_gpus": Figure.of(i.opt_ideal_gpus, "GPU"),
            "from_flops": Figure.of(effective[2], "GPU-hour"),
            "flops": Figure.of(i.opt_total_flops, "FLOP"),
            "tflops": Figure.of(i.opt_tflops_per_gpu / 1e12, ""),
            "wall_clock": Figure.of(wall_clock, "GPU-hour"),
            "lost": Figure.of(1 - effective[0] / wall_clock, "fraction", decimals=0),
        },
        facts={"basis": i.opt_compute_basis},
    )


def opt_h100_hours(i) -> float:
    """OPT-175B's compute (logbook FLOPs) on H100s at the utilisation OPT achieved on A100s."""
    utilisation = i.opt_tflops_per_gpu / i.a100_bf16_peak
    dense_peak = i.h100_sxm_bf16_sparse_peak / 2  # the datasheet's figure is with sparsity
    return compute.flops_to_device_hours(i.opt_total_flops, dense_peak, utilisation)


def opt_cost_scenarios(i, c) -> list[tuple[str, float, float]]:
    """OPT-175B's rental cost five ways: (scenario, GPU-hours, price per GPU-hour). The article's
    sum first, then the book's answer (lib.chapters.answers.past_run: the effective compute at the
    on-demand A100 price of the year it ran), the logbook's wall clock and the effective compute at
    today's A100 price, and its compute on H100s at today's H100 price."""
    return [
        ("article", article_opt_gpu_hours(c), c["A1-lambda-h100-8x"].stated.value),
        ("answer", *answers.central_basis(i, "opt")),
        ("wall_a100", opt_wall_clock_gpu_hours(i), i.lambda_a100_sxm_8x),
        ("h100", opt_h100_hours(i), i.lambda_h100_sxm_8x),
        ("eff_a100", i.opt_llama_table_gpu_hours, i.lambda_a100_sxm_8x),
    ]


@recomputes("A1-opt-cost")
def opt_cost(i, c):
    cost = {name: compute.rental_cost(hours, price) for name, hours, price in opt_cost_scenarios(i, c)}
    answer = answers.past_run(i, "opt")
    # Judged against the span of the evidence (lib.core.span): the book's answer (the run's hours at the
    # on-demand prices of the year it ran) is one basis of it, beside the commitments, today's prices and
    # Epoch AI's estimates.
    return Recomputed.against(
        answers.evidence(i, "opt"),
        as_stated=Figure.of(cost["article"], "USD", decimals=2),
        figures={
            "answer": answer.as_figure(),
            "at_a100": Figure.of(cost["eff_a100"], "USD", decimals=2),
            "at_h100": Figure.of(cost["h100"], "USD", decimals=2),
            "h100_hours": Figure.of(opt_h100_hours(i), "GPU-hour", compact=True, decimals=0),
            "utilisation": Figure.of(i.opt_tflops_per_gpu / i.a100_bf16_peak, "fraction", decimals=0),
            "wall_clock_a100": Figure.of(cost["wall_a100"], "USD", decimals=2),
            "a100_price": Figure.of(i.lambda_a100_sxm_8x, "USD/GPU-hour"),
            "article_h100_price": c["A1-lambda-h100-8x"].stated,
            "h100_price": Figure.of(i.lambda_h100_sxm_8x, "USD/GPU-hour"),
            "seen": i.seen_on("lambda_a100_sxm_8x"),
            "h100_seen": i.seen_on("lambda_h100_sxm_8x"),
            "epoch": epoch.figure(epoch.published("opt", "cloud")),
        },
        facts={"hardware": i.opt_gpu_model, "basis": i.opt_compute_basis},
    )


@recomputes("A1-opt-params")
def opt_params(i, c):
    return Recomputed(Figure.of(i.opt_params, "parameter", compact=True), figures={"where": source_place(i, "opt_params")})


@recomputes("A1-opt-manual-restarts")
def opt_manual_restarts(i, c):
    return Recomputed(i["opt_manual_restarts"].figure("count"), figures={"where": source_place(i, "opt_manual_restarts")})


@recomputes("A1-opt-hosts")
def opt_hosts(i, c):
    return Recomputed(i["opt_hosts_cycled"].figure("count"), figures={"where": source_place(i, "opt_hosts_cycled")})


@recomputes("A1-opt-auto-restarts")
def opt_auto_restarts(i, c):
    return Recomputed(i["opt_auto_restarts"].figure("count"), figures={"where": source_place(i, "opt_auto_restarts")})


@recomputes("A1-opt-clip")
def opt_clip(i, c):
    return Recomputed(
        Figure.series((i.opt_clip_before, i.opt_clip_after), "", decimals=1),
        figures={"before": Figure.of(i.opt_clip_before, "", decimals=1), "after": Figure.of(i.opt_clip_after, "", decimals=1),
                 "where": source_place(i, "opt_clip_before")},
    )


@recomputes("A1-opt-lr")
def opt_lr(i, c):
    return Recomputed(Figure.quoting("en", *i.opt_divergence_remedy.split("; ")),
                      figures={"where": source_place(i, "opt_divergence_remedy")})


def budget_usd(i) -> float:
    return compute.convert(i.budget_eur, "EUR", "USD", i.budget_rate_date)


@lru_cache(maxsize=64)
def last_day_at_rate(low: float, high: float, before: dt.date) -> dt.date | None:
    """The last day before `before` on which the ECB's dollars per euro were between low and high."""
    earliest = before - dt.timedelta(days=3660)  # ten years back at most
    for day, rate in reversed(compute.ecb_series("USD")):
        if day < earliest:
            break
        if day < before and low <= rate <= high:
            return day
    return None


@recomputes("A1-budget-eur-usd", calculated=True)
def budget_eur_usd(i, c):
    # The article mentions gpt-oss: it was written after gpt-oss's card, and before the ECB's last rate here.
    stated = c["A1-budget-eur-usd"].stated
    implied = (stated.low / i.budget_eur, stated.high / i.budget_eur)
    rates = compute.ecb_rates("USD", i.gptoss_card_month, i.budget_rate_date).values()
    low, high = min(rates), max(rates)
    inside = low <= implied[1] and implied[0] <= high
    last = last_day_at_rate(*implied, i.gptoss_card_month)
    return Recomputed(
        Figure.between(i.budget_eur * low, i.budget_eur * high, "USD", decimals=2),
        figures={
            "budget": Figure.of(i.budget_eur, "EUR", decimals=0),
            "card_month": Figure.on(i.gptoss_card_month),
            "rate_date": Figure.on(i.budget_rate_date),
            "rate_low": Figure.of(low, "", decimals=4),
            "rate_high": Figure.of(high, "", decimals=4),
            "implied_low": Figure.of(implied[0], "", decimals=3),
            "implied_high": Figure.of(implied[1], "", decimals=3),
            "last_day": Figure.on(last) if last else Figure.says("—"),
        },
        facts={"rate_date": "the article's days" if inside else (last.isoformat() if last else "no date")},
    )


@recomputes("A1-budget-hours", calculated=True)
def budget_hours(i, c):
    usd = budget_usd(i)
    return Recomputed(
        Figure.of(compute.hours_bought(usd, cheapest_single_h100(i)[1]), "hour", decimals=1),
        figures={
            "budget_usd": Figure.of(usd, "USD", decimals=2),
            "pcie": Figure.of(i.lambda_h100_pcie_1x, "USD/GPU-hour"),
            "sxm": Figure.of(i.lambda_h100_sxm_1x, "USD/GPU-hour"),
            "hours_sxm": Figure.of(compute.hours_bought(usd, i.lambda_h100_sxm_1x), "hour", decimals=1),
            "rate_date": Figure.on(i.budget_rate_date),
            "seen": i.seen_on("lambda_h100_sxm_1x"),  # beside the single H100 SXM's price
            "pcie_seen": i.seen_on("lambda_h100_pcie_1x"),  # beside the H100 PCIe's
        },
    )


@recomputes("A1-frontier-fraction", calculated=True)
def frontier_fraction(i, c):
    cluster_per_hour = compute.rental_cost(compute.gpu_hours(i.opt_gpus, 1), i.lambda_h100_sxm_8x)
    hours = compute.hours_bought(budget_usd(i), cluster_per_hour)
    return Recomputed(
        Figure.of(hours, "hour", decimals=2),
        figures={
            "minutes": Figure.of(hours * 60, "minute", decimals=1),
            "cluster_per_hour": Figure.of(cluster_per_hour, "USD", decimals=0),
            "gpus": Figure.of(i.opt_gpus, "GPU", qualifier="H100"),
            # what the cluster is rented at: each GPU at Lambda's price for a node's, of the day it was seen
            "price": Figure.of(i.lambda_h100_sxm_8x, "USD/GPU-hour"),
            "seen": i.seen_on("lambda_h100_sxm_8x"),
        },
    )


@recomputes("A1-gptoss")
def gptoss(i, c):
    hours = i.gptoss_120b_h100_hours
    return Recomputed(
        Figure.quoting("en", i.gptoss_weights, i.gptoss_license_kind),
        figures={
            "license": Figure.says(i.gptoss_license),
            "params": Figure.of(i.gptoss_120b_params, "parameter", compact=True, decimals=0),
            "h100_hours": Figure.of(hours, "GPU-hour", compact=True, decimals=1),
            "cost": Figure.of(compute.rental_cost(hours, i.lambda_h100_sxm_8x), "USD", decimals=1),
            "price": Figure.of(i.lambda_h100_sxm_8x, "USD/GPU-hour"),
        },
    )


def orders_of_magnitude(*values: float) -> list[int]:
    """The power of ten of each value (175e9 -> 11)."""
    return [math.floor(math.log10(compute._number("value", v))) for v in values]


@recomputes("A1-three-scales", calculated=True)
def three_scales(i, c):
    # Parameters each operation trains on GPT-3 175B: pretraining and full fine-tuning all of them.
    trained = {"pretraining": i.gpt3_full_ft_trainable, "full": i.gpt3_full_ft_trainable, "lora": lora_params(i)}
    # The article's own three steps: a corpus "thousands of times smaller" (data), then
    # LoRA's "10,000 times" fewer parameters (parameters); 1 stands for pretraining.
    data_gap = c["A1-ft-corpus-ratio"].stated.low
    param_gap = c["A1-lora-params"].stated.value
    steps = orders_of_magnitude(1, 1 / data_gap, 1 / data_gap / param_gap)
    # The sources measure the three operations in trainable parameters only, unless a
    # source gives the data gap in the same unit too.
    data_sourced = ft_corpus_ratio(i, c).sourced is not None
    return Recomputed(
        Figure.of(len(set(orders_of_magnitude(*trained.values()))), "order of magnitude"),
        as_stated=Figure.of(len(set(steps)), "order of magnitude"),
        facts={"measured_in": "parameters and data" if data_sourced else "parameters"},
        figures={
            "lora_stated": Figure.of(param_gap, "times"),
            "ratio": Figure.of(lora_reduction(i), "times"),
            "orders": Figure.of(math.log10(lora_reduction(i)), "order of magnitude", decimals=1),
            "full_params": Figure.of(i.gpt3_full_ft_trainable, "parameter", compact=True, decimals=1),
            "lora_params": Figure.of(lora_params(i), "parameter", compact=True, decimals=1),
            "dolma_tokens": Figure.of(i.dolma_tokens, "token", compact=True, decimals=0),
        },
    )


@recomputes("A1-laptop", calculated=True)
def laptop(i, c):
    flops = compute.training_flops(i.olmo_small_params, i.dolma_tokens, i.flops_per_param_token)
    # Model FLOPs (C = k·N·D) go with a model FLOPs utilisation: the one LLaMA 65B's measured throughput
    # implies on the A100, as MosaicML's run is timed (lib.chapters.article2).
    utilisation = llama_utilisation(i)
    hours = compute.flops_to_device_hours(flops, i.a100_bf16_peak, utilisation)
    return Recomputed(
        Figure.of(hours / compute.HOURS_PER_DAY / 365, "year", decimals=1),
        figures={
            "disk": Figure.of(i.dolma_v15_disk, "TB", decimals=1),
            "flops": Figure.of(flops, "FLOP"),
            "params": Figure.of(i.olmo_small_params, "parameter", compact=True, decimals=0),
            "tokens": Figure.of(i.dolma_tokens, "token", compact=True, decimals=0),
            "utilisation": Figure.of(utilisation, "fraction", decimals=0),
            "k": Figure.of(i.flops_per_param_token, ""),
            "gpu_hours": Figure.of(hours, "GPU-hour"),
        },
    )


@recomputes("A1-full-ft-gpus")
def full_ft_gpus(i, c):
    per_param = compute.training_bytes_per_param(i.bytes_fp16_weight, i.bytes_fp16_gradient, i.bytes_adam_states)
    # LLaMA 7B counted from its configuration, as Alpaca's card and the budget chapter count its states.
    params = budget.llama7b_config_params(i)
    memory = compute.training_memory_gb(params, per_param)
    return Recomputed(
        Figure.of(i.alpaca_gpus, "GPU", qualifier="A100"),
        figures={
            "needed": Figure.of(compute.devices_needed(memory, i.a100_80gb_memory), "GPU"),
            "hours": Figure.of(i.alpaca_hours, "hour"),
            "bytes": Figure.of(per_param, "byte/parameter"),
            "params": Figure.of(params, "parameter", compact=True, decimals=2),
            "memory": Figure.of(memory, "GB"),
            "gpu_memory": Figure.of(i.a100_80gb_memory, "GB"),
        },
    )


@recomputes("A1-lora-attribution")
def lora_attribution(i, c):
    published = i.lora_v1_date
    return Recomputed(
        dataclasses.replace(Figure.says(i.lora_first_author, i.lora_affiliation, str(published.year)), worded=tuple(
            words(lang)["attribution"].format(author=i.lora_first_author, affiliation=i.lora_affiliation,
                                              year=published.year) for lang in ("en", "es"))),
        figures={"author": Figure.says(i["lora_first_author"].quote), "affiliation": Figure.says(i.lora_affiliation),
                 "published": Figure.on(published), "venue_year": Figure.of(i.lora_venue_year, "calendar-year")},
    )


@recomputes("A1-gptoss-compute")
def gptoss_compute(i, c):
    # The card publishes H100-hours only: no GPU count to check "hundreds" against.
    stated = c["A1-gptoss-compute"].stated
    months = {n: i.gptoss_120b_h100_hours / n / compute.HOURS_PER_MONTH for n in (stated.low, stated.high)}
    return Recomputed(
        None,
        figures={
            "h100_hours": Figure.of(i.gptoss_120b_h100_hours, "GPU-hour", compact=True, decimals=1),
            "months_at_100": Figure.of(months[stated.low], "month", decimals=0),
            "months_at_1000": Figure.of(months[stated.high], "month", decimals=1),
        },
    )


@recomputes("A1-full-ft-duration")
def full_ft_duration(i, c):
    return Recomputed(
        Figure.of(i.alpaca_hours, "hour"),
        figures={
            "params": Figure.of(i.alpaca_params, "parameter", compact=True, decimals=0),
            "examples": Figure.of(i.alpaca_examples, "example"),
            "gpus": Figure.of(i.alpaca_gpus, "GPU"),
            "gpu_hours": Figure.of(compute.gpu_hours(i.alpaca_gpus, i.alpaca_hours), "GPU-hour"),
        },
    )


@recomputes("A1-ft-examples")
def ft_examples(i, c):
    return Recomputed(Figure.of(i.alpaca_examples, "example"))


@recomputes("A1-ft-corpus-ratio")
def ft_corpus_ratio(i, c):
    # No source gives a fine-tuning set and a pretraining corpus in the same unit.
    return Recomputed(None, figures={"dolma_tokens": Figure.of(i.dolma_tokens, "token", compact=True, decimals=0),
                                     "alpaca_examples": Figure.of(i.alpaca_examples, "example")})


# ---------------------------------------------------------------- LoRA's quality against full fine-tuning

# Table 4 of the LoRA paper (GPT-3 175B): the metrics, and the rows compared (full fine-tuning and
# the two LoRA configurations). Input names are lora_t4_<row>_<metric>.
LORA_T4_METRICS = {"wikisql": "WikiSQL", "mnli": "MNLI-m", "samsum_r1": "SAMSum Rouge-1",
                   "samsum_r2": "SAMSum Rouge-2", "samsum_rl": "SAMSum Rouge-L"}
LORA_T4_ROWS = ("small", "large")


def lora_quality_ratios(i) -> dict[tuple[str, str], float]:
    """LoRA's score over full fine-tuning's, for each LoRA row of Table 4 and each metric."""
    return {(row, m): i[f"lora_t4_lora_{row}_{m}"].value / i[f"lora_t4_ft_{m}"].value
            for row in LORA_T4_ROWS for m in LORA_T4_METRICS}


@recomputes("A1-lora-quality", calculated=True)
def lora_quality(i, c):
    ratios = lora_quality_ratios(i)
    (worst_row, worst_metric), worst = min(ratios.items(), key=lambda kv: kv[1])
    figures = {f"{row}_{m}": Figure.of(r, "fraction", decimals=1) for (row, m), r in ratios.items()}
    figures |= {f"ft_{m}": Figure.of(i[f"lora_t4_ft_{m}"].value, "point", decimals=1) for m in LORA_T4_METRICS}
    figures |= {f"lora_{row}_{m}": Figure.of(i[f"lora_t4_lora_{row}_{m}"].value, "point", decimals=1)
                for row in LORA_T4_ROWS for m in LORA_T4_METRICS}
    return Recomputed(
        Figure.of(worst, "fraction", decimals=1),
        figures=figures | {
            "best": Figure.of(max(ratios.values()), "fraction", decimals=1),
            "worst_metric": Figure.says(LORA_T4_METRICS[worst_metric]),
            "worst_ft": Figure.of(i[f"lora_t4_ft_{worst_metric}"].value, "point", decimals=1),
            "worst_lora": Figure.of(i[f"lora_t4_lora_{worst_row}_{worst_metric}"].value, "point", decimals=1),
            "worst_params": Figure.of(i[f"lora_t4_{worst_row}_params"].value, "parameter", compact=True, decimals=1),
            "small": Figure.of(i.lora_t4_small_params, "", compact=True, decimals=1),
            "large": Figure.of(i.lora_t4_large_params, "", compact=True, decimals=1),
            "full_params": Figure.of(i.gpt3_full_ft_trainable, "parameter", compact=True, decimals=1),
            "abstract": Figure.quoting("en", i.lora_abstract_quality),
            "abstract_where": source_place(i, "lora_abstract_quality"),
            "where": source_place(i, "lora_t4_ft_wikisql"),
        },
    )


# ---------------------------------------------------------------- OPT's mid-flight changes

def _in(lang: str, text: str) -> str:
    """A source's text in `lang`, from the words table where it has one (else as the source says it)."""
    return words(lang)["fact"].get(text, text)


def _shown_in_both(*parts: str) -> Figure:
    """Text parts, shown on each page in the words table's words where it has them."""
    return dataclasses.replace(Figure.says(*(_in("en", p) for p in parts)), items_es=tuple(_in("es", p) for p in parts))


@recomputes("A1-opt-midflight")
def opt_midflight(i, c):
    # What the paper says it changed mid-flight in the words the article quotes (Section 2.2: "a
    # number of mid-flight changes to LR"), and the other mid-flight changes of Section 2.5.
    return Recomputed(
        _shown_in_both(*i.opt_midflight_lr.split("; ")),
        figures={
            "where_lr": source_place(i, "opt_midflight_lr"),
            "lr_caption": Figure.says(i["opt_midflight_lr"].quote.rstrip(".")),
            "where_other": source_place(i, "opt_other_midflight_changes"),
            "other": Figure.says(i["opt_other_midflight_changes"].quote),
            "other_changes": _shown_in_both(i.opt_other_midflight_changes),
        },
    )


# ---------------------------------------------------------------- what EUR 200 pays of a full fine-tuning

COVERAGE = ("entirely", "partly", "tenth")


def coverage(share: float, tenth: float) -> str:
    """How much of a job a budget pays, from the share of its cost the budget covers: all of it,
    part of it, or less than `tenth` of it (the book's reading of "not even a fraction")."""
    share = compute._number("share", share)
    if share >= 1:
        return "entirely"
    return "partly" if share >= tenth else "tenth"


def coverage_figure(*keys: str) -> Figure:
    """Coverage words, in each page's language (lib/data/words, table coverage)."""
    return dataclasses.replace(Figure.says(*(words("en")["coverage"][key] for key in keys)),
                               items_es=tuple(words("es")["coverage"][key] for key in keys))



@recomputes("A1-budget-full-ft-partial")
def budget_full_ft_partial(i, c):
    claim = c["A1-budget-full-ft-partial"]
    # "Not even a fraction" is read as less than a tenth (A1-frontier-fraction): the same reading here.
    tenth = c["A1-frontier-fraction"].stated.high
    by_word = {words("en")["coverage"][key].casefold(): key for key in COVERAGE}
    if claim.stated.items[0].casefold() not in by_word:
        raise ValueError(f"{claim.id} states {claim.stated.items[0]!r}: use one of the coverage words")
    # A published full fine-tuning (Alpaca's), rented by the whole node as Lambda bills it.
    job = budget.rented_full_ft(i)
    paid = coverage_figure(coverage(job["share"], tenth))
    return Recomputed(paid, figures=budget.rented_full_ft_figures(i, job) | {"coverage": paid})


# ---------------------------------------------------------------- a LoRA of gpt-oss in the budget's hours

LORA_TIME = ("plenty", "enough", "short", "no_fit")
# The book's reading of "de sobra" (plenty), stated on the cards: the hours run the job at least twice,
# so that what is left over is at least what is used.
PLENTY_TIMES = 2


def lora_time(runs: float | None) -> str:
    """How much time a budget leaves for a job, from how many times its hours run it: plenty (at least
    PLENTY_TIMES), enough (at least once), short; `None` where the job does not fit the GPU's memory,
    so that no number of hours is enough (no_fit)."""
    if runs is None:
        return "no_fit"
    runs = compute._number("runs", runs)
    if runs >= PLENTY_TIMES:
        return "plenty"
    return "enough" if runs >= 1 else "short"


def lora_time_figure(key: str) -> Figure:
    """A word of the lora_time scale, in each page's language (lib/data/words, table lora_time)."""
    return dataclasses.replace(Figure.says(words("en")["lora_time"][key]), items_es=(words("es")["lora_time"][key],))


def _stated_lora_time(claim) -> str:
    by_word = {words("en")["lora_time"][key].casefold(): key for key in LORA_TIME}
    if claim.stated.items[0].casefold() not in by_word:
        raise ValueError(f"{claim.id} states {claim.stated.items[0]!r}: use one of the lora_time words")
    return by_word[claim.stated.items[0].casefold()]


def _listed(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


# The model of OpenAI's fine-tuning example, as the planner ships it (lib/data/models).
GPTOSS_FT_MODEL = "gpt-oss-20b"


def gptoss_ft_job(i, checkpointing: bool | None = None, model: str = GPTOSS_FT_MODEL):
    """OpenAI's fine-tuning example for gpt-oss-20b (openai2025gptossfinetune) as the planner's job: the
    shipped config (lib/data/models/gpt-oss-20b.json, or `model`'s: the same recipe on gpt-oss-120b), LoRA
    of the example's rank on every linear layer and on the expert stacks of the layers it names, its
    sequence length and batch, its attention, and its gradient checkpointing (or `checkpointing`, to see
    what that setting saves)."""
    from lib.plan import memory as plan_memory
    from lib.plan import shapes as plan_shapes

    switch = {"True": True, "False": False}
    if i.gptoss_ft_checkpointing not in switch:
        raise ValueError(f"gptoss_ft_checkpointing is {i.gptoss_ft_checkpointing!r}: True or False, as the example writes it")
    targets = i.gptoss_ft_targets
    job = plan_memory.Job(
        plan_shapes.shape(plan_shapes.load_config(model)), "lora",
        seq=int(budget._size("gptoss_ft_max_length", i.gptoss_ft_max_length, whole=True)),
        batch=int(budget._size("gptoss_ft_batch", i.gptoss_ft_batch, whole=True)),
        checkpointing=switch[i.gptoss_ft_checkpointing] if checkpointing is None else checkpointing,
        attention=i.gptoss_ft_attention, rank=int(budget._size("gptoss_ft_rank", i.gptoss_ft_rank, whole=True)),
        targets=targets if targets == plan_memory.ALL_LINEAR else _listed(targets),
        target_parameters=_listed(i.gptoss_ft_expert_parameters),
        parameter_layers=tuple(int(n) for n in _listed(i.gptoss_ft_expert_layers)))
    # The planner holds LoRA's frozen weights in bf16: the example must load them so too.
    weight_bytes = plan_memory.states(job)["weights"] / plan_shapes.param_count(job.shape)["total"]
    if budget.bits_to_bytes("gptoss_ft_weight_bits", i.gptoss_ft_weight_bits) != weight_bytes:
        raise ValueError(f"the example loads its weights in {i.gptoss_ft_weight_bits:g} bits; the planner's LoRA "
                         f"holds them in {8 * weight_bytes:g}")
    return job


def gptoss_ft_tokens(i) -> float:
    """The most tokens one run of the example trains on: its examples, each cut to max_length, its epochs
    (an upper bound: an example shorter than max_length trains on fewer)."""
    return compute._number("gptoss_ft_examples", i.gptoss_ft_examples) * i.gptoss_ft_max_length * i.gptoss_ft_epochs


def gptoss_ft(i) -> dict:
    """The example on the H100 SXM the budget rents (lib.chapters.answers.budget_buys): its peak by the
    planner, whether it fits, how many times the budget's hours would run it at the example's own measured
    time (where it fits: the verdict rests on that measurement), the tokens they would train at most; the
    book's calculation of one run beside it: by the speed model (`model_minutes`, with `model_minutes_low`
    and `_high` from its range, lib.plan.validation.speed_range), and at PaLM's utilisation (`palm_minutes`,
    the MFU path the first article's budget figure assumes); and the utilisation of the GPU's bf16 peak at
    which the example ran in its measured time (at most that, since its tokens are at most those counted)."""
    from lib.plan import memory as plan_memory
    from lib.plan import speed as plan_speed
    from lib.plan.gpus import load_gpus

    gpu = load_gpus()["h100-sxm"]
    job = gptoss_ft_job(i)
    peak = plan_memory.parts(job)["peak"]
    fits = plan_speed.fits(peak, gpu)
    hours = answers.budget_buys(i).figure.value
    measured = compute._number("gptoss_ft_minutes", i.gptoss_ft_minutes)
    runs = hours * 60 / measured
    tokens = gptoss_ft_tokens(i)
    model = plan_speed.speed(job, gpu, tokens, i=i)
    palm_minutes = plan_speed.speed(job, gpu, tokens, mfu=i.palm_mfu, i=i)["hours"] * 60
    # Hours go as 1 / utilisation: PaLM's utilisation scaled by its minutes over the example's.
    utilisation = i.palm_mfu * palm_minutes / measured
    return {"job": job, "gpu": gpu, "peak": peak, "fits": fits, "hours": hours, "runs": runs,
            "tokens": tokens, "budget_tokens": runs * tokens,
            "peak_unchecked": plan_memory.parts(gptoss_ft_job(i, checkpointing=False))["peak"],
            "palm_minutes": palm_minutes, "model_minutes": model["hours"] * 60,
            "model_minutes_low": model["hours_low"] * 60, "model_minutes_high": model["hours_high"] * 60,
            "utilisation": utilisation}


def _gptoss_ft_figures(i, job: dict) -> dict[str, Figure]:
    """The example's settings and what the budget pays, as the two cards write them."""
    return {
        "minutes": Figure.of(i.gptoss_ft_minutes, "minute"),
        "example_memory": Figure.of(i.gptoss_ft_gpu_memory, "GB"),
        "examples": Figure.of(i.gptoss_ft_examples, "example"),
        "max_length": Figure.of(i.gptoss_ft_max_length, "token"),
        "epochs": Figure.of(i.gptoss_ft_epochs, "epoch"),
        "batch": Figure.of(i.gptoss_ft_batch, "sequence"),
        "rank": Figure.of(i.gptoss_ft_rank, ""),
        "expert_layers": Figure.says(*_listed(i.gptoss_ft_expert_layers)),
        "attention": Figure.says(i.gptoss_ft_attention),
        "bits": Figure.of(i.gptoss_ft_weight_bits, ""),
        "hours": Figure.of(job["hours"], "hour", decimals=1),
        "price": Figure.of(i.lambda_h100_sxm_1x, "USD/GPU-hour"),
        "seen": i.seen_on("lambda_h100_sxm_1x"),
        "gpu_memory": Figure.of(job["gpu"].memory_gb, "GB"),
    }


def _fit_words(fit: bool) -> Figure:
    """Whether a job fits its GPU, in the words of each language ("fits", "no cabe")."""
    key = "fits" if fit else "no_fit"
    return dataclasses.replace(Figure.says(words("en")["budget"][key]),
                               worded=tuple(words(lang)["budget"][key] for lang in ("en", "es")))


@recomputes("A1-lora-gptoss-20b")
def lora_gptoss_20b(i, c):
    claim = c["A1-lora-gptoss-20b"]
    _stated_lora_time(claim)
    job = gptoss_ft(i)
    from lib.plan.speed import CUDA_CONTEXT_GB

    figures = _gptoss_ft_figures(i, job) | {
        "peak": Figure.of(job["peak"] / 1e9, "GB", decimals=1),
        "peak_unchecked": Figure.of(job["peak_unchecked"] / 1e9, "GB", decimals=0),
        "context_gb": Figure.of(CUDA_CONTEXT_GB, "GB"),
        "run_tokens": Figure.of(job["tokens"], "token", compact=True, decimals=2),
        "planner_minutes": Figure.of(job["palm_minutes"], "minute", decimals=1),
        "model_minutes": Figure.of(job["model_minutes"], "minute", decimals=1),
        "model_range": Figure.between(job["model_minutes_low"], job["model_minutes_high"], "minute", decimals=1),
        "mfu": Figure.of(i.palm_mfu, "fraction", decimals=1),
        "slower": Figure.of(i.palm_mfu / job["utilisation"], "times", decimals=0),
        "measured_mfu": Figure.of(job["utilisation"], "fraction", decimals=1),
        "fit": _fit_words(job["fits"]),
    }
    figures |= {"runs": Figure.of(math.floor(job["runs"]), "times"),
                "budget_tokens": Figure.of(job["budget_tokens"], "token", compact=True, decimals=0)}
    # The hours run the example that many times only where it fits the GPU's memory.
    word = lora_time_figure(lora_time(job["runs"] if job["fits"] else None))
    return Recomputed(word, figures=figures | {"time": word})


@recomputes("A1-lora-gptoss-120b")
def lora_gptoss_120b(i, c):
    from lib.plan import memory as plan_memory
    from lib.plan.gpus import load_gpus, memory
    from lib.plan.speed import fits, peak_range

    claim = c["A1-lora-gptoss-120b"]
    _stated_lora_time(claim)
    gpu = load_gpus()["h100-sxm"]
    # The example's recipe on gpt-oss-120b (its configuration derived from OpenAI's reference code:
    # lib/data/models/SOURCES.toml), every weight loaded in bf16 as the example loads gpt-oss-20b's.
    job = gptoss_ft_job(i, model="gpt-oss-120b")
    weights, peak = plan_memory.states(job)["weights"] / 1e9, plan_memory.parts(job)["peak"] / 1e9
    gpu_gb = memory(gpu, i)
    fit = fits(peak * 1e9, gpu, i)
    figures = _gptoss_ft_figures(i, {"gpu": gpu, "hours": answers.budget_buys(i).figure.value}) | {
        "gpu_memory": Figure.of(gpu_gb, "GB"),
        "params": Figure.of(i.gptoss_120b_params, "parameter", compact=True, decimals=0),
        "weights": Figure.of(weights, "GB", decimals=0),
        "over": Figure.of(weights / gpu_gb, "times", decimals=1),
        "peak": Figure.of(peak, "GB", decimals=0),
        "peak_range": Figure.between(*(end / 1e9 for end in peak_range(peak * 1e9)), "GB", decimals=0),
        "layers": Figure.of(job.shape.layers, "layer"), "experts": Figure.of(job.shape.experts, "count"),
        "layers_20b": Figure.of(gptoss_ft_job(i).shape.layers, "count"),
        "experts_20b": Figure.of(gptoss_ft_job(i).shape.experts, "count"),
        "fit": _fit_words(fit),
        "ref_gpus": Figure.of(i.gptoss_120b_bf16_gpus, "GPU", qualifier="H100"),
        "node": Figure.quoting("en", i.gptoss_120b_ft_hardware),
        "mxfp4": Figure.quoting("en", i.gptoss_120b_mxfp4_gpu),
    }
    # The recipe's peak decides: if it fits, no source gives the job's time on one H100 (OpenAI publishes
    # no example for gpt-oss-120b), and the claim is unverified.
    if fit:
        return Recomputed(None, figures=figures)
    word = lora_time_figure(lora_time(None))
    return Recomputed(word, figures=figures | {"time": word})
