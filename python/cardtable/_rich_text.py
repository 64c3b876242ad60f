"""Rich renderables (tables, lines) as plain text, for the summaries ``print`` shows.

A leaf module: the core's ``simulate`` summary and the studies both print through it.
"""

from __future__ import annotations

import io
from typing import Any

__all__ = ["plain_text"]


def plain_text(width: int, *items: Any) -> str:
    """What rich prints of ``items`` (tables, lines) on a console ``width`` wide, as plain text.

    Nothing is cut: a table's cells fold (see ``cardtable.analysis._text.text_table``), lines
    wrap, and a table too wide for ``width`` is printed whole rather than cropped at the right.
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
    if len(body) != 2:
        return
    # The body's lines, less the rules of its sections: more than one a row if a row wrapped.
    rows = [line for line in lines[body[0] + 1 : body[1]] if not line.startswith("├")]
    if len(rows) > item.row_count:
        item.show_lines = True
