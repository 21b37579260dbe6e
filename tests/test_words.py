"""One table of interface words per language (lib/data/words): the same keys in both, and the English in
British spelling."""

import re

from lib.core.words import LANGS, WORDS


def keys(table: dict, prefix: str = "") -> set[str]:
    out = set()
    for key, value in table.items():
        out.add(prefix + key)
        if isinstance(value, dict):
            out |= keys(value, prefix + key + ".")
    return out


# Tables that differ by design: the theme's own strings each language must replace (the
# theme's Spanish catalogue has strings of its own), and currency words (English writes
# Babel's symbols, $3.29; Spanish writes the currency in words, STYLE.md).
OWN = ("site.theme.", "currency")


def test_every_language_has_the_same_words():
    assert set(LANGS) == {"es", "en"}
    es, en = ({k for k in keys(WORDS[lang]) if not k.startswith(OWN)} for lang in ("es", "en"))
    assert not es ^ en, f"only in es: {sorted(es - en)}; only in en: {sorted(en - es)}"


def test_no_word_is_empty():
    def values(table):
        for value in table.values():
            yield from values(value) if isinstance(value, dict) else [value]
    for lang in LANGS:
        assert all(v != "" and v != [] for v in values(WORDS[lang])), lang


# An -ize spelling (optimizer, utilization, quantized): the book's English is British (optimiser).
AMERICAN = re.compile(r"\b[A-Za-z]+iz(?:e|er|ers|ed|es|ing|ation|ations)\b")
NOT_AMERICAN = {"size", "sizes", "sized"}
# A source's own words (<q lang="en">…</q>) and code (`…`) keep their spelling.
QUOTED = re.compile(r"<q\b[^>]*>.*?</q>|`[^`]*`")


def american_spellings(table: dict) -> list[str]:
    def values(t):
        for value in t.values():
            yield from values(value) if isinstance(value, dict) else (value if isinstance(value, list) else [value])
    return sorted({w for v in values(table) for w in AMERICAN.findall(QUOTED.sub(" ", str(v)))
                   if w.casefold() not in NOT_AMERICAN})


def test_the_english_words_spell_as_the_book_does():
    """Every English interface word in British spelling (the planner once read "Optimizer states"), but a
    source's own words and code."""
    assert american_spellings(WORDS["en"]) == []
    assert american_spellings({"parts": {"optimizer": "Optimizer states", "q": '<q lang="en">utilization</q>',
                                          "n": ["a size", "the `optimizer`"]}}) == ["Optimizer"]
