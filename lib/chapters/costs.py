"""Why published training costs disagree: how each run's FLOPs and hours are counted, the hours
priced at each rental tier, energy, the final run against the whole project; and the figures the
chapter glues from lib.chapters.published (each published figure by its publisher's method) and
lib.chapters.decomposition (one run's figures, factor by factor).

Small pure functions (ValueError on bad input) and, at the end, the figures the chapter
book/<lang>/costs.ipynb glues. Inputs: the articles' (lib/data/inputs/*.toml) reused by name,
plus the chapter's own (lib/data/inputs/costs.toml).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from lib.chapters import compute
from lib.chapters.runs import llama_project_gpu_hours, opt_wall_clock_gpu_hours, palm_chip_hours
from lib.chapters.compute import _number
from lib.core.figure import Figure
from lib.core.inputs import DATA_DIR, Inputs, load_inputs

COSTS_FILE = DATA_DIR / "costs.toml"
RUNS = ("opt", "llama", "palm", "gpt3")
METHODS = ("on_demand", "one_year", "three_year", "today")


def load() -> Inputs:
    """Every sourced input of the book: the articles' and the chapter's (costs.toml), by name."""
    return load_inputs()


# ---------------------------------------------------------------- arithmetic

def implied_utilisation(flops: float, device_hours: float, peak_flops_per_second: float) -> float:
    """The share of peak that `flops` done in `device_hours` implies (may exceed 1 if the hours are too few)."""
    return _number("flops", flops) / (_number("device_hours", device_hours) * compute.SECONDS_PER_HOUR
                                      * _number("peak_flops_per_second", peak_flops_per_second))


residual = compute.residual


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
    """The chip-hours PaLM's paper reports (lib.chapters.runs.palm_chip_hours, the one sum)."""
    return palm_chip_hours(i)["reported"]


class RunFlops(NamedTuple):
    """What a run's FLOPs and utilisation are computed from: its parameters and tokens, the FLOPs its
    authors report (and whether they count the model's FLOPs, as PaLM's and GPT-3's papers do), the
    hours it is known by (in `unit`), and its chip's dense bf16 peak."""
    params: float
    tokens: float
    reported: float | None
    reported_is_model: bool
    hours: float | None
    unit: str
    peak: float | None


def flops_inputs(i) -> dict[str, RunFlops]:
    """Each run's operands for flops_rows (the chapter's code cell prints the same sums from them)."""
    return {
        "opt": RunFlops(i.opt_params, i.opt_tokens, i.opt_total_flops, False, i.opt_llama_table_gpu_hours, "GPU-hour",
                        i.a100_bf16_peak),
        "llama": RunFlops(i.llama_65b_params, i.llama_tokens, None, False, i.llama_65b_gpu_hours, "GPU-hour",
                          i.a100_bf16_peak),
        "palm": RunFlops(i.palm_params, i.palm_tokens, i.palm_flops, True, palm_reported_hours(i), "chip-hour",
                         i.tpu_v4_peak),
        "gpt3": RunFlops(i.gpt3_params, i.gpt3_tokens, i.gpt3_flops, True, None, "GPU-hour", None),
        # MosaicML published neither FLOPs nor hours; its size and tokens are known from summaries.
        "mosaic": RunFlops(i.mosaic_params, i.mosaic_tokens, None, False, None, "GPU-hour", None),
    }


def flops_rows(i) -> dict[str, dict]:
    """Per run: 6ND, the FLOPs the authors report (LLaMA reports none), the hours the run is
    known by, and the model FLOPs utilisation those hours imply on the chip's dense bf16 peak:
    model FLOPs (6ND, or the report where it counts the model's FLOPs, as PaLM's and GPT-3's do)
    over hours. OPT's logbook counts the hardware's FLOPs (opt_flops_accounting), so OPT's
    utilisation is from 6ND; its hours are the LLaMA paper's assumption, not OPT's authors'."""
    rows = {}
    for run, r in flops_inputs(i).items():
        six_nd = compute.training_flops(r.params, r.tokens, i.flops_per_param_token)
        model_flops = r.reported if r.reported_is_model else six_nd
        rows[run] = {
            "six_nd": six_nd, "reported": r.reported, "hours": r.hours,
            "ratio": None if r.reported is None else r.reported / six_nd,
            "utilisation": None if r.hours is None else implied_utilisation(model_flops, r.hours, r.peak),
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
    six_nd = compute.training_flops(i.opt_params, i.opt_tokens, i.flops_per_param_token)
    recompute = compute.recompute_flops_per_token(i.opt_layers, i.opt_d_model, i.opt_seq_len, i.gpt2_vocab) * i.opt_tokens
    logbook_days = i.opt_total_flops / (i.opt_ideal_gpus * _number("opt_tflops_per_gpu", i.opt_tflops_per_gpu)) \
        / compute.SECONDS_PER_HOUR / compute.HOURS_PER_DAY
    assumed = compute.gpu_hours(i.llama_opt_assumed_gpus, compute.days_to_hours(i.llama_opt_assumed_days))
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
    # Two counts of the same hours, the fewer first whichever it is (an updated count may pass the other).
    counts = {
        "opt": (i.opt_llama_table_gpu_hours, opt_wall_clock_gpu_hours(i)),
        "llama": (i.llama_65b_gpu_hours, compute.gpu_hours(i.llama_gpus, compute.days_to_hours(i.llama_paper_days))),
        "palm": (palm_chip_hours(i)["needed_mfu"], palm_reported_hours(i)),
    }
    return {run: interval(*sorted(both)) for run, both in counts.items()}


def year_of(i, name: str) -> int:
    """The year an input's price was seen (a date or a year)."""
    seen = i[name].seen
    return seen if isinstance(seen, int) else seen.year


def price_intervals(i, dollars_of: int | None = None) -> dict[str, dict[str, tuple[float, float]]]:
    """Price per device-hour, by run and method, as intervals over the sourced providers; with
    `dollars_of`, each price taken by the CPI from the year it was seen to dollars of that year."""
    def price(name: str) -> float:
        return i[name].value * (1.0 if dollars_of is None else cpi_factor(year_of(i, name), dollars_of))

    def cheaper_first(*names: str) -> tuple[float, float]:  # whichever provider is cheaper after an update
        prices = [price(name) for name in names]
        return interval(min(prices), max(prices))

    a100 = {
        "on_demand": cheaper_first("azure_a100_2022_on_demand", "aws_a100_2022_on_demand"),
        "one_year": cheaper_first("azure_a100_2022_1yr", "aws_a100_2022_1yr"),
        "three_year": cheaper_first("aws_p4d_a100_2021_3yr", "azure_a100_2022_3yr", "aws_a100_2022_3yr"),
    }
    tpu = {method: interval(price(name), price(name)) for method, name in
           (("on_demand", "tpu_v4_price_on_demand"), ("one_year", "tpu_v4_price_1yr"), ("three_year", "tpu_v4_price_3yr"))}
    return {"opt": a100, "llama": a100, "palm": tpu}


def cost_intervals(i, dollars_of: int | None = None) -> dict[str, dict[str, tuple[float, float]]]:
    """Each run's rental cost by each price tier as an interval: hours interval × price interval.
    Today: the same work on H100 SXM at the run's own utilisation, at Lambda's 8- and 1-GPU prices.
    With `dollars_of`, every price but today's in dollars of that year (price_intervals). Owning
    the hardware is priced by Epoch AI's own methods (lib.chapters.epoch), not here."""
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
    from lib.core.words import words

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
    energy by Table 15's own formula, and its hours at the final run's rental prices.

    The paper gives the project's hours twice: as about five months on its GPUs (`gpu_hours`, the
    central figure) and as its energy, whose hours Table 15's formula gives back (`energy_gpu_hours`);
    the costs span both, from the fewer hours at the cheaper price to the more at the dearer."""

    hours = llama_project_gpu_hours(i)
    # The GPU-hours the paper's 2,638 MWh stand for, by its own formula (hours × power × PUE).
    energy_hours = i.llama_project_mwh * 1e6 / (i.llama_table_gpu_power * i.llama_table_pue)
    span = (min(hours, energy_hours), max(hours, energy_hours))
    prices = price_intervals(i)["llama"]
    return {
        "gpu_hours": hours,
        "energy_gpu_hours": energy_hours,
        "hours_ratio": hours / i.llama_65b_gpu_hours,
        "mwh_ratio": i.llama_project_mwh / i.llama_table_mwh,
        "formula_mwh": energy_mwh(hours, i.llama_table_gpu_power, i.llama_table_pue),
        # The months those hours are on its 2,048 GPUs.
        "implied_months": energy_hours / i.llama_gpus / compute.months_to_hours(1),
        # the headline, where every past run's stands in its range: the fewer hours at the cheaper price
        "cost_central": span[0] * prices["on_demand"][0],
        "cost_on_demand": interval_product(span, prices["on_demand"]),
        "cost_three_year": interval_product(span, prices["three_year"]),
    }


def project_hours(project: dict) -> dict:
    """The project's two counts of GPU-hours as figures, at one precision (6.0 and 7.5 million, not
    6 beside 7.5): the costs page and the project's answer paste the same."""
    return {name: Figure.of(project[name], "GPU-hour", compact=True, decimals=1, fixed=True)
            for name in ("gpu_hours", "energy_gpu_hours")}
