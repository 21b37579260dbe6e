"""Sourced inputs: load lib/data/inputs/*.toml, check every entry's provenance.

An input is data, never a literal in code. Loading fails with a message that
names the input when its source is missing, its source key is not in the
book's BibTeX file, its unit is unknown, or a price has no date. `problems()`
(the preflight's part) says every such mistake at once, each with its file, and
also an input whose quote does not write its value and a price seen after the day
its reference says the page was read (`urldate`): the two a price update forgets.
"""

from __future__ import annotations

import copy
import dataclasses
import datetime as dt
import math
import re
import tomllib
from collections.abc import Mapping
from functools import lru_cache, wraps
from pathlib import Path

from pybtex.database import parse_file

DATA_DIR = Path(__file__).parents[1] / "data" / "inputs"
BOOK_DIR = Path(__file__).resolve().parents[2] / "book"

UNITS = {
    "token", "parameter", "layer", "dimension", "rank", "matrix", "GPU", "count", "point",
    "ratio", "TB", "GB", "MB", "byte", "byte/parameter", "FLOP", "FLOP/s",
    "FLOP/parameter/token", "token/s/GPU", "minute", "day", "hour", "GPU-hour", "chip", "epoch", "sequence",
    "chip-hour", "USD", "EUR", "USD/GPU-hour", "USD/chip-hour", "USD/month", "date", "calendar-year", "text",
    # energy, emissions and hardware prices (the costs chapter)
    "W", "kWh", "MWh", "tCO2eq", "tCO2eq/MWh", "USD/kWh", "USD/chip",
}
# Prices and rates change: these must say when they were seen (a date; a year if no day is known).
DATED_UNITS = {"USD/GPU-hour", "USD/chip-hour", "USD/month"}
REQUIRED = ("unit", "source", "locator", "locator_es", "quote")


class InputError(ValueError):
    """An input in inputs.toml is malformed or lacks provenance."""


@dataclasses.dataclass(frozen=True)
class Input:
    name: str
    unit: str
    source: str
    locator: str
    locator_es: str  # the same place in the source, in Spanish (the method page's table)
    quote: str
    value: float | str | dt.date | None = None
    low: float | None = None
    high: float | None = None
    seen: dt.date | int | None = None  # a day, or only the year where the source gives no day
    bound: str | None = None  # "more_than", "at_least" or "less_than" where the source gives only a bound ("over 100")
    secondary: bool = False  # known only from reports of the source, not from the source itself
    # How the value follows from the quote where the quote does not write it ("$14/hr for a node of
    # 8 GPUs, per GPU"; "the matrices W, V and W2, counted"): the preflight then does not look for it there.
    derived: str | None = None

    def where(self, lang: str) -> str:
        """Where in its source the input is, in `lang`."""
        return self.locator_es if lang == "es" else self.locator

    @property
    def is_range(self) -> bool:
        return self.value is None

    def figure(self, unit: str | None = None, **style):
        """The input as a figure; a bound stays a bound ("over 100" is not 100)."""
        from lib.core.figure import Figure

        unit = self.unit if unit is None else unit
        if self.bound == "less_than":
            return Figure.less_than(self.value, unit, **style)
        if self.bound:
            return Figure.more_than(self.value, unit, inclusive=self.bound == "at_least", **style)
        if self.is_range:
            return Figure.between(self.low, self.high, unit, **style)
        return Figure.of(self.value, unit, **style)


def bib_files() -> list[Path]:
    return sorted(BOOK_DIR.glob("*.bib"))


def bib_keys() -> set[str]:
    return set(_bib_keys(tuple((str(p), p.stat().st_mtime_ns) for p in bib_files())))


@lru_cache(maxsize=32)
def _toml(path: str, mtime: int) -> dict:
    """A .toml file parsed once per version of the file (path, mtime)."""
    with open(path, "rb") as fh:
        return tomllib.load(fh)


@lru_cache(maxsize=4)
def _bib_keys(files: tuple[tuple[str, int], ...]) -> frozenset[str]:
    """The keys of the .bib files, parsed once per version of the files (path, mtime)."""
    return frozenset(key for path, _ in files for key in parse_file(path).entries.keys())


def bib_urldates() -> dict[str, dt.date]:
    """Each reference's `urldate` (the day its page was read), for the references that have one."""
    return dict(_bib_urldates(tuple((str(p), p.stat().st_mtime_ns) for p in bib_files())))


@lru_cache(maxsize=4)
def _bib_urldates(files: tuple[tuple[str, int], ...]) -> tuple[tuple[str, dt.date], ...]:
    return tuple((key, dt.date.fromisoformat(entry.fields["urldate"].strip()))
                 for path, _ in files for key, entry in parse_file(path).entries.items() if "urldate" in entry.fields)


def read_tables(folder: Path) -> dict[str, dict]:
    """Merge the top-level tables of every .toml file in `folder`; a name defined twice is an error
    that names it and both files."""
    return _read_tables(folder)[0]


def _read_tables(folder: Path) -> tuple[dict[str, dict], dict[str, str]]:
    """The merged tables, and the file (from the repository's root) each name is defined in."""
    merged: dict[str, dict] = {}
    where: dict[str, str] = {}
    for path in sorted(folder.glob("*.toml")):
        try:
            tables = copy.deepcopy(_toml(str(path), path.stat().st_mtime_ns))
        except tomllib.TOMLDecodeError as exc:
            raise ValueError(f"{_shown(path)} is not valid TOML: {exc}") from None
        twice = sorted(set(tables) & set(merged))
        if twice:
            raise ValueError("; ".join(f"'{name}' is defined twice, in {where[name]} and in {_shown(path)}"
                                       for name in twice) + ": give each a name of its own")
        merged.update(tables)
        where |= dict.fromkeys(tables, _shown(path))
    return merged, where


def _shown(path: Path) -> str:
    """A data file's path as a maintainer finds it: from the repository's root."""
    try:
        return str(path.resolve().relative_to(BOOK_DIR.parent))
    except ValueError:
        return str(path)


def _check(name: str, raw: Mapping, keys: set[str]) -> Input:
    missing = [field for field in REQUIRED if not raw.get(field)]
    if missing:
        raise InputError(f"input '{name}' has no {', '.join(missing)}")
    if raw["source"] not in keys:
        raise InputError(f"input '{name}' cites source '{raw['source']}', which is in no .bib file of book/")
    if raw["unit"] not in UNITS:
        raise InputError(f"input '{name}' has unknown unit '{raw['unit']}'")
    seen = raw.get("seen")
    if seen is not None and not (isinstance(seen, dt.date) or (type(seen) is int and 1990 <= seen <= 2100)):
        raise InputError(f"input '{name}' has 'seen' = {seen!r}: give a date, or a year when no day was recorded")
    if raw["unit"] in DATED_UNITS and seen is None:
        raise InputError(f"input '{name}' is a price and needs 'seen', the date (or year) it was read")
    if raw.get("derived") is not None and not (isinstance(raw["derived"], str) and raw["derived"].strip()):
        raise InputError(f"input '{name}' has derived = {raw['derived']!r}: say in words how the value follows from the quote")
    if not isinstance(raw.get("secondary", False), bool):
        raise InputError(f"input '{name}' has secondary = {raw['secondary']!r}: use true or false")
    if raw.get("bound") not in (None, "more_than", "at_least", "less_than"):
        raise InputError(f"input '{name}' has bound = {raw['bound']!r}: use 'more_than', 'at_least' or 'less_than'")
    has_value = "value" in raw
    has_range = "low" in raw and "high" in raw
    if has_value == has_range:
        raise InputError(f"input '{name}' needs either 'value' or both 'low' and 'high'")
    numbers = [raw[k] for k in ("value", "low", "high") if k in raw and isinstance(raw[k], (int, float))]
    for number in numbers:
        if isinstance(number, bool) or not math.isfinite(number) or number < 0:
            raise InputError(f"input '{name}' has a value that is not a finite, non-negative number: {number!r}")
    if has_range and not raw["low"] <= raw["high"]:
        raise InputError(f"input '{name}' has low > high")
    known = {f.name for f in dataclasses.fields(Input)} - {"name"}
    extra = set(raw) - known
    if extra:
        raise InputError(f"input '{name}' has unknown fields: {', '.join(sorted(extra))}")
    fields = dict(raw)
    for k in ("value", "low", "high"):
        if isinstance(fields.get(k), int) and not isinstance(fields.get(k), bool):
            fields[k] = float(fields[k])
    return Input(name=name, **fields)


class Inputs(Mapping):
    """All sourced inputs by name; `inputs.opt_gpus` is the value of that input."""

    def __init__(self, entries: Mapping[str, Input], read: set[str] | None = None, _shared: dict | None = None):
        self._entries = dict(entries) if _shared is None else entries
        self._read = read  # when a set, the names looked up are added to it
        # What once_per_inputs computed from these inputs, shared with their recording views.
        self._computed = {} if _shared is None else _shared

    def recording(self, read: set[str]) -> "Inputs":
        """The same inputs, adding to `read` the name of every input looked up."""
        return Inputs(self._entries, read, self._computed)

    def __getitem__(self, name: str) -> Input:
        if self._read is not None:
            self._read.add(name)
        try:
            return self._entries[name]
        except KeyError:
            raise KeyError(f"no sourced input named '{name}'") from None

    def __iter__(self):
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        entry = self[name]
        return (entry.low, entry.high) if entry.is_range else entry.value

    def seen_on(self, *names: str):
        """The day (or days) the inputs `names` were seen, each its own, as a figure to write beside
        them: "September 25, 2026", or "September 25 and December 4, 2026" for a range of two
        prices read on two days; a year where only the year was recorded."""
        from lib.core.figure import Figure

        seen = [self[name].seen for name in names]
        missing = [name for name, when in zip(names, seen) if when is None]
        if not names or missing:
            raise ValueError(f"no date seen for {', '.join(missing) or 'no input'}")
        years = {when for when in seen if isinstance(when, int)}
        if years:
            if len(set(seen)) > 1:
                raise ValueError(f"{', '.join(names)} mix a year and days seen")
            return Figure.of(years.pop(), "calendar-year")
        return Figure.on_days(*seen)

    def replace(self, name: str, **changes) -> "Inputs":
        """A copy with one input changed (for what-if cells and sensitivity tests)."""
        entries = dict(self._entries)
        entries[name] = dataclasses.replace(self[name], **changes)
        return Inputs(entries)

    def nudged(self, name: str) -> "Inputs":
        """A copy with one input changed a little, whatever its kind (to see what depends on it)."""
        entry = self[name]
        if entry.unit == "text":
            return self.replace(name, value=f"{entry.value} (nudged)")
        if entry.unit == "date":
            return self.replace(name, value=entry.value - dt.timedelta(days=7))  # the same weekday
        if not entry.is_range and not isinstance(entry.value, float):
            raise ValueError(f"input '{name}' cannot be nudged")
        return self.scaled(name, 1.01)

    def scaled(self, name: str, factor: float) -> "Inputs":
        """A copy with one numeric input multiplied by `factor`."""
        entry = self[name]
        if entry.is_range:
            return self.replace(name, low=entry.low * factor, high=entry.high * factor)
        if not isinstance(entry.value, float):
            raise ValueError(f"input '{name}' is not a number and cannot be scaled")
        return self.replace(name, value=entry.value * factor)


def once_per_inputs(fn):
    """`fn(i, *args)` computed once for one set of inputs and the same arguments (hashable): an Inputs
    changes nothing in place, so neither does what is computed from it; the result is shared, and its
    callers read it, never change it. A recording view of the inputs (Inputs.recording) is still told
    every name the computation read."""
    @wraps(fn)
    def computed_once(i: Inputs, *args):
        key = (fn, args)
        found = i._computed.get(key)
        if found is None:
            read: set[str] = set()
            found = i._computed[key] = (fn(i.recording(read), *args), frozenset(read))
        if i._read is not None:
            i._read.update(found[1])
        return found[0]

    return computed_once


def load_inputs(data_dir: Path | None = None) -> Inputs:
    """Every sourced input of `data_dir` (lib/data/inputs), checked. Read and checked once per version
    of its files and of the .bib files (path, mtime): the planner asks for them at every job it
    times. An Inputs changes nothing in place (replace, scaled give copies), so one can be shared."""
    folder = DATA_DIR if data_dir is None else data_dir
    return _load_inputs(folder, _versions(sorted(folder.glob("*.toml"))), _versions(bib_files()))


def _versions(paths) -> tuple[tuple[str, int], ...]:
    return tuple((str(p), p.stat().st_mtime_ns) for p in paths)


@lru_cache(maxsize=8)
def _load_inputs(folder: Path, tomls: tuple, bibs: tuple) -> Inputs:
    raw = read_tables(folder)
    keys = bib_keys()
    return Inputs({name: _check(name, entry, keys) for name, entry in raw.items()})


# ---------------------------------------------------------------- the quote writes the value

NUMBER_WORDS = {w: n for n, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())}
# A number as a source writes it: 1,024 or 1024, 3.99, 4.30E+23, 2.56×10^24, 3.0e-4 (digits inside a
# word count too: bfloat16, 8XH100).
WRITTEN = re.compile(r"(?<![\d.])(\d{1,3}(?:,\d{3}(?!\d))+|\d+)(\.\d+)?(?:\s*(?:[eE]([+-]?\d+)|[×x]\s*10\^?([+-]?\d+)))?")
FRACTION = re.compile(r"(?<![\d.])(\d+)/(\d+)(?![\d./])")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")


def written_numbers(quote: str) -> list[float]:
    """Every number the quote writes, in digits (with its exponent), as a fraction (2/3) or in words."""
    found = []
    for m in WRITTEN.finditer(quote):
        number = float(m.group(1).replace(",", "") + (m.group(2) or ""))
        exponent = m.group(3) or m.group(4)
        found.append(number * 10 ** int(exponent) if exponent else number)
    found += [int(a) / int(b) for a, b in FRACTION.findall(quote) if int(b)]
    found += [float(NUMBER_WORDS[w]) for w in re.findall(r"[a-z]+", quote.lower()) if w in NUMBER_WORDS]
    return found


def _same_digits(value: float, written: float) -> bool:
    """Whether `value` is `written` at some scale: 312 TFLOPS is 3.12e14 FLOP/s, 46.2% is 0.462, 52K is 52,000."""
    if value == 0 or written == 0:
        return value == written
    power = math.log10(value / written)
    return abs(power - round(power)) < 1e-9


def _date_forms(day: dt.date) -> list[str]:
    month = MONTHS[day.month - 1]
    return [day.isoformat(), f"{month} {day.day}", f"{month[:3]} {day.day}", f"{day.day} {month[:3]}",
            f"{day.day} {month}"] + ([f"arXiv:{day:%y%m}"] if day.day == 1 else [])  # a month, by its arXiv number


def quote_writes_value(entry: Input) -> bool:
    """Whether the quote writes the input's value (both ends of a range, the figure of a bound), as
    its source writes it: a number at any scale (1,024; 3e12; 46.2%; 1.2TB for 1,200 GB), a date in
    the usual forms. A text's value is the book's words for what the quote says, not a copy of it;
    an input whose value is derived from the quote says how (`derived`)."""
    if entry.unit == "text" or entry.derived:
        return True
    values = [entry.low, entry.high] if entry.is_range else [entry.value]
    if entry.unit == "date":
        return all(any(form in entry.quote for form in _date_forms(v)) for v in values)
    numbers = written_numbers(entry.quote)
    return all(any(_same_digits(v, n) for n in numbers) for v in values)


def problems(data_dir: Path | None = None) -> list[str]:
    """Every mistake of the inputs, each in one line that names its file: what loading refuses (each
    one, not only the first), a quote that does not write the value, and a price seen after the day its
    reference was read (its `urldate`). An empty list when there is none."""
    try:
        raw, files = _read_tables(DATA_DIR if data_dir is None else data_dir)
    except ValueError as exc:
        return [str(exc)]
    keys, read_on = bib_keys(), bib_urldates()
    found = []
    for name, fields in raw.items():
        try:
            entry = _check(name, fields, keys)
        except InputError as exc:
            found.append(f"{files[name]}: {exc}")
            continue
        if not quote_writes_value(entry):
            shown = f"{entry.low:g}..{entry.high:g}" if entry.is_range else (
                f"{entry.value:g}" if isinstance(entry.value, float) else str(entry.value))
            found.append(f"{files[name]}: input '{name}' has the value {shown}, which its quote does not write "
                         f"(\"{entry.quote[:80]}\"): change the quote with the value, or say how it follows (derived)")
        urldate = read_on.get(entry.source)
        if entry.unit in DATED_UNITS and isinstance(entry.seen, dt.date) and urldate and entry.seen > urldate:
            found.append(f"{files[name]}: input '{name}' is a price seen on {entry.seen.isoformat()}, after its reference "
                         f"{entry.source} was read ({urldate.isoformat()}): set that entry's urldate in book/references*.bib")
    return found
