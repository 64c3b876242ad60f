"""Helpers of the pictures' leak test that a game's ``GAME.hidden_cards`` may use too.

The leak test lives in ``tests/test_render.py``; a scenario file must not import that test module
(pytest would collect its tests twice), so what both need is here.
"""

from __future__ import annotations

from typing import Any


def strings_in(value: Any) -> set[str]:
    """Every string in a JSON-like value (an observation): itself, or those in its items."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings_in(v) for v in value)) if value else set()
    return set()
