"""Shared package of the book: sourced inputs, arithmetic, claims, formatting, charts.

Modules:
- inputs: sourced inputs (lib/data/inputs/*.toml), validated on load
- compute: pure arithmetic (GPU-hours, costs, 6ND, LoRA, memory, ECB conversion)
- fmt, figure: Babel formatting of numbers, money, dates, ranges in es and en
- claims, recompute: the claims registry and its computed verdicts
- charts: Altair charts and the offline renderer
- page: what a chapter notebook calls to glue figures into its prose
"""
