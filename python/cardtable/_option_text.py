"""Option values written as ``-o KEY=VALUE`` reads them back, and which options a run changed.

A leaf: the simulation summary and the studies' titles both name a run's options with it. It
imports nothing of the package at module level.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = ["changed_options", "option_text", "options_text"]


def option_text(value: Any) -> str:
    """An option value as ``-o KEY=VALUE`` reads it back: a string as itself, else as JSON."""
    return value if isinstance(value, str) else json.dumps(value)


def options_text(options: Mapping[str, Any]) -> str:
    """``days=5, expansion_tentacles=true`` (values as ``-o`` reads them), or ``no options``."""
    return ", ".join(f"{k}={option_text(v)}" for k, v in options.items()) or "no options"


def changed_options(game_id: str, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options of ``options`` that differ from the game's defaults at ``players`` seats.

    All of them when the defaults cannot be had at that player count (a game whose defaults
    need some option given).
    """
    from cardtable import _core
    from cardtable.errors import CardtableError

    try:
        defaults = _core.Game(game_id, players, {}).options
    except CardtableError:
        return dict(options)
    return {k: v for k, v in options.items() if k not in defaults or defaults[k] != v}
