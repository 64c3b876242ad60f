"""The observation of every game as a ``TypedDict`` (what ``state.observation(p)`` returns).

Both backends return plain dicts of exactly these shapes; annotate with them to get type checking of
observation handling code::

    from typing import cast
    from cardtable.observations import TurnTheTideObservation

    obs = cast(TurnTheTideObservation, state.observation(0))
    obs["hand"]  # list[int]

The formats are documented per game in ``docs/games/<game_id>.md``.
"""

from __future__ import annotations

from cardtable.reference.deep_regrets import DeepRegretsObservation
from cardtable.reference.goofspiel import GoofspielObservation
from cardtable.reference.trafficars import TrafficarsObservation
from cardtable.reference.trafficars_memory import TrafficarsMemoryObservation
from cardtable.reference.trafficars_overtaking import TrafficarsOvertakingObservation
from cardtable.reference.turn_the_tide import TurnTheTideObservation

__all__ = [
    "OBSERVATION_TYPES",
    "DeepRegretsObservation",
    "GoofspielObservation",
    "TrafficarsMemoryObservation",
    "TrafficarsObservation",
    "TrafficarsOvertakingObservation",
    "TurnTheTideObservation",
]

OBSERVATION_TYPES: dict[str, type] = {
    "deep_regrets": DeepRegretsObservation,
    "goofspiel": GoofspielObservation,
    "trafficars": TrafficarsObservation,
    "trafficars_memory": TrafficarsMemoryObservation,
    "trafficars_overtaking": TrafficarsOvertakingObservation,
    "turn_the_tide": TurnTheTideObservation,
}
"""The observation type of each game id."""
