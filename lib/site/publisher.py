"""Who publishes the book and how to reach them, as `_config.yml` states it: its `publisher` section
(name, web address, contact, funding in each language), the book's `repository.url` and the site's
`html.baseurl`. What the file leaves empty is not stated, and the pages say so: nothing here is
guessed. Read by the page about the book (book/_ext/trust.py) and by its ClaimReview data
(lib/site/claimreview.py, book/_ext/claimreview.py).

A published build gives the site's address and the repository's in the environment, and they take the
place of `html.baseurl` and `repository.url` (`make book SITE_URL=https://… REPOSITORY=https://…`,
the publishing workflow, .github/workflows/publish.yml): SITE_URL and REPOSITORY. The publisher, where
`publisher.name` is empty, is then the repository's owner as its address states it (github.com/<owner>/…).
A build with neither a site, a repository nor a publisher is an unpublished preview, and says so once.

    publisher:
      name: ""      # the person or organisation that publishes the book
      url: ""       # its web address
      contact: ""   # how a reader reaches it: an email address or a web address
      funding:      # who pays for the work, in each language of the book
        es: ""
        en: ""
"""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path
from urllib.parse import urlparse

import yaml

from lib.core.words import LANGS

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "_config.yml"
# The environment's variables that take the place of _config.yml's fields in a published build.
OVERRIDES = {"SITE_URL": ("html", "baseurl"), "REPOSITORY": ("repository", "url")}
EMAIL = re.compile(r"^[^@\s<>\"']+@[^@\s<>\"']+\.[^@\s<>\"']+$")


def web_address(value, what: str) -> str:
    """An http(s) address as written (no trailing slash), "" for none; anything else is a ValueError."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ValueError(f"{what} must be a web address (text), got {value!r}")
    value = value.strip().rstrip("/")
    if not value:
        return ""
    parts = urlparse(value)
    if parts.scheme not in ("http", "https") or not parts.netloc or any(c in value for c in " <>\"'()[]"):
        raise ValueError(f"{what} must be an http(s) address, got {value!r}")
    return value


def site_address(value) -> str:
    """The site's public address (html.baseurl), ending in "/"; "" where it is not set."""
    base = web_address(value, "html.baseurl")
    return base + "/" if base else ""


@dataclasses.dataclass(frozen=True)
class Publisher:
    """What _config.yml states about who publishes the book; "" where it states nothing."""

    name: str = ""
    url: str = ""
    contact: str = ""  # an email address or a web address
    funding: dict[str, str] = dataclasses.field(default_factory=dict)  # language -> words
    repository: str = ""  # the public repository (repository.url)
    site: str = ""  # the site's public address (html.baseurl), ending in "/"

    def __post_init__(self):
        for name in ("name", "url", "contact", "repository", "site"):
            if not isinstance(getattr(self, name), str):
                raise ValueError(f"publisher {name} must be text, got {getattr(self, name)!r}")
        web_address(self.url, "publisher.url")
        web_address(self.repository, "repository.url")
        if self.site:
            site_address(self.site)
        if self.contact and not EMAIL.match(self.contact):
            try:
                web_address(self.contact, "publisher.contact")
            except ValueError:
                raise ValueError(f"publisher.contact must be an email or an http(s) address, got {self.contact!r}") from None
        if not isinstance(self.funding, dict) or set(self.funding) - set(LANGS):
            raise ValueError(f"publisher.funding must name each language of the book ({', '.join(LANGS)}), "
                             f"got {self.funding!r}")
        if not all(isinstance(v, str) for v in self.funding.values()):
            raise ValueError(f"publisher.funding must be text in each language, got {self.funding!r}")
        stated = {lang for lang, words in self.funding.items() if words.strip()}
        if stated and stated != set(LANGS):
            raise ValueError(f"publisher.funding is stated in {', '.join(sorted(stated))} only: state it in every "
                             f"language of the book ({', '.join(LANGS)}), or in none")

    @property
    def preview(self) -> bool:
        """An unpublished preview: no site address, no repository, no publisher and no contact stated."""
        return not (self.site or self.repository or self.name or self.contact)

    @property
    def owner(self) -> tuple[str, str]:
        """Who holds the repository, as its address states it (https://github.com/<owner>/<name>): the
        owner's name and address; ("", "") without a repository or an owner in its address."""
        parts = urlparse(self.repository)
        segments = [s for s in parts.path.split("/") if s]
        if len(segments) < 2:
            return "", ""
        return segments[0], f"{parts.scheme}://{parts.netloc}/{segments[0]}"

    def funding_in(self, lang: str) -> str:
        """Who pays for the work, in `lang`; "" where it is not stated."""
        if lang not in LANGS:
            raise ValueError(f"unknown language '{lang}': use one of {', '.join(LANGS)}")
        return self.funding.get(lang, "").strip()

    @property
    def contact_url(self) -> str:
        """The address a reader writes to: the contact (mailto: for an email), else the repository's
        issues; "" where none is stated."""
        if self.contact:
            return f"mailto:{self.contact}" if EMAIL.match(self.contact) else self.contact
        return self.issues

    @property
    def issues(self) -> str:
        """Where a correction is reported in the repository (its issues); "" without a repository."""
        return f"{self.repository}/issues" if self.repository else ""

    def commit_url(self, commit: str) -> str:
        """The address of one commit in the repository; "" without a repository."""
        if not re.fullmatch(r"[0-9a-f]{7,40}", commit or ""):
            raise ValueError(f"not a commit's hash: {commit!r}")
        return f"{self.repository}/commit/{commit}" if self.repository else ""


def _text(value, what: str) -> str:
    """A field's words, "" for YAML's empty value; anything but text is a ValueError."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ValueError(f"{what} must be text, got {value!r}")
    return value.strip()


def _section(config: dict, name: str) -> dict:
    section = config.get(name) or {}
    if not isinstance(section, dict):
        raise ValueError(f"_config.yml's {name} must be a mapping, got {section!r}")
    return section


def from_config(config: dict) -> Publisher:
    """The publisher as a _config.yml's contents (a dict) state it."""
    if not isinstance(config, dict):
        raise ValueError(f"a book configuration is a mapping, got {type(config).__name__}")
    section = config.get("publisher") or {}
    if not isinstance(section, dict):
        raise ValueError(f"_config.yml's publisher must be a mapping (name, url, contact, funding), got {section!r}")
    unknown = set(section) - {"name", "url", "contact", "funding"}
    if unknown:
        raise ValueError(f"_config.yml's publisher has unknown fields: {', '.join(sorted(unknown))}")
    funding = section.get("funding") or {}
    if not isinstance(funding, dict):
        raise ValueError(f"publisher.funding must name each language of the book ({', '.join(LANGS)}), got {funding!r}")
    return Publisher(
        name=_text(section.get("name"), "publisher.name"),
        url=web_address(section.get("url"), "publisher.url"),
        contact=_text(section.get("contact"), "publisher.contact"),
        funding={lang: _text(words, f"publisher.funding.{lang}") for lang, words in funding.items()},
        repository=web_address(_section(config, "repository").get("url"), "repository.url").removesuffix(".git"),
        site=site_address(_section(config, "html").get("baseurl")),
    )


def overridden(config: dict, environ=None) -> dict:
    """A _config.yml's contents with html.baseurl and repository.url taken from the environment's
    SITE_URL and REPOSITORY where they are set (not empty): the site as published. A value that is not
    an http(s) address is a ValueError naming the variable."""
    environ = os.environ if environ is None else environ
    config = {key: dict(value) if isinstance(value, dict) else value for key, value in config.items()}
    for variable, (section, field) in OVERRIDES.items():
        value = (environ.get(variable) or "").strip()
        if value:
            web_address(value, variable)
            config[section] = {**_section(config, section), field: value}
    return config


def book_config(path: Path = CONFIG, environ=None) -> dict:
    """The book's configuration as the site is built: _config.yml, with the environment's overrides."""
    return overridden(yaml.safe_load(Path(path).read_text(encoding="utf8")) or {}, environ)


def sphinx_overrides(environ=None) -> dict:
    """What the environment's SITE_URL and REPOSITORY change in each language's Sphinx configuration
    (Jupyter Book maps html.baseurl to html_baseurl, repository.url to the theme's repository_url)."""
    stated = from_config(overridden({}, environ))
    return ({"html_baseurl": stated.site} if stated.site else {}) | (
        {"html_theme_options": {"repository_url": stated.repository}} if stated.repository else {})


def load(path: Path = CONFIG, environ=None) -> Publisher:
    """The publisher as the book's _config.yml states it, with the environment's SITE_URL and REPOSITORY."""
    return from_config(book_config(path, environ))
