"""Altair charts with labels in both languages, and the offline renderer.

The renderer ("offline") draws each chart at build time with vl-convert, as SVG. A chart with no
control is a picture that needs no script (picture): the SVG, with the chart's description as its
text alternative and again below it for every reader, in a box with a fixed id (a hash of the spec).
A chart with controls (a calculator, a slider) is live: its SVG is the first paint, in a box named
after its first control, which the vendored Vega runtime (book/_static/vega-bundle.js,
window.bookChart, loaded only on pages with a live chart: book/_ext/assets.py) replaces with the live
chart, drawn from the spec that vl-convert compiled to Vega here (live_spec): the pages carry no
Vega-Lite compiler, and nothing is fetched from another host. Same spec, same output: nbval can
compare it. In a kernel that a Jupyter server started (JupyterLab, Binder), where the site's bundle
is absent, a live chart's output comes with lib.site.lab's loader after it ("jupyter",
renderer_name), which fetches the same bundle from the Jupyter server and runs the chart's script
again; saved, the loader is left out (lib.site.lab.for_file), so the notebook keeps the output the
book commits. Altair's own renderer, which loads Vega from a CDN, is never used.

Every chart writes with the book's own font (lib.site.fonts): registered with vl-convert here,
before any chart is rendered, named in every chart's config (readable), and served to the browser by
book.css, so the first paint and the live chart measure their text alike on any machine.
"""

from __future__ import annotations

import hashlib
from html import escape as html_escape
import json
import math
import os
import re

import altair as alt
import pandas as pd
import vl_convert as vlc
from babel.numbers import get_decimal_symbol, get_group_symbol

from lib.core import fmt, sentences
from lib.core.figure import LONG_HOURS
from lib.core.words import words
from lib.site import fonts, lab

fonts.register()  # before any chart is rendered: vl-convert measures text with the fonts it knows

VL_VERSION = ".".join(alt.SCHEMA_VERSION.lstrip("v").split(".")[:2])


def d3_locale(lang: str) -> dict:
    """A d3-format locale built from Babel's symbols, so chart axes write numbers like the prose."""
    loc = fmt.locale(lang)
    return {
        "decimal": get_decimal_symbol(loc),
        "thousands": get_group_symbol(loc),
        "grouping": [3],
        "currency": ["$", ""] if lang == "en" else ["", "\u00a0" + words("es")["currency"]["USD"]],
    }


def readable(chart, title_size: int = 15):
    """Chart text at 12 px and more (Vega's defaults are 10 and 11), the title at `title_size`, all
    of it (marks, axes, legends, titles: Vega's config.font) in the book's font
    (lib.site.fonts.STACK). Axes and legends carry no ARIA text of Vega's own (English, "X-axis titled ..."); each mark says
    what it shows in the page's language through its `description` channel, and the chart's
    description is its text alternative (offline_renderer)."""
    return (chart.configure(font=fonts.STACK)
            .configure_axis(labelFontSize=12, titleFontSize=12, aria=False)
            .configure_legend(labelFontSize=12, titleFontSize=12, aria=False)
            .configure_title(fontSize=title_size, subtitleFontSize=12))


# The symbols English writes amounts with (Spanish names the currency in words, lib/data/words [currency]).
SYMBOLS = {"USD": "$", "EUR": "€"}


def money_millions_expr(value: str, lang: str, currency: str = "USD") -> str:
    """A Vega expression writing `value` (dollars, or euros) the way fmt.money_compact writes millions:
    2,26 millones de dólares / $2.26 million (whole numbers without decimals)."""
    number = f"(round({value} / 1e4) % 100 == 0 ? format({value} / 1e6, ',.0f') : format({value} / 1e6, ',.2f'))"
    one, many = (fmt.compact(n, lang, 0).split(" ", 1)[1] for n in (1e6, 2e6))
    word = f"(round({value} / 1e4) == 100 ? '{one}' : '{many}')"
    if fmt.locale(lang) == "es_ES":
        return f"{number} + ' ' + {word} + ' de {words('es')['currency'][currency]}'"
    return f"'{SYMBOLS[currency]}' + {number} + ' ' + {word}"


def money_expr(value: str, lang: str, currency: str = "USD") -> str:
    """A Vega expression writing dollars (or euros) as Figure.of(v, "USD", decimals=2) does, below a
    billion: millions in words, thousands without cents, smaller amounts with cents."""
    small = {"es": f"format({value}, ',.{{d}}f') + ' {words('es')['currency'][currency]}'",
             "en": f"'{SYMBOLS[currency]}' + format({value}, ',.{{d}}f')"}[fmt.locale(lang)[:2]]
    # Millions from the amount that rounds to a million (999.999,60 is written "1 million", as lib does).
    return (f"(round({value}) >= 1e6 ? {money_millions_expr(value, lang, currency)} : "
            f"{value} >= 1e3 ? {small.format(d=0)} : {small.format(d=2)})")


def decimals_needed(value: float, least: int, most: int) -> int:
    """The decimals a factor is written with so that it reads as the value computed with: none for a
    whole value (at `most` decimals), else `least`, or more up to `most` where the value has them
    (a preset's 33,3938 days beside its hours; 2,83 days stays 2,83)."""
    scaled = round(value * 10 ** most)
    if scaled % 10 ** most == 0:
        return 0
    return next(k for k in range(least, most + 1) if scaled % 10 ** (most - k) == 0)


def _decimals_expr(value: str, least: int, most: int, written) -> str:
    """decimals_needed in Vega: `written(k)` is the expression writing the value with k decimals."""
    scaled = f"round({value} * {10 ** most})"
    expr = written(most)
    for k in range(most - 1, least - 1, -1):
        expr = f"({scaled} % {10 ** (most - k)} == 0 ? {written(k)} : {expr})"
    return f"({scaled} % {10 ** most} == 0 ? {written(0)} : {expr})"


def count_expr(value: str, unit: str, lang: str, decimals: int = 0, most: int | None = None) -> str:
    """A Vega expression writing a count with its unit as Figure.of(v, unit) does: 1.333.248 horas-GPU.
    With `decimals`, a value that is not whole at that precision keeps them: 3,74 días (and 56 días);
    with `most` too, as many more as decimals_needed gives (33,3938 días)."""
    one, many = fmt.unit_word(unit, lang, 1), fmt.unit_word(unit, lang, 2)
    number, rounded = f"format({value}, ',.0f')", f"round({value})"
    if decimals:
        most = decimals if most is None else most
        scale = 10 ** most
        number = _decimals_expr(value, decimals, most, lambda k: f"format({value}, ',.{k}f')")
        rounded = f"round({value} * {scale}) / {scale}"
    return f"{number} + ({rounded} == 1 ? ' {one}' : ' {many}')"


def price_expr(value: str, lang: str, unit: str = "GPU-hour", most: int = 2) -> str:
    """A Vega expression writing a price per GPU-hour (or per `unit`) as fmt does: 2,79 dólares por
    hora-GPU / $2.79 per GPU-hour; with `most`, up to that many decimals where the price has them
    (decimals_needed, from cents: 2,1933 dólares por hora-GPU)."""
    per = fmt.per_unit(unit, lang)
    number = (_decimals_expr(value, 2, most, lambda k: f"format({value}, ',.{max(k, 2)}f')") if most > 2
              else f"format({value}, ',.2f')")  # never fewer than cents
    if fmt.locale(lang) == "es_ES":
        return f"{number} + ' {words('es')['currency']['USD']} {per}'"
    return f"'$' + {number} + ' {per}'"


def first_paint(svg: str) -> str:
    """The static SVG shown until the live chart replaces it, lighter: without Vega's ARIA roles and
    labels (English words, and the container already says what the chart shows in the page's
    language; the live chart labels each mark again), without the classes and attributes that only
    matter to a live chart, with its one font named once, and with coordinates to a tenth of a pixel."""
    svg = re.sub(r' (?:aria-roledescription|role|aria-label|class)="[^"]*"| aria-hidden="true"| pointer-events="none"'
                 r'| opacity="1"| transform="translate\(0,0\)"', "", svg)
    svg = svg.replace('<path d="M0,0h0v0h0Z"/>', "")
    # One font for every text (lib.site.fonts): named once, on the root element, which the texts inherit.
    families = set(re.findall(r'<text[^>]* font-family="([^"]*)"', svg))
    if len(families) == 1:
        svg = re.sub(r'(<text[^>]*) font-family="[^"]*"', r"\1", svg)
        svg = svg.replace("<svg ", f'<svg font-family="{families.pop()}" ', 1)
    # Coordinates only: inside attribute values, never in the text the chart writes.
    return re.sub(r'="[^"]*"', lambda m: re.sub(r"(\d+\.\d)\d+", r"\1", m.group(0)), svg)


def offline_renderer(spec: dict, **_) -> dict:
    usermeta = spec.get("usermeta", {})
    lang = usermeta.get("lang", "en")
    bound = [p for p in spec.get("params", []) if isinstance(p.get("bind"), dict) and "input" in p["bind"]]
    calculator = ""
    if bound:
        # Its state in the page's address, a field beside each slider, a calculator's readout said
        # again (book/_static/calculator.js): the controls that others follow (a calculator's run or
        # model) come first.
        followers = usermeta.get("react", {})
        leaders = set(followers.values())
        controls = sorted(([p["name"], p["bind"]] for p in bound), key=lambda control: control[0] not in leaders)
        # The widgets' own messages for a typed value (lib/data/words [errors]), and the words of the
        # link to the calculation.
        messages = {key: words(lang)["errors"][key] for key in ("number", "range", "whole")} | {
            key: words(lang)["calculator"][key] for key in ("link", "copied")}
        # The option a preset list shows once the reader moves a control that follows it (live_spec).
        custom = usermeta.get("custom")
        custom = [{"signal": leader, "value": custom["value"],
                   "kept": {n: custom["kept"][n] for n in sorted(followers) if followers[n] == leader}}
                  for leader in sorted(leaders)] if custom else []
        options = {"controls": controls, "messages": messages, "custom": custom,
                   "readout": bool(usermeta.get("readout")), "powers": usermeta.get("powers", [])}
        if usermeta.get("whole"):  # the powers' fields that take whole counts only (calculator.js)
            options["whole"] = usermeta["whole"]
        if usermeta.get("own"):  # a box for a config.json of the reader's own (the planner's)
            options["own"] = usermeta["own"]
        if usermeta.get("idle"):  # controls that do nothing while another holds a value (calculator.js)
            options["idle"] = usermeta["idle"]
        calculator = (" if (result && result.view && window.bookCalculator)"
                      f" {{ window.bookCalculator(el, result.view, {json.dumps(options, ensure_ascii=False, sort_keys=True)}); }}")
    # The element's id: for a chart with controls, its first control's name, the same in both
    # languages (its address's anchor, which the language switch keeps); else a hash of its spec.
    live = {k: v for k, v in spec.items() if k != "description"}
    element = ("chart-" + controls[0][0].replace("_", "-") if bound else
               "chart-" + hashlib.sha256(json.dumps(live, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
                                         .encode()).hexdigest()[:12])
    compiled = vlc.vegalite_to_vega(spec, vl_version=VL_VERSION)
    locale = d3_locale(lang)
    svg = first_paint(vlc.vega_to_svg(compiled, format_locale=locale))
    described = html_escape(spec.get("description", ""))
    if not bound:
        return picture(element, svg, spec.get("description", ""), live_spec(compiled, spec), locale, lang)
    text = json.dumps(live_spec(compiled, spec), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    html = (
        f'<div id="{element}" class="vega-chart" role="group" aria-label="{described}">{svg}</div>\n'
        # Its own box, the element before the script: a chart drawn again in a later notebook cell has
        # the same id, and must not draw over the earlier one (which keeps its own numbers).
        f"<script>(function () {{ var me = document.currentScript, el = me && me.previousElementSibling;"
        f" if (!el || el.id !== {json.dumps(element)}) el = document.getElementById({json.dumps(element)});"
        # The bundle is deferred (book/_ext/assets.py: it blocks no paint): the chart is drawn once the
        # page is parsed, when it has run, and once the book's font is loaded (book.css), which Vega
        # measures the live chart's text with.
        f" function go() {{ if (el && window.bookChart) {{ var draw = function () {{"
        f" return window.bookChart(el, {text}, {json.dumps(locale, sort_keys=True)}); }};"
        f" {fonts.LOADED_JS}.then(draw, draw).then(function (result) {{"
        # Whether the chart is wider than its box (a phone): the box then says it scrolls (book.css).
        f" function fit() {{ el.classList.toggle('scrolls', el.scrollWidth > el.clientWidth); }}"
        f" fit(); window.addEventListener('resize', fit);{calculator} }}); }} }}"
        f" if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', go); else go(); }})();</script>"
    )
    return {"text/html": html}


# The mime type of a static chart's Vega spec in a notebook's output, beside its picture: the pages
# show the picture (text/html), and lib.site.fonts reads the spec to render the chart again.
SPEC_MIME = fonts.PICTURE_MIME
# A static chart's picture is shown up to the scale at which its smallest text (12 px) reads at the
# page's size (16 px), as a live chart is (lib/site/vega_bundle.py); never wider than its column.
PICTURE_SCALE = 16 / 12


def picture(element: str, svg: str, description: str, spec: dict, locale: dict, lang: str) -> dict:
    """A chart with no control, as a picture that needs no script: its SVG (vl-convert's, the first
    paint a live chart has), an image whose text alternative is the chart's description, and that
    description again in a <details> below it for every reader (what a live chart's tooltips said).
    The notebook keeps the spec the SVG was drawn from (SPEC_MIME), for lib.site.fonts's checks."""
    width = float(re.search(r'<svg [^>]*?width="([\d.]+)"', svg).group(1))
    described = html_escape(description)
    html = (f'<figure id="{element}" class="chart-picture">'
            f'<div class="chart-svg" role="img" aria-label="{described}" style="max-width: {round(width * PICTURE_SCALE)}px">'
            f'{svg}</div><figcaption><details><summary>{html_escape(words(lang)["site"]["chart_text"])}</summary>'
            f"<p>{described}</p></details></figcaption></figure>")
    return {"text/html": html, SPEC_MIME: {"spec": spec, "locale": locale, "description": description}}


def live_spec(compiled: dict, spec: dict) -> dict:
    """The Vega a page draws (book/_static/vega-bundle.js, window.bookChart): the chart's spec as
    vl-convert compiled it (`compiled`, of the Vega-Lite version Altair loads, VL_VERSION), without
    its description (the chart's box says it, as its aria-label), and with the `usermeta.react` of
    the Vega-Lite `spec`: each listed signal (a follower) gets an `on` handler that evaluates its
    expression again whenever the named signal (its leader) changes (a calculator's presets move its
    sliders). A `usermeta.custom` option of the leader's ({value, kept: {follower: signal}}) is the
    page script's to choose once the reader moves a follower (book/_static/calculator.js), which
    keeps each follower's value in its `kept` signal, the one its expression reads for that option."""
    live = {k: v for k, v in compiled.items() if k != "description"}
    if "own" in live.get("usermeta", {}):  # the planner's box's data: the page script has it (offline_renderer)
        live["usermeta"] = {k: v for k, v in live["usermeta"].items() if k != "own"}
    react = spec.get("usermeta", {}).get("react") or {}
    if react:
        # `force`: the follower is set even when the expression gives what it gave last time (Vega
        # compares with that, not with the follower, which the reader may have moved since).
        live["signals"] = [signal | {"on": [{"events": {"signal": react[signal["name"]]}, "update": signal["init"],
                                             "force": True}]}
                           if signal.get("name") in react and "init" in signal else signal
                           for signal in compiled.get("signals", [])]
    return live


def jupyter_renderer(spec: dict, **_) -> dict:
    """The offline renderer's output and, after it, lib.site.lab's loader: in JupyterLab, where the
    site's Vega bundle is absent, it fetches the same file from the Jupyter server and runs the
    chart's own script again. On save the loader is left out (lib.site.lab.for_file)."""
    output = offline_renderer(spec)
    if lab.CHART_MARK not in output["text/html"]:
        return output  # a picture: nothing to draw
    return output | {"text/html": output["text/html"] + lab.CHART_LOADER}


def renderer_name(environ=os.environ) -> str:
    """ "jupyter" in a kernel a Jupyter server started (it sets JPY_SESSION_NAME to the notebook's
    path: JupyterLab, Notebook, Binder); "offline" for the book's builds and tests, whose kernels
    nbclient starts (make book, make notebooks, nbval). Both draw the same chart from the book's bundle."""
    return "jupyter" if environ.get("JPY_SESSION_NAME") else "offline"


alt.renderers.register("offline", offline_renderer)
alt.renderers.register("jupyter", jupyter_renderer)
alt.renderers.enable(renderer_name())

# ---------------------------------------------------------------- charts that fit a phone

# The plot's width of a chart drawn for every screen: with its axis and margins, it fits a phone's
# 358 px column (the first paint's, and the live chart's on a phone; on a wider column the live chart
# widens its plot to the column's width: vega-bundle.js, window.bookChart). Its rows' names go above their marks (ROW_SLOTS), not in a column beside them.
PLOT_WIDTH = 320
ROW_SLOTS = ["name", "mark"]


def title_lines(text: str, width: float = PLOT_WIDTH + 20, size: int = 15, bold: bool = True) -> list[str]:
    """`text` in lines that the charts' font writes within `width` px at `size` (a title, a subtitle)."""
    lines, line = [], ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if line and fonts.text_width(trial, size, bold) > width:
            lines, line = lines + [line], word
        else:
            line = trial
    return lines + [line] if line else lines


def phone_title(title: str, subtitle: str = "") -> alt.TitleParams:
    """A chart's title and subtitle, each wrapped to the chart's width."""
    extra = {"subtitle": title_lines(subtitle, size=12, bold=False), "subtitleColor": "#444"} if subtitle else {}
    return alt.TitleParams(title_lines(title), anchor="start", **extra)


def log_position(value: float, domain: tuple[float, float], width: float = PLOT_WIDTH) -> float:
    """Where `value` falls on a log axis over `domain`, in px from the plot's left edge."""
    low, high = domain
    return width * math.log10(value / low) / math.log10(high / low)


def label_right(label: str, start_px: float, end_px: float, width: float = PLOT_WIDTH) -> bool:
    """Whether a mark's label goes to its right (it fits there, or there is more room there than to
    its left), measured in the charts' font at 12 px, 8 px from the mark."""
    room_right, room_left = width - end_px - 8, start_px - 8
    return fonts.text_width(label, 12) <= room_right or room_right >= room_left


def row_encodings(field: str, order: list[str], slots: list[str] = ROW_SLOTS,
                  slot_field: str = "slot") -> tuple[alt.Y, alt.YOffset]:
    """The y of a chart with a row per item and its slots, the name's first, above the marks' (by
    default ROW_SLOTS: the marks' data carry slot = "mark")."""
    return (alt.Y(f"{field}:N", sort=order, title=None, axis=None),
            alt.YOffset(f"{slot_field}:N", sort=slots, scale=alt.Scale(domain=slots)))


def rows_height(rows: list, step: int, slots: list = ROW_SLOTS) -> int:
    """The plot's height for `rows` of `slots`, each slot `step` px: a whole number of px (Vega's
    own step layout can end in 436.00000000000006, which the first paint writes otherwise)."""
    return len(rows) * len(slots) * step


def row_names(field: str, order: list[str], x: float, x_scale: alt.Scale, x_axis: alt.Axis, *,
              slots: list[str] = ROW_SLOTS, slot_field: str = "slot", names: list[str] | None = None,
              bold: bool = True) -> alt.Chart:
    """Each row's name (`names`, else the row's own value), in the first of its slots, above its
    marks, from the plot's left edge (`x`, in the scale's units)."""
    y, y_offset = row_encodings(field, order, slots, slot_field)
    data = pd.DataFrame({field: order, slot_field: slots[0], "x": float(x), "name": names or order})
    weight = {"fontWeight": "bold"} if bold else {}
    return alt.Chart(data).mark_text(align="left", fontSize=12, color="#222", **weight).encode(
        x=alt.X("x:Q", scale=x_scale, axis=x_axis), y=y, yOffset=y_offset, text="name:N", description="name:N")


def labels(chart: str, lang: str) -> dict:
    """A chart's words in `lang` (lib/data/words)."""
    return words(lang)["charts"][chart]


def cost_scenarios(rows: list[tuple[str, float, float]], lang: str, chart: str = "opt_cost",
                   what_if: str | None = None) -> alt.Chart:
    """Horizontal bars, one per scenario (label key, GPU-hours, price per GPU-hour), with the cost
    written on each bar in the page's language.

    With `what_if` (a scenario's key), one more bar repeats that scenario's hours at a price the
    reader picks with a slider: it works on the static page, with no kernel."""
    text = labels(chart, lang)
    data = pd.DataFrame(
        {
            "scenario": [text[key] for key, _, _ in rows],
            "hours": [float(h) for _, h, _ in rows],
            "price": [float(p) for _, _, p in rows],
            "yours": False,
        }
    )
    params = []
    if what_if is not None:
        keys = [key for key, _, _ in rows]
        if what_if not in keys:
            raise ValueError(f"what_if must be one of the scenarios ({', '.join(keys)}), got {what_if!r}")
        row = data.iloc[keys.index(what_if)]
        extra = {"scenario": text["what_if"], "hours": row["hours"], "price": row["price"], "yours": True}
        data = pd.concat([data, pd.DataFrame([extra])], ignore_index=True)
        slider = alt.binding_range(min=0, max=math.ceil(2 * data["price"].max()), step=0.01, name=text["slider"] + " ")
        params.append(alt.param(name="price", value=float(row["price"]), bind=slider))
    data["cost"] = data["hours"] * data["price"]
    data["label"] = [fmt.money_compact(c, "USD", lang, decimals=2) for c in data["cost"]]
    data["slot"] = "mark"
    order = list(data["scenario"])
    # The reader's bar follows the slider; the others keep their sourced price and Babel's label.
    cost = "datum.yours ? datum.hours * price : datum.cost" if params else "datum.cost"
    label = f"datum.yours ? {money_millions_expr('datum.hours * price', lang)} : datum.label" if params else "datum.label"
    # The reader's row is named with the price picked (the slider's own readout is hidden: it shows
    # the raw number, not the page's number style).
    before, after = text["what_if_at"].split("{price}")
    name = (f"datum.yours ? {json.dumps(before)} + {price_expr('price', lang)} + {json.dumps(after)} : datum.scenario"
            if params else "datum.scenario")
    # Room to the right of the longest bar for its label.
    x_scale = alt.Scale(domain=[0, 2 * float(data["cost"].max())], nice=False)
    # Whole millions, at least one apart: a chart as wide as a desktop's text column (vega-bundle.js)
    # would otherwise get ticks half a million apart, written alike ("2", "2").
    # No grid: the names and the amounts are written inside the plot, where its lines would run through them.
    x_axis = alt.Axis(labelExpr="format(datum.value / 1e6, ',.0f')", title=text["cost"], tickMinStep=1e6, grid=False)
    y, y_offset = row_encodings("scenario", order)
    base = alt.Chart(data).transform_calculate(
        shown=cost, shown_label=label, said="datum.scenario + ': ' + datum.shown_label"
    ).encode(
        description="said:N",
        y=y, yOffset=y_offset,
        x=alt.X("shown:Q", scale=x_scale, axis=x_axis, title=text["cost"]),
        tooltip=[
            alt.Tooltip("scenario:N", title=text["scenario"]),
            alt.Tooltip("hours:Q", title=text["hours"], format=",.0f"),
            alt.Tooltip("price:Q", title=text["price"], format=",.2f"),
            alt.Tooltip("shown_label:N", title=text["cost_tip"]),
        ],
    )
    bars = base.mark_bar().encode(
        color=alt.condition("datum.yours", alt.value("#f58518"), alt.value("#4c78a8"))
    )
    values = base.mark_text(align="left", dx=4, fontSize=12).encode(text="shown_label:N")
    names = alt.Chart(data).transform_calculate(slot="'name'", x="0", name=name).mark_text(
        align="left", fontSize=12, color="#222").encode(
        x=alt.X("x:Q", scale=x_scale, axis=x_axis), y=y, yOffset=y_offset, text="name:N", description="name:N")
    # The description is the chart's text alternative (aria-label) for screen readers.
    description = text["title"] + ". " + "; ".join(f"{r.scenario}: {r.label}" for r in data.itertuples())
    layered = alt.layer(bars, values, names)
    layered = layered.add_params(*params) if params else layered
    return readable(layered.properties(
        title=phone_title(text["title"]), width=PLOT_WIDTH, height=rows_height(order, 19), usermeta={"lang": lang},
        description=description,
    ))


# ---------------------------------------------------------------- headline costs of both articles

# The training costs in dollars that the two articles give, in the order drawn (cheapest first).
# A2-dgx-price is left out: it is a monthly rental price in euros, not the cost of a training run.
HEADLINE_CLAIMS = ("A2-mosaic", "A1-opt-cost", "A2-llama-cost", "A2-palm-cost", "A2-msft")
# The x axis: decades of US dollars, wide enough for every figure above.
HEADLINE_DOMAIN = (1e5, 1e9)
# The plot's width: with its axis and margins, the chart fits a phone's 358 px.
HEADLINE_WIDTH = 334

def headline_cost_rows(checked, claim_ids: tuple[str, ...] = HEADLINE_CLAIMS) -> list[dict]:
    """From lib.core.claims.check_all()'s list, the stated and the sourced figure of each headline cost:
    rows of {"claim", "kind" ("stated", "sourced", "calculated" where every figure of the evidence is
    the book's own calculation, as the cards name it, or "secondary" where no primary source was found), "figure"}, in the order of `claim_ids`.
    Every figure must be a number in US dollars."""
    by_id = {c.claim.id: c for c in checked}
    missing = [cid for cid in claim_ids if cid not in by_id]
    if missing:
        raise ValueError(f"headline costs need claims that were not checked: {', '.join(missing)}")
    rows = []
    for cid in claim_ids:
        c = by_id[cid]
        for kind, figure in (("stated", c.claim.stated), ("sourced", c.result.sourced)):
            if figure is None:
                continue
            if not figure.is_number or figure.unit != "USD":
                raise ValueError(f"{cid}: the {kind} figure is not an amount in US dollars ({figure.unit})")
            if kind == "sourced" and sentences.is_books_own(c):
                kind = "calculated"
            elif kind == "sourced" and c.secondary:  # a claim no primary source was found for
                kind = "secondary"
            rows.append({"claim": cid, "kind": kind, "figure": figure})
    return rows


def _tick_labels(values, lang: str, per: float | None = None) -> str:
    """A Vega expression that writes each tick value with Babel's compact words (1 millón / 1 million),
    or as a number of `per` (0,1 / 1 / 10 for per=1e6, where the axis's title names the millions)."""
    expr = "''"
    for v in reversed(values):
        label = fmt.compact(v, lang, 0) if per is None else fmt.number(v / per, lang, 1 if v < per else 0)
        expr = f"datum.value == {v!r} ? {json.dumps(label, ensure_ascii=False)} : {expr}"
    return expr


def headline_costs(rows: list[dict], lang: str) -> alt.LayerChart:
    """Each headline cost as a range on a log axis of dollars: what the article says and what the
    sources give, one under the other, below the name of what they cost (a layout that fits a phone's
    358 px). A range is a bar from low to high, a single value a dot; an open bound ("more than",
    "less than") a triangle with a dashed line on to the edge of the axis."""
    text = labels("headline_costs", lang)
    edge_low, edge_high = HEADLINE_DOMAIN
    # The article's figure, and what the book checks it against (each row's kind names which: the estimates'
    # span, the book's own, or secondary sources).
    slots = ["name", text["stated"], text["checked"]]
    records = []
    for row in rows:
        fig = row["figure"]
        low, high = fig.low, fig.high
        at_least, at_most = math.isinf(high), low == 0
        if (low > 0 and low < edge_low) or (math.isfinite(high) and high > edge_high):
            raise ValueError(f"{row['claim']}: {fig.raw()} falls outside the axis {HEADLINE_DOMAIN}")
        shape = "triangle-right" if at_least else "triangle-left" if at_most else "circle" if low == high else None
        start = edge_low if at_most else low
        end = edge_high if at_least else high
        # The value is written beside its mark, on the side with room for it (the right if both have);
        # where it fits neither, as the axis writes it, in millions of dollars, so that it stays in the plot.
        label = shown = fig.format(lang)
        start_px, end_px = (log_position(v, HEADLINE_DOMAIN, HEADLINE_WIDTH) for v in (start, end))
        room = max(HEADLINE_WIDTH - end_px, start_px) - 8
        if fonts.text_width(label, 12) > room and not (at_least or at_most or fig.low_open or fig.high_open):
            places = max(decimals_needed(round(v / 1e6, 1), 1, 1) for v in (low, high))
            shown = fmt.joined(*(fmt.number(v / 1e6, lang, places) for v in (low, high)))
        right = label_right(shown, start_px, end_px, HEADLINE_WIDTH)
        records.append({
            "item": text["items"][row["claim"]],
            "kind": text[row["kind"]],
            "slot": text["stated" if row["kind"] == "stated" else "checked"],
            "low": float(start),
            "high": float(end),
            "point": float(low if at_least else high),
            "shape": shape,
            "range": shape is None,
            "open": at_least or at_most,
            "label": label,
            "shown": shown,
            "label_x": float(end if right else start),
            "align": "left" if right else "right",
        })
    data = pd.DataFrame(records)
    order = list(dict.fromkeys(data["item"]))
    ticks = [edge_low * 10**n for n in range(round(math.log10(edge_high / edge_low)) + 1)]
    x_scale = alt.Scale(type="log", domain=list(HEADLINE_DOMAIN), nice=False)
    # No grid and no frame: every mark writes its value, and the names and values run across where their
    # lines would be (a value written left of its mark may start a few px into the left margin).
    x_axis = alt.Axis(values=ticks, labelExpr=_tick_labels(ticks, lang, per=1e6), title=text["axis"], grid=False)
    y, y_offset = row_encodings("item", order, slots, "slot")
    data["said"] = [f"{r.item}, {r.kind}: {r.label}" for r in data.itertuples()]
    base = alt.Chart(data).encode(
        description="said:N",
        y=y,
        yOffset=y_offset,
        color=alt.Color("slot:N", sort=slots[1:], title=None,
                        scale=alt.Scale(domain=slots[1:], range=["#b3261e", "#2a5d9f"]),  # WCAG AA on white
                        legend=alt.Legend(orient="top", labelFontSize=12)),
        tooltip=[
            alt.Tooltip("item:N", title=text["item"]),
            alt.Tooltip("kind:N", title=text["kind"]),
            alt.Tooltip("label:N", title=text["value"]),
        ],
    )
    ranges = base.transform_filter("datum.range").mark_rule(strokeWidth=7, strokeCap="round").encode(
        x=alt.X("low:Q", scale=x_scale, axis=x_axis), x2="high:Q"
    )
    open_ends = base.transform_filter("datum.open").mark_rule(strokeWidth=2, strokeDash=[4, 3]).encode(
        x=alt.X("low:Q", scale=x_scale, axis=x_axis), x2="high:Q"
    )
    points = base.transform_filter("!datum.range").mark_point(filled=True, size=110, opacity=1).encode(
        x=alt.X("point:Q", scale=x_scale, axis=x_axis), shape=alt.Shape("shape:N", scale=None, legend=None)
    )
    # Vega-Lite has no align channel: one text layer per side of the mark.
    right_of = base.transform_filter("datum.align == 'left'").mark_text(align="left", dx=8, fontSize=12).encode(
        x=alt.X("label_x:Q", scale=x_scale, axis=x_axis), text="shown:N"
    )
    left_of = base.transform_filter("datum.align == 'right'").mark_text(align="right", dx=-8, fontSize=12).encode(
        x=alt.X("label_x:Q", scale=x_scale, axis=x_axis), text="shown:N"
    )
    # What each pair costs, above it, from the axis's left edge.
    named = row_names("item", order, edge_low, x_scale, x_axis, slots=slots, slot_field="slot")
    return readable(alt.layer(ranges, open_ends, points, right_of, left_of, named).properties(
        title=alt.TitleParams(text["title"], subtitle=text["subtitle"], anchor="start", subtitleColor="#444"),
        width=HEADLINE_WIDTH, height=rows_height(order, 19, slots), usermeta={"lang": lang}, view=alt.ViewConfig(stroke=None),
        description=text["title"] + ". " + "; ".join(f"{r.item}, {r.kind}: {r.label}" for r in data.itertuples()),
    ))


# ---------------------------------------------------------------- what a budget buys

# The reader's budget (dollars, or euros on a Spanish page), from the ladder's slider (powers of ten).
# To the micro-unit: 10 to the log of a typed 99.5 comes back as 99.49999999999999, which whole units
# write as 99, and a budget typed equal to a rung's cost would fall just short of it.
BUDGET = "round(pow(10, budget_power) * 1e6) / 1e6"


def budget_amount_expr(lang: str, currency: str) -> str:
    """A Vega expression writing the reader's budget in whole units of `currency`: 223 dólares, 200 euros / $223."""
    number = f"format({BUDGET}, ',.0f')"
    if fmt.locale(lang) == "es_ES":
        return f"{number} + ' {words('es')['currency'][currency]}'"
    return f"'{SYMBOLS[currency]}' + {number}"


def _amount_text(value: float, lang: str, currency: str) -> str:
    """What budget_amount_expr writes for a whole `value`."""
    number = fmt.number(round(value), lang)
    return f"{number} {words('es')['currency'][currency]}" if fmt.locale(lang) == "es_ES" else SYMBOLS[currency] + number


def ladder_readout(lang: str, low: float, high: float, currency: str = "USD") -> dict[str, str]:
    """The Vega expressions of the budget ladder's readout above its plot, beside the budget's tick
    ("text", "align", "dx"): "Tu presupuesto: 200 euros" on the side of the tick where it fits whatever
    the amount, measured in the charts' font at its widest (the axis's top amount); where it fits on
    neither side (a budget near the middle of the axis), the amount alone, on the side with room for it."""
    text = words(lang)["budget"]["chart"]
    widest = _amount_text(high, lang, currency)
    full, short = fonts.text_width(f"{text['yours']}: {widest}", 12), fonts.text_width(widest, 12)
    # `width`: the plot's width as drawn (PLOT_WIDTH on a phone, the text column's on a desktop:
    # vega-bundle.js), so a wider plot gives the whole readout more room.
    at = f"width * (budget_power - {math.log10(low)!r}) / {math.log10(high / low)!r}"
    full_right, full_left = f"{at} + 4 + {full:.1f} <= width", f"{at} - 4 - {full:.1f} >= 0"
    right = f"({full_right}) || (!({full_left}) && {at} + 4 + {short:.1f} <= width)"
    amount = budget_amount_expr(lang, currency)
    return {"text": f"({full_right}) || ({full_left}) ? '{text['yours']}: ' + {amount} : {amount}",
            "align": f"{right} ? 'left' : 'right'", "dx": f"{right} ? 4 : -4"}


def budget_ladder(rungs: list[dict], lang: str, start: float, currency: str = "USD",
                  subtitle: str = "") -> alt.LayerChart:
    """The budget ladder: one dot per rung (key, amount in `currency`, label) on a log axis, and the
    reader's budget (`start`, in `currency`), which a slider moves on the static page (no kernel):
    what it reaches is shaded from the axis's left end, and a tick above the plot carries its amount,
    so that no line runs through a rung's name or cost. The slider works in powers of ten; rungs
    within the budget turn from grey to blue. `subtitle`: the exchange rate, where the amounts were
    converted (lib.site.budget_page.ladder_chart)."""
    if not rungs:
        raise ValueError("the ladder needs at least one rung")
    if not start > 0:
        raise ValueError(f"the reader's budget must be positive, got {start!r}")
    text = words(lang)["budget"]["chart"]
    names = words(lang)["budget"]["rungs"]
    data = pd.DataFrame({
        "rung": [r.get("name") or names[r["key"]] for r in rungs],  # a rung's own name where it has one
        "amount": [float(r["amount"]) for r in rungs],
        "label": [r["label"] for r in rungs],
        "slot": "mark",
    })
    data["said"] = data["rung"] + ": " + data["label"]
    low = 10 ** math.floor(math.log10(min(data["amount"].min(), start)))
    high = 10 ** math.ceil(math.log10(max(data["amount"].max(), start)))
    # A tick every third power of ten, none at the edges: ten of them, or a label as long as
    # "10.000 millones" at the right edge, would not fit a phone.
    ticks = [low * 10**n for n in range(1, round(math.log10(high / low)), 3)]
    slider = alt.binding_range(min=math.log10(low), max=math.log10(high), step=0.01, name=text["slider"] + " ")
    # The exact budget, not the nearest step of the slider: the readout starts at the prose's figure.
    power = alt.param(name="budget_power", value=math.log10(start), bind=slider)
    x_scale = alt.Scale(type="log", domain=[low, high], nice=False)
    x_axis = alt.Axis(values=ticks, labelExpr=_tick_labels(ticks, lang), title=text["axis"], grid=False)
    order = list(data["rung"])
    # Each cost on the side of its dot with room for it.
    dot_px = [log_position(v, (low, high)) for v in data["amount"]]
    data["align"] = ["left" if label_right(label, x, x) else "right" for label, x in zip(data["label"], dot_px)]
    within = f"datum.amount <= {BUDGET}"
    y, y_offset = row_encodings("rung", order)
    base = alt.Chart(data).encode(
        y=y, yOffset=y_offset,
        x=alt.X("amount:Q", scale=x_scale, axis=x_axis),
        description="said:N",
        tooltip=[alt.Tooltip("rung:N", title=words(lang)["budget"]["head"]["rung"]),
                 alt.Tooltip("label:N", title=words(lang)["budget"]["head"]["cost"])],
    )
    dots = base.mark_point(filled=True, size=110, opacity=1).encode(
        color=alt.condition(within, alt.value("#2a5d9f"), alt.value("#6b6b6b"))
    )
    right_of = base.transform_filter("datum.align == 'left'").mark_text(align="left", dx=8, fontSize=12).encode(
        text="label:N")
    left_of = base.transform_filter("datum.align == 'right'").mark_text(align="right", dx=-8, fontSize=12).encode(
        text="label:N")
    said = f"'{text['yours']}: ' + {budget_amount_expr(lang, currency)}"
    one = pd.DataFrame({"one": [0]})
    # What the budget reaches: a pale band under the rungs, no line through their text.
    reach = alt.Chart(one).transform_calculate(start=repr(float(low)), yours=BUDGET).mark_rect(
        color="#dbe7f5", aria=False).encode(x=alt.X("start:Q", scale=x_scale, axis=x_axis), x2="yours:Q")
    # The budget's tick above the plot, where only its readout is written.
    tick = alt.Chart(one).transform_calculate(yours=BUDGET, said=said).mark_rule(
        color="#b3261e", strokeWidth=2, y=-16, y2=0).encode(x=alt.X("yours:Q", scale=x_scale, axis=x_axis),
                                                         description="said:N")
    shown = ladder_readout(lang, low, high, currency)
    readout = alt.Chart(one).transform_calculate(yours=BUDGET, said=said, shown=shown["text"]).mark_text(
        align=alt.ExprRef(shown["align"]), dx=alt.ExprRef(shown["dx"]), dy=-6, fontSize=12, color="#b3261e", y=0,
    ).encode(x=alt.X("yours:Q", scale=x_scale, axis=x_axis), text="shown:N", description="said:N")
    description = text["title"] + ". " + (subtitle + ". " if subtitle else "") + "; ".join(data["said"])
    named = row_names("rung", order, low, x_scale, x_axis)
    # "powers": the slider's field takes and writes the amount, 10 to the slider's value (calculator.js).
    return readable(alt.layer(reach, tick, dots, right_of, left_of, readout, named).add_params(power).properties(
        title=phone_title(text["title"], subtitle), width=PLOT_WIDTH, height=rows_height(order, 19),
        usermeta={"lang": lang, "powers": ["budget_power"]},
        description=description,
    ))


# ---------------------------------------------------------------- one run, several prices (costs chapter)

def cost_methods(intervals: list[dict], marks: list[dict], lang: str) -> alt.LayerChart:
    """Every run's cost by every method as an interval on a log axis of dollars, with the
    published figures marked as dots (rows from lib.chapters.costs.chart_rows)."""
    if not intervals:
        raise ValueError("cost_methods needs at least one interval")
    text = words(lang)["costs"]["chart"]
    values = [r["low"] for r in intervals] + [r["high"] for r in intervals] + [m["value"] for m in marks]
    if min(values) <= 0:
        raise ValueError("a log axis needs costs above zero")
    domain = [10 ** math.floor(math.log10(min(values))), 10 ** math.ceil(math.log10(max(values)))]
    ticks = [domain[0] * 10**n for n in range(round(math.log10(domain[1] / domain[0])) + 1)]
    x_scale = alt.Scale(type="log", domain=domain, nice=False)
    x_axis = alt.Axis(values=ticks, labelExpr=_tick_labels(ticks, lang), title=text["axis"], grid=False)
    runs = list(dict.fromkeys(r["run"] for r in intervals))
    methods = list(dict.fromkeys(r["method"] for r in intervals))
    bars, dots = pd.DataFrame(intervals), pd.DataFrame(marks)
    said = {"bars": [f"{r.run}, {r.method}: {r.label}" for r in bars.itertuples()],
            "dots": [f"{r.run}, {r.who}: {r.label}" for r in dots.itertuples()]}
    # A run a band: its name above, a line per method, and below them a line per published figure,
    # cheapest first, its diamond named ("Epoch AI, buying: $32M") on the side with room: the figures
    # of a run can sit closer together than their names are long (PaLM's 12.4 and 13.9 million).
    dots = dots.sort_values(["run", "value"], kind="stable")
    dots["slot"] = [f"published {n}" for n in dots.groupby("run", sort=False).cumcount()]
    published = [f"published {n}" for n in range(dots["slot"].nunique())]
    slots = ["name", *methods, *published]
    y, y_offset = row_encodings("run", runs, slots)
    # Each diamond's name and amount on the side with room for both; where neither side has it, the
    # name before the diamond and the amount after it.
    texts = []
    for r in dots.itertuples():
        at, whole = log_position(r.value, domain), text["line"].format(who=r.short_who, amount=r.amount)
        if fonts.text_width(whole, 12) + 8 <= PLOT_WIDTH - at:
            texts.append(("", whole))
        elif fonts.text_width(whole, 12) + 8 <= at:
            texts.append((whole, ""))
        elif fonts.text_width(r.short_who, 12) + 8 <= at and fonts.text_width(r.amount, 12) + 8 <= PLOT_WIDTH - at:
            texts.append((r.short_who, r.amount))
        else:
            raise ValueError(f"{r.run}, {r.who}: {whole} fits neither side of its mark")
    dots["before"], dots["after"] = [t[0] for t in texts], [t[1] for t in texts]
    ranges = alt.Chart(bars).transform_calculate(
        said="datum.run + ', ' + datum.method + ': ' + datum.label", slot="datum.method",
    ).mark_rule(strokeWidth=6, strokeCap="round").encode(
        description="said:N", y=y, yOffset=y_offset,
        x=alt.X("low:Q", scale=x_scale, axis=x_axis), x2="high:Q",
        color=alt.Color("method:N", sort=methods, title=text["method"],
                        legend=alt.Legend(orient="bottom", columns=1, labelLimit=PLOT_WIDTH)),
        tooltip=[alt.Tooltip("run:N", title=text["run"]), alt.Tooltip("method:N", title=text["method"]),
                 alt.Tooltip("label:N", title=text["cost"])],
    )
    marked = alt.Chart(dots).transform_calculate(said="datum.run + ', ' + datum.who + ': ' + datum.label")
    points = marked.mark_point(shape="diamond", filled=True, size=90, color="#222", opacity=1).encode(
        description="said:N", y=y, yOffset=y_offset, x=alt.X("value:Q", scale=x_scale, axis=x_axis),
        tooltip=[alt.Tooltip("run:N", title=text["run"]), alt.Tooltip("who:N", title=text["who"]),
                 alt.Tooltip("label:N", title=text["published"])],
    )
    # Vega-Lite has no align channel: one text layer per side of the diamond.
    right_of, left_of = (marked.transform_filter(f"datum.{field} != ''").mark_text(
        align=side, dx=8 if side == "left" else -8, fontSize=12, color="#222").encode(
        description="said:N", y=y, yOffset=y_offset, x=alt.X("value:Q", scale=x_scale, axis=x_axis), text=f"{field}:N")
        for side, field in (("left", "after"), ("right", "before")))
    names = row_names("run", runs, domain[0], x_scale, x_axis, slots=slots)
    description = text["title"] + ". " + "; ".join(said["bars"] + said["dots"])
    return readable(alt.layer(ranges, points, right_of, left_of, names).properties(
        title=phone_title(text["title"], text["subtitle"]), width=PLOT_WIDTH, height=rows_height(runs, 16, slots),
        usermeta={"lang": lang}, description=description,
    ))


def cost_ladder(rows: list[dict], lang: str) -> alt.LayerChart:
    """Why one run's published costs disagree: for each run, the article's figure, then one step
    per factor, down (or up) to Epoch AI's figure, on a log axis of dollars; each step labelled
    with its multiplier (rows from lib.chapters.decomposition.chart_rows). One chart, the runs one under
    another, each run's first line named after it."""
    if not rows:
        raise ValueError("cost_ladder needs at least one step")
    if min(r["low"] for r in rows) <= 0:
        raise ValueError("a log axis needs costs above zero")
    text = words(lang)["ladder"]
    values = [r["low"] for r in rows] + [r["high"] for r in rows]
    domain = [10 ** math.floor(math.log10(min(values))), 10 ** math.ceil(math.log10(max(values)))]
    ticks = [domain[0] * 10**n for n in range(round(math.log10(domain[1] / domain[0])) + 1)]
    x_scale = alt.Scale(type="log", domain=domain, nice=False)
    x_axis = alt.Axis(values=ticks, labelExpr=_tick_labels(ticks, lang), title=text["axis"], grid=False)
    steps = pd.DataFrame(rows)
    steps["said"] = [f"{r.run}, {r.step}: {r.label}" + (f" ({r.factor})" if r.factor else "") for r in steps.itertuples()]
    steps["mid"] = (steps["low"] * steps["high"]) ** 0.5
    steps["key"] = [f"{r.run}|{r.order}" for r in steps.itertuples()]  # the same step of two runs: two lines
    description = text["title"] + ". " + "; ".join(steps["said"])
    keys = list(steps["key"])
    y, y_offset = row_encodings("key", keys)
    # Each step's amount and multiplier on its name's line, above its band: the band's own line holds
    # the band and the dashed link from the step before, and no text for the link to run through.
    steps["text"] = [f"{r.amount} ({r.factor})" if r.factor else r.amount for r in steps.itertuples()]
    steps["line"] = [text["line"].format(step=text["first"].format(run=r.run, step=r.step) if r.order == 0 else r.step,
                                         amount=r.text) for r in steps.itertuples()]
    wide = [line for line in steps["line"] if fonts.text_width(line, 12) > PLOT_WIDTH]
    if wide:
        raise ValueError(f"the ladder's lines must fit its plot ({PLOT_WIDTH} px): {wide}")
    steps["slot"] = "mark"
    for column in ("low", "high", "mid", "from"):  # positions on a log axis: four significant digits draw the same
        steps[column] = [float(f"{v:.4g}") for v in steps[column]]
    base = alt.Chart(steps[["key", "low", "high", "mid", "from", "text", "slot"]]).encode(y=y, yOffset=y_offset)
    link = base.mark_rule(color="#999", strokeDash=[3, 3]).encode(
        x=alt.X("from:Q", scale=x_scale, axis=x_axis), x2="mid:Q")
    band = base.mark_rule(strokeWidth=8, strokeCap="round", color="#1f5fa8").encode(
        description="text:N", x=alt.X("low:Q", scale=x_scale, axis=x_axis), x2="high:Q",
        tooltip=[alt.Tooltip("text:N", title=text["cost"])])
    # Each step's name and amount above it: a run's first step names the run.
    named = row_names("key", keys, domain[0], x_scale, x_axis, names=list(steps["line"]), bold=False)
    return readable(alt.layer(link, band, named).properties(
        title=phone_title(text["title"], text["subtitle"]), width=PLOT_WIDTH, height=rows_height(keys, 17),
        usermeta={"lang": lang}, description=description,
    ))


def power_of_ten_expr(value: str) -> str:
    """A Vega expression writing an exact power of ten (a log axis tick) as lib.core.fmt.scientific does: 10²³."""
    exponent = f"('' + round(log({value}) / LN10))"
    for digit, sup in zip("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻"):
        exponent = f"replace({exponent}, regexp('{digit}', 'g'), '{sup}')"
    return f"'10' + {exponent}"


def predicted_vs_reported(rows: list[dict], lang: str) -> alt.LayerChart:
    """The training FLOPs the rule C = 6·N·D predicts against those the authors report, on log
    axes, with the line where the two are equal (rows: run, predicted, reported, label)."""
    if not rows:
        raise ValueError("predicted_vs_reported needs at least one run")
    text = words(lang)["costs"]["predicted_chart"]
    data = pd.DataFrame(rows)
    data["said"] = [f"{r.run}: {r.label}" for r in data.itertuples()]
    low = 10.0 ** math.floor(math.log10(min(data["predicted"].min(), data["reported"].min())))
    high = 10.0 ** math.ceil(math.log10(max(data["predicted"].max(), data["reported"].max())))
    scale = alt.Scale(type="log", domain=[low, high], nice=False)
    sci = power_of_ten_expr("datum.value")
    powers = [low * 10.0**n for n in range(round(math.log10(high / low)) + 1)]
    # Each run's name on the side of its point away from the diagonal, which runs up to the right: on the left of
    # a point above it (more reported than predicted), on the right of one on it or below it. No vertical grid,
    # which names on either side would cross.
    data["above"] = data["reported"] > data["predicted"]
    equal = alt.Chart(pd.DataFrame({"x": [low, high]})).mark_line(color="#6b6b6b", strokeDash=[4, 3]).encode(
        x=alt.X("x:Q", scale=scale, title=text["predicted"], axis=alt.Axis(labelExpr=sci, values=powers, grid=False)),
        y=alt.Y("x:Q", scale=scale, title=text["reported"], axis=alt.Axis(labelExpr=sci, values=powers)),
    )
    points = alt.Chart(data).mark_point(filled=True, size=90, color="#2a5d9f").encode(
        x=alt.X("predicted:Q", scale=scale), y=alt.Y("reported:Q", scale=scale), description="said:N",
        tooltip=[alt.Tooltip("said:N", title=text["run"])],
    )
    names = [alt.Chart(data).transform_filter(f"{'' if above else '!'}datum.above").mark_text(
        align="right" if above else "left", dx=-8 if above else 8, fontSize=12).encode(
        x=alt.X("predicted:Q", scale=scale), y=alt.Y("reported:Q", scale=scale), text="run:N", description="said:N",
    ) for above in (True, False)]
    return readable(alt.layer(equal, points, *names).properties(
        # The y axis's title and labels take some 50 px of the phone's width.
        title=phone_title(text["title"], text["subtitle"]), width=PLOT_WIDTH - 50, height=240, usermeta={"lang": lang},
        description=text["title"] + ". " + "; ".join(data["said"]),
    ))


# ---------------------------------------------------------------- the calculators' readout

def readout_chart(lines: dict[str, str], params: list, lang: str, title: str, subtitle: str = "", *,
                  fields: dict[str, str] | None = None, react: dict[str, str] | None = None,
                  custom: dict | None = None, powers: list[str] | None = None,
                  whole: list[str] | None = None, blanks: bool = False, own: dict | None = None,
                  idle: dict[str, tuple[str, str]] | None = None) -> alt.Chart:
    """A calculator on the static page: its controls (`params`) and a readout, one line of text per
    Vega expression of `lines` (after the helper expressions `fields`), narrow enough for a phone's
    column (390 px less the page's margins). `react`: the usermeta that lets a preset move sliders,
    `custom`: the preset's option that says they moved (live_spec); `powers`: the sliders that move by
    powers of ten (their fields take and write 10 to the slider's value, book/_static/calculator.js);
    `whole`: those of them whose fields take whole numbers only (counts). `blanks`: lines that are empty
    in some settings (the planner's notes) draw nothing, since an empty text would be an image with no name
    to a screen reader (axe-core's svg-img-alt); the others close up, and the chart is as tall as its lines.
    `own`: a box for a config.json of the reader's own (the planner's, lib.calculators.planner.own_options).
    `idle`: control -> (another control, its value): the control does nothing while the other holds that
    value (the planner's utilisation while the speed is the model's), and is disabled then."""
    data = pd.DataFrame({"line": list(lines), "y": range(len(lines))})
    shown = " : ".join(f"datum.line == '{key}' ? {e}" for key, e in lines.items()) + " : ''"
    chart = alt.Chart(data)
    if fields:
        chart = chart.transform_calculate(**fields)
    # Lines at 13.5 px and the title at 14: in the book's font the memory calculator's longest line
    # ("Its formula, checked against measurements (±10.0%):") is 346 px at 14 px, and the Spanish
    # memory calculator's bold title 8 px too wide at 15, for a phone's column (358 px).
    chart = chart.transform_calculate(shown=shown)
    rows = alt.Y("y:O", axis=None)
    if blanks:
        # The lines that are written, one under the other from the top; the readout is as tall as they are
        # (the planner's: its controls come before it, or beside it, so nothing below it moves them). Their
        # place goes in a field of its own: Vega keeps each line's datum from one setting to the next, and
        # the window would otherwise sort by the places the previous setting wrote over `y`.
        chart = chart.transform_filter("datum.shown != ''").transform_window(
            row="row_number()", sort=[alt.SortField("y")]).transform_calculate(slot="datum.row - 1")
        rows = alt.Y("slot:O", axis=None)
    chart = chart.mark_text(align="left", fontSize=13.5, x=5).encode(
        y=rows, text="shown:N", description="shown:N",
    ).add_params(*params).properties(
        title=alt.Title(title, subtitle=subtitle, anchor="start") if subtitle else alt.Title(title, anchor="start"),
        width=320, height=alt.Step(24), description=f"{title}: {subtitle}" if subtitle else title,
        usermeta={"lang": lang, "readout": True, **({"react": react} if react else {}),
                  **({"custom": custom} if custom else {}), **({"powers": powers} if powers else {}),
                  **({"whole": whole} if whole else {}), **({"own": own} if own else {}),
                  **({"idle": {k: list(v) for k, v in idle.items()}} if idle else {})},
    )
    return readable(chart, title_size=14)


# ---------------------------------------------------------------- the memory calculator (budget chapter)

def figure_expr(value: str, unit: str, lang: str, decimals: int = 0, *, rounded: bool = False) -> str:
    """A Vega expression writing a plain number with its unit as Figure.of(v, unit, decimals=d) does
    (no currency, no compact words): 13,4 GB / 13.4 GB, 80 GB, 4. With `rounded`, the unit is singular
    when the value rounds to one at those decimals (1,0 hora), as lib writes it; else when it is one."""
    number = f"format({value}, ',.{decimals}f')"
    one, many = (json.dumps(" " + fmt.unit_word(unit, lang, n), ensure_ascii=False) for n in (1, 2))
    if one == many:
        return number if one == '" "' else f"{number} + {one}"
    test = f"round(({value}) * {10 ** decimals}) == {10 ** decimals}" if rounded else f"{value} == 1"
    return f"{number} + ({test} ? {one} : {many})"


def range_expr(low: str, high: str, unit: str, lang: str, decimals: int = 0) -> str:
    """A Vega expression writing a range in one unit as Figure.between(low, high, unit, decimals=d) does
    (no currency, no compact words): 5,8–41,2 minutos; one figure where the ends write alike (9,7 horas),
    singular only then, for one that rounds to one (1,0 hora)."""
    written = lambda value: f"format({value}, ',.{decimals}f')"  # noqa: E731
    alike = f"{written(low)} == {written(high)}"
    number = f"({alike} ? {written(high)} : {written(low)} + {json.dumps(fmt.DASH)} + {written(high)})"
    one, many = (json.dumps(" " + fmt.unit_word(unit, lang, n), ensure_ascii=False) for n in (1, 2))
    if one == many:
        return number if one == '" "' else f"{number} + {one}"
    return f"{number} + ({alike} && round(({high}) * {10 ** decimals}) == {10 ** decimals} ? {one} : {many})"


def duration_expr(low: str, high: str, lang: str) -> str:
    """A Vega expression writing a time, or a range of times, as Figure.duration_range does: minutes where
    the high end is under an hour, else hours, with one decimal, none from LONG_HOURS on."""
    minutes = range_expr(f"({low}) * 60", f"({high}) * 60", "minute", lang, 1)
    hours = lambda d: range_expr(low, high, "hour", lang, d)  # noqa: E731
    return (f"(({high}) < 1 ? {minutes} : round(({high}) * 10) >= {LONG_HOURS * 10:g} ? {hours(0)} : {hours(1)})")


def memory_expr(value: str, lang: str) -> str:
    """A Vega expression writing memory in GB as the budget chapter does (lib.core.figure.Figure.memory):
    one decimal, in GB from 1 GB (and at 0), in MB below: 13,4 GB, 33,6 MB."""
    gb, mb = figure_expr(value, "GB", lang, 1), figure_expr(f"({value}) * 1e3", "MB", lang, 1)
    return f"(({value}) >= 1 || ({value}) == 0 ? {gb} : {mb})"


def memory_range_expr(low: str, high: str, lang: str) -> str:
    """A Vega expression writing a range of memory as Figure.memory_range does: in GB where the high end is
    1 GB or more (or 0), else in MB, one decimal."""
    gb = range_expr(low, high, "GB", lang, 1)
    mb = range_expr(f"({low}) * 1e3", f"({high}) * 1e3", "MB", lang, 1)
    return f"(({high}) >= 1 || ({high}) == 0 ? {gb} : {mb})"


# ---------------------------------------------------------------- expressions of the compute calculator

def _superscript_expr(text: str) -> str:
    """A Vega expression turning the digits and minus sign of the string `text` into superscripts."""
    for digit, sup in zip("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻"):
        text = f"replace({text}, regexp('{digit}', 'g'), '{sup}')"
    return text


def scientific_expr(value: str, lang: str) -> str:
    """A Vega expression writing a positive `value` as lib.core.fmt.scientific does: 2,56 × 10²⁴ /
    2.56 × 10²⁴. d3's exponent format (toExponential) gives the mantissa with two decimals, already
    carried into the exponent when it rounds to ten (9,999 × 10²² → 1,00 × 10²³), and the page's
    decimal sign; the exponent loses its plus sign and is written in superscript. (Zero, which
    fmt.scientific writes as 0, is not handled.)"""
    fmt.locale(lang)  # the locale is the view's (d3_locale); an unknown language is still an error
    text = f"format({value}, '.2e')"
    mantissa = f"slice({text}, 0, indexof({text}, 'e'))"
    exponent = f"replace(slice({text}, indexof({text}, 'e') + 1), '+', '')"
    return f"{mantissa} + ' × 10' + {_superscript_expr(exponent)}"


def _half_even_expr(value: str, digits: int) -> str:
    """A Vega expression rounding `value` to `digits` decimals with ties to even, as Babel rounds a
    number's decimal form (1,45 → 1,4; 1,35 → 1,4). Vega's round() sends ties up. A tie is a
    scaled value within 1e-9 of a half: slider values in steps of a tenth or a unit hit ties
    exactly; no value that near a half and not on it comes from a slider."""
    scaled = f"({value} * {10 ** digits})"
    floor = f"floor({scaled})"
    tie = f"abs({scaled} - {floor} - 0.5) < 1e-9"
    return f"(({tie} ? {floor} + ({floor} % 2) : round({scaled})) / {10 ** digits})"


def compact_count_expr(value: str, unit: str, lang: str) -> str:
    """A Vega expression writing a count of `unit` as Figure.of(v, unit, compact=True, decimals=1)
    does, for 1e6 <= v < 1e15: 2,5 millones de tokens, 65.200 millones de parámetros, 1,4 billones de
    tokens (Spanish counts thousands of millions in millions, to the hundred million) / 2.5 million
    tokens, 65.2 billion parameters, 1.4 trillion tokens (one decimal, none when it is zero; 999.95
    million and up read as a billion, 999.95 billion and up as a trillion, in both languages: 999.96
    thousand million tokens are 1 billón, as Babel writes them, not 1.000.000 millones)."""
    many = fmt.unit_word(unit, lang, 2)
    if fmt.locale(lang) == "es_ES":
        millions = f"format({_half_even_expr(f'{value} / 1e8', 0)} * 100, ',.0f')"
        word, one, several = (fmt.compact(n, lang, 0).split(" ", 1)[1] for n in (2e9, 1e12, 2e12))
        one_million = fmt.compact(1e6, lang, 0).split(" ", 1)[1]
        few = _half_even_expr(f"{value} / 1e6", 1)
        small = f"format({few}, ',.1~f') + ({few} == 1 ? ' {one_million}' : ' {word}')"
        rounded = _half_even_expr(f"{value} / 1e12", 1)
        big = f"format({rounded}, ',.1~f') + ({rounded} == 1 ? ' {one}' : ' {several}')"
        return f"({value} < 1e9 ? {small} : {value} < 999.95e9 ? {millions} + ' {word}' : {big}) + ' de {many}'"
    million, billion, trillion = (fmt.compact(n, lang, 0).split(" ", 1)[1] for n in (2e6, 2e9, 2e12))
    few = f"format({_half_even_expr(f'{value} / 1e6', 1)}, ',.1~f') + ' {million}'"
    small = f"format({_half_even_expr(f'{value} / 1e9', 1)}, ',.1~f') + ' {billion}'"
    big = f"format({_half_even_expr(f'{value} / 1e12', 1)}, ',.1~f') + ' {trillion}'"
    return f"({value} < 999.95e6 ? {few} : {value} < 999.95e9 ? {small} : {big}) + ' {many}'"


def percent_expr(value: str, lang: str, decimals: int = 1) -> str:
    """A Vega expression writing a fraction as lib.core.fmt.percent does: 47,7 % (a no-break space) / 47.7%."""
    sign = fmt.percent(0.5, lang, 0).replace(fmt.number(50, lang), "")
    return f"format({_half_even_expr(f'{value} * 100', decimals)}, ',.{decimals}f') + '{sign}'"


def money_billions_expr(value: str, lang: str) -> str:
    """A Vega expression writing dollars from a thousand million up to (not including) 10¹² as
    Figure.of(v, "USD", decimals=2) does: 24.240 millones de dólares (Spanish counts them in
    millions, to the ten millions of the English billions' cents) / $24.24 billion ($2 billion when
    the cents round away)."""
    if fmt.locale(lang) == "es_ES":
        word = fmt.compact(2e9, lang, 0).split(" ", 1)[1]
        return f"format(round({value} / 1e7) * 10, ',.0f') + ' {word} de {words('es')['currency']['USD']}'"
    word = fmt.compact(2e9, lang, 0).split(" ", 1)[1]
    number = f"(round({value} / 1e7) % 100 == 0 ? format({value} / 1e9, ',.0f') : format({value} / 1e9, ',.2f'))"
    return f"'$' + {number} + ' {word}'"


def money_large_expr(value: str, lang: str) -> str:
    """money_expr, and from a thousand million dollars up to (not including) 10¹², money_billions_expr
    (from the amount whose millions round to a thousand: 999.996.000 is one thousand million, as in lib)."""
    return f"(round({value} / 1e4) >= 1e5 ? {money_billions_expr(value, lang)} : {money_expr(value, lang)})"
