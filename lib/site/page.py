"""What a chapter notebook calls: check an article's claims and glue every figure
into the page, formatted for the page's language.

Glue keys, for a claim id such as A1-opt-cost:
  A1-opt-cost.box        the claim's card: {glue:md}. Its title is the verdict and the id; then one line
                         each for what the article says, what the sources give and, for a claim that
                         needs context or does not hold, how far apart they are; the rule, the
                         reading, the mismatches, the context and the sources in a <details> below
                         (native: it opens without JavaScript, and by keyboard)
  A1-opt-cost.verdict    verdict label in the page's language: {glue:text}
  A1-opt-cost.stated / .sourced / .as_stated / .<figure>   formatted figures: {glue:text}
  A1-opt-cost.raw        every figure unformatted, for nbval to compare exactly (not shown)
And A1.summary (a chapter's) and ledger.summary (both articles'): the verdicts in a sentence, then
each claim that needs context or does not hold, the furthest from its sources first (a chapter's with
its card's title, the ledger's with what the article says against what the sources give): {glue:md}.
"""

from __future__ import annotations

import html
import json

from IPython.display import Markdown
from myst_nb import glue as myst_glue

from lib.chapters import compute
from lib.chapters.costs import compare, cpi_last_year
from lib.core import fmt
from lib.core.claims import APPROXIMATE_FACTOR, POLICY, Checked, verdict_label
from lib.chapters.verdicts import check_all
from lib.core.figure import Figure
from lib.core.inputs import Input, Inputs, load_inputs
from lib.core import distance, sentences
from lib.core.phrases import capital, dates_written, shown
from lib.core.words import words
from lib.site import lab, ledger
from lib.site.claimreview import anchor, glue_scale
from lib.site.markdown import table_cell

TABLE = {
    "es": ("entrada", "valor", "fuente", "dónde", "visto el"),
    "en": ("input", "value", "source", "where", "seen on"),
}


def glue(name: str, value, display: bool = False) -> None:
    """myst-nb's glue (the record the site pastes and nbval compares), also kept for the inline
    expressions that show the prose in JupyterLab (lib.site.lab)."""
    lab.record(name, value)
    myst_glue(name, value, display=display)


rule = sentences.rule  # the verdict rule, as the card's details say it


def _line(label: str, text: str) -> str:
    """One of the card's lines: a label and what it says (no bold: the verdict is the finding)."""
    return f'<span class="claim-label">{label}:</span> {text}'


def details(checked: Checked, lang: str) -> list[str]:
    """What the card shows on demand: the article's own sum, the rule, the reading, each mismatch,
    the context, the secondary sources and the sources, one paragraph each."""
    w, claim, result = words(lang)["card"], checked.claim, checked.result
    parts = []
    context = checked.context(lang)
    # The article's own sum, unless the context already says what it gives.
    if result.as_stated is not None and result.as_stated.format(lang) not in context:
        parts.append(w["as_stated"].format(figure=result.as_stated.format(lang)))
    parts.append(_line(w["rule"], sentences.rule(checked, lang) + "."))
    if claim.reading:
        parts.append(_line(w["reading"], claim.reading[lang]))
    parts += [sentences.mismatch(m, checked, lang) for m in checked.mismatches]
    parts.append(context)
    if checked.secondary:
        inputs = load_inputs()
        keys = sorted({inputs[name].source for name in checked.secondary})
        parts.append(_line(w["secondary"], f"{{cite:p}}`{','.join(keys)}`"))
    if claim.sources:
        parts.append(_line(w["sources"], f"{{cite:p}}`{','.join(claim.sources)}`"))
    return parts


def card(checked: Checked, lang: str) -> str:
    """The claim's card as MyST Markdown: an admonition coloured by its verdict, titled with the
    verdict's label (which way and how far, or what kind of context: sentences.label), anchored by the
    claim's id; a line each for what the article says, what the sources give (and, where the figure
    checked is the book's own sum, that calculation apart) and how far apart they are; the rest in a
    <details> a reader opens."""
    w, claim = words(lang)["card"], checked.claim
    label, value = sentences.sourced(checked, lang)
    lines = [_line(w["stated"], sentences.stated(checked, lang))]
    for line in (sentences.given(checked, lang), sentences.calculation(checked, lang)):
        if line is not None:
            lines.append(_line(*line))
    lines.append(_line(label, value))
    apart = sentences.distance_text(checked, lang)
    if apart:
        lines.append(_line(w["distance"], apart))
    body = [f":::{{admonition}} {sentences.label(checked, lang)}",
            f":class: claim verdict-{checked.verdict}", f":name: {claim.id}", ""]
    for line in lines:
        body += [line, ""]
    body += [f'<details class="claim-details"><summary>{w["details"]}</summary>', ""]
    for part in details(checked, lang):
        body += [part, ""]
    body += ["</details>", ""]
    # Its address: following the link puts it in the address bar; book/_ext/cardlinks.py copies it too.
    # Its accessible name says what the claim is about, not its id.
    about = html.escape(f'{w["link"]}: {sentences.subject(checked, lang)}', quote=True)
    body += [f'<p class="claim-link"><a href="#{anchor(claim.id)}" aria-label="{about}"'
             f' data-copied="{w["copied"]}">{w["link"]}</a> <span class="claim-link-said" aria-live="polite"></span></p>',
             "", ":::"]
    return "\n".join(body)


def summary(checked: list[Checked], lang: str, whose: str) -> str:
    """The verdicts of a chapter's claims (`whose`: "chapter") or of all of them ("ledger") in a
    sentence, then each claim that needs context or does not hold, the furthest from the sources
    first, linked to its card."""
    items = sentences.summary_items(checked, lang)
    text = [sentences.counts(checked, lang, whose)]
    if items:
        text += ["", words(lang)["summary"]["furthest"], ""]
        # Each linked by what it is about ("OPT-175B's rental cost"), then its verdict. A chapter's cards
        # are on its own page, a tap away: there each item says no more than its card's title (which way
        # and how far); the ledger's, what the article says against what the sources give.
        text += [f"- {{ref}}`{capital(sentences.subject(c, lang))} <{anchor(c.claim.id)}>` "
                 + (f"— {sentences.label(c, lang)}" if whose == "chapter" else f"({c.verdict_label(lang)}): {item}")
                 for c, item in items]
    return "\n".join(text)


def show(value: float, unit: str, lang: str, **style) -> str:
    """A number with its unit, formatted for `lang` (for the cells that show their arithmetic)."""
    return Figure.of(value, unit, **style).format(lang)


def input_figure(entry: Input) -> Figure:
    """A sourced input as a figure: dates, texts in the source's words (each part in the page's
    language, the original quoted), large numbers in compact form."""
    if entry.unit == "date":
        return Figure.on(entry.value)
    if entry.unit == "text":
        return Figure.quoting("en", *entry.value.split("; "))
    low, high = (entry.low, entry.high) if entry.is_range else (entry.value, entry.value)
    unit = "" if entry.unit in ("ratio", "dimension", "rank") else entry.unit
    large = high >= 1e6 and unit not in ("GPU-hour", "chip-hour")
    # As many decimals as the source gives (0.385 stays 0,385), up to four; two in compact form.
    written = max((f"{x:.6g}".partition(".")[2] for x in (low, high)), key=len)
    decimals = 2 if large else min(4, 0 if "e" in written else len(written))
    if entry.bound:  # a bound stays a bound: "less than $100" is not $100
        return entry.figure(unit, compact=large, decimals=decimals)
    return Figure.between(low, high, unit, compact=large, decimals=decimals)


def inputs_table(lang: str, inputs: Inputs | None = None) -> str:
    """Every sourced input as a MyST table: value, source, where in it, and when it was seen."""
    head = TABLE[lang]
    inputs = load_inputs() if inputs is None else inputs
    rows = [f"| {' | '.join(head)} |", "|" + "---|" * len(head)]
    for name, entry in inputs.items():
        seen = fmt.seen(entry.seen, lang) if entry.seen else ""
        cells = [f"`{name}`", shown(input_figure(entry), lang), f"{{cite:t}}`{entry.source}`",
                 dates_written(entry.where(lang), lang), seen]
        rows.append("| " + " | ".join(table_cell(c) for c in cells) + " |")
    return "\n".join(rows)


def policy_table(lang: str) -> str:
    """The verdict policy as a MyST table: each kind of quantity and its tolerance."""
    w = words(lang)
    head = {"es": ("tipo de cifra", "tolerancia"), "en": ("kind of figure", "tolerance")}[lang]
    rows = [f"| {head[0]} | {head[1]} |", "|---|---|"]
    rows += [f"| {w['kind'][kind]} | ±{fmt.percent(tol, lang, 0 if tol == 0 or tol >= 0.01 else 1)} |" for kind, tol in POLICY.items()]
    return "\n".join(rows)


def glue_claims(article: int, lang: str, inputs: Inputs | None = None) -> list[Checked]:
    """Check every claim of `article` and glue its card and figures for `lang`."""
    words(lang)
    checked = check_all(inputs, article)
    for c in checked:
        key = c.claim.id
        glue(f"{key}.box", Markdown(card(c, lang)), display=False)
        glue(f"{key}.verdict", c.verdict_label(lang), display=False)
        glue(f"{key}.context", c.context(lang), display=False)
        figures = c.figures()
        for name, figure in figures.items():
            glue(f"{key}.{name}", figure.format(lang), display=False)
        # The source side of every mismatch too: a changed fact fails nbval at this record.
        raw = {name: f.raw() for name, f in figures.items()} | {"verdict": c.verdict}
        raw |= {f"fact.{name}": value for name, value in c.result.facts.items()}
        glue(f"{key}.raw", json.dumps(raw, sort_keys=True, ensure_ascii=False), display=False)
    glue(f"A{article}.summary", Markdown(summary(checked, lang, "chapter")), display=False)
    return checked


def glue_node_price(lang: str, i: Inputs) -> None:
    """Why Lambda's H100 SXM has two prices seen the same day: `prices.node`, what the price in eight-GPU
    nodes is, beside a single GPU's (the one the book's sums for one GPU use); `prices.ends`, which end
    of a range of the two is which. Both by how the two prices compare."""
    w = words(lang)["node_price"]
    way = compare(i.lambda_h100_sxm_8x, i.lambda_h100_sxm_1x)
    single = Figure.of(i.lambda_h100_sxm_1x, "USD/GPU-hour").format(lang)
    glue("prices.node", w[way].format(single=single), display=False)
    glue("prices.ends", w["ends"][way], display=False)


def glue_figures(prefix: str, figures: dict[str, Figure], lang: str) -> None:
    """Glue named figures that belong to no single claim, as `<prefix>.<name>`."""
    for name, figure in figures.items():
        glue(f"{prefix}.{name}", figure.format(lang), display=False)
    glue(f"{prefix}.raw", json.dumps({n: f.raw() for n, f in figures.items()}, sort_keys=True), display=False)


def glue_verdict_counts(checked: list[Checked], lang: str, prefix: str) -> None:
    for verdict in ("holds", "context", "wrong", "unverified"):
        n = sum(c.verdict == verdict for c in checked)
        glue(f"{prefix}.count.{verdict}", fmt.number(n, lang), display=False)
        glue(f"{prefix}.label.{verdict}", verdict_label(verdict, lang), display=False)


def glue_method(lang: str, inputs: Inputs | None = None) -> None:
    """The figures of the method page: the inputs table, conventions and data dates."""
    words(lang)
    inputs = load_inputs() if inputs is None else inputs
    glue("method.inputs", Markdown(inputs_table(lang, inputs)), display=False)
    glue("method.hours_per_month", fmt.number(compute.HOURS_PER_MONTH, lang), display=False)
    glue("method.seconds_per_hour", fmt.number(compute.SECONDS_PER_HOUR, lang), display=False)
    glue("method.ecb_last", fmt.date(compute.last_ecb_date(), lang), display=False)
    glue("method.cpi_year", str(cpi_last_year()), display=False)
    glue("method.policy", Markdown(policy_table(lang)), display=False)
    glue("method.approximate_factor", fmt.number(APPROXIMATE_FACTOR, lang), display=False)
    glue("method.times_from", fmt.number(distance.TIMES, lang, 1), display=False)
    glue("method.flops_per_param_token", fmt.number(inputs.flops_per_param_token, lang), display=False)
    seen = sorted({entry.seen for entry in inputs.values() if entry.seen}, key=lambda d: (str(d)[:4], str(d)))
    glue("method.seen_dates", ", ".join(fmt.seen(d, lang) for d in seen), display=False)
    for verdict in ("holds", "context", "wrong", "unverified"):
        glue(f"method.label.{verdict}", verdict_label(verdict, lang), display=False)
    for name, text in glue_scale(lang).items():  # the verdicts' scale in the ClaimReview data
        glue(f"method.{name}", text, display=False)


def glue_ledger(lang: str, inputs: Inputs | None = None) -> list[Checked]:
    """The ledger page: the table of every claim, and the verdict counts."""
    checked = check_all(inputs)
    glue("ledger.table", Markdown(ledger.table_markdown(lang, checked)), display=False)
    glue("ledger.summary", Markdown(summary(checked, lang, "ledger")), display=False)
    glue_verdict_counts(checked, lang, "all")
    glue("all.count.claims", fmt.number(len(checked), lang), display=False)
    return checked
