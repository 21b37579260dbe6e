"""The memory calculator of the budget chapter: the static chart's formulas against lib.chapters.budget on a
grid (rendered with vl-convert), its start at the chapter's example, its ranges, and the live
widget (a readout in the reader's language, a message and no number for bad input)."""

import html
import itertools
import re

import pandas as pd
import pytest

from lib.calculators.boxes import controls
from lib.core import fmt
from lib.chapters import budget
from lib.core.figure import Figure
from lib.core.inputs import load_inputs
from lib.calculators.memory import LINES, PRECISIONS, RANGES, START_CHECKPOINTING, START_MODEL, START_PRECISION, memory_calculator, memories, memory_chart, memory_fields, memory_lines, readout
from lib.core.words import words

from .conftest import LANGS
from .vega import grid_readouts, texts

I = load_inputs()
MODELS = [key for key, *_ in budget.SIZES]
# 3 models x 4 precisions x 2 ranks x 2 GPUs x checkpointing off and on = 96 points: every model and
# precision, the lowest and the highest rank, GPU memories on either side of several totals (LLaMA 65B
# in nf4 fits 80 GB with checkpointing and not without: QLoRA's case).
GRID = list(itertools.product(MODELS, PRECISIONS, (1, 256), (24, 80), (False, True)))


def expected(lang: str, model: str, precision: str, rank: float, gpu: float, checkpointing: bool = False) -> list[str]:
    """The readout written from lib.chapters.budget directly: training_memory, lora_params, activations_gb, fits."""
    text = words(lang)["calculator_memory"]
    _, params, d_model, heads, layers = next(s for s in budget.SIZES if s[0] == model)
    full_kw = dict(recomputation="full", checkpoint_bytes=I.activation_checkpoint_bytes) if checkpointing else {}
    acts = budget.activations_gb(budget.EXAMPLE_SEQ_LEN, budget.EXAMPLE_BATCH, I[d_model].value, I[heads].value, I[layers].value,
                            I.activation_linear_bytes, I.activation_attention_bytes, **full_kw)
    kw = dict(activations=acts, gradient_bytes=I.bytes_fp16_gradient, optimizer_bytes=I.bytes_adam_states)
    full = budget.training_memory(I[params].value, "full", **kw)
    adapters = budget.lora_params(I[d_model].value, I[layers].value, I.lora_adapted_matrix_types, rank)
    lora = budget.training_memory(I[params].value, "lora", adapter_params=adapters, weight_precision=precision,
                             quant_constant_bits=I.qlora_constant_bits, **kw)
    shown = lambda gb: Figure.memory(gb).format(lang)  # noqa: E731
    fits = lambda m: text["fits"] if budget.fits(m.total, gpu) else text["no_fit"]  # noqa: E731
    return [
        text["settings"].format(rank=Figure.of(rank, "count").format(lang), gpu=Figure.of(gpu, "GB").format(lang)),
        text["full"].format(memory=shown(full.total), fits=fits(full)),
        text["lora"].format(memory=shown(lora.total), fits=fits(lora)),
        text["weights"].format(memory=shown(lora.weights)),
        text["adapters"].format(memory=shown(lora.gradients + lora.optimizer + lora.adapters)),
        text["activations_full" if checkpointing else "activations"].format(
            tokens=Figure.of(budget.EXAMPLE_SEQ_LEN, "token").format(lang), memory=shown(acts)),
        *checked(lang),
    ]


def checked(lang: str) -> list[str]:
    """The lines naming the published measurements the formula was checked against: every measured
    row of the chapter's table, its residual and whether it is within the tolerance of its kind."""
    text, names = words(lang)["calculator_memory"], words(lang)["budget"]["checked_names"]
    fraction = lambda x: Figure.of(x, "fraction", decimals=1).format(lang)  # noqa: E731
    rows = [row for row in budget.measurements(I) if row["kind"] == "measured"]
    return [text["checked"].format(tolerance=fraction(budget.MEASURED_TOLERANCE)),
            *(text["check_row"].format(name=names[row["key"]], residual=fraction(row["residual"]),
                                       verdict=text["check_within" if row["within"] else "check_outside"])
              for row in rows)]


@pytest.mark.parametrize("lang", LANGS)
def test_the_calculator_says_which_measurements_it_was_checked_against(lang):
    """Its readout names the LoRA paper's, QLoRA's and PEFT's measurements, with the chapter's residuals."""
    lines = readout(START_MODEL, START_PRECISION, I.lora_rank, I.h100_sxm_memory, lang, I)
    names = words(lang)["budget"]["checked_names"]
    assert [lines[k] for k in LINES if k.startswith("checked")] == checked(lang)
    assert all(any(names[key] in line for line in checked(lang)) for key in ("lora_lora", "qlora_7b_base", "peft_lora"))
    # The same lines at every setting: they are the formula's checks, not the setting's.
    assert [readout("llama65b", "nf4", 64, 48, lang, I, checkpointing=True)[k] for k in LINES[-len(checked(lang)):]] \
        == checked(lang)


@pytest.mark.parametrize("lang", LANGS)
def test_the_static_memory_calculator_computes_what_lib_computes_on_a_grid(lang):
    """Vega's formulas (the calculator's own expressions, fed a grid of inputs) against lib.chapters.budget
    and lib.core.figure, to the displayed precision: editing a formula on one side only fails here."""
    got = grid_readouts(pd.DataFrame(GRID, columns=["model", "precision", "rank", "gpu", "ckpt"]),
                        memory_lines(lang, "datum.rank", "datum.gpu", "datum.ckpt", I), lang,
                        fields=memory_fields("datum.model", "datum.precision", "datum.rank", "datum.ckpt", I),
                        order=list(LINES))
    want = [expected(lang, *point) for point in GRID]
    assert len(got) == len(want) == len(GRID)
    wrong = [(p, w, g) for p, w, g in zip(GRID, want, got) if w != g]
    assert not wrong, wrong[:3]
    # The grid reaches both words, for both jobs.
    no_fit = words(lang)["calculator_memory"]["no_fit"]
    assert {w[1].endswith(no_fit) for w in want} == {w[2].endswith(no_fit) for w in want} == {True, False}
    # Checkpointing moves a verdict: LLaMA 65B in nf4 on 80 GB fits with it and not without.
    qlora = {ckpt: want[GRID.index(("llama65b", "nf4", 1, 80, ckpt))][2] for ckpt in (False, True)}
    assert qlora[False].endswith(no_fit) and not qlora[True].endswith(no_fit)
    # The widget's readout is the same text.
    *point, ckpt = GRID[-1]
    assert [readout(*point, lang, I, checkpointing=ckpt)[k] for k in LINES] == want[-1]


@pytest.mark.parametrize("lang", LANGS)
def test_the_static_memory_calculator_starts_at_the_chapters_example(lang):
    start = (START_MODEL, START_PRECISION, I.lora_rank, I.h100_sxm_memory)
    assert texts(memory_chart(lang, *start, I), lang)[:len(LINES)] == expected(lang, *start, START_CHECKPOINTING)
    # Its first picture is the chapter's: LLaMA 7B's full fine-tuning and LoRA in the memory table.
    scales = budget.three_scales(I)
    assert START_MODEL == "llama7b"
    full, lora = (Figure.of(scales[job]["memory"].total, "GB", decimals=1).format(lang) for job in ("full", "lora"))
    assert full in expected(lang, *start)[1] and lora in expected(lang, *start)[2]


def test_the_static_memory_calculator_refuses_values_outside_its_controls():
    with pytest.raises(ValueError, match="rank = 0 is outside"):
        memory_chart("es", START_MODEL, START_PRECISION, 0, I.h100_sxm_memory, I)
    with pytest.raises(ValueError, match="gpu = 500 is outside"):
        memory_chart("en", START_MODEL, START_PRECISION, I.lora_rank, 500, I)
    with pytest.raises(ValueError, match="unknown precision 'fp16'"):
        memory_chart("en", START_MODEL, "fp16", I.lora_rank, I.h100_sxm_memory, I)
    with pytest.raises(ValueError, match="unknown model 'gpt3'"):
        memory_chart("en", "gpt3", START_PRECISION, I.lora_rank, I.h100_sxm_memory, I)
    with pytest.raises(ValueError, match="checkpointing is on or off"):
        memories(START_MODEL, START_PRECISION, I.lora_rank, I, checkpointing="full")
    # Every rank the slider reaches is one LoRA can take for every model (rank <= d_model).
    assert all(RANGES["rank"][1] <= I[d].value for _, _, d, _, _ in budget.SIZES)


def test_the_controls_have_their_own_signal_names():
    spec = memory_chart("en", START_MODEL, START_PRECISION, I.lora_rank, I.h100_sxm_memory, I).to_dict()
    names = [p["name"] for p in spec["params"]]
    assert names == ["mem_model", "mem_precision", "mem_rank", "mem_gpu", "mem_checkpointing"]
    assert [p["bind"]["input"] for p in spec["params"]] == ["select", "select", "range", "range", "checkbox"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_widget_starts_at_the_chapters_example_and_follows_its_boxes(lang):
    box = memory_calculator(lang, I)
    model, precision, rank, gpu, checkpointing = controls(box)
    assert (model.value, precision.value, rank.value, gpu.value, checkpointing.value) == (
        START_MODEL, START_PRECISION, fmt.number(I.lora_rank, lang), fmt.number(I.h100_sxm_memory, lang), START_CHECKPOINTING)
    shown = lambda: [html.unescape(line) for line in box.children[-1].value.split("<br>")]  # noqa: E731
    assert shown() == expected(lang, START_MODEL, START_PRECISION, I.lora_rank, I.h100_sxm_memory)
    model.value, precision.value, rank.value, gpu.value = "llama65b", "nf4", "64", "48"
    assert shown() == expected(lang, "llama65b", "nf4", 64, 48)
    checkpointing.value = True
    assert shown() == expected(lang, "llama65b", "nf4", 64, 48, True)


@pytest.mark.parametrize("lang, field, bad, message", [
    ("es", 2, "-8", "No se puede calcular. Rango de LoRA: tiene que ser mayor que cero."),
    ("en", 3, "nan", "Cannot compute. GPU memory: must be a finite number."),
    ("es", 3, "0", "No se puede calcular. Memoria de la GPU: tiene que ser mayor que cero."),
    ("es", 2, "2,5", "No se puede calcular. Rango de LoRA: tiene que ser un número entero."),
    ("en", 3, "1e300", "Cannot compute. GPU memory: must be between 1 and 200."),
])
def test_bad_input_shows_a_message_in_the_language_and_no_number(lang, field, bad, message):
    box = memory_calculator(lang, I)
    controls(box)[field].value = bad
    result = box.children[-1].value
    assert result == message
    assert "GB" not in result and not re.search(r"\d", re.sub(r"(entre|between) \S+ (y|and) \S+", "", result))


def test_unknown_language_is_refused():
    with pytest.raises(ValueError, match="unknown language 'de'"):
        memory_calculator("de", I)


# Where a calculator's readout writes (lib.site.charts.readout_chart): lines from 5 px into its
# 320 px frame, at 13.5 px; its title in bold at 14 px.
READOUT_ROOM, READOUT_SIZE, TITLE_SIZE = 320 - 5, 13.5, 14


@pytest.mark.parametrize("lang", LANGS)
def test_every_readout_line_and_the_title_fit_the_calculators_frame_at_every_setting(lang):
    """At every point of the grid (the widest figures: the largest model, rank and memories), each
    line the readout writes, measured in the charts' font, ends inside the frame; so does the title."""
    from lib.site import fonts

    too_wide = {line for point in GRID for line in readout(*point[:4], lang, I, checkpointing=point[4]).values()
                if fonts.text_width(line, READOUT_SIZE) > READOUT_ROOM}
    assert too_wide == set(), sorted(too_wide)[:5]
    title = words(lang)["calculator_memory"]["title"]
    assert fonts.text_width(title, TITLE_SIZE, bold=True) <= 320, title
