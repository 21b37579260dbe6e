"""The charts write numbers the way lib.core.fmt does: what Vega computes on the page (the reader's
bar, the axis ticks) is checked against lib, by rendering each chart with vl-convert."""

import html
import json
import math
import re

import pytest
import vl_convert as vlc

from lib.site import charts, fonts
from lib.core import fmt
from lib.core.claims import load_claims
from lib.core.inputs import load_inputs
from lib.core.words import words
from lib.chapters.article1 import opt_cost_scenarios

from .conftest import LANGS


def svg_text(chart, lang: str) -> list[str]:
    svg = vlc.vegalite_to_svg(chart.to_dict(), vl_version=charts.VL_VERSION, format_locale=charts.d3_locale(lang))
    return [re.sub(r"<[^>]+>", "", t) for t in re.findall(r"<text[^>]*>(.*?)</text>", svg)]


@pytest.mark.parametrize("lang", LANGS)
def test_the_readers_bar_writes_its_cost_and_price_as_lib_does(lang):
    rows = opt_cost_scenarios(load_inputs(), load_claims())
    _, hours, price = next(r for r in rows if r[0] == "eff_a100")
    texts = svg_text(charts.cost_scenarios(rows, lang, what_if="eff_a100"), lang)
    cost = fmt.money_compact(hours * price, "USD", lang, decimals=2)
    shown_price = fmt.money(price, "USD", lang) + " " + fmt.per_unit("GPU-hour", lang)
    # The bar writes its cost; its row's name, the price picked.
    assert cost in texts, texts
    assert words(lang)["charts"]["opt_cost"]["what_if_at"].format(price=shown_price) in texts, texts


@pytest.mark.parametrize("lang", LANGS)
def test_the_money_expression_agrees_with_lib_on_a_grid(lang):
    """money_millions_expr against fmt.money_compact for values the slider can reach."""
    import altair as alt
    import pandas as pd

    values = [1e6, 2e6, 2.5e6, 2258426.88, 3719761.92, 5.69963520e6, 12.34e6]
    chart = alt.Chart(pd.DataFrame({"v": values, "y": range(len(values))})).transform_calculate(
        t=charts.money_millions_expr("datum.v", lang)).mark_text().encode(text="t:N", y="y:O")
    texts = svg_text(chart, lang)
    for v in values:
        assert fmt.money_compact(v, "USD", lang, decimals=2) in texts, (v, texts)


@pytest.mark.parametrize("lang", LANGS)
def test_no_si_prefix_or_raw_number_on_the_axes(lang):
    rows = opt_cost_scenarios(load_inputs(), load_claims())
    texts = svg_text(charts.cost_scenarios(rows, lang, what_if="eff_a100"), lang)
    assert not [t for t in texts if re.fullmatch(r"[\d.,]+[kMG]", t)], texts


@pytest.mark.parametrize("lang", LANGS)
def test_the_predicted_compute_chart_writes_powers_of_ten_as_lib_does(lang):
    from lib.chapters import costs

    texts = svg_text(charts.predicted_vs_reported(costs.predicted_rows(costs.load(), lang), lang), lang)
    assert "10²³" in texts and "10²⁴" in texts, texts
    assert fmt.scientific(1e24, lang).endswith("10²⁴")


def test_jupyterlab_draws_the_chart_the_book_commits():
    """A kernel a Jupyter server started (JupyterLab, Binder: JPY_SESSION_NAME) draws the chart the
    book commits, followed by lib.site.lab's loader, which fetches the book's own Vega bundle from the
    Jupyter server there (no CDN) and is left out on save; the book's builds and tests (nbclient
    kernels) keep the offline renderer alone, which nbval compares."""
    import json

    import altair as alt

    from lib.site import lab

    assert charts.renderer_name({"JPY_SESSION_NAME": "/home/jovyan/book/es/article1.ipynb"}) == "jupyter"
    assert charts.renderer_name({}) == "offline" == alt.renderers.active
    from lib.calculators.rental import rental_chart

    spec = charts.cost_scenarios(opt_cost_scenarios(load_inputs(), load_claims()), "es").to_dict()
    offline, jupyter = charts.offline_renderer(spec)["text/html"], charts.jupyter_renderer(spec)["text/html"]
    assert jupyter == offline and "<script" not in offline  # a picture: nothing to draw
    spec = rental_chart("es").to_dict()
    offline, jupyter = charts.offline_renderer(spec)["text/html"], charts.jupyter_renderer(spec)["text/html"]
    assert jupyter == offline + lab.CHART_LOADER
    assert json.dumps(charts.d3_locale("es"), sort_keys=True) in offline and "window.bookChart(el, " in offline
    assert json.dumps(lab.BUNDLE_URL) in lab.CHART_LOADER and lab.BUNDLE.exists()
    assert "cdn.jsdelivr" not in jupyter and "http" not in lab.CHART_LOADER


def test_a_calculators_presets_reach_its_sliders_in_its_live_spec():
    """Each slider of the rental calculator gets an `on` handler for the chosen run in the Vega the
    page draws, and the page carries it with the custom run's name for its script; a chart with no
    presets gets none."""
    import vl_convert as vlc

    from lib.calculators.rental import CUSTOM, PRESET_SIGNAL, SIGNALS, rental_chart

    spec = rental_chart("es").to_dict()
    compiled = vlc.vegalite_to_vega(spec, vl_version=charts.VL_VERSION)
    live = charts.live_spec(compiled, spec)
    moved = {new["name"]: new["on"] for old, new in zip(compiled["signals"], live["signals"]) if old != new}
    assert sorted(moved) == sorted(SIGNALS.values())
    init = {s["name"]: s["init"] for s in compiled["signals"] if s["name"] in SIGNALS.values()}
    assert moved == {name: [{"events": {"signal": PRESET_SIGNAL}, "update": expression, "force": True}]
                     for name, expression in init.items()}
    assert "description" in compiled and "description" not in live
    opt = charts.cost_scenarios(opt_cost_scenarios(load_inputs(), load_claims()), "es").to_dict()
    opt_compiled = vlc.vegalite_to_vega(opt, vl_version=charts.VL_VERSION)
    assert charts.live_spec(opt_compiled, opt) == {k: v for k, v in opt_compiled.items() if k != "description"}
    page = charts.offline_renderer(spec)["text/html"]
    assert f'{{"events":{{"signal":"{PRESET_SIGNAL}"}}' in page
    kept = {signal: f"{signal}_kept" for signal in sorted(SIGNALS.values())}
    assert json.dumps({"custom": [{"kept": kept, "signal": PRESET_SIGNAL, "value": CUSTOM}]})[1:-1] in page
    assert all(expression.startswith(f"{PRESET_SIGNAL} == '{CUSTOM}' ? {kept[name]} : ")
               for name, expression in init.items())


def test_a_chart_without_controls_is_a_picture_that_needs_no_script():
    """A static chart is its SVG, drawn here by vl-convert, with no script: the chart's description is
    its text alternative (role="img") and is written below it for every reader (what a live chart's
    tooltips said); its spec goes beside it in the notebook for lib.site.fonts. A chart with a
    control (a calculator) stays live."""
    import re

    from lib.calculators.rental import rental_chart
    from lib.chapters import decomposition

    for lang in ("es", "en"):
        spec = charts.cost_ladder(decomposition.chart_rows(lang), lang).to_dict()
        output = charts.offline_renderer(spec)
        page = output["text/html"]
        assert "<script" not in page and 'class="vega-chart"' not in page
        described = html.escape(spec["description"])
        assert f'role="img" aria-label="{described}"' in page and f"<p>{described}</p>" in page
        assert words(lang)["site"]["chart_text"] in page
        assert output[fonts.PICTURE_MIME]["description"] == spec["description"]
        assert fonts.PICTURE_SVG.search(page)["svg"] == re.search(r"<svg.*</svg>", page, re.S).group(0)
        assert 'class="vega-chart"' in charts.offline_renderer(rental_chart(lang).to_dict())["text/html"]


def test_the_first_paint_keeps_every_word_and_number_the_chart_writes():
    """The lighter static SVG (charts.first_paint) rounds coordinates, never the text it shows:
    "0.57" stays "0.57", "1,022,362" stays whole."""
    import re

    from lib.chapters import decomposition

    for lang in ("es", "en"):
        spec = charts.cost_ladder(decomposition.chart_rows(lang), lang).to_dict()
        raw = vlc.vegalite_to_svg(spec, vl_version=charts.VL_VERSION, format_locale=charts.d3_locale(lang))
        texts = lambda svg: re.findall(r">([^<>]+)<", svg)
        assert texts(charts.first_paint(raw)) == texts(raw)
        assert len(charts.first_paint(raw)) < len(raw)


def test_the_site_draws_its_live_charts_with_the_vega_of_their_first_paints():
    """The bundle's Vega is the one vl-convert renders the first paints with (`make vega` after a
    vl-convert update), and it holds the function every chart's script calls."""
    from lib.site import lab, vega_bundle

    shipped = lab.BUNDLE.read_text(encoding="utf8")
    assert vega_bundle.shipped_version(shipped) == vega_bundle.vega_version(), "run `make vega`"
    assert shipped.rstrip().endswith(vega_bundle.DRAW.strip())


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_budget_ladders_readout_stays_inside_its_plot_at_every_budget(lang):
    """The readout beside the budget's rule, drawn by vl-convert at budgets along the whole slider,
    begins and ends within the plot (measured in the charts' font), and names the budget where it has
    room for the words (at the axis's ends, where the first paint starts)."""
    from lib.core.inputs import load_inputs
    from lib.chapters import budget
    from lib.core.words import words
    from lib.site import budget_page

    i = load_inputs()
    spec = budget_page.ladder_chart(i, lang).to_dict()
    power = next(p for p in spec["params"] if p["name"] == "budget_power")
    low, high = power["bind"]["min"], power["bind"]["max"]
    yours = words(lang)["budget"]["chart"]["yours"]
    named = 0
    for n in range(13):
        power["value"] = low + (high - low) * n / 12
        svg = vlc.vegalite_to_svg(spec, vl_version=charts.VL_VERSION, format_locale=charts.d3_locale(lang))
        texts = re.finditer(r'<text [^>]*transform="translate\(([\d.-]+),[^)]*\)"[^>]*>([^<]*)</text>', svg)
        (label,) = [m for m in texts if "#b3261e" in m.group(0)]
        x, shown = float(label.group(1)), html.unescape(label.group(2))
        width = fonts.text_width(shown, 12)
        start = x - width if 'text-anchor="end"' in label.group(0) else x
        # The plot begins where the row names' column would: the rule's own x at the axis's low end.
        assert -0.5 <= start - plot_left(svg) and start + width - plot_left(svg) <= charts.PLOT_WIDTH + 0.5, (n, shown)
        named += shown.startswith(yours)
    assert named >= 6


def plot_left(svg: str) -> float:
    """Where a chart's plot begins in its SVG: the translation of its first group (Vega's padding)."""
    return float(re.search(r'<g transform="translate\(([\d.]+),', svg).group(1))


@pytest.mark.parametrize("lang", LANGS)
def test_the_opt_chart_s_ticks_stay_whole_millions_apart_on_a_wide_plot(lang):
    """On a desktop the live chart's plot takes the text column's width (vega-bundle.js), where
    Vega's own tick count would put ticks half a million apart, written alike ("2", "2"): the ticks
    stay at least a million apart, each label once."""
    rows = opt_cost_scenarios(load_inputs(), load_claims())
    for width in (charts.PLOT_WIDTH, 560, 900, 1400):
        chart = charts.cost_scenarios(rows, lang, what_if="eff_a100").properties(width=width)
        ticks = [t for t in svg_text(chart, lang) if re.fullmatch(r"[\d.,]+", t)]
        numbers = [int(t.replace(".", "").replace(",", "")) for t in ticks]
        assert len(numbers) >= 4 and len(set(numbers)) == len(numbers), (width, ticks)
        assert all(b - a >= 1 for a, b in zip(numbers, numbers[1:])), (width, ticks)


def test_the_headline_chart_names_the_book_s_calculation_apart_from_the_evidence():
    """A cost whose every figure of evidence is the book's own recomputation (MosaicML's, from summaries
    of its post) is labelled the book's calculation, as its card says; one with a publisher's estimate in
    its span, the evidence. Both sit in the evidence's slot and colour."""
    from lib.chapters.verdicts import check_all
    from lib.core.span import BOOK

    checked = check_all(load_inputs())
    kinds = {r["claim"]: r["kind"] for r in charts.headline_cost_rows(checked) if r["kind"] != "stated"}
    by_id = {c.claim.id: c for c in checked}
    for cid, kind in kinds.items():
        bases = by_id[cid].result.evidence
        if bases:
            assert (kind == "calculated") == all(b.by == BOOK for b in bases), cid
    assert kinds["A2-mosaic"] == "calculated" and kinds["A2-palm-cost"] == "sourced"
    for lang in LANGS:
        spec = charts.headline_costs(charts.headline_cost_rows(checked), lang).to_dict()
        text = words(lang)["charts"]["headline_costs"]
        assert f"{text['items']['A2-mosaic']}, {text['calculated']}:" in spec["description"]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_each_headline_cost_s_value_is_written_inside_the_plot(lang):
    """A phone's 358 px hold the headline chart only if every value written beside its mark stays in
    the plot (or its left margin's few px): on the side with room, else in the axis's millions ("2,9–27,1" for "2,9–27,1 millones de
    dólares"), its full words kept for the tooltip and the description."""
    from lib.chapters.verdicts import check_all

    data = next(iter(charts.headline_costs(charts.headline_cost_rows(check_all()), lang).to_dict()["datasets"].values()))
    for row in data:
        if row["open"]:  # an open bound is written at its end, its dashed line runs on to the axis's edge
            continue
        at = charts.log_position(row["label_x"], charts.HEADLINE_DOMAIN, charts.HEADLINE_WIDTH)
        width = fonts.text_width(row["shown"], 12) + 8
        # To the right, nothing but the plot's edge; to the left, a few px of the margin (the row names start at 0).
        inside = at + width <= charts.HEADLINE_WIDTH if row["align"] == "left" else at - width >= -8
        assert inside, (row["label"], row["shown"], row["align"], round(at), round(width))


# ---------------------------------------------------------------- no line through a label, none cut

# A 390 px phone's column, less the theme's margins (tests/test_chart_font.py's PHONE_COLUMN).
PHONE_COLUMN = 358


def _transform(node, outer: tuple) -> tuple:
    """The affine map (a, b, c, d, e, f: x' = a·x + c·y + e, y' = b·x + d·y + f) of `node` within its
    parent's `outer`, from its translate() and rotate() (all vl-convert writes)."""
    a, b, c, d, e, f = outer
    for name, args in re.findall(r"(translate|rotate)\(([^)]*)\)", node.get("transform", "")):
        values = [float(v) for v in re.split(r"[\s,]+", args.strip())]
        if name == "translate":
            x, y = values[0], values[1] if len(values) > 1 else 0.0
            e, f = a * x + c * y + e, b * x + d * y + f
        else:
            cos, sin = math.cos(math.radians(values[0])), math.sin(math.radians(values[0]))
            a, b, c, d = a * cos + c * sin, b * cos + d * sin, -a * sin + c * cos, -b * sin + d * cos
    return a, b, c, d, e, f


def _apply(m: tuple, x: float, y: float) -> tuple[float, float]:
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


def _path_points(d: str) -> list[list[tuple[float, float]]] | None:
    """The polylines of a path made of straight segments (M, L, H, V, Z, absolute or relative); None for
    one with curves (a point's symbol, a rounded bar)."""
    if re.search(r"[AaCcQqSsTt]", d):
        return None
    polylines, x, y, start = [], 0.0, 0.0, (0.0, 0.0)
    for command, args in re.findall(r"([MmLlHhVvZz])([^MmLlHhVvZz]*)", d):
        values = [float(v) for v in re.findall(r"-?[\d.]+(?:e-?\d+)?", args)]
        if command in "Zz":
            polylines[-1].append(start)
            x, y = start
            continue
        step = 1 if command in "HhVv" else 2
        for n in range(0, len(values), step):
            relative = command.islower()
            if command in "Hh":
                x = x * relative + values[n]
            elif command in "Vv":
                y = y * relative + values[n]
            else:
                x, y = x * relative + values[n], y * relative + values[n + 1]
            if command in "Mm" and n == 0:
                start = (x, y)
                polylines.append([])
            polylines[-1].append((x, y))
    return polylines


def svg_geometry(svg: str) -> tuple[list[tuple], list[tuple], float]:
    """From vl-convert's SVG: every drawn straight line ((x1, y1, x2, y2): rules, connectors, grid and
    axis lines, a line mark's segments, the plot's frame), every text's box ((left, top, right, bottom,
    text), one per line of a title, measured in the charts' font: lib.site.fonts.text_width, ascent and
    descent of 0.76 and 0.24 of its size about its baseline; a rotated one, its box as drawn) in the
    SVG's px, and the SVG's width. A filled shape (a bar, a point's symbol) is not a line."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg)
    lines, texts = [], []

    def walk(node, outer):
        m = _transform(node, outer)
        tag = node.tag.rsplit("}", 1)[-1]
        if node.get("opacity", "1") == "0" or node.get("display") == "none":
            return
        if tag == "line":
            lines.append((*_apply(m, float(node.get("x1", 0)), float(node.get("y1", 0))),
                          *_apply(m, float(node.get("x2", 0)), float(node.get("y2", 0)))))
            return
        if tag == "path":
            stroked = node.get("stroke") not in (None, "none", "transparent") and node.get("fill") in (None, "none")
            for polyline in (_path_points(node.get("d", "")) or []) if stroked else []:
                lines.extend((*_apply(m, *p), *_apply(m, *q)) for p, q in zip(polyline, polyline[1:]))
            return
        if tag == "text":
            size = float(node.get("font-size", "12px").rstrip("px"))
            bold = node.get("font-weight") == "bold"
            anchor = node.get("text-anchor", "start")
            spans = list(node) or [node]
            base = 0.0
            for n, span in enumerate(spans):
                base += float(span.get("dy", 0)) if n else 0
                shown = html.unescape("".join(span.itertext()))
                width = fonts.text_width(shown, size, bold)
                left = -{"start": 0, "middle": width / 2, "end": width}[anchor]
                corners = [_apply(m, x, y) for x in (left, left + width)
                           for y in (base - 0.76 * size, base + 0.24 * size)]
                xs, ys = [x for x, _ in corners], [y for _, y in corners]
                texts.append((min(xs), min(ys), max(xs), max(ys), shown))
            return
        for child in node:
            walk(child, m)

    walk(root, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0))
    return lines, texts, float(root.get("width"))


def _crosses(line: tuple, box: tuple) -> bool:
    """Whether a segment runs through a box shrunk by half a pixel on each side (Liang–Barsky)."""
    x1, y1, x2, y2 = line
    left, top, right, bottom = box[0] + 0.5, box[1] + 0.5, box[2] - 0.5, box[3] - 0.5
    if left >= right or top >= bottom:
        return False
    enter, leave = 0.0, 1.0
    for p, q in ((x1 - x2, x1 - left), (x2 - x1, right - x1), (y1 - y2, y1 - top), (y2 - y1, bottom - y1)):
        if p == 0:  # parallel to this edge: through the box only strictly inside it
            if q <= 0:
                return False
        elif p < 0:
            enter = max(enter, q / p)
        else:
            leave = min(leave, q / p)
    return enter < leave


def crossings(svg: str) -> list[str]:
    """Each line that runs through a text's box (by more than half a pixel), named by the text."""
    lines, texts, _ = svg_geometry(svg)
    return [f"line ({x1:.0f}, {y1:.0f})–({x2:.0f}, {y2:.0f}) through {box[4]!r}"
            for x1, y1, x2, y2 in lines for box in texts if box[4].strip() and _crosses((x1, y1, x2, y2), box)]


def cut_labels(svg: str, width: float = PHONE_COLUMN) -> list[str]:
    """Each text that runs past the SVG's edges, or a chart wider than a phone's column."""
    _, texts, drawn = svg_geometry(svg)
    cut = [f"{shown!r} ({left:.0f}–{right:.0f} px of {drawn:.0f})" for left, _, right, _, shown in texts
           if left < -0.5 or right > drawn + 0.5]
    return cut + ([f"the chart is {drawn:.0f} px wide, more than {width}"] if drawn > width else [])


def _ladder_at_every_budget(lang: str) -> list[dict]:
    """The budget ladder, drawn by vl-convert at budgets along its whole slider."""
    from lib.site import budget_page

    spec = budget_page.ladder_chart(load_inputs(), lang).to_dict()
    power = next(p for p in spec["params"] if p["name"] == "budget_power")
    low, high = power["bind"]["min"], power["bind"]["max"]
    specs = []
    for n in range(7):
        moved = json.loads(json.dumps(spec))
        next(p for p in moved["params"] if p["name"] == "budget_power")["value"] = low + (high - low) * n / 6
        specs.append(moved)
    return specs


def _svg(spec: dict, lang: str) -> str:
    return vlc.vegalite_to_svg(spec, vl_version=charts.VL_VERSION, format_locale=charts.d3_locale(lang))


@pytest.mark.parametrize("lang", LANGS)
def test_no_line_crosses_a_label_and_none_is_cut_in_any_chart(lang):
    """Every chart on the book's pages, as a phone first paints it (the committed outputs, which nbval
    holds to what lib draws now: lib.site.fonts.committed_charts), and the budget ladder at budgets
    along its whole slider: no line (a rule, a connector, a grid or axis line, the plot's frame, a line
    mark such as the costs page's "equal" diagonal) runs through a text, and no text runs past the
    chart's edges."""
    pictures = {chart["where"]: chart["svg"] for chart in fonts.committed_charts() if chart["spec"]["usermeta"]["lang"] == lang}
    assert len(pictures) >= 10, sorted(pictures)
    drawn = {**pictures, **{f"budget ladder at budget {n}": _svg(spec, lang)
                            for n, spec in enumerate(_ladder_at_every_budget(lang))}}
    problems = {name: crossings(svg) + cut_labels(svg) for name, svg in drawn.items()}
    assert not any(problems.values()), {name: found for name, found in problems.items() if found}


def test_a_line_through_a_label_and_a_cut_label_are_caught():
    """The checks above fail on a connector drawn through a label (the step-by-step chart's old
    layout: the amount beside its band, the dashed link from the step before running under it), and
    on a label pushed past the chart's edge."""
    import altair as alt
    import pandas as pd

    data = pd.DataFrame({"x": [1.0], "x2": [9.0], "y": [0]})
    rule = alt.Chart(data).mark_rule(strokeDash=[3, 3]).encode(x=alt.X("x:Q", scale=alt.Scale(domain=[0, 10]), axis=None), x2="x2:Q",
                                                                y=alt.Y("y:O", axis=None))
    label = alt.Chart(data).mark_text(align="left").encode(x=alt.X("x:Q", axis=None), y=alt.Y("y:O", axis=None),
                                                          text=alt.value("3,2 M US$"))
    crossed = _svg(charts.readable(alt.layer(rule, label).properties(width=200)).to_dict(), "es")
    assert crossings(crossed) and "3,2 M US$" in crossings(crossed)[0]
    apart = _svg(charts.readable(alt.layer(rule.encode(y=alt.value(40)), label).properties(width=200)).to_dict(), "es")
    assert crossings(apart) == []
    far = alt.Chart(data).mark_text(align="left", dx=150).encode(x=alt.X("x2:Q", axis=None), y=alt.Y("y:O", axis=None),
                                                                 text=alt.value("1,5 M US$ (×0,37)"))
    pushed = _svg(charts.readable(far.properties(width=200, autosize="none")).to_dict(), "es")
    assert any("1,5 M US$ (×0,37)" in c for c in cut_labels(pushed))
    assert any("wider" in c or "more than" in c for c in cut_labels(pushed, width=100))
    # The costs page's compute chart as it was: a run's name on the right of its point, above the diagonal
    # line where the two counts are equal, which runs on through the name; on the point's left it does not.
    points = pd.DataFrame({"x": [3.0], "y": [4.0]})
    log = alt.Scale(type="log", domain=[1, 10])
    equal = alt.Chart(pd.DataFrame({"x": [1.0, 10.0]})).mark_line().encode(
        x=alt.X("x:Q", scale=log, axis=None), y=alt.Y("x:Q", scale=log, axis=None))
    for align, dx, crossed in (("left", 8, True), ("right", -8, False)):
        name = alt.Chart(points).mark_text(align=align, dx=dx).encode(
            x=alt.X("x:Q", scale=log, axis=None), y=alt.Y("y:Q", scale=log, axis=None), text=alt.value("OPT-175B"))
        svg = _svg(charts.readable(alt.layer(equal, name).properties(width=270, height=240, view=alt.ViewConfig(stroke=None))).to_dict(), "en")
        assert bool([c for c in crossings(svg) if "OPT-175B" in c]) == crossed, (align, crossings(svg))
