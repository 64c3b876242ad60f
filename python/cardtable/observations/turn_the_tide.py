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


_CONTRACT = "Turn the Tide contract"

KEY_SECTIONS: dict[str, str] = {
    "lifebuoys": f"{_CONTRACT} § Flow, step 4 (losing lifebuoys)",
    "eliminated": f"{_CONTRACT} § Flow, step 4 (elimination)",
    "tide": f"{_CONTRACT} § Flow, steps 3-4 (taking tide cards, elimination)",
    "revealed_tide": f"{_CONTRACT} § Flow, step 3 (tide draws)",
    "played": f"{_CONTRACT} § Flow, step 3 (reveal)",
    "committed": f"{_CONTRACT} § Flow, step 3 (commitments)",
    "own_commitment": f"{_CONTRACT} § Flow, step 3 (commitments)",
    "scores": f"{_CONTRACT} § Flow, step 5 (round scoring)",
    "winners": f"{_CONTRACT} § Flow, step 7 (the highest total wins; Decisions, 13: ties share)",
    "hand": f"{_CONTRACT} § Flow, step 2 (hands rotate)",
    "round": f"{_CONTRACT} § Flow, steps 5-6 (end of a round)",
    "hand_index": f"{_CONTRACT} § Flow, step 5 (after the hand)",
    "is_terminal": f"{_CONTRACT} § Flow, step 6 (end of the game)",
}

_PHASE_SECTIONS: dict[str, str] = {
    "deal": f"{_CONTRACT} § Flow, step 1 (the deal)",
    "tide": f"{_CONTRACT} § Flow, step 3 (tide draws)",
    "play": f"{_CONTRACT} § Flow, step 3 (commitments)",
    "choose_tide": f"{_CONTRACT} § Flow, step 3 (highest_chooses_tide)",
    "over": f"{_CONTRACT} § Flow, step 6 (end of the game)",
}

STATE_SECTIONS: tuple[tuple[str, dict[str, str]], ...] = (("phase", _PHASE_SECTIONS),)
OTHER_SECTION: str | None = None
