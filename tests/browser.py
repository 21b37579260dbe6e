"""The built site in a real browser: Debian's Chromium driven by Playwright, the site served on
127.0.0.1, every other host refused. Used by tests/test_pages.py, tests/test_browser.py and `make bench`.

Playwright's own browser download is never used: the browser is /usr/bin/chromium
(`apt-get install chromium`; .ci/run installs it).
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
# The whole browser: Debian's chromium-headless-shell, though a fifth lighter, measures the charts'
# text otherwise (live charts up to 13 px off their first paints, which vl-convert measured).
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# As the machine's notes advise: no background connections, no first-run, no sandbox (root in CI).
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-quic", "--disable-dev-shm-usage",
        # Every host name but the test server's resolves to nothing: a page that needs another host
        # fails to get it, and its request is recorded (Visit.refused).
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
# A live chart is drawn once it comes near the screen (book/_ext/assets.py, LOADER): as a reader
# scrolling through, each is brought into view in turn until Vega has drawn it, then the window goes
# back where it was. Returns how many were drawn.
DRAW_CHARTS_SCRIPT = """async () => {
  const charts = [...document.querySelectorAll('div.vega-chart')], x = window.scrollX, y = window.scrollY;
  for (const chart of charts) {
    chart.scrollIntoView({block: 'center'});
    const start = Date.now();
    while (!chart.classList.contains('drawn')) {
      if (Date.now() - start > 10000) throw new Error('chart ' + chart.id + ' not drawn 10 s after it came into view');
      await new Promise(r => setTimeout(r, 25));
    }
  }
  window.scrollTo(x, y);
  return charts.length;
}"""
ANSWERS_SCRIPT = """els => els.map(e => ({bottom: e.getBoundingClientRect().bottom + window.scrollY,
                                          text: e.innerText}))"""
PHONE_CHARTS_SCRIPT = """els => els.map(e => { const box = e.getBoundingClientRect();
  return {top: box.top + window.scrollY, bottom: box.bottom + window.scrollY,
          scroll: e.scrollWidth, width: e.clientWidth}; })"""


def page_names() -> list[str]:
    """Every page of one language: the table of contents, then Sphinx's search and index pages."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf8"))
    names = [toc["root"]] + [entry["file"] for part in [toc] for entry in part.get("chapters", [])]
    return names + ["search", "genindex"]


@contextlib.contextmanager
def serve(site: Path):
    """The site on http://127.0.0.1:<free port>, for the life of the block. The server runs in
    its own process: in this one it would share the interpreter with Playwright's client."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(site)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.1):
                break
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=10)


@contextlib.contextmanager
def chromium():
    """One headless Chromium (Debian's) for every page of a session."""
    from playwright.sync_api import sync_playwright

    if CHROMIUM is None:
        raise FileNotFoundError("no chromium on PATH: apt-get install chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class Visit:
    """What a first visit to a page did: its errors, its requests and what it downloaded."""

    url: str
    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    bytes: int = 0


class Tab:
    """One page of a browser context that records what each visit does. The HTTP cache is off
    and local storage is emptied before each visit, so every visit is a first visit."""

    def __init__(self, browser, base: str, viewport: dict = DESKTOP, first_visits: bool = True):
        """`first_visits=False` keeps the browser's cache, for checks of controls that do not weigh a page."""
        self.base = base
        self.context = browser.new_context(viewport=viewport, service_workers="block")
        self.page = self.context.new_page()
        cdp = self.context.new_cdp_session(self.page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": first_visits})
        self.visit = Visit("")
        self.page.on("request", self._request)
        self.page.on("console", lambda m: self.visit.errors.append(f"{m.text} ({m.location.get('url')})")
                     if m.type == "error" else None)
        self.page.on("pageerror", lambda error: self.visit.errors.append(f"uncaught: {error}"))

    def _request(self, request) -> None:
        self.visit.requests.append(request.url)
        if not (request.url.startswith(self.base + "/") or request.url.startswith("data:")):
            self.visit.refused.append(request.url)

    def open(self, url: str, viewport: dict = DESKTOP) -> Visit:
        if self.page.url.startswith(self.base):
            self.page.evaluate("localStorage.clear()")
        self.page.set_viewport_size(viewport)
        self.visit = Visit(url)
        self.page.goto(url, wait_until="load")
        self.page.evaluate(DRAW_CHARTS_SCRIPT)  # the live charts, as a reader scrolling to each sees them
        done = self.visit
        done.bytes = self.page.evaluate(
            "performance.getEntries().filter(e => e.decodedBodySize !== undefined)"
            ".reduce((sum, e) => sum + e.decodedBodySize, 0)"
        )
        # What the visit did, not what later checks (axe-core, resizing) do on the page.
        self.visit = Visit(url)
        return done

    def close(self) -> None:
        self.context.close()


# The crawl: every page once, on `workers` pages in parallel (a browser context each, so a renderer
# process each), with Playwright's async API in a thread of its own.

AXE_SCRIPT = "options => axe.run(document, options).then(r => r.violations)"
# axe-core's current release, from the npm registry (package.json; `make test` installs it).
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
WEIGHT_SCRIPT = ("performance.getEntries().filter(e => e.decodedBodySize !== undefined)"
                 ".reduce((sum, e) => sum + e.decodedBodySize, 0)")


def axe_bundled() -> Path:
    """The axe-core that axe-playwright-python bundles (requirements.txt pins it)."""
    from axe_playwright_python import sync_playwright as axe_module

    return Path(axe_module.__file__).parent / "axe.min.js"


CHART_SVG = "div.vega-chart > svg"
SIZES_SCRIPT = "els => els.map(e => [e.getAttribute('width'), e.getAttribute('height')])"


async def _fonts_drawn(cdp, selector: str) -> dict[str, int]:
    """Font family -> glyphs drawn with it, over the elements `selector` finds (the fonts the
    browser actually used, fallbacks included: CSS.getPlatformFontsForNode)."""
    await cdp.send("DOM.enable")
    await cdp.send("CSS.enable")
    root = (await cdp.send("DOM.getDocument", {"depth": 0}))["root"]["nodeId"]
    nodes = (await cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": selector}))["nodeIds"]
    used: dict[str, int] = {}
    for answer in await asyncio.gather(*(cdp.send("CSS.getPlatformFontsForNode", {"nodeId": n}) for n in nodes)):
        for font in answer["fonts"]:
            used[font["familyName"]] = used.get(font["familyName"], 0) + font["glyphCount"]
    await cdp.send("CSS.disable")
    await cdp.send("DOM.disable")
    return used


# Checks that read a page as the crawl loaded it, at 1,366 px and on a 390 px phone, instead of
# loading it again (tests/test_pages.py reads their results): each a function of no argument, run
# on every page; an error it throws (a page without a paragraph or a table) is its result.
#
# Each drawn chart beside the page's running text: the text column's width and reading size, the
# chart's width as shown, its right edge, whether its box scrolls, and its smallest text as shown
# (the SVG's font size times the scale it is shown at).
CHARTS_BESIDE_TEXT = """() => {
    const p = [...document.querySelectorAll('article.bd-article section > p')].find(p => p.offsetWidth);
    return {column: p.getBoundingClientRect().width, reading: parseFloat(getComputedStyle(p).fontSize),
        charts: [...document.querySelectorAll('div.vega-chart.drawn, figure.chart-picture > .chart-svg')].map(c => {
            const svg = c.querySelector(':scope > svg'), shown = svg.getBoundingClientRect();
            const zoom = shown.width / svg.viewBox.baseVal.width;
            const sizes = [...svg.querySelectorAll('text')].filter(t => t.textContent.trim())
                .map(t => parseFloat(getComputedStyle(t).fontSize) * zoom);
            return {id: c.id || c.parentElement.id, width: shown.width, right: shown.right, scrolls: c.scrollWidth > c.clientWidth,
                    smallest: Math.min(...sizes), picture: !c.classList.contains('vega-chart')}; })}; }"""
# Each table of the page: wider than its box or a cell than itself, every cell named by its
# column's header, and what the phone's card writes before a cell (its name).
TABLES_AS_CARDS = """() => [...document.querySelectorAll('article table')].map(t => ({
        wide: t.scrollWidth > t.parentElement.clientWidth + 1 || [...t.querySelectorAll('td')].some(td => td.scrollWidth > td.clientWidth + 1),
        named: [...t.tBodies[0].rows].every(r => [...r.cells].every((td, i) =>
                    td.dataset.label === t.tHead.rows[0].cells[Math.min(i, t.tHead.rows[0].cells.length - 1)].textContent.trim())),
        said: getComputedStyle(t.tBodies[0].rows[0].cells[1], '::before').content}))"""
# Each chart (a live one or a picture): its right edge, whether it scrolls, whether it takes the
# keyboard's focus, its text alternative and the hint its box writes.
CHART_BOXES = """() => [...document.querySelectorAll('div.vega-chart, figure.chart-picture > .chart-svg')].map(c => ({
            box: c.getBoundingClientRect().right, scrolls: c.scrollWidth > c.clientWidth, tab: c.tabIndex,
            label: c.getAttribute('aria-label'),
            hint: getComputedStyle(c, '::before').content}))"""
# Each live chart says whether it scrolls once Vega has drawn it (waited for, as a reader would).
SCROLL_SAID = ("() => [...document.querySelectorAll('div.vega-chart')].every(c =>"
               " (c.scrollWidth > c.clientWidth) === c.classList.contains('scrolls'))")
DESKTOP_CHECKS = {"charts_beside_text": CHARTS_BESIDE_TEXT}
# The previous and next pages' titles at the foot of a page: how far each one's words reach past its link,
# which cuts them (a long word, "entrenamiento", in half of a phone's width).
NAV_TITLES = """() => [...document.querySelectorAll('.prev-next-area a')].filter(a => a.offsetParent).map(a => {
  const words = document.createRange(); words.selectNodeContents(a.querySelector('.prev-next-title') || a);
  return {title: a.textContent.trim(), past: words.getBoundingClientRect().right - a.getBoundingClientRect().right}; })"""
PHONE_CHECKS = {"charts_beside_text": CHARTS_BESIDE_TEXT, "tables_as_cards": TABLES_AS_CARDS, "chart_boxes": CHART_BOXES,
                "nav_titles": NAV_TITLES}


async def _checks(page, checks: dict[str, str]) -> dict:
    """Each check's result on the page as it is, or {"error": what it threw}."""
    results = {}
    for name, script in checks.items():
        try:
            results[name] = await page.evaluate(script)
        except Exception as error:  # noqa: BLE001 - a check that cannot run on this page says why
            results[name] = {"error": str(error).splitlines()[0]}
    return results


async def _crawl_one(browser, base: str, urls: "asyncio.Queue", results: dict, axe_options: dict | None,
                     screenshots: Path | None) -> None:
    context = await browser.new_context(viewport=DESKTOP, service_workers="block")
    page = await context.new_page()
    cdp = await context.new_cdp_session(page)
    await cdp.send("Network.enable")
    await cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    current = {"visit": Visit("")}

    def on_request(request) -> None:
        current["visit"].requests.append(request.url)
        if not (request.url.startswith(base + "/") or request.url.startswith("data:")):
            current["visit"].refused.append(request.url)

    page.on("request", on_request)
    page.on("console", lambda m: current["visit"].errors.append(f"{m.text} ({m.location.get('url')})")
            if m.type == "error" else None)
    page.on("pageerror", lambda error: current["visit"].errors.append(f"uncaught: {error}"))
    try:
        while not urls.empty():
            key, url = urls.get_nowait()
            if page.url.startswith(base):
                await page.evaluate("localStorage.clear()")  # a first visit: no stored theme mode
            await page.set_viewport_size(DESKTOP)
            visit = current["visit"] = Visit(url)
            await page.goto(url, wait_until="load")
            chart = await page.evaluate(DRAW_CHARTS_SCRIPT) > 0  # drawn as a reader scrolls to each
            visit.bytes = await page.evaluate(WEIGHT_SCRIPT)
            current["visit"] = Visit(url)  # what the checks below do is not the visit's
            result = {"visit": visit, "chart": chart, "lang": await page.evaluate("document.documentElement.lang")}
            if chart:
                # Each live chart's size, and the fonts the browser drew its text with.
                result["chart_sizes"] = await page.eval_on_selector_all(CHART_SVG, SIZES_SCRIPT)
                result["chart_fonts"] = await _fonts_drawn(cdp, CHART_SVG + " text")
            result["desktop_checks"] = await _checks(page, DESKTOP_CHECKS)
            if axe_options is not None:
                # The bundled release, then the current one from the npm registry in its place.
                result["axe"], result["axe_versions"] = [], []
                for script in (axe_bundled(), AXE):
                    await page.add_script_tag(path=str(script))
                    result["axe"] += await page.evaluate(AXE_SCRIPT, axe_options)
                    result["axe_versions"].append(await page.evaluate("axe.version"))
            if screenshots is not None:
                await page.screenshot(path=screenshots / f"{key}-{DESKTOP['width']}.png")
            # The same page loaded on a phone (resizing instead would catch the theme's sidebars
            # mid-transition).
            # From the browser's cache: the phone load is checked for errors, requests and width; its
            # weight is the first visit's.
            await cdp.send("Network.setCacheDisabled", {"cacheDisabled": False})
            await page.set_viewport_size(PHONE)
            await page.evaluate("localStorage.clear()")
            phone = current["visit"] = Visit(url)
            await page.goto(url, wait_until="load")
            await cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
            await page.evaluate(DRAW_CHARTS_SCRIPT)
            result["phone"] = phone
            current["visit"] = Visit(url)
            try:
                await page.wait_for_function(SCROLL_SAID, timeout=5000)
                result["phone_scroll_said"] = True
            except Exception:  # noqa: BLE001 - Playwright's timeout: tests/test_pages.py says which page
                result["phone_scroll_said"] = False
            result["phone_checks"] = await _checks(page, PHONE_CHECKS)
            result["phone_width"] = await page.evaluate("document.documentElement.scrollWidth")
            result["phone_height"] = await page.evaluate("document.documentElement.scrollHeight")
            # Where each chart's box is on the phone's first screen, and whether it scrolls sideways.
            result["phone_charts"] = await page.eval_on_selector_all("div.vega-chart", PHONE_CHARTS_SCRIPT)
            # Where the home page's answers end on the phone's first screen, and what they say.
            result["phone_answers"] = await page.eval_on_selector_all("div.answer", ANSWERS_SCRIPT)
            if chart:  # each live chart's size on the phone, where its plot keeps its first paint's width
                result["phone_chart_sizes"] = await page.eval_on_selector_all(CHART_SVG, SIZES_SCRIPT)
            if screenshots is not None:
                await page.screenshot(path=screenshots / f"{key}-{PHONE['width']}.png")
            results[key] = result
    finally:
        await context.close()


async def _crawl(base: str, pages: dict, axe_options, screenshots, workers: int) -> dict:
    from playwright.async_api import async_playwright

    urls: asyncio.Queue = asyncio.Queue()
    for key, url in pages.items():
        urls.put_nowait((key, url))
    results: dict = {}
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            await asyncio.gather(*(_crawl_one(browser, base, urls, results, axe_options, screenshots)
                                   for _ in range(workers)))
        finally:
            await browser.close()
    return results


def crawl(base: str, pages: dict[str, str], axe_options: dict | None = None, screenshots: Path | None = None,
          workers: int = 2) -> dict:
    """key -> {visit, chart, lang, axe (violations), phone, phone_width, phone_charts, chart_sizes and
    phone_chart_sizes (each live chart's size at either width), desktop_checks and phone_checks
    (DESKTOP_CHECKS, PHONE_CHECKS), phone_scroll_said} for each page (key -> URL):
    a first visit at 1366x900, axe-core's violations there, then a first visit at 390x844.
    Screenshots at both sizes go to `screenshots/<key>-<width>.png`."""
    if CHROMIUM is None:
        raise FileNotFoundError("no chromium on PATH: apt-get install chromium")
    if axe_options is not None and not AXE.exists():
        raise FileNotFoundError(f"{AXE} is missing: `make test` installs it from the npm registry (npm ci)")
    if screenshots is not None:
        screenshots.mkdir(parents=True, exist_ok=True)
    box: dict = {}

    def run() -> None:
        try:
            box["results"] = asyncio.run(_crawl(base, pages, axe_options, screenshots, workers))
        except BaseException as error:  # noqa: BLE001 - handed to the caller's thread
            box["error"] = error

    thread = threading.Thread(target=run)  # its own event loop, whatever the caller's thread runs
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["results"]


# What every page's crawl checks, and where its screenshots go (tests/test_pages.py).
LANGS = ("es", "en")
SCREENSHOTS = ROOT / "_build" / "screenshots"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


def site_pages() -> list[tuple[str, str]]:
    """Every page of each language, and the bilingual pages at the site root (landing, 404)."""
    return [(lang, name) for lang in LANGS for name in page_names()] + [("root", "index"), ("root", "404")]


def crawl_site(site: Path) -> dict:
    """Every page of the built site, crawled as `crawl` does, with axe-core and screenshots."""
    with serve(site) as base:
        return crawl(base, {f"{lang}-{name}": f"{base}/{lang}/{name}.html".replace("/root/", "/")
                            for lang, name in site_pages()},
                     # preload: false, or axe-core refetches @import-ed sheets from wrongly resolved URLs.
                     axe_options={"runOnly": {"type": "tag", "values": AXE_TAGS},
                                  "resultTypes": ["violations"], "preload": False},
                     # Two pages at a time: the crawl runs beside the tests, and the last of them wait for it.
                     screenshots=SCREENSHOTS, workers=2)


class Background:
    """Work started now in a thread of its own; its result (or its error) is collected later."""

    def __init__(self, work) -> None:
        self._box: dict = {}
        self._thread = threading.Thread(target=self._run, args=(work,), daemon=True)
        self._thread.start()

    def _run(self, work) -> None:
        try:
            self._box["result"] = work()
        except BaseException as error:  # noqa: BLE001 - handed to the caller of result()
            self._box["error"] = error

    def result(self):
        self._thread.join()
        if "error" in self._box:
            raise self._box["error"]
        return self._box["result"]
