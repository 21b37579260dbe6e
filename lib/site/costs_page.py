"""What the chapter "Why published costs disagree" (book/<lang>/costs.ipynb) glues: its figures
(costs.<name>), the table of published figures (each recomputed by its publisher's method,
lib.chapters.published), its CSV, Epoch AI's steps run by run, and the rows of its charts."""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
import json

from IPython.display import Markdown

from lib.chapters import decomposition, epoch, published
from lib.chapters.costs import (METHODS, compare, cost_intervals, cpi_factor, cpi_last_year, energy_rows, flops_rows,
                                hour_intervals, load, opt_flops_accounting, own_emissions, price_intervals, project_hours, whole_project,
                                year_of)
from lib.chapters.published import Row
from lib.core import fmt, sentences
from lib.core.claims import POLICY, load_claims
from lib.core.figure import Figure
from lib.core.inputs import Inputs
from lib.core.words import words
from lib.site import page
from lib.site.markdown import table_cell


def _money(low: float, high: float | None = None) -> Figure:
    return Figure.between(low, low if high is None else high, "USD", decimals=1)


def chapter_figures(i) -> dict[str, Figure]:
    """Every figure the chapter glues, by name (the page's glue keys are costs.<name>)."""
    f: dict[str, Figure] = {}
    for run, row in flops_rows(i).items():
        f[f"flops.{run}.six_nd"] = Figure.of(row["six_nd"], "FLOP")
        if row["reported"] is not None:
            f[f"flops.{run}.reported"] = Figure.of(row["reported"], "FLOP")
            f[f"flops.{run}.ratio"] = Figure.of(row["ratio"], "", decimals=2)
        if row["hours"] is not None:
            f[f"flops.{run}.hours"] = Figure.of(row["hours"], "chip-hour" if run == "palm" else "GPU-hour")
            f[f"flops.{run}.utilisation"] = Figure.of(row["utilisation"], "fraction", decimals=1)
    f["flops.k"] = Figure.of(i.flops_per_param_token, "")
    f["palm.mfu"] = Figure.of(i.palm_mfu, "fraction", decimals=1)
    opt = opt_flops_accounting(i)
    f["opt.tflops"] = Figure.of(opt["throughput_share"], "fraction", decimals=1)
    f["opt.recompute"] = Figure.of(opt["recompute"], "FLOP")
    f["opt.recompute_residual"] = Figure.of(opt["recompute_residual"], "fraction", decimals=1)
    f["opt.layers"] = Figure.of(i.opt_layers, "layer")
    f["opt.d_model"] = Figure.of(i.opt_d_model, "")
    f["opt.seq_len"] = Figure.of(i.opt_seq_len, "token")
    f["opt.vocab"] = Figure.of(i.gpt2_vocab, "token")
    f["opt.tokens"] = Figure.of(i.opt_tokens, "token", compact=True)
    f["opt.ideal_gpus"] = Figure.of(i.opt_ideal_gpus, "GPU")
    f["opt.ideal_days"] = Figure.of(i.opt_ideal_days, "day")
    f["opt.logbook_days"] = Figure.of(opt["logbook_days"], "day", decimals=1)
    f["opt.per_gpu"] = Figure.of(i.opt_tflops_per_gpu / 1e12, "")
    f["opt.assumed_gpus"] = Figure.of(i.llama_opt_assumed_gpus, "GPU")
    f["opt.assumed_days"] = Figure.of(i.llama_opt_assumed_days, "day")
    f["opt.assumed_hours"] = Figure.of(opt["assumed_hours"], "GPU-hour")
    f["opt.reported_on_table"] = Figure.of(opt["reported_on_table_hours"], "fraction", decimals=1)
    f["palm.hfu"] = Figure.of(i.palm_hfu, "fraction", decimals=1)
    f["palm.hfu_over_mfu"] = Figure.of(opt["palm_hfu_over_mfu"], "", decimals=2)
    for run, (low, high) in hour_intervals(i).items():
        f[f"hours.{run}"] = Figure.between(low, high, "chip-hour" if run == "palm" else "GPU-hour")
    for run, methods in price_intervals(i).items():
        unit = "USD/chip-hour" if run == "palm" else "USD/GPU-hour"
        for method, (low, high) in methods.items():
            f[f"price.{run}.{method}"] = Figure.between(low, high, unit)
    f["price.today"] = Figure.between(min(i.lambda_h100_sxm_8x, i.lambda_h100_sxm_1x),
                                      max(i.lambda_h100_sxm_8x, i.lambda_h100_sxm_1x), "USD/GPU-hour")
    for run, methods in cost_intervals(i).items():
        for method, (low, high) in methods.items():
            f[f"cost.{run}.{method}"] = _money(low, high)
    for key, figure in published_figures(i).items():
        f[key] = figure
    for run, row in energy_rows(i).items():
        f[f"energy.{run}.hours"] = Figure.of(row["hours"], "GPU-hour")
        for name in ("mwh", "t"):
            f[f"energy.{run}.{name}"] = Figure.of(row[name], "", decimals=1)
            f[f"energy.{run}.printed_{name}"] = Figure.of(row[f"printed_{name}"], "")
    own = own_emissions(i)
    for name in ("opt_own_t", "bloom_own_mwh", "bloom_at_own_grid_t", "bloom_own_dynamic_t", "bloom_own_total_t"):
        f[f"energy.{name}"] = Figure.of(own[name], "", decimals=1)
    for name in ("opt_implied_intensity", "bloom_own_intensity"):
        f[f"energy.{name}"] = Figure.of(own[name], "", decimals=3)
    project = whole_project(i)
    f["project.gpus"] = Figure.of(i.llama_gpus, "GPU")
    f["project.months"] = Figure.of(i.llama_project_months, "")
    f.update({f"project.{name}": figure for name, figure in project_hours(project).items()})
    f["project.hours_ratio"] = Figure.of(project["hours_ratio"], "", decimals=1)
    # the hours its energy stands for, over the 65B model's final run
    f["project.energy_hours_ratio"] = Figure.of(project["energy_gpu_hours"] / i.llama_65b_gpu_hours, "", decimals=1)
    f["project.mwh"] = Figure.of(i.llama_project_mwh, "")
    f["project.t"] = Figure.of(i.llama_project_tco2, "")
    f["project.mwh_ratio"] = Figure.of(project["mwh_ratio"], "", decimals=1)
    f["project.formula_mwh"] = Figure.of(project["formula_mwh"], "")
    f["project.implied_months"] = Figure.of(project["implied_months"], "", decimals=1)
    f["project.cost.on_demand"] = _money(*project["cost_on_demand"])
    f["project.cost.three_year"] = _money(*project["cost_three_year"])
    f["energy.power"] = Figure.of(i.llama_table_gpu_power, "")
    f["energy.pue"] = Figure.of(i.llama_table_pue, "", decimals=1)
    f["energy.intensity"] = Figure.of(i.llama_table_intensity, "", decimals=3)
    f["price.year"] = Figure.of(i["azure_a100_2022_3yr"].seen, "calendar-year")
    # Dollars of one year: the costs priced at the list prices of price.year, in dollars of the
    # last full year of the CPI data (today's prices are left as they are: a later year).
    year, last = i["azure_a100_2022_3yr"].seen, cpi_last_year()
    factor = cpi_factor(year, last)
    f["cpi.year"] = Figure.of(last, "calendar-year")
    f["cpi.factor"] = Figure.of(factor, "USD", decimals=2)
    f["cpi.factor_p4d"] = Figure.of(cpi_factor(year_of(i, "aws_p4d_a100_2021_3yr"), last), "USD", decimals=2)
    for run, methods in cost_intervals(i, dollars_of=last).items():
        for method, (low, high) in methods.items():
            if method != "today":
                f[f"real.{run}.{method}"] = _money(low, high)
    f["price.p4d_seen"] = i.seen_on("aws_p4d_a100_2021_3yr")
    f["price.p4d_year"] = Figure.of(year_of(i, "aws_p4d_a100_2021_3yr"), "calendar-year")
    f["price.today_seen"] = i.seen_on("lambda_h100_sxm_8x", "lambda_h100_sxm_1x")  # the two ends of price.today
    return f


def published_figures(i, data=None) -> dict[str, Figure]:
    """The published figures the chapter's prose quotes (pub.<key>.*), the counts of its table,
    Epoch AI's rules as its code sets them (epoch.*) and each step of the decomposition (ladder.*)."""
    data = epoch.load() if data is None else data
    rows = published.table_rows(i, data)
    f: dict[str, Figure] = {}
    for r in rows:
        f[f"pub.{r.key}.published"] = r.checked.claim.stated
        if r.recomputed is not None:
            f[f"pub.{r.key}.recomputed"] = r.recomputed
    f["pub.count"] = Figure.of(len(rows), "")
    for verdict in ("holds", "context", "wrong", "unverified"):
        f[f"pub.{verdict}"] = Figure.of(sum(r.checked.verdict == verdict for r in rows), "")
    f["pub.epoch"] = Figure.of(sum(r.who == "epoch" for r in rows), "")
    f["pub.epoch_holds"] = Figure.of(sum(r.who == "epoch" and r.checked.verdict == "holds" for r in rows), "")
    f["pub.epoch_runs"] = Figure.of(len(epoch.RUNS), "")
    for key, figure in published.epoch_rule_figures(data).items():
        f[f"epoch.{key}"] = figure
    palm = published.palm_chip_hours_counted(i, data)
    f["epoch.palm_training_hours"] = Figure.of(palm["training_hours"], "hour")
    f["epoch.palm_chips"] = Figure.of(palm["chips"], "chip")
    f["epoch.palm_hours_second"] = Figure.of(i.palm_hours_second, "hour")
    f["epoch.palm_chips_second"] = Figure.of(i.palm_chips_second, "chip")
    f["epoch.palm_paper_chip_hours"] = Figure.of(palm["paper"], "chip-hour")
    f["epoch.palm_over_paper"] = Figure.of(palm["over"], "fraction", decimals=1)
    f["tolerance"] = Figure.of(POLICY["reproduction"], "fraction", decimals=1)
    article = load_claims()["A1-opt-gpu-hours"].arithmetic
    f["ladder.opt.article_days"] = Figure.of(article["days"], "day")
    f["ladder.opt.article_gpus"] = Figure.of(article["gpus"], "GPU")
    for run in decomposition.LADDER_RUNS:
        for step in decomposition.ladder(run, i, data)[1:]:
            f[f"ladder.{run}.{step.key}"] = Figure.between(min(step.factor_low, step.factor_high),
                                                           max(step.factor_low, step.factor_high), "", decimals=2)
            f[f"ladder.{run}.{step.key}.low_end"] = Figure.of(step.factor_low, "", decimals=2)
            f[f"ladder.{run}.{step.key}.high_end"] = Figure.of(step.factor_high, "", decimals=2)
        for method, ratio in decomposition.methods(run, data).items():
            f[f"ladder.{run}.{method}"] = Figure.of(ratio, "", decimals=2)
    return f


def chart_rows(i, lang: str) -> tuple[list[dict], list[dict]]:
    """The chart's intervals (run, method, low, high, label) and published marks (run, who, value,
    label): every published figure of a single value for the runs the chart prices."""
    w = words(lang)["costs"]
    costs = cost_intervals(i)
    intervals = [{"run": w["runs"][run], "method": w["methods"][method], "low": float(low), "high": float(high),
                  "label": _money(low, high).format(lang)}
                 for run, methods in costs.items()
                 for method, (low, high) in sorted(methods.items(), key=lambda m: METHODS.index(m[0]))]
    who = words(lang)["published"]
    marks = []
    for r in published.table_rows(i):
        stated = r.checked.claim.stated
        if r.run in costs and not stated.is_bound and stated.low == stated.high:
            name = who["who"][r.who] + (f", {who['method'][r.method]}" if r.who == "epoch" else "")
            # Its line in the chart: who published it, named short, and the amount in CLDR's short form.
            short = w["chart"]["short"][f"epoch_{r.method}" if r.who == "epoch" else r.who]
            marks.append({"run": w["runs"][r.run], "who": name, "value": float(stated.low),
                          "label": dataclasses.replace(stated, decimals=1).format(lang),
                          "short_who": short, "amount": fmt.money_short(stated.low, "USD", lang)})
    return intervals, marks


def glue_chapter(lang: str, i: Inputs | None = None) -> dict[str, Figure]:
    """Glue the chapter's figures (costs.<name>), the words its sentences take from the numbers,
    the table of published figures and Epoch AI's steps."""
    i = load() if i is None else i
    figures = chapter_figures(i)
    page.glue_figures("costs", figures, lang)
    page.glue_node_price(lang, i)  # which end of today's price range is a whole node's, which a single GPU's
    rows = published.table_rows(i)
    page.glue("costs.table", Markdown(table_markdown(rows, lang)), display=False)
    for method in EPOCH_STEPS:
        page.glue(f"costs.epoch_steps.{method}", Markdown(epoch_steps_markdown(method, lang)), display=False)
    # The verdicts of the table, counted as its rows show them (lib.chapters.published.Row.verdict_label).
    page.glue("costs.pub.verdicts", table_counts(rows, lang), display=False)
    for r in rows:
        page.glue(f"costs.pub.{r.key}.verdict", r.verdict_label(lang), display=False)
        # The verdict's code beside its label: the corrections log reads a relabelled verdict as the same.
        page.glue(f"costs.pub.{r.key}.raw", json.dumps({"verdict": r.checked.verdict}), display=False)
        if r.who not in ("article1", "article2"):  # the articles' claims have their cards in their chapters
            page.glue(f"costs.pub.{r.key}.context", r.checked.context(lang), display=False)
    rows_flops = flops_rows(i)
    w = words(lang)["costs"]
    page.glue("costs.palm.vs_mfu", w["compare"][compare(rows_flops["palm"]["utilisation"], i.palm_mfu)], display=False)
    opt = opt_flops_accounting(i)
    within = abs(opt["recompute_residual"]) <= POLICY["measurement"]
    page.glue("costs.opt.logbook_status", w["logbook_status"]["reproduced" if within else "not"], display=False)
    page.glue("costs.opt.assumption", w["assumption"][compare(opt["assumed_hours"], opt["table_hours"])], display=False)
    cloud = epoch.estimate("opt", "cloud").steps  # Epoch AI's price row: before its lookup date, or after
    side = "before" if cloud["price_row"][1] <= cloud["price_lookup_date"].date() else "after"
    page.glue("costs.epoch.opt_row_side", w["row_side"][side], display=False)
    palm = published.palm_chip_hours_counted(i)  # Epoch AI's training time × chips against the paper's chip-hours
    share = Figure.of(abs(palm["over"]), "fraction", decimals=1).format(lang)
    page.glue("costs.epoch.palm_counted", w["counted"][compare(palm["counted"], palm["paper"])].format(share=share),
              display=False)
    return figures


def table_counts(rows: list[Row], lang: str) -> str:
    """The table's verdicts counted as its rows show them, one group per label, holds first and the
    figures without a verdict last ("Holds, 16; Needs context, 3; Not redone, 3; No primary source,
    1"): the count the chapter's summary states is the table's own."""
    order = ("holds", "context", "wrong", "not_redone", "unverified")
    counts: dict[str, list] = {}
    for r in rows:
        label = r.verdict_label(lang)
        code = r.checked.verdict if label == r.checked.verdict_label(lang) else "not_redone"
        label = words(lang)["published"]["not_redone"]["label"] if code == "not_redone" else label
        counts.setdefault(code, [label, 0])[1] += 1
    return "; ".join(f"{counts[code][0]}, {fmt.number(counts[code][1], lang)}" for code in order if code in counts)


def published_csv(lang: str, i: Inputs | None = None) -> str:
    """The published figures and their recomputations as CSV (costs.csv beside ledger.csv)."""
    return table_csv(published.table_rows(load() if i is None else i), lang)


def table_markdown(rows: list[Row], lang: str) -> str:
    """The table as MyST: who, run, published figure, method, recomputed, residual, verdict, and how
    far a figure that needs context or does not hold is from its sources."""
    w, runs = words(lang)["published"], words(lang)["costs"]["runs"]
    head = w["table"]
    lines = [f"| {' | '.join(head.values())} |", "|" + "---|" * len(head)]
    for r in rows:
        residual = "—" if r.residual is None else fmt.percent(0.0 if abs(r.residual) < 5e-5 else r.residual, lang, 2)
        cells = [w["who"][r.who], runs[r.run], r.checked.claim.stated.format(lang), w["method"][r.method],
                 r.recomputed.format(lang) if r.recomputed else "—", residual, r.verdict_label(lang),
                 sentences.distance_text(r.checked, lang) or "—"]
        lines.append("| " + " | ".join(table_cell(c) for c in cells) + " |")
    return "\n".join(lines)


def table_csv(rows: list[Row], lang: str) -> str:
    """The table as CSV (costs.csv beside ledger.csv): the page's words, plus unformatted dollars."""
    w, runs = words(lang)["published"], words(lang)["costs"]["runs"]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["key", *w["table"].values(), "published_low_usd", "published_high_usd", "recomputed_usd",
                     "residual", "verdict_code"])
    for r in rows:
        stated = r.checked.claim.stated
        writer.writerow([r.key, w["who"][r.who], runs[r.run], stated.format(lang), w["method"][r.method],
                         r.recomputed.format(lang) if r.recomputed else "", "" if r.residual is None else f"{r.residual:+.6f}",
                         r.verdict_label(lang), sentences.distance_text(r.checked, lang),
                         stated.low, stated.high,
                         r.recomputed.low if r.recomputed else "", "" if r.residual is None else round(r.residual, 8),
                         r.checked.verdict])
    return out.getvalue()


# ---------------------------------------------------------------- Epoch AI's steps, run by run

# The steps each method's table shows, in the order the method takes them, and how each reads.
EPOCH_STEPS = {
    "cloud": (("hardware", "text"), ("chips", "count"), ("training_hours", "wall_hours"), ("chip_hours", "hours"),
              ("reported_chip_hours", "hours"), ("training_start", "date"), ("price_lookup_date", "date"),
              ("price_vendor", "text"), ("price_hardware", "text"), ("price_date", "date"), ("price_per_hour", "price"),
              ("cost_nominal_usd", "usd"), ("ppi_month", "month"), ("ppi_factor", "factor"), ("usd", "usd")),
    "acquisition": (("hardware", "text"), ("chips", "count"), ("price_hardware", "text"), ("price_date", "date"),
                    ("price_in_row", "usd"), ("server_overhead", "factor"), ("price_per_chip", "usd"),
                    ("acquisition_date", "date"), ("interconnect", "factor"), ("cost_nominal_usd", "usd"),
                    ("ppi_month", "month"), ("ppi_factor", "factor"), ("usd", "usd")),
    "capex_energy": (("hardware", "text"), ("price_per_chip", "usd"), ("acquisition_date", "date"), ("training_start", "date"),
                     ("years_since_acquisition", "years"), ("depreciation", "share"), ("value_at_start", "usd"),
                     ("replacement_per_year", "share"), ("hours_per_year", "count"), ("hardware_per_hour", "price"),
                     ("reported_chip_hours", "hours"), ("hardware_usd", "usd"), ("interconnect_usd", "usd"),
                     ("chip_tdp_kw", "kw"), ("chip_to_server_power", "factor"), ("server_tdp_fraction", "share"),
                     ("pue", "factor"), ("kwh", "count"), ("energy_price_per_kwh", "kwh_price"), ("energy_usd", "usd"),
                     ("cost_nominal_usd", "usd"), ("ppi_month", "month"), ("ppi_factor", "factor"), ("usd", "usd")),
}


def _step_values(est: epoch.Estimate, method: str) -> dict[str, object]:
    """The estimate's steps, with the chosen price row and the index month split out (and, for the
    amortized method, its hourly cost and hours named as what they are: the hardware's, reported)."""
    steps = dict(est.steps)
    if method == "capex_energy":
        steps["hardware_per_hour"], steps["reported_chip_hours"] = steps["price_per_hour"], steps["chip_hours"]
    vendor, date, hardware, price = steps.get("price_row", (None, None, None, None))
    steps["price_vendor"], steps["price_date"], steps["price_hardware"], steps["price_in_row"] = vendor or None, date, hardware, price
    steps["ppi_month"] = dt.date.fromisoformat(steps["ppi_from"][0] + "-01")
    return steps


def _step_cell(value: object, kind: str, lang: str) -> str:
    if value is None or value == "":
        return "—"
    if kind == "date":
        return fmt.date(value.date() if isinstance(value, dt.datetime) else value, lang)
    if kind == "month":
        return fmt.month(value, lang)
    if kind == "text":
        return str(value)
    # The unit is in the row's label: a cell holds the number alone.
    decimals = {"count": 0, "hours": 0, "wall_hours": 1, "usd": 0, "price": 2, "factor": 3, "share": 1, "years": 2,
                "kw": 2, "kwh_price": 4}[kind]
    if kind == "share":
        return fmt.percent(float(value), lang, decimals)
    return fmt.number(float(value), lang, decimals)


def epoch_steps_markdown(method: str, lang: str, data: epoch.EpochData | None = None) -> str:
    """Epoch AI's steps for `method` as a MyST table: one row a step, one column a run."""
    if method not in EPOCH_STEPS:
        raise ValueError(f"unknown Epoch AI method {method!r}: one of {', '.join(EPOCH_STEPS)}")
    data = epoch.load() if data is None else data
    w, runs = words(lang)["epoch_steps"], words(lang)["costs"]["runs"]
    values = {run: _step_values(epoch.estimate(run, method, data), method) for run in epoch.RUNS}
    lines = [f"| {w['step']} | " + " | ".join(runs[r] for r in epoch.RUNS) + " |", "|" + "---|" * (len(epoch.RUNS) + 1)]
    for key, kind in EPOCH_STEPS[method]:
        cells = [w[key]] + [_step_cell(values[run].get(key), kind, lang) for run in epoch.RUNS]
        lines.append("| " + " | ".join(table_cell(c) for c in cells) + " |")
    return "\n".join(lines)
