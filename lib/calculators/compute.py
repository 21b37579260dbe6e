"""The compute calculator: parameters and training tokens → training FLOPs (C = k·N·D) → hours on
a chip at a utilisation → cost at a price per GPU-hour. Two forms that compute alike, as the
rental calculator (lib/calculators/rental.py): a chart with sliders and a chip menu on the static page
(Vega, no kernel), and a live widget for Jupyter and Binder. Both start from the run that the
costs chapter's "From FLOPs to hours" section discusses (`start`); bad input gets a message in
the reader's language."""

from __future__ import annotations

import json
import math

import altair as alt
import ipywidgets as widgets

from lib.calculators.boxes import NumberBox, form, in_box_units
from lib.site import charts
from lib.chapters import compute
from lib.core import fmt
from lib.chapters.budget import h100_peak
from lib.core.figure import Figure
from lib.core.inputs import Inputs, load_inputs
from lib.core.errors import error
from lib.core.words import words

# The controls' ranges, in the readout's units (parameters, tokens, a fraction of the peak, dollars per
# device-hour). Parameters and tokens span fine-tuning runs and the largest pretraining runs, from a
# hundred million parameters (GPT-2 124M, the budget chapter's smallest model) on a million tokens to
# a trillion parameters on twenty trillion tokens: up to seven orders of magnitude that a slider of even
# steps cannot cross on a phone, so their sliders move by powers of ten (POWERS, a step of a
# hundredth of a power: 2.3 %), and the field beside each takes and writes the count itself
# (book/_static/calculator.js), exactly: GPT-2 124M's 124,439,808 parameters, not the nearest step.
# The price runs from cheap rates, well under the cheapest the book sources (a 3-year commitment's
# 1.45 dollars per A100-hour), to 20 dollars per GPU-hour, about four times the dearest it sources (AWS's
# on-demand A100 of 2022), in cents. The fewest device-hours they give (the smallest run on the
# fastest chip at full use) are under a second, written in device-seconds (device_time); the fewest
# dollars, under a cent (cost_figure); the most dollars (largest run, slowest chip, lowest use,
# highest price) stay below 10¹² (tests/test_compute_calculator.py checks all three).
RANGES = {"params": (1e8, 1e12, 0.01), "tokens": (1e6, 2e13, 0.01), "utilisation": (0.05, 1, 0.01),
          "price": (0.1, 20, 0.01)}
# The controls whose sliders move by powers of ten: their signal holds the count's log10, their step is
# in powers, and the count is a whole number (the field refuses 1,5 tokens).
POWERS = ("params", "tokens")
# Below half a cent the cost is written "less than $0.01" (cost_figure), not "$0.00".
HALF_CENT = 0.005
# The controls' signal names: their own, so that the page's other charts keep theirs.
# The parameters' and tokens' are named for the powers of ten they hold, so that an address written when
# they held billions (comp_params=65.2) is left out rather than read as 10^65.2.
SIGNALS = {name: f"comp_{name}" + ("_power" if name in POWERS else "")
           for name in ("params", "tokens", "peak", "utilisation", "price")}


def devices(i: Inputs) -> dict[str, float]:
    """The chips on the menu (keys of the words' [calculator_compute.devices]) and their dense bf16
    peaks in FLOP/s, from the sourced inputs."""
    return {"a100": i.a100_bf16_peak, "h100": h100_peak(i), "tpu_v4": i.tpu_v4_peak}


def device_name(peak: float, lang: str, i: Inputs) -> str:
    names = words(lang)["calculator_compute"]["devices"]
    for key, value in devices(i).items():
        if value == peak:
            return names[key]
    raise ValueError(f"peak {peak!r} FLOP/s is none of the calculator's chips ({', '.join(devices(i))})")


def start(i: Inputs) -> dict[str, float]:
    """Where the calculator starts: LLaMA 65B as the costs chapter's "From FLOPs to hours" tells it.
    Its parameters and tokens, the A100's bf16 peak and the utilisation that its reported GPU-hours
    imply (lib.chapters.costs.flops_rows: LLaMA reports no FLOPs, so k·N·D stands in), which gives back
    those hours; priced at Azure's on-demand A100 price of 2022, the price the chapter's
    reproduction of the second article's LLaMA cost uses."""
    from lib.chapters.costs import flops_rows

    return {"params": i.llama_65b_params, "tokens": i.llama_tokens, "peak": i.a100_bf16_peak,
            "utilisation": flops_rows(i)["llama"]["utilisation"], "price": i.azure_a100_2022_on_demand}


def start_figures(i: Inputs) -> dict[str, Figure]:
    """The start values the prose names (glued as costs.calc.<name>)."""
    s = start(i)
    return {"params": Figure.of(s["params"], "parameter", compact=True, decimals=1),
            "tokens": Figure.of(s["tokens"], "token", compact=True, decimals=1),
            "utilisation": Figure.of(s["utilisation"], "fraction", decimals=1),
            "price": Figure.of(s["price"], "USD/GPU-hour"),
            "price_year": Figure.of(i["azure_a100_2022_on_demand"].seen, "calendar-year")}


def readout(lang: str, params: float, tokens: float, peak: float, utilisation: float, price: float,
            i: Inputs) -> dict[str, str]:
    """The calculator's lines, computed by lib.chapters.compute and written by lib.core.figure: the model, the
    chip, the FLOPs, the GPU-hours and the cost. A ValueError (lib.chapters.compute.BadInput) for bad input,
    or one the static calculator's controls could not be set to (RANGES)."""
    for name, value in (("params", params), ("tokens", tokens), ("utilisation", utilisation), ("price", price)):
        low, high, _ = RANGES[name]
        compute.within("price_per_gpu_hour" if name == "price" else name, value, low, high, whole=name in POWERS)
    flops = compute.training_flops(params, tokens, i.flops_per_param_token)
    hours = compute.flops_to_device_hours(flops, peak, utilisation)
    cost = compute.rental_cost(hours, price)
    of_peak = words(lang)["calculator_compute"]["of_peak"]
    unit = device_hour(peak, i)
    return {
        "model": Figure.of(params, "parameter", compact=True, decimals=1).format(lang),
        "data": f"× {Figure.of(tokens, 'token', compact=True, decimals=1).format(lang)}",
        "device": f"{device_name(peak, lang, i)} · {Figure.of(utilisation, 'fraction', decimals=1).format(lang)} {of_peak}",
        "rate": Figure.of(price, "USD/" + unit).format(lang),
        "flops": Figure.of(flops, "FLOP").format(lang),
        "hours": device_time(hours, unit).format(lang),
        "cost": cost_figure(cost).format(lang),
    }


def device_time(hours: float, unit: str = "GPU-hour") -> Figure:
    """A run's device-hours (`unit`: GPU-hours or chip-hours) as the readout writes them: whole hours
    from the amount that rounds to sixty minutes (1 GPU-hour, 11 GPU-hours), whole minutes below it
    (52 GPU-minutes), whole seconds below a minute that rounds to sixty seconds (1 GPU-second); one in
    the singular, as the book writes every unit (lib.core.figure). The minutes and seconds are the
    hours times 60 and 3,600, as the static readout computes them (compute_lines)."""
    if unit not in ("GPU-hour", "chip-hour"):
        raise ValueError(f"device_time counts GPU-hours or chip-hours, not {unit!r}")
    minutes, seconds = hours * 60, hours * 3600
    device = unit.removesuffix("-hour")
    if round(minutes) >= 60:
        return Figure.of(hours, unit)
    if round(seconds) >= 60:
        return Figure.of(minutes, f"{device}-minute")
    return Figure.of(seconds, f"{device}-second")


def cost_figure(cost: float) -> Figure:
    """A run's cost as the readout writes it: dollars with cents below a thousand (0,37 dólares /
    $0.37), whole above, in words from a million (lib.core.figure); "less than $0.01" for an amount
    that cents would write as nothing (below HALF_CENT)."""
    if cost < HALF_CENT:
        return Figure.less_than(0.01, "USD", decimals=2)
    return Figure.of(cost, "USD", decimals=2)


def device_hour(peak: float, i: Inputs) -> str:
    """The unit the chosen chip's hours are counted in: chip-hours for the TPU, GPU-hours otherwise."""
    return "chip-hour" if peak == devices(i)["tpu_v4"] else "GPU-hour"


def describe(lang: str, params: float, tokens: float, peak: float, utilisation: float, price: float,
             i: Inputs) -> str:
    """The live calculator's sentence: FLOPs → GPU-hours → cost."""
    lines = readout(lang, params, tokens, peak, utilisation, price, i)
    return words(lang)["calculator_compute"]["result"].format(**lines)


def compute_calculator(lang: str, inputs: Inputs | None = None) -> widgets.VBox:
    """The live calculator for Jupyter and Binder: boxes for the parameters and tokens (whole
    counts, as the static page's fields take them: 124.439.808), the utilisation (a percentage of the
    peak to a tenth, as the book writes it) and the price (with its cents), a menu of chips, and the
    result below them; every number in the page's number style (lib.calculators.boxes)."""
    i = load_inputs() if inputs is None else inputs
    text = words(lang)["calculator_compute"]
    s = start(i)
    peak = widgets.Dropdown(options=[(text["devices"][key], value) for key, value in devices(i).items()], value=s["peak"])
    boxes = {
        "params": NumberBox(s["params"], lang, text["params"], "params"),
        "tokens": NumberBox(s["tokens"], lang, text["tokens"], "tokens"),
        "utilisation": NumberBox(s["utilisation"], lang, text["utilisation_percent"], "utilisation", 1, scale=100),
        "price": NumberBox(s["price"], lang, text["price"], "price_per_gpu_hour", 2),
    }
    for name in POWERS:  # wide enough for twenty trillion tokens written whole
        boxes[name].widget.layout.width = "13em"
    result = widgets.HTML()

    def update(_=None):
        try:
            v = {name: box.value for name, box in boxes.items()}
            result.value = describe(lang, v["params"], v["tokens"], peak.value,
                                    v["utilisation"], v["price"], i)
        except ValueError as exc:
            result.value = text["error"].format(message=error(in_box_units(exc, boxes.values()), lang))

    peak.observe(update, names="value")
    for box in boxes.values():
        box.observe(update)
    update()
    rows = [(text["params"], boxes["params"].widget), (text["tokens"], boxes["tokens"].widget), (text["device"], peak),
            (text["utilisation_percent"], boxes["utilisation"].widget), (text["price"], boxes["price"].widget)]
    return form(rows, result)


def compute_lines(lang: str, params: str, tokens: str, peak: str, utilisation: str, price: str,
                  i: Inputs) -> dict[str, str]:
    """The readout's lines as Vega expressions of the named signals or fields (parameters and
    tokens as the log10 of their counts, POWERS: the count is 10 to it, rounded to a whole one, which
    gives back a typed count exactly): the model, the chip, the FLOPs (k × N × D), the device-hours
    (FLOPs / (peak × utilisation) / seconds in an hour, or their minutes or seconds: device_time) and
    the cost (device-hours × price: cost_figure), each written as `readout` writes it. The arithmetic
    is lib.chapters.compute's, in the same order, so that the two agree to the last bit wherever they can."""
    n, d = f"round(pow(10, {params}))", f"round(pow(10, {tokens}))"
    flops = f"({i.flops_per_param_token!r} * {n} * {d})"
    hours = f"({flops} / ({peak} * {utilisation}) / {compute.SECONDS_PER_HOUR})"
    cost = f"({hours} * {price})"
    names = words(lang)["calculator_compute"]["devices"]
    device = "''"
    for key, value in reversed(devices(i).items()):
        device = f"{peak} == {value!r} ? {json.dumps(names[key], ensure_ascii=False)} : {device}"
    of_peak = words(lang)["calculator_compute"]["of_peak"]
    tpu = f"{peak} == {devices(i)['tpu_v4']!r}"

    def time(device: str) -> str:
        minutes, seconds = f"({hours} * 60)", f"({hours} * 3600)"
        return (f"(round({minutes}) >= 60 ? {charts.count_expr(hours, f'{device}-hour', lang)} : "
                f"round({seconds}) >= 60 ? {charts.count_expr(minutes, f'{device}-minute', lang)} : "
                f"{charts.count_expr(seconds, f'{device}-second', lang)})")
    less = json.dumps(cost_figure(0).format(lang), ensure_ascii=False)
    return {
        "model": charts.compact_count_expr(n, "parameter", lang),
        "data": f"'× ' + {charts.compact_count_expr(d, 'token', lang)}",
        "device": f"({device}) + ' · ' + {charts.percent_expr(utilisation, lang)} + ' {of_peak}'",
        "rate": f"({tpu} ? {charts.price_expr(price, lang, 'chip-hour')} : {charts.price_expr(price, lang)})",
        "flops": f"{charts.scientific_expr(flops, lang)} + ' {fmt.unit_word('FLOP', lang, 2)}'",
        "hours": f"({tpu} ? {time('chip')} : {time('GPU')})",
        "cost": f"({cost} < {HALF_CENT!r} ? {less} : {charts.money_large_expr(cost, lang)})",
    }


def compute_chart(lang: str, params: float, tokens: float, peak: float, utilisation: float, price: float,
                  inputs: Inputs | None = None) -> alt.Chart:
    """Parameters × tokens → FLOPs → GPU-hours → cost on the static page: sliders for the
    parameters and tokens (by powers of ten, POWERS), the utilisation and the price, a menu of chips,
    and a readout written as lib writes it (tests/test_compute_calculator.py renders it on a grid and
    compares with lib.chapters.compute and lib.core.figure). Values outside the sliders are refused."""
    i = load_inputs() if inputs is None else inputs
    text = words(lang)["calculator_compute"]
    values = {"params": params, "tokens": tokens, "utilisation": utilisation, "price": price}
    for name, value in values.items():
        low, high, _ = RANGES[name]
        if not low <= value <= high:
            raise ValueError(f"{name} = {value:g} is outside the calculator's range {low:g}-{high:g}")
    device_name(peak, lang, i)  # one of the menu's chips, or a ValueError
    params_ = []
    for name, (low, high, step) in RANGES.items():
        value = values[name]
        if name in POWERS:
            value, low, high = math.log10(value), math.log10(low), math.log10(high)
        params_.append(alt.param(name=SIGNALS[name], value=float(value),
                                 bind=alt.binding_range(min=low, max=high, step=step, name=text[name] + " ")))
    chips = devices(i)
    params_.insert(2, alt.param(name=SIGNALS["peak"], value=float(peak), bind=alt.binding_select(
        options=[float(p) for p in chips.values()], labels=[text["devices"][key] for key in chips],
        name=text["device"] + " ")))
    # "powers": the fields of the parameters and tokens take and write counts, 10 to the slider's
    # value, whole ones ("whole"; book/_static/calculator.js).
    powers = [SIGNALS[name] for name in POWERS]
    return charts.readout_chart(compute_lines(lang, *SIGNALS.values(), i), params_, lang, text["title"], text["subtitle"],
                                powers=powers, whole=powers)
