"""The site's strict build, then (with --crawl) the browser's crawl of every page, run once per test
run beside the tests, in a folder every test process can read:

    python -m tests.site_job FOLDER [--crawl]

FOLDER/html is the site, FOLDER/build.log and FOLDER/build.status the build's log and exit status,
FOLDER/crawl.pickle the crawl's results (or its error). tests/conftest.py starts it and waits for it.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build(folder: Path) -> int:
    with open(folder / "build.log", "w", encoding="utf8") as log:
        status = subprocess.call([sys.executable, "-m", "lib.site.build", "--out", str(folder / "html"), "--strict",
                                  "--no-execute"], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    (folder / "build.status").write_text(str(status))
    return status


def crawl(folder: Path, built: bool) -> None:
    from tests.browser import crawl_site

    try:
        if not built:
            raise RuntimeError("the site was not built")
        box = {"result": crawl_site(folder / "html")}
    except BaseException as error:  # noqa: BLE001 - handed to the tests that read the crawl
        box = {"error": error}
    try:
        data = pickle.dumps(box)
    except Exception:  # noqa: BLE001 - an error that does not pickle (Playwright's) is handed on as text
        data = pickle.dumps({"error": RuntimeError(f"the crawl failed: {box.get('error')!r}")})
    partial = folder / "crawl.partial"
    partial.write_bytes(data)
    partial.rename(folder / "crawl.pickle")  # whole, or not there


def main(argv: list[str]) -> int:
    """The build, then the crawl, each timed in the job's log (FOLDER/job.log)."""
    folder = Path(argv[0])
    start = time.perf_counter()
    status = build(folder)
    print(f"site job: build {time.perf_counter() - start:.1f} s (exit {status})", flush=True)
    if "--crawl" in argv:
        start = time.perf_counter()
        crawl(folder, status == 0)
        print(f"site job: crawl {time.perf_counter() - start:.1f} s", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
