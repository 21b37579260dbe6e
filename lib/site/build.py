"""Build the site: each language from the one _config.yml and _toc.yml, then the landing page.

    python -m lib.site.build             # what `make book` runs
    python -m lib.site.build --strict    # warnings are errors (the tests use this)
    python -m lib.site.build --out DIR   # build somewhere else (the tests use a temporary folder)
    SITE_URL=https://… REPOSITORY=https://… python -m lib.site.build
                                         # the site as published: the site's and the repository's
                                         # addresses in place of _config.yml's (lib/site/publisher.py)

Notebooks are executed through myst-nb's cache, keyed on each notebook's code. A change
in lib/ or in requirements.txt does not change that code, so it empties the cache: every
chapter is executed again and no page shows numbers computed by an older lib.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import re
import shutil
import subprocess
import sys
from pathlib import Path
from string import Template

from jupyter_book.sphinx import build_sphinx

from lib.core.words import LANGS, words
from lib.site import publisher

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "_config.yml"
TOC = ROOT / "_toc.yml"
BOOK = ROOT / "book"


def languages() -> dict:
    """Each language's site words (lib/data/words), by language code."""
    return {lang: words(lang)["site"] for lang in LANGS}


def baseurl() -> str:
    """The site's public address (html.baseurl, or the environment's SITE_URL), ending in "/"; "" when
    unset."""
    return publisher.load(CONFIG).site


def write_sitemap(out: Path, base: str, langs: list[str]) -> None:
    """sitemap.xml at the site root: every page of every language, each with its alternates in
    the other languages (the same file name in each language's folder), and robots.txt naming it."""
    names = sorted({p.name for lang in langs for p in (out / lang).glob("*.html")} - {"search.html", "genindex.html"})
    urls = []
    for lang in langs:
        for name in names:
            if not (out / lang / name).exists():
                continue
            alternates = "".join(
                f'\n    <xhtml:link rel="alternate" hreflang="{other}" href="{base}{other}/{name}"/>'
                for other in langs if (out / other / name).exists()
            )
            urls.append(f"  <url>\n    <loc>{base}{lang}/{name}</loc>{alternates}\n  </url>")
    (out / "sitemap.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
        + "\n".join(urls) + "\n</urlset>\n", encoding="utf8")
    (out / "robots.txt").write_text(f"User-agent: *\nAllow: /\nSitemap: {base}sitemap.xml\n", encoding="utf8")


def fingerprint() -> str:
    """A hash of everything a notebook's outputs depend on besides its own code."""
    digest = hashlib.sha256()
    files = sorted(p for p in (ROOT / "lib").rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    files += [ROOT / "requirements.txt", *sorted(BOOK.glob("*.bib"))]
    for path in files:
        digest.update(path.relative_to(ROOT).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def build_language(lang: str, out: Path, work: Path, strict: bool, execute: bool = True) -> int:
    """One language's Sphinx build, in its own process (Sphinx keeps the first language's
    translations for the life of a process)."""
    result = build_sphinx(
        BOOK / lang,
        work / lang / "html",
        noconfig=True,
        path_config=str(CONFIG),
        confoverrides={
            "language": lang,
            "external_toc_path": TOC.as_posix(),
            "latex_individualpages": False,
            "nb_execution_cache_path": str(work / ".jupyter_cache" / lang),
            **({} if execute else {"nb_execution_mode": "off"}),
            **publisher.sphinx_overrides(),  # SITE_URL and REPOSITORY, a published build's
        },
        doctreedir=work / lang / ".doctrees",
        warningiserror=strict,
        keep_going=strict,
        quiet=True,
    )
    if result != 0:
        return 1
    # Sphinx 7.4 does not overwrite a static file that an earlier build copied (and copies none
    # when no page changed): copy the book's own (book/_static) so a changed book.css or
    # ledger.js always reaches the site; the book's CSS without its comments and spaces (its
    # source keeps them: they are a third of its bytes, which every page downloads). A folder (the
    # charts' fonts) is copied whole, so a file it no longer holds leaves the site too.
    for own in (BOOK / "_static").iterdir():
        target = work / lang / "html" / "_static" / own.name
        if own.is_dir():
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(own, target)
        elif own.suffix == ".css":
            target.write_text(minified_css(own.read_text(encoding="utf8")), encoding="utf8")
        else:
            shutil.copy2(own, target)
    # myst-nb keeps executed notebooks beside the Sphinx output folder (work/<lang>/jupyter_execute),
    # so each language builds in its own folder and only the pages are copied to the site.
    shutil.rmtree(out / lang, ignore_errors=True)
    shutil.copytree(work / lang / "html", out / lang)
    return 0


CSS_STRING = re.compile(r"""("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')""")


def minified_css(text: str) -> str:
    """CSS without comments and without the spaces it does not need (strings kept as written)."""
    parts = CSS_STRING.split(re.sub(r"/\*.*?\*/", "", text, flags=re.S))
    for i in range(0, len(parts), 2):  # the even parts are outside strings
        code = re.sub(r"\s+", " ", parts[i])
        parts[i] = re.sub(r"\s*([{};:,>])\s*", r"\1", code)
    return "".join(parts).strip() + "\n"


def build(out: Path, work: Path, strict: bool = False, execute: bool = True) -> int:
    """Build every language side by side, then the landing page. With execute=False the pages
    show the notebooks' committed outputs (the tests' build: nbval has executed every notebook
    and checked those outputs against the current lib)."""
    stamp = work / ".lib-fingerprint"
    current = fingerprint()
    if not stamp.exists() or stamp.read_text() != current:
        shutil.rmtree(work / ".jupyter_cache", ignore_errors=True)
    langs = languages()
    command = ([sys.executable, "-m", "lib.site.build", "--out", str(out), "--work", str(work)]
               + (["--strict"] if strict else []) + ([] if execute else ["--no-execute"]))
    runs = {lang: subprocess.Popen([*command, "--lang", lang]) for lang in langs}
    failed = [lang for lang, run in runs.items() if run.wait() != 0]
    if failed:
        print(f"lib.site.build: the {', '.join(failed)} build failed", file=sys.stderr)
        return 1
    # The bilingual pages at the site root: the landing page and the 404 page (whose links are
    # absolute, as a server shows it at any address: the public address, or the host's root).
    fields = {f"{lang}_{key}": html.escape(value) for lang, entry in langs.items() for key, value in entry.items()
              if isinstance(value, str)}
    base = baseurl()
    fields["base"] = base or "/"
    # Its hreflang alternates, absolute, where the site's address is known (a search engine reads no
    # relative one; a preview has none, as its pages have none: book/_ext/bilingual.py).
    fields["alternates"] = "".join(f'<link rel="alternate" hreflang="{lang}" href="{html.escape(base)}{lang}/index.html">\n'
                                   for lang in langs) if base else ""
    for page, name in (("landing.html", "index.html"), ("404.html", "404.html")):
        (out / name).write_text(Template((BOOK / page).read_text(encoding="utf8")).substitute(fields), encoding="utf8")
    if base:
        write_sitemap(out, base, list(langs))
    stamp.write_text(current)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "_build" / "html", help="site folder (default _build/html)")
    parser.add_argument("--work", type=Path, help="per-language builds and caches (default: the site folder's parent)")
    parser.add_argument("--strict", action="store_true", help="turn warnings into errors")
    parser.add_argument("--no-execute", action="store_true", help="show the notebooks' committed outputs")
    parser.add_argument("--lang", help=argparse.SUPPRESS)  # one language only (used by build itself)
    args = parser.parse_args(argv)
    out = args.out.resolve()
    work = (args.work or out.parent).resolve()
    if args.lang:
        return build_language(args.lang, out, work, args.strict, not args.no_execute)
    status = build(out, work, strict=args.strict, execute=not args.no_execute)
    if status == 0:
        print(f"Site built. Open: {out / 'index.html'}")
    return status


if __name__ == "__main__":
    sys.exit(main())
