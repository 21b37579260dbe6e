"""`python -m lib.plan`: one training job's memory by part on each GPU, its peak (and what is alive at
it), and, on a GPU or a node of them, whether it fits, how fast it trains and what a number of tokens
costs there. Speed by the book's speed model, with the range its residuals against published
measurements give, or at a utilisation given with `--mfu` (an override, no range). `--json` for
programs; otherwise a short table in the reader's language. A job that does not fit the GPU gets no speed, time or cost (in the JSON,
`fits` false and those keys null). A bad input is one line in that language, and exit status 2."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys

from lib.core import fmt
from lib.core.figure import Figure
from lib.core.words import words
from lib.plan import memory, speed, step_time
from lib.plan.errors import PlanError, message, warning
from lib.core.inputs import load_inputs
from lib.plan.gpus import gpu as find_gpu, price as gpu_price, price_seen
from lib.plan.shapes import load_config, shape

PARTS = ("weights", "adapters", "gradients", "optimizer", "activations", "buffers", "after_step", "peak")


class _Help(argparse.ArgumentDefaultsHelpFormatter):
    """argparse's defaults shown, except where there is none to show or the help says it already."""
    def _get_help_string(self, action):
        if action.default in (None, False) or "(default:" in (action.help or ""):
            return action.help
        return super()._get_help_string(action)


class _Parser(argparse.ArgumentParser):
    def error(self, text: str):  # argparse's own complaint, as one line and exit status 2
        self.exit(2, f"{self.prog}: {text}\n")


def parser() -> argparse.ArgumentParser:
    """Every option as text, with its default and choices: lib.plan checks each, so that a bad one is told
    in the reader's language."""
    from lib.plan.gpus import load_gpus
    from lib.plan.shapes import SHIPPED

    p = _Parser(prog="python -m lib.plan", description=__doc__.split("\n\n")[0].replace("\n", " "),
                formatter_class=_Help)
    p.add_argument("--config", help="a shipped model (" + ", ".join(SHIPPED) + ") or a Hugging Face config.json path (required)")
    p.add_argument("--method", help=" | ".join(memory.METHODS) + " (required)")
    p.add_argument("--rank", default="16", help="LoRA rank (lora, qlora)")
    p.add_argument("--targets", default="q_proj,v_proj", help="modules to adapt, comma-separated, or all-linear")
    p.add_argument("--target-parameters", default="", help="expert stacks to adapt (PEFT's target_parameters), comma-separated: "
                   "experts.gate_up_proj,experts.down_proj")
    p.add_argument("--parameter-layers", help="the layers whose experts to adapt, comma-separated (default: all)")
    p.add_argument("--seq", help="tokens per sequence, any whole number (required; a warning beyond the model's positions)")
    p.add_argument("--batch", default="1", help="sequences per micro-batch on each GPU, any the memory allows")
    p.add_argument("--grad-accum", default="1", help="micro-batches per optimiser step: the same peak from 2 on, that many times the tokens a step")
    p.add_argument("--checkpointing", action="store_true", help="gradient checkpointing")
    p.add_argument("--attention", help=" | ".join(memory.ATTENTIONS) + " (default: sdpa, or eager where the model runs no other)")
    p.add_argument("--optimizer", default="adamw", help=" | ".join(memory.OPTIMIZERS) + " (sgd: without momentum)")
    p.add_argument("--gpu", help="the GPU to fit and time it on: " + ", ".join(load_gpus()))
    p.add_argument("--gpus", default="1", help="GPUs in the node, data parallel, each with its own micro-batch")
    p.add_argument("--sharding", default="ddp", help=" | ".join(memory.SHARDINGS) + " on several GPUs (FSDP's FULL_SHARD is zero3, "
                   "its SHARD_GRAD_OP zero2)")
    p.add_argument("--tokens", default="1e9", help="tokens to train, for the time and the cost")
    p.add_argument("--price", help="your price in dollars per GPU-hour (default: the book's sourced price for the GPU, "
                   "with its provider and date)")
    p.add_argument("--mfu", help="an override: price the job at this utilisation (0-1] of the GPU's bf16 peak, by the "
                   "MFU path, with no range (default: the book's speed model, lib.plan.step_time, with the range its "
                   "residuals against published measurements give)")
    p.add_argument("--json", action="store_true", help="machine-readable output; with the speed model it adds "
                   "tokens_per_second_low/_high, hours_low/_high, cost_usd_low/_high and cost_eur_low/_high")
    p.add_argument("--lang", default="en", choices=("en", "es"), help="the language of the output and of its errors")
    return p


def _whole(name: str, text: str) -> int:
    try:
        return int(text)
    except (TypeError, ValueError):
        raise PlanError("bad_number", name=name, value=repr(text)) from None


def _layer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise PlanError("bad_layers", value=repr(text), layers="?") from None


def _real(name: str, text: str | None) -> float | None:
    if text is None:
        return None
    try:
        return float(text)
    except ValueError:
        raise PlanError("bad_real", name=name, value=repr(text)) from None


def job_of(args: argparse.Namespace) -> memory.Job:
    """The options as the planner's job (each checked by memory.Job)."""
    for option in ("config", "method", "seq"):
        if getattr(args, option) is None:
            raise PlanError("missing_option", name=f"--{option}")
    targets = memory.ALL_LINEAR if args.targets == memory.ALL_LINEAR else tuple(t for t in args.targets.split(",") if t)
    s = shape(load_config(args.config))
    args.attention = args.attention or memory.default_attention(s)
    return memory.Job(s, args.method, seq=_whole("seq", args.seq),
                      batch=_whole("batch", args.batch), checkpointing=args.checkpointing, attention=args.attention,
                      rank=_whole("rank", args.rank), targets=targets,
                      target_parameters=tuple(t for t in args.target_parameters.split(",") if t),
                      parameter_layers=None if args.parameter_layers is None else tuple(
                          _layer(t) for t in args.parameter_layers.split(",")),
                      optimizer=args.optimizer, gpus=_whole("gpus", args.gpus), sharding=args.sharding,
                      grad_accum=_whole("grad_accum", args.grad_accum))


def plan(args: argparse.Namespace) -> dict:
    job = job_of(args)
    parts = memory.parts(job)
    alive = memory.peak_terms(job)
    out = {"assumed": {"method": job.method, "rank": job.rank if job.adapted else None,
                       "targets": (job.targets if isinstance(job.targets, str) else list(job.targets)) if job.adapted else None,
                       "attention": job.attention, "optimizer": job.optimizer, "optimizer_bytes_per_param": memory.optimizer_bytes(job),
                       "gpus": job.gpus, "sharding": job.sharding, "micro_batch": job.batch, "grad_accum": job.grad_accum,
                       "global_batch": job.global_batch, "tokens_per_step": job.step_tokens},
           "memory_gb": {k: parts[k] / 1e9 for k in PARTS},
           "peak_range_gb": [end / 1e9 for end in speed.peak_range(parts["peak"])],
           "peak_moment": alive["moment"], "peak_terms_gb": {k: v / 1e9 for k, v in alive["terms"].items()},
           "warnings": [w for w, _ in memory.warnings(job)]}
    args.warned, args.job = memory.warnings(job), job
    if args.gpu:
        gpu = find_gpu(args.gpu)
        price = _real("price", args.price)
        run = speed.on_gpu(job, gpu, _real("tokens", args.tokens), _real("mfu", args.mfu), price_usd=price)
        i = load_inputs()
        out |= {"gpu": gpu.key, "fits": run.pop("fits"), "cuda_context_gb": speed.CUDA_CONTEXT_GB} | run
        # beside one GPU (speed model only): one GPU's tokens a second, the node's ratio to it, and why
        out["scaling"] = step_time.scaling(job, gpu) if run["speed_model"] == "parts" and run["tokens_per_second"] else None
        out |= {"price_usd_per_gpu_hour": price if price is not None else gpu_price(gpu, i),
                "price_provider": None if price is not None else gpu.price_provider,
                "price_seen": None if price is not None or price_seen(gpu, i) is None else price_seen(gpu, i).isoformat()}
    return out


def _gb(gb: float, lang: str) -> str:
    """A part in GB, or in MB below one (Figure.memory): never "0.0 GB" for an adapter."""
    return Figure.memory(gb).format(lang)


def table(result: dict, args: argparse.Namespace) -> str:
    lang, w = args.lang, words(args.lang)["plan"]
    job, a = args.job, result["assumed"]
    lines = [w["title"].format(model=args.config, method=args.method, seq=fmt.number(int(args.seq), lang, 0),
                               batch=fmt.number(int(args.batch), lang, 0), attention=args.attention,
                               checkpointing=w["checkpointing"] if args.checkpointing else "")]
    node = w["node_one"] if job.gpus == 1 else w["node_many"].format(gpus=fmt.number(job.gpus, lang, 0),
                                                                         sharding=w["shardings"][job.sharding])
    adapter = w["adapter"].format(rank=job.rank, targets=job.targets if isinstance(job.targets, str) else ",".join(job.targets)) if job.adapted else ""
    lines += [w["assumed"].format(types=w["types"][job.method], optimiser=w["optimizers"][job.optimizer], node=node,
                                  accum=fmt.number(job.grad_accum, lang, 0), batch=fmt.number(job.batch, lang, 0),
                                  global_batch=fmt.number(job.global_batch, lang, 0),
                                  step_tokens=fmt.number(job.step_tokens, lang, 0), adapter=adapter), ""]
    for key in PARTS:
        if key in ("adapters", "buffers") and not result["memory_gb"][key]:
            continue
        lines.append(f"  {w['parts'][key]:<40} {_gb(result['memory_gb'][key], lang):>10}")
    terms = " + ".join(f"{w['terms'][k]} {_gb(v, lang)}" for k, v in result["peak_terms_gb"].items())
    lines += ["", w["peak_sum"].format(moment=w["moments"][result["peak_moment"]], terms=terms,
                                       peak=_gb(result["memory_gb"]["peak"], lang)),
              w["peak_range"].format(range=Figure.memory_range(*result["peak_range_gb"]).format(lang))]
    if "gpu" in result:
        gpu = find_gpu(result["gpu"])
        answer = w["unknown"] if result["fits"] is None else w["yes" if result["fits"] else "no"]
        memory_text = Figure.of(gpu.memory_gb, "GB").format(lang) if gpu.memory_gb else "—"
        lines += ["", w["fits"].format(gpu=gpu.name, memory=memory_text, answer=answer,
                                       context=Figure.of(result["cuda_context_gb"], "GB").format(lang))]
        margin = result["fit_margin"]
        if margin:
            lines.append(words(lang)["calculator_plan"][f"fit_{margin}"].format(
                peak=_gb(speed.margin_end(result["memory_gb"]["peak"] * 1e9, margin) / 1e9, lang)) + ".")
        if result["fits_with_paging"]:
            lines.append(w["paging"].format(states=_gb(result["memory_gb"]["optimizer"], lang)))
        shown = {"gpu": gpu.name, "mfu": Figure.of(result["mfu"], "fraction", decimals=1).format(lang)}
        if result["fits"] is False and not result["fits_with_paging"]:
            lines.append(w["no_fit_speed"].format(**shown))
        elif result["tokens_per_second"] is None:
            lines.append(w["no_speed"].format(**shown))
        else:
            shown |= {"tps": fmt.number(result["tokens_per_second"], lang, 0),
                      "tokens": Figure.of(float(args.tokens), "token", compact=True, decimals=1).format(lang),
                      "time": Figure.duration(result["hours"]).format(lang)}
            ranged = result["speed_model"] == "parts"  # the speed model's, with its range; else --mfu's
            if ranged:
                shown |= {"tps_range": "–".join(fmt.number(result[f"tokens_per_second_{e}"], lang, 0) for e in ("low", "high")),
                          "time_range": Figure.duration_range(result["hours_low"], result["hours_high"]).format(lang)}
            suffix = "_model" if ranged else ""
            if result["cost_usd"] is None:
                lines.append(w["no_price" + suffix].format(**shown))
            else:
                if ranged:
                    shown["usd_range"] = Figure.between(result["cost_usd_low"], result["cost_usd_high"], "USD", decimals=2).format(lang)
                lines.append(w["speed" + suffix].format(**shown, usd=Figure.of(result["cost_usd"], "USD", decimals=2).format(lang),
                                                        eur=Figure.of(result["cost_eur"], "EUR", decimals=2).format(lang)))
                if result["scaling"]:
                    sc = result["scaling"]
                    lines.append(w["scaling"].format(one=fmt.number(sc["one"], lang, 0), gpus=fmt.number(job.gpus, lang, 0),
                                                     ratio=fmt.number(sc["ratio"], lang, 1),
                                                     saved=fmt.number(sc["saved"] * 1000, lang, 0),
                                                     exposed=fmt.number(sc["exposed"] * 1000, lang, 0)))
                price = Figure.of(result["price_usd_per_gpu_hour"], "USD", decimals=2).format(lang)
                gpus = fmt.number(job.gpus, lang, 0)
                lines.append(w["price_own"].format(price=price, gpus=gpus) if result["price_provider"] is None else
                             w["price_book"].format(price=price, gpus=gpus, provider=result["price_provider"],
                                                    seen=Figure.on(dt.date.fromisoformat(result["price_seen"])).format(lang)))
    lines += ["", w["left_out"]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        result = plan(args)
    except PlanError as error:
        print(message(error, args.lang), file=sys.stderr)
        return 2
    for problem, values in args.warned:  # computed, and said: one line each in the reader's language
        print(warning(problem, values, args.lang), file=sys.stderr)
    print(json.dumps(result, indent=2) if args.json else table(result, args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
