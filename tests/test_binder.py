"""The Binder link: built from the repository's URL and branch, and absent while no URL is set."""

import types

import pytest

from lib.site.binder import launch_url

SAMPLE = "https://github.com/example-org/real-cost-book"


def test_a_github_repository_gives_a_binder_link_to_the_chapter():
    assert launch_url(SAMPLE, "main", "book/es/article1.ipynb") == (
        "https://mybinder.org/v2/gh/example-org/real-cost-book/main?urlpath=lab/tree/book/es/article1.ipynb")
    assert launch_url(SAMPLE + ".git/", "dev", "book/en/article2.ipynb").endswith(
        "/v2/gh/example-org/real-cost-book/dev?urlpath=lab/tree/book/en/article2.ipynb")


def test_other_hosts_use_binder_s_generic_forms():
    assert "/v2/gl/group%2Fsub%2Frepo/main?" in launch_url("https://gitlab.com/group/sub/repo", "main", "x.ipynb")
    assert "/v2/git/https%3A%2F%2Fcodeberg.org%2Fo%2Fr/main?" in launch_url("https://codeberg.org/o/r", "main", "x.ipynb")


def test_no_url_no_link_and_bad_urls_are_refused():
    assert launch_url("", "main", "book/es/article1.ipynb") is None
    with pytest.raises(ValueError, match="http"):
        launch_url("git@github.com:o/r", "main", "x.ipynb")
    with pytest.raises(ValueError, match="branch"):
        launch_url(SAMPLE, "", "x.ipynb")


def test_every_chapter_page_gets_the_link_in_its_language_when_the_url_is_set():
    import importlib.util

    from .conftest import ROOT

    spec = importlib.util.spec_from_file_location("bilingual", ROOT / "book" / "_ext" / "bilingual.py")
    bilingual = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bilingual)

    config = types.SimpleNamespace(html_theme_options={"repository_url": SAMPLE, "repository_branch": "main"})
    es = bilingual.binder_link(config, "es", "article1", ".ipynb")
    assert ">Abrir en Binder</a>" in es and "lab/tree/book/es/article1.ipynb" in es
    assert ">Open on Binder</a>" in bilingual.binder_link(config, "en", "budget", ".ipynb")
    assert bilingual.binder_link(config, "es", "references", ".md") == ""
    empty = types.SimpleNamespace(html_theme_options={"repository_url": "", "repository_branch": "main"})
    assert bilingual.binder_link(empty, "es", "article1", ".ipynb") == ""


def test_the_sentences_about_binder_show_only_with_the_link():
    """`:::{only} binder` blocks follow the same switch as the link: the tag is set with a URL, not without."""
    import importlib.util

    from sphinx.util.tags import Tags

    from .conftest import ROOT

    spec = importlib.util.spec_from_file_location("bilingual", ROOT / "book" / "_ext" / "bilingual.py")
    bilingual = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bilingual)
    for url, shown in ((SAMPLE, True), ("", False)):
        app = types.SimpleNamespace(tags=Tags())
        config = types.SimpleNamespace(html_theme_options={"repository_url": url, "repository_branch": "main"})
        bilingual.binder_tag(app, config)
        assert app.tags.has("binder") is shown, url
    assert not binder_promises_outside_the_switch(
        "Text.\n:::{only} binder\nOn Binder, change it.\n:::\n```{code-cell} ipython3\n# Binder\n```\n")
    assert binder_promises_outside_the_switch("On Binder you can change it.\n")  # the check can fail
    for path in sorted((ROOT / "book" / "_text").rglob("*.md")):
        assert not binder_promises_outside_the_switch(path.read_text(encoding="utf8")), path


def binder_promises_outside_the_switch(text: str) -> list[str]:
    """The prose lines of a chapter's text that name Binder outside an `:::{only} binder` block."""
    found, code, only = [], False, False
    for line in text.splitlines():
        if line.startswith("```{code-cell}"):
            code = True
        elif code and line.startswith("```"):
            code = False
        elif line.startswith(":::{only} binder"):
            only = True
        elif only and line.startswith(":::"):
            only = False
        elif "Binder" in line and not code and not only:
            found.append(line)
    return found
