"""The built site: both languages, each page in its language with links to the other,
every claim's numbers in each language's format, nothing loaded from another host; the page "Transparency
and corrections" and where ClaimReview's addresses lead (issue 28, items 9 and 10)."""

import csv
import functools
import io
import json
import re
from pathlib import Path
from urllib.parse import urlparse

import pytest
from bs4 import BeautifulSoup

from lib.chapters import answers
from lib.chapters.verdicts import check_all
from lib.core import sentences
from lib.core.words import words
from lib.site import answers_page, claimreview, corrections, publisher, trust
from lib.site.claimreview import anchor

from .conftest import LANGS
from .test_trust import ARTICLES, BASE, published_reviews  # noqa: F401 - a fixture of the trust tests, and their data

CHAPTERS = {1: "article1", 2: "article2"}


def pages(site, lang):
    return sorted(p for p in (site / lang).glob("*.html") if p.name not in ("genindex.html", "search.html"))


@functools.cache  # a page is read by many tests, and no test changes it
def soup(path):
    return BeautifulSoup(path.read_text(encoding="utf8"), "html.parser")


QUOTES = re.compile(r'["“”«»‘’]')


def text_of(path):
    return re.sub(r"\s+", " ", soup(path).get_text(" ").replace("\u00a0", " "))


def test_landing_page_offers_both_languages(built_site):
    landing = soup(built_site / "index.html")
    links = {a["href"] for a in landing.find_all("a")}
    assert {"es/index.html", "en/index.html"} <= links
    assert {s.get("lang") for s in landing.find_all("section")} == set(LANGS)


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_declares_its_language_and_links_to_the_other(built_site, lang):
    other = [x for x in LANGS if x != lang][0]
    assert pages(built_site, lang)
    for page in pages(built_site, lang):
        html = soup(page)
        assert html.html["lang"] == lang, page.name
        # The tests' build is a preview (no html.baseurl): no hreflang alternates, which must be absolute.
        alternates = {l["hreflang"]: l["href"] for l in html.find_all("link", rel="alternate") if l.get("hreflang")}
        assert alternates == {}, page.name
        switch = html.select_one(f'.language-switch a[hreflang="{other}"]')
        assert switch is not None, page.name
        assert (page.parent / switch["href"]).resolve().exists(), f"{page.name}: {switch['href']} is not built"


def test_a_published_page_names_its_other_languages_by_absolute_addresses():
    import importlib.util

    from .conftest import ROOT

    spec = importlib.util.spec_from_file_location("bilingual", ROOT / "book" / "_ext" / "bilingual.py")
    bilingual = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bilingual)
    alternate_links = bilingual.alternate_links
    site = "https://example.org/coste-real/"
    assert alternate_links("", "costs", list(LANGS)) == []
    links = alternate_links(site, "costs", list(LANGS))
    hrefs = dict(re.findall(r'hreflang="([^"]+)" href="([^"]+)"', "".join(links)))
    assert hrefs == {**{lang: f"{site}{lang}/costs.html" for lang in LANGS}, "x-default": f"{site}index.html"}


def test_theme_labels_follow_the_language(built_site):
    es, en = (soup(built_site / lang / "article1.html") for lang in ("es", "en"))
    assert es.find(attrs={"title": "Búsqueda"}) and not es.find(attrs={"title": "Search"})
    assert en.find(attrs={"title": "Search"})


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("article", sorted(CHAPTERS))
def test_each_claim_shows_its_numbers_in_the_page_language(built_site, lang, article):
    path = built_site / lang / f"{CHAPTERS[article]}.html"
    if not path.exists():
        pytest.fail(f"{path.name} was not built")
    text = text_of(path)
    for checked in check_all(article=article):
        figures = {"verdict": checked.verdict_label(lang)}
        for name in ("stated", "sourced", "as_stated"):
            figure = checked.figures().get(name)
            if figure is not None:
                figures[name] = figure.format(lang).replace("\u00a0", " ")
        if checked.claim.stated.text is not None:  # words, not a figure: the card shows the article's own
            figures["stated"] = checked.claim.quote if lang == "es" else checked.claim.quote_en
        for name, shown in figures.items():
            # Quotation marks inside a quote are the page's own (« » in Spanish).
            assert QUOTES.sub("", shown) in QUOTES.sub("", text), (
                f"{checked.claim.id} {name} '{shown}' is not on the {lang} page")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("article", sorted(CHAPTERS))
def test_each_claim_has_its_card_on_its_chapter_page(built_site, lang, article):
    """One card a claim, anchored by its id and titled with its verdict's label (which way and how
    far, or what kind of context), on its chapter's page in each language; no id in the title."""
    cards = soup(built_site / lang / f"{CHAPTERS[article]}.html").select("div.claim")
    claims = check_all(article=article)
    assert len(cards) == len(claims)
    for checked in claims:
        card = [c for c in cards if anchor(checked.claim.id) in (c.get("id"), *(a.get("id") for a in c.select("[id]")))]
        assert len(card) == 1, f"{lang}/{CHAPTERS[article]}: {len(card)} cards for {checked.claim.id}"
        title = re.sub(r"\s+", " ", card[0].select_one(".admonition-title").get_text(" ")).strip()
        assert title == sentences.label(checked, lang).replace("\xa0", " ") and checked.claim.id not in title


@pytest.mark.parametrize("lang", LANGS)
def test_charts_are_drawn_in_the_page_without_a_kernel(built_site, lang):
    html = soup(built_site / lang / "article1.html")
    charts = html.select("div.vega-chart")
    assert charts and all(c.find("svg") for c in charts)
    # The page's loader fetches the bundle (book/_ext/assets.py, LOADER), from the site itself.
    (loader,) = [s.text for s in html.find_all("script") if "window.bookChart = later" in s.text]
    scripts = json.loads(re.search(r"var scripts = (\[[^\]]*\])", loader).group(1))
    assert [urlparse(u).path.rsplit("/", 1)[-1] for u in scripts] == ["vega-bundle.js", "calculator.js"]
    for url in scripts:
        assert not external(url) and (built_site / lang / urlparse(url).path).is_file(), url


def external(url: str) -> bool:
    parsed = urlparse(url)
    return bool(parsed.netloc) or parsed.scheme not in ("", "file")


@pytest.mark.parametrize("lang", LANGS)
def test_each_page_links_its_style_sheets_as_one_current_file(built_site, lang):
    """The joined sheet (book/_ext/assets.py, one_stylesheet) holds the sheets its list names, in
    order, each as the site serves it (book.css minified by lib.site.build), and every page links it
    with its content's checksum: a sheet that changed reaches every page, the ones Sphinx did not
    write again too."""
    import zlib

    static = built_site / lang / "_static"
    (listed,) = static.glob("styles/book-*.txt")
    joined = listed.with_suffix(".css").read_text(encoding="utf8")
    sheets = listed.read_text(encoding="utf8").split()
    assert sheets[0] == "styles/theme.css" and sheets[-1] == "book.css", sheets
    for name in sheets:
        rules = re.sub(r'@charset "[^"]*";\s*', "", (static / name).read_text(encoding="utf8"))
        rules = re.sub(r'url\("fonts/', 'url("../fonts/', rules) if name == "book.css" else rules
        assert rules.strip()[:2000] in joined, f"{name} is not in {listed.with_suffix('.css').name} as served"
    checksum = f"{zlib.crc32(joined.encode()):08x}"
    for page in pages(built_site, lang):
        links = re.findall(r'<link [^>]*rel="stylesheet"[^>]*>', page.read_text(encoding="utf8"))
        assert links == [f'<link rel="stylesheet" href="_static/styles/{listed.stem}.css?v={checksum}" />'], (page.name, links)


@pytest.mark.parametrize("lang", LANGS)
def test_no_icon_is_a_character_of_a_web_font_the_site_leaves_out(built_site, lang):
    """The site serves no Font Awesome web font (book/_ext/assets.py draws its icons as masks), so a rule
    that writes an icon as one of its characters draws a box: the theme's chevron after "Contents", where
    the page's contents fold away on a desktop, was one. It is drawn as a mask too."""
    from book._ext import assets

    (joined,) = (built_site / lang / "_static" / "styles").glob("book-*.css")
    css = joined.read_text(encoding="utf8")
    glyphs = re.findall(r'content:\s*"\\f[0-9a-f]{3}"', css)
    assert not glyphs, glyphs[:5]
    chevron = re.search(r"\.onthispage:after\{([^}]*)\}", css)
    assert chevron and "mask:" in chevron.group(1), chevron and chevron.group(0)[:200]
    # And the rewrite catches what it is for: the theme's own rule, as the theme ships it.
    icons = assets.solid_icons((assets.theme_static() / "scripts" / "fontawesome.js").read_text(encoding="utf8"))
    shipped = '.onthispage:after{content:"\\f107";font-family:Font Awesome\\ 6 Free;font-weight:900;opacity:1}'
    assert "mask:" in assets.glyphs_as_masks(shipped, icons) and "f107" not in assets.glyphs_as_masks(shipped, icons)


def test_no_page_loads_anything_from_another_host(built_site):
    loaded = {"script": "src", "img": "src", "iframe": "src", "source": "src", "audio": "src", "video": "src",
              "embed": "src", "object": "data"}
    for page in sorted(built_site.rglob("*.html")):
        html = soup(page)
        for tag, attr in loaded.items():
            for el in html.find_all(tag):
                assert not external(el.get(attr) or ""), f"{page}: <{tag} {attr}={el.get(attr)}>"
        for link in html.find_all("link"):
            rel = set(link.get("rel") or [])
            if rel & {"stylesheet", "preload", "modulepreload", "icon", "prefetch", "manifest"}:
                assert not external(link.get("href") or ""), f"{page}: <link {rel} href={link.get('href')}>"
        for style in html.find_all("style"):
            assert not re.search(r"url\(\s*['\"]?(https?:)?//", style.text), page
    for css in built_site.rglob("*.css"):
        found = re.findall(r"@import\s+url\(\s*['\"]?(?:https?:)?//[^)]*|url\(\s*['\"]?(?:https?:)?//[^)]*", css.read_text(errors="ignore"))
        assert not found, f"{css}: {found[:3]}"


@pytest.mark.parametrize("lang", LANGS)
def test_ledger_lists_every_claim_with_its_computed_verdict(built_site, lang):
    table = soup(built_site / lang / "ledger.html").select_one("table.ledger")
    assert table is not None
    shown = {}
    for row in table.tbody.find_all("tr"):
        card = row.select_one("a.ledger-card")["href"].partition("#")[2]
        shown[card] = re.sub(r"\s+", " ", row.find("td").get_text(" ")).strip()
    expected = {anchor(c.claim.id): sentences.label(c, lang).replace("\xa0", " ") for c in check_all()}
    assert shown == expected


@pytest.mark.parametrize("lang", LANGS)
def test_ledger_csv_is_built_from_the_registry_and_linked(built_site, lang):
    import csv

    page = soup(built_site / lang / "ledger.html")
    link = page.select_one("a.ledger-download")
    assert link is not None and link["href"] == "ledger.csv"
    with open(built_site / lang / link["href"], encoding="utf8") as fh:
        rows = list(csv.DictReader(fh))
    assert [(r["Id"], r["verdict_code"]) for r in rows] == [(c.claim.id, c.verdict) for c in check_all()]


def chrome(html):
    """The page's interface: attribute values and texts outside the chapter's own prose and charts."""
    values = set()
    for el in html.find_all(True):
        if el.find_parent("svg") or el.name == "svg" or el.find_parent(class_="citation"):
            continue
        for attr in ("aria-label", "title", "placeholder", "alt"):
            if el.get(attr):
                values.add(el[attr].strip())
    for el in html.select(".bd-header, .bd-sidebar-primary, .bd-header-article, .bd-footer, .bd-footer-article, "
                          ".bd-sidebar-secondary, .prev-next-area, summary, .headerlink"):
        values.update(s.strip() for s in el.find_all(string=True) if s.strip())
    return values


@pytest.mark.parametrize("lang", LANGS)
def test_interface_words_come_from_the_language_table(built_site, lang):
    from lib.site.build import languages

    table = languages()[lang]
    english = set(languages()["en"]["theme"]) | {"Search this book...", "Show code cell source", "Hide code cell source"}
    for page in pages(built_site, lang):
        html = soup(page)
        words = chrome(html)
        if lang == "es":
            assert not words & english, f"{page.name}: English interface words {sorted(words & english)}"
        assert html.select_one("input[name=q]")["placeholder"] == table["search"], page.name
        assert table["author"] in html.select_one(".component-author").get_text(" "), page.name
    article = soup(built_site / lang / "article1.html")
    assert table["code_show"] in article.get_text(" ")


def test_reference_notes_are_in_the_page_language(built_site):
    es, en = (text_of(built_site / lang / "references.html") for lang in ("es", "en"))
    assert "consultado el" in es and "visited on" not in es and " y otros." in es and "and others" not in es
    # Notes and venues in the page's language (note_es in the .bib), none left in English.
    assert "Licencia cambiada a ODC-BY" in es and "Licence changed" not in es and "Licence changed" in en
    assert "prepublicación arXiv:2106.09685" in es and "arXiv preprint" not in es
    assert "Crónicas de prensa del lanzamiento de NVIDIA DGX Cloud" in es and "Press reports" in en
    assert "visited on" in en and ", and others." in en
    for text in (es, en):  # titles as written, not sentence-cased ("ia", "chatgpt")
        assert "El reto de entrenar modelos de IA desde casa: ChatGPT, NVIDIA" in text
    # A source with no year, in the list and in the citations of every page: the language's words.
    assert "s. f." in es and "n.d." in en
    assert not [page.name for page in (built_site / "es").glob("*.html") if "n.d." in text_of(page)]


@pytest.mark.parametrize("lang", LANGS)
def test_ledger_csv_cites_sources_as_readers_do(built_site, lang):
    import csv

    with open(built_site / lang / "ledger.csv", encoding="utf8") as fh:
        rows = {r["Id"]: r for r in csv.DictReader(fh)}
    sources = "Fuentes" if lang == "es" else "Sources"
    assert rows["A1-dolma-tokens"][sources] == "Soldaini et al. (2024); Allen Institute for AI (2024)"
    assert rows["A1-dolma-tokens"]["source_keys"] == "soldaini2024dolma ai2dolmacard"
    assert ("Venigalla y Li (2022)" if lang == "es" else "Venigalla and Li (2022)") in rows["A2-mosaic"][sources]
    # The verdict's rule and reasons, for reuse: kind, tolerance, mismatches, secondary inputs.
    assert (rows["A2-dgx-price"]["kind"], rows["A2-dgx-price"]["tolerance"]) == ("conversion", "0.1")
    assert rows["A2-dgx-price"]["secondary_inputs"] == "dgx_cloud_price_currency dgx_cloud_price_month"
    assert rows["A1-opt-cost"]["mismatch_dimensions"] == "hardware clock"


def test_no_binder_link_while_the_repository_url_is_unset(built_site):
    for lang in LANGS:
        for page in pages(built_site, lang):
            assert "binder-link" not in page.read_text(encoding="utf8"), page.name


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_has_a_title_and_a_description_in_its_language(built_site, lang):
    other = [x for x in LANGS if x != lang][0]
    for page in pages(built_site, lang):
        html = soup(page)
        meta = html.find("meta", attrs={"name": "description"})
        assert html.title and html.title.get_text(strip=True), page.name
        assert meta and len(meta["content"]) >= 40, page.name
        # One viewport tag: docutils' writer adds a second one (book/_ext/assets.py takes it out).
        assert len(html.find_all("meta", attrs={"name": "viewport"})) == 1, page.name
        twin = soup(built_site / other / page.name).find("meta", attrs={"name": "description"})
        assert meta["content"] != twin["content"], f"{page.name}: the same description in {lang} and {other}"


def test_404_page_leads_to_both_homes(built_site):
    page = soup(built_site / "404.html")
    assert {s.get("lang") for s in page.find_all("section")} == set(LANGS)
    hrefs = {a["href"] for a in page.find_all("a")}
    assert hrefs == {"/es/index.html", "/en/index.html"}  # no html.baseurl: the host's root


def test_sitemap_lists_every_page_with_its_alternates(built_site, tmp_path):
    import shutil
    import xml.etree.ElementTree as ET

    from lib.site.build import write_sitemap

    site = tmp_path / "site"
    for lang in LANGS:
        shutil.copytree(built_site / lang, site / lang, ignore=shutil.ignore_patterns("_static", "_sources"))
    write_sitemap(site, "https://example.org/book/", list(LANGS))
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    urls = ET.parse(site / "sitemap.xml").getroot().findall("s:url", ns)
    locs = {u.find("s:loc", ns).text for u in urls}
    assert "https://example.org/book/es/article1.html" in locs and "https://example.org/book/en/ledger.html" in locs
    assert len(locs) == sum(len(pages(built_site, lang)) for lang in LANGS)
    assert all(len(u.findall("x:link", ns)) == len(LANGS) for u in urls)
    assert "Sitemap: https://example.org/book/sitemap.xml" in (site / "robots.txt").read_text()


def test_no_page_carries_widget_state(built_site):
    """The widgets run in Jupyter only: their state (random model ids) is in no page, so two builds
    of one commit, executed or not, are the same files."""
    for page in built_site.rglob("*.html"):
        assert "application/vnd.jupyter.widget-state+json" not in page.read_text(encoding="utf8"), page.name


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_says_how_to_cite_its_licence_and_when_it_was_updated(built_site, lang):
    import importlib.util

    from lib.core import fmt
    from lib.core.words import words

    from .conftest import ROOT

    spec = importlib.util.spec_from_file_location("bilingual", ROOT / "book" / "_ext" / "bilingual.py")
    bilingual = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bilingual)
    updated = bilingual.last_commit_date(ROOT)
    assert updated is not None, "the build runs in a git checkout: the footer gives the commit's day"
    footer = words(lang)["site"]["footer"]
    for path in pages(built_site, lang):
        text = soup(path).select_one("p.book-footer")
        assert text is not None, f"{path.name}: no footer line"
        said = " ".join(text.get_text(" ").split())
        assert fmt.date(updated, lang) in said and "CC BY 4.0" in said and "MIT" in said, f"{path.name}: {said}"
        assert said.startswith(footer["cite"].split("{")[0].strip()), said


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_has_a_preview_in_its_language(built_site, lang):
    from lib.core import fmt

    for path in pages(built_site, lang):
        page = soup(path)
        meta = {m.get("property") or m.get("name"): m.get("content") for m in page.find_all("meta")}
        assert meta.get("og:locale") == fmt.locale(lang), path.name
        assert meta.get("og:title") and meta.get("og:description") == meta.get("description"), path.name
        assert meta.get("twitter:card") == "summary", path.name


def test_the_citation_file_has_what_citation_tools_read():
    import yaml

    from .conftest import ROOT

    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf8"))
    assert cff["cff-version"] == "1.2.0" and cff["message"] and cff["title"] and cff["authors"]
    assert (ROOT / "LICENSE.md").exists() and set(cff["license"]) == {"CC-BY-4.0", "MIT"}


@pytest.mark.parametrize("lang", LANGS)
def test_every_ledger_row_links_to_its_card(built_site, lang):
    ledger = soup(built_site / lang / "ledger.html")
    links = {a["href"].partition("#")[2]: (a.get_text(" ", strip=True), a["href"])
             for a in ledger.select("table.ledger a.ledger-card")}
    checked = {anchor(c.claim.id): c for c in check_all()}
    assert sorted(links) == sorted(checked)
    for fragment, (label, href) in links.items():
        assert label == sentences.label(checked[fragment], lang)
        card = soup(built_site / lang / href.partition("#")[0]).find(id=fragment)
        assert card is not None, f"{lang}/ledger: {label} links to {href}, which is no card"
        assert "claim" in card.get("class", []) or card.find_parent(class_="claim"), f"{href} is no claim's card"
    # No claim id in the page's table (the CSV keeps them).
    assert not re.search(r"\bA[12]-[a-z]", ledger.select_one("table.ledger").get_text(" "))


def _assets():
    import importlib.util

    from .conftest import ROOT

    spec = importlib.util.spec_from_file_location("assets", ROOT / "book" / "_ext" / "assets.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CSS = """html[data-theme="light"] .highlight { background: #fefefe; color: #080808 }
html[data-theme="light"] .highlight .n { color: #080808 } /* Name */
html[data-theme="light"] .highlight .o { color: #00622F } /* Operator */
html[data-theme="light"] .highlight .k { color: #6730C5 } /* Keyword */
html[data-theme="dark"] .highlight { background: #2b2b2b; color: #F8F8F2 }
html[data-theme="dark"] .highlight .n { color: #F8F8F2 } /* Name */
html[data-theme="dark"] .highlight .o { color: #ABE338 } /* Operator */
html[data-theme="dark"] .highlight .k { color: #DCC6E0 } /* Keyword */
"""


def test_code_tokens_coloured_as_their_block_are_plain_text_and_unused_rules_go():
    """A token whose colour is its code block's own, in every mode, loses its <span>; a coloured one
    keeps it; the stylesheet keeps the rules of the classes the pages still use (and the block's own)."""
    assets = _assets()
    assert assets.plain_token_classes(CSS) == {"n"}
    code = '<div class="highlight"><pre><span class="n">x</span> <span class="o">=</span> <span class="n">y</span></pre></div>'
    page, used = assets.unwrap_plain_tokens(f"<p><span class=\"n\">prose</span></p>{code}", {"n"})
    assert page == '<p><span class="n">prose</span></p><div class="highlight"><pre>x <span class="o">=</span> y</pre></div>'
    assert used == {"o"}
    css = assets.keep_token_rules(CSS, used)
    assert ".highlight .o" in css and ".highlight .k" not in css and ".highlight .n" not in css
    assert css.count(".highlight {") == 2


def test_the_built_pages_keep_their_code_colours(built_site):
    """Every token class a built page's code uses has its rule in the trimmed stylesheet."""
    for lang in LANGS:
        css = (built_site / lang / "_static" / "pygments.css").read_text(encoding="utf8")
        for page in pages(built_site, lang):
            for code in re.findall(r'<div class="highlight"><pre>(.*?)</pre>', page.read_text(encoding="utf8"), re.S):
                for name in set(re.findall(r'<span class="([\w-]+)">', code)):
                    assert f".highlight .{name} " in css, f"{lang}/{page.name}: .{name} has no rule"



# ---------------------------------------------------------------- the trust page and ClaimReview (tests/test_trust.py)

def test_no_page_carries_a_review_without_the_site_s_address(built_site):
    """The tests' build has no html.baseurl: no review could say where it is, and none is published."""
    for lang in LANGS:
        for name in claimreview.CHAPTERS.values():
            page = (built_site / lang / f"{name}.html").read_text(encoding="utf8")
            assert "application/ld+json" not in page and "ClaimReview" not in page, f"{lang}/{name}"


@pytest.mark.parametrize("lang", LANGS)
def test_each_review_s_address_is_an_element_of_its_built_page(built_site, published_reviews, lang):
    for article in claimreview.CHAPTERS:
        for item in published_reviews[lang, article]:
            url = urlparse(item["url"])
            path = built_site / url.path.removeprefix(urlparse(BASE).path)
            assert path.exists(), f"{item['url']} names no built page"
            card = soup(path).find(id=url.fragment)
            assert card is not None, f"{item['url']}: no element has the id {url.fragment}"
            assert "claim" in (card.get("class") or []) or card.find_parent(class_="claim") or card.select_one(".claim")


LOG_IDS = ("registro-de-correcciones", "corrections-log")


def _about(site: Path, lang: str) -> BeautifulSoup:
    return BeautifulSoup((site / lang / "about.html").read_text(encoding="utf8"), "html.parser")


@pytest.mark.parametrize("lang", LANGS)
def test_the_trust_page_says_who_publishes_the_book_and_what_is_not_stated(built_site, lang):
    page = _about(built_site, lang)
    assert page.html["lang"] == lang
    text = re.sub(r"\s+", " ", page.select_one("article").get_text(" ")).replace(" :", ":").replace("’", "'")
    stated = publisher.load()
    w = words(lang)["trust"]
    if stated.preview:  # the tests' build: an unpublished preview, said once, and nothing "not stated"
        assert text.count(w["preview"].replace("’", "'")) == 1
        assert w["no_publisher"] not in text and w["no_repository"] not in text and w["no_report"] not in text
    else:
        for line in trust.publisher_markdown(lang, stated).splitlines():
            label = line.removeprefix("- ").split(":")[0]
            assert label in text, f"{lang}/about: no line for {label}"
    if not stated.repository:
        assert not [a["href"] for a in page.select("article a[href^='http']") if "github" in a["href"]]
    assert page.select_one("article a[href^='method.html']"), "the method paragraph links to the method page"
    for article in ARTICLES.values():
        assert article.title in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_trust_page_s_log_is_the_repository_s_record_of_what_moved(built_site, lang):
    page = _about(built_site, lang)
    log = corrections.history(lang)
    section = page.find(id=lambda i: i in LOG_IDS)
    assert section is not None, f"{lang}/about: no corrections log"
    # The versions are folded in a <details> a reader opens (the page stays short on a phone).
    folded = section.select_one(":scope > details.corrections-log")
    assert (folded is not None) == bool(log.versions), f"{lang}/about: the log is not folded"
    items = folded.select(":scope > ul > li") if folded is not None else []
    assert len(items) == len(log.versions)
    if not log.versions:
        assert words(lang)["trust"]["log"]["none"] in section.get_text(" ")
    for item, version in zip(items, log.versions):
        assert version.commit[:7] in item.get_text(" ")
        pages = item.select(":scope > ul > li")
        assert len(pages) == len(version.changes)
        for li, change in zip(pages, version.changes):
            # Each verdict with what it was and became, each figure with its old and new value.
            assert len(li.select(":scope > ul > li")) == len(change.verdicts) + len(change.figures)
            link = li.select_one(":scope > p a, :scope > a")
            assert link is not None and link["href"].startswith(f"{change.page}.html"), li.get_text(" ")[:80]


def test_the_trust_page_is_built_alike_in_both_languages(built_site):
    """The same sections, in the same order, with the same lists but for the log: each language logs its
    own pages' figures (a change of Spanish formatting moves Spanish figures only)."""
    def shape(page):
        sections = [s for s in page.select("article section section") if s.get("id") not in LOG_IDS]
        return [(s.find(["h2", "h3"]).name, len(s.find_all("li")), len(s.find_all("p"))) for s in sections]

    es, en = (_about(built_site, lang) for lang in LANGS)
    assert shape(es) == shape(en) and len(shape(es)) == 4


# ---------------------------------------------------------------- the book's answers

@pytest.mark.parametrize("lang", LANGS)
def test_answers_csv_lists_each_answer_as_the_pages_write_it(lang, built_site):
    rows = list(csv.DictReader(io.StringIO(answers_page.csv_text(lang))))
    assert tuple(rows[0]) == answers_page.COLUMNS and [r["id"] for r in rows] == list(answers.ORDER)
    assert (built_site / lang / "answers.csv").read_text(encoding="utf8") == answers_page.csv_text(lang)
    texts = {}
    for row in rows:
        assert float(row["low"]) <= float(row["value"]) <= float(row["high"])
        pages = row["pages"].split()
        assert "index.html" in pages
        for name in pages:
            if name not in texts:
                texts[name] = " ".join(soup(built_site / lang / name).get_text(" ").split())
            assert " ".join(row["answer"].split()) in texts[name], (row["id"], name)


def test_every_page_has_the_secondary_sidebar_the_theme_s_script_looks_for(built_site):
    """sphinx-book-theme's script throws on a page with a full-width block and no secondary sidebar
    (its observer runs whenever such a block scrolls): where the theme leaves it out (a page with no
    contents to list, the ledger), the page carries an empty, hidden one (book/_ext/assets.py)."""
    for lang in LANGS:
        for path in pages(built_site, lang):
            assert soup(path).select_one("div.bd-sidebar-secondary") is not None, path.name
