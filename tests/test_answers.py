"""The book's answers (lib.chapters.answers): one function per question, one sentence for each,
stated alike on every page that gives it (and on the home page), published as answers.csv; the
claims about past runs judged on the answers' one basis."""

from __future__ import annotations

import re

import nbformat
import pytest

from lib.chapters import answers, budget, verdicts
from lib.core.figure import Figure
from lib.core.inputs import load_inputs
from lib.core.words import words
from lib.site.notebooks import read_text

from .conftest import LANGS, ROOT, glue_records
from .test_findings import value

I = load_inputs()
STATED = re.compile(r"\{glue:text\}`ans\.(\w+)`")
# The claims about what a past run cost, and the run each is about.
PAST_RUN_CLAIMS = {"A1-opt-cost": "opt", "A2-llama-cost": "llama", "A2-palm-cost": "palm"}


def stated(lang: str) -> dict[str, set[str]]:
    """The answers each page's prose states, by page."""
    out = {}
    for path in sorted((ROOT / "book" / "_text" / lang).glob("*.md")):
        text = "\n".join(c.source for c in read_text(path).cells if c.cell_type == "markdown")
        out[path.stem] = set(STATED.findall(text))
    return out


def test_every_question_is_one_function_with_its_answer_in_both_languages():
    found = answers.all_answers(I)
    assert [a.id for a in found] == list(answers.ORDER) == list(answers.PAGES)
    for a in found:
        assert a.span.low <= a.figure.value <= a.span.high, a.id
        for lang in LANGS:
            assert a.question(lang) and a.text(lang) and a.basis(lang)
            assert "{" not in a.text(lang) and "{" not in a.question(lang), (a.id, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_each_page_states_exactly_the_answers_it_is_listed_for(lang):
    pages = stated(lang)
    listed = {page: {a for a, where in answers.PAGES.items() if page in where} for page in pages}
    assert pages == listed
    assert pages["index"] == set(answers.ORDER), "the home page gives every answer"


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_glues_the_answer_as_the_function_gives_it(lang):
    for page in {p for where in answers.PAGES.values() for p in where}:
        glued = {k: value(d) for k, d in glue_records(nbformat.read(ROOT / "book" / lang / f"{page}.ipynb", 4)).items()}
        for a in answers.all_answers(I):
            assert glued[f"ans.{a.id}"] == a.text(lang), (page, a.id)


# The input each answer rests on, and a change of it that must move the answer's sentence.
MOVES = {
    "budget_buys": "lambda_h100_sxm_1x", "full_ft_fits": "h100_sxm_memory", "pretrain_gpt2": "lambda_h100_sxm_1x",
    "pretrain_llama7b": "lambda_h100_sxm_1x", "run_opt": "azure_a100_2022_on_demand",
    "run_llama": "llama_65b_gpu_hours", "run_palm": "tpu_v4_price_on_demand", "run_gpt3": None,
    "project_llama": "llama_project_months",
}


@pytest.mark.parametrize("answer_id", answers.ORDER)
def test_a_changed_input_moves_the_answer_and_its_range(answer_id):
    if answer_id == "run_gpt3":  # from Epoch AI's data files, not an input: its price rows move it
        hours, prices = answers.gpt3_on_demand(I)
        assert hours > 0 and len(prices) == 2
        return
    name = MOVES[answer_id]
    moved = I.replace(name, value=I[name].value * 1.25)
    before, after = answers.answer(I, answer_id), answers.answer(moved, answer_id)
    for lang in LANGS:
        assert before.text(lang) != after.text(lang), (answer_id, name, lang)


def test_past_run_claims_are_judged_against_evidence_headed_by_the_answer():
    """Each claim about a past run is judged against the span of the evidence (lib.core.span), whose
    headline basis is the book's answer for that run: one figure, one basis, not the only yardstick."""
    checked = {c.claim.id: c for c in verdicts.check_all(I)}
    assert not basis_mismatches(checked)
    # MosaicML's estimate: its A100-hours at the same on-demand A100 prices of 2022, one basis of its span.
    on_demand = next(b for b in checked["A2-mosaic"].result.evidence if b.key == "on_demand")
    assert on_demand.figure.raw() == answers.on_demand_span(
        (verdicts.article2.mosaic_a100_hours(I),) * 2, answers.a100_on_demand(I)).raw()


def basis_mismatches(checked) -> list[str]:
    """The claims about past runs whose headline basis is not the book's answer for that run."""
    def headline(c):
        return next((b.figure.raw() for b in c.result.evidence if b.headline), None)

    return [claim for claim, run in PAST_RUN_CLAIMS.items()
            if headline(checked[claim]) != answers.past_run(I, run).span.raw()]


def test_a_claim_judged_on_another_basis_is_found(monkeypatch):
    checked = {c.claim.id: c for c in verdicts.check_all(I)}
    opt = checked["A1-opt-cost"]
    today = opt.result.figures["at_a100"]  # the same run at today's Lambda price
    other = type(opt)(opt.claim, type(opt.result)(Figure.between(today.value, today.value * 2, "USD")), opt.verdict)
    assert basis_mismatches({**checked, "A1-opt-cost": other}) == ["A1-opt-cost"]


def test_every_past_run_s_headline_sits_at_the_same_place_in_its_range():
    """One footing: each past run's central figure is its range's low end (the fewest hours its
    sources give, at the cheaper price), so answers.csv puts every run's value at the same place."""
    for run in answers.PAST_RUNS:
        a = answers.past_run(I, run)
        assert a.figure.value == pytest.approx(a.span.low, rel=1e-12), run


def test_the_ladder_s_past_runs_are_the_answers():
    from lib.site import budget_page

    rungs = {r["key"]: r["usd"] for r in budget_page.ladder(I)}
    assert rungs["llama65b"] == answers.past_run(I, "llama").figure.value
    assert rungs["palm"] == answers.past_run(I, "palm").figure.value


def test_bad_input_gives_a_clear_error():
    for call, words in [(lambda: answers.answer(I, "cost_gpt5"), "no answer 'cost_gpt5'"),
                        (lambda: answers.past_run(I, "gpt5"), "no past run 'gpt5'"),
                        (lambda: answers.pretrain(I, "llama65b"), "no pretraining answer"),
                        (lambda: answers.price_year(I, "bloom"), "no past run 'bloom'"),
                        (lambda: budget.ladder(I, {}), "the book's answer for llama65b, palm")]:
        with pytest.raises(ValueError, match=re.escape(words)):
            call()


def test_full_fine_tuning_answers_both_precisions():
    """Mixed precision and all-bf16 are judged apart: at LLaMA 7B's peaks (108.0 and 54.1 GB) an 80 GB H100
    holds only the bf16 one; a GPU of 50 GB holds neither, one of 120 GB both."""
    def fits(gb):
        text = answers.full_ft_fits(I.replace("h100_sxm_memory", value=gb)).text("en")
        return text.count("does not fit"), text.count(" fits")
    assert fits(I.h100_sxm_memory) == (1, 1)
    assert fits(50.0) == (2, 0)
    assert fits(120.0) == (0, 2)


def test_the_budget_question_opens_with_a_computed_yes_or_no():
    """"Can you train your own model with the budget?" opens with a plain yes or no in each language,
    each computed: LoRA on one H100 (fits, and trains on some tokens), a full fine-tuning in mixed
    precision on one H100 (its peak against the GPU's memory) and on a rented node of 8 A100s as Alpaca's
    ran (the budget against its published hours at Lambda's price). Moving the inputs moves the words."""
    def opening(i, lang):
        a = answers.budget_buys(i)
        return a.parts["lora_yes"][lang], a.parts["one_gpu"][lang], a.parts["node"][lang], a.text(lang)

    for lang, yes, no in (("en", "Yes", "no"), ("es", "Sí", "no")):
        lora, one, node, text = opening(I, lang)
        assert (lora, one, node) == (yes, no, yes.lower()), lang
        assert text.startswith(yes + ","), text
        # A node 4 times dearer than the budget pays: no on the node.
        dear = I.replace("lambda_a100_sxm_8x", value=I.lambda_a100_sxm_8x * 4)
        assert opening(dear, lang)[2] == no
        # An H100 of 120 GB holds the mixed-precision full fine-tuning: yes on one GPU.
        big = I.replace("h100_sxm_memory", value=120.0)
        assert opening(big, lang)[1] == yes.lower()


def test_every_answer_names_where_the_home_page_links_it():
    """Each answer has its entry in SECTIONS (a section's label, or None for its page's top), and each
    label is one its chapter's text sets (tests/test_reading.py checks the built links)."""
    assert set(answers.SECTIONS) == set(answers.ORDER)
    for id_, label in answers.SECTIONS.items():
        if label:
            for lang in ("es", "en"):
                text = (ROOT / "book" / "_text" / lang / f"{answers.PAGES[id_][1]}.md").read_text(encoding="utf8")
                assert f"\n({label})=\n## " in text, (id_, lang, label)


def test_a_second_price_seen_the_same_day_is_not_dated_twice():
    """The budget answer dates the H100's price; the A100 node's price, seen the same day, is "the same day"
    (its date is not written twice in one sentence); seen another day, it has its own date."""
    import datetime as dt

    i = load_inputs()
    other = i.replace("lambda_a100_sxm_8x", value=i.lambda_a100_sxm_8x, seen=dt.date(2026, 9, 1))
    for lang in LANGS:
        said = {key: answers.budget_buys(inputs).text(lang) for key, inputs in (("today", i), ("other", other))}
        day = Figure.on(dt.date(2026, 9, 1)).format(lang)
        assert day in said["other"] and day not in said["today"], said
        seen = answers.budget_buys(i).parts["seen"].format(lang)
        assert said["today"].count(seen) == 1, said["today"]
    same = i.replace("lambda_a100_sxm_8x", value=i.lambda_a100_sxm_8x, seen=i["lambda_h100_sxm_1x"].seen)
    assert all(words(lang)["answers"]["words"]["same_day"] in answers.budget_buys(same).text(lang) for lang in LANGS)
