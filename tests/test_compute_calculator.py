"""The compute calculator (lib/calculators/compute.py): the static chart's Vega formulas agree with
lib.chapters.compute and lib.core.figure on a grid from fine-tuning jobs of seconds and cents to
trillion-parameter runs, it starts where the costs chapter's "From FLOPs to hours" section does, it
reaches the budget chapter's GPT-2 124M, it refuses values outside its sliders; the live widget
computes with lib and answers bad input with a message in the reader's language and no number."""

import itertools
import math
import re

import pandas as pd
import pytest

from lib.calculators.boxes import controls
from lib.core import fmt
from lib.chapters import budget, compute
from lib.calculators.compute import (POWERS, RANGES, SIGNALS, compute_calculator, compute_chart, compute_lines,
                                     cost_figure, device_time, devices, readout, start)
from lib.core.figure import Figure
from lib.core.inputs import load_inputs
from lib.core.words import words

from .vega import grid_readouts, texts

I = load_inputs()
CHIPS = list(devices(I).values())
A100, H100, TPU = (devices(I)[key] for key in ("a100", "h100", "tpu_v4"))
# Parameters and tokens, whole counts: each slider's ends, GPT-2 124M and the chapters' runs, and
# token counts that Babel rounds half to even (1.450.000 → 1,4 millones) or down to one (1,05
# billones → 1 billón, singular).
PARAMS = (1e8, 124_439_808, 7e9, 175e9, 1e12)
TOKENS = (1e6, 1_450_000, 2_488_796_160, 1.05e12, 2e13)
UTILISATIONS = (0.05, 0.3, 0.47, 0.62, 1.0)
PRICES = (0.1, 1.75, 4.1, 7.77, 20.0)


def tokens_for(hours: float, params: float, peak: float, utilisation: float) -> float:
    """The whole tokens that take about `hours` of one chip (the inverse of lib.chapters.compute)."""
    return round(hours * compute.SECONDS_PER_HOUR * peak * utilisation / (I.flops_per_param_token * params))


# 75 points: every chip with every size and token count, the utilisation and price turning over
# so that the costs reach each way the readout writes dollars (less than a cent, cents, thousands,
# millions, thousands of millions) and its times each unit (seconds, minutes, hours); then the
# edges: the sliders' dearest run; one of two thousand million dollars to the cent (no decimals in
# English: $2 billion); FLOPs whose mantissa rounds up to ten (9,996 × 10²¹ is written 1,00 ×
# 10²²); amounts that round into the next scale (lib and Vega must both write "$1 million" and
# "$1 billion", not "$1,000,000" or "$1,000 million"); counts that round into the next scale
# (999.96 million parameters are 1.000 millones / 1 billion; 999.96 thousand million tokens 1
# billón / 1 trillion); one device-second, -minute and -hour, in the singular; minutes and seconds
# that round to sixty (59.6 minutes is 1 GPU-hour, 59.6 seconds 1 GPU-minute); a cost of exactly
# half a cent, and one just under it; a cost under a dollar.
GRID = [(n, d, chip, UTILISATIONS[k % 5], PRICES[(k // 5 + k) % 5])
        for k, (n, d, chip) in enumerate(itertools.product(PARAMS, TOKENS, CHIPS))]
GRID += [(1e12, 2e13, TPU, 0.05, 20.0), (1e12, 12e12, TPU, 0.3, 8.25),
         (833e9, 2e9, A100, 0.5, 2.0),
         (7e9, 200e9, A100, 0.05, 6.685713), (942.5e9, 19862e9, A100, 0.05, 0.5),
         (999_960_000, 999_960_000_000, H100, 0.4, 3.0),
         (1e8, tokens_for(1 / 3600, 1e8, H100, 1.0), H100, 1.0, 2.0),
         (1e8, tokens_for(1 / 60, 1e8, TPU, 0.5), TPU, 0.5, 2.0),
         (1e8, tokens_for(1, 1e8, H100, 0.5), H100, 0.5, 2.0),
         (1e8, tokens_for(59.6 / 60, 1e8, H100, 0.5), H100, 0.5, 2.0),
         (1e8, tokens_for(59.6 / 3600, 1e8, H100, 0.5), H100, 0.5, 2.0),
         (1e8, tokens_for(HALF := 0.005 / 3.6, 1e8, A100, 1.0), A100, 1.0, 3.6),
         (1e8, tokens_for(HALF * 0.98, 1e8, A100, 1.0), A100, 1.0, 3.6),
         (124_439_808, 50e6, A100, 0.4, 2.79)]


def figures(params: float, tokens: float, peak: float, utilisation: float, price: float) -> tuple[float, float, float]:
    flops = compute.training_flops(params, tokens, I.flops_per_param_token)
    hours = compute.flops_to_device_hours(flops, peak, utilisation)
    return flops, hours, compute.rental_cost(hours, price)


def unit_of(peak: float) -> str:
    return "chip-hour" if peak == TPU else "GPU-hour"


def expected(lang: str, params: float, tokens: float, peak: float, utilisation: float, price: float) -> list[str]:
    """The seven lines as lib.chapters.compute and lib.core.figure give them (the TPU's hours are
    chip-hours; a time under an hour in minutes, under a minute in seconds; a cost under half a cent
    "less than $0.01")."""
    flops, hours, cost = figures(params, tokens, peak, utilisation, price)
    w = words(lang)["calculator_compute"]
    key = next(key for key, value in devices(I).items() if value == peak)
    return [
        Figure.of(params, 'parameter', compact=True, decimals=1).format(lang),
        f"× {Figure.of(tokens, 'token', compact=True, decimals=1).format(lang)}",
        f"{w['devices'][key]} · {Figure.of(utilisation, 'fraction', decimals=1).format(lang)} {w['of_peak']}",
        Figure.of(price, f"USD/{unit_of(peak)}").format(lang),
        Figure.of(flops, "FLOP").format(lang),
        device_time(hours, unit_of(peak)).format(lang),
        cost_figure(cost).format(lang),
    ]


def test_the_grid_reaches_every_way_of_writing_the_figures():
    points = [figures(n, d, chip, u, p) for n, d, chip, u, p in GRID]
    costs = [cost for _, _, cost in points]
    assert len(GRID) <= 92
    assert all(RANGES["params"][0] <= n <= RANGES["params"][1] and RANGES["tokens"][0] <= d <= RANGES["tokens"][1]
               and n == int(n) and d == int(d) for n, d, *_ in GRID)
    assert min(costs) < 0.005 and max(costs) >= 1e9
    assert Figure.of(compute.training_flops(833e9, 2e9, I.flops_per_param_token), "FLOP").format("en") \
        == "1.00 × 10²² FLOPs"
    assert any(0.005 <= c < 1 for c in costs) and any(1e3 <= c < 1e6 for c in costs) and any(1e6 <= c < 1e9 for c in costs)
    assert any(999_999.5 <= c < 1e6 for c in costs) and any(999_995e3 <= c < 1e9 for c in costs)
    assert any(0.0048 < c < 0.005 for c in costs) and any(0.005 <= c < 0.0051 for c in costs)
    times = {device_time(hours, unit_of(chip)).format("en") for (_, hours, _), (_, _, chip, _, _) in zip(points, GRID)}
    for shown in ("1 GPU-second", "1 chip-minute", "1 GPU-hour"):
        assert shown in times, shown
    assert any(t.endswith(" GPU-seconds") for t in times) and any(t.endswith(" GPU-minutes") for t in times)
    assert sum(t == "1 GPU-hour" for t in times) == 1 and "60 GPU-minutes" not in times and "60 GPU-seconds" not in times
    shown = [Figure.of(n, "parameter", compact=True, decimals=1).format("es") for n, *_ in GRID]
    assert "1.000 millones de parámetros" in shown and "124,4 millones de parámetros" in shown


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_static_calculator_computes_what_lib_computes_on_a_grid(lang):
    """Vega's formulas (the calculator's own expressions, fed a grid of inputs: the parameters and tokens
    as the powers of ten their sliders hold) against lib.chapters.compute and lib.core.figure, to the
    displayed precision: editing a formula on one side only fails here."""
    lines = compute_lines(lang, "datum.params", "datum.tokens", "datum.peak", "datum.utilisation", "datum.price", I)
    powers = [(math.log10(n), math.log10(d), *rest) for n, d, *rest in GRID]
    got = grid_readouts(pd.DataFrame(powers, columns=["params", "tokens", "peak", "utilisation", "price"]), lines, lang)
    want = [expected(lang, *point) for point in GRID]
    assert len(got) == len(want)
    wrong = [(w, g) for w, g in zip(want, got) if w != g]
    assert not wrong, wrong[:3]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_static_calculator_starts_where_the_chapter_does(lang):
    """LLaMA 65B on the A100 at the utilisation its reported hours imply: the readout gives back
    those hours, as the chapter glues them (costs.flops.llama.hours)."""
    s = start(I)
    shown = texts(compute_chart(lang, **s, inputs=I), lang)[:7]
    assert shown == expected(lang, s["params"], s["tokens"], s["peak"], s["utilisation"], s["price"])
    assert shown[5] == Figure.of(I.llama_65b_gpu_hours, "GPU-hour").format(lang)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_job_under_an_hour_is_written_in_minutes_by_the_calculator_s_own_formula(lang):
    """GPT-2 124M on the tokens that take half an hour of one H100 at llm.c's utilisation (its parameters and
    tokens typed into the fields, the counts exactly, not a slider's step): the static page and lib give the
    calculator's own formula (k·N·D over the peak at that utilisation, times the price), the time in minutes.
    The calculator is the costs chapter's 6·N·D at one utilisation, not the planner's speed model: it is not
    checked against the budget chapter's hours, which the speed model times (tests/test_plan.py)."""
    params, peak, utilisation = I.llmc_124m_params, budget.h100_peak(I), I.llmc_124m_mfu
    run = {"params": params, "tokens": tokens_for(0.5, params, peak, utilisation), "peak": peak,
           "utilisation": utilisation, "price": I.lambda_h100_sxm_1x}
    flops, hours, cost = figures(*run.values())
    shown = texts(compute_chart(lang, **run, inputs=I), lang)[:7]
    assert shown == expected(lang, *run.values()) and shown[6] == Figure.of(cost, "USD", decimals=2).format(lang)
    assert shown[6] == readout(lang, **run, i=I)["cost"]
    assert 0.49 < hours < 0.51 and shown[5] == device_time(hours).format(lang)
    assert device_time(hours).unit == "GPU-minute"


def test_the_static_calculator_refuses_values_outside_its_sliders():
    s = start(I)
    for name, bad in (("params", 5e7), ("tokens", 3e13), ("utilisation", 0), ("price", 21)):
        with pytest.raises(ValueError, match=f"{name} = .* is outside"):
            compute_chart("es", **{**s, name: bad}, inputs=I)
    with pytest.raises(ValueError, match="none of the calculator's chips"):
        compute_chart("en", **{**s, "peak": 1e15}, inputs=I)


def test_the_sliders_reach_fine_tuning_and_the_prices_the_book_sources():
    """From a hundred million parameters (GPT-2 124M) on a million tokens to a trillion on twenty
    trillion; prices from below the cheapest the book sources to at least 15 dollars an hour and the
    dearest it sources; the parameters' and tokens' sliders hold powers of ten, whole counts at
    their ends."""
    (n_low, n_high, _), (d_low, d_high, _) = RANGES["params"], RANGES["tokens"]
    (u_low, u_high, _), (p_low, p_high, _) = RANGES["utilisation"], RANGES["price"]
    assert n_low <= 1e8 < I.llmc_124m_params and n_high >= 1e12 and d_low <= 1e6 and d_high >= 2e13
    sourced = [e.value for _, e in I.items() if e.unit in ("USD/GPU-hour", "USD/chip-hour")]
    assert p_low < min(sourced) and p_high >= max(15, max(sourced))
    assert set(POWERS) == {"params", "tokens"} and all(SIGNALS[name].endswith("_power") for name in POWERS)
    spec = compute_chart("en", **start(I), inputs=I).to_dict()
    bound = {p["name"]: p["bind"] for p in spec["params"]}
    for name, low, high in (("params", n_low, n_high), ("tokens", d_low, d_high)):
        assert round(10 ** bound[SIGNALS[name]]["min"]) == low and round(10 ** bound[SIGNALS[name]]["max"]) == high
    assert spec["usermeta"]["powers"] == spec["usermeta"]["whole"] == [SIGNALS[name] for name in POWERS]


def test_the_sliders_ends_give_a_second_and_less_than_a_cent_and_below_a_trillion_dollars():
    """The readout writes dollars up to thousands of millions, and times down to one device-second
    (never 0 seconds)."""
    (n_low, n_high, _), (d_low, d_high, _) = RANGES["params"], RANGES["tokens"]
    (u_low, u_high, _), (p_low, p_high, _) = RANGES["utilisation"], RANGES["price"]
    most = figures(n_high, d_high, min(CHIPS), u_low, p_high)[2]
    _, fewest, cheapest = figures(n_low, d_low, max(CHIPS), u_high, p_low)
    assert most < 1e12 and round(fewest * 3600) >= 1 and cheapest < 0.005
    for lang in ("es", "en"):
        assert device_time(fewest).format(lang) == f"1 {fmt.unit_word('GPU-second', lang, 1)}"
        assert cost_figure(cheapest).format(lang) == Figure.less_than(0.01, "USD", decimals=2).format(lang)
    assert u_high <= 1 and math.isclose(start(I)["utilisation"], compute.flops_to_device_hours(
        compute.training_flops(I.llama_65b_params, I.llama_tokens, I.flops_per_param_token), I.a100_bf16_peak, 1)
        / I.llama_65b_gpu_hours)


@pytest.mark.parametrize("lang, hours, shown", [
    ("es", 2.5 / 3600, "2 segundos-GPU"), ("en", 1 / 3600, "1 GPU-second"), ("en", 59.6 / 3600, "1 GPU-minute"),
    ("es", 1 / 60, "1 minuto-GPU"), ("es", 52.2 / 60, "52 minutos-GPU"), ("en", 59.4 / 60, "59 GPU-minutes"),
    ("en", 59.6 / 60, "1 GPU-hour"), ("es", 1.4, "1 hora-GPU"), ("en", 11.08, "11 GPU-hours"),
    ("es", 1_022_362.4, "1.022.362 horas-GPU"),
])
def test_a_time_is_written_in_the_unit_it_reads_in(lang, hours, shown):
    assert device_time(hours).format(lang) == shown


def test_a_chip_s_time_is_in_chip_units_and_nothing_else_is_taken():
    assert device_time(0.5, "chip-hour").format("es") == "30 minutos-chip"
    with pytest.raises(ValueError, match="GPU-hours or chip-hours"):
        device_time(2, "hour")


@pytest.mark.parametrize("lang, cost, shown", [
    ("es", 0.37, "0,37 dólares"), ("en", 0.37, "$0.37"), ("en", 0.0049, "less than $0.01"),
    ("es", 0.001, "menos de 0,01 dólares"), ("en", 0.005, "$0.01"),
])
def test_a_cost_under_a_dollar_reads_right(lang, cost, shown):
    assert cost_figure(cost).format(lang) == shown


# ---------------------------------------------------------------- the live calculator

@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_live_calculator_starts_from_the_sourced_inputs_rounded_as_the_book_prints_them(lang):
    """Its boxes write LLaMA 65B's start as the book does, in the page's number style: 65.200.000.000
    parameters and 1.400.000.000.000 tokens (whole counts, as the static page's fields), 47,7 (% of
    the peak), 4,10 (dollars); never the utilisation's 0.476941472… The result is computed from the
    exact values."""
    box = compute_calculator(lang, I)
    params, tokens, chip, utilisation, price = controls(box)
    s = start(I)
    assert [params.value, tokens.value, utilisation.value, price.value] == [
        fmt.number(s["params"], lang), fmt.number(s["tokens"], lang),
        fmt.number(s["utilisation"] * 100, lang, 1), fmt.number(s["price"], lang, 2)]
    assert chip.value == s["peak"]
    for line in expected(lang, s["params"], s["tokens"], s["peak"], s["utilisation"], s["price"])[4:]:
        assert line in box.children[-1].value


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_live_calculator_follows_its_boxes_and_menu(lang):
    box = compute_calculator(lang, I)
    params, tokens, chip, utilisation, price = controls(box)
    params.value, tokens.value, utilisation.value, price.value = (fmt.number(v, lang, d) for v, d in
                                                                  ((7e9, 0), (2e12, 0), (40, 0), (2.5, 2)))
    chip.value = devices(I)["h100"]
    assert chip.label == words(lang)["calculator_compute"]["devices"]["h100"]
    for line in expected(lang, 7e9, 2e12, devices(I)["h100"], 0.4, 2.5)[4:]:
        assert line in box.children[-1].value
    # A fine-tuning job: minutes, and cents; the sliders' ends, typed.
    params.value, tokens.value, price.value = (fmt.number(v, lang, d) for v, d in ((124_439_808, 0), (50e6, 0),
                                                                                   (15, 2)))
    want = expected(lang, 124_439_808, 50e6, devices(I)["h100"], 0.4, 15)[4:]
    assert all(line in box.children[-1].value for line in want) and fmt.unit_word("GPU-minute", lang) in want[1]
    params.value, tokens.value, price.value = (fmt.number(v, lang, d) for v, d in ((1e8, 0), (1e6, 0), (0.1, 2)))
    assert cost_figure(0).format(lang) in box.children[-1].value
    params.value, tokens.value, price.value = (fmt.number(v, lang, d) for v, d in ((1e12, 0), (2e13, 0), (20, 2)))
    assert expected(lang, 1e12, 2e13, devices(I)["h100"], 0.4, 20)[6] in box.children[-1].value


@pytest.mark.parametrize("lang, field, bad, message", [
    ("es", 3, "150", "No se puede calcular. Utilización: tiene que estar entre 5 y 100."),  # % in its box
    ("es", 0, "-7", "No se puede calcular. Parámetros: tiene que ser mayor que cero."),
    ("en", 1, "nan", "Cannot compute. Tokens: must be a finite number."),
    ("en", 4, "0", "Cannot compute. Price per GPU-hour: must be more than zero."),
    ("en", 4, "1e300", "Cannot compute. Price per GPU-hour: must be between 0.10 and 20."),
    ("en", 4, "20.01", "Cannot compute. Price per GPU-hour: must be between 0.10 and 20."),
    ("es", 0, "99.999.999", "No se puede calcular. Parámetros: tiene que estar entre 100.000.000 y 1.000.000.000.000."),
    ("en", 1, "20,000,000,000,001", "Cannot compute. Tokens: must be between 1,000,000 and 20,000,000,000,000."),
    ("es", 0, "124.439.808,5", "No se puede calcular. Parámetros: tiene que ser un número entero."),
    ("en", 1, "0.5", "Cannot compute. Tokens: must be a whole number."),
    ("es", 4, "3.67", "No se puede calcular. Precio por hora-GPU: escríbelo como el libro escribe los números, "
                      "por ejemplo {price}."),
])
def test_bad_input_shows_a_message_and_no_number(lang, field, bad, message):
    box = compute_calculator(lang, I)
    controls(box)[field].value = bad
    result = box.children[-1].value
    assert result == message.format(price=fmt.number(start(I)["price"], lang, 2))
    assert not re.search(r"\d", re.sub(r"(entre|between) \S+ (y|and) \S+|por ejemplo \S+", "", result)) and "$" not in result


def test_unknown_language_is_refused():
    with pytest.raises(ValueError, match="unknown language 'de'"):
        compute_calculator("de", I)
    with pytest.raises(ValueError, match="unknown language 'de'"):
        compute_lines("de", "a", "b", "c", "d", "e", I)
