"""Altair charts with labels in both languages, and the offline renderer.

The renderer ("offline") emits a fixed element id (a hash of the spec) and a static
SVG drawn by vl-convert, then asks the vendored Vega-Embed (book/_static/vega-bundle.js)
to replace it with the live chart. On the static site the chart is interactive and
nothing is fetched from another host; where no vegaEmbed exists (JupyterLab on
Binder) the SVG stays. Same spec, same output: nbval can compare it.
"""

from __future__ import annotations

import hashlib
import json

import altair as alt
import pandas as pd
import vl_convert as vlc
from babel.numbers import get_decimal_symbol, get_group_symbol

from . import fmt

VL_VERSION = ".".join(alt.SCHEMA_VERSION.lstrip("v").split(".")[:2])


def d3_locale(lang: str) -> dict:
    """A d3-format locale built from Babel's symbols, so chart axes write numbers like the prose."""
    loc = fmt.locale(lang)
    return {
        "decimal": get_decimal_symbol(loc),
        "thousands": get_group_symbol(loc),
        "grouping": [3],
        "currency": ["$", ""] if lang == "en" else ["", "\u00a0US$"],
    }


def offline_renderer(spec: dict, **_) -> dict:
    lang = spec.get("usermeta", {}).get("lang", "en")
    text = json.dumps(spec, sort_keys=True, ensure_ascii=False)
    element = "chart-" + hashlib.sha256(text.encode()).hexdigest()[:12]
    svg = vlc.vegalite_to_svg(spec, vl_version=VL_VERSION, format_locale=d3_locale(lang))
    options = json.dumps({"actions": False, "renderer": "svg", "formatLocale": d3_locale(lang)}, sort_keys=True)
    html = (
        f'<div id="{element}" class="vega-chart">{svg}</div>\n'
        f"<script>(function () {{ var el = document.getElementById({json.dumps(element)});"
        f" if (el && window.vegaEmbed) {{ window.vegaEmbed(el, {text}, {options}); }} }})();</script>"
    )
    return {"text/html": html}


alt.renderers.register("offline", offline_renderer)
alt.renderers.enable("offline")

LABELS = {
    "opt_cost": {
        "es": {
            "title": "OPT-175B: coste de alquiler según las entradas",
            "hours": "Horas-GPU",
            "cost": "Coste (US$)",
            "price": "Precio por GPU-hora",
            "scenario": "Escenario",
            "article": "Cuenta del artículo: horas de reloj × precio H100",
            "wall_a100": "Horas de reloj × precio A100",
            "eff_h100": "Cómputo efectivo × precio H100",
            "eff_a100": "Cómputo efectivo × precio A100",
        },
        "en": {
            "title": "OPT-175B: rental cost by inputs",
            "hours": "GPU-hours",
            "cost": "Cost (US$)",
            "price": "Price per GPU-hour",
            "scenario": "Scenario",
            "article": "Article's sum: wall-clock hours × H100 price",
            "wall_a100": "Wall-clock hours × A100 price",
            "eff_h100": "Effective compute × H100 price",
            "eff_a100": "Effective compute × A100 price",
        },
    },
}


def labels(chart: str, lang: str) -> dict:
    fmt.locale(lang)
    return LABELS[chart][lang]


def cost_scenarios(rows: list[tuple[str, float, float]], lang: str, chart: str = "opt_cost") -> alt.Chart:
    """Horizontal bars, one per scenario (label key, GPU-hours, price per GPU-hour), with the cost
    written on each bar in the page's language."""
    text = labels(chart, lang)
    data = pd.DataFrame(
        {
            "scenario": [text[key] for key, _, _ in rows],
            "hours": [float(h) for _, h, _ in rows],
            "price": [float(p) for _, _, p in rows],
        }
    )
    data["cost"] = data["hours"] * data["price"]
    data["label"] = [fmt.money_compact(c, "USD", lang, decimals=2) for c in data["cost"]]
    order = list(data["scenario"])
    base = alt.Chart(data).encode(
        y=alt.Y("scenario:N", sort=order, title=None, axis=alt.Axis(labelLimit=320)),
        x=alt.X("cost:Q", title=text["cost"], axis=alt.Axis(format="~s")),
        tooltip=[
            alt.Tooltip("scenario:N", title=text["scenario"]),
            alt.Tooltip("hours:Q", title=text["hours"], format=",.0f"),
            alt.Tooltip("price:Q", title=text["price"], format=",.2f"),
            alt.Tooltip("label:N", title=text["cost"]),
        ],
    )
    bars = base.mark_bar(color="#4c78a8")
    values = base.mark_text(align="left", dx=4).encode(text="label:N")
    return (bars + values).properties(title=text["title"], width=420, height=170, usermeta={"lang": lang})
