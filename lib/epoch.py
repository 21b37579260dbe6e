"""Epoch AI's three training-cost methods, reimplemented step by step from their pipeline.

Source: Epoch AI, training-cost-trends (book/references-costs.bib: epochai2025trainingcosttrends),
cost_analysis_standalone.py at commit 263c40a; the figures reproduced are those of model_costs.csv
at commit e13599f. The facts (prices, dates, TDPs, the producer price index, the published costs)
are verbatim subsets of Epoch's files in lib/data/epoch/ (see its README.md); the constants below
are the numbers Epoch's code uses. The code is ours.

The three methods, each in the dollars of `DOLLARS_OF` (December 2024, the month model_costs.csv
was adjusted to with FRED's PCU518210518210 producer price index):

- cloud: rented chip-hours at the closest committed-use (3-year) cloud price;
- acquisition: buying the cluster (chips, server, interconnect) at the chip's first DGX price;
- capex_energy: the hardware's value at the run's start, amortized over the run, plus energy.

`estimate(run, method)` gives Epoch's figure and the named steps that lead to it;
`published(run, method)` the figure in model_costs.csv. Every function rejects bad input with a
ValueError (lib.compute.BadInput for a bad number) that says what is wrong.
"""

from __future__ import annotations

import csv
import datetime as dt
import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Mapping

from lib.compute import _number

DATA_DIR = Path(__file__).parent / "data" / "epoch"

RUNS = ("opt", "llama", "palm", "gpt3", "gpt4")
METHODS = ("cloud", "acquisition", "capex_energy")
MODEL_OF_RUN = MappingProxyType({
    "opt": "OPT-175B",
    "llama": "LLaMA-65B",
    "palm": "PaLM (540B)",
    "gpt3": "GPT-3 175B (davinci)",
    "gpt4": "GPT-4",
})
PUBLISHED_COLUMN = MappingProxyType({
    "cloud": "Cloud_Cost",
    "acquisition": "Hardware_Acquisition_Cost",
    "capex_energy": "Hardware_Capex_Energy_Cost",
})

# --- Epoch's constants (cost_analysis_standalone.py, 263c40a) ------------------------------------
DOLLARS_OF = "2024-12"  # the month model_costs.csv's dollars are of (PPI target month)
DAYS_PER_YEAR = 365.25
HOURS_PER_YEAR = 24 * DAYS_PER_YEAR  # 8,766
INTERCONNECT_SHARE = 0.19  # cluster-level interconnect, as a share of the whole cluster's cost
PRICE_PERFORMANCE_OOMS_PER_YEAR = 0.14  # ML GPU price-performance: orders of magnitude a year
PUBLICATION_AFTER_TRAINING = dt.timedelta(days=60)  # training end -> publication
CLOUD_PRICE_BEFORE_TRAINING = dt.timedelta(days=60)  # the date a cloud price is looked up for
FIRST_PURCHASE_AFTER_RELEASE = dt.timedelta(days=90)  # earliest a GPU is assumed bought

# Training starts Epoch fixes by hand, in its order: (name test, start or end of training).
GPT4_TRAINING_END = dt.datetime(2022, 8, 15)
FIXED_STARTS = (
    ("Gemini 1.0 Ultra", dt.datetime(2023, 5, 10)),
    ("GPT-3.5", dt.datetime(2022, 3, 14)),
    ("GPT-3", dt.datetime(2019, 10, 1)),
)

TARGET_PRICE_COLUMN = "Price per chip-hour (3-year CUD)"
PRICE_COLUMNS = (  # the order Epoch tries them in
    "Price per chip-hour (3-year CUD)",
    "Price per chip-hour (1-year CUD)",
    "Price per chip-hour (on-demand)",
)
PURCHASE_COLUMN = "Price (hardware purchase)"
# Committed-use discounts (Epoch's DEFAULT_CUD, from its cud_estimate.ipynb), used only to convert
# a price of another type to the 3-year one: price * (1 - CUD[3-year]) / (1 - CUD[found type]).
COMMITTED_USE_DISCOUNT = MappingProxyType({
    "Amazon Web Services": (0.64, 0.41, 0.0),
    "Google Cloud": (0.56, 0.37, 0.0),
    "Microsoft Azure": (0.49, 0.25, 0.0),
    "Lambda Labs": (0.56, 0.34, 0.0),
})
PRIORITY_VENDORS = ("Amazon Web Services", "Microsoft Azure", "Google Cloud")
DEFAULT_VENDOR = "Amazon Web Services"
ORGANIZATION_VENDOR = (  # a word in the organization's name -> its cloud
    ("google", "Google Cloud"),
    ("deepmind", "Google Cloud"),
    ("microsoft", "Microsoft Azure"),
    ("openai", "Microsoft Azure"),
)
# A variant with no price of its own is priced as its family (Epoch's soft matching).
PRICE_FAMILY = MappingProxyType({
    "NVIDIA Tesla V100 DGXS 16 GB": "NVIDIA V100",
    "NVIDIA Tesla V100 DGXS 32 GB": "NVIDIA V100",
    "NVIDIA Tesla V100S PCIe 32 GB": "NVIDIA V100",
    "NVIDIA V100": "NVIDIA V100",
    "NVIDIA A100 PCIe": "NVIDIA A100",
    "NVIDIA A100 SXM4 40 GB": "NVIDIA A100",
    "NVIDIA A100 SXM4 80 GB": "NVIDIA A100",
    "NVIDIA A100": "NVIDIA A100",
    "NVIDIA H100 PCIe": "NVIDIA H100",
    "NVIDIA H100 SXM5": "NVIDIA H100",
    "NVIDIA H100": "NVIDIA H100",
})
# The first of these in a GPU's name picks every purchase price row whose model contains it.
GPU_FAMILIES = ("A100", "V100", "H100", "P100", "K80", "K40", "Titan X", "GTX 580", "GTX TITAN",
                "Titan Black")
TPU_EQUIVALENT_PRICE = MappingProxyType({  # USD per chip, Epoch's estimates
    "Google TPU v1": 5463.0,
    "Google TPU v2": 5054.0,
    "Google TPU v3": 5276.0,
    "Google TPU v4": 5167.0,
})
TPU_V4_FALLBACK_TDP_W = 373.0  # only where the chip dataset has no TDP
HYPERSCALERS = ("google", "deepmind", "microsoft", "amazon", "meta", "facebook")
# US industrial electricity price, USD per kWh, by year.
ENERGY_PRICE = MappingProxyType({
    2010: 0.0677, 2011: 0.0682, 2012: 0.0667, 2013: 0.0689, 2014: 0.0710, 2015: 0.0691,
    2016: 0.0676, 2017: 0.0688, 2018: 0.0692, 2019: 0.0681, 2020: 0.0667, 2021: 0.0718,
    2022: 0.0832, 2023: 0.0806, 2024: 0.0771, 2025: 0.0826,
})


# --- Data ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Run:
    """A training run as Epoch's model database records it."""
    model: str
    publication: dt.datetime
    organization: str
    hardware: str
    chips: float
    training_hours: float
    chip_hours: float | None  # as reported ("Training chip-hours"); None when blank
    base_model: str = ""


@dataclass(frozen=True)
class Chip:
    name: str
    release: dt.datetime
    tdp_w: float | None


@dataclass(frozen=True)
class PriceRow:
    """One row of Epoch's hardware price database; a price is None where the cell is blank."""
    source: str
    date: dt.datetime
    hardware: str
    vendor: str
    prices: Mapping[str, float | None]
    notes: str

    def price(self, column: str) -> float | None:
        return self.prices[column]


@dataclass(frozen=True)
class EpochData:
    models: Mapping[str, Run]
    chips: Mapping[str, Chip]
    prices: tuple[PriceRow, ...]
    ppi: Mapping[str, float]  # "YYYY-MM" -> index value
    published: Mapping[str, Mapping[str, float | None]]  # model -> column -> USD


@dataclass(frozen=True)
class Estimate:
    usd: float
    steps: Mapping[str, object] = field(compare=False)
    dollars_of: str = DOLLARS_OF


def _read(name: str, required: tuple[str, ...]) -> list[dict[str, str]]:
    path = DATA_DIR / name
    with path.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        missing = [c for c in required if c not in (reader.fieldnames or ())]
        if missing:
            raise ValueError(f"{path.name}: missing column(s) {missing}")
        return list(reader)


def _float(text: str, where: str, *, blank_ok: bool = False) -> float | None:
    if text.strip() == "":
        if blank_ok:
            return None
        raise ValueError(f"{where}: a number is required, the cell is blank")
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"{where}: {text!r} is not a number") from None


def _date(text: str, where: str) -> dt.datetime:
    try:
        return dt.datetime.strptime(text, "%Y-%m-%d")
    except ValueError:
        raise ValueError(f"{where}: {text!r} is not a date YYYY-MM-DD") from None


def _models() -> dict[str, Run]:
    cols = ("Model", "Publication date", "Organization", "Training hardware", "Hardware quantity",
            "Training time (hours)", "Training chip-hours", "Base model")
    runs = {}
    for i, r in enumerate(_read("models.csv", cols), start=2):
        at = f"models.csv line {i}"
        runs[r["Model"]] = Run(
            model=r["Model"], publication=_date(r["Publication date"], at),
            organization=r["Organization"], hardware=r["Training hardware"],
            chips=_float(r["Hardware quantity"], at), training_hours=_float(r["Training time (hours)"], at),
            chip_hours=_float(r["Training chip-hours"], at, blank_ok=True), base_model=r["Base model"])
    return runs


def _chips() -> dict[str, Chip]:
    chips = {}
    for i, r in enumerate(_read("chips.csv", ("Hardware name", "Release date", "TDP (W)")), start=2):
        at = f"chips.csv line {i}"
        chips[r["Hardware name"]] = Chip(r["Hardware name"], _date(r["Release date"], at),
                                         _float(r["TDP (W)"], at, blank_ok=True))
    return chips


def _prices() -> tuple[PriceRow, ...]:
    cols = ("Price source", "Price date", "Hardware model", "Vendor", *PRICE_COLUMNS, PURCHASE_COLUMN, "Notes")
    rows = []
    for i, r in enumerate(_read("hardware_prices.csv", cols), start=2):
        at = f"hardware_prices.csv line {i}"
        if not r["Price date"]:
            continue  # Epoch drops rows without a price date
        prices = {c: _float(r[c], f"{at}, {c}", blank_ok=True) for c in (*PRICE_COLUMNS, PURCHASE_COLUMN)}
        rows.append(PriceRow(r["Price source"], _date(r["Price date"], at), r["Hardware model"],
                             r["Vendor"], MappingProxyType(prices), r["Notes"]))
    return tuple(rows)


def _ppi() -> dict[str, float]:
    series = {}
    for i, r in enumerate(_read("PCU518210518210.csv", ("observation_date", "PCU518210518210")), start=2):
        at = f"PCU518210518210.csv line {i}"
        series[_date(r["observation_date"], at).strftime("%Y-%m")] = _float(r["PCU518210518210"], at)
    return series


def _published() -> dict[str, dict[str, float | None]]:
    cols = ("Model", *PUBLISHED_COLUMN.values())
    return {r["Model"]: {c: _float(r[c], f"model_costs.csv, {r['Model']}, {c}", blank_ok=True)
                         for c in PUBLISHED_COLUMN.values()}
            for r in _read("model_costs.csv", cols)}


@lru_cache(maxsize=1)
def load() -> EpochData:
    """The shipped subsets of Epoch's files, parsed and checked (cached)."""
    data = EpochData(models=MappingProxyType(_models()), chips=MappingProxyType(_chips()),
                     prices=_prices(), ppi=MappingProxyType(_ppi()), published=MappingProxyType(_published()))
    for model in MODEL_OF_RUN.values():
        if model not in data.models or model not in data.published:
            raise ValueError(f"lib/data/epoch: no row for {model!r} in models.csv or model_costs.csv")
        if data.models[model].hardware not in data.chips:
            raise ValueError(f"lib/data/epoch/chips.csv: no row for {data.models[model].hardware!r}")
    return data


# --- Steps shared by the methods -------------------------------------------------------------------
def chip(name: str, data: EpochData) -> Chip:
    try:
        return data.chips[name]
    except KeyError:
        raise ValueError(f"unknown chip {name!r}: not in Epoch's chip dataset subset") from None


def check_run(run: Run, data: EpochData) -> Run:
    """A run Epoch's methods can cost: positive quantities, a known chip released before publication."""
    _number("chips", run.chips)
    _number("training hours", run.training_hours)
    if run.chip_hours is not None:
        _number("chip-hours", run.chip_hours)
    if run.base_model:
        raise ValueError(f"{run.model} is a fine-tune of {run.base_model}: Epoch does not cost fine-tunes")
    released = chip(run.hardware, data).release
    if run.publication < released:
        raise ValueError(f"{run.model}: published {run.publication:%Y-%m-%d}, before its chip "
                         f"{run.hardware} was released ({released:%Y-%m-%d})")
    return run


def training_start(model: str, publication: dt.datetime, training_hours: float) -> dt.datetime:
    """Epoch's training start: publication less the training time (whole hours) and 60 days,
    except the runs whose start (or, for GPT-4, end) it fixes by hand."""
    hours = dt.timedelta(hours=int(_number("training hours", training_hours)))
    if "Gemini 1.0 Ultra" in model:
        return FIXED_STARTS[0][1]
    if model == "GPT-4":
        return GPT4_TRAINING_END - hours
    for name, start in FIXED_STARTS[1:]:
        if name in model:
            return start
    return publication - (hours + PUBLICATION_AFTER_TRAINING)


def ppi_factor(publication: dt.datetime, data: EpochData, to_month: str = DOLLARS_OF) -> tuple[str, float, float]:
    """(month of the publication, its PPI, factor to `to_month`): Epoch adjusts every cost from the
    publication month to the target month by the ratio of the PCU518210518210 index."""
    month = publication.strftime("%Y-%m")
    for m in (month, to_month):
        if m not in data.ppi:
            raise ValueError(f"no PCU518210518210 observation for {m}: the shipped series has "
                             f"{min(data.ppi)} to {max(data.ppi)} ({len(data.ppi)} months)")
    return month, data.ppi[month], data.ppi[to_month] / data.ppi[month]


def _begin(run: Run, data: EpochData | None) -> tuple[EpochData, dict[str, object]]:
    """The data (the shipped one by default), the run checked, and the first steps."""
    data = data or load()
    check_run(run, data)
    return data, {"model": run.model, "hardware": run.hardware, "chips": run.chips}


def _inflate(steps: dict[str, object], nominal: float, run: Run, data: EpochData) -> Estimate:
    steps["cost_nominal_usd"] = nominal
    month, index, factor = ppi_factor(run.publication, data)
    steps["ppi_from"] = (month, index)
    steps["ppi_to"] = (DOLLARS_OF, data.ppi[DOLLARS_OF])
    steps["ppi_factor"] = factor
    usd = nominal * factor
    steps["usd"] = usd
    return Estimate(usd=usd, steps=MappingProxyType(steps))


# --- Cloud -----------------------------------------------------------------------------------------
def cloud_vendor(organization: str) -> str:
    """The cloud Epoch assumes: the last of the run's organizations that names one, else AWS."""
    vendor = None
    for org in organization.split(","):
        for word, cloud in ORGANIZATION_VENDOR:
            if word in org.lower():
                vendor = cloud
                break
    return vendor or DEFAULT_VENDOR


def vendors_to_try(hardware: str, vendor: str, data: EpochData) -> tuple[str, ...]:
    """TPUs: Google Cloud only. GPUs: the run's vendor, then AWS, Azure, Google Cloud, then the others
    in the order they first appear in the price rows."""
    if "TPU" in hardware:
        return ("Google Cloud",)
    others = list(PRIORITY_VENDORS)
    for row in data.prices:
        if row.vendor and row.vendor not in others:
            others.append(row.vendor)
    return (vendor, *(v for v in others if v != vendor))


def _vendor_rows(hardware: str, vendor: str, data: EpochData) -> list[PriceRow]:
    """The vendor's rows for the chip; if none, for its family's name; if none, for the first
    variant of the family that has rows."""
    def rows(name: str) -> list[PriceRow]:
        return [r for r in data.prices if r.vendor == vendor and r.hardware == name]

    found = rows(hardware)
    family = PRICE_FAMILY.get(hardware)
    if found or family is None:
        return found
    found = rows(family)
    if found:
        return found
    for variant in PRICE_FAMILY:
        if all(term in variant for term in family.split()):
            found = rows(variant)
            if found:
                return found
    return []


def closest_row(rows: list[PriceRow], target: dt.datetime) -> PriceRow | None:
    """Epoch's choice among a vendor's rows: the closest in date on or before `target`, else the
    closest after it (ties: the first in file order)."""
    by_distance = sorted(rows, key=lambda r: abs(r.date - target))
    before = [r for r in by_distance if r.date <= target]
    after = [r for r in by_distance if r.date > target]
    return (before or after or [None])[0]


def cud_factor(vendor: str, column: str) -> float:
    """Converts a price of `column`'s type to the 3-year committed-use one."""
    if column == TARGET_PRICE_COLUMN:
        return 1.0
    if vendor not in COMMITTED_USE_DISCOUNT:
        raise ValueError(f"no committed-use discount for {vendor!r} to convert its {column!r}")
    cud = dict(zip(PRICE_COLUMNS, COMMITTED_USE_DISCOUNT[vendor]))
    return (1 - cud[TARGET_PRICE_COLUMN]) / (1 - cud[column])


def cloud_price(hardware: str, vendor: str, target: dt.datetime, data: EpochData) -> tuple[PriceRow, str, float]:
    """(row, price type, USD per chip-hour at the 3-year rate). For each price type (3-year first),
    each vendor in turn: the closest row; a blank price there means no price from that vendor."""
    chip(hardware, data)
    for column in PRICE_COLUMNS:
        for v in vendors_to_try(hardware, vendor, data):
            row = closest_row(_vendor_rows(hardware, v, data), target)
            if row is not None and row.price(column) is not None:
                return row, column, row.price(column) * cud_factor(v, column)
    raise ValueError(f"no cloud price for {hardware} near {target:%Y-%m-%d}")


def cloud_cost(run: Run, data: EpochData | None = None) -> Estimate:
    data, steps = _begin(run, data)
    steps["training_hours"] = run.training_hours
    # Epoch's imputation step rewrites chip-hours as training time x chips, over the reported ones.
    chip_hours = run.training_hours * run.chips
    steps["chip_hours"] = chip_hours
    steps["reported_chip_hours"] = run.chip_hours
    start = training_start(run.model, run.publication, run.training_hours)
    steps["training_start"] = start
    target = start - CLOUD_PRICE_BEFORE_TRAINING
    steps["price_lookup_date"] = target
    vendor = cloud_vendor(run.organization)
    steps["vendor"] = vendor
    row, column, price = cloud_price(run.hardware, vendor, target, data)
    steps["price_row"] = (row.vendor, row.date.date(), row.hardware, row.price(column))
    steps["price_type"] = column
    # Epoch's 3-year committed-use discount for the vendor: already in the listed 3-year price, it
    # only converts a 1-year or on-demand one (cud_factor, 1 when the 3-year price was found).
    steps["discount"] = COMMITTED_USE_DISCOUNT[row.vendor][0] if row.vendor in COMMITTED_USE_DISCOUNT else None
    steps["cud_factor"] = cud_factor(row.vendor, column)
    steps["price_per_hour"] = price
    return _inflate(steps, price * chip_hours, run, data)


# --- Acquisition -----------------------------------------------------------------------------------
def server_overhead(hardware: str) -> float:
    """Server cost per chip over the chip's own price (CPUs, memory, intra-node network)."""
    for family, factor in (("A100", 1.66), ("V100", 1.69), ("P100", 1.54)):
        if family in hardware:
            return factor
    return 1.64


@dataclass(frozen=True)
class Purchase:
    row: PriceRow | None  # None for a TPU (Epoch's equivalent price)
    chip_price: float  # USD, as listed (TPU: Epoch's estimate)
    overhead: float  # 1 where the listed price is already a server's share
    acquired: dt.datetime

    @property
    def price(self) -> float:
        return self.chip_price * self.overhead


def purchase(hardware: str, data: EpochData) -> Purchase:
    """Epoch's purchase price per chip and its date.
    TPU: the equivalent price x server overhead, acquired at release.
    GPU: of the purchase rows whose model contains the chip's family (A100, V100...), by date, the
    first whose notes say DGX (else the first); acquired at that date but no earlier than release +
    90 days; x server overhead only where the notes say single-unit."""
    released = chip(hardware, data).release
    if "TPU" in hardware:
        if hardware not in TPU_EQUIVALENT_PRICE:
            raise ValueError(f"no TPU equivalent price for {hardware}")
        return Purchase(None, TPU_EQUIVALENT_PRICE[hardware], server_overhead(hardware), released)
    family = next((f for f in GPU_FAMILIES if f in hardware), None)
    if family is None:
        raise ValueError(f"no GPU family for {hardware}: cannot pick a purchase price")
    rows = sorted((r for r in data.prices if family in r.hardware and r.price(PURCHASE_COLUMN) is not None),
                  key=lambda r: r.date)
    if not rows:
        raise ValueError(f"no purchase price for {hardware} (family {family})")
    row = next((r for r in rows if "DGX" in r.notes), rows[0])
    acquired = max(row.date, released + FIRST_PURCHASE_AFTER_RELEASE)
    overhead = server_overhead(hardware) if "single-unit" in row.notes.lower() else 1.0
    return Purchase(row, row.price(PURCHASE_COLUMN), overhead, acquired)


def _bought(steps: dict[str, object], hardware: str, data: EpochData) -> Purchase:
    bought = purchase(hardware, data)
    if bought.row is None:
        steps["price_row"] = ("TPU equivalent price", None, None, bought.chip_price)
    else:
        steps["price_row"] = (bought.row.vendor, bought.row.date.date(), bought.row.hardware, bought.chip_price)
        steps["price_notes"] = bought.row.notes
    steps["server_overhead"] = bought.overhead
    steps["price_per_chip"] = bought.price
    steps["acquisition_date"] = bought.acquired
    return bought


def acquisition_cost(run: Run, data: EpochData | None = None) -> Estimate:
    data, steps = _begin(run, data)
    bought = _bought(steps, run.hardware, data)
    servers = bought.price * run.chips
    steps["servers_usd"] = servers
    steps["interconnect"] = 1 / (1 - INTERCONNECT_SHARE)
    return _inflate(steps, servers / (1 - INTERCONNECT_SHARE), run, data)


# --- Amortized hardware capex + energy -------------------------------------------------------------
def depreciate(price: float, start: dt.datetime, end: dt.datetime) -> tuple[float, float]:
    """(years, value): the price falls by 0.14 orders of magnitude a year of hardware progress,
    years counted in whole days / 365.25 (negative if `end` is before `start`)."""
    _number("price", price)
    years = (end - start).days / DAYS_PER_YEAR
    return years, 10 ** (math.log10(price) - PRICE_PERFORMANCE_OOMS_PER_YEAR * years)


def chip_to_server_power(hardware: str) -> float:
    """Server power over chip TDP (CPUs, memory, network, fans)."""
    if "TPU" in hardware:
        for version, factor in (("v1", 2.93), ("v2", 1.64), ("v3", 1.47)):
            if version in hardware:
                return factor
        return 1.56
    if "H100" in hardware:
        return (10.2 / 8) / 0.7
    if "A100" in hardware:
        return (6.5 / 8) / 0.4
    if "V100" in hardware:
        return ((10 / 16) / 0.3 + (1.5 / 4) / 0.3) / 2
    return 1.8


def server_tdp_fraction(hardware: str) -> float:
    """Average power over server TDP during training."""
    return 0.43 if "TPU" in hardware else 0.75


def power_usage_effectiveness(organization: str) -> float:
    return 1.1 if any(h in organization.lower() for h in HYPERSCALERS) else 1.25


def energy_price(year: int) -> float:
    if year not in ENERGY_PRICE:
        raise ValueError(f"no energy price for {year}: Epoch's table has {min(ENERGY_PRICE)}-{max(ENERGY_PRICE)}")
    return ENERGY_PRICE[year]


def chip_tdp_w(hardware: str, data: EpochData) -> float:
    tdp = chip(hardware, data).tdp_w
    if tdp is None:
        if "TPU v4" in hardware:
            return TPU_V4_FALLBACK_TDP_W
        raise ValueError(f"no TDP for {hardware} in the chip dataset")
    return _number(f"TDP of {hardware}", tdp)


def capex_energy_cost(run: Run, data: EpochData | None = None) -> Estimate:
    data, steps = _begin(run, data)
    bought = _bought(steps, run.hardware, data)
    start = training_start(run.model, run.publication, run.training_hours)
    if "TPU" not in run.hardware:
        start = max(start, bought.acquired)  # a GPU run starts no earlier than the purchase
    steps["training_start"] = start
    years, value = depreciate(bought.price, bought.acquired, start)
    steps["years_since_acquisition"] = years
    steps["depreciation"] = value / bought.price
    steps["value_at_start"] = value
    replacement = PRICE_PERFORMANCE_OOMS_PER_YEAR * math.log(10)  # optimal replacement rate, per year
    steps["replacement_per_year"] = replacement
    steps["hours_per_year"] = HOURS_PER_YEAR
    per_hour = value * replacement / HOURS_PER_YEAR
    steps["price_per_hour"] = per_hour
    # Reported chip-hours first; training time x chips only where none is reported.
    chip_hours = run.chip_hours if run.chip_hours is not None else run.training_hours * run.chips
    steps["chip_hours"] = chip_hours
    hardware = per_hour * chip_hours
    steps["hardware_usd"] = hardware
    interconnect = hardware * INTERCONNECT_SHARE / (1 - INTERCONNECT_SHARE)
    steps["interconnect_usd"] = interconnect
    tdp_kw = chip_tdp_w(run.hardware, data) / 1000
    steps["chip_tdp_kw"] = tdp_kw
    steps["chip_to_server_power"] = chip_to_server_power(run.hardware)
    steps["server_tdp_fraction"] = server_tdp_fraction(run.hardware)
    steps["pue"] = power_usage_effectiveness(run.organization)
    kw = tdp_kw * steps["chip_to_server_power"] * steps["server_tdp_fraction"] * steps["pue"]
    steps["kwh"] = kw * chip_hours
    steps["energy_year"] = run.publication.year
    steps["energy_price_per_kwh"] = energy_price(run.publication.year)
    energy = steps["kwh"] * steps["energy_price_per_kwh"]
    steps["energy_usd"] = energy
    return _inflate(steps, hardware + interconnect + energy, run, data)


# --- Public API ------------------------------------------------------------------------------------
METHOD_FUNCTIONS = MappingProxyType({
    "cloud": cloud_cost,
    "acquisition": acquisition_cost,
    "capex_energy": capex_energy_cost,
})


def _model(run: str) -> str:
    if run not in MODEL_OF_RUN:
        raise ValueError(f"unknown run {run!r}: one of {RUNS}")
    return MODEL_OF_RUN[run]


def _column(method: str) -> str:
    if method not in PUBLISHED_COLUMN:
        raise ValueError(f"unknown method {method!r}: one of {METHODS}")
    return PUBLISHED_COLUMN[method]


def estimate(run: str, method: str, data: EpochData | None = None) -> Estimate:
    """Epoch's figure for `run` by `method`, with its steps, in the dollars of DOLLARS_OF."""
    data = data or load()
    model, _ = _model(run), _column(method)
    return METHOD_FUNCTIONS[method](data.models[model], data)


def published(run: str, method: str, data: EpochData | None = None) -> float:
    """The figure in Epoch's model_costs.csv (commit e13599f), in the dollars of DOLLARS_OF."""
    data = data or load()
    value = data.published[_model(run)][_column(method)]
    if value is None:
        raise ValueError(f"model_costs.csv has no {method} cost for {_model(run)}")
    return value


load()  # parse and check the shipped data at import
