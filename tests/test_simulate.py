"""Batch simulation: determinism, agreement with per-step play, summaries, Python policies."""

from __future__ import annotations

import gc
import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardtable
from cardtable import InvalidOptionError, PolicyBatch
from cardtable._rng import SplitMix64, derive_seed
from cardtable.bots import split_bot_specs
from cardtable.testing import game_configs
from tests.configs import ALL, CONFIGS, IDS
from tests.game_info import all_games
from tests.walk import apply_and_observe, seat_bots

BOTS = {g.id: g.bots for g in cardtable.games()}


def replay_random_game(
    game: cardtable.GameProtocol, seed: int, index: int, first_policy: bool = False
) -> list[int]:
    """Game ``index`` of a run with ``seed`` and random bots, played through the per-step API."""
    game_seed = derive_seed(seed, index)
    rngs = [SplitMix64(derive_seed(game_seed, p + 1)) for p in range(game.players)]
    state = game.new_state(seed=game_seed)
    while not state.is_terminal:
        legal = state.legal_actions()
        p = state.current_player
        if first_policy and p == 0:
            state.apply(legal[0])
        else:
            state.apply(legal[rngs[p].below(len(legal))])
    return state.scores


@pytest.mark.parametrize(("game_id", "config"), ALL, ids=IDS)
def test_batch_games_are_the_seeded_games_of_the_reference(
    game_id: str, config: dict[str, Any]
) -> None:
    result = cardtable.simulate(game_id, games=6, seed=42, progress=False, **config)
    ref = cardtable.make(game_id, backend="reference", **config)
    assert result.scores is not None
    for g in range(6):
        assert list(result.scores[g]) == replay_random_game(ref, 42, g)


@pytest.mark.parametrize("game_id", list(CONFIGS))
@given(data=st.data(), seed=st.integers(0, 2**64 - 1))
def test_batch_games_are_the_seeded_games_under_drawn_options(
    game_id: str, data: st.DataObject, seed: int
) -> None:
    """The batch runner's whole-game fast paths, under option sets Hypothesis draws (players and
    every option): each game is the seeded game the reference plays step by step with the same
    random streams."""
    config = data.draw(game_configs(game_id), label="config")
    result = cardtable.simulate(game_id, games=3, seed=seed, progress=False, **config)
    ref = cardtable.make(game_id, backend="reference", **config)
    assert result.scores is not None
    for g in range(3):
        assert list(result.scores[g]) == replay_random_game(ref, seed, g), (config, seed, g)


def first_legal(batch: PolicyBatch) -> list[int]:
    """A Python policy: every row's first legal action."""
    return [legal[0] for legal in batch.legal_actions]


@pytest.mark.parametrize("game_id", list(CONFIGS))
@given(data=st.data(), seed=st.integers(0, 2**64 - 1))
def test_batch_bot_games_are_the_per_step_games_under_drawn_options(
    game_id: str, data: st.DataObject, seed: int
) -> None:
    """The batch runner with built-in bots and Python policies in drawn seats, under drawn option
    sets: each game is the one the per-step API plays with the same bots seated on the same
    streams (``tests.walk.seat_bots``), observing after every step, and :func:`first_legal` where
    the policy sits."""
    config = data.draw(game_configs(game_id), label="config")
    players = config["players"]
    # The heuristic bots (the search players are tested in tests/test_search.py) and a policy.
    names = [*BOTS[game_id], "first_legal"]
    lineup = data.draw(st.lists(st.sampled_from(names), min_size=players, max_size=players))
    bots: list[Any] = [first_legal if b == "first_legal" else b for b in lineup]
    games = data.draw(st.integers(1, 4), label="games")
    size = data.draw(st.integers(1, 3), label="batch_size")
    result = cardtable.simulate(
        game_id, games=games, seed=seed, bots=bots, batch_size=size, progress=False, **config
    )
    game = cardtable.make(game_id, **config)
    assert result.scores is not None and result.lengths is not None
    for g in range(games):
        game_seed = derive_seed(seed, g)
        builtin = {p: name for p, name in enumerate(lineup) if name != "first_legal"}
        seated = seat_bots(game, builtin, game_seed)
        state = game.new_state(seed=game_seed)
        decisions = 0
        while not state.is_terminal:
            p = state.current_player
            action = seated[p].act(state) if p in seated else state.legal_actions()[0]
            apply_and_observe(state, action, seated)
            decisions += 1
        assert list(result.scores[g]) == state.scores, (config, lineup, seed, g)
        assert result.lengths[g] == decisions


@pytest.mark.parametrize(("game_id", "config"), ALL, ids=IDS)
def test_same_result_for_any_thread_count(game_id: str, config: dict[str, Any]) -> None:
    bots = [BOTS[game_id][-1]] + ["random"] * (config["players"] - 1)
    runs = [
        cardtable.simulate(
            game_id, games=2500, seed=9, threads=t, bots=bots, progress=False, **config
        )
        for t in (1, 2, 3)
    ]
    for other in runs[1:]:
        assert other.scores is not None and runs[0].scores is not None
        np.testing.assert_array_equal(other.scores, runs[0].scores)
        np.testing.assert_array_equal(other.winners, runs[0].winners)
        np.testing.assert_array_equal(other.lengths, runs[0].lengths)
        assert other.seats == runs[0].seats


def test_summary_matches_the_arrays() -> None:
    result = cardtable.simulate(
        "turn_the_tide",
        players=4,
        games=3000,
        bots=["greedy", "random", "random", "random"],
        progress=False,
    )
    assert result.scores is not None and result.winners is not None
    assert result.lengths is not None
    assert result.games_played == 3000 and not result.interrupted
    for s in result.seats:
        col = result.scores[:, s.seat]
        assert s.score_mean == pytest.approx(col.mean())
        assert s.score_std == pytest.approx(col.std(ddof=1))
        assert s.score_min == col.min() and s.score_max == col.max()
        assert s.wins == result.winners[:, s.seat].sum()
        assert s.win_rate_ci95[0] < s.win_rate < s.win_rate_ci95[1]
    assert sum(s.win_share for s in result.seats) == pytest.approx(3000)
    assert result.decisions == int(result.lengths.sum())
    by_bot = {b.bot: b for b in result.by_bot}
    assert by_bot["random"].seats == (1, 2, 3)
    assert by_bot["random"].games == 9000
    pooled = result.scores[:, 1:].ravel()
    assert by_bot["random"].score_mean == pytest.approx(pooled.mean())
    assert by_bot["random"].score_std == pytest.approx(pooled.std(ddof=1))
    text = result.summary_table()
    assert "greedy" in text and "random" in text and "3,000 games" in text


def test_summary_names_changed_options_and_the_mean_length() -> None:
    """Two runs under different options have different titles; the caption gives the mean
    length; a per-bot row comes only for a bot in several seats (else it repeats a seat row)."""
    changed = cardtable.simulate(
        "turn_the_tide", players=3, games=300, bots=["greedy", "random", "random"],
        progress=False, highest_chooses_tide=True, rounds=2,
    )  # fmt: skip
    text = changed.summary_table()
    assert "turn_the_tide (highest_chooses_tide=true, rounds=2), 3 players, 300 games" in text
    assert f"{changed.decisions / 300:,.1f} decisions a game on average" in text
    assert "1,2" in text  # the two random seats pooled
    assert text.count("greedy") == 1  # its one seat: no pooled row
    usual = cardtable.simulate(
        "goofspiel", players=2, games=100, bots=["greedy", "random"], progress=False
    ).summary_table()
    assert "goofspiel, 2 players, 100 games" in usual
    assert "24.0 decisions a game on average" in usual
    assert usual.count("greedy") == 1  # no per-bot section: one seat each


def test_summary_only_runs_agree_with_full_runs() -> None:
    full = cardtable.simulate("turn_the_tide", players=3, games=2100, seed=3, progress=False)
    lean = cardtable.simulate(
        "turn_the_tide", players=3, games=2100, seed=3, keep_games=False, progress=False
    )
    assert lean.scores is None and lean.winners is None and lean.lengths is None
    assert lean.seats == full.seats
    assert lean.decisions == full.decisions
    with pytest.raises(InvalidOptionError):
        lean.to_arrow()


def test_heuristic_bots_beat_random() -> None:
    for info in cardtable.games():
        if len(info.bots) < 2:
            continue
        players = max(info.min_players, min(4, info.max_players))
        for bot in info.bots[1:]:
            result = cardtable.simulate(
                info.id,
                players=players,
                games=4000,
                bots=[bot] + ["random"] * (players - 1),
                progress=False,
            )
            by_bot = {b.bot: b for b in result.by_bot}
            assert by_bot[bot].win_rate_ci95[0] > by_bot["random"].win_rate_ci95[1], (
                info.id,
                bot,
                by_bot,
            )


def four_seat_tide(
    bots: list[Any], games: int, seed: int, batch_size: int
) -> cardtable.SimulationResult:
    """A seeded 4-player Turn the Tide run with these bots (Python policies among them)."""
    return cardtable.simulate(
        "turn_the_tide",
        players=4,
        games=games,
        seed=seed,
        bots=bots,
        batch_size=batch_size,
        progress=False,
    )


def assert_seat_0_played_first_legal(
    result: cardtable.SimulationResult, games: int, seed: int
) -> None:
    """Every game's scores are those of seat 0 always playing its first legal action against
    random bots, replayed step by step."""
    game = cardtable.make("turn_the_tide", players=4)
    assert result.scores is not None
    for g in range(games):
        assert list(result.scores[g]) == replay_random_game(game, seed, g, first_policy=True)


def test_python_policy_in_batches_matches_per_step_play() -> None:
    calls: list[int] = []

    def first_legal(batch: PolicyBatch) -> list[int]:
        calls.append(len(batch))
        assert all(s == 0 for s in batch.seats)
        assert all(obs["seat"] == 0 for obs in batch.observations)
        return [legal[0] for legal in batch.legal_actions]

    result = four_seat_tide([first_legal, "random", "random", "random"], 40, 5, 16)
    assert result.bots[0] == "policy:first_legal"
    assert max(calls) == 16, "the policy is called with whole batches"
    assert_seat_0_played_first_legal(result, 40, 5)


def test_python_policy_returning_an_illegal_action_is_refused() -> None:
    def bad(batch: PolicyBatch) -> list[int]:
        return [0] * len(batch)

    with pytest.raises(cardtable.IllegalActionError):
        cardtable.simulate(
            "turn_the_tide", players=3, games=3, bots=[bad, "random", "random"], progress=False
        )

    def short(batch: PolicyBatch) -> list[int]:
        return []

    with pytest.raises(cardtable.IllegalActionError):
        cardtable.simulate(
            "turn_the_tide", players=3, games=3, bots=[short, "random", "random"], progress=False
        )


def test_a_policy_that_empties_its_legal_lists_is_still_named_for_its_illegal_action() -> None:
    """A policy that cleared ``batch.legal_actions`` in place and then answered an illegal
    action got a bare ``IndexError``: the error message was built from the lists it changed."""

    def clears(batch: PolicyBatch) -> list[int]:
        batch.legal_actions.clear()
        return [0] * len(batch)

    with pytest.raises(cardtable.IllegalActionError, match=r"policy 'clears', row 0 .* legal: \["):
        cardtable.simulate("goofspiel", players=2, games=8, bots=[clears, "random"], progress=False)


@pytest.mark.parametrize(
    "answer",
    [
        lambda batch: (99 for _ in range(len(batch))),  # a generator
        lambda batch: {legal[0]: 0.9 for legal in batch.legal_actions},  # a dict: its keys
        lambda batch: {legal[0] for legal in batch.legal_actions},  # a set: no row order
    ],
    ids=["generator", "dict", "set"],
)
def test_a_policy_answer_that_is_not_a_sequence_is_refused(answer: Any) -> None:
    """Only a list, a tuple or a 1-d integer array is an answer (docs/errors.md). A dict used to
    play its keys, and a generator holding an illegal action lost the row at fault from the
    message (the generator was spent when the error was explained)."""
    with pytest.raises(cardtable.IllegalActionError, match="must return a sequence of actions"):
        cardtable.simulate("goofspiel", players=2, games=2, bots=[answer, "random"], progress=False)


def test_a_policy_answer_of_two_dimensions_says_so() -> None:
    # A network's argmax(axis=1, keepdims=True) was refused as "row 0 ...: the action must be an
    # int, got array([9])".
    def column(batch: cardtable.PolicyBatch) -> Any:
        return batch.legal_mask.argmax(axis=1, keepdims=True)

    with pytest.raises(cardtable.IllegalActionError, match=r"an array of shape \(\d+, 1\): return"):
        cardtable.simulate("goofspiel", players=2, games=2, bots=[column, "random"], progress=False)


def test_progress_callback_and_stopping_early() -> None:
    seen: list[tuple[int, int]] = []

    def stop_soon(done: int, total: int) -> bool:
        seen.append((done, total))
        return done == 0  # on a loaded machine no game may be done by the first call

    result = cardtable.simulate(
        "turn_the_tide", players=4, games=3_000_000, threads=1, progress=stop_soon
    )
    assert seen and seen[0][1] == 3_000_000
    assert result.interrupted
    assert 0 < result.games_played < 3_000_000
    assert result.lengths is not None
    played = result.lengths > 0
    assert played.sum() == result.games_played
    assert result.to_arrow().num_rows == result.games_played


def test_a_run_split_into_ranges_merges_into_the_whole_run() -> None:
    """``first_game`` plays one part of a run; the parts, merged in any order, are the run."""
    kw: dict[str, Any] = {"players": 3, "bots": ["greedy", "random", "random"], "seed": 7}
    whole = cardtable.simulate("turn_the_tide", games=900, progress=False, **kw)
    parts = [
        cardtable.simulate(
            "turn_the_tide", games=n, first_game=first, threads=t, progress=False, **kw
        )
        for first, n, t in ((0, 250, 1), (250, 400, 2), (650, 250, 1))
    ]
    merged = cardtable.SimulationResult.merge(reversed(parts))
    assert merged == whole
    assert cardtable.SimulationResult.merge(parts[:1]) == parts[0]
    # A part's arrays, table and replays speak of the run's game numbers.
    middle = parts[1]
    assert middle.first_game == 250 and middle.games_requested == 400
    assert whole.scores is not None and middle.scores is not None
    np.testing.assert_array_equal(middle.scores, whole.scores[250:650])
    table = middle.to_arrow()
    assert table.column("game").to_pylist() == list(range(250, 650))
    assert table.schema.metadata[b"first_game"] == b"250"
    assert "400 games 250–649" in middle.summary_table()
    assert middle.replay(600).history == whole.replay(600).history  # checked against its scores
    with pytest.raises(cardtable.InvalidOptionError, match=r"game must be an int in 250\.\.=649"):
        middle.replay(100)
    # Summary-only parts merge into the summary-only run.
    summaries = [
        cardtable.simulate(
            "turn_the_tide", games=n, first_game=f, keep_games=False, progress=False, **kw
        )
        for f, n in ((0, 500), (500, 400))
    ]
    alone = cardtable.simulate("turn_the_tide", games=900, keep_games=False, progress=False, **kw)
    assert cardtable.SimulationResult.merge(summaries) == alone


def _stopped_after(reports: int) -> Callable[[int, int], bool]:
    """A progress callback that asks the run to stop at its ``reports``-th call."""
    calls = []

    def progress(done: int, total: int) -> bool:
        calls.append(done)
        return len(calls) < reports

    return progress


@pytest.mark.parametrize("threads", [1, 2])
def test_an_interrupted_run_resumes_into_the_whole_run(threads: int) -> None:
    kw: dict[str, Any] = {"players": 4, "bots": ["greedy", "random", "random", "random"]}
    kw |= {"seed": 11, "first_game": 1_000, "games": 400_000}
    whole = cardtable.simulate("turn_the_tide", progress=False, **kw)
    part = cardtable.simulate("turn_the_tide", threads=threads, progress=_stopped_after(2), **kw)
    assert part.interrupted and 0 < part.games_played < whole.games_played
    assert part.lengths is not None
    seen: list[tuple[int, int]] = []

    def record(done: int, total: int) -> bool:
        seen.append((done, total))
        return True

    resumed = part.resume(threads=threads, progress=record)
    assert resumed == whole
    missing = 400_000 - part.games_played
    assert seen[-1] == (missing, missing) and all(t == missing for _, t in seen)
    assert part.interrupted and part.lengths is not None and (part.lengths == 0).any()  # unchanged
    assert whole.resume() is whole


def test_a_resume_interrupted_again_resumes_again() -> None:
    kw: dict[str, Any] = {"players": 3, "seed": 2, "games": 1_500_000, "threads": 1}
    whole = cardtable.simulate("turn_the_tide", progress=False, **kw)
    part = cardtable.simulate("turn_the_tide", progress=_stopped_after(1), **kw)
    again = part.resume(threads=1, progress=_stopped_after(1))
    assert again.interrupted
    assert part.games_played < again.games_played < whole.games_played
    assert again.resume(progress=False) == whole


def _interrupt_at_the_end(done: int, total: int) -> None:
    """A progress callable that is Ctrl-C pressed at the run's last report, after its last game."""
    if done == total:
        raise KeyboardInterrupt


def test_ctrl_c_after_the_last_game_is_not_lost() -> None:
    """The engine looks for Ctrl-C at its reports, and a short run's only one comes after its
    last game: the interrupt was taken there and dropped, so a loop of short runs could not be
    stopped. It is raised again once the run is complete (a run it cut short returns what it
    has, as before)."""
    kw: dict[str, Any] = {"players": 2, "games": 50, "seed": 3}
    with pytest.raises(KeyboardInterrupt):
        cardtable.simulate("goofspiel", progress=_interrupt_at_the_end, **kw)
    game = cardtable.make("goofspiel", players=2)
    states = [game.new_state(seed=s) for s in range(3)]
    with pytest.raises(KeyboardInterrupt):
        cardtable.search(game, states, "flatmc:samples=2", progress=_interrupt_at_the_end)
    # resume plays one range at a time: Ctrl-C at the end of one keeps the ranges before it.
    whole = cardtable.simulate("goofspiel", progress=False, **kw)
    table = cardtable.simulate("goofspiel", progress=False, **kw).to_arrow()
    kept = [g for g in range(50) if not (10 <= g < 20 or 30 <= g < 40)]  # two ranges missing
    meta = dict(table.schema.metadata) | {b"interrupted": b"true"}
    part = cardtable.SimulationResult.from_arrow(table.take(kept).replace_schema_metadata(meta))
    assert part.interrupted and part.games_played == 30
    reports: list[int] = []

    def second_range_interrupted(done: int, total: int) -> None:
        reports.append(done)
        if done == total:
            raise KeyboardInterrupt

    again = part.resume(progress=second_range_interrupted)
    assert again.interrupted and again.games_played == 40
    assert again.resume(progress=False) == whole


def test_a_progress_callable_returning_numpy_false_stops_the_run() -> None:
    result = cardtable.simulate(
        "turn_the_tide",
        players=4,
        games=3_000_000,
        threads=1,
        progress=lambda done, total: np.bool_(done == 0),
    )
    assert result.interrupted and result.games_played < 3_000_000


def test_only_runs_that_kept_their_games_with_built_in_bots_resume() -> None:
    summary = cardtable.simulate("goofspiel", players=2, games=10, keep_games=False, progress=False)
    with pytest.raises(cardtable.InvalidOptionError, match="does not say which games"):
        summary.resume()

    def first(batch: cardtable.PolicyBatch) -> list[int]:
        return [legal[0] for legal in batch.legal_actions]

    with_policy = cardtable.simulate(
        "goofspiel", players=2, games=10, bots=[first, "random"], progress=False
    )
    with pytest.raises(cardtable.InvalidOptionError, match=r"Python policies \(policy:first\)"):
        with_policy.resume()
    with pytest.raises(cardtable.InvalidOptionError, match="progress must be"):
        summary.resume(progress=1)  # type: ignore[arg-type]


def test_policy_runs_split_into_ranges_too() -> None:
    def first(batch: cardtable.PolicyBatch) -> list[int]:
        return [legal[0] for legal in batch.legal_actions]

    kw: dict[str, Any] = {"players": 3, "bots": [first, "random", "random"], "seed": 3}
    whole = cardtable.simulate("turn_the_tide", games=300, progress=False, **kw)
    parts = [
        cardtable.simulate("turn_the_tide", games=n, first_game=f, progress=False, **kw)
        for f, n in ((0, 120), (120, 180))
    ]
    assert cardtable.SimulationResult.merge(parts) == whole


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"seed": 8}, "the results are of different runs: seed 7 and 8 \\(parts of one run"),
        ({"first_game": 300}, "games 0..199 are followed by games from 300, not from 200"),
        ({"first_game": 100}, "games 0..199 are followed by games from 100, not from 200"),
        ({"keep_games": False}, "some results kept per-game arrays and some did not"),
    ],
)
def test_only_consecutive_parts_of_one_run_merge(change: dict[str, Any], message: str) -> None:
    kw: dict[str, Any] = {"players": 3, "seed": 7, "progress": False}
    head = cardtable.simulate("turn_the_tide", games=200, **kw)
    other = cardtable.simulate("turn_the_tide", games=100, **{**kw, "first_game": 200, **change})
    with pytest.raises(cardtable.InvalidOptionError, match=message):
        cardtable.SimulationResult.merge([head, other])


def test_a_run_records_the_version_that_played_it_and_mixes_no_two(tmp_path: Path) -> None:
    """A saved run did not say which version of cardtable played it, so ``merge`` and ``resume``
    joined games of two versions, whose results may differ, into one run without a word."""
    import dataclasses

    pytest.importorskip("pyarrow")
    kw: dict[str, Any] = {"players": 3, "seed": 7, "progress": False}
    head = cardtable.simulate("turn_the_tide", games=20, **kw)
    tail = cardtable.simulate("turn_the_tide", games=10, first_game=20, **kw)
    assert head.version == cardtable.__version__
    table = head.to_arrow()
    assert table.schema.metadata[b"cardtable_version"] == cardtable.__version__.encode()
    assert cardtable.SimulationResult.from_arrow(table) == head
    older = dataclasses.replace(tail, version="0.0.1")
    with pytest.raises(InvalidOptionError, match=r"different versions of cardtable \(0.0.1, "):
        cardtable.SimulationResult.merge([head, older])
    # A table saved before versions were kept loads as of an unknown version (""), which merges
    # with any other; the whole is then of an unknown version too.
    meta = {k: v for k, v in table.schema.metadata.items() if k != b"cardtable_version"}
    unknown = cardtable.SimulationResult.from_arrow(table.replace_schema_metadata(meta))
    assert unknown.version == ""
    merged = cardtable.SimulationResult.merge([unknown, tail])
    assert merged.version == "" and dataclasses.replace(merged, version=head.version) == (
        cardtable.SimulationResult.merge([head, tail])
    )
    # Resuming plays this version's games into the run: refused for a run of another version.
    whole = cardtable.SimulationResult.merge([head, tail])
    assert whole.lengths is not None
    lengths = whole.lengths.copy()
    lengths[12:] = 0  # games 12.. not played: as a run stopped there
    stopped = dataclasses.replace(whole, lengths=lengths, interrupted=True)
    with pytest.raises(InvalidOptionError, match=r"played by cardtable 0\.0\.1 and this is"):
        dataclasses.replace(stopped, version="0.0.1").resume(progress=False)
    assert stopped.resume(progress=False) == whole
    assert dataclasses.replace(stopped, version="").resume(progress=False) == merged


def test_empty_parts_merge_in_any_order_and_results_survive_pickling() -> None:
    import pickle

    kw: dict[str, Any] = {"players": 3, "seed": 7, "progress": False}
    parts = [
        cardtable.simulate("turn_the_tide", games=n, first_game=k, **kw)
        for k, n in ((0, 10), (10, 0), (10, 30))
    ]
    whole = cardtable.simulate("turn_the_tide", games=40, **kw)
    assert cardtable.SimulationResult.merge(parts) == whole
    assert cardtable.SimulationResult.merge(list(reversed(parts))) == whole
    assert "0 games," in parts[1].summary_table()  # no range 10–9 in its title
    for r in (parts[1], whole):  # no games (NaN rates) and some games
        assert pickle.loads(pickle.dumps(r)) == r


def test_a_table_that_is_not_a_run_is_refused() -> None:
    pa = pytest.importorskip("pyarrow")
    part = cardtable.simulate("goofspiel", players=2, games=20, first_game=10, progress=False)
    table = part.to_arrow()
    meta = table.schema.metadata

    def with_meta(**changes: str) -> Any:
        return table.replace_schema_metadata(
            {**meta, **{k.encode(): v for k, v in changes.items()}}
        )

    doubled = pa.concat_tables([table, table])
    shifted = table.set_column(0, "game", pa.array([g + 100 for g in range(10, 30)]))
    for bad, message in [
        (doubled, "a game number is given twice"),
        (shifted, r"game numbers outside the run's range 10\.\.29"),
        (with_meta(first_game="0", games_requested="5"), "outside the run's range 0..4"),
        (with_meta(bots="random"), "1 bots for 2 players"),
        (with_meta(bots='["random"]'), "1 bots for 2 players"),
        (with_meta(bots='["random", 3]'), "bots is not a list of bot specs"),
        (with_meta(games_requested="-1"), "are not a range of a run"),
        (with_meta(interrupted="yes"), "JSONDecodeError"),
        (with_meta(interrupted="1"), "interrupted is 1, not a bool"),
        ("a table", "AttributeError"),
    ]:
        with pytest.raises(cardtable.InvalidOptionError, match=message):
            cardtable.SimulationResult.from_arrow(bad)


def _saved_tide(**changes: str) -> Any:
    """A saved 20-game run of Turn the Tide, its metadata changed by ``changes``."""
    table = cardtable.simulate(
        "turn_the_tide", players=3, games=20, seed=1, progress=False
    ).to_arrow()
    meta = {k.decode(): v.decode() for k, v in table.schema.metadata.items()}
    return table.replace_schema_metadata({**meta, **changes})


def _with_column(table: Any, name: str, values: list[Any], kind: str | None = None) -> Any:
    """``table`` with column ``name`` replaced by ``values`` (of Arrow type ``kind``)."""
    import pyarrow as pa

    array = pa.array(values, getattr(pa, kind)() if kind else None)
    return table.set_column(table.schema.get_field_index(name), name, array)


@pytest.mark.parametrize(
    ("name", "values", "kind", "message"),
    [
        ("score_0", [None] * 20, "int16", "column score_0 has 20 nulls"),
        ("score_0", [float("nan")] * 20, None, "column score_0 is of type double, not integers"),
        ("score_0", [1.5] * 20, None, "column score_0 is of type double, not integers"),
        ("score_0", [[1]] * 20, None, r"column score_0 is of type list<.*>, not integers"),
        ("score_0", [2**63] * 20, "uint64", "column score_0 holds 9223372036854775808, not in"),
        ("win_0", ["x"] * 20, None, "column win_0 is of type string, not booleans"),
        ("win_0", [None] * 20, "bool_", "column win_0 has 20 nulls"),
        ("win_0", [7] * 20, None, "column win_0 is of type int64, not booleans"),
        ("length", [-3] * 20, "int64", r"column length holds -3, not in 1\.\.=4294967295"),
        ("length", [0] * 20, "uint32", r"column length holds 0, not in 1\.\.=4294967295"),
        ("length", [1.5] * 20, None, "column length is of type double, not integers"),
        ("length", [float("nan")] * 20, None, "column length is of type double, not integers"),
        ("game", [g + 0.5 for g in range(20)], None, "column game is of type double"),
        ("game", [str(g) for g in range(20)], None, "column game is of type string"),
        ("game", [-1, *range(1, 20)], "int64", "column game holds -1, not in 0"),
    ],
)
def test_a_saved_table_with_a_bad_column_is_refused_naming_it(
    name: str, values: list[Any], kind: str | None, message: str
) -> None:
    """A column of another type, with nulls or out of range was read into wrapped, truncated or
    NaN-converted arrays, or failed with a bare ``ValueError`` or ``TypeError``."""
    pytest.importorskip("pyarrow")
    bad = _with_column(_saved_tide(), name, values, kind)
    with pytest.raises(InvalidOptionError, match=message) as refused:
        cardtable.SimulationResult.from_arrow(bad)
    assert str(refused.value).startswith("not a table of SimulationResult.to_arrow (or simulate")


def test_a_saved_table_with_bad_metadata_is_refused_naming_the_key() -> None:
    pytest.importorskip("pyarrow")
    table = _saved_tide()
    unknown = 'bots: turn_the_tide: unknown bot "foo"; built-in bots: random, greedy'
    for changes, message in [
        ({"seed": "-1"}, r"seed must be an int in 0\.\.=18446744073709551615, got -1$"),
        ({"seed": str(2**70)}, "seed must be an int in 0..=18446744073709551615, got 1180"),
        ({"bots": json.dumps(["foo", "bar", "baz"])}, unknown),
        ({"bots": "random,mcts:iterations=x,random"}, "bots: turn_the_tide: bot mcts: iterations"),
        ({"options": "[" * 100_000 + "]" * 100_000}, "options is JSON nested too deep to read"),
        ({"bots": "[" * 100_000 + "]" * 100_000}, "bots is JSON nested too deep to read"),
        ({"options": json.dumps({"rounds": [[[]]] * 2})}, "turn_the_tide: option rounds"),
    ]:
        with pytest.raises(InvalidOptionError, match=message):
            cardtable.SimulationResult.from_arrow(_saved_tide(**changes))
    # A run that was not interrupted has a row for each of its games.
    for rows in (0, 10, 19):
        with pytest.raises(InvalidOptionError, match=f"completed all its 20 games .* has {rows}"):
            cardtable.SimulationResult.from_arrow(table.slice(0, rows))
    with pytest.raises(InvalidOptionError, match="all its 1000000000000 games"):
        cardtable.SimulationResult.from_arrow(_saved_tide(games_requested=str(10**12)))


def test_a_saved_run_too_large_to_load_is_a_capacity_error() -> None:
    """``games_requested`` sized the per-game arrays unchecked: NumPy's own ``MemoryError``."""
    pytest.importorskip("pyarrow")
    for games in (10**15, 2**63, 2**64 - 1):
        with pytest.raises(
            cardtable.CapacityError,
            match=f"the per-game results of {games} games .* would not fit in memory",
        ):
            cardtable.SimulationResult.from_arrow(
                _saved_tide(games_requested=str(games), interrupted="true")
            )
    # A stopped run's table (some games of a large range) loads as it was.
    loaded = cardtable.SimulationResult.from_arrow(
        _saved_tide(games_requested="100000", interrupted="true")
    )
    assert loaded.interrupted and loaded.games_played == 20 and loaded.games_requested == 100_000


def test_every_table_a_run_writes_loads_after_the_checks() -> None:
    """The checks refuse no table ``to_arrow`` writes: a Python policy's label, a game number
    from 2**63 on (``uint64``), an empty part, and a table from before ``interrupted`` and
    ``games_requested`` were saved (missing games: it was stopped)."""
    pa = pytest.importorskip("pyarrow")
    policy = cardtable.simulate(
        "goofspiel", players=2, games=6, bots=[first_legal, "random"], progress=False
    )
    assert policy.bots[0] == "policy:first_legal"
    wide = cardtable.simulate("goofspiel", players=2, games=5, first_game=2**63, progress=False)
    assert wide.to_arrow().schema.field("game").type == pa.uint64()
    empty = cardtable.simulate("goofspiel", players=2, games=0, first_game=3, progress=False)
    for run in (policy, wide, empty):
        assert cardtable.SimulationResult.from_arrow(run.to_arrow()) == run
    table = _saved_tide()
    meta = {k: v for k, v in table.schema.metadata.items() if k != b"interrupted"}
    old = table.replace_schema_metadata(
        {k: v for k, v in meta.items() if k not in (b"games_requested", b"first_game")}
    )
    assert not cardtable.SimulationResult.from_arrow(old).interrupted
    stopped = cardtable.SimulationResult.from_arrow(old.take([0, 1, 5]))
    assert stopped.interrupted and stopped.games_played == 3 and stopped.games_requested == 6


def test_from_parquet_refuses_what_is_not_a_saved_run(tmp_path: Path) -> None:
    """pyarrow's ``ArrowInvalid`` and ``TypeError`` came through for a file that is not Parquet,
    a directory (read as a dataset of the files in it), ``5`` and ``None``."""
    pytest.importorskip("pyarrow")
    text = tmp_path / "run.parquet"
    text.write_text("game,length\n", encoding="utf-8")
    with pytest.raises(InvalidOptionError, match="not a Parquet file of SimulationResult"):
        cardtable.SimulationResult.from_parquet(text)
    for bad in (5, None, ""):
        with pytest.raises(InvalidOptionError, match="path must be a str or a path"):
            cardtable.SimulationResult.from_parquet(bad)  # type: ignore[arg-type]
    # A directory of saved runs is no saved run (it was read as one table of all of them).
    parts = tmp_path / "parts"
    parts.mkdir()
    cardtable.simulate("goofspiel", players=2, games=3, progress=False).to_parquet(parts / "a.pq")
    with pytest.raises(IsADirectoryError):
        cardtable.SimulationResult.from_parquet(parts)
    with pytest.raises(FileNotFoundError):
        cardtable.SimulationResult.from_parquet(tmp_path / "none.parquet")


def test_saved_bots_keep_their_specs_as_written() -> None:
    pytest.importorskip("pyarrow")
    # A spec written with spaces came back without them (the names were joined with commas and
    # split again), so the loaded run no longer equalled the run.
    bots = ["flatmc:samples=3, rollout=random", "random"]
    run = cardtable.simulate("goofspiel", players=2, games=4, bots=bots, progress=False)
    table = run.to_arrow()
    assert json.loads(table.schema.metadata[b"bots"]) == bots
    assert cardtable.SimulationResult.from_arrow(table) == run
    # Tables written before keep loading: the specs joined with commas.
    plain = cardtable.simulate("goofspiel", players=2, games=4, progress=False)
    old = plain.to_arrow().replace_schema_metadata(
        {**plain.to_arrow().schema.metadata, b"bots": b"random,random"}
    )
    assert cardtable.SimulationResult.from_arrow(old) == plain


def test_merge_takes_results_and_first_game_fits_the_seed_range() -> None:
    for bad in ([], [1], "results"):
        with pytest.raises(cardtable.InvalidOptionError, match="merge takes one or more"):
            cardtable.SimulationResult.merge(bad)  # type: ignore[arg-type]
    with pytest.raises(cardtable.InvalidOptionError, match="first_game must be an int in"):
        cardtable.simulate("goofspiel", players=2, games=5, first_game=2**64 - 3, progress=False)
    with pytest.raises(cardtable.InvalidOptionError, match="first_game must be an int in"):
        cardtable.simulate("goofspiel", players=2, games=5, first_game=-1, progress=False)


SAVED_RUNS = [
    (game_id, run.players, run.bots, run.options)
    for game_id, info in all_games().items()
    for run in [info.saved_case()]
]
"""Each game's ``saved_run`` (``tests/games/<game_id>.py``)."""


@pytest.mark.parametrize(("game_id", "players", "bots", "options"), SAVED_RUNS)
def test_a_saved_table_gives_back_the_result(
    game_id: str, players: int, bots: list[str] | None, options: dict[str, Any], tmp_path: Path
) -> None:
    """The summary recomputed from the saved games is the engine's, to the last integer."""
    pytest.importorskip("pyarrow")
    result = cardtable.simulate(
        game_id, players=players, games=300, bots=bots, seed=9, progress=False, **options
    )
    assert cardtable.SimulationResult.from_arrow(result.to_arrow()) == result
    path = tmp_path / "run.parquet"
    result.to_parquet(path)
    assert cardtable.SimulationResult.from_parquet(path) == result


def test_saved_parts_of_a_run_load_and_merge(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    kw: dict[str, Any] = {"players": 3, "seed": 2, "progress": False}
    bots = ["mcts:iterations=4,c=0.3", "random", "random"]  # a spec with a comma
    whole = cardtable.simulate("turn_the_tide", games=200, bots=bots, **kw)
    paths = []
    for first, n in ((0, 80), (80, 120)):
        path = tmp_path / f"part{first}.parquet"
        part = cardtable.simulate("turn_the_tide", games=n, first_game=first, bots=bots, **kw)
        part.to_parquet(path)
        paths.append(path)
    loaded = [cardtable.SimulationResult.from_parquet(p) for p in paths]
    assert cardtable.SimulationResult.merge(loaded) == whole
    # An interrupted run's table has only the games completed, and says it was interrupted.
    stopped = cardtable.simulate(
        "turn_the_tide",
        games=10_000_000,
        players=3,
        seed=2,
        threads=1,
        progress=lambda done, total: done == 0,  # stop at the first report
    )
    back = cardtable.SimulationResult.from_arrow(stopped.to_arrow())
    assert back == stopped and back.interrupted and back.games_requested == 10_000_000
    import pyarrow as pa

    with pytest.raises(cardtable.InvalidOptionError, match="not a table of SimulationResult"):
        cardtable.SimulationResult.from_arrow(pa.table({"game": [0]}))


def test_ray_chunks_without_ray_is_refused() -> None:
    with pytest.raises(cardtable.InvalidOptionError, match="ray_chunks=4 goes with backend='ray'"):
        cardtable.simulate("turn_the_tide", players=3, games=2, ray_chunks=4, progress=False)


def test_results_compare_equal_by_value() -> None:
    def run(threads: int, **kw: Any) -> cardtable.SimulationResult:
        return cardtable.simulate(
            "turn_the_tide", players=3, games=200, threads=threads, progress=False, **kw
        )

    one = run(1)
    assert one == run(2) and one == run(1) and one != run(1, seed=1)
    assert one != run(1, keep_games=False)  # no per-game arrays there
    assert (one == "result") is False


def test_the_summary_shows_long_bot_specs_whole() -> None:
    specs = [f"mcts:iterations=5,c=0.3,rollout=greedy,reward=margin,prior={p}" for p in (0.5, 1.5)]
    result = cardtable.simulate(
        "turn_the_tide", players=3, games=2, bots=[*specs, "random"], progress=False
    )
    text = str(result)
    assert "…" not in text
    assert "prior=0.5" in text and "prior=1.5" in text


def test_a_run_stopped_before_any_game_ended_says_so_instead_of_showing_nan() -> None:
    def interrupted(batch: cardtable.PolicyBatch) -> list[int]:
        raise KeyboardInterrupt  # as Ctrl-C during the first decision

    result = cardtable.simulate(
        "turn_the_tide", players=3, games=5, bots=[interrupted, "random", "random"], progress=False
    )
    assert result.interrupted and result.games_played == 0
    text = str(result)
    assert "0 games (interrupted)" in text and "no game was completed" in text
    assert "nan" not in text


def test_a_refused_run_leaves_no_progress_bar(capsys: pytest.CaptureFixture[str]) -> None:
    """A bad bot is refused before any game; the default bar does not stand empty above it."""
    with pytest.raises(InvalidOptionError, match="greedy takes a number of sampled deals"):
        cardtable.simulate("trafficars", players=3, games=5, bots=["greedy:65", "random", "random"])
    captured = capsys.readouterr()
    assert "simulating" not in captured.out + captured.err
    cardtable.simulate("trafficars", players=3, games=5, bots=["greedy:2", "random", "random"])
    captured = capsys.readouterr()
    assert "simulating" in captured.out + captured.err


@pytest.mark.parametrize(
    "kwargs",
    [
        {"games": -1},
        {"games": 1.5},
        {"bots": ["random"] * 3},
        {"bots": ["nonsense"] * 4},
        {"bots": ["random:3"] * 4},
        {"threads": 0},
        {"seed": -1},
        {"backend": "cluster"},
        {"nonsense_option": 1},
    ],
)
def test_bad_simulation_requests(kwargs: dict[str, Any]) -> None:
    args: dict[str, Any] = {"games": 10, "players": 4, "progress": False, **kwargs}
    with pytest.raises(InvalidOptionError):
        cardtable.simulate("turn_the_tide", **args)


def test_arrow_and_parquet_round_trip(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import pyarrow.parquet as pq

    result = cardtable.simulate("turn_the_tide", players=3, games=500, progress=False)
    path = tmp_path / "runs.parquet"
    result.to_parquet(path)
    table = pq.read_table(path)
    assert table.num_rows == 500
    assert table.column_names == [
        "game",
        "length",
        "score_0",
        "score_1",
        "score_2",
        "win_0",
        "win_1",
        "win_2",
    ]
    assert result.scores is not None
    np.testing.assert_array_equal(table.column("score_1").to_numpy(), result.scores[:, 1])
    assert table.schema.metadata[b"game_id"] == b"turn_the_tide"
    # Anything but a str or a path is refused: None and 5 were written as files named so.
    monkeypatch.chdir(tmp_path)
    for bad in (None, 5, ""):
        with pytest.raises(InvalidOptionError, match="path"):
            result.to_parquet(bad)  # type: ignore[arg-type]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["runs.parquet"]


def test_a_damaged_parquet_page_is_refused_by_its_checksum(tmp_path: Path) -> None:
    """The files had no page checksums: a flipped byte in a page's data could be read as other
    games. They are written with checksums now, and reading verifies them."""
    import pyarrow.parquet as pq

    result = cardtable.simulate("goofspiel", players=2, games=500, progress=False)
    path = tmp_path / "run.parquet"
    result.to_parquet(path)
    chunk = pq.ParquetFile(path).metadata.row_group(0).column(2)  # score_0
    data = bytearray(path.read_bytes())
    data[chunk.data_page_offset + chunk.total_compressed_size - 1] ^= 0x10  # its page's data
    path.write_bytes(bytes(data))
    with pytest.raises(OSError, match="CRC checksum verification failed"):
        cardtable.SimulationResult.from_parquet(path)


def test_builtin_bots_drive_states_of_both_backends(backend: str) -> None:
    game = cardtable.make("turn_the_tide", players=3, backend=backend)  # type: ignore[arg-type]
    state = game.new_state(seed=4)
    bots = [cardtable.bot(game, "greedy", seat=p, seed=p) for p in range(3)]
    while not state.is_terminal:
        action = bots[state.current_player].act(state)
        assert action in state.legal_actions()
        state.apply(action)
    assert state.winners
    with pytest.raises(InvalidOptionError):
        cardtable.bot(game, "nonsense", seat=0)
    with pytest.raises(InvalidOptionError):
        cardtable.bot(game, "greedy", seat=5)
    fresh = game.new_state(seed=4)
    with pytest.raises(cardtable.IllegalActionError):
        bots[(fresh.current_player + 1) % 3].act(fresh)


def test_policy_batches_build_observations_only_when_read() -> None:
    """A policy reading only legal actions gets the same games as one reading everything."""
    game = cardtable.make("turn_the_tide", players=4)
    seen: dict[str, Any] = {}

    def legal_only(batch: PolicyBatch) -> list[int]:
        assert batch._observations is None and batch._tensors is None
        return [legal[0] for legal in batch.legal_actions]

    def reads_everything(batch: PolicyBatch) -> np.ndarray:
        tensors = batch.tensors
        assert tensors.dtype == np.float32
        assert tensors.shape == (len(batch), *game.observation_shape)
        # Every Turn the Tide tensor starts with the one-hot seat of its observer.
        assert np.array_equal(np.argmax(tensors[:, : game.players], axis=1), batch.seats)
        assert [obs["seat"] for obs in batch.observations] == batch.seats
        flat, offsets = batch.legal_flat, batch.legal_offsets
        assert flat.dtype == np.uint32 and len(offsets) == len(batch) + 1
        assert [
            flat[offsets[r] : offsets[r + 1]].tolist() for r in range(len(batch))
        ] == batch.legal_actions
        assert_mask_matches(batch, game.num_actions)
        seen["batch"] = batch
        return np.array([legal[0] for legal in batch.legal_actions], dtype=np.uint16)

    runs = [
        four_seat_tide([policy, "random", "random", "random"], 30, 9, 8)
        for policy in (legal_only, reads_everything)
    ]
    assert np.array_equal(runs[0].scores, runs[1].scores)  # type: ignore[arg-type]
    assert runs[0].lengths is not None
    assert_seat_0_played_first_legal(runs[0], 30, 9)
    # Once answered, a batch no longer reads the games (they have moved on).
    late = PolicyBatch([0], [0], source=None)
    with pytest.raises(cardtable.InvalidStateError, match="already answered"):
        _ = late.observations
    assert seen["batch"].legal_actions  # read during the call, still there


def assert_mask_matches(batch: PolicyBatch, num_actions: int) -> None:
    """``legal_mask`` and the flat arrays hold exactly the batch's legal-action lists."""
    mask = batch.legal_mask
    assert mask.dtype == np.bool_ and mask.shape == (len(batch), num_actions)
    assert [np.flatnonzero(row).tolist() for row in mask] == batch.legal_actions
    flat, offsets = batch.legal_flat, batch.legal_offsets
    assert flat.tolist() == [a for row in batch.legal_actions for a in row]
    assert np.diff(offsets).tolist() == [len(row) for row in batch.legal_actions]


def test_a_batch_without_its_action_count_has_no_mask() -> None:
    """A batch made by hand needs ``num_actions`` for its mask, and actions below it."""
    batch = PolicyBatch([0, 1], [0, 1], legal_actions=[[1, 3], [0]])
    with pytest.raises(InvalidOptionError, match="num_actions"):
        _ = batch.legal_mask
    sized = PolicyBatch([0, 1], [0, 1], legal_actions=[[1, 3], [0]], num_actions=4)
    assert sized.legal_mask.tolist() == [[False, True, False, True], [True, False, False, False]]
    small = PolicyBatch([0], [0], legal_actions=[[1, 3]], num_actions=3)
    with pytest.raises(InvalidOptionError, match="action 3 is out of range"):
        _ = small.legal_mask
    for bad in (-1, "4", 4.0, True):
        with pytest.raises(InvalidOptionError, match="num_actions must be an int"):
            PolicyBatch([0], [0], legal_actions=[[1]], num_actions=bad)  # type: ignore[arg-type]
    row: Any = np.array([2])
    width: Any = np.int64(3)
    numpy_sized = PolicyBatch([0], [0], legal_actions=[row], num_actions=width)
    assert numpy_sized.legal_mask.tolist() == [[False, False, True]]
    assert numpy_sized.legal_actions == [[2]]


@pytest.mark.parametrize(
    ("games", "legal", "message"),
    [
        ([0], [[-1]], "row of legal_actions"),
        ([0], [[2**32]], "row of legal_actions"),
        ([0], [[1.5]], "row of legal_actions"),
        ([0], [[True]], "row of legal_actions"),
        ([0], [None], "row of legal_actions"),
        ([0], ["12"], "row of legal_actions"),
        ([0], [[1], [2]], "legal_actions must have one entry per game"),
        ([0, 1], [[1]], "legal_actions must have one entry per game"),
        ([0], "1", "legal_actions must have one entry per game"),
        ([0], [np.array(5)], "row of legal_actions"),
        ([0], np.array(5), "legal_actions must have one entry per game"),
        (np.array(0), [[1]], "games must be a sequence"),
    ],
)
def test_a_batch_made_by_hand_refuses_bad_legal_actions(
    games: Any, legal: Any, message: str
) -> None:
    """Rows that are not lists of action ids, or not one per game, are refused when the batch is
    made, not turned into a wrong mask or a bare NumPy error later."""
    seats = [0] * (len(games) if isinstance(games, list) else 1)
    with pytest.raises(InvalidOptionError, match=message):
        PolicyBatch(games, seats, legal_actions=legal, num_actions=5)
    short_seats: list[Any] = [[0], np.array(0)]
    for bad in short_seats:
        with pytest.raises(InvalidOptionError, match="seats must have one entry per game"):
            PolicyBatch([0, 1], bad, legal_actions=[[1], [2]], num_actions=5)


def test_legal_action_lists_of_a_batch_do_not_set_off_collections() -> None:
    """The collector's threshold leaves room for one batch of row lists while a run lasts, and is
    restored afterwards (also after a failed run); a threshold the policy sets is kept."""
    young: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 0:
            young.append(1)

    def first_legal(batch: PolicyBatch) -> list[int]:
        return [legal[0] for legal in batch.legal_actions]

    before = gc.get_threshold()
    four_seat_tide([first_legal, "random", "random", "random"], 1, 2, 1)  # imports done
    gc.callbacks.append(count)
    try:
        result = four_seat_tide([first_legal, "random", "random", "random"], 1024, 2, 1024)
    finally:
        gc.callbacks.remove(count)
    assert gc.get_threshold() == before
    # About 45 steps of 1024 new lists each: without the room, a young collection at each.
    assert len(young) <= 2
    assert_seat_0_played_first_legal(result, 20, 2)

    def fails(batch: PolicyBatch) -> list[int]:
        raise RuntimeError("policy bug")

    with pytest.raises(RuntimeError, match="policy bug"):
        four_seat_tide([fails, "random", "random", "random"], 8, 0, 8)
    assert gc.get_threshold() == before

    # Runs in two threads at once: each adds its batch; the last to end restores the threshold.
    seen: list[int] = []

    def watches(batch: PolicyBatch) -> list[int]:
        seen.append(gc.get_threshold()[0])
        return first_legal(batch)

    runs = [
        threading.Thread(
            target=four_seat_tide, args=([watches, "random", "random", "random"], 200, s, 16)
        )
        for s in range(2)
    ]
    for run in runs:
        run.start()
    for run in runs:
        run.join()
    assert gc.get_threshold() == before
    assert min(seen) >= before[0] + 16 and max(seen) <= before[0] + 2 * (16 + 64)

    def sets_threshold(batch: PolicyBatch) -> list[int]:
        gc.set_threshold(5000, *before[1:])
        return first_legal(batch)

    try:
        four_seat_tide([sets_threshold, "random", "random", "random"], 8, 0, 8)
        assert gc.get_threshold() == (5000, *before[1:])
    finally:
        gc.set_threshold(*before)


def test_several_policies_share_a_step() -> None:
    def first_a(batch: PolicyBatch) -> list[int]:
        return [legal[0] for legal in batch.legal_actions]

    def first_b(batch: PolicyBatch) -> tuple[int, ...]:
        assert all(s in (1, 3) for s in batch.seats)
        # The group's own rows of the step's flat arrays and mask.
        assert_mask_matches(batch, cardtable.make("turn_the_tide", players=4).num_actions)
        return tuple(legal[0] for legal in batch.legal_actions)

    mixed = four_seat_tide([first_a, first_b, "random", first_b], 20, 3, 8)
    same = four_seat_tide([first_a, first_a, "random", first_a], 20, 3, 8)
    assert np.array_equal(mixed.scores, same.scores)  # type: ignore[arg-type]


def test_kept_games_use_the_smallest_dtypes() -> None:
    result = cardtable.simulate("turn_the_tide", players=4, games=50, seed=1, progress=False)
    assert result.scores is not None and result.winners is not None
    assert result.lengths is not None
    assert result.scores.dtype == np.int16
    assert result.winners.dtype == np.bool_
    assert result.lengths.dtype == np.uint32
    per_game = result.scores.itemsize * 4 + result.winners.itemsize * 4 + result.lengths.itemsize
    assert per_game == 16
    # The same games as the per-step API plays, whatever the dtype.
    game = cardtable.make("turn_the_tide", players=4)
    assert list(result.scores[7]) == replay_random_game(game, 1, 7)


@pytest.mark.parametrize("progress", [0, 1, "yes", None, np.True_, [True]])
def test_progress_is_exactly_true_false_or_a_callable(
    progress: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """``progress=0`` and ``progress="yes"`` used to draw the bar (only ``is False`` was tested)."""
    calls: list[int] = []

    def policy(batch: PolicyBatch) -> list[int]:
        calls.append(len(batch))
        return [legal[0] for legal in batch.legal_actions]

    lineups: list[list[Any] | None] = [None, [policy, "random"]]
    for bots in lineups:
        with pytest.raises(InvalidOptionError, match="progress must be True, False or a callable"):
            cardtable.simulate("goofspiel", players=2, games=5, bots=bots, progress=progress)
    assert not calls  # refused before any game
    captured = capsys.readouterr()
    assert "simulating" not in captured.out + captured.err


def test_a_progress_callable_must_take_done_and_total() -> None:
    """``progress=lambda done: ...`` failed with a bare ``TypeError`` at the first report."""
    game = cardtable.make("goofspiel", players=2)
    states = [game.new_state(seed=1)]
    wrong_arities: list[Any] = [lambda done: None, lambda: None, lambda done, total, rate: None]
    for wrong in wrong_arities:
        with pytest.raises(InvalidOptionError, match=r"accept two positional arguments"):
            cardtable.simulate("goofspiel", players=2, games=5, progress=wrong)
        with pytest.raises(InvalidOptionError, match=r"progress\(done, total\)"):
            cardtable.search(game, states, "random", progress=wrong)
        with pytest.raises(InvalidOptionError, match=r"accept two positional arguments"):
            cardtable.simulate(
                "goofspiel", players=2, games=5, bots=[first_legal, "random"], progress=wrong
            )

    class Report:
        def __call__(self, done: int, total: int, note: str = "") -> None:
            pass

    seen: list[tuple[Any, ...]] = []
    # min has no signature to inspect; a method, *args and a default are fine.
    for right in (min, Report(), lambda *args: seen.append(args), Report().__call__):
        cardtable.simulate("goofspiel", players=2, games=5, progress=right)
        cardtable.search(game, states, "random", progress=right)
    assert seen and all(len(args) == 2 for args in seen)


def test_the_progress_bar_is_drawn_on_standard_error(capsys: pytest.CaptureFixture[str]) -> None:
    def policy(batch: PolicyBatch) -> list[int]:
        return [legal[0] for legal in batch.legal_actions]

    lineups: list[list[Any] | None] = [None, [policy, "random"]]
    for bots in lineups:
        cardtable.simulate("goofspiel", players=2, games=5, bots=bots, progress=True)
        captured = capsys.readouterr()
        assert "simulating" in captured.err and "5/5" in captured.err
        assert captured.out == ""


def test_python_policies_are_labelled_apart_from_bots_and_each_other() -> None:
    """A policy named like a built-in bot, or two of one name, used to share one by-bot row."""

    def greedy(batch: PolicyBatch) -> list[int]:
        return [legal[0] for legal in batch.legal_actions]

    result = cardtable.simulate(
        "goofspiel", players=2, games=50, bots=[greedy, "greedy"], seed=1, progress=False
    )
    assert result.bots == ["policy:greedy", "greedy"]
    assert [(b.bot, b.seats) for b in result.by_bot] == [("policy:greedy", (0,)), ("greedy", (1,))]
    # A policy's game cannot be rebuilt: said so, not "did not replay to the scores of the run".
    with pytest.raises(InvalidOptionError, match="not a built-in bot"):
        result.replay(0)

    def first(batch: PolicyBatch) -> list[int]:
        return [legal[0] for legal in batch.legal_actions]

    def last(batch: PolicyBatch) -> list[int]:
        return [legal[-1] for legal in batch.legal_actions]

    last.__name__ = first.__name__ = "<lambda>"
    tide = cardtable.simulate(
        "turn_the_tide", players=4, games=4, bots=[first, last, first, "random"], progress=False
    )
    assert tide.bots == ["policy:<lambda>", "policy:<lambda>#2", "policy:<lambda>", "random"]
    assert [b.seats for b in tide.by_bot] == [(0, 2), (1,), (3,)]
    # A comma in a policy's name split a study's "lineup" column (labels joined by commas) into
    # a label of no bot: it is written as ";".
    first.__name__ = "first, legal"
    assert cardtable.sim.bot_labels([first, "random"]) == ["policy:first; legal", "random"]
    assert split_bot_specs(",".join(cardtable.sim.bot_labels([first, last]))) == [
        "policy:first; legal",
        "policy:<lambda>",
    ]


def test_a_near_miss_of_an_argument_of_simulate_is_named() -> None:
    """``thread=1`` is taken as a game option, which the game refuses; the message points to
    ``threads``. A near miss of a game option gets only the game's list of its options."""
    with pytest.raises(
        InvalidOptionError, match=r"did you mean threads= \(an argument of simulate"
    ):
        cardtable.simulate("turn_the_tide", players=4, games=10, progress=False, thread=1)
    with pytest.raises(InvalidOptionError) as refused:
        cardtable.simulate("turn_the_tide", players=4, games=10, progress=False, round=2)
    assert "known: " in str(refused.value) and "did you mean" not in str(refused.value)
