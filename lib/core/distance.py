"""How far what an article says is from what the sources give, for every claim that needs
context or does not hold: a ratio (1.5–2.5 times what the sources give; 5–23% less), or, for an
exact count, a difference (1 order of magnitude more), computed from the two figures; for a
claim in words, the figure its record names (`distance` in lib/data/claims). Its `magnitude`
orders the claims, the furthest first."""

from __future__ import annotations

import dataclasses
import math

from lib.core import span as evidence_span
from lib.core.claims import Checked, agrees
from lib.core.figure import Figure

# From this ratio on, a distance reads in times ("1.5 times what the sources give"); closer, in per cent.
TIMES = 1.5
JUDGED = ("context", "wrong")


@dataclasses.dataclass(frozen=True)
class Distance:
    kind: str  # its template in the words table's [distance]: times, sources_times, more, less, ...
    figure: Figure | None
    magnitude: float  # |ln| of the ratio at the middle of its range; 0 when the figures agree


def _ends(figure: Figure) -> tuple[float, float]:
    """The values a figure allows, a bound at its one finite end."""
    if math.isinf(figure.high):
        return figure.low, figure.low
    if figure.low == 0 and figure.high_open:
        return figure.high, figure.high
    return figure.low, figure.high


def _comparable(figure: Figure | None) -> bool:
    return figure is not None and figure.is_number and not figure.sequence


def _times(low: float, high: float) -> Figure:
    """A ratio to a tenth (1,8 veces), whole from ten on or when it rounds to a whole number (5 veces)."""
    decimals = 0 if low >= 10 or all(round(v, 1) == round(v) for v in (low, high)) else 1
    low, high = round(low, decimals), round(high, decimals)
    return Figure.of(low, "times", decimals=decimals) if low == high else Figure.between(low, high, "times", decimals=decimals)


def _percent(low: float, high: float) -> Figure:
    low, high = round(low, 2), round(high, 2)
    return Figure.of(low, "fraction", decimals=0) if low == high else Figure.between(low, high, "fraction", decimals=0)


def between(stated: Figure, sourced: Figure, exact: bool) -> Distance | None:
    """The distance from the stated figure to the sourced one; None for texts and series, which
    have no number to compare. `exact`: a count, whose distance is a difference."""
    if not (_comparable(stated) and _comparable(sourced)):
        return None
    (s_low, s_high), (r_low, r_high) = _ends(stated), _ends(sourced)
    if _both_ranges(s_low, s_high, r_low, r_high) and not exact and min(s_low, r_low) > 0:
        # A range against a range is judged end to end, as the policy does (claims.agrees): "9–23"
        # against "18–27" is lower at both ends, though the two overlap.
        low, high = sorted((s_low / r_low, s_high / r_high))
        if low < 1 < high or low == high == 1:
            return Distance("within", None, 0.0)
        return _ratio(low, high)
    if s_low <= r_high and s_high >= r_low:
        return Distance("within", None, 0.0)
    above = s_low > r_high
    if exact or min(s_low, r_low) <= 0:
        difference = s_low - r_high if above else r_low - s_high
        magnitude = abs(math.log((s_low + s_high) / (r_low + r_high))) if min(s_low, r_low) > 0 else math.inf
        return Distance("more_count" if above else "less_count",
                        Figure.of(difference, stated.unit or sourced.unit, decimals=stated.decimals), magnitude)
    return _ratio(s_low / r_high, s_high / r_low)  # the ratio's range: both above 1, or both below


def _both_ranges(s_low: float, s_high: float, r_low: float, r_high: float) -> bool:
    return s_low < s_high and r_low < r_high


def _ratio(low: float, high: float) -> Distance:
    """The distance of a ratio's range (stated over sourced), both ends on one side of 1."""
    magnitude = abs(math.log(math.sqrt(low * high)))
    if low >= 1:
        return Distance("times", _times(low, high), magnitude) if low >= TIMES else \
            Distance("more", _percent(low - 1, high - 1), magnitude)
    if high <= 1 / TIMES:
        return Distance("sources_times", _times(1 / high, 1 / low), magnitude)
    return Distance("less", _percent(1 - high, 1 - low), magnitude)


def distance(checked: Checked) -> Distance | None:
    """How far apart the article and the sources are, for a claim that needs context or does not
    hold (None otherwise)."""
    if checked.verdict not in JUDGED:
        return None
    named = checked.claim.distance
    if named is not None:
        figure = checked.figures()[named["figure"]]
        return Distance("claim", figure, abs(math.log(figure.value)) if figure.value > 0 else math.inf)
    claim, sourced = checked.claim, checked.result.sourced
    if checked.result.evidence:
        return _from_span(checked)
    # A bound the sources meet ("less than $500,000": $450,000) is no distance; nor are the same words.
    if (claim.stated.is_bound or not claim.stated.is_number) and agrees(claim.stated, sourced, claim.tolerance):
        return Distance("met" if claim.stated.is_bound else "within", None, 0.0)
    found = between(claim.stated, sourced, claim.kind == "count")
    return found if found is not None else Distance("different", None, math.inf)


def _from_span(checked: Checked) -> Distance:
    """A cost judged against the span of the evidence (lib.core.span): inside it, no distance (the
    label says what the figure matches); outside, the ratio to the span's nearest end."""
    claim, whole = checked.claim, checked.result.sourced
    if evidence_span.inside(claim.stated, checked.result.evidence, claim.tolerance):
        return Distance("span", None, 0.0)
    s_low, s_high = _ends(claim.stated)
    if s_low > whole.high:
        return _ratio(s_low / whole.high, s_high / whole.high)
    return _ratio(s_low / whole.low, s_high / whole.low)


def furthest_first(checked: list[Checked]) -> list[tuple[Checked, Distance]]:
    """The claims that need context or do not hold, with their distances, the furthest first
    (those that do not hold first among equals; then in the registry's order)."""
    found = [(c, d) for c in checked if (d := distance(c)) is not None]
    order = {c.claim.id: i for i, c in enumerate(checked)}
    return sorted(found, key=lambda cd: (-cd[1].magnitude, cd[0].verdict != "wrong", order[cd[0].claim.id]))
