"""Turn the Tide: weather cards with their lifebuoy halves, tide cards, lifebuoys per seat."""

from __future__ import annotations

from cardtable.protocols import StateProtocol
from cardtable.render._common import (
    View,
    full_state,
    hands_and_commitments,
    observe,
    pending_move,
    pick,
    who_won,
)
from cardtable.render._svg import ACCENT, CARD_H, CARD_W, MUTED, Svg, titled

__all__ = ["chapter", "draw", "secret", "terminal", "view"]

SCORE_TRACE = "the running score totals (they change at the end of each round)"
"""What the score trace is (the contract's "Score trace"), in the studies' reports."""

TIDE_FILL = "#cfe3f5"


def halves(card: int) -> int:
    """Lifebuoy halves printed on weather card ``card``."""
    return int(13 <= card <= 48) + int(25 <= card <= 36)


COMMITMENTS_TURNED_UP = True
"""Cards played face down are turned up when the hand resolves (``play`` names them then)."""


def view(state: StateProtocol, seat: int | None) -> View:
    """Seat ``seat``'s view (its observation) or the full view (``to_dict()``)."""
    if seat is not None:
        o = observe(state, seat)
        n = len(o["lifebuoys"])
        rounds = None
    else:
        o, n, d = full_state(state)
        rounds = d["options"]["rounds"]
    hands, commitments = hands_and_commitments(o, seat, n)
    phase = o.get("phase", _phase(state))
    if seat is None and phase == "deal" and not any(hands) and any(o["dealt"]):
        # Mid-deal the hands are still empty: the cards dealt so far. (After the last hand of
        # a game every hand is empty too, and `dealt` is an old deal no seat holds.)
        hands = [sorted(x) for x in o["dealt"]]
    return {
        "game": "turn_the_tide",
        "seat": seat,
        "players": n,
        "phase": phase,
        "round": o["round"],
        "rounds": rounds,
        "hand_index": o["hand_index"],
        "hands": hands,
        "commitments": commitments,
        **pick(o, "lifebuoys", "tide", "revealed_tide", "eliminated", "played", "scores"),
        "current": state.current_player,
        "winners": list(state.winners) if state.is_terminal else [],
    }


def _phase(state: StateProtocol) -> str:
    """The phase of the full view (the canonical state has no phase key)."""
    return str(observe(state, 0)["phase"])


def chapter(v: View) -> str:
    """``round 1, hand 3`` (1-based): the hand being played, or at the end the last one played.

    At the end of the game ``hand_index`` counts the hands played in the last round (a round
    ended early by eliminations has fewer than 12), so that count is its last hand.
    """
    hand = v["hand_index"] if v["phase"] == "over" else v["hand_index"] + 1
    return f"round {v['round'] + 1}, hand {hand}"


def _weather(svg: Svg, x: float, y: float, card: int, *, small: bool = False) -> None:
    w, h = (28, 42) if small else (CARD_W, CARD_H)
    buoys = "◐" * halves(card)
    svg.card(x, y, str(card), str(card), note=buoys, w=w, h=h, tooltip=f"weather {card}")


def _tide_card(svg: Svg, x: float, y: float, value: int, tag: str) -> None:
    svg.card(x, y, f"tide-{tag}-{value}", str(value), corner="tide", fill=TIDE_FILL, w=34, h=46)


def draw(v: View, names: list[str] | None = None) -> str:
    """The picture of a view."""
    seat = v["seat"]
    status = f"{chapter(v)} · {v['phase'].replace('_', ' ')}"
    if v["current"] >= 0:
        status += f" · seat {v['current']} to move"
    status += who_won(v, names)
    svg, y = titled(v, "Turn the Tide", 780, status)
    svg.text(12, y + 12, "tide cards this hand", size=11, fill=MUTED)
    for i, value in enumerate(v["revealed_tide"]):
        _tide_card(svg, 150 + i * 42, y, value, "AB"[i])
    if not v["revealed_tide"]:
        svg.slot(150, y, w=34, h=46, label="A")
        svg.slot(192, y, w=34, h=46, label="B")
    y += 58
    for q in range(v["players"]):
        top = y
        mover = q == v["current"]
        svg.seat_heading(top, q, names, seat)
        if mover:
            svg.badge(220, top + 4, "to move")
        svg.text(12, top + 34, f"score {v['scores'][q]}", size=11)
        x = 90
        for b in range(v["lifebuoys"][q]):
            svg.circle(x + b * 13, top + 30, 5, fill="none", stroke="#d9453b", stroke_width=3)
        if v["eliminated"][q]:
            svg.text(12, top + 50, "eliminated", size=11, weight="bold", fill="#b3261e")
        tide = v["tide"][q]
        if tide is not None:
            svg.text(300, top + 12, "tide", size=9, fill=MUTED)
            _tide_card(svg, 300, top + 16, tide, f"seat{q}")
        svg.text(350, top + 12, "played this round", size=9, fill=MUTED)
        for i, card in enumerate(v["played"][q]):
            _weather(svg, 350 + i * 30, top + 16, card, small=True)
        commitment = v["commitments"][q]
        cx = svg.width - 60
        svg.text(cx, top + 12, "this hand", size=9, fill=MUTED)
        if commitment == "hidden":
            svg.back(cx, top + 16, w=30, h=42)
        elif commitment is not None:
            svg.card(cx, top + 16, str(commitment), str(commitment), w=30, h=42, highlight=True)
        y = top + 64
        hand = v["hands"][q]
        if hand:
            svg.text(12, y + 10, "hand", size=9, fill=MUTED)
            for i, card in enumerate(hand):
                _weather(svg, 50 + i * (CARD_W + 4), y, card)
            y += CARD_H + 8
        svg.path(f"M6,{y} L{svg.width - 6},{y}", stroke="#c9cfc9")
        if mover:
            svg.rect(2, top - 2, 4, y - top, fill=ACCENT)
        y += 8
    svg.grow(y)
    return svg.render()


def terminal(v: View, names: list[str] | None = None) -> list[str]:
    """The view for the terminal."""
    from cardtable.render._common import seat_names

    lines = [
        f"[bold]{chapter(v)}[/bold] · tide cards: "
        + (
            " ".join(f"[blue]{t}[/blue]" for t in v["revealed_tide"])
            or ("none" if v["phase"] == "over" else "none yet")
        )
    ]
    for q in range(v["players"]):
        tide = v["tide"][q]
        parts = [
            seat_names(names, q, v["seat"]),
            f"score {v['scores'][q]}",
            "lifebuoys " + ("[red]o[/red]" * v["lifebuoys"][q] or "none"),
            f"tide [blue]{tide}[/blue]" if tide is not None else "no tide",
        ]
        if v["eliminated"][q]:
            parts.append("[bold red]eliminated[/bold red]")
        played = " ".join(str(c) for c in v["played"][q])
        if played:
            parts.append(f"played {played}")
        parts += pending_move(v["commitments"][q], "has played a card", "plays [bold]{}[/bold]")
        lines.append(" · ".join(parts))
        hand = v["hands"][q]
        if hand:
            lines.append("   hand: " + " ".join(f"[bold]{c}[/bold]{'*' * halves(c)}" for c in hand))
    lines.append("[dim](* = half a lifebuoy)[/dim]")
    return lines


def secret(after: View, actor: int, label: str) -> bool:
    """Whether ``actor``'s move (``label``) is hidden from the seat of the view ``after`` it."""
    return bool(after["commitments"][actor] == "hidden")
