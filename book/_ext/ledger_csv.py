"""Sphinx extension: the fact-check ledger's build-time parts, from the claims registry.

- ledger.csv (in the page's language) beside the ledger page, answers.csv (the book's answers,
  lib.site.answers_page), and costs.csv, the published
  training costs the costs chapter reproduces (lib.chapters.costs.published_csv);
- on the page that holds the ledger table, the data its script (book/_static/ledger.js) needs:
  the number each figure column sorts by, and the script's words in the page's language (from
  lib/data/words)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from sphinx.application import Sphinx

from lib.site import answers_page, costs_page
from lib.site import ledger

from lib.core.words import words

# Column positions in lib.site.ledger's table (lib.site.ledger.TABLE_KEYS).
FIGURE_COLUMNS = {name: ledger.TABLE_KEYS.index(name) for name in ("stated", "recomputed", "calculated", "distance")}


def write_csv(app: Sphinx, exception: Exception | None) -> None:
    if exception is None and app.builder.format == "html":
        Path(app.outdir, "ledger.csv").write_text(ledger.csv_text(app.config.language), encoding="utf8")
        Path(app.outdir, "costs.csv").write_text(costs_page.published_csv(app.config.language), encoding="utf8")
        Path(app.outdir, "answers.csv").write_text(answers_page.csv_text(app.config.language), encoding="utf8")


def add_sort_values(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    body = context.get("body", "")
    if not re.search(r'<table[^>]*class="[^"]*\bledger\b', body):
        return
    values = {
        claim: {str(FIGURE_COLUMNS[name]): value for name, value in figures.items()}
        for claim, figures in ledger.sort_values().items()
    }
    data = {"values": values, "words": words(app.config.language)["site"]["ledger"]}
    text = json.dumps(data, ensure_ascii=False, sort_keys=True).replace("</", "<\\/")
    context["body"] = body + f'\n<script type="application/json" id="ledger-data">{text}</script>\n'


def setup(app: Sphinx) -> dict:
    app.connect("build-finished", write_csv)
    app.connect("html-page-context", add_sort_values)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
