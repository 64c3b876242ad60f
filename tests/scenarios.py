"""Checks that the per-game scenario files in ``tests/games`` share."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable import StateProtocol
from cardtable.errors import IllegalActionError


def assert_rejected(state: StateProtocol, action: int, player: int | None = None) -> None:
    """``action`` raises IllegalActionError and leaves the state exactly as it was."""
    before = state.to_dict()
    with pytest.raises(IllegalActionError):
        state.apply(action, player=player)
    assert state.to_dict() == before


def one_bad_option_each(players: int, bad: dict[str, list[Any]]) -> list[dict[str, Any]]:
    """``make`` keyword arguments with ``players`` and one of the ``bad`` values of one option."""
    return [{"players": players, name: value} for name, values in bad.items() for value in values]
