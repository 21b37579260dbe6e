"""Text made safe for the Markdown the pages glue."""


def table_cell(text: str) -> str:
    """Text made safe for one cell of a Markdown pipe table."""
    return text.replace("|", "\\|").replace("\n", " ")
