"""A planner's bad input as one line in the reader's language: what is wrong, with the input named
(the templates are [plan.errors] in lib/data/words/<lang>.toml)."""

from __future__ import annotations

from lib.core.words import words


class PlanError(ValueError):
    """A bad input to the planner: `problem` names its template, `values` fill it."""

    def __init__(self, problem: str, **values):
        self.problem, self.values = problem, values
        super().__init__(message(self, "en"))


def message(error: PlanError, lang: str) -> str:
    return words(lang)["plan"]["errors"][error.problem].format(**error.values)
