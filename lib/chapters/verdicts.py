"""Every claim of the two articles recomputed and judged: the recompute functions (lib.chapters.article1
and article2, registered by importing them) run on the sourced inputs, and the one verdict policy
(lib.core.claims.judge) gives each its verdict."""

from __future__ import annotations

from collections.abc import Mapping

from lib.chapters import article1, article2  # noqa: F401  (importing them registers their recompute functions)
from lib.core.claims import RECOMPUTE, Checked, Claim, Recompute, Recomputed, RegistryError, judge, load_claims
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

