"""The words of the studies: rich tables rendered to text, option values and counts as text."""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from cardtable._inputs import check_int
from cardtable._option_text import changed_options as changed_option_values
from cardtable._option_text import option_text, options_text

__all__ = [
    "changed_options",
    "check_width",
    "option_text",
    "options_text",
    "plain_text",
    "plural",
    "text_table",
]


MIN_WIDTH = 40
"""The narrowest summary a study prints (characters)."""

_MIN_COLUMN = 13
"""A column is never narrower than this (or than its longest cell, if shorter)."""


def text_table(
    title: str, columns: Sequence[str], rows: Iterable[Sequence[str]], left: Sequence[str] = ()
) -> Any:
    """A rich table for the text summaries: the ``left`` columns left-justified, the rest right.

    Every cell and heading is shown whole: text too long for its column wraps at its spaces, and
    a word longer than the column (a bot spec such as ``mcts:iterations=300,c=0.3``) is folded
    onto the next lines, never cut with an ellipsis, so two bots or metrics whose names share a
    long beginning still read apart. No column is squeezed below ``min(its longest cell, 13)``
    characters: a table with too many columns for the width comes out wider instead.
    """
    from rich.table import Table

    rows = [list(row) for row in rows]
    t = Table(title=title)
    for i, col in enumerate(columns):
        longest = max(
            len(line) for text in [col, *(r[i] for r in rows)] for line in text.split("\n")
        )
        t.add_column(
            col,
            justify="left" if col in left else "right",
            overflow="fold",
            min_width=min(longest, _MIN_COLUMN) or None,
        )
    for row in rows:
        t.add_row(*row)
    return t


def check_width(width: object, default: int) -> int:
    """The width of a summary: ``default`` for ``None``, else an int of at least ``MIN_WIDTH``.

    Raises:
        InvalidOptionError: If ``width`` is neither ``None`` nor such an int.
    """
    return default if width is None else check_int("width", width, MIN_WIDTH, 100_000)


def plain_text(width: int, *items: Any) -> str:
    """What rich prints of ``items`` (tables, lines) on a console ``width`` wide, as plain text.

    Nothing is cut: a table's cells fold (see :func:`text_table`), lines wrap, and a table too
    wide for ``width`` is printed whole rather than cropped at the right.
    """
    from rich.console import Console

    console = Console(width=width, record=True, file=io.StringIO())
    for item in items:
        _rule_wrapped_rows(console, item)
        console.print(item, crop=False)
    return console.export_text()


def _rule_wrapped_rows(console: Any, item: Any) -> None:
    """Rules between the rows of a table ``item`` if a row takes more than one line on ``console``.

    A folded bot name then still reads as one name, not as the start of the next row.
    """
    from rich.table import Table

    if not isinstance(item, Table) or item.show_lines or not item.row_count:
        return
    lines = ["".join(s.text for s in line) for line in console.render_lines(item, pad=False)]
    body = [i for i, line in enumerate(lines) if line.startswith(("┡", "└"))]
    if len(body) == 2 and body[1] - body[0] - 1 > item.row_count:
        item.show_lines = True


def plural(count: int, noun: str) -> str:
    """``1 seat assignment``, ``4 seat assignments``."""
    return f"{count:,} {noun}" + ("" if count == 1 else "s")


def changed_options(game_id: str, players: int, options: Mapping[str, Any]) -> str:
    """``, options days=5`` for the options that differ from the game's defaults (none: empty)."""
    changed = changed_option_values(game_id, players, options)
    return f", options {options_text(changed)}" if changed else ""
