"""The memory calculator of the budget chapter: the GPU memory of full fine-tuning against LoRA,
and whether each fits one GPU, in two forms that compute alike: a chart with controls that works
on the static page (Vega, no kernel), and a live widget for Jupyter and Binder.

The arithmetic is lib.chapters.budget's (training_memory, lora_params, activations_gb, fits), for the
chapter's own models (lib.chapters.budget.SIZES, with their sourced parameters, width, heads and layers):
LoRA's adapters depend on the width and the layers, not only on the parameters, so the reader picks
one of those models rather than a size with a made-up shape. Activations are counted as the
chapter's tables count them (lib.chapters.budget.EXAMPLE_SEQ_LEN, EXAMPLE_BATCH), with every activation kept or
with gradient checkpointing (lib.chapters.budget.activations_gb's two ways, one control for both jobs). Full
fine-tuning keeps its weights and gradients in bf16 and Adam's states in fp32 whatever precision LoRA's
frozen weights are in. Its adapters are the LoRA paper's (W_q and W_v, at the rank the reader picks):
with LLaMA 65B, nf4 and checkpointing it is not QLoRA's configuration, which adapts every linear layer
at rank 64 (lib.chapters.budget.qlora_recipe, checked in the chapter against the paper's 48 GB GPU).
Both forms start at the chapter's example; bad input gets a message in the reader's language.
Under the readout, both say which published measurements the formula was checked against (the
chapter's table, lib.chapters.budget.measurements, each at its publisher's own precisions: the LoRA
paper's accounting, QLoRA's code, PEFT's benchmark), with the residual and whether it is within the
tolerance of a measured figure. The calculator itself keeps the book's defaults: full fine-tuning with
ZeRO's mixed-precision Adam, every frozen weight in the chosen precision (in nf4 it does not keep
LLaMA's embeddings, output layer and norms out of NF4, as QLoRA's code does and the table's QLoRA rows
count).
"""

from __future__ import annotations

import html
import json
import string

import altair as alt
import ipywidgets as widgets

from lib.calculators.boxes import NumberBox, form
from lib.chapters import budget
from lib.site import charts
from lib.chapters import compute
from lib.core.figure import Figure
from lib.core.inputs import Inputs, load_inputs
from lib.core.errors import error
from lib.core.words import words
from lib.chapters.budget import models

# The precisions LoRA's frozen weights can be held in: 32, 16, 8 and 4 bits (nf4 is QLoRA's, with
# its quantisation constants). fp16 is left out: it takes the bytes of bf16, and nothing would move.
PRECISIONS = ("fp32", "bf16", "int8", "nf4")
# The start: the chapter's example, LLaMA 7B (lib.chapters.budget.SIZES[1]) with LoRA's weights in bf16
# (lib.chapters.budget.training_memory's default for LoRA, as in the chapter's tables); the rank and the
# GPU's memory are inputs (lora_rank, h100_sxm_memory).
START_MODEL = budget.SIZES[1][0]
START_PRECISION = "bf16"
# Checkpointing starts off: the chapter's LoRA example keeps every activation (lib.chapters.budget.job_recomputation).
START_CHECKPOINTING = False
# The sliders: LoRA's ranks up to 256 (the LoRA paper tries 1 to 64), GPUs up to 200 GB.
RANGES = {"rank": (1, 256, 1), "gpu": (1, 200, 1)}
# The controls' signal names: their own, so the budget ladder's slider keeps its own.
SIGNALS = {name: f"mem_{name}" for name in ("model", "precision", "rank", "gpu", "checkpointing")}
# The published measurements its formula was checked against (lib.chapters.budget.MEASUREMENTS, kind
# "measured", each at its publisher's precisions): one line each under a heading, the same at every setting.
CHECKED = tuple(f"checked_{key}" for key, kind, _, _ in budget.MEASUREMENTS if kind == "measured")
LINES = ("settings", "full", "lora", "weights", "adapters", "activations", "checked", *CHECKED)


def memories(model: str, precision: str, rank: float, i: Inputs, *, checkpointing: bool = START_CHECKPOINTING
             ) -> tuple[budget.Memory, budget.Memory]:
    """lib.chapters.budget.memories, for the precisions the calculator offers."""
    if precision not in PRECISIONS:
        raise ValueError(f"unknown precision {precision!r}: use one of {', '.join(PRECISIONS)}")
    return budget.memories(model, precision, rank, i, checkpointing=checkpointing)


def readout(model: str, precision: str, rank: float, gpu_gb: float, lang: str, inputs: Inputs | None = None, *,
            checkpointing: bool = START_CHECKPOINTING) -> dict[str, str]:
    """The calculator's lines in `lang`, by LINES; a ValueError for any bad input."""
    i = load_inputs() if inputs is None else inputs
    text = words(lang)["calculator_memory"]
    # What the static calculator's sliders allow: a whole rank, a GPU of whole gigabytes.
    rank = compute.within("rank", rank, *RANGES["rank"][:2], whole=True)
    gpu_gb = compute.within("device_gb", gpu_gb, *RANGES["gpu"][:2], whole=True)
    full, lora = memories(model, precision, rank, i, checkpointing=checkpointing)
    fits = {job: text["fits"] if budget.fits(m.total, gpu_gb) else text["no_fit"] for job, m in (("full", full), ("lora", lora))}
    return {
        "settings": text["settings"].format(rank=Figure.of(rank, "count").format(lang),
                                            gpu=Figure.of(gpu_gb, "GB").format(lang)),
        "full": text["full"].format(memory=Figure.memory(full.total).format(lang), fits=fits["full"]),
        "lora": text["lora"].format(memory=Figure.memory(lora.total).format(lang), fits=fits["lora"]),
        "weights": text["weights"].format(memory=Figure.memory(lora.weights).format(lang)),
        "adapters": text["adapters"].format(
            memory=Figure.memory(lora.gradients + lora.optimizer + lora.adapters).format(lang)),
        "activations": _activations_words(lang, checkpointing).format(memory=Figure.memory(lora.activations).format(lang)),
        **checked_lines(lang, i),
    }


def checked_lines(lang: str, inputs: Inputs | None = None) -> dict[str, str]:
    """The lines that say which published measurements the calculator's formula was checked against
    (the chapter's table, lib.chapters.budget.measurements): a heading with the tolerance, then each
    measurement's name, the formula's residual and whether it is within the tolerance."""
    i = load_inputs() if inputs is None else inputs
    text = words(lang)["calculator_memory"]
    names = words(lang)["budget"]["checked_names"]
    fraction = lambda x: Figure.of(x, "fraction", decimals=1).format(lang)  # noqa: E731
    rows = {row["key"]: row for row in budget.measurements(i)}
    out = {"checked": text["checked"].format(tolerance=fraction(budget.MEASURED_TOLERANCE))}
    for line in CHECKED:
        row = rows[line.removeprefix("checked_")]
        out[line] = text["check_row"].format(name=names[row["key"]], residual=fraction(row["residual"]),
                                             verdict=text["check_within" if row["within"] else "check_outside"])
    return out


def precision_label(precision: str, lang: str) -> str:
    """A precision as the lists show it: its name and its bits (in the name: fp32 is 32 bits), nf4 as QLoRA's."""
    text = words(lang)["calculator_memory"]
    bits = Figure.of(budget.PRECISION_BITS[precision], "count").format(lang)
    return text["precision_qlora" if precision == "nf4" else "precision_option"].format(name=precision, bits=bits)


def _activations_words(lang: str, checkpointing: bool = False) -> str:
    """The activations line with the chapter's sequence length written in, {memory} left open (the
    batch is said in the chapter's prose, {glue:text}`B.batch`); its words say whether checkpointing is on."""
    return words(lang)["calculator_memory"]["activations_full" if checkpointing else "activations"].format(
        tokens=Figure.of(budget.EXAMPLE_SEQ_LEN, "token").format(lang), memory="{memory}")


def memory_calculator(lang: str, inputs: Inputs | None = None) -> widgets.VBox:
    """The live calculator for Jupyter and Binder: two lists, two boxes (the rank and the GPU's
    gigabytes, whole numbers in the page's number style, lib.calculators.boxes), a checkbox and the readout."""
    i = load_inputs() if inputs is None else inputs
    text = words(lang)["calculator_memory"]
    names = words(lang)["budget"]["models"]
    lists = {
        "model": widgets.Dropdown(options=[(names[key], key) for key in models(i)], value=START_MODEL),
        "precision": widgets.Dropdown(options=[(precision_label(p, lang), p) for p in PRECISIONS], value=START_PRECISION),
    }
    boxes = {"rank": NumberBox(i.lora_rank, lang, text["rank"], "rank"),
             "gpu": NumberBox(i.h100_sxm_memory, lang, text["gpu"], "device_gb")}
    checkpointing = widgets.Checkbox(value=START_CHECKPOINTING, indent=False)
    result = widgets.HTML()

    def update(_=None):
        try:
            lines = readout(lists["model"].value, lists["precision"].value, boxes["rank"].value, boxes["gpu"].value,
                            lang, i, checkpointing=checkpointing.value)
            result.value = "<br>".join(html.escape(lines[k]) for k in LINES)
        except ValueError as exc:
            result.value = html.escape(text["error"].format(message=error(exc, lang)))

    for control in (*lists.values(), checkpointing):
        control.observe(update, names="value")
    for box in boxes.values():
        box.observe(update)
    update()
    rows = [(text["model"], lists["model"]), (text["precision"], lists["precision"]), (text["rank"], boxes["rank"].widget),
            (text["gpu"], boxes["gpu"].widget), (text["checkpointing"], checkpointing)]
    return form(rows, result)


# ---------------------------------------------------------------- on the static page (Vega)

def _pick(selected: str, values: dict[str, float]) -> str:
    """A Vega expression choosing a number by a select's value: (s == 'a' ? 1 : s == 'b' ? 2 : NaN)."""
    expr = "NaN"
    for key, value in reversed(values.items()):
        expr = f"{selected} == {json.dumps(key)} ? {float(value)!r} : {expr}"
    return f"({expr})"


def memory_fields(model: str, precision: str, rank: str, checkpointing: str, i: Inputs) -> dict[str, str]:
    """The memory of full fine-tuning and LoRA as Vega expressions of the named signals or fields,
    in order (each may use the ones before it as datum.<name>): lib.chapters.budget.training_memory's sum,
    written a second time for Vega (tests/test_memory_calculator.py holds the two together)."""
    shapes = models(i)
    g, o = i.bytes_fp16_gradient, i.bytes_adam_states
    # Bytes per frozen weight: the bits in the precision's name, and QLoRA's constants for nf4.
    per_weight = {p: budget.precision_bytes(p) + (i.qlora_constant_bits / budget.BITS_PER_BYTE if p == "nf4" else 0.0)
                  for p in PRECISIONS}
    half = budget.precision_bytes("bf16")
    return {
        "n": _pick(model, {k: m["params"] for k, m in shapes.items()}),
        # Activations: with gradient checkpointing (a true checkbox) or with every activation kept.
        "acts": f"({checkpointing} ? {_pick(model, {k: m['activations_full'] for k, m in shapes.items()})}"
                f" : {_pick(model, {k: m['activations'] for k, m in shapes.items()})})",
        # LoRA's adapters: 2 x layers x adapted matrix types x d_model x rank (lib.chapters.compute.lora_trainable_params)
        "adapter_params": f"2 * {_pick(model, {k: m['layers'] for k, m in shapes.items()})}"
                          f" * {float(i.lora_adapted_matrix_types)!r}"
                          f" * {_pick(model, {k: m['d_model'] for k, m in shapes.items()})} * {rank}",
        "full_total": f"datum.n * {half!r} / 1e9 + datum.n * {g!r} / 1e9 + datum.n * {o!r} / 1e9 + datum.acts",
        "lora_weights": f"datum.n * {_pick(precision, per_weight)} / 1e9",
        "lora_trained": f"datum.adapter_params * {g!r} / 1e9 + datum.adapter_params * {o!r} / 1e9"
                        f" + datum.adapter_params * {half!r} / 1e9",
        "lora_total": f"datum.lora_weights + datum.adapter_params * {g!r} / 1e9"
                      f" + datum.adapter_params * {o!r} / 1e9 + datum.acts + datum.adapter_params * {half!r} / 1e9",
    }


def _template(text: str, **exprs: str) -> str:
    """A Vega string expression from a line of words with {placeholders} filled by expressions."""
    parts = []
    for literal, name, _, _ in string.Formatter().parse(text):
        if literal:
            parts.append(json.dumps(literal, ensure_ascii=False))
        if name is not None:
            parts.append(f"({exprs[name]})")
    return " + ".join(parts) or '""'


def memory_lines(lang: str, rank: str, gpu: str, checkpointing: str, inputs: Inputs | None = None) -> dict[str, str]:
    """The readout's lines (LINES) as Vega expressions of the fields memory_fields computes and of
    the named rank and GPU-memory signals or fields, written as readout() writes them; the lines of
    the measurements it was checked against are the same at every setting (checked_lines)."""
    text = words(lang)["calculator_memory"]

    def verdict(total: str) -> str:
        return f"({total} <= {gpu} ? {json.dumps(text['fits'], ensure_ascii=False)}" \
               f" : {json.dumps(text['no_fit'], ensure_ascii=False)})"

    memory = lambda value: charts.memory_expr(value, lang)  # noqa: E731
    return {
        "settings": _template(text["settings"], rank=charts.figure_expr(rank, "count", lang),
                              gpu=charts.figure_expr(gpu, "GB", lang)),
        "full": _template(text["full"], memory=memory("datum.full_total"), fits=verdict("datum.full_total")),
        "lora": _template(text["lora"], memory=memory("datum.lora_total"), fits=verdict("datum.lora_total")),
        "weights": _template(text["weights"], memory=memory("datum.lora_weights")),
        "adapters": _template(text["adapters"], memory=memory("datum.lora_trained")),
        "activations": f"({checkpointing} ? {_template(_activations_words(lang, True), memory=memory('datum.acts'))}"
                       f" : {_template(_activations_words(lang, False), memory=memory('datum.acts'))})",
        **{key: json.dumps(line, ensure_ascii=False) for key, line in checked_lines(lang, inputs).items()},
    }


def memory_chart(lang: str, model: str, precision: str, rank: float, gpu_gb: float,
                 inputs: Inputs | None = None, *, checkpointing: bool = START_CHECKPOINTING) -> alt.Chart:
    """Full fine-tuning against LoRA on the static page: a list of the chapter's models, a list of
    precisions for LoRA's frozen weights, sliders for the rank and the GPU's memory, a checkbox for
    gradient checkpointing, and a readout
    written as lib writes it (tests/test_memory_calculator.py renders it on a grid and compares
    with lib.chapters.budget and lib.core.figure)."""
    i = load_inputs() if inputs is None else inputs
    text = words(lang)["calculator_memory"]
    names = words(lang)["budget"]["models"]
    for name, value in (("rank", rank), ("gpu", gpu_gb)):
        low, high, _ = RANGES[name]
        if not low <= value <= high:
            raise ValueError(f"{name} = {value:g} is outside the calculator's range {low:g}-{high:g}")
    memories(model, precision, rank, i, checkpointing=checkpointing)  # the start must be one lib computes
    keys = list(models(i))
    params = [
        alt.param(name=SIGNALS["model"], value=model,
                  bind=alt.binding_select(options=keys, labels=[names[k] for k in keys], name=text["model"] + " ")),
        alt.param(name=SIGNALS["precision"], value=precision,
                  bind=alt.binding_select(options=list(PRECISIONS), labels=[precision_label(p, lang) for p in PRECISIONS],
                                          name=text["precision"] + " ")),
        *(alt.param(name=SIGNALS[name], value=float(value),
                    bind=alt.binding_range(min=RANGES[name][0], max=RANGES[name][1], step=RANGES[name][2],
                                           name=text[name] + " "))
          for name, value in (("rank", rank), ("gpu", gpu_gb))),
        alt.param(name=SIGNALS["checkpointing"], value=checkpointing,
                  bind=alt.binding_checkbox(name=text["checkpointing"] + " ")),
    ]
    return charts.readout_chart(memory_lines(lang, SIGNALS["rank"], SIGNALS["gpu"], SIGNALS["checkpointing"], i), params,
                                lang, text["title"], fields=memory_fields(SIGNALS["model"], SIGNALS["precision"],
                                                                          SIGNALS["rank"], SIGNALS["checkpointing"], i))
