"""Re-execute chapter notebooks in place, so their committed outputs (what nbval
compares) match the current lib and inputs.

    python -m lib.notebooks book/es/article1.ipynb book/en/article1.ipynb

Run it after changing lib/ or an input on purpose (`make notebooks`); review the diff
of the notebooks: every glued number that moved shows there.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from .lab import KERNELSPEC


def execute(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    # coalesce_streams: one stdout output a cell, as nbval compares it and the build shows it (a
    # print's pieces can arrive as two outputs, which the page would then show on two lines).
    client = NotebookClient(nb, timeout=300, kernel_name="python3", record_timing=False, coalesce_streams=True,
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    # Widgets carry random model ids: keep their state and their outputs (never shown on the
    # site: such cells are tagged remove-output or remove-cell, and nbval-ignore-output) out of
    # the committed file.
    nb.metadata.pop("widgets", None)
    # The kernelspec JupyterLab writes, so that a chapter opened there has no unsaved change (lib.lab).
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    for cell in nb.cells:
        if "nbval-ignore-output" in cell.get("metadata", {}).get("tags", []):
            cell.outputs = []
    nbformat.write(nb, path)


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: python -m lib.notebooks NOTEBOOK.ipynb ...", file=sys.stderr)
        return 2
    for name in argv:
        print(f"executing {name}")
        execute(Path(name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
