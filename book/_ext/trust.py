"""Sphinx extension: what the page about the book ("Transparency and corrections") says that is
written when the site is built, not when its notebook is executed, in the page's language:

    ```{book-publisher}
    ```            who publishes the book, its authors, contact, funding, repository (_config.yml)
    ```{book-report}
    ```            how to report an error (the contact, else the repository's issues, else none stated)
    ```{book-corrections}
    ```            the corrections log, from the repository's history (lib/site/corrections.py)

Each is MyST made by lib (lib/site/trust.py, lib/site/corrections.py) and parsed in place. A page that
uses them is read again at every build: the log reaches the commit being built, and a change to
_config.yml shows without executing anything. The log's versions are cached beside the build's
doctrees (corrections-cache.json), by commit.
"""

from __future__ import annotations

from pathlib import Path

from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from lib.site import corrections, publisher, trust


class Generated(SphinxDirective):
    """A part of the page made by lib when the site is built."""

    has_content = False

    def markdown(self) -> str:
        raise NotImplementedError

    def run(self):
        docs = self.env.book_generated_docs = getattr(self.env, "book_generated_docs", set())
        docs.add(self.env.docname)
        return self.parse_text_to_nodes(self.markdown())


class Publisher(Generated):
    def markdown(self) -> str:
        return trust.publisher_markdown(self.config.language, publisher.load())


class Report(Generated):
    def markdown(self) -> str:
        return trust.report_markdown(self.config.language, publisher.load())


class Corrections(Generated):
    def markdown(self) -> str:
        lang = self.config.language
        cache = Path(self.env.doctreedir).parent / "corrections-cache.json"
        stated = publisher.load()
        log = corrections.history(lang, cache=cache)
        return corrections.markdown(log, lang, set(self.env.found_docs),
                                    commit_url=stated.commit_url if stated.repository else None)


def always_read(app: Sphinx, env, added, changed, removed) -> list[str]:
    """The pages with a generated part are read again at every build."""
    return sorted(getattr(env, "book_generated_docs", set()) & env.found_docs - set(added) - set(changed))


def purge(app: Sphinx, env, docname: str) -> None:
    getattr(env, "book_generated_docs", set()).discard(docname)


def merge(app: Sphinx, env, docnames, other) -> None:
    env.book_generated_docs = getattr(env, "book_generated_docs", set()) | getattr(other, "book_generated_docs", set())


def setup(app: Sphinx) -> dict:
    app.add_directive("book-publisher", Publisher)
    app.add_directive("book-report", Report)
    app.add_directive("book-corrections", Corrections)
    app.connect("env-get-outdated", always_read)
    app.connect("env-purge-doc", purge)
    app.connect("env-merge-info", merge)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
