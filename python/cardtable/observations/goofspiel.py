"""The observation of goofspiel as ``TypedDict`` s.

The format is documented in ``docs/games/goofspiel.md``. A leaf module: it imports nothing of
cardtable.
"""

from __future__ import annotations

from typing import TypedDict

__all__ = ["GoofspielObservation"]


class GoofspielObservation(TypedDict):
    """What one seat knows in goofspiel."""

    seat: int
    turn: int
    point_card: int | None
    remaining_points: list[int]
    hands: list[list[int]]
    points: list[int]
    bids: list[list[int]]
    point_history: list[int]
    committed: list[bool]
    own_bid: int | None


OBSERVATION = GoofspielObservation
"""What ``state.observation(p)`` returns in this game."""

TENSOR_BOUNDS = (0.0, 1.0)
"""Bounds of every entry of the observation tensor, which the contract guarantees: one-hots,
multi-hots, booleans, ``turn / N`` (at most N turns) and ``points / (N(N+1)/2)`` (all points)."""

_CONTRACT = "Goofspiel contract"
_RULES = f"{_CONTRACT} § Rules"
_CHANCE = f"{_CONTRACT} § Flow and ids (chance at the start of every turn)"
_LAST_TURN = f"{_CONTRACT} § Flow and ids (the last turn is played at once)"
_OBSERVATION = f"{_CONTRACT} § Observation of seat p"

KEY_SECTIONS: dict[str, str] = {
    "scores": f"{_RULES} (the higher bid wins the point card, equal bids nobody)",
    "points": f"{_RULES} (the higher bid wins the point card, equal bids nobody)",
    "winners": f"{_RULES} (more points wins; equal points: both win)",
    "turn": _LAST_TURN,
    "is_terminal": _LAST_TURN,
    "point_card": _CHANCE,
    "remaining_points": _CHANCE,
    "seat": _OBSERVATION,
    "hands": _OBSERVATION,
    "bids": _OBSERVATION,
    "point_history": _OBSERVATION,
    "committed": _OBSERVATION,
    "own_bid": _OBSERVATION,
}

# Who moves and what is legal: the chance draw while the turn's point card is not drawn, else the
# bids.
STATE_SECTIONS: tuple[tuple[str, dict[str, str]], ...] = (("point_card", {"None": _CHANCE}),)
OTHER_SECTION: str | None = f"{_CONTRACT} § Flow and ids (bids: the player's remaining cards)"
