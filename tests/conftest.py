import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("es", "en")


def pytest_collection_modifyitems(items) -> None:
    """The tests of the built site run last, and of those the ones that read the browser's crawl
    last of all, so that the build and the crawl (started in the background once collection ends)
    overlap the other tests instead of holding them up."""
    def order(item) -> tuple[bool, bool]:
        names = getattr(item, "fixturenames", ())
        return "built_site" in names, "visits" in names

    items.sort(key=order)


def pytest_collection_finish(session) -> None:
    """Start the strict build of the site as soon as the tests are collected, when any of them
    needs it: it runs beside the other tests (on a second core) instead of before the first test
    that needs it. nbval executes every notebook and checks its committed outputs against the
    current lib; the pages are built from those outputs, not from a second execution."""
    needed = {name for item in session.items for name in getattr(item, "fixturenames", ())}
    if "hidden_fonts_render" in needed:
        # vl-convert's render of every committed chart with the machine's fonts hidden
        # (tests/test_chart_font.py), beside the tests too.
        from .hidden_fonts import start

        HIDDEN_FONTS["started"] = start()
    if "built_site" not in needed:
        return
    out = Path(tempfile.mkdtemp(prefix="book-site-")) / "html"
    log = open(out.parent / "build.log", "w+", encoding="utf8")
    command = [sys.executable, "-m", "lib.site.build", "--out", str(out), "--strict", "--no-execute"]
    BUILD["run"] = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    BUILD.update(out=out, log=log)
    if "visits" in needed:
        # The browser's crawl of every page (tests/test_browser.py) follows the build, also beside the tests.
        from .browser import Background, crawl_site

        def crawl():
            if BUILD["run"].wait() != 0:
                raise RuntimeError("the site was not built")
            return crawl_site(out)

        BUILD["crawl"] = Background(crawl)


def pytest_sessionfinish(session) -> None:
    if "started" in HIDDEN_FONTS and HIDDEN_FONTS["started"]["run"].poll() is None:
        HIDDEN_FONTS["started"]["run"].kill()
        HIDDEN_FONTS["started"]["run"].wait()
    run = BUILD.get("run")
    if run is not None:
        if run.poll() is None:
            run.kill()
            run.wait()
        if "crawl" in BUILD:
            with contextlib.suppress(BaseException):
                BUILD["crawl"].result()
        BUILD["log"].close()
        shutil.rmtree(BUILD["out"].parent, ignore_errors=True)


BUILD: dict = {}
HIDDEN_FONTS: dict = {}


@pytest.fixture(scope="session")
def hidden_fonts_render() -> dict:
    """tests/hidden_fonts.py's render, started once the tests were collected: its result."""
    from .hidden_fonts import finish

    assert "started" in HIDDEN_FONTS, "the render with the fonts hidden was not started (pytest_collection_finish)"
    return finish(HIDDEN_FONTS["started"])


@pytest.fixture(scope="session")
def built_site() -> Path:
    """The site built strictly (warnings are errors) from a clean state into a temporary folder."""
    assert BUILD, "the site build was not started (pytest_collection_finish)"
    status = BUILD["run"].wait()
    BUILD["log"].seek(0)
    assert status == 0, "the strict build of the site failed:\n" + BUILD["log"].read()[-20000:]
    return BUILD["out"]


def chapter_notebooks() -> list[Path]:
    return sorted((ROOT / "book" / "es").glob("*.ipynb"))


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def glue_records(nb) -> dict:
    """Glue key -> the output's data (mimetype -> value), from a notebook's committed outputs."""
    records = {}
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            name = output.get("metadata", {}).get("scrapbook", {}).get("name")
            if name:
                records[name] = output["data"]
    return records


def shared_path(*parts: str) -> Path:
    """A path in the shared folder next to the book (ROOT.parent / "shared" / *parts).

    The folder holds the source dossier and the articles; it is not part of this
    repository. When the path is missing, CI fails (a checkout without it must not pass
    in silence); a local run skips, saying what is missing. Safe to call inside a test
    or at module level (then the whole module is skipped, or fails to collect in CI).
    """
    path = ROOT.parent.joinpath("shared", *parts)
    if not path.exists():
        reason = (
            f"{path} is missing: the shared folder (../shared, with sources/ and articles/) "
            "must sit next to the book's folder"
        )
        if in_ci():
            pytest.fail(f"{reason} (CI=true: missing shared files are an error)", pytrace=False)
        pytest.skip(reason, allow_module_level=True)
    return path
