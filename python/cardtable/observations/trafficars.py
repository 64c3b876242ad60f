"""The observation of Trafficars (the traffic jam) as ``TypedDict`` s.

The format is documented in ``docs/games/trafficars.md``. A leaf module: it imports nothing of
cardtable.
"""

from __future__ import annotations

from typing import Literal, TypedDict

__all__ = ["TrafficarsDecision", "TrafficarsObservation", "TrafficarsPhase"]

TrafficarsPhase = Literal["deal", "commit", "resolve", "over"]
"""What the game is waiting for (the observation's ``phase``)."""

TrafficarsDecision = Literal[
    "commit", "ambulance", "police", "police_take", "tow_truck", "target", "take", "insert"
]
"""The kind of a pending decision (the observation's ``decision``)."""


class TrafficarsObservation(TypedDict):
    """What one seat may know (the contract's observation, exactly these keys)."""

    seat: int
    """The observing seat."""
    phase: TrafficarsPhase
    """``"deal"``, ``"commit"``, ``"resolve"`` or ``"over"``."""
    decision: TrafficarsDecision | None
    """The kind of the pending decision; None at chance nodes and at the end."""
    turn: int
    """0-based turn (= turns completed)."""
    hand: list[int]
    """Sorted card ids the seat holds, without its pending commitment."""
    lanes: list[list[list[int] | None]]
    """Per lane, its places front to end: card ids bottom to top, or None for the free place."""
    place_cars: list[list[int]]
    """Per lane, per place, the place's car count."""
    cars: list[int]
    """Per lane, the cars in it."""
    penalties: list[int]
    """Per seat, the number of penalty cards taken."""
    committed: list[bool]
    """Per seat, whether it holds a pending (hidden) commitment."""
    own_commitment: int | None
    """The seat's own pending commitment, or None."""
    revealed: list[int] | None
    """This turn's cards per seat once revealed, else None."""
    last_revealed: list[int] | None
    """The cards per seat revealed in the last turn that has ended; None while none has ended."""
    resolving: int | None
    """The card being resolved, else None."""
    queue: list[int]
    """The seats whose revealed cards are not yet resolved, in resolution order."""


OBSERVATION = TrafficarsObservation
"""What ``state.observation(p)`` returns in this game."""
