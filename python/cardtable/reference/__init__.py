"""The pure-Python reference implementations, one module per game, written like the rulebook.

They follow the same state-machine API as the Rust engine and are the specification the differential
tests hold the engine to. Use them through ``cardtable.make(..., backend="reference")``.

This layer owns the rules in Python and nothing else: every public module is one game whose
``ReferenceGame`` subclass carries ``@register(game_id, players=(lo, hi))`` (the one
registration, which fills :data:`GAMES`); private modules (``_base``, ``_options``, ``_tensor``,
``_<game>/``) are shared machinery and a game's parts. It must not import the Rust extension,
the adapters or the simulation layer (the renderers only inside ``svg()``), nor one game's module
from another: the references are the specification and stay self-contained.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from cardtable._inputs import shown
from cardtable.errors import InvalidOptionError
from cardtable.reference._base import CHANCE, REGISTERED, TERMINAL, ReferenceGame, ReferenceState

__all__ = ["CHANCE", "GAMES", "TERMINAL", "ReferenceGame", "ReferenceState", "make"]

for _module in pkgutil.iter_modules(__path__):
    if not _module.name.startswith("_"):
        # Every public module of this package is one game, registered by ``@register``.
        importlib.import_module(f"{__name__}.{_module.name}")

GAMES: dict[str, type[ReferenceGame[Any]]] = dict(sorted(REGISTERED.items()))
"""Every reference game class by game id (each module's ``@register`` class)."""


def make(game_id: str, *, players: int, **options: Any) -> ReferenceGame[Any]:
    """Creates a reference game (see :func:`cardtable.make`)."""
    try:
        # A ``str`` subclass is read by the characters it stores, as the engine reads it,
        # whatever its own ``__eq__`` and ``__hash__`` say.
        cls = GAMES[str.__str__(game_id)]
    except (KeyError, TypeError):
        raise InvalidOptionError(
            f"unknown game {shown(game_id)}; registered games: {', '.join(GAMES)}"
        ) from None
    return cls(players=players, **options)
