"""The published training measurements (lib/data/plan/published.toml, lib.plan.published): every row
loads and cites a source in the book's .bib files, a malformed row is refused, every row's configuration
is one the planner can express (or says what it lacks), and residuals compare a predictor with them."""

import copy
import tomllib

import pytest

from lib.core.inputs import bib_keys
from lib.plan import published
from lib.plan.memory import METHODS, Job
from lib.plan.shapes import SHIPPED


@pytest.fixture(scope="module")
def raw():
    with published.PUBLISHED_FILE.open("rb") as f:
        return tomllib.load(f)


@pytest.fixture(scope="module")
def rows():
    return published.load()


def test_every_row_loads(rows, raw):
    assert len(rows) == len(raw) > 0
    assert {r.key for r in rows} == set(raw)


def test_every_source_is_in_a_bib_file(rows):
    keys = bib_keys()
    assert all(r.source in keys for r in rows)


def test_every_row_is_for_testing_unless_marked(rows, raw):
    for r in rows:
        assert r.use == raw[r.key].get("use", "test")
    assert set(published.fit_rows(rows)) == {r for r in rows if r.use == "fit"}


def test_every_configuration_is_one_the_planner_can_express(rows):
    for r in rows:
        assert r.method in METHODS, r.key
        assert (r.model in SHIPPED) + bool(r.missing_model) + (r.config is not None) == 1, r.key
        job = r.job()
        stated = r.shipped and r.seq is not None and r.micro_batch is not None
        if r.method in ("lora", "qlora"):
            stated = stated and r.rank is not None and r.targets is not None
        assert (job is not None) == stated, r.key
        if job is not None:
            assert isinstance(job, Job) and job.method == r.method and job.seq == r.seq and job.batch == r.micro_batch
            assert job.global_batch == (r.global_batch if r.grad_accum > 1 else job.global_batch), r.key


def test_llm_c_s_gpt2_runs_are_planned_at_the_shapes_its_code_builds(rows):
    """llm.c's -e "d24", "d36", "d48" are GPT-2 medium, large and XL (its train_gpt2.cu), about 350M, 774M and
    1558M parameters as its comments name them; their micro-batches accumulated to the stated global batch."""
    from lib.plan.shapes import param_count
    by_key = {r.key: r for r in rows}
    for key, params, accum in (("llmc_350m_a100_step", 350e6, 1), ("llmc_774m_a100_step", 774e6, 2),
                               ("llmc_1558m_h100_step", 1558e6, 8)):
        job = by_key[key].job()
        assert param_count(job.shape)["total"] == pytest.approx(params, rel=0.02), key
        assert job.grad_accum == accum and job.gpus == 8 and job.sharding == "zero1", key


def bad(raw, key, **change):
    data = {key: copy.deepcopy(raw[key])}
    for field, value in change.items():
        if value is None:
            data[key].pop(field, None)
        else:
            data[key][field] = value
    return data


@pytest.mark.parametrize("key, change, message", [
    ("peft_lora32_l40s_speed", {"source": "nobody2099"}, "in no .bib file"),
    ("peft_lora32_l40s_speed", {"method": "dora"}, "method must be one of"),
    ("peft_lora32_l40s_speed", {"model": "llama-9b"}, "missing_model"),
    ("llmc_350m_a100_step", {"config_from": None}, "needs config_from"),
    ("llmc_350m_a100_step", {"missing_model": "also absent"}, "one of them"),
    ("llmc_350m_a100_step", {"config": {"model_type": "gpt2", "n_layer": 24}}, "not one the planner reads"),
    ("peft_lora32_l40s_speed", {"gpu": "tpu-v5"}, "missing_gpu"),
    ("peft_lora32_l40s_speed", {"value": -1}, "positive number"),
    ("peft_lora32_l40s_speed", {"unit": "GiB"}, "unit is one of"),
    ("peft_lora32_l40s_speed", {"seq": None}, "seq must be given"),
    ("peft_lora32_l40s_speed", {"quote": None}, "missing"),
    ("peft_lora32_l40s_speed", {"use": "maybe"}, "use must be one of"),
    ("peft_lora32_l40s_speed", {"speed": 3}, "unknown fields"),
    ("peft_lora32_l40s_peak", {"reading": None}, "needs reading"),
    ("alpaca_a100_run", {"tokens": None}, "needs tokens"),
    ("alpaca_a100_run", {"sharding": "none"}, "one GPU"),
    ("alpaca_a100_run", {"rank": 8}, "LoRA and QLoRA only"),
    ("unsloth_hf_8b_80gb_fits", {"bound": None}, "upper bound"),
])
def test_a_malformed_row_is_refused(raw, key, change, message):
    with pytest.raises(ValueError, match=message) as error:
        published.parse(bad(raw, key, **change))
    assert f"[{key}]" in str(error.value)


def test_units_convert_to_si(rows):
    by_key = {r.key: r for r in rows}
    assert by_key["llmc_124m_a100_step"].si_value == pytest.approx(0.3)
    assert by_key["torchtune_8b_lora_4090_peak"].si_value == pytest.approx(16.2 * 2**30)
    assert by_key["unsloth_hf_8b_80gb_fits"].si_value == 80e9
    # 524,288 tokens in 0.3 s on 8 GPUs
    assert by_key["llmc_124m_a100_step"].measured_tokens_per_second_per_gpu() == pytest.approx(524288 / 0.3 / 8)


def test_residuals_of_a_fake_predictor(rows):
    # A predictor twice as fast as every measurement, and one that knows no peak but the PEFT runs'.
    speed = lambda r: 2 * r.measured_tokens_per_second_per_gpu()
    peak = lambda r: r.si_value / 2 if r.source == "huggingface2025peftbench" else None
    out = published.residuals(speed, peak, rows)
    timed = [x for x in out if x.row.quantity != "peak"]
    peaks = [x for x in out if x.row.quantity == "peak"]
    assert len(timed) == sum(r.measured_tokens_per_second_per_gpu() is not None for r in rows)
    assert len(peaks) == sum(r.quantity == "peak" for r in rows)
    assert all(x.ratio == pytest.approx(2) for x in timed)
    predicted = [x.ratio for x in peaks if x.predicted is not None]
    assert len(predicted) == 3 and all(r == pytest.approx(0.5) for r in predicted)
    assert all(x.ratio is None for x in peaks if x.row.source != "huggingface2025peftbench")
    # a time over at most so many tokens bounds the speed from above; a GPU's capacity bounds the peak
    by_key = {x.row.key: x for x in out}
    assert by_key["alpaca_a100_run"].bound == "at_most"
    assert by_key["llmc_124m_a100_step"].bound == "exact"
    assert by_key["unsloth_hf_8b_80gb_fits"].bound == "at_most"
    # each predictor is optional
    assert all(x.row.quantity == "peak" for x in published.residuals(peak_bytes=peak, rows=rows))
