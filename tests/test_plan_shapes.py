"""lib.plan: the shipped configs, the shapes and parameter counts read from them, checked against the
counts their publishers print (lib/data/models/SOURCES.toml), and the GPU table."""

import dataclasses
import json
import re
import tomllib

import pytest

from lib.plan import gpus as gpus_module
from lib.plan import shapes
from lib.plan.gpus import gpu, load_gpus
from lib.plan.shapes import (MODELS_DIR, SHIPPED, Shape, all_linear_parameters, expert_parameters, linear_modules, load_config,
                              param_count, shape)

SOURCES = tomllib.loads((MODELS_DIR / "SOURCES.toml").read_text(encoding="utf8"))
CARD_FIGURES = [(name, kind) for name in SHIPPED for kind in ("total", "active") if f"card_{kind}" in SOURCES[name]]
# Which of param_count's figures a publisher's "active" is (SOURCES.toml: card_active_counts).
ACTIVE_KEY = {"gpt-oss-20b": "active_excluding_embeddings", "gpt-oss-120b": "active_excluding_embeddings"}


def printed(figure: str) -> tuple[float, float]:
    """A printed count ("65.2B", "124M") as a number, and the tolerance it allows: 0.5 %, or half a
    unit of its last printed digit when that is wider ("47B" is 47 ± 0.5 billion)."""
    match = re.fullmatch(r"(\d+)(?:\.(\d+))?([MB])", figure)
    assert match, f"a card figure is printed as digits and M or B: {figure!r}"
    unit = {"M": 1e6, "B": 1e9}[match.group(3)]
    value = float(figure[:-1]) * unit
    half_unit = 0.5 * 10 ** -len(match.group(2) or "") * unit
    return value, max(0.005, half_unit / value)


def residual(name: str, kind: str, count=param_count) -> tuple[float, float]:
    computed = count(shape(load_config(name)))[ACTIVE_KEY.get(name, "active") if kind == "active" else "total"]
    card, tolerance = printed(SOURCES[name][f"card_{kind}"])
    return computed / card - 1, tolerance


def test_the_shipped_models_and_their_sources_are_the_same_list():
    assert set(SHIPPED) == set(SOURCES), "every shipped config has its source in SOURCES.toml, and no other"
    assert {"llama-7b", "llama-13b", "llama-65b", "gpt-oss-20b", "llama-3.1-8b", "llama-3.1-70b", "mistral-7b", "gpt2"} <= set(SHIPPED)


@pytest.mark.parametrize("name", SHIPPED)
def test_every_config_is_one_json_object_with_a_known_architecture_and_a_source(name):
    config = json.loads((MODELS_DIR / f"{name}.json").read_text(encoding="utf8"))
    assert isinstance(config, dict) and config.get("model_type") in shapes.ARCHITECTURES
    assert config.get("architectures") == [shapes.ARCHITECTURES[config["model_type"]][1]]
    source = SOURCES[name]
    assert {"config_from", "config_url", "seen", "secondary"} <= source.keys()
    assert all(f"card_{k}" in source for k in ("locator", "quote", "secondary")) == ("card_total" in source)
    assert ("card_source" in source) != ("card_url" in source) or "card_total" not in source


@pytest.mark.parametrize(("name", "kind"), CARD_FIGURES, ids=[f"{n}-{k}" for n, k in CARD_FIGURES])
def test_the_parameter_count_is_the_publishers(name, kind):
    off, tolerance = residual(name, kind)
    assert abs(off) <= tolerance, f"{name} {kind}: {off:+.2%} from the card's {SOURCES[name][f'card_{kind}']}"


def test_the_card_figures_cover_dense_and_mixture_of_experts_models():
    assert {"llama-7b", "llama-13b", "llama-65b", "qwen2.5-7b", "gpt-oss-20b", "mixtral-8x7b-instruct", "mistral-7b", "gpt2"} <= {n for n, _ in CARD_FIGURES}
    assert ("gpt-oss-20b", "active") in CARD_FIGURES


def test_the_printed_figure_sets_the_tolerance():
    assert printed("65.2B") == (65.2e9, 0.005)
    assert printed("47B")[1] == pytest.approx(0.5 / 47)
    assert printed("124M") == (124e6, 0.005)


def _without(part):
    """param_count with one part of the model left out: a count that forgets it."""
    def count(s):
        parts = shapes._parts(s)
        return {k: v - parts[part] for k, v in param_count(s).items()}
    return count


@pytest.mark.parametrize("part", ["embeddings", "lm_head", "attention", "norms"])
def test_a_count_that_forgets_a_part_fails_against_a_card(part):
    caught = [name for name, kind in CARD_FIGURES if kind == "total"
              if abs(residual(name, kind, _without(part))[0]) > residual(name, kind, _without(part))[1]]
    if part == "norms":  # a few hundred thousand parameters: below any card's precision
        assert not caught
    else:
        assert caught, f"forgetting the {part} passes every card"


def test_a_count_with_a_changed_coefficient_fails_against_a_card():
    def swiglu_as_two_matrices(s):
        wrong = dataclasses.replace(s, mlp="gelu") if s.mlp == "swiglu" else s
        return param_count(wrong)
    assert residual("llama-65b", "total", swiglu_as_two_matrices)[0] < -0.2
    def every_expert_active(s):
        return {**param_count(s), "active_excluding_embeddings": param_count(s)["total"] - param_count(s)["embeddings"]}
    off, tolerance = residual("gpt-oss-20b", "active", every_expert_active)
    assert off > tolerance


def test_dense_models_have_every_parameter_active_and_moe_models_fewer():
    for name in SHIPPED:
        s = shape(load_config(name))
        counts = param_count(s)
        assert (counts["active"] == counts["total"]) == (s.experts == 1), name


def test_shapes_read_what_each_architecture_adds():
    qwen, olmo, oss = (shape(load_config(n)) for n in ("qwen2.5-7b", "olmo-2-7b", "gpt-oss-20b"))
    assert qwen.qkv_bias and not qwen.o_bias and not olmo.qkv_bias and olmo.qk_norm
    assert oss.arch == "moe" and oss.qkv_bias and oss.o_bias and oss.attention_sinks and oss.router_bias
    assert (oss.experts, oss.experts_per_token, oss.head_dim) == (32, 4, 64)
    llama = shape(load_config("llama-65b"))
    assert (llama.kv_heads, llama.head_dim, llama.max_positions) == (64, 128, 2048)
    assert shape(load_config("llama-3.2-3b")).tied_embeddings


def test_a_gpt2_shape_counts_its_learned_positions_and_tied_head():
    config = {"model_type": "gpt2", "vocab_size": 50257, "n_embd": 768, "n_layer": 12, "n_head": 12, "n_positions": 1024}
    s = shape(config)
    assert (s.arch, s.mlp, s.norm, s.intermediate) == ("gpt2", "gelu", "layernorm", 3072)
    # wte + wpe; per layer ln_1, c_attn, attn.c_proj, ln_2, c_fc, mlp.c_proj with their biases; ln_f.
    layer = 2 * 768 + (768 * 2304 + 2304) + (768 * 768 + 768) + 2 * 768 + (768 * 3072 + 3072) + (3072 * 768 + 768)
    assert param_count(s)["total"] == 50257 * 768 + 1024 * 768 + 12 * layer + 2 * 768
    assert set(linear_modules(s)) == {"c_attn", "attn.c_proj", "c_fc", "mlp.c_proj"}


def test_linear_modules_have_the_shapes_of_the_projections():
    llama = shape(load_config("llama-3.1-8b"))
    modules = linear_modules(llama)
    assert modules["q_proj"] == (4096, 4096) and modules["k_proj"] == (4096, 1024) and modules["down_proj"] == (14336, 4096)
    assert not expert_parameters(llama) and not all_linear_parameters(llama)
    oss = shape(load_config("gpt-oss-20b"))
    assert linear_modules(oss)["q_proj"] == (2880, 4096) and linear_modules(oss)["o_proj"] == (4096, 2880)


def test_a_mixture_of_experts_linear_layers_are_its_attention_s_and_its_experts_are_parameters():
    """transformers 5 fuses gpt-oss's and Mixtral's experts into 3-D parameters: neither "all-linear"
    nor bitsandbytes sees them as linear layers (checked on tiny instances: see lib.plan.memory)."""
    oss, mixtral = (shape(load_config(n)) for n in ("gpt-oss-20b", "mixtral-8x7b-instruct"))
    for s in (oss, mixtral):
        assert set(linear_modules(s)) == {"q_proj", "k_proj", "v_proj", "o_proj"}
        assert set(expert_parameters(s)) == {"experts.gate_up_proj", "experts.down_proj"}
    assert expert_parameters(oss)["experts.gate_up_proj"] == (2880, 2 * 2880)
    assert not all_linear_parameters(oss) and set(all_linear_parameters(mixtral)) == {"gate.weight", "experts.gate_up_proj", "experts.down_proj"}


@pytest.mark.parametrize(("config", "message"), [
    ({"model_type": "bert", "architectures": ["BertModel"]}, "unknown architecture.*'bert'"),
    ({"architectures": ["FalconForCausalLM"]}, "unknown architecture"),
    ({"model_type": "llama", "hidden_size": 64, "num_attention_heads": 4, "num_hidden_layers": 2,
      "intermediate_size": 128, "max_position_embeddings": 64}, "lacks the field 'vocab_size'"),
    ({"model_type": "mixtral", "vocab_size": 10, "hidden_size": 64, "num_attention_heads": 4,
      "num_hidden_layers": 2, "intermediate_size": 128, "max_position_embeddings": 64}, "'num_local_experts'"),
    ({"model_type": "llama", "vocab_size": 10, "hidden_size": 64, "num_attention_heads": 4,
      "num_hidden_layers": 2, "intermediate_size": 128}, "'max_position_embeddings' or 'max_sequence_length'"),
    ({"model_type": "llama", "vocab_size": 10, "hidden_size": "64", "num_attention_heads": 4,
      "num_hidden_layers": 2, "intermediate_size": 128, "max_position_embeddings": 64}, "'hidden_size' must be a positive integer"),
])
def test_bad_configs_are_refused_with_the_reason(config, message):
    with pytest.raises(ValueError, match=message):
        shape(config)


def test_a_model_by_path_and_bad_names_or_files(tmp_path):
    path = tmp_path / "config.json"
    path.write_text((MODELS_DIR / "llama-65b.json").read_text(encoding="utf8"), encoding="utf8")
    assert load_config(str(path)) == load_config("llama-65b")
    with pytest.raises(ValueError, match="no model named 'llama-99b'.*llama-65b"):
        load_config("llama-99b")
    path.write_text("{not json", encoding="utf8")
    with pytest.raises(ValueError, match="not valid JSON"):
        load_config(str(path))


def test_the_gpus_are_the_ones_the_issue_names_with_sourced_figures():
    table = load_gpus()
    assert {"rtx-4090", "l40s", "a100-40gb", "a100-80gb", "h100-pcie", "h100-sxm", "h200"} <= set(table)
    h100 = gpu("h100-sxm")
    assert (h100.memory_gb, h100.bf16_flops, h100.price_usd_per_hour) == (80, 989.5e12, 4.29)
    assert gpu("a100-80gb").bf16_flops == 312e12  # dense: the datasheet's sparsity figure is 624
    assert (gpu("h100-pcie").memory_gb, gpu("h100-pcie").bf16_flops) == (80, 756.5e12)  # dense: 1,513 with sparsity
    assert gpu("h200").memory_gb == 141 and gpu("h200").bf16_flops == gpu("h100-sxm").bf16_flops and gpu("h200").unverified == ("device_memory",)


def test_a_price_read_in_epoch_s_price_table_is_its_quoted_row_dated_and_secondary():
    """A GPU's price taken from Epoch AI's Hardware prices.csv quotes the row (less its archive address): the
    price is the row's on-demand chip-hour column, the day seen is the row's date, and it is marked secondary
    (a transcription of an archived price page, not the page)."""
    import csv
    table = tomllib.loads(gpus_module.GPUS_FILE.read_text(encoding="utf8"))
    read = {k: e for k, e in table.items() if e.get("price_source") == "epochai2025hardwareprices"}
    assert {"a100-40gb", "h200", "l40s", "rtx-4090"} <= set(read)
    for key, entry in read.items():
        row = next(csv.reader([entry["price_quote"]]))
        date, on_demand = row[0], row[5]
        assert float(on_demand) == entry["price_usd_per_hour"] == gpu(key).price_usd_per_hour, key
        assert date == entry["price_seen"].isoformat() == gpu(key).price_seen.isoformat(), key
        assert entry["price_secondary"] is True and "price" not in gpu(key).unverified, key


def test_an_unknown_gpu_is_refused_naming_the_known_ones():
    with pytest.raises(ValueError, match="unknown GPU 'h300'.*h100-sxm"):
        gpu("h300")


@pytest.mark.parametrize(("entry", "message"), [
    ({"name": "X", "memory_gb": 80, "memory_source": "nvidia2022h100", "memory_quote": "80GB",
      "unverified": ["bf16", "price"], "price_usd_per_hour": 1.0, "price_source": "lambda2026pricing",
      "price_quote": "$1"}, "not both or neither"),
    ({"name": "X", "memory_gb": 80, "memory_source": "nobody2099", "memory_quote": "80GB",
      "unverified": ["bf16", "price"]}, "'nobody2099' is in no .bib file"),
    ({"name": "X", "memory_gb": 80, "memory_quote": "80GB", "unverified": ["bf16", "price", "bandwidth", "device_memory", "interconnect"]}, "needs memory_source, memory_url or memory_found"),
    ({"name": "X", "price_usd_per_hour": 1.0, "price_source": "lambda2026pricing", "price_quote": "$1",
      "unverified": ["memory", "bf16", "bandwidth", "device_memory", "interconnect"]}, "needs the date it was seen"),
])
def test_a_gpu_figure_without_its_source_is_refused(entry, message):
    with pytest.raises(ValueError, match=message):
        gpus_module._check("x", entry, {"nvidia2022h100", "lambda2026pricing"})


def test_shape_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        shape(load_config("llama-65b")).layers = 1
    assert isinstance(shape(load_config("olmo-2-7b")), Shape)
