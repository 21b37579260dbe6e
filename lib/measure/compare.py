"""A memory model's figures against the book's own measurements: residual = (model − measured) /
measured, within a tolerance per kind of reading.

The memory model is the caller's: `predict(configuration)` takes a `Configuration` and returns bytes
(or None where the model declines the configuration, a sequence beyond the model's positions, say).

Tolerances, one per kind of reading, and why:
- weights_bytes ±1 %: the weights are byte accounting (parameters × bytes each); the allocator adds
  only its 512-byte rounding and the model's buffers (rotary frequencies, say);
- after_step_bytes ±2 %: weights and AdamW's states, byte accounting too; fused AdamW adds a step
  counter per parameter tensor;
- peak_allocated_bytes ±10 %: adds the activations, the logits and the loss, which a model derives
  (the same tolerance the budget chapter gives a published measured figure);
- peak_reserved_bytes and device_used_bytes ±20 %: add the caching allocator's slack, and for the
  device the CUDA context, which a memory model can only state as an estimate.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable

from lib.measure.configurations import Configuration

TOLERANCE = {
    "weights_bytes": 0.01,
    "after_step_bytes": 0.02,
    "peak_allocated_bytes": 0.10,
    "peak_reserved_bytes": 0.20,
    "device_used_bytes": 0.20,
}


def residual(model: float, measured: float) -> float:
    """(model − measured) / measured: positive where the model says more than was measured."""
    if not (isinstance(measured, (int, float)) and math.isfinite(measured) and measured > 0):
        raise ValueError(f"a measured figure is a positive number of bytes, got {measured!r}")
    return (model - measured) / measured


def residuals(records: Iterable[dict], predict: Callable[[Configuration], float | None],
              reading: str = "peak_allocated_bytes") -> list[dict]:
    """Each completed record's `reading` against `predict`'s figure for its configuration.

    Records that did not complete (out of memory, an error) and those without the reading (a CPU try)
    are left out. Each row: name, model, method, reading, measured and predicted (bytes), residual,
    tolerance and within (None where predict returns None, with predicted None)."""
    if reading not in TOLERANCE:
        raise ValueError(f"unknown reading {reading!r}: compare one of {', '.join(TOLERANCE)}")
    tolerance = TOLERANCE[reading]
    rows = []
    for record in records:
        measured = record["measured"][reading]
        if record["outcome"] != "ok" or measured is None:
            continue
        configuration = Configuration.from_dict(record["configuration"])
        predicted = predict(configuration)
        if predicted is not None and (isinstance(predicted, bool) or not isinstance(predicted, (int, float))
                                      or not math.isfinite(predicted) or predicted <= 0):
            raise ValueError(f"{configuration.name}: predict gave {predicted!r}, not a positive number of bytes")
        gap = None if predicted is None else residual(predicted, measured)
        rows.append({
            "name": configuration.name, "model": configuration.model, "method": configuration.method,
            "reading": reading, "measured": measured, "predicted": predicted, "residual": gap,
            "tolerance": tolerance, "within": None if gap is None else abs(gap) <= tolerance,
        })
    return rows
