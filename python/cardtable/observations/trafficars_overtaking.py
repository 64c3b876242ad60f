"""The observation of the Trafficars overtaking lane as ``TypedDict`` s.

The format is documented in ``docs/games/trafficars_overtaking.md``.
A leaf module: it imports nothing of cardtable.
"""

from __future__ import annotations

from typing import Literal, TypedDict

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

KEY_SECTIONS: dict[str, str] = {
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

STATE_SECTIONS: tuple[tuple[str, dict[str, str]], ...] = (("phase", _PHASES),)
OTHER_SECTION: str | None = _ACTIONS
