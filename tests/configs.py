"""Option sets every generic test runs each registered game with.

Each game declares its own in ``GAME.configs`` of its scenario file ``tests/games/<game_id>.py``
(see ``tests/game_info.py``); this module gathers them.
"""

from __future__ import annotations

from typing import Any

from tests.game_info import all_games

CONFIGS: dict[str, list[dict[str, Any]]] = {
    game_id: info.configs for game_id, info in all_games().items()
}
"""Per game id: keyword arguments for ``cardtable.make`` (players included)."""


def config_id(game_id: str, config: dict[str, Any]) -> str:
    """A short test id such as ``turn_the_tide-players=4``."""
    return game_id + "-" + ",".join(f"{k}={v}" for k, v in config.items())


ALL = [(g, c) for g, configs in CONFIGS.items() for c in configs]
IDS = [config_id(g, c) for g, c in ALL]
