"""The exceptions of cardtable, shared by the Rust and the reference backends.

Every error the package raises on bad input is one of these classes:

- :class:`CardtableError`: the base of all of them.
- :class:`IllegalActionError`: an action, chance outcome or seat that the state does not accept
  (wrong turn, out of range, not legal here, game over). The state is unchanged.
- :class:`InvalidOptionError`: an unknown game, a bad player count, an unknown option or a value of
  the wrong type or range.
- :class:`InvalidStateError`: a malformed or inconsistent serialized state.
- :class:`CapacityError`: a request too large to hold in memory (also a :class:`MemoryError`);
  nothing was allocated.

``docs/errors.md`` lists which inputs are accepted and which are refused, the same on both backends.
"""

from __future__ import annotations

__all__ = [
    "CapacityError",
    "CardtableError",
    "IllegalActionError",
    "InvalidOptionError",
    "InvalidStateError",
]


class CardtableError(Exception):
    """Base class of every error raised by cardtable."""


class IllegalActionError(CardtableError, ValueError):
    """An action, chance outcome or seat that the current state does not accept."""


class InvalidOptionError(CardtableError, ValueError):
    """An unknown game id, a bad player count, or a bad option name, type or value."""


class InvalidStateError(CardtableError, ValueError):
    """A serialized state that is malformed or does not match its own history."""


class CapacityError(CardtableError, MemoryError):
    """A request whose buffers are too large to hold (e.g. per-game arrays of 10⁹ games).

    The message says what to change, e.g. ``keep_games=False`` for :func:`cardtable.simulate`.
    """
