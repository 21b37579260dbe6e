"""A bad input's message in the reader's language (never the English text or a traceback)."""

from __future__ import annotations

from lib.core.fmt import number
from lib.core.words import words


def error(exc: Exception, lang: str) -> str:
    """A bad input's message in `lang`: what is wrong and with which input (lib.chapters.compute.BadInput),
    or only that the input is not valid: never the English text or a traceback."""
    table = words(lang)["errors"]
    problem, name = getattr(exc, "problem", None), getattr(exc, "name", None)
    if problem in table and name:
        low, high = (number(v, lang, 2 if v != int(v) else 0) for v in getattr(exc, "limits", None) or (0, 0))
        return table[problem].format(name=table["names"].get(name, name), low=low, high=high,
                                     example=getattr(exc, "example", None) or "")
    return table["invalid"]
