"""The built pages read as a reader reads them.

Each page of both languages is parsed once (`read`) and its running text taken as a reader meets
it: the prose, the cards, the tables, the notes, and not the code (code cells, their printed
output, anything preformatted). In that text:

- no word and no quantifier is doubled ("al menos al menos 35", "unos al menos 70", a quote
  repeated in parentheses);
- no date is written in ISO form (2025-04-08), not even in a citation or a note (addresses aside);
- no internal name (a claim's id, an input's name, the package `lib` or one of its modules, a
  snake_case name, a file of the repository, a build tool's name) outside the method page's part
  for maintainers (its section `(maintainers)=`, which says it is for them); a source's own names
  quoted as code (`d_model`, a paper's `run.py`) are the source's words;
- one spelling in English: no word written both with -ize and with -ise (utilization, utilisation);
- no English on a Spanish page and no Spanish on an English page outside marked quotes (an element
  with a `lang` of its own: <q lang="en">…</q>, <blockquote lang="es">…</blockquote>), by a small
  list of each language's words that the other does not write; code is not a language, and the
  titles of works as they were published are names, but a title the book wrote itself (`title_es`
  and `title` in the .bib) is in the page's language;
- a marked quote in the other language comes with the page's: its translation just before it
  (“translation” (original)), just after it (original (translation), original, that is, …), or it
  is one of the originals of words the page has just written ("… (in the original, …)"); a quote
  with no word of the other language (a name, a figure) reads the same in both;
- no two sources are cited by the same words ("OpenAI, 2025" for two of them);
- no number is in bold but in a chapter's findings (bold marks a finding: a verdict, a result);
- every chapter opens with its findings: a MyST `:::{div} findings` block before its first section;
- every term of the glossary (Sphinx's `glossary` directive) is linked (a `{term}` role) at its
  first use in each chapter's running text;
- the home page links every chapter by its title and shows a chart.

Each check is a function of a parsed page; `test_the_checks_catch_what_they_must` plants a page
that breaks each one.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import subprocess
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup, NavigableString, Tag

from lib.core.inputs import load_inputs

from .conftest import LANGS, ROOT

TOC = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf8"))
HOME = TOC["root"]
PAGES = [HOME] + [entry["file"] for entry in TOC["chapters"]]
# The pages at the back of the book, which are not chapters.
BACK_MATTER = {"ledger", "method", "references", "glossary", "about"}
CHAPTERS = [name for name in PAGES[1:] if name not in BACK_MATTER]
# The method page's part for maintainers (its section labelled `(maintainers)=`) may name the program's
# parts and the inputs' names: it says it is for them.
MAINTAINERS = "maintainers"
CLAIM_ID = re.compile(r"\bA[12]-[a-z0-9]+(?:-[a-z0-9]+)+\b")
# The tools the book is built with: their names belong to the part for maintainers.
BUILD_TOOLS = re.compile(r"\b(?:Babel|myst-nb|MyST|glue|nbval|Sphinx|Jupytext|pytest|vl-convert|Altair|Vega-Lite)\b")

BLOCKS = ("p", "li", "td", "th", "dt", "dd", "h1", "h2", "h3", "h4", "caption", "figcaption", "summary")
HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
# Not read as running text: code and its printed output, charts, the headings' link marks.
NOT_TEXT = "script, style, svg, pre, .cell_input, .headerlink"
# Names of works as published: the in-text citations and the list of references.
CITATION = {"bibtex-citation", "citation"}

WORD = re.compile(r"[^\W\d_]+(?:[-'’][^\W\d_]+)*")
TOKEN = re.compile(r"[^\W_]+(?:[.,'’-][^\W_]+)*")
# Where a run of words ends: a sentence's or a clause's punctuation, brackets and quotation marks.
BREAK = re.compile(r"[.,:;!?…](?=\s|$)|[()\[\]«»“”\"‘’¿¡—·]")
ISO_DATE = re.compile(r"(?<![\w/.-])\d{4}-\d{2}-\d{2}(?![\w/-])")
URL = re.compile(r"\bhttps?://\S+|\b[\w-]+(?:\.[\w-]+)+/\S*")
IDENTIFIER = re.compile(
    r"\b[\w/-]+\.(?:py|toml|ipynb|cfg|yml|bib|md)\b"  # a file (the book's own: see `identifiers`)
    r"|\blib\b(?:\.\w+)*"  # the package, or one of its modules
    r"|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"  # a snake_case name
)
# The book's own files, by name and by path (a source's own files, such as a paper's run.py or
# qlora.py, are part of what it is cited for).
OWN_FILES = {p for f in subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout.split()
             for p in (f, f.rsplit("/", 1)[-1])}
# Quantifiers of each language: two in a row say one thing twice ("unos al menos 70").
QUANTIFIERS = {
    "es": ("al menos", "más de", "menos de", "unos", "unas", "cerca de", "casi", "como mucho", "hasta", "alrededor de",
           "aproximadamente"),
    "en": ("at least", "more than", "less than", "about", "some", "nearly", "at most", "up to", "around", "under",
           "approximately"),
}
# Words each language writes often and the other does not: one of them outside a marked quote is
# the other language. ("a", "no", "son", "me" are words of both.)
FOREIGN = {
    "es": {"the", "and", "of", "with", "from", "which", "that", "this", "these", "is", "are", "was", "were", "has",
           "have", "its", "their", "for", "by", "than", "to", "be", "been", "or", "but", "an", "on", "at", "it",
           "would", "could", "should", "between", "per", "what", "how", "why", "every", "each", "only"},
    "en": {"el", "la", "los", "las", "del", "que", "y", "en", "con", "por", "para", "una", "uno", "es", "sus", "su",
           "se", "lo", "al", "como", "más", "también", "según", "entre", "sin", "pero", "hay", "muy", "dólares", "veces",
           "horas", "años", "días", "fuentes", "fuente", "artículo", "cifra", "ficha"},
}
# "et al." is Latin in every language.
LATIN = re.compile(r"\bet al\b\.?")


@dataclasses.dataclass(frozen=True)
class Block:
    """One innermost block of a page (a paragraph, a list item, a table cell, a heading)."""

    full: str  # what a reader reads in it, marked quotes included, citations aside
    text: str  # without its marked quotes
    words: str  # without its marked quotes, inline code and citations: the words of the page's language
    heading: bool
    citing: bool  # a source in the list of references
    maintainers: bool = False  # in the method page's part for maintainers


@dataclasses.dataclass(frozen=True)
class Page:
    lang: str
    name: str
    blocks: tuple[Block, ...]
    article: Tag  # the page's <article>, as built (code and charts' scripts removed)


def _classes(tag: Tag) -> set[str]:
    return set(tag.get("class") or ())


def _pieces(block: Tag, root: Tag):
    """The block's strings, each with what it is inside of: a marked quote, inline code, a citation."""
    for node in block.descendants:
        if not isinstance(node, NavigableString):
            continue
        quoted = code = citing = False
        for parent in node.parents:
            if parent is root:
                break
            quoted |= bool(parent.get("lang"))
            code |= parent.name in ("code", "kbd", "samp")
            citing |= bool(_classes(parent) & CITATION)
        yield str(node), quoted, code, citing


def _squash(parts) -> str:
    return re.sub(r"\s+", " ", "".join(parts).replace("\u00a0", " ")).strip()


def _inside_marked(tag: Tag, root: Tag) -> bool:
    for parent in tag.parents:
        if parent is root:
            return False
        if parent.get("lang"):
            return True
    return False


def _for_maintainers(el: Tag) -> bool:
    """Whether a block is in the section labelled for maintainers (its id, or a target inside it)."""
    return any(section.get("id") == MAINTAINERS or section.find(id=MAINTAINERS, recursive=False)
               for section in el.find_parents("section"))


def parse(html: str, lang: str, name: str) -> Page:
    soup = BeautifulSoup(html, "html.parser")
    article = soup.select_one("article.bd-article") or soup.body or soup
    for tag in article.select(NOT_TEXT):
        tag.decompose()
    blocks = []
    for el in article.find_all(BLOCKS):
        if el.find(BLOCKS) or _inside_marked(el, article):  # each piece of text once; quotes aside
            continue
        pieces = list(_pieces(el, article))
        full = _squash(s if not citing else " " for s, _, _, citing in pieces)
        if _squash(s for s, *_ in pieces):
            blocks.append(Block(
                full=full,
                text=_squash(s if not quoted else " " for s, quoted, _, _ in pieces),
                words=_squash(s if not (quoted or code or citing) else " " for s, quoted, code, citing in pieces),
                heading=el.name in HEADINGS,
                citing=bool(el.find_parent(class_="citation")),
                maintainers=_for_maintainers(el),
            ))
    return Page(lang, name, tuple(blocks), article)


@functools.cache
def read(site: Path, lang: str, name: str) -> Page:
    """A built page, parsed once for every check."""
    path = site / lang / f"{name}.html"
    assert path.exists(), f"{lang}/{name}.html was not built"
    return parse(path.read_text(encoding="utf8"), lang, name)


# ---------------------------------------------------------------- the checks, one function each

def doubled(page: Page) -> list[str]:
    """A word or two said twice in a row (within a clause: "Heim: Heim explica" is two), a longer
    phrase said twice in a row (across punctuation: a quote repeated in parentheses), two
    quantifiers in a row."""
    quantifier = "|".join(re.escape(q) for q in QUANTIFIERS[page.lang])
    two = re.compile(rf"(?<!\w)(?:{quantifier})\s+(?:{quantifier})(?!\w)", re.IGNORECASE)
    found = []
    for block in page.blocks:
        found += two.findall(block.full)
        runs = [[t.casefold() for t in TOKEN.findall(run)] for run in BREAK.split(block.full)]
        found += _repeats(runs, range(1, 3)) + _repeats([[t for run in runs for t in run]], range(3, 9))
    return found


def _repeats(runs: list[list[str]], lengths) -> list[str]:
    """Each run of n tokens (n in `lengths`) followed by itself."""
    return [" ".join(tokens[i:i + 2 * n]) for tokens in runs for n in lengths for i in range(len(tokens) - 2 * n + 1)
            if tokens[i:i + n] == tokens[i + n:i + 2 * n]]


def iso_dates(page: Page) -> list[str]:
    return [d for block in page.blocks for d in ISO_DATE.findall(URL.sub(" ", block.text))]


@functools.cache
def input_names() -> frozenset[str]:
    from lib.core.inputs import load_inputs

    return frozenset(load_inputs())


def identifiers(page: Page) -> list[str]:
    """Internal names a reader should not meet: claim ids and input names anywhere (code too), the
    package and the book's own files, and, in the words (not code a source uses), snake_case names
    and build tools' names."""
    found = []
    for block in page.blocks:
        if block.citing or block.maintainers:
            continue
        text, words = URL.sub(" ", block.text), URL.sub(" ", block.words)
        found += CLAIM_ID.findall(text) + [w for w in re.findall(r"\b\w+\b", text) if w in input_names()]
        # A source's own files (a paper's code, a data set's CSV) are part of its reference.
        found += [m.group(0) for m in IDENTIFIER.finditer(text)
                  if m.group(0).startswith("lib") or ("." in m.group(0) and m.group(0) in OWN_FILES)]
        found += [m.group(0) for m in IDENTIFIER.finditer(words) if "." not in m.group(0) and not m.group(0).startswith("lib")
                  and m.group(0) not in found]
        found += BUILD_TOOLS.findall(words)
    return found


def mixed_spellings(pages: list[Page]) -> list[str]:
    """Words written both with -iz- and with -is- (utilization, utilisation) in English running
    text, outside quotes and code and the part for maintainers (whose table gives the sources' own
    section titles, "Double Quantization"): one spelling for the book."""
    seen = {w.casefold() for page in pages for block in page.blocks if not block.maintainers
            for w in WORD.findall(block.words)}
    return sorted(w for w in seen if "iz" in w and re.sub(r"iz(?=e|a|i)", "is", w) in seen)


def foreign_words(page: Page) -> list[str]:
    """Words of the other language outside marked quotes, code and the names of works."""
    return [f"{word} (in “{block.words[:100]}”)" for block in page.blocks
            for word in WORD.findall(LATIN.sub(" ", block.words)) if word.casefold() in FOREIGN[page.lang]]


# Where a marked quote's translation is: the words the page writes just before or just after it.
TRANSLATED_BEFORE = re.compile(r"[”»]\s*\(\s*$")
ORIGINALS = {"es": re.compile(r"\(en el original,[^()]*$"), "en": re.compile(r"\(in the original,[^()]*$")}
TRANSLATED_AFTER = {"es": re.compile(r"^\s*(?:\(|, es decir,)"), "en": re.compile(r"^\s*(?:\(|, that is,)")}


def untranslated_quotes(page: Page) -> list[str]:
    """Quotes in the other language, outside the names of works, with no translation beside them."""
    found = []
    for q in page.article.find_all("q", lang=True):
        if q["lang"] == page.lang or q.find_parent(class_=list(CITATION)) or q.find_parent("q"):
            continue
        if not any(w.casefold() in FOREIGN[page.lang] for w in WORD.findall(LATIN.sub(" ", q.get_text()))):
            continue
        block = q.find_parent(BLOCKS) or q.parent
        text = [str(s) for s in block.find_all(string=True)]
        inside = [str(s) for s in q.find_all(string=True)]
        start = next(n for n in range(len(text)) if text[n:n + len(inside)] == inside)
        before, after = "".join(text[:start]), "".join(text[start + len(inside):])
        if not (TRANSLATED_BEFORE.search(before) or ORIGINALS[page.lang].search(before)
                or TRANSLATED_AFTER[page.lang].search(after)):
            found.append(f"“{q.get_text()[:60]}” (in “{before[-60:]}…{after[:30]}”)")
    return found


def ambiguous_citations(page: Page) -> list[str]:
    """In-text citations that read the same but point at different entries of the references: a
    parenthetical one's link holds author and year ("[OpenAI, 2025]"), a textual one's, the year
    alone ("Soldaini et al. [2024]")."""
    targets: dict[str, set[str]] = {}
    for citation in page.article.select(".bibtex-citation"):
        before = ""  # the citation's text up to here
        for node in citation.descendants:
            if isinstance(node, NavigableString):
                before += str(node)
            elif node.name == "a" and "references.html#" in node.get("href", ""):
                # A textual citation's author: the words before the bracket that holds its link.
                author = re.split(r"[][,]", before.rstrip(" [")).pop().strip() if before.rstrip().endswith("[") else ""
                said = re.sub(r"\s+", " ", f"{author} {node.get_text(' ', strip=True)}").strip()
                targets.setdefault(said, set()).add(node["href"])
    return [f"{text} ({len(hrefs)} sources)" for text, hrefs in targets.items() if len(hrefs) > 1]


def bold_numbers(page: Page) -> list[str]:
    """Numbers in bold outside the findings blocks (a chapter's, the home page's answers) and the cards' titles (their verdicts)."""
    return [b.get_text(" ", strip=True) for b in page.article.select("strong, b")
            if re.search(r"\d", b.get_text()) and not b.find_parent(class_=["findings", "answer", "admonition-title"])]


def titles_in_the_other_language(page: Page, titles: dict[str, str]) -> list[str]:
    """Titles the book wrote itself for sources that have none (`titles`: the title as the other
    language writes it -> the page's), shown in the other language on this page."""
    return [title for title in titles for block in page.blocks if title in block.text]


def missing_findings(page: Page) -> list[str]:
    """The chapter's findings, a `:::{div} findings` block with text, before its first section."""
    findings = page.article.select_one("div.findings")
    if findings is None:
        return ["no findings block (a :::{div} findings block)"]
    if not findings.get_text(" ", strip=True):
        return ["the findings block is empty"]
    first_section = page.article.select_one("section section")
    if first_section is not None and (first_section in findings.parents
                                      or findings in first_section.find_all_next("div")):
        return ["the findings block comes after the chapter's first section"]
    return []


def glossary_terms(page: Page) -> dict[str, str]:
    """The terms of a glossary page, each with its anchor: every <dt> of Sphinx's glossary directive."""
    return {re.sub(r"\s+", " ", dt.get_text(" ", strip=True)): dt.get("id", "")
            for dt in page.article.select("dl.glossary dt")}


@functools.cache
def answer_texts() -> frozenset[str]:
    """The book's answers as the pages write them (typographic quotes as Sphinx sets them), both languages."""
    from lib.chapters import answers
    from lib.core.inputs import load_inputs

    found = answers.all_answers(load_inputs())
    return frozenset(" ".join(a.text(lang).split()) for a in found for lang in LANGS)


def _pasted_answer(node, said: frozenset[str]) -> bool:
    pasted = node.find_parent(class_="pasted-text")
    return pasted is not None and " ".join(pasted.get_text().split()) in said


def unlinked_terms(page: Page, terms: dict[str, str]) -> list[str]:
    """Glossary terms whose first use in the page's running text (not a heading, not a card's title,
    not the generated list of a chapter's claims, not a chart's description below it, not a quote, not code) is not a link to the term: the first use is the earlier of the first link
    to its entry (whatever its words: {term}`nodos <nodo>`) and the first time its words appear. The
    book's answers are left out too: each is one sentence, pasted alike on every page that gives it,
    which can carry no link (lib.chapters.answers)."""
    said = answer_texts()
    texts = [node for node in page.article.find_all(string=True)
             if node.strip() and not (_inside_marked(node, page.article) or node.find_parent([*HEADINGS, "code"])
                                      or node.find_parent(class_=["admonition-title", "claims-summary"])
                                      or node.find_parent("figcaption")  # a chart's text alternative, said again
                                      or _pasted_answer(node, said))]
    found = []
    for term, anchor in terms.items():
        pattern = re.compile(rf"(?<![\w-]){re.escape(term)}(?![\w-])", re.IGNORECASE)
        for node in texts:
            link = node.find_parent("a")
            if link is not None and anchor and link.get("href", "").endswith(f"#{anchor}"):
                break
            if pattern.search(node):
                found.append(f"{term} (first used unlinked in “{node.strip()[:80]}”)")
                break
    return found


def title_of(page: Page) -> str:
    return page.article.find("h1").get_text(" ", strip=True)


def home_misses(page: Page, titles: dict[str, str]) -> list[str]:
    """What the home page leaves out: a link to each chapter by its title (`titles`: page -> title),
    and a chart."""
    links = {a.get("href", "").split("#")[0]: re.sub(r"\s+", " ", a.get_text(" ", strip=True))
             for a in page.article.find_all("a")}
    found = [f"no link to {name}" if f"{name}.html" not in links else
             f"{name} linked as “{links[f'{name}.html']}”, not by its title “{title}”"
             for name, title in titles.items() if links.get(f"{name}.html") != title]
    if not page.article.select("div.vega-chart, figure.chart-picture, .cell_output img, figure img, figure svg"):
        found.append("no chart")
    return found


# ---------------------------------------------------------------- the tests

PAGE_IDS = [(lang, name) for lang in LANGS for name in PAGES]


@pytest.mark.parametrize("lang, name", PAGE_IDS)
def test_no_word_or_quantifier_is_doubled(built_site, lang, name):
    found = doubled(read(built_site, lang, name))
    assert not found, f"{lang}/{name}: said twice: {found}"


@pytest.mark.parametrize("lang, name", PAGE_IDS)
def test_no_date_is_written_in_iso_form(built_site, lang, name):
    found = iso_dates(read(built_site, lang, name))
    assert not found, f"{lang}/{name}: ISO dates {found}: write each as the language does (lib/core/fmt.py, Babel)"


@pytest.mark.parametrize("lang, name", PAGE_IDS)
def test_no_internal_name_outside_the_part_for_maintainers(built_site, lang, name):
    found = identifiers(read(built_site, lang, name))
    assert not found, f"{lang}/{name}: internal names in running text: {found}"


def test_english_is_spelt_one_way(built_site):
    found = mixed_spellings([read(built_site, "en", name) for name in PAGES])
    assert not found, f"written both with -iz- and -is- on the English pages: {found}"


@pytest.mark.parametrize("lang, name", PAGE_IDS)
def test_no_word_of_the_other_language_outside_marked_quotes(built_site, lang, name):
    found = foreign_words(read(built_site, lang, name))
    assert not found, f"{lang}/{name}: words of the other language: {found[:6]}"


@pytest.mark.parametrize("lang, name", PAGE_IDS)
def test_every_quote_in_the_other_language_is_translated(built_site, lang, name):
    found = untranslated_quotes(read(built_site, lang, name))
    assert not found, f"{lang}/{name}: quotes with no translation beside them: {found[:6]}"


@pytest.mark.parametrize("lang, name", PAGE_IDS)
def test_no_two_sources_are_cited_alike(built_site, lang, name):
    found = ambiguous_citations(read(built_site, lang, name))
    assert not found, f"{lang}/{name}: one citation for several sources: {found}"


@pytest.mark.parametrize("lang, name", PAGE_IDS)
def test_no_number_in_bold_but_in_the_findings(built_site, lang, name):
    found = bold_numbers(read(built_site, lang, name))
    assert not found, f"{lang}/{name}: numbers in bold that mark no finding: {found}"


def book_titles(lang: str) -> dict[str, str]:
    """The titles the book wrote for its sources, in the other language -> in `lang` (title_es in the .bib)."""
    from pybtex.database import parse_file

    titles = {}
    for path in sorted((ROOT / "book").glob("*.bib")):
        for entry in parse_file(path).entries.values():
            if "title_es" in entry.fields:
                es, en = (entry.fields[k].replace("{", "").replace("}", "") for k in ("title_es", "title"))
                titles.update({en: es} if lang == "es" else {es: en})
    return titles


@pytest.mark.parametrize("lang, name", PAGE_IDS)
def test_titles_the_book_wrote_are_in_the_page_language(built_site, lang, name):
    found = titles_in_the_other_language(read(built_site, lang, name), book_titles(lang))
    assert not found, f"{lang}/{name}: titles in the other language: {found}"


def assert_none(found: list[str], where: str) -> None:
    assert not found, f"{where}: {found}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", CHAPTERS)
def test_every_chapter_opens_with_its_findings(built_site, lang, name):
    assert_none(missing_findings(read(built_site, lang, name)), f"{lang}/{name}")


def glossary(site: Path, lang: str) -> dict[str, str]:
    return {term: anchor for name in PAGES for term, anchor in glossary_terms(read(site, lang, name)).items()}


@pytest.mark.parametrize("lang", LANGS)
def test_the_book_has_a_glossary(built_site, lang):
    found = [] if glossary(built_site, lang) else ["no page holds a glossary (Sphinx's glossary directive)"]
    assert_none(found, lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", CHAPTERS)
def test_every_glossary_term_is_linked_at_its_first_use(built_site, lang, name):
    found = unlinked_terms(read(built_site, lang, name), glossary(built_site, lang))
    assert_none(found, f"{lang}/{name}")


@pytest.mark.parametrize("lang", LANGS)
def test_the_home_page_links_every_chapter_and_shows_a_chart(built_site, lang):
    titles = {name: title_of(read(built_site, lang, name)) for name in CHAPTERS}
    assert_none(home_misses(read(built_site, lang, HOME), titles), f"{lang}/{HOME}")


def answer_links(page: Page) -> dict[str, str]:
    """Where the home page's "Worked out" link beside each answer goes (answer id -> href): the link
    that follows the answer's sentence in its line of the answers' block."""
    from lib.chapters import answers

    found = {}
    for item in page.article.select("div.answer li, div.answer p"):
        text = re.sub(r"\s+", " ", item.get_text(" ", strip=True))
        for a in answers.all_answers(load_inputs()):
            if re.sub(r"\s+", " ", a.text(page.lang)) in text and a.id not in found:
                links = [x.get("href", "") for x in item.find_all("a") if not x.find_parent(class_="glossary")]
                found[a.id] = links[-1] if links else ""
    return found


def misplaced_answer_links(page: Page, site: Path) -> list[str]:
    """Each answer's link that does not land on its section (lib.chapters.answers.SECTIONS): on the
    first page after the home page that states it, at the label of the section that computes it,
    an element the target page has."""
    from lib.chapters import answers

    links, found = answer_links(page), []
    for id_, label in answers.SECTIONS.items():
        target = answers.PAGES[id_][1]
        want = f"{target}.html" + (f"#{label}" if label else "")
        if links.get(id_) != want:
            found.append(f"{id_}: links to {links.get(id_)!r}, not {want!r}")
        elif label and not BeautifulSoup((site / page.lang / f"{target}.html").read_text(encoding="utf8"),
                                         "html.parser").find(id=label):
            found.append(f"{id_}: {target}.html has no element with id {label!r}")
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_the_home_page_links_each_answer_to_the_section_that_computes_it(built_site, lang):
    assert_none(misplaced_answer_links(read(built_site, lang, HOME), built_site), f"{lang}/{HOME}")


# ---------------------------------------------------------------- each check fails on a planted page

def planted(body: str, lang: str = "es", name: str = "article1") -> Page:
    return parse(f'<html lang="{lang}"><body><article class="bd-article">{body}</article></body></html>', lang, name)


def test_the_checks_catch_what_they_must():
    # Doubled words and quantifiers, and a quote repeated in parentheses (the examples).
    assert doubled(planted("<p>al menos al menos 35 reinicios, más de más de 100 máquinas</p>"))
    assert doubled(planted("<p>unos al menos 70 reinicios automáticos</p>"))
    assert doubled(planted('<p><q lang="es">(Hu et al., Microsoft, 2021)</q> ((Hu et al., Microsoft, 2021))</p>',
                           "en"))
    assert doubled(planted("<p>Cómo se lee: se lee se lee como más de uno</p>"))
    assert not doubled(planted("<p>Un billón es un millón de millones. Millones, no miles.</p>"))
    # ISO dates, but not inside an address.
    assert iso_dates(planted("<p>Matiz · fecha: la fuente: 2025-04-08</p>")) == ["2025-04-08"]
    assert iso_dates(planted("<ul><li><p>URL: consultado el 2026-09-20</p></li></ul>")) == ["2026-09-20"]
    assert not iso_dates(planted("<p>https://www.bloomberg.com/news/articles/2023-03-13/microsoft</p>"))
    # Program identifiers, in prose or in inline code; the method page may name them.
    assert identifiers(planted("<p>Cada cifra sale de <code>lib</code>, de lib.core.fmt</p>")) == ["lib", "lib.core.fmt"]
    assert identifiers(planted("<p>lib/inputs.py no tiene la unidad «month»: opt_on_demand</p>")) == [
        "lib/inputs.py", "opt_on_demand"]
    assert not identifiers(planted('<section id="maintainers"><p><code>lambda_h100_sxm_8x</code>, glue</p></section>',
                                   name="method"))
    assert identifiers(planted("<p><code>lambda_h100_sxm_8x</code></p>", name="method")) == ["lambda_h100_sxm_8x"]
    assert identifiers(planted("<p>No se sostiene · A1-budget-full-ft-partial, formatea con Babel</p>")) == [
        "A1-budget-full-ft-partial", "Babel"]
    assert not identifiers(planted("<p>con <code>d_model</code>, como escribe el artículo</p>"))
    # English spelt two ways.
    assert mixed_spellings([planted("<p>its utilization</p>", "en"), planted("<p>the utilisation</p>", "en")]) == [
        "utilization"]
    assert not mixed_spellings([planted("<p>its utilisation; <q lang='en'>model flops utilization</q></p>", "en")])
    assert not identifiers(planted("<pre>from lib.site import page</pre><div class='cell_input'>x_y = 1</div>"))
    assert identifiers(planted("<p>see tests/conftest.py and book.css, not PEFT's run.py</p>")) == ["tests/conftest.py"]
    # English on a Spanish page, Spanish on an English page, outside marked quotes and code.
    assert foreign_words(planted("<p>Recalculado: lowering the learning rate y restarting from a checkpoint</p>"))
    assert foreign_words(planted("<p>Dan las fuentes: open-weight y permissive, per the card</p>"))
    assert foreign_words(planted("<p>The article says: más de 1,0 año</p>", "en"))
    assert not foreign_words(planted('<p>Recalculado: <q lang="en">lowering the learning rate</q></p>'))
    assert not foreign_words(planted('<p>The article: <q lang="es">ronda los tres billones</q>, Hu et al.</p>', "en"))
    assert not foreign_words(planted('<p><span class="bibtex-citation">[Microsoft Built an Expensive '
                                     'Supercomputer to Power OpenAI’s ChatGPT, 2023]</span></p>'))
    # A quote in the other language with no translation beside it (a mismatch's words on an English page).
    assert untranslated_quotes(planted('<p>Hardware: the article does its sum with the H100 (<q lang="es">una GPU '
                                       'H100 se alquila</q>); the sources, with the A100.</p>', "en"))
    assert untranslated_quotes(planted('<p>Lo dice así: <q lang="en">A number of mid-flight changes to LR</q>.</p>'))
    assert not untranslated_quotes(planted('<p>in its words “an H100 GPU rents” (<q lang="es">una GPU H100 se '
                                           'alquila</q>)</p>', "en"))
    assert not untranslated_quotes(planted('<p>bajar la tasa (en el original, <q lang="en">lowering the rate</q> y '
                                           '<q lang="en">restarting from a checkpoint</q>)</p>'))
    assert not untranslated_quotes(planted('<p>rinde <q lang="en">on-par or better</q> (igual o mejor)</p>'))
    assert not untranslated_quotes(planted('<p>The article says: <q lang="es">(Hu et al., Microsoft, 2021)</q></p>',
                                           "en"))
    # Two sources cited alike, and the same source cited twice.
    cite = '<a class="reference internal" href="references.html#{}">OpenAI, 2025</a>'
    span = '<span class="bibtex-citation">[{}]</span>'
    assert ambiguous_citations(planted(f"<p>{span.format(cite.format('id14') + ', ' + cite.format('id13'))}</p>")) == [
        "OpenAI, 2025 (2 sources)"]
    once = span.format(cite.format("id14"))
    assert not ambiguous_citations(planted(f"<p>{once}; {once}</p>"))
    year = '<span class="bibtex-citation">{} [<a href="references.html#{}">2024</a>]</span>'
    assert not ambiguous_citations(planted(f"<p>{year.format('Soldaini', 'id2')}, {year.format('Cottier', 'id3')}</p>"))
    # A number in bold, but not in the findings.
    assert bold_numbers(planted("<p><strong>Dice el artículo:</strong> <strong>5,7 millones</strong></p>")) == [
        "5,7 millones"]
    assert not bold_numbers(planted('<div class="findings"><p>Cuesta <strong>5,7 millones</strong></p></div>'))
    press = {"Press reports of the launch of NVIDIA DGX Cloud": "Crónicas de prensa del lanzamiento de NVIDIA DGX Cloud"}
    assert titles_in_the_other_language(planted('<p><span class="bibtex-citation">[Press reports of the launch of '
                                                'NVIDIA DGX Cloud, 2023]</span></p>'), press)
    # A chapter with no findings block, or with it after its first section.
    assert missing_findings(planted("<section><h1>T</h1><p>Texto</p><section><h2>S</h2></section></section>"))
    assert missing_findings(planted('<section><h1>T</h1><section><h2>S</h2><div class="findings"><p>F</p></div>'
                                    "</section></section>"))
    assert not missing_findings(planted('<section><h1>T</h1><div class="findings"><p>Lo esencial: F.</p></div>'
                                        "<section><h2>S</h2></section></section>"))
    # A glossary term first used without its link, though linked later; and linked at its first use.
    terms = glossary_terms(planted('<dl class="glossary"><dt id="term-MFU">MFU</dt><dd>…</dd>'
                                   '<dt id="term-nodo">nodo</dt><dd>…</dd></dl>', name="glossary"))
    assert terms == {"MFU": "term-MFU", "nodo": "term-nodo"}
    link = '<a class="reference internal" href="glossary.html#term-MFU"><span class="xref std std-term">MFU</span></a>'
    nodes = '<a class="reference internal" href="glossary.html#term-nodo"><span class="std-term">nodos</span></a>'
    assert unlinked_terms(planted(f"<h2>MFU</h2><p>La MFU de OPT.</p><p>{link}</p>"), terms) == [
        "MFU (first used unlinked in “La MFU de OPT.”)"]
    assert not unlinked_terms(planted(f"<h2>MFU</h2><p>La {link} de OPT, en {nodes}.</p><p>La MFU, un nodo.</p>"),
                              terms)
    # A home page that leaves a chapter out, names one by another name, or has no chart.
    home = '<p><a href="article1.html">Qué hace falta de verdad</a></p><div class="vega-chart"></div>'
    titles = {"article1": "Lo que de verdad cuesta entrenar tu propio modelo", "costs": "Por qué no coinciden"}
    assert home_misses(planted(home, name="index"), titles) == [
        "article1 linked as “Qué hace falta de verdad”, not by its title “Lo que de verdad cuesta entrenar tu propio "
        "modelo”", "no link to costs"]
    assert home_misses(planted('<p><a href="costs.html">Por qué no coinciden</a></p>', name="index"),
                       {"costs": "Por qué no coinciden"}) == ["no chart"]


def test_an_answer_linked_to_the_top_of_its_page_is_caught(tmp_path):
    from lib.chapters import answers

    opt = next(a for a in answers.all_answers(load_inputs()) if a.id == "run_opt")
    home = planted(f'<div class="answer"><ul><li>{opt.text("es")} <a href="costs.html">Cómo se calcula</a></li></ul></div>',
                   name="index")
    assert "run_opt: links to 'costs.html', not 'costs.html#costs-prices'" in misplaced_answer_links(home, tmp_path)
