"""The planner on the budget chapter's page: the static readout's Vega expressions against lib.plan on
a grid of settings (rendered with vl-convert), its start (the budget's hours and price), its controls,
the live widget (the same lines; a message in the reader's language and no number for bad input), and
every line inside the readout's frame."""

import html
import json
import itertools
import math
import re

import pandas as pd
import pytest

from lib.calculators import planner
from lib.calculators.boxes import controls
from lib.chapters import article1, budget
from lib.core.figure import Figure
from lib.core.inputs import load_inputs
from lib.core.words import words
from lib.plan import memory, speed
from lib.plan.errors import PlanError, message
from lib.plan.gpus import load_gpus
from lib.plan.shapes import SHIPPED, load_config, shape

from .conftest import LANGS
from .vega import grid_readouts, texts

I = load_inputs()
MODELS = planner.models()
GPUS = list(load_gpus())
# Every model, method, target, checkpointing and attention (8 x 4 x 2 x 2 x 2); the sequence, batch,
# rank, GPU and tokens cycle through values that reach every GPU, sequences beyond some models' positions
# (LLaMA 65B's 2,048) and not powers of two (3,000), batches from 1 to past the old slider's 64, ranks at their
# ends, and tokens from a million to ten trillion; the node (GPUs, sharding), the optimiser, the accumulation
# and the reader's price (0: the book's) cycle through a few values each, every sharding and optimiser.
SEQS, BATCHES, RANKS, POWERS = (128, 2048, 3000, 4096, 32768), (1, 3, 64, 200), (1, 16, 256), (6, 7.25, 9.5, 12.3, 13)
UTILISATIONS = (0.032, I.palm_mfu, 1.0, 0.23, 0.6, 0.37)
NODES = ((1, "ddp"), (8, "zero3"), (2, "ddp"), (1, "zero2"), (4, "zero2"), (8, "zero1"), (1, "ddp"))
OPTIMIZERS, ACCUMS, PRICES = memory.OPTIMIZERS, (1, 4, 1, 16), (0, 0, 2.5, 0, 0.37)
# The speed by the book's model on two points in three, at a utilisation the reader sets on the third.
SPEEDS = ("model", "set", "model")
GRID = [(model, method, targets, SEQS[k % 5], BATCHES[k % 4], RANKS[k % 3], ckpt, attention, GPUS[k % len(GPUS)],
         POWERS[k % 5], SPEEDS[k % 7 % 3], UTILISATIONS[k % 6], *NODES[k % 7], OPTIMIZERS[k % 11 % 5], ACCUMS[k % 4],
         PRICES[k % 13 % 5])
        for k, (model, method, targets, ckpt, attention) in enumerate(itertools.product(
            MODELS, memory.METHODS, planner.TARGETS, (False, True), memory.ATTENTIONS))]
# Two jobs whose peak's range straddles the H100's memory (lib.plan.speed.fit_margin): LLaMA 7B all in bf16,
# 13 and 14 sequences of 512 tokens; the first fits but not at its range's top, the second would at its bottom.
GRID += [("llama-7b", "full-bf16", "qv", 512, batch, 8, False, "sdpa", "h100-sxm", 8, "model", I.palm_mfu, 1, "ddp",
          "adamw", 1, 0) for batch in (13, 14)]
COLUMNS = ["model", "method", "targets", "seq", "batch", "rank", "checkpointing", "attention", "gpu", "tokens", "speed_by",
           "utilisation", "gpus", "sharding", "optimizer", "grad_accum", "price"]


def expected(lang: str, model, method, targets, seq, batch, rank, checkpointing, attention, gpu, power,
             speed_by="model", utilisation=I.palm_mfu, gpus=1, sharding="ddp", optimizer="adamw", grad_accum=1,
             price=0) -> list[str]:
    """The readout as the widget writes it from lib.plan: by the speed model, or at the utilisation set; at
    the reader's price where it is above 0, else the book's."""
    lines = planner.readout(lang, model, method, rank, targets, seq, batch, checkpointing, attention, gpu, round(10 ** power), I,
                            utilisation if speed_by == "set" else None, optimizer=optimizer, gpus=gpus,
                            sharding=sharding, grad_accum=grad_accum, price_usd=price or None)
    return [lines[k] for k in planner.LINES]


def on_grid(expressions: dict[str, str]) -> dict[str, str]:
    """The chart's expressions reading the grid's columns instead of the controls' signals."""
    out = {}
    for key, expr in expressions.items():
        for name, signal in (*planner.SIGNALS.items(), ("own", planner.OWN)):  # no model of one's own on the grid
            expr = re.sub(rf"\b{signal}\b", f"datum.{name}_setting", expr)
        out[key] = expr
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_s_readout_computes_what_lib_plan_computes_on_a_grid(lang):
    """Vega's expressions, fed every model, method, target, checkpointing and attention with cycled
    sequences, batches, ranks, GPUs and tokens, write what lib.plan and lib.core.figure give: editing the
    formula on one side only fails here."""
    # the page's sequence and batch sliders hold powers of ten
    grid = pd.DataFrame([[m, me, t, math.log10(s), math.log10(b), *rest] for m, me, t, s, b, *rest in GRID],
                        columns=[f"{c}_setting" for c in COLUMNS])
    got = grid_readouts(grid, on_grid(planner.lines(lang)), lang, fields=on_grid(planner.fields(I)),
                        order=list(planner.LINES))
    want = [expected(lang, *point) for point in GRID]
    assert len(got) == len(want) == len(GRID)
    wrong = [(p, w, g) for p, w, g in zip(GRID, want, got) if w != g]
    assert not wrong, wrong[:2]
    # The grid reaches every kind of line the GPU table makes possible: fits, does not fit, unverified
    # memory, no peak, no price.
    text, gpus = words(lang)["calculator_plan"], list(load_gpus().values())
    rows = [dict(zip(planner.LINES, w)) for w in want]
    fits = [r["fits"] for r in rows]
    for key, possible in (("fits", True), ("no_fit", True), ("fits_unknown", any(g.memory_gb is None for g in gpus))):
        head = text[key].split("{")[0]
        assert any(f.startswith(head) for f in fits) == possible, key
    assert (text["no_peak"] in [r["speed"] for r in rows]) == any(g.bf16_flops is None or g.bandwidth is None for g in gpus)
    assert (text["no_price"] in [r["cost"] for r in rows]) == any(g.price_usd_per_hour is None and g.bf16_flops for g in gpus)
    assert any(r["price"].startswith(text["price"].split("{")[0]) for r in rows)
    # A sequence beyond a learned position table's rows (GPT-2's): two lines that say so, and no figure.
    beyond = [w for w in want if w[0].startswith(text["beyond"].split("{")[0])]
    # On a node: each part is one GPU's, with the collectives' buffers; the peak is the sum of what is alive at
    # it; a paged optimiser's job that does not fit may fit by paging, and then has a time; the reader's price
    # comes with the book's beside it.
    for point, r in zip(GRID, rows):
        computed = bool(r["fits"])
        assert not computed or bool(r["node"]) == bool(r["buffers"]) == (point[12] > 1), point
        assert bool(r["alive"]) == computed and (not computed or r["term_weights"])
        assert not r["paging"] or (point[14] in memory.PAGED and r["fits"].startswith(text["no_fit"].split("{")[0])
                                   and r["speed"] != text["no_fit_time"])
        assert not r["price_book"] or point[16] > 0
    assert any(r["paging"] for r in rows) and any(r["price_book"] for r in rows) and any(r["node"] for r in rows)
    assert any(r["term_gradients"] and r["term_activations"] for r in rows)  # accumulation: gradients at the start
    assert any(r["term_layer_activations"] for r in rows)  # the end of the backward pass
    assert beyond and all(not any(w[2:]) and "GB" not in w[0] + w[1] for w in beyond)
    # Beyond rotary positions (LLaMA 7B's 2,048 at 4,096 tokens): computed, with the warning's two lines.
    warned = [(point, r) for point, r in zip(GRID, rows) if r["warning"]]
    assert warned and all(bool(r["warning_more"]) and r["peak"] and point[3] > shape(load_config(point[0])).max_positions
                          for point, r in warned)
    assert all(not r["warning"] for point, r in zip(GRID, rows) if point[3] <= shape(load_config(point[0])).max_positions)
    # The speed model's range under each of its figures, and none at a utilisation the reader sets.
    for point, r in zip(GRID, rows):
        speed_by = point[COLUMNS.index("speed_by")]
        for key in ("speed", "time", "cost", "euros"):
            timed = bool(r[key]) and r[key] not in (text["no_fit_time"], text["no_peak"], text["no_price"], text["no_link"])
            assert bool(r[f"{key}_range"]) == (timed and speed_by == "model"), (key, r)
    assert any(r["speed_range"] for r in rows) and any(r["speed"] and not r["speed_range"] for r in rows)
    # The peak's range under every computed peak, and where it says otherwise than the peak whether the job
    # fits, a line that says so, both ways.
    assert all(bool(r["peak_range"]) == bool(r["peak"]) for r in rows)
    for key in ("not_at_top", "at_bottom"):
        head = text[f"fit_{key}"].split("{")[0]
        assert any(r["fit_margin"].startswith(head) for r in rows), key
    assert all(not r["fit_margin"] or r["fits"] for r in rows)
    # A job that does not fit the GPU: one line that says so, and no speed, time or cost.
    no_fit = text["no_fit"].split("{")[0]
    unfit = [r for r in rows if r["fits"].startswith(no_fit) and not r["paging"]]
    assert unfit and all(r["speed"] == text["no_fit_time"] and not any(r[k] for k in planner.TIME_LINES[1:]) for r in unfit)
    assert all(r["speed"] != text["no_fit_time"] for r in rows if not r["fits"].startswith(no_fit) or r["paging"])
    # The notes, wherever the planner computes: QLoRA of a model with fused experts; for gpt-oss-20b, the
    # utilisation OpenAI's example ran at.
    for (model, method, *_), r in zip(GRID, rows):
        computed = bool(r["fits"])
        assert bool(r["experts"]) == (computed and method == "qlora" and planner.fused_experts(model)), (model, method)
        assert bool(r["measured"]) == bool(r["measured_more"]) == (computed and model == article1.GPTOSS_FT_MODEL), model
    assert any(r["experts"] for r in rows) and any(r["measured"] for r in rows)


@pytest.mark.parametrize("lang", LANGS)
def test_it_starts_at_the_chapter_s_example_with_what_the_budget_buys(lang):
    """The start is LLaMA 7B with LoRA on W_q and W_v at the sourced rank, the chapter's sequence and batch, on
    the H100 SXM the first article rents, and the tokens its budget's hours train: its time line gives those
    hours and the budget in dollars and in euros."""
    s = planner.start(I)
    assert (s["model"], s["method"], s["targets"], s["gpu"]) == ("llama-7b", "lora", "qv", "h100-sxm")
    assert (s["rank"], s["seq"], s["batch"]) == (I.lora_rank, budget.EXAMPLE_SEQ_LEN, budget.EXAMPLE_BATCH)
    shown = texts(planner.planner_chart(lang, I), lang)
    point = (s["model"], s["method"], s["targets"], s["seq"], s["batch"], s["rank"], s["checkpointing"], s["attention"],
             s["gpu"], math.log10(s["tokens"]), s["speed_by"], s["utilisation"])
    assert s["speed_by"] == "model"
    want = [line for line in expected(lang, *point) if line]  # an empty line draws no text
    assert shown[:len(want)] == want
    hours = budget.budget_usd(I) / load_gpus()["h100-sxm"].price_usd_per_hour
    drawn = dict(zip(planner.LINES, expected(lang, *point)))
    assert all(drawn[k] in shown for k in ("time", "cost", "euros"))
    time, cost, euros = drawn["time"], drawn["cost"], drawn["euros"]
    assert Figure.of(hours, "hour", decimals=1).format(lang) in time, time
    assert Figure.of(budget.budget_usd(I), "USD", decimals=2).format(lang) in cost, cost
    assert Figure.of(I.budget_eur, "EUR", decimals=2).format(lang) in euros, euros


def test_it_offers_every_shipped_model_the_planner_computes_and_only_those():
    """Every derived model; GPT-2's query and value adapters are on its fused c_attn."""
    for name in SHIPPED:
        s = shape(load_config(name))
        assert (name in MODELS) == (s.model_type in memory.coefficients()), name
    assert "llama-7b" in MODELS and "gpt2" in MODELS
    assert planner.job("gpt2", "lora", 4, "qv", 128, 1, False, "sdpa").targets == ("c_attn",)


def test_the_controls_have_their_own_signal_names_and_start_values():
    spec = planner.planner_chart("en", I).to_dict()
    params = {p["name"]: p for p in spec["params"]}
    assert list(params) == [*planner.SIGNALS.values(), planner.OWN]
    assert params["plan_model"]["bind"]["options"] == list(MODELS)
    assert params["plan_gpu"]["bind"]["options"] == GPUS
    assert params["plan_gpus"]["bind"]["options"] == list(range(1, 9))
    assert params["plan_sharding"]["bind"]["options"] == list(memory.SHARDINGS)
    assert params["plan_optimizer"]["bind"]["options"] == list(memory.OPTIMIZERS)
    assert spec["usermeta"]["powers"] == spec["usermeta"]["whole"] == ["plan_seq", "plan_batch", "plan_tokens"]
    # Any whole sequence, from one token to past every shipped model's positions (a warning beyond), and a
    # batch well past the old slider's 64; the price starts at 0, the book's.
    assert 10 ** planner.RANGES["seq"][1] > max(shape(load_config(m)).max_positions for m in MODELS)
    assert 10 ** planner.RANGES["batch"][1] >= 10_000 and params["plan_price"]["value"] == 0


@pytest.mark.parametrize("lang", LANGS)
def test_the_widget_writes_the_same_lines_and_follows_its_controls(lang):
    box = planner.planner_calculator(lang, I)
    model, method, rank, targets, seq, batch, checkpointing, attention, gpu, tokens, speed_by, utilisation = controls(box)[:12]
    shown = lambda: [html.unescape(line) for line in box.children[1].value.split("<br>")]  # noqa: E731
    s = planner.start(I)
    want = [w for w in expected(lang, s["model"], "lora", "qv", s["seq"], s["batch"], s["rank"], False, "sdpa", "h100-sxm",
                                math.log10(s["tokens"])) if w]
    assert shown() == want
    model.value, method.value, targets.value, seq.value, checkpointing.value = "llama-65b", "qlora", "all", "2048", True
    rank.value, batch.value, gpu.value = "64", "4", "a100-80gb"
    tokens.value = Figure.of(10 ** 8, "count").format(lang)
    assert shown() == [w for w in expected(lang, "llama-65b", "qlora", "all", 2048, 4, 64, True, "sdpa", "a100-80gb", 8) if w]
    utilisation.value = Figure.of(0.1, "fraction", decimals=1).format(lang).replace("%", "").replace("\u00a0", "").strip()
    assert shown() == [w for w in expected(lang, "llama-65b", "qlora", "all", 2048, 4, 64, True, "sdpa", "a100-80gb", 8)
                       if w]  # the utilisation counts only once the reader chooses to set it
    speed_by.value = "set"
    assert shown() == [w for w in expected(lang, "llama-65b", "qlora", "all", 2048, 4, 64, True, "sdpa", "a100-80gb", 8,
                                           "set", 0.1) if w]
    seq.value = "4096"  # beyond LLaMA 65B's positions: computed, with the warning, in the reader's language
    want = expected(lang, "llama-65b", "qlora", "all", 4096, 4, 64, True, "sdpa", "a100-80gb", 8, "set", 0.1)
    assert shown() == [w for w in want if w] and want[planner.LINES.index("warning")]
    model.value, method.value, seq.value = "gpt2", "lora", "2048"  # GPT-2's learned positions have no row for it
    assert shown() == expected(lang, "gpt2", "lora", "all", 2048, 4, 64, False, "sdpa", "a100-80gb", 8, "set", 0.1)[:2]


def test_choosing_a_model_sets_the_attention_it_runs_by_default():
    """On the page, the attention's expression gives each model's default attention (eager for gpt-oss, whose
    attention sinks transformers runs in eager attention only), and the live chart evaluates it again
    whenever the model changes."""
    import vl_convert as vlc

    from lib.site import charts

    spec = planner.planner_chart("en", I).to_dict()
    attention = next(p for p in spec["params"] if p["name"] == planner.SIGNALS["attention"])
    grid = pd.DataFrame({"model_setting": list(MODELS)})
    got = dict(grid_readouts(grid, on_grid({"model": "datum.model_setting", "attention": attention["expr"]}), "en"))
    want = {m: memory.default_attention(shape(load_config(m))) for m in MODELS}
    assert got == want and want["gpt-oss-20b"] == "eager" and want["llama-7b"] == "sdpa"
    live = charts.live_spec(vlc.vegalite_to_vega(spec, vl_version=charts.VL_VERSION), spec)
    signal = next(s for s in live["signals"] if s["name"] == planner.SIGNALS["attention"])
    assert signal["on"][0]["events"] == {"signal": planner.SIGNALS["model"]}


def test_choosing_a_model_or_a_method_sets_its_utilisation_and_checkpointing():
    """On the page, the utilisation's expression gives gpt-oss-20b the utilisation its cookbook example ran at
    and every other model PaLM's; the checkpointing's expression turns it on for QLoRA only; the live chart
    evaluates each again when the model, or the method, changes. The widget does the same."""
    import vl_convert as vlc

    from lib.site import charts

    spec = planner.planner_chart("en", I).to_dict()
    params = {p["name"]: p for p in spec["params"]}
    grid = pd.DataFrame({"model_setting": list(MODELS), "method_setting": list(itertools.islice(
        itertools.cycle(memory.METHODS), len(MODELS)))})
    got = grid_readouts(grid, on_grid({"utilisation": f"'' + {params[planner.SIGNALS['utilisation']]['expr']}",
                                       "checkpointing": f"'' + ({params[planner.SIGNALS['checkpointing']]['expr']})"}), "en")
    want = [[str(planner.default_utilisation(m, I)), str(planner.default_checkpointing(me)).lower()]
            for m, me in zip(grid["model_setting"], grid["method_setting"])]
    assert [[float(u), c] for u, c in got] == [[float(u), c] for u, c in want]
    assert planner.default_utilisation("gpt-oss-20b", I) == article1.gptoss_ft(I)["utilisation"] < I.palm_mfu
    assert planner.default_utilisation("llama-7b", I) == I.palm_mfu and planner.default_checkpointing("qlora")
    live = charts.live_spec(vlc.vegalite_to_vega(spec, vl_version=charts.VL_VERSION), spec)
    on = {s["name"]: s["on"][0]["events"] for s in live["signals"] if s.get("on") and s["name"] in planner.SIGNALS.values()}
    assert on[planner.SIGNALS["utilisation"]] == {"signal": planner.SIGNALS["model"]}
    assert on[planner.SIGNALS["checkpointing"]] == {"signal": planner.SIGNALS["method"]}
    box = planner.planner_calculator("en", I)
    model, method, *_, checkpointing, _, _, _, _, utilisation = controls(box)[:12]
    model.value, method.value = "gpt-oss-20b", "qlora"
    assert checkpointing.value is True
    method.value = "lora"
    assert checkpointing.value is False


def test_the_utilisation_is_disabled_while_the_speed_is_the_model_s():
    """The utilisation counts only where the reader times the job by it: while the speed is the book's
    model, its box in the widget is disabled, and on the page its slider and field (usermeta "idle",
    book/_static/calculator.js; tests/test_browser.py moves them)."""
    spec = planner.planner_chart("en", I).to_dict()
    assert spec["usermeta"]["idle"] == {planner.SIGNALS["utilisation"]: [planner.SIGNALS["speed_by"], "model"]}
    box = planner.planner_calculator("en", I)
    speed_by, utilisation = controls(box)[10:12]
    assert speed_by.value == "model" and utilisation.disabled
    speed_by.value = "set"
    assert not utilisation.disabled
    speed_by.value = "model"
    assert utilisation.disabled


@pytest.mark.parametrize("lang", LANGS)
def test_the_widget_follows_gpt_oss_s_attention_and_writes_its_notes(lang):
    """Choosing gpt-oss-20b in the widget sets eager attention and writes the utilisation OpenAI's example
    ran at; its QLoRA says that the fused experts stay in fp32; sdpa chosen by hand says to choose eager."""
    box = planner.planner_calculator(lang, I)
    model, method, _, _, _, _, _, attention, _, _, _, _ = controls(box)[:12]
    shown = lambda: [html.unescape(line) for line in box.children[1].value.split("<br>")]  # noqa: E731
    s, text = planner.start(I), words(lang)["calculator_plan"]
    # Choosing a model sets its attention and utilisation; choosing QLoRA turns checkpointing on.
    point = lambda m, me, a: [w for w in expected(lang, m, me, "qv", s["seq"], s["batch"], s["rank"], me == "qlora", a,  # noqa: E731
                                                  "h100-sxm", math.log10(s["tokens"]),
                                                  utilisation=planner.default_utilisation(m, I)) if w]
    model.value = "gpt-oss-20b"
    assert attention.value == "eager" and shown() == point("gpt-oss-20b", "lora", "eager")
    assert text["measured"] in shown() and not any(line == text["qlora_experts"] for line in shown())
    method.value = "qlora"
    assert shown() == point("gpt-oss-20b", "qlora", "eager") and text["qlora_experts"] in shown()
    attention.value = "sdpa"
    assert shown() == [text["no_attention"].format(attention="eager"), text["no_attention_more"]]
    model.value = "llama-7b"
    assert attention.value == "sdpa" and shown() == point("llama-7b", "qlora", "sdpa")


@pytest.mark.parametrize("lang", LANGS)
def test_gpt_oss_20b_s_note_gives_the_utilisation_openai_s_example_ran_at(lang):
    """The note is the first article's chapter's figure (lib.chapters.article1.gptoss_ft): at that utilisation
    the planner runs OpenAI's example in the minutes it measured, and PaLM's is as many times faster as the
    chapter's card says. The utilisation slider reaches it."""
    found = article1.gptoss_ft(I)
    note = planner.notes(lang, article1.GPTOSS_FT_MODEL, "lora", I)
    assert Figure.of(found["utilisation"], "fraction", decimals=1).format(lang) in note["measured_more"]
    hours = speed.speed(found["job"], found["gpu"], found["tokens"], found["utilisation"], I)["hours"]
    assert hours * 60 == pytest.approx(I.gptoss_ft_minutes)
    assert I.palm_mfu / found["utilisation"] == pytest.approx(I.gptoss_ft_minutes / found["palm_minutes"])
    assert planner.RANGES["utilisation"][0] <= found["utilisation"] < I.palm_mfu
    assert not any(planner.notes(lang, "gpt-oss-120b", "lora", I).values())


@pytest.mark.parametrize("lang", LANGS)
def test_the_experts_note_is_where_qlora_s_weights_outweigh_lora_s(lang):
    """bitsandbytes quantises nn.Linear layers only: QLoRA's weights are lighter than LoRA's but for a model
    whose experts are fused parameters (kept in fp32), and that is where the note is."""
    for model in MODELS:
        weights = {m: memory.parts(planner.job(model, m, 8, "qv", 128, 1, False, "eager"))["weights"]
                   for m in ("lora", "qlora")}
        fused = planner.fused_experts(model)
        assert (weights["qlora"] > weights["lora"]) == fused, model
        assert bool(planner.notes(lang, model, "qlora", I)["experts"]) == fused
        assert not planner.notes(lang, model, "lora", I)["experts"]
    assert planner.fused_experts("gpt-oss-20b") and planner.fused_experts("mixtral-8x7b-instruct")


@pytest.mark.parametrize("lang, field, bad, message", [
    ("es", 2, "0", "No se puede calcular. Rango de LoRA: tiene que ser mayor que cero."),
    ("en", 2, "300", "Cannot compute. LoRA rank: must be between 1 and 256."),
    ("en", 2, "2.5", "Cannot compute. LoRA rank: must be a whole number."),
    ("es", 5, "abc", "No se puede calcular. Lote: escríbelo como el libro escribe los números, por ejemplo 1."),
    ("en", 9, "1e300", "Cannot compute. Tokens: must be between 1,000,000 and 10,000,000,000,000."),
    ("en", 9, "nan", "Cannot compute. Tokens: must be a finite number."),
    ("en", 11, "0.5", "Cannot compute. Utilisation: must be between 1 and 100."),
    ("es", 11, "150", "No se puede calcular. Utilización: tiene que estar entre 1 y 100."),
])
def test_bad_input_shows_a_message_in_the_language_and_no_number(lang, field, bad, message):
    box = planner.planner_calculator(lang, I)
    controls(box)[field].value = bad
    result = html.unescape(box.children[1].value)
    assert result == message
    assert "GB" not in result


# Where a calculator's readout writes (lib.site.charts.readout_chart): lines from 5 px into its
# 320 px frame, at 13.5 px; its title in bold at 14 px.
READOUT_ROOM, READOUT_SIZE, TITLE_SIZE = 320 - 5, 13.5, 14


@pytest.mark.parametrize("lang", LANGS)
def test_every_readout_line_and_the_title_fit_the_frame_at_every_setting(lang):
    """At every point of the grid, each line the readout writes, measured in the charts' font, ends
    inside the frame; so does the title; so do the controls' labels' longest options."""
    from lib.site import fonts

    too_wide = {line for point in GRID for line in expected(lang, *point)
                if fonts.text_width(line, READOUT_SIZE) > READOUT_ROOM}
    assert too_wide == set(), sorted(too_wide)[:5]
    title = words(lang)["calculator_plan"]["title"]
    assert fonts.text_width(title, TITLE_SIZE, bold=True) <= 320, title


@pytest.mark.parametrize("lang", LANGS)
def test_the_widget_plans_a_node_an_optimiser_accumulation_and_the_reader_s_price(lang):
    """The live planner's added controls (GPUs, sharding, optimiser, accumulation, a price box, a sequence and a
    batch beyond the page's lists) write what lib.plan computes for them, the peak as the sum of what is alive
    at its moment (lib.plan.memory.peak_terms), and the reader's price named as theirs."""
    box = planner.planner_calculator(lang, I)
    model, method, rank, targets, seq, batch, ckpt, attention, gpu, tokens, speed_by, utilisation, gpus, sharding, \
        optimizer, accum, price, pasted = controls(box)
    shown = lambda n: [html.unescape(line) for line in box.children[n].value.split("<br>")]  # noqa: E731
    s = planner.start(I)
    gpus.value, sharding.value, optimizer.value, accum.value, price.value = 8, "zero3", "adamw-8bit", "8", "2.5" if lang == "en" else "2,5"
    seq.value, batch.value = "3000", "2"
    settings = dict(optimizer="adamw-8bit", gpus=8, sharding="zero3", grad_accum=8)
    lines = planner.readout(lang, s["model"], "lora", s["rank"], "qv", 3000, 2, False, "sdpa", s["gpu"], s["tokens"], I,
                            price_usd=2.5, **settings)
    assert shown(1) == [lines[k] for k in planner.LINES if lines[k]]
    j = planner.job(s["model"], "lora", s["rank"], "qv", 3000, 2, False, "sdpa", **settings)
    assert shown(2) == [planner.node_line(lang, j)]
    alive = memory.peak_terms(j)
    assert sum(alive["terms"].values()) == pytest.approx(memory.parts(j)["peak"])
    assert lines["price"] == words(lang)["calculator_plan"]["price_own"].format(price=Figure.of(2.5, "USD", decimals=2).format(lang))
    # one GPU and the book's price: the page's readout, its price named with its provider
    gpus.value, price.value = 1, ""
    one = planner.readout(lang, s["model"], "lora", s["rank"], "qv", 3000, 2, False, "sdpa", s["gpu"], s["tokens"], I,
                          optimizer="adamw-8bit", grad_accum=8)
    assert shown(1) == [one[k] for k in planner.LINES if one[k]]
    assert load_gpus()[s["gpu"]].price_provider in one["price_from"]
    # a batch beyond the page's slider (64): computed, whether or not it fits
    seq.value, batch.value = "128", "100"
    assert shown(1)[0].startswith(words(lang)["plan"]["parts"]["weights"])
    price.value = "abc"
    assert shown(1)[0].startswith(words(lang)["calculator_plan"]["error"].split("{")[0]) and not box.children[2].value


@pytest.mark.parametrize("lang", LANGS)
def test_a_pasted_config_is_planned_as_the_command_plans_its_file(lang):
    """A Hugging Face config.json pasted in the live planner gives what the shipped model of that config gives;
    text that is not a JSON object, or a config without a field the planner needs, is refused with lib.plan's
    message in the reader's language, and no number."""
    box = planner.planner_calculator(lang, I)
    pasted = controls(box)[-1]
    before = box.children[1].value
    for name in ("llama-7b", "mistral-7b"):
        pasted.value = json.dumps(load_config(name), indent=2)
        s = planner.start(I)
        own = shape(load_config(name))
        lines = planner.readout(lang, s["model"], "lora", s["rank"], "qv", s["seq"], s["batch"], False,
                                memory.default_attention(own), s["gpu"], s["tokens"], I, model_shape=own)
        assert html.unescape(box.children[1].value).split("<br>") == [lines[k] for k in planner.LINES if lines[k]]
    assert box.children[1].value != before  # Mistral 7B's, not the list's LLaMA 7B
    error = words(lang)["calculator_plan"]["error"]
    for bad, problem in (('{"model_type": "llama"', "not_json"), ("[1, 2]", "not_object"),
                         ('{"model_type": "llama", "hidden_size": 64}', "missing_field"),
                         ('{"model_type": "bert"}', "unknown_arch")):
        pasted.value = bad
        with pytest.raises(PlanError) as raised:
            planner.pasted_shape(bad, lang)
        assert raised.value.problem == problem
        assert html.unescape(box.children[1].value) == error.format(message=message(raised.value, lang))
        assert "GB" not in box.children[1].value and not box.children[2].value
