"""Locale formatting of every number on the site. Babel (CLDR) does the work.

`lang` is "es" or "en"; anything else is a ValueError.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from functools import lru_cache

from babel import Locale
from babel.dates import format_date, format_skeleton
from babel.numbers import (
    format_compact_currency,
    format_compact_decimal,
    format_currency,
    format_decimal,
    format_percent,
    get_currency_symbol,
    get_decimal_symbol,
)

from lib.core.words import words

LOCALES = {"es": "es_ES", "en": "en_US"}
LANGS = tuple(LOCALES)

SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
DASH = "–"
# Spanish says "5 millones de dólares" but "450 mil dólares": these scale words take "de".
TAKES_DE = ("millón", "millones", "billón", "billones")


def joined(low: str, high: str) -> str:
    """The two ends of a range as written, or one figure where they write alike: a range of
    $4.29–4.39 an hour costs "$1.4 million", not "$1.4–1.4 million"."""
    return high if low == high else f"{low}{DASH}{high}"


def locale(lang: str) -> str:
    try:
        return LOCALES[lang]
    except KeyError:
        raise ValueError(f"unknown language '{lang}': use one of {', '.join(LANGS)}") from None


@lru_cache(maxsize=None)
def _babel(lang: str) -> Locale:
    """Babel's locale of `lang`, parsed once (Babel parses a locale's name again at every call given one)."""
    return Locale.parse(locale(lang))


def _finite(x) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
        raise ValueError(f"cannot format {x!r}: not a finite number")
    return float(x)


@lru_cache(maxsize=None)
def _pattern(kind: str, lang: str, decimals: int) -> str:
    loc = _babel(lang)
    base = (loc.percent_formats if kind == "percent" else loc.decimal_formats)[None].pattern
    integer = base.split(";")[0].replace("#,##0.###", "#,##0")
    return integer.replace("0", "0." + "0" * decimals, 1) if decimals else integer


def number(x: float, lang: str, decimals: int = 0) -> str:
    """1.428.480 (es) / 1,428,480 (en)."""
    return format_decimal(round(_finite(x), decimals), format=_pattern("decimal", lang, decimals), locale=_babel(lang))


def percent(fraction: float, lang: str, decimals: int = 1) -> str:
    """46,2 % (es) / 46.2% (en) from 0.462."""
    return format_percent(_finite(fraction), format=_pattern("percent", lang, decimals), locale=_babel(lang))


def percent_range(low: float, high: float, lang: str, decimals: int = 1) -> str:
    """A percentage or a range of them with one sign: 5–23 % (es) / 5–23% (en). A range across zero
    writes each end whole, with its sign, in words: -5 % a +221 % (es) / -5% to +221% (en)."""
    if low < 0 < high:
        return f"{percent(low, lang, decimals)} {words(lang)['units']['range_to']} +{percent(high, lang, decimals)}"
    one = percent(high, lang, decimals)
    figure = number(high * 100, lang, decimals)
    return one.replace(figure, joined(number(low * 100, lang, decimals), figure), 1)


def compact(x: float, lang: str, decimals: int = 1, fixed: bool = False) -> str:
    """5,7 millones / 5.7 million; 3 billones (10^12) / 3 trillion; and, as Spanish writes
    thousands of millions, 175.300 millones / 175.3 billion (STYLE.md).

    CLDR drops a trailing zero (6.0 million reads "6 million"), as a figure an article states reads;
    `fixed` keeps every decimal, for a computed figure that stands beside a range written at that
    precision ("6.0 million" beside "7.5 million", STYLE.md: one precision)."""
    x = _carried(_finite(x), lang, decimals)
    if locale(lang) == "es_ES" and 1e9 <= abs(x) < 1e12:
        millions = round(x / 1e6, decimals - 3)  # the same precision as 175.3 billion
        return f"{number(millions, lang, max(0, decimals - 3))} millones"
    text = format_compact_decimal(x, format_type="long", locale=_babel(lang), fraction_digits=decimals)
    scale = _scale(x, lang)
    if abs(x) >= 1000 * scale >= 1e15:  # past CLDR's largest scale word, Babel leaves the thousands ungrouped
        figure, _, word = text.partition(" ")
        whole, point, rest = figure.partition(get_decimal_symbol(_babel(lang)))
        text = f"{number(int(whole), lang, 0)}{point}{rest} {word}"
    if not fixed or decimals <= 0 or scale < 1e6:
        return text
    shown = number(round(x / scale, decimals), lang, decimals)
    return f"{shown} {_scale_word(scale, shown, lang)}"


def _scale_word(scale: float, shown: str, lang: str) -> str:
    """The word of a scale for the number shown before it, singular only for exactly one:
    1 millón, 1,5 millones / 1 million."""
    return compact(scale * (1 if shown == number(1, lang) else 2), lang, 0).split(" ", 1)[1]


def compact_range(low: float, high: float, lang: str, decimals: int = 1, fixed: bool = False) -> str:
    """A range in one scale, the high end's (STYLE.md: one unit for both ends): 0.7–5.3 billion,
    700–5.300 millones, not 742.2 million–5.3 billion; each end in its own scale only where the low
    end would round to nothing in the high end's."""
    low, high = _finite(low), _finite(high)
    if low > high:
        raise ValueError(f"range low ({low:g}) is above high ({high:g})")
    high = _carried(high, lang, decimals)
    scale, rounding = _scale(high, lang), _places(high, lang, decimals)
    if scale < 1e3 or round(low / scale, rounding) == 0:
        return joined(compact(low, lang, decimals, fixed), compact(high, lang, decimals, fixed))
    body, word = _in_scale(low, high, scale, rounding, lang, fixed)
    return f"{body} {word}"


def _in_scale(low: float, high: float, scale: float, rounding: int, lang: str, fixed: bool) -> tuple[str, str]:
    """Both ends of a range written in one scale, at one precision (STYLE.md): 1,0–6,8, not 1–6,8; 9–23
    when both are whole, unless `fixed` keeps the decimals; and the scale's word for the high end."""
    whole = not fixed and all(round(v / scale, rounding) == int(round(v / scale, rounding)) for v in (low, high))
    ends = [number(round(v / scale, rounding), lang, 0 if whole else max(0, rounding)) for v in (low, high)]
    return joined(*ends), _scale_word(scale, ends[1], lang)


def compact_value(x: float, lang: str, decimals: int = 1) -> float:
    """The number `compact` writes for x, as a number: 6,738 millones at one decimal of the English
    billions is 6.7e9 in both languages."""
    x = _carried(_finite(x), lang, decimals)
    scale = _scale(x, lang)
    return round(x / scale, _places(x, lang, decimals)) * scale


def scientific(x: float, lang: str, decimals: int = 2) -> str:
    """2,56 × 10²⁴ (es) / 2.56 × 10²⁴ (en)."""
    x = _finite(x)
    if x == 0:
        return number(0, lang)
    exponent = math.floor(math.log10(abs(x)))
    mantissa = x / 10**exponent
    if round(mantissa, decimals) >= 10:
        mantissa, exponent = mantissa / 10, exponent + 1
    return f"{number(mantissa, lang, decimals)} × 10{str(exponent).translate(SUPERSCRIPT)}"


def date(d: dt.date, lang: str) -> str:
    """21 de marzo de 2023 / March 21, 2023."""
    if not isinstance(d, dt.date):
        raise ValueError(f"cannot format {d!r}: not a date")
    return format_date(d, format="long", locale=_babel(lang))


def month(d: dt.date, lang: str) -> str:
    """diciembre de 2024 / December 2024."""
    if not isinstance(d, dt.date):
        raise ValueError(f"cannot format {d!r}: not a date")
    return format_skeleton("yMMMM", d, locale=_babel(lang))


def seen(when: dt.date | int, lang: str) -> str:
    """When a price was read: a full date, or only the year where no day was recorded."""
    return str(when) if isinstance(when, int) else date(when, lang)


def money(x: float, currency: str, lang: str, decimals: int = 2) -> str:
    """3,29 dólares / $3.29: Spanish names the currency in words, as its prose does
    (STYLE.md); English takes Babel's CLDR symbol and placement."""
    if locale(lang) == "es_ES":
        return f"{number(x, lang, decimals)} {words('es')['currency'][currency]}"
    loc = _babel(lang)
    pattern = loc.currency_formats["standard"].pattern.split(";")[0]
    pattern = pattern.replace("#,##0.00", "#,##0" + ("." + "0" * decimals if decimals else ""))
    return format_currency(round(_finite(x), decimals), currency, format=pattern, locale=loc, currency_digits=False)


def money_range(low: float, high: float, currency: str, lang: str, decimals: int = 2) -> str:
    """An amount or a range of amounts in one unit: 4,10–5,12 dólares / $4.10–5.12."""
    if low == high:
        return money(low, currency, lang, decimals)
    if low > high:
        raise ValueError(f"range low ({low:g}) is above high ({high:g})")
    one = money(high, currency, lang, decimals)
    figure = number(high, lang, decimals)
    return one.replace(figure, joined(number(low, lang, decimals), figure), 1)


def _scale(x: float, lang: str) -> float:
    """The power of 1,000 (thousand, million, ...) that the long compact form uses for x
    (Spanish counts thousands of millions in millions)."""
    x = abs(x)
    if locale(lang) == "es_ES" and 1e9 <= x < 1e12:
        return 1e6
    return 1e12 if x >= 1e12 else 1e9 if x >= 1e9 else 1e6 if x >= 1e6 else 1e3 if x >= 1e3 else 1


def _places(x: float, lang: str, decimals: int) -> int:
    """The decimals x is rounded to at its scale: Spanish thousands of millions, counted in
    millions, keep the precision of the English billions (175.300 millones, 175.3 billion)."""
    return decimals - 3 if locale(lang) == "es_ES" and 1e9 <= abs(x) < 1e12 else decimals


def _carried(x: float, lang: str, decimals: int) -> float:
    """x as its compact form writes it when rounding carries it into the next scale: 999,999,000
    at two decimals is not "1,000.00 million" but 1 billion (1.000 millones); otherwise x itself."""
    first = x
    for _ in range(4):
        scale = _scale(x, lang)
        if scale < 1e3:
            break
        places = _places(x, lang, decimals)
        rounded = round(x / scale, places) * scale
        if _scale(rounded, lang) == scale and _places(rounded, lang, decimals) == places:
            break
        x = rounded
    return first if x == first else x


def _short(v: float, lang: str, decimals: int) -> str:
    """A number with `decimals`, or none when it rounds to a whole number: 9, 5,7."""
    r = round(v, decimals)
    return number(r, lang, 0 if r == int(r) else decimals)


def money_short(x: float, currency: str, lang: str, high: float | None = None) -> str:
    """CLDR's short form of an amount, for a chart's labels: 3,2 M US$ / $3.2M; with `high`, a range in
    one unit where both ends write it alike (9–23 M US$ / $9–23M), else each end with its own."""
    def short(v: float) -> str:
        return format_compact_currency(_finite(v), currency, locale=_babel(lang), format_type="short", fraction_digits=1)

    ends = [short(x)] + ([] if high is None else [short(high)])
    if len(ends) == 1 or ends[0] == ends[1]:
        return ends[-1]
    parts = [SHORT_AMOUNT.fullmatch(end) for end in ends]
    if all(parts) and parts[0]["before"] == parts[1]["before"] and parts[0]["after"] == parts[1]["after"]:
        return f"{parts[0]['before']}{parts[0]['number']}{DASH}{parts[1]['number']}{parts[1]['after']}"
    return joined(*ends)


# An amount in CLDR's short form: what comes before its number (a sign), the number, what comes after.
SHORT_AMOUNT = re.compile(r"(?P<before>[^\d]*)(?P<number>\d(?:[\d.,]*\d)?)(?P<after>[^\d]*)")


def money_compact(low: float, currency: str, lang: str, high: float | None = None, decimals: int = 1,
                  fixed: bool = False) -> str:
    """5,7 millones de dólares / $5.7 million; with `high`, a range in one unit:
    9–23 millones de dólares / $9–23 million. A whole amount drops its decimals ("$4 million", as an
    article writes it); `fixed` keeps them, for a computed figure beside a range at that precision
    ("$18.0 million ($18.0–27.1 million)")."""
    high = _finite(low if high is None else high)
    low = _finite(low)
    if low > high:
        raise ValueError(f"range low ({low:g}) is above high ({high:g})")
    same = low == high
    high = _carried(high, lang, decimals)
    low = high if same else low
    scale = _scale(high, lang)
    # Spanish thousands of millions at the precision of the English billions (_places): 1.200
    # millones as $1.2 billion (not 1.164 millones), 13.900 millones as $13.9 billion (STYLE.md).
    rounding = _places(high, lang, decimals)
    if scale < 1e3:
        text = money(low, currency, lang)
        return text if same else joined(text, money(high, currency, lang))
    body, word = _in_scale(low, high, scale, rounding, lang, fixed)
    if locale(lang) == "es_ES":
        link = " de " if word.endswith(TAKES_DE) else " "
        return f"{body} {word}{link}{words('es')['currency'].get(currency, currency)}"
    return f"{get_currency_symbol(currency, locale=_babel(lang))}{body} {word}"


def unit_word(unit: str, lang: str, value: float = 2) -> str:
    try:
        one, many = words(lang)["units"][unit]
    except KeyError:
        raise ValueError(f"no words for unit '{unit}'") from None
    return one if value == 1 else many


def per_unit(unit: str, lang: str) -> str:
    return words(lang)["per_unit"][unit]
