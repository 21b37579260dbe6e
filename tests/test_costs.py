"""The costs chapter (lib/chapters/costs.py): its arithmetic, the published figures it reproduces, the
LLaMA paper's Table 15 pinned, and every one of its inputs moving a figure the chapter glues."""

import datetime as dt
import tomllib

import pytest

from lib.site import costs_page
from lib.site import charts
from lib.chapters import costs, published

I = costs.load()


# ---------------------------------------------------------------- arithmetic

def test_implied_utilisation():
    assert costs.implied_utilisation(3600e12, 1, 1e12) == 1.0
    assert costs.implied_utilisation(4.30e23, 809472, 312e12) == pytest.approx(0.4729, abs=1e-4)


def test_residual():
    assert costs.residual(110, 100) == pytest.approx(0.1)
    assert costs.residual(90, 100) == pytest.approx(-0.1)


def test_interval_product_is_lows_times_lows_and_highs_times_highs():
    assert costs.interval_product((2, 3), (10, 20)) == (20, 60)
    assert costs.interval_product((5, 5)) == (5, 5)


def test_energy_and_emissions():
    assert costs.energy_mwh(1000, 400, 1.1) == pytest.approx(0.44)
    assert costs.emissions_t(10, 0.385) == pytest.approx(3.85)
    assert costs.hours_on(100, 312e12, 989.5e12) == pytest.approx(100 * 312 / 989.5)


@pytest.mark.parametrize("call, message", [
    (lambda: costs.implied_utilisation(1, 0, 1), "device_hours must be positive"),
    (lambda: costs.residual(1, 0), "reported must be positive"),
    (lambda: costs.interval(3, 2), "interval low"),
    (lambda: costs.interval_product(), "at least one interval"),
    (lambda: costs.interval_product((1, float("nan"))), "finite"),
    (lambda: costs.energy_mwh("many", 400, 1.1), "device_hours must be a number"),
    (lambda: costs.emissions_t(1, -0.3), "t_per_mwh"),
    (lambda: costs.hours_on(1, 1, 0), "new_peak"),
])
def test_bad_input_is_a_clear_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_cpi_factor_from_the_shipped_data():
    assert costs.cpi_last_year() == 2025  # cpi==2.1.0's data; a new pin must say its year on the page
    assert costs.cpi_factor(2022, 2022) == 1.0
    assert costs.cpi_factor(2022, 2025) == pytest.approx(1.1001, abs=1e-4)


@pytest.mark.parametrize("years, message", [((2022, 2099), "outside the CPI data"), ((1900, 2022), "outside"),
                                            ((2022.5, 2025), "whole year"), ((True, 2025), "whole year")])
def test_cpi_factor_refuses_years_it_has_no_data_for(years, message):
    with pytest.raises(ValueError, match=message):
        costs.cpi_factor(*years)


def test_compare():
    assert [costs.compare(1, 2), costs.compare(2, 2), costs.compare(3, 2)] == ["below", "equal", "above"]
    with pytest.raises(ValueError):
        costs.compare(-1, 2)


def test_chart_refuses_nothing_to_draw_and_draws_both_languages():
    with pytest.raises(ValueError):
        charts.cost_methods([], [], "en")
    for lang in ("es", "en"):
        spec = charts.cost_methods(*costs_page.chart_rows(I, lang), lang).to_dict()
        assert spec["usermeta"] == {"lang": lang}


# ---------------------------------------------------------------- LLaMA's Table 15, pinned

# Table 15 of Touvron et al. (2023): (GPU-hours, MWh, tCO2eq) as printed.
TABLE_15 = {"opt": (809472, 356, 137), "bloom": (1082880, 475, 183), "llama": (1022362, 449, 173)}


@pytest.mark.parametrize("run", sorted(TABLE_15))
def test_table_15_energy_and_emissions(run):
    hours, mwh, t = TABLE_15[run]
    row = costs.energy_rows(I)[run]
    assert row["hours"] == hours
    assert (row["printed_mwh"], row["printed_t"]) == (mwh, t)
    # The formula reproduces the printed figures to the table's rounding (BLOOM's energy to 0.5%).
    assert row["mwh"] == pytest.approx(mwh, rel=0.005)
    assert row["t"] == pytest.approx(t, abs=0.5)


def test_a_wrong_pue_fails_table_15():
    row = costs.energy_rows(I.replace("llama_table_pue", value=1.2))["opt"]
    assert row["mwh"] != pytest.approx(356, rel=0.005)


# ---------------------------------------------------------------- every input moves a glued figure

def snapshot(inputs) -> dict:
    return {name: f.raw() for name, f in costs_page.chapter_figures(inputs).items()}


BEFORE = snapshot(I)


def changed_by_five_percent():
    own = tomllib.loads(costs.COSTS_FILE.read_text(encoding="utf8"))
    for name, entry in ((n, I[n]) for n in own):
        if entry.unit == "date":
            yield name, I.replace(name, value=entry.value - dt.timedelta(days=7))
        elif not entry.is_range and entry.value.is_integer():
            yield name, I.replace(name, value=float(max(round(entry.value * 1.05), entry.value + 1)))
        else:
            yield name, I.scaled(name, 1.05)


@pytest.mark.parametrize("name, inputs", list(changed_by_five_percent()), ids=lambda x: x if isinstance(x, str) else "")
def test_every_input_of_the_chapter_moves_a_glued_figure(name, inputs):
    after = snapshot(inputs)
    assert any(BEFORE[k] != after.get(k) for k in BEFORE), f"changing {name} moves no figure the chapter glues"


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_built_chapter_links_its_csv_and_draws_its_chart(built_site, lang):
    import csv

    html = (built_site / lang / "published.html").read_text(encoding="utf8")
    drawn = ('class="vega-chart"', 'class="chart-picture"')  # live, or a picture (lib.site.charts.picture)
    assert 'href="costs.csv"' in html and any(mark in html for mark in drawn)
    assert any(mark in (built_site / lang / "costs.html").read_text(encoding="utf8") for mark in drawn)
    with open(built_site / lang / "costs.csv", encoding="utf8") as fh:
        assert [row["key"] for row in csv.DictReader(fh)] == [r.key for r in published.table_rows(I)]


def test_each_team_s_own_emissions_beside_the_table():
    """Luccioni et al. (2022): BLOOM's measured energy at its grid's intensity reproduces their
    figure for dynamic consumption (within 1%); OPT's own 75 t implies a cleaner grid than the
    LLaMA table's US average."""
    own = costs.own_emissions(I)
    assert own["bloom_at_own_grid_t"] == pytest.approx(own["bloom_own_dynamic_t"], rel=0.01)
    assert own["opt_implied_intensity"] < I.llama_table_intensity
    assert own["bloom_own_dynamic_t"] < own["bloom_own_total_t"]


def test_opt_logbook_flops_are_megatron_s_count_with_recomputation_and_its_hours_are_llamas_assumption():
    """The logbook's 4.30e23 is Megatron-LM's equation (3) for OPT's shape over 300B tokens (hardware
    FLOPs, the extra forward pass of activation recomputation included), not 6ND; its 33 days are
    those FLOPs at 147 TFLOP/s on 1,024 GPUs; the 809,472 GPU-hours are the LLaMA paper's 992 GPUs x 34 days."""
    opt = costs.opt_flops_accounting(I)
    assert opt["recompute"] == pytest.approx(4.30e23, rel=0.001)
    assert opt["six_nd"] < opt["recompute"]
    assert opt["logbook_days"] == pytest.approx(I.opt_ideal_days, abs=0.5)
    assert opt["assumed_hours"] == opt["table_hours"] == 809_472
    assert opt["reported_on_table_hours"] == pytest.approx(opt["throughput_share"], rel=0.005)  # the circle
    assert costs.flops_rows(I)["opt"]["utilisation"] == pytest.approx(opt["mfu_on_table_hours"])


@pytest.mark.parametrize("factor, key", [(1.0, "reproduced"), (0.5, "not")])
def test_the_logbook_count_is_worded_by_the_numbers(monkeypatch, factor, key):
    """Whether Megatron-LM's count gives the logbook's FLOPs is said only while it does: with another
    logbook figure, the glued words change."""
    from lib.site import page
    from lib.core.words import words

    glued = {}
    monkeypatch.setattr(page, "glue", lambda name, value, display=True: glued.__setitem__(name, value))
    monkeypatch.setattr(page, "glue_figures", lambda *args, **kwargs: None)
    inputs = I if factor == 1.0 else I.replace("opt_total_flops", value=I.opt_total_flops * factor)
    for lang in ("es", "en"):
        costs_page.glue_chapter(lang, inputs)
        assert glued["costs.opt.logbook_status"] == words(lang)["costs"]["logbook_status"][key]
