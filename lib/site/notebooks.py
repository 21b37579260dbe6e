"""Execute each chapter from its text notebook, so the committed outputs (what nbval compares)
match the text, the current lib and the inputs.

A chapter's text (prose and code) is kept as a MyST Markdown text notebook,
book/_text/<lang>/<name>.md, whose diffs read as prose and whose two languages compare paragraph by
paragraph; book/<lang>/<name>.ipynb is that text executed (jupytext pairs the two: pyproject.toml).

    python -m lib.site.notebooks book/es/article1.ipynb book/en/article1.ipynb

Run it after changing a chapter's text, lib/ or an input (`make notebooks`, which then says what
moved).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import jupytext
import nbformat
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

BOOK = Path(__file__).resolve().parents[2] / "book"
TEXT = BOOK / "_text"
TEXT_FORMAT = "md:myst"


def text_notebook(path: Path) -> Path:
    """The text notebook a chapter's .ipynb is executed from: book/_text/<lang>/<name>.md."""
    return TEXT / Path(path).parent.name / (Path(path).stem + ".md")


def read_text(path: Path) -> nbformat.NotebookNode:
    """A chapter's cells, as its text notebook has them."""
    source = text_notebook(path)
    if not source.exists():
        raise FileNotFoundError(f"{source} is missing: each chapter's text is kept there (see the README)")
    return jupytext.read(source, fmt=TEXT_FORMAT)


def run(nb: nbformat.NotebookNode, folder: Path, allow_errors: bool = False) -> None:
    """Execute a notebook in place, in `folder`, as `make notebooks` does. The kernel talks over Unix
    sockets in a folder of its own, not TCP ports: kernels started side by side (the tests'
    processes, nbval's) cannot race for one port ("bind(addr)")."""
    with tempfile.TemporaryDirectory(prefix="book-kernel-") as sockets:
        km = KernelManager(kernel_name="python3", transport="ipc", ip=str(Path(sockets) / "kernel"))
        # coalesce_streams: one stdout output a cell, as nbval compares it and the build shows it (a
        # print's pieces can arrive as two outputs, which the page would then show on two lines).
        try:
            NotebookClient(nb, km=km, timeout=300, record_timing=False, coalesce_streams=True,
                           allow_errors=allow_errors, resources={"metadata": {"path": str(folder)}}).execute()
        finally:  # a kernel manager handed in is not shut down by nbclient
            if km.has_kernel:
                km.shutdown_kernel(now=True)


def execute(path: Path) -> None:
    nb = read_text(path)
    nb.metadata.pop("jupytext", None)  # the pairing is set once, in pyproject.toml
    for n, cell in enumerate(nb.cells):  # ids that stay put from one execution to the next
        cell.id = f"{path.stem}-{n:02d}"
    run(nb, path.parent)
    # Widgets carry random model ids: keep their state and their outputs (never shown on the
    # site: such cells are tagged remove-output or remove-cell, and nbval-ignore-output) out of
    # the committed file.
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        if "nbval-ignore-output" in cell.get("metadata", {}).get("tags", []):
            cell.outputs = []
    nbformat.write(nb, path)


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: python -m lib.site.notebooks NOTEBOOK.ipynb ...", file=sys.stderr)
        return 2
    for name in argv:
        print(f"executing {name}")
        execute(Path(name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
