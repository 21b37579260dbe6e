"""The claims registry: every number the two articles quote, recomputed and judged.

Each claim's record (quote, stated figure, tolerance, sources, context in both
languages) is data in lib/data/claims/*.toml. How it is recomputed from sourced
inputs is a function here, registered under the claim's id (from the dossier).
The verdict is computed, never written: see `judge`.
"""

from __future__ import annotations

import dataclasses
import math
import string
from collections.abc import Callable, Mapping
from pathlib import Path

from .figure import Figure
from .inputs import Inputs, bib_keys, load_inputs, read_tables

CLAIMS_DIR = Path(__file__).parent / "data" / "claims"

# Above this relative tolerance a claim must say why (tolerance_why).
DEFAULT_TOLERANCE = 0.05

VERDICTS = {
    # verdict: (es label, en label)
    "holds": ("Se sostiene", "Holds"),
    "context": ("Con matices", "Needs context"),
    "wrong": ("No se sostiene", "Does not hold"),
    "unverified": ("Sin fuente", "Unverified"),
}
SECTIONS = {
    "scales": ("Tres cosas que se llaman «entrenar»", "Three things called “training”"),
    "doors": ("Las tres puertas, con números de hoy", "The three doors, with today's numbers"),
    "step": ("En qué escalón estás", "Which step you are on"),
    "dgx": ("DGX Cloud", "DGX Cloud"),
    "costs": ("Cuánto cuesta entrenar grandes modelos", "What training large models costs"),
    "newcomers": ("Alternativas y nuevos actores", "Cheaper newcomers"),
    "home": ("¿Tu propio ChatGPT en casa?", "Your own ChatGPT at home?"),
}


@dataclasses.dataclass(frozen=True)
class Recomputed:
    """What the sources give (`sourced`), what the article's own inputs give
    (`as_stated`, when the article shows its arithmetic), and named figures
    that the context text quotes."""

    sourced: Figure | None
    as_stated: Figure | None = None
    figures: Mapping[str, Figure] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class Claim:
    id: str
    article: int
    section: str
    quote: str
    quote_en: str
    stated: Figure | None
    tolerance: float
    sources: tuple[str, ...]
    context: Mapping[str, str]
    needs_context: bool = False
    tolerance_why: str = ""


@dataclasses.dataclass(frozen=True)
class Checked:
    """A claim with its recomputation and its verdict."""

    claim: Claim
    result: Recomputed
    verdict: str

    def figures(self) -> dict[str, Figure]:
        named = {"stated": self.claim.stated, "sourced": self.result.sourced, "as_stated": self.result.as_stated}
        named.update(self.result.figures)
        return {k: v for k, v in named.items() if v is not None}

    def context(self, lang: str) -> str:
        return render(self.claim.context[lang], self.figures(), lang, self.claim.id)

    def verdict_label(self, lang: str) -> str:
        return verdict_label(self.verdict, lang)


def verdict_label(verdict: str, lang: str) -> str:
    es, en = VERDICTS[verdict]
    return {"es": es, "en": en}[lang]


def render(template: str, figures: Mapping[str, Figure], lang: str, claim_id: str = "") -> str:
    """Fill {name} fields of a context text with figures formatted for `lang`."""
    names = [field for _, field, _, _ in string.Formatter().parse(template) if field]
    missing = sorted(set(names) - set(figures))
    if missing:
        raise KeyError(f"context of {claim_id} names figures it does not compute: {', '.join(missing)}")
    return template.format(**{name: figures[name].format(lang) for name in names})


# ---------------------------------------------------------------- verdicts

def agrees(stated: Figure, recomputed: Figure, tolerance: float) -> bool:
    """Whether a stated figure and a recomputed one agree within a relative tolerance.

    Numbers: the stated interval must touch the recomputed interval widened by the
    tolerance ("more than 65" is the interval 65..inf). Texts: equal, ignoring case.
    """
    if stated.text is not None or recomputed.text is not None:
        return (stated.text or "").casefold() == (recomputed.text or "").casefold()
    low = recomputed.low * (1 - tolerance)
    high = recomputed.high * (1 + tolerance)
    return stated.low <= high and stated.high >= low


def judge(stated: Figure | None, result: Recomputed, tolerance: float, needs_context: bool) -> str:
    """holds / context / wrong / unverified, from stated vs recomputed.

    - no primary source gives a figure: unverified;
    - the sources agree with the stated figure: holds, or context when the claim
      carries a documented mismatch of scope, currency or kind (needs_context);
    - the sources disagree, but the article's own inputs reproduce its figure
      (the arithmetic holds on a mismatched input): context;
    - otherwise: wrong.
    A qualitative claim (no stated figure) holds when the sources give its figure.
    """
    if result.sourced is None:
        return "unverified"
    if stated is None or agrees(stated, result.sourced, tolerance):
        return "context" if needs_context else "holds"
    if result.as_stated is not None and agrees(stated, result.as_stated, tolerance):
        return "context"
    return "wrong"


# ---------------------------------------------------------------- registry

Recompute = Callable[[Inputs, Mapping[str, Claim]], Recomputed]
RECOMPUTE: dict[str, Recompute] = {}


def recomputes(claim_id: str):
    def register(fn: Recompute) -> Recompute:
        if claim_id in RECOMPUTE:
            raise ValueError(f"claim {claim_id} has two recompute functions")
        RECOMPUTE[claim_id] = fn
        return fn

    return register


def _stated(raw: Mapping) -> Figure | None:
    if not raw or raw.get("qualitative"):
        return None
    if "text" in raw:
        return Figure.says(raw["text"])
    style = {k: raw[k] for k in ("decimals", "compact") if k in raw}
    unit = raw["unit"]
    if "value" in raw:
        return Figure.of(raw["value"], unit, **style)
    if "min" in raw:
        return Figure(low=float(raw["min"]), high=math.inf, unit=unit, **style)
    if "max" in raw:
        return Figure(low=0.0, high=float(raw["max"]), unit=unit, **style)
    return Figure.between(raw["low"], raw["high"], unit, **style)


class RegistryError(ValueError):
    """A claims file is malformed."""


def load_claims(claims_dir: Path = CLAIMS_DIR) -> dict[str, Claim]:
    raw = read_tables(claims_dir)
    keys = bib_keys()
    claims = {}
    for claim_id, entry in raw.items():
        try:
            claim = Claim(
                id=claim_id,
                article=int(entry["article"]),
                section=entry["section"],
                quote=entry["quote"],
                quote_en=entry["quote_en"],
                stated=_stated(entry.get("stated", {})),
                tolerance=float(entry.get("tolerance", 0.0)),
                tolerance_why=entry.get("tolerance_why", ""),
                sources=tuple(entry.get("sources", ())),
                context={"es": entry["context_es"], "en": entry["context_en"]},
                needs_context=bool(entry.get("needs_context", False)),
            )
        except KeyError as exc:
            raise RegistryError(f"claim {claim_id} has no {exc.args[0]}") from None
        if claim.section not in SECTIONS:
            raise RegistryError(f"claim {claim_id} has unknown section '{claim.section}'")
        if not 0 <= claim.tolerance < 1:
            raise RegistryError(f"claim {claim_id} has a tolerance outside [0, 1): {claim.tolerance}")
        if claim.tolerance > DEFAULT_TOLERANCE and not claim.tolerance_why:
            raise RegistryError(f"claim {claim_id} has a tolerance above {DEFAULT_TOLERANCE:.0%} without tolerance_why")
        unknown = [k for k in claim.sources if k not in keys]
        if unknown:
            raise RegistryError(f"claim {claim_id} cites unknown sources: {', '.join(unknown)}")
        claims[claim_id] = claim
    return claims


def check(claim: Claim, inputs: Inputs, claims: Mapping[str, Claim]) -> Checked:
    try:
        fn = RECOMPUTE[claim.id]
    except KeyError:
        raise RegistryError(f"claim {claim.id} has no recompute function") from None
    result = fn(inputs, claims)
    return Checked(claim, result, judge(claim.stated, result, claim.tolerance, claim.needs_context))


def check_all(inputs: Inputs | None = None, article: int | None = None) -> list[Checked]:
    """Every claim (of one article, if given), recomputed from `inputs` (default: the sourced ones)."""
    from . import recompute  # noqa: F401  (registers the recompute functions)

    inputs = load_inputs() if inputs is None else inputs
    claims = load_claims()
    return [check(c, inputs, claims) for c in claims.values() if article is None or c.article == article]
