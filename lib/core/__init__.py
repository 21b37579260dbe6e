"""The fact-check core: sourced inputs, the claims registry and its one verdict policy, figures, their formatting and the words of each language."""
