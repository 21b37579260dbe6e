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
    status = build(out, out.parent, strict=True)
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
