"""The memory of one training step of a model, by part, and the peak PyTorch allocates during it.

A job is a model's Shape (lib.plan.shapes), a method, a sequence length, a batch, gradient
checkpointing on or off, and an attention kind. The methods, as the libraries run them:

- `full-mixed`: fp32 master weights, bf16 autocast, AdamW in fp32: 4 bytes of weights, 4 of
  gradients, 8 of optimizer states per parameter (ZeRO's 16), and autocast's bf16 copy of each
  weight (2 bytes), kept for the backward pass like an activation;
- `full-bf16`: everything in bf16; PyTorch's AdamW keeps its states in the parameters' type: 2 + 2 + 4;
- `lora`: frozen bf16 weights (2 bytes), adapters of rank r on the target modules, in fp32 as PEFT casts
  them, with their gradients and AdamW states (4 + 4 + 8 bytes per adapter parameter);
- `qlora`: the linear layers in NF4 with double quantisation (4 bits, one 8-bit constant per 64 weights,
  one fp32 constant per 256 of those), the rest (embeddings, output layer, norms) in fp32, as
  PEFT's `prepare_model_for_kbit_training` casts them; adapters as for LoRA.

Activations: what the forward pass keeps for the backward pass, per token, from coefficients derived
by counting the saved tensors of small instances of each architecture (lib.plan.derive,
lib/data/plan/activations.toml). With gradient checkpointing each layer keeps only its input (bf16),
and one layer's activations are rebuilt at a time during the backward pass.

The peak: weights and optimizer states are alive all the time (the states from the first step on);
the backward pass starts with every activation and the loss's gradient of the logits alive (fp32 and
bf16, 6 bytes per vocabulary entry and token), and frees activations as gradients fill, so the peak
is the larger of the two ends: everything saved plus that gradient, or every gradient plus one
layer's activations. Not modelled, and stated beside the peak: the CUDA context and the caching
allocator's slack (what `max_memory_reserved` and the device show above `max_memory_allocated`),
fragmentation, and libraries' workspaces.
"""

from __future__ import annotations

import dataclasses
import functools
import tomllib
from pathlib import Path

from lib.plan.errors import PlanError
from lib.plan.shapes import Shape, expert_modules, linear_modules, param_count

METHODS = ("full-mixed", "full-bf16", "lora", "qlora")
ATTENTIONS = ("sdpa", "eager")
ALL_LINEAR = "all-linear"
COEFFICIENTS = Path(__file__).resolve().parents[1] / "data" / "plan" / "activations.toml"
# NF4 with double quantisation (QLoRA, Dettmers et al. 2023, section 3): 4 bits a weight, an 8-bit
# constant per block of 64, an fp32 constant per 256 of those blocks.
NF4_BYTES = 0.5 + 1 / 64 + 4 / (64 * 256)
LOSS_GRADIENT_BYTES = 6  # the logits' gradient at the start of the backward pass: fp32, then bf16
LAYER_INPUT_BYTES = 2  # what a checkpointed layer keeps: its bf16 input


@dataclasses.dataclass(frozen=True)
class Job:
    shape: Shape
    method: str
    seq: int
    batch: int = 1
    checkpointing: bool = False
    attention: str = "sdpa"
    rank: int = 16
    targets: tuple[str, ...] | str = ("q_proj", "v_proj")
    # Bytes of each adapter weight and of its gradient: 4 as PEFT casts them (autocast_adapter_dtype);
    # 2 where a recipe casts them back to bf16, as QLoRA's qlora.py does.
    adapter_bytes: float = 4
    # qlora: bytes of each embedding and output-layer weight left out of NF4: 4 as
    # prepare_model_for_kbit_training casts them; 2 where a recipe casts them back to bf16 (qlora.py).
    # The norms stay in fp32 either way.
    embedding_bytes: float = 4

    def __post_init__(self):
        if self.method not in METHODS:
            raise PlanError("unknown_method", name=repr(self.method), known=", ".join(METHODS))
        if self.attention not in ATTENTIONS:
            raise PlanError("unknown_attention", name=repr(self.attention), known=", ".join(ATTENTIONS))
        for name in ("seq", "batch", "rank"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise PlanError("bad_number", name=name, value=repr(value))
        for name in ("adapter_bytes", "embedding_bytes"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not value > 0:
                raise PlanError("bad_number", name=name, value=repr(value))
        if self.seq > self.shape.max_positions:
            raise PlanError("seq_beyond", seq=self.seq, positions=self.shape.max_positions)
        if self.adapted:
            known = linear_modules(self.shape)
            if self.targets != ALL_LINEAR:
                unknown = [t for t in self.targets if t not in known]
                if unknown or not self.targets:
                    raise PlanError("unknown_target", names=", ".join(unknown) or "—", known=", ".join(known), all=ALL_LINEAR)

    @property
    def adapted(self) -> bool:
        return self.method in ("lora", "qlora")

    @property
    def tokens(self) -> int:
        return self.seq * self.batch


@functools.cache
def coefficients() -> dict:
    with COEFFICIENTS.open("rb") as f:
        return tomllib.load(f)


def _activation_key(job: Job) -> str:
    """The counted instance whose coefficients fit the job (lib/data/plan/activations.toml)."""
    if not job.adapted:
        method = "full"
    elif job.targets == ALL_LINEAR or set(job.targets) == set(linear_modules(job.shape)):
        method = "lora-all"
    elif set(job.targets) == {"q_proj", "v_proj"}:
        method = "lora-qv"
    else:
        raise PlanError("targets_not_derived", names=",".join(job.targets))
    if job.shape.model_type not in coefficients():
        raise PlanError("arch_not_derived", name=job.shape.model_type, known=", ".join(coefficients()))
    return f"{method}.{job.attention}"


def activation_keys(s: Shape) -> tuple[str, ...]:
    """The method.attention keys derived for the shape's architecture (none when it is not derived)."""
    found = coefficients().get(s.model_type, {})
    return tuple(f"{method}.{attention}" for method, by_attention in found.items() for attention in by_attention)


def terms(s: Shape, key: str) -> tuple[float, float, float, float]:
    """Bytes kept per token for a method.attention key, as a constant and a slope on the sequence: in
    one layer (layer, layer_seq) and outside the layers (outside, outside_seq: logits, loss, rotary tables)."""
    c = coefficients()[s.model_type]
    for part in key.split("."):
        c = c[part]
    layer = (c["layer_one"] + c["layer_hidden"] * s.hidden + c["layer_q"] * s.heads * s.head_dim
             + c["layer_kv"] * s.kv_heads * s.head_dim + c["layer_ffn"] * s.intermediate * s.experts_per_token
             + c["layer_heads"] * s.heads)
    layer_seq = c.get("layer_heads_seq", 0) * s.heads + c.get("layer_seq", 0)
    outside = c["outside_hidden"] * s.hidden + c["outside_head_dim"] * s.head_dim + c["outside_vocab"] * s.vocab
    return layer, layer_seq, outside, c.get("outside_seq", 0)


def _per_token(job: Job) -> tuple[float, float]:
    """Bytes kept per token: in one layer, and outside the layers (logits, loss, rotary tables)."""
    layer, layer_seq, outside, outside_seq = terms(job.shape, _activation_key(job))  # refuses what is not derived
    return layer + layer_seq * job.seq, outside + outside_seq * job.seq


def adapter_params(job: Job) -> int:
    """LoRA's trainable parameters: r × (in + out) for each target module of each layer."""
    if not job.adapted:
        return 0
    modules = linear_modules(job.shape)
    names = modules if job.targets == ALL_LINEAR else job.targets
    return job.shape.layers * sum(job.rank * sum(modules[n]) for n in names)


def quantised_params(s: Shape) -> int:
    """The parameters bitsandbytes quantises: every linear layer of every layer (experts included)."""
    per_expert = expert_modules(s)
    return s.layers * sum(i * o * (s.experts if name in per_expert else 1) for name, (i, o) in linear_modules(s).items())


def states(job: Job) -> dict[str, float]:
    """Bytes of the model states by part (weights, adapters, gradients, optimizer states), and
    `after_step`: what is allocated right after the optimizer's step, before gradients are cleared.
    No activation coefficient is needed: any architecture shapes.py reads."""
    s = job.shape
    p = param_count(s)["total"]
    a = adapter_params(job)
    quantised = quantised_params(s)
    tables = s.vocab * s.hidden * (1 if s.tied_embeddings else 2)  # the embeddings and the output layer
    weights = {"full-mixed": 4 * p, "full-bf16": 2 * p, "lora": 2 * p,
               "qlora": NF4_BYTES * quantised + job.embedding_bytes * tables + 4 * (p - quantised - tables)}[job.method]
    gradients = {"full-mixed": 4 * p, "full-bf16": 2 * p}.get(job.method, job.adapter_bytes * a)
    optimizer = {"full-mixed": 8 * p, "full-bf16": 4 * p}.get(job.method, 8 * a)
    adapters = job.adapter_bytes * a
    return {"weights": weights, "adapters": adapters, "gradients": gradients, "optimizer": optimizer,
            "after_step": weights + adapters + gradients + optimizer}


def parts(job: Job) -> dict[str, float]:
    """Bytes by part: weights, gradients, optimizer states, adapters (with their gradients and states),
    activations (saved for the backward pass), and the peak PyTorch allocates during a step."""
    st = states(job)
    layer, outside = _per_token(job)
    one_layer = layer * job.tokens
    if job.checkpointing:
        saved = (job.shape.layers * LAYER_INPUT_BYTES * job.shape.hidden + outside) * job.tokens
    else:
        saved = (job.shape.layers * layer + outside) * job.tokens
    autocast = 2 * param_count(job.shape)["total"] if job.method == "full-mixed" else 0
    loss_gradient = LOSS_GRADIENT_BYTES * job.shape.vocab * job.tokens
    start = saved + autocast + loss_gradient + (one_layer if job.checkpointing else 0)
    end = st["gradients"] + one_layer
    return {"weights": st["weights"], "adapters": st["adapters"], "gradients": st["gradients"],
            "optimizer": st["optimizer"], "activations": saved + autocast,
            "peak": st["weights"] + st["adapters"] + st["optimizer"] + max(start, end),
            # what is allocated right after the optimizer's step, before gradients are cleared
            "after_step": st["after_step"]}
