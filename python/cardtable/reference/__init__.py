"""The pure-Python reference implementations, one module per game, written like the rulebook.

They follow the same state-machine API as the Rust engine and are the specification the differential
tests hold the engine to. Use them through ``cardtable.make(..., backend="reference")``.
"""

from __future__ import annotations

from typing import Any

from cardtable.errors import InvalidOptionError
from cardtable.reference._base import CHANCE, TERMINAL, ReferenceGame, ReferenceState
from cardtable.reference.deep_regrets import DeepRegretsGame
from cardtable.reference.goofspiel import GoofspielGame
from cardtable.reference.trafficars import TrafficarsGame
from cardtable.reference.trafficars_memory import TrafficarsMemoryGame
from cardtable.reference.trafficars_overtaking import TrafficarsOvertakingGame
from cardtable.reference.turn_the_tide import TurnTheTideGame

__all__ = ["CHANCE", "GAMES", "TERMINAL", "ReferenceGame", "ReferenceState", "make"]

GAMES: dict[str, type[ReferenceGame[Any]]] = {
    "deep_regrets": DeepRegretsGame,
    "goofspiel": GoofspielGame,
    "trafficars": TrafficarsGame,
    "trafficars_memory": TrafficarsMemoryGame,
    "trafficars_overtaking": TrafficarsOvertakingGame,
    "turn_the_tide": TurnTheTideGame,
}
"""Every reference game class by game id."""


def make(game_id: str, *, players: int, **options: Any) -> ReferenceGame[Any]:
    """Creates a reference game (see :func:`cardtable.make`)."""
    try:
        cls = GAMES[game_id]
    except (KeyError, TypeError):
        raise InvalidOptionError(
            f"unknown game {game_id!r}; registered games: {', '.join(GAMES)}"
        ) from None
    return cls(players=players, **options)
