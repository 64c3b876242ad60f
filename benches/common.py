"""Shared pytest-benchmark bodies: every game's bench file calls these with its own ``CONFIG``.

Each benchmark sets ``benchmark.group`` to the operation and records the backend (and game) in
``benchmark.extra_info``, so ``make bench`` prints Rust and reference side by side per operation.
Every body also checks what it computed (a finished game, the requested number of games, the
1-thread result on 2 threads, an unchanged state), so the single run that ``make test`` makes of
each benchmark is a real test.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

import cardtable
from cardtable._rng import SplitMix64
from cardtable.protocols import StateProtocol

BACKENDS = ("rust", "reference")


@cache
def configs() -> dict[str, dict[str, Any]]:
    """The configuration (players and options) each registered game is measured with by
    ``compare.py``, ``perf.py``, ``search_perf.py`` and ``policy.py``: the ``CONFIG`` of its bench
    file ``benches/<game_id>.py``, in registration order.

    A registered game without a bench file is left out here (``tests/test_registration.py``
    names the missing file), so that the other benches still run.

    Raises:
        TypeError: If a game's bench file does not define ``CONFIG``.
    """
    found: dict[str, dict[str, Any]] = {}
    for info in cardtable.games():
        try:
            module = importlib.import_module(f"benches.{info.id}")
        except ModuleNotFoundError as err:
            if err.name != f"benches.{info.id}":
                raise  # the bench file exists and imports something missing
            continue
        config = getattr(module, "CONFIG", None)
        if not isinstance(config, dict):
            raise TypeError(f"benches/{info.id}.py must define CONFIG (players and options)")
        found[info.id] = config
    return found


def search_decisions(game_id: str) -> int:
    """The decisions ``search_perf.py`` measures in a game: its bench file's optional
    ``SEARCH_DECISIONS`` (about half a second of native work), else 10."""
    module = importlib.import_module(f"benches.{game_id}")
    decisions = getattr(module, "SEARCH_DECISIONS", 10)
    if not isinstance(decisions, int) or isinstance(decisions, bool) or decisions < 1:
        raise TypeError(f"benches/{game_id}.py: SEARCH_DECISIONS must be an int >= 1")
    return decisions


def _label(benchmark: BenchmarkFixture, op: str, game_id: str, backend: str, **info: Any) -> None:
    benchmark.group = f"{game_id}: {op}"
    benchmark.extra_info.update({"game": game_id, "backend": backend, "operation": op, **info})


def _random_game(game: cardtable.GameProtocol, seed: int) -> StateProtocol:
    state = game.new_state(seed=seed)
    rng = SplitMix64(seed)
    while not state.is_terminal:
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    return state


def _midgame(game: cardtable.GameProtocol) -> StateProtocol:
    """A state about a third of the way through a seeded random game."""
    full = _random_game(game, 1)
    state = game.new_state()
    for action in full.history[: len(full.history) // 3]:
        state.apply(action)
    return state


def bench_full_game(
    benchmark: BenchmarkFixture, game_id: str, backend: str, config: dict[str, Any]
) -> None:
    """One whole seeded game with uniformly random players through the per-step API."""
    game = cardtable.make(game_id, backend=backend, **config)  # type: ignore[arg-type]
    _label(benchmark, "full random game (per-step API)", game_id, backend, **config)
    seeds = iter(range(10**9))
    state = benchmark(lambda: _random_game(game, next(seeds)))
    assert state.is_terminal and state.winners
    first = _random_game(game, 0)
    assert first.history == _random_game(game, 0).history, "a seeded game must repeat exactly"


def bench_batch(
    benchmark: BenchmarkFixture, game_id: str, threads: int, games: int, config: dict[str, Any]
) -> None:
    """``games`` whole games with random bots in the Rust batch runner on ``threads`` threads."""
    _label(benchmark, "batch of random games", game_id, "rust", threads=threads, games=games)
    result = benchmark(
        lambda: cardtable.simulate(
            game_id, games=games, threads=threads, keep_games=False, progress=False, **config
        )
    )
    assert result.games_played == games and not result.interrupted
    assert result.decisions >= games
    if threads > 1:
        single = cardtable.simulate(
            game_id, games=games, threads=1, keep_games=False, progress=False, **config
        )
        assert single.decisions == result.decisions
        assert single.seats == result.seats


def bench_operations(
    benchmark: BenchmarkFixture, game_id: str, backend: str, op: str, config: dict[str, Any]
) -> None:
    """One hot operation on a mid-game state. ``apply`` changes the state, so it is timed on a
    fresh clone each call: its group is "clone + apply" (``clone`` alone is its own group)."""
    game = cardtable.make(game_id, backend=backend, **config)  # type: ignore[arg-type]
    state = _midgame(game)
    before = state.to_dict()
    _label(benchmark, OPERATION_LABELS.get(op, op), game_id, backend, **config)
    if op == "new_state":
        fresh = benchmark(lambda: game.new_state(seed=3))
        assert fresh.history == game.new_state(seed=3).history and not fresh.is_terminal
    elif op == "legal_actions":
        legal = benchmark(state.legal_actions)
        assert legal and legal == sorted(set(legal))
    elif op == "clone":
        twin = benchmark(state.clone)
        assert twin.to_dict() == before
    elif op == "apply":
        action = state.legal_actions()[0]

        def clone_and_apply() -> StateProtocol:
            twin = state.clone()
            twin.apply(action)
            return twin

        twin = benchmark(clone_and_apply)
        assert twin.history == [*state.history, action]
    elif op == "observation":
        observation = benchmark(lambda: state.observation(0))
        assert observation == state.observation(0) and observation
    elif op == "to_dict":
        assert benchmark(state.to_dict) == before
    else:
        raise ValueError(op)
    assert state.to_dict() == before, f"{op} changed the state it was measured on"


OPERATIONS = ("new_state", "legal_actions", "clone", "apply", "observation", "to_dict")
OPERATION_LABELS = {"apply": "clone + apply"}
"""What an operation's benchmark group names, where it is not the operation alone."""


def define_benchmarks(game_id: str, config: dict[str, Any], batch_games: int) -> tuple[Any, ...]:
    """The standard benchmark tests of one game, for a bench file to bind at module level.

    Returns ``(test_full_game, test_batch, test_operation)``: full games per backend, batches of
    ``batch_games`` games on 1 and 2 threads, and every hot operation per backend.
    """

    @pytest.mark.parametrize("backend", BACKENDS)
    def test_full_game(benchmark: BenchmarkFixture, backend: str) -> None:
        bench_full_game(benchmark, game_id, backend, config)

    @pytest.mark.parametrize("threads", [1, 2])
    def test_batch(benchmark: BenchmarkFixture, threads: int) -> None:
        bench_batch(benchmark, game_id, threads, batch_games, config)

    @pytest.mark.parametrize("op", OPERATIONS)
    @pytest.mark.parametrize("backend", BACKENDS)
    def test_operation(benchmark: BenchmarkFixture, backend: str, op: str) -> None:
        bench_operations(benchmark, game_id, backend, op, config)

    return test_full_game, test_batch, test_operation
