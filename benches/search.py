"""Speed of the search bots: ISMCTS iterations/s and decisions/s per game, on one core and all.

One benchmark per game with a determinizer (``GameInfo.search_bots``; none is skipped silently:
the list is empty until the game's determinizer lands):

* ``mcts decision``: one ``mcts:iterations=ITERATIONS`` decision on a seeded midgame state, one
  core; ``extra_info`` holds ``iterations_per_s`` and ``decisions_per_s``.
* ``mcts games``: whole games with ``mcts:iterations=ITERATIONS`` in every seat through
  ``simulate`` on one core and on all cores; ``extra_info`` holds ``decisions_per_s``.

Run ``python -m benches.search`` for a plain table.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pytest
from pytest_benchmark.fixture import BenchmarkFixture

import cardtable
from cardtable.sim import simulate

ITERATIONS = 250
SEARCHABLE = [g for g in cardtable.games() if g.search_bots]


def lineup(game_id: str, players: int) -> list[str]:
    """``mcts`` in every seat."""
    return [f"mcts:iterations={ITERATIONS}"] * players


def _midgame(game: Any, seed: int = 1) -> Any:
    """A seeded state about a third of the way into a random game, at a real choice.

    The first decision from a third of the way on with more than one legal action (a forced move
    would measure no search at all).
    """
    full = game.new_state(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while not full.is_terminal:
        legal = full.legal_actions()
        full.apply(legal[int(rng.integers(len(legal)))])
        steps += 1
    state = game.new_state(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps // 3):
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    while not state.is_terminal and len(state.legal_actions()) < 2:
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    return state


@pytest.mark.parametrize("game_id", [g.id for g in SEARCHABLE])
def test_mcts_decision(benchmark: BenchmarkFixture, game_id: str) -> None:
    info = next(g for g in SEARCHABLE if g.id == game_id)
    game = cardtable.make(game_id, players=info.min_players)
    state = _midgame(game)
    bot = cardtable.bot(game, f"mcts:iterations={ITERATIONS}", state.current_player, seed=1)
    benchmark.group = f"{game_id}: mcts decision"
    action = benchmark(bot.act, state)
    assert action in state.legal_actions()
    mean = benchmark.stats.stats.mean if benchmark.stats else float("nan")
    benchmark.extra_info.update(
        {"iterations_per_s": ITERATIONS / mean, "decisions_per_s": 1 / mean}
    )


@pytest.mark.parametrize("threads", [1, None], ids=["one core", "all cores"])
@pytest.mark.parametrize("game_id", [g.id for g in SEARCHABLE])
def test_mcts_games(benchmark: BenchmarkFixture, game_id: str, threads: int | None) -> None:
    info = next(g for g in SEARCHABLE if g.id == game_id)
    n = info.min_players
    bots = lineup(game_id, n)
    benchmark.group = f"{game_id}: mcts games"

    def run() -> Any:
        return simulate(
            game_id, games=2, players=n, bots=bots, seed=1, threads=threads, progress=False
        )

    result = benchmark(run)
    assert result.games_played == 2
    mean = benchmark.stats.stats.mean if benchmark.stats else float("nan")
    benchmark.extra_info["decisions_per_s"] = result.decisions / mean


def main() -> None:
    """Prints iterations/s and decisions/s of ``mcts`` per game, one core and all cores."""
    print(
        "| game | iterations/s (1 core) | decisions/s (1 core, one state) "
        "| decisions/s (whole games, 1 core) | decisions/s (whole games, all cores) |"
    )
    print("|---|---:|---:|---:|---:|")
    for info in SEARCHABLE:
        n = info.min_players
        game = cardtable.make(info.id, players=n)
        state = _midgame(game)
        bot = cardtable.bot(game, f"mcts:iterations={ITERATIONS}", state.current_player)
        t = time.perf_counter()
        for _ in range(10):
            bot.act(state)
        per = (time.perf_counter() - t) / 10
        rates = []
        for threads in (1, None):
            t = time.perf_counter()
            r = simulate(
                info.id,
                games=8,
                players=n,
                bots=lineup(info.id, n),
                seed=1,
                threads=threads,
                progress=False,
            )
            rates.append(r.decisions / (time.perf_counter() - t))
        print(
            f"| {info.id} | {ITERATIONS / per:,.0f} | {1 / per:,.1f} | "
            f"{rates[0]:,.1f} | {rates[1]:,.1f} |"
        )
    if not SEARCHABLE:
        print("(no game has a determinizer yet)")


if __name__ == "__main__":
    main()
