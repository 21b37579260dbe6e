"""The chapters in JupyterLab and on Binder: the prose with its numbers, from its one source.

A chapter's prose pastes every figure with myst-nb's glue ({glue:text}`key` in a sentence, a
```{glue:md} key``` fence for a card or a table), which only the book's build (Sphinx) reads.
JupyterLab shows Markdown through jupyterlab-myst, which knows no glue role or directive (its
issue 165) but evaluates inline expressions, {eval}`...`, in the notebook's kernel. So:

- the Jupyter server (this module's server extension, enabled by jupyter-config/) hands
  JupyterLab each notebook with every glue role and fence written as the inline expression that
  gives the same text, `glued("key")` or `glued.md("key")` (for_lab), with the values committed
  in the notebook already filled in (the cell metadata jupyterlab-myst reads), so that the
  numbers, verdicts and cards show as soon as the notebook opens;
- on save it writes each one back as the glue it was (for_file): the file's prose is never
  anything but the book's, and what JupyterLab adds (kernelspec, widget state, the expressions'
  results) is left out, so the saved notebook is what `make notebooks` writes;
- in the kernel (an IPython extension, loaded in every kernel a Jupyter server starts),
  `glued("key")` is what the chapter glued under that key in this kernel (lib.page.glue records
  it), or, before the cell that glues it has run (the title cell, above the set-up cell, on
  "Run all"), the value committed in the notebook. Run the cells and the prose follows them.

The charts: in JupyterLab, where the site's copy of the book's Vega bundle is absent, a chart's
output has a loader after it (CHART_LOADER) that fetches the same bundle, book/_static/vega-bundle.js,
from the server extension (BUNDLE_URL), then draws the chart; the loader is never saved.

Nothing here imports more than the standard library at load: the server imports it at start.
"""

from __future__ import annotations

import ast
import json
import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = ROOT / "book" / "_static" / "vega-bundle.js"
# Where the server extension serves the bundle, under the server's base URL (the charts' loader
# in lib.charts names it): the site's file, and after it what book.css does for the site's charts
# that JupyterLab, without that sheet, needs too (a slider's raw readout hidden: the chart writes
# the value in the page's number style).
BUNDLE_URL = "train-cost-book/vega-bundle.js"
BUNDLE_TAIL = ('\n;(function () { var style = document.createElement("style");'
               ' style.textContent = ".vega-bind input[type=range] ~ span { display: none; }";'
               " document.head.appendChild(style); })();\n")
# What a chart's output (lib.charts.offline_renderer: the SVG, then a script that asks the site's
# Vega bundle to draw the live chart) has after it in JupyterLab (lib.charts.jupyter_renderer, and
# for_lab for the committed outputs): where the bundle is not loaded, fetch it from this
# server once for every chart, then run the chart's own script again. The site never gets it: it
# is left out on save (for_file), so a chart drawn in JupyterLab is saved as the book commits it.
CHART_LOADER = (
    "\n<script>(function () { var chart = document.currentScript && document.currentScript.previousElementSibling,"
    " config = document.getElementById('jupyter-config-data'); if (!chart || !config || window.bookChart) return;"
    " window.bookVega = window.bookVega || new Promise(function (loaded) { var script = document.createElement('script');"
    f" script.onload = loaded; script.src = JSON.parse(config.textContent).baseUrl + {json.dumps(BUNDLE_URL)};"
    " document.head.appendChild(script); });"
    " window.bookVega.then(function () { var again = document.createElement('script');"
    " again.textContent = chart.textContent; chart.replaceWith(again); }); })();</script>")
CHART_MARK = 'class="vega-chart"'

# The book's glue, as the chapters write it, and the inline expressions that stand for it in
# JupyterLab. A key is what myst-nb allows in a role (no backquote) and no double quote.
GLUE_TEXT = re.compile(r"\{glue:text\}`([^`\"\s]+)`")
GLUE_MD = re.compile(r"^```\{glue:md\} ([^`\"\s]+)\n:format: myst\n```$", re.M)
EVAL_TEXT = re.compile(r"\{eval\}`glued\(\"([^`\"\s]+)\"\)`")
EVAL_MD = re.compile(r"^\{eval\}`glued\.md\(\"([^`\"\s]+)\"\)`$", re.M)
# The expression of each, as jupyterlab-myst sends it to the kernel.
TEXT_EXPRESSION, MD_EXPRESSION = 'glued("{}")', 'glued.md("{}")'

# The notebook metadata every chapter is committed with (its text notebook's header says the same);
# JupyterLab writes its kernel's display name instead ("Python 3 (ipykernel)").
KERNELSPEC = {"display_name": "Python 3", "language": "python", "name": "python3"}
# Notebook metadata a front end adds and the book never commits: widget state, and Jupytext's own
# notes (the pairing with the chapter's text is set once, in pyproject.toml).
LAB_METADATA = ("widgets", "jupytext")
# Cell metadata that JupyterLab and jupyterlab-myst write and the book never commits: the
# expressions' results, trust, collapsed inputs and outputs (for_lab sets some), scrolling, timing.
LAB_CELL_METADATA = ("user_expressions", "trusted", "jupyter", "collapsed", "scrolled", "execution")
# Cells whose outputs are not committed (random widget ids): lib.notebooks empties them too.
IGNORED_OUTPUT_TAG = "nbval-ignore-output"
MARKDOWN_RECORD = "application/papermill.record/text/markdown"
TEXT_RECORD = "application/papermill.record/text/plain"


def _source(cell) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def to_lab(markdown: str) -> str:
    """A cell's Markdown with every glue role and fence as the inline expression for it."""
    markdown = GLUE_MD.sub(lambda m: "{eval}`" + MD_EXPRESSION.format(m.group(1)) + "`", markdown)
    return GLUE_TEXT.sub(lambda m: "{eval}`" + TEXT_EXPRESSION.format(m.group(1)) + "`", markdown)


def to_file(markdown: str) -> str:
    """The inverse of to_lab: the cell's Markdown as the book writes it."""
    markdown = EVAL_MD.sub(lambda m: "```{glue:md} " + m.group(1) + "\n:format: myst\n```", markdown)
    return EVAL_TEXT.sub(lambda m: "{glue:text}`" + m.group(1) + "`", markdown)


def expressions(markdown: str) -> list[tuple[str, str, str]]:
    """(expression, key, "text" or "md") for each inline expression to_lab writes, in order, once each."""
    found = [(m.start(), TEXT_EXPRESSION.format(m.group(1)), m.group(1), "text") for m in EVAL_TEXT.finditer(markdown)]
    found += [(m.start(), MD_EXPRESSION.format(m.group(1)), m.group(1), "md") for m in EVAL_MD.finditer(markdown)]
    seen, out = set(), []
    for _, expression, key, kind in sorted(found):
        if expression not in seen:
            seen.add(expression)
            out.append((expression, key, kind))
    return out


def records(nb) -> dict[str, dict]:
    """Glue key -> the data of the output that glued it (mimetype -> value), from a notebook's outputs."""
    found = {}
    for cell in nb.get("cells", []):
        for output in cell.get("outputs", []) or []:
            name = (output.get("metadata") or {}).get("scrapbook", {}).get("name")
            if name:
                found[name] = output.get("data", {})
    return found


def _plain(text: str) -> str:
    """A glued string's text/plain record is its repr: the string itself, as {glue:text} pastes it."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text
    return value if isinstance(value, str) else text


def bundle(data: dict, kind: str) -> dict | None:
    """What an inline expression shows for a glue record: its text, or its Markdown (a card, a
    table); None when the record has no such value."""
    if kind == "md" and MARKDOWN_RECORD in data:
        markdown = "".join(data[MARKDOWN_RECORD])
        return {"text/markdown": markdown, "text/plain": markdown}
    if kind == "text" and TEXT_RECORD in data:
        return {"text/plain": _plain("".join(data[TEXT_RECORD]))}
    return None


def _charts(cell):
    """The outputs of a code cell that hold a chart (lib.charts' renderers), with their HTML joined."""
    for output in cell.get("outputs", []) or []:
        data = output.get("data") or {}
        html = data.get("text/html")
        if html is not None:
            html = "".join(html) if isinstance(html, list) else html
            if CHART_MARK in html:
                yield data, html


def for_lab(nb) -> None:
    """The notebook as JupyterLab is handed it (in place): glue as inline expressions, each with
    the value committed in the notebook as its result (jupyterlab-myst shows it until the cell is
    run again); every chart with the loader that draws it in JupyterLab (CHART_LOADER); the set-up
    cells (hidden on the site, only glue outputs) with their input and their outputs collapsed."""
    values = records(nb)
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "markdown":
            source = _source(cell)
            lab = to_lab(source)
            if lab == source:
                continue
            cell["source"] = lab
            results = []
            for expression, key, kind in expressions(lab):
                data = bundle(values.get(key, {}), kind)
                if data is not None:
                    results.append({"expression": expression,
                                    "result": {"status": "ok", "data": data, "metadata": {}}})
            cell.setdefault("metadata", {})["user_expressions"] = results
        elif cell.get("cell_type") == "code":
            for data, html in _charts(cell):
                if not html.endswith(CHART_LOADER):
                    data["text/html"] = html + CHART_LOADER
            tags = cell.get("metadata", {}).get("tags", [])
            outputs = cell.get("outputs", []) or []
            if "remove-cell" in tags and outputs and all(
                    (o.get("metadata") or {}).get("scrapbook") for o in outputs):
                cell["metadata"]["jupyter"] = {"source_hidden": True, "outputs_hidden": True}


def for_file(nb) -> None:
    """The notebook as the book commits it (in place), from what JupyterLab saves: glue as the
    chapter writes it, charts without JupyterLab's loader, the book's kernelspec, no widget state,
    no metadata that JupyterLab or jupyterlab-myst add to a cell, no outputs in the cells nbval
    ignores (widgets, random ids)."""
    metadata = nb.setdefault("metadata", {})
    metadata["kernelspec"] = dict(KERNELSPEC)
    for key in LAB_METADATA:
        metadata.pop(key, None)
    for cell in nb.get("cells", []):
        cell_metadata = cell.get("metadata", {})
        for key in LAB_CELL_METADATA:
            cell_metadata.pop(key, None)
        if cell.get("cell_type") == "markdown":
            cell["source"] = to_file(_source(cell))
        elif IGNORED_OUTPUT_TAG in cell_metadata.get("tags", []):
            cell["outputs"] = []
        else:
            for data, html in _charts(cell):
                data["text/html"] = html.removesuffix(CHART_LOADER)


def saved_from_jupyter(nb) -> list[str]:
    """What in a committed notebook only a Jupyter front end writes (empty for a notebook as
    `make notebooks` writes it): a test names each notebook that has any."""
    found = []
    kernelspec = nb.get("metadata", {}).get("kernelspec")
    if kernelspec != KERNELSPEC:
        found.append(f"kernelspec {json.dumps(kernelspec, ensure_ascii=False)}")
    found += [f"metadata {key}" for key in LAB_METADATA if key in nb.get("metadata", {})]
    for n, cell in enumerate(nb.get("cells", [])):
        extra = [key for key in LAB_CELL_METADATA if key in cell.get("metadata", {})]
        if extra:
            found.append(f"cell {n}: {', '.join(extra)}")
        if cell.get("cell_type") == "markdown" and to_file(_source(cell)) != _source(cell):
            found.append(f"cell {n}: inline expressions for glue")
        if IGNORED_OUTPUT_TAG in cell.get("metadata", {}).get("tags", []) and cell.get("outputs"):
            found.append(f"cell {n}: widget outputs")
        for output in cell.get("outputs", []) or []:
            html = "".join((output.get("data") or {}).get("text/html", ""))
            if "cdn.jsdelivr.net" in html:
                found.append(f"cell {n}: a chart drawn by Altair's renderer")
            elif html.endswith(CHART_LOADER):
                found.append(f"cell {n}: a chart with JupyterLab's loader")
    return found


# ---------------------------------------------------------------- in the kernel

GLUED: dict[str, object] = {}  # what lib.page.glue glued in this kernel, by key


def record(name: str, value) -> None:
    """Keep a glued value for the inline expressions (lib.page.glue calls it)."""
    GLUED[name] = value


class Shown:
    """An inline expression's result: a glued text as text, a glued card or table as Markdown."""

    def __init__(self, data: dict) -> None:
        self.data = data

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict:
        return self.data

    def __repr__(self) -> str:
        return self.data["text/plain"]


class Glued:
    """`glued("key")` and `glued.md("key")`, the inline expressions the prose is shown with in
    JupyterLab: the value glued under `key` in this kernel, or else the one committed in the
    notebook (`notebook`, the path the Jupyter server gives the kernel in JPY_SESSION_NAME)."""

    def __init__(self, notebook: str | os.PathLike | None = None) -> None:
        self.notebook = Path(notebook) if notebook else None

    def _committed(self, key: str) -> dict:
        path = self.notebook
        if path is not None and not path.is_absolute():
            path = Path.cwd() / path.name  # the kernel starts in the notebook's folder
        if path is None or not path.exists():
            raise KeyError(f"{key!r} is not glued yet: run the notebook's cells")
        value = records(json.loads(path.read_text(encoding="utf8"))).get(key)
        if value is None:
            raise KeyError(f"{key!r} is glued nowhere in {path.name}")
        return value

    def _show(self, key: str, kind: str) -> Shown:
        if key in GLUED:
            value = GLUED[key]
            markdown = getattr(value, "data", None)  # IPython.display.Markdown
            if kind == "md" and isinstance(markdown, str):
                return Shown({"text/markdown": markdown, "text/plain": markdown})
            return Shown({"text/plain": value if isinstance(value, str) else str(value)})
        data = bundle(self._committed(key), kind)
        if data is None:
            raise KeyError(f"{key!r} has no {kind} value in {self.notebook}")
        return Shown(data)

    def __call__(self, key: str) -> Shown:
        return self._show(key, "text")

    def md(self, key: str) -> Shown:
        return self._show(key, "md")


def load_ipython_extension(ipython) -> None:
    """In a kernel that a Jupyter server started (it sets JPY_SESSION_NAME), `glued` for the
    prose's inline expressions (hidden from %who). Elsewhere (nbclient, nbval, make book) nothing."""
    notebook = os.environ.get("JPY_SESSION_NAME")
    if notebook:
        ipython.push({"glued": Glued(notebook)}, interactive=False)


# ---------------------------------------------------------------- in the Jupyter server

def _jupyter_server_extension_points() -> list[dict]:
    return [{"module": "lib.site.lab"}]


def _load_jupyter_server_extension(serverapp) -> None:
    """Hand JupyterLab every notebook as for_lab writes it, save it as for_file does, and serve the
    charts' Vega bundle at BUNDLE_URL. The contents manager is wrapped where the handlers find it,
    after Jupytext's extension has put its own in place (extensions load in their names' order),
    so that the chapter's text (book/_text/, which Jupytext writes on save beside the .ipynb) is
    written from the book's notebook, not JupyterLab's."""
    from jupyter_core.utils import ensure_async
    from jupyter_server.utils import url_path_join
    from tornado.web import RequestHandler

    manager = serverapp.web_app.settings["contents_manager"]
    get, save = manager.get, manager.save

    async def get_for_lab(path, content=True, type=None, format=None, **kwargs):  # noqa: A002 - the manager's names
        model = await ensure_async(get(path, content=content, type=type, format=format, **kwargs))
        if content and model.get("type") == "notebook" and model.get("content") is not None:
            for_lab(model["content"])
        return model

    async def save_for_file(model, path="", **kwargs):
        if model.get("type") == "notebook" and model.get("content") is not None:
            for_file(model["content"])
        return await ensure_async(save(model, path, **kwargs))

    class Bundle(RequestHandler):
        def get(self) -> None:
            self.set_header("Content-Type", "text/javascript; charset=utf-8")
            self.set_header("Cache-Control", "max-age=3600")
            self.write(BUNDLE.read_text(encoding="utf8") + BUNDLE_TAIL)

    manager.get, manager.save = get_for_lab, save_for_file
    base = serverapp.web_app.settings["base_url"]
    serverapp.web_app.add_handlers(".*$", [(url_path_join(base, BUNDLE_URL), Bundle)])
    serverapp.log.info("train-cost-book: chapters shown with their glued figures (lib.site.lab)")
