"""The results' schema: one record per configuration measured, self-contained (its configuration,
its environment, what was measured, and how the run ended), and a run file holding the records of one
run of the harness (lib/data/measured/<date>-<gpu>-<commit>.json).

Three memory readings, three meanings (PyTorch's CUDA memory management notes); each is in bytes:
- peak_allocated_bytes: torch.cuda.max_memory_allocated(), the tensors alive at the peak: what a memory
  model predicts;
- peak_reserved_bytes: torch.cuda.max_memory_reserved(), that plus the caching allocator's slack;
- device_used_bytes: total − torch.cuda.mem_get_info()[0] after the last step, the device as
  nvidia-smi sees it: what the allocator reserved plus the CUDA context (the planner allows 1 GB for it,
  lib.plan.speed.CUDA_CONTEXT_GB, an assumption this reading checks).
Besides them, weights_bytes (torch.cuda.memory_allocated() once the model is built, before the
optimizer; for qlora after prepare_model_for_kbit_training, and weights_before_prepare_bytes before it)
and after_step_bytes (memory_allocated() after the first optimizer step and zero_grad(set_to_none=True):
the weights and AdamW's states, the step's gradients freed).

A try on the CPU records step time only: every CUDA reading is null there, and so are the GPU's name,
driver and CUDA version. The peak of the device's memory is what torch reports, not what nvidia-smi
would show at the worst moment (device_used_bytes is read once, after the steps).
"""
from __future__ import annotations

import json
import math
import re
from datetime import datetime
from pathlib import Path

from lib.measure.configurations import ATTENTIONS, DTYPE, METHODS, Configuration

SCHEMA = "lib.measure/1"
OUTCOMES = ("ok", "oom", "error")
DEVICES = ("cuda", "cpu")
MEASURED_DIR = Path(__file__).resolve().parent.parent / "data" / "measured"

# Each field: its kind and whether it may be null. Kinds: text, count (a whole number ≥ 0), positive
# (a whole number ≥ 1), bytes (a whole number ≥ 0), seconds and rate (a finite number > 0), number (any
# finite number), flag (true or false), or a tuple of the texts allowed.
CONFIGURATION = {
    "name": ("text", False), "model": ("text", False), "method": (METHODS, False),
    "rank": ("positive", True), "targets": ("text", True), "lora_alpha": ("positive", True),
    "lora_dropout": ("number", True), "seq": ("positive", False), "batch": ("positive", False),
    "checkpointing": ("flag", False), "attention": (ATTENTIONS, False),
    "dtype": (tuple(dict.fromkeys(DTYPE.values())), False), "autocast": (("bfloat16",), True),
    "optimizer": ("text", False),
}
# The readings of CUDA's allocator: null on a CPU try, and when a run stopped before them.
CUDA_READINGS = ("weights_bytes", "weights_before_prepare_bytes", "after_step_bytes", "peak_allocated_bytes",
                 "peak_reserved_bytes", "device_used_bytes")
MEASURED = {
    **{name: ("bytes", True) for name in CUDA_READINGS},
    "step_seconds": ("seconds", True),  # the mean of the timed steps (all but the first)
    "tokens_per_second": ("rate", True),  # batch × seq / step_seconds
    "steps": ("count", False),  # the steps that completed, the first (untimed) one included
    "timed_steps": ("count", False),
    "parameters": ("count", True),  # every parameter of the model as built (for qlora, as bitsandbytes packs it)
    "trainable_parameters": ("count", True),
    "final_loss": ("number", True),
}
ENVIRONMENT = {
    "device": (DEVICES, False), "gpu": ("text", True), "gpu_memory_bytes": ("bytes", True),
    "driver": ("text", True), "cuda": ("text", True), "torch": ("text", False),
    "transformers": ("text", False), "peft": ("text", True), "bitsandbytes": ("text", True),
    "accelerate": ("text", True), "python": ("text", False), "date": ("date", False),
    "commit": ("commit", True), "dirty": ("flag", True),
}
RECORD = {"configuration": CONFIGURATION, "environment": ENVIRONMENT, "measured": MEASURED}
# The measured fields every completed run has, on any device, and on a GPU besides.
COMPLETED = ("step_seconds", "tokens_per_second", "parameters", "trainable_parameters", "final_loss")
COMPLETED_ON_GPU = ("weights_bytes", "after_step_bytes", "peak_allocated_bytes", "peak_reserved_bytes",
                    "device_used_bytes")
COMMIT = re.compile(r"^[0-9a-f]{40}$")
WHAT = {
    "text": "a non-empty text", "count": "a whole number ≥ 0", "positive": "a whole number ≥ 1",
    "bytes": "a whole number of bytes ≥ 0", "seconds": "a finite number of seconds > 0",
    "rate": "a finite number > 0", "number": "a finite number", "flag": "true or false",
    "date": "an ISO 8601 date and time with its offset (2026-12-01T10:00:00+00:00)",
    "commit": "a git commit's 40 hexadecimal digits",
}


def _is_whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_finite(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _fits(value, kind) -> bool:
    if isinstance(kind, tuple):
        return value in kind
    checks = {
        "text": lambda: isinstance(value, str) and bool(value.strip()),
        "count": lambda: _is_whole(value) and value >= 0,
        "bytes": lambda: _is_whole(value) and value >= 0,
        "positive": lambda: _is_whole(value) and value >= 1,
        "seconds": lambda: _is_finite(value) and value > 0,
        "rate": lambda: _is_finite(value) and value > 0,
        "number": lambda: _is_finite(value),
        "flag": lambda: isinstance(value, bool),
        "date": lambda: isinstance(value, str) and _is_dated(value),
        "commit": lambda: isinstance(value, str) and bool(COMMIT.match(value)),
    }
    return checks[kind]()


def _is_dated(text: str) -> bool:
    try:
        return datetime.fromisoformat(text).tzinfo is not None
    except ValueError:
        return False


def _describe(kind, nullable: bool) -> str:
    what = f"one of {', '.join(map(repr, kind))}" if isinstance(kind, tuple) else WHAT[kind]
    return what + (" or null" if nullable else "")


def _shown(value) -> str:
    return f"{value!r} ({type(value).__name__})"


def problems(record) -> list[str]:
    """Every problem of one record, each naming its field (section.field), or [] when it is valid."""
    if not isinstance(record, dict):
        return [f"a record is an object with {', '.join(RECORD)}, outcome and error; got {_shown(record)}"]
    found = []
    expected = {*RECORD, "outcome", "error"}
    found += [f"{key}: missing" for key in sorted(expected - record.keys())]
    found += [f"{key}: unknown field" for key in sorted(record.keys() - expected)]
    if "outcome" in record and record["outcome"] not in OUTCOMES:
        found.append(f"outcome: expected {_describe(OUTCOMES, False)}, got {_shown(record['outcome'])}")
    if "error" in record and record["error"] is not None and not _fits(record["error"], "text"):
        found.append(f"error: expected {_describe('text', True)}, got {_shown(record['error'])}")
    for section, fields in RECORD.items():
        part = record.get(section)
        if section not in record:
            continue
        if not isinstance(part, dict):
            found.append(f"{section}: expected an object, got {_shown(part)}")
            continue
        found += [f"{section}.{key}: missing" for key in fields if key not in part]
        found += [f"{section}.{key}: unknown field" for key in sorted(part.keys() - fields.keys())]
        for key, (kind, nullable) in fields.items():
            if key in part and not (part[key] is None and nullable) and not _fits(part[key], kind):
                found.append(f"{section}.{key}: expected {_describe(kind, nullable)}, got {_shown(part[key])}")
    return found or _consistency(record)


def _consistency(record: dict) -> list[str]:
    """What the fields say together, once each is well-typed."""
    found = []
    configuration, environment, measured = record["configuration"], record["environment"], record["measured"]
    try:
        planned = Configuration.from_dict(configuration)
    except ValueError as error:
        return [f"configuration: {error}"]
    for key, value in planned.as_dict().items():
        if configuration[key] != value:
            found.append(f"configuration.{key}: {_shown(configuration[key])} does not match the configuration's "
                         f"fields, which give {value!r}")
    outcome = record["outcome"]
    if outcome == "ok" and record["error"] is not None:
        found.append("error: a run that completed (outcome ok) has no error; got " + _shown(record["error"]))
    if outcome != "ok" and record["error"] is None:
        found.append(f"error: a run that ended {outcome!r} says why; got null")
    on_gpu = environment["device"] == "cuda"
    if on_gpu:
        found += [f"environment.{key}: a GPU run names it; got null" for key in ("gpu", "gpu_memory_bytes", "cuda")
                  if environment[key] is None]
    else:
        found += [f"environment.{key}: a CPU try has no {key}; expected null, got {_shown(environment[key])}"
                  for key in ("gpu", "gpu_memory_bytes", "driver", "cuda") if environment[key] is not None]
        found += [f"measured.{key}: a CPU try records step time only; expected null, got {_shown(measured[key])}"
                  for key in CUDA_READINGS if measured[key] is not None]
    if outcome == "ok":
        if measured["steps"] < 2 or measured["timed_steps"] < 1 or measured["timed_steps"] >= measured["steps"]:
            found.append(f"measured.steps: a completed run has at least 2 steps, the first untimed and at least one "
                         f"timed; got steps {measured['steps']}, timed_steps {measured['timed_steps']}")
        needed = COMPLETED + (COMPLETED_ON_GPU if on_gpu else ())
        found += [f"measured.{key}: a completed run records it; got null" for key in needed if measured[key] is None]
        if planned.method != "qlora" and measured["weights_before_prepare_bytes"] is not None:
            found.append("measured.weights_before_prepare_bytes: only qlora is prepared "
                         f"(prepare_model_for_kbit_training); expected null, got {_shown(measured['weights_before_prepare_bytes'])}")
        if planned.method == "qlora" and on_gpu and measured["weights_before_prepare_bytes"] is None:
            found.append("measured.weights_before_prepare_bytes: a qlora run on a GPU records the weights before "
                         "prepare_model_for_kbit_training; got null")
    peak, reserved = measured["peak_allocated_bytes"], measured["peak_reserved_bytes"]
    for key in ("weights_bytes", "after_step_bytes"):
        if peak is not None and measured[key] is not None and measured[key] > peak:
            found.append(f"measured.peak_allocated_bytes: the peak ({peak}) is below {key} ({measured[key]}), "
                         "which it includes")
    if peak is not None and reserved is not None and reserved < peak:
        found.append(f"measured.peak_reserved_bytes: what the allocator reserved ({reserved}) is below what it "
                     f"allocated ({peak})")
    if (measured["trainable_parameters"] is not None and measured["parameters"] is not None
            and measured["trainable_parameters"] > measured["parameters"]):
        found.append(f"measured.trainable_parameters: more ({measured['trainable_parameters']}) than the model's "
                     f"parameters ({measured['parameters']})")
    if (measured["step_seconds"] is not None and measured["tokens_per_second"] is not None
            and not math.isclose(measured["tokens_per_second"] * measured["step_seconds"],
                                 planned.seq * planned.batch, rel_tol=1e-6)):
        found.append(f"measured.tokens_per_second: {measured['tokens_per_second']} × {measured['step_seconds']} s is "
                     f"not the step's {planned.seq * planned.batch} tokens")
    return found


def _named(record) -> str:
    try:
        return record["configuration"]["name"]
    except (KeyError, TypeError):
        return "a record"


def validate(record) -> None:
    """Raise ValueError naming the record and, one per line, each field that is wrong and why."""
    found = problems(record)
    if found:
        raise ValueError(f"{_named(record)}: " + "\n  ".join(found))


def validate_run(run) -> None:
    """A run file: {"schema": SCHEMA, "records": [record, ...]}, at least one record, names unique."""
    if not isinstance(run, dict) or set(run) != {"schema", "records"}:
        raise ValueError(f"a run is an object with exactly 'schema' and 'records'; got {_shown(run)[:200]}")
    if run["schema"] != SCHEMA:
        raise ValueError(f"schema: expected {SCHEMA!r}, got {_shown(run['schema'])}")
    if not isinstance(run["records"], list) or not run["records"]:
        raise ValueError(f"records: expected a non-empty list, got {_shown(run['records'])[:200]}")
    for index, record in enumerate(run["records"]):
        try:
            validate(record)
        except ValueError as error:
            raise ValueError(f"records[{index}]: {error}") from None
    names = [record["configuration"]["name"] for record in run["records"]]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ValueError(f"records: each configuration once per run; twice: {', '.join(twice)}")


def load_runs(folder: Path = MEASURED_DIR, *, gpu_only: bool = True) -> dict[str, dict]:
    """Every run file (*.json) of a folder, by file name, each validated. lib/data/measured/ holds GPU
    measurements only (gpu_only): a CPU try there is refused."""
    runs = {}
    for path in sorted(Path(folder).glob("*.json")):
        try:
            run = json.loads(path.read_text(encoding="utf8"))
            validate_run(run)
        except ValueError as error:  # json.JSONDecodeError is a ValueError
            raise ValueError(f"{path}: {error}") from None
        if gpu_only:
            cpu = [r["configuration"]["name"] for r in run["records"] if r["environment"]["device"] != "cuda"]
            if cpu:
                raise ValueError(f"{path}: a CPU try ({cpu[0]}) in a folder of GPU measurements")
        runs[path.name] = run
    return runs


def records(runs: dict[str, dict]) -> list[dict]:
    """The records of every run, in file order."""
    return [record for run in runs.values() for record in run["records"]]
