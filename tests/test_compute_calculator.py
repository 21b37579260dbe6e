"""The compute calculator (lib/calculators/compute.py): the static chart's Vega formulas agree with
lib.chapters.compute and lib.core.figure on a grid, it starts where the costs chapter's "From FLOPs to hours"
section does, it refuses values outside its sliders; the live widget computes with lib and answers
bad input with a message in the reader's language and no number."""

import itertools
import math
import re

import pandas as pd
import pytest

from lib.calculators.boxes import controls
from lib.core import fmt
from lib.chapters import compute
from lib.calculators.compute import BILLION, RANGES, compute_calculator, compute_chart, compute_lines, devices, start
from lib.core.figure import Figure
from lib.core.inputs import load_inputs
from lib.core.words import words

from .vega import grid_readouts, texts

I = load_inputs()
CHIPS = list(devices(I).values())
# Parameters and tokens in billions: each slider's ends, the chapter's runs, and token counts that
# Babel rounds half to even (1.450 → 1,4 billones) or down to one (1.050 → 1 billón, singular).
PARAMS = (1, 65.2, 175, 540, 1000)
TOKENS = (1, 300, 1050, 1450, 20000)
UTILISATIONS = (0.05, 0.3, 0.47, 0.62, 1.0)
PRICES = (0.5, 1.8, 4.1, 7.77, 10.0)
# 78 points: every chip with every size and token count, the utilisation and price turning over
# so that the costs reach each way the book writes dollars (cents, thousands, millions); two runs
# in the thousands of millions: the sliders' dearest, and one of two thousand million to the cent
# (no decimals in English: $2 billion); and FLOPs whose mantissa rounds up to ten (9,996 × 10²¹
# is written 1,00 × 10²²).
GRID = [(n, d, chip, UTILISATIONS[k % 5], PRICES[(k // 5 + k) % 5])
        for k, (n, d, chip) in enumerate(itertools.product(PARAMS, TOKENS, CHIPS))]
GRID += [(1000, 20000, devices(I)["tpu_v4"], 0.05, 10.0), (1000, 12000, devices(I)["tpu_v4"], 0.3, 8.25),
         (833, 2, devices(I)["a100"], 0.5, 2.0),
         # Amounts that round into the next scale: a million, and a thousand million (lib and Vega
         # must both write "$1 million" and "$1 billion", not "$1,000,000" or "$1,000 million").
         (7, 200, devices(I)["a100"], 0.05, 6.685713), (942.5, 19862, devices(I)["a100"], 0.05, 0.5)]


def figures(params: float, tokens: float, peak: float, utilisation: float, price: float) -> tuple[float, float, float]:
    flops = compute.training_flops(params, tokens, I.flops_per_param_token)
    hours = compute.flops_to_device_hours(flops, peak, utilisation)
    return flops, hours, compute.rental_cost(hours, price)


def expected(lang: str, params_b: float, tokens_b: float, peak: float, utilisation: float, price: float) -> list[str]:
    """The seven lines as lib.chapters.compute and lib.core.figure give them (parameters and tokens in billions;
    the TPU's hours are chip-hours)."""
    params, tokens = params_b * BILLION, tokens_b * BILLION
    flops, hours, cost = figures(params, tokens, peak, utilisation, price)
    w = words(lang)["calculator_compute"]
    key = next(key for key, value in devices(I).items() if value == peak)
    unit = "chip-hour" if key == "tpu_v4" else "GPU-hour"
    return [
        Figure.of(params, 'parameter', compact=True, decimals=1).format(lang),
        f"× {Figure.of(tokens, 'token', compact=True, decimals=1).format(lang)}",
        f"{w['devices'][key]} · {Figure.of(utilisation, 'fraction', decimals=1).format(lang)} {w['of_peak']}",
        Figure.of(price, f"USD/{unit}").format(lang),
        Figure.of(flops, "FLOP").format(lang),
        Figure.of(hours, unit).format(lang),
        Figure.of(cost, "USD", decimals=2).format(lang),
    ]


def test_the_grid_reaches_every_way_of_writing_the_figures():
    costs = [figures(n * BILLION, d * BILLION, chip, u, p)[2] for n, d, chip, u, p in GRID]
    assert len(GRID) <= 82
    assert min(costs) < 1e3 and max(costs) >= 1e9
    assert Figure.of(compute.training_flops(833 * BILLION, 2 * BILLION, I.flops_per_param_token), "FLOP").format("en") \
        == "1.00 × 10²² FLOPs"
    assert any(1e3 <= c < 1e6 for c in costs) and any(1e6 <= c < 1e9 for c in costs)
    assert any(999_999.5 <= c < 1e6 for c in costs) and any(999_995e3 <= c < 1e9 for c in costs)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_static_calculator_computes_what_lib_computes_on_a_grid(lang):
    """Vega's formulas (the calculator's own expressions, fed a grid of inputs) against lib.chapters.compute
    and lib.core.figure, to the displayed precision: editing a formula on one side only fails here."""
    lines = compute_lines(lang, "datum.params", "datum.tokens", "datum.peak", "datum.utilisation", "datum.price", I)
    got = grid_readouts(pd.DataFrame(GRID, columns=["params", "tokens", "peak", "utilisation", "price"]), lines, lang)
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
    assert shown == expected(lang, s["params"] / BILLION, s["tokens"] / BILLION, s["peak"], s["utilisation"], s["price"])
    assert shown[5] == Figure.of(I.llama_65b_gpu_hours, "GPU-hour").format(lang)


def test_the_static_calculator_refuses_values_outside_its_sliders():
    s = start(I)
    for name, bad in (("params", 0.5 * BILLION), ("tokens", 3e4 * BILLION), ("utilisation", 0), ("price", 11)):
        with pytest.raises(ValueError, match=f"{name} = .* is outside"):
            compute_chart("es", **{**s, name: bad}, inputs=I)
    with pytest.raises(ValueError, match="none of the calculator's chips"):
        compute_chart("en", **{**s, "peak": 1e15}, inputs=I)


def test_the_sliders_keep_the_hours_plural_and_the_cost_below_a_trillion():
    """The readout writes dollars up to thousands of millions, and GPU-hours with no singular."""
    (n_low, n_high, _), (d_low, d_high, _) = RANGES["params"], RANGES["tokens"]
    (u_low, u_high, _), (p_low, p_high, _) = RANGES["utilisation"], RANGES["price"]
    most = figures(n_high * BILLION, d_high * BILLION, min(CHIPS), u_low, p_high)[2]
    fewest = figures(n_low * BILLION, d_low * BILLION, max(CHIPS), u_high, p_low)[1]
    assert most < 1e12 and fewest > 1.5
    assert u_high <= 1 and math.isclose(start(I)["utilisation"], compute.flops_to_device_hours(
        compute.training_flops(I.llama_65b_params, I.llama_tokens, I.flops_per_param_token), I.a100_bf16_peak, 1)
        / I.llama_65b_gpu_hours)


# ---------------------------------------------------------------- the live calculator

@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_live_calculator_starts_from_the_sourced_inputs_rounded_as_the_book_prints_them(lang):
    """Its boxes write LLaMA 65B's start as the book does, in the page's number style: 65,2 (thousand
    million parameters), 1.400 (thousand million tokens), 47,7 (% of the peak), 3,67 (dollars); never
    the utilisation's 0.476941472… The result is computed from the exact values."""
    box = compute_calculator(lang, I)
    params, tokens, chip, utilisation, price = controls(box)
    s = start(I)
    assert [params.value, tokens.value, utilisation.value, price.value] == [
        fmt.number(s["params"] / BILLION, lang, 1), fmt.number(s["tokens"] / BILLION, lang),
        fmt.number(s["utilisation"] * 100, lang, 1), fmt.number(s["price"], lang, 2)]
    assert chip.value == s["peak"]
    for line in expected(lang, s["params"] / BILLION, s["tokens"] / BILLION, s["peak"], s["utilisation"], s["price"])[4:]:
        assert line in box.children[-1].value


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_live_calculator_follows_its_boxes_and_menu(lang):
    box = compute_calculator(lang, I)
    params, tokens, chip, utilisation, price = controls(box)
    params.value, tokens.value, utilisation.value, price.value = (fmt.number(v, lang, d) for v, d in
                                                                  ((7, 0), (2000, 0), (40, 0), (2.5, 2)))
    chip.value = devices(I)["h100"]
    assert chip.label == words(lang)["calculator_compute"]["devices"]["h100"]
    for line in expected(lang, 7, 2000, devices(I)["h100"], 0.4, 2.5)[4:]:
        assert line in box.children[-1].value


@pytest.mark.parametrize("lang, field, bad, message", [
    ("es", 3, "150", "No se puede calcular. Utilización: tiene que estar entre 5 y 100."),  # % in its box
    ("es", 0, "-7", "No se puede calcular. Parámetros: tiene que ser mayor que cero."),
    ("en", 1, "nan", "Cannot compute. Tokens: must be a finite number."),
    ("en", 4, "0", "Cannot compute. Price per GPU-hour: must be more than zero."),
    ("en", 4, "1e300", "Cannot compute. Price per GPU-hour: must be between 0.50 and 10."),
    ("es", 0, "0,000000001", "No se puede calcular. Parámetros: tiene que estar entre 1 y 1.000."),
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
