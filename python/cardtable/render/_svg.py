"""A small SVG writer and the card, die and label shapes every game's picture is made of.

Every card is a ``<g class="card">`` group; a face-up card carries its identity in ``data-card`` and
its face in ``<text>`` elements, a face-down card has neither (only ``class="card back"``), so a
picture can be checked for what it shows.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from html import escape as _escape
from importlib import resources
from typing import Any

from cardtable.render._common import View, seat_names, view_title

__all__ = ["CARD_H", "CARD_W", "Svg", "flow", "text_width"]

CARD_W = 40
CARD_H = 56
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

INK = "#1d2731"
MUTED = "#66707a"
PAPER = "#fbfaf6"
TABLE = "#eef1ec"
ACCENT = "#d99a1e"
BACK = "#2f5d8a"


@cache
def _advances() -> dict[str, Any]:
    """DejaVu Sans's advance widths of the printable ASCII characters, regular and bold."""
    text = (
        resources.files("cardtable.render").joinpath("dejavu_sans_widths.json").read_text("utf-8")
    )
    widths: dict[str, Any] = json.loads(text)
    return widths


def text_width(content: str, size: float, *, bold: bool = False) -> float:
    """About how wide ``content`` is drawn at ``size`` px: the sum of its DejaVu Sans advances.

    Kerning is left out (it only narrows a line: "Hollow Earth Worm" is 108.5 px in Chromium,
    108.8 here); a character outside ASCII counts as 1 em.
    """
    font = _advances()
    table, em = font["bold" if bold else "regular"], font["units_per_em"]
    units = sum(table[ord(c) - 32] if " " <= c <= "~" else em for c in content)
    return float(units * size / em)


def fit(content: str, width: float, size: float, *, bold: bool = False) -> str:
    """``content``, cut short with an ellipsis if it would be drawn wider than ``width`` px.

    Examples:
        >>> fit("greedy", 100, 12), fit("mcts:iterations=5000,c=0.7", 100, 12)
        ('greedy', 'mcts:iteration…')
    """
    if text_width(content, size, bold=bold) <= width:
        return content
    room = width - text_width("…", size, bold=bold)
    kept = 0
    for end, char in enumerate(content):
        room -= text_width(char, size, bold=bold)
        if room < 0:
            break
        kept = end + 1
    return content[:kept].rstrip() + "…"


def flow(
    widths: Sequence[float], left: float, right: float, gap: float
) -> tuple[list[tuple[float, int]], int]:
    """A row of items ``widths`` wide from ``left``, ``gap`` apart, wrapped to end by ``right``.

    An item that would end past ``right`` starts the next line at ``left`` (the first item of a
    line stays on it, however wide). Returns each item's ``(x, line)`` and the number of lines
    (1 for no item), so a row that fits keeps its one line and its places.
    """
    spots: list[tuple[float, int]] = []
    x, line = left, 0
    for w in widths:
        if x > left and x + w > right:
            x, line = left, line + 1
        spots.append((x, line))
        x += w + gap
    return spots, line + 1


def _num(value: float) -> str:
    """Coordinates as short, stable text (integers without a decimal point)."""
    if type(value) is int or value == int(value):
        return str(int(value))
    return f"{value:.1f}"


@cache
def _name(key: str) -> str:
    return key.rstrip("_").replace("_", "-")


def _text(value: str) -> str:
    """Escapes text for content and attributes (only when it needs it)."""
    if "&" in value or "<" in value or ">" in value or '"' in value or "'" in value:
        return _escape(value, quote=True)
    return value


def _attrs(attrs: dict[str, object]) -> str:
    out = []
    for key, value in attrs.items():
        if value is None:
            continue
        kind = type(value)
        text = _num(value) if kind is int or kind is float else _text(str(value))  # type: ignore[arg-type]
        out.append(f'{_name(key)}="{text}"')
    return " ".join(out)


class Svg:
    """An SVG document built element by element; :meth:`render` closes it at its final size."""

    def __init__(self, width: int, title: str) -> None:
        """Starts a picture ``width`` pixels wide; ``title`` becomes its ``<title>``."""
        self.width = width
        self.height = 0
        self.title = title
        self._parts: list[str] = []

    def grow(self, y: float) -> None:
        """Makes the picture at least ``y`` pixels high."""
        self.height = max(self.height, int(y + 0.999))

    def raw(self, element: str) -> None:
        """Appends a ready-made element."""
        self._parts.append(element)

    def open(self, **attrs: object) -> None:
        """Opens a ``<g>`` group (close it with :meth:`close`)."""
        self._parts.append(f"<g {_attrs(attrs)}>" if attrs else "<g>")

    def close(self) -> None:
        """Closes the last group opened."""
        self._parts.append("</g>")

    def rect(self, x: float, y: float, w: float, h: float, **attrs: object) -> None:
        """A rectangle (``fill``, ``stroke``, ``rx``... as keyword attributes)."""
        self._parts.append(f"<rect {_attrs({'x': x, 'y': y, 'width': w, 'height': h, **attrs})}/>")
        self.grow(y + h)

    def circle(self, cx: float, cy: float, r: float, **attrs: object) -> None:
        """A circle."""
        self._parts.append(f"<circle {_attrs({'cx': cx, 'cy': cy, 'r': r, **attrs})}/>")
        self.grow(cy + r)

    def path(self, d: str, **attrs: object) -> None:
        """A path."""
        self._parts.append(f"<path {_attrs({'d': d, **attrs})}/>")

    def text(
        self,
        x: float,
        y: float,
        content: str,
        *,
        size: float = 12,
        anchor: str = "start",
        weight: str | None = None,
        fill: str = INK,
        **attrs: object,
    ) -> None:
        """A line of text with its baseline at ``y``."""
        a = _attrs(
            {
                "x": x,
                "y": y,
                "font_size": size,
                "text_anchor": anchor if anchor != "start" else None,
                "font_weight": weight,
                "fill": fill,
                **attrs,
            }
        )
        self._parts.append(f"<text {a}>{_text(content)}</text>")
        self.grow(y + size * 0.3)

    def centered(self, x: float, y: float, content: str, **attrs: Any) -> None:
        """A line of text centred on ``x`` (the other arguments as for :meth:`text`)."""
        self.text(x, y, content, anchor="middle", **attrs)

    def card(
        self,
        x: float,
        y: float,
        card_id: str,
        label: str,
        *,
        corner: str = "",
        note: str = "",
        fill: str = PAPER,
        ink: str = INK,
        w: float = CARD_W,
        h: float = CARD_H,
        highlight: bool = False,
        tooltip: str | None = None,
    ) -> None:
        """A face-up card: ``label`` large in the middle, ``corner`` top left, ``note`` below."""
        self.open(class_="card", data_card=card_id)
        if tooltip:
            self._parts.append(f"<title>{_escape(tooltip)}</title>")
        self.rect(
            x,
            y,
            w,
            h,
            rx=5,
            fill=fill,
            stroke=ACCENT if highlight else INK,
            stroke_width=3 if highlight else 1,
        )
        size = min(h * 0.36, w * (0.48 if len(label) <= 2 else 1.5 / max(len(label), 1)))
        self.text(
            x + w / 2,
            y + h / 2 + size * 0.35,
            label,
            size=size,
            anchor="middle",
            weight="bold",
            fill=ink,
        )
        if corner:  # 7 px, or smaller to stay 3 px inside the card ("ambulance" ran 2 px over)
            size = min(7.0, round(7 * (w - 6) / text_width(corner, 7), 2))
            self.text(x + 3, y + 9, corner, size=size, fill=ink)
        if note:
            self.centered(x + w / 2, y + h - 4, note, size=7, fill=ink)
        self.close()

    def back(
        self,
        x: float,
        y: float,
        *,
        w: float = CARD_W,
        h: float = CARD_H,
        note: str = "",
        highlight: bool = False,
    ) -> None:
        """A face-down card (no identity, no face); ``note`` is written under it."""
        self.open(class_="card back")
        self.rect(
            x,
            y,
            w,
            h,
            rx=5,
            fill=BACK,
            stroke=ACCENT if highlight else INK,
            stroke_width=3 if highlight else 1,
        )
        self.rect(x + 4, y + 4, w - 8, h - 8, rx=3, fill="none", stroke="#9fc0df", stroke_width=1)
        self.path(
            f"M{_num(x + 4)},{_num(y + h / 2)} L{_num(x + w / 2)},{_num(y + 4)} "
            f"L{_num(x + w - 4)},{_num(y + h / 2)} L{_num(x + w / 2)},{_num(y + h - 4)} Z",
            fill="none",
            stroke="#9fc0df",
        )
        self.close()
        if note:
            self.centered(x + w / 2, y + h + 10, note, size=9, fill=MUTED)

    def slot(
        self, x: float, y: float, *, w: float = CARD_W, h: float = CARD_H, label: str = ""
    ) -> None:
        """An empty place for a card (dashed outline)."""
        self.rect(x, y, w, h, rx=5, fill="none", stroke=MUTED, stroke_dasharray="4 3")
        if label:
            self.centered(x + w / 2, y + h / 2 + 3, label, size=8, fill=MUTED)

    def die(
        self, x: float, y: float, letter: str, face: str, colour: str, *, size: float = 22
    ) -> None:
        """A die showing ``face`` in ``colour`` (``letter`` is its kind, in the tooltip)."""
        self.open(class_="die", data_die=f"{letter}{face}")
        self.rect(x, y, size, size, rx=4, fill=colour, stroke=INK)
        self.text(
            x + size / 2, y + size * 0.7, face, size=size * 0.55, anchor="middle", weight="bold"
        )
        self.close()

    def badge(
        self, x: float, y: float, content: str, *, fill: str = ACCENT, ink: str = INK
    ) -> float:
        """A small rounded label; returns its width."""
        w = 8 + 6.2 * len(content)
        self.rect(x, y, w, 16, rx=8, fill=fill)
        self.centered(x + w / 2, y + 12, content, size=10, fill=ink)
        return w

    def seat_heading(
        self, top: float, seat: int, names: list[str] | None, viewer: int | None
    ) -> None:
        """The name of ``seat`` at the top left of its band (see :func:`seat_label`).

        It ends before the badges that follow it (at x 200): a longer name is cut short, and the
        whole label is the heading's tooltip.
        """
        whole = seat_label(seat, names, viewer)
        label = seat_label(seat, names, viewer, room=180, size=13, bold=True)
        if label != whole:
            self.open()
            self.raw(f"<title>{_escape(whole)}</title>")
        self.text(12, top + 16, label, size=13, weight="bold")
        if label != whole:
            self.close()

    def seat_divider(self, top: float, bottom: float, current: bool, *, below: float = 0) -> None:
        """The rule under a seat's band, with the accent bar beside the seat to act.

        The band runs from ``top`` to ``bottom``; the rule lies ``below`` under it; the bar is
        drawn when ``current``.
        """
        line = bottom + below
        self.path(f"M6,{line} L{self.width - 6},{line}", stroke="#c9cfc9")
        if current:
            self.rect(2, top, 4, bottom - top, fill=ACCENT)

    def render(self) -> str:
        """The finished SVG document."""
        height = self.height + 12
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{height}" '
            f'viewBox="0 0 {self.width} {height}" font-family="{_escape(FONT)}">'
            f"<title>{_escape(self.title)}</title>"
            f'<rect width="{self.width}" height="{height}" fill="{TABLE}"/>'
        )
        return head + "".join(self._parts) + "</svg>"


def header(svg: Svg, title: str, subtitle: str) -> float:
    """The title band at the top of every picture; returns the y where the content starts."""
    svg.rect(0, 0, svg.width, 44, fill=INK)
    svg.text(12, 20, title, size=15, weight="bold", fill="#ffffff")
    svg.text(12, 37, subtitle, size=11, fill="#d8dde2")
    return 56


def titled(view: View, game: str, width: int, status: str) -> tuple[Svg, float]:
    """A picture of ``view`` of ``game``, ``width`` wide, with its title band over ``status``.

    Returns the picture and the y where the content starts.
    """
    title = view_title(view, game)
    svg = Svg(width, title)
    return svg, header(svg, title, status)


def seat_label(
    seat: int,
    names: list[str] | None,
    viewer: int | None,
    *,
    room: float | None = None,
    size: float = 12,
    bold: bool = False,
) -> str:
    """``seat 2 (greedy)``, with ``you`` for the viewing seat.

    With ``room``, the name is cut short (:func:`fit`) so that the label is drawn at most
    ``room`` px wide at ``size`` px.
    """
    whole = seat_names(names, seat, viewer, you=" · you")
    if room is None or names is None or text_width(whole, size, bold=bold) <= room:
        return whole
    name = names[seat]
    around = text_width(whole, size, bold=bold) - text_width(name, size, bold=bold)
    cut = fit(name, max(0.0, room - around), size, bold=bold)
    return seat_names([*names[:seat], cut, *names[seat + 1 :]], seat, viewer, you=" · you")
