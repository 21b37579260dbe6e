"""The link at the foot of each claim's card (lib/site/page.py): following it puts the card's
address in the address bar, as any anchor does; where the browser lets a page write to the
clipboard, the address is copied as well, and the card says so (the link's data-copied words, in
the page's language) in a polite live region. A few hundred bytes, on the pages with cards only."""

from __future__ import annotations

from sphinx.application import Sphinx

SCRIPT = """<script>document.addEventListener("click", function (event) {
  var link = event.target.closest && event.target.closest(".claim-link a");
  if (!link || !navigator.clipboard) return;
  navigator.clipboard.writeText(link.href).then(function () {
    link.parentNode.querySelector(".claim-link-said").textContent = link.dataset.copied;
  }, function () {});
});</script>"""


def on_page_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    if 'class="claim-link"' in context.get("body", ""):
        context["body"] += SCRIPT


def setup(app: Sphinx) -> dict:
    app.connect("html-page-context", on_page_context)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
