"""Trafficars: the lanes as roads of card stacks, the hidden commitments, hands and penalties."""

from __future__ import annotations

from cardtable.protocols import StateProtocol
from cardtable.render._common import (
    View,
    data_file,
    full_state,
    game_view,
    hands_and_commitments,
    observe,
    pick,
    seat_names,
    who_won,
)
from cardtable.render._svg import CARD_H, CARD_W, INK, MUTED, Svg, flow, titled

__all__ = ["SCORE", "card_face", "card_name", "chapter", "draw", "secret", "terminal", "view"]

SCORE_TRACE = "the penalty cards each seat has taken so far (lower is better)"
"""What the score trace is (the contract's "Score trace"), in the studies' reports."""

KIND_STYLE = {
    "car": ("#fbfaf6", "#1d2731", "car"),
    "trailer": ("#f6e7c1", "#1d2731", "trailer"),
    "ambulance": ("#fde2e0", "#b3261e", "ambulance"),
    "police": ("#dbe6fb", "#1a4fa3", "police"),
    "tow_truck": ("#e9e1f3", "#5b3a8a", "tow truck"),
}
SYMBOL = {"ambulance": "+", "police": "P", "tow_truck": "T"}

SCORE = "penalty cards (fewest wins)"
"""What a score is, in the score tables of ``cardtable play`` (elsewhere: "score")."""


def card_face(card: int) -> tuple[str, str, str, str]:
    """``(label, kind name, fill, ink)`` of Trafficars card id ``card``."""
    info = {c["id"]: c for c in data_file("trafficars_cards.json")}[card]
    kind = info["kind"]
    fill, ink, name = KIND_STYLE[kind]
    label = str(info["number"]) if info["number"] is not None else SYMBOL[kind]
    return label, name, fill, ink


COMMITMENTS_TURNED_UP = True
"""Cards played face down are turned up when the hand resolves (``play`` names them then)."""


def view(state: StateProtocol, seat: int | None) -> View:
    """Seat ``seat``'s view (its observation) or the full view (``to_dict()``)."""
    # The public parts (decision, cars, resolving), which the canonical state does not hold.
    public = observe(state, 0 if seat is None else seat)
    n = len(public["penalties"])
    o = public if seat is not None else full_state(state)[0]
    hands, commitments = hands_and_commitments(o, seat, n)
    return game_view(
        state,
        "trafficars",
        seat,
        n,
        phase=o["phase"],
        decision=public["decision"],
        turn=o["turn"],
        hands=hands,
        commitments=commitments,
        lanes=o["lanes"],
        place_cars=o["place_cars"],
        cars=public["cars"],
        **pick(o, "penalties", "revealed", "queue"),
        resolving=public["resolving"],
    )


def chapter(v: View) -> str:
    """``turn 3`` (1-based)."""
    return f"turn {v['turn'] + 1}"


STACK_STEP = 22
"""How far each card of a stack lies right of the card under it: the strip left visible."""
LANE_LINE = CARD_H + 28
"""How far each line of a long lane lies below the one before it."""
DOUBLE_NOTE = "a tow truck and its load that count as 2 cars (its free place was left unfilled)"
"""What the ``x2`` badge on a place means (its tooltip, and the picture's legend)."""


def card_name(card: int) -> str:
    """A card in words, for a stacked card's tooltip.

    ``car 23``, ``trailer 10 (51)``, ``police (57)``.
    """
    label, name, _, _ = card_face(card)
    if name == "car":
        return f"car {label}"
    if name == "trailer":
        return f"trailer {label} ({card})"
    return f"{name} ({card})"


def _short(card: int) -> str:
    """The face in the strip of a card under another: ``23``, ``10t`` (trailer 10), ``+``, ``P``."""
    label, name, _, _ = card_face(card)
    return f"{label}t" if name == "trailer" else label


def _card(
    svg: Svg, x: float, y: float, card: int, *, highlight: bool = False, tooltip: str | None = None
) -> None:
    label, name, fill, ink = card_face(card)
    corner = "" if name == "car" else name
    svg.card(
        x,
        y,
        str(card),
        label,
        corner=corner,
        fill=fill,
        ink=ink,
        highlight=highlight,
        tooltip=tooltip,
    )


def _covered(svg: Svg, x: float, y: float, card: int) -> None:
    """A card with another stacked on it: its short face in the strip left visible."""
    _, _, fill, ink = card_face(card)
    svg.open(class_="card", data_card=str(card))
    svg.raw(f"<title>{card_name(card)}</title>")
    svg.rect(x, y, CARD_W, CARD_H, rx=5, fill=fill, stroke=INK, stroke_width=1)
    svg.centered(x + STACK_STEP / 2, y + 18, _short(card), size=10, weight="bold", fill=ink)
    svg.close()


def _cars(count: int) -> str:
    """``1 car``, ``3 cars``."""
    return f"{count} car" + ("" if count == 1 else "s")


def draw(v: View, names: list[str] | None = None) -> str:
    """The picture of a view."""
    seat = v["seat"]
    status = f"{chapter(v)} · {v['phase']}"
    if v["decision"]:
        status += f" · seat {v['current']} decides: {v['decision'].replace('_', ' ')}"
    status += who_won(v, names)
    svg, y = titled(v, "Trafficars", 820, status)
    doubles = False
    for k, lane in enumerate(v["lanes"]):
        # A long lane goes on in more lines of the same road (the x2 badge stays inside).
        widths = [CARD_W + STACK_STEP * (len(place) - 1) if place else CARD_W for place in lane]
        spots, lines = flow(widths, 70, svg.width - 14, 14)
        extra = (lines - 1) * LANE_LINE
        svg.rect(0, y, svg.width, CARD_H + 34 + extra, fill="#8f9691")
        svg.path(
            f"M0,{y + CARD_H + 30 + extra} L{svg.width},{y + CARD_H + 30 + extra}",
            stroke="#f2f2f2",
            stroke_dasharray="14 10",
            stroke_width=2,
        )
        svg.text(8, y + 16, f"lane {k}", size=12, weight="bold", fill="#ffffff")
        svg.text(8, y + 31, _cars(v["cars"][k]), size=10, fill="#ffffff")
        for i, (place, width, (x, line)) in enumerate(zip(lane, widths, spots, strict=True)):
            count = v["place_cars"][k][i]
            py = y + line * LANE_LINE
            if place is None:
                svg.slot(x, py + 8, label="free")
                continue
            for j, card in enumerate(place[:-1]):
                _covered(svg, x + j * STACK_STEP, py + 8, card)
            top = place[-1]
            tip = None if len(place) == 1 else card_name(top)
            _card(svg, x + width - CARD_W, py + 8, top, tooltip=tip)
            if len(place) > 1:
                svg.centered(
                    x + width / 2, py + CARD_H + 22, f"{len(place)} cards", size=9, fill="#ffffff"
                )
            if count > 1:
                doubles = True
                svg.open(class_="badge")
                svg.raw(f"<title>x{count}: {DOUBLE_NOTE}</title>")
                svg.badge(x + width - 8, py + 1, f"x{count}")
                svg.close()
        y += CARD_H + 40 + extra
    if doubles:
        svg.text(12, y + 8, f"x2 = {DOUBLE_NOTE}", size=10, fill=MUTED)
        y += 14
    y += 6
    if v["revealed"] is not None:
        svg.text(12, y + 12, "revealed this turn", size=10, fill=MUTED)
        y += 18
        for q, card in enumerate(v["revealed"]):
            x = 12 + q * (CARD_W + 40)
            _card(svg, x, y, card, highlight=q in v["queue"][:1])
            svg.centered(x + CARD_W / 2, y + CARD_H + 12, f"seat {q}", size=9)
        y += CARD_H + 22
    for q in range(v["players"]):
        top = y
        svg.seat_heading(top, q, names, seat)
        if q == v["current"]:
            svg.badge(200, top + 4, "to move")
        svg.text(12, top + 34, f"penalty cards {v['penalties'][q]}", size=11)
        commitment = v["commitments"][q]
        cx = svg.width - 60
        if commitment == "hidden":
            svg.text(cx, top + 12, "committed", size=9, fill=MUTED)
            svg.back(cx, top + 16)
        elif commitment is not None:
            svg.text(cx, top + 12, "committed", size=9, fill=MUTED)
            _card(svg, cx, top + 16, commitment, highlight=True)
        y = top + 44
        hand = v["hands"][q]
        if hand:
            # Left of the commitment's place, on as many lines as it takes.
            spots, lines = flow([CARD_W] * len(hand), 12, cx - 4, 4)
            for card, (x, line) in zip(hand, spots, strict=True):
                _card(svg, x, y + line * (CARD_H + 6), card)
            y += lines * (CARD_H + 6)
        y = max(y, top + 16 + CARD_H + 6) if commitment is not None else y
        svg.seat_divider(top, y, q == v["current"], below=4)
        y += 10
    svg.grow(y)
    return svg.render()


_WORD_STYLES = {"car": "bold", "trailer": "bold yellow"}
"""The terminal's style of a card by kind (any other kind: ``bold magenta``)."""


def _word(card: int) -> str:
    """A card in the terminal: a car's number, a trailer's ``10t``, a special card's kind."""
    name = card_face(card)[1]
    word = _short(card) if name in _WORD_STYLES else name
    style = _WORD_STYLES.get(name, "bold magenta")
    return f"[{style}]{word}[/{style}]"


def terminal(v: View, names: list[str] | None = None) -> list[str]:
    """The view for the terminal."""
    lines = [f"[bold]{chapter(v)}[/bold]"]
    for k, lane in enumerate(v["lanes"]):
        places = []
        for i, place in enumerate(lane):
            if place is None:
                places.append("[dim][ free ][/dim]")
                continue
            text = "/".join(_word(c) for c in place)
            if v["place_cars"][k][i] > 1:
                text += " (x2)"
            places.append(f"[{text}]")
        lines.append(f"lane {k} ({_cars(v['cars'][k])}): " + " ".join(places))
    if v["revealed"] is not None:
        lines.append(
            "revealed: " + ", ".join(f"seat {q} {_word(c)}" for q, c in enumerate(v["revealed"]))
        )
    for q in range(v["players"]):
        parts = [seat_names(names, q, v["seat"]), f"penalty cards {v['penalties'][q]}"]
        commitment = v["commitments"][q]
        if commitment == "hidden":
            parts.append("has committed a card")
        elif commitment is not None:
            parts.append(f"commits {_word(commitment)}")
        lines.append(" · ".join(parts))
        hand = v["hands"][q]
        if hand:
            lines.append("   hand: " + " ".join(_word(c) for c in hand))
    lines.append("[dim](12t = trailer 12)[/dim]")
    return lines


def secret(after: View, actor: int, label: str) -> bool:
    """Whether ``actor``'s move (``label``) is hidden from the seat of the view ``after`` it."""
    return bool(after["commitments"][actor] == "hidden")
