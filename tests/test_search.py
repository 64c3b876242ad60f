"""Search bots (``mcts``, ``flatmc``) and determinizations, for every game that has a determinizer.

The games are found at collection (``GameInfo.search_bots``), so these tests start running for a
game as soon as its determinizer lands. The slow strength tests (``--slow``) read from each game's
``GAME`` block (``tests/games/<game_id>.py``) how many games show the gap (``strength_games``) and
whether the search is expected to lose (``search_loses_to``). The search layer itself is also
tested on a toy game in the engine's own tests.
"""

from __future__ import annotations

import itertools
import json
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from benches.ladder import seat_rotated_share
from cardtable import _core
from cardtable._rng import derive_seed
from cardtable.analysis.balance import default_bot
from cardtable.errors import IllegalActionError, InvalidOptionError, InvalidStateError
from cardtable.sim import simulate
from cardtable.testing import game_configs
from tests.game_info import GameTestInfo, all_games

SEARCHABLE = [g for g in cardtable.games() if g.search_bots]
SEARCHABLE_IDS = [g.id for g in SEARCHABLE]
PLAIN_IDS = [g.id for g in cardtable.games() if not g.search_bots]


def option_sets(info: cardtable.GameInfo) -> list[tuple[int, dict[str, Any]]]:
    """Defaults at every player count, then each non-default choice of each option."""
    sets: list[tuple[int, dict[str, Any]]] = [
        (n, {}) for n in range(info.min_players, info.max_players + 1)
    ]
    for o in info.options:
        for choice in o.choices:
            if choice != o.default:
                sets.append((info.min_players, {o.name: choice}))
        if o.type == "bool":
            sets.append((info.min_players, {o.name: not o.default}))
    return sets


OPTION_CASES = [
    pytest.param(info.id, n, opts, id=f"{info.id}-{n}p-{opts}")
    for info in SEARCHABLE
    for n, opts in option_sets(info)
]


def reachable(game: Any, seed: int, steps: int) -> Any:
    """The state after ``steps`` random decisions from a seeded start (or the end)."""
    rng = np.random.default_rng(seed)
    state = game.new_state(seed=seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    return state


def test_games_without_a_determinizer_refuse_search_and_resample() -> None:
    for game_id in PLAIN_IDS:
        info = next(g for g in cardtable.games() if g.id == game_id)
        game = cardtable.make(game_id, players=info.min_players)
        with pytest.raises(InvalidOptionError, match="determinizer"):
            cardtable.bot(game, "mcts:iterations=10", 0)
        with pytest.raises(InvalidOptionError, match="determinizer"):
            game.new_state(seed=1).resample(0, 1)


def test_reference_states_do_not_resample() -> None:
    info = cardtable.games()[0]
    game = cardtable.make(info.id, players=info.min_players, backend="reference")
    with pytest.raises(InvalidOptionError, match="Rust backend"):
        game.new_state(seed=1).resample(0, 1)


@pytest.mark.parametrize(
    ("text", "specs"),
    [
        ("random,greedy", ["random", "greedy"]),
        ("mcts:iterations=1000,c=0.7,greedy", ["mcts:iterations=1000,c=0.7", "greedy"]),
        (
            " flatmc:samples=5,rollout=greedy , random",
            ["flatmc:samples=5,rollout=greedy", "random"],
        ),
        ("forgetful:0.3,mcts", ["forgetful:0.3", "mcts"]),
    ],
)
def test_bot_lists_keep_search_parameters_together(text: str, specs: list[str]) -> None:
    assert cardtable.bots.split_bot_specs(text) == specs


@pytest.mark.parametrize("game_id", SEARCHABLE_IDS)
def test_search_bots_build_everywhere(game_id: str) -> None:
    info = next(g for g in SEARCHABLE if g.id == game_id)
    n = info.min_players
    game = cardtable.make(game_id, players=n)
    # Search bots facing each other: in the memory game they can stall, until the contract's
    # limit of quiet turns in a row ends the game (Decision 11).
    bots = ["mcts:iterations=20", "flatmc:samples=3"] + ["random"] * (n - 2)
    one = simulate(game_id, games=4, players=n, bots=bots, seed=3, threads=1, progress=False)
    two = simulate(game_id, games=4, players=n, bots=bots, seed=3, threads=2, progress=False)
    assert [s.win_share for s in one.seats] == [s.win_share for s in two.seats]
    assert one.decisions == two.decisions
    state = game.new_state(seed=2)
    seat = state.current_player
    assert cardtable.bot(game, "mcts:iterations=20", seat).act(state) in state.legal_actions()
    with pytest.raises(IllegalActionError):
        state.resample(n, 0)


@pytest.mark.parametrize("game_id", SEARCHABLE_IDS)
@pytest.mark.parametrize("spec", ["mcts:iterations=60", "flatmc:samples=6"])
def test_search_stats_describe_the_decision_the_bot_made(game_id: str, spec: str) -> None:
    info = next(g for g in SEARCHABLE if g.id == game_id)
    game = cardtable.make(game_id, players=info.min_players)
    state = game.new_state(seed=4)
    rng = np.random.default_rng(4)
    while len(state.legal_actions()) < 2:  # the first decision with a choice
        state.apply(int(rng.choice(state.legal_actions())))
    bot = cardtable.bot(game, spec, state.current_player, seed=1)
    assert bot.search_stats() is None
    chosen = bot.act(state)
    stats = bot.search_stats()
    assert stats is not None
    assert stats.actions.tolist() == state.legal_actions()
    assert stats.chosen == chosen
    with pytest.raises(ValueError, match="read-only"):
        stats.visits[0] += 1  # a record of the decision
    assert 1 <= stats.iterations <= (60 if spec.startswith("mcts") else 6)
    assert len(stats.visits) == len(stats.values) == len(stats.choices) == len(stats.actions)
    played = np.isfinite(stats.values)
    assert ((stats.visits > 0) == played).all()
    assert ((stats.values[played] >= 0) & (stats.values[played] <= 1)).all()
    policy = stats.policy()
    assert policy.shape == stats.actions.shape and policy.sum() == pytest.approx(1.0)
    dense = stats.policy(num_actions=game.num_actions)
    assert dense.shape == (game.num_actions,) and dense[stats.actions].tolist() == policy.tolist()
    # Each choice's share is split equally among its actions; greedy (temperature 0) keeps the
    # most visited choices only.
    for choice in set(stats.choices.tolist()):
        shares = policy[stats.choices == choice]
        assert shares.min() == pytest.approx(shares.max())
    sharp = stats.policy(0)
    assert set(stats.choices[sharp > 0].tolist()) == set(
        stats.choices[stats.visits == stats.visits.max()].tolist()
    )


def test_search_stats_policy_follows_the_visits() -> None:
    stats = cardtable.SearchStats(
        actions=np.array([3, 5, 8, 9]),
        visits=np.array([30, 10, 0, 0]),
        values=np.array([0.5, 0.25, np.nan, np.nan]),
        choices=np.array([3, 5, 64, 64]),
        iterations=40,
        chosen=3,
    )
    assert stats.policy().tolist() == [0.75, 0.25, 0.0, 0.0]
    assert stats.policy(0.5).tolist() == pytest.approx([0.9, 0.1, 0.0, 0.0])
    assert stats.policy(0).tolist() == [1.0, 0.0, 0.0, 0.0]
    assert stats.policy(1e-9).tolist() == [1.0, 0.0, 0.0, 0.0]
    assert stats.policy(num_actions=10).tolist() == [0, 0, 0, 0.75, 0, 0.25, 0, 0, 0, 0]
    # A class's probability is shared by its actions; without visits every action is as likely.
    shared = cardtable.SearchStats(
        actions=np.array([1, 2, 4]),
        visits=np.array([20, 20, 20]),
        values=np.array([0.5, 0.5, 0.4]),
        choices=np.array([64, 64, 4]),
        iterations=40,
        chosen=2,
    )
    assert shared.policy().tolist() == pytest.approx([0.25, 0.25, 0.5])
    unvisited = cardtable.SearchStats(
        actions=np.array([1, 2]),
        visits=np.array([0, 0]),
        values=np.array([np.nan, np.nan]),
        choices=np.array([1, 2]),
        iterations=0,
        chosen=1,
    )
    assert unvisited.policy(0).tolist() == [0.5, 0.5]
    # The state's value: the visit-weighted mean, a class counted once.
    assert stats.value == pytest.approx((30 * 0.5 + 10 * 0.25) / 40)
    assert shared.value == pytest.approx((20 * 0.5 + 20 * 0.4) / 40)
    assert np.isnan(unvisited.value)
    for bad in (-1, float("nan"), float("inf"), "1", True):
        with pytest.raises(InvalidOptionError, match="temperature must be a finite number"):
            stats.policy(bad)  # type: ignore[arg-type]
    for bad_n in (9, 0, 10.0, True, 2**40):
        with pytest.raises(InvalidOptionError, match=r"num_actions must be an int in 10\.\.="):
            stats.policy(num_actions=bad_n)  # type: ignore[arg-type]
    # NumPy scalars, as Gymnasium's spaces give them; a temperature that overflows is still 0/1.
    assert (
        stats.policy(np.float32(1), num_actions=np.int64(10)).tolist()
        == stats.policy(num_actions=10).tolist()
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert stats.policy(5e-324).tolist() == [1.0, 0.0, 0.0, 0.0]


def test_bots_that_do_not_search_or_did_not_need_to_have_no_search_stats() -> None:
    game = cardtable.make("turn_the_tide", players=3)
    # A round's last hand offers one card (found in a random game that plays 12 hands).
    forced = game.new_state(seed=2)
    rng = np.random.default_rng(2)
    while len(forced.legal_actions()) != 1:
        forced.apply(int(rng.choice(forced.legal_actions())))
    seat = forced.current_player
    state = game.new_state(seed=1)
    while state.current_player != seat:
        state.apply(state.legal_actions()[0])
    greedy = cardtable.bot(game, "greedy", seat)
    greedy.act(state)
    assert greedy.search_stats() is None
    # A search decision with a choice, then one without: no statistics of the older decision.
    search = cardtable.bot(game, "mcts:iterations=30", seat, seed=1)
    search.act(state)
    assert search.search_stats() is not None
    assert search.act(forced) == forced.legal_actions()[0]
    assert search.search_stats() is None


def decision_states(game: cardtable.GameProtocol, count: int) -> list[Any]:
    """States of ``game`` with a seat to move, from seeded games played at random a little."""
    states = []
    for seed in range(count):
        state = game.new_state(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(seed % 11):
            if state.current_player < 0:
                break
            state.apply(int(rng.choice(state.legal_actions())))
        if state.current_player >= 0:
            states.append(state)
    return states


@pytest.mark.parametrize("game_id", SEARCHABLE_IDS)
@pytest.mark.parametrize("spec", ["mcts:iterations=40", "flatmc:samples=4"])
def test_search_labels_each_state_as_the_bot_seated_by_hand(game_id: str, spec: str) -> None:
    info = next(g for g in SEARCHABLE if g.id == game_id)
    game = cardtable.make(game_id, players=info.min_players)
    states = decision_states(game, 12)
    batch = cardtable.search(game, states, spec, seed=9, threads=2)
    assert len(batch) == len(states) and batch.actions.dtype == np.int64
    assert batch.actions.tolist() == cardtable.search(game, states, spec, seed=9).actions.tolist()
    policies, visits, values = batch.policies(), batch.visits(), batch.values()
    assert policies.shape == visits.shape == (len(states), game.num_actions)
    assert values.shape == (len(states),)
    assert policies.sum(axis=1) == pytest.approx(np.ones(len(states)))
    for i, state in enumerate(states):
        bot = cardtable.bot(game, spec, state.current_player, seed=derive_seed(9, i))
        bot.observe(state)
        assert batch.actions[i] == bot.act(state), f"state {i}"
        stats, mine = batch.stats[i], bot.search_stats()
        if mine is None:  # a single legal action: no search, the policy is the action
            assert stats is None and policies[i, batch.actions[i]] == 1.0
            assert np.isnan(values[i])
            continue
        assert values[i] == mine.value and 0 <= values[i] <= 1
        assert stats is not None
        for name in ("actions", "visits", "choices"):
            assert getattr(stats, name).tolist() == getattr(mine, name).tolist()
        assert policies[i].tolist() == mine.policy(num_actions=game.num_actions).tolist()
        for t in (0, 0.5, 2, 1e-300):  # the batch's rows are its states' own, at every temperature
            row = mine.policy(t, num_actions=game.num_actions)
            assert batch.policies(t)[i].tolist() == row.tolist(), (i, t)
        assert visits[i, mine.actions].tolist() == mine.visits.tolist()
    assert any(stats is not None for stats in batch.stats)


def test_search_with_a_seed_per_state_labels_each_state_by_its_own_seed() -> None:
    """``seed=[...]``: state ``i``'s bot is seeded with ``seed[i]`` itself, so a state's label
    does not depend on its place in the batch, and the derived seeds give the one-seed batch."""
    game = cardtable.make("turn_the_tide", players=3)
    states = decision_states(game, 8)
    seeds = np.arange(50, 50 + len(states), dtype=np.uint64)
    forward = cardtable.search(game, states, "mcts:iterations=30", seed=seeds)
    backward = cardtable.search(game, states[::-1], "mcts:iterations=30", seed=seeds[::-1].tolist())
    assert forward.visits().tolist() == backward.visits()[::-1].tolist()
    derived = [derive_seed(4, i) for i in range(len(states))]
    one = cardtable.search(game, states, "mcts:iterations=30", seed=4)
    each = cardtable.search(game, states, "mcts:iterations=30", seed=tuple(derived))
    assert one.visits().tolist() == each.visits().tolist()
    with pytest.raises(InvalidOptionError, match=f"3 seeds given for {len(states)} states"):
        cardtable.search(game, states, "mcts", seed=[1, 2, 3])
    with pytest.raises(InvalidOptionError, match=r"seed\[1\] must be an int"):
        cardtable.search(game, states[:2], "mcts", seed=[1, -1])


def test_a_stopped_search_keeps_the_decisions_it_made() -> None:
    """``progress`` returning ``False`` (as Ctrl-C) raises ``SearchInterrupted``, a
    ``KeyboardInterrupt`` holding the decisions made before the stop: each row is the whole
    batch's row of that state."""
    game = cardtable.make("turn_the_tide", players=3)
    states = decision_states(game, 40)
    spec = "mcts:iterations=3000"
    whole = cardtable.search(game, states, spec, seed=6, threads=1)
    with pytest.raises(cardtable.SearchInterrupted) as stop:
        cardtable.search(game, states, spec, seed=6, threads=1, progress=lambda d, t: d < 3)
    assert isinstance(stop.value, KeyboardInterrupt)
    got = stop.value
    assert got.total == len(states) and 3 <= len(got.indices) < len(states)
    assert str(got) == f"search stopped: {len(got.indices)} of {len(states)} states decided"
    assert got.indices.dtype == np.int64 and not got.indices.flags.writeable
    assert (np.diff(got.indices) > 0).all() and len(got.batch) == len(got.indices)
    assert got.batch.actions.tolist() == whole.actions[got.indices].tolist()
    assert got.batch.visits().tolist() == whole.visits()[got.indices].tolist()
    np.testing.assert_array_equal(got.batch.values(), whole.values()[got.indices])  # NaN too


def test_search_takes_reference_states_and_any_bot() -> None:
    rust = cardtable.make("turn_the_tide", players=3)
    reference = cardtable.make("turn_the_tide", players=3, backend="reference")
    states = [reference.new_state(seed=s) for s in range(3)]
    batch = cardtable.search(reference, states, "greedy", seed=1)
    assert batch.stats == (None, None, None)
    engine_states = [rust.new_state(seed=s) for s in range(3)]
    assert (
        batch.actions.tolist() == cardtable.search(rust, engine_states, "greedy").actions.tolist()
    )
    assert batch.policies(0).max(axis=1).tolist() == [1.0, 1.0, 1.0]
    empty = cardtable.search(rust, [], "mcts")
    assert len(empty) == 0 and empty.policies().shape == (0, rust.num_actions)


def test_search_refuses_bad_requests_naming_the_state() -> None:
    game = cardtable.make("turn_the_tide", players=3)
    ready = game.new_state(seed=1)
    over = game.new_state(seed=2)
    while over.current_player != cardtable.TERMINAL:
        over.apply(over.legal_actions()[0])
    with pytest.raises(IllegalActionError, match=r"^state 1: a chance outcome is due"):
        cardtable.search(game, [ready, game.new_state()], "random")
    with pytest.raises(IllegalActionError, match=r"^state 1: the game is over"):
        cardtable.search(game, [ready, over], "random")
    other = cardtable.make("goofspiel", players=2)
    with pytest.raises(
        IllegalActionError,
        match=r"^state 0: this bot plays turn_the_tide, not that state's goofspiel$",
    ):
        cardtable.search(game, [other.new_state(seed=1)], "random")
    reference_other = cardtable.make("turn_the_tide", players=4, backend="reference")
    with pytest.raises(IllegalActionError, match=r"^state 0: this bot plays turn_the_tide with 3"):
        cardtable.search(game, [reference_other.new_state(seed=1)], "random")
    for bad, message in [
        ({"bot": "nobody"}, "unknown bot"),
        ({"bot": "mcts:iterations=0"}, "iterations"),
        ({"bot": "random", "seed": -1}, "seed must be an int"),
        ({"bot": "random", "threads": 0}, "threads must be an int in 1..=1024"),
        ({"bot": "random", "progress": 1}, "progress must be True, False or a callable"),
        ({"bot": 3}, "bot must be a str"),
    ]:
        with pytest.raises(InvalidOptionError, match=message):
            cardtable.search(game, [ready], **bad)  # type: ignore[arg-type]
    for states in ("abc", ready, None):
        with pytest.raises(InvalidOptionError, match="states must be a sequence of states"):
            cardtable.search(game, states, "random")  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="temperature"):
        cardtable.search(game, [], "random").policies(-1)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcts:reward=score", "reward must be win or margin"),
        ("flatmc:reward=", "reward must be win or margin"),
        ("mcts:prior=-1", "prior must be a finite number >= 0"),
        ("mcts:prior=inf", "prior must be a finite number >= 0"),
        ("mcts:opponents=all", "opponents must be tree or rollout"),
    ],
)
def test_bad_search_parameters_are_clear_errors(spec: str, message: str) -> None:
    game = cardtable.make("goofspiel", players=2)
    with pytest.raises(InvalidOptionError, match=message):
        cardtable.bot(game, spec, 0)


def test_reward_and_prior_are_accepted_and_change_nothing_they_should_not() -> None:
    game = cardtable.make("goofspiel", players=2)
    state = game.new_state(seed=4)
    seat = state.current_player
    default = cardtable.bot(game, "mcts:iterations=60", seat, seed=5).act(state)
    # prior=0 is the default: the same decision for the same seed.
    assert cardtable.bot(game, "mcts:iterations=60,prior=0", seat, seed=5).act(state) == default
    for spec in ("mcts:iterations=60,reward=margin,prior=3", "flatmc:samples=3,reward=margin"):
        assert cardtable.bot(game, spec, seat, seed=5).act(state) in state.legal_actions()


@pytest.mark.parametrize("game_id", SEARCHABLE_IDS)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 200), sample_seed=st.integers(0, 2**32))
def test_search_bots_do_not_peek(game_id: str, seed: int, steps: int, sample_seed: int) -> None:
    info = next(g for g in SEARCHABLE if g.id == game_id)
    game = cardtable.make(game_id, players=info.min_players)
    state = reachable(game, seed, steps)
    if state.is_terminal:
        return
    seat = state.current_player
    twin = state.resample(seat, sample_seed)
    assert twin.observation(seat) == state.observation(seat)
    for spec in ("mcts:iterations=40", "flatmc:samples=4"):
        a = cardtable.bot(game, spec, seat, seed=seed % 1000)
        b = cardtable.bot(game, spec, seat, seed=seed % 1000)
        assert a.act(state) == b.act(twin), spec


@pytest.mark.parametrize(("game_id", "players", "options"), OPTION_CASES)
def test_determinizations_keep_the_observation_play_out_and_vary(
    game_id: str, players: int, options: dict[str, Any]
) -> None:
    game = cardtable.make(game_id, players=players, **options)
    varied = False
    for seed, steps in itertools.product(range(3), (0, 5, 20, 60)):
        state = reachable(game, seed, steps)
        for observer in range(players):
            hidden: set[str] = set()
            for k in range(4):
                sample = state.resample(observer, 100 * seed + k)
                assert sample.observation(observer) == state.observation(observer)
                np.testing.assert_array_equal(
                    sample.observation_tensor(observer), state.observation_tensor(observer)
                )
                assert sample.current_player == state.current_player
                hidden.add(repr(sample.to_dict()["state"]))
                rng = np.random.default_rng(k)
                while not sample.is_terminal:
                    legal = sample.legal_actions()
                    sample.apply(legal[int(rng.integers(len(legal)))])
            varied |= len(hidden) > 1
    if not all_games()[game_id].hidden_information:
        assert not varied, f"{game_id} has no hidden information, yet its samples varied"
        return
    assert varied, (
        "no hidden card ever varied over samples (a game of perfect information says "
        f"hidden_information=False in the GAME block of tests/games/{game_id}.py)"
    )


@pytest.mark.parametrize("game_id", SEARCHABLE_IDS)
@given(
    data=st.data(),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 300),
    sample_seed=st.integers(0, 2**64 - 1),
)
def test_determinizations_under_drawn_options(
    game_id: str, data: st.DataObject, seed: int, steps: int, sample_seed: int
) -> None:
    """Option sets Hypothesis draws (players and every option), any reachable
    state and observer: a determinization shows the observer exactly what the state shows it (the
    same legal actions where the observer is to move) and plays out to the end. (Its history is
    not always one that replays to it: see each contract's "Determinization".)"""
    config = data.draw(game_configs(game_id), label="config")
    game = cardtable.make(game_id, **config)
    state = reachable(game, seed, steps)
    observer = data.draw(st.integers(0, game.players - 1), label="observer")
    sample = state.resample(observer, sample_seed)
    assert sample.observation(observer) == state.observation(observer)
    np.testing.assert_array_equal(
        sample.observation_tensor(observer), state.observation_tensor(observer)
    )
    assert sample.current_player == state.current_player
    assert sample.is_terminal == state.is_terminal
    if state.current_player == observer:
        assert sample.legal_actions() == state.legal_actions()
    rng = np.random.default_rng(sample_seed % 2**32)
    while not sample.is_terminal:
        legal = sample.legal_actions()
        sample.apply(legal[int(rng.integers(len(legal)))])


def heuristic_bot(game_id: str) -> str:
    """The game's heuristic bot, as the studies choose it (:func:`analysis.default_bot`)."""
    return default_bot(game_id)


def observing_before_deciding(
    game_id: str, n: int, bots: list[str], seed: int, game: int
) -> list[int]:
    """The history of game ``game`` of ``simulate(.., seed=seed)`` played by per-step bots.

    Each bot observes only just before it decides, so it catches up on every step it missed.
    """
    g = cardtable.make(game_id, players=n)
    state = g.new_state(seed=derive_seed(seed, game))
    streams = [derive_seed(derive_seed(seed, game), p + 1) for p in range(n)]
    seated = [
        cardtable.bot(g, b, p, seed=s) for p, (b, s) in enumerate(zip(bots, streams, strict=True))
    ]
    while not state.is_terminal:
        bot = seated[state.current_player]
        bot.observe(state)
        state.apply(bot.act(state))
    return list(state.history)


@pytest.mark.parametrize("game_id", SEARCHABLE_IDS)
def test_search_runs_are_the_games_of_the_per_step_bots(game_id: str) -> None:
    """A run with a search bot is the game its per-step bots play when they observe.

    The batch runner shows an observing bot the state after every step, chance nodes included,
    while a seeded state resolves its chance nodes inside ``apply``; the per-step bot replays the
    steps it missed when it observes. Before, ``mcts`` remembered a different state in the
    per-step game, so ``SimulationResult.replay`` (whose bots observe after every step) failed for
    Turn the Tide, Goofspiel and Deep Regrets runs.
    """
    n = next(g for g in SEARCHABLE if g.id == game_id).min_players
    bots = ["mcts:iterations=8", *["random"] * (n - 2), "mcts:iterations=4,opponents=rollout"]
    result = simulate(game_id, players=n, games=3, bots=bots, seed=5, progress=False)
    for game in range(3):
        replayed = result.replay(game).history  # raises if the scores differ from the run's
        assert observing_before_deciding(game_id, n, bots, 5, game) == replayed


def assert_stronger(game_id: str, bot: str, field: str, games: int, seed: int) -> None:
    info = next(g for g in SEARCHABLE if g.id == game_id)
    n = info.min_players
    share, (lo, _hi) = seat_rotated_share(game_id, n, bot, field, games, seed)
    assert lo > 1 / n, f"{game_id}: {bot} vs {field}: share {share:.3f}, 95% CI from {lo:.3f}"


def test_mcts_beats_greedy_in_a_small_match() -> None:
    """CI-sized: the smallest seeded match that shows the gap (Goofspiel, 20 games, ~2 s)."""
    assert_stronger(
        "goofspiel", "mcts:iterations=300,opponents=rollout", "greedy", games=20, seed=11
    )


def test_more_iterations_beat_fewer_in_a_small_match() -> None:
    """CI-sized: the smallest seeded match that shows the gap (Goofspiel, 40 games, ~4 s)."""
    assert_stronger("goofspiel", "mcts:iterations=300", "mcts:iterations=10", games=40, seed=12)


def test_more_iterations_beat_fewer_in_the_memory_game_in_a_small_match() -> None:
    """CI-sized: the memory game's search gains with iterations (20 games, ~3 s)."""
    assert_stronger(
        "trafficars_memory", "mcts:iterations=500", "mcts:iterations=10", games=20, seed=12
    )


def expected_case(game_id: str, reason: Callable[[GameTestInfo], str | None]) -> Any:
    """``game_id`` as a case of a slow strength test: a strict xfail when ``reason`` of its
    ``GAME`` block gives why the stronger side is not expected to win there (so that the day it
    wins the test says so), else a plain case."""
    info = all_games().get(game_id)
    why = None if info is None else reason(info)
    if why is None:
        return game_id
    return pytest.param(game_id, marks=pytest.mark.xfail(reason=why, strict=True))


def strength_case(game_id: str) -> Any:
    """``game_id`` as a case of :func:`test_mcts_beats_greedy`: an xfail when its
    ``GAME.search_loses_to`` says that the search loses to (or ties) the heuristic bot."""
    return expected_case(game_id, lambda info: info.search_loses_to)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", [strength_case(g) for g in SEARCHABLE_IDS])
def test_mcts_beats_greedy(game_id: str) -> None:
    """``GAME.strength_games`` seat-rotated games (60 unless the game says more) of ``mcts``
    against the game's heuristic bot."""
    games = all_games()[game_id].strength_games
    assert_stronger(game_id, "mcts:iterations=1000", heuristic_bot(game_id), games=games, seed=11)


def iterations_case(game_id: str) -> Any:
    """``game_id`` as a case of :func:`test_more_iterations_beat_fewer`: an xfail when its
    ``GAME.more_iterations_tie`` says that more iterations cannot win there."""
    return expected_case(game_id, lambda info: info.more_iterations_tie)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", [iterations_case(g) for g in SEARCHABLE_IDS])
def test_more_iterations_beat_fewer(game_id: str) -> None:
    assert_stronger(game_id, "mcts:iterations=4000", "mcts:iterations=250", games=200, seed=12)


def test_the_core_state_has_resample() -> None:
    assert callable(_core.State.resample)


def test_a_sample_refuses_to_be_pickled_instead_of_writing_a_pickle_that_cannot_load() -> None:
    # pickle.dumps of a sample succeeded, and pickle.loads then failed: "state does not match
    # its history".
    import pickle

    state = cardtable.make("turn_the_tide", players=4).new_state(seed=1)
    for _ in range(60):
        state.apply(state.legal_actions()[0])
    sample = state.resample(0, seed=3)
    played_on = sample.clone()
    played_on.apply(played_on.legal_actions()[0])
    for unpicklable in (sample, sample.clone(), played_on):
        with pytest.raises(InvalidStateError, match="sampled by resample"):
            pickle.dumps(unpicklable)
    assert pickle.loads(pickle.dumps(state)).to_dict() == state.to_dict()


def test_a_sample_has_no_past_that_tells_the_hidden_deal() -> None:
    """Found by a probe of hidden information: a sample kept the real history, so two worlds its
    observer cannot tell apart gave the same sampled state but different ``history`` and
    ``to_dict()``, which held the real deal; and ``replay(sample)`` silently drew the real game.
    A sample now has no past, and a replay refuses it."""
    game = cardtable.make("trafficars", players=3)
    real = game.new_state(seed=5)
    h = list(real.history)  # 3 lane starters, then 10 cards to each seat
    swapped = h[:3] + h[23:33] + h[13:23] + h[3:13]  # seats 0 and 2 swap hands
    worlds = [game.new_state(), game.new_state()]
    for world, history in zip(worlds, (h, swapped), strict=True):
        for action in history:
            world.apply(action)
    assert worlds[0].observation(1) == worlds[1].observation(1)
    samples = [w.resample(1, 7) for w in worlds]
    assert samples[0].to_dict() == samples[1].to_dict()
    assert samples[0].history == []
    with pytest.raises(InvalidStateError, match="sampled by resample"):
        cardtable.replay(samples[0])
    played_on = samples[0].clone()
    action = played_on.legal_actions()[0]
    played_on.apply(action)
    assert played_on.history == [action]
    with pytest.raises(InvalidStateError, match="sampled by resample"):
        cardtable.replay(played_on)
    # Steps played on from a sample that are illegal from the start: still the sample's error.
    dr = cardtable.make("deep_regrets", players=2)
    state = dr.new_state(seed=5)
    for _ in range(12):
        state.apply(state.legal_actions()[-1])
    sample = state.resample(0, 7)
    for _ in range(2):
        sample.apply(sample.legal_actions()[-1])
    with pytest.raises(IllegalActionError):
        replay_steps(dr, sample.history)
    with pytest.raises(InvalidStateError, match="sampled by resample"):
        cardtable.replay(sample)


def replay_steps(game: cardtable.GameProtocol, history: list[int]) -> None:
    """Applies ``history`` to a new state of ``game``."""
    state = game.new_state()
    for action in history:
        state.apply(action)


def test_a_reorder_sample_does_not_know_the_unseen_fish_below() -> None:
    """Found by an audit of the determinizers: while seat 0 reorders the top of a shoal (Rod of
    the Deep), the sample kept the whole shoal as it really was, the unseen fish below the
    reordered ones included. Two histories that seat 0 cannot tell apart (they differ in one such
    fish) now give it the same samples and the same search decisions."""
    path = Path(__file__).parent / "data" / "deep_regrets_reorder_pair.json"
    data = json.loads(path.read_text())
    game = cardtable.make(data["game"], players=data["players"])
    p = data["observer"]
    states, streams = [], []
    for history in data["histories"]:
        state = game.new_state()
        stream = [(state.observation(p), state.observation_tensor(p).tolist())]
        for action in history:
            state.apply(action)
            stream.append((state.observation(p), state.observation_tensor(p).tolist()))
        states.append(state)
        streams.append(stream)
    assert streams[0] == streams[1]
    assert states[0].to_dict()["state"] != states[1].to_dict()["state"]
    assert states[0].observation(p)["node"] == "reorder"
    for seed in range(8):
        samples = [s.resample(p, seed).to_dict()["state"] for s in states]
        assert samples[0] == samples[1], seed
    for seed in (4, 10):
        acts = [cardtable.bot(game, "mcts:iterations=100", p, seed=seed).act(s) for s in states]
        assert acts[0] == acts[1], seed


def test_slow_strength_matches_get_the_long_timeout_when_asked_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under ``--slow`` a slow test gets ``SLOW_TIMEOUT`` instead of the suite's 900 s (too short
    for a Deep Regrets strength match on a loaded machine); otherwise it is skipped."""
    from tests import conftest

    monkeypatch.delenv("CARDTABLE_SLOW", raising=False)

    class Item:
        def __init__(self, *marks: pytest.MarkDecorator) -> None:
            self.marks = [m.mark for m in marks]
            self.keywords = {m.name: m for m in self.marks}

        def get_closest_marker(self, name: str) -> pytest.Mark | None:
            return next((m for m in self.marks if m.name == name), None)

        def add_marker(self, mark: pytest.MarkDecorator) -> None:
            self.marks.append(mark.mark)

    class Config:
        def __init__(self, slow: bool) -> None:
            self.slow = slow

        def getoption(self, name: str) -> bool:
            return self.slow

    def after(slow: bool, *marks: pytest.MarkDecorator) -> list[tuple[str, tuple[Any, ...]]]:
        item = Item(*marks)
        conftest.pytest_collection_modifyitems(Config(slow), [item])  # type: ignore[arg-type, list-item]
        return [(m.name, m.args) for m in item.marks]

    long = ("timeout", (conftest.SLOW_TIMEOUT,))
    assert conftest.SLOW_TIMEOUT > 900
    assert after(True, pytest.mark.slow) == [("slow", ()), long]
    assert after(True, pytest.mark.slow, pytest.mark.timeout(60)) == [
        ("slow", ()),
        ("timeout", (60,)),
    ]
    assert after(True) == []
    assert [name for name, _ in after(False, pytest.mark.slow)] == ["slow", "skip"]
