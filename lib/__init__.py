"""Shared package of the book, by role (README, "Where things live"):

- core: the fact-check itself: sourced inputs, claims and the verdict policy, figures, formatting, words
- chapters: each chapter's own computations, and the verdicts of every claim
- calculators: the chapters' calculators, sharing their controls and readout
- site: what the pages show and how they are built: glue, charts, ledger, notebooks, the build
"""
import sys

# jsonschema, which Altair and nbformat import, loads its optional IRI format checker when it is
# installed (JupyterLab's jupyter-events pulls it in), and that compiles an Earley grammar: 1.3 s in
# every kernel that imports lib. Nothing the book validates has an IRI format.
sys.modules.setdefault("rfc3987_syntax", None)
