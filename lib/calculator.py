"""A live calculator for Jupyter and Binder (it needs a kernel; the static site
shows its code only). Starts from the sourced inputs; bad input gets a message."""

from __future__ import annotations

import ipywidgets as widgets

from . import compute
from .figure import Figure
from .inputs import Inputs, load_inputs
from .recompute.article1 import opt_wall_clock_days
from .words import words

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
            result.value = text["error"].format(message=exc)

    for field in fields.values():
        field.observe(update, names="value")
    update()
    return widgets.VBox([*fields.values(), result])
