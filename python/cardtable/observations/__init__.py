"""The observation of every game as a ``TypedDict`` (what ``state.observation(p)`` returns).

Both backends return plain dicts of exactly these shapes; annotate with them to get type checking of
observation handling code::

    from typing import cast
    from cardtable.observations import TurnTheTideObservation

    obs = cast(TurnTheTideObservation, state.observation(0))
    obs["hand"]  # list[int]

The formats are documented per game in ``docs/games/<game_id>.md``.

Each game's types live in its own module ``cardtable.observations.<game_id>``, which lists them
in its ``__all__`` and names its observation type ``OBSERVATION``. This package imports every
public name of each game module (one ``import *`` line per game, so that type checkers and the
API reference see them here) and builds :data:`OBSERVATION_TYPES` from the modules by their names.

This package is a leaf: it imports nothing of cardtable outside itself, so the reference
implementations import their observation types from here (never the other way round).
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import is_typeddict

from cardtable.observations.deep_regrets import *  # noqa: F403
from cardtable.observations.goofspiel import *  # noqa: F403
from cardtable.observations.trafficars import *  # noqa: F403
from cardtable.observations.trafficars_memory import *  # noqa: F403
from cardtable.observations.trafficars_overtaking import *  # noqa: F403
from cardtable.observations.turn_the_tide import *  # noqa: F403


def _observation_types() -> dict[str, type]:
    """The ``OBSERVATION`` of every game module of this package, by game id (its name)."""
    types: dict[str, type] = {}
    for module in pkgutil.iter_modules(__path__):  # noqa: F405 (the package's own)
        if module.name.startswith("_"):
            continue
        game = importlib.import_module(f"{__name__}.{module.name}")
        observation = getattr(game, "OBSERVATION", None)
        if not (isinstance(observation, type) and is_typeddict(observation)):
            raise TypeError(f"{game.__name__} must name its observation TypedDict OBSERVATION")
        types[module.name] = observation
    return dict(sorted(types.items()))


OBSERVATION_TYPES: dict[str, type] = _observation_types()
"""The observation type of each game id (the ``OBSERVATION`` of each game module)."""
