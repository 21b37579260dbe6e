"""What each page says first: the home page's answer and each chapter's key findings, every number and
judgement glued from lib (lib/site/findings.py), each figure by one path."""

import re

import nbformat
import pytest
import yaml

from lib.chapters.verdicts import check_all
from lib.core.words import words
from lib.site import findings
from lib.site.notebooks import read_text

from .conftest import LANGS, ROOT, glue_records

CHAPTERS = ("article1", "article2", "costs", "published", "budget", "plan")
HEADING = {"es": "Lo esencial", "en": "Key findings"}


PREFIX = "application/papermill.record/"


def value(data: dict) -> str:
    """A glued value as the page shows it: its Markdown, or its text (a glued str, without quotes)."""
    if PREFIX + "text/markdown" in data:
        return data[PREFIX + "text/markdown"]
    return data.get(PREFIX + "text/plain", "").strip("'\"")


def records(lang: str) -> dict[str, dict[str, str]]:
    """Each notebook's glued values as the page shows them, by notebook name."""
    out = {}
    for path in sorted((ROOT / "book" / lang).glob("*.ipynb")):
        out[path.stem] = {key: value(data) for key, data in glue_records(nbformat.read(path, 4)).items()}
    return out


def mismatched_paths(pages: dict[str, dict[str, str]]) -> list[str]:
    """find.<key> values that read otherwise than the chapter's own <key>, or than the same find.<key>
    on another page: a figure that took two paths."""
    own = {key: (name, value) for name, glued in pages.items() for key, value in glued.items()
           if not key.startswith("find.")}
    seen: dict[str, tuple[str, str]] = {}
    out = []
    for name, glued in pages.items():
        for key, value in glued.items():
            if not key.startswith("find.") or key == "find.raw":
                continue
            source = key.removeprefix("find.")
            if source in own and own[source][1] != value:
                out.append(f"{name}: {key} = {value}, but {own[source][0]} glues {source} = {own[source][1]}")
            if key in seen and seen[key][1] != value:
                out.append(f"{name}: {key} = {value}, but {seen[key][0]} glues {value!r} → {seen[key][1]!r}")
            seen.setdefault(key, (name, value))
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_each_figure_of_the_findings_takes_one_path(lang):
    """A chapter's figure quoted on another page (find.B.budget.eur is the budget chapter's
    B.budget.eur) reads the same there: one function, one figure. (The book's answers, on every page
    alike: tests/test_answers.py.)"""
    pages = records(lang)
    # The second article's chapter ends on what the budget chapter computes a household budget reaches.
    assert {"find.B.budget.lora7b_bought", "find.budget.lora_fits"} <= set(pages["article2"])
    assert not mismatched_paths(pages)


def test_the_one_path_check_can_fail():
    pages = {"budget": {"B.budget.hours": "52,1 horas"}, "index": {"find.B.budget.hours": "67,9 horas"},
             "costs": {"find.span.opt": "1–6,8"}, "other": {"find.span.opt": "1–7"}}
    assert len(mismatched_paths(pages)) == 2


def opening(nb) -> str:
    """A page's opening: its title (the first cell), then the text that follows the what-if and set-up
    cells (placed right under the title, so that a reader's what-if reaches the findings too)."""
    after = next(c for c in nb.cells[1:] if c.cell_type == "markdown")
    return nb.cells[0].source + "\n\n" + after.source


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", CHAPTERS)
def test_each_chapter_opens_with_its_findings(name, lang):
    """Right after its title, a findings block headed in the page's language: three to five findings
    (an article's chapter counts its summary of its claims, a sentence and the furthest first, as
    two), each with a glued figure, and no number typed (tests/test_prose.py checks the words)."""
    first = opening(read_text(ROOT / "book" / lang / f"{name}.ipynb"))
    lines = first.split("\n")
    assert lines[0].startswith("# ") and lines[1] == "" and lines[2] == "::::{div} findings", first[:200]
    block = first.split("::::{div} findings\n", 1)[1].split("\n::::\n", 1)[0]
    assert block.startswith(f":::{{rubric}} {HEADING[lang]}\n:heading-level: 2\n:::\n"), block[:100]
    # Each finding with the lines nested under it (the costs chapter lists the book's answers so).
    items = re.findall(r"^- .*(?:\n  .*)*", block, re.M)
    summaries = block.count("```{glue:md} A")
    assert 3 <= len(items) + 2 * summaries <= 5, items
    assert all("{glue:text}" in item for item in items), items


@pytest.mark.parametrize("lang", LANGS)
def test_the_home_page_answers_first_then_charts_then_lists_every_chapter(lang):
    nb = read_text(ROOT / "book" / lang / "index.ipynb")
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    # The answer, its first part before the headline chart, the rest after it; no section before it.
    answers = re.findall(r":::\{div\} answer\n(.*?)\n:::\n", text, re.S)
    assert sum(a.count("{glue:text}`ans.") for a in answers) >= 18  # each answer's question and its sentence
    assert "##" not in text.split(":::{div} answer")[0].split("\n", 1)[1]
    first = next(n for n, c in enumerate(nb.cells) if c.cell_type == "markdown" and ":::{div} answer" in c.source)
    chart = next(n for n, c in enumerate(nb.cells) if c.cell_type == "code" and "charts.headline_costs" in c.source)
    assert first < chart and "remove-input" in nb.cells[chart].metadata.get("tags", [])
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf8"))
    linked = re.findall(r"^- \[\]\((\w+)\.(?:ipynb|md)\)", text, re.M)
    assert linked == [entry["file"] for entry in toc["chapters"]], "every chapter, by its own title, in the toc's order"


@pytest.mark.parametrize("lang", LANGS)
def test_the_pretraining_answer_says_which_tokens_llama_7b_is_priced_for(lang):
    """Its cost is for Chinchilla's optimum (134 billion tokens), not the trillion Meta trained it on:
    the answer, as the home page and the budget chapter write it, says both beside the cost."""
    from lib.chapters import answers
    from lib.core.inputs import load_inputs

    found = answers.pretrain(load_inputs(), "llama7b")
    optimum, paper = (found.parts[k].format(lang) for k in ("tokens", "paper_tokens"))
    assert optimum != paper and optimum in found.text(lang) and paper in found.text(lang)
    before_cost = found.text(lang).split(found.figure.format(lang))[0]
    assert optimum in before_cost and paper in before_cost


# ---------------------------------------------------------------- how far the articles are

def test_how_far_the_articles_are_is_the_ledger_s_own_summary():
    """The home page's sentence of counts and its furthest claim are the ledger's: its summary begins
    with that sentence, and its first item (the furthest from the sources) is the home page's."""
    for lang in LANGS:
        pages = records(lang)
        home, ledger = pages["index"], pages["ledger"]["ledger.summary"]
        counts, item = home["find.all.counts"], home["find.furthest.item"]
        assert ledger.startswith(counts), (counts, ledger[:200])
        first = next(line for line in ledger.splitlines() if line.startswith("- "))
        assert first.endswith(f"): {item}"), (first, item)


@pytest.fixture(scope="module")
def checked():
    return check_all()


@pytest.mark.parametrize("lang", LANGS)
def test_the_furthest_claim_is_named_in_the_page_language(checked, lang, monkeypatch):
    found = findings.furthest(checked, lang)
    assert found["subject"] and found["article"] in words(lang)["findings"]["article"].values()
    # A claim with no subject in the words table is named by its quote, in the page's language.
    monkeypatch.setitem(words(lang)["findings"], "subject", {})
    quoted = findings.furthest(checked, lang)["subject"]
    first = findings.sentences.summary_items(checked, lang)[0][0]
    assert (first.claim.quote if lang == "es" else first.claim.quote_en) in quoted
    assert findings.furthest([c for c in checked if c.verdict == "holds"], lang)["item"] == "—"


@pytest.mark.parametrize("lang", LANGS)
def test_the_budget_s_judgements_are_computed(lang):
    """Fits or does not fit: the words follow the numbers."""
    from lib.chapters import answers
    from lib.core.inputs import load_inputs

    i = load_inputs()
    fit = words(lang)["answers"]["words"]
    tight, roomy = (answers.full_ft_fits(j).text(lang) for j in (i, i.replace("h100_sxm_memory", value=400)))
    assert fit["no_fit"] in tight and fit["no_fit"] not in roomy and fit["fits"] in roomy
    assert findings.budget_figures(i, lang)["budget.lora_fits"] == words(lang)["budget"]["fits"]
    small = i.replace("h100_sxm_memory", value=1)
    assert findings.budget_figures(small, lang)["budget.lora_fits"] == words(lang)["budget"]["no_fit"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_furthest_finding_says_when_no_claim_is_outside_its_sources(lang):
    """An article's finding names the claim furthest from its sources; where none lies outside them
    (the furthest is at no distance: inside the span of the estimates), it says so and names the one
    that needs most context, computed, never typed. Both cases planted."""
    import dataclasses

    from lib.core.distance import furthest_first

    lead = words(lang)["findings"]["lead"]
    checked = check_all(findings.load_inputs())
    ranked = furthest_first(checked)
    outside = next(c for c, d in ranked if d.magnitude > 0)
    inside = [c for c, d in ranked if d.magnitude == 0]
    assert inside, "no claim needs context at no distance: plant one"
    none_outside = findings.furthest(inside, lang)
    assert none_outside["lead"] == lead["inside"]
    assert none_outside["subject"] == findings.sentences.subject(inside[0], lang)
    # One claim outside its sources, planted among them, is named the furthest, with the other lead.
    planted = inside + [dataclasses.replace(outside, claim=dataclasses.replace(outside.claim, article=inside[0].claim.article))]
    found = findings.furthest(planted, lang, first=True)
    assert found["lead"] == lead["outside"][:1].upper() + lead["outside"][1:]
    assert found["subject"] == findings.sentences.subject(outside, lang)
    # As the chapters glue it: article 2's judged costs all lie inside the span of their estimates.
    values = findings.article_values(2, checked, lang)
    own = [c for c, d in ranked if c.claim.article == 2]
    expected = lead["outside"] if any(d.magnitude > 0 for c, d in ranked if c.claim.article == 2) else lead["inside"]
    assert own and values["A2.furthest.lead"] == expected


# ---------------------------------------------------------------- every count a summary states is its table's

VERDICTS = ("holds", "context", "wrong", "unverified")


def said_counts(sentence: str, lang: str, whose: str) -> dict[str, int]:
    """The counts a summary's sentence states, read back by its words table's templates (lib.core.sentences.counts):
    the claims in all ("all") and each verdict's."""
    w = words(lang)["summary"]
    number = r"(\d[\d.,]*)"
    read = lambda text: int(re.sub(r"[.,]", "", text))  # noqa: E731
    found = {}
    for template, n in zip(w[whose], (1, None)):
        pattern = re.escape(template).replace(re.escape("{n}"), number).replace(re.escape("{counts}"), "(.*)")
        if (m := re.fullmatch(pattern, sentence)):
            found["all"] = n or read(m.group(1))
            counts = m.group(m.lastindex)
            break
    else:
        raise AssertionError(f"not a sentence of counts: {sentence!r}")
    for verdict in VERDICTS:
        for template in w["count"][verdict]:
            pattern = r"(?<![\w.,])" + re.escape(template).replace(re.escape("{n}"), number) + r"(?!\w)"
            if (m := re.search(pattern, counts)):
                found[verdict] = read(m.group(1))
    return found


def table_counts(verdicts: list[str]) -> dict[str, int]:
    return {"all": len(verdicts)} | {v: verdicts.count(v) for v in VERDICTS if v in verdicts}


def ledger_verdicts(lang: str) -> list[str]:
    """Each row of the ledger's table, as the ledger page shows it: its verdict, read from the label that
    links to its card (the longest verdict label the cell opens with)."""
    table = records(lang)["ledger"]["ledger.table"]
    labels = sorted(((words(lang)["verdict"][v], v) for v in VERDICTS), key=lambda x: -len(x[0]))
    cells = re.findall(r'<a class="ledger-card" href="[^"]*">([^<]*)</a>', table)
    assert cells, "no rows in the ledger's table"
    return [next(v for label, v in labels if cell.startswith(label)) for cell in cells]


def page_cards(nb) -> list[str]:
    """The verdict of each card a page shows: each `{glue:md} <id>.box` of its text, by the card's class."""
    glued = glue_records(nb)
    shown = re.findall(r"\{glue:md\} (\S+\.box)", "\n".join(c.source for c in nb.cells if c.cell_type == "markdown"))
    return [re.search(r":class: claim verdict-(\w+)", glued[key][PREFIX + "text/markdown"]).group(1) for key in shown]


@pytest.mark.parametrize("lang", LANGS)
def test_the_ledger_s_and_the_home_page_s_counts_are_the_ledger_s_rows(lang):
    """The ledger's summary and the home page's "how far off the articles are" count the ledger's table:
    the claims in all, and each verdict's."""
    pages = records(lang)
    rows = table_counts(ledger_verdicts(lang))
    summary = pages["ledger"]["ledger.summary"].split("\n", 1)[0]
    assert said_counts(summary, lang, "ledger") == rows, summary
    assert said_counts(pages["index"]["find.all.counts"], lang, "ledger") == rows


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("number", (1, 2))
def test_an_article_s_summary_counts_the_cards_on_its_page(number, lang):
    nb = nbformat.read(ROOT / "book" / lang / f"article{number}.ipynb", 4)
    summary = glue_records(nb)[f"A{number}.summary"][PREFIX + "text/markdown"].split("\n", 1)[0]
    assert said_counts(summary, lang, "chapter") == table_counts(page_cards(nb)), summary


@pytest.mark.parametrize("lang", LANGS)
def test_a_count_that_is_not_the_table_s_fails(lang):
    """The counts read back are the sentence's: one verdict moved, or a row left out, reads otherwise."""
    from lib.core import sentences

    checked = [c for c in check_all(findings.load_inputs()) if c.claim.article == 2]
    verdicts = [c.verdict for c in checked]
    sentence = sentences.counts(checked, lang, "chapter")
    assert said_counts(sentence, lang, "chapter") == table_counts(verdicts)
    assert said_counts(sentence, lang, "chapter") != table_counts(verdicts[1:])
    moved = ["wrong" if v == "holds" else v for v in verdicts]
    assert said_counts(sentence, lang, "chapter") != table_counts(moved)
    one = sentences.counts(checked[:1], lang, "chapter")
    assert said_counts(one, lang, "chapter") == table_counts(verdicts[:1])
