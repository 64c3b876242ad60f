"""What the generic tests need of each game, declared once per game in its scenario file.

Every registered game has a scenario file ``tests/games/<game_id>.py`` whose module-level ``GAME``
(a :class:`GameTestInfo`) lists its option sets, golden playthroughs, perft case and tensor size.
``tests/configs.py``, ``tests/golden.py`` and ``tests/test_tensors.py`` read them from here, so
adding a game touches its own files only; ``tests/test_registration.py`` names what a game lacks.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

SCENARIO_DIR = Path(__file__).parent / "games"


def every_player_count(low: int, high: int) -> list[dict[str, Any]]:
    """The default options at every player count from ``low`` to ``high``."""
    return [{"players": n} for n in range(low, high + 1)]


@dataclass(frozen=True)
class GameTestInfo:
    """The per-game data of the generic tests.

    Attributes:
        configs: Keyword arguments for ``cardtable.make`` (players included) that every generic
            test runs the game with.
        golden: (name, make keyword arguments, seed) of each stored playthrough
            ``tests/golden/<game_id>-<name>.txt``.
        perft: (make keyword arguments, deal seed, reference depth, Rust depth) of the perft case
            in ``tests/data/perft.json``.
        tensor_size: The documented observation tensor size for (players, options), when it
            depends on those alone (``docs/games/<game_id>.md``, "Observation tensor").
        hidden_information: Whether a seat can miss something of the state (hands, face-down
            cards, a deck's order): then its search determinizations must vary. ``False`` for a
            game of perfect information, whose determinizer returns the state itself.
        small: ``make`` keyword arguments of a short whole game, for the picture, replay and
            ``play`` tests (default: the first option set).
        pictures: (name, make keyword arguments, seed, decisions played or ``None`` for the
            whole game) of each golden picture ``tests/golden_svg/<game_id>-<name>-*.svg``
            (default: ``mid`` after 7 decisions and ``end``, of the small game with seed 11);
            ``python -m tests.render_golden --accept`` draws them.
    """

    configs: list[dict[str, Any]]
    golden: list[tuple[str, dict[str, Any], int]]
    perft: tuple[dict[str, Any], int, int, int]
    tensor_size: Callable[[int, dict[str, Any]], int] | None = field(default=None)
    hidden_information: bool = True
    small: dict[str, Any] | None = None
    pictures: list[tuple[str, dict[str, Any], int, int | None]] | None = None

    def small_game(self) -> dict[str, Any]:
        """The ``make`` keyword arguments of the short whole game (``small``)."""
        return self.configs[0] if self.small is None else self.small

    def picture_cases(self) -> list[tuple[str, dict[str, Any], int, int | None]]:
        """The golden pictures (``pictures``, or the defaults)."""
        if self.pictures is not None:
            return self.pictures
        return [("mid", self.small_game(), 11, 7), ("end", self.small_game(), 11, None)]


def scenario_ids() -> list[str]:
    """The game ids that have a scenario file, sorted."""
    return sorted(p.stem for p in SCENARIO_DIR.glob("*.py") if not p.stem.startswith("_"))


def load(game_id: str) -> GameTestInfo:
    """The ``GAME`` block of ``tests/games/<game_id>.py``."""
    module = importlib.import_module(f"tests.games.{game_id}")
    info = getattr(module, "GAME", None)
    if not isinstance(info, GameTestInfo):
        raise TypeError(f"tests/games/{game_id}.py must define GAME = GameTestInfo(...)")
    return info


@cache
def all_games() -> dict[str, GameTestInfo]:
    """Every game with a scenario file, by game id.

    Loaded on first call, not at import: a scenario file imports this module before its own
    ``GAME`` exists.
    """
    return {game_id: load(game_id) for game_id in scenario_ids()}
