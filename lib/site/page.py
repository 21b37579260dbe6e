"""What a chapter notebook calls: check an article's claims and glue every figure
into the page, formatted for the page's language.

Glue keys, for a claim id such as A1-opt-cost:
  A1-opt-cost.box        the claim's card (quote, stated, recomputed, verdict, context, sources): {glue:md}
  A1-opt-cost.verdict    verdict label in the page's language: {glue:text}
  A1-opt-cost.stated / .sourced / .as_stated / .<figure>   formatted figures: {glue:text}
  A1-opt-cost.raw        every figure unformatted, for nbval to compare exactly (not shown)
"""

from __future__ import annotations

import json

from IPython.display import Markdown
from myst_nb import glue as myst_glue

from lib.chapters import compute
from lib.core import fmt
from lib.core.claims import APPROXIMATE_FACTOR, POLICY, Checked, verdict_label
from lib.chapters.verdicts import check_all
from lib.core.figure import Figure
from lib.core.inputs import Input, Inputs, load_inputs
from lib.core.words import fact, words
from lib.site import lab, ledger
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


def rule(checked: Checked, lang: str) -> str:
    """The verdict rule the claim was judged by: its kind's tolerance, or its exception and why."""
    w, claim = words(lang), checked.claim
    kind = w["kind"][claim.kind]
    if claim.exception is not None:
        return f"{kind}, {w['card']['exception']}: ±{fmt.percent(claim.tolerance, lang, 0)} ({claim.exception[lang]})"
    text = f"{kind}, ±{fmt.percent(claim.tolerance, lang, 0)}"
    return text + (f" ({w['card']['approximate']})" if claim.approximate else "")


def mismatch_lines(checked: Checked, lang: str) -> list[str]:
    """One line per mismatch that makes the verdict "needs context": both sides, named."""
    w = words(lang)["card"]
    return [f"**{w['mismatch']} · {words(lang)['dimension'][m.dimension]}:** {w['article_says']} "
            f"<q lang=\"es\">{m.words}</q> ({fact(m.article, lang)}); {w['source_says']}: {fact(checked.result.facts[m.fact], lang)}"
            for m in checked.mismatches]


def card(checked: Checked, lang: str) -> str:
    """The claim's card as MyST Markdown (an admonition coloured by its verdict)."""
    w = words(lang)["card"]
    claim, result = checked.claim, checked.result
    quote = f'<q lang="es">{claim.quote}</q>'
    if lang != "es":
        quote += f" ({claim.quote_en})"
    recomputed = result.sourced.format(lang) if result.sourced else w["none"]
    lines = [
        f":::{{admonition}} {checked.verdict_label(lang)} · {claim.id}",
        f":class: claim verdict-{checked.verdict}",
        f":name: {claim.id}",
        f"{quote}",
        "",
        f"**{w['stated']}:** {claim.stated.format(lang)} · **{w['recomputed']}:** {recomputed}"
        + (f" · **{w['as_stated']}:** {result.as_stated.format(lang)}" if result.as_stated else ""),
        "",
        f"**{w['rule']}:** {rule(checked, lang)}",
    ]
    if claim.reading:
        lines += ["", f"**{w['reading']}:** {claim.reading[lang]}"]
    for line in mismatch_lines(checked, lang):
        lines += ["", line]
    if checked.secondary:
        inputs = load_inputs()
        keys = sorted({inputs[name].source for name in checked.secondary})
        lines += ["", f"**{w['secondary']}:** {{cite:p}}`{','.join(keys)}`"]
    lines += [
        "",
        checked.context(lang),
        "",
        f"**{w['sources']}:** " + (f"{{cite:p}}`{','.join(claim.sources)}`" if claim.sources else w["none"]),
        ":::",
    ]
    return "\n".join(lines)


def show(value: float, unit: str, lang: str, **style) -> str:
    """A number with its unit, formatted for `lang` (for the cells that show their arithmetic)."""
    return Figure.of(value, unit, **style).format(lang)


def input_figure(entry: Input) -> Figure:
    """A sourced input as a figure: dates and texts as they are, large numbers in compact form."""
    if entry.unit == "date":
        return Figure.on(entry.value)
    if entry.unit == "text":
        return Figure.says(entry.value)
    low, high = (entry.low, entry.high) if entry.is_range else (entry.value, entry.value)
    unit = "" if entry.unit in ("ratio", "dimension", "rank") else entry.unit
    large = high >= 1e6 and unit not in ("GPU-hour", "chip-hour")
    # As many decimals as the source gives (0.385 stays 0,385), up to four; two in compact form.
    written = max((f"{x:.6g}".partition(".")[2] for x in (low, high)), key=len)
    decimals = 2 if large else min(4, 0 if "e" in written else len(written))
    return Figure.between(low, high, unit, compact=large, decimals=decimals)


def inputs_table(lang: str, inputs: Inputs | None = None) -> str:
    """Every sourced input as a MyST table: value, source, where in it, and when it was seen."""
    head = TABLE[lang]
    inputs = load_inputs() if inputs is None else inputs
    rows = [f"| {' | '.join(head)} |", "|" + "---|" * len(head)]
    for name, entry in inputs.items():
        seen = fmt.seen(entry.seen, lang) if entry.seen else ""
        cells = [f"`{name}`", input_figure(entry).format(lang), f"{{cite:t}}`{entry.source}`", entry.where(lang), seen]
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
    return checked


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


def glue_method(lang: str) -> None:
    """The figures of the method page: the inputs table, conventions and data dates."""
    words(lang)
    inputs = load_inputs()
    glue("method.inputs", Markdown(inputs_table(lang, inputs)), display=False)
    glue("method.hours_per_month", fmt.number(compute.HOURS_PER_MONTH, lang), display=False)
    glue("method.seconds_per_hour", fmt.number(compute.SECONDS_PER_HOUR, lang), display=False)
    glue("method.ecb_last", fmt.date(compute.last_ecb_date(), lang), display=False)
    glue("method.policy", Markdown(policy_table(lang)), display=False)
    glue("method.approximate_factor", fmt.number(APPROXIMATE_FACTOR, lang), display=False)
    glue("method.flops_per_param_token", fmt.number(inputs.flops_per_param_token, lang), display=False)
    seen = sorted({entry.seen for entry in inputs.values() if entry.seen}, key=lambda d: (str(d)[:4], str(d)))
    glue("method.seen_dates", ", ".join(fmt.seen(d, lang) for d in seen), display=False)
    for verdict in ("holds", "context", "wrong", "unverified"):
        glue(f"method.label.{verdict}", verdict_label(verdict, lang), display=False)


def glue_ledger(lang: str) -> list[Checked]:
    """The ledger page: the table of every claim, and the verdict counts."""
    checked = check_all()
    glue("ledger.table", Markdown(ledger.table_markdown(lang, checked)), display=False)
    glue_verdict_counts(checked, lang, "all")
    glue("all.count.claims", fmt.number(len(checked), lang), display=False)
    return checked
