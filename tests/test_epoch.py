"""lib.epoch reproduces Epoch AI's model_costs.csv; its inputs move its figures; bad inputs are refused."""

import dataclasses
import datetime as dt
from types import MappingProxyType

import pytest

from lib import epoch

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
TOLERANCE = 1e-3  # 0.1 %


def pinned(run: str, method: str) -> float:
    return PINNED[run][epoch.METHODS.index(method)]


@pytest.mark.parametrize("run,method", CASES)
def test_reproduces_model_costs(run, method):
    usd = epoch.estimate(run, method).usd
    assert epoch.published(run, method) == pinned(run, method)
    assert usd == pytest.approx(pinned(run, method), rel=TOLERANCE)


def test_every_run_and_method_is_pinned():
    assert set(PINNED) == set(epoch.RUNS) and len(epoch.METHODS) == 3


def test_dollars_are_of_december_2024():
    e = epoch.estimate("opt", "cloud")
    assert e.dollars_of == epoch.DOLLARS_OF == "2024-12"
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
