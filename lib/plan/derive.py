"""How the planner's activation coefficients were derived: by counting, on small instances of each
architecture built by transformers with random weights, the bytes of every tensor the forward pass
keeps for the backward pass (torch.autograd.graph.saved_tensors_hooks), each storage once, the
parameters themselves left out. Then a least-squares fit of those bytes on the shape's sizes, per
token: per layer on the width (hidden), the queries' width (heads × head_dim), the keys' and values'
width (kv_heads × head_dim), the feed-forward width (× experts per token), the number of heads, and
for eager attention the heads × the sequence (its stored scores) and the keys' and values' width as
repeat_kv copies them; outside the layers on the width and on the vocabulary (logits and the loss); in
the first layer, what it keeps less than the others (FIRST). `python -m lib.plan.derive` writes
lib/data/plan/activations.toml with the versions it ran with.

Needs torch, transformers and peft (requirements-measure.txt), not the book's requirements: it runs on
the CPU in a minute and is not part of `make test`, which checks the committed coefficients.
"""

from __future__ import annotations

import datetime as dt
import itertools
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "data" / "plan" / "activations.toml"
FEATURES = ("one", "hidden", "q", "kv", "ffn", "heads", "experts", "heads_seq", "seq", "routed", "routed_hidden",
            "kv_repeated")
# per layer and token (one: a constant, such as a LoRA adapter's rank-wide intermediate at the rank the
# instances use, 8; ffn: the feed-forward width times the experts a token goes through; experts: the
# router's scores over every expert; routed and routed_hidden: a mixture of experts' copies of each token,
# one per expert it is routed to, as indices and sorting (routed) and as rows of the width (routed_hidden),
# which transformers' grouped experts keep for the backward pass; zero for a dense model; kv_repeated:
# the keys' and values' width as eager attention keeps them after `repeat_kv`, which copies them to the
# queries' width unless there is one key-value head (then a view, no copy): under eager attention, beside
# kv, which there holds only what is kept before repeat_kv (OLMo 2's k_norm; nothing for the others: an
# earlier fit without kv_repeated missed the dense models by 3 to 5 % with terms of the wrong sign). For GPT-2 (FUSED_WIDTHS) the queries', keys' and values' widths are the hidden width: q and
# kv are zero, the hidden coefficient holds them, and eager attention repeats nothing)
OUTSIDE = ("hidden", "head_dim", "vocab", "seq")  # per token, outside the layers (head_dim: the rotary
# tables, zero for GPT-2, which has none; seq: eager attention's causal mask)
FIRST = ("q", "kv")  # per token, in the first layer only, as a difference from every other layer, on the
# queries' width (q) and the keys' and values' (kv), where adapters are on q and v alone (lora-qv): there
# the first layer's keys need no gradient (its input is the frozen embeddings' output and k_proj is frozen
# and unadapted), so under eager attention its product q·kᵀ keeps no queries, which every later layer
# keeps (2 bytes each), and OLMo 2's k_norm keeps nothing of its input; negative coefficients, near zero
# where nothing differs (sdpa's kernels keep the queries whatever needs a gradient)
STEP = ("experts", "expert_weights", "expert_factors_hidden", "expert_factors_ffn")  # per layer and step,
# whatever the tokens (experts: the grouped products' offsets, one int32 per expert; where the experts are
# adapted only (ADAPTS_EXPERTS):
# expert_weights, experts × hidden × ffn: PEFT's ParamWrapper builds each adapted expert stack, weight plus
# B·A, for the forward pass, and the grouped product keeps it for the backward pass; expert_factors_*,
# experts × hidden and experts × ffn: the copies of A and B in the weights' type it builds them from, at
# the instances' rank, 8)
METHODS = {"full": None, "lora-qv": ["q_proj", "v_proj"], "lora-all": "all-linear"}
# GPT-2 computes queries, keys and values in one fused module, c_attn (a transformers Conv1D, which PEFT
# adapts like a linear layer and counts in "all-linear": peft/tuners/tuners_utils.py,
# _maybe_include_all_linear_layers, linear_classes = (torch.nn.Linear, Conv1D)); PEFT's default target for
# gpt2 is c_attn (peft/utils/constants.py, TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING). An adapter
# on q and v alone does not exist there: its attention-only method is lora-c_attn.
FUSED_METHODS = {"full": None, "lora-c_attn": ["c_attn"], "lora-all": "all-linear"}
# A mixture of experts' experts are parameters, not linear layers. For gpt-oss "all-linear" leaves them
# out, and PEFT adapts them only when `target_parameters` names them (lora-experts: all-linear and every
# layer's experts). For Mixtral, whose experts and router were linear layers in transformers 4, PEFT
# resolves "all-linear" to the attention's linears and, through target_parameters, the router and both
# expert stacks (peft/utils/transformers_weight_conversion.py, _MOE_TARGET_MODULE_MAPPING; the fused
# gate_up_proj, w1 and w3, at twice the rank): its lora-all adapts the experts already.
EXPERT_PARAMETERS = ["experts.gate_up_proj", "experts.down_proj"]
EXPERT_METHODS = {"gpt_oss": {**METHODS, "lora-experts": "all-linear"}, "gpt2": FUSED_METHODS}
ADAPTS_EXPERTS = {("gpt_oss", "lora-experts"), ("mixtral", "lora-all")}

# Small instances that separate the sizes: (hidden, heads, kv_heads, head_dim, ffn, vocab, layers, seq);
# head_dim is set apart from hidden / heads so that the queries' width is not the hidden width.
GRID = [
    (64, 4, 4, 16, 160, 300, 2, 32), (96, 4, 2, 32, 192, 256, 2, 48), (128, 8, 4, 8, 224, 512, 3, 32),
    (64, 4, 1, 24, 256, 400, 2, 64), (160, 8, 8, 16, 320, 300, 2, 40), (96, 6, 3, 8, 128, 700, 3, 24),
    (128, 4, 2, 40, 384, 350, 2, 56), (64, 8, 2, 12, 96, 600, 4, 32), (112, 2, 1, 64, 200, 320, 2, 44),
    (80, 5, 5, 16, 144, 450, 3, 36), (64, 4, 2, 16, 128, 256, 2, 96), (96, 3, 1, 32, 160, 300, 3, 80),
    (48, 6, 2, 8, 112, 500, 2, 72), (128, 2, 2, 48, 256, 280, 2, 20), (72, 6, 6, 12, 180, 380, 4, 28),
    (144, 4, 1, 36, 288, 330, 2, 60), (56, 7, 7, 8, 120, 260, 3, 88), (104, 8, 2, 16, 208, 420, 2, 52),
]


def _saved_bytes(model, ids, params) -> int:
    import torch

    seen: dict[int, int] = {}

    def pack(t):
        storage = t.untyped_storage()
        if storage.data_ptr() not in params:
            seen[storage.data_ptr()] = max(seen.get(storage.data_ptr(), 0), storage.nbytes())
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = model(input_ids=ids, labels=ids)
    out.loss.backward()
    return sum(seen.values())


# The architectures counted, by model_type, with the attention kinds each runs in transformers
# (gpt-oss: eager only, for its attention sinks; GptOssPreTrainedModel._supports_sdpa is False).
#
# A mixture of experts runs its experts the way transformers picks by default: `grouped_mm`
# (PreTrainedModel.get_correct_experts_implementation, transformers/integrations/moe.py:
# grouped_mm_experts_forward), on the CPU as on a CUDA GPU, both through torch.nn.functional.grouped_mm,
# whose backward formula is the same on either device. It copies each token once per expert it is
# routed to (tokens × experts_per_token rows, however unevenly the router spreads them), sorts them by
# expert and runs one grouped product per projection: what it keeps grows with those copies, not with
# how many tokens each expert receives. An earlier fit missed by 5 % because it had no feature for
# those copies (routed, routed_hidden) and so gave terms of the wrong sign.
MODEL_TYPES = {"llama": ("sdpa", "eager"), "mistral": ("sdpa", "eager"), "qwen2": ("sdpa", "eager"),
               "olmo2": ("sdpa", "eager"), "gpt2": ("sdpa", "eager"), "mixtral": ("sdpa", "eager"), "gpt_oss": ("eager",)}
MOE = ("mixtral", "gpt_oss")
# A mixture of experts' instances: (experts, experts per token), cycled over the grid.
ROUTING = [(4, 2), (8, 2), (4, 1), (6, 3), (8, 4)]
EXPERTS_IMPLEMENTATION = "grouped_mm"  # transformers' default; named so that a change of default shows
# GPT-2 (GPT2Config) names its sizes n_embd, n_head, n_layer, n_inner (the feed-forward width) and
# n_positions, and has no head_dim: it is n_embd / n_head, so every head has as many key-value heads and
# the queries', keys' and values' widths are the hidden width (FUSED_WIDTHS; its instances are GRID's with
# kv_heads = heads and head_dim = hidden / heads: gpt2_dims). Its MLP is GELU (gelu_new) on n_inner.
# Its dropouts are GPT2Config's defaults, 0.1 each, as gpt2.json (lib/data/models) sets them: the masks
# the embeddings', residual and attention dropouts keep (one byte an element) are counted. With sdpa the
# attention's dropout is left out of the instances (attn_pdrop 0): the CPU's fused kernel does not take a
# dropout and falls back to the unfused product, which keeps the heads × sequence scores, while CUDA's
# flash and memory-efficient kernels apply it inside the kernel and keep, besides what they keep without
# it, only the random generator's seed and offset.
FUSED_WIDTHS = ("gpt2",)


def measure(model_type: str, method: str, attention: str, dims, routing=(1, 1)) -> int:
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM

    hidden, heads, kv_heads, head_dim, ffn, vocab, layers, seq = dims
    extra = {}
    if model_type in MOE:
        extra = {"num_local_experts": routing[0], "num_experts_per_tok": routing[1],
                 "experts_implementation": EXPERTS_IMPLEMENTATION}
    if model_type in FUSED_WIDTHS:
        if (kv_heads, head_dim) != (heads, hidden // heads) or hidden % heads:
            raise ValueError(f"GPT-2's head_dim is hidden / heads, with a key-value head per head: not {dims}")
        if attention == "sdpa":
            extra = {"attn_pdrop": 0.0}
        config = AutoConfig.for_model(model_type, n_embd=hidden, n_head=heads, n_inner=ffn, vocab_size=vocab, n_layer=layers,
                                      n_positions=4 * seq, bos_token_id=0, eos_token_id=0, attn_implementation=attention,
                                      **extra)
    else:
        config = AutoConfig.for_model(model_type, hidden_size=hidden, num_attention_heads=heads, num_key_value_heads=kv_heads,
                                      head_dim=head_dim, intermediate_size=ffn, vocab_size=vocab, num_hidden_layers=layers,
                                      max_position_embeddings=4 * seq, attn_implementation=attention, **extra)
    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_config(config, dtype=torch.bfloat16)
    model.train()
    targets = EXPERT_METHODS.get(model_type, METHODS)[method]
    if targets is not None:
        from peft import LoraConfig, get_peft_model

        extra = {"target_parameters": EXPERT_PARAMETERS} if method == "lora-experts" else {}
        model = get_peft_model(model, LoraConfig(r=8, target_modules=targets, lora_dropout=0.0, **extra))
    params = {p.untyped_storage().data_ptr() for p in model.parameters()}
    ids = torch.randint(0, vocab, (1, seq))
    return _saved_bytes(model, ids, params)


def features(dims, attention: str, routing=(1, 1), adapts_experts: bool = False, fused: bool = False,
             frozen_first_keys: bool = False) -> list[float]:
    """The features of an instance (FEATURES, OUTSIDE, FIRST, STEP, in order); `fused`: GPT-2's widths
    (FUSED_WIDTHS); `frozen_first_keys`: the first layer's keys need no gradient (FIRST)."""
    hidden, heads, kv_heads, head_dim, ffn, vocab, layers, seq = dims
    experts, per_token = routing
    moe = experts > 1
    repeated = attention == "eager" and not fused
    per_layer = [1, hidden, 0 if fused else heads * head_dim, 0 if fused else kv_heads * head_dim,
                 ffn * per_token, heads, experts if moe else 0, heads * seq if attention == "eager" else 0,
                 seq if attention == "eager" else 0, per_token if moe else 0, per_token * hidden if moe else 0,
                 kv_repeated_width(heads, kv_heads, head_dim) if repeated else 0]
    return ([layers * seq * f for f in per_layer]
            + [seq * hidden, 0 if fused else seq * head_dim, seq * vocab, seq * seq if attention == "eager" else 0]
            + [seq * f if frozen_first_keys else 0 for f in (heads * head_dim, kv_heads * head_dim)]
            + [layers * experts if moe else 0]
            + [layers * experts * f if adapts_experts else 0 for f in (hidden * ffn, hidden, ffn)])


def kv_repeated_width(heads: int, kv_heads: int, head_dim: int) -> int:
    """The width of the keys and values eager attention keeps: `repeat_kv` copies them to every query
    head, except with one key-value head, where its expand-and-reshape is a view of the original."""
    return (heads if kv_heads > 1 else kv_heads) * head_dim


def aligned(dims):
    """The same instance with its widths rounded up to multiples of 8 (grouped matrix products need
    rows of 16 bytes)."""
    hidden, heads, kv_heads, head_dim, ffn, vocab, layers, seq = dims
    up = lambda n: -(-n // 8) * 8  # noqa: E731
    return (up(hidden), heads, kv_heads, up(head_dim), up(ffn), vocab, layers, seq)


def gpt2_dims(dims):
    """GRID's instance as GPT-2 builds one: a key-value head per head, head_dim hidden / heads (GRID's
    hidden widths are multiples of its heads)."""
    hidden, heads, kv_heads, head_dim, ffn, vocab, layers, seq = dims
    return (hidden, heads, heads, hidden // heads, ffn, vocab, layers, seq)


def fit(model_type: str, method: str, attention: str) -> dict[str, float]:
    import numpy as np

    if model_type in FUSED_WIDTHS:
        grid, routings = [gpt2_dims(d) for d in GRID], [(1, 1)] * len(GRID)
    elif model_type in MOE:  # the grid twice, with two cycles of routings: more rows for the extra features
        grid = [aligned(d) for d in GRID] * 2
        routings = [ROUTING[k % len(ROUTING)] for k in range(len(GRID))] + [ROUTING[(k + 2) % len(ROUTING)] for k in range(len(GRID))]
    else:
        grid, routings = GRID, [(1, 1)] * len(GRID)
    frozen_first_keys = method == "lora-qv"
    rows = [features(d, attention, r, (model_type, method) in ADAPTS_EXPERTS, model_type in FUSED_WIDTHS, frozen_first_keys)
            for d, r in zip(grid, routings)]
    ys = [measure(model_type, method, attention, d, r) for d, r in zip(grid, routings)]
    names = ([f"layer.{f}" for f in FEATURES] + [f"outside.{f}" for f in OUTSIDE] + [f"first.{f}" for f in FIRST]
             + [f"step.{f}" for f in STEP])
    a = np.array(rows, dtype=float)
    keep = [k for k in range(len(names)) if a[:, k].any()]  # the sizes this architecture and attention have
    a = a[:, keep]
    coef, *_ = np.linalg.lstsq(a, np.array(ys, dtype=float), rcond=None)
    predicted = a @ coef
    worst = max(abs(p - y) / y for p, y in zip(predicted, ys))
    found = {names[k]: round(float(c), 2) for k, c in zip(keep, coef)}
    found["fit_worst_residual"] = round(float(worst), 4)
    return found


def _sections(text: str) -> tuple[str, dict[str, list[str]]]:
    """A written file's header, and its sections (blocks between blank lines) by model_type, in order."""
    header, *blocks = text.rstrip("\n").split("\n\n")
    sections: dict[str, list[str]] = {}
    for block in blocks:
        table = next(line for line in block.split("\n") if line.startswith("["))
        sections.setdefault(table[1:].split(".")[0], []).append(block)
    return header, sections


def main(argv: list[str] | None = None) -> int:
    """Derive every model type, or only those named (`python -m lib.plan.derive gpt_oss mixtral`): then
    their sections are replaced in the written file, with a line saying when and with what, and every
    other section is kept byte for byte."""
    import peft
    import torch
    import transformers

    only = sys.argv[1:] if argv is None else argv
    unknown = [m for m in only if m not in MODEL_TYPES]
    if unknown:
        print(f"unknown model types {unknown}; known: {', '.join(MODEL_TYPES)}", file=sys.stderr)
        return 2
    versions = (f"on {dt.date.today().isoformat()} (torch {torch.__version__}, transformers {transformers.__version__}, "
                f"peft {peft.__version__})")
    if only and OUT.is_file():
        header, sections = _sections(OUT.read_text(encoding="utf8"))
    else:
        header = "\n".join([f"# Written by `python -m lib.plan.derive` {versions}: bytes the forward pass keeps for",
                            "# the backward pass, per token, bf16 weights and compute, batch 1; `layer_*` per layer,",
                            "# `outside_*` outside the layers, `first_*` in the first layer only (a difference from the others),",
                            "# `step_*` per layer and step. See lib/plan/derive.py.",
                            "# Dropout: GPT-2 with its configuration's (its masks counted; with sdpa, the attention's left out), every",
                            "# other architecture with none, as its configuration sets it, and LoRA's dropout off (lora_dropout 0). A LoRA",
                            "# dropout (QLoRA's recipes set one) makes each adapted layer keep a dropped copy of its input and a",
                            "# one-byte mask an element besides, not counted here (PEFT applies it to the input before the adapter)."])
        sections = {}
    for model_type in only or MODEL_TYPES:
        blocks = []
        for method, attention in itertools.product(EXPERT_METHODS.get(model_type, METHODS), MODEL_TYPES[model_type]):
            found = fit(model_type, method, attention)
            lines = [f"[{model_type}.{method}.{attention}]"] + [f"{k.replace('.', '_')} = {v}" for k, v in found.items()]
            if only and not blocks:
                lines.insert(0, f"# {model_type}: written by `python -m lib.plan.derive {model_type}` {versions}.")
            blocks.append("\n".join(lines))
            print(model_type, method, attention, found, file=sys.stderr)
        sections[model_type] = blocks
    body = "\n\n".join(block for blocks in sections.values() for block in blocks)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(header + "\n\n" + body + "\n", encoding="utf8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
