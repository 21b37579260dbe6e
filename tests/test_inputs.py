"""Every sourced input has provenance; a malformed one stops the load, naming the input."""

import datetime as dt
import re

import pytest

from lib.core.inputs import DATED_UNITS, UNITS, InputError, bib_keys, load_inputs, once_per_inputs


def test_every_input_has_provenance():
    keys = bib_keys()
    for name, entry in load_inputs().items():
        assert entry.source in keys, name
        assert entry.locator.strip() and entry.quote.strip(), name
        # The Spanish locator says the same place: the same numbers in the same order.
        assert re.findall(r"\d+", entry.locator_es) == re.findall(r"\d+", entry.locator), name
        assert entry.unit in UNITS, name
        if entry.unit in DATED_UNITS:
            assert isinstance(entry.seen, (dt.date, int)), name


GOOD = """
[price]
value = 2.5
unit = "USD/GPU-hour"
source = "zhang2022opt"
locator = "Table 1"
locator_es = "tabla 1"
quote = "a quote"
seen = 2026-01-05
"""


def write(tmp_path, text):
    (tmp_path / "inputs.toml").write_text(text, encoding="utf8")
    return tmp_path


def test_a_good_file_loads(tmp_path):
    assert load_inputs(write(tmp_path, GOOD)).price == 2.5


@pytest.mark.parametrize(
    "change, message",
    [
        (('source = "zhang2022opt"\n', ""), "input 'price' has no source"),
        (('locator_es = "tabla 1"\n', ""), "input 'price' has no locator_es"),
        (('value = 2.5', 'value = 2.5\nsecondary = "yes"'), "secondary"),
        (('value = 2.5', 'value = 2.5\nbound = "about"'), "bound = 'about'"),
        (('source = "zhang2022opt"', 'source = "nobody2099"'), "cites source 'nobody2099', which is in no .bib file"),
        (('unit = "USD/GPU-hour"', 'unit = "USD per hour"'), "input 'price' has unknown unit 'USD per hour'"),
        (("seen = 2026-01-05\n", ""), "input 'price' is a price and needs 'seen'"),
        (("seen = 2026-01-05", 'seen = "January"'), "give a date, or a year when no day was recorded"),
        (("value = 2.5", "value = -2.5"), "input 'price' has a value that is not a finite, non-negative number"),
        (("value = 2.5", "value = nan"), "not a finite, non-negative number"),
        (("value = 2.5", "low = 3\nhigh = 2"), "input 'price' has low > high"),
        (('quote = "a quote"', 'quote = "a quote"\ncolour = "red"'), "unknown fields: colour"),
    ],
)
def test_a_bad_input_stops_the_load_with_its_name(tmp_path, change, message):
    old, new = change
    with pytest.raises(InputError) as error:
        load_inputs(write(tmp_path, GOOD.replace(old, new)))
    assert message in str(error.value)


def test_an_input_defined_twice_is_refused(tmp_path):
    write(tmp_path, GOOD)
    (tmp_path / "more.toml").write_text(GOOD, encoding="utf8")
    with pytest.raises(ValueError) as error:
        load_inputs(tmp_path)
    assert str(error.value).startswith("'price' is defined twice, in ")
    assert "inputs.toml and in " in str(error.value) and "more.toml" in str(error.value)


def test_unknown_input_name_is_a_clear_error():
    with pytest.raises(KeyError, match="no sourced input named 'opt_gpu'"):
        load_inputs().opt_gpu


def test_a_figure_computed_once_per_inputs_still_tells_a_recording_view_what_it_read():
    """once_per_inputs: computed once for one set of inputs (a second call, or a recording view of the
    same inputs, gets the same result without computing it again); a recording view learns every input
    the computation read, whether it computed it or not; changed inputs compute it again."""
    runs = []

    @once_per_inputs
    def total(i, extra):
        runs.append(extra)
        return i.opt_gpus + extra

    i = load_inputs()
    assert total(i, 1) == total(i, 1) == i["opt_gpus"].value + 1 and runs == [1]
    read: set[str] = set()
    assert total(i.recording(read), 1) == i["opt_gpus"].value + 1 and read == {"opt_gpus"} and runs == [1]
    assert total(i, 2) == i["opt_gpus"].value + 2 and runs == [1, 2]
    assert total(i.scaled("opt_gpus", 2), 1) == 2 * i["opt_gpus"].value + 1 and runs == [1, 2, 1]
