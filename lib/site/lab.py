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

The rest of the prose as the site shows it (for_lab, and back on save: for_file), in MyST that
jupyterlab-myst 2.7 renders: no `$` is read as math (escaped, in the prose and in the cards); a
`rubric` is a bold paragraph and an `only` block for Binder readers is its content (the book's own
lines of each kept as MyST comments, HIDDEN); a citation is the site's text ("[Hu et al., 2021]",
lib.site.references) in a span that keeps the role; the glossary terms link to a glossary of the
terms the chapter uses, a cell of the lab view's own at its end (LAB_ONLY), which is never saved.

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
import unicodedata
from html import escape as html_escape, unescape as html_unescape
from pathlib import Path

from lib.site.binder import TAG as BINDER_TAG

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

# The rest of what jupyterlab-myst reads otherwise than the site. A line of the book's that the lab
# view hides (a rubric's, an `only` block's fences) is kept as a MyST comment after HIDDEN; a rubric
# is shown as a bold paragraph after its hidden lines; a citation as its text in a span that keeps
# the role and its keys.
HIDDEN = "% lab: "
RUBRIC = re.compile(r"^(:{3,})\{rubric\} (.+)\n((?::[\w-]+:.*\n)*)\1$", re.M)
LAB_RUBRIC = re.compile(rf"^{HIDDEN}(:{{3,}})\{{rubric\}} .*\n(?:{HIDDEN}.*\n)*?{HIDDEN}\1\n\*\*.*\*\*$", re.M)
ONLY = re.compile(r"^(:{3,})\{only\} (.+)\n([\s\S]*?)^\1$", re.M)
# The book's own directives that the site's build writes (book/_ext/trust.py: the publisher, how to
# report an error, the corrections log): hidden, with a line in the notebook's language saying so.
SITE_BUILT = re.compile(r"^(`{3,})\{book-[\w-]+\}.*\n[\s\S]*?^\1$", re.M)
LAB_SITE_BUILT = re.compile(rf"^{HIDDEN}(`{{3,}})\{{book-[\w-]+\}}.*\n(?:{HIDDEN}.*\n)*?{HIDDEN}\1\n\*[^*\n]+\*$", re.M)
CITE = re.compile(r"\{(cite(?::\w+)?)\}`([^`]+)`")
LAB_CITE = re.compile(r'<span class="cite" data-role="(cite(?::\w+)?)" data-keys="([^"]*)">.*?</span>')
# Where Markdown reads no `$` as math, and a backslash before one would show: a code span on one
# line (a role's content too; a fence of three backquotes or more opens a directive, whose content
# is Markdown: the prose and the cards have no code block) and a raw HTML block (from a line that
# opens a block-level tag to a blank line).
HTML_BLOCK = ("address|article|aside|blockquote|details|dialog|div|dl|figure|footer|form|h[1-6]|header|hr|li|nav"
              "|ol|p|pre|section|summary|table|tbody|td|tfoot|th|thead|tr|ul")
LITERAL = re.compile(r"(?<!`)(`{1,2})(?!`).*?(?<!`)\1(?!`)"
                     rf"|^ {{0,3}}</?(?:{HTML_BLOCK})(?=[\s/>]|$)[\s\S]*?(?=\n[ \t]*\n|\Z)", re.M | re.I)
MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>$])")
TERM = re.compile(r"\{term\}`([^`]*?)(?:\s*<([^`<>]+)>)?`")
# The metadata of the cell the lab view adds (the chapter's glossary): for_file leaves it out.
LAB_ONLY = "lab_only"

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


def language(path) -> str | None:
    """The language of the chapter at `path` (book/<lang>/<name>.ipynb), or None for another notebook."""
    from lib.core.words import LANGS

    name = Path(path or "").parent.name
    return name if name in LANGS else None


def _outside_literals(markdown: str, change) -> str:
    """`change` applied to the Markdown outside its code spans and raw HTML blocks."""
    out, at = [], 0
    for m in LITERAL.finditer(markdown):
        out += [change(markdown[at:m.start()]), m.group(0)]
        at = m.end()
    return "".join(out + [change(markdown[at:])])


def no_math(markdown: str) -> str:
    """Every `$` escaped where jupyterlab-myst would read it as the start of math: a sum of dollars is text."""
    return _outside_literals(markdown, lambda part: re.sub(r"(?<!\\)\$", r"\\$", part))


def text_markdown(text: str) -> str:
    """Text as the Markdown that shows it as it is (a citation's title, the words of a link)."""
    return MARKDOWN_SPECIAL.sub(r"\\\1", text)


def _hidden(lines: str) -> str:
    return "\n".join(HIDDEN + line for line in lines.split("\n"))


def _lab_site_built(m: re.Match, lang: str | None) -> str:
    if lang is None:
        return _hidden(m.group(0))
    from lib.core.words import words

    return _hidden(m.group(0)) + f"\n*{words(lang)['lab']['site_built']}*"


def _lab_rubric(m: re.Match) -> str:
    """A rubric (a heading left out of the contents) as a bold paragraph, its own lines hidden."""
    return _hidden(m.group(0)) + f"\n**{m.group(2)}**"


def _lab_only(m: re.Match) -> str:
    """An `only` block: for Binder's readers (BINDER_TAG: the lab view's reader is one), its content
    with its fences hidden; for any other tag, hidden whole."""
    fence, tag, content = m.groups()
    if tag.strip() != BINDER_TAG:
        return _hidden(m.group(0))
    return f"{HIDDEN}{fence}{{only}} {tag}\n{content}{HIDDEN}{fence}"


def _cited(m: re.Match, lang: str) -> str | None:
    """A citation's text as the site writes it, as Markdown; None for keys the book has not."""
    from lib.site.references import citation

    text = citation(m.group(1).partition(":")[2] or "p", m.group(2), lang)
    return None if text is None else text_markdown(text)


def _lab_cite(m: re.Match, lang: str) -> str:
    text = _cited(m, lang)
    if text is None:
        return m.group(0)
    return f'<span class="cite" data-role="{m.group(1)}" data-keys="{html_escape(m.group(2))}">{text}</span>'


def to_lab(markdown: str, lang: str | None = None) -> str:
    """A cell's Markdown as the lab view shows it: every glue role and fence as the inline expression
    for it, no `$` read as math, a rubric and an `only` block as jupyterlab-myst renders them, each
    citation as the site writes it in `lang` (the notebook's language; without one, left a role)."""
    markdown = GLUE_MD.sub(lambda m: "{eval}`" + MD_EXPRESSION.format(m.group(1)) + "`", markdown)
    markdown = GLUE_TEXT.sub(lambda m: "{eval}`" + TEXT_EXPRESSION.format(m.group(1)) + "`", markdown)
    markdown = ONLY.sub(_lab_only, RUBRIC.sub(_lab_rubric, no_math(markdown)))
    markdown = SITE_BUILT.sub(lambda m: _lab_site_built(m, lang), markdown)
    return CITE.sub(lambda m: _lab_cite(m, lang), markdown) if lang else markdown


def to_file(markdown: str) -> str:
    """The inverse of to_lab: the cell's Markdown as the book writes it."""
    markdown = LAB_CITE.sub(lambda m: "{" + m.group(1) + "}`" + html_unescape(m.group(2)) + "`", markdown)
    markdown = LAB_RUBRIC.sub(lambda m: m.group(0).rpartition("\n")[0], markdown)
    markdown = LAB_SITE_BUILT.sub(lambda m: m.group(0).rpartition("\n")[0], markdown)
    markdown = re.sub("^" + re.escape(HIDDEN), "", markdown, flags=re.M)
    markdown = _outside_literals(markdown, lambda part: part.replace("\\$", "$"))
    markdown = EVAL_MD.sub(lambda m: "```{glue:md} " + m.group(1) + "\n:format: myst\n```", markdown)
    return EVAL_TEXT.sub(lambda m: "{glue:text}`" + m.group(1) + "`", markdown)


def card(markdown: str, lang: str | None) -> str:
    """A glued card or table as the lab view shows it (an inline expression's result, never saved):
    no `$` read as math, each citation as the site writes it in `lang`."""
    markdown = no_math(markdown)
    return CITE.sub(lambda m: _cited(m, lang) or m.group(0), markdown) if lang else markdown


def glossary(lang: str) -> tuple[str, dict[str, str]]:
    """The book's glossary in `lang` (book/<lang>/glossary.md, Sphinx's `glossary` directive): its
    title, and each term with its definition, in the order the site sorts them (its :sorted:)."""
    text = (ROOT / "book" / lang / "glossary.md").read_text(encoding="utf8")
    title = re.search(r"^# (.+)$", text, re.M).group(1)
    body = re.search(r"^```\{glossary\}\n(.*?)^```$", text, re.M | re.S).group(1)
    entries: dict[str, list[str]] = {}
    terms: list[str] = []
    for line in body.splitlines():
        if line.startswith((" ", "\t")):
            for term in terms:
                entries.setdefault(term, []).append(line.strip())
        elif line.strip() and not line.startswith(":"):
            terms = terms if terms and terms[-1] not in entries else []
            terms.append(line.strip())
    ordered = sorted(entries, key=lambda term: unicodedata.normalize("NFD", term.lower()))
    return title, {term: " ".join(entries[term]) for term in ordered}


def linked_terms(markdown: str) -> set[str]:
    """The glossary terms a text links to ({term}`word` or {term}`words <term>`), in lower case (Sphinx
    finds a term whatever its case, as jupyterlab-myst does)."""
    return {(m.group(2) or m.group(1)).strip().lower() for m in TERM.finditer(markdown)}


def glossary_cell(nb, lang: str) -> dict | None:
    """The lab view's own last cell (LAB_ONLY: never saved): the glossary of the terms the notebook's
    prose links to, and of those their definitions link to, in jupyterlab-myst's form, for its
    {term} links to land on (on the site they lead to the glossary's page; in JupyterLab a link with
    nowhere to land is an error in the browser's console). None when the prose links to no term."""
    title, entries = glossary(lang)
    by_name = {term.lower(): term for term in entries}
    wanted = set().union(*(linked_terms(_source(c)) for c in nb.get("cells", []) if c.get("cell_type") == "markdown"))
    shown: set[str] = set()
    while wanted - shown:
        shown |= wanted
        wanted |= set().union(*(linked_terms(entries[by_name[t]]) for t in shown if t in by_name))
    listed = [term for term in entries if term.lower() in shown]
    if not listed:
        return None
    definitions = "\n\n".join(f"{term}\n: {card(entries[term], lang)}" for term in listed)
    cell = {"cell_type": "markdown", "metadata": {LAB_ONLY: True, "editable": False, "deletable": False},
            "source": f"## {title}\n\n:::{{glossary}}\n{definitions}\n:::"}
    if any("id" in c for c in nb.get("cells", [])):
        cell["id"] = "lab-glossary"
    return cell


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


def bundle(data: dict, kind: str, lang: str | None = None) -> dict | None:
    """What an inline expression shows for a glue record: its text, or its Markdown (a card, a
    table, as the lab view shows it in `lang`: `card`); None when the record has no such value."""
    if kind == "md" and MARKDOWN_RECORD in data:
        markdown = card("".join(data[MARKDOWN_RECORD]), lang)
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


def for_lab(nb, path: str = "") -> None:
    """The notebook at `path` as JupyterLab is handed it (in place): its prose as the lab view shows
    it (to_lab), with glue as inline expressions, each with the value committed in the notebook as
    its result (jupyterlab-myst shows it until the cell is run again), and the glossary of the terms
    it uses last (glossary_cell); every chart with the loader that draws it in JupyterLab
    (CHART_LOADER); the set-up cells (hidden on the site, only glue outputs) with their input and
    their outputs collapsed."""
    lang, values = language(path), records(nb)
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "markdown":
            source = _source(cell)
            lab = to_lab(source, lang)
            if lab == source:
                continue
            cell["source"] = lab
            results = []
            for expression, key, kind in expressions(lab):
                data = bundle(values.get(key, {}), kind, lang)
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
    glossary = glossary_cell(nb, lang) if lang else None
    if glossary is not None:
        nb["cells"].append(glossary)


def for_file(nb) -> None:
    """The notebook as the book commits it (in place), from what JupyterLab saves: the prose as the
    chapter writes it (to_file), without the lab view's glossary, charts without JupyterLab's
    loader, the book's kernelspec, no widget state, no metadata that JupyterLab or jupyterlab-myst
    add to a cell, no outputs in the cells nbval ignores (widgets, random ids)."""
    metadata = nb.setdefault("metadata", {})
    metadata["kernelspec"] = dict(KERNELSPEC)
    for key in LAB_METADATA:
        metadata.pop(key, None)
    nb["cells"] = [cell for cell in nb.get("cells", []) if not cell.get("metadata", {}).get(LAB_ONLY)]
    for cell in nb["cells"]:
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
            found.append(f"cell {n}: the lab view's Markdown (inline expressions for glue, hidden lines, citations)")
        if cell.get("metadata", {}).get(LAB_ONLY):
            found.append(f"cell {n}: the lab view's glossary")
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
    notebook (`notebook`, the path the Jupyter server gives the kernel in JPY_SESSION_NAME), a card
    as the lab view shows it in the notebook's language (`card`)."""

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
        lang = language(self.notebook)
        if key in GLUED:
            value = GLUED[key]
            markdown = getattr(value, "data", None)  # IPython.display.Markdown
            if kind == "md" and isinstance(markdown, str):
                markdown = card(markdown, lang)
                return Shown({"text/markdown": markdown, "text/plain": markdown})
            return Shown({"text/plain": value if isinstance(value, str) else str(value)})
        data = bundle(self._committed(key), kind, lang)
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


def without_disabled_extensions(page_config: dict) -> dict:
    """JupyterLab's page configuration (in place) with no module to load of an extension it disables.
    JupyterLab 4.5 loads the module of every extension, a disabled one too, before it leaves out its
    plugins: Jupytext's (which jupyter-config/ disables: Jupytext 1.19.6 builds it for JupyterLab 4.6)
    fails to load there, an error in the browser's console, though nothing of it would be used."""
    disabled = page_config.get("disabledExtensions") or {}
    names = set(disabled) if isinstance(disabled, list) else {name for name, off in disabled.items() if off}
    page_config["federated_extensions"] = [extension for extension in page_config.get("federated_extensions", [])
                                           if extension.get("name") not in names]
    return page_config


def _load_jupyter_server_extension(serverapp) -> None:
    """Hand JupyterLab every notebook as for_lab writes it, save it as for_file does, serve the
    charts' Vega bundle at BUNDLE_URL, and load no disabled extension (without_disabled_extensions).
    The contents manager is wrapped where the handlers find it, after Jupytext's extension has put
    its own in place (extensions load in their names' order), so that the chapter's text
    (book/_text/, which Jupytext writes on save beside the .ipynb) is written from the book's
    notebook, not JupyterLab's."""
    from jupyter_core.utils import ensure_async
    from jupyter_server.utils import url_path_join
    from tornado.web import RequestHandler

    manager = serverapp.web_app.settings["contents_manager"]
    get, save = manager.get, manager.save

    async def get_for_lab(path, content=True, type=None, format=None, **kwargs):  # noqa: A002 - the manager's names
        model = await ensure_async(get(path, content=content, type=type, format=format, **kwargs))
        if content and model.get("type") == "notebook" and model.get("content") is not None:
            for_lab(model["content"], path)
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
    settings = serverapp.web_app.settings
    hook = settings.get("page_config_hook") or (lambda handler, page_config: page_config)
    settings["page_config_hook"] = lambda handler, page_config: without_disabled_extensions(hook(handler, page_config))
    base = serverapp.web_app.settings["base_url"]
    serverapp.web_app.add_handlers(".*$", [(url_path_join(base, BUNDLE_URL), Bundle)])
    serverapp.log.info("train-cost-book: chapters shown with their glued figures (lib.site.lab)")
