"""What a budget buys: the memory, compute, hours and dollars of pretraining, full fine-tuning,
LoRA and QLoRA for a model of N parameters, in the same units.

Pure functions; each rejects bad input with a ValueError that says what is wrong. The sourced
numbers they are called with live in lib/data/inputs/budget/budget.toml (read by
`load_budget_inputs`, together with every input of the two articles).

Memory (GB = 10^9 bytes), after ZeRO (Rajbhandari et al. 2020, Section 3.1) and QLoRA (Dettmers
et al. 2023, Section 3):
- weights: N x the bytes of the precision they are held in (fp32 4, bf16 and fp16 2, int8 1,
  nf4 half a byte: the number of bits is in the format's name), plus, for nf4, the quantisation
  constants QLoRA stores per parameter;
- gradients: 2 bytes per *trained* parameter (all N in full fine-tuning, the adapters in LoRA);
- optimiser states: Adam's fp32 master copy, momentum and variance, 12 bytes per trained parameter;
- adapters: LoRA's matrices, 2 bytes per adapter parameter (their gradients and optimiser states
  are counted above, as trained parameters);
- activations: Korthikanti et al. 2022 (Section 4.1): s·b·h·(34 + 5·a·s/h) bytes per layer, for
  sequences of s tokens, a micro-batch of b sequences, hidden size h and a attention heads, every
  activation kept in 16 bits, no parallelism, no recomputation. What it leaves out: the
  embeddings, the output layer and the loss, framework buffers and fragmentation.

Compute: C = 6·N·D FLOPs (Kaplan et al. 2020) for pretraining and full fine-tuning; LoRA computes
no gradient for the frozen weights, and the LoRA paper measures what that saves on GPT-3 175B (a
speed-up of a stated fraction), which is the factor used here for LoRA and QLoRA.
"""

from __future__ import annotations

import dataclasses
import math

from . import compute
from .inputs import Inputs, _check, bib_keys, load_inputs, read_tables, DATA_DIR

BUDGET_DIR = DATA_DIR / "budget"

# The bits of each precision are in its name (fp32 = 32 bits); nf4 is QLoRA's 4-bit NormalFloat.
PRECISION_BITS = {"fp32": 32, "bf16": 16, "fp16": 16, "int8": 8, "nf4": 4}
BITS_PER_BYTE = 8
JOBS = ("pretrain", "full", "lora", "qlora")
# The worked example's sequence length and micro-batch: a setting, not a sourced fact (LLaMA's
# context length is the sequence; one sequence at a time). Change them on Binder.
EXAMPLE_SEQ_LEN = 2048
EXAMPLE_BATCH = 1


def load_budget_inputs() -> Inputs:
    """Every sourced input of the book plus the chapter's own (lib/data/inputs/budget/)."""
    base = load_inputs()
    raw = read_tables(BUDGET_DIR)
    twice = sorted(set(raw) & set(base))
    if twice:
        raise ValueError(f"budget inputs define again: {', '.join(twice)}")
    keys = bib_keys()
    own = {name: _check(name, entry, keys) for name, entry in raw.items()}
    return Inputs({**{name: base[name] for name in base}, **own})


def _size(name: str, x, *, whole: bool = False, allow_zero: bool = False) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
        raise ValueError(f"{name} must be a finite number, got {x!r}")
    if x < 0:
        raise ValueError(f"{name} cannot be negative, got {x:g}")
    if x == 0 and not allow_zero:
        raise ValueError(f"{name} must be positive, got 0")
    if whole and x != int(x):
        raise ValueError(f"{name} must be a whole number, got {x:g}")
    return float(x)


def precision_bytes(precision: str) -> float:
    """Bytes per number held in `precision` (fp32, bf16, fp16, int8, nf4)."""
    try:
        return PRECISION_BITS[precision] / BITS_PER_BYTE
    except (KeyError, TypeError):
        raise ValueError(f"unknown precision {precision!r}: use one of {', '.join(PRECISION_BITS)}") from None


def lora_params(d_model: float, layers: float, matrices_per_layer: float, rank: float) -> float:
    """Adapter parameters: 2·d·r for each adapted d x d matrix (Hu et al. 2021, Section 4.1)."""
    d = _size("d_model", d_model, whole=True)
    r = _size("rank", rank, whole=True)
    if r > d:
        raise ValueError(f"rank ({r:g}) cannot be above the matrix dimension d_model ({d:g})")
    return compute.lora_trainable_params(d, _size("layers", layers, whole=True),
                                         _size("matrices_per_layer", matrices_per_layer, whole=True), r)


def activations_gb(seq_len: float, batch: float, d_model: float, heads: float, layers: float,
                   linear: float, attention: float) -> float:
    """Activation memory in GB: s·b·h·(linear + attention·a·s/h) bytes per layer, times the layers
    (Korthikanti et al. 2022: linear = 34, attention = 5)."""
    s, b = _size("seq_len", seq_len, whole=True), _size("batch", batch, whole=True)
    h, a = _size("d_model", d_model, whole=True), _size("heads", heads, whole=True)
    if a > h:
        raise ValueError(f"heads ({a:g}) cannot be more than d_model ({h:g})")
    per_layer = s * b * h * (_size("linear", linear) + _size("attention", attention) * a * s / h)
    return per_layer * _size("layers", layers, whole=True) / 1e9


@dataclasses.dataclass(frozen=True)
class Memory:
    """GPU memory of one training job, in GB, by what holds it."""
    weights: float
    gradients: float
    optimizer: float
    activations: float
    adapters: float

    @property
    def total(self) -> float:
        return self.weights + self.gradients + self.optimizer + self.activations + self.adapters

    def parts(self) -> dict[str, float]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)} | {"total": self.total}


def training_memory(params: float, job: str, *, adapter_params: float = 0.0, activations: float = 0.0,
                    weight_precision: str | None = None, gradient_bytes: float = 2, optimizer_bytes: float = 12,
                    quant_constant_bits: float = 0.0) -> Memory:
    """Memory of training `params` parameters as `job` (pretrain, full, lora, qlora).

    Full training (pretrain, full) trains every parameter; LoRA and QLoRA train only the
    `adapter_params`, holding the frozen weights in bf16 (LoRA) or nf4 (QLoRA) unless
    `weight_precision` says otherwise. `quant_constant_bits` are added per weight in nf4."""
    n = _size("params", params)
    if job not in JOBS:
        raise ValueError(f"unknown job {job!r}: use one of {', '.join(JOBS)}")
    adapters = _size("adapter_params", adapter_params, allow_zero=True)
    if job in ("lora", "qlora") and adapters == 0:
        raise ValueError(f"{job} trains adapters: give adapter_params")
    if adapters > n:
        raise ValueError(f"adapter_params ({adapters:g}) cannot be more than params ({n:g})")
    precision = weight_precision or ("nf4" if job == "qlora" else "bf16")
    per_weight = precision_bytes(precision)
    if precision == "nf4":
        per_weight += _size("quant_constant_bits", quant_constant_bits, allow_zero=True) / BITS_PER_BYTE
    trained = n if job in ("pretrain", "full") else adapters
    g, o = _size("gradient_bytes", gradient_bytes, allow_zero=True), _size("optimizer_bytes", optimizer_bytes, allow_zero=True)
    return Memory(
        weights=n * per_weight / 1e9,
        gradients=trained * g / 1e9,
        optimizer=trained * o / 1e9,
        activations=_size("activations", activations, allow_zero=True),
        adapters=0.0 if job in ("pretrain", "full") else adapters * precision_bytes("bf16") / 1e9,
    )


def job_flops(params: float, tokens: float, job: str, *, flops_per_param_token: float = 6,
              lora_speedup: float = 0.0) -> float:
    """FLOPs of a job: 6·N·D for pretraining and full fine-tuning; for LoRA and QLoRA, that
    divided by (1 + the measured speed-up)."""
    if job not in JOBS:
        raise ValueError(f"unknown job {job!r}: use one of {', '.join(JOBS)}")
    full = compute.training_flops(params, tokens, flops_per_param_token)
    if job in ("pretrain", "full"):
        return full
    return full / (1 + _size("lora_speedup", lora_speedup, allow_zero=True))


def gpu_hours(flops: float, peak: float, utilisation: float) -> float:
    """GPU-hours to do `flops` on a GPU of a dense `peak` (FLOP/s) at a utilisation (0-1]."""
    return compute.flops_to_device_hours(flops, peak, utilisation)


def fits(memory_gb: float, device_gb: float) -> bool:
    """Whether a job's memory fits on one device."""
    return _size("memory_gb", memory_gb) <= _size("device_gb", device_gb)


def tokens_bought(budget: float, price_per_gpu_hour: float, params: float, job: str, peak: float,
                  utilisation: float, *, flops_per_param_token: float = 6, lora_speedup: float = 0.0) -> float:
    """Tokens a budget trains on one GPU: its hours x the GPU's FLOP/s at the utilisation, over the
    job's FLOPs per token."""
    hours = compute.hours_bought(budget, price_per_gpu_hour)
    per_token = job_flops(params, 1, job, flops_per_param_token=flops_per_param_token, lora_speedup=lora_speedup)
    return hours * compute.SECONDS_PER_HOUR * peak * compute._fraction("utilisation", utilisation) / per_token


def residual(computed: float, reported: float) -> float:
    """(computed - reported) / reported: how far a formula lands from a reported figure."""
    return (_size("computed", computed, allow_zero=True) - _size("reported", reported)) / reported
