"""The book's answers on its pages: each glued once per page as `ans.<id>` (the sentence) and
`ans.q.<id>` (its question), and `<lang>/answers.csv` beside the ledger. Every page writes an answer with the same sentence (lib.chapters.answers)."""

from __future__ import annotations

import csv
import io
import json

from IPython.display import Markdown

from lib.chapters import answers
from lib.core.inputs import Inputs, load_inputs
from lib.site import page

# The same machine-readable columns in both languages (the answers themselves are in the page's).
COLUMNS = ("id", "question", "answer", "value", "low", "high", "unit", "basis", "pages")


def glue(lang: str, i: Inputs | None = None) -> list[answers.Answer]:
    """Glue every answer's sentence and question, and their figures unformatted (ans.raw) for nbval."""
    found = answers.all_answers(load_inputs() if i is None else i)
    for a in found:
        page.glue(f"ans.{a.id}", a.text(lang))
        page.glue(f"ans.q.{a.id}", a.question(lang))
    raw = {a.id: {"figure": a.figure.raw(), "span": a.span.raw()} for a in found}
    page.glue("ans.raw", json.dumps(raw, sort_keys=True), display=False)
    return found


def glue_bases(lang: str, i: Inputs | None = None) -> None:
    """The method page's list of the answers' bases (ans.bases): each question, and its basis."""
    found = answers.all_answers(load_inputs() if i is None else i)
    page.glue("ans.bases", Markdown("\n".join(f"- *{a.question(lang)}* {a.basis(lang)}" for a in found)), display=False)


def csv_text(lang: str, i: Inputs | None = None) -> str:
    """answers.csv: id, question, the answer as the pages write it, its central value and range,
    unit, basis, and the page files that state it."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for a in answers.all_answers(load_inputs() if i is None else i):
        writer.writerow([a.id, a.question(lang), a.text(lang), repr(a.figure.value), repr(a.span.low),
                         repr(a.span.high), a.figure.unit, a.basis(lang),
                         " ".join(f"{p}.html" for p in answers.PAGES[a.id])])
    return out.getvalue()
