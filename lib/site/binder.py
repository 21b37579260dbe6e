"""The Binder link of a chapter, from the repository's public URL and branch (written once, in
_config.yml's `repository` section). No URL, no link: never a broken button."""

from __future__ import annotations

from urllib.parse import quote, urlparse

DEFAULT_HUB = "https://mybinder.org"


def launch_url(repo_url: str, branch: str, notebook: str, hub: str = DEFAULT_HUB) -> str | None:
    """The address that opens `notebook` (a path from the repository's root) in JupyterLab on a
    BinderHub, or None when the repository's URL is not set."""
    repo_url = (repo_url or "").strip().removesuffix("/").removesuffix(".git")
    if not repo_url:
        return None
    if not branch or not notebook:
        raise ValueError("a Binder link needs the repository's branch and the notebook's path")
    parts = urlparse(repo_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"repository URL must be an http(s) address, got {repo_url!r}")
    owner_repo = parts.path.strip("/")
    if parts.netloc == "github.com" and owner_repo.count("/") == 1:
        spec = f"gh/{owner_repo}/{branch}"
    elif parts.netloc == "gitlab.com" and owner_repo.count("/") >= 1:
        spec = f"gl/{quote(owner_repo, safe='')}/{branch}"
    else:
        spec = f"git/{quote(repo_url, safe='')}/{branch}"
    return f"{hub.rstrip('/')}/v2/{spec}?urlpath={quote('lab/tree/' + notebook.lstrip('/'))}"


# The Sphinx tag the pages' sentences about Binder are wrapped in (`:::{only} binder`): set by the
# same switch as the link (book/_ext/bilingual.py), so no page promises Binder without its link.
TAG = "binder"


def available(repo_url: str, branch: str) -> bool:
    """Whether the pages link to Binder: the repository's URL is set (and valid)."""
    return launch_url(repo_url, branch or "main", "index.ipynb") is not None
