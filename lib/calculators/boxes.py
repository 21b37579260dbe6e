"""The live calculators' boxes (Jupyter and Binder): numbers as the book prints them, read as
the reader writes them, and a form whose labels never squeeze their boxes.

A NumberBox shows its value rounded to the precision the book prints that quantity with, in the
page's number style (2,79 / 2.79; 20,80 days; 47,7 % of the peak), and reads back what the reader
types in that style (Babel, strictly: in Spanish "2.79" is no number, "2,79" is). Until the reader
types, its value is the exact one it was given (a preset's 20.800008… days, not the 20,80 shown),
so the calculator's result is the book's. A form lays the controls out in two columns: every
label in full in the first, the boxes aligned in the second.
"""

from __future__ import annotations

import ipywidgets as widgets
from babel.numbers import NumberFormatError, parse_decimal

from lib.core import fmt
from lib.chapters.compute import BadInput


class NumberBox:
    """A text box for a number: `decimals` as the book prints the quantity (`trim`: none when the
    value is whole at that precision, as 20 days or 7 billion parameters; `scale`: what the box
    shows per unit of the value, 100 for a fraction shown as a percentage). `name` is the input's
    name in the error messages (lib/data/words, errors.names)."""

    def __init__(self, value: float, lang: str, label: str, name: str, decimals: int = 0, *,
                 trim: bool = False, scale: float = 1) -> None:
        self.lang, self.name, self.decimals, self.trim, self.scale = lang, name, decimals, trim, scale
        self.widget = widgets.Text(tooltip=label, continuous_update=False,
                                   layout=widgets.Layout(width="9em"))
        self.set(value)

    def shown(self, value: float) -> str:
        """The value as the box writes it."""
        x = value * self.scale
        places = 0 if self.trim and round(x, self.decimals) == int(round(x, self.decimals)) else self.decimals
        return fmt.number(x, self.lang, places)

    def set(self, value: float) -> None:
        """Show `value` (a preset's, the start's); the box's value is this exact one until the reader types."""
        self._exact = float(value)
        self.widget.value = self.shown(self._exact)

    @property
    def value(self) -> float:
        """The exact value given, while the box shows it; else what the reader wrote, read in the
        page's number style; a lib.compute.BadInput (problem "format") when it is not a number so written."""
        text = self.widget.value.strip()
        if text == self.shown(self._exact):
            return self._exact
        return self.parse(text)

    def parse(self, text: str) -> float:
        """`text` read in the page's number style; a BadInput (problem "format") when it is not a number so written."""
        try:
            return float(parse_decimal(text.replace("\u00a0", " "), locale=fmt.locale(self.lang), strict=True)) / self.scale
        except (NumberFormatError, ValueError):
            raise BadInput(self.name, "format", f"{self.name}: {text!r} is not a number as {self.lang} writes it",
                           example=self.shown(self._exact)) from None

    def observe(self, handler) -> None:
        self.widget.observe(handler, names="value")


def in_box_units(exc: Exception, boxes) -> Exception:
    """A bad input's error with its limits in the units its box shows (a fraction's 0.05 to 1 as
    5 to 100 in a box of percentages), for lib.words.error to write."""
    for box in boxes:
        if getattr(exc, "name", None) == box.name and getattr(exc, "limits", None) and box.scale != 1:
            low, high = exc.limits
            return BadInput(exc.name, exc.problem, str(exc), (low * box.scale, high * box.scale), exc.example)
    return exc


def form(rows: list[tuple[str, widgets.Widget]], result: widgets.Widget) -> widgets.VBox:
    """The controls, one (label, control) a row, labels in full on the left, the controls aligned
    on the right; the result below. Each control is named by its label for assistive technology
    (its tooltip, the box's title)."""
    cells = []
    for label, control in rows:
        if hasattr(control, "tooltip") and not control.tooltip:
            control.tooltip = label
        cells += [widgets.Label(label), control]
    grid = widgets.GridBox(cells, layout=widgets.Layout(
        grid_template_columns="max-content max-content", grid_gap="4px 12px", align_items="center"))
    return widgets.VBox([grid, result])


def controls(box: widgets.VBox) -> list[widgets.Widget]:
    """A form's controls, in their order (what `form` was given, without the labels)."""
    return list(box.children[0].children[1::2])
