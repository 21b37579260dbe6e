"""The corrections log: every published change to a figure or a verdict, with its date, drawn from
the book's own record of what moved (the glued values of its committed notebooks, as
lib/site/moved.py reads them), version by version, from the repository's history.

A published version is a commit on the first-parent line of the branch being built (main, when the
site is published: a merged branch counts once, on the day it was merged); its changes are what its
committed notebooks glue differently from its first parent's. In each page of one language:

- a verdict changed: a `<claim>.verdict` record whose verdict (the code in the claim's `.raw` record,
  or the label read back through the labels that version glues) is not the parent's;
- a figure moved: any other glued value of one line that states amounts before and after (numbers,
  each with its scale word: "1,5 millones", "$1.5 million"), and states others than the parent's
  (cards, tables and paragraphs are made of figures and verdicts counted on their own; a change of
  wording alone, or of how the same amounts are written, "200 €" → "200 euros", is no correction).

A value that moved on either language's page is listed in both logs, each in its own words, so that both
tell one story. Values a version adds or removes (a new claim, a new page) are no corrections, and are not listed.
The log is built when the site is built (book/_ext/trust.py), so it always reaches the commit being
built, and nothing in a notebook depends on the history (nbval compares the notebooks, never it).
Each version's changes never change once committed: they are kept in a cache file, by commit.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import json
import re
import subprocess
from pathlib import Path

from babel import Locale
from babel.numbers import NumberFormatError, parse_decimal

from lib.core import fmt, sentences
from lib.core.phrases import join, plural
from lib.core.words import LANGS, words
from lib.site.moved import LONG, glued

ROOT = Path(__file__).resolve().parents[2]
BOOK = "book"
CACHE_VERSION = 5
# A number written on its own (not part of a name: H100, gpt-oss-120b), with its sign where it has one.
NUMBER = re.compile(r"(?<![\w.,])([-−]?)(\d+(?:[.,]\d+)*)(?![\w])")
# Between a range's two ends: a dash, and the high end's currency sign ("$1.6–$2.1 million").
RANGE = re.compile(r"\s*[–-]\s*[^\d\s]{0,3}")
HASH = re.compile(r"^[0-9a-f]{40}$")


@dataclasses.dataclass(frozen=True)
class Verdict:
    """One verdict that changed: whose (its glue key without `.verdict`), and what it was and is: its
    code (holds, context, wrong, unverified) where it is known, else its label as it was glued."""

    subject: str
    old: str
    new: str


@dataclasses.dataclass(frozen=True)
class Moved:
    """One figure that moved: its glue key, and its value before and after, as the page showed them."""

    key: str
    old: str
    new: str


@dataclasses.dataclass(frozen=True)
class Change:
    """What one version moved on one page."""

    page: str  # the page's name (article1)
    figures: tuple[Moved, ...] = ()
    verdicts: tuple[Verdict, ...] = ()

    def __post_init__(self):
        if not isinstance(self.figures, tuple) or not all(isinstance(f, Moved) for f in self.figures):
            raise ValueError(f"{self.page}: the figures that moved are Moved records, not {self.figures!r}")
        if not self.figures and not self.verdicts:
            raise ValueError(f"{self.page}: a change moves a figure or a verdict")


@dataclasses.dataclass(frozen=True)
class Version:
    """One published version that moved something: its commit, its day, its changes by page."""

    commit: str
    day: dt.date
    changes: tuple[Change, ...]


@dataclasses.dataclass(frozen=True)
class Log:
    """The versions that moved a figure or a verdict, the latest first. `available` is False outside
    a repository; `since` is the first day of a history that does not reach the book's first commit
    (a shallow clone), else None."""

    versions: tuple[Version, ...] = ()
    available: bool = True
    since: dt.date | None = None


# ---------------------------------------------------------------- one page, one version

def _code(records: dict[str, str], key: str, labels: dict[str, str]) -> str | None:
    """A verdict's code: from its claim's `.raw` record, else its label read back through `labels`."""
    raw = records.get(key.removesuffix(".verdict") + ".raw")
    if raw:
        try:
            code = json.loads(raw).get("verdict")
        except (ValueError, AttributeError):
            code = None
        if isinstance(code, str):
            return code
    return labels.get(records[key])


def _labels(records: dict[str, str]) -> dict[str, str]:
    """Label -> verdict code, as one version of a page glues them: each `….label.<code>` record, and
    each claim's label beside the code of its `.raw` record."""
    labels = {}
    for key, value in records.items():
        head, _, code = key.rpartition(".label.")
        if head and code in words("en")["verdict"]:
            labels[value] = code
    for key in records:
        if key.endswith(".verdict"):
            raw = records.get(key.removesuffix(".verdict") + ".raw")
            try:
                code = json.loads(raw).get("verdict") if raw else None
            except (ValueError, AttributeError):
                code = None
            if isinstance(code, str):
                labels.setdefault(records[key], code)
    return labels


@functools.cache
def _scales(lang: str) -> tuple[tuple[str, int], ...]:
    """The words the language writes after a number for its scale, as Babel's long compact form
    writes them (mil, millones, mil millones; thousand, million), each with its power of ten, the
    longest first (so that "mil millones" is read before "mil")."""
    found = {}
    for patterns in Locale.parse(fmt.locale(lang)).compact_decimal_formats["long"].values():
        for magnitude, pattern in patterns.items():
            word = pattern.pattern.lstrip("0").strip()
            if word:
                found[word] = len(magnitude) - 1 - (len(pattern.pattern) - len(pattern.pattern.lstrip("0")) - 1)
    return tuple(sorted(found.items(), key=lambda item: -len(item[0])))


def _written(text: str, lang: str) -> list[tuple[float, float | None]]:
    """Each amount a glued value states, as a number read in `lang` with its scale word, in order of
    size, with the unit of its last written digit ("1.49 million": 10,000; "$95": 1); None for a whole
    number before a scale word, whose precision the text does not say (the book writes 1.0 million as
    "1 million")."""
    found = []  # [value, its scale's power of ten or None, where it starts, where it ends, its decimals]
    separator = Locale.parse(fmt.locale(lang)).number_symbols["latn"]["decimal"]
    for match in NUMBER.finditer(text):
        try:
            value = float(parse_decimal(match.group(2), locale=fmt.locale(lang), strict=False))
            _, point, digits = match.group(2).rpartition(separator)
            decimals = len(digits) if point else 0
        except NumberFormatError:
            value, decimals = float(match.group(2).replace(",", "")), 0
        sign = -1 if match.group(1) else 1
        rest = text[match.end():].lstrip()
        scale = next((power for word, power in _scales(lang)
                      if rest.startswith(word) and not rest[len(word):len(word) + 1].isalpha()), None)
        found.append([sign * value, scale, match.start(), match.end(), decimals])
    # A range writes its scale once, after its high end: "1,6–2,1 millones".
    for this, after in zip(found, found[1:]):
        if this[1] is None and after[1] is not None and RANGE.fullmatch(text[this[3]:after[2]]):
            this[1] = after[1]
    return sorted(((round(v * 10 ** (scale or 0), 9), 10.0 ** ((scale or 0) - decimals) if decimals or not scale else None)
                   for v, scale, _, _, decimals in found), key=lambda amount: amount[0])


def amounts(text: str, lang: str) -> tuple[float, ...]:
    """The amounts a glued value states, as numbers read in `lang` with their scale words, in order
    of size: "$1.6–2.1 million" (1,600,000, 2,100,000); "200 €" and "200 euros" alike (200,)."""
    return tuple(value for value, _ in _written(text, lang))


def _alike(a: tuple[float, float | None], b: tuple[float, float | None]) -> bool:
    """Two written amounts that one value can write, each at its own precision: "$1.5 million" and
    "$1.49 million" (1.49 million rounds to 1.5), "$95" and "$95.36", not "$1.50 million" and "$1.49
    million". A whole number before a scale word is read at the other's precision ("$1 million" and
    "$1.04 million" differ)."""
    (x, unit_x), (y, unit_y) = a, b
    if unit_x is None and unit_y is None:
        return x == y
    unit_x, unit_y = unit_x or unit_y, unit_y or unit_x
    return abs(x - y) < (unit_x + unit_y) / 2 * (1 - 1e-9)  # ranges that only touch share no value


def figure_moved(old: str, new: str, lang: str) -> bool:
    """A glued value that is a figure (one line, stating amounts before and after) whose amounts
    moved; not one only written otherwise ("$4.10–$5.12" → "$4.10–5.12", "1 mil millones" →
    "1.000 millones") or at another precision ("$1.49 million" → "$1.5 million"), nor words that
    changed around no amount."""
    if not isinstance(old, str) or not isinstance(new, str):
        raise ValueError("glued values are text")
    short = max(len(old), len(new)) <= LONG and "\n" not in old + new
    if old == new or not short:
        return False
    before, after = _written(old, lang), _written(new, lang)
    if not before or not after:
        return False
    return len(before) != len(after) or not all(_alike(a, b) for a, b in zip(before, after))


def compare(page: str, old: dict[str, str], new: dict[str, str], lang: str) -> Change | None:
    """What moved on `page` from one version's glued values (`old`) to the next's (`new`), or None."""
    if not isinstance(old, dict) or not isinstance(new, dict):
        raise ValueError("compare takes each version's glued values (glue key -> text)")
    verdict_words = words(lang)["verdict"]  # words() refuses an unknown language
    old_labels, new_labels = _labels(old), _labels(new)
    verdicts, figures = [], []
    for key in sorted(set(old) & set(new)):
        if key.endswith(".raw") or old[key] == new[key]:
            continue
        if key.endswith(".verdict"):
            a, b = _code(old, key, old_labels), _code(new, key, new_labels)
            if a is not None and b is not None:
                if a != b:
                    verdicts.append(Verdict(key.removesuffix(".verdict"), a if a in verdict_words else old[key],
                                            b if b in verdict_words else new[key]))
            else:  # a label with no code: only its words say whether it changed
                verdicts.append(Verdict(key.removesuffix(".verdict"), old[key], new[key]))
        elif figure_moved(old[key], new[key], lang):
            figures.append(Moved(key, old[key], new[key]))
    return Change(page, tuple(figures), tuple(verdicts)) if figures or verdicts else None


# ---------------------------------------------------------------- the repository's history

class _Blobs:
    """Files of any commit, read through one `git cat-file --batch`."""

    def __init__(self, root: Path):
        self.process = subprocess.Popen(["git", "cat-file", "--batch"], cwd=root, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE)

    def read(self, rev: str, path: str) -> str | None:
        self.process.stdin.write(f"{rev}:{path}\n".encode())
        self.process.stdin.flush()
        header = self.process.stdout.readline().decode().split()
        if len(header) != 3:  # "<name> missing"
            return None
        data = self.process.stdout.read(int(header[2]) + 1)[:-1]  # the content, then a newline
        return data.decode("utf8")

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait()


def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True).stdout


def _versions(root: Path, rev: str) -> list[tuple[str, str, dt.date, list[str]]]:
    """(commit, first parent or "", day, notebooks it changed, in either language), the latest first."""
    out = _git(root, "log", "--first-parent", "--diff-merges=first-parent", "--name-only",
               "--format=@%H %P%x09%cs", rev, "--", *(f"{BOOK}/{lang}/*.ipynb" for lang in LANGS))
    versions = []
    for block in out.split("@")[1:]:
        head, *names = [line for line in block.splitlines() if line.strip()]
        ids, day = head.split("\t")
        commit, *parents = ids.split()
        versions.append((commit, parents[0] if parents else "", dt.date.fromisoformat(day),
                         [n for n in names if n.endswith(".ipynb")]))
    return versions


def _load_cache(path: Path | None) -> dict:
    if path is None or not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf8"))
    except ValueError:
        return {}
    return data.get("versions", {}) if data.get("cache") == CACHE_VERSION else {}


def _to_json(changes: list[Change]) -> list:
    return [{"page": c.page, "figures": [dataclasses.astuple(f) for f in c.figures],
             "verdicts": [dataclasses.astuple(v) for v in c.verdicts]} for c in changes]


def _from_json(items: list) -> list[Change]:
    return [Change(i["page"], tuple(Moved(*f) for f in i["figures"]), tuple(Verdict(*v) for v in i["verdicts"]))
            for i in items]


def _both_languages(blobs: _Blobs, commit: str, parent: str, page: str, lang: str) -> Change | None:
    """What a version moved on `page`, as the pages of `lang` show it: a value that moved on either
    language's page is listed in both, each with its own words (a figure's sentence may be longer
    than a figure in one language, or write it at another precision), so that both logs tell one story."""
    def read(each: str) -> tuple[dict, dict] | None:
        path = f"{BOOK}/{each}/{page}.ipynb"
        before = blobs.read(parent, path) if parent else None
        after = blobs.read(commit, path)
        return None if before is None or after is None else (glued(before), glued(after))  # None: added or removed

    values = read(lang)
    if values is None:
        return None
    old, new = values
    own = compare(page, old, new, lang)
    moved = {f.key for f in own.figures} if own else set()
    # The other language's page is read only where this one's shows amounts that changed but no figure that
    # moved (too long a sentence, or another precision), the one case where the two can disagree.
    if any(old[key] != new[key] and key not in moved and "\n" not in old[key] + new[key]
           and amounts(old[key], lang) != amounts(new[key], lang)
           for key in old if isinstance(old[key], str) and isinstance(new.get(key), str)):
        for each in (other for other in LANGS if other != lang):
            theirs = read(each)
            change = compare(page, *theirs, each) if theirs else None
            moved |= {f.key for f in change.figures} if change else set()
    figures = tuple(Moved(key, old[key], new[key]) for key in sorted(moved)
                    if key in old and key in new and old[key] != new[key])
    verdicts = own.verdicts if own else ()
    return Change(page, figures, verdicts) if figures or verdicts else None


def history(lang: str, root: Path = ROOT, rev: str = "HEAD", cache: Path | None = None) -> Log:
    """The corrections of the pages of `lang`, from the first-parent history of `rev` in the
    repository at `root`: every version that moved a figure or a verdict, the latest first. `cache`,
    a JSON file, keeps each version's changes between builds."""
    if lang not in LANGS:
        raise ValueError(f"unknown language '{lang}': use one of {', '.join(LANGS)}")
    root = Path(root)
    try:
        _git(root, "rev-parse", "--verify", f"{rev}^{{commit}}")
    except (OSError, subprocess.CalledProcessError):
        if (root / ".git").exists() and rev != "HEAD":
            raise ValueError(f"no such commit: {rev}") from None
        return Log(available=False)
    shallow = _git(root, "rev-parse", "--is-shallow-repository").strip() == "true"
    cached = _load_cache(cache)
    found, blobs = [], None
    try:
        for commit, parent, day, names in _versions(root, rev):
            key = f"{commit}:{lang}"
            if key not in cached:
                if blobs is None:
                    blobs = _Blobs(root)
                changes = []
                for page in sorted({Path(name).stem for name in names}):
                    change = _both_languages(blobs, commit, parent, page, lang)
                    if change:
                        changes.append(change)
                cached[key] = _to_json(changes)
            changes = _from_json(cached[key])
            if changes:
                found.append(Version(commit, day, tuple(changes)))
    finally:
        if blobs is not None:
            blobs.close()
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_text(json.dumps({"cache": CACHE_VERSION, "versions": cached}, sort_keys=True), encoding="utf8")
    since = None
    if shallow:
        oldest = _git(root, "log", "--first-parent", "--format=%cs", rev).split()
        since = dt.date.fromisoformat(oldest[-1]) if oldest else None
    return Log(tuple(found), True, since)


# ---------------------------------------------------------------- the log on the page

def _safe(text: str) -> str:
    """Words for a MyST role's title: no backquote, no angle bracket to end it."""
    return text.replace("`", "'").replace("<", "‹").replace(">", "›")


def subjects(lang: str) -> dict[str, str]:
    """How the log names whose verdict changed (glue key without `.verdict` -> MyST): an article's
    claim by what it is about, as the chapters' summaries name it, linked to its card; a published figure of the costs
    chapter by who published it and for which run."""
    from lib.chapters import published
    from lib.chapters.verdicts import check_all
    from lib.site.claimreview import anchor

    w = words(lang)
    names = {}
    for checked in check_all():
        # As the chapters' summaries name it ("OPT-175B's rental cost"), or by the article's words.
        names[checked.claim.id] = f"{{ref}}`{_safe(sentences.subject(checked, lang))} <{anchor(checked.claim.id)}>`"
    runs = w["costs"]["runs"]
    for row in published.table_rows():
        if not row.who.startswith("article"):
            names[f"costs.pub.{row.key}"] = w["published"]["who"][row.who] + ", " + runs[row.run]
    return names


def markdown(log: Log, lang: str, pages: set[str], names: dict[str, str] | None = None,
             commit_url=None) -> str:
    """The log as MyST, in `lang`: a list of versions, the latest first (its day and its commit,
    linked by `commit_url(commit)` where the repository is known), each with a line per page (linked
    when it is among `pages`, the book's pages now) saying how many figures moved and which verdicts
    changed, then each verdict with what it was and became, and each figure with its old and new value
    (named by its claim where it is a claim's)."""
    if not isinstance(log, Log):
        raise ValueError(f"a Log is needed, got {type(log).__name__}")
    w = words(lang)["trust"]["log"]
    names = subjects(lang) if names is None else names
    labels = words(lang)["verdict"]
    if not log.available:
        return w["no_history"]
    lines = []
    for version in log.versions:
        short = version.commit[:7]
        url = commit_url(version.commit) if commit_url else ""
        commit = f"[`{short}`]({url})" if url else f"`{short}`"
        lines.append("- " + w["commit"].format(date=fmt.date(version.day, lang), commit=commit))
        for change in version.changes:
            what = []
            if change.figures:
                what.append(plural(w["figures"], len(change.figures)).format(n=fmt.number(len(change.figures), lang)))
            if change.verdicts:
                what.append(plural(w["verdicts"], len(change.verdicts)).format(n=fmt.number(len(change.verdicts), lang)))
            page = f"{{doc}}`{change.page}`" if change.page in pages else change.page
            lines.append("  - " + w["page"].format(page=page, what=join(what, lang)))
            for verdict in change.verdicts:
                lines.append("    - " + w["verdict"].format(subject=names.get(verdict.subject, w["unnamed"]),
                                                           old=labels.get(verdict.old, verdict.old),
                                                           new=labels.get(verdict.new, verdict.new)))
            for figure in change.figures:
                moved = w["figure"].format(old=figure.old, new=figure.new)
                subject = names.get(figure.key.split(".")[0])
                lines.append("    - " + (w["verdict"].format(subject=subject, old=figure.old, new=figure.new)
                                         if subject else moved))
    if not lines:
        lines.append(w["none"])
    else:  # folded, so that the page stays short on a phone: a reader opens it (it opens without JavaScript)
        summary = plural(w["summary"], len(log.versions)).format(n=fmt.number(len(log.versions), lang))
        lines = [f'<details class="corrections-log"><summary>{summary}</summary>', ""] + lines + ["", "</details>"]
    if log.since is not None:
        lines.append("\n" + w["shallow"].format(date=fmt.date(log.since, lang)))
    return "\n".join(lines)
