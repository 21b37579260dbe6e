"""Prose that cannot drift from the numbers: no number typed by hand, no verdict or
comparison typed by hand (in the chapters, the pages and the claims' context texts)."""

import re

import nbformat
import pytest

from lib.core.claims import load_claims

from .conftest import LANGS, ROOT

# Outside glue roles, {placeholders} and `code`, prose may hold digits only inside names
# (A100, GPT-3, fp16, OLMo-1B, PaLM 540B). Multipliers ("3x", "10000x") and section or table
# numbers are numbers: they come from the sources, glued.
NAME = re.compile(r"(?<![\w.,])(?:[A-Za-z][\w]*-?\d[\w.]*|\d+B\b|\d+GB\b)")
MULTIPLIER = re.compile(r"\d[\d.,]*\s?[x×]\b", re.IGNORECASE)
# A directive's options (":heading-level: 2") are not prose either.
ROLE = re.compile(
    r"(?m)^:[a-z][\w-]*:[^\n]*$|\{glue:\w+\}`[^`]+`|\{cite:\w+\}`[^`]+`|```\{glue:md\}[^`]*```|`[^`]+`|\{[a-z_0-9]+\}|\(\w+\.ipynb\)|\(\w+\.md\)"
)
# Words that judge a figure or compare two; they must come from a computed verdict or comparison.
JUDGEMENTS = {
    "es": r"se sostienen?|con matices|es ciert[oa]|es correct[oa]|bien hecha|acierta|por los pelos|"
          r"pero justo|mismo orden de magnitud|más barat[oa]|le dan? la razón|encaja|se parece más|pide un matiz",
    "en": r"\bholds\b|needs context|does not hold|is true|is right|gets? \w+ right|barely|same order of magnitude|"
          r"\bcheaper than\b|bears? (?:it )?out|\bcloser to\b|needs a footnote",
}


def stray_numbers(text: str) -> list[str]:
    text = ROLE.sub(" ", text)
    found = MULTIPLIER.findall(text)
    text = NAME.sub(" ", MULTIPLIER.sub(" ", text))
    return found + re.findall(r"\d[\d.,]*", text)


def prose_pieces():
    for claim in load_claims().values():
        for lang in LANGS:
            yield lang, f"{claim.id} context_{lang}", claim.context[lang]
            if claim.reading:
                yield lang, f"{claim.id} reading_{lang}", claim.reading[lang]
            if claim.distance:
                yield lang, f"{claim.id} distance {lang}", claim.distance[lang]
            if claim.given:
                yield lang, f"{claim.id} given_{lang}", claim.given[lang]
    for lang in LANGS:
        for path in sorted((ROOT / "book" / lang).glob("*.ipynb")):
            for i, cell in enumerate(nbformat.read(path, 4).cells):
                if cell.cell_type == "markdown":
                    yield lang, f"{lang}/{path.name} cell {i}", cell.source
        for path in sorted((ROOT / "book" / lang).glob("*.md")):
            yield lang, f"{lang}/{path.name}", path.read_text(encoding="utf8")


PIECES = list(prose_pieces())


@pytest.mark.parametrize("lang, where, text", PIECES, ids=[p[1] for p in PIECES])
def test_no_number_is_typed_into_prose(lang, where, text):
    assert not stray_numbers(text), f"{where}: typed numbers {stray_numbers(text)}"


@pytest.mark.parametrize("lang, where, text", PIECES, ids=[p[1] for p in PIECES])
def test_no_verdict_or_comparison_is_typed_into_prose(lang, where, text):
    found = re.findall(JUDGEMENTS[lang], ROLE.sub(" ", text), re.IGNORECASE)
    assert not found, f"{where}: judged by hand: {found}; glue the computed verdict or comparison"


def test_the_checks_catch_what_they_must():
    assert stray_numbers("reduces it 3x, or 10000x") == ["3x", "10000x"]
    assert stray_numbers("Sección 2.4 del artículo") == ["2.4"]
    assert stray_numbers(":::{rubric} Lo esencial\n:heading-level: 2\n:::\nla tabla 15") == ["15"]
    assert stray_numbers("la tabla 15 de LLaMA") == ["15"]
    assert stray_numbers("992 A100 GPUs, GPT-3, OPT-175B, PaLM 540B, {glue:text}`A1-opt.gpus`") == ["992"]
    assert re.findall(JUDGEMENTS["es"], "Todas estas cifras se sostienen", re.IGNORECASE)
    assert re.findall(JUDGEMENTS["en"], "The sum is right. It holds.", re.IGNORECASE)
