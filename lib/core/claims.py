"""The claims registry: every number the two articles quote, recomputed and judged.

Each claim's record (quote, what it states, its kind, the mismatches it is checked
for, sources, context in both languages) is data in lib/data/claims/*.toml. How it is
recomputed from sourced inputs is a named function in lib/chapters/verdicts, registered under
the claim's id (from the dossier). The verdict is computed by one policy, `judge`;
nothing in the registry sets it.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
import string
from collections.abc import Callable, Mapping
from pathlib import Path

from lib.core import span as evidence_span
from lib.core.figure import Figure
from lib.core.phrases import shown
from lib.core.inputs import Inputs, bib_keys, read_tables
from lib.core.words import WORDS, words

CLAIMS_DIR = Path(__file__).parents[1] / "data" / "claims"

# The verdict policy: a relative tolerance for each kind of quantity, written once.
POLICY = {
    "count": 0.0,  # a count, a size or a specification is exact
    "price": 0.0,  # a list price is exact, to the cent, on the day it was seen
    "measurement": 0.05,  # a figure a paper or a card reports, quoted rounded
    "estimate": 0.10,  # a cost built from prices and utilisations someone chose
    "conversion": 0.05,  # exchange rates move a few per cent between two unstated dates
    "text": 0.0,  # a name, a licence, a procedure: the same words or not
    # a published figure redone by its publisher's own method and inputs (lib.chapters.published): it
    # should come back to the cent; a tenth of a per cent allows for rounding in the publisher's
    # intermediate steps
    "reproduction": 0.001,
}
# Words that make a stated figure approximate; an approximate figure gets twice its kind's tolerance.
HEDGES = ("unos", "unas", "ronda", "aproximadamente", "en torno a", "alrededor de", "cerca de", "casi",
          "del orden de", "más o menos", "≈")
APPROXIMATE_FACTOR = 2
# Bounds ("more than", "at least", "less than") are directions: checked without tolerance.
DIMENSIONS = tuple(WORDS["en"]["dimension"])
SECTIONS = tuple(WORDS["en"]["section"])


class RegistryError(ValueError):
    """A claims file is malformed."""


@dataclasses.dataclass(frozen=True)
class Mismatch:
    """A recorded difference between what the article's words assert (`article`, in
    `words`, verbatim in the article; `words_en`, their translation) and what the sources
    give (the recomputed fact named `fact`). It counts only while the two differ."""

    dimension: str
    article: str
    words: str
    words_en: str
    fact: str


@dataclasses.dataclass(frozen=True)
class Recomputed:
    """What the sources give (`sourced`), what the article's own inputs give
    (`as_stated`, when the article shows its arithmetic), the source side of each
    mismatch (`facts`), and named figures that the context text quotes.

    `calculated`: the sourced figure is the book's own calculation from what the sources state,
    not a figure a source states (its card says "The book's calculation", never "The sources
    give"; lib.chapters.verdicts refuses an uncalculated figure that is no input's value).
    `evidence`: for a cost, every basis it is judged against (lib.core.span); `sourced` is then
    their span."""

    sourced: Figure | None
    as_stated: Figure | None = None
    figures: Mapping[str, Figure] = dataclasses.field(default_factory=dict)
    facts: Mapping[str, str] = dataclasses.field(default_factory=dict)
    calculated: bool = False
    evidence: tuple[evidence_span.Basis, ...] = ()

    @classmethod
    def against(cls, bases, **rest) -> "Recomputed":
        """A cost judged against the span of the evidence (lib.core.span)."""
        return cls(evidence_span.span(bases), evidence=tuple(bases), **rest)


@dataclasses.dataclass(frozen=True)
class Claim:
    id: str
    article: int
    section: str
    quote: str
    quote_en: str
    kind: str
    stated: Figure
    sources: tuple[str, ...]
    context: Mapping[str, str]
    mismatches: tuple[Mismatch, ...] = ()
    exception: Mapping[str, str] | None = None  # {"value", "es", "en"}: a tolerance outside the policy, and why
    reading: Mapping[str, str] | None = None  # how vague words are read as a figure, in each language
    arithmetic: Mapping[str, float] = dataclasses.field(default_factory=dict)  # the article's own operands
    # {"figure", "es", "en", "label_es", "label_en"}: for a claim in words, how far the article is from
    # the sources, told by one of its figures (lib.core.distance), and in short in the card's title
    distance: Mapping[str, str] | None = None
    # {"es", "en"}: what the sources give, in words with {name} fields, where the figure checked is
    # not theirs but the book's own calculation from them (the card shows the two apart)
    given: Mapping[str, str] | None = None

    @property
    def approximate(self) -> bool:
        quote = self.quote.casefold()
        return any(re.search(rf"(?<!\w){re.escape(h)}(?!\w)", quote) for h in HEDGES)

    @property
    def tolerance(self) -> float:
        if self.exception is not None:
            return float(self.exception["value"])
        return POLICY[self.kind] * (APPROXIMATE_FACTOR if self.approximate else 1)


@dataclasses.dataclass(frozen=True)
class Checked:
    """A claim with its recomputation, its verdict, the mismatches that made it "context",
    and the secondary inputs that made it "unverified"."""

    claim: Claim
    result: Recomputed
    verdict: str
    mismatches: tuple[Mismatch, ...] = ()
    secondary: tuple[str, ...] = ()

    def figures(self) -> dict[str, Figure]:
        named = {"stated": self.claim.stated, "sourced": self.result.sourced, "as_stated": self.result.as_stated}
        named.update(self.result.figures)
        return {k: v for k, v in named.items() if v is not None}

    def context(self, lang: str) -> str:
        return render(self.claim.context[lang], self.figures(), lang, self.claim.id)

    def given(self, lang: str) -> str | None:
        """What the sources give, where the figure checked is the book's calculation from them."""
        if self.claim.given is None:
            return None
        return render(self.claim.given[lang], self.figures(), lang, self.claim.id)

    def verdict_label(self, lang: str) -> str:
        return verdict_label(self.verdict, lang)


def verdict_label(verdict: str, lang: str) -> str:
    return words(lang)["verdict"][verdict]


def render(template: str, figures: Mapping[str, Figure], lang: str, claim_id: str = "") -> str:
    """Fill {name} fields of a context text with figures formatted for `lang` (a source's words
    in the page's language, with the original quoted)."""
    names = [field for _, field, _, _ in string.Formatter().parse(template) if field]
    missing = sorted(set(names) - set(figures))
    if missing:
        raise KeyError(f"context of {claim_id} names figures it does not compute: {', '.join(missing)}")
    return template.format(**{name: shown(figures[name], lang) for name in names})


# ---------------------------------------------------------------- verdicts

def _inside_bound(bound: Figure, figure: Figure) -> bool:
    """Whether every value `figure` allows satisfies `bound` ("more than 65" is not met by 65)."""
    if bound.low_open:
        low_ok = figure.low > bound.low or (figure.low == bound.low and figure.low_open)
    else:
        low_ok = figure.low >= bound.low
    if bound.high_open:
        high_ok = figure.high < bound.high or (figure.high == bound.high and figure.high_open)
    else:
        high_ok = figure.high <= bound.high
    return low_ok and high_ok


def _close(a: float, b: float, tolerance: float) -> bool:
    return abs(a - b) <= tolerance * abs(b)


def _is_range(f: Figure) -> bool:
    return math.isfinite(f.high) and f.low < f.high and not f.is_bound


def agrees(stated: Figure, recomputed: Figure, tolerance: float) -> bool:
    """Whether what the article states and what the sources give agree.

    - texts: the same parts, ignoring case and order;
    - a series ("from 1.0 to 0.3"): the same values in the same order, each within tolerance;
    - a bound ("more than 65"): every value the sources allow meets it, with no tolerance;
    - a range against a range ("9 to 23"): each end within tolerance of the sources' end;
    - otherwise: the stated value or range meets the sources' widened by the tolerance.
    """
    if stated.items or recomputed.items:
        return {t.casefold() for t in stated.items} == {t.casefold() for t in recomputed.items}
    if stated.sequence or recomputed.sequence:
        return len(stated.sequence) == len(recomputed.sequence) and all(
            _close(s, r, tolerance) for s, r in zip(stated.sequence, recomputed.sequence))
    if stated.is_bound:
        return _inside_bound(stated, recomputed)
    if _is_range(stated) and _is_range(recomputed):
        return _close(stated.low, recomputed.low, tolerance) and _close(stated.high, recomputed.high, tolerance)
    low = recomputed.low * (1 - tolerance)
    high = recomputed.high * (1 + tolerance)
    return stated.low <= high and stated.high >= low


def active_mismatches(claim: Claim, result: Recomputed) -> tuple[Mismatch, ...]:
    """The recorded mismatches whose two sides differ."""
    missing = [m.fact for m in claim.mismatches if m.fact not in result.facts]
    if missing:
        raise RegistryError(f"claim {claim.id} records mismatches on facts it does not recompute: {missing}")
    return tuple(m for m in claim.mismatches if m.article.casefold() != result.facts[m.fact].casefold())


def judge(claim: Claim, result: Recomputed, secondary: tuple[str, ...] = ()) -> tuple[str, tuple[Mismatch, ...]]:
    """The verdict, and the mismatches that make it "context".

    - no primary source gives a figure (none at all, or the sourced figure rests on
      `secondary` inputs, known only from reports of their source): unverified;
    - a cost with its `evidence`: agreeing means lying inside the span of the evidence
      (lib.core.span), widened by the tolerance;
    - the sources agree with the stated figure: holds, or context while a recorded
      mismatch (currency, hardware, wall clock, ...) has two different sides;
    - they disagree, but the article's own inputs give its figure and a mismatch
      explains the difference: context;
    - otherwise: wrong.
    """
    if result.sourced is None or secondary:
        return "unverified", ()
    active = active_mismatches(claim, result)
    if result.evidence:
        fits = evidence_span.inside(claim.stated, result.evidence, claim.tolerance)
    else:
        fits = agrees(claim.stated, result.sourced, claim.tolerance)
    if fits:
        return ("context" if active else "holds"), active
    if active and not result.evidence and result.as_stated is not None and agrees(claim.stated, result.as_stated, claim.tolerance):
        return "context", active
    return "wrong", ()


# ---------------------------------------------------------------- registry

Recompute = Callable[[Inputs, Mapping[str, Claim]], Recomputed]
RECOMPUTE: dict[str, Recompute] = {}


def recomputes(claim_id: str, *, calculated: bool = False):
    """Register the function that recomputes a claim. `calculated`: its sourced figure is the book's
    own calculation from what the sources state (a sum, a conversion, a rate), not a figure a source
    states; the card then says so (lib.core.sentences.sourced)."""
    def register(fn: Recompute) -> Recompute:
        if claim_id in RECOMPUTE:
            raise ValueError(f"claim {claim_id} has two recompute functions")

        @functools.wraps(fn)
        def declared(inputs, claims):
            result = fn(inputs, claims)
            return dataclasses.replace(result, calculated=True) if calculated else result

        RECOMPUTE[claim_id] = declared
        return fn

    return register


STATED_FORMS = ("value", "low", "more_than", "at_least", "less_than", "sequence", "text")


def _stated(claim_id: str, raw: Mapping) -> Figure:
    """The stated figure, encoded with its direction and all its parts."""
    forms = [k for k in STATED_FORMS if k in raw]
    if len(forms) != 1:
        raise RegistryError(f"claim {claim_id}: 'stated' needs exactly one of {', '.join(STATED_FORMS)}; got {forms}")
    if "text" in raw:
        texts = raw["text"] if isinstance(raw["text"], list) else [raw["text"]]
        shown_es = tuple(raw.get("es", ()))
        if shown_es and len(shown_es) != len(texts):
            raise RegistryError(f"claim {claim_id}: 'es' must give one Spanish wording per text part")
        return dataclasses.replace(Figure.says(*texts), items_es=shown_es)
    style = {k: raw[k] for k in ("decimals", "compact") if k in raw}
    unit = raw["unit"]
    if "value" in raw:
        return Figure.of(raw["value"], unit, **style)
    if "more_than" in raw:
        return Figure.more_than(raw["more_than"], unit, **style)
    if "at_least" in raw:
        return Figure.more_than(raw["at_least"], unit, inclusive=True, **style)
    if "less_than" in raw:
        return Figure.less_than(raw["less_than"], unit, **style)
    if "sequence" in raw:
        return Figure.series(raw["sequence"], unit, **style)
    return dataclasses.replace(Figure.between(raw["low"], raw["high"], unit, **style),
                               high_open=bool(raw.get("high_open", False)))


def _mismatches(claim_id: str, entries) -> tuple[Mismatch, ...]:
    out = []
    for entry in entries:
        try:
            m = Mismatch(dimension=entry["dimension"], article=str(entry["article"]), words=entry["words"],
                         words_en=entry["words_en"], fact=entry["fact"])
        except KeyError as exc:
            raise RegistryError(f"claim {claim_id}: a mismatch has no {exc.args[0]}") from None
        if m.dimension not in DIMENSIONS:
            raise RegistryError(f"claim {claim_id}: unknown mismatch dimension '{m.dimension}'")
        out.append(m)
    return tuple(out)


def _exception(claim_id: str, raw) -> Mapping[str, str] | None:
    if raw is None:
        return None
    if not all(raw.get(k) for k in ("value", "es", "en")):
        raise RegistryError(f"claim {claim_id}: a tolerance exception needs value, es and en (the reason)")
    if not 0 <= float(raw["value"]) < 1:
        raise RegistryError(f"claim {claim_id} has a tolerance outside [0, 1): {raw['value']}")
    return dict(raw)


def _distance(claim_id: str, raw) -> Mapping[str, str] | None:
    if raw is None:
        return None
    if not all(raw.get(k) for k in ("figure", "es", "en", "label_es", "label_en")):
        raise RegistryError(f"claim {claim_id}: a distance needs figure, es and en (the sentence that tells it), "
                            "label_es and label_en (its short form in the card's title)")
    return dict(raw)


def _given(claim_id: str, entry) -> Mapping[str, str] | None:
    if "given_es" not in entry and "given_en" not in entry:
        return None
    if not (entry.get("given_es") and entry.get("given_en")):
        raise RegistryError(f"claim {claim_id}: what the sources give needs given_es and given_en, both")
    return {"es": entry["given_es"], "en": entry["given_en"]}


def load_claims(claims_dir: Path = CLAIMS_DIR) -> dict[str, Claim]:
    """The registry, read and checked once per folder (a fresh dict each call: the claims are frozen)."""
    return dict(_load_claims(Path(claims_dir)))


@functools.lru_cache(maxsize=4)
def _load_claims(claims_dir: Path) -> dict[str, Claim]:
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
                kind=entry["kind"],
                stated=_stated(claim_id, entry["stated"]),
                sources=tuple(entry.get("sources", ())),
                context={"es": entry["context_es"], "en": entry["context_en"]},
                mismatches=_mismatches(claim_id, entry.get("mismatch", ())),
                exception=_exception(claim_id, entry.get("tolerance")),
                reading={"es": entry["reading_es"], "en": entry["reading_en"]} if "reading_es" in entry else None,
                arithmetic={k: float(v) for k, v in entry.get("arithmetic", {}).items()},
                distance=_distance(claim_id, entry.get("distance")),
                given=_given(claim_id, entry),
            )
        except KeyError as exc:
            raise RegistryError(f"claim {claim_id} has no {exc.args[0]}") from None
        if claim.section not in SECTIONS:
            raise RegistryError(f"claim {claim_id} has unknown section '{claim.section}'")
        if claim.kind not in POLICY:
            raise RegistryError(f"claim {claim_id} has unknown kind '{claim.kind}': use one of {', '.join(POLICY)}")
        unknown = [k for k in claim.sources if k not in keys]
        if unknown:
            raise RegistryError(f"claim {claim_id} cites unknown sources: {', '.join(unknown)}")
        claims[claim_id] = claim
    return claims
