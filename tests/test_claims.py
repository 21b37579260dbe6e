"""The claims registry: coverage of the dossier's ids, computed verdicts, and sensitivity
of every glued figure to every sourced input."""

import math
import re
from pathlib import Path

import nbformat
import pytest

from lib import page
from lib.claims import Recomputed, check_all, judge, load_claims
from lib.figure import Figure
from lib.inputs import load_inputs

from .conftest import LANGS, ROOT

DOSSIER = ROOT.parent / "shared" / "sources" / "DOSSIER.md"
CLAIM_ID = re.compile(r"\bA[12]-[a-z0-9]+(?:-[a-z0-9]+)*")
CHAPTERS = {1: "article1", 2: "article2"}


def dossier_ids() -> set[str]:
    if not DOSSIER.exists():
        pytest.skip(f"the dossier is not beside this checkout ({DOSSIER})")
    return set(CLAIM_ID.findall(DOSSIER.read_text(encoding="utf8")))


def test_registry_covers_exactly_the_dossier_ids():
    ids = dossier_ids()
    registered = set(load_claims())
    assert not ids - registered, f"claims in the dossier but not registered: {sorted(ids - registered)}"
    assert not registered - ids, f"registered claims unknown to the dossier: {sorted(registered - ids)}"


def test_every_claim_has_a_verdict_and_context_in_both_languages():
    for checked in check_all():
        assert checked.verdict in ("holds", "context", "wrong", "unverified")
        for lang in LANGS:
            assert checked.context(lang).strip()
            assert "{" not in checked.context(lang), checked.claim.id


def test_unverified_means_no_source_gave_a_figure():
    for checked in check_all():
        assert (checked.verdict == "unverified") == (checked.result.sourced is None), checked.claim.id


def numeric_claims():
    return [c for c in check_all() if c.result.sourced is not None and c.result.sourced.is_number]


@pytest.mark.parametrize("checked", numeric_claims(), ids=lambda c: c.claim.id)
def test_moving_the_stated_figure_outside_its_tolerance_changes_the_verdict(checked):
    claim, result = checked.claim, checked.result
    candidates = [result.sourced] + ([result.as_stated] if result.as_stated else [])
    top = max(f.high for f in candidates)
    bottom = min(f.low for f in candidates)
    # Far above everything recomputed; below it where the sources give only a lower bound.
    value = top * (1 + claim.tolerance) * 2 + 1 if math.isfinite(top) else bottom * (1 - claim.tolerance) / 2
    far = Figure.of(value, result.sourced.unit)
    assert judge(far, result, claim.tolerance, claim.needs_context) == "wrong"
    inside = Figure.of(result.sourced.low, result.sourced.unit)
    assert judge(inside, result, claim.tolerance, claim.needs_context) == (
        "context" if claim.needs_context else "holds"
    )


def test_the_arithmetic_on_a_mismatched_input_is_context_not_holds():
    sourced, article = Figure.of(100, "USD"), Figure.of(200, "USD")
    assert judge(article, Recomputed(sourced, as_stated=article), 0.01, False) == "context"
    assert judge(article, Recomputed(sourced), 0.01, False) == "wrong"
    assert judge(article, Recomputed(None), 0.01, False) == "unverified"


def snapshot(inputs) -> dict:
    """Every figure the chapters and the method page glue, unformatted and formatted."""
    values = {}
    for checked in check_all(inputs):
        for name, figure in checked.figures().items():
            values[f"{checked.claim.id}.{name}"] = figure.raw()
            for lang in LANGS:
                values[f"{checked.claim.id}.{name}.{lang}"] = figure.format(lang)
        values[f"{checked.claim.id}.verdict"] = checked.verdict
    for lang in LANGS:
        values[f"inputs.{lang}"] = page.inputs_table(lang, inputs)
    return values


def numeric_inputs():
    return [name for name, entry in load_inputs().items() if entry.is_range or isinstance(entry.value, float)]


@pytest.mark.parametrize("name", numeric_inputs())
def test_a_five_percent_change_in_any_input_moves_a_glued_figure(name):
    inputs = load_inputs()
    entry = inputs[name]
    if not entry.is_range and entry.value.is_integer():
        # A whole number (layers, GPUs) stays whole: 5% up, at least one more.
        changed = inputs.replace(name, value=float(max(round(entry.value * 1.05), entry.value + 1)))
    else:
        changed = inputs.scaled(name, 1.05)
    before = snapshot(inputs)
    after = snapshot(changed)
    moved = sorted(k for k in before if before[k] != after.get(k))
    assert moved, f"changing {name} by 5% moves no glued figure: nbval could not catch it"


@pytest.mark.parametrize("article", sorted(CHAPTERS))
def test_each_chapter_shows_every_claim_of_its_article(article):
    ids = {c.claim.id for c in check_all(article=article)}
    for lang in LANGS:
        path = ROOT / "book" / lang / f"{CHAPTERS[article]}.ipynb"
        if not path.exists():
            pytest.fail(f"{path.relative_to(ROOT)} is missing")
        text = "\n".join(c.source for c in nbformat.read(path, 4).cells if c.cell_type == "markdown")
        shown = set(re.findall(r"\{glue:md\} (\S+)\.box", text))
        assert ids == shown, f"{path.name} ({lang}): missing {sorted(ids - shown)}, unknown {sorted(shown - ids)}"


# A number typed into prose is a defect: outside glue roles, {placeholders} and `formulas`,
# prose may hold digits only inside names (A100, GPT-3, fp16, OLMo-1B) and locators (Section 2.4).
NAME_OR_LOCATOR = re.compile(
    r"[A-Za-z][\w.]*-?\d[\w.]*|\d+[A-Za-z]\w*|(?:[Ss]ecci[oó]n(?:es)?|[Ss]ections?|[Tt]abla|[Tt]able|[Cc]ap[ií]tulo|[Cc]hapter)\s[\d.]+(?:\s(?:y|and)\s[\d.]+)?"
)
ROLE = re.compile(
    r"\{glue:\w+\}`[^`]+`|\{cite:\w+\}`[^`]+`|```\{glue:md\}[^`]*```|`[^`]+`|\{[a-z_0-9]+\}|\(\w+\.ipynb\)|\(\w+\.md\)"
)


def stray_numbers(text: str) -> list[str]:
    text = ROLE.sub(" ", text)
    text = NAME_OR_LOCATOR.sub(" ", text)
    return re.findall(r"\d[\d.,]*", text)


def prose_pieces():
    for claim in load_claims().values():
        for lang in LANGS:
            yield f"{claim.id} context_{lang}", claim.context[lang]
    for lang in LANGS:
        for path in sorted((ROOT / "book" / lang).glob("*.ipynb")):
            for i, cell in enumerate(nbformat.read(path, 4).cells):
                if cell.cell_type == "markdown":
                    yield f"{lang}/{path.name} cell {i}", cell.source
        for path in sorted((ROOT / "book" / lang).glob("*.md")):
            yield f"{lang}/{path.name}", path.read_text(encoding="utf8")


@pytest.mark.parametrize("where, text", list(prose_pieces()), ids=lambda x: x if isinstance(x, str) and len(x) < 60 else "")
def test_no_number_is_typed_into_prose(where, text):
    assert not stray_numbers(text), f"{where}: typed numbers {stray_numbers(text)}"


ARTICLES = {1: "000_ea543c8d103d7e16.txt", 2: "004_0dc3c25c5deb5377.txt"}


@pytest.mark.parametrize("claim", list(load_claims().values()), ids=lambda c: c.id)
def test_each_quote_is_the_article_s_own_words(claim):
    path = ROOT.parent / "shared" / "articles" / ARTICLES[claim.article]
    if not path.exists():
        pytest.skip(f"the articles are not beside this checkout ({path.parent})")
    text = re.sub(r"\s+", " ", path.read_text(encoding="utf8"))
    assert re.sub(r"\s+", " ", claim.quote) in text, f"{claim.id}: the quote is not verbatim in the article"
