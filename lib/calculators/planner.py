"""The planner on the page: a reader's own training job (lib.plan) — a shipped model, a method, LoRA's
rank and targets, the sequence, the batch, gradient checkpointing, the attention, a GPU and the tokens
to train — and its memory by part, the peak PyTorch allocates in a step, whether it fits the GPU, and,
where it fits, the hours and cost of those tokens, with a note for QLoRA of a model whose experts are fused
(they stay in fp32) and one for gpt-oss-20b (the utilisation OpenAI's example ran at). Choosing a model
sets the attention it runs by default (eager for gpt-oss). Two forms that compute alike: a readout with
controls on the static page (Vega, no kernel; its state in the page's address, book/_static/calculator.js)
and a live widget for Jupyter and Binder. Both call lib.plan's numbers: the widget lib.plan itself, the page
lib.plan's formula written a second time as Vega expressions from lib.plan's own per-model constants
(tests/test_planner_calculator.py holds the two together on a grid). Both start at the budget
chapter's example job on the GPU the first article rents, with the tokens its budget's hours train.
"""

from __future__ import annotations

import html
import json
import itertools
import math
import string
from collections import Counter

import altair as alt
import ipywidgets as widgets

from lib.calculators.boxes import NumberBox, form, in_box_units
from lib.chapters import article1, budget, compute
from lib.core.errors import error
from lib.core import fmt
from lib.core.figure import Figure
from lib.core.inputs import Inputs, load_inputs
from lib.core.currency import ecb_rate
from lib.core.words import words
from lib.plan import memory, speed, step_time, validation
from lib.plan.errors import PlanError, message
from lib.plan.gpus import Gpu, capacity_bytes, load_gpus, price, price_seen
from lib.plan.gpus import memory as gpu_memory
from lib.plan.shapes import ARCHITECTURES, SHIPPED, Shape, all_linear_parameters, expert_parameters, linear_modules, load_config, param_count, shape
from lib.site import charts

# The adapters offered: the attention's query and value matrices (the LoRA paper's; GPT-2 holds them with the
# keys in one module, c_attn, which is adapted instead: lib.plan.memory.attention_targets), or every linear layer.
TARGETS = {"qv": ("q_proj", "v_proj"), "all": memory.ALL_LINEAR}
# The sliders: LoRA's ranks up to 256 (the LoRA paper tries 1 to 64); the sequence and the batch in powers of
# ten, whole, from 1 to a million tokens (a warning beyond the model's positions) and to ten thousand
# sequences (any batch the memory allows: the readout says whether it fits); gradient accumulation up to 1,024
# micro-batches a step; the reader's price per GPU-hour up to $100 (0: the book's sourced price); the tokens
# to train in powers of ten, from a million (a small fine-tuning set) to ten trillion.
# The utilisation of the GPU's bf16 peak (a model FLOPs utilisation) a reader may set instead of the speed
# model (SPEEDS), from 1 % (OpenAI's gpt-oss-20b example runs at a few: the first article's claim) to all of
# it, in steps of a tenth of a percent; it starts at PaLM's.
RANGES = {"rank": (1, 256, 1), "seq": (0, 6, 0.001), "batch": (0, 4, 0.001), "grad_accum": (1, 1024, 1),
          "price": (0, 100, 0.01), "tokens": (6, 13, 0.01), "utilisation": (0.01, 1, 0.001)}
# The sliders that move by powers of ten (their fields take and write 10 to the slider's value, whole).
POWERS = ("seq", "batch", "tokens")
SIGNALS = {name: f"plan_{name}" for name in ("model", "method", "rank", "targets", "seq", "batch", "checkpointing",
                                             "attention", "gpu", "gpus", "sharding", "optimizer", "grad_accum",
                                             "price", "tokens", "speed_by", "utilisation")}
# How the speed is computed: by the book's speed model (lib.plan.step_time, with its range from the published
# measurements, lib.plan.validation.speed_range), or at a utilisation of the bf16 peak the reader sets (the
# MFU path, lib.plan.speed's `mfu` override, no range).
SPEEDS = ("model", "set")
# The utilisation does nothing while the speed is the model's: disabled then, on the page and in the widget.
IDLE = {"utilisation": ("speed_by", "model")}
# A node: one to eight GPUs (a node's), and every sharding lib.plan computes (DDP, ZeRO-1 to 3, with FSDP's
# names beside ZeRO-2 and ZeRO-3).
NODE_GPUS = tuple(range(1, 9))
NODE_SHARDINGS = memory.SHARDINGS
# What the live planner's boxes take beyond the page's sliders: any sequence (a warning beyond the model's
# positions), any batch the memory allows, any accumulation.
BOX_LIMITS = {"seq": (1, 10 ** 7), "batch": (1, 10 ** 6), "grad_accum": (1, 10 ** 6)}
# The signal holding a model of the reader's own: the constants (`constants`) that book/_static/calculator.js
# computes from a pasted config.json (own_options), or {error: ...} for one it refuses; null for the list's model.
OWN = "plan_own"
# What is alive at the peak, one line each (lib.plan.memory.peak_terms' terms, in its order): the peak as
# the sum it is.
TERMS = ("weights", "adapters", "optimizer", "buffers", "activations", "autocast", "loss_gradient", "rebuilt_layer",
         "gradients", "layer_activations")
TERM_LINES = tuple(f"term_{k}" for k in TERMS)
# The readout's lines: on a node, that each part is one GPU's; the parts and the peak, then the peak as the
# sum of what is alive at it; each ranged figure (the peak, by its measured error; the speed and what follows
# from it, by the speed model's) is followed by its range (empty at a utilisation the reader
# sets); a step's global batch; the price (the reader's with the book's beside it); a warning for a sequence
# beyond the model's positions (computed, as transformers runs it); the last three are notes, empty but for
# the jobs they are about (notes).
LINES = ("node", "weights", "adapters", "gradients", "optimizer", "activations", "buffers", "peak", "peak_range",
         "alive", "alive_more", *TERM_LINES, "fits", "fit_margin", "paging", "speed", "speed_range", "time", "time_range", "cost", "cost_range",
         "euros", "euros_range", "global_batch", "price", "price_book", "price_from", "warning", "warning_more",
         "experts", "measured", "measured_more")
TIME_LINES = ("speed", "speed_range", "time", "time_range", "cost", "cost_range", "euros", "euros_range", "price",
              "price_book", "price_from")
START = {"model": "llama-7b", "method": "lora", "targets": "qv", "checkpointing": False, "attention": "sdpa",
         "gpu": "h100-sxm", "gpus": 1, "sharding": "ddp", "optimizer": "adamw", "grad_accum": 1, "price": 0,
         "speed_by": "model"}


def job(model: str, method: str, rank: int, targets: str, seq: int, batch: int, checkpointing: bool,
        attention: str, *, optimizer: str = "adamw", gpus: int = 1, sharding: str = "ddp", grad_accum: int = 1,
        model_shape: Shape | None = None) -> memory.Job:
    """The planner's job for the calculator's settings (a PlanError for a setting it refuses): a shipped
    model by name, or `model_shape`, the shape of a config.json the reader pasted (pasted_shape)."""
    if targets not in TARGETS:
        raise PlanError("unknown_target", names=targets, known=", ".join(TARGETS), all=memory.ALL_LINEAR)
    s = shape(load_config(model)) if model_shape is None else model_shape
    modules = memory.attention_targets(s)[1] if targets == "qv" else TARGETS[targets]
    return memory.Job(s, method, seq=seq, batch=batch, checkpointing=checkpointing, attention=attention, rank=rank,
                      targets=modules, optimizer=optimizer, gpus=gpus, sharding=sharding, grad_accum=grad_accum)


def pasted_shape(text: str, lang: str) -> Shape:
    """The shape of a Hugging Face config.json pasted as text, checked as the command checks a config's
    file (lib.plan.shapes.load_config, shape): a PlanError, said in the reader's language, for text that is
    not one JSON object or for a field the planner needs that is missing or wrong."""
    where = words(lang)["calculator_plan"]["pasted"]
    try:
        config = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PlanError("not_json", path=where, error=f"{exc.lineno}:{exc.colno}") from None
    if not isinstance(config, dict):
        raise PlanError("not_object", path=where)
    return shape(config)


def models() -> tuple[str, ...]:
    """The shipped models the planner computes every method and target of (its activations derived)."""
    def plannable(name: str) -> bool:
        try:
            attention = memory.default_attention(shape(load_config(name)))
            for method, targets in itertools.product(memory.METHODS, TARGETS):
                memory.parts(job(name, method, 1, targets, 128, 1, False, attention))
            return True
        except PlanError:
            return False
    return tuple(name for name in SHIPPED if plannable(name))


def start(i: Inputs) -> dict:
    """The start: the budget chapter's example (lib.chapters.budget.budget_job: LLaMA 7B, LoRA at the sourced
    rank on W_q and W_v, its sequence and batch) on the H100 SXM the first article rents, and the tokens its
    budget's hours train there (budget_lora, the book's answer): the readout starts at the budget's hours and price."""
    lora = budget.budget_lora(i)
    job = lora["job"]
    return START | {"model": "llama-7b", "rank": job.rank, "seq": job.seq, "batch": job.batch, "gpu": lora["gpu"].key,
                    "tokens": lora["tokens"], "utilisation": i.palm_mfu}


def default_utilisation(model: str, i: Inputs) -> float:
    """The utilisation a model starts at: for the model of OpenAI's cookbook example, the one the example ran
    at (lib.chapters.article1.gptoss_ft, its only measurement); for the others, PaLM's."""
    return article1.gptoss_ft(i)["utilisation"] if model == article1.GPTOSS_FT_MODEL else i.palm_mfu


# The methods that run with gradient checkpointing by default: QLoRA's, whose paper runs every experiment
# with it (lib.chapters.budget.CHECKPOINTED_JOBS, the budget chapter's jobs as the planner's methods).
CHECKPOINTED_METHODS = tuple(budget.METHOD[job] for job in budget.CHECKPOINTED_JOBS)


def default_checkpointing(method: str) -> bool:
    """Gradient checkpointing as a method runs by default (CHECKPOINTED_METHODS)."""
    return method in CHECKPOINTED_METHODS


def fused_experts(model: str) -> bool:
    """Whether the model's experts are fused parameters, which bitsandbytes leaves out of NF4 (it quantises
    nn.Linear layers only) and PEFT's prepare_model_for_kbit_training casts to fp32 (lib.plan.memory)."""
    return bool(expert_parameters(shape(load_config(model))))


def notes(lang: str, model: str, method: str, i: Inputs, model_shape: Shape | None = None) -> dict[str, str]:
    """The readout's notes: for QLoRA of a model with fused experts, that they stay in fp32 (its weights
    outweigh LoRA's); for the model of OpenAI's fine-tuning example, the utilisation of the H100's peak
    at which the planner runs the example in its measured time, as the first article's chapter computes it
    (lib.chapters.article1.gptoss_ft): the one a reader who sets a utilisation starts at for that model."""
    text = words(lang)["calculator_plan"]
    out = dict.fromkeys(LINES[-3:], "")
    experts = fused_experts(model) if model_shape is None else bool(expert_parameters(model_shape))
    if method == "qlora" and experts:
        out["experts"] = text["qlora_experts"]
    if model == article1.GPTOSS_FT_MODEL and model_shape is None:  # the list's model, not a pasted one
        mfu = Figure.of(article1.gptoss_ft(i)["utilisation"], "fraction", decimals=1).format(lang)
        out |= {"measured": text["measured"], "measured_more": text["measured_more"].format(mfu=mfu)}
    return out


def _derived_attentions(s) -> list[str]:
    """The attentions the planner's activations are derived with for the shape, in the planner's order
    (flash_attention_2 with sdpa's: memory.stored_attention)."""
    derived = {key.split(".")[1] for key in memory.activation_keys(s)}
    return [a for a in memory.ATTENTIONS if memory.stored_attention(a) in derived]


def _attention_names(attentions: list[str], lang: str) -> str:
    """The attentions as the list of options names them, short: "eager"; "fused (SDPA, the default)"."""
    return ", ".join(a.split(" ")[0] for a in (words(lang)["calculator_plan"]["attentions"][x] for x in attentions))


def limits(name: str) -> tuple[float, float]:
    """The lowest and highest value a slider takes, in the reader's units (tokens, not their power of ten)."""
    low, high, _ = RANGES[name]
    return (10.0 ** low, 10.0 ** high) if name in POWERS else (low, high)


def readout(lang: str, model: str, method: str, rank: int, targets: str, seq: int, batch: int, checkpointing: bool,
            attention: str, gpu: str, tokens: float, inputs: Inputs | None = None, utilisation: float | None = None,
            *, optimizer: str = "adamw", gpus: int = 1, sharding: str = "ddp", grad_accum: int = 1,
            price_usd: float | None = None, model_shape: Shape | None = None) -> dict[str, str]:
    """The lines (LINES) in `lang`, from lib.plan: the speed by the speed model with its range, or, with
    `utilisation`, at that share of the bf16 peak. A sequence beyond the model's positions is computed with
    a warning (lib.plan.memory.warnings), but for a learned position table (GPT-2's), which has no row for
    it: that is said in the first two lines (the others empty). A PlanError for any other setting the
    planner refuses."""
    i = load_inputs() if inputs is None else inputs
    text, parts_words = words(lang)["calculator_plan"], words(lang)["plan"]["parts"]
    s = shape(load_config(model)) if model_shape is None else model_shape
    if seq > s.max_positions and s.learned_positions:
        count = lambda n: Figure.of(n, "count").format(lang)  # noqa: E731
        return dict.fromkeys(LINES, "") | {LINES[0]: text["beyond"].format(seq=count(seq)),
                                           LINES[1]: text["beyond_more"].format(positions=count(s.max_positions))}
    derived = _derived_attentions(s)
    if attention not in derived:  # gpt-oss's sdpa: eager is the one it runs in transformers
        return dict.fromkeys(LINES, "") | {LINES[0]: text["no_attention"].format(
            attention=_attention_names(derived, lang)), LINES[1]: text["no_attention_more"]}
    j = job(model, method, rank, targets, seq, batch, checkpointing, attention, optimizer=optimizer, gpus=gpus,
            sharding=sharding, grad_accum=grad_accum, model_shape=model_shape)
    g = load_gpus()[gpu] if gpu in load_gpus() else None
    if g is None:
        raise PlanError("unknown_gpu", name=repr(gpu), known=", ".join(load_gpus()))
    parts = memory.parts(j)
    gb = lambda value: Figure.memory(value / 1e9).format(lang)  # noqa: E731
    lines = {key: text["part"].format(part=parts_words[key], memory=gb(parts[key]))
             for key in ("weights", "adapters", "gradients", "optimizer", "activations", "peak")}
    count = lambda n: Figure.of(n, "count").format(lang)  # noqa: E731
    # On a node: that each part is one GPU's, and the collectives' buffers each keeps.
    lines["node"] = text["node"].format(gpus=count(gpus)) if gpus > 1 else ""
    lines["buffers"] = text["part"].format(part=parts_words["buffers"], memory=gb(parts["buffers"])) if gpus > 1 else ""
    lines["adapters"] = lines["adapters"] if parts["adapters"] else ""  # a full fine-tuning has none: no "0.0 GB"
    lines |= alive_lines(lang, j)
    run = speed.on_gpu(j, g, tokens, utilisation, i, price_usd)
    context = Figure.of(speed.CUDA_CONTEXT_GB, "GB").format(lang)
    lines["fits"] = (text["fits_unknown"] if run["fits"] is None else text["fits" if run["fits"] else "no_fit"]).format(
        context=context, memory=Figure.of(gpu_memory(g, i) or 0, "GB").format(lang))
    low, high = speed.peak_range(parts["peak"])
    lines["peak_range"] = text["range"].format(range=Figure.memory_range(low / 1e9, high / 1e9).format(lang))
    margin = run["fit_margin"]
    lines["fit_margin"] = text[f"fit_{margin}"].format(
        peak=Figure.memory(speed.margin_end(parts["peak"], margin) / 1e9).format(lang)) if margin else ""
    lines["paging"] = text["paging"] if run["fits_with_paging"] else ""
    lines["global_batch"] = text["global_batch"].format(global_batch=count(j.global_batch), seq=count(j.seq))
    warned = dict.fromkeys(("warning", "warning_more"), "")
    for key, values in memory.warnings(j):  # seq_beyond, the only one
        counted = {k: count(v) for k, v in values.items()}
        warned = {"warning": text["warning"].format(**counted), "warning_more": text["warning_more"].format(**counted)}
    return lines | _time_lines(lang, run, tokens, g, i, price_usd, gpus) | warned | notes(lang, model, method, i, model_shape)


def alive_lines(lang: str, j: memory.Job) -> dict[str, str]:
    """The peak as the sum it is (lib.plan.memory.peak_terms: what is alive at its moment), one line a term
    (TERM_LINES, empty for a term that is not alive), under two lines that say at which moment."""
    text, w = words(lang)["calculator_plan"], words(lang)["plan"]
    alive = memory.peak_terms(j)
    out = {"alive": text["alive"], "alive_more": text["alive_more"].format(moment=w["moments"][alive["moment"]])}
    for n, key in enumerate(TERMS):
        value = alive["terms"].get(key)
        out[TERM_LINES[n]] = "" if not value else text["first_term" if key == TERMS[0] else "term"].format(
            term=text["terms"][key], memory=Figure.memory(value / 1e9).format(lang))
    return out


def node_line(lang: str, j: memory.Job) -> str:
    """What the job assumes of its node, optimiser and batches, as the command restates it."""
    w = words(lang)["plan"]
    node = w["node_one"] if j.gpus == 1 else w["node_many"].format(gpus=fmt.number(j.gpus, lang, 0),
                                                                    sharding=w["shardings"][j.sharding])
    count = lambda n: fmt.number(n, lang, 0)  # noqa: E731
    return w["assumed"].format(types=w["types"][j.method], optimiser=w["optimizers"][j.optimizer], node=node,
                               batch=count(j.batch), accum=count(j.grad_accum), global_batch=count(j.global_batch),
                               step_tokens=count(j.step_tokens), adapter="")


def _time_lines(lang: str, run: dict, tokens: float, g: Gpu, i: Inputs, price_usd: float | None = None,
                gpus: int = 1) -> dict[str, str]:
    """The speed, time, cost, euros and price lines of a job on a GPU or a node of `gpus` (lib.plan.speed.on_gpu);
    a job that does not fit it (even by paging), a GPU whose peak is unverified, or a node whose interconnect is,
    gets one line that says so, and no figure. The reader's price comes with the book's beside it."""
    text = words(lang)["calculator_plan"]
    out = dict.fromkeys(TIME_LINES, "")
    if run["fits"] is False and not run["fits_with_paging"]:
        return out | {"speed": text["no_fit_time"]}
    if run["tokens_per_second"] is None:
        unlinked = gpus > 1 and g.interconnect is None and g.bf16_flops is not None
        return out | {"speed": text["no_link" if unlinked else "no_peak"]}
    mfu = Figure.of(run["mfu"], "fraction", decimals=1).format(lang)
    ranged = run["speed_model"] == "parts"
    tps = lambda v: text["per_second"].format(tps=Figure.of(v, "token").format(lang))  # noqa: E731
    usd = lambda v: Figure.of(v, "USD", decimals=2).format(lang)  # noqa: E731
    eur = lambda v: Figure.of(v, "EUR", decimals=2).format(lang)  # noqa: E731
    money = {"cost_usd": "USD", "cost_eur": "EUR"}
    tps_range = lambda low, high: text["per_second"].format(tps=Figure.between(low, high, "token").format(lang))  # noqa: E731
    duration_range = lambda low, high: Figure.duration_range(low, high).format(lang)  # noqa: E731

    def spread(key: str, written) -> dict[str, str]:  # the range line under a figure, by the speed model only
        if not ranged:  # one unit for both ends: 1,30–7,88 millones de dólares / $1.30–7.88 million, 9,7–68,6 horas
            return {}
        if key in money:
            written = lambda low, high: money_range(low, high, money[key], lang)  # noqa: E731
        return {f"{key}_range": text["range"].format(range=written(run[f"{key}_low"], run[f"{key}_high"]))}

    out["speed"] = text["speed"].format(tps=tps(run["tokens_per_second"]), mfu=mfu)
    out |= {"speed_range": spread("tokens_per_second", tps_range).get("tokens_per_second_range", "")}
    shown = {"tokens": Figure.of(tokens, "token", compact=True, decimals=1).format(lang),
             "time": Figure.duration(run["hours"]).format(lang)}
    out["time"] = text["time"].format(**shown)
    out |= {"time_range": spread("hours", duration_range).get("hours_range", "")}
    if run["cost_usd"] is None:
        return out | {"cost": text["no_price"]}
    out["cost"] = text["cost"].format(usd=usd(run["cost_usd"]))
    out |= {"cost_range": spread("cost_usd", usd).get("cost_usd_range", "")}
    out["euros"] = text["euros"].format(eur=eur(run["cost_eur"]))
    out |= {"euros_range": spread("cost_eur", eur).get("cost_eur_range", "")}
    # The price the cost is at, and when it was seen: prices of several providers and years sit side by side.
    # The reader's own price comes with the book's beside it.
    book = price(g, i)
    sourced = {} if book is None else {
        "price_from": text["price_from"].format(provider=g.price_provider, seen=fmt.month(price_seen(g, i), lang))}
    if price_usd is not None:
        return out | {"price": text["price_own"].format(price=usd(price_usd)),
                      "price_book": text["no_book_price"] if book is None else text["price_book"].format(price=usd(book))
                      } | sourced
    return out | {"price": text["price"].format(price=usd(book))} | sourced


def money_range(low: float, high: float, currency: str, lang: str) -> str:
    """A range of amounts in one unit, as the readout writes it: the high end as Figure.of writes it (millions
    in words, thousands without cents, smaller amounts with cents), the low end's number at the high end's
    scale and decimals before it (money_range_expr on the page)."""
    written = Figure.of(high, currency, decimals=2).format(lang)
    if round(high) >= 1e6:
        whole = round(high / 1e4) % 100 == 0
        numbers = [fmt.number(v / 1e6, lang, 0 if whole else 2) for v in (low, high)]
    else:
        numbers = [fmt.number(v, lang, 0 if high >= 1e3 else 2) for v in (low, high)]
    return written.replace(numbers[1], f"{numbers[0]}{fmt.DASH}{numbers[1]}", 1)


def money_range_expr(low: str, high: str, lang: str, currency: str) -> str:
    """money_range as a Vega expression."""
    def at_scale(value: str) -> str:
        millions = (f"(round({high} / 1e4) % 100 == 0 ? format({value} / 1e6, ',.0f') : "
                    f"format({value} / 1e6, ',.2f'))")
        return (f"(round({high}) >= 1e6 ? {millions} : {high} >= 1e3 ? format({value}, ',.0f') : "
                f"format({value}, ',.2f'))")
    return (f"replace({charts.money_expr(high, lang, currency)}, {at_scale(high)}, "
            f"{at_scale(low)} + {quoted(fmt.DASH)} + {at_scale(high)})")


def _labels(lang: str) -> dict[str, dict[str, str]]:
    """Each list's options as the reader reads them."""
    text = words(lang)["calculator_plan"]
    return {"model": {m: text["models"].get(m, m) for m in models()},
            "method": {m: text["methods"][m] for m in memory.METHODS},
            "targets": {t: text["targets_options"][t] for t in TARGETS},
            "gpus": {n: fmt.number(n, lang, 0) for n in NODE_GPUS},
            "sharding": {k: text["shardings"][k] for k in NODE_SHARDINGS},
            "optimizer": {k: words(lang)["plan"]["optimizers"][k] for k in memory.OPTIMIZERS},
            "attention": {a: text["attentions"][a] for a in memory.ATTENTIONS},
            "gpu": {k: g.name for k, g in load_gpus().items()},
            "speed_by": {k: text["speeds"][k] for k in SPEEDS}}


def planner_calculator(lang: str, inputs: Inputs | None = None) -> widgets.VBox:
    """The live planner for Jupyter and Binder: lists, boxes (rank, sequence, batch, accumulation, tokens;
    whole numbers in the page's number style), a node (GPUs and sharding), an optimiser, a price box (empty:
    the book's sourced price), a box for a config.json of the reader's own (pasted_shape, in place of the
    list's model), a checkbox, the speed (the book's model, or a utilisation the reader sets in its box) and
    the readout (with the peak as the sum it is), and what the job assumes (node_line)."""
    i = load_inputs() if inputs is None else inputs
    text, labels, s = words(lang)["calculator_plan"], _labels(lang), start(i)
    plan_words = words(lang)["plan"]
    lists = {name: widgets.Dropdown(options=[(label, key) for key, label in labels[name].items()], value=s[name])
             for name in ("model", "method", "targets", "attention", "gpu", "speed_by")}
    lists["gpus"] = widgets.Dropdown(options=[(fmt.number(n, lang, 0), n) for n in NODE_GPUS], value=1)
    lists["sharding"] = widgets.Dropdown(options=[(text["shardings"][k], k) for k in NODE_SHARDINGS], value="ddp")
    lists["optimizer"] = widgets.Dropdown(options=[(plan_words["optimizers"][k], k) for k in memory.OPTIMIZERS],
                                          value="adamw")
    boxes = {"rank": NumberBox(s["rank"], lang, text["rank"], "rank"),
             "seq": NumberBox(s["seq"], lang, text["seq"], "seq"),
             "batch": NumberBox(s["batch"], lang, text["batch"], "batch"),
             "grad_accum": NumberBox(1, lang, text["grad_accum"], "grad_accum"),
             "tokens": NumberBox(s["tokens"], lang, text["tokens"], "tokens"),
             "utilisation": NumberBox(s["utilisation"], lang, text["utilisation_percent"], "utilisation", 1, scale=100)}
    # The reader's price: empty for the book's sourced one (named with its provider and the date it was seen).
    price_box = widgets.Text(value="", placeholder=text["price_placeholder"], continuous_update=False,
                             layout=widgets.Layout(width="9em"))
    pasted = widgets.Textarea(value="", placeholder=text["config_placeholder"], continuous_update=False,
                              layout=widgets.Layout(width="24em", height="6em"))
    checkpointing = widgets.Checkbox(value=s["checkpointing"], indent=False)
    # The readout (the static page's lines), then what the job assumes.
    result, explained = widgets.HTML(), widgets.HTML()

    def model_defaults(change):  # a model chosen: the attention it runs by default and its utilisation, as on the page
        lists["attention"].value = memory.default_attention(shape(load_config(change["new"])))
        boxes["utilisation"].set(default_utilisation(change["new"], i))

    def method_defaults(change):  # a method chosen: gradient checkpointing as it runs by default, as on the page
        checkpointing.value = default_checkpointing(change["new"])

    def own_price() -> float | None:
        typed = price_box.value.strip()
        if not typed:
            return None
        return compute.within("price_per_gpu_hour", NumberBox(1, lang, text["price_box"], "price_per_gpu_hour", 2)
                              .parse(typed), 0.01, 10 ** 4)

    def update(_=None):
        try:
            # What the static page's sliders allow, and the boxes beyond them (BOX_LIMITS).
            values = {name: compute.within(name, box.value, *(BOX_LIMITS[name] if name in BOX_LIMITS else limits(name)),
                                           whole=name != "utilisation")
                      for name, box in boxes.items()}
            own = pasted_shape(pasted.value, lang) if pasted.value.strip() else None
            attention = lists["attention"].value if own is None else memory.default_attention(own)
            settings = dict(optimizer=lists["optimizer"].value, gpus=lists["gpus"].value, sharding=lists["sharding"].value,
                            grad_accum=int(values["grad_accum"]))
            lines = readout(lang, lists["model"].value, lists["method"].value, int(values["rank"]), lists["targets"].value,
                            int(values["seq"]), int(values["batch"]), checkpointing.value, attention,
                            lists["gpu"].value, values["tokens"], i,
                            values["utilisation"] if lists["speed_by"].value == "set" else None,
                            price_usd=own_price(), model_shape=own, **settings)
            result.value = "<br>".join(html.escape(lines[k]) for k in LINES if lines[k])
            explained.value = ""
            if lines["peak"]:  # the job was computed: what it assumes
                j = job(lists["model"].value, lists["method"].value, int(values["rank"]), lists["targets"].value,
                        int(values["seq"]), int(values["batch"]), checkpointing.value, attention, model_shape=own,
                        **settings)
                explained.value = html.escape(node_line(lang, j))
        except PlanError as exc:
            result.value, explained.value = html.escape(text["error"].format(message=message(exc, lang))), ""
        except ValueError as exc:
            result.value = html.escape(text["error"].format(message=error(in_box_units(exc, boxes.values()), lang)))
            explained.value = ""

    def idle(_=None):  # IDLE: a box that does nothing is disabled, as on the page
        for name, (other, value) in IDLE.items():
            boxes[name].widget.disabled = lists[other].value == value

    idle()
    for other, _ in IDLE.values():
        lists[other].observe(idle, names="value")
    lists["model"].observe(model_defaults, names="value")  # before update: the readout reads what they set
    lists["method"].observe(method_defaults, names="value")
    for control in (*lists.values(), checkpointing, price_box, pasted):
        control.observe(update, names="value")
    for box in boxes.values():
        box.observe(update)
    update()
    # The page's controls in its order, then those the live planner adds (a node, the optimiser, accumulation,
    # the reader's price and model).
    rows = [(text["model"], lists["model"]), (text["method"], lists["method"]), (text["rank"], boxes["rank"].widget),
            (text["targets"], lists["targets"]), (text["seq"], boxes["seq"].widget), (text["batch"], boxes["batch"].widget),
            (text["checkpointing"], checkpointing), (text["attention"], lists["attention"]), (text["gpu"], lists["gpu"]),
            (text["tokens"], boxes["tokens"].widget), (text["speed_by"], lists["speed_by"]),
            (text["utilisation_percent"], boxes["utilisation"].widget),
            (text["gpus"], lists["gpus"]), (text["sharding"], lists["sharding"]), (text["optimizer"], lists["optimizer"]),
            (text["grad_accum"], boxes["grad_accum"].widget), (text["price_box"], price_box), (text["config"], pasted)]
    box = form(rows, result)
    box.children = (*box.children, explained)
    return box


# ---------------------------------------------------------------- on the static page (Vega)

def pick(selected: str, values: dict, *, expr: bool = False) -> str:
    """A Vega expression choosing by a value: (s == 'a' ? 1 : s == 'b' ? 2 : NaN); with `expr`, the
    values are expressions, not numbers."""
    out = "NaN"
    for key, value in reversed(values.items()):
        out = f"{selected} == {json.dumps(key)} ? {value if expr else repr(float(value))} : {out}"
    return f"({out})"


def lookup(key: str, values: dict[str, float]) -> str:
    """A Vega expression looking a number up by a key in an object literal; 0 for a key it lacks (those
    whose value is 0 are left out)."""
    entries = ",".join(f"{json.dumps(k)}:{float(v)!r}" for k, v in values.items() if v)
    return f"({{{entries}}}[{key}] || 0)"


def quoted(text: str) -> str:
    """A Vega string literal of `text`, its characters as they are."""
    return json.dumps(text, ensure_ascii=False)


def template(text: str, **exprs: str) -> str:
    """A Vega string expression from a line of words with {placeholders} filled by expressions."""
    parts = []
    for literal, name, _, _ in string.Formatter().parse(text):
        if literal:
            parts.append(quoted(literal))
        if name is not None:
            parts.append(f"({exprs[name]})")
    return " + ".join(parts) or '""'

# The activation terms lib.plan.memory.terms gives a key (per token, per token and position, ...), in the
# order of each key's array in `constants` (a term a key lacks is 0).
ACTIVATION_TERMS = ("layer", "layer_seq", "outside", "outside_seq", "step_fixed", "step_weights", "step_rank", "first")


def _grouped(shapes) -> list[float]:
    """Matrix shapes (k, n) as [count, k, n, count, k, n, ...], alike shapes counted once."""
    return [x for (k, n), count in Counter(shapes).items() for x in (count, k, n)]


def constants(i: Inputs) -> dict[str, dict]:
    """What lib.plan's formula reads of each offered model, by name, for the Vega expressions (one object
    per model, looked up once as datum.m): parameters (total, active, quantised), adapters per unit of rank
    (q,v and every linear layer), layers, width, vocabulary, positions, heads, each activation key's terms
    (ACTIVATION_TERMS, lib.plan.memory.terms), the attentions it is derived for, and the step's matrices
    (lib.plan.step_time.parts: each layer's linear modules `mm`, the adapted ones `ad_qv`/`ad_all`, as
    _grouped writes them; the expert stacks `xs`, the experts `E` and the share of them a token gets) and
    its kernel launches per layer (`kl`)."""
    kernels = step_time.constants()["kernels"]
    out: dict[str, dict] = {}
    for name in models():
        s = shape(load_config(name))
        counts = param_count(s)
        modules = linear_modules(s)
        on = {t: modules if t == "all" else {n: modules[n] for n in memory.attention_targets(s)[1]} for t in TARGETS}
        lora = {t: job(name, "lora", 1, t, 128, 1, False, memory.default_attention(s)) for t in TARGETS}
        out[name] = {"total": counts["total"], "multiplied": counts["multiplied"], "quantised": memory.quantised_params(s),
                     "layers": s.layers, "hidden": s.hidden, "vocab": s.vocab, "positions": s.max_positions,
                     # the embeddings and the output layer (lib.plan.memory.whole_states, buffers)
                     "tables": s.vocab * s.hidden * (1 if s.tied_embeddings else 2),
                     "heads": s.heads, "head_dim": s.head_dim, "learned": int(s.learned_positions),
                     # grouped-query attention: QLoRA under sdpa falls back to the math kernel (memory.math_attention)
                     "gqa": int(s.kv_heads != s.heads),
                     # the key of q,v adapters' activations (GPT-2's are on c_attn)
                     "qv_key": memory.attention_targets(s)[0],
                     "attentions": _derived_attentions(s),
                     # LoRA's trainable parameters per unit of rank, as PEFT counts them (lib.plan.memory.adapter_params)
                     **{f"adapters_{t}": memory.adapter_params(lora[t]) for t in TARGETS},
                     # the gradients of expert stacks an adapter on every linear layer reaches (Mixtral's)
                     **{f"expert_flops_{t}": speed.adapted_expert_flops(lora[t]) for t in TARGETS},
                     "act": {key: [memory.terms(s, key).get(part, 0) for part in ACTIVATION_TERMS]
                             for key in memory.activation_keys(s)},
                     "mm": _grouped(modules.values()),
                     **{f"ad_{t}": _grouped(on[t].values()) for t in TARGETS},
                     **{f"n_{t}": len(on[t]) for t in TARGETS},
                     "E": s.experts, "share": s.experts_per_token / s.experts if s.experts > 1 else 0,
                     "xs": _grouped(expert_parameters(s).values()) if s.experts > 1 else [],
                     "xall": int(bool(all_linear_parameters(s))) if s.experts > 1 else 0,
                     "kl": kernels[s.arch]}
    # Every model's tables padded with zeros to the longest (a product of 0 × 0 takes no time).
    for keys in (("mm",), ("ad_qv", "ad_all"), ("xs",)):  # the adapters' two as long, either may be chosen
        longest = max(len(v[key]) for v in out.values() for key in keys)
        for v, key in itertools.product(out.values(), keys):
            v[key] = v[key] + [0] * (longest - len(v[key]))
    return out


def literal(value) -> str:
    """A Vega expression literal of a table of constants, written short (a page carries it): keys without
    quotes where they are names, strings in single quotes, numbers to ten significant digits (whole
    ones as integers), no spaces."""
    if isinstance(value, dict):
        return "{" + ",".join(f"{k if k.isidentifier() else repr(k)}:{literal(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(literal(v) for v in value) + "]"
    if isinstance(value, str):
        assert "'" not in value and "\\" not in value, value
        return f"'{value}'"
    number = float(f"{float(value):.10g}")
    return str(int(number)) if number.is_integer() else repr(number)


def fields(i: Inputs) -> dict[str, str]:
    """lib.plan.memory.parts and lib.plan.speed as Vega expressions of the controls' signals, in order
    (each may use the ones before it as datum.<name>); bytes, then GB. The chosen model's constants are
    one object, `m`, looked up once from a table of them all (constants)."""
    sig, c = SIGNALS, constants(i)
    gpus = load_gpus()
    rate = ecb_rate("USD", i.budget_rate_date)
    low, high = validation.speed_range()
    peak_low, peak_high = validation.peak_range()
    adapted = f"({sig['method']} == 'lora' || {sig['method']} == 'qlora')"
    stored = pick(sig["attention"], {a: json.dumps(memory.stored_attention(a)) for a in memory.ATTENTIONS}, expr=True)
    act_key = f"({adapted} ? ({sig['targets']} == 'all' ? 'lora-all' : datum.m.qv_key) : 'full') + '.' + {stored}"
    # Each activation term's bytes for the model and key (ACTIVATION_TERMS; 0 for a key it lacks).
    term = lambda part: f"(datum.act[{ACTIVATION_TERMS.index(part)}] || 0)"  # noqa: E731
    method = lambda values, expr=True: pick(sig["method"], values, expr=expr)  # noqa: E731
    return {
        "m": f"({OWN} && !{OWN}.error ? {OWN} : {literal(c)}[{sig['model']}])",
        "key": act_key,
        "act": "datum.m.act[datum.key] || []",
        "seq": f"round(pow(10, {sig['seq']}))",
        "batch": f"round(pow(10, {sig['batch']}))",
        "tokens": "datum.seq * datum.batch",
        "P": "datum.m.total",
        "Q": "datum.m.quantised",
        "a": f"({adapted} ? {sig['rank']} * ({sig['targets']} == 'all' ? datum.m.adapters_all : datum.m.adapters_qv) : 0)",
        "trainable": f"({adapted} ? datum.a : datum.P)",
        # the optimiser's bytes of state per trainable parameter (lib.plan.memory.optimizer_bytes)
        "per_state": f"({sig['optimizer']} == 'adamw-8bit' || {sig['optimizer']} == 'paged-adamw-8bit' ?"
                     f" {memory.BNB_8BIT_BYTES!r} : {sig['optimizer']} == 'sgd' ? 0 : {sig['optimizer']} == 'adamw' &&"
                     f" {sig['method']} == 'full-bf16' ? 4 : 8)",
        # the model states whole, on one GPU holding them all (lib.plan.memory.whole_states)
        "whole_weights": method({"full-mixed": "4 * datum.P", "full-bf16": "2 * datum.P", "lora": "2 * datum.P",
                                 "qlora": f"{memory.NF4_BYTES!r} * datum.Q + 4 * datum.m.tables + 4 * (datum.P - datum.Q"
                                          f" - datum.m.tables)"}),
        "whole_gradients": method({"full-mixed": "4 * datum.P", "full-bf16": "2 * datum.P", "lora": "4 * datum.a",
                                   "qlora": "4 * datum.a"}),
        "whole_optimizer": "datum.per_state * datum.trainable",
        # each GPU's share of them under the sharding (lib.plan.memory.shard, SHARDED)
        **{f"share_{part}": f"(indexof({json.dumps([s for s, parts in memory.SHARDED.items() if part in parts])},"
                            f" {sig['sharding']}) >= 0 ? 1 / {sig['gpus']} : 1)"
           for part in ("weights", "gradients", "optimizer")},
        "weights_bytes": "datum.whole_weights * datum.share_weights",
        "gradients_bytes": "datum.whole_gradients * datum.share_gradients",
        "optimizer_bytes": "datum.whole_optimizer * datum.share_optimizer",
        "adapters_bytes": "4 * datum.a * datum.share_weights",
        # the collectives' buffers each GPU keeps (lib.plan.memory.buffers)
        "layer_gradients": "datum.whole_gradients / datum.m.layers",
        "buffers_bytes": f"({sig['gpus']} == 1 ? 0 : {sig['sharding']} == 'ddp' ? datum.whole_gradients :"
                         f" {sig['sharding']} == 'zero2' ? datum.layer_gradients : {sig['sharding']} == 'zero3' ?"
                         f" {memory.GATHERED_BYTES!r} * (datum.m.tables + {memory.GATHERED_LAYERS!r} * (datum.P -"
                         f" datum.m.tables) / datum.m.layers) + datum.layer_gradients : 0)",
        # QLoRA of a grouped-query model under sdpa: PyTorch's math kernel, its fp32 scores and repeated keys and
        # values (lib.plan.memory.math_layer_bytes)
        "math": f"{sig['method']} == 'qlora' && {sig['attention']} == 'sdpa' && datum.m.gqa == 1",
        "layer": f"{term('layer')} + {term('layer_seq')} * datum.seq + (datum.math ? {memory.MATH_SCORE_BYTES!r}"
                 f" * datum.m.heads * datum.seq + {memory.MATH_REPEATED_KV_BYTES!r} * datum.m.heads * datum.m.head_dim : 0)",
        "outside": f"{term('outside')} + {term('outside_seq')} * datum.seq",
        # per layer and step: an adapted expert stack and its factors, twice as wide in QLoRA's fp32 experts
        "step": f"{term('step_fixed')} + ({sig['method']} == 'qlora' ? 2 : 1)"
                f" * ({term('step_weights')} + {sig['rank']} * {term('step_rank')})",
        "one_layer": "datum.layer * datum.tokens + datum.step",
        "saved_plain": f"datum.m.layers * datum.one_layer + (datum.outside + {term('first')}) * datum.tokens",
        "saved": f"({sig['checkpointing']} ? (datum.m.layers * {memory.LAYER_INPUT_BYTES} * datum.m.hidden"
                 f" + datum.outside) * datum.tokens : datum.saved_plain)",
        # autocast's bf16 copy: none under ZeRO-3 on a node, whose gathered bf16 weights are the compute copy
        "autocast": f"({sig['method']} == 'full-mixed' && !({sig['gpus']} > 1 && {sig['sharding']} == 'zero3') ?"
                    f" 2 * datum.P : 0)",
        # what is alive at the peak (lib.plan.memory.peak_terms), each term as alive_<name> (0 where it is not)
        "alive_weights": "datum.weights_bytes",
        "alive_adapters": "datum.adapters_bytes",
        "alive_optimizer": "datum.optimizer_bytes",
        "alive_buffers": "datum.buffers_bytes",
        "loss": f"{memory.LOSS_GRADIENT_BYTES} * datum.m.vocab * datum.tokens",
        "rebuilt": f"({sig['checkpointing']} ? datum.one_layer : 0)",
        "accumulated": f"({sig['grad_accum']} > 1 ? datum.gradients_bytes : 0)",
        "begin": "datum.saved + datum.autocast + datum.loss + datum.rebuilt + datum.accumulated",
        "end": "datum.gradients_bytes + datum.one_layer",
        "at_start": "datum.begin >= datum.end",
        "alive_activations": "(datum.at_start ? datum.saved : 0)",
        "alive_autocast": "(datum.at_start ? datum.autocast : 0)",
        "alive_loss_gradient": "(datum.at_start ? datum.loss : 0)",
        "alive_rebuilt_layer": "(datum.at_start ? datum.rebuilt : 0)",
        "alive_gradients": "(datum.at_start ? datum.accumulated : datum.gradients_bytes)",
        "alive_layer_activations": "(datum.at_start ? 0 : datum.one_layer)",
        "activations_bytes": "datum.saved + datum.autocast",
        # summed in peak_terms' order, as lib sums them
        "peak_bytes": " + ".join(f"datum.alive_{k}" for k in TERMS),
        # A figure the GPU's source does not give is -1 (unverified): the lines say so.
        "gpu_memory": pick(sig["gpu"], {k: -1 if gpu_memory(g, i) is None else gpu_memory(g, i) for k, g in gpus.items()}),
        # the bytes a job can use, as the card's driver reports them (lib.plan.gpus.capacity_bytes)
        "capacity": pick(sig["gpu"], {k: -1 if capacity_bytes(g, i) is None else capacity_bytes(g, i)
                                      for k, g in gpus.items()}),
        "bf16": pick(sig["gpu"], {k: -1 if g.bf16_flops is None else g.bf16_flops for k, g in gpus.items()}),
        "bandwidth": pick(sig["gpu"], {k: -1 if g.bandwidth is None else g.bandwidth for k, g in gpus.items()}),
        # GPU to GPU, both directions together (lib.plan.step_time.collectives)
        "interconnect": pick(sig["gpu"], {k: -1 if g.interconnect is None else g.interconnect for k, g in gpus.items()}),
        "book_price": pick(sig["gpu"], {k: -1 if price(g, i) is None else price(g, i) for k, g in gpus.items()}),
        # the reader's price per GPU-hour where set (above 0), else the book's
        "price": f"({sig['price']} > 0 ? {sig['price']} : datum.book_price)",
        # Whether the peak and the CUDA context fit (1), do not (0), or the memory is unverified (-1); whether
        # a paged optimiser's job that does not fit runs by paging its states (lib.plan.speed.fits_with_paging);
        # a job that does not fit either way, a GPU whose peak is unverified, or a node whose interconnect is,
        # has no time or cost (lib.plan.speed.on_gpu).
        "fit": f"(datum.capacity < 0 ? -1 : datum.peak_bytes + {speed.CUDA_CONTEXT_GB!r} * 1e9 <= datum.capacity ? 1 : 0)",
        # the peak's range, by its measured error (lib.plan.speed.peak_range), and where it says otherwise
        # than the peak whether the job fits (lib.plan.speed.fit_margin)
        "peak_low": f"datum.peak_bytes * {peak_low!r}",
        "peak_high": f"datum.peak_bytes * {peak_high!r}",
        "margin": f"(datum.fit == 1 && datum.peak_high + {speed.CUDA_CONTEXT_GB!r} * 1e9 > datum.capacity ? 'not_at_top' :"
                  f" datum.fit == 0 && datum.peak_low + {speed.CUDA_CONTEXT_GB!r} * 1e9 <= datum.capacity ? 'at_bottom' : '')",
        "paged": f"indexof({json.dumps(list(memory.PAGED))}, {sig['optimizer']}) >= 0 && datum.fit == 0 &&"
                 f" datum.peak_bytes - datum.optimizer_bytes + {speed.CUDA_CONTEXT_GB!r} * 1e9 <= datum.capacity",
        "by_model": f"{sig['speed_by']} == 'model'",
        "linked": f"{sig['gpus']} == 1 || datum.interconnect >= 0",
        "peaked": "datum.bf16 >= 0 && (!datum.by_model || datum.bandwidth >= 0) && datum.linked",
        "timed": "(datum.fit != 0 || datum.paged) && datum.peaked",
        "flops": f"{i.flops_per_param_token!r} * datum.m.multiplied"
                 f" * ({sig['method']} == 'lora' ? {speed.lora_flops_share(i)!r} : 1)"
                 f" + ({adapted} ? ({sig['targets']} == 'all' ? datum.m.expert_flops_all : datum.m.expert_flops_qv) : 0)",
        **step_fields(next(iter(c.values()))),
        # the node's tokens a second (every GPU's), and the utilisation of its GPUs' peak
        "tps": f"(datum.by_model ? {sig['gpus']} * datum.tokens / datum.step_seconds :"
               f" {sig['utilisation']} * datum.bf16 * {sig['gpus']} / datum.flops)",
        "mfu": f"(datum.by_model ? datum.tps * datum.flops / (datum.bf16 * {sig['gpus']}) : {sig['utilisation']})",
        "tps_low": f"datum.tps * {low!r}",
        "tps_high": f"datum.tps * {high!r}",
        "trained": f"round(pow(10, {sig['tokens']}))",
        # more tokens a second, fewer hours: the hours' low end is at the speed's high end
        **{f"hours{end}": f"datum.trained / datum.tps{other} / 3600"
           for end, other in (("", ""), ("_low", "_high"), ("_high", "_low"))},
        # hours × price per GPU-hour × GPUs
        **{f"usd{end}": f"datum.hours{end} * datum.price * {sig['gpus']}" for end in ("", "_low", "_high")},
        **{f"eur{end}": f"datum.usd{end} / {rate!r}" for end in ("", "_low", "_high")},
        # a step's sequences, over every micro-batch and GPU (lib.plan.memory.Job.global_batch)
        "global_seqs": f"datum.batch * {sig['grad_accum']} * {sig['gpus']}",
        # a sequence beyond the model's positions: computed with a warning, but for a learned position table
        # (GPT-2's), which has no row for it (lib.plan.memory.Job refuses it)
        "beyond": "datum.seq > datum.m.positions",
        "refused": "datum.beyond && datum.m.learned == 1",
        "derived": f"indexof(datum.m.attentions, {sig['attention']}) >= 0 ? 1 : 0",
        # a pasted config.json refused (its message is under the box)
        "unread": f"{OWN} && {OWN}.error ? 1 : 0",
        # whether the readout computes the job (else its first two lines say why)
        "computed": "!datum.unread && !datum.refused && datum.derived == 1",
    }


def step_fields(tables: dict) -> dict[str, str]:
    """lib.plan.step_time.parts as Vega expressions (after fields' memory, which they read: the states, the
    activations without checkpointing), from the same constants (lib/data/plan/speed.toml through
    step_time.constants, step_time's own, the model's tables in datum.m: constants, as long as
    those of `tables`, any model's): the seconds of a
    step's matrix products, attention, memory-bound work and launches, and `step_seconds`, the slower of
    the GPU's work and the launches. Each table of matrices ([count, k, n, ...]) is summed slot by slot."""
    sig, c = SIGNALS, step_time.constants()
    gemm, bandwidth = "datum.gemm", "datum.bw"

    def mm(m: str, k: str, n: str) -> str:  # step_time._matmul: FLOPs or bytes, the slower
        return f"max(2 * {m} * {k} * {n} / {gemm}, 2 * ({k} * {n} + {m} * ({k} + {n})) / {bandwidth})"

    def summed(table: str, length: int, m: str, each=None) -> str:  # the products of a table's matrices, counted
        each = each or (lambda k, n: mm(m, k, n))
        return " + ".join(f"{table}[{j}] * ({each(f'{table}[{j + 1}]', f'{table}[{j + 2}]')})"
                          for j in range(0, length, 3)) or "0"

    adapted = f"({sig['method']} == 'lora' || {sig['method']} == 'qlora')"
    times = "(datum.passes + 1 + datum.trains)"  # forward passes, the inputs' gradient, the weights' where they train
    k = c["kernels"]
    flops = f"4 * datum.batch * datum.seq * datum.seq * datum.m.heads * datum.m.head_dim"
    scores = {kind: f"datum.batch * datum.m.heads * datum.seq * datum.seq * {b!r}"
              for kind, b in step_time.SCORE_BYTES.items()}
    fused = " || ".join(f"{sig['attention']} == {json.dumps(a)}" for a in memory.FUSED)
    traffic = c["traffic"]
    routed = "datum.tokens * datum.m.share"  # the tokens an expert gets (step_time._routed)
    return {
        "gemm": f"datum.bf16 * {c['gemm']['fraction']!r}",
        "bw": f"datum.bandwidth * {c['bandwidth']['fraction']!r}",
        "passes": f"({sig['checkpointing']} ? 2 : 1)",  # forward passes: again under checkpointing
        "trains": f"({adapted} ? 0 : 1)",
        # how many of a layer's experts some token is routed to, and the products of their stacks (0 for a dense model)
        "hit": "(datum.m.E > 1 ? datum.m.E * (1 - pow(1 - datum.m.share, datum.tokens)) : 0)",
        "stacks": summed("datum.m.xs", len(tables["xs"]), routed),
        "per_layer": f"({summed('datum.m.mm', len(tables['mm']), 'datum.tokens')}) * {times} + (datum.m.E > 1 ?"
                     f" ({mm('datum.tokens', 'datum.m.hidden', 'datum.m.E')} + datum.hit * datum.stacks) * {times} : 0)",
        "lora": f"({sig['targets']} == 'all' ? datum.m.ad_all : datum.m.ad_qv)",
        "adapters": f"({adapted} ? " + summed("datum.lora", len(tables["ad_qv"]), "datum.tokens", lambda a, b: (
            f"{mm('datum.tokens', a, sig['rank'])} + {mm('datum.tokens', sig['rank'], b)}")) + " : 0)",
        # "all-linear" adapts every layer's experts (memory.Job.expert_layers): their weights' gradients
        "matmul": f"datum.m.layers * datum.per_layer + ({adapted} && {sig['targets']} == 'all' && datum.m.xall == 1 ?"
                  f" datum.m.layers * datum.hit * datum.stacks : 0) + datum.m.layers * datum.adapters * (datum.passes + 2)"
                  f" + {mm('datum.tokens', 'datum.m.hidden', 'datum.m.vocab')} * {times}",
        "attention": f"datum.m.layers * (!datum.math && ({fused}) ? {flops} * {step_time.CAUSAL_SHARE!r}"
                     f" * (datum.passes + {step_time.ATTENTION_BACKWARD!r}) / (datum.bf16 * {c['attention']['fraction']!r})"
                     f" : {flops} * (datum.passes + 2) / {gemm} + (datum.math ? {scores['math']} : {scores['eager']})"
                     f" * (datum.passes + 2) / {bandwidth})",
        # autocast's copy of each fp32 weight (ZeRO-3: of its shard); the optimiser's step over the states, once
        # an optimiser step (divided by the accumulation)
        "moved": f"({sig['method']} == 'qlora' ? datum.Q * ({memory.NF4_BYTES!r} + 2) * (datum.passes + 1) : 0)"
                 f" + ({sig['method']} == 'full-mixed' ? datum.P * (4 + 2) * datum.passes * datum.share_weights : 0)"
                 f" + (({sig['method']} == 'full-mixed' ? 4 : {sig['method']} == 'full-bf16' ? 2 : 0) * datum.P * 2"
                 f" * datum.share_optimizer + datum.gradients_bytes + 2 * datum.optimizer_bytes + 2 * datum.adapters_bytes)"
                 f" / {sig['grad_accum']}"
                 f" + datum.saved_plain * ({traffic['activation_passes']!r} + datum.passes - 1)"
                 f" + datum.tokens * datum.m.vocab * {traffic['loss_bytes_per_logit']!r}",
        "launch": f"datum.m.layers * (datum.m.kl + {k['per_adapter']!r} * ({adapted} ? ({sig['targets']} == 'all' ?"
                  f" datum.m.n_all : datum.m.n_qv) : 0) + {k['per_routed_expert']!r} * datum.hit)"
                  f" * (datum.passes + {k['backward_per_forward']!r}) * {c['launch']['seconds']!r}",
        "work": f"datum.matmul + datum.attention + datum.moved / {bandwidth}",
        # a node's collectives (lib.plan.step_time.collectives): a ring moves (N − 1)/N of a buffer through each
        # GPU, at the interconnect's bandwidth one way times NCCL's share
        "ring": f"({sig['gpus']} - 1) / {sig['gpus']}",
        "gathered": f"{memory.GATHERED_BYTES!r} * datum.trainable",
        "communication": f"({sig['gpus']} == 1 ? 0 : ({sig['sharding']} == 'ddp' ? 2 * datum.ring * datum.whole_gradients"
                         f" / {sig['grad_accum']} : {sig['sharding']} == 'zero1' || {sig['sharding']} == 'zero2' ?"
                         f" datum.ring * (datum.whole_gradients + datum.gathered) / {sig['grad_accum']} :"
                         f" datum.ring * (2 * ({memory.GATHERED_BYTES!r} * datum.P) + datum.whole_gradients))"
                         f" / (datum.interconnect / 2 * {c['interconnect']['fraction']!r}))",
        # what overlaps: ZeRO-3 the whole step with its collectives, the others the backward pass's share
        # (lib.plan.step_time.backward_share)
        "backward": "(1 + datum.trains) / (datum.passes + 1 + datum.trains) * datum.work",
        "overlapped": f"({sig['gpus']} > 1 && {sig['sharding']} == 'zero3' ? max(datum.work, datum.communication) :"
                      f" datum.work - datum.backward + max(datum.backward, datum.communication))",
        "step_seconds": "max(datum.overlapped, datum.launch)",
    }


def lines(lang: str, inputs: Inputs | None = None) -> dict[str, str]:
    """The readout's lines (LINES) as Vega expressions of the fields, written as readout() writes them;
    a sequence beyond the model's positions puts the planner's message in the first line."""
    i = load_inputs() if inputs is None else inputs
    text, parts_words = words(lang)["calculator_plan"], words(lang)["plan"]["parts"]
    memory_gb = lambda part: charts.memory_expr(f"datum.{part}_bytes / 1e9", lang)  # noqa: E731
    out = {key: template(text["part"], part=quoted(parts_words[key]), memory=memory_gb(key))
           for key in ("weights", "adapters", "gradients", "optimizer", "activations", "peak")}
    count = lambda value: charts.figure_expr(value, "count", lang)  # noqa: E731
    node = SIGNALS["gpus"]
    out["node"] = f"({node} > 1 ? {template(text['node'], gpus=count(node))} : '')"
    out["buffers"] = f"({node} > 1 ? {template(text['part'], part=quoted(parts_words['buffers']), memory=memory_gb('buffers'))} : '')"
    out["adapters"] = f"(datum.adapters_bytes ? {out['adapters']} : '')"
    # the peak as the sum it is (alive_lines)
    moments = words(lang)["plan"]["moments"]
    out["alive"] = quoted(text["alive"])
    out["alive_more"] = template(text["alive_more"], moment=f"(datum.at_start ? {quoted(moments['backward_start'])} :"
                                                            f" {quoted(moments['backward_end'])})")
    for key, line in zip(TERMS, TERM_LINES):
        written = template(text["first_term" if key == TERMS[0] else "term"], term=quoted(text["terms"][key]),
                           memory=charts.memory_expr(f"datum.alive_{key} / 1e9", lang))
        out[line] = f"(datum.alive_{key} ? {written} : '')"
    out["global_batch"] = template(text["global_batch"], global_batch=count("datum.global_seqs"), seq=count("datum.seq"))
    context = quoted(Figure.of(speed.CUDA_CONTEXT_GB, "GB").format(lang))
    gpu_gb = charts.figure_expr("datum.gpu_memory", "GB", lang)
    fits = lambda key: template(text[key], context=context, memory=gpu_gb)  # noqa: E731
    out["fits"] = f"(datum.fit < 0 ? {fits('fits_unknown')} : datum.fit ? {fits('fits')} : {fits('no_fit')})"
    out["paging"] = f"(datum.paged ? {quoted(text['paging'])} : '')"
    out["peak_range"] = template(text["range"], range=charts.memory_range_expr("datum.peak_low / 1e9", "datum.peak_high / 1e9", lang))
    margin = lambda key, end: template(text[f"fit_{key}"], peak=charts.memory_expr(f"datum.peak_{end} / 1e9", lang))  # noqa: E731
    out["fit_margin"] = (f"(datum.margin == 'not_at_top' ? {margin('not_at_top', 'high')} :"
                         f" datum.margin == 'at_bottom' ? {margin('at_bottom', 'low')} : '')")
    mfu = charts.percent_expr("datum.mfu", lang)
    tps = lambda value: template(text["per_second"], tps=charts.count_expr(value, "token", lang))  # noqa: E731

    def spread(field: str, written, priced: bool = False) -> str:  # the range under a figure, by the speed model
        shown = template(text["range"], range=written(f"datum.{field}_low", f"datum.{field}_high"))
        return f"(datum.timed && datum.by_model{' && datum.price >= 0' if priced else ''} ? {shown} : '')"

    unlinked = "!datum.linked && datum.bf16 >= 0 && datum.bandwidth >= 0"  # a node's interconnect unverified
    out["speed"] = (f"(datum.fit == 0 && !datum.paged ? {quoted(text['no_fit_time'])} : !datum.peaked ? ({unlinked} ?"
                    f" {quoted(text['no_link'])} : {quoted(text['no_peak'])}) : "
                    f"{template(text['speed'], tps=tps('datum.tps'), mfu=mfu)})")
    out["speed_range"] = spread("tps", lambda low, high: template(text["per_second"], tps=charts.range_expr(low, high, "token", lang)))
    shown = {"tokens": charts.compact_count_expr("datum.trained", "token", lang),
             "time": charts.duration_expr("datum.hours", "datum.hours", lang)}
    out["time"] = f"(datum.timed ? {template(text['time'], **shown)} : '')"
    out["time_range"] = spread("hours", lambda low, high: charts.duration_expr(low, high, lang))
    usd = lambda value: charts.money_expr(value, lang)  # noqa: E731
    eur = lambda value: charts.money_expr(value, lang, "EUR")  # noqa: E731
    out["cost"] = (f"(!datum.timed ? '' : datum.price < 0 ? {quoted(text['no_price'])} : "
                   f"{template(text['cost'], usd=usd('datum.usd'))})")
    out["cost_range"] = spread("usd", lambda low, high: money_range_expr(low, high, lang, "USD"), priced=True)
    out["euros"] = f"(datum.timed && datum.price >= 0 ? {template(text['euros'], eur=eur('datum.eur'))} : '')"
    out["euros_range"] = spread("eur", lambda low, high: money_range_expr(low, high, lang, "EUR"), priced=True)
    seen = pick(SIGNALS["gpu"], {k: quoted(fmt.month(price_seen(g, i), lang))
                                 for k, g in load_gpus().items() if price(g, i) is not None}, expr=True)
    provider = pick(SIGNALS["gpu"], {k: quoted(g.price_provider or "") for k, g in load_gpus().items()
                                     if price(g, i) is not None}, expr=True)
    # The price the cost is at: the reader's (the signal above 0), with the book's beside it, or the book's.
    # datum.usd and datum.book_price, not datum.price: the line "price" before them takes that name in the
    # readout's data.
    own = f"{SIGNALS['price']} > 0"
    priced = "datum.timed && datum.usd >= 0"
    out["price"] = (f"({priced} ? ({own} ? {template(text['price_own'], price=usd(SIGNALS['price']))} :"
                    f" {template(text['price'], price=usd('datum.book_price'))}) : '')")
    out["price_book"] = (f"({priced} && {own} ? (datum.book_price < 0 ? {quoted(text['no_book_price'])} :"
                         f" {template(text['price_book'], price=usd('datum.book_price'))}) : '')")
    out["price_from"] = (f"({priced} && datum.book_price >= 0 ? "
                         f"{template(text['price_from'], provider=provider, seen=seen)} : '')")
    positions = "datum.m.positions"
    for key in ("warning", "warning_more"):  # lib.plan.memory.warnings' seq_beyond
        out[key] = f"(datum.beyond ? {template(text[key], seq=count('datum.seq'), positions=count(positions))} : '')"
    out |= note_lines(lang, i)
    beyond = {LINES[0]: template(text["beyond"], seq=count("datum.seq")),
              LINES[1]: template(text["beyond_more"], positions=count(positions))}
    # the attentions the model's activations are derived for, one message for the models that share it
    by_message: dict[str, list[str]] = {}
    for m in models():
        names = _attention_names(_derived_attentions(shape(load_config(m))), lang)
        by_message.setdefault(text["no_attention"].format(attention=names), []).append(m)
    choose = "".join(f"indexof({literal(ms)}, {SIGNALS['model']}) >= 0 ? {quoted(said)} : "
                     for said, ms in by_message.items())
    # a pasted model's message is its own (own_options: written with its attentions' names)
    not_derived = {LINES[0]: f"({OWN} ? {OWN}.no_attention : {choose}'')", LINES[1]: quoted(text["no_attention_more"])}
    unread = {LINES[0]: quoted(text["config_bad"]), LINES[1]: quoted(text["config_bad_more"])}
    assert set(out) == set(LINES)
    return {key: f"(datum.unread ? {unread[key]} : datum.refused ? {beyond[key]} : datum.derived != 1 ?"
                 f" {not_derived[key]} : {out[key]})" if key in beyond else f"(datum.computed ? {out[key]} : '')"
            for key in LINES}


def own_options(lang: str) -> dict:
    """What book/_static/calculator.js needs to plan a pasted config.json as lib.plan plans a config's file
    (lib.plan.shapes.shape and param_count, lib.plan.memory's adapters and activation terms, `constants`,
    written again in JS and tested against these in tests/test_browser.py): the architectures it knows, the
    activations' coefficients of each (lib/data/plan/activations.toml), the kernels each launches a layer,
    the attentions, the tables' lengths the page's expressions sum over, and its words in `lang` (the box,
    the messages of lib.plan.errors)."""
    text, plan_words = words(lang)["calculator_plan"], words(lang)["plan"]
    table = constants(load_inputs())
    first = next(iter(table.values()))
    return {"signal": OWN, "model": SIGNALS["model"], "attention": SIGNALS["attention"],
            "architectures": {k: list(v) for k, v in ARCHITECTURES.items()},
            # the coefficients memory.terms reads (not the fits' residuals)
            "coefficients": {arch: {method: {a: {k: v for k, v in c.items() if not k.startswith("fit_")}
                                             for a, c in by_attention.items()}
                                    for method, by_attention in methods.items()}
                             for arch, methods in memory.coefficients().items()},
            "kernels": step_time.constants()["kernels"],
            "attentions": list(memory.ATTENTIONS), "stored": {a: memory.stored_attention(a) for a in memory.ATTENTIONS},
            "terms": list(ACTIVATION_TERMS), "rank": memory.DERIVED_RANK,
            "lengths": {k: len(first[k]) for k in ("mm", "ad_qv", "ad_all", "xs")},
            "words": {"label": text["config"], "placeholder": text["config_placeholder"], "used": text["config_used"],
                      "path": text["pasted"], "error": text["error"],
                      "no_attention": text["no_attention"],
                      "attentions": {a: text["attentions"][a].split(" ")[0] for a in memory.ATTENTIONS},
                      "errors": {k: plan_words["errors"][k] for k in ("not_json", "not_object", "bad_field", "missing_field",
                                                                      "unknown_arch", "arch_not_derived")}}}


def note_lines(lang: str, i: Inputs) -> dict[str, str]:
    """The notes as Vega expressions: the words `notes` writes, for the jobs each is about."""
    experts = notes(lang, next(m for m in models() if fused_experts(m)), "qlora", i)["experts"]
    measured = notes(lang, article1.GPTOSS_FT_MODEL, "lora", i)
    example = f"!{OWN} && {SIGNALS['model']} == {quoted(article1.GPTOSS_FT_MODEL)}"
    # fused experts: a mixture of experts' (fused_experts: its expert parameters), the list's or a pasted one
    return {"experts": f"({SIGNALS['method']} == 'qlora' && datum.m.E > 1 ? {quoted(experts)} : '')",
            **{key: f"({example} ? {quoted(measured[key])} : '')" for key in ("measured", "measured_more")}}


def planner_chart(lang: str, inputs: Inputs | None = None) -> alt.Chart:
    """The planner on the static page: lists of the models, methods, targets, sequences, attentions, GPUs and
    how the speed is computed (SPEEDS), sliders for the rank, the batch, the tokens (in powers of ten) and the
    utilisation a reader sets, a checkbox for gradient checkpointing, and the readout, all starting at `start`."""
    i = load_inputs() if inputs is None else inputs
    text, labels, s = words(lang)["calculator_plan"], _labels(lang), start(i)

    def select(name: str, value, **expr: str) -> alt.Parameter:
        options = list(labels[name])
        return alt.param(name=SIGNALS[name], value=value, **expr,
                         bind=alt.binding_select(options=options, labels=list(labels[name].values()), name=text[name] + " "))

    def slider(name: str, value: float, **expr: str) -> alt.Parameter:
        low, high, step = RANGES[name]
        label = text["price_slider" if name == "price" else name]
        return alt.param(name=SIGNALS[name], value=value, **expr,
                         bind=alt.binding_range(min=low, max=high, step=step, name=label + " "))

    # Choosing a model sets the attention it runs by default (eager for gpt-oss, sdpa for the others), as the
    # widget does: Vega evaluates the expression again whenever the model changes (usermeta "react", charts.live_spec).
    others = ",".join(f"{quoted(m)}:{quoted(a)}" for m in models()
                      if (a := memory.default_attention(shape(load_config(m)))) != START["attention"])
    attention = select("attention", s["attention"],
                       expr=f"({{{others}}}[{SIGNALS['model']}] || {quoted(START['attention'])})")
    # Likewise the utilisation (the cookbook example's for gpt-oss-20b, PaLM's for the others) and, with the
    # method, gradient checkpointing (on for QLoRA).
    example = quoted(article1.GPTOSS_FT_MODEL)
    utilisation = slider("utilisation", s["utilisation"], expr=f"({SIGNALS['model']} == {example} ? "
                         f"{default_utilisation(article1.GPTOSS_FT_MODEL, i)!r} : {i.palm_mfu!r})")
    params = [select("model", s["model"]), select("method", s["method"]), slider("rank", s["rank"]),
              select("targets", s["targets"]), slider("seq", math.log10(s["seq"])), slider("batch", math.log10(s["batch"])),
              alt.param(name=SIGNALS["checkpointing"], value=s["checkpointing"], expr=f"indexof({json.dumps(list(CHECKPOINTED_METHODS))}, {SIGNALS['method']}) >= 0",
                        bind=alt.binding_checkbox(name=text["checkpointing"] + " ")),
              attention, select("gpu", s["gpu"]), select("gpus", s["gpus"]), select("sharding", s["sharding"]),
              select("optimizer", s["optimizer"]), slider("grad_accum", s["grad_accum"]), slider("price", s["price"]),
              slider("tokens", math.log10(s["tokens"])), select("speed_by", s["speed_by"]), utilisation]
    powers = [SIGNALS[name] for name in POWERS]
    params.append(alt.param(name=OWN, value=None))
    return charts.readout_chart(lines(lang, i), params, lang, text["title"], fields=fields(i), powers=powers,
                                whole=powers, blanks=True, own=own_options(lang),
                                idle={SIGNALS[name]: (SIGNALS[other], value) for name, (other, value) in IDLE.items()},
                                react={SIGNALS["attention"]: SIGNALS["model"], SIGNALS["utilisation"]: SIGNALS["model"],
                                       SIGNALS["checkpointing"]: SIGNALS["method"]})
