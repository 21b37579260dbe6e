"""The built site in headless Chromium with every other host unreachable: the page renders,
the vendored Vega-Embed draws the chart, and no request leaves the machine."""

import re
import shutil
import subprocess

import pytest

from .conftest import LANGS, in_ci

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
OFFLINE = [
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-quic",
    # Every host name resolves to nothing: the page must need no other host.
    "--host-resolver-rules=MAP * ~NOTFOUND",
    "--virtual-time-budget=8000",
]


@pytest.fixture(scope="module")
def chromium():
    if CHROMIUM is None:
        if in_ci():
            pytest.fail("CI must install Debian's chromium (see .ci/run)")
        pytest.skip("no chromium here: apt-get install chromium")
    return CHROMIUM


def dom(chromium, page, tmp_path) -> str:
    run = subprocess.run(
        [chromium, *OFFLINE, f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout


@pytest.mark.parametrize("lang", LANGS)
def test_chart_is_drawn_by_vega_embed_offline(built_site, chromium, lang, tmp_path):
    html = dom(chromium, built_site / lang / "article1.html", tmp_path)
    assert f'lang="{lang}"' in html
    # Vega-Embed marks the container it rendered into; the static SVG alone has no such class.
    assert re.search(r'class="[^"]*\bvega-chart\b[^"]*\bvega-embed\b', html), "Vega-Embed did not draw the chart"


def test_ledger_gets_its_filter_and_sortable_headers(built_site, chromium, tmp_path):
    html = dom(chromium, built_site / "en" / "ledger.html", tmp_path)
    assert 'class="ledger-filter"' in html
    assert 'title="Sort"' in html


@pytest.mark.parametrize("lang", LANGS)
def test_the_price_slider_works_without_a_kernel(built_site, chromium, lang, tmp_path):
    html = dom(chromium, built_site / lang / "article1.html", tmp_path)
    assert re.search(r'<input type="range"[^>]*name="price"', html), "no price slider on the static page"
