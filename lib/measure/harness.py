"""The measurement harness: `make measure`, or `python -m lib.measure.harness [--models ...] [--out DIR]`.

For each configuration of lib.measure.configurations, on a GPU: the model built from its config with
random weights (nothing downloaded: memory and speed do not depend on the weights' values), a few
training steps (AdamW fused, a causal language-model loss over the whole vocabulary, random token ids
at the configured shape), and the readings of lib.measure.schema, written with the environment (GPU,
driver, library versions, date, commit) to one JSON file per run in lib/data/measured/.

torch, transformers, peft and bitsandbytes (requirements-measure.txt) are imported only when a run
starts: `--list` and the helpers the tests use need none of them. On a machine without CUDA the
harness runs on the CPU as a try (step time only; it refuses to write such a try into
lib/data/measured/).
"""
from __future__ import annotations

import argparse
import contextlib
import gc
import json
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass, field
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path

from lib.measure.configurations import (
    ALL_LINEAR, GPU_MODELS, METHODS, MODELS, Configuration, configurations, group_key, skip_reason,
    skipped, with_sequence)
from lib.measure.schema import MEASURED_DIR, SCHEMA, problems, validate_run

ROOT = Path(__file__).resolve().parents[2]
MODELS_DIR = ROOT / "lib" / "data" / "models"
STEPS = 4
LEARNING_RATE = 1e-5
LIBRARIES = ("torch", "transformers", "peft", "bitsandbytes", "accelerate")


# ------------------------------------------------------------------ pure helpers (no torch needed)

def model_config_dict(raw: dict, name: str = "the config") -> dict:
    """A Hugging Face config.json's fields from a shipped file: the config itself, or an object that
    holds it under "config" beside its source. Without its quantization_config: the harness builds
    bf16 or fp32 weights, and quantises (qlora) with its own BitsAndBytesConfig."""
    config = raw if isinstance(raw, dict) and "model_type" in raw else (raw or {}).get("config")
    if not isinstance(config, dict) or not isinstance(config.get("model_type"), str):
        raise ValueError(f"{name}: not a Hugging Face config (no model_type), nor an object holding one under 'config'")
    return {key: value for key, value in config.items() if key != "quantization_config"}


def load_model_config(name: str, folder: Path = MODELS_DIR) -> dict:
    """The config of a model the planner ships (lib/data/models/<name>.json). GPT-2 124M, the CPU
    try's model, falls back to transformers' GPT2Config() defaults when no file is shipped."""
    path = Path(folder) / f"{name}.json"
    if path.exists():
        return model_config_dict(json.loads(path.read_text(encoding="utf8")), str(path))
    if name == "gpt2":
        return {"model_type": "gpt2"}
    raise FileNotFoundError(f"no config for {name}: expected {path} (the planner ships lib/data/models/<name>.json)")


def select(models=None, methods=None, seqs=None, checkpointing: str = "both", attentions=None,
           match=()) -> list[Configuration]:
    """The configurations a run measures: those of `models` (all the GPU models by default), kept by
    method, checkpointing (both, on, off), attention and the texts their names contain; at `seqs`
    instead of the listed sequences when given (skipping any the model cannot take)."""
    chosen = configurations(list(models) if models else list(GPU_MODELS))
    if seqs:
        chosen = [c for c in with_sequence(chosen, seqs) if skip_reason(c) is None]
    if methods:
        unknown = set(methods) - set(METHODS)
        if unknown:
            raise ValueError(f"unknown method {', '.join(sorted(unknown))}: use {', '.join(METHODS)}")
        chosen = [c for c in chosen if c.method in methods]
    if checkpointing not in ("both", "on", "off"):
        raise ValueError(f"checkpointing is both, on or off, not {checkpointing!r}")
    if checkpointing != "both":
        chosen = [c for c in chosen if c.checkpointing == (checkpointing == "on")]
    if attentions:
        chosen = [c for c in chosen if c.attention in attentions]
    return [c for c in chosen if all(text in c.name for text in match)]


def groups(chosen: list[Configuration]) -> list[list[Configuration]]:
    """Consecutive configurations that share one built model."""
    found: list[list[Configuration]] = []
    for c in chosen:
        if found and group_key(found[-1][0]) == group_key(c):
            found[-1].append(c)
        else:
            found.append([c])
    return found


def output_path(folder: Path, environment: dict) -> Path:
    """<date>-<gpu or cpu>-<commit>.json, e.g. 2026-12-01T101500Z-nvidia-h200-26cb569.json."""
    when = datetime.fromisoformat(environment["date"]).astimezone(timezone.utc).strftime("%Y-%m-%dT%H%M%SZ")
    device = re.sub(r"[^a-z0-9]+", "-", (environment["gpu"] or environment["device"]).lower()).strip("-")
    return Path(folder) / f"{when}-{device}-{environment['commit'][:7] if environment['commit'] else 'nocommit'}.json"


def refuses_output(folder: Path, device: str) -> str | None:
    """Why a run may not write into `folder`: a CPU try is not a measurement of lib/data/measured/."""
    if device != "cuda" and Path(folder).resolve() == MEASURED_DIR.resolve():
        return (f"a try on the {device} is not a GPU measurement: {MEASURED_DIR} holds GPU runs only; "
                "pass --out to another folder")
    return None


def summary(record: dict) -> str:
    """One line per configuration: name, outcome, peak allocated (GB = 10^9 bytes), step time."""
    measured = record["measured"]
    peak = measured["peak_allocated_bytes"]
    parts = [record["configuration"]["name"], record["outcome"]]
    if peak is not None:
        parts.append(f"peak allocated {peak / 1e9:.2f} GB, reserved {measured['peak_reserved_bytes'] / 1e9:.2f} GB")
    if measured["step_seconds"] is not None:
        parts.append(f"{measured['step_seconds']:.3f} s/step, {measured['tokens_per_second']:,.0f} tokens/s")
    if record["error"]:
        parts.append(record["error"][:160])
    return "  ".join(parts)


def empty_measured(steps: int = 0) -> dict:
    return {"weights_bytes": None, "weights_before_prepare_bytes": None, "after_step_bytes": None,
            "peak_allocated_bytes": None, "peak_reserved_bytes": None, "device_used_bytes": None,
            "step_seconds": None, "tokens_per_second": None, "steps": steps, "timed_steps": 0,
            "parameters": None, "trainable_parameters": None, "final_loss": None}


def git_commit(root: Path = ROOT) -> tuple[str | None, bool | None]:
    """The checkout's commit and whether tracked files differ from it; (None, None) without git."""
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True,
                                check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                               capture_output=True, text=True, check=True).stdout.strip() != ""
        return commit, dirty
    except (OSError, subprocess.CalledProcessError):
        return None, None


def library_version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


# ------------------------------------------------------------------------- the run (torch needed)

@dataclass
class Context:
    torch: object
    transformers: object
    peft: object
    device: str
    steps: int
    scratch: Path
    config_dir: Path
    saved: dict = field(default_factory=dict)  # model name → folder of its saved random bf16 weights

    @property
    def cuda(self) -> bool:
        return self.device == "cuda"

    def sync(self):
        if self.cuda:
            self.torch.cuda.synchronize()

    def allocated(self) -> int | None:
        return int(self.torch.cuda.memory_allocated()) if self.cuda else None

    def clean(self):
        gc.collect()
        if self.cuda:
            self.torch.cuda.synchronize()
            self.torch.cuda.empty_cache()


def environment(torch, device: str, commit: str | None = None) -> dict:
    found, dirty = git_commit()
    on_gpu = device == "cuda"
    properties = torch.cuda.get_device_properties(0) if on_gpu else None
    return {
        "device": device, "gpu": properties.name if on_gpu else None,
        "gpu_memory_bytes": int(properties.total_memory) if on_gpu else None,
        "driver": _driver() if on_gpu else None, "cuda": torch.version.cuda if on_gpu else None,
        **{name: library_version(name) for name in LIBRARIES},
        "python": platform.python_version(),
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "commit": commit or found, "dirty": None if commit else dirty,
    }


def _driver() -> str | None:
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, check=True, timeout=30).stdout.split()
        return out[0] if out else None
    except (OSError, subprocess.SubprocessError):
        return None


def _hf_config(ctx: Context, name: str):
    fields = load_model_config(name, ctx.config_dir)
    model_type = fields.pop("model_type")
    return ctx.transformers.AutoConfig.for_model(model_type, **fields)


def _adapters(ctx: Context, c: Configuration, model_type: str):
    targets = ALL_LINEAR if c.targets == ALL_LINEAR else c.targets.split(",")
    config = ctx.peft.LoraConfig(r=c.rank, lora_alpha=c.lora_alpha, lora_dropout=c.lora_dropout,
                                 target_modules=targets, bias="none", task_type="CAUSAL_LM",
                                 fan_in_fan_out=model_type == "gpt2")  # GPT-2's Conv1D stores its weight transposed
    return config


def _saved_bf16(ctx: Context, c: Configuration) -> Path:
    """The model's random weights saved once in bf16, for bitsandbytes to quantise as it loads them
    (it quantises in from_pretrained only)."""
    if c.model not in ctx.saved:
        torch = ctx.torch
        folder = ctx.scratch / f"measure-{c.model}-bf16"
        need = 2.1 * MODELS[c.model].parameters
        free = shutil.disk_usage(ctx.scratch).free
        if free < need:
            raise RuntimeError(f"{ctx.scratch} has {free / 1e9:.0f} GB free, {need / 1e9:.0f} GB needed to save "
                               f"{c.model} in bf16 for qlora: pass --scratch")
        with torch.device(ctx.device):
            model = ctx.transformers.AutoModelForCausalLM.from_config(_hf_config(ctx, c.model), dtype=torch.bfloat16)
        model.save_pretrained(folder)
        del model
        ctx.clean()
        ctx.saved[c.model] = folder
    return ctx.saved[c.model]


def build(ctx: Context, c: Configuration):
    """The model of a configuration group, and (qlora) the memory allocated before
    prepare_model_for_kbit_training."""
    torch, transformers = ctx.torch, ctx.transformers
    config = _hf_config(ctx, c.model)
    before_prepare = None
    if c.method == "qlora":
        quantisation = transformers.BitsAndBytesConfig(
            load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_use_double_quant=True,
            bnb_4bit_compute_dtype=torch.bfloat16)
        model = transformers.AutoModelForCausalLM.from_pretrained(
            _saved_bf16(ctx, c), quantization_config=quantisation, dtype=torch.bfloat16,
            device_map={"": torch.cuda.current_device() if ctx.cuda else "cpu"}, attn_implementation=c.attention)
        ctx.clean()
        before_prepare = ctx.allocated()
        model = ctx.peft.prepare_model_for_kbit_training(model, use_gradient_checkpointing=False)
    else:
        dtype = torch.float32 if c.dtype == "float32" else torch.bfloat16
        with torch.device(ctx.device):
            model = transformers.AutoModelForCausalLM.from_config(config, dtype=dtype, attn_implementation=c.attention)
    if c.rank is not None:
        model = ctx.peft.get_peft_model(model, _adapters(ctx, c, config.model_type))
    return model, before_prepare, config.vocab_size


def checkpointing(model, on: bool):
    """Gradient checkpointing on or off, non-reentrant (no inputs made to require gradients for
    frozen weights). transformers 5.25 renamed it activation checkpointing; 5.17 has the old names."""
    if hasattr(model, "activation_checkpointing_enable"):
        if on:
            model.activation_checkpointing_enable(activation_checkpointing_kwargs={"use_reentrant": False})
        else:
            model.activation_checkpointing_disable()
    elif on:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    else:
        model.gradient_checkpointing_disable()


def measure(ctx: Context, model, c: Configuration, vocab: int, before_prepare: int | None) -> dict:
    """A few training steps of one configuration on a built model, and its readings."""
    torch = ctx.torch
    ctx.clean()
    checkpointing(model, c.checkpointing)
    model.config.use_cache = False
    model.train()
    if ctx.cuda:
        torch.cuda.reset_peak_memory_stats()
    measured = empty_measured()
    measured["weights_bytes"] = ctx.allocated()
    measured["weights_before_prepare_bytes"] = before_prepare
    measured["parameters"] = sum(p.numel() for p in model.parameters())
    trained = [p for p in model.parameters() if p.requires_grad]
    measured["trainable_parameters"] = sum(p.numel() for p in trained)
    optimizer = torch.optim.AdamW(trained, lr=LEARNING_RATE, fused=True)
    ids = torch.randint(0, vocab, (c.batch, c.seq), device=ctx.device)
    autocast = (torch.autocast(ctx.device, dtype=torch.bfloat16) if c.autocast == "bfloat16"
                else contextlib.nullcontext())
    durations, outcome, error, loss = [], "ok", None, None
    try:
        for step in range(ctx.steps):
            ctx.sync()
            start = time.perf_counter()
            with autocast:
                loss = model(input_ids=ids, labels=ids, use_cache=False).loss
            loss.backward()
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            ctx.sync()
            durations.append(time.perf_counter() - start)
            measured["final_loss"] = float(loss.detach())
            loss = None  # the graph and the logits go before the next step
            measured["steps"] = step + 1
            if step == 0:
                measured["after_step_bytes"] = ctx.allocated()
    except torch.cuda.OutOfMemoryError as oom:
        outcome, error = "oom", " ".join(str(oom).split())[:500]
    except Exception as failure:  # recorded, and the run goes on to the next configuration
        outcome, error = "error", f"{type(failure).__name__}: {' '.join(str(failure).split())}"[:500]
    if ctx.cuda:
        measured["peak_allocated_bytes"] = int(torch.cuda.max_memory_allocated())
        measured["peak_reserved_bytes"] = int(torch.cuda.max_memory_reserved())
        free, total = torch.cuda.mem_get_info()
        measured["device_used_bytes"] = int(total - free)
    if outcome == "ok":
        timed = durations[1:]
        measured["timed_steps"] = len(timed)
        measured["step_seconds"] = sum(timed) / len(timed)
        measured["tokens_per_second"] = c.batch * c.seq / measured["step_seconds"]
    else:
        measured["final_loss"] = None
    del optimizer, ids, trained, loss
    model.zero_grad(set_to_none=True)
    ctx.clean()
    return {"configuration": c.as_dict(), "environment": None, "measured": measured, "outcome": outcome,
            "error": error}


def run_group(ctx: Context, chosen: list[Configuration], env: dict) -> list[dict]:
    """Build the group's model once, measure each of its configurations, free it."""
    try:
        model, before_prepare, vocab = build(ctx, chosen[0])
    except Exception as failure:
        oom = isinstance(failure, ctx.torch.cuda.OutOfMemoryError)
        error = f"building the model: {type(failure).__name__}: {' '.join(str(failure).split())}"[:500]
        failed = empty_measured()
        del failure
        ctx.clean()
        found = [{"configuration": c.as_dict(), "environment": env, "measured": dict(failed),
                  "outcome": "oom" if oom else "error", "error": error} for c in chosen]
        for record in found:
            print(summary(record), flush=True)
        return found
    found = []
    for c in chosen:
        record = measure(ctx, model, c, vocab, before_prepare)
        record["environment"] = env
        found.append(record)
        print(summary(record), flush=True)
    del model
    ctx.clean()
    return found


def _arguments(argv):
    parser = argparse.ArgumentParser(prog="python -m lib.measure.harness", description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", nargs="+", choices=list(MODELS), help=f"default: {' '.join(GPU_MODELS)}")
    parser.add_argument("--methods", nargs="+", choices=METHODS)
    parser.add_argument("--seqs", nargs="+", type=int, help="sequence lengths instead of the listed ones (a try)")
    parser.add_argument("--checkpointing", choices=("both", "on", "off"), default="both")
    parser.add_argument("--attention", nargs="+", choices=("sdpa", "eager"))
    parser.add_argument("--match", nargs="+", default=(), help="keep configurations whose name contains each text")
    parser.add_argument("--steps", type=int, default=STEPS, help="steps per configuration, the first untimed (≥ 2)")
    parser.add_argument("--out", type=Path, default=MEASURED_DIR, help="folder of the run's JSON file")
    parser.add_argument("--scratch", type=Path, default=Path(tempfile.gettempdir()),
                        help="where qlora's random bf16 weights are saved, then removed")
    parser.add_argument("--config-dir", type=Path, default=MODELS_DIR, help="the models' config.json files")
    parser.add_argument("--device", choices=("auto", "cuda", "cpu"), default="auto")
    parser.add_argument("--commit", help="the commit measured, where the checkout has no .git")
    parser.add_argument("--list", action="store_true", help="list the configurations and the skipped ones, run nothing")
    args = parser.parse_args(argv)
    if args.steps < 2:
        parser.error("--steps must be at least 2: the first step is not timed")
    return args


def main(argv=None) -> int:
    args = _arguments(argv)
    chosen = select(args.models, args.methods, args.seqs, args.checkpointing, args.attention, args.match)
    if args.list:
        for c in chosen:
            print(c.name)
        for c, reason in skipped(list(args.models or GPU_MODELS)):
            print(f"skipped {c.name}: {reason}")
        print(f"{len(chosen)} configurations in {len(groups(chosen))} models built")
        return 0
    if not chosen:
        print("no configuration matches", file=sys.stderr)
        return 2
    try:
        import peft
        import torch
        import transformers
    except ImportError as missing:
        print(f"{missing.name} is not installed: `make measure` installs requirements-measure.txt", file=sys.stderr)
        return 2
    device = ("cuda" if torch.cuda.is_available() else "cpu") if args.device == "auto" else args.device
    refused = refuses_output(args.out, device)
    if refused:
        print(refused, file=sys.stderr)
        return 2
    transformers.logging.set_verbosity_error()
    transformers.utils.logging.disable_progress_bar()
    warnings.filterwarnings("ignore", category=FutureWarning, module="transformers")  # renamed methods
    env = environment(torch, device, args.commit)
    ctx = Context(torch, transformers, peft, device, args.steps, args.scratch, args.config_dir)
    path = output_path(args.out, env)
    path.parent.mkdir(parents=True, exist_ok=True)
    found, status = [], 0
    plan = groups(chosen)
    print(f"{len(chosen)} configurations, {len(plan)} models built, on {env['gpu'] or device}; writing {path}", flush=True)
    try:
        for index, group in enumerate(plan):
            found += run_group(ctx, group, env)
            # qlora's saved weights go once no later group of that model needs them
            for name in [n for n in ctx.saved if all(g[0].model != n or g[0].method != "qlora" for g in plan[index + 1:])]:
                shutil.rmtree(ctx.saved.pop(name), ignore_errors=True)
            wrong = [f"{r['configuration']['name']}: {p}" for r in found for p in problems(r)]
            if wrong:
                print("records the schema refuses (a fault of the harness):\n  " + "\n  ".join(wrong), file=sys.stderr)
                status = 1
            path.write_text(json.dumps({"schema": SCHEMA, "records": found}, indent=1) + "\n", encoding="utf8")
    finally:
        for folder in ctx.saved.values():
            shutil.rmtree(folder, ignore_errors=True)
    if status == 0:
        validate_run(json.loads(path.read_text(encoding="utf8")))
    print(f"{len(found)} records in {path}")
    return status


if __name__ == "__main__":
    sys.exit(main())
