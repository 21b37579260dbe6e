"""The verdict policy for a cost an article quotes: the span of the evidence.

A training run's cost has no one true figure: it depends on whether the chips are rented at list
price, rented with a commitment, or owned, and on the prices' date. So a cost an article quotes is
judged against every figure the evidence gives for the same run, each named by what it measures:
(a) the book's own recomputations on every basis it computes (on-demand list prices in the run's
year, the book's answer; one- and three-year commitments; today's H100s at today's list prices) and
(b) every published estimate the book redoes by its publisher's own method (Epoch AI's cloud and
amortised-ownership methods, the AI Index). The article's figure agrees when it lies inside that
span, widened by its kind's tolerance (lib.core.claims.POLICY); the bases it matches say what it
measures. A figure outside the span does not hold, however close to one basis. The book's answer
stays the headline; it is one basis of the span, not the only yardstick.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from lib.core.figure import Figure

# What a basis measures (keys of the words' [span.measures]).
MEASURES = ("list", "commitment", "owning")
# Who gives a basis: the book's own recomputation, or the publisher of a redone estimate.
BOOK = "book"


@dataclasses.dataclass(frozen=True)
class Basis:
    """One figure of the evidence for a run's cost: `key` names it (the words' [span.basis]),
    `measures` what it prices (one of MEASURES), `by` who gives it (BOOK or a publisher's key of
    the words' [published.who]); `headline` marks the book's answer."""

    key: str
    figure: Figure
    measures: str
    by: str
    headline: bool = False

    def __post_init__(self):
        if self.measures not in MEASURES:
            raise ValueError(f"basis {self.key}: measures {self.measures!r}, not one of {', '.join(MEASURES)}")
        if not self.figure.is_number or self.figure.low <= 0:
            raise ValueError(f"basis {self.key}: a cost needs a positive figure, got {self.figure.raw()!r}")


def span(bases: Sequence[Basis]) -> Figure:
    """From the lowest figure of the evidence to the highest."""
    if not bases:
        raise ValueError("a span of the evidence needs at least one basis")
    unit = bases[0].figure.unit
    return Figure.between(min(b.figure.low for b in bases), max(b.figure.high for b in bases), unit, decimals=1)


def _widened(stated: Figure, tolerance: float) -> tuple[float, float]:
    """The values the stated figure allows, widened by the tolerance (a bound: from 0 or to infinity)."""
    low = 0.0 if stated.is_bound and stated.low == 0 else stated.low
    high = stated.high
    return low * (1 - tolerance), high * (1 + tolerance)


def inside(stated: Figure, bases: Sequence[Basis], tolerance: float) -> bool:
    """Whether the stated figure lies within the span of the evidence, widened by the tolerance;
    a bound ("less than 500,000") is inside when some basis meets it."""
    if stated.is_bound:
        return any(_meets(stated, b.figure) for b in bases)
    whole = span(bases)
    return stated.low >= whole.low * (1 - tolerance) and stated.high <= whole.high * (1 + tolerance)


def _meets(bound: Figure, figure: Figure) -> bool:
    """Whether some value of `figure` meets the bound."""
    return figure.low < bound.high if bound.low == 0 else figure.high > bound.low


def matched(stated: Figure, bases: Sequence[Basis], tolerance: float) -> tuple[Basis, ...]:
    """The bases the stated figure matches: those whose figure meets it, widened by the tolerance."""
    if stated.is_bound:
        return tuple(b for b in bases if _meets(stated, b.figure))
    low, high = _widened(stated, tolerance)
    return tuple(b for b in bases if b.figure.low <= high and b.figure.high >= low)


def neighbours(stated: Figure, bases: Sequence[Basis]) -> tuple[Basis | None, Basis | None]:
    """The bases just below and just above a stated figure that matches none of them."""
    below = [b for b in bases if b.figure.high < stated.low]
    above = [b for b in bases if b.figure.low > stated.high]
    return (max(below, key=lambda b: b.figure.high) if below else None,
            min(above, key=lambda b: b.figure.low) if above else None)
