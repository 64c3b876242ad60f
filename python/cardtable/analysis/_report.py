"""Self-contained HTML reports: plain-language findings, tables, and plots as inline SVG.

Nothing is fetched when the page is opened (no scripts, fonts or images from elsewhere), so the
file can be mailed or opened offline.
"""

from __future__ import annotations

import html
import io
import itertools
import os
import re
import shlex
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardtable._inputs import check_path, write_whole
from cardtable.analysis._text import MARKUP, option_text

if TYPE_CHECKING:
    import pyarrow

__all__ = [
    "Report",
    "Section",
    "chart_label",
    "command_line",
    "figure",
    "rerun_text",
    "svg_of",
    "table",
    "text_color",
]

_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
       margin: 0; background: #f6f7f9; color: #1d2430; line-height: 1.5; }
main { max-width: 1040px; margin: 0 auto; padding: 24px 28px 48px; overflow-wrap: break-word; }
h1 { font-size: 1.7em; margin: 0.2em 0 0.1em; }
h2 { font-size: 1.25em; margin: 1.6em 0 0.4em; border-bottom: 2px solid #d8dde6;
     padding-bottom: 0.2em; }
.subtitle { color: #5b6576; margin: 0 0 1em; }
.card { background: white; border-radius: 10px; padding: 14px 20px; margin: 12px 0;
        box-shadow: 0 1px 3px rgba(0,0,0,0.08); }
.findings li { margin: 0.35em 0; }
.findings strong { color: #0b4f8a; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: 8px 0; font-size: 0.92em; }
caption { caption-side: top; text-align: left; color: #5b6576; font-size: 0.95em;
          padding: 2px 0 4px; }
th, td { padding: 4px 10px; border-bottom: 1px solid #e3e7ee; text-align: right; }
th { background: #eef1f6; font-weight: 600; }
tbody th { background: none; font-weight: normal; }
.name { display: inline-block; max-width: 18em; }
.head { display: inline-block; max-width: 11em; }
.long { min-width: 7em; overflow-wrap: anywhere; }
td:first-child, th:first-child { text-align: left; }
figure { margin: 10px 0; }
.plots { display: flex; flex-wrap: wrap; gap: 4px 18px; }
.plots figure { flex: 1 1 440px; }
figure svg { max-width: 100%; height: auto; }
figcaption { color: #5b6576; font-size: 0.9em; }
.note { color: #5b6576; font-size: 0.88em; }
code { background: #eef1f6; padding: 1px 4px; border-radius: 4px; overflow-wrap: anywhere; }
@media (max-width: 600px) {
  main { padding: 12px 10px 32px; }
  .card { padding: 10px 12px; }
  th, td { padding: 3px 6px; }
  .plots figure { flex-basis: 100%; }
}
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


_SVG_SALT = "cardtable"
"""matplotlib's ``svg.hashsalt``: its SVG ids are hashes of this and what they name, so the same
figure gives the same SVG (unset, every id is a new random one). The ids of a page's figures are
made unique when the page is put together (:meth:`Section.render`)."""


def svg_of(fig: Any) -> str:
    """A matplotlib figure as an inline ``<svg>`` element (text kept as text); closes it.

    The same figure gives the same text: the ids are hashed with a fixed salt and the
    ``<metadata>`` block (creation date, tool names) is left out.
    """
    import matplotlib
    import matplotlib.pyplot as plt

    buf = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": _SVG_SALT}):
        fig.savefig(buf, format="svg", bbox_inches="tight")
    plt.close(fig)
    text = buf.getvalue()
    return re.sub(r"<metadata>.*?</metadata>", "", text[text.index("<svg") :], flags=re.S)


_SVG_ID = re.compile(r'(\bid="|\bhref="#|url\(#)')
"""Where an SVG names or refers to an id: ``id="x"``, ``xlink:href="#x"``, ``url(#x)``."""


def _page_svg(svg: str, number: int) -> str:
    """``svg`` for figure ``number`` of a page: its ids prefixed ``f<number>-`` and labelled.

    Inline SVGs share the page's ids: two figures with an ``axes_1`` (or the same clip path)
    would refer to each other's. The ``<svg>`` gets ``role="img"`` and is named by its caption
    (``aria-labelledby``), which :meth:`Section.render` gives the id ``fig<number>-caption``.
    """
    svg = _SVG_ID.sub(lambda m: f"{m.group(1)}f{number}-", svg)
    return svg.replace("<svg ", f'<svg role="img" aria-labelledby="fig{number}-caption" ', 1)


def chart_label(text: str, width: int = 22) -> str:
    """``text`` broken onto lines of at most ``width`` characters, for a chart's tick or legend.

    A long bot spec (``mcts:iterations=8,c=1.4,rollout=greedy``) breaks after its commas and
    colons; a part still too long is cut at ``width``. Short text is left whole.
    """
    if len(text) <= width:
        return text
    parts = re.findall(r"[^,:]*[,:]?", text)
    lines: list[str] = []
    line = ""
    for part in filter(None, parts):
        if line and len(line) + len(part) > width:
            lines.append(line)
            line = ""
        line += part
        while len(line) > width:
            lines.append(line[:width])
            line = line[width:]
    lines.append(line)
    return "\n".join(x for x in lines if x)


def text_color(rgba: Sequence[float]) -> str:
    """``"black"`` or ``"white"``: whichever contrasts more with a cell of colour ``rgba``.

    By the WCAG relative luminance of the colour (its sRGB channels linearized): black when
    ``(L + 0.05) / 0.05 >= 1.05 / (L + 0.05)``, else white.
    """

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(float(c)) for c in rgba[:3])
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "black" if (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) else "white"


@contextmanager
def figure(width: float = 7.5, height: float = 3.6) -> Iterator[Any]:
    """A matplotlib figure and axes in the report's style, on the non-interactive backend."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with plt.rc_context(
        {
            # Text as it is: a bot or policy named "cost$x^2$" is no formula (and "$\\frac$"
            # no error).
            "text.parse_math": False,
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


def legend_above(ax: Any, columns: int = 1) -> None:
    """Puts the axes' legend above the plot, right-aligned and without a frame.

    Inside the axes a legend box can cover a bar or an interval (``loc="lower right"`` covered
    the last bar of the tournament and balance charts).

    Args:
        ax: The axes.
        columns: The legend's entries side by side.
    """
    ax.legend(
        loc="lower right", bbox_to_anchor=(1, 1), borderaxespad=0.2, frameon=False, ncols=columns
    )


def table(
    headers: Sequence[str],
    rows: Sequence[Sequence[object]],
    caption: str,
    row_headers: int = 1,
) -> str:
    """An HTML table (cells are escaped) in a box that scrolls sideways when it is too wide.

    Args:
        headers: The column headings (``<th scope="col">``).
        rows: The cells, row by row.
        caption: What the table shows (its ``<caption>``, which also names the scrolling box).
        row_headers: How many of a row's first cells name it (``<th scope="row">``).

    Returns:
        The HTML.
    """
    # A cell's text in a box of limited width: a long name or heading wraps (a bot spec
    # anywhere) rather than widening its column until the numbers beside it wrap.
    head = "".join(f'<th scope="col">{_boxed(h, "head")}</th>' for h in headers)
    body = "".join(
        "<tr>"
        + "".join(
            f'<th scope="row">{_boxed(c, "name")}</th>'
            if i < row_headers
            else f"<td>{html.escape(str(c))}</td>"
            for i, c in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    name = html.escape(caption)
    return (
        f'<div class="scroll" role="region" tabindex="0" aria-label="{name}">'
        f"<table><caption>{name}</caption><thead><tr>{head}</tr></thead>"
        f"<tbody>{body}</tbody></table></div>"
    )


_LONG_WORD = 16
"""A word longer than this (a bot spec such as ``mcts:iterations=8,c=1.4``) may break anywhere."""


def _boxed(text: object, kind: str) -> str:
    """A heading's or a row name's text in a box of limited width (``kind``: its CSS class).

    A long name or heading then wraps rather than widen its column until the numbers beside it
    wrap; one with a word longer than :data:`_LONG_WORD` characters (a bot spec) may break inside
    it too, while a short word (``num_cards``) stays whole.
    """
    words = str(text).split()
    long = " long" if words and max(map(len, words)) > _LONG_WORD else ""
    return f'<span class="{kind}{long}">{html.escape(str(text))}</span>'


@dataclass(frozen=True)
class _Figure:
    """A figure of a section: its inline SVG and caption, numbered when the page is made."""

    svg: str
    caption: str

    def render(self, number: int) -> str:
        return (
            f"<figure>{_page_svg(self.svg, number)}"
            f'<figcaption id="fig{number}-caption">{html.escape(self.caption)}</figcaption>'
            "</figure>"
        )


@dataclass
class Section:
    """A part of the report: a heading, findings in words, then tables, figures and notes.

    With ``side_by_side`` the blocks wrap in rows (for many small plots).
    """

    heading: str
    findings: list[str] = field(default_factory=list)
    blocks: list[str | _Figure] = field(default_factory=list)
    side_by_side: bool = False

    def add_figure(self, svg: str, caption: str) -> None:
        """Appends a figure (an inline SVG) with its caption, which names it for screen readers."""
        self.blocks.append(_Figure(svg, caption))

    def add_table(
        self, headers: Sequence[str], rows: Sequence[Sequence[object]], caption: str, **kw: int
    ) -> None:
        """Appends a table (see :func:`table`)."""
        self.blocks.append(table(headers, rows, caption, **kw))

    def add_note(self, text: str) -> None:
        """Appends a small note (plain text)."""
        self.blocks.append(f'<p class="note">{html.escape(text)}</p>')

    def render(self, figures: Iterator[int] | None = None) -> str:
        """The section as HTML. Findings may use ``**bold**``; everything else is escaped.

        Args:
            figures: The numbers of the page's figures, from the first this section's takes
                (``None``: from 1). Each number makes its figure's ids unique on the page.
        """
        numbers = itertools.count(1) if figures is None else figures
        parts = [f"<h2>{html.escape(self.heading)}</h2>", '<div class="card">']
        if self.findings:
            items = "".join(f"<li>{_inline(f)}</li>" for f in self.findings)
            parts.append(f'<ul class="findings">{items}</ul>')
        blocks = [b.render(next(numbers)) if isinstance(b, _Figure) else b for b in self.blocks]
        if self.side_by_side:
            parts.append('<div class="plots">' + "".join(blocks) + "</div>")
        else:
            parts.extend(blocks)
        parts.append("</div>")
        return "".join(parts)


def _inline(text: str) -> str:
    """A finding as HTML: ``**bold**``; user text escaped by :func:`_text.literal` stays as is."""
    out: list[str] = []
    bold = False
    end = 0
    for m in MARKUP.finditer(text):
        out.append(html.escape(text[end : m.start()]))
        if m.group(1) is not None:
            out.append(html.escape(m.group(1)))
        else:
            out.append("</strong>" if bold else "<strong>")
            bold = not bold
        end = m.end()
    out.append(html.escape(text[end:]))
    if bold:
        out.append("</strong>")
    return "".join(out)


@dataclass
class Report:
    """A whole report page."""

    title: str
    subtitle: str
    sections: list[Section] = field(default_factory=list)
    footer: str = ""

    def render(self) -> str:
        """The page as one HTML document."""
        figures = itertools.count(1)  # one numbering for the page: its SVG ids stay unique
        body = "".join(s.render(figures) for s in self.sections)
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
