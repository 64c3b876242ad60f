"""Trafficars memory: the face-down grid, this turn's flipped cards and what the table remembers."""

from __future__ import annotations

from cardtable.protocols import StateProtocol
from cardtable.render._common import View, game_view, observe, pick, seat_names, who_won
from cardtable.render._svg import ACCENT, MUTED, Svg, seat_label, titled

__all__ = ["chapter", "draw", "secret", "terminal", "view"]

SCORE_TRACE = "the cards each seat has taken so far"
"""What the score trace is (the contract's "Score trace"), in the studies' reports."""

COLUMNS = 10
W, H = 44, 60


def label(card: int) -> str:
    """A card's face: its number, or ``J`` for a joker (ids above 50)."""
    return "J" if card > 50 else str(card)


def view(state: StateProtocol, seat: int | None) -> View:
    """Seat ``seat``'s view (its observation) or the full view (``to_dict()``).

    Every seat sees the same: flipped cards are shown to all. The full view also shows the faces
    of the cards still face down.
    """
    o = observe(state, 0 if seat is None else seat)
    layout: list[int | None] = [None] * len(o["on_table"])
    if seat is None:
        laid = state.to_dict()["state"]["layout"]
        layout[: len(laid)] = laid
    return game_view(
        state,
        "trafficars_memory",
        seat,
        len(o["taken"]),
        phase=o["phase"],
        turn_seat=o["current"],
        **pick(o, "faces", "seen", "on_table", "taken", "flipped"),
        layout=layout,
    )


def chapter(v: View) -> str:
    """Whose turn it is."""
    if v["phase"] == "over":
        return "the end"
    return "the layout" if v["turn_seat"] is None else f"seat {v['turn_seat']}'s turn"


def _face_down(svg: Svg, x: float, y: float, card: int, corner: str, fill: str, ink: str) -> None:
    """A face-down card whose face the view knows (seen before, or the full view), tinted."""
    svg.card(x, y, str(card), label(card), corner=corner, w=W, h=H, fill=fill, ink=ink)


def draw(v: View, names: list[str] | None = None) -> str:
    """The picture of a view."""
    seat = v["seat"]
    status = f"{v['phase']}"
    if v["turn_seat"] is not None:
        status += f" · seat {v['turn_seat']} flips"
    status += who_won(v, names)
    svg, y = titled(v, "Trafficars memory", 24 + COLUMNS * (W + 6) + 200, status)
    for i, here in enumerate(v["on_table"]):
        x = 12 + (i % COLUMNS) * (W + 6)
        top = y + (i // COLUMNS) * (H + 18)
        svg.centered(x + W / 2, top + H + 11, str(i), size=8, fill=MUTED)
        if not here:
            svg.slot(x, top, w=W, h=H)
            continue
        face = v["faces"][i]
        if face is not None:
            order = v["flipped"].index(i) + 1 if i in v["flipped"] else 0
            svg.card(x, top, str(face), label(face), corner=f"#{order}", w=W, h=H, highlight=True)
        elif v["seen"][i] is not None:
            _face_down(svg, x, top, v["seen"][i], "seen", "#dfe7ef", "#4b5d70")
        elif v["layout"][i] is not None:
            _face_down(svg, x, top, v["layout"][i], "down", "#b9c9d9", "#2f5d8a")
        else:
            svg.back(x, top, w=W, h=H)
    rows = (len(v["on_table"]) + COLUMNS - 1) // COLUMNS
    x0 = 24 + COLUMNS * (W + 6)
    sy = y
    svg.text(x0, sy + 12, "cards taken", size=11, fill=MUTED)
    for q in range(v["players"]):
        sy += 24
        svg.text(
            x0,
            sy + 8,
            seat_label(q, names, seat, room=140, bold=q == v["turn_seat"]),
            size=12,
            weight="bold" if q == v["turn_seat"] else None,
        )
        svg.text(x0 + 170, sy + 8, str(v["taken"][q]), size=12, anchor="end", weight="bold")
        if q == v["turn_seat"]:
            svg.rect(x0 - 8, sy - 5, 4, 16, fill=ACCENT)
    svg.grow(y + rows * (H + 18))
    return svg.render()


def terminal(v: View, names: list[str] | None = None) -> list[str]:
    """The view for the terminal: the grid with flipped and remembered cards."""
    # Card values are bracketed, so that they read apart from position numbers without colour.
    lines = [
        f"[bold]{chapter(v)}[/bold] (plain numbers are positions; \\[card] face up, "
        "[cyan](card)[/cyan] seen before)"
    ]
    row: list[str] = []
    for i, here in enumerate(v["on_table"]):
        if not here:
            cell = "   .  "
        elif v["faces"][i] is not None:
            cell = f"[bold reverse]\\[{label(v['faces'][i]):>2}][/bold reverse]  "
        elif v["seen"][i] is not None:
            cell = f"[cyan]({label(v['seen'][i]):>2})[/cyan]  "
        else:
            cell = f"[dim] {i:>2} [/dim]  "
        row.append(cell)
        if len(row) == COLUMNS:
            lines.append("".join(row))
            row = []
    if row:
        lines.append("".join(row))
    lines.append(
        "taken: "
        + ", ".join(
            f"{seat_names(names, q, v['seat'])} {v['taken'][q]}" for q in range(v["players"])
        )
    )
    return lines


def secret(after: View, actor: int, label: str) -> bool:
    """Whether ``actor``'s move is hidden from the view's seat: never, every move is public."""
    return False
