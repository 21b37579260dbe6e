"""How each claim of article 2 is recomputed from sourced inputs (`i`) and, where the
article's own figure is part of the check, from its stated figures (`c`)."""

from __future__ import annotations


from .. import compute as k
from .. import epoch
from ..claims import Recomputed, recomputes
from ..figure import Figure
from . import article1

F = Figure.of
W = article1.W


def _year(i, name: str) -> Figure:
    """The year a dated price was seen (the day of 2022 prices was not recorded)."""
    seen = i[name].seen
    return Figure.of(seen if isinstance(seen, int) else seen.year, "calendar-year")


# ---------------------------------------------------------------- DGX Cloud

@recomputes("A2-dgx-gpus")
def dgx_gpus(i, c):
    return Recomputed(
        F(i.dgx_h100_gpus, "GPU"),
        figures={"a100": F(i.dgx_a100_gpus, "GPU"), "announced": Figure.on(i.dgx_cloud_announced)},
    )


@recomputes("A2-dgx-memory")
def dgx_memory(i, c):
    # A DGX Cloud instance is an H100 node (launch reports); the A100 node is shown beside it.
    h100_node = i.dgx_h100_gpus * i.h100_sxm_memory
    a100_node = i.dgx_a100_gpus * i.a100_80gb_memory
    return Recomputed(
        F(h100_node, "GB"),
        figures={"gpus": F(i.dgx_h100_gpus, "GPU"), "gpu_memory": F(i.h100_sxm_memory, "GB"),
                 "a100_node": F(a100_node, "GB")},
    )


def dgx_price_per_gpu_hour(i) -> float:
    """DGX Cloud's monthly list price at launch as a price per GPU-hour."""
    return k.monthly_to_hourly(i.dgx_cloud_price_month, i.dgx_h100_gpus)


def dgx_price_eur(i) -> float:
    """DGX Cloud's monthly list price in euros at the ECB reference rate of launch day."""
    return k.convert(i.dgx_cloud_price_month, i.dgx_cloud_price_currency, "EUR", i.dgx_cloud_announced)


@recomputes("A2-dgx-price")
def dgx_price(i, c):
    day = i.dgx_cloud_announced
    per_gpu_hour = dgx_price_per_gpu_hour(i)
    return Recomputed(
        F(dgx_price_eur(i), "EUR", decimals=1),
        # The article's figure, if it simply read the dollar list price as euros.
        as_stated=F(i.dgx_cloud_price_month, "EUR", decimals=1),
        figures={
            "usd_month": F(i.dgx_cloud_price_month, "USD/month"),
            "announced": Figure.on(day),
            "rate": F(k.ecb_rate("USD", day), "", decimals=4),
            "gpus": F(i.dgx_h100_gpus, "GPU"),
            "hours": F(k.HOURS_PER_MONTH, "hour"),
            "per_gpu_hour": F(per_gpu_hour, "USD/GPU-hour"),
            "lambda_2023": F(i.lambda_h100_sxm_8x_2023, "USD/GPU-hour"),
            "lambda_2023_seen": Figure.on(i["lambda_h100_sxm_8x_2023"].seen),
            "lambda_h100": F(i.lambda_h100_sxm_8x, "USD/GPU-hour"),
            "lambda_seen": Figure.on(i["lambda_h100_sxm_8x"].seen),
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
    return Recomputed(F(i.palm_params, "parameter", compact=True, decimals=0),
                      figures={"exact": F(i.palm_params, "parameter", compact=True, decimals=2), "where": W(i, "palm_params")})


def palm_chip_hours(i) -> dict[str, float]:
    """PaLM 540B's TPU v4 chip-hours: its model FLOPs at the hardware utilisation (the pairing
    that reproduces Heim's low end) and at the model FLOPs utilisation (the consistent one),
    its main phase, and all that the paper reports."""
    main = k.gpu_hours(i.palm_chips_main, i.palm_hours_main)
    return {
        "needed": k.flops_to_device_hours(i.palm_flops, i.tpu_v4_peak, i.palm_hfu),
        "needed_mfu": k.flops_to_device_hours(i.palm_flops, i.tpu_v4_peak, i.palm_mfu),
        "main": main,
        "reported": main + k.gpu_hours(i.palm_chips_second, i.palm_hours_second),
    }


@recomputes("A2-palm-cost")
def palm_cost(i, c):
    hours = palm_chip_hours(i)
    mid = k.rental_cost(hours["reported"], i.tpu_v4_price_1yr)
    money = {"unit": "USD", "decimals": 1}
    return Recomputed(
        i["heim_palm_cost"].figure(**money),
        figures={
            "mfu_cost": F(k.rental_cost(hours["needed_mfu"], i.tpu_v4_price_1yr), **money),
            "needed_mfu": F(hours["needed_mfu"], "chip-hour", compact=True, decimals=2),
            "three_year": F(k.rental_cost(hours["reported"], i.tpu_v4_price_3yr), **money),
            "price_3yr": F(i.tpu_v4_price_3yr, "USD/chip-hour"),
            "k": F(i.flops_per_param_token, ""),
            "six_nd": F(k.training_flops(i.palm_params, i.palm_tokens, i.flops_per_param_token), "FLOP"),
            "params": F(i.palm_params, "parameter", compact=True, decimals=0),
            "flops": F(i.palm_flops, "FLOP"),
            "hfu": F(i.palm_hfu, "fraction", decimals=1),
            "mfu": F(i.palm_mfu, "fraction", decimals=1),
            "peak": F(i.tpu_v4_peak / 1e12, ""),
            "reported": F(hours["reported"], "chip-hour"),
            "price_1yr": F(i.tpu_v4_price_1yr, "USD/chip-hour"),
            "price_on_demand": F(i.tpu_v4_price_on_demand, "USD/chip-hour"),
            "price_year": _year(i, "tpu_v4_price_1yr"),
            "mid": F(mid, **money),
            "all_on_demand": F(k.rental_cost(hours["reported"], i.tpu_v4_price_on_demand), **money),
            "heim_earlier": Figure.between(*i.heim_palm_cost_earlier, "USD"),
            "epoch": F(epoch.published("palm", "cloud"), **money),
            "aiindex": F(i.aiindex_palm_cost, **money),
        },
        facts={"basis": i.heim_palm_cost_basis},
    )


def llama_final_run_days(i) -> float:
    """Days of LLaMA 65B's final run, from its tokens and its measured throughput per GPU."""
    return k.throughput_hours(i.llama_tokens, i.llama_tokens_per_sec_per_gpu, i.llama_gpus) / k.HOURS_PER_DAY


def llama_project_gpu_hours(i) -> float:
    return k.gpu_hours(i.llama_gpus, k.months_to_hours(i.llama_project_months))


@recomputes("A2-llama-cost")
def llama_cost(i, c):
    hours = i.llama_65b_gpu_hours
    # Renting the final run's GPU-hours at the 2022 on-demand A100 prices (Azure, AWS); the
    # committed-use prices are shown beside it, not mixed into the range.
    on_demand = (i.azure_a100_2022_on_demand, i.aws_a100_2022_on_demand)
    cheapest = k.rental_cost(hours, min(on_demand))
    dearest = k.rental_cost(hours, max(on_demand))
    project = llama_project_gpu_hours(i)
    money = {"unit": "USD", "decimals": 1}
    return Recomputed(
        Figure.between(cheapest, dearest, **money),
        figures={
            "params": F(i.llama_65b_params, "parameter", compact=True, decimals=0),
            "gpu_hours": F(hours, "GPU-hour"),
            "where": W(i, "llama_65b_gpu_hours"),
            "implied_price": F(c["A2-llama-cost"].stated.value / hours, "USD/GPU-hour"),
            "price_year": _year(i, "azure_a100_2022_on_demand"),
            "azure_od": F(i.azure_a100_2022_on_demand, "USD/GPU-hour"),
            "azure_od_cost": F(k.rental_cost(hours, i.azure_a100_2022_on_demand), **money),
            "aws_od": F(i.aws_a100_2022_on_demand, "USD/GPU-hour"),
            "aws_od_cost": F(k.rental_cost(hours, i.aws_a100_2022_on_demand), **money),
            "azure_3yr": F(i.azure_a100_2022_3yr, "USD/GPU-hour"),
            "azure_3yr_cost": F(k.rental_cost(hours, i.azure_a100_2022_3yr), **money),
            "aws_3yr": F(i.aws_a100_2022_3yr, "USD/GPU-hour"),
            "aws_3yr_cost": F(k.rental_cost(hours, i.aws_a100_2022_3yr), **money),
            "aws_1yr": F(i.aws_a100_2022_1yr, "USD/GPU-hour"),
            "aws_1yr_cost": F(k.rental_cost(hours, i.aws_a100_2022_1yr), **money),
            "epoch": F(epoch.published("llama", "cloud"), **money),
            "gpus": F(i.llama_gpus, "GPU"),
            "months": F(i.llama_project_months, "count"),
            "project_gpu_hours": F(project, "GPU-hour", compact=True, decimals=1),
            "project_ratio": F(project / hours, "times", decimals=1),
        },
        # The dollar figure is GPU-hours times rental prices: an estimate by construction.
        facts={"basis": "rental estimate"},
    )


@recomputes("A2-llama-days")
def llama_days(i, c):
    return Recomputed(
        F(llama_final_run_days(i), "day", decimals=1),
        figures={
            "params": F(i.llama_65b_params, "parameter", compact=True, decimals=0),
            "tps": F(i.llama_tokens_per_sec_per_gpu, "token/s/GPU"),
            "where": W(i, "llama_tokens_per_sec_per_gpu"),
            "table_where": W(i, "llama_65b_gpu_hours"),
            "gpus": F(i.llama_gpus, "GPU"),
            "tokens": F(i.llama_tokens, "token", compact=True, decimals=1),
            "paper_days": F(i.llama_paper_days, "day"),
            "gpu_hours": F(i.llama_65b_gpu_hours, "GPU-hour"),
            "table_days": F(i.llama_65b_gpu_hours / i.llama_gpus / k.HOURS_PER_DAY, "day", decimals=1),
        },
    )


@recomputes("A2-llama-gpus")
def llama_gpus(i, c):
    return Recomputed(
        F(i.llama_gpus, "GPU"),
        figures={
            "memory": F(i.a100_80gb_memory, "GB"),
            "where": W(i, "llama_gpus"),
            "params": F(i.llama_65b_params, "parameter", compact=True, decimals=0),
        },
    )


# ---------------------------------------------------------------- cheaper newcomers

def llama_utilisation(i) -> float:
    """LLaMA-65B's model FLOPs utilisation on A100s, from its measured throughput:
    6 × parameters × tokens/s per GPU, over the A100's bf16 peak."""
    achieved = k.training_flops(i.llama_65b_params, i.llama_tokens_per_sec_per_gpu, i.flops_per_param_token)
    return achieved / i.a100_bf16_peak


def mosaic_a100_hours(i) -> float:
    """A100-hours of MosaicML's GPT-3-quality model: 6ND at LLaMA 65B's measured utilisation."""
    flops = k.training_flops(i.mosaic_params, i.mosaic_tokens, i.flops_per_param_token)
    return k.flops_to_device_hours(flops, i.a100_bf16_peak, llama_utilisation(i))


@recomputes("A2-mosaic")
def mosaic(i, c):
    flops = k.training_flops(i.mosaic_params, i.mosaic_tokens, i.flops_per_param_token)
    utilisation = llama_utilisation(i)
    a100_hours = mosaic_a100_hours(i)
    return Recomputed(
        F(i.mosaic_cost, "USD"),
        figures={
            "params": F(i.mosaic_params, "parameter", compact=True, decimals=0),
            "tokens": F(i.mosaic_tokens, "token", compact=True, decimals=0),
            "ratio": F(i.mosaic_tokens / i.mosaic_params, "", decimals=1),
            "chinchilla": F(i.chinchilla_tokens / i.chinchilla_params, "", decimals=0),
            "flops": F(flops, "FLOP"),
            "k": F(i.flops_per_param_token, ""),
            "mfu": F(utilisation, "fraction", decimals=0),
            "a100_hours": F(a100_hours, "GPU-hour", compact=True, decimals=0),
            "gpus": F(i.mosaic_gpus, "GPU"),
            "days": F(a100_hours / i.mosaic_gpus / k.HOURS_PER_DAY, "day"),
            "implied_price": F(i.mosaic_cost / a100_hours, "USD/GPU-hour"),
            "price_year": _year(i, "azure_a100_2022_3yr"),
            "azure_3yr": F(i.azure_a100_2022_3yr, "USD/GPU-hour"),
            "azure_1yr": F(i.azure_a100_2022_1yr, "USD/GPU-hour"),
        },
        facts={"model": i.mosaic_model_kind},
    )


def home_figures(i) -> dict[str, Figure]:
    """The closing section's figures: LLaMA 65B's final run (Table 15) on one A100 and on one
    eight-GPU DGX A100 node, and MosaicML's estimate in monthly fees of a DGX Cloud node."""
    hours_per_year = k.HOURS_PER_MONTH * 12  # the cloud convention: 8,760 hours a year
    return {
        "one_gpu_years": F(i.llama_65b_gpu_hours / hours_per_year, "year"),
        "node_years": F(i.llama_65b_gpu_hours / i.dgx_a100_gpus / hours_per_year, "year"),
        "mosaic_fees": F(i.mosaic_cost / i.dgx_cloud_price_month, "count"),
    }
