"""The book's sources as its pages cite them: the .bib files (book/references*.bib), each entry as the
page's language reads it, and the in-text citations in the site's author-year style.

The site's citations are sphinxcontrib-bibtex's, through the book's styles (book/_ext/bilingual.py
registers them per language); JupyterLab, which has no bibliography, shows the chapters' citations
as the same text (lib/site/lab.py), written here by the same style from the same entries, in the
same order. pybtex and sphinxcontrib-bibtex are imported where they are used: the Jupyter server
imports lib.site.lab, and with it this module, at its start.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path

from lib.core.phrases import dates_written
from lib.core.words import words

BIB_FILES = sorted((Path(__file__).resolve().parents[2] / "book").glob("references*.bib"))


def localized_fields(fields, lang: str) -> dict:
    """An entry's fields as the page's language reads them: its note, and the descriptive title the
    book gave a source that has none, in that language (note_<lang>, title_<lang> in the .bib,
    where there is one), every date the book wrote in them, and the day it was visited, as the
    language writes a date (Babel)."""
    fields = dict(fields)
    for name in ("note", "title"):
        fields[name] = dates_written(fields.get(f"{name}_{lang}", fields.get(name, "")), lang)
    if fields.get("urldate"):
        fields["urldate"] = dates_written(fields["urldate"], lang)
    return {k: v for k, v in fields.items() if v and not k.startswith(("note_", "title_"))}


def reference_style(w: dict) -> type:
    """Author-year in-text citations ("Venigalla y Li, 2022") with the language's "and"."""
    from sphinxcontrib.bibtex.style.referencing import PersonStyle
    from sphinxcontrib.bibtex.style.referencing.author_year import AuthorYearReferenceStyle

    @dataclass
    class BookReferenceStyle(AuthorYearReferenceStyle):
        person: PersonStyle = field(default_factory=lambda: PersonStyle(sep2=w["and"], last_sep=w["last_and"]))

    return BookReferenceStyle


def cited_as(entries, lang: str) -> None:
    """The entries (in place) as the citations of a page in `lang` name them: a source with no year
    reads "n.d." in sphinxcontrib-bibtex's author-year citations, a word of its own template, so
    the language's own words take its place ("s. f." in Spanish); the title a citation names a
    source by is the page language's (title_<lang>); sources of one author and one year read 2025a,
    2025b (`distinct_years`)."""
    no_date = words(lang)["site"]["references"]["no_date"]
    for entry in entries:
        entry.fields.setdefault("year", no_date)
        # A citation of a source with no author names it by its title: the book's title for it, in
        # the page's language, with its dates as the language writes them.
        if f"title_{lang}" in entry.fields or "title" in entry.fields:
            entry.fields["title"] = localized_fields(entry.fields, lang)["title"]
    distinct_years(entries, no_date)


def distinct_years(entries, no_date: str) -> None:
    """Sources of one author (or one title, for those with none) and one year, told apart as the
    author-year convention does: a letter after the year, in the order of their titles ("OpenAI,
    2025a"; "n.d.-a"), in the citations and in the list of references alike."""
    groups: dict[tuple, list] = {}
    for entry in entries:
        who = tuple(str(person) for person in entry.persons.get("author", ())) or (entry.fields.get("title"),)
        groups.setdefault((who, entry.fields["year"]), []).append(entry)
    for (_, year), same in groups.items():
        if len(same) > 1:
            by_title = sorted(same, key=lambda e: e.fields.get("title", ""))
            for letter, entry in zip("abcdefghijklmnopqrstuvwxyz", by_title):
                entry.fields["year"] = f"{year}-{letter}" if year == no_date else f"{year}{letter}"


@functools.cache
def sources(lang: str) -> tuple:
    """Every entry of the book's .bib files as a page in `lang` cites it, in the order of the list of
    references (pybtex's plain style sorts it, as the book's style does): the order in which a
    citation of several sources names them."""
    from pybtex.database import parse_file
    from pybtex.style.formatting.plain import Style

    entries = [entry for path in BIB_FILES for entry in parse_file(path, bib_format="bibtex").entries.values()]
    cited_as(entries, lang)
    return tuple(Style().sort(entries))


def citation(role: str, keys: str, lang: str) -> str | None:
    """The text of a citation, `{cite:<role>}` of `keys` (comma-separated), as the site writes it in
    `lang` ("[Hu et al., 2021]", "Hu et al. [2021]"); None when the book has none of the keys."""
    from sphinxcontrib.bibtex.style.referencing import format_references
    from sphinxcontrib.bibtex.style.template import SphinxReferenceInfo

    wanted = {key.strip() for key in keys.split(",")}
    # The site's reference info makes each citation a link; its text is the same without one.
    info = SphinxReferenceInfo(builder=None, fromdocname="", todocname="", citation_id="", title=None,
                               pre_text="", post_text="")
    cited = [(entry, None, info) for entry in sources(lang) if entry.key in wanted]
    if not cited:
        return None
    style = _style(lang)
    return str(format_references(style, role if role in style.role_names() else "p", cited))


@functools.cache
def _style(lang: str):
    return reference_style(words(lang)["site"]["references"])()
