"""The planner checked against published training measurements (lib/data/plan/published.toml): each row's
residual for time (tokens a second per GPU, by the speed model, lib.plan.step_time) and for the peak (by
lib.plan.memory), and the range the planner's speed carries, taken from those residuals.

`residuals()` gives every row the planner can express, its prediction beside what was measured
(published.Residual; `predicted` None where the planner cannot express the row: a model it does not ship,
a GPU whose peak or bandwidth is not listed, a configuration the source leaves unstated or the planner's
activations are not derived for). `speed_range()` is the range: the least and the most of measured ÷
predicted over the time rows that no constant of the planner came from (`range_rows`), computed from the
residuals when first asked for, never typed in. A row whose measured speed is only an upper bound (its
tokens are at most those counted) bounds the ratio from above: it may lower the range's low end, never
raise its high end.
"""

from __future__ import annotations

from functools import cache

from lib.plan import memory, published, step_time
from lib.plan.errors import PlanError
from lib.plan.gpus import load_gpus


def _job(row: published.Row):
    try:
        return row.job()
    except PlanError:
        return None


def predicted_tokens_per_second(row: published.Row) -> float | None:
    """The speed model's tokens a second per GPU at the row's configuration, or None where the planner cannot
    express it (the module's docstring). A row on several GPUs is the node's speed (with its collectives,
    step_time) over its GPUs."""
    job, gpu = _job(row), load_gpus().get(row.gpu)
    if job is None or gpu is None or gpu.bf16_flops is None or gpu.bandwidth is None:
        return None
    try:
        node = step_time.tokens_per_second(job, gpu)
        return None if node is None else node / job.gpus
    except PlanError:
        return None


def predicted_peak_bytes(row: published.Row) -> float | None:
    """The planner's peak on one GPU at the row's configuration (memory.parts' `peak`), or None where it
    cannot express it (on several GPUs, each GPU's under the row's sharding)."""
    job = _job(row)
    if job is None:
        return None
    try:
        return memory.parts(job)["peak"]
    except PlanError:
        return None


@cache
def residuals() -> tuple[published.Residual, ...]:
    """Every published row against the planner (time and peak), in published.toml's order."""
    return tuple(published.residuals(predicted_tokens_per_second, predicted_peak_bytes))


def constant_rows() -> frozenset[str]:
    """The rows any constant of the speed model was taken from: those lib/data/plan/speed.toml names under a
    constant's `rows` (none should; published.py: only a `use = "fit"` row may be)."""
    return frozenset(r for section in step_time.constants().values() if isinstance(section, dict)
                     for r in section.get("rows", ()))


def range_rows() -> tuple[published.Residual, ...]:
    """The time rows the range is taken from: predicted, and no constant's source."""
    taken = constant_rows()
    return tuple(r for r in residuals() if r.row.quantity != "peak" and r.predicted is not None
                 and r.row.key not in taken and r.row.use == "test")


@cache
def speed_range() -> tuple[float, float]:
    """The factors (low, high) the speed model's tokens a second are multiplied by for their range:
    step_time.range_from_residuals over range_rows(): the low end over them all, the high end over those
    whose measurement is exact (an upper bound on the speed says nothing of how much faster it could be)."""
    rows = range_rows()
    low, _ = step_time.range_from_residuals([(r.predicted, r.measured) for r in rows])
    _, high = step_time.range_from_residuals([(r.predicted, r.measured) for r in rows if r.bound == "exact"])
    return low, high


def peak_range_rows() -> tuple[published.Residual, ...]:
    """The peak rows the memory's range is taken from: a measured peak (not a bound), predicted, of a recipe
    the planner models in full (nothing under `differs`). A recipe with a saving the planner does not model
    (a paged, quantised optimiser, a compiled or chunked loss) measures that saving, not the planner's error."""
    return tuple(r for r in residuals() if r.row.quantity == "peak" and r.predicted is not None
                 and r.bound == "exact" and not r.row.differs and r.row.use == "test")


@cache
def peak_range() -> tuple[float, float]:
    """The factors (low, high) the planner's peak is multiplied by for its range: the least and the most of
    measured ÷ predicted over peak_range_rows() (step_time.range_from_residuals)."""
    return step_time.range_from_residuals([(r.predicted, r.measured) for r in peak_range_rows()])
