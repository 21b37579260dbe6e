"""Pure arithmetic of training cost. Every function rejects bad input with a ValueError."""

from __future__ import annotations

import datetime as dt
import math
from functools import lru_cache

from lib.core.currency import ecb_rate, ecb_rates, ecb_series, last_ecb_date  # noqa: F401  (the chapters' names for them)

HOURS_PER_DAY = 24
HOURS_PER_MONTH = 730  # 8,760 hours a year / 12, the convention of cloud monthly prices
SECONDS_PER_HOUR = 3600
DAYS_PER_MONTH = HOURS_PER_MONTH / HOURS_PER_DAY  # about 30.4 days


class BadInput(ValueError):
    """A bad input to a computation: which one (`name`) and what is wrong with it (`problem`,
    a key of the "errors" table in lib/data/words), so a calculator can say it in the reader's
    language. str() is the English message for developers."""

    def __init__(self, name: str, problem: str, message: str, limits: tuple[float, float] | None = None,
                 example: str | None = None):
        super().__init__(message)
        self.name, self.problem, self.limits, self.example = name, problem, limits, example


def _number(name: str, x, *, allow_zero: bool = False) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise BadInput(name, "number", f"{name} must be a number, got {x!r}")
    x = float(x)
    if math.isnan(x) or math.isinf(x):
        raise BadInput(name, "finite", f"{name} must be a finite number, got {x}")
    if x < 0 or (x == 0 and not allow_zero):
        problem = "zero_or_positive" if allow_zero else "positive"
        raise BadInput(name, problem, f"{name} must be {'zero or ' if allow_zero else ''}positive, got {x:g}")
    return x


def _fraction(name: str, x) -> float:
    x = _number(name, x)
    if x > 1:
        raise BadInput(name, "fraction", f"{name} is a fraction between 0 and 1, got {x:g}")
    return x


def within(name: str, x, low: float, high: float, *, whole: bool = False) -> float:
    """A calculator's input inside the range its controls allow (the static page's sliders): the
    live calculators refuse what the static ones cannot be set to, so no figure goes unwritten
    (1e300 GPUs) or reads as nonsense (2.5 GPUs)."""
    x = _number(name, x, allow_zero=low <= 0)
    if whole and x != int(x):
        raise BadInput(name, "whole", f"{name} must be a whole number, got {x:g}")
    if not low <= x <= high:
        raise BadInput(name, "range", f"{name} must be between {low:g} and {high:g}, got {x:g}", (low, high))
    return x


def residual(computed: float, reported: float) -> float:
    """(computed - reported) / reported: how far a formula or a reproduction lands from a reported figure."""
    reported = _number("reported", reported)
    return (_number("computed", computed, allow_zero=True) - reported) / reported


def gpu_hours(gpus: float, hours: float) -> float:
    """GPU-hours of `gpus` devices running for `hours` of wall clock."""
    return _number("gpus", gpus) * _number("hours", hours)


def days_to_hours(days: float) -> float:
    return _number("days", days) * HOURS_PER_DAY


def months_to_hours(months: float) -> float:
    """Hours in `months` of wall clock, at the cloud convention of 730 hours a month."""
    return _number("months", months) * HOURS_PER_MONTH


def throughput_hours(tokens: float, tokens_per_second_per_device: float, devices: float) -> float:
    """Wall-clock hours to process `tokens` at a measured throughput per device on `devices`."""
    rate = _number("tokens_per_second_per_device", tokens_per_second_per_device) * _number("devices", devices)
    return _number("tokens", tokens) / rate / SECONDS_PER_HOUR


def rental_cost(gpu_hours: float, price_per_gpu_hour: float) -> float:
    """Cost of renting `gpu_hours` at a price per GPU-hour (same currency out as in)."""
    return _number("gpu_hours", gpu_hours) * _number("price_per_gpu_hour", price_per_gpu_hour)


def hours_bought(budget: float, price_per_hour: float) -> float:
    """How many hours a budget rents at a price per hour."""
    return _number("budget", budget) / _number("price_per_hour", price_per_hour)


def monthly_to_hourly(price_per_month: float, gpus: float) -> float:
    """A monthly price for a node of `gpus` devices as a price per GPU-hour."""
    return _number("price_per_month", price_per_month) / (HOURS_PER_MONTH * _number("gpus", gpus))


def training_flops(params: float, tokens: float, flops_per_param_token: float = 6) -> float:
    """Training compute C = 6ND (Kaplan et al. 2020): FLOPs to train `params` on `tokens`."""
    return _number("flops_per_param_token", flops_per_param_token) * _number("params", params) * _number("tokens", tokens)


def recompute_flops_per_token(layers: float, d_model: float, seq_len: float, vocab: float) -> float:
    """Training FLOPs per token of a GPT-style model with full activation recomputation, as
    Megatron-LM counts them (Narayanan et al. 2021, equation 3: 96·B·s·l·h²·(1 + s/6h + V/16lh)
    per iteration of B·s tokens, "the extra forward pass" included): hardware FLOPs, not 6N."""
    l, h = _number("layers", layers), _number("d_model", d_model)
    s, v = _number("seq_len", seq_len), _number("vocab", vocab)
    return 96 * l * h**2 * (1 + s / (6 * h) + v / (16 * l * h))


def flops_to_device_hours(flops: float, peak_flops_per_second: float, utilisation: float = 1.0) -> float:
    """Device-hours to do `flops` on devices of a given peak at a utilisation (0-1]."""
    rate = _number("peak_flops_per_second", peak_flops_per_second) * _fraction("utilisation", utilisation)
    return _number("flops", flops) / rate / SECONDS_PER_HOUR


def lora_trainable_params(d_model: float, layers: float, matrix_types: float, rank: float) -> float:
    """LoRA's trainable parameters, |Θ| = 2 × L × d_model × r (Hu et al. 2021, §5.1),
    where L = layers × matrix types adapted (each square d_model × d_model)."""
    for name, x in (("d_model", d_model), ("layers", layers), ("matrix_types", matrix_types), ("rank", rank)):
        if _number(name, x) != int(x):
            raise ValueError(f"{name} must be a whole number, got {x:g}")
    if rank > d_model:
        raise ValueError(f"rank ({rank:g}) cannot exceed d_model ({d_model:g})")
    return 2 * layers * matrix_types * d_model * rank


def training_bytes_per_param(weights: float = 2, gradients: float = 2, optimizer_states: float = 12) -> float:
    """Bytes per parameter held while training with mixed precision and Adam (ZeRO, §3.1)."""
    return _number("weights", weights) + _number("gradients", gradients, allow_zero=True) + _number(
        "optimizer_states", optimizer_states, allow_zero=True
    )


def training_memory_gb(params: float, bytes_per_param: float) -> float:
    """Memory in GB (10^9 bytes) for model states alone (no activations)."""
    return _number("params", params) * _number("bytes_per_param", bytes_per_param) / 1e9


def devices_needed(memory_gb: float, device_memory_gb: float) -> int:
    return math.ceil(_number("memory_gb", memory_gb) / _number("device_memory_gb", device_memory_gb))


def days_between(start: dt.date, end: dt.date) -> int:
    for name, d in (("start", start), ("end", end)):
        if not isinstance(d, dt.date):
            raise ValueError(f"{name} must be a date, got {d!r}")
    if end < start:
        raise ValueError(f"end ({end}) is before start ({start})")
    return (end - start).days


def convert(amount: float, from_currency: str, to_currency: str, date: dt.date) -> float:
    """Convert money at the ECB reference rate of `date`."""
    amount = _number("amount", amount, allow_zero=True)
    return amount * ecb_rate(to_currency, date) / ecb_rate(from_currency, date)


