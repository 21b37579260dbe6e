"""Unit tests of lib.chapters.compute: the arithmetic, and the clear errors for bad input."""

import datetime as dt
import math

import pytest

from lib.chapters import compute


def test_gpu_hours_and_cost_compose():
    hours = compute.gpu_hours(8, compute.days_to_hours(2))
    assert hours == 8 * 2 * compute.HOURS_PER_DAY
    assert compute.rental_cost(hours, 2.5) == hours * 2.5
    assert compute.hours_bought(compute.rental_cost(10, 3.0), 3.0) == pytest.approx(10)


def test_monthly_price_per_gpu_hour_uses_the_730_hour_month():
    assert compute.monthly_to_hourly(compute.HOURS_PER_MONTH * 8 * 1.5, 8) == pytest.approx(1.5)


def test_training_flops_is_6nd_and_converts_to_device_hours():
    flops = compute.training_flops(params=1e9, tokens=1e10)
    assert flops == 6e19
    # At full utilisation, FLOPs / peak is seconds; half the utilisation, twice the hours.
    full = compute.flops_to_device_hours(flops, 1e15)
    assert full == pytest.approx(6e19 / 1e15 / 3600)
    assert compute.flops_to_device_hours(flops, 1e15, 0.5) == pytest.approx(2 * full)


def test_lora_params_follow_the_paper_formula():
    one = compute.lora_trainable_params(d_model=16, layers=2, matrix_types=2, rank=1)
    assert one == 2 * (2 * 2) * 16 * 1
    assert compute.lora_trainable_params(16, 2, 2, 4) == 4 * one


def test_training_memory_and_devices():
    per_param = compute.training_bytes_per_param()
    assert per_param == 2 + 2 + 12
    memory = compute.training_memory_gb(1e9, per_param)
    assert memory == pytest.approx(16)
    assert compute.devices_needed(memory, 8) == 2
    assert compute.devices_needed(memory, 16) == 1


def test_days_between():
    assert compute.days_between(dt.date(2021, 11, 11), dt.date(2021, 11, 12)) == 1


def test_currency_conversion_is_consistent_both_ways():
    day = compute.last_ecb_date()
    while True:  # the last published day is a business day, but go back if needed
        try:
            compute.ecb_rate("USD", day)
            break
        except ValueError:
            day -= dt.timedelta(days=1)
    there = compute.convert(100, "EUR", "USD", day)
    assert there == pytest.approx(100 * compute.ecb_rate("USD", day))
    assert compute.convert(there, "USD", "EUR", day) == pytest.approx(100)


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: compute.gpu_hours(-1, 5), "gpus must be positive"),
        (lambda: compute.gpu_hours(0, 5), "gpus must be positive"),
        (lambda: compute.gpu_hours(math.nan, 5), "gpus must be a finite number"),
        (lambda: compute.gpu_hours(8, math.inf), "hours must be a finite number"),
        (lambda: compute.rental_cost(10, "3.99"), "price_per_gpu_hour must be a number"),
        (lambda: compute.rental_cost(True, 1), "gpu_hours must be a number"),
        (lambda: compute.flops_to_device_hours(1e20, 1e15, 1.5), "utilisation is a fraction"),
        (lambda: compute.lora_trainable_params(16, 2, 2, 2.5), "rank must be a whole number"),
        (lambda: compute.lora_trainable_params(16, 2, 2, 32), "rank (32) cannot exceed d_model"),
        (lambda: compute.days_between(dt.date(2022, 1, 6), dt.date(2021, 11, 11)), "is before start"),
        (lambda: compute.days_between("2021-11-11", dt.date(2022, 1, 6)), "start must be a date"),
        (lambda: compute.convert(1, "EUR", "XYZ", dt.date(2023, 3, 21)), "unknown currency 'XYZ'"),
        (lambda: compute.convert(1, "EUR", "USD", dt.date(1990, 1, 2)), "no ECB rate for USD on 1990-01-02"),
        (lambda: compute.convert(1, "EUR", "USD", compute.last_ecb_date() + dt.timedelta(days=30)), "the shipped data covers"),
        (lambda: compute.convert(1, "EUR", "USD", dt.date(2023, 3, 19)), "a weekend or a TARGET holiday"),
        (lambda: compute.convert(-5, "EUR", "USD", dt.date(2023, 3, 21)), "amount must be zero or positive"),
    ],
)
def test_bad_input_gets_a_value_error_that_says_what_is_wrong(call, words):
    with pytest.raises(ValueError) as error:
        call()
    assert words in str(error.value)


def test_months_and_throughput_to_hours():
    assert compute.months_to_hours(2) == 2 * compute.HOURS_PER_MONTH
    # 3,600 tokens at 1 token/s on one device is one hour; twice the devices, half the time.
    assert compute.throughput_hours(3600, 1, 1) == pytest.approx(1)
    assert compute.throughput_hours(3600, 1, 2) == pytest.approx(0.5)


@pytest.mark.parametrize("call, words", [(lambda: compute.months_to_hours(0), "months must be positive"),
                                         (lambda: compute.throughput_hours(1e9, math.nan, 8), "tokens_per_second_per_device must be a finite"),
                                         (lambda: compute.throughput_hours(1e9, 380, -1), "devices must be positive")])
def test_months_and_throughput_refuse_bad_input(call, words):
    with pytest.raises(ValueError, match=words):
        call()
