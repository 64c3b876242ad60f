"""Observation tensors and legal-action masks of every game on both backends.

The backends agree bit for bit in the differential tests (``cardtable.testing.compare_states``);
here: shapes, dtypes, masks, errors, and that a tensor holds exactly the information of its
observation dict (equal dicts give equal tensors, different dicts different tensors).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import cardtable
from cardtable import GameProtocol, IllegalActionError, StateProtocol
from cardtable._rng import SplitMix64
from tests.configs import ALL, IDS
from tests.game_info import all_games

SHAPES = {game_id: info.tensor_size for game_id, info in all_games().items() if info.tensor_size}
"""The documented sizes (``GAME.tensor_size``; memory's depends on the grid size N)."""


def make(game_id: str, config: dict[str, Any], backend: str) -> GameProtocol:
    return cardtable.make(game_id, backend=backend, **config)  # type: ignore[arg-type]


def random_states(game: GameProtocol, seed: int, every: int = 1) -> Iterator[StateProtocol]:
    """Every ``every``-th state of one random game and its last state (the same object, advanced
    between yields; explicit chance nodes included)."""
    rng = SplitMix64(seed)
    state = game.new_state()
    for step in itertools.count():
        if step % every == 0 or state.is_terminal:
            yield state
        if state.is_terminal:
            return
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])


@pytest.mark.parametrize(("game_id", "config"), ALL, ids=IDS)
def test_shapes_dtypes_and_masks(game_id: str, config: dict[str, Any], backend: str) -> None:
    game = make(game_id, config, backend)
    shape = game.observation_shape
    assert isinstance(shape, tuple) and len(shape) == 1
    if game_id in SHAPES:
        assert shape == (SHAPES[game_id](config["players"], config),)
    every = 1 if backend == "rust" else 25
    for state in random_states(game, seed=1, every=every):
        for p in range(game.players):
            tensor = state.observation_tensor(p)
            assert tensor.dtype == np.float32 and tensor.shape == shape
            assert np.isfinite(tensor).all()
            assert tensor[p] == 1.0 and tensor[: game.players].sum() == 1.0  # the seat one-hot
        mask = state.legal_action_mask()
        assert mask.dtype == np.bool_ and mask.shape == (game.num_actions,)
        assert np.flatnonzero(mask).tolist() == state.legal_actions()


@pytest.mark.parametrize(("game_id", "config"), ALL, ids=IDS)
def test_tensor_holds_exactly_the_observation(game_id: str, config: dict[str, Any]) -> None:
    """Equal observations give equal tensors and different observations different tensors."""
    game = make(game_id, config, "rust")
    seen: dict[bytes, str] = {}
    for seed in range(3):
        for state in random_states(game, seed):
            for p in range(game.players):
                obs = json.dumps(state.observation(p), sort_keys=True)
                key = state.observation_tensor(p).tobytes()
                assert seen.setdefault(key, obs) == obs, "two observations share a tensor"
    observations = set(seen.values())
    assert len(observations) == len(seen), "one observation has two tensors"


@pytest.mark.parametrize("backend_name", ["rust", "reference"])
def test_bad_seats_raise(backend_name: str) -> None:
    state = cardtable.make("goofspiel", players=2, backend=backend_name).new_state(seed=1)  # type: ignore[arg-type]
    for bad in (-1, 2, True, "0", 1.0):
        with pytest.raises(IllegalActionError):
            state.observation_tensor(bad)  # type: ignore[arg-type]


def test_terminal_mask_is_empty_and_chance_mask_lists_outcomes() -> None:
    game = cardtable.make("goofspiel", players=2, num_cards=4)
    state = game.new_state()
    assert state.is_chance_node
    assert np.flatnonzero(state.legal_action_mask()).tolist() == [0, 1, 2, 3]
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    assert not state.legal_action_mask().any()


def test_goofspiel_layout_by_hand() -> None:
    """The documented layout of goofspiel, checked entry by entry on one state."""
    n = 3
    state = cardtable.make("goofspiel", players=2, num_cards=n).new_state()
    state.apply(1)  # point card 2
    state.apply(2)  # seat 0 bids 3
    t = state.observation_tensor(0).tolist()
    seat, turn, point, remaining = t[0:2], t[2], t[3:6], t[6:9]
    hands, points, turns = t[9:15], t[15:17], t[17:44]
    committed, own = t[44:46], t[46:49]
    assert seat == [1, 0] and turn == 0 and point == [0, 1, 0] and remaining == [1, 0, 1]
    assert hands == [1, 1, 1, 1, 1, 1] and points == [0, 0] and turns == [0] * 27
    assert committed == [1, 0] and own == [0, 0, 1]
    assert state.observation_tensor(1).tolist()[46:49] == [0, 0, 0]  # seat 1 cannot see the bid
