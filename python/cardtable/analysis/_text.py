"""The words of the studies: rich tables rendered to text, option values and counts as text."""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from cardtable._option_text import changed_options as changed_option_values
from cardtable._option_text import option_text, options_text

__all__ = [
    "changed_options",
    "option_text",
    "options_text",
    "plain_text",
    "plural",
    "text_table",
]


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


def plural(count: int, noun: str) -> str:
    """``1 seat assignment``, ``4 seat assignments``."""
    return f"{count:,} {noun}" + ("" if count == 1 else "s")


def changed_options(game_id: str, players: int, options: Mapping[str, Any]) -> str:
    """``, options days=5`` for the options that differ from the game's defaults (none: empty)."""
    changed = changed_option_values(game_id, players, options)
    return f", options {options_text(changed)}" if changed else ""
