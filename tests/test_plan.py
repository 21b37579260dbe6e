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


def test_checkpointing_keeps_less_and_costs_a_forward_pass():
    plain, checkpointed = job(seq=4096), job(seq=4096, checkpointing=True)
    assert memory.parts(checkpointed)["activations"] < memory.parts(plain)["activations"] / 4
    assert speed.flops_per_token(checkpointed) == pytest.approx(speed.flops_per_token(plain) * 8 / 6)


def test_the_methods_order_their_states():
    found = {m: memory.parts(job(method=m)) for m in memory.METHODS}
    assert found["full-mixed"]["optimizer"] == 2 * found["full-bf16"]["optimizer"]
    assert found["qlora"]["weights"] < found["lora"]["weights"] < found["full-mixed"]["weights"]
    assert found["lora"]["gradients"] < found["full-bf16"]["gradients"] / 100


def test_a_job_fits_a_gpu_by_its_peak_and_the_cuda_context():
    peak = memory.parts(job(model="llama-65b", method="full-bf16"))["peak"]
    assert speed.fits(peak, gpu("h100-sxm")) is False
    assert speed.fits(60e9, gpu("h100-sxm")) is True and speed.fits(79.5e9, gpu("h100-sxm")) is False
    assert speed.fits(1e9, gpu("rtx-4090")) is True and speed.fits(24e9, gpu("rtx-4090")) is False
    unknown = dataclasses.replace(gpu("rtx-4090"), memory_gb=None, unverified=("memory", "bf16", "price"))
    assert speed.fits(1e9, unknown) is None  # a GPU whose memory is unverified: no verdict


def test_speed_and_cost_follow_the_price_and_the_utilisation():
    j = job(method="lora")
    base = speed.speed(j, gpu("h100-sxm"), 1e9)
    assert base["cost_usd"] == pytest.approx(base["hours"] * I.lambda_h100_sxm_1x)
    half = speed.speed(j, gpu("h100-sxm"), 1e9, mfu=base["mfu"] / 2)
    assert half["hours"] == pytest.approx(2 * base["hours"])


# ---------------------------------------------------------------- the command

def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "lib.plan", *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("model", DERIVED)
@pytest.mark.parametrize("method", memory.METHODS)
def test_every_derived_model_and_method_gives_json(model, method, capsys):
    assert main(["--config", model, "--method", method, "--seq", "512", "--gpu", "h100-sxm", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert set(found["memory_gb"]) >= {"weights", "gradients", "optimizer", "activations", "peak"}
    assert {"fits", "tokens_per_second", "hours", "cost_usd", "cost_eur"} <= set(found)
    assert found["memory_gb"]["peak"] > found["memory_gb"]["weights"] > 0


def test_the_table_is_in_the_reader_s_language():
    es, en = run("--config", "llama-3.2-3b", "--method", "lora", "--seq", "1024", "--gpu", "h100-sxm", "--lang", "es"), \
        run("--config", "llama-3.2-3b", "--method", "lora", "--seq", "1024", "--gpu", "h100-sxm")
    assert es.returncode == en.returncode == 0
    assert "Pico asignado en un paso" in es.stdout and "dólares" in es.stdout and "Peak allocated" in en.stdout


@pytest.mark.parametrize("args, es, en", [
    (["--config", "nope", "--method", "lora", "--seq", "512"], "ningún modelo llamado 'nope'", "no model named 'nope'"),
    (["--config", "llama-3.2-3b", "--method", "lora", "--rank", "0", "--seq", "512"], "rank debe ser", "rank must be"),
    (["--config", "llama-3.2-3b", "--method", "lora", "--targets", "wq", "--seq", "512"], "ningún módulo wq", "no module wq"),
    (["--config", "llama-3.2-3b", "--method", "lora", "--seq", "999999"], "pasa de las", "beyond the model's"),
    (["--config", "llama-3.2-3b", "--method", "lora", "--seq", "512", "--gpu", "h300"], "GPU desconocida 'h300'", "unknown GPU 'h300'"),
    (["--config", "llama-3.2-3b", "--method", "sgd", "--seq", "512"], "método desconocido", "unknown method"),
    (["--method", "lora", "--seq", "512"], "falta --config", "--config is needed"),
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
