"""What moved, in words: every sourced input that changed since a commit (old → new, with the date
it was seen), then every glued figure and verdict of the committed notebooks that moved, by page.

    python -m lib.site.moved          # against the last commit (HEAD): what `make notebooks` changed
    python -m lib.site.moved REV      # against any commit
    make diff REV=main~3         # the same through make

Reads the committed files of REV with git and the working tree as it is; changes nothing.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
INPUTS = ("lib/data/inputs", "lib/data/epoch")
BOOK = "book"
# A glued value longer than this (an answer, a card, a table) is shown by what changed in it, with
# CONTEXT words either side; a value added or removed, cut at this length.
LONG = 120
CONTEXT = 4


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout


def _at(rev: str, path: str) -> str | None:
    """A file's text at `rev`, or None where it did not exist."""
    try:
        return _git("show", f"{rev}:{path}")
    except subprocess.CalledProcessError:
        return None


def _files(rev: str, folder: str, suffix: str) -> set[str]:
    listed = _git("ls-tree", "-r", "--name-only", rev, "--", folder).split()
    # JupyterLab's checkpoints (.ipynb_checkpoints/, which `make lab` leaves beside a chapter) are no pages.
    here = {str(p.relative_to(ROOT)) for p in (ROOT / folder).rglob(f"*{suffix}") if ".ipynb_checkpoints" not in p.parts}
    return {p for p in listed if p.endswith(suffix)} | here


def _tables(text: str | None) -> dict:
    return tomllib.loads(text) if text else {}


def _input_line(name: str, old: dict | None, new: dict | None) -> str:
    def shown(entry: dict | None) -> str:
        if entry is None:
            return "(none)"
        value = entry.get("value", f"{entry.get('low')}..{entry.get('high')}")
        return f"{value}" + (f" (seen {entry['seen']})" if "seen" in entry else "")

    return f"  {name}: {shown(old)} → {shown(new)}"


def moved_inputs(rev: str) -> list[str]:
    """One line per sourced input whose value, range or date seen differs from `rev`'s."""
    lines = []
    for path in sorted(p for folder in INPUTS for p in _files(rev, folder, ".toml")):
        old = _tables(_at(rev, path))
        now = (ROOT / path).read_text(encoding="utf8") if (ROOT / path).exists() else None
        new = _tables(now)
        for name in sorted(set(old) | set(new)):
            a, b = old.get(name), new.get(name)
            keys = ("value", "low", "high", "seen")
            if a is None or b is None or any(a.get(k) != b.get(k) for k in keys):
                lines.append(_input_line(name, a, b))
    return lines


def readable(value: object) -> str:
    """A glue record as the page pastes it: a quoted text without its quotes."""
    value = "".join(value) if isinstance(value, list) else str(value)
    try:
        return str(ast.literal_eval(value)) if value[:1] in "'\"" else value
    except (ValueError, SyntaxError):
        return value


def glued(text: str | None) -> dict[str, str]:
    """Glue key -> the value it pastes (plain text), from a notebook's JSON text."""
    if not text:
        return {}
    out = {}
    for cell in json.loads(text).get("cells", []):
        for output in cell.get("outputs", []):
            name = output.get("metadata", {}).get("scrapbook", {}).get("name")
            if not name:
                continue
            out[name] = readable(next(iter(output.get("data", {}).values()), ""))
    return out


def _cut(text: str) -> str:
    return text if len(text) <= LONG else text[:LONG].rstrip() + "…"


def what_changed(old: str, new: str) -> list[str]:
    """How a glued value moved, old → new: whole where it is one short line; where it is long (an
    answer, a card, a table), each passage that differs, with a few words either side, in as many
    lines as there are passages."""
    if "(none)" in (old, new) or max(len(old), len(new)) <= LONG and "\n" not in old + new:
        return [f"{_cut(old)} → {_cut(new)}"]
    a, b = old.split(), new.split()
    lines = []
    for group in difflib.SequenceMatcher(None, a, b, autojunk=False).get_grouped_opcodes(CONTEXT):
        (_, i1, _, j1, _), (_, _, i2, _, j2) = group[0], group[-1]
        before, after = " ".join(a[i1:i2]), " ".join(b[j1:j2])
        lines.append(f"{'…' if i1 else ''}{before}{'…' if i2 < len(a) else ''} → "
                     f"{'…' if j1 else ''}{after}{'…' if j2 < len(b) else ''}")
    return lines or ["only its spacing changed"]


def compare_figures(page: str, old: dict[str, str], new: dict[str, str]) -> list[str]:
    """The lines for one page: how many glued values moved, then each with its old and new value (a long
    one, an answer, a card or a table, by the passages that changed). The raw records repeat the others
    and are left out."""
    changed = [k for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k) and not k.endswith(".raw")]
    if not changed:
        return []
    lines = [f"  {page}: {len(changed)} glued value(s)"]
    for key in changed:
        lines += [f"    {key}: {line}" for line in what_changed(old.get(key, "(none)"), new.get(key, "(none)"))]
    return lines


def moved_figures(rev: str) -> list[str]:
    """Per page (language/notebook), each glued figure or verdict whose value differs from `rev`'s."""
    lines = []
    for path in sorted(_files(rev, BOOK, ".ipynb")):
        now = (ROOT / path).read_text(encoding="utf8") if (ROOT / path).exists() else None
        lines += compare_figures(path.removeprefix(BOOK + "/"), glued(_at(rev, path)), glued(now))
    return lines


def report(rev: str = "HEAD") -> str:
    inputs, figures = moved_inputs(rev), moved_figures(rev)
    if not inputs and not figures:
        return f"Nothing moved since {rev}: no sourced input and no glued figure or verdict."
    parts = [f"Sourced inputs changed since {rev}:", *(inputs or ["  none"]),
             f"Glued figures and verdicts that moved since {rev}:", *(figures or ["  none"])]
    return "\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev", nargs="?", default="HEAD", help="the commit to compare with (default HEAD)")
    args = parser.parse_args(argv)
    try:
        _git("rev-parse", "--verify", f"{args.rev}^{{commit}}")
    except subprocess.CalledProcessError:
        print(f"no such commit: {args.rev}", file=sys.stderr)
        return 2
    print(report(args.rev))
    return 0


if __name__ == "__main__":
    sys.exit(main())
