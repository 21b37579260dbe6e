"""How each claim is recomputed from sourced inputs (`i`) and, where the article
shows its own arithmetic, from the article's stated figures (`c`)."""

from __future__ import annotations

from .. import compute as k
from ..claims import Recomputed, recomputes
from ..figure import Figure

F = Figure.of


# ---------------------------------------------------------------- article 1

@recomputes("A1-dolma-tokens")
def _(i, c):
    return Recomputed(F(i.dolma_tokens, "token", compact=True, decimals=0),
                      figures={"disk": F(i.dolma_v15_disk, "TB", decimals=1)})


@recomputes("A1-dolma-license")
def _(i, c):
    return Recomputed(Figure.says(i.dolma_license), figures={"since": Figure.on(i.dolma_license_since)})


def lora_params(i) -> float:
    return k.lora_trainable_params(i.gpt3_d_model, i.gpt3_layers, i.lora_adapted_matrix_types, i.lora_rank)


def lora_reduction(i) -> float:
    """How many times fewer parameters LoRA trains than full fine-tuning of GPT-3 175B."""
    return i.gpt3_full_ft_trainable / lora_params(i)


@recomputes("A1-lora-params")
def _(i, c):
    lora = lora_params(i)
    return Recomputed(
        F(lora_reduction(i), "times"),
        figures={
            "lora_params": F(lora, "parameter"),
            "full_params": F(i.gpt3_full_ft_trainable, "parameter", compact=True, decimals=1),
            "layers": F(i.gpt3_layers, "layer"),
            "d_model": F(i.gpt3_d_model, ""),
            "rank": F(i.lora_rank, ""),
            "matrices": F(i.lora_adapted_matrix_types, "matrix"),
            "checkpoint_mb": F(lora * i.bytes_fp16_weight / 1e6, "MB", decimals=1),
        },
    )


@recomputes("A1-lora-memory")
def _(i, c):
    frozen = k.training_memory_gb(i.gpt3_full_ft_trainable, i.bytes_fp16_weight)
    return Recomputed(
        F(i.lora_vram_full / i.lora_vram_lora, "times", decimals=1),
        figures={"full": F(i.lora_vram_full, "GB"), "lora": F(i.lora_vram_lora, "GB"), "frozen": F(frozen, "GB")},
    )


def _lambda_seen(i):
    return Figure.on(i["lambda_h100_sxm_8x"].seen)


@recomputes("A1-lambda-h100-1x")
def _(i, c):
    return Recomputed(
        F(i.lambda_h100_sxm_1x, "USD/GPU-hour"),
        as_stated=F(i.lambda_h100_pcie_1x, "USD/GPU-hour"),
        figures={"seen": _lambda_seen(i), "pcie": F(i.lambda_h100_pcie_1x, "USD/GPU-hour")},
    )


@recomputes("A1-lambda-h100-8x")
def _(i, c):
    return Recomputed(F(i.lambda_h100_sxm_8x, "USD/GPU-hour"), figures={"seen": _lambda_seen(i)})


@recomputes("A1-opt-gpus")
def _(i, c):
    return Recomputed(F(i.opt_gpus, "GPU"))


def opt_effective_gpu_hours(i) -> tuple[float, float, float]:
    """OPT-175B's compute in GPU-hours, three ways: LLaMA's Table 15, the logbook's
    ideal run, and the logbook's FLOPs at OPT's own throughput per GPU."""
    return (
        i.opt_llama_table_gpu_hours,
        k.gpu_hours(i.opt_ideal_gpus, k.days_to_hours(i.opt_ideal_days)),
        k.flops_to_device_hours(i.opt_total_flops, i.opt_tflops_per_gpu),
    )


def opt_wall_clock_days(i) -> int:
    return k.days_between(i.opt_run_start, i.opt_run_end)


@recomputes("A1-opt-duration")
def _(i, c):
    effective_days = i.opt_llama_table_gpu_hours / i.opt_gpus / k.HOURS_PER_DAY
    return Recomputed(
        F(opt_wall_clock_days(i), "day"),
        figures={
            "start": Figure.on(i.opt_run_start),
            "end": Figure.on(i.opt_run_end),
            "effective_days": F(effective_days, "day"),
            "gpus": F(i.opt_gpus, "GPU"),
        },
    )


@recomputes("A1-opt-year")
def _(i, c):
    return Recomputed(
        Figure.between(i.opt_run_start.year, i.opt_run_end.year, "calendar-year"),
        figures={
            "start": Figure.on(i.opt_run_start),
            "end": Figure.on(i.opt_run_end),
            "start_year": F(i.opt_run_start.year, "calendar-year"),
            "end_year": F(i.opt_run_end.year, "calendar-year"),
        },
    )


def article_opt_gpu_hours(c) -> float:
    """The article's own sum: its GPUs × 24 h × its days."""
    return k.gpu_hours(c["A1-opt-gpus"].stated.value, k.days_to_hours(c["A1-opt-duration"].stated.value))


@recomputes("A1-opt-gpu-hours")
def _(i, c):
    effective = opt_effective_gpu_hours(i)
    article = article_opt_gpu_hours(c)
    wall_clock = k.gpu_hours(i.opt_gpus, k.days_to_hours(opt_wall_clock_days(i)))
    return Recomputed(
        Figure.between(min(effective), max(effective), "GPU-hour"),
        as_stated=F(article, "GPU-hour"),
        figures={
            "llama_table": F(effective[0], "GPU-hour"),
            "logbook_ideal": F(effective[1], "GPU-hour"),
            "ideal_days": F(i.opt_ideal_days, "day"),
            "ideal_gpus": F(i.opt_ideal_gpus, "GPU"),
            "from_flops": F(effective[2], "GPU-hour"),
            "flops": F(i.opt_total_flops, "FLOP"),
            "tflops": F(i.opt_tflops_per_gpu / 1e12, ""),
            "wall_clock": F(wall_clock, "GPU-hour"),
            "lost": F(1 - effective[0] / wall_clock, "fraction", decimals=0),
        },
    )


def opt_cost_scenarios(i, c) -> list[tuple[str, float, float]]:
    """OPT-175B's rental cost four ways: (scenario, GPU-hours, price per GPU-hour).
    The article's sum first, then wall clock or effective compute at A100 or H100 prices."""
    article_hours = article_opt_gpu_hours(c)
    return [
        ("article", article_hours, c["A1-lambda-h100-8x"].stated.value),
        ("wall_a100", article_hours, i.lambda_a100_sxm_8x),
        ("eff_h100", i.opt_llama_table_gpu_hours, i.lambda_h100_sxm_8x),
        ("eff_a100", i.opt_llama_table_gpu_hours, i.lambda_a100_sxm_8x),
    ]


@recomputes("A1-opt-cost")
def _(i, c):
    cost = {name: k.rental_cost(hours, price) for name, hours, price in opt_cost_scenarios(i, c)}
    return Recomputed(
        Figure.between(cost["eff_a100"], cost["eff_h100"], "USD", decimals=2),
        as_stated=F(cost["article"], "USD", decimals=2),
        figures={
            "at_a100": F(cost["eff_a100"], "USD", decimals=2),
            "at_h100": F(cost["eff_h100"], "USD", decimals=2),
            "wall_clock_a100": F(cost["wall_a100"], "USD", decimals=2),
            "a100_price": F(i.lambda_a100_sxm_8x, "USD/GPU-hour"),
            "h100_price": F(i.lambda_h100_sxm_8x, "USD/GPU-hour"),
            "seen": _lambda_seen(i),
        },
    )


@recomputes("A1-opt-manual-restarts")
def _(i, c):
    return Recomputed(F(i.opt_manual_restarts, "count"))


@recomputes("A1-opt-hosts")
def _(i, c):
    return Recomputed(F(i.opt_hosts_cycled, "count"))


@recomputes("A1-opt-auto-restarts")
def _(i, c):
    return Recomputed(F(i.opt_auto_restarts, "count"))


@recomputes("A1-opt-clip")
def _(i, c):
    return Recomputed(
        Figure.between(i.opt_clip_after, i.opt_clip_before, "", decimals=1),
        figures={"before": F(i.opt_clip_before, "", decimals=1), "after": F(i.opt_clip_after, "", decimals=1)},
    )


@recomputes("A1-opt-lr")
def _(i, c):
    return Recomputed(Figure.says(i.opt_divergence_remedy))


def budget_usd(i) -> float:
    return k.convert(i.budget_eur, "EUR", "USD", i.budget_rate_date)


@recomputes("A1-budget-eur-usd")
def _(i, c):
    stated = c["A1-budget-eur-usd"].stated
    return Recomputed(
        F(budget_usd(i), "USD", decimals=2),
        figures={
            "budget": F(i.budget_eur, "EUR", decimals=0),
            "rate": F(k.ecb_rate("USD", i.budget_rate_date), "", decimals=4),
            "rate_date": Figure.on(i.budget_rate_date),
            "implied_low": F(stated.low / i.budget_eur, "", decimals=3),
            "implied_high": F(stated.high / i.budget_eur, "", decimals=3),
        },
    )


@recomputes("A1-budget-hours")
def _(i, c):
    usd = budget_usd(i)
    return Recomputed(
        F(k.hours_bought(usd, i.lambda_h100_pcie_1x), "hour", decimals=1),
        figures={
            "budget_usd": F(usd, "USD", decimals=2),
            "pcie": F(i.lambda_h100_pcie_1x, "USD/GPU-hour"),
            "sxm": F(i.lambda_h100_sxm_1x, "USD/GPU-hour"),
            "hours_sxm": F(k.hours_bought(usd, i.lambda_h100_sxm_1x), "hour", decimals=1),
            "rate_date": Figure.on(i.budget_rate_date),
            "seen": _lambda_seen(i),
        },
    )


@recomputes("A1-frontier-fraction")
def _(i, c):
    cluster_per_hour = k.rental_cost(k.gpu_hours(i.opt_gpus, 1), i.lambda_h100_sxm_8x)
    hours = k.hours_bought(budget_usd(i), cluster_per_hour)
    return Recomputed(
        F(hours, "hour", decimals=2),
        figures={
            "minutes": F(hours * 60, "minute", decimals=1),
            "cluster_per_hour": F(cluster_per_hour, "USD", decimals=0),
            "gpus": F(i.opt_gpus, "GPU"),
        },
    )


@recomputes("A1-gptoss")
def _(i, c):
    hours = i.gptoss_120b_h100_hours
    return Recomputed(
        Figure.says(i.gptoss_license),
        figures={
            "params": F(i.gptoss_120b_params, "parameter", compact=True, decimals=0),
            "h100_hours": F(hours, "GPU-hour", compact=True, decimals=1),
            "cost": F(k.rental_cost(hours, i.lambda_h100_sxm_8x), "USD", decimals=1),
            "price": F(i.lambda_h100_sxm_8x, "USD/GPU-hour"),
        },
    )


@recomputes("A1-three-scales")
def _(i, c):
    return Recomputed(
        F(lora_reduction(i), "times"),
        figures={
            "full_params": F(i.gpt3_full_ft_trainable, "parameter", compact=True, decimals=1),
            "lora_params": F(lora_params(i), "parameter", compact=True, decimals=1),
            "dolma_tokens": F(i.dolma_tokens, "token", compact=True, decimals=0),
        },
    )


@recomputes("A1-laptop")
def _(i, c):
    flops = k.training_flops(i.olmo_small_params, i.dolma_tokens, i.flops_per_param_token)
    utilisation = i.opt_tflops_per_gpu / i.a100_bf16_peak
    hours = k.flops_to_device_hours(flops, i.a100_bf16_peak, utilisation)
    return Recomputed(
        F(hours / k.HOURS_PER_DAY / 365, "year", decimals=1),
        figures={
            "disk": F(i.dolma_v15_disk, "TB", decimals=1),
            "flops": F(flops, "FLOP"),
            "params": F(i.olmo_small_params, "parameter", compact=True, decimals=0),
            "tokens": F(i.dolma_tokens, "token", compact=True, decimals=0),
            "utilisation": F(utilisation, "fraction", decimals=0),
            "k": F(i.flops_per_param_token, ""),
            "gpu_hours": F(hours, "GPU-hour"),
        },
    )


@recomputes("A1-full-ft-gpus")
def _(i, c):
    per_param = k.training_bytes_per_param(i.bytes_fp16_weight, i.bytes_fp16_gradient, i.bytes_adam_states)
    memory = k.training_memory_gb(i.ft_example_params, per_param)
    return Recomputed(
        F(k.devices_needed(memory, i.a100_80gb_memory), "GPU"),
        figures={
            "bytes": F(per_param, "byte/parameter"),
            "params": F(i.ft_example_params, "parameter", compact=True, decimals=1),
            "memory": F(memory, "GB"),
            "gpu_memory": F(i.a100_80gb_memory, "GB"),
        },
    )
