"""Goofspiel: the point card up for auction, both hands of bids, the hidden bids, past turns."""

from __future__ import annotations

from collections.abc import Callable

from cardtable.protocols import StateProtocol
from cardtable.render._common import (
    View,
    game_view,
    hidden_commitments,
    observe,
    pending_move,
    pick,
    seat_names,
    who_won,
)
from cardtable.render._svg import CARD_H, CARD_W, MUTED, flow, titled

__all__ = ["chapter", "draw", "narrate", "secret", "terminal", "view"]

SCORE_TRACE = "the points each seat has won so far"
"""What the score trace is (the contract's "Score trace"), in the studies' reports."""

POINT_FILL = "#f6e7c1"


COMMITMENTS_TURNED_UP = True
"""Cards played face down are turned up when the hand resolves (``play`` names them then)."""


def view(state: StateProtocol, seat: int | None) -> View:
    """Seat ``seat``'s view (its observation) or the full view (``to_dict()``)."""
    if seat is not None:
        o = observe(state, seat)
        bids = hidden_commitments(o["own_bid"], o["committed"], seat)
    else:
        o = state.to_dict()["state"]
        bids = list(o["pending"])
    return game_view(
        state,
        "goofspiel",
        seat,
        2,
        **pick(
            o, "turn", "point_card", "remaining_points", "hands", "points", "bids", "point_history"
        ),
        pending=bids,
    )


def chapter(v: View) -> str:
    """``turn 4`` (1-based), or ``all 13 turns played`` once no hand holds a card."""
    if not any(v["hands"]):
        return f"all {v['turn']} turns played"
    return f"turn {v['turn'] + 1}"


def narrate(before: View, after: View, who: Callable[[int], str]) -> list[str]:
    """The turns a step played by itself: the last one, when each hand holds one card."""
    lines = []
    for t in range(len(before["bids"]) + 1, len(after["bids"])):
        a, b = after["bids"][t]
        lines.append(
            f"turn {t + 1} played itself (one card each): point card "
            f"{after['point_history'][t]}, {who(0)} {a}, {who(1)} {b}"
        )
    return lines


def draw(v: View, names: list[str] | None = None) -> str:
    """The picture of a view."""
    seat = v["seat"]
    status = f"{chapter(v)} · points {v['points'][0]} : {v['points'][1]}" + who_won(v, names)
    svg, y = titled(v, "Goofspiel", 720, status)
    svg.text(12, y + 12, "point card", size=11, fill=MUTED)
    if v["point_card"] is not None:
        svg.card(
            12,
            y + 18,
            f"point-{v['point_card']}",
            str(v["point_card"]),
            corner="points",
            fill=POINT_FILL,
            w=52,
            h=72,
            highlight=True,
        )
    else:
        svg.slot(12, y + 18, w=52, h=72)
    svg.text(90, y + 12, "still to come", size=11, fill=MUTED)
    remaining = v["remaining_points"]
    spots, lines = flow([26] * len(remaining), 90, svg.width - 12, 4)
    for value, (x, line) in zip(remaining, spots, strict=True):
        svg.card(x, y + 18 + line * 42, f"point-{value}", str(value), fill=POINT_FILL, w=26, h=36)
    y += max(104, 20 + lines * 42)
    for q in range(2):
        top = y
        svg.seat_heading(top, q, names, seat)
        svg.text(12, top + 34, f"{v['points'][q]} points", size=11)
        if q == v["current"]:
            svg.badge(200, top + 4, "to bid")
        bid = v["pending"][q]
        cx = svg.width - 60
        if bid is not None:
            svg.text(cx, top + 12, "bid", size=9, fill=MUTED)
        if bid == "hidden":
            svg.back(cx, top + 16)
        elif bid is not None:
            svg.card(cx, top + 16, f"bid-{q}-{bid}", str(bid), highlight=True)
        # Left of the bid's place, on as many lines as it takes.
        spots, lines = flow([CARD_W] * len(v["hands"][q]), 12, cx - 6, 4)
        for card, (x, line) in zip(v["hands"][q], spots, strict=True):
            svg.card(x, top + 44 + line * (CARD_H + 6), f"hand-{q}-{card}", str(card))
        y = top + 44 + lines * (CARD_H + 6) + 2
        svg.seat_divider(top, y, q == v["current"])
        y += 8
    if v["bids"]:
        svg.text(
            12,
            y + 12,
            "past turns: point card, then the bids of seat 0 and seat 1",
            size=10,
            fill=MUTED,
        )
        y += 20
        turns = list(zip(v["point_history"], v["bids"], strict=True))
        spots, lines = flow([40] * len(turns), 12, svg.width - 12, 12)
        for (point, pair), (x, line) in zip(turns, spots, strict=True):
            ty = y + line * 52
            svg.centered(x + 20, ty + 10, str(point), size=12, weight="bold")
            for q in range(2):
                won = pair[q] > pair[1 - q]
                svg.centered(
                    x + 20,
                    ty + 26 + 14 * q,
                    str(pair[q]),
                    size=11,
                    fill="#1f7a3a" if won else MUTED,
                    weight="bold" if won else None,
                )
        y += lines * 52
    svg.grow(y)
    return svg.render()


def terminal(v: View, names: list[str] | None = None) -> list[str]:
    """The view for the terminal."""
    point = v["point_card"]
    lines = [
        f"[bold]{chapter(v)}[/bold] · point card: "
        + (f"[bold yellow]{point}[/bold yellow]" if point is not None else "none")
        + " · still to come: "
        + " ".join(str(p) for p in v["remaining_points"])
    ]
    for q in range(2):
        parts = [seat_names(names, q, v["seat"]), f"{v['points'][q]} points"]
        parts += pending_move(v["pending"][q], "has bid", "bids [bold]{}[/bold]")
        lines.append(" · ".join(parts))
        lines.append("   hand: " + " ".join(str(c) for c in v["hands"][q]))
    if v["bids"]:
        lines.append(
            "past turns: "
            + ", ".join(
                f"{p}: {a}-{b}" for p, (a, b) in zip(v["point_history"], v["bids"], strict=True)
            )
        )
    return lines


def secret(after: View, actor: int, label: str) -> bool:
    """Whether ``actor``'s move (``label``) is hidden from the seat of the view ``after`` it."""
    return bool(after["pending"][actor] == "hidden")
