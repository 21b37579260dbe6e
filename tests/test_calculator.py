"""The live calculator: a sentence in the reader's language, and a message (never a traceback
or a wrong number) for bad input."""

import pytest

from lib import compute
from lib.calculator import describe, rental_calculator
from lib.figure import Figure
from lib.inputs import load_inputs


@pytest.mark.parametrize("lang", ["es", "en"])
def test_calculator_starts_from_the_sourced_inputs(lang):
    i = load_inputs()
    box = rental_calculator(lang, i)
    *fields, result = box.children
    assert [f.value for f in fields][0] == i.opt_gpus
    cost = compute.rental_cost(compute.gpu_hours(fields[0].value, compute.days_to_hours(fields[1].value)), fields[2].value)
    assert Figure.of(cost, "USD", decimals=2).format(lang) in result.value


@pytest.mark.parametrize("lang, bad, words", [("es", -8, "Entrada no válida: gpus must be positive"),
                                               ("en", float("nan"), "Invalid input: gpus must be a finite number")])
def test_bad_input_shows_a_message_and_no_number(lang, bad, words):
    box = rental_calculator(lang, load_inputs())
    gpus, *_, result = box.children
    gpus.value = bad
    assert result.value.startswith(words)
    assert "$" not in result.value and "US$" not in result.value


def test_unknown_language_is_refused():
    with pytest.raises(ValueError, match="unknown language 'de'"):
        rental_calculator("de")


def test_describe_refuses_a_budget_below_zero():
    with pytest.raises(ValueError, match="amount must be zero or positive"):
        describe(8, 1, 2.0, -200, "en", load_inputs())
