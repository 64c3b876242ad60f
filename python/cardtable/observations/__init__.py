"""The observation of every game as a ``TypedDict`` (what ``state.observation(p)`` returns).

Both backends return plain dicts of exactly these shapes; annotate with them to get type checking of
observation handling code::

    from typing import cast
    from cardtable.observations import TurnTheTideObservation

    obs = cast(TurnTheTideObservation, state.observation(0))
    obs["hand"]  # list[int]

The formats are documented per game in ``docs/games/<game_id>.md``.

Each game's types live in its own module ``cardtable.observations.<game_id>``, which names its
observation type ``OBSERVATION``; :data:`OBSERVATION_TYPES` is built from those modules, so a new
game adds its module and nothing here. The games' observation types are also importable from this
package, as above.

This package is a leaf: it imports nothing of cardtable outside itself, so the reference
implementations import their observation types from here (never the other way round).
"""

from __future__ import annotations

import importlib
import pkgutil

from cardtable.observations.deep_regrets import DeepRegretsClock, DeepRegretsObservation
from cardtable.observations.goofspiel import GoofspielObservation
from cardtable.observations.trafficars import TrafficarsObservation
from cardtable.observations.trafficars_memory import TrafficarsMemoryObservation
from cardtable.observations.trafficars_overtaking import TrafficarsOvertakingObservation
from cardtable.observations.turn_the_tide import TurnTheTideObservation

__all__ = [
    "OBSERVATION_TYPES",
    "DeepRegretsClock",
    "DeepRegretsObservation",
    "GoofspielObservation",
    "TrafficarsMemoryObservation",
    "TrafficarsObservation",
    "TrafficarsOvertakingObservation",
    "TurnTheTideObservation",
]


def _observation_types() -> dict[str, type]:
    """The ``OBSERVATION`` of every game module of this package, by game id (its name)."""
    types: dict[str, type] = {}
    for module in pkgutil.iter_modules(__path__):
        game = importlib.import_module(f"{__name__}.{module.name}")
        observation = getattr(game, "OBSERVATION", None)
        if not isinstance(observation, type):
            raise TypeError(f"{game.__name__} must name its observation TypedDict OBSERVATION")
        types[module.name] = observation
    return dict(sorted(types.items()))


OBSERVATION_TYPES: dict[str, type] = _observation_types()
"""The observation type of each game id."""
