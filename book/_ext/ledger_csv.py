"""Sphinx extension: write the fact-check ledger as CSV (ledger.csv, in the page's language)
beside the ledger page at build time, from the claims registry."""

from __future__ import annotations

from pathlib import Path

from sphinx.application import Sphinx

from lib import ledger


def write_csv(app: Sphinx, exception: Exception | None) -> None:
    if exception is None and app.builder.format == "html":
        Path(app.outdir, "ledger.csv").write_text(ledger.csv_text(app.config.language), encoding="utf8")


def setup(app: Sphinx) -> dict:
    app.connect("build-finished", write_csv)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
