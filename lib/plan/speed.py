"""How fast a job trains on a GPU and what a number of tokens costs there, in dollars and in euros: by
the speed model (lib.plan.step_time: the step's parts from the GPU's peak and bandwidth), with a range,
or, where a utilisation is given, by the MFU path below (`mfu`): FLOPs per token over that share of the
bf16 peak.

The MFU path:

FLOPs per token, as the budget chapter counts them: k per parameter a token is multiplied by (k = 6,
flops_per_param_token: a forward pass of 2, a backward pass of 4; shapes.param_count's `multiplied`, the
active parameters without the embedding tables a token only reads a row of); LoRA's times the ratio of
the throughputs the LoRA paper measured on GPT-3 175B (lora_flops_share: its frozen weights skip their
gradients, which by FLOPs alone would save a third, but the measured run saved a quarter of the time);
QLoRA's not reduced, since its paper reports no speed-up. These are model FLOPs: the utilisation is a
model FLOPs utilisation (MFU), which counts what the model needs and not the forward pass that gradient
checkpointing runs again (a run with checkpointing reaches a lower MFU at the same hardware use; PaLM's,
the default here and the one the budget chapter prices its jobs at, was measured with rematerialisation); the euros are at the ECB rate of the day the budget
chapter converts the first article's budget. A job that does not fit the GPU's memory has no speed,
time or cost there (on_gpu): no number of hours trains it.
"""

from __future__ import annotations

from lib.core.currency import ecb_rate
from lib.core.inputs import Inputs, load_inputs
from lib.plan.errors import PlanError
from lib.plan import step_time, validation
from lib.plan.gpus import Gpu, capacity_bytes, price
from lib.plan.memory import PAGED, Job, parts
from lib.plan.shapes import expert_parameters, param_count

# The device memory the CUDA context takes before any tensor: the book's own allowance, an assumption,
# not a measurement the repository holds. PyTorch's documentation says a context is created on the GPU
# beside the tensors, so that a GPU shows more memory used than torch.cuda.memory_allocated() counts
# (pytorchcudamemory in book/references-budget.bib), but not how much: that depends on the GPU, the
# driver and the libraries loaded. The book allows 1 GB, rounded up; lib/measure's device_used_bytes
# (`make measure`, on a GPU) reads what a run's context and allocator take together.
CUDA_CONTEXT_GB = 1.0


def adapted_expert_flops(job: Job) -> float:
    """A layer whose experts PEFT adapts (memory.Job.expert_layers) computes the gradient of its whole routed
    expert stacks, weight plus B·A, as full training would: 2 FLOPs per token more per active expert
    parameter of those layers."""
    stacks = expert_parameters(job.shape)
    return 2 * job.expert_layers * job.shape.experts_per_token * sum(a * b for a, b in stacks.values())


def lora_flops_share(i: Inputs) -> float:
    """LoRA's time per token as a share of full fine-tuning's, as the LoRA paper measured them on GPT-3
    175B (footnote 5: 32.5 and 43.1 tokens a second per V100)."""
    return i.lora_throughput_full / i.lora_throughput_lora


def flops_per_token(job: Job, i: Inputs | None = None) -> float:
    """Model FLOPs per token trained (the module's docstring), with adapted_expert_flops."""
    i = load_inputs() if i is None else i
    n = param_count(job.shape)["multiplied"]
    return i.flops_per_param_token * n * (lora_flops_share(i) if job.method == "lora" else 1) + adapted_expert_flops(job)


def fits_with_paging(job: Job, gpu: Gpu, i: Inputs | None = None) -> bool:
    """Whether a job with a paged optimizer (memory.PAGED) that does not fit the GPU runs by paging: its
    peak without the optimizer's states (which the driver moves to the CPU's memory under pressure) fits.
    False for any other optimizer, and where the peak fits outright."""
    if job.optimizer not in PAGED:
        return False
    p = parts(job)
    return fits(p["peak"], gpu, i) is False and bool(fits(p["peak"] - p["optimizer"], gpu, i))


def fits(peak_bytes: float, gpu: Gpu, i: Inputs | None = None) -> bool | None:
    """Whether the peak and the CUDA context fit the bytes the GPU holds (gpus.capacity_bytes: as its
    driver reports them where a reading was found; None where its memory is unverified)."""
    capacity = capacity_bytes(gpu, load_inputs() if i is None else i)
    if capacity is None:
        return None
    return peak_bytes + CUDA_CONTEXT_GB * 1e9 <= capacity


def peak_range(peak_bytes: float) -> tuple[float, float]:
    """The peak's range (low, high), in bytes: the peak times the factors of its measured error against
    published peaks (validation.peak_range)."""
    low, high = validation.peak_range()
    return peak_bytes * low, peak_bytes * high


def fit_margin(peak_bytes: float, gpu: Gpu, i: Inputs | None = None) -> str:
    """Whether the peak's range says otherwise than its figure (`fits`): "not_at_top" where the peak fits
    but the top of its range does not, "at_bottom" where it does not fit but the bottom of its range would;
    "" where the whole range agrees with the figure, or the GPU's memory is unverified."""
    i = load_inputs() if i is None else i
    fit = fits(peak_bytes, gpu, i)
    low, high = peak_range(peak_bytes)
    if fit and not fits(high, gpu, i):
        return "not_at_top"
    if fit is False and fits(low, gpu, i):
        return "at_bottom"
    return ""


def margin_end(peak_bytes: float, margin: str) -> float:
    """The end of the peak's range that a fit_margin names, in bytes: the top for "not_at_top", else the bottom."""
    low, high = peak_range(peak_bytes)
    return high if margin == "not_at_top" else low


RANGED = ("tokens_per_second", "hours", "cost_usd", "cost_eur")


def speed(job: Job, gpu: Gpu, tokens: float, mfu: float | None = None, i: Inputs | None = None,
          price_usd: float | None = None) -> dict:
    """Tokens a second (the node's: every GPU's), hours and cost for `tokens`: hours × price per GPU-hour ×
    GPUs, at `price_usd` where given (the reader's), else the book's sourced price for the GPU (None where
    the GPU's peak, bandwidth, price or, on several GPUs, interconnect is unverified). By the speed model (`speed_model` "parts"), each with `_low` and `_high` from its range
    (validation.speed_range: the residuals against published measurements), and `mfu` the utilisation of the bf16 peak that speed makes of the module's
    FLOPs per token; or, where `mfu` is given, by the MFU path (`speed_model` "mfu", no range)."""
    i = load_inputs() if i is None else i
    if mfu is not None and not 0 < mfu <= 1:
        raise PlanError("bad_mfu", value=repr(mfu))
    if not tokens > 0:
        raise PlanError("bad_tokens", value=repr(tokens))
    if price_usd is not None and not price_usd > 0:
        raise PlanError("bad_price", value=repr(price_usd))
    by_parts = mfu is None
    out = {"speed_model": "parts" if by_parts else "mfu", "mfu": mfu} | dict.fromkeys(RANGED)
    if by_parts:
        out |= {f"{k}_{end}": None for k in RANGED for end in ("low", "high")}
    if gpu.bf16_flops is None or (by_parts and gpu.bandwidth is None) or (job.gpus > 1 and gpu.interconnect is None):
        return out
    if by_parts:
        tps = step_time.tokens_per_second(job, gpu)
        out["mfu"] = tps * flops_per_token(job, i) / (gpu.bf16_flops * job.gpus)
        low, high = validation.speed_range()
        rates = {"": tps, "_low": tps * low, "_high": tps * high}
    else:
        rates = {"": mfu * gpu.bf16_flops * job.gpus / flops_per_token(job, i)}
    rate = ecb_rate("USD", i.budget_rate_date)
    per_gpu_hour = price(gpu, i) if price_usd is None else price_usd
    for end, tps in rates.items():
        hours_end = {"": "", "_low": "_high", "_high": "_low"}[end]  # more tokens a second, fewer hours
        hours = tokens / tps / 3600
        out |= {f"tokens_per_second{end}": tps, f"hours{hours_end}": hours}
        if per_gpu_hour is not None:
            usd = hours * per_gpu_hour * job.gpus
            out |= {f"cost_usd{hours_end}": usd, f"cost_eur{hours_end}": usd / rate}
    return out


def on_gpu(job: Job, gpu: Gpu, tokens: float, mfu: float | None = None, i: Inputs | None = None,
           price_usd: float | None = None) -> dict:
    """Whether the job fits each GPU (`fits`), whether its peak's range says otherwise (`fit_margin`), whether it runs by paging its optimizer's states where it does
    not (`fits_with_paging`: its speed is then the model's without the paging's traffic, a lower bound on the
    time), and its speed, hours and cost there (`speed`); where it does not fit either way, those are None: no
    number of hours trains a job the GPU cannot hold. Where its memory is unverified (`fits` None), they are
    given."""
    i = load_inputs() if i is None else i
    peak = parts(job)["peak"]
    fit = fits(peak, gpu, i)
    paging = fits_with_paging(job, gpu, i)
    out = {"fits_with_paging": paging} | speed(job, gpu, tokens, mfu, i, price_usd)
    if fit is False and not paging:
        out |= {k: None for k in out if k.split("_")[0] in ("tokens", "hours", "cost")}
    return {"fits": fit, "fit_margin": fit_margin(peak, gpu, i)} | out
