"""Option sets every generic test runs each registered game with."""

from __future__ import annotations

from typing import Any

CONFIGS: dict[str, list[dict[str, Any]]] = {
    "turn_the_tide": [
        {"players": 3},
        {"players": 4},
        {"players": 5, "recheck_after_elimination": False},
        {"players": 4, "highest_chooses_tide": True, "rounds": 2},
    ],
}
"""Per game id: keyword arguments for ``cardtable.make`` (players included)."""


def config_id(game_id: str, config: dict[str, Any]) -> str:
    """A short test id such as ``turn_the_tide-players=4``."""
    return game_id + "-" + ",".join(f"{k}={v}" for k, v in config.items())


ALL = [(g, c) for g, configs in CONFIGS.items() for c in configs]
IDS = [config_id(g, c) for g, c in ALL]
