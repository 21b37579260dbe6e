"""How long one training step of a job takes on a GPU, by part: a speed model from the GPU's sourced bf16
peak and memory bandwidth, and the share of each that a kind of kernel reaches in published measurements
of that kernel (lib/data/plan/speed.toml), never fitted to a measured training run.

The parts of a step (`parts`):
- `matmul`: every matrix product, each timed as the slower of its FLOPs at the GEMM share of the peak and
  its bytes (weights in bf16, inputs and outputs) at the bandwidth share: a product over few tokens (a
  small batch, an expert that gets few of them) is bound by reading its weights, not by its FLOPs. The
  forward pass runs each once (twice under gradient checkpointing, which runs it again in the backward
  pass); the backward pass runs the product for the inputs' gradient always and the weights' gradient
  only for weights that train (LoRA's frozen weights have none; its adapters do). A mixture of experts'
  expert gets tokens × experts per token ÷ experts tokens on average, and only the experts some token
  is routed to are read.
- `attention`: the scores' products, which grow with the sequence: FlashAttention (sdpa, or
  transformers' flash_attention_2) at the published attention share, skipping the causal half; eager attention (and PyTorch's math kernel, which
  QLoRA of a grouped-query model falls back to: lib.plan.memory.math_attention) as two products at the
  GEMM share plus the scores' memory traffic.
- `memory`: work bound by bandwidth: QLoRA's NF4 weights dequantised to bf16 for each pass, autocast's
  bf16 copy of fp32 weights, the optimizer's step over its states, element-wise work and norms (the
  saved activations, moved about three times), and the loss over the logits.
- `launch`: what the CPU spends launching each kernel; a step takes at least that long.

- `communication`: on a node of several GPUs (Job.gpus), the collectives each step runs (`collectives`),
  at the interconnect's bandwidth one way (half what the datasheet prints for both directions: a ring sends
  and receives at once) times the share NCCL reaches (speed.toml's `interconnect`). A ring all-reduce moves
  2(N−1)/N of the buffer through each GPU, an all-gather or a reduce-scatter (N−1)/N (nccl-tests' bus
  bandwidth factors). DDP all-reduces the gradients; ZeRO-1 and ZeRO-2 reduce-scatter them and all-gather the
  updated trainable weights (bf16); ZeRO-3 all-gathers the bf16 weights for the forward pass and again for
  the backward pass, and reduce-scatters the gradients. Under accumulation DDP, ZeRO-1 and ZeRO-2 communicate
  once an optimizer step (DDP's no_sync), ZeRO-3 every micro-batch; the optimizer's step, too, runs once an
  optimizer step, and its memory traffic is divided by the accumulation.

What overlaps (the frameworks' design, assumed, not measured): DDP, ZeRO-1 and ZeRO-2 run their gradient
collectives during the backward pass, as each bucket of gradients is ready: the step takes the forward
pass's share of the work plus the longer of the backward pass's share and the communication (the backward
pass's share taken as its products' share: `backward_share`). ZeRO-3 prefetches each unit's weights while
the previous unit computes, and reduce-scatters during the backward pass: the step takes the longer of the
work and the communication.

The step takes the longer of that and the launches. Tokens a second are the step's tokens (over every GPU)
over its time; the range around them comes from the model's residuals against
published measurements (lib.plan.validation.speed_range, through `range_from_residuals`).
"""

from __future__ import annotations

import dataclasses
import functools
import tomllib
from pathlib import Path

from lib.plan import memory
from lib.plan.gpus import Gpu
from lib.plan.memory import Job, shard
from lib.plan.shapes import expert_parameters, linear_modules, param_count

CONSTANTS = Path(__file__).resolve().parents[1] / "data" / "plan" / "speed.toml"
CAUSAL_SHARE = 0.5  # FlashAttention skips the blocks a causal mask hides: half the scores
ATTENTION_BACKWARD = 2.5  # FlashAttention's backward: five products to the forward's two
SCORE_BYTES = {"eager": 12, "math": 16}  # bytes a score moves: written, softmax read and written, read (bf16; fp32 math)


@functools.cache
def constants() -> dict:
    with CONSTANTS.open("rb") as f:
        return tomllib.load(f)


def _matmul(m: float, k: float, n: float, gpu: Gpu, c: dict) -> float:
    """Seconds of one product of an m × k input by a k × n bf16 weight: FLOPs or bytes, the slower."""
    flops = 2 * m * k * n / (gpu.bf16_flops * c["gemm"]["fraction"])
    moved = 2 * (k * n + m * (k + n)) / (gpu.bandwidth * c["bandwidth"]["fraction"])
    return max(flops, moved)


def _adapted_modules(job: Job) -> dict[str, tuple[int, int]]:
    modules = linear_modules(job.shape)
    if not job.adapted:
        return {}
    return modules if job.targets == memory.ALL_LINEAR else {n: modules[n] for n in job.targets}


def _routed(job: Job) -> tuple[float, float]:
    """Tokens each expert gets on average, and how many of a layer's experts get any (tokens routed at random)."""
    s, t = job.shape, job.tokens
    share = s.experts_per_token / s.experts
    return t * share, s.experts * (1 - (1 - share) ** t)


def parts(job: Job, gpu: Gpu) -> dict[str, float]:
    """Seconds of one step by part (the module's docstring), and `step`, the step's time."""
    c, s, t = constants(), job.shape, job.tokens
    passes = 2 if job.checkpointing else 1  # forward passes: again under checkpointing
    trains = not job.adapted
    # matrix products of the layers' linear modules, the experts and the output layer
    per_layer = 0.0
    for k, n in linear_modules(s).values():
        one = _matmul(t, k, n, gpu, c)
        per_layer += one * (passes + 1 + trains)
    if s.experts > 1:
        m, hit = _routed(job)
        router = _matmul(t, s.hidden, s.experts, gpu, c)
        stacks = sum(_matmul(m, k, n, gpu, c) for k, n in expert_parameters(s).values())
        per_layer += router * (passes + 1 + trains) + hit * stacks * (passes + 1 + trains)
    adapted_experts = job.expert_layers * (hit * stacks if s.experts > 1 else 0)  # their weights' gradients
    adapters = sum(_matmul(t, k, job.rank, gpu, c) + _matmul(t, job.rank, n, gpu, c)
                   for k, n in _adapted_modules(job).values())
    head = _matmul(t, s.hidden, s.vocab, gpu, c) * (passes + 1 + trains)
    matmul = s.layers * per_layer + adapted_experts + s.layers * adapters * (passes + 2) + head
    # attention's scores
    kind = "math" if memory.math_attention(job) else job.attention
    flops = 4 * job.batch * job.seq ** 2 * s.heads * s.head_dim
    if kind in memory.FUSED:
        attention = flops * CAUSAL_SHARE * (passes + ATTENTION_BACKWARD) / (gpu.bf16_flops * c["attention"]["fraction"])
    else:
        scores = job.batch * s.heads * job.seq ** 2 * SCORE_BYTES[kind]
        attention = (flops * (passes + 2) / (gpu.bf16_flops * c["gemm"]["fraction"])
                     + scores * (passes + 2) / (gpu.bandwidth * c["bandwidth"]["fraction"]))
    attention *= s.layers
    # work bound by bandwidth
    p = param_count(s)["total"]
    moved = 0.0
    if job.method == "qlora":  # dequantised to bf16 for each forward pass and for the backward pass
        moved += memory.quantised_params(s) * (memory.NF4_BYTES + 2) * (passes + 1)
    if job.method == "full-mixed":  # autocast's bf16 copy of each fp32 weight (ZeRO-3: of its shard), each forward pass
        moved += p * (4 + 2) * passes * shard(job)["weights"]
    states = memory.states(job)
    weights_step = {"full-mixed": 4, "full-bf16": 2}.get(job.method, 0) * p * 2  # read and written
    moved += (weights_step * shard(job)["optimizer"] + states["gradients"]
              + 2 * states["optimizer"] + 2 * states["adapters"]) / job.grad_accum
    saved = memory._activations(dataclasses.replace(job, checkpointing=False))[0]
    moved += saved * (c["traffic"]["activation_passes"] + passes - 1)
    moved += t * s.vocab * c["traffic"]["loss_bytes_per_logit"]
    memory_bound = moved / (gpu.bandwidth * c["bandwidth"]["fraction"])
    # launches
    k = c["kernels"]
    forward = k[s.arch] + k["per_adapter"] * len(_adapted_modules(job))
    if s.experts > 1:
        forward += k["per_routed_expert"] * _routed(job)[1]
    launches = s.layers * forward * (passes + k["backward_per_forward"])
    launch = launches * c["launch"]["seconds"]
    work = matmul + attention + memory_bound
    communication = collectives(job, gpu, c) if job.gpus > 1 else 0.0
    if job.gpus > 1 and job.sharding == "zero3":
        overlapped = max(work, communication)
    else:
        backward = backward_share(job) * work
        overlapped = work - backward + max(backward, communication)
    return {"matmul": matmul, "attention": attention, "memory": memory_bound, "communication": communication,
            "launch": launch, "step": max(overlapped, launch)}


def backward_share(job: Job) -> float:
    """The backward pass's share of a step's products: 1 for the inputs' gradient and 1 for the weights'
    where they train, over those and the forward passes (2 under checkpointing)."""
    passes, trains = (2 if job.checkpointing else 1), (0 if job.adapted else 1)
    return (1 + trains) / (passes + 1 + trains)


def collectives(job: Job, gpu: Gpu, c: dict | None = None) -> float | None:
    """Seconds of one micro-batch's collectives on a node (the module's docstring), or None where the GPU's
    interconnect is unverified; 0 on one GPU."""
    if job.gpus == 1:
        return 0.0
    if gpu.interconnect is None:
        return None
    c = constants() if c is None else c
    whole = memory.whole_states(job)
    ring = (job.gpus - 1) / job.gpus
    gathered = memory.GATHERED_BYTES * memory.trainable_params(job)  # the updated trainable weights, bf16
    if job.sharding == "ddp":
        moved = 2 * ring * whole["gradients"] / job.grad_accum
    elif job.sharding in ("zero1", "zero2"):
        moved = ring * (whole["gradients"] + gathered) / job.grad_accum
    else:  # zero3: every weight gathered twice a micro-batch, the gradients reduce-scattered
        weights = memory.GATHERED_BYTES * param_count(job.shape)["total"]
        moved = ring * (2 * weights + whole["gradients"])
    return moved / (gpu.interconnect / 2 * c["interconnect"]["fraction"])


def tokens_per_second(job: Job, gpu: Gpu) -> float | None:
    """The job's tokens a second on the GPU, or on the node of job.gpus GPUs (every GPU's tokens), by the
    model; None where a node's interconnect is unverified."""
    if job.gpus > 1 and gpu.interconnect is None:
        return None
    return job.gpus * job.tokens / parts(job, gpu)["step"]


def scaling(job: Job, gpu: Gpu) -> dict | None:
    """How the node's speed compares with one GPU's on the same micro-batch (`one`, tokens a second; `ratio`,
    the node's over it), and why it is not simply job.gpus times: the seconds a step each GPU saves by running
    only its share of the sharded work (`saved`: the optimizer's step, autocast's cast of the weights) and the
    seconds it waits for collectives the work does not hide (`exposed`). None on one GPU or where the node's
    speed is unknown."""
    node = tokens_per_second(job, gpu) if job.gpus > 1 else None
    if node is None:
        return None
    alone = dataclasses.replace(job, gpus=1, sharding="ddp")
    one, many, single = parts(alone, gpu), parts(job, gpu), tokens_per_second(alone, gpu)
    work = many["matmul"] + many["attention"] + many["memory"]
    return {"one": single, "ratio": node / single,
            "saved": one["memory"] - many["memory"], "exposed": max(many["step"] - max(work, many["launch"]), 0.0)}


def range_from_residuals(pairs: list[tuple[float, float]]) -> tuple[float, float]:
    """The factors (low, high) by which a prediction is multiplied to cover what was measured: the least and
    the most of measured ÷ predicted over (predicted, measured) pairs, such as the validation's rows that no
    constant came from. A ValueError for no pairs or a pair that is not two positive numbers."""
    if not pairs:
        raise ValueError("no (predicted, measured) pairs to take a range from")
    ratios = []
    for predicted, measured in pairs:
        if not (predicted > 0 and measured > 0):
            raise ValueError(f"a pair must be two positive numbers, not {(predicted, measured)!r}")
        ratios.append(measured / predicted)
    return min(ratios), max(ratios)
