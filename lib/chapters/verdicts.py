"""Every claim of the two articles recomputed and judged: the recompute functions (lib.chapters.article1
and article2, registered by importing them) run on the sourced inputs, and the one verdict policy
(lib.core.claims.judge) gives each its verdict."""

from __future__ import annotations

import math
from collections.abc import Mapping

from lib.chapters import article1, article2  # noqa: F401  (importing them registers their recompute functions)
from lib.core.claims import RECOMPUTE, Checked, Claim, Recompute, Recomputed, RegistryError, judge, load_claims
from lib.core.inputs import Inputs, load_inputs, once_per_inputs


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


def unstated(result: Recomputed, inputs: Inputs, read: set[str]) -> tuple[float, ...]:
    """The ends of a sourced figure that no source states: none of the values (value, low, high)
    of the inputs its recomputation read. Empty for a figure the book declares its own calculation
    (`calculated`, `evidence`), a text, or none."""
    figure = result.sourced
    if figure is None or not figure.is_number or figure.sequence or result.calculated or result.evidence:
        return ()
    stated = [float(v) for name in read for v in (inputs[name].value, inputs[name].low, inputs[name].high)
              if isinstance(v, (int, float)) and not isinstance(v, bool)]
    ends = [float(figure.low)] + ([float(figure.high)] if math.isfinite(figure.high) and figure.high != figure.low else [])
    return tuple(e for e in ends if not any(math.isclose(e, v, rel_tol=1e-9) for v in stated))


def check(claim: Claim, inputs: Inputs, claims: Mapping[str, Claim]) -> Checked:
    try:
        fn = RECOMPUTE[claim.id]
    except KeyError:
        raise RegistryError(f"claim {claim.id} has no recompute function") from None
    read: set[str] = set()
    result = fn(inputs.recording(read), claims)
    if claim.given is None and (missing := unstated(result, inputs, read)):
        raise RegistryError(f"claim {claim.id}: its sourced figure ({', '.join(f'{v:g}' for v in missing)}) is no value "
                            "a source states (none of the inputs it reads): show it as the book's calculation, "
                            f'@recomputes("{claim.id}", calculated=True), or read it from its input')
    secondary = rests_on_secondary(fn, result, inputs, claims, read)
    verdict, mismatches = judge(claim, result, secondary)
    return Checked(claim, result, verdict, mismatches, secondary)


def check_all(inputs: Inputs | None = None, article: int | None = None,
              claims: Mapping[str, Claim] | None = None) -> list[Checked]:
    """Every claim (of one article, if given), recomputed from `inputs` (default: the sourced ones);
    `claims` saves reading the registry again when checking many sets of inputs."""
    inputs = load_inputs() if inputs is None else inputs
    if claims is None:  # the registry's claims: checked once for these inputs, whichever page asks
        return [c for c in _checked(inputs) if article is None or c.claim.article == article]
    return [check(c, inputs, claims) for c in claims.values() if article is None or c.article == article]


@once_per_inputs
def _checked(inputs: Inputs) -> tuple[Checked, ...]:
    claims = load_claims()
    return tuple(check(c, inputs, claims) for c in claims.values())

