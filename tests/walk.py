"""Seeded random walks through a state, shared by the reliability and fuzz tests."""

from __future__ import annotations

from typing import Any

from cardtable._rng import SplitMix64


def random_walk(state: Any, seed: int, steps: int) -> None:
    """Plays ``steps`` uniformly random steps (chance too) chosen by a seeded generator."""
    rng = SplitMix64(seed)
    for _ in range(steps):
        if state.is_terminal:
            return
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
