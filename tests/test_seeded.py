"""Seeded games are identical across backends: same seed and same random players, same game."""

from __future__ import annotations

from typing import Any

import pytest

import cardtable
from cardtable.testing import play_random
from tests.configs import ALL, IDS


@pytest.mark.parametrize(("game_id", "config"), ALL, ids=IDS)
def test_seeded_games_identical(game_id: str, config: dict[str, Any]) -> None:
    rust = cardtable.make(game_id, backend="rust", **config)
    ref = cardtable.make(game_id, backend="reference", **config)
    for seed in range(20):
        a = play_random(rust.new_state(seed=seed), seed + 1000)
        b = play_random(ref.new_state(seed=seed), seed + 1000)
        assert a.history == b.history
        assert a.scores == b.scores
        assert a.winners == b.winners
        assert a.to_dict() == b.to_dict()


@pytest.mark.parametrize(("game_id", "config"), ALL, ids=IDS)
def test_different_seeds_give_different_games(
    game_id: str, config: dict[str, Any], backend: str
) -> None:
    """The seed decides the game: eight seeds give eight games wherever eight games exist.

    Where the chance nodes of a game multiply to a million ways or more (every deal of every game
    but small ones) the eight fixed seeds give eight different games; with two ways or more, at
    least two. A game that never meets a chance node of two or more outcomes (a one-card
    goofspiel, or a game without chance) is the same game whatever the seed. (The first node's
    outcomes alone decided it, and a game of two draws of ten cards met two seeds whose first
    draws agree. A count of every complete game, which this used to make for small deals, ran
    for hours on a six-car memory game.)
    """
    game = cardtable.make(game_id, backend=backend, **config)  # type: ignore[arg-type]
    games = [play_random(game.new_state(seed=s), 0) for s in range(8)]
    histories = {tuple(g.history) for g in games}
    ways = min(_draw_ways(game, g.history) for g in games)
    if ways >= 10**6:
        assert len(histories) == 8
    elif max(_draw_ways(game, g.history) for g in games) >= 2:
        assert len(histories) >= 2
    else:
        assert len(histories) == 1


def _draw_ways(game: cardtable.GameProtocol, history: list[int]) -> int:
    """The product of the outcome counts of the chance nodes the game of ``history`` meets."""
    state = game.new_state()
    ways = 1
    for action in history:
        if state.is_chance_node:
            ways *= len(state.chance_outcomes())
        state.apply(action)
    return ways
