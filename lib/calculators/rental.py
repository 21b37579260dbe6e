"""The rental calculator, in two forms that compute alike: a chart with sliders that works on
the static page (Vega, no kernel), and a live widget for Jupyter and Binder. Both start from
the inputs the chapter discusses; bad input gets a message in the reader's language."""

from __future__ import annotations

import json

import altair as alt
import ipywidgets as widgets

from lib.calculators.boxes import NumberBox, form
from lib.site import charts, page
from lib.chapters import compute
from lib.core import fmt
from lib.core.figure import Figure
from lib.core.inputs import Inputs, load_inputs
from lib.chapters.article1 import budget_usd, cheapest_single_h100
from lib.chapters.runs import opt_wall_clock_days
from lib.chapters.costs import palm_reported_hours
from lib.chapters.article2 import mosaic_a100_hours
from lib.core.errors import error
from lib.core.words import words

def describe(gpus: float, days: float, price: float, budget_eur: float, lang: str, inputs: Inputs,
             run: str = "") -> str:
    """The calculator's sentence (in the units of the chosen run); a ValueError for any bad input, or
    one the sliders could not be set to (RANGES; the budget from nothing to BUDGET_EUR_MAX)."""
    text = words(lang)["calculator"]
    gpus, days, price = (compute.within(ERROR_NAMES.get(name, name), value, low, high, whole=step == 1)
                         for (name, (low, high, step)), value in zip(RANGES.items(), (gpus, days, price)))
    budget_eur = compute.within("budget", budget_eur, 0, BUDGET_EUR_MAX)
    hours = compute.gpu_hours(gpus, compute.days_to_hours(days))
    cost = compute.rental_cost(hours, price)
    usd = compute.convert(budget_eur, "EUR", "USD", inputs.budget_rate_date)
    cluster_hours = compute.hours_bought(usd, compute.rental_cost(compute.gpu_hours(gpus, 1), price))
    # Less than an hour of the cluster reads in minutes (as the chapter writes the frontier's fraction).
    bought = (Figure.of(cluster_hours, "hour", decimals=2) if cluster_hours >= 1
              else Figure.of(cluster_hours * 60, "minute", decimals=1))
    return text["result"].format(
        hours=Figure.of(hours, units(run)[1]).format(lang),
        cost=Figure.of(cost, "USD", decimals=2).format(lang),
        budget_usd=Figure.of(usd, "USD", decimals=2).format(lang),
        budget_hours=bought.format(lang),
    )


def rental_calculator(lang: str, inputs: Inputs | None = None, start: str = "opt") -> widgets.VBox:
    """The live calculator: a run to start from (the presets of the static one), its GPUs, days and
    price in boxes, and the article's budget; a sentence with the result, or what is wrong. Once a
    box no longer holds the run's value, the run reads CUSTOM, as on the static page. The
    boxes write their numbers as the book does (lib.calculators.boxes): whole GPUs, days with two decimals
    where a preset needs them, the price with its cents, the budget in euros."""
    i = load_inputs() if inputs is None else inputs
    text = words(lang)["calculator"]
    presets = rental_presets(i)
    gpus, days, price = presets[start]
    run = widgets.Dropdown(options=[(text["presets"][key], key) for key in [*presets, CUSTOM]], value=start)
    fields = {
        "gpus": NumberBox(gpus, lang, text["gpus"], "gpus"),
        "days": NumberBox(days, lang, text["days"], "days", 2, trim=True),
        "price": NumberBox(price, lang, text["price"], ERROR_NAMES["price"], 2),
        "budget": NumberBox(i.budget_eur, lang, text["budget"], "budget", 2, trim=True),
    }
    result = widgets.HTML()
    choosing = []  # while a run's values are being set, one box at a time

    def update(_=None):
        try:
            values = [fields[name].value for name in RANGES]
            if not choosing and run.value != CUSTOM and values != list(presets[run.value]):
                run.value = CUSTOM  # as on the static page: the run no longer says what the boxes hold
            result.value = describe(*values, fields["budget"].value, lang, i, run.value)
        except ValueError as exc:
            result.value = text["error"].format(message=error(exc, lang))

    def choose(change):
        if change["new"] == CUSTOM:
            return
        choosing.append(change["new"])
        for name, value in zip(RANGES, presets[change["new"]]):
            fields[name].set(value)
        choosing.clear()
        update()

    run.observe(choose, names="value")
    for field in fields.values():
        field.observe(update)
    update()
    return form([(text["preset"], run)] + [(text[name], field.widget) for name, field in fields.items()], result)


# The sliders' ranges: from one GPU for an hour (0.04 of a day) to a frontier cluster of 100,000
# GPUs for four months, a cost below a trillion dollars.
# Days move by hundredths, so that a preset's fraction of a day (the budget's hours) stays as it is.
RANGES = {"gpus": (1, 100_000, 1), "days": (0.04, 120, 0.01), "price": (0.5, 8, 0.01)}
# The sliders' signal names: their own, so that a page's other charts (the OPT price slider) keep theirs.
SIGNALS = {name: f"calc_{name}" for name in RANGES}
PRESET_SIGNAL = "calc_run"
# The run the preset list shows once a control no longer holds a run's value (lib/data/words,
# calculator.presets): choosing it keeps the values as they are. For it, each slider takes the value
# the page's script keeps for it (book/_static/calculator.js): a slider's expression may not read
# the slider itself (a cycle in Vega's dataflow).
CUSTOM = "custom"
KEPT = {name: f"{signal}_kept" for name, signal in SIGNALS.items()}
# How a bad input is named in its message (lib/data/words, errors.names).
ERROR_NAMES = {"price": "price_per_gpu_hour"}
# The live calculator's budget box: from nothing to a million euros.
BUDGET_EUR_MAX = 1e6


def rental_presets(i: Inputs) -> dict[str, tuple[float, float, float]]:
    """The runs the book prices, as (GPUs or chips, days, price per device-hour), each as its chapter
    prices it: OPT's logbook days at Lambda's A100 price; LLaMA 65B's Table 15 hours at Azure's
    on-demand price of 2022; PaLM's reported chip-hours (on its main phase's chips) at the
    on-demand TPU v4 price of 2022; MosaicML's A100-hours (6ND at LLaMA's
    utilisation) at the price its own figure implies; and what the article's budget rents of the
    cheapest single H100."""
    llama_days = i.llama_65b_gpu_hours / i.llama_gpus / compute.HOURS_PER_DAY
    palm_days = palm_reported_hours(i) / i.palm_chips_main / compute.HOURS_PER_DAY
    mosaic_hours = mosaic_a100_hours(i)
    _, h100 = cheapest_single_h100(i)
    budget_days = compute.hours_bought(budget_usd(i), h100) / compute.HOURS_PER_DAY
    return {
        "opt": (i.opt_gpus, float(opt_wall_clock_days(i)), i.lambda_a100_sxm_8x),
        "llama": (i.llama_gpus, llama_days, i.azure_a100_2022_on_demand),
        "palm": (i.palm_chips_main, palm_days, i.tpu_v4_price_on_demand),
        "mosaic": (i.mosaic_gpus, mosaic_hours / i.mosaic_gpus / compute.HOURS_PER_DAY, i.mosaic_cost / mosaic_hours),
        "budget": (1.0, budget_days, h100),
    }


def preset_figures(i: Inputs, run: str = "mosaic") -> dict[str, float]:
    """A preset's price per device-hour, its device-hours and the cost they make, and the published
    figure its price was taken from where it has one (MosaicML's: its price is the one its own figure
    implies, so the cost gives that figure back by construction)."""
    gpus, days, price = rental_presets(i)[run]
    hours = compute.gpu_hours(gpus, compute.days_to_hours(days))
    figures = {"price": price, "hours": hours, "cost": compute.rental_cost(hours, price)}
    if run == "mosaic":
        figures["published"] = i.mosaic_cost
    return figures


def glue_preset(lang: str, inputs: Inputs | None = None, run: str = "mosaic") -> None:
    """Glue a preset's figures as calc.<run>.<name>, written as the calculator's readout writes them
    (rental_readout), for the sentence beside the calculator that says where its price comes from;
    and calc.<run>.raw, every figure unformatted, for nbval to compare exactly."""
    i = load_inputs() if inputs is None else inputs
    figures = preset_figures(i, run)
    _, device_hour = units(run)
    shown = {"price": price_text(figures["price"], lang, device_hour),
             "hours": hours_figure(figures["hours"], device_hour).format(lang),
             "cost": Figure.of(figures["cost"], "USD", decimals=2).format(lang)}
    for name, text in shown.items():
        page.glue(f"calc.{run}.{name}", text, display=False)
    page.glue(f"calc.{run}.raw", json.dumps(figures, sort_keys=True), display=False)


# The runs counted in chips rather than GPUs (PaLM's TPU v4), and their units.
CHIP_RUNS = ("palm",)


def units(run: str) -> tuple[str, str]:
    """The device and device-hour units a run is counted in: TPU chips for PaLM, GPUs otherwise."""
    return ("chip", "chip-hour") if run in CHIP_RUNS else ("GPU", "GPU-hour")


# The most decimals the readout writes its factors with: enough that a preset's factors multiply to
# its totals (MosaicML's 33,3938 days at 2,1933 dollars, the price its own figure implies).
MOST_DECIMALS = 4
# Device-hours under a thousand keep two decimals, as amounts keep their cents (the budget's 67,92).
FEW_HOURS = 1000


def days_figure(days: float) -> Figure:
    """Days as the calculator writes them: whole, or with two decimals, or more where a preset has them."""
    return Figure.of(days, "day", decimals=charts.decimals_needed(days, 2, MOST_DECIMALS))


def hours_figure(hours: float, unit: str) -> Figure:
    """Device-hours as the readout writes them: whole, or with two decimals under FEW_HOURS."""
    return Figure.of(hours, unit, decimals=charts.decimals_needed(hours, 2, 2) if hours < FEW_HOURS else 0)


def price_text(price: float, lang: str, device_hour: str) -> str:
    """A price per device-hour with its cents, or more decimals where it has them (up to MOST_DECIMALS)."""
    decimals = max(2, charts.decimals_needed(price, 2, MOST_DECIMALS))
    return fmt.money_range(price, price, "USD", lang, decimals) + " " + fmt.per_unit(device_hour, lang)


def rental_lines(lang: str, gpus: str, days: str, price: str, chips: str = "false") -> dict[str, str]:
    """The readout's four lines as Vega expressions of the named signals or fields: the devices and
    days, the price, the device-hours (devices × days × 24) and the cost (device-hours × price); in
    chips and chip-hours where the expression `chips` is true (units)."""
    hours = f"{gpus} * {days} * {compute.HOURS_PER_DAY}"

    def either(expr) -> str:
        return f"({chips} ? {expr(*units(CHIP_RUNS[0]))} : {expr(*units(''))})"

    def hours_expr(unit: str) -> str:
        return (f"({hours} < {FEW_HOURS} ? {charts.count_expr(hours, unit, lang, decimals=2)}"
                f" : {charts.count_expr(hours, unit, lang)})")

    return {
        "devices": either(lambda device, _: f"{charts.count_expr(gpus, device, lang)} + ' × '"
                                            f" + {charts.count_expr(days, 'day', lang, decimals=2, most=MOST_DECIMALS)}"),
        "rate": either(lambda _, per: f"'× ' + {charts.price_expr(price, lang, per, most=MOST_DECIMALS)}"),
        "hours": either(lambda _, device_hour: hours_expr(device_hour)),
        "cost": charts.money_large_expr(f"{hours} * {price}", lang),
    }


def rental_readout(lang: str, gpus: float, days: float, price: float, run: str = "") -> list[str]:
    """The readout's lines as lib writes them (what rental_lines computes in Vega)."""
    device, device_hour = units(run)
    hours = compute.gpu_hours(gpus, compute.days_to_hours(days))
    return [
        f"{Figure.of(gpus, device).format(lang)} × {days_figure(days).format(lang)}",
        f"× {price_text(price, lang, device_hour)}",
        hours_figure(hours, device_hour).format(lang),
        Figure.of(compute.rental_cost(hours, price), "USD", decimals=2).format(lang),
    ]


def rental_chart(lang: str, start: str = "opt", inputs: Inputs | None = None) -> alt.Chart:
    """GPUs × days × price per GPU-hour on the static page: a run to start from, three sliders and
    a readout of the inputs, the GPU-hours and the cost, written as lib writes them
    (tests/test_calculator.py renders it on a grid and compares with lib.chapters.compute and lib.core.figure).

    Choosing a run moves the sliders to its values: each slider's value is an expression of the
    chosen run, which Vega-Lite evaluates only once for a bound parameter ("init"); the renderers
    make Vega evaluate it again whenever the run changes (usermeta "react", charts.live_spec). Once a
    slider leaves the run's value, the run reads CUSTOM (usermeta "custom")."""
    i = load_inputs() if inputs is None else inputs
    text = words(lang)["calculator"]
    presets = rental_presets(i)
    if start not in presets:
        raise ValueError(f"unknown run {start!r}: use one of {', '.join(presets)}")
    for key, values in presets.items():
        for name, value in zip(RANGES, values):
            low, high, _ = RANGES[name]
            if not low <= value <= high:
                raise ValueError(f"{key}: {name} = {value:g} is outside the calculator's range {low:g}-{high:g}")
    options = [*presets, CUSTOM]
    run = alt.param(name=PRESET_SIGNAL, value=start, bind=alt.binding_select(
        options=options, labels=[text["presets"][key] for key in options], name=text["preset"] + " "))
    params = [run]
    for n, (name, (low, high, step)) in enumerate(RANGES.items()):
        chosen = " : ".join(f"{PRESET_SIGNAL} == '{key}' ? {values[n]!r}" for key, values in presets.items())
        params.append(alt.param(name=KEPT[name], value=float(presets[start][n])))
        params.append(alt.param(name=SIGNALS[name], value=float(presets[start][n]),
                                expr=f"{PRESET_SIGNAL} == '{CUSTOM}' ? {KEPT[name]} : {chosen} : {presets[start][n]!r}",
                                bind=alt.binding_range(min=low, max=high, step=step, name=text[name] + " ")))
    lines = rental_lines(lang, *SIGNALS.values(), chips=" || ".join(f"{PRESET_SIGNAL} == '{run}'" for run in CHIP_RUNS))
    return charts.readout_chart(lines, params, lang, text["title"], text["subtitle"],
                                react={signal: PRESET_SIGNAL for signal in SIGNALS.values()},
                                custom={"value": CUSTOM, "kept": {SIGNALS[name]: KEPT[name] for name in RANGES}})
