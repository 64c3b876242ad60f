"""Trafficars overtaking: the row of cars, piles and hands, the active seat and the overtaker."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardtable.protocols import StateProtocol
from cardtable.render._common import (
    View,
    full_state,
    game_view,
    observe,
    own_only,
    pick,
    seat_names,
)
from cardtable.render._svg import CARD_H, CARD_W, MUTED, flow, titled

__all__ = ["chapter", "draw", "narrate", "secret", "terminal", "view"]

SCORE_TRACE = "minus the cards each seat still holds in hand and pile"
"""What the score trace is (the contract's "Score trace"), in the studies' reports."""


def view(state: StateProtocol, seat: int | None) -> View:
    """Seat ``seat``'s view (its observation) or the full view (``to_dict()``)."""
    if seat is not None:
        o = observe(state, seat)
        n = len(o["hand_sizes"])
        hands = own_only(o["hand"], seat, n)
        hand_sizes, pile_sizes = o["hand_sizes"], o["pile_sizes"]
        piles: list[Any] = [None] * n
    else:
        o, n, _ = full_state(state)
        hands = list(o["hands"])
        piles = list(o["piles"])
        hand_sizes = [len(h) for h in hands]
        pile_sizes = [len(p) for p in piles]
    return game_view(
        state,
        "trafficars_overtaking",
        seat,
        n,
        phase=o["phase"],
        row=o["row"],
        hands=hands,
        piles=piles,
        hand_sizes=hand_sizes,
        pile_sizes=pile_sizes,
        **pick(o, "active", "overtaker", "passes", "overtake_card", "winner"),
    )


def chapter(v: View) -> str:
    """Whose turn it is (the active seat's)."""
    return f"seat {v['active']}'s turn"


def narrate(before: View, after: View, who: Callable[[int], str]) -> list[str]:
    """The overtake a step made that no move names: the overtaker's cards put into the row.

    Overtaking is compulsory by default, so it is carried out within the step of the card that
    allowed it (whose label names that card only); with ``optional_overtake`` the ``overtake``
    move names no card. The cards new in the row lie on one side of it: the played card is the
    outermost of them, and the others are the overtaker's.
    """
    old, new = set(before["row"]), sorted(set(after["row"]) - set(before["row"]))
    if before["phase"] == "play" and len(new) > 1:
        played = new[-1] if old and new[-1] > max(old) else new[0]
        new.remove(played)
    elif before["phase"] != "overtake" or not new:
        return []
    cards = ", ".join(map(str, new))
    return [f"{who(before['overtaker'])} overtook: {cards} into the row"]


ROW_LINE = CARD_H + 8
"""How far each line of a long row lies below the one before it."""


def draw(v: View, names: list[str] | None = None) -> str:
    """The picture of a view."""
    seat = v["seat"]
    status = f"{v['phase']} · active seat {v['active']} · overtaker seat {v['overtaker']}"
    status += f" · passes {v['passes']}"
    if v["winner"] is not None:
        status += f" · seat {v['winner']} wins"
    svg, y = titled(v, "Trafficars overtaking", 820, status)
    # The row wraps onto more lines left of the overtaking card's place (kept free).
    ox = svg.width - CARD_W - 20
    spots, lines = flow([CARD_W] * len(v["row"]), 70, ox - 6, 6)
    extra = (lines - 1) * ROW_LINE
    svg.rect(0, y, svg.width, CARD_H + 24 + extra, fill="#8f9691")
    svg.text(8, y + 14, "the row", size=11, weight="bold", fill="#ffffff")
    for card, (x, line) in zip(v["row"], spots, strict=True):
        svg.card(x, y + 12 + line * ROW_LINE, str(card), str(card))
    if v["overtake_card"] is not None:
        svg.text(ox - 4, y + 9, "overtaking with", size=9, anchor="end", fill="#ffffff")
        svg.card(ox, y + 12, str(v["overtake_card"]), str(v["overtake_card"]), highlight=True)
    y += CARD_H + 36 + extra
    for q in range(v["players"]):
        top = y
        svg.seat_heading(top, q, names, seat)
        x = 220.0
        for tag, on in (
            ("active", v["active"] == q),
            ("overtaker", v["overtaker"] == q),
            ("to move", v["current"] == q),
            ("winner", v["winner"] == q),
        ):
            if on:
                x += svg.badge(x, top + 4, tag) + 6
        svg.text(
            12, top + 34, f"{v['hand_sizes'][q]} in hand · {v['pile_sizes'][q]} in pile", size=11
        )
        y = top + 44
        pile = v["piles"][q]
        if v["pile_sizes"][q]:
            svg.text(svg.width - 70, top + 12, "pile", size=9, fill=MUTED)
            if pile is not None:
                svg.card(svg.width - 70, top + 16, str(pile[0]), str(pile[0]), corner="top")
            else:
                svg.back(svg.width - 70, top + 16, note=f"{v['pile_sizes'][q]} cards")
            y = max(y, top + 16 + CARD_H + 14)
        hand = v["hands"][q]
        if hand:
            for i, card in enumerate(hand):
                svg.card(12 + i * (CARD_W + 4), top + 44, str(card), str(card))
            y = max(y, top + 44 + CARD_H + 6)
        elif v["hand_sizes"][q] and hand is None:
            for i in range(v["hand_sizes"][q]):
                svg.back(12 + i * 12, top + 44, w=30, h=42)
            y = max(y, top + 44 + 48)
        svg.seat_divider(top, y, q == v["current"], below=4)
        y += 10
    svg.grow(y)
    return svg.render()


def terminal(v: View, names: list[str] | None = None) -> list[str]:
    """The view for the terminal."""
    lines = ["row: " + " ".join(f"[bold]{c}[/bold]" for c in v["row"])]
    if v["overtake_card"] is not None:
        lines.append(f"overtaking with [bold]{v['overtake_card']}[/bold]")
    for q in range(v["players"]):
        parts = [
            seat_names(names, q, v["seat"]),
            f"{v['hand_sizes'][q]} in hand",
            f"{v['pile_sizes'][q]} in pile",
        ]
        parts += [
            tag
            for tag, on in (("active", v["active"] == q), ("overtaker", v["overtaker"] == q))
            if on
        ]
        lines.append(" · ".join(parts))
        hand = v["hands"][q]
        if hand:
            lines.append("   hand: " + " ".join(f"[bold]{c}[/bold]" for c in hand))
    return lines


def secret(after: View, actor: int, label: str) -> bool:
    """Whether ``actor``'s move is hidden from the view's seat: never, every move is public."""
    return False
