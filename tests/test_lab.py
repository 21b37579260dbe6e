"""The chapters in JupyterLab, as a reader on Binder meets them, with no network: JupyterLab and
jupyterlab-myst from PyPI (requirements.txt), the book's Jupyter configuration (jupyter-config/,
lib/site/lab.py), driven in Debian's headless Chromium with every request to another host aborted.

In each language a chapter is opened (its prose already shows the committed numbers, verdicts and
cards), run, and checked: glued numbers and verdicts are text, the cards are drawn, the chart is
drawn live from the book's own Vega bundle, and the calculator's boxes write a preset rounded as
the book prints it, in the page's number style, each label beside an unsqueezed box. Then it is
saved, and the saved file is what `make notebooks` writes: `make test` passes on it.

Every other chapter, in each language, is opened, run and checked as that one is:
nothing the site would not show (an "Unknown Directive" box, a citation or reference jupyterlab-myst
cannot find, a role left as text, an amount of dollars read as math) and no error of the book's
making in the browser's console (jupyterlab-myst's own, MYST_ERRORS, named one by one).

Besides: the translation of the prose to what JupyterLab is handed (glue as inline expressions, `$`
escaped, rubric and `only` blocks, citations, the glossary) and back, on every chapter, and a check
that no committed notebook was saved by a Jupyter front end without the book's configuration (which
names the notebook and says to run `make notebooks`).

One Jupyter server and one JupyterLab page serve the whole module (80 to 90 s on two cores). Without
Chromium the browser tests fail in CI (CI=true) and are skipped elsewhere.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest

from lib.site import lab
from lib.site.notebooks import text_notebook

from .browser import chromium
from .conftest import LANGS, ROOT, glue_records, in_ci

NOTEBOOKS = sorted((ROOT / "book").glob("*/*.ipynb"))
# The chapter opened in JupyterLab: it has claims with verdicts in its prose, cards, a chart and
# the rental calculator's widget.
CHAPTER = "article1.ipynb"
SHOTS = ROOT / "_build" / "screenshots"
# What the chapter's prose and cards show (glue keys; the values are the committed ones, which
# nbval holds equal to what the run computes).
NUMBER, VERDICT, CARD = "A1-lambda-h100-8x.sourced", "A1-opt-duration.verdict", "A1-opt-cost.verdict"
# The calculator's preset whose days are not whole: LLaMA 65B's 20.800008… days, written 20,80 / 20.80.
PRESET_DAYS = {"es": "20,80", "en": "20.80"}


# ---------------------------------------------------------------- the translation, on every chapter

def _in_lab(path: Path):
    """The chapter at `path` as the lab view hands it to JupyterLab (lab.for_lab), and as committed."""
    nb = nbformat.read(path, as_version=4)
    committed = nbformat.writes(nb)
    lab.for_lab(nb, path.relative_to(ROOT).as_posix())
    return nb, committed


def _markdown_cells(nb) -> list[dict]:
    return [cell for cell in nb["cells"] if cell["cell_type"] == "markdown"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_jupyterlab_gets_every_glue_as_an_inline_expression_with_its_committed_value(path):
    """for_lab writes each {glue:text} and {glue:md} fence as the inline expression that shows it,
    with the committed value as its result (a card as the lab view shows it); for_file gives back
    the notebook byte for byte."""
    nb, committed = _in_lab(path)
    records = glue_records(nbformat.reads(committed, as_version=4))
    for cell in _markdown_cells(nb):
        assert "{glue" not in cell["source"], cell["source"][:200]
        shown = {e["expression"]: e["result"]["data"] for e in cell["metadata"].get("user_expressions", [])}
        for expression, key, kind in lab.expressions(cell["source"]):
            assert key in records, f"{path.name}: {key} is glued nowhere"
            assert shown[expression] == lab.bundle(records[key], kind, path.parent.name)
    lab.for_file(nb)
    assert nbformat.writes(nb) == committed


def _shown(markdown: str) -> str:
    """The Markdown jupyterlab-myst reads: without the lines the lab view hides, its code spans
    (a role's content) left out."""
    return re.sub(r"`[^`\n]*`", "``", re.sub(rf"^{re.escape(lab.HIDDEN)}.*$", "", markdown, flags=re.M))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_lab_view_writes_the_prose_and_cards_in_the_myst_jupyterlab_renders(path):
    """What jupyterlab-myst 2.7 has no renderer for reaches it in a form it has: no rubric, no
    `only`, no citation role (the bibliography is the site's), no `$` unescaped (it reads `$...$`
    as math) in the prose or a card, and a glossary entry for every term the prose links to."""
    nb, _ = _in_lab(path)
    cells = _markdown_cells(nb)
    cards = [e["result"]["data"]["text/markdown"] for cell in cells
             for e in cell["metadata"].get("user_expressions", []) if "text/markdown" in e["result"]["data"]]
    for markdown in [cell["source"] for cell in cells] + cards:
        shown = _shown(markdown)
        assert not re.search(r"\{(?:rubric|only)\}|\{cite(?::\w+)?\}", shown), shown[:300]
        assert not re.search(r"(?<!\\)\$", shown), shown[:300]
    glossary = [cell for cell in cells if cell["metadata"].get(lab.LAB_ONLY)]
    linked = set().union(*(lab.linked_terms(cell["source"]) for cell in cells))
    if linked:
        lines = glossary[0]["source"].splitlines()
        entries = {line.lower() for line in lines if line and not line.startswith((":", "#"))}
        assert linked <= entries, sorted(linked - entries)


def test_a_rubric_an_only_block_a_citation_and_a_dollar_are_shown_and_saved_back():
    """The lab view's forms of what jupyterlab-myst does not render, each given back as written."""
    prose = ("::::{div} findings\n:::{rubric} Key findings\n:heading-level: 2\n:::\n"
             "- It costs $5, {cite:p}`hu2021lora`.\n::::\n\n:::{only} binder\nOn Binder, $6.\n:::\n\n"
             ":::{only} latex\nIn print.\n:::\n\n"
             "Code `$x`, then {cite:t}`venigalla2022mosaic`.\n\n<p>A $7 HTML block</p>\n")
    shown = lab.to_lab(prose, "es")
    assert "**Key findings**\n- It costs \\$5, " in shown and "\nOn Binder, \\$6.\n" in shown
    assert "\\[Hu et al., 2021\\]</span>" in shown and "Venigalla y Li \\[2022\\]</span>" in shown
    assert "% lab: In print." in shown and "`$x`" in shown and "<p>A $7 HTML block</p>" in shown
    assert lab.to_file(shown) == prose
    # Without the notebook's language (a notebook not the book's) a citation is left a role.
    assert "{cite:p}`hu2021lora`" in lab.to_lab(prose) and lab.to_file(lab.to_lab(prose)) == prose


def test_citations_are_the_sites_from_the_sites_style():
    """A citation reads as the site's (sphinxcontrib-bibtex, author-year, the book's styles: square
    brackets, "y" in Spanish, several sources in the list's order), from the code the site uses."""
    from lib.site import references

    assert references.citation("p", "hu2021lora", "en") == "[Hu et al., 2021]"
    assert references.citation("p", "venigalla2022mosaic", "es") == "[Venigalla y Li, 2022]"
    assert references.citation("t", "venigalla2022mosaic", "en") == "Venigalla and Li [2022]"
    assert references.citation("p", "nosuchkey", "en") is None
    spec = importlib.util.spec_from_file_location("bilingual", ROOT / "book" / "_ext" / "bilingual.py")
    bilingual = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bilingual)
    assert (bilingual.reference_style, bilingual.cited_as) == (references.reference_style, references.cited_as)


def test_the_page_loads_no_module_of_a_disabled_extension():
    """JupyterLab 4.5 loads the module of a disabled extension too (Jupytext's fails to load there)."""
    page = {"disabledExtensions": {"jupyterlab-jupytext": True, "x:plugin": True},
            "federated_extensions": [{"name": "jupyterlab-jupytext"}, {"name": "jupyterlab-myst"}]}
    assert lab.without_disabled_extensions(page)["federated_extensions"] == [{"name": "jupyterlab-myst"}]
    page = {"disabledExtensions": ["jupyterlab-jupytext"], "federated_extensions": [{"name": "jupyterlab-jupytext"}]}
    assert lab.without_disabled_extensions(page)["federated_extensions"] == []


def test_a_text_value_is_shown_without_the_quotes_of_its_record():
    """A glued string's record is its repr; the prose shows the string ({glue:text} does the same)."""
    assert lab.bundle({lab.TEXT_RECORD: "'1.333.248 horas-GPU'"}, "text") == {"text/plain": "1.333.248 horas-GPU"}
    assert lab.bundle({lab.TEXT_RECORD: '"what\'s"'}, "text") == {"text/plain": "what's"}
    assert lab.bundle({lab.MARKDOWN_RECORD: ":::{admonition} x\n:::"}, "md")["text/markdown"] == ":::{admonition} x\n:::"


def test_the_kernel_shows_what_it_glued_or_else_what_the_notebook_committed(tmp_path):
    """`glued(key)` in a kernel: this kernel's value once a cell has glued it; before (the title
    cell on "Run all"), the notebook's committed one; a clear KeyError for a key glued nowhere."""
    from IPython.display import Markdown

    notebook = tmp_path / CHAPTER
    shutil.copy(ROOT / "book" / "es" / CHAPTER, notebook)
    records = glue_records(nbformat.read(notebook, as_version=4))
    glued = lab.Glued(notebook)
    lab.GLUED.pop(NUMBER, None)
    assert repr(glued(NUMBER)) == lab.bundle(records[NUMBER], "text")["text/plain"]
    lab.record(NUMBER, "2,99 dólares")
    lab.record("X.box", Markdown("**x**"))
    try:
        assert repr(glued(NUMBER)) == "2,99 dólares"
        assert glued.md("X.box")._repr_mimebundle_()["text/markdown"] == "**x**"
    finally:
        lab.GLUED.pop(NUMBER), lab.GLUED.pop("X.box")
    with pytest.raises(KeyError, match="glued nowhere"):
        glued("no.such.key")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_notebook_was_saved_by_a_jupyter_front_end(path):
    """A notebook saved from Jupyter without the book's configuration carries what only a front end
    writes (its kernelspec, widget state, inline expressions): one line names it and the fix."""
    found = lab.saved_from_jupyter(nbformat.read(path, as_version=4))
    assert not found, (f"{path.relative_to(ROOT)} was saved from Jupyter ({'; '.join(found[:3])}): "
                       "run `make notebooks`")


# ---------------------------------------------------------------- JupyterLab in Chromium, offline

def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A Jupyter server (JupyterLab, the book's configuration as requirements.txt installs it) on
    127.0.0.1, its root a copy of the chapters in both languages; no token, no news, no autosave."""
    home = tmp_path_factory.mktemp("jupyterlab")
    root = home / "root"
    # Each executed notebook, its text (which Jupytext pairs with it: pyproject.toml), in that order:
    # the text is not older than the notebook, as in a checkout.
    root.mkdir()
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    for notebook in NOTEBOOKS:
        for path in (notebook.relative_to(ROOT), text_notebook(notebook).relative_to(ROOT)):
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / path, root / path)
    settings = home / "settings" / "@jupyterlab"
    # A widget's comms over the kernel's own shell, not a subshell of it (JupyterLab 4.5's default,
    # per comm target): a chapter closed as soon as it is drawn has its kernel shut down before the
    # kernel answers JupyterLab's request for a subshell, which JupyterLab then logs as an error
    # ("Canceled future for create_subshell_request message before replies were done").
    for plugin, values in {"apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False},
                           "apputils-extension/kernels-settings": {"commsOverSubshells": "disabled"},
                           "docmanager-extension/plugin": {"autosave": False}}.items():
        (settings / plugin).parent.mkdir(parents=True, exist_ok=True)
        (settings / f"{plugin}.jupyterlab-settings").write_text(json.dumps(values))
    env = os.environ | {"JUPYTERLAB_SETTINGS_DIR": str(home / "settings"), "JUPYTERLAB_WORKSPACES_DIR": str(home / "ws"),
                        "JUPYTER_CONFIG_DIR": str(home / "config"), "JUPYTER_RUNTIME_DIR": str(home / "runtime")}
    port = _free_port()
    log = open(home / "server.log", "w+", encoding="utf8")
    process = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root", f"--port={port}", "--ip=127.0.0.1",
         f"--ServerApp.root_dir={root}", "--IdentityProvider.token=", "--ServerApp.password=",
         "--LabApp.expose_app_in_browser=True", "--LabApp.news_url=None"],
        stdout=log, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            with contextlib.suppress(OSError):
                urllib.request.urlopen(f"{base}/api/status", timeout=1).close()
                break
            assert process.poll() is None, "the Jupyter server stopped:\n" + (home / "server.log").read_text()[-3000:]
            time.sleep(0.1)
        yield {"base": base, "root": root, "log": log}
    finally:
        process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=10)
        if process.poll() is None:
            process.kill()
        log.close()


@pytest.fixture(scope="module")
def jupyterlab(server):
    """One JupyterLab page for the module, every request to another host aborted and recorded, and
    every error it logs in its console (or leaves uncaught) recorded with where it comes from."""
    with contextlib.ExitStack() as stack:
        try:
            browser = stack.enter_context(chromium())
        except FileNotFoundError as missing:
            if in_ci():
                pytest.fail(f"CI must have Debian's chromium (.ci/run installs it): {missing}")
            pytest.skip(str(missing))
        context = browser.new_context(viewport={"width": 1366, "height": 900}, service_workers="block")
        stack.callback(context.close)
        aborted: list[str] = []

        def route(request_route):
            if request_route.request.url.startswith(server["base"] + "/"):
                request_route.continue_()
            else:
                aborted.append(request_route.request.url)
                request_route.abort()

        context.route("**/*", route)
        page = context.new_page()
        requests: list[str] = []
        page.on("request", lambda request: requests.append(request.url))
        console: list[tuple[str, str]] = []
        page.on("console", lambda m: console.append((m.text, m.location.get("url", ""))) if m.type == "error" else None)
        page.on("pageerror", lambda error: console.append((error.message, error.stack or "")))
        page.goto(f"{server['base']}/lab/workspaces/book", wait_until="load")
        page.wait_for_function("() => window.jupyterapp", timeout=120_000)
        page.evaluate("() => window.jupyterapp.started")
        yield {"page": page, "aborted": aborted, "requests": requests, "console": console, **server}


OPEN_AND_RUN = """async path => {
    const app = window.jupyterapp;
    const panel = await app.commands.execute('docmanager:open', {path, factory: 'Notebook'});
    await panel.context.ready;
    await panel.sessionContext.ready;
    app.shell.activateById(panel.id);
    return panel.id;
}"""

RUN_ALL = """async () => {
    const app = window.jupyterapp;
    await app.commands.execute('notebook:run-all-cells');
    const panel = app.shell.currentWidget;
    const cells = panel.content.widgets.filter(c => c.model.type === 'code');
    return cells.map(c => c.model.executionCount);
}"""

# The chapter closed and its kernel shut down: the next chapter runs alone (two cores).
CLOSE = """async () => {
    await window.jupyterapp.commands.execute('application:close');
    await window.jupyterapp.serviceManager.sessions.shutdownAll();
}"""

# The rendered prose: every Markdown cell's text, and what jupyterlab-myst could not show.
PROSE = """() => {
    const cells = [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-MarkdownCell')];
    return {text: cells.map(c => c.innerText).join('\\n'),
            cards: cells.map(c => [...c.querySelectorAll('aside, .admonition')].map(a => a.innerText)).flat(),
            unshown: cells.map(c => [...c.querySelectorAll('code')].map(e => e.textContent)).flat()
                          .filter(t => t.startsWith('glued')),
            errors: document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .myst-RenderedExpressionError,'
                                              + ' .jp-MarkdownCell [data-mime-type="application/vnd.jupyter.stderr"]').length};
}"""


def _prose(page, expected: list[str], cards: int, timeout: float = 60) -> dict:
    """The rendered prose, once it shows every expected text and `cards` cards (jupyterlab-myst
    draws each cell again as its expressions' results arrive)."""
    deadline = time.time() + timeout
    while True:
        prose = page.evaluate(PROSE)
        if (all(text in prose["text"] for text in expected) and len(prose["cards"]) == cards
                and not prose["unshown"]) or time.time() > deadline:
            return prose
        time.sleep(0.2)


@pytest.mark.parametrize("lang", LANGS)
def test_a_chapter_in_jupyterlab_offline_shows_its_numbers_verdicts_chart_and_boxes(jupyterlab, lang):
    page, path = jupyterlab["page"], f"book/{lang}/{CHAPTER}"
    committed_path = jupyterlab["root"] / path
    committed = committed_path.read_text(encoding="utf8")
    records = glue_records(nbformat.reads(committed, as_version=4))
    value = {key: lab.bundle(records[key], "text")["text/plain"] for key in (NUMBER, VERDICT, CARD)}
    cards = sum(1 for key in records if key.endswith(".box"))
    SHOTS.mkdir(parents=True, exist_ok=True)
    jupyterlab["console"].clear()

    # Opened: the committed numbers, verdicts and cards show before anything runs, and nothing the
    # site would not show (test_every_chapter_in_jupyterlab_reads_as_on_the_site).
    page.evaluate(OPEN_AND_RUN, path)
    prose = _prose(page, [value[NUMBER], value[VERDICT]], cards)
    page.screenshot(path=SHOTS / f"lab-{lang}-opened.png")
    assert value[NUMBER] in prose["text"] and value[VERDICT] in prose["text"], prose["text"][:1500]
    assert "{glue" not in prose["text"] and "{eval}" not in prose["text"] and not prose["unshown"], prose["unshown"][:5]
    assert len(prose["cards"]) == cards
    assert not _faults(_drawn(page, cards))

    # Run: every code cell runs, the prose shows what the kernel glued (the same values: nbval holds
    # the committed ones equal to a run's), every card is drawn and names its verdict.
    counts = page.evaluate(RUN_ALL)
    assert all(counts), f"cells left unrun: {counts}"
    prose = _prose(page, [value[NUMBER], value[VERDICT], f"{value[CARD]}:"], cards)
    assert value[NUMBER] in prose["text"] and value[VERDICT] in prose["text"]
    assert not prose["unshown"] and not prose["errors"], (prose["unshown"][:5], prose["errors"])
    # A card's title is its verdict's label ("Con matices: demasiado alta, …").
    assert any(card.startswith(f"{value[CARD]}:") for card in prose["cards"]), prose["cards"][:3]
    assert len(prose["cards"]) == cards
    assert not _faults(_drawn(page, cards))

    # The chart: drawn live (Vega's slider) from the book's bundle, served by this server.
    chart = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output .vega-chart.drawn").first
    chart.wait_for(timeout=30_000)
    assert chart.locator("svg").count() and chart.locator(".vega-bind input[type=range]").count()
    assert any(url.endswith(lab.BUNDLE_URL) for url in jupyterlab["requests"])
    readout = chart.locator(".vega-bind input[type=range] ~ span").first
    assert not readout.is_visible(), "the slider's raw readout shows beside the chart's own"
    chart.scroll_into_view_if_needed()
    page.screenshot(path=SHOTS / f"lab-{lang}-chart.png")

    # The calculator's boxes: a preset's 20.800008… days written as the book does, in the page's
    # style; every label in full beside a box of its own width.
    form = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .widget-gridbox").first
    form.wait_for(timeout=30_000)
    form.locator("select").first.select_option(index=1)  # LLaMA 65B, the second preset
    days = form.locator("input[type=text]").nth(1)
    page.wait_for_function("([el, text]) => el.value === text", arg=[days.element_handle(), PRESET_DAYS[lang]],
                           timeout=10_000)
    sizes = form.evaluate("""f => ({labels: [...f.querySelectorAll('.widget-label-basic, .widget-label')]
                                        .map(l => l.scrollWidth - l.clientWidth),
                                    boxes: [...f.querySelectorAll('input[type=text]')].map(b => b.getBoundingClientRect().width)})""")
    assert max(sizes["labels"]) <= 0 and min(sizes["boxes"]) >= 80, sizes
    texts = form.evaluate("f => [...f.querySelectorAll('input[type=text]')].map(b => b.value)")
    assert not any("." in t and lang == "es" for t in texts[1:]), texts  # days, price, budget: decimal commas
    form.scroll_into_view_if_needed()
    page.screenshot(path=SHOTS / f"lab-{lang}-calculator.png")

    # Saved: the file is what `make notebooks` writes (prose, outputs, metadata): make test passes on it.
    before = committed_path.stat().st_mtime_ns
    page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    deadline = time.time() + 20
    while committed_path.stat().st_mtime_ns == before and time.time() < deadline:
        time.sleep(0.1)
    assert committed_path.stat().st_mtime_ns != before, "JupyterLab did not save the notebook"
    saved = nbformat.reads(committed_path.read_text(encoding="utf8"), as_version=4)
    assert lab.saved_from_jupyter(saved) == []
    assert nbformat.writes(saved) == nbformat.writes(nbformat.reads(committed, as_version=4)), \
        "the notebook saved from JupyterLab differs from the committed one"
    # Jupytext wrote the chapter's text beside it: the prose as the book writes it, unchanged.
    text = text_notebook(ROOT / "book" / lang / CHAPTER).relative_to(ROOT)
    assert (jupyterlab["root"] / text).read_text(encoding="utf8") == (ROOT / text).read_text(encoding="utf8")
    # Its kernel is shut down: the next language's runs alone (two cores).
    page.evaluate(CLOSE)

    assert not _book_errors(jupyterlab["console"]), _book_errors(jupyterlab["console"])[:5]
    assert not jupyterlab["aborted"], f"requests to other hosts: {jupyterlab['aborted'][:5]}"


# What a chapter shows once JupyterLab has drawn it: its Markdown cells drawn by jupyterlab-myst
# (the text of the drawn MyST, not of the hidden editor), and in it what the book must not show:
# an error box ("Unknown Directive"), a citation or reference it cannot find, an expression's error,
# a role left as text, math (any `$` read as TeX), a backslash before a dollar sign.
DRAWN = r"""() => {
    const cells = [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-MarkdownCell')];
    const drawn = cells.map(c => c.querySelector('.jp-InputArea > .myst')).filter(d => d && d.textContent.trim());
    const text = drawn.map(d => d.textContent).join('\n');
    const all = selector => drawn.flatMap(d => [...d.querySelectorAll(selector)]);
    const around = pattern => [...text.matchAll(pattern)].map(m => text.slice(Math.max(0, m.index - 40), m.index + 40));
    return {markdown: cells.length, drawn: drawn.length, cards: all('aside, .admonition').length,
            unshown: all('code').map(e => e.textContent).filter(t => t.startsWith('glued')),
            boxes: around(/Unknown (?:Directive|Role)/g),
            missing: all('[title="Citation Not Found"], [title="Cross Reference Not Found"],'
                         + ' .myst-RenderedExpressionError').map(e => e.textContent),
            roles: around(/\{[a-z]+(?::[a-z]+)?\}/g),
            math: all('.math-inline, .math-display, .katex, mjx-container, .MathJax').map(e => e.textContent),
            backslashes: around(/\\\$/g)};
}"""
# Errors JupyterLab's extensions log in the console whatever the book does, by their exact messages,
# all from jupyterlab-myst 2.7.0's renderer of an inline expression's rich result (a card, a table:
# text/markdown; a text/plain result is drawn without it), with any notebook whose expressions give
# Markdown, in every windowing mode. Its MySTMarkdownCell.render() renders every cell of the notebook
# (renderNotebook) before it puts its own widget in the page, so React runs the effect of an
# expression in a cell not yet in the document: Lumino's Widget.attach throws "Host is not attached."
# (logged, and uncaught), and the next render draws the card. Rendered again on "Run all", the
# renderer finds its widget disposed or its node gone: the other three.
MYST_ERRORS = [re.compile(message) for message in (
    r"(?:Error: )?Host is not attached\.",
    r"Our layout is already disposed!!",
    r'Could not dispose of renderer for `glued\.md\("[^"`]+"\)`: node is not connected',
    r'Unable to detach expression renderer for `glued\.md\("[^"`]+"\)`: node is not connected',
)]


# JupyterLab's own: its kernel connection failing to parse a websocket frame it received (a race of
# its message protocol on a loaded machine, seen on one notebook or another in one run of three, never
# the same twice); logged by JupyterLab's core bundle, not by anything the book sends.
LAB_ERRORS = [re.compile(r"Kernel message validation error: .*")]


def _book_errors(console: list[tuple[str, str]]) -> list[str]:
    """The errors in the console that the book causes: all but jupyterlab-myst's own (MYST_ERRORS,
    from its code: where it logged them, or their stack) and JupyterLab core's own (LAB_ERRORS, from
    its core bundle)."""
    def mysts(text: str, source: str) -> bool:
        return "/jupyterlab-myst/" in text + source and any(m.fullmatch(text.split("\n")[0]) for m in MYST_ERRORS)

    def labs(text: str, source: str) -> bool:
        return "/static/lab/" in source and any(m.fullmatch(text.split("\n")[0]) for m in LAB_ERRORS)

    return [text for text, source in console if not (mysts(text, source) or labs(text, source))]


def _drawn(page, cards: int, timeout: float = 60) -> dict:
    """What the chapter shows, once jupyterlab-myst has drawn every Markdown cell, every expression
    and `cards` cards, and the drawing has settled."""
    deadline, last = time.time() + timeout, None
    while time.time() < deadline:
        shown = page.evaluate(DRAWN)
        done = shown["markdown"] and shown["drawn"] == shown["markdown"] and shown["cards"] >= cards
        if done and not shown["unshown"] and shown == last:
            return shown
        last = shown
        time.sleep(0.3)
    return last


FAULTS = ("unshown", "boxes", "missing", "roles", "math", "backslashes")


def _faults(shown: dict) -> dict:
    return {what: shown[what] for what in FAULTS if shown[what]}


# Every chapter but CHAPTER, which the test above opens, runs and checks the same way.
OTHER_CHAPTERS = [path for path in NOTEBOOKS if path.name != CHAPTER]


@pytest.mark.parametrize("path", OTHER_CHAPTERS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_chapter_in_jupyterlab_reads_as_on_the_site(jupyterlab, path):
    """Each chapter, opened and run in JupyterLab, shows no error box, no citation or reference it
    cannot find, no role left as text, no amount read as math, and logs no error of the book's
    making in the browser's console (MYST_ERRORS are jupyterlab-myst's own)."""
    page, console = jupyterlab["page"], jupyterlab["console"]
    cards = sum(1 for key in glue_records(nbformat.read(path, as_version=4)) if key.endswith(".box"))
    console.clear()
    page.evaluate(OPEN_AND_RUN, path.relative_to(ROOT).as_posix())
    opened = _drawn(page, cards)
    counts = page.evaluate(RUN_ALL)
    ran = _drawn(page, cards)
    page.evaluate(CLOSE)
    assert opened and ran and all(counts), (opened, ran, counts)
    assert not _faults(opened) and not _faults(ran), (_faults(opened), _faults(ran))
    assert not _book_errors(console), _book_errors(console)[:5]
    assert not jupyterlab["aborted"], f"requests to other hosts: {jupyterlab['aborted'][:5]}"


def test_make_lab_takes_jupyterlabs_options_and_runs_as_root():
    """`make lab ARGS=...` hands JupyterLab its options, with --allow-root where the user is root (a
    container: Binder's, many clouds'), without which JupyterLab will not start there."""
    options = "--no-browser --port 8888 --ip 0.0.0.0"
    dry = subprocess.run(["make", "-n", "lab", f"ARGS={options}"], cwd=ROOT, capture_output=True, text=True, check=True)
    command = next(line for line in dry.stdout.splitlines() if "jupyter lab" in line)
    assert command.endswith(options) and ("--allow-root" in command) == (os.geteuid() == 0), command


def test_jupyterlab_is_the_one_requirements_pins():
    """JupyterLab, jupyterlab-myst and the book's configuration come from requirements.txt (Binder
    installs them from there), and the server loads the book's extension."""
    pins = (ROOT / "requirements.txt").read_text(encoding="utf8")
    assert "jupyterlab==" in pins and "jupyterlab-myst==" in pins and "./jupyter-config" in pins


def test_only_jupyterlab_s_and_jupyterlab_myst_s_own_errors_are_set_aside():
    lab = "http://127.0.0.1:1/static/lab/jlab_core.abc.js"
    myst = "http://127.0.0.1:1/lab/extensions/jupyterlab-myst/static/1.js"
    console = [("Kernel message validation error: Unexpected number in JSON at position 1", lab),
               ("Host is not attached.", myst),
               ("Kernel message validation error: Unexpected number in JSON at position 1", "http://127.0.0.1:1/files/x.js"),
               ("TypeError: glued is undefined", lab)]
    assert _book_errors(console) == [console[2][0], console[3][0]]
