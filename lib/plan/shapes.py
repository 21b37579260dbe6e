"""A model's shape from its Hugging Face `config.json`, and what that shape holds.

`load_config` reads a shipped config (lib/data/models/<name>.json, sources in SOURCES.toml there) or
any config.json; `shape` turns it into a `Shape`; `param_count` counts the parameters the
transformers modeling code creates for that shape; `linear_modules` lists the linear layers a LoRA
adapter can be put on, by the names PEFT targets them with; `expert_parameters` a mixture of experts'
fused expert stacks, which PEFT adapts through `target_parameters`; `all_linear_parameters` what
PEFT's "all-linear" adapts through them.

The counts follow the modules of transformers' modeling files (modeling_llama.py, modeling_mistral.py,
modeling_qwen2.py, modeling_olmo2.py, modeling_gpt2.py, modeling_mixtral.py, modeling_gpt_oss.py):
every weight and bias of the embeddings, attention, feed-forward or experts, router, norms and the
output layer (`lm_head`, counted once when tied to the embeddings), and gpt-oss's attention sinks.
Rotary embeddings have no parameters (their inverse frequencies are a buffer) and are not counted.
"""

from __future__ import annotations

import dataclasses
import json
from functools import lru_cache
from pathlib import Path

from lib.plan.errors import PlanError

MODELS_DIR = Path(__file__).resolve().parents[1] / "data" / "models"
SHIPPED: tuple[str, ...] = tuple(sorted(p.stem for p in MODELS_DIR.glob("*.json")))

# model_type -> (arch, the architectures[0] transformers builds for it)
ARCHITECTURES = {
    "llama": ("llama", "LlamaForCausalLM"),
    "mistral": ("llama", "MistralForCausalLM"),
    "qwen2": ("llama", "Qwen2ForCausalLM"),
    "olmo2": ("llama", "Olmo2ForCausalLM"),
    "gpt2": ("gpt2", "GPT2LMHeadModel"),
    "mixtral": ("moe", "MixtralForCausalLM"),
    "gpt_oss": ("moe", "GptOssForCausalLM"),
}


@dataclasses.dataclass(frozen=True)
class Shape:
    """What a parameter count and a memory model need of a decoder-only transformer.

    `intermediate` is the feed-forward width (per expert for a mixture of experts); `experts` and
    `experts_per_token` are 1 for a dense model. The booleans say which optional parameters the
    modeling code creates: biases on q/k/v (`qkv_bias`), on the attention output (`o_bias`), on the
    feed-forward or expert projections (`mlp_bias`), on the router (`router_bias`); per-head RMSNorms
    on queries and keys (`qk_norm`, OLMo 2); one learned sink logit per attention head
    (`attention_sinks`, gpt-oss); a learned position table (`learned_positions`, GPT-2).
    """

    model_type: str
    arch: str  # "llama" (dense, RMSNorm, SwiGLU, rotary), "gpt2", or "moe"
    vocab: int
    hidden: int
    layers: int
    heads: int
    kv_heads: int
    head_dim: int
    intermediate: int
    experts: int
    experts_per_token: int
    tied_embeddings: bool
    max_positions: int
    qkv_bias: bool
    o_bias: bool
    mlp_bias: bool
    router_bias: bool
    qk_norm: bool
    attention_sinks: bool
    learned_positions: bool
    mlp: str  # "swiglu" or "gelu"
    norm: str  # "rmsnorm" or "layernorm"


def load_config(name_or_path: str) -> dict:
    """A shipped model's config by name (one of SHIPPED), or the config.json at a path."""
    if name_or_path in SHIPPED:  # read once: the planner asks for it at every job it times
        return dict(_shipped_config(name_or_path))
    return _read_config(Path(name_or_path))


@lru_cache(maxsize=None)
def _shipped_config(name: str) -> dict:
    return _read_config(MODELS_DIR / f"{name}.json")


def _read_config(path: Path) -> dict:
    if not path.is_file():
        raise PlanError("unknown_model", name=str(path), shipped=", ".join(SHIPPED))
    try:
        config = json.loads(path.read_text(encoding="utf8"))
    except json.JSONDecodeError as error:
        raise PlanError("not_json", path=path, error=error) from None
    if not isinstance(config, dict):
        raise PlanError("not_object", path=path)
    return config


def _field(config: dict, *names: str) -> int:
    """The first of `names` present in the config, as a positive int."""
    for name in names:
        if config.get(name) is not None:
            value = config[name]
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise PlanError("bad_field", field=repr(name), value=repr(value))
            return value
    raise PlanError("missing_field", field=" or ".join(repr(n) for n in names))


def _model_type(config: dict) -> str:
    model_type = config.get("model_type")
    if model_type in ARCHITECTURES:
        return model_type
    by_class = {cls: kind for kind, (_, cls) in ARCHITECTURES.items()}
    for cls in config.get("architectures") or ():
        if cls in by_class:
            return by_class[cls]
    raise PlanError("unknown_arch", model_type=repr(model_type), architectures=repr(config.get("architectures")),
                    known=", ".join(sorted(ARCHITECTURES)))


def shape(config: dict) -> Shape:
    """The Shape of a config, with transformers' defaults where a config leaves a field out (a
    missing `num_key_value_heads` means one per head, a missing `head_dim` means hidden / heads; LLaMA 1
    conversions give `max_sequence_length` instead of `max_position_embeddings`). Raises ValueError
    naming the field when one the count needs is missing, or the architecture when it is unknown."""
    model_type = _model_type(config)
    arch = ARCHITECTURES[model_type][0]
    if arch == "gpt2":
        hidden, heads = _field(config, "n_embd"), _field(config, "n_head")
        return Shape(model_type, arch, vocab=_field(config, "vocab_size"), hidden=hidden,
                     layers=_field(config, "n_layer"), heads=heads, kv_heads=heads, head_dim=hidden // heads,
                     intermediate=config.get("n_inner") or 4 * hidden, experts=1, experts_per_token=1,
                     tied_embeddings=config.get("tie_word_embeddings", True),
                     max_positions=_field(config, "n_positions"), qkv_bias=True, o_bias=True, mlp_bias=True,
                     router_bias=False, qk_norm=False, attention_sinks=False, learned_positions=True,
                     mlp="gelu", norm="layernorm")
    hidden, heads = _field(config, "hidden_size"), _field(config, "num_attention_heads")
    if model_type in ("mixtral", "gpt_oss"):
        experts = _field(config, "num_local_experts")
        per_token = _field(config, "num_experts_per_tok", "experts_per_token")
    else:
        experts = per_token = 1
    attention_bias = bool(config.get("attention_bias", False))
    return Shape(
        model_type, arch, vocab=_field(config, "vocab_size"), hidden=hidden,
        layers=_field(config, "num_hidden_layers"), heads=heads,
        kv_heads=_field(config, "num_key_value_heads") if config.get("num_key_value_heads") else heads,
        head_dim=_field(config, "head_dim") if config.get("head_dim") else hidden // heads,
        intermediate=_field(config, "intermediate_size"), experts=experts, experts_per_token=per_token,
        tied_embeddings=bool(config.get("tie_word_embeddings", False)),
        max_positions=_field(config, "max_position_embeddings", "max_sequence_length"),
        qkv_bias=model_type == "qwen2" or attention_bias, o_bias=attention_bias,
        mlp_bias=model_type == "gpt_oss" or bool(config.get("mlp_bias", False)),
        router_bias=model_type == "gpt_oss", qk_norm=model_type == "olmo2",
        attention_sinks=model_type == "gpt_oss", learned_positions=False, mlp="swiglu", norm="rmsnorm")


def _parts(s: Shape) -> dict[str, int]:
    """The parameters of each part of the model: whole-model parts, and per layer times `layers`.
    `experts` is all experts of all layers; `expert` one expert of one layer."""
    q, kv = s.heads * s.head_dim, s.kv_heads * s.head_dim
    attention = s.hidden * (q + 2 * kv) + q * s.hidden
    attention += (q + 2 * kv) * s.qkv_bias + s.hidden * s.o_bias
    attention += (q + kv) * s.qk_norm + s.heads * s.attention_sinks
    if s.mlp == "gelu":  # GPT-2: c_fc (h -> 4h) and c_proj (4h -> h), both with biases
        expert = 2 * s.hidden * s.intermediate + (s.intermediate + s.hidden) * s.mlp_bias
    else:  # SwiGLU: gate and up (h -> i), down (i -> h)
        expert = 3 * s.hidden * s.intermediate + (2 * s.intermediate + s.hidden) * s.mlp_bias
    norm = s.hidden * (2 if s.norm == "layernorm" else 1)  # LayerNorm has a weight and a bias
    router = (s.hidden * s.experts + s.experts * s.router_bias) if s.experts > 1 else 0
    return {
        "embeddings": s.vocab * s.hidden + (s.max_positions * s.hidden if s.learned_positions else 0),
        "lm_head": 0 if s.tied_embeddings else s.vocab * s.hidden,
        "attention": s.layers * attention,
        "experts": s.layers * s.experts * expert,
        "expert": expert,
        "router": s.layers * router,
        "norms": s.layers * 2 * norm + norm,  # two per layer (OLMo 2's are after the blocks), and the final one
    }


def param_count(s: Shape) -> dict[str, int]:
    """Parameters of the model: `total` (every parameter the modeling code creates, the embedding
    table and an untied lm_head included); `active` (those one token goes through: all but the
    experts it is not routed to; equal to `total` for a dense model); `active_excluding_embeddings`
    (`active` without the input embedding table, which a token only reads one row of: how OpenAI
    counts gpt-oss's active parameters); `embeddings` (the input table, and GPT-2's position table);
    `multiplied` (the active parameters a token is multiplied by, the FLOPs' N: all but the embedding
    tables, which are looked up, except where the output layer shares the input table)."""
    parts = _parts(s)
    shared = parts["embeddings"] + parts["lm_head"] + parts["attention"] + parts["router"] + parts["norms"]
    active = shared + s.layers * s.experts_per_token * parts["expert"]
    # A tied output layer multiplies by the embedding table: only an untied one leaves the table a lookup.
    multiplied = active - parts["embeddings"] + (s.vocab * s.hidden if s.tied_embeddings else 0)
    return {"total": shared + parts["experts"], "active": active,
            "active_excluding_embeddings": active - parts["embeddings"], "embeddings": parts["embeddings"],
            "multiplied": multiplied}


def linear_modules(s: Shape) -> dict[str, tuple[int, int]]:
    """The linear layers (`nn.Linear`) a LoRA adapter can be put on, by the name PEFT targets (the last
    part of the module's name), with (in_features, out_features); one entry per name, present in every
    layer: what PEFT's `target_modules="all-linear"` adapts (it leaves out the output layer) and what
    bitsandbytes quantises (transformers' replace_with_bnb_linear swaps only `nn.Linear` and GPT-2's
    `Conv1D`). GPT-2's two `c_proj` are told apart as `attn.c_proj` and `mlp.c_proj`. A mixture of
    experts in transformers 5 (gpt-oss, Mixtral) keeps its experts as fused 3-D parameters, not linear
    layers, and its router as a parameter too: its linear layers are the attention's only; its experts
    are `expert_parameters`."""
    q, kv = s.heads * s.head_dim, s.kv_heads * s.head_dim
    if s.arch == "gpt2":
        return {"c_attn": (s.hidden, 3 * s.hidden), "attn.c_proj": (s.hidden, s.hidden),
                "c_fc": (s.hidden, s.intermediate), "mlp.c_proj": (s.intermediate, s.hidden)}
    modules = {"q_proj": (s.hidden, q), "k_proj": (s.hidden, kv), "v_proj": (s.hidden, kv), "o_proj": (q, s.hidden)}
    if s.experts == 1:
        modules |= {"gate_proj": (s.hidden, s.intermediate), "up_proj": (s.hidden, s.intermediate),
                    "down_proj": (s.intermediate, s.hidden)}
    return modules


def expert_parameters(s: Shape) -> dict[str, tuple[int, int]]:
    """A mixture of experts' fused expert parameters, by the name PEFT's `target_parameters` matches
    (`mlp.experts.gate_up_proj` in transformers 5's gpt-oss and Mixtral), with one expert's (in, out):
    each holds `experts` such matrices per layer; empty for a dense model. PEFT adapts one with
    rank × experts × (in + out) parameters (peft/tuners/lora/layer.py, ParamWrapper.update_layer)."""
    if s.experts == 1:
        return {}
    return {"experts.gate_up_proj": (s.hidden, 2 * s.intermediate), "experts.down_proj": (s.intermediate, s.hidden)}


def all_linear_parameters(s: Shape) -> dict[str, tuple[int, int, int, int]]:
    """What PEFT's "all-linear" adapts besides `linear_modules`, through target_parameters: for Mixtral,
    whose router and experts were linear layers (w1, w3, w2) in transformers 4, PEFT 0.21 maps those
    names onto transformers 5's parameters (peft/utils/transformers_weight_conversion.py,
    _MOE_TARGET_MODULE_MAPPING and _MOE_FUSED_TARGETS): the router `gate.weight` and both expert stacks,
    the fused gate_up_proj (w1 and w3) at twice the rank. By name: (in, out, stacks, rank multiple);
    PEFT adds rank × multiple × stacks × (in + out) parameters for each. Nothing for other models
    (gpt-oss's experts were never linear layers: "all-linear" adapts its attention only)."""
    if s.model_type != "mixtral":
        return {}
    return {"gate.weight": (s.hidden, s.experts, 1, 1), "experts.gate_up_proj": (s.hidden, 2 * s.intermediate, s.experts, 2),
            "experts.down_proj": (s.intermediate, s.hidden, s.experts, 1)}
