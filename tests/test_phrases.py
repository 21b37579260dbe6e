"""The phrase layer (lib/core/phrases.py, lib/core/sentences.py) and the distances
(lib/core/distance.py): each language's grammar from its words table, each distance computed from
the two figures and written by Babel."""

import dataclasses
import re

import pytest

from lib.chapters.verdicts import check_all
from lib.core import distance, phrases, sentences, span
from lib.core.figure import Figure
from lib.core.words import words
from lib.site import page
from lib.site.claimreview import anchor

CHECKED = {c.claim.id: c for c in check_all()}


def test_lists_plurals_and_contractions_follow_the_language():
    assert phrases.join(["a", "b", "c"], "es") == "a, b y c"
    assert phrases.join(["a", "b"], "en") == "a and b"
    assert phrases.plural(["{n} se sostiene", "{n} se sostienen"], 1) == "{n} se sostiene"
    assert phrases.contract("las fuentes, de el superordenador; a el artículo", "es") == \
        "las fuentes, del superordenador; al artículo"
    assert phrases.contract("of the el", "en") == "of the el"


def test_a_day_in_a_sentence_is_written_as_the_language_writes_it():
    assert phrases.fact("2025-04-08", "es") == "el 8 de abril de 2025"
    assert phrases.fact("2025-04-08", "en") == "April 8, 2025"
    assert phrases.dates_written("página del 2021-06-15, URL .../2023-03-13/x", "es") == \
        "página del 15 de junio de 2021, URL .../2023-03-13/x"
    with pytest.raises(ValueError, match="no es words"):
        phrases.fact("an untranslated phrase", "es")


def test_a_source_s_words_read_in_the_page_language_with_the_original_quoted():
    words = Figure.quoting("en", "lowering the learning rate", "restarting from an earlier checkpoint")
    assert phrases.shown(words, "es") == (
        "bajar la tasa de aprendizaje y reiniciar desde un punto de control anterior (en el original, "
        '<q lang="en">lowering the learning rate and restarting from an earlier checkpoint</q>)')
    assert phrases.shown(words, "en") == "lowering the learning rate and restarting from an earlier checkpoint"
    assert phrases.shown(Figure.quoting("en", "Microsoft"), "es") == "Microsoft"  # a name needs no original


def test_a_spanish_card_quotes_an_english_source_only_beside_its_spanish_words_or_on_its_own():
    """On a Spanish card a source's English words are never part of a Spanish sentence ("puede <q>run
    on a single H100 GPU</q> (ejecutarse…)"): they follow their Spanish words as the original
    ("ejecutarse en una sola GPU H100 (en el original, «run on a single H100 GPU»)"), or stand alone
    as a quotation after a colon."""
    original = words("es")["phrase"]["original"].split("{original}")[0].split("{text}")[1]  # " (en el original, "
    for c in CHECKED.values():
        for text in (c.context("es"), c.given("es") or "", sentences.stated(c, "es")):
            for quoted in re.finditer(r'<q lang="en">', text):
                before = text[:quoted.start()]
                assert before.endswith(original) or before.endswith(": "), (c.claim.id, before[-40:])


def test_the_article_s_words_are_quoted_once():
    assert phrases.article_quote("(Hu et al., Microsoft, 2021)", "(Hu et al., Microsoft, 2021)", "en") == \
        '<q lang="es">(Hu et al., Microsoft, 2021)</q>'
    assert phrases.article_quote("ronda los tres billones", "is around three trillion", "en") == \
        '“is around three trillion” (<q lang="es">ronda los tres billones</q>)'


@pytest.mark.parametrize("figure, es, en", [
    (Figure.more_than(1, "year", decimals=1), "más de 1 año", "more than 1 year"),
    (Figure(low=1e3, high=1e9, high_open=True, unit="example", compact=True),
     "de 1.000 a menos de 1.000 millones de ejemplos", "1,000 to under 1 billion examples"),
    (Figure(low=1e3, high=1e6, high_open=True, unit="times", compact=True),
     "de 1.000 a menos de 1 millón de veces", "1,000 to under 1 million times"),
    (Figure(low=100, high=1000, high_open=True, unit="GPU"), "de 100 a menos de 1.000 GPU", "100 to under 1,000 GPUs"),
    (Figure(low=1e8, high=1e9, high_open=True, unit="USD", decimals=1),
     "de 100 a menos de 1.000 millones de dólares", "$100 million to under $1 billion"),
    (Figure.of(256_347, "GPU-hour", compact=True, decimals=0), "256.000 horas-GPU", "256,000 GPU-hours"),
    (Figure.of(992, "GPU", qualifier="H100"), "992 GPU H100", "992 H100 GPUs"),
    (Figure.between(0.0121, 0.1023, "fraction", decimals=0), "1–10\u00a0%", "1–10%"),
])
def test_figures_read_as_each_language_writes_them(figure, es, en):
    """The issue's "de 1 mil ejemplos", "1 mil veces", "más de 1,0 año", "992 GPUs H100s": one unit
    for a range, whole numbers under a million, a round bound without decimals, the kind of a unit
    where each language puts it."""
    assert (figure.format("es"), figure.format("en")) == (es, en)


USD = "USD"


def _evidence(*bases):
    """A cost's evidence set here (lib.core.span): each basis (what it measures, dollars)."""
    return tuple(span.Basis(measures, Figure.of(value, USD, decimals=1), measures, span.BOOK) for measures, value in bases)


@pytest.mark.parametrize("claim_id, stated, sourced, es, en", [
    # A cost outside the span of the evidence: how far from its nearest end, above or below.
    ("A1-opt-cost", Figure.of(5.7e6, USD), _evidence(("owning", 0.9e6), ("list", 2.28e6)),
     "2,5 veces lo que dan las fuentes", "2.5 times what the sources give"),
    ("A2-llama-cost", Figure.of(3e6, USD), _evidence(("commitment", 4.2e6), ("list", 5.25e6)),
     "un 29\u00a0% menos de lo que dan las fuentes", "29% less than the sources give"),
    # Inside it: the span, each end with what it measures, and what the article's figure matches.
    ("A1-opt-cost", Figure.of(5.7e6, USD), _evidence(("owning", 1e6), ("list", 6.8e6)),
     "dentro de las estimaciones, que van de 1 millón de dólares (tener el hardware en propiedad) a 6,8 millones de "
     "dólares (alquilar a precio de lista); la cifra del artículo concuerda, dentro de la tolerancia de la afirmación, con alquilar a precio de lista",
     "inside the span of the estimates, from $1 million (owning the hardware) to $6.8 million (renting at list price); "
     "the article’s figure agrees, within the claim’s tolerance, with renting at list price"),
    # Inside it, matching none of its figures: between which two.
    ("A1-opt-cost", Figure.of(3e6, USD), _evidence(("owning", 1e6), ("list", 6.8e6)),
     "dentro de las estimaciones, que van de 1 millón de dólares (tener el hardware en propiedad) a 6,8 millones de "
     "dólares (alquilar a precio de lista), entre tener el hardware en propiedad y alquilar a precio de lista",
     "inside the span of the estimates, from $1 million (owning the hardware) to $6.8 million (renting at list price), "
     "between owning the hardware and renting at list price"),
    # A bound some figure of the evidence meets: that figure's measure.
    ("A2-mosaic", None, _evidence(("commitment", 0.3e6), ("list", 1.1e6)),
     "dentro de las estimaciones, que van de 300.000 dólares (alquilar con compromiso de uso) a 1,1 millones de "
     "dólares (alquilar a precio de lista); la cifra del artículo concuerda, dentro de la tolerancia de la afirmación, con alquilar con compromiso de uso",
     "inside the span of the estimates, from $300,000 (renting with a commitment) to $1.1 million (renting at list "
     "price); the article’s figure agrees, within the claim’s tolerance, with renting with a commitment"),
    # Claims with no evidence: their sources' figure, or the book's calculation where the card names it so.
    ("A1-lambda-h100-8x", Figure.of(1.8, "USD/GPU-hour"), Figure.of(1.0, "USD/GPU-hour"),
     "1,8 veces lo que dan las fuentes", "1.8 times what the sources give"),
    ("A1-opt-gpu-hours", Figure.of(1.8e6, "GPU-hour"), Figure.of(1e6, "GPU-hour"),
     "1,8 veces lo que da el cálculo del libro", "1.8 times what the book's calculation gives"),
    ("A1-opt-year", None, None, "el cálculo del libro da la misma cifra; la diferencia: otra fecha",
     "the book's calculation gives the same figure; the difference: another date"),
    ("A2-mosaic", None, None, "las fuentes cumplen la cota; la diferencia: otro alcance",
     "the sources meet the bound; the difference: other scope"),
])
def test_each_judged_claim_says_how_far_apart_the_article_and_the_sources_are(claim_id, stated, sourced, es, en):
    """The distance's sentence for each kind, on figures set here (whatever the committed data are):
    `sourced` is the sources' figure, or a cost's evidence (its bases; a cost without one is judged
    against its sourced figure alone), or None for the claim's own figure with its recorded mismatches."""
    checked = CHECKED[claim_id]
    evidence = sourced if isinstance(sourced, tuple) else ()
    if stated is None:
        stated = checked.claim.stated
        checked = dataclasses.replace(checked, mismatches=checked.claim.mismatches)
    if evidence:
        sourced = span.span(evidence)
    elif sourced is None:  # inside the sources' figure
        sourced = stated
    checked = dataclasses.replace(checked, verdict="context", claim=dataclasses.replace(checked.claim, stated=stated),
                                  result=dataclasses.replace(checked.result, sourced=sourced, evidence=evidence))
    assert (sentences.distance_text(checked, "es"), sentences.distance_text(checked, "en")) == (es, en)


def test_a_named_distance_is_the_claim_s_own_sentence():
    checked = dataclasses.replace(CHECKED["A1-budget-full-ft-partial"], verdict="wrong")
    for lang in ("es", "en"):
        sentence = sentences.distance_text(checked, lang)
        dearest = checked.figures()[checked.claim.distance["figure"]].format(lang)
        assert dearest in sentence and sentence == sentences.render(checked.claim.distance[lang], checked.figures(), lang)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_claim_in_words_is_titled_with_the_sources_words_first_and_its_short_distance(lang):
    """"Does not hold: too little memory, not plenty of time (its weights alone take 2.9 times the H100's
    80 GB)": what the sources give is what holds, so it comes first; the article's words are what it is not."""
    named = [c for c in CHECKED.values() if c.claim.distance and distance.distance(c) is not None]
    assert named
    for c in named:
        label = sentences.label(c, lang)
        stated, sourced = c.claim.stated.format(lang), c.result.sourced.format(lang)
        size = sentences.render(c.claim.distance[f"label_{lang}"], c.figures(), lang)
        assert label == words(lang)["label"]["claimed"].format(verdict=c.verdict_label(lang), sourced=sourced,
                                                                stated=stated, size=size)
        assert label.index(sourced) < label.index(stated)
        assert c.figures()[c.claim.distance["figure"]].format(lang) in size


def test_the_article_s_words_are_not_read_back_as_themselves():
    """A claim in words whose words the book reads (a "reading"): the card says the quote alone, not
    "…, which the book reads as plenty of time" after a quote that says "plenty of time"."""
    for c in CHECKED.values():
        if c.claim.reading and c.claim.stated.text is not None:
            for lang in ("es", "en"):
                assert sentences.stated(c, lang) == phrases.article_quote(c.claim.quote, c.claim.quote_en, lang)
    laptop = CHECKED["A1-laptop"]  # a reading of vague words as a figure still says the figure
    assert sentences.stated(laptop, "en").endswith(", which the book reads as " + laptop.claim.stated.format("en"))


def test_a_distance_is_for_a_claim_that_needs_context_or_does_not_hold():
    for checked in CHECKED.values():
        found = distance.distance(checked)
        assert (found is not None) == (checked.verdict in ("context", "wrong")), checked.claim.id
        card = page.card(checked, "en")
        assert ("How far apart:" in card) == (found is not None), checked.claim.id


def test_distances_are_ratios_differences_or_percentages_by_size():
    usd = lambda v: Figure.of(v, "USD")  # noqa: E731
    assert distance.between(usd(3e6), usd(1e6), exact=False).kind == "times"
    assert distance.between(usd(1.2e6), usd(1e6), exact=False).kind == "more"
    assert distance.between(usd(0.8e6), usd(1e6), exact=False).kind == "less"
    assert distance.between(usd(0.2e6), usd(1e6), exact=False).figure.format("en") == "5 times"
    assert distance.between(Figure.of(3, "count"), Figure.of(2, "count"), exact=True).kind == "more_count"
    assert distance.between(usd(1e6), Figure.between(0.5e6, 2e6, "USD"), exact=False).kind == "within"
    # A range against a range, end to end, as the policy judges it: lower at both ends though they overlap.
    palm = distance.between(Figure.between(9e6, 23e6, "USD"), Figure.between(18e6, 27.1e6, "USD"), exact=False)
    assert (palm.kind, palm.figure.format("en")) == ("less", "15–50%")
    assert distance.between(Figure.between(9e6, 30e6, "USD"), Figure.between(18e6, 27e6, "USD"), exact=False).kind == "within"
    assert distance.between(Figure.says("partly"), Figure.says("entirely"), exact=False) is None


def test_summaries_put_the_furthest_first():
    """Whatever the data: the summary counts every claim once, by its verdict, and lists those
    that need context or do not hold, the furthest from the sources first."""
    ranked = distance.furthest_first(list(CHECKED.values()))
    magnitudes = [d.magnitude for _, d in ranked]
    assert magnitudes == sorted(magnitudes, reverse=True) and len(ranked) > 2
    # Moving the article's figure further away moves the claim up.
    llama = CHECKED["A2-llama-cost"]
    far = dataclasses.replace(llama, claim=dataclasses.replace(llama.claim, stated=Figure.of(400e6, "USD")))
    moved = [c.claim.id for c, _ in distance.furthest_first([far if c is llama else c for c in CHECKED.values()])]
    assert moved[0] == "A2-llama-cost"
    text = page.summary(list(CHECKED.values()), "es", "ledger")
    first = text.split(".")[0]
    counts = [int(n) for n in re.findall(r"\d+", first)]
    found = {v: sum(c.verdict == v for c in CHECKED.values()) for v in sentences.VERDICTS}
    assert counts == [len(CHECKED)] + [n for n in found.values() if n], first
    positions = [text.index(f" <{anchor(c.claim.id)}>`") for c, _ in ranked]
    assert positions == sorted(positions)


def test_verdict_counts_agree_in_number_and_leave_out_none():
    def judged(claim_id: str, verdict: str):
        return dataclasses.replace(CHECKED[claim_id], verdict=verdict)

    one = [judged("A1-budget-full-ft-partial", "wrong")]
    assert sentences.counts(one, "es", "chapter") == "La única afirmación del artículo: 1 no se sostiene."
    assert sentences.counts(one, "en", "chapter") == "The article's one claim: 1 does not hold."
    two = [judged("A1-opt-cost", "context"), judged("A1-opt-year", "context")]
    assert sentences.counts(two, "en", "chapter").endswith("2 need context.")


def _reads(template: str, text: str, **known) -> bool:
    """Whether `text` is `template` with `known` filled in and any text in its other blanks."""
    pattern = re.escape(template)
    for name, value in known.items():
        pattern = pattern.replace(re.escape("{" + name + "}"), re.escape(value))
    return re.fullmatch(re.sub(r"\\\{\w+\\\}", ".+", pattern), text) is not None


def _labels(head: str) -> list[str]:
    return re.findall(r'<span class="claim-label">([^<]*):</span>', head)


def test_a_card_reads_in_lines_then_opens_its_details():
    for lang in ("es", "en"):
        w = words(lang)
        card = page.card(CHECKED["A1-opt-cost"], lang)
        head, details = card.split("<details", 1)
        # The article, the sources (the book's recomputations named apart), the span of it all, how far apart.
        assert _labels(head) == [w["card"]["stated"], w["card"]["sourced"], w["card"]["calculated"],
                                 w["span"]["label"], w["card"]["distance"]]
        assert "**" not in card  # no bold: the verdict in the title is the finding
        assert "{cite:p}" in details and "</details>" in details
        # A claim checked against one figure: the article, the book's calculation, how far apart.
        hours = page.card(CHECKED["A1-opt-gpu-hours"], lang).split("<details", 1)[0]
        assert _labels(hours) == [w["card"]["stated"], w["card"]["calculated"], w["card"]["distance"]]
    assert ":name: A1-opt-cost" in page.card(CHECKED["A1-opt-cost"], "en")  # its anchor, #a1-opt-cost


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_label_says_which_way_and_how_far_or_what_kind_of_context(lang):
    """A reader tells "right" from "2.5 times too high" without opening the card: outside the
    tolerance (for a cost, outside the span of the evidence), the label has the direction and the
    size of the distance; inside it, what kind of context (for a cost, what its figure matches, or
    which two it lies between); a claim that holds or has no source, its verdict alone."""
    w, ws = words(lang)["label"], words(lang)["span"]
    for c in CHECKED.values():
        label, found = sentences.label(c, lang), distance.distance(c)
        assert label.startswith(c.verdict_label(lang))
        if found is None:
            assert label == c.verdict_label(lang)
            continue
        way = {True: ws["above"], False: ws["below"]} if c.result.evidence else {True: w["too_high"], False: w["too_low"]}
        if found.kind in sentences.ABOVE + sentences.BELOW:
            size = w["size"][found.kind].format(figure=found.figure.format(lang))
            assert label == way[found.kind in sentences.ABOVE].format(verdict=c.verdict_label(lang), size=size)
        elif found.kind in ("within", "met", "span"):
            assert all(w["what"][m.dimension] in label for m in c.mismatches)
        if found.kind == "span":  # inside the evidence: what the figure matches, or which two it lies between
            assert any(_reads(ws[form], label, verdict=c.verdict_label(lang)) for form in ("inside", "inside_what", "between"))
    # The same cost moved past every estimate, above and below: its label turns with it, and says how far.
    opt = CHECKED["A1-opt-cost"]
    assert opt.result.evidence
    for factor, way in ((10, "above"), (0.1, "below")):
        moved = dataclasses.replace(opt, claim=dataclasses.replace(opt.claim, stated=Figure.of(
            opt.result.sourced.value * factor, "USD")))
        found = distance.distance(moved)
        assert (found.kind in sentences.ABOVE) == (way == "above")
        size = w["size"][found.kind].format(figure=found.figure.format(lang))
        assert sentences.label(moved, lang) == ws[way].format(verdict=moved.verdict_label(lang), size=size)
    # A cost with no evidence, moved likewise, says it is too high or too low.
    hours = CHECKED["A1-opt-gpu-hours"]
    for factor, way in ((10, "too_high"), (0.1, "too_low")):
        moved = dataclasses.replace(hours, claim=dataclasses.replace(hours.claim, stated=Figure.of(
            hours.result.sourced.value * factor, "GPU-hour")))
        assert sentences.label(moved, lang).startswith(w[way].split("{size}")[0].format(verdict=moved.verdict_label(lang)))


@pytest.mark.parametrize("node, way", [(3.99, "below"), (4.29, "equal"), (4.59, "above")])
def test_lambda_s_node_price_is_told_beside_a_single_gpu_s_by_how_the_two_compare(monkeypatch, node, way):
    """Two H100 SXM prices seen the same day: the node's is said to be per GPU of a whole node, and
    below, equal to or above a single GPU's (which the book's one-GPU sums use), as the inputs have it."""
    from lib.core.inputs import load_inputs

    glued = {}
    monkeypatch.setattr(page, "glue", lambda name, value, display=False: glued.update({name: value}))
    i = load_inputs().replace("lambda_h100_sxm_8x", value=node).replace("lambda_h100_sxm_1x", value=4.29)
    for lang in ("es", "en"):
        page.glue_node_price(lang, i)
        w = words(lang)["node_price"]
        single = Figure.of(4.29, "USD/GPU-hour").format(lang)
        assert glued["prices.node"] == w[way].format(single=single)
        assert glued["prices.ends"] == w["ends"][way]
        assert (single in glued["prices.node"]) == (way != "equal")


def test_a_span_of_the_book_s_own_estimates_is_named_so():
    """A cost's span is "the estimates" where a publisher's estimate is in it, and "the book's estimates"
    where every figure in it is the book's calculation (MosaicML's: no publisher's method to redo)."""
    for lang in ("es", "en"):
        span_words = words(lang)["span"]
        assert sentences.sourced(CHECKED["A2-llama-cost"], lang)[0] == span_words["label"]
        assert sentences.sourced(CHECKED["A2-mosaic"], lang)[0] == span_words["label_calculated"]
