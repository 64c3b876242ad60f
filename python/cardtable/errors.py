"""The exceptions of cardtable, shared by the Rust and the reference backends.

Every error the package raises on bad input is one of these classes:

- :class:`CardtableError`: the base of all of them.
- :class:`IllegalActionError`: an action, chance outcome or seat that the state does not accept
  (wrong turn, out of range, not legal here, game over). The state is unchanged.
- :class:`InvalidOptionError`: an unknown game, a bad player count, an unknown option or a value of
  the wrong type or range.
- :class:`InvalidStateError`: a malformed or inconsistent serialized state.
"""

from __future__ import annotations

__all__ = ["CardtableError", "IllegalActionError", "InvalidOptionError", "InvalidStateError"]


class CardtableError(Exception):
    """Base class of every error raised by cardtable."""


class IllegalActionError(CardtableError, ValueError):
    """An action, chance outcome or seat that the current state does not accept."""


class InvalidOptionError(CardtableError, ValueError):
    """An unknown game id, a bad player count, or a bad option name, type or value."""


class InvalidStateError(CardtableError, ValueError):
    """A serialized state that is malformed or does not match its own history."""
