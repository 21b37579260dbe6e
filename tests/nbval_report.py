"""A pytest plugin (pyproject.toml: `-p tests.nbval_report`) for the notebooks nbval checks: a failing
cell says first which glued figures moved, by page, glue key, old and new value."""

from pathlib import Path

import pytest

from lib.site.moved import compare_figures, readable

RECORD = "application/papermill.record/"


def glue_values(outputs) -> dict[str, str]:
    """Glue key -> the text it pastes, from one cell's outputs (committed, or nbval's new ones)."""
    values = {}
    for output in outputs or ():
        name = output.get("metadata", {}).get("scrapbook", {}).get("name")
        if name:
            data = output.get("data", {})
            # A glued Markdown object is recorded as Markdown and as its repr: the Markdown is what shows.
            record = data.get(f"{RECORD}text/markdown", data.get(f"{RECORD}text/plain"))
            values[name] = readable(next(iter(data.values()), "") if record is None else record)
    return values


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failing nbval cell says first which glued figures moved: the page, the glue key, the old
    and the new value (nbval's own report, by cell number, follows)."""
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed or getattr(item, "test_outputs", None) is None:
        return
    path = Path(str(item.fspath))
    head = what_moved(f"{path.parent.name}/{path.name}", item.cell.outputs, item.test_outputs)
    if head:
        report.longrepr = f"{head}\n\n{report.longrepr}"


def what_moved(page: str, committed, new) -> str:
    """The glued figures of one cell that moved, in the lines `make diff` writes ("" if none)."""
    lines = compare_figures(page, glue_values(committed), glue_values(new))
    return "glued figures moved (run `make notebooks` if intended, then `make diff`):\n" + "\n".join(lines) if lines else ""
