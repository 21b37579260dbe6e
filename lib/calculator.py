"""The rental calculator, in two forms that compute alike: a chart with sliders that works on
the static page (Vega, no kernel), and a live widget for Jupyter and Binder. Both start from
the inputs the chapter discusses; bad input gets a message in the reader's language."""

from __future__ import annotations

import altair as alt
import ipywidgets as widgets
import pandas as pd

from . import charts, compute
from .figure import Figure
from .inputs import Inputs, load_inputs
from .recompute.article1 import opt_wall_clock_days
from .words import error, words

def describe(gpus: float, days: float, price: float, budget_eur: float, lang: str, inputs: Inputs) -> str:
    """The calculator's sentence; a ValueError for any bad input."""
    text = words(lang)["calculator"]
    hours = compute.gpu_hours(gpus, compute.days_to_hours(days))
    cost = compute.rental_cost(hours, price)
    usd = compute.convert(budget_eur, "EUR", "USD", inputs.budget_rate_date)
    cluster_hours = compute.hours_bought(usd, compute.rental_cost(compute.gpu_hours(gpus, 1), price))
    return text["result"].format(
        hours=Figure.of(hours, "GPU-hour").format(lang),
        cost=Figure.of(cost, "USD", decimals=2).format(lang),
        budget_usd=Figure.of(usd, "USD", decimals=2).format(lang),
        budget_hours=Figure.of(cluster_hours, "hour", decimals=2).format(lang),
    )


def rental_calculator(lang: str, inputs: Inputs | None = None) -> widgets.VBox:
    i = load_inputs() if inputs is None else inputs
    text = words(lang)["calculator"]
    fields = {
        "gpus": widgets.FloatText(value=i.opt_gpus, description=text["gpus"]),
        "days": widgets.FloatText(value=float(opt_wall_clock_days(i)), description=text["days"]),
        "price": widgets.FloatText(value=i.lambda_a100_sxm_8x, description=text["price"]),
        "budget": widgets.FloatText(value=i.budget_eur, description=text["budget"]),
    }
    result = widgets.HTML()

    def update(_=None):
        try:
            result.value = describe(fields["gpus"].value, fields["days"].value, fields["price"].value,
                                    fields["budget"].value, lang, i)
        except ValueError as exc:
            result.value = text["error"].format(message=error(exc, lang))

    for field in fields.values():
        field.observe(update, names="value")
    update()
    return widgets.VBox([*fields.values(), result])


# The sliders' ranges: wide enough for every run in the book, and a cost below a billion dollars.
RANGES = {"gpus": (1, 10000, 1), "days": (1, 120, 1), "price": (0.5, 8, 0.01)}
# The sliders' signal names: their own, so that a page's other charts (the OPT price slider) keep theirs.
SIGNALS = {name: f"calc_{name}" for name in RANGES}


def rental_lines(lang: str, gpus: str, days: str, price: str) -> dict[str, str]:
    """The readout's three lines as Vega expressions of the named signals or fields: the inputs,
    the GPU-hours (GPUs × days × 24) and the cost (GPU-hours × price)."""
    hours = f"{gpus} * {days} * {compute.HOURS_PER_DAY}"
    return {
        "inputs": f"{charts.count_expr(gpus, 'GPU', lang)} + ' × ' + {charts.count_expr(days, 'day', lang)}"
                  f" + ' × ' + {charts.price_expr(price, lang)}",
        "hours": charts.count_expr(hours, "GPU-hour", lang),
        "cost": charts.money_expr(f"{hours} * {price}", lang),
    }


def rental_chart(lang: str, gpus: float, days: float, price: float) -> alt.Chart:
    """GPUs × days × price per GPU-hour on the static page: three sliders and a readout of the
    inputs, the GPU-hours and the cost, written as lib writes them (tests/test_calculator.py
    renders it on a grid and compares with lib.compute and lib.figure)."""
    text = words(lang)["calculator"]
    for name, value in (("gpus", gpus), ("days", days), ("price", price)):
        low, high, _ = RANGES[name]
        if not low <= value <= high:
            raise ValueError(f"{name} = {value:g} is outside the calculator's range {low:g}-{high:g}")
    params = [alt.param(name=SIGNALS[name], value=float(value),
                        bind=alt.binding_range(min=low, max=high, step=step, name=text[name] + " "))
              for (name, (low, high, step)), value in zip(RANGES.items(), (gpus, days, price))]
    lines = rental_lines(lang, *SIGNALS.values())
    data = pd.DataFrame({"line": list(lines), "y": range(len(lines))})
    expr = " : ".join(f"datum.line == '{key}' ? {e}" for key, e in lines.items()) + " : ''"
    chart = alt.Chart(data).transform_calculate(shown=expr).mark_text(align="left", fontSize=16, x=5).encode(
        y=alt.Y("y:O", axis=None), text="shown:N", description="shown:N",
    ).add_params(*params).properties(
        title=text["title"], width=420, height=alt.Step(28), usermeta={"lang": lang}, description=text["title"],
    )
    return charts.readable(chart)
