"""The GPUs a job may run on (lib/data/gpus.toml): memory, dense BF16 peak, price per GPU-hour.

A figure no source was read for is None, and the GPU's `unverified` names it; every source key is
checked against the book's BibTeX files when the table is loaded.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import tomllib
from functools import cache
from pathlib import Path

from lib.plan.errors import PlanError
from lib.core.inputs import Inputs, bib_keys, load_inputs

GPUS_FILE = Path(__file__).resolve().parents[1] / "data" / "gpus.toml"
FIGURES = {"memory": "memory_gb", "bf16": "bf16_flops", "price": "price_usd_per_hour",
           "bandwidth": "bandwidth_bytes_per_s", "device_memory": "device_memory_mib",
           "interconnect": "interconnect_bytes_per_s"}
MIB = 2**20


@dataclasses.dataclass(frozen=True)
class Gpu:
    """One GPU: `memory_gb` (10^9 bytes as the datasheet prints "GB"), `bf16_flops` (dense peak, FLOP/s),
    `price_usd_per_hour` with `price_seen` (the day the price page was read); None where unverified."""

    key: str
    name: str
    memory_gb: float | None
    bf16_flops: float | None
    price_usd_per_hour: float | None
    price_seen: dt.date | None
    unverified: tuple[str, ...]
    sources: dict
    price_input: str | None = None  # the sourced inputs the price and the memory are read from, where the
    memory_input: str | None = None  # chapters hold them (a what-if on the input moves the planner)
    bandwidth: float | None = None  # memory bandwidth, bytes a second, as the datasheet prints it
    device_memory_mib: int | None = None  # what the driver reports the card holds (nvidia-smi), MiB
    # GPU to GPU within a node, bytes a second, both directions together as the datasheet prints it:
    # NVLink for the SXM cards, PCIe for the others (lib.plan.step_time.collectives uses one direction's half)
    interconnect: float | None = None
    price_provider: str | None = None  # who sells the GPU-hour at the price


INPUTS = ("memory", "price")  # the figures a GPU may read from a sourced input of the chapters (`<figure>_input`)


def _check(key: str, entry: dict, keys: set[str]) -> None:
    unverified = set(entry.get("unverified", ()))
    if not unverified <= FIGURES.keys():
        raise ValueError(f"gpus.toml [{key}]: unverified may name only {sorted(FIGURES)}, not {sorted(unverified - FIGURES.keys())}")
    for figure, field in FIGURES.items():
        if f"{figure}_input" in entry:
            if figure not in INPUTS or field in entry or figure in unverified:
                raise ValueError(f"gpus.toml [{key}]: {figure}_input is the {figure}; give no other, nor list it as unverified")
            continue
        if (field in entry) == (figure in unverified):
            raise ValueError(f"gpus.toml [{key}]: {field} must be given, or {figure!r} listed as unverified, not both or neither")
        if field not in entry:
            continue
        source, url, found = entry.get(f"{figure}_source"), entry.get(f"{figure}_url"), entry.get(f"{figure}_found")
        if not (source or url or found) or not entry.get(f"{figure}_quote"):
            raise ValueError(f"gpus.toml [{key}]: {field} needs {figure}_source, {figure}_url or {figure}_found, and {figure}_quote")
        if found and entry.get(f"{figure}_secondary") is False:
            raise ValueError(f"gpus.toml [{key}]: {figure}_found is a copy found by search: it cannot be primary")
        if source and source not in keys:
            raise ValueError(f"gpus.toml [{key}]: {figure}_source {source!r} is in no .bib file")
    if "price_usd_per_hour" in entry and not isinstance(entry.get("price_seen"), dt.date):
        raise ValueError(f"gpus.toml [{key}]: a price needs the date it was seen (price_seen)")


@cache
def load_gpus() -> dict[str, Gpu]:
    """Every GPU of lib/data/gpus.toml by its key (a100-80gb, h100-sxm, ...), checked; a figure named by
    `<figure>_input` is that input's (lib.core.inputs), a price with the day it was seen."""
    table = tomllib.loads(GPUS_FILE.read_text(encoding="utf8"))
    keys = bib_keys()
    inputs = load_inputs()
    gpus = {}
    for key, entry in table.items():
        _check(key, entry, keys)
        named = {figure: entry[f"{figure}_input"] for figure in INPUTS if f"{figure}_input" in entry}
        memory = inputs[named["memory"]].value if "memory" in named else entry.get("memory_gb")
        price_, seen = ((inputs[named["price"]].value, inputs[named["price"]].seen) if "price" in named
                        else (entry.get("price_usd_per_hour"), entry.get("price_seen")))
        gpus[key] = Gpu(key, entry["name"], memory, entry.get("bf16_flops"), price_, seen,
                        tuple(entry.get("unverified", ())),
                        {k: v for k, v in entry.items() if k.split("_")[0] in FIGURES or k.startswith("device_memory")},
                        named.get("price"), named.get("memory"), entry.get("bandwidth_bytes_per_s"),
                        entry.get("device_memory_mib"), entry.get("interconnect_bytes_per_s"),
                        entry.get("price_provider"))
    return gpus


def price(g: Gpu, i: Inputs) -> float | None:
    """The GPU's price per hour in `i`: its input's where it has one (so that a what-if moves it), else the table's."""
    return i[g.price_input].value if g.price_input else g.price_usd_per_hour


def price_seen(g: Gpu, i: Inputs) -> dt.date | None:
    """The day the GPU's price in `i` was seen."""
    return i[g.price_input].seen if g.price_input else g.price_seen


def memory(g: Gpu, i: Inputs) -> float | None:
    """The GPU's memory (GB) in `i`: its input's where it has one, else the table's."""
    return i[g.memory_input].value if g.memory_input else g.memory_gb


def capacity_bytes(g: Gpu, i: Inputs) -> float | None:
    """The bytes a job can use on the GPU: the datasheet's GB in `i` (`memory`) × what the card's driver
    reports per datasheet byte (device_memory_mib, 2^20 bytes each: an H100 80GB reports 81,559 MiB, 85.5 ×
    10^9 bytes, 1.069 × its 80 × 10^9) where a reading was found; else the datasheet's GB as 10^9 bytes,
    which may be less than the card holds. Derived from the sourced input, so that a what-if moving it moves
    the capacity every fit decision uses."""
    gb = memory(g, i)
    if gb is None:
        return None
    return gb * 1e9 * device_ratio(g)


def device_ratio(g: Gpu) -> float:
    """The driver's reported bytes over the datasheet's (10^9 bytes a GB), 1 where no reading was found."""
    if g.device_memory_mib is None or not g.memory_gb:
        return 1.0
    return g.device_memory_mib * MIB / (g.memory_gb * 1e9)


def gpu(name: str) -> Gpu:
    """The GPU with this key; a ValueError naming the known ones when there is none."""
    gpus = load_gpus()
    if name not in gpus:
        raise PlanError("unknown_gpu", name=repr(name), known=", ".join(gpus))
    return gpus[name]
