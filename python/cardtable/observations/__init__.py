"""The observation of every game as a ``TypedDict`` (what ``state.observation(p)`` returns).

Both backends return plain dicts of exactly these shapes; annotate with them to get type checking of
observation handling code::

    from typing import cast
    from cardtable.observations import TurnTheTideObservation

    obs = cast(TurnTheTideObservation, state.observation(0))
    obs["hand"]  # list[int]

The formats are documented per game in ``docs/games/<game_id>.md``.

Each game's types live in its own module ``cardtable.observations.<game_id>``, which lists them
in its ``__all__`` and names its observation type ``OBSERVATION``; a game whose contract bounds
every entry of its observation tensor says so in ``TENSOR_BOUNDS = (low, high)``; and each names
the sections of its contract that decide each observation key or answer field, for the
conformance reports (see :class:`ContractSections`). This package imports every public name of
each game module (one ``import *`` line per game, so that type checkers and the API reference
see them here) and builds :data:`OBSERVATION_TYPES`, :data:`TENSOR_BOUNDS` and
:data:`CONTRACT_SECTIONS` from the modules by their names.

This package is a leaf: it imports nothing of cardtable outside itself, so the reference
implementations import their observation types from here (never the other way round).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any, is_typeddict

from cardtable.observations import deep_regrets as _deep_regrets
from cardtable.observations import goofspiel as _goofspiel
from cardtable.observations import trafficars as _trafficars
from cardtable.observations import trafficars_memory as _trafficars_memory
from cardtable.observations import trafficars_overtaking as _trafficars_overtaking
from cardtable.observations import turn_the_tide as _turn_the_tide
from cardtable.observations.deep_regrets import *  # noqa: F403
from cardtable.observations.goofspiel import *  # noqa: F403
from cardtable.observations.trafficars import *  # noqa: F403
from cardtable.observations.trafficars_memory import *  # noqa: F403
from cardtable.observations.trafficars_overtaking import *  # noqa: F403
from cardtable.observations.turn_the_tide import *  # noqa: F403

__all__ = ["CONTRACT_SECTIONS", "OBSERVATION_TYPES", "TENSOR_BOUNDS", "ContractSections"]
__all__ += _deep_regrets.__all__
__all__ += _goofspiel.__all__
__all__ += _trafficars.__all__
__all__ += _trafficars_memory.__all__
__all__ += _trafficars_overtaking.__all__
__all__ += _turn_the_tide.__all__


def _game_modules() -> dict[str, ModuleType]:
    """Every game module of this package, by game id (its name)."""
    return {
        module.name: importlib.import_module(f"{__name__}.{module.name}")
        for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name)  # noqa: F405
        if not module.name.startswith("_")
    }


def _observation_type(game: ModuleType) -> type:
    observation = getattr(game, "OBSERVATION", None)
    if not (isinstance(observation, type) and is_typeddict(observation)):
        raise TypeError(f"{game.__name__} must name its observation TypedDict OBSERVATION")
    return observation


def _tensor_bounds(game: ModuleType) -> tuple[float, float] | None:
    bounds = getattr(game, "TENSOR_BOUNDS", None)
    if bounds is None:
        return None
    if not (
        isinstance(bounds, tuple)
        and len(bounds) == 2
        and all(isinstance(b, float) for b in bounds)
        and bounds[0] < bounds[1]
    ):
        raise TypeError(f"{game.__name__}.TENSOR_BOUNDS must be a pair of floats (low, high)")
    return bounds


@dataclass(frozen=True)
class ContractSections:
    """Where in a game's contract (``docs/games/<game_id>.md``) each value is decided.

    Each game module declares the three fields as ``KEY_SECTIONS``, ``STATE_SECTIONS`` and
    ``OTHER_SECTION``. A section reads ``"<Title> contract § <heading>"``, optionally with a
    pointer after the heading (``", step 4 (losing lifebuoys)"``); several are joined by
    ``"; "``.

    Attributes:
        keys: The sections of each observation key and answer field (``legal_actions``,
            ``current_player``, ``is_terminal``, ``chance_outcomes``, ``scores``, ``winners``)
            that one part of the contract decides.
        by_state: For the other keys (who moves, what is legal), pairs of an observation key
            and the section of each of its values (its ``str()``): the first value found
            that has one (e.g. the decision kind, then the phase).
        other: The section of any other key; None for the contract as a whole.
    """

    keys: Mapping[str, str]
    by_state: tuple[tuple[str, Mapping[str, str]], ...]
    other: str | None

    def section(self, key: str, observation: Mapping[str, Any]) -> str | None:
        """The sections deciding ``key``, given seat 0's ``observation`` there (may be empty)."""
        if key in self.keys:
            return self.keys[key]
        for state_key, sections in self.by_state:
            found = sections.get(str(observation.get(state_key)))
            if found is not None:
                return found
        return self.other


def _contract_sections(game: ModuleType) -> ContractSections:
    keys = getattr(game, "KEY_SECTIONS", None)
    by_state = getattr(game, "STATE_SECTIONS", None)
    if not (
        isinstance(keys, dict)
        and isinstance(by_state, tuple)
        and all(isinstance(pair, tuple) and len(pair) == 2 for pair in by_state)
        and hasattr(game, "OTHER_SECTION")
    ):
        raise TypeError(
            f"{game.__name__} must declare KEY_SECTIONS, STATE_SECTIONS and OTHER_SECTION: the "
            "sections of the game's contract that decide each observation key (ContractSections)"
        )
    return ContractSections(keys, by_state, game.OTHER_SECTION)


_GAMES = _game_modules()

OBSERVATION_TYPES: dict[str, type] = {g: _observation_type(m) for g, m in _GAMES.items()}
"""The observation type of each game id (the ``OBSERVATION`` of each game module)."""

TENSOR_BOUNDS: dict[str, tuple[float, float]] = {
    g: bounds
    for g, bounds in ((g, _tensor_bounds(m)) for g, m in _GAMES.items())
    if bounds is not None
}
"""``(low, high)`` bounding every entry of the observation tensor, for each game whose contract
bounds them (the ``TENSOR_BOUNDS`` of its module; goofspiel's lie in ``[0, 1]``)."""

CONTRACT_SECTIONS: dict[str, ContractSections] = {
    g: _contract_sections(m) for g, m in _GAMES.items()
}
"""For each game id, where its contract decides each observation key and answer field (from its
module's ``KEY_SECTIONS``, ``STATE_SECTIONS`` and ``OTHER_SECTION``)."""
