"""lib.chapters.epoch reproduces Epoch AI's model_costs.csv; its inputs move its figures; bad inputs are refused."""

import copy
import dataclasses
import datetime as dt
import tomllib
from collections.abc import Mapping
from types import MappingProxyType

import pytest

from lib.chapters import epoch

# model_costs.csv at Epoch's commit e13599f8f21960b504fd6a45f14c7945b8129ccd, typed from the file:
# (Cloud_Cost, Hardware_Acquisition_Cost, Hardware_Capex_Energy_Cost), December 2024 USD.
PINNED = {
    "opt": (1489702.370287431, 32030088.831235822, 733634.6369766009),
    "llama": (1507792.9294046576, 63867772.02033351, 578026.3043031124),
    "palm": (13947799.456518434, 65515455.855884165, 2864192.456611229),
    "gpt3": (4336473.295238095, 242000906.32961005, 2198104.5650957455),
    "gpt4": (78562016.88093337, 778066898.6709992, 40695706.40406813),
}
CASES = [(run, method) for run in epoch.RUNS for method in epoch.METHODS]


def pinned(run: str, method: str) -> float:
    return PINNED[run][epoch.METHODS.index(method)]


@pytest.mark.parametrize("run,method", CASES)
def test_reproduces_model_costs(run, method):
    """To the last bit: the constants of constants.toml, in Epoch's order of operations."""
    assert epoch.published(run, method) == pinned(run, method)
    assert epoch.estimate(run, method).usd == pinned(run, method)


def test_every_run_and_method_is_pinned():
    assert set(PINNED) == set(epoch.RUNS) and len(epoch.METHODS) == 3


def test_dollars_are_of_december_2024():
    e = epoch.estimate("opt", "cloud")
    assert e.dollars_of == epoch.CONSTANTS.dollars_of == "2024-12"
    assert e.steps["ppi_from"] == ("2022-05", 117.176)
    assert e.steps["ppi_to"] == ("2024-12", 119.349)


def test_palm_cloud_uses_time_times_chips_not_reported_chip_hours():
    cloud, capex = epoch.estimate("palm", "cloud").steps, epoch.estimate("palm", "capex_energy").steps
    assert cloud["chip_hours"] == 1536 * 6144 == 9_437_184
    assert cloud["reported_chip_hours"] == capex["chip_hours"] == 8_404_992


def test_steps_follow_the_method():
    steps = epoch.estimate("gpt3", "cloud").steps
    assert list(steps)[:8] == ["model", "hardware", "chips", "training_hours", "chip_hours",
                               "reported_chip_hours", "training_start", "price_lookup_date"]
    assert steps["training_start"] == dt.datetime(2019, 10, 1)  # Epoch's fixed date for GPT-3
    # The DGXS 32 GB has no Azure row: its family's (NVIDIA V100) latest on or before the lookup date.
    assert steps["price_row"] == ("Microsoft Azure", dt.date(2018, 12, 30), "NVIDIA V100", 1.16)
    assert steps["vendor"] == "Microsoft Azure" and steps["cud_factor"] == 1.0
    capex = epoch.estimate("gpt3", "capex_energy").steps
    assert capex["hours_per_year"] == 8766
    assert capex["chip_to_server_power"] == pytest.approx(5 / 3)
    assert capex["pue"] == 1.25 and capex["energy_price_per_kwh"] == 0.0667
    assert capex["acquisition_date"] == dt.datetime(2018, 6, 25)  # release 2018-03-27 + 90 days
    opt = epoch.estimate("opt", "cloud").steps
    # AWS's closest row has no 3-year price, so Epoch moves to Azure (not to AWS's next row).
    assert opt["vendor"] == "Amazon Web Services" and opt["price_row"][0] == "Microsoft Azure"


def test_sum_of_capex_parts():
    s = epoch.estimate("llama", "capex_energy").steps
    total = s["hardware_usd"] + s["interconnect_usd"] + s["energy_usd"]
    assert total == pytest.approx(s["cost_nominal_usd"])
    assert s["usd"] == pytest.approx(total * s["ppi_factor"])


# --- Counterfactuals: change one shipped input, the figure moves ------------------------------------
def with_prices(data, pick, **changes):
    rows = tuple(dataclasses.replace(r, prices=MappingProxyType({**r.prices, **changes})) if pick(r) else r
                 for r in data.prices)
    return dataclasses.replace(data, prices=rows)


def test_a_cloud_price_row_moves_the_cloud_figure():
    data = epoch.load()
    chosen = epoch.estimate("opt", "cloud").steps["price_row"]
    moved = with_prices(data, lambda r: (r.vendor, r.date.date(), r.hardware) == chosen[:3],
                        **{epoch.TARGET_PRICE_COLUMN: 2.0})
    assert epoch.estimate("opt", "cloud", moved).usd == pytest.approx(pinned("opt", "cloud") * 2.0 / 1.8)


def test_a_3_year_price_on_the_closest_aws_row_keeps_opt_on_aws():
    data = epoch.load()
    aws = with_prices(data, lambda r: r.vendor == "Amazon Web Services" and r.hardware == "NVIDIA A100 SXM4 80 GB"
                      and r.date == dt.datetime(2022, 8, 4),
                      **{epoch.TARGET_PRICE_COLUMN: 1.0})
    e = epoch.estimate("opt", "cloud", aws)
    assert e.steps["price_row"][:2] == ("Amazon Web Services", dt.date(2022, 8, 4))
    assert e.usd == pytest.approx(pinned("opt", "cloud") / 1.8)


def test_the_purchase_price_row_moves_acquisition_and_capex():
    data = epoch.load()
    dgx = with_prices(data, lambda r: r.hardware == "NVIDIA A100 SXM4 40 GB" and "DGX" in r.notes
                      and r.price(epoch.PURCHASE_COLUMN) == 24875.0, **{epoch.PURCHASE_COLUMN: 30000.0})
    assert epoch.estimate("gpt4", "acquisition", dgx).usd == pytest.approx(pinned("gpt4", "acquisition") * 30000 / 24875)
    assert epoch.estimate("gpt4", "capex_energy", dgx).usd > pinned("gpt4", "capex_energy") * 1.1


def test_the_chip_tdp_moves_the_energy_part():
    data = epoch.load()
    before = epoch.estimate("palm", "capex_energy").steps
    tpu = dataclasses.replace(data.chips["Google TPU v4"], tdp_w=340.0)
    hotter = dataclasses.replace(data, chips=MappingProxyType({**data.chips, "Google TPU v4": tpu}))
    after = epoch.estimate("palm", "capex_energy", hotter).steps
    assert after["energy_usd"] == pytest.approx(2 * before["energy_usd"])
    assert after["usd"] - before["usd"] == pytest.approx(before["energy_usd"] * before["ppi_factor"])


def test_the_ppi_moves_every_figure():
    data = epoch.load()
    ppi = dataclasses.replace(data, ppi=MappingProxyType({**data.ppi, "2024-12": data.ppi["2024-12"] * 1.1}))
    for run, method in (("gpt3", "cloud"), ("palm", "acquisition"), ("llama", "capex_energy")):
        assert epoch.estimate(run, method, ppi).usd == pytest.approx(pinned(run, method) * 1.1)


def test_the_chip_release_date_moves_a_gpu_acquisition_date():
    data = epoch.load()
    later = dataclasses.replace(data.chips["NVIDIA A100"], release=dt.datetime(2020, 9, 1))
    moved = dataclasses.replace(data, chips=MappingProxyType({**data.chips, "NVIDIA A100": later}))
    steps = epoch.estimate("llama", "capex_energy", moved).steps
    assert steps["acquisition_date"] == dt.datetime(2020, 11, 30)
    assert steps["usd"] > pinned("llama", "capex_energy")


# --- Epoch's constants (lib/data/epoch/constants.toml) -------------------------------------------
def leaves(value, path=()):
    """(path, leaf) of every number or date in a constant's value (tables by key, lists by index)."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield from leaves(item, (*path, key))
    elif isinstance(value, tuple):
        for i, item in enumerate(value):
            yield from leaves(item, (*path, i))
    else:
        yield path, value


def with_leaf(value, path, new):
    if not path:
        return new
    key, rest = path[0], path[1:]
    if isinstance(value, Mapping):
        return MappingProxyType({**value, key: with_leaf(value[key], rest, new)})
    return tuple(with_leaf(item, rest, new) if i == key else item for i, item in enumerate(value))


def nudged(leaf):
    """A counterfactual: a date or an offset one day later, a number 10 % larger (0 -> 0.01), the
    month of the dollars another month of the shipped price index."""
    if isinstance(leaf, (dt.datetime, dt.timedelta)):
        return leaf + dt.timedelta(days=1)
    if isinstance(leaf, str):
        return "2023-02"
    assert isinstance(leaf, float), leaf
    return leaf * 1.1 if leaf else 0.01


LEAVES = [(name, path) for name in epoch.CONSTANTS for path, _ in leaves(epoch.CONSTANTS[name].value)]

# The entries whose change moves none of the 15 figures (None: the whole constant), and why: no run
# of the five reaches them, or the figures do not depend on them. Each moves the step that reads it
# instead (PROBES). The test below fails if one of them moves a figure, or another does not.
MOVES_NO_FIGURE = {
    # Every cloud price row chosen stays the same for a lookup offset of 0 to 330 days.
    "cloud_price_before_training": None,
    "committed_use_discount": None,  # every run finds a 3-year price, which needs no conversion
    "gemini_ultra_training_start": None,  # no Gemini run
    "gpt35_training_start": None,  # no GPT-3.5 run
    "tpu_v4_fallback_tdp": None,  # the chip dataset has the TPU v4's TDP (PaLM)
    "gpu_to_server_power_other": None,  # every GPU run is on an A100 or a V100
    "gpu_server_power": {"H100"},
    "tpu_equivalent_price": {"Google TPU v1", "Google TPU v2", "Google TPU v3"},  # PaLM: TPU v4
    "tpu_to_server_power": {"v1", "v2", "v3"},
    # The GPUs' purchase prices are DGX servers' (no "single-unit" note): no overhead applies.
    "server_overhead": {"A100", "V100", "P100"},
    "energy_price": set(range(2010, 2026)) - {2020, 2022, 2023},  # the runs' publication years
}


def moves_a_figure(name, path):
    if name not in MOVES_NO_FIGURE:
        return True
    keys = MOVES_NO_FIGURE[name]
    return keys is not None and path[0] not in keys


def _tpu_data(name):
    """The shipped data with a chip `name` that has no TDP."""
    data = epoch.load()
    tpu = epoch.Chip(name, dt.datetime(2016, 5, 18), None)
    return dataclasses.replace(data, chips=MappingProxyType({**data.chips, name: tpu}))


PROBES = {  # constant -> (path -> what the step that reads it gives)
    "cloud_price_before_training": lambda path: epoch.estimate("opt", "cloud").steps["price_lookup_date"],
    "committed_use_discount": lambda path: tuple(epoch.cud_factor(path[0], c) for c in epoch.PRICE_COLUMNS),
    "gemini_ultra_training_start": lambda path: epoch.training_start("Gemini 1.0 Ultra", dt.datetime(2023, 12, 6), 24.0),
    "gpt35_training_start": lambda path: epoch.training_start("GPT-3.5 Turbo", dt.datetime(2022, 11, 28), 24.0),
    "tpu_v4_fallback_tdp": lambda path: epoch.chip_tdp_w("Google TPU v4", _tpu_data("Google TPU v4")),
    "gpu_to_server_power_other": lambda path: epoch.chip_to_server_power("NVIDIA Tesla K80"),
    "gpu_server_power": lambda path: epoch.chip_to_server_power(f"NVIDIA {path[0]} SXM5"),
    "tpu_equivalent_price": lambda path: epoch.purchase(path[0], _tpu_data(path[0])).chip_price,
    "tpu_to_server_power": lambda path: epoch.chip_to_server_power(f"Google TPU {path[0]}"),
    "server_overhead": lambda path: epoch.server_overhead(f"NVIDIA Tesla {path[0]}"),
    "energy_price": lambda path: epoch.energy_price(path[0]),
}


def figures():
    return [epoch.estimate(run, method).usd for run, method in CASES]


def leaf_id(leaf):
    name, path = leaf
    return name + "".join(f"[{p}]" for p in path)


@pytest.mark.parametrize("leaf", LEAVES, ids=leaf_id)
def test_every_constant_moves_a_figure_or_its_step(leaf, monkeypatch):
    """Each entry of constants.toml, nudged, moves one of the 15 figures; those listed in
    MOVES_NO_FIGURE move none of them, but move the step that reads them."""
    name, path = leaf
    base = epoch.CONSTANTS
    probe = PROBES.get(name)
    before = figures(), probe and probe(path)
    new = with_leaf(base[name].value, path, nudged(dict(leaves(base[name].value))[path]))
    monkeypatch.setattr(epoch, "CONSTANTS", base.replace(name, new))
    moved = [case for case, b, a in zip(CASES, before[0], figures()) if a != b]
    if moves_a_figure(name, path):
        assert moved, f"{leaf_id(leaf)} moves none of the 15 figures"
    else:
        assert not moved, f"{leaf_id(leaf)} is listed in MOVES_NO_FIGURE but moves {moved}"
        assert probe(path) != before[1]


def test_moves_no_figure_names_real_entries():
    for name, keys in MOVES_NO_FIGURE.items():
        assert name in epoch.CONSTANTS and name in PROBES
        assert keys is None or keys <= {path[0] for n, path in LEAVES if n == name}


def test_every_constant_has_its_provenance():
    assert list(epoch.CONSTANTS) == list(epoch.SCHEMA)
    for name, c in epoch.CONSTANTS.items():
        assert c.source == epoch.SOURCE_KEY == "epochai2025trainingcosttrends", name
        for text in (c.quote, c.locator, c.locator_es, c.unit):
            assert isinstance(text, str) and text.strip(), name
        assert "line" in c.locator and "línea" in c.locator_es, name  # the lines in Epoch's code
        assert c.where("es") == c.locator_es and c.where("en") == c.locator


def quoted(leaf):
    """How a value is written in Epoch's code."""
    if isinstance(leaf, dt.datetime):
        return leaf.strftime("'%Y-%m-%d'")
    if isinstance(leaf, dt.timedelta):
        return f"days={leaf.days}"
    if isinstance(leaf, str):
        return leaf
    return f"{leaf:g}"


@pytest.mark.parametrize("name", [n for n in epoch.SCHEMA if n != "hours_per_year"])
def test_every_value_is_written_in_its_quote(name):
    """The value as Epoch writes it is in the quote: a value typed apart from its quote fails.
    (hours_per_year is 24 x DAYS_PER_YEAR in the quote; the loader checks that product.)"""
    c = epoch.CONSTANTS[name]
    for path, leaf in leaves(c.value):
        assert quoted(leaf) in c.quote, f"{leaf_id((name, path))} = {leaf!r} is not in its quote {c.quote!r}"
        year = path[0] if name == "energy_price" else None
        assert year is None or f"{year}: {leaf:.4f}," in c.quote


RAW = tomllib.loads(epoch.CONSTANTS_FILE.read_text(encoding="utf-8"))


def raw_with(change):
    raw = copy.deepcopy(RAW)
    change(raw)
    return raw


@pytest.mark.parametrize("change,message", [
    (lambda r: r.pop("pue_other"), "no constant 'pue_other'"),
    (lambda r: r.update(pue_new={}), "unknown constant 'pue_new'"),
    (lambda r: r["interconnect_share"].pop("quote"), "constant 'interconnect_share' has no quote"),
    (lambda r: r["gpt3_training_start"].update(locator_es="  "), "constant 'gpt3_training_start' has no locator_es"),
    (lambda r: r["energy_price"].pop("value"), "constant 'energy_price' has no value"),
    (lambda r: r["energy_price"].update(unit="USD/MWh"), "constant 'energy_price' has unit 'USD/MWh'"),
    (lambda r: r["pue_other"].update(source="epoch2024"), "cites source 'epoch2024', which is in no .bib"),
    (lambda r: r["pue_other"].update(source="brown2020gpt3"), "cites 'brown2020gpt3': Epoch's constants cite"),
    (lambda r: r["pue_other"].update(seen=2025), r"constant 'pue_other' has unknown field\(s\) \['seen'\]"),
    (lambda r: r["interconnect_share"].update(value="0.19"), "'interconnect_share', value: '0.19' is not a share"),
    (lambda r: r["interconnect_share"].update(value=1.0), "is not a share in"),
    (lambda r: r["pue_hyperscaler"].update(value=-1.1), "'pue_hyperscaler', value: -1.1 is not a finite positive"),
    (lambda r: r["publication_after_training"].update(value=60.5), "60.5 is not a whole number of days"),
    (lambda r: r["gpt4_training_end"].update(value="2022-08-15"), "'gpt4_training_end', value: '2022-08-15' is not a date"),
    (lambda r: r["dollars_of"].update(value=dt.date(2024, 12, 15)), "is not the first day of a month"),
    (lambda r: r["energy_price"]["value"].update({"20x2": 0.08}), r"'energy_price', value: key '20x2' is not a year"),
    (lambda r: r["energy_price"]["value"].update({"2022": None}), r"energy_price', value\[2022\]: None is not"),
    (lambda r: r["server_overhead"]["value"].pop("other"), "constant 'server_overhead', value: no 'other' entry"),
    (lambda r: r["tpu_equivalent_price"]["value"].update({"Google TPU v4": 0}), r"Google TPU v4'\]: 0 is not"),
    (lambda r: r["committed_use_discount"]["value"]["Google Cloud"].pop("Price per chip-hour (on-demand)"),
     r"constant 'committed_use_discount', value\['Google Cloud'\]: needs exactly the price types"),
    (lambda r: r["gpu_server_power"]["value"]["A100"][0].pop("chips"),
     r"constant 'gpu_server_power', value\['A100'\]\[0\]: a server needs exactly"),
    (lambda r: r["hours_per_year"].update(value=8760.0), "constant 'hours_per_year' is 8760.0, not 24 x days_per_year"),
])
def test_constants_are_checked(change, message):
    with pytest.raises(epoch.ConstantError, match=message):
        epoch.check_constants(raw_with(change))


def test_shipped_constants_pass_the_check():
    assert epoch.check_constants(RAW) == epoch.CONSTANTS
    assert issubclass(epoch.ConstantError, ValueError)


# --- Bad inputs ---------------------------------------------------------------------------------------
def run_with(**changes):
    return dataclasses.replace(epoch.load().models["OPT-175B"], **changes)


@pytest.mark.parametrize("changes,message", [
    ({"chips": -1024.0}, "chips must be positive"),
    ({"chips": 0.0}, "chips must be positive"),
    ({"training_hours": 0.0}, "training hours must be positive"),
    ({"chip_hours": -5.0}, "chip-hours must be positive"),
    ({"hardware": "NVIDIA B300"}, "unknown chip 'NVIDIA B300'"),
    ({"publication": dt.datetime(2020, 6, 1)}, "before its chip NVIDIA A100 SXM4 80 GB was released"),
    ({"publication": dt.datetime(2021, 7, 1)}, "no PCU518210518210 observation for 2021-07"),
    ({"base_model": "OPT-66B"}, "fine-tune"),
])
@pytest.mark.parametrize("method", epoch.METHODS)
def test_bad_run_is_refused(changes, message, method):
    with pytest.raises(ValueError, match=message):
        epoch.METHOD_FUNCTIONS[method](run_with(**changes))


def test_unknown_run_or_method():
    with pytest.raises(ValueError, match="unknown run 'bloom'"):
        epoch.estimate("bloom", "cloud")
    with pytest.raises(ValueError, match="unknown method 'rental'"):
        epoch.published("opt", "rental")


def test_bad_step_inputs():
    with pytest.raises(ValueError, match="price must be positive"):
        epoch.depreciate(0.0, dt.datetime(2020, 1, 1), dt.datetime(2021, 1, 1))
    with pytest.raises(ValueError, match="no energy price for 2009"):
        epoch.energy_price(2009)
    with pytest.raises(ValueError, match="no PCU518210518210 observation for 2030-01"):
        epoch.ppi_factor(dt.datetime(2022, 5, 2), epoch.load(), to_month="2030-01")


def test_shipped_data_is_checked(tmp_path, monkeypatch):
    (tmp_path / "chips.csv").write_text("Hardware name,TDP (W)\nGoogle TPU v4,170.0\n")
    (tmp_path / "PCU518210518210.csv").write_text("observation_date,PCU518210518210\n2024-12-01,n/a\n")
    monkeypatch.setattr(epoch, "DATA_DIR", tmp_path)
    with pytest.raises(ValueError, match=r"chips.csv: missing column\(s\) \['Release date'\]"):
        epoch._chips()
    with pytest.raises(ValueError, match="'n/a' is not a number"):
        epoch._ppi()
