"""A planner's bad input as one line in the reader's language: what is wrong, with the input named
(the templates are [plan.errors] in lib/data/words/<lang>.toml)."""

from __future__ import annotations

from lib.core import fmt
from lib.core.words import words


class PlanError(ValueError):
    """A bad input to the planner: `problem` names its template, `values` fill it."""

    def __init__(self, problem: str, **values):
        self.problem, self.values = problem, values
        super().__init__(message(self, "en"))


def message(error: PlanError, lang: str) -> str:
    """The error's line in `lang`, its whole numbers written as the language writes them (4.096 / 4,096)."""
    values = {k: fmt.number(v, lang, 0) if isinstance(v, int) and not isinstance(v, bool) else v
              for k, v in error.values.items()}
    return words(lang)["plan"]["errors"][error.problem].format(**values)


def warning(problem: str, values: dict, lang: str) -> str:
    """A warning's line in `lang` ([plan.warnings]): what the planner computed but the reader should know."""
    values = {k: fmt.number(v, lang, 0) if isinstance(v, int) and not isinstance(v, bool) else v for k, v in values.items()}
    return words(lang)["plan"]["warnings"][problem].format(**values)
