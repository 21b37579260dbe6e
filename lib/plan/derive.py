"""How the planner's activation coefficients were derived: by counting, on small instances of each
architecture built by transformers with random weights, the bytes of every tensor the forward pass
keeps for the backward pass (torch.autograd.graph.saved_tensors_hooks), each storage once, the
parameters themselves left out. Then a least-squares fit of those bytes on the shape's sizes, per
token: per layer on the width (hidden), the queries' width (heads × head_dim), the keys' and values'
width (kv_heads × head_dim), the feed-forward width (× experts per token), the number of heads, and
for eager attention the heads × the sequence (its stored scores); outside the layers on the width and
on the vocabulary (logits and the loss). `python -m lib.plan.derive` writes
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
FEATURES = ("one", "hidden", "q", "kv", "ffn", "heads", "experts", "heads_seq", "seq")  # per layer and token (one: a constant,
# such as a LoRA adapter's rank-wide intermediate at the rank the instances use, 8; ffn: the feed-forward
# width times the experts a token goes through; experts: the router's scores)
OUTSIDE = ("hidden", "head_dim", "vocab", "seq")  # per token, outside the layers (head_dim: the rotary
# tables; seq: eager attention's causal mask)
METHODS = {"full": None, "lora-qv": ["q_proj", "v_proj"], "lora-all": "all-linear"}

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


# The architectures counted, by model_type, with the attention kinds each runs. gpt-oss (eager only in
# transformers) is left out of main(): on its small instances the fit misses by 5 % and gives terms of
# the wrong sign (its routing sends a different number of tokens to each expert), so its coefficients
# would not extrapolate to real sizes; `fit("gpt_oss", "full", "eager")` shows it.
MODEL_TYPES = {"llama": ("sdpa", "eager"), "mistral": ("sdpa", "eager"), "qwen2": ("sdpa", "eager"),
               "olmo2": ("sdpa", "eager")}
# A mixture of experts' instances: (experts, experts per token), cycled over the grid.
ROUTING = [(4, 2), (8, 2), (4, 1), (6, 3), (8, 4)]


def measure(model_type: str, method: str, attention: str, dims, routing=(1, 1)) -> int:
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM

    hidden, heads, kv_heads, head_dim, ffn, vocab, layers, seq = dims
    extra = {}
    if model_type == "gpt_oss":
        extra = {"num_local_experts": routing[0], "num_experts_per_tok": routing[1]}
    config = AutoConfig.for_model(model_type, hidden_size=hidden, num_attention_heads=heads, num_key_value_heads=kv_heads,
                                  head_dim=head_dim, intermediate_size=ffn, vocab_size=vocab, num_hidden_layers=layers,
                                  max_position_embeddings=4 * seq, attn_implementation=attention, **extra)
    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_config(config, dtype=torch.bfloat16)
    model.train()
    if METHODS[method] is not None:
        from peft import LoraConfig, get_peft_model

        model = get_peft_model(model, LoraConfig(r=8, target_modules=METHODS[method], lora_dropout=0.0))
    params = {p.untyped_storage().data_ptr() for p in model.parameters()}
    ids = torch.randint(0, vocab, (1, seq))
    return _saved_bytes(model, ids, params)


def features(dims, attention: str, routing=(1, 1)) -> list[float]:
    hidden, heads, kv_heads, head_dim, ffn, vocab, layers, seq = dims
    experts, per_token = routing
    per_layer = [1, hidden, heads * head_dim, kv_heads * head_dim, ffn * per_token, heads,
                 experts if experts > 1 else 0, heads * seq if attention == "eager" else 0,
                 seq if attention == "eager" else 0]
    return [layers * seq * f for f in per_layer] + [seq * hidden, seq * head_dim, seq * vocab, seq * seq if attention == "eager" else 0]


def aligned(dims):
    """The same instance with its widths rounded up to multiples of 8 (gpt-oss's grouped matrix
    products on the CPU need rows of 16 bytes)."""
    hidden, heads, kv_heads, head_dim, ffn, vocab, layers, seq = dims
    up = lambda n: -(-n // 8) * 8  # noqa: E731
    return (up(hidden), heads, kv_heads, up(head_dim), up(ffn), vocab, layers, seq)


def fit(model_type: str, method: str, attention: str) -> dict[str, float]:
    import numpy as np

    grid = [aligned(d) for d in GRID] if model_type == "gpt_oss" else GRID
    routings = [ROUTING[k % len(ROUTING)] if model_type == "gpt_oss" else (1, 1) for k in range(len(grid))]
    rows = [features(d, attention, r) for d, r in zip(grid, routings)]
    ys = [measure(model_type, method, attention, d, r) for d, r in zip(grid, routings)]
    names = [f"layer.{f}" for f in FEATURES] + [f"outside.{f}" for f in OUTSIDE]
    a = np.array(rows, dtype=float)
    keep = [k for k in range(len(names)) if a[:, k].any()]  # the sizes this architecture and attention have
    a = a[:, keep]
    coef, *_ = np.linalg.lstsq(a, np.array(ys, dtype=float), rcond=None)
    predicted = a @ coef
    worst = max(abs(p - y) / y for p, y in zip(predicted, ys))
    found = {names[k]: round(float(c), 2) for k, c in zip(keep, coef)}
    found["fit_worst_residual"] = round(float(worst), 4)
    return found


def main() -> int:
    import peft
    import torch
    import transformers

    lines = [f"# Written by `python -m lib.plan.derive` on {dt.date.today().isoformat()} (torch {torch.__version__}, "
             f"transformers {transformers.__version__}, peft {peft.__version__}): bytes the forward pass keeps for",
             "# the backward pass, per token, bf16 weights and compute, batch 1; `layer.*` per layer. See lib/plan/derive.py."]
    for model_type, attentions in MODEL_TYPES.items():
        for method, attention in itertools.product(METHODS, attentions):
            found = fit(model_type, method, attention)
            lines.append(f"\n[{model_type}.{method}.{attention}]")
            lines += [f"{k.replace('.', '_')} = {v}" for k, v in found.items()]
            print(model_type, method, attention, found, file=sys.stderr)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("\n".join(lines) + "\n", encoding="utf8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
