"""The live calculator: a sentence in the reader's language, and a message (never a traceback
or a wrong number) for bad input."""

import pytest

from lib.calculators.boxes import controls
from lib.core import fmt
from lib.chapters import compute
from lib.calculators.rental import describe, rental_calculator, rental_presets
from lib.core.figure import Figure
from lib.core.inputs import load_inputs


@pytest.mark.parametrize("lang", ["es", "en"])
def test_calculator_starts_from_the_sourced_inputs(lang):
    i = load_inputs()
    box = rental_calculator(lang, i)
    run, gpus, days, price, budget = controls(box)
    assert run.value == "opt" and gpus.value == fmt.number(i.opt_gpus, lang) and budget.value == fmt.number(i.budget_eur, lang)
    gpus_, days_, price_ = rental_presets(i)["opt"]
    cost = compute.rental_cost(compute.gpu_hours(gpus_, compute.days_to_hours(days_)), price_)
    assert Figure.of(cost, "USD", decimals=2).format(lang) in box.children[-1].value


@pytest.mark.parametrize("lang, bad, words", [("es", "-8", "No se puede calcular. GPU: tiene que ser mayor que cero."),
                                               ("en", "nan", "Cannot compute. GPUs: must be a finite number."),
                                               ("es", "2,5", "No se puede calcular. GPU: tiene que ser un número entero."),
                                               ("en", "1e300", "Cannot compute. GPUs: must be between 1 and 100,000."),
                                               ("es", "2.5", "No se puede calcular. GPU: escríbelo como el libro "
                                                             "escribe los números, por ejemplo 992."),
                                               ("en", "two", "Cannot compute. GPUs: write it as the book writes "
                                                             "numbers, for example 992.")])
def test_bad_input_shows_a_message_and_no_number(lang, bad, words):
    box = rental_calculator(lang, load_inputs())
    _, gpus, *_ = controls(box)
    gpus.value = bad
    result = box.children[-1].value
    assert result.startswith(words)
    assert "$" not in result and "US$" not in result


@pytest.mark.parametrize("lang", ["es", "en"])
def test_choosing_a_run_fills_its_values_rounded_as_the_book_prints_them(lang):
    """A preset's boxes show its values as the book writes them (whole GPUs, days to the hundredth
    where they are not whole, the price with its cents), in the page's number style; the result is
    computed from the exact values."""
    i = load_inputs()
    box = rental_calculator(lang, i, "llama")
    run, gpus, days, price, _ = controls(box)
    for key, values in rental_presets(i).items():
        run.value = key
        shown = (fmt.number(values[0], lang), fmt.number(values[1], lang, 0 if round(values[1], 2) == int(values[1]) else 2),
                 fmt.number(values[2], lang, 2))
        assert (gpus.value, days.value, price.value) == shown
        cost = compute.rental_cost(compute.gpu_hours(values[0], compute.days_to_hours(values[1])), values[2])
        assert Figure.of(cost, "USD", decimals=2).format(lang) in box.children[-1].value
    run.value = "llama"
    assert days.value == {"es": "20,80", "en": "20.80"}[lang]  # 20.800008138… days


@pytest.mark.parametrize("lang, typed, price", [("es", "3,5", 3.5), ("en", "3.5", 3.5), ("en", "1,000", None)])
def test_a_number_typed_in_the_pages_style_is_read_as_it_is_written(lang, typed, price):
    i = load_inputs()
    box = rental_calculator(lang, i)
    _, gpus, days, box_price, _ = controls(box)
    box_price.value = typed
    if price is None:  # a thousand dollars per GPU-hour: outside the calculator
        assert "between 0.50 and 8" in box.children[-1].value
        return
    gpus_, days_, _ = rental_presets(i)["opt"]
    cost = compute.rental_cost(compute.gpu_hours(gpus_, compute.days_to_hours(days_)), price)
    assert Figure.of(cost, "USD", decimals=2).format(lang) in box.children[-1].value


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_run_reads_custom_once_a_box_leaves_its_value_and_choosing_custom_keeps_the_boxes(lang):
    from lib.calculators.rental import CUSTOM
    from lib.core.words import words

    i = load_inputs()
    box = rental_calculator(lang, i, "llama")
    run, gpus, days, price, _ = controls(box)
    assert dict((label, key) for label, key in run.options)[words(lang)["calculator"]["presets"][CUSTOM]] == CUSTOM
    price.value = fmt.number(3.5, lang, 2)
    assert run.value == CUSTOM and price.value == fmt.number(3.5, lang, 2)
    run.value = "opt"
    assert run.value == "opt" and gpus.value == fmt.number(i.opt_gpus, lang)  # a run's values, one box at a time
    run.value = CUSTOM
    assert gpus.value == fmt.number(i.opt_gpus, lang) and price.value == fmt.number(i.lambda_a100_sxm_8x, lang, 2)


@pytest.mark.parametrize("lang, budget, minutes", [("es", 200, "minutos"), ("en", 200, "minutes")])
def test_less_than_an_hour_of_the_cluster_reads_in_minutes(lang, budget, minutes):
    assert minutes in describe(992, 56, 2.79, budget, lang, load_inputs())


def test_unknown_language_is_refused():
    with pytest.raises(ValueError, match="unknown language 'de'"):
        rental_calculator("de")


def test_describe_refuses_a_budget_below_zero():
    with pytest.raises(ValueError, match="budget must be zero or positive"):
        describe(8, 1, 2.0, -200, "en", load_inputs())


# ---------------------------------------------------------------- the static calculator agrees with lib

import itertools

from lib.calculators.rental import CHIP_RUNS, PRESET_SIGNAL, RANGES, rental_chart, rental_lines, rental_presets, rental_readout

from .vega import grid_readouts, texts

# Every GPU count, length and price of the grid, counted in GPUs and (PaLM's way) in chips; days and
# prices with three and four decimals too, as presets have them (MosaicML's).
GRID = [(*point, chips) for point in itertools.product((1, 8, 992, 2048, 10000), (1, 0.125, 2.83, 20.8, 33.3938, 56, 120),
                                                        (0.5, 1.0, 1.333, 2.1933, 2.79, 4.1, 8.0))
        for chips in (False, True)]


def expected(lang: str, gpus: float, days: float, price: float, chips: bool = False) -> list[str]:
    """The readout as lib computes and writes it (lib.chapters.compute, lib.core.figure), in chips for a chip run."""
    return rental_readout(lang, gpus, days, price, CHIP_RUNS[0] if chips else "")


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_static_calculator_computes_what_lib_computes_on_a_grid(lang):
    """Vega's formulas (the calculator's own expressions, fed a grid of inputs) against lib.chapters.compute
    and lib.core.figure, to the displayed precision: editing a formula on one side only fails here."""
    import pandas as pd

    lines = rental_lines(lang, "datum.gpus", "datum.days", "datum.price", chips="datum.chips")
    got = grid_readouts(pd.DataFrame(GRID, columns=["gpus", "days", "price", "chips"]), lines, lang)
    want = [expected(lang, *point) for point in GRID]
    assert len(got) == len(want)
    wrong = [(w, g) for w, g in zip(want, got) if w != g]
    assert not wrong, wrong[:3]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_static_calculator_starts_at_its_run_and_each_run_reads_what_lib_computes(lang):
    """The first picture is the chapter's run; choosing another run gives its values (the spec
    rendered with that choice) in its units, each read back as lib writes it."""
    i = load_inputs()
    spec = rental_chart(lang, "llama", i).to_dict()
    assert texts(spec, lang)[:4] == expected(lang, *rental_presets(i)["llama"])
    for key, values in rental_presets(i).items():
        run = next(p for p in spec["params"] if p["name"] == PRESET_SIGNAL)
        run["value"] = key
        assert texts(spec, lang)[:4] == expected(lang, *values, chips=key in CHIP_RUNS)


def test_each_run_is_priced_as_its_chapter_prices_it():
    """PaLM's reported chip-hours at the on-demand TPU v4 price are the second chapter's figure at
    that price; MosaicML's run at its implied price is its own published figure."""
    from lib.core.claims import load_claims
    from lib.chapters.article2 import palm_cost

    i = load_inputs()
    presets = rental_presets(i)
    cost = {key: compute.rental_cost(compute.gpu_hours(g, compute.days_to_hours(d)), p) for key, (g, d, p) in presets.items()}
    palm = palm_cost(i, load_claims()).figures["all_on_demand"]
    assert cost["palm"] == pytest.approx(palm.high)
    assert cost["mosaic"] == pytest.approx(i.mosaic_cost)


def test_the_static_calculator_refuses_an_unknown_run_and_keeps_every_run_in_its_sliders():
    with pytest.raises(ValueError, match="unknown run 'gpt5'"):
        rental_chart("es", "gpt5")
    i = load_inputs()
    with pytest.raises(ValueError, match="opt: gpus = 200000 is outside"):
        rental_chart("es", "opt", i.replace("opt_gpus", value=200000.0))
    assert RANGES["gpus"][1] * RANGES["days"][1] * 24 * RANGES["price"][1] < 1e12  # the readout writes billions at most


def test_a_bad_input_that_is_not_a_number_problem_still_reads_in_the_language():
    from lib.core.errors import error

    assert error(ValueError("something else"), "es") == "Entrada no válida"
    assert error(compute.BadInput("gpus", "positive", "gpus must be positive"), "en") == "GPUs: must be more than zero"


def test_each_run_s_readout_factors_multiply_to_its_totals_as_shown():
    """A reader multiplies what the readout shows: each run's devices × days × 24, at the decimals
    the days are written with, gives its device-hours as written (to their last digit), and those
    hours × the price as written give its cost to within 0.01 % (MosaicML's implied price has four
    decimals, not "$2.19", which read $449,327 beside $450,000)."""
    from lib.calculators.rental import FEW_HOURS, MOST_DECIMALS
    from lib.chapters import compute
    from lib.site.charts import decimals_needed

    for key, (gpus, days, price) in rental_presets(load_inputs()).items():
        shown_days = round(days, decimals_needed(days, 2, MOST_DECIMALS))
        shown_price = round(price, max(2, decimals_needed(price, 2, MOST_DECIMALS)))
        hours = compute.gpu_hours(gpus, compute.days_to_hours(days))
        hour_decimals = decimals_needed(hours, 2, 2) if hours < FEW_HOURS else 0
        shown_hours = round(hours, hour_decimals)
        assert abs(gpus * shown_days * 24 - shown_hours) <= 10 ** -hour_decimals, key
        assert abs(shown_hours * shown_price / compute.rental_cost(hours, price) - 1) <= 1e-4, key


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_mosaic_preset_gives_back_mosaic_s_figure_by_construction_and_the_page_says_so(lang, monkeypatch):
    """The sentence beside the calculator quotes the MosaicML preset's price, hours and cost as its
    readout writes them; its price is the one MosaicML's own figure implies, so the cost is that
    figure whatever it is (a figure 10% higher: a price 10% higher, the same hours)."""
    from lib.calculators import rental
    from lib.site import page

    glued = {}
    monkeypatch.setattr(page, "glue", lambda name, value, display=False: glued.__setitem__(name, value))
    i = load_inputs()
    rental.glue_preset(lang, i)
    gpus, days, price = rental_presets(i)["mosaic"]
    assert glued["calc.mosaic.price"] == rental.rental_readout(lang, gpus, days, price, "mosaic")[1].removeprefix("× ")
    assert glued["calc.mosaic.hours"] == rental.rental_readout(lang, gpus, days, price, "mosaic")[2]
    assert glued["calc.mosaic.cost"] == Figure.of(i.mosaic_cost, "USD", decimals=2).format(lang)
    dearer = i.scaled("mosaic_cost", 1.1)
    before, after = rental.preset_figures(i), rental.preset_figures(dearer)
    assert after["cost"] == pytest.approx(dearer.mosaic_cost) and after["hours"] == before["hours"]
    assert after["price"] == pytest.approx(before["price"] * 1.1)
    rental.glue_preset(lang, dearer)
    assert glued["calc.mosaic.cost"] == Figure.of(dearer.mosaic_cost, "USD", decimals=2).format(lang)
    # The other presets have no published figure their price comes from.
    assert "published" not in rental.preset_figures(i, "opt")
