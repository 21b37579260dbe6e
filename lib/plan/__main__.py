"""`python -m lib.plan`: one training job's memory by part, its peak, and, on a GPU, whether it fits,
how fast it trains and what a number of tokens costs: by the book's speed model, with the range its
residuals against published measurements give, or at a utilisation given with `--mfu` (an override, no
range). `--json` for programs; otherwise a short table
in the reader's language. A job that does not fit the GPU gets no speed, time or cost (in the JSON,
`fits` false and those keys null). A bad input is one line in that language, and exit status 2."""

from __future__ import annotations

import argparse
import json
import sys

from lib.core import fmt
from lib.core.figure import Figure
from lib.core.words import words
from lib.plan import memory, speed
from lib.plan.errors import PlanError, message, warning
from lib.plan.gpus import gpu as find_gpu
from lib.plan.shapes import load_config, shape

PARTS = ("weights", "adapters", "gradients", "optimizer", "activations", "after_step", "peak")


class _Parser(argparse.ArgumentParser):
    def error(self, text: str):  # argparse's own complaint, as one line and exit status 2
        self.exit(2, f"{self.prog}: {text}\n")


def parser() -> argparse.ArgumentParser:
    """Every option as text: lib.plan checks each, so that a bad one is told in the reader's language."""
    p = _Parser(prog="python -m lib.plan", description=__doc__.splitlines()[0])
    p.add_argument("--config", help="a shipped model's name (lib/data/models) or a config.json path")
    p.add_argument("--method", help=" | ".join(memory.METHODS))
    p.add_argument("--rank", default="16")
    p.add_argument("--targets", default="q_proj,v_proj", help="modules to adapt, comma-separated, or all-linear")
    p.add_argument("--target-parameters", default="", help="expert stacks to adapt (PEFT's target_parameters), comma-separated: "
                   "experts.gate_up_proj,experts.down_proj")
    p.add_argument("--parameter-layers", help="the layers whose experts to adapt, comma-separated (default: all)")
    p.add_argument("--seq")
    p.add_argument("--batch", default="1")
    p.add_argument("--checkpointing", action="store_true")
    p.add_argument("--attention", help=" | ".join(memory.ATTENTIONS) + " (default: sdpa, or eager where the model runs no other)")
    p.add_argument("--gpu")
    p.add_argument("--tokens", default="1e9")
    p.add_argument("--mfu", help="an override: price the job at this utilisation (0-1] of the GPU's bf16 peak, by the "
                   "MFU path, with no range (default: the book's speed model, lib.plan.step_time, with the range its "
                   "residuals against published measurements give)")
    p.add_argument("--json", action="store_true", help="machine-readable output; with the speed model it adds "
                   "tokens_per_second_low/_high, hours_low/_high, cost_usd_low/_high and cost_eur_low/_high")
    p.add_argument("--lang", default="en", choices=("en", "es"))
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


def plan(args: argparse.Namespace) -> dict:
    for option in ("config", "method", "seq"):
        if getattr(args, option) is None:
            raise PlanError("missing_option", name=f"--{option}")
    targets = memory.ALL_LINEAR if args.targets == memory.ALL_LINEAR else tuple(t for t in args.targets.split(",") if t)
    s = shape(load_config(args.config))
    args.attention = args.attention or memory.default_attention(s)
    job = memory.Job(s, args.method, seq=_whole("seq", args.seq),
                     batch=_whole("batch", args.batch), checkpointing=args.checkpointing, attention=args.attention,
                     rank=_whole("rank", args.rank), targets=targets,
                     target_parameters=tuple(t for t in args.target_parameters.split(",") if t),
                     parameter_layers=None if args.parameter_layers is None else tuple(
                         _layer(t) for t in args.parameter_layers.split(",")))
    parts = memory.parts(job)
    out = {"memory_gb": {k: parts[k] / 1e9 for k in PARTS}, "warnings": [w for w, _ in memory.warnings(job)]}
    args.warned = memory.warnings(job)
    if args.gpu:
        gpu = find_gpu(args.gpu)
        run = speed.on_gpu(job, gpu, _real("tokens", args.tokens), _real("mfu", args.mfu))
        out |= {"gpu": gpu.key, "fits": run.pop("fits"), "cuda_context_gb": speed.CUDA_CONTEXT_GB} | run
    return out


def table(result: dict, args: argparse.Namespace) -> str:
    lang, w = args.lang, words(args.lang)["plan"]
    lines = [w["title"].format(model=args.config, method=args.method, seq=fmt.number(int(args.seq), lang, 0),
                               batch=fmt.number(int(args.batch), lang, 0), attention=args.attention,
                               checkpointing=w["checkpointing"] if args.checkpointing else ""), ""]
    for key in PARTS:
        lines.append(f"  {w['parts'][key]:<40} {fmt.number(result['memory_gb'][key], lang, 1):>8} {w['gb']}")
    if "gpu" in result:
        gpu = find_gpu(result["gpu"])
        answer = w["unknown"] if result["fits"] is None else w["yes" if result["fits"] else "no"]
        memory_text = Figure.of(gpu.memory_gb, "GB").format(lang) if gpu.memory_gb else "—"
        lines += ["", w["fits"].format(gpu=gpu.name, memory=memory_text, answer=answer,
                                       context=Figure.of(result["cuda_context_gb"], "GB").format(lang))]
        shown = {"gpu": gpu.name, "mfu": Figure.of(result["mfu"], "fraction", decimals=1).format(lang)}
        if result["fits"] is False:
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
                          "time_range": "–".join(Figure.duration(result[f"hours_{e}"]).format(lang) for e in ("low", "high"))}
            suffix = "_model" if ranged else ""
            if result["cost_usd"] is None:
                lines.append(w["no_price" + suffix].format(**shown))
            else:
                if ranged:
                    shown["usd_range"] = Figure.between(result["cost_usd_low"], result["cost_usd_high"], "USD", decimals=2).format(lang)
                lines.append(w["speed" + suffix].format(**shown, usd=Figure.of(result["cost_usd"], "USD", decimals=2).format(lang),
                                                        eur=Figure.of(result["cost_eur"], "EUR", decimals=2).format(lang)))
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
