"""The observation of goofspiel as ``TypedDict`` s.

The format is documented in ``docs/games/goofspiel.md``. A leaf module: it imports nothing of
cardtable.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict

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

_KEY_SECTIONS: dict[str, str] = {
    "scores": f"{_RULES} (the higher bid wins the point card, equal bids nobody)",
    "points": f"{_RULES} (the higher bid wins the point card, equal bids nobody)",
    "winners": f"{_RULES} (more points wins; equal points: both win)",
    "turn": _LAST_TURN,
    "is_terminal": _LAST_TURN,
    "point_card": _CHANCE,
    "remaining_points": _CHANCE,
}


def contract_section(key: str, observation: Mapping[str, Any]) -> str:
    """The section of this game's contract that a divergence at ``key`` concerns.

    Args:
        key: A key of the observation that differs (e.g. ``"hands"``), or a field of the
            answer: ``legal_actions`` (also for a move the implementation refused),
            ``current_player``, ``is_terminal``, ``chance_outcomes``, ``scores`` or ``winners``.
        observation: Seat 0's observation in our state where the answers differ (for a refused
            move, the state before it); may be empty.

    Returns:
        The section of the key; for who moves and what is legal, the chance draw or the bids by
        whether the turn's point card is drawn; for any other observation key, the observation.
    """
    if key in _KEY_SECTIONS:
        return _KEY_SECTIONS[key]
    if key in ("legal_actions", "chance_outcomes", "current_player"):
        if observation.get("point_card") is None:
            return _CHANCE
        return f"{_CONTRACT} § Flow and ids (bids: the player's remaining cards)"
    return f"{_CONTRACT} § Observation of seat p"
