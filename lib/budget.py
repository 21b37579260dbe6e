"""What a budget buys: the memory, compute, hours and dollars of pretraining, full fine-tuning,
LoRA and QLoRA for a model of N parameters, in the same units.

Pure functions; each rejects bad input with a ValueError that says what is wrong. The sourced
numbers they are called with live in lib/data/inputs/budget.toml (loaded, with every other input,
by lib.inputs.load_inputs).

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

from . import compute
from .inputs import DATA_DIR, Inputs

BUDGET_FILE = DATA_DIR / "budget.toml"

# The bits of each precision are in its name (fp32 = 32 bits); nf4 is QLoRA's 4-bit NormalFloat.
PRECISION_BITS = {"fp32": 32, "bf16": 16, "fp16": 16, "int8": 8, "nf4": 4}
BITS_PER_BYTE = 8
JOBS = ("pretrain", "full", "lora", "qlora")
# The worked example's sequence length and micro-batch: a setting, not a sourced fact (LLaMA's
# context length is 2048, GPT-2's 1024: the shorter, for all; one sequence at a time). Change them on Binder.
EXAMPLE_SEQ_LEN = 1024
EXAMPLE_BATCH = 1


def _size(name: str, x, *, whole: bool = False, allow_zero: bool = False) -> float:
    """lib.compute's check of a number (a BadInput the calculators can word), and whole when asked."""
    x = compute._number(name, x, allow_zero=allow_zero)
    if whole and x != int(x):
        raise ValueError(f"{name} must be a whole number, got {x:g}")
    return float(x)


def precision_bytes(precision: str) -> float:
    """Bytes per number held in `precision` (fp32, bf16, fp16, int8, nf4)."""
    try:
        return PRECISION_BITS[precision] / BITS_PER_BYTE
    except (KeyError, TypeError):
        raise ValueError(f"unknown precision {precision!r}: use one of {', '.join(PRECISION_BITS)}") from None


# LoRA's adapters: 2·d·r for each adapted d x d matrix (Hu et al. 2021), one formula for the book.
lora_params = compute.lora_trainable_params


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


residual = compute.residual


# ---------------------------------------------------------------- the chapter's figures

# The H100 datasheet gives its bf16 peak with sparsity; dense is half (h100_sxm_bf16_sparse_peak).
SPARSITY_FACTOR = 2
# Fine-tuning is compared per billion tokens of data: a round unit, not a sourced data set.
FT_TOKENS = 1e9
# The sizes of the table of what the budget buys: (key, params input, d_model, heads, layers).
SIZES = (
    ("gpt2", "llmc_124m_params", "gpt2_124m_d_model", "gpt2_124m_heads", "gpt2_124m_layers"),
    ("llama7b", "ft_example_params", "llama7b_d_model", "llama7b_heads", "llama7b_layers"),
    ("llama65b", "llama_65b_params", "llama65b_d_model", "llama65b_heads", "llama65b_layers"),
)


def _memory(i: Inputs, job: str, params_key: str, d_key: str, heads_key: str, layers_key: str) -> Memory:
    """A job's memory for a model described by inputs, at the example's sequence and batch."""
    acts = activations_gb(EXAMPLE_SEQ_LEN, EXAMPLE_BATCH, i[d_key].value, i[heads_key].value, i[layers_key].value,
                          i.activation_linear_bytes, i.activation_attention_bytes)
    adapters = 0.0
    if job in ("lora", "qlora"):
        adapters = lora_params(i[d_key].value, i[layers_key].value, i.lora_adapted_matrix_types, i.lora_rank)
    return training_memory(i[params_key].value, job, adapter_params=adapters, activations=acts,
                           gradient_bytes=i.bytes_fp16_gradient, optimizer_bytes=i.bytes_adam_states,
                           quant_constant_bits=i.qlora_constant_bits)


def h100_peak(i: Inputs) -> float:
    return i.h100_sxm_bf16_sparse_peak / SPARSITY_FACTOR


def budget_usd(i: Inputs) -> float:
    """The article's budget in dollars at the ECB rate of its date."""
    return compute.convert(i.budget_eur, "EUR", "USD", i.budget_rate_date)


def three_scales(i: Inputs) -> dict:
    """LLaMA 7B as four jobs: memory by part, and compute, A100-hours and dollars."""
    n = i.ft_example_params
    out = {}
    for job in JOBS:
        memory = _memory(i, job, *SIZES[1][1:])
        tokens = i.llama7b_tokens if job == "pretrain" else FT_TOKENS
        flops = job_flops(n, tokens, job, flops_per_param_token=i.flops_per_param_token, lora_speedup=i.lora_speedup)
        hours = gpu_hours(flops, i.a100_bf16_peak, i.palm_mfu)
        trained = n if job in ("pretrain", "full") else lora_params(i.llama7b_d_model, i.llama7b_layers,
                                                                      i.lora_adapted_matrix_types, i.lora_rank)
        out[job] = {"memory": memory, "tokens": tokens, "flops": flops, "hours": hours,
                    "cost": compute.rental_cost(hours, i.lambda_a100_sxm_8x), "trained": trained}
    return out


def lora_rebuilt(i: Inputs) -> dict[str, float]:
    """The LoRA paper's 1.2 TB and 350 GB for GPT-3 175B, rebuilt from bytes per parameter
    (activations left out: the paper states no sequence length or batch for them)."""
    n = i.gpt3_full_ft_trainable
    adapters = lora_params(i.gpt3_d_model, i.gpt3_layers, i.lora_adapted_matrix_types, i.lora_rank)
    kw = dict(gradient_bytes=i.bytes_fp16_gradient, optimizer_bytes=i.bytes_adam_states)
    full = training_memory(n, "full", **kw).total
    lora = training_memory(n, "lora", adapter_params=adapters, **kw).total
    return {"full": full, "lora": lora, "adapters": adapters,
            "full_residual": residual(full, i.lora_vram_full), "lora_residual": residual(lora, i.lora_vram_lora),
            "ratio": full / lora, "paper_ratio": i.lora_vram_full / i.lora_vram_lora}


def qlora_rebuilt(i: Inputs) -> dict[str, float]:
    """QLoRA's two bounds for a 65B model: 16-bit full fine-tuning (more than 780 GB) and QLoRA
    (less than 48 GB), against the formula's model states (weights, gradients, optimiser, adapters)."""
    n = i.llama_65b_params
    adapters = lora_params(i.llama65b_d_model, i.llama65b_layers, i.lora_adapted_matrix_types, i.lora_rank)
    kw = dict(gradient_bytes=i.bytes_fp16_gradient, optimizer_bytes=i.bytes_adam_states)
    full = training_memory(n, "full", **kw).total
    q = training_memory(n, "qlora", adapter_params=adapters, quant_constant_bits=i.qlora_constant_bits, **kw).total
    return {"full": full, "qlora": q, "full_above": full > i.qlora_full_ft_65b_memory,
            "qlora_below": q < i.qlora_65b_memory}


def llmc_rebuilt(i: Inputs) -> dict[str, float]:
    """llm.c's two GPT-2 runs: the 124M run's hours from 6ND at its utilisation and its cost from its
    node price; the 1.5B run's cost from its GPU-hours at today's H100 price."""
    flops = compute.training_flops(i.llmc_124m_params, i.llmc_124m_tokens, i.flops_per_param_token)
    hours = flops / (i.llmc_124m_gpus * i.a100_bf16_peak * i.llmc_124m_mfu) / compute.SECONDS_PER_HOUR
    cost_124m = compute.rental_cost(compute.gpu_hours(i.llmc_124m_gpus, i.llmc_124m_hours), i.llmc_124m_price)
    cost_1558m = compute.rental_cost(compute.gpu_hours(i.llmc_1558m_gpus, i.llmc_1558m_hours), i.lambda_h100_sxm_8x)
    return {"hours_124m": hours, "hours_124m_residual": residual(hours, i.llmc_124m_hours),
            "cost_124m": cost_124m, "cost_124m_residual": residual(cost_124m, i.llmc_124m_cost),
            "cost_1558m": cost_1558m, "cost_1558m_residual": residual(cost_1558m, i.llmc_1558m_cost)}


def llama7b_rebuilt(i: Inputs) -> dict[str, float]:
    """LLaMA 7B's pretraining A100-hours from 6ND at PaLM's utilisation, beside Table 15."""
    flops = compute.training_flops(i.ft_example_params, i.llama7b_tokens, i.flops_per_param_token)
    hours = gpu_hours(flops, i.a100_bf16_peak, i.palm_mfu)
    implied = flops / (i.llama7b_gpu_hours * compute.SECONDS_PER_HOUR * i.a100_bf16_peak)
    return {"flops": flops, "hours": hours, "residual": residual(hours, i.llama7b_gpu_hours), "implied_mfu": implied}


def what_budget_buys(i: Inputs) -> list[dict]:
    """For each job and size: memory, whether it fits one H100, H100-hours and dollars per billion
    tokens, and the tokens the budget trains (where it fits); pretraining also to compute-optimal
    tokens (Chinchilla's tokens per parameter)."""
    usd, price, peak = budget_usd(i), i.lambda_h100_sxm_1x, h100_peak(i)
    per_param = i.chinchilla_tokens / i.chinchilla_params
    rows = []
    for job in JOBS:
        for key, params_key, *shape in SIZES:
            n = i[params_key].value
            memory = _memory(i, job, params_key, *shape)
            ok = fits(memory.total, i.h100_sxm_memory)
            tokens = per_param * n if job == "pretrain" else FT_TOKENS
            flops = job_flops(n, tokens, job, flops_per_param_token=i.flops_per_param_token, lora_speedup=i.lora_speedup)
            hours = gpu_hours(flops, peak, i.palm_mfu)
            bought = tokens_bought(usd, price, n, job, peak, i.palm_mfu,
                                   flops_per_param_token=i.flops_per_param_token, lora_speedup=i.lora_speedup)
            rows.append({"job": job, "model": key, "memory": memory.total, "fits": ok, "tokens": tokens,
                         "hours": hours, "cost": compute.rental_cost(hours, price), "bought": bought if ok else 0.0})
    return rows


def ladder(i: Inputs) -> list[dict]:
    """The rungs, cheapest first: key, dollars, the date it is dated by (a date, or a year), source."""
    gptoss = compute.rental_cost(i.gptoss_120b_h100_hours, i.lambda_h100_sxm_8x)
    rungs = [
        ("llmc_124m", i.llmc_124m_cost, i.llmc_124m_date, "karpathy2024llmc"),
        ("budget", budget_usd(i), i.budget_rate_date, "article1"),
        ("llmc_1558m", i.llmc_1558m_cost, int(i.llmc_1558m_year), "karpathy2024llmc1558"),
        ("mosaic", i.mosaic_cost, i.mosaic_post_date, "venigalla2022mosaic"),
        ("llama65b", i.epoch_llama65b_cost, i.epoch_dollars_date, "cottier2024rising"),
        ("gptoss", gptoss, i["lambda_h100_sxm_8x"].seen, "openai2025gptosscard"),
        ("palm", i.epoch_palm_cost, i.epoch_dollars_date, "cottier2024rising"),
        ("gpt4", i.epoch_gpt4_cost, i.epoch_dollars_date, "cottier2024rising"),
    ]
    return sorted(({"key": k, "usd": float(v), "dated": d, "source": s} for k, v, d, s in rungs), key=lambda r: r["usd"])
