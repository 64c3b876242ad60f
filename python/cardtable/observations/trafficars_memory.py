"""The observation of the Trafficars memory game as ``TypedDict`` s.

The format is documented in ``docs/games/trafficars_memory.md``.
A leaf module: it imports nothing of cardtable.
"""

from __future__ import annotations

from typing import Literal, TypedDict

__all__ = ["TrafficarsMemoryObservation", "TrafficarsMemoryPhase"]

TrafficarsMemoryPhase = Literal["layout", "flip", "over"]
"""What the game is waiting for (the observation's ``phase``)."""


class TrafficarsMemoryObservation(TypedDict):
    """What one seat may know (the contract's observation, exactly these keys)."""

    seat: int
    """The observing seat."""
    phase: TrafficarsMemoryPhase
    """``"layout"``, ``"flip"`` or ``"over"``."""
    current: int | None
    """The seat to flip; None during the layout and at the end."""
    faces: list[int | None]
    """Per position: the card id if it is face up now (flipped this turn), else None."""
    seen: list[int | None]
    """Per position: the card id if it is still on the table and was ever flipped, else None."""
    on_table: list[bool]
    """Per position: whether a card lies there."""
    taken: list[int]
    """Per seat: the number of cards taken."""
    flipped: list[int]
    """This turn's face-up positions in flip order."""
    idle_turns: int
    """Turns in a row, the current one included while it has shown no new card, that took no
    card and turned up no card unseen before; ``N(N - 1)/2`` of them end the game (N cards laid
    out)."""


OBSERVATION = TrafficarsMemoryObservation
"""What ``state.observation(p)`` returns in this game."""
