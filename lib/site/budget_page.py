"""What the chapter "What a budget buys" glues: its figures (as `B.<name>`) and its tables
(`B.memory`, `B.compute`, `B.buys`, `B.measured`, `B.ladder`), formatted for the page's language."""

from __future__ import annotations

import dataclasses

from IPython.display import Markdown

from lib.chapters import answers, budget, compute
from lib.core import fmt
from lib.plan import shapes as plan_shapes
from lib.chapters.article1 import GPTOSS_FT_MODEL, gptoss_ft
from lib.chapters.budget import rented_full_ft_figures
from lib.core.figure import Figure
from lib.core.inputs import Inputs, load_inputs
from lib.site import page
from lib.site.page import glue_figures
from lib.site.markdown import table_cell
from lib.core.words import words
from lib.plan import memory as plan_memory
from lib.plan import speed as plan_speed
from lib.plan import validation
from lib.plan.gpus import load_gpus



def _gb(x: float) -> Figure:
    return Figure.of(x, "GB", decimals=1)


def _pct(x: float) -> Figure:
    return Figure.of(x, "fraction", decimals=1)


RENTED = ("examples", "hours", "gpus", "node_gpus", "price", "seen", "increment", "node_price", "cost", "per_gpu", "gpu_memory",
          "states_per_gpu", "activations", "peak_states", "gathered", "loss_gradient", "gradients_per_gpu",
          "paid_hours", "share", "headroom")


def own_measured(n: int) -> Figure:
    """How many of the book's own GPU measurements the table has, as a sentence in each language
    (none yet, one, or n): the words' [budget] own_measured."""
    def said(lang: str) -> str:
        none, one, many = words(lang)["budget"]["own_measured"]
        return (none if n == 0 else one if n == 1 else many).format(n=Figure.of(n, "count").format(lang))
    return dataclasses.replace(Figure.says(said("en")), items_es=(said("es"),))


def planner_weights(model: str, method: str) -> float:
    """The planner's weights (bytes) of a shipped model by a method: they depend on neither the sequence
    nor the attention."""
    s = plan_shapes.shape(plan_shapes.load_config(model))
    return plan_memory.states(plan_memory.Job(s, method, seq=1, attention=plan_memory.default_attention(s)))["weights"]


def figures(i: Inputs) -> dict[str, Figure]:
    """Every figure the prose pastes, by name."""
    lo, q, llmc, ll = budget.lora_rebuilt(i), budget.qlora_rebuilt(i), budget.llmc_rebuilt(i), budget.llama7b_rebuilt(i)
    kept_7b = budget.llama_kept(i, *budget.LLAMA_SHAPES["llama7b"])
    scales = budget.three_scales(i)
    usd = budget.budget_usd(i)
    hours = usd / i.lambda_h100_sxm_1x
    rows = budget.what_budget_buys(i)
    # Alpaca's full fine-tuning rented on a Lambda node: the figures the chapter's paragraph quotes,
    # the same as the card of the first article's claim on it (lib.chapters.article1).
    rented = {f"rented.{name}": figure for name, figure in rented_full_ft_figures(i).items() if name in RENTED}
    return rented | {
        # the one model, and the example's settings
        "llama7b.params": Figure.of(i.ft_example_params, "parameter", compact=True, decimals=1),
        # the planner's count, from the model's configuration (lib/data/models/llama-7b.json)
        "llama7b.config_params": Figure.of(budget.llama7b_config_params(i), "parameter", compact=True, decimals=2),
        "llama7b.tokens": Figure.of(i.llama7b_tokens, "token", compact=True, decimals=1),
        "seq_len": Figure.of(budget.EXAMPLE_SEQ_LEN, "token"),
        "flops_factor": Figure.of(i.flops_per_param_token, "count"),
        "batch": Figure.of(budget.EXAMPLE_BATCH, "count"),
        "ft_tokens": Figure.of(budget.FT_TOKENS, "token", compact=True),
        "guanaco_tokens": Figure.of(budget.guanaco_tokens(i), "token", compact=True, decimals=1),
        "mfu": _pct(i.palm_mfu),
        # the planner: the utilisation OpenAI's gpt-oss-20b example ran at (the first article's chapter), and
        # that model's weights with LoRA and with QLoRA, which leaves its fused experts out of NF4
        "plan.gptoss_mfu": _pct(gptoss_ft(i)["utilisation"]),
        **{f"plan.gptoss_{method}_weights": _gb(planner_weights(GPTOSS_FT_MODEL, method) / 1e9) for method in ("lora", "qlora")},
        "a100_price": Figure.of(i.lambda_a100_sxm_8x, "USD/GPU-hour"),
        "a100_seen": i.seen_on("lambda_a100_sxm_8x"),
        "lora_rank": Figure.of(i.lora_rank, "count"),
        "lora_tps_full": Figure.of(i.lora_throughput_full, "token/s/GPU", decimals=1),
        "lora_tps_lora": Figure.of(i.lora_throughput_lora, "token/s/GPU", decimals=1),
        "lora_share": _pct(plan_speed.lora_flops_share(i)),
        "pretrain.total": _gb(scales["pretrain"]["memory"].total),
        "lora.total": _gb(scales["lora"]["memory"].total),
        "qlora.total": _gb(scales["qlora"]["memory"].total),
        "activations": _gb(scales["lora"]["memory"].activations),
        # LLaMA 7B's pretraining beside Table 15
        "llama7b.hours": Figure.of(ll["hours"], "GPU-hour"),
        "llama7b.reported": Figure.of(i.llama7b_gpu_hours, "GPU-hour"),
        "llama7b.table": Figure.place(i["llama7b_gpu_hours"].locator),
        "llama7b.residual": _pct(ll["residual"]),
        "llama7b.implied_mfu": _pct(ll["implied_mfu"]),
        # LoRA's memory rebuilt
        # LoRA's memory rebuilt by the paper's own accounting (lib.chapters.budget.lora_paper_bytes)
        "lora.saving": _pct(i.lora_paper_saving),
        "lora.state_bytes": Figure.of(lo["optimizer_bytes"], "byte/parameter"),
        "lora.full_zero": _gb(lo["full_zero"]),
        "lora.full_zero_residual": _pct(lo["full_zero_residual"]),
        "lora.full": _gb(lo["full"]),
        "lora.lora": _gb(lo["lora"]),
        "lora.paper_full": Figure.of(i.lora_vram_full, "GB"),
        "lora.paper_lora": Figure.of(i.lora_vram_lora, "GB"),
        "lora.full_residual": _pct(lo["full_residual"]),
        "lora.lora_residual": _pct(lo["lora_residual"]),
        "lora.ratio": Figure.of(lo["ratio"], "times", decimals=1),
        "lora.paper_ratio": Figure.of(lo["paper_ratio"], "times", decimals=1),
        "lora.adapters": Figure.of(lo["adapters"], "parameter", compact=True, decimals=1),
        "lora.weights": _gb(lo["lora_weights"]),
        "lora.weights_share": _pct(lo["weights_share"]),
        # GPT-3's two counts: the LoRA paper's Table 4, and the planner's shape from the GPT-3 paper's sizes
        "lora.paper_params": Figure.of(i.gpt3_full_ft_trainable, "parameter", compact=True, decimals=1),
        "lora.paper_params_table": Figure.place(i["gpt3_full_ft_trainable"].locator),
        "lora.planner_params": Figure.of(budget.gpt3_planner_params(i), "parameter", compact=True, decimals=1),
        "bytes.full": Figure.of(i.bytes_fp16_weight + i.bytes_fp16_gradient + i.bytes_adam_states, "byte/parameter"),
        # ZeRO's split of those bytes (fp16 weight, fp16 gradient, Adam's fp32 copy, momentum and variance),
        # and the planner's, as autocast keeps them (fp32 weight, fp32 gradient, Adam's two fp32 states)
        "bytes.zero_weight": Figure.of(i.bytes_fp16_weight, "byte"),
        "bytes.zero_gradient": Figure.of(i.bytes_fp16_gradient, "byte"),
        "bytes.zero_states": Figure.of(i.bytes_adam_states, "byte"),
        "bytes.planner_weight": Figure.of(plan_memory.FULL_MIXED_BYTES["weights"], "byte"),
        "bytes.planner_gradient": Figure.of(plan_memory.FULL_MIXED_BYTES["gradients"], "byte"),
        "bytes.planner_states": Figure.of(plan_memory.FULL_MIXED_BYTES["optimizer"], "byte"),
        "bytes.planner_full": Figure.of(sum(plan_memory.FULL_MIXED_BYTES.values()), "byte/parameter"),
        # QLoRA's bounds, with gradient checkpointing and paged optimisers
        "qlora.full": _gb(q["full"]),
        "qlora.full_mixed": _gb(q["full_mixed"]),
        # the book's own GPU measurements in the table (lib/data/measured)
        "measured.own": own_measured(len(budget.own_measurements())),
        "qlora.full_bf16": _gb(q["full_bf16"]),
        "qlora.full_bytes": Figure.of(q["full_bytes"], "byte/parameter"),
        "qlora.full_bits": Figure.of(budget.PRECISION_BITS["bf16"], "count"),
        "qlora.activations": Figure.memory(q["memory"].activations),
        "qlora.optimizer": Figure.memory(q["memory"].optimizer),
        "qlora.no_checkpointing": _gb(q["no_checkpointing"]),
        # QLoRA's own 65B recipe (lib.chapters.budget.qlora_recipe) and the total against the 48 GB GPU
        "qlora.rank": Figure.of(q["recipe"]["rank"], "count"),
        "qlora.nf4_bits": Figure.of(budget.PRECISION_BITS["nf4"], "count"),
        "qlora.adapter_params": Figure.of(q["recipe"]["adapters"], "parameter", compact=True, decimals=0),
        "qlora.ffn_paper": Figure.of(q["recipe"]["paper_ffn"], "dimension", decimals=0),
        "qlora.ffn_rounded": Figure.of(q["recipe"]["ffn_rounded"], "dimension", decimals=0),
        "qlora.ffn_multiple": Figure.of(i.llama_ffn_multiple_of, "count"),
        "qlora.ffn_ratio": Figure.of(i.llama_ffn_ratio, "count", decimals=2),
        "qlora.seq_len": Figure.of(q["recipe"]["seq_len"], "token"),
        "qlora.batch": Figure.of(q["recipe"]["batch"], "count"),
        "qlora.weights": _gb(q["memory"].weights),
        # what QLoRA's code keeps out of NF4 (lib.chapters.budget.llama_kept): at 65B, and the norms at 7B
        "qlora.vocab": Figure.of(i.llama_vocab, "count"),
        "qlora.kept_params": Figure.of(q["kept"]["embeddings"], "parameter", compact=True, decimals=0),
        "qlora.kept_bits": Figure.of(i.qlora_kept_bits, "count"),
        "qlora.norm_bits": Figure.of(i.qlora_norm_bits, "count"),
        "qlora.norm_params_7b": Figure.of(kept_7b["norms"], "parameter"),
        "qlora.norm_bytes_7b": Figure.of(kept_7b["norms"] * kept_7b["norm_bytes"], "byte"),
        "qlora.adapter_bits": Figure.of(i.qlora_adapter_bits, "count"),
        "qlora.state_bits": Figure.of(i.qlora_optimizer_state_bits, "count"),
        "qlora.margin": _gb(abs(q["margin"])),
        "qlora.book_adapters": _gb(q["book_adapters"]),
        "qlora.peft_types": _gb(q["peft_types"]),
        "qlora.book_adapters_table": _gb(_row(rows, "qlora", "llama65b")["memory"]),
        "qlora.weights_as_7b": _gb(budget.qlora_as_7b(i)["weights"]),
        "qlora.job_as_7b": _gb(budget.qlora_as_7b(i)["device"]),
        "qlora.attention_matrices": Figure.of(i.llama_attention_matrices, "count"),
        "qlora.ffn_matrices": Figure.of(i.llama_ffn_matrices, "count"),
        "qlora.gpu": Figure.of(i.qlora_65b_single_gpu, "GB"),
        "checkpoint_bytes": Figure.of(i.activation_checkpoint_bytes, "count"),
        "activation_linear": Figure.of(i.activation_linear_bytes, "count"),
        "activation_attention": Figure.of(i.activation_attention_bytes, "count"),
        # Korthikanti et al.'s formula for LLaMA 7B, beside the planner's activations (its own and with eager attention)
        "korthikanti": _gb(budget.korthikanti_activations(i)),
        "korthikanti_no_dropout": _gb(budget.korthikanti_activations(i, dropout=False)),
        "korthikanti_linear": Figure.of(i.activation_linear_bytes, "count"),
        "korthikanti_attention": Figure.of(i.activation_attention_bytes, "count"),
        "korthikanti_dropout_linear": Figure.of(i.activation_dropout_linear_bytes, "count"),
        "korthikanti_dropout_attention": Figure.of(i.activation_dropout_attention_bytes, "count"),
        "korthikanti_ckpt": _gb(budget.korthikanti_activations(i, recomputation="full")),
        "activations_eager": _gb(budget.planned_memory(dataclasses.replace(budget.chapter_job(i, "lora", "llama7b"),
                                                                           attention="eager")).activations),
        # the planner against measurements: the tolerance of each kind
        "tolerance.measured": _pct(budget.MEASURED_TOLERANCE),
        "tolerance.arithmetic": _pct(budget.ARITHMETIC_TOLERANCE),
        "peft.rank": Figure.of(i.peft_lora_rank, "count"),
        "peft.rank64": Figure.of(i.peft_lora64_rank, "count"),
        # the runs' own settings and counts, which the planner's jobs take or count again (lib.chapters.budget.planner_jobs)
        "peft.dtype_bits": Figure.of(i.peft_dtype_bits, "count"),
        "peft.adapter_bits": Figure.of(i.peft_adapter_bits, "count"),
        "peft.params": Figure.of(i.peft_full_params, "parameter"),
        "peft.lora_params": Figure.of(i.peft_lora_params, "parameter"),
        "peft.adapters": Figure.of(i.peft_lora_adapters, "parameter"),
        "peft.adapters64": Figure.of(i.peft_lora64_adapters, "parameter"),
        # the CUDA context the planner states beside its peak (lib.plan.speed), and QLoRA's 7B base with it
        "cuda_context": Figure.of(plan_speed.CUDA_CONTEXT_GB, "GB", decimals=1),
        "qlora.base_with_context": Figure.memory(_published_row(i, "qlora_7b_base")["formula"] + plan_speed.CUDA_CONTEXT_GB),
        # the planner against each published memory figure (the table B.measured)
        **{f"measured.{r['key']}.{name}": _pct(r["residual"]) if part == "residual" else Figure.memory(r[part])
           for r in budget.measurements(i) if not r["own"]
           for part, name in (("formula", "planner"), ("published", "published"), ("residual", "residual"))},
        # utilisation by the job's own source
        "llmc.mfu": _pct(i.llmc_124m_mfu),
        "llmc.tokens_124m": Figure.of(i.llmc_124m_tokens, "token", compact=True, decimals=0),
        # the frontier rung
        "frontier.cost": rung_figure(i.epoch_grok3_cost),
        "frontier.date": Figure.on(i.epoch_grok3_date),
        "qlora.paper_full": i["qlora_full_ft_65b_memory"].figure(),
        "qlora.qlora": _gb(q["qlora"]),
        "qlora.paper_qlora": Figure.of(i.qlora_65b_memory, "GB"),
        "qlora.constant_bits": Figure.of(i.qlora_constant_bits, "count", decimals=3),
        # llm.c's runs
        "llmc.hours_124m": Figure.of(llmc["hours_124m"], "hour", decimals=2),
        "llmc.reported_hours_124m": Figure.of(i.llmc_124m_hours, "hour", decimals=1),
        "llmc.hours_124m_residual": _pct(llmc["hours_124m_residual"]),
        "llmc.cost_124m": Figure.of(llmc["cost_124m"], "USD"),
        "llmc.reported_124m": Figure.of(i.llmc_124m_cost, "USD"),
        "llmc.cost_124m_residual": _pct(llmc["cost_124m_residual"]),
        "llmc.cost_1558m": Figure.of(llmc["cost_1558m"], "USD"),
        "llmc.reported_1558m": Figure.of(i.llmc_1558m_cost, "USD"),
        "llmc.cost_1558m_residual": _pct(llmc["cost_1558m_residual"]),
        "llmc.params_1558m": Figure.of(i.llmc_1558m_params, "parameter", compact=True, decimals=2),
        "llmc.h100_price": Figure.of(i.lambda_h100_sxm_8x, "USD/GPU-hour"),
        "llmc.h100_seen": i.seen_on("lambda_h100_sxm_8x"),
        # the budget
        "budget.eur": Figure.of(i.budget_eur, "EUR"),
        "budget.usd": Figure.of(usd, "USD", decimals=2),
        "budget.rate_date": Figure.on(i.budget_rate_date),
        "budget.h100_price": Figure.of(i.lambda_h100_sxm_1x, "USD/GPU-hour"),
        "budget.h100_seen": i.seen_on("lambda_h100_sxm_1x"),
        "budget.hours": Figure.of(hours, "hour", decimals=1),
        "budget.h100_memory": Figure.of(i.h100_sxm_memory, "GB"),
        "budget.chinchilla": Figure.of(i.chinchilla_tokens / i.chinchilla_params, "count"),
        "budget.lora7b_bought": Figure.of(_row(rows, "lora", "llama7b")["bought"], "token", compact=True, decimals=1),
        # LoRA of LLaMA 7B per billion tokens on the H100 (this table) and on the A100 (the compute table),
        # each written as its table writes it
        "budget.lora7b_cost_h100": Figure.of(_row(rows, "lora", "llama7b")["cost"], "USD", decimals=2),
        "budget.lora7b_cost_h100_span": _span(_row(rows, "lora", "llama7b"), "cost", "USD", decimals=2),
        "budget.lora7b_cost_a100": Figure.of(scales["lora"]["cost"], "USD"),
        "budget.lora7b_cost_a100_span": _span(scales["lora"], "cost", "USD"),
        "budget.h100_price_ratio": Figure.of(i.lambda_h100_sxm_1x / i.lambda_a100_sxm_8x, "times", decimals=1),
        "budget.h100_peak_ratio": Figure.of(budget.h100_peak(i) / i.a100_bf16_peak, "times", decimals=1),
        "budget.gpt2_pretrain_cost": answers.pretrain(i, "gpt2").figure,
        "budget.gpt2_pretrain_span": answers.pretrain(i, "gpt2").span,
        "budget.llama7b_pretrain_cost": answers.pretrain(i, "llama7b").figure,
        "budget.llama7b_pretrain_span": answers.pretrain(i, "llama7b").span,
        "budget.lora7b_bought_span": _span(_row(rows, "lora", "llama7b"), "bought", "token", compact=True, decimals=1),
        # The tokens that cost is for (Chinchilla's optimum), beside those LLaMA 7B was trained on.
        "budget.llama7b_pretrain_tokens": Figure.of(_row(rows, "pretrain", "llama7b")["tokens"], "token", compact=True,
                                                    decimals=0),
        "budget.llama7b_paper_tokens": Figure.of(i.llama7b_tokens, "token", compact=True, decimals=0),
    }


def _span(row: dict, key: str, unit: str, **style) -> Figure:
    """The speed model's range of row[key]: row[key_low] to row[key_high]."""
    return Figure.between(row[key + "_low"], row[key + "_high"], unit, **style)


def _published_row(i: Inputs, key: str) -> dict:
    return next(r for r in budget.measurements(i) if r["key"] == key)


def _row(rows: list[dict], job: str, model: str) -> dict:
    return next(r for r in rows if r["job"] == job and r["model"] == model)


def memory_table(i: Inputs, lang: str) -> str:
    w = words(lang)["budget"]
    scales = budget.three_scales(i)
    head = [w["head"]["part"]] + [w["jobs"][job] for job in budget.JOBS]
    rows = [f"| {' | '.join(head)} |", "|---|" + "---:|" * len(budget.JOBS)]
    for part in ("weights", "gradients", "optimizer", "activations", "adapters", "total"):
        values = [scales[job]["memory"].parts()[part] for job in budget.JOBS]
        cells = [memory_ranged(v, lang) if part == "total" else Figure.memory(v).format(lang) for v in values]
        rows.append("| " + " | ".join([w["parts"][part], *cells]) + " |")
    return "\n".join(rows)


def compute_table(i: Inputs, lang: str) -> str:
    w = words(lang)["budget"]
    scales = budget.three_scales(i)
    h = w["head"]
    rows = [f"| {h['job']} | {h['trained']} | {h['tokens']} | {h['flops']} | {h['hours']} | {h['cost']} |",
            "|---|---:|---:|---:|---:|---:|"]
    for job in budget.JOBS:
        s = scales[job]
        cells = [w["jobs"][job], Figure.of(s["trained"], "parameter", compact=True, decimals=1).format(lang),
                 Figure.of(s["tokens"], "token", compact=True).format(lang), Figure.of(s["flops"], "FLOP").format(lang),
                 _ranged(s, "hours", "GPU-hour", lang),
                 _ranged(s, "cost", "USD", lang, **({"compact": True, "decimals": 2} if s["cost_high"] >= 1e6 else {}))]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def buys_table(i: Inputs, lang: str) -> str:
    w = words(lang)["budget"]
    h = w["head"]
    rows = [f"| {h['job']} | {h['model']} | {h['memory']} | {h['one_gpu']} | {h['utilisation']} | {h['tokens']} "
            f"| {h['h100_hours']} | {h['cost']} | {h['bought']} |", "|---|---|---:|---|---:|---:|---:|---:|---:|"]
    for r in budget.what_budget_buys(i):
        margin = plan_speed.fit_margin(r["memory"] * 1e9, load_gpus()["h100-sxm"], i)
        cells = [w["jobs"][r["job"]], w["models"][r["model"]], memory_ranged(r["memory"], lang),
                 w[f"fit_{margin}" if margin else "fits" if r["fits"] else "no_fit"], _pct(r["mfu"]).format(lang),
                 Figure.of(r["tokens"], "token", compact=True, decimals=1).format(lang),
                 _ranged(r, "hours", "hour", lang, decimals=1), _ranged(r, "cost", "USD", lang, decimals=2),
                 _ranged(r, "bought", "token", lang, compact=True, decimals=1) if r["fits"] else w["none"]]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def memory_ranged(gb: float, lang: str) -> str:
    """A table cell: the planner's peak with its range in brackets, by its measured error (speed.peak_range)."""
    low, high = plan_speed.peak_range(gb * 1e9)
    return f"{Figure.memory(gb).format(lang)} ({Figure.memory_range(low / 1e9, high / 1e9).format(lang)})"


def _ranged(row: dict, key: str, unit: str, lang: str, **style) -> str:
    """A table cell: the speed model's figure with its range in brackets (row[key], row[key_low], row[key_high])."""
    central = Figure.of(row[key], unit, **style).format(lang)
    return f"{central} ({Figure.between(row[key + '_low'], row[key + '_high'], unit, **style).format(lang)})"


def _shown_unit(unit: str) -> str:
    """The unit a published memory figure is shown in: its own, MB or GB; bytes are shown in GB."""
    return "MB" if unit == "MB" else "GB"


def _published(i: Inputs, name: str, side: str | None) -> Figure:
    """A published memory figure as its source states it: its own unit (bytes in GB), a bound kept a
    bound ("less than 48 GB" for a bound the formula must stay below, which the input's value alone
    does not say)."""
    entry = i[name]
    if entry.unit == "byte":
        return Figure.of(budget.published_gb(i, name), "GB", decimals=1)
    return Figure.less_than(entry.value, entry.unit, decimals=0) if side == "below" else entry.figure(decimals=0)


def config_words(i: Inputs, lang: str, key: str) -> str:
    """A row's configuration in words, with the figures some name (ranks, QLoRA's sequence) filled in."""
    count = lambda x: Figure.of(x, "count").format(lang)  # noqa: E731
    r = budget.qlora_recipe(i)
    return words(lang)["budget"]["configs"][key].format(
        rank=count(i.peft_lora_rank), rank64=count(i.peft_lora64_rank), lora_rank=count(i.lora_rank),
        qlora_rank=count(r["rank"]), qlora_seq=Figure.of(r["seq_len"], "token").format(lang), qlora_batch=count(r["batch"]))


def measured_table(i: Inputs, lang: str, folder=None) -> str:
    """The planner against every published memory figure the book could verify, then against the book's
    own measurements (lib/data/measured, or `folder`): configuration, the reading the figure is, kind,
    planner, published, residual, whether it agrees by its kind's tolerance, what the planner leaves out."""
    w = words(lang)["budget"]
    h = w["head"]
    rows = [f"| {h['configuration']} | {h['reading']} | {h['kind']} | {h['planner']} | {h['published']} "
            f"| {h['residual']} | {h['agrees']} | {h['leaves_out']} |", "|---|---|---|---:|---:|---:|---|---|"]
    for r in budget.measurements(i, folder):
        unit = "GB" if r["own"] else _shown_unit(i[r["input"]].unit)
        shown = lambda gb: Figure.of(gb * 1e9 / budget.BYTES_PER[unit], unit, decimals=1)  # noqa: E731
        kind = w["kinds"][r["kind"]]  # a bound's side is in its figure: "more than", "less than"
        if r["own"]:
            config, published = w["configs"]["own"].format(name=r["key"]), shown(r["published"])
        else:
            config, published = config_words(i, lang, r["key"]), _published(i, r["input"], r["side"])
        missing = r["formula"] is None  # the planner declines the configuration (no coefficients for it)
        cells = [config, w["readings"][r["reading"]], kind, w["none"] if missing else shown(r["formula"]).format(lang),
                 published.format(lang), w["none"] if missing else _pct(r["residual"]).format(lang),
                 w["none"] if missing else w["agrees"]["yes" if r["within"] else "no"],
                 w["leaves_out"]["own" if r["own"] else r["key"]]]
        rows.append("| " + " | ".join(table_cell(c) for c in cells) + " |")
    return "\n".join(rows)


def published_table(lang: str) -> str:
    """The planner against every published training measurement (lib/data/plan/published.toml), time and
    peak: the row's configuration, what was measured, the planner's figure, the published one, the
    residual (planner − published) ÷ published, and whether a constant of the planner came from the row; a
    peak the planner's range is taken from (validation.peak_range_rows) says so.
    Time is compared as tokens a second per GPU; a row the planner cannot express shows none."""
    w, plan = words(lang)["budget"], words(lang)["calculator_plan"]
    v, h = w["validation"], w["head"]
    rows = [f"| {h['configuration']} | {v['quantity']} | {h['planner']} | {h['published']} | {h['residual']} "
            f"| {v['constant']} |", "|---|---|---:|---:|---:|---|"]
    taken, gpus = validation.constant_rows(), load_gpus()
    ranged = {r.row.key for r in validation.peak_range_rows()}
    for r in validation.residuals():
        row = r.row
        gpu = gpus[row.gpu].name if row.gpu in gpus else v["unlisted_gpus"][row.gpu]
        if row.quantity == "peak":
            shown = lambda x: Figure.of(x / 1e9, "GB", decimals=1)  # noqa: E731
        else:
            # to the tenth below a hundred, as the LoRA paper's 32.5 and 43.1 tokens a second are written elsewhere
            shown = lambda x: Figure.of(x, "token/s/GPU", decimals=1 if x < 100 else 0)  # noqa: E731
        published = shown(r.measured).format(lang)
        if r.bound == "at_most":
            published = v["at_most"].format(value=published)
        missing = r.predicted is None
        cells = [v["config"].format(model=plan["models"].get(row.model, row.model), method=plan["methods"][row.method], gpu=gpu),
                 v["quantities"]["time" if row.quantity != "peak" else "peak_ranged" if row.key in ranged else "peak"],
                 w["none"] if missing else shown(r.predicted).format(lang), published,
                 w["none"] if missing else _pct(r.ratio - 1).format(lang),
                 w["agrees"]["yes" if row.key in taken else "no"]]
        rows.append("| " + " | ".join(table_cell(c) for c in cells) + " |")
    return "\n".join(rows)


def speed_figures() -> dict[str, Figure]:
    """The speed model's range and what it rests on, for the prose: the range's factors, the rows it is
    taken from, the rows the planner predicts, and the residuals' spread on them."""
    rows = validation.range_rows()
    low, high = validation.speed_range()
    ratios = [r.ratio - 1 for r in rows]
    peaks = [r.ratio - 1 for r in validation.residuals() if r.row.quantity == "peak" and r.predicted is not None
             and r.bound == "exact"]
    return {"speed.low": Figure.of(low, "times", decimals=2), "speed.high": Figure.of(high, "times", decimals=2),
            "speed.rows": Figure.of(len(rows), "count"),
            "speed.bound_rows": Figure.of(sum(r.bound != "exact" for r in rows), "count"),
            "speed.residuals": Figure.between(min(ratios), max(ratios), "fraction", decimals=0),
            "speed.peak_rows": Figure.of(len(peaks), "count"),
            "speed.peak_residuals": Figure.between(min(peaks), max(peaks), "fraction", decimals=0),
            "speed.constants_from_rows": Figure.of(len(validation.constant_rows()), "count"),
            **peak_figures(len(peaks))}


def peak_figures(measured: int) -> dict[str, Figure]:
    """The peak's range (lib.plan.validation.peak_range) and what it rests on: its factors, the published peaks
    of recipes the planner models in full that give it, and how many of the `measured` peaks are not those."""
    low, high = validation.peak_range()
    rows = len(validation.peak_range_rows())
    return {"peak.low": Figure.of(low, "times", decimals=2), "peak.high": Figure.of(high, "times", decimals=2),
            "peak.rows": Figure.of(rows, "count"), "peak.others": Figure.of(measured - rows, "count")}


def dated(value) -> Figure:
    return Figure.of(value, "calendar-year") if isinstance(value, int) else Figure.on(value)


# The ladder's rungs that are the book's answers for past runs (lib.chapters.answers), by their run.
PAST_RUN_RUNGS = {"llama65b": "llama", "palm": "palm"}


def rung_figure(usd: float, fixed: bool = False) -> Figure:
    """A rung's cost as the ladder, its table and the chapter's text write it; `fixed`: a past run's
    answer, written as the answer writes it ("$18.0 million", its range's decimal kept)."""
    return Figure.of(usd, "USD", decimals=2 if usd >= 1e9 else 1 if usd >= 1e6 else 0, fixed=fixed)


def ladder(i: Inputs) -> list[dict]:
    """The budget chapter's ladder, its past runs at the book's answers (lib.chapters.answers)."""
    return budget.ladder(i, {key: (answers.past_run(i, run).figure.value, answers.price_year(i, run))
                             for key, run in PAST_RUN_RUNGS.items()})


def ladder_rows(i: Inputs, lang: str) -> list[dict]:
    return [dict(r, label=rung_figure(r["usd"], fixed=r["key"] in PAST_RUN_RUNGS).format(lang)) for r in ladder(i)]


# The ladder's currency in each language: the Spanish pages' reader counts the article's budget in euros;
# the English pages keep the dollars every rung was published in (their reader has no one currency), and
# both name the ECB rate that turns the article's 200 euros into dollars.
LADDER_CURRENCY = {"es": "EUR", "en": "USD"}


def ladder_chart(i: Inputs, lang: str):
    """The budget ladder in the page's reader's currency (LADDER_CURRENCY): each rung's dollars, and the
    budget, at the ECB reference rate of the budget's own date (budget_rate_date), named in its subtitle."""
    from lib.site import charts

    currency = LADDER_CURRENCY[lang]
    rate = compute.convert(1, "EUR", "USD", i.budget_rate_date)  # dollars per euro
    per_usd = 1 / rate if currency == "EUR" else 1.0
    # The article's own budget, in euros, is named so (its table row says "in dollars").
    rows = [{"key": r["key"], "amount": r["usd"] * per_usd,
             **({"name": words(lang)["budget"]["chart"]["budget_rung"]} if r["key"] == "budget" and currency == "EUR" else {}),
             "label": (rung_figure(r["usd"], fixed=r["key"] in PAST_RUN_RUNGS) if currency == "USD" else
                       Figure.of(r["usd"] * per_usd, "EUR", decimals=2 if r["usd"] * per_usd >= 1e9 else
                                 1 if r["usd"] * per_usd >= 1e6 else 0)).format(lang)}
            for r in ladder(i)]
    start = i.budget_eur if currency == "EUR" else budget.budget_usd(i)
    subtitle = words(lang)["budget"]["chart"]["rate"].format(
        budget=Figure.of(i.budget_eur, "EUR").format(lang), date=Figure.on(i.budget_rate_date).format(lang),
        rate=fmt.number(rate, lang, 4))
    return charts.budget_ladder(rows, lang, start, currency, subtitle)


# The rungs whose figure is the book's, not its source's: what the source column says of each.
BOOK_RUNGS = {**dict.fromkeys(PAST_RUN_RUNGS, "answer"), "gptoss": "calculation", "budget": "conversion"}


def ladder_table(i: Inputs, lang: str) -> str:
    w = words(lang)["budget"]
    h = w["head"]
    rows = [f"| {h['rung']} | {h['cost']} | {h['dated']} | {h['source']} |", "|---|---:|---|---|"]
    for r in ladder_rows(i, lang):
        source = f"{{cite:t}}`{r['source']}`"
        if r["key"] in BOOK_RUNGS:
            source = w["source_of"][BOOK_RUNGS[r["key"]]].format(source=source)
        cells = [w["rungs"][r["key"]], r["label"], dated(r["dated"]).format(lang), source]
        rows.append("| " + " | ".join(table_cell(c) for c in cells) + " |")
    return "\n".join(rows)


def glue_budget(lang: str, i: Inputs | None = None) -> Inputs:
    """Glue every figure and table of the chapter for `lang`; returns the inputs used."""
    words(lang)
    i = load_inputs() if i is None else i
    w = words(lang)["budget"]
    glue_figures("B", figures(i) | speed_figures(), lang)
    page.glue_node_price(lang, i)  # the llm.c rung is priced per GPU of a whole node, not as a single GPU
    # Words, not figures: the names and the computed side of each bound, in the page's language.
    q = budget.qlora_rebuilt(i)
    page.glue("B.llmc.name_124m", w["models"]["gpt2"], display=False)
    page.glue("B.llmc.name_1558m", w["models"]["gpt2_xl"], display=False)
    page.glue("B.qlora.full_side", w["above" if q["full_above"] else "below"], display=False)
    # The planner's GPT-3 LoRA job (the measurements table's row) beside the paper's frozen weights alone.
    below = _published_row(i, "lora_lora")["formula"] < budget.lora_rebuilt(i)["lora_weights"]
    page.glue("B.lora.planner_side", w["below" if below else "above"], display=False)
    page.glue("B.qlora.peft_types_side", w["below" if q["peft_types_below"] else "above"], display=False)
    # Whether each of those figures meets the paper's bound: above "more than 780 GB", below "less than 48 GB".
    page.glue("B.qlora.full_met", w["bound_met" if q["full_above"] else "bound_missed"], display=False)
    page.glue("B.qlora.peft_types_met", w["bound_met" if q["peft_types_below"] else "bound_missed"], display=False)
    page.glue("B.qlora.qlora_side", w["below" if q["qlora_below"] else "above"], display=False)
    # Whether QLoRA's 65B job fits the paper's one GPU and an H100, with and without checkpointing:
    # the words come from lib.chapters.budget.fits.
    page.glue("B.qlora.fits_48", w["fits" if q["fits_48"] else "no_fit"], display=False)
    # Whether the total is under or over the 48 GB GPU, for "within X GB of the bound", and whether the
    # job, its weights off as much as at 7B, would fit it.
    page.glue("B.qlora.margin_side", w["below" if q["margin"] >= 0 else "above"], display=False)
    page.glue("B.qlora.job_as_7b_fits", w["fits" if budget.fits(budget.qlora_as_7b(i)["device"], i.qlora_65b_single_gpu)
                                           else "no_fit"], display=False)
    page.glue("B.qlora.no_checkpointing_fits_48", w["fits" if q["no_checkpointing_fits_48"] else "no_fit"], display=False)
    page.glue("B.qlora.no_checkpointing_fits_h100", w["fits" if q["no_checkpointing_fits_h100"] else "no_fit"],
              display=False)
    page.glue("B.qlora.recomputation", w["recomputation"][budget.job_recomputation(i, "qlora")], display=False)
    rows = {r["key"]: r for r in budget.measurements(i)}
    for key in ("lora_full", "lora_lora", "qlora_7b_base", "peft_full", "peft_lora", "peft_lora64"):
        page.glue(f"B.measured.{key}", w["agrees"]["yes" if rows[key]["within"] else "no"], display=False)
    page.glue("B.frontier.name", w["models"]["grok3"], display=False)
    for name, table in (("memory", memory_table), ("compute", compute_table), ("buys", buys_table),
                        ("measured", measured_table), ("ladder", ladder_table),
                        ("published", lambda _, lang: published_table(lang))):
        page.glue(f"B.{name}", Markdown(table(i, lang)), display=False)
    return i
