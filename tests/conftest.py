import contextlib
import os
import pickle
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("es", "en")
# The tests check the book as _config.yml states it, built as a preview: a published build's addresses
# (SITE_URL, REPOSITORY, lib/site/publisher.py) are tested through lib's functions, never inherited.
for _variable in ("SITE_URL", "REPOSITORY"):
    os.environ.pop(_variable, None)
# A run starts about a hundred Python processes (the test processes, every chapter's kernel, the planner's
# command, the site's build): where the environment says to write no bytecode (PYTHONDONTWRITEBYTECODE, as
# on the machines the book is tested on), each compiles lib and the tests from their source again. They
# write it here, into the __pycache__ folders git ignores.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False


# The longest files that need no built site, first among them, so that each runs beside the others
# rather than after them: a maintainer's update on a copy of the book, and every chapter in JupyterLab.
LONGEST = {"test_update.py", "test_lab.py"}


def pytest_collection_modifyitems(items) -> None:
    """The test files in the order the two test processes take them (pytest-xdist, `--dist
    loadfile`, `--no-loadscope-reorder`; each file's tests keep to one process: a notebook's cells,
    which nbval runs in order in one kernel, among them): first the files that need no built site
    (the longest of them first),
    while the site is built and crawled in the background (started once collection ends); then those
    that read the built site; then nbval's notebooks, short ones that fill the time left; last of
    all the files that read the browser's crawl of every page, the longest job of the run."""
    uses: dict = {}
    for item in items:
        uses.setdefault(item.path, set()).update(getattr(item, "fixturenames", ()))

    def order(item) -> tuple[bool, bool, bool, bool]:
        names = uses[item.path]
        return ("visits" in names, item.path.suffix == ".ipynb", "built_site" in names,
                item.path.name not in LONGEST)

    items.sort(key=order)


def site_folder() -> Path:
    """Where this test run's site is built and crawled: one folder for all of its processes (named
    by the process that started them all: pytest itself, or pytest-xdist's controller)."""
    starter = os.getppid() if os.environ.get("PYTEST_XDIST_WORKER") else os.getpid()
    return Path(tempfile.gettempdir()) / f"book-site-{starter}"


def pytest_configure(config) -> None:
    if not hasattr(config, "workerinput"):  # pytest itself, or the controller of its processes
        shutil.rmtree(site_folder(), ignore_errors=True)  # a folder left by an earlier run of this pid
        # A maintainer's mistake in the registry (an input named twice, a claim without its card,
        # recompute function or inventory entry) stops the run here with one message, before the
        # hundreds of tests that would each trip on it.
        from lib.site.preflight import problems

        found = problems()
        if found:
            pytest.exit("the book's registry is not complete:\n" + "\n".join(f"  - {p}" for p in found), returncode=1)


def pytest_collection_finish(session) -> None:
    """Start the strict build of the site as soon as the tests are collected, when any of them
    needs it, once for all the test processes (the first to get here starts it): it runs beside the
    other tests instead of before the first test that needs it, and the browser's crawl of every
    page follows it (tests/site_job.py). nbval executes every notebook and checks its committed
    outputs against the current lib; the pages are built from those outputs."""
    needed = {name for item in session.items for name in getattr(item, "fixturenames", ())}
    if "built_site" not in needed:
        return
    folder = site_folder()
    try:
        folder.mkdir()
    except FileExistsError:
        return  # another test process started it
    command = [sys.executable, "-m", "tests.site_job", str(folder)] + (["--crawl"] if "visits" in needed else [])
    with open(folder / "job.log", "wb") as log:  # what the job prints (a crash's traceback)
        # A process group of its own: stopping it stops its browser too (pytest_sessionfinish).
        job = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    (folder / "job.pid").write_text(str(job.pid))
    JOB.append(job)


def pytest_terminal_summary(terminalreporter) -> None:
    """The site job's times (its build, its crawl); then the last line a maintainer reads when a
    notebook was saved by a Jupyter front end without the book's configuration
    (lib.site.lab.saved_from_jupyter): which one, and what to run. nbval's own failures on such a
    notebook come above it."""
    from lib.site.lab import saved_from_jupyter

    import nbformat

    for line in TIMES:  # how long the site's build and the browser's crawl took, beside the tests
        terminalreporter.write_line(line)

    for path in sorted((ROOT / "book").glob("*/*.ipynb")):
        with contextlib.suppress(Exception):
            found = saved_from_jupyter(nbformat.read(path, as_version=4))
            if found:
                terminalreporter.write_line(f"{path.relative_to(ROOT)} was saved from Jupyter ({found[0]}): "
                                            "run `make notebooks`", red=True, bold=True)


def pytest_sessionfinish(session) -> None:
    """Once every test process is done (pytest itself, or pytest-xdist's controller, which ends
    last), the site job stops if it still runs (the tests ended first), and its folder goes. A test
    process that runs out of work leaves the job alone: another one may still be reading the crawl."""
    if hasattr(session.config, "workerinput"):
        return
    folder = site_folder()
    with contextlib.suppress(OSError, ValueError):
        os.killpg(int((folder / "job.pid").read_text()), signal.SIGKILL)
    for job in JOB:
        job.wait()
    with contextlib.suppress(OSError):  # the job's own times, for the summary (pytest_terminal_summary)
        TIMES.extend(line for line in (folder / "job.log").read_text(errors="replace").splitlines()
                     if line.startswith("site job: "))
    shutil.rmtree(folder, ignore_errors=True)


JOB: list = []
TIMES: list[str] = []


def _job_ended(folder: Path) -> bool:
    """Whether the site job's process has ended (a zombie, not yet reaped by the test process that
    started it, has ended too). Linux's /proc; elsewhere it is taken to be running."""
    try:
        pid = int((folder / "job.pid").read_text())
    except (OSError, ValueError):
        return False  # not started yet (the test process that starts it writes its pid next)
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return Path("/proc/self").exists()  # no such process, where /proc lists them
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def wait_for(path: Path, what: str, timeout: float = 900) -> Path:
    """`path`, once the site job has written it; a failure, with the job's last words, if the job
    ended without writing it or did not write it in time."""
    deadline = time.monotonic() + timeout
    while not path.exists():
        ended = _job_ended(path.parent)
        if (ended and not path.exists()) or time.monotonic() > deadline:
            log = path.parent / "job.log"
            words = log.read_text(errors="replace")[-5000:] if log.exists() else ""
            pytest.fail(f"{what} {'ended' if ended else f'did not finish in {timeout:.0f} s'} without {path.name}:\n{words}")
        time.sleep(0.2)
    return path


@pytest.fixture(scope="session")
def built_site() -> Path:
    """The site built strictly (warnings are errors) from a clean state into a temporary folder."""
    folder = site_folder()
    assert folder.exists(), "the site build was not started (pytest_collection_finish)"
    status = int(wait_for(folder / "build.status", "the site's build").read_text())
    assert status == 0, "the strict build of the site failed:\n" + (folder / "build.log").read_text()[-20000:]
    return folder / "html"


def crawl_results() -> dict:
    """The browser's crawl of every page (tests/site_job.py), or its error, raised."""
    box = pickle.loads(wait_for(site_folder() / "crawl.pickle", "the browser's crawl").read_bytes())
    if "error" in box:
        raise box["error"]
    return box["result"]


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
            f"{ROOT.parent / 'shared'} is missing: these checks read the articles' text and the source dossier, "
            "kept beside the book in ../shared and not part of the repository (CI has them and runs these checks)"
        )
        if in_ci():
            pytest.fail(f"{path}: {reason} (CI=true: missing shared files are an error)", pytrace=False)
        pytest.skip(reason, allow_module_level=True)
    return path
