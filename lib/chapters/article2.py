"""How each claim of article 2 is recomputed from sourced inputs (`i`) and, where the
article's own figure is part of the check, from its stated figures (`c`)."""

from __future__ import annotations


from lib.chapters import answers
from lib.chapters.runs import llama_project_gpu_hours, llama_utilisation, mosaic_a100_hours, palm_chip_hours  # noqa: F401  (mosaic_a100_hours: the rental calculator reads it here)
from lib.chapters import compute
from lib.chapters import costs
from lib.chapters import epoch
from lib.core.claims import Recomputed, recomputes
from lib.core.figure import Figure
from lib.chapters.article1 import source_place



def _year(i, name: str) -> Figure:
    """The year a dated price was seen (the day of 2022 prices was not recorded)."""
    seen = i[name].seen
    return Figure.of(seen if isinstance(seen, int) else seen.year, "calendar-year")


# ---------------------------------------------------------------- DGX Cloud

@recomputes("A2-dgx-gpus")
def dgx_gpus(i, c):
    return Recomputed(
        Figure.of(i.dgx_h100_gpus, "GPU"),
        figures={"a100": Figure.of(i.dgx_a100_gpus, "GPU"), "announced": Figure.on(i.dgx_cloud_announced)},
    )


@recomputes("A2-dgx-memory", calculated=True)
def dgx_memory(i, c):
    # A DGX Cloud instance is an H100 node (launch reports); the A100 node is shown beside it.
    h100_node = i.dgx_h100_gpus * i.h100_sxm_memory
    a100_node = i.dgx_a100_gpus * i.a100_80gb_memory
    return Recomputed(
        Figure.of(h100_node, "GB"),
        figures={"gpus": Figure.of(i.dgx_h100_gpus, "GPU"), "gpu_memory": Figure.of(i.h100_sxm_memory, "GB"),
                 "a100_node": Figure.of(a100_node, "GB")},
    )


def dgx_price_per_gpu_hour(i) -> float:
    """DGX Cloud's monthly list price at launch as a price per GPU-hour."""
    return compute.monthly_to_hourly(i.dgx_cloud_price_month, i.dgx_h100_gpus)


def dgx_price_eur(i) -> float:
    """DGX Cloud's monthly list price in euros at the ECB reference rate of launch day."""
    return compute.convert(i.dgx_cloud_price_month, i.dgx_cloud_price_currency, "EUR", i.dgx_cloud_announced)


@recomputes("A2-dgx-price", calculated=True)
def dgx_price(i, c):
    day = i.dgx_cloud_announced
    per_gpu_hour = dgx_price_per_gpu_hour(i)
    return Recomputed(
        Figure.of(dgx_price_eur(i), "EUR", decimals=1),
        # The article's figure, if it simply read the dollar list price as euros.
        as_stated=Figure.of(i.dgx_cloud_price_month, "EUR", decimals=1),
        figures={
            "usd_month": Figure.of(i.dgx_cloud_price_month, "USD/month"),
            "announced": Figure.on(day),
            "rate": Figure.of(compute.ecb_rate("USD", day), "", decimals=4),
            "gpus": Figure.of(i.dgx_h100_gpus, "GPU"),
            "hours": Figure.of(compute.HOURS_PER_MONTH, "hour"),
            "per_gpu_hour": Figure.of(per_gpu_hour, "USD/GPU-hour"),
            "lambda_2023": Figure.of(i.lambda_h100_sxm_8x_2023, "USD/GPU-hour"),
            "lambda_2023_seen": i.seen_on("lambda_h100_sxm_8x_2023"),
            "lambda_h100": Figure.of(i.lambda_h100_sxm_8x, "USD/GPU-hour"),
            "lambda_seen": i.seen_on("lambda_h100_sxm_8x"),
        },
        facts={"currency": i.dgx_cloud_price_currency},
    )


@recomputes("A2-dgx-scale")
def dgx_scale(i, c):
    # No source, primary or secondary, gives this figure: nothing to recompute from. Searched in the
    # stored copies: NVIDIA's launch release (not found); Oracle's OCI supercluster material (an SC23
    # talk abstract: "thousands or tens of thousands" of GPUs, no maximum, and not DGX Cloud).
    return Recomputed(None, figures={"announced": Figure.on(i.dgx_cloud_announced)})


# ---------------------------------------------------------------- what training large models costs

@recomputes("A2-msft")
def msft(i, c):
    return Recomputed(
        i["msft_supercomputer_cost_min"].figure(),
        figures={"reported": Figure.on(i.msft_report_date)},
        facts={"scope": i.msft_cost_scope},
    )


@recomputes("A2-msft-ft")
def msft_ft(i, c):
    # The Financial Times version was not found: no source to check the attribution against.
    return Recomputed(None, figures={"reported": Figure.on(i.msft_report_date)})


@recomputes("A2-dgx-thousands")
def dgx_thousands(i, c):
    return Recomputed(None)


@recomputes("A2-palm-params")
def palm_params(i, c):
    return Recomputed(Figure.of(i.palm_params, "parameter", compact=True, decimals=0),
                      figures={"exact": Figure.of(i.palm_params, "parameter", compact=True, decimals=2), "where": source_place(i, "palm_params")})


@recomputes("A2-palm-cost")
def palm_cost(i, c):
    hours = palm_chip_hours(i)
    mid = compute.rental_cost(hours["reported"], i.tpu_v4_price_1yr)
    money = {"unit": "USD", "decimals": 1}
    answer = answers.past_run(i, "palm")
    # Judged against the span of the evidence (lib.core.span); the article's range is Heim's estimate.
    return Recomputed.against(
        answers.evidence(i, "palm"),
        as_stated=i["heim_palm_cost"].figure(**money),
        figures={
            "answer": answer.as_figure(),
            "mfu_cost": Figure.of(compute.rental_cost(hours["needed_mfu"], i.tpu_v4_price_1yr), **money),
            "needed_mfu": Figure.of(hours["needed_mfu"], "chip-hour", compact=True, decimals=2),
            "three_year": Figure.of(compute.rental_cost(hours["reported"], i.tpu_v4_price_3yr), **money),
            "price_3yr": Figure.of(i.tpu_v4_price_3yr, "USD/chip-hour"),
            "k": Figure.of(i.flops_per_param_token, ""),
            "six_nd": Figure.of(compute.training_flops(i.palm_params, i.palm_tokens, i.flops_per_param_token), "FLOP"),
            "params": Figure.of(i.palm_params, "parameter", compact=True, decimals=0),
            "flops": Figure.of(i.palm_flops, "FLOP"),
            "hfu": Figure.of(i.palm_hfu, "fraction", decimals=1),
            "mfu": Figure.of(i.palm_mfu, "fraction", decimals=1),
            "peak": Figure.of(i.tpu_v4_peak / 1e12, ""),
            "reported": Figure.of(hours["reported"], "chip-hour"),
            "price_1yr": Figure.of(i.tpu_v4_price_1yr, "USD/chip-hour"),
            "price_on_demand": Figure.of(i.tpu_v4_price_on_demand, "USD/chip-hour"),
            "price_year": _year(i, "tpu_v4_price_1yr"),
            "mid": Figure.of(mid, **money),
            "all_on_demand": Figure.of(compute.rental_cost(hours["reported"], i.tpu_v4_price_on_demand), **money),
            "heim_earlier": Figure.between(*i.heim_palm_cost_earlier, "USD"),
            "epoch": epoch.figure(epoch.published("palm", "cloud")),
            "aiindex": Figure.of(i.aiindex_palm_cost, **money),
        },
        facts={"basis": i.heim_palm_cost_basis},
    )


def llama_final_run_days(i) -> float:
    """Days of LLaMA 65B's final run, from its tokens and its measured throughput per GPU."""
    return compute.throughput_hours(i.llama_tokens, i.llama_tokens_per_sec_per_gpu, i.llama_gpus) / compute.HOURS_PER_DAY


@recomputes("A2-llama-cost")
def llama_cost(i, c):
    hours = i.llama_65b_gpu_hours
    # Judged against the span of the evidence (lib.core.span): the book's answer (the 2022 on-demand A100
    # prices) is one basis of it, beside the commitments, today's prices and Epoch AI's estimates.
    answer = answers.past_run(i, "llama")
    project = llama_project_gpu_hours(i)
    money = {"unit": "USD", "decimals": 1}
    return Recomputed.against(
        answers.evidence(i, "llama"),
        figures={
            "answer": answer.as_figure(),
            "on_demand": answer.span,
            "params": Figure.of(i.llama_65b_params, "parameter", compact=True, decimals=0),
            "gpu_hours": Figure.of(hours, "GPU-hour"),
            "where": source_place(i, "llama_65b_gpu_hours"),
            "implied_price": Figure.of(c["A2-llama-cost"].stated.value / hours, "USD/GPU-hour"),
            "price_year": _year(i, "azure_a100_2022_on_demand"),
            "azure_od": Figure.of(i.azure_a100_2022_on_demand, "USD/GPU-hour"),
            "azure_od_cost": Figure.of(compute.rental_cost(hours, i.azure_a100_2022_on_demand), **money),
            "aws_od": Figure.of(i.aws_a100_2022_on_demand, "USD/GPU-hour"),
            "aws_od_cost": Figure.of(compute.rental_cost(hours, i.aws_a100_2022_on_demand), **money),
            # The commitments as the card's evidence counts them (lib.chapters.answers.evidence): the
            # paper's two counts of hours at each tier's prices.
            **{f"{tier}_{what}": Figure.between(*found[tier], **unit)
               for what, found, unit in (("prices", costs.price_intervals(i)["llama"], {"unit": "USD/GPU-hour"}),
                                         ("cost", costs.cost_intervals(i)["llama"], money))
               for tier in ("one_year", "three_year")},
            "epoch": epoch.figure(epoch.published("llama", "cloud")),
            "gpus": Figure.of(i.llama_gpus, "GPU"),
            "months": Figure.of(i.llama_project_months, "count"),
            "project_gpu_hours": Figure.of(project, "GPU-hour", compact=True, decimals=1),
            "project_ratio": Figure.of(project / hours, "times", decimals=1),
        },
        # The dollar figure is GPU-hours times rental prices: an estimate by construction.
        facts={"basis": "rental estimate"},
    )


@recomputes("A2-llama-days", calculated=True)
def llama_days(i, c):
    return Recomputed(
        Figure.of(llama_final_run_days(i), "day", decimals=1),
        figures={
            "params": Figure.of(i.llama_65b_params, "parameter", compact=True, decimals=0),
            "tps": Figure.of(i.llama_tokens_per_sec_per_gpu, "token/s/GPU"),
            "where": source_place(i, "llama_tokens_per_sec_per_gpu"),
            "table_where": source_place(i, "llama_65b_gpu_hours"),
            "gpus": Figure.of(i.llama_gpus, "GPU"),
            "tokens": Figure.of(i.llama_tokens, "token", compact=True, decimals=1),
            "paper_days": Figure.of(i.llama_paper_days, "day"),
            "gpu_hours": Figure.of(i.llama_65b_gpu_hours, "GPU-hour"),
            "table_days": Figure.of(i.llama_65b_gpu_hours / i.llama_gpus / compute.HOURS_PER_DAY, "day", decimals=1),
        },
    )


@recomputes("A2-llama-gpus")
def llama_gpus(i, c):
    return Recomputed(
        Figure.of(i.llama_gpus, "GPU"),
        figures={
            "memory": Figure.of(i.a100_80gb_memory, "GB"),
            "where": source_place(i, "llama_gpus"),
            "params": Figure.of(i.llama_65b_params, "parameter", compact=True, decimals=0),
        },
    )


# ---------------------------------------------------------------- cheaper newcomers

@recomputes("A2-mosaic")
def mosaic(i, c):
    flops = compute.training_flops(i.mosaic_params, i.mosaic_tokens, i.flops_per_param_token)
    utilisation = llama_utilisation(i)
    a100_hours = mosaic_a100_hours(i)
    bases = answers.evidence(i, "mosaic")
    # Judged against the span of the evidence (lib.core.span): its A100-hours at the 2022 A100 prices, on
    # demand (the book's basis for past runs) and with commitments; MosaicML's own figure is what the
    # article's words rest on.
    return Recomputed.against(
        bases,
        as_stated=Figure.of(i.mosaic_cost, "USD"),
        figures={
            "on_demand": next(b.figure for b in bases if b.key == "on_demand"),
            "on_demand_price": Figure.between(*answers.a100_on_demand(i), "USD/GPU-hour"),
            "params": Figure.of(i.mosaic_params, "parameter", compact=True, decimals=0),
            "tokens": Figure.of(i.mosaic_tokens, "token", compact=True, decimals=0),
            "ratio": Figure.of(i.mosaic_tokens / i.mosaic_params, "", decimals=1),
            "chinchilla": Figure.of(i.chinchilla_tokens / i.chinchilla_params, "", decimals=0),
            "flops": Figure.of(flops, "FLOP"),
            "k": Figure.of(i.flops_per_param_token, ""),
            "mfu": Figure.of(utilisation, "fraction", decimals=0),
            "a100_hours": Figure.of(a100_hours, "GPU-hour", compact=True, decimals=0),
            "gpus": Figure.of(i.mosaic_gpus, "GPU"),
            "days": Figure.of(a100_hours / i.mosaic_gpus / compute.HOURS_PER_DAY, "day"),
            "implied_price": Figure.of(i.mosaic_cost / a100_hours, "USD/GPU-hour"),
            "price_year": _year(i, "azure_a100_2022_3yr"),
            # the commitment prices its evidence counts (lib.chapters.answers.evidence)
            **{f"{tier}_prices": Figure.between(*costs.price_intervals(i)["llama"][tier], "USD/GPU-hour")
               for tier in ("one_year", "three_year")},
        },
        facts={"model": i.mosaic_model_kind},
    )


def home_figures(i) -> dict[str, Figure]:
    """The closing section's figures: LLaMA 65B's final run (Table 15), its GPU-hours, on one A100 and on one
    eight-GPU DGX A100 node, and MosaicML's estimate in monthly fees of a DGX Cloud node."""
    hours_per_year = compute.HOURS_PER_MONTH * 12  # the cloud convention: 8,760 hours a year
    return {
        "gpu_hours": Figure.of(i.llama_65b_gpu_hours, "count"),  # the number alone, before its linked unit
        "one_gpu_years": Figure.of(i.llama_65b_gpu_hours / hours_per_year, "year"),
        "node_years": Figure.of(i.llama_65b_gpu_hours / i.dgx_a100_gpus / hours_per_year, "year"),
        "mosaic_fees": Figure.of(i.mosaic_cost / i.dgx_cloud_price_month, "count"),
    }
