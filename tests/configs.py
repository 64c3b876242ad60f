"""Option sets every generic test runs each registered game with."""

from __future__ import annotations

from typing import Any

CONFIGS: dict[str, list[dict[str, Any]]] = {
    "deep_regrets": [
        {"players": 2},
        {"players": 3},
        {"players": 4},
        {"players": 5},
        {"players": 3, "days": 5},
        {"players": 4, "regret_split": "10/20/20/10"},
        {"players": 5, "expansion_tentacles": True},
    ],
    "goofspiel": [
        {"players": 2},
        {"players": 2, "num_cards": 1},
        {"players": 2, "num_cards": 4},
    ],
    "trafficars": [
        {"players": 4},
        {"players": 2, "special_cards": False, "lanes": 2, "hand_size": 15},
        {"players": 3, "max_cars": None},
        {"players": 5, "too_low": "insert"},
        {"players": 5, "max_number": 20, "hand_size": 5, "max_cars": 2, "lanes": 4},
    ],
    "trafficars_memory": [
        {"players": 2},
        {"players": 3, "min_number": 1, "max_number": 12},
        {"players": 4, "jokers": True},
        {"players": 5, "min_number": 26, "max_number": 50, "jokers": True},
    ],
    "trafficars_overtaking": [
        {"players": 2},
        {"players": 3},
        {"players": 4},
        {"players": 5},
        {"players": 3, "optional_overtake": True},
    ],
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
