"""Published training measurements (lib/data/plan/published.toml): throughput, time and peak memory,
each at its publisher's configuration, for the speed model and the budget chapter to be checked against.

`load()` reads and validates the table (ValueError, naming the row, on a malformed one or a source key
that is in no .bib file); `Row.job()` is a row's configuration as the planner's job where the planner can
express it; `residuals()` compares a predictor's figures with the rows. A row is for testing only unless
it says `use = "fit"`: no constant of the planner may be taken from a test row (`fit_rows()` lists those
that may).
"""

from __future__ import annotations

import dataclasses
import tomllib
from functools import cache
from pathlib import Path
from typing import Callable

from lib.core.inputs import bib_keys
from lib.plan.errors import PlanError
from lib.plan.gpus import GPUS_FILE
from lib.plan.memory import ALL_LINEAR, ATTENTIONS, METHODS, SHARDINGS as PLANNED_SHARDINGS, Job, default_attention
from lib.plan.shapes import SHIPPED, load_config, shape

PUBLISHED_FILE = Path(__file__).resolve().parents[1] / "data" / "plan" / "published.toml"
USES = ("test", "fit")
SEQ_KINDS = ("fixed", "max", "mean")
SHARDINGS = ("none", "ddp", "zero1", "zero2", "zero3", "tp")
QUANTITIES = ("throughput", "time", "peak")
UNITS = {  # each quantity's units, with the factor to its SI unit (token/s, second, byte)
    "throughput": {"token/s": 1, "token/s/GPU": 1},
    "time": {"ms": 1e-3, "s": 1, "minute": 60, "hour": 3600},
    "peak": {"byte": 1, "GB": 1e9, "GiB": 2**30},
}
READINGS = {
    "time": ("step", "run"),
    "peak": ("allocated", "reserved", "reserved_p99", "active", "unstated", "capacity"),
}
BOUNDS = ("exact", "at_most")
# The configuration fields a row gives, or lists in `unknown` where its source does not state them.
CONFIG = ("rank", "targets", "seq", "micro_batch", "global_batch", "checkpointing", "gpus", "sharding")
REQUIRED = ("source", "locator", "quote", "model", "method", "gpu", "quantity", "unit", "value")
KNOWN = set(REQUIRED) | set(CONFIG) | {
    "use", "secondary", "missing_model", "missing_gpu", "seq_kind", "tp", "differs", "unknown", "reading",
    "bound", "tokens", "tokens_bound", "note", "attention", "config", "config_from"}


@dataclasses.dataclass(frozen=True)
class Row:
    """One published measurement (the fields are published.toml's, documented in its header)."""

    key: str
    source: str
    locator: str
    quote: str
    model: str
    method: str
    gpu: str
    quantity: str
    unit: str
    value: float
    use: str = "test"
    secondary: bool = False
    missing_model: str | None = None
    missing_gpu: str | None = None
    rank: int | None = None
    targets: tuple[str, ...] | str | None = None
    seq: int | None = None
    seq_kind: str | None = None
    micro_batch: int | None = None
    global_batch: int | None = None
    checkpointing: bool | None = None
    gpus: int | None = None
    sharding: str | None = None
    tp: int | None = None
    differs: tuple[str, ...] = ()
    unknown: tuple[str, ...] = ()
    reading: str | None = None
    bound: str = "exact"
    tokens: float | None = None
    tokens_bound: str | None = None
    attention: str | None = None  # the attention the publisher ran (memory.ATTENTIONS), where not the model's default
    note: str | None = None
    # the model's configuration where it is not shipped but the publisher's code states it (Hugging Face's
    # keys, as (key, value) pairs), and where in that code (`config_from`)
    config: tuple[tuple[str, object], ...] | None = None
    config_from: str | None = None

    @property
    def shipped(self) -> bool:
        """Whether the planner has the model's configuration: shipped in lib/data/models, or the row's own
        `config` from the publisher's code."""
        return self.model in SHIPPED or self.config is not None

    @property
    def grad_accum(self) -> int:
        """Micro-batches a GPU accumulates per optimizer step: the global batch over the micro-batches of all
        GPUs where that is a whole number, else 1 (the source's global batch unstated)."""
        if self.global_batch is None or self.micro_batch is None:
            return 1
        per_step = self.micro_batch * (self.gpus or 1)
        return self.global_batch // per_step if self.global_batch % per_step == 0 else 1

    @property
    def si_value(self) -> float:
        """The value in token/s, seconds or bytes."""
        return self.value * UNITS[self.quantity][self.unit]

    def job(self) -> Job | None:
        """The row's configuration as the planner's job (per GPU: its micro-batch), or None where the model
        is not shipped or the source leaves the sequence, the micro-batch or, for LoRA, rank and targets
        unstated. Checkpointing the source does not state is taken as off; the attention is the row's
        `attention` where the publisher names the one it ran, else the model's default
        (memory.default_attention: sdpa, or eager where the architecture has no other). Several GPUs are the
        job's node (gpus, sharding) where the sharding is one the planner models (not tensor parallelism)."""
        if not self.shipped or self.seq is None or self.micro_batch is None:
            return None
        node = {}
        if (self.gpus or 1) > 1:
            if self.sharding not in PLANNED_SHARDINGS:
                return None
            node = {"gpus": self.gpus, "sharding": self.sharding}
        extra = {}
        if self.method in ("lora", "qlora"):
            if self.rank is None or self.targets is None:
                return None
            extra = {"rank": self.rank, "targets": self.targets}
        s = shape(dict(self.config) if self.config is not None else load_config(self.model))
        return Job(s, self.method, seq=self.seq, batch=self.micro_batch, checkpointing=bool(self.checkpointing),
                   attention=self.attention or default_attention(s), grad_accum=self.grad_accum, **extra, **node)

    def measured_tokens_per_second_per_gpu(self) -> float | None:
        """A time or throughput row's tokens a second on each GPU (None for a peak, or where the number of
        GPUs of an all-GPU figure is not stated). A time whose tokens are an upper bound gives an upper
        bound too (`tokens_bound`)."""
        if self.quantity == "throughput":
            if self.unit == "token/s/GPU":
                return self.si_value
            return None if self.gpus is None else self.si_value / self.gpus
        if self.quantity == "time" and self.gpus is not None:
            return self.tokens / self.si_value / self.gpus
        return None


def _fail(key: str, message: str):
    raise ValueError(f"published.toml [{key}]: {message}")


def _check(key: str, entry: dict, keys: set[str], gpus: set[str]) -> Row:
    unknown_fields = set(entry) - KNOWN
    if unknown_fields:
        _fail(key, f"unknown fields {sorted(unknown_fields)}")
    missing = [f for f in REQUIRED if f not in entry]
    if missing:
        _fail(key, f"missing {missing}")
    for f in ("source", "locator", "quote", "model", "method", "gpu", "quantity", "unit"):
        if not isinstance(entry[f], str) or not entry[f].strip():
            _fail(key, f"{f} must be a non-empty string")
    if entry["source"] not in keys:
        _fail(key, f"source {entry['source']!r} is in no .bib file")
    if entry.get("use", "test") not in USES:
        _fail(key, f"use must be one of {USES}, not {entry['use']!r}")
    if entry["method"] not in METHODS:
        _fail(key, f"method must be one of {METHODS}, not {entry['method']!r}")
    given = [entry["model"] in SHIPPED, bool(entry.get("missing_model")), "config" in entry]
    if sum(given) != 1:
        _fail(key, f"model {entry['model']!r}: a shipped config ({', '.join(SHIPPED)}), or a config from the publisher's "
                   "code with config_from saying where, or missing_model saying which is absent: one of them")
    if ("config" in entry) != bool(entry.get("config_from")):
        _fail(key, "a config needs config_from, where in the publisher's code it is stated")
    if "config" in entry:
        try:
            shape(entry["config"])
        except PlanError as error:  # the planner's own check of a config.json (lib.plan.shapes)
            _fail(key, f"its config is not one the planner reads: {error}")
    if (entry["gpu"] in gpus) == bool(entry.get("missing_gpu")):
        _fail(key, f"gpu {entry['gpu']!r}: a key of gpus.toml ({', '.join(sorted(gpus))}), or missing_gpu saying why not, not both")
    quantity = entry["quantity"]
    if quantity not in QUANTITIES:
        _fail(key, f"quantity must be one of {QUANTITIES}, not {quantity!r}")
    if entry["unit"] not in UNITS[quantity]:
        _fail(key, f"a {quantity}'s unit is one of {sorted(UNITS[quantity])}, not {entry['unit']!r}")
    value = entry["value"]
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not value > 0:
        _fail(key, f"value must be a positive number, not {value!r}")
    if quantity in READINGS:
        if entry.get("reading") not in READINGS[quantity]:
            _fail(key, f"a {quantity} needs reading, one of {READINGS[quantity]}")
    elif "reading" in entry:
        _fail(key, "a throughput has no reading")
    if quantity == "time":
        tokens = entry.get("tokens")
        if not isinstance(tokens, (int, float)) or isinstance(tokens, bool) or not tokens > 0:
            _fail(key, "a time needs tokens, the tokens it trained (a positive number)")
        if entry.get("tokens_bound") not in BOUNDS:
            _fail(key, f"a time needs tokens_bound, one of {BOUNDS}")
    elif "tokens" in entry or "tokens_bound" in entry:
        _fail(key, "only a time has tokens")
    if entry.get("bound", "exact") not in BOUNDS:
        _fail(key, f"bound must be one of {BOUNDS}")
    if (entry.get("reading") == "capacity") != (entry.get("bound") == "at_most"):
        _fail(key, "a peak read as a GPU's capacity is an upper bound (bound = \"at_most\"), and only it is")
    # The configuration: each field given, or listed as unknown; never both.
    listed = entry.get("unknown", [])
    if not isinstance(listed, list) or not set(listed) <= set(CONFIG):
        _fail(key, f"unknown may list only {CONFIG}")
    adapted = entry["method"] in ("lora", "qlora")
    for f in CONFIG:
        if f in ("rank", "targets") and not adapted:
            if f in entry:
                _fail(key, f"{f} is for LoRA and QLoRA only")
            continue
        if (f in entry) == (f in listed):
            _fail(key, f"{f} must be given, or listed in unknown, not both or neither")
    for f in ("rank", "seq", "micro_batch", "global_batch", "gpus", "tp"):
        if f in entry and (not isinstance(entry[f], int) or isinstance(entry[f], bool) or entry[f] < 1):
            _fail(key, f"{f} must be a whole number of at least 1, not {entry[f]!r}")
    if "checkpointing" in entry and not isinstance(entry["checkpointing"], bool):
        _fail(key, "checkpointing must be true or false")
    if "seq" in entry and entry.get("seq_kind") not in SEQ_KINDS:
        _fail(key, f"a seq needs seq_kind, one of {SEQ_KINDS}")
    if "sharding" in entry:
        if entry["sharding"] not in SHARDINGS:
            _fail(key, f"sharding must be one of {SHARDINGS}, not {entry['sharding']!r}")
        if (entry["sharding"] == "none") != (entry.get("gpus") == 1):
            _fail(key, "sharding \"none\" is for one GPU, and one GPU has no other")
        if (entry["sharding"] == "tp") != ("tp" in entry):
            _fail(key, "sharding \"tp\" needs tp, its degree, and only it has one")
    targets = entry.get("targets")
    if targets is not None and targets != ALL_LINEAR and (
            not isinstance(targets, list) or not targets or not all(isinstance(t, str) for t in targets)):
        _fail(key, f"targets must be {ALL_LINEAR!r} or a list of module names")
    if entry["quantity"] == "throughput" and entry["unit"] == "token/s" and "gpus" not in entry:
        _fail(key, "a throughput for all GPUs needs gpus")
    if "attention" in entry and entry["attention"] not in ATTENTIONS:
        _fail(key, f"attention must be one of {', '.join(ATTENTIONS)}, not {entry['attention']!r}")
    fields = dict(entry)
    for f in ("differs", "unknown"):
        fields[f] = tuple(fields.get(f, ()))
    if isinstance(targets, list):
        fields["targets"] = tuple(targets)
    if "config" in entry:
        fields["config"] = tuple(sorted(entry["config"].items()))
    return Row(key=key, **fields)


@cache
def _gpu_keys() -> frozenset[str]:
    with GPUS_FILE.open("rb") as f:
        return frozenset(tomllib.load(f))


def parse(data: dict, keys: set[str] | None = None) -> tuple[Row, ...]:
    """The rows of a parsed published.toml, each validated (ValueError on the first bad one)."""
    keys = bib_keys() if keys is None else keys
    rows = []
    for key, entry in data.items():
        if not isinstance(entry, dict):
            _fail(key, "each measurement is a table")
        rows.append(_check(key, entry, keys, set(_gpu_keys())))
    return tuple(rows)


def load(path: Path = PUBLISHED_FILE) -> tuple[Row, ...]:
    """The published measurements, validated."""
    with path.open("rb") as f:
        return parse(tomllib.load(f))


def fit_rows(rows: tuple[Row, ...] | None = None) -> tuple[Row, ...]:
    """The rows a constant may be taken from (`use = "fit"`); every other row is for testing only."""
    return tuple(r for r in (load() if rows is None else rows) if r.use == "fit")


@dataclasses.dataclass(frozen=True)
class Residual:
    """A row against a prediction: `ratio` = predicted / measured (None where the predictor gave
    nothing); `bound` is the row's: where the measurement is an upper bound ("at_most"), a ratio of 1 or
    less agrees with it. Time rows are compared as tokens a second per GPU."""

    row: Row
    measured: float
    predicted: float | None
    bound: str

    @property
    def ratio(self) -> float | None:
        return None if self.predicted is None else self.predicted / self.measured


def residuals(tokens_per_second: Callable[[Row], float | None] | None = None,
              peak_bytes: Callable[[Row], float | None] | None = None,
              rows: tuple[Row, ...] | None = None) -> list[Residual]:
    """Each row's residual against a predictor: `tokens_per_second(row)` gives tokens a second per GPU at
    the row's configuration (row.job() is its job where the planner can express it), `peak_bytes(row)`
    the peak in bytes on one GPU; either may return None where it cannot predict the row. Throughput and
    time rows go to the first, peak rows to the second; a row whose measured speed per GPU is unknown (an
    all-GPU throughput without a GPU count) is left out. A time whose tokens are an upper bound is an
    upper bound on the speed; for a peak, a capacity is an upper bound on the peak."""
    out = []
    for row in load() if rows is None else rows:
        if row.quantity == "peak":
            if peak_bytes is not None:
                out.append(Residual(row, row.si_value, peak_bytes(row), row.bound))
            continue
        measured = row.measured_tokens_per_second_per_gpu()
        if tokens_per_second is None or measured is None:
            continue
        bound = "at_most" if row.tokens_bound == "at_most" else "exact"
        out.append(Residual(row, measured, tokens_per_second(row), bound))
    return out
