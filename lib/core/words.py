"""Interface words of the book: one table per language, lib/data/words/<lang>.toml.

Everything a reader sees that is not prose written in a chapter and not a number
formatted by Babel comes from there: the site's and the theme's strings, verdict labels,
section names, the cards' labels, the policy's kinds, the dimensions a "needs context"
verdict names, unit and currency words, chart labels, the calculator's and the ledger's words,
and the templates of the sentences the book builds from parts (lib/core/phrases.py).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

WORDS_DIR = Path(__file__).parents[1] / "data" / "words"
WORDS: dict[str, dict] = {}
for _path in sorted(WORDS_DIR.glob("*.toml")):
    with open(_path, "rb") as _fh:
        WORDS[_path.stem] = tomllib.load(_fh)
LANGS = tuple(WORDS)


def words(lang: str) -> dict:
    """The interface words of `lang` ("es" or "en"); anything else is a ValueError."""
    try:
        return WORDS[lang]
    except KeyError:
        raise ValueError(f"unknown language '{lang}': use one of {', '.join(LANGS)}") from None


PLACE = re.compile(r"^(Sections?|Tables?|Appendix|Figure) ([\dA-Z.]+(?: and [\dA-Z.]+)?)|^(Abstract)\b")


def place(locator: str, lang: str) -> str:
    """The part of a paper a locator starts with, in `lang`: "Sections 2.2 and 2.5" ->
    "secciones 2.2 y 2.5". A locator that names no section, table or figure is an error."""
    match = PLACE.match(locator)
    if not match:
        raise ValueError(f"locator {locator!r} does not start with a section, table, appendix or figure")
    w = words(lang)
    if match.group(3):
        return w["place"][match.group(3)]
    number = match.group(2).replace(" and ", f" {w['and']} ")
    return f"{w['place'][match.group(1)]} {number}"
