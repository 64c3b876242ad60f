"""`cardtable.VectorEnv`: shapes, seeds, autoreset, rewards and errors (docs/learning.md)."""

from __future__ import annotations

import re
import sys
import types
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, reject
from hypothesis import strategies as st

import cardtable
from cardtable import IllegalActionError, InvalidOptionError, InvalidStateError, VectorEnv, _core
from cardtable._rng import derive_seed
from cardtable.analysis.balance import default_bot
from cardtable.bots import BuiltinBot
from cardtable.testing import game_configs
from tests.configs import CONFIGS
from tests.walk import apply_and_observe, seat_bots

FIRST = [(g, configs[0]) for g, configs in CONFIGS.items()]
FIRST_IDS = [g for g, _ in FIRST]


def random_actions(rng: np.random.Generator, mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """A random legal action per row (0 where nothing is legal: an env that just ended)."""
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask], np.int64)


def rollout(env: VectorEnv, steps: int, seed: int = 0) -> list[tuple[Any, ...]]:
    rng = np.random.default_rng(seed)
    obs, info = env.reset()
    out: list[tuple[Any, ...]] = [(obs, info)]
    for _ in range(steps):
        result = env.step(random_actions(rng, info["action_mask"]))
        out.append(result)
        obs, info = result[0], result[-1]
    return out


@pytest.mark.parametrize(("game_id", "config"), FIRST, ids=FIRST_IDS)
def test_reset_and_step_shapes(game_id: str, config: dict[str, Any]) -> None:
    env = VectorEnv(game_id, 5, **config)
    n, shape, actions = 5, env.observation_shape, env.num_actions
    obs, info = env.reset(seed=3)
    assert obs.shape == (n, *shape) and obs.dtype == np.float32
    assert info["action_mask"].shape == (n, actions) and info["action_mask"].dtype == np.bool_
    assert (info["seat"] == 0).all() and info["action_mask"].any(axis=1).all()
    rng = np.random.default_rng(0)
    obs, rewards, terminated, truncated, info = env.step(random_actions(rng, info["action_mask"]))
    assert obs.shape == (n, *shape)
    assert rewards.shape == (n,) and rewards.dtype == np.float32
    assert terminated.dtype == np.bool_ and truncated.dtype == np.bool_ and not truncated.any()
    assert info["rewards"].shape == (n, config["players"])
    assert info["game_index"].shape == (n,) and info["autoreset"].shape == (n,)


@pytest.mark.parametrize(("game_id", "config"), FIRST, ids=FIRST_IDS)
def test_envs_play_the_seeded_games(game_id: str, config: dict[str, Any]) -> None:
    """With every seat an agent, env i's game k is ``new_state(seed=derive(derive(s, i), k))``."""
    seed, n = 11, 3
    env = VectorEnv(game_id, n, seed=seed, agent_seats="all", **config)
    game = cardtable.make(game_id, **config)
    states = [game.new_state(seed=derive_seed(derive_seed(seed, i), 0)) for i in range(n)]
    rng = np.random.default_rng(1)
    obs, info = env.reset()
    steps = 150 if game_id == "deep_regrets" else 400
    for _ in range(steps):
        for i, state in enumerate(states):
            if info["autoreset"][i]:
                k = int(info["game_index"][i])
                states[i] = state = game.new_state(seed=derive_seed(derive_seed(seed, i), k))
            seat = int(info["seat"][i])
            if not state.is_terminal:
                assert state.current_player == seat
                assert np.flatnonzero(info["action_mask"][i]).tolist() == state.legal_actions()
            np.testing.assert_array_equal(obs[i], state.observation_tensor(seat))
        actions = random_actions(rng, info["action_mask"])
        for i, state in enumerate(states):
            if not state.is_terminal:
                state.apply(int(actions[i]))
        obs, rewards, terminated, _, info = env.step(actions)
        for i, state in enumerate(states):
            if info["autoreset"][i]:
                continue  # the env started its next game; the loop above follows it
            assert terminated[i] == state.is_terminal
            if terminated[i]:
                winners = state.winners
                expected = [
                    (1.0 if len(winners) == 1 else 0.0) if s in winners else -1.0
                    for s in range(game.players)
                ]
                assert info["rewards"][i].tolist() == expected
                assert rewards[i] == expected[int(info["seat"][i])]


def test_runs_are_deterministic_and_independent_of_threads() -> None:
    runs = [
        rollout(VectorEnv("trafficars", 64, players=3, seed=5, threads=t), 60) for t in (1, 2, None)
    ]
    for steps in zip(*runs, strict=True):
        for parts in zip(*steps, strict=True):
            if isinstance(parts[0], dict):
                for key in parts[0]:
                    for other in parts[1:]:
                        np.testing.assert_array_equal(parts[0][key], other[key])
            else:
                for other in parts[1:]:
                    np.testing.assert_array_equal(parts[0], other)


def test_autoreset_next_step_semantics() -> None:
    env = VectorEnv("goofspiel", 4, players=2, seed=2, num_cards=3)
    rng = np.random.default_rng(0)
    _, info = env.reset()
    ended = 0
    for _ in range(30):
        before = info
        _, rewards, terminated, _, info = env.step(random_actions(rng, before["action_mask"]))
        for i in range(4):
            if terminated[i]:
                ended += 1
                assert rewards[i] in (-1.0, 0.0, 1.0)
                assert not info["action_mask"][i].any()  # the final observation has no moves
        # The step after the end ignores the action (any value) and starts the next game.
        if terminated.any():
            actions = random_actions(rng, info["action_mask"])
            actions[terminated] = 10**6
            previous = info["game_index"].copy()
            _obs, rewards, terminated2, _, info = env.step(actions)
            assert (info["autoreset"] == terminated).all()
            assert (info["game_index"][terminated] == previous[terminated] + 1).all()
            assert (rewards[terminated] == 0).all() and not terminated2[terminated].any()
            assert info["action_mask"][terminated].any(axis=1).all()
    assert ended > 0


def test_reset_with_and_without_seed() -> None:
    env = VectorEnv("turn_the_tide", 2, players=3, seed=1)
    first, _ = env.reset()
    nxt, info = env.reset()
    assert (info["game_index"] == 1).all() and not np.array_equal(first, nxt)
    again, info = env.reset(seed=1)
    assert (info["game_index"] == 0).all() and np.array_equal(first, again)


def test_one_agent_seat_against_bots() -> None:
    env = VectorEnv("turn_the_tide", 16, players=4, agent_seats=(2,), opponents="greedy")
    for step in rollout(env, 80):
        info = step[-1]
        assert (info["seat"] == 2).all()
    mixed = VectorEnv(
        "turn_the_tide", 4, players=4, agent_seats=[1, 3], opponents=["greedy", "random"]
    )
    for step in rollout(mixed, 40):
        assert set(step[-1]["seat"].tolist()) <= {1, 3}


def test_score_rewards() -> None:
    env = VectorEnv("trafficars", 32, players=3, agent_seats="all", reward="score")
    saw = False
    for step in rollout(env, 120)[1:]:
        _, rewards, terminated, _, info = step
        for i in np.flatnonzero(terminated):
            saw = True
            row = info["rewards"][i]
            assert (row > 0).sum() <= 1  # only a seat that beats everyone has a positive margin
            assert rewards[i] == row[info["seat"][i]]
    assert saw


@pytest.mark.parametrize(
    "actions",
    [
        [0, 0],  # wrong shape
        [[0, 0, 0]],
        [0.0, 1.0, 2.0],  # floats
        [True, False, True],
        ["a", "b", "c"],
        [-1, 0, 0],
        [10**6, 0, 0],
    ],
)
def test_bad_actions_raise_and_change_nothing(actions: Any) -> None:
    env = VectorEnv("goofspiel", 3, players=2, seed=8)
    _obs, info = env.reset()
    legal = random_actions(np.random.default_rng(0), info["action_mask"])
    with pytest.raises(IllegalActionError):
        env.step(np.asarray(actions) if not isinstance(actions[0], str) else actions)
    after = env.step(legal)
    twin = VectorEnv("goofspiel", 3, players=2, seed=8)
    twin.reset()
    expected = twin.step(legal)
    np.testing.assert_array_equal(after[0], expected[0])


def test_a_bool_in_an_action_list_is_refused() -> None:
    """NumPy reads ``[True, 1, 1]`` as the ints ``[1, 1, 1]``; a bool is never an int
    (docs/errors.md), so the list is refused, as an array of bools already was."""
    env = VectorEnv("goofspiel", 3, players=2, seed=8)
    _obs, info = env.reset()
    legal = random_actions(np.random.default_rng(0), info["action_mask"]).tolist()
    with pytest.raises(IllegalActionError, match="not bools"):
        env.step([True, *legal[1:]])


def test_timedelta_actions_and_env_indices_are_refused() -> None:
    """NumPy counts timedelta64 among its integer types: such arrays were read as ints."""
    env = VectorEnv("goofspiel", 2, players=2, seed=8)
    _obs, info = env.reset()
    legal = random_actions(np.random.default_rng(0), info["action_mask"])
    with pytest.raises(IllegalActionError, match="timedelta64"):
        env.step(legal.astype("timedelta64[D]"))
    with pytest.raises(InvalidOptionError, match="timedelta64"):
        env.observe(np.array([1], "m8[s]"))
    with pytest.raises(InvalidOptionError, match="timedelta64"):
        env.observe(seats=np.array([0, 1], "m8[s]"))
    assert not info["autoreset"].any() and env.step(legal)[-1]["game_index"].tolist() == [0, 0]


def test_an_action_list_with_an_int_beyond_64_bits_is_out_of_range() -> None:
    """Such a list became an object (or float) array: refused as "not integers"."""
    env = VectorEnv("goofspiel", 2, players=2, seed=8)
    env.reset()
    for actions in ([2**70, 0], [2**63, -1]):
        with pytest.raises(IllegalActionError, match=f"actions out of range: {actions[0]}"):
            env.step(actions)
    with pytest.raises(InvalidOptionError, match="envs out of range"):
        env.observe([-(2**64)])


@pytest.mark.parametrize(
    "convert",
    [
        lambda a: np.repeat(a, 2)[::2],  # strided, not contiguous
        lambda a: a.astype(">i8"),  # int64 in the other byte order
        lambda a: a.astype(np.int32),
        lambda a: a.tolist(),
    ],
    ids=["strided", "byteswapped", "int32", "list"],
)
def test_actions_in_other_layouts_play_like_int64(convert: Any) -> None:
    """Only a C-contiguous native int64 array takes the quick path; every other integer layout
    is converted and plays the same."""
    plain, other = (VectorEnv("goofspiel", 3, players=2, seed=8) for _ in range(2))
    _, info = plain.reset()
    other.reset()
    rng = np.random.default_rng(1)
    for _ in range(30):
        legal = random_actions(rng, info["action_mask"]).astype(np.int64)
        *expected, info = plain.step(legal)
        *got, other_info = other.step(convert(legal))
        for e, g in zip(expected, got, strict=True):
            np.testing.assert_array_equal(e, g)
        np.testing.assert_array_equal(info["action_mask"], other_info["action_mask"])


def test_illegal_action_id_raises() -> None:
    env = VectorEnv("goofspiel", 2, players=2, seed=8)
    _, info = env.reset()
    illegal = np.array(
        [int(np.flatnonzero(~m)[0]) if (~m).any() else 99 for m in info["action_mask"]]
    )
    with pytest.raises(IllegalActionError):
        env.step(illegal)


def test_step_before_reset() -> None:
    env = VectorEnv("goofspiel", 2, players=2)
    with pytest.raises(InvalidStateError):
        env.step(np.zeros(2, np.int64))


@pytest.mark.parametrize(
    "kwargs",
    [
        {"num_envs": 0},
        {"num_envs": -3},
        {"num_envs": 2.0},
        {"num_envs": True},
        {"agent_seats": (4,)},
        {"agent_seats": (0, 0)},
        {"agent_seats": ()},
        {"agent_seats": "some"},
        {"opponents": "nobody"},
        {"opponents": ["random"]},
        {"opponents": [1, 2, 3]},
        {"reward": "points"},
        {"seed": -1},
        {"seed": 2**64},
        {"threads": 0},
        {"players": 9},
        {"rounds": 0},
    ],
)
def test_bad_configurations_raise(kwargs: dict[str, Any]) -> None:
    args: dict[str, Any] = {"num_envs": 2, "players": 4, **kwargs}
    num_envs = args.pop("num_envs")
    with pytest.raises(InvalidOptionError):
        VectorEnv("turn_the_tide", num_envs, **args)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("agent_seats", b"\x00"),  # read as the seats (0,)
        ("agent_seats", bytearray(b"\x01")),
        ("agent_seats", {0: 1}),  # read as its keys
        ("agent_seats", {0}),
        ("opponents", {"greedy": "random"}),
        ("opponents", {"random"}),
    ],
)
def test_agent_seats_and_opponents_must_be_sequences(name: str, value: Any) -> None:
    with pytest.raises(InvalidOptionError, match=f"{name}.*must be a sequence"):
        VectorEnv("goofspiel", 2, players=2, **{name: value})


@pytest.mark.parametrize("num_envs", [0, 2**64])
def test_num_envs_out_of_range_names_its_range(num_envs: int) -> None:
    """2**64 was refused as "must be an int in 0..=2**64 - 1", though 0 is refused too; the range
    is written as every range of the package's messages, ``lo..=hi``."""
    message = re.escape(f"num_envs must be in 1..=18446744073709551615, got {num_envs}")
    with pytest.raises(InvalidOptionError, match=message):
        VectorEnv("goofspiel", num_envs, players=2)


def test_readme_reinforcement_learning_examples_run(capsys: pytest.CaptureFixture[str]) -> None:
    """The code blocks of the README's "Reinforcement learning" section run as pasted."""
    pytest.importorskip("pettingzoo")
    pytest.importorskip("gymnasium")
    pytest.importorskip("pyspiel")
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Reinforcement learning", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL)
    assert len(blocks) == 3
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {"__name__": "readme"})
    assert "mean reward" in capsys.readouterr().out


def test_reused_buffers_give_the_same_results_in_the_same_arrays() -> None:
    fresh = rollout(VectorEnv("turn_the_tide", 6, players=4, seed=4), 40)
    env = VectorEnv("turn_the_tide", 6, players=4, seed=4, reuse_buffers=True)
    rng = np.random.default_rng(0)
    obs, info = env.reset()
    first_obs, first_mask = obs, info["action_mask"]
    assert np.array_equal(obs, fresh[0][0])
    for expected in fresh[1:]:
        result = env.step(random_actions(rng, info["action_mask"]))
        obs, info = result[0], result[-1]
        assert obs is first_obs and info["action_mask"] is first_mask
        for got, want in zip(result[:-1], expected[:-1], strict=True):
            assert np.array_equal(got, want)
        for key in want_keys(expected[-1]):
            assert np.array_equal(info[key], expected[-1][key])


def test_reused_truncated_array_is_rewritten_at_every_call() -> None:
    """The shared truncated array was never written: a value set in it came back every step."""
    env = VectorEnv("goofspiel", 2, players=2, seed=4, reuse_buffers=True)
    rng = np.random.default_rng(0)
    _obs, info = env.reset()
    for _ in range(3):
        *_, truncated, info = env.step(random_actions(rng, info["action_mask"]))
        assert not truncated.any()
        truncated[:] = True  # the caller's write, undone by the next call


def test_an_own_reused_output_array_may_be_passed_as_actions() -> None:
    """``env.step(info["seat"])`` with reused buffers raised "the arrays of out are not writeable
    or are in use": the actions are now read from a copy, as without reused buffers."""
    args: dict[str, Any] = {"players": 2, "seed": 4, "agent_seats": "all", "num_cards": 3}
    reused = VectorEnv("goofspiel", 3, reuse_buffers=True, **args)
    fresh = VectorEnv("goofspiel", 3, **args)
    _obs, info = reused.reset()
    _obs, expected_info = fresh.reset()
    # Seat 0 plays card 0 (its seat), then seat 1 card 0 (its game's number, 0): both legal.
    for key in ("seat", "game_index"):
        got = reused.step(info[key])
        expected = fresh.step(expected_info[key])
        for g, e in zip(got[:-1], expected[:-1], strict=True):
            np.testing.assert_array_equal(g, e)
        info, expected_info = got[-1], expected[-1]
        np.testing.assert_array_equal(info["action_mask"], expected_info["action_mask"])
    with pytest.raises(IllegalActionError, match="not legal"):
        reused.step(info["game_index"] + 7)  # a fresh array: the usual actions error


def want_keys(info: dict[str, Any]) -> list[str]:
    return sorted(info)


def test_core_env_writes_into_given_arrays_and_checks_them() -> None:
    game = _core.Game("goofspiel", 2, {})
    core = _core.VectorEnv(
        game, num_envs=3, seed=1, agent_seats=[0], opponents=["random"], reward="win"
    )
    out = core.reset()
    again = core.reset(1, out)
    assert again is out
    bad = dict(out, obs=out["obs"].astype(np.float64))
    with pytest.raises(InvalidOptionError, match="obs"):
        core.step(np.zeros(3, np.int64), bad)
    short = dict(out, rewards=np.zeros(2, np.float32))
    actions = np.array([np.flatnonzero(m)[0] for m in out["action_mask"]], np.int64)
    with pytest.raises(InvalidOptionError, match="output buffers"):
        core.step(actions, short)
    # Nothing was applied: the same step still works.
    assert core.step(actions, out) is out


def test_core_output_buffers_are_views_in_a_read_only_mapping() -> None:
    """``output_buffers()`` gives what ``reuse_buffers=True`` writes into: one mapping, always the
    same, of views of one array per dtype (three borrows a call instead of eight). A plain dict
    of arrays takes the general path; both get the same values."""
    game = _core.Game("turn_the_tide", 4, {})

    def make() -> _core.VectorEnv:
        return _core.VectorEnv(
            game, num_envs=5, seed=3, agent_seats=[0, 1, 2, 3], opponents=[], reward="win"
        )

    packed_env, plain_env = make(), make()
    packed = packed_env.output_buffers()
    assert packed_env.output_buffers() is packed
    with pytest.raises(TypeError):
        packed["obs"] = np.zeros(1, np.float32)  # type: ignore[index]
    bases = {id(array.base) for array in packed.values()}
    assert len(bases) == 3 and id(None) not in bases
    assert packed_env.reset(None, packed) is packed
    plain = plain_env.reset()
    rng = np.random.default_rng(0)

    def same() -> None:
        for key, array in packed.items():
            assert array.dtype == plain[key].dtype and np.array_equal(array, plain[key]), key

    for _ in range(40):
        same()
        actions = random_actions(rng, packed["action_mask"])
        assert packed_env.step(actions, packed) is packed
        assert plain_env.step(actions, plain) is plain
    same()
    # An array the step cannot write is an error, and nothing is applied.
    actions = random_actions(rng, packed["action_mask"])
    base = packed["seat"].base
    assert base is not None
    base.flags.writeable = False
    with pytest.raises(InvalidOptionError, match="not writeable"):
        packed_env.step(actions, packed)
    # Nothing was applied: the same views in a plain dict (the general path) take the step.
    packed_env.step(actions, dict(packed))
    plain_env.step(actions, plain)
    same()


@pytest.mark.parametrize(("game_id", "config"), FIRST, ids=FIRST_IDS)
@pytest.mark.parametrize("reuse", [False, True])
def test_observations_on_demand_equal_the_stepped_ones(
    game_id: str, config: dict[str, Any], reuse: bool
) -> None:
    """``observations=False`` plays the same games; ``observe()`` gives the same tensors."""
    with_obs = VectorEnv(game_id, 5, seed=2, agent_seats="all", **config)
    lazy = VectorEnv(
        game_id,
        5,
        seed=2,
        agent_seats="all",
        observations=False,
        reuse_buffers=reuse,
        threads=2,
        **config,
    )
    rng = np.random.default_rng(1)
    obs, info = with_obs.reset()
    empty, lazy_info = lazy.reset()
    assert empty.shape == (5, 0) and empty.dtype == np.float32
    for _ in range(60):
        assert np.array_equal(lazy.observe(), obs)
        assert np.array_equal(lazy_info["action_mask"], info["action_mask"])
        assert np.array_equal(lazy_info["seat"], info["seat"])
        actions = random_actions(rng, info["action_mask"])
        obs, rewards, terminated, _, info = with_obs.step(actions)
        empty, lazy_rewards, lazy_terminated, _, lazy_info = lazy.step(actions)
        assert empty.shape == (5, 0)
        assert np.array_equal(lazy_rewards, rewards)
        assert np.array_equal(lazy_terminated, terminated)
        for key in ("rewards", "autoreset", "game_index"):
            assert np.array_equal(lazy_info[key], info[key])
    # Some envs, repeated and in any order; the default env also answers observe().
    assert np.array_equal(lazy.observe([3, 0, 3]), obs[[3, 0, 3]])
    assert np.array_equal(with_obs.observe(np.array([1], np.uint8)), obs[[1]])
    assert lazy.observe([]).shape == (0, *lazy.observation_shape)


def test_observe_other_seats_and_into_given_arrays() -> None:
    env = VectorEnv("turn_the_tide", 4, players=4, seed=5, observations=False)
    env.reset()
    game = cardtable.make("turn_the_tide", players=4)
    seeds = [derive_seed(derive_seed(5, i), 0) for i in range(4)]
    states = [game.new_state(seed=s) for s in seeds]
    seats = np.array([1, 2, 3, 0])
    expected = np.stack([s.observation_tensor(int(q)) for s, q in zip(states, seats, strict=True)])
    assert np.array_equal(env.observe(seats=seats), expected)
    out = np.full((2, *env.observation_shape), np.nan, np.float32)
    assert env.observe([2, 0], seats=[3, 1], out=out) is out
    assert np.array_equal(out, expected[[2, 0]])


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"envs": [4]}, InvalidOptionError),
        ({"envs": [-1]}, InvalidOptionError),
        ({"envs": [0.5]}, InvalidOptionError),
        ({"envs": [[0]]}, InvalidOptionError),
        ({"envs": [True]}, InvalidOptionError),
        ({"seats": [4, 0, 0, 0]}, InvalidOptionError),
        ({"seats": [0]}, InvalidOptionError),
        ({"out": np.zeros((4, 3), np.float32)}, InvalidOptionError),
        ({"out": np.zeros((4, 522), np.float64)}, InvalidOptionError),
        # Fortran order: the engine used to fill it as if it were C order, scrambling the rows.
        ({"out": np.zeros((4, 522), np.float32, order="F")}, InvalidOptionError),
        # NumPy reads [True, 0, 0, 0] as ints; a bool is never an int (docs/errors.md).
        ({"seats": [True, 0, 0, 0]}, InvalidOptionError),
        ({"envs": (0, np.True_)}, InvalidOptionError),
    ],
)
def test_observe_rejects_bad_arguments(kwargs: dict[str, Any], error: type[Exception]) -> None:
    env = VectorEnv("turn_the_tide", 4, players=4, observations=False)
    with pytest.raises(InvalidStateError):
        env.observe()
    env.reset()
    with pytest.raises(error):
        env.observe(**kwargs)


def test_observations_option_must_be_a_bool() -> None:
    with pytest.raises(InvalidOptionError):
        VectorEnv("goofspiel", 2, players=2, observations="lazy")  # type: ignore[arg-type]


@pytest.mark.parametrize("game_id", list(CONFIGS))
@given(data=st.data(), seed=st.integers(0, 2**64 - 1))
def test_envs_play_the_per_step_games_under_drawn_options(
    game_id: str, data: st.DataObject, seed: int
) -> None:
    """Option sets, agent seats and built-in opponents that Hypothesis draws: env ``i``'s game
    ``k`` is the per-step game seeded ``derive(derive(s, i), k)`` with each opponent seated on its
    batch stream (``tests.walk.seat_bots``), and the env shows its seat, legal actions and ends as
    that game does."""
    config = data.draw(game_configs(game_id), label="config")
    n = config["players"]
    agents = data.draw(st.sets(st.integers(0, n - 1), min_size=1), label="agent seats")
    others = [p for p in range(n) if p not in agents]
    # The heuristic bots (`GameInfo.bots`; the search players are tested in tests/test_search.py).
    names = list(next(g for g in cardtable.games() if g.id == game_id).bots)
    opponents = data.draw(
        st.lists(st.sampled_from(names), min_size=len(others), max_size=len(others)),
        label="opponents",
    )
    envs = 2
    env = VectorEnv(
        game_id,
        envs,
        seed=seed,
        agent_seats=sorted(agents),
        opponents=opponents,
        observations=False,
        **config,
    )
    game = cardtable.make(game_id, **config)

    def start(i: int, k: int) -> tuple[cardtable.StateProtocol, dict[int, BuiltinBot]]:
        """Game ``k`` of env ``i``, played on to its first agent decision."""
        game_seed = derive_seed(derive_seed(seed, i), k)
        bots = seat_bots(game, dict(zip(others, opponents, strict=True)), game_seed)
        state = game.new_state(seed=game_seed)
        to_agent(state, bots)
        return state, bots

    def to_agent(state: cardtable.StateProtocol, bots: dict[int, BuiltinBot]) -> None:
        while not state.is_terminal and state.current_player not in agents:
            apply_and_observe(state, bots[state.current_player].act(state), bots)

    def after_skips(
        i: int, first: int, k: int
    ) -> tuple[cardtable.StateProtocol, dict[int, BuiltinBot]]:
        """Game ``k`` of env ``i``; games ``first..k-1`` were skipped by the env, so each must
        end before any agent seat decides (docs/learning.md)."""
        for j in range(first, k):
            assert start(i, j)[0].is_terminal, (config, i, j)
        return start(i, k)

    rng = np.random.default_rng(0)
    try:
        _, info = env.reset()
    except InvalidStateError as err:
        # A table where the agent seats never decide (two cards of the memory game, both taken in
        # seat 0's first turn): the env says so, and the per-step games agree.
        assert "ended before any agent seat had to decide" in str(err)
        assert all(start(i, k)[0].is_terminal for i in range(envs) for k in range(3))
        reject()
    episodes = [int(k) for k in info["game_index"]]
    games = [after_skips(i, 0, episodes[i]) for i in range(envs)]
    for _ in range(60):
        for i, (state, _) in enumerate(games):
            if not state.is_terminal:
                assert int(info["seat"][i]) == state.current_player
                assert np.flatnonzero(info["action_mask"][i]).tolist() == state.legal_actions()
        actions = random_actions(rng, info["action_mask"])
        for i, (state, bots) in enumerate(games):
            if not state.is_terminal:
                apply_and_observe(state, int(actions[i]), bots)
                to_agent(state, bots)
        try:
            _, _, terminated, _, info = env.step(actions)
        except InvalidStateError as err:
            # The same table met during an autoreset (a 3-card memory game whose first deal
            # reached the agent seat, and whose next ones end before it): the env says which.
            failed = re.fullmatch(
                rf"{game_id}: env (\d+): 1000 games in a row ended before any agent seat had to "
                r"decide.*",
                str(err),
                re.DOTALL,
            )
            assert failed, str(err)
            i = int(failed[1])
            assert all(start(i, episodes[i] + j)[0].is_terminal for j in range(1, 4)), config
            reject()
        for i, (state, _) in enumerate(games):
            if info["autoreset"][i]:
                k = int(info["game_index"][i])
                games[i] = after_skips(i, episodes[i] + 1, k)
                episodes[i] = k
            else:
                assert bool(terminated[i]) == state.is_terminal, (config, i)


@pytest.mark.parametrize("reuse", [False, True])
def test_a_failed_reset_leaves_no_half_started_envs(reuse: bool) -> None:
    """A reset that fails part-way (here: every game of the memory game with two cars ends
    before seat 1 decides) leaves no env to step or observe until a reset succeeds."""
    env = VectorEnv(
        "trafficars_memory", 2, players=2, agent_seats=(1,), max_number=2, reuse_buffers=reuse
    )
    for _ in range(2):
        with pytest.raises(InvalidStateError, match="games in a row ended"):
            env.reset()
        with pytest.raises(InvalidStateError, match="call reset"):
            env.observe()
        with pytest.raises(InvalidStateError, match="call reset"):
            env.step([0, 0])


def test_rotating_seats_turn_the_seating_game_by_game() -> None:
    """``rotate_seats``: in env i's game k whoever the configuration seats at s sits at
    (s + i + k) % players, the agent and its opponents alike, and each bot is the one a run
    seats there (seeded for its seat: every decision of a bot is that per-step bot's)."""
    n, seed, specs = 3, 2, {1: "greedy", 2: "random"}  # the configuration: the agent at 0
    env = VectorEnv(
        "turn_the_tide",
        3,
        players=n,
        seed=seed,
        agent_seats=0,
        opponents=["greedy", "random"],
        rotate_seats=True,
        keep_histories=True,
        rounds=1,
    )
    assert "rotate_seats=True" in repr(env)
    rng = np.random.default_rng(3)
    _, info = env.reset()
    finished: list[tuple[int, int, Any]] = []
    while len(finished) < 8:
        for row in np.flatnonzero(info["action_mask"].any(axis=1)):
            assert info["seat"][row] == (row + info["game_index"][row]) % n
        _, _, terminated, _, info = env.step(random_actions(rng, info["action_mask"]))
        for row in np.flatnonzero(terminated):
            finished.append((int(row), int(info["game_index"][row]), env.states([row])[0]))
    assert len({(i + k) % n for i, k, _ in finished}) == n  # the agent sat in every seat
    for i, k, played in finished:
        game_seed = derive_seed(derive_seed(seed, i), k)
        bots = {
            (s + i + k) % n: cardtable.bot(
                env.game, spec, (s + i + k) % n, seed=derive_seed(game_seed, (s + i + k) % n + 1)
            )
            for s, spec in specs.items()
        }
        replayed = env.game.new_state()
        for action in played.history:
            seat = replayed.current_player
            if seat in bots:
                assert bots[seat].act(replayed) == action, (i, k)
            replayed.apply(action)
            for bot in bots.values():
                bot.observe(replayed)
        assert replayed.to_dict()["state"] == played.to_dict()["state"]


# ----- states(): the envs' games as per-step states -----


@pytest.mark.parametrize(("game_id", "config"), FIRST, ids=FIRST_IDS)
def test_states_are_the_envs_games_with_their_histories(
    game_id: str, config: dict[str, Any]
) -> None:
    """Against built-in opponents, every state is at the env's seat and observation, its history
    replays to it in both backends, and it is a copy (playing it on leaves the env alone)."""
    opponents = [default_bot(game_id), "random"][: config["players"] - 1]
    opponents += ["random"] * (config["players"] - 1 - len(opponents))
    env = VectorEnv(
        game_id, 3, seed=7, agent_seats=0, opponents=opponents, keep_histories=True, **config
    )
    reference = cardtable.make(game_id, backend="reference", **config)
    rng = np.random.default_rng(2)
    obs, info = env.reset()
    for _ in range(12):
        states = env.states()
        assert len(states) == 3
        for i, state in enumerate(states):
            seat = int(info["seat"][i])
            if not state.is_terminal:
                assert state.current_player == seat
                assert np.flatnonzero(info["action_mask"][i]).tolist() == state.legal_actions()
            np.testing.assert_array_equal(obs[i], state.observation_tensor(seat))
            assert env.game.state_from_dict(state.to_dict()).to_dict() == state.to_dict()
            replayed = reference.new_state()
            for action in state.history:
                replayed.apply(action)
            assert replayed.observation(seat) == state.observation(seat)
        played = states[0]
        if not played.is_terminal:
            played.apply(played.legal_actions()[0])
            np.testing.assert_array_equal(env.observe([0]), obs[:1])
        obs, _, _, _, info = env.step(random_actions(rng, info["action_mask"]))


@pytest.mark.parametrize(("game_id", "config"), FIRST, ids=FIRST_IDS)
def test_states_play_on_as_their_envs(game_id: str, config: dict[str, Any]) -> None:
    """With every seat an agent, a state given the env's action draws the env's chance outcomes:
    it is the env's state after the step (until the env starts its next game)."""
    env = VectorEnv(game_id, 4, seed=3, agent_seats="all", keep_histories=True, **config)
    rng = np.random.default_rng(5)
    _, info = env.reset()
    before = env.states()
    for _ in range(40):
        actions = random_actions(rng, info["action_mask"])
        ended = info["action_mask"].any(axis=1) == 0
        _, _, _, _, info = env.step(actions)
        after = env.states()
        for i in np.flatnonzero(~ended):
            before[i].apply(int(actions[i]))
            assert before[i].to_dict() == after[i].to_dict()
        before = after


def test_states_of_some_envs_and_search_on_them() -> None:
    env = VectorEnv("turn_the_tide", 3, players=3, seed=4, agent_seats=(1,), keep_histories=True)
    env.reset()
    some = env.states([2, 0, 2])
    assert [s.to_dict() for s in some] == [env.states()[i].to_dict() for i in (2, 0, 2)]
    batch = cardtable.search(env.game, some, "mcts:iterations=30", seed=1)
    by_hand = cardtable.bot(env.game, "mcts:iterations=30", 1, seed=derive_seed(1, 1))
    assert batch.actions[1] == by_hand.act(some[1])


@pytest.mark.parametrize(
    ("envs", "error", "match"),
    [
        ([3], InvalidOptionError, r"env 3 is out of range 0\.\.=2"),
        ([-1], InvalidOptionError, "env -1 is out of range"),
        ([0.5], InvalidOptionError, "integers"),
        ([[0]], InvalidOptionError, "one-dimensional"),
    ],
)
def test_states_rejects_bad_env_indices(envs: Any, error: type[Exception], match: str) -> None:
    env = VectorEnv("goofspiel", 3, players=2, keep_histories=True)
    env.reset()
    with pytest.raises(error, match=match):
        env.states(envs)


def test_states_and_observe_take_a_bool_mask_of_the_envs() -> None:
    env = VectorEnv("goofspiel", 4, players=2, seed=2, keep_histories=True)
    obs, _ = env.reset()
    mask = np.array([True, False, True, False])
    assert [s.to_dict() for s in env.states(mask)] == [s.to_dict() for s in env.states([0, 2])]
    np.testing.assert_array_equal(env.observe(mask), obs[mask])
    np.testing.assert_array_equal(
        env.observe(mask, seats=[1, 1]), env.observe([0, 2], seats=[1, 1])
    )
    with pytest.raises(InvalidOptionError, match=r"a mask of envs must have shape \(4,\)"):
        env.states(np.ones(3, dtype=np.bool_))
    with pytest.raises(InvalidOptionError, match="not bools"):  # a list of bools is no mask
        env.states([True, False, True, False])


def test_states_before_reset_and_after_a_failed_one() -> None:
    env = VectorEnv("goofspiel", 2, players=2, keep_histories=True)
    with pytest.raises(InvalidStateError, match=r"call reset\(\) before states"):
        env.states()
    broken = VectorEnv(
        "trafficars_memory", 2, players=2, agent_seats=(1,), max_number=2, keep_histories=True
    )
    with pytest.raises(InvalidStateError, match="games in a row ended"):
        broken.reset()
    with pytest.raises(InvalidStateError, match="call reset"):
        broken.states()
    plain = VectorEnv("goofspiel", 2, players=2)
    plain.reset()
    with pytest.raises(InvalidStateError, match="keep_histories=True"):
        plain.states()
    assert "keep_histories=True" in repr(env) and "keep_histories" not in repr(plain)


# ----- Gymnasium-style spaces, action_masks(), final scores, reward and seat spellings -----


@pytest.mark.parametrize(("game_id", "config"), FIRST, ids=FIRST_IDS)
def test_spaces_hold_the_observations_of_random_play(game_id: str, config: dict[str, Any]) -> None:
    pytest.importorskip("gymnasium")
    from gymnasium import spaces

    n = 6
    env = VectorEnv(game_id, n, seed=2, agent_seats="all", **config)
    single, action = env.single_observation_space, env.single_action_space
    assert isinstance(single, spaces.Box) and single.dtype == np.float32
    assert single.shape == env.observation_shape
    assert np.isfinite(single.low).all() and np.isfinite(single.high).all()
    assert isinstance(action, spaces.Discrete) and action.n == env.num_actions
    assert env.observation_space.shape == (n, *env.observation_shape)
    assert isinstance(env.action_space, spaces.MultiDiscrete)
    assert env.action_space.nvec.tolist() == [env.num_actions] * n
    assert env.single_observation_space is single  # made once
    low, high = cardtable.vector.observation_bounds(game_id)
    assert (single.low == low).all() and (single.high == high).all()
    for obs, *_ in rollout(env, 150 if game_id == "deep_regrets" else 300):
        assert obs in env.observation_space
        assert ((obs >= low) & (obs <= high)).all()


def test_goofspiel_tensors_lie_in_the_unit_interval() -> None:
    from cardtable.observations import TENSOR_BOUNDS, _tensor_bounds

    assert TENSOR_BOUNDS["goofspiel"] == (0.0, 1.0)  # declared in observations/goofspiel.py
    assert cardtable.vector.observation_bounds("goofspiel") == (0.0, 1.0)
    for bad in [(0, 1), (1.0, 0.0), (0.0,), [0.0, 1.0]]:
        module = types.ModuleType("cardtable.observations.bad")
        module.TENSOR_BOUNDS = bad  # type: ignore[attr-defined]
        with pytest.raises(TypeError, match=r"bad\.TENSOR_BOUNDS must be a pair of floats"):
            _tensor_bounds(module)
    env = VectorEnv("goofspiel", 32, players=2, seed=9, agent_seats="all", num_cards=4)
    for obs, *_ in rollout(env, 60):
        assert obs.min() >= 0.0 and obs.max() <= 1.0


def test_spaces_without_gymnasium_are_absent_with_a_clear_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "gymnasium", None)  # the import fails
    env = VectorEnv("goofspiel", 2, players=2)
    for name in ("single_observation_space", "single_action_space", "observation_space"):
        with pytest.raises(AttributeError, match=rf"VectorEnv\.{name} needs Gymnasium"):
            getattr(env, name)
    assert not hasattr(env, "action_space")
    env.reset()  # everything else works
    assert env.action_masks().shape == (2, 13)


@pytest.mark.parametrize("reuse", [False, True])
def test_action_masks_is_the_info_mask_itself(reuse: bool) -> None:
    env = VectorEnv("turn_the_tide", 5, players=4, seed=1, reuse_buffers=reuse)
    with pytest.raises(InvalidStateError, match="reset"):
        env.action_masks()
    rng = np.random.default_rng(0)
    _, info = env.reset()
    for _ in range(30):
        assert env.action_masks() is info["action_mask"]  # a view, not a copy
        *_, info = env.step(random_actions(rng, env.action_masks()))
    np.testing.assert_array_equal(env.action_masks(), info["action_mask"])


SHORT = [(g, {"players": 2, "max_number": 6} if g == "trafficars_memory" else c) for g, c in FIRST]
"""``FIRST`` with a memory layout whose games end within a few hundred random steps."""


@pytest.mark.parametrize(("game_id", "config"), SHORT, ids=FIRST_IDS)
@pytest.mark.parametrize("observations", [True, False])
def test_final_info_scores_equal_the_states_scores(
    game_id: str, config: dict[str, Any], observations: bool
) -> None:
    seed, n = 5, 4
    env = VectorEnv(game_id, n, seed=seed, agent_seats="all", observations=observations, **config)
    game = cardtable.make(game_id, **config)
    states = [game.new_state(seed=derive_seed(derive_seed(seed, i), 0)) for i in range(n)]
    rng = np.random.default_rng(3)
    _, info = env.reset()
    assert info["scores"].shape == (n, game.players) and not info["scores"].any()
    ended = 0
    for _ in range(150 if game_id == "deep_regrets" else 400):
        for e in np.flatnonzero(info["autoreset"]).tolist():
            states[e] = game.new_state(
                seed=derive_seed(derive_seed(seed, e), int(info["game_index"][e]))
            )
        actions = random_actions(rng, info["action_mask"])
        for i, state in enumerate(states):
            if not state.is_terminal:
                state.apply(int(actions[i]))
        _, _, terminated, _, info = env.step(actions)
        assert info["scores"].dtype == np.int64
        for i in range(n):
            if terminated[i]:
                assert info["scores"][i].tolist() == states[i].scores
                ended += 1
            else:
                assert not info["scores"][i].any()
    assert ended


def test_final_scores_of_games_against_bots_give_the_margin_and_the_winners() -> None:
    env = VectorEnv("trafficars", 16, players=3, seed=8, agent_seats=0, reward="margin")
    win = VectorEnv("trafficars", 16, players=3, seed=8, agent_seats=0, opponents="random")
    ended = 0
    for (_, rewards, terminated, _, info), (*_, won) in zip(
        rollout(env, 120)[1:], rollout(win, 120)[1:], strict=True
    ):
        for i in np.flatnonzero(terminated):
            ended += 1
            scores = -info["scores"][i]  # penalty cards: fewer is better
            assert rewards[i] == scores[0] - np.delete(scores, 0).max()
            winners = scores == scores.max()
            assert ((won["rewards"][i] >= 0) == winners).all()  # reward="win": winners are >= 0
    assert ended


def test_reused_buffers_reuse_the_scores_array() -> None:
    fresh = rollout(VectorEnv("goofspiel", 4, players=2, seed=3, num_cards=3), 20)
    env = VectorEnv("goofspiel", 4, players=2, seed=3, num_cards=3, reuse_buffers=True)
    rng = np.random.default_rng(0)
    _, info = env.reset()
    first = info["scores"]
    for expected in fresh[1:]:
        *_, info = env.step(random_actions(rng, info["action_mask"]))
        assert info["scores"] is first
        np.testing.assert_array_equal(info["scores"], expected[-1]["scores"])
    assert any(step[-1]["scores"].any() for step in fresh)


def test_margin_is_the_score_reward_under_its_documented_name() -> None:
    margin = VectorEnv("turn_the_tide", 8, players=4, seed=6, reward="margin")
    score = VectorEnv("turn_the_tide", 8, players=4, seed=6, reward="score")
    assert margin.reward == "margin" and score.reward == "score"
    assert "reward='margin'" in repr(margin)
    from_numpy = VectorEnv("goofspiel", 1, players=2, reward=np.str_("margin"))  # type: ignore[arg-type]
    assert from_numpy.reward == "margin" and type(from_numpy.reward) is str
    for a, b in zip(rollout(margin, 80), rollout(score, 80), strict=True):
        for x, y in zip(a[:-1], b[:-1], strict=True):
            np.testing.assert_array_equal(x, y)
        for key in a[-1]:
            np.testing.assert_array_equal(a[-1][key], b[-1][key])
    with pytest.raises(InvalidOptionError, match="'win' or 'margin'"):
        VectorEnv("goofspiel", 1, players=2, reward="points")  # type: ignore[arg-type]


@pytest.mark.parametrize("seat", [1, np.int64(1), np.uint8(1)])
def test_an_int_agent_seat_is_one_seat(seat: Any) -> None:
    one = VectorEnv("turn_the_tide", 4, players=4, seed=2, agent_seats=seat)
    listed = VectorEnv("turn_the_tide", 4, players=4, seed=2, agent_seats=(1,))
    assert one.agent_seats == (1,) and type(one.agent_seats[0]) is int
    for a, b in zip(rollout(one, 40), rollout(listed, 40), strict=True):
        np.testing.assert_array_equal(a[0], b[0])
        np.testing.assert_array_equal(a[-1]["seat"], b[-1]["seat"])


@pytest.mark.parametrize("seat", [True, 4, -1, 1.0])
def test_a_bad_single_agent_seat_is_refused(seat: Any) -> None:
    with pytest.raises(InvalidOptionError, match="agent"):
        VectorEnv("turn_the_tide", 2, players=4, agent_seats=seat)


def test_reset_takes_gymnasiums_signature() -> None:
    """``reset(seed=1, options=None)`` raised TypeError: Gymnasium's wrappers pass both."""
    env = VectorEnv("goofspiel", 3, players=2, num_cards=4)
    first, _ = env.reset(seed=1, options=None)
    again, _ = env.reset(1)  # by position, as before
    empty, info = env.reset(seed=1, options={})
    assert np.array_equal(first, again) and np.array_equal(first, empty)
    assert (info["game_index"] == 0).all()
    _obs, info = env.reset(options=None)  # no seed: every env's next game
    assert (info["game_index"] == 1).all()
    assert np.array_equal(env.reset(seed=np.uint64(1))[0], first)  # type: ignore[arg-type]


@pytest.mark.parametrize("options", [{"reset_mask": np.ones(3, bool)}, {"seed": 1}, [], "x", 0])
def test_reset_refuses_options_and_says_what_is_supported(options: Any) -> None:
    env = VectorEnv("goofspiel", 3, players=2, num_cards=4)
    with pytest.raises(InvalidOptionError, match=r"options=None or an empty dict only"):
        env.reset(options=options)
    with pytest.raises(InvalidStateError):  # the refused call started nothing
        env.step(np.zeros(3, np.int64))


@pytest.mark.parametrize("seeds", [[1, 2, 3], (1, 2, 3), np.arange(3), [7]])
def test_reset_refuses_per_env_seeds_and_asks_for_one_int(seeds: Any) -> None:
    env = VectorEnv("goofspiel", 3, players=2, num_cards=4)
    message = r"one seed for all the envs.*pass one int.*derive_seed\(derive_seed\(seed, i\), k\)"
    with pytest.raises(InvalidOptionError, match=message):
        env.reset(seed=seeds)


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, True, "1"])
def test_reset_refuses_bad_seeds(seed: Any) -> None:
    with pytest.raises(InvalidOptionError, match="seed must be an int"):
        VectorEnv("goofspiel", 2, players=2).reset(seed=seed)


def test_info_names_the_game_counter_game_index_not_episode() -> None:
    """``info["episode"]`` collided with the key that Gymnasium's ``RecordEpisodeStatistics``,
    CleanRL and SB3's ``VecMonitor`` fill with ``{"r", "l", "t"}``."""
    env = VectorEnv("goofspiel", 2, players=2, num_cards=3, reuse_buffers=True)
    _obs, info = env.reset(seed=0)
    assert set(info) == {"action_mask", "seat", "autoreset", "rewards", "game_index", "scores"}
    assert info["game_index"].dtype == np.int64 and info["game_index"].shape == (2,)
    assert (
        "episode" not in env.step(random_actions(np.random.default_rng(0), info["action_mask"]))[-1]
    )


def test_repr_shows_the_configuration() -> None:
    env = VectorEnv("turn_the_tide", 4, players=3, seed=2, opponents="greedy", reward="score")
    assert repr(env) == (
        "<VectorEnv turn_the_tide players=3 num_envs=4 agent_seats=(0,) opponents='greedy' "
        "reward='score'>"
    )
    mixed = VectorEnv(
        "turn_the_tide", 2, players=3, agent_seats=1, opponents=["random", "greedy"], rounds=2
    )
    assert repr(mixed) == (
        "<VectorEnv turn_the_tide players=3 num_envs=2 agent_seats=(1,) "
        "opponents=('random', 'greedy') reward='win' options={'rounds': 2}>"
    )
    default_options = VectorEnv("goofspiel", 1, players=2, num_cards=13)  # the default value
    assert "options" not in repr(default_options)
    every_seat = VectorEnv(
        "goofspiel", 1, players=2, agent_seats="all", observations=False, reuse_buffers=True
    )
    assert repr(every_seat) == (
        "<VectorEnv goofspiel players=2 num_envs=1 agent_seats=(0, 1) opponents=() "
        "reward='win' observations=False reuse_buffers=True>"
    )


def test_bad_reward_names_every_accepted_name() -> None:
    message = re.escape("reward must be 'win' or 'margin' ('score' is another name of 'margin')")
    with pytest.raises(InvalidOptionError, match=message + ".*'points'"):
        VectorEnv("goofspiel", 2, players=2, reward="points")  # type: ignore[arg-type]


def test_a_thread_waiting_for_a_busy_env_lets_every_other_thread_run() -> None:
    """A second thread calling an env that another was stepping waited for the engine's lock
    with the GIL held: every Python thread stood still (and Ctrl-C waited) until the first
    call ended. It now waits with the GIL released, as docs/errors.md says."""
    import itertools
    import threading
    import time

    env = VectorEnv(
        "goofspiel", 1, players=2, agent_seats=1, threads=1, opponents="mcts:iterations=100000"
    )
    started = time.perf_counter()
    env.reset()  # seat 0's search decides first: about as long as each reset below
    one_call = time.perf_counter() - started
    first = threading.Thread(target=env.reset)
    second = threading.Thread(target=env.reset)
    first.start()
    time.sleep(one_call / 5)  # the first holds the lock now
    ticks = [time.perf_counter()]
    second.start()  # returns once the second thread runs, which then waits for the lock
    while first.is_alive() or second.is_alive():
        time.sleep(0.01)
        ticks.append(time.perf_counter())
    first.join()
    second.join()
    longest = max(b - a for a, b in itertools.pairwise(ticks))
    assert longest < one_call / 2, (longest, one_call)


def test_unaligned_actions_are_copied_and_an_unaligned_out_is_named_so() -> None:
    """An int64 array at an odd byte offset is contiguous but not aligned: it was refused as
    "not a contiguous array"; it is now copied, as arrays of other dtypes are."""
    env = VectorEnv("goofspiel", 4, players=2, num_cards=4)
    env.reset(seed=1)
    raw = np.zeros(33, np.uint8)
    actions = np.ndarray((4,), np.int64, buffer=raw.data, offset=1)
    actions[:] = 3
    assert not actions.flags.aligned and actions.flags.c_contiguous
    fresh = VectorEnv("goofspiel", 4, players=2, num_cards=4)
    fresh.reset(seed=1)
    mine, theirs = env.step(actions), fresh.step(np.full(4, 3, np.int64))
    assert all(np.array_equal(a, b) for a, b in zip(mine[:4], theirs[:4], strict=True))
    floats = np.zeros(4 * int(np.prod(env.observation_shape)) * 4 + 1, np.uint8)
    out = np.ndarray((4, *env.observation_shape), np.float32, buffer=floats.data, offset=1)
    with pytest.raises(InvalidOptionError, match="out must be C-contiguous and aligned"):
        env.observe(out=out)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs /proc")
def test_a_batch_too_small_for_the_thread_pool_starts_no_threads() -> None:
    """``VectorEnv(..., threads=1024)`` started 1,024 threads even for 2 envs, a batch the pool
    never steps (small ones run on the calling thread)."""

    def threads() -> int:
        return len(list(Path("/proc/self/task").iterdir()))

    before = threads()
    small = VectorEnv("goofspiel", 2, players=2, threads=64)
    small.reset(seed=1)
    assert threads() == before
    large = VectorEnv("goofspiel", 64, players=2, threads=4)
    large.reset(seed=1)
    assert threads() >= before + 4  # a batch it steps has its pool
    del small, large


def test_making_envs_with_reused_buffers_again_and_again_leaks_nothing() -> None:
    """Each ``output_buffers()`` leaked the Python ints of its array slices (about 280 bytes an
    env of 64 envs): ``PySlice::new`` does not release the ints it makes."""
    import gc
    import tracemalloc

    def make_some(count: int) -> None:
        for _ in range(count):
            env = VectorEnv("goofspiel", 64, players=2, reuse_buffers=True)
            env.reset(seed=1)
            env.close()

    make_some(50)  # caches, interned values
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        make_some(3000)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held < 250_000, held  # the leak held about 850,000
