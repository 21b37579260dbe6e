"""The calculators' Vega expressions evaluated by vl-convert, for the tests that hold them to lib."""

from __future__ import annotations

import html
import re

import altair as alt
import pandas as pd
import vl_convert as vlc

from lib.site import charts


def svg(chart, lang: str) -> str:
    spec = chart if isinstance(chart, dict) else chart.to_dict()
    return vlc.vegalite_to_svg(spec, vl_version=charts.VL_VERSION, format_locale=charts.d3_locale(lang))


def texts(chart, lang: str) -> list[str]:
    """Every text a chart draws, in order (a calculator's readout first)."""
    return [html.unescape(re.sub(r"<[^>]+>", "", t)) for t in re.findall(r"<text[^>]*>(.*?)</text>", svg(chart, lang))]


def grid_readouts(grid: pd.DataFrame, lines: dict[str, str], lang: str, fields: dict[str, str] | None = None,
                  order: list[str] | None = None) -> list[list[str]]:
    """The lines Vega writes for each row of `grid` through a readout's expressions (`lines`, after
    `fields`). They go into each point's description (its aria-label in the SVG), not into text
    marks, which Vega measures one by one (seconds for a grid); the strings are the same."""
    chart = alt.Chart(grid.assign(row=range(len(grid))))
    if fields:
        chart = chart.transform_calculate(**fields)
    shown = " + ' | ' + ".join(f"datum.{key}" for key in (order or list(lines)))
    chart = chart.transform_calculate(**lines).transform_calculate(shown=shown).mark_point().encode(
        y=alt.Y("row:O", axis=None), description="shown:N")
    return [html.unescape(t).split(" | ") for t in re.findall(r'aria-label="([^"]*)"', svg(chart, lang)) if " | " in t]
