"""The PettingZoo, Gymnasium and OpenSpiel adapters pass their libraries' own checks, every game."""

from __future__ import annotations

import pickle
import subprocess
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest

from cardtable import IllegalActionError, InvalidOptionError, InvalidStateError
from tests.configs import CONFIGS

GAMES = [(g, configs[0]) for g, configs in CONFIGS.items()]
IDS = [g for g, _ in GAMES]


ALLOWED_CHECKER_WARNINGS = (
    # PettingZoo's api_test: our observations are dicts holding the tensor and the action mask.
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box",
)
"""The checkers' advice that is expected for these environments, allowed by name; any other
warning (an observation outside its space, a NaN reward, ...) fails the test."""


@contextmanager
def only_allowed_warnings() -> Iterator[None]:
    """Fails if the block emits a warning other than the ones in ``ALLOWED_CHECKER_WARNINGS``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    unexpected = sorted(
        {
            f"{w.category.__name__}: {w.message}"
            for w in caught
            if not any(allowed in str(w.message) for allowed in ALLOWED_CHECKER_WARNINGS)
        }
    )
    assert not unexpected, "unexpected warnings:\n" + "\n".join(unexpected)


def test_checker_warnings_other_than_the_allowed_ones_fail() -> None:
    with only_allowed_warnings():
        warnings.warn("Observation is not a NumPy array", UserWarning, stacklevel=1)
    with pytest.raises(AssertionError, match="NaN reward"), only_allowed_warnings():
        warnings.warn("WARN: the reward is a NaN reward", UserWarning, stacklevel=1)


def split(config: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    options = dict(config)
    return options.pop("players"), options


# ----- PettingZoo -----


@pytest.mark.parametrize(("game_id", "config"), GAMES, ids=IDS)
def test_pettingzoo_api_test(game_id: str, config: dict[str, Any]) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from cardtable.adapters.pettingzoo import env

    players, options = split(config)
    with only_allowed_warnings():
        api_test(env(game_id, players=players, **options), num_cycles=100)


def test_pettingzoo_game_is_seeded_and_rewards_the_winner() -> None:
    pytest.importorskip("pettingzoo")
    from cardtable.adapters.pettingzoo import env

    def play(seed: int) -> tuple[list[int], dict[str, float]]:
        aec = env("turn_the_tide", players=3)
        aec.reset(seed=seed)
        actions, totals = [], dict.fromkeys(aec.possible_agents, 0.0)
        for agent in aec.agent_iter():
            obs, reward, terminated, truncated, _ = aec.last()
            totals[agent] += reward
            if terminated or truncated:
                aec.step(None)
                continue
            action = int(np.flatnonzero(obs["action_mask"])[0])
            actions.append(action)
            aec.step(action)
        return actions, totals

    first, totals = play(4)
    assert play(4)[0] == first and play(5)[0] != first
    assert sorted(totals.values())[-1] in (0.0, 1.0) and min(totals.values()) == -1.0


def test_pettingzoo_rejects_illegal_actions() -> None:
    pytest.importorskip("pettingzoo")
    from cardtable.adapters.pettingzoo import env

    aec = env("goofspiel", players=2, num_cards=4)
    aec.reset(seed=0)
    mask = aec.observe(aec.agent_selection)["action_mask"]
    with pytest.raises(IllegalActionError):
        aec.step(int(np.flatnonzero(mask == 0)[0]) if (mask == 0).any() else 99)
    with pytest.raises(InvalidOptionError):
        env("goofspiel", players=2, render_mode="human")
    with pytest.raises(InvalidOptionError, match="render_mode"):
        env("goofspiel", players=2, render_mode=np.array(["ansi", "ansi"]))  # type: ignore[arg-type]


def test_pettingzoo_refuses_non_int_actions_bad_seeds_and_use_before_reset() -> None:
    pytest.importorskip("pettingzoo")
    from cardtable.adapters.pettingzoo import env

    aec = env("goofspiel", players=2, num_cards=3, render_mode="ansi")
    for call in (lambda: aec.step(0), aec.last, lambda: aec.observe("player_0"), aec.render):
        with pytest.raises(InvalidStateError, match="reset"):
            call()
    for seed in (1.5, True, "1", -1, 2**64):
        with pytest.raises(InvalidOptionError, match="seed"):
            aec.reset(seed=seed)  # type: ignore[arg-type]
    aec.reset(seed=np.uint64(3))  # type: ignore[arg-type]
    before = aec.observe(aec.agent_selection)
    legal = int(np.flatnonzero(before["action_mask"])[0])
    for action in (float(legal), legal + 0.9, True, str(legal), np.bool_(True), None, [legal]):
        with pytest.raises(IllegalActionError):
            aec.step(action)  # type: ignore[arg-type]
    after = aec.observe(aec.agent_selection)
    assert (after["observation"] == before["observation"]).all()  # nothing was played
    with pytest.raises(InvalidOptionError, match="agent"):
        aec.observe("player_9")
    for _ in aec.agent_iter():
        obs, _, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            with pytest.raises(IllegalActionError, match="only action is None"):
                aec.step(0)
            aec.step(None)
        else:
            aec.step(np.int64(np.flatnonzero(obs["action_mask"])[0]))  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match="reset"):
        aec.step(None)
    with pytest.raises(InvalidStateError, match="reset"):
        aec.last()


@pytest.mark.parametrize("agent", ["player_2", 0, None, ["player_0"]])
def test_pettingzoo_spaces_refuse_unknown_agents(agent: Any) -> None:
    """``observation_space`` and ``action_space`` raised a bare KeyError (or TypeError)."""
    pytest.importorskip("pettingzoo")
    from cardtable.adapters.pettingzoo import env

    aec = env("goofspiel", players=2)
    for space in (aec.observation_space, aec.action_space):
        with pytest.raises(InvalidOptionError, match="unknown agent"):
            space(agent)
    assert aec.action_space("player_1").n == 13  # type: ignore[attr-defined]


def test_pettingzoo_unseeded_resets_draw_fresh_entropy() -> None:
    pytest.importorskip("pettingzoo")
    from cardtable.adapters.pettingzoo import env

    def deals(seed: int | None) -> list[list[float]]:
        aec = env("turn_the_tide", players=3)
        out = []
        for i in range(3):
            aec.reset(seed=seed if i == 0 else None)
            out += [aec.observe(agent)["observation"].tolist() for agent in aec.possible_agents]
        return out

    assert deals(None) != deals(None)  # fresh environments play different games
    assert deals(7) == deals(7)  # a seed fixes the game and the unseeded games after it


# ----- Gymnasium -----


@pytest.mark.parametrize(("game_id", "config"), GAMES, ids=IDS)
def test_gymnasium_check_env(game_id: str, config: dict[str, Any]) -> None:
    pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from cardtable.adapters.gymnasium import make_env

    players, options = split(config)
    with only_allowed_warnings():
        check_env(make_env(game_id, players=players, **options), skip_render_check=True)


@pytest.mark.parametrize(("game_id", "config"), GAMES, ids=IDS)
def test_gymnasium_registered_env_passes_check_env_without_warnings(
    game_id: str, config: dict[str, Any]
) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from cardtable.adapters.gymnasium import ENV_IDS

    players, options = split(config)
    env = gymnasium.make(ENV_IDS[game_id], players=players, **options)
    assert ENV_IDS[game_id] == f"cardtable/{game_id}-v0" and env.unwrapped.spec is not None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)  # the render and close checks too, through the spec
    assert not [str(w.message) for w in caught]
    low, high = env.observation_space.low, env.observation_space.high
    assert np.isfinite(low).all() and np.isfinite(high).all()


def test_gymnasium_make_defaults_and_module_prefix() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    env = gymnasium.make("cardtable.adapters.gymnasium:cardtable/goofspiel-v0", num_cards=4)
    assert env.spec is not None and env.spec.kwargs["players"] == 2  # the smallest count
    obs, _ = env.reset(seed=1)
    assert obs in env.observation_space
    space = env.observation_space
    assert (space.low == 0.0).all() and (space.high == 1.0).all()
    turn_the_tide = gymnasium.make("cardtable/turn_the_tide-v0", players=5, reward="margin")
    assert turn_the_tide.unwrapped.seat == 0
    assert turn_the_tide.reset(seed=0)[0].shape == (600,)


def test_gymnasium_final_info_has_the_scores_and_action_masks() -> None:
    pytest.importorskip("gymnasium")
    from cardtable.adapters.gymnasium import make_env

    for reward in ("win", "margin", "score"):
        env = make_env("goofspiel", players=2, seat=1, reward=reward, num_cards=5)
        obs, info = env.reset(seed=7)
        terminated = False
        while not terminated:
            mask = env.action_masks()
            np.testing.assert_array_equal(mask, info["action_mask"])
            assert mask is not env.action_masks()  # a new array each call
            assert "scores" not in info
            obs, reward_, terminated, _, info = env.step(int(np.flatnonzero(mask)[0]))
            assert obs in env.observation_space
        scores = info["scores"]
        assert scores.dtype == np.int64 and scores.shape == (2,) and scores.sum() == 15
        margin = float(scores[1] - scores[0])
        if reward == "win":
            assert reward_ == (0.0 if margin == 0 else np.sign(margin))
        else:
            assert reward_ == margin
        assert not env.action_masks().any()


def test_gymnasium_episode_and_illegal_actions() -> None:
    pytest.importorskip("gymnasium")
    from cardtable.adapters.gymnasium import make_env

    env = make_env("turn_the_tide", players=4, seat=1, opponents="greedy", render_mode="ansi")
    obs, info = env.reset(seed=3)
    assert obs.shape == env.observation_space.shape and obs.dtype == np.float32
    total, done, steps = 0.0, False, 0
    while not done:
        action = int(np.flatnonzero(info["action_mask"])[-1])
        obs, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        done, steps = terminated or truncated, steps + 1
    assert total in (-1.0, 0.0, 1.0) and steps > 5 and env.render()
    with pytest.raises(InvalidStateError):
        env.step(0)
    obs, info = env.reset(seed=3)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert reward == -1.0 and terminated and info["illegal"]
    strict = make_env("turn_the_tide", players=4, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)
    with pytest.raises(IllegalActionError):
        strict.step("1")  # type: ignore[arg-type]
    lenient = make_env("turn_the_tide", players=4)
    for env_ in (strict, lenient):
        _, info = env_.reset(seed=2)
        legal = int(np.flatnonzero(info["action_mask"])[0])
        for not_int in (True, np.bool_(True), float(legal)):
            with pytest.raises(IllegalActionError, match="must be an int"):
                env_.step(not_int)  # type: ignore[arg-type]
        assert env_.step(np.int64(legal))[3] is False
        for seed in (1.5, True, "1", -1, 2**64):
            with pytest.raises(InvalidOptionError, match="seed"):
                env_.reset(seed=seed)  # type: ignore[arg-type]
    first = lenient.reset(seed=np.int64(5))[0]  # type: ignore[arg-type]
    assert (first == lenient.reset(seed=5)[0]).all()
    with pytest.raises(InvalidOptionError):
        make_env("turn_the_tide", players=4, illegal_action="ignore")  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="illegal_action"):
        make_env("turn_the_tide", players=4, illegal_action=np.array(["lose"]))  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="render_mode"):
        make_env("turn_the_tide", players=4, render_mode=np.array(["ansi"]))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "keywords",
    [
        {"observations": False},  # reset gave observations of shape (0,)
        {"reuse_buffers": True},  # reset's observation was overwritten by the next step
        {"seed": 3},  # ignored
        {"threads": 2},  # a bare TypeError: "got multiple values for keyword argument"
        {"agent_seats": (0, 1)},
        {"num_envs": 4},
    ],
    ids=lambda k: next(iter(k)),
)
def test_make_env_refuses_vector_env_keywords(keywords: dict[str, Any]) -> None:
    pytest.importorskip("gymnasium")
    from cardtable.adapters.gymnasium import make_env

    with pytest.raises(InvalidOptionError, match=f"unknown option '{next(iter(keywords))}'"):
        make_env("goofspiel", players=2, **keywords)


@pytest.mark.parametrize("action", [None, "0", [0]])
def test_gymnasium_step_does_not_call_a_non_int_a_bool(action: Any) -> None:
    pytest.importorskip("gymnasium")
    from cardtable.adapters.gymnasium import make_env

    env = make_env("goofspiel", players=2, illegal_action="raise")
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match=r"action must be an int, got") as caught:
        env.step(action)
    assert "bool" not in str(caught.value)


def test_gymnasium_env_reset_refuses_options_and_changes_nothing() -> None:
    """As the vector env does: options are the game's, given when the env is made."""
    pytest.importorskip("gymnasium")
    from cardtable.adapters.gymnasium import make_env

    env = make_env("goofspiel", players=2)
    obs, _ = env.reset(seed=3)
    with pytest.raises(InvalidOptionError, match="options=None or an empty dict only"):
        env.reset(seed=4, options={"num_cards": 5})
    again = make_env("goofspiel", players=2)
    again.reset(seed=3)
    assert env.np_random.integers(1 << 62) == again.np_random.integers(1 << 62)
    assert env.reset(options={})[0].shape == obs.shape


def test_gymnasium_vector_env_hands_out_its_games_as_states() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from cardtable.adapters.gymnasium import make_vec_env

    envs = make_vec_env("goofspiel", 3, players=2, seed=4, keep_histories=True)
    wrapped = gymnasium.wrappers.vector.RecordEpisodeStatistics(envs)
    obs, info = wrapped.reset()
    states = wrapped.unwrapped.states()
    assert [s.current_player for s in states] == info["seat"].tolist()
    np.testing.assert_array_equal(states[1].observation_tensor(int(info["seat"][1])), obs[1])


def legal_actions(mask: Any) -> Any:
    """The first legal action per row (0 where nothing is legal: an env that just ended)."""
    return np.array([np.flatnonzero(m)[0] if m.any() else 0 for m in mask], np.int64)


def random_legal_actions(rng: np.random.Generator, mask: Any) -> Any:
    """A random legal action per row (0 where nothing is legal: an env that just ended)."""
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask], np.int64)


def test_gymnasium_vector_env_is_a_gymnasium_vector_env() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from cardtable import VectorEnv
    from cardtable.adapters.gymnasium import CardtableVectorEnv, make_vec_env

    envs = make_vec_env("turn_the_tide", 5, players=4, seed=3, opponents="greedy", rounds=2)
    assert isinstance(envs, gymnasium.vector.VectorEnv) and isinstance(envs, CardtableVectorEnv)
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    assert envs.num_envs == 5 and envs.render_mode is None
    envs.render()  # nothing to render
    inner = envs.vector_env
    assert envs.single_observation_space == inner.single_observation_space
    assert envs.single_action_space == gymnasium.spaces.Discrete(inner.num_actions)
    assert envs.observation_space.shape == (5, *inner.observation_shape)
    assert envs.action_space == gymnasium.spaces.MultiDiscrete([inner.num_actions] * 5)
    assert repr(envs) == f"CardtableVectorEnv({inner!r})" and "rounds" in repr(envs)
    # Every call is the cardtable.VectorEnv's, with the same seed.
    plain = VectorEnv("turn_the_tide", 5, players=4, seed=3, opponents="greedy", rounds=2)
    obs, info = envs.reset()
    expected_obs, expected_info = plain.reset()
    for _ in range(40):
        np.testing.assert_array_equal(obs, expected_obs)
        assert obs in envs.observation_space
        assert info.keys() == expected_info.keys() and "episode" not in info
        for key, value in info.items():
            np.testing.assert_array_equal(value, expected_info[key])
        np.testing.assert_array_equal(envs.action_masks(), info["action_mask"])
        actions = legal_actions(info["action_mask"])
        obs, rewards, terminated, truncated, info = envs.step(actions)
        expected_obs, *expected, expected_info = plain.step(actions)
        for got, want in zip((rewards, terminated, truncated), expected, strict=True):
            np.testing.assert_array_equal(got, want)
    envs.close()
    assert envs.closed
    envs.close()  # a second close does nothing


def test_gymnasium_vector_env_seeds() -> None:
    pytest.importorskip("gymnasium")
    from cardtable import VectorEnv
    from cardtable.adapters.gymnasium import make_vec_env

    seeded = make_vec_env("turn_the_tide", 4, players=3)
    obs, _ = seeded.reset(seed=11)
    np.testing.assert_array_equal(obs, VectorEnv("turn_the_tide", 4, players=3, seed=11).reset()[0])
    assert seeded.np_random_seed == 11  # reset(seed=...) seeds np_random, as Gymnasium's do
    numpy_seed: Any = np.uint64(11)  # NumPy integers are ints
    np.testing.assert_array_equal(seeded.reset(seed=numpy_seed)[0], obs)
    # Never seeded: each environment draws its run's seed from fresh entropy, and keeps it in
    # run_seed (and np_random_seed), so that the run can be replayed.
    unseeded = [make_vec_env("turn_the_tide", 4, players=3) for _ in range(2)]
    first, second = (env.reset()[0] for env in unseeded)
    assert not np.array_equal(first, second)
    assert unseeded[0].run_seed == unseeded[0].np_random_seed != unseeded[1].run_seed
    replayed = VectorEnv("turn_the_tide", 4, players=3, seed=unseeded[0].run_seed).reset()[0]
    np.testing.assert_array_equal(replayed, first)
    constructed = make_vec_env("turn_the_tide", 4, players=3, seed=5)
    assert (constructed.run_seed, constructed.np_random_seed) == (5, 5)
    for seeds in ([1, 2, 3, 4], np.arange(4)):
        with pytest.raises(InvalidOptionError, match=r"one seed for all the envs.*pass one int"):
            seeded.reset(seed=seeds)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="options=None or an empty dict only"):
        seeded.reset(options={"reset_mask": np.ones(4, np.bool_)})
    assert seeded.reset(options={})[0].shape == obs.shape


@pytest.mark.parametrize(
    ("keywords", "message"),
    [
        ({"reuse_buffers": True}, "no argument 'reuse_buffers': every call returns new arrays"),
        ({"observations": False}, "no argument 'observations'"),
        ({"seat": 1}, "no argument 'seat': give the agent's seats as agent_seats"),
        ({"illegal_action": "lose"}, "no argument 'illegal_action'"),
        ({"render_mode": "ansi"}, "render_mode must be None"),
        ({"reward": "points"}, "'score' is another name of 'margin'"),
        ({"seed": -1}, "seed must be an int"),
        ({"no_such_option": 1}, "no_such_option"),
    ],
    ids=lambda k: next(iter(k)) if isinstance(k, dict) else "",
)
def test_gymnasium_vector_env_refuses_bad_arguments(keywords: dict[str, Any], message: str) -> None:
    pytest.importorskip("gymnasium")
    from cardtable.adapters.gymnasium import make_vec_env

    with pytest.raises(InvalidOptionError, match=message):
        make_vec_env("goofspiel", 2, players=2, **keywords)


def test_record_episode_statistics_gives_each_games_return_and_length() -> None:
    """``RecordEpisodeStatistics`` raised "key 'episode' already exists in info"; its returns are
    the rewards summed over each game, its lengths the agent's decisions in it."""
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    from cardtable.adapters.gymnasium import make_vec_env

    n = 6
    envs = RecordEpisodeStatistics(
        make_vec_env("turn_the_tide", n, players=3, agent_seats=(0, 2), reward="margin")
    )
    rng = np.random.default_rng(0)
    _obs, info = envs.reset(seed=5)
    returns, lengths = np.zeros(n), np.zeros(n, np.int64)
    games = np.zeros(n, np.int64)  # games ended, per env
    recorded = 0
    for _ in range(300):
        _obs, rewards, terminated, truncated, info = envs.step(
            random_legal_actions(rng, info["action_mask"])
        )
        started = info["autoreset"]
        returns[started], lengths[started] = 0.0, 0
        returns[~started] += rewards[~started]
        lengths[~started] += 1
        assert not truncated.any() and "game_index" in info
        if terminated.any():
            stats = info["episode"]
            np.testing.assert_array_equal(info["_episode"], terminated)
            np.testing.assert_allclose(stats["r"][terminated], returns[terminated])
            np.testing.assert_array_equal(stats["l"][terminated], lengths[terminated])
            # The game's reward and scores: the terminal step's reward is the whole return.
            np.testing.assert_allclose(stats["r"][terminated], rewards[terminated])
            games[terminated] += 1
            recorded += int(terminated.sum())
        # The game counter moves on when the next game starts, on the step after the end.
        np.testing.assert_array_equal(info["game_index"], games - terminated)
    assert recorded > n and envs.episode_count == recorded
    assert len(envs.return_queue) == min(recorded, 100)
    assert isinstance(envs.unwrapped, gymnasium.vector.VectorEnv)


def test_standard_vector_wrappers_run_on_the_vector_env() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.wrappers import vector as wrappers

    from cardtable.adapters.gymnasium import CardtableVectorEnv, make_vec_env

    base = make_vec_env("goofspiel", 4, players=2, num_cards=5)
    envs: Any = wrappers.RecordEpisodeStatistics(base)
    envs = wrappers.NormalizeObservation(envs)
    envs = wrappers.ClipReward(envs, min_reward=-0.5, max_reward=0.5)
    envs = wrappers.NormalizeReward(envs)
    envs = wrappers.DictInfoToList(envs)
    assert isinstance(envs.unwrapped, CardtableVectorEnv)
    obs, infos = envs.reset(seed=1)
    assert isinstance(infos, list) and len(infos) == 4 and "game_index" in infos[0]
    ended = 0
    for _ in range(30):
        obs, rewards, terminated, _, infos = envs.step(legal_actions(base.action_masks()))
        assert obs.shape == (4, *base.vector_env.observation_shape) and np.isfinite(obs).all()
        assert np.isfinite(rewards).all()
        for i in np.flatnonzero(terminated):
            assert set(infos[i]["episode"]) == {"r", "l", "t"} and infos[i]["episode"]["l"] > 0
            ended += 1
    assert ended >= 4 and isinstance(envs.unwrapped, gymnasium.vector.VectorEnv)


def test_make_vec_uses_the_vector_entry_point() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from cardtable.adapters.gymnasium import ENV_IDS, CardtableVectorEnv

    envs = gymnasium.make_vec(
        "cardtable/turn_the_tide-v0", num_envs=8, vectorization_mode="vector_entry_point", players=3
    )
    assert isinstance(envs, CardtableVectorEnv) and envs.num_envs == 8
    assert envs.vector_env.players == 3 and envs.spec is not None
    assert envs.spec.id == "cardtable/turn_the_tide-v0"
    obs, _ = envs.reset(seed=0)
    assert obs.shape == (8, *envs.vector_env.observation_shape)
    for game_id, env_id in ENV_IDS.items():
        spec = gymnasium.spec(env_id)
        assert spec.vector_entry_point == "cardtable.adapters.gymnasium:CardtableVectorEnv"
        # Without a mode, make_vec picks the vector entry point; players default as in make.
        default = gymnasium.make_vec(env_id, num_envs=2)
        assert isinstance(default, CardtableVectorEnv) and default.vector_env.game_id == game_id
        assert default.vector_env.players == spec.kwargs["players"]
    options = gymnasium.make_vec(
        "cardtable/goofspiel-v0", num_envs=3, opponents="greedy", reward="margin", num_cards=4
    )
    assert "opponents='greedy' reward='margin' options={'num_cards': 4}" in repr(options)
    # The sync mode still vectorizes the single-seat environment.
    sync = gymnasium.make_vec("cardtable/goofspiel-v0", num_envs=2, vectorization_mode="sync")
    assert isinstance(sync, gymnasium.vector.SyncVectorEnv)
    assert sync.reset(seed=0)[0].shape == (2, *sync.single_observation_space.shape)


# ----- OpenSpiel -----


@pytest.mark.parametrize(("game_id", "config"), GAMES, ids=IDS)
def test_openspiel_random_sim_test_and_mcts(game_id: str, config: dict[str, Any]) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import mcts

    from cardtable.adapters.openspiel import load_game

    players, options = split(config)
    game = load_game(game_id, players=players, **options)
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = mcts.MCTSBot(game, 2.0, 4, evaluator)
    state = game.new_initial_state()
    rng = np.random.RandomState(1)
    for _ in range(3):
        while state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        if state.is_terminal():
            break
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_openspiel_parameters_and_observations() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import cardtable
    from cardtable.adapters.openspiel import load_game, register

    name = register("trafficars")
    game = pyspiel.load_game(name, {"players": 3, "max_cars": -1, "lanes": 2})
    assert game.get_parameters()["max_cars"] == -1
    assert load_game("trafficars", players=3, max_cars=None).num_players() == 3
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    ours = cardtable.make("trafficars", players=3, max_cars=None, lanes=2).new_state()
    for action in state.history():
        ours.apply(action)
    assert state.observation_tensor(0) == ours.observation_tensor(0).tolist()
    assert state.observation_string(1) != state.observation_string(0)
    with pytest.raises(InvalidOptionError):
        load_game("chess", players=2)
    with pytest.raises(InvalidOptionError):
        load_game("goofspiel", players=2, num_cards=0)
    with pytest.raises(InvalidOptionError):
        load_game("goofspiel", players=2, cards=5)
    with pytest.raises(InvalidOptionError):
        load_game("goofspiel", players=3)
    with pytest.raises(InvalidOptionError, match="num_cards"):
        load_game("goofspiel", players=2, num_cards="5")
    with pytest.raises(InvalidOptionError, match="highest_chooses_tide"):
        load_game("turn_the_tide", players=4, highest_chooses_tide=1)
    with pytest.raises(InvalidOptionError, match="max_number"):
        load_game("trafficars", players=3, max_number=None)
    assert load_game("turn_the_tide", players=4, rounds=-1).get_parameters()["rounds"] == -1
    # pyspiel.load_game checks names and types itself before the game is built: its own error.
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'cards'"):
        pyspiel.load_game(register("goofspiel"), {"players": 2, "cards": 5})
    with pytest.raises(InvalidOptionError):
        pyspiel.load_game(register("goofspiel"), {"players": 2, "num_cards": 0})


@pytest.mark.parametrize("backend", ["reference", "rust"])
def test_openspiel_load_game_refuses_a_backend(backend: str) -> None:
    """``backend`` passed cardtable's check (``make`` takes it) and then failed in pyspiel."""
    pytest.importorskip("pyspiel")
    from cardtable.adapters.openspiel import load_game

    with pytest.raises(InvalidOptionError, match="unknown option 'backend'"):
        load_game("goofspiel", players=2, backend=backend)


def test_openspiel_information_states_are_refused_with_the_package_error() -> None:
    """A bare ValueError before; the package's error is a ValueError too (OpenSpiel's Python
    games raise ValueError for an observer they do not provide)."""
    pytest.importorskip("pyspiel")
    from cardtable.adapters.openspiel import load_game

    state = load_game("goofspiel", players=2, num_cards=3).new_initial_state()
    for read in (state.information_state_string, state.information_state_tensor):
        with pytest.raises(InvalidOptionError, match="not information states"):
            read(0)
    assert state.observation_string(0)


def test_openspiel_takes_numpy_integers() -> None:
    pytest.importorskip("pyspiel")
    from cardtable.adapters.openspiel import load_game

    game = load_game("goofspiel", players=np.int64(2), num_cards=np.int64(3))  # type: ignore[arg-type]
    assert game.get_parameters() == {"players": 2, "num_cards": 3}
    tide = load_game("turn_the_tide", players=4, rounds=np.int8(-1))
    assert tide.get_parameters()["rounds"] == -1
    cars = load_game("trafficars", players=3, max_cars=np.int32(2))
    assert cars.get_parameters()["max_cars"] == 2
    with pytest.raises(InvalidOptionError):
        load_game("goofspiel", players=2, num_cards=np.float64(3))


_UNPICKLE = """
import pickle, sys
game, state = pickle.loads(sys.stdin.buffer.read())
print(game.get_parameters(), state.history(), state.get_game().get_parameters())
"""


def test_openspiel_games_and_states_pickle_into_another_process() -> None:
    pytest.importorskip("pyspiel")
    from cardtable.adapters.openspiel import load_game

    game = load_game("trafficars", players=3, max_cars=None, lanes=2)
    copy = pickle.loads(pickle.dumps(game))
    assert type(copy) is type(game) and copy.get_parameters() == game.get_parameters()
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(state.legal_actions()[0])
    again = pickle.loads(pickle.dumps(state))
    assert again.history() == state.history() and str(again) == str(state)
    data = pickle.dumps((game, state))
    run = subprocess.run(
        [sys.executable, "-c", _UNPICKLE], input=data, capture_output=True, check=False
    )
    assert run.returncode == 0, run.stderr.decode()
    params = game.get_parameters()
    assert run.stdout.decode().strip() == f"{params} {state.history()} {params}"
