"""A maintainer's mistake stops `make test` and `make notebooks` with one message that names what
is missing and where (lib.site.preflight, run by tests/conftest.py before any test is collected)."""

import re
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
    monkeypatch.setattr(inputs, "DATA_DIR", tmp_path)
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


def _planted(tmp_path, monkeypatch, name: str, **lines: str) -> list[str]:
    """The preflight's problems with the input `name` of a copy of the inputs given other lines
    (field = its new TOML text)."""
    shutil.copytree(inputs.DATA_DIR, tmp_path, dirs_exist_ok=True)
    path = next(p for p in tmp_path.glob("*.toml") if f"\n[{name}]\n" in p.read_text(encoding="utf8"))
    text = path.read_text(encoding="utf8")
    block = re.search(rf"^\[{name}\]\n(.*?)(?=^\[|\Z)", text, re.S | re.M)
    body = block.group(1)
    for field, value in lines.items():
        body = re.sub(rf"^{field} = .*$", f"{field} = {value}", body, flags=re.M)
    path.write_text(text[:block.start(1)] + body + text[block.end(1):], encoding="utf8")
    monkeypatch.setattr(inputs, "DATA_DIR", tmp_path)
    return preflight.problems()


def test_a_value_its_quote_does_not_write_is_one_line_naming_the_file(tmp_path, monkeypatch):
    """A price changed without its quote: the README's update changes both."""
    entry = inputs.load_inputs()["lambda_h100_sxm_8x"]  # whatever the committed price is
    other = f"{entry.value + 1:.2f}"
    found = _planted(tmp_path, monkeypatch, "lambda_h100_sxm_8x", value=other)
    assert len(found) == 1 and found[0].endswith(f"article1.toml: input 'lambda_h100_sxm_8x' has the value {other}, "
                                                 f"which its quote does not write (\"{entry.quote}\"): "
                                                 "change the quote with the value, or say how it follows (derived)"), found


@pytest.mark.parametrize(("quote", "value", "writes"), [
    ("$3.99 / GPU / hr", 3.99, True), ("$3.99 / GPU / hr", 4.39, False), ("1,024 GPUs", 1024, True),
    ("1024 GPUs", 1024, True), ("4.30E+23 FLOPs", 4.3e23, True), ("2.56×10^24", 2.56e24, True),
    ("3.0e-4", 3e-4, True), ("MFU of 46.2% with it", 0.462, True), ("from 1.2TB to 350GB", 1200, True),
    ("52K unique instructions", 52000, True), ("four weight matrices", 4, True), ("torch.bfloat16", 16, True),
    ("1,022,362", 1022363, False), ("Grok-3,1164146793.7782238,5481967429", 1164146793.7782238, True),
])
def test_a_quote_writes_a_value_as_its_source_writes_it(quote, value, writes):
    entry = inputs.Input("x", "count", "s", "l", "l", quote, value=float(value))
    assert inputs.quote_writes_value(entry) == writes


def test_a_range_a_date_and_a_derived_value_are_found_in_the_quote_as_written():
    entry = inputs.Input("x", "USD", "s", "l", "l", "Something around $9M to $23M", low=9e6, high=23e6)
    assert inputs.quote_writes_value(entry) and not inputs.quote_writes_value(entry.__class__(**{**entry.__dict__, "high": 24e6}))
    day = inputs.Input("x", "date", "s", "l", "l", "[v1] Thu, 17 Jun 2021", value=__import__("datetime").date(2021, 6, 17))
    assert inputs.quote_writes_value(day)
    counted = inputs.Input("x", "matrix", "s", "l", "l", "FFN(x, W, V, W2)", value=3.0)
    assert not inputs.quote_writes_value(counted) and inputs.quote_writes_value(
        counted.__class__(**{**counted.__dict__, "derived": "W, V and W2, counted"}))


def test_a_price_seen_after_its_reference_was_read_is_one_line_naming_the_file(tmp_path, monkeypatch):
    """The price read again (value, quote and seen changed) but its reference's urldate left as it was."""
    entry = inputs.load_inputs()["lambda_h100_sxm_8x"]
    other = f"{entry.value + 1:.2f}"
    found = _planted(tmp_path, monkeypatch, "lambda_h100_sxm_8x", value=other,
                     quote=f'"{entry.quote.replace(f"{entry.value:.2f}", other)}"', seen="2099-01-01")
    assert len(found) == 1 and ("article1.toml: input 'lambda_h100_sxm_8x' is a price seen on 2099-01-01, after its "
                                "reference lambda2026pricing was read (") in found[0], found
    assert "urldate" in found[0]


def test_every_unknown_source_is_said_with_the_other_problems(tmp_path, monkeypatch):
    """Not only the first: each input's mistake is its own line, with its file."""
    _planted(tmp_path, monkeypatch, "lambda_h100_sxm_8x", source='"no-such-key"')
    text = (tmp_path / "budget.toml").read_text(encoding="utf8")
    (tmp_path / "budget.toml").write_text(re.sub(r'^source = ".*"$', 'source = "another-unknown-key"', text, count=1,
                                                 flags=re.M), encoding="utf8")
    text = (tmp_path / "costs.toml").read_text(encoding="utf8")
    (tmp_path / "costs.toml").write_text(re.sub(r"^quote = .*$", 'quote = "no number here"', text, count=1, flags=re.M),
                                         encoding="utf8")
    found = preflight.problems()
    assert any("article1.toml: input 'lambda_h100_sxm_8x' cites source 'no-such-key'" in line
               for line in found), found
    assert any("budget.toml: input" in line and "another-unknown-key" in line for line in found), found
    assert any("costs.toml: input" in line and "quote does not write" in line for line in found), found
    assert len(found) == 3, found
