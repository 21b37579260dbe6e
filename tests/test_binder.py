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
