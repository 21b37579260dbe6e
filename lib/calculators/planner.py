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
from lib.plan import memory, speed
from lib.plan.errors import PlanError, message
from lib.plan.gpus import Gpu, load_gpus, price, price_seen
from lib.plan.gpus import memory as gpu_memory
from lib.plan.shapes import SHIPPED, expert_parameters, load_config, param_count, shape
from lib.site import charts

# The sequences offered: powers of two from 128 tokens to the longest context a shipped model has.
SEQS = tuple(2 ** k for k in range(7, 18))
# The adapters offered: the attention's query and value matrices (the LoRA paper's; GPT-2 holds them with the
# keys in one module, c_attn, which is adapted instead: lib.plan.memory.attention_targets), or every linear layer.
TARGETS = {"qv": ("q_proj", "v_proj"), "all": memory.ALL_LINEAR}
# The sliders: LoRA's ranks up to 256 (the LoRA paper tries 1 to 64), batches up to 64 sequences, and
# the tokens to train in powers of ten, from a million (a small fine-tuning set) to ten trillion.
# The utilisation of the GPU's bf16 peak (a model FLOPs utilisation), from 1 % (OpenAI's gpt-oss-20b example
# runs at a few: the first article's claim) to all of it, in steps of a tenth of a percent; it starts at PaLM's.
RANGES = {"rank": (1, 256, 1), "batch": (1, 64, 1), "tokens": (6, 13, 0.01), "utilisation": (0.01, 1, 0.001)}
SIGNALS = {name: f"plan_{name}" for name in ("model", "method", "rank", "targets", "seq", "batch", "checkpointing",
                                             "attention", "gpu", "tokens", "utilisation")}
# The readout's lines; the last three are notes, empty but for the jobs they are about (notes).
LINES = ("weights", "adapters", "gradients", "optimizer", "activations", "peak", "fits", "speed", "time", "cost", "euros",
         "price", "experts", "measured", "measured_more")
TIME_LINES = ("speed", "time", "cost", "euros", "price")
START = {"model": "llama-7b", "method": "lora", "targets": "qv", "checkpointing": False, "attention": "sdpa",
         "gpu": "h100-sxm"}


def job(model: str, method: str, rank: int, targets: str, seq: int, batch: int, checkpointing: bool,
        attention: str) -> memory.Job:
    """The planner's job for the calculator's settings (a PlanError for a setting it refuses)."""
    if targets not in TARGETS:
        raise PlanError("unknown_target", names=targets, known=", ".join(TARGETS), all=memory.ALL_LINEAR)
    s = shape(load_config(model))
    modules = memory.attention_targets(s)[1] if targets == "qv" else TARGETS[targets]
    return memory.Job(s, method, seq=seq, batch=batch, checkpointing=checkpointing, attention=attention, rank=rank,
                      targets=modules)


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


def notes(lang: str, model: str, method: str, i: Inputs) -> dict[str, str]:
    """The readout's notes: for QLoRA of a model with fused experts, that they stay in fp32 (its weights
    outweigh LoRA's); for the model of OpenAI's fine-tuning example, the utilisation of the H100's peak
    at which the planner runs the example in its measured time, as the first article's chapter computes it
    (lib.chapters.article1.gptoss_ft), for the reader to set the utilisation there."""
    text = words(lang)["calculator_plan"]
    out = dict.fromkeys(LINES[-3:], "")
    if method == "qlora" and fused_experts(model):
        out["experts"] = text["qlora_experts"]
    if model == article1.GPTOSS_FT_MODEL:
        mfu = Figure.of(article1.gptoss_ft(i)["utilisation"], "fraction", decimals=1).format(lang)
        out |= {"measured": text["measured"], "measured_more": text["measured_more"].format(mfu=mfu)}
    return out


def _derived_attentions(s) -> list[str]:
    """The attentions the planner's activations are derived with for the shape, in the planner's order."""
    derived = {key.split(".")[1] for key in memory.activation_keys(s)}
    return [a for a in memory.ATTENTIONS if a in derived]


def _attention_names(attentions: list[str], lang: str) -> str:
    """The attentions as the list of options names them, short: "eager"; "fused (SDPA, the default)"."""
    return ", ".join(a.split(" ")[0] for a in (words(lang)["calculator_plan"]["attentions"][x] for x in attentions))


def limits(name: str) -> tuple[float, float]:
    """The lowest and highest value a slider takes, in the reader's units (tokens, not their power of ten)."""
    low, high, _ = RANGES[name]
    return (10.0 ** low, 10.0 ** high) if name == "tokens" else (low, high)


def readout(lang: str, model: str, method: str, rank: int, targets: str, seq: int, batch: int, checkpointing: bool,
            attention: str, gpu: str, tokens: float, inputs: Inputs | None = None, utilisation: float | None = None
            ) -> dict[str, str]:
    """The lines (LINES) in `lang`, from lib.plan; a sequence beyond the model's positions in the first two
    lines (the others empty); a PlanError for any other setting the planner refuses."""
    i = load_inputs() if inputs is None else inputs
    text, parts_words = words(lang)["calculator_plan"], words(lang)["plan"]["parts"]
    s = shape(load_config(model))
    if seq > s.max_positions:
        count = lambda n: Figure.of(n, "count").format(lang)  # noqa: E731
        return dict.fromkeys(LINES, "") | {LINES[0]: text["beyond"].format(seq=count(seq)),
                                           LINES[1]: text["beyond_more"].format(positions=count(s.max_positions))}
    derived = _derived_attentions(s)
    if attention not in derived:  # gpt-oss's sdpa: eager is the one it runs in transformers
        return dict.fromkeys(LINES, "") | {LINES[0]: text["no_attention"].format(
            attention=_attention_names(derived, lang)), LINES[1]: text["no_attention_more"]}
    j = job(model, method, rank, targets, seq, batch, checkpointing, attention)
    g = load_gpus()[gpu] if gpu in load_gpus() else None
    if g is None:
        raise PlanError("unknown_gpu", name=repr(gpu), known=", ".join(load_gpus()))
    parts = memory.parts(j)
    gb = lambda key: Figure.memory(parts[key] / 1e9).format(lang)  # noqa: E731
    lines = {key: text["part"].format(part=parts_words[key], memory=gb(key))
             for key in ("weights", "adapters", "gradients", "optimizer", "activations", "peak")}
    run = speed.on_gpu(j, g, tokens, utilisation, i)
    context = Figure.of(speed.CUDA_CONTEXT_GB, "GB").format(lang)
    lines["fits"] = (text["fits_unknown"] if run["fits"] is None else text["fits" if run["fits"] else "no_fit"]).format(
        context=context, memory=Figure.of(gpu_memory(g, i) or 0, "GB").format(lang))
    return lines | _time_lines(lang, run, tokens, g, i) | notes(lang, model, method, i)


def _time_lines(lang: str, run: dict, tokens: float, g: Gpu, i: Inputs) -> dict[str, str]:
    """The speed, time, cost, euros and price lines of a job on a GPU (lib.plan.speed.on_gpu); a job that
    does not fit it, or a GPU whose peak is unverified, gets one line that says so, and no figure."""
    text = words(lang)["calculator_plan"]
    out = dict.fromkeys(TIME_LINES, "")
    if run["fits"] is False:
        return out | {"speed": text["no_fit_time"]}
    if run["tokens_per_second"] is None:
        return out | {"speed": text["no_peak"]}
    mfu = Figure.of(run["mfu"], "fraction", decimals=1).format(lang)
    out["speed"] = text["speed"].format(tps=Figure.of(run["tokens_per_second"], "token").format(lang), mfu=mfu)
    shown = {"tokens": Figure.of(tokens, "token", compact=True, decimals=1).format(lang),
             "time": Figure.duration(run["hours"]).format(lang)}
    out["time"] = text["time"].format(**shown)
    if run["cost_usd"] is None:
        return out | {"cost": text["no_price"]}
    out["cost"] = text["cost"].format(usd=Figure.of(run["cost_usd"], "USD", decimals=2).format(lang))
    out["euros"] = text["euros"].format(eur=Figure.of(run["cost_eur"], "EUR", decimals=2).format(lang))
    # The price the cost is at, and when it was seen: prices of several providers and years sit side by side.
    out["price"] = text["price"].format(price=Figure.of(price(g, i), "USD", decimals=2).format(lang),
                                        seen=fmt.month(price_seen(g, i), lang))
    return out


def _labels(lang: str) -> dict[str, dict[str, str]]:
    """Each list's options as the reader reads them."""
    text = words(lang)["calculator_plan"]
    return {"model": {m: text["models"].get(m, m) for m in models()},
            "method": {m: text["methods"][m] for m in memory.METHODS},
            "targets": {t: text["targets_options"][t] for t in TARGETS},
            "seq": {str(s): Figure.of(s, "count").format(lang) for s in SEQS},
            "attention": {a: text["attentions"][a] for a in memory.ATTENTIONS},
            "gpu": {k: g.name for k, g in load_gpus().items()}}


def planner_calculator(lang: str, inputs: Inputs | None = None) -> widgets.VBox:
    """The live planner for Jupyter and Binder: lists, boxes (rank, batch, tokens; whole numbers in the
    page's number style), a checkbox and the readout."""
    i = load_inputs() if inputs is None else inputs
    text, labels, s = words(lang)["calculator_plan"], _labels(lang), start(i)
    lists = {name: widgets.Dropdown(options=[(label, key) for key, label in labels[name].items()],
                                    value=str(s[name]) if name == "seq" else s[name])
             for name in ("model", "method", "targets", "seq", "attention", "gpu")}
    boxes = {"rank": NumberBox(s["rank"], lang, text["rank"], "rank"),
             "batch": NumberBox(s["batch"], lang, text["batch"], "batch"),
             "tokens": NumberBox(s["tokens"], lang, text["tokens"], "tokens"),
             "utilisation": NumberBox(s["utilisation"], lang, text["utilisation_percent"], "utilisation", 1, scale=100)}
    checkpointing = widgets.Checkbox(value=s["checkpointing"], indent=False)
    result = widgets.HTML()

    def model_defaults(change):  # a model chosen: the attention it runs by default and its utilisation, as on the page
        lists["attention"].value = memory.default_attention(shape(load_config(change["new"])))
        boxes["utilisation"].set(default_utilisation(change["new"], i))

    def method_defaults(change):  # a method chosen: gradient checkpointing as it runs by default, as on the page
        checkpointing.value = default_checkpointing(change["new"])

    def update(_=None):
        try:
            # What the static page's sliders allow: whole ranks and batches, tokens from 10^6 to 10^13.
            values = {name: compute.within(name, box.value, *limits(name), whole=name != "utilisation")
                      for name, box in boxes.items()}
            lines = readout(lang, lists["model"].value, lists["method"].value, int(values["rank"]), lists["targets"].value,
                            int(lists["seq"].value), int(values["batch"]), checkpointing.value, lists["attention"].value,
                            lists["gpu"].value, values["tokens"], i, values["utilisation"])
            result.value = "<br>".join(html.escape(lines[k]) for k in LINES if lines[k])
        except PlanError as exc:
            result.value = html.escape(text["error"].format(message=message(exc, lang)))
        except ValueError as exc:
            result.value = html.escape(text["error"].format(message=error(in_box_units(exc, boxes.values()), lang)))

    lists["model"].observe(model_defaults, names="value")  # before update: the readout reads what they set
    lists["method"].observe(method_defaults, names="value")
    for control in (*lists.values(), checkpointing):
        control.observe(update, names="value")
    for box in boxes.values():
        box.observe(update)
    update()
    rows = [(text["model"], lists["model"]), (text["method"], lists["method"]), (text["rank"], boxes["rank"].widget),
            (text["targets"], lists["targets"]), (text["seq"], lists["seq"]), (text["batch"], boxes["batch"].widget),
            (text["checkpointing"], checkpointing), (text["attention"], lists["attention"]), (text["gpu"], lists["gpu"]),
            (text["tokens"], boxes["tokens"].widget), (text["utilisation_percent"], boxes["utilisation"].widget)]
    return form(rows, result)


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

def constants(i: Inputs) -> dict[str, dict[str, float]]:
    """What lib.plan's formula reads of each offered model and GPU, by name, for the Vega expressions:
    parameters (total, active, quantised), adapters per unit of rank (q,v and every linear layer),
    layers, width, vocabulary, positions, and each activation key's per-token bytes (lib.plan.memory.terms)."""
    out: dict[str, dict[str, float]] = {}
    for name in models():
        s = shape(load_config(name))
        counts = param_count(s)
        out[name] = {"total": counts["total"], "multiplied": counts["multiplied"], "quantised": memory.quantised_params(s),
                     "layers": s.layers, "hidden": s.hidden, "vocab": s.vocab, "positions": s.max_positions,
                     # LoRA's trainable parameters per unit of rank, as PEFT counts them (lib.plan.memory.adapter_params)
                     **{f"adapters_{t}": memory.adapter_params(job(name, "lora", 1, t, 128, 1, False,
                                                                   memory.default_attention(s))) for t in TARGETS},
                     # the gradients of expert stacks an adapter on every linear layer reaches (Mixtral's)
                     **{f"expert_flops_{t}": speed.adapted_expert_flops(job(name, "lora", 1, t, 128, 1, False,
                                                                          memory.default_attention(s))) for t in TARGETS}}
        for key in memory.activation_keys(s):
            out[name] |= {f"{key}|{part}": value for part, value in memory.terms(s, key).items()}
    return out


def fields(i: Inputs) -> dict[str, str]:
    """lib.plan.memory.parts and lib.plan.speed as Vega expressions of the controls' signals, in order
    (each may use the ones before it as datum.<name>); bytes, then GB."""
    sig, c = SIGNALS, constants(i)
    per_model = lambda key: pick(sig["model"], {m: v[key] for m, v in c.items()})  # noqa: E731
    gpus = load_gpus()
    rate = ecb_rate("USD", i.budget_rate_date)
    adapted = f"({sig['method']} == 'lora' || {sig['method']} == 'qlora')"
    attention_key = pick(sig["model"], {m: json.dumps(memory.attention_targets(shape(load_config(m)))[0]) for m in c},
                         expr=True)
    act_key = (f"({adapted} ? ({sig['targets']} == 'all' ? 'lora-all' : {attention_key}) : 'full')"
               f" + '.' + {sig['attention']}")
    # Each part's bytes by model and activation key, as an object looked up by "model|key" (shorter than
    # a chain of comparisons; a part a key does not have is 0).
    by_key = lambda part: lookup(f"{sig['model']} + '|' + datum.key", {  # noqa: E731
        f"{m}|{k.removesuffix('|' + part)}": x for m, v in c.items() for k, x in v.items() if k.endswith("|" + part)})
    method = lambda values, expr=True: pick(sig["method"], values, expr=expr)  # noqa: E731
    return {
        "key": act_key,
        "seq": f"toNumber({sig['seq']})",
        "tokens": f"datum.seq * {sig['batch']}",
        "P": per_model("total"),
        "Q": per_model("quantised"),
        "a": f"({adapted} ? {sig['rank']} * ({sig['targets']} == 'all' ? {per_model('adapters_all')}"
             f" : {per_model('adapters_qv')}) : 0)",
        "weights_bytes": method({"full-mixed": "4 * datum.P", "full-bf16": "2 * datum.P", "lora": "2 * datum.P",
                           "qlora": f"{memory.NF4_BYTES!r} * datum.Q + 4 * (datum.P - datum.Q)"}, expr=True),
        "gradients_bytes": method({"full-mixed": "4 * datum.P", "full-bf16": "2 * datum.P", "lora": "4 * datum.a",
                             "qlora": "4 * datum.a"}, expr=True),
        "optimizer_bytes": method({"full-mixed": "8 * datum.P", "full-bf16": "4 * datum.P", "lora": "8 * datum.a",
                             "qlora": "8 * datum.a"}, expr=True),
        "adapters_bytes": "4 * datum.a",
        "layer": f"{by_key('layer')} + {by_key('layer_seq')} * datum.seq",
        "outside": f"{by_key('outside')} + {by_key('outside_seq')} * datum.seq",
        # per layer and step: an adapted expert stack and its factors, twice as wide in QLoRA's fp32 experts
        "step": f"{by_key('step_fixed')} + ({sig['method']} == 'qlora' ? 2 : 1)"
                f" * ({by_key('step_weights')} + {sig['rank']} * {by_key('step_rank')})",
        "one_layer": "datum.layer * datum.tokens + datum.step",
        "saved": f"({sig['checkpointing']} ? ({per_model('layers')} * {memory.LAYER_INPUT_BYTES} * {per_model('hidden')}"
                 f" + datum.outside) * datum.tokens : {per_model('layers')} * datum.one_layer"
                 f" + (datum.outside + {by_key('first')}) * datum.tokens)",
        "autocast": f"({sig['method']} == 'full-mixed' ? 2 * datum.P : 0)",
        "begin": f"datum.saved + datum.autocast + {memory.LOSS_GRADIENT_BYTES} * {per_model('vocab')} * datum.tokens"
                 f" + ({sig['checkpointing']} ? datum.one_layer : 0)",
        "end": "datum.gradients_bytes + datum.one_layer",
        "activations_bytes": "datum.saved + datum.autocast",
        "peak_bytes": "datum.weights_bytes + datum.adapters_bytes + datum.optimizer_bytes + max(datum.begin, datum.end)",
        # A figure the GPU's source does not give is -1 (unverified): the lines say so.
        "gpu_memory": pick(sig["gpu"], {k: -1 if gpu_memory(g, i) is None else gpu_memory(g, i) for k, g in gpus.items()}),
        "bf16": pick(sig["gpu"], {k: -1 if g.bf16_flops is None else g.bf16_flops for k, g in gpus.items()}),
        "price": pick(sig["gpu"], {k: -1 if price(g, i) is None else price(g, i) for k, g in gpus.items()}),
        # Whether the peak and the CUDA context fit (1), do not (0), or the memory is unverified (-1); a job
        # that does not fit, or a GPU whose peak is unverified, has no time or cost (lib.plan.speed.on_gpu).
        "fit": f"(datum.gpu_memory < 0 ? -1 : datum.peak_bytes / 1e9 + {speed.CUDA_CONTEXT_GB!r} <= datum.gpu_memory ? 1 : 0)",
        "timed": "datum.fit != 0 && datum.bf16 >= 0",
        "flops": f"{i.flops_per_param_token!r} * {per_model('multiplied')}"
                 f" * ({sig['method']} == 'lora' ? {speed.lora_flops_share(i)!r} : 1)"
                 f" + ({adapted} ? ({sig['targets']} == 'all' ? {per_model('expert_flops_all')}"
                 f" : {per_model('expert_flops_qv')}) : 0)",
        "tps": f"{sig['utilisation']} * datum.bf16 / datum.flops",
        "trained": f"round(pow(10, {sig['tokens']}))",
        "hours": "datum.trained / datum.tps / 3600",
        "usd": "datum.hours * datum.price",
        "eur": f"datum.usd / {rate!r}",
        "beyond": f"datum.seq > {per_model('positions')}",
        "derived": pick(f"{sig['model']} + '|' + {sig['attention']}",
                        {f"{m}|{a}": 1 for m in c for a in _derived_attentions(shape(load_config(m)))}),
    }


def lines(lang: str, inputs: Inputs | None = None) -> dict[str, str]:
    """The readout's lines (LINES) as Vega expressions of the fields, written as readout() writes them;
    a sequence beyond the model's positions puts the planner's message in the first line."""
    i = load_inputs() if inputs is None else inputs
    text, parts_words = words(lang)["calculator_plan"], words(lang)["plan"]["parts"]
    memory_gb = lambda part: charts.memory_expr(f"datum.{part}_bytes / 1e9", lang)  # noqa: E731
    out = {key: template(text["part"], part=quoted(parts_words[key]), memory=memory_gb(key))
           for key in ("weights", "adapters", "gradients", "optimizer", "activations", "peak")}
    context = quoted(Figure.of(speed.CUDA_CONTEXT_GB, "GB").format(lang))
    gpu_gb = charts.figure_expr("datum.gpu_memory", "GB", lang)
    fits = lambda key: template(text[key], context=context, memory=gpu_gb)  # noqa: E731
    out["fits"] = f"(datum.fit < 0 ? {fits('fits_unknown')} : datum.fit ? {fits('fits')} : {fits('no_fit')})"
    mfu = charts.percent_expr(SIGNALS["utilisation"], lang)
    out["speed"] = (f"(datum.fit == 0 ? {quoted(text['no_fit_time'])} : datum.bf16 < 0 ? {quoted(text['no_peak'])} : "
                    f"{template(text['speed'], tps=charts.count_expr('datum.tps', 'token', lang), mfu=mfu)})")
    hours = charts.figure_expr("datum.hours", "hour", lang, 1, rounded=True)
    minutes = charts.figure_expr("datum.hours * 60", "minute", lang, 1, rounded=True)
    shown = {"tokens": charts.compact_count_expr("datum.trained", "token", lang),
             "time": f"(datum.hours >= 1 ? {hours} : {minutes})"}
    out["time"] = f"(datum.timed ? {template(text['time'], **shown)} : '')"
    out["cost"] = (f"(!datum.timed ? '' : datum.price < 0 ? {quoted(text['no_price'])} : "
                   f"{template(text['cost'], usd=charts.money_expr('datum.usd', lang))})")
    out["euros"] = f"(datum.timed && datum.price >= 0 ? {template(text['euros'], eur=charts.money_expr('datum.eur', lang, 'EUR'))} : '')"
    seen = pick(SIGNALS["gpu"], {k: quoted(fmt.month(price_seen(g, i), lang))
                                 for k, g in load_gpus().items() if g.price_usd_per_hour is not None}, expr=True)
    out["price"] = (f"(datum.timed && datum.price >= 0 ? "
                    f"{template(text['price'], price=charts.money_expr('datum.price', lang), seen=seen)} : '')")
    out |= note_lines(lang, i)
    count = lambda value: charts.figure_expr(value, "count", lang)  # noqa: E731
    positions = pick(SIGNALS["model"], {m: v["positions"] for m, v in constants(i).items()})
    beyond = {LINES[0]: template(text["beyond"], seq=count("datum.seq")),
              LINES[1]: template(text["beyond_more"], positions=count(positions))}
    not_derived = {LINES[0]: pick(SIGNALS["model"], {m: quoted(text["no_attention"].format(
                       attention=_attention_names(_derived_attentions(shape(load_config(m))), lang))) for m in models()},
                                  expr=True),
                   LINES[1]: quoted(text["no_attention_more"])}
    return {key: f"(datum.beyond ? {beyond.get(key, chr(39) * 2)} : datum.derived != 1 ? {not_derived.get(key, chr(39) * 2)}"
                 f" : {value})" for key, value in out.items()}


def note_lines(lang: str, i: Inputs) -> dict[str, str]:
    """The notes as Vega expressions: the words `notes` writes, for the jobs each is about."""
    fused = lookup(SIGNALS["model"], {m: 1 for m in models() if fused_experts(m)})
    experts = notes(lang, next(m for m in models() if fused_experts(m)), "qlora", i)["experts"]
    measured = notes(lang, article1.GPTOSS_FT_MODEL, "lora", i)
    example = f"{SIGNALS['model']} == {quoted(article1.GPTOSS_FT_MODEL)}"
    return {"experts": f"({SIGNALS['method']} == 'qlora' && {fused} ? {quoted(experts)} : '')",
            **{key: f"({example} ? {quoted(measured[key])} : '')" for key in ("measured", "measured_more")}}


def planner_chart(lang: str, inputs: Inputs | None = None) -> alt.Chart:
    """The planner on the static page: lists of the models, methods, targets, sequences, attentions and
    GPUs, sliders for the rank, the batch and the tokens (in powers of ten), a checkbox for gradient
    checkpointing, and the readout, all starting at `start`."""
    i = load_inputs() if inputs is None else inputs
    text, labels, s = words(lang)["calculator_plan"], _labels(lang), start(i)

    def select(name: str, value, **expr: str) -> alt.Parameter:
        options = list(labels[name])
        return alt.param(name=SIGNALS[name], value=value, **expr,
                         bind=alt.binding_select(options=options, labels=list(labels[name].values()), name=text[name] + " "))

    def slider(name: str, value: float, **expr: str) -> alt.Parameter:
        low, high, step = RANGES[name]
        return alt.param(name=SIGNALS[name], value=value, **expr,
                         bind=alt.binding_range(min=low, max=high, step=step, name=text[name] + " "))

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
              select("targets", s["targets"]), select("seq", str(s["seq"])), slider("batch", s["batch"]),
              alt.param(name=SIGNALS["checkpointing"], value=s["checkpointing"], expr=f"indexof({json.dumps(list(CHECKPOINTED_METHODS))}, {SIGNALS['method']}) >= 0",
                        bind=alt.binding_checkbox(name=text["checkpointing"] + " ")),
              attention, select("gpu", s["gpu"]), slider("tokens", math.log10(s["tokens"])), utilisation]
    return charts.readout_chart(lines(lang, i), params, lang, text["title"], fields=fields(i), powers=[SIGNALS["tokens"]],
                                whole=[SIGNALS["tokens"]], blanks=True,
                                react={SIGNALS["attention"]: SIGNALS["model"], SIGNALS["utilisation"]: SIGNALS["model"],
                                       SIGNALS["checkpointing"]: SIGNALS["method"]})
