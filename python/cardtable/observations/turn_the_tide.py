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
_RULES = "rules/turn_the_tide.md"

KEY_SECTIONS: dict[str, str] = {
    "lifebuoys": f"{_CONTRACT} § Flow, step 4 (losing lifebuoys); {_RULES} § One hand, steps 4-7",
    "eliminated": f"{_CONTRACT} § Flow, step 4 (elimination); {_RULES} § One hand, steps 4-7",
    "tide": f"{_CONTRACT} § Flow, steps 3-4 (taking tide cards, elimination); "
    f"{_RULES} § One hand, steps 3-5",
    "revealed_tide": f"{_CONTRACT} § Flow, step 3 (tide draws); {_RULES} § Engine model",
    "played": f"{_CONTRACT} § Flow, step 3 (reveal); {_RULES} § One hand, step 3",
    "committed": f"{_CONTRACT} § Flow, step 3 (commitments); {_RULES} § One hand, step 2",
    "own_commitment": f"{_CONTRACT} § Flow, step 3 (commitments); {_RULES} § One hand, step 2",
    "scores": f"{_CONTRACT} § Flow, step 5 (round scoring); {_RULES} § Scoring",
    "winners": f"{_RULES} § Scoring (the highest total wins, ties share the win)",
    "hand": f"{_CONTRACT} § Flow, step 2 (hands rotate); {_RULES} § Game structure",
    "round": f"{_CONTRACT} § Flow, steps 5-6 (end of a round); {_RULES} § One hand, steps 6 and 8",
    "hand_index": f"{_CONTRACT} § Flow, step 5 (after the hand); {_RULES} § One hand, step 8",
    "is_terminal": f"{_CONTRACT} § Flow, step 6 (end of the game); {_RULES} § Game structure",
}

_PHASE_SECTIONS: dict[str, str] = {
    "deal": f"{_CONTRACT} § Flow, step 1 (the deal); {_RULES} § Engine model",
    "tide": f"{_CONTRACT} § Flow, step 3 (tide draws); {_RULES} § Engine model",
    "play": f"{_CONTRACT} § Flow, step 3 (commitments); {_RULES} § One hand, step 2",
    "choose_tide": f"{_CONTRACT} § Flow, step 3 (highest_chooses_tide); {_RULES} § Options",
    "over": f"{_CONTRACT} § Flow, step 6 (end of the game)",
}

STATE_SECTIONS: tuple[tuple[str, dict[str, str]], ...] = (("phase", _PHASE_SECTIONS),)
OTHER_SECTION: str | None = None
