"""The ECB's reference rates, shipped offline by currencyconverter: one rate per published day, and
an error (never a guess) for a day without one."""

from __future__ import annotations

import datetime as dt
from functools import lru_cache

from currency_converter import CurrencyConverter, RateNotFoundError


@lru_cache(maxsize=1)
def _ecb() -> CurrencyConverter:
    # No fallback: a date without a published rate is an error, never a guess.
    return CurrencyConverter(fallback_on_missing_rate=False, fallback_on_wrong_date=False)


def ecb_rate(currency: str, date: dt.date, base: str = "EUR") -> float:
    """Units of `currency` per one `base` on `date`, from the ECB reference rates."""
    if not isinstance(date, dt.date):
        raise ValueError(f"date must be a date, got {date!r}")
    ecb = _ecb()
    for code in (currency, base):
        if code not in ecb.currencies:
            raise ValueError(f"unknown currency '{code}': the ECB reference rates have no such code")
    first, last = ecb.bounds[currency].first_date, ecb.bounds[currency].last_date
    if not first <= date <= last:
        raise ValueError(f"no ECB rate for {currency} on {date}: the shipped data covers {first} to {last}")
    try:
        return ecb.convert(1, base, currency, date=date)
    except RateNotFoundError as exc:
        raise ValueError(f"no ECB rate for {currency} on {date} (a weekend or a TARGET holiday?)") from exc


@lru_cache(maxsize=64)
def ecb_rates(currency: str, start: dt.date, end: dt.date) -> dict[dt.date, float]:
    """Every ECB reference rate of `currency` per euro published from `start` to `end`."""
    for name, d in (("start", start), ("end", end)):
        if not isinstance(d, dt.date):
            raise ValueError(f"{name} must be a date, got {d!r}")
    if end < start:
        raise ValueError(f"end ({end}) is before start ({start})")
    rates = {day: rate for day, rate in ecb_series(currency) if start <= day <= end}
    if not rates:
        raise ValueError(f"no ECB rate for {currency} between {start} and {end}")
    return rates


@lru_cache(maxsize=8)
def ecb_series(currency: str) -> tuple[tuple[dt.date, float], ...]:
    """Every ECB reference rate of `currency` per euro in the shipped data, oldest first (read once:
    searching it day by day through ecb_rate takes seconds)."""
    ecb = _ecb()
    if currency not in ecb.currencies:
        raise ValueError(f"unknown currency '{currency}': the ECB reference rates have no such code")
    day, last, series = ecb.bounds[currency].first_date, ecb.bounds[currency].last_date, []
    while day <= last:
        if day.weekday() < 5:  # no reference rate on weekends
            try:
                series.append((day, ecb.convert(1, "EUR", currency, date=day)))
            except RateNotFoundError:
                pass  # a TARGET holiday
        day += dt.timedelta(days=1)
    return tuple(series)


def last_ecb_date(currency: str = "USD") -> dt.date:
    return _ecb().bounds[currency].last_date
