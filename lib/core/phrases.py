"""The phrase layer: every sentence the book builds from parts (a card's lines, a mismatch, a
reading, a distance, a summary) comes from a template in the words table of its language
(lib/data/words/<lang>.toml), which carries that language's grammar: word order, plural and
agreement, articles and their contractions ("de el" is "del"), lists ("a, b y c"). The figures
in them are formatted by Babel (lib/core/fmt.py, lib/core/figure.py); a source's own words are
shown in the page's language with the original beside them, quoted and marked with its language.
"""

from __future__ import annotations

import datetime as dt
import html
import re

from lib.core import fmt
from lib.core.figure import Figure
from lib.core.words import words

NAME_OR_CODE = re.compile(r"^(?=.*[\dA-Z]{2})[\w .-]+$")  # H100 SXM, USD, 2021
ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
# Spanish contracts "de" and "a" with the article "el": "del superordenador", "al artículo".
CONTRACTIONS = {"es": ((re.compile(r"\bde el\b"), "del"), (re.compile(r"\ba el\b"), "al"))}


def contract(text: str, lang: str) -> str:
    for pattern, short in CONTRACTIONS.get(lang, ()):
        text = pattern.sub(short, text)
    return text


def join(items: list[str], lang: str) -> str:
    """A list as the language writes it: "a, b y c" / "a, b and c"."""
    items = [i for i in items if i]
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {words(lang)['and']} {items[-1]}"


def plural(forms: list[str], n: int) -> str:
    """The singular or plural form of a template, by the count it carries."""
    return forms[0] if n == 1 else forms[1]


def quote(text: str, lang: str) -> str:
    """Words quoted as they were written, marked with their language."""
    return f'<q lang="{lang}">{html.escape(text, quote=False)}</q>'


def fact(value: str, lang: str) -> str:
    """One side of a mismatch, or a source's words, in `lang`: the words table's phrase, a day
    as the language writes it after a preposition ("el 8 de abril de 2025"), or a name or a code
    as it is."""
    table = words(lang)["fact"]
    if value in table:
        return table[value]
    if ISO_DATE.match(value):
        return words(lang)["phrase"]["on_day"].format(day=fmt.date(dt.date.fromisoformat(value), lang))
    if NAME_OR_CODE.match(value):
        return value
    raise ValueError(f"no {lang} words for {value!r}: add it to the [fact] table of lib/data/words/{lang}.toml")


def shown(figure: Figure, lang: str) -> str:
    """A figure as the page shows it in a sentence: a source's words in the page's language, with
    the original quoted beside them, whole and in its own words, when it is in another language."""
    text, original = figure.format(lang), figure.format(figure.original) if figure.original else ""
    if not figure.original or figure.original == lang or text == original:
        return text
    return words(lang)["phrase"]["original"].format(text=text, original=quote(original, figure.original))


ISO_IN_TEXT = re.compile(r"(?<![\w/.-])(\d{4})-(\d{2})-(\d{2})(?![\w/-])")


def dates_written(text: str, lang: str) -> str:
    """A text the book wrote (a locator, a note) with each ISO date as the language writes it:
    "página del 2021-06-15" -> "página del 15 de junio de 2021"."""
    return ISO_IN_TEXT.sub(lambda m: fmt.date(dt.date(*map(int, m.groups())), lang), text)


def article_quote(quote_es: str, quote_en: str, lang: str) -> str:
    """The article's words: quoted in Spanish, and on an English page after their translation
    (once, when the two read the same)."""
    original = quote(quote_es, "es")
    if lang == "es" or quote_en == quote_es:
        return original
    return words(lang)["phrase"]["translated"].format(translation=quote_en, original=original)


def capital(text: str) -> str:
    """The text with a capital first letter ("alcance" -> "Alcance")."""
    return text[:1].upper() + text[1:]
