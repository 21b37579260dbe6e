"""Each committed glued figure, by name, against what lib computes now.

nbval already fails when an output moves; this test says which figure moved, by its glue
key, with the committed and the current value side by side."""

import myst_nb
import nbformat
import pytest
from IPython.display import Markdown

import lib.site.page
from lib.site import moved

from .conftest import LANGS, ROOT, glue_records

PREFIX = "application/papermill.record/"


def committed(nb) -> dict:
    return {name: data.get(PREFIX + "text/markdown", data.get(PREFIX + "text/plain"))
            for name, data in glue_records(nb).items()}


def current(nb, monkeypatch) -> dict:
    records = {}

    def capture(name, variable, display=True):
        records[name] = variable.data if isinstance(variable, Markdown) else repr(variable)

    monkeypatch.setattr(myst_nb, "glue", capture)
    monkeypatch.setattr(lib.site.page, "glue", capture)
    namespace = {}
    for cell in nb.cells:
        if cell.cell_type == "code" and "remove-cell" in cell.metadata.get("tags", []):
            exec(compile(cell.source, "set-up cell", "exec"), namespace)
    return records


def notebooks():
    return [ROOT / "book" / lang / p.name for lang in LANGS for p in sorted((ROOT / "book" / "es").glob("*.ipynb"))]


@pytest.mark.parametrize("path", notebooks(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_committed_figures_are_what_lib_computes_now(path, monkeypatch):
    nb = nbformat.read(path, 4)
    before, now = committed(nb), current(nb, monkeypatch)
    keys = [key for key in sorted(set(before) | set(now)) if before.get(key) != now.get(key)]
    # Named as `make diff` names them: the page, each glue key, the committed and the current value
    # (a card or a table only as "changed"); every one, not the first few.
    page = f"{path.parent.name}/{path.name}"
    shown = lambda values: {k: moved.readable(v) for k, v in values.items() if k in keys}
    lines = moved.compare_figures(page, shown(before), shown(now)) or [f"  {page}: {', '.join(keys)}"]
    assert not keys, "glued figures moved (run `make notebooks` if intended, then `make diff`):\n" + "\n".join(lines)
