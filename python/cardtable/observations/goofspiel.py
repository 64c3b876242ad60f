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
