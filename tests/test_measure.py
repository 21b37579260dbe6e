"""The measurement harness's pure parts (lib/measure, issue 29 item 6), with the book's own
requirements and no torch: the list of configurations, the results' schema, the comparison with a
memory model, the run's helpers, and the committed measurements (lib/data/measured/), when there are."""
import copy
import dataclasses
import itertools
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from lib.measure import compare, configurations as conf, harness as run, schema
from lib.measure.configurations import Configuration

ROOT = Path(__file__).resolve().parent.parent
CPU_FIXTURE = Path(__file__).resolve().parent / "fixtures" / "measure-cpu-gpt2.json"
GB = 10**9


# ------------------------------------------------------------------------------ configurations

def test_every_combination_is_measured_or_skipped_with_its_reason():
    every = conf.combinations()
    measured, skipped = conf.configurations(), conf.skipped()
    assert len(every) == len(set(every)), "a combination listed twice"
    assert set(measured) | {c for c, _ in skipped} == set(every)
    assert not set(measured) & {c for c, _ in skipped}
    assert all(isinstance(reason, str) and len(reason) > 20 for _, reason in skipped)


def test_every_configuration_has_its_own_name():
    names = [c.name for c in conf.combinations()]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
    assert {c.name for c in conf.configurations()} >= {
        "llama-7b/full-mixed/seq1024/batch1/checkpointing/sdpa",
        "llama-3.1-8b/lora-r16-all-linear/seq4096/batch1/no-checkpointing/sdpa",
        "gpt-oss-20b/qlora-r16-q_proj,v_proj/seq4096/batch1/checkpointing/eager",
        "llama-7b/lora-r16-q_proj,v_proj/seq4096/batch1/no-checkpointing/eager",
    }


@pytest.mark.parametrize("model", conf.GPU_MODELS)
def test_each_gpu_model_has_every_method_checkpointing_and_sequence(model):
    """Issue 29 asks for each method, with and without checkpointing, at 1,024 and 4,096 tokens: each
    such combination is measured, or skipped with a reason."""
    listed = conf.combinations([model])
    measured = set(conf.configurations([model]))
    for method, checkpointing, seq in itertools.product(conf.METHODS, (True, False), conf.SEQUENCES):
        same = [c for c in listed if (c.method, c.checkpointing, c.seq) == (method, checkpointing, seq)]
        assert same, f"{model} {method} checkpointing={checkpointing} seq={seq} is not listed"
        for c in same:
            assert c in measured or conf.skip_reason(c), c.name
        if method in conf.ADAPTER_METHODS:
            assert {c.targets for c in same} == {conf.MODELS[model].query_value, "all-linear"}
            assert {c.rank for c in same} == {16}


def test_the_configuration_counts():
    assert len(conf.configurations(["llama-7b"])) == 6 * 4 + 4  # 6 method × target variants, eager LoRA once
    assert len(conf.configurations(["llama-3.1-8b"])) == 6 * 4
    assert len(conf.configurations(["gpt-oss-20b"])) == 4 * 4  # full-mixed, full-bf16 skipped
    assert len(conf.configurations(["gpt2"])) == 6 * 2  # no 4,096 tokens
    assert len(conf.configurations()) == 28 + 24 + 16 + 12


def test_only_two_reasons_skip_a_combination():
    reasons = {c.name: reason for c, reason in conf.skipped()}
    gpt_oss = [name for name in reasons if name.startswith("gpt-oss-20b/")]
    assert sorted({name.split("/")[1] for name in gpt_oss}) == ["full-bf16", "full-mixed"]
    assert "16 × 20.9e9 = 334 GB" in reasons["gpt-oss-20b/full-mixed/seq1024/batch1/checkpointing/eager"]
    assert "8 × 20.9e9 = 167 GB" in reasons["gpt-oss-20b/full-bf16/seq4096/batch1/no-checkpointing/eager"]
    gpt2 = [name for name in reasons if name.startswith("gpt2/")]
    assert gpt2 and all("/seq4096/" in name and "1,024 learned positions" in reasons[name] for name in gpt2)
    assert len(reasons) == len(gpt_oss) + len(gpt2)


def test_the_skip_rule_skips_a_larger_model_and_keeps_a_smaller(monkeypatch):
    big = conf.Model("big", 9e9, "a planted model", "q_proj,v_proj", ("sdpa",))
    monkeypatch.setitem(conf.MODELS, "big", big)
    # full-mixed: 16 × 9e9 = 144 GB > 141 GB; full-bf16: 8 × 9e9 = 72 GB
    assert [c.method for c, _ in conf.skipped(["big"])] == ["full-mixed"] * 4
    monkeypatch.setitem(conf.MODELS, "big", dataclasses.replace(big, parameters=8.8e9))  # 140.8 GB
    assert conf.skipped(["big"]) == []


@pytest.mark.parametrize("method, dtype, autocast", [
    ("full-mixed", "float32", "bfloat16"), ("full-bf16", "bfloat16", None),
    ("lora", "bfloat16", "bfloat16"), ("qlora", "nf4", "bfloat16")])
def test_each_method_holds_its_weights_and_runs_its_passes_as_issue_29_states(method, dtype, autocast):
    found = [c for c in conf.configurations() if c.method == method]
    assert found and {(c.dtype, c.autocast, c.optimizer) for c in found} == {(dtype, autocast, "adamw-fused")}
    adapters = {(c.rank, c.lora_alpha, c.lora_dropout) for c in found}
    assert adapters == ({(16, 32, 0.0)} if method in ("lora", "qlora") else {(None, None, None)})


def test_the_attention_each_model_runs():
    by_model = {m: {(c.attention, c.method, c.targets) for c in conf.configurations([m])} for m in conf.GPU_MODELS}
    assert {a for a, _, _ in by_model["gpt-oss-20b"]} == {"eager"}  # transformers runs gpt-oss eager
    assert {a for a, _, _ in by_model["llama-3.1-8b"]} == {"sdpa"}
    assert {(m, t) for a, m, t in by_model["llama-7b"] if a == "eager"} == {("lora", "q_proj,v_proj")}


def test_the_configurations_run_in_groups_that_share_a_model():
    groups = run.groups(conf.configurations(list(conf.GPU_MODELS)))
    assert len(groups) == 6 + 1 + 6 + 4
    keys = [conf.group_key(g[0]) for g in groups]
    assert len(keys) == len(set(keys)), "a model built twice"
    for group in groups:
        assert {conf.group_key(c) for c in group} == {conf.group_key(group[0])}
        assert [(c.seq, not c.checkpointing) for c in group] == sorted((c.seq, not c.checkpointing) for c in group)


def test_a_configuration_refuses_what_it_cannot_be():
    base = dict(model="llama-7b", seq=1024, checkpointing=False, attention="sdpa")
    lora = dict(rank=16, targets="q_proj,v_proj", lora_alpha=32, lora_dropout=0.0)
    with pytest.raises(ValueError, match="method must be one of"):
        Configuration(method="lora-ish", **base)
    with pytest.raises(ValueError, match="lora needs a rank of at least 1, got 0"):
        Configuration(method="lora", **base, **{**lora, "rank": 0})
    with pytest.raises(ValueError, match="qlora needs target modules"):
        Configuration(method="qlora", **base, **{**lora, "targets": ""})
    with pytest.raises(ValueError, match="full-bf16 trains no adapters"):
        Configuration(method="full-bf16", **base, rank=16)
    with pytest.raises(ValueError, match="seq must be a whole number of at least 1, got True"):
        Configuration(method="full-bf16", **{**base, "seq": True})
    with pytest.raises(ValueError, match="attention must be one of sdpa, eager"):
        Configuration(method="full-bf16", **{**base, "attention": "flash"})
    with pytest.raises(ValueError, match="unknown model 'llama-9b'"):
        conf.configurations(["llama-9b"])


def test_a_configuration_reads_back_from_its_record():
    for c in conf.combinations():
        assert Configuration.from_dict(c.as_dict()) == c
    fields = conf.configurations()[0].as_dict()
    del fields["seq"]
    with pytest.raises(ValueError, match="configuration lacks seq"):
        Configuration.from_dict(fields)


# ------------------------------------------------------------------------------------- schema

def gpu_environment() -> dict:
    return {"device": "cuda", "gpu": "NVIDIA H200", "gpu_memory_bytes": 150_754_820_096, "driver": "580.159.04",
            "cuda": "13.0", "torch": "2.11.0+cu130", "transformers": "5.17.0", "peft": "0.21.0",
            "bitsandbytes": "0.50.2", "accelerate": "1.15.0", "python": "3.12.3",
            "date": "2026-12-05T10:00:00+00:00", "commit": "26cb569c3ea08d7ccea89f7669279323a480e520",
            "dirty": False}


def gpu_record(name: str = "llama-7b/lora-r16-q_proj,v_proj/seq1024/batch1/checkpointing/sdpa") -> dict:
    """A synthetic GPU record with plausible readings (LLaMA 7B, LoRA on q and v: 13.5 GB of weights)."""
    c = next(c for c in conf.configurations() if c.name == name)
    return {"configuration": c.as_dict(), "environment": gpu_environment(), "outcome": "ok", "error": None,
            "measured": {"weights_bytes": 13_486_000_000, "weights_before_prepare_bytes": None,
                         "after_step_bytes": 13_520_000_000, "peak_allocated_bytes": 15_100_000_000,
                         "peak_reserved_bytes": 16_800_000_000, "device_used_bytes": 17_900_000_000,
                         "step_seconds": 0.25, "tokens_per_second": c.seq / 0.25, "steps": 4, "timed_steps": 3,
                         "parameters": 6_742_609_920, "trainable_parameters": 4_194_304, "final_loss": 10.6}}


def cpu_record() -> dict:
    return json.loads(CPU_FIXTURE.read_text(encoding="utf8"))["records"][0]


def test_a_valid_gpu_record_and_the_cpu_try_pass():
    schema.validate(gpu_record())
    schema.validate(cpu_record())
    assert cpu_record()["environment"]["device"] == "cpu"
    assert all(cpu_record()["measured"][key] is None for key in schema.CUDA_READINGS)


FIELDS = [(section, key) for section, fields in schema.RECORD.items() for key in fields]


@pytest.mark.parametrize("section, key", FIELDS + [(None, "outcome"), (None, "error")],
                         ids=lambda v: str(v))
def test_each_missing_field_is_named(section, key):
    record = gpu_record()
    del (record[section] if section else record)[key]
    path = f"{section}.{key}" if section else key
    with pytest.raises(ValueError, match=r"^(llama-7b/|a record: ).*\b" + re.escape(path) + ": missing"):
        schema.validate(record)


# A value of the wrong kind for each kind of field.
WRONG = {"text": 7, "count": 1.5, "positive": 0, "bytes": -1, "seconds": 0, "rate": float("nan"),
         "number": "ten", "flag": "yes", "date": "2026-12-05", "commit": "26cb569"}


@pytest.mark.parametrize("section, key", FIELDS, ids=lambda v: str(v))
def test_each_ill_typed_field_is_named_with_what_it_expects(section, key):
    kind, _ = schema.RECORD[section][key]
    record = gpu_record()
    record[section][key] = "not one of them" if isinstance(kind, tuple) else WRONG[kind]
    with pytest.raises(ValueError, match=rf"{section}\.{key}: expected .*, got "):
        schema.validate(record)


def test_a_true_is_not_a_number_and_a_number_is_not_a_flag():
    record = gpu_record()
    record["measured"]["steps"] = True
    record["configuration"]["checkpointing"] = 1
    message = schema.problems(record)
    assert message == ["configuration.checkpointing: expected true or false, got 1 (int)",
                       "measured.steps: expected a whole number ≥ 0, got True (bool)"]


@pytest.mark.parametrize("change, message", [
    (lambda r: r["measured"].update(peak_allocated_bytes=13_000_000_000), r"the peak \(13000000000\) is below weights_bytes"),
    (lambda r: r["measured"].update(peak_reserved_bytes=15_000_000_000), r"reserved \(15000000000\) is below what it allocated"),
    (lambda r: r["measured"].update(tokens_per_second=5000.0), "is not the step's 1024 tokens"),
    (lambda r: r["measured"].update(trainable_parameters=10**10), r"more \(10000000000\) than the model's parameters"),
    (lambda r: r["measured"].update(peak_allocated_bytes=None), "measured.peak_allocated_bytes: a completed run records it"),
    (lambda r: r["measured"].update(step_seconds=None), "measured.step_seconds: a completed run records it"),
    (lambda r: r["measured"].update(timed_steps=4), "at least 2 steps, the first untimed"),
    (lambda r: r["measured"].update(weights_before_prepare_bytes=5), "only qlora is prepared"),
    (lambda r: r["configuration"].update(seq=4096), "configuration.name: .* does not match"),
    (lambda r: r["configuration"].update(dtype="float32"), "configuration.dtype: 'float32' .* which give 'bfloat16'"),
    (lambda r: r["configuration"].update(rank=None), "lora needs a rank of at least 1"),
    (lambda r: r.update(error="CUDA out of memory"), "a run that completed .* has no error"),
    (lambda r: r.update(outcome="oom"), "a run that ended 'oom' says why"),
    (lambda r: r["environment"].update(gpu=None), "environment.gpu: a GPU run names it"),
    (lambda r: r["environment"].update(date="2026-12-05T10:00:00"), r"environment.date: expected an ISO 8601 date"),
    (lambda r: r["measured"].update(colour="blue"), "measured.colour: unknown field"),
    (lambda r: r.update(notes="x"), "notes: unknown field"),
])
def test_fields_that_disagree_are_refused(change, message):
    record = gpu_record()
    change(record)
    with pytest.raises(ValueError, match=message):
        schema.validate(record)


def test_a_cpu_try_records_step_time_only():
    record = cpu_record()
    record["measured"]["peak_allocated_bytes"] = 10**9
    with pytest.raises(ValueError, match="measured.peak_allocated_bytes: a CPU try records step time only"):
        schema.validate(record)
    record = cpu_record()
    record["environment"]["gpu"] = "NVIDIA H200"
    with pytest.raises(ValueError, match="environment.gpu: a CPU try has no gpu"):
        schema.validate(record)


def test_a_qlora_run_on_a_gpu_records_the_weights_before_prepare():
    record = gpu_record("llama-7b/qlora-r16-q_proj,v_proj/seq1024/batch1/checkpointing/sdpa")
    record["measured"].update(weights_bytes=4_500_000_000, after_step_bytes=4_600_000_000)
    with pytest.raises(ValueError, match="a qlora run on a GPU records the weights before"):
        schema.validate(record)
    record["measured"]["weights_before_prepare_bytes"] = 3_900_000_000
    schema.validate(record)


def test_a_record_that_ran_out_of_memory_passes_without_its_step_time():
    record = gpu_record()
    record.update(outcome="oom", error="CUDA out of memory. Tried to allocate 2.00 GiB")
    record["measured"].update(step_seconds=None, tokens_per_second=None, final_loss=None, after_step_bytes=None,
                              steps=0, timed_steps=0)
    schema.validate(record)


def test_a_run_file_holds_each_configuration_once():
    run_file = {"schema": schema.SCHEMA, "records": [gpu_record()]}
    schema.validate_run(run_file)
    with pytest.raises(ValueError, match="each configuration once per run; twice: llama-7b/lora"):
        schema.validate_run({**run_file, "records": [gpu_record(), gpu_record()]})
    with pytest.raises(ValueError, match="schema: expected 'lib.measure/1', got 'lib.measure/0'"):
        schema.validate_run({**run_file, "schema": "lib.measure/0"})
    with pytest.raises(ValueError, match="records: expected a non-empty list"):
        schema.validate_run({**run_file, "records": []})
    broken = gpu_record()
    del broken["measured"]["steps"]
    with pytest.raises(ValueError, match=r"records\[1\]: llama-7b/.*measured.steps: missing"):
        schema.validate_run({**run_file, "records": [
            gpu_record("llama-7b/lora-r16-q_proj,v_proj/seq4096/batch1/checkpointing/sdpa"), broken]})


def test_load_runs_validates_each_file_and_refuses_a_cpu_try(tmp_path):
    good = {"schema": schema.SCHEMA, "records": [gpu_record()]}
    (tmp_path / "a.json").write_text(json.dumps(good))
    assert list(schema.load_runs(tmp_path)) == ["a.json"]
    assert schema.records(schema.load_runs(tmp_path)) == good["records"]
    (tmp_path / "b.json").write_text(CPU_FIXTURE.read_text(encoding="utf8"))
    with pytest.raises(ValueError, match=r"b\.json: a CPU try \(gpt2/.*\) in a folder of GPU measurements"):
        schema.load_runs(tmp_path)
    assert len(schema.load_runs(tmp_path, gpu_only=False)) == 2
    (tmp_path / "c.json").write_text("{")
    with pytest.raises(ValueError, match=r"c\.json: Expecting"):
        schema.load_runs(tmp_path, gpu_only=False)


def test_the_committed_measurements_validate_and_are_of_the_list():
    """lib/data/measured/: GPU runs only, each valid, each configuration one the harness lists (at the
    listed sequences). Passes with no run committed yet; fails on any bad one."""
    listed = set(conf.configurations())
    for record in schema.records(schema.load_runs()):
        assert Configuration.from_dict(record["configuration"]) in listed, record["configuration"]["name"]


# ------------------------------------------------------------------------------------ compare

def test_residuals_against_a_model_of_the_caller():
    seen = []

    def predict(configuration):
        seen.append(configuration)
        return {"checkpointing": 1.05, "no-checkpointing": 1.25}[configuration.name.split("/")[4]] * 15.1 * GB

    records = [gpu_record(), gpu_record("llama-7b/lora-r16-q_proj,v_proj/seq1024/batch1/no-checkpointing/sdpa")]
    oom = gpu_record("llama-7b/lora-r16-q_proj,v_proj/seq4096/batch1/checkpointing/sdpa")
    oom.update(outcome="oom", error="CUDA out of memory")
    rows = compare.residuals(records + [oom, cpu_record()], predict)
    assert [type(c) for c in seen] == [Configuration, Configuration]  # none for the oom and the CPU try
    assert [row["name"].split("/")[4] for row in rows] == ["checkpointing", "no-checkpointing"]
    assert [round(row["residual"], 6) for row in rows] == [0.05, 0.25]
    assert [row["within"] for row in rows] == [True, False]
    assert {row["tolerance"] for row in rows} == {0.10}
    assert rows[0]["measured"] == 15_100_000_000 and rows[0]["predicted"] == pytest.approx(15.855e9)


def test_each_reading_has_its_tolerance():
    assert set(compare.TOLERANCE) == set(schema.CUDA_READINGS) - {"weights_before_prepare_bytes"}
    assert compare.TOLERANCE["weights_bytes"] < compare.TOLERANCE["peak_allocated_bytes"] < compare.TOLERANCE["device_used_bytes"]
    rows = compare.residuals([gpu_record()], lambda c: 13_486_000_000 * 1.015, reading="weights_bytes")
    assert rows[0]["tolerance"] == 0.01 and rows[0]["within"] is False
    rows = compare.residuals([gpu_record()], lambda c: 13_486_000_000 * 1.005, reading="weights_bytes")
    assert rows[0]["within"] is True


def test_a_model_that_declines_a_configuration_leaves_its_residual_empty():
    rows = compare.residuals([gpu_record()], lambda c: None)
    assert rows[0]["predicted"] is None and rows[0]["residual"] is None and rows[0]["within"] is None


def test_compare_refuses_what_is_not_bytes():
    with pytest.raises(ValueError, match="predict gave -1, not a positive number of bytes"):
        compare.residuals([gpu_record()], lambda c: -1)
    with pytest.raises(ValueError, match="unknown reading 'peak_bytes'"):
        compare.residuals([gpu_record()], lambda c: 1, reading="peak_bytes")
    assert compare.residual(11, 10) == pytest.approx(0.1) and compare.residual(9, 10) == pytest.approx(-0.1)


# -------------------------------------------------------------------------------- run helpers

def test_the_pure_parts_and_the_script_import_no_torch():
    code = ("import sys, lib.measure.harness, lib.measure.compare, lib.measure.schema; "
            "print(sorted(m for m in ('torch', 'transformers', 'peft', 'bitsandbytes') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_list_prints_every_configuration_and_skip(capsys):
    assert run.main(["--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len([line for line in lines if line.startswith(("llama", "gpt-oss"))]) == 68
    assert len([line for line in lines if line.startswith("skipped gpt-oss-20b/full-")]) == 8
    assert lines[-1] == "68 configurations in 17 models built"


def test_select_a_try_on_the_cpu():
    chosen = run.select(["gpt2"], ["full-bf16", "lora"], [128])
    assert [c.name for c in chosen] == [
        "gpt2/full-bf16/seq128/batch1/checkpointing/sdpa", "gpt2/full-bf16/seq128/batch1/no-checkpointing/sdpa",
        "gpt2/lora-r16-c_attn/seq128/batch1/checkpointing/sdpa",
        "gpt2/lora-r16-c_attn/seq128/batch1/no-checkpointing/sdpa",
        "gpt2/lora-r16-all-linear/seq128/batch1/checkpointing/sdpa",
        "gpt2/lora-r16-all-linear/seq128/batch1/no-checkpointing/sdpa"]
    assert run.select(["gpt2"], seqs=[4096]) == []  # beyond GPT-2's positions
    assert len(run.select(["llama-7b"], checkpointing="off", attentions=["eager"])) == 2
    assert [c.name for c in run.select(match=["gpt-oss", "qlora-r16-all", "seq4096", "/checkpointing"])] == [
        "gpt-oss-20b/qlora-r16-all-linear/seq4096/batch1/checkpointing/eager"]
    with pytest.raises(ValueError, match="checkpointing is both, on or off"):
        run.select(checkpointing="yes")


def test_a_run_file_is_named_by_date_gpu_and_commit():
    assert run.output_path(Path("out"), gpu_environment()) == Path("out/2026-12-05T100000Z-nvidia-h200-26cb569.json")
    cpu = {**gpu_environment(), "device": "cpu", "gpu": None, "commit": None}
    assert run.output_path(Path("out"), cpu).name == "2026-12-05T100000Z-cpu-nocommit.json"


def test_a_cpu_try_may_not_write_into_the_measurements():
    assert "holds GPU runs only" in run.refuses_output(schema.MEASURED_DIR, "cpu")
    assert run.refuses_output(schema.MEASURED_DIR, "cuda") is None
    assert run.refuses_output(Path("/tmp/try"), "cpu") is None


def test_a_model_config_is_read_as_shipped(tmp_path):
    llama = {"model_type": "llama", "hidden_size": 4096, "quantization_config": {"quant_method": "mxfp4"}}
    assert run.model_config_dict(llama) == {"model_type": "llama", "hidden_size": 4096}
    assert run.model_config_dict({"source": "model card", "config": llama}) == {"model_type": "llama", "hidden_size": 4096}
    with pytest.raises(ValueError, match="x.json: not a Hugging Face config"):
        run.model_config_dict({"hidden_size": 4096}, "x.json")
    (tmp_path / "llama-7b.json").write_text(json.dumps(llama))
    assert run.load_model_config("llama-7b", tmp_path)["hidden_size"] == 4096
    assert run.load_model_config("gpt2", tmp_path) == {"model_type": "gpt2"}  # GPT2Config() defaults
    with pytest.raises(FileNotFoundError, match="no config for gpt-oss-20b: expected .*gpt-oss-20b.json"):
        run.load_model_config("gpt-oss-20b", tmp_path)


def test_the_planners_configs_are_read_by_the_harness():
    """Every model the GPU run measures has its config shipped by the planner (lib/data/models,
    SOURCES.toml), and the harness reads it from there."""
    types = {"llama-7b": "llama", "llama-3.1-8b": "llama", "gpt-oss-20b": "gpt_oss"}
    assert set(types) == set(conf.GPU_MODELS)
    shipped = {m for m in types if (run.MODELS_DIR / f"{m}.json").exists()}
    assert set(types) - shipped == set()
    for model in shipped:
        assert run.load_model_config(model)["model_type"] == types[model]


def test_the_harness_counts_are_the_shipped_configs_counts():
    """The models whose count configurations.py gives exactly (a checkpoint's count, not a card's
    rounded figure) have the planner's count from the shipped config.json: one count, two readers."""
    from lib.plan import shapes
    for name in ("llama-7b", "llama-3.1-8b", "gpt2"):
        counted = shapes.param_count(shapes.shape(shapes.load_config(name)))["total"]
        assert conf.MODELS[name].parameters == counted, name


def test_without_torch_a_run_says_what_to_install(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # as on a machine without it: `import torch` fails
    assert run.main(["--models", "gpt2", "--seqs", "8", "--out", "/tmp/unused"]) == 2
    assert "is not installed: `make measure` installs requirements-measure.txt" in capsys.readouterr().err
