"""The sums a chapter's visible code cells print, in the page's language.

A cell names its operands (`Sums.term`: a number with its unit, or with a name from the words table,
[sums.names] in lib/data/words/<lang>.toml) and writes the sum with Python's own operators, as a
reader would: `trainable = 2 * layers * matrices * width * rank`. The expression keeps both its
value and how it reads ("2 × 96 capas × 2 matrices × 12.288 (anchura del modelo) × 4 (rango)").
`Sums.show` prints it with its label ([sums.labels]) and its result written as the book writes
numbers (lib.core.figure), and refuses to print a sum whose value is not the figure the chapter
glues beside it (`equals`: the result of the lib function that figure comes from). So a cell's
arithmetic is the figure's own, checked every time the notebook runs (nbval runs every notebook).

Ranges are intervals of non-negative quantities: a sum or a product takes the lows together and
the highs together; a difference or a quotient, a low with the other's high.
"""

from __future__ import annotations

import dataclasses
import math

from lib.core import fmt
from lib.core.figure import CURRENCIES, PRICES, Figure
from lib.core.words import words

# How tightly a cell's sum must give the figure beside it: floating-point rounding only.
REL_TOL = 1e-9
ABS_TOL = 1e-12  # a sum that comes to zero
ATOM, PRODUCT, SUM = 3, 2, 1
COMPACT_UNITS = ("parameter", "token", "FLOP/s")
STYLE = ("decimals", "compact", "fixed")


class Expr:
    """A value (an interval: low, high) and how it reads in one language. `render(extra)` writes it with
    `extra` more decimals on each operand its text rounds, and gives what those written operands come
    to (a reader's own arithmetic on the printed line): (text, low, high)."""

    def __init__(self, low: float, high: float, text: str, lang: str, precedence: int = ATOM, render=None):
        self.low, self.high, self.lang, self.precedence = float(low), float(high), lang, precedence
        self.render = render or (lambda extra: (text, self.low, self.high))

    @property
    def text(self) -> str:
        return self.render(0)[0]

    # ------------------------------------------------------------ arithmetic

    def _coerce(self, other) -> "Expr":
        if isinstance(other, Expr):
            if other.lang != self.lang:
                raise ValueError(f"a sum mixes two languages: {self.lang} and {other.lang}")
            return other
        if isinstance(other, bool) or not isinstance(other, (int, float)):
            return NotImplemented
        decimals = 0 if float(other).is_integer() else len(f"{float(other):.6g}".partition(".")[2])
        return Expr(other, other, fmt.number(float(other), self.lang, decimals), self.lang)

    def _join(self, symbol: str, other: "Expr", precedence: int, ends) -> "Expr":
        strict = symbol in ("−", "÷")  # a − (b − c), a ÷ (b × c)
        bare_left = self.precedence >= precedence
        bare_right = other.precedence > precedence or (other.precedence == precedence and not strict)

        def render(extra: int):
            (left, *a), (right, *b) = self.render(extra), other.render(extra)
            left, right = (left if bare_left else f"({left})"), (right if bare_right else f"({right})")
            return (f"{left} {symbol} {right}", *ends(a, b))

        return Expr(*ends((self.low, self.high), (other.low, other.high)), "", self.lang, precedence, render)

    def _binary(self, other, symbol: str, reflected: bool = False):
        other = self._coerce(other)
        if other is NotImplemented:
            return NotImplemented
        a, b = (other, self) if reflected else (self, other)
        if symbol == "+":
            return a._join("+", b, SUM, lambda x, y: (x[0] + y[0], x[1] + y[1]))
        if symbol == "−":
            return a._join("−", b, SUM, lambda x, y: (x[0] - y[1], x[1] - y[0]))
        if symbol == "×":
            return a._join("×", b, PRODUCT, lambda x, y: (x[0] * y[0], x[1] * y[1]))
        if b.low <= 0 or b.render(0)[1] <= 0:
            raise ValueError(f"a sum divides by {b.text}, which can be zero")
        return a._join("÷", b, PRODUCT, lambda x, y: (x[0] / y[1], x[1] / y[0]))

    def __add__(self, other):
        return self._binary(other, "+")

    def __radd__(self, other):
        return self._binary(other, "+", reflected=True)

    def __sub__(self, other):
        return self._binary(other, "−")

    def __rsub__(self, other):
        return self._binary(other, "−", reflected=True)

    def __mul__(self, other):
        return self._binary(other, "×")

    def __rmul__(self, other):
        return self._binary(other, "×", reflected=True)

    def __truediv__(self, other):
        return self._binary(other, "÷")

    def __rtruediv__(self, other):
        return self._binary(other, "÷", reflected=True)

    # ------------------------------------------------------------ what it is

    @property
    def value(self) -> float:
        """The value of a sum of single numbers (a range has two: `low`, `high`)."""
        if self.low != self.high:
            raise ValueError(f"{self.text} is a range, not one value")
        return self.low

    def __repr__(self) -> str:
        return f"Expr({self.text!r} = {self.low:g}..{self.high:g})"


class SumMismatch(ValueError):
    """A visible cell's sum that does not give the figure beside it (a reader changed an operand in
    the cell rather than the input): said in the page's language and number format, and, in a
    notebook, as that one message instead of a traceback; the cells below it do not run."""

    def _render_traceback_(self) -> list[str]:  # IPython shows these lines in place of a traceback
        return [str(self)]


def _written(figure: Figure, lang: str) -> tuple[float, float]:
    """The two ends of a number figure as its text writes them (rounded as Figure.format rounds)."""
    def one(v: float) -> float:
        if figure.unit in CURRENCIES:
            if round(figure.high) >= 1e6:
                return fmt.compact_value(v, lang, figure.decimals)
            return round(v, figure.decimals if figure.high < 1e3 else 0)
        if figure.unit in PRICES:
            return round(v, 0 if PRICES[figure.unit][1] == "month" else 2)
        if figure.unit == "fraction":
            return round(v, figure.decimals + 2)
        if figure.unit == "FLOP":  # fmt.scientific: two decimals of the mantissa
            return float(f"{v:.2e}")
        if figure.compact:
            return round(v, figure.decimals - 3) if abs(figure.high) < 1e6 else fmt.compact_value(v, lang, figure.decimals)
        return round(v, figure.decimals)
    return one(figure.low), one(figure.high)


def _ends(figure) -> tuple[float, float]:
    """The two ends of what a sum must equal: a number, a (low, high) pair or a Figure."""
    if isinstance(figure, Figure):
        return figure.low, figure.high
    if isinstance(figure, tuple):
        return float(figure[0]), float(figure[1])
    return float(figure), float(figure)


class Sums:
    """The sums of one page, in its language: operands with their units and names, and lines."""

    def __init__(self, lang: str):
        self.lang = lang
        self.words = words(lang)["sums"]

    def _name(self, name: str | None) -> str:
        if name is None:
            return ""
        try:
            return self.words["names"][name]
        except KeyError:
            raise ValueError(f"no {self.lang} name for the operand {name!r}: add it to [sums.names]") from None

    def term(self, value: float, unit: str = "", name: str | None = None, **style) -> Expr:
        """One operand: its number with its unit, followed by what it is where the unit does not say it.
        A count of millions or more of parameters, tokens or FLOP/s is written in words, to a tenth
        (175.000 millones de parámetros, 312 trillion FLOP/s), unless `style` says otherwise."""
        if unit in COMPACT_UNITS and value >= 1e6:
            style = {"compact": True, "decimals": 1} | style
        return self._atom(Figure.of(value, unit, **style), name)

    def between(self, low: float, high: float, unit: str = "", name: str | None = None, **style) -> Expr:
        """An operand known as a range."""
        return self._atom(Figure.between(low, high, unit, **style), name)

    def of(self, figure: Figure, value: float | None = None, name: str | None = None) -> Expr:
        """An operand written as `figure` says it, with its own `value` where the figure is in another
        unit (Figure.memory writes 0.0084 GB as "8,4 MB": its value in the sum stays 0.0084)."""
        if not figure.is_number:
            raise ValueError(f"a sum needs numbers, got {figure.raw()!r}")
        scale = float(value) / figure.low if value is not None and figure.low else 1.0
        atom = self._atom(figure, name, scale)
        if value is not None:
            atom.low = atom.high = float(value)
        return atom

    def _atom(self, figure: Figure, name: str | None, scale: float = 1.0) -> Expr:
        """An operand; `scale` turns the figure's unit into the sum's (8,4 MB is 0.0084 GB)."""
        label = self._name(name)

        def render(extra: int):
            written = _written(figure, self.lang)
            if extra and written != (figure.low, figure.high):  # rounded: a digit more for each extra
                more = dataclasses.replace(figure, decimals=figure.decimals + extra)
                written, shown = _written(more, self.lang), more.format(self.lang)
            else:
                shown = figure.format(self.lang)
            return (f"{shown} ({label})" if label else shown, written[0] * scale, written[1] * scale)

        return Expr(figure.low, figure.high, "", self.lang, render=render)

    def label(self, key: str, fields: dict[str, str] | None = None) -> str:
        """A sum's label from [sums.labels], its {fields} filled ("{run}: ..." with the run's name)."""
        try:
            return self.words["labels"][key].format(**(fields or {}))
        except KeyError as missing:
            raise ValueError(f"no {self.lang} label for the sum {key!r} with {missing}: see [sums.labels]") from None

    def line(self, label: str, expr: Expr, unit: str, *, equals, **options) -> tuple[str, Expr]:
        """The sum as one line ("label: a × b = result") and its result as an operand for the next
        sum; a ValueError if the sum does not give `equals`, the figure the chapter glues. `options`
        are the result's style (decimals, compact) and the label's {fields} (run="OPT-175B")."""
        if not isinstance(expr, Expr):
            raise ValueError(f"{label}: a sum needs named operands (Sums.term), got {expr!r}")
        style = {k: v for k, v in options.items() if k in STYLE}
        fields = {k: v for k, v in options.items() if k not in STYLE}
        want = _ends(equals)
        result = Figure.between(expr.low, expr.high, unit, **style)
        written = result.format(self.lang)
        if not all(math.isclose(got, w, rel_tol=REL_TOL, abs_tol=ABS_TOL) for got, w in zip((expr.low, expr.high), want)):
            beside = Figure.between(*want, unit, **style).format(self.lang)
            if beside == written:  # apart by less than the figure's last digit: write them in full
                written, beside = (Figure.between(*ends, unit, decimals=6).format(self.lang)
                                   for ends in ((expr.low, expr.high), want))
            raise SumMismatch(self.words["mismatch"].format(label=self.label(label, fields), got=written, want=beside))
        # Written as the figure's own precision rounds them, the operands may come to another result
        # than the exact one (0.9 hours × $4.29 is $3.86, not $3.73): write the rounded ones with more
        # decimals until the line, as printed, gives what it says.
        for extra in range(4):
            text, *ends = expr.render(extra)
            if Figure.between(*sorted(ends), unit, **style).format(self.lang) == written:
                break
        else:
            raise ValueError(f"{label}: the operands as written do not give {written}, even with {extra} more decimals")
        return f"{self.label(label, fields)}: {text} = {written}", self._atom(result, None)

    def show(self, label: str, expr: Expr, unit: str, *, equals, **options) -> Expr:
        """Print the sum's line (see `line`) and return its result, to use in the next sum."""
        text, result = self.line(label, expr, unit, equals=equals, **options)
        print(text)
        return result
