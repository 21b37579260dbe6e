"""The two languages say the same thing: same pages, same code but for the language,
same glue keys with the same values."""

import io
import re
import tokenize

import nbformat
import pytest

from .conftest import ROOT, chapter_notebooks, glue_records

ES, EN = ROOT / "book" / "es", ROOT / "book" / "en"
LANG_LINE = re.compile(r'^LANG = "(es|en)"$', re.M)


def test_both_languages_have_the_same_pages():
    names = lambda folder: sorted(p.name for p in folder.iterdir() if p.suffix in (".ipynb", ".md"))
    assert names(ES) == names(EN)


def notebooks():
    return sorted(p.name for p in ES.glob("*.ipynb"))


def without_comments(source: str) -> str:
    """Python source with its comments removed (each language comments in its own words)."""
    tokens = [t for t in tokenize.generate_tokens(io.StringIO(source).readline) if t.type != tokenize.COMMENT]
    return "\n".join(line.rstrip() for line in tokenize.untokenize(tokens).splitlines() if line.strip())


def comments(source: str) -> list[str]:
    return [t.string for t in tokenize.generate_tokens(io.StringIO(source).readline) if t.type == tokenize.COMMENT]


@pytest.mark.parametrize("name", notebooks())
def test_code_is_the_same_but_for_the_language(name):
    es, en = (nbformat.read(folder / name, 4) for folder in (ES, EN))
    code = lambda nb: [(without_comments(c.source), c.metadata.get("tags", [])) for c in nb.cells if c.cell_type == "code"]
    assert len(LANG_LINE.findall("\n".join(s for s, _ in code(es)))) == 1, "set LANG once per notebook"
    assert [(LANG_LINE.sub('LANG = "en"', s), t) for s, t in code(es)] == code(en)
    assert 'LANG = "es"' in "\n".join(s for s, _ in code(es))


@pytest.mark.parametrize("name", notebooks())
def test_each_language_comments_its_code_in_its_own_words(name):
    """The Spanish notebooks' comments are Spanish: none is the English one left as it was."""
    es, en = (nbformat.read(folder / name, 4) for folder in (ES, EN))
    pairs = zip((c.source for c in es.cells if c.cell_type == "code"), (c.source for c in en.cells if c.cell_type == "code"))
    for es_code, en_code in pairs:
        same = set(comments(es_code)) & set(comments(en_code))
        assert not same, f"{name}: comments left in English on the Spanish page: {sorted(same)}"


@pytest.mark.parametrize("name", notebooks())
def test_same_glue_keys_and_same_values(name):
    es, en = (glue_records(nbformat.read(folder / name, 4)) for folder in (ES, EN))
    assert es, f"{name} glues nothing: has it been executed (make notebooks)?"
    assert sorted(es) == sorted(en)
    raw = [key for key in es if key.endswith(".raw")]
    for key in raw:
        assert es[key] == en[key], f"{name}: {key} differs between languages"


@pytest.mark.parametrize("name", notebooks())
def test_every_glued_key_is_used_only_if_glued(name):
    """Each {glue:...} in the prose names a key the same notebook glues (a typo would fail the build)."""
    for folder in (ES, EN):
        nb = nbformat.read(folder / name, 4)
        glued = set(glue_records(nb))
        prose = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
        used = set(re.findall(r"\{glue:\w+\}`([^`]+)`", prose)) | set(re.findall(r"\{glue:md\} (\S+)", prose))
        assert used <= glued, f"{folder.name}/{name}: {sorted(used - glued)}"


@pytest.mark.parametrize("name", [p.name for p in chapter_notebooks()])
def test_each_cell_prints_one_stream_as_the_site_shows_it(name):
    """lib.site.notebooks coalesces a cell's stdout into one output, as the build and nbval see it: two
    pieces of one print would otherwise show on two lines of the page."""
    for lang in ("es", "en"):
        nb = nbformat.read(ROOT / "book" / lang / name, 4)
        for cell in nb.cells:
            names = [o.get("name") for o in cell.get("outputs", []) if o.get("output_type") == "stream"]
            assert len(names) == len(set(names)), f"{lang}/{name}: a cell with split streams: {names}"
