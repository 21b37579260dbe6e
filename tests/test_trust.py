"""What a reader needs to trust the book (issue 28, items 9 and 10): the page "Transparency and
corrections" (who publishes it, as _config.yml states it, and nothing it does not; the articles as
their copies show them; the corrections policy; the corrections log, generated from the repository's
history) and each claim's ClaimReview, read as JSON-LD by a JSON-LD processor (pyld), offline. What the built pages
show of them is checked with the rest of the built site, in tests/test_site.py (which a maintainer's
update, tests/test_update.py, leaves to the committed book)."""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
import os
import re
import subprocess
from pathlib import Path
from urllib.parse import urlparse

import pytest
from bs4 import BeautifulSoup

from lib.chapters.verdicts import check_all
from lib.core import sentences
from lib.core.inputs import load_inputs
from lib.core.words import words
from lib.site import claimreview, corrections, publisher, trust
from lib.site.corrections import Change, Log, Moved, Verdict, Version
from lib.site.publisher import Publisher

from .conftest import LANGS, ROOT, shared_path

BASE = "https://example.org/book/"
EMPTY = Publisher()
STATED = Publisher(name="Fundación Ejemplo", url="https://example.org", contact="correcciones@example.org",
                   funding={"es": "Sus propios autores", "en": "Its own authors"},
                   repository="https://github.com/example/book")


# ---------------------------------------------------------------- who publishes it (_config.yml)

def test_the_book_s_configuration_states_a_publisher_section_read_by_lib():
    import yaml

    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf8"))
    assert set(config["publisher"]) == {"name", "url", "contact", "funding"}
    assert set(config["publisher"]["funding"]) == set(LANGS)
    stated = publisher.load()
    assert stated.repository == (config["repository"]["url"] or "").rstrip("/")
    assert stated.name == (config["publisher"]["name"] or "")


def test_a_publisher_is_read_from_the_configuration_as_stated():
    config = {"publisher": {"name": " Fundación Ejemplo ", "url": "https://example.org/", "contact": "a@example.org",
                            "funding": {"es": "Nadie", "en": "No one"}},
              "repository": {"url": "https://github.com/example/book.git"}, "html": {"baseurl": "https://example.org/b"}}
    p = publisher.from_config(config)
    assert (p.name, p.url, p.contact, p.repository, p.site) == (
        "Fundación Ejemplo", "https://example.org", "a@example.org", "https://github.com/example/book",
        "https://example.org/b/")
    assert p.funding_in("es") == "Nadie" and p.contact_url == "mailto:a@example.org"
    assert p.issues == "https://github.com/example/book/issues"
    assert p.commit_url("0123abc") == "https://github.com/example/book/commit/0123abc"
    empty = publisher.from_config({"publisher": {"name": "", "url": "", "contact": "", "funding": {"es": "", "en": ""}},
                                   "repository": {"url": ""}})
    assert empty == Publisher(funding={"es": "", "en": ""}) and empty.contact_url == "" and empty.issues == ""
    assert empty.commit_url("0123abc") == ""


@pytest.mark.parametrize("config, says", [
    ({"publisher": {"url": "example.org"}}, "publisher.url must be an http(s) address"),
    ({"publisher": {"contact": "write to us"}}, "publisher.contact must be an email or an http(s) address"),
    ({"publisher": {"funding": {"es": "Nadie"}}}, "publisher.funding is stated in es only"),
    ({"publisher": {"funding": {"fr": "Personne"}}}, "publisher.funding must name each language"),
    ({"publisher": {"funding": "nobody"}}, "publisher.funding must name each language"),
    ({"publisher": {"name": 3}}, "publisher.name must be text"),
    ({"publisher": {"email": "a@example.org"}}, "unknown fields: email"),
    ({"publisher": ["a"]}, "publisher must be a mapping"),
    ({"repository": {"url": "git@github.com:o/r.git"}}, "repository.url must be an http(s) address"),
    ({"repository": "https://github.com/o/r"}, "repository must be a mapping"),
    ({"html": {"baseurl": "/book/"}}, "html.baseurl must be an http(s) address"),
    ("publisher: x", "a book configuration is a mapping"),
])
def test_a_bad_publisher_section_is_a_clear_error(config, says):
    with pytest.raises(ValueError, match=re.escape(says)):
        publisher.from_config(config)


def test_bad_input_to_the_publisher_s_functions_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown language"):
        EMPTY.funding_in("fr")
    with pytest.raises(ValueError, match="not a commit"):
        STATED.commit_url("main; rm")
    with pytest.raises(ValueError, match="a Publisher is needed"):
        trust.publisher_markdown("en", {"name": "x"})
    with pytest.raises(ValueError, match="a Publisher is needed"):
        trust.report_markdown("en", None)
    with pytest.raises(ValueError, match="unknown language"):
        trust.publisher_markdown("fr", EMPTY)


@pytest.mark.parametrize("lang", LANGS)
def test_what_the_configuration_does_not_state_is_said_to_be_not_stated(lang):
    w = words(lang)["trust"]
    site_only = Publisher(site=BASE)  # published at an address, with nothing else stated
    said = trust.publisher_markdown(lang, site_only)
    lines = said.splitlines()
    assert lines == ["- " + w["line"].format(label=label, text=text) for label, text in (
        (w["publisher"], w["no_publisher"]), (w["authors"], words(lang)["site"]["author"]),
        (w["contact"], w["not_stated"]), (w["funding"], w["not_stated"]), (w["repository"], w["no_repository"]))]
    assert "](" not in said, "no link where no address is stated"
    assert trust.report_markdown(lang, site_only) == w["no_report"]


@pytest.mark.parametrize("lang", LANGS)
def test_an_unpublished_preview_says_so_once_instead_of_not_stated(lang):
    """A build with no site address, no repository and no publisher: one sentence, in the page's
    language, for the whole of who publishes it, and no second one on how to report an error."""
    w = words(lang)["trust"]
    assert EMPTY.preview and not Publisher(repository="https://github.com/example/book").preview
    said = trust.publisher_markdown(lang, EMPTY)
    assert said == w["preview"] and "\n" not in said
    assert w["not_stated"] not in said and w["no_publisher"] not in said
    assert trust.report_markdown(lang, EMPTY) == ""
    assert words("es")["trust"]["preview"] != words("en")["trust"]["preview"]


# ---------------------------------------------------------------- a published build (SITE_URL, REPOSITORY)

PUBLISHED = {"SITE_URL": "https://example.org/coste-real/", "REPOSITORY": "https://github.com/example/coste-real"}


def test_the_environment_s_addresses_take_the_place_of_the_configuration_s():
    """`make book SITE_URL=… REPOSITORY=…` (and the publishing workflow) builds the site as published:
    the two addresses override html.baseurl and repository.url, for lib and for each Sphinx build."""
    config = publisher.book_config(environ=PUBLISHED)
    assert config["html"]["baseurl"] == PUBLISHED["SITE_URL"]
    assert config["repository"] == {**publisher.book_config(environ={})["repository"], "url": PUBLISHED["REPOSITORY"]}
    stated = publisher.load(environ=PUBLISHED)
    assert (stated.site, stated.repository) == ("https://example.org/coste-real/", "https://github.com/example/coste-real")
    assert publisher.sphinx_overrides(PUBLISHED) == {
        "html_baseurl": "https://example.org/coste-real/",
        "html_theme_options": {"repository_url": "https://github.com/example/coste-real"}}
    # Neither set, or set empty: the configuration as written.
    assert publisher.load(environ={"SITE_URL": "", "REPOSITORY": " "}) == publisher.load(environ={})
    assert publisher.sphinx_overrides({}) == {}
    with pytest.raises(ValueError, match="SITE_URL must be an http"):
        publisher.load(environ={"SITE_URL": "example.org/book"})
    with pytest.raises(ValueError, match="REPOSITORY must be an http"):
        publisher.sphinx_overrides({"REPOSITORY": "git@github.com:example/book.git"})


def test_a_workflow_publishes_the_site_built_as_published_on_github_pages():
    """.github/workflows/publish.yml: `make book` with the Pages address as SITE_URL and the repository's
    own address as REPOSITORY, the whole history checked out (the corrections log), then GitHub's Pages
    actions upload and deploy _build/html."""
    import yaml

    flow = yaml.safe_load((ROOT / ".github" / "workflows" / "publish.yml").read_text(encoding="utf8"))
    build, deploy = flow["jobs"]["build"]["steps"], flow["jobs"]["deploy"]["steps"]
    uses = [step.get("uses", "").split("@")[0] for step in build + deploy]
    assert {"actions/checkout", "actions/configure-pages", "actions/upload-pages-artifact",
            "actions/deploy-pages"} <= set(uses)
    assert next(s for s in build if s.get("uses", "").startswith("actions/checkout"))["with"]["fetch-depth"] == 0
    run = next(s["run"] for s in build if "make book" in s.get("run", ""))
    assert 'SITE_URL="${{ steps.pages.outputs.base_url }}/"' in run
    assert 'REPOSITORY="${{ github.server_url }}/${{ github.repository }}"' in run
    assert next(s for s in build if s.get("uses", "").startswith("actions/upload-pages-artifact"))["with"]["path"] == "_build/html"
    assert flow["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    assert "export SITE_URL REPOSITORY" in (ROOT / "Makefile").read_text(encoding="utf8")


@pytest.mark.parametrize("lang", LANGS)
def test_a_published_build_s_about_page_links_the_repository_its_issues_and_its_owner(lang):
    """As published from a repository, with no publisher in _config.yml: the publisher is the
    repository's owner as its address states it, the contact and the address for corrections are its
    issues, and the repository is linked; nothing is said to be not stated but the funding."""
    stated = publisher.from_config(publisher.overridden({}, PUBLISHED))
    w = words(lang)["trust"]
    said = trust.publisher_markdown(lang, stated)
    issues = "https://github.com/example/coste-real/issues"
    assert w["owner"].format(link="[example](https://github.com/example)", host="github.com") in said
    assert w["contact_issues"].format(link=f"[github.com/example/coste-real/issues]({issues})") in said
    assert "[github.com/example/coste-real](https://github.com/example/coste-real)" in said
    assert w["no_publisher"] not in said and w["no_repository"] not in said and said.count(w["not_stated"]) == 1
    assert trust.report_markdown(lang, stated) == w["report_issues"].format(link=f"[github.com/example/coste-real/issues]({issues})")
    assert stated.owner == ("example", "https://github.com/example")
    assert Publisher(repository="https://example.org").owner == ("", "")


@pytest.mark.parametrize("lang", LANGS)
def test_what_the_configuration_states_is_said_with_its_links(lang):
    said = trust.publisher_markdown(lang, STATED)
    w = words(lang)["trust"]
    assert "[Fundación Ejemplo](https://example.org)" in said
    assert "[correcciones@example.org](mailto:correcciones@example.org)" in said
    assert STATED.funding_in(lang) in said and "[github.com/example/book](https://github.com/example/book)" in said
    assert w["not_stated"] not in said and w["no_repository"] not in said
    # How to report an error: the contact where one is stated, else the repository's issues.
    assert "mailto:correcciones@example.org" in trust.report_markdown(lang, STATED)
    issues_only = Publisher(repository="https://github.com/example/book")
    assert trust.report_markdown(lang, issues_only) == w["report_issues"].format(
        link="[github.com/example/book/issues](https://github.com/example/book/issues)")


# ---------------------------------------------------------------- the articles, as their copies show them

ARTICLES = trust.load_articles()


def test_each_article_is_the_chapter_s_with_its_title_as_the_copy_gives_it():
    assert sorted(ARTICLES) == sorted(claimreview.CHAPTERS.values())
    for key, article in ARTICLES.items():
        copy = shared_path("articles", article.copy).read_text(encoding="utf8")
        assert copy.splitlines()[0].strip() == article.title, f"{key}: the title is not the copy's first line"
        for text in article.copy_says.values():  # the copy's own words, quoted, are in the copy
            for quoted in re.findall(r'<q lang="es">(.*?)</q>', text):
                assert quoted in copy, f"{key}: «{quoted}» is not in its copy"


def test_each_article_s_earliest_date_is_a_sourced_input_s():
    i = load_inputs()
    for article in ARTICLES.values():
        assert article.date_after(i) == i[article.written_after].value
    # The date moves with its input (an article's date is computed, not typed).
    moved = i.replace("dgx_cloud_announced", value=dt.date(2023, 3, 22))
    assert "22 de marzo de 2023" in trust.article_markdown(ARTICLES["article2"], "es", moved)
    assert "March 22, 2023" in trust.article_markdown(ARTICLES["article2"], "en", moved)


@pytest.mark.parametrize("lang", LANGS)
def test_each_article_says_what_its_copy_does_not_state(lang):
    w = words(lang)["trust"]["articles"]
    for article in ARTICLES.values():
        said = trust.article_markdown(article, lang)
        assert article.title in said and f"{{doc}}`{article.key}`" in said
        absent = [w["fields"][f] for f in trust.FIELDS if f not in article.stated]
        assert not absent or w["not_stated"].format(fields=trust.either(absent, lang)) in said, article.key
    # An article whose references record its address and outlet says them, and no longer says them absent.
    stated = trust.Article(**{**ARTICLES["article1"].__dict__, "stated": {"url": "https://example.org/a",
                                                                          "outlet": "Diario Ejemplo"}})
    said = trust.article_markdown(stated, lang)
    assert w["stated"].format(fields=trust.join([w["stated_fields"]["url"].format(value="https://example.org/a"),
                                                 w["stated_fields"]["outlet"].format(value="Diario Ejemplo")], lang)) in said
    assert w["not_stated"].format(fields=trust.either([w["fields"]["author"], w["fields"]["date"]], lang)) in said


def test_bad_article_records_are_a_clear_error(tmp_path):
    article = ARTICLES["article1"]
    with pytest.raises(ValueError, match="precision"):
        trust.Article(**{**article.__dict__, "precision": "year"})
    with pytest.raises(ValueError, match="language"):
        trust.Article(**{**article.__dict__, "language": "xx-notalanguage-1"})
    with pytest.raises(ValueError, match="why_en is missing"):
        trust.Article(**{**article.__dict__, "why": {"es": "x"}})
    with pytest.raises(ValueError, match="names no sourced input"):
        trust.Article(**{**article.__dict__, "written_after": "no_such_input"}).date_after(load_inputs())
    with pytest.raises(ValueError, match="is not a date"):
        trust.Article(**{**article.__dict__, "written_after": "opt_gpus"}).date_after(load_inputs())
    with pytest.raises(ValueError, match="precision"):
        trust.date_written(dt.date(2025, 8, 1), "week", "en")
    with pytest.raises(ValueError, match="an empty list"):
        trust.either([], "en")
    data = tmp_path / "articles.toml"
    data.write_text('[article9]\ncopy = "x.txt"\nlanguage = "es"\ntitle_en = "X"\nwritten_after = "a"\nprecision = "day"\n',
                    encoding="utf8")
    with pytest.raises(ValueError, match="article9 has no entry in references.bib"):
        trust.load_articles(data)
    data.write_text('[article1]\ncopy = "x.txt"\n', encoding="utf8")
    with pytest.raises(ValueError, match="article1 has no language"):
        trust.load_articles(data)


# ---------------------------------------------------------------- the corrections log

OLD = {"A1-x.verdict": "Needs context", "A1-x.raw": json.dumps({"verdict": "context"}), "A1-x.sourced": "$3.99",
       "A1-x.box": "card " * 40, "A1-y.verdict": "Unverified", "A1-y.raw": json.dumps({"verdict": "unverified"}),
       "costs.pub.p.verdict": "Unverified", "costs.pub.p.raw": json.dumps({"verdict": "unverified"}), "B.fits": "does not fit",
       "A1-gone.sourced": "$1"}
NEW = {"A1-x.verdict": "Does not hold", "A1-x.raw": json.dumps({"verdict": "wrong"}), "A1-x.sourced": "$3.49",
       "A1-x.box": "card " * 41, "A1-y.verdict": "No primary source", "A1-y.raw": json.dumps({"verdict": "unverified"}),
       "costs.pub.p.verdict": "No primary source", "costs.pub.p.raw": json.dumps({"verdict": "unverified"}), "B.fits": "fits",
       "A1-new.sourced": "$2"}


def test_a_version_s_change_is_its_verdicts_that_changed_and_its_figures_that_moved():
    change = corrections.compare("article1", OLD, NEW, "en")
    # A verdict renamed (its code the same, read from its .raw record or from the page's own labels) is
    # no correction; a card, a word and a value added or removed are not figures that moved.
    assert change == Change("article1", (Moved("A1-x.sourced", "$3.99", "$3.49"),), (Verdict("A1-x", "context", "wrong"),))
    assert corrections.compare("article1", OLD, dict(OLD), "en") is None
    # A label with no code on either side: its words alone say it changed.
    assert corrections.compare("p", {"k.verdict": "Holds"}, {"k.verdict": "Wrong"}, "en") == Change(
        "p", (), (Verdict("k", "Holds", "Wrong"),))
    assert corrections.figure_moved("1,000", "1.000", "en") and not corrections.figure_moved("fits", "does not fit", "en")
    assert not corrections.figure_moved("1" * 200, "2" * 200, "en") and not corrections.figure_moved("a\n1", "a\n2", "en")
    # A figure moved when its amounts did, read with their scale words; not when they are only written otherwise.
    assert corrections.figure_moved("$1.5 million", "$1.5 billion", "en")
    assert corrections.figure_moved("-1.5%", "1.5%", "en") and corrections.figure_moved("1,6–2,1 millones", "1,8–2,1 millones", "es")
    for old, new, lang in (("200\u00a0€", "200 euros", "es"), ("$4.10–$5.12 per GPU-hour", "$4.10–5.12 per GPU-hour", "en"),
                           ("1.000–1.000.000.000 ejemplos", "1 mil–1 mil millones de ejemplos", "es"),
                           ("0.3–1.0", "1.0 → 0.3", "en"), ("992 GPUs", "992 H100 GPUs", "en"),
                           ("run on a single H100 GPU", "ejecutarse en una sola GPU H100", "es"),
                           ("Our changes", "A number of changes (see Section 2.5)", "en")):
        assert not corrections.figure_moved(old, new, lang), (old, new)
    assert corrections.amounts("$1.6–$2.1 million", "en") == corrections.amounts("1,6–2,1 millones", "es") == (1.6e6, 2.1e6)
    # The same amount at another precision is no correction: one value writes both. A whole number before
    # a scale word is read at the other's precision, since the book writes 1.0 million as "1 million".
    for old, new, lang in (("$1.49 million", "$1.5 million", "en"), ("2,86 millones", "2,9 millones", "es"),
                           ("$1.5 million", "$1.55 million", "en"), ("$32.03 million", "$32.0 million", "en"),
                           ("$4.2–5.3 million", "$4.19–5.28 million", "en"), ("$95.36", "$95", "en"), ("75.4%", "75%", "en")):
        assert not corrections.figure_moved(old, new, lang), (old, new)
    for old, new, lang in (("$1.50 million", "$1.49 million", "en"), ("$1 million", "$1.04 million", "en"),
                           ("$1.5 million", "$1.6 million", "en"), ("1,5 millones", "1,56 millones", "es"),
                           ("75.4%", "76%", "en"), ("$578,026", "$578,027", "en"), ("$4.2–5.3 million", "$4.2 million", "en")):
        assert corrections.figure_moved(old, new, lang), (old, new)


def test_bad_input_to_the_log_s_functions_is_a_clear_error():
    with pytest.raises(ValueError, match="glued values"):
        corrections.compare("p", None, {}, "en")
    with pytest.raises(ValueError, match="unknown language"):
        corrections.compare("p", {}, {}, "fr")
    with pytest.raises(ValueError, match="glued values are text"):
        corrections.figure_moved(1, 2, "en")
    with pytest.raises(ValueError, match="moves a figure or a verdict"):
        Change("p", ())
    with pytest.raises(ValueError, match="Moved records"):
        Change("p", 1)
    with pytest.raises(ValueError, match="unknown language"):
        corrections.history("fr")
    with pytest.raises(ValueError, match="no such commit"):
        corrections.history("en", rev="no-such-commit")
    with pytest.raises(ValueError, match="a Log is needed"):
        corrections.markdown([], "en", set())


def _notebook(records: dict[str, str]) -> str:
    outputs = [{"output_type": "display_data", "metadata": {"scrapbook": {"name": k}},
                "data": {"application/papermill.record/text/plain": repr(v)}} for k, v in records.items()]
    return json.dumps({"cells": [{"cell_type": "code", "outputs": outputs}]})


def _commit(repo: Path, day: str, files: dict[str, dict], message: str) -> str:
    for path, records in files.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(_notebook(records), encoding="utf8")
    env = {**os.environ, "GIT_AUTHOR_DATE": f"{day}T12:00:00", "GIT_COMMITTER_DATE": f"{day}T12:00:00"}
    git = ["git", "-c", "user.name=Test", "-c", "user.email=test@example.org", "-c", "commit.gpgsign=false"]
    subprocess.run([*git, "add", "-A"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-q", "-m", message], cwd=repo, check=True, env=env)
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """A book's history: its first version, a price read again on a branch merged into main, a
    wording change, a new page."""
    repo = tmp_path_factory.mktemp("book")
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, check=True)
    first = {"A1-x.verdict": "Holds", "A1-x.raw": json.dumps({"verdict": "holds"}), "A1-x.sourced": "$3.99"}
    commits = {"first": _commit(repo, "2026-11-30", {"book/en/article1.ipynb": first, "book/es/article1.ipynb": first},
                                "first")}
    git = ["git", "-c", "user.name=Test", "-c", "user.email=test@example.org", "-c", "commit.gpgsign=false"]
    subprocess.run([*git, "checkout", "-q", "-b", "price"], cwd=repo, check=True)
    dearer = {**first, "A1-x.sourced": "$4.39", "A1-x.verdict": "Needs context", "A1-x.raw": json.dumps({"verdict": "context"})}
    commits["branch"] = _commit(repo, "2026-12-01", {"book/en/article1.ipynb": dearer}, "a price read again")
    subprocess.run([*git, "checkout", "-q", "main"], cwd=repo, check=True)
    env = {**os.environ, "GIT_AUTHOR_DATE": "2026-12-02T12:00:00", "GIT_COMMITTER_DATE": "2026-12-02T12:00:00"}
    subprocess.run([*git, "merge", "-q", "--no-ff", "-m", "merge", "price"], cwd=repo, check=True, env=env)
    commits["merge"] = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True).stdout.strip()
    commits["wording"] = _commit(repo, "2026-12-03", {"book/en/article1.ipynb": {**dearer, "A1-x.box": "new words"}},
                                 "wording")
    commits["page"] = _commit(repo, "2026-12-04", {"book/en/costs.ipynb": {"c.total": "$9"}}, "a new page")
    return repo, commits


def test_the_log_is_each_published_version_that_moved_a_figure_or_a_verdict(repo, tmp_path):
    root, commits = repo
    cache = tmp_path / "cache.json"
    log = corrections.history("en", root=root, cache=cache)
    # The branch's change is published once, by its merge, on the day of the merge; the first version,
    # a wording change and a new page are no corrections.
    assert log == Log((Version(commits["merge"], dt.date(2026, 12, 2),
                               (Change("article1", (Moved("A1-x.sourced", "$3.99", "$4.39"),),
                                       (Verdict("A1-x", "holds", "context"),)),)),))
    assert corrections.history("es", root=root).versions == ()  # the Spanish page did not move
    # The cache gives the same log, without reading the history's files again.
    assert json.loads(cache.read_text())["versions"] and corrections.history("en", root=root, cache=cache) == log
    said = corrections.markdown(log, "en", {"article1"}, names={"A1-x": "the claim"},
                                commit_url=STATED.commit_url)
    # Folded in a <details> a reader opens, so that the about page stays short on a phone.
    assert said.splitlines()[:2] == ['<details class="corrections-log"><summary>The log: 1 version, the latest first</summary>', ""]
    assert said.splitlines()[-2:] == ["", "</details>"]
    assert said.splitlines()[2:-2] == [
        f"- December 2, 2026 ([`{commits['merge'][:7]}`](https://github.com/example/book/commit/{commits['merge']}))",
        "  - {doc}`article1`: 1 figure moved and 1 verdict changed",
        "    - the claim: Holds → Needs context",
        "    - the claim: $3.99 → $4.39"]
    said = corrections.markdown(log, "es", set(), names={})
    assert said.splitlines()[3:-2] == ["  - article1: se movió 1 cifra y cambió 1 veredicto",
                                     "    - un veredicto de esta página: Se sostiene → Con matices",
                                     "    - $3.99 → $4.39"]
    assert corrections.markdown(Log(), "en", set(), names={}) == words("en")["trust"]["log"]["none"]


def test_both_languages_log_a_value_that_moved_on_either_page(tmp_path):
    """A sentence of counts can be short enough to read as a figure in one language and too long in the
    other: what moved on either page is listed in both logs, each in its own words."""
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=tmp_path, check=True)
    said = {"en": "Of 45 claims, 29 hold.", "es": "De las 45 afirmaciones de los dos artículos, 29 se sostienen" + "." * 80}
    _commit(tmp_path, "2026-12-01", {f"book/{lang}/index.ipynb": {"find.counts": text} for lang, text in said.items()}, "first")
    moved = {lang: text.replace("45", "47").replace("29", "30") for lang, text in said.items()}
    commit = _commit(tmp_path, "2026-12-02", {f"book/{lang}/index.ipynb": {"find.counts": text} for lang, text in moved.items()},
                     "counted again")
    assert not corrections.figure_moved(said["es"], moved["es"], "es")  # too long to be a figure on its own
    for lang in LANGS:
        assert corrections.history(lang, root=tmp_path) == Log((Version(commit, dt.date(2026, 12, 2), (
            Change("index", (Moved("find.counts", said[lang], moved[lang]),)),)),)), lang


def test_a_copy_without_history_or_with_part_of_it_says_so(repo, tmp_path):
    root, commits = repo
    assert corrections.history("en", root=tmp_path) == Log(available=False)
    assert corrections.markdown(Log(available=False), "es", set(), names={}) == words("es")["trust"]["log"]["no_history"]
    shallow = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{root}", str(shallow)], check=True)
    log = corrections.history("en", root=shallow)
    assert log.since == dt.date(2026, 12, 4) and log.versions == ()
    assert "December 4, 2026" in corrections.markdown(log, "en", set(), names={})


def test_the_log_names_each_claim_by_the_article_s_words_linked_to_its_card():
    for lang in LANGS:
        names = corrections.subjects(lang)
        for checked in check_all():
            name = names[checked.claim.id]
            assert name.startswith("{ref}`") and name.endswith(f"<{claimreview.anchor(checked.claim.id)}>`")
        assert any(key.startswith("costs.pub.") for key in names)


# ---------------------------------------------------------------- ClaimReview, as JSON-LD

# schema.org's context, as much of it as the reviews use, served from here: the tests never fetch it.
SCHEMA = {"@context": {"@vocab": "https://schema.org/", "schema": "https://schema.org/",
                       "url": {"@id": "schema:url", "@type": "@id"}}}


def offline_loader(url, options=None):
    """pyld's document loader: schema.org's context from SCHEMA, and nothing from the network."""
    from pyld import jsonld

    if url.rstrip("/") in ("https://schema.org", "http://schema.org"):
        return {"contextUrl": None, "documentUrl": url, "document": SCHEMA}
    raise jsonld.JsonLdError(f"refused to fetch {url}: the tests are offline", "loading document failed",
                             {"url": url}, code="loading document failed")


def expanded(document: dict) -> list[dict]:
    """The document as a JSON-LD processor reads it (pyld's expand); invalid JSON-LD raises."""
    from pyld import jsonld

    return jsonld.expand(document, {"documentLoader": offline_loader})


S = "https://schema.org/"


def value(node: dict, name: str):
    """The one value of a property of an expanded node (a literal, an IRI, or a node)."""
    values = node.get(S + name) or []
    assert len(values) == 1, f"{name}: {values}"
    v = values[0]
    return v.get("@value", v.get("@id")) if "@value" in v or set(v) == {"@id"} else v


def review_problems(node: dict, lang: str, checked) -> list[str]:
    """What an expanded ClaimReview lacks or gets wrong, against its claim (empty when it is right)."""
    problems = []
    if node.get("@type") != [S + "ClaimReview"]:
        problems.append(f"not a ClaimReview: {node.get('@type')}")
    url = value(node, "url")
    parts = urlparse(url)
    if parts.scheme != "https" or not parts.netloc or not parts.fragment:
        problems.append(f"url is not an absolute address of a card: {url}")
    if value(node, "claimReviewed") != checked.claim.quote:
        problems.append("claimReviewed is not the article's Spanish words")
    if value(node, "inLanguage") != lang:
        problems.append("inLanguage is not the page's")
    item = value(node, "itemReviewed")
    if item.get("@type") != [S + "Claim"] or value(item, "inLanguage") != "es":
        problems.append("itemReviewed is not a claim made in Spanish")
    work = value(item, "appearance")
    article = ARTICLES[claimreview.CHAPTERS[checked.claim.article]]
    if value(work, "headline") != article.title or value(work, "inLanguage") != "es":
        problems.append("the appearance is not the article, by its headline and language")
    if not str(value(work, "temporalCoverage")).endswith("/.."):
        problems.append("the article's date is not an open interval from the earliest its words allow")
    author = value(node, "author")
    if not value(author, "name") or not urlparse(value(author, "url")).scheme:
        problems.append("the author has no name or no address")
    rating = value(node, "reviewRating")
    worst, best, rated = (value(rating, k) for k in ("worstRating", "bestRating", "ratingValue"))
    if not (isinstance(rated, int) and worst <= rated <= best):
        problems.append(f"ratingValue {rated!r} is not on the scale {worst}–{best}")
    if value(rating, "alternateName") != sentences.label(checked, lang):
        problems.append("alternateName is not the card's label")
    return problems


@pytest.fixture(scope="module")
def published_reviews() -> dict:
    """Each language's and article's reviews, as a site at BASE would publish them."""
    return {(lang, article): claimreview.reviews(article, lang, BASE, publisher.load())
            for lang in LANGS for article in claimreview.CHAPTERS}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("article", sorted(claimreview.CHAPTERS))
def test_each_claim_is_a_claimreview_that_a_json_ld_processor_reads(published_reviews, lang, article):
    items = published_reviews[lang, article]
    script = claimreview.json_ld(items)
    document = json.loads(re.fullmatch(r'<script type="application/ld\+json">(.*)</script>', script, re.S)[1])
    nodes = expanded(document)
    checked = {c.claim.id: c for c in check_all(article=article)}
    assert len(nodes) == len(checked) == len(items)
    for node in nodes:
        claim_id = value(node, "identifier")
        assert review_problems(node, lang, checked[claim_id]) == [], claim_id
        assert value(node, "url") == f"{BASE}{lang}/{claimreview.CHAPTERS[article]}.html#{claimreview.anchor(claim_id)}"


def test_every_verdict_has_its_place_on_one_scale_that_the_method_page_states():
    assert set(claimreview.SCALE) == set(words("en")["verdict"])
    assert sorted(claimreview.SCALE.values()) == list(range(claimreview.WORST, claimreview.BEST + 1))
    # From contradicted to supported: no primary source lies between the two.
    assert claimreview.SCALE["wrong"] < claimreview.SCALE["unverified"] < claimreview.SCALE["context"] < claimreview.SCALE["holds"]
    for lang in LANGS:
        said = claimreview.glue_scale(lang)
        for verdict, number in claimreview.SCALE.items():
            assert words(lang)["trust"]["scale"]["item"].format(value=number, label=words(lang)["verdict"][verdict]) \
                in said["rating_scale"]
        method = (ROOT / "book" / "_text" / lang / "method.md").read_text(encoding="utf8")
        assert all(f"{{glue:text}}`method.{k}`" in method for k in said)


def test_the_json_ld_checks_catch_what_they_must(published_reviews):
    from pyld.jsonld import JsonLdError

    item = published_reviews["en", 1][0]
    checked = next(c for c in check_all(article=1) if c.claim.id == item["identifier"])
    assert review_problems(expanded(claimreview.graph([item]))[0], "en", checked) == []
    planted = [
        ({**item, "url": "article1.html#" + claimreview.anchor(checked.claim.id)}, "url is not an absolute"),
        ({**item, "claimReviewed": checked.claim.quote_en}, "claimReviewed"),
        ({**item, "reviewRating": {**item["reviewRating"], "ratingValue": 7}}, "ratingValue 7"),
        ({**item, "reviewRating": {k: v for k, v in item["reviewRating"].items() if k != "ratingValue"}}, None),
        ({**item, "itemReviewed": {**item["itemReviewed"], "inLanguage": "en"}}, "made in Spanish"),
        ({**item, "author": {"@type": "Organization", "name": "x"}}, None),
    ]
    for bad, says in planted:
        try:
            found = review_problems(expanded(claimreview.graph([bad]))[0], "en", checked)
        except AssertionError:  # a property missing altogether
            found = ["missing"]
        assert found and (says is None or any(says in p for p in found)), (says, found)
    # Invalid JSON-LD is refused by the processor, and nothing is fetched from the network.
    with pytest.raises(JsonLdError):
        expanded({"@context": "https://schema.org", "@graph": [{**item, "@type": 3}]})
    with pytest.raises(JsonLdError):
        expanded({"@context": "https://example.org/context.jsonld", "@graph": [item]})


def test_bad_input_to_the_review_functions_is_a_clear_error():
    with pytest.raises(ValueError, match="needs the site's public address"):
        claimreview.card_url("", "en", "A1-opt-cost", 1)
    with pytest.raises(ValueError, match="html.baseurl must be an http"):
        claimreview.card_url("example.org/book", "en", "A1-opt-cost", 1)
    with pytest.raises(ValueError, match="unknown language"):
        claimreview.card_url(BASE, "fr", "A1-opt-cost", 1)
    with pytest.raises(ValueError, match="no chapter for article 3"):
        claimreview.reviews(3, "en", BASE, EMPTY)
    with pytest.raises(ValueError, match="a Publisher is needed"):
        claimreview.reviews(1, "en", BASE, None)


def test_the_reviews_are_signed_by_the_publisher_with_its_address():
    stated = claimreview.reviews(1, "es", BASE, STATED)[0]["author"]
    assert stated == {"@type": "Organization", "name": "Fundación Ejemplo", "url": "https://example.org"}
    unstated = claimreview.reviews(1, "es", BASE, EMPTY)[0]["author"]
    assert unstated["name"].lower() == words("es")["site"]["author"].lower() and unstated["url"] == BASE + "es/index.html"


def _extension(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "book" / "_ext" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_page_carries_reviews_only_where_the_site_s_address_is_known():
    ext = _extension("claimreview")
    assert ext.page_reviews("article1", "en", "") == ""
    assert ext.page_reviews("ledger", "en", BASE) == ""
    script = ext.page_reviews("article2", "es", BASE, dt.date(2026, 12, 4))
    document = json.loads(script.removeprefix('<script type="application/ld+json">').removesuffix("</script>"))
    assert {n["@type"][0] for n in expanded(document)} == {S + "ClaimReview"}
    assert all(item["datePublished"] == "2026-12-04" for item in document["@graph"])
