"""What the adapters share: the terminal rewards of ``docs/learning.md`` and seeds."""

from __future__ import annotations

from cardtable._inputs import MAX_SEED, check_int
from cardtable.protocols import StateProtocol

__all__ = ["check_seed", "win_rewards"]


def win_rewards(state: StateProtocol, players: int) -> list[float]:
    """Every seat's ``"win"`` reward: +1 for the only winner, 0 for a shared win, -1 otherwise.

    All 0 before the end of the game.
    """
    if not state.is_terminal:
        return [0.0] * players
    winners = state.winners
    sole = len(winners) == 1
    return [(1.0 if sole else 0.0) if seat in winners else -1.0 for seat in range(players)]


def check_seed(seed: object) -> int | None:
    """A ``reset`` seed: ``None``, or an int in ``0..2**64 - 1`` (NumPy integers too) as an int.

    Raises:
        InvalidOptionError: On anything else (a bool, a float, a str, a negative or larger int).
    """
    return None if seed is None else check_int("seed", seed, 0, MAX_SEED)
