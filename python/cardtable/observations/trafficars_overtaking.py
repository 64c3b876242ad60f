"""The observation of the Trafficars overtaking lane as ``TypedDict`` s.

The format is documented in ``docs/games/trafficars_overtaking.md``.
A leaf module: it imports nothing of cardtable.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypedDict

__all__ = ["TrafficarsOvertakingObservation", "TrafficarsOvertakingPhase"]

TrafficarsOvertakingPhase = Literal["deal", "play", "overtake", "start", "over"]
"""What the game is waiting for (the observation's ``phase``)."""


class TrafficarsOvertakingObservation(TypedDict):
    """What one seat may know (the contract's observation, exactly these keys)."""

    seat: int
    """The observing seat."""
    phase: TrafficarsOvertakingPhase
    """``"deal"``, ``"play"``, ``"overtake"``, ``"start"`` or ``"over"``."""
    row: list[int]
    """The middle row, card ids left to right."""
    hand: list[int]
    """The seat's hand, sorted."""
    pile_sizes: list[int]
    """Per seat: cards in the pile."""
    hand_sizes: list[int]
    """Per seat: cards in hand."""
    active: int
    """The active seat."""
    overtaker: int
    """The overtaker seat."""
    passes: int
    """Passes since the last card was placed."""
    overtake_card: int | None
    """The card just played while an overtake decision is pending, else None."""
    winner: int | None
    """The winning seat, or None."""


OBSERVATION = TrafficarsOvertakingObservation
"""What ``state.observation(p)`` returns in this game."""

_C = "Trafficars — overtaking lane contract §"
_PROC = f"{_C} Procedures"
_PLAY = f"{_C} Flow, Phase `play`"
_OVERTAKE = f"{_C} Flow, Phase `overtake`"
_END = f"{_C} Flow, End"

_KEYS: dict[str, str] = {
    "seat": f"{_C} Observation of seat p",
    "row": f"{_PLAY} (play X at an end, the overtake, all pass: the row leaves the game); "
    f"{_PROC} (start a row)",
    "hand": f"{_PROC} (refill); {_PLAY} (play X, the overtake)",
    "hand_sizes": f"{_PROC} (refill); {_PLAY} (play X, the overtake)",
    "pile_sizes": f"{_C} Flow, Deal (the piles); {_PROC} (refill, start a row)",
    "active": f"{_PROC} (change active, continue); {_PLAY} (pass, the overtake)",
    "overtaker": f"{_PROC} (change active to s: overtaker = (s + 1) mod n)",
    "passes": f"{_PLAY} (pass 53: passes += 1, all pass: the row leaves the game)",
    "overtake_card": f"{_PLAY} (optional_overtake: overtake_card = X); {_OVERTAKE}",
    "winner": f"{_PROC} (win check); {_END}",
    "is_terminal": f"{_PROC} (win check); {_END}",
    "scores": f"{_END} (score = -(hand size + pile size)); {_C} Decisions, 10 (scores)",
    "winners": f"{_END} (winners = [winner]); {_PROC} (win check)",
}

_PHASES: dict[str, str] = {  # for keys with no entry (legal_actions, ...): by the phase
    "deal": f"{_C} Flow, Deal (removed cards, then the piles)",
    "play": f"{_PLAY} (the fitting hand cards, else pass 53); {_C} Zones (a card fits); "
    f"{_PROC} (change active, continue)",
    "overtake": f"{_OVERTAKE} (51 overtake, 52 let go)",
    "start": f"{_C} Flow, Phase `start` (start the row with a hand card); {_PROC} (start a row)",
    "over": _END,
}

_ACTIONS = f"{_C} Actions and labels"


def contract_section(key: str, observation: Mapping[str, Any]) -> str | None:
    """The section of this game's contract that a divergence at ``key`` concerns.

    Args:
        key: A key of the observation that differs (e.g. ``"hand"``), or a field of the
            answer: ``legal_actions`` (also for a move the implementation refused),
            ``current_player``, ``is_terminal``, ``chance_outcomes``, ``scores`` or ``winners``.
        observation: Seat 0's observation in our state where the answers differ (for a refused
            move, the state before it); may be empty.

    Returns:
        ``"<Title> contract § <section>"`` (several joined with ``"; "`` where two sections
        are concerned), or None where nothing finer than the whole contract is known.
    """
    if key in _KEYS:
        return _KEYS[key]
    return _PHASES.get(str(observation.get("phase")), _ACTIONS)
