"""The memory of one training step of a model, by part, and the peak PyTorch allocates during it.

A job is a model's Shape (lib.plan.shapes), a method, a sequence length, a batch, gradient
checkpointing on or off, and an attention kind. The methods, as the libraries run them:

- `full-mixed`: fp32 master weights, bf16 autocast, AdamW in fp32: 4 bytes of weights, 4 of
  gradients, 8 of optimizer states per parameter (16, ZeRO's total split otherwise: its Section 3.1
  counts fp16 weights and gradients, 2 + 2, and an fp32 copy, momentum and variance, 12), and
  autocast's bf16 copy of each weight (2 bytes), kept for the backward pass like an activation;
- `full-bf16`: everything in bf16; PyTorch's AdamW keeps its states in the parameters' type: 2 + 2 + 4;
- `lora`: frozen bf16 weights (2 bytes), adapters of rank r on the target modules, in fp32 as PEFT casts
  them, with their gradients and AdamW states (4 + 4 + 8 bytes per adapter parameter);
- `qlora`: the linear layers in NF4 with double quantisation (4 bits, one 8-bit constant per 64 weights,
  one fp32 constant per 256 of those), the rest (embeddings, output layer, norms, and a mixture of
  experts' fused experts and router, which are parameters, not the `nn.Linear` layers bitsandbytes
  replaces) in fp32, as PEFT's `prepare_model_for_kbit_training` casts every bf16 parameter it finds;
  adapters as for LoRA.

A LoRA adapter goes on linear layers (`targets`, PEFT's target_modules; "all-linear" leaves a mixture
of experts' experts out, since they are fused parameters), and on a mixture of experts' expert stacks
with PEFT's `target_parameters` (`target_parameters`, on the layers `parameter_layers`, all when None).

Activations: what the forward pass keeps for the backward pass, per token, from coefficients derived
by counting the saved tensors of small instances of each architecture (lib.plan.derive,
lib/data/plan/activations.toml), and per layer and step for what does not grow with the tokens (a
layer whose experts PEFT adapts keeps the whole adapted expert stack, weight plus B·A, in the weights'
type). With gradient checkpointing each layer keeps only its input (bf16), and one layer's activations
are rebuilt at a time during the backward pass.

The peak: weights and optimizer states are alive all the time (the states from the first step on);
the backward pass starts with every activation and the loss's gradient of the logits alive (fp32 and
bf16, 6 bytes per vocabulary entry and token), and frees activations as gradients fill, so the peak
is the larger of the two ends: everything saved plus that gradient, or every gradient plus one
layer's activations. Not modelled, and stated beside the peak: the CUDA context and the caching
allocator's slack (what `max_memory_reserved` and the device show above `max_memory_allocated`),
fragmentation, and libraries' workspaces. With gradient accumulation (grad_accum > 1) the gradients of the
step's earlier micro-batches are alive through the later ones, so the backward pass starts with them too
(peak_terms: the peak is the same for any accumulation of 2 or more, and the same as without it wherever
the end of the backward pass is the larger).

The optimizer (`optimizer`), by the bytes of state it keeps per trainable parameter (optimizer_bytes):
PyTorch's AdamW two states of the parameters' type in 32-bit training (fp32, 8 bytes; `state_bytes` each
for full-bf16); bitsandbytes' 8-bit AdamW (bnb.optim.AdamW8bit, and PagedAdamW8bit) two uint8 states and,
block-wise, one fp32 absmax per 256 values of each (Optimizer2State.init_state: `blocks = n // 256`, one more
for a remainder; `absmax1`, `absmax2` of torch.float32): 2 + 2 × 4 / 256 bytes (a tensor of fewer than
min_8bit_size = 4,096 values keeps 32-bit states: not counted); its 32-bit paged AdamW 8 bytes (fp32
states); SGD without momentum (PyTorch's default, momentum = 0) none. A paged optimizer allocates its states
in CUDA unified memory, which the driver moves to the CPU's memory when the GPU runs short: the peak is
the same, but a job whose peak exceeds the GPU by no more than those states still runs, slower
(lib.plan.speed.fits: "fits with paging").

A node of GPUs (`gpus`, data parallel, each GPU its own micro-batch) with a sharding (`sharding`,
SHARDED): per GPU, DDP keeps every state whole, and its gradient buckets (PyTorch's DistributedDataParallel
copies each gradient into a flat bucket for its all-reduce unless gradient_as_bucket_view=True, whose
documentation says that saves "the total gradients size"); ZeRO-1 (llm.c's -z 1) divides the optimizer's
states among the GPUs; ZeRO-2 (FSDP's SHARD_GRAD_OP) the gradients and the optimizer's states, keeping one
layer's whole gradients for their reduce-scatter; ZeRO-3 (FSDP's FULL_SHARD: "Parameters, gradients, and
optimizer states are sharded", each unit all-gathered before its forward and its backward) the weights too,
keeping gathered in bf16 the outer unit (embeddings and output layer: FSDP's root, not resharded after the
forward) and two layers (the one computing and the next, prefetched), and one layer's whole gradients.
Under ZeRO-3 the gathered bf16 weights are the compute copy: no autocast copy of the whole model is kept.
Activations are each GPU's own micro-batch's.
"""

from __future__ import annotations

import dataclasses
import functools
import tomllib
from pathlib import Path

from lib.plan.errors import PlanError
from lib.plan.shapes import Shape, all_linear_parameters, expert_parameters, linear_modules, param_count

METHODS = ("full-mixed", "full-bf16", "lora", "qlora")
ATTENTIONS = ("sdpa", "eager", "flash_attention_2")
# transformers' attn_implementation="flash_attention_2" (the flash-attn package): a fused kernel that, as
# sdpa's fused kernels, keeps no scores (its backward recomputes them from the output and the softmax's
# log-sum-exp), and takes fewer key heads than query heads natively in bf16 (flash_attn_func's MQA/GQA),
# so it never falls back to PyTorch's math kernel (math_attention). It keeps what sdpa keeps: its
# activations are counted with sdpa's derived coefficients (`stored_attention`).
FUSED = ("sdpa", "flash_attention_2")


def stored_attention(attention: str) -> str:
    """The attention whose derived coefficients count an attention's activations: sdpa for both fused ones."""
    return "sdpa" if attention in FUSED else attention
ALL_LINEAR = "all-linear"
COEFFICIENTS = Path(__file__).resolve().parents[1] / "data" / "plan" / "activations.toml"
# NF4 with double quantisation (QLoRA, Dettmers et al. 2023, section 3): 4 bits a weight, an 8-bit
# constant per block of 64, an fp32 constant per 256 of those blocks.
NF4_BYTES = 0.5 + 1 / 64 + 4 / (64 * 256)
# The loss's backward pass over the logits, upcast to fp32 (transformers' ForCausalLMLoss: logits.float()):
# the negative log-likelihood's fp32 gradient and log-softmax's fp32 gradient are alive together (4 + 4
# bytes a logit), then log-softmax's and its bf16 copy for the output layer (4 + 2); the larger is 8.
# With a 50,257-word vocabulary (GPT-2) and 16 × 1,024 tokens that is 6.6 GB.
LOSS_GRADIENT_BYTES = 8
# PyTorch's math attention kernel (what scaled_dot_product_attention falls back to where no fused kernel
# takes the inputs): the fp32 probabilities it keeps for the backward pass (4 bytes a score), and the keys
# and values repeated to every head for grouped-query attention (4 bytes each a value).
MATH_SCORE_BYTES = 4
MATH_REPEATED_KV_BYTES = 2 * 4
# Full training in mixed precision as autocast runs it: each weight in fp32, its fp32 gradient, and AdamW's
# two fp32 states, 4 + 4 + 8 bytes a parameter (ZeRO's Section 3.1 reaches the same 16 as 2 + 2 + 12: fp16
# weights and gradients, an fp32 copy, momentum and variance); autocast's bf16 copy of each weight is
# counted with the activations.
FULL_MIXED_BYTES = {"weights": 4, "gradients": 4, "optimizer": 8}
LAYER_INPUT_BYTES = 2  # what a checkpointed layer keeps: its bf16 input
OPTIMIZERS = ("adamw", "adamw-8bit", "paged-adamw-32bit", "paged-adamw-8bit", "sgd")
PAGED = ("paged-adamw-32bit", "paged-adamw-8bit")
# bitsandbytes' 8-bit AdamW: two uint8 states and an fp32 absmax per block of 256 values of each
BNB_BLOCK = 256
BNB_8BIT_BYTES = 2 * 1 + 2 * 4 / BNB_BLOCK
# What each sharding divides among the GPUs (the module's docstring): FSDP's FULL_SHARD is zero3,
# SHARD_GRAD_OP zero2; DDP divides nothing.
SHARDED = {"ddp": (), "zero1": ("optimizer",), "zero2": ("gradients", "optimizer"),
           "zero3": ("weights", "adapters", "gradients", "optimizer")}
SHARDINGS = tuple(SHARDED)
GATHERED_LAYERS = 2  # ZeRO-3: the layer computing and the next, prefetched
GATHERED_BYTES = 2  # ZeRO-3 gathers each unit's weights in bf16 (FSDP's MixedPrecision param_dtype)
DERIVED_RANK = 8  # the LoRA rank of the counted instances (lib.plan.derive)


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
    # full-bf16: bytes of each of AdamW's two states: 2, of the parameters' type, as PyTorch's AdamW keeps
    # them; 4 where a recipe's optimizer keeps them in 32 bits (qlora.py's paged_adamw_32bit).
    state_bytes: float = 2
    target_parameters: tuple[str, ...] = ()
    parameter_layers: tuple[int, ...] | None = None
    optimizer: str = "adamw"  # OPTIMIZERS
    gpus: int = 1  # data-parallel GPUs, each with its own micro-batch of `batch` sequences
    sharding: str = "ddp"  # SHARDINGS: what the GPUs divide among them
    grad_accum: int = 1  # micro-batches per optimizer step

    def __post_init__(self):
        if self.method not in METHODS:
            raise PlanError("unknown_method", name=repr(self.method), known=", ".join(METHODS))
        if self.optimizer not in OPTIMIZERS:
            raise PlanError("unknown_optimizer", name=repr(self.optimizer), known=", ".join(OPTIMIZERS))
        if self.sharding not in SHARDINGS:
            raise PlanError("unknown_sharding", name=repr(self.sharding), known=", ".join(SHARDINGS))
        if self.attention not in ATTENTIONS:
            raise PlanError("unknown_attention", name=repr(self.attention), known=", ".join(ATTENTIONS))
        for name in ("seq", "batch", "rank", "gpus", "grad_accum"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise PlanError("bad_number", name=name, value=repr(value))
        for name in ("adapter_bytes", "embedding_bytes", "state_bytes"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not value > 0:
                raise PlanError("bad_number", name=name, value=repr(value))
        if self.seq > self.shape.max_positions and self.shape.learned_positions:  # GPT-2: no row of its table
            raise PlanError("seq_beyond", seq=self.seq, positions=self.shape.max_positions)
        if self.adapted:
            known = linear_modules(self.shape)
            if self.targets != ALL_LINEAR:
                unknown = [t for t in self.targets if t not in known]
                if unknown or not self.targets:
                    raise PlanError("unknown_target", names=", ".join(unknown) or "—", known=", ".join(known), all=ALL_LINEAR)
        if self.target_parameters:
            known = expert_parameters(self.shape)
            unknown = [t for t in self.target_parameters if t not in known]
            if unknown or not self.adapted:
                raise PlanError("unknown_target", names=", ".join(unknown) or ", ".join(self.target_parameters),
                                known=", ".join(linear_modules(self.shape)), all=ALL_LINEAR)
            if all_linear_parameters(self.shape):  # Mixtral: "all-linear" adapts every layer's experts already
                raise PlanError("targets_not_derived", derived=",".join(attention_targets(self.shape)[1]),
                                names=",".join(self.target_parameters))
            if self.parameter_layers is not None and (
                    not self.parameter_layers or any(not 0 <= n < self.shape.layers for n in self.parameter_layers)):
                raise PlanError("bad_layers", value=repr(self.parameter_layers), layers=self.shape.layers)

    @property
    def adapted(self) -> bool:
        return self.method in ("lora", "qlora")

    @property
    def tokens(self) -> int:
        """Tokens of one micro-batch on one GPU."""
        return self.seq * self.batch

    @property
    def global_batch(self) -> int:
        """Sequences per optimizer step: micro-batch × accumulation × GPUs."""
        return self.batch * self.grad_accum * self.gpus

    @property
    def step_tokens(self) -> int:
        """Tokens per optimizer step, over every GPU."""
        return self.seq * self.global_batch

    @property
    def all_linear(self) -> bool:
        return self.adapted and (self.targets == ALL_LINEAR or set(self.targets) == set(linear_modules(self.shape)))

    @property
    def expert_layers(self) -> int:
        """How many layers have their expert stacks adapted: those target_parameters names, or every
        layer where "all-linear" adapts the experts (Mixtral, shapes.all_linear_parameters)."""
        if self.target_parameters:
            return self.shape.layers if self.parameter_layers is None else len(set(self.parameter_layers))
        if self.all_linear and self.targets == ALL_LINEAR and all_linear_parameters(self.shape):
            return self.shape.layers
        return 0


@functools.cache
def coefficients() -> dict:
    with COEFFICIENTS.open("rb") as f:
        return tomllib.load(f)


def attention_targets(s: Shape) -> tuple[str, tuple[str, ...]]:
    """The attention-only adapter the activations are derived for, besides all-linear: its method and
    modules. W_q and W_v (lora-qv) where they are modules of their own; GPT-2's fused c_attn (lora-c_attn),
    PEFT's default target for gpt2, where they are parts of one (lib.plan.derive.FUSED_METHODS)."""
    return ("lora-c_attn", ("c_attn",)) if s.arch == "gpt2" else ("lora-qv", ("q_proj", "v_proj"))


def _activation_key(job: Job) -> str:
    """The counted instance whose coefficients fit the job's layers (lib/data/plan/activations.toml);
    those whose experts are adapted too use `lora-experts` (`_expert_key`)."""
    attention_method, attention_modules = attention_targets(job.shape)
    if not job.adapted:
        method = "full"
    elif job.targets == ALL_LINEAR or set(job.targets) == set(linear_modules(job.shape)):
        method = "lora-all"
    elif set(job.targets) == set(attention_modules) and not job.target_parameters:
        method = attention_method
    else:
        raise PlanError("targets_not_derived", derived=",".join(attention_modules),
                        names=",".join(job.targets if job.targets != ALL_LINEAR else [ALL_LINEAR]))
    if job.target_parameters and (set(job.target_parameters) != set(expert_parameters(job.shape)) or method != "lora-all"
                                  or f"lora-experts.{stored_attention(job.attention)}" not in _flat(coefficients().get(job.shape.model_type, {}))):
        raise PlanError("targets_not_derived", derived=",".join(attention_modules), names=",".join(job.target_parameters))
    if job.shape.model_type not in coefficients():
        raise PlanError("arch_not_derived", name=job.shape.model_type, known=", ".join(coefficients()))
    derived = _flat(coefficients()[job.shape.model_type])
    if f"{method}.{stored_attention(job.attention)}" not in derived:
        raise PlanError("attention_not_derived", name=job.shape.model_type, attention=job.attention,
                        derived=" | ".join(a for a in ATTENTIONS if f"{method}.{stored_attention(a)}" in derived))
    return f"{method}.{stored_attention(job.attention)}"


def default_attention(s: Shape) -> str:
    """sdpa, transformers' default, where the architecture runs it; otherwise eager (gpt-oss, whose
    attention sinks only its eager attention implements: GptOssPreTrainedModel._supports_sdpa is False)."""
    derived = _flat(coefficients().get(s.model_type, {}))
    return "sdpa" if not derived or any(k.endswith(".sdpa") for k in derived) else "eager"


def _flat(table: dict) -> set[str]:
    return {f"{m}.{a}" for m, by_attention in table.items() for a in by_attention}


def activation_keys(s: Shape) -> tuple[str, ...]:
    """The method.attention keys derived for the shape's architecture (none when it is not derived)."""
    return tuple(sorted(_flat(coefficients().get(s.model_type, {}))))


def terms(s: Shape, key: str) -> dict[str, float]:
    """What the counted instance `key` (method.attention) keeps, as sums over the shape's sizes: per token
    in one layer (`layer`, and `layer_seq` per token of the sequence: eager attention's scores), per token
    outside the layers (`outside`, `outside_seq`: logits, loss, rotary tables, the causal mask), per token
    in the first layer only, as a difference from the others (`first`: with adapters on q and v alone, its
    keys need no gradient, so it keeps less: no queries for q·kᵀ under eager attention, nothing of OLMo 2's
    k_norm), and per
    layer and step, not growing with the tokens (`step_fixed`; `step_weights`, an adapted expert stack,
    and `step_rank`, its factors per unit of rank, both in bf16: twice that in QLoRA's fp32 experts)."""
    c = coefficients()[s.model_type]
    for part in key.split("."):
        c = c[part]
    kv_repeated = (s.heads if s.kv_heads > 1 else s.kv_heads) * s.head_dim  # lib.plan.derive.kv_repeated_width
    layer = (c["layer_one"] + c["layer_hidden"] * s.hidden + c.get("layer_q", 0) * s.heads * s.head_dim
             + c.get("layer_kv", 0) * s.kv_heads * s.head_dim + c.get("layer_kv_repeated", 0) * kv_repeated
             + c["layer_ffn"] * s.intermediate * s.experts_per_token + c["layer_heads"] * s.heads
             + c.get("layer_experts", 0) * s.experts + c.get("layer_routed", 0) * s.experts_per_token
             + c.get("layer_routed_hidden", 0) * s.experts_per_token * s.hidden)
    return {"layer": layer, "layer_seq": c.get("layer_heads_seq", 0) * s.heads + c.get("layer_seq", 0),
            "outside": c["outside_hidden"] * s.hidden + c.get("outside_head_dim", 0) * s.head_dim + c["outside_vocab"] * s.vocab,
            "outside_seq": c.get("outside_seq", 0),
            "first": c.get("first_q", 0) * s.heads * s.head_dim + c.get("first_kv", 0) * s.kv_heads * s.head_dim,
            "step_fixed": c.get("step_experts", 0) * s.experts,
            "step_weights": c.get("step_expert_weights", 0) * s.experts * s.hidden * s.intermediate,
            "step_rank": (c.get("step_expert_factors_hidden", 0) * s.experts * s.hidden
                          + c.get("step_expert_factors_ffn", 0) * s.experts * s.intermediate) / DERIVED_RANK}


def math_attention(job: Job) -> bool:
    """Whether scaled_dot_product_attention runs PyTorch's math kernel, which keeps every score: QLoRA
    (prepared with PEFT's prepare_model_for_kbit_training, which casts every non-quantised parameter to
    fp32) of a model with grouped-query attention under sdpa. transformers passes `enable_gqa=True` with
    no mask (integrations/sdpa_attention.py, use_gqa_in_sdpa: "attention_mask is None (otherwise it will
    fall back to the math kernel)"); of PyTorch's fused kernels (sdp_utils.cpp) the flash kernel, the only
    one that takes fewer key heads than query heads, takes fp16 and bf16 inputs only, and the
    memory-efficient kernel takes fp32 but checks that the heads match (check_batch_size_and_num_heads_dense
    without GQA support). Multi-head attention (LLaMA 7B) passes the memory-efficient kernel's check and
    keeps no scores. Observed on a real GPU for Llama 3.1 8B and Mistral 7B (issue 37); why the inputs reach
    the kernel in fp32 under bf16 autocast, which lists scaled_dot_product_attention as lower precision,
    the book has not traced."""
    return job.method == "qlora" and job.attention == "sdpa" and job.shape.kv_heads != job.shape.heads


def math_layer_bytes(job: Job) -> float:
    """Bytes per token one layer keeps more under the math kernel (math_attention): its fp32 probabilities,
    a score per head per position, and the keys and values repeated to every head."""
    if not math_attention(job):
        return 0.0
    s = job.shape
    return MATH_SCORE_BYTES * s.heads * job.seq + MATH_REPEATED_KV_BYTES * s.heads * s.head_dim


def warnings(job: Job) -> list[tuple[str, dict]]:
    """What the planner computes but warns about, as (template, values) for [plan.warnings] of the words:
    a sequence beyond the configuration's max_position_embeddings, which transformers runs (rotary
    positions are computed for any length) but the model was not trained at. (A learned position table,
    GPT-2's, has no row beyond it: Job refuses that.)"""
    out = []
    if job.seq > job.shape.max_positions:
        out.append(("seq_beyond", {"seq": job.seq, "positions": job.shape.max_positions}))
    return out


def _bytes(job: Job, key: str) -> tuple[float, float, float]:
    """Bytes kept per token in one layer, per token outside the layers, and per layer and step, by the
    counted instance `key` (terms) at the job's sequence, method and rank; with math_layer_bytes."""
    t = terms(job.shape, key)
    weight_type = 2 if job.method == "qlora" else 1  # the adapted expert stack: bf16 for LoRA, fp32 after QLoRA's preparation
    return (t["layer"] + t["layer_seq"] * job.seq + math_layer_bytes(job), t["outside"] + t["outside_seq"] * job.seq,
            t["step_fixed"] + weight_type * (t["step_weights"] + job.rank * t["step_rank"]))


def _expert_key(job: Job) -> str:
    """The counted instance for layers whose experts are adapted: gpt-oss's `lora-experts` (all-linear
    and target_parameters), or Mixtral's `lora-all`, which adapts them already."""
    return f"lora-experts.{stored_attention(job.attention)}" if job.target_parameters else _activation_key(job)


def adapter_params(job: Job) -> int:
    """LoRA's trainable parameters: r × (in + out) for each target module of each layer, what PEFT's
    "all-linear" adapts through parameters (shapes.all_linear_parameters), and r × experts × (in + out)
    for each expert stack target_parameters adapts (PEFT's ParamWrapper)."""
    if not job.adapted:
        return 0
    modules = linear_modules(job.shape)
    names = modules if job.targets == ALL_LINEAR else job.targets
    stacks = expert_parameters(job.shape)
    implied = all_linear_parameters(job.shape) if job.targets == ALL_LINEAR else {}
    return (job.shape.layers * sum(job.rank * sum(modules[n]) for n in names)
            + job.shape.layers * sum(job.rank * m * k * (i + o) for i, o, k, m in implied.values())
            + job.expert_layers * sum(job.rank * job.shape.experts * sum(stacks[n]) for n in job.target_parameters))


def quantised_params(s: Shape) -> int:
    """The parameters bitsandbytes quantises: the weights of every linear layer of every layer
    (`linear_modules`: not a mixture of experts' fused experts nor its router, which it leaves in bf16
    and prepare_model_for_kbit_training then casts to fp32: `states`)."""
    return s.layers * sum(i * o for i, o in linear_modules(s).values())


def optimizer_bytes(job: Job) -> float:
    """Bytes of optimizer state per trainable parameter (the module's docstring): AdamW's two states in fp32
    (8; 2 × state_bytes for full-bf16, PyTorch keeping them in the parameters' type), bitsandbytes' 8-bit
    AdamW BNB_8BIT_BYTES, its paged 32-bit AdamW 8, SGD without momentum 0."""
    if job.optimizer in ("adamw-8bit", "paged-adamw-8bit"):
        return BNB_8BIT_BYTES
    if job.optimizer == "sgd":
        return 0.0
    if job.optimizer == "adamw" and job.method == "full-bf16":
        return 2 * job.state_bytes
    return 8.0


def trainable_params(job: Job) -> int:
    """The parameters the optimizer updates: every one in full training, the adapters' in LoRA and QLoRA."""
    return adapter_params(job) if job.adapted else param_count(job.shape)["total"]


def whole_states(job: Job) -> dict[str, float]:
    """Bytes of the model states by part on one GPU holding them whole (weights, adapters, gradients,
    optimizer states), whatever the sharding."""
    s = job.shape
    p = param_count(s)["total"]
    a = adapter_params(job)
    quantised = quantised_params(s)
    tables = s.vocab * s.hidden * (1 if s.tied_embeddings else 2)  # the embeddings and the output layer
    mixed = FULL_MIXED_BYTES
    weights = {"full-mixed": mixed["weights"] * p, "full-bf16": 2 * p, "lora": 2 * p,
               "qlora": NF4_BYTES * quantised + job.embedding_bytes * tables + 4 * (p - quantised - tables)}[job.method]
    gradients = {"full-mixed": mixed["gradients"] * p, "full-bf16": 2 * p}.get(job.method, job.adapter_bytes * a)
    return {"weights": weights, "adapters": job.adapter_bytes * a, "gradients": gradients,
            "optimizer": optimizer_bytes(job) * trainable_params(job)}


def shard(job: Job) -> dict[str, float]:
    """What each part is multiplied by on one GPU: 1 ÷ gpus for the parts the sharding divides, else 1."""
    return {k: 1 / job.gpus if k in SHARDED[job.sharding] else 1.0 for k in ("weights", "adapters", "gradients", "optimizer")}


def buffers(job: Job) -> float:
    """Bytes each GPU keeps for its collectives (the module's docstring): none on one GPU; DDP's gradient
    buckets, the gradients' size; ZeRO-2's one layer's whole gradients; ZeRO-3's gathered bf16 weights of the
    outer unit and GATHERED_LAYERS layers, and one layer's whole gradients."""
    if job.gpus == 1:
        return 0.0
    s, whole = job.shape, whole_states(job)
    layer_gradients = whole["gradients"] / s.layers
    if job.sharding == "ddp":
        return whole["gradients"]
    if job.sharding == "zero2":
        return layer_gradients
    if job.sharding == "zero3":
        p = param_count(s)["total"]
        tables = s.vocab * s.hidden * (1 if s.tied_embeddings else 2)
        gathered = tables + GATHERED_LAYERS * (p - tables) / s.layers
        return GATHERED_BYTES * gathered + layer_gradients
    return 0.0


def states(job: Job) -> dict[str, float]:
    """Bytes of the model states by part on each GPU (weights, adapters, gradients, optimizer states: their
    share under the job's sharding, shard), and `after_step`: what is allocated right after the optimizer's
    step, before gradients are cleared (with the collectives' buffers). No activation coefficient is needed:
    any architecture shapes.py reads."""
    whole, share = whole_states(job), shard(job)
    out = {k: whole[k] * share[k] for k in whole}
    return out | {"after_step": sum(out.values()) + buffers(job)}


PEAK_MOMENTS = ("backward_start", "backward_end")


def _activations(job: Job) -> tuple[float, float, float]:
    """Bytes the forward pass saves for the backward pass, autocast's bf16 copy of the weights (none under
    ZeRO-3 on several GPUs, whose gathered bf16 weights are the compute copy), and one layer's activations."""
    layer, outside, step = _bytes(job, _activation_key(job))
    plain = job.shape.layers - job.expert_layers  # layers without adapted experts
    per_layer = [layer * job.tokens + step] * min(plain, 1)
    saved_layers = plain * (layer * job.tokens + step)
    if job.expert_layers:
        e_layer, _, e_step = _bytes(job, _expert_key(job))
        per_layer.append(e_layer * job.tokens + e_step)
        saved_layers += job.expert_layers * (e_layer * job.tokens + e_step)
    if job.checkpointing:
        saved = (job.shape.layers * LAYER_INPUT_BYTES * job.shape.hidden + outside) * job.tokens
    else:  # the first layer differs from the others by `first` (terms), where the key was counted with one
        saved = saved_layers + (outside + terms(job.shape, _activation_key(job))["first"]) * job.tokens
    compute_copy = job.method == "full-mixed" and not (job.gpus > 1 and job.sharding == "zero3")
    return saved, 2 * param_count(job.shape)["total"] if compute_copy else 0.0, max(per_layer)


def peak_terms(job: Job) -> dict:
    """What is alive at the peak, the sum that is the peak: `moment` (PEAK_MOMENTS: the start of the backward
    pass, or its end), and `terms`, bytes by what they are (those above zero): the states alive all the time
    (weights, adapters, optimizer states, the collectives' buffers), then at the start of the backward pass
    every saved activation, autocast's bf16 copy of the weights, the loss's gradient of the logits, one layer
    rebuilt under checkpointing, and under accumulation the gradients of the earlier micro-batches; or at its
    end every gradient and one layer's activations. The parts (`parts`) are not these: the activations and the
    gradients are not all alive at once, which is why the parts add up to more than the peak."""
    st = states(job)
    saved, autocast, one_layer = _activations(job)
    resident = {"weights": st["weights"], "adapters": st["adapters"], "optimizer": st["optimizer"],
                "buffers": buffers(job)}
    start = {"activations": saved, "autocast": autocast, "loss_gradient": LOSS_GRADIENT_BYTES * job.shape.vocab * job.tokens,
             "rebuilt_layer": one_layer if job.checkpointing else 0.0,
             "gradients": st["gradients"] if job.grad_accum > 1 else 0.0}
    end = {"gradients": st["gradients"], "layer_activations": one_layer}
    moment, alive = ("backward_start", start) if sum(start.values()) >= sum(end.values()) else ("backward_end", end)
    return {"moment": moment, "terms": {k: v for k, v in (resident | alive).items() if v}}


def parts(job: Job) -> dict[str, float]:
    """Bytes by part on each GPU: weights, adapters, gradients, optimizer states (each its share under the
    sharding), activations (saved for the backward pass, with autocast's bf16 copy of the weights), the
    collectives' buffers, the peak PyTorch allocates during a step (the sum of peak_terms), and `after_step`."""
    st = states(job)
    saved, autocast, _ = _activations(job)
    return {"weights": st["weights"], "adapters": st["adapters"], "gradients": st["gradients"],
            "optimizer": st["optimizer"], "activations": saved + autocast, "buffers": buffers(job),
            "peak": sum(peak_terms(job)["terms"].values()),
            # what is allocated right after the optimizer's step, before gradients are cleared
            "after_step": st["after_step"]}
