"""The chapter "What a budget buys": lib.chapters.budget's functions (bad input included), each sourced
reported figure rebuilt within a stated tolerance, and every input of budget.toml moving a glued figure."""

import datetime as dt
import tomllib

import pytest

from lib.plan import step_time, validation

from lib.chapters import budget
from lib.site import budget_page
from lib.core.claims import POLICY
from lib.core.inputs import bib_keys, load_inputs
from lib.plan import shapes

from .conftest import LANGS

I = load_inputs()
OWN = sorted(tomllib.loads(budget.BUDGET_FILE.read_text(encoding="utf8")))


def test_precision_bytes_and_unknown_names():
    assert [budget.precision_bytes(p) for p in ("fp32", "bf16", "fp16", "int8", "nf4")] == [4, 2, 2, 1, 0.5]
    with pytest.raises(ValueError, match="unknown precision 'fp12'"):
        budget.precision_bytes("fp12")


def test_lora_params_and_bad_ranks():
    assert budget.lora_params(12288, 96, 2, 4) == 2 * 96 * 2 * 12288 * 4
    with pytest.raises(ValueError, match="rank .* cannot exceed d_model"):
        budget.lora_params(64, 2, 2, 128)
    with pytest.raises(ValueError, match="must be positive"):
        budget.lora_params(-64, 2, 2, 4)
    with pytest.raises(ValueError, match="whole number"):
        budget.lora_params(64, 2, 2, 4.5)


def test_activations_follow_korthikanti():
    s, bt, h, a, L = 1024, 1, 4096, 32, 32
    assert budget.activations_gb(s, bt, h, a, L, 34, 5) == pytest.approx(s * bt * h * (34 + 5 * a * s / h) * L / 1e9)
    with pytest.raises(ValueError, match="seq_len must be positive"):
        budget.activations_gb(-1, 1, h, a, L, 34, 5)
    with pytest.raises(ValueError, match="heads"):
        budget.activations_gb(s, 1, 8, 16, L, 34, 5)


def test_gradient_checkpointing_keeps_each_layers_input_and_rebuilds_one_layer():
    s, bt, h, a, L = 1024, 1, 4096, 32, 32
    one_layer = s * bt * h * (34 + 5 * a * s / h)
    # Korthikanti et al., Table 2: full recomputation keeps 2·s·b·h bytes per layer; the book adds the
    # one layer rebuilt during its backward pass.
    got = budget.activations_gb(s, bt, h, a, L, 34, 5, recomputation="full", checkpoint_bytes=2)
    assert got == pytest.approx((2 * s * bt * h * L + one_layer) / 1e9)
    assert got < budget.activations_gb(s, bt, h, a, L, 34, 5) / 10
    for kwargs, message in [(dict(recomputation="selective"), "unknown recomputation 'selective'"),
                            (dict(recomputation="full"), "give checkpoint_bytes"),
                            (dict(recomputation="full", checkpoint_bytes=0), "checkpoint_bytes must be positive"),
                            (dict(recomputation="full", checkpoint_bytes=-2), "checkpoint_bytes must be positive"),
                            (dict(checkpoint_bytes=2), "is for recomputation 'full'")]:
        with pytest.raises(ValueError, match=message):
            budget.activations_gb(s, bt, h, a, L, 34, 5, **kwargs)
    with pytest.raises(ValueError, match="layers must be positive"):
        budget.activations_gb(s, bt, h, a, 0, 34, 5, recomputation="full", checkpoint_bytes=2)
    # Which jobs recompute: QLoRA, as its paper runs every experiment; the others keep everything.
    assert [budget.job_recomputation(I, job) for job in budget.JOBS] == ["none", "none", "none", "full"]
    with pytest.raises(ValueError, match="unknown job 'dpo'"):
        budget.job_recomputation(I, "dpo")


def test_training_memory_by_job():
    full = budget.training_memory(1e9, "full")
    assert (full.weights, full.gradients, full.optimizer, full.total) == (2, 2, 12, 16)
    lora = budget.training_memory(1e9, "lora", adapter_params=1e6)
    assert lora.weights == 2 and lora.gradients == pytest.approx(0.002) and lora.adapters == pytest.approx(0.002)
    q = budget.training_memory(1e9, "qlora", adapter_params=1e6, quant_constant_bits=0.127)
    assert q.weights == pytest.approx(1e9 * 4.127 / 8 / 1e9)
    assert budget.training_memory(1e9, "full", weight_precision="fp32").weights == 4
    # Weights kept apart from the precision (QLoRA's embeddings in bf16), bytes given directly, adapters' bytes.
    kept = budget.training_memory(1e9, "qlora", adapter_params=1e6, kept=((1e8, 2),), adapter_bytes=4)
    assert kept.weights == pytest.approx((9e8 * 0.5 + 1e8 * 2) / 1e9) and kept.adapters == pytest.approx(0.004)
    assert budget.training_memory(1e9, "full", weight_bytes=2, gradient_bytes=2, optimizer_bytes=4).total == 8
    assert budget.bits_to_bytes("bits", 16) == 2
    for kwargs, message in [(dict(params=-1, job="full"), "params must be positive"),
                            (dict(params=1e9, job="full", kept=((1e9, 2),)), "must be fewer than params"),
                            (dict(params=1e9, job="full", kept=((-1, 2),)), "kept params must be positive"),
                            (dict(params=1e9, job="full", weight_bytes=2, weight_precision="bf16"), "not both"),
                            (dict(params=1e9, job="lora", adapter_params=1, adapter_bytes=0), "adapter_bytes must be positive"),
                            (dict(params=1e9, job="train"), "unknown job 'train'"),
                            (dict(params=1e9, job="lora"), "give adapter_params"),
                            (dict(params=1e9, job="lora", adapter_params=2e9), "cannot be more than params"),
                            (dict(params=1e9, job="full", weight_precision="fp8"), "unknown precision")]:
        with pytest.raises(ValueError, match=message):
            budget.training_memory(**kwargs)


def test_flops_hours_fits_tokens_residual():
    # Pretraining at the report's own count; fine-tuning at the planner's (the released configuration).
    assert budget.flops_per_token(I, "pretrain", "llama7b") == 6 * I.ft_example_params
    counts = shapes.param_count(budget.chapter_job(I, "full", "llama7b").shape)
    n = counts["multiplied"]  # LLaMA's untied input table is a lookup: its FLOPs' N leaves it out
    assert n == counts["total"] - I.llama_vocab * I.llama7b_d_model
    assert budget.flops_per_token(I, "full", "llama7b") == pytest.approx(6 * n)
    # LoRA at the time its paper measured: 32.5 against 43.1 tokens a second (a quarter less time).
    assert budget.flops_per_token(I, "lora", "llama7b") == pytest.approx(6 * n * 32.5 / 43.1)
    # QLoRA reports no speed-up; its recomputation is not a model FLOP (the utilisation is an MFU).
    assert budget.flops_per_token(I, "qlora", "llama7b") == pytest.approx(6 * n)
    assert budget.gpu_hours(3.6e15, 1e12, 1) == pytest.approx(1)
    assert budget.fits(80, 80) and not budget.fits(80.1, 80)
    assert budget.residual(110, 100) == pytest.approx(0.1)
    with pytest.raises(ValueError, match="unknown job"):
        budget.flops_per_token(I, "rlhf", "llama7b")
    with pytest.raises(ValueError, match="reported must be positive"):
        budget.residual(1, 0)
    with pytest.raises(ValueError, match="fraction"):
        budget.gpu_hours(1, 1, 1.5)


# Each reported figure, rebuilt by the same functions, within a stated tolerance.
def test_llama7b_table15_hours_within_10_percent():
    assert abs(budget.llama7b_rebuilt(I)["residual"]) < 0.10


def test_lora_paper_counts_adams_states_at_twice_the_weights_and_no_gradients():
    """Section 4.2: the saving, up to 2/3, is the optimiser states of the frozen weights. So the states
    take 2/(1 - 2/3) - 2 = 4 bytes per fp16 weight, no gradients are counted, and the whole is three
    times the weights: the abstract's "3 times", a second sentence of the paper that agrees."""
    kw = budget.lora_paper_bytes(I)
    assert kw["gradient_bytes"] == 0 and kw["optimizer_bytes"] == pytest.approx(4)
    assert 1 + kw["optimizer_bytes"] / budget.precision_bytes("bf16") == pytest.approx(I.lora_abstract_memory_reduction)
    lo = budget.lora_rebuilt(I)
    assert lo["full"] == pytest.approx(175255.8e6 * 6 / 1e9) and lo["ratio"] == pytest.approx(3, rel=1e-3)
    assert abs(lo["lora_residual"]) < 0.01
    # Against the paper's 1.2 TB: -12.4% by its own accounting, +134% at ZeRO's mixed precision.
    assert lo["full_residual"] == pytest.approx(1051.5348 / 1200 - 1)
    assert lo["full_zero_residual"] == pytest.approx(2804.0928 / 1200 - 1)
    for share, message in [(1, "must be less than 1"), (1.5, "fraction"), (0, "must be positive")]:
        with pytest.raises(ValueError, match=message):
            budget.lora_paper_bytes(I.replace("lora_paper_saving", value=float(share)))


def test_qlora_65b_with_qloras_own_recipe():
    q = budget.qlora_rebuilt(I)
    r = q["recipe"]
    # Guanaco 65B's recipe: rank 64 on q, k, v, o and SwiGLU's three matrices, 80 layers of d = 8192,
    # the feed-forward as wide as the released configuration, 22016: some 799.5M adapters.
    assert r["rank"] == 64 and r["seq_len"] == 16 + 512 and r["batch"] == 1
    # the released configuration's width, the paper's 2/3·4d rounded up to Meta's multiple of 256
    assert r["paper_ffn"] == pytest.approx(2 / 3 * 4 * 8192)
    assert r["ffn"] == r["ffn_rounded"] == 22016
    assert r["adapters"] == pytest.approx(80 * 64 * (4 * 2 * 8192 + 3 * (8192 + 22016)))
    assert budget.all_linear_adapter_params(8192, 22016, 80, 64, 4, 3) == 80 * 64 * (4 * 2 * 8192 + 3 * (8192 + 22016))
    # QLoRA's code, as the planner runs it (planner_jobs["qlora_65b"]): the embeddings and output layer
    # (2 x 32,000 x 8192) in bf16, the norms in fp32, the blocks' linear layers in NF4 with their constants;
    # the adapters (rank 64 on every linear layer of the released model, its feed-forward 22016 wide) and
    # their gradients in bf16; paged AdamW's two states in fp32, 8 bytes per adapter parameter: some 6.4 GB.
    from lib.plan import memory as plan_memory
    from lib.plan.shapes import param_count

    kept = q["kept"]
    assert kept["embeddings"] == 2 * 32000 * 8192 and kept["norms"] == (2 * 80 + 1) * 8192
    job = budget.planner_jobs(I)["qlora_65b"]
    p, quantised = param_count(job.shape)["total"], plan_memory.quantised_params(job.shape)
    assert p - quantised - kept["embeddings"] == kept["norms"]  # what is not NF4 is the tables and the norms
    assert q["memory"].weights == pytest.approx((quantised * plan_memory.NF4_BYTES + kept["embeddings"] * 2
                                                 + kept["norms"] * 4) / 1e9)
    adapters = 80 * 64 * (4 * 2 * 8192 + 3 * (8192 + 22016))
    assert plan_memory.adapter_params(job) == adapters
    assert q["memory"].optimizer == pytest.approx(adapters * 8 / 1e9)
    assert q["memory"].gradients == q["memory"].adapters == pytest.approx(adapters * 2 / 1e9)
    assert 6.3 < q["memory"].optimizer < 6.5
    assert q["full_above"] and q["qlora_below"] and q["fits_48"]
    assert q["qlora"] == pytest.approx(48 - q["margin"]) and 0 < q["margin"] < 48
    # On the device: the peak and the CUDA context the planner states.
    assert q["qlora"] == pytest.approx(q["memory"].total + q["context"])
    # The book's LoRA-paper adapters (rank 4 on W_q and W_v) in the same job take less.
    assert q["book_adapters"] < q["qlora"]
    # With every activation kept, at the recipe's short sequences, it breaks 48 GB but fits an 80 GB H100.
    assert not q["no_checkpointing_fits_48"] and q["no_checkpointing_fits_h100"]
    buys = {(r["job"], r["model"]): r["fits"] for r in budget.what_budget_buys(I)}
    assert buys["qlora", "llama65b"] and not buys["lora", "llama65b"]


def test_all_linear_adapters_reject_bad_input():
    with pytest.raises(ValueError, match="rank must be a whole number"):
        budget.all_linear_adapter_params(8192, 22016, 80, 6.5, 4, 3)
    with pytest.raises(ValueError, match="ffn_width"):
        budget.all_linear_adapter_params(8192, -1, 80, 64, 4, 3)


def test_guanaco_tokens_are_sourced():
    assert budget.guanaco_tokens(I) == 1875 * 16 * 528


def test_sharding_divides_the_sharded_states_only():
    memory = budget.training_memory(1e9, "full", activations=5.0)  # 2 + 2 + 12 GB of states
    assert budget.sharded_memory(memory, 8, "full_shard") == pytest.approx(16 / 8 + 5)
    assert budget.sharded_memory(memory, 8, "shard_grad_op") == pytest.approx(2 + 14 / 8 + 5)
    assert budget.sharded_memory(memory, 8, "no_shard") == pytest.approx(16 + 5)
    with pytest.raises(ValueError, match="gpus must be a whole number"):
        budget.sharded_memory(memory, 2.5, "full_shard")


# The planner (lib.plan) against every published memory figure, by the tolerance of its kind. The
# published side is pinned here as the papers print it, so a change of the planner fails against the papers.
PUBLISHED_GB = {"zero_gpt2": 24, "lora_full": 1200, "lora_lora": 350, "qlora_full": 780, "qlora_65b": 48,
                "qlora_7b_base": 5.048, "qlora_7b_lora": 0.026,
                # PEFT's method comparison, "mem allocated avg" at step 5000, in bytes
                "peft_full": 26061298554.88 / 1e9, "peft_lora": 6920560834.56 / 1e9,
                "peft_lora64": 7065262428.16 / 1e9}
# Which agree: the two that do not stay outside, each with its reason on the page.
AGREES = {"zero_gpt2": True, "lora_full": False, "lora_lora": True, "qlora_full": True, "qlora_65b": True,
          "qlora_7b_base": False, "qlora_7b_lora": True, "peft_full": True, "peft_lora": True, "peft_lora64": True}
# GPT-3 175B as GPT-2's architecture at Table 2.1's sizes: per layer 12h² + 13h (attention 4h² + 4h, the
# feed-forward 8h² + 5h, two LayerNorms 4h), the token and position tables and the final LayerNorm.
H = 12288
GPT3 = 96 * (12 * H**2 + 13 * H) + (50257 + 2048) * H + 2 * H
# LLaMA 7B as qlora.py holds it: the blocks' linear layers in NF4 with double quantisation, the embeddings
# and output layer in bf16, the norms (two a block and the last) in fp32.
LLAMA7B_LINEAR = 32 * (4 * 4096**2 + 3 * 4096 * 11008)
NF4 = 0.5 + 1 / 64 + 4 / (64 * 256)
# The planner's figures, each at its publisher's configuration, worked out here by hand (GB).
PLANNER_GB = {
    "zero_gpt2": 16 * 1.5,  # 4 + 4 + 8 bytes a parameter, ZeRO's 16
    "lora_full": GPT3 * (2 + 2 + 4) / 1e9,
    "lora_lora": (GPT3 * 2 + 96 * 4 * (H + 3 * H) * 16) / 1e9,
    "qlora_7b_base": (LLAMA7B_LINEAR * NF4 + 2 * 32000 * 4096 * 2 + 65 * 4096 * 4) / 1e9,
    "qlora_7b_lora": 0.002 * 6738415616 * 2 / 1e9,
    "peft_full": 3212749824 * (2 + 2 + 4) / 1e9,
    "peft_lora": (3212749824 * 2 + 9175040 * (4 + 4 + 8)) / 1e9,
    "peft_lora64": (3212749824 * 2 + 18350080 * (4 + 4 + 8)) / 1e9,
}


def test_the_planner_against_published_measurements():
    rows = {r["key"]: r for r in budget.measurements(I) if not r["own"]}
    assert {k: r["published"] for k, r in rows.items()} == pytest.approx(PUBLISHED_GB)
    assert {k: r["within"] for k, r in rows.items()} == AGREES
    assert tuple(k for k, ok in AGREES.items() if not ok) == budget.OUTSIDE
    for key, r in rows.items():
        gb = PUBLISHED_GB[key]
        if r["kind"] == "bound":
            assert (r["formula"] < gb) if r["side"] == "below" else (r["formula"] > gb), key
        elif AGREES[key]:
            tol = budget.MEASURED_TOLERANCE if r["kind"] == "measured" else budget.ARITHMETIC_TOLERANCE
            assert abs(r["formula"] / gb - 1) <= tol, key
        else:
            assert abs(r["formula"] / gb - 1) > budget.MEASURED_TOLERANCE, key
    assert budget.MEASURED_TOLERANCE == 0.10 and budget.ARITHMETIC_TOLERANCE == 0.01
    assert {k: rows[k]["formula"] for k in PLANNER_GB} == pytest.approx(PLANNER_GB)
    # What misses, by how much: the LoRA paper's 1.2 TB above it, QLoRA's 4-bit LLaMA 7B short of it.
    assert rows["lora_full"]["residual"] == pytest.approx(0.1640, abs=5e-4)
    assert rows["qlora_7b_base"]["residual"] == pytest.approx(-0.2341, abs=5e-4)
    # QLoRA's 65B recipe on a GPU: the planner's peak plus the CUDA context it states, under 48 GB.
    assert 44 < rows["qlora_65b"]["formula"] < 46 and rows["qlora_65b"]["reading"] == "device"


@pytest.mark.parametrize("lang, outside", [("en", "Outside its tolerance for a stated reason"),
                                           ("es", "Fuera de su tolerancia por una razón dicha")])
def test_the_rows_outside_say_why_and_the_page_says_what_the_planner_leaves_out(lang, outside):
    from lib.core.words import words

    w = words(lang)["budget"]
    assert all((outside in w["leaves_out"][key]) == (key in budget.OUTSIDE) for key, *_ in budget.MEASUREMENTS)
    assert set(w["readings"]) == set(budget.READINGS) and set(w["configs"]) >= {k for k, *_ in budget.MEASUREMENTS}


def test_the_planner_counts_the_publishers_parameters():
    from lib.chapters import compute
    from lib.plan import memory, shapes

    jobs = budget.planner_jobs(I)
    assert memory.adapter_params(jobs["peft_lora"]) == I.peft_lora_adapters
    assert memory.adapter_params(jobs["peft_lora64"]) == I.peft_lora64_adapters
    assert shapes.param_count(jobs["peft_full"].shape)["total"] == I.peft_full_params
    # An adapter on GPT-2's fused c_attn has as many parameters as two on W_q and W_v (the LoRA paper's).
    assert memory.adapter_params(jobs["lora_lora"]) == compute.lora_trainable_params(H, 96, 2, 4)
    # GPT-3 175B's count from its Table 2.1 sizes, beside the table's 175.0B.
    assert shapes.param_count(jobs["lora_full"].shape)["total"] == GPT3 and abs(GPT3 / 175.0e9 - 1) < 0.005


# A changed planner fails against the papers' printed figures (PUBLISHED_GB), not against itself: a byte
# constant of lib.plan.memory, or an input set to a configuration its publisher did not use.
@pytest.mark.parametrize("constant, value, key", [
    ("NF4_BYTES", 5 / 8 + 1 / 64 + 4 / (64 * 256), "qlora_65b"),  # five bits a weight, not NF4's four
    ("LAYER_INPUT_BYTES", 4 * 8, "qlora_65b"),  # a checkpointed layer keeping 16 fp32 copies of its input
])
def test_a_changed_byte_constant_fails_against_the_measurement(monkeypatch, constant, value, key):
    from lib.plan import memory

    assert {r["key"]: r for r in budget.measurements(I)}[key]["within"]
    monkeypatch.setattr(memory, constant, value)
    changed = {r["key"]: r for r in budget.measurements(I)}[key]
    assert not changed["within"] and changed["published"] == pytest.approx(PUBLISHED_GB[key])


def test_a_changed_activation_coefficient_fails_against_the_measurement(monkeypatch):
    """The one published row whose figure holds activations, QLoRA's 65B recipe under checkpointing: a
    layer's coefficient on its width as eager attention's would be at these sizes, times the layers."""
    from lib.plan import memory

    real = memory.coefficients()
    changed = {arch: {m: {a: dict(c) for a, c in att.items()} for m, att in methods.items()}
               for arch, methods in real.items()}
    changed["llama"]["lora-all"]["sdpa"]["layer_hidden"] *= 80  # one layer kept as if all 80 were
    monkeypatch.setattr(memory, "coefficients", lambda: changed)
    assert not {r["key"]: r for r in budget.measurements(I)}["qlora_65b"]["within"]


COUNTERFACTUALS = [
    ("lora_lora", "lora_rank", 2048.0),  # LoRA's rank far above the paper's 4 (its adapters are a sliver otherwise)
    ("qlora_7b_lora", "qlora_adapter_bits", 32.0),  # the adapters in fp32, not qlora.py's bf16
    ("qlora_65b", "qlora_adapter_bits", 32.0),  # the same at 65B: PEFT's fp32 adapters break the 48 GB bound
    ("qlora_65b", "qlora_kept_bits", 64.0),  # the embeddings and output layer in 64 bits
    ("zero_gpt2", "zero_gpt2_params", 1.6e9),  # a count the paper does not give
]


@pytest.mark.parametrize("key, name, value", COUNTERFACTUALS)
def test_a_changed_configuration_fails_against_the_published_figure(key, name, value):
    changed = {r["key"]: r for r in budget.measurements(I.replace(name, value=value))}[key]
    assert AGREES[key] and not changed["within"], (key, name)
    assert changed["published"] == pytest.approx(PUBLISHED_GB[key])


def test_the_publishers_configurations_reject_bad_input():
    for name, value, message in [("gpt3_heads", 95.5, "must be a whole number"),
                                 ("qlora_kept_bits", 0.0, "qlora_kept_bits must be positive")]:
        with pytest.raises(ValueError, match=message):
            budget.measurements(I.replace(name, value=value))
    with pytest.raises(ValueError, match="not a unit of memory"):
        budget.published_gb(I, "zero_gpt2_params")


def test_the_book_s_own_measurements_join_the_table(tmp_path):
    """A GPU run file in the measurements' folder adds a row per completed configuration: its peak allocated
    against the planner's peak; a configuration the planner declines shows no figure. A fixture, in a
    temporary folder: lib/data/measured holds no measurement yet."""
    import json

    from lib.measure import configurations as conf, schema

    from .test_measure import gpu_record

    name = "llama-3.1-8b/lora-r16-q_proj,v_proj/seq1024/batch1/checkpointing/sdpa"
    record = gpu_record(name)
    record["environment"]["gpu"] = "NVIDIA H200"
    (tmp_path / "run.json").write_text(json.dumps({"schema": schema.SCHEMA, "records": [record]}))
    rows = budget.measurements(I, tmp_path)
    own = [r for r in rows if r["own"]]
    assert [r["key"] for r in own] == [name] and own[0]["reading"] == "peak_allocated"
    config = conf.Configuration.from_dict(record["configuration"])
    from lib.plan import memory
    assert own[0]["formula"] == pytest.approx(memory.parts(budget.own_job(config))["peak"] / 1e9)
    assert own[0]["published"] == pytest.approx(record["measured"]["peak_allocated_bytes"] / 1e9)
    assert own[0]["within"] == (abs(own[0]["residual"]) <= 0.10)
    for lang in ("en", "es"):
        table = budget_page.measured_table(I, lang, tmp_path)
        assert name in table and len(table.splitlines()) == 2 + len(budget.MEASUREMENTS) + 1
    # With no run, the published rows only.
    assert not [r for r in budget.measurements(I) if r["own"]] or list(schema.load_runs())


# The new inputs hold what their sources print (tests/test_published_figures.py does this for the articles').
PRINTED = {
    "activation_linear_bytes": 34, "activation_attention_bytes": 5,  # Korthikanti et al., Equation 1
    "activation_checkpoint_bytes": 2,  # Korthikanti et al., Table 2 (full activation recomputation)
    "qlora_65b_single_gpu": 48, "qlora_65b_memory": 48, "qlora_full_ft_65b_memory": 780,  # QLoRA, abstract, Section 1
    "qlora_7b_base_memory": 5048, "qlora_7b_lora_memory": 26, "qlora_7b_lora_fraction": 0.002,  # QLoRA, Section 2
    "zero_gpt2_params": 1.5e9, "zero_gpt2_model_states": 24,  # ZeRO, Section 3.1
    "llmc_124m_mfu": 0.6,  # llm.c, discussion 481
    "epoch_grok3_cost": 1164146793.7782238,  # model_costs.csv, 263c40a
    # artidoro/qlora, scripts/finetune_guanaco_65b.sh (86ac601)
    "qlora_65b_lora_rank": 64, "qlora_65b_source_len": 16, "qlora_65b_target_len": 512, "qlora_65b_batch": 1,
    "qlora_65b_grad_accum": 16, "qlora_65b_steps": 1875,
    "llama_attention_matrices": 4, "llama_ffn_matrices": 3, "llama_ffn_ratio": 2 / 3 * 4,
    "lora_paper_saving": 2 / 3,  # LoRA, Section 4.2
    # artidoro/qlora, qlora.py (7f4e95a)
    "qlora_kept_bits": 16, "qlora_norm_bits": 32, "qlora_adapter_bits": 16, "qlora_optimizer_state_bits": 32,
    "llama_vocab": 32000,  # Transformers' LlamaConfig
    "llama_vocab_matrices": 2, "llama_norms_per_layer": 2, "llama_final_norms": 1,  # Meta's llama/model.py (1076b9c)
    # PEFT's method comparison, results files (5d602fd)
    "peft_dtype_bits": 16, "peft_adapter_bits": 32, "peft_full_params": 3212749824, "peft_full_memory": 26061298554.88,
    "peft_lora_params": 3221924864, "peft_lora_adapters": 9175040, "peft_lora_rank": 32, "peft_lora_memory": 6920560834.56,
    # PEFT's method comparison, results/lora--llama-3.2-3B-rank64.json (18e07f1)
    "peft_lora64_rank": 64, "peft_lora64_adapters": 18350080, "peft_lora64_memory": 7065262428.16,
    "gpt3_heads": 96, "gpt3_context": 2048,  # GPT-3, Table 2.1 and Section 2.1
}


@pytest.mark.parametrize("name", sorted(PRINTED))
def test_budget_input_matches_the_printed_figure(name):
    assert I[name].value == pytest.approx(PRINTED[name], rel=1e-12), name
    assert I.epoch_grok3_date == dt.date(2025, 2, 17)


def test_within_rejects_bad_comparisons():
    assert budget.within(105, 100, "measured") and not budget.within(111, 100, "measured")
    assert budget.within(100.5, 100, "arithmetic") and not budget.within(102, 100, "arithmetic")
    assert budget.within(40, 48, "bound", "below") and not budget.within(50, 48, "bound", "below")
    assert budget.within(800, 780, "bound", "above") and not budget.within(700, 780, "bound", "above")
    for args, message in [((1, 1, "guess"), "unknown kind 'guess'"), ((1, 1, "bound"), "side 'below' or 'above'"),
                          ((1, 1, "bound", "near"), "side 'below' or 'above'"), ((1, 1, "measured", "below"), "side is for bounds"),
                          ((-1, 1, "measured"), "formula must be positive"), ((1, 0, "measured"), "published must be positive")]:
        with pytest.raises(ValueError, match=message):
            budget.within(*args)


def test_the_budget_s_jobs_are_timed_by_the_speed_model_with_its_range():
    """Every row of what the budget buys is timed by the speed model on the H100 (lib.plan.speed.speed), not
    at a publisher's utilisation: its hours are the tokens over the model's tokens a second, its range the
    model's, and its `mfu` the utilisation those hours imply for the chapter's FLOPs (FLOPs ÷ (peak × mfu)
    gives the hours back). A faster GPU moves every hour."""
    from lib.plan.gpus import load_gpus
    low, high = validation.speed_range()
    for r in budget.what_budget_buys(I):
        assert r["hours_low"] < r["hours"] < r["hours_high"]
        assert r["hours"] / r["hours_high"] == pytest.approx(low) and r["hours"] / r["hours_low"] == pytest.approx(high)
        flops = budget.flops_per_token(I, r["job"], r["model"]) * r["tokens"]
        assert flops / (budget.h100_peak(I) * r["mfu"]) / 3600 == pytest.approx(r["hours"])
        assert r["mfu"] not in (I.palm_mfu, I.llmc_124m_mfu)
    gpt2 = next(r for r in budget.what_budget_buys(I) if (r["job"], r["model"]) == ("pretrain", "gpt2"))
    job = budget.chapter_job(I, "pretrain", "gpt2")
    assert gpt2["hours"] == pytest.approx(gpt2["tokens"] / step_time.tokens_per_second(job, load_gpus()["h100-sxm"]) / 3600)
    # The A100 table too: each job's hours are the speed model's on the A100, with the same range.
    for s in budget.three_scales(I).values():
        assert s["hours_low"] < s["hours"] < s["hours_high"] and s["cost"] / s["cost_high"] == pytest.approx(low)


def test_llmc_runs_rebuilt_from_their_own_inputs_within_the_estimate_tolerance():
    """The 124M run's hours (6ND at its stated utilisation) and cost (its stated node price) are
    estimates rebuilt from the run's own inputs: the policy's tolerance for estimates, the one the
    verdicts use. The 1.5B run priced at today's H100 price is a sensitivity, not a rebuild: no
    limit holds it, and it follows the price (a maintainer's price update moves it)."""
    r = budget.llmc_rebuilt(I)
    assert abs(r["hours_124m_residual"]) <= POLICY["estimate"]
    assert abs(r["cost_124m_residual"]) <= POLICY["estimate"]
    dearer = budget.llmc_rebuilt(I.scaled("lambda_h100_sxm_8x", 1.1))
    assert dearer["cost_1558m"] == pytest.approx(I.llmc_1558m_gpus * I.llmc_1558m_hours * I.lambda_h100_sxm_8x * 1.1)


def test_ladder_is_sorted_and_dated():
    rungs = budget_page.ladder(I)
    assert [r["usd"] for r in rungs] == sorted(r["usd"] for r in rungs)
    # The frontier rung: Grok-3 in Epoch AI's model_costs.csv (commit 263c40a), Cloud_Cost.
    assert rungs[-1]["key"] == "grok3" and rungs[-1]["usd"] == pytest.approx(1164146793.78)
    assert all(isinstance(r["dated"], (dt.date, int)) and r["source"] in bib_keys() for r in rungs)


def _figures(inputs) -> dict:
    return {k: f.raw() for k, f in budget_page.figures(inputs).items()}


def _table(lang: str, table):
    def part(inputs) -> dict:
        return {f"{lang}.{table.__name__}": table(inputs, lang)}
    return part


# Every figure and table the chapter glues, in parts: a changed input is compared part by part, the
# parts that look it up first (Inputs.recording), and the first part that moves is enough.
PARTS = [_figures] + [_table(lang, table) for lang in ("es", "en")
                      for table in (budget_page.memory_table, budget_page.compute_table, budget_page.buys_table,
                                    budget_page.measured_table, budget_page.ladder_table)]
READS: dict = {part: set() for part in PARTS}
BEFORE = {part: part(I.recording(READS[part])) for part in PARTS}


@pytest.mark.parametrize("name", OWN)
def test_every_budget_input_moves_a_glued_figure(name):
    entry = I[name]
    if entry.unit == "date":
        changed = I.replace(name, value=entry.value - dt.timedelta(days=7))
    elif entry.value.is_integer():
        changed = I.replace(name, value=float(max(round(entry.value * 1.05), entry.value + 1)))
    else:
        changed = I.scaled(name, 1.05)
    for part, before in sorted(BEFORE.items(), key=lambda item: name not in READS[item[0]]):
        if part(changed) != before:
            return
    pytest.fail(f"changing {name} moves no figure of the chapter")


def test_ladder_chart_has_a_slider_and_draws():
    from lib.site import charts
    spec = budget_page.ladder_chart(I, "en").to_dict()
    assert any(p.get("bind") for p in spec.get("params", []))
    with pytest.raises(ValueError):
        charts.budget_ladder([], "en", 1)


@pytest.mark.parametrize("lang", LANGS)
def test_the_table_of_published_runs_names_an_unlisted_gpu_in_the_page_s_language(lang):
    """A published run's GPU that lib/data/gpus.toml does not list (a memory size, a V100) is written in the
    page's words (lib/data/words [budget.validation.unlisted_gpus]), never as its source's English."""
    from lib.core.words import words
    from lib.plan.gpus import load_gpus

    unlisted = {r.row.gpu for r in validation.residuals()} - set(load_gpus())
    named = words(lang)["budget"]["validation"]["unlisted_gpus"]
    assert unlisted and unlisted <= set(named), unlisted - set(named)
    table = budget_page.published_table(lang)
    assert all(named[gpu] in table for gpu in unlisted)
    assert ("GPU de 48 GB" if lang == "es" else "48 GB GPU") in table and "48GB GPU" not in table


def test_the_parts_of_each_alpaca_gpu_s_peak_add_up_to_it():
    """The parts the chapter and the card name (its share of weights and Adam's states, its activations,
    the weights it gathers, the loss's gradient) are the planner's terms of that peak, and add up to it;
    the gradients, not yet alive then, are not among them."""
    job = budget.rented_full_ft(I)
    named = ("weights", "optimizer", "activations", "buffers", "loss_gradient")
    assert set(job["at_peak"]) == set(named)
    assert sum(job["at_peak"].values()) == pytest.approx(job["per_gpu"], rel=1e-9)
    assert job["at_peak"]["activations"] == pytest.approx(job["activations"], rel=1e-9)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_published_times_table_writes_the_lora_paper_s_throughputs_as_the_prose_does(lang):
    """The table of published measurements writes a throughput below a hundred tokens a second to the
    tenth, as the chapter's prose writes the LoRA paper's (32.5 and 43.1, not 32 and 43)."""
    from lib.core.figure import Figure

    table = budget_page.published_table(lang)
    for name in ("lora_throughput_full", "lora_throughput_lora"):
        assert f"| {Figure.of(I[name].value, 'token/s/GPU', decimals=1).format(lang)} |" in table, name
