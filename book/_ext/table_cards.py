"""Every table of a page reflows on a phone as a stack of cards (book.css, table.reflow): each cell
shows its column's name, so no figure needs sideways scrolling. The names are written into each
body cell at build time (data-label, the text of its column's header), the ledger's among them; a
cell with nothing to say (empty, or a dash alone) is marked data-empty, and a card leaves its line out.
A table of many columns is marked full-width: on a desktop it takes the width the theme gives
full-width content, and the theme folds the page's contents away while it is in view (book.css)."""

from __future__ import annotations

import html
import re

from sphinx.application import Sphinx

TABLE = re.compile(r"<table( class=\"([^\"]*)\")?([^>]*)>(.*?)</table>", re.S)
HEADER = re.compile(r"<th\b[^>]*>(.*?)</th>", re.S)
ROW = re.compile(r"<tr\b[^>]*>.*?</tr>", re.S)
CELL = re.compile(r"<td\b([^>]*)>(.*?)</td>", re.S)
NOTHING = ("", "—", "-")  # what an empty cell of a table says
# From this many columns a table's shortest words and figures, side by side, are wider than the text
# column of a 1,366 px window (the costs chapter's published figures, the budget's measurements).
WIDE_COLUMNS = 7
TAGS = re.compile(r"<[^>]+>")


def _text(fragment: str) -> str:
    return " ".join(html.unescape(TAGS.sub(" ", fragment)).split())


def labelled(table: re.Match) -> str:
    classes, rest, inner = table.group(2) or "", table.group(3), table.group(4)
    head, _, body = inner.partition("</thead>")
    names = [_text(cell) for cell in HEADER.findall(head)]
    if not body or not names:
        return table.group(0)  # no header row: nothing to name the cells by

    def label_row(row: re.Match) -> str:
        count = iter(range(len(names)))

        def label_cell(cell: re.Match) -> str:
            name = html.escape(names[min(next(count), len(names) - 1)])
            empty = ' data-empty=""' if _text(cell.group(2)) in NOTHING else ""
            return f'<td data-label="{name}"{empty}{cell.group(1)}>{cell.group(2)}</td>'

        return CELL.sub(label_cell, row.group(0))

    classes += " reflow" + (" full-width" if len(names) >= WIDE_COLUMNS else "")
    return f'<table class="{classes.strip()}"{rest}>{head}</thead>{ROW.sub(label_row, body)}</table>'


def on_page_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    if "<table" in context.get("body", ""):
        context["body"] = TABLE.sub(labelled, context["body"])


def setup(app: Sphinx) -> dict:
    app.connect("html-page-context", on_page_context)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
