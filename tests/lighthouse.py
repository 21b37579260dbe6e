"""Lighthouse (npm, package.json) on every page of a built site, served compressed as a static host
serves it: mobile (Lighthouse's default: a phone's screen, slow 4G and a slower CPU, simulated),
performance, accessibility, best practices and SEO, with the first contentful paint.

    python -m tests.lighthouse _build/html          # every page of a built site
    python -m tests.lighthouse _build/html es/costs  # some pages
    python -m tests.lighthouse _build/html --json scores.json

`make bench` runs it on the site it builds. Not part of `make test`: about 15 s a page, and its
performance score measures the machine as much as the site (a busy machine's slower CPU lowers it);
tests/test_pages.py checks what it scores from (each first visit's weight, no render-blocking
script, one style sheet, Vega's runtime only where a chart is live) on every run, and
tests/test_browser.py that the runtime waits until a live chart nears the screen.

The server (serve_compressed) is Python's static file server with what a static host such as GitHub
Pages adds: gzip for text (HTML, CSS, JavaScript, SVG, JSON, XML) to a browser that accepts it, and a
ten-minute cache lifetime.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gzip
import http.server
import io
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
# The issue's targets (issue 39): every page, every category.
TARGETS = {"performance": 98, "accessibility": 100, "best-practices": 100, "seo": 100}
FCP_TARGET_MS = 1800
COMPRESSED = {".html", ".css", ".js", ".svg", ".json", ".xml", ".txt", ".map", ".bib", ".csv"}


class CompressedHandler(http.server.SimpleHTTPRequestHandler):
    """A static file, gzipped when it is text and the browser accepts gzip, with a cache lifetime."""

    def log_message(self, *args) -> None:  # quiet
        pass

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "max-age=600")
        super().end_headers()

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir() and self.path.split("?")[0].endswith("/"):
            path = path / "index.html"
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not accepts or path.suffix not in COMPRESSED or not path.is_file():
            return super().send_head()  # the file as it is, a folder's redirect, or a 404
        body = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


@contextlib.contextmanager
def serve_compressed(site: Path):
    """The site, compressed, on http://127.0.0.1:<free port> for the life of the block (a thread)."""
    handler = functools.partial(CompressedHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def site_pages(site: Path) -> list[str]:
    """Every HTML page of the site, by its path in it (the root's landing page too), but 404.html: a
    host serves it with status 404 at any address, and rightly says noindex; its links and icon are
    absolute (the published address), so served here it fetches another host."""
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html")
                  if "_static" not in p.parts and p.relative_to(site).as_posix() != "404.html")


def chrome() -> str:
    path = os.environ.get("CHROME_PATH") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        raise FileNotFoundError("no chromium (apt-get install chromium), or set CHROME_PATH")
    return path


def audit(url: str) -> dict:
    """One page's four scores (0-100) and first contentful paint (ms), by Lighthouse's mobile preset."""
    if not LIGHTHOUSE.exists():
        raise FileNotFoundError(f"{LIGHTHOUSE} is missing: run `npm ci`")
    with tempfile.TemporaryDirectory(prefix="lighthouse-") as tmp:
        report = Path(tmp) / "report.json"
        run = subprocess.run(
            [str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={report}",
             f"--only-categories={','.join(CATEGORIES)}",
             f"--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage "
             f"--user-data-dir={tmp}/profile"],
            env={**os.environ, "CHROME_PATH": chrome()}, capture_output=True, text=True)
        if run.returncode != 0 or not report.exists():
            raise RuntimeError(f"lighthouse failed on {url}:\n{run.stderr[-2000:]}")
        data = json.loads(report.read_text(encoding="utf8"))
    scores = {c: round(100 * (data["categories"][c]["score"] or 0)) for c in CATEGORIES}
    failed = sorted(a["id"] for c in CATEGORIES[1:] for ref in data["categories"][c]["auditRefs"]
                    if ref["weight"] and (a := data["audits"][ref["id"]])["score"] is not None and a["score"] < 1)
    return scores | {"fcp": data["audits"]["first-contentful-paint"]["numericValue"],
                     "lcp": data["audits"]["largest-contentful-paint"]["numericValue"], "failed": failed}


def audit_site(site: Path, pages: list[str] | None = None) -> dict[str, dict]:
    with serve_compressed(site) as base:
        return {page: audit(f"{base}/{page}") for page in (pages or site_pages(site))}


def verdict(result: dict) -> str:
    short = [c for c in CATEGORIES if result[c] < TARGETS[c]]
    if result["fcp"] >= FCP_TARGET_MS:
        short.append("fcp")
    return "ok" if not short else "UNDER: " + ", ".join(short)


def table(results: dict[str, dict]) -> str:
    lines = [f"{'page':<24} {'perf':>4} {'a11y':>4} {'bp':>4} {'seo':>4} {'FCP s':>6} {'LCP s':>6}   "
             f"targets: {TARGETS['performance']}/100/100/100, FCP < {FCP_TARGET_MS / 1000} s", "-" * 80]
    for page, r in results.items():
        lines.append(f"{page:<24} {r['performance']:>4} {r['accessibility']:>4} {r['best-practices']:>4} "
                     f"{r['seo']:>4} {r['fcp'] / 1000:>6.2f} {r['lcp'] / 1000:>6.2f}   {verdict(r)}"
                     + (f" ({', '.join(r['failed'])})" if r["failed"] else ""))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, help="a built site (make book: _build/html)")
    parser.add_argument("pages", nargs="*", help="pages by their path in the site (default: every page)")
    parser.add_argument("--json", type=Path, help="write the results here too")
    args = parser.parse_args(argv)
    results = audit_site(args.site, args.pages or None)
    print(table(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf8")
    return 0 if all(verdict(r) == "ok" for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
