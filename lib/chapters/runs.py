"""The hours of the past runs the book prices, from their papers and logbooks: the chapters of both
articles and the costs chapter count them here, so each is computed once and none of those
modules needs another's."""

from __future__ import annotations

from lib.chapters import compute


def opt_wall_clock_days(i) -> int:
    return compute.days_between(i.opt_run_start, i.opt_run_end)


def opt_wall_clock_gpu_hours(i) -> float:
    """GPU-hours of OPT's cluster over the final run's calendar days (the logbook's dates)."""
    return compute.gpu_hours(i.opt_gpus, compute.days_to_hours(opt_wall_clock_days(i)))


def palm_chip_hours(i) -> dict[str, float]:
    """PaLM 540B's TPU v4 chip-hours: its model FLOPs at the model FLOPs utilisation (the
    consistent pairing), and all that the paper reports (its two phases, each chips × hours)."""
    return {
        "needed_mfu": compute.flops_to_device_hours(i.palm_flops, i.tpu_v4_peak, i.palm_mfu),
        "reported": compute.gpu_hours(i.palm_chips_main, i.palm_hours_main)
        + compute.gpu_hours(i.palm_chips_second, i.palm_hours_second),
    }


def llama_project_gpu_hours(i) -> float:
    return compute.gpu_hours(i.llama_gpus, compute.months_to_hours(i.llama_project_months))


def llama_utilisation(i) -> float:
    """LLaMA-65B's model FLOPs utilisation on A100s, from its measured throughput:
    6 × parameters × tokens/s per GPU, over the A100's bf16 peak."""
    achieved = compute.training_flops(i.llama_65b_params, i.llama_tokens_per_sec_per_gpu, i.flops_per_param_token)
    return achieved / i.a100_bf16_peak


def mosaic_a100_hours(i) -> float:
    """A100-hours of MosaicML's GPT-3-quality model: 6ND at LLaMA 65B's measured utilisation."""
    flops = compute.training_flops(i.mosaic_params, i.mosaic_tokens, i.flops_per_param_token)
    return compute.flops_to_device_hours(flops, i.a100_bf16_peak, llama_utilisation(i))
