"""What the harness measures: each model × method × gradient checkpointing × sequence, at batch 1,
and the combinations it skips, each with its reason.

Methods (as the planner names them, issue 29):
- full-mixed: fp32 master weights, the forward and backward passes under bf16 autocast, AdamW's two
  states in fp32: ZeRO's 16 bytes per parameter (4 weights + 4 gradients + 8 Adam);
- full-bf16: weights, gradients and AdamW's states all bf16 (PyTorch's AdamW keeps its states in the
  parameters' type): 8 bytes per parameter;
- lora: the model's weights frozen in bf16, rank-16 adapters (alpha 32, no dropout) on the query and
  value projections, or on every linear layer but the output layer (PEFT's "all-linear"); PEFT casts
  the adapters to fp32 (autocast_adapter_dtype), so the adapters, their gradients and AdamW's states
  are fp32; the passes under bf16 autocast, as transformers' Trainer runs with bf16=True;
- qlora: the same adapters on weights loaded in NF4 with double quantisation and bf16 compute
  (transformers' BitsAndBytesConfig), after PEFT's prepare_model_for_kbit_training (which casts the
  parameters left unquantised, embeddings, output layer and norms, to fp32).

Every configuration runs AdamW with fused=True and a causal language-model loss over the whole
vocabulary on random token ids of shape (batch, seq).
"""
from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass

METHODS = ("full-mixed", "full-bf16", "lora", "qlora")
ADAPTER_METHODS = ("lora", "qlora")
ATTENTIONS = ("sdpa", "eager")
SEQUENCES = (1024, 4096)
BATCH = 1
RANK = 16
LORA_ALPHA = 32
LORA_DROPOUT = 0.0
OPTIMIZER = "adamw-fused"
ALL_LINEAR = "all-linear"
# The weights' type each method holds the model in, and the autocast its passes run under.
DTYPE = {"full-mixed": "float32", "full-bf16": "bfloat16", "lora": "bfloat16", "qlora": "nf4"}
AUTOCAST = {"full-mixed": "bfloat16", "full-bf16": None, "lora": "bfloat16", "qlora": "bfloat16"}
# Model states per parameter before any activation (weights + gradients + AdamW's two states), for
# the methods that train every parameter.
STATE_BYTES_PER_PARAMETER = {"full-mixed": 4 + 4 + 8, "full-bf16": 2 + 2 + 4}
# An H200's memory as NVIDIA states it (141 GB); torch sees 143,771 MiB (150.8e9 bytes) of it.
H200_BYTES = 141e9


@dataclass(frozen=True)
class Model:
    """A model the harness measures, as the planner ships its config (lib/data/models/<name>.json)."""
    name: str
    parameters: float  # total, from the source below (memory counts every expert of a mixture)
    source: str
    query_value: str  # the modules the "query and value" adapters go on, in transformers' names
    attentions: tuple[str, ...]  # the attention kernels measured
    positions: int | None = None  # learned position embeddings: no sequence beyond them


MODELS = {
    model.name: model for model in (
        Model("llama-7b", 6_738_415_616, "LLaMA (Touvron et al. 2023), 7B: 32 layers, d 4,096; the count "
              "of its checkpoint's parameters", "q_proj,v_proj", ("sdpa", "eager")),
        Model("llama-3.1-8b", 8_030_261_248, "Llama 3.1 8B model card (8B); the count of its checkpoint's "
              "parameters", "q_proj,v_proj", ("sdpa",)),
        # transformers runs gpt-oss with eager attention (its attention sinks): eager is what it measures.
        Model("gpt-oss-20b", 20.9e9, "gpt-oss-120b & gpt-oss-20b model card (OpenAI 2025): 20.9B total "
              "parameters, 3.6B active per token", "q_proj,v_proj", ("eager",)),
        # GPT-2 124M, for a try on the CPU; its attention's query and value are one fused module.
        Model("gpt2", 124_439_808, "GPT-2 (Radford et al. 2019), 124M: transformers' GPT2Config() "
              "defaults", "c_attn", ("sdpa",), positions=1024),
    )
}
# The models of the GPU run asked for in issue 29; gpt2 is for the CPU try.
GPU_MODELS = ("llama-7b", "llama-3.1-8b", "gpt-oss-20b")
# Eager attention is measured on LLaMA 7B's cheapest method only: the a·s² scores it keeps for the
# backward pass are what eager adds, whatever the method.
EAGER_ONLY_FOR = {"llama-7b": ("lora", "q_proj,v_proj")}


@dataclass(frozen=True)
class Configuration:
    """One training job to measure. `rank`, `targets`, `lora_alpha` and `lora_dropout` are the
    adapters' (None for full fine-tuning)."""
    model: str
    method: str
    seq: int
    checkpointing: bool
    attention: str
    batch: int = BATCH
    rank: int | None = None
    targets: str | None = None
    lora_alpha: int | None = None
    lora_dropout: float | None = None

    def __post_init__(self):
        problems = []
        if not isinstance(self.model, str) or not self.model:
            problems.append(f"model must be a name, got {self.model!r}")
        if self.method not in METHODS:
            problems.append(f"method must be one of {', '.join(METHODS)}, got {self.method!r}")
        if self.attention not in ATTENTIONS:
            problems.append(f"attention must be one of {', '.join(ATTENTIONS)}, got {self.attention!r}")
        for field in ("seq", "batch"):
            value = getattr(self, field)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                problems.append(f"{field} must be a whole number of at least 1, got {value!r}")
        if not isinstance(self.checkpointing, bool):
            problems.append(f"checkpointing must be true or false, got {self.checkpointing!r}")
        adapters = (self.rank, self.targets, self.lora_alpha, self.lora_dropout)
        if self.method in ADAPTER_METHODS:
            if isinstance(self.rank, bool) or not isinstance(self.rank, int) or self.rank < 1:
                problems.append(f"{self.method} needs a rank of at least 1, got {self.rank!r}")
            if not isinstance(self.targets, str) or not self.targets.strip(","):
                problems.append(f"{self.method} needs target modules, got {self.targets!r}")
            if isinstance(self.lora_alpha, bool) or not isinstance(self.lora_alpha, int) or self.lora_alpha < 1:
                problems.append(f"{self.method} needs lora_alpha of at least 1, got {self.lora_alpha!r}")
            if (isinstance(self.lora_dropout, bool) or not isinstance(self.lora_dropout, (int, float))
                    or not 0 <= self.lora_dropout < 1):
                problems.append(f"{self.method} needs lora_dropout in [0, 1), got {self.lora_dropout!r}")
        elif any(value is not None for value in adapters):
            problems.append(f"{self.method} trains no adapters: rank, targets, lora_alpha and lora_dropout "
                            f"must be null, got {adapters!r}")
        if problems:
            raise ValueError("; ".join(problems))

    @property
    def dtype(self) -> str:
        """The type the model's weights are held in: float32, bfloat16 or nf4."""
        return DTYPE[self.method]

    @property
    def autocast(self) -> str | None:
        """The autocast type of the forward and backward passes, or None."""
        return AUTOCAST[self.method]

    @property
    def optimizer(self) -> str:
        return OPTIMIZER

    @property
    def name(self) -> str:
        """A unique name, e.g. llama-7b/lora-r16-q_proj,v_proj/seq1024/batch1/checkpointing/sdpa."""
        method = self.method if self.rank is None else f"{self.method}-r{self.rank}-{self.targets}"
        checkpointing = "checkpointing" if self.checkpointing else "no-checkpointing"
        return f"{self.model}/{method}/seq{self.seq}/batch{self.batch}/{checkpointing}/{self.attention}"

    def as_dict(self) -> dict:
        """The configuration as the results record it: its fields and the derived ones."""
        return {"name": self.name, **dataclasses.asdict(self), "dtype": self.dtype, "autocast": self.autocast,
                "optimizer": self.optimizer}

    @classmethod
    def from_dict(cls, fields: dict) -> Configuration:
        """The configuration a record's `configuration` holds (its derived fields are left out)."""
        names = [field.name for field in dataclasses.fields(cls)]
        missing = [name for name in names if name not in fields]
        if missing:
            raise ValueError(f"configuration lacks {', '.join(missing)}")
        return cls(**{name: fields[name] for name in names})


def _known(models) -> tuple[str, ...]:
    if models is None:
        return tuple(MODELS)
    if isinstance(models, str):
        models = [models]
    unknown = [name for name in models if name not in MODELS]
    if unknown:
        raise ValueError(f"unknown model {', '.join(map(repr, unknown))}: the harness knows {', '.join(MODELS)}")
    return tuple(dict.fromkeys(models))


def combinations(models=None) -> list[Configuration]:
    """Every combination the harness considers: for each model, each method (the adapters' on the
    query and value projections and on all linear layers), with and without checkpointing, at each
    sequence, at batch 1, for each attention the model is measured with."""
    found = []
    for name in _known(models):
        model = MODELS[name]
        for attention, method in itertools.product(model.attentions, METHODS):
            targets = (model.query_value, ALL_LINEAR) if method in ADAPTER_METHODS else (None,)
            for target in targets:
                if attention == "eager" and len(model.attentions) > 1 and (
                        (method, target) != EAGER_ONLY_FOR.get(name)):
                    continue
                adapters = (dict(rank=RANK, targets=target, lora_alpha=LORA_ALPHA, lora_dropout=LORA_DROPOUT)
                            if target else {})
                for seq, checkpointing in itertools.product(SEQUENCES, (True, False)):
                    found.append(Configuration(name, method, seq, checkpointing, attention, **adapters))
    return found


def skip_reason(configuration: Configuration) -> str | None:
    """Why a combination is not measured, or None. Only two reasons: the model's learned positions end
    before the sequence, or its model states alone (before any activation) exceed an H200's memory."""
    model = MODELS[configuration.model]
    if model.positions is not None and configuration.seq > model.positions:
        return (f"{model.name} has {model.positions:,} learned positions: no sequence of "
                f"{configuration.seq:,} tokens")
    per_parameter = STATE_BYTES_PER_PARAMETER.get(configuration.method)
    if per_parameter is not None and per_parameter * model.parameters > H200_BYTES:
        return (f"{configuration.method} holds {per_parameter} bytes per parameter before any activation: "
                f"{per_parameter} × {model.parameters / 1e9:.1f}e9 = {per_parameter * model.parameters / 1e9:.0f} GB, "
                f"more than an H200's {H200_BYTES / 1e9:.0f} GB (or the 150.8 GB torch sees)")
    return None


def configurations(models=None) -> list[Configuration]:
    """The configurations to measure, in the order the harness runs them: model by model, the model
    built once per method, targets and attention; within that, the shorter sequence first and
    checkpointing before none (the smaller jobs first)."""
    return [c for c in combinations(models) if skip_reason(c) is None]


def skipped(models=None) -> list[tuple[Configuration, str]]:
    """The combinations not measured, each with its reason."""
    return [(c, reason) for c in combinations(models) if (reason := skip_reason(c)) is not None]


def group_key(configuration: Configuration) -> tuple:
    """The configurations that share one built model: same model, method, adapters and attention."""
    return (configuration.model, configuration.method, configuration.rank, configuration.targets,
            configuration.lora_alpha, configuration.lora_dropout, configuration.attention)


def with_sequence(configurations_: list[Configuration], seqs) -> list[Configuration]:
    """The same configurations at other sequence lengths (a short try on the CPU, say), without
    duplicates, in the same order."""
    changed = [dataclasses.replace(c, seq=seq) for c in configurations_ for seq in seqs]
    return list(dict.fromkeys(changed))
