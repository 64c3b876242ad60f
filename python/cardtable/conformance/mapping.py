"""The ``map`` hook: for an implementation whose moves have names of its own.

The harness speaks cardtable's ids. An implementation that names its moves otherwise (``"bid 5"``,
``"W37"``, a PHP port's card codes) passes an :class:`ActionMap` that translates both ways; the
:class:`Node` tells it where the game is, so the same id can mean a card dealt at a chance node and
a card played at a decision.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from cardtable._inputs import shown
from cardtable.errors import CardtableError, InvalidOptionError

__all__ = [
    "ActionMap",
    "IdentityMap",
    "MapLoadError",
    "Node",
    "check_map",
    "load_map",
    "load_object",
]


@dataclass(frozen=True)
class Node:
    """Where a move is made (in our state, which the comparison has found equal to theirs so far).

    Attributes:
        game_id: The game.
        players: Number of seats.
        current_player: The seat to move, ``-1`` at a chance node, ``-2`` at the end.
        observation: Seat 0's observation of our state (its public part tells the phase).
    """

    game_id: str
    players: int
    current_player: int
    observe: Callable[[], Any] = field(repr=False, compare=False)

    @cached_property
    def observation(self) -> dict[str, Any]:
        """Seat 0's observation of our state (computed when first asked for)."""
        return dict(self.observe())

    @property
    def is_chance(self) -> bool:
        """Whether the move is a chance outcome."""
        return self.current_player == -1


@runtime_checkable
class ActionMap(Protocol):
    """Translates between cardtable's ids and the implementation's own moves."""

    def to_impl(self, action: int, node: Node) -> Any:
        """The implementation's move (any JSON integer or string) for our id ``action``."""
        ...

    def from_impl(self, move: Any, node: Node) -> int:
        """Our id for the implementation's ``move`` (raise anything if it has none)."""
        ...


class IdentityMap:
    """Ids are cardtable's on both sides (the default)."""

    def to_impl(self, action: int, node: Node) -> Any:
        """Returns ``action`` itself."""
        return action

    def from_impl(self, move: Any, node: Node) -> int:
        """Returns ``move`` itself if it is an integer id.

        Raises:
            TypeError: If ``move`` is not an integer.
        """
        if isinstance(move, bool) or not isinstance(move, int):
            raise TypeError(f"{shown(move)} is not an action id")
        return move


def _is_map(obj: object) -> bool:
    """Whether ``obj`` is a map: an object (not a class) with methods ``to_impl``, ``from_impl``."""
    return not isinstance(obj, type) and all(
        callable(getattr(obj, name, None)) for name in ("to_impl", "from_impl")
    )


def check_map(action_map: Any) -> ActionMap:
    """``action_map``, or the :class:`IdentityMap` for ``None``, if it is a map.

    Raises:
        cardtable.errors.InvalidOptionError: For anything but an object (not a class) with the
            methods ``to_impl`` and ``from_impl``.
    """
    if action_map is None:
        return IdentityMap()
    if not _is_map(action_map):
        raise InvalidOptionError(
            "action_map must be None or an object with the methods to_impl and from_impl, "
            f"got {shown(action_map)}"
        )
    result: ActionMap = action_map
    return result


class MapLoadError(CardtableError):
    """A ``--map`` specification naming no usable map (or one :func:`load_object` fails on)."""


def load_object(spec: str, what: str) -> Any:
    """The object named by ``module:name`` or ``path/to/file.py:name`` (for ``--map``, ...).

    A file is loaded as a module named ``_cardtable_<what>_<its stem>``.

    Args:
        spec: The object's specification.
        what: What it is, for messages (``map``, ``reference``).

    Raises:
        MapLoadError: If the module, file or name cannot be loaded (an exception or
            ``SystemExit`` raised while importing it included).
    """
    where, sep, name = spec.rpartition(":")
    if not sep or not where or not name:
        raise MapLoadError(f"expected MODULE:NAME or FILE.py:NAME, got {shown(spec)}")
    try:
        if where.endswith(".py"):
            path = Path(where)
            module_name = f"_cardtable_{what}_{path.stem}"
            loader = importlib.util.spec_from_file_location(module_name, path)
            if loader is None or loader.loader is None:
                raise MapLoadError(f"cannot load {shown(where)}")
            module = importlib.util.module_from_spec(loader)
            sys.modules[module_name] = module
            loader.loader.exec_module(module)
        else:
            module = importlib.import_module(where)
        return getattr(module, name)
    except MapLoadError:
        raise
    except (Exception, SystemExit) as err:  # sys.exit() at import too; never KeyboardInterrupt
        raise MapLoadError(f"cannot load the {what} {shown(spec)}: {shown(err)}") from None


def load_map(spec: str) -> ActionMap:
    """Loads a map hook from ``module:name`` or ``path/to/file.py:name``.

    ``name`` is an object with ``to_impl`` and ``from_impl``, or a class or function that returns
    one when called without arguments.

    Raises:
        MapLoadError: If the module, file or name cannot be loaded or is not a map (an exception
            or ``SystemExit`` raised while importing or calling it included).
    """
    obj = load_object(spec, "map")
    if not _is_map(obj) and callable(obj):  # a class or a factory
        try:
            obj = obj()
        except (Exception, SystemExit) as err:
            raise MapLoadError(f"calling {shown(spec)} failed: {shown(err)}") from None
    if not _is_map(obj):
        raise MapLoadError(f"{shown(spec)} has no to_impl and from_impl")
    result: ActionMap = obj
    return result
