"""A maintainer's mistake stops `make test` and `make notebooks` with one message that names what
is missing and where (lib.site.preflight, run by tests/conftest.py before any test is collected)."""

import shutil

import pytest

from lib.core import claims, inputs
from lib.site import preflight


def test_the_book_as_committed_has_no_problem():
    assert preflight.problems() == []


def test_an_input_named_twice_names_both_files(tmp_path, monkeypatch):
    shutil.copytree(inputs.DATA_DIR, tmp_path, dirs_exist_ok=True)
    text = (tmp_path / "costs.toml").read_text(encoding="utf8")
    twice = text[text.index("\n[") + 1:].split("\n\n")[0]  # the file's first input
    assert "value" in twice
    with open(tmp_path / "article1.toml", "a", encoding="utf8") as fh:
        fh.write("\n" + twice + "\n")
    load = inputs.load_inputs
    monkeypatch.setattr(inputs, "load_inputs", lambda: load(tmp_path))
    found = preflight.problems()
    name = twice.split("]")[0].strip("[")
    assert len(found) == 1 and found[0].startswith(f"'{name}' is defined twice, in ")
    assert "article1.toml" in found[0] and "costs.toml" in found[0]


@pytest.mark.parametrize("missing", ["card", "recompute", "inventory"])
def test_a_claim_without_one_of_its_parts_is_one_line_naming_it(tmp_path, monkeypatch, missing):
    cid = "A1-opt-cost"
    if missing == "card":
        shutil.copytree(preflight.TEXT, tmp_path / "_text")
        text = tmp_path / "_text" / "en" / "article1.md"
        text.write_text(text.read_text(encoding="utf8").replace(f"{{glue:md}} {cid}.box", "{glue:md} other"),
                        encoding="utf8")
        monkeypatch.setattr(preflight, "TEXT", tmp_path / "_text")
    elif missing == "recompute":
        monkeypatch.delitem(claims.RECOMPUTE, cid)
    else:
        listed = preflight.INVENTORY.read_text(encoding="utf8").replace(f'claim_id = "{cid}"', 'claim_id = "none"')
        (tmp_path / "numbers.toml").write_text(listed, encoding="utf8")
        monkeypatch.setattr(preflight, "INVENTORY", tmp_path / "numbers.toml")
    found = preflight.problems()
    assert len(found) == 1 and found[0].startswith(f"claim {cid} "), found
    assert {"card": "book/_text/en/article1.md", "recompute": "lib/chapters/article1.py",
            "inventory": "lib/data/article_numbers.toml"}[missing] in found[0]


def test_a_claim_in_words_is_listed_in_lib_data_not_beside_the_book(tmp_path, monkeypatch):
    """A claim with no numeral (a licence's name) is listed in lib/data/claims_in_words.toml, which a
    clone has: taken out of it, the preflight names the claim; nothing outside the repository counts."""
    cid = "A1-dolma-license"
    assert preflight.IN_WORDS.is_relative_to(preflight.ROOT / "lib" / "data")
    words = preflight.IN_WORDS.read_text(encoding="utf8")
    assert f'["{cid}"]' in words
    (tmp_path / "words.toml").write_text(words.replace(f'["{cid}"]', '["A1-elsewhere"]'), encoding="utf8")
    monkeypatch.setattr(preflight, "IN_WORDS", tmp_path / "words.toml")
    found = preflight.problems()
    assert len(found) == 1 and found[0].startswith(f"claim {cid} "), found


def test_a_recompute_function_for_no_claim_is_named(monkeypatch):
    monkeypatch.setitem(claims.RECOMPUTE, "A1-no-such-claim", lambda i, c: None)
    assert preflight.problems() == ["a recompute function is registered for A1-no-such-claim, which no file of "
                                    "lib/data/claims/ defines (README.md, 'Adding a claim', step 2)"]
