"""Figure: a computed value (a number or a range, a date, a text) with its unit,
and how it reads in each language."""

from __future__ import annotations

import dataclasses
import datetime as dt
import math

from . import fmt

CURRENCIES = {"USD", "EUR"}
PRICES = {"USD/GPU-hour": ("USD", "GPU-hour"), "USD/chip-hour": ("USD", "chip-hour"), "USD/month": ("USD", "month")}


@dataclasses.dataclass(frozen=True)
class Figure:
    low: float | None = None
    high: float | None = None
    unit: str = ""
    decimals: int = 0
    compact: bool = False
    date: dt.date | None = None
    text: str | None = None

    @classmethod
    def of(cls, value: float, unit: str, **style) -> "Figure":
        return cls(low=float(value), high=float(value), unit=unit, **style)

    @classmethod
    def between(cls, low: float, high: float, unit: str, **style) -> "Figure":
        low, high = float(low), float(high)
        if low > high:
            raise ValueError(f"range low ({low:g}) is above high ({high:g})")
        return cls(low=low, high=high, unit=unit, **style)

    @classmethod
    def on(cls, date: dt.date) -> "Figure":
        return cls(date=date, unit="date")

    @classmethod
    def says(cls, text: str) -> "Figure":
        return cls(text=text, unit="text")

    @property
    def is_number(self) -> bool:
        return self.low is not None

    @property
    def value(self) -> float:
        """The midpoint of a range, or the single value."""
        return (self.low + self.high) / 2

    def raw(self) -> str:
        """A language-free record of the figure for nbval to compare exactly."""
        if self.date is not None:
            return self.date.isoformat()
        if self.text is not None:
            return self.text
        high = "inf" if math.isinf(self.high) else repr(self.high)
        return f"{self.low!r}..{high} {self.unit}"

    def format(self, lang: str) -> str:
        if self.date is not None:
            return fmt.date(self.date, lang)
        if self.text is not None:
            return self.text
        if math.isinf(self.high):
            return ("más de " if fmt.locale(lang) == "es_ES" else "more than ") + dataclasses.replace(
                self, high=self.low
            ).format(lang)
        if self.low == 0 and self.high > 0:
            return ("menos de " if fmt.locale(lang) == "es_ES" else "less than ") + dataclasses.replace(
                self, low=self.high
            ).format(lang)
        if self.unit in CURRENCIES:
            if self.high >= 1e6:
                return fmt.money_compact(self.low, self.unit, lang, high=self.high, decimals=self.decimals)
            # Cents only for amounts under a thousand: "223,44 US$", but "34.335 €".
            decimals = self.decimals if self.high < 1e3 else 0
            return self._range(lambda v: fmt.money(v, self.unit, lang, decimals))
        if self.unit in PRICES:
            currency, per = PRICES[self.unit]
            decimals = 2 if per != "month" else 0
            return self._range(lambda v: fmt.money(v, currency, lang, decimals)) + " " + fmt.per_unit(per, lang)
        if self.unit == "fraction":
            return self._range(lambda v: fmt.percent(v, lang, self.decimals))
        if self.unit == "calendar-year":
            return self._range(lambda v: str(int(v)))
        if self.unit == "FLOP":
            return self._range(lambda v: fmt.scientific(v, lang)) + " " + fmt.unit_word("FLOP", lang)
        if self.compact:
            number = self._range(lambda v: fmt.compact(v, lang, self.decimals))
        else:
            number = self._range(lambda v: fmt.number(v, lang, self.decimals))
        word = fmt.unit_word(self.unit, lang, self.high) if self.unit else ""
        if self.compact and word and fmt.locale(lang) == "es_ES" and number.endswith(fmt.TAKES_DE):
            word = "de " + word
        return f"{number} {word}".strip()

    def _range(self, one) -> str:
        return one(self.low) if self.low == self.high else f"{one(self.low)}{fmt.DASH}{one(self.high)}"
