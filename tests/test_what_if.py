"""What if, for a reader of the notebooks: each chapter's first code cell says, in its language, how to
change a sourced input (`i = i.replace(...)`, then run from there), and what follows it moves with
it: the prose's glued figures and verdicts, the sums the visible cells print and the charts. A sum a
reader changes in its own cell is refused in the page's language and number format, as one message."""

from __future__ import annotations

import re

import nbformat
import pytest

from lib.chapters.verdicts import check_all
from lib.core.inputs import load_inputs
from lib.site.notebooks import read_text, run

from .conftest import LANGS, ROOT, glue_records

WHAT_IF = {"es": "¿Y si…?", "en": "What if?"}
EXAMPLE = re.compile(r'^# (i = i\.replace\("(\w+)", value=([\d.]+)\))  # .+$', re.M)


def what_if_cell(nb) -> nbformat.NotebookNode:
    return next(c for c in nb.cells if c.cell_type == "code")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("path", sorted((ROOT / "book" / "es").glob("*.ipynb")), ids=lambda p: p.stem)
def test_every_chapter_opens_with_a_what_if_cell_in_its_language(path, lang):
    code = [c.source for c in read_text(ROOT / "book" / lang / path.name).cells if c.cell_type == "code"]
    cell = what_if_cell(read_text(ROOT / "book" / lang / path.name))
    assert cell.source.startswith(f"# {WHAT_IF[lang]}") and "i = load_inputs()" in cell.source
    example = EXAMPLE.search(cell.source)
    assert example and example.group(2) in load_inputs(), "its example names a sourced input"
    # Nothing after it loads the inputs again: every cell below uses the reader's `i`.
    assert not any("load_inputs()" in source or "costs.load()" in source for source in code[1:])


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("path", sorted((ROOT / "book" / "es").glob("*.ipynb")), ids=lambda p: p.stem)
def test_what_the_what_if_changes_reaches_everything_the_page_shows(path, lang):
    """The what-if cell comes before every glued figure (the key findings and a chapter's summary of its
    claims included), so that running it and every cell below redraws them all; and each calculator,
    planner included, is built from the reader's `i`."""
    nb = read_text(ROOT / "book" / lang / path.name)
    first = nb.cells.index(what_if_cell(nb))
    assert not any("{glue" in c.source for c in nb.cells[:first]), "a glued figure above the what-if cell"
    built = re.findall(r"\b(\w+_calculator)\(([^)]*)\)", "\n".join(c.source for c in nb.cells if c.cell_type == "code"))
    assert all(re.match(r"LANG, i\b", args) for _, args in built), built


def test_a_changed_input_moves_the_prose_the_sums_and_the_charts_and_a_changed_sum_is_refused():
    """Article 1 in Spanish, run with its what-if cell's example on (a dearer H100 node, as a reader
    would try it), then a cell that changes a sum as a reader might (OPT's GPUs doubled)."""
    committed = nbformat.read(ROOT / "book" / "es" / "article1.ipynb", as_version=4)
    nb = read_text(ROOT / "book" / "es" / "article1.ipynb")
    cell = what_if_cell(nb)
    line, name, _ = EXAMPLE.search(cell.source).groups()
    price = round(load_inputs()[name].value * 1.5, 1)  # whatever the committed price is
    cell.source = cell.source.replace("# " + line, f'i = i.replace("{name}", value={price})')
    doubled = 'sums.show("opt_article", sums.term(2 * i.opt_gpus, "GPU") * sums.term(1, "hour"), "GPU-hour", equals=1)'
    nb.cells.append(nbformat.v4.new_code_cell(doubled))
    run(nb, ROOT / "book" / "es", allow_errors=True)
    before, after = glue_records(committed), glue_records(nb)
    # The prose: the card's price and its verdict (the article's price is now an older one).
    shown = next(iter(after["A1-lambda-h100-8x.sourced"].values()))
    assert shown != next(iter(before["A1-lambda-h100-8x.sourced"].values())) and f"{price:.2f}".replace(".", ",") in shown
    judged = {c.claim.id: c for c in check_all(load_inputs().replace(name, value=price))}["A1-lambda-h100-8x"]
    assert next(iter(after["A1-lambda-h100-8x.verdict"].values())) == repr(judged.verdict_label("es"))
    # The sums the visible cells print, and the charts, follow: no cell but the last failed.
    errors = [(n, o) for n, c in enumerate(nb.cells) for o in c.get("outputs", []) if o.output_type == "error"]
    assert [n for n, _ in errors] == [len(nb.cells) - 1], errors[:1]
    printed = lambda notebook: [o.get("text", "") for c in notebook.cells for o in c.get("outputs", []) if o.get("name") == "stdout"]
    assert printed(nb) != printed(committed)
    charts = lambda notebook: [o["data"]["text/html"] for c in notebook.cells for o in c.get("outputs", [])
                               if "vega-chart" in str(o.get("data", {}).get("text/html", ""))]
    assert charts(nb) != charts(committed) and len(charts(nb)) == len(charts(committed))
    # The changed sum: one message in Spanish, in the book's number format, and no traceback.
    error = errors[0][1]
    assert error.ename == "SumMismatch" and len(error.traceback) == 1
    assert "¿Y si…?" in error.traceback[0] and "horas-GPU" in error.traceback[0] and "Traceback" not in error.traceback[0]
