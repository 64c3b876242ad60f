"""Walks through a state shared by several test files: seeded random walks (reliability and fuzz
tests) and games of built-in bots seated as a batch run seats them (simulate and vector tests)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import cardtable
from cardtable._rng import SplitMix64, derive_seed
from cardtable.bots import BuiltinBot


def random_walk(state: Any, seed: int, steps: int) -> None:
    """Plays ``steps`` uniformly random steps (chance too) chosen by a seeded generator."""
    rng = SplitMix64(seed)
    for _ in range(steps):
        if state.is_terminal:
            return
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])


def seat_bots(
    game: cardtable.GameProtocol, names: Mapping[int, str], game_seed: int
) -> dict[int, BuiltinBot]:
    """Bot ``names[p]`` in each seat ``p``, on the stream a batch run (``simulate``, ``VectorEnv``)
    gives it in the game seeded ``game_seed``: ``derive_seed(game_seed, p + 1)``."""
    return {
        p: cardtable.bot(game, name, p, seed=derive_seed(game_seed, p + 1))
        for p, name in names.items()
    }


def apply_and_observe(
    state: cardtable.StateProtocol, action: int, bots: Mapping[int, BuiltinBot]
) -> None:
    """Applies ``action``, then lets every bot see the new state, as a batch run does."""
    state.apply(action)
    for bot in bots.values():
        bot.observe(state)
