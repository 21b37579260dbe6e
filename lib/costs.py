"""Why published training costs disagree: how each run's FLOPs and hours are counted, the hours
priced at each rental tier, energy, the final run against the whole project; and the figures the
chapter glues from lib.published (each published figure by its publisher's method) and
lib.decomposition (one run's figures, factor by factor).

Small pure functions (ValueError on bad input) and, at the end, the figures the chapter
book/<lang>/costs.ipynb glues. Inputs: the articles' (lib/data/inputs/*.toml) reused by name,
plus the chapter's own (lib/data/inputs/costs.toml).
"""

from __future__ import annotations

import dataclasses
import functools
import math

from . import compute as k
from .compute import _fraction, _number
from .figure import Figure
from .claims import POLICY, load_claims
from .inputs import DATA_DIR, Inputs, load_inputs

COSTS_FILE = DATA_DIR / "costs.toml"
RUNS = ("opt", "llama", "palm", "gpt3")
METHODS = ("on_demand", "one_year", "three_year", "today")


def load() -> Inputs:
    """Every sourced input of the book: the articles' and the chapter's (costs.toml), by name."""
    return load_inputs()


# ---------------------------------------------------------------- arithmetic

def implied_utilisation(flops: float, device_hours: float, peak_flops_per_second: float) -> float:
    """The share of peak that `flops` done in `device_hours` implies (may exceed 1 if the hours are too few)."""
    return _number("flops", flops) / (_number("device_hours", device_hours) * k.SECONDS_PER_HOUR
                                      * _number("peak_flops_per_second", peak_flops_per_second))


residual = k.residual


def interval(low: float, high: float) -> tuple[float, float]:
    low, high = _number("low", low, allow_zero=True), _number("high", high, allow_zero=True)
    if low > high:
        raise ValueError(f"interval low ({low:g}) is above high ({high:g})")
    return low, high


def interval_product(*intervals: tuple[float, float]) -> tuple[float, float]:
    """Interval arithmetic for products of non-negative quantities: [Π lows, Π highs]."""
    if not intervals:
        raise ValueError("interval_product needs at least one interval")
    low = high = 1.0
    for lo, hi in intervals:
        lo, hi = interval(lo, hi)
        low, high = low * lo, high * hi
    return low, high


def energy_mwh(device_hours: float, power_w: float, pue: float) -> float:
    """Energy of a run as the LLaMA paper's Table 15 counts it: hours × power × PUE, in MWh."""
    return _number("device_hours", device_hours) * _number("power_w", power_w) * _number("pue", pue) / 1e6


def emissions_t(mwh: float, t_per_mwh: float) -> float:
    """Tonnes of CO2-equivalent from energy and a grid's carbon intensity."""
    return _number("mwh", mwh, allow_zero=True) * _number("t_per_mwh", t_per_mwh)


def hours_on(device_hours: float, old_peak: float, new_peak: float) -> float:
    """The same work on a newer chip at the same utilisation: hours × old peak / new peak."""
    return _number("device_hours", device_hours) * _number("old_peak", old_peak) / _number("new_peak", new_peak)


def cpi_last_year() -> int:
    """The last full year of US CPI-U data the installed `cpi` package ships (no network)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # it warns, on import, that its data is stale: the page names the year
        import cpi

    return int(cpi.LATEST_YEAR)


@functools.lru_cache(maxsize=None)  # the shipped CPI data do not change while the book runs
def cpi_factor(from_year: int, to_year: int) -> float:
    """Dollars of `to_year` per dollar of `from_year`, by the US consumer price index (CPI-U,
    annual averages, all urban consumers) that the `cpi` package ships offline."""
    import warnings

    for name, year in (("from_year", from_year), ("to_year", to_year)):
        if isinstance(year, bool) or not isinstance(year, int):
            raise ValueError(f"{name} must be a whole year, got {year!r}")
        if not 1913 <= year <= cpi_last_year():
            raise ValueError(f"{name} {year} is outside the CPI data shipped (1913 to {cpi_last_year()})")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the package warns that its data is stale: the page names its last year
        import cpi

        return float(cpi.inflate(1.0, from_year, to=to_year))


def compare(a: float, b: float) -> str:
    """'below', 'equal' or 'above': how `a` stands to `b` (a key of the words' [costs.compare])."""
    a, b = _number("a", a, allow_zero=True), _number("b", b, allow_zero=True)
    return "below" if a < b else "above" if a > b else "equal"


# ---------------------------------------------------------------- the runs

def h100_dense_peak(i) -> float:
    return i.h100_sxm_bf16_sparse_peak / 2  # the datasheet's figure is with sparsity


def palm_reported_hours(i) -> float:
    return k.gpu_hours(i.palm_chips_main, i.palm_hours_main) + k.gpu_hours(i.palm_chips_second, i.palm_hours_second)


def flops_rows(i) -> dict[str, dict]:
    """Per run: 6ND, the FLOPs the authors report (LLaMA reports none), the hours the run is
    known by, and the model FLOPs utilisation those hours imply on the chip's dense bf16 peak:
    model FLOPs (6ND, or the report where it counts the model's FLOPs, as PaLM's and GPT-3's do)
    over hours. OPT's logbook counts the hardware's FLOPs (opt_flops_accounting), so OPT's
    utilisation is from 6ND; its hours are the LLaMA paper's assumption, not OPT's authors'."""
    runs = {
        "opt": (i.opt_params, i.opt_tokens, i.opt_total_flops, False, i.opt_llama_table_gpu_hours, i.a100_bf16_peak),
        "llama": (i.llama_65b_params, i.llama_tokens, None, False, i.llama_65b_gpu_hours, i.a100_bf16_peak),
        "palm": (i.palm_params, i.palm_tokens, i.palm_flops, True, palm_reported_hours(i), i.tpu_v4_peak),
        "gpt3": (i.gpt3_params, i.gpt3_tokens, i.gpt3_flops, True, None, None),
        # MosaicML published neither FLOPs nor hours; its size and tokens are known from summaries.
        "mosaic": (i.mosaic_params, i.mosaic_tokens, None, False, None, None),
    }
    rows = {}
    for run, (n, d, reported, reported_is_model, hours, peak) in runs.items():
        six_nd = k.training_flops(n, d, i.flops_per_param_token)
        model_flops = reported if reported_is_model else six_nd
        rows[run] = {
            "six_nd": six_nd, "reported": reported, "hours": hours,
            "ratio": None if reported is None else reported / six_nd,
            "utilisation": None if hours is None else implied_utilisation(model_flops, hours, peak),
        }
    return rows


def opt_flops_accounting(i) -> dict[str, float]:
    """How OPT-175B's FLOPs are counted. The logbook's 4.30e23 is not the model's 6·N·D: Megatron-LM's
    count with activation recomputation (an extra forward pass) for OPT's shape over its 300B
    tokens comes to it (the logbook does not say how it counted: the match is the book's reading),
    and its "~33 days on 1,024 GPUs" are those FLOPs at the paper's 147 TFLOP/s per GPU. The 809,472
    GPU-hours of the LLaMA paper's table are that paper's own assumption for OPT (992 GPUs for 34
    days). The reported FLOPs over those hours only give back the throughput's share of the peak
    (scaled by the two GPU-day counts): a circle, not a measurement."""
    six_nd = k.training_flops(i.opt_params, i.opt_tokens, i.flops_per_param_token)
    recompute = k.recompute_flops_per_token(i.opt_layers, i.opt_d_model, i.opt_seq_len, i.gpt2_vocab) * i.opt_tokens
    logbook_days = i.opt_total_flops / (i.opt_ideal_gpus * _number("opt_tflops_per_gpu", i.opt_tflops_per_gpu)) \
        / k.SECONDS_PER_HOUR / k.HOURS_PER_DAY
    assumed = k.gpu_hours(i.llama_opt_assumed_gpus, k.days_to_hours(i.llama_opt_assumed_days))
    return {
        "six_nd": six_nd, "reported": i.opt_total_flops, "ratio": i.opt_total_flops / six_nd,
        "recompute": recompute, "recompute_residual": residual(recompute, i.opt_total_flops),
        "logbook_days": logbook_days,
        "throughput_share": i.opt_tflops_per_gpu / i.a100_bf16_peak,
        "assumed_hours": assumed, "table_hours": i.opt_llama_table_gpu_hours,
        "reported_on_table_hours": implied_utilisation(i.opt_total_flops, i.opt_llama_table_gpu_hours, i.a100_bf16_peak),
        "mfu_on_table_hours": implied_utilisation(six_nd, i.opt_llama_table_gpu_hours, i.a100_bf16_peak),
        "palm_hfu_over_mfu": i.palm_hfu / i.palm_mfu,
    }


def hour_intervals(i) -> dict[str, tuple[float, float]]:
    """Each run's device-hours as an interval. OPT: LLaMA's Table 15 count to every hour of the
    final run's calendar on its cluster. LLaMA: Table 15 to its GPUs × the paper's days. PaLM: its
    model FLOPs at its model FLOPs utilisation (the consistent pair) to the chip-hours the paper reports."""
    from .recompute.article1 import opt_wall_clock_gpu_hours
    from .recompute.article2 import palm_chip_hours

    return {
        "opt": interval(i.opt_llama_table_gpu_hours, opt_wall_clock_gpu_hours(i)),
        "llama": interval(i.llama_65b_gpu_hours, k.gpu_hours(i.llama_gpus, k.days_to_hours(i.llama_paper_days))),
        "palm": interval(palm_chip_hours(i)["needed_mfu"], palm_reported_hours(i)),
    }


def year_of(i, name: str) -> int:
    """The year an input's price was seen (a date or a year)."""
    seen = i[name].seen
    return seen if isinstance(seen, int) else seen.year


def price_intervals(i, dollars_of: int | None = None) -> dict[str, dict[str, tuple[float, float]]]:
    """Price per device-hour, by run and method, as intervals over the sourced providers; with
    `dollars_of`, each price taken by the CPI from the year it was seen to dollars of that year."""
    def price(name: str) -> float:
        return i[name].value * (1.0 if dollars_of is None else cpi_factor(year_of(i, name), dollars_of))

    a100 = {
        "on_demand": interval(price("azure_a100_2022_on_demand"), price("aws_a100_2022_on_demand")),
        "one_year": interval(price("azure_a100_2022_1yr"), price("aws_a100_2022_1yr")),
        "three_year": interval(price("aws_p4d_a100_2021_3yr"), price("aws_a100_2022_3yr")),
    }
    tpu = {method: interval(price(name), price(name)) for method, name in
           (("on_demand", "tpu_v4_price_on_demand"), ("one_year", "tpu_v4_price_1yr"), ("three_year", "tpu_v4_price_3yr"))}
    return {"opt": a100, "llama": a100, "palm": tpu}


def cost_intervals(i, dollars_of: int | None = None) -> dict[str, dict[str, tuple[float, float]]]:
    """Each run's rental cost by each price tier as an interval: hours interval × price interval.
    Today: the same work on H100 SXM at the run's own utilisation, at Lambda's 8- and 1-GPU prices.
    With `dollars_of`, every price but today's in dollars of that year (price_intervals). Owning
    the hardware is priced by Epoch AI's own methods (lib.epoch), not here."""
    hours, prices = hour_intervals(i), price_intervals(i, dollars_of)
    old_peak = {"opt": i.a100_bf16_peak, "llama": i.a100_bf16_peak, "palm": i.tpu_v4_peak}
    today = interval(min(i.lambda_h100_sxm_8x, i.lambda_h100_sxm_1x), max(i.lambda_h100_sxm_8x, i.lambda_h100_sxm_1x))
    out = {}
    for run in ("opt", "llama", "palm"):
        row = {m: interval_product(hours[run], prices[run][m]) for m in ("on_demand", "one_year", "three_year")}
        h100 = tuple(hours_on(h, old_peak[run], h100_dense_peak(i)) for h in hours[run])
        row["today"] = interval_product(h100, today)
        out[run] = row
    return out


def own_emissions(i) -> dict[str, float]:
    """What the teams themselves report, beside the LLaMA table's formula: OPT's own estimate (and
    the grid intensity it implies at the table's energy), and BLOOM's measured energy at its own
    grid's intensity (Luccioni et al.), which reproduces their dynamic-consumption figure."""
    rows = energy_rows(i)
    bloom_mwh = _number("bloom_kwh", i.bloom_luccioni_kwh) / 1000
    return {
        "opt_own_t": i.opt_paper_tco2,
        "opt_implied_intensity": i.opt_paper_tco2 / rows["opt"]["mwh"],
        "bloom_own_mwh": bloom_mwh,
        "bloom_own_intensity": i.bloom_luccioni_intensity,
        "bloom_at_own_grid_t": emissions_t(bloom_mwh, i.bloom_luccioni_intensity),
        "bloom_own_dynamic_t": i.bloom_luccioni_dynamic_t,
        "bloom_own_total_t": i.bloom_luccioni_total_t,
    }


def predicted_rows(i, lang: str) -> list[dict]:
    """The runs whose authors report training FLOPs: 6·N·D beside the report, for the chart."""
    from .words import words

    names = words(lang)["costs"]["runs"]
    return [{"run": names[run], "predicted": row["six_nd"], "reported": row["reported"],
             "label": f"{Figure.of(row['six_nd'], 'FLOP').format(lang)} → {Figure.of(row['reported'], 'FLOP').format(lang)}"}
            for run, row in flops_rows(i).items() if row["reported"] is not None]


def energy_rows(i) -> dict[str, dict[str, float]]:
    """Energy and emissions by Table 15's formula, beside what the table prints."""
    hours = {"opt": i.opt_llama_table_gpu_hours, "bloom": i.bloom_table_gpu_hours, "llama": i.llama_65b_gpu_hours}
    printed = {"opt": (i.opt_table_mwh, i.opt_table_tco2), "bloom": (i.bloom_table_mwh, i.bloom_table_tco2),
               "llama": (i.llama_table_mwh, i.llama_table_tco2)}
    rows = {}
    for run, h in hours.items():
        mwh = energy_mwh(h, i.llama_table_gpu_power, i.llama_table_pue)
        rows[run] = {"hours": h, "mwh": mwh, "t": emissions_t(mwh, i.llama_table_intensity),
                     "printed_mwh": printed[run][0], "printed_t": printed[run][1]}
    return rows


def whole_project(i) -> dict:
    """The LLaMA paper's whole project (about five months on its 2,048 GPUs, Section 6.1) against
    its 65B final run (Table 15): GPU-hours, the energy the paper gives for each, the project's
    energy by Table 15's own formula, and its hours at the final run's rental prices."""
    from .recompute.article2 import llama_project_gpu_hours

    hours = llama_project_gpu_hours(i)
    prices = price_intervals(i)["llama"]
    return {
        "gpu_hours": hours,
        "hours_ratio": hours / i.llama_65b_gpu_hours,
        "mwh_ratio": i.llama_project_mwh / i.llama_table_mwh,
        "formula_mwh": energy_mwh(hours, i.llama_table_gpu_power, i.llama_table_pue),
        # The months the paper's 2,638 MWh stand for, by its own formula on its 2,048 GPUs.
        "implied_months": i.llama_project_mwh * 1e6 / (i.llama_table_gpu_power * i.llama_table_pue * i.llama_gpus)
                          / k.months_to_hours(1),
        "cost_on_demand": interval_product((hours, hours), prices["on_demand"]),
        "cost_three_year": interval_product((hours, hours), prices["three_year"]),
    }


# ---------------------------------------------------------------- what the chapter glues

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
    f["project.gpu_hours"] = Figure.of(project["gpu_hours"], "GPU-hour", compact=True, decimals=1)
    f["project.hours_ratio"] = Figure.of(project["hours_ratio"], "", decimals=1)
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
    f["price.p4d_seen"] = Figure.on(i["aws_p4d_a100_2021_3yr"].seen)
    f["price.p4d_year"] = Figure.of(year_of(i, "aws_p4d_a100_2021_3yr"), "calendar-year")
    f["price.today_seen"] = Figure.on(i["lambda_h100_sxm_8x"].seen)
    return f


def published_figures(i, data=None) -> dict[str, Figure]:
    """The published figures the chapter's prose quotes (pub.<key>.*), the counts of its table,
    Epoch AI's rules as its code sets them (epoch.*) and each step of the decomposition (ladder.*)."""
    from . import decomposition, epoch, published

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
    from . import published
    from .words import words

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
            marks.append({"run": w["runs"][r.run], "who": name, "value": float(stated.low),
                          "label": dataclasses.replace(stated, decimals=1).format(lang)})
    return intervals, marks


def glue_chapter(lang: str, i: Inputs | None = None) -> dict[str, Figure]:
    """Glue the chapter's figures (costs.<name>), the words its sentences take from the numbers,
    the table of published figures and Epoch AI's steps."""
    from IPython.display import Markdown

    from . import page, published
    from .words import words

    i = load() if i is None else i
    figures = chapter_figures(i)
    page.glue_figures("costs", figures, lang)
    rows = published.table_rows(i)
    page.glue("costs.table", Markdown(published.table_markdown(rows, lang)), display=False)
    for method in published.EPOCH_STEPS:
        page.glue(f"costs.epoch_steps.{method}", Markdown(published.epoch_steps_markdown(method, lang)), display=False)
    from .claims import verdict_label

    for verdict in ("holds", "context", "wrong", "unverified"):
        page.glue(f"costs.pub.label.{verdict}", verdict_label(verdict, lang), display=False)
    for r in rows:
        page.glue(f"costs.pub.{r.key}.verdict", r.checked.verdict_label(lang), display=False)
        if r.who not in ("article1", "article2"):  # the articles' claims have their cards in their chapters
            page.glue(f"costs.pub.{r.key}.context", r.checked.context(lang), display=False)
    rows_flops = flops_rows(i)
    w = words(lang)["costs"]
    page.glue("costs.palm.vs_mfu", w["compare"][compare(rows_flops["palm"]["utilisation"], i.palm_mfu)], display=False)
    opt = opt_flops_accounting(i)
    within = abs(opt["recompute_residual"]) <= POLICY["measurement"]
    page.glue("costs.opt.logbook_status", w["logbook_status"]["reproduced" if within else "not"], display=False)
    page.glue("costs.opt.assumption", w["assumption"][compare(opt["assumed_hours"], opt["table_hours"])], display=False)
    from . import epoch

    cloud = epoch.estimate("opt", "cloud").steps  # Epoch AI's price row: before its lookup date, or after
    side = "before" if cloud["price_row"][1] <= cloud["price_lookup_date"].date() else "after"
    page.glue("costs.epoch.opt_row_side", w["row_side"][side], display=False)
    return figures


def published_csv(lang: str, i: Inputs | None = None) -> str:
    """The published figures and their recomputations as CSV (costs.csv beside ledger.csv)."""
    from . import published

    return published.table_csv(published.table_rows(load() if i is None else i), lang)
