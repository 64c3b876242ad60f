"""Every registered game on both backends conforms to the state-machine API (README, "The API")."""

from __future__ import annotations

import copy
import json
import math
from typing import Any

import pytest

import cardtable
from cardtable import CHANCE, TERMINAL, GameProtocol, StateProtocol
from cardtable._rng import SplitMix64
from tests.configs import ALL, CONFIGS, IDS


def make(game_id: str, config: dict[str, Any], backend: str) -> GameProtocol:
    return cardtable.make(game_id, backend=backend, **config)  # type: ignore[arg-type]


def play(state: StateProtocol, seed: int, checks: bool = True, max_steps: int = 100_000) -> None:
    """Plays to the end with random choices (chance outcomes too), checking invariants each step."""
    rng = SplitMix64(seed)
    for _ in range(max_steps):
        if state.is_terminal:
            assert state.legal_actions() == []
            assert state.current_player == TERMINAL
            return
        legal = state.legal_actions()
        assert legal, "no legal action at a non-terminal state"
        if checks:
            assert legal == sorted(set(legal))
            if state.is_chance_node:
                assert state.current_player == CHANCE
                outcomes = state.chance_outcomes()
                assert [o for o, _ in outcomes] == legal
                assert all(p > 0 for _, p in outcomes)
                assert math.isclose(sum(p for _, p in outcomes), 1.0, rel_tol=1e-9)
            else:
                assert state.chance_outcomes() == []
                assert state.current_player >= 0
        state.apply(legal[rng.below(len(legal))])
    raise AssertionError("game did not end")


def test_registry_lists_every_game() -> None:
    ids = [g.id for g in cardtable.games()]
    assert sorted(ids) == sorted(CONFIGS)
    from cardtable import reference

    assert set(reference.GAMES) == set(ids)
    for info in cardtable.games():
        assert info.bots[0] == "random"
        assert info.min_players <= info.max_players
        ref_specs = {s.name: s for s in reference.GAMES[info.id].option_specs}
        assert [o.name for o in info.options] == list(ref_specs)
        for o in info.options:
            assert o.type == ref_specs[o.name].kind
            assert o.default == ref_specs[o.name].default


def test_bot_usages_spell_every_bot_with_its_parameter() -> None:
    """``bot_usages`` is the bot's name, plus ``[:X]`` exactly for the bots that take one."""
    for info in cardtable.games():
        names = info.bots + info.search_bots
        assert len(info.bot_usages) == len(names)
        game = cardtable.make(info.id, players=info.min_players)
        for name, usage in zip(names, info.bot_usages, strict=True):
            assert usage == name or (usage.startswith(f"{name}[:") and usage.endswith("]"))
            if usage == name and name in info.bots:
                with pytest.raises(cardtable.InvalidOptionError, match="no parameter"):
                    cardtable.bot(game, f"{name}:1", seat=0)
            else:
                cardtable.bot(game, name, seat=0)
    spelled = {g.id: g.bot_usages for g in cardtable.games()}
    assert "greedy[:N]" in spelled["trafficars"]
    assert "forgetful[:P]" in spelled["trafficars_memory"]


@pytest.mark.parametrize("game_id", sorted(CONFIGS))
def test_winners_have_the_best_scores_in_the_games_direction(game_id: str) -> None:
    """``GameInfo.higher_score_is_better`` agrees with the winners the engine picks."""
    info = next(g for g in cardtable.games() if g.id == game_id)
    assert info.higher_score_is_better == (game_id != "trafficars")  # penalty cards
    result = cardtable.simulate(
        game_id, players=info.min_players, games=200, seed=1, progress=False
    )
    assert result.scores is not None and result.winners is not None
    scores = result.scores if info.higher_score_is_better else -result.scores
    worst_winner = (scores + (~result.winners) * 10**9).min(axis=1)
    best_loser = (scores - result.winners * 10**9).max(axis=1)
    assert (worst_winner >= best_loser).all()
    # Some game is won by a strictly better score, so a flipped direction would fail above.
    assert (worst_winner > best_loser).any()


@pytest.mark.parametrize(("game_id", "config"), ALL, ids=IDS)
def test_game_properties_match(game_id: str, config: dict[str, Any]) -> None:
    rust = make(game_id, config, "rust")
    ref = make(game_id, config, "reference")
    assert rust.game_id == ref.game_id == game_id
    assert rust.players == ref.players == config["players"]
    assert rust.num_actions == ref.num_actions
    assert rust.options == ref.options


@pytest.mark.parametrize(("game_id", "config"), ALL, ids=IDS)
def test_random_games_stay_within_the_length_bound(game_id: str, config: dict[str, Any]) -> None:
    """``max_game_length`` (the reference game's bound, OpenSpiel's ``max_game_length``) holds for
    every step of random games, chance outcomes included."""
    from cardtable import reference

    bound = reference.make(game_id, **config).max_game_length
    if bound is None:
        pytest.skip(f"{game_id}: the rules give no bound")
    game = make(game_id, config, "rust")
    for seed in range(20):
        state = game.new_state()
        play(state, seed, checks=False, max_steps=bound + 1)
        assert len(state.history) <= bound


def test_random_playthroughs_respect_the_api(configured_game: GameProtocol) -> None:
    game = configured_game
    for seed in range(3):
        state = game.new_state()
        play(state, seed)
        assert state.winners, "a finished game has winners"
        assert all(0 <= w < game.players for w in state.winners)
        assert len(state.scores) == game.players


def test_clone_and_dict_round_trip(configured_game: GameProtocol) -> None:
    game = configured_game
    state = game.new_state()
    rng = SplitMix64(11)
    step = 0
    while not state.is_terminal:
        if step % 17 == 0:
            d = state.to_dict()
            json.dumps(d)  # JSON-compatible
            back = game.state_from_dict(json.loads(json.dumps(d)))
            assert back.to_dict() == d
            twin = state.clone()
            assert twin.to_dict() == d
            assert copy.deepcopy(state).to_dict() == d
            for p in range(game.players):
                json.dumps(state.observation(p))
            legal = state.legal_actions()
            twin.apply(legal[0])
            assert state.to_dict() == d, "applying to a clone changed the original"
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
        step += 1
    d = state.to_dict()
    assert game.state_from_dict(d).to_dict() == d


def test_seeded_state_never_rests_at_chance(configured_game: GameProtocol) -> None:
    game = configured_game
    state = game.new_state(seed=5)
    rng = SplitMix64(5)
    while not state.is_terminal:
        assert not state.is_chance_node
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    d = state.to_dict()
    assert d["rng"] is not None
    assert game.state_from_dict(d).to_dict() == d


def test_history_replays_to_the_same_state(configured_game: GameProtocol) -> None:
    game = configured_game
    state = game.new_state(seed=3)
    play(state, 3, checks=False)
    replay = game.new_state()
    for a in state.history:
        replay.apply(a)
    assert replay.to_dict()["state"] == state.to_dict()["state"]
    assert replay.scores == state.scores


def test_observations_have_exactly_the_typed_keys(configured_game: GameProtocol) -> None:
    from cardtable.observations import OBSERVATION_TYPES

    game = configured_game
    keys = set(OBSERVATION_TYPES[game.game_id].__annotations__)
    state = game.new_state(seed=8)
    rng = SplitMix64(8)
    for _ in range(60):
        for p in range(game.players):
            assert set(state.observation(p)) == keys
        if state.is_terminal:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
