"""The words of the studies: rich tables rendered to text, option values and counts as text."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from cardtable._inputs import check_int
from cardtable._option_text import changed_options, option_text, options_text
from cardtable._rich_text import plain_text
from cardtable._words import plural

__all__ = [
    "MARKUP",
    "check_width",
    "literal",
    "option_text",
    "options_text",
    "plain_text",
    "plural",
    "summary_title",
    "text_table",
    "unmarked",
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
    in a ``left`` column (names: a bot spec such as ``mcts:iterations=300,c=0.3``) a word longer
    than the column is folded onto the next lines, never cut with an ellipsis, so two bots or
    metrics whose names share a long beginning still read apart. A ``left`` column is never
    squeezed below ``min(its longest cell, 13)`` characters, and another column (numbers and
    intervals) never below its longest word, so a number is never split across lines: a table
    with too many columns for the width comes out wider instead.
    """
    from rich.table import Table

    rows = [list(row) for row in rows]
    t = Table(title=title)
    for i, col in enumerate(columns):
        texts = [col, *(r[i] for r in rows)]
        if col in left:
            longest = max(len(line) for text in texts for line in text.split("\n"))
            narrowest = min(longest, _MIN_COLUMN)
        else:
            narrowest = max(len(word) for text in texts for word in text.split())
        t.add_column(
            col,
            justify="left" if col in left else "right",
            overflow="fold",
            min_width=narrowest or None,
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


def summary_title(
    game_id: str, players: int, options: Mapping[str, Any], seats: str, *details: str
) -> str:
    """A study summary's title: ``<game>, <seats>, options <changed>, <details>...``.

    ``options days=5`` names the options that differ from the game's defaults (left out when
    none does).
    """
    changed = changed_options(game_id, players, options)
    named = [f"options {options_text(changed)}"] if changed else []
    return ", ".join([game_id, seats, *named, *details])


def literal(text: object) -> str:
    """``text`` to put in a finding as it is: its backslashes and asterisks escaped.

    Findings mark emphasis with ``**``; a name the user chose (a Python policy's ``policy:a**b``,
    an option value) would otherwise open or close it. The report (``_report._inline``) and
    :func:`unmarked` read a backslash as keeping the next character.
    """
    return re.sub(r"([\\*])", r"\\\1", str(text))


MARKUP = re.compile(r"\\(.)|\*\*", re.S)
"""A finding's markup: ``**`` toggles bold, a backslash keeps the next character as it is."""


def unmarked(text: str) -> str:
    """A finding as plain text: its ``**`` left out, its escaped characters as they are."""
    return MARKUP.sub(lambda m: m.group(1) or "", text)
