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
