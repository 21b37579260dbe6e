"""The planner (lib/plan): a training job's memory by part and its peak, checked against published
measurements; the command `python -m lib.plan`, its JSON, its table in both languages and its bad
inputs (one line in the chosen language, exit status 2)."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import pytest

from lib.core.inputs import load_inputs
from lib.plan import memory, shapes, speed
from lib.plan.__main__ import main
from lib.plan.gpus import gpu

from .conftest import ROOT

I = load_inputs()
DERIVED = [m for m in shapes.SHIPPED if shapes.shape(shapes.load_config(m)).model_type in memory.coefficients()]


def job(model: str = "llama-3.2-3b", method: str = "full-bf16", **kw) -> memory.Job:
    return memory.Job(shapes.shape(shapes.load_config(model)), method, **({"seq": 1024} | kw))


# ---------------------------------------------------------------- against published measurements

# Hugging Face PEFT's method comparison, Llama-3.2-3B in bf16 with AdamW (lib/data/inputs/budget.toml,
# peft_*): the memory allocated after each optimizer step, averaged over the last window; a measured
# memory figure, so the budget chapter's tolerance for those (lib.chapters.budget.MEASURED_TOLERANCE).
@pytest.mark.parametrize("method, rank, measured", [("full-bf16", 16, "peft_full_memory"), ("lora", 32, "peft_lora_memory")])
def test_the_states_after_a_step_match_peft_s_measurement(method, rank, measured):
    from lib.chapters.budget import MEASURED_TOLERANCE

    found = memory.parts(job(method=method, rank=rank, targets=("q_proj", "v_proj")))["after_step"]
    residual = (found - I[measured].value) / I[measured].value
    assert abs(residual) <= MEASURED_TOLERANCE, residual


def test_the_counts_are_peft_s_own():
    assert shapes.param_count(shapes.shape(shapes.load_config("llama-3.2-3b")))["total"] == I.peft_full_params
    assert memory.adapter_params(job(method="lora", rank=32)) == I.peft_lora_adapters


def test_a_changed_coefficient_fails_against_the_measurement(monkeypatch):
    """Optimizer states counted in fp32 for a bf16 run (12 bytes a parameter instead of 8) miss PEFT's figure."""
    real = memory.parts

    def fp32_states(j):
        found = real(j)
        return found | {"after_step": found["after_step"] + 4 * shapes.param_count(j.shape)["total"]}

    monkeypatch.setattr(memory, "parts", fp32_states)
    with pytest.raises(AssertionError):
        test_the_states_after_a_step_match_peft_s_measurement("full-bf16", 16, "peft_full_memory")


# ---------------------------------------------------------------- the model's behaviour

def test_activations_grow_linearly_with_sdpa_and_faster_with_eager():
    sdpa = [memory.parts(job(seq=s))["activations"] for s in (1024, 2048, 4096)]
    eager = [memory.parts(job(seq=s, attention="eager"))["activations"] for s in (1024, 2048, 4096)]
    assert sdpa[2] / sdpa[1] == pytest.approx(2, rel=0.01) and sdpa[1] / sdpa[0] == pytest.approx(2, rel=0.01)
    assert eager[2] / eager[1] > 2.2 and all(e > s for e, s in zip(eager, sdpa))


def test_checkpointing_keeps_less_and_adds_no_model_flop():
    """Recomputation is not a model FLOP: a run that recomputes reaches a lower model FLOPs utilisation
    (PaLM's definition), which is the reader's to set, so the FLOPs per token do not change."""
    plain, checkpointed = job(seq=4096), job(seq=4096, checkpointing=True)
    assert memory.parts(checkpointed)["activations"] < memory.parts(plain)["activations"] / 4
    assert speed.flops_per_token(checkpointed) == speed.flops_per_token(plain)
    lora = job(method="lora")
    # LoRA trains faster by the LoRA paper's measured throughputs (43.1 against 32.5 tokens a second), not by
    # the third of the FLOPs its frozen weights skip.
    assert speed.flops_per_token(job(method="full-bf16")) / speed.flops_per_token(lora) == pytest.approx(43.1 / 32.5)


def test_the_methods_order_their_states():
    found = {m: memory.parts(job(method=m)) for m in memory.METHODS}
    assert found["full-mixed"]["optimizer"] == 2 * found["full-bf16"]["optimizer"]
    assert found["qlora"]["weights"] < found["lora"]["weights"] < found["full-mixed"]["weights"]
    assert found["lora"]["gradients"] < found["full-bf16"]["gradients"] / 100


def test_a_job_fits_a_gpu_by_its_peak_and_the_cuda_context():
    peak = memory.parts(job(model="llama-65b", method="full-bf16"))["peak"]
    assert speed.fits(peak, gpu("h100-sxm")) is False
    # the bytes the driver reports: 81,559 MiB (85.5 × 10^9 bytes) and 24,564 MiB (25.8 × 10^9)
    assert speed.fits(84e9, gpu("h100-sxm")) is True and speed.fits(85e9, gpu("h100-sxm")) is False
    assert speed.fits(24.5e9, gpu("rtx-4090")) is True and speed.fits(25e9, gpu("rtx-4090")) is False
    unknown = dataclasses.replace(gpu("rtx-4090"), memory_gb=None, device_memory_mib=None,
                                  unverified=("memory", "bf16", "price"))
    assert speed.fits(1e9, unknown) is None  # a GPU whose memory is unverified: no verdict


def test_speed_and_cost_follow_the_price_and_the_utilisation():
    j = job(method="lora")
    base = speed.speed(j, gpu("h100-sxm"), 1e9)
    assert base["cost_usd"] == pytest.approx(base["hours"] * I.lambda_h100_sxm_1x)
    half = speed.speed(j, gpu("h100-sxm"), 1e9, mfu=base["mfu"] / 2)
    assert half["hours"] == pytest.approx(2 * base["hours"])


def test_a_job_that_does_not_fit_has_no_speed_time_or_cost():
    """No number of hours trains a job the GPU cannot hold: on_gpu gives its fit and no figure; one whose
    GPU's memory is unverified keeps its figures."""
    big = job(model="llama-65b", method="full-bf16")
    found = speed.on_gpu(big, gpu("h100-sxm"), 1e9)
    assert found["fits"] is False and found["speed_model"] == "parts"
    assert all(found[k] is None for k in ("tokens_per_second", "hours", "cost_usd", "cost_eur", "hours_low"))
    small = speed.on_gpu(job(method="lora"), gpu("h100-sxm"), 1e9)
    assert small["fits"] is True and small["cost_eur"] > 0
    unknown = dataclasses.replace(gpu("h100-sxm"), memory_input=None, memory_gb=None, device_memory_mib=None,
                                  unverified=("memory",))
    assert speed.on_gpu(big, unknown, 1e9)["fits"] is None and speed.on_gpu(big, unknown, 1e9)["hours"] > 0


# ---------------------------------------------------------------- the command

def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "lib.plan", *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("model", DERIVED)
@pytest.mark.parametrize("method", memory.METHODS)
def test_every_derived_model_and_method_gives_json(model, method, capsys):
    targets = ",".join(memory.attention_targets(shapes.shape(shapes.load_config(model)))[1])  # c_attn for GPT-2
    assert main(["--config", model, "--method", method, "--targets", targets, "--seq", "512", "--gpu", "h100-sxm",
                 "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert set(found["memory_gb"]) >= {"weights", "gradients", "optimizer", "activations", "peak"}
    assert {"fits", "tokens_per_second", "hours", "cost_usd", "cost_eur"} <= set(found)
    assert found["memory_gb"]["peak"] > found["memory_gb"]["weights"] > 0


def test_a_job_that_does_not_fit_prints_no_speed_time_or_cost(capsys):
    """The JSON keeps its keys, `fits` false and the figures null; the table says why, in each language."""
    args = ["--config", "llama-65b", "--method", "full-bf16", "--seq", "2048", "--gpu", "h100-sxm"]
    assert main(args + ["--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["fits"] is False and found["mfu"] > 0
    assert {k: found[k] for k in ("tokens_per_second", "hours", "cost_usd", "cost_eur")} == dict.fromkeys(
        ("tokens_per_second", "hours", "cost_usd", "cost_eur"))
    from lib.core.words import words

    for lang in ("en", "es"):
        assert main(args + ["--lang", lang]) == 0
        table = capsys.readouterr().out
        assert words(lang)["plan"]["no_fit_speed"].format(gpu=gpu("h100-sxm").name) in table, table
        assert words(lang)["plan"]["speed"].split("{")[0] not in table


def test_the_table_is_in_the_reader_s_language():
    es, en = run("--config", "llama-3.2-3b", "--method", "lora", "--seq", "1024", "--gpu", "h100-sxm", "--lang", "es"), \
        run("--config", "llama-3.2-3b", "--method", "lora", "--seq", "1024", "--gpu", "h100-sxm")
    assert es.returncode == en.returncode == 0
    assert "Pico asignado en un paso" in es.stdout and "dólares" in es.stdout and "Peak allocated" in en.stdout


@pytest.mark.parametrize("args, es, en", [
    (["--config", "nope", "--method", "lora", "--seq", "512"], "ningún modelo llamado 'nope'", "no model named 'nope'"),
    (["--config", "llama-3.2-3b", "--method", "lora", "--rank", "0", "--seq", "512"], "rank debe ser", "rank must be"),
    (["--config", "llama-3.2-3b", "--method", "lora", "--targets", "wq", "--seq", "512"], "ningún módulo wq", "no module wq"),
    (["--config", "gpt2", "--method", "lora", "--seq", "4096"], "pasa de las", "beyond the model's"),
    (["--config", "llama-3.2-3b", "--method", "lora", "--seq", "512", "--gpu", "h300"], "GPU desconocida 'h300'", "unknown GPU 'h300'"),
    (["--config", "llama-3.2-3b", "--method", "sgd", "--seq", "512"], "método desconocido", "unknown method"),
    (["--method", "lora", "--seq", "512"], "falta --config", "--config is needed"),
    (["--config", "gpt-oss-20b", "--method", "lora", "--seq", "512", "--attention", "sdpa"], "usa --attention eager",
     "use --attention eager"),
])
def test_a_bad_input_is_one_line_in_the_chosen_language_and_exit_2(args, es, en):
    for lang, words in (("es", es), ("en", en)):
        done = run(*args, "--lang", lang)
        assert done.returncode == 2 and done.stdout == "", (done.stdout, done.stderr)
        assert len(done.stderr.strip().splitlines()) == 1 and words in done.stderr, done.stderr


@pytest.mark.parametrize("config, words", [({"model_type": "bert"}, "unknown architecture"),
                                           ({"model_type": "llama", "hidden_size": 64}, "lacks the field")])
def test_a_bad_config_file_is_refused(tmp_path, config, words):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config), encoding="utf8")
    done = run("--config", str(path), "--method", "lora", "--seq", "16")
    assert done.returncode == 2 and words in done.stderr


def test_the_gpu_table_s_prices_are_the_sourced_inputs_the_chapters_use():
    """A price the chapters hold as a sourced input is read from it: one price, and a what-if moves the planner's cost."""
    from lib.core.inputs import load_inputs
    from lib.plan.gpus import load_gpus

    i, gpus = load_inputs(), load_gpus()
    for key, name in (("h100-sxm", "lambda_h100_sxm_1x"), ("h100-pcie", "lambda_h100_pcie_1x"),
                      ("a100-80gb", "lambda_a100_sxm_8x")):
        assert (gpus[key].price_usd_per_hour, gpus[key].price_seen) == (i[name].value, i[name].seen), key
    dearer = i.replace("lambda_h100_sxm_1x", value=2 * i.lambda_h100_sxm_1x)
    plain, moved = (speed.speed(job(), gpus["h100-sxm"], 1e9, i=x)["cost_usd"] for x in (i, dearer))
    assert moved == pytest.approx(2 * plain)


# ---------------------------------------------------------------- mixtures of experts (gpt-oss, Mixtral)

TINY = {"hidden_size": 64, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16, "intermediate_size": 128,
        "vocab_size": 256, "num_hidden_layers": 4, "max_position_embeddings": 128, "num_local_experts": 4,
        "num_experts_per_tok": 2}
EXPERTS = ("experts.gate_up_proj", "experts.down_proj")


@pytest.mark.parametrize("model_type, targets, target_parameters, layers, peft_count", [
    ("gpt_oss", "all-linear", (), None, 14336), ("gpt_oss", ("q_proj", "v_proj"), (), None, 7168),
    ("gpt_oss", "all-linear", EXPERTS, (1, 3), 47104), ("mixtral", "all-linear", (), None, 123008),
    ("mixtral", ("q_proj", "v_proj"), (), None, 7168)])
def test_adapter_counts_are_peft_s_on_tiny_instances(model_type, targets, target_parameters, layers, peft_count):
    """PEFT 0.21.2's trainable parameters (rank 8) on tiny instances transformers 5.25 built from TINY,
    counted with /tmp/cvenv: gpt-oss's "all-linear" adapts the attention only, its experts through
    target_parameters (rank × experts × (in + out) each); Mixtral's "all-linear" adapts its router and
    both expert stacks too, the fused gate_up_proj at twice the rank (shapes.all_linear_parameters)."""
    s = shapes.shape({"model_type": model_type, **TINY})
    j = memory.Job(s, "lora", seq=32, rank=8, targets=targets, target_parameters=target_parameters, parameter_layers=layers,
                   attention="eager")
    assert memory.adapter_params(j) == peft_count


def test_bitsandbytes_quantises_a_mixture_of_experts_attention_only():
    """bitsandbytes 0.50.2 through transformers 5.25 on the same tiny instances (on the CPU): Params4bit
    for q, k, v, o only, 49,152 weights; experts and router stay parameters that
    prepare_model_for_kbit_training casts to fp32."""
    for model_type in ("gpt_oss", "mixtral"):
        s = shapes.shape({"model_type": model_type, **TINY})
        assert memory.quantised_params(s) == 49152
    oss = shapes.shape(shapes.load_config("gpt-oss-20b"))
    experts = shapes.param_count(oss)["total"] - shapes.param_count(dataclasses_replace(oss, experts=1))["total"]
    qlora = memory.parts(memory.Job(oss, "qlora", seq=512, attention="eager"))["weights"]
    assert qlora > 4 * experts  # the experts in fp32: more than twice what LoRA's bf16 weights hold for them


def dataclasses_replace(s, **kw):
    import dataclasses

    return dataclasses.replace(s, **kw)


COOKBOOK = dict(method="lora", seq=2048, batch=4, checkpointing=True, attention="eager", rank=8, targets="all-linear",
                target_parameters=EXPERTS, parameter_layers=(7, 15, 23))


def test_openai_s_gpt_oss_20b_example_fits_one_h100():
    """OpenAI's cookbook (fine-tune-transfomers.ipynb): gpt-oss-20b, LoRA r 8 on all-linear and the
    experts of layers 7, 15, 23, bf16, eager, checkpointing, batch 4 of 2,048 tokens, "designed to be
    run on a single H100 GPU with 80GB of memory"; without checkpointing it would not fit."""
    j = job("gpt-oss-20b", **COOKBOOK)
    peak = memory.parts(j)["peak"]
    assert speed.fits(peak, gpu("h100-sxm")) is True and 60e9 < peak < 75e9
    assert memory.adapter_params(j) == 15_040_512
    assert speed.fits(memory.parts(job("gpt-oss-20b", **(COOKBOOK | {"checkpointing": False})))["peak"], gpu("h100-sxm")) is False


def test_the_claims_run_openai_s_example_from_its_sourced_settings():
    """The first article's claim on gpt-oss (lib.chapters.article1.gptoss_ft_job) builds the planner's job
    from the sourced inputs (gptoss_ft_*, the cookbook's settings): the same job as COOKBOOK above; at
    those settings the peak is 69.2 GB, and the planner at PaLM's utilisation (the MFU path, `palm_minutes`)
    would do one run of the example's at most 2,048,000 tokens in about 1.3 minutes, against the 18 the
    example measures; the speed model, with no utilisation given, in about 3.5, with its range."""
    from lib.chapters.article1 import gptoss_ft, gptoss_ft_job

    assert gptoss_ft_job(I) == job("gpt-oss-20b", **COOKBOOK)
    found = gptoss_ft(I)
    assert round(found["peak"] / 1e9, 1) == 69.2 and found["fits"] is True  # 65.9 before the fp32 loss gradient (8 bytes a logit)
    assert found["peak_unchecked"] > 2 * gpu("h100-sxm").memory_gb * 1e9
    assert found["palm_minutes"] == pytest.approx(1.26, abs=0.01)
    assert 13 < I.gptoss_ft_minutes / found["palm_minutes"] < 15
    # The speed model's run, with its range: the measured 18 minutes is the range's top, since the
    # example's own published row (an upper bound on its speed) sets the range's low end.
    assert found["model_minutes_low"] < found["model_minutes"] < found["model_minutes_high"]
    assert found["model_minutes"] == pytest.approx(3.5, abs=0.1)
    # A setting the planner cannot hold refuses, in a message that names it.
    with pytest.raises(ValueError, match="gptoss_ft_checkpointing"):
        gptoss_ft_job(I.replace("gptoss_ft_checkpointing", value="yes"))
    with pytest.raises(ValueError, match="bits"):
        gptoss_ft_job(I.replace("gptoss_ft_weight_bits", value=32.0))


def test_adapted_experts_keep_their_whole_stack_per_layer():
    """A layer whose experts PEFT adapts keeps weight + B·A for the backward pass: each adapted layer
    adds about 6 bytes × experts × hidden × ffn (gate_up and down in bf16)."""
    s = shapes.shape(shapes.load_config("gpt-oss-20b"))
    base = memory.parts(job("gpt-oss-20b", **(COOKBOOK | {"checkpointing": False, "target_parameters": ()})))["activations"]
    one = memory.parts(job("gpt-oss-20b", **(COOKBOOK | {"checkpointing": False, "parameter_layers": (7,)})))["activations"]
    assert one - base > 6 * s.experts * s.hidden * s.intermediate


def test_a_mixture_of_experts_refuses_what_was_not_derived():
    with pytest.raises(ValueError, match="sdpa"):
        memory.parts(job("gpt-oss-20b", method="lora", attention="sdpa"))
    with pytest.raises(ValueError, match="experts"):
        job("mixtral-8x7b-instruct", method="lora", targets="all-linear", target_parameters=EXPERTS)
    assert memory.default_attention(shapes.shape(shapes.load_config("gpt-oss-20b"))) == "eager"
    assert memory.default_attention(shapes.shape(shapes.load_config("mixtral-8x7b-instruct"))) == "sdpa"


def test_the_command_takes_target_parameters_and_their_layers(capsys):
    args = ["--config", "gpt-oss-20b", "--method", "lora", "--rank", "8", "--targets", "all-linear", "--seq", "2048",
            "--batch", "4", "--checkpointing", "--json"]
    assert main(args) == 0
    plain = json.loads(capsys.readouterr().out)["memory_gb"]["adapters"]
    assert main(args + ["--target-parameters", "experts.gate_up_proj,experts.down_proj", "--parameter-layers", "7,15,23"]) == 0
    adapted = json.loads(capsys.readouterr().out)["memory_gb"]["adapters"]
    assert adapted == pytest.approx(4 * memory.adapter_params(job("gpt-oss-20b", **COOKBOOK)) / 1e9) and adapted > 3 * plain
    assert main(args + ["--target-parameters", "experts.gate_up_proj", "--parameter-layers", "7,x"]) == 2


# ---------------------------------------------------------------- GPT-2, and the derived coefficients

GPT2_TINY = {"model_type": "gpt2", "n_embd": 64, "n_head": 4, "n_layer": 3, "n_inner": 160, "vocab_size": 256,
             "n_positions": 128}


@pytest.mark.parametrize("targets, peft_count", [(("c_attn",), 6144), ("all-linear", 19968)])
def test_gpt2_adapter_counts_are_peft_s_on_a_tiny_instance(targets, peft_count):
    """PEFT 0.21.2's trainable parameters (rank 8) on a GPT-2 that transformers 5.25 built from GPT2_TINY,
    counted with /tmp/cvenv: c_attn, r × (h + 3h) a layer; "all-linear" takes GPT-2's Conv1D modules too
    (c_attn, attn.c_proj, c_fc, mlp.c_proj), not the output layer."""
    j = memory.Job(shapes.shape(GPT2_TINY), "lora", seq=32, rank=8, targets=targets)
    assert memory.adapter_params(j) == peft_count


def test_gpt2_124m_pretraining_is_planned_with_both_attentions(capsys):
    """GPT-2 124M (gpt2.json: 124,439,808 parameters, as transformers 5.25 builds GPT2LMHeadModel from it)
    in mixed precision at its 1,024 positions: sdpa by default; eager keeps the heads × sequence scores too."""
    s = shapes.shape(shapes.load_config("gpt2"))
    assert shapes.param_count(s)["total"] == 124_439_808 and memory.default_attention(s) == "sdpa"
    assert main(["--config", "gpt2", "--method", "full-mixed", "--seq", "1024", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)["memory_gb"]
    assert found["after_step"] == pytest.approx(16 * 124_439_808 / 1e9)
    sdpa, eager = (memory.parts(job("gpt2", "full-mixed", attention=a)) for a in ("sdpa", "eager"))
    assert found["activations"] == pytest.approx(sdpa["activations"] / 1e9)
    extra = eager["activations"] - sdpa["activations"]  # at least the bf16 scores, 2 bytes each, in every layer
    assert extra > 2 * s.layers * s.heads * 1024 * 1024


def test_gpt2_adapts_c_attn_or_every_linear_layer_and_refuses_the_rest():
    for targets in (("c_attn",), "all-linear", ("c_attn", "attn.c_proj", "c_fc", "mlp.c_proj")):
        assert memory.parts(job("gpt2", "lora", targets=targets))["peak"] > 0
    with pytest.raises(ValueError, match="no module q_proj"):
        job("gpt2", "lora", targets=("q_proj", "v_proj"))
    with pytest.raises(ValueError, match="on c_attn or on all-linear, not on c_fc"):
        memory.parts(job("gpt2", "lora", targets=("c_fc",)))
    with pytest.raises(ValueError, match="on q_proj,v_proj or on all-linear, not on o_proj"):
        memory.parts(job(method="lora", targets=("o_proj",)))


DENSE = [t for t in memory.coefficients() if t not in ("mixtral", "gpt_oss")]
NOISE = 0.5  # bytes per token and unit of a size: how far from zero a fit puts a size that keeps nothing


def wrong_signs(section: dict) -> dict[str, float]:
    """A dense model's coefficients of the wrong sign: a tensor kept takes bytes, so every coefficient is
    at least zero, within NOISE, but the first layer's (`first_*`), which say what it keeps less than the
    others (lib.plan.derive.FIRST) and are at most zero."""
    return {k: v for k, v in section.items() if k != "fit_worst_residual"
            and (v > NOISE if k.startswith("first_") else v < -NOISE)}


@pytest.mark.parametrize("model_type", DENSE)
def test_a_dense_model_s_coefficients_have_physical_signs_and_fit_their_counts(model_type):
    """Every counted instance of a dense model: no coefficient of the wrong sign, and the fit within 0.1 %
    of every count (an earlier eager fit without the repeated keys and values missed by 5 %, with a constant
    of −549 bytes a layer)."""
    assert {"llama", "mistral", "qwen2", "olmo2", "gpt2"} <= set(DENSE)
    for method, by_attention in memory.coefficients()[model_type].items():
        for attention, section in by_attention.items():
            assert not wrong_signs(section), (method, attention, wrong_signs(section))
            assert section["fit_worst_residual"] <= 0.001, (method, attention)


def test_a_coefficient_of_the_wrong_sign_is_caught():
    section = memory.coefficients()["llama"]["full"]["eager"]
    assert wrong_signs(section | {"layer_one": -549.12}) == {"layer_one": -549.12}
    assert wrong_signs(section | {"first_q": 1.95}) == {"first_q": 1.95}


def test_the_first_layer_keeps_less_with_adapters_on_q_and_v_alone():
    """With lora-qv the first layer's keys need no gradient: under eager attention it keeps no queries for
    q·kᵀ (2 bytes each, which every other layer keeps); without checkpointing the planner counts that."""
    s = shapes.shape(shapes.load_config("llama-3.2-3b"))
    first = memory.terms(s, "lora-qv.eager")["first"]
    assert first == pytest.approx(-2 * s.heads * s.head_dim, rel=0.05)
    assert memory.terms(s, "lora-all.eager")["first"] == 0
    eager = job(method="lora", attention="eager")
    layer, outside, step = memory._bytes(eager, "lora-qv.eager")
    assert memory.parts(eager)["activations"] == pytest.approx((s.layers * layer + outside + first) * 1024 + s.layers * step)


# ---------------------------------------------------------------- issue 37: the four memory cases, the speed model

def test_qlora_of_a_grouped_query_model_keeps_the_math_kernel_s_scores():
    """QLoRA of Llama 3.1 8B under sdpa runs PyTorch's math kernel (memory.math_attention): its fp32
    scores are kept, tens of GB at 4,096 tokens; LLaMA 7B's multi-head attention and LoRA are not affected."""
    gqa = job(model="llama-3.1-8b", method="qlora", seq=4096)
    assert memory.math_attention(gqa) and not memory.math_attention(job(model="llama-7b", method="qlora", seq=2048))
    assert not memory.math_attention(job(model="llama-3.1-8b", method="lora", seq=4096))
    extra = memory.parts(gqa)["peak"] - memory.parts(dataclasses.replace(gqa, method="lora"))["peak"]
    assert extra > 50e9  # 32 layers × 32 heads × 4,096² × 4 bytes = 68.7 GB of scores, less QLoRA's smaller weights


def test_gpt2_s_loss_counts_its_fp32_gradients_over_the_vocabulary():
    found = memory.parts(job(model="gpt2", method="full-mixed", seq=1024, batch=16))
    assert memory.LOSS_GRADIENT_BYTES == 8  # nll's and log-softmax's fp32 gradients together
    changed = 6 * 50257 * 16 * 1024
    assert found["peak"] > 19.7e9 + (8 * 50257 * 16 * 1024 - changed) * 0.99


def test_a_sequence_beyond_the_positions_is_computed_with_a_warning():
    beyond = job(model="llama-7b", method="lora", seq=4096)
    assert memory.parts(beyond)["peak"] > memory.parts(job(model="llama-7b", method="lora", seq=2048))["peak"]
    assert memory.warnings(beyond) == [("seq_beyond", {"seq": 4096, "positions": 2048})]
    assert memory.warnings(job(model="llama-7b", method="lora", seq=2048)) == []
    for lang, text in (("es", "4.096"), ("en", "4,096")):
        done = run("--config", "llama-7b", "--method", "lora", "--seq", "4096", "--lang", lang)
        assert done.returncode == 0 and text in done.stderr and "2" in done.stderr


def test_a_gpu_s_memory_is_what_its_driver_reports():
    from lib.plan.gpus import capacity_bytes

    assert capacity_bytes(gpu("rtx-4090"), I) == 24564 * 2**20 and capacity_bytes(gpu("h100-sxm"), I) == 81559 * 2**20
    # Qwen2.5-7B's LoRA with checkpointing at 23.1 GB and the CUDA context fits the card's 25.8 × 10^9 bytes
    assert speed.fits(23.1e9, gpu("rtx-4090")) is True
    assert capacity_bytes(gpu("a100-80gb"), I) == 80e9  # no reading found: the datasheet's GB
    # Derived from the sourced input: a what-if on the datasheet's GB moves the capacity in proportion, so that
    # a counterfactual on h100_sxm_memory moves every fit decision.
    assert capacity_bytes(gpu("h100-sxm"), I.scaled("h100_sxm_memory", 2)) == pytest.approx(2 * 81559 * 2**20)
    assert speed.fits(100e9, gpu("h100-sxm"), I) is False and speed.fits(100e9, gpu("h100-sxm"), I.scaled("h100_sxm_memory", 2)) is True


def test_every_gpu_has_a_peak_and_a_bandwidth():
    from lib.plan.gpus import load_gpus

    for g in load_gpus().values():
        assert g.bf16_flops and g.bandwidth, g.key
    assert gpu("h200").bf16_flops == gpu("h100-sxm").bf16_flops and gpu("h200").bandwidth == 4.8e12
    assert gpu("rtx-4090").bf16_flops == 165.2e12


def test_the_speed_model_by_part():
    from lib.plan import step_time

    h100 = gpu("h100-sxm")
    lora, qlora = job(model="llama-7b", method="lora", seq=512, batch=8), job(model="llama-7b", method="qlora", seq=512, batch=8)
    assert step_time.parts(qlora, h100)["memory"] > step_time.parts(lora, h100)["memory"]  # NF4 dequantised each pass
    checkpointed = dataclasses.replace(lora, checkpointing=True)
    assert step_time.parts(checkpointed, h100)["matmul"] > step_time.parts(lora, h100)["matmul"]  # the forward again
    full = dataclasses.replace(lora, method="full-bf16")
    assert step_time.parts(full, h100)["matmul"] > step_time.parts(lora, h100)["matmul"]  # weights' gradients
    long = job(model="llama-3.1-8b", method="qlora", seq=16384, checkpointing=True)
    short = job(model="llama-3.1-8b", method="qlora", seq=512, checkpointing=True)
    assert step_time.tokens_per_second(long, h100) < step_time.tokens_per_second(short, h100) / 2  # attention grows
    assert step_time.tokens_per_second(lora, gpu("h200")) > step_time.tokens_per_second(lora, gpu("a100-80gb"))


def test_the_range_from_residuals():
    from lib.plan import step_time

    assert step_time.range_from_residuals([(100, 50), (100, 120), (10, 10)]) == (0.5, 1.2)
    with pytest.raises(ValueError):
        step_time.range_from_residuals([])
    with pytest.raises(ValueError):
        step_time.range_from_residuals([(0, 1)])


def test_the_command_gives_the_speed_model_for_every_shipped_model_and_method_on_the_h200():
    for model in DERIVED:
        s = shapes.shape(shapes.load_config(model))
        for method in memory.METHODS:
            j = memory.Job(s, method, seq=512, attention=memory.default_attention(s),
                           targets=memory.attention_targets(s)[1])
            run_ = speed.speed(j, gpu("h200"), 1e9, i=I)
            assert run_["speed_model"] == "parts" and run_["tokens_per_second"] > 0, (model, method)
            assert run_["tokens_per_second_low"] < run_["tokens_per_second"] < run_["tokens_per_second_high"]
            assert run_["hours_low"] < run_["hours"] < run_["hours_high"]
    mfu = speed.speed(job(method="lora"), gpu("h200"), 1e9, mfu=0.4, i=I)
    assert mfu["speed_model"] == "mfu" and mfu["mfu"] == 0.4 and "tokens_per_second_low" not in mfu


def test_no_speed_constant_comes_from_a_published_test_row():
    """Each constant of the speed model names its primary source (a .bib key) or says it is unverified; no
    constant's source is the source of a published test row, and none names a row it was taken from."""
    from lib.core.inputs import bib_keys
    from lib.plan import published, step_time, validation

    test_sources = {r.source for r in published.load() if r.use == "test"}
    for name, section in step_time.constants().items():
        assert section.get("unverified") is True or section.get("source") in bib_keys(), name
        assert section.get("source") not in test_sources, name
        assert not set(section.get("rows", ())) - {r.key for r in published.fit_rows()}, name
    assert validation.constant_rows() == frozenset()


def test_the_speed_range_is_the_residuals_of_rows_no_constant_came_from(monkeypatch):
    """The range is the least (every predicted time row) and the most (the exact ones) of measured ÷ predicted,
    never typed in; it covers every such row, and a row a constant came from leaves it."""
    from lib.plan import step_time, validation

    rows = validation.range_rows()
    assert len(rows) >= 5 and all(r.row.quantity != "peak" and r.predicted for r in rows)
    low, high = validation.speed_range()
    assert low == min(r.measured / r.predicted for r in rows)
    assert high == max(r.measured / r.predicted for r in rows if r.bound == "exact")
    assert low < 1 < high
    tps = speed.speed(job("llama-7b", "lora"), gpu("h100-sxm"), 1e9)
    assert tps["tokens_per_second_low"] == pytest.approx(tps["tokens_per_second"] * low)
    assert tps["tokens_per_second_high"] == pytest.approx(tps["tokens_per_second"] * high)
    # A constant taken from a row takes that row out of the range.
    taken = rows[0].row.key
    planted = step_time.constants() | {"gemm": step_time.constants()["gemm"] | {"rows": [taken]}}
    monkeypatch.setattr(step_time, "constants", lambda: planted)
    assert taken not in {r.row.key for r in validation.range_rows()}


def test_the_peak_range_is_the_residuals_of_published_peaks_of_recipes_the_planner_models(monkeypatch):
    """The peak's range is the least and the most of measured ÷ predicted over the exact, predicted peaks whose
    recipe lists nothing the planner does not model, never typed in; a row that lists something leaves it,
    and a job whose range straddles a GPU's memory says so (speed.fit_margin), both ways."""
    from lib.plan import published, validation

    rows = validation.peak_range_rows()
    assert rows and all(r.row.quantity == "peak" and r.predicted and r.bound == "exact" and not r.row.differs
                        for r in rows)
    excluded = [r for r in validation.residuals() if r.row.quantity == "peak" and r.predicted and r.bound == "exact"
                and r.row.differs]
    assert excluded  # the torchtune recipes: a paged, quantised optimiser, a compiled or chunked loss…
    low, high = validation.peak_range()
    assert (low, high) == (min(r.measured / r.predicted for r in rows), max(r.measured / r.predicted for r in rows))
    assert low < 1 < high
    assert speed.peak_range(100e9) == pytest.approx((100e9 * low, 100e9 * high))
    # A row that lists a difference leaves the range.
    first = rows[0].row
    changed = tuple(dataclasses.replace(r, differs=("a fused optimiser",)) if r.key == first.key else r
                    for r in published.load())
    validation.residuals.cache_clear()
    monkeypatch.setattr(published, "load", lambda *a: changed)
    try:
        assert first.key not in {r.row.key for r in validation.peak_range_rows()}
    finally:
        monkeypatch.undo()
        validation.residuals.cache_clear()
    # Where the range straddles the H100's memory, the margin says which end disagrees with the figure.
    h100 = gpu("h100-sxm")
    room = speed.capacity_bytes(h100, load_inputs()) - speed.CUDA_CONTEXT_GB * 1e9  # what a peak may take
    assert speed.fits(room * 0.999, h100) and speed.fit_margin(room * 0.999, h100) == "not_at_top"
    assert speed.fits(room * 1.001, h100) is False and speed.fit_margin(room * 1.001, h100) == "at_bottom"
    assert speed.fit_margin(room / high * 0.999, h100) == speed.fit_margin(room / low * 1.001, h100) == ""


# ---------------------------------------------------------------- a node, optimisers, accumulation, price (issue 38)

def _node(**kw):
    s = shapes.shape(shapes.load_config("llama-7b"))
    return memory.Job(s, "full-mixed", seq=512, batch=4, **kw)


@pytest.mark.parametrize(("sharding", "divided"), [("ddp", ()), ("zero1", ("optimizer",)), ("zero2", ("gradients", "optimizer")),
                                                   ("zero3", ("weights", "gradients", "optimizer"))])
def test_each_sharding_divides_its_states_among_the_gpus(sharding, divided):
    one, node = memory.parts(_node()), memory.parts(_node(gpus=8, sharding=sharding))
    for part in ("weights", "gradients", "optimizer"):
        assert node[part] == pytest.approx(one[part] / 8 if part in divided else one[part]), part
    assert memory.parts(_node(gpus=1, sharding=sharding))["buffers"] == 0
    assert (node["buffers"] > 0) == (sharding != "zero1")


def test_the_node_is_faster_than_one_gpu_and_its_collectives_cost_time():
    from lib.plan import step_time
    g = gpu("a100-80gb")
    one = step_time.tokens_per_second(_node(), g)
    ddp = step_time.tokens_per_second(_node(gpus=8, sharding="ddp"), g)
    assert one < ddp <= 8 * one * (1 + 1e-9)  # DDP: each GPU's work unchanged, plus what the all-reduce does not overlap
    for sharding in ("ddp", "zero2", "zero3"):
        job = _node(gpus=8, sharding=sharding)
        assert step_time.parts(job, g)["communication"] > 0
        slow = dataclasses.replace(g, interconnect=g.interconnect / 100)  # a counterfactual: a slow link
        assert step_time.tokens_per_second(job, slow) < step_time.tokens_per_second(job, g)
        assert step_time.tokens_per_second(job, dataclasses.replace(g, interconnect=None)) is None


def test_the_node_says_why_it_is_not_simply_n_times_one_gpu(capsys):
    """ZeRO-3 on 8 A100s runs more than 8 times one GPU's tokens a second by the model: each GPU runs an
    eighth of the optimizer's step and of autocast's cast, which one GPU runs whole; a slow link makes the
    collectives show, and the node falls under 8 times. The command says which, with the seconds."""
    from lib.plan import step_time
    g = gpu("a100-80gb")
    job = _node(gpus=8, sharding="zero3")
    fast = step_time.scaling(job, g)
    assert fast["ratio"] > 8 and fast["saved"] > 0 and fast["exposed"] == 0
    slow = step_time.scaling(job, dataclasses.replace(g, interconnect=g.interconnect / 20))
    assert slow["ratio"] < 8 and slow["exposed"] > 0
    assert step_time.scaling(_node(), g) is None
    argv = "--config llama-7b --method full-mixed --seq 512 --batch 4 --gpu a100-80gb --gpus 8 --sharding zero3".split()
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert f"{fast['ratio']:.1f} times" in text and f"{fast['one']:,.0f} tokens a second" in text


def test_the_command_plans_a_node(capsys):
    argv = "--config llama-7b --method full-mixed --seq 512 --batch 4 --gpu a100-80gb --gpus 8 --sharding zero3 --json".split()
    assert main(argv) == 0
    node = json.loads(capsys.readouterr().out)
    assert main(argv[:10] + ["--json"]) == 0
    one = json.loads(capsys.readouterr().out)
    for part in ("weights", "gradients", "optimizer"):
        assert node["memory_gb"][part] == pytest.approx(one["memory_gb"][part] / 8)
    from lib.plan import step_time
    assert one["fits"] is False and node["fits"] is True  # 108 GB of states: one A100 cannot hold them
    assert node["tokens_per_second"] > step_time.tokens_per_second(_node(), gpu("a100-80gb"))
    assert node["memory_gb"]["peak"] == pytest.approx(sum(node["peak_terms_gb"].values()))
    assert node["cost_usd"] == pytest.approx(node["hours"] * node["price_usd_per_gpu_hour"] * 8)
    assert node["price_provider"] == "Lambda"
    assert main(argv + ["--price", "2.5"]) == 0
    priced = json.loads(capsys.readouterr().out)
    assert priced["cost_usd"] == pytest.approx(priced["hours"] * 2.5 * 8) and priced["price_provider"] is None
    assert main(["--config", "llama-7b", "--method", "lora", "--seq", "3000", "--json"]) == 0


def test_eight_bit_adamw_keeps_about_two_bytes_a_trainable_parameter():
    job = _node(optimizer="adamw-8bit")
    assert memory.parts(job)["optimizer"] / memory.trainable_params(job) == pytest.approx(2 + 8 / 256)
    assert memory.parts(_node())["optimizer"] / memory.trainable_params(job) == 8
    assert memory.parts(_node(optimizer="sgd"))["optimizer"] == 0
    assert memory.parts(_node(optimizer="paged-adamw-32bit"))["optimizer"] == memory.parts(_node())["optimizer"]


def test_paging_is_said_only_where_the_peak_without_the_paged_states_fits():
    g = gpu("a100-80gb")
    for gpus in (1, 2, 4, 8):
        job = _node(optimizer="paged-adamw-32bit", gpus=gpus, sharding="zero2")
        p = memory.parts(job)
        assert speed.fits_with_paging(job, g) == (not speed.fits(p["peak"], g) and speed.fits(p["peak"] - p["optimizer"], g))
        assert not speed.fits_with_paging(dataclasses.replace(job, optimizer="adamw"), g)


def test_accumulation_keeps_the_peak_from_two_micro_batches_on():
    for method in ("full-mixed", "lora"):
        job = dataclasses.replace(_node(), method=method)
        two, eight = (memory.parts(dataclasses.replace(job, grad_accum=k))["peak"] for k in (2, 8))
        assert two == eight >= memory.parts(job)["peak"]
    assert _node(grad_accum=8, gpus=4).global_batch == 4 * 8 * 4


@pytest.mark.parametrize(("argv", "lang", "named"), [
    (["--gpus", "0"], "en", "gpus"), (["--sharding", "zero9"], "es", "zero9"), (["--optimizer", "adam9"], "en", "adam9"),
    (["--gpu", "a100-80gb", "--price", "-1"], "es", "-1"), (["--grad-accum", "0"], "en", "grad_accum")])
def test_bad_node_input_is_one_line_in_the_readers_language(argv, lang, named, capsys):
    assert main(["--config", "llama-7b", "--method", "lora", "--seq", "512", "--lang", lang] + argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and named in err and "Traceback" not in err


def test_help_names_every_option_its_default_and_the_gpus():
    from lib.plan.__main__ import parser
    text = "".join(parser().format_help().split())  # argparse wraps lines, at hyphens too
    for name in ("--gpus", "--sharding", "--optimizer", "--grad-accum", "--price", "a100-80gb", "rtx-4090", "llama-7b",
                 "paged-adamw-8bit", "zero3", "default:16", "q_proj,v_proj"):
        assert name in text, name
    assert "default:None" not in text and "(default:" + "all)(default:" not in text, "a default said twice, or one that is none"
