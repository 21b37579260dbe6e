"""How fast a job trains on a GPU, from a stated utilisation of its bf16 peak, and what a number of
tokens costs there, in dollars and in euros.

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
from lib.plan.gpus import Gpu, memory, price
from lib.plan.memory import Job, parts
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


def fits(peak_bytes: float, gpu: Gpu, i: Inputs | None = None) -> bool | None:
    """Whether the peak and the CUDA context fit the GPU's memory (None where it is unverified)."""
    gb = memory(gpu, load_inputs() if i is None else i)
    if gb is None:
        return None
    return peak_bytes / 1e9 + CUDA_CONTEXT_GB <= gb


def speed(job: Job, gpu: Gpu, tokens: float, mfu: float | None = None, i: Inputs | None = None) -> dict:
    """Tokens a second, hours and cost for `tokens` (None where the GPU's peak or price is unverified)."""
    i = load_inputs() if i is None else i
    mfu = i.palm_mfu if mfu is None else mfu
    if not 0 < mfu <= 1:
        raise PlanError("bad_mfu", value=repr(mfu))
    if not tokens > 0:
        raise PlanError("bad_tokens", value=repr(tokens))
    out = {"mfu": mfu, "tokens_per_second": None, "hours": None, "cost_usd": None, "cost_eur": None}
    if gpu.bf16_flops is None:
        return out
    tps = mfu * gpu.bf16_flops / flops_per_token(job, i)
    hours = tokens / tps / 3600
    out |= {"tokens_per_second": tps, "hours": hours}
    if price(gpu, i) is not None:
        usd = hours * price(gpu, i)
        out |= {"cost_usd": usd, "cost_eur": usd / ecb_rate("USD", i.budget_rate_date)}
    return out


def on_gpu(job: Job, gpu: Gpu, tokens: float, mfu: float | None = None, i: Inputs | None = None) -> dict:
    """Whether the job fits the GPU (`fits`) and its speed, hours and cost there (`speed`); where it does
    not fit, those are None: no number of hours trains a job the GPU cannot hold. Where its memory is
    unverified (`fits` None), they are given."""
    i = load_inputs() if i is None else i
    fit = fits(parts(job)["peak"], gpu, i)
    out = speed(job, gpu, tokens, mfu, i)
    if fit is False:
        out |= dict.fromkeys(("tokens_per_second", "hours", "cost_usd", "cost_eur"))
    return {"fits": fit} | out
