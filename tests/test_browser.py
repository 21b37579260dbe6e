"""The site's controls in a real browser (Debian's Chromium, driven by Playwright, the site served
on 127.0.0.1): the ledger's filter and keyboard-operable sort buttons, the cards' details, print,
the charts on a phone and the price slider, the language switch, the search box, every
calculator's controls against lib, the contents buttons on a phone. What every page shows on a
first visit is in tests/test_pages.py.

Without Chromium the tests fail in CI (CI=true) and are skipped elsewhere.
"""

from __future__ import annotations

import contextlib
import math
import re
from urllib.parse import parse_qsl, urlsplit

import pytest

from .browser import PHONE, Tab, chromium, serve
from .conftest import LANGS, in_ci


@pytest.fixture(scope="module")
def browser():
    try:
        with chromium() as launched:
            yield launched
    except FileNotFoundError as missing:
        if in_ci():
            pytest.fail(f"CI must have Debian's chromium (.ci/run installs it): {missing}")
        pytest.skip(str(missing))


@pytest.fixture(scope="module")
def base(built_site):
    with serve(built_site) as url:
        yield url


@pytest.fixture(scope="module")
def tab(browser, base):
    """One browser page for the interactive checks; each opens its page afresh."""
    # The controls' checks weigh no page (the crawl does): the browser's cache spares each check
    # parsing the Vega bundle's 0.5 MB again.
    shared = Tab(browser, base, first_visits=False)
    yield shared
    shared.close()


def _open(tab, base, path):
    visit = tab.open(f"{base}/{path}")
    assert visit.errors == [], visit.errors
    return tab.page


def _shown_rows(page) -> list[str]:
    return page.eval_on_selector_all("table.ledger tbody tr:not([hidden])",
                                     "rows => rows.map(r => r.querySelector('a.ledger-card').getAttribute('href'))")


DRAWN = "([el, want]) => { const t = [...el.querySelectorAll('svg text')].map(e => e.textContent); return want.every(w => t.includes(w)); }"


def _readout_shows(page, chart, want: list[str], what: str) -> None:
    """Wait (no longer than needed) for Vega to redraw a calculator's readout with every line of `want`."""
    try:
        page.wait_for_function(DRAWN, arg=[chart.element_handle(), want], timeout=3000)
    except Exception:
        texts = chart.locator("svg text").evaluate_all("els => els.map(e => e.textContent)")
        pytest.fail(f"after {what}: want {want}, the page shows {texts}")


@pytest.mark.parametrize("lang", LANGS)
def test_ledger_filters_by_verdict(tab, base, lang):
    page = _open(tab, base, f"{lang}/ledger.html")
    total = len(_shown_rows(page))
    options = page.eval_on_selector_all("select.ledger-filter option", "os => os.map(o => o.value)")
    assert options[0] == "" and len(options) >= 3
    page.select_option("select.ledger-filter", options[1])
    verdicts = page.eval_on_selector_all("table.ledger tbody tr:not([hidden])",
                                         "rows => rows.map(r => r.cells[0].textContent.trim().split(':')[0])")
    assert verdicts and set(verdicts) == {options[1]} and len(verdicts) < total
    page.select_option("select.ledger-filter", "")
    assert len(_shown_rows(page)) == total


def test_ledger_headers_sort_by_keyboard_and_figures_by_value(tab, base):
    page = _open(tab, base, "en/ledger.html")
    buttons = page.locator("table.ledger thead th button")
    assert buttons.count() == 9
    # Reach the "The sources give" header's button with the keyboard alone.
    page.locator("select.ledger-filter").focus()
    for _ in range(8):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.textContent.trim()") == "The sources give":
            break
    assert page.evaluate("document.activeElement.tagName") == "BUTTON", "the sort buttons are not reachable by Tab"
    page.keyboard.press("Enter")
    header = page.locator("table.ledger thead th").nth(4)
    assert header.get_attribute("aria-sort") == "ascending"
    values = page.eval_on_selector_all(
        "table.ledger tbody tr", "rows => rows.map(r => r.cells[4].getAttribute('data-sort-value'))")
    numbers = [float(v) for v in values if v is not None]
    assert len(numbers) > 20 and numbers == sorted(numbers), "figures do not sort by value"
    assert all(v is None for v in values[len(numbers):]), "qualitative figures should come last"
    page.keyboard.press("Space")
    assert header.get_attribute("aria-sort") == "descending"
    values = page.eval_on_selector_all(
        "table.ledger tbody tr", "rows => rows.map(r => r.cells[4].getAttribute('data-sort-value'))")
    numbers = [float(v) for v in values if v is not None]
    assert numbers == sorted(numbers, reverse=True)


def test_ledger_reads_as_cards_on_a_phone(tab, base):
    tab.open(f"{base}/es/ledger.html", PHONE)
    page = tab.page
    box = page.evaluate("(() => { const c = document.querySelector('.pst-scrollable-table-container');"
                        " return [c.scrollWidth, c.clientWidth]; })()")
    assert box[0] <= box[1], f"the ledger scrolls sideways on a phone: {box}"
    labels = page.eval_on_selector_all("table.ledger tbody tr:first-child td", "tds => tds.map(td => td.dataset.label)")
    assert labels[3:7] == ["Dice el artículo", "Dan las fuentes", "El cálculo del libro", "Distancia"]
    assert page.locator("table.ledger tbody tr").first.locator("td").nth(4).is_visible()
    # A claim that holds (the last rows: the furthest from the sources come first) has no distance
    # to tell: its card has no "Distancia" line, where the first card has one.
    assert page.locator("table.ledger tbody tr").first.locator("td").nth(6).is_visible()
    last = page.locator("table.ledger tbody tr").last.locator("td").nth(6)
    assert last.get_attribute("data-empty") == "" and not last.is_visible()


# 1,366 px: the commonest laptop window. 1,200 px: a window whose ledger box (the sidebars beside it)
# is narrower than the ledger's eight columns.
DESKTOP_WIDTHS = (1366, 1200)
LEDGER_WHOLE = """() => { const t = document.querySelector('table.ledger'), box = t.parentElement;
    const right = box.getBoundingClientRect().right;
    return {scroll: box.scrollWidth, width: box.clientWidth, rows: getComputedStyle(t.tBodies[0].rows[0]).display,
            cut: [...t.querySelectorAll('th, td')].filter(c => c.scrollWidth > c.clientWidth + 1
                                                          || c.getBoundingClientRect().right > right + 1)
                   .map(c => (c.dataset.label || 'header') + ': ' + c.textContent.trim().slice(0, 40)).slice(0, 5)}; }"""


@pytest.mark.parametrize("lang", LANGS)
def test_the_ledger_shows_every_column_whole_on_a_desktop(tab, base, lang):
    """On a desktop no column of the ledger is cut: at 1,366 px its nine columns wrap within its
    box (it does not scroll sideways, no cell runs past it or out of its own width); in a window whose
    box is narrower than the columns, its rows are cards, as on a phone, and nothing is cut either."""
    for width, rows in zip(DESKTOP_WIDTHS, ("table-row", "block")):
        tab.open(f"{base}/{lang}/ledger.html", {"width": width, "height": 768})
        seen = tab.page.evaluate(LEDGER_WHOLE)
        assert seen["scroll"] <= seen["width"], f"{lang}/ledger at {width}px scrolls sideways: {seen}"
        assert not seen["cut"], f"{lang}/ledger at {width}px cuts {seen['cut']}"
        assert seen["rows"] == rows, f"{lang}/ledger at {width}px shows its rows as {seen['rows']}, not {rows}"


TABLE_BOXES = """() => ({page: document.documentElement.scrollWidth,
    boxes: [...document.querySelectorAll('article .pst-scrollable-table-container')].map((box, n) => ({
        n: n + 1, scroll: box.scrollWidth, width: box.clientWidth,
        head: [...box.querySelectorAll('th')].map(th => th.textContent.trim()).slice(0, 3).join(' | ')}))})"""
TABLE_PAGES = ("published", "budget", "plan", "method", "ledger")


@pytest.mark.parametrize("lang", LANGS)
def test_no_table_scrolls_sideways_in_a_laptop_window(tab, base, lang):
    """At 1,366 px every table shows all its columns: those of many columns (the costs chapter's
    published figures, the budget's measurements and what the budget buys) take the width of the
    theme's full-width content, as the ledger and the method page's inputs do. In a window too narrow
    for the contents beside the text (1,100 px) that content keeps to the text's width: the page
    itself never scrolls sideways."""
    for name in TABLE_PAGES:
        tab.open(f"{base}/{lang}/{name}.html", {"width": 1366, "height": 768})
        seen = tab.page.evaluate(TABLE_BOXES)
        assert seen["boxes"], f"{lang}/{name} has no table"
        wide = [b for b in seen["boxes"] if b["scroll"] > b["width"] + 1]
        assert not wide, f"{lang}/{name} at 1366px: tables that scroll sideways {wide}"
        tab.open(f"{base}/{lang}/{name}.html", {"width": 1100, "height": 768})
        width = tab.page.evaluate(TABLE_BOXES)["page"]
        assert width <= 1100, f"{lang}/{name} at 1100px is {width}px wide"


# The planner's box (lib.site.charts.offline_renderer names a calculator's box by its first control).
PLANNER_BOX = "chart-plan-model"


PLANNER_PLACES = """() => { const box = document.getElementById('chart-plan-model');
    const where = e => { const r = e.getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top + scrollY,
                                                                     bottom: r.bottom + scrollY}; };
    return {first: where(box.querySelector('.vega-bindings select, .vega-bindings input')),
            controls: where(box.querySelector('.vega-bindings')), readout: where(box.querySelector(':scope > svg'))}; }"""


@pytest.mark.parametrize("lang", LANGS)
def test_the_planner_s_controls_come_first_and_sit_beside_its_readout(tab, base, lang):
    """The planner is at the top of its page: on a 390 × 844 phone its first control is within the page's first
    two screens (1,688 px), and its controls come before its readout, one after the other; at 1,366 px the
    controls and the readout sit side by side, the readout in the column's second half."""
    tab.open(f"{base}/{lang}/plan.html", PHONE)
    tab.page.wait_for_selector(f"#{PLANNER_BOX}.drawn", timeout=10000)
    seen = tab.page.evaluate(PLANNER_PLACES)
    assert seen["first"]["top"] <= 2 * PHONE["height"], f"{lang}/plan at {PHONE['width']}px: first control at {seen['first']['top']:.0f}px"
    assert seen["controls"]["bottom"] <= seen["readout"]["top"] + 1, f"{lang}/plan at {PHONE['width']}px: {seen}"
    tab.open(f"{base}/{lang}/plan.html", {"width": DESKTOP_WIDTHS[0], "height": 768})
    tab.page.wait_for_selector(f"#{PLANNER_BOX}.drawn", timeout=10000)
    seen = tab.page.evaluate(PLANNER_PLACES)
    controls, readout = seen["controls"], seen["readout"]
    assert controls["right"] <= readout["left"] + 1 and abs(controls["top"] - readout["top"]) < 40, (
        f"{lang}/plan at {DESKTOP_WIDTHS[0]}px: controls {controls}, readout {readout}")


@pytest.mark.parametrize("lang", LANGS)
def test_a_card_opens_its_details_by_keyboard(tab, base, lang):
    """A card shows its lines; its details (a native <details>: no script) open from the keyboard."""
    page = _open(tab, base, f"{lang}/article1.html")
    card = page.locator("#a1-opt-cost")
    details = card.locator("details.claim-details")
    assert details.evaluate("d => d.open") is False
    assert not card.locator("details.claim-details > p").first.is_visible()
    card.locator("summary").focus()
    page.keyboard.press("Enter")
    assert details.evaluate("d => d.open") is True
    assert card.locator("details.claim-details > p").first.is_visible()


@pytest.mark.parametrize("lang", LANGS)
def test_the_ledger_and_cards_print_whole(tab, base, lang):
    """Printed (A4 at 96 dpi), nothing of the ledger or of a chapter's cards runs past the paper."""
    try:
        for name in ("ledger", "article1"):
            tab.open(f"{base}/{lang}/{name}.html", {"width": 794, "height": 1123})
            tab.page.emulate_media(media="print")
            wider = tab.page.evaluate("""(() => [...document.querySelectorAll('table.ledger td, div.claim, table')]
                .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1
                             || e.scrollWidth > e.clientWidth + 1).length)()""")
            shown = tab.page.evaluate("getComputedStyle(document.querySelector('.bd-sidebar-primary')).display")
            assert wider == 0 and shown == "none", f"{lang}/{name} printed: {wider} boxes past the paper, sidebar {shown}"
            # A card prints with its details (the rule, the context, the sources), closed on screen.
            hidden = tab.page.evaluate("[...document.querySelectorAll('.claim-details > p')].filter(p => !p.checkVisibility()).length")
            assert hidden == 0, f"{lang}/{name} printed: {hidden} paragraphs of the cards' details left out"
            tab.page.emulate_media(media="screen")
    finally:
        tab.page.emulate_media(media="screen")


@pytest.mark.parametrize("lang", LANGS)
def test_the_price_slider_changes_the_chart(tab, base, lang):
    page = _open(tab, base, f"{lang}/article1.html")
    assert page.locator("div.vega-chart.drawn").count() >= 1, "the bundle did not draw the live chart"
    slider = page.locator('input[type="range"][name="price"]')
    assert slider.count() == 1, "no price slider on the static page"
    chart = page.locator("div.vega-chart", has=slider)
    before = chart.locator("svg").first.inner_html()
    slider.fill("6")
    page.wait_for_timeout(200)
    after = chart.locator("svg").first.inner_html()
    assert before != after, "moving the price slider did not change the chart"


@pytest.mark.parametrize("lang", LANGS)
def test_vega_loads_only_once_a_live_chart_nears_the_screen(browser, base, lang):
    """A page whose live charts are further down loads and settles with their first paints (the SVG
    drawn when the book was built) and no script of Vega's; a reader who scrolls to a chart finds it
    drawn, the bundle and calculator.js fetched once, and a chart further down still a first paint
    until the reader reaches it in turn (here by keyboard); no error (book/_ext/assets.py, LOADER)."""
    phone = browser.new_context(viewport=PHONE, service_workers="block")
    try:
        page = phone.new_page()
        scripts, errors = [], []
        page.on("request", lambda r: scripts.append(urlsplit(r.url).path.rsplit("/", 1)[-1])
                if r.resource_type == "script" else None)
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{base}/{lang}/article1.html", wait_until="load")
        page.wait_for_load_state("networkidle")
        charts = page.locator("div.vega-chart")
        tops = charts.evaluate_all("cs => cs.map(c => c.getBoundingClientRect().top)")
        assert len(tops) >= 2 and tops[0] > 2 * PHONE["height"] and tops[-1] > tops[0] + 3 * PHONE["height"], (
            f"this check needs two live charts, the first two screens down and the next three more: {tops}")
        assert not {"vega-bundle.js", "calculator.js"} & set(scripts), scripts
        assert page.locator("div.vega-chart > svg").count() == len(tops), "a live chart without its first paint"
        assert page.locator("div.vega-chart.drawn").count() == 0
        charts.first.scroll_into_view_if_needed()
        page.wait_for_selector("div.vega-chart.drawn", timeout=10_000)
        page.wait_for_timeout(300)
        assert list(charts.evaluate_all("cs => cs.map(c => c.classList.contains('drawn'))")) == (
            [True] + [False] * (len(tops) - 1)), "a chart far from the screen drawn"
        charts.last.focus()
        page.wait_for_function("() => [...document.querySelectorAll('div.vega-chart')].pop().classList.contains('drawn')",
                               timeout=10_000)
        assert scripts.count("vega-bundle.js") == 1 and scripts.count("calculator.js") == 1, scripts
        assert errors == [], errors
    finally:
        phone.close()


@pytest.mark.parametrize("lang", LANGS)
def test_the_language_switch_lands_on_the_same_page(tab, base, lang):
    other = [x for x in LANGS if x != lang][0]
    page = _open(tab, base, f"{lang}/method.html")
    page.click(f'.language-switch a[hreflang="{other}"]')
    page.wait_for_load_state("load")
    assert re.search(rf"/{other}/method\.html$", page.url), page.url
    assert page.evaluate("document.documentElement.lang") == other
    # From a claim's card, the switch lands on the same card in the other language.
    page = _open(tab, base, f"{lang}/article1.html#a1-opt-cost")
    page.click(f'.language-switch a[hreflang="{other}"]')
    page.wait_for_load_state("load")
    assert page.url.endswith(f"/{other}/article1.html#a1-opt-cost"), page.url
    # From a section, whose id is its title in the page's language, to the same section in the other.
    sections = "els => els.map(e => e.id)"
    here = _open(tab, base, f"{lang}/costs.html").eval_on_selector_all("article section[id]", sections)
    page = _open(tab, base, f"{lang}/costs.html#{here[7]}")
    page.click(f'.language-switch a[hreflang="{other}"]')
    page.wait_for_load_state("load")
    there = page.eval_on_selector_all("article section[id]", sections)
    assert len(there) == len(here) and page.url.endswith(f"/{other}/costs.html#{there[7]}"), (page.url, there)
    top = page.evaluate(f"document.getElementById({there[7]!r}).getBoundingClientRect().top")
    assert 0 <= top < page.viewport_size["height"] / 2, f"{there[7]} is at {top} px, not in view"


@pytest.mark.parametrize("lang", LANGS)
def test_a_card_s_link_gives_its_address_and_copies_it(tab, base, lang):
    """The link at a card's foot puts the card's address in the address bar and, where the page may
    write to the clipboard, copies it, and the card says so in the page's language."""
    from lib.core.words import words

    tab.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    page = _open(tab, base, f"{lang}/article1.html")
    link = page.locator("#a1-opt-cost .claim-link a")
    assert link.inner_text() == words(lang)["card"]["link"]
    link.click()
    page.wait_for_function("() => location.hash === '#a1-opt-cost'", timeout=3000)
    said = page.locator("#a1-opt-cost .claim-link-said")
    said.wait_for(state="attached")
    page.wait_for_function("el => el.textContent !== ''", arg=said.element_handle(), timeout=3000)
    assert said.inner_text() == words(lang)["card"]["copied"]
    assert page.evaluate("navigator.clipboard.readText()") == f"{base}/{lang}/article1.html#a1-opt-cost"


def _contrast(foreground: str, background: str) -> float:
    """WCAG contrast ratio of two CSS rgb()/rgba() colours."""
    def luminance(css: str) -> float:
        r, g, b = (int(x) / 255 for x in re.findall(r"[\d.]+", css)[:3])
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    high, low = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("mode", ["light", "dark"])
def test_back_to_top_button_has_enough_contrast(tab, base, mode):
    # Hidden until the reader scrolls back up, so axe-core does not see it in a page load.
    page = _open(tab, base, "es/article1.html")
    page.evaluate(f"document.documentElement.dataset.theme = '{mode}'")
    colours = page.evaluate("(() => { const s = getComputedStyle(document.getElementById('pst-back-to-top'));"
                            " return [s.color, s.backgroundColor]; })()")
    assert _contrast(*colours) >= 4.5, f"back-to-top {colours}: {_contrast(*colours):.1f}:1"


@pytest.mark.parametrize("lang", LANGS)
def test_the_search_box_finds_pages(tab, base, lang):
    # The pages do not load Sphinx's search scripts (book/_templates/layout.html): the box opens
    # search.html, which does.
    page = _open(tab, base, f"{lang}/method.html")
    page.locator("button.search-button-field").first.click()
    page.keyboard.type("LoRA")
    page.keyboard.press("Enter")
    page.wait_for_selector("#search-results li", timeout=10_000)
    assert re.search(rf"/{lang}/search\.html\?q=LoRA", page.url)
    assert page.locator("#search-results li").count() >= 1


@pytest.mark.parametrize("lang, chapter", [("es", "article1"), ("en", "article2")])
def test_each_calculator_control_changes_its_readout_to_what_lib_computes(tab, base, lang, chapter):
    """Move each slider of the rental calculator on the static page and read the readout, then
    choose each run: the sliders follow the run, and the readout is what lib.calculators.rental.rental_readout
    gives for the same inputs (in chips for PaLM), in the page's language."""
    from lib.calculators.rental import PRESET_SIGNAL, RANGES, SIGNALS, rental_presets, rental_readout
    from lib.core.inputs import load_inputs

    page = _open(tab, base, f"{lang}/{chapter}.html")
    sliders = {name: page.locator(f'input[type="range"][name="{signal}"]') for name, signal in SIGNALS.items()}
    assert all(s.count() == 1 for s in sliders.values()), "the calculator's sliders are missing"
    chart = page.locator("div.vega-chart", has=sliders["gpus"])
    run = chart.locator(f'select[name="{PRESET_SIGNAL}"]')

    def readout_is(values, what) -> None:
        _readout_shows(page, chart, rental_readout(lang, *values, run.input_value()), what)

    for name, value in (("gpus", "1000"), ("days", "30"), ("price", "2.5")):
        sliders[name].fill(value)
        readout_is([float(s.input_value()) for s in sliders.values()], name)
    # The run the page starts from comes last: choosing the option already chosen changes nothing.
    start = run.input_value()
    for key, values in sorted(rental_presets(load_inputs()).items(), key=lambda kv: kv[0] == start):
        run.select_option(key)
        readout_is(values, key)
        for (name, slider), value in zip(sliders.items(), values):
            assert float(slider.input_value()) == pytest.approx(value, abs=RANGES[name][2] / 2), (key, name)


@pytest.mark.parametrize("lang", LANGS)
def test_the_run_reads_custom_once_a_control_leaves_it_and_a_custom_calculation_travels(tab, base, lang):
    """The rental calculator's run list shows "custom" (in the page's language) as soon as a slider is
    moved or a value typed, and keeps every value; choosing a run again moves the sliders to it; the
    address of a custom calculation opens the same calculation."""
    from lib.calculators.rental import CUSTOM, PRESET_SIGNAL, RANGES, SIGNALS, rental_presets, rental_readout
    from lib.core import fmt
    from lib.core.inputs import load_inputs
    from lib.core.words import words

    page = _open(tab, base, f"{lang}/article2.html")
    sliders = {name: page.locator(f'input[type="range"][name="{signal}"]') for name, signal in SIGNALS.items()}
    chart = page.locator("div.vega-chart", has=sliders["gpus"])
    run = chart.locator(f'select[name="{PRESET_SIGNAL}"]')
    start = run.input_value()
    assert start != CUSTOM
    assert run.locator(f'option[value="{CUSTOM}"]').text_content() == words(lang)["calculator"]["presets"][CUSTOM]
    sliders["gpus"].fill("1000")
    page.wait_for_function("s => s.value === 'custom'", arg=run.element_handle(), timeout=3000)
    sliders["price"].fill("2.5")  # a second slider, moved once the run reads custom
    values = [float(s.input_value()) for s in sliders.values()]
    assert values[0] == 1000 and values[2] == 2.5
    _readout_shows(page, chart, rental_readout(lang, *values), "moving two sliders")
    run.select_option(start)
    gpus, days, price = rental_presets(load_inputs())[start]
    _readout_shows(page, chart, rental_readout(lang, gpus, days, price, start), "choosing the run again")
    for (name, slider), value in zip(sliders.items(), (gpus, days, price)):
        assert float(slider.input_value()) == pytest.approx(value, abs=RANGES[name][2] / 2), name
    field = page.locator(f'.vega-bind:has(input[name="{SIGNALS["days"]}"]) input.calculator-number')
    field.fill(fmt.number(7, lang))
    field.press("Enter")
    page.wait_for_function("s => s.value === 'custom'", arg=run.element_handle(), timeout=3000)
    _readout_shows(page, chart, rental_readout(lang, gpus, 7, price), "typing a value")
    run.select_option(CUSTOM)  # keeps the values
    _readout_shows(page, chart, rental_readout(lang, gpus, 7, price), "choosing custom")
    page.wait_for_function("() => new URLSearchParams(location.search).get('calc_run') === 'custom'", timeout=3000)
    address = page.url
    page = _open(tab, base, address.split(base + "/", 1)[1])
    chart = page.locator("div.vega-chart", has=page.locator(f'input[name="{SIGNALS["gpus"]}"]'))
    _readout_shows(page, chart, rental_readout(lang, gpus, 7, price), f"opening {address}")
    assert chart.locator(f'select[name="{PRESET_SIGNAL}"]').input_value() == CUSTOM


@pytest.mark.parametrize("lang", LANGS)
def test_the_opt_price_and_the_budget_ladder_are_set_by_typing(tab, base, lang):
    """The OPT price slider and the budget ladder have a field too: a price typed in the page's
    number style sets the slider and the address; the ladder's field takes dollars (its slider moves
    by powers of ten) and refuses a budget below its axis with the widgets' message; no page reloads."""
    import math

    from lib.core import fmt
    from lib.core.words import words

    page = _open(tab, base, f"{lang}/article1.html")
    page.evaluate("window.stillHere = true")
    field = page.locator('.vega-bind:has(input[name="price"]) input.calculator-number')
    assert field.count() == 1, "the OPT price slider has no field"
    field.fill(fmt.number(3.5, lang, 2))
    field.press("Enter")
    page.wait_for_function("() => new URLSearchParams(location.search).get('price') === '3.5'", timeout=3000)
    assert page.locator('input[type="range"][name="price"]').input_value() == "3.5"
    assert page.evaluate("window.stillHere === true"), "pressing Enter in a field reloaded the page"

    page = _open(tab, base, f"{lang}/budget.html")
    page.evaluate("window.stillHere = true")
    field = page.locator('.vega-bind:has(input[name="budget_power"]) input.calculator-number')
    slider = page.locator('input[type="range"][name="budget_power"]')
    assert field.count() == 1, "the budget ladder's slider has no field"
    field.fill(fmt.number(20_000, lang))
    field.press("Enter")
    page.wait_for_function("() => Math.abs(new URLSearchParams(location.search).get('budget_power')"
                           " - Math.log10(20000)) < 1e-9", timeout=3000)
    assert field.input_value() == fmt.number(20_000, lang)
    # 10 to the log of 99.5 falls just under 99.5 in Chromium: whole dollars must still write 100.
    field.fill(fmt.number(99.5, lang, 1))
    field.press("Enter")
    page.wait_for_function("() => Math.abs(new URLSearchParams(location.search).get('budget_power')"
                           " - Math.log10(99.5)) < 1e-9", timeout=3000)
    yours = words(lang)["budget"]["chart"]["yours"]
    readout = page.locator("div.vega-chart svg text", has_text=yours + ":")
    assert field.input_value() == fmt.number(100, lang), f"a typed 99.5 reads {field.input_value()!r}"
    assert fmt.number(100, lang) in readout.first.text_content(), readout.first.text_content()
    low = float(slider.get_attribute("min"))
    field.fill(fmt.number(3, lang))
    field.press("Enter")
    name = slider.evaluate("s => s.closest('label').querySelector('.vega-bind-name').textContent").strip().rstrip(":")
    said = words(lang)["errors"]["range"].format(name=name, low=fmt.number(10 ** low, lang),
                                                 high=fmt.number(10 ** float(slider.get_attribute("max")), lang))
    assert page.locator(".calculator-note").first.text_content() == said
    assert math.isclose(float(query(page.url)["budget_power"]), math.log10(99.5)), "a refused budget moved the ladder"
    assert page.evaluate("window.stillHere === true"), "pressing Enter in a field reloaded the page"
    # The field shows the ladder's largest budget whole, at a phone's width too.
    field.fill(fmt.number(10 ** float(slider.get_attribute("max")), lang))
    field.press("Enter")
    for width in (1366, 390):
        page.set_viewport_size({"width": width, "height": 844})
        assert field.evaluate("f => f.scrollWidth <= f.clientWidth"), f"{field.input_value()} is cut off at {width} px"
    page.set_viewport_size({"width": 1366, "height": 900})


@pytest.mark.parametrize("lang", LANGS)
def test_a_calculator_is_set_by_typing_in_the_page_s_number_style(tab, base, lang):
    """Beside each slider of the rental calculator, a field: a number typed as the page writes numbers
    sets the slider, the readout (what lib computes) and the address; one outside the slider's range,
    or not a number, gets the widgets' own message in the page's language and changes nothing."""
    from lib.calculators.rental import RANGES, SIGNALS, rental_readout
    from lib.core import fmt
    from lib.core.words import words

    page = _open(tab, base, f"{lang}/article2.html")
    page.evaluate("window.stillHere = true")  # Enter in a field must not submit the controls' form
    fields = {name: page.locator(f'.vega-bind:has(input[name="{signal}"]) input.calculator-number')
              for name, signal in SIGNALS.items()}
    assert all(f.count() == 1 for f in fields.values()), "a slider of the rental calculator has no field"
    chart = page.locator("div.vega-chart", has=fields["gpus"])
    sliders = {name: page.locator(f'input[type="range"][name="{signal}"]') for name, signal in SIGNALS.items()}
    run = chart.locator("select").input_value()
    for name, value in (("gpus", 16_384), ("days", 54.5), ("price", 2.25)):
        fields[name].fill(fmt.number(value, lang, 0 if value == int(value) else 2))
        fields[name].press("Enter")
        page.wait_for_function("([s, v]) => new URLSearchParams(location.search).get(s) == v",
                               arg=[SIGNALS[name], str(value)], timeout=3000)
    _readout_shows(page, chart, rental_readout(lang, 16_384, 54.5, 2.25, run), "typing three values")
    assert float(sliders["gpus"].input_value()) == 16_384
    # Off the sliders' steps (hundredths): taken at the nearest step, which the field then writes, so
    # that the readout's factors multiply to its totals (1.333 would read "$1.33" beside 1.333's cost).
    for name, typed, used in (("days", 7.125, 7.13), ("price", 1.333, 1.33)):
        fields[name].fill(fmt.number(typed, lang, 3))
        fields[name].press("Enter")
        page.wait_for_function("([s, v]) => new URLSearchParams(location.search).get(s) == v",
                               arg=[SIGNALS[name], str(used)], timeout=3000)
        assert fields[name].input_value() == fmt.number(used, lang, 2), fields[name].input_value()
    _readout_shows(page, chart, rental_readout(lang, 16_384, 7.13, 1.33, run), "typing values off the steps")
    for name, value in (("days", 54.5), ("price", 2.25)):
        fields[name].fill(fmt.number(value, lang, 2))
        fields[name].press("Enter")
        page.wait_for_function("([s, v]) => new URLSearchParams(location.search).get(s) == v",
                               arg=[SIGNALS[name], str(value)], timeout=3000)
    errors = words(lang)["errors"]
    name = sliders["gpus"].evaluate("s => s.closest('label').querySelector('.vega-bind-name').textContent")
    name = name.strip().rstrip(":")
    low, high = (fmt.number(v, lang) for v in RANGES["gpus"][:2])
    for typed, said in (("0", errors["range"].format(name=name, low=low, high=high)),
                        ("mil", errors["number"].format(name=name)),
                        (fmt.number(992.5, lang, 1), errors["whole"].format(name=name))):
        fields["gpus"].fill(typed)
        fields["gpus"].press("Enter")
        note = chart.locator(".calculator-note").first
        assert note.text_content() == said and fields["gpus"].get_attribute("aria-invalid") == "true"
        assert query(page.url)[SIGNALS["gpus"]] == "16384", "a refused value changed the calculator"
    assert page.evaluate("window.stillHere === true"), "pressing Enter in a field reloaded the page"
    # Moving another control clears it too: the refused value does not stay beside a readout that moved.
    sliders["days"].fill("30")
    page.wait_for_function("s => new URLSearchParams(location.search).get(s) == '30'", arg=SIGNALS["days"])
    assert chart.locator(".calculator-note").first.text_content() == ""
    assert fields["gpus"].input_value() == fmt.number(16_384, lang), fields["gpus"].input_value()
    # Moving the slider again clears the message.
    sliders["gpus"].fill("2048")
    page.wait_for_function("s => new URLSearchParams(location.search).get(s) == '2048'", arg=SIGNALS["gpus"])
    assert chart.locator(".calculator-note").first.text_content() == ""
    assert fields["gpus"].input_value() == fmt.number(2048, lang) and fields["gpus"].get_attribute("aria-invalid") is None
    # The link below the calculator holds this calculation; following it copies it, and it says so.
    tab.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    link = page.locator(".calculator-link a", has_text=words(lang)["calculator"]["link"])
    assert link.count() == 1
    link.click()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith(f"{base}/{lang}/article2.html?") and "#chart-" in copied, copied
    assert query(copied) == query(page.url) and query(page.url)[SIGNALS["days"]] == "30", copied
    assert page.locator(".calculator-link span").text_content() == words(lang)["calculator"]["copied"]


def query(url: str) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(url).query))


def _planner_readout(lang: str, values: dict, checkpointing: bool) -> dict[str, str]:
    """The planner's readout from lib for the controls' values as the page holds them, line by line: by the
    book's speed model with its range, or, where the speed is by the utilisation set (plan_speed_by), at it."""
    from lib.calculators.planner import readout

    # The sequence, the batch and the tokens are held as powers of ten; a price of 0 is the book's.
    return readout(lang, values["model"], values["method"], int(values["rank"]), values["targets"],
                   round(10 ** float(values["seq"])), round(10 ** float(values["batch"])), checkpointing,
                   values["attention"], values["gpu"], round(10 ** float(values["tokens"])),
                   utilisation=float(values["utilisation"]) if values.get("speed_by", "model") == "set" else None,
                   gpus=int(values.get("gpus", 1)), sharding=values.get("sharding", "ddp"),
                   optimizer=values.get("optimizer", "adamw"), grad_accum=int(values.get("grad_accum", 1)),
                   price_usd=float(values.get("price", 0)) or None)


def _planner_lines(lang: str, values: dict, checkpointing: bool) -> list[str]:
    """The planner's readout's non-empty lines, in order (_planner_readout)."""
    from lib.calculators.planner import LINES

    lines = _planner_readout(lang, values, checkpointing)
    return [lines[k] for k in LINES if lines[k]]


@pytest.mark.parametrize("lang", LANGS)
def test_each_planner_control_changes_its_readout_to_what_lib_computes(tab, base, lang):
    """Move each control of the planner's chapter on the static page (the lists, the sliders,
    the checkpointing box) and read the readout: every line is what lib.plan and lib.core.figure give for
    the same settings, in the page's language, and none runs past the chart; a screen reader hears it."""
    from lib.calculators.planner import SIGNALS, start
    from lib.core import fmt
    from lib.core.inputs import load_inputs
    from lib.core.words import words

    s = start(load_inputs())
    # The sliders whose start lies between two of their steps hold that start until moved: their values. The
    # sequence and the batch are typed in their fields, exactly (their sliders hold powers of ten, at the
    # slider's nearest step): what was typed is what they hold.
    unmoved = {"tokens": str(math.log10(s["tokens"])), "utilisation": str(s["utilisation"]),
               "seq": str(math.log10(s["seq"])), "batch": str(math.log10(s["batch"]))}
    typed: dict[str, str] = {}
    page = _open(tab, base, f"{lang}/plan.html")
    controls = {name: page.locator(f'.vega-bind [name="{signal}"]') for name, signal in SIGNALS.items()}
    assert all(c.count() == 1 for c in controls.values()), "the planner's controls are missing"
    chart = page.locator("div.vega-chart", has=controls["rank"])
    # QLoRA of LLaMA 65B on every linear layer at rank 64, four sequences of 2,048 with checkpointing, on
    # an A100 80GB; eager attention; a hundred million tokens (10^8); then a sequence beyond its positions,
    # all by the book's speed model (its range under each figure); then a node of eight GPUs under ZeRO-3 with
    # bitsandbytes' paged 8-bit AdamW, four micro-batches a step and a price of one's own; a sequence of
    # 3,000 and a batch of 200 (past the old slider's 64); at a utilisation the reader sets (30 %, no range),
    # and by the model again. The tokens move first: they start between two steps of their slider, where it
    # cannot say what it holds (the utilisation too, which the readout reads once it is chosen). The
    # utilisation's slider and field are disabled while the speed is the model's (planner.IDLE).
    steps = (("tokens", "8"), ("model", "llama-65b"), ("method", "qlora"), ("targets", "all"), ("rank", "64"),
             ("seq", 2048), ("batch", 4), ("checkpointing", True), ("attention", "eager"), ("gpu", "a100-80gb"),
             ("seq", 4096), ("gpus", "8"), ("sharding", "zero3"), ("optimizer", "paged-adamw-8bit"),
             ("grad_accum", "4"), ("price", "2.5"), ("seq", 3000), ("batch", 200), ("speed_by", "set"),
             ("utilisation", "0.3"), ("speed_by", "model"))
    text = words(lang)["calculator_plan"]
    ranged = {"model": False, "set": False}  # whether a range line was seen by each way of timing
    written: set[str] = set()  # the readout's lines written at some step
    for name, value in steps:
        if name == "checkpointing":
            controls[name].check()
        elif isinstance(value, int):  # a count typed in its field, in the page's number style
            field = controls[name].locator("xpath=ancestor::label/following-sibling::input[1]")
            field.fill(fmt.number(value, lang, 0))
            field.press("Enter")
            typed[name] = str(math.log10(value))
        elif controls[name].evaluate("e => e.tagName") == "SELECT":
            controls[name].select_option(value)
        else:
            controls[name].fill(value)
        unmoved.pop(name, None)
        values = {n: c.input_value() for n, c in controls.items() if n != "checkpointing"}
        checkpointing = controls["checkpointing"].is_checked()
        if name not in typed:
            assert (checkpointing if name == "checkpointing" else values[name]) == value
        utilisation = [controls["utilisation"], controls["utilisation"].locator("xpath=ancestor::label/following-sibling::input[1]")]
        assert [u.is_disabled() for u in utilisation] == [values["speed_by"] == "model"] * 2, f"after {name} = {value}"
        want = _planner_lines(lang, values | unmoved | typed, checkpointing)
        shown = _planner_readout(lang, values | unmoved | typed, checkpointing)
        written |= {k for k, v in shown.items() if v}
        ranged[values["speed_by"]] |= any(shown[k] for k in ("speed_range", "time_range", "cost_range", "euros_range"))
        _readout_shows(page, chart, want, f"{name} = {value}")
        # In lib's order, top to bottom, after each move (Vega keeps each line's datum from one setting to the next).
        placed = chart.evaluate("el => [...el.querySelectorAll('g.mark-text.role-mark text')]"
                                ".map(t => [t.getBoundingClientRect().top, t.textContent])")
        assert [t for _, t in sorted(placed)] == want, f"after {name} = {value}: lines out of order: {sorted(placed)}"
        over = chart.evaluate("el => { const box = el.querySelector('svg').getBoundingClientRect();"
                              " return [...el.querySelectorAll('g.mark-text.role-mark text')]"
                              ".filter(t => t.getBoundingClientRect().right > box.right).map(t => t.textContent); }")
        assert not over, f"after {name} = {value}: lines run past the readout: {over}"
        said = "([el, want]) => { const p = el.nextElementSibling; return !!p && p.getAttribute('aria-live') === 'polite'" \
               " && want.every(w => p.textContent.includes(w)); }"
        try:
            page.wait_for_function(said, arg=[chart.element_handle(), want], timeout=3000)
        except Exception:
            pytest.fail(f"after {name} = {value}: the live region says "
                        f"{chart.evaluate('el => el.nextElementSibling && el.nextElementSibling.outerHTML')!r}")
    assert ranged == {"model": True, "set": False}, f"range lines by the model and at a set utilisation: {ranged}"
    # On the way: a node's share, the peak as its sum, the global batch, the reader's price beside the book's, the
    # warning beyond the model's positions; the address holds every control.
    assert {"node", "buffers", "alive", "term_weights", "global_batch", "price_book", "warning"} <= written, written
    held = query(page.url)
    assert set(SIGNALS.values()) <= set(held) and round(10 ** float(held[SIGNALS["seq"]])) == 3000, held


@pytest.mark.parametrize("lang", LANGS)
def test_a_pasted_config_is_planned_as_lib_plans_its_file(tab, base, lang):
    """The page reads a pasted config.json as lib.plan reads a config's file: for shipped configs of three
    architectures its constants are lib's (planner.constants: the shape, the parameter count, the adapters,
    the activations' terms); pasted in its box, Mistral 7B's config gives the readout lib gives for that
    shape, in place of the list's model; a config lib refuses gets lib's message in the page's language
    under the box and no figure in the readout; emptied, the list's model is back."""
    import json

    from lib.calculators.planner import LINES, constants, own_options, readout, start
    from lib.core import fmt
    from lib.core.inputs import load_inputs
    from lib.core.words import words
    from lib.plan import memory
    from lib.plan.errors import PlanError, message
    from lib.plan.shapes import load_config, param_count, shape

    i = load_inputs()
    page = _open(tab, base, f"{lang}/plan.html")
    controls, chart = _planner(page)
    own, table = own_options(lang), constants(i)

    def written(value):  # as the page writes a shipped model's table (planner.literal)
        if isinstance(value, dict):
            return {k: written(v) for k, v in value.items()}
        if isinstance(value, list):
            return [written(v) for v in value]
        return value if isinstance(value, str) else float(f"{float(value):.10g}")

    for name in ("llama-3.1-8b", "gpt2", "mixtral-8x7b-instruct"):
        got = page.evaluate("([t, o]) => window.bookPlannerModel(t, o)", [json.dumps(load_config(name)), own])
        s = shape(load_config(name))
        fields = ("model_type", "arch", "vocab", "hidden", "layers", "heads", "kv_heads", "head_dim", "intermediate",
                  "experts", "experts_per_token", "max_positions")
        assert {f: got["shape"][f] for f in fields} == {f: getattr(s, f) for f in fields}, name
        assert got["m"]["total"] == written(param_count(s)["total"]), name
        assert got["m"]["default_attention"] == memory.default_attention(s), name
        assert written({k: got["m"][k] for k in table[name]}) == written(table[name]), name
    area = chart.locator("textarea")
    note = area.locator("xpath=ancestor::label/following-sibling::p[1]")
    s = start(i)
    s["tokens"] = round(10 ** math.log10(s["tokens"]))  # as the page's slider of powers of ten holds it
    mistral = shape(load_config("mistral-7b"))
    area.fill(json.dumps(load_config("mistral-7b"), indent=2))
    area.dispatch_event("change")
    lines = readout(lang, s["model"], s["method"], s["rank"], s["targets"], s["seq"], s["batch"], False,
                    memory.default_attention(mistral), s["gpu"], s["tokens"], i, model_shape=mistral)
    _readout_shows(page, chart, [lines[k] for k in LINES if lines[k]], "Mistral 7B's config pasted")
    assert fmt.number(param_count(mistral)["total"], lang, 0) in note.text_content(), note.text_content()
    text = words(lang)["calculator_plan"]
    for bad in ('{"model_type": "llama", "hidden_size": 64}', '{"model_type": "bert"}', "[1, 2]"):
        area.fill(bad)
        area.dispatch_event("change")
        try:
            planner_shape = shape(json.loads(bad)) if bad.startswith("{") else PlanError("not_object", path=text["pasted"])
        except PlanError as refused:
            planner_shape = refused
        assert isinstance(planner_shape, PlanError)
        said = text["error"].format(message=message(planner_shape, lang))
        page.wait_for_function("([el, said]) => el.textContent === said", arg=[note.element_handle(), said], timeout=3000)
        _readout_shows(page, chart, [text["config_bad"], text["config_bad_more"]], f"{bad} pasted")
        assert not [line for line in _drawn(chart) if "GB" in line], _drawn(chart)
    area.fill("")
    area.dispatch_event("change")
    lines = readout(lang, s["model"], s["method"], s["rank"], s["targets"], s["seq"], s["batch"], False, s["attention"],
                    s["gpu"], s["tokens"], i)
    _readout_shows(page, chart, [lines[k] for k in LINES if lines[k]], "the box emptied")


def _planner(page):
    """The planner's controls by name, and its chart."""
    from lib.calculators.planner import SIGNALS

    controls = {name: page.locator(f'.vega-bind [name="{signal}"]') for name, signal in SIGNALS.items()}
    return controls, page.locator("div.vega-chart", has=controls["rank"])


def _drawn(chart) -> list[str]:
    return chart.locator("g.mark-text.role-mark text").evaluate_all("els => els.map(e => e.textContent)")


@pytest.mark.parametrize("lang", LANGS)
def test_the_planner_gives_no_time_or_cost_for_a_job_that_does_not_fit(tab, base, lang):
    """Full fine-tuning of LLaMA 65B on the H100 SXM: the readout says that it does not fit, and so gives
    no speed, time, cost or price; back to LoRA of LLaMA 7B, they return."""
    from lib.calculators.planner import start
    from lib.core.inputs import load_inputs
    from lib.core.words import words

    s, text = start(load_inputs()), words(lang)["calculator_plan"]
    values = {"model": "llama-65b", "method": "full-mixed", "rank": str(s["rank"]), "targets": s["targets"],
              "seq": str(math.log10(s["seq"])), "batch": str(math.log10(s["batch"])), "attention": s["attention"], "gpu": s["gpu"],
              "tokens": str(math.log10(s["tokens"])), "utilisation": str(s["utilisation"])}
    page = _open(tab, base, f"{lang}/plan.html")
    controls, chart = _planner(page)
    controls["model"].select_option("llama-65b")
    controls["method"].select_option("full-mixed")
    want = _planner_lines(lang, values, False)
    assert text["no_fit_time"] in want
    _readout_shows(page, chart, want, "full fine-tuning of LLaMA 65B")
    heads = [text[key].split("{")[0] for key in ("speed", "cost", "euros", "price")]
    assert not [t for t in _drawn(chart) if any(t.startswith(h) for h in heads if h)], _drawn(chart)
    controls["model"].select_option("llama-7b")
    controls["method"].select_option("lora")
    _readout_shows(page, chart, _planner_lines(lang, values | {"model": "llama-7b", "method": "lora"}, False), "LoRA of LLaMA 7B")
    assert text["no_fit_time"] not in _drawn(chart)


@pytest.mark.parametrize("lang", LANGS)
def test_choosing_gpt_oss_sets_eager_attention_and_its_notes(tab, base, lang):
    """Choosing gpt-oss-20b sets its attention to eager (the address says so too) and the readout gives the
    utilisation OpenAI's example ran at; QLoRA adds that its fused experts stay in fp32; sdpa chosen by hand
    says to choose eager; another model sets its own default attention again. On a 390 px phone every line
    stays inside the chart."""
    from lib.calculators.planner import SIGNALS, start
    from lib.core.inputs import load_inputs
    from lib.core.words import words

    from lib.calculators.planner import default_utilisation

    i = load_inputs()
    s, text = start(i), words(lang)["calculator_plan"]
    # Choosing gpt-oss-20b also sets the utilisation its cookbook example ran at; QLoRA turns checkpointing on.
    values = {"model": "gpt-oss-20b", "method": s["method"], "rank": str(s["rank"]), "targets": s["targets"],
              "seq": str(math.log10(s["seq"])), "batch": str(math.log10(s["batch"])), "attention": "eager", "gpu": s["gpu"],
              "tokens": str(math.log10(s["tokens"])), "utilisation": str(default_utilisation("gpt-oss-20b", i))}
    visit = tab.open(f"{base}/{lang}/plan.html", PHONE)
    assert visit.errors == [], visit.errors
    page = tab.page
    controls, chart = _planner(page)
    controls["model"].select_option("gpt-oss-20b")
    page.wait_for_function("s => new URLSearchParams(location.search).get(s) === 'eager'", arg=SIGNALS["attention"],
                           timeout=3000)
    assert controls["attention"].input_value() == "eager"
    want = _planner_lines(lang, values, False)
    assert text["measured"] in want
    _readout_shows(page, chart, want, "choosing gpt-oss-20b")
    controls["method"].select_option("qlora")
    assert controls["checkpointing"].is_checked()
    want = _planner_lines(lang, values | {"method": "qlora"}, True)
    assert text["qlora_experts"] in want
    _readout_shows(page, chart, want, "QLoRA of gpt-oss-20b")
    over = chart.evaluate("el => { const box = el.querySelector('svg').getBoundingClientRect();"
                          " return [...el.querySelectorAll('g.mark-text.role-mark text')]"
                          ".filter(t => t.getBoundingClientRect().right > Math.min(box.right, window.innerWidth))"
                          ".map(t => t.textContent); }")
    assert not over, f"at {PHONE['width']} px, lines run past the readout: {over}"
    controls["attention"].select_option("sdpa")
    _readout_shows(page, chart, [text["no_attention"].format(attention="eager"), text["no_attention_more"]],
                   "sdpa chosen for gpt-oss-20b")
    controls["model"].select_option("llama-7b")
    page.wait_for_function("s => new URLSearchParams(location.search).get(s) === 'sdpa'", arg=SIGNALS["attention"],
                           timeout=3000)
    _readout_shows(page, chart, _planner_lines(lang, values | {"model": "llama-7b", "method": "qlora", "attention": "sdpa",
                                                           "utilisation": str(s["utilisation"])},
                                                True), "LLaMA 7B after gpt-oss-20b")


@pytest.mark.parametrize("lang", LANGS)
def test_a_calculator_s_state_travels_in_its_address(tab, base, lang):
    """The planner set from its address shows what lib computes for it; moving a control writes the new
    value into the address; the language switch carries the state; a value its widget could not hold
    is left out (the chapter's own stays), with no error."""
    from lib.calculators.planner import SIGNALS, start
    from lib.core.inputs import load_inputs

    other = next(x for x in LANGS if x != lang)
    # A node of two GPUs under ZeRO-2 with 8-bit AdamW, four micro-batches a step and a price of one's own; the
    # sequence (3,000 tokens) and the batch (4) held as their powers of ten, as the page writes them.
    state = {"model": "llama-65b", "method": "qlora", "targets": "all", "rank": "64", "seq": str(math.log10(3000)),
             "batch": str(math.log10(4)), "checkpointing": "true", "attention": "sdpa", "gpu": "a100-80gb",
             "gpus": "2", "sharding": "zero2", "optimizer": "adamw-8bit", "grad_accum": "4", "price": "3.5",
             "tokens": "8", "speed_by": "set", "utilisation": "0.3"}
    query = "&".join(f"{SIGNALS[name]}={value}" for name, value in state.items())

    def shows(page, page_lang, expected: dict, checkpointing: bool):
        """The readout for `expected` (a power of ten may be off the slider's steps: the slider then shows its
        nearest step)."""
        controls = {name: page.locator(f'.vega-bind [name="{signal}"]') for name, signal in SIGNALS.items()}
        chart = page.locator("div.vega-chart", has=controls["rank"])
        _readout_shows(page, chart, _planner_lines(page_lang, expected, checkpointing), f"opening {page.url}")
        held = {n: controls[n].input_value() for n in expected}
        off_steps = ("tokens", "utilisation", "seq", "batch")
        assert {n: round(float(v), 2) if n in off_steps else v for n, v in held.items()} == \
            {n: round(float(v), 2) if n in off_steps else v for n, v in expected.items()}
        assert controls["checkpointing"].is_checked() == checkpointing
        return controls

    values = {k: v for k, v in state.items() if k != "checkpointing"}
    page = _open(tab, base, f"{lang}/plan.html?{query}")
    controls = shows(page, lang, values, True)
    controls["rank"].fill("16")
    page.wait_for_function("() => new URLSearchParams(location.search).get('plan_rank') === '16'", timeout=3000)
    assert all(f"{SIGNALS[n]}={state[n]}" in page.url for n in ("model", "method", "gpu", "checkpointing")), page.url
    anchor = page.locator("div.vega-chart", has=controls["rank"]).get_attribute("id")
    assert page.url.endswith("#" + anchor), page.url  # the calculation's anchor, the same in both languages
    page.click(f'.language-switch a[hreflang="{other}"]')
    page.wait_for_load_state("load")
    assert f"/{other}/plan.html?" in page.url and "plan_rank=16" in page.url, page.url
    shows(page, other, values | {"rank": "16"}, True)
    top = page.locator(f"#{anchor}").evaluate("e => e.getBoundingClientRect().top")
    assert 0 <= top < page.viewport_size["height"], f"the calculator is at {top:.0f}px after the switch"

    # What no widget could hold (a rank of -5, an unknown model, a checkbox of "maybe") is left out.
    bad = f"{SIGNALS['rank']}=-5&{SIGNALS['model']}=gpt9&{SIGNALS['gpu']}=a100-80gb&{SIGNALS['checkpointing']}=maybe"
    page = _open(tab, base, f"{lang}/plan.html?{bad}")
    s = start(load_inputs())
    shows(page, lang, {"model": s["model"], "method": s["method"], "targets": s["targets"], "rank": str(s["rank"]),
                       "seq": str(math.log10(s["seq"])), "batch": str(math.log10(s["batch"])), "attention": s["attention"], "gpu": "a100-80gb",
                       "tokens": str(math.log10(s["tokens"])), "utilisation": str(s["utilisation"])}, False)


@pytest.mark.parametrize("lang", LANGS)
def test_each_compute_calculator_control_changes_its_readout_to_what_lib_computes(tab, base, lang):
    """The compute calculator on the costs page: its first picture is the chapter's start (LLaMA 65B),
    then each control moves the readout (sliders and the chip menu) to what lib.chapters.compute and
    lib.core.figure give for the same inputs, in the page's language; the parameters' and tokens'
    sliders hold powers of ten (a small job: seconds, and less than a cent). The utilisation moves
    first: it starts between two steps of its slider, where the slider cannot say what it holds."""
    from playwright.sync_api import TimeoutError as Timeout

    from lib.calculators.compute import POWERS, SIGNALS, devices, readout, start
    from lib.core.inputs import load_inputs
    from lib.core.words import words

    i = load_inputs()
    page = _open(tab, base, f"{lang}/costs.html")
    controls = {name: page.locator(f'[name="{signal}"]') for name, signal in SIGNALS.items()}
    assert all(c.count() == 1 for c in controls.values()), "the compute calculator's controls are missing"
    chart = page.locator("div.vega-chart", has=controls["params"]).element_handle()

    def shows(lines: dict[str, str]) -> list[str]:
        """The chart's texts once they hold every line (or after two seconds, for the message)."""
        with contextlib.suppress(Timeout):
            page.wait_for_function("([el, lines]) => { const t = [...el.querySelectorAll('svg text')]"
                                   ".map(e => e.textContent); return lines.every(l => t.includes(l)); }",
                                   arg=[chart, list(lines.values())], timeout=2000)
        return chart.eval_on_selector_all("svg text", "els => els.map(e => e.textContent)")

    first = readout(lang, **start(i), i=i)
    texts = shows(first)
    assert all(line in texts for line in first.values()), (first, texts)
    names = words(lang)["calculator_compute"]["devices"]
    # What the controls hold: the start's exact values (between steps, where the sliders cannot say
    # them) until each is moved; the parameters' and tokens' sliders hold powers of ten.
    v = start(i)
    for name, value in (("utilisation", "0.35"), ("params", "9.85"), ("tokens", "12.3"), ("peak", "tpu_v4"),
                        ("price", "2.5"), ("params", "8"), ("tokens", "6.4"), ("peak", "h100"),
                        ("utilisation", "1"), ("price", "0.1")):
        if name == "peak":
            controls[name].select_option(label=names[value])
            v[name] = devices(i)[value]
        else:
            controls[name].fill(value)
            assert controls[name].input_value() == value
            v[name] = round(10 ** float(value)) if name in POWERS else float(value)
        want = readout(lang, **v, i=i)
        texts = shows(want)
        assert all(line in texts for line in want.values()), (name, want, texts)


@pytest.mark.parametrize("lang", LANGS)
def test_the_compute_calculator_takes_exact_counts_typed_and_keeps_them_in_its_address(tab, base, lang):
    """The parameters' and tokens' fields take counts in the page's number style, exactly (GPT-2
    124M's 124.439.808 parameters, not the slider's nearest step): GPT-2's pretraining on the budget
    chapter's tokens at llm.c's utilisation, typed, reads the calculator's own formula (k·N·D over the peak
    at that utilisation, times the price; not the budget chapter's cost, which the planner's speed model
    times: tests/test_compute_calculator.py); the address keeps the calculation, and
    opening it gives the same readout; the sliders' ends are typed as written (20.000.000.000.000
    tokens, though 10 to the slider's end is 20000000000000.004); a count out of range or not whole
    gets the widgets' message and changes nothing."""
    import math

    from lib.calculators.compute import RANGES, SIGNALS, cost_figure, readout
    from lib.chapters import budget, compute
    from lib.core import fmt
    from lib.core.inputs import load_inputs
    from lib.core.words import words

    i = load_inputs()
    row = next(r for r in budget.what_budget_buys(i) if r["job"] == "pretrain" and r["model"] == "gpt2")
    run = {"params": i.llmc_124m_params, "tokens": row["tokens"], "peak": budget.h100_peak(i),
           "utilisation": i.llmc_124m_mfu, "price": i.lambda_h100_sxm_1x}
    page = _open(tab, base, f"{lang}/costs.html")
    page.evaluate("window.stillHere = true")
    fields = {name: page.locator(f'.vega-bind:has(input[name="{SIGNALS[name]}"]) input.calculator-number')
              for name in ("params", "tokens", "utilisation", "price")}
    assert all(f.count() == 1 for f in fields.values()), "a slider of the compute calculator has no field"
    chart = page.locator("div.vega-chart", has=fields["params"])
    page.locator(f'select[name="{SIGNALS["peak"]}"]').select_option(label=words(lang)["calculator_compute"]["devices"]["h100"])
    for name, typed in (("params", fmt.number(run["params"], lang)), ("tokens", fmt.number(run["tokens"], lang)),
                        ("utilisation", fmt.number(run["utilisation"], lang, 2)), ("price", fmt.number(run["price"], lang, 2))):
        fields[name].fill(typed)
        fields[name].press("Enter")
        assert fields[name].input_value() == typed, (name, fields[name].input_value())
    want = readout(lang, **run, i=i)
    hours = compute.flops_to_device_hours(compute.training_flops(run["params"], run["tokens"], i.flops_per_param_token),
                                          run["peak"], run["utilisation"])
    assert want["cost"] == cost_figure(compute.rental_cost(hours, run["price"])).format(lang)
    _readout_shows(page, chart, list(want.values()), "typing GPT-2 124M's pretraining")
    page.wait_for_function("s => new URLSearchParams(location.search).get(s) == '4.29'", arg=SIGNALS["price"], timeout=3000)
    held = query(page.url)
    assert round(10 ** float(held[SIGNALS["params"]])) == run["params"], held
    assert page.evaluate("window.stillHere === true"), "pressing Enter in a field reloaded the page"
    # The address gives the same calculation back, fields and all.
    page = _open(tab, base, f"{lang}/costs.html?" + page.url.split("?", 1)[1])
    chart = page.locator("div.vega-chart", has=page.locator(f'input[name="{SIGNALS["params"]}"]'))
    _readout_shows(page, chart, list(want.values()), "opening the calculation's address")
    field = page.locator(f'.vega-bind:has(input[name="{SIGNALS["params"]}"]) input.calculator-number')
    assert field.input_value() == fmt.number(run["params"], lang)
    # The sliders' ends, typed as the field writes them.
    tokens = page.locator(f'.vega-bind:has(input[name="{SIGNALS["tokens"]}"]) input.calculator-number')
    tokens.fill(fmt.number(RANGES["tokens"][1], lang))
    tokens.press("Enter")
    page.wait_for_function("s => Math.abs(new URLSearchParams(location.search).get(s) - Math.log10(2e13)) < 1e-9",
                           arg=SIGNALS["tokens"], timeout=3000)
    assert tokens.input_value() == fmt.number(RANGES["tokens"][1], lang) and tokens.get_attribute("aria-invalid") is None
    field.fill(fmt.number(RANGES["params"][0], lang))
    field.press("Enter")
    page.wait_for_function("s => new URLSearchParams(location.search).get(s) == '8'", arg=SIGNALS["params"], timeout=3000)
    _readout_shows(page, chart, [readout(lang, RANGES["params"][0], RANGES["tokens"][1], run["peak"], run["utilisation"],
                                         run["price"], i)["cost"]], "typing the sliders' ends")
    # What the fields refuse, with the widgets' message, and nothing moves.
    errors = words(lang)["errors"]
    slider = page.locator(f'input[type="range"][name="{SIGNALS["params"]}"]')
    name = slider.evaluate("s => s.closest('label').querySelector('.vega-bind-name').textContent").strip().rstrip(":")
    low, high = (fmt.number(v, lang) for v in RANGES["params"][:2])
    for typed, said in ((fmt.number(99_999_999, lang), errors["range"].format(name=name, low=low, high=high)),
                        (fmt.number(124_439_808.5, lang, 1), errors["whole"].format(name=name))):
        field.fill(typed)
        field.press("Enter")
        note = chart.locator(".calculator-note").first
        assert note.text_content() == said and field.get_attribute("aria-invalid") == "true", note.text_content()
        assert query(page.url)[SIGNALS["params"]] == "8", "a refused count changed the calculator"
    # Both fields show their longest counts whole, at a phone's width too.
    for width in (1366, 390):
        page.set_viewport_size({"width": width, "height": 844})
        assert tokens.evaluate("f => f.scrollWidth <= f.clientWidth"), f"{tokens.input_value()} is cut off at {width} px"
    page.set_viewport_size({"width": 1366, "height": 900})
    assert math.isclose(float(query(page.url)[SIGNALS["tokens"]]), math.log10(2e13))


@pytest.mark.parametrize("lang", LANGS)
def test_a_tap_on_a_mark_shows_its_tooltip_on_a_phone(browser, base, lang):
    """A touch screen has no hover: tapping a dot of the budget ladder shows its tooltip, in the
    page's language (its rung's name and cost), and tapping another place hides it."""
    from lib.core.words import words

    phone = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, service_workers="block")
    try:
        page = phone.new_page()
        page.goto(f"{base}/{lang}/budget.html", wait_until="load")
        page.locator("div.vega-chart").first.scroll_into_view_if_needed()  # drawn once near the screen
        page.wait_for_selector("div.vega-chart.drawn", timeout=10_000)
        dot = page.locator("div.vega-chart.drawn g.mark-symbol path").first
        dot.scroll_into_view_if_needed()
        box = dot.bounding_box()
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        tip = page.locator("#vg-tooltip-element.visible")
        tip.wait_for(timeout=3_000)
        assert words(lang)["budget"]["head"]["rung"] in tip.inner_text(), tip.inner_text()
        page.touchscreen.tap(5, box["y"] - 60)
        page.wait_for_function("!document.querySelector('#vg-tooltip-element.visible')", timeout=3_000)
    finally:
        phone.close()


@pytest.mark.parametrize("lang", LANGS)
def test_the_visible_contents_buttons_open_the_contents_by_touch_and_keyboard(browser, base, lang):
    """The buttons a reader sees open the book's contents and the page's contents: tapped on a
    390 px phone, pressed with Enter from the keyboard; on a desktop the book's button folds the
    sidebar away. (A second, hidden copy of each button once came first in the page and took the
    themes' handlers, so the visible ones did nothing.)"""
    url = f"{base}/{lang}/about.html"  # a page with both contents and no chart, a third of the method page's size
    phone = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, service_workers="block")
    try:
        page = phone.new_page()
        page.goto(url, wait_until="load")
        for toggle, dialog in ((".primary-toggle", "pst-primary-sidebar-modal"),
                               (".secondary-toggle", "pst-secondary-sidebar-modal")):
            for press in ("tap", "Enter"):
                button = page.locator(f"{toggle}:visible")
                assert button.count() == 1, f"{toggle}: {button.count()} visible buttons"
                if press == "tap":
                    button.tap()
                else:
                    button.focus()
                    page.keyboard.press("Enter")
                # The theme moves the contents into the dialog as it opens it: wait for both.
                try:
                    page.wait_for_function(f"(d => d.open && d.querySelector('a.reference'))"
                                           f"(document.getElementById('{dialog}'))", timeout=3_000)
                except Exception:
                    pytest.fail(f"{dialog} did not open with its contents ({press})")
                page.keyboard.press("Escape")
                # Closed, and its contents moved back (the theme does so on the dialog's "close" event,
                # a task after it closes: opened again before that, the dialog would be emptied).
                page.wait_for_function(f"(d => !d.open && !d.querySelector('a.reference'))"
                                       f"(document.getElementById('{dialog}'))", timeout=3_000)
    finally:
        phone.close()
    desktop = browser.new_context(viewport={"width": 1366, "height": 900}, service_workers="block")
    try:
        page = desktop.new_page()
        page.goto(url, wait_until="load")
        sidebar = page.locator("#pst-primary-sidebar")
        page.locator(".primary-toggle:visible").click()
        page.wait_for_function("getComputedStyle(document.getElementById('pst-primary-sidebar')).visibility === 'hidden'",
                               timeout=3_000)
        page.locator(".primary-toggle:visible").click()
        page.wait_for_function("getComputedStyle(document.getElementById('pst-primary-sidebar')).visibility === 'visible'",
                               timeout=3_000)
        assert sidebar.is_visible()
    finally:
        desktop.close()
