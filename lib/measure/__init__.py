"""The book's own measurements of training memory on a GPU (issue 29, item 6).

- configurations: what is measured (models × methods × checkpointing × sequences), and what is
  skipped, with the reason;
- schema: the results' schema, one record per configuration, and its validation;
- compare: a memory model's figures against the measured ones, with residuals and tolerances;
- harness: the GPU script (`make measure`, `python -m lib.measure.harness`), which alone imports torch,
  transformers, peft and bitsandbytes, and only when it runs.

Everything but `harness` imports nothing beyond the standard library, so `make test` checks it with the
book's own requirements. README.md beside this file says what is measured and how to run it.
"""
