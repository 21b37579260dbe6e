"""Epoch AI's three training-cost methods, reimplemented step by step from their pipeline.

Source: Epoch AI, training-cost-trends (book/references-costs.bib: epochai2025trainingcosttrends),
cost_analysis_standalone.py at commit 263c40a; the figures reproduced are those of model_costs.csv
at commit e13599f. The facts (prices, dates, TDPs, the producer price index, the published costs)
are verbatim subsets of Epoch's files in lib/data/epoch/ (see its README.md). The numbers Epoch's
code sets (shares, rates, offsets in days, fixed dates, discounts, overheads, power factors, PUE,
energy prices, TPU prices, the month of the dollars) are data too: lib/data/epoch/constants.toml,
one table per constant with its unit, source, locator (name, function and lines in Epoch's code)
and the verbatim line that sets it, loaded and checked at import into `CONSTANTS`. The functions
read `CONSTANTS` when they run, so a counterfactual replaces it (`CONSTANTS.replace(name, value)`).
What stays in code is logic, names and word lists (see "Names and rules" below). The code is ours.

The three methods, each in the dollars of the month `CONSTANTS.dollars_of` (December 2024, the
month model_costs.csv was adjusted to with FRED's PCU518210518210 producer price index):

- cloud: rented chip-hours at the closest committed-use (3-year) cloud price;
- acquisition: buying the cluster (chips, server, interconnect) at the chip's first DGX price;
- capex_energy: the hardware's value at the run's start, amortized over the run, plus energy.

`estimate(run, method)` gives Epoch's figure and the named steps that lead to it;
`published(run, method)` the figure in model_costs.csv. Every function rejects bad input with a
ValueError (lib.chapters.compute.BadInput for a bad number) that says what is wrong.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import math
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Mapping

from lib.chapters.compute import _number
from lib.core.figure import Figure
from lib.core.inputs import bib_keys

DATA_DIR = Path(__file__).parents[1] / "data" / "epoch"

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

# --- Names and rules that stay in code (words, not numbers) --------------------------------------
# Epoch's numbers are data: lib/data/epoch/constants.toml, loaded and checked below (CONSTANTS).
# What stays here is names and matching rules: the price columns (the price file's headers, in the
# order Epoch tries them), the cloud vendors and their order, the words that map an organization
# to its cloud or mark it a hyperscaler, the families that group chip names. Changing one changes
# which rule applies, not a quantity; and for these five runs no change of the vendor order or of
# the default vendor moves a figure.
TARGET_PRICE_COLUMN = "Price per chip-hour (3-year CUD)"
PRICE_COLUMNS = (  # the order Epoch tries them in (find_price)
    "Price per chip-hour (3-year CUD)",
    "Price per chip-hour (1-year CUD)",
    "Price per chip-hour (on-demand)",
)
PURCHASE_COLUMN = "Price (hardware purchase)"
PRIORITY_VENDORS = ("Amazon Web Services", "Microsoft Azure", "Google Cloud")  # PRIORITY_VENDORS
DEFAULT_VENDOR = "Amazon Web Services"  # select_vendor's default
TPU_VENDOR = "Google Cloud"  # TPUs are rented from Google Cloud only (find_price)
ORGANIZATION_VENDOR = (  # a word in the organization's name -> its cloud (estimate_cloud_costs)
    ("google", "Google Cloud"),
    ("deepmind", "Google Cloud"),
    ("microsoft", "Microsoft Azure"),
    ("openai", "Microsoft Azure"),
)
# A variant with no price of its own is priced as its family (SIMPLIFIED_HARDWARE_NAMES).
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
# The first of these in a GPU's name picks every purchase price row whose model contains it
# (GPU_HARWARE_ALIASES).
GPU_FAMILIES = ("A100", "V100", "H100", "P100", "K80", "K40", "Titan X", "GTX 580", "GTX TITAN",
                "Titan Black")
HYPERSCALERS = ("google", "deepmind", "microsoft", "amazon", "meta", "facebook")  # PUE 1.1
OTHER = "other"  # the key of a by-name table's value for any name that matches no other key


# --- Epoch's constants: lib/data/epoch/constants.toml ----------------------------------------------
CONSTANTS_FILE = DATA_DIR / "constants.toml"
SOURCE_KEY = "epochai2025trainingcosttrends"
TEXT_FIELDS = ("unit", "source", "locator", "locator_es", "quote")


class ConstantError(ValueError):
    """An entry of constants.toml is missing or malformed."""


@dataclass(frozen=True)
class Constant:
    """One of Epoch's numbers, with where in Epoch's code it is set."""
    name: str
    value: object
    unit: str
    source: str
    locator: str
    locator_es: str
    quote: str

    def where(self, lang: str) -> str:
        return self.locator_es if lang == "es" else self.locator


def _positive(raw: object, where: str) -> float:
    if isinstance(raw, bool) or not isinstance(raw, (int, float)) or not math.isfinite(raw) or raw <= 0:
        raise ConstantError(f"{where}: {raw!r} is not a finite positive number")
    return float(raw)


def _share(raw: object, where: str) -> float:
    """A share in [0, 1)."""
    if isinstance(raw, bool) or not isinstance(raw, (int, float)) or not 0 <= raw < 1:
        raise ConstantError(f"{where}: {raw!r} is not a share in [0, 1)")
    return float(raw)


def _fraction(raw: object, where: str) -> float:
    """A fraction in (0, 1)."""
    value = _share(raw, where)
    if value == 0:
        raise ConstantError(f"{where}: {raw!r} is not a fraction in (0, 1)")
    return value


def _days(raw: object, where: str) -> dt.timedelta:
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0:
        raise ConstantError(f"{where}: {raw!r} is not a whole number of days")
    return dt.timedelta(days=raw)


def _day(raw: object, where: str) -> dt.datetime:
    if not isinstance(raw, dt.date) or isinstance(raw, dt.datetime):
        raise ConstantError(f"{where}: {raw!r} is not a date (TOML YYYY-MM-DD)")
    return dt.datetime(raw.year, raw.month, raw.day)


def _month(raw: object, where: str) -> str:
    day = _day(raw, where)
    if day.day != 1:
        raise ConstantError(f"{where}: {raw!r} is not the first day of a month")
    return day.strftime("%Y-%m")


def _table(raw: object, where: str) -> Mapping[str, object]:
    if not isinstance(raw, Mapping) or not raw:
        raise ConstantError(f"{where}: {raw!r} is not a table")
    return raw


def _by_name(raw: object, where: str) -> Mapping[str, float]:
    return MappingProxyType({k: _positive(v, f"{where}[{k!r}]") for k, v in _table(raw, where).items()})


def _by_name_or_other(raw: object, where: str) -> Mapping[str, float]:
    table = _by_name(raw, where)
    if OTHER not in table:
        raise ConstantError(f"{where}: no {OTHER!r} entry (the value for any other chip)")
    return table


def _by_year(raw: object, where: str) -> Mapping[int, float]:
    table = {}
    for k, v in _table(raw, where).items():
        if not (k.isdigit() and 1990 <= int(k) <= 2100):
            raise ConstantError(f"{where}: key {k!r} is not a year")
        table[int(k)] = _positive(v, f"{where}[{k}]")
    return MappingProxyType(table)


def _discounts(raw: object, where: str) -> Mapping[str, Mapping[str, float]]:
    table = {}
    for vendor, by_type in _table(raw, where).items():
        at = f"{where}[{vendor!r}]"
        if set(_table(by_type, at)) != set(PRICE_COLUMNS):
            raise ConstantError(f"{at}: needs exactly the price types {list(PRICE_COLUMNS)}")
        table[vendor] = MappingProxyType({c: _share(by_type[c], f"{at}[{c!r}]") for c in PRICE_COLUMNS})
    return MappingProxyType(table)


SERVER_FIELDS = ("server_kw", "chips", "chip_kw")


def _servers(raw: object, where: str) -> Mapping[str, tuple[Mapping[str, float], ...]]:
    table = {}
    for family, servers in _table(raw, where).items():
        at = f"{where}[{family!r}]"
        if not isinstance(servers, list) or not servers:
            raise ConstantError(f"{at}: {servers!r} is not a list of servers")
        for i, server in enumerate(servers):
            if not isinstance(server, Mapping) or set(server) != set(SERVER_FIELDS):
                raise ConstantError(f"{at}[{i}]: a server needs exactly {list(SERVER_FIELDS)}")
        table[family] = tuple(MappingProxyType({f: _positive(s[f], f"{at}[{i}].{f}") for f in SERVER_FIELDS})
                              for i, s in enumerate(servers))
    return MappingProxyType(table)


# Every constant constants.toml must hold: its unit and how its value is read.
SCHEMA = MappingProxyType({
    "dollars_of": ("month", _month),
    "days_per_year": ("day/year", _positive),
    "hours_per_year": ("hour/year", _positive),
    "publication_after_training": ("day", _days),
    "cloud_price_before_training": ("day", _days),
    "first_purchase_after_release": ("day", _days),
    "gemini_ultra_training_start": ("date", _day),
    "gpt4_training_end": ("date", _day),
    "gpt35_training_start": ("date", _day),
    "gpt3_training_start": ("date", _day),
    "committed_use_discount": ("ratio", _discounts),
    "interconnect_share": ("ratio", _fraction),
    "tpu_equivalent_price": ("USD/chip", _by_name),
    "server_overhead": ("ratio", _by_name_or_other),
    "price_performance_ooms_per_year": ("OOM/year", _positive),
    "tpu_v4_fallback_tdp": ("W", _positive),
    "tpu_to_server_power": ("ratio", _by_name_or_other),
    "gpu_server_power": ("server kW, chips per server, chip kW", _servers),
    "gpu_to_server_power_other": ("ratio", _positive),
    "server_tdp_fraction_tpu": ("ratio", _fraction),
    "server_tdp_fraction_gpu": ("ratio", _fraction),
    "pue_hyperscaler": ("ratio", _positive),
    "pue_other": ("ratio", _positive),
    "energy_price": ("USD/kWh", _by_year),
})


class Constants(Mapping):
    """Epoch's constants by name: `CONSTANTS["pue_other"]` is the entry, `CONSTANTS.pue_other` its value."""

    def __init__(self, entries: Mapping[str, Constant]):
        self._entries = MappingProxyType(dict(entries))

    def __getitem__(self, name: str) -> Constant:
        return self._entries[name]

    def __iter__(self):
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __getattr__(self, name: str) -> object:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._entries[name].value
        except KeyError:
            raise AttributeError(f"no constant {name!r} in constants.toml") from None

    def replace(self, name: str, value: object) -> "Constants":
        """The same constants but `name`'s value (unchecked: for counterfactuals)."""
        return Constants({**self._entries, name: dataclasses.replace(self._entries[name], value=value)})


def _constant(name: str, raw: object, keys: frozenset[str]) -> Constant:
    at = f"constants.toml: constant '{name}'"
    if not isinstance(raw, Mapping):
        raise ConstantError(f"{at} is not a table")
    unit, read = SCHEMA[name]
    fields = set(TEXT_FIELDS) | {"value"}
    if set(raw) - fields:
        raise ConstantError(f"{at} has unknown field(s) {sorted(set(raw) - fields)}")
    missing = [f for f in ("value", *TEXT_FIELDS)
               if f not in raw or (f != "value" and not (isinstance(raw[f], str) and raw[f].strip()))]
    if missing:
        raise ConstantError(f"{at} has no {', '.join(missing)}")
    if raw["unit"] != unit:
        raise ConstantError(f"{at} has unit {raw['unit']!r}, expected {unit!r}")
    if raw["source"] not in keys:
        raise ConstantError(f"{at} cites source {raw['source']!r}, which is in no .bib file of book/")
    if raw["source"] != SOURCE_KEY:
        raise ConstantError(f"{at} cites {raw['source']!r}: Epoch's constants cite {SOURCE_KEY!r}")
    return Constant(name=name, value=read(raw["value"], f"{at}, value"),
                    **{f: raw[f] for f in TEXT_FIELDS})


def load_constants(path: Path | None = None) -> Constants:
    """constants.toml (or `path`) parsed and checked (see check_constants)."""
    path = path or CONSTANTS_FILE
    with path.open("rb") as f:
        try:
            raw = tomllib.load(f)
        except tomllib.TOMLDecodeError as e:
            raise ConstantError(f"{path.name}: not valid TOML: {e}") from None
    return check_constants(raw)


def check_constants(raw: Mapping[str, object]) -> Constants:
    """The parsed tables of constants.toml, checked: every constant of SCHEMA and nothing else, each
    with its unit, a source in the book's .bib files, a locator in both languages, a quote, and a
    value of its shape. The error names the constant."""
    missing = [n for n in SCHEMA if n not in raw]
    if missing:
        raise ConstantError(f"constants.toml: no constant {', '.join(repr(n) for n in missing)}")
    unknown = [n for n in raw if n not in SCHEMA]
    if unknown:
        raise ConstantError(f"constants.toml: unknown constant {', '.join(repr(n) for n in unknown)}")
    keys = frozenset(bib_keys())
    constants = Constants({name: _constant(name, raw[name], keys) for name in SCHEMA})
    if constants.hours_per_year != 24 * constants.days_per_year:
        raise ConstantError(f"constants.toml: constant 'hours_per_year' is {constants.hours_per_year}, "
                            f"not 24 x days_per_year = {24 * constants.days_per_year} (Epoch's definition)")
    return constants


CONSTANTS = load_constants()  # read at import; the functions below read it when they run


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
    dollars_of: str  # "YYYY-MM": the month of the dollars (constant dollars_of)


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
    except the runs whose start (or, for GPT-4, end) it fixes by hand, tested in Epoch's order."""
    hours = dt.timedelta(hours=int(_number("training hours", training_hours)))
    if "Gemini 1.0 Ultra" in model:
        return CONSTANTS.gemini_ultra_training_start
    if model == "GPT-4":
        return CONSTANTS.gpt4_training_end - hours
    if "GPT-3.5" in model:
        return CONSTANTS.gpt35_training_start
    if "GPT-3" in model:
        return CONSTANTS.gpt3_training_start
    return publication - (hours + CONSTANTS.publication_after_training)


def ppi_factor(publication: dt.datetime, data: EpochData, to_month: str | None = None) -> tuple[str, float, float]:
    """(month of the publication, its PPI, factor to `to_month`, by default the constant
    dollars_of): Epoch adjusts every cost from the publication month to the target month by the
    ratio of the PCU518210518210 index."""
    to_month = to_month or CONSTANTS.dollars_of
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


def _inflate(steps: dict[str, object], nominal: float, run: Run, data: EpochData, to_month: str | None = None) -> Estimate:
    steps["cost_nominal_usd"] = nominal
    to_month = to_month or CONSTANTS.dollars_of
    month, index, factor = ppi_factor(run.publication, data, to_month)
    steps["ppi_from"] = (month, index)
    steps["ppi_to"] = (to_month, data.ppi[to_month])
    steps["ppi_factor"] = factor
    usd = nominal * factor
    steps["usd"] = usd
    return Estimate(usd=usd, steps=MappingProxyType(steps), dollars_of=to_month)


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
        return (TPU_VENDOR,)
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
    discounts = CONSTANTS.committed_use_discount
    if vendor not in discounts:
        raise ValueError(f"no committed-use discount for {vendor!r} to convert its {column!r}")
    cud = discounts[vendor]
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


def cloud_cost(run: Run, data: EpochData | None = None, *, to_month: str | None = None) -> Estimate:
    """Epoch's cloud figure, as model_costs.csv has it: the imputation step rewrites the chip-hours
    as training time × chips, over the reported ones, and the dollars are of the month `dollars_of`
    (`to_month`: another month's dollars, "YYYY-MM")."""
    data, steps = _begin(run, data)
    steps["training_hours"] = run.training_hours
    chip_hours = run.training_hours * run.chips
    steps["chip_hours"] = chip_hours
    steps["reported_chip_hours"] = run.chip_hours
    start = training_start(run.model, run.publication, run.training_hours)
    steps["training_start"] = start
    target = start - CONSTANTS.cloud_price_before_training
    steps["price_lookup_date"] = target
    vendor = cloud_vendor(run.organization)
    steps["vendor"] = vendor
    row, column, price = cloud_price(run.hardware, vendor, target, data)
    steps["price_row"] = (row.vendor, row.date.date(), row.hardware, row.price(column))
    steps["price_type"] = column
    # Epoch's 3-year committed-use discount for the vendor: already in the listed 3-year price, it
    # only converts a 1-year or on-demand one (cud_factor, 1 when the 3-year price was found).
    discounts = CONSTANTS.committed_use_discount
    steps["discount"] = discounts[row.vendor][TARGET_PRICE_COLUMN] if row.vendor in discounts else None
    steps["cud_factor"] = cud_factor(row.vendor, column)
    steps["price_per_hour"] = price
    return _inflate(steps, price * chip_hours, run, data, to_month)


# --- Acquisition -----------------------------------------------------------------------------------
def server_overhead(hardware: str) -> float:
    """Server cost per chip over the chip's own price (CPUs, memory, intra-node network)."""
    return _first_in_name(hardware, CONSTANTS.server_overhead)


def _first_in_name(hardware: str, table: Mapping[str, float]) -> float:
    """The value of the first key of `table` (in its order) that `hardware`'s name contains, else
    the value for OTHER."""
    return next((v for k, v in table.items() if k != OTHER and k in hardware), table[OTHER])


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
        prices = CONSTANTS.tpu_equivalent_price
        if hardware not in prices:
            raise ValueError(f"no TPU equivalent price for {hardware}")
        return Purchase(None, prices[hardware], server_overhead(hardware), released)
    family = next((f for f in GPU_FAMILIES if f in hardware), None)
    if family is None:
        raise ValueError(f"no GPU family for {hardware}: cannot pick a purchase price")
    rows = sorted((r for r in data.prices if family in r.hardware and r.price(PURCHASE_COLUMN) is not None),
                  key=lambda r: r.date)
    if not rows:
        raise ValueError(f"no purchase price for {hardware} (family {family})")
    row = next((r for r in rows if "DGX" in r.notes), rows[0])
    acquired = max(row.date, released + CONSTANTS.first_purchase_after_release)
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
    share = CONSTANTS.interconnect_share
    steps["interconnect"] = 1 / (1 - share)
    # servers x (1 / (1 - share)), in Epoch's order of operations (the same float as Epoch's)
    return _inflate(steps, servers * steps["interconnect"], run, data)


# --- Amortized hardware capex + energy -------------------------------------------------------------
def depreciate(price: float, start: dt.datetime, end: dt.datetime) -> tuple[float, float]:
    """(years, value): the price falls by price_performance_ooms_per_year (0.14) orders of
    magnitude a year of hardware progress, years counted in whole days / days_per_year (365.25;
    negative if `end` is before `start`)."""
    _number("price", price)
    years = (end - start).days / CONSTANTS.days_per_year
    return years, 10 ** (math.log10(price) - CONSTANTS.price_performance_ooms_per_year * years)


def chip_to_server_power(hardware: str) -> float:
    """Server power over chip TDP (CPUs, memory, network, fans)."""
    if "TPU" in hardware:
        return _first_in_name(hardware, CONSTANTS.tpu_to_server_power)
    servers = next((s for family, s in CONSTANTS.gpu_server_power.items() if family in hardware), None)
    if servers is None:
        return CONSTANTS.gpu_to_server_power_other
    # (server kW / chips per server) / chip kW, averaged over the family's servers (Epoch's order
    # of operations, so the float is the same as Epoch's).
    return sum((s["server_kw"] / s["chips"]) / s["chip_kw"] for s in servers) / len(servers)


def server_tdp_fraction(hardware: str) -> float:
    """Average power over server TDP during training."""
    return CONSTANTS.server_tdp_fraction_tpu if "TPU" in hardware else CONSTANTS.server_tdp_fraction_gpu


def power_usage_effectiveness(organization: str) -> float:
    hyperscaler = any(h in organization.lower() for h in HYPERSCALERS)
    return CONSTANTS.pue_hyperscaler if hyperscaler else CONSTANTS.pue_other


def energy_price(year: int) -> float:
    prices = CONSTANTS.energy_price
    if year not in prices:
        raise ValueError(f"no energy price for {year}: Epoch's table has {min(prices)}-{max(prices)}")
    return prices[year]


def chip_tdp_w(hardware: str, data: EpochData) -> float:
    tdp = chip(hardware, data).tdp_w
    if tdp is None:
        if "TPU v4" in hardware:
            return CONSTANTS.tpu_v4_fallback_tdp
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
    replacement = CONSTANTS.price_performance_ooms_per_year * math.log(10)  # optimal replacement rate, per year
    steps["replacement_per_year"] = replacement
    hours_per_year = CONSTANTS.hours_per_year
    steps["hours_per_year"] = hours_per_year
    per_hour = value * replacement / hours_per_year
    steps["price_per_hour"] = per_hour
    # Reported chip-hours first; training time x chips only where none is reported.
    chip_hours = run.chip_hours if run.chip_hours is not None else run.training_hours * run.chips
    steps["chip_hours"] = chip_hours
    hardware = per_hour * chip_hours
    steps["hardware_usd"] = hardware
    share = CONSTANTS.interconnect_share
    interconnect = hardware * share / (1 - share)
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
    """Epoch's figure for `run` by `method`, with its steps, in the dollars of the month
    `dollars_of` (constants.toml)."""
    data = data or load()
    model, _ = _model(run), _column(method)
    return METHOD_FUNCTIONS[method](data.models[model], data)


# How the book writes a dollar figure of Epoch AI's, on every page (cards, tables, sums, answers): to
# the tenth of a million, kept where it is zero ("$32.0 million"), so that a figure reads alike wherever
# it is stated.
STYLE = MappingProxyType({"decimals": 1, "fixed": True})


def figure(usd: float) -> Figure:
    """A dollar figure of Epoch AI's (one of its methods, published or redone) as the book writes it."""
    return Figure.of(usd, "USD", **STYLE)


def published(run: str, method: str, data: EpochData | None = None) -> float:
    """The figure in Epoch's model_costs.csv (commit e13599f), in the dollars of the month
    `dollars_of` (constants.toml)."""
    data = data or load()
    value = data.published[_model(run)][_column(method)]
    if value is None:
        raise ValueError(f"model_costs.csv has no {method} cost for {_model(run)}")
    return value


load()  # parse and check the shipped data at import
