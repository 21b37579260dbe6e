"""Every claim of the two articles recomputed and judged: the recompute functions (lib.chapters.article1
and article2, registered by importing them) run on the sourced inputs, and the one verdict policy
(lib.core.claims.judge) gives each its verdict."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping

from lib.chapters import article1, article2  # noqa: F401  (importing them registers their recompute functions)
from lib.core.claims import RECOMPUTE, Checked, Claim, Recompute, Recomputed, RegistryError, judge, load_claims
from lib.core.figure import Figure
from lib.core.inputs import Inputs, load_inputs


def rests_on_secondary(fn: Recompute, result: Recomputed, inputs: Inputs, claims: Mapping[str, Claim],
                       read: set[str]) -> tuple[str, ...]:
    """The secondary inputs (among those the recomputation `read`) that the sourced figure
    depends on: those whose nudge moves it, or makes it impossible to compute."""

    def moves(name: str) -> bool:
        try:
            return fn(inputs.nudged(name), claims).sourced.raw() != result.sourced.raw()
        except ValueError:
            return True

    if result.sourced is None:
        return ()
    return tuple(name for name in sorted(read) if inputs[name].secondary and moves(name))


def check(claim: Claim, inputs: Inputs, claims: Mapping[str, Claim]) -> Checked:
    try:
        fn = RECOMPUTE[claim.id]
    except KeyError:
        raise RegistryError(f"claim {claim.id} has no recompute function") from None
    read: set[str] = set()
    result = fn(inputs.recording(read), claims)
    secondary = rests_on_secondary(fn, result, inputs, claims, read)
    verdict, mismatches = judge(claim, result, secondary)
    return Checked(claim, result, verdict, mismatches, secondary)


def check_all(inputs: Inputs | None = None, article: int | None = None,
              claims: Mapping[str, Claim] | None = None) -> list[Checked]:
    """Every claim (of one article, if given), recomputed from `inputs` (default: the sourced ones);
    `claims` saves reading the registry again when checking many sets of inputs."""
    inputs = load_inputs() if inputs is None else inputs
    claims = load_claims() if claims is None else claims
    return [check(c, inputs, claims) for c in claims.values() if article is None or c.article == article]


# ---------------------------------------------------------------- how far a claim is from its sources

# Units whose ratio says nothing (a year, a count of orders of magnitude): no distance.
NO_RATIO = ("calendar-year", "calendar-month", "order of magnitude", "date", "text")


@dataclasses.dataclass(frozen=True)
class Distance:
    """How far what an article states is from what the sources give, as the ratio stated ÷ sourced
    (`low`..`high`: an interval when either side is one)."""

    checked: Checked
    low: float
    high: float

    @property
    def fold(self) -> float:
        """How many times apart, whichever side is larger, at the middle of the interval on a log
        scale (the geometric mean of its ends): what `farthest` ranks by. 1 when the ends straddle 1."""
        if self.low <= 1 <= self.high:
            return 1.0
        middle = math.sqrt(self.low * self.high)
        return max(middle, 1 / middle)

    def figure(self) -> Figure:
        """The ratio as the book writes it: "1.5–2.5 times", with two decimals when an end is under 1.5."""
        decimals = 2 if min(self.low, self.high) < 1.5 else 1
        if self.low == self.high:
            return Figure.of(self.low, "times", decimals=decimals)
        return Figure.between(self.low, self.high, "times", decimals=decimals)


def distance(checked: Checked) -> Distance | None:
    """stated ÷ sourced for a claim whose two figures are amounts of one unit; None for texts, series,
    dates, years, bounds and a missing source. A range against a range is compared end by end (as the
    verdict compares them); a value against a range, across the range."""
    stated, sourced = checked.claim.stated, checked.result.sourced
    if sourced is None or not (stated.is_number and sourced.is_number):
        return None
    if stated.unit != sourced.unit or stated.unit in NO_RATIO or stated.sequence or sourced.sequence:
        return None
    if stated.is_bound or sourced.is_bound or stated.high_open or sourced.high_open or sourced.low <= 0:
        return None
    if stated.low < stated.high and sourced.low < sourced.high:
        ends = (stated.low / sourced.low, stated.high / sourced.high)
    else:
        ends = (stated.low / sourced.high, stated.high / sourced.low)
    return Distance(checked, min(ends), max(ends))


def farthest(checked: list[Checked]) -> Distance | None:
    """Of the claims that need context or do not hold, the one whose figure is farthest from its
    sources' (by `Distance.fold`); None when none has a distance."""
    found = [d for c in checked if c.verdict in ("context", "wrong") and (d := distance(c)) is not None]
    return max(found, key=lambda d: d.fold, default=None)
