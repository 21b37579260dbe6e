"""Every sentence that pastes a price beside a sum pastes the price that sum was made with. In each
chapter's text (its glued figures in place) and in every text it glues (a card's context, a summary),
a sentence that writes one price per GPU-hour (or chip-hour), hours and a cost in dollars, or a
clause of it between semicolons that writes all three, must give a cost that a reader gets back by
multiplying: hours × price, or hours × GPUs × price where it writes a count of GPUs, within the rounding
of the figures as written. Read from the committed notebooks' glued outputs, what the built pages
show; tests/test_update.py runs it again on a copy of the book after a price moves (a sentence that
borrows today's price for the article's sum adds up only while the two are equal)."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from lib.site.moved import glued

from .conftest import LANGS, ROOT

GLUE = re.compile(r"\{glue(?::text|:md)?\}`([^`]+)`")
NUMBER = {"en": r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?",
          "es": r"\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+(?:,\d+)?"}
# A bound ("less than $100") is no figure to multiply.
BOUND = re.compile(r"(?:less than|more than|under|over|up to|menos de|más de|hasta)\s*$")
SCALE = {"en": {"thousand": 1e3, "million": 1e6, "billion": 1e9},
         "es": {"mil": 1e3, "millones": 1e6, "millón": 1e6, "mil millones": 1e9}}
# What each kind of figure looks like as the book writes it (lib.core.figure): {n} a number, {s} its scale.
SHAPES = {
    "en": {"price": r"\$(?P<n>{n})(?: (?P<s>{s}))? per (?:GPU|chip)-hour",
           "cost": r"\$(?P<n>{n})(?: (?P<s>{s}))?(?! per)(?![\d–]|[.,]\d)",
           "hours": r"(?P<n>{n})(?: (?P<s>{s}))? (?:GPU-|chip-)?hours?\b",
           "gpus": r"(?P<n>{n}) (?:[A-Z]\w* )?GPUs?\b(?!-)"},
    "es": {"price": r"(?P<n>{n})(?: (?P<s>{s}))?(?: de)? dólares por hora-(?:GPU|chip)",
           "cost": r"(?P<n>{n})(?: (?P<s>{s}))?(?: de)? dólares(?! por)",
           "hours": r"(?P<n>{n})(?: (?P<s>{s}))?(?: de)? horas?(?:-GPU|-chip)?\b",
           "gpus": r"(?P<n>{n}) GPU\b(?!-)"},
}


def written(text: str, lang: str) -> tuple[float, float]:
    """A number as written in `lang`, and half its last written digit (how far rounding may have moved
    it): a whole number ending in zeros rounded at its last other digit (205,000), one that does not
    taken as written (8 GPUs, 809,472 GPU-hours)."""
    group, decimal = (",", ".") if lang == "en" else (".", ",")
    plain = text.replace(group, "").replace(decimal, ".")
    whole, _, decimals = plain.partition(".")
    if decimals:
        return float(plain), 0.5 * 10 ** -len(decimals)
    zeros = len(whole) - len(whole.rstrip("0"))
    return float(plain), 0.5 * 10 ** zeros if zeros else 0.0


def figures(text: str, lang: str) -> dict[str, list[tuple[float, float]]]:
    """Each kind of figure the text writes: (value, relative rounding), ranges ("3.3–6.8") and bounds left out."""
    scales = "|".join(sorted(map(re.escape, SCALE[lang]), key=len, reverse=True))
    found: dict[str, list[tuple[float, float]]] = {}
    for kind, shape in SHAPES[lang].items():
        for m in re.finditer(shape.format(n=NUMBER[lang], s=scales), text):
            if (text[max(m.start() - 1, 0)] in "–-" or text[m.end("n"):m.end("n") + 1] == "–"
                    or BOUND.search(text[:m.start()])):
                continue
            value, half = written(m.group("n"), lang)
            if value:
                found.setdefault(kind, []).append((value * SCALE[lang].get(m.groupdict().get("s") or "", 1), half / value))
    return found


def adds_up(found: dict[str, list[tuple[float, float]]]) -> bool:
    """Whether some cost written equals some hours × (a count of GPUs, or one) × the price written."""
    (price, p_err), = found["price"]
    counts = found.get("gpus", []) + [(1.0, 0.0)]
    return any(abs(h * g * price - c) <= (h_err + g_err + p_err + c_err + 1e-9) * c
               for (h, h_err), (g, g_err), (c, c_err) in itertools.product(found["hours"], counts, found["cost"]))


def sums_written(text: str, lang: str) -> list[tuple[str, dict]]:
    """The sentences, or their clauses, that write one price, hours and a cost."""
    out = []
    for line in re.split(r"\n|\|", text):
        for sentence in re.split(r"(?<=[.!?])\s+", line):
            for part in [sentence, *(sentence.split(";") if ";" in sentence else [])]:
                found = figures(part, lang)
                if len(found.get("price", [])) == 1 and found.get("hours") and found.get("cost"):
                    out.append((part.strip(), found))
    return out


def pages(lang: str, root: Path = ROOT) -> dict[str, str]:
    """Each chapter's text as its page shows it: its glued figures in place, and every text it glues."""
    out = {}
    for md in sorted((root / "book" / "_text" / lang).glob("*.md")):
        values = glued((root / "book" / lang / f"{md.stem}.ipynb").read_text(encoding="utf8"))
        text = GLUE.sub(lambda m: values.get(m.group(1), m.group(0)), md.read_text(encoding="utf8"))
        out[md.stem] = "\n".join([text, *values.values()])
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_every_price_beside_a_sum_is_the_one_the_sum_was_made_with(lang):
    checked, wrong = 0, []
    for page, text in pages(lang).items():
        for sentence, found in sums_written(text, lang):
            checked += 1
            if not adds_up(found):
                wrong.append(f"{lang}/{page}: {sentence}")
    assert checked >= 5, "the check finds no sentence that writes a price beside a sum"
    assert not wrong, "a cost that is not its hours × the price written beside it:\n" + "\n".join(wrong)


@pytest.mark.parametrize(("lang", "sentence", "holds"), [
    ("en", "the article reaches 1,428,480 GPU-hours; at $3.99 per GPU-hour, $5.70 million.", True),
    ("en", "the article reaches 1,428,480 GPU-hours; at $4.39 per GPU-hour, $5.70 million.", False),
    ("es", "llega a 1.428.480 horas-GPU; a 4,39 dólares por hora-GPU, 5,70 millones de dólares.", False),
    ("es", "3 horas en 8 GPU A100 a 2,79 dólares por hora-GPU: 66,96 dólares.", True),
    ("en", "3 hours on 8 A100 GPUs at $2.79 per GPU-hour: $67.50.", False),
    ("en", "205,000 GPU-hours, about 33 days on 256 GPUs, and $450,000 works out at $2.19 per GPU-hour", True),
    ("en", "205,000 GPU-hours, about 33 days on 256 GPUs, and $450,000 works out at $2.29 per GPU-hour", False),
    ("en", "52.1 hours at $4.29 per GPU-hour give $223.44.", True),
])
def test_the_check_recomputes_a_written_product(lang, sentence, holds):
    (_, found), = sums_written(sentence, lang)
    assert adds_up(found) == holds
