"""The plain-text summaries of the studies: rich tables rendered to text."""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["plain_text", "text_table"]


def text_table(
    title: str, columns: Sequence[str], rows: Iterable[Sequence[str]], left: Sequence[str] = ()
) -> Any:
    """A rich table for the text summaries: the ``left`` columns left-justified, the rest right."""
    from rich.table import Table

    t = Table(title=title)
    for col in columns:
        t.add_column(col, justify="left" if col in left else "right")
    for row in rows:
        t.add_row(*row)
    return t


def plain_text(width: int, *items: Any) -> str:
    """What rich prints of ``items`` (tables, lines) on a console ``width`` wide, as plain text."""
    from rich.console import Console

    console = Console(width=width, record=True, file=io.StringIO())
    for item in items:
        console.print(item)
    return console.export_text()
