"""A maintainer's update, end to end, on a copy of the book: a Lambda price 10 % dearer, seen today,
as the README describes it (value, quote, seen, and the reference's urldate). `make notebooks` (preflight, the chapters executed, what moved) lists the
input and the verdict that moved, and the tests whose inputs the update moves pass on the result: no
test holds today's figures, counts or sentences.

Which tests run on the copy (UPDATE_TESTS): an update moves an input's value, quote and day seen
(lib/data/inputs), its reference's urldate (book/references*.bib) and the executed chapters' outputs
(book/*/*.ipynb); lib's code, the text notebooks, the words and the other inputs stay as committed.
A test that reads none of those gives on the copy what it gives on the committed book, which the
suite itself runs, so it gains nothing from being run again. The files below read at least one of
them (found by running each file alone with every lookup of the input and every read of a notebook
or a .bib recorded: lib's caches empty, collection included); UNMOVED names the others, each with
why, and a test below fails when a test file is in neither, so a new one is placed on purpose.

The built site's own tests are left out here too (the suite builds and reads the committed book); what
they checked that an update could break (a range whose ends write alike, a date borrowed from another
price) is tested in lib (tests/test_fmt.py, tests/test_dates.py)."""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import subprocess
import sys

from lib.chapters import answers
from lib.chapters.verdicts import check_all
from lib.core.figure import Figure
from lib.core.inputs import load_inputs

from .conftest import ROOT

PRICE = "lambda_h100_sxm_8x"
# Test files that read what the update moves (the price, the executed chapters, the .bib), and
# lib.site.moved's own tests, whose tool says what moved: run on the updated copy.
UPDATE_TESTS = {"test_answers.py", "test_budget.py", "test_calculator.py", "test_charts.py", "test_claims.py",
                "test_compute_calculator.py", "test_dates.py", "test_findings.py", "test_inputs.py", "test_moved.py",
                "test_parity.py", "test_phrases.py", "test_preflight.py", "test_products.py", "test_published.py",
                "test_sums.py", "test_trust.py", "test_what_if.py"}
# The others, and why the update cannot move what they check.
UNMOVED = {
    # Read the built site, drive a browser or JupyterLab, or render every chart's fonts: the suite runs
    # them on the committed book.
    **dict.fromkeys(("test_browser.py", "test_pages.py", "test_site.py", "test_reading.py", "test_lab.py",
                     "test_chart_font.py", "test_costs.py"), "the built site, a browser or JupyterLab"),
    "test_update.py": "this test",
    # lib's planner, its shapes and GPUs, its published measurements and their calculator: no price of
    # the inputs, no chapter's outputs.
    **dict.fromkeys(("test_plan.py", "test_plan_shapes.py", "test_planner_calculator.py", "test_measure.py",
                     "test_published_figures.py", "test_published_measurements.py", "test_compute.py",
                     "test_epoch.py"), "lib's planner and compute model, read from their own data"),
    # The code's structure, the number formats, the words, the text notebooks' prose, the registry
    # against the articles and Binder's configuration: none reads an input or an executed chapter.
    **dict.fromkeys(("test_architecture.py", "test_fmt.py", "test_words.py", "test_prose.py", "test_registry.py",
                     "test_binder.py"), "code, formats, words, prose and configuration"),
}


def price(value: float, lang: str) -> str:
    return Figure.of(value, "USD/GPU-hour").format(lang)


def run(args: list[str], cwd, env) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def copy_of_the_book(to) -> None:
    """The working tree as it is (tracked files and untracked ones git does not ignore), committed in
    a repository of its own, so that `make diff` compares with it; ../shared beside it, as here."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            check=True, capture_output=True, text=True).stdout.split("\0")
    for name in filter(None, listed):
        if (ROOT / name).is_file():
            (to / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, to / name)
    git = ["git", "-c", "user.name=test", "-c", "user.email=test@localhost"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "as committed"]):
        subprocess.run(git + args, cwd=to, check=True, capture_output=True)
    shared = ROOT.parent / "shared"
    if shared.exists():
        (to.parent / "shared").symlink_to(shared)


def raise_price(book, name: str, today: dt.date) -> tuple[float, float]:
    """The input's value 10 % higher, to the cent, read today, as the README's update path says: its
    value, the quote that writes it and the day seen, and its reference's urldate. The old and the
    new value."""
    path = next(p for p in (book / "lib" / "data" / "inputs").glob("*.toml")
                if f"\n[{name}]\n" in p.read_text(encoding="utf8"))
    text = path.read_text(encoding="utf8")
    block = re.search(rf"^\[{name}\]\n(.*?)(?=^\[|\Z)", text, re.S | re.M)
    old = float(re.search(r"^value = (\S+)$", block.group(1), re.M).group(1))
    new = round(old * 1.1, 2)
    source = re.search(r'^source = "(\S+)"$', block.group(1), re.M).group(1)
    body = re.sub(r"^value = \S+$", f"value = {new}", block.group(1), flags=re.M)
    body = re.sub(r"^(quote = .*)" + re.escape(f"{old:.2f}"), rf"\g<1>{new:.2f}", body, flags=re.M)
    body = re.sub(r"^seen = \S+$", f"seen = {today.isoformat()}", body, flags=re.M)
    assert f"{new:.2f}" in body, body
    path.write_text(text[:block.start(1)] + body + text[block.end(1):], encoding="utf8")
    for bib in (book / "book").glob("references*.bib"):
        entries = bib.read_text(encoding="utf8")
        entry = re.search(rf"^@\w+\{{{source},\n(.*?)^\}}", entries, re.S | re.M)
        if entry:
            fields = re.sub(r"(urldate\s*=\s*\{)[^}]*\}", rf"\g<1>{today.isoformat()}}}", entry.group(1))
            bib.write_text(entries[:entry.start(1)] + fields + entries[entry.end(1):], encoding="utf8")
    return old, new


def test_a_price_update_ends_green_and_says_what_moved(tmp_path):
    book = tmp_path / "book"
    book.mkdir()
    copy_of_the_book(book)
    today = dt.date.today()
    old, new = raise_price(book, PRICE, today)
    env = {**os.environ, "PYTHONPATH": str(book)}  # the copy's lib, in the kernels too
    done = run([sys.executable, "-m", "lib.site.preflight"], book, env)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    # `make notebooks`, a language in each of two processes (the test's share of the two cores).
    executing = [subprocess.Popen([sys.executable, "-m", "lib.site.notebooks",
                                   *sorted(str(p.relative_to(book)) for p in book.glob(f"book/{lang}/*.ipynb"))],
                                  cwd=book, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                 for lang in ("es", "en")]
    for process in executing:
        said, _ = process.communicate(timeout=600)
        assert process.returncode == 0, said[-3000:]
    moved = run([sys.executable, "-m", "lib.site.moved"], book, env).stdout
    assert f"  {PRICE}: {old:g} (seen " in moved and f"→ {new:g} (seen {today.isoformat()})" in moved, moved
    assert f"A1-lambda-h100-8x.sourced: {price(old, 'en')} → {price(new, 'en')}" in moved, moved
    # The claim's verdict, where the update moves it (as it does from the article's own price).
    inputs = load_inputs()
    verdicts = [{c.claim.id: c for c in check_all(i)}["A1-lambda-h100-8x"]
                for i in (inputs, inputs.replace(PRICE, value=new, seen=today))]
    for lang in ("es", "en"):
        line = f"A1-lambda-h100-8x.verdict: {verdicts[0].verdict_label(lang)} → {verdicts[1].verdict_label(lang)}"
        assert (line in moved) == (verdicts[0].verdict != verdicts[1].verdict), moved
    # Every answer the price moves, moved on every page that states it, in both languages (the copy's
    # tests/test_answers.py then checks each page glues the answer as the function gives it).
    updated = inputs.replace(PRICE, value=new, seen=today)
    answers_moved = [a for a in answers.ORDER if answers.answer(inputs, a).text("en") != answers.answer(updated, a).text("en")]
    assert answers_moved, "the update moves none of the book's answers"
    for a in answers_moved:
        for lang in ("es", "en"):
            for page in answers.PAGES[a]:
                block = re.search(rf"^  {lang}/{page}\.ipynb:.*?(?=^  \S|\Z)", moved, re.S | re.M)
                assert block and f"    ans.{a}: " in block.group(0), (a, lang, page, moved)
    # Every value that moved with its old and new value, in both languages: none only "changed".
    assert all(" → " in line for line in moved.splitlines() if line.startswith("    ")), moved
    # One process: the two the suite runs already take both cores.
    tests = sorted(f"tests/{name}" for name in UPDATE_TESTS)
    done = run([sys.executable, "-m", "pytest", *tests, "-q", "-p", "no:cacheprovider", "-o", "addopts=",
                "-p", "no:xdist"], book, env)
    assert done.returncode == 0, done.stdout[-6000:]


def test_every_test_file_is_run_on_the_update_or_named_as_unmoved():
    """A new test file is placed on purpose: run on the updated copy, or named with why it is not."""
    files = {p.name for p in (ROOT / "tests").glob("test_*.py")}
    assert not UPDATE_TESTS & set(UNMOVED), UPDATE_TESTS & set(UNMOVED)
    assert files == UPDATE_TESTS | set(UNMOVED), (files ^ (UPDATE_TESTS | set(UNMOVED)))
