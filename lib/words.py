"""Interface words of the book, one table per language.

Everything a reader sees that is not prose written in a chapter and not a number
formatted by Babel comes from here: verdict labels, section names, the card's
labels, the verdict policy's kinds, the dimensions a "needs context" verdict names.
"""

from __future__ import annotations

import re

WORDS: dict[str, dict] = {
    "es": {
        "verdict": {"holds": "Se sostiene", "context": "Con matices", "wrong": "No se sostiene",
                    "unverified": "Sin fuente"},
        "section": {
            "scales": "Tres cosas que se llaman «entrenar»",
            "doors": "Las tres puertas, con números de hoy",
            "step": "En qué escalón estás",
            "dgx": "DGX Cloud",
            "costs": "Cuánto cuesta entrenar grandes modelos",
            "newcomers": "Alternativas y nuevos actores",
            "home": "¿Tu propio ChatGPT en casa?",
        },
        "card": {"stated": "Dice el artículo", "recomputed": "Recalculado", "as_stated": "Con las entradas del artículo",
                 "sources": "Fuentes", "none": "ninguna fuente primaria encontrada", "article": "artículo",
                 "rule": "Regla", "approximate": "cifra aproximada: tolerancia doble",
                 "exception": "excepción", "reading": "Cómo se lee", "mismatch": "Matiz",
                 "article_says": "el artículo", "source_says": "la fuente",
                 "secondary": "Solo en fuentes secundarias (el veredicto pide una primaria)"},
        "kind": {
            "count": "recuento o especificación",
            "price": "precio de lista",
            "measurement": "medida publicada",
            "estimate": "estimación",
            "conversion": "conversión de moneda",
            "text": "texto",
        },
        "dimension": {
            "currency": "moneda",
            "hardware": "hardware",
            "clock": "reloj frente a cómputo",
            "spending": "estimación de alquiler frente a gasto declarado",
            "date": "fecha",
            "scope": "alcance",
            "attribution": "atribución",
        },
        "bound": {"more_than": "más de", "at_least": "al menos", "less_than": "menos de",
                  "range_open": "de {low} a menos de {high}"},
        "and": "y",
        # The two sides of a mismatch, as the registry records them (names and codes pass as they are).
        "fact": {"calendar days": "días de calendario", "continuous training": "entrenamiento continuo",
                 "replacement": "reemplazo", "cycling": "rotación (cycling)", "GPUs": "GPU",
                 "supercomputer": "el superordenador completo", "reported spending": "gasto declarado",
                 "cloud rental estimate": "estimación de alquiler en la nube", "rental estimate": "estimación de alquiler",
                 "chatbot": "chatbot", "base model": "modelo base", "the article's days": "los días del artículo",
                 "parameters and data": "parámetros y datos", "parameters": "parámetros", "no date": "ninguna fecha"},
        # The parts of a paper a locator names ("Section 2.4" -> "sección 2.4").
        "place": {"Section": "sección", "Sections": "secciones", "Table": "tabla", "Tables": "tablas",
                  "Appendix": "apéndice", "Figure": "figura", "Abstract": "resumen"},
    },
    "en": {
        "verdict": {"holds": "Holds", "context": "Needs context", "wrong": "Does not hold",
                    "unverified": "Unverified"},
        "section": {
            "scales": "Three things called “training”",
            "doors": "The three doors, with today's numbers",
            "step": "Which step you are on",
            "dgx": "DGX Cloud",
            "costs": "What training large models costs",
            "newcomers": "Cheaper newcomers",
            "home": "Your own ChatGPT at home?",
        },
        "card": {"stated": "The article says", "recomputed": "Recomputed", "as_stated": "With the article's inputs",
                 "sources": "Sources", "none": "no primary source found", "article": "article",
                 "rule": "Rule", "approximate": "approximate figure: double tolerance",
                 "exception": "exception", "reading": "How it is read", "mismatch": "Context",
                 "article_says": "the article", "source_says": "the source",
                 "secondary": "Only in secondary sources (a verdict needs a primary one)"},
        "kind": {
            "count": "count or specification",
            "price": "list price",
            "measurement": "published measurement",
            "estimate": "estimate",
            "conversion": "currency conversion",
            "text": "text",
        },
        "dimension": {
            "currency": "currency",
            "hardware": "hardware",
            "clock": "wall clock versus compute",
            "spending": "rental estimate versus reported spending",
            "date": "date",
            "scope": "scope",
            "attribution": "attribution",
        },
        "bound": {"more_than": "more than", "at_least": "at least", "less_than": "less than",
                  "range_open": "{low} to under {high}"},
        "and": "and",
        "fact": {"calendar days": "calendar days", "continuous training": "continuous training",
                 "replacement": "replacement", "cycling": "cycling", "GPUs": "GPUs",
                 "supercomputer": "the whole supercomputer", "reported spending": "reported spending",
                 "cloud rental estimate": "cloud rental estimate", "rental estimate": "rental estimate",
                 "chatbot": "chatbot", "base model": "base model", "the article's days": "the article's days",
                 "parameters and data": "parameters and data", "parameters": "parameters", "no date": "no date"},
        "place": {"Section": "Section", "Sections": "Sections", "Table": "Table", "Tables": "Tables",
                  "Appendix": "Appendix", "Figure": "Figure", "Abstract": "abstract"},
    },
}
LANGS = tuple(WORDS)


def words(lang: str) -> dict:
    """The interface words of `lang` ("es" or "en"); anything else is a ValueError."""
    try:
        return WORDS[lang]
    except KeyError:
        raise ValueError(f"unknown language '{lang}': use one of {', '.join(LANGS)}") from None


PLACE = re.compile(r"^(Sections?|Tables?|Appendix|Figure) ([\dA-Z.]+(?: and [\dA-Z.]+)?)|^(Abstract)\b")


NAME_OR_CODE = re.compile(r"^(?=.*[\dA-Z]{2})[\w .-]+$")  # H100 SXM, USD, 2021


def fact(value: str, lang: str) -> str:
    """One side of a mismatch in `lang`: a word from the table, or a name or code as it is."""
    table = words(lang)["fact"]
    if value in table:
        return table[value]
    if NAME_OR_CODE.match(value):
        return value
    raise ValueError(f"no {lang} words for the mismatch value {value!r}: add it to lib/words.py")


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
