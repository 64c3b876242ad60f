"""The observation of Turn the Tide as ``TypedDict`` s.

The format is documented in ``docs/games/turn_the_tide.md``. A leaf module: it imports nothing of
cardtable.
"""

from __future__ import annotations

from typing import Literal, TypedDict

__all__ = ["TurnTheTideObservation", "TurnTheTidePhase"]

TurnTheTidePhase = Literal["deal", "tide", "play", "choose_tide", "over"]
"""What the game is waiting for (the observation's ``phase``)."""


class TurnTheTideObservation(TypedDict):
    """What one seat may know (the contract's observation, exactly these keys)."""

    seat: int
    """The observing seat."""
    phase: TurnTheTidePhase
    """``"deal"``, ``"tide"`` (a tide draw is due), ``"play"``, ``"choose_tide"`` or ``"over"``."""
    round: int
    """0-based round."""
    hand_index: int
    """0-based hand within the round."""
    hand: list[int]
    """Sorted weather cards the seat still holds ([] during the deal)."""
    lifebuoys: list[int]
    """Face-up lifebuoys per seat."""
    tide: list[int | None]
    """Showing tide value per seat; None if none or eliminated."""
    revealed_tide: list[int]
    """Tide values drawn in the current hand, in draw order."""
    eliminated: list[bool]
    """Per seat: eliminated from the current round."""
    played: list[list[int]]
    """Per seat: the weather cards revealed this round, in order."""
    committed: list[bool]
    """Per seat: has committed a card in the current hand."""
    own_commitment: int | None
    """The seat's own pending commitment, or None."""
    scores: list[int]
    """Running totals."""


OBSERVATION = TurnTheTideObservation
"""What ``state.observation(p)`` returns in this game."""
