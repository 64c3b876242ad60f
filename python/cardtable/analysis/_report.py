"""Self-contained HTML reports: plain-language findings, tables, and plots as inline SVG.

Nothing is fetched when the page is opened (no scripts, fonts or images from elsewhere), so the
file can be mailed or opened offline.
"""

from __future__ import annotations

import html
import io
import os
import re
import shlex
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardtable._inputs import check_path, write_whole
from cardtable.analysis._text import option_text

if TYPE_CHECKING:
    import pyarrow

__all__ = ["Report", "Section", "command_line", "figure", "rerun_text", "svg_of", "table"]

_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
       margin: 0; background: #f6f7f9; color: #1d2430; line-height: 1.5; }
main { max-width: 1040px; margin: 0 auto; padding: 24px 28px 48px; }
h1 { font-size: 1.7em; margin: 0.2em 0 0.1em; }
h2 { font-size: 1.25em; margin: 1.6em 0 0.4em; border-bottom: 2px solid #d8dde6;
     padding-bottom: 0.2em; }
.subtitle { color: #5b6576; margin: 0 0 1em; }
.card { background: white; border-radius: 10px; padding: 14px 20px; margin: 12px 0;
        box-shadow: 0 1px 3px rgba(0,0,0,0.08); }
.findings li { margin: 0.35em 0; }
.findings strong { color: #0b4f8a; }
table { border-collapse: collapse; margin: 8px 0; font-size: 0.92em; }
th, td { padding: 4px 10px; border-bottom: 1px solid #e3e7ee; text-align: right; }
th { background: #eef1f6; font-weight: 600; }
td:first-child, th:first-child { text-align: left; }
figure { margin: 10px 0; }
.plots { display: flex; flex-wrap: wrap; gap: 4px 18px; }
.plots figure { flex: 1 1 440px; }
figure svg { max-width: 100%; height: auto; }
figcaption { color: #5b6576; font-size: 0.9em; }
.note { color: #5b6576; font-size: 0.88em; }
code { background: #eef1f6; padding: 1px 4px; border-radius: 4px; }
"""


def command_line(*words: object, options: Mapping[str, Any]) -> str:
    """The shell command of ``words`` and ``-o KEY=VALUE`` per option, quoted for a POSIX shell."""
    pairs = [w for k, v in options.items() for w in ("-o", f"{k}={option_text(v)}")]
    return " ".join(shlex.quote(str(w)) for w in (*words, *pairs))


def rerun_text(command: str | None, bots: Sequence[str]) -> str:
    """The footer's sentence on running a study again.

    ``Reproduce with `command`.``; with no command (a study that seated a Python policy, whose
    bots name the policies ``policy:<name>``), that the run cannot be repeated from the command
    line, naming the policies.
    """
    if command is not None:
        return f"Reproduce with `{command}`."
    from cardtable.analysis._runs import policy_labels

    policies = policy_labels(bots)
    return (
        f"The run includes the Python {'policy' if len(policies) == 1 else 'policies'} "
        f"{', '.join(policies)}, so it cannot be repeated from the command line: call the "
        "study again in Python with the same policies and settings."
    )


def svg_of(fig: Any) -> str:
    """A matplotlib figure as an inline ``<svg>`` element (text kept as text); closes it."""
    import matplotlib.pyplot as plt

    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    plt.close(fig)
    text = buf.getvalue()
    # Drop the <metadata> block (creation date, tool names): the report stays reproducible.
    return re.sub(r"<metadata>.*?</metadata>", "", text[text.index("<svg") :], flags=re.S)


@contextmanager
def figure(width: float = 7.5, height: float = 3.6) -> Iterator[Any]:
    """A matplotlib figure and axes in the report's style, on the non-interactive backend."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with plt.rc_context(
        {
            "svg.fonttype": "none",
            "font.size": 10,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "axes.grid": True,
            "grid.alpha": 0.3,
        }
    ):
        fig, ax = plt.subplots(figsize=(width, height))
        yield fig, ax


def legend_above(ax: Any) -> None:
    """Puts the axes' legend above the plot, right-aligned and without a frame.

    Inside the axes a legend box can cover a bar or an interval (``loc="lower right"`` covered
    the last bar of the tournament and balance charts).
    """
    ax.legend(loc="lower right", bbox_to_anchor=(1, 1), borderaxespad=0.2, frameon=False)


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """An HTML table (cells are escaped)."""
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


@dataclass
class Section:
    """A part of the report: a heading, findings in words, then tables, figures and notes.

    With ``side_by_side`` the blocks wrap in rows (for many small plots).
    """

    heading: str
    findings: list[str] = field(default_factory=list)
    blocks: list[str] = field(default_factory=list)
    side_by_side: bool = False

    def add_figure(self, svg: str, caption: str) -> None:
        """Appends a figure (an inline SVG) with its caption."""
        self.blocks.append(f"<figure>{svg}<figcaption>{html.escape(caption)}</figcaption></figure>")

    def add_table(self, headers: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
        """Appends a table."""
        self.blocks.append(table(headers, rows))

    def add_note(self, text: str) -> None:
        """Appends a small note (plain text)."""
        self.blocks.append(f'<p class="note">{html.escape(text)}</p>')

    def render(self) -> str:
        """The section as HTML. Findings may use ``**bold**``; everything else is escaped."""
        parts = [f"<h2>{html.escape(self.heading)}</h2>", '<div class="card">']
        if self.findings:
            items = "".join(f"<li>{_inline(f)}</li>" for f in self.findings)
            parts.append(f'<ul class="findings">{items}</ul>')
        if self.side_by_side:
            parts.append('<div class="plots">' + "".join(self.blocks) + "</div>")
        else:
            parts.extend(self.blocks)
        parts.append("</div>")
        return "".join(parts)


def _inline(text: str) -> str:
    pieces = html.escape(text).split("**")
    return "".join(f"<strong>{p}</strong>" if i % 2 else p for i, p in enumerate(pieces))


@dataclass
class Report:
    """A whole report page."""

    title: str
    subtitle: str
    sections: list[Section] = field(default_factory=list)
    footer: str = ""

    def render(self) -> str:
        """The page as one HTML document."""
        body = "".join(s.render() for s in self.sections)
        foot = f'<p class="note">{html.escape(self.footer)}</p>' if self.footer else ""
        return (
            "<!DOCTYPE html>\n"
            '<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<link rel="icon" href="data:,">'
            f"<title>{html.escape(self.title)}</title><style>{_CSS}</style></head>"
            f"<body><main><h1>{html.escape(self.title)}</h1>"
            f'<p class="subtitle">{html.escape(self.subtitle)}</p>{body}{foot}'
            "</main></body></html>\n"
        )

    def write(self, path: str | os.PathLike[str]) -> None:
        """Writes the page (UTF-8), whole or not at all.

        See :func:`cardtable._inputs.write_whole`.

        Raises:
            InvalidOptionError: If ``path`` is not a ``str`` or an ``os.PathLike``.
            OSError: If the file cannot be written.
        """
        page = self.render().encode("utf-8")
        write_whole(path, lambda f: f.write(page))


class ResultOutputs:
    """The outputs every analysis result offers beyond its own content.

    ``str()`` is its summary table, :meth:`to_parquet` writes its Arrow table and
    :meth:`write_report` its HTML report; a result class defines :meth:`summary_table`,
    :meth:`to_arrow` and :meth:`report`.
    """

    def summary_table(self, width: int | None = None) -> str:
        """The plain-text summary, ``width`` characters wide (``None``: the study's default)."""
        raise NotImplementedError

    def to_arrow(self) -> pyarrow.Table:
        """The result as an Arrow table."""
        raise NotImplementedError

    def report(self) -> Report:
        """The HTML report."""
        raise NotImplementedError

    def __str__(self) -> str:
        return self.summary_table()

    def to_parquet(self, path: str | os.PathLike[str]) -> None:
        """Writes :meth:`to_arrow` to a Parquet file, whole or not at all.

        See :func:`cardtable._inputs.write_whole`.

        Raises:
            InvalidOptionError: If ``path`` is not a ``str`` or an ``os.PathLike``.
            OSError: If the file cannot be written.
        """
        import pyarrow.parquet as pq

        table = self.to_arrow()
        write_whole(path, lambda f: pq.write_table(table, f, write_page_checksum=True))

    def to_csv(self, path: str | os.PathLike[str]) -> None:
        """Writes :meth:`to_arrow` as CSV, whole or not at all: a header line, then the rows.

        An undefined number (NaN) is an empty cell, as is a missing value (``null``); the
        table's metadata (the game, its options) is left out, which the Parquet file keeps.

        Raises:
            InvalidOptionError: If ``path`` is not a ``str`` or an ``os.PathLike``.
            OSError: If the file cannot be written.
        """
        import pyarrow as pa
        import pyarrow.compute as pc
        import pyarrow.csv as pcsv

        table = self.to_arrow()
        for i, column in enumerate(table.columns):
            if pa.types.is_floating(column.type):
                empty = pa.scalar(None, column.type)
                table = table.set_column(
                    i, table.field(i), pc.if_else(pc.is_nan(column), empty, column)
                )
        write_whole(path, lambda f: pcsv.write_csv(table, f))

    def write_report(self, path: str | os.PathLike[str]) -> None:
        """Writes the self-contained HTML report.

        Raises:
            InvalidOptionError: If ``path`` is not a ``str`` or an ``os.PathLike``.
            OSError: If the file cannot be written (no part of it is left).
        """
        out = check_path(path)  # before the report is made
        self.report().write(out)
