"""Seeded games are identical across backends: same seed and same random players, same game."""

from __future__ import annotations

from typing import Any

import pytest

import cardtable
from cardtable.testing import perft, play_random
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

    With ten or more outcomes at the first chance node (every deal of every game but small
    goofspiels) the eight fixed seeds give eight different games; a small goofspiel gives at least
    two different games out of the complete games it has (counted by perft), and exactly one when
    the game has a single possible play.
    """
    game = cardtable.make(game_id, backend=backend, **config)  # type: ignore[arg-type]
    histories = {tuple(play_random(game.new_state(seed=s), 0).history) for s in range(8)}
    first = game.new_state()
    if len(first.chance_outcomes()) >= 10:
        assert len(histories) == 8
    else:
        possible = perft(first, 1_000)
        assert min(2, possible) <= len(histories) <= possible
