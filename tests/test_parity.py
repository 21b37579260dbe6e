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


# ---------------------------------------------------------------- the chapters' text notebooks

from lib.site.notebooks import read_text, text_notebook  # noqa: E402

GLUE = re.compile(r"\{glue(?::\w+)?\}`([^`]+)`|\{glue:md\} (\S+)")
CITE = re.compile(r"\{cite(?::\w+)?\}`([^`]+)`")
HEADING = re.compile(r"^(#{1,6}) ", re.M)
DIRECTIVE = re.compile(r"^(?:```|:::)\{(\w[\w:-]*)\}", re.M)


def cells_of(nb) -> list[tuple]:
    """What a notebook's cells are, for comparing a text notebook with its executed .ipynb."""
    return [(c.cell_type, c.source.rstrip("\n"), c.metadata.get("tags", [])) for c in nb.cells]


@pytest.mark.parametrize("lang", ("es", "en"))
@pytest.mark.parametrize("name", notebooks())
def test_each_notebook_is_its_text_executed(name, lang):
    """book/<lang>/<name>.ipynb has the cells of its text notebook (book/_text/<lang>/<name>.md):
    an edit to either alone fails here, and says what to run."""
    path = ROOT / "book" / lang / name
    text, executed = cells_of(read_text(path)), cells_of(nbformat.read(path, 4))
    hint = f"{text_notebook(path).relative_to(ROOT)} and {path.relative_to(ROOT)} differ"
    assert len(text) == len(executed), f"{hint}: {len(text)} cells against {len(executed)}. Run `make notebooks`."
    for n, (a, b) in enumerate(zip(text, executed), 1):
        assert a == b, f"{hint} at cell {n} ({a[0]}: {a[1][:80]!r}). Run `make notebooks`."


def structure(cell) -> tuple:
    """What must be the same in both languages' version of one cell: its type and tags; for prose,
    its heading levels, glue keys, citations and directives, in order (code is compared whole above)."""
    source = cell.source
    shape = (cell.cell_type, tuple(cell.metadata.get("tags", [])))
    if cell.cell_type != "markdown":
        return shape
    return shape + (tuple(len(h) for h in HEADING.findall(source)),
                    tuple(a or b for a, b in GLUE.findall(source)), tuple(CITE.findall(source)),
                    tuple(DIRECTIVE.findall(source)))


def structural_differences(es, en) -> list[str]:
    """Where two languages' versions of a chapter part ways, cell by cell (empty when they do not)."""
    out = []
    if len(es.cells) != len(en.cells):
        out.append(f"{len(es.cells)} cells in Spanish, {len(en.cells)} in English")
    for n, (a, b) in enumerate(zip(es.cells, en.cells), 1):
        if structure(a) != structure(b):
            out.append(f"cell {n}: es {structure(a)[2:] or structure(a)} / en {structure(b)[2:] or structure(b)}\n"
                       f"  es: {a.source[:100]!r}\n  en: {b.source[:100]!r}")
    return out


@pytest.mark.parametrize("name", notebooks())
def test_both_languages_say_it_in_the_same_structure(name):
    """Paragraph by paragraph, the two languages have the same sections, cards, figures and sources."""
    es, en = (read_text(ROOT / "book" / lang / name) for lang in ("es", "en"))
    differences = structural_differences(es, en)
    assert not differences, f"{name}:\n" + "\n".join(differences[:5])


def test_the_structure_check_finds_a_card_left_out_of_one_language():
    es = read_text(ROOT / "book" / "es" / "article1.ipynb")
    en = read_text(ROOT / "book" / "en" / "article1.ipynb")
    card = next(n for n, c in enumerate(es.cells) if "{glue:md} A1-" in c.source)
    es.cells[card].source = es.cells[card].source.split("```", 2)[-1]  # the first card of the cell removed
    assert structural_differences(es, en)
    es.cells.pop(card)
    assert structural_differences(es, en)


@pytest.mark.parametrize("lang", ("es", "en"))
def test_every_claim_has_its_card_in_its_chapter(lang):
    from lib.core.claims import load_claims

    for article in (1, 2):
        source = "\n".join(c.source for c in read_text(ROOT / "book" / lang / f"article{article}.ipynb").cells)
        missing = [c.id for c in load_claims().values() if c.article == article and f"{{glue:md}} {c.id}.box" not in source]
        assert not missing, f"{lang}/article{article}: no card for {missing} (see the README, 'Adding a claim')"
