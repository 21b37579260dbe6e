"""What the page about the book says ("Transparency and corrections", book/_text/<lang>/about.md),
in the page's language, from the book's own records and nothing else:

- who publishes the book, how to reach them, who funds it and where its code and history are, as
  _config.yml states it (lib/site/publisher.py): written into the page when the site is built
  (book/_ext/trust.py), like the Binder link, so a change there needs no re-execution;
- the two articles as far as their stored copies show them (lib/data/articles.toml, with the titles
  of book/references.bib): title, language, the earliest date their words allow (from a sourced
  input, glued by the page's notebook: lib/site/about_page.py), and what the copy does not state;
- how to report an error. The corrections log is lib/site/corrections.py.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import tomllib
from pathlib import Path
from urllib.parse import urlparse

from babel import Locale, UnknownLocaleError

from lib.core import fmt
from lib.core.inputs import Inputs, load_inputs
from lib.core.phrases import article_quote, capital, join
from lib.core.words import LANGS, words
from lib.site.publisher import Publisher

ROOT = Path(__file__).resolve().parents[2]
ARTICLES = ROOT / "lib" / "data" / "articles.toml"
REFERENCES = ROOT / "book" / "references.bib"
# What a copy may state of its article, and the fields of a BibTeX entry that would record it.
FIELDS = {"author": ("author",), "outlet": ("journal", "howpublished", "publisher", "organization"),
          "date": ("date", "year"), "url": ("url",)}
PRECISIONS = ("day", "month")


@dataclasses.dataclass(frozen=True)
class Article:
    """One article the book checks, as far as its stored copy shows it."""

    key: str  # its chapter page and its entry in book/references.bib
    title: str  # as published (book/references.bib)
    title_en: str
    language: str
    copy: str  # the stored copy's file name
    written_after: str  # the sourced input whose date it cannot predate
    precision: str  # "day" or "month"
    why: dict[str, str]  # language -> why
    copy_says: dict[str, str]  # language -> what else the copy says of where it comes from
    stated: dict[str, str]  # what the references record of it: field -> value (author, outlet, date, url)

    def __post_init__(self):
        if self.precision not in PRECISIONS:
            raise ValueError(f"{self.key}: precision must be one of {', '.join(PRECISIONS)}, got {self.precision!r}")
        try:
            Locale.parse(self.language)
        except (UnknownLocaleError, ValueError, TypeError):
            raise ValueError(f"{self.key}: language must be a language code (es, en), got {self.language!r}") from None
        for name, table in (("why", self.why), ("copy_says", self.copy_says)):
            missing = [lang for lang in LANGS if not table.get(lang)] if name == "why" or table else []
            if missing:
                raise ValueError(f"{self.key}: {name}_{missing[0]} is missing (lib/data/articles.toml)")
        unknown = set(self.stated) - set(FIELDS)
        if unknown:
            raise ValueError(f"{self.key}: unknown fields stated: {', '.join(sorted(unknown))}")

    def date_after(self, inputs: Inputs) -> dt.date:
        """The earliest date the article's words allow: its sourced input's date."""
        if self.written_after not in inputs:
            raise ValueError(f"{self.key}: written_after names no sourced input: {self.written_after!r}")
        value = inputs[self.written_after].value
        if not isinstance(value, dt.date):
            raise ValueError(f"{self.key}: the input {self.written_after} is not a date ({value!r})")
        return value


def _bib_entries(path: Path) -> dict:
    from pybtex.database import parse_file

    return parse_file(str(path)).entries


def _plain(text: str) -> str:
    return str(text).replace("{", "").replace("}", "").strip()


def load_articles(path: Path = ARTICLES, references: Path = REFERENCES) -> dict[str, Article]:
    """The articles of lib/data/articles.toml, each with its title and whatever else its entry in
    the references records (author, outlet, date, address: none of them, today)."""
    with open(path, "rb") as fh:
        tables = tomllib.load(fh)
    entries = _bib_entries(references)
    articles = {}
    for key, raw in tables.items():
        if not isinstance(raw, dict):
            raise ValueError(f"{path.name}: {key} is not a table")
        missing = [f for f in ("copy", "language", "title_en", "written_after", "precision") if not raw.get(f)]
        if missing:
            raise ValueError(f"{path.name}: {key} has no {missing[0]}")
        if key not in entries:
            raise ValueError(f"{path.name}: {key} has no entry in {references.name}")
        entry = entries[key]
        stated = {}
        for field, bib_fields in FIELDS.items():
            if field == "author" and entry.persons.get("author"):
                stated[field] = join([str(p) for p in entry.persons["author"]], "en")
            for name in bib_fields:
                if name in entry.fields and field not in stated:
                    stated[field] = _plain(entry.fields[name])
        articles[key] = Article(
            key=key, title=_plain(entry.fields["title"]), title_en=raw["title_en"], language=raw["language"],
            copy=raw["copy"], written_after=raw["written_after"], precision=raw["precision"],
            why={lang: raw.get(f"why_{lang}", "") for lang in LANGS},
            copy_says={lang: raw[f"copy_says_{lang}"] for lang in LANGS if f"copy_says_{lang}" in raw},
            stated=stated,
        )
    return articles


def _lang(lang: str) -> dict:
    return words(lang)["trust"]  # words() refuses an unknown language


def either(items: list[str], lang: str) -> str:
    """A list after a negation: "a, b or c" / "a, b ni c"."""
    if not items:
        raise ValueError("an empty list")
    last = _lang(lang)["articles"]["or"]
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {last} {items[-1]}"


def date_written(day: dt.date, precision: str, lang: str) -> str:
    """A date at its precision, as the language writes it: "21 de marzo de 2023", "agosto de 2025"."""
    if precision not in PRECISIONS:
        raise ValueError(f"precision must be one of {', '.join(PRECISIONS)}, got {precision!r}")
    return fmt.date(day, lang) if precision == "day" else fmt.month(day, lang)


def article_markdown(article: Article, lang: str, inputs: Inputs | None = None) -> str:
    """One article as a list item of the page: its title (the original, after its translation on a
    page in another language), its chapter, its language, the earliest date its words allow and why,
    what its copy states and what it does not."""
    w = _lang(lang)["articles"]
    inputs = load_inputs() if inputs is None else inputs
    date = date_written(article.date_after(inputs), article.precision, lang)
    language = Locale.parse(article.language).get_language_name(lang)
    template = w["language_day"] if article.precision == "day" else w["language_month"]
    lines = [w["item"].format(title=article_quote(article.title, article.title_en, lang), chapter=f"{{doc}}`{article.key}`"),
             template.format(language=language, date=date, why=article.why[lang])]
    if article.stated:
        lines.append(w["stated"].format(fields=join([w["stated_fields"][f].format(value=v)
                                                     for f, v in article.stated.items()], lang)))
    absent = [w["fields"][f] for f in FIELDS if f not in article.stated]
    if absent:
        lines.append(w["not_stated"].format(fields=either(absent, lang)))
    if article.copy_says:
        lines.append(w["copy_says"].format(text=article.copy_says[lang]))
    return "- " + " ".join(lines)


def articles_markdown(lang: str, inputs: Inputs | None = None, articles: dict[str, Article] | None = None) -> str:
    articles = load_articles() if articles is None else articles
    inputs = load_inputs() if inputs is None else inputs
    return "\n".join(article_markdown(a, lang, inputs) for a in articles.values())


# ---------------------------------------------------------------- who publishes it (at build time)

def _link(text: str, url: str) -> str:
    return f"[{text}]({url})"


def _address(url: str) -> str:
    """A link that shows its address without the scheme (github.com/owner/repo/issues): read in full, as
    written, where the theme would shorten a link whose text is its address to "owner/repo#issues"."""
    return _link(url.split("://", 1)[-1], url)


def publisher_markdown(lang: str, publisher: Publisher) -> str:
    """Who publishes the book, its authors, how to reach them, who funds it and where its code and
    history are: a list, in the page's language; "not stated" for each fact _config.yml leaves empty.
    The publisher is the one _config.yml names, else the repository's owner as its address states it;
    the contact, the one stated, else the repository's issues. An unpublished preview (nothing stated,
    no site, no repository) says so once instead."""
    if not isinstance(publisher, Publisher):
        raise ValueError(f"a Publisher is needed, got {type(publisher).__name__}")
    w = _lang(lang)
    if publisher.preview:
        return w["preview"]
    line = lambda label, text: "- " + w["line"].format(label=label, text=text)  # noqa: E731
    name = _link(publisher.name, publisher.url) if publisher.name and publisher.url else publisher.name
    owner, owner_url = publisher.owner
    if not name and owner:
        name = w["owner"].format(link=_link(owner, owner_url), host=urlparse(owner_url).netloc)
    if publisher.contact:
        contact = _link(publisher.contact, publisher.contact_url)
    else:
        contact = w["contact_issues"].format(link=_address(publisher.issues)) if publisher.issues \
            else w["not_stated"]
    rows = [line(w["publisher"], name or w["no_publisher"]),
            line(w["authors"], words(lang)["site"]["author"]),
            line(w["contact"], contact),
            line(w["funding"], publisher.funding_in(lang) or w["not_stated"]),
            line(w["repository"], w["repository_text"].format(link=_address(publisher.repository))
                 if publisher.repository else w["no_repository"])]
    return "\n".join(rows)


def report_markdown(lang: str, publisher: Publisher) -> str:
    """How to report an error: to the stated contact, else in the repository's issues, else that no
    contact is stated; nothing in an unpublished preview, whose page says so once, above."""
    if not isinstance(publisher, Publisher):
        raise ValueError(f"a Publisher is needed, got {type(publisher).__name__}")
    w = _lang(lang)
    if publisher.preview:
        return ""
    if publisher.contact:
        return w["report"].format(link=_link(publisher.contact, publisher.contact_url))
    if publisher.repository:
        return w["report_issues"].format(link=_address(publisher.issues))
    return w["no_report"]


def author_name(lang: str, publisher: Publisher) -> str:
    """The name the book's reviews are signed with: its publisher's, else its authors' as the footer
    names them."""
    return publisher.name or capital(words(lang)["site"]["author"])
