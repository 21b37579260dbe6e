import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("es", "en")


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """The site built strictly (warnings are errors) from a clean state into a temporary folder."""
    from lib.build import build

    out = tmp_path_factory.mktemp("site") / "html"
    # nbval executes every notebook and checks its committed outputs against the current lib:
    # the pages are built from those outputs, not from a second execution.
    status = build(out, out.parent, strict=True, execute=False)
    assert status == 0, "the strict build of the site failed: see the warnings above"
    return out


def chapter_notebooks() -> list[Path]:
    return sorted((ROOT / "book" / "es").glob("*.ipynb"))


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def glue_records(nb) -> dict:
    """Glue key -> the output's data (mimetype -> value), from a notebook's committed outputs."""
    records = {}
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            name = output.get("metadata", {}).get("scrapbook", {}).get("name")
            if name:
                records[name] = output["data"]
    return records


def shared_path(*parts: str) -> Path:
    """A path in the shared folder next to the book (ROOT.parent / "shared" / *parts).

    The folder holds the source dossier and the articles; it is not part of this
    repository. When the path is missing, CI fails (a checkout without it must not pass
    in silence); a local run skips, saying what is missing. Safe to call inside a test
    or at module level (then the whole module is skipped, or fails to collect in CI).
    """
    path = ROOT.parent.joinpath("shared", *parts)
    if not path.exists():
        reason = (
            f"{path} is missing: the shared folder (../shared, with sources/ and articles/) "
            "must sit next to the book's folder"
        )
        if in_ci():
            pytest.fail(f"{reason} (CI=true: missing shared files are an error)", pytrace=False)
        pytest.skip(reason, allow_module_level=True)
    return path
