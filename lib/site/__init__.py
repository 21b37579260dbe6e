"""The site: what the chapters glue and draw (pages, cards, tables, charts, the ledger), the build, the refresh of notebooks and what moved."""
