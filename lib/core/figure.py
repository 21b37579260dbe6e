"""Figure: a computed value (a number or a range, a date, a text) with its unit,
and how it reads in each language."""

from __future__ import annotations

import dataclasses
import datetime as dt
import math

from lib.core import fmt
from lib.core.words import place, words

CURRENCIES = {"USD", "EUR"}
PRICES = {"USD/GPU-hour": ("USD", "GPU-hour"), "USD/chip-hour": ("USD", "chip-hour"), "USD/month": ("USD", "month"), "USD/hour": ("USD", "hour"),
          "USD/kWh": ("USD", "kWh"), "USD/chip": ("USD", "chip")}
LONG_HOURS = 1e3  # from here on a duration is written in whole hours (Figure.duration_range)


@dataclasses.dataclass(frozen=True)
class Figure:
    low: float | None = None
    high: float | None = None
    unit: str = ""
    decimals: int = 0
    compact: bool = False
    date: dt.date | None = None
    text: str | None = None
    items: tuple[str, ...] = ()  # a text figure's parts, compared as a set
    items_es: tuple[str, ...] = ()  # the same parts as the Spanish page shows them, where they differ
    sequence: tuple[float, ...] = ()  # an ordered series of numbers ("from 1.0 to 0.3")
    low_open: bool = False  # "more than low" rather than "at least low"
    high_open: bool = False  # "less than high" rather than "at most high"
    qualifier: str = ""  # what kind of unit: 992 GPUs of the H100 kind read "992 H100 GPUs", "992 GPU H100"
    original: str = ""  # a text figure in a source's own words: the language they are in ("en")
    days: tuple[dt.date, ...] = ()  # several days, each its own (prices of one range seen on different days)
    worded: tuple[str, str] = ()  # a text figure's parts as one phrase in English and Spanish (its items still compared)
    fixed: bool = False  # keeps its decimals in a compact form: the book's "18.0 million" beside "18.0–27.1 million", where an article's "4 million" drops them

    @classmethod
    def of(cls, value: float, unit: str, **style) -> "Figure":
        return cls(low=float(value), high=float(value), unit=unit, **style)

    @classmethod
    def memory(cls, gb: float) -> "Figure":
        """Memory with one decimal in the unit that keeps it readable: 13,4 GB, but 4,0 MB."""
        return cls.of(gb, "GB", decimals=1) if gb >= 1 or gb == 0 else cls.of(gb * 1e3, "MB", decimals=1)

    @classmethod
    def memory_range(cls, low_gb: float, high_gb: float) -> "Figure":
        """A range of memory in one unit, chosen by the high end as `memory` chooses it: 102,6–114,0 GB, but
        3,8–4,2 MB. charts.memory_range_expr is its Vega twin."""
        if high_gb >= 1 or high_gb == 0:
            return cls.between(low_gb, high_gb, "GB", decimals=1)
        return cls.between(low_gb * 1e3, high_gb * 1e3, "MB", decimals=1)

    @classmethod
    def duration(cls, hours: float) -> "Figure":
        """A time as duration_range writes it: 52,1 horas, 18,0 minutos, 1.544.727 horas."""
        return cls.duration_range(hours, hours)

    @classmethod
    def duration_range(cls, low_hours: float, high_hours: float) -> "Figure":
        """A time, or a range of times in one unit and one precision (STYLE.md), chosen by the high end:
        minutes where it is under an hour (5,8–41,2 minutos), else hours for both ends (0,5–2,1 horas);
        one decimal, none where the high end, at one decimal, is LONG_HOURS (1.000 horas) or more
        (1.544.727 horas: a tenth of an hour means nothing there). charts.duration_expr is its Vega twin."""
        if high_hours < 1:
            return cls.between(low_hours * 60, high_hours * 60, "minute", decimals=1)
        return cls.between(low_hours, high_hours, "hour", decimals=0 if round(high_hours, 1) >= LONG_HOURS else 1)

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
    def on_days(cls, *days: dt.date) -> "Figure":
        """One day, or several in order where they differ ("September 25 and December 4, 2026")."""
        distinct = tuple(sorted(set(days)))
        if not distinct or not all(isinstance(d, dt.date) for d in distinct):
            raise ValueError(f"on_days needs dates, got {days!r}")
        return cls.on(distinct[0]) if len(distinct) == 1 else cls(days=distinct, unit="date")

    @classmethod
    def month_of(cls, date: dt.date) -> "Figure":
        """A calendar month (the month a publisher's dollars are of)."""
        return cls(date=date, unit="calendar-month")

    @classmethod
    def says(cls, *texts: str) -> "Figure":
        """A text, or several parts of one (each compared on its own)."""
        if not texts or not all(isinstance(t, str) and t.strip() for t in texts):
            raise ValueError(f"a text figure needs non-empty texts, got {texts!r}")
        return cls(text="; ".join(texts), items=tuple(texts), unit="text")

    @classmethod
    def quoting(cls, lang: str, *texts: str) -> "Figure":
        """A source's own words (in `lang`), shown on each page in its language from the words
        table (`fact`), with the original beside them as a quote marked with its language
        (lib.core.phrases.shown)."""
        shown_es = tuple(words("es")["fact"].get(t, t) for t in texts) if lang != "es" else ()
        return dataclasses.replace(cls.says(*texts), items_es=shown_es, original=lang)

    @classmethod
    def place(cls, locator: str) -> "Figure":
        """Where in a paper a figure is ("Section 2.4"), shown in each page's language."""
        return dataclasses.replace(cls.says(place(locator, "en")), items_es=(place(locator, "es"),))

    @classmethod
    def more_than(cls, low: float, unit: str, *, inclusive: bool = False, **style) -> "Figure":
        """A lower bound: "more than low" (or "at least low" when `inclusive`)."""
        return cls(low=float(low), high=math.inf, low_open=not inclusive, unit=unit, **style)

    @classmethod
    def less_than(cls, high: float, unit: str, **style) -> "Figure":
        """An upper bound: "less than high"."""
        return cls(low=0.0, high=float(high), high_open=True, unit=unit, **style)

    @classmethod
    def series(cls, values, unit: str, **style) -> "Figure":
        """Numbers in order, such as a value before and after a change."""
        values = tuple(float(v) for v in values)
        if len(values) < 2:
            raise ValueError(f"a series needs at least two values, got {values!r}")
        return cls(low=min(values), high=max(values), sequence=values, unit=unit, **style)

    @property
    def is_bound(self) -> bool:
        """ "more than", "at least" or "less than": a direction, not a value."""
        return self.is_number and (math.isinf(self.high) or (self.low == 0 and self.high_open))

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
        if self.days:
            return "; ".join(d.isoformat() for d in self.days)
        if self.text is not None:
            return self.text
        if self.sequence:
            return " -> ".join(repr(v) for v in self.sequence) + f" {self.unit}"
        high = "inf" if math.isinf(self.high) else repr(self.high)
        return f"{'(' if self.low_open else ''}{self.low!r}..{high}{')' if self.high_open else ''} {self.unit}"

    def format(self, lang: str) -> str:
        if self.date is not None:
            return fmt.month(self.date, lang) if self.unit == "calendar-month" else fmt.date(self.date, lang)
        shown = [fmt.date(d, lang) for d in self.days]
        if self.worded:
            return self.worded[1] if fmt.locale(lang) == "es_ES" else self.worded[0]
        if self.text is not None:
            shown = self.items_es if self.items_es and fmt.locale(lang) == "es_ES" else self.items
        if self.text is not None or shown:
            if len(shown) < 2:
                return shown[0] if shown else self.text
            return f"{', '.join(shown[:-1])} {words(lang)['and']} {shown[-1]}"
        bound = words(lang)["bound"]
        if self.sequence:
            return " → ".join(Figure.of(v, self.unit, decimals=self.decimals, compact=self.compact, fixed=self.fixed).format(lang)
                              for v in self.sequence)
        if math.isinf(self.high):
            word = bound["more_than"] if self.low_open else bound["at_least"]
            return f"{word} " + self._threshold(self.low).format(lang)
        if self.low == 0 and self.high_open:
            return f"{bound['less_than']} " + self._threshold(self.high).format(lang)
        if self.high_open:
            low, high = (self._threshold(v).format(lang) for v in (self.low, self.high))
            return bound["range_open"].format(low=self._without_unit(low, high, lang), high=high)
        if self.unit in CURRENCIES:
            if round(self.high) >= 1e6:  # 999.999,60 reads "1 million", as its rounding says
                return fmt.money_compact(self.low, self.unit, lang, high=self.high, decimals=self.decimals, fixed=self.fixed)
            # Cents only for amounts under a thousand: "223,44 dólares", but "34.335 euros".
            decimals = self.decimals if self.high < 1e3 else 0
            return fmt.money_range(self.low, self.high, self.unit, lang, decimals)
        if self.unit in PRICES:
            currency, per = PRICES[self.unit]
            decimals = 2 if per != "month" else 0
            return fmt.money_range(self.low, self.high, currency, lang, decimals) + " " + fmt.per_unit(per, lang)
        if self.unit == "fraction":
            return fmt.percent_range(self.low, self.high, lang, self.decimals)
        if self.unit == "calendar-year":
            return self._range(lambda v: str(int(v)))
        if self.unit == "FLOP":
            return self._range(lambda v: fmt.scientific(v, lang)) + " " + fmt.unit_word("FLOP", lang)
        if self.compact and abs(self.high) < 1e6:
            # Under a million the number is written whole, at the precision its compact form has:
            # 1.000 and 256.000 (not "1 mil", "256 mil"), 1,000 (not "1 thousand").
            whole = Figure(low=round(self.low, self.decimals - 3), high=round(self.high, self.decimals - 3))
            number = whole._range(lambda v: fmt.number(v, lang))
        elif self.compact:
            number = (fmt.compact(self.high, lang, self.decimals, self.fixed) if self.low == self.high
                      else fmt.compact_range(self.low, self.high, lang, self.decimals, self.fixed))
        else:
            number = self._range(lambda v: fmt.number(v, lang, self.decimals))
        # Singular for a value written as one: 1 hour, also for 1.2 hours shown without decimals;
        # a range whose ends are written apart is plural: 0,4–1,0 horas.
        shown = self.high if self.compact else round(self.high, self.decimals)
        if not self.compact and round(self.low, self.decimals) != shown:
            shown = 2
        word = fmt.unit_word(self.unit, lang, shown) if self.unit else ""
        if word and self.qualifier:
            word = words(lang)["qualified"].format(unit=word, qualifier=self.qualifier)
        if self.compact and word and fmt.locale(lang) == "es_ES" and number.endswith(fmt.TAKES_DE):
            word = "de " + word
        return f"{number} {word}".strip()

    def _range(self, one) -> str:
        return fmt.joined(one(self.low), one(self.high))

    def _threshold(self, value: float) -> "Figure":
        """One end of a bound as a figure of its own; a round threshold without decimals ("más de
        1 año", not "más de 1,0 año")."""
        decimals = 0 if value == int(value) else self.decimals
        return dataclasses.replace(self, low=value, high=value, low_open=False, high_open=False, decimals=decimals)

    def _without_unit(self, low: str, high: str, lang: str) -> str:
        """The low end of an open range without the unit both ends share, and without the word of
        scale they share: "de 100 a menos de 1.000 GPU", "de 100 a menos de 1.000 millones de dólares",
        "de 1 millón a menos de 1.000 millones de veces" (STYLE.md: one unit for a range)."""
        if self.unit in CURRENCIES:
            unit = words(lang)["currency"][self.unit] if fmt.locale(lang) == "es_ES" else ""
        else:
            unit = fmt.unit_word(self.unit, lang) if self.unit else ""
        if unit and self.qualifier:
            unit = words(lang)["qualified"].format(unit=unit, qualifier=self.qualifier)
        if not unit or not (low.endswith(" " + unit) and high.endswith(" " + unit)):
            return low
        low, high = (end[: -len(unit)].rstrip() for end in (low, high))
        low, high = (end[:-3] if end.endswith(" de") else end for end in (low, high))
        scale = low.rsplit(" ", 1)[-1]
        shared = " " in low and not scale[0].isdigit() and high.endswith(" " + scale)
        return low[: -len(scale)].rstrip() if shared else low
