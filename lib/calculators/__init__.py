"""The calculators a reader moves: rental, compute and memory, each on the static page and as a Jupyter widget."""
