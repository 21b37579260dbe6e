"""The book's registry read once before the tests and before `make notebooks`, so that a
maintainer's mistake stops the run with one message naming what is missing and where (the
README's "Adding a claim" step), not with hundreds of failures that each trip on it:

- an input file that does not load (a name defined twice, in both files; a field missing, a source
  key unknown: each input's mistakes all at once, each naming its file), an input whose quote does
  not write its value, a price seen after its reference's `urldate` (lib.core.inputs.problems);
- a claim without its recompute function, its card in either language, or its inventory entry;
- a recompute function for a claim no claims file defines; a claim whose recomputation fails.

    python -m lib.site.preflight     # prints the problems, exit status 1; nothing when all is well
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEXT = ROOT / "book" / "_text"
INVENTORY = ROOT / "lib" / "data" / "article_numbers.toml"
IN_WORDS = ROOT / "lib" / "data" / "claims_in_words.toml"
LANGS = ("es", "en")
HOW = "README.md, 'Adding a claim', step"


def _listed() -> set[str]:
    """The claim ids named besides their records: in the inventory of the articles' numbers, and in
    the list of the claims in words (which have no numeral to inventory), both in lib/data/."""
    with open(INVENTORY, "rb") as fh:
        ids = {str(entry.get("claim_id", "")) for entry in tomllib.load(fh).values()}
    with open(IN_WORDS, "rb") as fh:
        return ids | set(tomllib.load(fh))


def _said(exc: Exception) -> str:
    """An error's message without the quotes a KeyError puts around it."""
    return str(exc.args[0]) if exc.args else type(exc).__name__


def problems() -> list[str]:
    """Each mistake, in one line that says where to mend it; an empty list when there is none."""
    from lib.core import inputs as sourced
    from lib.core.claims import RECOMPUTE, load_claims

    found = sourced.problems()  # every input's mistakes, not only the first
    try:
        claims = load_claims()
        from lib.chapters import verdicts  # registers the recompute functions (importing the chapters)
    except (ValueError, KeyError) as exc:  # InputError and RegistryError are ValueErrors
        return found + [_said(exc)]
    listed = _listed()
    for cid, claim in claims.items():
        chapter = f"article{claim.article}"
        if cid not in RECOMPUTE:
            found.append(f"claim {cid} has no recompute function: add one to lib/chapters/{chapter}.py, "
                         f"decorated with @recomputes(\"{cid}\") ({HOW} 3)")
        for lang in LANGS:
            if f"{{glue:md}} {cid}.box" not in (TEXT / lang / f"{chapter}.md").read_text(encoding="utf8"):
                found.append(f"claim {cid} has no card in book/_text/{lang}/{chapter}.md: add a "
                             f"```{{glue:md}} {cid}.box``` block ({HOW} 5)")
        if cid not in listed:
            found.append(f"claim {cid} is named by no entry of lib/data/article_numbers.toml: give the article's "
                         f"words that hold it claim_id = \"{cid}\" ({HOW} 4)")
    found += [f"a recompute function is registered for {cid}, which no file of lib/data/claims/ defines ({HOW} 2)"
              for cid in RECOMPUTE if cid not in claims]
    if found:
        return found
    inputs = sourced.load_inputs()
    for claim in claims.values():
        try:
            verdicts.check(claim, inputs, claims).context("en")
        except (ValueError, KeyError, ArithmeticError) as exc:
            found.append(f"claim {claim.id} cannot be recomputed: {_said(exc)}")
    return found


def main() -> int:
    found = problems()
    for line in found:
        print(line, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
