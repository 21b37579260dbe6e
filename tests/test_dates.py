"""Every date written beside a price is that price's own input's day seen: a figure never borrows
another input's date.

Each dated input is given a day seen of its own, so that a date on a page names one input; then,
in every card's text and every chapter's prose, in both languages, each date that is a day seen is
paired with the nearest price in its sentence, and that price must be a value of the input (or
inputs) seen on that day."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from lib.chapters.verdicts import check_all
from lib.core import fmt
from lib.core.figure import Figure
from lib.core.inputs import DATED_UNITS, load_inputs
from lib.site import findings

from .conftest import LANGS, ROOT

I = load_inputs()
DAYS_SEEN = sorted(name for name, entry in I.items() if isinstance(entry.seen, dt.date))


def seen_apart(inputs):
    """The inputs with each dated one seen on a day of its own (a few days later than it was)."""
    for k, name in enumerate(DAYS_SEEN, start=1):
        inputs = inputs.replace(name, seen=inputs[name].seen + dt.timedelta(days=k))
    return inputs


APART = seen_apart(I)
WHOSE_DAY = {APART[name].seen: name for name in DAYS_SEEN}
CLAIM_FIELD = re.compile(r"\{(\w+)\}")
GLUE = re.compile(r"\{glue:text\}`([^`]+)`")


def _days(figure) -> tuple[dt.date, ...]:
    if not isinstance(figure, Figure) or figure.unit != "date":
        return ()
    return figure.days or (figure.date,)


def _is_price(figure) -> bool:
    return isinstance(figure, Figure) and figure.unit in DATED_UNITS


def mismatched(text: str, pattern: re.Pattern, figures: dict) -> list[str]:
    """In each sentence of `text`, each day seen and the nearest price to it (by position) that the
    inputs seen on that day do not give."""
    wrong = []
    for sentence in re.split(r"(?<=[.;])\s", text):
        fields = [(m.start(), figures.get(m.group(1))) for m in pattern.finditer(sentence)]
        prices = [(at, f) for at, f in fields if _is_price(f)]
        for at, figure in fields:
            owners = [WHOSE_DAY[d] for d in _days(figure) if d in WHOSE_DAY]
            if not owners or not prices:
                continue
            _, price = min(prices, key=lambda p: abs(p[0] - at))
            values = {APART[name].value for name in owners}
            if not {price.low, price.high} <= values:
                wrong.append(f"{price.raw()} beside the day seen of {', '.join(owners)} "
                             f"({', '.join(str(APART[n].value) for n in owners)}): {sentence[:160]}")
    return wrong


def test_every_dated_input_has_a_day_of_its_own_here():
    assert len(WHOSE_DAY) == len(DAYS_SEEN) > 5


@pytest.mark.parametrize("lang", LANGS)
def test_every_price_on_a_card_has_its_own_day_seen(lang):
    wrong = []
    for c in check_all(APART):
        for text in (c.claim.context[lang], (c.claim.given or {}).get(lang, "")):
            wrong += [f"{c.claim.id}: {w}" for w in mismatched(text, CLAIM_FIELD, c.figures())]
    assert not wrong, "\n".join(wrong)


def page_figures(page: str, lang: str) -> dict:
    """The figures a chapter's prose glues by key, as its set-up cells glue them, from APART."""
    checked = check_all(APART)
    figures = {f"{c.claim.id}.{name}": f for c in checked for name, f in c.figures().items()}
    figures |= findings.chapter_figures("costs", APART) | findings.chapter_figures("budget", APART)
    values = {"article1": lambda: findings.article_values(1, [c for c in checked if c.claim.article == 1], lang, APART),
              "article2": lambda: findings.article_values(2, [c for c in checked if c.claim.article == 2], lang, APART),
              "budget": lambda: findings.budget_values(lang, APART),
              "plan": lambda: findings.budget_values(lang, APART),
              "index": lambda: findings.home_values(lang, APART, checked)}
    if page in values:
        figures |= {f"find.{name}": f for name, f in values[page]().items()}
    return figures


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", sorted(p.stem for p in (ROOT / "book" / "_text" / "en").glob("*.md")))
def test_every_price_in_a_chapter_has_its_own_day_seen(page, lang):
    text = (ROOT / "book" / "_text" / lang / f"{page}.md").read_text(encoding="utf8")
    assert not (wrong := mismatched(text, GLUE, page_figures(page, lang))), "\n".join(wrong)


def test_a_price_beside_another_price_s_day_is_found():
    """The check itself fails where a card writes a price beside another input's day."""
    single, node = APART["lambda_h100_sxm_1x"], APART["lambda_h100_sxm_8x"]
    figures = {"price": single.figure(), "seen": Figure.on(node.seen)}
    assert mismatched("An H100 ({price}, page seen on {seen}).", CLAIM_FIELD, figures)
    assert not mismatched("An H100 ({price}, page seen on {seen}).", CLAIM_FIELD,
                          figures | {"seen": APART.seen_on("lambda_h100_sxm_1x")})
    both = {"price": Figure.between(*sorted((node.value, single.value)), "USD/GPU-hour"),
            "seen": APART.seen_on("lambda_h100_sxm_8x", "lambda_h100_sxm_1x")}
    assert not mismatched("At {price} (Lambda, {seen}).", CLAIM_FIELD, both)
    assert mismatched("At {price} (Lambda, {seen}).", CLAIM_FIELD, both | {"seen": APART.seen_on("lambda_h100_sxm_8x")})


def test_seen_on_says_each_day_once_and_refuses_an_input_without_one():
    one = I.replace("lambda_h100_sxm_1x", seen=I["lambda_h100_sxm_8x"].seen)
    assert one.seen_on("lambda_h100_sxm_8x", "lambda_h100_sxm_1x") == Figure.on(I["lambda_h100_sxm_8x"].seen)
    two = APART.seen_on("lambda_h100_sxm_1x", "lambda_h100_sxm_8x")
    days = sorted(APART[name].seen for name in ("lambda_h100_sxm_8x", "lambda_h100_sxm_1x"))
    assert two.format("en") == f"{fmt.date(days[0], 'en')} and {fmt.date(days[1], 'en')}"
    assert two.format("es") == f"{fmt.date(days[0], 'es')} y {fmt.date(days[1], 'es')}"
    with pytest.raises(ValueError, match="no date seen for opt_gpus"):
        I.seen_on("opt_gpus")
